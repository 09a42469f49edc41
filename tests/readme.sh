#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The README's commands, typed as written by a newcomer on a fresh Debian 12
# machine.  A clean bookworm chroot (debootstrap minbase with sudo and git:
# what a machine someone cloned onto has) stands for that machine, running
# Debian's kernel (a `uname -r` that names the release linux-headers-amd64
# is for; the host runs another).  In it an unprivileged user with sudo,
# in a fresh clone of this tree:
#   - runs the README's prerequisite apt-get line, `make`, `sudo make
#     install` and `sudo make uninstall`, `apt-get build-dep ./`, `make deb`
#     and `sudo apt install ./dist/randstat*.deb`, each as the README
#     writes it;
#   - runs --help and --version of every program installed, and the reader
#     without the module (it must say how to load it, exit 3);
#   - checks that every file the README names exists when it should: tree
#     paths after the build, installed paths after the install that makes
#     them, /proc and /sys paths in the vm suite's guests (not here).
# Every command in the README (its sh blocks, and the commands quoted in
# its prose) must be one this script runs or one it names the suite of;
# a command it does not know, or one it knows that the README no longer
# has, is a failure: the test fails when the README and the build
# disagree, whichever of the two changed.  TAP.
#
# Usage: tests/readme.sh [--refresh] [-h]
#   RANDSTAT_CACHE=<dir>   cache, default ~/.cache/randstat:
#     chroot-readme-bookworm/  the clean machine (created once, ~2 minutes)
#     readme/                  logs of the last run; apt/, the .debs the
#                              README's apt-get lines fetched (kept, so a
#                              second run downloads nothing)
#   --refresh   apt-get update and upgrade the clean chroot first.
#
# Needs root (debootstrap, chroot), git.  Exits non-zero if a test failed.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"

# What a Debian 12 machine running Debian's kernel has that minbase lacks
# (kmod: every linux-image depends on it) and what cloning took (git).
packages=(sudo git ca-certificates kmod)
user=newcomer

# shellcheck source=tests/chroot.sh
. "$(dirname "$0")/chroot.sh"
# shellcheck source=tests/tree.sh
. "$(dirname "$0")/tree.sh"
chroot_script_start readme "${BASH_SOURCE[0]}" "$@"
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/tap.sh"
# shellcheck source=tests/unpack.sh
. "$(dirname "$0")/unpack.sh"

