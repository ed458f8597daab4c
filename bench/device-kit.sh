#!/usr/bin/env bash
# Packs what a run on the device machine needs beside the repository into one git-ignored folder
# (default .dev/, ../shared/gpu/DEVICE.md says why each piece): the release binary, the test data
# (the perft suites, WAC, the openings), the OpenCL loader and clinfo as Debian packages (the
# device has NVIDIA's OpenCL driver but no loader), Stockfish's package (side-by-side runs), and
# python-chess (the match harness). A fresh checkout has none of them; name the folder in the
# device call's `carry`. Each piece already there is kept; the binary is always rebuilt.
#
# Usage: bash bench/device-kit.sh [FOLDER]
# On the device, begin a command with (OpenCL and the harness):
#   mkdir -p /tmp/ocl && for f in .dev/debs/ocl-icd*.deb .dev/debs/clinfo*.deb; do dpkg -x $f /tmp/ocl; done
#   export LD_LIBRARY_PATH=/tmp/ocl/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH PYTHONPATH=$PWD/.dev/py
#   mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
# and pass `--data .dev/data` to `kogge selftest` (its default, ../shared/data, is not there).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

kit=${1:-.dev}
if ! git check-ignore -q "$kit/x" 2>/dev/null; then
    echo "$kit is not ignored by git: the device call would carry it as part of the tree" >&2
    exit 2
fi
mkdir -p "$kit/debs" "$kit/data" "$kit/py"

cargo build --release --quiet
cp target/release/kogge "$kit/kogge"
echo "binary: $kit/kogge ($(git rev-parse --short HEAD)$(git diff --quiet || echo ', with changes'))"

if [[ ! -d ../shared/data ]]; then
    echo "no ../shared/data beside the repository: the test data is not packed" >&2
else
    # A loop, not `cp -n`, whose exit status for a file it skips differs between coreutils.
    for file in ../shared/data/*.epd; do
        [[ -e "$kit/data/$(basename "$file")" ]] || cp "$file" "$kit/data/"
    done
fi
echo "data: $(ls "$kit/data" | tr '\n' ' ')"

missing=()
for package in ocl-icd-libopencl1 clinfo stockfish; do
    compgen -G "$kit/debs/${package}_*.deb" >/dev/null || missing+=("$package")
done
if ((${#missing[@]} > 0)); then
    # apt-get download writes into the current folder; as root it warns that its sandbox user
    # cannot write there, which is harmless.
    (cd "$kit/debs" && apt-get download "${missing[@]}" 2>&1 | grep -v "^W: Download is performed unsandboxed" || true)
fi
echo "debs: $(ls "$kit/debs" | tr '\n' ' ')"

if [[ ! -d "$kit/py/chess" ]]; then
    python3 -m pip install --quiet --disable-pip-version-check --target "$kit/py" \
        -r tools/match/requirements.txt
fi
echo "python: $(ls "$kit/py" | grep -v dist-info | tr '\n' ' ')"
du -sh "$kit"
