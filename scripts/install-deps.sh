#!/usr/bin/env bash
# Installs, with apt-get, whatever kbench's build needs and this Debian machine lacks. The CUDA
# toolkit (nvcc, cuBLAS, CUB, NVTX) is expected under /usr/local/cuda already. Idempotent: a
# machine that has everything gets no apt-get call at all. gnuplot-nox draws `kbench report`'s
# PNGs (docs/compare-and-report.md says why gnuplot).
set -euo pipefail

packages=(cmake g++ make git libboost-dev libboost-filesystem-dev libboost-program-options-dev
          libfccp-dev libgtest-dev gnuplot-nox nlohmann-json3-dev libseccomp-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "kbench: installing ${missing[*]}" >&2
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v nvcc >/dev/null 2>&1; then
  if [ -x /usr/local/cuda/bin/nvcc ]; then
    export PATH=/usr/local/cuda/bin:$PATH
  else
    echo "kbench: nvcc not found; install the CUDA toolkit (/usr/local/cuda)" >&2
    exit 1
  fi
fi
