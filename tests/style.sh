#!/bin/bash
# The kernel code's standards, checked (TAP): checkpatch.pl --strict on
# module/, include/ and kunit/ (from the linux-source tree tests/ksrc.sh
# unpacks), module/interval.c's log2 table as its generator prints it,
# and a build of the module against Debian's headers with W=1
# and sparse (C=1) that prints no warning (after make clean: every file
# is compiled and checked again); and Documentation/*.rst, which docutils
# must parse without a warning (a broken table or link otherwise renders
# wrong, silently); and shellcheck on every shell script git lists (by
# name *.sh or by a sh/bash first line or shellcheck directive), clean
# under .shellcheckrc, and that it flags a bug planted in a copy of
# tests/check.sh; every man page rendered by man -l and groff from any
# working directory, dated and with a SEE ALSO; and every instruction to
# write "reset" in the documents aimed at /proc/randstat; and debian/'s
# maintainer one and the same in control, copyright and changelog, and no
# placeholder.
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

# randstat_neg_log2()'s table is what its generator prints.
check "module/interval.c's log2 table is module/gen_log2_table.py's" \
	python3 module/gen_log2_table.py --check

if ! command -v sparse >/dev/null; then
	not_ok "W=1 C=1: sparse missing (apt-get install sparse)"
else
	log=$(mktemp)
	# make clean reads module/Kbuild without the kernel's config.
	make -s -C "$repo" clean >"$log" 2>&1
	status=$?
	[ "$status" -eq 0 ] || diag_file "$log" 5
	check "make clean works (module/Kbuild read without the kernel's config)" [ "$status" -eq 0 ]
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
	# A 32-bit kernel is refused before anything is compiled (module/
	# Kbuild): the kernel's config, with CONFIG_64BIT taken away.
	log=$(mktemp)
	if ! make -C "$repo" module CONFIG_64BIT= >"$log" 2>&1 &&
		grep -q 'randstat needs a 64-bit kernel (CONFIG_64BIT)' "$log" &&
		! grep -q '  CC \[M\]' "$log"; then
		ok "a 32-bit kernel (CONFIG_64BIT unset) is refused with the reason, nothing compiled"
	else
		tail -n 5 "$log" | sed 's/^/#   /'
		not_ok "a 32-bit kernel (CONFIG_64BIT unset) is refused with the reason, nothing compiled"
	fi
	rm -f "$log"
fi

# The mutants (tests/mutants/list) and the planted defects still fit the
# code: every mutant's line is in its file exactly once (make mutate
# would call it stale), and every planted patch (the debug suite's
# break-*, the faithful suite's plant-*, rearm-planted.sh's rearm-*)
# applies (the vm runner stops at one that does not).
log=$(mktemp)
bash tests/mutate.sh --check >"$log" 2>&1
status=$?
sed 's/^/#   /' "$log"
rm -f "$log"
check "tests/mutants/list: every mutant's line in its file once, its suite there" \
	[ "$status" -eq 0 ]
bad=
for p in tests/debug/*.patch tests/verify/*.patch; do
	patch --dry-run -s -p1 -d "$repo" <"$p" >/dev/null 2>&1 || bad="$bad $p"
done
[ -z "$bad" ] || diag "do not apply:$bad"
check "the planted patches (tests/debug, tests/verify) apply to the tree" [ -z "$bad" ]

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

# Man pages: every one git lists renders with man -l and with groff -man
# -ww, from / (a page that reads another by a path relative to the working
# directory, a bare .so, fails there), without a warning; and it has a
# .TH with its date (YYYY-MM-DD, the release's: debian/changelog's) and a
# SEE ALSO section.
if ! command -v man >/dev/null || ! command -v groff >/dev/null; then
	not_ok "man pages: man or groff missing (apt-get install man-db groff-base)"
elif ! mapfile -t pages < <(git -C "$repo" ls-files '*.[1-9]') || [ "${#pages[@]}" -lt 4 ]; then
	not_ok "man pages: the ones git lists (${#pages[@]}; no git clone?)"
else
	for f in "${pages[@]}"; do
		out=$(cd / && {
			MANWIDTH=80 man -l "$repo/$f" 2>&1 >/dev/null
			groff -man -Tutf8 -ww -z "$repo/$f" 2>&1
			[ -n "$(MANWIDTH=80 man -l "$repo/$f" 2>/dev/null)" ] || echo "man -l: no output"
		})
		[ -z "$out" ] || echo "$out" | head -n 5 | sed 's/^/#   /'
		check "$f: man -l and groff -man -ww render it from / without a warning" \
			[ -z "$out" ]
		th=$(sed -n '/^\.TH /{p;q}' "$f")
		check "$f: .TH NAME SECTION \"YYYY-MM-DD\" (${th:-none})" \
			grep -qE '^\.TH [A-Z][-A-Z0-9]* [1-9] "?[0-9]{4}-[0-9]{2}-[0-9]{2}"? ' <<<"$th"
		check "$f: a SEE ALSO section" grep -qE '^\.SH "?SEE ALSO"?$' "$f"
	done
	# randstat(1), the front door, leads to every other page.
	see=$(sed -n '/^\.SH "\{0,1\}SEE ALSO/,/^\.SH/p' userspace/randstat.1)
	missing=()
	for f in "${pages[@]}"; do
		p=${f##*/}
		[ "$p" = randstat.1 ] ||
			grep -qE "^\.BR ${p%.*} \(${p##*.}\)" <<<"$see" || missing+=("${p%.*}(${p##*.})")
	done
	check "randstat.1's SEE ALSO names the other pages${missing[*]:+ (not: ${missing[*]})}" \
		[ "${#missing[@]}" -eq 0 ]
