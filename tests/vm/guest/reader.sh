# shellcheck shell=sh
# reader: the reader, /progs/randstat (userspace/randstat, linked
# statically), run for real over the guest's /proc/stat and /proc/randstat
# in each of its modes (userspace/randstat.1): no argument, INTERVAL COUNT
# (also across a reset, a CPU going offline and online, and a spin on
# cpu1), --json, --prometheus, and with the module unloaded.
#
# It also prints pairs of /proc/stat and /proc/randstat on the console,
# each file between "RANDSTAT-FIXTURE-BEGIN NAME" and "RANDSTAT-FIXTURE-END
# NAME": tests/vm/capture-fixtures.sh turns them into the reader's unit
# test fixtures (userspace/tests/fixtures/vm-*); run.sh leaves them out of
# the KTAP.  The reader runs on cpu0 (the harness's CPU), workloads on cpu1.
# shellcheck source=tests/vm/guest/lib.sh
. /tests/lib.sh
ktap_begin 20
RS=/progs/randstat
dmesg -c >/dev/null

# fixture NAME: /proc/stat and /proc/randstat, read one right after the
# other, as NAME.stat and NAME.randstat.
fixture() {
	cat /proc/stat >/tmp/fx.stat
	cat /proc/randstat_detail >/tmp/fx.randstat
	for f in stat randstat; do
		echo "RANDSTAT-FIXTURE-BEGIN $1.$f"
		cat "/tmp/fx.$f"
		echo "RANDSTAT-FIXTURE-END $1.$f"
	done
}

# no_negative FILE: no number in FILE is negative ("-" alone means none).
no_negative() { ! grep -Eq '(^|[ :,])-[0-9]' "$1"; }

# reports FILE: the number of interval reports in the reader's output.
reports() { grep -Ec '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]  interval [0-9.]+ s$' "$1"; }

# field FILE CPU COL: column COL (1 = %usr) of CPU's randstat row in the
# last report in FILE.
field() {
	awk -v cpu="$2" -v col="$3" '$1 == cpu && $2 == "randstat" { v = $(2 + col) }
		END { print v }' "$1"
}

online_cpus() { awk '$1 ~ /^cpu[0-9]+$/ { printf "%s ", substr($1, 4) }' /proc/stat; }

if [ ! -x "$RS" ]; then
	diag "no $RS in the guest (make -C userspace randstat.static)"
	ktap_end
	exit 1
fi
load_randstat
sleep 1

# --- fixtures ----------------------------------------------------------------
# normal: after a second; later: after a spin on cpu1 of SECS+1 s; reset:
# right after a reset; offline: while cpu1 is offline (for a second).
fixture vm-normal
taskset -c 1 /progs/spin $((SECS + 1)) >/dev/null
fixture vm-later
echo reset >/proc/randstat
fixture vm-reset
echo 0 >/sys/devices/system/cpu/cpu1/online
sleep 1
fixture vm-offline
echo 1 >/sys/devices/system/cpu/cpu1/online
sleep 1
[ "$(cat /sys/devices/system/cpu/cpu1/online)" = 1 ]
result $? "fixtures captured (normal, later, reset, offline); cpu1 back online"

# --- no argument: shares since the counters started -------------------------
cpus=$(online_cpus)
$RS >/tmp/out 2>&1
st=$?
diag "online cpus: $cpus; exit $st"
awk -v cpus="$cpus" '
	BEGIN { n = split(cpus, c, " "); for (i = 1; i <= n; i++) want[c[i]] = 1; want["all"] = 1 }
	$1 == "CPU" { hdr = ($0 ~ /^CPU +source +%usr +%nice +%sys +%iowait +%irq +%soft +%steal +%guest +%gnice +%idle +seconds +samples$/) }
	$2 == "randstat" { row[$1]++; if (NF != 14) bad = 1 }
	END {
		ok = hdr && !bad
		for (k in want) if (row[k] != 1) { ok = 0; print "# no single randstat row for " k }
		for (k in row) if (!(k in want)) { ok = 0; print "# a row for " k ", not online" }
		exit !ok
	}' /tmp/out
s1=$?
[ $st -eq 0 ] && [ $s1 -eq 0 ] && no_negative /tmp/out
ok_or_show $? "no argument: exit 0, columns %usr..%idle, one row per online CPU and all" /tmp/out
grep -q 'since it was loaded or reset' /tmp/out
result $? "no argument: says the two sources cover different times"

# --- INTERVAL COUNT ----------------------------------------------------------
$RS 1 2 >/tmp/out 2>&1
st=$?
n=$(reports /tmp/out)
diag "randstat 1 2: exit $st, $n reports"
[ $st -eq 0 ] && [ "$n" -eq 2 ] && no_negative /tmp/out &&
	[ "$(grep -c '^all  randstat' /tmp/out)" -eq 2 ] && ! grep -q '^note:' /tmp/out
ok_or_show $? "randstat 1 2: exit 0, two reports, no notes, no negative number" /tmp/out

