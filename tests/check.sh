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
#   textfile the Debian package's textfile helper (debian/randstat-textfile)
#            on the host with the reader and its fixtures: module present,
#            missing, damaged input, format mismatch, unwritable directory;
#            every output through promtool (tests/textfile.sh; TAP; a second)
#   runner   tests/vm/boot.sh's watchdog (tests/vm/watch.sh) on fake
#            guests: a boot silent before /init is killed and booted
#            again, a guest quiet after /init is not (TAP; 5 s)
#   sanitize the unit tests once more under ASan and UBSan (clang), the
#            libFuzzer targets 20 s each, and bugs planted in a copy
#            that each must report (tests/sanitize.sh; TAP)
#   hostpath the user-space build of the per-sample path that make bench
#            times computes what the module does (bench/host; TAP)
#   kunit    KUnit on a UML kernel (tests/kunit.sh; KTAP)
#   mutants  a rotating few of tests/mutants/list's mutants that KUnit
#            must kill, each killed (tests/mutate.sh --rotate
#            ${MUTANTS_ROTATE:-3}: which ones follows the commit; make
#            mutate runs them all; TAP)
#   deb      the Debian packages: make deb, lintian, install, DKMS, upgrade
#            and purge in a bookworm chroot, and a real node_exporter
#            (tests/deb.sh; TAP)
#   readme   the README's commands as written, in a clean bookworm chroot
#            standing for a newcomer's machine: its prerequisites line,
#            make, make install and uninstall, make deb and apt install,
#            --help and --version of what they install, and that every
#            path it names exists (tests/readme.sh; TAP)
#   srcpkg   the source package (dpkg-source -b, lintian), its binaries
#            built from it in a clean bookworm chroot as a buildd would,
#            twice: byte-identical (tests/srcpkg.sh; TAP); with readme
#            in SUITES, it runs beside readme (see "srcpkg beside
#            readme" below) and prints here
#   faithful the guests of tests/vm/run.sh on a clock that does not lie
#            (-icount): faithful and faithful2, the module judged with no
#            lateness allowance, and attack and prof.  They start in the
#            background before the first suite and run beside the host's
#            suites (see "The icount lanes" below); here make check waits
#            for them (KTAP)
#   vm       the real module in QEMU guests, those apart
#            (tests/vm/run.sh; KTAP)
#   debug    the module on the debug kernel (tests/debugkernel.sh: lockdep,
#            KASAN, kmemleak, UBSAN, fault injection, IRQ time accounting;
#            tests/vm/guest/debug.sh), and the deliberately broken builds
#            (tests/debug/break-*.patch) it must catch
#   arm64    the module on Debian's arm64 kernel under
#            qemu-system-aarch64 (-M virt -cpu cortex-a72), cross-built
#            with the guest's programs: the main, tickless, nohzfull,
#            judged and evader suites with the default parameters (the
#            last two on the faithful clock, -icount), and
#            timerstop (an idle state that stops the local timer, the
#            broadcast in use; tests/vm/run.sh, KERNELS=arm64)
#   bench    the benchmark's short version: randstat against exact
#            references on the paper's workloads (bench/run.sh --short)
#   host     last, whatever SUITES says: the host as before tests/deps.sh
#            ran: no new listening TCP socket (ss -ltnH), no new enabled
#            unit, running service or boot kernel (TAP)
#
# SUITES="reader kunit" runs a subset; SUITES=vm without faithful runs
# the vm suite with the icount guests in it.
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 1
# shellcheck source=tests/tree.sh
. tests/tree.sh
out=$repo/tests/out
mkdir -p "$out"

