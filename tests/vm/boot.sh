#!/bin/bash
# Boot one test guest and pull out the KTAP it printed.
#
#   bash tests/vm/boot.sh NAME SUITE INITRD [EXTRA_CMDLINE]
#
# Runs /tests/SUITE.sh in the guest (see guest/init) with a hard timeout,
# the serial console going to $RANDSTAT_OUT/NAME.log; the lines between
# RANDSTAT-KTAP-BEGIN and RANDSTAT-KTAP-END go to $RANDSTAT_OUT/NAME.ktap.
# Exits 0 if the guest got to the end marker, 1 if not (crash, hang,
# timeout: the .ktap then holds what the guest printed before that).
#
# Env: KERNEL (the guest kernel; run.sh sets it), RANDSTAT_OUT
# (default tests/out/vm), RANDSTAT_SECS (seconds per workload, default 3),
# RANDSTAT_VM_TIMEOUT (seconds, default 900), RANDSTAT_VM_STALL (seconds
# without output before /init after which the boot is taken as hung and
# run again, once: default 120, tests/vm/watch.sh), RANDSTAT_DISK_IOPS (the
# virtio disk's IOPS limit, default 100; 0: no disk), RANDSTAT_SMP (QEMU's
# -smp, default 2), RANDSTAT_QEMU_OPTS (more QEMU options, split at
# spaces: the faithful suite's "-icount shift=0,sleep=off"),
# RANDSTAT_KEEP_DISK (1: leave the disk's image,
# $RANDSTAT_OUT/NAME.disk.img, for the host to read what the guest wrote
# there: the prof suite), RANDSTAT_QEMU_ROOT (a chroot whose
# /usr/bin/qemu-system-x86_64 boots the guest instead of the host's: the
# faithful2 suite's trixie QEMU 10, tests/vm/qemu-trixie.sh),
# RANDSTAT_MEM (QEMU's -m, default 1G), RANDSTAT_ARCH (amd64, the
# default, or arm64: Debian's arm64 kernel under qemu-system-aarch64
# -M virt -cpu cortex-a72, console ttyAMA0),
# RANDSTAT_TIMER_STOP (arm64, 1: the device tree of tests/vm/arm64-dtb.sh,
# an idle state that stops the local timer, and the broadcast timer).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
name=${1:?usage: boot.sh NAME SUITE INITRD [EXTRA_CMDLINE]}
suite=${2:?}
initrd=${3:?}
extra=${4:-}
kernel=${KERNEL:?set KERNEL to the guest kernel; tests/vm/run.sh does}
out=${RANDSTAT_OUT:-$repo/tests/out/vm}
secs=${RANDSTAT_SECS:-3}
limit=${RANDSTAT_VM_TIMEOUT:-900}
iops=${RANDSTAT_DISK_IOPS:-100}

arch=${RANDSTAT_ARCH:-amd64}
case $arch in
amd64)	qemu_bin=qemu-system-x86_64 qemu_pkg=qemu-system-x86 ;;
arm64)	qemu_bin=qemu-system-aarch64 qemu_pkg=qemu-system-arm ;;
*)	echo "boot: RANDSTAT_ARCH=$arch: amd64 or arm64" >&2; exit 1 ;;
esac
qroot=${RANDSTAT_QEMU_ROOT:-}
if [ -n "$qroot" ] && [ "$arch" != amd64 ]; then
	echo "boot: RANDSTAT_QEMU_ROOT boots amd64 guests only" >&2
	exit 1
elif [ -n "$qroot" ]; then
	[ -x "$qroot/usr/bin/qemu-system-x86_64" ] || {
		echo "boot: $qroot/usr/bin/qemu-system-x86_64 missing: bash tests/vm/qemu-trixie.sh makes it" >&2
		exit 1
	}
else
	command -v "$qemu_bin" >/dev/null || {
		echo "boot: $qemu_bin missing: apt-get install $qemu_pkg" >&2
		exit 1
	}
fi
[ -r "$kernel" ] || {
	echo "boot: $kernel missing: bash tests/deps.sh unpacks the guest kernel (or set KERNEL)" >&2
	exit 1
}
mkdir -p "$out"
log=$out/$name.log
ktap=$out/$name.ktap

disk=()
if [ "$iops" -gt 0 ]; then
	# A scratch disk for the iowait workload, throttled so that each
	# synchronous write waits ~1/iops s: the CPU sits in iowait.
	img=$out/$name.disk.img
	rm -f "$img"
	truncate -s 64M "$img"
	disk=(-drive "file=$img,if=virtio,format=raw,throttling.iops-total=$iops")
fi

