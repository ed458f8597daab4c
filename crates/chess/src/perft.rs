//! Perft: the number of leaf nodes of the legal move tree to a given depth, the standard
//! correctness test (and speed test) of a move generator.
//!
//! The last ply is bulk-counted: a position one ply above the leaves has its legal moves counted
//! by popcount, never made. The recursion is compiled once per slider lookup, the PEXT copy
//! inside a `#[target_feature(enable = "bmi2")]` function so that `pext` inlines; `perft` picks
//! the copy [`crate::sliders::preferred`] says is faster here. Threads split the work at the
//! second ply (root move × reply), which balances well even when a few root moves dominate.

use crate::board::Board;
use crate::movegen::{MoveCounter, generate};
use crate::moves::{Move, MoveList};
use crate::sliders::{Magic, SliderKind, Sliders, preferred};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// The recursion body, shared by every slider form. `#[inline(always)]` so that it is compiled
/// into each (feature-enabled) wrapper.
#[inline(always)]
fn perft_body<S: Sliders>(board: &Board, depth: u32, recurse: impl Fn(&Board, u32) -> u64) -> u64 {
    if depth <= 1 {
        if depth == 0 {
            return 1;
        }
        let mut counter = MoveCounter(0);
        generate::<S, _>(board, &mut counter);
        return counter.0;
    }
    let mut moves = MoveList::new();
    generate::<S, _>(board, &mut moves);
    let mut nodes = 0;
    for &mv in moves.iter() {
        let mut child = *board;
        child.play_with::<S>(mv);
        nodes += recurse(&child, depth - 1);
    }
    nodes
}

fn perft_magic(board: &Board, depth: u32) -> u64 {
    perft_body::<Magic>(board, depth, perft_magic)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn perft_pext(board: &Board, depth: u32) -> u64 {
    // The closure inherits this function's target features, so the recursive call is safe.
    perft_body::<crate::sliders::Pext>(board, depth, |b, d| perft_pext(b, d))
}

/// Perft of `board` to `depth` on this thread, with the given slider lookup.
pub fn perft_with(board: &Board, depth: u32, sliders: SliderKind) -> u64 {
    match sliders {
        #[cfg(target_arch = "x86_64")]
        SliderKind::Pext if crate::sliders::has_bmi2() => {
            // SAFETY: BMI2 presence was just checked.
            unsafe { perft_pext(board, depth) }
        }
        _ => perft_magic(board, depth),
    }
}

/// Perft of `board` to `depth` on this thread, with the faster slider lookup for this CPU.
pub fn perft(board: &Board, depth: u32) -> u64 {
    perft_with(board, depth, preferred())
}

/// Per-root-move counts (`--divide`), in generation order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divide {
    pub moves: Vec<(Move, u64)>,
}

impl Divide {
    pub fn total(&self) -> u64 {
        self.moves.iter().map(|(_, n)| n).sum()
    }
}

/// Perft split by root move, on `threads` threads. `progress` is called (from any thread) with
/// the number of finished work items and the total, for progress bars.
pub fn perft_divide(
    board: &Board,
    depth: u32,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Divide {
    let sliders = preferred();
    let roots = board.legal_moves();
    if depth == 0 {
        return Divide { moves: Vec::new() };
    }
    // Work items: (root index, child board, remaining depth). At depth >= 3 the root moves are
    // split once more by reply, so that threads stay busy to the end.
    let mut items: Vec<(usize, Board, u32)> = Vec::new();
    for (i, &mv) in roots.iter().enumerate() {
        let mut child = *board;
        child.play(mv);
        if depth >= 3 {
            for &reply in child.legal_moves().iter() {
                let mut grandchild = child;
                grandchild.play(reply);
                items.push((i, grandchild, depth - 2));
            }
        } else {
            items.push((i, child, depth - 1));
        }
    }
    let counts: Vec<AtomicU64> = roots.iter().map(|_| AtomicU64::new(0)).collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let threads = threads.clamp(1, items.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some((root, child, d)) = items.get(k) else {
                        break;
                    };
                    let n = perft_with(child, *d, sliders);
                    counts[*root].fetch_add(n, Ordering::Relaxed);
                    let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                    progress(finished, items.len());
                }
            });
        }
    });
    Divide {
        moves: roots
            .iter()
            .zip(&counts)
            .map(|(&mv, n)| (mv, n.load(Ordering::Relaxed)))
            .collect(),
    }
}

/// Perft on `threads` threads.
pub fn perft_parallel(board: &Board, depth: u32, threads: usize) -> u64 {
    if depth <= 2 || threads <= 1 {
        return perft(board, depth);
    }
    perft_divide(board, depth, threads, &|_, _| {}).total()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_small_depths() {
        let b = Board::startpos();
        let expected = [1, 20, 400, 8902, 197_281];
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(perft(&b, d as u32), n, "depth {d}");
            assert_eq!(
                perft_with(&b, d as u32, SliderKind::Magic),
                n,
                "magic, depth {d}"
            );
        }
    }

    #[test]
    fn threads_and_divide_agree() {
        let b =
            Board::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
                .unwrap();
        let single = perft(&b, 4);
        assert_eq!(single, 4_085_603);
        assert_eq!(perft_parallel(&b, 4, 3), single);
        let divide = perft_divide(&b, 4, 2, &|_, _| {});
        assert_eq!(divide.moves.len(), 48);
        assert_eq!(divide.total(), single);
    }
}
