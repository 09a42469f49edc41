# shellcheck shell=sh
# prof: randomized profiling that does not alias (issue 11, item 4).
# tests/progs/twofn pinned to cpu1 runs f() 1 ms and g() 1 ms every 4 ms
# (absolute wakeups: the cycle is exactly 4 ms), so each takes a quarter
# of cpu1 and half of twofn's CPU time.  It is profiled twice, with
# callchains, by Debian's perf (in this boot's initramfs, as for the
# trace suite):
#
#   perf record -e cpu-clock -F 250 -a -g   fixed-rate, what perf does on
#                                           this guest (no PMU under TCG:
#                                           perf -F 250 without -e falls
#                                           back to cpu-clock)
#   perf record -e randstat:sample -a -g    randstat's random times
#
# Why -a for the fixed-rate profile.  -F 250 on cpu-clock is a 4 ms
# hrtimer period (the kernel maps the frequency to a fixed period for
# hrtimer events).  Per task (no -a), that timer runs only while twofn is
# on the CPU and counts its CPU time: 4 ms of it are two cycles of f + g
# plus whatever each cycle spends outside them (the wakeup, the sleep's
# system call, the switch), and that excess moves the sample's phase
# every period, so per-task samples sweep through f and g and the
# aliasing comes and goes with the emulator's overheads.  With -a the
# timer is per CPU, on CLOCK_MONOTONIC, and hrtimer_forward() keeps it on
# its own 4 ms grid; twofn's absolute sleeps keep it on another 4 ms
# grid; so every sample falls at one phase of the cycle, fixed for the
# run, and only the interrupt's lateness blurs it.  Which phase is
# chance (when perf enabled the event), so the profile shows all f, all
# g, or (the phase in the sleep) neither, never the truth.
#
# Statistics.  Among the n samples of cpu1 inside twofn's run, a sampler
# whose times are independent of the work finds f, g and the rest with
# the true shares a, b, c (twofn's measured CPU time in f and in g over
# the run's wall time), each share's error within 4 sigma =
# 4 sqrt(p(1-p)/n) <= 2/sqrt(n) (0.05 for n = 1500).  A sampler locked to
# one phase puts its samples in at most two neighbouring parts of the
# cycle: in f and g only (the rest then errs by c ~ 0.5), or in g and the
# rest (f errs by a ~ 0.25), or in the rest and f (g errs by b ~ 0.25).
# So the fixed-rate profile must err by more than 0.15 on one of the
# three (at least 0.25 if it aliases, at most 2/sqrt(n) if it does not:
# the test also needs 2/sqrt(n) < 0.15, n >= 178), and randstat's share of
# f among its f and g samples must lie within 4 sqrt(p(1-p)/m) of twofn's
# own f / (f + g), m its samples in f or g.  randstat's shares of cpu1 are
# not judged against a, b, c: a dormant idle CPU emits no events
# (admin-guide.rst, Tracing samples), so its events under-count the sleep;
# f against g is unaffected.
#
# Last, the randstat profile (perf.data and perf's build-id cache, which
# holds the guest's kallsyms and twofn) goes to the scratch disk as a
# tar, for tests/vm/flamegraph.sh to make the flame graph on the host.
# shellcheck source=tests/vm/guest/lib.sh
. /tests/lib.sh
ktap_begin 5
dmesg -c >/dev/null

TR=/sys/kernel/tracing
P=/tmp/prof
export HOME=$P/home		# perf's build-id cache: $HOME/.debug
export PATH="$PATH:/usr/bin"	# perf
mkdir -p "$HOME" "$P/rs" "$P/clk"
mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
mount -t tracefs nodev "$TR" 2>/dev/null
[ -d "$TR/events" ] || diag "no tracefs at $TR"
load_randstat
dmesg -n 5
# The profiles are longer than the other suites' workloads: 2 SECS.
PSECS=$((2 * SECS))

_t0=$(cut -d' ' -f1 /proc/uptime)
took() {
	_t1=$(cut -d' ' -f1 /proc/uptime)
	diag "$1 took $(awk -v a="$_t0" -v b="$_t1" 'BEGIN { printf "%.1f", b - a }') s"
	_t0=$_t1
}

