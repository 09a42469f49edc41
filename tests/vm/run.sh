#!/bin/bash
# The VM test suite: the real module in QEMU guests, printing one KTAP
# document; exits non-zero if a test failed or a guest did not finish.
#
#   bash tests/vm/run.sh            build, then boot the suites below
#   bash tests/vm/run.sh --smoke    the harness alone (no module)
#   SUITES="main" bash tests/vm/run.sh
#
# Boots (each ~10 s plus its workloads, TCG):
#   main      the ordinary guest, with a throttled virtio disk
#   nohzfull  booted with nohz_full=1: cpu1's /proc/stat is exact (vtime)
#
# Env: KERNEL=/path/vmlinuz-VER and MODDIR=/lib/modules/VER (either one
# gives the other; default the newest installed Debian amd64 kernel), KDIR (headers to build the
# module against; default the ones matching MODDIR), RANDSTAT_SECS
# (seconds per workload, default 3), RANDSTAT_VM_TIMEOUT (per boot, s),
# RANDSTAT_CACHE, RANDSTAT_OUT (logs; default tests/out/vm).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
export RANDSTAT_OUT=${RANDSTAT_OUT:-$repo/tests/out/vm}
out=$RANDSTAT_OUT

smoke=0
[ "${1:-}" = --smoke ] && smoke=1

# Guest kernel and its modules: either variable gives the other.
if [ -n "${KERNEL:-}" ] && [ -z "${MODDIR:-}" ]; then
	MODDIR=/lib/modules/${KERNEL##*/vmlinuz-}
elif [ -z "${KERNEL:-}" ]; then
	# The newest installed Debian kernel (linux-image-amd64 on a fresh
	# machine), not a version written here: the archive moves on.
	newest=$(ls /boot/vmlinuz-*-amd64 2>/dev/null | sed 's|.*/vmlinuz-||' |
		grep -Ev -- '-(rt|cloud)-amd64$' | sort -V | tail -n 1)
	MODDIR=${MODDIR:-/lib/modules/${newest:-none}}
	KERNEL=/boot/vmlinuz-${MODDIR##*/}
fi
export KERNEL MODDIR
kver=${MODDIR##*/}

die() { echo "vm: $*" >&2; exit 1; }
pkg_hint() { # FILE-OR-COMMAND PACKAGE
	[ -e "$1" ] || command -v "$1" >/dev/null || die "$1 missing: apt-get install $2"
}
pkg_hint qemu-system-x86_64 qemu-system-x86
pkg_hint /bin/busybox busybox-static
pkg_hint cpio cpio
pkg_hint gcc gcc
pkg_hint make make
pkg_hint "$(gcc -print-file-name=libc.a)" libc6-dev
[ -r "$KERNEL" ] || die "$KERNEL missing: apt-get install linux-image-amd64 (or set KERNEL)"
[ -d "$MODDIR" ] || die "$MODDIR missing: apt-get install linux-image-amd64 (or set MODDIR)"

mkdir -p "$out"
make -s -C "$repo/tests/progs" >&2 || die "building tests/progs failed"
make -s -C "$repo/userspace" randstat.static >&2 || die "building the reader failed"
if [ "$smoke" -eq 1 ]; then
	export RANDSTAT_KO=none
	suites=${SUITES:-smoke}
else
	kdir=${KDIR:-}
	if [ -z "$kdir" ]; then
		for d in "$MODDIR/build" "/usr/src/linux-headers-$kver"; do
			[ -f "$d/Makefile" ] && { kdir=$d; break; }
		done
	fi
	[ -n "$kdir" ] || die "no headers for $kver: apt-get install linux-headers-$kver (or set KDIR)"
	make -s -C "$repo" module KDIR="$kdir" >&2 || die "building the module failed"
	ko=$repo/module/randstat.ko
	vm=$(modinfo -F vermagic "$ko" 2>/dev/null || strings "$ko" | grep -m1 '^vermagic=')
	case $vm in
	*"$kver "*) ;;
	*) die "$ko is built for '${vm%% *}', not $kver" ;;
	esac
	suites=${SUITES:-main nohzfull}
fi

initrd=$out/initramfs-$kver.cpio.gz
bash "$here/initramfs.sh" "$initrd" >&2

# Each boot's KTAP is renumbered into one document, names prefixed by
# the suite; a guest that did not finish adds a failing test.
body=$out/ktap.body
: >"$body"
n=0
failed=0
for s in $suites; do
	extra=
	case $s in
	nohzfull) extra="nohz_full=1" ;;
	esac
	echo "# vm: booting $s ${extra:+($extra) }$(date +%T)" >&2
	start=$SECONDS
	finished=1
	bash "$here/boot.sh" "$s" "$s" "$initrd" "$extra" || finished=0
	echo "# vm: $s done in $((SECONDS - start)) s" >&2
	while IFS= read -r line; do
		case $line in
		"ok "*|"not ok "*)
			n=$((n + 1))
			rest=${line#ok }
			rest=${rest#not ok }
			rest=${rest#* }
			case $line in "not ok "*)
				failed=$((failed + 1))
				echo "not ok $n $s: $rest" ;;
			*)	echo "ok $n $s: $rest" ;;
			esac ;;
		"#"*)	echo "$line" ;;
		"KTAP version"*|[0-9]*..[0-9]*) ;;
		*)	echo "# $line" ;;
		esac
	done <"$out/$s.ktap" >>"$body"
	n=$((n + 1))
	if [ "$finished" -eq 1 ]; then
		echo "ok $n $s: guest ran to the end ($((SECONDS - start)) s)" >>"$body"
	else
		failed=$((failed + 1))
		{
			echo "# the guest stopped early; the end of its console ($out/$s.log):"
			tr -d '\r' <"$out/$s.log" | tail -n 25 | sed 's/^/#   /'
			echo "not ok $n $s: guest ran to the end"
		} >>"$body"
	fi
done

echo "KTAP version 1"
echo "1..$n"
cat "$body"
echo "# vm: $((n - failed)) passed, $failed failed" >&2
[ "$failed" -eq 0 ]
