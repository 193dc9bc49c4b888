//! The neural evaluation (NNUE): what the trainer (`chuhan train`) and the search
//! share, and the search's inference.
//!
//! * [`features`]: the inputs, piece-square features per perspective with file
//!   mirroring and optional king buckets, and the output bucket by piece count;
//! * [`network`]: the quantised net, its versioned file format (magic, version,
//!   architecture, checksum), loading with typed errors ([`network::NetError`]), and
//!   a from-scratch integer evaluation, the reference for incremental inference;
//! * [`accumulator`]: the search's per-ply accumulators, updated incrementally on
//!   make and unmake;
//! * [`simd`]: the inference loops, portable and AVX2, chosen at run time;
//! * [`builtin`]: the shipped net, compiled into the executable.
//!
//! The architecture, the training, the quantisation and the inference are
//! described in `docs/nnue.md`.

pub mod accumulator;
pub mod builtin;
pub mod features;
pub mod network;
pub mod simd;

pub use accumulator::Accumulators;
pub use features::KingBuckets;
pub use network::{Architecture, NetError, Network};
pub use simd::Kernel;
