//! The small value types everything else is built from: colours, piece types, pieces, files,
//! ranks and squares. Squares are numbered a1 = 0, b1 = 1, …, h8 = 63 (little-endian rank-file),
//! the order shared with the bitboards and the GPU kernels.

use std::fmt;

/// White or black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The rank this colour's pieces start on (1 for white, 8 for black).
    #[inline(always)]
    pub const fn back_rank(self) -> Rank {
        match self {
            Color::White => Rank::R1,
            Color::Black => Rank::R8,
        }
    }

    /// The character FEN uses for this side to move.
    pub const fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.flip()
    }
}

/// A kind of piece, without colour. The numbering (pawn 0 … king 5) indexes the board's arrays
/// and, plus one, is the 3-bit piece code of the packed quad-bitboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceType {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl PieceType {
    pub const ALL: [PieceType; 6] = [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
        PieceType::King,
    ];
    /// The pieces a pawn may promote to, in the order UCI and SAN list them.
    pub const PROMOTIONS: [PieceType; 4] = [
        PieceType::Queen,
        PieceType::Rook,
        PieceType::Bishop,
        PieceType::Knight,
    ];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn from_index(i: usize) -> PieceType {
        match i {
            0 => PieceType::Pawn,
            1 => PieceType::Knight,
            2 => PieceType::Bishop,
            3 => PieceType::Rook,
            4 => PieceType::Queen,
            _ => PieceType::King,
        }
    }

    /// Lower-case letter as in FEN (black) and UCI promotions.
    pub const fn char(self) -> char {
        match self {
            PieceType::Pawn => 'p',
            PieceType::Knight => 'n',
            PieceType::Bishop => 'b',
            PieceType::Rook => 'r',
            PieceType::Queen => 'q',
            PieceType::King => 'k',
        }
    }

    pub const fn from_char(c: char) -> Option<PieceType> {
        match c.to_ascii_lowercase() {
            'p' => Some(PieceType::Pawn),
            'n' => Some(PieceType::Knight),
            'b' => Some(PieceType::Bishop),
            'r' => Some(PieceType::Rook),
            'q' => Some(PieceType::Queen),
            'k' => Some(PieceType::King),
            _ => None,
        }
    }
}

/// A coloured piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub kind: PieceType,
}

impl Piece {
    pub const fn new(color: Color, kind: PieceType) -> Piece {
        Piece { color, kind }
    }

    /// FEN letter: upper case for white, lower case for black.
    pub const fn char(self) -> char {
        let c = self.kind.char();
        match self.color {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    pub const fn from_char(c: char) -> Option<Piece> {
        match PieceType::from_char(c) {
            Some(kind) => {
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                Some(Piece { color, kind })
            }
            None => None,
        }
    }
}

/// A file, a (0) to h (7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

impl File {
    pub const A: File = File(0);
    pub const B: File = File(1);
    pub const C: File = File(2);
    pub const D: File = File(3);
    pub const E: File = File(4);
    pub const F: File = File(5);
    pub const G: File = File(6);
    pub const H: File = File(7);

    #[inline(always)]
    pub const fn new(i: u8) -> Option<File> {
        if i < 8 { Some(File(i)) } else { None }
    }
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    pub fn all() -> impl DoubleEndedIterator<Item = File> {
        (0..8).map(File)
    }
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File(c as u8 - b'a')),
            _ => None,
        }
    }
}

/// A rank, 1 (0) to 8 (7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    pub const R1: Rank = Rank(0);
    pub const R2: Rank = Rank(1);
    pub const R3: Rank = Rank(2);
    pub const R4: Rank = Rank(3);
    pub const R5: Rank = Rank(4);
    pub const R6: Rank = Rank(5);
    pub const R7: Rank = Rank(6);
    pub const R8: Rank = Rank(7);

    #[inline(always)]
    pub const fn new(i: u8) -> Option<Rank> {
        if i < 8 { Some(Rank(i)) } else { None }
    }
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The same rank seen from black's side (1 ↔ 8).
    #[inline(always)]
    pub const fn relative(self, c: Color) -> Rank {
        match c {
            Color::White => self,
            Color::Black => Rank(7 - self.0),
        }
    }
    pub const fn char(self) -> char {
        (b'1' + self.0) as char
    }
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank(c as u8 - b'1')),
            _ => None,
        }
    }
}

/// A square, a1 (0) to h8 (63).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    #[inline(always)]
    pub const fn new(file: File, rank: Rank) -> Square {
        Square(rank.0 * 8 + file.0)
    }
    /// The square with this index, if it is below 64.
    #[inline(always)]
    pub const fn from_index(i: usize) -> Option<Square> {
        if i < 64 { Some(Square(i as u8)) } else { None }
    }
    /// # Safety-free precondition
    /// `i < 64`; callers iterate bitboards, whose bit indices always are.
    #[inline(always)]
    pub const fn from_index_unchecked(i: u32) -> Square {
        debug_assert!(i < 64);
        Square((i & 63) as u8)
    }
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    #[inline(always)]
    pub const fn file(self) -> File {
        File(self.0 & 7)
    }
    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank(self.0 >> 3)
    }
    /// This square mirrored top to bottom (a1 ↔ a8), i.e. seen from black's side when `c` is black.
    #[inline(always)]
    pub const fn relative(self, c: Color) -> Square {
        match c {
            Color::White => self,
            Color::Black => Square(self.0 ^ 56),
        }
    }
    /// The square `d` steps away in index order (+8 is one rank up), if it stays on the board.
    /// Does not check for wrapping around the a/h edge: callers move along files only.
    #[inline(always)]
    pub const fn offset(self, d: i8) -> Option<Square> {
        let i = self.0 as i16 + d as i16;
        if 0 <= i && i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }
    pub fn all() -> impl DoubleEndedIterator<Item = Square> {
        (0..64).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::str::FromStr for Square {
    type Err = ();
    fn from_str(s: &str) -> Result<Square, ()> {
        let mut chars = s.chars();
        let file = chars.next().and_then(File::from_char).ok_or(())?;
        let rank = chars.next().and_then(Rank::from_char).ok_or(())?;
        if chars.next().is_some() {
            return Err(());
        }
        Ok(Square::new(file, rank))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for sq in Square::all() {
            let name = sq.to_string();
            assert_eq!(name.parse::<Square>(), Ok(sq));
        }
        assert_eq!("e4".parse::<Square>().map(|s| s.index()), Ok(28));
        assert!("i1".parse::<Square>().is_err());
        assert!("a9".parse::<Square>().is_err());
        assert!("a10".parse::<Square>().is_err());
    }

    #[test]
    fn relative_squares_mirror_ranks() {
        let e2: Square = "e2".parse().unwrap();
        assert_eq!(e2.relative(Color::Black).to_string(), "e7");
        assert_eq!(Rank::R2.relative(Color::Black), Rank::R7);
    }

    #[test]
    fn piece_letters_round_trip() {
        for c in ['P', 'N', 'B', 'R', 'Q', 'K', 'p', 'n', 'b', 'r', 'q', 'k'] {
            assert_eq!(Piece::from_char(c).map(Piece::char), Some(c));
        }
        assert_eq!(Piece::from_char('x'), None);
    }
}
