//! [`Network`]: a quantised net, its versioned file format, loading with typed
//! errors, and a from-scratch integer evaluation (the reference the incremental,
//! SIMD inference in the search must match exactly).
//!
//! File layout, version 1 (little-endian; `docs/nnue.md` has the same table):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `CHUHANNN` |
//! | 8 | 4 | version (1) |
//! | 12 | 4 | feature set (1: the piece-square features of [`super::features`]) |
//! | 16 | 4 | king buckets (1, 3 or 6) |
//! | 20 | 4 | hidden size `H` per perspective |
//! | 24 | 4 | output buckets `B` |
//! | 28 | 4 | activation (1: squared clipped ReLU) |
//! | 32 | 4 | `QA` (feature-transformer scale, 255) |
//! | 36 | 4 | `QB` (output-weight scale: 64 in the first nets, chosen per net by the trainer since) |
//! | 40 | 4 | `SCALE` (centipawns per unit of output, 400) |
//! | 44 | 4 | reserved (0) |
//! | 48 | 8 | payload size in bytes |
//! | 56 | 8 | FNV-1a 64 checksum of the payload |
//! | 64 | 2·I·H | feature weights `i16`, feature-major (`I` = buckets · 1260) |
//! | … | 2·H | feature biases `i16` |
//! | … | 2·B·2H | output weights `i16`, bucket-major; per bucket the side to move's `H`, then the other side's `H` |
//! | … | 4·B | output biases `i32` |
//!
//! The evaluation, all in integers:
//!
//! ```text
//! acc_P[i] = bias[i] + Σ_{f active for P} W[f][i]           (fits i16, checked at load)
//! a_P[i]   = clamp(acc_P[i], 0, QA)
//! sum      = Σ_i a_us[i]² · V[b][i] + Σ_i a_them[i]² · V[b][H+i]   (fits i32, checked at load)
//! y        = sum / QA + c[b]                                  (division truncates toward 0)
//! cp       = y · SCALE / (QA · QB)                            (i64, truncates toward 0)
//! ```
//!
//! with `us` the side to move and `b` the output bucket of the piece count. In
//! floats this is `cp = SCALE · (Σ screlu(acc_us)·v + Σ screlu(acc_them)·v' + c)`,
//! `screlu(x) = clamp(x, 0, 1)²`.

use super::features::{KingBuckets, MAX_ACTIVE, output_bucket, position_features};
use super::simd::Kernel;
use crate::binary::{Reader, fnv1a};
use crate::core::Position;
use std::fmt;
use std::path::Path;

/// First bytes of every Chuhan net file.
pub const MAGIC: [u8; 8] = *b"CHUHANNN";
/// The format version this build writes and reads.
pub const VERSION: u32 = 1;
/// Bytes before the payload.
pub const HEADER_SIZE: usize = 64;
/// The feature set code of [`super::features`].
pub const FEATURE_SET: u32 = 1;
/// The activation code of the squared clipped ReLU.
pub const ACTIVATION_SCRELU: u32 = 1;
/// The default feature-transformer scale.
pub const QA: i32 = 255;
/// The default output-weight scale.
pub const QB: i32 = 64;
/// The default centipawns per unit of the float output.
pub const SCALE: i32 = 400;
/// The largest hidden size a file may declare.
pub const MAX_HIDDEN: usize = 4096;
/// The most output buckets a file may declare.
pub const MAX_OUTPUT_BUCKETS: usize = 32;

/// The shape and scales of a net.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Architecture {
    /// King buckets of the inputs.
    pub king_buckets: KingBuckets,
    /// Hidden neurons per perspective.
    pub hidden: usize,
    /// Output buckets by piece count.
    pub output_buckets: usize,
    /// Feature-transformer scale.
    pub qa: i32,
    /// Output-weight scale.
    pub qb: i32,
    /// Centipawns per unit of output.
    pub scale: i32,
}

impl Architecture {
    /// Inputs per perspective.
    pub fn inputs(&self) -> usize {
        self.king_buckets.inputs()
    }

