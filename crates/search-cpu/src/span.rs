//! The critical path of a Young Brothers Wait search: how many workers a tree could keep busy.
//!
//! YBWC (the GPU's `ybwc` mode, `search_split.h`) searches a node's first move alone, then hands
//! the node's other moves to whichever workers are idle. With as many workers as it likes, the
//! time such a search takes is its tree's *span*: the node itself, plus everything it searched
//! before splitting (null move, razoring, its first move), plus the longest *chain* among its
//! later moves (a move's reduced search, null-window search and re-search, one after the
//! other), or, where a later move cut the node, that move's chain, since its cutoff stops the
//! others. A node that may not split (quiescence, or fewer than `min_split_depth` plies to go)
//! is one worker's: its span is its node count. The tree's nodes over its span is the number of
//! workers YBWC can keep busy on it on average, however well it is implemented (with P workers
//! a search takes at least max(work / P, span) node steps).
//!
//! The model is measured on the CPU's one-thread search, whose tree is the GPU's one worker's
//! (the numbered steps of `pvs.rs` match `search.cl`): `kogge bench --span`. It ignores what a
//! parallel search changes (the table filled in another order, windows raised by siblings) and
//! what splitting costs; it is the ceiling the split search works under.
//!
//! Variants ([`SpanConfig`]): the least depth a node splits at; at most K split points open a
//! worker (the GPU's four slots), the worker that splits a node taking its next move itself;
//! and speculation, expected all-nodes splitting before their first move, with the nodes whose
//! first move cut them counted as mispredicted (what the moves searched beside it would cost is
//! not in a serial tree). Measured figures: docs/PERFORMANCE.md, seventieth session.

/// The least depth at which the GPU's YBWC splits a node (`SPLIT_MIN_DEPTH` in search_split.h).
pub const GPU_SPLIT_MIN_DEPTH: i32 = 2;

/// Nodes, those of them in the quiescence search and one ply above it, and the chains handed
/// to helpers (every later move but the one the node's owner goes on with: on the GPU a helper
/// finding the split point and joining it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub nodes: u64,
    pub quiescence: u64,
    /// Main-search nodes one ply from the horizon (their children are quiescence nodes).
    pub frontier: u64,
    pub chains: u64,
}

impl std::ops::Add for Tally {
    type Output = Tally;
    fn add(self, o: Tally) -> Tally {
        Tally {
            nodes: self.nodes + o.nodes,
            quiescence: self.quiescence + o.quiescence,
            frontier: self.frontier + o.frontier,
            chains: self.chains + o.chains,
        }
    }
}

impl std::ops::Sub for Tally {
    type Output = Tally;
    fn sub(self, o: Tally) -> Tally {
        Tally {
            nodes: self.nodes - o.nodes,
            quiescence: self.quiescence - o.quiescence,
            frontier: self.frontier - o.frontier,
            chains: self.chains - o.chains,
        }
    }
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, o: Tally) {
        *self = *self + o;
    }
}

/// What split search the span is measured for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpanConfig {
    /// The least depth at which a node splits.
    pub min_split_depth: i32,
    /// The most split points a worker holds open at once, if limited (the GPU's
    /// `SPLITS_PER_WORKER`): a node deeper in its search does not split. The worker that splits
    /// a node takes the node's next move itself; helpers take the later ones and start with
    /// none open.
    pub split_limit: Option<u32>,
    /// Expected all-nodes (outside the principal variation, not expected to cut) of at least
    /// this depth split before their first move is searched, as a speculative split search
    /// would: the span then counts no wait for their first move, and the nodes whose first move
    /// cut are counted as mispredicted (the serial tree cannot say what the moves searched
    /// beside it would cost).
    pub speculate_from: Option<i32>,
}

impl Default for SpanConfig {
    /// The GPU's YBWC with unlimited workers and split points.
    fn default() -> Self {
        SpanConfig {
            min_split_depth: GPU_SPLIT_MIN_DEPTH,
            split_limit: None,
            speculate_from: None,
        }
    }
}

/// One search iteration's work and span, over its aspiration windows (which run one after the
/// other).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IterationSpan {
    pub depth: u32,
    /// Every node searched.
    pub work: Tally,
    /// The nodes of the critical path.
    pub span: Tally,
    /// With speculation at expected all-nodes: such nodes that split at once, and those of
    /// them whose first move cut (where a speculative split searches later moves for nothing).
    pub speculated: u64,
    pub mispredicted: u64,
}

impl IterationSpan {
    /// Nodes over span: the workers the iteration could keep busy on average.
    pub fn parallelism(&self) -> f64 {
        if self.span.nodes == 0 {
            0.0
        } else {
            self.work.nodes as f64 / self.span.nodes as f64
        }
    }
}

