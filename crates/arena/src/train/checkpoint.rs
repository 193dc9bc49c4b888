//! [`Checkpoint`]: the trainer's state after an epoch (float parameters, Adam's
//! moments and step, the epochs done and the fingerprint of the settings), so an
//! interrupted run resumes exactly where it stopped.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `CHUHANTC` |
//! | 8 | 4 | version (1) |
//! | 12 | 4 | king buckets |
//! | 16 | 4 | hidden size |
//! | 20 | 4 | output buckets |
//! | 24 | 4 | epochs done |
//! | 28 | 4 | `K` (`f32`) |
//! | 32 | 8 | Adam steps |
//! | 40 | 8 | settings fingerprint |
//! | 48 | 8 | parameter count `N` |
//! | 56 | 8 | FNV-1a 64 checksum of the payload |
//! | 64 | 12·N | parameters, first moments, second moments (`f32`) |

use super::adam::Adam;
use super::model::FloatNet;
use chuhan_engine::binary::{Reader, fnv1a};
use chuhan_engine::eval::nnue::features::KingBuckets;
use chuhan_engine::eval::nnue::network::{Architecture, QA, QB, SCALE};
use std::fmt;
use std::io::Write;
use std::path::Path;

/// First bytes of a checkpoint.
pub const MAGIC: [u8; 8] = *b"CHUHANTC";
/// The checkpoint version this build writes and reads.
pub const VERSION: u32 = 1;
const HEADER_SIZE: usize = 64;

/// The trainer's state after an epoch.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// The float net.
    pub net: FloatNet,
    /// The optimiser.
    pub adam: Adam,
    /// Epochs finished.
    pub epochs_done: u32,
    /// The sigmoid scale used.
    pub k: f32,
    /// The fingerprint of the settings that must not change on resume.
    pub fingerprint: u64,
}

/// Why a checkpoint cannot be used.
#[derive(Debug)]
pub enum CheckpointError {
    /// Reading or writing failed.
    Io(std::io::Error),
    /// Not a checkpoint, another version, or damaged.
    Format(String),
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::Io(e) => write!(f, "{e}"),
            CheckpointError::Format(s) => write!(f, "bad checkpoint: {s}"),
        }
    }
}

impl std::error::Error for CheckpointError {}

impl Checkpoint {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut payload = Vec::with_capacity(12 * self.net.params.len());
        for x in self
            .net
            .params
            .iter()
            .chain(&self.adam.m)
            .chain(&self.adam.v)
        {
            payload.extend_from_slice(&x.to_le_bytes());
        }
        let a = &self.net.arch;
        let mut out = Vec::with_capacity(HEADER_SIZE + payload.len());
        out.extend_from_slice(&MAGIC);
        for v in [
            VERSION,
            a.king_buckets.count() as u32,
            a.hidden as u32,
            a.output_buckets as u32,
            self.epochs_done,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.k.to_le_bytes());
        for v in [
            self.adam.step,
            self.fingerprint,
            self.net.params.len() as u64,
            fnv1a(&payload),
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&payload);
        out
    }

    /// Reads a checkpoint.
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, CheckpointError> {
        let bad = |s: &str| CheckpointError::Format(s.to_string());
        let mut r = Reader::new(bytes);
        if r.bytes(8) != Some(&MAGIC[..]) {
            return Err(bad("wrong magic"));
        }
        let mut u32s = [0u32; 5];
        for v in &mut u32s {
            *v = r.u32().ok_or_else(|| bad("truncated header"))?;
        }
        let [version, buckets, hidden, outputs, epochs_done] = u32s;
        if version != VERSION {
            return Err(bad(&format!("version {version}")));
        }
        let k = r.f32().ok_or_else(|| bad("truncated header"))?;
        let mut u64s = [0u64; 4];
        for v in &mut u64s {
            *v = r.u64().ok_or_else(|| bad("truncated header"))?;
        }
        let [step, fingerprint, n, sum] = u64s;
        let king_buckets =
            KingBuckets::from_count(buckets as usize).ok_or_else(|| bad("king buckets"))?;
        let arch = Architecture {
            king_buckets,
            hidden: hidden as usize,
            output_buckets: outputs as usize,
            qa: QA,
            qb: QB,
            scale: SCALE,
        };
        let expected = super::model::Layout::new(&arch).len as u64;
        if n != expected || bytes.len() as u64 != HEADER_SIZE as u64 + 12 * n {
            return Err(bad("size does not match the architecture"));
        }
        let payload = &bytes[HEADER_SIZE..];
        if fnv1a(payload) != sum {
            return Err(bad("checksum mismatch"));
        }
        let floats: Vec<f32> = payload
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        let n = n as usize;
        Ok(Checkpoint {
            net: FloatNet {
                arch,
                params: floats[..n].to_vec(),
            },
            adam: Adam {
                m: floats[n..2 * n].to_vec(),
                v: floats[2 * n..].to_vec(),
                step,
            },
            epochs_done,
            k,
            fingerprint,
        })
    }

    /// Writes the checkpoint atomically (temporary file, then rename).
    pub fn write(&self, path: &Path) -> Result<(), CheckpointError> {
        let tmp = path.with_extension(format!("tmp-{}", std::process::id()));
        let r = (|| {
            let mut f = std::fs::File::create(&tmp)?;
            f.write_all(&self.to_bytes())?;
            f.sync_all()?;
            std::fs::rename(&tmp, path)
        })();
        if r.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        r.map_err(CheckpointError::Io)
    }

    /// Reads a checkpoint file.
    pub fn read(path: &Path) -> Result<Checkpoint, CheckpointError> {
        Checkpoint::from_bytes(&std::fs::read(path).map_err(CheckpointError::Io)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_damage() {
        let arch = Architecture {
            king_buckets: KingBuckets::Ranks,
            hidden: 4,
            output_buckets: 2,
            qa: QA,
            qb: QB,
            scale: SCALE,
        };
        let net = FloatNet::new(arch, 3);
        let n = net.params.len();
        let mut adam = Adam::new(n);
        adam.step = 77;
        adam.m[5] = 0.25;
        let c = Checkpoint {
            net,
            adam,
            epochs_done: 4,
            k: 180.5,
            fingerprint: 0xABCD,
        };
        let bytes = c.to_bytes();
        assert_eq!(Checkpoint::from_bytes(&bytes).unwrap(), c);
        let mut bad = bytes.clone();
        bad[HEADER_SIZE + 1] ^= 1;
        assert!(Checkpoint::from_bytes(&bad).is_err());
        assert!(Checkpoint::from_bytes(&bytes[..bytes.len() - 4]).is_err());
        assert!(Checkpoint::from_bytes(b"CHUHANTC").is_err());
    }
}
