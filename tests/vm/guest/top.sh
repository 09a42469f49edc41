# shellcheck shell=sh
# top: randstat top (userspace/top/rstop.c), run for real in the guest as
# /progs/randstat top, over the randstat:sample tracepoint, with known
# workloads pinned to cpu1 (the reader and the harness stay on cpu0):
# a user spinner, a loop of read(2)s of /dev/zero (system), two spinning
# threads (-t); plain and --json output, -n, INTERVAL and COUNT, the
# signals that must remove the trace instance, and the error paths (no
# module, not root, bad arguments).
#
# The statistics (rstask.c has the derivation): a task that ran a share s
# of one CPU during an interval of T seconds gets k ~ Poisson(s T / mu)
# samples (mu = mean_ns, 4 ms), and randstat's share 100 k mu / T has the
# standard deviation
#
#	sigma = 100 sqrt(s mu / T)  percentage points
#
# (SECS = 3 s: 3.65 points at s = 1, 2.58 at s = 1/2).  Every assertion
# on a figure allows 4 sigma or more (a chance below 1 in 15000 of failing
# when all is right); against the kernel's tick-sampled split, the tick's
# own binomial error over T * HZ ticks is added in quadrature, and one
# clock tick (1/USER_HZ s) for the truncation of utime and stime.
# shellcheck source=tests/vm/guest/lib.sh
. /tests/lib.sh
ktap_begin 39
RS=/progs/randstat
MU=4000000	# mean_ns, the module's default, in ns
dmesg -c >/dev/null

# reports FILE: the number of interval reports in randstat top's text.
reports() { grep -Ec '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]  interval [0-9.]+ s$' "$1"; }
# tracefs: where tracefs is mounted (randstat top mounts it if need be).
tracefs() { awk '$3 == "tracefs" { print $2; exit }' /proc/mounts; }
# instances: randstat top's trace instances that exist now.
instances() {
	_t=$(tracefs)
	[ -n "$_t" ] || return 0
	for _i in "$_t"/instances/randstat-top-*; do
		[ -d "$_i" ] && echo "${_i##*/}"
	done
	return 0
}

# trow FILE ID [t]: in the last report of FILE (text), the row of process
# ID (with t: of thread ID): "COMM USR LO HI UTIME SYS SLO SHI STIME
# SAMPLES TGID" (UTIME and STIME keep their '*'), or nothing.
trow() {
	awk -v id="$2" -v thr="${3:-}" '
		/^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]  interval / { row = "" }
		/^ *[0-9]+ / {
			s = $0; gsub(/[][]/, " ", s); split(s, f, " "); o = thr ? 1 : 0
			if (f[1 + o] == id)
				row = f[2 + o] " " f[3 + o] " " f[4 + o] " " f[5 + o] " " f[6 + o] " " \
				      f[7 + o] " " f[8 + o] " " f[9 + o] " " f[10 + o] " " f[11 + o] " " f[1]
		}
		END { print row }' "$1"
}

