# shellcheck shell=sh
# attack: can an unprivileged process use cpu1 without being charged?
# (Documentation/design.rst, "Threat model".)  Booted with two CPUs on a
# clock that keeps time, -icount shift=2,sleep=off (tests/vm/run.sh says
# why shift=2): under plain TCG a busy host made the control's timers
# late and moved it 11.5 points off vtime, and under multi-threaded TCG
# a timer interrupt due while a vCPU that another vCPU just woke runs
# user code can be held until it enters the kernel, which looks like
# evasion and is not.
#
# The attack (tests/progs/attack, uid 65534): a watcher on cpu0 reads
# /proc/randstat as fast as it can; each time cpu1 takes a sample it
# learns when (elapsed_ns) and wakes a hog on cpu1 that spins until
# BURST after that sample; and each time it sees cpu1 dormant (its
# sampler stopped while idle), it wakes the hog at once, to run right
# after the sampler resumes.  The control has the same shape (the same
# watcher, reads, pipe and burst) but triggers at random times of the
# sampler's mean rate.  BURST is 1.7 ms: under law=uniform (tmin 2 ms)
# no sample can land in it.
#
# Booted with nohz_full=1, so that cpu1's /proc/stat is vtime: its user
# column is exact, measured at every kernel entry and exit, and the hog is
# the only user-mode task on cpu1.  That is the reference.  (The hog's
# whole CPU time is not a clean one under TCG: it holds the long,
# interrupts-off wake-up and sleep paths and the softirqs run in its
# context, which no timer-interrupt sampler sees as its user time,
# whatever its law; getrusage's utime is that CPU time rescaled.)
#
# What each is charged, per exact user second: r = p / q, p randstat's
# user + nice share of cpu1 (the count estimator over the window), q
# vtime's.  p's relative standard error is sqrt((1 - p) / (n p)), n
# cpu1's samples.
#
# The bar (default law): the attack is charged no less than its exact
# user time (vtime) less what the law's floor can leave unseen, floor /
# mean of cpu1, and 4 sigma of its share plus the window's edges: the
# direction an evader needs.  Until randstat was tickless the bar was
# r_attack >= 0.95 r_control; the tickless attack (it also runs whenever
# cpu1 is dormant) now uses over half of cpu1 where the control uses a
# fifth, and under TCG what the wake-up path adds to a process's charge
# depends on how it sleeps and wakes (the control was charged 1.100 per
# user second, the attack 1.020, in one 60 s run), so the two no longer
# measure the same thing; the ratio is reported.  The control is checked
# against vtime below (both ways, with the edges and a tick); where it
# falls against its 95% interval of vtime's user share is reported.
# law=uniform is reported, not asserted: it must show the documented
# weakness.
# shellcheck source=tests/vm/guest/lib.sh
. /tests/lib.sh
ktap_begin 8
grep -q 'nohz_full=1' /proc/cmdline
result $? "booted with nohz_full=1 (cpu1 by vtime)"
ASECS=${randstat_attack_secs:-240}
BURST_US=1700
P=/sys/module/randstat/parameters
dmesg -c >/dev/null
load_randstat exact_cpus=

# run_attack LABEL MODE SECS: the program as uid 65534, with snapshots
# around it; its figures and randstat's cpu1 figures go to /tmp/LABEL.
run_attack() {
	sleep 0.2
	snap a
	/progs/runas -u 65534 /progs/attack "$2" "$3" "$BURST_US" >/tmp/wl.out 2>&1
	_st=$?
	snap b
	delta a b
	sed 's/^/# /' /tmp/wl.out
	awk -v label="$1" -v cpu="$(wlval hog_cpu_ns)" -v ut="$(wlval hog_utime_ns)" \
		"$(cat /tests/judge.awk)"'
	END {
		c = "cpu1"; classes(c); stat_classes(c); n = nsamp(c); w = g("wall")
		p = share(c, "user") + share(c, "nice")
		q = sshare(c, "user") + sshare(c, "nice")
		r = q > 0 ? p / q : 0
		rel = (n > 0 && p > 0) ? root((1 - p) / (n * p)) : 1
		printf "# %s: used %s of cpu1 in user mode (vtime; all its CPU time %s, getrusage user %s), charged %s: %.3f per user second +- %.3f (1 sigma)\n",
			label, pct(q), ms(cpu), ms(ut), pct(p), r, r * rel
		printf "%s %.6f %.6f %.6f %.6f %.6f %.6f %.6f\n", label, q, p, r, rel,
			sigma(q, n), (edge_ns() + 1e7) / w, sshare(c, "system") > "/tmp/" label
	}' /tmp/delta
	return $_st
}

# --- the default law: exponential ------------------------------------------
run_attack exp_attack sample "$ASECS"
result $? "exponential: the attack ran as uid 65534 (${ASECS}s)"
run_attack exp_control random "$ASECS"
result $? "exponential: the control ran as uid 65534 (${ASECS}s)"

