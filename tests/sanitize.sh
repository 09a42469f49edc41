#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The reader under the sanitizers (TAP), in a copy of userspace/ (the
# work tree's build is left alone):
#   - its unit tests (make check) built by clang with ASan (LeakSanitizer
#     included) and UBSan, every error fatal: all pass and no process,
#     the tests or the randstat they run, writes a sanitizer report;
#   - libFuzzer (make fuzz) on the /proc/randstat parser, the /proc/stat
#     parser and randstat-fs's merge, FUZZ_SECS (20) seconds each, from
#     the fixtures: no crash, leak, timeout or broken invariant
#     (userspace/fuzz/*.c say which);
#   - that each can fail: bugs planted in another copy (a heap overflow
#     and a signed overflow the unit tests run into, a stack overflow in
#     the parsers' error path and an off-by-one in the merge that only
#     the fuzzers reach) must be reported.
#
# Needs clang and libclang-rt-dev (tests/deps.sh installs them).  Output
# in $RANDSTAT_OUT/sanitize (default tests/out/sanitize): build and test
# logs, the sanitizers' reports, the fuzzers' logs and any crash input.
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 1
# shellcheck source=tests/tap.sh
. "$repo/tests/tap.sh"
out=${RANDSTAT_OUT:-$repo/tests/out}/sanitize
secs=${FUZZ_SECS:-20}
san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"

echo "TAP version 13"
rm -rf "$out"
mkdir -p "$out"
if ! command -v clang >/dev/null; then
	not_ok "clang missing (apt-get install clang libclang-rt-dev)"
	echo "1..$n"
	exit 1
fi

# Where the sanitizers write their reports (log_path: one file a process,
# which catches a report from a randstat whose stderr a test swallowed),
# and an exit status no test expects.
reports=$out/reports
export ASAN_OPTIONS="log_path=$reports/asan:exitcode=86:detect_leaks=1:strict_string_checks=1"
export UBSAN_OPTIONS="log_path=$reports/ubsan:print_stacktrace=1:halt_on_error=1:exitcode=86"

# The copies are not beside include/randstat.h, where userspace/Makefile
# reads the release: it is passed on (make takes VERSION from here).
VERSION=$(sed -n 's/^#define RANDSTAT_VERSION[[:space:]]*"\(.*\)"/\1/p' include/randstat.h)
export VERSION

# copy DIR: userspace/ without its build products, into DIR.
copy() {
	cp -r userspace "$1" && make -s -C "$1" clean >/dev/null
}

# san_check DIR LOG: make check in DIR built with ASan and UBSan; sets
# tp, tf (the unit tests passed and failed) and nreports.
san_check() {
	rm -rf "$reports" && mkdir -p "$reports"
	make -s -C "$1" check CC=clang CFLAGS="-O1 -g $san" LDFLAGS="$san" \
		>"$2" 2>&1
	tp=$(grep -c '^ok ' "$2")
	tf=$(grep -c '^not ok ' "$2")
	nreports=$(find "$reports" -type f | wc -l)
}

# first_report: the first sanitizer report's error line, as a diagnostic.
first_report() {
	find "$reports" -type f -exec cat {} + 2>/dev/null |
		grep -m 3 -E 'ERROR:|runtime error:|^SUMMARY' | sed 's/^/#   /'
}

# --- the unit tests under ASan and UBSan -----------------------------------
t=$(date +%s)
src=$out/src
copy "$src"
if make -s -C "$src" CC=clang CFLAGS="-O1 -g $san" LDFLAGS="$san" \
	randstat tests/test_reader tests/test_fs tests/test_top tests/test_verify \
	>"$out/build.log" 2>&1; then
	ok "$(clang --version | head -n 1): the reader and its unit tests build with ASan and UBSan ($(($(date +%s) - t)) s)"
	t=$(date +%s)
	san_check "$src" "$out/check.log"
	first_report
	grep '^not ok' "$out/check.log" | head -n 10 | sed 's/^/#   /'
	check "unit tests under ASan+UBSan: $tp passed, $tf failed, $nreports sanitizer reports ($(($(date +%s) - t)) s)" \
		test "$tp" -gt 0 -a "$tf" -eq 0 -a "$nreports" -eq 0
else
	not_ok "the reader and its unit tests build with ASan and UBSan (see $out/build.log)"
	diag_file "$out/build.log"
fi

# --- fuzzing ------------------------------------------------------------------
fixtures=userspace/tests/fixtures
# Seeds: the captured files; for the merge, pairs of frames (frame size
# byte 3: "cpu", cpu0, cpu1), /proc/randstat missing in some.
seeds=$out/seeds
mkdir -p "$seeds/randstat" "$seeds/stat" "$seeds/merge"
cp "$fixtures"/*.randstat "$seeds/randstat/"
cp "$fixtures"/*.stat "$seeds/stat/"
i=0
for a in normal vm-normal tickless-a; do
	for b in normal later reset offline vm-normal vm-later vm-offline tickless-b modechange-b; do
		i=$((i + 1))
		{
			printf '\003'
			cat "$fixtures/$a.stat"
			printf '\000'
			cat "$fixtures/$a.randstat"
			printf '\000'
			cat "$fixtures/$b.stat"
			printf '\000'
			[ $((i % 4)) -eq 0 ] || cat "$fixtures/$b.randstat"
		} >"$seeds/merge/$i"
	done
done

# fuzz DIR TARGET SECS LOG: run DIR/fuzz/fuzz_TARGET for SECS seconds at
# most on a fresh corpus and the seeds; its status (0: nothing found).
fuzz() {
	local dir=$1 target=$2 corpus=$out/corpus-$2-${1##*/}
	rm -rf "$corpus" && mkdir -p "$corpus"
	rm -rf "$reports" && mkdir -p "$reports"
	# The reports on stderr, where libFuzzer expects them.
	ASAN_OPTIONS=exitcode=86:detect_leaks=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=86 \
		"$dir/fuzz/fuzz_$target" -max_total_time="$3" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$out/$target-${1##*/}-" \
		"$corpus" "$seeds/$target" >"$4" 2>&1
}