# One guest at a time on this machine: two TCG guests on 2 cores would
# delay each other's timer interrupts and skew every timing result (the
# attack's control 11.5 points off vtime with the debug guest beside it;
# testing.rst).  A guest whose clock is its instruction count (-icount)
# keeps its time whatever runs beside it, so such guests share the lock
# with each other (make check's two icount lanes), and a plain TCG guest
# waits for all of them to end, and they for it.  The gate comes first
# and is held only until the lock is taken: a plain guest waiting for
# the lock holds it, so icount guests that keep taking turns cannot
# starve it.
lockdir=${RANDSTAT_CACHE:-$HOME/.cache/randstat}
mkdir -p "$lockdir"
exec 8>"$lockdir/vm.gate" 9>"$lockdir/vm.lock"
flock 8
case " ${RANDSTAT_QEMU_OPTS:-} " in
*" -icount "*) flock -s 9 ;;
*) flock 9 ;;
esac
exec 8>&-

# pvh_kernel BZIMAGE: the kernel QEMU is to boot.  Debian's amd64
# bzImage holds vmlinux compressed with xz, and its decompressor takes
# 3.3 s of TCG at every boot (of 6.8 s to /init, measured).  That vmlinux,
# unpacked once into the cache, boots by its PVH entry (CONFIG_PVH: an
# ELF note QEMU's -kernel looks for): the same kernel, the same command
# line and initramfs, without the decompressor and the KASLR offset it
# would pick.  A bzImage with no xz payload or no PVH note (the debug
# kernel's) is booted as it is.
pvh_kernel() {
	local bz=$1 sum dir off tmp
	if ! command -v xz >/dev/null || ! command -v readelf >/dev/null; then
		echo "$bz"
		return 0
	fi
	sum=$(cksum <"$bz" | cut -d' ' -f1)
	dir=$lockdir/pvh
	# A name of this process's own, then one rename: icount guests boot
	# side by side, and two may unpack the same kernel at once.
	tmp=$dir/vmlinux-$sum.tmp$$
	if [ ! -s "$dir/vmlinux-$sum" ]; then
		mkdir -p "$dir"
		off=$(LC_ALL=C grep -abo -m 1 $'\xfd7zXZ' "$bz" | awk -F: 'NR == 1 { print $1 }')
		if [ -z "$off" ] ||
		   ! { tail -c +"$((off + 1))" "$bz" || true; } |
			xz -dc --single-stream >"$tmp" 2>/dev/null ||
		   ! readelf -n "$tmp" 2>/dev/null |
			awk '/note type: \(0x00000012\)/ { f = 1 } END { exit !f }'; then
			rm -f "$tmp"
			echo "$bz"
			return 0
		fi
		mv "$tmp" "$dir/vmlinux-$sum"
	fi
	echo "$dir/vmlinux-$sum"
}
[ "$arch" = amd64 ] && kernel=$(pvh_kernel "$kernel")

# amd64: TCG (no KVM here), -cpu max,+invtsc with tsc=reliable
# clocksource=tsc: otherwise every clock read traps to an emulated HPET.
# arm64: the virt board, its GIC and the architected timer (the generic
# timer's virtual counter, read from user space without a trap);
# cortex-a72, as -cpu max's pointer authentication makes TCG 5-7 times
# slower (Documentation/testing.rst, "arm64").
if [ "$arch" = arm64 ]; then
	cmdline="console=ttyAMA0 panic=-1"
	# shellcheck disable=SC2054 # QEMU's commas
	machine=(-machine virt -cpu cortex-a72)
else
	cmdline="console=ttyS0 panic=-1 tsc=reliable clocksource=tsc"
	# shellcheck disable=SC2054 # QEMU's commas
	machine=(-machine pc -cpu max,+invtsc)
