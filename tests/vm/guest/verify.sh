# shellcheck shell=sh
# verify: randstat verify (userspace/verify/), run for real in the guest
# as /progs/randstat verify, with the module's default parameters, in a
# two-CPU guest booted with idle=poll, single-threaded TCG (run.sh): in
# hlt the emulator delivers a timer due after a halt 0.2-1 ms late, and
# multi-threaded it holds one due during user code until a kernel entry,
# which are the emulator's artefacts, not the module's (the
# emulator-probe README, boot.sh).
#
# randstat verify judges each workload itself, against the workload's
# exact runtime, with 4 sigma plus a stated allowance (rsvjudge.h).  Its
# verdicts are judged where timers tell the truth, the faithful suite's
# icount guest (faithful.sh: every one PASS); here, on plain TCG, they are
# reported beside, as make bench reports its plain-TCG figures (on this
# guest one run of seven read an evader FAIL, -6.39 points against 5.51,
# the wake-up path's cost under TCG: issue 35).  This suite checks that
# it ran and judged, what its JSON says, and its manners: SIGINT and
# SIGTERM mid-run leave no child, a busy CPU is refused, a bad argument
# exits 2.  (A nohz_full CPU's refusal is in nohzfull.sh, whose guest has
# one.)
# shellcheck source=tests/vm/guest/lib.sh
. /tests/lib.sh
ktap_begin 16
RS=/progs/randstat
dmesg -c >/dev/null

"$RS" verify --json >/tmp/v.err 2>&1 && rc=0 || rc=$?
[ "$rc" -eq 3 ] && grep -q 'sudo modprobe randstat' /tmp/v.err
ok_or_show $? "randstat verify without the module: exit 3, and how to load it" /tmp/v.err

load_randstat

# The run: the default 30 s, JSON (its wall time, from the shell, too).
# The shell stays on cpu0 (init); verify picks cpu1, the idle one.
t0=$(date +%s)
"$RS" verify --json >/tmp/v.json 2>/tmp/v.err
rc=$?
t1=$(date +%s)
diag "randstat verify --json: exit $rc in $((t1 - t0)) s"
show_file /tmp/v.err
show_file /tmp/v.json
# 0 all PASS, 1 a FAIL, 5 a workload not judged (its check failed): it
# ran to its verdict.
[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || [ "$rc" -eq 5 ]
ok_or_show $? "randstat verify --json: ran to a verdict (exit $rc: 0 PASS, 1 FAIL, 5 not judged)" /tmp/v.err

# The JSON: one object, one line, the keys a fleet collects.
[ "$(wc -l </tmp/v.json)" -eq 1 ] &&
	grep -q '^{"version":2,"tool":"randstat verify","result":"[^"]*","cpu":1,' /tmp/v.json &&
	grep -q '"hz":250,' /tmp/v.json &&
	grep -q '"virtualization":{"hypervisor":true,' /tmp/v.json &&
	grep -q '"module":{[^}]*"mean_ns":"4000000"' /tmp/v.json &&
	grep -q '"sampler":{"samples":[0-9]*,"late_mean_us":[0-9.]*,' /tmp/v.json &&
	grep -q '"tolerance":{"nsigma":4.0,"allowance_pct":1.25,' /tmp/v.json
result $? "the JSON: one object with the machine, module, sampler and tolerance"

# Every workload has a verdict (reported; judged in faithful.sh), the
# idle stretch is the background.
for w in spin after-tick in-phase evader; do
	v=$(sed -n "s/.*{\"name\":\"$w\",\"verdict\":\"\([^\"]*\)\".*/\1/p" /tmp/v.json)
	diag "verdict on plain TCG (reported, not judged): $w ${v:-none}"
	[ -n "$v" ]
	result $? "$w has a verdict in the JSON (${v:-none})"
done
grep -q '{"name":"idle","verdict":"background",' /tmp/v.json
result $? "the idle stretch: the background, not judged"
# The dormancy promise, shown: LOC interrupts idle and under load.
sed 's/.*"name":"idle"[^}]*"loc_per_s":\([0-9.]*\).*"name":"spin"[^}]*"loc_per_s":\([0-9.]*\).*/# LOC interrupts a second on the CPU: \1 idle, \2 under the spin/' /tmp/v.json

# The text report, as a user sees it (shown; judged as the JSON was).
"$RS" verify --seconds 15 >/tmp/v.txt 2>/tmp/v.err
rc=$?
show_file /tmp/v.err
show_file /tmp/v.txt
{ [ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || [ "$rc" -eq 5 ]; } &&
	grep -q '^workload  *truth /proc/stat' /tmp/v.txt &&
	grep -qE '^(spin|evader) .* (PASS|FAIL|not judged.*)$' /tmp/v.txt
ok_or_show $? "randstat verify --seconds 15 (text): the table and its verdicts (exit $rc)" /tmp/v.txt

# No root needed (admin-guide.rst): the same run as uid 65534, shorter.
/progs/runas -u 65534 "$RS" verify --seconds 10 --json >/tmp/v.user 2>/tmp/v.err
rc=$?
show_file /tmp/v.err
{ [ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || [ "$rc" -eq 5 ]; } &&
	grep -q '^{"version":2,"tool":"randstat verify",' /tmp/v.user &&
	grep -q '{"name":"spin","verdict":"[A-Z]' /tmp/v.user
ok_or_show $? "as uid 65534 (no root): --seconds 10 --json ran to its verdicts (exit $rc)" /tmp/v.user

# children SIGNAL: randstat verify stopped by SIGNAL 6 s in, in its
# second window (the spin: the 0.5 s check and the 3.8 s idle stretch
# are over); no process of its left behind (the workload is a fork of
# it: the same comm).
children() {
	"$RS" verify --seconds 20 --json >/tmp/v.sig 2>&1 &
	_pid=$!
	sleep 6
	_before=$(grep -l '^randstat$' /proc/[0-9]*/comm 2>/dev/null | wc -l)
	kill -"$1" "$_pid"
	wait "$_pid"
	_rc=$?
	sleep 1
	_after=$(grep -l '^randstat$' /proc/[0-9]*/comm 2>/dev/null | wc -l)
	diag "SIG$1: exit $_rc; randstat processes $_before before, $_after after"
	[ "$_before" -ge 2 ] && [ "$_after" -eq 0 ] && [ "$_rc" -eq "$2" ] &&
		grep -q 'was killed and reaped' /tmp/v.sig
}
children INT 130
ok_or_show $? "SIGINT mid-run: exit 130, the workload killed and reaped, no orphan" /tmp/v.sig
children TERM 143
ok_or_show $? "SIGTERM mid-run: exit 143, the workload killed and reaped, no orphan" /tmp/v.sig

# A busy CPU is refused, with the reason, before anything runs.
taskset -c 1 /progs/spin 5 >/dev/null 2>&1 &
spin=$!
sleep 1
"$RS" verify --cpu 1 >/tmp/v.out 2>/tmp/v.err
rc=$?
wait "$spin"
[ "$rc" -eq 5 ] && [ ! -s /tmp/v.out ] && grep -q 'cpu1 is busy: .* above 10%' /tmp/v.err
ok_or_show $? "a busy CPU refused: exit 5, says why" /tmp/v.err

# Arguments: exit 2, before anything runs.
"$RS" verify --cpu 99999 >/dev/null 2>/tmp/v.err
[ $? -eq 2 ]
ok_or_show $? "--cpu 99999: exit 2" /tmp/v.err

dmesg_clean "dmesg: no WARNING, BUG, Oops or lockdep report"
ktap_end
