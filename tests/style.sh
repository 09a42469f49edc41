#!/bin/bash
# The kernel code's standards, checked (TAP): checkpatch.pl --strict on
# module/, include/ and kunit/ (from the linux-source tree tests/ksrc.sh
# unpacks), and a build of the module against Debian's headers with W=1
# and sparse (C=1) that prints no warning (after make clean: every file
# is compiled and checked again); and Documentation/*.rst, which docutils
# must parse without a warning (a broken table or link otherwise renders
# wrong, silently); and shellcheck on every shell script git lists (by
# name *.sh or by a sh/bash first line or shellcheck directive), clean
# under .shellcheckrc, and that it flags a bug planted in a copy of
# tests/check.sh.
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 1
# shellcheck source=tests/tap.sh
. "$repo/tests/tap.sh"
# shellcheck source=tests/ksrc.sh
. "$repo/tests/ksrc.sh"

if ksrc_prepare "$repo" style; then
	# Not the build's generated randstat.mod.c, if the module was built.
	files=$(printf '%s\n' module/*.[ch] include/*.h kunit/*.c | grep -v '\.mod\.c$')
	# shellcheck disable=SC2086 # one file name a word, none with spaces
	out=$(perl "$ksrc/scripts/checkpatch.pl" --strict --no-tree --terse \
		--show-types -f $files 2>&1 |
		grep -E 'ERROR|WARNING|CHECK')
	[ -z "$out" ] || echo "$out" | head -n 30 | sed 's/^/#   /'
	check "checkpatch.pl --strict: module/, include/, kunit/" [ -z "$out" ]
else
	not_ok "checkpatch.pl --strict: no kernel source tree"
fi

if ! command -v sparse >/dev/null; then
	not_ok "W=1 C=1: sparse missing (apt-get install sparse)"
else
	log=$(mktemp)
	make -s -C "$repo" clean >/dev/null 2>&1
	make -C "$repo" module W=1 C=1 >"$log" 2>&1
	status=$?
	warnings=$(grep -cE 'warning:|error:' "$log")
	if [ "$status" -eq 0 ] && [ "$warnings" -eq 0 ]; then
		ok "the module builds with W=1 and sparse (C=1): no warning"
	else
		grep -E 'warning:|error:' "$log" | head -n 30 | sed 's/^/#   /'
		not_ok "the module builds with W=1 and sparse (C=1): $warnings warnings, status $status"
	fi
	rm -f "$log"
fi

# Debian's python3 (its python3-docutils), not another one on the PATH.
if ! /usr/bin/python3 -c 'import docutils' 2>/dev/null; then
	not_ok "Documentation/*.rst: docutils missing (apt-get install python3-docutils)"
else
	out=$(/usr/bin/python3 - Documentation/*.rst 2>&1 <<'EOF'
import io
import sys

import docutils.core

for path in sys.argv[1:]:
    err = io.StringIO()
    with open(path, encoding="utf-8") as f:
        docutils.core.publish_doctree(
            f.read(), source_path=path,
            settings_overrides={"warning_stream": err, "report_level": 2})
    sys.stdout.write(err.getvalue())
EOF
)
	[ -z "$out" ] || echo "$out" | head -n 30 | sed 's/^/#   /'
	check "Documentation/*.rst: docutils parses it without a warning" [ -z "$out" ]
fi

# shell_scripts: the shell scripts git lists, one a line.
shell_scripts() {
	local f
	git -C "$repo" ls-files | while read -r f; do
		[ -f "$f" ] || continue
		case $f in
		*.sh) echo "$f" ;;
		*) head -n 1 "$f" | grep -qE '^#!(/usr)?/bin/(env )?(ba)?sh( |$)|^# shellcheck shell=' &&
			echo "$f" ;;
		esac
	done
}

if ! command -v shellcheck >/dev/null; then
	not_ok "shellcheck: missing (apt-get install shellcheck)"
elif ! mapfile -t scripts < <(shell_scripts) || [ "${#scripts[@]}" -lt 30 ]; then
	not_ok "shellcheck: the shell scripts git lists (${#scripts[@]}; no git clone?)"
else
	# -x: follow the files each sources (their shellcheck source= paths
	# are the repository's).
	out=$(shellcheck -x -f gcc "${scripts[@]}" 2>&1)
	[ -z "$out" ] || echo "$out" | head -n 30 | sed 's/^/#   /'
	check "shellcheck $(shellcheck --version | sed -n 's/^version: //p'): ${#scripts[@]} scripts clean" \
		[ -z "$out" ]
	# It can fail: an unquoted expansion planted in a copy of check.sh.
	tmp=$(mktemp -d)
	# shellcheck disable=SC2016 # the text to find and put, literally
	sed 's|tee "\$out/\$name.tap"|tee $out/$name.tap|' tests/check.sh >"$tmp/check.sh"
	planted=$(shellcheck -f gcc "$tmp/check.sh" 2>&1)
	echo "$planted" | head -n 3 | sed 's/^/#   planted: /'
	check "shellcheck flags an unquoted \$out planted in a copy of tests/check.sh" \
		grep -q 'SC2086' <<<"$planted"
	rm -rf "$tmp"
fi

echo "1..$n"
exit "$failed"
