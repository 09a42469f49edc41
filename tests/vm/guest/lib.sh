# shellcheck shell=sh
# Guest-side helpers for the suites (busybox sh): KTAP output, counter
# snapshots and the pass/fail judgement.  Sourced by /tests/<suite>.sh.

# shellcheck disable=SC2034 # used by the suites
SECS=${randstat_secs:-3}
T=0
RS_WALLLOG=/tmp/wallcheck

PLAN=0
# ktap_begin N: the header and the plan, first.  N is every test the suite
# will print, counted before it runs any (a test a branch does not run is
# skipped, not left out), so the runner (tests/vm/run.sh) fails each test
# of a suite that stopped early, however it stopped.
ktap_begin() {
	PLAN=$1
	echo "KTAP version 1"
	echo "1..$PLAN"
}
# ktap_end: the suite's last word; says if it printed other than its plan.
ktap_end() {
	[ "$T" -eq "$PLAN" ] || diag "printed $T tests of a plan of $PLAN"
}
diag() { echo "# $*"; }
# result STATUS NAME: one KTAP result line (STATUS 0 is ok).
result() {
	T=$((T + 1))
	if [ "$1" -eq 0 ]; then echo "ok $T $2"; else echo "not ok $T $2"; fi
}
skip() { T=$((T + 1)); echo "ok $T $1 # SKIP $2"; }

# AWK_MATH: squares and square roots for busybox's awk, which has no math
# library; put before a program ("$AWK_MATH"'...').
AWK_MATH='function sq(x) { return x * x }
function root(x,  r, i) {
	if (x <= 0) return 0
	r = x > 1 ? x : 1
	for (i = 0; i < 60; i++) r = (r + x / r) / 2
	return r
}
'
# show_file FILE: FILE as KTAP diagnostics.
show_file() { sed 's/^/#   /' "$1"; }
# ok_or_show STATUS NAME FILE: the result; FILE shown if it failed.
ok_or_show() {
	[ "$1" -eq 0 ] || show_file "$3"
	result "$1" "$2"
}

# snap NAME: counters and CLOCK_MONOTONIC, taken from cpu0.
snap() { taskset -c 0 /progs/snap >"/tmp/snap.$1"; }
# delta A B: the change from snapshot A to B into /tmp/delta.
delta() { awk -f /tests/delta.awk "/tmp/snap.$1" "/tmp/snap.$2" >/tmp/delta; }

# judge NAME PROGRAM [awk -v VAR=VALUE ...]: run PROGRAM (an awk END
# block, see judge.awk) over /tmp/delta; print its "# " lines and the
# result.
judge() {
	_name=$1 _prog=$2
	shift 2
	_out=$(awk "$@" "$(cat /tests/judge.awk)
$_prog" /tmp/delta 2>&1)
	echo "$_out" | grep '^#'
	if [ "$(echo "$_out" | tail -n 1)" = PASS ]; then
		result 0 "$_name"
	else
		echo "$_out" | grep -v -e '^#' -e '^FAIL$' | sed 's/^/# awk: /'
		result 1 "$_name"
	fi
}

# wallcheck LABEL: remember, per online CPU, elapsed_ns against the wall
# time of the current delta, for the "classes add up to wall time" test.
wallcheck() {
	awk -v label="$1" '{ d[$1] = $2 }
	END {
		for (k in d) if (k ~ /^online\./ && d[k] == 1) {
			c = substr(k, 8)
			if (d["online0." c] != 1) continue
			printf "%s %s %.0f %.0f\n", label, c, d["sampler." c ".elapsed_ns"], d["wall"]
		}
	}' /tmp/delta >>"$RS_WALLLOG"
}

# measure LABEL CMD...: snapshot, run CMD (its output in /tmp/wl.out),
# snapshot, delta, wallcheck.
measure() {
	_label=$1
	shift
	snap a
	"$@" >/tmp/wl.out 2>&1
	_st=$?
	snap b
	delta a b
	wallcheck "$_label"
	sed 's/^/# /' /tmp/wl.out
	return $_st
}

# wlval KEY: the number after KEY in the workload's output.
wlval() { awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) v = $(i + 1) } END { print v + 0 }' /tmp/wl.out; }

