//! The GPU search's diagnostics: the lines `KOGGE_SEARCH_TRACE` prints for each iteration, and
//! the counters the kernel keeps where `KOGGE_SEARCH_DIAG` (nodes new and seen before, by key
//! and depth) and `KOGGE_SEARCH_CYCLES` (cycles by part of its state machine) are set. Nothing
//! here changes a search.

use super::{GpuSearch, Iteration};
use crate::layout::{Finisher, STATUS_DONE, STATUS_HELPED, SearchParams};
use kogge_chess::Move;
use kogge_gpu::GpuError;
use std::time::Duration;

/// The diagnostic's node counts ([`GpuSearch::node_counts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeCounts {
    /// Nodes whose key and depth no worker had entered before in this search.
    pub new: u64,
    /// Nodes entered again (by the same worker or another).
    pub seen: u64,
    /// Nodes not counted: the device table had no free slot near their key.
    pub lost: u64,
    /// Nodes an earlier run on the same table had entered, counted once
    /// ([`GpuSearch::next_node_count_run`]).
    pub earlier: u64,
}

/// One part of the kernel's state machine, timed ([`GpuSearch::cycle_counts`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CyclePart {
    /// `need-…` for a cooperative step, `state-…` for a state's control.
    pub name: String,
    /// The multiprocessors' cycles its turns took, summed over the workers (0 where the backend
    /// has no cycle counter: OpenCL off NVIDIA).
    pub cycles: u64,
    /// Its turns, summed over the workers.
    pub turns: u64,
}

/// Where `control`'s cycle counters start (`CONTROL_CYCLES` in search_state.h), and how many
/// parts they time (`DIAG_PARTS`: the cooperative steps, then from `DIAG_STATE_BASE` the
/// states), each a pair of u64 (cycles, turns).
const CONTROL_CYCLES: usize = (super::CONTROL_SOLO + super::SOLO_SMS + 1) & !1;
const DIAG_PARTS: usize = 32;
const DIAG_STATE_BASE: usize = 16;
/// The cooperative steps' and the states' names, in the kernel's numbering (`NEED_*`,
/// `STATE_*` in search.cl).
/// Quiescence's generations, evaluations and states (enter to return) are counted apart, as the
/// `-qs` parts (`DIAG_NEED_GEN_QS`, `DIAG_STATE_QS` in search_state.h).
const NEED_NAMES: [&str; 16] = [
    "none", "sync", "eval", "gen", "scan", "etc", "publish", "take", "close", "find", "adopt",
    "leave", "unwind", "merge", "gen-qs", "eval-qs",
];
const STATE_NAMES: [&str; 12] = [
    "enter",
    "eval",
    "moves",
    "next",
    "return",
    "idle",
    "split-end",
    "enter-qs",
    "eval-qs",
    "moves-qs",
    "next-qs",
    "return-qs",
];

/// The words of `control` before the diagnostic table (`CONTROL_DIAG_TABLE` in search_state.h):
/// after the cycle counters where they are kept.
pub(super) fn control_diag_table(cycles: bool) -> usize {
    if cycles {
        CONTROL_CYCLES + 4 * DIAG_PARTS
    } else {
        CONTROL_CYCLES
    }
}
/// The word holding the current run's tag (`CONTROL_DIAG_TAG`).
pub(super) const CONTROL_DIAG_TAG: usize = 8;

impl GpuSearch {
    /// One line on stderr for a finished iteration: its time and launches, and the nodes of the
    /// worker that finished it (the iteration's critical path: the time to depth is about its
    /// node count times the time a node takes), with those that ended on the table's bound.
    pub(super) fn trace_iteration(
        &self,
        params: &SearchParams,
        done: &Iteration,
        took: Duration,
        launches: u32,
    ) {
        let finisher = &self.host_results[done.worker];
        let diag = match self.node_counts() {
            Ok(Some(c)) => format!(
                "; search so far: {} nodes new, {} seen before, {} from an earlier run, {} not counted",
                c.new, c.seen, c.earlier, c.lost
            ),
            _ => String::new(),
        };
        eprintln!(
            "iteration depth {} window {}..{}: {:.3} ms, launches {}; finisher worker {}{}: {} nodes, \
             {} table cutoffs, {} ETC; all {} workers: {} nodes, {} table cutoffs, {} ETC{}{}",
            params.depth,
            params.alpha,
            params.beta,
            took.as_secs_f64() * 1e3,
            launches,
            done.worker,
            // A helper searching ahead of the iteration ended it at its depth.
            if done.depth as i32 != params.depth {
                format!(" at depth {}", done.depth)
            } else {
                String::new()
            },
            finisher.nodes,
            finisher.tt_cutoffs,
            finisher.etc_cutoffs,
            self.active_workers,
            done.nodes,
            done.tt_cutoffs,
            done.etc_cutoffs,
            diag,
            // Under `closing`, which rule ended it.
            if self.options.finisher == Finisher::Closing {
                format!("; rule {}", self.iteration_finisher().name())
            } else {
                String::new()
            }
        );
        if let Ok(Some(parts)) = self.cycle_counts() {
            let listed: Vec<String> = parts
                .iter()
                .filter(|p| p.turns > 0)
                .map(|p| format!("{} {} {}", p.name, p.cycles, p.turns))
                .collect();
            eprintln!("cycles (part, cycles, turns): {}", listed.join("; "));
        }
    }

