#!/usr/bin/env bash
# Weak scaling of ./jacobi: ROWS x COLS per rank, on 1, 2 and 4 ranks, on host and
# host_discrete; each configuration REPS times, the best and the median time per iteration.
# Usage: ./scaling.sh [ROWS [COLS [ITERS [REPS]]]]   (run `make` first)
set -euo pipefail
cd "$(dirname "$0")"
rows=${1:-512} cols=${2:-1024} iters=${3:-200} reps=${4:-5}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
echo "| device | ranks | grid | halo bytes / iteration | ms / iteration: best (median) | of which halo exchange: best (median) |"
echo "|---|---|---|---|---|---|"
for dev in host host_discrete; do
  for np in 1 2 4; do
    times=() halos=() grid= bytes=
    for _ in $(seq "$reps"); do
      out=$(ACC_DEVICE_TYPE=$dev mpirun --oversubscribe -np "$np" ./jacobi -n "$rows" -m "$cols" -k "$iters" --weak)
      times+=("$(awk '$1 == "time_per_iteration_ms" { print $2 }' <<<"$out")")
      halos+=("$(awk '$1 == "halo_time_per_iteration_ms" { print $2 }' <<<"$out")")
      grid=$(awk '$1 == "grid" { print $2 "x" $4 }' <<<"$out")
      bytes=$(awk '$1 == "halo_bytes_per_iteration" { print $2 }' <<<"$out")
    done
    stat() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { printf "%.2f (%.2f)", v[1], v[int((NR + 1) / 2)] }'; }
    echo "| $dev | $np | $grid | $bytes | $(stat "${times[@]}") | $(stat "${halos[@]}") |"
  done
done
