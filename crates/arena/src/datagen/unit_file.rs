//! The file one work unit writes (`unit-K.bin`): a header, the unit's records and a
//! table of its games. Layout, version 1 (little-endian; `docs/datagen-format.md`
//! has the same tables for people who write tools):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `CHUHANDG` |
//! | 8 | 4 | version (1) |
//! | 12 | 4 | record size (40) |
//! | 16 | 8 | run id: the hash of the plan's settings, openings and engine version |
//! | 24 | 4 | unit index `K` |
//! | 28 | 4 | number of games `G` |
//! | 32 | 8 | index of the unit's first game |
//! | 40 | 8 | number of records `R` |
//! | 48 | 8 | FNV-1a 64 checksum of every byte after the header |
//! | 56 | 8 | reserved (0) |
//! | 64 | 40·R | records ([`super::record`]), game by game in game order |
//! | 64+40·R | 8·G | games: plies `u16`, result `u8` (0 Red won, 1 Black won, 2 drawn), termination `u8` ([`termination_code`]), records kept `u32` |
//!
//! Files are written to a temporary name and renamed, so a unit file either is
//! complete or does not exist.

use super::record::{RECORD_SIZE, Record, RecordError};
use crate::game::play::Termination;
use chuhan_engine::binary::{Reader, fnv1a};
use chuhan_engine::core::GameResult;
use std::fmt;
use std::path::{Path, PathBuf};

/// First bytes of every unit file.
pub const MAGIC: [u8; 8] = *b"CHUHANDG";
/// The format version this build writes and reads.
pub const VERSION: u32 = 1;
/// Bytes before the first record.
pub const HEADER_SIZE: usize = 64;
/// Bytes per game in the game table.
pub const GAME_SIZE: usize = 8;

/// The file name of unit `k` in a data directory.
pub fn file_name(k: u32) -> String {
    format!("unit-{k}.bin")
}

/// The path of unit `k`'s file in `dir`.
pub fn path(dir: &Path, k: u32) -> PathBuf {
    dir.join(file_name(k))
}

/// The terminations a game can have here, in the order of their codes.
const TERMINATIONS: [Termination; 7] = [
    Termination::Checkmate,
    Termination::Stalemate,
    Termination::RepetitionLoss,
    Termination::RepetitionDraw,
    Termination::MoveLimit,
    Termination::DeadPosition,
    Termination::Adjudication,
];

/// The stored code of a termination: 0 checkmate, 1 stalemate (困斃), 2 repetition
/// loss, 3 repetition draw, 4 sixty-move limit, 5 dead position, 6 adjudication.
/// `None` for terminations self-play never has (time, illegal moves, …).
pub fn termination_code(t: Termination) -> Option<u8> {
    TERMINATIONS.iter().position(|&x| x == t).map(|i| i as u8)
}

fn winner_code(w: GameResult) -> u8 {
    match w {
        GameResult::RedWins => 0,
        GameResult::BlackWins => 1,
        GameResult::Draw => 2,
    }
}

fn winner_from(c: u8) -> Option<GameResult> {
    match c {
        0 => Some(GameResult::RedWins),
        1 => Some(GameResult::BlackWins),
        2 => Some(GameResult::Draw),
        _ => None,
    }
}

/// One game of a unit, as the game table keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// Plies played (opening and random plies included).
    pub plies: u16,
    /// The result.
    pub winner: GameResult,
    /// Why it ended.
    pub termination: Termination,
    /// Records kept from it (after filters and de-duplication).
    pub records: u32,
}

/// A unit's data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitData {
    /// The run the unit belongs to.
    pub run_id: u64,
    /// The unit's index.
    pub unit: u32,
    /// Index of its first game.
    pub first_game: u64,
    /// The records, game by game.
    pub records: Vec<Record>,
    /// The games, in game order.
    pub games: Vec<GameSummary>,
}

/// Why a unit file cannot be read (or written).
#[derive(Debug)]
pub enum UnitFileError {
    /// Reading or writing failed.
    Io(std::io::Error),
    /// Not a unit file (wrong magic).
    Magic,
    /// A version this build does not read.
    Version(u32),
    /// A record size this build does not read.
    RecordSize(u32),
    /// The file is shorter or longer than its header says.
    Size {
        /// Bytes expected.
        expected: u64,
        /// Bytes found.
        found: u64,
    },
    /// The checksum does not match.
    Checksum,
    /// A record is damaged.
    Record {
        /// Its index in the file.
        index: u64,
        /// What is wrong.
        error: RecordError,
    },
    /// A game entry is damaged.
    Game(u32),
    /// The game table's record counts do not add up to the records.
    Counts,
}

