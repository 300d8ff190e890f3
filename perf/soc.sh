#!/usr/bin/env bash
# perf/soc.sh: the SMP SoC (examples/soc, firmware fw/bench.hex) at several
# hart counts: weft native on 1 lane, on 2 lanes (auto: the selector keeps
# the faster kernels) and on 2 lanes always partitioned, against Verilator
# -O3 (single thread) in REPS interleaved rounds, and Icarus Verilog once on
# a shorter run; compile time against Verilator's build, and the plan's
# estimated 2-lane speedup against the measured one. Every run must end with
# every hart passing (pass=1, result=0) and the same cycle count.
#
# Usage: perf/soc.sh [NCORES...]            (default: 1 4 8)
#        ITERS=k perf/soc.sh               (bench iterations, FW_ARG; default 12,
#                                          about 2.9 M cycles; 0 runs all 48)
#        ICARUS_ITERS=k ...                (Icarus's run, default 1; ICARUS=0 skips it)
#        REPS=5 ...                        (rounds, default 3)
#        WEFT=/path/to/weft ...            (that binary instead of building ./cmd/weft)
# Run from anywhere; paths are relative to the repository root.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
FILES="examples/soc/smp/soc_smp.sv examples/soc/smp/soc_tile.sv examples/soc/smp/soc_shared.sv examples/soc/rtl/rv_core.v examples/soc/rtl/rv_alu.v examples/soc/rtl/rv_regfile.v"
FW='"examples/soc/fw/bench.hex"'
ITERS="${ITERS:-12}"
REPS="${REPS:-3}"

command -v verilator >/dev/null || { echo "verilator not found" >&2; exit 1; }
echo "# $(verilator --version); $(g++ --version | head -1); $(go version); $(nproc) CPUs"
TMP="$(mktemp -d "${TMPDIR:-/tmp}/weft-soc.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
WEFT_BIN="$TMP/weft"
if [ -n "${WEFT:-}" ]; then cp "$WEFT" "$WEFT_BIN"; else go build -o "$WEFT_BIN" ./cmd/weft; fi

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2)}'; }
cps() { grep -o 'cycles_per_s=[0-9]*' "$1" | cut -d= -f2; }
ratio() { echo "$1 / $2" | bc -l | xargs printf '%.2f'; }
# check FILE: the run passed; prints its cycle count.
check() {
  grep -q '^pass=0x1$' "$1" && grep -q '^result=0x0*$' "$1" || { echo "FAILED run: $1" >&2; cat "$1" >&2; exit 1; }
  grep -o 'cycles=[0-9]*' "$1" | tail -1 | cut -d= -f2
}

