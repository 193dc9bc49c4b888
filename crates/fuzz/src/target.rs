//! The parsers under fuzzing ([`Target`]) and how one input is fed to each.

use chuhan_arena::tournament::config::TournamentConfig;
use chuhan_engine::book::{self, EleeyeBook, OwnBook};
use chuhan_engine::core::{Color, Position, Validation};
use chuhan_engine::notation::{self, ccbridge, move_list, pgn, record, xqf};
use chuhan_engine::protocol::command::{self, ParseContext};
use std::path::Path;

/// A parser under fuzzing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// A protocol line (UCCI and UCI commands) through the command parser.
    Protocol,
    /// FEN text, strictly and leniently.
    Fen,
    /// Move text in any notation (ICCS, WXF, Chinese) from a position.
    MoveText,
    /// PGN text (strict and lenient reading).
    Pgn,
    /// XQF bytes.
    Xqf,
    /// CCBridge bytes (`.cbr` games, `.cbl` libraries).
    Ccbridge,
    /// Chuhan's own binary book.
    OwnBook,
    /// ElephantEye's `BOOK.DAT`.
    EleeyeBook,
    /// The text form of Chuhan's book.
    BookText,
    /// A tournament configuration (JSON).
    TournamentConfig,
    /// Any record, recognised from its bytes (what `show`, `judge`, `convert`
    /// and `book build` read).
    Record,
}

impl Target {
    /// Every target.
    pub const ALL: [Target; 11] = [
        Target::Protocol,
        Target::Fen,
        Target::MoveText,
        Target::Pgn,
        Target::Xqf,
        Target::Ccbridge,
        Target::OwnBook,
        Target::EleeyeBook,
        Target::BookText,
        Target::TournamentConfig,
        Target::Record,
    ];

    /// Its name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Target::Protocol => "protocol",
            Target::Fen => "fen",
            Target::MoveText => "move-text",
            Target::Pgn => "pgn",
            Target::Xqf => "xqf",
            Target::Ccbridge => "ccbridge",
            Target::OwnBook => "own-book",
            Target::EleeyeBook => "eleeye-book",
            Target::BookText => "book-text",
            Target::TournamentConfig => "tournament-config",
            Target::Record => "record",
        }
    }

    /// The target named `name`.
    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Whether its inputs are text (mutated as text too) rather than bytes.
    pub fn is_text(self) -> bool {
        !matches!(
            self,
            Target::Xqf | Target::Ccbridge | Target::OwnBook | Target::EleeyeBook | Target::Record
        )
    }

    /// Feeds one input to the parser; a panic is the finding. Results are
    /// consumed (a parsed game is walked, a parsed book probed) so that lazily
    /// wrong data shows too.
    pub fn run(self, input: &[u8]) {
        let text = || String::from_utf8_lossy(input);
        match self {
            Target::Protocol => {
                let t = text();
                for side in [Color::Red, Color::Black] {
                    for usemillisec in [false, true] {
                        let ctx = ParseContext { usemillisec, side };
                        for line in t.lines() {
                            let _ = command::parse(line, &ctx);
                        }
                    }
                }
            }
            Target::Fen => {
                let t = text();
                let _ = Position::from_fen(&t);
                if let Ok((pos, _)) = Position::from_fen_with(&t, Validation::Lenient) {
                    walk(&pos);
                }
            }
            Target::MoveText => {
                let t = text();
                let (fen, moves) = t.split_once('\n').unwrap_or(("", &t));
                let mut pos = Position::from_fen_with(fen, Validation::Lenient)
                    .map(|(p, _)| p)
                    .unwrap_or_else(|_| Position::startpos());
                for w in moves.split_whitespace() {
                    if let Ok(m) = notation::parse_move(&pos, w) {
                        pos.make_move(m);
                    }
                }
                let _ = move_list::read(moves);
            }
            Target::Pgn => {
                let t = text();
                for v in [Validation::Strict, Validation::Lenient] {
                    for g in pgn::read_all_with(&t, v).into_iter().flatten() {
                        consume(&g);
                    }
                }
            }
            Target::Xqf => {
                for v in [Validation::Strict, Validation::Lenient] {
                    if let Ok(g) = xqf::read_with(input, v) {
                        consume(&g);
                    }
                }
            }
            Target::Ccbridge => {
                for v in [Validation::Strict, Validation::Lenient] {
                    for g in ccbridge::read_all(input, v).into_iter().flatten() {
                        consume(&g);
                    }
                }
            }
            Target::OwnBook => {
                if let Ok(b) = OwnBook::from_bytes(input) {
                    let _ = b.probe(&Position::startpos());
                    let _ = book::text::write(&b);
                }
            }
            Target::EleeyeBook => {
                if let Ok(b) = EleeyeBook::from_bytes(input) {
                    let _ = b.probe(&Position::startpos());
                }
            }
            Target::BookText => {
                if let Ok(b) = book::text::parse(&text()) {
                    let _ = b.to_bytes();
                }
            }
            Target::TournamentConfig => {
                let _ = TournamentConfig::from_json(&text());
            }
            Target::Record => {
                for g in record::read_all(input).into_iter().flatten() {
                    consume(&g);
                }
                for name in ["x.pgn", "x.txt"] {
                    let v = Validation::Lenient;
                    for item in record::read_items(input, Some(Path::new(name)), v) {
                        let _ = item.place.to_string();
                        if let Ok(g) = item.game {
                            consume(&g);
                        }
                    }
                }
            }
        }
    }
}

/// Plays every legal move of `pos` and takes it back.
fn walk(pos: &Position) {
    let mut p = pos.clone();
    for &m in pos.legal_moves().iter() {
        p.make_move(m);
        p.unmake_move();
    }
}

/// Uses a game read: every position of its main line, written back as PGN.
fn consume(g: &notation::Game) {
    let _ = g.position_at(g.ply_count());
    let _ = pgn::write(g, &pgn::WriteOptions::default());
}
