# shellcheck shell=sh
# pingpong: what randstat costs the scheduler's hot path (busybox sh), run
# by tests/vm's init as /tests/pingpong.sh; bench/pingpong.sh boots it and
# does the statistics.
#
#   Q CONFIG ROUND WL TRIPS_PER_S
#
# WL: cross (a pipe ping-pong between cpu0 and cpu1: each round trip an
# idle entry and exit, a wakeup and an enqueue and dequeue on both CPUs)
# or same (both ends on cpu1: each hop a context switch, no idle).
# CONFIG: none (no module), sampled (every CPU sampled: exact_cpus=), and
# in a guest booted with nohz_full=1 also exact (the default there: cpu1
# served from vtime).  Each round runs every config once, in an order that
# turns with the round, so a drift of the guest's speed falls on all.
#
# Env (kernel command line): pingpong_rounds (default 20), pingpong_secs
# (seconds a run, default 1).
# shellcheck source=tests/vm/guest/lib.sh
. /tests/lib.sh
R=${pingpong_rounds:-20}
PS=${pingpong_secs:-1}
configs="none sampled"
grep -q 'nohz_full=1' /proc/cmdline && configs="none exact sampled"
# an experiment's own list, comma-separated: also t0 (sampled,
# tickless=0) and ko_NAME (/ko/NAME.ko, RANDSTAT_EXTRA_KO_DIR's, every CPU
# sampled)
[ -n "${pingpong_configs:-}" ] && configs=$(echo "$pingpong_configs" | tr , ' ')
echo "I pingpong rounds $R secs $PS configs $configs"

load() {
	rmmod randstat 2>/dev/null
	case $1 in
	sampled) insmod /randstat.ko exact_cpus= || echo "E insmod failed" ;;
	exact) insmod /randstat.ko || echo "E insmod failed" ;;
	t0) insmod /randstat.ko exact_cpus= tickless=0 || echo "E insmod failed" ;;
	ko_*) insmod "/ko/${1#ko_}.ko" exact_cpus= || echo "E insmod failed" ;;
	esac
	sleep 0.3
}

r=1
while [ "$r" -le "$R" ]; do
	# rotate the order: round 1 none first, round 2 the next, ...
	# shellcheck disable=SC2086 # the list's words, split on purpose
	set -- $configs
	n=$#
	i=$(( (r - 1) % n ))
	while [ "$i" -gt 0 ]; do
		c=$1
		shift
		set -- "$@" "$c"
		i=$((i - 1))
	done
	for c in "$@"; do
		load "$c"
		for w in cross same; do
			case $w in
			cross) /progs/pingpong "$PS" 0 1 >/tmp/pp.out 2>&1 ;;
			same) /progs/pingpong "$PS" 1 1 >/tmp/pp.out 2>&1 ;;
			esac
			awk -v c="$c" -v r="$r" -v w="$w" \
				'$1 == "pingpong" { print "Q " c " " r " " w " " $7 }' /tmp/pp.out
		done
	done
	r=$((r + 1))
done
rmmod randstat 2>/dev/null
echo "I pingpong done"