# jtask FILE ID [tid]: in the last JSON line of FILE, the task whose pid
# (or tid) is ID: "USR LO HI KUSR SYS SLO SHI KSYS NUSER NSYS NALL T COMM"
# (KUSR, KSYS null when the kernel has no figure; N*: its samples in user,
# nice, guest and guest_nice; in system; in every class; T the interval).
jtask() {
	awk -v id="$2" -v key="${3:-pid}" '
	function num(s, k) {
		if (!match(s, "\"" k "\":-?[0-9][0-9.e+-]*")) return "null"
		s = substr(s, RSTART, RLENGTH); sub(/^[^:]*:/, "", s); return s
	}
	function ci(s, k,   r) {
		if (!match(s, "\"" k "\":\\[[-0-9.e+]+,[-0-9.e+]+\\]")) return "null null"
		r = substr(s, RSTART, RLENGTH); sub(/^[^[]*\[/, "", r); sub(/\]$/, "", r)
		sub(/,/, " ", r); return r
	}
	{ line = $0 }
	END {
		n = split(line, part, /\{"pid":/)
		for (i = 2; i <= n; i++) {
			p = "{\"pid\":" part[i]
			if (num(p, key) != id) continue
			rs = substr(p, index(p, "\"randstat\":")); k = substr(p, index(p, "\"kernel\":"))
			comm = "?"
			if (match(p, /"comm":"[^"]*"/)) comm = substr(p, RSTART + 8, RLENGTH - 9)
			nall = 0
			split("user nice system idle iowait irq softirq steal guest guest_nice", c, " ")
			for (j = 1; j <= 10; j++) nall += num(p, c[j])
			print num(rs, "usr"), ci(rs, "usr"), num(k, "usr"), num(rs, "sys"), ci(rs, "sys"),
			      num(k, "sys"), num(p, "user") + num(p, "nice") + num(p, "guest") + num(p, "guest_nice"),
			      num(p, "system"), nall, num(line, "interval_s"), comm
			exit
		}
	}' "$1"
}

# marks_agree FILE [t]: in every row of FILE (text), a kernel figure has a
# '*' exactly when it lies outside randstat's interval by more than one
# clock tick (1/100 s) over the interval plus 0.005; figures within 0.01
# of that edge (the printed rounding) are not judged.
marks_agree() {
	awk -v thr="${2:-}" "$AWK_MATH"'
		function judge(k, lo, hi,   m, x) {
			m = (k ~ /\*$/); x = k; sub(/\*$/, "", x)
			if (x == "-") { if (m) bad++; return }
			x += 0; lo += 0; hi += 0
			t = 100 * 0.01 / T + 0.005
			if (sq(x - (lo - t)) < 1e-4 || sq(x - (hi + t)) < 1e-4) return
			if (m != (x < lo - t || x > hi + t)) { bad++; print "# mark wrong: " $0 }
			rows++
		}
		/^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]  interval / { T = $3 }
		/^ *[0-9]+ / {
			s = $0; gsub(/[][]/, " ", s); split(s, f, " "); o = thr ? 1 : 0
			judge(f[6 + o], f[4 + o], f[5 + o]); judge(f[10 + o], f[8 + o], f[9 + o])
		}
		END { print "# " rows + 0 " kernel figures judged, " bad + 0 " marks wrong"; exit bad || !rows }' "$1"
}

if [ ! -x "$RS" ]; then
	diag "no $RS in the guest (make -C userspace randstat.static)"
	ktap_end
	exit 1
fi

# --- arguments ------------------------------------------------------------
$RS top --help >/tmp/out 2>&1
st=$?
[ $st -eq 0 ] && grep -q '^Usage: randstat top \[-t\] \[-p PID\[,PID...\]\] \[-n N\] \[--rows N\] \[--json\]$' /tmp/out
ok_or_show $? "top --help: exit 0, the usage" /tmp/out
for c in "-x|unknown option or missing argument: -x" "-n|unknown option or missing argument: -n" \
	"-n 0 1|-n takes a whole number above 0: '0'" "0|INTERVAL must be a plain decimal number of seconds from 0.01 to 31622400 (a year), such as 2 or 0.5: '0'" \
	"1 0|COUNT must be a whole number above 0: '0'" "1 2 3|too many arguments: 3" \
	"--json=1|unknown option or missing argument: --json=1" \
	"--rows 0|--rows takes a whole number above 0: '0'" "-n 2 1 2|give -n or COUNT, not both" \
	"-p 1,x|-p takes process ids above 0, separated by commas: '1,x'"; do
	args=${c%%|*}
	msg=${c#*|}
	# shellcheck disable=SC2086 # $args is the arguments
	$RS top $args >/tmp/out 2>&1
	st=$?
	[ $st -eq 1 ] && grep -qF "randstat top: $msg" /tmp/out && grep -qF "Try 'randstat top --help'." /tmp/out
	ok_or_show $? "top $args: exit 1 ($st), says '$msg'" /tmp/out
done

# --- no module ------------------------------------------------------------
$RS top 1 1 >/tmp/out 2>&1
st=$?
[ $st -eq 3 ] && grep -q 'the randstat module is not loaded' /tmp/out &&
	grep -q 'sudo modprobe randstat' /tmp/out && ! grep -q 'needs root' /tmp/out
ok_or_show $? "no module: exit 3 ($st), the reader's message, how to load it" /tmp/out
/progs/runas -u 65534 $RS top 1 1 >/tmp/out 2>&1
st=$?
[ $st -eq 3 ] && grep -q 'the randstat module is not loaded' /tmp/out &&
	grep -q 'randstat top: needs root to read tracefs' /tmp/out
ok_or_show $? "no module, not root: exit 3 ($st), says both" /tmp/out

load_randstat
sleep 1

# --- not root ---------------------------------------------------------------
/progs/runas -u 65534 $RS top 1 1 >/tmp/out 2>&1
st=$?
[ $st -eq 5 ] && grep -q '^randstat top: needs root to read tracefs: run it as root (sudo randstat top)$' /tmp/out &&
	[ "$(wc -l </tmp/out)" -eq 1 ] && [ -z "$(instances)" ]
ok_or_show $? "not root (uid 65534): exit 5 ($st), says it needs root, no instance" /tmp/out

# --- a user spinner on cpu1 ------------------------------------------------
taskset -c 1 /progs/spin 120 >/dev/null &
spin=$!
sleep 1
$RS top "$SECS" 1 >/tmp/out 2>&1
st=$?
row=$(trow /tmp/out $spin)
diag "randstat top $SECS 1, spin is pid $spin: exit $st; its row: $row"
[ $st -eq 0 ] && [ "$(reports /tmp/out)" -eq 1 ] &&
	grep -Eq '^    PID COMMAND +%usr +95% interval +%utime +%sys +95% interval +%stime +samples$' /tmp/out &&
	grep -q '^randstat top: samples at random times, intervals 0.050 ms + exponential, mean 4.000 ms$' /tmp/out &&
	[ "${row%% *}" = spin ] && [ -z "$(instances)" ]
ok_or_show $? "plain: exit 0, the legend, one report, its header, spin's row (its pid and comm), no instance left" /tmp/out
cp /tmp/out /tmp/spin.out

# spin had all of cpu1 (s = 1, less interrupts and the odd kernel thread:
# well under a sigma), in user mode.
# shellcheck disable=SC2086 # $row is the fields
set -- $row
awk -v u="$2" -v T="$SECS" -v mu=$MU "$AWK_MATH"'BEGIN {
	s = 100 * root(mu / 1e9 / T)
	printf "# spin %%usr %.2f, 4 sigma %.2f: must be in [%.2f, %.2f]\n", u, 4 * s, 100 - 4 * s, 100 + 4 * s
	exit !(u != "" && sq(u - 100) <= sq(4 * s))
}'
ok_or_show $? "spin: randstat's %usr is 100 within 4 sigma" /tmp/out

# The kernel's utime: the scheduler's exact runtime, split by the tick
# (all user here: its binomial error is ~0); one tick of truncation.
awk -v u="$2" -v k="$5" -v T="$SECS" -v mu=$MU "$AWK_MATH"'BEGIN {
	sub(/\*$/, "", k); s = 100 * root(mu / 1e9 / T); tick = 100 * 0.01 / T
	printf "# spin: randstat %%usr %.2f, kernel %%utime %.2f, difference %.2f, tolerance 4 sigma + 1 tick = %.2f\n", u, k, u - k, 4 * s + tick
	exit !(k != "-" && sq(u - k) <= sq(4 * s + tick))
}'
ok_or_show $? "spin: the kernel's utime agrees with randstat's %usr (4 sigma + 1 tick)" /tmp/out

# System: the loop makes no system call (its clock is the vDSO's); what
# there is (a preemption's schedule()) is far below 0.5%, k ~ Poisson(<
# 3.75) over 3 s; 4 sigma above that is 11.5 samples, 1.5%: allow 2%.
awk -v sy="$6" -v ks="$9" "$AWK_MATH"'BEGIN {
	sub(/\*$/, "", ks)
	printf "# spin: randstat %%sys %.2f, kernel %%stime %s: randstat must be <= 2\n", sy, ks
	exit !(sy != "" && sy <= 2)
}'
ok_or_show $? "spin: randstat's %sys is near 0 (<= 2)" /tmp/out

