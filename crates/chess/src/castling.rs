//! Castling rights, Chess960-capable: each right is the *file of the rook* that may castle, so
//! standard chess (rooks on a and h) and every Chess960 start are the same case.

use crate::types::{Color, File, Square};

/// Which wing a castling move goes to: the king ends on g (king side) or c (queen side).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wing {
    King = 0,
    Queen = 1,
}

impl Wing {
    pub const ALL: [Wing; 2] = [Wing::King, Wing::Queen];

    /// Where the king lands.
    pub const fn king_to(self, c: Color) -> Square {
        let f = match self {
            Wing::King => File::G,
            Wing::Queen => File::C,
        };
        Square::new(f, c.back_rank())
    }

    /// Where the rook lands.
    pub const fn rook_to(self, c: Color) -> Square {
        let f = match self {
            Wing::King => File::F,
            Wing::Queen => File::D,
        };
        Square::new(f, c.back_rank())
    }
}

const NONE: u8 = 0xFF;

/// Up to four rights: per colour and wing, the file of the castling rook.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CastleRights([u8; 4]);

impl Default for CastleRights {
    fn default() -> Self {
        CastleRights::NONE
    }
}

impl CastleRights {
    pub const NONE: CastleRights = CastleRights([NONE; 4]);

    #[inline(always)]
    const fn slot(c: Color, w: Wing) -> usize {
        c.index() * 2 + w as usize
    }

    /// The castling rook's file for this colour and wing, if the right exists.
    #[inline(always)]
    pub const fn rook_file(self, c: Color, w: Wing) -> Option<File> {
        File::new(self.0[Self::slot(c, w)])
    }

    /// The castling rook's square for this colour and wing, if the right exists.
    #[inline(always)]
    pub const fn rook_square(self, c: Color, w: Wing) -> Option<Square> {
        match self.rook_file(c, w) {
            Some(f) => Some(Square::new(f, c.back_rank())),
            None => None,
        }
    }

    pub fn set(&mut self, c: Color, w: Wing, file: Option<File>) {
        self.0[Self::slot(c, w)] = file.map_or(NONE, |f| f.index() as u8);
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        u32::from_ne_bytes(self.0) == u32::MAX
    }

    /// Every (colour, file) that holds a right: what the Zobrist key hashes.
    pub fn iter(self) -> impl Iterator<Item = (Color, Wing, File)> {
        Color::ALL.into_iter().flat_map(move |c| {
            Wing::ALL
                .into_iter()
                .filter_map(move |w| self.rook_file(c, w).map(|f| (c, w, f)))
        })
    }
}
