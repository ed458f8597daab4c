//! The UCI options: the table the `uci` command lists, and `setoption` checked against it.
//! Names are matched without regard to case, as the UCI specification asks; values are checked
//! against the option's type and range before anything changes.

use crate::perft_backend::BackendChoice;
use anyhow::{Result, bail};
use kogge_search::{DEFAULT_MOVE_OVERHEAD, DEFAULT_SLOW_MOVER};
use kogge_search_cpu::{MAX_HASH_MB, MAX_THREADS};
use kogge_search_gpu::{Finisher, ParallelMode};
use std::time::Duration;

/// The most principal variations `MultiPV` accepts.
pub const MAX_MULTIPV: i64 = 256;
/// The largest `Move Overhead`, in milliseconds: five seconds covers any network.
pub const MAX_MOVE_OVERHEAD_MS: i64 = 5000;
pub const DEFAULT_HASH_MB: i64 = 16;
pub const DEFAULT_MOVE_OVERHEAD_MS: i64 = DEFAULT_MOVE_OVERHEAD.as_millis() as i64;
/// `Slow Mover`'s range, in percent of the soft limit.
pub const MIN_SLOW_MOVER: i64 = 10;
pub const MAX_SLOW_MOVER: i64 = 1000;

/// An option's type, default and range, as `uci` announces them.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Button,
    Combo {
        default: &'static str,
        values: &'static [&'static str],
    },
}

#[derive(Clone, Copy, Debug)]
struct Spec {
    name: &'static str,
    kind: Kind,
}

const OPTIONS: &[Spec] = &[
    Spec {
        name: "Hash",
        kind: Kind::Spin {
            default: DEFAULT_HASH_MB,
            min: 1,
            max: MAX_HASH_MB as i64,
        },
    },
    Spec {
        name: "Threads",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS as i64,
        },
    },
    Spec {
        name: "MultiPV",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MAX_MULTIPV,
        },
    },
    Spec {
        name: "Ponder",
        kind: Kind::Check { default: false },
    },
    Spec {
        name: "Move Overhead",
        kind: Kind::Spin {
            default: DEFAULT_MOVE_OVERHEAD_MS,
            min: 0,
            max: MAX_MOVE_OVERHEAD_MS,
        },
    },
    // The clock's soft limit in percent: below 100 a search ends sooner once its share of the
    // clock is spent, above 100 later (the hard limit stays). It scales each search's own limit:
    // the GPU's is 75% of the CPU's (its iterations are lumpier and overran the shared limit
    // more; `GPU_SOFT_LIMIT_PERCENT` in the GPU backend, docs/STRENGTH.md).
    Spec {
        name: "Slow Mover",
        kind: Kind::Spin {
            default: DEFAULT_SLOW_MOVER as i64,
            min: MIN_SLOW_MOVER,
            max: MAX_SLOW_MOVER,
        },
    },
    Spec {
        name: "Clear Hash",
        kind: Kind::Button,
    },
    Spec {
        name: "UCI_Chess960",
        kind: Kind::Check { default: false },
    },
    Spec {
        name: "Backend",
        kind: Kind::Combo {
            default: "auto",
            values: &["auto", "cpu", "cuda", "opencl"],
        },
    },
    Spec {
        name: "Workers",
        kind: Kind::Spin {
            default: 0,
            min: 0,
            max: MAX_WORKERS,
        },
    },
    Spec {
        name: "GPU Parallel",
        kind: Kind::Combo {
            default: "abdada-rmo",
            values: &ParallelMode::NAMES,
        },
    },
    // Who ends an iteration of the GPU search: the first worker to finish it (any), a helper
    // only where its result agrees with worker 0's first move and the others' best (checked), or
    // worker 0, the one in the sequential order (main), or checked for the iterations likely to
    // be the search's last and any before them (closing), or worker 0 and about eight helpers
    // (every 32nd of 264, every 4th of 32), ordering as worker 0 does (clean). Any reaches a
    // depth soonest; main's result of the same depth is the best, checked's between
    // (docs/STRENGTH.md, twenty-fifth and twenty-sixth sessions); clean's near main's at 14% more
    // time to a depth than any's, and it beat any by +34 Elo at 3 s + 0.03 s (sixty-second): the
    // default.
    Spec {
        name: "GPU Finisher",
        kind: Kind::Combo {
            default: "clean",
            values: &Finisher::NAMES,
        },
    },
];

