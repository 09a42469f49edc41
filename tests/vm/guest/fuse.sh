# shellcheck shell=sh
# fuse: randstat-fs (userspace/fs/randstat-fs) and `randstat exec`, under
# Debian's own top, vmstat (procps), mpstat and sar (sysstat) and
# node_exporter's cpu collector (prometheus-node-exporter), copied
# into the initramfs with their libraries (tests/vm/initramfs.sh).
#
# The daemon runs as uid 65533 (mounting through the setuid fusermount3);
# uid 65534 plays another user.  The tools run on cpu0 beside a job of
# 2 ms every 8 ms on cpu1 (bench/progs/iso), the case where /proc/stat is
# far off, and each tool's shares are compared with randstat's own reader
# (/progs/randstat) over the same interval.  Only the `cpu`/`cpuN` lines
# of /proc/randstat are relied on.
# shellcheck source=tests/vm/guest/lib.sh
. /tests/lib.sh
ktap_begin 26
RS=/progs/randstat
FS=/usr/bin/randstat-fs
MNT=/run/randstat-fs
F=$MNT/stat
DUID=65533
export TERM=dumb LC_ALL=C
dmesg -c >/dev/null

missing=
for f in $RS $FS /usr/bin/top /usr/bin/vmstat /usr/bin/mpstat /usr/bin/sar \
	/usr/lib/sysstat/sadc /usr/bin/fusermount3 /lib/modules/extra/fuse.ko \
	/progs/iso /progs/fsread /usr/bin/randstat-fs-mount \
	/usr/bin/prometheus-node-exporter; do
	[ -e "$f" ] || missing="$missing $f"
done
if [ -n "$missing" ]; then
	diag "missing in the guest:$missing (tests/deps.sh installs libfuse3-dev fuse3 procps, unpacks sysstat)"
	result 1 "the suite's programs are in the guest"
	ktap_end
	exit 1
fi
load_randstat
insmod /lib/modules/extra/fuse.ko
result $? "insmod fuse.ko"

# What udev and the packages would have set up: /dev/fuse for everyone
# (devtmpfs makes it 0600), user_allow_other, an mtab, users.
chmod 666 /dev/fuse
echo user_allow_other >/etc/fuse.conf
ln -sf /proc/self/mounts /etc/mtab
printf 'root:x:0:0::/:/bin/sh\nrsfs:x:%s:%s::/:/bin/sh\nnobody:x:65534:65534::/:/bin/sh\n' \
	$DUID $DUID >/etc/passwd
printf 'root:x:0:\nrsfs:x:%s:\nnogroup:x:65534:\n' $DUID >/etc/group
mkdir -p $MNT
chown $DUID:$DUID $MNT

# start_fs: the daemon as uid DUID, FSPID its supervisor; waits for the file.
start_fs() {
	/progs/runas -u $DUID $FS $MNT 2>>/tmp/fs.err &
	FSPID=$!
	_i=0
	while [ $_i -lt 100 ] && ! grep -q '^cpu ' $F 2>/dev/null; do
		sleep 0.1
		_i=$((_i + 1))
	done
	grep -q '^cpu ' $F 2>/dev/null
}
# worker: the pid of the daemon's worker (its supervisor's child).
worker() { grep -l "^PPid:[[:space:]]*$FSPID\$" /proc/[0-9]*/status 2>/dev/null | head -n 1 | cut -d/ -f3; }
uptime_ticks() { awk '{ printf "%d\n", $1 * 100 }' /proc/uptime; }

# --- the daemon, unprivileged; the first frame ---------------------------
# Reset first: randstat's counters are then near zero, the kernel's are
# since boot, and the first frame must show the kernel's.
echo reset >/proc/randstat
cat /proc/stat >/tmp/before
t0=$(uptime_ticks)
start_fs
st=$?
cat $F >/tmp/first 2>&1
t1=$(uptime_ticks)
diag "$(grep " $MNT " /proc/mounts)"
duid=$(awk '/^Uid:/ { print $2 }' /proc/$FSPID/status 2>/dev/null)
[ $st -eq 0 ] && [ "$duid" = $DUID ] && grep -q " $MNT fuse.randstat " /proc/mounts
ok_or_show $? "randstat-fs mounts $MNT as uid $DUID (through fusermount3)" /tmp/fs.err

