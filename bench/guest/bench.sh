# shellcheck shell=sh
# bench: the benchmark's guest side (busybox sh), run by tests/vm's init
# as /tests/bench.sh.  It only measures and prints raw numbers, one record
# per line; bench/analyze.py does the statistics on the host.
#
#   B LABEL k v k v ...   one workload: wl_* (its own report line, see
#                         bench/progs/common.h) and the cpu1 deltas of
#                         tests/vm/guest/delta.awk (ns.cpu1.user, ...)
#   F FUNC NS NS ...      ftrace durations of FUNC on cpu1, ns
#   I WHAT ...            information (I tp_events N: randstat:sample
#                         events of cpu1 recorded in one @tp_on.R run)
#   H LABEL k v ...       randstat's cost_hist delta on cpu1 (h0..h31) and
#                         hist_bounds_ns (b0..b31), from /proc/randstat_hist
#   O CONFIG ROUND k v .. one throughput run (overhead)
#   P CONFIG ROUND WL ..  interrupts/s per CPU and ping-pong throughput
#                         (footprint)
#   V SEED k v ...        one convergence checkpoint
#
# Env (kernel command line): bench_mode (short | full), randstat_secs,
# bench_law (the module's law, for a comparison; default the module's),
# bench_hlt (1: a guest idling in hlt, whose figures are printed beside:
# the accuracy workloads and the footprint only), bench_ab (1: each
# accuracy workload again with tickless=0, LABEL@t0).
# A guest booted with nohz_full=1 is the "exact" one (cpu1 by vtime).
# Guests booted with idle=poll are the judged ones: under TCG a timer
# interrupt due right after a wakeup from hlt comes 0.2-1 ms late, and a
# sampler that resumes at a wakeup has its first sample there
# (Documentation/benchmark.rst); idle=poll does not halt.
# shellcheck source=tests/vm/guest/lib.sh
. /tests/lib.sh
MODE=${bench_mode:-short}
NOHZ=0
grep -q 'nohz_full=1' /proc/cmdline && NOHZ=1
HLT=${bench_hlt:-0}
IDLE=hlt
grep -q 'idle=poll' /proc/cmdline && IDLE=poll
echo "I mode $MODE nohz $NOHZ secs $SECS idle $IDLE"

# The default parameters (tickless): every workload is also run with
# tickless=0 (LABEL@t0), the sampler always armed, as an A/B column.
insmod /randstat.ko exact_cpus= ${bench_law:+law=$bench_law} || { echo "E insmod failed"; exit 1; }
sleep 0.5

# rec LABEL PROG ARGS...: PROG pinned to cpu1 between two snapshots.
rec() {
	_l=$1
	shift
	snap a
	taskset -c 1 "$@" >/tmp/wl.out 2>&1
	snap b
	delta a b
	awk -v l="$_l" 'FNR == NR {
		if (!seen && $2 == "cpu_ns") {
			seen = 1
			for (i = 2; i < NF; i += 2) wl = wl " wl_" $i " " $(i + 1)
		}
		next
	}
	$1 ~ /\.cpu1\./ || $1 ~ /^(wall|law|floor|mean|tmin|tmax|user_hz)$/ { d = d " " $1 " " $2 }
	END { print "B " l wl d }' /tmp/wl.out /tmp/delta
	# the A/B column: the same with tickless=0 (bench_ab=1; not in the
	# hlt guests)
	case $_l in *@t0) return ;; esac
	[ "$HLT" = 1 ] || [ "${bench_ab:-0}" != 1 ] && return
	echo 0 >/sys/module/randstat/parameters/tickless
	sleep 0.2
	rec "$_l@t0" "$@"
	echo 1 >/sys/module/randstat/parameters/tickless
	sleep 0.2
}

