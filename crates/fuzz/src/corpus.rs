//! Seed inputs and structure-aware generators for each [`Target`]: real-shaped
//! inputs (written by Chuhan's own writers, the XQF specification's example, a
//! CCBridge and an ElephantEye book sample) that the mutators start from.

use crate::target::Target;
use chuhan_engine::book::{self, BookBuilder, BuildOptions};
use chuhan_engine::core::{GameResult, Position, SplitMix64};
use chuhan_engine::notation::pgn::{self, WriteOptions};
use chuhan_engine::notation::{Game, IccsStyle, Node, Notation, Script};

#[path = "../../../tests/fixtures/xqf_example.rs"]
mod xqf_example;

/// The CCBridge sample of the reader's unit tests (a game with a variation and
/// comments).
const CCBRIDGE_SAMPLE: &[u8] = include_bytes!("../seeds/sample.cbr");
/// The ElephantEye `BOOK.DAT` of the book tests (eight records).
const ELEEYE_SAMPLE: &[u8] = include_bytes!("../seeds/eleeye-book.dat");
/// FEN that must be refused, one per line, from the engine's tests.
const INVALID_FEN: &str = include_str!("../../../tests/data/invalid_fen.txt");
/// The README's example game.
const EXAMPLE_PGN: &str = include_str!("../../../docs/example.pgn");

/// Words the text mutators insert: protocol keywords, numbers at the edges,
/// notation and PGN syntax.
pub const DICTIONARY: &[&str] = &[
    "ucci",
    "uci",
    "isready",
    "go",
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "time",
    "increment",
    "opptime",
    "movestogo",
    "infinite",
    "ponder",
    "searchmoves",
    "banmoves",
    "probe",
    "stop",
    "ponderhit",
    "quit",
    "position",
    "fen",
    "startpos",
    "moves",
    "setoption",
    "name",
    "value",
    "Hash",
    "hashsize",
    "bookfiles",
    "Threads",
    "MultiPV",
    "UCI_Variant",
    "xiangqi",
    "true",
    "false",
    "0",
    "-1",
    "1",
    "18446744073709551615",
    "-9223372036854775808",
    "4294967296",
    "1e308",
    "NaN",
    "h2e2",
    "h9g7",
    "a0a9",
    "e9e8",
    "z9z9",
    "C2.5",
    "H8+7",
    "R1+1",
    "+C.5",
    "炮二平五",
    "馬８進７",
    "前炮",
    "後車進一",
    "兵七進一",
    "１",
    "[",
    "]",
    "{",
    "}",
    "(",
    ")",
    ";",
    "$1",
    "!?",
    "1.",
    "12...",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "[FEN \"",
    "[Format \"WXF\"]",
    "[Game \"Chinese Chess\"]",
    "\"",
    "\\",
    "\n",
    "\r\n",
    "\t",
    "\u{FEFF}",
    "\u{0}",
    "w",
    "b",
    "-",
    "/",
    "9",
    "rnbakabnr",
    "RNBAKABNR",
    "k",
    "K",
    "p",
    "P",
    "{\"",
    "\":",
    "null",
    "[]",
    "{}",
    "\"format\"",
    "\"type\"",
    "\"swiss\"",
    "\"rounds\"",
];

/// A game of `plies` random legal moves from the start position (fewer when a
/// side has no move), with a comment or a variation here and there.
pub fn random_game(rng: &mut SplitMix64, plies: usize) -> Game {
    let mut game = Game::new(Position::startpos());
    let mut pos = Position::startpos();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        let mut node = Node::new(m);
        if rng.below(6) == 0 {
            node.comment = Some(["好棋", "a {comment}", "變着", ""][rng.below(4)].to_string());
        }
        if rng.below(8) == 0 && moves.len() > 1 {
            let alt = moves[(moves.iter().position(|&x| x == m).unwrap_or(0) + 1) % moves.len()];
            let mut var = chuhan_engine::notation::Line::default();
            var.nodes.push(Node::new(alt));
            node.variations.push(var);
        }
        pos.make_move(m);
        game.line.nodes.push(node);
    }
    game.result = [
        None,
        Some(GameResult::RedWins),
        Some(GameResult::BlackWins),
        Some(GameResult::Draw),
    ][rng.below(4)];
    game.tags.push(("Event".into(), "Fuzz 測試".into()));
    game
}

/// The position after `plies` random legal moves.
fn random_position(rng: &mut SplitMix64, plies: usize) -> Position {
    let g = random_game(rng, plies);
    g.position_at(g.ply_count())
        .unwrap_or_else(Position::startpos)
}

fn random_notation(rng: &mut SplitMix64) -> Notation {
    [
        Notation::Iccs(IccsStyle::Compact),
        Notation::Iccs(IccsStyle::Dashed),
        Notation::Wxf,
        Notation::Chinese(Script::Traditional),
        Notation::Chinese(Script::Simplified),
    ][rng.below(5)]
}

/// A PGN text of one to three random games in a random notation.
fn random_pgn(rng: &mut SplitMix64) -> String {
    let games: Vec<Game> = (0..1 + rng.below(3))
        .map(|_| {
            let plies = rng.below(60);
            random_game(rng, plies)
        })
        .collect();
    let opts = WriteOptions {
        notation: random_notation(rng),
        comments: rng.below(2) == 0,
        variations: rng.below(2) == 0,
    };
    pgn::write_all(&games, &opts).unwrap_or_default()
}

