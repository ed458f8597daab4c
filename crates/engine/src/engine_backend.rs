//! `EngineBackend`: the search the protocols drive, chosen by `--backend` / the UCI option
//! `Backend` (auto, cpu, cuda, opencl). `auto` is the stronger search, which today is the CPU's
//! even on an H100 (docs/STRENGTH.md: the GPU search lost 1/6/13 to one CPU thread at 5 s +
//! 0.05 s); `cuda` and `opencl` choose the GPU search.
//!
//! Opening a GPU search compiles its kernel, which takes seconds; it happens on a thread of its
//! own, so that `uci` is answered at once. `isready` (and the first search) wait for it, as UCI
//! allows for initialisation. Until then, and whenever the GPU is unusable, the CPU searches.

use crate::perft_backend::BackendChoice;
use crate::session::Backend;
use kogge_gpu::{BackendKind, DeviceInfo, choose, list_devices};
use kogge_search::{
    DEFAULT_MOVE_OVERHEAD, DEFAULT_SLOW_MOVER, GamePosition, InfoSink, Limits, Report,
    SearchBackend, SearchControl, SearchResult,
};
use kogge_search_cpu::CpuSearch;
use kogge_search_gpu::{Finisher, GpuBackend, GpuSearchOptions, ParallelMode};
use std::thread::JoinHandle;
use std::time::Duration;

/// How the engine searches, from the command line and the options.
#[derive(Clone, Debug)]
pub struct EngineSettings {
    pub backend: BackendChoice,
    /// Which device of the backend (`kogge devices` numbering).
    pub device: Option<usize>,
    /// GPU workers; 0 = the device's default.
    pub workers: usize,
    pub mode: ParallelMode,
    /// Who ends an iteration of the GPU search.
    pub finisher: Finisher,
}

impl EngineSettings {
    /// The CPU search, whatever the machine has (tests).
    #[cfg(test)]
    pub fn cpu() -> EngineSettings {
        EngineSettings {
            backend: BackendChoice::Cpu,
            ..EngineSettings::default()
        }
    }
}

impl Default for EngineSettings {
    fn default() -> Self {
        EngineSettings {
            backend: BackendChoice::Auto,
            device: None,
            workers: 0,
            mode: ParallelMode::default(),
            finisher: Finisher::default(),
        }
    }
}

enum Active {
    Cpu(CpuSearch),
    Gpu(Box<GpuBackend>),
}

pub struct EngineBackend {
    settings: EngineSettings,
    hash_mb: usize,
    threads: usize,
    multipv: usize,
    move_overhead: Duration,
    slow_mover: u32,
    active: Active,
    /// A GPU search being opened in the background.
    opening: Option<JoinHandle<GpuBackend>>,
    /// Said at the next search or `isready`.
    note: Option<String>,
}

impl EngineBackend {
    pub fn new(settings: EngineSettings, hash_mb: usize, threads: usize) -> EngineBackend {
        let mut b = EngineBackend {
            settings,
            hash_mb,
            threads,
            multipv: 1,
            move_overhead: DEFAULT_MOVE_OVERHEAD,
            slow_mover: DEFAULT_SLOW_MOVER,
            active: Active::Cpu(CpuSearch::new(hash_mb, threads)),
            opening: None,
            note: None,
        };
        b.open();
        b
    }

    /// Starts opening the backend the settings ask for.
    fn open(&mut self) {
        self.opening = None;
        let kind = match self.settings.backend {
            BackendChoice::Cpu | BackendChoice::Auto => {
                self.use_cpu();
                return;
            }
            BackendChoice::Cuda => BackendKind::Cuda,
            BackendChoice::Opencl => BackendKind::OpenCl,
        };
        let info = match pick_device(kind, self.settings.device) {
            Ok(info) => info,
            Err(why) => {
                self.note = Some(format!("{why}; searching on the CPU"));
                self.use_cpu();
                return;
            }
        };
        let mut options = GpuSearchOptions::for_device(&info);
        if self.settings.workers > 0 {
            options.workers = self.settings.workers;
        }
        options.hash_mb = self.hash_mb;
        options.mode = self.settings.mode;
        options.finisher = self.settings.finisher;
        let threads = self.threads;
        let spawned = std::thread::Builder::new()
            .name("gpu-open".into())
            .spawn(move || GpuBackend::open(Some(info), options, threads));
        match spawned {
            Ok(handle) => self.opening = Some(handle),
            Err(e) => self.note = Some(format!("cannot start the GPU set-up thread: {e}")),
        }
    }