    /// With `KOGGE_SEARCH_CYCLES` set when the search was opened: every worker's cycles and turns
    /// of the state machine by part since then (`DIAG_CYCLES` in search_state.h; with
    /// `KOGGE_SEARCH_DIAG` too, since the last [`GpuSearch::new_search`], which clears `control`),
    /// the cooperative steps first (`need-…`), then the states' control (`state-…`). `None`
    /// without it.
    pub fn cycle_counts(&self) -> Result<Option<Vec<CyclePart>>, GpuError> {
        if !self.diag_cycles {
            return Ok(None);
        }
        let mut words = vec![0u32; CONTROL_CYCLES + 4 * DIAG_PARTS];
        self.device.read(&self.control, &mut words)?;
        let pair = |i: usize| {
            let at = CONTROL_CYCLES + 4 * i;
            let word =
                |k: usize| u64::from(words[at + 2 * k]) | u64::from(words[at + 2 * k + 1]) << 32;
            (word(0), word(1))
        };
        let needs = NEED_NAMES
            .iter()
            .enumerate()
            .map(|(i, n)| (format!("need-{n}"), i));
        let states = STATE_NAMES
            .iter()
            .enumerate()
            .map(|(i, n)| (format!("state-{n}"), DIAG_STATE_BASE + i));
        Ok(Some(
            needs
                .chain(states)
                .map(|(name, i)| {
                    let (cycles, turns) = pair(i);
                    CyclePart {
                        name,
                        cycles,
                        turns,
                    }
                })
                .collect(),
        ))
    }

    /// One line on stderr after the iteration's: the best moves of the workers that had
    /// finished it, grouped by the launch in which they did, against the finisher's.
    pub(super) fn trace_agreement(
        &self,
        done: &Iteration,
        done_at: &[u32],
        first_of_0: Option<(u32, u16, i32)>,
    ) {
        let mut by_launch: std::collections::BTreeMap<u32, Vec<(u16, i32)>> = Default::default();
        for (r, &at) in self.host_results.iter().zip(done_at) {
            if at != 0 && (r.status == STATUS_DONE || r.status == STATUS_HELPED) {
                by_launch
                    .entry(at)
                    .or_default()
                    .push((r.best_move as u16, r.score));
            }
        }
        let groups: Vec<String> = by_launch
            .iter()
            .map(|(at, moves)| {
                let same = moves.iter().filter(|m| m.0 == done.best.raw()).count();
                let mut others: Vec<String> = moves
                    .iter()
                    .filter(|m| m.0 != done.best.raw())
                    .map(|m| format!("{} {}", Move::from_raw(m.0), m.1))
                    .collect();
                others.sort();
                others.dedup();
                format!(
                    "launch {at}: {same}/{} same [{}]",
                    moves.len(),
                    others.join(", ")
                )
            })
            .collect();
        let first = first_of_0.map_or("none".to_string(), |(at, m, v)| {
            format!("launch {at} {} {v}", Move::from_raw(m))
        });
        eprintln!(
            "agreement depth {} finisher {} best {} score {}; worker 0's first move {first}; {}",
            done.depth,
            done.worker,
            done.best,
            done.score,
            groups.join("; ")
        );
    }

    /// One line on stderr for a stopped iteration: worker 0's best root move so far, the best
    /// among the workers whose result could end the iteration ([`GpuSearch::clean_partial`]),
    /// and each root move some worker had as its best so far (`partial_move`), with how many
    /// workers had it and their highest and lowest values. The host plays the highest
    /// (`Outcome::Stopped`); the line is there to judge that rule against others
    /// (`bench/gpu-stop-moves.py`).
    pub(super) fn trace_stopped(&self, depth: i32) {
        let mut moves: std::collections::BTreeMap<u16, (u32, i32, i32)> = Default::default();
        let mut none = 0u32;
        for r in &self.host_results {
            if r.partial_move == 0 {
                none += 1;
                continue;
            }
            let e =
                moves
                    .entry(r.partial_move as u16)
                    .or_insert((0, r.partial_score, r.partial_score));
            e.0 += 1;
            e.1 = e.1.max(r.partial_score);
            e.2 = e.2.min(r.partial_score);
        }
        let mut listed: Vec<(u16, (u32, i32, i32))> = moves.into_iter().collect();
        listed.sort_by_key(|(_, (count, max, _))| (std::cmp::Reverse(*count), -max));
        let listed: Vec<String> = listed
            .iter()
            .map(|(m, (count, max, min))| format!("{} {count} {max} {min}", Move::from_raw(*m)))
            .collect();
        let r0 = &self.host_results[0];
        let first = if r0.partial_move == 0 {
            "none".to_string()
        } else {
            format!(
                "{} {}",
                Move::from_raw(r0.partial_move as u16),
                r0.partial_score
            )
        };
        let clean = match self.clean_partial() {
            Some((m, value)) => format!("{m} {value}"),
            None => "none".to_string(),
        };
        eprintln!(
            "stopped depth {depth}; worker 0 {first}; clean {clean}; none {none}; partials {}",
            listed.join(", ")
        );
    }

    /// With `KOGGE_SEARCH_DIAG` set when the search was opened: the nodes its workers entered
    /// (and did not put off) since the last [`GpuSearch::new_search`] or
    /// [`GpuSearch::next_node_count_run`], new and seen before by key and depth. `None` without
    /// it.
    pub fn node_counts(&self) -> Result<Option<NodeCounts>, GpuError> {
        if self.diag_log2.is_none() {
            return Ok(None);
        }
        let mut words = [0u32; CONTROL_DIAG_TAG];
        self.device.read(&self.control, &mut words)?;
        Ok(Some(NodeCounts {
            new: u64::from(words[4]),
            seen: u64::from(words[5]),
            lost: u64::from(words[6]),
            earlier: u64::from(words[7]),
        }))
    }
}
