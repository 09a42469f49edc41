# shellcheck shell=sh
# debug: the module on the debug kernel (tests/debugkernel.sh: lockdep,
# KASAN, kmemleak, UBSAN, atomic-sleep and debug-objects checks, fault
# injection, IRQ_TIME_ACCOUNTING), booted with nohz_full=1 so that both
# modes, sampled and exact, run.  Each phase ends with a scan: no report
# in the kernel log since the last one, and lockdep still armed.  Two
# phases, the all-at-once one and the last, end with the module unloaded
# and a kmemleak scan too, which finds what every phase since the last
# leak scan left unreferenced: a leak stays a leak, and kmemleak's report
# carries the allocation's call chain, which says where it came from.
# (A leak scan after every phase cost 26 s each, 208 s of a 539 s guest,
# in make check at 1cefb67.)  The scan is tested too: the module builds
# with deliberate bugs (tests/debug/break-*.patch, in /ko/) must each be
# caught.
#
# KASAN and lockdep under TCG make everything slow (a reload takes ~1 s):
# the phases are sized for a few minutes in all.  DEBUG_STRESS (seconds,
# default 60) is the all-at-once phase.
# shellcheck source=tests/vm/guest/lib.sh
. /tests/lib.sh
# The plan: 27 tests, and one per deliberately broken build in /ko (one
# failing test if there is none).
nbreak=$(find /ko -name 'break-*.ko' 2>/dev/null | wc -l)
ktap_begin "$((27 + (nbreak > 0 ? nbreak : 1)))"

KL=/sys/kernel/debug/kmemleak
P=/sys/module/randstat/parameters
STRESS=${randstat_debug_stress:-60}
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
# No scans but this script's: kmemleak's own thread would scan a minute
# after boot and every ten, a vCPU's 9-11 s each under TCG (below),
# beside the phases (its reports would reach the log, which the phases
# read).
echo scan=off >$KL 2>/dev/null

# What the checks print: lockdep ("WARNING: possible circular locking
# dependency", "... lockdep ..."), KASAN and UBSAN ("BUG: KASAN: ...",
# "UBSAN: ..."), might_sleep ("BUG: sleeping function called from invalid
# context"), debug objects ("ODEBUG: ... WARNING"), kmemleak ("kmemleak:
# N new suspected memory leaks"), and any WARN(), BUG() or oops.
# The patterns match reports, not names: a call trace of an injected
# allocation failure passes through lockdep_hardirqs_on(), and kmemleak
# says so when an injected failure costs it a scan area (its own
# allocations are spared, below).
REPORTS='WARNING|BUG|\<lockdep\>|KASAN|UBSAN|kmemleak: .*(leak|disabl)|ODEBUG|Oops|general protection'
# An empty parameter value: sysfs takes a newline, a 0-byte write is no
# write at all.
NL='
'

# kmemleak_scan: report what kmemleak finds now.  It reports an object
# unreferenced in a scan if the object is at least 5 s old (its minimum
# age) and its contents did not change since the scan before, which
# recorded their checksum: so two scans, as its documentation advises,
# the second at least 6 s after what the caller did.  The first does not
# wait: it sees what the second would see, and its checksums are what
# the second compares.  On the debug kernel under TCG a scan takes ~9 s
# (512 MiB: run.sh; with 1 GiB, ~11 s), so the second follows at once.
kmemleak_scan() {
	_k0=$(cut -d' ' -f1 /proc/uptime)
	# A disabled kmemleak refuses the scan (EPERM): that is a finding.
	echo scan >$KL 2>/dev/null || echo "kmemleak is off"
	sleep "$(awk -v t0="$_k0" '{ w = t0 + 6 - $1; printf "%.2f", w > 0 ? w : 0 }' /proc/uptime)"
	echo scan >$KL 2>/dev/null
	cat $KL
}

