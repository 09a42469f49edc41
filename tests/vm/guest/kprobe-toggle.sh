# shellcheck shell=sh
# kprobe-toggle: not part of make check; a reproducer of an emulator (or
# kernel) fault seen in the judged suite, kept to show it is not
# randstat's.  A kprobe on clockevents_program_event() (ftrace-based: its
# entry rewritten with text_poke on each enable and disable) is toggled
# every 50 ms while a 2.5 ms / 10 ms job runs on cpu1.
#
#   VM_SUITES=kprobe-toggle bash tests/vm/run.sh
#   RANDSTAT_KPROBE_CMDLINE="nohz_full=1" VM_SUITES=kprobe-toggle ...
#
# Kernel command line (run.sh passes RANDSTAT_KPROBE_CMDLINE, default
# "nohz_full=1 idle=poll randstat_kp_load=0"): randstat_kp_load=1 loads
# randstat first, randstat_kp_n the number of toggles (default 300).
# Measured (Debian 6.1.0-56, QEMU 7.2): with multi-threaded TCG,
# nohz_full=1 idle=poll the guest panicked within 2-4 s (RIP 0 entered
# from clockevents_program_event()'s entry, both vCPUs), with randstat
# loaded and without it; single-threaded TCG, or hlt, or no nohz_full:
# 300 of 300 toggles survived.
# shellcheck source=tests/vm/guest/lib.sh
. /tests/lib.sh
ktap_begin 3
N=${randstat_kp_n:-300}
LOAD=${randstat_kp_load:-0}
if [ "$LOAD" = 1 ]; then
	load_randstat exact_cpus=
else
	skip "insmod randstat.ko" "randstat_kp_load=0: the kprobe toggles without it"
fi
TR=/sys/kernel/tracing
{ [ -e "$TR/trace" ] || mount -t tracefs nodev "$TR"; } &&
	echo 2 >"$TR/tracing_cpumask" &&
	echo 'p:cpe clockevents_program_event expires=%si:s64' >>"$TR/kprobe_events"
result $? "ftrace: a kprobe on clockevents_program_event()"
taskset -c 1 /progs/iso 10000 2500 600 >/dev/null 2>&1 &
job=$!
i=0
while [ "$i" -lt "$N" ]; do
	echo 1 >"$TR/events/kprobes/cpe/enable"
	sleep 0.05
	echo 0 >"$TR/events/kprobes/cpe/enable"
	sleep 0.05
	i=$((i + 1))
	[ $((i % 100)) -eq 0 ] && diag "$i toggles, uptime $(cut -d' ' -f1 /proc/uptime) s"
done
kill "$job"
result 0 "$N kprobe enable/disable cycles survived (randstat loaded: $LOAD; $(cat /proc/cmdline))"
ktap_end
