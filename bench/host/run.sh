#!/bin/bash
# The cost of randstat's pure per-sample path on this machine's CPU
# (hostbench.c): ns per call timed in a loop, instructions per call counted
# by callgrind, and by perf stat where the CPU's counters are available.
# Run by bench/run.sh (make bench), or alone:
#
#   bash bench/host/run.sh OUTDIR [--short]
#
# writes OUTDIR/hostcost.csv and OUTDIR/hostcost.md.  --short: fewer
# repetitions, no callgrind (a few seconds).  Env: HOSTBENCH_N (calls per
# repetition), HOSTBENCH_REPS, HOSTBENCH_COLD (calls timed one by one).
# Figures only, no assertion: the host build's correctness is
# `make -C bench/host check`.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: run.sh OUTDIR [--short]}
short=0
[ "${2:-}" = --short ] && short=1
die() { echo "hostbench: $*" >&2; exit 1; }

make -s -C "$here" >&2 || die "building bench/host failed"
bin=$here/build/hostbench
mkdir -p "$out" || die "cannot create $out"

# Warm: REPS repetitions of N calls in a loop, the fastest and the median
# (the machine may be shared: the fastest is the least disturbed).  Cold:
# COLD calls, each alone after L1 and L2 were evicted.
if [ "$short" = 1 ]; then
	n=${HOSTBENCH_N:-20000} reps=${HOSTBENCH_REPS:-21} cold=${HOSTBENCH_COLD:-1000}
else
	n=${HOSTBENCH_N:-20000} reps=${HOSTBENCH_REPS:-201} cold=${HOSTBENCH_COLD:-10000}
fi
# callgrind: instruction counts per call are exact and repeat run to run.
cg_n=100000
modes="path-exp path-uni classify draw-exp draw-uni rng charge read empty"

# perf stat counts instructions and cycles only where the PMU is there
# (not in most VMs: "<not supported>").
perf_ok=0
if command -v perf >/dev/null &&
   perf stat -x, -e instructions true 2>&1 >/dev/null | grep -q '^[0-9]'; then
	perf_ok=1