/// A node of the search path being measured.
#[derive(Clone, Copy, Debug, Default)]
struct Frame {
    /// The counts when the node was entered.
    start: Tally,
    /// Nodes of the subtree so far that are off its critical path.
    off_path: Tally,
    /// Whether the searches now reported belong to a later move's chain (the node has split).
    in_chain: bool,
    chain_work: Tally,
    chain_span: Tally,
    /// The longest chain of the node's later moves so far.
    longest_chain: Tally,
    /// Split points the worker searching this node holds open above it (its own nodes in
    /// their later moves' phase).
    own_open: u32,
    /// Whether the current chain is the node's owner's (its second move: the owner takes it
    /// while helpers join) rather than a helper's.
    owners_chain: bool,
    /// Splits before its first move is searched (an expected all-node, with speculation on).
    speculative: bool,
    /// The move being searched, counting from 1.
    current_move: usize,
}

impl Frame {
    /// Ends the current later move's chain: its nodes are off the path, unless it is the
    /// longest, whose span the node adds at the end. `cut`: the move cut the node, so its
    /// chain is the one the node waits for.
    fn close_chain(&mut self, cut: bool) {
        if self.in_chain {
            self.off_path += self.chain_work;
            if cut || self.chain_span.nodes > self.longest_chain.nodes {
                self.longest_chain = self.chain_span;
            }
            self.chain_work = Tally::default();
            self.chain_span = Tally::default();
            self.in_chain = false;
        }
    }
}

/// Measures the span of the search of one thread, iteration by iteration.
#[derive(Clone, Debug)]
pub struct SpanMeter {
    config: SpanConfig,
    path: Vec<Frame>,
    /// The root searches of the iteration in progress, and its speculated and mispredicted
    /// nodes.
    iteration: (Tally, Tally),
    speculation: (u64, u64),
    iterations: Vec<IterationSpan>,
    /// Chains started so far.
    chains: u64,
}

impl SpanMeter {
    /// A meter for the split search `config` describes.
    pub fn new(config: SpanConfig) -> SpanMeter {
        SpanMeter {
            config,
            path: Vec::with_capacity(128),
            iteration: Default::default(),
            speculation: (0, 0),
            iterations: Vec::new(),
            chains: 0,
        }
    }

    /// The completed iterations, shallowest first.
    pub fn iterations(&self) -> &[IterationSpan] {
        &self.iterations
    }

    /// A node (of the main search, not quiescence) is entered with the search's counts at `at`
    /// (its `chains` are the meter's own), `depth` plies from the horizon; `expected_all`:
    /// neither a PV node nor one expected to cut.
    pub fn enter(&mut self, at: Tally, depth: i32, expected_all: bool) {
        let own_open = match self.path.last() {
            Some(parent) if parent.in_chain && parent.owners_chain => parent.own_open + 1,
            Some(parent) if parent.in_chain => 0,
            Some(parent) => parent.own_open,
            None => 0,
        };
        self.path.push(Frame {
            start: Tally {
                chains: self.chains,
                ..at
            },
            own_open,
            speculative: expected_all && self.config.speculate_from.is_some_and(|d| depth >= d),
            ..Frame::default()
        });
    }

    /// The node entered last is left with the counts at `at`: its work and span go to its
    /// parent, or to the iteration where it is the root.
    pub fn leave(&mut self, at: Tally) {
        let Some(mut frame) = self.path.pop() else {
            return;
        };
        frame.close_chain(false);
        let at = Tally {
            chains: self.chains,
            ..at
        };
        let work = at - frame.start;
        let span = work - frame.off_path + frame.longest_chain;
        match self.path.last_mut() {
            Some(parent) if parent.in_chain => {
                parent.chain_work += work;
                parent.chain_span += span;
            }
            Some(parent) => parent.off_path += work - span,
            None => {
                self.iteration.0 += work;
                self.iteration.1 += span;
            }
        }
    }

    /// The node about to search its `searched`-th move (counting from 1) at `depth` plies: the
    /// first move, and every move of a node too shallow to split, is searched by the node's
    /// worker; a later one starts a chain of its own.
    pub fn next_move(&mut self, searched: usize, depth: i32) {
        let limit = self.config.split_limit.unwrap_or(u32::MAX);
        if let Some(frame) = self.path.last_mut() {
            let first = if frame.speculative { 1 } else { 2 };
            let split =
                searched >= first && depth >= self.config.min_split_depth && frame.own_open < limit;
            frame.close_chain(false);
            frame.current_move = searched;
            if split {
                if searched == 1 {
                    self.speculation.0 += 1;
                }
                // A helper's chain starts with its hand-off, part of the node's work (the
                // owner goes on to the first move it splits at without one).
                let owners = searched == first;
                let start = Tally {
                    chains: u64::from(!owners),
                    ..Tally::default()
                };
                frame.in_chain = true;
                frame.owners_chain = owners;
                frame.chain_work = start;
                frame.chain_span = start;
                self.chains += start.chains;
            }
        }
    }

    /// The move just searched cut the node: where it was a later move, its chain is the node's
    /// longest (the cutoff stops the others).
    pub fn cut(&mut self) {
        if let Some(frame) = self.path.last_mut() {
            if frame.speculative && frame.in_chain && frame.current_move == 1 {
                self.speculation.1 += 1;
            }
            frame.close_chain(true);
        }
    }

