//! Move notation: UCI coordinates (`e2e4`, `e7e8q`, castling as `e1g1` or, in Chess960, as
//! king-takes-rook `e1h1`) and Standard Algebraic Notation (`Nbd7`, `exd6`, `e8=Q+`, `O-O-O#`).
//!
//! Parsing never trusts the text: both parsers only return a move found in
//! [`Board::legal_moves`], so a parsed move is always safe to [`Board::play`]. Printing works
//! from the board the move is played on, since SAN needs the other legal moves (to disambiguate)
//! and the position after the move (for `+` and `#`).

use crate::board::Board;
use crate::castling::Wing;
use crate::moves::{Move, MoveKind};
use crate::types::{File, PieceType, Rank, Square};
use thiserror::Error;

/// What is wrong with a move in UCI or SAN notation. Every variant carries the offending text.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveParseError {
    #[error("empty move text")]
    Empty,
    #[error("malformed move '{text}': {reason}")]
    Malformed { text: String, reason: &'static str },
    /// `0000` (UCI) or `--` (PGN): meaningful to a search or a game record, but never a legal
    /// move of a position, so the caller must handle it before asking for one.
    #[error("'{0}' is the null move, which is not a legal move")]
    NullMove(String),
    #[error("no legal move matches '{0}'")]
    NoSuchMove(String),
    #[error("'{0}' reaches the last rank but names no promotion piece")]
    MissingPromotion(String),
    #[error("'{text}' is ambiguous: it matches {}", candidates.join(", "))]
    Ambiguous {
        text: String,
        /// The matching legal moves, in UCI (king-takes-rook castling) notation.
        candidates: Vec<String>,
    },
}

/// The wing of a castling move stored as king-takes-own-rook: the same rule `Board::play` uses.
fn castling_wing(mv: Move) -> Wing {
    if mv.to().file() > mv.from().file() {
        Wing::King
    } else {
        Wing::Queen
    }
}

/// The upper-case SAN letter of a piece (pawns have none).
fn san_letter(pt: PieceType) -> char {
    pt.char().to_ascii_uppercase()
}

/// Whether `mv` ends a pawn's way on its last rank without saying what it becomes: the one
/// near-miss worth its own error message.
fn is_missing_promotion(board: &Board, candidates: &[Move], promotion: Option<PieceType>) -> bool {
    promotion.is_none()
        && candidates
            .iter()
            .any(|m| m.kind() == MoveKind::Promotion && board.piece_type_on(m.from()).is_some())
}

/// Picks the single move of `matches`, or says why there is not exactly one.
fn unique(text: &str, matches: Vec<Move>) -> Result<Move, MoveParseError> {
    match matches.as_slice() {
        [] => Err(MoveParseError::NoSuchMove(text.to_string())),
        [m] => Ok(*m),
        _ => Err(MoveParseError::Ambiguous {
            text: text.to_string(),
            candidates: matches.iter().map(Move::to_string).collect(),
        }),
    }
}

impl Board {
    /// The move in UCI notation. Castling is printed as the king's destination (`e1g1`) unless
    /// `chess960` asks for the king-takes-own-rook form (`e1h1`) that UCI uses with
    /// `UCI_Chess960`, which is the only unambiguous one there (a king on f1 can step to g1 and
    /// also castle to g1). The null and empty moves print as `0000`.
    pub fn to_uci(&self, mv: Move, chess960: bool) -> String {
        if mv == Move::NONE || mv == Move::NULL {
            return "0000".to_string();
        }
        if mv.is_castling() && !chess960 {
            let king_to = castling_wing(mv).king_to(self.side_to_move());
            return format!("{}{}", mv.from(), king_to);
        }
        mv.to_string()
    }

