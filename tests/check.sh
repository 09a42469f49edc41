#!/bin/bash
# make check: every test suite, each printing TAP or KTAP, then one line
# "N passed, N failed, N skipped" over all of them, last.  A test marked
# "ok ... # SKIP" counts as skipped, not passed.  Exits non-zero on any
# failure.
#
#   style    checkpatch.pl --strict, W=1 and sparse on the kernel code,
#            docutils on Documentation/, shellcheck on the shell scripts,
#            all clean (tests/style.sh; TAP)
#   reader   userspace unit tests over captured fixtures, built with
#            warnings as errors (WERROR=1; TAP)
#   sanitize the unit tests once more under ASan and UBSan (clang), the
#            libFuzzer targets 20 s each, and bugs planted in a copy
#            that each must report (tests/sanitize.sh; TAP)
#   kunit    KUnit on a UML kernel (tests/kunit.sh; KTAP)
#   vm       the real module in a QEMU guest (tests/vm/run.sh; KTAP)
#   debug    the module on the debug kernel (tests/debugkernel.sh: lockdep,
#            KASAN, kmemleak, UBSAN, fault injection, IRQ time accounting;
#            tests/vm/guest/debug.sh), and the deliberately broken builds
#            (tests/debug/break-*.patch) it must catch
#   bench    the benchmark's short version: randstat against exact
#            references on the paper's workloads (bench/run.sh --short)
#   deb      the Debian packages: make deb, lintian, install, DKMS, upgrade
#            and purge in a bookworm chroot, and a real node_exporter
#            (tests/deb.sh; TAP)
#
# SUITES="reader kunit" runs a subset.
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 1
out=$repo/tests/out
mkdir -p "$out"

bash tests/deps.sh || exit 1

passed=0
failed=0
skipped=0

# count FILE DEPTH: ok / not ok lines indented by DEPTH levels of four
# spaces (KUnit nests its cases one level below the suites), into p
# (passed), f (failed) and s (skipped: "ok" with a SKIP directive, which
# TAP and KTAP write "# SKIP", the word in any case, after the name).
count() {
	local pad all
	pad=$(printf '%*s' $((4 * $2)) '')
	all=$(grep -c "^${pad}ok " "$1")
	s=$(grep -ciE "^${pad}ok [^#]*#[[:space:]]*skip" "$1")
	p=$((all - s))
	f=$(grep -c "^${pad}not ok " "$1")
}

run_suite() {
	local name=$1 depth=$2 status
	shift 2
	echo "# suite $name: $*"
	"$@" 2>&1 | tee "$out/$name.tap"
	status=${PIPESTATUS[0]}
	count "$out/$name.tap" "$depth"
	if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $name exited with status $status"
		f=1
	fi
	echo "# suite $name: $p passed, $f failed, $s skipped"
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
}

suites=${SUITES:-style reader sanitize kunit vm debug bench deb}
for s in $suites; do
	case $s in
	style)	run_suite style 0 bash tests/style.sh ;;
	reader)	run_suite reader 0 make -s -C userspace check WERROR=1 ;;
	sanitize) run_suite sanitize 0 bash tests/sanitize.sh ;;
	kunit)	run_suite kunit 1 bash tests/kunit.sh ;;
	vm)	run_suite vm 0 bash tests/vm/run.sh ;;
	debug)	run_suite debug 0 env KERNELS=debug VM_SUITES=debug \
			RANDSTAT_OUT="$out/debug" bash tests/vm/run.sh ;;
	bench)	run_suite bench 0 bash bench/run.sh --short ;;
	deb)	run_suite deb 0 bash tests/deb.sh ;;
	*)	echo "check: unknown suite $s" >&2; exit 2 ;;
	esac
done

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
