#!/usr/bin/env bash
# build.sh -- rebuild the soc_smp firmware images (isa.hex, smp.hex, bench.hex)
# and bench_expect.h from source, bit for bit.
#
#   examples/soc/fw/build.sh            # from anywhere
#   LIST=dir examples/soc/fw/build.sh   # also keep disassembly listings in dir
#   CHECK=1 examples/soc/fw/build.sh    # change nothing; fail if an output differs
#
# Needs riscv64-unknown-elf-gcc (Debian/Ubuntu: apt-get install
# gcc-riscv64-unknown-elf) and a host C compiler (cc) for bench_expect.h.
# Intermediate files (.o, .elf, .bin) go to a temporary directory that is
# removed afterwards; only the .hex files and bench_expect.h land here.
set -eu

cd "$(dirname "$0")"
CROSS=${CROSS:-riscv64-unknown-elf-}
HOSTCC=${HOSTCC:-cc}

for t in gcc objcopy objdump; do
    if ! command -v "${CROSS}$t" >/dev/null 2>&1; then
        echo "build.sh: ${CROSS}$t not found." >&2
        echo "  install it with: apt-get install gcc-riscv64-unknown-elf" >&2
        echo "  (or set CROSS to another riscv toolchain prefix)" >&2
        exit 1
    fi
done

ARCH="-march=rv32im -mabi=ilp32"
CFLAGS="$ARCH -O2 -nostdlib -ffreestanding -fno-builtin -fno-tree-loop-distribute-patterns \
 -fno-pic -fno-common -fno-asynchronous-unwind-tables -fno-ident -mno-relax -mstrict-align \
 -Wall -Wextra -Werror"
LDFLAGS="$ARCH -nostdlib -nostartfiles -static -T link.ld -Wl,--no-relax -Wl,--build-id=none -Wl,--no-warn-rwx-segments"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
STALE=""

# update NEW OLD: install NEW as OLD when they differ (CHECK: only note it)
update() {
    cmp -s "$1" "$2" 2>/dev/null && return 0
    if [ -n "${CHECK:-}" ]; then
        STALE="$STALE $2"
    else
        cp "$1" "$2"
    fi
}

# bench_expect.h: checksums of bench.c computed on the host
if command -v "$HOSTCC" >/dev/null 2>&1; then
    "$HOSTCC" -DHOST -O2 -Wall -Wextra -o "$TMP/bench_host" bench.c
    "$TMP/bench_host" > "$TMP/bench_expect.h"
    update "$TMP/bench_expect.h" bench_expect.h
else
    echo "build.sh: no host C compiler ($HOSTCC); keeping bench_expect.h as it is" >&2
fi

# image NAME SOURCES...: link SOURCES into NAME.hex
image() {
    name=$1
    shift
    objs=""
    for src in "$@"; do
        obj="$TMP/$name-${src%.*}.o"
        "${CROSS}gcc" $CFLAGS -c -o "$obj" "$src"
        objs="$objs $obj"
    done
    "${CROSS}gcc" $LDFLAGS -o "$TMP/$name.elf" $objs
    "${CROSS}objcopy" -O binary "$TMP/$name.elf" "$TMP/$name.bin"
    # one little-endian 32-bit word per line, lowercase, as $readmemh reads
    od -An -v -tx4 -w4 --endian=little "$TMP/$name.bin" | tr -d ' ' > "$TMP/$name.hex"
    update "$TMP/$name.hex" "$name.hex"
    words=$(wc -l < "$TMP/$name.hex")
    echo "$name.hex: $words words ($((words * 4)) bytes)"
    if [ -n "${LIST:-}" ]; then
        mkdir -p "$LIST"
        "${CROSS}objdump" -d -M no-aliases,numeric "$TMP/$name.elf" > "$LIST/$name.lst"
        "${CROSS}objdump" -h -t "$TMP/$name.elf" >> "$LIST/$name.lst"
    fi
}

image isa   isa.S
image smp   crt0.S smp.c lib.c
image bench crt0.S bench.c lib.c

if [ -n "$STALE" ]; then
    echo "build.sh: differs from what the sources build:$STALE" >&2
    exit 1
fi
