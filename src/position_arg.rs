//! How the commands read a position the user gives as FEN (`--fen`, or `show`'s
//! positional FEN): as GUIs and composers write it. A composed position (排局: a
//! pawn behind its starting rank, an elephant off its points) and the liberties
//! GUIs take (fields after the move number, an upper-case side letter, no side
//! field) are accepted with a warning on standard error; `--strict` refuses
//! composed positions. Everything else is checked as strictly as ever.

use chuhan_engine::core::{FenError, FenNote, Position, Validation};

/// The position of `fen`, read with `validation`; each liberty taken is printed as
/// a warning on standard error.
pub fn read(fen: &str, validation: Validation) -> Result<Position, FenError> {
    let (pos, notes) = Position::from_fen_with(fen, validation)?;
    warn(&notes);
    Ok(pos)
}

/// Prints each liberty a FEN reading took as a warning on standard error.
pub fn warn(notes: &[FenNote]) {
    for note in notes {
        eprintln!("warning: FEN: {note}");
    }
}
