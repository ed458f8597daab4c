#!/usr/bin/env bash
# Every check CI runs, in order: system packages, formatting, clippy with warnings as errors, the
# API documentation, and the whole test suite in release mode (the perft suites need the speed).
# Safe to run on a fresh Debian machine: it installs what the tests need and is missing, and
# nothing else.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

section() {
    printf '\n==== %s ====\n' "$*"
}

# Runs a step and says how long it took, so slow steps show up in CI logs.
timed() {
    local start=$SECONDS
    "$@"
    echo "-- done in $((SECONDS - start)) s: $*"
}

section "System packages"
# The OpenCL loader, a CPU OpenCL implementation (PoCL) and clinfo: the GPU layer's tests run on
# PoCL where there is no GPU, and fail in CI (CI=true) without an OpenCL device. pip, where
# python3 has none, for NVRTC below. apt-get update runs only when something is missing, so a
# machine that has them all spends no time and needs no network here.
packages=(pocl-opencl-icd ocl-icd-libopencl1 clinfo)
if ! python3 -m pip --version >/dev/null 2>&1; then
    packages+=(python3 python3-pip)
fi
if command -v dpkg >/dev/null && command -v apt-get >/dev/null; then
    missing=()
    for package in "${packages[@]}"; do
        dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
    done
    if ((${#missing[@]} == 0)); then
        echo "installed: ${packages[*]}"
    else
        echo "installing: ${missing[*]}"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
else
    echo "not a Debian system: skipping ${packages[*]}"
fi

section "NVRTC (CUDA kernels compiled without a GPU)"
# NVIDIA's runtime compiler alone, from PyPI (about 140 MB, cached across runs): the tests
# compile every CUDA kernel for sm_90 with it, so CUDA-only compile errors show up here too.
# Major version 13: cudarc (feature cuda-13000) looks for libnvrtc.so.13. KOGGE_REQUIRE_NVRTC
# makes those tests fail, not skip, when the library cannot be loaded.
nvrtc_dir="$HOME/.cache/kogge-nvrtc"
nvrtc_lib="$nvrtc_dir/nvidia/cu13/lib"
if [[ -e "$nvrtc_lib/libnvrtc.so.13" ]]; then
    echo "installed: $nvrtc_lib/libnvrtc.so.13"
else
    echo "installing: nvidia-cuda-nvrtc 13.x into $nvrtc_dir"
    rm -rf "$nvrtc_dir"
    timed python3 -m pip install --quiet --disable-pip-version-check --target "$nvrtc_dir" \
        "nvidia-cuda-nvrtc==13.*"
fi
export LD_LIBRARY_PATH="$nvrtc_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export KOGGE_REQUIRE_NVRTC=1

section "Toolchain"
cargo --version
rustc --version
for component in rustfmt clippy; do
    if ! cargo "${component/rustfmt/fmt}" --version >/dev/null 2>&1; then
        rustup component add "$component"
    fi
done

section "cargo fmt --check"
timed cargo fmt --all --check
# The fuzz crate is outside the workspace (it builds on nightly), so cargo fmt skips it.
timed rustfmt --edition 2024 --check fuzz/fuzz_targets/*.rs

section "cargo clippy"
timed cargo clippy --workspace --all-targets --release -- -D warnings

section "cargo doc"
# The API documentation builds without a warning (broken or ambiguous intra-doc links).
RUSTDOCFLAGS="-D warnings" timed cargo doc --workspace --no-deps --quiet

section "cargo test"
timed cargo test --workspace --release

section "Match harness"
# python-chess, pinned, for the harness (tools/match) and its tests; then a short match of Kogge
# against itself, once over UCI and once over xboard, that fails on any illegal move, crash, hang
# or time forfeit at 1 s + 0.01 s.
timed python3 -m pip install --quiet --disable-pip-version-check -r tools/match/requirements.txt
timed python3 -m unittest discover tools/match
timed python3 -m unittest discover -s bench -p 'test_*.py'  # bench/'s A/B table and trace sums
timed python3 -m unittest discover -s tools -p 'test_sass_profile.py'  # the profile's hot-code measure
timed python3 tools/match/match.py --engine1 target/release/kogge --name1 kogge-uci \
    --engine2 "target/release/kogge xboard" --proto2 xboard --name2 kogge-xboard \
    --tc 1+0.01 --games 4 --fail-on-errors
