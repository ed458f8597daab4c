//! `LaneQs`: `kernels/lane_qs.h`'s quiescence search, one position per lane, over a batch of
//! positions; and [`reference()`], the same search on the CPU, node for node. The tests compare
//! the two; `bench/gpu-lane-qs.sh` times the kernel on the horizon's positions
//! ([`horizon_jobs`]) to see what lanes searching side by side would give the GPU search at its
//! leaves, where the warp-cooperative search enters one node at a time.

use crate::eval_source::WORKER_LANES;
use crate::kernel_source::{lane_qs_check_source, search_defines};
use crate::line_table::line_table;
use kogge_chess::{Board, Move, MoveKind, PieceType};
use kogge_eval::evaluate;
use kogge_gpu::{Arg, Buffer, Device, GpuError, Kernel, Module};
use kogge_search_cpu::params::DELTA_MARGIN;
use kogge_search_cpu::{insufficient_material, see_ge};
use std::time::{Duration, Instant};

/// lane_qs.h's limits: plies of one search, and the move stack a node needs `MAX_MOVES` of.
const PLIES: u32 = 16;
const STACK: u32 = 1024;
const MAX_MOVES: u32 = 256;
/// search_state.h's values and search_moves.h's ordering scores.
const INF: i32 = 32001;
const MATE: i32 = 32000;
const SCORE_PROMOTION: i32 = 26000;
const SCORE_CAPTURE: i32 = 20000;
const SCORE_UNDERPROMOTION: i32 = -30000;

/// 64-bit words per packed position (`PackedBoard`, 40 bytes).
const WORDS: usize = 5;

/// One quiescence search: a position and its window.
#[derive(Clone, Debug)]
pub struct LaneQsJob {
    pub board: Board,
    pub alpha: i32,
    pub beta: i32,
}

/// A search's result: its value (fail-soft, side to move's view) and the nodes it entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneQsResult {
    pub value: i32,
    pub nodes: u32,
}

/// The quiescence search kernel built for one device.
pub struct LaneQs {
    device: Device,
    _module: Module,
    kernel: Kernel,
    lines: Buffer<u64>,
}

impl LaneQs {
    pub fn new(device: Device) -> Result<LaneQs, GpuError> {
        let module = device.build(&lane_qs_check_source(), &search_defines())?;
        let kernel = module.kernel("lane_qs_rounds")?;
        let lines = device.upload(&line_table())?;
        Ok(LaneQs {
            device,
            _module: module,
            kernel,
            lines,
        })
    }

    pub fn device(&self) -> &Device {
        &self.device
    }

    /// Searches every job at distance `ply` from the search's root (for mate scores), by
    /// `warps` work-groups in rounds of [`WORKER_LANES`] consecutive jobs, a lane each
    /// (`lane_qs_rounds`). With `wait`, each round ends with its slowest lane: the time of a
    /// lane-parallel horizon with that many warp-workers. Without, each lane goes on to its next
    /// job at once: the bound for lanes that never wait. Returns the results in order and the
    /// time of the launch and the read-back.
    pub fn run(
        &mut self,
        jobs: &[LaneQsJob],
        ply: u32,
        warps: usize,
        wait: bool,
    ) -> Result<(Vec<LaneQsResult>, Duration), GpuError> {
        if jobs.is_empty() {
            return Ok((Vec::new(), Duration::ZERO));
        }
        let boards: Vec<[u64; WORDS]> = jobs
            .iter()
            .map(|j| {
                let p = j.board.pack();
                [p.quad[0], p.quad[1], p.quad[2], p.quad[3], p.state]
            })
            .collect();
        let windows: Vec<i32> = jobs.iter().flat_map(|j| [j.alpha, j.beta]).collect();
        let boards = self.device.upload(&boards)?;
        let windows = self.device.upload(&windows)?;
        let out: Buffer<i32> = self.device.alloc(2 * jobs.len())?;
        let n = u32::try_from(jobs.len())
            .map_err(|_| GpuError::BadArgument("more than 2^32 jobs".into()))?;
        let started = Instant::now();
        self.device.launch(
            &self.kernel,
            warps.max(1) * WORKER_LANES,
            WORKER_LANES,
            &[
                Arg::buf(&boards),
                Arg::buf(&windows),
                Arg::U32(n),
                Arg::U32(ply),
                Arg::buf(&out),
                Arg::buf(&self.lines),
                Arg::U32(u32::from(wait)),
            ],
        )?;
        let mut words = vec![0i32; 2 * jobs.len()];
        self.device.read(&out, &mut words)?;
        let took = started.elapsed();
        let results = words
            .chunks_exact(2)
            .map(|w| LaneQsResult {
                value: w[0],
                nodes: w[1] as u32,
            })
            .collect();
        Ok((results, took))
    }
}

