//! A minimal SVG chart: a frame mapping data to pixels (linear or logarithmic y), axes with
//! ticks and titles, shapes, and a legend in the right margin.
//!
//! Data shapes are clipped to the plot area, so a long interval never runs through the title;
//! the legend sits outside the plot, so it never hides data and is never cut off.

use std::fmt::Write;

pub const WIDTH: f64 = 900.0;
pub const HEIGHT: f64 = 480.0;
const LEFT: f64 = 80.0;
/// The legend's column.
const RIGHT: f64 = 250.0;
const TOP: f64 = 76.0;
const BOTTOM: f64 = 72.0;
/// Characters per legend line before it wraps.
const LEGEND_CHARS: usize = 28;

/// How the y axis maps values to heights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    Linear,
    /// log10: equal heights for equal ratios; values must be positive.
    Log,
}

/// How a legend entry shows its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swatch {
    Box,
    Line,
    Dashed,
    /// A dot with an interval through it.
    Interval,
}

pub struct Chart {
    x: (f64, f64),
    y: (f64, f64),
    scale: Scale,
    /// Axes, titles and labels.
    frame: String,
    /// Data, clipped to the plot area.
    plot: String,
    legend: Vec<(String, Swatch, String)>,
}

impl Chart {
    /// A chart of x in `x` and y in `y`, with a title and a line saying what it shows.
    pub fn new(title: &str, subtitle: &str, x: (f64, f64), y: (f64, f64), scale: Scale) -> Chart {
        let mut c = Chart { x, y, scale, frame: String::new(), plot: String::new(), legend: Vec::new() };
        c.text(LEFT - 60.0, 26.0, title, "start", 17.0, "#000");
        c.text(LEFT - 60.0, 48.0, subtitle, "start", 12.5, "#444");
        c
    }

    pub fn px(&self, x: f64) -> f64 {
        LEFT + (x - self.x.0) / (self.x.1 - self.x.0) * (WIDTH - LEFT - RIGHT)
    }

    pub fn py(&self, y: f64) -> f64 {
        let t = match self.scale {
            Scale::Linear => (y - self.y.0) / (self.y.1 - self.y.0),
            Scale::Log => (y.max(1e-300).log10() - self.y.0.log10()) / (self.y.1.log10() - self.y.0.log10()),
        };
        HEIGHT - BOTTOM - t * (HEIGHT - TOP - BOTTOM)
    }