# The workloads: LABEL PROG ARGS (SECS appended where it goes).
S=$SECS
rec spin /progs/spin "$S"
rec iso8_2_ph1000 /progs/iso 8000 2000 "$S" 1000
# The normal guest's judged workload twice more: a run whose samples the
# emulator delivered late is not a measure of the module
# (bench/analyze.py, VALID_LATE_US), and the first run on time is judged.
if [ "$NOHZ" -eq 0 ]; then
	rec iso8_2_ph1000_r2 /progs/iso 8000 2000 "$S" 1000
	rec iso8_2_ph1000_r3 /progs/iso 8000 2000 "$S" 1000
fi
rec iso8_2_ph2900 /progs/iso 8000 2000 "$S" 2900
rec iso22.5_3 /progs/iso 22500 3000 "$S"
rec evader_m500 /progs/evader 4000 500 "$S"

if [ "$MODE" = full ]; then
	rec iso8_2_rand1 /progs/iso 8000 2000 "$S"
	rec iso8_2_rand2 /progs/iso 8000 2000 "$S"
	for m in 100 250 1000 2000; do
		rec "evader_m$m" /progs/evader 4000 "$m" "$S"
	done
	if [ "$NOHZ" -eq 0 ]; then
		# the period sweep (job 2 ms, first job 1 ms after a tick) and
		# the job-length sweep (period 8 ms, 0.5 ms after a tick)
		for p in 4000 6000 10000 12000 16000 20000 22500; do
			rec "sweepP_${p}_2000" /progs/iso "$p" 2000 "$S" 1000
		done
		for j in 500 1000 3000 5000 7000; do
			rec "sweepJ_8000_$j" /progs/iso 8000 "$j" "$S" 500
		done
	fi
fi

# The hlt guests: the accuracy workloads above and the footprint below.
[ "$HLT" = 1 ] && NOCOST=1

# --- cost: ftrace's per-call durations of the tick and of the sampler ----
# trace_fns SUFFIX FUNC...: FUNC's durations on cpu1 while a CPU-bound loop
# (or TRACE_WL, a command) runs there, one "F FUNC@SUFFIX ns ..." record per 200 calls (no @ for an
# empty SUFFIX).  set_ftrace_filter: only these are hooked, so the tracing
# overhead is the same small one on each, and nothing else slows down.
T=/sys/kernel/tracing
trace_fns() {
	_sfx=$1
	shift
	echo "$@" >"$T/set_ftrace_filter" 2>/dev/null &&
		echo "$@" >"$T/set_graph_function" &&
		echo function_graph >"$T/current_tracer" || return 1
	echo 0 >"$T/tracing_on"
	echo 1 >"$T/max_graph_depth"
	echo 2 >"$T/tracing_cpumask"
	echo 4096 >"$T/buffer_size_kb"
	echo >"$T/trace"
	echo 1 >"$T/tracing_on"
	if [ -n "${TRACE_WL:-}" ]; then $TRACE_WL >/tmp/wl.out; else taskset -c 1 /progs/loop "$S" >/tmp/wl.out; fi
	echo 0 >"$T/tracing_on"
	cp "$T/trace" /tmp/trace.last
	# "1)   5.123 us    |  tick_sched_timer();": the number before us
	for _f in "$@"; do
		grep "$_f" "$T/trace" | awk -v f="$_f${_sfx:+@$_sfx}" '{
			for (i = 2; i <= NF; i++) if ($i == "us" && $(i - 1) ~ /^[0-9.]+$/) {
				v = v " " int($(i - 1) * 1000 + 0.5); n++
				if (n % 200 == 0) { print "F " f v; v = "" }
				break
			}
		} END { if (v != "") print "F " f v }'
	done
	echo nop >"$T/current_tracer"
	echo >"$T/set_ftrace_filter"
	echo >"$T/set_graph_function"
}

