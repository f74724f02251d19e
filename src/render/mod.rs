//! Presentation: typed results into bytes. Every command's result becomes a view struct that
//! derives `Serialize` (the JSON, through serde) and implements [`Report`] (its document for
//! text and Markdown, its table for CSV); [`render`] turns it into the requested [`Format`].
//! Nothing here prints, reads files or computes statistics; numbers are formatted only by
//! [`number`].

pub mod audit;
pub mod board;
pub mod chain;
pub mod coach;
pub mod count;
pub mod doc;
pub mod ends;
pub mod exact;
pub mod number;
#[cfg(test)]
mod peg_snapshots;
pub mod plots;
pub mod position;
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
