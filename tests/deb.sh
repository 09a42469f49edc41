#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Debian packages test: `make deb`, lintian on the results, then in a
# Debian 12 (bookworm) debootstrap chroot with dkms and two kernels' headers
# (linux-headers-amd64 and linux-headers-rt-amd64) `apt-get install
# ./*.deb`, as an administrator would, and check that DKMS built and
# installed randstat.ko for each kernel (vermagic matching), that the
# reader, its man page, the systemd units and /etc/modules-load.d/randstat.conf
# are in place, that /etc/default/randstat's RANDSTAT_LOAD_MODULE=no removes
# that file (and survives an upgrade), that the textfile helper the timer
# runs writes randstat.prom atomically, randstat_up 0 and no counter when
# the reader fails (module missing: exit 0; damaged input: the reader's
# status; tests/textfile.sh tests every case on the host), that an upgrade to the
# next version (a changelog entry added in a copy of the tree) rebuilds the
# module, and that `apt-get purge` leaves nothing.  Then Debian's real
# prometheus-node-exporter, run on the host on 127.0.0.1 for the test only
# (from its package unpacked in the cache, tests/unpack.sh: not installed,
# so no service is enabled or started), serves the
# randstat.prom the packaged helper wrote from a captured fixture, and
# Debian's Prometheus, scraping it while the file moves to a later capture,
# evaluates Documentation/admin-guide.rst's PromQL example to the busy share
# worked out from the two files.  TAP.
#
# Usage: tests/deb.sh [--refresh] [-h]
#   RANDSTAT_CACHE=<dir>   cache, default ~/.cache/randstat:
#     chroot-deb-bookworm/    the chroot (created once, about 3 minutes)
#     chroot-deb-bookworm.log debootstrap / apt output
#     deb/                    packages and logs of the last run
#   --refresh   apt-get update and upgrade the chroot's packages first
#               (done anyway when the chroot is over 7 days old).
#
# Needs root (debootstrap, chroot), git, debhelper, dh-dkms, lintian,
# curl and python3 on the host (tests/deps.sh installs them), and
# prometheus-node-exporter and prometheus unpacked (tests/deps.sh, or
# here).  The servers are killed at exit.
# Exits non-zero if any test failed.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"

# What randstat-dkms's dkms needs to build (as in dkms.sh), two kernels,
# and systemd for systemd-analyze verify to check the units against.
packages=(dkms make gcc libc6-dev kmod openssl systemd
	linux-headers-amd64 linux-headers-rt-amd64)
fixture=userspace/tests/fixtures/normal.randstat
prom=/var/lib/prometheus/node-exporter/randstat.prom
helper=/usr/libexec/randstat/randstat-textfile

# shellcheck source=tests/chroot.sh
. "$(dirname "$0")/chroot.sh"
# shellcheck source=tests/tree.sh
. "$(dirname "$0")/tree.sh"
chroot_script_start deb "${BASH_SOURCE[0]}" "$@"

# shellcheck source=tests/tap.sh
. "$(dirname "$0")/tap.sh"
# shellcheck source=tests/unpack.sh
. "$(dirname "$0")/unpack.sh"

# The servers started (node_exporter, prometheus), killed at exit.
pids=()
# shellcheck disable=SC2317 # called by the trap
cleanup() {
	local pid
	for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
	chroot_cleanup
}
trap cleanup EXIT

# quiet CMD...: CMD with no output.
# shellcheck disable=SC2317 # called through check
quiet() { "$@" >/dev/null 2>&1; }
# in_root CMD...: CMD in the test chroot.
in_root() { in_chroot "$root" "$@"; }
# pkg_version PKG: the version of PKG installed in the chroot, or nothing.
pkg_version() {
	# shellcheck disable=SC2016 # a dpkg-query format
	in_root dpkg-query -W -f='${db:Status-Abbrev}${Version}\n' "$1" 2>/dev/null |
		sed -n 's/^ii *//p'
}

echo "TAP version 13"
t0=$(date +%s)

# --- the packages --------------------------------------------------------
version=$(dpkg-parsechangelog -S Version)
upstream=${version%-*}
next_upstream=$upstream.1
next=$next_upstream-1
rm -rf "$out/v1" "$out/v2" "$out/src-next"
t=$(date +%s)
if make -s deb DIST="$out/v1" >"$out/make-deb.log" 2>&1; then
	ok "make deb: $(cd "$out/v1" && echo *.deb) ($(($(date +%s) - t)) s)"