    /// The payload size in bytes.
    pub fn payload_size(&self) -> usize {
        let h = self.hidden;
        2 * self.inputs() * h + 2 * h + 2 * self.output_buckets * 2 * h + 4 * self.output_buckets
    }

    /// The largest output weight `|v_q|` at which the AVX2 kernel's 16-bit
    /// products `QA · v_q` stay exact (a net with larger ones takes the scalar
    /// kernel).
    pub fn max_exact_output_weight(&self) -> i32 {
        i32::from(i16::MAX) / self.qa.max(1)
    }

    /// The largest `Σ |v_q|` over one output bucket's weights at which no output
    /// sum `Σ v_q · a²` (clipped activations `a ≤ QA`) can leave `i32`.
    pub fn max_output_row_sum(&self) -> i64 {
        i64::from(i32::MAX) / (i64::from(self.qa) * i64::from(self.qa)).max(1)
    }

    /// The shape without the scales: `(1260×6 → 256)×2 → 1×4, SCReLU`.
    pub fn shape(&self) -> String {
        format!(
            "(1260×{} → {})×2 → 1×{}, SCReLU",
            self.king_buckets.count(),
            self.hidden,
            self.output_buckets
        )
    }
}

impl fmt::Display for Architecture {
    /// `(1260×6 → 256)×2 → 1×4, SCReLU, QA 255, QB 64, scale 400`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}, QA {}, QB {}, scale {}",
            self.shape(),
            self.qa,
            self.qb,
            self.scale
        )
    }
}

/// Why a net file is refused.
#[derive(Debug)]
pub enum NetError {
    /// The file could not be read.
    Io(std::io::Error),
    /// Not a Chuhan net (wrong magic).
    Magic,
    /// A version this build does not read.
    Version(u32),
    /// A feature set, activation or shape this build does not know.
    Architecture(String),
    /// The file is shorter or longer than its header says.
    Size {
        /// Bytes expected.
        expected: u64,
        /// Bytes found.
        found: u64,
    },
    /// The checksum does not match the payload.
    Checksum,
    /// Weights so large that the integer evaluation could overflow.
    Range(String),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Io(e) => write!(f, "{e}"),
            NetError::Magic => f.write_str("not a Chuhan net file (bad magic)"),
            NetError::Version(v) => write!(f, "net format version {v}; this build reads {VERSION}"),
            NetError::Architecture(s) => write!(f, "unsupported net: {s}"),
            NetError::Size { expected, found } => {
                write!(
                    f,
                    "{found} bytes where the header says {expected} (wrong-size or truncated net)"
                )
            }
            NetError::Checksum => f.write_str("checksum mismatch (damaged net file)"),
            NetError::Range(s) => write!(f, "weights out of range: {s}"),
        }
    }
}

impl std::error::Error for NetError {}

impl From<std::io::Error> for NetError {
    fn from(e: std::io::Error) -> NetError {
        NetError::Io(e)
    }
}

/// A quantised net.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// The shape and scales.
    pub arch: Architecture,
    /// Feature weights, `inputs × hidden`, feature-major.
    pub ft_weights: Vec<i16>,
    /// Feature biases, `hidden`.
    pub ft_bias: Vec<i16>,
    /// Output weights, `output_buckets × 2·hidden`.
    pub out_weights: Vec<i16>,
    /// Output biases, `output_buckets`.
    pub out_bias: Vec<i32>,
}

