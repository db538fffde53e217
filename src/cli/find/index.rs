//! `find --index`: the index file beside the archive, made or brought up to date, that
//! answers position queries without reading the games.

use super::*;

/// The index to answer from (opened, built or brought up to date), its path and the
/// inputs' stamps. `None` after a usage error (reported).
pub(super) fn index_for(
    args: &Args,
    inputs: &[PathBuf],
    options: &InputOptions,
) -> io::Result<Option<(Index, PathBuf, Vec<FileStamp>)>> {
    let path = match (&args.index_file, args.inputs.as_slice()) {
        (Some(path), _) => path.clone(),
        (None, [one]) if one != Path::new("-") => {
            let trimmed = one.components().as_path().to_path_buf();
            let mut name = trimmed.as_os_str().to_os_string();
            name.push(".rrx");
            PathBuf::from(name)
        }
        _ => {
            stderr_line(
                "error: --index with several inputs (or standard input) needs --index-file FILE",
            );
            return Ok(None);
        }
    };
    if inputs.iter().any(|p| p == Path::new("-")) {
        stderr_line("error: --index cannot index standard input");
        return Ok(None);
    }
    let mut stamps = Vec::with_capacity(inputs.len());
    for p in inputs {
        stamps.push(FileStamp::of(p)?);
    }
    let old = match Index::open(&path) {
        Ok(index) if args.depth.map_or(true, |d| d == index.depth()) => {
            if index.is_fresh(&stamps) {
                return Ok(Some((index, path, stamps)));
            }
            Some(index)
        }
        Ok(_) => {
            note(
                args,
                format_args!("note: {}: another depth: rebuilding it", path.display()),
            );
            None
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => {
            note(args, format_args!("note: {e}: rebuilding it"));
            None
        }
    };
    let started = Instant::now();
    let depth = args
        .depth
        .or(old.as_ref().map(Index::depth))
        .unwrap_or(DEFAULT_DEPTH);
    let mut builder = Builder::new(depth);
    let mut kept = 0;
    if let Some(old) = &old {
        builder.keep(old, |f| stamps.contains(&f.stamp))?;
        kept = old
            .files()
            .iter()
            .filter(|f| stamps.contains(&f.stamp))
            .count();
        let gone = old
            .files()
            .iter()
            .filter(|f| !stamps.iter().any(|s| s.path == f.stamp.path))
            .count();
        let changed = old.files().len() - kept - gone;
        note(
            args,
            format_args!(
                "note: {}: out of date ({} of its {} files unchanged, {changed} changed, {gone} gone, {} new): updating it",
                path.display(),
                kept,
                old.files().len(),
                stamps.iter().filter(|s| !old.files().iter().any(|f| f.stamp.path == s.path)).count()
            ),
        );
    }
    let to_read: Vec<(usize, &FileStamp)> = stamps
        .iter()
        .enumerate()
        .filter(|(_, s)| {
            !old.as_ref()
                .is_some_and(|o| o.files().iter().any(|f| f.stamp == **s))
        })
        .collect();
    let jobs = super::super::capped_jobs(args.jobs, args.quiet);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(io::Error::other)?;
    let parts: Vec<io::Result<_>> = pool.install(|| {
        use rayon::prelude::*;
        to_read
            .par_iter()
            .map(|(k, stamp)| {
                let input = input::open(&inputs[*k], options)?;
                let name = input.name().clone();
                Builder::read_file((*stamp).clone(), input.into_input(), depth)
                    .map_err(|e| io::Error::new(e.kind(), format!("{name}: reading failed: {e}")))
            })
            .collect()
    });
    let mut games = 0;
    let mut unindexed = 0;
    for part in parts {
        let part = part?;
        games += part.games();
        unindexed += part.unindexed();
        builder.add_part(part);
    }
    let mut guarded: Vec<PathBuf> = inputs.to_vec();
    guarded.extend(output::name_files(inputs, args.input.names.as_deref()));
    let guarded: Vec<&Path> = guarded.iter().map(PathBuf::as_path).collect();
    builder.write(&path, &guarded)?;
    let index = Index::open(&path)?;
    note(
        args,
        format_args!(
            "note: {}: {} {} files ({} games read, {} of them not indexed: read from their files by each query; {} files taken over), depth {}, {:.2} s",
            path.display(),
            if old.is_some() { "updated:" } else { "built:" },
            index.files().len(),
            games,
            unindexed,
            kept,
            index.depth(),
            started.elapsed().as_secs_f64()
        ),
    );
    Ok(Some((index, path, stamps)))
}
