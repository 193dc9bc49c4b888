//! The match runner against fake engines: each failure mode (illegal move, crash,
//! hang, time forfeit, no move), draw offers, resignations, score adjudication,
//! both dialects and 1-based ranks are adjudicated correctly and the match goes
//! on; crashed and hung engines are restarted; the CLIs print what they promise
//! and write PGN the notation reader reads back with the same results.
//!
//! The fake engine is this test binary itself: run with `CHUHAN_FAKE_ENGINE` set,
//! the `fake_engine` test speaks UCCI or UCI on stdin/stdout instead of testing
//! (see [`fake::Spec`] for its settings). Fake engines answer at once (or after a
//! fixed tiny delay); waits are bounded by short guards, never asserted.

use chuhan_arena::game::engine_config::{EngineConfig, RankBase};
use chuhan_arena::game::opening::Opening;
use chuhan_arena::game::play::Termination;
use chuhan_arena::r#match::client::{EngineClient, Timeouts};
use chuhan_arena::r#match::limit::Limit;
use chuhan_arena::r#match::process::TrafficLog;
use chuhan_arena::r#match::referee::Fault;
use chuhan_arena::r#match::runner::{self, MatchConfig, MatchEvent, Summary};
use chuhan_arena::r#match::sprt::SprtState;
use chuhan_arena::r#match::stats::Tally;
use chuhan_engine::core::{Color, GameResult, Position};
use chuhan_engine::notation::pgn;
use chuhan_engine::protocol::dialect::Dialect;
use chuhan_engine::rules::{Referee, RuleSet, status_under};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

mod fake {
    //! A scriptable engine. Settings, comma-separated `key=value`:
    //!
    //! * `proto=ucci|uci|uci-exit|uci-silent`: answers `ucci` (UCCI), or `uci`
    //!   only — saying `Unknown command` to `ucci`, exiting on it, or ignoring it;
    //! * `ranks=1`: moves in ranks 1–10 (and advertises `UCI_Variant`, as
    //!   Fairy-Stockfish does);
    //! * `fail=illegal|crash|hang|slow|resign|nomove|offer` at its `at=N`-th move of
    //!   a game (default 1); `slow` answers only after `stop`; `offer` offers a draw
    //!   with every move from then on;
    //! * `accept=1`: accepts draw offers (`go draw` → `bestmove … draw`);
    //! * `once=1`: fails only in the first process (the starts file has one line);
    //! * `every=N`: fails only in games whose number (counted by this process's
    //!   new-game signals) is not a multiple of N;
    //! * `play=cycle`: moves a horse out and back for ever (repetition);
    //! * `score=S`: reports `info depth 1 score S` with every move;
    //! * `delay=MS`: waits that long before each answer;
    //! * `starts=PATH`: appends a line to PATH at every start.

    use chuhan_engine::core::{Move, Position, START_FEN};
    use std::collections::HashMap;
    use std::io::{BufRead, Write};
    use std::time::Duration;

    /// The parsed settings.
    pub struct Spec(HashMap<String, String>);

    impl Spec {
        pub fn parse(text: &str) -> Spec {
            Spec(
                text.split(',')
                    .filter_map(|kv| kv.split_once('='))
                    .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                    .collect(),
            )
        }

        fn get(&self, k: &str) -> Option<&str> {
            self.0.get(k).map(String::as_str)
        }

        fn num(&self, k: &str, default: u64) -> u64 {
            self.get(k).and_then(|v| v.parse().ok()).unwrap_or(default)
        }
    }

    fn square_text(sq: chuhan_engine::core::Square, one_based: bool) -> String {
        let rank = sq.rank().index() + usize::from(one_based);
        format!("{}{rank}", sq.file().to_char())
    }

    fn move_text(m: Move, one_based: bool) -> String {
        format!(
            "{}{}",
            square_text(m.from(), one_based),
            square_text(m.to(), one_based)
        )
    }

    fn read_move(pos: &Position, text: &str, one_based: bool) -> Option<Move> {
        pos.legal_moves()
            .iter()
            .copied()
            .find(|&m| move_text(m, one_based) == text)
    }

    /// `position startpos|fen … [moves …]`.
    fn read_position(line: &str, one_based: bool) -> Option<(Position, Vec<Move>)> {
        let rest = line.strip_prefix("position ")?;
        let (head, moves) = match rest.split_once(" moves ") {
            Some((h, m)) => (h, m),
            None => (rest, ""),
        };
        let fen = if head.trim() == "startpos" {
            START_FEN.to_string()
        } else {
            head.strip_prefix("fen ")?.to_string()
        };
        let mut pos = Position::from_fen(&fen).ok()?;
        let mut played = Vec::new();
        for t in moves.split_whitespace() {
            let m = read_move(&pos, t, one_based)?;
            pos.make_move(m);
            played.push(m);
        }
        Some((pos, played))
    }

