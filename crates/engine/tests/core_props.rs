//! Invariants of the core, checked over random legal playouts (proptest), plus the
//! invalid-FEN corpus and parser robustness.

use chuhan_engine::core::{
    FenProblemKind, GenType, Move, Position, Setup, Square, movegen::legal_moves_reference, perft,
};
use proptest::prelude::*;

/// Starting points for playouts: the start position and the perft suite.
fn roots() -> Vec<Position> {
    include_str!("../../../tests/data/perft.txt")
        .lines()
        .filter_map(|l| l.strip_prefix("epd "))
        .map(|fen| Position::from_fen(fen).expect("valid perft FEN"))
        .collect()
}

/// Plays `choices.len()` random legal moves from root `root_index`, stopping at a
/// position without moves. Returns the position with its history.
fn playout(root_index: usize, choices: &[u16]) -> Position {
    let all = roots();
    let mut pos = all[root_index % all.len()].clone();
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.make_move(moves[c as usize % moves.len()]);
    }
    pos
}

fn playout_strategy() -> impl Strategy<Value = Position> {
    (0usize..64, proptest::collection::vec(any::<u16>(), 0..80)).prop_map(|(r, c)| playout(r, &c))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The generator agrees with the slow reference: every generated move passes the
    /// reference legality test and no legal move is missed.
    #[test]
    fn generator_matches_reference(pos in playout_strategy()) {
        let mut fast: Vec<Move> = pos.legal_moves().to_vec();
        fast.sort();
        prop_assert_eq!(&fast, &legal_moves_reference(&pos), "{}", pos.to_fen());
        prop_assert_eq!(pos.count_legal(), fast.len());
        for &m in &fast {
            prop_assert!(pos.is_legal(m));
        }
    }

    /// After every legal move our king is not attacked and the kings do not face.
    #[test]
    fn no_move_leaves_king_attacked(pos in playout_strategy()) {
        let us = pos.side_to_move();
        for &m in pos.legal_moves().iter() {
            let mut p = pos.clone();
            p.make_move(m);
            let k = p.king_square(us);
            prop_assert!(p.king_attackers(k, !us, p.occupied()).is_empty(), "{} after {}", pos.to_fen(), m);
        }
    }

    /// Unmake restores placement, side and key; the incremental key always equals the
    /// key computed from scratch.
    #[test]
    fn make_unmake_restores(pos in playout_strategy()) {
        prop_assert_eq!(pos.key(), pos.compute_key());
        for &m in pos.legal_moves().iter() {
            let mut p = pos.clone();
            p.make_move(m);
            prop_assert_eq!(p.key(), p.compute_key());
            p.unmake_move();
            prop_assert!(p == pos);
            prop_assert_eq!(p.key(), pos.key());
            prop_assert_eq!(p.checkers(), pos.checkers());
        }
        if !pos.in_check() {
            let mut p = pos.clone();
            p.make_null();
            prop_assert_eq!(p.key(), p.compute_key());
            p.unmake_null();
            prop_assert!(p == pos);
            prop_assert_eq!(p.key(), pos.key());
        }
    }

    /// `gives_check` agrees with the checkers found after making the move.
    #[test]
    fn gives_check_is_exact(pos in playout_strategy()) {
        for &m in pos.legal_moves().iter() {
            let mut p = pos.clone();
            p.make_move(m);
            prop_assert_eq!(pos.gives_check(m), p.in_check(), "{} {}", pos.to_fen(), m);
        }
    }

    /// Captures and quiets partition the legal moves, in and out of check.
    #[test]
    fn captures_plus_quiets(pos in playout_strategy()) {
        let mut all: Vec<Move> = pos.legal_moves().to_vec();
        let mut parts: Vec<Move> = pos.generate(GenType::Captures).to_vec();
        for &m in pos.generate(GenType::Captures).iter() {
            prop_assert!(pos.piece_at(m.to()).is_some());
        }
        for &m in pos.generate(GenType::Quiets).iter() {
            prop_assert!(pos.piece_at(m.to()).is_none());
        }
        parts.extend(pos.generate(GenType::Quiets).iter());
        all.sort();
        parts.sort();
        prop_assert_eq!(all, parts);
    }

    /// FEN round trips.
    #[test]
    fn fen_round_trip(pos in playout_strategy()) {
        let fen = pos.to_fen();
        let back = Position::from_fen(&fen).unwrap();
        prop_assert!(back == pos);
        prop_assert_eq!(back.key(), pos.key());
        prop_assert_eq!(back.to_fen(), fen);
    }

    /// The mirror image and the colour-flipped position have the same perft.
    #[test]
    fn mirror_and_flip_perft(pos in playout_strategy()) {
        let n = perft::perft(&mut pos.clone(), 2);
        prop_assert_eq!(perft::perft(&mut pos.mirror(), 2), n);
        prop_assert_eq!(perft::perft(&mut pos.flip(), 2), n);
    }

    /// Arbitrary text never panics the FEN parser, and what parses round trips.
    #[test]
    fn fen_parser_total(s in ".{0,120}") {
        if let Ok(setup) = Setup::parse(&s) {
            let again = Setup::parse(&setup.to_fen()).unwrap();
            prop_assert_eq!(again, setup.clone());
            let _ = Position::from_setup(&setup);
        }
    }

    /// FEN-shaped strings with random letters, digits and slashes never panic.
    #[test]
    fn fen_like_total(s in "[rnbakcpRNBAKCPhHeExX0-9/]{0,100}( [wbrx])?( -)?( -)?( [0-9]{1,3})?( [0-9]{1,3})?") {
        let _ = Position::from_fen(&s);
    }

    /// Arbitrary text never panics the move parser; what parses prints back.
    #[test]
    fn move_parser_total(s in ".{0,8}") {
        if let Ok(m) = s.parse::<Move>() {
            prop_assert_eq!(m.to_string(), s.replace('-', "").to_lowercase());
        }
    }
}

