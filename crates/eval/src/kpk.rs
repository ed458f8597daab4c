//! King and pawn against king, solved: every such position is a win for the side with the pawn or
//! a draw, and a table of one bit a position says which (a "bitbase"), made once by retrograde
//! analysis from the positions decided at once (a safe promotion, a stalemate, the pawn taken).
//!
//! Why: the evaluation scores a lone extra pawn as about a pawn and a half whatever the kings do,
//! and a search finds the draw of a rook's pawn with the defending king in the corner only some
//! 24 plies deep. A game of the fiftieth session's matches (docs/STRENGTH.md) was drawn that way:
//! the GPU, two pawns up with rooks on, traded the rooks into such an ending at depth 22 scoring
//! it +2.07. With the table the evaluation of a drawn ending is 0, on the CPU and on the GPU (which
//! reads the same words, appended to its line table: crates/search-gpu's `line_table`).
//!
//! Positions are seen from the side with the pawn ("white"), the pawn on files a to d (the board
//! mirrored otherwise), ranks 2 to 7: 2 sides to move × 64 × 64 king squares × 24 pawn squares.

use kogge_chess::{Board, Color, PieceType, attacks};
use std::sync::OnceLock;

/// Positions in the table: [`index`]'s range.
pub const POSITIONS: usize = 2 * 64 * 64 * 24;
/// 64-bit words of the table: bit `i % 64` of word `i / 64` is set where position `i` is won.
pub const WORDS: usize = POSITIONS / 64;

/// The table's index of a position with the strong side's king on `strong_king`, the other on
/// `weak_king`, the pawn on `pawn` (file a to d, rank 2 to 7, as square indices a1 = 0) and the
/// strong side to move or not. The GPU's `kpk_index` (eval.h) is the same formula.
pub fn index(strong_to_move: bool, strong_king: usize, weak_king: usize, pawn: usize) -> usize {
    debug_assert!(pawn & 7 < 4 && (8..56).contains(&pawn));
    let pawn_index = (pawn & 7) * 6 + (pawn >> 3) - 1;
    ((usize::from(!strong_to_move) * 64 + strong_king) * 64 + weak_king) * 24 + pawn_index
}

/// The table, made on first use (about 20 ms on the 2-core development machine).
pub fn words() -> &'static [u64; WORDS] {
    static TABLE: OnceLock<Box<[u64; WORDS]>> = OnceLock::new();
    TABLE.get_or_init(solve)
}

/// Whether the side with the pawn wins: `None` unless `board` is two kings and one pawn.
pub fn probe(board: &Board) -> Option<bool> {
    let pawns = board.pieces(PieceType::Pawn);
    if board.occupied().count() != 3 || pawns.count() != 1 {
        return None;
    }
    let pawn = pawns.lsb();
    let strong = if board.colored(Color::White).has(pawn) {
        Color::White
    } else {
        Color::Black
    };
    let weak = strong.flip();
    // From the strong side: black's pawn upside down, then files e to h mirrored onto d to a.
    let flip = if strong == Color::White { 0 } else { 56 };
    let mut p = pawn.index() ^ flip;
    let mut sk = board.pieces_of(strong, PieceType::King).lsb().index() ^ flip;
    let mut wk = board.pieces_of(weak, PieceType::King).lsb().index() ^ flip;
    if p & 7 >= 4 {
        p ^= 7;
        sk ^= 7;
        wk ^= 7;
    }
    let i = index(board.side_to_move() == strong, sk, wk, p);
    Some(words()[i / 64] >> (i % 64) & 1 == 1)
}

/// Whether `board` is king and pawn against king and drawn.
pub fn is_draw(board: &Board) -> bool {
    probe(board) == Some(false)
}