/// The most GPU workers `Workers` accepts (0 = the device's default).
pub const MAX_WORKERS: i64 = 16384;

/// A checked `setoption`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    HashMb(usize),
    Threads(usize),
    MultiPv(usize),
    Ponder(bool),
    MoveOverhead(Duration),
    /// `Slow Mover`, in percent.
    SlowMover(u32),
    ClearHash,
    Chess960(bool),
    Backend(BackendChoice),
    Workers(usize),
    Parallel(ParallelMode),
    /// `GPU Finisher`.
    Finisher(Finisher),
}

/// The `option name … type …` lines of the `uci` answer.
pub fn option_lines() -> Vec<String> {
    OPTIONS
        .iter()
        .map(|spec| match spec.kind {
            Kind::Spin { default, min, max } => format!(
                "option name {} type spin default {default} min {min} max {max}",
                spec.name
            ),
            Kind::Check { default } => {
                format!("option name {} type check default {default}", spec.name)
            }
            Kind::Button => format!("option name {} type button", spec.name),
            Kind::Combo { default, values } => {
                let vars: String = values.iter().map(|v| format!(" var {v}")).collect();
                format!(
                    "option name {} type combo default {default}{vars}",
                    spec.name
                )
            }
        })
        .collect()
}

/// Parses the words after `setoption`: `name <name words> [value <value words>]`.
pub fn parse_setoption(args: &str) -> Result<Change> {
    let words: Vec<&str> = args.split_whitespace().collect();
    if words.first().map(|w| w.to_ascii_lowercase()) != Some("name".to_string()) {
        bail!("expected 'setoption name <option> [value <value>]'");
    }
    let value_at = words.iter().position(|w| w.eq_ignore_ascii_case("value"));
    let name = words[1..value_at.unwrap_or(words.len())].join(" ");
    let value = value_at.map(|i| words[i + 1..].join(" "));
    if name.is_empty() {
        bail!("setoption without an option name");
    }
    let Some(spec) = OPTIONS.iter().find(|s| s.name.eq_ignore_ascii_case(&name)) else {
        bail!("no such option: '{name}'");
    };
    let value = value.as_deref().map(str::trim).filter(|v| !v.is_empty());
    match spec.kind {
        Kind::Spin { min, max, .. } => {
            let Some(text) = value else {
                bail!("option '{}' needs a value from {min} to {max}", spec.name);
            };
            let n: i64 = match text.parse() {
                Ok(n) if (min..=max).contains(&n) => n,
                _ => bail!(
                    "option '{}': '{text}' is not a whole number from {min} to {max}",
                    spec.name
                ),
            };
            // The range check above makes these conversions exact.
            Ok(match spec.name {
                "Hash" => Change::HashMb(n as usize),
                "Threads" => Change::Threads(n as usize),
                "MultiPV" => Change::MultiPv(n as usize),
                "Workers" => Change::Workers(n as usize),
                "Slow Mover" => Change::SlowMover(n as u32),
                _ => Change::MoveOverhead(Duration::from_millis(n as u64)),
            })
        }
        Kind::Check { .. } => {
            let on = match value.map(str::to_ascii_lowercase).as_deref() {
                Some("true") => true,
                Some("false") => false,
                _ => bail!("option '{}' takes the value true or false", spec.name),
            };
            Ok(match spec.name {
                "Ponder" => Change::Ponder(on),
                _ => Change::Chess960(on),
            })
        }
        Kind::Button => Ok(Change::ClearHash),
        Kind::Combo { values, .. } => {
            let text = value.unwrap_or("");
            let Some(&chosen) = values.iter().find(|v| v.eq_ignore_ascii_case(text)) else {
                bail!("option '{}' takes one of: {}", spec.name, values.join(", "));
            };
            Ok(match (spec.name, chosen) {
                ("Backend", "cpu") => Change::Backend(BackendChoice::Cpu),
                ("Backend", "cuda") => Change::Backend(BackendChoice::Cuda),
                ("Backend", "opencl") => Change::Backend(BackendChoice::Opencl),
                ("Backend", _) => Change::Backend(BackendChoice::Auto),
                ("GPU Finisher", finisher) => {
                    Change::Finisher(Finisher::from_name(finisher).unwrap_or_default())
                }
                (_, mode) => Change::Parallel(ParallelMode::from_name(mode).unwrap_or_default()),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_is_listed_with_its_range() {
        let lines = option_lines();
        assert_eq!(lines.len(), OPTIONS.len());
        assert!(lines.contains(&format!(
            "option name Hash type spin default 16 min 1 max {MAX_HASH_MB}"
        )));
        assert!(lines.contains(&"option name Clear Hash type button".to_string()));
        assert!(lines.contains(&"option name UCI_Chess960 type check default false".to_string()));
        const { assert!(MAX_THREADS >= 256) };
    }

    #[test]
    fn names_ignore_case_and_values_are_checked() {
        assert_eq!(
            parse_setoption("name hash value 64").ok(),
            Some(Change::HashMb(64))
        );
        assert_eq!(
            parse_setoption("name Move Overhead value 100").ok(),
            Some(Change::MoveOverhead(Duration::from_millis(100)))
        );
        assert_eq!(
            parse_setoption("name MOVE overhead value 0").ok(),
            Some(Change::MoveOverhead(Duration::ZERO))
        );
        assert_eq!(
            parse_setoption("name slow mover value 75").ok(),
            Some(Change::SlowMover(75))
        );
        assert!(parse_setoption("name Slow Mover value 9").is_err());
        assert!(parse_setoption("name Slow Mover value 1001").is_err());
        assert!(parse_setoption("name Slow Mover").is_err());
        assert_eq!(
            parse_setoption("name uci_chess960 value TRUE").ok(),
            Some(Change::Chess960(true))
        );
        assert_eq!(
            parse_setoption("name Clear Hash").ok(),
            Some(Change::ClearHash)
        );
        assert_eq!(
            parse_setoption("name MultiPV value 3").ok(),
            Some(Change::MultiPv(3))
        );
        assert_eq!(
            parse_setoption("name GPU Parallel value rmo").ok(),
            Some(Change::Parallel(ParallelMode::Rmo))
        );
        assert_eq!(
            parse_setoption("name gpu finisher value Main").ok(),
            Some(Change::Finisher(Finisher::Main))
        );
        assert_eq!(
            parse_setoption("name GPU Finisher value any").ok(),
            Some(Change::Finisher(Finisher::Any))
        );
        assert_eq!(
            parse_setoption("name GPU Finisher value CHECKED").ok(),
            Some(Change::Finisher(Finisher::Checked))
        );
        assert_eq!(
            parse_setoption("name GPU Finisher value closing").ok(),
            Some(Change::Finisher(Finisher::Closing))
        );
        assert_eq!(
            parse_setoption("name GPU Finisher value Clean").ok(),
            Some(Change::Finisher(Finisher::Clean))
        );
    }

    #[test]
    fn the_gpu_finisher_is_listed_with_its_choices() {
        assert!(
            option_lines().contains(
                &"option name GPU Finisher type combo default clean var any var checked var main var closing var clean"
                    .to_string()
            )
        );
    }

    #[test]
    fn the_combo_defaults_are_the_searchs_defaults() {
        // What a GUI shows as the default is what a search opened without the option gets.
        let lines = option_lines();
        for (name, default) in [
            ("GPU Finisher", Finisher::default().name()),
            ("GPU Parallel", ParallelMode::default().name()),
        ] {
            let prefix = format!("option name {name} type combo default {default} ");
            assert!(
                lines.iter().any(|l| l.starts_with(&prefix)),
                "{name}: no line starts with {prefix:?}"
            );
        }
    }

    #[test]
    fn bad_names_and_values_are_errors() {
        for bad in [
            "",
            "Hash value 3",
            "name",
            "name Hsh value 3",
            "name Hash",
            "name Hash value 0",
            "name Hash value lots",
            "name Threads value -1",
            "name MultiPV value 257",
            "name Ponder value yes",
            "name Move Overhead value 5001",
            "name GPU Finisher value first",
            "name GPU Finisher",
        ] {
            assert!(parse_setoption(bad).is_err(), "{bad:?} was accepted");
        }
    }
}
