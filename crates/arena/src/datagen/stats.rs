//! [`Stats`]: what a data directory holds (`chuhan datagen --stats DIR`): units,
//! games, records, results, terminations, game lengths and a score histogram.

use super::record::{Flags, Record, result_code};
use super::unit_file::{self, UnitData, UnitFileError};
use crate::game::play::Termination;
use chuhan_engine::core::{GameResult, PlayerResult};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

/// Bucket edges of the score histogram (centipawns, side to move's view); a score
/// falls in the first bucket whose upper edge is above it.
pub const SCORE_EDGES: [i32; 12] = [
    -1000, -500, -300, -200, -100, -50, 50, 100, 200, 300, 500, 1000,
];

/// Totals over the units of one or more directories.
#[derive(Clone, Debug, PartialEq)]
pub struct Stats {
    /// Unit files read.
    pub units: usize,
    /// Distinct run ids seen.
    pub runs: BTreeSet<u64>,
    /// Games.
    pub games: u64,
    /// Plies over all games.
    pub plies: u64,
    /// Game results: Red wins, Black wins, draws.
    pub winners: [u64; 3],
    /// Games per termination.
    pub terminations: BTreeMap<String, u64>,
    /// Records.
    pub records: u64,
    /// Records per result for the side to move: loss, draw, win.
    pub results: [u64; 3],
    /// Records with Red to move.
    pub red_to_move: u64,
    /// Records whose result came from adjudication.
    pub adjudicated: u64,
    /// Records with a clamped mate score.
    pub mates: u64,
    /// Score histogram: `SCORE_EDGES.len() + 1` buckets.
    pub histogram: Vec<u64>,
    /// Sum of scores, for the mean.
    pub score_sum: i64,
    /// Sum of absolute scores.
    pub abs_score_sum: u64,
    /// Records per piece count (index = pieces on the board).
    pub pieces: [u64; 33],
    /// Unit files that could not be read, with the reason.
    pub damaged: Vec<(PathBuf, String)>,
}

impl Default for Stats {
    fn default() -> Stats {
        Stats {
            units: 0,
            runs: BTreeSet::new(),
            games: 0,
            plies: 0,
            winners: [0; 3],
            terminations: BTreeMap::new(),
            records: 0,
            results: [0; 3],
            red_to_move: 0,
            adjudicated: 0,
            mates: 0,
            histogram: vec![0; SCORE_EDGES.len() + 1],
            score_sum: 0,
            abs_score_sum: 0,
            pieces: [0; 33],
            damaged: Vec::new(),
        }
    }
}

impl Stats {
    /// Adds one record.
    pub fn add_record(&mut self, r: &Record) {
        self.records += 1;
        self.results[result_code(r.result) as usize] += 1;
        if r.side == chuhan_engine::core::Color::Red {
            self.red_to_move += 1;
        }
        if r.flags.contains(Flags::ADJUDICATED) {
            self.adjudicated += 1;
        }
        if r.flags.contains(Flags::MATE) {
            self.mates += 1;
        }
        let s = i32::from(r.score);
        let b = SCORE_EDGES
            .iter()
            .position(|&e| s < e)
            .unwrap_or(SCORE_EDGES.len());
        self.histogram[b] += 1;
        self.score_sum += i64::from(s);
        self.abs_score_sum += u64::from(s.unsigned_abs());
        self.pieces[(r.piece_count() as usize).min(32)] += 1;
    }

    /// Adds one unit.
    pub fn add_unit(&mut self, u: &UnitData) {
        self.units += 1;
        self.runs.insert(u.run_id);
        for g in &u.games {
            self.games += 1;
            self.plies += u64::from(g.plies);
            self.winners[match g.winner {
                GameResult::RedWins => 0,
                GameResult::BlackWins => 1,
                GameResult::Draw => 2,
            }] += 1;
            *self
                .terminations
                .entry(termination_name(g.termination, g.winner))
                .or_default() += 1;
        }
        for r in &u.records {
            self.add_record(r);
        }
    }

    /// Adds the totals of `other`.
    pub fn merge(&mut self, other: &Stats) {
        self.units += other.units;
        self.runs.extend(other.runs.iter().copied());
        self.games += other.games;
        self.plies += other.plies;
        for (k, v) in &other.terminations {
            *self.terminations.entry(k.clone()).or_default() += v;
        }
        self.records += other.records;
        for i in 0..3 {
            self.winners[i] += other.winners[i];
            self.results[i] += other.results[i];
        }
        self.red_to_move += other.red_to_move;
        self.adjudicated += other.adjudicated;
        self.mates += other.mates;
        for (a, b) in self.histogram.iter_mut().zip(&other.histogram) {
            *a += b;
        }
        self.score_sum += other.score_sum;
        self.abs_score_sum += other.abs_score_sum;
        for (a, b) in self.pieces.iter_mut().zip(&other.pieces) {
            *a += b;
        }
        self.damaged.extend(other.damaged.iter().cloned());
    }

    /// Reads every unit file of `dir`.
    pub fn of_dir(dir: &Path) -> std::io::Result<Stats> {
        let mut s = Stats::default();
        for (_, path) in unit_file::list(dir)? {
            match UnitData::read(&path) {
                Ok(u) => s.add_unit(&u),
                Err(e) => s.damaged.push((path, e.to_string())),
            }
        }
        Ok(s)
    }
}

