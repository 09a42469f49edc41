# shellcheck shell=sh
# main: randstat in an ordinary guest (2 vCPUs, TCG, HZ=250, a virtio disk
# throttled to ~100 IOPS).  Every figure is a delta between two snapshots
# (tests/progs/snap) around one workload; workloads run pinned to cpu1,
# the harness stays on cpu0.
#
# Statistics.  A share p is estimated from the n samples a CPU took in the
# window; its standard error is sigma = sqrt(p(1-p)/n) (judge.awk: every
# sample weighs the same, estimator.c).  "At least P0" criteria fail only
# when the estimate is more than 4 sigma(P0) below P0 (a false failure
# ~3e-5).  Comparisons with a reference fail beyond 4 sigma plus the
# window's edge error (elapsed_ns grows in whole intervals: judge.awk's
# edge_ns(); /proc/stat truncates to 10 ms ticks).
#
# TCG makes kernel paths that run with interrupts off very long; an
# interrupt-driven sampler (randstat, like the kernel's tick) fires late,
# after them, and charges the sample to what runs next.  So for workloads
# that enter and leave the kernel thousands of times a second it
# under-counts system time.  Tests here compare randstat with the tick (the
# same bias) or with exact references; nohzfull.sh measures the bias
# against exact vtime.
# shellcheck source=tests/vm/guest/lib.sh
. /tests/lib.sh
ktap_begin 60

dmesg -c >/dev/null	# the dmesg test looks at what randstat causes

# --- loading -------------------------------------------------------------
load_randstat

# The format (Documentation/admin-guide.rst), line by line: /proc/randstat
# has /proc/stat's lines alone, /proc/randstat_detail the same and a block
# of four lines per possible CPU.
# layout DETAIL FILE: the lines of FILE as format 5 has them.
layout() {
	awk -v ncpu="$(grep -c ^processor /proc/cpuinfo)" -v detail="$1" '
	NR == 1 { ok = ($0 == "randstat 5 law exponential floor_ns 50000 mean_ns 4000000 tmin_ns 2000000 tmax_ns 6000000 user_hz 100"); next }
	$1 == "cpu" { ok = ok && NF == 11 && NR == 2; next }
	$1 ~ /^cpu[0-9]+$/ { ok = ok && NF == 11 && !rows; online++; next }
	detail && ($1 == "ns" || $1 == "samples" || $1 == "exact") { ok = ok && NF == 12; rows++; next }
	detail && $1 == "sampler" { ok = ok && NF == 26 && $3 == "online" && $5 == "mode" &&
		($6 == "sampled" || $6 == "exact") && $7 == "dormant" && $9 == "elapsed_ns" &&
		$11 == "sampled_ns" && $13 == "samples" && $15 == "overruns" &&
		$17 == "dormancies" && $19 == "cost_ns" && $21 == "cost_max_ns" &&
		$23 == "late_ns" && $25 == "late_max_ns"; samplers++; next }
	{ ok = 0; print "# unexpected line: " $0 }
	END {
		print "# " FILENAME ": " NR " lines, " online " cpuN lines, " samplers + 0 " sampler lines, ncpu " ncpu
		exit !(ok && online == ncpu && (detail ? samplers >= ncpu && rows == 3 * samplers : NR == ncpu + 2))
	}' "$2"
}
layout 0 /proc/randstat
result $? "/proc/randstat has the format-v5 layout: the header, cpu, one cpuN per online CPU, nothing else"
layout 1 /proc/randstat_detail
result $? "/proc/randstat_detail has the format-v5 layout: the same lines, then ns, samples, exact and sampler per CPU"
# The histograms, one cost_hist and one late_hist line per possible CPU
# (as many as /proc/randstat_detail's sampler lines), 32 buckets each.
awk -v nposs="$(grep -c '^sampler cpu' /proc/randstat_detail)" '
	BEGIN { n = 0 }
	NR == 1 { ok = ($0 == "randstat_hist 5"); next }
	NR == 2 { ok = ok && $1 == "hist_bounds_ns" && NF == 33 && $2 == 0 && $3 == 64; next }
	$1 == "cost_hist" && $2 == "cpu" n { ok = ok && NF == 34; next }
	$1 == "late_hist" && $2 == "cpu" n { ok = ok && NF == 34; n++; next }
	{ ok = 0; print "# unexpected line: " $0 }
	END { print "# " n " CPUs of histograms, " nposs " possible"; exit !(ok && n == nposs) }' /proc/randstat_hist
