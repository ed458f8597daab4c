//! FEN parsing and printing. Castling accepts standard `KQkq`, X-FEN (`KQkq` meaning the outermost
//! rook, a file letter for an inner one) and Shredder-FEN (`HAha`). Every malformed or impossible
//! position is a [`FenError`] that says what is wrong and where; nothing panics.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::castling::{CastleRights, Wing};
use crate::sliders::Magic;
use crate::types::{Color, File, Piece, PieceType, Rank, Square};
use crate::zobrist;
use std::fmt::Write as _;
use thiserror::Error;

/// What is wrong with a FEN string.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError {
    #[error("expected 4 to 6 fields (board, side, castling, en passant, clocks), found {0}")]
    FieldCount(usize),
    #[error("expected 8 ranks separated by '/', found {0}")]
    RankCount(usize),
    #[error("rank {rank} describes {squares} squares instead of 8")]
    RankLength { rank: char, squares: usize },
    #[error("unknown piece letter '{letter}' on rank {rank}")]
    UnknownPiece { letter: char, rank: char },
    #[error("{color:?} has {count} kings; exactly one is required")]
    KingCount { color: Color, count: u32 },
    #[error("a pawn stands on {0}, on the first or last rank")]
    PawnOnBackRank(Square),
    #[error("{color:?} has too many pieces ({pieces} pieces, {pawns} pawns)")]
    TooManyPieces {
        color: Color,
        pieces: u32,
        pawns: u32,
    },
    #[error("side to move must be 'w' or 'b', found '{0}'")]
    SideToMove(String),
    #[error("invalid castling field '{field}': {reason}")]
    Castling { field: String, reason: String },
    #[error("invalid en-passant field '{field}': {reason}")]
    EnPassant { field: String, reason: String },
    #[error("half-move clock must be a number from 0 to 65535, found '{0}'")]
    HalfmoveClock(String),
    #[error("full-move number must be a number from 1 to 65535, found '{0}'")]
    FullmoveNumber(String),
    #[error("the side not to move ({0:?}) is in check")]
    OpponentInCheck(Color),
    #[error("{0:?} is in check from more than two pieces")]
    TooManyCheckers(Color),
}

impl std::str::FromStr for Board {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Board, FenError> {
        Board::from_fen(s)
    }
}

impl Board {
    /// Parses a FEN string. The two clock fields may be left out (EPD style); everything else
    /// is checked: see [`FenError`] for what is rejected.
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut board = Board::empty();
        parse_placement(&mut board, fields[0])?;
        board.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::SideToMove(other.to_string())),
        };
        validate_material(&board)?;
        parse_castling(&mut board, fields[2])?;
        parse_en_passant(&mut board, fields[3])?;
        if let Some(h) = fields.get(4) {
            board.halfmove = h
                .parse::<u16>()
                .map_err(|_| FenError::HalfmoveClock(h.to_string()))?;
        }
        if let Some(f) = fields.get(5) {
            board.fullmove = match f.parse::<u16>() {
                Ok(n) if n >= 1 => n,
                // Some programs write 0; treat it as 1 rather than reject a usable position.
                Ok(_) => 1,
                Err(_) => return Err(FenError::FullmoveNumber(f.to_string())),
            };
        }

        let them = !board.side;
        if board.is_attacked::<Magic>(board.side, board.king(them), board.occupied()) {
            return Err(FenError::OpponentInCheck(them));
        }
        board.hash = board.hash_from_scratch();
        board.update_check_info::<Magic>();
        if board.checkers.count() > 2 {
            return Err(FenError::TooManyCheckers(board.side));
        }
        Ok(board)
    }

    /// The position as FEN. Castling is written `KQkq` where the rook is the outermost one on its
    /// wing (standard chess and X-FEN), and as the rook's file letter otherwise (Shredder-FEN).
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let sq = Square::from_index_unchecked(rank * 8 + file);
                match self.piece_on(sq) {
                    Some(p) => {
                        if empty > 0 {
                            let _ = write!(s, "{empty}");
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                let _ = write!(s, "{empty}");
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let _ = write!(s, " {} ", self.side.fen_char());
        if self.castling.is_empty() {
            s.push('-');
        }
        for c in Color::ALL {
            for w in Wing::ALL {
                if let Some(f) = self.castling.rook_file(c, w) {
                    let letter = if self.outer_rook_file(c, w) == Some(f) {
                        match w {
                            Wing::King => 'k',
                            Wing::Queen => 'q',
                        }
                    } else {
                        f.char()
                    };
                    s.push(match c {
                        Color::White => letter.to_ascii_uppercase(),
                        Color::Black => letter,
                    });
                }
            }
        }
        match self.ep {
            Some(ep) => {
                let _ = write!(s, " {ep}");
            }
            None => s.push_str(" -"),
        }
        let _ = write!(s, " {} {}", self.halfmove, self.fullmove);
        s
    }

    /// The position as FEN with Shredder-style castling (rook file letters), as Chess960 tools
    /// expect.
    pub fn to_shredder_fen(&self) -> String {
        let fen = self.to_fen();
        let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
        if !self.castling.is_empty() {
            let mut castling = String::new();
            for c in Color::ALL {
                for w in Wing::ALL {
                    if let Some(f) = self.castling.rook_file(c, w) {
                        castling.push(match c {
                            Color::White => f.char().to_ascii_uppercase(),
                            Color::Black => f.char(),
                        });
                    }
                }
            }
            fields[2] = castling;
        }
        fields.join(" ")
    }
}

fn parse_placement(board: &mut Board, placement: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank_index = 7 - i as u8;
        let rank_char = (b'1' + rank_index) as char;
        let mut file = 0usize;
        for ch in text.chars() {
            if let Some(d) = ch.to_digit(10) {
                if d == 0 || d > 8 {
                    return Err(FenError::UnknownPiece {
                        letter: ch,
                        rank: rank_char,
                    });
                }
                file += d as usize;
            } else {
                let piece = Piece::from_char(ch).ok_or(FenError::UnknownPiece {
                    letter: ch,
                    rank: rank_char,
                })?;
                if file < 8 {
                    let sq = Square::from_index_unchecked(u32::from(rank_index) * 8 + file as u32);
                    board.toggle(piece.color, piece.kind, sq);
                }
                file += 1;
            }
            if file > 8 {
                break;
            }
        }
        if file != 8 {
            let squares = text
                .chars()
                .map(|c| c.to_digit(10).unwrap_or(1) as usize)
                .sum();
            return Err(FenError::RankLength {
                rank: rank_char,
                squares,
            });
        }
    }
    Ok(())
}