marks_agree /tmp/out
ok_or_show $? "plain: every '*' (and no other kernel figure) is outside randstat's interval" /tmp/out

# --- --json -------------------------------------------------------------
$RS top --json 1 2 >/tmp/out 2>/tmp/err
st=$?
cat /tmp/err >>/tmp/out
jt=$(jtask /tmp/out $spin)
diag "randstat top --json 1 2: exit $st; spin: $jt"
# shellcheck disable=SC2086
set -- $jt
[ $st -eq 0 ] && [ "$(wc -l </tmp/out)" -eq 2 ] && awk "$JSONCHECK" /tmp/out &&
	keys /tmp/out '{"version":2,"view":"top","threads":false,"time":' '"interval_s":' \
		'"law":"exponential","floor_ns":50000,"mean_ns":4000000,"tmin_ns":2000000,"tmax_ns":6000000,"mean_interval_ns":4000000,' \
		'"samples":{"user":' '"lost":0,' '"active":' '"notes":[],' '"tasks":[{"pid":' &&
	[ "${13}" = spin ] && [ "$1" != null ] && [ "$4" != null ] &&
	awk -v u="$1" -v lo="$2" -v hi="$3" -v n="${9}" -v T="${12}" -v mu=$MU "$AWK_MATH"'BEGIN {
		# the share is the count times mu over T, the interval around it
		e = 100 * n * mu / 1e9 / T
		exit !(sq(u - e) < 1e-4 && lo <= u && u <= hi && T > 0.99 && T < 2)
	}'
