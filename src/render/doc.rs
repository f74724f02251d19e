//! A report as a document: headings, lines, tables and drawings, rendered as plain text or
//! Markdown from one description, so the two renderings never drift apart. Tables carry
//! their columns' alignment explicitly (hyperfine's habit) and also render as CSV.

/// How a column's cells line up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// One column of a table: its header and alignment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    pub header: String,
    pub align: Align,
}

/// A left-aligned column (names, labels, fractions).
pub fn left(header: &str) -> Column {
    Column { header: header.to_string(), align: Align::Left }
}

/// A right-aligned column (numbers).
pub fn right(header: &str) -> Column {
    Column { header: header.to_string(), align: Align::Right }
}

/// A table: columns and rows of cells already formatted for people.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    pub columns: Vec<Column>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new(columns: Vec<Column>) -> Table {
        Table { columns, rows: Vec::new() }
    }

    pub fn row(&mut self, cells: Vec<String>) {
        debug_assert_eq!(cells.len(), self.columns.len(), "a row has a cell per column");
        self.rows.push(cells);
    }

    /// Plain text: columns padded to their widest cell, two spaces apart, a rule of dashes
    /// under the headers.
    pub fn text(&self) -> String {
        let mut width: Vec<usize> = self.columns.iter().map(|c| c.header.chars().count()).collect();
        for row in &self.rows {
            for (w, cell) in width.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let line = |cells: Vec<&str>| {
            let parts: Vec<String> = cells
                .iter()
                .zip(&self.columns)
                .zip(&width)
                .map(|((cell, column), &w)| match column.align {
                    Align::Left => format!("{cell:<w$}"),
                    Align::Right => format!("{cell:>w$}"),
                })
                .collect();
            parts.join("  ").trim_end().to_string() + "\n"
        };
        let mut out = line(self.columns.iter().map(|c| c.header.as_str()).collect());
        let rules: Vec<String> = width.iter().map(|&w| "-".repeat(w)).collect();
        out += &line(rules.iter().map(String::as_str).collect());
        for row in &self.rows {
            out += &line(row.iter().map(String::as_str).collect());
        }
        out
    }

    /// A Markdown table with the columns' alignment in its rule line.
    pub fn markdown(&self) -> String {
        let escape = |s: &str| s.replace('|', "\\|");
        let headers: Vec<String> = self.columns.iter().map(|c| escape(&c.header)).collect();
        let mut out = format!("| {} |\n", headers.join(" | "));
        let rule: Vec<&str> =
            self.columns.iter().map(|c| if c.align == Align::Left { ":---" } else { "---:" }).collect();
        out += &format!("|{}|\n", rule.join("|"));
        for row in &self.rows {
            let cells: Vec<String> = row.iter().map(|c| escape(c)).collect();
            out += &format!("| {} |\n", cells.join(" | "));
        }
        out
    }

    /// RFC 4180 CSV: a header line, then a line per row.
    pub fn csv(&self) -> String {
        let mut writer = csv::Writer::from_writer(Vec::new());
        let mut write = |cells: Vec<&str>| writer.write_record(cells).is_ok();
        let mut ok = write(self.columns.iter().map(|c| c.header.as_str()).collect());
        for row in &self.rows {
            ok &= write(row.iter().map(String::as_str).collect());
        }
        debug_assert!(ok, "writing CSV into memory cannot fail");
        let bytes = writer.into_inner().unwrap_or_default();
        String::from_utf8(bytes).unwrap_or_default()
    }
}

pub enum Block {
    /// A section heading: underlined in text, `##` in Markdown (`#` for the first).
    Heading(String),
    /// A paragraph or a single line.
    Para(String),
    Table(Table),
    /// Text kept as it is (a board drawing): indented-free in text, a code block in Markdown.
    Pre(String),
}

#[derive(Default)]
pub struct Doc(pub Vec<Block>);

impl Doc {
    pub fn heading(&mut self, text: impl Into<String>) {
        self.0.push(Block::Heading(text.into()));
    }
    pub fn para(&mut self, text: impl Into<String>) {
        self.0.push(Block::Para(text.into()));
    }
    pub fn table(&mut self, table: Table) {
        self.0.push(Block::Table(table));
    }
    pub fn pre(&mut self, text: impl Into<String>) {
        self.0.push(Block::Pre(text.into()));
    }

    /// Plain text: a blank line before every heading and after every table and drawing.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for block in &self.0 {
            match block {
                Block::Heading(h) => {
                    // Exactly one blank line before a heading, whatever came before it.
                    out.truncate(out.trim_end_matches('\n').len());
                    out += &format!("\n\n{h}\n{}\n", "=".repeat(h.chars().count()));
                }
                Block::Para(p) => out += &format!("{p}\n"),
                Block::Table(t) => out += &(t.text() + "\n"),
                Block::Pre(p) => out += &format!("{}\n\n", p.trim_end()),
            }
        }
        out.trim_start().trim_end().to_string() + "\n"
    }

    pub fn markdown(&self) -> String {
        let mut out = String::new();
        for (i, block) in self.0.iter().enumerate() {
            match block {
                Block::Heading(h) => out += &format!("{}{h}\n\n", if i == 0 { "# " } else { "## " }),
                Block::Para(p) => out += &format!("{p}\n\n"),
                Block::Table(t) => out += &(t.markdown() + "\n"),
                Block::Pre(p) => out += &format!("```\n{}\n```\n\n", p.trim_end()),
            }
        }
        out.trim_end().to_string() + "\n"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Table {
        let mut t = Table::new(vec![left("class"), right("P(one peg)"), left("exact")]);
        t.row(vec!["A K O".into(), "0.00686176".into(), "232443128903009/33875167334400000".into()]);
        t.row(vec!["E H I".into(), "0.00172636".into(), "3069653093/1778112000000".into()]);
        t
    }

    #[test]
    fn text_tables_align_each_column_as_declared() {
        assert_eq!(
            sample().text(),
            "class  P(one peg)  exact\n\
             -----  ----------  ---------------------------------\n\
             A K O  0.00686176  232443128903009/33875167334400000\n\
             E H I  0.00172636  3069653093/1778112000000\n"
        );
    }

    #[test]
    fn markdown_tables_state_alignment() {
        assert_eq!(
            sample().markdown(),
            "| class | P(one peg) | exact |\n\
             |:---|---:|:---|\n\
             | A K O | 0.00686176 | 232443128903009/33875167334400000 |\n\
             | E H I | 0.00172636 | 3069653093/1778112000000 |\n"
        );
    }

    #[test]
    fn csv_quotes_what_needs_quoting() {
        let mut t = Table::new(vec![left("holes"), right("games")]);
        t.row(vec!["A, K".into(), "1,000".into()]);
        assert_eq!(t.csv(), "holes,games\n\"A, K\",\"1,000\"\n");
    }

    #[test]
    fn documents_render_as_text_and_markdown() {
        let mut d = Doc::default();
        d.heading("Audit");
        d.para("One line.");
        d.pre("  A\n B C");
        assert_eq!(d.text(), "Audit\n=====\nOne line.\n  A\n B C\n");
        assert_eq!(d.markdown(), "# Audit\n\nOne line.\n\n```\n  A\n B C\n```\n");
        // A drawing is set apart from the text after it (the text ran on from its last row).
        d.para("After.");
        assert_eq!(d.text(), "Audit\n=====\nOne line.\n  A\n B C\n\nAfter.\n");
    }
}
