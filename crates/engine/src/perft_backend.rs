//! Where `kogge perft` counts: the CPU (threads) or a GPU through `kogge-gpu-perft`, chosen by
//! `--backend` and `--device`.

use anyhow::{Context, Result, bail};
use clap::ValueEnum;
use kogge_chess::{Board, Move, perft};
use kogge_gpu::{BackendKind, Device, choose, list_devices};
use kogge_gpu_perft::{GpuPerft, PerftOptions};

/// The `--backend` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BackendChoice {
    /// Chosen for the job. The engine: the stronger search, today the CPU's (docs/STRENGTH.md).
    /// Perft: a GPU if there is one (CUDA first, then OpenCL), else the CPU;
    /// OpenCL on a CPU (PoCL) is never picked automatically, the native CPU perft being faster.
    Auto,
    Cpu,
    Cuda,
    Opencl,
}

pub enum PerftRunner {
    Cpu { threads: usize },
    Gpu(Box<GpuPerft>),
}

impl PerftRunner {
    /// Opens the backend `choice` asks for; `hash_mb` sizes the GPU transposition table.
    pub fn open(
        choice: BackendChoice,
        device: Option<usize>,
        threads: usize,
        hash_mb: usize,
    ) -> Result<PerftRunner> {
        let runner = Self::open_any(choice, device, threads, hash_mb)?;
        if hash_mb > 0 && matches!(runner, PerftRunner::Cpu { .. }) {
            eprintln!("note: --hash applies to GPU perft only; the CPU perft runs without a table");
        }
        Ok(runner)
    }

    fn open_any(
        choice: BackendChoice,
        device: Option<usize>,
        threads: usize,
        hash_mb: usize,
    ) -> Result<PerftRunner> {
        let kind = match choice {
            BackendChoice::Cpu => return Ok(PerftRunner::Cpu { threads }),
            BackendChoice::Auto => None,
            BackendChoice::Cuda => Some(BackendKind::Cuda),
            BackendChoice::Opencl => Some(BackendKind::OpenCl),
        };
        let list = list_devices();
        let info = match choose(&list, kind, device) {
            Ok(info) => info,
            // Auto with no device at all: the CPU is the answer, not an error.
            Err(_) if kind.is_none() && device.is_none() => {
                return Ok(PerftRunner::Cpu { threads });
            }
            // The error names the backend and why it has no device.
            Err(e) => bail!("{e}"),
        };
        let automatic = kind.is_none() && device.is_none();
        if automatic && info.is_cpu {
            return Ok(PerftRunner::Cpu { threads });
        }
        match Self::open_gpu(&info, hash_mb) {
            Ok(gpu) => Ok(PerftRunner::Gpu(Box::new(gpu))),
            // Chosen automatically: a GPU that fails to start is worth a note, not a failed run.
            Err(e) if automatic => {
                eprintln!("note: {e:#}; counting on the CPU");
                Ok(PerftRunner::Cpu { threads })
            }
            Err(e) => Err(e),
        }
    }

    fn open_gpu(info: &kogge_gpu::DeviceInfo, hash_mb: usize) -> Result<GpuPerft> {
        let device = Device::open(info).with_context(|| format!("cannot open {}", info.name))?;
        let options = PerftOptions {
            hash_bytes: hash_mb.saturating_mul(1 << 20),
            ..PerftOptions::for_device(&device)
        };
        GpuPerft::new(device, options)
            .with_context(|| format!("cannot build the perft kernels for {}", info.name))
    }

    /// For reports: `cpu (16 threads)` or `cuda 0: NVIDIA H100 80GB HBM3`.
    pub fn describe(&self) -> String {
        match self {
            PerftRunner::Cpu { threads } => format!("cpu ({threads} threads)"),
            PerftRunner::Gpu(gpu) => {
                let info = gpu.device().info();
                format!("{} {}: {}", info.backend, info.index, info.name)
            }
        }
    }

    pub fn perft(&mut self, board: &Board, depth: u32) -> Result<u64> {
        match self {
            PerftRunner::Cpu { threads } => Ok(perft::perft_parallel(board, depth, *threads)),
            PerftRunner::Gpu(gpu) => gpu.perft(board, depth).context("GPU perft failed"),
        }
    }

    /// Per root move, with `progress(done, total)` after each piece of work.
    pub fn divide(
        &mut self,
        board: &Board,
        depth: u32,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<Vec<(Move, u64)>> {
        match self {
            PerftRunner::Cpu { threads } => {
                Ok(perft::perft_divide(board, depth, *threads, progress).moves)
            }
            PerftRunner::Gpu(gpu) => gpu
                .divide(board, depth, progress)
                .context("GPU perft failed"),
        }
    }
}