ok_or_show $? "--json 1 2: two lines, each parses, the keys, spin's object (share = samples x mean / T)" /tmp/out

# --- --rows, -p, -n, INTERVAL COUNT, no INTERVAL ---------------------------
$RS top --rows 1 1 1 >/tmp/out 2>&1
st=$?
rows=$(grep -c '^ *[0-9][0-9]* ' /tmp/out)
[ $st -eq 0 ] && [ "$rows" -eq 1 ] && [ -n "$(trow /tmp/out $spin)" ]
ok_or_show $? "--rows 1: one row ($rows), the spinner's" /tmp/out

# -p: only the processes named, an idle one (this shell) too
$RS top -p "$spin,$$" 1 1 >/tmp/out 2>&1
st=$?
rows=$(grep -c '^ *[0-9][0-9]* ' /tmp/out)
[ $st -eq 0 ] && [ "$rows" -eq 2 ] && [ -n "$(trow /tmp/out $spin)" ] && [ -n "$(trow /tmp/out $$)" ]
ok_or_show $? "-p SPIN,SHELL: those two rows ($rows)" /tmp/out

# -n as top's: the number of reports
$RS top -n 2 0.5 >/tmp/out 2>&1
st=$?
n=$(reports /tmp/out)
[ $st -eq 0 ] && [ "$n" -eq 2 ]
ok_or_show $? "-n 2 0.5: two reports ($n)" /tmp/out

$RS top 0.5 3 >/tmp/out 2>&1
st=$?
n=$(reports /tmp/out)
[ $st -eq 0 ] && [ "$n" -eq 3 ] && [ "$(grep -c '^randstat top: samples at' /tmp/out)" -eq 1 ]
ok_or_show $? "0.5 3: three reports ($n), the legend once" /tmp/out

$RS top >/tmp/out 2>&1
st=$?
t=$(awk '/  interval / { print $3 }' /tmp/out)
[ $st -eq 0 ] && [ "$(reports /tmp/out)" -eq 1 ] &&
	awk -v t="$t" "$AWK_MATH"'BEGIN { exit !(t >= 0.99 && t < 2) }'
ok_or_show $? "no INTERVAL: one report, over one second ($t s)" /tmp/out

kill $spin
wait $spin 2>/dev/null