# Every served counter >= the kernel's just before the start, and each
# line's total ahead of the kernel's by at most twice the time that
# passed (the kernel's advance to the first frame, randstat's after it).
ncpu=$(grep -c '^cpu[0-9]' /proc/stat)
awk -v dt=$((t1 - t0)) -v ncpu="$ncpu" '
	$1 ~ /^cpu/ { tot = 0; for (i = 2; i <= 11; i++) tot += $i }
	FILENAME == "/tmp/before" && $1 ~ /^cpu/ { for (i = 2; i <= 11; i++) b[$1, i] = $i; bt[$1] = tot; next }
	FILENAME == "/tmp/first" && $1 ~ /^cpu/ {
		n = ($1 == "cpu") ? ncpu : 1
		for (i = 2; i <= 11; i++) if ($i < b[$1, i]) { bad = 1; print "# " $1 " column " i - 1 " below the kernel: " $i " < " b[$1, i] }
		printf "# %s: kernel total %d, served %d, %d ticks later (allowed %d)\n", $1, bt[$1], tot, tot - bt[$1], 2 * dt * n + 5 * n
		if (tot - bt[$1] > 2 * dt * n + 5 * n) bad = 1
		lines++
	}
	END { exit bad || lines != ncpu + 1 }' /tmp/before /tmp/first
ok_or_show $? "first frame: the kernel's since-boot counters, not randstat's since its reset" /tmp/first

# --- the file's form --------------------------------------------------------
cat /proc/stat >/tmp/k
cat $F >/tmp/s
awk 'FILENAME == "/tmp/k" { k[++nk] = $1; if ($1 == "btime") bt = $0; next }
	{ n++; if ($1 != k[n]) { bad = 1; print "# line " n ": " $1 ", the kernel has " k[n] }
	  if ($1 ~ /^cpu/ && NF != 11) { bad = 1; print "# " $1 ": " NF " fields" }
	  if ($1 == "btime" && $0 != bt) bad = 1; seen[$1] = 1 }
	END { split("intr ctxt btime processes procs_running procs_blocked softirq", w, " ")
	      for (i in w) if (!seen[w[i]]) { bad = 1; print "# no " w[i] " line" }
	      print "# " n " lines, as the kernel'"'"'s " nk
	      exit bad || n != nk }' /tmp/k /tmp/s
ok_or_show $? "the served file has /proc/stat's lines in its order, cpu lines of 11 fields" /tmp/s

/progs/fsread chunks $F >/tmp/out 2>&1
st=$?
show_file /tmp/out
result $st "1-byte reads, preads at odd offsets and a rewind read one consistent frame each"

# --- randstat exec --------------------------------------------------------------
SUDO_UID=65534 SUDO_GID=65534 $RS exec -- sh -c \
	'id -u; id -g; grep -c " /proc/stat " /proc/self/mountinfo; head -n 1 /proc/stat' >/tmp/out 2>&1
st=$?
outside=$(grep -c ' /proc/stat ' /proc/self/mountinfo)
diag "exit $st; outside the namespace $outside mounts on /proc/stat"
[ $st -eq 0 ] && [ "$(sed -n 1p /tmp/out)" = 65534 ] && [ "$(sed -n 2p /tmp/out)" = 65534 ] &&
	[ "$(sed -n 3p /tmp/out)" = 1 ] && [ "$outside" = 0 ]
ok_or_show $? "randstat exec: /proc/stat bound in its own namespace only, the command run as sudo's caller" /tmp/out

/progs/runas -u 65534 $RS exec -- true >/tmp/out 2>&1
st=$?
[ $st -eq 125 ] && grep -q 'needs root' /tmp/out
ok_or_show $? "randstat exec as a plain user (not setuid): refused (125), says it needs root" /tmp/out

# A setuid-root install: exec serves a plain user, who runs as itself and
# cannot choose the file; the reader's other modes run as the caller.
cp $RS /tmp/randstat-suid
chmod 4755 /tmp/randstat-suid
echo "cpu  1 1 1 1 1 1 1 1 1 1" >/tmp/fake
chmod 644 /tmp/fake
/progs/runas -u 65534 /tmp/randstat-suid exec --stat /tmp/fake -- sh -c \
	'id -u; grep -c " /proc/stat " /proc/self/mountinfo; head -n 1 /proc/stat' >/tmp/out 2>&1
