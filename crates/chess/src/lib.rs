//! Kogge's chess core: bitboards, legal move generation (standard chess and Chess960), FEN/EPD,
//! the packed 32-byte position the GPU uses, and perft.

pub mod attacks;
pub mod bitboard;
pub mod board;
pub mod castling;
pub mod epd;
pub mod fen;
pub mod fuzzing;
pub mod kogge_stone;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod packed;
pub mod perft;
pub mod reference;
pub mod sliders;
pub mod tables;
pub mod testdata;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::{Board, IllegalMove, STARTPOS_FEN};
pub use castling::{CastleRights, Wing};
pub use epd::{Epd, EpdError};
pub use fen::FenError;
pub use moves::{Move, MoveKind, MoveList};
pub use notation::MoveParseError;
pub use packed::{PackError, PackedBoard};
pub use types::{Color, File, Piece, PieceType, Rank, Square};
