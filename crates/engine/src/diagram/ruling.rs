//! The diagram of an arbiter's ruling ([`ruling`]): the ruled cycle drawn with
//! numbered arrows and the verdict as the caption. `chuhan judge --svg` and the
//! HTTP service's diagrams draw it.

use super::svg::{Arrow, ArrowStyle, SvgOptions, svg};
use crate::core::{Move, Position};
use crate::rules::Judgement;
use crate::rules::judge::CycleMove;

/// The SVG of the ruling `j` on the game ending at `end` (its history is the game):
/// the position where the ruled cycle's last period starts, the period's moves as
/// arrows numbered in order (the violator's in red, moves between the same two
/// points sharing one label such as `1/3`) and the ruling as the caption; without a
/// cycle, the final position with the last move and the status.
///
/// ```
/// use chuhan_engine::core::Position;
/// use chuhan_engine::diagram::ruling;
/// use chuhan_engine::rules::{judge_position, RuleSet};
/// let mut pos = Position::startpos();
/// pos.make_move("h2e2".parse().unwrap());
/// let svg = ruling(&pos, &judge_position(&pos, RuleSet::Cxa2011));
/// assert!(svg.contains("<svg") && svg.contains("status: ongoing"));
/// ```
pub fn ruling(end: &Position, j: &Judgement) -> String {
    let Some(r) = j.repetition.as_ref().filter(|r| !r.cycle.is_empty()) else {
        let arrows = end
            .last_move()
            .map(|m| Arrow::new(m, ArrowStyle::Blue))
            .into_iter()
            .collect();
        let lines = j.report_lines();
        let caption = lines.iter().find(|l| l.starts_with("status: ")).cloned();
        return svg(
            end,
            &SvgOptions {
                arrows,
                caption,
                ..SvgOptions::default()
            },
        );
    };
    // The last period of the cycle: from the previous occurrence of the repeated
    // position to its last one.
    let mut at = end.clone();
    while at.game_ply() > r.ply {
        at.unmake_move();
    }
    let key = at.key();
    let first = r.cycle[0].ply.saturating_sub(1);
    let mut start = at.clone();
    while start.game_ply() > first {
        start.unmake_move();
        if start.key() == key {
            break;
        }
    }
    let from = start.game_ply();
    let period: Vec<(usize, &CycleMove)> = r
        .cycle
        .iter()
        .filter(|c| c.ply > from)
        .enumerate()
        .map(|(i, c)| (i + 1, c))
        .collect();
    // Moves between the same two points share one label ("1/3"), drawn once.
    let squares = |m: Move| {
        let (a, b) = (m.from(), m.to());
        if a < b { (a, b) } else { (b, a) }
    };
    let mut arrows = Vec::new();
    for (k, (_, c)) in period.iter().enumerate() {
        let m = c.mv;
        let style = if Some(c.side) == r.must_vary {
            ArrowStyle::Red
        } else {
            ArrowStyle::Blue
        };
        let mut arrow = Arrow::new(m, style);
        let same = |(_, o): &&(usize, &CycleMove)| squares(o.mv) == squares(m);
        if !period[..k].iter().any(|x| same(&x)) {
            let label: Vec<String> = period[k..]
                .iter()
                .filter(|x| same(x))
                .map(|(j, _)| j.to_string())
                .collect();
            arrow = arrow.labelled(&label.join("/"));
        }
        arrows.push(arrow);
    }
    // Labelled arrows last, so no later arrow hides a label.
    arrows.sort_by_key(|a| a.label.is_some());
    let ruling = match r.must_vary {
        None => "no violator: a draw if neither side varies".to_string(),
        Some(s) if r.immediate => format!("violator: {s}, who loses at once"),
        Some(s) => format!("violator: {s}, who must vary"),
    };
    let caption = format!(
        "{ruling} ({})\nred {}, black {}\nplies {}–{}; the position has occurred {} times",
        j.rules,
        r.red,
        r.black,
        from + 1,
        r.ply,
        r.occurrences
    );
    svg(
        &start,
        &SvgOptions {
            arrows,
            caption: Some(caption),
            ..SvgOptions::default()
        },
    )
}
