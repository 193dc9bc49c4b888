//! Whole tournaments with deterministic fake game players: every format runs to
//! the end, interrupted runs resume to the same results file and standings, and
//! withdrawals, forfeits and foreign results files are handled as the rules say.

use chuhan_arena::game::play::{
    Absence, GameOutcome, GamePlayer, GameSpec, PlayError, PlayedGame, Termination,
};
use chuhan_arena::lots::Lots;
use chuhan_arena::tournament::config::TournamentConfig;
use chuhan_arena::tournament::event::{Event, Next, Standings};
use chuhan_arena::tournament::matching::Matcher;
use chuhan_arena::tournament::player::PlayerId;
use chuhan_arena::tournament::results::{
    BoardPairing, GameRecord, Record, ResultsFile, RoundRecord,
};
use chuhan_arena::tournament::runner::{Progress, RunError, Runner};
use chuhan_arena::tournament::standings::Decision;
use chuhan_engine::core::{GameResult, Move};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Plays every game the same way for the same spec: the engine named `E<k>` has
/// strength `k`; the result is drawn from the names, the game's place and the
/// colours, biased to the stronger engine. Engines named `Ghost…` never turn up.
#[derive(Clone, Default)]
struct Fake {
    played: usize,
}

fn strength(name: &str) -> u64 {
    name.trim_start_matches(|c: char| !c.is_ascii_digit())
        .parse()
        .unwrap_or(0)
}

