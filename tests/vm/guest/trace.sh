# shellcheck shell=sh
# trace: the randstat:sample trace event (module/randstat_trace.h), read
# through each of its consumers: tracefs's format file, the ftrace text
# interface, perf record -g / perf script, trace-cmd, and bpftrace.  The
# tools are Debian's (linux-perf, trace-cmd, bpftrace), with their
# libraries, in this boot's initramfs only (tests/vm/initramfs.sh).
# Workloads run pinned to cpu1 (tests/progs/spin: user mode, its loop in
# spin_loop(); sysloop read: 64 KiB reads of /dev/zero, system time); the
# harness and the tools stay on cpu0.
#
# Statistics, as in main.sh: a share p of a workload's n events has the
# standard error sqrt(p(1-p)/n); "at least P0" fails only more than
# 4 sigma(P0) below P0.  Counts and sums of weights: see each test.
# shellcheck source=tests/vm/guest/lib.sh
. /tests/lib.sh
ktap_begin 19
dmesg -c >/dev/null

TR=/sys/kernel/tracing
EV=$TR/events/randstat/sample
export HOME=/tmp		# perf's build-id cache, bpftrace's
export PATH="$PATH:/usr/bin"	# the tools
mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
mount -t tracefs nodev "$TR" 2>/dev/null
[ -d "$TR/events" ] || diag "no tracefs at $TR"

load_randstat
MEAN=$(param mean_ns)
# One boot of five hung here, the suite's shell in a soft lockup on cpu0
# from the first "echo 1 > .../enable" on; init makes a soft lockup panic
# the guest at once: from here on its warnings are shown too, so that
# both CPUs' stacks reach the console (init shows only emergencies, so as
# not to break up the KTAP).
dmesg -n 5

# took WHAT: how long since the last took (uptime), as a diagnostic.
_t0=$(cut -d' ' -f1 /proc/uptime)
took() {
	_t1=$(cut -d' ' -f1 /proc/uptime)
	diag "$1 took $(awk -v a="$_t0" -v b="$_t1" 'BEGIN { printf "%.1f", b - a }') s"
	_t0=$_t1
}

# ev_judge TAG FILE [awk -v VAR=VALUE...]: tpev.awk over FILE; its checks
# as results, its diagnostics printed.
ev_judge() {
	_tag=$1 _f=$2
	shift 2
	awk -v tag="$_tag" "$@" -f /tests/tpev.awk "$_f" >/tmp/tpev.out 2>&1
	_st=$?
	grep -v '^R ' /tmp/tpev.out | sed 's/^\([^#]\)/# awk: \1/'
	[ "$_st" -eq 0 ] || result 1 "$_tag: tpev.awk ran to the end"
	grep '^R ' /tmp/tpev.out >/tmp/tpev.r
	while read -r _r _st _name; do
		result "$_st" "$_name"
	done </tmp/tpev.r
}

# tool NAME: is /usr/bin/NAME in this initramfs?  Else a skip is no
# pass: the test fails, naming the package.
tool() {
	[ -x "/usr/bin/$1" ] && return 0
	diag "/usr/bin/$1 is not in the initramfs: apt-get install $2 on the host (tests/deps.sh)"
	return 1
}

# --- (a) the event and its format ---------------------------------------------
# The fields and their types, as tracefs describes them to every consumer.
if [ -r "$EV/format" ]; then
	sed -n 's/^\tfield:/#   field:/p' "$EV/format"
	grep -q '^name: sample$' "$EV/format"
	_st=$?
	for f in 'int cpu' 'pid_t pid' 'pid_t tgid' 'char comm\[16\]' 'char class\[12\]' \
		'u32 samples' 'u64 weight_ns'; do
		grep -q "field:$f;" "$EV/format" || { diag "no field '$f'"; _st=1; }
	done
	result $_st "randstat:sample is in tracefs with cpu, pid, tgid, comm, class, samples, weight_ns"
else
	find "$TR/events" -maxdepth 1 2>&1 | head -n 5 | sed 's/^/# events: /'
	result 1 "randstat:sample is in tracefs with cpu, pid, tgid, comm, class, samples, weight_ns"
fi