impl fmt::Display for UnitFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnitFileError::Io(e) => write!(f, "{e}"),
            UnitFileError::Magic => f.write_str("not a Chuhan data unit (bad magic)"),
            UnitFileError::Version(v) => {
                write!(f, "format version {v}; this build reads {VERSION}")
            }
            UnitFileError::RecordSize(s) => {
                write!(f, "record size {s}; this build reads {RECORD_SIZE}")
            }
            UnitFileError::Size { expected, found } => {
                write!(f, "{found} bytes where the header says {expected}")
            }
            UnitFileError::Checksum => f.write_str("checksum mismatch (damaged file)"),
            UnitFileError::Record { index, error } => write!(f, "record {index}: {error}"),
            UnitFileError::Game(g) => write!(f, "game entry {g} is damaged"),
            UnitFileError::Counts => {
                f.write_str("the game table's record counts do not match the records")
            }
        }
    }
}

impl std::error::Error for UnitFileError {}

impl From<std::io::Error> for UnitFileError {
    fn from(e: std::io::Error) -> UnitFileError {
        UnitFileError::Io(e)
    }
}

/// The header fields, read without the body (to check a finished unit quickly).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// The run id.
    pub run_id: u64,
    /// The unit index.
    pub unit: u32,
    /// Games in the unit.
    pub games: u32,
    /// Index of the first game.
    pub first_game: u64,
    /// Records in the unit.
    pub records: u64,
    /// The checksum of the body.
    pub checksum: u64,
}

impl Header {
    /// Reads and checks a header (magic, version, record size).
    pub fn parse(bytes: &[u8]) -> Result<Header, UnitFileError> {
        let mut r = Reader::new(bytes);
        let short = || UnitFileError::Size {
            expected: HEADER_SIZE as u64,
            found: bytes.len() as u64,
        };
        if r.bytes(8).ok_or_else(short)? != MAGIC {
            return Err(UnitFileError::Magic);
        }
        let version = r.u32().ok_or_else(short)?;
        if version != VERSION {
            return Err(UnitFileError::Version(version));
        }
        let size = r.u32().ok_or_else(short)?;
        if size as usize != RECORD_SIZE {
            return Err(UnitFileError::RecordSize(size));
        }
        let run_id = r.u64().ok_or_else(short)?;
        let unit = r.u32().ok_or_else(short)?;
        let games = r.u32().ok_or_else(short)?;
        let first_game = r.u64().ok_or_else(short)?;
        let records = r.u64().ok_or_else(short)?;
        let checksum = r.u64().ok_or_else(short)?;
        r.u64().ok_or_else(short)?;
        Ok(Header {
            run_id,
            unit,
            games,
            first_game,
            records,
            checksum,
        })
    }

    /// The file size this header announces.
    pub fn file_size(&self) -> u64 {
        HEADER_SIZE as u64
            + self.records.saturating_mul(RECORD_SIZE as u64)
            + u64::from(self.games) * GAME_SIZE as u64
    }
}

