#!/bin/bash
# make mutate: the module with one deliberate accounting defect at a
# time (tests/mutants/list), each run against the suite the list names,
# which must fail on it: the proof that the tests can see a wrong charge,
# class or draw, not only the crashes the debug suite's break-*.patch
# builds prove.
#
# For each mutant: a copy of the tree's tracked files (in
# $RANDSTAT_CACHE/mutate), its one line replaced (the line must be found
# exactly once: else it is "stale", the list is behind the code), then
#   kunit     tests/kunit.sh in the copy, with a build directory of its
#             own (RANDSTAT_KUNIT_BUILD), never the tree's
#   vm:SUITE  VM_SUITES=SUITE tests/vm/run.sh in the copy
#   arm64:SUITE  the same with KERNELS=arm64 (the arm64 guest)
# killed: the suite reported a failing test; survived: it passed;
# broken: it reported no test at all (the mutant did not build, or the
# guest did not boot): not a kill.  Each suite first runs once on the
# unmutated copy (the baseline), which must pass, or no mutant of it is
# judged.
#
# Prints one line per mutant and "killed K of M"; exits 1 unless every
# mutant was killed.  MUTANTS="a b" runs those alone.  A full run (no
# MUTANTS) writes tests/mutants/RESULTS.md: the date, the commit, each
# mutant's suite and outcome.  The kernel tree's drivers/randstat link is
# held (tests/ksrc.sh's lock) while it runs; still, do not run the guest
# mutants beside make check: each would load the host under the other's
# guests.
#
# tests/mutate.sh --rotate K: K of the mutants KUnit must kill, as TAP,
# for make check's mutants suite: the K from position H mod N in the
# list's order of those N mutants, H the commit's hash (the day of the
# year outside git), so that each landing runs others and every
# N / K landings run them all.  No RESULTS.md.
#
# tests/mutate.sh --check: the list against the tree, nothing built (the
# style suite runs it in every make check): each mutant's line is in its
# file exactly once, and its suite exists.  Names the ones that are not
# and exits 1.
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cache=${RANDSTAT_CACHE:-$HOME/.cache/randstat}
work=$cache/mutate
list=$repo/tests/mutants/list
mkdir -p "$work"

# The list as records: name, file, from, to, suite, why, separated by
# the ASCII unit separator (the lines hold tabs).
US=$'\x1f'
records() {
	awk -v us="$US" '
	function flush() {
		if (name != "") print name us file us from us to us suite us why
		name = file = from = to = suite = why = ""
	}
	/^#/ { next }
	/^$/ { flush(); next }
	{
		k = $0; sub(/:.*/, "", k); v = substr($0, length(k) + 2); sub(/^ /, "", v)
		if (k == "name") name = v; else if (k == "file") file = v
		else if (k == "from") from = v; else if (k == "to") to = v
		else if (k == "suite") suite = v; else if (k == "why") why = v
		else { print "tests/mutants/list: unknown key " k > "/dev/stderr"; exit 2 }
	}
	END { flush() }' "$list"
}

# copy DIR: the tree's tracked files (as they are in the work tree),
# every one stamped now (tar -m): the KUnit build directory is kept from
# run to run, and a source older than an object built from an earlier
# mutant would leave that mutant in every later build (a first version
# of this script did, and its baseline failed on four mutants' objects).
copy() {
	rm -rf "$1"
	mkdir -p "$1"
	git -C "$repo" ls-files -z | tar -C "$repo" --null -T - -cf - | tar -C "$1" -m -xf -
}

# apply DIR FILE FROM TO: replace the one line FROM of DIR/FILE with TO
# (deleted if TO is empty); 1 if FROM is not there exactly once.
apply() {
	python3 - "$1/$2" "$3" "$4" <<'PY'
import sys
path, frm, to = sys.argv[1:4]
lines = open(path).read().split("\n")
hits = [i for i, l in enumerate(lines) if l == frm]
if len(hits) != 1:
    sys.exit(1)
if to:
    lines[hits[0]] = to
else:
    del lines[hits[0]]
open(path, "w").write("\n".join(lines))
PY
}

# run_suite DIR SUITE LOG: 0 all passed, 1 a test failed, 2 no test ran
run_suite() {
	local dir=$1 suite=$2 log=$3
	case $suite in
	kunit)
		# Seeded from the tree's UML build when there is one (only
		# what the copy's newer sources touch is rebuilt).
		if [ ! -d "$work/kunit-build" ]; then
			for b in "$cache"/kunit-build-linux-source-*/; do
				[ -d "$b" ] && cp -a "$b" "$work/kunit-build" && break
			done
		fi
		(cd "$dir" && RANDSTAT_KUNIT_BUILD=$work/kunit-build bash tests/kunit.sh) >"$log" 2>&1 ;;
	vm:*)
		(cd "$dir" && VM_SUITES=${suite#vm:} RANDSTAT_OUT=$work/out bash tests/vm/run.sh) >"$log" 2>&1 ;;
	arm64:*)
		(cd "$dir" && KERNELS=arm64 VM_SUITES=${suite#arm64:} RANDSTAT_OUT=$work/out \
			bash tests/vm/run.sh) >"$log" 2>&1 ;;
	*)	echo "unknown suite $suite" >"$log"; return 2 ;;
	esac
	if grep -qE '^ *not ok ' "$log"; then
		return 1
	elif grep -qE '^ *ok ' "$log"; then
		return 0
	fi
	return 2
}

