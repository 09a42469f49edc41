#!/bin/bash
# What randstat costs the scheduler's hot path: pipe ping-pong throughput
# with and without the module (bench/guest/pingpong.sh), in the normal and
# the nohz_full=1 guest, both idling in hlt as a system does by default (so
# that CPUs go dormant and the probes have work), cross-CPU (an idle entry
# and exit per round trip on both CPUs) and same-CPU (a context switch per
# hop).  Run by bench/run.sh (make bench) in full mode, or alone:
#
#   bash bench/pingpong.sh [OUTDIR]
#
# writes OUTDIR/pingpong.csv (one row per run) and OUTDIR/pingpong.md.
# Each round runs every configuration once in a turning order; a round's
# ratio is with/without in that round, and the table gives the mean of
# the rounds' ratios and its standard error (sd / sqrt(rounds)).
#
# The guests run on a faithful clock, two CPUs under -icount
# shift=0,sleep=off with trixie's QEMU 10 (tests/vm/qemu-trixie.sh): one
# nanosecond per guest instruction, and a halted CPU's wait skipped, so a
# round trip's time is the instructions both CPUs spent on it, and rounds
# repeat to a few round trips a second.  Plain TCG (PINGPONG_CLOCK=tcg)
# gave 0.82-0.87 on two CPUs for every configuration that takes samples,
# the probes doing their work or not, and 0.97 for a build that never
# resumed a CPU (no samples at all), with 3-6 points of noise a round:
# there a timer interrupt's price is the emulator's, not randstat's.
# Figures only, no assertion.  Env: PINGPONG_ROUNDS (default 4 on icount,
# 20 on TCG), PINGPONG_SECS (seconds a run, default 1), PINGPONG_CLOCK
# (icount or tcg), PINGPONG_GUESTS (default "normal nohz"),
# PINGPONG_CONFIGS (the guest's list, comma-separated; see
# bench/guest/pingpong.sh); KERNEL / MODDIR / KDIR as for tests/vm/run.sh.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
out=${1:-$here/results}
clock=${PINGPONG_CLOCK:-icount}
case $clock in
icount) rounds=${PINGPONG_ROUNDS:-4} ;;
tcg) rounds=${PINGPONG_ROUNDS:-20} ;;
*) echo "pingpong: PINGPONG_CLOCK=$clock: icount or tcg" >&2; exit 1 ;;
esac
psecs=${PINGPONG_SECS:-1}
die() { echo "pingpong: $*" >&2; exit 1; }

# shellcheck source=tests/vm/kernel.sh
. "$repo/tests/vm/kernel.sh"
kver=${MODDIR##*/}
[ -r "$KERNEL" ] || die "$KERNEL missing: $kernel_hint"
kdir=$(headers_for "$kver") || die "no headers for $kver: apt-get install linux-headers-$kver (or set KDIR)"
make -s -C "$repo/tests/progs" >&2 || die "building tests/progs failed"
make -s -C "$repo" module KDIR="$kdir" >&2 || die "building the module failed"

mkdir -p "$out/vm"
export RANDSTAT_OUT=$out/vm RANDSTAT_DISK_IOPS=0 RANDSTAT_SMP=2
# Single-threaded TCG, as the rest of make bench (tests/vm/boot.sh); the
# icount guests' virtual seconds take about 3 of the host's.
export RANDSTAT_TCG_THREAD=${RANDSTAT_TCG_THREAD:-single}
export RANDSTAT_VM_TIMEOUT=${RANDSTAT_VM_TIMEOUT:-$((rounds * psecs * 60 + 300))}
if [ "$clock" = icount ]; then
	qroot=$(bash "$repo/tests/vm/qemu-trixie.sh") ||
		die "no QEMU for two CPUs under icount (tests/vm/qemu-trixie.sh)"
	export RANDSTAT_QEMU_ROOT=$qroot RANDSTAT_QEMU_OPTS="-icount shift=0,sleep=off"
fi
initrd=$out/vm/initramfs-pingpong-$kver.cpio.gz
bash "$repo/tests/vm/initramfs.sh" "$initrd" >&2
args="pingpong_rounds=$rounds pingpong_secs=$psecs${PINGPONG_CONFIGS:+ pingpong_configs=$PINGPONG_CONFIGS}"
guests=${PINGPONG_GUESTS:-normal nohz}
status=0
for g in $guests; do
	extra=$args
	[ "$g" = nohz ] && extra="nohz_full=1 $args"
	echo "# pingpong: the $g guest ($clock), $rounds rounds of ${psecs}s $(date +%T)" >&2
	bash "$repo/tests/vm/boot.sh" "pingpong_$g" pingpong "$initrd" "$extra" ||
		{ echo "pingpong: the $g guest did not finish" >&2; status=1; }
done

{
	echo "guest,config,round,workload,trips_per_s"
	for g in $guests; do
		awk -v g="$g" '$1 == "Q" { print g "," $2 "," $3 "," $4 "," $5 }' \
			"$out/vm/pingpong_$g.ktap"
	done
} >"$out/pingpong.csv"

python3 - "$out/pingpong.csv" "$out/pingpong.md" "$rounds" "$psecs" "$clock" <<'EOF' || status=1
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
runs = {}
for r in rows:
    runs[(r["guest"], r["workload"], r["config"], int(r["round"]))] = float(r["trips_per_s"])
clock = {"icount": "two CPUs under -icount shift=0,sleep=off (trixie's QEMU 10: "
               "a faithful clock, one ns per instruction)",
         "tcg": "two CPUs under plain TCG"}[sys.argv[5]]
md = ["# Pipe ping-pong with and without randstat (bench/pingpong.sh)", "",
      f"Guests idling in hlt, {clock}, {sys.argv[3]} rounds of {sys.argv[4]} s, every "
      "configuration once a round in a turning order.  *cross*: the two ends "
      "on cpu0 and cpu1 (an idle entry and exit per round trip on each); "
      "*same*: both on cpu1 (a context switch per hop).  Round trips per "
      "second (means); the ratio is the mean of the rounds' with/without "
      "ratios, ± its standard error.", "",
      "| guest | workload | randstat | without | with | ratio (± s.e.) | rounds |",
      "|---|---|---|---|---|---|---|"]
ok = True
for g in ("normal", "nohz"):
    for w in ("cross", "same"):
        for c in sorted({k[2] for k in runs if k[2] != "none"}):
            q, a, b = [], [], []
            for (gg, ww, cc, rr), v in sorted(runs.items()):
                if (gg, ww, cc) != (g, w, c):
                    continue
                base = runs.get((g, w, "none", rr))
                if not base:
                    continue
                q.append(v / base); a.append(base); b.append(v)
            if len(q) < 2:
                continue
            m = sum(q) / len(q)
            sd = math.sqrt(sum((x - m) ** 2 for x in q) / (len(q) - 1))
            se = sd / math.sqrt(len(q))
            md.append(f"| {g} | {w} | {c} | {sum(a)/len(a):.0f} | {sum(b)/len(b):.0f} "
                      f"| {m:.4f} ± {se:.4f} | {len(q)} |")
            print(f"# pingpong: {g} {w} {c}: {m:.4f} +- {se:.4f} ({len(q)} rounds)", file=sys.stderr)
open(sys.argv[2], "w").write("\n".join(md) + "\n")
EOF
echo "# pingpong: results in $out/pingpong.csv and $out/pingpong.md" >&2
exit "$status"