st=$?
[ $st -eq 0 ] && [ "$(sed -n 1p /tmp/out)" = 65534 ] && [ "$(sed -n 2p /tmp/out)" = 1 ] &&
	sed -n 3p /tmp/out | grep -q '^cpu ' && ! grep -q '^cpu  1 1 1 1 1 1 1 1 1 1$' /tmp/out
ok_or_show $? "randstat exec setuid root: a plain user gets the served /proc/stat (not its --stat), as itself" /tmp/out
cat /proc/stat >/tmp/secret.stat
cat /proc/randstat_detail >/tmp/secret.rs
chmod 600 /tmp/secret.stat /tmp/secret.rs
/tmp/randstat-suid --stat /tmp/secret.stat --randstat /tmp/secret.rs >/tmp/out 2>&1
st=$?
/progs/runas -u 65534 /tmp/randstat-suid --stat /tmp/secret.stat --randstat /tmp/secret.rs >>/tmp/out 2>&1
st2=$?
diag "root reads the 0600 captures: exit $st; uid 65534 through the setuid reader: exit $st2"
[ $st -eq 0 ] && [ $st2 -eq 2 ] && grep -q 'Permission denied' /tmp/out
ok_or_show $? "setuid reader: its own modes run as the caller (a root-only file stays unreadable)" /tmp/out

# --- the tools against the reader, on a 2 ms / 8 ms job ------------------
# Each tool and the reader over the same 3 s, started together: their
# windows differ by the start-up of each (tens of ms) and the served
# counters are in 10 ms ticks, so they agree within TOL points.
TOL=2.5
taskset -c 1 /progs/iso 8000 2000 40 >/dev/null &
iso=$!
sleep 1
# rsfield FILE CPU COL: the reader's randstat share in column COL (1 =
# %usr) for CPU (all, 0, 1).
rsfield() { awk -v c="$2" -v k="$3" '$1 == c && $2 == "randstat" { v = $(2 + k) } END { print v }' "$1"; }
# near WHAT A B MIN: |A - B| <= TOL, and the reader's B >= MIN.
near() {
	awk -v name="$1" -v a="$2" -v b="$3" -v tol=$TOL -v min="$4" 'BEGIN {
		d = a - b; if (d < 0) d = -d
		printf "# %s: tool %s, reader %s, difference %.2f (tolerance %s; reader must be >= %s)\n", name, a, b, d, tol, min
		exit !(a != "" && b != "" && d <= tol && b + 0 >= min) }'
}

$RS exec -- /usr/bin/mpstat -P 1 3 1 >/tmp/mp 2>&1 &
t=$!
$RS 3 1 >/tmp/rd 2>&1
wait $t
st=$?
/usr/bin/mpstat -P 1 3 1 >/tmp/mpk 2>&1
a=$(awk '/%usr/ { for (i = 1; i <= NF; i++) if ($i == "%usr") c = i } /^Average:/ && $2 == "1" { print $c }' /tmp/mp)
k=$(awk '/%usr/ { for (i = 1; i <= NF; i++) if ($i == "%usr") c = i } /^Average:/ && $2 == "1" { print $c }' /tmp/mpk)
b=$(rsfield /tmp/rd 1 1)
diag "plain mpstat on the kernel's /proc/stat, the next 3 s: cpu1 %usr $k"
[ $st -eq 0 ] && near "mpstat -P 1, cpu1 %usr" "$a" "$b" 10
ok_or_show $? "mpstat (in randstat exec): cpu1 %usr matches the reader" /tmp/mp

$RS exec -- /usr/bin/vmstat 3 2 >/tmp/vm 2>&1 &
t=$!
$RS 3 1 >/tmp/rd 2>&1
wait $t
st=$?
# vmstat's us is user + nice over all CPUs, rounded to a whole number.
a=$(awk '/ us / { for (i = 1; i <= NF; i++) if ($i == "us") c = i } $1 ~ /^[0-9]+$/ { v = $c } END { print v }' /tmp/vm)
b=$(awk -v u="$(rsfield /tmp/rd all 1)" -v n="$(rsfield /tmp/rd all 2)" 'BEGIN { print u + n }')
[ $st -eq 0 ] && [ "$(awk '$1 ~ /^[0-9]+$/' /tmp/vm | wc -l)" -eq 2 ] &&
	near "vmstat 3 2, us" "$a" "$b" 5
