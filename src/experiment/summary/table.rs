//! A Markdown table: a header row and text cells, numbers right-aligned.

/// A table being built.
#[derive(Debug, Clone)]
pub struct Table {
    header: Vec<String>,
    /// Whether each column is right-aligned.
    right: Vec<bool>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these columns; a column whose name starts with `>` is right-aligned (the
    /// `>` is not shown).
    pub fn new(columns: &[&str]) -> Table {
        Table {
            header: columns
                .iter()
                .map(|c| c.trim_start_matches('>').to_string())
                .collect(),
            right: columns.iter().map(|c| c.starts_with('>')).collect(),
            rows: Vec::new(),
        }
    }

    pub fn push(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The Markdown text, ending with a newline.
    pub fn render(&self) -> String {
        let line = |cells: &[String]| format!("| {} |\n", cells.join(" | "));
        let mut text = line(&self.header);
        let rule: Vec<String> = self
            .right
            .iter()
            .map(|&right| if right { "---:" } else { "---" }.to_string())
            .collect();
        text.push_str(&line(&rule));
        for row in &self.rows {
            text.push_str(&line(row));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_markdown() {
        let mut table = Table::new(&["name", ">value"]);
        table.push(vec!["a".into(), "1".into()]);
        assert_eq!(
            table.render(),
            "| name | value |\n| --- | ---: |\n| a | 1 |\n"
        );
    }
}
