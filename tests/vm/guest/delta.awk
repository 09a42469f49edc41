# delta.awk BEFORE AFTER: the change between two tests/progs/snap outputs,
# one "key value" per line:
#   ns.cpuN.CLASS, n.cpuN.CLASS      randstat ns and sample counts
#   x.cpuN.CLASS                     randstat's exact ns (format 3 on)
#   sampler.cpuN.FIELD               elapsed_ns sampled_ns samples overruns
#                                    dormancies cost_ns late_ns (cost_max_ns,
#                                    late_max_ns too)
#   late.cpuN.bK                     callbacks in lateness bucket K (from
#                                    /proc/randstat_hist, format 4)
#                                    (randstat_hist_bucket(): K >= 1
#                                    starts at 2^(K+5) ns)
#   stat.cpuN.CLASS                  /proc/stat, USER_HZ ticks
#   wall                             CLOCK_MONOTONIC ns between the snaps
# and, as of AFTER (not deltas): law (0 exponential, 1 uniform), floor
# mean tmin tmax user_hz ncpu online.cpuN, exact.cpuN (1: mode exact),
# dormant.cpuN, and online0.cpuN (as of BEFORE).  A key missing from either side (a CPU that was offline) is
# left out.
BEGIN {
	split("user nice system idle iowait irq softirq steal guest guest_nice", cls)
}
FNR == 1 { side++ }
function put(k, v) { if (side == 1) a[k] = v; else b[k] = v }
$1 == "mono_ns" { put("wall", $2) }
$1 == "rs" && $2 == "randstat" && side == 2 {
	for (i = 4; i < NF; i += 2) hdr[$i] = $(i + 1)
}
$1 == "rs" && ($2 == "ns" || $2 == "samples" || $2 == "exact") {
	for (i = 1; i <= 10; i++)
		put(($2 == "ns" ? "ns." : $2 == "exact" ? "x." : "n.") $3 "." cls[i], $(i + 3))
}
$1 == "rs" && $2 == "sampler" {
	for (i = 4; i < NF; i += 2) {
		if ($i == "online") {
			if (side == 2) online[$3] = $(i + 1)
			else online0[$3] = $(i + 1)
		} else if ($i == "mode" || $i == "dormant") {
			if (side == 2) state[$i "." $3] = ($(i + 1) == "exact" || $(i + 1) == 1)
		} else
			put("sampler." $3 "." $i, $(i + 1))
	}
	if (side == 2) ncpu++
}
$1 == "rs" && $2 == "late_hist" {
	for (i = 4; i <= NF; i++)
		put("late." $3 ".b" (i - 4), $i)
}
$1 == "stat" && $2 ~ /^cpu/ {
	for (i = 1; i <= 10; i++)
		put("stat." $2 "." cls[i], $(i + 2))
}
END {
	for (k in b)
		if (k in a)
			printf "%s %.0f\n", k, b[k] - a[k]
	printf "law %d\nfloor %d\nmean %d\ntmin %d\ntmax %d\nuser_hz %d\nncpu %d\n",
		hdr["law"] == "uniform", hdr["floor_ns"], hdr["mean_ns"], hdr["tmin_ns"],
		hdr["tmax_ns"], hdr["user_hz"] ? hdr["user_hz"] : 100, ncpu
	for (c in online) printf "online.%s %d\n", c, online[c]
	for (c in online0) printf "online0.%s %d\n", c, online0[c]
	for (k in state) printf "%s %d\n", (k ~ /^mode/ ? "exact" substr(k, 5) : k), state[k]
}
