//! [`PlayerId`]: an entrant, by its starting number.

use std::fmt;

/// An entrant, identified by its place in the event's player list. Players are
/// stored in order of their drawn starting number (參賽代號/序號), so the id is the
/// starting number minus one.
///
/// ```
/// use chuhan_arena::tournament::player::PlayerId;
/// let p = PlayerId(0);
/// assert_eq!(p.number(), 1);
/// assert_eq!(PlayerId::from_number(4), Some(PlayerId(3)));
/// assert_eq!(p.to_string(), "1");
/// // Files and reports use the starting number.
/// assert_eq!(serde_json::to_string(&p).unwrap(), "1");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
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

impl serde::Serialize for PlayerId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(self.number())
    }
}

impl<'de> serde::Deserialize<'de> for PlayerId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<PlayerId, D::Error> {
        let n = u32::deserialize(d)?;
        PlayerId::from_number(n)
            .ok_or_else(|| serde::de::Error::custom(format!("player number {n} out of range")))
    }
}