# REF_PROG: a judge program (awk -v cls=CLASS -v minq=Q [-v exact=1]):
# cpu1's share of CLASS, randstat's against /proc/stat's.  Against the
# tick (the same kind of estimator, n = wall * HZ samples) the two must
# agree within 4 sigma of their difference, sqrt(s_rs^2 + s_tick^2), plus
# the edge errors (edge_ns(), one 10 ms tick).  With exact=1 the
# reference has no sampling error: 4 sigma_rs only.  The workload must
# show the class at all: reference >= minq.
REF_PROG='END {
	c = "cpu1"; classes(c); stat_classes(c)
	p = share(c, cls); q = sshare(c, cls); n = nsamp(c); nt = g("wall") * 250 / 1e9
	s = root(sq(sigma(q, n)) + (exact ? 0 : q * (1 - q) / nt))
	tol = 4 * s + (edge_ns() + 1e7) / g("wall")
	print "# " c " " cls ": randstat " pct(p) ", " (exact ? "exact" : "tick") " " pct(q) \
		", difference " pct(p - q) ", tolerance " pct(tol) " (n " n \
		(exact ? "" : ", ticks " nt) "), the reference must be >= " pct(minq)
	verdict(sq(p - q) <= sq(tol) && q >= minq)
}'

# readers_check NAME: 4 readers on both CPUs for SECS while cpu1 spins:
# every counter monotonic, each CPU's elapsed_ns and samples the sums of
# their columns (tests/progs/readers).  Under full preemption where the
# kernel lets it be chosen (PREEMPT_DYNAMIC: Debian's, at
# /sys/kernel/debug/sched/preempt; a debug kernel has it built in), as a
# user who boots with preempt=full has it, and with readers' -m: a fifth
# process moves each reader to the other CPU every 100 us or so, which
# under full preemption takes it off its CPU in the middle of a read.
# Measured, a read's walk over the CPUs that re-read its start CPU at
# each step (module/proc.c, mutant reader-walk-restarts): without the
# mover, 10 s of reads, voluntary 0 failed checks in 112,000 reads, full
# 67 in 157,000 (the CI run that found it, on the debug kernel: 51 in
# 881), and 3 s runs caught it in one run of two; with the mover, 3 s,
# every reader failed in each of 3 runs (1,731-2,409 failed checks in
# about 25,000 reads), and with the fix 0 in 3 runs.  The switch of
# preemption rewrites a few static calls (text_poke), as toggling a
# kprobe does; the ordinary guest (no nohz_full, hlt) survived 300 of 300
# such toggles (kprobe-toggle.sh).
readers_check() {
	_pm=
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	if [ -w /sys/kernel/debug/sched/preempt ]; then
		_pm=$(sed -n 's/.*(\(.*\)).*/\1/p' /sys/kernel/debug/sched/preempt)
		echo full >/sys/kernel/debug/sched/preempt
	fi
	if [ -n "$_pm" ]; then
		diag "readers: preemption full (was $_pm)"
	else
		diag "readers: preemption as the kernel was built"
	fi
	taskset -c 1 /progs/spin "$((SECS + 2))" >/dev/null &
	_spin=$!
	taskset -c 0,1 /progs/readers -m 4 "$SECS" >/tmp/readers.out 2>&1
	_st=$?
	sed 's/^/# /' /tmp/readers.out
	wait $_spin
	[ -n "$_pm" ] && echo "$_pm" >/sys/kernel/debug/sched/preempt
	result $_st "$1"
}

