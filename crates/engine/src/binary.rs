//! Little-endian fields of Chuhan's binary files (books, self-play data, network
//! files): a bounds-checked [`Reader`] and the [`fnv1a`] checksum they carry.
//! Writers append with `to_le_bytes`.

/// FNV-1a, 64 bits: detects every change confined to one byte (each step is a
/// bijection of the running state), which is what a file checksum needs here.
///
/// ```
/// use chuhan_engine::binary::fnv1a;
/// assert_eq!(fnv1a(b""), 0xCBF2_9CE4_8422_2325);
/// assert_ne!(fnv1a(b"a"), fnv1a(b"b"));
/// ```
pub fn fnv1a(data: &[u8]) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for &b in data {
        h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

/// Reads little-endian fields from a byte slice in order; every read returns
/// `None` past the end instead of panicking.
///
/// ```
/// use chuhan_engine::binary::Reader;
/// let mut r = Reader::new(&[1, 0, 0xFF, 0xFF, 7]);
/// assert_eq!(r.u16(), Some(1));
/// assert_eq!(r.i16(), Some(-1));
/// assert_eq!(r.u16(), None);
/// assert_eq!(r.u8(), Some(7));
/// ```
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `data`.
    pub fn new(data: &'a [u8]) -> Reader<'a> {
        Reader { data, at: 0 }
    }

    /// The offset of the next byte to read.
    pub fn offset(&self) -> usize {
        self.at
    }

    /// The next `n` bytes.
    pub fn bytes(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let out = self.data.get(self.at..end)?;
        self.at = end;
        Some(out)
    }

    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.bytes(N).map(|b| b.try_into().expect("N bytes"))
    }

    /// A byte.
    pub fn u8(&mut self) -> Option<u8> {
        self.array::<1>().map(|b| b[0])
    }

    /// A `u16`.
    pub fn u16(&mut self) -> Option<u16> {
        self.array().map(u16::from_le_bytes)
    }

    /// An `i16`.
    pub fn i16(&mut self) -> Option<i16> {
        self.array().map(i16::from_le_bytes)
    }

    /// A `u32`.
    pub fn u32(&mut self) -> Option<u32> {
        self.array().map(u32::from_le_bytes)
    }

    /// An `i32`.
    pub fn i32(&mut self) -> Option<i32> {
        self.array().map(i32::from_le_bytes)
    }

    /// A `u64`.
    pub fn u64(&mut self) -> Option<u64> {
        self.array().map(u64::from_le_bytes)
    }

    /// A `u128`.
    pub fn u128(&mut self) -> Option<u128> {
        self.array().map(u128::from_le_bytes)
    }

    /// An `f32`.
    pub fn f32(&mut self) -> Option<f32> {
        self.array().map(f32::from_le_bytes)
    }
}