# host_state: what make check could leave behind on the host, one item a
# line: listening TCP sockets, enabled units (systemctl reads them from
# /etc without a running systemd), running services (with one), kernels
# in /boot.
host_state() {
	ss -ltnH 2>/dev/null | awk '{ print "listening socket " $4 }'
	[ "${1:-}" = nounits ] ||
		systemctl --root=/ list-unit-files --state=enabled --no-legend 2>/dev/null |
		awk '{ print "enabled unit " $1 }'
	if [ -d /run/systemd/system ]; then
		systemctl list-units --type=service --state=running --no-legend \
			--plain 2>/dev/null | awk '{ print "running service " $1 }'
	fi
	find /boot -maxdepth 1 -name 'vmlinuz-*' -printf 'boot kernel %f\n' 2>/dev/null
}
# A fresh machine may have no systemctl until tests/deps.sh installs
# systemd (tests/deb.sh uses it): every unit file already on the disk
# would then look new.  The enabled units are then taken after deps.sh
# (see below), so what the tests enable is still caught.
units_later=0
command -v systemctl >/dev/null || units_later=1
if [ "$units_later" = 1 ]; then
	host_state nounits | sort -u >"$out/host-before.txt"
else
	host_state | sort -u >"$out/host-before.txt"
fi

# host_check: TAP, the host now against host-before.txt.
host_check() {
	local sockets others
	host_state | sort -u >"$out/host-after.txt"
	echo "TAP version 13"
	mapfile -t sockets < <(comm -13 "$out/host-before.txt" "$out/host-after.txt" | grep '^listening')
	mapfile -t others < <(comm -13 "$out/host-before.txt" "$out/host-after.txt" | grep -v '^listening')
	if [ "${#sockets[@]}" -gt 0 ]; then
		printf '#   new: %s\n' "${sockets[@]}"
		ss -ltnpH 2>/dev/null | sed 's/^/#   ss: /'
		echo "not ok 1 - no new listening socket (ss -ltnH)"
	else
		echo "ok 1 - no new listening socket (ss -ltnH: $(grep -c '^listening' "$out/host-after.txt"), as before)"
	fi
	if [ "${#others[@]}" -gt 0 ]; then
		printf '#   new: %s\n' "${others[@]}"
		echo "not ok 2 - no new enabled unit, running service or boot kernel"
	else
		echo "ok 2 - no new enabled unit, running service or boot kernel"
	fi
	echo "1..2"
}

bash tests/deps.sh || exit 1
echo "# tests/deps.sh: done in $SECONDS s"
# promtool (randstat cgroup's unit tests, the deb suite) from Debian's
# prometheus as deps.sh unpacked it, where it is not installed.
# shellcheck source=tests/unpack.sh
. tests/unpack.sh
if ! command -v promtool >/dev/null && promdir=$(unpacked_dir prometheus); then
	export PATH="$promdir/usr/bin:$PATH"
fi
if [ "$units_later" = 1 ]; then
	{ cat "$out/host-before.txt"; host_state | grep '^enabled unit '; } |
		sort -u >"$out/host-before.txt.new"
	mv "$out/host-before.txt.new" "$out/host-before.txt"
fi

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
	local name=$1 depth=$2 status t0
	shift 2
	echo "# suite $name: $* ($(date +%T), make check's minute $((SECONDS / 60)))"
	t0=$SECONDS
	"$@" 2>&1 | tee "$out/$name.tap"
	status=${PIPESTATUS[0]}
	count "$out/$name.tap" "$depth"
	if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "not ok - $name exited with status $status" | tee -a "$out/$name.tap"
		f=1
	fi
	echo "# suite $name: $p passed, $f failed, $s skipped ($((SECONDS - t0)) s)"
	[ "$f" -gt 0 ] && failed_suites+=("$name:$depth")
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
}

suites=${SUITES:-style reader textfile runner sanitize hostpath kunit mutants deb readme srcpkg faithful vm debug arm64 bench}
for s in $suites; do
	case $s in
	style | reader | textfile | runner | sanitize | hostpath | kunit | mutants | deb | readme | srcpkg | \
		faithful | vm | debug | arm64 | bench) ;;
	*)	echo "check: unknown suite $s" >&2; exit 2 ;;
	esac
done
# The faithful2 suite's QEMU (trixie's, tests/vm/qemu-trixie.sh: a
# debootstrap, about a minute the first time) is made in the background
# while the suites before it run, so that a cold run does not wait for
# it; run.sh waits for it (its lock) if it is not done.
qemu_job=
failed_suites=()
case " $suites " in *" vm "* | *" faithful "*)
	if [ "$(id -u)" -eq 0 ]; then
		bash tests/vm/qemu-trixie.sh >"$out/qemu-trixie.log" 2>&1 &
		qemu_job=$!
	fi ;;