    /// The iteration at `depth` is complete.
    pub fn end_iteration(&mut self, depth: i32) {
        let (work, span) = std::mem::take(&mut self.iteration);
        let (speculated, mispredicted) = std::mem::take(&mut self.speculation);
        self.iterations.push(IterationSpan {
            depth: depth as u32,
            work,
            span,
            speculated,
            mispredicted,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` nodes, none of them in quiescence.
    fn t(n: u64) -> Tally {
        Tally {
            nodes: n,
            ..Tally::default()
        }
    }

    /// A child of `size` nodes searched from the count `at`, not an expected all-node: the
    /// count after it.
    fn child(m: &mut SpanMeter, at: u64, size: u64) -> u64 {
        m.enter(t(at), 4, false);
        m.leave(t(at + size));
        at + size
    }

    /// A root of one node whose first move's subtree has 3 nodes and whose two later moves'
    /// have 5 and 2; `cut_by_last`: the last move cuts the root.
    fn root_with_three_moves(cut_by_last: bool) -> IterationSpan {
        let mut m = SpanMeter::new(SpanConfig::default());
        m.enter(t(0), 4, false);
        let mut nodes = 1;
        for (i, size) in [3u64, 5, 2].into_iter().enumerate() {
            m.next_move(i + 1, 4);
            nodes = child(&mut m, nodes, size);
        }
        if cut_by_last {
            m.cut();
        }
        m.leave(t(nodes));
        m.end_iteration(4);
        m.iterations()[0]
    }

    #[test]
    fn the_span_is_the_first_move_then_the_longest_later_chain() {
        let s = root_with_three_moves(false);
        assert_eq!((s.work.nodes, s.span.nodes), (11, 1 + 3 + 5));
        // Only the third move's chain is a helper's.
        assert_eq!((s.work.chains, s.span.chains), (1, 0));
    }

    #[test]
    fn a_later_move_that_cuts_ends_the_node_with_its_chain() {
        let s = root_with_three_moves(true);
        assert_eq!((s.work.nodes, s.span.nodes), (11, 1 + 3 + 2));
    }

    #[test]
    fn a_chain_adds_its_searches_one_after_the_other() {
        // The root's second move searched twice (reduced, then in full): one chain of 4 + 6.
        let mut m = SpanMeter::new(SpanConfig::default());
        m.enter(t(0), 4, false);
        m.next_move(1, 4);
        let at = child(&mut m, 1, 2);
        m.next_move(2, 4);
        let at = child(&mut m, at, 4);
        let at = child(&mut m, at, 6);
        m.leave(t(at));
        m.end_iteration(4);
        assert_eq!(m.iterations()[0].span.nodes, 1 + 2 + 10);
    }

    #[test]
    fn nodes_too_shallow_to_split_are_searched_by_one_worker() {
        let mut m = SpanMeter::new(SpanConfig::default());
        m.enter(t(0), 4, false);
        let mut at = 1;
        for (i, size) in [3u64, 5, 2].into_iter().enumerate() {
            m.next_move(i + 1, 1);
            at = child(&mut m, at, size);
        }
        m.leave(t(at));
        m.end_iteration(1);
        assert_eq!(m.iterations()[0].span.nodes, 11);
    }

    /// A meter speculating from depth 2, inside an expected all-node of depth 4 whose first move's
    /// subtree of 3 nodes was searched: the meter and the count after it.
    fn speculated_first_move() -> (SpanMeter, u64) {
        let mut m = SpanMeter::new(SpanConfig {
            speculate_from: Some(2),
            ..SpanConfig::default()
        });
        m.enter(t(0), 4, true);
        m.next_move(1, 4);
        let at = child(&mut m, 1, 3);
        (m, at)
    }

    #[test]
    fn a_speculative_node_does_not_wait_for_its_first_move() {
        // An expected all-node with moves of 3 and 5 nodes: both chains from the start.
        let (mut m, at) = speculated_first_move();
        m.next_move(2, 4);
        let at = child(&mut m, at, 5);
        m.leave(t(at));
        m.end_iteration(4);
        let s = m.iterations()[0];
        assert_eq!((s.work.nodes, s.span.nodes), (9, 1 + 5));
        assert_eq!((s.speculated, s.mispredicted), (1, 0));
    }

    #[test]
    fn a_speculative_node_cut_by_its_first_move_was_mispredicted() {
        let (mut m, at) = speculated_first_move();
        m.cut();
        m.leave(t(at));
        // A node not expected to be an all-node waits as before.
        m.enter(t(at), 4, false);
        m.next_move(1, 4);
        let at = child(&mut m, at + 1, 2);
        m.cut();
        m.leave(t(at));
        m.end_iteration(4);
        let s = m.iterations()[0];
        assert_eq!((s.work.nodes, s.span.nodes), (7, 4 + 3));
        assert_eq!((s.speculated, s.mispredicted), (1, 1));
    }
}