fn termination_name(t: Termination, w: GameResult) -> String {
    match (t, w) {
        (Termination::Adjudication, GameResult::Draw) => "draw adjudication".into(),
        (Termination::Adjudication, _) => "resign adjudication".into(),
        _ => t.describe().to_string(),
    }
}

fn pct(n: u64, of: u64) -> f64 {
    100.0 * n as f64 / of.max(1) as f64
}

impl fmt::Display for Stats {
    /// The report `chuhan datagen --stats` prints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "units {}  runs {}  games {}  records {} ({:.1} per game, {} bytes)",
            self.units,
            self.runs.len(),
            self.games,
            self.records,
            self.records as f64 / self.games.max(1) as f64,
            self.records * super::record::RECORD_SIZE as u64
        )?;
        writeln!(
            f,
            "games: Red wins {} ({:.1}%), Black wins {} ({:.1}%), draws {} ({:.1}%); \
             mean length {:.1} plies",
            self.winners[0],
            pct(self.winners[0], self.games),
            self.winners[1],
            pct(self.winners[1], self.games),
            self.winners[2],
            pct(self.winners[2], self.games),
            self.plies as f64 / self.games.max(1) as f64
        )?;
        let terms: Vec<String> = self
            .terminations
            .iter()
            .map(|(k, v)| format!("{k} {v} ({:.1}%)", pct(*v, self.games)))
            .collect();
        writeln!(f, "terminations: {}", terms.join(", "))?;
        writeln!(
            f,
            "records, side to move's result: win {} ({:.1}%), draw {} ({:.1}%), loss {} ({:.1}%); \
             Red to move {:.1}%; adjudicated {:.1}%; mate scores {}",
            self.results[result_code(PlayerResult::Win) as usize],
            pct(
                self.results[result_code(PlayerResult::Win) as usize],
                self.records
            ),
            self.results[result_code(PlayerResult::Draw) as usize],
            pct(
                self.results[result_code(PlayerResult::Draw) as usize],
                self.records
            ),
            self.results[result_code(PlayerResult::Loss) as usize],
            pct(
                self.results[result_code(PlayerResult::Loss) as usize],
                self.records
            ),
            pct(self.red_to_move, self.records),
            pct(self.adjudicated, self.records),
            self.mates
        )?;
        writeln!(
            f,
            "score (side to move, cp): mean {:+.1}, mean |score| {:.1}",
            self.score_sum as f64 / self.records.max(1) as f64,
            self.abs_score_sum as f64 / self.records.max(1) as f64
        )?;
        let most = self.histogram.iter().copied().max().unwrap_or(0).max(1);
        for (b, &n) in self.histogram.iter().enumerate() {
            let label = match b {
                0 => format!("< {}", SCORE_EDGES[0]),
                b if b == SCORE_EDGES.len() => format!(">= {}", SCORE_EDGES[b - 1]),
                b => format!("{} .. {}", SCORE_EDGES[b - 1], SCORE_EDGES[b] - 1),
            };
            let bar = "#".repeat((n * 40).div_ceil(most) as usize);
            writeln!(
                f,
                "  {label:>13} {n:>10} {:>5.1}% {bar}",
                pct(n, self.records)
            )?;
        }
        let phases: Vec<String> = [(26, 33), (18, 26), (10, 18), (0, 10)]
            .iter()
            .map(|&(lo, hi)| {
                let n: u64 = self.pieces[lo..hi].iter().sum();
                format!("{lo}-{} {:.1}%", hi - 1, pct(n, self.records))
            })
            .collect();
        writeln!(f, "pieces on the board: {}", phases.join(", "))?;
        for (p, e) in &self.damaged {
            writeln!(f, "damaged: {}: {e}", p.display())?;
        }
        Ok(())
    }
}

/// Reads every record of the unit files in `dirs` (each a directory of unit files
/// or one unit file), in directory and unit order.
pub fn read_records(dirs: &[PathBuf]) -> Result<Vec<Record>, (PathBuf, UnitFileError)> {
    let mut out = Vec::new();
    for d in dirs {
        let files = if d.is_dir() {
            unit_file::list(d)
                .map_err(|e| (d.clone(), UnitFileError::Io(e)))?
                .into_iter()
                .map(|(_, p)| p)
                .collect()
        } else {
            vec![d.clone()]
        };
        for p in files {
            let u = UnitData::read(&p).map_err(|e| (p.clone(), e))?;
            out.extend(u.records);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chuhan_engine::core::Position;

    #[test]
    fn histogram_buckets() {
        let mut s = Stats::default();
        for score in [-2000, -1000, -1, 0, 49, 50, 999, 1000, 5000] {
            s.add_record(&Record::new(
                &Position::startpos(),
                score,
                PlayerResult::Draw,
                Flags::default(),
            ));
        }
        assert_eq!(s.histogram.iter().sum::<u64>(), 9);
        assert_eq!(s.histogram[0], 1); // -2000
        assert_eq!(s.histogram[1], 1); // -1000
        assert_eq!(s.histogram[6], 3); // -1, 0, 49
        assert_eq!(s.histogram[7], 1); // 50
        assert_eq!(s.histogram[12], 2); // 1000, 5000
        assert_eq!(s.results[result_code(PlayerResult::Draw) as usize], 9);
        assert_eq!(s.pieces[32], 9);
        assert!(s.to_string().contains("records 9"));
    }
}
