#!/bin/bash
# The benchmark (make bench): the paper's failures of tick accounting, on
# Linux, against randstat; and randstat's cost.  Boots QEMU guests of the
# test suite (tests/vm/): an ordinary one and one with nohz_full=1, whose
# cpu1 /proc/stat is exact, each with idle=poll (judged) and in hlt
# (printed beside; the footprint).  Prints KTAP; exits non-zero if an
# assertion failed or a guest did not finish.
#
#   bash bench/run.sh            full: sweeps, cost, overhead, convergence,
#                                CSV + results.md + PNG plots in bench/results/,
#                                and the per-sample path's cost on this CPU
#                                (bench/host/run.sh: hostcost.csv, hostcost.md)
#   bash bench/run.sh --short    the asserted workloads only, a few seconds
#                                each (bench/results/short/)
#
# and a third boot in either mode: the interference experiment
# (bench/guest/interf.sh, Documentation/benchmark.rst) and randstat
# cgroup's cost per sample (cgcost.csv); then the cost of a
# read of /proc/randstat beside /proc/stat's, one boot per guest size
# (bench/readcost.sh: -smp READCOST_SMPS, default 2 8 32 64; full mode
# only).  Full mode also runs bench/pingpong.sh: pipe ping-pong with and
# without the module on the faithful clock (pingpong.csv, pingpong.md).
#
# Env: BENCH_AB (1: in --short mode too, the tickless=0 column and the
# guests in hlt; full mode has them); KERNEL / MODDIR / KDIR as for tests/vm/run.sh; BENCH_OUT (results
# directory); RANDSTAT_SECS (seconds per workload: 3 short, 5 full);
# RANDSTAT_INTERF_SECS (the interference run: 16 short, 60 full).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
mode=full
[ "${1:-}" = --short ] && mode=short
if [ "$mode" = short ]; then
	out=${BENCH_OUT:-$here/results/short}
	secs=${RANDSTAT_SECS:-3}
else
	out=${BENCH_OUT:-$here/results}
	secs=${RANDSTAT_SECS:-5}
fi
die() { echo "bench: $*" >&2; exit 1; }

