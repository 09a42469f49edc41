#!/bin/bash
# KUnit for randstat's pure parts, on a UML kernel built from Debian's
# linux-source (Debian's own kernels have CONFIG_KUNIT off).
#
# The repository is linked into the cached kernel tree as drivers/randstat
# and kunit.py builds and runs kunit/.kunitconfig.  The tree and the build
# live in $RANDSTAT_CACHE (default ~/.cache/randstat): the first run takes
# about 3 minutes on 2 cores, later ones only rebuild what changed.
#
# Prints the KTAP the kernel printed; exits non-zero if a test failed.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=tests/ksrc.sh
. "$repo/tests/ksrc.sh"
ksrc_prepare "$repo" kunit || exit 2
# RANDSTAT_KUNIT_BUILD: another build directory (tests/mutate.sh: its
# mutants' objects must never be taken for the tree's, whose sources are
# older than them).
build=${RANDSTAT_KUNIT_BUILD:-$cache/kunit-build-$ksrc_name}

cd "$ksrc"
status=0
# kunit.py parses the results (its exit status says if any failed: with
# --raw_output it would not); the kernel's own KTAP is in test.log.
python3 tools/testing/kunit/kunit.py run \
	--build_dir "$build" --kunitconfig "$repo/kunit/.kunitconfig" \
	--jobs "$(nproc)" --timeout 300 > "$build.log" 2>&1 || status=$?
if [ -f "$build/test.log" ]; then
	sed -n '/KTAP version\|TAP version/,$p' "$build/test.log" |
		grep -E '^ *(KTAP|TAP|[0-9]+\.\.|ok |not ok |#)' || true
fi
if [ "$status" -ne 0 ]; then
	echo "# kunit: kunit.py failed (status $status); last lines of $build.log:"
	tail -n 30 "$build.log" | sed 's/^/# /'
fi
exit "$status"
