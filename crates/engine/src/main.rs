//! `kogge`, the engine's command line. With no subcommand it is a chess engine for a GUI: it
//! reads commands on stdin and answers on stdout, in UCI or xboard (CECP v2) as the first
//! command says (`uci`, or `xboard` / `protover`; anything else is taken as UCI); `kogge uci`
//! and `kogge xboard` choose the protocol outright. The subcommands are tools: `perft`,
//! `bench`, `analyze`, `epd`, `devices`, `selftest`.
//!
//! Exit status: 0 success, 1 a check failed (`perft --epd` found a wrong count, `epd` passed
//! fewer than `--min-pass`, `selftest` found a GPU result wrong), 2 bad input (arguments, FEN,
//! file) or, for `selftest`, no device. Errors are one line on stderr; stdout carries only
//! results.

mod analyze_cmd;
mod bench;
mod benchsmp_cmd;
mod devices_cmd;
mod diagram;
mod engine_backend;
mod epd_cmd;
mod game;
mod output;
mod perft_backend;
mod perft_cmd;
mod protocol;
mod san_line;
mod search_setup;
mod selftest_cmd;
mod session;
mod uci;
mod uci_go;
mod uci_options;
mod xboard;
mod xboard_clock;

use clap::error::ErrorKind;
use clap::{Args, Parser, Subcommand};
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "kogge",
    version,
    about = "Kogge: a chess engine whose search is meant to run on the GPU"
)]
struct Cli {
    /// None: the engine itself, speaking UCI or xboard on stdin and stdout.
    #[command(subcommand)]
    command: Option<Command>,

    /// Engine: where to search: auto (the stronger search, today the CPU's), cpu, cuda or
    /// opencl. The UCI option `Backend` changes it later.
    #[arg(long, value_enum, default_value_t = perft_backend::BackendChoice::Auto)]
    backend: perft_backend::BackendChoice,

    /// Engine: which device of the backend, as `kogge devices` numbers them.
    #[arg(long, value_name = "N")]
    device: Option<usize>,

    /// Engine: GPU workers (one warp each); 0 = the device's default. UCI option `Workers`.
    #[arg(long, value_name = "N", default_value_t = 0)]
    workers: usize,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run the engine with the UCI protocol, whatever the first command is.
    Uci,

    /// Run the engine with the xboard protocol (CECP version 2), whatever the first command is.
    Xboard,

    /// Count the leaf nodes of the legal move tree: the move generator's correctness and speed
    /// test.
    ///
    /// Examples: `kogge perft 6`, `kogge perft 3 --divide --fen "<FEN>"`,
    /// `kogge perft --epd perft-suite.epd --max-nodes 1000000`.
    Perft(PerftArgs),

    /// List the compute devices (CUDA, OpenCL), the one GPU commands take when none is named, and
    /// why a backend has none.
    Devices(devices_cmd::DevicesArgs),

    /// Search a fixed list of positions to a fixed depth on one thread and print the node
    /// count (the build's signature) and speed.
    ///
    /// Examples: `kogge bench`, `kogge bench 8`, `kogge bench 17 --count 8 --span`.
    Bench(bench::BenchArgs),

    /// How the GPU search scales with workers: nodes per second and time to depth for 1, 2,
    /// 4, … workers, as speedups over one.
    ///
    /// Examples: `kogge benchsmp --backend cuda --depth 10`,
    /// `kogge benchsmp --positions bench --count 8 --workers 1,64,528`.
    Benchsmp(benchsmp_cmd::BenchSmpArgs),

    /// Search one position on the CPU and show each iteration: score, nodes, speed and the
    /// principal variation in SAN.
    ///
    /// Examples: `kogge analyze`, `kogge analyze --fen "<FEN>" --movetime 10000 --multipv 3`.
    Analyze(analyze_cmd::AnalyzeArgs),

    /// Strength test: search every position of an EPD file and check the move against its
    /// `bm` / `am`.
    ///
    /// Examples: `kogge epd wac.epd`, `kogge epd wac.epd --movetime 200 --min-pass 250`.
    Epd(epd_cmd::EpdArgs),

