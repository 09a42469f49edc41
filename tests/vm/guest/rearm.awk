# rearm.awk: the resumed samples' timing, from an ftrace of cpu1 (trace
# clock mono, so that trace times and hrtimer times are one clock) with
# timer:hrtimer_start, timer:hrtimer_expire_entry and a kprobe "cpe" on
# clockevents_program_event() with its expires (judged.sh sets it up).
#
# A sample after a resume is armed by hrtimer_start() (the sampler's
# other samples are re-armed inside its callback, which traces no start).
# For each such arm of randstat_timer_fn, with softexpires E (the time
# asked for: the timer may run from then on):
#   - its delay, E - the start's trace time: the law's continuation
#     (randstat_draw_resume(): floor + Exp(mean - floor) less the part of
#     the floor already past), whose median lies in
#     [(mean - floor) ln 2, (mean - floor) ln 2 + floor], and of which
#     about 22% are shorter than (mean - floor) / 4;
#   - if it expired before being cancelled or re-armed (a CPU that goes
#     idle first cancels it): its lateness, the expiry's now - E, and
#     whether the last clockevents_program_event() before the expiry asked
#     for E or earlier.  The interrupt that ran the sample was then due by
#     E: if the device was programmed for E or earlier and the interrupt
#     still came late, the emulator delivered it late, not the kernel.
#     The clockevent programmed in that interrupt comes after the entry,
#     so the last one before the entry is the one that raised it.
#
# Prints "# " diagnostics and, last, three words: PROG (1: every expired
# resume was programmed in time, and at least MINN of them),
# DELAY (1: the delays' median and share under (mean - floor) / 4 are
# within the law's ranges, 4 sigma each), LOST (1:
# the trace lost events).  -v mean=NS -v floor=NS -v minn=N -v label=TEXT.
function tns(s,  i) {
	# "123.456789" seconds: to ns without losing the digits
	i = index(s, ".")
	return substr(s, 1, i - 1) * 1e9 + substr(s "000000000", i + 1, 9)
}
function kv(k,  m) {
	if (!match($0, " " k "=[-0-9]+")) return ""
	m = substr($0, RSTART + length(k) + 2, RLENGTH - length(k) - 2)
	return m + 0
}
function sq(x) { return x * x }
# e^x for x in [-1, 0] (busybox awk may lack exp): its series
function ex(x,  t, r, i) {
	t = 1; r = 1
	for (i = 1; i < 30; i++) { t = t * x / i; r += t }
	return r
}
function root(x,  r, i) {
	if (x <= 0) return 0
	r = x > 1 ? x : 1
	for (i = 0; i < 60; i++) r = (r + x / r) / 2
	return r
}
# q-quantile of late[1..n] after sorting (insertion sort: n is ~100)
function quant(q,  k) {
	k = int(q * nl); if (k >= nl) k = nl - 1
	return srt[k + 1]
}
/^# entries-in-buffer/ { split($3, e, "/"); lost = e[1] != e[2]; next }
/^#/ { next }
!/\[001\]/ { next }
{
	if (!match($0, /[0-9]+\.[0-9]+: [a-z_]+:/)) next
	split(substr($0, RSTART, RLENGTH), w, ": ")
	t = tns(w[1]); ev = w[2]; sub(/:$/, "", ev)
	rs = index($0, "function=randstat_timer_fn") > 0
}
ev == "cpe" { lastcpe = kv("expires"); havecpe = 1; next }
ev == "hrtimer_start" && rs {
	if (pend) cancelled++
	E = kv("softexpires"); if (E == "") E = kv("expires")
	nd++; dl[nd] = E - t
	pend = 1
	next
}
ev == "hrtimer_expire_entry" && rs {
	if (!pend) { rearms++; next }
	pend = 0
	late = kv("now") - E
	ok = havecpe && lastcpe <= E
	nl++; lat[nl] = late; nok += ok
	if (!ok && bad < 5) {
		bad++
		printf "# not programmed in time: expiry %.0f, last clockevent programmed for %s (%s ns later), ran %.0f ns late\n", \
			E, havecpe ? lastcpe : "none", havecpe ? lastcpe - E : "-", late
	}
	next
}
END {
	for (i = 1; i <= nl; i++) {
		v = lat[i]
		for (j = i - 1; j >= 1 && srt[j] > v; j--) srt[j + 1] = srt[j]
		srt[j + 1] = v
	}
	for (i = 1; i <= nd; i++) {
		v = dl[i]
		for (j = i - 1; j >= 1 && ds[j] > v; j--) ds[j + 1] = ds[j]
		ds[j + 1] = v
	}
	# The median, not the mean: a vCPU that the host stops between the
	# sampler's clock read and the trace event (TCG on a shared host:
	# up to a few ms) moves single delays by as much, and the mean with
	# them.  Exp(b)'s median is b ln 2; the continuation adds between 0
	# and floor; the sample median's standard error is 1 / (2 f(m) sqrt(n))
	# = b / sqrt(n) (f(m) = 1 / (2 b), the density at the median).
	b = mean - floor
	med = nd ? ds[int(nd / 2) + 1] : 0
	s = nd ? b / root(nd) : 0
	lo = b * 0.693147 - 4 * s; hi = b * 0.693147 + floor + 4 * s
	# And the share of delays shorter than b / 4, which a shift of the
	# delays by d > b / 4 takes to 0 (the median moves by d only):
	# P(Exp(b) + c < b / 4), c in [0, floor], between 1 - exp(-(b / 4 -
	# floor) / b) and 1 - exp(-1/4) = 0.2212; binomial sigma.
	for (i = 1; i <= nd; i++) if (dl[i] < b / 4) nq++
	fq = nd ? nq / nd : 0
	qlo = 1 - ex(-(b / 4 - floor) / b); qhi = 0.221199
	sq4 = nd ? 4 * root(qhi * (1 - qhi) / nd) : 1
	printf "# %s: %d resumes (arms by hrtimer_start), %d expired, %d cancelled first; %d re-arms in the callback\n", \
		label, nd, nl, cancelled, rearms + 0
	if (nl)
		printf "# %s: resumed samples late by p50 %.0f us, p90 %.0f us, max %.0f us; clockevent programmed at or before the expiry: %d of %d\n", \
			label, quant(0.5) / 1e3, quant(0.9) / 1e3, srt[nl] / 1e3, nok, nl
	if (nd)
		printf "# %s: resume delays: median %.0f us (the law: %.0f..%.0f us, 4 sigma %.0f us); p10 %.0f, p90 %.0f us\n", \
			label, med / 1e3, b * 0.693147 / 1e3, (b * 0.693147 + floor) / 1e3, 4 * s / 1e3, \
			ds[int(nd * 0.1) + 1] / 1e3, ds[int(nd * 0.9) + 1] / 1e3
	if (nd)
		printf "# %s: resume delays under %.0f us: %.1f%% (the law: %.1f..%.1f%%, 4 sigma %.1f%%)\n", \
			label, b / 4e3, 100 * fq, 100 * qlo, 100 * qhi, 100 * sq4
	if (lost) print "# the trace lost events"
	print (nl >= minn && nok == nl) " " (nd >= minn && med >= lo && med <= hi && fq >= qlo - sq4 && fq <= qhi + sq4) " " (lost + 0)
}
