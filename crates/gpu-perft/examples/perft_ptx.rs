//! Prints the PTX of the perft kernels compiled for sm_90 (needs NVRTC): for reading what the
//! compiler made of them, e.g. `cargo run --release -p kogge-gpu-perft --example perft_ptx > p.ptx`.
fn main() {
    let defines = kogge_gpu_perft::kernel_defines();
    match kogge_gpu::compile_cuda_for_check(kogge_gpu_perft::SOURCE, &defines, "sm_90") {
        Ok(ptx) => print!("{ptx}"),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
