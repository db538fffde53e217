//! The diagram as a self-contained SVG document.
//!
//! Layout: squares of [`CELL`] pixels, the column letters above the board and the row
//! numbers to its left; the board's squares are drawn one by one, so the octagon's cut
//! corners are simply absent. No external fonts, images or styles: generic font families
//! only.

use std::fmt::Write;

use super::{Diagram, Marks, Style};
use crate::engine::{BoardShape, Cell, Color, Move, Position, Square, SquareSet};

/// Side of a square, in SVG pixels.
pub const CELL: u32 = 40;
/// Room for the coordinates, left of and above the board.
const LABEL: u32 = 26;
/// Room right of and below the board.
const PAD: u32 = 14;
/// Disc radius.
const RADIUS: f32 = 16.5;

const BACKGROUND: &str = "#ffffff";
const BOARD: &str = "#2e7d4b";
const GRID: &str = "#123d24";
const LABEL_INK: &str = "#3a3a3a";
const BLOCKED: &str = "#6f6f6f";
const BLOCKED_HATCH: &str = "#474747";
const LAST_MOVE: &str = "#ffd21f";
const LEGAL_DOT: &str = "#8fd3ff";
const LEGAL_RING: &str = "#0b3b5c";
const ILLEGAL: &str = "#e3241b";
/// Caption lines: height in pixels, and characters per line for a board of `CELL` pixels.
const CAPTION_LINE: u32 = 18;
const CAPTION_CHARS_PER_CELL: usize = 5;

/// Fill, outline and ink for numbers, per disc.
fn disc_paint(cell: Cell) -> Option<(&'static str, &'static str, &'static str)> {
    match cell {
        Cell::Disc(Color::Black) => Some(("#161616", "#000000", "#ffffff")),
        Cell::Disc(Color::White) => Some(("#f6f6f6", "#2b2b2b", "#111111")),
        Cell::Disc(Color::Red) => Some(("#d7261e", "#6e100b", "#ffffff")),
        Cell::Disc(Color::Green) => Some(("#8fe35f", "#1f4d12", "#111111")),
        Cell::Neutral => Some(("#a3a3a3", "#4a4a4a", "#111111")),
        Cell::OffBoard | Cell::Blocked | Cell::Empty => None,
    }
}

/// Where the SVG draws the centre of `sq`, in pixels from the top-left corner.
///
/// ```
/// use reversi_formats::render::{square_centre, CELL};
/// let (a1x, a1y) = square_centre("a1".parse().unwrap());
/// let (b2x, b2y) = square_centre("b2".parse().unwrap());
/// assert_eq!((b2x - a1x, b2y - a1y), (CELL, CELL));
/// ```
pub fn square_centre(sq: Square) -> (u32, u32) {
    (
        LABEL + sq.col() as u32 * CELL + CELL / 2,
        LABEL + sq.row() as u32 * CELL + CELL / 2,
    )
}

fn corner(sq: Square) -> (u32, u32) {
    (
        LABEL + sq.col() as u32 * CELL,
        LABEL + sq.row() as u32 * CELL,
    )
}

/// The SVG of a diagram: the board's squares, its grid and outline, the coordinates, then
/// the discs (numbered, or with the last move framed).
pub(super) fn render(d: &Diagram, style: &Style) -> String {
    render_marked(d, style, &Marks::default())
}