# --- a system-call loop on cpu1 ---------------------------------------------
# sysloop's 64 KiB reads of /dev/zero clear the buffer in the kernel with
# interrupts on: mostly system time.
taskset -c 1 /progs/sysloop 120 read >/dev/null &
sl=$!
sleep 1
$RS top --json "$SECS" 1 >/tmp/out 2>&1
st=$?
jt=$(jtask /tmp/out $sl)
diag "randstat top --json $SECS 1, sysloop is pid $sl: exit $st; $jt"
kill $sl
wait $sl 2>/dev/null
# shellcheck disable=SC2086
set -- $jt
# "Mostly system": randstat's %sys above 50 and above its %usr.  The
# kernel's stime says ~99% (the figures above); 50 is 13 sigma below.
[ $st -eq 0 ] && [ "${13}" = sysloop ] &&
	awk -v sy="$5" -v u="$1" -v T="${12}" -v mu=$MU "$AWK_MATH"'BEGIN {
		s = 100 * root(mu / 1e9 / T)
		printf "# sysloop: randstat %%sys %.2f, %%usr %.2f (sigma at s = 1: %.2f)\n", sy, u, s
		exit !(sy > 50 && sy > u)
	}'
ok_or_show $? "sysloop: mostly system (randstat's %sys > 50 and > %usr)" /tmp/out

# Against the kernel's stime: randstat's sigma at the kernel's share (not
# at randstat's own, which a wrong count would move), and the tick's
# binomial error over T * 250 ticks, in quadrature; one tick.
awk -v sy="$5" -v ks="$8" -v T="${12}" -v mu=$MU "$AWK_MATH"'BEGIN {
	q = ks / 100
	s = 100 * root(q * mu / 1e9 / T + q * (1 - q) / (T * 250)); tick = 100 * 0.01 / T
	printf "# sysloop: randstat %%sys %.2f, kernel %%stime %.2f, difference %.2f, tolerance 4 sigma + 1 tick = %.2f\n", sy, ks, sy - ks, 4 * s + tick
	exit !(ks != "null" && sq(sy - ks) <= sq(4 * s + tick))
}'
ok_or_show $? "sysloop: the kernel's stime agrees with randstat's %sys (4 sigma + 1 tick)" /tmp/out

# --- threads ----------------------------------------------------------------
# Two spinning threads share cpu1: s = 1/2 each, their process s = 1.
taskset -c 1 /progs/spinthreads 2 120 >/dev/null &
sp=$!
sleep 1
$RS top -t "$SECS" 1 >/tmp/out 2>&1
st=$?
tids=$(awk -v p="$sp" '/^ *[0-9]+ +[0-9]+ / && $1 == p { print $2 }' /tmp/out | sort -n | tr '\n' ' ')
diag "randstat top -t $SECS 1, spinthreads is pid $sp: exit $st; its threads: $tids"
r1=$(trow /tmp/out "$sp" t)
t2=${tids#* }
t2=${t2%% *}
r2=$(trow /tmp/out "$t2" t)
diag "thread $sp: $r1"
diag "thread $t2: $r2"
[ $st -eq 0 ] && grep -Eq '^   TGID     TID COMMAND +%usr' /tmp/out &&
	[ "$(echo "$tids" | wc -w)" -eq 2 ] && [ "${r1%% *}" = spinthreads ] &&
	[ "${r2%% *}" = spinthr-1 ] && [ "${r1##* }" = "$sp" ] && [ "${r2##* }" = "$sp" ]
ok_or_show $? "-t: a row per thread, both in spinthreads' process, each with its own name" /tmp/out
# shellcheck disable=SC2086
awk -v a="$(echo $r1 | cut -d' ' -f2)" -v b="$(echo $r2 | cut -d' ' -f2)" -v T="$SECS" -v mu=$MU "$AWK_MATH"'BEGIN {
	s = 100 * root(0.5 * mu / 1e9 / T)
	printf "# threads: %%usr %.2f and %.2f, each must be 50 within 4 sigma = %.2f\n", a, b, 4 * s
	exit !(a != "" && b != "" && sq(a - 50) <= sq(4 * s) && sq(b - 50) <= sq(4 * s))
}'
ok_or_show $? "-t: each thread's %usr is 50 within 4 sigma" /tmp/out
marks_agree /tmp/out t
ok_or_show $? "-t: every '*' (and no other kernel figure) is outside randstat's interval" /tmp/out

