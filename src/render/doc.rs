//! A report as headings, paragraphs and tables, rendered as plain text or Markdown from one
//! description, so the two renderings never drift apart.

use super::table;

pub enum Block {
    Heading(String),
    Para(String),
    Table { headers: Vec<String>, rows: Vec<Vec<String>> },
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
    pub fn table(&mut self, headers: &[&str], rows: Vec<Vec<String>>) {
        self.0.push(Block::Table { headers: headers.iter().map(|h| h.to_string()).collect(), rows });
    }

    pub fn text(&self) -> String {
        let mut out = String::new();
        for block in &self.0 {
            match block {
                Block::Heading(h) => out += &format!("\n{h}\n{}\n", "=".repeat(h.chars().count())),
                Block::Para(p) => out += &format!("{p}\n"),
                Block::Table { headers, rows } => {
                    let headers: Vec<&str> = headers.iter().map(|h| h.as_str()).collect();
                    out += &table(&headers, rows);
                }
            }
        }
        out.trim_start().to_string()
    }

    pub fn markdown(&self) -> String {
        let mut out = String::new();
        for (i, block) in self.0.iter().enumerate() {
            match block {
                Block::Heading(h) => out += &format!("{}{h}\n\n", if i == 0 { "# " } else { "## " }),
                Block::Para(p) => out += &format!("{p}\n\n"),
                Block::Table { headers, rows } => {
                    out += &format!("| {} |\n", headers.join(" | "));
                    let rule: Vec<&str> =
                        (0..headers.len()).map(|c| if c == 0 { "---" } else { "---:" }).collect();
                    out += &format!("|{}|\n", rule.join("|"));
                    for row in rows {
                        out += &format!("| {} |\n", row.join(" | "));
                    }
                    out += "\n";
                }
            }
        }
        out
    }
}