fi
perf_count() { # MODE N EVENT: the event's count over `once MODE N`
	perf stat -x, -e "$3" "$bin" once "$1" "$2" 2>&1 >/dev/null |
		awk -F, -v e="$3" '$3 ~ "^"e {print $1}'
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
csv=$out/hostcost.csv
echo "mode,calls,reps,ns_min,ns_median,cold_calls,cold_ns_mean,cold_ns_p90,instructions,perf_instructions,perf_cycles" >"$tmp/csv"
for m in $modes; do
	line=$("$bin" time "$m" "$n" "$reps") || die "hostbench time $m failed"
	ns_min=$(sed -n 's/.* min_ns=\([0-9.]*\).*/\1/p' <<<"$line")
	ns_med=$(sed -n 's/.* median_ns=\([0-9.]*\).*/\1/p' <<<"$line")
	line=$("$bin" cold "$m" "$cold") || die "hostbench cold $m failed"
	cold_mean=$(sed -n 's/.* mean_ns=\([-0-9.]*\).*/\1/p' <<<"$line")
	cold_p90=$(sed -n 's/.* p90_ns=\([-0-9.]*\).*/\1/p' <<<"$line")
	ins=
	if [ "$short" = 0 ] && command -v valgrind >/dev/null; then
		valgrind --tool=callgrind --callgrind-out-file="$tmp/$m.cg" \
			--toggle-collect=run "$bin" once "$m" "$cg_n" \
			>/dev/null 2>"$tmp/$m.err" || die "callgrind on $m failed: $(tail -n 3 "$tmp/$m.err")"
		ins=$(awk -v n="$cg_n" '/^summary:/ {printf "%.1f", $2 / n}' "$tmp/$m.cg")
	fi
	pins='' pcyc=''
	if [ "$perf_ok" = 1 ]; then
		# the difference of 2N and N calls: start-up cancels out
		for ev in instructions cycles; do
			a=$(perf_count "$m" "$n" "$ev") b=$(perf_count "$m" $((2 * n)) "$ev")
			v=$(awk -v a="$a" -v b="$b" -v n="$n" 'BEGIN {printf "%.1f", (b - a) / n}')
			if [ "$ev" = instructions ]; then pins=$v; else pcyc=$v; fi
		done
	fi
	echo "$m,$n,$reps,$ns_min,$ns_med,$cold,$cold_mean,$cold_p90,$ins,$pins,$pcyc" >>"$tmp/csv"
	echo "# hostbench: $m: $ns_min ns (median $ns_med), cold $cold_mean ns (p90 $cold_p90)${ins:+, $ins instructions}${pins:+, perf $pins instructions $pcyc cycles}" >&2
done
mv "$tmp/csv" "$csv"

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
fam=$(sed -n 's/^cpu family[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
mod=$(sed -n 's/^model[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
mhz=$(sed -n 's/^cpu MHz[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
virt="bare metal"
grep -qw hypervisor /proc/cpuinfo && virt="a virtual machine (hypervisor flag set)"
python3 - "$csv" "$out/hostcost.md" "$cpu" "$fam" "$mod" "$mhz" "$virt" "$perf_ok" <<'PY'
import csv, sys
src, dst, cpu, fam, mod, mhz, virt, perf_ok = sys.argv[1:]
rows = {r["mode"]: r for r in csv.DictReader(open(src))}
what = {
    "path-exp": "one sample, exponential law (the default): classify + draw + charge",
    "path-uni": "one sample, uniform law",
    "classify": "randstat_snapshot_fill + randstat_classify (+ idle_is_iowait)",
    "draw-exp": "randstat_draw_interval, exponential (floor 50 us, mean 4 ms)",
    "draw-uni": "randstat_draw_interval, uniform (2 ms to 6 ms)",
    "rng": "randstat_rng_u64 alone (ChaCha20 keystream, 4 blocks per 28 calls)",
    "charge": "randstat_charge + randstat_record_timing",
    "read": "a read's arithmetic per CPU: randstat_keep_shown of its times and exact times",
    "empty": "the loop and a call, nothing else (included in every row)",
}
with open(dst, "w") as f:
    r0 = next(iter(rows.values()))
    f.write("# randstat's pure per-sample path on this CPU (bench/host)\n\n")
    f.write(f"CPU: {cpu} (family {fam}, model {mod}, {float(mhz):.0f} MHz nominal), {virt}.  ")
    f.write(f"Warm: {r0['reps']} repetitions of {r0['calls']} calls each in a loop, "
            "ns per call of the fastest and of the median repetition.  "
            f"Cold: {r0['cold_calls']} calls, each timed alone (rdtscp) after 8 MiB were written "
            "to evict L1 and L2, the clock's own cost taken out: the mean of the middle 80% "
            "and the 90th percentile.  Instructions per call from callgrind (exact, repeatable).  ")
    f.write("perf stat: " + ("instructions and cycles per call from the CPU's counters." if perf_ok == "1"
            else "the CPU's counters are not available here (`perf stat -e instructions` says <not supported>).") + "\n\n")
    f.write("| mode | what | warm ns (fastest) | warm ns (median) | cold ns (mean) | cold ns (p90) "
            "| instructions | perf instructions | perf cycles |\n")
    f.write("|---|---|---|---|---|---|---|---|---|\n")
    for m, r in rows.items():
        f.write(f"| {m} | {what.get(m, '')} | {r['ns_min']} | {r['ns_median']} | {r['cold_ns_mean']} "
                f"| {r['cold_ns_p90']} | {r['instructions'] or '-'} "
                f"| {r['perf_instructions'] or '-'} | {r['perf_cycles'] or '-'} |\n")
PY
echo "# hostbench: results in $csv and $out/hostcost.md" >&2
