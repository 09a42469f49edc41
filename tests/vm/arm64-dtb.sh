#!/bin/bash
# The arm64 guest's device tree with an idle state that stops the local
# timer: QEMU virt's own tree (dumpdtb, for the same machine, CPUs and
# memory) with
#   - "always-on" taken off the architected timer: its clockevent gets
#     CLOCK_EVT_FEAT_C3STOP, as on machines whose timer stops in deep
#     idle, so the kernel needs a broadcast device (on arm64 without a
#     global timer, the hrtimer broadcast: one CPU keeps its timer and
#     wakes the others with IPIs);
#   - a PSCI idle state with "local-timer-stop" (CPUIDLE_FLAG_TIMER_STOP)
#     for every CPU, which Debian's psci_idle driver (ARM_PSCI_CPUIDLE=y)
#     registers: cpuidle enters it between tick_broadcast_enter() and
#     tick_broadcast_exit().  Its PSCI parameter is a standby state
#     (power_state 0): QEMU's PSCI runs CPU_SUSPEND as WFI and returns,
#     which a retention state expects (a power-down state would be taken
#     as a failed suspend, -EOPNOTSUPP, each time).
#
#   bash tests/vm/arm64-dtb.sh OUT.dtb QEMU-OPTION...
#
# QEMU-OPTION...: boot.sh's machine, CPU and memory options, the
# -machine one first.  Needs dtc (device-tree-compiler).
set -euo pipefail

out=${1:?usage: arm64-dtb.sh OUT.dtb -machine virt ...}
shift
command -v dtc >/dev/null || { echo "arm64-dtb: dtc missing: apt-get install device-tree-compiler" >&2; exit 1; }
if [ "${1:-}" != -machine ] || [ -z "${2:-}" ]; then
	echo "arm64-dtb: the -machine option first" >&2
	exit 1
fi
machine=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
qemu-system-aarch64 -machine "$machine,dumpdtb=$tmp/virt.dtb" "$@" -nographic >"$tmp/qemu.log" 2>&1 ||
	{ echo "arm64-dtb: qemu-system-aarch64 dumpdtb failed:" >&2; cat "$tmp/qemu.log" >&2; exit 1; }
dtc -q -I dtb -O dts -o "$tmp/virt.dts" "$tmp/virt.dtb"
awk '
	# the timer node: no "always-on"
	/^\ttimer \{/ { intimer = 1 }
	intimer && /^\t\};/ { intimer = 0 }
	intimer && /^\t\talways-on;/ { dropped++; next }
	# the idle state, before the cpus node'"'"'s first subnode (after its
	# properties)
	/^\tcpus \{/ { incpus = 1 }
	incpus && !states && /^\t\t[a-z@0-9-]+ \{/ {
		print "\t\tidle-states {"
		print "\t\t\tentry-method = \"psci\";"
		print ""
		print "\t\t\tcpu_retention: cpu-retention {"
		print "\t\t\t\tcompatible = \"arm,idle-state\";"
		print "\t\t\t\tlocal-timer-stop;"
		print "\t\t\t\tarm,psci-suspend-param = <0x0>;"
		print "\t\t\t\tentry-latency-us = <20>;"
		print "\t\t\t\texit-latency-us = <40>;"
		print "\t\t\t\tmin-residency-us = <100>;"
		print "\t\t\t};"
		print "\t\t};"
		print ""
		states = 1
	}
	# every CPU uses it
	incpus && /^\t\tcpu@[0-9a-f]+ \{/ { print; print "\t\t\tcpu-idle-states = <&cpu_retention>;"; cpus++; next }
	{ print }
	END {
		if (dropped != 1 || !states || !cpus) {
			printf "arm64-dtb: the tree is not as expected (always-on %d, idle-states %d, cpus %d)\n", \
				dropped, states, cpus > "/dev/stderr"
			exit 1
		}
	}' "$tmp/virt.dts" >"$tmp/stop.dts"
dtc -q -I dts -O dtb -o "$out.tmp" "$tmp/stop.dts"
mv "$out.tmp" "$out"
