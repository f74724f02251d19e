//! The grid as an SVG heat map: the butcher's start square across, the swine's down, red
//! where the butcher is favoured, white at even chances, blue where the swine is.
//!
//! Small grids get a tooltip (the exact fraction) and, when the cells are big enough, the
//! value in each cell. Large ones (a board of 200 has 19,701 cells) are drawn as runs of
//! one colour per row, a path per colour, so the file stays small.

use super::GridView;
use crate::render::number::{abbreviated, nearest_f64, significant_exact};
use crate::render::svg::escape;
use crate::render::values::FRACTION_CHARS;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Side of the heat map's square area, in pixels, before cells are rounded to whole pixels.
const AREA: u32 = 600;
const LEFT: u32 = 90;
const TOP: u32 = 100;
/// Up to this many rows, each cell is a rectangle of its own with a tooltip.
const MAX_TOOLTIP_ROWS: u32 = 40;
/// Cells at least this wide show their value.
const MIN_LABELLED_CELL: u32 = 30;
/// Wide enough for the title.
const MIN_WIDTH: u32 = 620;
/// About the length of an axis title ("the swine's start square", 13 pixels a character high).
const TITLE_LENGTH: u32 = 170;
/// Where the marker's key starts, below the colour scale (from the top of the map).
const KEY_TOP: u32 = 250;
/// Colours of the large map: probabilities are drawn to the nearest 1/200.
const LEVELS: f64 = 200.0;

/// The heat map of `v`; `mark`, (swine, butcher), outlines the start the rules propose.
pub fn grid_svg(v: &GridView, mark: Option<(u32, u32)>) -> String {
    let n = v.length.saturating_sub(2).max(1);
    let cell = (AREA / n).clamp(3, 44);
    let side = cell * n;
    // Room for the title across, and for the colour scale and the marker's key down the right.
    let (width, height) = ((LEFT + side + 190).max(MIN_WIDTH), TOP + side.max(KEY_TOP + 60) + 30);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"10\" y=\"24\" font-size=\"16\">P(the swine wins) for every pair of start squares, board of {} \
         squares</text>\n<text x=\"10\" y=\"44\" fill=\"#555\">{}: exact values, the river on square {}</text>\n",
        v.length,
        escape(&v.die.name),
        v.length
    );
    let frame = Frame { cell, n };
    if n <= MAX_TOOLTIP_ROWS {
        cells_with_tooltips(&mut svg, v, &frame);
    } else {
        runs_by_colour(&mut svg, v, &frame);
    }
    axes(&mut svg, &frame);
    if let Some(start) = mark.filter(|&(s, b)| s < v.length && b >= 1 && b < s) {
        marker(&mut svg, &frame, start, v);
    }
    scale(&mut svg, &frame);
    svg += "</svg>\n";
    svg
}

/// Where cells sit: the swine's square s in row s - 2, the butcher's b in column b - 1.
struct Frame {
    cell: u32,
    n: u32,
}

impl Frame {
    fn x(&self, butcher: u32) -> u32 {
        LEFT + (butcher - 1) * self.cell
    }
    fn y(&self, swine: u32) -> u32 {
        TOP + (swine - 2) * self.cell
    }
}

fn cells_with_tooltips(svg: &mut String, v: &GridView, f: &Frame) {
    let c = f.cell;
    for cell in &v.cells {
        let p = nearest_f64(&cell.swine_wins.0);
        let (x, y) = (f.x(cell.butcher), f.y(cell.swine));
        let _ = writeln!(
            svg,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{c}\" height=\"{c}\" fill=\"{}\"><title>swine {}, butcher {}: {} = {}</title></rect>",
            colour(p),
            cell.swine,
            cell.butcher,
            abbreviated(&cell.swine_wins.0, FRACTION_CHARS),
            cell.swine_wins.decimal()
        );
        if c >= MIN_LABELLED_CELL {
            let ink = if (p - 0.5).abs() > 0.3 { "white" } else { "black" };
            let _ = writeln!(
                svg,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"10\" fill=\"{ink}\">{}</text>",
                x + c / 2,
                y + c / 2 + 4,
                significant_exact(&cell.swine_wins.0, 2)
            );
        }
    }
}

/// Each row's runs of one colour, gathered into one path per colour.
fn runs_by_colour(svg: &mut String, v: &GridView, f: &Frame) {
    let mut paths: BTreeMap<String, String> = BTreeMap::new();
    let mut run: Option<(u32, u32, u32, String)> = None; // (swine, first butcher, last butcher, colour)
    let mut flush = |run: &mut Option<(u32, u32, u32, String)>| {
        if let Some((s, first, last, colour)) = run.take() {
            let w = (last - first + 1) * f.cell;
            let _ =
                write!(paths.entry(colour).or_default(), "M{} {}h{w}v{}h-{w}z", f.x(first), f.y(s), f.cell);
        }
    };
    for cell in &v.cells {
        let p = (nearest_f64(&cell.swine_wins.0) * LEVELS).round() / LEVELS;
        let colour = colour(p);
        match &mut run {
            Some((s, _, last, c)) if *s == cell.swine && *last + 1 == cell.butcher && *c == colour => {
                *last = cell.butcher;
            }
            _ => {
                flush(&mut run);
                run = Some((cell.swine, cell.butcher, cell.butcher, colour));
            }
        }
    }
    flush(&mut run);
    for (colour, d) in paths {
        let _ = writeln!(svg, "<path fill=\"{colour}\" d=\"{d}\"/>");
    }
}

