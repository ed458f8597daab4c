//! `Board`: a chess position as bitboards, with the Zobrist key and the check and pin
//! information kept up to date by every move.
//!
//! Moves are applied by copy-make: [`Board::play`] changes the board in place, and a caller that
//! wants the old position back keeps a copy (the struct is about 100 bytes; copying it is cheaper than
//! recording and reverting the changes, and it makes "unmake" trivially exact).

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::castling::{CastleRights, Wing};
use crate::moves::{Move, MoveKind};
use crate::sliders::{Magic, Sliders};
use crate::types::{Color, File, Piece, PieceType, Square};
use crate::zobrist;

/// A move that is not legal in the position it was offered to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {0}")]
pub struct IllegalMove(pub Move);

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    pub(crate) by_type: [Bitboard; 6],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) side: Color,
    pub(crate) castling: CastleRights,
    /// Set only when a pawn of the side to move attacks it, so that equal positions hash equal.
    pub(crate) ep: Option<Square>,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    pub(crate) hash: u64,
    /// Pieces giving check to the side to move.
    pub(crate) checkers: Bitboard,
    /// Pieces of the side to move pinned to their own king.
    pub(crate) pinned: Bitboard,
}

pub const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Default for Board {
    fn default() -> Self {
        Board::startpos()
    }
}

impl Board {
    /// The standard starting position.
    pub fn startpos() -> Board {
        Board::from_fen(STARTPOS_FEN).expect("the start position parses")
    }

    /// An empty board with white to move; building block for parsers.
    pub(crate) fn empty() -> Board {
        Board {
            by_type: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            side: Color::White,
            castling: CastleRights::NONE,
            ep: None,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
        }
    }