# readers_independent NAME: the bar of issue 23, "a reader polling at full
# speed does not slow another by more than 10%".  One reader of
# /proc/randstat on cpu0 (tests/progs/readrate: open, read, close, over
# and over), in IND_ROUNDS rounds (default 16) of two IND_SECS blocks
# (default 0.3 s), their order alternating: "poll", a second reader polls
# /proc/randstat at full speed on cpu1; "spin", a user-mode busy loop runs
# on cpu1 instead (the control: under TCG any busy vCPU takes host CPU
# from cpu0's, and the loop shares no lock with a reader).  Per round
# q = rate(poll) / rate(spin).  The host's load moves q by tens of
# percent for seconds at a time (rounds at 0.4 and at 1.4 in otherwise
# steady runs), so the estimate is robust: the slowdown is 1 - median(q),
# its standard error se = 1.2533 x 1.4826 MAD / sqrt(rounds) (the
# median's, from the median absolute deviation).  Asserted: slowdown <=
# 10% + 4 se, and se <= 5% (a run too noisy to tell fails rather than
# passes).  Measured: this module 2.7% +- 2.7 (95%); readers serialized
# for their whole read by a planted global mutex 41% +- 12, which fails;
# the module before format 4 (a global mutex over the per-CPU arithmetic
# only) 17% +- 21 in 6 rounds of 1 s: at 2 vCPUs too close to the bar to
# be told apart.
readers_independent() {
	_i=0
	: >/tmp/indep
	while [ "$_i" -lt "${IND_ROUNDS:-16}" ]; do
		if [ $((_i % 2)) -eq 0 ]; then
			_p=$(ind_block poll) _s=$(ind_block spin)
		else
			_s=$(ind_block spin) _p=$(ind_block poll)
		fi
		echo "$_p $_s" >>/tmp/indep
		_i=$((_i + 1))
	done
	# (busybox awk may lack sqrt(): root() is Newton's)
	awk 'function root(x, r, i) { if (x <= 0) return 0; r = x + 1; for (i = 0; i < 200; i++) r = (r + x / r) / 2; return r }
		function median(a, n, i, j, t) {
			for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		{ if ($1 <= 0 || $2 <= 0) bad = 1; else { n++; q[n] = $1 / $2
			printf "# round %d: poll %s spin %s reads/s, q %.3f\n", n, $1, $2, q[n] } }
		END {
			if (bad || n < 4) { print "# a block read nothing"; exit 1 }
			m = median(q, n)
			for (i = 1; i <= n; i++) d[i] = q[i] > m ? q[i] - m : m - q[i]
			se = 1.2533 * 1.4826 * median(d, n) / root(n)
			printf "# slowdown %.1f%% +- %.1f (95%%), se %.2f%%, %d rounds\n", 100 * (1 - m), 196 * se, 100 * se, n
			exit !(1 - m <= 0.10 + 4 * se && se <= 0.05)
		}' /tmp/indep
	result $? "$1"
}

# ind_block MODE: one block of readers_independent; prints the reads per
# second of the reader on cpu0.
ind_block() {
	case $1 in
	poll) taskset -c 1 /progs/readrate /proc/randstat 0 & _bp=$! ;;
	spin) taskset -c 1 /progs/spin 3600 >/dev/null & _bp=$! ;;
	esac
	sleep 0.1
	taskset -c 0 /progs/readrate /proc/randstat "${IND_SECS:-0.3}" |
		awk '{ printf "%.1f\n", $3 / ($5 / 1e9) }'
	kill "$_bp"
	wait "$_bp" 2>/dev/null
}

