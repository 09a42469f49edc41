# shellcheck shell=bash
# TAP output for the test scripts (dkms.sh, deb.sh): sourced, not run.
# ok/not_ok number the tests in $n; $failed is 1 once any failed; end with
# echo "1..$n" and exit "$failed".

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
# shellcheck disable=SC2034 # failed is read by the sourcing script
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n - $*"; }
# check DESCRIPTION CMD...: ok if CMD succeeds.
check() {
	local desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}
diag() { echo "# $*"; }
# diag_file FILE [N]: the last N (15) lines of FILE as TAP comments.
diag_file() { tail -n "${2:-15}" "$1" 2>/dev/null | sed 's/^/#   /'; }
