//! Prints the PTX of the search kernel compiled for sm_90 (needs NVRTC): for reading what the
//! compiler made of it, e.g. `cargo run --release -p kogge-search-gpu --example search_ptx > s.ptx`.
fn main() {
    let defines: Vec<(&str, String)> = kogge_search_gpu::search_defines();
    match kogge_gpu::compile_cuda_for_check(&kogge_search_gpu::search_source(), &defines, "sm_90") {
        Ok(ptx) => print!("{ptx}"),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