# scanned NAME [leaks]: the checks found nothing since the last scan: no
# report in the kernel log, lockdep still on (it turns itself off after
# its first report), and with "leaks" no kmemleak report (of what any
# phase since the last leak scan left); then start afresh (dmesg -C,
# kmemleak clear).
scanned() {
	_bad=$(dmesg | grep -E "$REPORTS" | head -n 20)
	_dl=$(awk '$1 == "debug_locks:" { print $2 }' /proc/lockdep_stats)
	[ "$_dl" = 1 ] || _bad="$_bad
debug_locks is '$_dl': lockdep is off"
	_scan=
	if [ "${2:-}" = leaks ]; then
		_t0=$(cut -d' ' -f1 /proc/uptime)
		_leaks=$(kmemleak_scan)
		[ -z "$_leaks" ] || _bad="$_bad
$(echo "$_leaks" | head -n 30)"
		_scan=" (its leak scan $(awk -v t0="$_t0" '{ printf "%.1f", $1 - t0 }' /proc/uptime) s)"
	fi
	_bad=$(echo "$_bad" | grep -v '^$')
	diag "$1: done at $(cut -d' ' -f1 /proc/uptime) s after boot$_scan"
	if [ -z "$_bad" ]; then
		result 0 "$1: the checks report nothing"
	else
		echo "$_bad" | sed 's/^/# report: /'
		# What came before the first report: the call chain.
		dmesg | grep -m 1 -A 25 -E "$REPORTS" | sed 's/^/# dmesg: /'
		result 1 "$1: the checks report nothing"
	fi
	dmesg -c >/dev/null
	echo clear >$KL
}

loaded() { grep -q '^randstat ' /proc/modules; }

[ -w $KL ] && [ -r /proc/lockdep_stats ]
result $? "the debug kernel: kmemleak and lockdep are there"
# IRQ time accounting (the irq reference) stops if the TSC is unstable.
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
[ "$cs" = tsc ]
result $? "the clock is the TSC ($cs), so IRQ time accounting runs"
# What booting left behind is not the module's.
kmemleak_scan >/dev/null
echo clear >$KL
dmesg -c >/dev/null

# --- load, read, unload ------------------------------------------------------
load_randstat exact_cpus=
cat /proc/randstat /proc/randstat_detail /proc/randstat_hist >/dev/null
/progs/randstat >/dev/null
result $? "the reader runs"
taskset -c 1 /progs/spin 2 >/dev/null
cat /proc/randstat /proc/randstat_detail >/dev/null
rmmod randstat
result $? "rmmod"
scanned "load, read and unload"

# --- hotplug -----------------------------------------------------------------
# cpu1 offline and online, busy and idle (dormant), in both modes, with
# a reset while it is idle.
insmod /randstat.ko exact_cpus=
bad=0
for mode in "$NL" 1; do
	/progs/wr $P/exact_cpus "$mode" >/dev/null || bad=$((bad + 1))
	for busy in 1 0; do
		if [ $busy = 1 ]; then taskset -c 1 /progs/spin 30 >/dev/null & spin=$!; fi
		sleep 0.5
		/progs/wr /sys/devices/system/cpu/cpu1/online 0 >/dev/null || bad=$((bad + 1))
		cat /proc/randstat /proc/randstat_detail >/dev/null
		sleep 0.3
		/progs/wr /sys/devices/system/cpu/cpu1/online 1 >/dev/null || bad=$((bad + 1))
		sleep 0.3
		[ "$busy" = 0 ] && { /progs/wr /proc/randstat reset >/dev/null || bad=$((bad + 1)); }
		cat /proc/randstat /proc/randstat_detail >/dev/null
		if [ "$busy" = 1 ]; then kill "$spin"; wait "$spin" 2>/dev/null; fi
	done
done
diag "$bad failed writes"
[ $bad -eq 0 ]
result $? "cpu1 offline and online, busy and idle, sampled and exact"
rmmod randstat
scanned "hotplug"

