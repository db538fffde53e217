//! A repair run's work: each input opened and its games repaired a batch at a time on all
//! cores, each repair settled (picked, names exchanged, result fixed) and written.

use super::*;

/// Why the work stopped before the end.
pub(super) enum Stop {
    /// Writing the games failed (a closed pipe included).
    Output(io::Error),
    /// The caller's `step` returned an error.
    Step(io::Error),
}

pub(super) type StepFn<'s> = dyn FnMut(RepairStep<'_>) -> io::Result<()> + 's;

/// A run's shared parts.
pub(super) struct Run<'r, T> {
    pub(super) options: &'r RepairRunOptions,
    pub(super) pool: &'r rayon::ThreadPool,
    pub(super) picks: Picks,
    pub(super) tap: &'r T,
    /// Whether the output is a staged file (read back before it is put in place).
    pub(super) staged: bool,
}

impl<T: Fn(Opened) -> Opened> Run<'_, T> {
    /// Every input in turn, then what the picks and the selection did not find.
    pub(super) fn inputs<'o>(
        &mut self,
        inputs: &[PathBuf],
        sink: &mut Option<Sink<'o>>,
        out: &mut Option<&'o mut (dyn io::Write + Send)>,
        report: &mut RepairRunReport,
        step: &mut StepFn<'_>,
    ) -> Result<(), Stop> {
        for path in inputs {
            self.input(path, sink, out, report, step)?;
        }
        for unused in self.picks.unused() {
            report.failed = true;
            step(RepairStep::PickFailed(&unused)).map_err(Stop::Step)?;
        }
        if let (Some(selector), 0) = (&self.options.select, report.counts.games) {
            report.failed = true;
            let selector = selector.to_string();
            step(RepairStep::NothingSelected(&selector)).map_err(Stop::Step)?;
        }
        Ok(())
    }

    /// Opens `path` and repairs its games a batch at a time, writing each batch (and
    /// reporting it) before reading the next.
    pub(super) fn input<'o>(
        &mut self,
        path: &Path,
        sink: &mut Option<Sink<'o>>,
        out: &mut Option<&'o mut (dyn io::Write + Send)>,
        report: &mut RepairRunReport,
        step: &mut StepFn<'_>,
    ) -> Result<(), Stop> {
        let options = self.options;
        let input = match open(InputSource::path(path), &options.input) {
            Ok(input) => (self.tap)(input),
            Err(e) => {
                report.failed = true;
                return step(RepairStep::OpenFailed(&e)).map_err(Stop::Step);
            }
        };
        report.counts.files += 1;
        let before = report.counts;
        let name = input.name().clone();
        let note = input.note();
        step(RepairStep::Input {
            name: &name,
            note: &note,
        })
        .map_err(Stop::Step)?;
        let read = ReadOptions {
            name: name.clone(),
            path: (path != Path::new("-")).then(|| path.to_path_buf()),
            rules: options.input.rules,
            names_dir: None,
            name_files: None,
        };
        let format = input.format();
        let sink = match (sink.as_mut(), out.take()) {
            (Some(s), _) => s,
            (None, Some(o)) => {
                let opened = Sink::open(options, format, o, self.staged).map_err(Stop::Output)?;
                let instead_of = (opened.format != format).then_some(format);
                step(RepairStep::Writing {
                    format: opened.format,
                    instead_of,
                })
                .map_err(Stop::Step)?;
                sink.insert(opened)
            }
            (None, None) => {
                return Err(Stop::Output(io::Error::other(
                    "the output was taken without opening the writer",
                )))
            }
        };
        let mut games = input.games();
        let mut ended = false;
        while !ended {
            let (batch, end) = self.batch(&mut games, &name, report, step)?;
            ended = end;
            self.repair_batch(&batch, format, &read, sink, report, step)?;
        }
        step(RepairStep::Ended {
            name: &name,
            before: &before,
            after: &report.counts,
        })
        .map_err(Stop::Step)
    }

    /// The next games of the input, and whether it ended (a game that cannot be read ends
    /// it there, reported).
    pub(super) fn batch(
        &self,
        games: &mut Games<'static>,
        name: &Arc<str>,
        report: &mut RepairRunReport,
        step: &mut StepFn<'_>,
    ) -> Result<(Vec<ParsedGame>, bool), Stop> {
        let mut batch: Vec<ParsedGame> = Vec::with_capacity(BATCH);
        while batch.len() < BATCH {
            match games.next() {
                Some(Ok(g)) => batch.push(g),
                Some(Err(error)) => {
                    report.failed = true;
                    step(RepairStep::ReadFailed {
                        name,
                        error: &error,
                    })
                    .map_err(Stop::Step)?;
                    return Ok((batch, true));
                }
                None => return Ok((batch, true)),
            }
        }
        Ok((batch, false))
    }

    /// Repairs the games of `batch` the selection takes (on all cores), and writes them
    /// all in order, each reported.
    pub(super) fn repair_batch(
        &mut self,
        batch: &[ParsedGame],
        format: Format,
        read: &ReadOptions,
        sink: &mut Sink<'_>,
        report: &mut RepairRunReport,
        step: &mut StepFn<'_>,
    ) -> Result<(), Stop> {
        let options = self.options;
        let file = &read.name;
        // Only the games the selection takes are repaired (a few: they are copied out).
        let chosen: Vec<bool> = batch
            .iter()
            .map(|g| options.select.as_ref().map_or(true, |s| g.is_selected(s)))
            .collect();
        let repairs = if chosen.iter().all(|&c| c) {
            self.pool
                .install(|| repair_batch(batch, format, read, &options.search))
        } else {
            let selected: Vec<ParsedGame> = batch
                .iter()
                .zip(&chosen)
                .filter(|(_, &c)| c)
                .map(|(g, _)| g.clone())
                .collect();
            self.pool
                .install(|| repair_batch(&selected, format, read, &options.search))
        };
        let mut repairs = repairs.into_iter();
        for (game, &chosen) in batch.iter().zip(&chosen) {
            let Some(repair) = chosen.then(|| repairs.next()).flatten() else {
                let written = sink.write_as_read(game).map_err(Stop::Output)?;
                report.counts.passed_over += 1;
                report.counts.written += usize::from(written);
                step(RepairStep::PassedOver {
                    file,
                    game,
                    written,
                })
                .map_err(Stop::Step)?;
                continue;
            };
            let repair = self.settle(file, game, repair, report, step)?;
            let (written, note) = sink.write(&repair).map_err(Stop::Output)?;
            report.counts.count(&repair, written);
            step(RepairStep::Game {
                file,
                game,
                repair: &repair,
                written,
                note: note.as_deref(),
            })
            .map_err(Stop::Step)?;
        }
        Ok(())
    }

    /// The repair as the options take it: the alternative picked, the names exchanged of a
    /// game written from White's side, the result fixed when asked.
    pub(super) fn settle(
        &mut self,
        file: &Arc<str>,
        game: &ParsedGame,
        repair: Repair,
        report: &mut RepairRunReport,
        step: &mut StepFn<'_>,
    ) -> Result<Repair, Stop> {
        let options = self.options;
        let (repair, error) = self.picks.apply(game.index, repair);
        if let Some(error) = error {
            report.failed = true;
            step(RepairStep::PickFailed(&format!("{file}: {error}"))).map_err(Stop::Step)?;
        }
        let repair = match (&options.pairings, &repair.record) {
            (Some(pairings), Some(record)) if repair.is_reversed_result() => {
                let (black, white) = (record.tag("Black"), record.tag("White"));
                let pairing = pairings.swapped(
                    record.tag("Round"),
                    black.unwrap_or_default(),
                    white.unwrap_or_default(),
                    options.register.as_ref(),
                );
                match pairing {
                    Some(p) if black.is_some() && white.is_some() => {
                        step(RepairStep::NamesSwapped {
                            file,
                            game,
                            pairing: &p.to_string(),
                            line: p.line,
                        })
                        .map_err(Stop::Step)?;
                        repair.swap_names()
                    }
                    _ => repair,
                }
            }
            _ => repair,
        };
        Ok(match options.fix_result {
            true => repair.fix_result(),
            false => repair,
        })
    }
}

impl RepairCounts {
    /// Counts one repaired game, and whether it was `written`.
    pub(super) fn count(&mut self, repair: &Repair, written: bool) {
        self.games += 1;
        match repair.status {
            RepairStatus::Valid => self.valid += 1,
            RepairStatus::Repaired => self.repaired += 1,
            RepairStatus::WrongResult => self.wrong_result += 1,
            RepairStatus::Ambiguous => self.ambiguous += 1,
            RepairStatus::Unrepairable => self.unrepairable += 1,
        }
        if written {
            self.written += 1;
        }
    }
}