# profile NAME EVENT-ARGS...: perf record -a -g (timestamps on
# CLOCK_MONOTONIC, as twofn's) of twofn on cpu1 into $P/NAME/perf.data,
# with the build-ids of every object mapped (--buildid-all: by default
# perf keeps those of the objects that hold a sample's own address, for
# randstat:sample only the module, and the host would then take its own
# kernel's symbols for the guest's),
# perf script --ns into $P/NAME.txt, twofn's line into $P/NAME.wl, the
# counts of prof.awk into $P/NAME.cnt.  Returns perf's status.
profile() {
	_n=$1
	shift
	perf record -q -k mono --buildid-all "$@" -a -g -o "$P/$_n/perf.data" -- \
		taskset -c 1 /progs/twofn "$PSECS" >"$P/$_n.wl" 2>"$P/$_n.err"
	_st=$?
	took "perf record $*"
	perf script --ns -i "$P/$_n/perf.data" >"$P/$_n.txt" 2>>"$P/$_n.err" || _st=1
	took "perf script"
	[ "$_st" -eq 0 ] || sed 's/^/# perf: /' "$P/$_n.err" | head -n 20
	sed 's/^/# /' "$P/$_n.wl"
	cp "$P/$_n.wl" /tmp/wl.out
	awk -v start="$(wlval start_ns)" -v wall="$(wlval wall_ns)" \
		-v period="$(wlval period_ns)" -f /tests/prof.awk "$P/$_n.txt" >"$P/$_n.cnt"
	diag "$_n: $(tr '\n' ' ' <"$P/$_n.cnt")"
	return "$_st"
}
cnt() { awk -v k="$1" '$1 == k { print $2 }' "$P/$2.cnt"; }

if [ ! -x /usr/bin/perf ]; then
	diag "/usr/bin/perf is not in the initramfs: apt-get install linux-perf on the host (tests/deps.sh)"
	result 1 "perf record -F 250 aliases with twofn"
	result 1 "perf record -e randstat:sample: twofn's f share within 4 sigma of the truth"
	result 1 "the randstat profile is on the disk for the host's flame graph"
	dmesg_clean "no kernel warning in the prof suite"
	ktap_end
	exit 1
fi

# --- fixed rate: perf's cpu-clock at 250 Hz ----------------------------------
# What plain `perf record -F 250` records here (a diagnostic: the event
# below is named, so that a guest with a PMU would still test the same).
perf record -q -F 250 -a -o /tmp/plain.data -- sleep 0.1 >/dev/null 2>&1
diag "perf record -F 250 without -e records: $(perf evlist -i /tmp/plain.data 2>&1 | tr '\n' ' ')"
rm -f /tmp/plain.data
profile clk -e cpu-clock -F 250
_st=$?
awk -v st="$_st" -v fns="$(wlval f_ns)" -v gns="$(wlval g_ns)" -v wall="$(wlval wall_ns)" \
	"$(sed -n '/^function root/,/^}/p' /tests/tpev.awk)"'
	{ c[$1] = $2 }
	END {
		n = c["n"]; a = fns / wall; b = gns / wall; r = 1 - a - b
		pa = n ? c["nf"] / n : 0; pb = n ? c["ng"] / n : 0; pr = 1 - pa - pb
		ea = pa - a; eb = pb - b; er = pr - r
		if (ea < 0) ea = -ea; if (eb < 0) eb = -eb; if (er < 0) er = -er
		m = ea; if (eb > m) m = eb; if (er > m) m = er
		fg = c["nf"] + c["ng"]; one = fg ? (c["nf"] > c["ng"] ? c["nf"] : c["ng"]) / fg : 0
		printf "# perf -F 250: cpu1 %d samples in the run: f %d, g %d, rest %d (twofn elsewhere %d)\n", n, c["nf"], c["ng"], n - fg, c["nt"]
		printf "# shares of cpu1: f %.3f (true %.3f), g %.3f (true %.3f), rest %.3f (true %.3f); largest error %.3f, limit > 0.15 (unaliased: <= 2/sqrt(n) = %.3f)\n", pa, a, pb, b, pr, r, m, 2 / root(n ? n : 1)
		if (fg) printf "# perf -F 250: of its f and g samples %.1f%% on one function\n", 100 * one
		else printf "# perf -F 250: no sample in f or g (the phase is in the sleep)\n"
		printf "# phases (0.5 ms bins from the cycle start):"
		for (i = 0; i < 8; i++) printf " %d", c["ph" i]
		printf "\n"
		exit !(st == 0 && n >= 178 && m > 0.15)
	}' "$P/clk.cnt"