else
	not_ok "make deb (see $out/make-deb.log)"
	diag_file "$out/make-deb.log"
	echo "1..$n"
	exit 1
fi
check "randstat-dkms is Architecture: all, randstat is $(dpkg --print-architecture)" \
	test -f "$out/v1/randstat-dkms_${version}_all.deb" -a \
	     -f "$out/v1/randstat_${version}_$(dpkg --print-architecture).deb"
check "randstat recommends randstat-dkms" \
	sh -c "dpkg-deb -f '$out/v1/randstat_${version}_'*.deb Recommends | grep -qx randstat-dkms"
check "randstat-cgroup has randstat-cgroup and its man page" \
	sh -c "dpkg-deb -c '$out/v1/randstat-cgroup_${version}_'*.deb | grep -q ' ./usr/bin/randstat-cgroup\$' &&
		dpkg-deb -c '$out/v1/randstat-cgroup_${version}_'*.deb | grep -q ' ./usr/share/man/man1/randstat-cgroup.1.gz\$'"

# lintian: no tag left but those overridden, with reasons, in debian/.
lintian -I --pedantic "$out"/v1/*.deb "$out"/v1/debug/*.deb \
	>"$out/lintian.log" 2>&1 || true
sed -i '/^running with root privileges/d' "$out/lintian.log"
if [ -s "$out/lintian.log" ]; then
	not_ok "lintian -I --pedantic: clean"
	diag_file "$out/lintian.log" 40
else
	ok "lintian -I --pedantic: clean ($(lintian --version))"
fi

# The next version: the tree with a new changelog entry, built as the
# maintainer would build it (make deb in an untracked tree lists every file).
tree_copy "$out/src-next"
git -C "$out/src-next" init -q
{
	printf 'randstat (%s) unstable; urgency=medium\n\n' "$next"
	printf '  * Test build of the next version, for tests/deb.sh.\n\n'
	printf ' -- %s  %s\n\n' "$(dpkg-parsechangelog -S Maintainer)" "$(date -R)"
	cat debian/changelog
} >"$out/src-next/debian/changelog"
t=$(date +%s)
if make -s -C "$out/src-next" deb DIST="$out/v2" >"$out/make-deb-next.log" 2>&1; then
	ok "make deb of the next version $next ($(($(date +%s) - t)) s)"
else
	not_ok "make deb of the next version $next (see $out/make-deb-next.log)"
	diag_file "$out/make-deb-next.log"
fi

# --- the chroot ------------------------------------------------------------
t=$(date +%s)
if [ -f "$root/$stamp" ]; then cached=cached; else cached=created; fi
if chroot_ensure "$release" "$root" "$log" "$stamp"; then
	ok "bookworm chroot with dkms and two kernels' headers ($cached in $(($(date +%s) - t)) s)"
else
	not_ok "bookworm chroot with dkms and two kernels' headers (see $log)"
	diag_file "$log"
	echo "1..$n"
	exit 1
fi
# shellcheck disable=SC2016 # a dpkg-query format
diag "chroot $root: dkms $(in_root dpkg-query -W -f='${Version}' dkms)"
mapfile -t kvers < <(chroot_kernels "$root")
diag "kernels with headers: ${kvers[*]:-none}"
check "two kernels with headers in the chroot (${#kvers[@]})" \
	test "${#kvers[@]}" -ge 2

mount_proc "$root"
# What an earlier, maybe aborted, run left: the packages it installed,
# by name (apt-get refuses the whole purge if one name is unknown).
mapfile -t leftover < <(for p in randstat randstat-dkms randstat-dbgsym \
	randstat-cgroup randstat-cgroup-dbgsym; do
	# shellcheck disable=SC2016 # a dpkg-query format
	case $(in_root dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null) in
	?n* | "") ;;
	*) echo "$p" ;;
	esac
done)
if [ "${#leftover[@]}" -gt 0 ]; then
	diag "left by an earlier run, purged: ${leftover[*]}"
	apt_get "$root" purge -y "${leftover[@]}" >"$out/apt-cleanup.log" 2>&1 ||
		diag_file "$out/apt-cleanup.log"
fi
chroot_remove_randstat "$root"
rm -rf "$root/build" "$root/etc/default/randstat" \
	"$root/etc/modules-load.d/randstat.conf" "$root/var/lib/prometheus"
mkdir -p "$root/build"
cp -r "$out/v1" "$out/v2" "$root/build/"
cp userspace/tests/fixtures/*.randstat "$root/build/"

# --- install ---------------------------------------------------------------
# apt_install_debs DIR WHAT LOG: apt-get install ./*.deb in the chroot's /build/DIR.
apt_install_debs() {
	local t
	t=$(date +%s)
	if in_root sh -c "cd /build/$1 && apt-get -q install -y ./*.deb" >"$out/$3" 2>&1; then
		ok "$2: apt-get install ./*.deb ($(($(date +%s) - t)) s)"
	else
		not_ok "$2: apt-get install ./*.deb (see $out/$3)"
		diag_file "$out/$3" 30
	fi
}
apt_install_debs v1 "install $version" install.log
check "randstat and randstat-dkms $version installed" \
	test "$(pkg_version randstat)/$(pkg_version randstat-dkms)" = "$version/$version"

# check_module VERSION: DKMS built and installed VERSION for every kernel.
check_module() {
	local v=$1 k files f vermagic status
	status=$(in_root dkms status randstat 2>&1) || true
	printf '%s\n' "$status" | sed 's/^/# dkms status: /'
	for k in "${kvers[@]}"; do
		if grep -q "^randstat/$v, $k, [^:]*: installed" <<<"$status"; then
			ok "$k: dkms status: randstat/$v installed"
		else
			not_ok "$k: dkms status: randstat/$v installed"
			cp "$root"/var/lib/dkms/randstat/"$v"/"$k"/*/log/make.log \
				"$out/make-$k.log" 2>/dev/null && diag_file "$out/make-$k.log"
		fi
		mapfile -t files < <(chroot_ko_files "$root" "$k")
		if [ "${#files[@]}" -ne 1 ]; then
			not_ok "$k: one randstat.ko (found ${#files[@]}: ${files[*]:-none})"
			continue
		fi
		f=${files[0]#"$root"}
		vermagic=$(in_root modinfo -F vermagic "$f" 2>/dev/null) || vermagic=
		check "$k: $f, vermagic $vermagic" test "${vermagic%% *}" = "$k"
		check "$k: randstat in modules.dep" \
			grep -q 'randstat\.ko' "$root/lib/modules/$k/modules.dep"
	done
	check "/usr/src/randstat-$v/dkms.conf says PACKAGE_VERSION=\"$v\"" \
		grep -qx "PACKAGE_VERSION=\"$v\"" "$root/usr/src/randstat-$v/dkms.conf"
}
check_module "$upstream"

