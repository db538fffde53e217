//! What `find` prints or writes of the games found: references (text or JSON), the
//! explorer tree at the position, or a file of the games.

use super::*;

/// Prints one line (or object) per game found.
pub(super) fn print_references(
    args: &Args,
    query: &Query,
    inputs: &[PathBuf],
    found: &[Found],
    searched: u64,
) -> io::Result<()> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let object = |f: &Found| {
        json!({
            "file": inputs.get(f.file).map(|p| p.display().to_string()),
            "game": f.index,
            "black": f.black,
            "white": f.white,
            "ply": f.hit.ply,
            "symmetry": symmetry_name(f.hit.symmetry),
            "next": move_text(f.hit.next),
        })
    };
    match args.format {
        Shape::Text => {
            for f in found {
                let file = inputs
                    .get(f.file)
                    .map(|p| p.display().to_string())
                    .unwrap_or_default();
                let names = format!(
                    "{} - {}",
                    f.black.as_deref().unwrap_or("?"),
                    f.white.as_deref().unwrap_or("?")
                );
                write!(out, "{file} #{}  {names}", f.index)?;
                if query.target.is_some() {
                    write!(out, "  after {} moves", f.hit.ply)?;
                    if f.hit.symmetry != reversi_check::event::Symmetry::Identity {
                        write!(out, " ({})", f.hit.symmetry.describe())?;
                    }
                }
                writeln!(out)?;
            }
        }
        Shape::Jsonl => {
            for f in found {
                serde_json::to_writer(&mut out, &object(f))?;
                writeln!(out)?;
            }
        }
        Shape::Json => {
            let games: Vec<_> = found.iter().map(object).collect();
            let doc = json!({
                "query": query_json(query),
                "searched": searched,
                "found": found.len(),
                "games": games,
            });
            serde_json::to_writer_pretty(&mut out, &doc)?;
            writeln!(out)?;
        }
    }
    out.flush()
}

pub(super) fn query_json(query: &Query) -> serde_json::Value {
    json!({
        "board": query.target.as_ref().map(Target::board_string),
        "where": (!query.tags.is_empty()).then(|| query.tags.to_string()),
        "symmetries": query.symmetries,
    })
}

/// Prints the explorer tree of the games found.
pub(super) fn print_tree(args: &Args, query: &Query, found: &[Found]) -> io::Result<()> {
    let mut tree = Explorer::default();
    for f in found {
        tree.add_outcome(&f.hit, f.winner, f.margin);
    }
    let rows = tree.rows();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let row_json = |r: &reversi_runs::archive::find::ExplorerRow| {
        json!({
            "move": move_text(Some(r.mv)),
            "games": r.branch.games,
            "share": r.share,
            "black_wins": r.branch.black_wins,
            "draws": r.branch.draws,
            "white_wins": r.branch.white_wins,
            "unknown": r.branch.unknown,
            "average_margin": r.branch.average_margin(),
        })
    };
    match args.format {
        Shape::Text => {
            if let Some(target) = &query.target {
                writeln!(out, "{}", target.position())?;
            }
            writeln!(
                out,
                "{} games: {} continue, {} end here",
                tree.total(),
                tree.continuing(),
                tree.ended().games
            )?;
            writeln!(
                out,
                "{:<6} {:>8} {:>7} {:>8} {:>6} {:>8} {:>8} {:>9}",
                "move", "games", "share", "Black", "draw", "White", "unknown", "B-W avg"
            )?;
            for r in &rows {
                let margin = r
                    .branch
                    .average_margin()
                    .map_or_else(|| "-".to_string(), |m| format!("{m:+.1}"));
                writeln!(
                    out,
                    "{:<6} {:>8} {:>6.1}% {:>8} {:>6} {:>8} {:>8} {:>9}",
                    move_text(Some(r.mv)).unwrap_or_default(),
                    r.branch.games,
                    r.share * 100.0,
                    r.branch.black_wins,
                    r.branch.draws,
                    r.branch.white_wins,
                    r.branch.unknown,
                    margin
                )?;
            }
        }
        Shape::Jsonl => {
            for r in &rows {
                serde_json::to_writer(&mut out, &row_json(r))?;
                writeln!(out)?;
            }
        }
        Shape::Json => {
            let doc = json!({
                "query": query_json(query),
                "games": tree.total(),
                "continuing": tree.continuing(),
                "ended": tree.ended().games,
                "moves": rows.iter().map(row_json).collect::<Vec<_>>(),
            });
            serde_json::to_writer_pretty(&mut out, &doc)?;
            writeln!(out)?;
        }
    }
    out.flush()
}

