#!/usr/bin/env bash
# The GPU search kernel's code size, without a GPU: NVRTC compiles it for sm_90 as the engine
# does, nvdisasm disassembles the cubin, and tools/sass-profile.py counts its instructions by
# the function and source line they were compiled from (inlined code counts where it was
# written) and by kind (local, shared and global memory, calls, branches). With several warps
# per multiprocessor the search waits for instructions more than for anything else (Nsight
# Compute, PERFORMANCE.md), so its size is worth watching before a change goes to the device.
#
# Usage: bash bench/gpu-kernel-size.sh
#   KOGGE_CUDA_OPTIONS  extra NVRTC options, e.g. "-DMAX_DEFERRED=16u"   (default none)
#   TOP                 source lines listed                              (default 30)
#   TOOLS               where the NVRTC and nvdisasm wheels are installed
#                       (default ~/.cache/kogge-cudatools; about 150 MB, fetched once with pip)
# NVRTC 13.0 is the H100 machine's (../shared/gpu/DEVICE.md), so the counts are those of the
# kernel that runs there; nvdisasm 13.2 is the oldest on PyPI that reads its cubins.
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "${BASH_SOURCE[0]}")/.."

TOOLS=${TOOLS:-$HOME/.cache/kogge-cudatools}
TOP=${TOP:-30}
lib="$TOOLS/nvidia/cu13/lib"
nvdisasm="$TOOLS/nvidia/cu13/bin/nvdisasm"
if [[ ! -e "$lib/libnvrtc.so.13" || ! -x "$nvdisasm" ]]; then
    echo "installing NVRTC 13.0 and nvdisasm 13.2 into $TOOLS" >&2
    python3 -m pip install --quiet --disable-pip-version-check --target "$TOOLS" \
        "nvidia-cuda-nvrtc==13.0.*" "nvidia-cuda-nvdisasm==13.2.*" >&2
fi

dump=$(mktemp -d)
trap 'rm -rf "$dump"' EXIT
# The search_ptx example compiles the search module for sm_90 with the engine's defines;
# KOGGE_CUDA_DUMP keeps the source and the cubin NVRTC made.
LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" KOGGE_CUDA_DUMP="$dump" \
    cargo run --release --quiet -p kogge-search-gpu --example search_ptx >/dev/null
source_file=$(grep -l "search_slice" "$dump"/*.cu | head -1)
python3 tools/sass-profile.py --kernel search_slice --cubin "${source_file%.cu}.cubin" \
    --source "$source_file" --nvdisasm "$nvdisasm" --top "$TOP"
