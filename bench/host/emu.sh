#!/bin/bash
# randstat's pure per-sample path (hostbench.c) cross-built for aarch64
# and run under QEMU's user-mode emulator (qemu-aarch64-static, Debian's
# qemu-user-static): this machine has no arm64 CPU, so no time is
# measured, only what emulation can say exactly enough: that the aarch64
# build computes what the x86-64 one does (hostbench check), and how many
# instructions each call executes.
#
#   bash bench/host/emu.sh OUTDIR
#
# writes OUTDIR/emucost.csv and OUTDIR/emucost.md.  Instructions per call:
# QEMU run with one instruction per translation block (-singlestep), no
# block chaining and the exec log (-d nochain,exec) prints one line per
# instruction executed; the lines of `hostbench once MODE 2N` less those of
# `once MODE N`, over N (start-up and set-up cancel out).  The x86-64
# build is counted the same way, under qemu-x86_64-static, beside the
# aarch64 one: it checks the method against callgrind's count
# (bench/host/run.sh's "instructions").  Env: EMU_N (N, default 1000).
# Needs gcc-aarch64-linux-gnu, libc6-dev-arm64-cross and qemu-user-static.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: emu.sh OUTDIR}
n=${EMU_N:-1000}
die() { echo "emu: $*" >&2; exit 1; }
for t in aarch64-linux-gnu-gcc qemu-aarch64-static qemu-x86_64-static; do
	command -v "$t" >/dev/null ||
		die "$t missing (apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static)"
done

make -s -C "$here" >&2 || die "building bench/host failed"
make -s -C "$here" CC=aarch64-linux-gnu-gcc >&2 || die "building bench/host for aarch64 failed"
x86=$here/build/hostbench
arm=$here/build-aarch64/hostbench
mkdir -p "$out" || die "cannot create $out"

# The same results on both: check's lines, the same but for the arch.
"$x86" check >"$out/check-x86_64.tap" || die "hostbench check (x86-64) failed"
qemu-aarch64-static "$arm" check >"$out/check-aarch64.tap" ||
	die "hostbench check under qemu-aarch64 failed (see $out/check-aarch64.tap)"
cmp -s "$out/check-x86_64.tap" "$out/check-aarch64.tap" ||
	die "the aarch64 build's check differs from x86-64's: diff $out/check-x86_64.tap $out/check-aarch64.tap"
echo "# emu: hostbench check: the aarch64 build under qemu prints what the x86-64 build does ($(grep -c '^ok' "$out/check-aarch64.tap") ok)" >&2

# count EMULATOR BIN MODE N: instructions executed by `BIN once MODE N`.
count() {
	"$1" -singlestep -d nochain,exec -D /dev/fd/3 "$2" once "$3" "$4" \
		3>&1 >/dev/null | grep -c '^Trace'
}
per_call() { # EMULATOR BIN MODE: instructions per call
	local a b
	a=$(count "$1" "$2" "$3" "$n") b=$(count "$1" "$2" "$3" $((2 * n)))
	awk -v a="$a" -v b="$b" -v n="$n" 'BEGIN {printf "%.1f", (b - a) / n}'
}

modes="path-exp path-uni classify draw-exp draw-uni rng charge read empty"
csv=$out/emucost.csv
echo "mode,calls,aarch64_instructions,x86_64_instructions" >"$csv.tmp"
for m in $modes; do
	a=$(per_call qemu-aarch64-static "$arm" "$m")
	x=$(per_call qemu-x86_64-static "$x86" "$m")
	echo "$m,$n,$a,$x" >>"$csv.tmp"
	echo "# emu: $m: aarch64 $a, x86-64 $x instructions per call" >&2
done
mv "$csv.tmp" "$csv"

qv=$(qemu-aarch64-static --version | head -n 1)
gv=$(aarch64-linux-gnu-gcc -dumpfullversion)
{
	echo "# randstat's pure per-sample path for aarch64, under emulation (bench/host/emu.sh)"
	echo
	echo "No arm64 CPU here: these are instruction counts, not times.  The aarch64"
	echo "build (aarch64-linux-gnu-gcc $gv, Debian 6.1 arm64's module flags) ran"
	echo "under $qv; its \`hostbench check\` printed what the x86-64 build's did."
	echo "Instructions per call: QEMU's exec log with one instruction per block,"
	echo "\`once MODE $((2 * n))\` less \`once MODE $n\`, over $n; the x86-64 build"
	echo "counted the same way under qemu-x86_64 (compare callgrind's, bench/host/run.sh)."
	echo
	echo "| mode | aarch64 instructions | x86-64 instructions |"
	echo "|---|---|---|"
	tail -n +2 "$csv" | while IFS=, read -r m _ a x; do
		echo "| $m | $a | $x |"
	done
} >"$out/emucost.md"
echo "# emu: results in $csv and $out/emucost.md" >&2