fi

# Where the documents tell to write "reset" (echo reset > PATH, "writing
# reset to PATH", or "to it" under a man page's .TP tag PATH), PATH must be
# /proc/randstat, the one file with a write handler (module/proc.c): in
# the man pages, Documentation/, the READMEs.
out=$(git -C "$repo" ls-files '*.[1-9]' '*.rst' '*.md' 'debian/*README*' |
	/usr/bin/python3 -c '
import re
import sys

found = bad = 0


def paragraphs(path, text):
    """(tag, text) per paragraph; tag: the .TP tag over a man paragraph."""
    if not re.search(r"\.[1-9]$", path):
        for p in re.split(r"\n\s*\n", text):
            yield None, re.sub(r"[`*]", "", p)
        return
    tag, cur, want_tag = None, [], False
    for line in text.splitlines():
        m = re.match(r"\.(SH|SS|PP|P|LP|TP|IP)\b", line)
        if m:
            yield tag, " ".join(cur)
            cur, want_tag = [], m.group(1) == "TP"
            tag = None if m.group(1) != "IP" else tag
            continue
        if line.startswith(".\\\""):
            continue
        line = re.sub(r"^\.[A-Z]{1,2}( |$)", "", line)
        line = re.sub(r"\\f[BIRP]|\\f\(..|\\&|\"", "", line).replace("\\-", "-")
        if want_tag:
            tag, want_tag = line.strip(), False
        cur.append(line)
    yield tag, " ".join(cur)


for path in sys.stdin.read().split():
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for tag, p in paragraphs(path, text):
        p = " ".join(p.split())
        hits = list(re.finditer(r"echo reset >\s*(\S+)", p))
        hits += re.finditer(
            r"[Ww]rit(?:e|es|ing) reset (?:\([^)]*\) )?(?:to|into) (\S+)", p)
        for m in hits:
            found += 1
            target = m.group(1)
            if target == "it":
                target = tag or "it (no .TP tag)"
            target = target.rstrip(".,;:)\x27\"")
            if target != "/proc/randstat":
                bad += 1
                print("%s: reset written to %s: \"%s\"" % (
                    path, target, p[max(0, m.start() - 40):m.end() + 20]))
print("%d instructions to write reset" % found)
sys.exit(1 if bad or not found else 0)
' 2>&1)
status=$?
printf '%s\n' "$out" | head -n 30 | sed 's/^/#   /'
check "every instruction to write reset names /proc/randstat (the man pages, Documentation/, READMEs)" \
	[ "$status" -eq 0 ]

# debian/: one maintainer, and no placeholder for it: control's
# Maintainer is copyright's Upstream-Contact and the latest changelog
# entry's; none of them, nor any changelog trailer, a made-up "seed" or
# "example" name (lintian takes any well-formed address).
maint=$(sed -n 's/^Maintainer: //p' debian/control)
contact=$(sed -n 's/^Upstream-Contact: //p' debian/copyright)
latest=$(sed -n 's/^ -- \(.*>\)  .*/\1/p' debian/changelog | head -n 1)
check "debian/: control's Maintainer is copyright's Upstream-Contact and the latest changelog entry's (${maint:-none}; ${contact:-none}; ${latest:-none})" \
	[ -n "$maint" ] && [ "$contact" = "$maint" ] && [ "$latest" = "$maint" ]
placeholders=$(printf '%s\n' "$maint" "$contact" |
	cat - <(sed -n 's/^ -- \(.*>\)  .*/\1/p' debian/changelog) |
	grep -iE 'seed|example|placeholder|todo|fixme|xxx' | sort -u)
[ -z "$placeholders" ] || printf '#   %s\n' "$placeholders"
check "debian/: no placeholder maintainer (seed, example, TODO...)" [ -z "$placeholders" ]

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