# readers_split NAME: the bar of issue 32, "no reader writes state another
# reader sees".  What a read shows is a copy of what the CPUs' own charges
# left, and a reader keeps only its own open file's state (module/proc.c;
# KUnit's shown_stateless_test proves that the same charges, read at any
# times, leave the same bits).  Here, end to end: cpu1 runs a half-busy
# job (sleeploop 2 ms / 2 ms); in SPLIT_ROUNDS (default 8) rounds of two
# SPLIT_SECS (default 1 s) blocks, their order alternating, two
# processes of uid 65534 on cpu0 poll /proc/randstat and
# /proc/randstat_detail at full speed ("poll"), or one spins in user mode
# there ("spin", the control: under TCG a busy vCPU takes host CPU from
# the other).  Per block the observer (root, its own snapshots) takes
# cpu1's error: randstat's busy share less the job's own (its
# sum_exec_runtime, /proc/PID/schedstat, over the block's wall time), and
# the error's sampling sigma, sqrt(q (1 - q) / n) times the sampled
# fraction (judge.awk's ssigma()).  The reference's bias (a woken task's
# runtime starts at its enqueue) is the same in both arms.  Asserted:
# |mean error(poll) - mean error(spin)| <= 4 sigma of that difference +
# 1 point (the times shown are within a few sampling intervals of their
# targets at each block's two edges: 4 ms each way over 1 s, 0.8
# points), and the pollers read at least 100 times a second each.
# The fuse suite runs it, on an idle=poll guest: in the main suite's
# hlt guest the emulator delivers cpu1's samples late after its wakeups
# (benchmark.rst), and the errors spread beyond the binomial, -15 to -4
# points in the spin blocks (sigma 1.7-2.0) and -11 to -7 with the
# pollers; with cpu0 idle as the control, the errors were 5.7 points
# apart with the pollers and without, from the emulator alone.  On
# idle=poll, -3.5 to +2.2 points (sigma 0.1-2.3), and 1.2 apart (4 sigma
# 3.2).
readers_split() {
	taskset -c 1 /progs/sleeploop 2000 2000 3600 >/dev/null &
	_job=$!
	_i=0
	: >/tmp/split
	while [ "$_i" -lt "${SPLIT_ROUNDS:-8}" ]; do
		if [ $((_i % 2)) -eq 0 ]; then
			split_block poll
			split_block spin
		else
			split_block spin
			split_block poll
		fi
		_i=$((_i + 1))
	done
	kill "$_job"
	wait "$_job" 2>/dev/null
	awk "$(cat /tests/judge.awk)"'
		$1 == "block" { n[$2]++; e[$2] += $3; v[$2] += $4 * $4
			printf "# %s: cpu1 busy %.2f%%, the job %.2f%%, error %+.2f +- %.2f points, %s reads/s by the pollers\n", $2, 100 * $5, 100 * $6, 100 * $3, 100 * $4, $7
			if ($2 == "poll" && $7 < 100) slow = 1 }
		END {
			if (n["poll"] < 2 || n["spin"] < 2) { print "# too few blocks"; exit 1 }
			d = e["poll"] / n["poll"] - e["spin"] / n["spin"]
			s = root(v["poll"] / sq(n["poll"]) + v["spin"] / sq(n["spin"]))
			printf "# the split moved by %+.2f points with the pollers (4 sigma %.2f + 1), %d rounds\n", 100 * d, 400 * s, n["poll"]
			if (slow) print "# a poller read fewer than 100 times a second"
			exit !((d < 0 ? -d : d) <= 4 * s + 0.01 && !slow)
		}' /tmp/split
	result $? "$1"
}

# split_block MODE: one block of readers_split, a "block" line into
# /tmp/split: MODE, error, sigma, randstat's busy share, the job's, the
# pollers' reads per second.
split_block() {
	_rt0=$(awk '{ print $1 }' "/proc/$_job/schedstat")
	snap s0
	if [ "$1" = poll ]; then
		taskset -c 0 /progs/runas -u 65534 /progs/readrate /proc/randstat "${SPLIT_SECS:-1}" >/tmp/poll1 &
		_p1=$!
		taskset -c 0 /progs/runas -u 65534 /progs/readrate /proc/randstat_detail "${SPLIT_SECS:-1}" >/tmp/poll2 &
		_p2=$!
		wait "$_p1" "$_p2"
		_rate=$(cat /tmp/poll1 /tmp/poll2 | awk '$1 == "readrate" { r += $3 / ($5 / 1e9) } END { printf "%.0f\n", r / 2 }')
	else
		taskset -c 0 /progs/runas -u 65534 /progs/spin "${SPLIT_SECS:-1}" >/dev/null
		_rate=0
	fi
	snap s1
	_rt1=$(awk '{ print $1 }' "/proc/$_job/schedstat")
	delta s0 s1
	awk -v mode="$1" -v rt="$((_rt1 - _rt0))" -v rate="$_rate" "$(cat /tests/judge.awk)"'
	END {
		c = "cpu1"
		b = 1 - share(c, "idle") - share(c, "iowait")
		j = rt / g("wall")
		# sigma at the job'"'"'s share, the reference, not at randstat'"'"'s
		printf "block %s %.6f %.6f %.6f %.6f %s\n", mode, b - j, ssigma(c, j), b, j, rate
	}' /tmp/delta >>/tmp/split
}

param() { cat "/sys/module/randstat/parameters/$1"; }

