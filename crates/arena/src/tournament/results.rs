//! The results file: one JSON record per line, appended as things happen, from
//! which an interrupted event is rebuilt.
//!
//! ```text
//! {"type":"header","version":1,"event":"…","format":"swiss 7 rounds","players":["A","B",…]}
//! {"type":"round","round":1,"boards":[{"board":1,"first":1,"second":2}],"byes":[]}
//! {"type":"game","round":1,"board":1,"game":1,"red":1,"black":2,"decision":{"played":"red_wins"},"termination":"checkmate","moves":["h2e2",…]}
//! ```
//!
//! Players are written by starting number. A round is written when it is paired
//! (the pairing is then fixed, 附錄二 一.8), a game when it is over; each line is
//! written with one `write` and flushed to disk before the event moves on. On
//! opening, a last line without its newline (the process died while writing it) is
//! cut off; every complete line must parse, or the file is refused rather than
//! guessed at.

use super::player::PlayerId;
use super::standings::Decision;
use crate::game::play::{GameId, Termination};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The version written in headers.
pub const VERSION: u32 = 1;

/// The first line: what event the file belongs to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// [`VERSION`].
    pub version: u32,
    /// The event's name.
    pub event: String,
    /// A summary of the format (checked on resume).
    pub format: String,
    /// Player names by starting number.
    pub players: Vec<String>,
}

/// One board of a round: the first-listed player has Red in the first game
/// (round robin and Swiss); in a knockout, the upper place of the bracket.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BoardPairing {
    /// The board number.
    pub board: u32,
    /// First-listed player.
    pub first: PlayerId,
    /// Second-listed player.
    pub second: PlayerId,
}

/// A round as paired.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRecord {
    /// The round number.
    pub round: u32,
    /// Its boards.
    pub boards: Vec<BoardPairing>,
    /// Players with a bye.
    #[serde(default)]
    pub byes: Vec<PlayerId>,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Round.
    pub round: u32,
    /// Board.
    pub board: u32,
    /// Game within the pairing.
    pub game: u32,
    /// Red.
    pub red: PlayerId,
    /// Black.
    pub black: PlayerId,
    /// The decision.
    pub decision: Decision,
    /// Why a played game ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub termination: Option<Termination>,
    /// The moves (ICCS), after the opening's forced moves.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<String>,
    /// The game in PGN, when the player gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pgn: Option<String>,
}

impl GameRecord {
    /// The game's place.
    pub fn id(&self) -> GameId {
        GameId {
            round: self.round,
            board: self.board,
            game: self.game,
        }
    }
}

/// One line of the file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Record {
    /// The header.
    Header(Header),
    /// A paired round.
    Round(RoundRecord),
    /// A finished game.
    Game(GameRecord),
}

/// Why the results file cannot be used.
#[derive(Debug)]
pub enum ResultsError {
    /// Reading or writing failed.
    Io(PathBuf, std::io::Error),
    /// A complete line does not parse.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// The line number (from 1).
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

impl fmt::Display for ResultsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResultsError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            ResultsError::Corrupt { path, line, reason } => {
                write!(
                    f,
                    "{}:{line}: not a results record: {reason}",
                    path.display()
                )
            }
        }
    }
}

impl std::error::Error for ResultsError {}

/// An open results file, positioned for appending.
#[derive(Debug)]
pub struct ResultsFile {
    path: PathBuf,
    file: File,
}

impl ResultsFile {
    /// Opens (or creates) the file and reads its records, cutting off an
    /// unfinished last line.
    pub fn open(path: &Path) -> Result<(ResultsFile, Vec<Record>), ResultsError> {
        let io = |e| ResultsError::Io(path.to_path_buf(), e);
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(io)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(io)?;
        let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        if complete < bytes.len() {
            file.set_len(complete as u64).map_err(io)?;
            file.sync_data().map_err(io)?;
        }
        let text = String::from_utf8_lossy(&bytes[..complete]);
        let mut records = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let record = serde_json::from_str(line).map_err(|e| ResultsError::Corrupt {
                path: path.to_path_buf(),
                line: i + 1,
                reason: e.to_string(),
            })?;
            records.push(record);
        }
        Ok((
            ResultsFile {
                path: path.to_path_buf(),
                file,
            },
            records,
        ))
    }

    /// Appends one record as a line and flushes it to disk.
    pub fn append(&mut self, record: &Record) -> Result<(), ResultsError> {
        let mut line = serde_json::to_string(record).expect("records serialise");
        line.push('\n');
        let io = |e| ResultsError::Io(self.path.clone(), e);
        self.file.write_all(line.as_bytes()).map_err(io)?;
        self.file.sync_data().map_err(io)
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Writes `text` to `path` through a temporary file and a rename, so readers never
/// see half a report.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    crate::work_unit::write_atomic(path, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chuhan_engine::core::GameResult;

    fn temp(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("chuhan-results-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir.join("results.jsonl")
    }

    fn game(round: u32) -> Record {
        Record::Game(GameRecord {
            round,
            board: 1,
            game: 1,
            red: PlayerId(0),
            black: PlayerId(1),
            decision: Decision::Played(GameResult::Draw),
            termination: Some(Termination::Agreement),
            moves: vec!["h2e2".into()],
            pgn: None,
        })
    }

    #[test]
    fn records_round_trip_and_a_torn_line_is_cut() {
        let path = temp("torn");
        {
            let (mut f, records) = ResultsFile::open(&path).unwrap();
            assert!(records.is_empty());
            f.append(&game(1)).unwrap();
            f.append(&game(2)).unwrap();
        }
        // Simulate a crash in the middle of writing a third line.
        let mut raw = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        raw.write_all(br#"{"type":"game","round":3,"bo"#).unwrap();
        drop(raw);
        let (mut f, records) = ResultsFile::open(&path).unwrap();
        assert_eq!(records, [game(1), game(2)]);
        f.append(&game(3)).unwrap();
        drop(f);
        let (_, records) = ResultsFile::open(&path).unwrap();
        assert_eq!(records, [game(1), game(2), game(3)]);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 3);
        assert!(text.contains(r#""decision":{"played":"draw"}"#), "{text}");
        assert!(text.contains(r#""red":1,"black":2"#), "{text}");
    }

    #[test]
    fn a_corrupt_complete_line_is_refused() {
        let path = temp("corrupt");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(
            &path,
            "{\"type\":\"round\",\"round\":1,\"boards\":[]}\nnot json\n",
        )
        .unwrap();
        match ResultsFile::open(&path) {
            Err(ResultsError::Corrupt { line, .. }) => assert_eq!(line, 2),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn atomic_writes_replace_the_file() {
        let path = temp("atomic").with_file_name("page.html");
        write_atomically(&path, "one").unwrap();
        write_atomically(&path, "two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
    }
}