$RS top --json "$SECS" 1 >/tmp/out 2>&1
st=$?
jt=$(jtask /tmp/out "$sp")
diag "randstat top --json $SECS 1 (per process): $jt"
# shellcheck disable=SC2086
set -- $jt
[ $st -eq 0 ] && [ "${13}" = spinthreads ] &&
	awk -v u="$1" -v T="${12}" -v mu=$MU "$AWK_MATH"'BEGIN {
		s = 100 * root(mu / 1e9 / T)
		printf "# spinthreads (the process): %%usr %.2f, must be 100 within 4 sigma = %.2f\n", u, 4 * s
		exit !(sq(u - 100) <= sq(4 * s))
	}'
ok_or_show $? "per process: spinthreads' two threads add up to 100 within 4 sigma" /tmp/out
kill $sp
wait $sp 2>/dev/null

# --- signals: the instance goes with the reader -------------------------
# first_report FILE: wait (up to 20 s) for the first report in FILE.
# Creating an instance takes a while under TCG (6.1 makes the files of
# every event in it), most of a second at times.
first_report() {
	_i=0
	while [ "$(reports "$1")" -lt 1 ] && [ $_i -lt 100 ]; do
		sleep 0.2
		_i=$((_i + 1))
	done
}

for sig in TERM INT HUP; do
	$RS top 1 >/tmp/out 2>&1 &
	pid=$!
	first_report /tmp/out
	sleep 0.5
	inst=$(instances)
	# its buffers: 30 s of events, 64 bytes each, 250 a second: 468 KiB
	kb=$(cat "$(tracefs)/instances/randstat-top-$pid/buffer_size_kb" 2>/dev/null)
	kill -$sig $pid
	wait $pid
	st=$?
	n=$(reports /tmp/out)
	case $sig in TERM) want=143 ;; INT) want=130 ;; HUP) want=129 ;; esac
	diag "randstat top 1, SIG$sig after its first report: exit $st, $n reports; instance while it ran: $inst (buffer_size_kb $kb), after: $(instances)"
	[ $st -eq "$want" ] && [ "$n" -ge 1 ] && [ "$inst" = "randstat-top-$pid" ] && [ -z "$(instances)" ] &&
		[ "${kb%% *}" -ge 256 ]
	ok_or_show $? "SIG$sig: dies of it ($want), after removing its trace instance (of >= 256 KiB per CPU)" /tmp/out
done

# SIGKILL cannot be caught: the instance stays, and the next run removes it.
$RS top 1 >/tmp/out 2>&1 &
pid=$!
first_report /tmp/out
kill -KILL $pid
wait $pid 2>/dev/null
left=$(instances)
$RS top 0.5 1 >/tmp/out 2>&1
st=$?
diag "after SIGKILL: left $left; after the next run: '$(instances)'"
[ "$left" = "randstat-top-$pid" ] && [ $st -eq 0 ] && [ -z "$(instances)" ]
ok_or_show $? "SIGKILL leaves the instance; the next randstat top removes it" /tmp/out

# --- the module going away under it -------------------------------------
$RS top 1 >/tmp/out 2>&1 &
pid=$!
first_report /tmp/out
rmmod randstat 2>/tmp/rmmod
rm_st=$?
if [ $rm_st -ne 0 ]; then
	kill -TERM $pid
	wait $pid
	st=$?
	diag "rmmod while randstat top ran: refused ($(cat /tmp/rmmod)); top exit $st"
	[ $st -eq 143 ]
	ok_or_show $? "rmmod during randstat top: refused while its event is enabled" /tmp/out
	rmmod randstat
else
	wait $pid
	st=$?
	diag "rmmod while randstat top ran: done; top exit $st"
	[ $st -eq 3 ] && grep -q 'the randstat module is not loaded\|randstat:sample went away' /tmp/out
	ok_or_show $? "rmmod during randstat top: it exits 3, saying the module went away" /tmp/out
fi
[ ! -e /proc/randstat ] && [ -z "$(instances)" ]
result $? "the module unloaded, no instance left"

dmesg_clean "dmesg: no WARNING, BUG, Oops or lockdep report"
ktap_end