# The emulator's timer lateness, measured without the module's word: the
# judged runs of multi-CPU guests take their lateness allowance from it
# (issue 31).  lateprobe CPU: 200 POSIX timers, each due 500 us after a
# 2 ms sleep while the process spins in user mode on CPU
# (tests/progs/lateprobe: how late each signal came, an upper bound of
# the interrupt's lateness); its line is printed, LP_US is the median
# and LP_MEAN_US the mean.  A run whose median is above LP_MAX_US is not
# judged: the emulator is not one to judge on then.  The allowance takes
# the mean, which holds the tail (a timer due in user mode held until
# the next kernel entry, as the sampler's can be), at most LP_MAX_US: a
# fixed bound.  Idle=poll multi-threaded TCG guests on a quiet 2-core
# host (2026-11-27): medians 92-418 us, means 250-840 us, the module's
# own mean lateness 160-290 us.
LP_MAX_US=500
lateprobe() {
	taskset -c "$1" /progs/lateprobe 200 2000 500 >/tmp/lp.out 2>&1
	echo "# emulator lateness on cpu$1: $(cat /tmp/lp.out)"
	read -r LP_US LP_MEAN_US <<-EOF
	$(awk '$1 == "lateprobe" { for (i = 2; i < NF; i++) v[$i] = $(i + 1); print v["p50_us"], v["mean_us"] }' /tmp/lp.out)
	EOF
	LP_US=${LP_US:-999999} LP_MEAN_US=${LP_MEAN_US:-999999}
}
# lp_ok: the last lateprobe's median is within LP_MAX_US.
lp_ok() { awk -v l="$LP_US" -v m="$LP_MAX_US" 'BEGIN { exit !(l <= m) }'; }
# lp_mean_ok: the last lateprobe's mean is within LP_MAX_US: the gate of
# a run whose allowance is that mean (judged.sh), so that the allowance
# is never below the lateness it stands for.
lp_mean_ok() { awk -v l="$LP_MEAN_US" -v m="$LP_MAX_US" 'BEGIN { exit !(l <= m) }'; }
# lateprobe_ok CPU [CHECK]: lateprobe CPU, up to three times, until
# CHECK (default lp_ok, the median; judged.sh's lp_mean_ok) says it is
# within LP_MAX_US (the emulator's moments of lateness pass).
lateprobe_ok() {
	for _t in 1 2 3; do
		lateprobe "$1"
		"${2:-lp_ok}" && return 0
		diag "the emulator's lateness on cpu$1 is above $LP_MAX_US us"
	done
	return 1
}

# dmesg_clean NAME: no WARNING, BUG, Oops or lockdep report in the log.
dmesg_clean() {
	_bad=$(dmesg | grep -E 'WARNING|BUG|Oops|lockdep|possible circular|possible recursive|INFO: (task|rcu)|Call Trace|general protection|stack segment' | head -n 20)
	if [ -z "$_bad" ]; then
		result 0 "$1"
	else
		echo "$_bad" | sed 's/^/# dmesg: /'
		result 1 "$1"
	fi
}

# load_randstat [PARAM=VALUE...]: insmod the module as a test; without
# /proc/randstat nothing else can run, so end the suite there.
load_randstat() {
	insmod /randstat.ko "$@"
	result $? "insmod randstat.ko${*:+ $*}"
	if [ ! -r /proc/randstat ]; then
		diag "no /proc/randstat: nothing else can run"
		dmesg | tail -n 20 | sed 's/^/# dmesg: /'
		ktap_end
		exit 1
	fi
}

# loc: the local timer interrupts each CPU has taken so far, one line
# "cpuN COUNT" per CPU: the LOC line of /proc/interrupts on x86; on
# arm64 the architected timer's lines (its name last) and the broadcast
# timer's IPIs (what wakes a CPU from an idle state that stops its own
# timer), summed.
# shellcheck disable=SC2016 # an awk pattern
loc() { irqs '$1 == "LOC:" || $NF == "arch_timer" || /Timer broadcast interrupts$/'; }

# irqs [PATTERN]: each CPU's interrupts so far ("cpuN COUNT"), the
# per-CPU columns of /proc/interrupts summed over the lines the awk
# PATTERN matches (default: every line, interrupts of every kind).
irqs() {
	awk "NR == 1 { n = NF; next }
	${1:-1} "'{ for (i = 2; i <= n + 1 && $i ~ /^[0-9]+$/; i++) c[i - 2] += $i }
	END { for (i = 0; i < n; i++) print "cpu" i, c[i] + 0 }' /proc/interrupts
}

