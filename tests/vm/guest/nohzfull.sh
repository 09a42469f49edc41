# shellcheck shell=sh
# nohzfull: a guest booted with nohz_full=1.  cpu1 then accounts its time
# by vtime (context tracking at every kernel entry and exit), so cpu1's
# /proc/stat user and system are exact, to its 10 ms ticks: the ground
# truth for randstat's shares on cpu1.  See main.sh for the statistics.
# randstat would serve that CPU from this exact accounting (exact_cpus);
# it is loaded with exact_cpus= to sample cpu1 on purpose and be judged,
# and the exact mode is tested at the end.
#
# Tolerance: 4 sigma at the exact share q (n = cpu1's samples), plus the
# window errors: edge_ns() (randstat's whole intervals, judge.awk) and one
# 10 ms tick (/proc/stat truncates each reading), over the wall time.
#
# vtime charges the time cpu1 spends in any interrupt, randstat's own
# included, to system; randstat never samples itself and (its timer being
# deferred while interrupts are off) rarely samples an interrupt, so it
# gives that time to the interrupted context, here user.  That is a real,
# systematic difference; its size is printed (the sampler's own cost is
# cost_ns) and it is part of what the test measures, not hidden.
# shellcheck source=tests/vm/guest/lib.sh
. /tests/lib.sh
ktap_begin 21
grep -q 'nohz_full=1' /proc/cmdline
result $? "booted with nohz_full=1"
dmesg -c >/dev/null
P=/sys/module/randstat/parameters
# The reference: cpu1's local timer interrupts with a spinner, before
# randstat is loaded (for the exact mode's test at the end).
loc_rate spin_none taskset -c 1 /progs/spin 5
load_randstat exact_cpus=
grep -q '^sampler cpu1 online 1 mode sampled ' /proc/randstat_detail
result $? "exact_cpus= (empty): nohz_full cpu1 is sampled (mode sampled)"

VT_PROG='END {
	c = "cpu1"; classes(c); stat_classes(c)
	p = share(c, cls); q = sshare(c, cls); n = nsamp(c); w = g("wall")
	tol = 4 * sigma(q, n) + (edge_ns() + 1e7) / w
	cost = g("sampler." c ".cost_ns") / w
	print "# " c " " cls ": randstat " pct(p) ", vtime " pct(q) ", difference " \
		pct(p - q) " = " sprintf("%.1f", (p - q) / (sigma(q, n) > 0 ? sigma(q, n) : 1)) \
		" sigma, tolerance " pct(tol) " (n " n "); sampler cost " pct(cost) " of cpu1"
	verdict(sq(p - q) <= sq(tol))
}'

sleep 0.5
measure user_spin taskset -c 1 /progs/spin "$SECS"
judge "user spin on nohz_full cpu1: randstat user share = vtime's within 4 sigma" "$VT_PROG" -v cls=user

measure nice_spin taskset -c 1 /progs/runas -n 10 /progs/spin "$SECS"
judge "nice 10 spin on nohz_full cpu1: randstat nice share = vtime's within 4 sigma" "$VT_PROG" -v cls=nice

# sysloop: ~all of its time is kernel entries and exits.  A timer
# interrupt that comes due while the entry code has interrupts off is
# taken in the kernel (system); one that comes due in the exit path, also
# interrupts off, is taken after sysret, in user mode.  TCG makes these
# stretches long and their share varies from boot to boot, so every timer-
# interrupt sampler (randstat and the kernel's tick alike: main.sh shows
# they agree) has a user/system split biased against vtime by a run-
# dependent amount (observed -13 to +5 points).  The test therefore holds
# randstat to what is exact for it, the busy share user + system against
# vtime's, within 4 sigma; the split is printed, not judged.
measure sysloop taskset -c 1 /progs/sysloop "$SECS"
judge "sysloop on nohz_full cpu1: randstat user+system = vtime's within 4 sigma" 'END {
	c = "cpu1"; classes(c); stat_classes(c)
	p = share(c, "user") + share(c, "system"); q = sshare(c, "user") + sshare(c, "system")
	n = nsamp(c); tol = 4 * sigma(q, n) + (edge_ns() + 2e7) / g("wall")
	print "# " c " user+system: randstat " pct(p) ", vtime " pct(q) ", difference " \
		pct(p - q) ", tolerance " pct(tol) " (n " n ")"
	print "# " c " system alone (not judged, see above): randstat " pct(share(c, "system")) \
		", vtime " pct(sshare(c, "system")) ", difference " \
		pct(share(c, "system") - sshare(c, "system"))
	verdict(sq(p - q) <= sq(tol))
}'

