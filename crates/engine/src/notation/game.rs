//! [`Game`]: a game record independent of its file format: tags, start position,
//! the main line with comments and variations, and the result (a
//! [`GameResult`], defined in [`crate::core::result`]).

use super::warning::Warning;
use crate::core::{GameResult, Move, Position};

/// One move of a line, with the comment written after it and the alternatives to
/// it (each variation starts from the position before this move).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Node {
    /// The move (legal in its position).
    pub mv: Move,
    /// Comment following the move.
    pub comment: Option<String>,
    /// Alternatives to this move.
    pub variations: Vec<Line>,
}

impl Node {
    /// A node holding only a move.
    pub fn new(mv: Move) -> Node {
        Node {
            mv,
            comment: None,
            variations: Vec::new(),
        }
    }
}

/// A sequence of moves with an optional comment before the first one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// Comment before the first move.
    pub comment: Option<String>,
    /// The moves, in order.
    pub nodes: Vec<Node>,
}

impl Line {
    /// The moves of this line, without comments or variations.
    pub fn moves(&self) -> Vec<Move> {
        self.nodes.iter().map(|n| n.mv).collect()
    }
}

/// A game record.
///
/// ```
/// use chuhan_engine::core::Position;
/// use chuhan_engine::notation::Game;
/// let mut g = Game::new(Position::startpos());
/// g.push("h2e2".parse().unwrap());
/// g.push("h9g7".parse().unwrap());
/// assert_eq!(g.ply_count(), 2);
/// assert_eq!(g.position_at(1).unwrap().side_to_move(), chuhan_engine::core::Color::Black);
/// assert!(g.position_at(3).is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Tags other than `Game`, `FEN`, `Format` and `Result` (those are held by the
    /// other fields), in file order: `Event`, `Site`, `Date`, `Red`, `Black`...
    pub tags: Vec<(String, String)>,
    /// The start position (PGN `[FEN]`, XQF placement, or the standard start).
    pub start: Position,
    /// The main line; its comment is the one before the first move.
    pub line: Line,
    /// The result, `None` when unknown or unfinished (PGN `*`).
    pub result: Option<GameResult>,
    /// What a lenient reading let pass (a move that could not be played and the
    /// rest of its line, a composed start position, a record cut short).
    pub warnings: Vec<Warning>,
}

impl Game {
    /// An empty game from `start`.
    pub fn new(start: Position) -> Game {
        let mut start = start;
        start.clear_history();
        Game {
            tags: Vec::new(),
            start,
            line: Line::default(),
            result: None,
            warnings: Vec::new(),
        }
    }

    /// The value of tag `name` (case-insensitive), if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name`, replacing an existing value.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self
            .tags
            .iter_mut()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
        {
            Some(slot) => slot.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// Appends a move to the main line (the caller guarantees legality).
    pub fn push(&mut self, mv: Move) {
        self.line.nodes.push(Node::new(mv));
    }

    /// The main line's moves: what `judge`, a book builder or a match runner plays
    /// from [`Game::start`].
    pub fn moves(&self) -> Vec<Move> {
        self.line.moves()
    }

    /// Number of plies in the main line.
    pub fn ply_count(&self) -> usize {
        self.line.nodes.len()
    }

    /// Whether nothing of the game could be read: its main line is empty because
    /// its very first move could not be played (random bytes, a text in an
    /// unknown encoding, something that is not a record). A lenient reading still
    /// gives such a game, the start position with a warning; every reader refuses
    /// it, with [`Game::warnings`] as the reasons.
    pub fn nothing_read(&self) -> bool {
        self.line.nodes.is_empty()
            && self.warnings.iter().any(|w| {
                matches!(
                    w,
                    Warning::BadMove {
                        ply: 1,
                        variation: false,
                        ..
                    }
                )
            })
    }

    /// The warnings as one line of text, `; ` between them.
    pub fn warning_text(&self) -> String {
        self.warnings
            .iter()
            .map(|w| w.to_string())
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// The start position in FEN.
    pub fn start_fen(&self) -> String {
        self.start.to_fen()
    }

    /// The position after `ply` main-line moves (0 = the start), with those moves in
    /// its history; `None` past the end, or if a move on the way is not legal (the
    /// readers never produce such games; a hand-built one might).
    pub fn position_at(&self, ply: usize) -> Option<Position> {
        if ply > self.ply_count() {
            return None;
        }
        let mut pos = self.start.clone();
        for n in &self.line.nodes[..ply] {
            if !pos.is_legal(n.mv) {
                return None;
            }
            pos.make_move(n.mv);
        }
        Some(pos)
    }
}
