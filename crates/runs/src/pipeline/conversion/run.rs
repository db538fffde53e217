//! The run: blocks prepared by the workers and written in input order; an output verified.

use std::io;

use super::plain::Scratch;
use super::prepare::prepare;
use super::work::{Done, Prepared, Step, Work};
use super::{
    Conversion, Event, Fingerprint, Input, Mismatch, Outcome, Outputs, Single, Stopped, Tally,
    Written,
};
use crate::formats::{RecordWriter, WriteError};
use crate::pipeline::blocks;

impl Conversion {
    /// Converts every game of every input through `writer`, each input given with the
    /// caller's tag (handed back in [`Event::Start`]) and `None` for an input that could
    /// not be opened, calling `sink` with each game and what became of it, in input order.
    /// Returns the counts. An output error, or an error from `sink`, stops the run: it
    /// comes back with the counts so far ([`Stopped`]). The caller finishes the writer.
    pub fn run<T, I, F>(
        &self,
        inputs: I,
        writer: &mut dyn RecordWriter,
        sink: F,
    ) -> Result<Tally, Stopped>
    where
        T: Send,
        I: Iterator<Item = (T, Option<Input>)> + Send,
        F: FnMut(Event<'_, T>) -> io::Result<()>,
    {
        self.run_split(inputs, &mut Single(writer), sink)
    }

    /// [`Conversion::run`] into several files: each game goes to the writer of the file
    /// the template of [`Conversion::split`] names for it ([`Written::file`]); without a
    /// template, all go to the file `""`. The caller finishes the writers.
    pub fn run_split<T, I, F>(
        &self,
        inputs: I,
        outputs: &mut dyn Outputs,
        mut sink: F,
    ) -> Result<Tally, Stopped>
    where
        T: Send,
        I: Iterator<Item = (T, Option<Input>)> + Send,
        F: FnMut(Event<'_, T>) -> io::Result<()>,
    {
        let renderer = outputs.renderer();
        let mut tally = Tally::default();
        let mut report = |done: &mut Done<T>| -> io::Result<()> {
            if let Done::Games(games) = done {
                for prepared in games.iter_mut() {
                    let outcome = write(outputs, prepared)?;
                    tally.count(&prepared.game, &outcome);
                    sink(Event::Game(&prepared.game, &outcome))?;
                }
                return Ok(());
            }
            match std::mem::replace(done, Done::Reported) {
                Done::Start(tag, opened) => {
                    tally.files += usize::from(opened);
                    sink(Event::Start(tag))
                }
                Done::Failed(e) => sink(Event::ReadFailed(e)),
                Done::Games(_) | Done::Reported => Ok(()),
            }
        };
        let work = Work {
            renderer: renderer.as_ref(),
            target: self.target.as_deref(),
            split: self.split.as_deref(),
            select: self.select.as_deref(),
            skip: self.skip.as_deref(),
            edits: self.edits.as_deref(),
            fingerprint_only: false,
        };
        match blocks::run(
            self.jobs,
            blocks::CONVERSION_BLOCK,
            inputs,
            |unit, scratch: &mut Scratch| prepare(unit, work, scratch),
            &mut report,
        ) {
            Ok(()) => Ok(tally),
            Err(error) => Err(Stopped {
                error,
                counts: tally,
            }),
        }
    }

    /// Reads `output` (what a run wrote, in the target's format) back and compares it game
    /// by game with `written`, the [`Written::fingerprint`]s of the games written, in
    /// order: `Ok(None)` when every game reads back as it was written, else the first
    /// that does not. An error reading `output` or `written` is returned.
    ///
    /// ```
    /// use reversi_runs::pipeline::conversion::{Conversion, Event, Outcome};
    /// use reversi_formats::{Format, ReadOptions, WriteOptions};
    /// use reversi_runs::pipeline::Input;
    /// let input = |text: &'static [u8], format| Input { format, reader: Box::new(text), options: ReadOptions::default() };
    /// let (mut out, mut written) = (Vec::new(), Vec::new());
    /// {
    ///     let mut writer = Format::Rgn.writer(Box::new(&mut out), &WriteOptions::default());
    ///     Conversion::new().run([((), Some(input(b"f5d6c3\nf5f6\n", Format::MoveString)))].into_iter(), &mut *writer, |e| {
    ///         if let Event::Game(_, Outcome::Written(w)) = e { written.push(w.fingerprint) }
    ///         Ok(())
    ///     }).unwrap();
    ///     writer.finish().unwrap();
    /// }
    /// let back = |text: Vec<u8>| Input { format: Format::Rgn, reader: Box::new(std::io::Cursor::new(text)), options: ReadOptions::default() };
    /// let check = Conversion::new();
    /// assert_eq!(check.verify(back(out.clone()), written.iter().copied().map(Ok)).unwrap(), None);
    /// let changed = String::from_utf8(out).unwrap().replace("f6", "d6");
    /// let mismatch = check.verify(back(changed.into_bytes()), written.into_iter().map(Ok)).unwrap().unwrap();
    /// assert_eq!((mismatch.game, mismatch.what), (2, vec!["moves"]));
    /// ```
    pub fn verify(
        &self,
        output: Input,
        mut written: impl Iterator<Item = io::Result<Fingerprint>>,
    ) -> io::Result<Option<Mismatch>> {
        let work = Work {
            renderer: None,
            target: None,
            split: None,
            select: None,
            skip: None,
            edits: None,
            fingerprint_only: true,
        };
        let mut game = 0;
        let mut mismatch = None;
        let mut compare = |done: &mut Done<()>| -> io::Result<()> {
            match done {
                Done::Games(games) => {
                    for prepared in games.iter() {
                        game += 1;
                        let found = match prepared.step {
                            Step::Unreadable => Fingerprint::of_unreadable(),
                            _ => prepared.fingerprint,
                        };
                        let what = match written.next().transpose()? {
                            None => vec!["extra"],
                            Some(expected) => expected.differences(&found),
                        };
                        if !what.is_empty() {
                            mismatch = Some(Mismatch { game, what });
                            // Stops the reading: the first difference is enough.
                            return Err(io::Error::other("mismatch"));
                        }
                    }
                    Ok(())
                }
                Done::Failed(e) => Err(io::Error::new(e.kind(), e.to_string())),
                Done::Start(..) | Done::Reported => Ok(()),
            }
        };
        let run = blocks::run(
            self.jobs,
            blocks::CONVERSION_BLOCK,
            [((), Some(output))].into_iter(),
            |unit, scratch: &mut Scratch| prepare(unit, work, scratch),
            &mut compare,
        );
        if mismatch.is_some() {
            return Ok(mismatch);
        }
        run?;
        Ok(written.next().transpose()?.map(|_| Mismatch {
            game: game + 1,
            what: vec!["missing"],
        }))
    }
}

/// Writes a prepared game; an output error is returned, a refusal is an outcome. The text
/// stays in `step`, to be freed by the worker that rendered it.
fn write(outputs: &mut dyn Outputs, prepared: &mut Prepared) -> io::Result<Outcome> {
    let Prepared {
        game,
        step,
        derived_result,
        fingerprint,
        file,
    } = prepared;
    let written = match step {
        Step::Unreadable if game.index == 0 => return Ok(Outcome::FileProblem),
        Step::Unreadable => return Ok(Outcome::Unreadable),
        Step::Rendered(Err(_)) => match std::mem::replace(step, Step::Unreadable) {
            Step::Rendered(Err(why)) => Err(why),
            _ => return Ok(Outcome::Unreadable),
        },
        // Only a game to write opens its file.
        Step::Rendered(Ok(rendered)) => outputs
            .writer(file.as_deref().unwrap_or(""))?
            .write_rendered(rendered),
        Step::Record => match &game.record {
            Some(record) => outputs.writer(file.as_deref().unwrap_or(""))?.write(record),
            None => return Ok(Outcome::Unreadable),
        },
    };
    match written {
        Ok(losses) => Ok(Outcome::Written(Written {
            // What a lossy target dropped of the result is not read back.
            fingerprint: if losses.is_empty() {
                *fingerprint
            } else {
                fingerprint.without_result()
            },
            losses,
            derived_result: *derived_result,
            file: file.take(),
        })),
        Err(WriteError::Io(e)) => Err(e),
        Err(why) => Ok(Outcome::Refused(why)),
    }
}
