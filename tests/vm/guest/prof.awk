# prof.awk: count a profile's samples of tests/progs/twofn in f, g and
# elsewhere, from `perf script --ns` text (perf record -k mono -a -g).
#
#   awk -v start=S -v wall=W -v period=P [-v cpu=1] -f prof.awk FILE
#
# S, W and P are twofn's start_ns, wall_ns and period_ns (CLOCK_MONOTONIC,
# as perf's -k mono timestamps).  An event weighs its samples= field when
# it has one (randstat:sample: the expiries it counts), else 1.  Of the
# events on CPU cpu whose time lies in [S, S + W): n, and those of twofn
# whose callchain holds f (nf), g (ng) or neither (nt); their phases in
# the cycle, (t - S) mod P, in 8 bins (ph0..ph7).  Over all events of
# twofn, wherever they are, and each event once, whatever its samples=:
# af and ag (what a flame graph of the whole file shows).  Prints "key
# value" lines.
function flush(   w, b) {
	if (!have) return
	w = wt
	if (tw && fn == "f") af++
	if (tw && fn == "g") ag++
	if (ecpu == cpu && t >= start && t < start + wall) {
		n += w
		if (tw) {
			if (fn == "f") nf += w
			else if (fn == "g") ng += w
			else nt += w
		}
		b = int(((t - start) % period) * 8 / period)
		ph[b] += w
	}
	have = 0
}
BEGIN { if (cpu == "") cpu = 1; n = nf = ng = nt = af = ag = 0 }
/^[^ \t]/ {
	flush()
	if (!match($0, /\[[0-9]+\] +[0-9]+\.[0-9]+:/)) next
	s = substr($0, RSTART, RLENGTH)
	ecpu = substr(s, 2, index(s, "]") - 2) + 0
	sub(/^\[[0-9]+\] +/, "", s)
	sub(/:$/, "", s)
	split(s, tp, ".")
	# seconds and nanoseconds (--ns: nine digits) to ns
	t = tp[1] * 1000000000 + tp[2]
	tw = ($1 == "twofn")
	wt = 1
	if (match($0, / samples=[0-9]+/)) wt = substr($0, RSTART + 9, RLENGTH - 9) + 0
	fn = ""
	have = 1
	next
}
# Callchain lines: "<addr> <sym>+0x<off> (<dso>)"; the first of f or g
# found names the sample (f and g do not call each other).
have && fn == "" && /^[ \t]+[0-9a-f]+ f(\+0x[0-9a-f]+)? \(/ { fn = "f" }
have && fn == "" && /^[ \t]+[0-9a-f]+ g(\+0x[0-9a-f]+)? \(/ { fn = "g" }
END {
	flush()
	printf "n %d\nnf %d\nng %d\nnt %d\naf %d\nag %d\n", n, nf, ng, nt, af, ag
	for (i = 0; i < 8; i++) printf "ph%d %d\n", i, ph[i]
}