# /proc/stat's idle is the exact idle sleep time, which leaves out the
# time in interrupts, randstat's own timer's included: a sampler charges
# that to the idle context it interrupted.  So the exact idle share is a
# lower bound; randstat's may exceed it by the interrupt time (printed).
measure idle sleep "$SECS"
judge "idle nohz_full cpu1: randstat idle share >= /proc/stat's exact idle (4 sigma)" 'END {
	c = "cpu1"; classes(c); stat_classes(c)
	p = share(c, "idle"); q = sshare(c, "idle"); n = nsamp(c)
	tol = 4 * sigma(q, n) + (edge_ns() + 1e7) / g("wall")
	print "# " c " idle: randstat " pct(p) ", exact (lower bound) " pct(q) ", excess " \
		pct(p - q) ", allowed shortfall " pct(tol) " (n " n ")"
	verdict(p >= q - tol)
}'

# --- exact mode: the kernel's own figures, no interrupt of randstat's -----------------
# Refused values change nothing: cpu0 is not nohz_full, a CPU that does
# not exist, words.
for bad in 0 0-1 99999 abc 1-; do
	o=$(/progs/wr $P/exact_cpus "$bad")
	diag "exact_cpus='$bad': $o, now '$(cat $P/exact_cpus)'"
	[ "$o" = EINVAL ] && [ -z "$(cat $P/exact_cpus)" ] &&
		grep -q '^sampler cpu1 online 1 mode sampled ' /proc/randstat_detail
	result $? "exact_cpus='$bad' refused with EINVAL, cpu1 still sampled"
done
o=$(/progs/wr $P/exact_cpus 1)
[ "$o" = ok ] && [ "$(cat $P/exact_cpus)" = 1 ] &&
	grep -q '^sampler cpu1 online 1 mode exact dormant 0 ' /proc/randstat_detail &&
	grep -q '^sampler cpu0 online 1 mode sampled ' /proc/randstat_detail
result $? "exact_cpus=1: cpu1 in mode exact, cpu0 still sampled ($o)"
# A nohz_full CPU running one task takes (nearly) no interrupt; randstat
# must add none: within 2/s of the rate without the module.
loc_rate spin_exact taskset -c 1 /progs/spin 5
/progs/wr $P/exact_cpus "
" >/dev/null
loc_rate spin_sampled taskset -c 1 /progs/spin 5
/progs/wr $P/exact_cpus 1 >/dev/null
a=$(awk '$1 == "cpu1" { print $2 }' /tmp/loc.spin_none)
b=$(awk '$1 == "cpu1" { print $2 }' /tmp/loc.spin_exact)
s=$(awk '$1 == "cpu1" { print $2 }' /tmp/loc.spin_sampled)
diag "spinner on nohz_full cpu1: $a interrupts/s without randstat, $b in mode exact, $s sampled"
awk -v a="$a" -v b="$b" 'BEGIN { exit !(a != "" && b != "" && b <= a + 2) }'
result $? "nohz_full cpu1 in mode exact, one task spinning: randstat adds no interrupts (+2/s at most)"
# Its figures are /proc/stat's: each class within two 10 ms ticks (each
# reading truncates) and the time between the two files' reads.
measure exact_spin taskset -c 1 /progs/spin "$SECS"
judge "mode exact: cpu1's classes equal /proc/stat's" 'END {
	c = "cpu1"; split("user nice system idle iowait irq softirq steal", k); ok = 1
	for (i = 1; i <= 8; i++) {
		r = ns(c, k[i]) / 1e9 * g("user_hz"); s = g("stat." c "." k[i])
		printf "# %s %s: randstat %.1f, /proc/stat %d ticks\n", c, k[i], r, s
		ok = ok && sq(r - s) <= sq(3)
	}
	print "# samples +" nsamp(c)
	verdict(ok && nsamp(c) == 0)
}'
# Offline and online in mode exact: it stays exact, its counters kept.
snap e0
/progs/wr /sys/devices/system/cpu/cpu1/online 0 >/dev/null &&
	/progs/wr /sys/devices/system/cpu/cpu1/online 1 >/dev/null &&
	grep -q '^sampler cpu1 online 1 mode exact ' /proc/randstat_detail