impl Network {
    /// A net of `arch` with every weight 0.
    pub fn zeroed(arch: Architecture) -> Network {
        let h = arch.hidden;
        Network {
            ft_weights: vec![0; arch.inputs() * h],
            ft_bias: vec![0; h],
            out_weights: vec![0; arch.output_buckets * 2 * h],
            out_bias: vec![0; arch.output_buckets],
            arch,
        }
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let a = &self.arch;
        let mut payload = Vec::with_capacity(a.payload_size());
        for w in self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(&self.out_weights)
        {
            payload.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.out_bias {
            payload.extend_from_slice(&b.to_le_bytes());
        }
        let mut out = Vec::with_capacity(HEADER_SIZE + payload.len());
        out.extend_from_slice(&MAGIC);
        for v in [
            VERSION,
            FEATURE_SET,
            a.king_buckets.count() as u32,
            a.hidden as u32,
            a.output_buckets as u32,
            ACTIVATION_SCRELU,
            a.qa as u32,
            a.qb as u32,
            a.scale as u32,
            0,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(&fnv1a(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// Reads and validates a net: header, size, checksum, and the weight ranges
    /// that keep the integer evaluation free of overflow.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let mut r = Reader::new(bytes);
        let short = || NetError::Size {
            expected: HEADER_SIZE as u64,
            found: bytes.len() as u64,
        };
        if r.bytes(8).ok_or_else(short)? != MAGIC {
            return Err(NetError::Magic);
        }
        let mut field = || r.u32().ok_or_else(short);
        let version = field()?;
        if version != VERSION {
            return Err(NetError::Version(version));
        }
        let features = field()?;
        let buckets = field()?;
        let hidden = field()? as usize;
        let outputs = field()? as usize;
        let activation = field()?;
        let (qa, qb, scale) = (field()?, field()?, field()?);
        field()?;
        let arch_err = |s: String| Err(NetError::Architecture(s));
        if features != FEATURE_SET {
            return arch_err(format!("feature set {features}"));
        }
        if activation != ACTIVATION_SCRELU {
            return arch_err(format!("activation {activation}"));
        }
        let Some(king_buckets) = KingBuckets::from_count(buckets as usize) else {
            return arch_err(format!("{buckets} king buckets"));
        };
        if !(1..=MAX_HIDDEN).contains(&hidden) {
            return arch_err(format!("hidden size {hidden}"));
        }
        if !(1..=MAX_OUTPUT_BUCKETS).contains(&outputs) {
            return arch_err(format!("{outputs} output buckets"));
        }
        if !(1..=i16::MAX as u32).contains(&qa)
            || !(1..=i16::MAX as u32).contains(&qb)
            || !(1..=1_000_000).contains(&scale)
        {
            return arch_err(format!("scales QA {qa}, QB {qb}, SCALE {scale}"));
        }
        let arch = Architecture {
            king_buckets,
            hidden,
            output_buckets: outputs,
            qa: qa as i32,
            qb: qb as i32,
            scale: scale as i32,
        };
        let size = r.u64().ok_or_else(short)?;
        let sum = r.u64().ok_or_else(short)?;
        let expected = (HEADER_SIZE + arch.payload_size()) as u64;
        if size != arch.payload_size() as u64 || bytes.len() as u64 != expected {
            return Err(NetError::Size {
                expected,
                found: bytes.len() as u64,
            });
        }
        let payload = &bytes[HEADER_SIZE..];
        if fnv1a(payload) != sum {
            return Err(NetError::Checksum);
        }
        let mut r = Reader::new(payload);
        let mut i16s =
            |n: usize| -> Vec<i16> { (0..n).map(|_| r.i16().expect("size checked")).collect() };
        let ft_weights = i16s(arch.inputs() * hidden);
        let ft_bias = i16s(hidden);
        let out_weights = i16s(outputs * 2 * hidden);
        let out_bias = (0..outputs)
            .map(|_| r.i32().expect("size checked"))
            .collect();
        let net = Network {
            arch,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
        };
        net.check_ranges()?;
        Ok(net)
    }

    /// Checks that no accumulator can leave `i16` (bias plus the 32 largest
    /// weights of any neuron) and that no output sum can leave `i32`.
    pub fn check_ranges(&self) -> Result<(), NetError> {
        let h = self.arch.hidden;
        let mut largest: Vec<Vec<i32>> = vec![Vec::new(); h];
        for row in self.ft_weights.chunks_exact(h) {
            for (i, &w) in row.iter().enumerate() {
                let v = i32::from(w).abs();
                let top = &mut largest[i];
                if top.len() < MAX_ACTIVE {
                    top.push(v);
                } else if let Some(min) = top.iter_mut().min()
                    && v > *min
                {
                    *min = v;
                }
            }
        }
        for (i, top) in largest.iter().enumerate() {
            let bound = i32::from(self.ft_bias[i]).abs() + top.iter().sum::<i32>();
            if bound > i32::from(i16::MAX) {
                return Err(NetError::Range(format!(
                    "neuron {i} can reach {bound} in the accumulator (i16)"
                )));
            }
        }
        let row_limit = self.arch.max_output_row_sum();
        for (b, row) in self.out_weights.chunks_exact(2 * h).enumerate() {
            let sum: i64 = row.iter().map(|&w| i64::from(w).abs()).sum();
            if sum > row_limit {
                let qa = i64::from(self.arch.qa);
                return Err(NetError::Range(format!(
                    "output bucket {b} can reach {} (i32)",
                    sum * qa * qa
                )));
            }
        }
        Ok(())
    }

    /// Reads a net file (a regular file of at most
    /// [`crate::data_file::MAX_NET_BYTES`]: a FIFO or a device is refused at once).
    pub fn load(path: &Path) -> Result<Network, NetError> {
        Network::from_bytes(&crate::data_file::read(
            path,
            crate::data_file::MAX_NET_BYTES,
        )?)
    }

    /// The accumulator of one perspective, from scratch.
    pub fn accumulate(&self, features: &[u16], acc: &mut [i16]) {
        let h = self.arch.hidden;
        acc.copy_from_slice(&self.ft_bias);
        for &f in features {
            let row = &self.ft_weights[f as usize * h..(f as usize + 1) * h];
            for (a, &w) in acc.iter_mut().zip(row) {
                *a = a.wrapping_add(w);
            }
        }
    }

    /// The output in centipawns from two accumulators (side to move's first) and
    /// the output bucket.
    pub fn output(&self, us: &[i16], them: &[i16], bucket: usize) -> i32 {
        self.output_with(Kernel::Scalar, us, them, bucket)
    }

    /// [`Network::output`] computed by `kernel` (the same integers).
    #[inline]
    pub fn output_with(&self, kernel: Kernel, us: &[i16], them: &[i16], bucket: usize) -> i32 {
        let h = self.arch.hidden;
        let qa = self.arch.qa;
        let row = &self.out_weights[bucket * 2 * h..(bucket + 1) * 2 * h];
        let sum = kernel
            .screlu_dot(us, &row[..h], qa)
            .wrapping_add(kernel.screlu_dot(them, &row[h..], qa));
        let y = sum / qa + self.out_bias[bucket];
        let cp =
            i64::from(y) * i64::from(self.arch.scale) / (i64::from(qa) * i64::from(self.arch.qb));
        cp as i32
    }

    /// A net of the given shape with pseudo-random weights in the trainer's
    /// ranges (feature weights ±120, output weights ±127), for tests.
    #[cfg(test)]
    pub(crate) fn pseudo_random(
        king_buckets: KingBuckets,
        hidden: usize,
        output_buckets: usize,
        seed: u64,
    ) -> Network {
        let arch = Architecture {
            king_buckets,
            hidden,
            output_buckets,
            qa: QA,
            qb: QB,
            scale: SCALE,
        };
        let mut rng = crate::core::SplitMix64::new(seed);
        let mut r = |bound: i64| (rng.next_u64() % (2 * bound as u64 + 1)) as i64 - bound;
        let mut net = Network::zeroed(arch);
        net.ft_weights.iter_mut().for_each(|w| *w = r(120) as i16);
        net.ft_bias.iter_mut().for_each(|w| *w = r(200) as i16);
        net.out_weights.iter_mut().for_each(|w| *w = r(127) as i16);
        net.out_bias.iter_mut().for_each(|w| *w = r(20_000) as i32);
        net.check_ranges().expect("in range");
        net
    }

    /// The evaluation of `pos` in centipawns, side to move's view, computed from
    /// scratch (the reference for incremental inference).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let layout = self.arch.king_buckets;
        let us = pos.side_to_move();
        let h = self.arch.hidden;
        let mut a_us = vec![0i16; h];
        let mut a_them = vec![0i16; h];
        self.accumulate(position_features(pos, layout, us).as_slice(), &mut a_us);
        self.accumulate(position_features(pos, layout, !us).as_slice(), &mut a_them);
        let bucket = output_bucket(pos.occupied().count(), self.arch.output_buckets);
        self.output(&a_us, &a_them, bucket)
    }
}

/// Which kernels can compute a net: here rather than in `simd.rs`, so that the
/// kernels know nothing of nets.
impl Kernel {
    /// True when this kernel computes `net` exactly: the hidden size is a multiple
    /// of its lanes, and for the vector kernels `QA · max |output weight| ≤
    /// i16::MAX`.
    pub fn fits(self, net: &Network) -> bool {
        if self == Kernel::Scalar {
            return true;
        }
        let max_w = net
            .out_weights
            .iter()
            .map(|&w| i32::from(w).abs())
            .max()
            .unwrap_or(0);
        net.arch.hidden.is_multiple_of(self.lanes())
            && net.arch.qa <= i32::from(i16::MAX)
            && max_w <= net.arch.max_exact_output_weight()
    }

    /// The kernel that computes `net` on this processor: [`Kernel::detect`]'s, or
    /// the widest narrower one that [`fits`](Kernel::fits) the net; scalar at
    /// worst.
    pub fn for_net(net: &Network) -> Kernel {
        let chosen = Kernel::detect();
        Kernel::ALL
            .into_iter()
            .rev()
            .filter(|k| k.supported() && k.lanes() <= chosen.lanes())
            .find(|k| k.fits(net))
            .unwrap_or(Kernel::Scalar)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arch() -> Architecture {
        Architecture {
            king_buckets: KingBuckets::Ranks,
            hidden: 8,
            output_buckets: 2,
            qa: QA,
            qb: QB,
            scale: SCALE,
        }
    }

    fn sample() -> Network {
        let mut n = Network::zeroed(arch());
        for (i, w) in n.ft_weights.iter_mut().enumerate() {
            *w = ((i * 37 % 101) as i16) - 50;
        }
        for (i, w) in n.ft_bias.iter_mut().enumerate() {
            *w = (i as i16) * 20;
        }
        for (i, w) in n.out_weights.iter_mut().enumerate() {
            *w = ((i * 13 % 29) as i16) - 14;
        }
        n.out_bias = vec![1000, -1000];
        n
    }

    #[test]
    fn file_round_trip_and_errors() {
        let net = sample();
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), HEADER_SIZE + arch().payload_size());
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
        let mut bad = bytes.clone();
        bad[HEADER_SIZE + 3] ^= 0x40;
        assert!(matches!(Network::from_bytes(&bad), Err(NetError::Checksum)));
        assert!(matches!(
            Network::from_bytes(&bytes[..bytes.len() - 2]),
            Err(NetError::Size { .. })
        ));
        let mut magic = bytes.clone();
        magic[1] = b'X';
        assert!(matches!(Network::from_bytes(&magic), Err(NetError::Magic)));
        let mut version = bytes.clone();
        version[8] = 2;
        assert!(matches!(
            Network::from_bytes(&version),
            Err(NetError::Version(2))
        ));
        let mut buckets = bytes.clone();
        buckets[16] = 5;
        assert!(matches!(
            Network::from_bytes(&buckets),
            Err(NetError::Architecture(_))
        ));
        assert!(Network::from_bytes(&[]).is_err());
        assert!(Network::from_bytes(b"CHUHANNN").is_err());
    }

    #[test]
    fn ranges_are_checked() {
        let mut net = sample();
        net.ft_weights.iter_mut().for_each(|w| *w = 1200);
        let bytes = net.to_bytes();
        assert!(matches!(
            Network::from_bytes(&bytes),
            Err(NetError::Range(_))
        ));
        let mut net = sample();
        net.out_weights.iter_mut().for_each(|w| *w = 3000);
        assert!(matches!(net.check_ranges(), Err(NetError::Range(_))));
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        let net = sample();
        for fen in [
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(net.evaluate(&pos), net.evaluate(&pos.flip()), "{fen}");
        }
        assert_ne!(net.evaluate(&Position::startpos()), 0);
    }
}