echo "TAP version 13"
rm -f "$out"/*.log

# --- the README's commands -------------------------------------------------
# readme_commands FILE: one command a line: each line of its ```sh blocks
# (continuations joined, comments dropped), and each `code` span of its
# prose that starts like a command; compound commands split at && and |.
readme_commands() {
	awk '
	function emit(s,   i, n, parts) {
		n = split(s, parts, /[ \t]*(&&|[|])[ \t]*/)
		for (i = 1; i <= n; i++) {
			sub(/^[ \t]+/, "", parts[i]); sub(/[ \t]+$/, "", parts[i])
			if (parts[i] != "") print parts[i]
		}
	}
	/^[ \t]*```sh/ { insh = 1; line = ""; next }
	/^[ \t]*```/ && insh { insh = 0; next }
	insh {
		s = $0
		sub(/[ \t]+#.*$/, "", s)
		if (s ~ /\\$/) { sub(/\\$/, "", s); line = line s " "; next }
		emit(line s); line = ""; next
	}
	{
		s = $0
		while (match(s, /`[^`]+`/)) {
			c = substr(s, RSTART + 1, RLENGTH - 2)
			s = substr(s, RSTART + RLENGTH)
			if (c ~ /^(sudo|make|randstat|man|echo|modprobe|insmod|dkms|mokutil|apt|apt-get|cat)( |$)/ ||
			    c ~ /^[A-Z_]+=[^ ]* / || c ~ /^\/[^ ]+ [^ ]+ /)
				emit(c)
		}
	}' "$1" | sed -E 's/[[:space:]]+/ /g' | sort -u
}

# The commands this script knows: an extended regular expression, a tab,
# and what becomes of the command: "run" (this script runs it, see below)
# or the suite or place that runs it and why not here.
known=$(cat <<'EOF'
^sudo apt-get install make gcc linux-headers-\$\(uname -r\) 	run: the prerequisites
^make$	run
^sudo make install$	run
^sudo make uninstall$	run
^make install KRELEASE=	run: refused for another running kernel, then done with KRELEASE= or FORCE=1
^make KDIR=<dir>$	run: make KDIR= the headers' tree
^sudo apt-get build-dep \./$	run
^make deb$	run
^sudo apt install \./dist/randstat\*\.deb$	run
^randstat$	run: without the module (exit 3); the vm suite (reader) with it
^make check$	the make check this suite is part of
^SUITES="reader kunit"$	tests/check.sh (a subset of this make check)
^make demo( INTERACTIVE=1)?$	make demo (boots a guest, not in a chroot)
^make matrix$	tests/matrix.sh (debootstrapped 6.12 and 7.2 chroots, and arm64 rows)
^make arm64-headers$	tests/matrix.sh (bookworm-arm64: the same headers, tests/unpack.sh cross_headers)
^make module ARCH=arm64$	tests/matrix.sh (bookworm-arm64: the same cross build, W=1)
^apt-get install gcc-aarch64-linux-gnu$	tests/matrix.sh (installs it for the arm64 rows)
^apt-get update$	tests/matrix.sh (after it adds arm64 to dpkg's architectures)
^make bench$	bench/run.sh (make check runs its --short form)
^sudo apt-get install dkms$	run
^sudo make dkms-(un)?install$	run (and tests/dkms.sh, in a chroot with two kernels)
^apt-get download$	tests/unpack.sh (the guest kernel, node_exporter, prometheus)
^sudo insmod module/randstat\.ko$	the vm suite (loads the module in a guest)
^cat /proc/randstat$	the vm suite (main)
^sudo modprobe randstat mean_ns=1000000$	the vm suite (main: parameters at load)
^echo "options randstat mean_ns=1000000"$	the vm suite (main: parameters at load)
^sudo tee /etc/modprobe.d/randstat\.conf$	the vm suite (main: parameters at load)
^echo reset > /proc/randstat$	the vm suite (main: reset)
^randstat [0-9]+ [0-9]+$	the vm suite (reader)
^randstat --json$	the vm suite (reader)
^d=/var/lib/prometheus/node-exporter$	tests/deb.sh (debian/randstat-textfile)
^randstat --prometheus > 	the vm suite (reader) and tests/deb.sh (debian/randstat-textfile)
^mv \$d/\.randstat\.prom\.tmp \$d/randstat\.prom$	tests/deb.sh (debian/randstat-textfile)
^(sudo )?randstat top( [0-9]+)?$	the vm suite (top)
^(sudo )?randstat cgroup( [0-9]+)?$	the vm suite (cgroup)
^(sudo )?randstat exec( -- top)?$	the vm suite (fuse)
^randstat verify$	the vm suite (verify; faithful judges its verdicts) and make demo
^man userspace/randstat\.1$	the style suite (man pages render)
^sudo mokutil --import /var/lib/dkms/mok\.pub$	not testable here (Secure Boot firmware)
^/usr/src/linux-headers-.*/scripts/sign-file 	not testable here (an enrolled key)
EOF
)

mapfile -t cmds < <(readme_commands README.md)
diag "${#cmds[@]} commands in README.md"
unknown=()
declare -A used=()
for c in "${cmds[@]}"; do
	hit=
	while IFS=$'\t' read -r re what; do
		if [[ $c =~ $re ]]; then hit=$what; used[$re]=1; break; fi
	done <<<"$known"
	if [ -z "$hit" ]; then
		unknown+=("$c")
	else
		diag "  $c  ->  $hit"
	fi
done
if [ "${#unknown[@]}" -eq 0 ]; then
	ok "every README command is run here or by a named suite"
else
	printf '#   unknown: %s\n' "${unknown[@]}"
	not_ok "every README command is run here or by a named suite (${#unknown[@]} unknown: add it to tests/readme.sh)"
fi
stale=()
while IFS=$'\t' read -r re _; do
	[ -n "${used[$re]:-}" ] || stale+=("$re")
done <<<"$known"
if [ "${#stale[@]}" -eq 0 ]; then
	ok "every command tests/readme.sh knows is still in the README"
else
	printf '#   gone from the README: %s\n' "${stale[@]}"
	not_ok "every command tests/readme.sh knows is still in the README (${#stale[@]} gone)"
fi

# readme_cmd ERE: the README's command that ERE matches, as written.
readme_cmd() {
	local c
	for c in "${cmds[@]}"; do
		if [[ $c =~ $1 ]]; then printf '%s\n' "$c"; return 0; fi
	done
	return 1
}

# --- the fresh machine ------------------------------------------------------
rel=$(guest_release)
if [ -z "$rel" ]; then
	not_ok "the Debian kernel release to stand for (linux-headers-amd64 is not installed)"
	echo "1..$n"
	exit 1
fi
t=$(date +%s)
if [ -f "$root/$stamp" ]; then cached=cached; else cached=created; fi
if chroot_ensure "$release" "$root" "$log" "$stamp"; then
	ok "clean bookworm chroot: minbase, sudo, git ($cached in $(($(date +%s) - t)) s)"
else
	not_ok "clean bookworm chroot (see $log)"
	diag_file "$log"
	echo "1..$n"
	exit 1
fi

# The machine of this run: a copy of the clean chroot, removed at exit.
work=$cache/readme-machine
safe_rm "$work" 2>/dev/null || true
cp -a "$root" "$work"
# shellcheck disable=SC2317 # called by the trap
cleanup() {
	chroot_cleanup
	safe_rm "$work" || true
}
trap cleanup EXIT
mount_proc "$work"
mkdir -p "$out/apt" "$work/dev/pts"
mount --bind "$out/apt" "$work/var/cache/apt/archives"
mounts+=("$work/var/cache/apt/archives")
# An installed Debian 12's package sources (the chroot has debootstrap's
# one line: no updates, no security, so not the headers of the kernel a
# machine runs): this host's, which is one.  Its name resolves, for sudo.
# Debian's own: one-line entries and deb822 files whose suite is
# bookworm, -updates or -security (not a third party's).
awk '$1 == "deb" && $3 ~ /^bookworm(-updates|-security)?$/' \
	/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
	>"$work/etc/apt/sources.list" || true
for f in /etc/apt/sources.list.d/*.sources; do
	grep -qE '^Suites:.* bookworm(-updates|-security)?( |$)' "$f" 2>/dev/null &&
		cp "$f" "$work$f"
done
[ -s "$work/etc/apt/sources.list" ] || compgen -G "$work/etc/apt/sources.list.d/*.sources" >/dev/null ||
	cp "$root/etc/apt/sources.list" "$work/etc/apt/sources.list"
echo "127.0.1.1 $(hostname)" >>"$work/etc/hosts"
# The user answers apt's question with yes; uname -r names Debian's kernel.
echo 'APT::Get::Assume-Yes "true";' >"$work/etc/apt/apt.conf.d/90newcomer"
cat >"$work/usr/local/bin/uname" <<EOF
#!/bin/sh
# tests/readme.sh: this chroot stands for a machine running Debian's $rel.
[ "\$*" = -r ] && { echo $rel; exit 0; }
exec /bin/uname "\$@"
EOF
chmod 755 "$work/usr/local/bin/uname"
in_chroot "$work" useradd -m -s /bin/bash "$user"
echo "$user ALL=(ALL) NOPASSWD: ALL" >"$work/etc/sudoers.d/$user"
chmod 440 "$work/etc/sudoers.d/$user"
# A fresh clone of this tree (its files as git lists them, committed anew).
home=/home/$user
tree_copy "$work$home/randstat"
in_chroot "$work" chown -R "$user:$user" "$home/randstat"
# as_user CMD: CMD in the clone, as the newcomer, in bash, with the PATH
# Debian gives a user (no sbin).
# Under pipefail, so no "CMD | grep -q": grep leaves at its first match,
# and CMD, still writing (dkms status, one line per kernel), dies of
# SIGPIPE and fails the pipeline.  Grep what CMD printed instead.
as_user() {
	in_chroot "$work" runuser -u "$user" -- env HOME="$home" USER="$user" \
		PATH=/usr/local/bin:/usr/bin:/bin:/usr/games \
		bash -o pipefail -c "cd ~/randstat && $1"
}
# as_user_log NAME CMD: as_user CMD, its output appended to $out/NAME.log.
# shellcheck disable=SC2317 # called through check
as_user_log() { as_user "$2" >>"$out/$1.log" 2>&1; }
as_user 'git init -q && git add -A &&
	git -c user.name=newcomer -c user.email=newcomer@localhost commit -qm clone' \
	>"$out/clone.log" 2>&1
{ apt_get "$work" update && in_chroot "$work" apt-get clean; } >"$out/apt-update.log" 2>&1 ||
	diag "apt-get update failed in the chroot (see $out/apt-update.log)"

# step NAME ERE: run the README's command that ERE matches, as written, as
# the newcomer; ok if it exits 0.  Its output goes to $out/NAME.log.
step() {
	local name=$1 cmd t
	if ! cmd=$(readme_cmd "$2"); then
		not_ok "$name: no README command matches /$2/"
		return 1
	fi
	t=$(date +%s)
	if as_user "$cmd" >"$out/$name.log" 2>&1; then
		ok "$name: \`$cmd\` ($(($(date +%s) - t)) s)"
	else
		not_ok "$name: \`$cmd\` (see $out/$name.log)"
		diag_file "$out/$name.log" 25
		return 1
	fi
}

# The README's prerequisites line is a sh-block line (one apt-get, with
# $(uname -r)): take it whole, not split.
step prereqs '^sudo apt-get install make gcc linux-headers-' || true
step make '^make$' || true

# --- what the README names ---------------------------------------------------
# readme_paths: the paths the README names in `code` spans and links,
# with $(uname -r) and <release> read as the release this machine runs.
readme_paths() {
	{
		# shellcheck disable=SC2016 # backquotes, literally
		grep -o '`[^`]*`' README.md | tr -d '`'
		grep -o '](\([^)#]*\)' README.md | sed 's/^](//'
	} | sed -E 's#\$\(uname -r\)#'"$rel"'#g; s#<release>#'"$rel"'#g' |
		tr ' ' '\n' | grep -E '^(/|~/|[A-Za-z0-9_.-]+/)' | grep -v '://' |
		sed -E 's/[.,:;)]+$//' | grep -vE '[<>$]' | sort -u
}
mapfile -t paths < <(readme_paths)
diag "${#paths[@]} paths in README.md"
# exists_in_machine PATH: PATH (a glob) exists in the chroot; tree paths
# in the clone.
exists_in_machine() {
	local p=$1
	# shellcheck disable=SC2088 # the README's ~, the newcomer's home
	case $p in
	'~/'*)	p=$home/${p#'~/'} ;;
	/*)	;;
	*)	p=$home/randstat/$p ;;
	esac
	compgen -G "$work${p%/}" >/dev/null
}
# Paths that are not the newcomer's to have: the module's files (the vm
# suite's guests read them), make check's own cache.
elsewhere='^/(proc|sys)/|^~/\.cache/randstat'
# check_paths PHASE FILTER: each README path that FILTER (an ERE) matches,
# not found before and not $elsewhere, must exist now.
declare -A found=()
check_paths() {
	local phase=$1 filter=$2 p missing=() k=0
	for p in "${paths[@]}"; do
		[ -z "${found[$p]:-}" ] || continue
		if ! [[ $p =~ $filter ]] || [[ $p =~ $elsewhere ]]; then continue; fi
		k=$((k + 1))
		if exists_in_machine "$p"; then found[$p]=$phase; else missing+=("$p"); fi
	done
	if [ "${#missing[@]}" -eq 0 ]; then
		ok "$phase: the $k paths the README names for it are there"
	else
		printf '#   missing: %s\n' "${missing[@]}"
		not_ok "$phase: the paths the README names are there (${#missing[@]} of $k missing)"
	fi
}
# The tree after make: every relative path but the packages' dist/.
check_paths "after make" '^[^/~]'

# What make built for and where.
check "make built module/randstat.ko for $rel (modinfo vermagic)" \
	sh -c "[ \"\$(/sbin/modinfo -F vermagic '$work$home/randstat/module/randstat.ko' 2>/dev/null | cut -d' ' -f1)\" = '$rel' ]"
if grep -q 'falling back\|not the running kernel' "$out/make.log"; then
	not_ok "make built for the running kernel without a warning"
	grep 'falling back\|not the running' "$out/make.log" | sed 's/^/#   /'
else
	ok "make built for the running kernel without a warning"
fi
for prog in userspace/randstat userspace/fs/randstat-fs userspace/cgroup/randstat-cgroup; do
	check "make built $prog" test -x "$work$home/randstat/$prog"
done
if grep -qi 'not built\|built to say it is missing' "$out/make.log"; then
	not_ok "make built everything after the README's prerequisites (no 'not built' note)"
	grep -i 'not built\|missing' "$out/make.log" | sed 's/^/#   /'
else
	ok "make built everything after the README's prerequisites (no 'not built' note)"
fi

# make's default goal, from the top and in userspace/: the reader.
for how in "make -C userspace" "make userspace"; do
	check "\`$how\` (default goal) leaves userspace/randstat" \
		as_user_log goal "make -s -C userspace clean && $how && test -x userspace/randstat"
done

# --- sudo make install --------------------------------------------------------
step install '^sudo make install$' || true
installed=(/usr/local/bin/randstat /usr/local/share/man/man1/randstat.1
	/usr/local/bin/randstat-fs /usr/local/bin/randstat-fs-mount
	/usr/local/bin/randstat-cgroup /usr/local/share/man/man1/randstat-cgroup.1
	"/lib/modules/$rel/extra/randstat.ko")
for f in "${installed[@]}"; do
	check "installed $f" test -e "$work$f"
done
check "depmod ran: modinfo randstat finds it in /lib/modules/$rel" \
	sh -c "in_chroot() { chroot '$work' /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \"\$@\"; }
		in_chroot modinfo -k '$rel' -n randstat | grep -q extra/randstat.ko"
check_paths "after sudo make install" '^/(usr/local|lib/modules)'

# Every program installed says --help and --version, as the newcomer.
for c in "randstat --help" "randstat --version" "randstat top --help" \
	"randstat exec --help" "randstat cgroup --help" "randstat cgroup --version" \
	"randstat-fs --help" "randstat-fs --version" "randstat-fs-mount --help"; do
	if out_text=$(as_user "$c" 2>&1) && [ -n "$out_text" ]; then
		ok "\`$c\` exits 0 ($(head -n 1 <<<"$out_text"))"
	else
		not_ok "\`$c\` exits 0 and prints something"
		tail -n 5 <<<"$out_text" | sed 's/^/#   /'
	fi
done
check "\`randstat --version\` prints $(sed -n 's/^#define RANDSTAT_VERSION[[:space:]]*"\(.*\)"/\1/p' include/randstat.h)" \
	sh -c "[ \"\$1\" = \"randstat \$2\" ]" _ "$(as_user 'randstat --version' 2>&1)" \
	"$(sed -n 's/^#define RANDSTAT_VERSION[[:space:]]*"\(.*\)"/\1/p' include/randstat.h)"
# Without the module, the README's first reading command says how to load it.
st=0
text=$(as_user "$(readme_cmd '^randstat$')" 2>&1) || st=$?
if [ "$st" = 3 ] && grep -q 'insmod\|modprobe' <<<"$text"; then
	ok "\`randstat\` without the module: exit 3, says how to load it"
else
	not_ok "\`randstat\` without the module: exit 3, says how to load it (exit $st)"
	head -n 5 <<<"$text" | sed 's/^/#   /'
fi

# --- sudo make uninstall -------------------------------------------------------
step uninstall '^sudo make uninstall$' || true
left=()
for f in "${installed[@]}"; do [ ! -e "$work$f" ] || left+=("$f"); done
if [ "${#left[@]}" -eq 0 ]; then
	ok "sudo make uninstall removed all ${#installed[@]} files"
else
	not_ok "sudo make uninstall removed all ${#installed[@]} files (left: ${left[*]})"
fi

# make install while another kernel runs, as the README says: refused,
# then done with KRELEASE=<the module's release> or FORCE=1.
other=RUNNING=0.0.0-another-kernel
st=0
as_user "sudo make install $other" >"$out/install-other.log" 2>&1 || st=$?
if [ "$st" -ne 0 ] && grep -q "KRELEASE=$rel" "$out/install-other.log" &&
   [ ! -e "$work/lib/modules/$rel/extra/randstat.ko" ]; then
	ok "sudo make install with another kernel running: refused, names KRELEASE=$rel"
else
	not_ok "sudo make install with another kernel running: refused, names KRELEASE=$rel (exit $st)"
	diag_file "$out/install-other.log" 8
fi
for how in "KRELEASE=$rel" FORCE=1; do
	check "sudo make install $how with another kernel running: installs for $rel" \
		as_user_log install-other "sudo make install $other $how &&
			test -e /lib/modules/$rel/extra/randstat.ko &&
			sudo make uninstall $other KRELEASE=$rel &&
			! test -e /lib/modules/$rel/extra/randstat.ko"
done
check "make KDIR= the headers' tree builds the module (the README's make KDIR=<dir>)" \
	as_user_log kdir "make -s clean && make KDIR=/usr/src/linux-headers-$rel module &&
		test -f module/randstat.ko"

# --- DKMS ----------------------------------------------------------------------
# DKMS lists randstat as installed for $rel (see as_user on grep -q).
dkms_installed="st=\$(sudo dkms status randstat) && grep -q '$rel.*installed' <<<\"\$st\""
if step dkms '^sudo apt-get install dkms$' &&
   step dkms-install '^sudo make dkms-install$'; then
	check_paths "after sudo make dkms-install" '^/usr/src/'
	check "DKMS built and installed randstat.ko for $rel" \
		as_user "$dkms_installed"
	step dkms-uninstall '^sudo make dkms-uninstall$' &&
		check "sudo make dkms-uninstall: nothing of randstat left in DKMS" \
			as_user "[ -z \"\$(sudo dkms status randstat)\" ] && [ -z \"\$(ls /usr/src | grep randstat)\" ]"
fi

# --- the Debian packages --------------------------------------------------------
if step build-dep '^sudo apt-get build-dep \./$' &&
   step deb '^make deb$' &&
   step deb-install '^sudo apt install \./dist/randstat\*\.deb$'; then
	for c in "/usr/bin/randstat --version" "/usr/bin/randstat cgroup --version"; do
		check "the package's \`$c\`" as_user "$c"
	done
	check "DKMS built randstat.ko for $rel" \
		as_user "$dkms_installed"
	# What the package's timer runs (no systemd here: run once by hand),
	# where prometheus-node-exporter's textfile directory is (the unit
	# is skipped elsewhere; this machine has no node_exporter, so the
	# directory is made as its package would).
	unit=/lib/systemd/system/randstat-textfile.service
	run=$(sed -n 's/^ExecStart=//p' "$work$unit")
	prom=/var/lib/prometheus/node-exporter/randstat.prom
	check "$unit runs only where node_exporter's textfile directory is" \
		grep -qx "ConditionPathIsDirectory=${prom%/*}" "$work$unit"
	as_user "sudo mkdir -p ${prom%/*} && sudo $run" >"$out/textfile.log" 2>&1 || true
	check "$unit's \`$run\` writes $prom: randstat_up 0 here (no module)" \
		grep -qx 'randstat_up 0' "$work$prom"
	check_paths "after the packages' install" '^/(usr/share/doc|usr/src|var/lib/prometheus)'
fi
# Anything else the README names (but the module's files and the cache).
check_paths "at the end" '.'

echo "1..$n"
exit "$failed"
