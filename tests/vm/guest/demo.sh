#!/bin/sh
# make demo, in the guest: randstat verify on cpu1 (an idle CPU, a steady
# spin, a job of 2 ms every 8 ms just after a tick and in phase with it,
# the tick evader), each shown three ways: what the workload really used,
# what /proc/stat says, what randstat says with its 95% interval; then the
# reader, and Debian's top plain and under randstat exec.  Ends with one
# KTAP result: did it come out as it should.
# shellcheck source=tests/vm/guest/lib.sh
. /tests/lib.sh

secs=${randstat_secs:-4}
fail=0
ktap_begin 1

# ok COND MESSAGE: count a failed expectation.
ok() {
	if awk "BEGIN { exit !($1) }"; then
		echo "  -> $2"
	else
		echo "  -> NOT AS EXPECTED: $2"
		fail=1
	fi
}

echo "randstat demo: Debian's kernel $(uname -r), 2 CPUs, a tick every 4 ms (HZ=250)."
echo "The tick charges each 4 ms to whatever runs at the instant it fires; randstat"
echo "samples at random instants, 4 ms apart on average.  Each workload runs on cpu1."
insmod /randstat.ko || { result 1 "insmod randstat.ko"; ktap_end; exit 1; }
sleep 1

# The workloads and their verdicts are randstat verify's, the command a
# user runs on their own machine (userspace/verify/), so that the demo and
# the command cannot disagree: an idle stretch, a spin, a 2 ms job every
# 8 ms just after a tick and in phase with it, and the tick evader, each
# against its exact runtime.
vsecs=$((6 * secs))
echo
echo "randstat verify --cpu 1 --seconds $vsecs: the same command, on your own machine,"
echo "judges randstat there (Documentation/admin-guide.rst, \"Check it on your hardware\")."
/progs/randstat verify --cpu 1 --seconds "$vsecs" >/tmp/v.txt 2>/tmp/v.err
vrc=$?
cat /tmp/v.err /tmp/v.txt
# row WORKLOAD FIELD: a field of verify's table (2 truth, 3 /proc/stat,
# 4 its error, 8 randstat's error, NF the verdict).
row() { awk -v w="$1" -v f="$2" '$1 == w { print (f == "NF" ? $NF : $f); exit }' /tmp/v.txt; }
# The demo's claim is the tick's miss and randstat's sight of the job:
# randstat at least 3 times closer to its truth than /proc/stat (the
# evader suite's bar).  verify's own verdicts are shown as they are, and
# not required here: under this emulator a woken task's exact runtime
# holds an emulated wake-up path that its bound, made for hardware, has
# no term for (two demo runs: randstat under the truth on every woken
# workload, -1.45 to -3.65 points, the spin within 0.2; the after-tick
# job FAILed once, -3.65 against 3.56).  The faithful suite judges them
# where no timer is late: all PASS.
echo
ok "$vrc == 0 || $vrc == 1 || $vrc == 5" "randstat verify ran to its verdicts (exit $vrc)"
ok "$(row after-tick 4) + 0 < -10" "/proc/stat misses the job just after a tick: it ran between ticks"
# (busybox awk has no sqrt: |x| as x * x)
ok "9 * ($(row after-tick 8) + 0) * ($(row after-tick 8) + 0) < ($(row after-tick 4) + 0) * ($(row after-tick 4) + 0)" \
	"randstat sees it: at least 3 times closer to the truth than /proc/stat"
ok "\"$(row spin NF)\" == \"PASS\"" "both see the spin"
if [ "$vrc" -ne 0 ]; then
	echo "  (verify's verdicts come from an emulator here: a woken task's exact runtime"
	echo "   includes its emulated wake-up path, which the bound, made for hardware,"
	echo "   does not allow for; run randstat verify on a real machine to judge it)"
fi

echo
echo "The reader, over one more second of the 2 ms / 8 ms job (cpu1's rows):"
taskset -c 1 /progs/iso 8000 2000 3 500 >/dev/null &
sleep 1
# cpu1's block: its randstat row and the rows under it (the interval's
# "+-95%" row, or its "95% from" and "95% to" rows, and /proc/stat's).
taskset -c 0 /progs/randstat 1 1 | awk '/^CPU/ { print } /^[^ ]/ { on = $1 == "1" } on'

wait

# Unmodified top on randstat's numbers (randstat-fs, randstat exec), when
# the guest has them (tests/deps.sh installs libfuse3-dev fuse3 procps).
if [ -x /usr/bin/randstat-fs ] && [ -x /usr/bin/top ] && [ -e /lib/modules/extra/fuse.ko ]; then
	echo
	echo "Debian's own top, unmodified, over 2 s of the same job: plain, then under"
	echo "'randstat exec', which shows it randstat-fs's /proc/stat (the %Cpu(s) line"
	echo "of the second frame: both CPUs, so the job's 25% of cpu1 is 12.5% of them):"
	insmod /lib/modules/extra/fuse.ko
	mkdir -p /run/randstat-fs
	/usr/bin/randstat-fs /run/randstat-fs 2>/tmp/fs.err &
	fs=$!
	i=0
	while [ $i -lt 50 ] && ! grep -q '^cpu ' /run/randstat-fs/stat 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	# Long enough for both tops however slow the guest, stopped after them
	# (with a fixed 6 s, one slow boot's served top saw 1.8% where 11-12%
	# is usual: the job may have ended before its second frame).
	# cpu1's user and system ticks in /proc/stat, for the premise below.
	ticks1() { awk '$1 == "cpu1" { print $2 + $3 + $4 }' /proc/stat; }
	# The premise of the comparison is the job's: that it runs between
	# ticks.  Its phase is set once, at its start; when the emulator
	# delivers its wake-ups late enough (TCG on a busy host: 1.5 ms
	# here), it slides onto the tick and every tool sees it.  Then the
	# tick's own count says so (over 5% of cpu1 while plain top ran),
	# and the job is started again, at most three times.
	try=1
	while :; do
		taskset -c 1 /progs/iso 8000 2000 30 500 >/dev/null &
		iso=$!
		sleep 0.5
		t0=$(ticks1)
		plain=$(TERM=dumb /usr/bin/top -b -n 2 -d 2 | grep '^%Cpu(s)' | tail -n 1)
		t1=$(ticks1)
		served=$(TERM=dumb /progs/randstat exec -- /usr/bin/top -b -n 2 -d 2 | grep '^%Cpu(s)' | tail -n 1)
		kill $iso
		wait $iso 2>/dev/null
		# top's 4 s (two frames of 2 s) at USER_HZ 100: 400 ticks.
		[ $((t1 - t0)) -le 20 ] || [ $try -ge 3 ] && break
		echo "  (the job's phase slipped onto the tick: /proc/stat charged cpu1"
		echo "   $((t1 - t0)) of about 400 ticks while plain top ran; starting it again)"
		try=$((try + 1))
	done
	echo "  top -b -n 2:                        $plain"
	echo "  randstat exec -- top -b -n 2:       $served"
	kill $fs
	wait $fs
	us() { echo "$1" | awk -F: '{ split($2, f, " "); print f[1] + 0 }'; }
	ok "$(us "$served") - $(us "$plain") > 5" "top under randstat exec sees the job; plain top does not"
fi

echo
result "$fail" "the demonstration came out as it should"
ktap_end