# timer_trace: from now on loc_rate also counts, per CPU, the expiries of
# the tick's hrtimer (tick_sched_timer up to 6.7, tick_nohz_highres_handler
# in 6.8, tick_nohz_handler from 6.9) and of randstat's (randstat_timer_fn)
# in its window, from the timer:hrtimer_expire_entry trace event.
# Non-zero if tracefs or the event is missing.
timer_trace() {
	_tr=/sys/kernel/tracing
	{ [ -e "$_tr/trace" ] || mount -t tracefs nodev "$_tr"; } &&
		echo 0 >"$_tr/tracing_on" &&
		echo 4096 >"$_tr/buffer_size_kb" &&
		echo 1 >"$_tr/events/timer/hrtimer_expire_entry/enable" &&
		RS_TRACE=$_tr
}

# loc_rate NAME CMD...: run CMD (output in /tmp/wl.out) and write each
# CPU's local timer interrupts per second over it to /tmp/loc.NAME
# ("cpuN RATE"; after timer_trace "cpuN RATE TICKS RANDSTAT", the two
# timers' expiries per second, both -1 if the trace lost events).
loc_rate() {
	_n=$1
	shift
	if [ -n "${RS_TRACE:-}" ]; then
		: >"$RS_TRACE/trace"
		echo 1 >"$RS_TRACE/tracing_on"
	fi
	loc >/tmp/loc.a
	_t0=$(awk '{ print $1 }' /proc/uptime)
	"$@" >/tmp/wl.out 2>&1
	_t1=$(awk '{ print $1 }' /proc/uptime)
	loc >/tmp/loc.b
	: >/tmp/loc.trace
	if [ -n "${RS_TRACE:-}" ]; then
		echo 0 >"$RS_TRACE/tracing_on"
		cat "$RS_TRACE/trace" >/tmp/loc.trace
	fi
	awk -v t0="$_t0" -v t1="$_t1" -v traced="${RS_TRACE:+1}" 'BEGIN { w = t1 - t0 }
		FILENAME == "/tmp/loc.a" { a[$1] = $2; next }
		FILENAME == "/tmp/loc.b" { r[$1] = ($2 - a[$1]) / w; next }
		# "# entries-in-buffer/entries-written: 2503/2503   #P:2": none lost
		/^# entries-in-buffer/ { split($3, e, "/"); lost = e[1] != e[2]; next }
		/hrtimer_expire_entry:/ && match($0, /\[[0-9]+\]/) {
			c = "cpu" (substr($0, RSTART + 1, RLENGTH - 2) + 0)
			if ($0 ~ /function=(tick_sched_timer|tick_nohz_highres_handler|tick_nohz_handler) /) tk[c]++
			else if ($0 ~ /function=randstat_timer_fn /) rs[c]++
		}
		END {
			for (c in r)
				if (!traced) printf "%s %.1f\n", c, r[c]
				else if (lost) printf "%s %.1f -1 -1\n", c, r[c]
				else printf "%s %.1f %.1f %.1f\n", c, r[c], tk[c] / w, rs[c] / w
		}' /tmp/loc.a /tmp/loc.b /tmp/loc.trace | sort >"/tmp/loc.$_n"
}

# JSONCHECK, an awk program: each line is one JSON value (a small
# recursive-descent parser: busybox has no jq), an object.  The reader and
# top suites use it.
# shellcheck disable=SC2016 # an awk program
JSONCHECK='
function err(m) { if (!bad) print "# line " NR ": " m " at offset " p ": " substr(s, p, 40); bad = 1 }
function ws() { while (p <= len && index(" \t", substr(s, p, 1))) p++ }
function value(   c) {
	ws(); c = substr(s, p, 1)
	if (c == "{") return object()
	if (c == "[") return array()
	if (c == "\"") return string()
	if (match(substr(s, p), /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/)) { p += RLENGTH; return 1 }
	if (substr(s, p, 4) == "true" || substr(s, p, 4) == "null") { p += 4; return 1 }
	if (substr(s, p, 5) == "false") { p += 5; return 1 }
	err("no value"); return 0
}
function string(   c) {
	p++
	while (p <= len) {
		c = substr(s, p, 1)
		if (c == "\"") { p++; return 1 }
		if (c == "\\") p++
		p++
	}
	err("unterminated string"); return 0
}
function object() {
	p++; ws()
	if (substr(s, p, 1) == "}") { p++; return 1 }
	while (1) {
		ws(); if (substr(s, p, 1) != "\"") { err("no key"); return 0 }
		if (!string()) return 0
		ws(); if (substr(s, p, 1) != ":") { err("no colon"); return 0 }
		p++; if (!value()) return 0
		ws(); c = substr(s, p, 1); p++
		if (c == "}") return 1
		if (c != ",") { err("no comma or }"); return 0 }
	}
}
function array(   c) {
	p++; ws()
	if (substr(s, p, 1) == "]") { p++; return 1 }
	while (1) {
		if (!value()) return 0
		ws(); c = substr(s, p, 1); p++
		if (c == "]") return 1
		if (c != ",") { err("no comma or ]"); return 0 }
	}
}
{
	s = $0; len = length(s); p = 1; lines++
	if (substr(s, 1, 1) != "{") err("not an object")
	else if (value()) { ws(); if (p <= len) err("trailing text") }
}
END { print "# " lines " lines"; exit bad || !lines }'

