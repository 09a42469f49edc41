#!/bin/bash
# tests/vm/watch.sh's own tests (make check's "watch" suite), TAP: a
# guest that stops printing before /init is killed within its STALL
# seconds; one that reaches /init, or keeps printing as it boots, is
# not; LIMIT still ends one that hangs after /init.  Fake guests (sh),
# the cases side by side: about 4 s.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
d=$(mktemp -d /tmp/randstat-watch.XXXXXX)
trap 'rm -rf "$d"' EXIT
init='echo Run /init as init process'

# case NAME LIMIT STALL SCRIPT: watch.sh on "sh -c SCRIPT" in the
# background; its status and seconds into $d/NAME.rc.
case_() {
	local name=$1 limit=$2 stall=$3 script=$4
	(
		t0=$(date +%s.%N)
		bash "$here/watch.sh" "$d/$name.log" "$limit" "$stall" sh -c "$script"
		rc=$?
		awk -v rc="$rc" -v t0="$t0" -v t1="$(date +%s.%N)" \
			'BEGIN { printf "%s %.1f\n", rc, t1 - t0 }' >"$d/$name.rc"
	) &
}
case_ hang 20 2 'echo booting; echo IP idents; sleep 30'
case_ quiet_after_init 20 2 "echo booting; $init; sleep 4; echo suite done"
# shellcheck disable=SC2016 # $i is the fake guest's
case_ slow_boot 20 2 'for i in 1 2 3 4 5 6; do echo line $i; sleep 0.7; done; '"$init"'; echo suite done'
case_ limit 2 1 "$init; sleep 30"
wait

n=0
failed=0
# check NAME WANT_RC MAX_S WHAT [LOG_LINE]
check() {
	local rc s ok=1
	n=$((n + 1))
	read -r rc s <"$d/$1.rc"
	[ "$rc" = "$2" ] || ok=0
	awk -v s="$s" -v m="$3" 'BEGIN { exit !(s <= m) }' || ok=0
	if [ -n "${5:-}" ] && ! grep -q "$5" "$d/$1.log"; then ok=0; fi
	if [ "$ok" = 1 ]; then
		echo "ok $n watch.sh: $4 (status $rc, ${s%.*} s)"
	else
		echo "not ok $n watch.sh: $4: status $rc (want $2), $s s (at most $3)"
		sed 's/^/#   /' "$d/$1.log"
		failed=$((failed + 1))
	fi
}
echo "1..4"
# STALL 2: killed at 2-3 s of silence, checked once a second.
check hang 125 6 "a boot silent for STALL s before /init is killed (125)"
check quiet_after_init 0 10 "a guest silent for longer than STALL after /init runs on" "suite done"
check slow_boot 0 10 "a boot that prints every 0.7 s for 4 s, STALL 2, runs on" "suite done"
check limit 124 6 "LIMIT ends a guest that hangs after /init (124)"
exit $((failed > 0))
