//! `kogge-tune`: Texel tuning of Kogge's hand-crafted evaluation.
//!
//! - `datagen`: self-play games at a fixed node budget, quiet positions written with the game
//!   result (`FEN [1.0]`).
//! - `tune`: traces the positions once, fits the scaling constant K, fits the weights with Adam
//!   on the linear trace, and writes the result as a new `crates/eval/src/weights.rs`.
//! - `weights`: writes `weights.rs` for the weights this binary was built with (to compare a
//!   tuned file with the current one in the same layout).

mod datagen;
mod dataset;
mod emit;
mod tuner;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use dataset::Dataset;
use kogge_chess::{Board, testdata};
use kogge_eval::{Weights, param};
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "kogge-tune",
    version,
    about = "Texel tuning of Kogge's evaluation"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Self-play games; writes quiet positions with the game result.
    Datagen {
        /// Number of games.
        #[arg(long)]
        games: u64,
        /// Node budget per move.
        #[arg(long, default_value_t = 6000)]
        nodes: u64,
        /// Games played at once (one search thread each).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Output file (`FEN [result]` lines).
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Random moves after the book opening.
        #[arg(long, default_value_t = 4)]
        random_plies: u32,
        /// Positions before this game ply (from the start position) are not recorded.
        #[arg(long, default_value_t = 16)]
        min_ply: u32,
        /// Transposition table per game thread, MiB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// Opening book (EPD); default: the shared `openings-8ply.epd`.
        #[arg(long)]
        book: Option<PathBuf>,
    },
    /// Fits K and the weights to a data file; writes the tuned `weights.rs`.
    Tune {
        /// Data file from `datagen`.
        #[arg(long)]
        data: PathBuf,
        /// Full passes of Adam over the training positions.
        #[arg(long, default_value_t = 2000)]
        epochs: usize,
        /// Adam's first step size in centipawns (decays to a tenth over the run).
        #[arg(long, default_value_t = 1.0)]
        lr: f64,
        /// Share of positions (the file's tail, so whole games) held out for validation.
        #[arg(long, default_value_t = 0.1)]
        holdout: f64,
        /// Use this K instead of fitting it.
        #[arg(long)]
        k: Option<f64>,
        /// Strength of the pull back towards the starting weights (per centipawn², added to
        /// the mean squared error).
        #[arg(long, default_value_t = 1e-7)]
        l2: f64,
        /// Where the data came from, for the header of the written file ("5,000 self-play games
        /// at 5,000 nodes per move").
        #[arg(long, default_value = "")]
        source: String,
        /// Where to write the tuned weights (a complete `weights.rs`).
        #[arg(long, default_value = "tuned-weights.rs")]
        out: PathBuf,
    },
    /// Writes `weights.rs` for the built-in weights.
    Weights {
        #[arg(long)]
        out: PathBuf,
    },
}

fn main() -> Result<()> {
    match Cli::parse().command {
        Command::Datagen {
            games,
            nodes,
            threads,
            out,
            seed,
            random_plies,
            min_ply,
            hash,
            book,
        } => {
            let cfg = datagen::Config {
                games,
                nodes,
                threads,
                seed,
                random_plies,
                min_ply,
                hash_mb: hash,
            };
            datagen_command(&cfg, &out, book)
        }
        Command::Tune {
            data,
            epochs,
            lr,
            holdout,
            k,
            l2,
            source,
            out,
        } => {
            let settings = TuneSettings {
                epochs,
                lr,
                holdout,
                k,
                l2,
            };
            tune_command(&data, &settings, &source, &out)
        }
        Command::Weights { out } => std::fs::write(&out, emit::weights_rs(&Weights::DEFAULT, ""))
            .with_context(|| format!("writing {}", out.display())),
    }
}

fn load_openings(book: Option<PathBuf>) -> Result<Vec<Board>> {
    let path = book.unwrap_or_else(|| testdata::path("openings-8ply.epd"));
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    text.lines()
        .map(|l| l.split(';').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|fen| {
            kogge_chess::Epd::parse(fen)
                .map(|e| e.board)
                .with_context(|| format!("{}: {fen}", path.display()))
        })
        .collect()
}

fn datagen_command(cfg: &datagen::Config, out: &Path, book: Option<PathBuf>) -> Result<()> {
    let openings = load_openings(book)?;
    let file = std::fs::File::create(out).with_context(|| format!("creating {}", out.display()))?;
    let mut writer = BufWriter::new(file);
    let start = Instant::now();
    let mut last_report = Instant::now();
    eprintln!(
        "datagen: {} games, {} nodes per move, {} threads, seed {}, {} openings",
        cfg.games,
        cfg.nodes,
        cfg.threads,
        cfg.seed,
        openings.len()
    );
    let stats = datagen::run(cfg, &openings, &mut writer, |s| {
        if last_report.elapsed().as_secs() >= 30 || s.games == cfg.games {
            last_report = Instant::now();
            let secs = start.elapsed().as_secs_f64();
            eprintln!(
                "{:>6} games  {:>8} positions  {:.2} games/s  {:.0} positions/s  {:.0} s",
                s.games,
                s.positions,
                s.games as f64 / secs,
                s.positions as f64 / secs,
                secs
            );
        }
    })?;
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "done: {} games, {} positions, {:.1} plies per game, {:.0} s",
        stats.games,
        stats.positions,
        stats.plies as f64 / stats.games.max(1) as f64,
        secs
    );
    eprintln!(
        "results: {} white wins, {} draws, {} black wins; endings: {:?}",
        stats.outcomes[0], stats.outcomes[1], stats.outcomes[2], stats.ends
    );
    Ok(())
}