/// [`render`], with the marks drawn over the discs and the caption under the board.
pub(super) fn render_marked(d: &Diagram, style: &Style, marks: &Marks) -> String {
    let rules = d.position.rules();
    let shape = rules.board();
    let n = shape.side();
    let size = LABEL + n as u32 * CELL + PAD;
    let width = (n as usize * CAPTION_CHARS_PER_CELL).max(30);
    let caption: Vec<String> = marks
        .caption(true)
        .iter()
        .flat_map(|line| {
            textwrap::wrap(line, width)
                .into_iter()
                .map(|l| l.into_owned())
                .collect::<Vec<_>>()
        })
        .collect();
    let height = match caption.len() as u32 {
        0 => size,
        lines => size + lines * CAPTION_LINE + 4,
    };
    let squares: Vec<Square> = (0..n)
        .flat_map(|r| (0..n).filter_map(move |c| Square::new(c, r)))
        .filter(|&sq| shape.contains(sq))
        .collect();

    let mut s = String::with_capacity(16 * 1024);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{height}" viewBox="0 0 {size} {height}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">"#
    );
    let _ = writeln!(s, "<title>{}</title>", super::escape_markup(&d.summary()));
    let _ = writeln!(
        s,
        r#"<rect width="{size}" height="{height}" fill="{BACKGROUND}"/>"#
    );
    board_squares(&mut s, &squares, rules.blocked());
    grid_lines(&mut s, &squares, shape);
    coordinates(&mut s, n);
    if style.numbers {
        numbered_discs(d, &mut s);
    } else {
        discs(&d.position, &mut s);
        if let Some(last) = d.last {
            if let Move::Place(sq) = last.mv {
                let (x, y) = corner(sq);
                let _ = writeln!(
                    s,
                    r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{LAST_MOVE}" stroke-width="2.5"/>"#,
                    x + 2,
                    y + 2,
                    CELL - 4,
                    CELL - 4
                );
            }
        }
    }
    mark_squares(&mut s, marks);
    if !caption.is_empty() {
        let _ = writeln!(
            s,
            r#"<g class="caption" font-size="13" fill="{LABEL_INK}">"#
        );
        for (i, line) in caption.iter().enumerate() {
            let _ = writeln!(
                s,
                r#"<text x="{}" y="{}">{}</text>"#,
                LABEL / 2,
                size + i as u32 * CAPTION_LINE + 10,
                super::escape_markup(line)
            );
        }
        s.push_str("</g>\n");
    }
    s.push_str("</svg>\n");
    s
}

/// A dot on each legal move, a red cross on the illegal move.
fn mark_squares(s: &mut String, marks: &Marks) {
    for sq in marks.legal {
        let (cx, cy) = square_centre(sq);
        let _ = writeln!(
            s,
            r#"<circle class="legal-move" cx="{cx}" cy="{cy}" r="6" fill="{LEGAL_DOT}" stroke="{LEGAL_RING}" stroke-width="1.5"/>"#
        );
    }
    if let Some(sq) = marks.illegal {
        let (x, y) = corner(sq);
        let (a, b) = (8, CELL - 16);
        let _ = writeln!(
            s,
            r#"<path class="illegal-move" d="M{} {}l{b} {b}M{} {}l-{b} {b}" stroke="{ILLEGAL}" stroke-width="4.5" stroke-linecap="round"/>"#,
            x + a,
            y + a,
            x + CELL - a,
            y + a
        );
    }
}