    /// A capture if there is one, else a move picked by the position's key.
    fn choose(pos: &Position, played: &[Move], cycle: bool) -> Option<Move> {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return None;
        }
        if cycle {
            if played.len() >= 2 {
                let own = played[played.len() - 2];
                let back = Move::new(own.to(), own.from());
                if pos.is_legal(back) {
                    return Some(back);
                }
            }
            for t in ["h0g2", "h9g7"] {
                let m: Move = t.parse().unwrap();
                if pos.is_legal(m) {
                    return Some(m);
                }
            }
        }
        if let Some(&c) = legal.iter().find(|m| pos.piece_at(m.to()).is_some()) {
            return Some(c);
        }
        let pick = (pos.key().wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 33) as usize % legal.len();
        Some(legal[pick])
    }

    /// An illegal move: the opponent's king one step.
    fn illegal(pos: &Position) -> Move {
        let k = pos.king_square(!pos.side_to_move());
        let to = k.offset(1, 0).or_else(|| k.offset(-1, 0)).unwrap();
        Move::new(k, to)
    }

    /// Serves the protocol until `quit` or the end of input.
    pub fn serve(spec: &Spec, input: impl BufRead, mut out: impl Write) {
        let proto = spec.get("proto").unwrap_or("ucci").to_string();
        let one_based = spec.get("ranks") == Some("1");
        let fail = spec.get("fail").unwrap_or("").to_string();
        let at = spec.num("at", 1);
        let delay = Duration::from_millis(spec.num("delay", 0));
        let accept = spec.get("accept") == Some("1");
        let cycle = spec.get("play") == Some("cycle");
        let mut failing = true;
        if let Some(path) = spec.get("starts") {
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .unwrap();
            writeln!(f, "start").unwrap();
            drop(f);
            if spec.get("once") == Some("1") {
                let lines = std::fs::read_to_string(path).unwrap().lines().count();
                failing = lines <= 1;
            }
        }
        let say = |out: &mut dyn Write, line: &str| {
            let _ = writeln!(out, "{line}");
            let _ = out.flush();
        };
        let mut pos = Position::startpos();
        let mut played: Vec<Move> = Vec::new();
        let every = spec.num("every", 0);
        let mut game_no = 0u64;
        let mut gos = 0u64;
        let mut pending: Option<(Move, bool)> = None;
        for line in input.lines() {
            let Ok(line) = line else { break };
            let cmd = line.split_whitespace().next().unwrap_or("");
            match cmd {
                "ucci" => match proto.as_str() {
                    "ucci" => {
                        say(&mut out, "id name Fake UCCI");
                        say(&mut out, "option usemillisec type check default false");
                        say(&mut out, "option newgame type button");
                        say(&mut out, "ucciok");
                    }
                    "uci-exit" => std::process::exit(0),
                    "uci-silent" => {}
                    _ => say(
                        &mut out,
                        "Unknown command: 'ucci'. Type help for more information.",
                    ),
                },
                "uci" if proto.starts_with("uci") => {
                    say(&mut out, "id name Fake UCI");
                    if one_based {
                        say(
                            &mut out,
                            "option name UCI_Variant type combo default chess var chess var xiangqi",
                        );
                    }
                    say(
                        &mut out,
                        "option name Hash type spin default 16 min 1 max 64",
                    );
                    say(&mut out, "uciok");
                }
                "isready" => say(&mut out, "readyok"),
                "ucinewgame" => {
                    gos = 0;
                    game_no += 1;
                }
                "setoption" if line.contains("newgame") => {
                    gos = 0;
                    game_no += 1;
                }
                "position" => {
                    if let Some((p, m)) = read_position(&line, one_based) {
                        pos = p;
                        played = m;
                    } else {
                        say(&mut out, "info string bad position");
                    }
                }
                "go" => {
                    gos += 1;
                    let this_game = every == 0 || !game_no.is_multiple_of(every);
                    let now = failing && this_game && !fail.is_empty() && gos >= at;
                    let first = now && gos == at;
                    std::thread::sleep(delay);
                    if let Some(s) = spec.get("score") {
                        say(&mut out, &format!("info depth 1 score {s} pv"));
                    }
                    let Some(m) = choose(&pos, &played, cycle) else {
                        say(&mut out, "nobestmove");
                        continue;
                    };
                    let text = move_text(m, one_based);
                    let offered = line.split_whitespace().any(|w| w == "draw");
                    match fail.as_str() {
                        "illegal" if first => say(
                            &mut out,
                            &format!("bestmove {}", move_text(illegal(&pos), one_based)),
                        ),
                        "crash" if first => std::process::exit(3),
                        "hang" if first => {
                            // Never answers (not even `stop`); the runner must kill us.
                            std::thread::sleep(Duration::from_secs(60));
                            std::process::exit(4);
                        }
                        "slow" if first => pending = Some((m, false)),
                        "resign" if first => say(&mut out, &format!("bestmove {text} resign")),
                        "nomove" if first => say(&mut out, "nobestmove"),
                        "offer" if now => say(&mut out, &format!("bestmove {text} draw")),
                        _ if offered && accept => say(&mut out, &format!("bestmove {text} draw")),
                        _ => say(&mut out, &format!("bestmove {text}")),
                    }
                }
                "stop" => {
                    if let Some((m, _)) = pending.take() {
                        say(&mut out, &format!("bestmove {}", move_text(m, one_based)));
                    }
                }
                "quit" => {
                    say(&mut out, "bye");
                    return;
                }
                _ => {}
            }
        }
    }
}

/// The fake engine's entry point when this binary runs as one; otherwise a check
/// of the fake itself on a canned session.
#[test]
fn fake_engine() {
    if let Ok(spec) = std::env::var("CHUHAN_FAKE_ENGINE") {
        let stdin = std::io::stdin();
        fake::serve(&fake::Spec::parse(&spec), stdin.lock(), std::io::stdout());
        std::process::exit(0);
    }
    let session = "ucci\nisready\nposition startpos moves h2e2\ngo depth 1\nquit\n";
    let mut out = Vec::new();
    fake::serve(
        &fake::Spec::parse("proto=ucci"),
        session.as_bytes(),
        &mut out,
    );
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.contains(&"ucciok") && lines.contains(&"readyok"),
        "{text}"
    );
    let bm = lines.iter().find(|l| l.starts_with("bestmove ")).unwrap();
    let mut pos = Position::startpos();
    pos.make_move("h2e2".parse().unwrap());
    assert!(pos.is_legal(bm[9..].parse().unwrap()), "{bm}");
    assert_eq!(lines.last(), Some(&"bye"));
}

/// A scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("match-tests-{}", std::process::id()))
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The shell command that starts a fake engine.
fn fake_command(spec: &str) -> String {
    let exe = std::env::current_exe().unwrap();
    format!(
        "CHUHAN_FAKE_ENGINE='{spec}' exec '{}' --exact fake_engine --nocapture --test-threads=1",
        exe.display()
    )
}

fn engine(name: &str, spec: &str) -> EngineConfig {
    EngineConfig {
        name: name.to_string(),
        command: fake_command(spec),
        protocol: None,
        options: BTreeMap::new(),
        ranks: RankBase::Auto,
    }
}