    /// Axes with labelled ticks (data value, label; a label's second line, after a newline,
    /// in grey), grid lines, and axis titles.
    pub fn axes(
        &mut self,
        x_ticks: &[(f64, String)],
        y_ticks: &[(f64, String)],
        x_title: &str,
        y_title: &str,
    ) {
        let (x0, x1, y0, y1) = (LEFT, WIDTH - RIGHT, HEIGHT - BOTTOM, TOP);
        for (v, label) in y_ticks {
            let y = self.py(*v);
            let _ = write!(self.frame, r##"<path d="M{x0},{y:.1} h-5 M{x0},{y:.1} H{x1}" stroke="#ddd"/>"##);
            self.text(x0 - 8.0, y + 4.0, label, "end", 11.0, "#000");
        }
        for (v, label) in x_ticks {
            let x = self.px(*v);
            let _ = write!(self.frame, r##"<path d="M{x:.1},{y0} v5" stroke="#000"/>"##);
            for (i, line) in label.lines().enumerate() {
                self.text(
                    x,
                    y0 + 19.0 + 14.0 * i as f64,
                    line,
                    "middle",
                    11.0,
                    if i == 0 { "#000" } else { "#555" },
                );
            }
        }
        let _ = write!(self.frame, r##"<path d="M{x0},{y1} V{y0} H{x1}" stroke="#000" fill="none"/>"##);
        self.text((x0 + x1) / 2.0, HEIGHT - 12.0, x_title, "middle", 13.0, "#000");
        let mid = (y0 + y1) / 2.0;
        let _ = write!(
            self.frame,
            r##"<text x="22" y="{mid}" transform="rotate(-90 22 {mid})" text-anchor="middle" font-size="13">{}</text>"##,
            escape(y_title)
        );
    }

    fn text(&mut self, x: f64, y: f64, text: &str, anchor: &str, size: f64, color: &str) {
        let _ = write!(
            self.frame,
            r##"<text x="{x:.1}" y="{y:.1}" text-anchor="{anchor}" font-size="{size}" fill="{color}">{}</text>"##,
            escape(text)
        );
    }

    /// A bar from the bottom of the axis to `y`, centred on data x with a width in data units.
    pub fn bar(&mut self, x: f64, width: f64, y: f64, color: &str) {
        let (l, r) = (self.px(x - width / 2.0), self.px(x + width / 2.0));
        let (top, base) = (self.py(y), HEIGHT - BOTTOM);
        let _ = write!(
            self.plot,
            r##"<rect x="{l:.1}" y="{top:.1}" width="{:.1}" height="{:.1}" fill="{color}"/>"##,
            r - l,
            (base - top).max(0.0)
        );
    }

    /// A dot at (x, y) with a vertical 95% interval and whiskers.
    pub fn interval(&mut self, x: f64, y: f64, lo: f64, hi: f64, color: &str) {
        let (x, y, lo, hi) = (self.px(x), self.py(y), self.py(lo), self.py(hi));
        let _ = write!(
            self.plot,
            r##"<path d="M{x:.1},{lo:.1} V{hi:.1} M{:.1},{lo:.1} h10 M{:.1},{hi:.1} h10" stroke="{color}" stroke-width="1.5" fill="none"/><circle cx="{x:.1}" cy="{y:.1}" r="4" fill="{color}"/>"##,
            x - 5.0,
            x - 5.0
        );
    }

    /// A horizontal line across the plot at data y.
    pub fn hline(&mut self, y: f64, color: &str, dashed: bool) {
        let (x0, x1, py) = (LEFT, WIDTH - RIGHT, self.py(y));
        let dash = if dashed { r#" stroke-dasharray="7 4""# } else { "" };
        let _ =
            write!(self.plot, r##"<path d="M{x0},{py:.1} H{x1}" stroke="{color}" stroke-width="2"{dash}/>"##);
    }

    /// A line through data points, with dots when there are few of them.
    pub fn polyline(&mut self, points: &[(f64, f64)], color: &str) {
        let d: Vec<String> =
            points.iter().map(|&(x, y)| format!("{:.1},{:.1}", self.px(x), self.py(y))).collect();
        let _ = write!(
            self.plot,
            r##"<polyline points="{}" stroke="{color}" stroke-width="2.5" fill="none"/>"##,
            d.join(" ")
        );
        if points.len() <= 20 {
            for &(x, y) in points {
                let _ = write!(
                    self.plot,
                    r##"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="{color}"/>"##,
                    self.px(x),
                    self.py(y)
                );
            }
        }
    }

    /// A filled band between two lines over the same xs.
    pub fn band(&mut self, xs: &[f64], lo: &[f64], hi: &[f64], color: &str) {
        let mut d: Vec<String> =
            xs.iter().zip(hi).map(|(&x, &y)| format!("{:.1},{:.1}", self.px(x), self.py(y))).collect();
        d.extend(xs.iter().zip(lo).rev().map(|(&x, &y)| format!("{:.1},{:.1}", self.px(x), self.py(y))));
        let _ = write!(self.plot, r##"<polygon points="{}" fill="{color}" stroke="none"/>"##, d.join(" "));
    }

    /// An entry of the legend; long labels wrap.
    pub fn legend(&mut self, color: &str, swatch: Swatch, label: &str) {
        self.legend.push((color.to_string(), swatch, label.to_string()));
    }

    /// A note under the legend, wrapped like it.
    pub fn note(&mut self, text: &str) {
        self.legend.push((String::new(), Swatch::Box, text.to_string()));
    }

    fn draw_legend(&mut self) {
        let x = WIDTH - RIGHT + 20.0;
        let mut y = TOP + 8.0;
        for (color, swatch, label) in std::mem::take(&mut self.legend) {
            if !color.is_empty() {
                let _ = match swatch {
                    Swatch::Box => write!(
                        self.frame,
                        r##"<rect x="{x}" y="{}" width="14" height="12" fill="{color}"/>"##,
                        y - 10.0
                    ),
                    Swatch::Line | Swatch::Dashed => {
                        let dash = if swatch == Swatch::Dashed { r#" stroke-dasharray="7 4""# } else { "" };
                        write!(
                            self.frame,
                            r##"<path d="M{x},{} h22" stroke="{color}" stroke-width="2.5"{dash}/>"##,
                            y - 4.0
                        )
                    }
                    Swatch::Interval => write!(
                        self.frame,
                        r##"<path d="M{},{} v14" stroke="{color}" stroke-width="1.5"/><circle cx="{}" cy="{}" r="4" fill="{color}"/>"##,
                        x + 7.0,
                        y - 11.0,
                        x + 7.0,
                        y - 4.0
                    ),
                };
            }
            let indent = if color.is_empty() { 0.0 } else { 30.0 };
            for line in wrap(&label, LEGEND_CHARS) {
                self.text(
                    x + indent,
                    y,
                    &line,
                    "start",
                    12.0,
                    if color.is_empty() { "#444" } else { "#000" },
                );
                y += 16.0;
            }
            y += 8.0;
        }
    }

    pub fn finish(mut self) -> String {
        self.draw_legend();
        let (w, h) = (WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
        format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif"><defs><clipPath id="plot"><rect x="{LEFT}" y="{TOP}" width="{w}" height="{h}"/></clipPath></defs><rect width="100%" height="100%" fill="#fff"/>{}<g clip-path="url(#plot)">{}</g></svg>
"##,
            self.frame, self.plot
        )
    }
}

/// `text` in lines of at most `width` characters, broken at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// Text made safe inside SVG elements and attribute values.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Evenly spaced ticks from `lo` to `hi` in steps of `step`, labelled by `fmt`.
pub fn ticks(lo: f64, hi: f64, step: f64, fmt: impl Fn(f64) -> String) -> Vec<(f64, String)> {
    let mut out = Vec::new();
    let mut i = (lo / step).ceil() as i64;
    while (i as f64) * step <= hi + step * 1e-9 {
        let v = i as f64 * step;
        out.push((v, fmt(v)));
        i += 1;
    }
    out
}

/// A round step (1, 2, 2.5 or 5 times a power of ten) giving at most `most` ticks over `span`.
pub fn nice_step(span: f64, most: usize) -> f64 {
    let raw = span / most.max(1) as f64;
    let power = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0].iter().map(|m| m * power).find(|s| *s >= raw).unwrap_or(10.0 * power)
}

/// [`nice_step`] for an axis of whole numbers (steps, turns): at least 1, and never 2.5 (a
/// tick between two whole numbers), 5 in its place.
pub fn whole_step(span: f64, most: usize) -> f64 {
    let step = nice_step(span, most).max(1.0);
    if step.fract() == 0.0 { step } else { 2.0 * step }
}

/// A tick at every power of ten from `lo` to `hi`.
pub fn decade_ticks(lo: f64, hi: f64, fmt: impl Fn(f64) -> String) -> Vec<(f64, String)> {
    let (a, b) = (lo.log10().ceil() as i32, hi.log10().floor() as i32);
    (a..=b).map(|e| 10f64.powi(e)).map(|v| (v, fmt(v))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_ticks_and_wrapping() {
        assert_eq!(nice_step(4_000_000.0, 5), 1_000_000.0);
        assert_eq!(nice_step(1000.0, 5), 200.0);
        assert_eq!(nice_step(0.0011, 6), 0.0002);
        assert_eq!((whole_step(5.0, 10), whole_step(25.0, 10), whole_step(200.0, 10)), (1.0, 5.0, 20.0));
        let t = ticks(0.0, 1000.0, 250.0, |v| format!("{v}"));
        assert_eq!(t.len(), 5);
        assert_eq!(decade_ticks(1e-6, 1.0, |v| format!("{v:e}")).len(), 7);
        assert_eq!(
            wrap("share of the 568,630 distinct games", 20),
            ["share of the 568,630", "distinct games"]
        );
    }
}