/// Writes the records of the games found to `path`, atomically: refused games are named
/// on standard error and left out; returns how many.
pub(super) fn write_games(
    args: &Args,
    path: &Path,
    inputs: &[PathBuf],
    found: &mut [Found],
) -> io::Result<usize> {
    let (format, dialect) = match &args.to {
        Some(to) => to.clone(),
        None => {
            let ext = path
                .extension()
                .map(|e| e.to_string_lossy().to_ascii_lowercase())
                .unwrap_or_default();
            match Format::from_extension(&ext) {
                Some(format) => (format, None),
                None => {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        format!("{}: give the format to write with --to", path.display()),
                    ))
                }
            }
        }
    };
    let mut guarded: Vec<PathBuf> = inputs.to_vec();
    guarded.extend(output::name_files(inputs, args.input.names.as_deref()));
    let mut guarded: Vec<&Path> = guarded.iter().map(PathBuf::as_path).collect();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => Some(d.to_path_buf()),
        _ => Some(PathBuf::from(".")),
    };
    // A WTHOR output's name files: where `--names` says, else beside it.
    let names = args.input.names.as_deref().map(wthor::Names::parse);
    let names = names
        .transpose()
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    let name_files = names.as_ref().and_then(wthor::Names::files).cloned();
    guarded.extend(
        name_files
            .iter()
            .flat_map(|f| [f.players.as_path(), f.tournaments.as_path()]),
    );
    let names_dir = names
        .as_ref()
        .and_then(wthor::Names::dir)
        .map(PathBuf::from);
    let options = WriteOptions {
        lossy: args.lossy,
        dialect,
        names_dir: names_dir.or_else(|| dir.clone()),
        name_files: name_files.clone(),
        year: None,
        staging_dir: dir,
        year_headers: None,
    };
    let output = SharedOutput::new(Output::create(path, &guarded)?);
    if format == Format::Wthor {
        wthor::prepare_names(&options)?;
    }
    let mut writer: Box<dyn RecordWriter> = format.writer(Box::new(output.handle()), &options);
    let mut written = 0usize;
    let mut refused = 0usize;
    for f in found.iter_mut() {
        let Some(record) = f.record.take() else {
            continue;
        };
        let name = inputs
            .get(f.file)
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        match writer.write(&record) {
            Ok(dropped) => {
                written += 1;
                if !dropped.is_empty() && !args.quiet {
                    stderr_line(format_args!(
                        "note: {name} #{}: written without {}",
                        f.index,
                        dropped.join(", ")
                    ));
                }
            }
            Err(WriteError::Io(e)) => return Err(output.failed(e)),
            Err(e) => {
                refused += 1;
                let why = e
                    .refusal(&format.name(), args.lossy)
                    .unwrap_or_else(|| e.to_string());
                stderr_line(format_args!("error: {name} #{}: {why}", f.index));
            }
        }
    }
    let finished = writer.finish();
    drop(writer);
    let output = output.into_output()?;
    if let Err(e) = finished {
        return Err(output.write_failed(e));
    }
    let name = output.name();
    output.commit()?;
    if !args.quiet {
        let refusals = if refused > 0 {
            format!(" ({refused} refused: give --lossy to write what {format} can hold)")
        } else {
            String::new()
        };
        stderr_line(format_args!(
            "note: wrote {written} games to {name}{refusals}"
        ));
    }
    Ok(refused)
}