esac

# The icount lanes.  The faithful, faithful2, attack and prof guests
# (tests/vm/run.sh) keep their clock by their instruction count (-icount
# SHIFT,sleep=off): what the host does beside them does not move their
# time, as it moves a plain TCG guest's.  So they boot in the background
# while the host's own suites (those before "faithful" in SUITES) run, in
# two lanes, one guest each at a time (tests/vm/boot.sh shares its lock
# among icount guests only), and then, with "debug" in SUITES, the first
# lane builds the debug kernel (tests/debugkernel.sh; cached after the
# first time).  Each lane runs from a copy of the tree outside it, with
# its builds and logs there too: the host suites' cleans reach every
# object file under the tree (`make clean` is Kbuild's with M= the
# tree), and the two lanes' module builds would meet in one tree.  The
# faithful suite's place in SUITES is where make check waits for them,
# prints what they printed and keeps their logs in tests/out/faithful;
# no plain guest boots before that.  The lanes took 11.0 and 10.3
# minutes beside the host's suites (8.7) at 920b6fe: faithful 7.2 and
# faithful2 3.8, attack 9.4 and prof 1.0.
lane_suites=("faithful faithful2" "attack prof")
lanes=()
lane_jobs=()
case " $suites " in *" faithful "*)
	for i in "${!lane_suites[@]}"; do
		lane=$(mktemp -d "${TMPDIR:-/tmp}/randstat-icount$i.XXXXXX") || exit 1
		tree_copy "$lane/src" || exit 1
		(
			# The runner's own tests once, in the first lane.
			env VM_SUITES="${lane_suites[$i]}" RANDSTAT_OUT="$lane/out" \
				RANDSTAT_VM_SELFTEST=$((i == 0)) \
				bash "$lane/src/tests/vm/run.sh" >"$lane/run.log" 2>&1
			echo $? >"$lane/status"
			echo "# icount lane $i (${lane_suites[$i]}): its guests done at make check's minute $((SECONDS / 60))" >>"$lane/run.log"
			case $i," $suites " in 0,*" debug "*)
				bash tests/debugkernel.sh >/dev/null 2>"$lane/debugkernel.log"
				echo "# icount lane $i: the debug kernel ready at minute $((SECONDS / 60))" >>"$lane/run.log" ;;
			esac
		) &
		lanes+=("$lane")
		lane_jobs+=($!)
	done ;;
esac
# lane_wait: before any other guest boots (SUITES may name one before
# "faithful"), the lanes are done.
lane_waited=0
lane_wait() {
	[ "${#lane_jobs[@]}" -gt 0 ] && [ "$lane_waited" = 0 ] || return 0
	wait "${lane_jobs[@]}"
	lane_waited=1
}
# bg_report LOG STATUS: what a job run in the background (srcpkg)
# printed, and its status, once `wait` has seen it end (run_suite's
# pipeline runs in a subshell, which cannot wait for it).
bg_report() {
	cat "$1"
	return "$(cat "$2" 2>/dev/null || echo 1)"
}
# lanes_report: the icount lanes' logs, one after the other, and a
# failing status if either lane's was.
lanes_report() {
	local l st=0
	for l in "${lanes[@]}"; do
		bg_report "$l/run.log" "$l/status" || st=1
	done
	return $st
}
# lanes_keep: the lanes' logs into tests/out/faithful (each lane's in a
# directory of its own), the rest away.
lanes_keep() {
	local i
	rm -rf "$out/faithful"
	for i in "${!lanes[@]}"; do
		mkdir -p "$out/faithful/lane$i"
		find "${lanes[$i]}" -maxdepth 2 -type f \( -name '*.log' -o -name '*.ktap' -o -name '*.err' \) \
			-exec cp -t "$out/faithful/lane$i" {} +
		rm -rf "${lanes[$i]}"
	done
}

