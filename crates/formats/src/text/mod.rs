//! Text input that several readers share: lines with their offsets, bounded in length,
//! decoded as UTF-8 or, line by line when that fails, as Windows-1252 (the encoding of
//! WTHOR-era Windows tools), with NUL bytes reported and never passed on; and UTF-16
//! input recognised by its byte-order mark. Also the decimal numbers GGF and SGF read and
//! write (`parse_number`, `format_number`).
//!
//! Diagnostics made here: `syntax-too-long` (a line or game over [`MAX_GAME_BYTES`]: the
//! game is skipped), `syntax-bad-encoding` (a line that is not UTF-8, read as CP1252; a
//! warning), `syntax-nul-byte` (a NUL byte, read as U+FFFD; an error),
//! `syntax-game-too-large` (a game of more than [`MAX_MOVES`] moves or [`MAX_TAGS`] tags:
//! not read; [`too_large`]) and `syntax-control-character` (a control character in a
//! record's text, read as U+FFFD; a warning; [`replace_controls`]).

mod controls;
mod encoding;
mod limits;
mod lines;
mod numbers;
mod results;
mod utf16;

pub(crate) use controls::clean_record;
pub use controls::{control_in, has_control, is_control, replace_controls};
pub(crate) use encoding::bad_encoding_message;
pub use encoding::{decode, decode_cp1252, decode_line_by_line, encode_cp1252};
pub(crate) use limits::too_long;
pub use limits::{
    too_large, RunawayGuard, MAX_GAME_BYTES, MAX_MOVES, MAX_RUN_WITHOUT_GAME, MAX_TAGS,
};
pub(crate) use lines::{read_line_capped, Line, LineAt, LineRead, LineReader};
pub(crate) use numbers::{decimal, format_number, parse_number, push_decimal};
pub(crate) use results::unreadable_result;
pub use utf16::{utf16_bom, Utf16, Utf16Reader};