result $? "/proc/randstat_hist has the format-v5 layout"
# params: every parameter, in one line.
params() { echo "$(param law) $(param floor_ns) $(param mean_ns) $(param tmin_ns) $(param tmax_ns)"; }
DEFAULTS="exponential 50000 4000000 2000000 6000000"
[ "$(params)" = "$DEFAULTS" ]
result $? "parameters read law=exponential floor_ns=50000 mean_ns=4000000 tmin_ns=2000000 tmax_ns=6000000 by default"

# --- idle ------------------------------------------------------------------
sleep 0.5
measure idle sleep "$SECS"
# Expected ~99% idle; >= 90% with 4 sigma(0.9) of the sampled part (an
# idle CPU is dormant most of the time, its idle charged exactly: sf(),
# the module's word, taken at most 1 so that it can only narrow).
judge "idle guest: >= 90% idle on every CPU" 'END {
	ok = 1
	for (i = 0; i < g("ncpu"); i++) {
		c = "cpu" i; classes(c)
		n = nsamp(c); p = share(c, "idle"); f = sf(c); if (f > 1) f = 1
		lim = 0.9 - 4 * f * dsigma(0.9, n)
		print "# " c " idle " pct(p) ", limit " pct(lim)
		ok = ok && p >= lim
	}
	verdict(ok)
}'
# The intervals are i.i.d. (interval.c; expiries that passed before the
# interrupt was taken are counted as samples and their intervals
# included), so sampled time / samples, over m samples, has the law's
# mean and standard error sd / sqrt(m): sd = mean - floor for the
# exponential law, (tmax - tmin) / sqrt(12) for the uniform one.  Judged
# on cpu1 while it spins: an idle CPU is dormant and takes almost no
# sample (tickless.sh).  (A span that starts at a wakeup has no floor: on
# a CPU that never sleeps there is none.)
MEAN_PROG='END {
	c = "cpu1"; want = lmean(); m = nsamp(c)
	sd = g("law") ? (g("tmax") - g("tmin")) / root(12) : g("mean") - g("floor")
	se = sd / root(m > 0 ? m : 1)
	mean = m > 0 ? g("sampler." c ".sampled_ns") / m : 0
	print "# " c " mean interval " sprintf("%.3f", mean / 1e6) "ms over " m \
		" (want " sprintf("%.3f", want / 1e6) "ms +- 4*" sprintf("%.3f", se / 1e6) \
		"ms), overruns " g("sampler." c ".overruns") ", dormancies " g("sampler." c ".dormancies") \
		", mean lateness " sprintf("%.1f", g("sampler." c ".late_ns") / ncb(c) / 1e3) \
		"us, mean cost " sprintf("%.1f", g("sampler." c ".cost_ns") / ncb(c) / 1e3) "us"
	verdict(m > 0 && sq(mean - want) <= sq(4 * se))
}'
measure mean_spin taskset -c 1 /progs/spin "$SECS"
judge "mean interval is mean_ns = 4 ms (cpu1 spinning)" "$MEAN_PROG"

# --- user spin on cpu1 ------------------------------------------------------
# Expected ~99% user: only interrupts and kernel threads take cpu1 from it.
BUSY_PROG='END {
	c = "cpu1"; classes(c)
	n = nsamp(c); p = share(c, cls); lim = 0.9 - 4 * sigma(0.9, n)
	print "# " c " " cls " " pct(p) ", limit " pct(lim)
	verdict(p >= lim)
}'
# Ground truth: the spinner's own CPU time over its loop (growth of
# CLOCK_PROCESS_CPUTIME_ID, the scheduler's exact runtime; exec and
# startup, which are system time, left out).  It also holds the time of
# interrupts taken in its context, which randstat mostly charges to user
# too: an interrupt defers the sampler to its end, so the sample lands in
# the user code after it.  Tolerance: 4 sigma at p = cpu/wall, times the
# wall time, plus the edge error edge_ns() (judge.awk).
TRUTH_PROG='END {
	c = "cpu1"; w = g("wall"); p = cpu / w; if (p > 1) p = 1
	est = ns(c, cls); tol = 4 * sigma(p, nsamp(c)) * w + edge_ns()
	print "# " c " randstat " cls " " ms(est) ", workload CPU time " ms(cpu) \
		", difference " ms(est - cpu) ", tolerance " ms(tol)
	verdict(sq(est - cpu) <= sq(tol))
}'
measure user_spin taskset -c 1 /progs/spin "$SECS"
cpu=$(wlval cpu_ns)
judge "user spin pinned to cpu1: >= 90% user on cpu1" "$BUSY_PROG" -v cls=user
judge "user spin: cpu1 user time matches the spinner's CPU time" "$TRUTH_PROG" -v cls=user -v cpu="$cpu"

