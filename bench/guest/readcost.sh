# shellcheck shell=sh
# The cost of a read (make bench; Documentation/benchmark.rst, "Reading
# /proc/randstat"): its own boot per guest size, run by bench/run.sh as
# the suite "readcost" with RANDSTAT_SMP 2, 8, 32 and 64.  Raw records
# only; bench/readcost.py does the statistics.
#
# A reader (tests/progs/readrate: open, read to the end, close, over and
# over) on cpu0, for readcost_secs (default 1) per block, readcost_rounds
# (default 5) rounds, the files in turn within a round so that the
# emulator's drift falls alike on each:
#   solo  nothing else runs;
#   spin  a user-mode busy loop runs on cpu1 (the control);
#   poll  a second reader of the same file polls at full speed on cpu1.
# Under single-threaded TCG one host thread runs every vCPU in turn, so
# any busy cpu1 halves cpu0's speed: poll is judged against spin, which
# takes the same share of the emulator and shares no lock with a reader.
#
# Records:
#   C ncpu N file F mode M round R reads N wall_ns W bytes B
#   I ..., E ...  information, what went wrong
S=${readcost_secs:-1}
R=${readcost_rounds:-5}
NCPU=$(grep -c ^processor /proc/cpuinfo)
echo "I readcost ncpu $NCPU secs $S rounds $R"
insmod /randstat.ko || { echo "E insmod failed"; exit 1; }
sleep 0.5
FILES="/proc/stat /proc/randstat"
for f in /proc/randstat_detail /proc/randstat_hist; do
	[ -r $f ] && FILES="$FILES $f"
done

# block FILE MODE ROUND: one reader on cpu0 for S s, cpu1 as MODE says.
block() {
	_pid=
	case $2 in
	spin) taskset -c 1 /progs/spin 3600 >/dev/null & _pid=$! ;;
	poll) taskset -c 1 /progs/readrate "$1" 0 & _pid=$! ;;
	esac
	[ -n "$_pid" ] && sleep 0.1
	_r=$(taskset -c 0 /progs/readrate "$1" "$S") || echo "E readrate $1 failed"
	if [ -n "$_pid" ]; then
		kill "$_pid"
		wait "$_pid" 2>/dev/null
	fi
	echo "C ncpu $NCPU file $1 mode $2 round $3 ${_r#readrate }"
}

r=1
while [ "$r" -le "$R" ]; do
	for f in $FILES; do
		for m in solo spin poll; do
			block "$f" "$m" "$r"
		done
	done
	r=$((r + 1))
done
echo "I readcost done"
