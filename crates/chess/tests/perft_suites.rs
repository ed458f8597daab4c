//! The perft suites from `../shared/data`, each count checked up to a node budget that fits CI
//! (about a minute on two cores in all). `KOGGE_PERFT_BUDGET=N` raises or lowers every budget,
//! e.g. `KOGGE_PERFT_BUDGET=1000000000000` checks every depth of every position.

use kogge_chess::epd::{Epd, parse_file};
use kogge_chess::perft::perft_with;
use kogge_chess::sliders::{SliderKind, has_bmi2};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

fn budget(default: u64) -> u64 {
    std::env::var("KOGGE_PERFT_BUDGET")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Checks every `Dn` count up to `max_nodes` of every position in `file`, spreading positions
/// over all cores and alternating the slider lookups (magic / PEXT) so both are exercised.
/// Returns the number of counts checked.
fn run_suite(file: &str, max_nodes: u64) -> usize {
    let path = kogge_chess::testdata::path(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let entries: Vec<(usize, Epd)> = parse_file(&text)
        .into_iter()
        .map(|(line, r)| (line, r.unwrap_or_else(|e| panic!("{file}:{line}: {e}"))))
        .collect();
    assert!(!entries.is_empty(), "{file} has no positions");
    let next = AtomicUsize::new(0);
    let checked = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((line, epd)) = entries.get(i) else { break };
                    let sliders = if i % 2 == 1 && has_bmi2() {
                        SliderKind::Pext
                    } else {
                        SliderKind::Magic
                    };
                    let counts = epd.perft_counts();
                    assert!(!counts.is_empty(), "{file}:{line} has no perft counts");
                    for (depth, expected) in counts {
                        if expected > max_nodes {
                            continue;
                        }
                        let got = perft_with(&epd.board, depth, sliders);
                        checked.fetch_add(1, Ordering::Relaxed);
                        if got != expected {
                            failures.lock().unwrap().push(format!(
                                "{file}:{line}: {} depth {depth}: expected {expected}, got {got} ({})",
                                epd.board.to_fen(),
                                sliders.name()
                            ));
                        }
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    checked.into_inner()
}

#[test]
fn perft_suite_every_depth() {
    let n = run_suite("perft-suite.epd", budget(u64::MAX));
    assert!(n >= 126 * 4, "only {n} counts checked");
}

#[test]
fn perft_random_positions() {
    let n = run_suite("perft-random.epd", budget(20_000_000));
    assert!(n >= 6838 * 4, "only {n} counts checked");
}

#[test]
fn perft_chess960_positions() {
    let n = run_suite("perft-chess960.epd", budget(100_000_000));
    assert!(n >= 960 * 4, "only {n} counts checked");
}
