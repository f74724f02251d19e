//! Turning results into text: human tables and JSON documents. Nothing here prints; the
//! CLI writes what these functions return.

pub mod audit;
pub mod doc;
pub mod ends;
pub mod number;
pub mod plots;
pub mod race;
pub mod simulate;
pub mod solitaire;
pub mod solve;
pub mod svg;

use rug::{Integer, Rational};
use serde_json::{Value, json};

/// A plain text table: numbers right-aligned; the first column, a "holes" column and a last
/// column headed "exact" (long fractions) left-aligned.
pub fn table(headers: &[&str], rows: &[Vec<String>]) -> String {
    let cols = headers.len();
    let mut width: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (i, cell) in row.iter().enumerate().take(cols) {
            width[i] = width[i].max(cell.chars().count());
        }
    }
    let left: Vec<bool> = (0..cols)
        .map(|i| i == 0 || headers[i] == "holes" || (i + 1 == cols && headers[i] == "exact"))
        .collect();
    let line = |cells: &[String]| {
        let parts: Vec<String> =
            cells
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    if left[i] { format!("{c:<w$}", w = width[i]) } else { format!("{c:>w$}", w = width[i]) }
                })
                .collect();
        parts.join("  ").trim_end().to_string() + "\n"
    };
    let mut out = line(&headers.iter().map(|h| h.to_string()).collect::<Vec<_>>());
    out += &line(&width.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>());
    for row in rows {
        out += &line(row);
    }
    out
}

/// An exact number for JSON: "p/q" (or "n" when whole).
pub fn exact(value: &Rational) -> Value {
    Value::String(value.to_string())
}

/// A big integer for JSON: a string, so no reader rounds it.
pub fn big(value: &Integer) -> Value {
    Value::String(value.to_string())
}

/// A probability as JSON: the fraction, its decimal and its information in bits.
pub fn probability(p: &Rational) -> Value {
    let bits = crate::render::number::bits(p);
    json!({
        "fraction": exact(p),
        "decimal": p.to_f64(),
        "bits": if bits.is_finite() { json!(bits) } else { Value::Null },
    })
}

/// "p/q (0.00450695)", or only the decimal's digits for a whole number.
pub fn fraction_and_decimal(p: &Rational, digits: u32) -> String {
    if *p.denom() == 1 {
        return p.to_string();
    }
    format!("{p} ({})", crate::render::number::decimal(p, digits))
}

/// Bits as text, with four decimals; "inf" for a probability of zero.
pub fn bits_text(p: &Rational) -> String {
    let b = crate::render::number::bits(p);
    if b.is_finite() { format!("{b:.4}") } else { "inf".into() }
}