    fn use_cpu(&mut self) {
        if !matches!(self.active, Active::Cpu(_)) {
            let mut cpu = CpuSearch::new(self.hash_mb, self.threads);
            cpu.set_move_overhead(self.move_overhead);
            cpu.set_slow_mover(self.slow_mover);
            cpu.set_multipv(self.multipv);
            self.active = Active::Cpu(cpu);
        }
    }

    /// Waits for a GPU search being opened and switches to it (or says why not).
    fn finish_opening(&mut self) {
        let Some(handle) = self.opening.take() else {
            return;
        };
        match handle.join() {
            Ok(mut gpu) => {
                gpu.set_move_overhead(self.move_overhead);
                gpu.set_slow_mover(self.slow_mover);
                gpu.set_multipv(self.multipv);
                if !gpu.on_gpu() {
                    // It says why in its first search's `info string`.
                }
                self.active = Active::Gpu(Box::new(gpu));
            }
            Err(_) => {
                self.note = Some("the GPU set-up failed; searching on the CPU".into());
                self.use_cpu();
            }
        }
    }

    fn search_backend(&mut self) -> &mut dyn SearchBackend {
        match &mut self.active {
            Active::Cpu(c) => c,
            Active::Gpu(g) => &mut **g,
        }
    }

    pub fn set_choice(&mut self, choice: BackendChoice) {
        if choice != self.settings.backend {
            self.finish_opening();
            self.settings.backend = choice;
            self.open();
        }
    }

    pub fn change_workers(&mut self, workers: usize) {
        self.finish_opening();
        self.settings.workers = workers;
        if let Active::Gpu(g) = &mut self.active
            && workers > 0
        {
            g.set_workers(workers);
        } else if matches!(self.active, Active::Gpu(_)) {
            self.open();
        }
    }

    pub fn set_mode(&mut self, mode: ParallelMode) {
        self.finish_opening();
        self.settings.mode = mode;
        if let Active::Gpu(g) = &mut self.active {
            g.set_mode(mode);
        }
    }
}

/// The device of backend `kind` numbered `index` (the best one without an index).
fn pick_device(kind: BackendKind, index: Option<usize>) -> Result<DeviceInfo, String> {
    choose(&list_devices(), Some(kind), index).map_err(|e| e.to_string())
}

impl SearchBackend for EngineBackend {
    fn name(&self) -> String {
        match &self.active {
            Active::Cpu(c) => c.name(),
            Active::Gpu(g) => g.name(),
        }
    }

    fn set_hash_mb(&mut self, mb: usize) {
        self.finish_opening();
        self.hash_mb = mb;
        self.search_backend().set_hash_mb(mb);
    }

    fn set_threads(&mut self, threads: usize) {
        self.finish_opening();
        self.threads = threads;
        self.search_backend().set_threads(threads);
    }

    fn set_multipv(&mut self, lines: usize) {
        self.finish_opening();
        self.multipv = lines;
        self.search_backend().set_multipv(lines);
    }

    fn clear(&mut self) {
        self.finish_opening();
        self.search_backend().clear();
    }

    fn search(
        &mut self,
        position: &GamePosition,
        limits: &Limits,
        control: &SearchControl,
        sink: &dyn InfoSink,
    ) -> SearchResult {
        self.finish_opening();
        if let Some(note) = self.note.take() {
            sink.report(Report::Message(note));
        }
        self.search_backend()
            .search(position, limits, control, sink)
    }
}

impl Backend for EngineBackend {
    fn set_move_overhead(&mut self, overhead: Duration) {
        self.finish_opening();
        self.move_overhead = overhead;
        match &mut self.active {
            Active::Cpu(c) => c.set_move_overhead(overhead),
            Active::Gpu(g) => g.set_move_overhead(overhead),
        }
    }

    fn set_slow_mover(&mut self, percent: u32) {
        self.finish_opening();
        self.slow_mover = percent;
        match &mut self.active {
            Active::Cpu(c) => c.set_slow_mover(percent),
            Active::Gpu(g) => g.set_slow_mover(percent),
        }
    }

    fn prepare(&mut self) {
        self.finish_opening();
    }

    fn set_backend_choice(&mut self, choice: BackendChoice) {
        self.set_choice(choice);
    }

    fn set_workers(&mut self, workers: usize) {
        self.change_workers(workers);
    }

    fn set_parallel_mode(&mut self, mode: ParallelMode) {
        self.set_mode(mode);
    }

    fn set_finisher(&mut self, finisher: Finisher) {
        self.finish_opening();
        self.settings.finisher = finisher;
        if let Active::Gpu(g) = &mut self.active {
            g.set_finisher(finisher);
        }
    }
}
