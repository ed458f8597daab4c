//! The GPU's static exchange evaluation (kernels/see.h) against the CPU search's `see_ge` on
//! every device present (PoCL in CI): every legal move of the shared suites and of random
//! playouts, at thresholds around the even exchange and the search's pruning margins. The GPU
//! search prunes by it, so a disagreement would make the two searches differ.

mod common;

use common::{assert_agrees_everywhere, playout_boards, run_per_item, suite_boards};
use kogge_chess::Board;
use kogge_gpu::{Arg, Device};
use kogge_search_gpu::line_table::line_table;
use kogge_search_gpu::{search_defines, see_check_source};

/// Thresholds asked for every move: even, the search's margins at a few depths, and values
/// just around a pawn and a minor piece, where an off-by-one would show.
const THRESHOLDS: [i32; 9] = [0, 1, -1, 100, 101, -60, -300, 230, -800];

/// (position, move, threshold) triples where the device's answer differs from the CPU's.
fn mismatches(device: &Device, boards: &[Board]) -> (usize, Vec<String>) {
    let defines: Vec<(&str, String)> = search_defines();
    let module = device
        .build(&see_check_source(), &defines)
        .expect("see_check builds");
    let kernel = module.kernel("see_check").expect("see_check is there");
    let lines = device.upload(&line_table()).expect("upload");

    let (mut packed, mut moves, mut thresholds, mut expected) = (vec![], vec![], vec![], vec![]);
    for board in boards {
        let p = board.pack();
        for mv in &board.legal_moves() {
            for &t in &THRESHOLDS {
                packed.push([p.quad[0], p.quad[1], p.quad[2], p.quad[3], p.state]);
                moves.push(u32::from(mv.raw()));
                thresholds.push(t);
                expected.push((*board, *mv, t, kogge_search_cpu::see_ge(board, *mv, t)));
            }
        }
    }
    let n = moves.len();
    let boards_buf = device.upload(&packed).expect("upload");
    let moves_buf = device.upload(&moves).expect("upload");
    let thresholds_buf = device.upload(&thresholds).expect("upload");
    let got = run_per_item(
        device,
        &kernel,
        n,
        &[
            Arg::buf(&boards_buf),
            Arg::buf(&moves_buf),
            Arg::buf(&thresholds_buf),
            Arg::U32(n as u32),
            Arg::buf(&lines),
        ],
    );
    let bad: Vec<String> = expected
        .iter()
        .zip(&got)
        .filter(|((.., cpu), gpu)| u32::from(*cpu) != **gpu)
        .map(|((board, mv, t, cpu), _)| format!("{} {mv} threshold {t}: CPU {cpu}", board.to_fen()))
        .collect();
    (n, bad)
}

#[test]
fn suites_match_the_cpu() {
    let boards = suite_boards();
    assert_agrees_everywhere("suites", "exchanges", |device| mismatches(device, &boards));
}

#[test]
fn playouts_match_the_cpu() {
    let boards = playout_boards();
    assert_agrees_everywhere("random playouts", "exchanges", |device| {
        mismatches(device, &boards)
    });
}