# --- the same at nice 10 -------------------------------------------------------
measure nice_spin taskset -c 1 /progs/runas -n 10 /progs/spin "$SECS"
cpu=$(wlval cpu_ns)
judge "nice 10 spin pinned to cpu1: >= 90% nice on cpu1" "$BUSY_PROG" -v cls=nice
judge "nice 10 spin: cpu1 nice time matches the spinner's CPU time" "$TRUTH_PROG" -v cls=nice -v cpu="$cpu"

# --- system time: getppid() loop --------------------------------------------
# No exact reference in this guest (the kernel's user/system split is tick
# sampled).  The tick (250 Hz, periodic, not in phase with the loop) is the
# same kind of estimator with the same interrupts-off bias: REF_PROG
# (lib.sh) compares the two.
# The busy check: user + system >= 90% (4 sigma).
measure sysloop taskset -c 1 /progs/sysloop "$SECS"
judge "sysloop on cpu1: user + system >= 90% on cpu1" 'END {
	c = "cpu1"; n = nsamp(c); p = share(c, "user") + share(c, "system")
	lim = 0.9 - 4 * sigma(0.9, n)
	print "# " c " user+system " pct(p) ", limit " pct(lim)
	verdict(p >= lim)
}'
# The split of a getppid() loop into user and system depends on where
# TCG delivers interrupts due in the syscall's interrupts-off entry and
# exit paths (+15.2, +3.3 and -15.1 points against the tick in three
# boots): a fact of the emulator, not of the classifier.  The system
# share is compared on a loop whose kernel time is in the syscall's body,
# with interrupts on: 64 KiB reads of /dev/zero.
measure sysread taskset -c 1 /progs/sysloop "$SECS" read
judge "64 KiB reads of /dev/zero on cpu1: system share agrees with the tick's" "$REF_PROG" -v cls=system -v minq=0.5

# --- iowait: synchronous direct writes to the throttled disk ----------------
# Reference: /proc/stat's idle and iowait of cpu1 are, under NO_HZ, the
# kernel's exact idle sleep times (tick-sched, in us), split by whether a
# task of cpu1's runqueue waited for I/O.  They leave out the time cpu1
# spends in interrupts while idle (the wakeups, the tick, randstat's own
# timer), which a sampler, randstat or the tick, charges to the idle
# context it interrupted; on TCG that is several % of wall time.  So:
#  - the workload must produce iowait: /proc/stat iowait >= 50% (else the
#    test is void and fails);
#  - of the idle time, the iowait fraction must match /proc/stat's exact
#    fraction, iowait / (idle + iowait), within 4 sigma (n: randstat's idle
#    + iowait samples) plus the edge errors (edge_ns() + a 10 ms tick, over
#    /proc/stat's idle + iowait time, not randstat's: a tolerance takes
#    no figure of the module's that could widen it);
#  - randstat's iowait must not fall short of the exact iowait, which is a
#    lower bound, by more than 4 sigma + edges.
IOWAIT_PROG='END {
	c = "cpu1"; classes(c); stat_classes(c)
	ri = ns(c, "iowait"); rt = ri + ns(c, "idle")
	ni = g("n." c ".iowait"); nt = ni + g("n." c ".idle")
	si = g("stat." c ".iowait"); st = si + g("stat." c ".idle")
	p = rt > 0 ? ri / rt : 0; q = st > 0 ? si / st : 0
	sn = st * 1e9 / g("user_hz")
	tol = 4 * sigma(q, nt) + (edge_ns() + 1e7) / (sn > 0 ? sn : 1)
	print "# " c " iowait/(idle+iowait): randstat " pct(p) ", exact " pct(q) \
		", difference " pct(p - q) ", tolerance " pct(tol) " (n " nt ")"
	p2 = share(c, "iowait"); q2 = sshare(c, "iowait")
	tol2 = 4 * sigma(q2, nsamp(c)) + (edge_ns() + 1e7) / g("wall")
	print "# " c " iowait share: randstat " pct(p2) ", exact (lower bound) " pct(q2) \
		", excess " pct(p2 - q2) ", allowed shortfall " pct(tol2) "; must be >= 50%"
	verdict(q2 >= 0.5 && sq(p - q) <= sq(tol) && p2 >= q2 - tol2)
}'
if [ -b /dev/vda ]; then
	measure iowait taskset -c 1 /progs/diowrite /dev/vda "$SECS"
	judge "diowrite on cpu1: iowait matches /proc/stat's exact iowait" "$IOWAIT_PROG"