# --- parameters ----------------------------------------------------------------
# Every parameter, good values and bad (refused), while cpu1 spins.
insmod /randstat.ko
taskset -c 1 /progs/spin 60 >/dev/null &
spin=$!
bad=0
# w FILE VALUE WANT: the write's outcome is WANT (ok or an errno name).
w() {
	_o=$(/progs/wr "$P/$1" "$2")
	[ "$_o" = "$3" ] || { diag "$1=$2: $_o, expected $3"; bad=$((bad + 1)); }
}
for v in uniform exponential; do w law $v ok; done
w law bogus EINVAL
w mean_ns 2000000 ok
w floor_ns 500000 ok
w floor_ns 1 EINVAL
w mean_ns 4000000 ok
w tmin_ns 1000000 ok
w tmax_ns 7000000 ok
w tmax_ns 1 EINVAL
w tickless 0 ok
w tickless abc EINVAL
w tickless 1 ok
w exact_cpus "$NL" ok
w exact_cpus 0 EINVAL
w exact_cpus 1 ok
w exact_cpus 0-99 EINVAL
cat /proc/randstat /proc/randstat_detail >/dev/null
kill $spin
wait $spin 2>/dev/null
diag "$bad unexpected outcomes; now law $(param law) mean_ns $(param mean_ns) floor_ns $(param floor_ns) tickless $(param tickless) exact_cpus '$(param exact_cpus)'"
[ $bad -eq 0 ]
result $? "parameter writes: good ones taken, bad ones refused"
rmmod randstat
scanned "parameters"

# --- concurrent readers --------------------------------------------------------
insmod /randstat.ko exact_cpus=
readers_check "4 concurrent readers: all counters monotonic and consistent"
scanned "concurrent readers"

# --- 100 reloads under load ----------------------------------------------------
taskset -c 1 /progs/spin 3600 >/dev/null &
spin=$!
(while :; do cat /proc/randstat /proc/randstat_detail >/dev/null 2>&1; done) &
rd=$!
i=0 t0=$(date +%s)
while [ $i -lt 100 ]; do
	rmmod randstat || break
	if [ $((i % 2)) = 0 ]; then insmod /randstat.ko || break
	else insmod /randstat.ko exact_cpus= || break; fi
	i=$((i + 1))
done
kill $spin $rd
wait $spin $rd 2>/dev/null
diag "$i cycles in $(($(date +%s) - t0)) s"
[ $i -eq 100 ]
result $? "100 rmmod/insmod cycles while cpu1 spins and a reader reads"
rmmod randstat
scanned "100 reloads"

# --- everything at once --------------------------------------------------------
# Readers, resets, parameter changes, cpu1 offline and online, and
# rmmod/insmod, each in a loop of its own, for STRESS seconds while a task
# spins (on cpu1 while it is online).  Errors of the loops themselves are
# expected (a reader meets the module unloaded); the kernel must stay
# quiet, and the module must work afterwards.
insmod /randstat.ko
taskset -c 1 /progs/spin 3600 >/dev/null &
pids=$!
(while :; do cat /proc/randstat /proc/randstat_detail >/dev/null 2>&1; done) & pids="$pids $!"
(while :; do /progs/readers 2 1 >/dev/null 2>&1; done) & pids="$pids $!"
(while :; do /progs/wr /proc/randstat reset >/dev/null; sleep 0.2; done) & pids="$pids $!"
(while :; do
	for v in uniform exponential; do /progs/wr $P/law $v; done
	/progs/wr $P/tickless 0; /progs/wr $P/mean_ns 2000000
	/progs/wr $P/exact_cpus "$NL"; /progs/wr $P/tickless 1
	/progs/wr $P/mean_ns 4000000; /progs/wr $P/exact_cpus 1
done >/dev/null 2>&1) & pids="$pids $!"
(while :; do
	/progs/wr /sys/devices/system/cpu/cpu1/online 0; sleep 0.5
	/progs/wr /sys/devices/system/cpu/cpu1/online 1; sleep 0.5
done >/dev/null 2>&1) & pids="$pids $!"
(while :; do rmmod randstat; sleep 0.3; insmod /randstat.ko; sleep 1; done \
	>/dev/null 2>&1) & pids="$pids $!"
