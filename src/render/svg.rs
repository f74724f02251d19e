//! A minimal SVG chart: a frame mapping data to pixels, axes with ticks, and shapes.
//! Enough for bar charts and line charts without a plotting dependency.

use std::fmt::Write;

pub const WIDTH: f64 = 720.0;
pub const HEIGHT: f64 = 440.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 30.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 70.0;

pub struct Chart {
    x: (f64, f64),
    y: (f64, f64),
    body: String,
}

impl Chart {
    /// A chart showing data x in `x` and y in `y`, with a title.
    pub fn new(title: &str, x: (f64, f64), y: (f64, f64)) -> Chart {
        let mut c = Chart { x, y, body: String::new() };
        c.text(WIDTH / 2.0, 28.0, title, "middle", 16.0, "#000");
        c
    }

    pub fn px(&self, x: f64) -> f64 {
        LEFT + (x - self.x.0) / (self.x.1 - self.x.0) * (WIDTH - LEFT - RIGHT)
    }
    pub fn py(&self, y: f64) -> f64 {
        HEIGHT - BOTTOM - (y - self.y.0) / (self.y.1 - self.y.0) * (HEIGHT - TOP - BOTTOM)
    }

    /// Axes with labelled ticks (data value, label) and axis titles.
    pub fn axes(
        &mut self,
        x_ticks: &[(f64, String)],
        y_ticks: &[(f64, String)],
        x_title: &str,
        y_title: &str,
    ) {
        let (x0, x1, y0, y1) = (LEFT, WIDTH - RIGHT, HEIGHT - BOTTOM, TOP);
        let _ = write!(self.body, r##"<path d="M{x0},{y1} V{y0} H{x1}" stroke="#000" fill="none"/>"##);
        for (v, label) in y_ticks {
            let y = self.py(*v);
            let _ = write!(
                self.body,
                r##"<path d="M{x0},{y} h-5" stroke="#000"/><path d="M{x0},{y} H{x1}" stroke="#eee"/>"##
            );
            self.text(x0 - 8.0, y + 4.0, label, "end", 11.0, "#000");
        }
        for (v, label) in x_ticks {
            let x = self.px(*v);
            let _ = write!(self.body, r##"<path d="M{x},{y0} v5" stroke="#000"/>"##);
            self.text(x, y0 + 20.0, label, "middle", 11.0, "#000");
        }
        self.text((x0 + x1) / 2.0, HEIGHT - 20.0, x_title, "middle", 13.0, "#000");
        let _ = write!(
            self.body,
            r##"<text x="18" y="{}" transform="rotate(-90 18 {})" text-anchor="middle" font-size="13">{}</text>"##,
            (y0 + y1) / 2.0,
            (y0 + y1) / 2.0,
            escape(y_title)
        );
    }

    pub fn text(&mut self, x: f64, y: f64, text: &str, anchor: &str, size: f64, color: &str) {
        let _ = write!(
            self.body,
            r##"<text x="{x:.1}" y="{y:.1}" text-anchor="{anchor}" font-size="{size}" fill="{color}">{}</text>"##,
            escape(text)
        );
    }

    /// A bar from y = 0 to `y`, centred on data x with a width in data units.
    pub fn bar(&mut self, x: f64, width: f64, y: f64, color: &str) {
        let (l, r) = (self.px(x - width / 2.0), self.px(x + width / 2.0));
        let (top, base) = (self.py(y), self.py(self.y.0.max(0.0)));
        let _ = write!(
            self.body,
            r##"<rect x="{l:.1}" y="{top:.1}" width="{:.1}" height="{:.1}" fill="{color}"/>"##,
            r - l,
            (base - top).max(0.0)
        );
    }

    /// A vertical interval with whiskers at data x.
    pub fn interval(&mut self, x: f64, lo: f64, hi: f64) {
        let (x, lo, hi) = (self.px(x), self.py(lo), self.py(hi));
        let _ = write!(
            self.body,
            r##"<path d="M{x:.1},{lo:.1} V{hi:.1} M{:.1},{lo:.1} h8 M{:.1},{hi:.1} h8" stroke="#000" fill="none"/>"##,
            x - 4.0,
            x - 4.0
        );
    }

    /// A horizontal line across the chart at data y, with a label at its right end.
    pub fn hline(&mut self, y: f64, color: &str, dashed: bool, label: &str) {
        let (x0, x1, py) = (LEFT, WIDTH - RIGHT, self.py(y));
        let dash = if dashed { r#" stroke-dasharray="6 4""# } else { "" };
        let _ =
            write!(self.body, r##"<path d="M{x0},{py:.1} H{x1}" stroke="{color}" stroke-width="2"{dash}/>"##);
        self.text(x1 - 4.0, py - 6.0, label, "end", 12.0, color);
    }

    /// A line through data points.
    pub fn polyline(&mut self, points: &[(f64, f64)], color: &str) {
        let d: Vec<String> =
            points.iter().map(|&(x, y)| format!("{:.1},{:.1}", self.px(x), self.py(y))).collect();
        let _ = write!(
            self.body,
            r##"<polyline points="{}" stroke="{color}" stroke-width="2" fill="none"/>"##,
            d.join(" ")
        );
    }

    /// A filled band between two lines over the same xs.
    pub fn band(&mut self, xs: &[f64], lo: &[f64], hi: &[f64], color: &str) {
        let mut d: Vec<String> =
            xs.iter().zip(hi).map(|(&x, &y)| format!("{:.1},{:.1}", self.px(x), self.py(y))).collect();
        d.extend(xs.iter().zip(lo).rev().map(|(&x, &y)| format!("{:.1},{:.1}", self.px(x), self.py(y))));
        let _ = write!(self.body, r##"<polygon points="{}" fill="{color}" stroke="none"/>"##, d.join(" "));
    }

    /// A legend of (color, label) swatches near the top, starting at `x_frac` of the width.
    pub fn legend(&mut self, x_frac: f64, entries: &[(&str, &str)]) {
        let x = LEFT + 12.0 + x_frac * (WIDTH - LEFT - RIGHT);
        for (i, (color, label)) in entries.iter().enumerate() {
            let y = TOP + 10.0 + 18.0 * i as f64;
            let _ = write!(
                self.body,
                r##"<rect x="{x}" y="{}" width="12" height="12" fill="{color}"/>"##,
                y - 10.0
            );
            self.text(x + 18.0, y, label, "start", 12.0, "#000");
        }
    }

    pub fn finish(self) -> String {
        format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif"><rect width="100%" height="100%" fill="#fff"/>{}</svg>
"##,
            self.body
        )
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Evenly spaced ticks from `lo` to `hi` in steps of `step`, labelled by `fmt`.
pub fn ticks(lo: f64, hi: f64, step: f64, fmt: impl Fn(f64) -> String) -> Vec<(f64, String)> {
    let mut out = Vec::new();
    let mut v = (lo / step).ceil() * step;
    while v <= hi + step * 1e-9 {
        out.push((v, fmt(v)));
        v += step;
    }
    out
}