/// Tick labels every 1, 2, 5, 10, ... squares, as many as fit, and the axis titles.
fn axes(svg: &mut String, f: &Frame) {
    let step = [1, 2, 5, 10, 20, 25, 50, 100].into_iter().find(|s| s * f.cell >= 24).unwrap_or(100);
    let shown = |v: u32| v.is_multiple_of(step);
    for b in (1..=f.n).filter(|&b| shown(b)) {
        let x = f.x(b) + f.cell / 2;
        let _ = writeln!(svg, "<text x=\"{x}\" y=\"{}\" text-anchor=\"middle\">{b}</text>", TOP - 8);
    }
    for s in (2..f.n + 2).filter(|&s| shown(s)) {
        let y = f.y(s) + f.cell / 2 + 4;
        let _ = writeln!(svg, "<text x=\"{}\" y=\"{y}\" text-anchor=\"end\">{s}</text>", LEFT - 8);
    }
    let side = f.n * f.cell;
    let _ = writeln!(
        svg,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"13\">the butcher's start square</text>",
        LEFT + side / 2,
        TOP - 30
    );
    // Centred beside the map, or below its top by half the title's length where the map is
    // shorter than the title (a board of 3: it crossed the butcher's title above the map).
    let (x, y) = (LEFT - 50, TOP + side.max(TITLE_LENGTH) / 2);
    let _ = writeln!(
        svg,
        "<text x=\"{x}\" y=\"{y}\" transform=\"rotate(-90 {x} {y})\" text-anchor=\"middle\" font-size=\"13\">\
         the swine's start square</text>"
    );
}

/// An outline around the proposed start (at least 10 pixels, so it shows on tiny cells), and
/// its key beside the colour scale.
fn marker(svg: &mut String, f: &Frame, (swine, butcher): (u32, u32), v: &GridView) {
    let size = f.cell.max(12);
    let (cx, cy) = (f.x(butcher) + f.cell / 2, f.y(swine) + f.cell / 2);
    let (x, y) = (cx as f64 - size as f64 / 2.0, cy as f64 - size as f64 / 2.0);
    let _ = writeln!(
        svg,
        "<rect x=\"{x}\" y=\"{y}\" width=\"{size}\" height=\"{size}\" fill=\"none\" stroke=\"black\" stroke-width=\"3\"/>"
    );
    let p = v.cells.iter().find(|c| (c.swine, c.butcher) == (swine, butcher));
    let lx = LEFT + f.n * f.cell + 30;
    let ly = TOP + KEY_TOP;
    let _ = writeln!(
        svg,
        "<rect x=\"{lx}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"none\" stroke=\"black\" stroke-width=\"2.5\"/>\n\
         <text x=\"{}\" y=\"{ly}\">the rules' start:</text>\n<text x=\"{}\" y=\"{}\">swine {swine}, butcher {butcher}</text>",
        ly - 10,
        lx + 18,
        lx + 18,
        ly + 16
    );
    if let Some(c) = p {
        let _ =
            writeln!(svg, "<text x=\"{}\" y=\"{}\">P = {}</text>", lx + 18, ly + 32, c.swine_wins.decimal());
    }
}

/// The colour scale, top to bottom from 1 (the swine wins) to 0 (the butcher does).
fn scale(svg: &mut String, f: &Frame) {
    let (lx, top, steps, height) = (LEFT + f.n * f.cell + 30, TOP, 50u32, 200u32);
    let _ = writeln!(svg, "<text x=\"{lx}\" y=\"{}\">P(the swine wins)</text>", top - 16);
    for i in 0..steps {
        let p = 1.0 - (i as f64 + 0.5) / steps as f64;
        let _ = writeln!(
            svg,
            "<rect x=\"{lx}\" y=\"{}\" width=\"16\" height=\"5\" fill=\"{}\"/>",
            top + i * height / steps,
            colour(p)
        );
    }
    for (p, label) in [(1.0, "1 (the swine)"), (0.5, "0.5"), (0.0, "0 (the butcher)")] {
        let y = top as f64 + (1.0 - p) * height as f64 + 4.0;
        let _ = writeln!(svg, "<text x=\"{}\" y=\"{y}\">{label}</text>", lx + 22);
    }
}

/// Red (butcher) through white (even) to blue (swine).
fn colour(p: f64) -> String {
    let (red, white, blue) = ([178.0, 24.0, 43.0], [247.0, 247.0, 247.0], [33.0, 102.0, 172.0]);
    let (from, to, t) = if p < 0.5 { (red, white, p * 2.0) } else { (white, blue, p * 2.0 - 1.0) };
    let mix = |i: usize| (from[i] + (to[i] - from[i]) * t.clamp(0.0, 1.0)).round() as u8;
    format!("#{:02x}{:02x}{:02x}", mix(0), mix(1), mix(2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_and_escapes() {
        assert_eq!(colour(0.0), "#b2182b");
        assert_eq!(colour(0.5), "#f7f7f7");
        assert_eq!(colour(1.0), "#2166ac");
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }
}