fn timeouts() -> Timeouts {
    Timeouts {
        detect: Duration::from_secs(5),
        handshake: Duration::from_secs(20),
        stop_grace: Duration::from_millis(300),
        quit_grace: Duration::from_millis(300),
    }
}

fn config(engines: Vec<EngineConfig>, games: u32, limit: Limit) -> MatchConfig {
    MatchConfig {
        engines,
        games,
        limit,
        concurrency: 1,
        openings: Vec::new(),
        rules: RuleSet::Cxa2011,
        referee: Referee::Strict,
        seed: None,
        sprt: None,
        adjudication: Default::default(),
        tolerance: Duration::from_millis(500),
        hang_timeout: Duration::from_secs(1),
        timeouts: timeouts(),
        event: "test".into(),
        log: None,
    }
}

/// A finished game as the tests look at it.
#[derive(Debug, Clone)]
struct Played {
    red: usize,
    result: GameResult,
    termination: Termination,
    fault: Option<(Color, Fault)>,
    reason: String,
    pgn: String,
}

fn run(config: &MatchConfig) -> (Summary, Vec<Played>) {
    let mut games = Vec::new();
    let summary = runner::run(config, |e| {
        if let MatchEvent::Finished { game, report, .. } = e {
            games.push(Played {
                red: game.red,
                result: report.result,
                termination: report.termination,
                fault: report.fault,
                reason: report.reason.clone(),
                pgn: pgn::write(&report.record, &Default::default()).unwrap(),
            });
        }
    });
    (summary, games)
}

fn clock() -> Limit {
    Limit::clock("60+1".parse().unwrap())
}

fn starts(path: &std::path::Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.lines().count())
}

#[test]
fn both_dialects_are_detected_and_play_to_a_rules_ending() {
    let dir = scratch("dialects");
    let log = TrafficLog::create(&dir.join("log.txt")).unwrap();
    let mut c = config(
        vec![engine("U", "proto=uci"), engine("C", "proto=ucci")],
        2,
        clock(),
    );
    c.log = Some(log);
    let (summary, games) = run(&c);
    assert_eq!(summary.played, 2);
    assert_eq!(summary.fault_count(), 0, "{games:?}");
    for g in &games {
        assert!(
            matches!(
                g.termination,
                Termination::Checkmate
                    | Termination::Stalemate
                    | Termination::RepetitionDraw
                    | Termination::RepetitionLoss
                    | Termination::MoveLimit
                    | Termination::DeadPosition
            ),
            "{g:?}"
        );
    }
    let log = std::fs::read_to_string(dir.join("log.txt")).unwrap();
    // The UCI engine was asked `ucci`, refused, and was then spoken to in UCI.
    assert!(log.contains("U > ucci") && log.contains("U > uci\n"));
    assert!(log.contains("U > go wtime "), "UCI clock fields");
    assert!(log.contains("U > ucinewgame"));
    // The UCCI engine got milliseconds and UCCI clock fields.
    assert!(log.contains("C > setoption usemillisec true"));
    assert!(log.contains("C > go time ") && log.contains(" opptime "));
    assert!(log.contains("C > setoption newgame"));
}

#[test]
fn protocol_detection_survives_an_engine_that_exits_or_stays_silent() {
    let mut t = timeouts();
    t.detect = Duration::from_millis(300);
    for (spec, forced) in [
        ("proto=uci-exit", None),
        ("proto=uci-silent", None),
        ("proto=uci-silent", Some(Dialect::Uci)),
        ("proto=ucci", Some(Dialect::Ucci)),
    ] {
        let mut cfg = engine("E", spec);
        cfg.protocol = forced;
        let mut e = EngineClient::new(cfg, "E", t, None);
        e.new_game().unwrap_or_else(|err| panic!("{spec}: {err}"));
        let want = if spec == "proto=ucci" {
            Dialect::Ucci
        } else {
            Dialect::Uci
        };
        assert_eq!(e.dialect(), want, "{spec}");
        // Exiting or staying silent on `ucci` costs a fresh start.
        let restarted = matches!(
            (spec, forced),
            ("proto=uci-exit", None) | ("proto=uci-silent", None)
        );
        assert_eq!(e.starts(), 1 + u32::from(restarted), "{spec}");
        e.shutdown();
    }
    // A forced protocol the engine does not speak: no handshake.
    let mut cfg = engine("E", "proto=uci");
    cfg.protocol = Some(Dialect::Ucci);
    let mut e = EngineClient::new(cfg, "E", t, None);
    assert!(e.new_game().is_err());
}

#[test]
fn one_based_ranks_are_translated_both_ways() {
    // Explicit and detected (the engine advertises UCI_Variant in UCI).
    let mut explicit = engine("One", "proto=uci,ranks=1");
    explicit.ranks = RankBase::One;
    explicit.protocol = Some(Dialect::Uci);
    let auto = engine("Auto", "proto=uci,ranks=1");
    let (summary, games) = run(&config(vec![explicit, auto], 2, clock()));
    assert_eq!(summary.played, 2);
    assert_eq!(summary.fault_count(), 0, "{games:?}");
    let mut e = EngineClient::new(
        engine("Auto", "proto=uci,ranks=1"),
        "Auto",
        timeouts(),
        None,
    );
    e.new_game().unwrap();
    assert_eq!(e.ranks(), RankBase::One);
}

/// Checks that every game was lost by the engine `loser` with `termination` and
/// `fault`, and that the match played all of them.
fn all_lost_by(
    summary: &Summary,
    games: &[Played],
    loser: usize,
    termination: Termination,
    fault: Option<Fault>,
) {
    assert_eq!(summary.played as usize, games.len());
    for g in games {
        let loser_colour = if g.red == loser {
            Color::Red
        } else {
            Color::Black
        };
        assert_eq!(g.result, GameResult::win_for(!loser_colour), "{g:?}");
        assert_eq!(g.termination, termination, "{g:?}");
        assert_eq!(g.fault, fault.map(|f| (loser_colour, f)), "{g:?}");
    }
}