# A reset between the two reads of the first report.
$RS 3 2 >/tmp/out 2>&1 &
pid=$!
sleep 1.5
echo reset >/proc/randstat
wait $pid
st=$?
n=$(reports /tmp/out)
diag "randstat 3 2 across a reset: exit $st, $n reports"
[ $st -eq 0 ] && [ "$n" -eq 2 ] && no_negative /tmp/out &&
	grep -q "^note: randstat's counters went down between the two reads: they were reset" /tmp/out &&
	[ "$(grep -c '^all  randstat' /tmp/out)" -eq 1 ]
ok_or_show $? "interval across a reset: says so, no report for it, the next one normal, no negative number" /tmp/out

# cpu1 offline between reads 1 and 2, back online between reads 2 and 3.
$RS 3 2 >/tmp/out 2>&1 &
pid=$!
sleep 1.5
echo 0 >/sys/devices/system/cpu/cpu1/online
sleep 3
echo 1 >/sys/devices/system/cpu/cpu1/online
wait $pid
st=$?
n=$(reports /tmp/out)
diag "randstat 3 2 across cpu1 offline and online: exit $st, $n reports"
[ $st -eq 0 ] && [ "$n" -eq 2 ] && no_negative /tmp/out &&
	grep -q '^note: cpu1 went offline between the two reads' /tmp/out &&
	grep -q '^note: cpu1 came online between the two reads' /tmp/out &&
	! grep -q '^1  *randstat' /tmp/out && [ "$(grep -c '^0  *randstat' /tmp/out)" -eq 2 ]
ok_or_show $? "interval across cpu1 going offline and online: says both, no cpu1 row" /tmp/out
[ "$(cat /sys/devices/system/cpu/cpu1/online)" = 1 ]
result $? "cpu1 back online"

# A spin on cpu1 over the whole interval.
taskset -c 1 /progs/spin 6 >/dev/null &
spin=$!
sleep 1
$RS 3 1 >/tmp/out 2>&1
st=$?
wait $spin
usr=$(field /tmp/out 1 1)
n=$(awk '$1 == "1" && $2 == "randstat" { print $NF }' /tmp/out)
diag "randstat 3 1 during a spin on cpu1: exit $st, cpu1 %usr $usr over $n samples"
[ $st -eq 0 ] && awk -v u="$usr" 'BEGIN { exit !(u != "" && u + 0 >= 90) }'
ok_or_show $? "interval during a spin on cpu1: cpu1 %usr >= 90" /tmp/out

# --- --json ------------------------------------------------------------------
# common_keys FILE KEY...: the keys of every report, and KEY...
common_keys() {
	keys "$@" '{"version":2,"format":5,' '"time":' '"interval_s":' '"law":"exponential",' \
		'"floor_ns":50000,' '"mean_ns":4000000,' '"tmin_ns":2000000,' \
		'"tmax_ns":6000000,' '"reset":' '"notes":[' '"cpus":['
}
# cpu_keys FILE KEY...: common_keys, a CPU's keys, all, 0 and 1, and KEY...
cpu_keys() {
	common_keys "$@" '"cpu":"all"' '"cpu":"0"' '"cpu":"1"' '"pct":{"usr":' \
		'"ci95":{"usr":[' '"steal":null,' '"stat":{"seconds":' '"mode":"sampled","dormant":' '"sampler":{"samples":' \
		'"outside":[' '"nice":' '"sys":' '"iowait":' '"irq":' '"soft":' \
		'"steal":' '"guest":' '"gnice":' '"idle":'
}

$RS --json >/tmp/out 2>/tmp/err
st=$?
cat /tmp/err >>/tmp/out
[ $st -eq 0 ] && [ "$(wc -l </tmp/out)" -eq 1 ] && awk "$JSONCHECK" /tmp/out &&
	cpu_keys /tmp/out '"mode":"since_start"' '"interval_s":null' '"reset":false'
ok_or_show $? "--json: one line, parses, format 5 since_start with all, 0 and 1" /tmp/out

$RS --json 1 2 >/tmp/out 2>/tmp/err
st=$?
cat /tmp/err >>/tmp/out
[ $st -eq 0 ] && [ "$(wc -l </tmp/out)" -eq 2 ] && awk "$JSONCHECK" /tmp/out &&
	cpu_keys /tmp/out '"mode":"interval"' '"reset":false' &&
	no_negative /tmp/out
ok_or_show $? "--json 1 2: two lines, each parses, interval reports, no negative number" /tmp/out

$RS --json 3 2 >/tmp/out 2>/tmp/err &
pid=$!
sleep 1.5
echo reset >/proc/randstat
wait $pid
st=$?
cat /tmp/err >>/tmp/out
[ $st -eq 0 ] && [ "$(wc -l </tmp/out)" -eq 2 ] && awk "$JSONCHECK" /tmp/out &&
	common_keys /tmp/out '"mode":"interval"' &&
	head -n 1 /tmp/out | grep -qF '"reset":true,' && head -n 1 /tmp/out | grep -qF '"cpus":[]' &&
	head -n 1 /tmp/out | grep -qF "counters went down" &&
	tail -n 1 /tmp/out | grep -qF '"reset":false,'
