//! The pictures of a [`StatsReport`](super::StatsReport): the heat map of the squares played
//! and the histograms.

use super::*;

/// The heat map's colour scale: palest (the least played square) to darkest (the most
/// played), through a middle blue; every channel falls as the count grows.
pub(super) const SCALE: [(f64, [u8; 3]); 3] = [
    (0.0, [222, 235, 247]),
    (0.5, [107, 174, 214]),
    (1.0, [8, 48, 107]),
];
/// The colour of a square never played: the background's.
pub(super) const NEVER: &str = "#ffffff";

/// The colour of `t` in 0..=1 on [`SCALE`].
pub(super) fn shade(t: f64) -> [u8; 3] {
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (lo, hi) = if t <= SCALE[1].0 {
        (SCALE[0], SCALE[1])
    } else {
        (SCALE[1], SCALE[2])
    };
    let f = (t - lo.0) / (hi.0 - lo.0);
    let mut rgb = [0u8; 3];
    for (i, c) in rgb.iter_mut().enumerate() {
        let (a, b) = (lo.1[i] as f64, hi.1[i] as f64);
        *c = (a + (b - a) * f).round() as u8;
    }
    rgb
}

pub(super) fn hex([r, g, b]: [u8; 3]) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// Room left of and above the board, as in `render::svg`.
pub(super) const LABEL: u32 = 26;
/// Room right of the board.
pub(super) const PAD: u32 = 14;
/// Height of the legend under the board.
pub(super) const LEGEND: u32 = 64;
pub(super) const INK: &str = "#3a3a3a";
pub(super) const GRID_LINE: &str = "#8a96a3";

/// Where `placements` lies between the least (`least`, above 0) and the most played
/// squares, 0 to 1; `None` for a square never played.
pub(super) fn heat(placements: u64, least: u64, most: u64) -> Option<f64> {
    if placements == 0 {
        return None;
    }
    if most <= least {
        return Some(1.0);
    }
    Some((placements.saturating_sub(least)) as f64 / (most - least) as f64)
}