    /// Parses a move in UCI notation and returns the legal move it names.
    ///
    /// Castling is accepted in both forms: king-takes-own-rook (`e1h1`) always means castling;
    /// the king's destination (`e1g1`, or `f1g1` in Chess960) means castling only when no
    /// ordinary legal king move has the same squares, since in Chess960 both can exist.
    pub fn parse_uci(&self, text: &str) -> Result<Move, MoveParseError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(MoveParseError::Empty);
        }
        if text == "0000" {
            return Err(MoveParseError::NullMove(text.to_string()));
        }
        let malformed = |reason| MoveParseError::Malformed {
            text: text.to_string(),
            reason,
        };
        // Byte slicing below is only sound on ASCII, and UCI moves are ASCII by definition.
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return Err(malformed(
                "expected 4 or 5 characters: from square, to square, optional promotion piece",
            ));
        }
        let from: Square = text[0..2]
            .parse()
            .map_err(|()| malformed("the first two characters are not a square"))?;
        let to: Square = text[2..4]
            .parse()
            .map_err(|()| malformed("the third and fourth characters are not a square"))?;
        let promotion = match text[4..].chars().next() {
            None => None,
            Some(c) => match PieceType::from_char(c) {
                Some(p) if PieceType::PROMOTIONS.contains(&p) => Some(p),
                _ => return Err(malformed("the promotion piece must be one of q, r, b, n")),
            },
        };

        let legal = self.legal_moves();
        // Step 1. The move exactly as written: normal moves, promotions, en passant, and
        // castling in king-takes-own-rook form (no other move lands on an own piece).
        let exact: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| m.from() == from && m.to() == to && m.promotion_piece() == promotion)
            .collect();
        if !exact.is_empty() {
            return unique(text, exact);
        }
        // Step 2. Castling written as the king's destination, when nothing else matched.
        if promotion.is_none() {
            let us = self.side_to_move();
            let castle: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| {
                    m.is_castling() && m.from() == from && castling_wing(*m).king_to(us) == to
                })
                .collect();
            if !castle.is_empty() {
                return unique(text, castle);
            }
        }
        // Step 3. Nothing: say whether only the promotion piece was missing.
        let same_squares: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| m.from() == from && m.to() == to)
            .collect();
        if is_missing_promotion(self, &same_squares, promotion) {
            return Err(MoveParseError::MissingPromotion(text.to_string()));
        }
        Err(MoveParseError::NoSuchMove(text.to_string()))
    }

    /// The move in Standard Algebraic Notation, with `+` or `#` when it gives check or mate.
    /// Castling is `O-O` / `O-O-O` by wing, in Chess960 too. The null and empty moves print as
    /// `--` (the PGN convention); a move with no piece on its from-square falls back to UCI.
    pub fn to_san(&self, mv: Move) -> String {
        if mv == Move::NONE || mv == Move::NULL {
            return "--".to_string();
        }
        let Some(moving) = self.piece_type_on(mv.from()) else {
            return mv.to_string();
        };
        let mut san = String::with_capacity(8);
        if mv.is_castling() {
            san.push_str(match castling_wing(mv) {
                Wing::King => "O-O",
                Wing::Queen => "O-O-O",
            });
        } else {
            let capture = mv.kind() == MoveKind::EnPassant || self.occupied().has(mv.to());
            if moving == PieceType::Pawn {
                // A pawn capture always names its file, which is all a pawn ever needs.
                if capture {
                    san.push(mv.from().file().char());
                }
            } else {
                san.push(san_letter(moving));
                san.push_str(&self.disambiguation(mv, moving));
            }
            if capture {
                san.push('x');
            }
            san.push_str(&mv.to().to_string());
            if let Some(p) = mv.promotion_piece() {
                san.push('=');
                san.push(san_letter(p));
            }
        }
        let mut after = *self;
        after.play(mv);
        if after.in_check() {
            san.push(if after.count_legal_moves() == 0 {
                '#'
            } else {
                '+'
            });
        }
        san
    }

    /// The from-square detail SAN needs to tell `mv` apart from other legal moves of the same
    /// piece type to the same square: nothing, the file, the rank, or (three or more such
    /// pieces, e.g. promoted queens) the whole square.
    fn disambiguation(&self, mv: Move, moving: PieceType) -> String {
        let from = mv.from();
        let others: Vec<Square> = self
            .legal_moves()
            .iter()
            .filter(|m| {
                !m.is_castling()
                    && m.to() == mv.to()
                    && m.from() != from
                    && self.piece_type_on(m.from()) == Some(moving)
            })
            .map(|m| m.from())
            .collect();
        if others.is_empty() {
            String::new()
        } else if others.iter().all(|s| s.file() != from.file()) {
            from.file().char().to_string()
        } else if others.iter().all(|s| s.rank() != from.rank()) {
            from.rank().char().to_string()
        } else {
            from.to_string()
        }
    }

    /// Parses a move in Standard Algebraic Notation and returns the legal move it names.
    ///
    /// Tolerant of what real files contain: trailing `+`, `#`, `!`, `?` and ` e.p.`; `0-0` and
    /// `0-0-0` for castling; a promotion without `=` (`e8Q`) or in lower case; `-` or `x` between
    /// squares of a long form (`Ng1-f3`, `Ng1xf3`); a capture sign where nothing is captured.
    /// Disambiguation that is missing where it is needed is an [`MoveParseError::Ambiguous`]
    /// error, never a guess.
    pub fn parse_san(&self, text: &str) -> Result<Move, MoveParseError> {
        let original = text.trim();
        if original.is_empty() {
            return Err(MoveParseError::Empty);
        }
        if original == "--" || original == "0000" {
            return Err(MoveParseError::NullMove(original.to_string()));
        }
        let malformed = |reason| MoveParseError::Malformed {
            text: original.to_string(),
            reason,
        };
        let mut s = original.trim_end_matches(['+', '#', '!', '?']).trim_end();
        if let Some(rest) = s.strip_suffix("e.p.").or_else(|| s.strip_suffix("ep")) {
            s = rest.trim_end();
        }
        if s.is_empty() {
            return Err(malformed("nothing but annotation symbols"));
        }
        let legal = self.legal_moves();

        // Castling, by wing; letter O or digit zero.
        let wing = match s {
            "O-O" | "0-0" | "o-o" => Some(Wing::King),
            "O-O-O" | "0-0-0" | "o-o-o" => Some(Wing::Queen),
            _ => None,
        };
        if let Some(wing) = wing {
            let castles: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| m.is_castling() && castling_wing(*m) == wing)
                .collect();
            return unique(original, castles);
        }

        if !s.is_ascii() {
            return Err(malformed("SAN is ASCII"));
        }
        let mut chars: Vec<char> = s.chars().collect();

        // The piece letter: upper case only, since a lower-case 'b' is the b-file.
        let moving = match chars.first() {
            Some(&c) if "NBRQKP".contains(c) => {
                chars.remove(0);
                PieceType::from_char(c).unwrap_or(PieceType::Pawn)
            }
            _ => PieceType::Pawn,
        };

        // The promotion piece, with or without '=' (or the older '/' and '()' forms).
        let mut promotion = None;
        let bracketed = chars.last() == Some(&')');
        if bracketed {
            chars.pop();
        }
        if let Some(&last) = chars.last()
            && (bracketed || !last.is_ascii_digit())
        {
            let p = PieceType::from_char(last)
                .filter(|p| PieceType::PROMOTIONS.contains(p))
                .ok_or(malformed(
                    "expected a destination square or a promotion piece at the end",
                ))?;
            promotion = Some(p);
            chars.pop();
            if bracketed {
                if chars.pop() != Some('(') {
                    return Err(malformed(
                        "unbalanced parenthesis around the promotion piece",
                    ));
                }
            } else if matches!(chars.last(), Some('=') | Some('/')) {
                chars.pop();
            }
        }

        // The destination square: the last two characters.
        if chars.len() < 2 {
            return Err(malformed("no destination square"));
        }
        let to_text: String = chars.split_off(chars.len() - 2).into_iter().collect();
        let to: Square = to_text
            .parse()
            .map_err(|()| malformed("no destination square"))?;
        // An optional capture sign or long-form separator.
        if matches!(chars.last(), Some('x') | Some(':') | Some('-')) {
            chars.pop();
        }
        // What is left is the disambiguation: a file, a rank, or both.
        let (from_file, from_rank): (Option<File>, Option<Rank>) = match chars.as_slice() {
            [] => (None, None),
            [c] => match (File::from_char(*c), Rank::from_char(*c)) {
                (Some(f), _) => (Some(f), None),
                (_, Some(r)) => (None, Some(r)),
                _ => return Err(malformed("unexpected character before the destination")),
            },
            [f, r] => match (File::from_char(*f), Rank::from_char(*r)) {
                (Some(f), Some(r)) => (Some(f), Some(r)),
                _ => return Err(malformed("unexpected characters before the destination")),
            },
            _ => return Err(malformed("too many characters before the destination")),
        };

        let candidates: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| {
                !m.is_castling()
                    && m.to() == to
                    && self.piece_type_on(m.from()) == Some(moving)
                    && from_file.is_none_or(|f| m.from().file() == f)
                    && from_rank.is_none_or(|r| m.from().rank() == r)
            })
            .collect();
        if is_missing_promotion(self, &candidates, promotion) {
            return Err(MoveParseError::MissingPromotion(original.to_string()));
        }
        let matches: Vec<Move> = candidates
            .into_iter()
            .filter(|m| m.promotion_piece() == promotion)
            .collect();
        unique(original, matches)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen).expect("test FEN parses")
    }

    fn sq(name: &str) -> Square {
        name.parse().expect("test square parses")
    }

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    const CHESS960: &str = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 1";

    #[test]
    fn standard_castling() {
        let b = board(KIWIPETE);
        let short = Move::castling(sq("e1"), sq("h1"));
        let long = Move::castling(sq("e1"), sq("a1"));
        assert!(b.is_legal(short) && b.is_legal(long));
        assert_eq!(b.to_uci(short, false), "e1g1");
        assert_eq!(b.to_uci(long, false), "e1c1");
        assert_eq!(b.to_uci(short, true), "e1h1");
        assert_eq!(b.to_uci(long, true), "e1a1");
        for text in ["e1g1", "e1h1"] {
            assert_eq!(b.parse_uci(text), Ok(short), "{text}");
        }
        for text in ["e1c1", "e1a1"] {
            assert_eq!(b.parse_uci(text), Ok(long), "{text}");
        }
        assert_eq!(b.to_san(short), "O-O");
        assert_eq!(b.to_san(long), "O-O-O");
        for text in ["O-O", "0-0", "O-O+", "0-0!?"] {
            assert_eq!(b.parse_san(text), Ok(short), "{text}");
        }
        for text in ["O-O-O", "0-0-0"] {
            assert_eq!(b.parse_san(text), Ok(long), "{text}");
        }

        // Black, after a quiet white move.
        let b = board("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
        let short = Move::castling(sq("e8"), sq("h8"));
        assert_eq!(b.to_uci(short, false), "e8g8");
        assert_eq!(b.parse_uci("e8g8"), Ok(short));
        assert_eq!(b.parse_uci("e8c8"), Ok(Move::castling(sq("e8"), sq("a8"))));
        assert_eq!(b.to_san(short), "O-O");
    }

    #[test]
    fn chess960_castling() {
        // The brief's position: the rooks on f1 and h1 block each other, so no castling yet,
        // and SAN parsing must say so rather than invent a move.
        let b = board(CHESS960);
        assert!(b.legal_moves().iter().all(|m| !m.is_castling()));
        assert_eq!(
            b.parse_san("O-O"),
            Err(MoveParseError::NoSuchMove("O-O".into()))
        );

        // King g1, rooks b1 and h1: the king-side castle leaves the king where it is.
        let b = board("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1");
        let short = Move::castling(sq("g1"), sq("h1"));
        let long = Move::castling(sq("g1"), sq("b1"));
        assert!(b.is_legal(short) && b.is_legal(long));
        assert_eq!(b.to_uci(short, true), "g1h1");
        assert_eq!(b.to_uci(long, true), "g1b1");
        assert_eq!(b.to_uci(short, false), "g1g1");
        assert_eq!(b.to_uci(long, false), "g1c1");
        for (text, m) in [
            ("g1h1", short),
            ("g1g1", short),
            ("g1b1", long),
            ("g1c1", long),
        ] {
            assert_eq!(b.parse_uci(text), Ok(m), "{text}");
        }
        assert_eq!(b.to_san(short), "O-O");
        assert_eq!(b.to_san(long), "O-O-O");
        assert_eq!(b.parse_san("O-O"), Ok(short));
        assert_eq!(b.parse_san("0-0-0"), Ok(long));

        // A king on f1 next to an empty g1: f1g1 is an ordinary king move, f1h1 the castle.
        let b = board("4k3/8/8/8/8/8/8/5K1R w H - 0 1");
        let step = Move::normal(sq("f1"), sq("g1"));
        let castle = Move::castling(sq("f1"), sq("h1"));
        assert!(b.is_legal(step) && b.is_legal(castle));
        assert_eq!(b.parse_uci("f1g1"), Ok(step));
        assert_eq!(b.parse_uci("f1h1"), Ok(castle));
        assert_eq!(b.to_uci(castle, true), "f1h1");
        assert_eq!(b.to_san(castle), "O-O");
        assert_eq!(b.to_san(step), "Kg1");
        assert_eq!(b.parse_san("Kg1"), Ok(step));

        // The same on the queen side: king b1, rook a1; b1c1 is the king's step.
        let b = board("4k3/8/8/8/8/8/8/RK6 w A - 0 1");
        let castle = Move::castling(sq("b1"), sq("a1"));
        assert!(b.is_legal(castle));
        assert_eq!(b.parse_uci("b1a1"), Ok(castle));
        assert_eq!(b.parse_uci("b1c1"), Ok(Move::normal(sq("b1"), sq("c1"))));
        assert_eq!(b.parse_san("O-O-O"), Ok(castle));
        assert_eq!(b.to_san(castle), "O-O-O");

        // King e1, rook c1: the king's destination is the rook's square, so both forms of the
        // castle are the same text.
        let b = board("4k3/8/8/8/8/8/8/2R1K3 w C - 0 1");
        let castle = Move::castling(sq("e1"), sq("c1"));
        assert!(b.is_legal(castle));
        assert_eq!(b.parse_uci("e1c1"), Ok(castle));
        assert_eq!(b.to_uci(castle, false), "e1c1");
        assert_eq!(b.to_uci(castle, true), "e1c1");

        // Black, Chess960: king b8, rook a8 (inner-rook letters in Shredder-FEN).
        let b = board("rk6/8/8/8/8/8/8/4K3 b a - 0 1");
        let castle = Move::castling(sq("b8"), sq("a8"));
        assert!(b.is_legal(castle));
        assert_eq!(b.to_uci(castle, false), "b8c8");
        assert_eq!(b.to_uci(castle, true), "b8a8");
        assert_eq!(b.parse_uci("b8a8"), Ok(castle));
        assert_eq!(b.to_san(castle), "O-O-O");
    }

    #[test]
    fn promotions() {
        let b = board("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        for p in PieceType::PROMOTIONS {
            let push = Move::promotion(sq("a7"), sq("a8"), p);
            let take = Move::promotion(sq("a7"), sq("b8"), p);
            assert!(b.is_legal(push) && b.is_legal(take));
            assert_eq!(b.to_uci(push, false), format!("a7a8{}", p.char()));
            assert_eq!(b.parse_uci(&format!("a7a8{}", p.char())), Ok(push));
            let letter = san_letter(p);
            assert_eq!(b.parse_san(&format!("a8={letter}")), Ok(push));
            assert_eq!(b.parse_san(&format!("a8{letter}")), Ok(push));
            assert_eq!(b.parse_san(&format!("axb8={letter}")), Ok(take));
            assert_eq!(b.parse_san(&format!("axb8{}", p.char())), Ok(take));
        }
        let q = Move::promotion(sq("a7"), sq("a8"), PieceType::Queen);
        let n = Move::promotion(sq("a7"), sq("a8"), PieceType::Knight);
        // The knight on b8 shields e8 from a queen on a8; taking it opens the rank.
        assert_eq!(b.to_san(q), "a8=Q");
        assert_eq!(b.to_san(n), "a8=N");
        let take_q = Move::promotion(sq("a7"), sq("b8"), PieceType::Queen);
        assert_eq!(b.to_san(take_q), "axb8=Q+");
        assert_eq!(b.parse_san("a8(Q)"), Ok(q));
        assert_eq!(
            b.parse_san("a8"),
            Err(MoveParseError::MissingPromotion("a8".into()))
        );
        assert_eq!(
            b.parse_uci("a7a8"),
            Err(MoveParseError::MissingPromotion("a7a8".into()))
        );
        assert!(matches!(
            b.parse_uci("a7a8k"),
            Err(MoveParseError::Malformed { .. })
        ));
        assert!(matches!(
            b.parse_san("a8=K"),
            Err(MoveParseError::Malformed { .. })
        ));
        // Black promotes on the first rank.
        let b = board("4k3/8/8/8/8/8/5p2/K7 b - - 0 1");
        let m = Move::promotion(sq("f2"), sq("f1"), PieceType::Queen);
        assert_eq!(b.to_san(m), "f1=Q+");
        assert_eq!(b.to_uci(m, false), "f2f1q");
        assert_eq!(b.parse_san("f1=Q+"), Ok(m));
    }

    #[test]
    fn en_passant() {
        let b = board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
        let ep = Move::en_passant(sq("e5"), sq("d6"));
        assert!(b.is_legal(ep));
        assert_eq!(b.to_uci(ep, false), "e5d6");
        assert_eq!(b.parse_uci("e5d6"), Ok(ep));
        assert_eq!(b.to_san(ep), "exd6");
        for text in ["exd6", "exd6 e.p.", "exd6e.p.", "ed6", "e5d6", "e5xd6"] {
            assert_eq!(b.parse_san(text), Ok(ep), "{text}");
        }
    }

    #[test]
    fn disambiguation() {
        // Knights on b1 and f3 both reach d2; the one on f3 also reaches e5 alone.
        let b = board("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
        let from_b1 = Move::normal(sq("b1"), sq("d2"));
        let from_f3 = Move::normal(sq("f3"), sq("d2"));
        assert_eq!(b.to_san(from_b1), "Nbd2");
        assert_eq!(b.to_san(from_f3), "Nfd2");
        assert_eq!(b.to_san(Move::normal(sq("f3"), sq("e5"))), "Ne5");
        assert_eq!(b.parse_san("Nbd2"), Ok(from_b1));
        assert_eq!(b.parse_san("N1d2"), Ok(from_b1));
        assert_eq!(b.parse_san("Nb1d2"), Ok(from_b1));
        assert_eq!(
            b.parse_san("Ng1-f3"),
            Err(MoveParseError::NoSuchMove("Ng1-f3".into()))
        );
        assert_eq!(
            b.parse_san("Nd2"),
            Err(MoveParseError::Ambiguous {
                text: "Nd2".into(),
                candidates: vec!["b1d2".into(), "f3d2".into()],
            })
        );

        // Rooks on the same file: the rank tells them apart.
        let b = board("4k3/8/R7/8/8/8/8/R3K3 w - - 0 1");
        let low = Move::normal(sq("a1"), sq("a3"));
        assert_eq!(b.to_san(low), "R1a3");
        assert_eq!(b.to_san(Move::normal(sq("a6"), sq("a3"))), "R6a3");
        assert_eq!(b.parse_san("R1a3"), Ok(low));
        assert!(matches!(
            b.parse_san("Ra3"),
            Err(MoveParseError::Ambiguous { .. })
        ));

        // Three queens on a1, a3 and c1 reach b2: a1 shares a file with a3 and a rank with c1,
        // so only the full square identifies it.
        let b = board("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1");
        let corner = Move::normal(sq("a1"), sq("b2"));
        assert_eq!(b.to_san(corner), "Qa1b2");
        assert_eq!(b.to_san(Move::normal(sq("a3"), sq("b2"))), "Q3b2");
        assert_eq!(b.to_san(Move::normal(sq("c1"), sq("b2"))), "Qcb2");
        assert_eq!(b.parse_san("Qa1b2"), Ok(corner));
        assert_eq!(b.parse_san("Qa1xb2"), Ok(corner));
        assert!(matches!(
            b.parse_san("Qab2"),
            Err(MoveParseError::Ambiguous { .. })
        ));

        // A pinned knight is no rival: only legal moves count.
        let b = board("4k3/4r3/8/4N3/8/8/8/2N1K3 w - - 0 1");
        assert_eq!(b.to_san(Move::normal(sq("c1"), sq("d3"))), "Nd3");
        assert_eq!(b.parse_san("Nd3"), Ok(Move::normal(sq("c1"), sq("d3"))));
    }

    #[test]
    fn check_and_mate_suffixes() {
        // Scholar's mate.
        let b = board("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1");
        let mate = Move::normal(sq("f3"), sq("f7"));
        assert_eq!(b.to_san(mate), "Qxf7#");
        assert_eq!(b.parse_san("Qxf7#"), Ok(mate));
        assert_eq!(b.parse_san("Qxf7"), Ok(mate));
        assert_eq!(b.parse_san("Qf7"), Ok(mate));
        let check = Move::normal(sq("c4"), sq("f7"));
        assert_eq!(b.to_san(check), "Bxf7+");
        assert_eq!(b.parse_san("Bxf7+!"), Ok(check));
        assert_eq!(b.to_san(Move::normal(sq("e1"), sq("e2"))), "Ke2");
        // Castling that gives check.
        let b = board("5k2/8/8/8/8/8/8/4K2R w K - 0 1");
        assert_eq!(b.to_san(Move::castling(sq("e1"), sq("h1"))), "O-O+");
    }

    #[test]
    fn errors_carry_the_text() {
        let b = Board::startpos();
        assert_eq!(b.parse_uci(""), Err(MoveParseError::Empty));
        assert_eq!(b.parse_san("  "), Err(MoveParseError::Empty));
        assert_eq!(
            b.parse_uci("0000"),
            Err(MoveParseError::NullMove("0000".into()))
        );
        assert_eq!(
            b.parse_san("--"),
            Err(MoveParseError::NullMove("--".into()))
        );
        assert_eq!(
            b.parse_uci("e2e5"),
            Err(MoveParseError::NoSuchMove("e2e5".into()))
        );
        assert_eq!(
            b.parse_san("e5"),
            Err(MoveParseError::NoSuchMove("e5".into()))
        );
        for bad in ["e2", "e2e4qq", "z2e4", "e2e9", "e2e4x", "é2e4", "e2é4"] {
            let err = b.parse_uci(bad).expect_err(bad);
            assert!(
                matches!(&err, MoveParseError::Malformed { text, .. } if text == bad),
                "{bad}: {err}"
            );
        }
        for bad in ["+", "N", "Nz3", "Nbbd2", "e4=", "xe4é", "Ng1f3d2", "a8=(Q"] {
            let err = b.parse_san(bad).expect_err(bad);
            assert!(
                matches!(err, MoveParseError::Malformed { .. }),
                "{bad}: {err}"
            );
        }
        let msg = b.parse_uci("e2e5").expect_err("illegal").to_string();
        assert!(msg.contains("e2e5"), "{msg}");
        // Printing sentinels.
        assert_eq!(b.to_uci(Move::NONE, false), "0000");
        assert_eq!(b.to_uci(Move::NULL, true), "0000");
        assert_eq!(b.to_san(Move::NULL), "--");
        assert_eq!(b.to_san(Move::normal(sq("e4"), sq("e5"))), "e4e5");
    }

    /// Every legal move of many positions prints and parses back to itself in every notation.
    #[test]
    fn round_trips_on_the_suites() {
        let mut fens = crate::testdata::fens("perft-suite.epd");
        fens.extend(
            crate::testdata::fens("perft-chess960.epd")
                .into_iter()
                .take(200),
        );
        fens.extend(
            crate::testdata::fens("perft-random.epd")
                .into_iter()
                .step_by(20),
        );
        let mut checked = 0;
        for fen in &fens {
            let root = board(fen);
            // The positions and also one ply deeper, where checks and captures are commoner.
            let mut positions = vec![root];
            positions.extend(root.legal_moves().iter().map(|&m| {
                let mut b = root;
                b.play(m);
                b
            }));
            for b in &positions {
                let legal = b.legal_moves();
                for &m in legal.iter() {
                    let san = b.to_san(m);
                    assert_eq!(b.parse_san(&san), Ok(m), "{fen}: SAN {san}");
                    let uci960 = b.to_uci(m, true);
                    assert_eq!(b.parse_uci(&uci960), Ok(m), "{fen}: UCI {uci960}");
                    // The king-destination form is ambiguous only when an ordinary king move
                    // shares its squares (Chess960); otherwise it must round-trip too.
                    let uci = b.to_uci(m, false);
                    let clash = m.is_castling()
                        && legal
                            .iter()
                            .any(|o| !o.is_castling() && b.to_uci(*o, false) == uci);
                    if !clash {
                        assert_eq!(b.parse_uci(&uci), Ok(m), "{fen}: UCI {uci}");
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked > 100_000, "only {checked} moves checked");
    }

    /// The best moves of the Win At Chess suite are SAN written by others: all must parse.
    #[test]
    fn wac_best_moves_parse() {
        let text = crate::testdata::read("wac.epd");
        let mut parsed = 0;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let b = board(&fields[..4].join(" "));
            let bm = line
                .split(';')
                .find_map(|op| op.split_once(" bm "))
                .map(|(_, moves)| moves)
                .unwrap_or_else(|| panic!("no bm in {line}"));
            for san in bm.split_whitespace() {
                let m = b
                    .parse_san(san)
                    .unwrap_or_else(|e| panic!("{line}: {san}: {e}"));
                // Printing gives back the same text, up to what the file chose to annotate.
                assert_eq!(
                    b.to_san(m).trim_end_matches(['+', '#']),
                    san.trim_end_matches(['+', '#']),
                    "{line}"
                );
                parsed += 1;
            }
        }
        assert!(parsed >= 300, "only {parsed} best moves");
    }
}