st=$?
sleep 1
snap e1
delta e0 e1
judge "mode exact: cpu1 offline and online, still exact, counters monotonic" 'END {
	c = "cpu1"; ok = st == 0
	split("user nice system idle iowait irq softirq steal", k)
	for (i = 1; i <= 8; i++) ok = ok && g("ns." c "." k[i]) >= 0
	print "# elapsed +" ms(el(c)) " over " ms(g("wall"))
	verdict(ok && el(c) > 0)
}' -v st="$st"
# A reset with cpu1 exact: cpu0 zeroes cpu1's counters, and cpu1, running
# a spinner, takes no interrupt for it.  20 resets: each would be a
# function-call IPI on cpu1 (/proc/interrupts: CAL on x86, IPI1 on arm64)
# if cpu1 zeroed its own, as every CPU did before; the bar is 5, room for
# the few other IPIs an isolated CPU may take in the seconds they last.
# Right after the last one cpu1's elapsed time is at most 0.2 s (it was
# the time since insmod, tens of seconds), and it grows from there.
calls1() { awk '/Function call interrupts/ { print $3 }' /proc/interrupts; }
taskset -c 1 /progs/spin 6 >/dev/null &
sp=$!
sleep 0.5
c0=$(calls1)
o=ok i=0
while [ "$i" -lt 20 ]; do
	sleep 0.05
	r=$(/progs/wr /proc/randstat reset) || o=$r
	i=$((i + 1))
done
snap x0
c1=$(calls1)
sleep 1
snap x1
wait "$sp"
grep -q '^sampler cpu1 online 1 mode exact ' /proc/randstat_detail
st=$?
e0=$(awk '$1 == "rs" && $2 == "sampler" && $3 == "cpu1" { print $11 }' /tmp/snap.x0)
e1=$(awk '$1 == "rs" && $2 == "sampler" && $3 == "cpu1" { print $11 }' /tmp/snap.x1)
awk -v o="$o" -v st="$st" -v c0="$c0" -v c1="$c1" -v e0="$e0" -v e1="$e1" 'BEGIN {
	printf "# resets: %s, cpu1 still exact: %d; cpu1 took %d function-call IPIs over them (bar 5); its elapsed %.1f ms after the last, %.1f ms a second later\n", o, st == 0, c1 - c0, e0 / 1e6, e1 / 1e6
	exit !(o == "ok" && st == 0 && c0 != "" && c1 - c0 <= 5 && e0 != "" && e0 <= 0.2e9 && e1 > e0)
}'
result $? "mode exact: 20 resets zero cpu1's counters and send it no IPI"
# Back to sampling (an empty list, written as a newline): the counters
# carry over.
o=$(/progs/wr $P/exact_cpus "
")
measure resampled taskset -c 1 /progs/spin "$SECS"
judge "exact_cpus= again: cpu1 sampled again" 'END {
	c = "cpu1"; classes(c)
	verdict(o == "ok" && nsamp(c) > 0 && share(c, "user") > 0.5)
}' -v o="$o"

awk '{ r = ($3 - $4) / $4; if (r < 0) r = -r
	printf "# %s %s: elapsed %.1fms wall %.1fms (%+.2f%%)\n", $1, $2, $3 / 1e6, $4 / 1e6, 100 * ($3 - $4) / $4
	if (r > 0.02) bad++; n++ }
	END { exit !(n > 0 && !bad) }' "$RS_WALLLOG"
result $? "per CPU, randstat's classes add up to wall time within 2%"

# randstat verify refuses a nohz_full CPU (randstat serves it exactly:
# there is no sampler to judge), before it runs anything.
/progs/randstat verify --cpu 1 >/tmp/v.out 2>/tmp/v.err
rc=$?
[ "$rc" -eq 5 ] && [ ! -s /tmp/v.out ] &&
	grep -q 'cpu1 is nohz_full: randstat serves it exactly' /tmp/v.err
ok_or_show $? "randstat verify --cpu 1 (nohz_full): refused, exit 5, says why" /tmp/v.err

dmesg_clean "dmesg: no WARNING, BUG, Oops or lockdep report"
ktap_end