# --- (b) the ftrace text interface -----------------------------------------------
# ftrace_run NAME COMM CMD...: CMD (whose comm is COMM) run in the background with randstat:sample
# enabled in the top-level buffer; its pid in $wpid, its output in
# /tmp/wl.out, the trace in /tmp/ft.NAME.
ftrace_run() {
	_n=$1 _c=$2
	shift 2
	echo 0 >"$TR/tracing_on"
	echo >"$TR/trace"
	echo 1 >"$EV/enable"
	echo 1 >"$TR/tracing_on"
	"$@" >/tmp/wl.out 2>&1 &
	wpid=$!
	wait $wpid
	echo 0 >"$TR/tracing_on"
	echo 0 >"$EV/enable"
	cat "$TR/trace" >"/tmp/ft.$_n"
	sed 's/^/# /' /tmp/wl.out
	diag "$(grep -c 'sample: *cpu=' "/tmp/ft.$_n") events; e.g.: $(grep -m 1 "comm=$_c " "/tmp/ft.$_n" | sed 's/^ *//')"
}
# user spin: every check of tpev.awk.  The sum of the weights of spin's
# events estimates its CPU time (the scheduler's exact runtime over its
# loop, which also holds the interrupts taken in its context).  Its
# standard deviation: the class split, sqrt(q(1-q) n E[w^2]) with q the
# spinner's share of wall time and E[w^2] ~ 2 mean_ns^2 for exponential
# intervals, and the two ends of the run, where the interval that holds
# the start or the end is charged whole to one side (one backward
# recurrence time each, sd ~ mean_ns): sd = sqrt(2 q(1-q) n mean^2 +
# 2 mean^2): for a spinner (q near 1) about 6 ms, whatever the length of
# the run.  Tolerance 4 sd.
ftrace_run spin spin taskset -c 1 /progs/spin "$SECS"
ev_judge "ftrace, user spin on cpu1" /tmp/ft.spin -v comm=spin -v pid="$wpid" -v pin=1 \
	-v cls=user -v cpu_ns="$(wlval cpu_ns)" -v wall_ns="$(wlval wall_ns)" -v mean_ns="$MEAN" \
		-v proc_cpu_ns="$(wlval proc_cpu_ns)"
# system: 64 KiB reads of /dev/zero, the kernel's time in the syscall's
# body with interrupts on (main.sh says why not getppid()): at least half
# system, and user + system at least 90%.
ftrace_run sysread sysloop taskset -c 1 /progs/sysloop "$SECS" read
ev_judge "ftrace, sysloop read on cpu1" /tmp/ft.sysread -v comm=sysloop -v pid="$wpid" -v pin=1 \
	-v cls=system -v min=0.5 -v both=user

# --- (c) perf record -g, perf script -------------------------------------------------
# Callchains of the interrupted context: the kernel's, from the event
# (randstat_timer_fn, in the hrtimer interrupt), then the user stack of
# the task it interrupted (spin is built with frame pointers: spin_loop
# <- main).  Every spin event must show the two kernel frames; of its
# user-class events, at least 90% (4 sigma) the user frames (a sample in
# clock_gettime()'s vDSO, every 2^16 iterations, may not).  The events'
# fields as in (b).
# perf names a module's functions from its .ko under /lib/modules/VER,
# where randstat-dkms installs it (updates/dkms); so the module is put
# there.  Without it perf falls back to /proc/kallsyms, but only after
# its first lookup in [randstat] has failed: the first event of each
# recording showed "[unknown] ([randstat])" (6 recordings of 6; none of
# 7 with the .ko in place), and this check failed whenever that event
# was spin's.  The count of unnamed frames is printed.
took "(a) and (b)"
if tool perf linux-perf; then
	mkdir -p "/lib/modules/$(uname -r)/updates/dkms"
	cp /randstat.ko "/lib/modules/$(uname -r)/updates/dkms/"
	perf record -q -e randstat:sample -a -g -o /tmp/perf.data -- \
		taskset -c 1 /progs/spin "$SECS" >/tmp/wl.out 2>/tmp/perf.err
	_st=$?
	took "perf record"
	perf script -i /tmp/perf.data >/tmp/perf.txt 2>>/tmp/perf.err || _st=1
	took "perf script"
	sed 's/^/# /' /tmp/wl.out
	[ "$_st" -eq 0 ] || sed 's/^/# perf: /' /tmp/perf.err | head -n 20
	diag "perf script: $(grep -c 'sample: *cpu=' /tmp/perf.txt) events, $(grep -c 'unknown] (\[randstat\])' /tmp/perf.txt) frames in randstat left unnamed"
	diag "perf script, the first spin event:"
	awk '/comm=spin / { p = 1 } p { print "#   " $0 } p && /^$/ { exit }' /tmp/perf.txt
	ev_judge "perf script, user spin on cpu1" /tmp/perf.txt -v comm=spin -v pin=1 -v cls=user
	awk "$(sed -n '/^function root/,/^}/p' /tests/tpev.awk)"'
		/sample: +cpu=/ { sp = / comm=spin /; us = / class=user /; if (sp) n++; if (sp && us) nu++; k = u = 0; next }
		/^$/ { sp = 0; next }
		sp && / randstat_timer_fn\+/ { if (!(k % 2)) k += 1 }
		sp && / __hrtimer_run_queues\+/ { if (k < 2) k += 2 }
		sp && us && / spin_loop\+/ { if (!(u % 2)) u += 1 }
		sp && us && / main\+/ { if (u < 2) u += 2 }
		sp && k == 3 { kk[n] = 1 }
		sp && us && u == 3 { uu[n] = 1 }
		END {
			for (i in kk) nk++
			for (i in uu) nuu++
			p = nu ? nuu / nu : 0; lim = 0.9 - 4 * root(0.09 / (nu ? nu : 1))
			printf "# perf: %d spin events, %d with randstat_timer_fn and __hrtimer_run_queues; %d user-class, %d (%.1f%%, limit %.1f%%) with spin_loop and main\n", n, nk, nu, nuu, 100 * p, 100 * lim
			exit !(n >= 10 && nk == n && nu >= 10 && p >= lim)
		}' /tmp/perf.txt
	result $? "perf script: spin's callchains hold randstat_timer_fn, __hrtimer_run_queues, spin_loop and main"
