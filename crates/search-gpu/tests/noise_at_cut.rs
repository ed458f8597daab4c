//! `NOISE_AT_CUT` 0 (search.cl; an experiment, off: 1 by default): the noisy helpers order an
//! expected cut node's moves as worker 0 does, so that on a cold tree the helpers reaching it go
//! into the same refutation instead of each into its own. The results must not change in kind: the
//! mates proven, a legal line in a quiet position, every iteration ended by a worker that may end
//! one (worker 0 or a clean helper, every 4th of 32 workers under the default `CLEAN_WORKERS`).
//! Its own test binary: the kernel's build options are read from the environment when a search is
//! opened.

mod common;

#[test]
fn helpers_without_noise_at_cut_nodes_prove_the_mates() {
    common::clean_finishers_prove_the_mates("-DNOISE_AT_CUT=0", 32, 4);
}