# The control, against vtime: it may not be charged less than its exact
# user share (the direction an evader needs), nor more than its exact user
# and system shares together, each beyond 4 sigma plus the edges.  Under
# plain TCG the wake-up path ran long with interrupts off and ended in the
# hog's user code, so a sample due there was taken in user mode, where
# vtime counts system time (in 240 s runs: +1.3 points at ~230 wakeups a
# second; on this icount guest +0.11); system time is the only place such
# samples can come from.
read -r _ q p _ _ sig edge qsys </tmp/exp_control
awk -v q="$q" -v p="$p" -v sig="$sig" -v edge="$edge" -v qsys="$qsys" 'BEGIN {
	d = p - q; if (d < 0) d = -d
	printf "# control: randstat - vtime user = %+.2f points; 95%% interval +-%.2f: %s\n",
		100 * (p - q), 196 * sig, d <= 1.96 * sig ? "inside" : "outside"
	printf "# control: randstat user %.2f%% must lie in [%.2f%%, %.2f%%] (vtime user - 4 sigma - edges, vtime user + system (%.2f) + 4 sigma + edges)\n",
		100 * p, 100 * (q - 4 * sig - edge), 100 * (q + qsys + 4 * sig + edge), 100 * qsys
	exit !(q > 0 && p >= q - 4 * sig - edge && p <= q + qsys + 4 * sig + edge)
}'
result $? "exponential: the control is charged no less than its exact user time, no more than its exact busy time"

# The bar: the attack is charged its exact user time, less at most the
# floor's share of cpu1, 4 sigma and the edges.
read -r _ q p _ _ sig edge qsys </tmp/exp_attack
awk -v q="$q" -v p="$p" -v sig="$sig" -v edge="$edge" 'BEGIN {
	gain = 50000 / 4000000
	printf "# attack: used %.2f%% of cpu1 (vtime user), charged %.2f%%: %+.2f points; the bar %.2f%% (floor/mean %.2f, 4 sigma %.2f, edges %.2f)\n",
		100 * q, 100 * p, 100 * (p - q), 100 * (q - gain - 4 * sig - edge), 100 * gain, 400 * sig, 100 * edge
	exit !(q > 0 && p >= q - gain - 4 * sig - edge)
}'
result $? "exponential: the attack is charged its exact user time, less at most floor/mean and 4 sigma"
# Reported: per user second, the attack against the control.
# shellcheck disable=SC2016 # an awk program
ratio_prog="$(cat /tests/judge.awk)"'
	{ v[$1] = $4; rel[$1] = $5 }
	END {
		R = v[c] > 0 ? v[a] / v[c] : 0; s = R * root(sq(rel[a]) + sq(rel[c]))
		printf "# %s / %s: %.3f +- %.3f (95%% interval %.3f..%.3f)\n", a, c, R, s, R - 1.96 * s, R + 1.96 * s
		exit !(R >= bar)
	}'
awk -v a=exp_attack -v c=exp_control -v bar=0 "$ratio_prog" /tmp/exp_attack /tmp/exp_control

# --- tickless: work right after wakeups ---------------------------------------
# cpu1 is idle between these workloads' bursts, so its sampler stops
# (dormant) and every burst starts at a wakeup.  Here, on the attacks'
# icount clock: under multi-threaded TCG a timer interrupt due while a
# just-woken vCPU runs user code can be held until it enters the kernel,
# which would look like exactly the evasion these look for.
VT_PROG='END {
	c = "cpu1"; classes(c); stat_classes(c)
	p = share(c, "user"); q = sshare(c, "user"); n = nsamp(c); w = g("wall")
	if (busy) { p += share(c, "system"); q += sshare(c, "system") }
	tol = 4 * sigma(q, n) + (edge_ns() + 2e7) / w; gain = floor ? g("floor") / g("mean") : 0
	print "# " c " " (busy ? "user+system" : "user") ": randstat " pct(p) ", vtime " pct(q) \
		", difference " pct(p - q) ", allowed " pct(-tol - gain) " .. +" pct(tol) \
		"; dormancies +" g("sampler." c ".dormancies") " (n " n ")"
	verdict(p >= q - tol - gain && p <= q + tol)
}'

# 200 us every 5 ms (bench/progs/iso; its clock reads and sleeps make
# much of it system time under TCG, so judged on user + system).  A
# sampler that restarted wrongly at wakeups (a fresh floor each time)
# would miss each burst's first 50 us; KUnit's short_bursts_test shows
# that bias in simulation.
measure bursts taskset -c 1 /progs/runas -u 65534 /progs/iso 5000 200 "$((SECS * 3))"
judge "200 us every 5 ms on cpu1 (uid 65534): randstat busy share = vtime's within 4 sigma" "$VT_PROG" -v busy=1 -v floor=0

# The floor, exploited (50 us of work between the shortest sleeps the
# kernel gives) is judged in the faithful suite, as uid 65534, on a clock
# that does not lie.  It ran here too, reported and not asserted, until
# that suite judged it: under TCG its user share is the emulator's (on
# CI's machine law=uniform read 10.51% user, 15.67% system, in one round
# and 22.84%, 0.73% in the next, same workload, same law, one boot).

# --- law=uniform: reported, not asserted ---------------------------------------
/progs/wr $P/law uniform >/dev/null
diag "law=uniform, tmin_ns $(cat $P/tmin_ns), tmax_ns $(cat $P/tmax_ns)"
USECS=$((ASECS < 20 ? ASECS : 20))
run_attack uni_attack sample "$USECS"
run_attack uni_control random "$USECS"
awk -v a=uni_attack -v c=uni_control -v bar=0 "$ratio_prog" /tmp/uni_attack /tmp/uni_control
diag "uniform: the documented weakness (not asserted): see the ratio above"
/progs/wr $P/law exponential >/dev/null

dmesg_clean "dmesg: no WARNING, BUG, Oops or lockdep report"
ktap_end
