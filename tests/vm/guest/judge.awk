# judge.awk: helpers for the pass criteria, run over a delta.awk output.
# A test's awk program is appended: it computes, prints "# " diagnostics
# and ends with verdict(cond), which prints PASS or FAIL.
{ d[$1] = $2 }
function g(k) {
	if (!(k in d)) { missing = missing " " k; return 0 }
	return d[k] + 0
}
function el(c) { return g("sampler." c ".elapsed_ns") }
function ns(c, cls) { return g("ns." c "." cls) }
function nsamp(c) { return g("sampler." c ".samples") }
function share(c, cls) { return el(c) > 0 ? ns(c, cls) / el(c) : 0 }
# /proc/stat's share of CLASS on c over the wall time of the window.
function sshare(c, cls) { return g("stat." c "." cls) * 1e9 / g("user_hz") / g("wall") }
# The standard error of a share estimated from n samples.  Each sample is
# charged the interval before it (uniform on [tmin, tmax]), so the ns-
# weighted share has variance p(1-p)/n * E[L^2]/E[L]^2 = p(1-p)/n *
# (1 + cv^2), cv^2 = (tmax-tmin)^2 / (3 (tmax+tmin)^2): 1.083 by default.
function cv2f(  a, b) {
	a = g("tmin"); b = g("tmax")
	return 1 + sq(b - a) / (3 * sq(a + b))
}
function sigma(p, n) { return n > 0 ? root(p * (1 - p) * cv2f() / n) : 1 }
# busybox awk here has no libm (no sqrt, no ^): Newton's method, and sq().
function sq(x) { return x * x }
function root(x,  r, i) {
	if (x <= 0) return 0
	r = x > 1 ? x : 1
	for (i = 0; i < 60; i++) r = (r + x / r) / 2
	return r
}
# The window's ends: elapsed_ns grows in whole intervals, so the sampled
# window and the snapshot window differ by < tmax at each end.
function edge_ns() { return 2 * g("tmax") }
function pct(x) { return sprintf("%.2f%%", 100 * x) }
function ms(x) { return sprintf("%.1fms", x / 1e6) }
# One line with every class of c, as randstat measured it.
function classes(c,  i, s, k) {
	split("user nice system idle iowait irq softirq steal", k)
	s = "# " c ":"
	for (i = 1; i <= 8; i++)
		s = s " " k[i] " " pct(share(c, k[i]))
	print s " (n=" nsamp(c) ", overruns " g("sampler." c ".overruns") ", mean lateness " \
		sprintf("%.0f", g("sampler." c ".late_ns") / (nsamp(c) ? nsamp(c) : 1) / 1e3) \
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