fi
cmdline+=" randstat_suite=$suite randstat_secs=$secs $extra"
[ "${RANDSTAT_INTERACTIVE:-0}" = 1 ] && cmdline+=" randstat_interactive=1"
# RANDSTAT_TCG_THREAD: multi (QEMU's default) or single.  The test suite
# runs multi-threaded TCG, which keeps timer interrupts timely when the
# host is busy (single-threaded, one host thread runs both vCPUs, and a
# busy host put an idle guest's sampler 22 ms late).  The benchmark runs
# single: under multi-threaded TCG a timer interrupt due while a vCPU runs
# user code after waking from idle can wait until that code enters the
# kernel (0.5-1.4 ms, traced in a nohz_full guest), which put a 2 ms /
# 8 ms job at 12.9% against an exact 22.3%; single-threaded, the same
# boot's three phases agreed within 1.7 points (Documentation/
# benchmark.rst).
# RANDSTAT_QEMU_OPTS: with "-icount shift=0,sleep=off" (the faithful
# suite) the guest's clock is its instruction count, one nanosecond per
# instruction, and it jumps to the next deadline when the vCPU halts: no
# timer comes late because the host is busy (bookworm's QEMU 7.2 boots
# one CPU so, and hangs with two at "Booting SMP configuration").
read -r -a qopts <<<"${RANDSTAT_QEMU_OPTS:-}"
qbin=("$qemu_bin")
stage=
if [ -n "$qroot" ]; then
	# The chroot's QEMU sees the kernel and the initramfs at the same
	# names inside it: linked (or copied) below its /run, removed after.
	# Its own binary by absolute path: a bare name could find a wrapper
	# of the same name (shared/emulator-probe/README.md).
	stage=/run/randstat-boot-$name
	rm -rf "${qroot:?}$stage"
	mkdir -p "$qroot$stage"
	for f in "$kernel" "$initrd"; do
		ln -f "$f" "$qroot$stage/${f##*/}" 2>/dev/null ||
			cp "$f" "$qroot$stage/${f##*/}"
	done
	kernel=$stage/${kernel##*/}
	initrd=$stage/${initrd##*/}
	# The scratch disk too: moved in, and back out when QEMU is done.
	if [ -n "${img:-}" ]; then
		mv "$img" "$qroot$stage/disk.img"
		disk=(-drive "file=$stage/disk.img,if=virtio,format=raw,throttling.iops-total=$iops")
	fi
	qbin=(chroot "$qroot" /usr/bin/qemu-system-x86_64)
fi
# shellcheck disable=SC2054 # -cpu's commas are QEMU's
if [ "$arch" = arm64 ] && [ "${RANDSTAT_TIMER_STOP:-0}" = 1 ]; then
	bash "$here/arm64-dtb.sh" "$out/$name.dtb" "${machine[@]}" -smp "${RANDSTAT_SMP:-2}" -m "${RANDSTAT_MEM:-1G}" ||
		exit 1
	machine+=(-dtb "$out/$name.dtb")
fi
qemu=("${qbin[@]}" "${machine[@]}" -accel "tcg,thread=${RANDSTAT_TCG_THREAD:-multi}"
	-smp "${RANDSTAT_SMP:-2}" -m "${RANDSTAT_MEM:-1G}" -nographic -no-reboot
	${qopts[@]+"${qopts[@]}"}
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline"
	${disk[@]+"${disk[@]}"})
# unstage: the chroot's copy of the disk back to $img, the stage removed.
unstage() {
	[ -n "$stage" ] || return 0
	[ -n "${img:-}" ] && mv "$qroot$stage/disk.img" "$img"
	rm -rf "${qroot:?}$stage"
}
status=0
if [ "${RANDSTAT_INTERACTIVE:-0}" = 1 ]; then
	# The suite, then a shell in the guest on this terminal (make demo
	# INTERACTIVE=1): no time limit; Ctrl-A X leaves QEMU.
	"${qemu[@]}" || status=$?
	unstage
	[ -n "${img:-}" ] && [ "${RANDSTAT_KEEP_DISK:-0}" != 1 ] && rm -f "$img"
	exit "$status"
elif [ "${RANDSTAT_LIVE:-0}" = 1 ]; then
	# Show what the suite prints as it prints it (make demo).
	timeout --kill-after=10 "$limit" "${qemu[@]}" </dev/null 2>&1 |
		tee "$log" | tr -d '\r' | sed -u -n \
		'/^RANDSTAT-KTAP-BEGIN/,/^RANDSTAT-KTAP-END/{/^RANDSTAT-KTAP-\|^KTAP version\|^1\.\.[0-9]*$/!p}' >&2 ||
		status=$?
else
	# A boot that hangs before /init is killed after $stall s without
	# output and booted once more (watch.sh says why that hides nothing
	# of randstat's); its log is kept as NAME.hung.log.
	stall=${RANDSTAT_VM_STALL:-120}
	for try in 1 2; do
		status=0
		bash "$here/watch.sh" "$log" "$limit" "$stall" "${qemu[@]}" || status=$?
		[ "$status" -eq 125 ] || break
		echo "boot: $name: no output for ${stall}s before /init, try $try of 2 (see $out/$name.hung.log)" >&2
		cp "$log" "$out/$name.hung.log"
	done
fi
unstage
[ -n "${img:-}" ] && [ "${RANDSTAT_KEEP_DISK:-0}" != 1 ] && rm -f "$img"

# The KTAP, without the serial line's carriage returns.
tr -d '\r' <"$log" | sed -n '/^RANDSTAT-KTAP-BEGIN/,/^RANDSTAT-KTAP-END/p' |
	sed '1d;/^RANDSTAT-KTAP-END/d' >"$ktap"
if ! tr -d '\r' <"$log" | grep -q '^RANDSTAT-KTAP-END'; then
	if [ "$status" -eq 125 ]; then
		echo "boot: $name: hung before /init twice (see $log)" >&2
	elif [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
		echo "boot: $name: timed out after ${limit}s (see $log)" >&2
	else
		echo "boot: $name: guest stopped before the end, qemu status $status (see $log)" >&2
	fi
	exit 1
fi
exit 0