#[test]
fn an_illegal_move_loses_and_the_match_goes_on() {
    let c = config(
        vec![engine("Bad", "fail=illegal,at=3"), engine("Good", "")],
        3,
        clock(),
    );
    let (summary, games) = run(&c);
    assert_eq!(games.len(), 3);
    all_lost_by(
        &summary,
        &games,
        0,
        Termination::IllegalMove,
        Some(Fault::IllegalMove),
    );
    assert!(games[0].reason.contains("is illegal"));
    assert_eq!(
        summary.pairings[0].tally,
        Tally {
            wins: 0,
            losses: 3,
            draws: 0
        }
    );
    // The record keeps the two moves made before the illegal one.
    let g = &pgn::read(&games[0].pgn).unwrap()[0];
    assert_eq!(g.ply_count(), 4);
    assert_eq!(g.result, Some(GameResult::BlackWins));
}

#[test]
fn a_crash_loses_and_the_engine_is_restarted_for_the_next_game() {
    let dir = scratch("crash");
    let file = dir.join("starts");
    let spec = format!("fail=crash,at=2,once=1,starts={}", file.display());
    let c = config(
        vec![engine("Crashy", &spec), engine("Good", "")],
        2,
        clock(),
    );
    let (summary, games) = run(&c);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].termination, Termination::EngineFailure);
    assert_eq!(games[0].fault, Some((Color::Red, Fault::Crash)));
    assert_eq!(games[0].result, GameResult::BlackWins);
    // Restarted: the second game was played to a normal end.
    assert_eq!(starts(&file), 2);
    assert_eq!(games[1].fault, None, "{:?}", games[1]);
    assert_eq!(summary.faults[0].get(&Fault::Crash), Some(&1));
}

#[test]
fn a_hung_engine_is_killed_and_restarted() {
    let dir = scratch("hang");
    let file = dir.join("starts");
    let spec = format!("fail=hang,at=2,once=1,starts={}", file.display());
    let c = config(
        vec![engine("Hangs", &spec), engine("Good", "")],
        2,
        Limit::Depth(3),
    );
    let (_, games) = run(&c);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].termination, Termination::EngineFailure);
    assert_eq!(games[0].fault, Some((Color::Red, Fault::Hang)));
    assert!(games[0].reason.contains("killed"), "{}", games[0].reason);
    assert_eq!(starts(&file), 2);
    assert_eq!(games[1].fault, None, "{:?}", games[1]);
}

#[test]
fn a_late_engine_forfeits_on_time_but_is_kept_if_it_answers_stop() {
    let dir = scratch("slow");
    let file = dir.join("starts");
    let spec = format!("fail=slow,at=2,starts={}", file.display());
    let mut c = config(
        vec![engine("Slow", &spec), engine("Good", "")],
        2,
        Limit::MoveTime(Duration::from_millis(100)),
    );
    c.tolerance = Duration::from_millis(400);
    let (summary, games) = run(&c);
    all_lost_by(
        &summary,
        &games,
        0,
        Termination::TimeForfeit,
        Some(Fault::TimeForfeit),
    );
    assert!(!games[0].reason.contains("killed"), "{}", games[0].reason);
    // It answered `stop`, so the same process played the second game.
    assert_eq!(starts(&file), 1);
}

#[test]
fn no_move_with_legal_moves_loses() {
    let c = config(
        vec![engine("Good", ""), engine("Mute", "fail=nomove,at=2")],
        2,
        clock(),
    );
    let (summary, games) = run(&c);
    all_lost_by(
        &summary,
        &games,
        1,
        Termination::EngineFailure,
        Some(Fault::NoMove),
    );
}

#[test]
fn resignation_loses_without_a_fault() {
    let c = config(
        vec![engine("Quitter", "fail=resign,at=4"), engine("Good", "")],
        2,
        clock(),
    );
    let (summary, games) = run(&c);
    all_lost_by(&summary, &games, 0, Termination::Resignation, None);
    assert_eq!(summary.fault_count(), 0);
    let g = &pgn::read(&games[0].pgn).unwrap()[0];
    assert_eq!(g.ply_count(), 6, "the resigning move is not played");
}

#[test]
fn a_draw_offer_accepted_in_ucci_is_a_draw_and_uci_engines_never_see_offers() {
    let c = config(
        vec![
            engine("Offers", "fail=offer,at=3"),
            engine("Accepts", "accept=1"),
        ],
        2,
        clock(),
    );
    let (summary, games) = run(&c);
    assert_eq!(summary.played, 2);
    for g in &games {
        assert_eq!(
            (g.result, g.termination),
            (GameResult::Draw, Termination::Agreement),
            "{g:?}"
        );
    }
    // Against a UCI engine the offers go nowhere: games end by the rules.
    let dir = scratch("offers-uci");
    let mut c = config(
        vec![
            engine("Offers", "fail=offer,at=1"),
            engine("Uci", "proto=uci,accept=1"),
        ],
        2,
        clock(),
    );
    c.log = Some(TrafficLog::create(&dir.join("log.txt")).unwrap());
    let (_, games) = run(&c);
    assert!(
        games
            .iter()
            .all(|g| g.termination != Termination::Agreement)
    );
    let log = std::fs::read_to_string(dir.join("log.txt")).unwrap();
    assert!(!log.contains("Uci > go draw"));
}

#[test]
fn score_adjudication_when_both_engines_agree() {
    let mut c = config(
        vec![
            engine("Winning", "score=900"),
            engine("Losing", "score=-900"),
        ],
        2,
        clock(),
    );
    c.adjudication.resign = Some("moves=3 score=500".parse().unwrap());
    let (summary, games) = run(&c);
    all_lost_by(&summary, &games, 1, Termination::Adjudication, None);
    let mut c = config(
        vec![engine("A", "score=3"), engine("B", "score=-2")],
        1,
        clock(),
    );
    c.adjudication.draw = Some("moves=2 score=10 after=5".parse().unwrap());
    let (_, games) = run(&c);
    assert_eq!(
        (games[0].result, games[0].termination),
        (GameResult::Draw, Termination::Adjudication)
    );
    let g = &pgn::read(&games[0].pgn).unwrap()[0];
    // The rule applies from move 5 on, which begins after Black's 4th move.
    assert_eq!(g.ply_count(), 8);
}