/// The `tune` command's knobs.
struct TuneSettings {
    epochs: usize,
    lr: f64,
    holdout: f64,
    k: Option<f64>,
    l2: f64,
}

fn tune_command(data: &Path, settings: &TuneSettings, source: &str, out: &Path) -> Result<()> {
    let &TuneSettings {
        epochs,
        lr,
        holdout,
        k,
        l2,
    } = settings;
    let start = Instant::now();
    let (all, skipped) = Dataset::load(data)?;
    let (train, held) = all.split_tail(holdout);
    eprintln!(
        "{} positions ({} train, {} held out, {} unreadable lines skipped), traced in {:.1} s",
        all.len(),
        train.len(),
        held.len(),
        skipped,
        start.elapsed().as_secs_f64()
    );
    let usage = train.usage();
    let unused: Vec<String> = (0..param::COUNT)
        .filter(|&j| usage[j] == 0 && tuner::tunable(j))
        .map(param::name)
        .collect();
    eprintln!(
        "{} weights, {} not used by any training position",
        param::COUNT,
        unused.len()
    );

    let initial = tuner::params_from(&Weights::DEFAULT);
    let k = match k {
        Some(k) => k,
        None => {
            let t = Instant::now();
            let k = tuner::fit_k(&train, &initial);
            eprintln!("fitted K = {k:.6} in {:.1} s", t.elapsed().as_secs_f64());
            k
        }
    };
    let train_before = tuner::loss(&train, &initial, k);
    let held_before = tuner::loss(&held, &initial, k);
    eprintln!("loss before: train {train_before:.6}, held out {held_before:.6}");

    let mut p = initial.clone();
    let mut adam = tuner::Adam::default();
    let t = Instant::now();
    for epoch in 0..epochs {
        let (loss, mut grad) = tuner::gradient(&train, &p, k);
        tuner::add_prior(&mut grad, &p, &initial, l2);
        if epoch % 100 == 0 {
            eprintln!(
                "epoch {epoch:>5}  train {loss:.6}  held out {:.6}  {:.1} s",
                tuner::loss(&held, &p, k),
                t.elapsed().as_secs_f64()
            );
        }
        adam.step(&mut p, &grad, tuner::learning_rate(lr, epoch, epochs));
    }
    let tuned = tuner::weights_from(&p);
    let rounded = tuner::params_from(&tuned);
    let train_after = tuner::loss(&train, &rounded, k);
    let held_after = tuner::loss(&held, &rounded, k);
    eprintln!(
        "loss after ({epochs} epochs, {:.1} s, rounded weights): train {train_after:.6}, held out {held_after:.6}",
        t.elapsed().as_secs_f64()
    );

    print_changes(&initial, &tuned);
    let file_name = data
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let source = if source.is_empty() {
        file_name
    } else {
        format!("{source} ({file_name})")
    };
    let note = format!(
        "Tuned by `kogge-tune tune` on {} positions of {source}, the last {:.0}% ({} positions) \
         held out; K = {k:.6}, L2 {l2:e}, {epochs} epochs of Adam. Mean squared error \
         {train_before:.6} -> {train_after:.6} on the training positions, \
         {held_before:.6} -> {held_after:.6} held out.",
        train.len(),
        holdout * 100.0,
        held.len(),
    );
    std::fs::write(out, emit::weights_rs(&tuned, &note))
        .with_context(|| format!("writing {}", out.display()))?;
    eprintln!("wrote {}", out.display());
    Ok(())
}

/// The largest changes, for a first look at what the tuner learnt.
fn print_changes(initial: &tuner::Params, tuned: &Weights) {
    let after = tuned.to_vec();
    let mut changes: Vec<(f64, usize)> = (0..param::COUNT)
        .filter(|&j| !(param::PST..param::MOBILITY).contains(&j))
        .map(|j| {
            let d = (f64::from(after[j].mg) - initial[j][0]).abs()
                + (f64::from(after[j].eg) - initial[j][1]).abs();
            (d, j)
        })
        .collect();
    changes.sort_by(|a, b| b.0.total_cmp(&a.0));
    eprintln!("largest changes outside the piece-square tables (mg, eg):");
    for &(_, j) in changes.iter().take(20) {
        eprintln!(
            "  {:<28} ({:>5}, {:>5}) -> ({:>5}, {:>5})",
            param::name(j),
            initial[j][0],
            initial[j][1],
            after[j].mg,
            after[j].eg
        );
    }
}
