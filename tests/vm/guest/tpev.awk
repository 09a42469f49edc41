# randstat:sample events in ftrace's text form (the trace file, trace-cmd
# report, perf script's header lines: "... [CPU] ... sample: cpu=C pid=P
# tgid=G comm=X class=K samples=S weight_ns=W"), judged for one workload
# (trace.sh).  Prints "# " diagnostics, "R STATUS NAME" for each check
# (STATUS 0 is ok).
#
#   -v tag=NAME      the test names' prefix
#   -v comm=spin     the workload's comm
#   -v pid=N         its pid (0: the first one seen, then consistency)
#   -v pin=1         the CPU it is pinned to
#   -v cls=user      the class most of its samples must have: share >=
#                    min (default 0.9) less 4 sigma(min, n)
#   -v both=system   optional: cls + both >= 0.9 less 4 sigma, and the
#                    share of cls is then judged against min
#   -v cpu_ns=N      optional: the workload's CPU time; the weights of all
#                    its events, whatever their class, must add up to it
#                    (it holds its system time and the interrupts taken
#                    in its context too: see trace.sh)
#   -v wall_ns=N -v mean_ns=N   with cpu_ns
#   -v proc_cpu_ns=N optional, with cpu_ns: the process's runtime since
#                    its fork; what it ran before its loop may be in the
#                    weights too (below)
# busybox awk has no libm (no sqrt, no ^): Newton's method, as judge.awk.
function sq(x) { return x * x }
function root(x,  r, i) {
	if (x <= 0) return 0
	r = x > 1 ? x : 1
	for (i = 0; i < 60; i++) r = (r + x / r) / 2
	return r
}
function sigma(p, n) { return n > 0 ? root(p * (1 - p) / n) : 1 }
function pct(x) { return sprintf("%.1f%%", 100 * x) }
function chk(ok, name) { print "R " (ok ? 0 : 1) " " tag ": " name }
BEGIN { if (min == "") min = 0.9 }
/sample: +cpu=/ {
	rcpu = -1
	fc = fp = fg = fm = fk = fs = fw = ""
	for (i = 1; i <= NF; i++) {
		if (rcpu < 0 && $i ~ /^\[[0-9]+\]$/)
			rcpu = substr($i, 2, length($i) - 2) + 0
		e = index($i, "=")
		if (e < 2)
			continue
		k = substr($i, 1, e - 1); v = substr($i, e + 1)
		if (k == "cpu") fc = v
		else if (k == "pid") fp = v
		else if (k == "tgid") fg = v
		else if (k == "comm") fm = v
		else if (k == "class") fk = v
		else if (k == "samples") fs = v
		else if (k == "weight_ns") fw = v
	}
	total++
	if (fc == "" || fp == "" || fg == "" || fm == "" || fk == "" || fs == "" || fw == "") {
		if (unparsed++ < 3) print "# unparsed: " $0
		next
	}
	if (fc + 0 != rcpu) badcpu++
	if (fs + 0 < 1) badsamples++
	if (fm != comm)
		next
	n++
	if (!pid) pid = fp
	if (fp != pid || fg != pid) { if (badpid++ < 3) print "# wrong pid/tgid: " $0 }
	if (fc != pin) { if (badpin++ < 3) print "# off its CPU: " $0 }
	c[fk]++
	w += fw
	s += fs
}
END {
	print "# " total " events, " n " of " comm " (pid " pid "), classes:" \
		(c["user"] ? " user " c["user"] : "") (c["system"] ? " system " c["system"] : "") \
		(n - c["user"] - c["system"] ? " other " n - c["user"] - c["system"] : "") \
		", samples " s ", unparsed " unparsed + 0 ", cpu field != ring buffer CPU " badcpu + 0 \
		", samples < 1 " badsamples + 0 ", wrong pid/tgid " badpid + 0 ", off cpu" pin " " badpin + 0
	chk(total > 0 && !unparsed && !badcpu && !badsamples,
	    "every event parses, its cpu field is the CPU it was recorded on, samples >= 1")
	chk(n >= 10 && !badpid && !badpin,
	    "the " comm " events carry its pid and tgid (" pid ") and cpu " pin)
	p = n ? c[cls] / n : 0
	lim = min - 4 * sigma(min, n)
	print "# " comm ": " cls " " pct(p) " of its " n " events, limit " pct(lim) " (" pct(min) " - 4 sigma)"
	ok = n >= 10 && p >= lim
	name = "its events' class is " cls " (>= " pct(min) ")"
	if (both != "") {
		pb = n ? (c[cls] + c[both]) / n : 0
		lb = 0.9 - 4 * sigma(0.9, n)
		print "# " comm ": " cls " + " both " " pct(pb) ", limit " pct(lb) " (90% - 4 sigma)"
		ok = ok && pb >= lb
		name = name ", " cls " + " both " >= 90%"
	}
	chk(ok, name)
	if (cpu_ns != "") {
		# sd of the sum of weights: the class split, sqrt(q (1 - q) N E[w^2])
		# over the window's N = wall / mean samples (the configured mean,
		# not the events counted, which a wrong count would move), with
		# E[w^2] ~ 2 mean^2 (exponential intervals), and the two edges,
		# one backward recurrence time each, sd ~ mean
		q = wall_ns > 0 ? cpu_ns / wall_ns : 1
		if (q > 1) q = 1
		sd = root(q * (1 - q) * (wall_ns / mean_ns) * 2 * sq(mean_ns) + 2 * sq(mean_ns))
		# The events' comm is the workload's from its exec on, and the
		# first one's weight reaches back to the sampler's resume on the
		# CPU, before the exec: they may carry the process's runtime
		# before its loop (proc_cpu_ns - cpu_ns, the kernel's exact
		# clock, not the module's word), which cpu_ns leaves out.
		pre = proc_cpu_ns != "" && proc_cpu_ns > cpu_ns ? proc_cpu_ns - cpu_ns : 0
		print "# " comm ": weight_ns sum " sprintf("%.1f", w / 1e6) "ms over its " n " events, its CPU time " \
			sprintf("%.1f", cpu_ns / 1e6) "ms (wall " sprintf("%.1f", wall_ns / 1e6) "ms; before its loop " \
			sprintf("%.1f", pre / 1e6) "ms), difference " \
			sprintf("%+.1f", (w - cpu_ns) / 1e6) "ms, tolerance 4 sd = " sprintf("%.1f", 4 * sd / 1e6) "ms"
		chk(n >= 10 && w >= cpu_ns - 4 * sd && w <= cpu_ns + pre + 4 * sd,
			"its events' weight_ns add up to its CPU time")
	}
}