# runs LOG: "N runs, coverage C" from a libFuzzer log.
runs() {
	echo "$(sed -n 's/^stat::number_of_executed_units: //p' "$1") runs, coverage $(grep -oE 'cov: [0-9]+' "$1" | tail -n 1 | cut -d' ' -f2)"
}

t=$(date +%s)
if make -s -C "$src" fuzz >"$out/fuzz-build.log" 2>&1; then
	ok "make fuzz: the libFuzzer targets build ($(($(date +%s) - t)) s)"
	for target in randstat stat merge; do
		log=$out/fuzz-$target.log
		if fuzz "$src" "$target" "$secs" "$log"; then
			ok "fuzz_$target: $secs s, $(runs "$log"), nothing found"
		else
			grep -m 3 -E 'ERROR:|runtime error:|^SUMMARY|deadly signal' "$log" | sed 's/^/#   /'
			# shellcheck disable=SC2012 # our own file names
			diag "crash input: $(ls "$out/$target-src-"* 2>/dev/null | head -n 1)"
			not_ok "fuzz_$target: $secs s, nothing found (see $log)"
		fi
	done
else
	not_ok "make fuzz: the libFuzzer targets build (see $out/fuzz-build.log)"
	diag_file "$out/fuzz-build.log"
fi

# --- they can fail: planted bugs ------------------------------------------------
# plant FILE FROM TO: FROM replaced by TO in the planted copy's FILE, or
# return 1 if FROM is not there (the code changed: update the plant).
plant_dir=$out/plant
plant() {
	local f=$plant_dir/$1
	grep -qF -- "$2" "$f" || { diag "plant: '$2' not in $1"; return 1; }
	FROM=$2 TO=$3 perl -0pi -e 's/\Q$ENV{FROM}\E/$ENV{TO}/' "$f"
}
# unplant FILE: FILE as in the clean copy (newer than its objects).
unplant() { cp "$src/$1" "$plant_dir/$1"; }

# planted_check DESC PATTERN: the unit tests under the sanitizers, in the
# planted copy, must give a report matching PATTERN.
planted_check() {
	san_check "$plant_dir" "$out/plant-check.log"
	first_report
	check "$1: $nreports sanitizer reports, $tf unit tests failed" \
		sh -c "find '$reports' -type f -exec cat {} + | grep -qE '$2'"
}

# planted_fuzz TARGET DESC PATTERN: fuzz_TARGET of the planted copy must
# find the bug (a report matching PATTERN) within 60 s.
planted_fuzz() {
	local log=$out/plant-fuzz-$1.log t
	t=$(date +%s)
	make -s -C "$plant_dir" "fuzz/fuzz_$1" >>"$out/plant-build.log" 2>&1
	fuzz "$plant_dir" "$1" 60 "$log"
	grep -m 2 -E 'ERROR:|runtime error:' "$log" | sed 's/^/#   /'
	check "fuzz_$1 finds $2 ($(runs "$log") in $(($(date +%s) - t)) s with the build)" \
		grep -qE "$3" "$log"
}

rm -rf "$plant_dir"
cp -a "$src" "$plant_dir"
if [ -x "$src/tests/test_reader" ]; then
	# A CPU's entry one short: every parse writes past the array.
	if plant lib/rsparse.c 'realloc(s->cpu, want * sizeof(*c))' \
		'realloc(s->cpu, want * sizeof(*c) - 1)'; then
		planted_check "ASan catches a planted heap overflow (snap_cpu()) in the unit tests" \
			'heap-buffer-overflow'
	else
		not_ok "ASan catches a planted heap overflow: the plant does not apply"
	fi
	unplant lib/rsparse.c
	# A CPU number past INT_MAX on the way: signed overflow (UBSan).
	if plant lib/rsparse.c '	*cpu = n;' '	*cpu = (int)n + 2147483647 - 2147483647;'; then
		planted_check "UBSan catches a planted signed overflow (tok_cpu()) in the unit tests" \
			'signed integer overflow'
	else
		not_ok "UBSan catches a planted signed overflow: the plant does not apply"
	fi
	unplant lib/rsparse.c
fi
if [ -x "$src/fuzz/fuzz_randstat" ]; then
	# "..." and its NUL one byte past the buffer for a long bad token.
	if plant lib/rsparse.c 'n = t->len < size - 4 ? t->len : size - 4;' \
		'n = t->len < size - 3 ? t->len : size - 3;'; then
		planted_fuzz randstat "a planted stack overflow in the error path (tok_show())" \
			'stack-buffer-overflow'
	else
		not_ok "fuzz_randstat finds a planted stack overflow: the plant does not apply"
	fi
	unplant lib/rsparse.c
	# A cpu line one past the frame's end taken.
	if plant fs/rsmerge.c 'idx < f->size &&' 'idx <= f->size &&'; then
		planted_fuzz merge "a planted off-by-one (rs_frame_parse())" \
			'heap-buffer-overflow'
	else
		not_ok "fuzz_merge finds a planted off-by-one: the plant does not apply"
	fi
	unplant fs/rsmerge.c
fi

echo "1..$n"
exit "$failed"