ok_or_show $? "vmstat (in randstat exec): us matches the reader's all %usr+%nice" /tmp/vm

$RS exec -- /usr/bin/top -b -n 2 -d 3 >/tmp/top 2>&1 &
t=$!
$RS 3 1 >/tmp/rd 2>&1
wait $t
st=$?
a=$(awk '/^%Cpu\(s\)/ { v = $2 } END { print v }' /tmp/top)
b=$(rsfield /tmp/rd all 1)
grep '^%Cpu' /tmp/top | sed 's/^/# top: /'
[ $st -eq 0 ] && [ "$(grep -c '^%Cpu(s)' /tmp/top)" -eq 2 ] && near "top -b, %Cpu(s) us" "$a" "$b" 5
ok_or_show $? "top -b (in randstat exec): a %Cpu(s) line per frame, us matches the reader" /tmp/top

$RS exec -- /usr/bin/sar -P 1 3 1 >/tmp/sar 2>&1 &
t=$!
$RS 3 1 >/tmp/rd 2>&1
wait $t
st=$?
a=$(awk '/%user/ { for (i = 1; i <= NF; i++) if ($i == "%user") c = i } /^Average:/ && $2 == "1" { print $c }' /tmp/sar)
b=$(rsfield /tmp/rd 1 1)
[ $st -eq 0 ] && near "sar -P 1 (sadc), cpu1 %user" "$a" "$b" 10
ok_or_show $? "sar with sadc (in randstat exec): cpu1 %user matches the reader" /tmp/sar

# node_exporter's cpu collector: node_cpu_seconds_total scraped before
# and after the reader's 3 s; cpu1's user share of the growth.
$RS exec -- /usr/bin/prometheus-node-exporter --web.listen-address=127.0.0.1:9100 \
	--collector.disable-defaults --collector.cpu >/tmp/ne.log 2>&1 &
ne=$!
scrape http://127.0.0.1:9100/metrics /tmp/ne1
st=$?
$RS 3 1 >/tmp/rd 2>&1
wget -q -O /tmp/ne2 http://127.0.0.1:9100/metrics
st2=$?
kill $ne
wait $ne 2>/dev/null
a=$(awk '/^node_cpu_seconds_total\{cpu="1"/ { v = $2 + 0; m = $0; sub(/.*mode="/, "", m); sub(/".*/, "", m)
		if (FILENAME == "/tmp/ne1") { b[m] = v } else { d[m] = v - b[m]; t += v - b[m] } }
	END { if (t > 0) printf "%.2f\n", 100 * d["user"] / t }' /tmp/ne1 /tmp/ne2)
b=$(rsfield /tmp/rd 1 1)
grep '^node_cpu_seconds_total{cpu="1"' /tmp/ne2 | sed 's/^/# node_exporter: /'
[ $st -eq 0 ] && [ $st2 -eq 0 ] && near "node_exporter, cpu1 user" "$a" "$b" 10
ok_or_show $? "node_exporter's cpu collector (in randstat exec): cpu1 user share matches the reader" /tmp/ne.log
kill $iso 2>/dev/null
wait $iso 2>/dev/null

# --- tools that do not read /proc/stat --------------------------------------
$RS exec -- sh -c 'grep -c ^processor /proc/cpuinfo; head -n 1 /proc/meminfo; readlink /proc/self/exe' >/tmp/in 2>&1
st=$?
{ grep -c ^processor /proc/cpuinfo; head -n 1 /proc/meminfo; readlink /proc/self/exe; } >/tmp/outns
$RS exec -- /usr/bin/top -b -n 1 >/tmp/top 2>&1
st2=$?
tasks=$(awk '/^Tasks:/ { print $2 }' /tmp/top)
diag "top -b -n 1: $tasks tasks"
[ $st -eq 0 ] && [ $st2 -eq 0 ] && cmp -s /tmp/in /tmp/outns && [ "${tasks:-0}" -ge 10 ]
ok_or_show $? "in randstat exec, the rest of /proc is the kernel's (cpuinfo, meminfo, top's task list)" /tmp/in

