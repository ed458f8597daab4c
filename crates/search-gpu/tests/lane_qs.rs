//! lane_qs.h's quiescence search, one position per lane, against its CPU twin
//! (`lane_qs::reference`) on every device present (PoCL in CI): the value and the node count of
//! every search, so that a difference in a rule, the move order or a limit shows.

mod common;

use common::{SUITES, devices, suite};
use kogge_chess::Board;
use kogge_search_gpu::lane_qs::{LaneQs, LaneQsJob, horizon_jobs, reference};

/// Windows around each position's evaluation: children failing high, low, and in between.
const MARGINS: [i32; 5] = [-150, -40, 0, 40, 150];

fn assert_agrees(what: &str, jobs: &[LaneQsJob], ply: u32) {
    assert!(!jobs.is_empty(), "{what}: no searches");
    let expected: Vec<_> = jobs
        .iter()
        .map(|j| reference(&j.board, j.alpha, j.beta, ply))
        .collect();
    for device in devices() {
        let name = device.info().name.clone();
        let mut qs = LaneQs::new(device).expect("lane_qs_check.cl builds");
        // Enough warps for a round each, and then three warps taking many rounds, waiting for
        // each other or not: all must find the same.
        let (got, took) = qs
            .run(jobs, ply, jobs.len().div_ceil(32), true)
            .expect("lane_qs_rounds runs");
        for wait in [true, false] {
            let (rounds, _) = qs.run(jobs, ply, 3, wait).expect("lane_qs_rounds runs");
            assert!(rounds == got, "{what}: 3 warps (wait {wait}) differ");
        }
        let nodes: u64 = got.iter().map(|r| u64::from(r.nodes)).sum();
        eprintln!(
            "{name}: {what}: {} searches, {nodes} nodes in {:.3} s",
            jobs.len(),
            took.as_secs_f64()
        );
        let bad: Vec<String> = jobs
            .iter()
            .zip(expected.iter().zip(&got))
            .filter(|(_, (cpu, gpu))| cpu != gpu)
            .map(|(j, (cpu, gpu))| {
                format!(
                    "{} ({}, {}): CPU {cpu:?}, GPU {gpu:?}",
                    j.board.to_fen(),
                    j.alpha,
                    j.beta
                )
            })
            .collect();
        assert!(
            bad.is_empty(),
            "{what}: {} of {} searches differ on {name}:\n{}",
            bad.len(),
            jobs.len(),
            bad.iter().take(5).cloned().collect::<Vec<_>>().join("\n")
        );
    }
}

#[test]
fn horizon_searches_match_the_cpu() {
    // Every 7th position of the suites (WAC's tactics and the perft suites' odd corners among
    // them), each child searched with a null window.
    let boards: Vec<Board> = SUITES.iter().flat_map(|s| suite(s)).step_by(7).collect();
    let jobs = horizon_jobs(&boards, &MARGINS);
    assert_agrees("horizon", &jobs, 5);
}

#[test]
fn wide_windows_and_mates_match_the_cpu() {
    // Full windows, where every capture sequence is searched out, and positions in check, where
    // a mate is scored from `ply`.
    let boards: Vec<Board> = suite("wac.epd").into_iter().step_by(3).collect();
    let mut jobs: Vec<LaneQsJob> = boards
        .iter()
        .map(|b| LaneQsJob {
            board: *b,
            alpha: -32001,
            beta: 32001,
        })
        .collect();
    for b in &boards {
        for &m in b.legal_moves().iter() {
            let mut child = *b;
            child.play(m);
            if child.in_check() {
                jobs.push(LaneQsJob {
                    board: child,
                    alpha: -32001,
                    beta: 32001,
                });
            }
        }
    }
    assert_agrees("wide windows", &jobs, 3);
}