result $? "perf record -e cpu-clock -F 250 -a: its split of cpu1 between f, g and the rest is off by > 0.15 (it aliases)"

# --- random times: randstat:sample ------------------------------------------
profile rs -e randstat:sample
_st=$?
awk -v st="$_st" -v fns="$(wlval f_ns)" -v gns="$(wlval g_ns)" \
	"$(sed -n '/^function root/,/^}/p' /tests/tpev.awk)"'
	{ c[$1] = $2 }
	END {
		m = c["nf"] + c["ng"]; p = fns / (fns + gns); ph = m ? c["nf"] / m : 0
		s = root(p * (1 - p) / (m ? m : 1)); d = ph - p; if (d < 0) d = -d
		printf "# randstat:sample: cpu1 %d samples in the run: f %d, g %d, rest %d (twofn elsewhere %d)\n", c["n"], c["nf"], c["ng"], c["n"] - m, c["nt"]
		printf "# f / (f + g): randstat %.3f, 95%% interval [%.3f, %.3f]; twofn %.3f (f %.1f ms, g %.1f ms); error %.3f, limit 4 sigma = %.3f\n", ph, ph - 1.96 * root(ph * (1 - ph) / (m ? m : 1)), ph + 1.96 * root(ph * (1 - ph) / (m ? m : 1)), p, fns / 1e6, gns / 1e6, d, 4 * s
		printf "# phases (0.5 ms bins from the cycle start):"
		for (i = 0; i < 8; i++) printf " %d", c["ph" i]
		printf "\n"
		exit !(st == 0 && m >= 100 && d <= 4 * s)
	}' "$P/rs.cnt"
result $? "perf record -e randstat:sample -a: twofn's f share among f and g within 4 sigma of the truth"

# --- the profile for the host -----------------------------------------------
# rs/perf.data and clk/perf.data, the part of perf's build-id cache
# (home/.debug) that names the frames of the graph: the kernel's kallsyms,
# the module's, the vDSO and twofn (the rest, perf's own libraries and
# busybox, is 40 MB), and the counts a flame graph of each file must show
# (af, ag: all twofn's events in f and in g).  A tar on the scratch disk
# (64 MB; tests/vm/boot.sh keeps its image for this suite).
{
	echo "rs_f $(cnt af rs)"
	echo "rs_g $(cnt ag rs)"
	echo "clk_f $(cnt af clk)"
	echo "clk_g $(cnt ag clk)"
} >"$P/counts"
diag "counts for the host: $(tr '\n' ' ' <"$P/counts")"
_st=1
if [ -b /dev/vda ]; then
	tar -cf /tmp/prof.tar -C "$P" rs/perf.data clk/perf.data counts home/.debug/.build-id \
		"home/.debug/[kernel.kallsyms]" "home/.debug/[randstat]" "home/.debug/[vdso]" \
		home/.debug/progs/twofn &&
		dd if=/tmp/prof.tar of=/dev/vda bs=1M conv=fsync 2>/dev/null
	_st=$?
	diag "$(wc -c </tmp/prof.tar) bytes of tar on /dev/vda"
	rm -f /tmp/prof.tar
else
	diag "no /dev/vda: the suite needs the scratch disk (RANDSTAT_DISK_IOPS > 0)"
fi
result $_st "the profiles and perf's build-id cache are on /dev/vda for the host's flame graph"

dmesg_clean "no kernel warning in the prof suite"
ktap_end