/// The position of white's king, black's king and one pawn of `pawn_colour` on those squares (a1 =
/// 0), `side` to move, if it is one: `None` where two share a square, the kings stand side by
/// side, a pawn stands on the first or last rank or the side not to move is in check
/// ([`Board::from_fen`]'s checks). For tests that go over many such endings.
pub fn position(
    white_king: usize,
    black_king: usize,
    pawn: usize,
    pawn_colour: Color,
    side: Color,
) -> Option<Board> {
    if white_king == black_king || pawn == white_king || pawn == black_king {
        return None;
    }
    let mut squares = ['1'; 64];
    squares[white_king] = 'K';
    squares[black_king] = 'k';
    squares[pawn] = if pawn_colour == Color::White {
        'P'
    } else {
        'p'
    };
    // Every empty square a '1': Board::from_fen adds up the digits of a rank.
    let ranks: Vec<String> = squares
        .chunks(8)
        .rev()
        .map(|rank| rank.iter().collect())
        .collect();
    let to_move = if side == Color::White { "w" } else { "b" };
    Board::from_fen(&format!("{} {to_move} - - 0 1", ranks.join("/"))).ok()
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Outcome {
    /// Not a position: kings on one square or side by side, a piece on another, or the weak king
    /// in check with the strong side to move.
    Invalid,
    Unknown,
    Draw,
    Win,
}

fn king(sq: usize) -> u64 {
    attacks::king(kogge_chess::Square::from_index_unchecked(sq as u32)).0
}

fn pawn_attacks(sq: usize) -> u64 {
    attacks::pawn(
        Color::White,
        kogge_chess::Square::from_index_unchecked(sq as u32),
    )
    .0
}

fn decode(i: usize) -> (bool, usize, usize, usize) {
    let pawn_index = i % 24;
    let weak_king = i / 24 % 64;
    let strong_king = i / (24 * 64) % 64;
    let strong_to_move = i / (24 * 64 * 64) == 0;
    let pawn = (pawn_index / 6) + 8 * (pawn_index % 6 + 1);
    (strong_to_move, strong_king, weak_king, pawn)
}

/// What a position is before looking at its moves' results.
fn initial(strong_to_move: bool, sk: usize, wk: usize, p: usize) -> Outcome {
    if sk == wk || sk == p || wk == p || king(sk) & (1 << wk) != 0 {
        return Outcome::Invalid;
    }
    if strong_to_move {
        if pawn_attacks(p) & (1 << wk) != 0 {
            return Outcome::Invalid;
        }
        // A pawn on the seventh that promotes where the weak king cannot take the queen.
        let queen = p + 8;
        if p >> 3 == 6
            && queen != sk
            && queen != wk
            && (king(wk) & (1 << queen) == 0 || king(sk) & (1 << queen) != 0)
        {
            return Outcome::Win;
        }
    } else {
        let guarded = king(sk) | pawn_attacks(p);
        let escapes = king(wk) & !guarded;
        if escapes == 0 {
            // No move: mate if the pawn gives check, else stalemate.
            return if pawn_attacks(p) & (1 << wk) != 0 {
                Outcome::Win
            } else {
                Outcome::Draw
            };
        }
        if escapes & (1 << p) != 0 {
            return Outcome::Draw; // the pawn taken
        }
    }
    Outcome::Unknown
}

/// The table: every position's outcome from its moves' until none changes; what is still unknown
/// then is a draw (the strong side cannot force a win).
fn solve() -> Box<[u64; WORDS]> {
    let mut outcome: Vec<Outcome> = (0..POSITIONS)
        .map(|i| {
            let (s, sk, wk, p) = decode(i);
            initial(s, sk, wk, p)
        })
        .collect();
    let mut changed = true;
    while changed {
        changed = false;
        for i in 0..POSITIONS {
            if outcome[i] != Outcome::Unknown {
                continue;
            }
            let next = classify(&outcome, i);
            if next != Outcome::Unknown {
                outcome[i] = next;
                changed = true;
            }
        }
    }
    let mut words = Box::new([0u64; WORDS]);
    for (i, o) in outcome.iter().enumerate() {
        if *o == Outcome::Win {
            words[i / 64] |= 1 << (i % 64);
        }
    }
    words
}

/// A position's outcome from its moves': the strong side wins if one move wins, draws if every
/// move draws; the weak side draws if one move draws, loses if every move loses (`by_moves`).
fn classify(outcome: &[Outcome], i: usize) -> Outcome {
    let (strong_to_move, sk, wk, p) = decode(i);
    let mut children = Vec::with_capacity(10);
    if strong_to_move {
        let mut to = king(sk) & !king(wk) & !(1 << p);
        while to != 0 {
            let k = to.trailing_zeros() as usize;
            to &= to - 1;
            children.push(outcome[index(false, k, wk, p)]);
        }
        // Pushes below the seventh rank (a promotion is decided at once, in `initial`, or is no
        // win: the weak king takes the queen).
        let free = |sq: usize| sq != sk && sq != wk;
        if p >> 3 < 6 && free(p + 8) {
            children.push(outcome[index(false, sk, wk, p + 8)]);
            if p >> 3 == 1 && free(p + 16) {
                children.push(outcome[index(false, sk, wk, p + 16)]);
            }
        }
        by_moves(&children, Outcome::Win, Outcome::Draw)
    } else {
        let mut to = king(wk) & !king(sk) & !pawn_attacks(p) & !(1 << p);
        while to != 0 {
            let k = to.trailing_zeros() as usize;
            to &= to - 1;
            children.push(outcome[index(true, sk, k, p)]);
        }
        by_moves(&children, Outcome::Draw, Outcome::Win)
    }
}

/// The mover's outcome from its moves' (`children`): `good` if one move reaches it, `bad` if every
/// move does (no move at all: the strong side stalemated, a draw), unknown yet otherwise.
fn by_moves(children: &[Outcome], good: Outcome, bad: Outcome) -> Outcome {
    if children.contains(&good) {
        good
    } else if children.iter().all(|&c| c == bad) {
        bad
    } else {
        Outcome::Unknown
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe_fen(fen: &str) -> Option<bool> {
        probe(&Board::from_fen(fen).expect("a legal FEN"))
    }

    #[test]
    fn known_positions() {
        // The rook's pawn with the defending king in the corner: drawn whoever moves.
        assert_eq!(probe_fen("8/7k/8/6K1/8/7P/8/8 w - - 0 1"), Some(false));
        assert_eq!(probe_fen("8/7k/8/6K1/8/7P/8/8 b - - 0 1"), Some(false));
        // The king on the sixth in front of its pawn on the fifth wins, whoever moves.
        assert_eq!(probe_fen("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1"), Some(true));
        assert_eq!(probe_fen("4k3/8/4K3/4P3/8/8/8/8 b - - 0 1"), Some(true));
        // The king in front of its pawn, the defender with the opposition: a draw with white to
        // move; with black to move black must give way and white wins.
        assert_eq!(probe_fen("8/4k3/8/4K3/4P3/8/8/8 w - - 0 1"), Some(false));
        assert_eq!(probe_fen("8/4k3/8/4K3/4P3/8/8/8 b - - 0 1"), Some(true));
        // The pawn outruns a king outside its square, and not one inside it.
        assert_eq!(probe_fen("8/8/8/8/1P6/8/8/K6k w - - 0 1"), Some(true));
        assert_eq!(probe_fen("8/8/8/8/1P3k2/8/8/K7 b - - 0 1"), Some(false));
        // Only the double step outruns the king: one step, and the king gets into the square.
        assert_eq!(probe_fen("8/8/8/7k/8/8/1P6/7K w - - 0 1"), Some(true));
        // The first draw upside down with black's pawn, and on the a-file.
        assert_eq!(probe_fen("8/8/7p/8/6k1/8/7K/8 b - - 0 1"), Some(false));
        assert_eq!(probe_fen("8/k7/8/1K6/8/P7/8/8 w - - 0 1"), Some(false));
        // Not KPK.
        assert_eq!(probe_fen("4k3/8/8/8/8/8/4PP2/4K3 w - - 0 1"), None);
        assert_eq!(probe_fen("4k3/8/8/8/8/8/4N3/4K3 w - - 0 1"), None);
    }

    #[test]
    fn the_table_agrees_with_the_colours_and_files_swapped() {
        // Every KPK position with white's pawn, against the same with colours and sides swapped
        // and the board turned upside down (crate::mirror), and against its files mirrored.
        let mut checked = 0;
        for p in 8..56 {
            for wk in 0..64 {
                for bk in 0..64 {
                    for side in Color::ALL {
                        let Some(b) = position(wk, bk, p, Color::White, side) else {
                            continue;
                        };
                        let a = probe(&b);
                        assert!(a.is_some(), "{}", b.to_fen());
                        let turned = crate::mirror(&b);
                        assert_eq!(
                            a,
                            probe(&turned),
                            "{} against {}",
                            b.to_fen(),
                            turned.to_fen()
                        );
                        let mirrored = position(wk ^ 7, bk ^ 7, p ^ 7, Color::White, side)
                            .expect("a position");
                        assert_eq!(
                            a,
                            probe(&mirrored),
                            "{} against {}",
                            b.to_fen(),
                            mirrored.to_fen()
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 300_000, "{checked}");
    }

    #[test]
    fn wins_and_draws_are_consistent_with_their_moves() {
        // Every position that is not decided at once: the strong side's win has a winning move,
        // a draw none; the weak side's draw has a drawing move, a loss none.
        let table = words();
        let won = |i: usize| table[i / 64] >> (i % 64) & 1 == 1;
        let outcomes: Vec<Outcome> = (0..POSITIONS)
            .map(|i| {
                let (s, sk, wk, p) = decode(i);
                match initial(s, sk, wk, p) {
                    Outcome::Unknown if won(i) => Outcome::Win,
                    Outcome::Unknown => Outcome::Draw,
                    o => o,
                }
            })
            .collect();
        let mut wins = 0;
        for i in 0..POSITIONS {
            let (s, sk, wk, p) = decode(i);
            if initial(s, sk, wk, p) != Outcome::Unknown {
                continue;
            }
            let by_moves = classify(&outcomes, i);
            let o = outcomes[i];
            assert_eq!(by_moves, o, "position {i}");
            wins += usize::from(o == Outcome::Win);
        }
        assert!(wins > 50_000, "{wins}");
    }
}
