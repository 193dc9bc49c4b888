//! The report as one self-contained HTML page (inline style, no scripts, no
//! external files): facts, standings, crosstable or bracket, then every round.

use super::report::{Align, Report, Section};

/// Escapes text for HTML.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font-family:system-ui,'Noto Sans CJK SC','PingFang SC',sans-serif;\
margin:2em;color:#222}h1{margin-bottom:.2em}p.facts{color:#555;margin:.1em 0}\
table{border-collapse:collapse;margin:.5em 0 1.5em}th,td{border:1px solid #ccc;\
padding:.2em .5em}th{background:#f3efe6}td.r{text-align:right}tr:nth-child(even) td\
{background:#fafafa}p.note{color:#555;font-size:.9em;margin:.1em 0}";

fn section(out: &mut String, s: &Section, level: u8) {
    out.push_str(&format!(
        "<h{level}>{}</h{level}>\n<table>\n<tr>",
        escape(&s.heading)
    ));
    for c in &s.columns {
        out.push_str(&format!("<th>{}</th>", escape(c)));
    }
    out.push_str("</tr>\n");
    for row in &s.rows {
        out.push_str("<tr>");
        for (k, cell) in row.iter().enumerate() {
            let class = if s.align.get(k) == Some(&Align::Right) {
                " class=\"r\""
            } else {
                ""
            };
            out.push_str(&format!("<td{class}>{}</td>", escape(cell)));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    for n in &s.notes {
        out.push_str(&format!("<p class=\"note\">{}</p>\n", escape(n)));
    }
}

/// The page for `report`.
pub fn page(report: &Report) -> String {
    let mut out = String::from(
        "<!DOCTYPE html>\n<html lang=\"zh-Hant\">\n<head>\n<meta charset=\"utf-8\">\n",
    );
    out.push_str(&format!(
        "<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        escape(&report.title),
        escape(&report.title)
    ));
    for fact in &report.facts {
        out.push_str(&format!("<p class=\"facts\">{}</p>\n", escape(fact)));
    }
    section(&mut out, &report.standings, 2);
    section(&mut out, &report.crosstable, 2);
    for r in report.rounds.iter().rev() {
        section(&mut out, r, 3);
    }
    out.push_str("</body>\n</html>\n");
    out
}

/// The page for an event as it stands.
pub fn render(event: &super::event::Event) -> String {
    page(&Report::new(event))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_escaped() {
        assert_eq!(escape("<a&b>\"'"), "&lt;a&amp;b&gt;&quot;&#39;");
        let report = Report {
            title: "T<1>".into(),
            facts: vec!["f".into()],
            rounds: vec![],
            standings: Section {
                heading: "S".into(),
                columns: vec!["Name".into()],
                align: vec![Align::Left],
                rows: vec![vec!["<script>".into()]],
                notes: vec![],
            },
            crosstable: Section {
                heading: "C".into(),
                columns: vec![],
                align: vec![],
                rows: vec![],
                notes: vec![],
            },
        };
        let html = page(&report);
        assert!(html.contains("<title>T&lt;1&gt;</title>"));
        assert!(html.contains("<td>&lt;script&gt;</td>"));
        assert!(!html.contains("<script>"));
        assert!(html.starts_with("<!DOCTYPE html>") && html.ends_with("</html>\n"));
    }
}
