#!/usr/bin/env bash
# perf/peers/verilator.sh: build each design with Verilator -O3 (single
# thread, no tracing), run it and weft native in REPS interleaved pairs
# (Verilator, weft, Verilator, weft, ...), check that every run ends with the
# same final values, and print a table of medians and the weft/Verilator
# ratio.
#
# Usage: perf/peers/verilator.sh [DESIGN...]     (see DESIGNS below; default: all)
#        CYCLES=N perf/peers/verilator.sh flops4k   (override the cycle count)
#        REPS=5 ...                                 (pairs per design, default 3)
#        INTERP=1 ...                               (also run weft's interpreter once)
#        WEFT=/path/to/weft ...                     (that binary instead of building ./cmd/weft)
# Run from anywhere; paths are relative to the repository root.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PEERS="$ROOT/perf/peers"
cd "$ROOT"

# The SMP SoC (examples/soc) runs its benchmark firmware to $finish, about
# 2.9 M cycles.
SOC_FILES="examples/soc/smp/soc_smp.sv examples/soc/smp/soc_tile.sv examples/soc/smp/soc_shared.sv examples/soc/rtl/rv_core.v examples/soc/rtl/rv_alu.v examples/soc/rtl/rv_regfile.v"
# name | top | clock | reset (active low) | cycles | print signals | files | top parameters (NAME=VAL ...) | Verilator options
DESIGNS=(
  "uart|uart_top|clk|rst_n|20000000|txd,tx_ready,rx_data,rx_valid,rx_frame_err,rx_overflow|examples/uart/rtl/uart_pkg.sv examples/uart/rtl/uart_fifo.sv examples/uart/rtl/uart_tx.sv examples/uart/rtl/uart_rx.sv examples/uart/rtl/uart_top.sv"
  "flops4k|flops4k|clk|rst_n|10000000|sum|perf/peers/flops4k.sv"
  "cores|cores|clk|rst_n|2000000|sum|examples/cores/rtl/cores.sv"
  "counters|counters|clk|rst_n|2000000|first,last|perf/peers/counters.sv"
  "sec|sec|clk|rst_n|1000000|errors,crc|perf/peers/sec.sv"
  "cores4|cores|clk|rst_n|4000000|sum|examples/cores/rtl/cores.sv|N=4"
  "fifo|fifo|clk|rst_n|20000000|checksum,pops|perf/peers/fifo.sv examples/uart/rtl/uart_fifo.sv"
  "mac64|mac64|clk|rst_n|2000000|sum,mix|perf/peers/mac64.sv"
  "macloop|macloop|clk|rst_n|1000000|sum|perf/peers/macloop.sv"
  "chain100k|chain100k|clk|rst_n|200000|sum|perf/peers/chain100k.sv"
  "soc|soc_smp|clk|rst_n|3000000|pass,result|$SOC_FILES|NCORES=1 FIRMWARE=\"examples/soc/fw/bench.hex\" FW_ARG=12|-Iexamples/soc/rtl"
  "soc4|soc_smp|clk|rst_n|3000000|pass,result|$SOC_FILES|NCORES=4 FIRMWARE=\"examples/soc/fw/bench.hex\" FW_ARG=12|-Iexamples/soc/rtl"
)

command -v verilator >/dev/null || { echo "verilator not found" >&2; exit 1; }
echo "# $(verilator --version); $(g++ --version | head -1); $(go version)"

WEFT_BIN="$(mktemp -d)/weft"
if [ -n "${WEFT:-}" ]; then
  cp "$WEFT" "$WEFT_BIN" # another build of weft, e.g. an older commit's
else
  go build -o "$WEFT_BIN" ./cmd/weft
fi