if [ "$NOHZ" -eq 0 ] && [ -z "${NOCOST:-}" ]; then
	mount -t tracefs nodev "$T" 2>/dev/null
	snap a
	if trace_fns "" tick_sched_timer randstat_timer_fn; then
		snap b
		awk '$1 == "rs" && $2 == "hist_bounds_ns" { for (i = 3; i <= NF; i++) b = b " b" (i - 3) " " $i }
			$1 == "rs" && $2 == "cost_hist" && $3 == "cpu1" {
				for (i = 4; i <= NF; i++) { if (FILENAME ~ /\.a$/) a[i] = $i; else h = h " h" (i - 4) " " ($i - a[i]) }
			}
			$1 == "rs" && $2 == "sampler" && $3 == "cpu1" {
				# totals as deltas; maxima (since load) as they are
				for (i = 4; i < NF; i += 2) if (FILENAME ~ /\.a$/) s[$i] = $(i + 1)
					else x = x " " $i " " ($i ~ /_max_ns$/ ? $(i + 1) : $(i + 1) - s[$i])
			}
			END { print "H ftrace_loop" x h b }' /tmp/snap.a /tmp/snap.b
		# the cost of one interval draw, alone (it runs inside the callback)
		trace_fns "" randstat_draw_interval
		# The randstat:sample trace event's cost: randstat_timer_fn with
		# the event disabled (F randstat_timer_fn@tp_off.R) and enabled,
		# written to the same ring buffer (@tp_on.R), in six alternating
		# rounds R of 1 s each way.  Rounds, because under TCG, on a
		# shared host, a whole run now and then comes out several times
		# slower (medians of 14-44 us against 5-15 us, disabled or
		# enabled alike, in three boots): analyze.py compares the
		# rounds' medians.
		# funcgraph-tail in both: a call in which the event was written
		# ends in "} /* randstat_timer_fn */".
		echo 1 >"$T/options/funcgraph-tail"
		for _r in 1 2 3 4 5 6; do
			TRACE_WL="taskset -c 1 /progs/loop 1" trace_fns "tp_off.$_r" randstat_timer_fn
			echo 1 >"$T/events/randstat/sample/enable"
			TRACE_WL="taskset -c 1 /progs/loop 1" trace_fns "tp_on.$_r" randstat_timer_fn
			echo 0 >"$T/events/randstat/sample/enable"
			echo "I tp_events $(grep -c 'sample: cpu=1 ' /tmp/trace.last)"
		done
		echo 0 >"$T/options/funcgraph-tail"
		# Before and after in one boot (full mode): the module as it was
		# before the keystream, law and estimator of format 2
		# (/randstat-old.ko, bench/run.sh builds it from git).
		if [ "$MODE" = full ] && [ -f /randstat-old.ko ] &&
		   rmmod randstat && insmod /randstat-old.ko; then
			sleep 0.2
			trace_fns before randstat_timer_fn
			trace_fns before randstat_draw_interval
			rmmod randstat
			insmod /randstat.ko exact_cpus=
			sleep 0.2
		fi
	else
		echo "E function_graph tracer not available"
	fi
fi

# --- overhead: a CPU-bound loop's throughput, without and with randstat ---
if [ "$MODE" = full ] && [ "$NOHZ" -eq 0 ] && [ -z "${NOCOST:-}" ]; then
	for r in 1 2 3 4 5; do
		for c in none default x10; do
			rmmod randstat 2>/dev/null
			case $c in
			default) insmod /randstat.ko exact_cpus= ;;
			x10) insmod /randstat.ko exact_cpus= mean_ns=400000 ;;
			esac
			sleep 0.2
			snap a
			taskset -c 1 /progs/loop 2 >/tmp/wl.out
			snap b
			delta a b
			awk -v c="$c" -v r="$r" 'FNR == NR { if ($1 == "loop" && $2 == "iters") rate = $7; next }
				$1 ~ /^sampler\.cpu1\./ { x = x " " substr($1, 14) " " $2 }
				END { print "O " c " " r " rate " rate x }' /tmp/wl.out /tmp/delta
		done
	done
	rmmod randstat 2>/dev/null
	insmod /randstat.ko exact_cpus=