else
	result 1 "perf record -e randstat:sample -a -g: perf in the guest"
fi

# --- (d) trace-cmd record / report ---------------------------------------------------
# The same checks as (b) on trace-cmd report's text, the weights against
# the spinner's CPU time included.
if tool trace-cmd trace-cmd; then
	trace-cmd record -q -e randstat:sample -o /tmp/tc.dat \
		taskset -c 1 /progs/spin "$SECS" >/tmp/wl.out 2>/tmp/tc.err
	_st=$?
	took "trace-cmd record"
	trace-cmd report -i /tmp/tc.dat >/tmp/tc.txt 2>>/tmp/tc.err || _st=1
	took "trace-cmd report"
	sed 's/^/# /' /tmp/wl.out
	[ "$_st" -eq 0 ] || sed 's/^/# trace-cmd: /' /tmp/tc.err | head -n 20
	diag "trace-cmd report: $(grep -m 1 'comm=spin ' /tmp/tc.txt | sed 's/^ *//')"
	ev_judge "trace-cmd report, user spin on cpu1" /tmp/tc.txt -v comm=spin -v pin=1 \
		-v cls=user -v cpu_ns="$(wlval cpu_ns)" -v wall_ns="$(wlval wall_ns)" -v mean_ns="$MEAN" \
		-v proc_cpu_ns="$(wlval proc_cpu_ns)"
else
	result 1 "trace-cmd record -e randstat:sample: trace-cmd in the guest"
fi

# --- (e) bpftrace ---------------------------------------------------------------------
# Per-process counts by class from a one-liner, while ftrace records the
# same events: for spin, bpftrace's counts must equal ftrace's exactly;
# its user share must be >= 90% (4 sigma); and its count of events must
# match its CPU time: a renewal process of intervals with mean m and sd
# s = m - floor_ns counts n ~ t/m events in a time t, sd sqrt(t s^2 / m^3)
# (~27 for 3 s); tolerance 4 sd plus one event at each end.
BT='tracepoint:randstat:sample { @[comm, args->class] = count(); }'
if tool bpftrace bpftrace; then
	diag "bpftrace -e '$BT'"
	echo 0 >"$TR/tracing_on"
	echo >"$TR/trace"
	echo 1 >"$EV/enable"
	echo 1 >"$TR/tracing_on"
	took "the tests before bpftrace"
	bpftrace -e "$BT" -c "/bin/taskset -c 1 /progs/spin $SECS" >/tmp/bt.out 2>/tmp/bt.err
	_st=$?
	took "bpftrace"
	echo 0 >"$TR/tracing_on"
	echo 0 >"$EV/enable"
	cat "$TR/trace" >/tmp/ft.bt
	sed 's/^/# bpftrace: /' /tmp/bt.out /tmp/bt.err | head -n 30
	grep '^spin ' /tmp/bt.out >/tmp/wl.out
	awk '/comm=spin / { for (i = 1; i <= NF; i++) if ($i ~ /^class=/) n[substr($i, 7)]++ }
		END { for (k in n) print "ftrace spin " k " " n[k] }' /tmp/ft.bt >/tmp/bt.cmp
	sed -n 's/^@\[spin, \([a-z_]*\)\]: \([0-9]*\)$/bpftrace spin \1 \2/p' /tmp/bt.out >>/tmp/bt.cmp
	sed 's/^/# /' /tmp/bt.cmp
	awk -v st="$_st" -v cpu="$(wlval cpu_ns)" -v mean="$MEAN" -v floor="$(param floor_ns)" \
		"$(sed -n '/^function root/,/^}/p' /tests/tpev.awk)"'
		$1 == "ftrace" { f[$3] = $4; nf += $4 }
		$1 == "bpftrace" { b[$3] = $4; nb += $4 }
		END {
			same = nb > 0
			for (k in f) same = same && f[k] == b[k]
			for (k in b) same = same && f[k] == b[k]
			s = mean - floor; want = cpu / mean; sd = root(cpu * s * s / (mean * mean * mean))
			p = nb ? b["user"] / nb : 0; lim = 0.9 - 4 * root(0.09 / (nb ? nb : 1))
			printf "# bpftrace: spin %d events (ftrace %d, the same per class: %s), user %.1f%% (limit %.1f%%); its CPU time %.1fms / mean_ns = %.1f expected, tolerance 4 sd + 2 = %.1f\n", nb, nf, same ? "yes" : "no", 100 * p, 100 * lim, cpu / 1e6, want, 4 * sd + 2
			d = nb - want; t = 4 * sd + 2
			exit !(st == 0 && same && p >= lim && d * d <= t * t)
		}' /tmp/bt.cmp
	result $? "bpftrace: per-process counts by class for spin match ftrace's and its CPU time"
else
	result 1 "bpftrace -e 'tracepoint:randstat:sample ...': bpftrace in the guest"
fi

dmesg_clean "no kernel warning in the trace suite"
ktap_end
