#!/usr/bin/env bash
# perf/peers/verilator.sh: build and run one or more designs with Verilator
# -O3 (single thread, no tracing) and with weft (native and interp backends),
# and print the throughput side by side.
#
# Usage: perf/peers/verilator.sh [DESIGN...]     (uart, flops4k, cores, counters, sec; default: uart flops4k)
#        CYCLES=N perf/peers/verilator.sh flops4k   (override the cycle count)
# Run from anywhere; paths are relative to the repository root.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PEERS="$ROOT/perf/peers"
cd "$ROOT"

# name | top | clock | reset (active low) | cycles | print signals | files (globs)
DESIGNS=(
  "uart|uart_top|clk|rst_n|20000000|txd,tx_ready,rx_data,rx_valid,rx_frame_err,rx_overflow|examples/uart/rtl/uart_pkg.sv examples/uart/rtl/uart_fifo.sv examples/uart/rtl/uart_tx.sv examples/uart/rtl/uart_rx.sv examples/uart/rtl/uart_top.sv"
  "flops4k|flops4k|clk|rst_n|10000000|sum|perf/peers/flops4k.sv"
  "cores|cores|clk|rst_n|2000000|sum|examples/cores/rtl/cores.sv"
  "counters|counters|clk|rst_n|2000000|first,last|perf/peers/counters.sv"
  "sec|sec|clk|rst_n|1000000|errors,crc|perf/peers/sec.sv"
)

command -v verilator >/dev/null || { echo "verilator not found" >&2; exit 1; }
echo "# $(verilator --version); $(g++ --version | head -1); $(go version)"

WEFT_BIN="$(mktemp -d)/weft"
go build -o "$WEFT_BIN" ./cmd/weft

run_design() {
  local name="$1" top="$2" clk="$3" rst="$4" cycles="$5" prints="$6" files="$7"
  cycles="${CYCLES:-$cycles}"
  local bdir
  bdir="$(mktemp -d "${TMPDIR:-/tmp}/weft-peers-$name.XXXXXX")"
  # The driver's final-value prints: one PRINT(sig) per signal.
  : >"$bdir/prints.h"
  local sig
  for sig in ${prints//,/ }; do echo "PRINT($sig);" >>"$bdir/prints.h"; done

  echo "== $name (top $top, $cycles cycles)"
  local t0 t1
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  verilator --cc --exe --build -O3 --x-assign fast --x-initial fast --noassert \
    --top-module "$top" --prefix Vtop -Mdir "$bdir/obj" -o Vsim \
    -CFLAGS -O2 -CFLAGS "-DCLK=$clk -DRST=$rst -DPRINTS_H='\"$bdir/prints.h\"'" \
    -Wno-fatal -Wno-lint -Wno-style \
    "$PEERS/main.cpp" $files >"$bdir/build.log" 2>&1 \
    || { cat "$bdir/build.log" >&2; exit 1; }
  t1=$(date +%s.%N)
  echo "verilator design=$name build_s=$(echo "$t1 - $t0" | bc -l | xargs printf '%.1f')"
  "$bdir/obj/Vsim" "$cycles" "$name" | tee "$bdir/out.verilator" | grep '^verilator '

  local backend
  for backend in native interp; do
    # shellcheck disable=SC2086
    "$WEFT_BIN" run --top "$top" --clock "$clk" --reset "$rst" --cycles "$cycles" \
      --backend "$backend" --stats --print "$prints" $files >"$bdir/out.$backend"
    grep '^compile_ms=' "$bdir/out.$backend" | sed "s/^/weft-$backend design=$name /"
  done
  # Final values (NAME=0x...), leading zeros stripped, must match.
  local b vals ref=""
  for b in verilator native interp; do
    vals="$(grep -E '^[A-Za-z_][A-Za-z0-9_.]*=0x' "$bdir/out.$b" \
      | sed -E 's/=0x0*([0-9a-fA-F])/=0x\1/' | tr 'A-F' 'a-f' | paste -sd' ')"
    echo "final $b: $vals"
    if [ -z "$ref" ]; then ref="$vals"; elif [ "$vals" != "$ref" ]; then
      echo "final values: MISMATCH ($b differs from verilator)"; ref="MISMATCH"; fi
  done
  [ "$ref" = "MISMATCH" ] || echo "final values: agree"
  rm -rf "$bdir"
}

want=("$@")
[ ${#want[@]} -eq 0 ] && want=(uart flops4k)
for w in "${want[@]}"; do
  found=0
  for row in "${DESIGNS[@]}"; do
    IFS='|' read -r name top clk rst cycles prints files <<<"$row"
    if [ "$name" = "$w" ]; then
      run_design "$name" "$top" "$clk" "$rst" "$cycles" "$prints" "$files"
      found=1
    fi
  done
  [ $found -eq 1 ] || { echo "unknown design: $w" >&2; exit 2; }
done
rm -rf "$(dirname "$WEFT_BIN")"
