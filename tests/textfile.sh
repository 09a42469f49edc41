#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Debian package's textfile helper, debian/randstat-textfile, as its
# timer runs it, on the host, over the reader's fixtures (TAP; make
# check's textfile suite; about a second).  What a Prometheus user must
# see, case by case (debian/randstat.README.Debian):
#
#   module present     the reader's counters, randstat_up 1; exit 0
#   module missing     randstat_up 0 and the release, no counter; exit 0,
#                      one line logged when that state begins, not every run
#   damaged input,     randstat_up 0, no counter (the old file's counters
#   format mismatch    never stand with randstat_up 1); the reader's status
#                      2, its message on stderr
#   another failure    (a reader that fails half-way, a usage error) the same,
#                      with the reader's status
#   unwritable dir     exit 4 and a message naming the directory; the old
#                      file as it was (node_textfile_mtime_seconds ages)
#
# and in every case randstat_textfile_reader_status says the reader's
# status, the file is mode 644, no temporary file is left, and promtool
# check metrics passes it.  The module-missing case hides /proc in a mount
# namespace of its own (root), or needs no module loaded.
#
# Usage: tests/textfile.sh   (makes userspace/randstat first; promtool
# from the PATH or from Debian's prometheus unpacked by tests/deps.sh)
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo" || exit 1
# shellcheck source=tests/tap.sh
. "$repo/tests/tap.sh"
# shellcheck source=tests/unpack.sh
. "$repo/tests/unpack.sh"

# Run with sh: the tree has it mode 644 (the package installs it 755).
helper=$repo/debian/randstat-textfile
fix=$repo/userspace/tests/fixtures
echo "TAP version 13"

if ! log=$(make -s -C userspace randstat 2>&1); then
	printf '%s\n' "$log" | tail -n 15 | sed 's/^/#   /'
	not_ok "userspace/randstat builds (make -C userspace randstat)"
	echo "1..$n"
	exit 1
fi
if ! command -v promtool >/dev/null && promdir=$(unpacked_dir prometheus); then
	PATH="$promdir/usr/bin:$PATH"
fi
have_promtool=1
command -v promtool >/dev/null || have_promtool=0

work=$(mktemp -d)
# shellcheck disable=SC2317 # called by the trap
cleanup() { rm -rf "$work"; }
trap cleanup EXIT
# The reader on the PATH as the service finds it, and a stub that fails
# half-way: a counter printed, then exit 5 (out of memory).
mkdir -p "$work/bin" "$work/stub"
ln -s "$repo/userspace/randstat" "$work/bin/randstat"
cat >"$work/stub/randstat" <<'EOF'
#!/bin/sh
echo 'randstat_up 1'
echo 'randstat_cpu_seconds_total{cpu="0",mode="user"} 1.5'
echo 'randstat: out of memory' >&2
exit 5
EOF
chmod 755 "$work/stub/randstat"
dir=$work/textfile
prom=$dir/randstat.prom
mkdir -p "$dir"

# run [ENV=VALUE...] HELPER-ARGS...: the helper with the reader on the
# PATH, RANDSTAT_TEXTFILE_DIR=$dir; sets status, and its stdout and stderr
# in $work/out, $work/err.
run() {
	status=0
	env PATH="$work/bin:$PATH" RANDSTAT_TEXTFILE_DIR="$dir" "$@" \
		>"$work/out" 2>"$work/err" || status=$?
	sed 's/^/#   out: /' "$work/out"
	sed 's/^/#   err: /' "$work/err"
}
# value METRIC: its value in randstat.prom (a metric without labels).
value() { sed -n "s/^$1 //p" "$prom" 2>/dev/null; }
# shellcheck disable=SC2317 # called through check
no_temp() { [ -z "$(find "$dir" -name '.randstat.prom.*')" ]; }
promtool_ok() {
	local out
	if [ "$have_promtool" = 0 ]; then
		ok "$1: promtool check metrics # SKIP no promtool (tests/deps.sh unpacks it)"
		return
	fi
	out=$(promtool check metrics <"$prom" 2>&1) || out+=" (status $?)"
	[ -z "$out" ] || printf '%s\n' "$out" | sed 's/^/#   promtool: /'
	check "$1: promtool check metrics" test -z "$out"
}
# common CASE STATUS: the checks every case shares.
common() {
	check "$1: randstat_textfile_reader_status $2 ($(value randstat_textfile_reader_status))" \
		test "$(value randstat_textfile_reader_status)" = "$2"
	check "$1: randstat.prom mode 644" test "$(stat -c %a "$prom" 2>/dev/null)" = 644
	check "$1: no temporary file left" no_temp
	promtool_ok "$1"
}
# down CASE: randstat_up 0 and no counter of the reader's.
down() {
	check "$1: randstat_up 0 ($(value randstat_up))" test "$(value randstat_up)" = 0
	check "$1: no counter left" \
		sh -c "[ -f '$prom' ] && ! grep -Eq '^randstat_(cpu|samples|sampler|exact|sampled|guest)' '$prom'"
}

