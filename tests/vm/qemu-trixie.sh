#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The QEMU that boots two CPUs under -icount: Debian 13 (trixie)'s
# qemu-system-x86 (QEMU 10), in a debootstrap chroot, for the faithful2
# suite (tests/vm/run.sh).  Bookworm's QEMU 7.2 hangs at "Booting SMP
# configuration" with -smp 2 under -icount shift=0,sleep=off; trixie's
# boots both CPUs, and a module-free user timer on cpu1 comes 2.4 us late
# while its process spins and 53.8 us on the wake-up path, as on the one-CPU
# guest (shared/emulator-probe/README.md).
#
#   bash tests/vm/qemu-trixie.sh [--refresh] [-h]
#
# Prints the chroot's directory (RANDSTAT_CACHE, default ~/.cache/randstat,
# /chroot-qemu-trixie), creating it the first time (about a minute;
# debootstrap and apt output in chroot-qemu-trixie.log) and refreshing its
# packages when a week old.  boot.sh runs /usr/bin/qemu-system-x86_64 in
# it (RANDSTAT_QEMU_ROOT).  debootstrap runs with its default mirror, so
# no host name is written here.  Needs root (debootstrap, chroot).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/chroot.sh
. "$here/../chroot.sh"

# cache, refresh, the lock (one run at a time), stamp; the chroot is
# trixie's, not bookworm's
chroot_script_start qemu-trixie "${BASH_SOURCE[0]}" "$@"
release=trixie
root=$cache/chroot-qemu-trixie
# shellcheck disable=SC2034 # chroot_ensure's
packages=(qemu-system-x86)
qemu_say() { echo "# qemu-trixie: $*" >&2; }
chroot_say=qemu_say chroot_ensure "$release" "$root" "$root.log" "$stamp" || {
	echo "qemu-trixie.sh: debootstrap of trixie with qemu-system-x86 failed (see $root.log)" >&2
	exit 1
}
chroot "$root" /usr/bin/qemu-system-x86_64 --version >&2 || {
	echo "qemu-trixie.sh: $root/usr/bin/qemu-system-x86_64 does not run (see $root.log)" >&2
	exit 1
}
echo "$root"
