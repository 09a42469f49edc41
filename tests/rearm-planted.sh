#!/bin/bash
# The trace check of the judged and rearm suites, shown to fail: build the
# module with each tests/debug/rearm-*.patch (a resumed sample armed late
# on the kernel's side) and boot the rearm suite, which runs the check on
# each build after the real one's (tests/vm/guest/judged.sh).  Not part of
# make check; prints the rearm suite's KTAP, exits non-zero if a test failed.
#
#   bash tests/rearm-planted.sh        (RANDSTAT_TCG_THREAD, KERNEL... as run.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
# shellcheck source=tests/vm/kernel.sh
. "$here/vm/kernel.sh"
kver=${MODDIR##*/}
kdir=$(headers_for "$kver") || { echo "no headers for $kver" >&2; exit 1; }
out=${RANDSTAT_OUT:-$repo/tests/out/planted}
kodir=$out/ko
rm -rf "$kodir"
mkdir -p "$kodir"
for p in "$here"/debug/rearm-*.patch; do
	name=$(basename "$p" .patch)
	src=$out/build-$name
	rm -rf "$src"
	mkdir -p "$src"
	tar -C "$repo" -cf - --exclude='*.o' --exclude='*.ko' --exclude='*.mod' \
		--exclude='*.mod.c' --exclude='*.cmd' --exclude='*.order' \
		--exclude=Module.symvers Kbuild module include | tar -C "$src" -xf -
	patch -s -d "$src" -p1 <"$p" || { echo "$p does not apply" >&2; exit 1; }
	make -s -C "$kdir" M="$src" modules >"$src/build.log" 2>&1 ||
		{ echo "building $name failed (see $src/build.log)" >&2; exit 1; }
	cp "$src/module/randstat.ko" "$kodir/$name.ko"
	sed -n '1s/^expect: //p' "$p" >"$kodir/$name.expect"
done
RANDSTAT_OUT=$out RANDSTAT_EXTRA_KO_DIR=$kodir VM_SUITES=rearm bash "$here/vm/run.sh"