# The guest kernel, as tests/vm/run.sh chooses it.
# shellcheck source=tests/vm/kernel.sh
. "$repo/tests/vm/kernel.sh"
kver=${MODDIR##*/}
[ -r "$KERNEL" ] || die "$KERNEL missing: $kernel_hint"
command -v python3 >/dev/null || die "python3 missing: apt-get install python3"
if ! command -v gnuplot >/dev/null && [ "$mode" = full ]; then
	if [ "$(id -u)" -eq 0 ]; then
		apt-get install -y -q gnuplot-nox >&2 || echo "bench: could not install gnuplot-nox: no plots" >&2
	else
		echo "bench: gnuplot missing (apt-get install gnuplot-nox): no plots" >&2
	fi
fi

kdir=$(headers_for "$kver") || die "no headers for $kver: apt-get install linux-headers-$kver (or set KDIR)"
make -s -C "$repo/tests/progs" >&2 || die "building tests/progs failed"
make -s -C "$here/progs" >&2 || die "building bench/progs failed"
make -s -C "$repo/userspace/cgroup" randstat-cgroup.static >&2 ||
	echo "bench: randstat-cgroup not built (tests/deps.sh): no cost per sample for it" >&2
make -s -C "$repo" module KDIR="$kdir" >&2 || die "building the module failed"

mkdir -p "$out/vm"
# The pure per-sample path on this machine's own CPU, not TCG's: built for
# user space from the module's sources (bench/host/run.sh); before any
# guest runs, so that none competes with it.  Figures only, no assertion.
ok_h=1 host_args=()
[ "$mode" = short ] && host_args=(--short)
bash "$here/host/run.sh" "$out" "${host_args[@]}" ||
	{ echo "bench: bench/host/run.sh failed: no host figures" >&2; ok_h=0; }
# Full mode measures the sampler's cost before and after the keystream,
# exponential law and count estimator in one boot: the module as of
# BENCH_BEFORE (default: the last commit before them) is built from git.
before=${BENCH_BEFORE:-ef31c5b}
if [ "$mode" = full ]; then
	rm -rf "$out/before" && mkdir -p "$out/before"
	if git -C "$repo" archive "$before" Kbuild module include 2>/dev/null |
		tar -C "$out/before" -xf - &&
	   make -s -C "$kdir" M="$out/before" modules >"$out/before/build.log" 2>&1; then
		export RANDSTAT_KO_OLD=$out/before/module/randstat.ko
	else
		echo "bench: could not build the module as of $before (see $out/before/build.log): no before-and-after cost" >&2
	fi
fi
export RANDSTAT_OUT=$out/vm RANDSTAT_SECS=$secs RANDSTAT_DISK_IOPS=0
# Single-threaded TCG: see tests/vm/boot.sh and Documentation/benchmark.rst.
export RANDSTAT_TCG_THREAD=${RANDSTAT_TCG_THREAD:-single}
initrd=$out/vm/initramfs-$kver.cpio.gz
bash "$repo/tests/vm/initramfs.sh" "$initrd" >&2
start=$SECONDS
ok_n=1 ok_z=1
# The judged guests idle with idle=poll: their timer interrupts come on
# time (under TCG one due right after a wakeup from hlt comes 0.2-1 ms
# late: Documentation/benchmark.rst).  Two more idle in hlt, as a
# system does by default: their accuracy figures are printed beside, and
# the footprint (which needs the tick stopped in idle) is theirs.
# In --short mode (part of make check) these and the tickless=0 column
# are left out unless BENCH_AB=1.
ab=${BENCH_AB:-$([ "$mode" = full ] && echo 1 || echo 0)}
echo "# bench: booting the normal guest, idle=poll ($mode, ${secs}s a workload) $(date +%T)" >&2
bash "$repo/tests/vm/boot.sh" bench_normal bench "$initrd" "idle=poll bench_mode=$mode bench_ab=$ab" || ok_n=0
echo "# bench: booting the nohz_full=1 guest, idle=poll $(date +%T)" >&2
bash "$repo/tests/vm/boot.sh" bench_nohz bench "$initrd" "nohz_full=1 idle=poll bench_mode=$mode bench_ab=$ab" || ok_z=0
if [ "$ab" = 1 ]; then
	echo "# bench: booting the normal and nohz_full=1 guests in hlt $(date +%T)" >&2
	ok_hn=1 ok_hz=1
	bash "$repo/tests/vm/boot.sh" bench_normal_hlt bench "$initrd" "bench_mode=$mode bench_hlt=1" || ok_hn=0
	bash "$repo/tests/vm/boot.sh" bench_nohz_hlt bench "$initrd" "nohz_full=1 bench_mode=$mode bench_hlt=1" || ok_hz=0
	export BENCH_HLT="$out/vm/bench_normal_hlt.ktap $out/vm/bench_nohz_hlt.ktap $ok_hn $ok_hz"
fi
# The interference experiment (bench/guest/interf.sh): its own boot, a
# user-only program on cpu1 and a UDP flood whose NET_RX work RPS moves
# to cpu1 every other second; RANDSTAT_INTERF_SECS (16 short, 60 full).
isecs=${RANDSTAT_INTERF_SECS:-$([ "$mode" = short ] && echo 16 || echo 60)}
ok_i=1
echo "# bench: booting the interference guest (${isecs}s) $(date +%T)" >&2
t_i=$SECONDS
# It ends with randstat cgroup's cost per sample: pairs of runs without
# and with its BPF program (2 pairs of 2 s short, 10 of 3 s full).
cgp=$([ "$mode" = short ] && echo "interf_cg_pairs=2 interf_cg_secs=2" || echo "interf_cg_pairs=10 interf_cg_secs=3")
bash "$repo/tests/vm/boot.sh" bench_interf interf "$initrd" "interf_secs=$isecs $cgp" || ok_i=0
echo "# bench: interference guest done in $((SECONDS - t_i)) s (the lock's wait included)" >&2
# The cost of a read, by guest size (bench/readcost.sh): full mode only
# (the 32- and 64-vCPU boots take 4-5 minutes each).
rc_runs=()
if [ "$mode" = full ]; then
	bash "$here/readcost.sh" "$out" "$initrd" --boot-only
	read -r -a rc_runs <"$out/vm/readcost.runs"
fi
# The scheduler's hot path: pipe ping-pong with and without the module,
# same-CPU and cross-CPU, on the faithful clock (bench/pingpong.sh): full
# mode only (about 10 minutes).
if [ "$mode" = full ]; then
	bash "$here/pingpong.sh" "$out" || echo "bench: bench/pingpong.sh failed" >&2
fi
echo "# bench: guests done in $((SECONDS - start)) s" >&2

status=0
python3 "$here/analyze.py" "$out" "$out/vm/bench_normal.ktap" "$out/vm/bench_nohz.ktap" \
	"$ok_n" "$ok_z" "$mode" "$out/vm/bench_interf.ktap" "$ok_i" \
	${rc_runs[@]+"${rc_runs[@]}"} || status=$?
if [ "$mode" = full ] && command -v gnuplot >/dev/null; then
	(cd "$out" && gnuplot "$here/plots.gp") || echo "bench: gnuplot failed" >&2
fi
echo "# bench: results in $out ($((SECONDS - start)) s)" >&2
[ "$ok_h" = 1 ] || status=1
exit "$status"
