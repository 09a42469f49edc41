#!/bin/bash
# Run a guest's QEMU, and stop it if it hangs before the kernel starts
# /init.
#
#   bash tests/vm/watch.sh LOG LIMIT STALL CMD...
#
# Runs CMD under `timeout LIMIT` with its output in LOG, as boot.sh did
# before.  While LOG has no "Run /init as init process" line (the
# kernel's, just before it executes the initramfs's /init) and has not
# grown for STALL seconds, the guest is taken to be hung in its boot and
# is killed: exit status 125.  Otherwise CMD's own status (timeout's 124
# or 137 at LIMIT).
#
# Why: one boot of the eleven full runs of make check logged here hung
# under multi-threaded TCG 1.18 s into its kernel's boot ("IP idents hash
# table entries", the fuse guest at 56420eb), and sat there until the
# 900 s limit.  randstat is a module the suites load from /init on, so a
# boot that never reached /init ran none of its code, and booting it
# again (boot.sh, once) hides no defect of it.  A guest silent after
# /init is the suite's to judge, and LIMIT still ends it.
set -uo pipefail
log=${1:?usage: watch.sh LOG LIMIT STALL CMD...}
limit=${2:?}
stall=${3:?}
shift 3
: >"$log"
timeout --kill-after=10 "$limit" "$@" </dev/null >"$log" 2>&1 &
pid=$!
size=-1
quiet=0
while kill -0 "$pid" 2>/dev/null; do
	if grep -q 'Run /init as init process' "$log"; then
		break
	fi
	now=$(stat -c %s "$log")
	if [ "$now" != "$size" ]; then
		size=$now
		quiet=0
	elif [ "$quiet" -ge "$stall" ]; then
		# timeout passes the signal on to QEMU.
		kill -TERM "$pid" 2>/dev/null
		wait "$pid"
		exit 125
	fi
	sleep 1
	quiet=$((quiet + 1))
done
wait "$pid"
