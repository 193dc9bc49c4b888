//! The neural evaluation (NNUE): what the trainer (`chuhan train`) and the search
//! share.
//!
//! * [`features`]: the inputs, piece-square features per perspective with file
//!   mirroring and optional king buckets, and the output bucket by piece count;
//! * [`network`]: the quantised net, its versioned file format (magic, version,
//!   architecture, checksum), loading with typed errors ([`network::NetError`]), and
//!   a from-scratch integer evaluation, the reference for incremental inference.
//!
//! The architecture, the training and the quantisation are described in
//! `docs/nnue.md`.

pub mod features;
pub mod network;

pub use features::KingBuckets;
pub use network::{Architecture, NetError, Network};