impl GamePlayer for Fake {
    fn play(&mut self, spec: &GameSpec) -> Result<GameOutcome, PlayError> {
        self.played += 1;
        let ghost = |n: &str| n.starts_with("Ghost");
        match (ghost(&spec.red.name), ghost(&spec.black.name)) {
            (true, true) => return Ok(GameOutcome::Forfeited(Absence::Both)),
            (true, false) => return Ok(GameOutcome::Forfeited(Absence::Red)),
            (false, true) => return Ok(GameOutcome::Forfeited(Absence::Black)),
            (false, false) => {}
        }
        let label = format!("{}|{}|{}", spec.red.name, spec.black.name, spec.id);
        let roll = Lots::new(7).value(&label, 0) % 100;
        let edge = (strength(&spec.red.name) as i64 - strength(&spec.black.name) as i64) * 6;
        let red_win = 35 + edge;
        let black_win = 35 - edge;
        let result = if (roll as i64) < red_win {
            GameResult::RedWins
        } else if (roll as i64) < red_win + (100 - red_win - black_win.max(0)).max(0) / 2 + 15 {
            GameResult::Draw
        } else {
            GameResult::BlackWins
        };
        let termination = match result {
            GameResult::Draw => Termination::RepetitionDraw,
            _ => Termination::Checkmate,
        };
        let moves: Vec<Move> = ["h2e2", "h9g7"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        Ok(GameOutcome::Played(PlayedGame {
            result,
            termination,
            moves,
            pgn: Some(format!(
                "[Event \"{}\"]\n[Round \"{}\"]\n[Red \"{}\"]\n[Black \"{}\"]\n[Result \"{result}\"]\n\n1. h2e2 h9g7 {result}\n",
                spec.event, spec.id, spec.red.name, spec.black.name
            )),
        }))
    }
}

/// A fake that stops (as on Ctrl-C) after `budget` games.
struct Interrupting {
    inner: Fake,
    budget: usize,
}

impl GamePlayer for Interrupting {
    fn play(&mut self, spec: &GameSpec) -> Result<GameOutcome, PlayError> {
        if self.budget == 0 {
            return Err(PlayError::Interrupted);
        }
        self.budget -= 1;
        self.inner.play(spec)
    }
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("chuhan-tournament-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn config(dir: &Path, engines: &[&str], format: &str, extra: &str) -> TournamentConfig {
    let engines: Vec<String> = engines
        .iter()
        .map(|n| format!(r#"{{"name": "{n}", "command": "./{n}"}}"#))
        .collect();
    let text = format!(
        r#"{{
            "event": "Test event",
            "engines": [{}],
            "format": {format},
            "time_control": "60+1",
            {extra}
            "output": {{"results": "results.jsonl", "html": "event.html", "pgn": "event.pgn"}}
        }}"#,
        engines.join(", ")
    );
    let path = dir.join("event.json");
    std::fs::write(&path, text).unwrap();
    TournamentConfig::load(&path).unwrap()
}

fn names(n: usize) -> Vec<String> {
    (1..=n).map(|k| format!("E{k}")).collect()
}

fn run_to_end(config: &TournamentConfig, slots: usize) -> Event {
    let mut runner = Runner::open(config.clone()).unwrap();
    let mut players = vec![Fake::default(); slots];
    runner.run(&mut players, |_| {}).unwrap();
    runner.event().clone()
}

/// Runs the event in pieces of `chunk` games, reopening it each time; tears the
/// last line of the results file once on the way.
fn run_interrupted(config: &TournamentConfig, chunk: usize) -> (Event, usize) {
    let mut stops = 0;
    loop {
        let mut runner = Runner::open(config.clone()).unwrap();
        let mut player = [Interrupting {
            inner: Fake::default(),
            budget: chunk,
        }];
        match runner.run(&mut player, |_| {}) {
            Ok(()) => return (runner.event().clone(), stops),
            Err(RunError::Play(PlayError::Interrupted)) => {
                stops += 1;
                if stops == 2 {
                    drop(runner);
                    let mut f = std::fs::OpenOptions::new()
                        .append(true)
                        .open(&config.output.results)
                        .unwrap();
                    f.write_all(br#"{"type":"game","round":"#).unwrap();
                }
            }
            Err(e) => panic!("{e}"),
        }
    }
}

fn ranking(e: &Event) -> Vec<(u32, u32, u32)> {
    match e.standings() {
        Standings::Ranked { rows, .. } => rows
            .iter()
            .map(|r| (r.player.number(), r.first, r.last))
            .collect(),
        Standings::Knockout { placings, alive } => {
            assert!(alive.is_empty(), "unfinished knockout");
            placings
                .iter()
                .map(|(p, pl)| (p.number(), pl.first, pl.last))
                .collect()
        }
    }
}

fn check_resume(name: &str, engines: &[&str], format: &str, extra: &str, chunk: usize) {
    let a = dir(&format!("{name}-straight"));
    let b = dir(&format!("{name}-resumed"));
    let straight = run_to_end(&config(&a, engines, format, extra), 1);
    let (resumed, stops) = run_interrupted(&config(&b, engines, format, extra), chunk);
    assert!(stops >= 2, "{name}: only {stops} interruptions");
    assert_eq!(ranking(&straight), ranking(&resumed), "{name}");
    // Same rounds, same games, each exactly once: the files are identical.
    let fa = std::fs::read_to_string(a.join("results.jsonl")).unwrap();
    let fb = std::fs::read_to_string(b.join("results.jsonl")).unwrap();
    assert!(fa == fb, "{name}: results files differ");
    let ids: Vec<_> = resumed.games().map(|g| g.id()).collect();
    let unique: BTreeSet<_> = ids.iter().collect();
    assert_eq!(ids.len(), unique.len());
    assert!(b.join("event.html").exists() && b.join("event.pgn").exists());
}

#[test]
fn round_robin_plays_every_pairing_once() {
    let d = dir("rr");
    let engines = names(6);
    let refs: Vec<&str> = engines.iter().map(String::as_str).collect();
    let mut seen_rounds = Vec::new();
    let mut runner = Runner::open(config(&d, &refs, r#"{"type": "round_robin"}"#, "")).unwrap();
    runner
        .run(&mut [Fake::default()], |p| {
            if let Progress::RoundOver { round, event } = p {
                seen_rounds.push(round);
                assert!(event.pending(round).is_empty());
            }
        })
        .unwrap();
    assert_eq!(seen_rounds, [1, 2, 3, 4, 5]);
    let event = runner.event();
    let mut pairs = BTreeMap::new();
    for g in event.games() {
        *pairs
            .entry((g.red.min(g.black), g.red.max(g.black)))
            .or_insert(0) += 1;
    }
    assert_eq!(pairs.len(), 15);
    assert!(pairs.values().all(|&c| c == 1));
    // Round 1 follows 附錄一: 1-6, 2-5, 3-4 with the first number on Red.
    let r1: Vec<(u32, u32)> = event.rounds()[0]
        .boards
        .iter()
        .map(|b| (b.first.number(), b.second.number()))
        .collect();
    assert_eq!(r1, [(1, 6), (2, 5), (3, 4)]);
    let text = runner.report();
    assert!(
        text.contains("Crosstable") && text.contains("小分"),
        "{text}"
    );
    let html = std::fs::read_to_string(d.join("event.html")).unwrap();
    assert!(html.contains("<td>E6</td>"));
    let pgn = std::fs::read_to_string(d.join("event.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), 15);
    // Header, five rounds, fifteen games.
    let (_, records) = ResultsFile::open(&d.join("results.jsonl")).unwrap();
    assert_eq!(records.len(), 21);
    assert!(matches!(records[0], Record::Header(_)));
}

#[test]
fn finished_events_stay_finished() {
    let d = dir("again");
    let c = config(&d, &["E1", "E2", "E3"], r#"{"type": "round_robin"}"#, "");
    let first = run_to_end(&c, 1);
    let mut runner = Runner::open(c).unwrap();
    let mut fake = [Fake::default()];
    runner.run(&mut fake, |_| {}).unwrap();
    assert_eq!(fake[0].played, 0);
    assert_eq!(ranking(&first), ranking(runner.event()));
}

#[test]
fn resumed_round_robin_matches_an_uninterrupted_one() {
    check_resume(
        "rr2",
        &["E1", "E2", "E3", "E4", "E5"],
        r#"{"type": "round_robin", "games_per_pairing": 2}"#,
        r#""draw_seed": 11,"#,
        3,
    );
}

#[test]
fn resumed_swiss_matches_an_uninterrupted_one() {
    let engines = names(11);
    let refs: Vec<&str> = engines.iter().map(String::as_str).collect();
    check_resume(
        "swiss",
        &refs,
        r#"{"type": "swiss", "rounds": 6, "seeded_halves": true}"#,
        r#""draw_seed": 5,"#,
        7,
    );
    check_resume(
        "swiss-progressive",
        &refs[..8],
        r#"{"type": "swiss", "rounds": 5, "tiebreak": "progressive", "first_round": "half_cross"}"#,
        "",
        4,
    );
}

#[test]
fn resumed_knockouts_match_uninterrupted_ones() {
    let engines = names(12);
    let refs: Vec<&str> = engines.iter().map(String::as_str).collect();
    check_resume(
        "single",
        &refs[..7],
        r#"{"type": "knockout", "seeds": 2, "games_per_match": 2}"#,
        r#""draw_seed": 3,"#,
        3,
    );
    check_resume(
        "double",
        &refs,
        r#"{"type": "knockout", "elimination": "double", "seeds": 4}"#,
        r#""draw_seed": 9,"#,
        5,
    );
}

#[test]
fn concurrent_slots_give_the_same_results() {
    let engines = names(10);
    let refs: Vec<&str> = engines.iter().map(String::as_str).collect();
    let format = r#"{"type": "swiss", "rounds": 5}"#;
    let one = run_to_end(&config(&dir("conc-1"), &refs, format, ""), 1);
    let three = run_to_end(&config(&dir("conc-3"), &refs, format, ""), 3);
    assert_eq!(ranking(&one), ranking(&three));
    let games = |e: &Event| e.games().cloned().collect::<Vec<_>>();
    assert_eq!(games(&one), games(&three));
    let ko = r#"{"type": "knockout", "elimination": "double", "games_per_match": 2}"#;
    let one = run_to_end(&config(&dir("conc-ko1"), &refs, ko, ""), 1);
    let four = run_to_end(&config(&dir("conc-ko4"), &refs, ko, ""), 4);
    assert_eq!(games(&one), games(&four));
}

#[test]
fn swiss_events_never_repeat_a_pairing_and_give_byes_to_the_lowest_group() {
    let engines = names(9);
    let refs: Vec<&str> = engines.iter().map(String::as_str).collect();
    let e = run_to_end(
        &config(
            &dir("swiss-check"),
            &refs,
            r#"{"type": "swiss", "rounds": 7}"#,
            r#""draw_seed": 1,"#,
        ),
        2,
    );
    let mut met = BTreeSet::new();
    for g in e.games() {
        assert!(
            met.insert((g.red.min(g.black), g.red.max(g.black))),
            "rematch in {}",
            g.id()
        );
    }
    let byes: Vec<PlayerId> = e.rounds().iter().flat_map(|r| r.byes.clone()).collect();
    assert_eq!(byes.len(), 7);
    // Each bye after the first round goes to the lowest score group that has
    // someone whose absence leaves the others pairable without a rematch (附錄二
    // 一.5); a second bye is no bar (the text does not forbid one).
    let table = e.table();
    let ids: Vec<PlayerId> = e.ids().collect();
    for r in e.rounds().iter().skip(1) {
        let met: BTreeSet<(PlayerId, PlayerId)> = e
            .games()
            .filter(|g| g.round < r.round)
            .flat_map(|g| [(g.red, g.black), (g.black, g.red)])
            .collect();
        let graph: Vec<Vec<usize>> = ids
            .iter()
            .map(|&a| {
                (0..ids.len())
                    .filter(|&j| ids[j] != a && !met.contains(&(a, ids[j])))
                    .collect()
            })
            .collect();
        let before = |p: PlayerId| table.points_after(p, r.round - 1);
        let lowest = (0..ids.len())
            .filter(|&c| {
                let mut m = Matcher::new(&graph);
                m.remove(c);
                m.is_perfect()
            })
            .map(|c| before(ids[c]))
            .min();
        assert_eq!(r.byes.len(), 1);
        assert_eq!(Some(before(r.byes[0])), lowest, "round {}", r.round);
    }
    // Byes score as wins (each player's byes counted once, whoever had two).
    let bye_points: u32 = byes
        .iter()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .map(|&p| {
            table
                .entries(p)
                .iter()
                .filter(|x| x.opponent.is_none())
                .map(|x| x.points)
                .sum::<u32>()
        })
        .sum();
    assert_eq!(bye_points, 14);
}

#[test]
fn round_robin_withdrawals_follow_section_nineteen() {
    // Table of 附錄一 for six: R1 1-6 2-5 3-4; R2 6-4 5-3 1-2; R3 2-6 3-1 4-5;
    // R4 6-5 1-4 2-3; R5 3-6 4-2 5-1. E3 withdraws from round 2 having met one of
    // five opponents: struck out. E6 withdraws from round 4 having met three (1, 4,
    // 2): results stand, round 4 against E5 is forfeited (round 5 was against E3).
    let d = dir("withdraw");
    let c = config(
        &d,
        &["E1", "E2", "E3", "E4", "E5", "E6"],
        r#"{"type": "round_robin"}"#,
        r#""withdrawals": [{"engine": "E3", "from_round": 2}, {"engine": "E6", "from_round": 4}],"#,
    );
    let e = run_to_end(&c, 1);
    let three = PlayerId(2);
    let six = PlayerId(5);
    assert!(e.struck_out(three));
    assert!(!e.struck_out(six));
    let Standings::Ranked {
        rows, struck_out, ..
    } = e.standings()
    else {
        panic!()
    };
    assert_eq!(struck_out, [three]);
    assert!(rows.iter().all(|r| r.player != three));
    assert_eq!(rows.len(), 5);
    // E3 played only round 1, and that game is struck out.
    assert!(
        e.games()
            .filter(|g| g.red == three || g.black == three)
            .all(|g| g.round == 1)
    );
    let table = e.table();
    assert!(table.entries(three).is_empty());
    let kinds: Vec<_> = table
        .entries(six)
        .iter()
        .map(|x| (x.round, x.kind))
        .collect();
    use chuhan_arena::tournament::standings::EntryKind::{ForfeitLoss, Played};
    assert_eq!(
        kinds,
        [(1, Played), (2, Played), (3, Played), (4, ForfeitLoss)]
    );
    let five = PlayerId(4);
    assert!(
        table.entries(five).iter().any(|x| x.round == 4
            && x.kind == chuhan_arena::tournament::standings::EntryKind::ForfeitWin)
    );
}

#[test]
fn swiss_withdrawal_stops_pairing_the_player() {
    let engines = names(8);
    let refs: Vec<&str> = engines.iter().map(String::as_str).collect();
    let e = run_to_end(
        &config(
            &dir("swiss-withdraw"),
            &refs,
            r#"{"type": "swiss", "rounds": 5}"#,
            r#""withdrawals": [{"engine": "E2", "from_round": 3}],"#,
        ),
        1,
    );
    let two = PlayerId(1);
    for r in e.rounds().iter().filter(|r| r.round >= 3) {
        assert!(r.boards.iter().all(|b| b.first != two && b.second != two));
        assert_eq!(r.byes.len(), 1, "seven players left: one bye");
    }
    assert_eq!(e.table().entries(two).len(), 2);
}

#[test]
fn absent_engines_lose_by_forfeit() {
    let d = dir("ghost");
    let e = run_to_end(
        &config(
            &d,
            &["E1", "E2", "Ghost", "E4"],
            r#"{"type": "round_robin"}"#,
            "",
        ),
        1,
    );
    let ghost = PlayerId(2);
    let table = e.table();
    assert_eq!(table.points(ghost), 0);
    assert!(
        table
            .entries(ghost)
            .iter()
            .all(|x| x.kind == chuhan_arena::tournament::standings::EntryKind::ForfeitLoss)
    );
    let report = chuhan_arena::tournament::report::Report::new(&e).to_string();
    assert!(report.contains('+') && report.contains('−'), "{report}");
}

#[test]
fn knockout_final_uses_the_faster_control_after_two_games() {
    // Two engines, double elimination: the first round, then the final. Everyone
    // draws, so the final runs to four games, the last two at 600+10.
    type Log = std::sync::Arc<std::sync::Mutex<Vec<(u32, u32, String)>>>;
    struct Drawish(Log);
    impl GamePlayer for Drawish {
        fn play(&mut self, spec: &GameSpec) -> Result<GameOutcome, PlayError> {
            let result = if spec.id.round == 1 && spec.id.game == 3 {
                GameResult::RedWins
            } else {
                GameResult::Draw
            };
            self.0
                .lock()
                .unwrap()
                .push((spec.id.round, spec.id.game, spec.clock.red.to_string()));
            Ok(GameOutcome::Played(PlayedGame {
                result,
                termination: Termination::Agreement,
                moves: Vec::new(),
                pgn: None,
            }))
        }
    }
    let log = Log::default();
    let d = dir("final");
    let mut runner = Runner::open(config(
        &d,
        &["E1", "E2"],
        r#"{"type": "knockout", "elimination": "double", "tiebreak_games": 2}"#,
        "",
    ))
    .unwrap();
    runner.run(&mut [Drawish(log.clone())], |_| {}).unwrap();
    let e = runner.event();
    let finals: Vec<_> = e.games().filter(|g| g.round == 2).collect();
    assert_eq!(finals.len(), 4, "all drawn: four games");
    // Colours alternate.
    assert_eq!(finals[0].red, finals[2].red);
    assert_eq!(finals[0].red, finals[1].black);
    let Standings::Knockout { placings, .. } = e.standings() else {
        panic!()
    };
    // Round 1: draw, then tie-break games 2 (draw) and 3 (won by its Red player).
    let r1: Vec<_> = e.games().filter(|g| g.round == 1).collect();
    assert_eq!(r1.len(), 3);
    let winner_r1 = r1[2].red;
    // All four final games drawn: the winners'-bracket player is champion.
    assert_eq!(placings[0].0, winner_r1);
    let controls: Vec<(u32, u32, String)> = log.lock().unwrap().clone();
    let expect = |round, game, tc: &str| (round, game, tc.to_string());
    assert_eq!(
        controls,
        [
            expect(1, 1, "60+1"),
            expect(1, 2, "600+10"),
            expect(1, 3, "600+10"),
            expect(2, 1, "60+1"),
            expect(2, 2, "60+1"),
            expect(2, 3, "600+10"),
            expect(2, 4, "600+10"),
        ]
    );
}

/// An output that cannot be written stops the event when it is opened, before
/// its first game, and the error names the file.
#[test]
fn an_unwritable_output_is_found_before_any_game() {
    let d = dir("unwritable");
    let mut c = config(&d, &["E1", "E2"], r#"{"type": "round_robin"}"#, "");
    // A directory where the PGN file should be.
    let pgn = d.join("event.pgn");
    std::fs::create_dir_all(&pgn).unwrap();
    c.output.pgn = Some(pgn.clone());
    match Runner::open(c.clone()) {
        Err(e @ RunError::Output(..)) => {
            assert!(e.to_string().contains(&pgn.display().to_string()), "{e}")
        }
        Err(other) => panic!("{other}"),
        Ok(_) => panic!("the event opened with an unwritable PGN path"),
    }
    // Nothing was played: the results file holds only the event's header.
    let results = std::fs::read_to_string(d.join("results.jsonl")).unwrap();
    assert_eq!(results.lines().count(), 1, "{results}");
    std::fs::remove_dir(&pgn).unwrap();
    let e = run_to_end(&c, 1);
    assert_eq!(e.games().count(), 1);
    assert!(std::fs::read_to_string(&pgn).unwrap().contains("[Event"));
}

#[test]
fn a_results_file_of_another_event_is_refused() {
    let d = dir("foreign");
    run_to_end(
        &config(&d, &["E1", "E2", "E3"], r#"{"type": "round_robin"}"#, ""),
        1,
    );
    let other = config(&d, &["E1", "E2", "E9"], r#"{"type": "round_robin"}"#, "");
    match Runner::open(other) {
        Err(RunError::Event(e)) => assert!(e.to_string().contains("does not fit"), "{e}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn knockout_withdrawal_forfeits_the_next_match() {
    // Eight players, no seeds or draw: W1 is 1-8, 4-5, 2-7, 3-6. E1 is the strongest
    // and wins round 1, then withdraws: his round 2 match is forfeited.
    let engines: Vec<String> = (1..=8).rev().map(|k| format!("E{k}")).collect();
    let refs: Vec<&str> = engines.iter().map(String::as_str).collect();
    let e = run_to_end(
        &config(
            &dir("ko-withdraw"),
            &refs,
            r#"{"type": "knockout"}"#,
            r#""withdrawals": [{"engine": "E8", "from_round": 2}],"#,
        ),
        1,
    );
    let strongest = PlayerId(0);
    let r2: Vec<_> = e
        .games()
        .filter(|g| g.round == 2 && (g.red == strongest || g.black == strongest))
        .collect();
    assert_eq!(r2.len(), 1, "E8 won round 1");
    assert!(matches!(
        r2[0].decision,
        chuhan_arena::tournament::standings::Decision::Forfeit(_)
    ));
    let Standings::Knockout { placings, alive } = e.standings() else {
        panic!()
    };
    assert!(alive.is_empty());
    assert_ne!(placings[0].0, strongest);
}

/// One round of a constructed history: boards "red-black result" by starting
/// number (result `1-0`, `0-1` or `=`), and the bye.
struct Played<'a> {
    boards: &'a [&'a str],
    bye: Option<u32>,
}

/// The pairing an event of `n` entries and `rounds` Swiss rounds (2/1/0, numbers
/// in engine order) makes when it resumes from a results file holding `history`:
/// boards as (Red, Black) by starting number, and the bye.
fn resume_swiss(
    name: &str,
    n: usize,
    rounds: u32,
    history: &[Played],
) -> (Vec<(u32, u32)>, Option<u32>) {
    let d = dir(name);
    let engines = names(n);
    let refs: Vec<&str> = engines.iter().map(String::as_str).collect();
    let format = format!(r#"{{"type": "swiss", "rounds": {rounds}}}"#);
    let cfg = config(&d, &refs, &format, "");
    drop(Runner::open(cfg.clone()).unwrap());
    let (mut file, _) = ResultsFile::open(&cfg.output.results).unwrap();
    let number = |s: &str| PlayerId::from_number(s.parse().unwrap()).unwrap();
    for (k, played) in history.iter().enumerate() {
        let round = k as u32 + 1;
        let games: Vec<(PlayerId, PlayerId, GameResult)> = played
            .boards
            .iter()
            .map(|b| {
                let (pair, result) = b.split_once(' ').unwrap();
                let (red, black) = pair.split_once('-').unwrap();
                let result = match result {
                    "1-0" => GameResult::RedWins,
                    "0-1" => GameResult::BlackWins,
                    _ => GameResult::Draw,
                };
                (number(red), number(black), result)
            })
            .collect();
        let boards = games
            .iter()
            .enumerate()
            .map(|(b, &(first, second, _))| BoardPairing {
                board: b as u32 + 1,
                first,
                second,
            })
            .collect();
        let byes = played
            .bye
            .and_then(PlayerId::from_number)
            .into_iter()
            .collect();
        file.append(&Record::Round(RoundRecord {
            round,
            boards,
            byes,
        }))
        .unwrap();
        for (b, &(red, black, result)) in games.iter().enumerate() {
            file.append(&Record::Game(GameRecord {
                round,
                board: b as u32 + 1,
                game: 1,
                red,
                black,
                decision: Decision::Played(result),
                termination: None,
                moves: Vec::new(),
                pgn: None,
            }))
            .unwrap();
        }
    }
    drop(file);
    let runner = Runner::open(cfg).unwrap();
    let Next::Pair(next) = runner.event().next().unwrap() else {
        panic!("{name}: the next round is not due");
    };
    assert_eq!(next.round, history.len() as u32 + 1);
    let boards = next
        .boards
        .iter()
        .map(|b| (b.first.number(), b.second.number()))
        .collect();
    (boards, next.byes.first().map(|p| p.number()))
}

#[test]
fn swiss_bye_goes_to_the_lowest_score_group() {
    // Issue 26, case 1 (附錄二 一.5 "輪空的人（隊）應是最低分段"). Before round 4
    // of 5, 1-4 have 4 points and 5 has 2; 5 has had a bye, and the text does not
    // forbid a second one, so 5 has it and 1-4, 2-3 are paired (1 has met 2, 3
    // and 5). Colours (二.4(1)): 1 (r r r) and 2 (b r r) want Black, 3 (b b) and 4
    // (r b) want Red. Before: the bye went to 2, who had none, above the lowest
    // group.
    let history = [
        Played {
            boards: &["1-2 =", "4-3 ="],
            bye: Some(5),
        },
        Played {
            boards: &["1-3 =", "2-5 1-0"],
            bye: Some(4),
        },
        Played {
            boards: &["1-5 1-0", "2-4 ="],
            bye: Some(3),
        },
    ];
    let (boards, bye) = resume_swiss("swiss-bye-lowest", 5, 5, &history);
    assert_eq!(bye, Some(5));
    assert_eq!(boards, [(4, 1), (3, 2)]);
}

#[test]
fn swiss_last_round_colours_balance_the_higher_scorer() {
    // Issue 26, case 2 (附錄二 二.4(9), (10)). Before the last round (6 of 6) 2
    // leads with 9 points, colours b r b r b (少先, wants Red); 8 has 6 points,
    // colours r b r b b. 4.(9) "低分服從高分，優先平衡高分者的先後走": 2 has Red,
    // though 8 then has three Blacks in a row, which 4.(10) does not re-pair in
    // the last round. Before: 8 had Red (an exception for the lower scorer that is
    // not in 4.(9)) and the leader finished two Blacks over.
    let history = [
        Played {
            boards: &["1-2 0-1", "4-3 1-0", "5-6 0-1", "8-7 ="],
            bye: None,
        },
        Played {
            boards: &["1-8 =", "2-7 =", "3-5 0-1", "4-6 ="],
            bye: None,
        },
        Played {
            boards: &["3-1 1-0", "5-2 0-1", "8-4 1-0", "7-6 ="],
            bye: None,
        },
        Played {
            boards: &["1-6 1-0", "2-4 1-0", "3-7 1-0", "5-8 ="],
            bye: None,
        },
        Played {
            boards: &["1-7 0-1", "3-2 0-1", "5-4 =", "6-8 ="],
            bye: None,
        },
    ];
    let (boards, _) = resume_swiss("swiss-last-colours", 8, 6, &history);
    let board = boards.iter().find(|&&(r, b)| [r, b].contains(&2)).copied();
    assert_eq!(board, Some((2, 8)), "{boards:?}");
}

#[test]
fn swiss_priority_order_chooses_who_moves_down() {
    // Issue 26, case 3 (附錄二 二.2(1), 二.3(2), (5), 二.5(2)): ten entries, the
    // last round (7). Before it: 2 and 4 lead with 9 and have met; 1, 7, 9, 10
    // have 7; then 3 (5), 6 (4), 5 (3), 8 (2). Round 7 is odd: small numbers
    // first. 2 and 4 move down (二.3(5)) and pair first in the 7-point group
    // (二.2(1)): rows want-Black [2, 7], want-Red [4, 1, 9, 10]; 2 has met his
    // 同位 4 and then 1 and 9, and takes 10 (錯位, 二.3(2)); 4 takes 7. 1 and 9 may
    // not pair each other (5 and 6 below could then only meet 3), so both move
    // down; 1 takes 6 (少先, Red), 9 cannot meet 3 and moves on; 3 takes 5, and 9
    // meets 8. Before: the counts of earlier moves down (一.9) chose instead to pass
    // the co-leader 4 down to the 2-point 8, pairing 2-7, 9-1, 6-10, 3-5, 4-8.
    let history = [
        Played {
            boards: &["1-2 0-1", "4-3 =", "5-6 0-1", "8-7 0-1", "9-10 1-0"],
            bye: None,
        },
        Played {
            boards: &["7-9 0-1", "6-2 =", "10-4 0-1", "3-8 1-0", "5-1 0-1"],
            bye: None,
        },
        Played {
            boards: &["9-3 0-1", "4-6 1-0", "1-7 =", "2-5 =", "8-10 0-1"],
            bye: None,
        },
        Played {
            boards: &["4-9 1-0", "3-2 0-1", "6-7 =", "10-1 1-0", "5-8 1-0"],
            bye: None,
        },
        Played {
            boards: &["2-4 1-0", "7-3 1-0", "9-6 1-0", "10-5 1-0", "1-8 1-0"],
            bye: None,
        },
        Played {
            boards: &["2-9 =", "7-10 =", "3-1 0-1", "5-4 0-1", "8-6 1-0"],
            bye: None,
        },
    ];
    let (boards, bye) = resume_swiss("swiss-who-floats", 10, 7, &history);
    assert_eq!(bye, None);
    assert_eq!(boards, [(10, 2), (4, 7), (6, 1), (3, 5), (9, 8)]);
}

/// Plays an event as a cluster would: each merge of the unit files in `units`
/// records what they played and plans the games due next; the fake plays each
/// plan's units (last unit first, the last one twice). Returns the event and the
/// number of plans.
fn run_as_units(config: &TournamentConfig, units: &Path, per_unit: u32) -> (Event, usize) {
    use chuhan_arena::tournament::plan::{Plan, PlanFile};
    use chuhan_arena::tournament::unit_result::{self, Merged, Played};
    use chuhan_engine::notation::{IccsStyle, Notation};
    let settings = (per_unit, "2026.12.02", Notation::Iccs(IccsStyle::Compact));
    let mut fake = Fake::default();
    let mut plans = 0;
    loop {
        match unit_result::merge(config, Some(units), settings, |_| {}).unwrap() {
            Merged::Finished => break,
            Merged::Next(plan) => {
                plans += 1;
                let plan = Plan::from_json(&plan.to_json()).unwrap();
                assert!(plan.games() > 0);
                for u in plan.units.iter().rev() {
                    let played = unit_result::play(&plan, u.index, units, &mut fake).unwrap();
                    assert_eq!(played, Played::Written);
                }
                let again = unit_result::play(&plan, 0, units, &mut fake).unwrap();
                assert_eq!(again, Played::AlreadyThere);
            }
        }
    }
    (Runner::open(config.clone()).unwrap().event().clone(), plans)
}

#[test]
fn units_merged_into_an_event_give_the_local_run() {
    let cases: [(&str, usize, &str, &str, u32); 3] = [
        (
            "rr",
            6,
            r#"{"type": "round_robin", "games_per_pairing": 2}"#,
            r#""draw_seed": 11, "withdrawals": [{"engine": "E6", "from_round": 4}],"#,
            3,
        ),
        (
            "swiss",
            9,
            r#"{"type": "swiss", "rounds": 5}"#,
            r#""draw_seed": 5,"#,
            2,
        ),
        (
            "ko",
            7,
            r#"{"type": "knockout", "elimination": "double", "games_per_match": 2}"#,
            r#""draw_seed": 3,"#,
            1,
        ),
    ];
    for (name, n, format, extra, per_unit) in cases {
        let engines = names(n);
        let refs: Vec<&str> = engines.iter().map(String::as_str).collect();
        let local_dir = dir(&format!("units-{name}-local"));
        let unit_dir = dir(&format!("units-{name}"));
        let local = run_to_end(&config(&local_dir, &refs, format, extra), 1);
        let c = config(&unit_dir, &refs, format, extra);
        let (merged, plans) = run_as_units(&c, &unit_dir.join("units"), per_unit);
        assert!(plans >= merged.rounds().len(), "{name}: {plans} plans");
        assert_eq!(ranking(&merged), ranking(&local), "{name}");
        // Record for record, in the same order: the results files are equal.
        let read = |d: &Path| std::fs::read_to_string(d.join("results.jsonl")).unwrap();
        assert!(
            read(&local_dir) == read(&unit_dir),
            "{name}: results differ"
        );
        assert_eq!(
            std::fs::read_to_string(local_dir.join("event.pgn")).unwrap(),
            std::fs::read_to_string(unit_dir.join("event.pgn")).unwrap(),
            "{name}"
        );
        // Merging again records nothing twice.
        let before = read(&unit_dir);
        assert_eq!(run_as_units(&c, &unit_dir.join("units"), per_unit).1, 0);
        assert_eq!(read(&unit_dir), before, "{name}");
    }
}

#[test]
fn a_unit_game_that_is_not_the_game_due_stops_the_merge() {
    use chuhan_arena::tournament::unit_result::{self, Merged, UnitResult};
    use chuhan_engine::notation::{IccsStyle, Notation};
    let d = dir("units-foreign");
    let units = d.join("units");
    let c = config(
        &d,
        &["E1", "E2", "E3", "E4"],
        r#"{"type": "round_robin"}"#,
        "",
    );
    run_as_units(&c, &units, 2);
    // Edit one game's engine in its unit file and replay the event from scratch.
    std::fs::remove_file(&c.output.results).unwrap();
    let file = std::fs::read_dir(&units)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with("unit-")
        })
        .unwrap();
    let id = chuhan_arena::tournament::plan::event_id(&c);
    let mut r = UnitResult::read_of_event(&file, &id).unwrap();
    r.body.games[0].game.red.command = "./elsewhere".into();
    std::fs::write(&file, serde_json::to_string(&r).unwrap()).unwrap();
    let settings = (2, "2026.12.02", Notation::Iccs(IccsStyle::Compact));
    let err = unit_result::merge(&c, Some(&units), settings, |_| {}).unwrap_err();
    assert!(
        err.to_string().contains("otherwise than the event"),
        "{err}"
    );
    // A unit file of another event is refused outright.
    r.body.event_id = "0000000000000000".into();
    std::fs::write(&file, serde_json::to_string(&r).unwrap()).unwrap();
    let err = unit_result::merge(&c, Some(&units), settings, |_| {}).unwrap_err();
    assert!(err.to_string().contains("a unit of event"), "{err}");
    assert!(matches!(
        unit_result::merge(&c, None, settings, |_| {}),
        Ok(Merged::Next(_))
    ));
    // An engine that does not turn up on a node fails the unit: no forfeit is
    // written, the cluster plays the unit again elsewhere.
    let g = dir("units-ghost");
    let c = config(&g, &["E1", "Ghost"], r#"{"type": "round_robin"}"#, "");
    let Ok(Merged::Next(plan)) = unit_result::merge(&c, None, settings, |_| {}) else {
        panic!("round 1 is due");
    };
    let err = unit_result::play(&plan, 0, &g, &mut Fake::default()).unwrap_err();
    assert!(err.to_string().contains("could not be started"), "{err}");
    assert!(!g.join(unit_result::file_name(&plan.plan_id, 0)).exists());
}