# srcpkg beside readme.  The chroot suites leave a CPU idle: apt, dpkg
# and lintian run one process at a time (deb, readme and srcpkg alone:
# 41% idle on 2 CPUs by vmstat, 2026-11-29).  srcpkg shares nothing with
# readme but the machine: each has its own chroot and lock in
# RANDSTAT_CACHE and reads the work tree only through git ls-files, and
# neither judges anything by time.  So with both in SUITES, srcpkg
# starts when readme does and prints at its own place.
srcpkg_job=
srcpkg_ran=0
srcpkg_start() {
	srcpkg_dir=$(mktemp -d "${TMPDIR:-/tmp}/randstat-srcpkg.XXXXXX") || return 1
	(
		t=$SECONDS
		bash tests/srcpkg.sh >"$srcpkg_dir/log" 2>&1
		echo $? >"$srcpkg_dir/status"
		echo "# srcpkg: ran beside readme, $((SECONDS - t)) s" >>"$srcpkg_dir/log"
	) &
	srcpkg_job=$!
}

for s in $suites; do
	case $s in vm | debug | arm64 | bench) lane_wait ;; esac
	case $s in
	style)	run_suite style 0 bash tests/style.sh ;;
	reader)	run_suite reader 0 make -s -C userspace check WERROR=1 ;;
	textfile) run_suite textfile 0 bash tests/textfile.sh ;;
	runner)	run_suite runner 0 bash tests/vm/watch-test.sh ;;
	sanitize) run_suite sanitize 0 bash tests/sanitize.sh ;;
	hostpath) run_suite hostpath 0 make -s -C bench/host check ;;
	kunit)	run_suite kunit 1 bash tests/kunit.sh ;;
	mutants) run_suite mutants 0 bash tests/mutate.sh --rotate "${MUTANTS_ROTATE:-3}" ;;
	faithful) lane_wait
		run_suite faithful 0 lanes_report
		lanes_keep ;;
	vm)	run_suite vm 0 env VM_EXCLUDE="${lanes[*]:+${lane_suites[*]}}" bash tests/vm/run.sh ;;
	debug)	run_suite debug 0 env KERNELS=debug VM_SUITES=debug \
			RANDSTAT_OUT="$out/debug" bash tests/vm/run.sh ;;
	arm64)	run_suite arm64 0 env KERNELS=arm64 VM_SUITES="${ARM64_SUITES:-main tickless nohzfull judged evader timerstop}" \
			RANDSTAT_OUT="$out/arm64" bash tests/vm/run.sh ;;
	bench)	run_suite bench 0 bash bench/run.sh --short ;;
	deb)	run_suite deb 0 bash tests/deb.sh ;;
	readme)	case " $suites " in *" srcpkg "*)
			[ "$srcpkg_ran" = 1 ] || srcpkg_start ;;
		esac
		run_suite readme 0 bash tests/readme.sh ;;
	srcpkg)	if [ -n "$srcpkg_job" ]; then
			wait "$srcpkg_job"
			run_suite srcpkg 0 bg_report "$srcpkg_dir/log" "$srcpkg_dir/status"
			rm -rf "$srcpkg_dir"
		else
			run_suite srcpkg 0 bash tests/srcpkg.sh
		fi
		srcpkg_ran=1 ;;
	esac
done
[ -n "$qemu_job" ] && wait "$qemu_job"
run_suite host 0 host_check

# The failures again, each after the diagnostics just before it, at the
# end, where a log cut to its head and tail still shows them.
for fs in ${failed_suites[@]+"${failed_suites[@]}"}; do
	awk -v suite="${fs%:*}" -v pad="$(printf '%*s' $((4 * ${fs#*:})) '')" '
	index($0, pad "not ok ") == 1 || /^not ok - .* exited with status/ {
		for (i = 0; i < n; i++) print "# " suite ": " ctx[i]
		print "# " suite ": " $0
		n = 0
		next
	}
	/^[[:space:]]*#/ { if (n == 10) { for (i = 1; i < 10; i++) ctx[i - 1] = ctx[i]; n = 9 } ctx[n++] = $0; next }
	{ n = 0 }' "$out/${fs%:*}.tap"
done | head -n 200 | sed '1i # the failures, each after up to ten diagnostic lines before it:'

echo "# make check: $((SECONDS / 60)) min $((SECONDS % 60)) s"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