ROWS=()
for n in "${@:-1 4 8}"; do
  for n1 in $n; do
    echo "== NCORES=$n1, FW_ARG=$ITERS"
    b="$TMP/v$n1"
    t0=$(date +%s.%N)
    echo "PRINT(pass); PRINT(result);" >"$TMP/prints.h"
    # shellcheck disable=SC2086
    verilator --cc --exe --build -O3 --x-assign fast --x-initial fast --noassert \
      --top-module soc_smp --prefix Vtop -Mdir "$b" -o Vsim \
      -CFLAGS -O2 -CFLAGS "-DCLK=clk -DRST=rst_n -DPRINTS_H='\"$TMP/prints.h\"'" \
      -Wno-fatal -Wno-lint -Wno-style -Iexamples/soc/rtl "-GNCORES=$n1" "-GFIRMWARE=$FW" "-GFW_ARG=$ITERS" \
      "$ROOT/perf/peers/main.cpp" $FILES >"$b.log" 2>&1 || { cat "$b.log" >&2; exit 1; }
    vbuild=$(echo "$(date +%s.%N) - $t0" | bc -l | xargs printf '%.1f')
    # shellcheck disable=SC2086
    WEFT_CACHE=off "$WEFT_BIN" run --clock clk --reset rst_n --cycles 1 --stats -G NCORES=$n1 -G "FIRMWARE=$FW" -G FW_ARG=$ITERS $FILES >"$TMP/c1" 2>&1 || true
    # shellcheck disable=SC2086
    WEFT_CACHE=off "$WEFT_BIN" run --clock clk --reset rst_n --cycles 1 --stats --lanes 2 -G NCORES=$n1 -G "FIRMWARE=$FW" -G FW_ARG=$ITERS $FILES >"$TMP/c2" 2>&1 || true
    wc1=$(grep -o '^compile_ms=[0-9]*' "$TMP/c1" | cut -d= -f2)
    wc2=$(grep -o '^compile_ms=[0-9]*' "$TMP/c2" | cut -d= -f2)
    # The plan's estimate for the clock edge's fused kernel on 2 lanes.
    # shellcheck disable=SC2086
    "$WEFT_BIN" plan --lanes 2 --always -G NCORES=$n1 -G "FIRMWARE=$FW" $FILES >"$TMP/plan" 2>&1
    est=$(awk '/^kernel fused posedge/ {k=1} k && /single cost/ {print; exit}' "$TMP/plan" | sed -n 's/.*makespan [0-9]* (\([0-9.]*\)x).*/\1/p')
    est=${est:--}
    v=() w1=() wa=() w2=() cyc=""
    for rep in $(seq 1 "$REPS"); do
      "$b/Vsim" 100000000 "soc$n1" >"$TMP/out.v"
      v+=("$(cps "$TMP/out.v")")
      for mode in 1 a 2; do
        case $mode in
          1) args=(--lanes 1) ;;
          a) args=(--lanes 2) ;;
          2) args=(--lanes 2 --partition always) ;;
        esac
        # shellcheck disable=SC2086
        "$WEFT_BIN" run --clock clk --reset rst_n --cycles 100000000 --print pass,result --stats "${args[@]}" \
          -G NCORES=$n1 -G "FIRMWARE=$FW" -G FW_ARG=$ITERS $FILES >"$TMP/out.$mode"
        c=$(check "$TMP/out.$mode")
        [ -z "$cyc" ] && cyc=$c
        [ "$c" = "$cyc" ] || { echo "cycle counts differ: $c vs $cyc" >&2; exit 1; }
        case $mode in 1) w1+=("$(cps "$TMP/out.1")") ;; a) wa+=("$(cps "$TMP/out.a")") ;; 2) w2+=("$(cps "$TMP/out.2")") ;; esac
      done
      grep -q '^pass=0x1$' "$TMP/out.v" || { echo "Verilator run failed" >&2; cat "$TMP/out.v" >&2; exit 1; }
      echo "round $rep: verilator ${v[-1]} c/s, weft 1 lane ${w1[-1]}, 2 lanes auto ${wa[-1]}, 2 lanes always ${w2[-1]}"
    done
    { grep '^kernel=' "$TMP/out.a" || true; } | paste -sd' ' | sed 's/^/2 lanes auto, last round: /'
    icps="-"
    if [ "${ICARUS:-1}" != 0 ] && command -v iverilog >/dev/null; then
      # shellcheck disable=SC2086
      iverilog -g2012 -I examples/soc/rtl -s tb_smp -o "$TMP/i.vvp" "-Ptb_smp.NCORES=$n1" "-Ptb_smp.FIRMWARE=$FW" \
        "-Ptb_smp.FW_ARG=${ICARUS_ITERS:-1}" "-Ptb_smp.MAX_CYCLES=100000000" $FILES examples/soc/smp/tb_smp.sv 2>"$TMP/i.log"
      t0=$(date +%s.%N)
      vvp -n "$TMP/i.vvp" >"$TMP/out.i"
      is=$(echo "$(date +%s.%N) - $t0" | bc -l)
      ic=$(grep -o 'cycles=[0-9]*' "$TMP/out.i" | cut -d= -f2 | sort -n | tail -1)
      grep -q 'done: PASS' "$TMP/out.i" || { echo "Icarus run failed" >&2; exit 1; }
      icps=$(echo "$ic / $is" | bc -l | xargs printf '%.0f')
      echo "icarus: $ic cycles (FW_ARG=${ICARUS_ITERS:-1}) in $(printf '%.1f' "$is") s"
    fi
    vm=$(median "${v[@]}"); m1=$(median "${w1[@]}"); ma=$(median "${wa[@]}"); m2=$(median "${w2[@]}")
    ROWS+=("$(printf '| %2d | %9s | %9s | %9s | %5sx | %9s | %5sx | %9s | %5sx | %5sx | %9s | %7s | %6s/%s |' \
      "$n1" "$cyc" "$vm" "$m1" "$(ratio "$m1" "$vm")" "$ma" "$(ratio "$ma" "$m1")" "$m2" "$(ratio "$m2" "$m1")" "$est" "$icps" "$vbuild" "$wc1" "$wc2")")
  done
done
echo
echo "| harts | cycles | Verilator c/s | weft 1 lane c/s | weft/V | 2 lanes auto c/s | auto/1 | 2 lanes always c/s | always/1 | plan est. | Icarus c/s | V build s | weft compile ms (1/2 lanes) |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${ROWS[@]}"
