//! The event report: round results, standings and the crosstable, as tables of
//! text; [`Report`]'s `Display` is the terminal form, [`super::html`] the web page.
//!
//! Cells follow the score sheet conventions of the rules: points on the event's
//! scale, `+` for a win and `−` for a loss without play (20.3), `bye` for a bye.
//! The round-robin crosstable reads along a row: the row player's points against the
//! column player, one digit per game. The Swiss crosstable lists each round as
//! opponent number, colour (`r` Red, `b` Black) and points.

use super::event::{Event, Standings};
use super::knockout::{Entrant, MatchStatus, Side};
use super::player::PlayerId;
use super::results::GameRecord;
use super::standings::{Decision, EntryKind, ScoreTable};
use chuhan_engine::core::Color;
use chuhan_engine::core::PlayerResult;
use std::fmt;

/// Column alignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Left.
    Left,
    /// Right.
    Right,
}

/// A table with a heading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// The heading.
    pub heading: String,
    /// Column titles.
    pub columns: Vec<String>,
    /// Alignment per column.
    pub align: Vec<Align>,
    /// Rows of cells.
    pub rows: Vec<Vec<String>>,
    /// Notes under the table.
    pub notes: Vec<String>,
}

impl Section {
    fn new(heading: String, columns: &[(&str, Align)]) -> Section {
        Section {
            heading,
            columns: columns.iter().map(|c| c.0.to_string()).collect(),
            align: columns.iter().map(|c| c.1).collect(),
            rows: Vec::new(),
            notes: Vec::new(),
        }
    }
}

/// The whole report of an event as it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The event's name.
    pub title: String,
    /// Format, clocks, rules, scoring, progress.
    pub facts: Vec<String>,
    /// Results of each round paired so far.
    pub rounds: Vec<Section>,
    /// The standings.
    pub standings: Section,
    /// The crosstable (round robin, Swiss) or bracket (knockout).
    pub crosstable: Section,
}

fn symbol(e_points: u32, kind: EntryKind) -> String {
    match kind {
        EntryKind::ForfeitWin => "+".into(),
        EntryKind::ForfeitLoss => "−".into(),
        EntryKind::Bye => "bye".into(),
        EntryKind::Played => e_points.to_string(),
    }
}

fn result_text(g: &GameRecord) -> (String, String) {
    match g.decision {
        Decision::Played(r) => (
            r.to_string(),
            g.termination.map(|t| t.to_string()).unwrap_or_default(),
        ),
        Decision::Forfeit(a) => {
            let text = match a {
                crate::game::play::Absence::Red => "−/+",
                crate::game::play::Absence::Black => "+/−",
                crate::game::play::Absence::Both => "−/−",
            };
            (text.into(), "forfeit (absent)".into())
        }
    }
}