impl UnitData {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body =
            Vec::with_capacity(self.records.len() * RECORD_SIZE + self.games.len() * GAME_SIZE);
        for r in &self.records {
            body.extend_from_slice(&r.to_bytes());
        }
        for g in &self.games {
            body.extend_from_slice(&g.plies.to_le_bytes());
            body.push(winner_code(g.winner));
            body.push(termination_code(g.termination).unwrap_or(u8::MAX));
            body.extend_from_slice(&g.records.to_le_bytes());
        }
        let mut out = Vec::with_capacity(HEADER_SIZE + body.len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(RECORD_SIZE as u32).to_le_bytes());
        out.extend_from_slice(&self.run_id.to_le_bytes());
        out.extend_from_slice(&self.unit.to_le_bytes());
        out.extend_from_slice(&(self.games.len() as u32).to_le_bytes());
        out.extend_from_slice(&self.first_game.to_le_bytes());
        out.extend_from_slice(&(self.records.len() as u64).to_le_bytes());
        out.extend_from_slice(&fnv1a(&body).to_le_bytes());
        out.extend_from_slice(&0u64.to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// Reads and fully checks a unit file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<UnitData, UnitFileError> {
        let h = Header::parse(bytes)?;
        if h.file_size() != bytes.len() as u64 {
            return Err(UnitFileError::Size {
                expected: h.file_size(),
                found: bytes.len() as u64,
            });
        }
        let body = &bytes[HEADER_SIZE..];
        if fnv1a(body) != h.checksum {
            return Err(UnitFileError::Checksum);
        }
        let n = h.records as usize;
        let records = body[..n * RECORD_SIZE]
            .chunks_exact(RECORD_SIZE)
            .enumerate()
            .map(|(i, c)| {
                Record::from_bytes(c).map_err(|error| UnitFileError::Record {
                    index: i as u64,
                    error,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut games = Vec::with_capacity(h.games as usize);
        for (g, c) in body[n * RECORD_SIZE..].chunks_exact(GAME_SIZE).enumerate() {
            let mut r = Reader::new(c);
            let bad = || UnitFileError::Game(g as u32);
            let plies = r.u16().ok_or_else(bad)?;
            let winner = r.u8().and_then(winner_from).ok_or_else(bad)?;
            let termination = r
                .u8()
                .and_then(|t| TERMINATIONS.get(t as usize).copied())
                .ok_or_else(bad)?;
            let kept = r.u32().ok_or_else(bad)?;
            games.push(GameSummary {
                plies,
                winner,
                termination,
                records: kept,
            });
        }
        if games.iter().map(|g| u64::from(g.records)).sum::<u64>() != h.records {
            return Err(UnitFileError::Counts);
        }
        Ok(UnitData {
            run_id: h.run_id,
            unit: h.unit,
            first_game: h.first_game,
            records,
            games,
        })
    }

    /// Reads a unit file.
    pub fn read(path: &Path) -> Result<UnitData, UnitFileError> {
        UnitData::from_bytes(&std::fs::read(path)?)
    }

    /// Writes the unit to `dir/unit-K.bin` atomically: to a temporary file in
    /// `dir` first, flushed to disk, then renamed over the final name.
    pub fn write_atomic(&self, dir: &Path) -> Result<PathBuf, UnitFileError> {
        let final_path = path(dir, self.unit);
        crate::work_unit::write_atomic(&final_path, &self.to_bytes())?;
        Ok(final_path)
    }
}

/// The header of the unit file at `path`, if it exists and its size matches the
/// header (a quick check that the unit is finished; [`UnitData::read`] checks all).
pub fn finished_header(path: &Path) -> Result<Option<Header>, UnitFileError> {
    use std::io::Read;
    let mut f = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    let mut head = [0u8; HEADER_SIZE];
    f.read_exact(&mut head)?;
    let h = Header::parse(&head)?;
    let len = f.metadata()?.len();
    if len != h.file_size() {
        return Err(UnitFileError::Size {
            expected: h.file_size(),
            found: len,
        });
    }
    Ok(Some(h))
}

/// The unit files in `dir`, sorted by unit index.
pub fn list(dir: &Path) -> std::io::Result<Vec<(u32, PathBuf)>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if let Some(k) = name
            .strip_prefix("unit-")
            .and_then(|s| s.strip_suffix(".bin"))
            .and_then(|s| s.parse::<u32>().ok())
        {
            out.push((k, entry.path()));
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::record::Flags;
    use super::*;
    use chuhan_engine::core::PlayerResult;
    use chuhan_engine::core::Position;

    fn sample() -> UnitData {
        let mut pos = Position::startpos();
        let mut records = Vec::new();
        for m in ["h2e2", "h9g7", "h0g2"] {
            records.push(Record::new(&pos, 12, PlayerResult::Win, Flags::default()));
            pos.make_move(m.parse().unwrap());
        }
        UnitData {
            run_id: 0xDEAD_BEEF,
            unit: 3,
            first_game: 6,
            records,
            games: vec![
                GameSummary {
                    plies: 80,
                    winner: GameResult::RedWins,
                    termination: Termination::Checkmate,
                    records: 3,
                },
                GameSummary {
                    plies: 9,
                    winner: GameResult::Draw,
                    termination: Termination::Adjudication,
                    records: 0,
                },
            ],
        }
    }

    #[test]
    fn round_trip_and_atomic_write() {
        let u = sample();
        let bytes = u.to_bytes();
        assert_eq!(bytes.len(), HEADER_SIZE + 3 * RECORD_SIZE + 2 * GAME_SIZE);
        assert_eq!(UnitData::from_bytes(&bytes).unwrap(), u);
        let dir = std::env::temp_dir().join(format!("chuhan-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = u.write_atomic(&dir).unwrap();
        assert_eq!(p, path(&dir, 3));
        assert_eq!(UnitData::read(&p).unwrap(), u);
        assert_eq!(finished_header(&p).unwrap().unwrap().records, 3);
        assert!(finished_header(&path(&dir, 4)).unwrap().is_none());
        assert_eq!(list(&dir).unwrap(), vec![(3, p)]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn damage_is_detected() {
        let bytes = sample().to_bytes();
        let mut flipped = bytes.clone();
        flipped[HEADER_SIZE + 5] ^= 1;
        assert!(matches!(
            UnitData::from_bytes(&flipped),
            Err(UnitFileError::Checksum)
        ));
        assert!(matches!(
            UnitData::from_bytes(&bytes[..bytes.len() - 1]),
            Err(UnitFileError::Size { .. })
        ));
        let mut magic = bytes.clone();
        magic[0] = b'X';
        assert!(matches!(
            UnitData::from_bytes(&magic),
            Err(UnitFileError::Magic)
        ));
        let mut version = bytes.clone();
        version[8] = 9;
        assert!(matches!(
            UnitData::from_bytes(&version),
            Err(UnitFileError::Version(9))
        ));
        assert!(UnitData::from_bytes(&[]).is_err());
    }

    #[test]
    fn every_termination_has_a_code() {
        for (i, t) in TERMINATIONS.iter().enumerate() {
            assert_eq!(termination_code(*t), Some(i as u8));
        }
        assert_eq!(termination_code(Termination::TimeForfeit), None);
    }
}