# --- reset, unload, reload, a killed worker, under readers -------------------
taskset -c 1 /progs/iso 8000 2000 16 >/dev/null &
iso=$!
/progs/fsread watch $F 14 50 >/tmp/w 2>&1 &
w=$!
$RS exec -- /usr/bin/vmstat 1 13 >/tmp/vm 2>&1 &
v=$!
$RS exec -- /usr/bin/mpstat -P ALL 1 13 >/tmp/mp 2>&1 &
m=$!
sleep 2
echo reset >/proc/randstat
diag "reset"
sleep 2
rmmod randstat
diag "rmmod: $?"
sleep 2.5
insmod /randstat.ko
diag "insmod: $?"
sleep 2
wk=$(worker)
kill -9 "$wk"
diag "killed worker $wk"
sleep 1
wk2=$(worker)
diag "new worker ${wk2:-none}"
wait $w
sw=$?
wait $v
sv=$?
wait $m
sm=$?
kill $iso 2>/dev/null
wait $iso 2>/dev/null
show_file /tmp/w
result $sw "served counters never fall across a reset, an unload, a reload and a killed worker (a reader every 50 ms)"
# vmstat: 13 rows, no negative number, us+sy+id+wa+st about 100.
awk '/ us / { for (i = 1; i <= NF; i++) { if ($i == "us") u = i; if ($i == "st") s = i } }
	$1 ~ /^[0-9]+$/ { n++; t = 0; for (i = u; i <= s; i++) { t += $i; if ($i < 0) bad = 1 }
		if (t < 97 || t > 103) { bad = 1; print "# row " n " adds up to " t } }
	END { print "# vmstat: " n " rows"; exit bad || n != 13 }' /tmp/vm
s1=$?
[ $sv -eq 0 ] && [ $s1 -eq 0 ]
ok_or_show $? "vmstat 1 13 in randstat exec runs through them all: 13 rows, shares add up, none negative" /tmp/vm
awk '/%usr/ { for (i = 1; i <= NF; i++) if ($i == "%usr") u = i }
	$u ~ /^[0-9.-]+$/ && $2 == "all" && $1 != "Average:" { n++ }
	$u ~ /^-/ { bad = 1 }
	END { print "# mpstat: " n " interval rows"; exit bad || n != 13 }' /tmp/mp
s1=$?
[ $sm -eq 0 ] && [ $s1 -eq 0 ]
ok_or_show $? "mpstat -P ALL 1 13 in randstat exec runs through them all, no negative share" /tmp/mp
show_file /tmp/fs.err
n1=$(grep -c "serving the kernel's cpu lines" /tmp/fs.err)
n2=$(grep -c "serving /proc/randstat's cpu lines" /tmp/fs.err)
n3=$(grep -c "killed by signal 9; starting another" /tmp/fs.err)
[ "$n1" -eq 1 ] && [ "$n2" -eq 2 ] && [ "$n3" -eq 1 ] && [ -n "$wk2" ] && [ "$wk2" != "$wk" ]
result $? "the daemon logs the unload once, randstat's return, and replaces its killed worker"

# --- another user --------------------------------------------------------------
bad=0
/progs/runas -u 65534 sh -c "echo x >$F" 2>/dev/null && { diag "65534 wrote the served file"; bad=1; }
/progs/runas -u 65534 mount --bind /tmp/fake /proc/stat 2>/dev/null && { diag "65534 bound over /proc/stat"; bad=1; }
/progs/runas -u 65534 kill -9 $FSPID 2>/dev/null && { diag "65534 killed the daemon"; bad=1; }
/progs/runas -u 65534 $RS exec --stat /tmp/fake -- true 2>/dev/null && { diag "65534 ran randstat exec"; bad=1; }
# In a user namespace of its own 65534 may mount: that changes its view only.
if /progs/runas -u 65534 unshare -r -m sh -c 'mount --bind /tmp/fake /proc/stat && head -n 1 /proc/stat' >/tmp/out 2>&1; then
	diag "65534 in its own user namespace saw: $(cat /tmp/out)"
else
	diag "65534 could not bind in a user namespace either: $(cat /tmp/out)"
fi
SUDO_UID=0 SUDO_GID=0 $RS exec -- head -n 1 /proc/stat >/tmp/out 2>&1
diag "root's randstat exec sees: $(cat /tmp/out)"
[ $bad -eq 0 ] && [ "$(grep -c ' /proc/stat ' /proc/self/mountinfo)" = 0 ] &&
	grep -q '^cpu ' /tmp/out && ! grep -q '^cpu  1 1 1 1 1 1 1 1 1 1$' /tmp/out &&
	kill -0 $FSPID