sleep "$STRESS"
# shellcheck disable=SC2086 # a list of pids
kill $pids
# shellcheck disable=SC2086
wait $pids 2>/dev/null
/progs/wr /sys/devices/system/cpu/cpu1/online 1 >/dev/null
loaded || insmod /randstat.ko
taskset -c 1 /progs/spin 1 >/dev/null
grep -q '^cpu1 ' /proc/randstat && /progs/randstat >/dev/null
result $? "after $STRESS s of all of it at once: loaded, cpu1 online, the reader runs"
rmmod randstat
scanned "$STRESS s of readers, resets, parameters, hotplug and reloads at once" leaks

# --- fault injection -------------------------------------------------------------
# failslab and fail_page_alloc for GFP_KERNEL allocations of any order,
# quietly; /progs/failnth makes the N-th fault point of one operation
# fail, for N = 1, 2, ... until the operation has no N-th point.  Each
# injected failure must give the caller an error (or be absorbed) and
# leave things as they were: after a failed insmod no module and no
# /proc/randstat; after anything, a plain read of /proc/randstat works.
# Slab failures only from the kmalloc caches (the guest boots with
# slub_debug=A,kmalloc-*: the failslab flag, read-only in sysfs), so that
# the checkers' own caches (kmemleak's objects, debug objects) are
# spared: a kmemleak that lost an object would turn itself off, and find
# nothing after.
for f in failslab fail_page_alloc; do
	echo N >/sys/kernel/debug/$f/ignore-gfp-wait
	echo 0 >/sys/kernel/debug/$f/verbose
done
echo 0 >/sys/kernel/debug/fail_page_alloc/min-order
echo N >/sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem
echo Y >/sys/kernel/debug/failslab/cache-filter
bad=0
n=0
for c in /sys/kernel/slab/kmalloc-*; do
	n=$((n + 1))
	[ "$(cat "$c/failslab")" = 1 ] || bad=$((bad + 1))
done
[ $n -gt 0 ] && [ $bad -eq 0 ]
result $? "failslab armed on every kmalloc cache ($bad of $n not)"

# inject NAME MAX OP ARGS...: failnth over OP's points; after each, CHECK
# (a command) must succeed.  Prints a summary; returns non-zero on a bad
# outcome.
inject() {
	_name=$1 _max=$2
	shift 2
	_n=1 _errs="" _bad=0
	while [ $_n -le "$_max" ]; do
		_o=$(/progs/failnth $_n "$@")
		case $_o in
		"none "*) break ;;
		"injected ok") ;;
		"injected "*) _errs="$_errs ${_o#injected }" ;;
		*) diag "$_name: N=$_n: '$_o'"; _bad=$((_bad + 1)); break ;;
		esac
		after_inject "$_o" || { diag "$_name: N=$_n ($_o): not as it was afterwards"; _bad=$((_bad + 1)); }
		_n=$((_n + 1))
	done
	_errs=$(echo "$_errs" | tr ' ' '\n' | grep -v '^$' | sort | uniq -c | awk '{ printf "%s%s x%d", s, $2, $1; s = ", " }')
	diag "$_name: $((_n - 1)) fault points, errors returned: ${_errs:-none}; the last run ($_o) injected nothing"
	[ $_bad -eq 0 ] && [ "${_o%% *}" = none ] && [ "${_o#none }" = ok ]
}

# At load.  A failed insmod leaves nothing; one that got through is
# unloaded for the next round.
after_inject() {
	case $1 in
	"injected ok") loaded && [ -r /proc/randstat ] && rmmod randstat ;;
	*) ! loaded && [ ! -e /proc/randstat ] && [ ! -e /proc/randstat_detail ] && [ ! -e /proc/randstat_hist ] ;;
	esac
}
inject "insmod" 3000 insmod /randstat.ko
result $? "insmod with each of its allocations failing: a clean error, nothing left behind"
loaded && rmmod randstat
scanned "fault injection at load"