for f in /usr/bin/randstat /usr/share/man/man1/randstat.1.gz \
	 /lib/systemd/system/randstat-textfile.service \
	 /lib/systemd/system/randstat-textfile.timer \
	 /etc/default/randstat "$helper"; do
	check "$f installed" test -f "$root$f"
done
check "randstat --help runs" quiet in_root randstat --help
check "the man page is randstat(1)" \
	sh -c "zcat '$root/usr/share/man/man1/randstat.1.gz' | grep -q '^\.TH RANDSTAT 1'"
check "randstat-textfile.timer enabled (timers.target.wants)" \
	test -L "$root/etc/systemd/system/timers.target.wants/randstat-textfile.timer"
check "the timer runs the service every 15 s" \
	grep -qx 'OnUnitActiveSec=15s' "$root/lib/systemd/system/randstat-textfile.timer"
check "the service runs $helper" \
	grep -qx "ExecStart=$helper" "$root/lib/systemd/system/randstat-textfile.service"
# Both units loaded and checked with the chroot as root (unit syntax,
# dependencies, ExecStart present and executable; the chroot has no man).
if systemd-analyze verify --man=no --root="$root" \
	/lib/systemd/system/randstat-textfile.timer \
	/lib/systemd/system/randstat-textfile.service >"$out/verify.log" 2>&1; then
	ok "systemd-analyze verify: both units"
else
	not_ok "systemd-analyze verify: both units"
	diag_file "$out/verify.log"
fi
check "/etc/modules-load.d/randstat.conf loads randstat" \
	grep -qx randstat "$root/etc/modules-load.d/randstat.conf"

# --- the timer's helper, as the service runs it ------------------------------
mkdir -p "$root${prom%/*}"
if in_root "$helper" --randstat "/build/${fixture##*/}" 2>"$out/helper.log"; then
	ok "randstat-textfile: exit 0 on a captured /proc/randstat"