/// The squares, as one path, and the blocked squares: grey, crossed.
fn board_squares(s: &mut String, squares: &[Square], blocked: SquareSet) {
    let mut fill = String::new();
    for &sq in squares {
        let (x, y) = corner(sq);
        let _ = write!(fill, "M{x} {y}h{CELL}v{CELL}h-{CELL}z");
    }
    let _ = writeln!(s, r#"<path d="{fill}" fill="{BOARD}"/>"#);
    for sq in blocked {
        let (x, y) = corner(sq);
        let _ = writeln!(
            s,
            r#"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{BLOCKED}"/><path d="M{x} {y}l{CELL} {CELL}M{} {y}l-{CELL} {CELL}" stroke="{BLOCKED_HATCH}" stroke-width="2"/>"#,
            x + CELL
        );
    }
}

/// Grid lines inside the board, and the outline around it (edges facing off the board).
fn grid_lines(s: &mut String, squares: &[Square], shape: BoardShape) {
    let n = shape.side();
    let on_board = |c: i32, r: i32| -> bool {
        c >= 0
            && r >= 0
            && Square::new(c as u8, r as u8).is_some_and(|sq| c < n as i32 && shape.contains(sq))
    };
    let mut grid = String::new();
    let mut outline = String::new();
    for &sq in squares {
        let (x, y) = corner(sq);
        let (c, r) = (sq.col() as i32, sq.row() as i32);
        let edges = [
            (on_board(c, r - 1), format!("M{x} {y}h{CELL}")),
            (on_board(c - 1, r), format!("M{x} {y}v{CELL}")),
            (on_board(c, r + 1), format!("M{x} {}h{CELL}", y + CELL)),
            (on_board(c + 1, r), format!("M{} {y}v{CELL}", x + CELL)),
        ];
        for (i, (inside, edge)) in edges.into_iter().enumerate() {
            if !inside {
                outline.push_str(&edge);
            } else if i < 2 {
                // Each inner edge once: from the square below or to the right of it.
                grid.push_str(&edge);
            }
        }
    }
    let _ = writeln!(
        s,
        r#"<path d="{grid}" stroke="{GRID}" stroke-width="1.2" fill="none"/>"#
    );
    let _ = writeln!(
        s,
        r#"<path d="{outline}" stroke="{GRID}" stroke-width="2.5" stroke-linecap="square" fill="none"/>"#
    );
}

/// The four marker dots of an 8x8 board, and the coordinates of a board of side `n`.
fn coordinates(s: &mut String, n: u8) {
    if n == 8 {
        for (c, r) in [(2, 2), (6, 2), (2, 6), (6, 6)] {
            let _ = writeln!(
                s,
                r#"<circle cx="{}" cy="{}" r="3.5" fill="{GRID}"/>"#,
                LABEL + c * CELL,
                LABEL + r * CELL
            );
        }
    }
    let _ = writeln!(
        s,
        r#"<g font-size="15" fill="{LABEL_INK}" text-anchor="middle">"#
    );
    for i in 0..n {
        let centre = LABEL + i as u32 * CELL + CELL / 2;
        let _ = writeln!(
            s,
            r#"<text x="{centre}" y="{}">{}</text><text x="{}" y="{}">{}</text>"#,
            LABEL - 8,
            (b'a' + i) as char,
            LABEL / 2,
            centre + 5,
            i + 1
        );
    }
    s.push_str("</g>\n");
}

fn disc(s: &mut String, sq: Square, cell: Cell) {
    if let Some((fill, stroke, _)) = disc_paint(cell) {
        let (cx, cy) = square_centre(sq);
        let _ = writeln!(
            s,
            r#"<circle cx="{cx}" cy="{cy}" r="{RADIUS}" fill="{fill}" stroke="{stroke}" stroke-width="1.2"/>"#
        );
    }
}

fn discs(pos: &Position, s: &mut String) {
    let n = pos.rules().board().side();
    for r in 0..n {
        for c in 0..n {
            if let Some(sq) = Square::new(c, r) {
                disc(s, sq, pos.cell(sq));
            }
        }
    }
}

/// The game diagram: the start discs, then each placement as a disc of the mover's colour
/// with its number.
fn numbered_discs(d: &Diagram, s: &mut String) {
    discs(&d.start, s);
    for p in &d.placements {
        let cell = Cell::Disc(p.color);
        disc(s, p.square, cell);
        let ink = disc_paint(cell).map_or("#000000", |(_, _, ink)| ink);
        let (cx, cy) = square_centre(p.square);
        let size = if p.number >= 100 { 12 } else { 16 };
        let _ = writeln!(
            s,
            r#"<text x="{cx}" y="{}" font-size="{size}" font-weight="bold" text-anchor="middle" fill="{ink}">{}</text>"#,
            cy + size * 6 / 16,
            p.number
        );
    }
}
