//! [`PlayerId`]: an entrant, by its starting number.

use serde::{Deserialize, Serialize};
use std::fmt;

/// An entrant, identified by its place in the event's player list. Players are
/// stored in order of their drawn starting number (參賽代號/序號), so the id is the
/// starting number minus one.
///
/// ```
/// use chuhan::tools::tournament::player::PlayerId;
/// let p = PlayerId(0);
/// assert_eq!(p.number(), 1);
/// assert_eq!(PlayerId::from_number(4), Some(PlayerId(3)));
/// assert_eq!(p.to_string(), "1");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerId(pub u16);

impl PlayerId {
    /// The index into the player list.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The starting number (from 1).
    pub fn number(self) -> u32 {
        u32::from(self.0) + 1
    }

    /// The player with starting number `n` (from 1).
    pub fn from_number(n: u32) -> Option<PlayerId> {
        n.checked_sub(1)
            .and_then(|i| u16::try_from(i).ok())
            .map(PlayerId)
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}
