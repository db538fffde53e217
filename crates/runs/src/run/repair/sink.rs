//! The writer of a repair run: each game checked (its refusal, what it must read back as),
//! written with its repair stated, and its fingerprint spooled for the read-back.

use super::*;

/// The writer of the chosen format over the output, made when the first input tells the
/// default format.
pub(super) struct Sink<'a> {
    pub(super) format: Format,
    pub(super) writer: Box<dyn RecordWriter + 'a>,
    /// Applied to every game repaired.
    pub(super) edits: TagEdits,
    /// What every game written must read back as, when the output is a staged file: the
    /// output is read back before it is put in place, as a conversion's is.
    pub(super) back: Option<ReadBack>,
    /// Reads the output back (the target, its options, the rules of records without).
    pub(super) conversion: Conversion,
}

impl<'a> Sink<'a> {
    pub(super) fn open(
        options: &RepairRunOptions,
        input_format: Format,
        out: &'a mut (dyn io::Write + Send),
        staged: bool,
    ) -> io::Result<Sink<'a>> {
        let format = options.to.unwrap_or(match input_format {
            Format::Pgn(PgnDialect::Rgn) => Format::Rgn,
            // Move strings hold no tags: a CSV's players, round and result would be lost.
            Format::MoveString => Format::Rgn,
            f => f,
        });
        let dialect = match format {
            Format::Pgn(d) if d != PgnDialect::Rgn => Some(d.name().to_string()),
            _ => None,
        };
        let write = WriteOptions {
            lossy: options.lossy,
            dialect,
            names_dir: None,
            ..WriteOptions::default()
        };
        let read = ReadOptions {
            rules: options.input.rules,
            ..ReadOptions::default()
        };
        let back = match staged && ReadBack::applies(format) {
            true => Some(ReadBack::beside(&options.output)?),
            false => None,
        };
        Ok(Sink {
            format,
            conversion: Conversion::new().target(format, &write, &read),
            writer: format.writer(Box::new(out), &write),
            edits: options.edits.clone(),
            back,
        })
    }

    /// What `record` must read back as once written (readied as a conversion to the target
    /// readies a game: passes written out, result settled), or why the target refuses it:
    /// a game whose error it would hide (a wrong result in a format without results), as
    /// a conversion refuses it.
    pub(super) fn check(&self, record: &Record) -> Result<Fingerprint, WriteError> {
        let mut readied = record.clone();
        let found = self.conversion.ready(&mut readied, 1, &[]);
        match found.refused {
            Some(why) => Err(why),
            None => Ok(self.conversion.fingerprint(&readied, &found.found)),
        }
    }

    /// Keeps `fingerprint`, of a game just written with `losses`, to read the output back
    /// with (its result left out when the target dropped part of it).
    pub(super) fn spool(
        &mut self,
        fingerprint: Option<Fingerprint>,
        losses: &[String],
    ) -> io::Result<()> {
        let (Some(back), Some(fingerprint)) = (&mut self.back, fingerprint) else {
            return Ok(());
        };
        back.push(match losses.is_empty() {
            true => fingerprint,
            false => fingerprint.without_result(),
        })
    }

    /// Writes a game the selection passed over, as it was read; whether it was written (a
    /// game that could not be read, or that the format cannot hold, is not).
    pub(super) fn write_as_read(&mut self, game: &ParsedGame) -> io::Result<bool> {
        let Some(record) = &game.record else {
            return Ok(false);
        };
        // The tag edits go to the games the selection takes, as the repair does.
        let Ok(fingerprint) = self.check(record) else {
            return Ok(false);
        };
        match self.writer.write(record) {
            Ok(losses) => self.spool(Some(fingerprint), &losses).map(|()| true),
            Err(WriteError::Io(e)) => Err(e),
            Err(_) => Ok(false),
        }
    }

    /// Writes the game's record: with the repair stated (a tag and move comments, or the
    /// tag alone when the format has no comments). Whether it was written, and a note when
    /// not as wished.
    pub(super) fn write(&mut self, repair: &Repair) -> io::Result<(bool, Option<String>)> {
        let (Some(commented), Some(annotated), Some(plain)) = (
            repair.commented(),
            repair.annotated(),
            repair.record.clone(),
        ) else {
            return Ok((
                false,
                Some("the game could not be read and is not written".into()),
            ));
        };
        let mut last = Vec::new();
        // Tags and comments aside, the three are one game: checked once. A valid or
        // repaired game hides no error: it is checked only to be read back.
        let fingerprint = match (&self.back, repair.status) {
            (None, RepairStatus::Valid | RepairStatus::Repaired) => None,
            _ => {
                let mut edited = plain.clone();
                self.edits.apply(&mut edited);
                match self.check(&edited) {
                    Ok(fingerprint) => Some(fingerprint),
                    Err(why) => {
                        let format = self.format.to_string();
                        let said = why.to_string().replacen("the target format", &format, 1);
                        let hint = match repair.status {
                            RepairStatus::WrongResult => {
                                " (--fix-result writes the board's result)"
                            }
                            _ => "",
                        };
                        return Ok((false, Some(format!("not written: {said}{hint}"))));
                    }
                }
            }
        };
        for (i, mut record) in [commented, annotated, plain].into_iter().enumerate() {
            self.edits.apply(&mut record);
            match self.writer.write(&record) {
                Ok(losses) => {
                    self.spool(fingerprint, &losses)?;
                    let note = if !losses.is_empty() {
                        Some(format!("dropped {}", losses.join("; ")))
                    } else if i == 2 && repair.status == RepairStatus::Repaired {
                        Some(format!(
                            "{} cannot hold a note of the repair; the edits are in this report only",
                            self.format
                        ))
                    } else {
                        None
                    };
                    return Ok((true, note));
                }
                Err(WriteError::CannotHold(what)) => last = what,
                // The rules or moves do not fit the format: no annotation changes that.
                Err(WriteError::ChangesMeaning(what)) => {
                    last = what;
                    break;
                }
                Err(
                    hidden @ (WriteError::HidesErrors { .. } | WriteError::NeedsSetting { .. }),
                ) => {
                    last = vec![hidden.to_string()];
                    break;
                }
                Err(WriteError::Io(e)) => return Err(e),
            }
        }
        Ok((
            false,
            Some(format!(
                "not written: {} cannot hold {}",
                self.format,
                last.join("; ")
            )),
        ))
    }
}