want=" ${MUTANTS:-} "
mapfile -t recs < <(records)
[ "${#recs[@]}" -gt 0 ] || { echo "mutate: no mutant in $list" >&2; exit 2; }
if [ "${1:-}" = --check ]; then
	stale=0
	for r in "${recs[@]}"; do
		IFS=$US read -r name file from to suite why <<<"$r"
		hits=$(grep -cxF -- "$from" "$repo/$file" 2>/dev/null) || true
		case $suite in
		kunit) ok_suite=1 ;;
		vm:*|arm64:*) ok_suite=0; [ -f "$repo/tests/vm/guest/${suite#*:}.sh" ] && ok_suite=1 ;;
		*) ok_suite=0 ;;
		esac
		if [ "${hits:-0}" != 1 ] || [ "$ok_suite" != 1 ]; then
			echo "mutate: $name: its line is in $file ${hits:-0} times (must be once); suite $suite $([ "$ok_suite" = 1 ] && echo exists || echo "does not exist")" >&2
			stale=$((stale + 1))
		fi
	done
	echo "mutate: ${#recs[@]} mutants, $stale stale or without their suite" >&2
	[ "$stale" -eq 0 ]
	exit
fi
tap=0
if [ "${1:-}" = --rotate ]; then
	k=${2:-}
	[[ $k =~ ^[1-9][0-9]*$ ]] || { echo "mutate: --rotate needs a count, not '$k'" >&2; exit 2; }
	mapfile -t pool < <(printf '%s\n' "${recs[@]}" | awk -F "$US" '$5 == "kunit" { print $1 }')
	[ "${#pool[@]}" -gt 0 ] || { echo "mutate: no kunit mutant in $list" >&2; exit 2; }
	if h=$(git -C "$repo" rev-parse --short=7 HEAD 2>/dev/null); then
		h=$((16#$h))
	else
		h=$((10#$(date +%j)))
	fi
	[ "$k" -le "${#pool[@]}" ] || k=${#pool[@]}
	MUTANTS=
	for ((i = 0; i < k; i++)); do
		MUTANTS+=" ${pool[(h + i) % ${#pool[@]}]}"
	done
	want=" ${MUTANTS# } "
	tap=1
	echo "TAP version 13"
	echo "# mutate: $k of the ${#pool[@]} kunit mutants, from $((h % ${#pool[@]})) (commit $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo "none, day $(date +%j)")):$MUTANTS"
fi
if [ -n "${MUTANTS:-}" ]; then
	for m in $MUTANTS; do
		printf '%s\n' "${recs[@]}" | grep -q "^$m$US" ||
			{ echo "mutate: no mutant named $m in $list" >&2; exit 2; }
	done
fi

# The kernel tree's drivers/randstat is pointed at the copies: no other
# user of the tree (tests/ksrc.sh) while this runs.
exec 7>>"$cache/.ksrc-tree.lock"
flock 7
export RANDSTAT_KSRC_LOCKED=1

declare -A base
killed=0 total=0 bad=()
rows=()
for r in "${recs[@]}"; do
	IFS=$US read -r name file from to suite why <<<"$r"
	[ "$want" = "  " ] || [[ $want == *" $name "* ]] || continue
	total=$((total + 1))
	# The suite's baseline, once: the unmutated copy must pass it.
	if [ -z "${base[$suite]:-}" ]; then
		copy "$work/src"
		echo "# mutate: baseline: $suite on the unmutated tree" >&2
		run_suite "$work/src" "$suite" "$work/baseline-${suite/:/-}.log"
		case $? in 0) base[$suite]=ok ;; *) base[$suite]=fail ;; esac
		cp "$work/baseline-${suite/:/-}.log" "$work/last-baseline.log"
	fi
	start=$SECONDS
	if [ "${base[$suite]}" != ok ]; then
		outcome="not judged (the baseline failed: $work/baseline-${suite/:/-}.log)"
	else
		copy "$work/src"
		if ! apply "$work/src" "$file" "$from" "$to"; then
			outcome="stale (its line is not in $file exactly once)"
		else
			echo "# mutate: $name ($suite)" >&2
			run_suite "$work/src" "$suite" "$work/$name.log"
			case $? in
			1) outcome=killed; killed=$((killed + 1)) ;;
			0) outcome=survived ;;
			*) outcome="broken (no test ran: $work/$name.log)" ;;
			esac
		fi
	fi
	[ "$outcome" = killed ] || bad+=("$name")
	line="$name	$suite	$outcome	$((SECONDS - start)) s	$why"
	if [ "$tap" = 1 ]; then
		ok=ok
		[ "$outcome" = killed ] || ok="not ok"
		printf '%s %d - mutant %s killed by %s (%s: %d s): %s\n' "$ok" "$total" "$name" "$suite" \
			"$outcome" "$((SECONDS - start))" "$why"
	else
		echo "$line"
	fi
	rows+=("$line")
done
if [ "$tap" = 1 ]; then
	echo "# killed $killed of $total"
	echo "1..$total"
	[ "${#bad[@]}" -eq 0 ]
	exit
fi
echo "killed $killed of $total"
[ "${#bad[@]}" -eq 0 ] || echo "not killed: ${bad[*]}"

if [ "$want" = "  " ]; then
	{
		echo "# make mutate: the last full run"
		echo
		echo "$(date -u +%F) on $(git -C "$repo" rev-parse --short HEAD)$(git -C "$repo" diff --quiet HEAD -- module kunit tests/mutants || echo ' (with uncommitted changes)'): killed $killed of $total."
		echo
		echo "| mutant | suite | outcome | time | what it breaks |"
		echo "|---|---|---|---|---|"
		for l in "${rows[@]}"; do
			IFS=$'\t' read -r a b c d e <<<"$l"
			echo "| $a | $b | $c | $d | $e |"
		done
	} >"$repo/tests/mutants/RESULTS.md"
fi
[ "${#bad[@]}" -eq 0 ]