#[test]
fn repetition_is_ruled_by_the_rules_engine() {
    // Both sides move a horse out and back: 閒 against 閒 is a draw (§25.2).
    let c = config(
        vec![engine("A", "play=cycle"), engine("B", "play=cycle")],
        1,
        clock(),
    );
    let (_, games) = run(&c);
    assert_eq!(
        games[0].termination,
        Termination::RepetitionDraw,
        "{:?}",
        games[0]
    );
    assert_eq!(games[0].result, GameResult::Draw);
    let g = &pgn::read(&games[0].pgn).unwrap()[0];
    assert_eq!(g.ply_count(), 8);
    let end = g.position_at(8).unwrap();
    assert!(status_under(&end, RuleSet::Cxa2011, Referee::Strict, None).is_over());
}

#[test]
fn each_opening_is_played_with_both_colours() {
    let openings = vec![
        Opening::new(None, &["h2e2".to_string(), "h9g7".to_string()]).unwrap(),
        Opening::new(
            Some("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1"),
            &[],
        )
        .unwrap(),
    ];
    let mut c = config(vec![engine("A", ""), engine("B", "proto=uci")], 4, clock());
    c.openings = openings;
    let (summary, games) = run(&c);
    assert_eq!(summary.played, 4);
    let records: Vec<_> = games
        .iter()
        .map(|g| pgn::read(&g.pgn).unwrap().remove(0))
        .collect();
    assert_eq!(
        games.iter().map(|g| g.red).collect::<Vec<_>>(),
        [0, 1, 0, 1]
    );
    assert_eq!(records[0].tag("Red"), Some("A"));
    assert_eq!(records[1].tag("Red"), Some("B"));
    for r in &records[..2] {
        let first: Vec<String> = r.moves()[..2].iter().map(|m| m.to_string()).collect();
        assert_eq!(first, ["h2e2", "h9g7"]);
    }
    for r in &records[2..] {
        assert_eq!(r.start.side_to_move(), Color::Black);
    }
    assert_eq!(summary.pairings[0].pentanomial.pairs(), 2);
}

#[test]
fn the_sprt_stops_the_match_once_decided() {
    // Weak resigns at once except in every third game, where both engines move a
    // horse out and back until the repetition draw.
    let mut c = config(
        vec![
            engine("Strong", "play=cycle"),
            engine("Weak", "play=cycle,fail=resign,at=1,every=3"),
        ],
        200,
        clock(),
    );
    c.sprt = Some("elo0=0 elo1=20 alpha=0.05 beta=0.05".parse().unwrap());
    let (summary, games) = run(&c);
    let (_, llr, state) = summary.sprt.unwrap();
    assert_eq!(state, SprtState::AcceptH1, "llr {llr}");
    assert!(summary.played < 40, "{}", summary.played);
    assert_eq!(summary.played as usize, games.len());
    let t = summary.pairings[0].tally;
    assert_eq!(t.losses, 0);
    assert!(t.draws > 0 && t.wins > t.draws);
}

#[test]
fn an_engine_that_cannot_start_aborts_the_match() {
    let mut bad = engine("Missing", "");
    bad.command = "/nonexistent/engine-binary".into();
    let c = config(vec![engine("Good", ""), bad], 4, clock());
    let (summary, games) = run(&c);
    assert!(
        summary.aborted.as_deref().unwrap().contains("Missing"),
        "{summary:?}"
    );
    assert!(games.len() <= 1);
    if let Some(g) = games.first() {
        assert_eq!(g.fault.map(|f| f.1), Some(Fault::Start));
    }
}

#[test]
fn a_round_robin_plays_every_pairing() {
    let mut c = config(
        vec![engine("A", ""), engine("B", "proto=uci"), engine("C", "")],
        2,
        clock(),
    );
    c.concurrency = 2;
    let (summary, games) = run(&c);
    assert_eq!(games.len(), 6);
    assert_eq!(summary.pairings.len(), 3);
    assert!(summary.pairings.iter().all(|p| p.tally.games() == 2));
    let total: u32 = (0..3).map(|i| summary.total(i).games()).sum();
    assert_eq!(total, 12);
    assert_eq!(summary.fault_count(), 0);
}

fn chuhan() -> Command {
    Command::new(env!("CARGO_BIN_EXE_chuhan"))
}

