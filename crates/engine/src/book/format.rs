//! The version numbers of Chuhan's own book format, read by the reader
//! ([`super::own`]) and named in its errors ([`super::error`]).

/// The binary format version this build writes and reads.
pub const VERSION: u16 = 1;