result $? "uid 65534 cannot write the file, mount over /proc/stat, kill the daemon or change another namespace's /proc/stat"

# --- system-wide: randstat-fs-mount, with the unprivileged daemon -------------
/usr/bin/randstat-fs-mount bind $MNT
st=$?
/usr/bin/randstat-fs-mount status
st2=$?
/usr/bin/vmstat 1 2 >/tmp/vm 2>&1
st3=$?
/progs/fsread chunks /proc/stat >/tmp/out 2>&1
st4=$?
/usr/bin/randstat-fs-mount unbind
st5=$?
/usr/bin/randstat-fs-mount status
st6=$?
diag "bind $st, status $st2, vmstat $st3, fsread on /proc/stat $st4, unbind $st5, status after $st6"
[ $st -eq 0 ] && [ $st2 -eq 0 ] && [ $st3 -eq 0 ] && [ $st4 -eq 0 ] && [ $st5 -eq 0 ] && [ $st6 -ne 0 ] &&
	[ "$(grep -c ' /proc/stat ' /proc/self/mountinfo)" = 0 ]
ok_or_show $? "randstat-fs-mount: bound over the whole namespace's /proc/stat, vmstat runs on it, unbind restores the kernel's" /tmp/vm

# --- stop ---------------------------------------------------------------------
kill $FSPID
wait $FSPID
st=$?
sleep 0.2
$RS exec -- true >/tmp/out 2>&1
st2=$?
[ $st -eq 0 ] && ! grep -q fuse.randstat /proc/mounts && [ $st2 -eq 125 ] && grep -q 'no randstat-fs file' /tmp/out
ok_or_show $? "SIGTERM: the daemon unmounts and exits 0; randstat exec then says there is no file" /tmp/out
# --- the systemd unit's commands, in systemd's order --------------------------
# No systemd in the guest: the unit's Exec lines are run as systemd runs
# them (a leading '-': failure ignored), with @BINDIR@ as make install
# sets it, and the daemon stopped by SIGTERM between ExecStop and
# ExecStopPost.
unit=/tests/randstat-fs.service
uexec() { sed -n "s/^$1=//p" $unit | sed 's|@BINDIR@|/usr/bin|g'; }
# ulines KEY: run the unit's KEY lines; non-zero if one without '-' failed.
ulines() {
	uexec "$1" | while IFS= read -r _l; do
		case $_l in
		-*) sh -c "${_l#-}" >/dev/null 2>&1 || true ;;
		*) echo "# $1: $_l"; sh -c "$_l" || exit 1 ;;
		esac
	done
}
ulines ExecStartPre
s1=$?
sh -c "exec $(uexec ExecStart)" 2>/tmp/unit.err &
upid=$!
ulines ExecStartPost
s2=$?
/usr/bin/randstat-fs-mount status
s3=$?
/usr/bin/vmstat 1 2 >/tmp/vm 2>&1
s4=$?
ulines ExecStop
s5=$?
kill $upid
wait $upid
s6=$?
ulines ExecStopPost
s7=$?
/usr/bin/randstat-fs-mount status
s8=$?
diag "ExecStartPre $s1, ExecStartPost $s2, /proc/stat ours $s3, vmstat $s4, ExecStop $s5, daemon $s6, ExecStopPost $s7, /proc/stat ours after $s8"
[ $s1 -eq 0 ] && [ $s2 -eq 0 ] && [ $s3 -eq 0 ] && [ $s4 -eq 0 ] && [ $s5 -eq 0 ] && [ $s6 -eq 0 ] &&
	[ $s7 -eq 0 ] && [ $s8 -ne 0 ] && ! grep -q fuse.randstat /proc/mounts &&
	[ "$(grep -c ' /proc/stat ' /proc/self/mountinfo)" = 0 ]
ok_or_show $? "randstat-fs.service's commands: start binds the served file over /proc/stat, stop gives the kernel's back" /tmp/unit.err
# --- no reader moves what another sees (lib.sh) ----------------------------------
readers_split "readers polling at full speed as uid 65534 do not move another reader's split (4 sigma + 1 point)"

dmesg_clean "dmesg: no WARNING, BUG, Oops or lockdep report"
ktap_end