fn validate_material(board: &Board) -> Result<(), FenError> {
    for color in Color::ALL {
        let count = board.pieces_of(color, PieceType::King).count();
        if count != 1 {
            return Err(FenError::KingCount { color, count });
        }
        let pieces = board.colored(color).count();
        let pawns = board.pieces_of(color, PieceType::Pawn).count();
        // Pieces beyond the starting set can only come from promoted pawns.
        let extra =
            |pt: PieceType, start: u32| board.pieces_of(color, pt).count().saturating_sub(start);
        let promoted = extra(PieceType::Knight, 2)
            + extra(PieceType::Bishop, 2)
            + extra(PieceType::Rook, 2)
            + extra(PieceType::Queen, 1);
        if pieces > 16 || pawns + promoted > 8 {
            return Err(FenError::TooManyPieces {
                color,
                pieces,
                pawns,
            });
        }
    }
    let pawns = board.pieces(PieceType::Pawn) & (Bitboard::RANK_1 | Bitboard::RANK_8);
    if let Some(sq) = pawns.into_iter().next() {
        return Err(FenError::PawnOnBackRank(sq));
    }
    Ok(())
}

fn parse_castling(board: &mut Board, field: &str) -> Result<(), FenError> {
    let err = |reason: &str| FenError::Castling {
        field: field.to_string(),
        reason: reason.to_string(),
    };
    if field == "-" {
        return Ok(());
    }
    let mut rights = CastleRights::NONE;
    for ch in field.chars() {
        let color = if ch.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let ksq = board.king(color);
        if ksq.rank() != color.back_rank() {
            return Err(err(&format!("the {color:?} king is not on its first rank")));
        }
        let (wing, file) = match ch.to_ascii_lowercase() {
            'k' => (Wing::King, board.outer_rook_file(color, Wing::King)),
            'q' => (Wing::Queen, board.outer_rook_file(color, Wing::Queen)),
            'a'..='h' => {
                let f = File::from_char(ch.to_ascii_lowercase()).ok_or_else(|| err("bad file"))?;
                if f == ksq.file() {
                    return Err(err(&format!("'{ch}' names the king's own file")));
                }
                let wing = if f > ksq.file() {
                    Wing::King
                } else {
                    Wing::Queen
                };
                (wing, Some(f))
            }
            _ => return Err(err(&format!("unexpected character '{ch}'"))),
        };
        let file = file.ok_or_else(|| err(&format!("'{ch}': no rook to castle with")))?;
        let rook_sq = Square::new(file, color.back_rank());
        if !board.pieces_of(color, PieceType::Rook).has(rook_sq) {
            return Err(err(&format!("'{ch}': no {color:?} rook on {rook_sq}")));
        }
        if rights.rook_file(color, wing).is_some() {
            return Err(err(&format!("two rights for the same wing ('{ch}')")));
        }
        rights.set(color, wing, Some(file));
    }
    board.castling = rights;
    Ok(())
}

