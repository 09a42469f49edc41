#!/bin/bash
# Capture the reader's VM fixtures: real /proc/stat and /proc/randstat_detail
# pairs from a test guest, into userspace/tests/fixtures/vm-*.{stat,randstat}.
#
#   bash tests/vm/capture-fixtures.sh          boot the reader suite, extract
#   bash tests/vm/capture-fixtures.sh LOG      extract from a console log of
#                                              it (RANDSTAT_OUT/reader.log)
#
# The reader suite (tests/vm/guest/reader.sh) prints each file between
# "RANDSTAT-FIXTURE-BEGIN NAME" and "RANDSTAT-FIXTURE-END NAME":
#   vm-normal    a second after insmod
#   vm-later     after a spin of RANDSTAT_SECS+1 s pinned to cpu1
#   vm-reset     right after "echo reset > /proc/randstat"
#   vm-offline   a second after cpu1 went offline
# The files are written only if all eight were found whole.  The unit tests
# (userspace/tests/test_reader.c) work their expected values out of the
# files, so a new capture needs no change there; the worked example in
# userspace/tests/fixtures/README quotes the numbers of one capture.
#
# Env: as tests/vm/run.sh (KERNEL, MODDIR, RANDSTAT_SECS, ...).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
dest=$repo/userspace/tests/fixtures
names="vm-normal vm-later vm-reset vm-offline"

die() { echo "capture-fixtures: $*" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ $# -ge 1 ]; then
	log=$1
	[ -r "$log" ] || die "$log: cannot read it"
else
	# A scratch output directory: the logs of other runs stay as they are.
	# The guest's test results go to stderr, as information.
	status=0
	KERNELS='' RANDSTAT_OUT=$tmp/out VM_SUITES=reader bash "$here/run.sh" >&2 ||
		status=$?
	[ "$status" -eq 0 ] ||
		echo "capture-fixtures: the reader suite had failures (above); extracting anyway" >&2
	log=$tmp/out/reader.log
	[ -r "$log" ] || die "no console log: the guest did not run"
fi

# Each file between its markers, without the serial console's CRs.
tr -d '\r' <"$log" | awk -v dir="$tmp" '
	/^RANDSTAT-FIXTURE-BEGIN / { name = $2; f = dir "/" name ".part"; printf "" >f; next }
	/^RANDSTAT-FIXTURE-END / {
		if ($2 == name) { close(f); system("mv \"" f "\" \"" dir "/" name "\"") }
		name = ""; next
	}
	name != "" { print >>f }'

for n in $names; do
	for ext in stat randstat; do
		f=$tmp/$n.$ext
		[ -s "$f" ] || die "$n.$ext not found whole in $log"
	done
	head -n 1 "$tmp/$n.randstat" | grep -q '^randstat 4 ' ||
		die "$n.randstat does not begin with 'randstat 4'"
	grep -q '^cpu0 ' "$tmp/$n.stat" || die "$n.stat has no cpu0 line"
done
grep -q '^cpu1 ' "$tmp/vm-offline.stat" && die "vm-offline.stat has a cpu1 line: cpu1 was not offline"
grep -q '^sampler cpu1 online 0 ' "$tmp/vm-offline.randstat" ||
	die "vm-offline.randstat: cpu1 not offline"

for n in $names; do
	for ext in stat randstat; do
		cp "$tmp/$n.$ext" "$dest/$n.$ext"
		echo "capture-fixtures: wrote ${dest#"$repo"/}/$n.$ext"
	done
done