    // ---- Accessors -------------------------------------------------------------------------

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    #[inline(always)]
    pub fn pieces(&self, pt: PieceType) -> Bitboard {
        self.by_type[pt.index()]
    }
    #[inline(always)]
    pub fn colored(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }
    #[inline(always)]
    pub fn pieces_of(&self, c: Color, pt: PieceType) -> Bitboard {
        self.by_type[pt.index()] & self.by_color[c.index()]
    }
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }
    /// Rooks and queens of colour `c`.
    #[inline(always)]
    pub fn orthogonal_sliders(&self, c: Color) -> Bitboard {
        (self.by_type[PieceType::Rook.index()] | self.by_type[PieceType::Queen.index()])
            & self.by_color[c.index()]
    }
    /// Bishops and queens of colour `c`.
    #[inline(always)]
    pub fn diagonal_sliders(&self, c: Color) -> Bitboard {
        (self.by_type[PieceType::Bishop.index()] | self.by_type[PieceType::Queen.index()])
            & self.by_color[c.index()]
    }
    #[inline(always)]
    pub fn king(&self, c: Color) -> Square {
        self.pieces_of(c, PieceType::King).lsb()
    }
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }
    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        self.ep
    }
    #[inline(always)]
    pub fn castle_rights(&self) -> CastleRights {
        self.castling
    }
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }
    #[inline(always)]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }
    /// The Zobrist key, kept up to date incrementally.
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    #[inline(always)]
    pub fn piece_type_on(&self, sq: Square) -> Option<PieceType> {
        if !self.occupied().has(sq) {
            return None;
        }
        PieceType::ALL
            .into_iter()
            .find(|pt| self.by_type[pt.index()].has(sq))
    }

    #[inline(always)]
    pub fn color_on(&self, sq: Square) -> Option<Color> {
        if self.by_color[0].has(sq) {
            Some(Color::White)
        } else if self.by_color[1].has(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        Some(Piece::new(self.color_on(sq)?, self.piece_type_on(sq)?))
    }

    // ---- Attacks ---------------------------------------------------------------------------

    /// Pieces of either colour that attack `sq`, with `occupied` as the blockers.
    pub fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        (attacks::pawn(Color::White, sq) & self.pieces_of(Color::Black, PieceType::Pawn))
            | (attacks::pawn(Color::Black, sq) & self.pieces_of(Color::White, PieceType::Pawn))
            | (attacks::knight(sq) & self.pieces(PieceType::Knight))
            | (attacks::king(sq) & self.pieces(PieceType::King))
            | (attacks::bishop(sq, occupied)
                & (self.pieces(PieceType::Bishop) | self.pieces(PieceType::Queen)))
            | (attacks::rook(sq, occupied)
                & (self.pieces(PieceType::Rook) | self.pieces(PieceType::Queen)))
    }

    /// Whether any piece of colour `by` attacks `sq`, with `occupied` as the blockers.
    #[inline(always)]
    pub(crate) fn is_attacked<S: Sliders>(
        &self,
        by: Color,
        sq: Square,
        occupied: Bitboard,
    ) -> bool {
        (attacks::knight(sq) & self.pieces_of(by, PieceType::Knight)).any()
            || (attacks::pawn(!by, sq) & self.pieces_of(by, PieceType::Pawn)).any()
            || (attacks::king(sq) & self.pieces_of(by, PieceType::King)).any()
            || (S::bishop(sq, occupied) & self.diagonal_sliders(by)).any()
            || (S::rook(sq, occupied) & self.orthogonal_sliders(by)).any()
    }

    /// Recomputes `checkers` and `pinned` for the side to move.
    #[inline(always)]
    pub(crate) fn update_check_info<S: Sliders>(&mut self) {
        let us = self.side;
        let them = !us;
        let ksq = self.king(us);
        let occ = self.occupied();
        let theirs = self.by_color[them.index()];
        let diag = self.diagonal_sliders(them);
        let orth = self.orthogonal_sliders(them);
        self.checkers = (attacks::pawn(us, ksq) & self.pieces_of(them, PieceType::Pawn))
            | (attacks::knight(ksq) & self.pieces_of(them, PieceType::Knight))
            | (S::bishop(ksq, occ) & diag)
            | (S::rook(ksq, occ) & orth);
        // Sliders that would attack the king through exactly one of our pieces pin it.
        let snipers = (S::bishop(ksq, theirs) & diag) | (S::rook(ksq, theirs) & orth);
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let blockers = attacks::between(ksq, s) & occ;
            if !blockers.several() {
                pinned |= blockers;
            }
        }
        self.pinned = pinned & self.by_color[us.index()];
    }

    // ---- Changing the board ----------------------------------------------------------------

    #[inline(always)]
    pub(crate) fn toggle(&mut self, c: Color, pt: PieceType, sq: Square) {
        let bit = Bitboard::from_square(sq);
        self.by_type[pt.index()] ^= bit;
        self.by_color[c.index()] ^= bit;
        self.hash ^= zobrist::piece(c, pt, sq);
    }

    #[inline(always)]
    fn clear_castling(&mut self, c: Color, w: Wing) {
        if let Some(f) = self.castling.rook_file(c, w) {
            self.hash ^= zobrist::castling(c, f);
            self.castling.set(c, w, None);
        }
    }

    /// Drops every right whose rook stands on `sq` (it moved or was captured).
    #[inline(always)]
    fn clear_castling_on(&mut self, sq: Square) {
        if self.castling.is_empty() {
            return;
        }
        for c in Color::ALL {
            for w in Wing::ALL {
                if self.castling.rook_square(c, w) == Some(sq) {
                    self.clear_castling(c, w);
                }
            }
        }
    }

    /// Plays a legal move (from [`Board::legal_moves`] or a checked parse). An illegal move
    /// leaves a nonsensical position but never undefined behaviour; use [`Board::try_play`] for
    /// moves from outside.
    #[inline(always)]
    pub fn play(&mut self, mv: Move) {
        self.play_with::<Magic>(mv);
    }

    /// Plays `mv` if it is legal here; otherwise leaves the board unchanged and says so.
    pub fn try_play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if self.is_legal(mv) {
            self.play(mv);
            Ok(())
        } else {
            Err(IllegalMove(mv))
        }
    }

    /// [`Board::play`] with a chosen slider lookup (the perft driver picks PEXT where it pays).
    #[inline(always)]
    pub fn play_with<S: Sliders>(&mut self, mv: Move) {
        let us = self.side;
        let them = !us;
        let from = mv.from();
        let to = mv.to();
        let Some(moving) = self.piece_type_on(from) else {
            debug_assert!(false, "no piece on {from} for {mv:?}");
            return;
        };
        if let Some(ep) = self.ep.take() {
            self.hash ^= zobrist::en_passant(ep.file());
        }
        self.halfmove = self.halfmove.saturating_add(1);

        match mv.kind() {
            MoveKind::Castling => {
                let wing = if to.file() > from.file() {
                    Wing::King
                } else {
                    Wing::Queen
                };
                // Lift both pieces before placing either: in Chess960 a destination may be the
                // other piece's start square.
                self.toggle(us, PieceType::King, from);
                self.toggle(us, PieceType::Rook, to);
                self.toggle(us, PieceType::King, wing.king_to(us));
                self.toggle(us, PieceType::Rook, wing.rook_to(us));
                self.clear_castling(us, Wing::King);
                self.clear_castling(us, Wing::Queen);
            }
            MoveKind::EnPassant => {
                let captured = Square::new(to.file(), from.rank());
                self.toggle(them, PieceType::Pawn, captured);
                self.toggle(us, PieceType::Pawn, from);
                self.toggle(us, PieceType::Pawn, to);
                self.halfmove = 0;
            }
            MoveKind::Normal | MoveKind::Promotion => {
                if let Some(captured) = self.piece_type_on(to) {
                    self.toggle(them, captured, to);
                    self.clear_castling_on(to);
                    self.halfmove = 0;
                }
                self.toggle(us, moving, from);
                self.toggle(us, mv.promotion_piece().unwrap_or(moving), to);
                match moving {
                    PieceType::Pawn => {
                        self.halfmove = 0;
                        if from.index() ^ to.index() == 16 {
                            let ep = Square::from_index_unchecked(
                                ((from.index() + to.index()) / 2) as u32,
                            );
                            if (attacks::pawn(us, ep) & self.pieces_of(them, PieceType::Pawn)).any()
                            {
                                self.ep = Some(ep);
                                self.hash ^= zobrist::en_passant(ep.file());
                            }
                        }
                    }
                    PieceType::King => {
                        self.clear_castling(us, Wing::King);
                        self.clear_castling(us, Wing::Queen);
                    }
                    _ => self.clear_castling_on(from),
                }
            }
        }
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = them;
        self.hash ^= zobrist::SIDE;
        self.update_check_info::<S>();
    }

    /// Passes the move to the opponent (null-move pruning). Only valid when not in check.
    pub fn play_null(&mut self) {
        debug_assert!(!self.in_check());
        if let Some(ep) = self.ep.take() {
            self.hash ^= zobrist::en_passant(ep.file());
        }
        self.halfmove = self.halfmove.saturating_add(1);
        if self.side == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = !self.side;
        self.hash ^= zobrist::SIDE;
        self.update_check_info::<Magic>();
    }

    /// The Zobrist key computed from scratch: what the incremental key must always equal.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for c in Color::ALL {
            for pt in PieceType::ALL {
                for sq in self.pieces_of(c, pt) {
                    h ^= zobrist::piece(c, pt, sq);
                }
            }
        }
        for (c, _, f) in self.castling.iter() {
            h ^= zobrist::castling(c, f);
        }
        if let Some(ep) = self.ep {
            h ^= zobrist::en_passant(ep.file());
        }
        if self.side == Color::Black {
            h ^= zobrist::SIDE;
        }
        h
    }

    /// Whether a piece of the side to move could take on `ep` en passant (pseudo-legally).
    pub(crate) fn ep_capturable(&self, ep: Square) -> bool {
        (attacks::pawn(!self.side, ep) & self.pieces_of(self.side, PieceType::Pawn)).any()
    }

    /// Whether some castling right is one standard chess cannot have (king off the e-file or
    /// rook off the a/h-files). Such positions print castling moves king-takes-rook (Chess960
    /// notation), since the standard form may be ambiguous there.
    pub fn has_chess960_castling(&self) -> bool {
        self.castling.iter().any(|(c, w, f)| {
            let standard_rook = match w {
                Wing::King => File::H,
                Wing::Queen => File::A,
            };
            f != standard_rook || self.king(c).file() != File::E
        })
    }

    /// The file of the outermost rook of colour `c` on wing `w` of its king, for X-FEN `KQkq`.
    pub(crate) fn outer_rook_file(&self, c: Color, w: Wing) -> Option<File> {
        let ksq = self.king(c);
        let rooks = self.pieces_of(c, PieceType::Rook) & Bitboard::rank(c.back_rank());
        let mut files = File::all().filter(|f| rooks.has(Square::new(*f, c.back_rank())));
        match w {
            Wing::King => files.rfind(|f| *f > ksq.file()),
            Wing::Queen => files.find(|f| *f < ksq.file()),
        }
    }
}