else
	not_ok "randstat-textfile: exit 0 on a captured /proc/randstat"
	diag_file "$out/helper.log"
fi
in_root randstat --prometheus --randstat "/build/${fixture##*/}" >"$out/expected.prom" || true
check "randstat.prom is the reader's output, then randstat_textfile_reader_status 0" \
	sh -c "head -n $(wc -l <"$out/expected.prom") '$root$prom' | cmp -s '$out/expected.prom' - &&
	       tail -n 1 '$root$prom' | grep -qx 'randstat_textfile_reader_status 0'"
check "randstat.prom has HELP and TYPE lines and series" \
	sh -c "grep -q '^# TYPE randstat_cpu_seconds_total counter' '$root$prom' &&
	       grep -q '^randstat_cpu_seconds_total{cpu=\"0\",mode=\"user\"} ' '$root$prom'"
check "randstat.prom is world-readable (mode 644)" \
	test "$(stat -c %a "$root$prom")" = 644
cp "$root$prom" "$out/good.prom"
# no_temp: no temporary file left in the collector's directory.
# shellcheck disable=SC2317 # called through check
no_temp() { [ -z "$(find "$root${prom%/*}" -name '.randstat.prom.*')" ]; }
check "no temporary file left" no_temp

# expect_down STATUS DESC: the helper exited STATUS ($status), and the stale
# counters went: randstat.prom holds randstat_up 0, the reader's status,
# no counter.
expect_down() {
	diag "$(head -n 1 "$out/helper.log")"
	check "randstat-textfile, $2: exit $1 ($status)" test "$status" = "$1"
	check "randstat-textfile, $2: randstat.prom says randstat_up 0, no stale counter" \
		sh -c "grep -qx 'randstat_up 0' '$root$prom' && ! grep -q '^randstat_cpu_seconds_total' '$root$prom'"
	check "randstat-textfile, $2: randstat_textfile_reader_status $3" \
		grep -qx "randstat_textfile_reader_status $3" "$root$prom"
	check "randstat-textfile, $2: no temporary file left" no_temp
}
status=0
in_root "$helper" --randstat /build/garbage.randstat >"$out/helper.log" 2>&1 || status=$?
expect_down 2 "damaged /proc/randstat" 2
# The module missing: the service's own command, with no /proc/randstat
# (in a new mount namespace, an empty /proc in the chroot).  A state, not a
# failure: exit 0.
cp "$out/good.prom" "$root$prom"
status=0
unshare --mount bash -c \
	"$(declare -f in_chroot); mount -t tmpfs none '$root/proc' && in_chroot '$root' $helper" \
	>"$out/helper.log" 2>&1 || status=$?
expect_down 0 "module not loaded" 3
cp "$root$prom" "$out/missing.prom"
cp "$out/good.prom" "$root$prom"

# --- a real node_exporter on the host, reading what the helper wrote --------
# serve NAME READY LOG CMD...: start CMD in the background on a free port of
# 127.0.0.1 (an argument @PORT@ is replaced by it; up to 5 ports tried), and
# wait up to 10 s for http://127.0.0.1:PORT/READY to answer.  Sets
# served_pid and served_port, or returns 1.
served_pid=
served_port=
serve() {
	local name=$1 ready=$2 log=$3 try port args
	shift 3
	for try in 1 2 3 4 5; do
		port=$((20000 + RANDOM % 20000))
		args=("${@//@PORT@/$port}")
		"${args[@]}" >"$log" 2>&1 &
		served_pid=$!
		pids+=("$served_pid")
		# It exits at once if the port is taken.
		for _ in $(seq 100); do
			kill -0 "$served_pid" 2>/dev/null || break
			if curl -sf "http://127.0.0.1:$port/$ready" -o /dev/null; then
				served_port=$port
				return 0
			fi
			sleep 0.1
		done
		kill "$served_pid" 2>/dev/null || true
		wait "$served_pid" 2>/dev/null || true
		diag "$name: no answer on port $port (try $try)"
	done
	diag_file "$log"
	return 1
}

# promql MARK: the PromQL expression in Documentation/admin-guide.rst's
# literal block after the comment line "  # MARK", on one line.
promql() {
	awk -v mark="  # $1" '$0 == mark { f = 1; next }
		f && /^ *$/ { exit } f { sub(/^ +/, ""); printf "%s ", $0 }' \
		Documentation/admin-guide.rst
}

# prom_query QUERY: Prometheus's instant result, "cpu value" per series.
prom_query() {
	curl -sf "http://127.0.0.1:$prom_port/api/v1/query" \
		--data-urlencode "query=$1" | python3 -c '
import json, sys
for r in json.load(sys.stdin)["data"]["result"]:
    print(r["metric"].get("cpu", "-"), r["value"][1])'
}

# busy_share OLD NEW: per cpu, 1 - (idle + iowait) / all over the interval
# between two outputs of randstat --prometheus, "cpu share" per line.
busy_share() {
	awk 'match($1, /^randstat_cpu_seconds_total\{cpu="[^"]*",mode="[^"]*"\}$/) {
		split($1, l, "\""); c = l[2]; m = l[4]
		d = (FILENAME == ARGV[1] ? -$2 : $2)
		all[c] += d; if (m == "idle" || m == "iowait") idle[c] += d
	} END { for (c in all) printf "%s %.9f\n", c, 1 - idle[c] / all[c] }' "$1" "$2" | sort
}

exporter() {
	local dir=$out/textfile metrics=$out/metrics.txt url want got
	rm -rf "$dir" "$metrics" && mkdir -p "$dir"
	cp "$root$prom" "$dir/"
	if ! serve node_exporter metrics "$out/exporter.log" \
		"$node_exporter" --web.listen-address=127.0.0.1:@PORT@ \
		--collector.disable-defaults --collector.textfile \
		--collector.cpu --collector.textfile.directory="$dir"; then
		not_ok "prometheus-node-exporter on 127.0.0.1 answers /metrics"
		return
	fi
	url=http://127.0.0.1:$served_port/metrics
	curl -sf "$url" -o "$metrics" || true
	ok "prometheus-node-exporter $("$node_exporter" --version 2>&1 | sed -n '1s/.*version \([^ ]*\).*/\1/p') on 127.0.0.1:$served_port answers /metrics"
	check "node_textfile_scrape_error 0" grep -qx 'node_textfile_scrape_error 0' "$metrics"
	# The file label (node_exporter 1.5: the path) the alert selects on.
	check "node_textfile_mtime_seconds{file=\".../randstat.prom\"} served" \
		grep -q '^node_textfile_mtime_seconds{file="[^"]*randstat\.prom"} ' "$metrics"
	check "HELP and TYPE for randstat_cpu_seconds_total" \
		sh -c "grep -q '^# HELP randstat_cpu_seconds_total ' '$metrics' &&
		       grep -qx '# TYPE randstat_cpu_seconds_total counter' '$metrics'"
	check "randstat_sampler_online is a gauge" \
		grep -qx '# TYPE randstat_sampler_online gauge' "$metrics"
	# Every sample of randstat.prom is served, with its labels and value.
	want=$(grep -c '^randstat_' "$dir/randstat.prom")
	got=$(awk 'NR == FNR { if ($1 ~ /^randstat_/) v[$1] = $2; next }
		   $1 in v && v[$1] + 0 == $2 + 0 { n++ } END { print n + 0 }' \
		"$dir/randstat.prom" "$metrics")
	check "all $want randstat series served with their labels and values ($got)" \
		test "$want" -gt 0 -a "$got" = "$want"
	check "node_cpu_seconds_total beside them (for the PromQL example)" \
		grep -q '^node_cpu_seconds_total{cpu="0",mode="idle"} ' "$metrics"

	prometheus_eval "$dir" "$served_port"

	# The error check above can fail: a damaged file is reported.
	printf 'randstat_broken{cpu="0" 1\n' >"$dir/broken.prom"
	curl -sf "$url" -o "$metrics" || true
	check "a damaged .prom gives node_textfile_scrape_error 1" \
		grep -qx 'node_textfile_scrape_error 1' "$metrics"
}

# prometheus_eval DIR PORT: Debian's Prometheus scrapes the node_exporter on
# PORT every second while DIR/randstat.prom goes from the fixture normal.*
# to later.* (10 s on), then evaluates the documentation's two queries:
# randstat's busy share must be the one worked out from the two files, the
# tick's a share for every CPU of this machine.  These fixtures have no
# counter that starts at 0 and grows (vm-normal's have), so rate()
# extrapolates every series alike and the ratio is exact.
prometheus_eval() {
	local dir=$1 pdir=$out/prometheus q_rs q_node q_down sel later expect got close
	rm -rf "$pdir" && mkdir -p "$pdir"
	cat >"$pdir/prometheus.yml" <<-EOT
	global: {scrape_interval: 1s, evaluation_interval: 1s}
	scrape_configs:
	  - job_name: node
	    static_configs: [{targets: ['127.0.0.1:$2']}]
	EOT
	if ! serve prometheus -/ready "$pdir/log" "$prometheus" \
		--config.file="$pdir/prometheus.yml" --storage.tsdb.path="$pdir/data" \
		--web.listen-address=127.0.0.1:@PORT@; then
		not_ok "prometheus on 127.0.0.1 ready"
		return
	fi
	prom_port=$served_port
	ok "prometheus $("$prometheus" --version 2>&1 | sed -n '1s/.*version \([^ ]*\).*/\1/p') on 127.0.0.1:$prom_port scrapes it every second"
	q_rs=$(promql 'randstat: the share of time not idle (idle and iowait), per CPU')
	q_node=$(promql "the kernel's tick, the same way")
	diag "randstat's query: $q_rs"
	check "the documentation has both queries" test -n "$q_rs" -a -n "$q_node"
	# Two scrapes of the first capture, then the second, atomically.
	for _ in $(seq 150); do
		[ "$(prom_query 'count_over_time(randstat_sampler_online{cpu="1"}[5m])' |
			awk '{ print $2 }')" -ge 2 ] 2>/dev/null && break
		sleep 0.1
	done
	later=$(in_root randstat --prometheus --randstat /build/later.randstat) || true
	printf '%s\n' "$later" >"$dir/.randstat.prom.later"
	mv "$dir/.randstat.prom.later" "$dir/randstat.prom"
	want=$(awk '$1 == "randstat_cpu_seconds_total{cpu=\"1\",mode=\"user\"}" { print $2 + 0 }' "$dir/randstat.prom")
	for _ in $(seq 150); do
		[ "$(prom_query 'randstat_cpu_seconds_total{cpu="1",mode="user"}' |
			awk '{ print $2 + 0 }')" = "$want" ] && break
		sleep 0.1
	done
	expect=$(busy_share "$out/good.prom" "$dir/randstat.prom")
	got=$(prom_query "$q_rs" | sort)
	diag "busy share (cpu share) from the files: ${expect//$'\n'/, }; from Prometheus: ${got//$'\n'/, }"
	close=$(join <(printf '%s\n' "$expect") <(printf '%s\n' "$got") |
		awk '{ d = $2 - $3; if (d < 0) d = -d; if (d < 1e-6) n++ }
		     END { print n + 0 }')
	check "randstat's busy share in PromQL is the files' for both CPUs" \
		test "$(wc -l <<<"$expect")" = 2 -a "$close" = 2 -a "$(wc -l <<<"$got")" = 2
	got=$(prom_query "$q_node")
	diag "the tick's busy share on this machine: ${got//$'\n'/, }"
	check "the tick's busy share in PromQL: one share in [0, 1] per CPU ($(nproc))" \
		test "$(awk '$2 >= 0 && $2 <= 1' <<<"$got" | wc -l)" = "$(nproc)"

	# The documentation's alert: silent while randstat.prom is fresh with
	# randstat_up 1, firing once the helper's module-missing file is in.
	q_down=$(promql 'randstat down: not read, or randstat.prom not renewed for a minute')
	diag "the alert: $q_down"
	got=$(prom_query "$q_down")
	check "the documentation's alert: silent while randstat is read (${got:-no series})" \
		test -n "$q_down" -a -z "$got"
	# Not silent for a selector that matches nothing: the file's age is
	# there to compare.
	sel=$(grep -o 'node_textfile_mtime_seconds{[^}]*}' <<<"$q_down")
	got=$(prom_query "$sel")
	check "the alert's $sel: one series (${got:-none})" \
		test -n "$sel" -a -n "$got" -a "$(wc -l <<<"$got")" = 1
	cp "$out/missing.prom" "$dir/.randstat.prom.missing"
	mv "$dir/.randstat.prom.missing" "$dir/randstat.prom"
	for _ in $(seq 150); do
		got=$(prom_query "$q_down")
		[ -n "$got" ] && break
		sleep 0.1
	done
	check "the documentation's alert: fires on the module-missing file (${got:-no series})" \
		test -n "$q_down" -a "$(wc -l <<<"$got")" = 1 -a -n "$got"
}
prom_port=
# Debian's, unpacked (not installed: the packages enable and start both
# as services listening on every interface).
if promdir=$(unpacked prometheus prometheus prometheus-node-exporter); then
	node_exporter=$promdir/usr/bin/prometheus-node-exporter
	prometheus=$promdir/usr/bin/prometheus
	exporter
else
	not_ok "prometheus and prometheus-node-exporter unpacked (apt-get download)"
fi
for pid in "${pids[@]}"; do
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
done
pids=()

# --- RANDSTAT_LOAD_MODULE=no ------------------------------------------------
sed -i 's/^RANDSTAT_LOAD_MODULE=.*/RANDSTAT_LOAD_MODULE=no/' "$root/etc/default/randstat"
in_root dpkg-reconfigure randstat >"$out/reconfigure.log" 2>&1 || true
check "RANDSTAT_LOAD_MODULE=no, dpkg-reconfigure: no modules-load.d file" \
	test ! -e "$root/etc/modules-load.d/randstat.conf"

# --- upgrade to the next version --------------------------------------------
apt_install_debs v2 "upgrade to $next" upgrade.log
check "randstat and randstat-dkms $next installed" \
	test "$(pkg_version randstat)/$(pkg_version randstat-dkms)" = "$next/$next"
check_module "$next_upstream"
check "randstat/$upstream gone from DKMS and /usr/src" \
	test ! -e "$root/var/lib/dkms/randstat/$upstream" -a ! -e "$root/usr/src/randstat-$upstream"
check "RANDSTAT_LOAD_MODULE=no kept over the upgrade" \
	test ! -e "$root/etc/modules-load.d/randstat.conf"
sed -i 's/^RANDSTAT_LOAD_MODULE=.*/RANDSTAT_LOAD_MODULE=yes/' "$root/etc/default/randstat"
in_root dpkg-reconfigure randstat >>"$out/reconfigure.log" 2>&1 || true
check "RANDSTAT_LOAD_MODULE=yes, dpkg-reconfigure: modules-load.d file back" \
	grep -qx randstat "$root/etc/modules-load.d/randstat.conf"

# --- purge -------------------------------------------------------------------
in_root dpkg-query -L randstat randstat-dkms randstat-cgroup 2>/dev/null | sort -u >"$out/files.txt" || true
t=$(date +%s)
if apt_get "$root" purge -y randstat randstat-dkms randstat-cgroup >"$out/purge.log" 2>&1; then
	ok "apt-get purge randstat randstat-dkms randstat-cgroup ($(($(date +%s) - t)) s)"
else
	not_ok "apt-get purge randstat randstat-dkms randstat-cgroup (see $out/purge.log)"
	diag_file "$out/purge.log"
fi
check "no package of randstat known to dpkg any more" \
	test -z "$(pkg_version randstat)$(pkg_version randstat-dkms)$(pkg_version randstat-cgroup)"
left=()
while read -r f; do
	# Directories shared with other packages (/usr, /lib/systemd/system...)
	# stay; every file and every directory of our own must go.
	if [ -e "$root$f" ] && { [ ! -d "$root$f" ] || [[ $f == */randstat* ]]; }; then
		left+=("$f")
	fi
done <"$out/files.txt"
check "none of the packages' $(wc -l <"$out/files.txt") paths left${left[*]:+ (left: ${left[*]})}" \
	test "${#left[@]}" -eq 0
for f in /etc/modules-load.d/randstat.conf /etc/default/randstat "$prom" \
	 /etc/systemd/system/timers.target.wants/randstat-textfile.timer \
	 /var/lib/dkms/randstat; do
	check "$f gone" test ! -e "$root$f" -a ! -L "$root$f"
done
left=("$root"/usr/src/randstat-*)
check "no /usr/src/randstat-*" test ! -e "${left[0]}"
for k in "${kvers[@]}"; do
	check "$k: no randstat.ko, not in modules.dep" \
		sh -c "[ -z \"\$(find '$root/lib/modules/$k' -name 'randstat.ko*')\" ] &&
		       ! grep -q 'randstat\.ko' '$root/lib/modules/$k/modules.dep'"
done

chroot_cleanup
rm -rf "$root/build" "$root/var/lib/prometheus"
diag "total $(($(date +%s) - t0)) s; logs in $out"
echo "1..$n"
exit "$failed"