#[test]
fn invalid_fen_corpus() {
    let mut n = 0;
    for line in include_str!("../../../tests/data/invalid_fen.txt").lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (kind, fen) = line.split_once('|').expect("kind | fen");
        let kind = match kind.trim() {
            "syntax" => FenProblemKind::Syntax,
            "too_many" => FenProblemKind::TooMany,
            "misplaced" => FenProblemKind::Misplaced,
            "missing_king" => FenProblemKind::MissingKing,
            "kings_facing" => FenProblemKind::KingsFacing,
            "side_not_to_move_in_check" => FenProblemKind::SideNotToMoveInCheck,
            other => panic!("unknown kind {other}"),
        };
        let err = match Position::from_fen(fen.trim()) {
            Ok(_) => panic!("accepted invalid FEN {fen:?}"),
            Err(e) => e,
        };
        assert!(err.has(kind), "{fen:?}: expected {kind:?}, got {err}");
        n += 1;
    }
    assert!(n >= 25);
}

#[test]
fn every_problem_is_named() {
    // Two problems at once: a misplaced advisor and a pawn behind its start rank.
    let err = Position::from_fen("4k4/9/9/9/9/9/9/1P7/3A5/3K5 w").unwrap_err();
    assert_eq!(err.0.len(), 2, "{err}");
    let text = err.to_string();
    assert!(text.contains("d1") && text.contains("b2"), "{text}");
}

#[test]
fn evasions_include_moving_the_screen() {
    // Red king e0, black cannon e7 checks through the red horse on e3 (the screen).
    let pos = Position::from_fen("3k5/9/4c4/9/9/9/4N4/9/9/4K4 w").unwrap();
    assert!(pos.in_check());
    let moves = pos.legal_moves();
    // The horse jumps away (removing the screen).
    assert!(moves.contains(Move::new(Square::E3, Square::D5)));
    // The king may step aside to f0, not to d0 (it would face the black king on d9)
    // and not along the cannon's file.
    assert!(moves.contains(Move::new(Square::E0, Square::F0)));
    assert!(!moves.contains(Move::new(Square::E0, Square::D0)));
    assert!(!moves.contains(Move::new(Square::E0, Square::E1)));
}