#[test]
fn the_match_cli_ends_with_the_score_and_elo_lines_and_writes_readable_pgn() {
    let dir = scratch("cli");
    let pgn_path = dir.join("games.pgn");
    let out = chuhan()
        .args(["match", "--games", "4", "--tc", "30+0.5", "--seed", "3"])
        .arg("--engine")
        .arg(format!("cmd=\"{}\" name=Alpha", fake_command("proto=ucci")))
        .arg("--engine")
        .arg(format!(
            "cmd=\"{}\" name=Beta proto=uci",
            fake_command("proto=uci,fail=illegal,at=5")
        ))
        .arg("--pgn")
        .arg(&pgn_path)
        .args(["--sprt", "elo0=0", "elo1=10"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = stdout.lines().collect();
    let n = lines.len();
    assert!(
        lines[n - 2].starts_with("Score of Alpha vs Beta: 4 - 0 - 0"),
        "{stdout}"
    );
    assert!(lines[n - 1].starts_with("Elo difference: "), "{stdout}");
    assert!(stdout.contains("Finished game 1 (Alpha vs Beta): 1-0 {Black's move"));
    assert!(stdout.contains("Engine faults: Beta: 4 illegal move"));
    assert!(stdout.contains("SPRT: llr "));
    let text = std::fs::read_to_string(&pgn_path).unwrap();
    let records = pgn::read(&text).unwrap();
    assert_eq!(records.len(), 4);
    for r in &records {
        let alpha_red = r.tag("Red") == Some("Alpha");
        let want = if alpha_red {
            GameResult::RedWins
        } else {
            GameResult::BlackWins
        };
        assert_eq!(r.result, Some(want));
        assert_eq!(r.tag("Termination"), Some("illegal move"));
        // Every recorded move is legal from the recorded start.
        assert!(r.position_at(r.ply_count()).is_some());
    }
    // With --fail-on-fault the same faults make the exit status 3.
    let out = chuhan()
        .args(["match", "--games", "1", "--depth", "2", "--fail-on-fault"])
        .arg("--engine")
        .arg(format!("cmd=\"{}\"", fake_command("proto=ucci")))
        .arg("--engine")
        .arg(format!("cmd=\"{}\"", fake_command("fail=illegal,at=1")))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // Bad arguments: exit status 2 with a message.
    let out = chuhan()
        .args([
            "match", "--engine", "x", "--engine", "y", "--tc", "nonsense",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn games_ending_by_the_rules_rejudge_the_same_from_their_pgn() {
    let dir = scratch("rejudge");
    let pgn_path = dir.join("games.pgn");
    let out = chuhan()
        .args(["match", "--games", "4", "--nodes", "1000", "--rules", "axf"])
        .arg("--engine")
        .arg(format!("cmd=\"{}\" name=A", fake_command("")))
        .arg("--engine")
        .arg(format!("cmd=\"{}\" name=B", fake_command("proto=uci")))
        .arg("--pgn")
        .arg(&pgn_path)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = std::fs::read_to_string(&pgn_path).unwrap();
    for r in pgn::read(&text).unwrap() {
        assert_eq!(r.tag("Rules"), Some("axf"));
        assert_eq!(r.tag("Referee"), Some("strict"));
        let end = r.position_at(r.ply_count()).unwrap();
        let status = status_under(&end, RuleSet::Axf, Referee::Strict, None);
        assert!(status.winner.is_some());
        assert_eq!(r.result, status.winner, "{:?}", r.tag("Termination"));
    }
}

#[test]
fn the_tournament_cli_runs_a_round_robin_with_real_processes() {
    let dir = scratch("tournament");
    let engines: Vec<serde_json::Value> = [
        ("E1", "proto=ucci"),
        ("E2", "proto=uci"),
        ("E3", "fail=resign,at=3"),
    ]
    .iter()
    .map(|(n, s)| serde_json::json!({"name": n, "command": fake_command(s)}))
    .collect();
    let config = serde_json::json!({
        "event": "Fake cup",
        "engines": engines,
        "format": {"type": "round_robin"},
        "time_control": "30+0.5",
        "output": {"results": "results.jsonl", "pgn": "games.pgn", "html": "table.html"}
    });
    let path = dir.join("cup.json");
    std::fs::write(&path, config.to_string()).unwrap();
    let out = chuhan()
        .args(["tournament", "--concurrency", "2"])
        .arg(&path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("After round 1:"), "{stdout}");
    assert!(stdout.contains("Final:"), "{stdout}");
    assert!(stdout.contains("resignation"), "{stdout}");
    let games = pgn::read(&std::fs::read_to_string(dir.join("games.pgn")).unwrap()).unwrap();
    assert_eq!(games.len(), 3);
    assert!(dir.join("table.html").exists());
    // Running it again resumes a finished event: nothing is played twice.
    let again = chuhan().arg("tournament").arg(&path).output().unwrap();
    assert!(again.status.success());
    let results = std::fs::read_to_string(dir.join("results.jsonl")).unwrap();
    assert_eq!(
        results
            .lines()
            .filter(|l| l.contains("\"decision\""))
            .count(),
        3
    );
}

#[test]
fn a_tournament_player_forfeits_an_engine_that_cannot_start() {
    use chuhan_arena::game::clock::ClockSetting;
    use chuhan_arena::game::play::{Absence, GameId, GameOutcome, GamePlayer, GameSpec};
    use chuhan_arena::r#match::player::MatchPlayer;
    let mut missing = engine("Missing", "");
    missing.command = "/nonexistent/engine".into();
    let spec = GameSpec {
        id: GameId {
            round: 1,
            board: 1,
            game: 1,
        },
        event: "t".into(),
        red: engine("Good", ""),
        black: missing,
        clock: ClockSetting::even("30+1".parse().unwrap()),
        limit: None,
        tolerance: Duration::from_millis(500),
        rules: Default::default(),
        referee: Default::default(),
        opening: None,
    };
    let notation =
        chuhan_engine::notation::Notation::Iccs(chuhan_engine::notation::IccsStyle::Compact);
    let mut player = MatchPlayer::new(1, notation, None).with_timeouts(timeouts());
    assert_eq!(
        player.play(&spec).unwrap(),
        GameOutcome::Forfeited(Absence::Black)
    );
    // The same player plays a real game next.
    let mut spec2 = spec.clone();
    spec2.black = engine("Other", "proto=uci");
    match player.play(&spec2).unwrap() {
        GameOutcome::Played(g) => {
            assert!(g.pgn.unwrap().contains("[Red \"Good\"]"));
            assert!(!g.moves.is_empty());
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_shipped_opening_suites_load() {
    use chuhan_arena::r#match::openings;
    for (file, count) in [("books/openings.txt", 100), ("books/openings-600.txt", 600)] {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(file);
        let suite = openings::load(&path).unwrap();
        assert_eq!(suite.len(), count, "{file}");
        let mut seen = std::collections::HashSet::new();
        for o in &suite {
            assert_eq!(o.fen(), chuhan_engine::core::START_FEN);
            assert!((6..=10).contains(&o.moves().len()), "{:?}", o.moves());
            assert!(seen.insert(o.moves().to_vec()), "duplicate {:?}", o.moves());
        }
    }
}

/// The end-to-end check of issue 7: a short Chuhan-vs-Chuhan match at a small fixed
/// depth writes a PGN whose every game `chuhan judge --pgn` rules the same way the
/// match runner ended it (same status, same winner).
#[test]
fn a_chuhan_self_match_pgn_is_rejudged_identically_by_judge_pgn() {
    let dir = scratch("self-rejudge");
    let pgn_path = dir.join("self.pgn");
    let engine = format!("cmd=\"{}\" option.hashsize=8", env!("CARGO_BIN_EXE_chuhan"));
    let out = chuhan()
        .args(["match", "--games", "4", "--depth", "2", "--seed", "7"])
        .arg("--openings")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/books/openings.txt"))
        .arg("--engine")
        // An option the engine does not have: reported once, the match goes on.
        .arg(format!("{engine} name=A option.nosuchoption=1"))
        .arg("--engine")
        // The UCI name of a UCCI option: sent under the UCCI name, no warning.
        .arg(format!("{engine} name=B option.OwnBook=false"))
        .arg("--pgn")
        .arg(&pgn_path)
        .arg("--log")
        .arg(dir.join("traffic.log"))
        .arg("--fail-on-fault")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}");
    assert_eq!(
        stderr
            .matches("warning: engine A: option nosuchoption: the engine does not list it")
            .count(),
        1,
        "{stderr}"
    );
    assert_eq!(
        stderr
            .matches("warning: engine A: the engine answered:")
            .count(),
        1,
        "{stderr}"
    );
    assert!(!stderr.contains("engine B"), "{stderr}");
    let traffic = std::fs::read_to_string(dir.join("traffic.log")).unwrap();
    assert!(traffic.contains("setoption usebook false"), "{traffic}");
    assert!(!traffic.contains("OwnBook"), "{traffic}");
    assert!(stdout.contains("Engine faults: none"), "{stdout}");
    // One engine on both sides at a fixed depth plays each opening's two games alike.
    assert!(
        stdout.contains("Identical pairs of A vs B: 2 of 2"),
        "{stdout}"
    );
    let games = pgn::read(&std::fs::read_to_string(&pgn_path).unwrap()).unwrap();
    assert_eq!(games.len(), 4);
    for (i, game) in games.iter().enumerate() {
        let termination = game.tag("Termination").unwrap().to_string();
        let want_status = match termination.as_str() {
            "checkmate" => "checkmate",
            "stalemate" => "stalemate",
            "repetition draw" | "repetition rule loss (strict)" => "repetition",
            "move limit" => "sixty_moves",
            "dead position" => "dead_position",
            other => panic!("game {} ended by {other}, not by the rules", i + 1),
        };
        let judged = chuhan()
            .args(["judge", "--json", "--pgn"])
            .arg(&pgn_path)
            .args(["--game", &(i + 1).to_string()])
            .output()
            .unwrap();
        assert!(judged.status.success());
        let ruling: serde_json::Value = serde_json::from_slice(&judged.stdout).unwrap();
        assert_eq!(ruling["status"], want_status, "game {}", i + 1);
        let want_winner = match game.result {
            Some(GameResult::RedWins) => "red",
            Some(GameResult::BlackWins) => "black",
            Some(GameResult::Draw) => "draw",
            None => panic!("game {} has no result", i + 1),
        };
        assert_eq!(ruling["winner"], want_winner, "game {}", i + 1);
    }
}

/// `text` with every move time (`0.84s`) replaced by `T`: times are the one part of
/// a game record that differs between two runs of the same games.
fn without_times(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let digits = |from: usize| b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
        let whole = digits(i);
        if whole > 0 && b.get(i + whole) == Some(&b'.') {
            let frac = digits(i + whole + 1);
            if frac > 0 && b.get(i + whole + 1 + frac) == Some(&b's') {
                out.push('T');
                i += whole + frac + 2;
                continue;
            }
        }
        out.push(b[i] as char);
        i += 1;
    }
    out
}

/// The lines after the last empty line of a match's output: its summary.
fn summary_of(stdout: &str) -> String {
    let lines: Vec<&str> = stdout.lines().collect();
    let start = lines
        .iter()
        .rposition(|l| l.is_empty())
        .map_or(0, |i| i + 1);
    lines[start..].join("\n")
}

#[test]
fn plan_units_and_merge_give_the_local_match() {
    let dir = scratch("units");
    let me = env!("CARGO_BIN_EXE_chuhan");
    let openings = concat!(env!("CARGO_MANIFEST_DIR"), "/books/openings.txt");
    let match_args = |extra: &[&str]| {
        let mut c = chuhan();
        c.args(["match", "--games", "8", "--depth", "2", "--seed", "3"])
            .args(["--openings", openings, "--sprt", "elo0=0", "elo1=20"])
            .arg("--engine")
            .arg(format!("{me} name=Large option.usebook=false"))
            .arg("--engine")
            .arg(format!(
                "{me} name=Small option.usebook=false option.knowledge=small"
            ))
            .args(extra);
        c
    };
    let local_pgn = dir.join("local.pgn");
    let local = match_args(&["--pgn", local_pgn.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(local.status.success());
    let local_out = String::from_utf8(local.stdout).unwrap();
    let plan = dir.join("plan.json");
    let made = match_args(&["--plan", plan.to_str().unwrap(), "--games-per-unit", "2"])
        .output()
        .unwrap();
    assert!(made.status.success());
    assert!(
        String::from_utf8_lossy(&made.stdout)
            .contains("with 4 units of up to 2 games (8 games, depth=2)")
    );
    let results = dir.join("results");
    let unit = |k: &str| {
        let out = chuhan()
            .args(["match", "--unit", plan.to_str().unwrap(), k, "--out"])
            .arg(&results)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let merge = |pgn: &Path| {
        let out = chuhan()
            .args(["match", "--merge"])
            .arg(&results)
            .arg("--pgn")
            .arg(pgn)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    // Out of order, one unit missing: the merge is a match stopped early.
    for k in ["3", "0", "2"] {
        assert!(unit(k).ends_with(&format!("unit {k} played\n")));
    }
    let partial = merge(&dir.join("partial.pgn"));
    assert!(partial.starts_with("Games: 6 of 8; "), "{partial}");
    // A unit played twice counts once: the second run finds it done.
    assert!(unit("1").ends_with("unit 1 played\n"));
    assert!(unit("1").ends_with("unit 1 already played\n"));
    let merged_pgn = dir.join("merged.pgn");
    let merged = merge(&merged_pgn);
    assert!(merged.starts_with("Games: 8 of 8; "), "{merged}");
    assert!(merged.contains("\nSPRT: llr "), "{merged}");
    assert_eq!(merged.trim_end(), summary_of(&local_out), "{local_out}");
    let local_games = std::fs::read_to_string(&local_pgn).unwrap();
    let merged_games = std::fs::read_to_string(&merged_pgn).unwrap();
    assert_eq!(pgn::read(&merged_games).unwrap().len(), 8);
    assert_eq!(without_times(&merged_games), without_times(&local_games));
    // A unit file of another plan is refused, not merged.
    let other = dir.join("other.json");
    let made = match_args(&["--plan", other.to_str().unwrap(), "--games-per-unit", "4"])
        .output()
        .unwrap();
    assert!(made.status.success());
    let clash = chuhan()
        .args(["match", "--unit", other.to_str().unwrap(), "0", "--out"])
        .arg(&results)
        .output()
        .unwrap();
    assert_eq!(clash.status.code(), Some(2));
    let clash = String::from_utf8_lossy(&clash.stderr);
    assert!(
        clash.contains("holds plan ") && clash.contains("use another directory"),
        "{clash}"
    );
    // A unit the plan does not have, or no number at all, is refused before anything runs.
    for (k, said) in [
        ("9", "the plan has no unit 9"),
        ("x", "`x` is not a unit number"),
    ] {
        let refused = chuhan()
            .args(["match", "--unit", plan.to_str().unwrap(), k, "--out"])
            .arg(&results)
            .output()
            .unwrap();
        assert_eq!(refused.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&refused.stderr).contains(said));
    }
    std::fs::copy(results.join("unit-0.json"), results.join("unit-1.json")).unwrap();
    let bad = chuhan()
        .args(["match", "--merge"])
        .arg(&results)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unit-1.json: unit 0, not unit 1"));
}

#[test]
fn tournament_plan_units_and_merge_give_the_local_event() {
    let dir = scratch("tournament-units");
    let me = env!("CARGO_BIN_EXE_chuhan");
    let event = |out: &str| {
        let engine = |name: &str, options: serde_json::Value| serde_json::json!({"name": name, "command": me, "options": options});
        serde_json::json!({
            "event": "Unit cup",
            "engines": [
                engine("Large", serde_json::json!({"usebook": false})),
                engine("Small", serde_json::json!({"usebook": false, "knowledge": "small"})),
                engine("Hash8", serde_json::json!({"usebook": false, "hash": 8})),
                engine("Quits", serde_json::json!({"usebook": false})),
            ],
            "format": {"type": "round_robin"},
            "time_control": "60+1",
            "limit": {"depth": 1},
            "openings": [{"moves": ["h2e2", "h9g7"]}, {"moves": ["c3c4"]}],
            "withdrawals": [{"engine": "Quits", "from_round": 3}],
            "output": {"results": format!("{out}.jsonl"), "pgn": format!("{out}.pgn")}
        })
        .to_string()
    };
    std::fs::write(dir.join("local.json"), event("local")).unwrap();
    std::fs::write(dir.join("units.json"), event("units")).unwrap();
    let run = |args: &[&str]| {
        let out = chuhan().args(args).current_dir(&dir).output().unwrap();
        (
            out.status.code(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, local, err) = run(&["tournament", "local.json"]);
    assert_eq!(code, Some(0), "{err}");
    let (code, made, err) = run(&[
        "tournament",
        "units.json",
        "--plan",
        "plan.json",
        "--games-per-unit",
        "2",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(made.starts_with("Round 1 paired: "), "{made}");
    assert!(made.contains("plan.json: plan "), "{made}");
    // Each merge records what the units played and plans the games due next.
    let mut plan = "plan.json".to_string();
    let mut merged = made;
    let mut merges = 0;
    loop {
        let text = std::fs::read_to_string(dir.join(&plan)).unwrap();
        let units = serde_json::from_str::<serde_json::Value>(&text).unwrap()["units"]
            .as_array()
            .unwrap()
            .len();
        for k in (0..units).rev() {
            let (code, out, err) = run(&[
                "tournament",
                "--unit",
                &plan,
                &k.to_string(),
                "--out",
                "units",
            ]);
            assert_eq!(code, Some(0), "{err}");
            assert!(out.ends_with(&format!("unit {k} played\n")), "{out}");
        }
        let (code, out, err) = run(&["tournament", "--merge", "units"]);
        merges += 1;
        merged.push_str(&out);
        match code {
            Some(3) => plan = "units/next.json".into(),
            Some(0) => break,
            _ => panic!("{out}{err}"),
        }
    }
    assert_eq!(merges, 3);
    // A unit played again counts once.
    let (code, out, _) = run(&["tournament", "--unit", "plan.json", "0", "--out", "units"]);
    assert_eq!(code, Some(0));
    assert!(out.ends_with("unit 0 already played\n"), "{out}");
    let final_of = |s: &str| s[s.rfind("Final:").expect("a final report")..].to_string();
    assert_eq!(final_of(&merged), final_of(&local));
    // The game lines, in the same order; the same records, the same PGN.
    let games = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| l.starts_with("Game "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(games(&merged), games(&local));
    assert!(
        games(&local).iter().any(|g| g.contains("forfeit")),
        "{local}"
    );
    for ext in ["jsonl", "pgn"] {
        let read = |name: &str| {
            without_times(&std::fs::read_to_string(dir.join(format!("{name}.{ext}"))).unwrap())
        };
        assert_eq!(read("units"), read("local"), "{ext}");
    }
    // The event is over: a merge now changes nothing.
    let before = std::fs::read_to_string(dir.join("units.jsonl")).unwrap();
    let (code, _, err) = run(&["tournament", "--merge", "units"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("units.jsonl")).unwrap(),
        before
    );
}
