//! Presentation: typed results into bytes. Every command's result becomes a view struct that
//! derives `Serialize` (the JSON, through serde) and implements [`Report`] (its document for
//! text and Markdown, its table for CSV); [`render`] turns it into the requested [`Format`].
//! Nothing here prints, reads files or computes statistics; numbers are formatted only by
//! [`number`].

pub mod audit;
pub mod board;
pub mod count;
pub mod doc;
pub mod ends;
pub mod exact;
pub mod number;
#[cfg(test)]
mod peg_snapshots;
pub mod plots;
pub mod race;
pub mod simulate;
pub mod solve;
pub mod svg;
pub mod values;

pub use doc::{Align, Column, Doc, Table, left, right};

use serde::Serialize;

/// The output formats every command offers (CSV and Markdown where a table fits).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// Tables and lines for people (the default).
    #[default]
    Text,
    Markdown,
    /// One JSON document.
    Json,
    /// One CSV table.
    Csv,
}

/// How text shows exact numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// Whole fractions in text and Markdown; by default long ones are abbreviated (JSON and
    /// CSV always carry them whole).
    pub full_fractions: bool,
}

/// A command's result, ready for people and programs: the same content in every format.
pub trait Report: Serialize {
    /// The content as headings, lines and tables: the text and Markdown renderings.
    fn document(&self, style: Style) -> Doc;

    /// The content as one rectangular table (one row per value where the document shows
    /// several tables); `None` where no table fits.
    fn table(&self) -> Option<Table>;
}

/// The bytes of `report` in `format`; `None` when the format does not fit the report (CSV
/// of a report with no table).
pub fn render(report: &impl Report, format: Format, style: Style) -> Option<String> {
    match format {
        Format::Text => Some(report.document(style).text()),
        Format::Markdown => Some(report.document(style).markdown()),
        Format::Json => Some(json(report)),
        Format::Csv => report.table().map(|t| t.csv()),
    }
}

/// One pretty-printed JSON document and a newline.
pub fn json(value: &impl Serialize) -> String {
    // The view structs hold strings, numbers and maps with string keys: they always serialize.
    serde_json::to_string_pretty(value).unwrap_or_default() + "\n"
}

// Helpers of the renderers not yet moved to views (to go once every command has its view).
use rug::{Integer, Rational};
use serde_json::{Value, json};

/// A plain text table: numbers right-aligned; the first column, a "holes" column and a last
/// column headed "exact" (long fractions) left-aligned.
pub fn table(headers: &[&str], rows: &[Vec<String>]) -> String {
    legacy_table(headers, rows).text()
}

/// A table aligned by the old rule of `table` (to go with it).
pub fn legacy_table(headers: &[&str], rows: &[Vec<String>]) -> Table {
    let last = headers.len().saturating_sub(1);
    let columns = headers
        .iter()
        .enumerate()
        .map(
            |(i, h)| if i == 0 || *h == "holes" || (i == last && *h == "exact") { left(h) } else { right(h) },
        )
        .collect();
    Table { columns, rows: rows.to_vec() }
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
