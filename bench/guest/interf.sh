# shellcheck shell=sh
# The benchmark's interference experiment (the paper's section 5.1 and
# figure 2, on Linux): its own boot, run by bench/run.sh as the suite
# "interf" (tests/vm's init runs /tests/interf.sh).  Raw records only;
# bench/analyze.py does the statistics.
#
# A user-only program whose work is known (bench/progs/work: its child
# counts loop iterations on cpu1 and never enters the kernel on its own;
# its parent, on cpu0, reads the count and the child's utime, stime and
# runtime every 250 ms) runs while a UDP flood over loopback
# (tests/progs/udpflood, sender and receiver pinned to cpu0) keeps NET_RX
# busy.  Every second the parent switches lo's RPS map
# (rx-0/rps_cpus): 0, the softirq work stays on cpu0 (no interference);
# 2, it runs on cpu1, in the interrupts of the program (interference).
# cpu0 is as busy in both phases, and the phases alternate, so that the
# emulator's speed, which drifts with the host's load by tens of percent
# over seconds, falls alike on both: the phases without interference
# calibrate the time per iteration for the phases with it.
#
# Debian's 6.1 has no IRQ_TIME_ACCOUNTING: a tick that lands in softirq
# adds its time to the interrupted task's stime, so the kernel charges the
# program system time it never used.  randstat classes such a sample
# softirq, not system.
#
# Records:
#   G j J t_ns T iters I utime U stime S rt_ns RT netrx0 A netrx1 B rps P
#     n N ts TS nu NU ns NS nsi NSI nirq NIRQ noth NOTH wu WU ws WS wsi WSI
#       reading J of bench/progs/work (see there; P is the phase since
#       the reading before) and the randstat:sample events of cpu1 in
#       that span: N samples (the events' samples fields) and TS ns (their
#       weight_ns) in all, and the program's: its samples in user,
#       system, softirq, irq and any other class, and the weight_ns of
#       the first three; si_ns and hi_ns: the exact time cpu1 spent in
#       softirq and in hardirq handlers while the program was current
#       (tracepoints, below); late_u, late_si: the summed lateness of
#       the program's user and softirq samples (each sample's time less
#       the expiry the sampler had armed, from timer:hrtimer_start);
#       nin: its softirq sample events taken between a softirq_entry and
#       its exit; nipi those whose timer interrupt came within 100 us of
#       the end of an IPI (call_function*_exit), din the summed gaps
#   X k v ...   the run: secs, pid (the program's child), nksi
#       (ksoftirqd/1's samples), nall (all cpu1 samples in the trace),
#       stat1_CLASS (cpu1's /proc/stat over the run, USER_HZ ticks),
#       sent/received (the flood's datagrams), clk_tck (USER_HZ)
#   C pair I off NS N on NS N
#       randstat cgroup's cost: pair I's mean sampler cost per sample on
#       cpu1 (NS) over N samples, without and with its BPF program
#   I ..., E ...  information, what went wrong
T=/sys/kernel/tracing
RPS=/sys/class/net/lo/queues/rx-0/rps_cpus
S=${interf_secs:-16}
echo "I interf secs $S"