    /// Check the GPU kernels on a device against known answers: move generation (GPU perft
    /// against the suites' counts) and evaluation (GPU against CPU, position by position).
    ///
    /// Examples: `kogge selftest`, `kogge selftest --backend cuda --max-nodes 100000000`.
    Selftest(selftest_cmd::SelftestArgs),
}

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies, 0 to 20.
    #[arg(
        value_parser = parse_depth,
        required_unless_present = "epd",
        conflicts_with = "epd"
    )]
    pub depth: Option<u32>,

    /// The position, as FEN (standard, X-FEN or Shredder-FEN castling). Default: the start
    /// position.
    #[arg(long, conflicts_with = "epd")]
    pub fen: Option<String>,

    /// Also print the node count under each root move.
    #[arg(long, conflicts_with = "epd")]
    pub divide: bool,

    /// Check every `;Dn count` of every position in this EPD file instead.
    #[arg(long, value_name = "FILE")]
    pub epd: Option<PathBuf>,

    /// With --epd: leave out counts above this many nodes [default: 10000000].
    // An Option rather than `default_value_t`: clap does not enforce `requires` on arguments
    // with a default. The conflicts catch `perft 3 --max-nodes N`, which `requires` alone lets
    // through when DEPTH is given.
    #[arg(long, value_name = "N", requires = "epd", conflicts_with_all = ["depth", "fen", "divide"])]
    pub max_nodes: Option<u64>,

    /// Worker threads (CPU backend). Default: one per core.
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    pub threads: Option<usize>,

    /// Where to count: auto (a GPU if there is one, else the CPU), cpu, cuda or opencl.
    #[arg(long, value_enum, default_value_t = perft_backend::BackendChoice::Auto)]
    pub backend: perft_backend::BackendChoice,

    /// Which device of the backend, as `kogge devices` numbers them.
    #[arg(long, value_name = "N")]
    pub device: Option<usize>,

    /// GPU backends: megabytes of device memory for a table that merges transpositions ply by
    /// ply (deep perft; exact: positions are compared whole). The lists of distinct positions
    /// take memory beside it, table and lists together at most 90% of the device's (the table
    /// gives up room to a ply's list if it must). 24576 suits an 80 GB GPU.
    #[arg(long, value_name = "MB", default_value_t = 0)]
    pub hash: usize,

    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

fn parse_depth(text: &str) -> Result<u32, String> {
    let depth: u32 = text
        .parse()
        .map_err(|_| "not a whole number of plies".to_string())?;
    if depth > perft_cmd::MAX_DEPTH {
        // Far beyond anything that finishes (perft 15 of the start position is 2 * 10^21
        // nodes); almost certainly a typo.
        return Err(format!(
            "depth {depth} is above the limit of {}",
            perft_cmd::MAX_DEPTH
        ));
    }
    Ok(depth)
}

fn parse_threads(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=4096).contains(&n) => Ok(n),
        _ => Err("expected a number of threads from 1 to 4096".to_string()),
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    let engine = engine_backend::EngineSettings {
        backend: cli.backend,
        device: cli.device,
        workers: cli.workers,
        ..engine_backend::EngineSettings::default()
    };
    let result = match &cli.command {
        None => protocol::run(protocol::Protocol::Auto, engine).map(|()| ExitCode::SUCCESS),
        Some(Command::Uci) => {
            protocol::run(protocol::Protocol::Uci, engine).map(|()| ExitCode::SUCCESS)
        }
        Some(Command::Xboard) => {
            protocol::run(protocol::Protocol::Xboard, engine).map(|()| ExitCode::SUCCESS)
        }
        Some(Command::Perft(args)) => perft_cmd::run(args),
        Some(Command::Devices(args)) => devices_cmd::run(args),
        Some(Command::Bench(args)) => bench::run(args),
        Some(Command::Benchsmp(args)) => benchsmp_cmd::run(args),
        Some(Command::Analyze(args)) => analyze_cmd::run(args, engine),
        Some(Command::Epd(args)) => epd_cmd::run(args, engine),
        Some(Command::Selftest(args)) => selftest_cmd::run(args),
    };
    match result {
        Ok(code) => code,
        // The reader went away (`kogge perft 5 --divide | head`): nothing left to tell anyone.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            // `{:#}` puts the whole context chain on one line: "invalid FEN '…': <reason>".
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Prints a command-line error as one line, keeping clap's own wording. Clap's full message adds
/// usage and tips after a blank line; the first paragraph alone says what is wrong, and `--help`
/// is one command away. Help and version requests print in full.
fn usage_error(e: clap::Error) -> ExitCode {
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = e.print();
        return if e.use_stderr() {
            ExitCode::from(2)
        } else {
            ExitCode::SUCCESS
        };
    }
    let rendered = e.render().to_string();
    let first_paragraph: Vec<&str> = rendered
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .map(str::trim)
        .collect();
    let _ = writeln!(io::stderr(), "{} (see --help)", first_paragraph.join(" "));
    ExitCode::from(2)
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}