# Opening and reading /proc/randstat and /proc/randstat_detail, writing
# "reset" to /proc/randstat, and writing
# the parameters whose setters allocate (or may: cpumask_var_t).
insmod /randstat.ko
after_inject() { cat /proc/randstat /proc/randstat_detail >/dev/null; }
inject "read /proc/randstat" 1000 read /proc/randstat
result $? "open and read /proc/randstat with each allocation failing: a clean error, then reads work"
inject "read /proc/randstat_detail" 1000 read /proc/randstat_detail
result $? "open and read /proc/randstat_detail with each allocation failing: a clean error, then reads work"
inject "reset" 1000 write /proc/randstat reset
result $? "reset with each allocation failing: a clean error, then reads work"
# A refused write keeps the old value (1, nohz_full's CPU), a taken one
# sets the new; put the old one back each time.
after_inject() {
	case $1 in *" ok") _want="" ;; *) _want=1 ;; esac
	_got=$(param exact_cpus)
	/progs/wr $P/exact_cpus 1 >/dev/null
	[ "$_got" = "$_want" ] || diag "exact_cpus is '$_got', expected '$_want'"
	cat /proc/randstat /proc/randstat_detail >/dev/null && [ "$_got" = "$_want" ]
}
inject "exact_cpus=" 1000 write $P/exact_cpus "$NL"
result $? "exact_cpus= with each allocation failing: a clean error, then reads work"
rmmod randstat
scanned "fault injection after load"

# --- an exact reference for irq and softirq -----------------------------------
# With IRQ_TIME_ACCOUNTING, /proc/stat's irq and softirq columns are the
# kernel's measured time in hardirq and softirq (sched_clock at entry
# and exit).  UDP over loopback from cpu1 makes softirq time on cpu1 (the
# backlog runs there, at local_bh_enable()): randstat's softirq share must
# agree with the exact one within 4 sigma plus the window's edges.  Its
# irq share cannot: hardirq handlers run with interrupts off, so a sample
# due in one is taken after it returns and charged to what it
# interrupted.  What it hides, exact irq less randstat's, is reported;
# randstat must not see more irq time than there is.
insmod /randstat.ko exact_cpus=
measure udpflood taskset -c 1 /progs/udpflood "$SECS"
judge "udpflood on cpu1: softirq share agrees with IRQ_TIME_ACCOUNTING's" "$REF_PROG" -v cls=softirq -v minq=0.1 -v exact=1
judge "udpflood on cpu1: irq share at most IRQ_TIME_ACCOUNTING's" 'END {
	c = "cpu1"; p = share(c, "irq"); q = sshare(c, "irq"); n = nsamp(c)
	tol = 4 * sigma(q, n) + (edge_ns() + 1e7) / g("wall")
	print "# " c " irq: randstat " pct(p) ", exact " pct(q) ", hidden from sampling " pct(q - p) \
		", tolerance " pct(tol) " (n " n ")"
	verdict(p <= q + tol)
}'
rmmod randstat
scanned "irq and softirq reference" leaks

# --- the scan catches bugs -------------------------------------------------------
# Each /ko/break-NAME.ko is randstat with one deliberate bug
# (tests/debug/break-NAME.patch, whose first line says what must report
# it).  Load it, read /proc/randstat and /proc/randstat_hist, let cpu1
# run and idle, unload: the scan must find the bug.  Last: a lockdep
# report turns lockdep off.
for ko in /ko/break-*.ko; do
	[ -e "$ko" ] || { result 1 "broken builds to catch: none in /ko"; break; }
	what=${ko##*/break-}
	what=${what%.ko}
	want=$(cat "/ko/break-$what.expect")
	dmesg -c >/dev/null
	insmod "$ko" exact_cpus=
	cat /proc/randstat /proc/randstat_detail /proc/randstat_hist >/dev/null
	taskset -c 1 /progs/spin 1 >/dev/null
	cat /proc/randstat /proc/randstat_detail >/dev/null
	sleep 0.5
	rmmod randstat
	# What lockdep, KASAN, UBSAN and might_sleep report is in the log
	# at once; only a leak needs kmemleak's two scans (~22 s here).
	found=$(dmesg | grep -F -m 1 "$want") ||
		found=$( { kmemleak_scan; dmesg; } | grep -F -m 1 "$want")
	diag "break-$what: expected '$want', found: ${found:-nothing}"
	[ -n "$found" ]
	result $? "the scan catches break-$what ($want)"
	dmesg -c >/dev/null
	echo clear >$KL
done

ktap_end
