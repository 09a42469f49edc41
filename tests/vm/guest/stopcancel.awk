# stopcancel.awk: from an ftrace text trace of power:cpu_idle,
# timer:hrtimer_start, timer:hrtimer_cancel and timer:hrtimer_expire_entry
# (timerstop.sh), randstat's timer cancelled inside an idle state, per
# state: "# ..." lines, then the verdict "ENTRIES BAD OK": the entries into
# state STOP seen, randstat's cancels while a CPU was in STOP (after
# tick_broadcast_enter(): none may be), and its cancels in other states
# (the idle-entry stop, which the trace must be able to see).
# An expiry also traces hrtimer_cancel (__run_hrtimer() deactivates the
# timer), followed on that CPU by hrtimer_expire_entry for the same timer:
# that pair is an expiry, not a cancel.
# -v stop=1: the index of the state that stops the local timer.
function cpu_of(  c) {
	if (!match($0, /\[[0-9]+\]/)) return -1
	return substr($0, RSTART + 1, RLENGTH - 2) + 0
}
function field(name,  i) {
	for (i = 1; i <= NF; i++) if (index($i, name "=") == 1) return substr($i, length(name) + 2)
	return ""
}
# settle C: a cancel pending on C that was not an expiry counts now.
function settle(c) {
	if (!(c in pend)) return
	if (pst[c] == stop) bad++
	else if (pst[c] != "") okc++
	delete pend[c]
}
/ hrtimer_start: / { if ($0 ~ /function=randstat_timer_fn/) rs[field("hrtimer")] = 1 }
/ cpu_idle: / {
	c = field("cpu_id") + 0
	settle(c)
	s = field("state")
	if (s == "4294967295") { st[c] = ""; next }
	st[c] = s
	if (s == stop) entries++
	next
}
/ hrtimer_cancel: / {
	c = cpu_of()
	settle(c)
	h = field("hrtimer")
	if (h in rs) { pend[c] = h; pst[c] = st[c] }
	next
}
/ hrtimer_expire_entry: / {
	c = cpu_of()
	if ((c in pend) && pend[c] == field("hrtimer")) delete pend[c]
	settle(c)
	next
}
/^#/ && /entries-in-buffer/ { split($3, e, "/"); lost = e[1] != e[2] }
END {
	for (c in pend) settle(c)
	printf "# trace: %d entries into state %s; randstat's timer cancelled %d times inside it, %d times in another idle state%s\n", \
		entries, stop, bad, okc, lost ? " (events lost)" : ""
	print entries + 0, bad + 0, okc + 0, lost + 0
}