fn parse_en_passant(board: &mut Board, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let err = |reason: &str| FenError::EnPassant {
        field: field.to_string(),
        reason: reason.to_string(),
    };
    let ep: Square = field.parse().map_err(|_| err("not a square"))?;
    let us = board.side;
    let them = !us;
    if ep.rank() != Rank::R6.relative(us) {
        return Err(err(&format!(
            "must be on rank {} when {us:?} is to move",
            Rank::R6.relative(us).char()
        )));
    }
    let down = if us == Color::White { -8 } else { 8 };
    let (Some(pawn_sq), Some(origin)) = (ep.offset(down), ep.offset(-down)) else {
        return Err(err("not a square a pawn can have passed"));
    };
    if !board.pieces_of(them, PieceType::Pawn).has(pawn_sq) {
        return Err(err(&format!(
            "no {them:?} pawn on {pawn_sq} that could have just moved"
        )));
    }
    if board.occupied().has(ep) || board.occupied().has(origin) {
        return Err(err(&format!(
            "{ep} and {origin} must be empty after a double push"
        )));
    }
    // Keep the square only if it can matter, as `play` does, so equal positions hash equal.
    if board.ep_capturable(ep) {
        board.ep = Some(ep);
        board.hash ^= zobrist::en_passant(ep.file());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips() {
        let b = Board::startpos();
        assert_eq!(b.to_fen(), crate::board::STARTPOS_FEN);
        assert_eq!(b.count_legal_moves(), 20);
    }

    #[test]
    fn clocks_may_be_omitted() {
        let b = Board::from_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -").unwrap();
        assert_eq!((b.halfmove_clock(), b.fullmove_number()), (0, 1));
    }

    #[test]
    fn chess960_castling_notations() {
        let shredder =
            Board::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 1")
                .unwrap();
        assert_eq!(
            shredder.to_shredder_fen(),
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 1"
        );
        let xfen =
            Board::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KFkf - 0 1")
                .unwrap();
        assert_eq!(shredder, xfen);
        assert_eq!(
            xfen.to_fen(),
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 0 1"
        );
    }

    #[test]
    fn ep_square_kept_only_when_capturable() {
        let b =
            Board::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
        assert_eq!(b.en_passant(), None);
        let b = Board::from_fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
            .unwrap();
        assert_eq!(b.en_passant().map(|s| s.to_string()), Some("e3".into()));
    }

    #[test]
    fn malformed_fens_are_errors() {
        type Check = fn(&FenError) -> bool;
        let cases: &[(&str, Check)] = &[
            ("", |e| matches!(e, FenError::FieldCount(0))),
            ("8/8/8/8/8/8/8/8 w - - 0 1 extra", |e| {
                matches!(e, FenError::FieldCount(7))
            }),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", |e| {
                matches!(e, FenError::RankCount(7))
            }),
            (
                "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                |e| matches!(e, FenError::RankLength { rank: '7', .. }),
            ),
            (
                "rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                |e| {
                    matches!(
                        e,
                        FenError::RankLength {
                            rank: '6',
                            squares: 7
                        }
                    )
                },
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
                |e| {
                    matches!(
                        e,
                        FenError::UnknownPiece {
                            letter: 'X',
                            rank: '1'
                        }
                    )
                },
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNK w - - 0 1",
                |e| {
                    matches!(
                        e,
                        FenError::KingCount {
                            color: Color::White,
                            count: 2
                        }
                    )
                },
            ),
            (
                "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
                |e| {
                    matches!(
                        e,
                        FenError::KingCount {
                            color: Color::Black,
                            count: 0
                        }
                    )
                },
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP w - - 0 1",
                |e| matches!(e, FenError::TooManyPieces { pawns: 9, .. }),
            ),
            ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", |e| {
                matches!(e, FenError::PawnOnBackRank(_))
            }),
            ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", |e| {
                matches!(e, FenError::SideToMove(_))
            }),
            ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", |e| {
                matches!(e, FenError::Castling { .. })
            }),
            ("4k3/8/8/8/8/8/8/4K2R w Kx - 0 1", |e| {
                matches!(e, FenError::Castling { .. })
            }),
            ("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", |e| {
                matches!(e, FenError::EnPassant { .. })
            }),
            ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", |e| {
                matches!(e, FenError::EnPassant { .. })
            }),
            ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", |e| {
                matches!(e, FenError::EnPassant { .. })
            }),
            ("4k3/8/8/8/8/8/8/4K3 w - - -1 1", |e| {
                matches!(e, FenError::HalfmoveClock(_))
            }),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 x", |e| {
                matches!(e, FenError::FullmoveNumber(_))
            }),
            ("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", |e| {
                matches!(e, FenError::OpponentInCheck(Color::Black))
            }),
            ("QQQQk3/QQQQQQ2/8/8/8/8/8/4K3 w - - 0 1", |e| {
                matches!(e, FenError::TooManyPieces { .. })
            }),
        ];
        for (fen, ok) in cases {
            match Board::from_fen(fen) {
                Ok(_) => panic!("accepted bad FEN {fen:?}"),
                Err(e) => assert!(ok(&e), "FEN {fen:?} gave unexpected error: {e}"),
            }
        }
    }
}