ok_or_show $? "--json 3 2 across a reset: parses, first reset:true with no cpus, then reset:false" /tmp/out

# --- --prometheus ------------------------------------------------------------
# Each value against /proc/randstat's cpu lines (USER_HZ = 100 ticks, the
# ns truncated) read just before and just after: before/100 - 0.01 <=
# value <= after/100 + 0.01.
cat /proc/randstat >/tmp/r1
$RS --prometheus >/tmp/out 2>&1
st=$?
cat /proc/randstat >/tmp/r2
cpus=$(online_cpus)
awk -v cpus="$cpus" '
	BEGIN {
		split("user nice system idle iowait irq softirq steal", m, " ")
		for (i = 1; i <= 8; i++) col[m[i]] = i + 1
		n = split(cpus, c, " ")
		ok = 1
	}
	FILENAME == "/tmp/r1" && $1 ~ /^cpu[0-9]+$/ { for (i = 2; i <= 9; i++) lo[substr($1, 4), i] = $i; next }
	FILENAME == "/tmp/r2" && $1 ~ /^cpu[0-9]+$/ { for (i = 2; i <= 9; i++) hi[substr($1, 4), i] = $i; next }
	FILENAME == "/tmp/r1" || FILENAME == "/tmp/r2" { next }
	/^# HELP randstat_cpu_seconds_total / { help = 1 }
	/^# TYPE randstat_cpu_seconds_total counter$/ { type = 1 }
	/^# (HELP|TYPE) / { meta[$3 " " $2]++ }
	/^[a-z_]+(\{.*\})? / { name = $1; sub(/\{.*/, "", name); if (!metric[name]++) nmetric++
		if ($2 !~ /^[0-9]+(\.[0-9]+)?$/) { ok = 0; print "# not a non-negative number: " $0 } }
	/^randstat_cpu_seconds_total\{cpu="[0-9]+",mode="[a-z]+"\} / {
		split($1, a, "\""); cpu = a[2]; mode = a[4]; v = $2
		seen[cpu, mode]++
		if (!(mode in col)) { ok = 0; print "# unknown mode: " $0; next }
		l = lo[cpu, col[mode]] / 100 - 0.01; h = hi[cpu, col[mode]] / 100 + 0.01
		if (v < l || v > h) { ok = 0; print "# " $0 " not in [" l ", " h "] from /proc/randstat" }
		checked++
	}
	END {
		for (i = 1; i <= n; i++) for (j = 1; j <= 8; j++)
			if (seen[c[i], m[j]] != 1) { ok = 0; print "# cpu " c[i] " mode " m[j] ": " seen[c[i], m[j]] + 0 " lines" }
		for (k in metric) {
			if (meta[k " HELP"] != 1 || meta[k " TYPE"] != 1) { ok = 0; print "# " k ": no single # HELP and # TYPE" }
		}
		print "# " checked " randstat_cpu_seconds_total values checked against /proc/randstat, " nmetric " metrics"
		exit !(ok && help && type && checked == 8 * n)
	}' /tmp/r1 /tmp/r2 /tmp/out
s1=$?
[ $st -eq 0 ] && [ $s1 -eq 0 ]
ok_or_show $? "--prometheus: 8 modes per online CPU, # HELP and # TYPE, values >= 0 and = /proc/randstat / USER_HZ" /tmp/out
for k in randstat_cpu_guest_seconds_total randstat_samples_total randstat_guest_samples_total \
	randstat_sampler_cost_seconds_total randstat_sampler_late_seconds_total \
	randstat_sampler_overruns_total randstat_sampler_online; do
	grep -q "^$k{" /tmp/out || { echo "# no $k"; st=1; }
done
grep -q '^randstat_up 1$' /tmp/out || { echo "# no randstat_up 1"; st=1; }
grep -q '^randstat_build_info{version="[^"]*"} 1$' /tmp/out || { echo "# no randstat_build_info"; st=1; }
result "$st" "--prometheus: every metric of the man page is there"

# --- without the module ------------------------------------------------------
dmesg_clean "dmesg: no WARNING, BUG, Oops or lockdep report"
rmmod randstat
result $? "rmmod randstat"
for mode in "" --json --prometheus "1 1"; do
	# shellcheck disable=SC2086 # $mode is the arguments
	$RS $mode >/tmp/out 2>&1
	st=$?
	[ $st -eq 3 ] && grep -q 'the randstat module is not loaded' /tmp/out &&
		grep -q 'sudo modprobe randstat' /tmp/out && grep -q 'insmod module/randstat.ko' /tmp/out &&
		{ [ "$mode" != --prometheus ] || grep -q '^randstat_up 0$' /tmp/out; }
	ok_or_show $? "no module, randstat ${mode:-(no argument)}: exit 3 ($st), says how to load it" /tmp/out
done
ktap_end