# --- the module present ---------------------------------------------------
c="module present"
run sh "$helper" --randstat "$fix/normal.randstat"
check "$c: exit 0 ($status)" test "$status" = 0
userspace/randstat --prometheus --randstat "$fix/normal.randstat" >"$work/expected" 2>/dev/null
check "$c: randstat.prom begins with the reader's output" \
	cmp -s "$work/expected" <(head -n "$(wc -l <"$work/expected")" "$prom")
check "$c: randstat_up 1 ($(value randstat_up))" test "$(value randstat_up)" = 1
common "$c" 0
check "$c: nothing logged on the first run" test ! -s "$work/out" -a ! -s "$work/err"
cp "$prom" "$work/good.prom"

# --- the module missing: the reader's default path absent -----------------
# missing: the helper with no /proc/randstat_detail, as on a host without
# the module.
missing() {
	if [ -e /proc/randstat_detail ]; then
		run unshare --mount sh -c 'mount -t tmpfs none /proc && exec "$@"' sh sh "$helper"
	else
		run sh "$helper"
	fi
}
c="module missing"
if [ -e /proc/randstat_detail ] && [ "$(id -u)" != 0 ]; then
	ok "$c # SKIP the module is loaded, and hiding it needs root"
else
	missing
	check "$c: exit 0, a state, not a failure ($status)" test "$status" = 0
	down "$c"
	check "$c: randstat_build_info still there" grep -q '^randstat_build_info{version=' "$prom"
	common "$c" 3
	check "$c: one line logged" test "$(cat "$work/out" "$work/err" | wc -l)" = 1
	missing
	check "$c, again: exit 0 ($status)" test "$status" = 0
	check "$c, again: nothing logged while that lasts" test ! -s "$work/out" -a ! -s "$work/err"
	common "$c, again" 3
	c="module back"
	run sh "$helper" --randstat "$fix/normal.randstat"
	check "$c: exit 0 ($status)" test "$status" = 0
	check "$c: randstat.prom as before the module went" cmp -s "$work/good.prom" "$prom"
	check "$c: one line logged" test "$(cat "$work/out" "$work/err" | wc -l)" = 1
fi

# --- the reader fails: its status, randstat_up 0, the counters gone --------
# fails CASE STATUS MESSAGE HELPER-ARGS...: from the good file, the helper
# exits STATUS, says MESSAGE on stderr, randstat.prom says randstat_up 0.
fails() {
	local c=$1 want=$2 msg=$3
	shift 3
	cp "$work/good.prom" "$prom"
	run "$@"
	check "$c: exit $want ($status)" test "$status" = "$want"
	check "$c: the reason on stderr ($msg)" grep -q -- "$msg" "$work/err"
	down "$c"
	common "$c" "$want"
}
fails "damaged input" 2 "is not a number" sh "$helper" --randstat "$fix/garbage.randstat"
fails "format mismatch" 2 "format version 4" sh "$helper" --randstat "$fix/badversion.randstat"
fails "unreadable input" 2 "No such file" sh "$helper" --randstat "$work/none.randstat"
fails "usage error" 1 "unknown option" sh "$helper" --no-such-option
fails "the reader fails half-way" 5 "out of memory" \
	env PATH="$work/stub:$PATH" sh "$helper"

# --- the directory unwritable: nothing to replace, the old file ages -----
c="unwritable directory"
cp "$work/good.prom" "$prom"
if [ "$(id -u)" = 0 ]; then
	# Root writes through a mode of 555: a read-only bind mount instead.
	# shellcheck disable=SC2016 # expanded by the inner sh
	run unshare --mount sh -c 'mount --bind "$1" "$1" &&
		mount -o remount,bind,ro "$1" "$1" && shift && exec "$@"' \
		sh "$dir" sh "$helper" --randstat "$fix/normal.randstat"
else
	chmod 555 "$dir"
	run sh "$helper" --randstat "$fix/normal.randstat"
	chmod 755 "$dir"
fi
check "$c: exit 4, the output not written ($status)" test "$status" = 4
check "$c: the message names the directory" grep -qF "$dir" "$work/err"
check "$c: randstat.prom as it was" cmp -s "$work/good.prom" "$prom"
check "$c: no temporary file left" no_temp

echo "1..$n"
exit "$failed"
