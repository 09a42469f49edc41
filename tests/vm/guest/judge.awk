# judge.awk: helpers for the pass criteria, run over a delta.awk output.
# A test's awk program is appended: it computes, prints "# " diagnostics
# and ends with verdict(cond), which prints PASS or FAIL.
{ d[$1] = $2 }
function g(k) {
	if (!(k in d)) { missing = missing " " k; return 0 }
	return d[k] + 0
}
function el(c) { return g("sampler." c ".elapsed_ns") }
function nsamp(c) { return g("sampler." c ".samples") }
# Callbacks: samples less the expiries counted as samples in a later one.
function ncb(c,  k) { k = nsamp(c) - g("sampler." c ".overruns"); return k > 0 ? k : 1 }
# The count estimator over the window (estimator.c): class k's time is
# its share of the window's samples times the window's sampled time, plus
# what was charged to it exactly (steal; a dormant CPU's idle and iowait;
# every class of a CPU in mode exact).
function ns(c, cls) {
	return (nsamp(c) > 0 ? g("n." c "." cls) / nsamp(c) * g("sampler." c ".sampled_ns") : 0) + g("x." c "." cls)
}
function share(c, cls) { return el(c) > 0 ? ns(c, cls) / el(c) : 0 }
# /proc/stat's share of CLASS on c over the wall time of the window.
function sshare(c, cls) { return g("stat." c "." cls) * 1e9 / g("user_hz") / g("wall") }
# /proc/stat's busy share of c: the sum of its busy classes (its idle is
# the exact NO_HZ sleep time, so 1 - idle would not do).
function sbusy(c,  b, i, k) {
	split("user nice system irq softirq steal", b)
	for (i = 1; i <= 6; i++) k += sshare(c, b[i])
	return k
}
# The standard error of a share estimated from n samples: binomial.  On a
# CPU that was partly dormant the samples estimate only the sampled part
# S of the elapsed time E; the share's error is then (S/E) sqrt(p_s (1 -
# p_s) / n), p_s = q E/S, which is sqrt(q (S/E - q) / n) <= sigma(q, n):
# sigma(q, n) bounds it.  (With
# the exponential law the sample times are a Poisson process, and given
# their number they fall independently and uniformly in the window; the
# uniform law's more regular times give at most this variance for the
# workloads here, which are not in phase with it.)
# No sample: 0, so that a test of a CPU that had to be sampled cannot
# pass on none (with 1, 4 sigma was 400 points); where a dormant CPU may
# rightly have none, dsigma().
function sigma(p, n) { return n > 0 ? root(p * (1 - p) / n) : 0 }
# dsigma(p, n): sigma for a sampled part that may hold no sample (a
# dormant CPU's, scaled by that part): with none, all of it in doubt.
function dsigma(p, n) { return n > 0 ? sigma(p, n) : 1 }
# The part of c's elapsed time its samples cover (the rest was exact).
function sf(c) { return el(c) > 0 ? g("sampler." c ".sampled_ns") / el(c) : 0 }
# The standard error of a busy share q of c, from the sampled part f
# alone: f sqrt(p_s (1 - p_s) / n), p_s = q / f the sampled part's busy
# share (at most 1: busy time is never dormant).  f is the module's word:
# taken at most 1, so that it can only narrow sigma below the plain
# binomial one.  No sample at all: the sampled part was charged to no
# class, so the error is at most f; 4 sigma is taken as f.
function ssigma(c, q,  n, f, p) {
	n = nsamp(c); f = sf(c); if (f > 1) f = 1
	p = f > 0 ? q / f : 0; if (p > 1) p = 1
	return n > 0 ? f * root(p * (1 - p) / n) : f / 4
}
# busybox awk here has no libm (no sqrt, no ^): Newton's method, and sq().
function sq(x) { return x * x }
function root(x,  r, i) {
	if (x <= 0) return 0
	r = x > 1 ? x : 1
	for (i = 0; i < 60; i++) r = (r + x / r) / 2
	return r
}
# The law's mean interval.
function lmean() { return g("law") ? (g("tmin") + g("tmax")) / 2 : g("mean") }
# The window's ends: elapsed_ns grows in whole intervals, so the sampled
# window and the snapshot window differ by the time since the last
# expiry at each end.  Uniform: each is < tmax.  Exponential: each is at
# most floor + Exp(mean - floor), and their difference exceeds
# floor + 11 (mean - floor) with probability < 2 e^-11 = 3.3e-5 (4 sigma's
# worth).
function edge_ns() { return g("law") ? 2 * g("tmax") : g("floor") + 11 * (g("mean") - g("floor")) }
# An idle CPU's idle+iowait share q (/proc/stat's, exact under NO_HZ; it
# leaves out the time in interrupts, as randstat does on a dormant CPU,
# which charges that as irq): how far randstat's may be from it.  The
# sampled part's error (4 sigma), a 10 ms tick at the window's ends, and
# the hardirq time of a CPU that is sampling, not dormant: a sample due in
# a handler is taken as it returns, and charged to the idle it returns
# to.  1/64, the busy check's allowance, bounds that: 1.15-1.34% seen on
# 6.1-rt, whose every tick wakes a thread, so that a CPU resumes and stops
# 250 times a second and samples part of its idle time (the rule before, a
# dormant span's interrupt time charged as idle, had given 98.79% against
# 91.47% there).
# (sf(), the sampled part, is the module's word: taken at most 1, so that
# it can only narrow the tolerance.)
function sleep_tol(c, q,  f) { f = sf(c); if (f > 1) f = 1; return 1 / 64 + 4 * f * dsigma(q, nsamp(c)) + 1e7 / g("wall") }
function pct(x) { return sprintf("%.2f%%", 100 * x) }
# idle_exact(label): every CPU's idle+iowait against /proc/stat's within
# sleep_tol(), a "# LABELcpuN: ..." line each; 1 if one is outside.
function idle_exact(label,  i, c, p, q, tol, bad) {
	for (i = 0; i < g("ncpu"); i++) {
		c = "cpu" i
		p = share(c, "idle") + share(c, "iowait"); q = sshare(c, "idle") + sshare(c, "iowait")
		tol = sleep_tol(c, q)
		printf "# %s%s: idle+iowait randstat %s, /proc/stat %s, tolerance %s; irq %s, softirq %s; n %d\n", \
			label, c, pct(p), pct(q), pct(tol), pct(share(c, "irq")), pct(share(c, "softirq")), nsamp(c)
		if (sq(p - q) > sq(tol)) bad = 1
	}
	return bad + 0
}
function ms(x) { return sprintf("%.1fms", x / 1e6) }
# One line with every class of c, as randstat measured it.
function classes(c,  i, s, k) {
	split("user nice system idle iowait irq softirq steal", k)
	s = "# " c ":"
	for (i = 1; i <= 8; i++)
		s = s " " k[i] " " pct(share(c, k[i]))
	print s " (n=" nsamp(c) ", overruns " g("sampler." c ".overruns") ", mean lateness " \
		sprintf("%.0f", g("sampler." c ".late_ns") / ncb(c) / 1e3) \
		"us, elapsed " ms(el(c)) ", wall " ms(g("wall")) ")"
}
function stat_classes(c,  i, s, k) {
	split("user nice system idle iowait irq softirq steal", k)
	s = "# " c " /proc/stat:"
	for (i = 1; i <= 8; i++)
		s = s " " k[i] " " pct(sshare(c, k[i]))
	print s
}
function verdict(ok) {
	if (missing != "") { print "# missing figures:" missing; ok = 0 }
	print ok ? "PASS" : "FAIL"
}
