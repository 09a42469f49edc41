# shellcheck shell=sh
# smoke: the harness alone, no randstat module: boots, /proc/stat, the
# workloads run.  (bash tests/vm/run.sh --smoke)
# shellcheck source=tests/vm/guest/lib.sh
. /tests/lib.sh
ktap_begin 9
[ -r /proc/stat ] && grep -q '^cpu1 ' /proc/stat
result $? "guest has /proc/stat with cpu0 and cpu1"
for w in "spin $SECS" "sysloop $SECS" "udpflood $SECS" "diowrite /dev/vda $SECS"; do
	# shellcheck disable=SC2086 # $w is the command and its arguments
	measure "$w" taskset -c 1 /progs/$w
	result $? "workload $w"
	judge "cpu1 figures for $w" 'END { stat_classes("cpu1"); verdict(1) }'
done
ktap_end