/// lane_qs.h's search on the CPU: the same rules, order and limits, so the same value and node
/// count.
pub fn reference(board: &Board, alpha: i32, beta: i32, ply: u32) -> LaneQsResult {
    let mut nodes = 0;
    let value = search(board, alpha, beta, ply, 0, 0, &mut nodes);
    LaneQsResult { value, nodes }
}

fn search(
    board: &Board,
    mut alpha: i32,
    beta: i32,
    ply: u32,
    d: u32,
    top: u32,
    nodes: &mut u32,
) -> i32 {
    *nodes += 1;
    if insufficient_material(board) {
        return 0;
    }
    let in_check = board.in_check();
    if d + 1 >= PLIES || top + MAX_MOVES > STACK {
        return if in_check { 0 } else { evaluate(board) };
    }
    let stand = if in_check { -INF } else { evaluate(board) };
    let mut best = if in_check {
        -MATE + (ply + d) as i32
    } else {
        stand
    };
    if stand >= beta {
        return stand;
    }
    alpha = alpha.max(stand);
    let mut keys: Vec<u32> = board
        .legal_moves()
        .iter()
        .copied()
        .filter(|&m| in_check || is_noisy(board, m))
        .map(|m| sort_key(board, m))
        .collect();
    keys.sort_unstable_by(|a, b| b.cmp(a));
    let child_top = top + keys.len() as u32;
    for key in keys {
        let m = Move::from_raw(key as u16);
        if !in_check && prunes(board, m, stand, alpha) {
            continue;
        }
        let mut child = *board;
        child.play(m);
        let v = -search(&child, -beta, -alpha, ply, d + 1, child_top, nodes);
        if v > best {
            best = v;
            if v >= beta {
                return v;
            }
            alpha = alpha.max(v);
        }
    }
    best
}

/// What quiescence searches outside check: captures, en passant and queen promotions (the moves
/// search_moves.h's `gen_sorted` lists there; `tests/gen_sorted.rs` checks it against this).
pub fn is_noisy(board: &Board, m: Move) -> bool {
    match m.kind() {
        MoveKind::Promotion => m.promotion_piece() == Some(PieceType::Queen),
        MoveKind::EnPassant => true,
        MoveKind::Castling => false,
        MoveKind::Normal => board.color_on(m.to()) == Some(!board.side_to_move()),
    }
}

/// search_position.h's `order_value`.
fn order_value(pt: Option<PieceType>) -> i32 {
    match pt {
        Some(PieceType::Pawn) => 100,
        Some(PieceType::Knight) => 320,
        Some(PieceType::Bishop) => 330,
        Some(PieceType::Rook) => 500,
        Some(PieceType::Queen) => 900,
        _ => 0,
    }
}

/// lane_qs.h's `lane_qs_key`.
fn sort_key(board: &Board, m: Move) -> u32 {
    let them = !board.side_to_move();
    let victim = (board.color_on(m.to()) == Some(them))
        .then(|| board.piece_type_on(m.to()))
        .flatten();
    let score = match m.kind() {
        MoveKind::Promotion if m.promotion_piece() == Some(PieceType::Queen) => {
            SCORE_PROMOTION + order_value(Some(victim.unwrap_or(PieceType::Pawn))) / 10
        }
        MoveKind::Promotion => SCORE_UNDERPROMOTION,
        MoveKind::EnPassant => SCORE_CAPTURE + 100,
        MoveKind::Normal if victim.is_some() => {
            let attacker = board
                .piece_type_on(m.from())
                .map_or(0, |p| p.index() as i32);
            SCORE_CAPTURE + order_value(victim) - attacker
        }
        _ => 0,
    };
    (((score + 32768) as u32) << 16) | u32::from(m.raw())
}

/// lane_qs.h's `lane_qs_prunes`.
fn prunes(board: &Board, m: Move, stand: i32, alpha: i32) -> bool {
    let victim = match m.kind() {
        MoveKind::Promotion => return false,
        MoveKind::EnPassant => Some(PieceType::Pawn),
        _ => board.piece_type_on(m.to()),
    };
    stand + order_value(victim) + DELTA_MARGIN <= alpha || !see_ge(board, m, 0)
}

/// The quiescence searches a warp-worker's horizon starts: every child of each position, with
/// the null window a node one ply above the horizon gives its children, around the position's
/// own evaluation (`margins`, in turn: below it the children mostly fail high, above it low).
pub fn horizon_jobs(positions: &[Board], margins: &[i32]) -> Vec<LaneQsJob> {
    let mut jobs = Vec::new();
    for (i, board) in positions.iter().enumerate() {
        let alpha = evaluate(board) + margins[i % margins.len()];
        for &m in board.legal_moves().iter() {
            let mut child = *board;
            child.play(m);
            jobs.push(LaneQsJob {
                board: child,
                alpha: -alpha - 1,
                beta: -alpha,
            });
        }
    }
    jobs
}