insmod /randstat.ko || { echo "E insmod failed"; exit 1; }
mount -t tracefs nodev "$T" 2>/dev/null
[ -w "$RPS" ] || { echo "E no $RPS (a kernel without RPS?)"; exit 1; }
[ -d "$T/events/randstat/sample" ] || { echo "E no randstat:sample event"; exit 1; }
sleep 0.5
echo 0 >"$T/tracing_on"
echo mono >"$T/trace_clock"
echo 2 >"$T/tracing_cpumask"
echo 16384 >"$T/buffer_size_kb"
echo 1 >"$T/events/randstat/sample/enable"
echo 1 >"$T/events/irq/softirq_entry/enable"
echo 1 >"$T/events/irq/softirq_exit/enable"
echo 1 >"$T/events/irq/irq_handler_entry/enable"
echo 1 >"$T/events/irq/irq_handler_exit/enable"
echo 1 >"$T/events/timer/hrtimer_start/enable"
for e in "$T"/events/irq_vectors/*_entry "$T"/events/irq_vectors/*_exit; do
	echo 1 >"$e/enable"
done

stat1() { awk '$1 == "cpu1" { split("user nice system idle iowait irq softirq steal", c, " ")
	for (i = 1; i <= 8; i++) print "stat1_" c[i], $(i + 1) }' /proc/stat; }

echo 0 >"$RPS"
taskset -c 0 /progs/udpflood $((S + 2)) >/tmp/flood.out 2>&1 &
fl=$!
sleep 0.5
echo >"$T/trace"
echo 1 >"$T/tracing_on"
stat1 >/tmp/stat.a
taskset -c 0 /progs/work "$S" 250 1000 "$RPS" >/tmp/work.out 2>/tmp/work.err
st=$?
stat1 >/tmp/stat.b
echo 0 >"$T/tracing_on"
wait $fl
[ $st -eq 0 ] || { echo "E work failed: $(cat /tmp/work.err)"; exit 1; }
pid=$(awk '$1 == "work" { print $3 }' /tmp/work.out)

# The readings, each with the events since the one before (the trace
# clock is CLOCK_MONOTONIC, as the readings' t_ns).  Besides the samples,
# the exact time cpu1 spent in softirq and in hardirq handlers while the
# program was current: softirq_entry to softirq_exit less the hardirqs
# nested in it, and each hardirq's entry to exit (irq_vectors' *_entry
# and *_exit, irq_handler_entry and _exit).
awk -v pid="$pid" 'FNR == NR {
	if ($1 == "W") { m++; t[m] = $3; line[m] = $0 }
	j = 1
	next
}
{
	# "COMM-PID [001] FLAGS SECONDS: EVENT: FIELDS"
	c = 1
	while (c <= NF && $c !~ /^\[[0-9]+\]$/) c++
	if (c > NF || c < 2) next
	hp = $(c - 1); sub(/^.*-/, "", hp)
	i = c + 1
	while (i <= NF && $i !~ /^[0-9]+\.[0-9]+:$/) i++
	if (i >= NF) next
	ts = $i; sub(/:$/, "", ts); ts = ts * 1e9
	ev = $(i + 1)
	while (j <= m && t[j] < ts) j++
	inside = j > 1 && j <= m
	if (ev == "softirq_entry:") { s0 = ts; insi = 1; shi = 0; next }
	if (ev == "softirq_exit:") {
		if (insi && hp == pid && inside) si[j] += ts - s0 - shi
		insi = 0
		next
	}
	if (ev ~ /_entry:$/) {
		# the hardirq before this one, and the gap since it ended
		pname = xname; pgap = ts - xt
		h0 = ts; hin = 1; hname = ev
		next
	}
	if (ev ~ /_exit:$/) {
		if (hin) {
			if (insi) shi += ts - h0
			if (hp == pid && inside) hi[j] += ts - h0
		}
		hin = 0; xname = hname; xt = ts
		next
	}
	if (ev == "hrtimer_start:") {
		# the next expiry of the sampler (CLOCK_MONOTONIC ns)
		if ($0 ~ /function=randstat_timer_fn/)
			for (k = i + 2; k <= NF; k++) if ($k ~ /^expires=/) { rexp = substr($k, 9); break }
		next
	}
	if (ev != "sample:") next
	fp = fk = fm = ""; fs = fw = 0
	for (i += 2; i <= NF; i++) {
		e = index($i, "="); if (e < 2) continue
		k = substr($i, 1, e - 1); v = substr($i, e + 1)
		if (k == "cpu" && v != 1) next
		if (k == "pid") fp = v; else if (k == "class") fk = v
		else if (k == "samples") fs = v; else if (k == "weight_ns") fw = v
		else if (k == "comm") fm = v
	}
	nall += fs
	if (fm == "ksoftirqd/1") nksi += fs
	if (!inside) next
	n[j] += fs; tw[j] += fw
	if (fp != pid) next
	late = rexp != "" ? ts - rexp : 0
	if (fk == "user") { nu[j] += fs; wu[j] += fw; lu[j] += late }
	else if (fk == "system") { ns[j] += fs; ws[j] += fw }
	else if (fk == "softirq") {
		nsi[j] += fs; wsi[j] += fw; lsi[j] += late
		# where: inside a softirq action (softirq_entry to _exit),
		# or in a timer interrupt that came within 100 us of the end
		# of an IPI (RPS sends them; irq_exit() then runs the softirq
		# with interrupts on, before its first softirq_entry)
		if (insi) nin[j]++
		if (pname ~ /^call_function/ && pgap < 100000) { nipi[j]++; din[j] += pgap }
	}
	else if (fk == "irq") nirq[j] += fs
	else noth[j] += fs
}
END {
	for (j = 1; j <= m; j++) {
		sub(/^W /, "", line[j])
		printf "G j %d %s n %d ts %.0f nu %d ns %d nsi %d nirq %d noth %d wu %.0f ws %.0f wsi %.0f si_ns %.0f hi_ns %.0f late_u %.0f late_si %.0f nin %d din %.0f nipi %d\n",
			j - 1, line[j], n[j], tw[j], nu[j], ns[j], nsi[j], nirq[j], noth[j], wu[j], ws[j], wsi[j], si[j], hi[j], lu[j], lsi[j], nin[j], din[j], nipi[j]
	}
	print "nksi " nksi + 0 >"/tmp/ev"
	print "nall " nall + 0 >"/tmp/ev"
}' /tmp/work.out "$T/trace"
awk -v s="$S" -v pid="$pid" 'FNR == 1 { f++ }
	f == 1 { a[$1] = $2; next }
	f == 2 { d = d " " $1 " " ($2 - a[$1]); next }
	f == 3 { d = d " " $1 " " $2; next }
	$1 == "udpflood" && $2 == "sent" { d = d " sent " $3 " received " $5 }
	$1 == "work" && $4 == "clk_tck" { d = d " clk_tck " $5 }
	END { print "X secs " s " pid " pid d }' /tmp/stat.a /tmp/stat.b /tmp/ev /tmp/flood.out /tmp/work.out

# randstat cgroup's cost per sample (issue 25): the sampler's mean cost
# on a busy cpu1 (cost_ns over samples less overruns: the callback, in
# which the tracepoint and so the BPF program runs), in CG_PAIRS pairs of
# CG_SECS s without and with the program attached (its reader on cpu0),
# the order alternating so that the emulator's drift falls on both.  The
# trace events are off first: their probe would be in both.
echo 0 >"$T/events/enable"
CG_SECS=${interf_cg_secs:-3}
CG_PAIRS=${interf_cg_pairs:-6}
RC=/progs/randstat-cgroup
cost1() { awk '$1 == "sampler" && $2 == "cpu1" { for (i = 3; i < NF; i++) v[$i] = $(i + 1); print v["cost_ns"], v["samples"] - v["overruns"] }' /proc/randstat_detail; }
# cgrun ON: one run; prints "NS N", the cost per sample and the samples.
cgrun() {
	if [ "$1" = 1 ]; then
		taskset -c 0 $RC "$((CG_SECS + 2))" 1 >/dev/null 2>/tmp/cg.err &
		rc=$!
		sleep 1
	fi
	a=$(cost1)
	sleep "$CG_SECS"
	b=$(cost1)
	if [ "$1" = 1 ]; then
		wait "$rc" || echo "E randstat cgroup failed: $(cat /tmp/cg.err)"
	fi
	echo "$a $b" | awk '{ printf "%.1f %d", ($3 - $1) / ($4 - $2), $4 - $2 }'
}
[ -e /sys/fs/cgroup/cgroup.procs ] || mount -t cgroup2 none /sys/fs/cgroup 2>/dev/null
if [ -x "$RC" ] && [ -e /sys/fs/cgroup/cgroup.procs ]; then
	taskset -c 1 /progs/spin $(((2 * CG_SECS + 3) * CG_PAIRS + 5)) >/dev/null &
	sp=$!
	i=0
	while [ $i -lt "$CG_PAIRS" ]; do
		i=$((i + 1))
		if [ $((i % 2)) -eq 1 ]; then
			off=$(cgrun 0); on=$(cgrun 1)
		else
			on=$(cgrun 1); off=$(cgrun 0)
		fi
		echo "C pair $i off $off on $on"
	done
	kill $sp
	wait $sp 2>/dev/null
else
	echo "E no $RC or no cgroup v2: no cost per sample of randstat cgroup"
fi
echo "I done"
