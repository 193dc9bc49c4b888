//! The rules of movement: board vocabulary, attack tables, positions, legal move
//! generation, FEN and perft; also the game vocabulary every layer above shares —
//! the game result ([`result`]) and the seeded random generator ([`splitmix`]).
//! Knows nothing of search, rules of repetition or I/O.

pub mod attacks;
pub mod bitboard;
pub mod fen;
pub mod movegen;
pub mod mv;
pub mod perft;
pub mod piece;
pub mod placement;
pub mod position;
pub mod result;
pub mod splitmix;
pub mod square;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use fen::{FenError, FenNote, FenProblem, FenProblemKind, START_FEN, Setup, Validation};
pub use movegen::{GenType, MAX_MOVES, MoveList, Terminal};
pub use mv::{Move, ParseMoveError};
pub use piece::{Color, Piece, PieceKind};
pub use placement::Placement;
pub use position::{Position, State};
pub use result::{GameResult, PlayerResult};
pub use splitmix::SplitMix64;
pub use square::{File, Rank, Square};
