//! The perft kernels compile for the H100 (sm_90) through NVRTC alone, so a CUDA-only compile
//! error shows up in CI, which has no GPU. scripts/test.sh installs NVRTC and sets
//! KOGGE_REQUIRE_NVRTC=1; elsewhere the test notes a missing NVRTC and passes.

use kogge_gpu::{compile_cuda_for_check, nvrtc_available};
use kogge_gpu_perft::{SOURCE, kernel_defines};

#[test]
fn perft_kernels_compile_for_sm_90() {
    if !nvrtc_available() {
        let required = std::env::var("KOGGE_REQUIRE_NVRTC").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "KOGGE_REQUIRE_NVRTC=1 but NVRTC cannot be loaded"
        );
        eprintln!("note: NVRTC not found, CUDA compilation of the perft kernels not tested");
        return;
    }
    let ptx = compile_cuda_for_check(SOURCE, &kernel_defines(), "sm_90")
        .unwrap_or_else(|e| panic!("{e}"));
    for kernel in [
        "count_children",
        "scan_blocks",
        "scan_add",
        "expand",
        "perft_leaf",
        "perft_staged2_white",
        "perft_staged2_black",
        "perft_staged2_shared_white",
        "perft_staged2_shared_black",
    ] {
        assert!(
            ptx.contains(&format!(".entry {kernel}")),
            "no {kernel} in the PTX"
        );
    }
}