else
	skip "diowrite on cpu1: iowait matches /proc/stat's exact iowait" "no /dev/vda"
fi

# --- softirq: UDP over loopback -----------------------------------------------
# No exact reference (no IRQ_TIME_ACCOUNTING in Debian's kernel): compared
# with the tick as for system time.  The workload must make softirq time:
# the tick sees >= 10%.
measure softirq taskset -c 1 /progs/udpflood "$SECS"
judge "udpflood on cpu1: softirq share agrees with the tick's" "$REF_PROG" -v cls=softirq -v minq=0.1

# --- classes add up to wall time ---------------------------------------------
# Per CPU and window, the sum of the first eight ns columns (elapsed_ns)
# against CLOCK_MONOTONIC between the snapshots: within 2% (the edge error
# alone is < 2 tmax = 12 ms, 0.4% of 3 s).
awk '{ r = ($3 - $4) / $4; if (r < 0) r = -r
	printf "# %s %s: elapsed %.1fms wall %.1fms (%+.2f%%)\n", $1, $2, $3 / 1e6, $4 / 1e6, 100 * ($3 - $4) / $4
	if (r > 0.02) bad++; n++ }
	END { exit !(n > 0 && !bad) }' "$RS_WALLLOG"
result $? "per CPU, randstat's classes add up to wall time within 2%"

# --- cpu1 offline and online -----------------------------------------------------
# While cpu1 is offline its counters stay (not zeroed, not advancing) and
# it is shown "online 0" without a cpu1 line; once back it samples again,
# at the usual rate, and the offline time is charged to nothing.
snap h0
/progs/wr /sys/devices/system/cpu/cpu1/online 0 >/dev/null
result $? "cpu1 goes offline"
sleep 1
snap h1
sleep 1
snap h2
/progs/wr /sys/devices/system/cpu/cpu1/online 1 >/dev/null
result $? "cpu1 comes back online"
snap h3
taskset -c 1 /progs/spin "$SECS" >/dev/null
snap h4
delta h0 h1
judge "cpu1 offline: its counters are kept" 'END {
	print "# cpu1 online " g("online.cpu1") ", elapsed grew " ms(el("cpu1")) ", samples +" nsamp("cpu1")
	verdict(g("online.cpu1") == 0 && el("cpu1") >= 0 && nsamp("cpu1") >= 0)
}'
! grep -q '^rs cpu1 ' /tmp/snap.h1
result $? "cpu1 offline: no cpu1 line in the /proc/stat part"
delta h1 h2
judge "cpu1 offline: its counters do not move" 'END {
	print "# over " ms(g("wall")) ": cpu1 elapsed +" ms(el("cpu1")) ", samples +" nsamp("cpu1")
	verdict(g("online.cpu1") == 0 && el("cpu1") == 0 && nsamp("cpu1") == 0)
}'
delta h3 h4
wallcheck after_online
judge "cpu1 back online (spinning): it samples again and the offline time is not charged" 'END {
	c = "cpu1"; classes(c); w = g("wall"); want = w / lmean()
	print "# " c " online " g("online.cpu1") ", samples " nsamp(c) " (expected ~" int(want) \
		"), elapsed " ms(el(c)) " over wall " ms(w)
	verdict(g("online.cpu1") == 1 && nsamp(c) >= want / 2 && el(c) <= w + edge_ns())
}'