# keys FILE KEY...: every line of FILE has each KEY (a JSON fragment).
keys() {
	_f=$1
	shift
	for _k in "$@"; do
		[ "$(grep -cF -- "$_k" "$_f")" -eq "$(wc -l <"$_f")" ] ||
			{ echo "# a line lacks $_k"; return 1; }
	done
}

# CG_JSON_AWK: awk functions over one report of randstat cgroup --json
# (the cgroup and cgphase suites).
# est(s, k): "SAMPLES PCT LO HI" of the estimate "k":{...} in s.
# cgobj(line, path): the object of cgroup PATH.
# special(line, name): the object of the bucket NAME (interrupts, idle,
# removed), without its key.
# usage_sigma(u, T, mu): the standard error, in points, of randstat's
# busy share of a cgroup whose cpu.stat usage is u points over T s, with
# samples every mu ns on average (the mean_ns parameter): their count is
# Poisson, of mean u T / (100 mu), each worth mu.  It is taken at the
# reference and the configured mean, not at randstat's estimate and the
# module's ns per sample, so that no figure of the module's widens it.
# No usage: one sample's worth.  (AWK_MATH's root().)
# shellcheck disable=SC2016 # awk
CG_JSON_AWK='
function usage_sigma(u, T, mu) { return u != "null" && u > 0 ? root(100 * u * mu / 1e9 / T) : 100 * mu / 1e9 / T }
function num(s, k) {
	if (!match(s, "\"" k "\":-?[0-9][0-9.e+-]*")) return "null"
	s = substr(s, RSTART, RLENGTH); sub(/^[^:]*:/, "", s); return s + 0
}
function est(s, k,   i, r) {
	i = index(s, "\"" k "\":{\"samples\":")
	if (!i) return "null null null null"
	r = substr(s, i + length(k) + 14)
	match(r, /^[0-9]+,"pct":[-0-9.e+]+,"ci95":\[[-0-9.e+]+,[-0-9.e+]+\]/)
	r = substr(r, 1, RLENGTH)
	gsub(/"pct":|"ci95":|\[|\]/, "", r); gsub(/,/, " ", r)
	return r
}
function cgobj(line, path,   n, part, i) {
	n = split(line, part, /\{"path":/)
	for (i = 2; i <= n; i++)
		if (index(part[i], "\"" path "\",") == 1) return part[i]
	return ""
}
function special(line, name,   i, s) {
	i = index(line, "\"" name "\":{\"samples\":{\"user\":")
	if (!i) return ""
	s = substr(line, i + length(name) + 3)
	return substr(s, 1, index(s, "}}") + 1)
}
'
# cost_ns: every CPU's sampler cost so far, ns.
cost_ns() { awk '$1 == "sampler" { for (i = 2; i < NF; i++) if ($i == "cost_ns") s += $(i + 1) } END { printf "%.0f\n", s }' /proc/randstat_detail; }
# in_cg NAME CMD...: run CMD in cgroup NAME (made if need be), in the background.
in_cg() {
	_n=$1
	shift
	mkdir -p "${CG:-/sys/fs/cgroup}/$_n"
	sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "${CG:-/sys/fs/cgroup}/$_n" "$@" &
}
# scrape URL FILE: URL's body into FILE, once it answers (up to 10 s for
# a server just started); wget's status.
scrape() {
	_i=0
	until wget -q -O "$2" "$1" 2>/dev/null; do
		_i=$((_i + 1))
		# the last try says why it fails
		[ $_i -ge 100 ] && { wget -q -O "$2" "$1"; return; }
		sleep 0.1
	done
}
