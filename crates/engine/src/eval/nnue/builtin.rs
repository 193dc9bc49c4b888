//! The built-in net: `nets/chuhan.nnue`, trained by `chuhan train` on Chuhan's own
//! self-play and compiled into the executable, so that every installation
//! evaluates with it whatever its layout. The `EvalFile` option names it
//! [`BUILTIN_NAME`]; that is its default, and `UseNNUE` is on by default.

use super::network::{NetError, Network};
use std::sync::{Arc, OnceLock};

/// The name that stands for the built-in net in `EvalFile` (and the option's
/// default value).
pub const BUILTIN_NAME: &str = "builtin";

/// The shipped net's bytes, as in `nets/chuhan.nnue`.
pub const BUILTIN_BYTES: &[u8] = include_bytes!("../../../../../nets/chuhan.nnue");

/// The built-in net, loaded and validated once per process and shared. A test
/// checks that it loads.
pub fn builtin() -> Result<Arc<Network>, NetError> {
    static LOADED: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    match LOADED.get_or_init(|| Network::from_bytes(BUILTIN_BYTES).ok().map(Arc::new)) {
        Some(net) => Ok(Arc::clone(net)),
        // Only if the build embedded a damaged file: say what is wrong with it.
        None => Network::from_bytes(BUILTIN_BYTES).map(Arc::new),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Position;

    #[test]
    fn the_builtin_net_loads_and_knows_material() {
        let net = builtin().expect("the embedded net loads");
        assert!(Arc::ptr_eq(&net, &builtin().unwrap()), "loaded once");
        let start = net.evaluate(&Position::startpos());
        assert!(start.abs() < 200, "start position {start} cp");
        // Black's a-file rook removed: Red to move is a rook up, Black to move a
        // rook down.
        let fen = "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
        let red = net.evaluate(&Position::from_fen(&format!("{fen} w")).unwrap());
        let black = net.evaluate(&Position::from_fen(&format!("{fen} b")).unwrap());
        assert!(red > start + 300 && black < -300, "{red} {black}");
    }
}