# --- parameters -------------------------------------------------------------------
P=/sys/module/randstat/parameters
# A good mean takes effect: mean_ns=15000000; let every CPU draw one new
# interval, then the mean interval must be 15 ms (the idle test's
# criterion).
o=$(/progs/wr $P/mean_ns 15000000)
diag "mean_ns=15000000: $o; now $(params); header: $(head -n 1 /proc/randstat)"
[ "$o $(params)" = "ok exponential 50000 15000000 2000000 6000000" ] &&
	head -n 1 /proc/randstat | grep -q 'law exponential floor_ns 50000 mean_ns 15000000 '
result $? "parameters: mean_ns=15000000 accepted"
sleep 0.2
measure params_exp_15ms taskset -c 1 /progs/spin "$SECS"
judge "parameters: the mean interval moves to 15 ms (exponential)" "$MEAN_PROG"

# The uniform law, widened to [10 ms, 20 ms] (tmax first, or tmin would
# exceed the old tmax): the mean interval must be 15 ms.
o0=$(/progs/wr $P/mean_ns 4000000)
o1=$(/progs/wr $P/law uniform)
o2=$(/progs/wr $P/tmax_ns 20000000)
o3=$(/progs/wr $P/tmin_ns 10000000)
diag "writes: $o0 $o1 $o2 $o3; now $(params); header: $(head -n 1 /proc/randstat)"
[ "$o0 $o1 $o2 $o3 $(params)" = "ok ok ok ok uniform 50000 4000000 10000000 20000000" ] &&
	head -n 1 /proc/randstat | grep -q 'law uniform .*tmin_ns 10000000 tmax_ns 20000000'
result $? "parameters: law=uniform tmin_ns=10000000 tmax_ns=20000000 accepted"
sleep 0.1
measure params_10_20ms taskset -c 1 /progs/spin "$SECS"
judge "parameters: the mean interval moves to 15 ms (uniform)" "$MEAN_PROG"
/progs/wr $P/tmin_ns 2000000 >/dev/null && /progs/wr $P/tmax_ns 6000000 >/dev/null &&
	/progs/wr $P/law "exponential
" >/dev/null && [ "$(params)" = "$DEFAULTS" ]
result $? "parameters: back to the defaults (law 'exponential\\n' accepted)"

# The limits themselves are valid.
o1=$(/progs/wr $P/tmax_ns 1000000000); o2=$(/progs/wr $P/tmax_ns 6000000)
o3=$(/progs/wr $P/tmin_ns 50000); o4=$(/progs/wr $P/tmin_ns 2000000)
o5=$(/progs/wr $P/mean_ns 1000000000); o6=$(/progs/wr $P/floor_ns 500000000)
o7=$(/progs/wr $P/floor_ns 50000); o8=$(/progs/wr $P/mean_ns 100000)
o9=$(/progs/wr $P/mean_ns 4000000)
diag "tmax_ns=1000000000: $o1, tmin_ns=50000: $o3, mean_ns=1000000000: $o5, floor_ns=500000000: $o6, mean_ns=100000: $o8; now $(params)"
[ "$o1 $o2 $o3 $o4 $o5 $o6 $o7 $o8 $o9" = "ok ok ok ok ok ok ok ok ok" ] && [ "$(params)" = "$DEFAULTS" ]
result $? "parameters: the limits (tmin_ns 50000, tmax_ns 1e9, floor_ns mean_ns/2, mean_ns 1e9 and 2*floor_ns) accepted"

# Bad values: each refused with EINVAL, every value unchanged.
for bad in tmin_ns=49999 tmax_ns=1000000001 tmin_ns=6000001 tmax_ns=1999999 \
	tmin_ns=abc tmax_ns=-1 tmin_ns=4296967296 "tmax_ns=
" floor_ns=49999 floor_ns=2000001 mean_ns=99999 mean_ns=1000000001 \
	mean_ns=4294967296 floor_ns=abc law=poisson law=Uniform "law=