pub(super) fn heatmap(board: &BoardSquares) -> String {
    use crate::render::{escape_markup, square_centre, CELL};
    let n = board.shape.side() as u32;
    let size = LABEL + n * CELL + PAD;
    let width = size.max(260);
    let height = size + LEGEND;
    let most = board.most();
    let least = board
        .squares
        .iter()
        .map(|s| s.placements)
        .filter(|&p| p > 0)
        .min()
        .unwrap_or(0);
    let placements: u64 = board.squares.iter().map(|s| s.placements).sum();
    let caption = format!(
        "Placements per square, {}: {} {}, {} {}",
        board.board,
        board.games,
        plural(board.games, "game", "games"),
        placements,
        plural(placements, "placement", "placements")
    );
    let mut s = String::with_capacity(16 * 1024);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">"#
    );
    let _ = writeln!(s, "<title>{}</title>", escape_markup(&caption));
    let _ = writeln!(
        s,
        r#"<rect width="{width}" height="{height}" fill="{NEVER}"/>"#
    );
    let _ = writeln!(s, r#"<g stroke="{GRID_LINE}" stroke-width="1">"#);
    for sq in &board.squares {
        let (cx, cy) = square_centre(sq.square);
        let fill =
            heat(sq.placements, least, most).map_or_else(|| NEVER.to_owned(), |t| hex(shade(t)));
        let _ = writeln!(
            s,
            r#"<rect class="square" data-square="{}" data-placements="{}" x="{}" y="{}" width="{CELL}" height="{CELL}" fill="{fill}"/>"#,
            sq.square,
            sq.placements,
            cx - CELL / 2,
            cy - CELL / 2,
        );
    }
    s.push_str("</g>\n");
    let _ = writeln!(s, r#"<g text-anchor="middle">"#);
    for sq in &board.squares {
        let (cx, cy) = square_centre(sq.square);
        let dark = heat(sq.placements, least, most).is_some_and(|t| t > 0.5);
        let ink = if dark { "#ffffff" } else { "#1a1a1a" };
        let text = sq.placements.to_string();
        let font = match text.len() {
            0..=4 => 12,
            5 => 10,
            _ => 8,
        };
        let _ = writeln!(
            s,
            r#"<text x="{cx}" y="{}" font-size="{font}" fill="{ink}">{text}</text>"#,
            cy + font / 3
        );
    }
    s.push_str("</g>\n");
    // Coordinates: letters above, numbers to the left.
    let _ = writeln!(s, r#"<g font-size="15" fill="{INK}" text-anchor="middle">"#);
    for i in 0..n {
        let centre = LABEL + i * CELL + CELL / 2;
        let _ = writeln!(
            s,
            r#"<text x="{centre}" y="{}">{}</text><text x="{}" y="{}">{}</text>"#,
            LABEL - 8,
            (b'a' + i as u8) as char,
            LABEL / 2,
            centre + 5,
            i + 1
        );
    }
    s.push_str("</g>\n");
    // The legend: the scale from the least played square to the most, its ends labelled.
    let bar_width = (n * CELL).max(200);
    let y = size + 4;
    s.push_str(r#"<defs><linearGradient id="heat" x1="0" y1="0" x2="1" y2="0">"#);
    for (at, rgb) in SCALE {
        let _ = write!(s, r#"<stop offset="{at}" stop-color="{}"/>"#, hex(rgb));
    }
    s.push_str("</linearGradient></defs>\n");
    let _ = writeln!(
        s,
        r#"<rect class="legend" x="{LABEL}" y="{y}" width="{bar_width}" height="14" fill="url(#heat)" stroke="{GRID_LINE}" stroke-width="1"/>"#
    );
    let _ = writeln!(
        s,
        r#"<g font-size="12" fill="{INK}"><text x="{LABEL}" y="{}">{least}</text><text x="{}" y="{}" text-anchor="end">{most}</text><text x="{}" y="{}" text-anchor="middle">placements (white: never)</text></g>"#,
        y + 28,
        LABEL + bar_width,
        y + 28,
        LABEL + bar_width / 2,
        y + 28
    );
    let _ = writeln!(
        s,
        r#"<text x="{LABEL}" y="{}" font-size="12" fill="{INK}">{}</text>"#,
        y + 48,
        escape_markup(&caption)
    );
    s.push_str("</svg>\n");
    s
}

/// Plot area of a histogram, in pixels.
pub(super) const PLOT_LEFT: u32 = 60;
pub(super) const PLOT_TOP: u32 = 40;
pub(super) const PLOT_WIDTH: u32 = 640;
pub(super) const PLOT_HEIGHT: u32 = 240;
pub(super) const BAR: &str = "#2b6ca3";

/// A histogram of `bars` (value, games), in value order, as a standalone SVG: a bar for
/// each value from the least to the greatest (none where no game has it).
pub(super) fn histogram_svg(title: &str, axis: &str, bars: &[(i64, u64)]) -> String {
    use crate::render::escape_markup;
    let width = PLOT_LEFT + PLOT_WIDTH + 24;
    let height = PLOT_TOP + PLOT_HEIGHT + 52;
    let lo = bars.iter().map(|b| b.0).min().unwrap_or(0);
    let hi = bars.iter().map(|b| b.0).max().unwrap_or(0);
    let most = bars.iter().map(|b| b.1).max().unwrap_or(0);
    let slots = (hi - lo + 1).max(1) as f64;
    let slot = PLOT_WIDTH as f64 / slots;
    let gap = if slot >= 4.0 { 1.0 } else { 0.0 };
    let base = (PLOT_TOP + PLOT_HEIGHT) as f64;
    let mut s = String::with_capacity(8 * 1024 + bars.len() * 128);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">"#
    );
    let _ = writeln!(s, "<title>{}</title>", escape_markup(title));
    let _ = writeln!(
        s,
        r##"<rect width="{width}" height="{height}" fill="#ffffff"/>"##
    );
    let _ = writeln!(
        s,
        r#"<text x="{}" y="24" font-size="15" fill="{INK}" text-anchor="middle">{}</text>"#,
        PLOT_LEFT + PLOT_WIDTH / 2,
        escape_markup(title)
    );
    let _ = writeln!(s, r#"<g fill="{BAR}">"#);
    for &(value, games) in bars {
        let h = if most == 0 {
            0.0
        } else {
            games as f64 * PLOT_HEIGHT as f64 / most as f64
        };
        let x = PLOT_LEFT as f64 + (value - lo) as f64 * slot;
        let _ = writeln!(
            s,
            r#"<rect class="bar" data-value="{value}" data-games="{games}" x="{x:.2}" y="{:.2}" width="{:.2}" height="{h:.2}"/>"#,
            base - h,
            (slot - gap).max(0.5)
        );
    }
    s.push_str("</g>\n");
    // Axes, the games at the top and half way, the values every so often.
    let _ = writeln!(
        s,
        r#"<path d="M{PLOT_LEFT} {PLOT_TOP}V{}H{}" stroke="{INK}" stroke-width="1" fill="none"/>"#,
        PLOT_TOP + PLOT_HEIGHT,
        PLOT_LEFT + PLOT_WIDTH
    );
    let _ = writeln!(s, r#"<g font-size="11" fill="{INK}" text-anchor="end">"#);
    for (games, y) in [
        (most, PLOT_TOP),
        (most / 2, PLOT_TOP + PLOT_HEIGHT / 2),
        (0, PLOT_TOP + PLOT_HEIGHT),
    ] {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}">{games}</text>"#,
            PLOT_LEFT - 6,
            y + 4
        );
    }
    s.push_str("</g>\n");
    let step = match hi - lo {
        0..=30 => 5,
        31..=150 => 10,
        151..=400 => 50,
        _ => 100,
    };
    let _ = writeln!(s, r#"<g font-size="11" fill="{INK}" text-anchor="middle">"#);
    for value in lo..=hi {
        if value != lo && value != hi && value.rem_euclid(step) != 0 {
            continue;
        }
        let x = PLOT_LEFT as f64 + ((value - lo) as f64 + 0.5) * slot;
        let _ = writeln!(
            s,
            r#"<text x="{x:.2}" y="{}">{value}</text>"#,
            PLOT_TOP + PLOT_HEIGHT + 16
        );
    }
    s.push_str("</g>\n");
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" font-size="12" fill="{INK}" text-anchor="middle">{} (games)</text>"#,
        PLOT_LEFT + PLOT_WIDTH / 2,
        PLOT_TOP + PLOT_HEIGHT + 40,
        escape_markup(axis)
    );
    s.push_str("</svg>\n");
    s
}