fi

# --- footprint: local timer interrupts, without and with randstat ---------
# P CONFIG ROUND WORKLOAD cpu0 RATE cpu1 RATE [trips TRIPS_PER_S]: each
# CPU's local timer interrupts per second (/proc/interrupts LOC) over
# the workload, and the ping-pong's round trips per second.  Configs:
# none (the tick alone), sampled (every CPU sampled); in the nohz_full
# guest also exact (the default: cpu1 served from vtime).  Rounds
# alternate the configs, so a drift of the guest's own rate falls on all.
# In the hlt guests only: with idle=poll the tick is not stopped in idle.
if [ "$MODE" = full ] && [ "$IDLE" = hlt ]; then
	configs="none sampled"
	[ "$NOHZ" -eq 1 ] && configs="none exact sampled"
	for r in 1 2 3; do
		for c in $configs; do
			rmmod randstat 2>/dev/null
			case $c in
			sampled) insmod /randstat.ko exact_cpus= ;;
			exact) insmod /randstat.ko ;;
			esac
			sleep 1
			for w in idle spin pingpong; do
				case $w in
				idle) loc_rate fp sleep 5 ;;
				spin) loc_rate fp taskset -c 1 /progs/spin 5 ;;
				pingpong) loc_rate fp /progs/pingpong 5 0 1 ;;
				esac
				echo "P $c $r $w $(tr '\n' ' ' </tmp/loc.fp)$(awk '$1 == "pingpong" { print "trips " $7 }' /tmp/wl.out)"
			done
		done
	done
	rmmod randstat 2>/dev/null
	insmod /randstat.ko exact_cpus=
	sleep 0.5
	# The probes' cost per call, under the ping-pong (tens of thousands of
	# idle entries and exits a second on each CPU): ftrace's
	# durations, which include function_graph's own overhead, so an upper
	# bound.
	if [ "$NOHZ" -eq 0 ]; then
		mount -t tracefs nodev "$T" 2>/dev/null
		TRACE_WL="/progs/pingpong $S 0 1" trace_fns pingpong \
			randstat_idle_probe randstat_timer_fn
	fi
fi

# --- convergence: one steady workload, several seeds (each insmod reseeds) -
if [ "$MODE" = full ] && [ "$NOHZ" -eq 1 ] && [ -z "${NOCOST:-}" ]; then
	CT=10
	for seed in 1 2 3 4 5 6; do
		rmmod randstat
		insmod /randstat.ko exact_cpus= ${bench_law:+law=$bench_law}
		taskset -c 1 /progs/iso 8000 2000 $((CT + 1)) >/tmp/conv.out 2>&1 &
		sleep 0.3
		k=0
		while [ $k -le $((CT * 2)) ]; do
			taskset -c 0 /progs/snap | awk -v s="$seed" -v k="$k" '
				$1 == "mono_ns" { t = $2 }
				$1 == "rs" && $2 == "ns" && $3 == "cpu1" { nsu = $4; el = 0; for (i = 4; i <= 11; i++) el += $i }
				$1 == "rs" && $2 == "samples" && $3 == "cpu1" { nu = $4; n = 0; for (i = 4; i <= 11; i++) n += $i }
				$1 == "rs" && $2 == "exact" && $3 == "cpu1" { xu = $4 }
				$1 == "rs" && $2 == "sampler" && $3 == "cpu1" { for (i = 4; i < NF; i++) if ($i == "sampled_ns") sm = $(i + 1) }
				$1 == "stat" && $2 == "cpu1" { su = $3 }
				END { print "V " s " k " k " t " t " ns_user " nsu " elapsed " el " sampled " sm " x_user " xu " n_user " nu " n " n " stat_user " su }'
			k=$((k + 1))
			sleep 0.5
		done
		wait
	done
fi
echo "I done"