run_design() {
  local name="$1" top="$2" clk="$3" rst="$4" cycles="$5" prints="$6" files="$7" params="$8" vflags="$9"
  cycles="${CYCLES:-$cycles}"
  local vparams=() wparams=() p
  for p in $params; do vparams+=("-G$p"); wparams+=(-G "$p"); done
  local bdir
  bdir="$(mktemp -d "${TMPDIR:-/tmp}/weft-peers-$name.XXXXXX")"
  # The driver's final-value prints: one PRINT(sig) per signal.
  : >"$bdir/prints.h"
  local sig
  for sig in ${prints//,/ }; do echo "PRINT($sig);" >>"$bdir/prints.h"; done

  echo "== $name (top $top, $cycles cycles, $REPS interleaved pairs)"
  local t0 t1 build_s
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  verilator --cc --exe --build -O3 --x-assign fast --x-initial fast --noassert \
    --top-module "$top" --prefix Vtop -Mdir "$bdir/obj" -o Vsim \
    -CFLAGS -O2 -CFLAGS "-DCLK=$clk -DRST=$rst -DPRINTS_H='\"$bdir/prints.h\"'" \
    -Wno-fatal -Wno-lint -Wno-style "${vparams[@]}" $vflags \
    "$PEERS/main.cpp" $files >"$bdir/build.log" 2>&1 \
    || { cat "$bdir/build.log" >&2; exit 1; }
  t1=$(date +%s.%N)
  build_s=$(echo "$t1 - $t0" | bc -l | xargs printf '%.1f')
  echo "verilator design=$name build_s=$build_s"

  # Final values (NAME=0x...), leading zeros stripped.
  finals() {
    grep -E '^[A-Za-z_][A-Za-z0-9_.]*=0x' "$1" \
      | sed -E 's/=0x0*([0-9a-fA-F])/=0x\1/' | tr 'A-F' 'a-f' | paste -sd' '
  }
  local rep ref="" vals vcps=() wcps=() compile_ms="" agree=yes b
  for rep in $(seq 1 "$REPS"); do
    "$bdir/obj/Vsim" "$cycles" "$name" >"$bdir/out.verilator"
    grep '^verilator ' "$bdir/out.verilator"
    vcps+=("$(grep -o 'cycles_per_s=[0-9]*' "$bdir/out.verilator" | cut -d= -f2)")
    # shellcheck disable=SC2086
    "$WEFT_BIN" run --top "$top" --clock "$clk" --reset "$rst" --cycles "$cycles" \
      --stats --print "$prints" "${wparams[@]}" $files >"$bdir/out.native"
    grep '^compile_ms=' "$bdir/out.native" | sed "s/^/weft-native design=$name /"
    wcps+=("$(grep -o 'cycles_per_s=[0-9]*' "$bdir/out.native" | cut -d= -f2)")
    # The first run compiled (later ones hit the cache).
    [ -n "$compile_ms" ] || compile_ms="$(grep -o '^compile_ms=[0-9]*' "$bdir/out.native" | cut -d= -f2)"
    for b in verilator native; do
      vals="$(finals "$bdir/out.$b")"
      if [ -z "$ref" ]; then ref="$vals"; elif [ "$vals" != "$ref" ]; then
        echo "final values: MISMATCH ($b run $rep: $vals; first verilator run: $ref)"; agree=no; fi
    done
  done
  if [ "${INTERP:-0}" = 1 ]; then
    # shellcheck disable=SC2086
    "$WEFT_BIN" run --top "$top" --clock "$clk" --reset "$rst" --cycles "$cycles" \
      --backend interp --stats --print "$prints" "${wparams[@]}" $files >"$bdir/out.interp"
    grep '^compile_ms=' "$bdir/out.interp" | sed "s/^/weft-interp design=$name /"
    [ "$(finals "$bdir/out.interp")" = "$ref" ] || { echo "final values: MISMATCH (interp)"; agree=no; }
  fi
  echo "final values ($ref): $([ $agree = yes ] && echo agree || echo MISMATCH)"
  local vm wm
  vm="$(median "${vcps[@]}")"
  wm="$(median "${wcps[@]}")"
  ROWS+=("$(printf '| %-9s | %9s | %13s | %13s | %6sx | %7s | %9s | %-5s |' "$name" "$cycles" "$vm" "$wm" \
    "$(echo "$wm / $vm" | bc -l | xargs printf '%.2f')" "$build_s" "$compile_ms" "$agree")")
  rm -rf "$bdir"
}

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2)}'; }

REPS="${REPS:-3}"
ROWS=()
want=("$@")
[ ${#want[@]} -eq 0 ] && want=(uart fifo macloop cores4 cores mac64 counters sec flops4k chain100k soc soc4)
for w in "${want[@]}"; do
  found=0
  for row in "${DESIGNS[@]}"; do
    IFS='|' read -r name top clk rst cycles prints files params vflags <<<"$row"
    if [ "$name" = "$w" ]; then
      run_design "$name" "$top" "$clk" "$rst" "$cycles" "$prints" "$files" "$params" "$vflags"
      found=1
    fi
  done
  [ $found -eq 1 ] || { echo "unknown design: $w" >&2; exit 2; }
done
echo
echo "| design    |    cycles | Verilator c/s |      weft c/s | weft/V  | V build s | weft compile ms | final |"
echo "|-----------|----------:|--------------:|--------------:|--------:|--------:|----------:|-------|"
printf '%s\n' "${ROWS[@]}"
rm -rf "$(dirname "$WEFT_BIN")"