/// A few protocol lines built from the grammar's words.
fn random_protocol(rng: &mut SplitMix64) -> String {
    let mut out = String::new();
    for _ in 0..1 + rng.below(4) {
        let plies = rng.below(30);
        let pos = random_position(rng, plies);
        let line = match rng.below(6) {
            0 => format!(
                "position fen {} moves {}",
                pos.to_fen(),
                legal_words(rng, &pos)
            ),
            1 => "position startpos moves h2e2 h9g7 h0g2".to_string(),
            2 => {
                let n = rng.below(6);
                let words: Vec<&str> = (0..n)
                    .map(|_| DICTIONARY[rng.below(DICTIONARY.len())])
                    .collect();
                format!("go {}", words.join(" "))
            }
            3 => format!(
                "setoption name {} value {}",
                DICTIONARY[rng.below(DICTIONARY.len())],
                DICTIONARY[rng.below(DICTIONARY.len())]
            ),
            4 => format!("banmoves {}", legal_words(rng, &Position::startpos())),
            _ => (0..1 + rng.below(8))
                .map(|_| DICTIONARY[rng.below(DICTIONARY.len())])
                .collect::<Vec<_>>()
                .join(" "),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// Up to five legal moves of `pos` in ICCS, as if played in turn.
fn legal_words(rng: &mut SplitMix64, pos: &Position) -> String {
    let mut p = pos.clone();
    let mut words = Vec::new();
    for _ in 0..rng.below(6) {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        words.push(m.to_string());
        p.make_move(m);
    }
    words.join(" ")
}

/// A position's FEN and moves from it, each in a random notation.
fn random_move_text(rng: &mut SplitMix64) -> String {
    let plies = rng.below(40);
    let mut pos = random_position(rng, plies);
    let mut text = format!("{}\n", pos.to_fen());
    for _ in 0..rng.below(8) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        text.push_str(&random_notation(rng).format(&pos, m).unwrap_or_default());
        text.push(' ');
        pos.make_move(m);
    }
    text
}

/// A book built from `n` random games.
fn random_book(rng: &mut SplitMix64, n: usize) -> book::OwnBook {
    let mut b = BookBuilder::new(BuildOptions {
        max_ply: 12,
        min_games: 1,
    });
    for _ in 0..n {
        let g = random_game(rng, 12);
        let _ = b.add_game(&g);
    }
    b.finish()
}

const TOURNAMENT_CONFIGS: &[&str] = &[
    r#"{"event": "Fuzz", "engines": [{"name": "A", "command": "./a"}, {"name": "B", "command": "./b"}],
        "format": {"type": "round_robin"}, "time_control": "60+1",
        "output": {"results": "r.jsonl", "html": "e.html", "pgn": "e.pgn"}}"#,
    r#"{"event": "Fuzz", "engines": [{"name": "A", "command": "./a"}, {"name": "B", "command": "./b"},
        {"name": "C", "command": "./c"}], "format": {"type": "swiss", "rounds": 3},
        "time_control": "10+0.1", "output": {"results": "r.jsonl"}}"#,
];

/// The fixed seeds of `target`.
pub fn seeds(target: Target) -> Vec<Vec<u8>> {
    let mut rng = SplitMix64::new(0x5EED);
    let texts = |v: Vec<String>| v.into_iter().map(String::into_bytes).collect::<Vec<_>>();
    match target {
        Target::Protocol => texts((0..16).map(|_| random_protocol(&mut rng)).collect()),
        Target::Fen => {
            let mut v: Vec<String> = INVALID_FEN
                .lines()
                .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
                .map(String::from)
                .collect();
            v.extend((0..16).map(|i| random_position(&mut rng, i * 4).to_fen()));
            v.push("4k4/9/9/9/9/9/9/9/4P4/3K5 w - - 0 1".into());
            texts(v)
        }
        Target::MoveText => texts((0..16).map(|_| random_move_text(&mut rng)).collect()),
        Target::Pgn => {
            let mut v: Vec<String> = (0..16).map(|_| random_pgn(&mut rng)).collect();
            v.push(EXAMPLE_PGN.to_string());
            texts(v)
        }
        Target::Xqf => vec![xqf_example::spec_example()],
        Target::Ccbridge => vec![CCBRIDGE_SAMPLE.to_vec()],
        Target::OwnBook => vec![
            random_book(&mut rng, 8).to_bytes(),
            random_book(&mut rng, 30).to_bytes(),
        ],
        Target::EleeyeBook => vec![ELEEYE_SAMPLE.to_vec()],
        Target::BookText => texts(vec![
            book::text::write(&random_book(&mut rng, 8)),
            book::text::write(&random_book(&mut rng, 20)),
        ]),
        Target::TournamentConfig => TOURNAMENT_CONFIGS
            .iter()
            .map(|s| s.as_bytes().to_vec())
            .collect(),
        Target::Record => {
            let mut v = seeds(Target::Pgn);
            v.extend(seeds(Target::Xqf));
            v.extend(seeds(Target::Ccbridge));
            v.push(b"h2e2 h9g7 h0g2\n".to_vec());
            v.push(b"position startpos moves h2e2 h9g7".to_vec());
            v
        }
    }
}

/// A fresh structure-aware input for `target`, or `None` where the target has
/// no generator (binary formats are only mutated).
pub fn generate(target: Target, rng: &mut SplitMix64) -> Option<Vec<u8>> {
    let text = match target {
        Target::Protocol => random_protocol(rng),
        Target::Fen => {
            let plies = rng.below(80);
            random_position(rng, plies).to_fen()
        }
        Target::MoveText => random_move_text(rng),
        Target::Pgn | Target::Record => random_pgn(rng),
        Target::BookText => {
            let n = 1 + rng.below(6);
            book::text::write(&random_book(rng, n))
        }
        _ => return None,
    };
    Some(text.into_bytes())
}
