#!/usr/bin/env bash
# perf/lanes.sh: what --lanes 2 costs or wins on every bundled design and
# every design of perf/peers/verilator.sh, on a quiet machine and with one
# core kept busy by another process (a shell loop, as a neighbour job on a
# shared CI box would). For each design and scenario, `weft bench` measures
# one lane against two lanes in auto mode (the selector keeps the faster
# kernels) in one process, with runs of about 0.1-0.3 s (long against the
# scheduler's time slices), then one lane against two lanes always
# partitioned in another, with runs of a hundredth of the cycles (always
# partitioned can be a hundred times slower with a busy core); each ratio
# compares rows of one process. The
# table gives medians of --runs timed runs, the plan's estimate, and the
# lane pool's parks and the process's context switches per cycle.
#
# Usage: perf/lanes.sh [DESIGN...]        (default: all; see DESIGNS)
#        SCENARIOS="quiet busy" ...       (default both)
#        RUNS=R ...                       (weft bench --runs; default 5)
#        SCALE=k ...                      (cycles per run times k, e.g. 0.1 for a quick look)
#        WEFT=/path/to/weft ...           (that binary instead of building ./cmd/weft)
# Run from anywhere; paths are relative to the repository root.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
RUNS="${RUNS:-5}"
SCALE="${SCALE:-1}"
SCENARIOS="${SCENARIOS:-quiet busy}"
UART="examples/uart/rtl/uart_pkg.sv examples/uart/rtl/uart_fifo.sv examples/uart/rtl/uart_tx.sv examples/uart/rtl/uart_rx.sv examples/uart/rtl/uart_top.sv"
SOC="examples/soc/smp/soc_smp.sv examples/soc/smp/soc_tile.sv examples/soc/smp/soc_shared.sv examples/soc/rtl/rv_core.v examples/soc/rtl/rv_alu.v examples/soc/rtl/rv_regfile.v"

# name | top | reset (active low) | cycles per run (about 0.1-0.3 s on one lane) | files | extra weft arguments
DESIGNS=(
  "uart|uart_top|rst_n|10000000|$UART|"
  "cores|cores|rst_n|100000|examples/cores/rtl/cores.sv|"
  "cores4|cores|rst_n|400000|examples/cores/rtl/cores.sv|-G N=4"
  "soc4|soc_smp|rst_n|150000|$SOC|-G NCORES=4 -G 'FIRMWARE=\"examples/soc/fw/bench.hex\"' -G FW_ARG=0"
  "flops4k|flops4k|rst_n|1000000|perf/peers/flops4k.sv|"
  "counters|counters|rst_n|1000000|perf/peers/counters.sv|"
  "sec|sec|rst_n|200000|perf/peers/sec.sv|"
  "fifo|fifo|rst_n|10000000|perf/peers/fifo.sv examples/uart/rtl/uart_fifo.sv|"
  "mac64|mac64|rst_n|1000000|perf/peers/mac64.sv|"
  "macloop|macloop|rst_n|500000|perf/peers/macloop.sv|"
  "chain100k|chain100k|rst_n|50000|perf/peers/chain100k.sv|"
)

TMP="$(mktemp -d "${TMPDIR:-/tmp}/weft-lanes.XXXXXX")"
BUSY=""
cleanup() { [ -n "$BUSY" ] && kill "$BUSY" 2>/dev/null; rm -rf "$TMP"; }
trap cleanup EXIT
WEFT_BIN="$TMP/weft"
if [ -n "${WEFT:-}" ]; then cp "$WEFT" "$WEFT_BIN"; else go build -o "$WEFT_BIN" ./cmd/weft; fi
echo "# $(go version); $(nproc) CPUs; weft bench --runs $RUNS, cycles scaled by $SCALE"

# row FILE LANES: the cycles/s column of that lane count's row.
row() { awk -v l="$2" '$1 == l && $4 ~ /[0-9]/ {print $4; exit}' "$1"; }
# rate: "1.23M" -> 1230000.
rate() { awk -v v="$1" 'BEGIN { m = 1; if (v ~ /M$/) m = 1e6; else if (v ~ /k$/) m = 1e3; sub(/[kM]$/, "", v); printf "%.0f", v * m }'; }
ratio() { awk -v a="$(rate "$1")" -v b="$(rate "$2")" 'BEGIN { printf "%.2fx", a / b }'; }
# per FILE WHAT: WHAT per cycle from the lane pool line ("parks", "context").
per() { grep -o "[0-9.e+-]* $2" "$1" | head -1 | cut -d' ' -f1; }

TABLE=()
for scenario in $SCENARIOS; do
  if [ "$scenario" = busy ]; then
    (while :; do :; done) &
    BUSY=$!
  fi
  for d in "${DESIGNS[@]}"; do
    IFS='|' read -r name top rst cycles files extra <<<"$d"
    cycles=$(awk -v c="$cycles" -v s="$SCALE" 'BEGIN { printf "%d", c * s }')
    if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
    echo "== $name ($scenario)"
    for mode in auto always; do
      n=$cycles
      if [ $mode = always ]; then n=$((cycles / 100 > 2000 ? cycles / 100 : 2000)); fi
      # shellcheck disable=SC2086
      eval "\"$WEFT_BIN\" bench --top $top --reset $rst --cycles $n --runs $RUNS --lanes 1,2 --partition $mode $extra $files" >"$TMP/$mode" 2>&1 \
        || { cat "$TMP/$mode" >&2; exit 1; }
      cat "$TMP/$mode"
    done
    one=$(row "$TMP/auto" 1) auto=$(row "$TMP/auto" 2)
    one2=$(row "$TMP/always" 1) always=$(row "$TMP/always" 2)
    est=$(awk '$1 == 2 {print $7; exit}' "$TMP/always")
    TABLE+=("| $name | $scenario | $one | $auto | $(ratio "$auto" "$one") | $always | $(ratio "$always" "$one2") | ${est:--} | $(per "$TMP/auto" context || true) | $(per "$TMP/always" parks || true) | $(per "$TMP/always" context || true) |")
  done
  if [ -n "$BUSY" ]; then kill "$BUSY"; wait "$BUSY" 2>/dev/null || true; BUSY=""; fi
done

echo
echo "| design | machine | 1 lane c/s | 2 auto c/s | auto/1 | 2 always c/s | always/1 | plan est. | auto ctx/cycle | always parks/cycle | always ctx/cycle |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${TABLE[@]}"