"; do
	p=${bad%%=*} v=${bad#*=}
	o=$(/progs/wr "$P/$p" "$v")
	now=$(params)
	# A newline would end the KTAP line: name it.
	[ "$v" = "
" ] && v='\n'
	diag "$p='$v': $o, now $now"
	[ "$o" = EINVAL ] && [ "$now" = "$DEFAULTS" ] &&
		head -n 1 /proc/randstat | grep -q "law exponential floor_ns 50000 mean_ns 4000000 tmin_ns 2000000 tmax_ns 6000000 "
	result $? "parameters: $p='$v' refused with EINVAL, old values kept"
done

# --- reset and writes -----------------------------------------------------------
snap r0
o=$(/progs/wr /proc/randstat reset)
snap r1
# Right after a reset each CPU has at most the samples of the time since:
# (wall between the snapshots) / floor + 1.
awk -v o="$o" '/^mono_ns/ { t[FILENAME] = $2 }
	$1 == "rs" && $2 == "sampler" { if (FILENAME ~ /r1$/) { s = $15 + 0; if (s > max) max = s } }
	END { w = t["/tmp/snap.r1"] - t["/tmp/snap.r0"]
		print "# reset: " o ", largest samples after " max ", wall " w / 1e6 "ms"
		exit !(o == "ok" && max <= w / 5e4 + 1) }' /tmp/snap.r0 /tmp/snap.r1
result $? "echo reset > /proc/randstat zeroes the counters"
for w in foo resetx "reset reset" "
"; do
	o=$(/progs/wr /proc/randstat "$w")
	[ "$w" = "
" ] && w='\n'
	diag "write '$w': $o"
	[ "$o" = EINVAL ]
	result $? "write '$w' to /proc/randstat: EINVAL"
done
o=$(/progs/wr /proc/randstat "reset
")
[ "$o" = ok ]
result $? "write 'reset\\n' to /proc/randstat: accepted"

# A non-root process (uid 65534, no groups, no capabilities) can neither
# reset the counters nor change a parameter.
sleep 0.2
snap u0
o1=$(/progs/runas -u 65534 /progs/wr /proc/randstat reset)
o2=$(/progs/runas -u 65534 /progs/wr $P/tmin_ns 3000000)
o3=$(/progs/runas -u 65534 /progs/wr $P/tmax_ns 7000000)
o4=$(/progs/runas -u 65534 /progs/wr $P/law uniform)
o5=$(/progs/runas -u 65534 /progs/wr $P/mean_ns 8000000)
snap u1
delta u0 u1
diag "as uid 65534: reset: $o1, tmin_ns: $o2, tmax_ns: $o3, law: $o4, mean_ns: $o5; now $(params)"
case $o1 in EPERM|EACCES) true ;; *) false ;; esac
result $? "non-root: reset refused (EPERM or EACCES)"
judge "non-root: counters not reset" 'END {
	ok = 1
	for (i = 0; i < g("ncpu"); i++) {
		c = "cpu" i; ok = ok && nsamp(c) >= 0 && el(c) >= 0
		print "# " c " samples +" nsamp(c)
	}
	verdict(ok)
}'
[ "$o2 $o3 $o4 $o5" = "EACCES EACCES EACCES EACCES" ] && [ "$(params)" = "$DEFAULTS" ]
result $? "non-root: parameter writes refused (EACCES), values unchanged"

# --- concurrent readers --------------------------------------------------------
readers_check "4 concurrent readers while sampling: all counters monotonic and consistent"

# --- readers stay independent ----------------------------------------------------
readers_independent "a reader polling /proc/randstat at full speed slows another by at most 10% (4 se)"

# --- 100 rmmod/insmod cycles under a CPU-bound task ---------------------------------
taskset -c 1 /progs/spin 600 >/dev/null &
spin=$!
i=0 bad=0 t0=$(date +%s)
while [ $i -lt 100 ]; do
	rmmod randstat || { bad=$((bad + 1)); break; }
	insmod /randstat.ko || { bad=$((bad + 1)); break; }
	i=$((i + 1))
done
kill $spin
wait $spin 2>/dev/null
diag "$i cycles in $(( $(date +%s) - t0 )) s, $bad failures"
[ $i -eq 100 ] && [ $bad -eq 0 ]
result $? "100 rmmod/insmod cycles while cpu1 spins"
sleep 0.2
measure after_reload taskset -c 1 /progs/spin 1
judge "after the reloads: cpu1 (spinning) samples, every CPU's time grows" 'END {
	ok = nsamp("cpu1") > 0
	for (i = 0; i < g("ncpu"); i++) {
		c = "cpu" i; ok = ok && el(c) > 0
		print "# " c " samples +" nsamp(c) ", elapsed +" ms(el(c)) " in " ms(g("wall"))
	}
	verdict(ok)
}'