impl Report {
    /// Builds the report of `event`.
    pub fn new(event: &Event) -> Report {
        let name = |p: PlayerId| format!("{} {}", p.number(), event.name(p));
        let config = event.config();
        let done = event
            .rounds()
            .iter()
            .filter(|r| event.pending(r.round).is_empty())
            .count();
        let facts = vec![
            event.format_summary(),
            format!(
                "{} · rules {} · referee {} · scoring {} (win/draw/loss)",
                match config.limit {
                    Some(limit) => format!("fixed {limit} per move"),
                    None => format!("time control {}", config.time_control),
                },
                config.rules,
                config.referee,
                config.scoring
            ),
            format!(
                "rounds finished {done} of {}{}",
                event.total_rounds(),
                if event.finished() { " · final" } else { "" }
            ),
        ];

        // Round results.
        let knockout = event.bracket();
        let mut rounds = Vec::new();
        for r in event.rounds() {
            let mut s = Section::new(
                format!("Round {}", r.round),
                &[
                    ("Bd", Align::Right),
                    ("Game", Align::Right),
                    ("Red", Align::Left),
                    ("Black", Align::Left),
                    ("Result", Align::Left),
                    ("Termination", Align::Left),
                ],
            );
            for g in event.games().filter(|g| g.round == r.round) {
                let (result, why) = result_text(g);
                s.rows.push(vec![
                    g.board.to_string(),
                    g.game.to_string(),
                    name(g.red),
                    name(g.black),
                    result,
                    why,
                ]);
            }
            for p in event.pending(r.round) {
                s.rows.push(vec![
                    p.id.board.to_string(),
                    p.id.game.to_string(),
                    name(p.red),
                    name(p.black),
                    "…".into(),
                    String::new(),
                ]);
            }
            s.rows.sort_by_key(|row| {
                (
                    row[0].parse::<u32>().unwrap_or(0),
                    row[1].parse::<u32>().unwrap_or(0),
                )
            });
            if !r.byes.is_empty() {
                let byes: Vec<String> = r.byes.iter().map(|&p| name(p)).collect();
                s.notes.push(format!(
                    "bye: {}{}",
                    byes.join(", "),
                    if event.is_knockout() {
                        " (advances)"
                    } else if matches!(
                        event.config().format,
                        super::config::FormatConfig::Swiss { .. }
                    ) {
                        " (scored as a win)"
                    } else {
                        ""
                    }
                ));
            }
            if let Some((_, views)) = &knockout {
                for m in views.get(r.round as usize - 1).into_iter().flatten() {
                    if let MatchStatus::Won { winner, loser } = m.status {
                        let label = match m.plan.side {
                            Side::Winners => format!("W{}", m.plan.stage),
                            Side::Losers => format!("L{}", m.plan.stage),
                            Side::Final => "final".into(),
                        };
                        s.notes.push(format!(
                            "{label} board {}: {} beat {}",
                            m.plan.id.board,
                            name(winner),
                            name(loser)
                        ));
                    }
                }
            }
            rounds.push(s);
        }

        let table = event.table();
        let (standings, crosstable) = match event.standings() {
            Standings::Ranked {
                criteria,
                rows,
                struck_out,
            } => {
                let mut columns = vec![
                    ("Rk", Align::Right),
                    ("No", Align::Right),
                    ("Name", Align::Left),
                ];
                let shown: Vec<usize> = (0..criteria.len())
                    .filter(|&k| criteria[k].shown())
                    .collect();
                for &k in &shown {
                    columns.push((criteria[k].label(), Align::Right));
                }
                let mut s = Section::new(format!("Standings after round {done}"), &columns);
                for r in &rows {
                    let mut row = vec![
                        if r.first == r.last {
                            r.first.to_string()
                        } else {
                            format!("{}-{}", r.first, r.last)
                        },
                        r.player.number().to_string(),
                        event.name(r.player).to_string(),
                    ];
                    for &k in &shown {
                        row.push(
                            r.values[k]
                                .as_ref()
                                .map(|v| v.to_string())
                                .unwrap_or_default(),
                        );
                    }
                    s.rows.push(row);
                }
                s.notes.push(format!(
                    "order: {}",
                    criteria
                        .iter()
                        .map(|c| c.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
                for p in struck_out {
                    s.notes
                        .push(format!("{} withdrew; results struck out (19.2)", name(p)));
                }
                let cross = if matches!(
                    event.config().format,
                    super::config::FormatConfig::Swiss { .. }
                ) {
                    swiss_crosstable(event, &table, &rows)
                } else {
                    round_robin_crosstable(event, &table, &rows)
                };
                (s, cross)
            }
            Standings::Knockout { placings, alive } => {
                let mut s = Section::new(
                    format!("Placings after round {done}"),
                    &[
                        ("Place", Align::Right),
                        ("No", Align::Right),
                        ("Name", Align::Left),
                    ],
                );
                for (p, place) in placings {
                    s.rows.push(vec![
                        place.to_string(),
                        p.number().to_string(),
                        event.name(p).into(),
                    ]);
                }
                for p in alive {
                    s.rows.push(vec![
                        "in".into(),
                        p.number().to_string(),
                        event.name(p).into(),
                    ]);
                }
                (s, bracket_table(event))
            }
        };
        Report {
            title: config.event.clone(),
            facts,
            rounds,
            standings,
            crosstable,
        }
    }
}

fn round_robin_crosstable(
    event: &Event,
    table: &ScoreTable,
    rows: &[super::tiebreak::Ranked],
) -> Section {
    let n = event.players();
    let numbers: Vec<String> = (1..=n).map(|k| k.to_string()).collect();
    let mut columns: Vec<(&str, Align)> = vec![("No", Align::Right), ("Name", Align::Left)];
    for k in &numbers {
        columns.push((k, Align::Left));
    }
    columns.push(("Pts", Align::Right));
    columns.push(("Rk", Align::Right));
    let mut s = Section::new("Crosstable".into(), &columns);
    let rank = |p: PlayerId| {
        rows.iter()
            .find(|r| r.player == p)
            .map(|r| r.first.to_string())
            .unwrap_or_else(|| "—".into())
    };
    for p in event.ids() {
        let mut row = vec![p.number().to_string(), event.name(p).to_string()];
        for q in event.ids() {
            if p == q {
                row.push("×".into());
                continue;
            }
            let cell: String = table
                .between(p, q)
                .map(|e| symbol(e.points, e.kind))
                .collect();
            row.push(cell);
        }
        row.push(table.points(p).to_string());
        row.push(rank(p));
        s.rows.push(row);
    }
    s
}

fn swiss_crosstable(
    event: &Event,
    table: &ScoreTable,
    rows: &[super::tiebreak::Ranked],
) -> Section {
    let labels: Vec<String> = (1..=event.rounds().len())
        .map(|r| format!("R{r}"))
        .collect();
    let mut columns: Vec<(&str, Align)> = vec![
        ("Rk", Align::Right),
        ("No", Align::Right),
        ("Name", Align::Left),
    ];
    for l in &labels {
        columns.push((l, Align::Left));
    }
    columns.push(("Pts", Align::Right));
    let mut s = Section::new("Crosstable".into(), &columns);
    for r in rows {
        let p = r.player;
        let mut row = vec![
            r.first.to_string(),
            p.number().to_string(),
            event.name(p).to_string(),
        ];
        for round in 1..=event.rounds().len() as u32 {
            let cell = table
                .entries(p)
                .iter()
                .find(|e| e.round == round)
                .map(|e| match (e.opponent, e.colour) {
                    (Some(o), Some(c)) => format!(
                        "{}{}{}",
                        o.number(),
                        if c == Color::Red { "r" } else { "b" },
                        symbol(e.points, e.kind)
                    ),
                    _ => symbol(e.points, e.kind),
                })
                .unwrap_or_default();
            row.push(cell);
        }
        row.push(table.points(p).to_string());
        s.rows.push(row);
    }
    s
}

fn bracket_table(event: &Event) -> Section {
    let mut s = Section::new(
        "Bracket".into(),
        &[
            ("Round", Align::Right),
            ("Match", Align::Left),
            ("Upper", Align::Left),
            ("Lower", Align::Left),
            ("Games", Align::Left),
            ("Through", Align::Left),
        ],
    );
    let Some((_, views)) = event.bracket() else {
        return s;
    };
    let show = |e: Entrant| match e {
        Entrant::Player(p) => format!("{} {}", p.number(), event.name(p)),
        Entrant::Empty => "—".into(),
        Entrant::Unknown => "?".into(),
    };
    for m in views.iter().flatten() {
        if m.status == MatchStatus::Empty {
            continue;
        }
        let label = match m.plan.side {
            Side::Winners => format!("W{}.{}", m.plan.stage, m.plan.id.board),
            Side::Losers => format!("L{}.{}", m.plan.stage, m.plan.id.board),
            Side::Final => "final".into(),
        };
        let games: String = match m.players[0] {
            Entrant::Player(first) => event
                .games()
                .filter(|g| g.round == m.plan.id.round && g.board == m.plan.id.board)
                .map(|g| {
                    let colour = if g.red == first {
                        Color::Red
                    } else {
                        Color::Black
                    };
                    match g.decision {
                        Decision::Played(r) => match r.for_side(colour) {
                            PlayerResult::Win => "1",
                            PlayerResult::Draw => "½",
                            PlayerResult::Loss => "0",
                        },
                        Decision::Forfeit(a) if a.includes(colour) => "−",
                        Decision::Forfeit(_) => "+",
                    }
                })
                .collect::<Vec<_>>()
                .join(" "),
            _ => String::new(),
        };
        let through = match m.status {
            MatchStatus::Won { winner, .. } | MatchStatus::Bye(winner) => {
                show(Entrant::Player(winner))
            }
            _ => String::new(),
        };
        s.rows.push(vec![
            m.plan.id.round.to_string(),
            label,
            show(m.players[0]),
            show(m.players[1]),
            games,
            through,
        ]);
    }
    s.notes
        .push("games from the upper player's side: 1 win, ½ draw, 0 loss, +/− forfeit".into());
    s
}

/// Terminal width of a string: CJK and full-width characters take two columns.
pub fn width(s: &str) -> usize {
    s.chars()
        .map(|c| {
            let u = c as u32;
            let wide = (0x1100..=0x115F).contains(&u)
                || (0x2E80..=0xA4CF).contains(&u)
                || (0xAC00..=0xD7A3).contains(&u)
                || (0xF900..=0xFAFF).contains(&u)
                || (0xFE30..=0xFE4F).contains(&u)
                || (0xFF00..=0xFF60).contains(&u)
                || (0xFFE0..=0xFFE6).contains(&u);
            if wide { 2 } else { 1 }
        })
        .sum()
}

fn write_section(f: &mut fmt::Formatter<'_>, s: &Section) -> fmt::Result {
    writeln!(f, "{}", s.heading)?;
    let cols = s.columns.len();
    let mut widths: Vec<usize> = s.columns.iter().map(|c| width(c)).collect();
    for row in &s.rows {
        for (k, cell) in row.iter().enumerate().take(cols) {
            widths[k] = widths[k].max(width(cell));
        }
    }
    let line = |f: &mut fmt::Formatter<'_>, cells: &[String]| -> fmt::Result {
        let mut text = String::from(" ");
        for (k, cell) in cells.iter().enumerate().take(cols) {
            let pad = " ".repeat(widths[k] - width(cell));
            text.push(' ');
            if s.align[k] == Align::Right {
                text.push_str(&pad);
                text.push_str(cell);
            } else {
                text.push_str(cell);
                text.push_str(&pad);
            }
        }
        writeln!(f, "{}", text.trim_end())
    };
    line(f, &s.columns)?;
    for row in &s.rows {
        line(f, row)?;
    }
    for n in &s.notes {
        writeln!(f, "  {n}")?;
    }
    Ok(())
}

impl fmt::Display for Report {
    /// The terminal form: title, facts, the latest round, standings, crosstable.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.title)?;
        for fact in &self.facts {
            writeln!(f, "  {fact}")?;
        }
        if let Some(last) = self.rounds.last() {
            writeln!(f)?;
            write_section(f, last)?;
        }
        writeln!(f)?;
        write_section(f, &self.standings)?;
        writeln!(f)?;
        write_section(f, &self.crosstable)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_characters_take_two_columns() {
        assert_eq!(width("abc"), 3);
        assert_eq!(width("楚漢"), 4);
        assert_eq!(width("象棋A"), 5);
    }
}
