#!/bin/bash
# make demo: from a fresh Debian machine to a result in one command.
#
# Installs what it needs from Debian's packages (as root), builds the
# module and the reader, boots Debian's kernel in QEMU with both inside,
# and shows randstat beside /proc/stat for an idle CPU, a steady spin and
# a job of 2 ms every 8 ms that the tick never sees, then Debian's top
# on that job plain and under `randstat exec` (randstat-fs).  Exits 0 only
# if the demonstration came out as it should.
#
#   make demo                 the demonstration (about a minute and a
#                             half once the packages are there: 82-88 s
#                             on 2 cores, the build included)
#   make demo INTERACTIVE=1   then a shell in the guest, module loaded
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
say() { printf '\n== %s\n' "$*" >&2; }

# What it will do to this machine, before it does it.
missing=$(bash tests/deps.sh --missing demo)
cache=${RANDSTAT_CACHE:-$HOME/.cache/randstat}
{
	echo "make demo will:"
	if [ -n "$missing" ]; then
		echo "  - install $(wc -w <<<"$missing") Debian packages with apt-get (as root; a few minutes"
		echo "    the first time): $missing" | fold -s -w 76 | sed '2,$s/^/      /'
	else
		echo "  - install no package: the ones it needs are installed"
	fi
	echo "  - unpack Debian's kernel image into $cache/unpacked"
	echo "    (apt-get download and dpkg-deb -x: no boot entry, nothing in /boot)"
	echo "  - build the module and the tools in $repo"
	echo "  - boot that kernel in QEMU, an ordinary process (no KVM needed), and show"
	echo "    its results: about a minute once the packages are there"
	echo "  It starts no service and leaves nothing running."
} >&2
if [ -n "$missing" ] && [ -t 0 ] && [ "$(id -u)" -eq 0 ]; then
	read -r -p "Go on? [Y/n] " answer
	case $answer in [nN]*) echo "Nothing done." >&2; exit 1 ;; esac
fi

say "Checking Debian packages (kernel, headers, qemu, busybox)"
bash tests/deps.sh demo

say "Building the module, the reader and the workloads"
make -s -C bench/progs >&2

say "Booting Debian's kernel under QEMU (software emulation: ~15 s to boot)"
export RANDSTAT_LIVE=1 RANDSTAT_DISK_IOPS=0 RANDSTAT_SECS=4
export RANDSTAT_INTERACTIVE=${INTERACTIVE:-0}
mkdir -p tests/out
if VM_SUITES=demo bash tests/vm/run.sh >tests/out/demo.ktap; then
	say "Done: the tick missed a job that randstat measured (details: Documentation/randstat.rst)"
else
	status=$?
	say "The demonstration did not come out as it should; the console log is in tests/out/vm/demo.log"
	exit "$status"
fi
