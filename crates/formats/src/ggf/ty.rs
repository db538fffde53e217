//! GGF's `TY` property: the game type, read into rules and written from them.

use crate::engine::{BoardShape, Rules};

/// A `TY` board token.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum TyBoard {
    Shape(BoardShape),
    /// 12 or 14: legal GGF the engine does not play.
    Unsupported(u32),
}

impl TyBoard {
    pub(super) fn from_token(token: &str) -> Option<TyBoard> {
        Some(match token {
            "4" => TyBoard::Shape(BoardShape::Four),
            "6" => TyBoard::Shape(BoardShape::Six),
            "8" => TyBoard::Shape(BoardShape::Eight),
            "10" => TyBoard::Shape(BoardShape::Ten),
            "88" => TyBoard::Shape(BoardShape::Octagon),
            "12" => TyBoard::Unsupported(12),
            "14" => TyBoard::Unsupported(14),
            _ => return None,
        })
    }
}

/// The board token of a shape.
pub(super) fn board_token(board: BoardShape) -> &'static str {
    match board {
        BoardShape::Four => "4",
        BoardShape::Six => "6",
        BoardShape::Eight => "8",
        BoardShape::Ten => "10",
        BoardShape::Octagon => "88",
    }
}

/// The `TY` the writer derives from the rules alone: the board, then `a` for anti.
pub(super) fn canonical_type(rules: &Rules) -> String {
    let anti = if rules.is_anti() { "a" } else { "" };
    format!("{}{anti}", board_token(rules.board()))
}

/// A parsed `TY` value (Welty-gdk `OsMatchType`).
#[derive(Clone, Debug, Default)]
pub(super) struct GgfType {
    pub(super) board: Option<TyBoard>,
    pub(super) anti: bool,
    /// Errors: message and byte range in the value.
    pub(super) errors: Vec<(String, std::ops::Range<usize>)>,
}

impl GgfType {
    pub(super) fn parse(text: &str) -> GgfType {
        let mut ty = GgfType::default();
        let bytes = text.as_bytes();
        let mut colour_flags: Vec<char> = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            let start = i;
            let c = bytes[i];
            if c.is_ascii_whitespace() {
                i += 1;
                continue;
            }
            if c.is_ascii_digit() {
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                let token = &text[start..i];
                match TyBoard::from_token(token) {
                    Some(_) if ty.board.is_some() => {
                        ty.errors.push(("names a second board".into(), start..i))
                    }
                    Some(b) => ty.board = Some(b),
                    None => ty
                        .errors
                        .push((format!("has an unknown board `{token}`"), start..i)),
                }
                continue;
            }
            i += 1;
            while !text.is_char_boundary(i) {
                i += 1;
            }
            match c.to_ascii_lowercase() {
                b'a' => ty.anti = true,
                flag @ (b's' | b'k' | b'b' | b'w') => colour_flags.push(flag as char),
                b'r' => {
                    while i < bytes.len() && bytes[i] == b' ' {
                        i += 1;
                    }
                    let digits = i;
                    while i < bytes.len() && bytes[i].is_ascii_digit() {
                        i += 1;
                    }
                    if digits == i {
                        ty.errors
                            .push(("has `r` without a number of discs".into(), start..i));
                    }
                }
                _ => ty.errors.push((
                    format!("has an unknown token `{}`", &text[start..i]),
                    start..i,
                )),
            }
        }
        if colour_flags.len() > 1 {
            let flags: String = colour_flags.iter().collect();
            ty.errors.push((
                format!("combines flags `{flags}`: at most one of s, k, b, w is allowed"),
                0..text.len(),
            ));
        }
        if ty.board.is_none() && ty.errors.is_empty() {
            ty.errors
                .push(("names no board (8 is assumed)".into(), 0..text.len()));
        }
        ty
    }
}