# --- soak: a reader at full speed against a per-sample hog --------------------------
# The attack program (tests/progs/attack, see attack.sh) as uid 65534 for
# SOAK seconds under this guest's multi-threaded TCG: cpu0 reads
# /proc/randstat as fast as it can, cpu1 wakes after each sample (and,
# tickless, whenever the file says cpu1 is dormant).  An earlier
# prototype once hung a guest like this (an RCU stall, cpu1's timer
# softirq held off for 20 s).  The guest must stay responsive (the run
# ends on time), cpu1 must keep sampling at its rate on the time it is
# sampled, and dmesg (next test) must stay clean.
#
# The rate: on sampled time the samples are the law's renewal process,
# except that each resume (one per dormancy, R of them) starts with the
# continuation, floor - min(since, floor) + Exp(mean - floor), whose mean
# is mean - min(since, floor): each resume shortens the sampled time per
# sample by up to floor_ns.  So E[n] lies in [sampled / mean,
# (sampled + R floor) / mean], and n is accepted within 4 sigma (Poisson,
# sqrt of E[n]) of that range.  R is the module's count, so it is
# capped by one the kernel keeps, cpu1's interrupts over the run
# (/proc/interrupts, every line): a resume ends a dormancy at an exit
# from idle, and a CPU leaves hlt (WFI) only for an interrupt (a wakeup
# in the idle loop's short polling window between two halts needs none:
# rare, and the cap is loose by far more).  randstat's own sample
# interrupts and the hog's wakeups are among them, so the cap is loose:
# 32,873 interrupts against 12,998 resumes and 9,148 samples in one run
# here (12,800 to 14,000 resumes in the full runs); an over-reported R
# widens the range by at most the cap times floor / mean, 1/80 at the
# defaults (411 samples in that run, against 4 sigma of 384).  Under TCG an excess beyond
# the range grew with the emulator's lateness (+45 to +583 samples) while
# a stopping sample ended the sampled time at its last expiry rather than
# at its interrupt (design.rst, "Why it stays unbiased"): with this host
# busy, 8334 samples against at most 7826 + 4 sigma (mean lateness
# 954 us) before the fix, 6097 against 6223 to 6354 (1321 us) after.
SOAK=${randstat_soak_secs:-40}
irqs >/tmp/irqs.a
measure soak /progs/runas -u 65534 /progs/attack sample "$SOAK" 1700
st=$?
irqs >/tmp/irqs.b
wakes=$(awk 'FNR == NR { a[$1] = $2; next } $1 == "cpu1" { print $2 - a[$1] }' /tmp/irqs.a /tmp/irqs.b)
judge "soak: ${SOAK}s of full-speed reads against a per-sample hog, sampling keeps its rate" 'END {
	c = "cpu1"; classes(c); lo = g("sampler." c ".sampled_ns") / lmean()
	rm = g("sampler." c ".dormancies"); r = rm < wakes ? rm : wakes
	hi = lo + r * g("floor") / lmean(); n = nsamp(c)
	print "# " c ": " n " samples in " ms(g("sampler." c ".sampled_ns")) " sampled of " ms(g("wall")) \
		", expected " int(lo) " to " int(hi) " (" rm " resumes, capped at cpu1'"'"'s " wakes \
		" interrupts) +- 4 sigma " int(4 * root(hi)) \
		"; lateness mean " sprintf("%.0f", g("sampler." c ".late_ns") / ncb(c) / 1000) "us"
	verdict(st == 0 && wakes > 0 && g("wall") < (soak + 5) * 1e9 && n >= lo - 4 * root(lo) && n <= hi + 4 * root(hi))
}' -v st="$st" -v soak="$SOAK" -v wakes="${wakes:-0}"

# --- dmesg ---------------------------------------------------------------------------
dmesg_clean "dmesg: no WARNING, BUG, Oops or lockdep report"
ktap_end
