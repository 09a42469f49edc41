#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The benchmark's host side: read what the two guests printed (see
bench/guest/bench.sh), compute shares, errors and confidence intervals,
write CSV, results.md and gnuplot inputs, print KTAP.

  analyze.py OUTDIR NORMAL.ktap NOHZ.ktap NORMAL_OK NOHZ_OK MODE [INTERF.ktap INTERF_OK
             [NCPU OK READCOST.ktap ...]]

The read-cost guests (bench/readcost.sh) are judged by readcost.py.

NORMAL and NOHZ are the judged guests (idle=poll), with the default
parameters and each workload again with tickless=0 (LABEL@t0, a column).
BENCH_HLT="NORMAL_HLT.ktap NOHZ_HLT.ktap NORMAL_HLT_OK NOHZ_HLT_OK" (env):
the same guests idling in hlt, printed beside; their footprint records
are the footprint's.

Statistics (as tests/vm/guest/judge.awk): randstat's share of a class is
its share of the samples cpu1 took in the window (the count estimator,
module/estimator.c), and from n samples it has the binomial standard error
sqrt(p(1-p)/n).  The 95% interval is +-1.96 sigma; assertions use 4 sigma
(at the reference share) plus the window's edge error (randstat's elapsed
time grows in whole intervals: see edge_ns() in judge.awk; /proc/stat
truncates to 10 ms).
"""
import math
import os
import statistics
import sys

from readcost import readcost

CLASSES = "user nice system idle iowait irq softirq steal".split()
# Judged against the exact nohz_full reference: the control, both phases
# of the 2 ms / 8 ms worker (between ticks, and straddling one), the
# paper's 3 ms / 22.5 ms worker and the evader.
NOHZ_JUDGED = ("spin", "iso8_2_ph1000", "iso8_2_ph2900", "iso22.5_3", "evader_m500")
# The normal guest's judged workload, run three times (see the assertions).
NORMAL_RUNS = ("iso8_2_ph1000", "iso8_2_ph1000_r2", "iso8_2_ph1000_r3")
VALID_LATE_US = 200
# randstat's late_hist: bucket 1 + 2 (k - 6) holds [2^k, 1.5 * 2^k) ns, so
# bucket 27 starts at 2^19 ns = 524 us
LATE_BUCKET = 27


def keyed(w, d=None, start=2):
    """A record "T LABEL k v k v ...": its label (or the fields given in d)
    and the numeric values of the pairs from w[start] on."""
    d = {"label": w[1]} if d is None else d
    kv = w[start:]
    for i in range(0, len(kv) - 1, 2):
        try:
            d[kv[i]] = float(kv[i + 1])
        except ValueError:
            pass
    return d


def parse(path):
    recs = {"B": [], "F": {}, "H": [], "O": [], "P": [], "V": [], "I": [], "E": []}
    if not os.path.exists(path):
        return recs
    for line in open(path, errors="replace"):
        w = line.split()
        if not w:
            continue
        t = w[0]
        if t == "B" and len(w) >= 2:
            recs["B"].append(keyed(w))
        elif t == "F" and len(w) >= 2:
            recs["F"].setdefault(w[1], []).extend(int(x) for x in w[2:])
        elif t in ("H", "V") and len(w) >= 2:
            recs[t].append(keyed(w))
        elif t == "O" and len(w) >= 3:
            d = keyed(w, {"config": w[1], "round": int(w[2])}, 3)
            if "rate" in d:
                recs["O"].append(d)
        elif t == "P" and len(w) >= 4:
            recs["P"].append(keyed(w, {"config": w[1], "round": int(w[2]), "wl": w[3]}, 4))
        elif t in ("I", "E"):
            recs[t].append(" ".join(w[1:]))
    return recs


def sigma(p, n):
    p = min(max(p, 0.0), 1.0)
    return math.sqrt(p * (1 - p) / n) if n > 0 else 1.0


def edge_ns(d):
    """The window's edge allowance, as edge_ns() in judge.awk."""
    if d.get("law", 0):
        return 2 * d.get("tmax", 6e6)
    fl, mean = d.get("floor", 5e4), d.get("mean", 4e6)
    return fl + 11 * (mean - fl)


def count_share(d, cls):
    """randstat's share of cls on cpu1: its share of the samples times the
    sampled time, plus its exact time (steal; a dormant CPU's idle and
    iowait), over the elapsed time (format 3)."""
    n = d.get("sampler.cpu1.samples", 0)
    el = d.get("sampler.cpu1.elapsed_ns", 0)
    if not el:
        return float("nan")
    sampled = d.get(f"n.cpu1.{cls}", 0) / n * d.get("sampler.cpu1.sampled_ns", 0) if n else 0
    return (sampled + d.get(f"x.cpu1.{cls}", 0)) / el


def workload(d, exact):
    """The figures of one B record.  exact: cpu1's /proc/stat is vtime."""
    wall = d["wall"]
    hz = d.get("user_hz", 100) or 100
    el = d.get("sampler.cpu1.elapsed_ns", 0)
    n = d.get("sampler.cpu1.samples", 0)
    r = {"label": d["label"], "wall_s": wall / 1e9, "n": int(n)}
    r["rs_user"] = count_share(d, "user")
    r["rs_system"] = count_share(d, "system")
    r["stat_user"] = d.get("stat.cpu1.user", 0) * 1e9 / hz / wall
    r["stat_system"] = d.get("stat.cpu1.system", 0) * 1e9 / hz / wall
    # the workload's own CPU time: the whole process over the snapshot
    # window (spin, from tests/progs, reports its loop only)
    cpu = d.get("wl_proc_cpu_ns", d.get("wl_cpu_ns", 0))
    r["cpu_share"] = cpu / wall
    # the per-task view: times(2), scaled by Linux to the exact runtime
    if "wl_task_utime" in d and d.get("wl_wall_ns"):
        tk = d.get("wl_clk_tck", 100) or 100
        r["task_share"] = (d["wl_task_utime"] + d["wl_task_stime"]) / tk * 1e9 / d["wl_wall_ns"]
        r["own_share"] = d["wl_cpu_ns"] / d["wl_wall_ns"]
    else:
        r["task_share"] = r["own_share"] = float("nan")
    r["ref"] = r["stat_user"] if exact else r["cpu_share"]
    r["ref_name"] = "vtime user (exact)" if exact else "own CPU time"
    r["sig"] = sigma(r["rs_user"], n)          # for the interval
    # for the assertion; no sample is no estimate: 0, so that a run with
    # none cannot pass on a 400-point 4 sigma
    r["sig_ref"] = sigma(r["ref"], n) if n > 0 else 0.0
    r["ci95"] = 1.96 * r["sig"]
    r["edge"] = (edge_ns(d) + (1e7 if exact else 0)) / wall
    r["tol4"] = 4 * r["sig_ref"] + r["edge"]
    r["err_rs"] = r["rs_user"] - r["ref"]
    r["err_stat"] = r["stat_user"] - r["ref"]
    calls = n - d.get("sampler.cpu1.overruns", 0)
    r["late_us"] = d.get("sampler.cpu1.late_ns", 0) / max(calls, 1) / 1e3
    r["overruns"] = int(d.get("sampler.cpu1.overruns", 0))
    # callbacks at least LATE_BUCKET's lower bound late
    late = sum(d.get(f"late.cpu1.b{k}", 0) for k in range(LATE_BUCKET, 32))
    r["late_frac"] = late / max(calls, 1) if "late.cpu1.b0" in d else float("nan")
    r["cost_frac"] = d.get("sampler.cpu1.cost_ns", 0) / wall
    return r


def pct(x):
    return "nan" if x != x else f"{100 * x:.2f}"


def quantile(v, q):
    v = sorted(v)
    if not v:
        return float("nan")
    i = min(len(v) - 1, max(0, int(math.ceil(q * len(v))) - 1))
    return v[i]


def hist_quantile(h, b, q):
    tot = sum(h)
    if not tot:
        return float("nan")
    acc = 0
    for i, c in enumerate(h):
        acc += c
        if acc >= q * tot:
            return b[i]  # the bucket's lower bound
    return b[-1]


# --- interference (the paper's section 5.1, figure 2) -------------------------
# bench/guest/interf.sh: one boot; a user-only program on cpu1 (bench/
# progs/work) while a UDP flood on cpu0 has its NET_RX work steered to
# cpu1 (rps_cpus = 2) every other second and kept on cpu0 (0) in between.
#
# Statistics.  randstat's time for a class of the program over a set of
# bins is its count estimator, k/n x T_s (k the program's samples in the
# class, n all of cpu1's samples, T_s their weight_ns: the sampled time),
# and from n samples it has the binomial standard error
# sqrt(k (1 - k/n)) / n x T_s.  A count of 0 still has an uncertainty of
# one sample: sigma is taken at max(k, 1) (the Poisson sd of a count near
# 0 is about sqrt(k + 1)).  Assertions are at 4 sigma, reports at 95%
# (1.96 sigma).  The kernel's utime and stime are whole USER_HZ ticks:
# one tick (10 ms) of truncation is allowed on them.
#
# The true user time is the program's iterations times the time per
# iteration of the phases without interference around them (the control
# bins within INTERF_CAL_BINS readings, the first bin after a switch left
# out); its standard error comes from how much the time per iteration of
# single control bins scatters about that local value.  The emulator's
# speed moves with the host's load (measured: 2-4x between bins a second
# apart), which is why the phases alternate.  The tracepoints give a
# second, exact reference in the guest's own time: the program's runtime
# less the time cpu1 spent in softirq (and hardirq) while it was current.
INTERF_CAL_BINS = 4
TICK_S = 0.01


def parse_interf(path):
    G, X, E, I = [], {}, [], []
    if not path or not os.path.exists(path):
        return G, X, E, I
    for line in open(path, errors="replace"):
        w = line.split()
        if not w:
            continue
        if w[0] == "G":
            d = {}
            for i in range(1, len(w) - 1, 2):
                try:
                    d[w[i]] = float(w[i + 1])
                except ValueError:
                    d[w[i]] = w[i + 1]
            G.append(d)
        elif w[0] == "X":
            X = keyed(w, {}, 1)
        elif w[0] == "E":
            E.append(" ".join(w[1:]))
        elif w[0] == "I":
            I.append(" ".join(w[1:]))
    return G, X, E, I


def cgcost(k, path, out):
    """randstat cgroup's cost per sample: the interference guest's C
    records (bench/guest/interf.sh), cgcost.csv; returns results.md lines.
    Each pair's difference (with - without) is one observation; their mean
    and its standard error are the figure.  Not a bar: asserted is only
    that every pair was measured."""
    pairs = []
    if path and os.path.exists(path):
        for line in open(path, errors="replace"):
            w = line.split()
            if len(w) == 9 and w[:2] == ["C", "pair"] and w[3] == "off" and w[6] == "on":
                try:
                    pairs.append((int(w[2]), float(w[4]), int(w[5]), float(w[7]), int(w[8])))
                except ValueError:
                    pass
    ok = len(pairs) >= 2 and all(p[2] > 0 and p[4] > 0 for p in pairs)
    k.result(ok, f"bench: randstat cgroup's cost per sample measured ({len(pairs)} pairs without and with)")
    with open(f"{out}/cgcost.csv", "w") as f:
        f.write("pair,off_ns_per_sample,off_samples,on_ns_per_sample,on_samples\n")
        for p in pairs:
            f.write(",".join(str(x) for x in p) + "\n")
    if not ok:
        return []
    d = [p[3] - p[1] for p in pairs]
    m = statistics.fmean(d)
    se = statistics.stdev(d) / math.sqrt(len(d))
    off = statistics.fmean(p[1] for p in pairs)
    on = statistics.fmean(p[3] for p in pairs)
    k.diag(f"randstat cgroup: the sampler's mean cost per sample on cpu1 {off:.0f} ns without its "
           f"BPF program, {on:.0f} ns with; paired difference {m:+.0f} ns, 95% {m - 1.96 * se:+.0f} "
           f"to {m + 1.96 * se:+.0f} ns ({len(d)} pairs)")
    return ["", "## randstat cgroup's cost per sample", "",
            "The sampler's mean cost per sample on a busy cpu1 (the callback, in which the "
            "randstat:sample tracepoint and so the BPF program run), in alternating runs without "
            "and with randstat cgroup attached (bench/guest/interf.sh; cgcost.csv), under TCG.", "",
            "| pairs | without, ns | with, ns | with - without, ns (95%) |", "|---|---|---|---|",
            f"| {len(d)} | {off:.0f} | {on:.0f} | {m:+.0f} ({m - 1.96 * se:+.0f} to {m + 1.96 * se:+.0f}) |"]


def count_sd(k, n, ts):
    """The sd of k/n x ts, k of n samples (binomial; k at least 1)."""
    if n <= 0:
        return float("nan")
    k = max(k, 1)
    return math.sqrt(k * max(1 - k / n, 0)) / n * ts


def interference(k, path, ok, out):
    """Assertions, KTAP diagnostics, interf.csv, interf_{with,without}.dat;
    returns results.md lines."""
    k.result(ok == "1", "bench: the interference guest ran to the end")
    G, X, E, I = parse_interf(path)
    for e in E:
        k.diag(f"interference guest: {e}")
    names = ("interference: NET_RX work landed on cpu1 in the phases with RPS to cpu1, not in the others",
             "interference: the kernel charges the program's stime for it: stime > randstat's system + 4 sigma",
             "interference: randstat does not charge it as the program's system time: its system share "
             "with interference <= without + 4 sigma")
    bins = []
    for a, b in zip(G, G[1:]):
        if b.get("rps") not in (0.0, 2.0):
            continue
        x = {f: b[f] - a[f] for f in ("t_ns", "iters", "utime", "stime", "rt_ns", "netrx0", "netrx1")}
        for f in ("n", "ts", "nu", "ns", "nsi", "nirq", "noth", "wu", "ws", "wsi",
                  "si_ns", "hi_ns", "late_u", "late_si", "nin", "din", "nipi"):
            x[f] = b.get(f, 0.0)
        x["rps"] = int(b["rps"])
        x["t"] = (b["t_ns"] - G[0]["t_ns"]) / 1e9
        x["first"] = not bins or bins[-1]["rps"] != x["rps"]
        bins.append(x)
    if len(bins) < 8 or not any(x["rps"] for x in bins) or all(x["rps"] for x in bins):
        k.diag(f"interference: {len(bins)} readings, not both phases: nothing to judge")
        for nm in names:
            k.result(False, nm)
        return []
    hz = X.get("clk_tck", 100) or 100
    # the calibration: the time per iteration of the control bins near each bin
    ctl = [i for i, x in enumerate(bins) if x["rps"] == 0 and not x["first"] and x["iters"] > 0]
    for i, x in enumerate(bins):
        near = [j for j in ctl if abs(j - i) <= INTERF_CAL_BINS] or ctl
        x["c"] = sum(bins[j]["rt_ns"] for j in near) / sum(bins[j]["iters"] for j in near)
        x["true_user"] = x["iters"] * x["c"] / 1e9
    resid = [bins[j]["rt_ns"] / bins[j]["iters"] / bins[j]["c"] - 1 for j in ctl]
    s_rel = statistics.stdev(resid) if len(resid) > 1 else float("nan")

    def phase(p):
        v = [x for x in bins if x["rps"] == p]
        S = lambda f: sum(x[f] for x in v)
        r = {"bins": len(v), "T": S("t_ns") / 1e9, "n": S("n"), "ts": S("ts") / 1e9,
             "iters": S("iters"), "rt": S("rt_ns") / 1e9, "si": S("si_ns") / 1e9,
             "hi": S("hi_ns") / 1e9, "utime": S("utime") / hz, "stime": S("stime") / hz,
             "netrx1": S("netrx1"), "netrx0": S("netrx0"), "true_user": S("true_user"),
             "true_sd": math.sqrt(sum((x["true_user"] * s_rel) ** 2 for x in v))}
        for c, f in (("user", "nu"), ("system", "ns"), ("softirq", "nsi")):
            kk = S(f)
            r["k_" + c] = kk
            r["rs_" + c] = kk / r["n"] * r["ts"] if r["n"] else float("nan")
            r["sd_" + c] = count_sd(kk, r["n"], r["ts"])
        r["w_user"], r["w_system"], r["w_softirq"] = S("wu") / 1e9, S("ws") / 1e9, S("wsi") / 1e9
        r["late_u"] = S("late_u") / max(S("nu"), 1) / 1e3
        r["late_si"] = S("late_si") / max(S("nsi"), 1) / 1e3
        r["nin"], r["nipi"] = S("nin"), S("nipi")
        r["din_us"] = S("din") / max(S("nipi"), 1) / 1e3
        r["exact_lo"] = r["rt"] - r["si"] - r["hi"]
        r["exact_hi"] = r["rt"] - r["si"]
        return r

    P = {"without": phase(0), "with": phase(2)}
    for nm, r in P.items():
        k.diag(f"interference, {nm} ({r['bins']} readings, {r['T']:.2f} s, n {r['n']:.0f} samples of cpu1): "
               f"kernel utime {r['utime']:.2f} s stime {r['stime']:.2f} s; randstat user "
               f"{r['rs_user']:.3f} +- {1.96 * r['sd_user']:.3f} s, system {r['rs_system']:.3f} +- "
               f"{1.96 * r['sd_system']:.3f} s ({r['k_system']:.0f} samples), softirq {r['rs_softirq']:.3f} s "
               f"(weight_ns sums: user {r['w_user']:.3f}, system {r['w_system']:.3f}, softirq {r['w_softirq']:.3f}); "
               f"true user (iterations) {r['true_user']:.3f} +- {1.96 * r['true_sd']:.3f} s; runtime {r['rt']:.3f} s, "
               f"exact softirq {r['si']:.3f} s, hardirq {r['hi']:.3f} s, so user {r['exact_lo']:.3f}-{r['exact_hi']:.3f} s; "
               f"NET_RX cpu1 {r['netrx1']:.0f}, cpu0 {r['netrx0']:.0f}; mean lateness of its user samples "
               f"{r['late_u']:.0f} us, softirq samples {r['late_si']:.0f} us")
    k.diag(f"interference: calibration {len(ctl)} control readings, time per iteration "
           f"{min(x['c'] for x in bins):.3f}-{max(x['c'] for x in bins):.3f} ns (local), single readings "
           f"scatter {100 * s_rel:.1f}% about it; cpu1 /proc/stat over the run: "
           + " ".join(f"{c} {X.get('stat1_' + c, 0):.0f}" for c in ("user", "system", "softirq", "idle"))
           + f" ticks; ksoftirqd/1 {X.get('nksi', 0):.0f} samples; datagrams sent {X.get('sent', 0):.0f} "
           f"received {X.get('received', 0):.0f}")
    w, wo = P["with"], P["without"]
    k.diag(f"interference: where its softirq samples came (with): of {w['k_softirq']:.0f}, "
           f"{w['nin']:.0f} inside a softirq action (softirq_entry to _exit) and {w['nipi']:.0f} in a timer "
           f"interrupt within 100 us of the end of an IPI ({w['din_us']:.0f} us after it on average): a late "
           f"sample taken where irq_exit() runs the RPS softirq; the exact softirq time is {w['si']:.3f} s "
           f"in {w['T']:.2f} s")
    # 1. the work went where it was sent
    k.result(w["netrx1"] >= 100 and wo["netrx1"] <= 0.01 * w["netrx1"] and w["si"] > 0, names[0])
    # 2. the kernel's charge, against randstat's system estimate
    sd = w["sd_system"]
    k.diag(f"  with interference: kernel stime {w['stime']:.3f} s (less one tick {w['stime'] - TICK_S:.3f}), "
           f"randstat system {w['rs_system']:.3f} s + 4 sigma {4 * sd:.3f} = {w['rs_system'] + 4 * sd:.3f} s")
    k.result(w["stime"] - TICK_S > w["rs_system"] + 4 * sd, names[1])
    # 3. randstat's system time of the program, with the interference
    # against without it.  Not against 0: under emulation the program's
    # context is in kernel mode a few percent of the time without
    # interference too (the tick's stime and randstat agree on it; four
    # 16 s runs had 8, 17, 7 and 16 system samples of ~2000 with
    # interference, so "0 within 4 sigma" was a coin toss).  What the
    # paper's claim needs is that the interference does not add to it:
    # the share with it at most the share without plus 4 sigma of the
    # difference (binomial, each count at least 1).
    sw, swo = w["k_system"] / w["n"], wo["k_system"] / wo["n"]
    sdd = math.sqrt(max(w["k_system"], 1) * (1 - sw) / w["n"] ** 2 +
                    max(wo["k_system"], 1) * (1 - swo) / wo["n"] ** 2)
    k.diag(f"  randstat's system share of the program: with interference {100 * sw:.2f}% "
           f"({w['k_system']:.0f} of {w['n']:.0f} samples, {w['rs_system']:.3f} s), without {100 * swo:.2f}% "
           f"({wo['k_system']:.0f} of {wo['n']:.0f}); difference {100 * (sw - swo):+.2f} points, 4 sigma "
           f"{400 * sdd:.2f}; the kernel's stime {100 * w['stime'] / w['T']:.2f}% with, "
           f"{100 * wo['stime'] / wo['T']:.2f}% without")
    k.result(sw - swo <= 4 * sdd, names[2])
    # Not judged: randstat's user time of the program against its true
    # work.  In this boot the emulator delivers cpu1's timer interrupts
    # late while cpu0 runs the flood (single-threaded TCG runs the vCPUs
    # in turn), in both phases; with interference the IPI that brings
    # cpu1 back runs the NET_RX softirq with interrupts on, and the
    # pending sample fires inside it (the trace's count above).  The
    # samples are then not at random times with respect to the work, so
    # no statement about randstat follows from them (VALID_LATE_US, as
    # for the normal guest's between-ticks job); on hardware the timer
    # fires on time.  Printed, with the lateness, for the record.
    tol = 4 * math.sqrt(w["sd_user"] ** 2 + w["true_sd"] ** 2)
    k.diag(f"  (not judged: its samples are {w['late_u']:.0f} us (user) and {w['late_si']:.0f} us (softirq) "
           f"late on average, the limit for a measure of the module being {VALID_LATE_US} us) randstat user "
           f"{w['rs_user']:.3f} s, true (iterations x calibration) {w['true_user']:.3f} s, difference "
           f"{w['rs_user'] - w['true_user']:+.3f} s, 4 sigma {tol:.3f} s (randstat {w['sd_user']:.3f}, "
           f"calibration {w['true_sd']:.3f}); the tracepoints' {w['exact_lo']:.3f}-{w['exact_hi']:.3f} s")

    # --- files: per reading, and cumulative per phase for the plot
    cols = ["t", "rps", "iters", "rt_ns", "utime", "stime", "n", "ts", "nu", "ns", "nsi", "nirq",
            "noth", "wu", "ws", "wsi", "si_ns", "hi_ns", "c", "true_user", "netrx0", "netrx1"]
    with open(f"{out}/interf.csv", "w") as f:
        f.write(",".join(cols) + "\n")
        for x in bins:
            f.write(",".join(f"{x[c]:.6g}" for c in cols) + "\n")
    for nm, p in (("without", 0), ("with", 2)):
        acc = dict.fromkeys(("T", "n", "ts", "nu", "ns", "nsi", "utime", "stime", "true", "rt", "si", "hi"), 0.0)
        with open(f"{out}/interf_{nm}.dat", "w") as f:
            f.write("# t_s kernel_stime rs_system rs_sys_lo rs_sys_hi kernel_utime rs_user rs_user_lo "
                    "rs_user_hi true_user exact_user_lo exact_user_hi rs_softirq exact_softirq\n")
            f.write("0" + " 0" * 13 + "\n")
            for x in bins:
                if x["rps"] != p:
                    continue
                for a_, b_ in (("T", "t_ns"), ("n", "n"), ("ts", "ts"), ("nu", "nu"), ("ns", "ns"),
                               ("nsi", "nsi"), ("utime", "utime"), ("stime", "stime"),
                               ("rt", "rt_ns"), ("si", "si_ns"), ("hi", "hi_ns")):
                    acc[a_] += x[b_]
                acc["true"] += x["true_user"]
                ts_ = acc["ts"] / 1e9
                est = {c: acc[c] / acc["n"] * ts_ for c in ("nu", "ns", "nsi")}
                sds = {c: count_sd(acc[c], acc["n"], ts_) for c in ("nu", "ns")}
                f.write(f"{acc['T'] / 1e9:.3f} {acc['stime'] / hz:.3f} {est['ns']:.4f} "
                        f"{max(est['ns'] - 1.96 * sds['ns'], 0):.4f} {est['ns'] + 1.96 * sds['ns']:.4f} "
                        f"{acc['utime'] / hz:.3f} {est['nu']:.4f} {est['nu'] - 1.96 * sds['nu']:.4f} "
                        f"{est['nu'] + 1.96 * sds['nu']:.4f} {acc['true']:.4f} "
                        f"{(acc['rt'] - acc['si'] - acc['hi']) / 1e9:.4f} {(acc['rt'] - acc['si']) / 1e9:.4f} "
                        f"{est['nsi']:.4f} {acc['si'] / 1e9:.4f}\n")
    md = ["", "## Interference (the paper's section 5.1)", "",
          "A user-only program on cpu1 (bench/progs/work) while a UDP flood on cpu0 has its NET_RX "
          "work steered to cpu1 by RPS every other second.  Times in seconds over the phases with and "
          "without interference; randstat ± 95%.", "",
          "| phase | s | kernel stime | kernel utime | randstat system | randstat user | randstat softirq "
          "| true user (iterations) | user by tracepoints | exact softirq | lateness us (user / softirq samples) |",
          "|---|---|---|---|---|---|---|---|---|---|---|"]
    for nm in ("without", "with"):
        r = P[nm]
        md.append(f"| {nm} | {r['T']:.2f} | {r['stime']:.2f} | {r['utime']:.2f} | {r['rs_system']:.3f} ± "
                  f"{1.96 * r['sd_system']:.3f} | {r['rs_user']:.3f} ± {1.96 * r['sd_user']:.3f} | "
                  f"{r['rs_softirq']:.3f} | {r['true_user']:.3f} ± {1.96 * r['true_sd']:.3f} | "
                  f"{r['exact_lo']:.3f}-{r['exact_hi']:.3f} | {r['si']:.3f} | {r['late_u']:.0f} / {r['late_si']:.0f} |")
    return md


class Ktap:
    def __init__(self):
        self.lines, self.n, self.failed = [], 0, 0

    def diag(self, s):
        self.lines.append("# " + s)

    def result(self, ok, name):
        self.n += 1
        if not ok:
            self.failed += 1
        self.lines.append(f"{'ok' if ok else 'not ok'} {self.n} {name}")

    def dump(self):
        print("KTAP version 1")
        print(f"1..{self.n}")
        print("\n".join(self.lines))


def main():
    out, fnormal, fnohz, okn, okz, mode = sys.argv[1:7]
    finterf, oki = (sys.argv[7:9] + ["", "0"])[:2] if len(sys.argv) > 7 else ("", None)
    rc = sys.argv[9:]
    rc_runs = [(int(rc[i]), rc[i + 1] == "1", rc[i + 2]) for i in range(0, len(rc) - 2, 3)]
    os.makedirs(out, exist_ok=True)
    normal, nohz = parse(fnormal), parse(fnohz)
    k = Ktap()
    k.result(okn == "1", "bench: the normal guest ran to the end")
    k.result(okz == "1", "bench: the nohz_full guest ran to the end")
    for g, rec in (("normal", normal), ("nohz", nohz)):
        for e in rec["E"]:
            k.diag(f"{g} guest: {e}")
    hlt = os.environ.get("BENCH_HLT", "").split()
    hnormal, hnohz = (parse(hlt[0]), parse(hlt[1])) if len(hlt) == 4 else (None, None)
    if hnormal is not None:
        k.result(hlt[2] == "1", "bench: the normal guest in hlt ran to the end")
        k.result(hlt[3] == "1", "bench: the nohz_full guest in hlt ran to the end")
    W = {("normal", d["label"]): workload(d, False) for d in normal["B"]}
    W.update({("nohz", d["label"]): workload(d, True) for d in nohz["B"]})
    if hnormal is not None:
        W.update({("normal-hlt", d["label"]): workload(d, False) for d in hnormal["B"]})
        W.update({("nohz-hlt", d["label"]): workload(d, True) for d in hnohz["B"]})

    def line(g, r):
        return (f"{g} {r['label']}: ref ({r['ref_name']}) {pct(r['ref'])}%, /proc/stat user "
                f"{pct(r['stat_user'])}% (error {pct(r['err_stat'])}), randstat user "
                f"{pct(r['rs_user'])}% +- {pct(r['ci95'])} (95%, n {r['n']}; error "
                f"{pct(r['err_rs'])} = {r['err_rs'] / r['sig_ref']:+.1f} sigma); system: stat "
                f"{pct(r['stat_system'])}% randstat {pct(r['rs_system'])}%; per-task times() "
                f"{pct(r['task_share'])}% vs own {pct(r['own_share'])}%; lateness "
                f"{r['late_us']:.0f}us ({pct(r['late_frac'])}% >= 524us), overruns {r['overruns']}")

    # --- the assertions ---------------------------------------------------
    for lab in NOHZ_JUDGED:
        r = W.get(("nohz", lab))
        name = f"bench: nohz_full cpu1, {lab}: randstat user share = exact (vtime) within 4 sigma"
        if not r:
            k.diag(f"no record for nohz {lab}")
            k.result(False, name)
            continue
        k.diag(line("nohz", r))
        k.diag(f"  |error| {pct(abs(r['err_rs']))} vs 4 sigma + window edges {pct(r['tol4'])}")
        k.result(abs(r["err_rs"]) <= r["tol4"], name)
    # The normal guest's 2 ms / 8 ms job between ticks, in three runs of
    # one boot.  The emulator, not the module, sometimes delivers timer
    # interrupts late for seconds on end (a CI run on 2026-11-25: mean
    # lateness 254 us and 56 overruns in this workload against 113-138 us
    # and 9-17 in the same boot's others; /proc/stat's tick was displaced
    # too, 18.7% against 1.6-2.6% on time), and a late sample lands in
    # the idle after the job.  A run is judged only if randstat's
    # callbacks on cpu1 were on average at most VALID_LATE_US late (5% of
    # the mean interval; 110-200 us in the runs on time measured): the
    # first such run is judged, and a boot with none fails.
    runs = [W.get(("normal", lab)) for lab in NORMAL_RUNS]
    runs = [r for r in runs if r]
    valid = [r for r in runs if r["late_us"] <= VALID_LATE_US]
    for r in runs:
        k.diag(line("normal", r) + ("" if r["late_us"] <= VALID_LATE_US else
                                    f"; not judged: lateness over {VALID_LATE_US}us"))
    if valid:
        r = valid[0]
        k.diag(f"judged: normal {r['label']}")
        k.result(abs(r["err_stat"]) > 0.10,
                 "bench: normal cpu1, 2 ms every 8 ms between ticks: /proc/stat user off by > 10 points")
        k.diag(f"  randstat |error| {pct(abs(r['err_rs']))} vs 4 sigma + window edges {pct(r['tol4'])}")
        k.result(abs(r["err_rs"]) <= r["tol4"],
                 "bench: normal cpu1, 2 ms every 8 ms between ticks: randstat user = own CPU time within 4 sigma")
    else:
        k.result(False, f"bench: normal cpu1, 2 ms every 8 ms between ticks: a run on time "
                 f"(records {len(runs)}, mean lateness <= {VALID_LATE_US}us)")
    for (g, lab), r in sorted(W.items()):
        if g == "normal" and lab not in NORMAL_RUNS or \
                g == "nohz" and lab not in NOHZ_JUDGED or g.endswith("-hlt"):
            k.diag("(not judged) " + line(g, r))

    # --- the workload table -----------------------------------------------
    cols = ["guest", "label", "wall_s", "n", "ref_name", "ref", "stat_user", "err_stat",
            "rs_user", "ci95", "err_rs", "sig", "tol4", "rs_system", "stat_system",
            "cpu_share", "task_share", "own_share", "late_us", "overruns", "cost_frac"]
    with open(f"{out}/workloads.csv", "w") as f:
        f.write(",".join(cols) + "\n")
        for (g, lab), r in W.items():
            f.write(",".join(str(g if c == "guest" else r[c]) for c in cols) + "\n")
    # gnuplot data: one row per workload, per guest
    for g in ("normal", "nohz"):
        with open(f"{out}/errors_{g}.dat", "w") as f:
            f.write("# i label err_stat err_rs ci95\n")
            i = 0
            for (gg, lab), r in W.items():
                if gg != g or lab.startswith("sweep") or "@" in lab:
                    continue
                f.write(f"{i} {lab} {100 * r['err_stat']:.3f} {100 * r['err_rs']:.3f} {100 * r['ci95']:.3f}\n")
                i += 1
    # the sweeps (normal guest): x, err_stat, err_rs, ci95, ref, stat, rs
    sweeps = {"period": [], "job": [], "margin": []}
    for (g, lab), r in W.items():
        if g != "normal" or "@" in lab:
            continue
        if lab.startswith("sweepP_") or lab == "iso8_2_ph1000":
            sweeps["period"].append((8000 if lab == "iso8_2_ph1000" else int(lab.split("_")[1]), r))
        if lab.startswith("sweepJ_"):
            sweeps["job"].append((int(lab.split("_")[2]), r))
        if lab.startswith("evader_m"):
            sweeps["margin"].append((int(lab[8:]), r))
    for (g, lab), r in W.items():
        if g == "normal" and lab == "iso8_2_ph1000":
            pass
    for name, v in sweeps.items():
        with open(f"{out}/sweep_{name}.dat", "w") as f:
            f.write("# x err_stat err_rs ci95 ref stat rs\n")
            for x, r in sorted(v, key=lambda t: t[0]):
                f.write(f"{x / 1000:g} {100 * r['err_stat']:.3f} {100 * r['err_rs']:.3f} "
                        f"{100 * r['ci95']:.3f} {100 * r['ref']:.3f} {100 * r['stat_user']:.3f} "
                        f"{100 * r['rs_user']:.3f}\n")

    # --- cost -----------------------------------------------------------------
    cost = {}
    F = normal["F"]
    # The trace event's rounds (bench.sh: @tp_off.R, @tp_on.R): pooled
    # here, and each round's median kept for the comparison below.
    tp_rounds = {}
    for key, v in F.items():
        base, _, r = key.rpartition(".")
        if base in ("randstat_timer_fn@tp_off", "randstat_timer_fn@tp_on") and v:
            tp_rounds.setdefault(base, {})[r] = statistics.median(v)
    for base in tp_rounds:
        F[base] = [x for key, v in sorted(F.items()) if key.rpartition(".")[0] == base for x in v]
    for fn in ("tick_sched_timer", "randstat_timer_fn", "randstat_timer_fn@before",
               "randstat_draw_interval", "randstat_draw_interval@before",
               "randstat_timer_fn@tp_off", "randstat_timer_fn@tp_on"):
        v = F.get(fn, [])
        if v:
            cost[fn] = {"n": len(v), "median": statistics.median(v), "p99": quantile(v, 0.99),
                        "mean": statistics.fmean(v), "max": max(v)}
    H = normal["H"][0] if normal["H"] else None
    if H:
        h = [H.get(f"h{i}", 0) for i in range(32)]
        b = [H.get(f"b{i}", 0) for i in range(32)]
        ns = H.get("samples", 0) - H.get("overruns", 0)  # callbacks
        cost["self"] = {"n": int(ns), "mean": H.get("cost_ns", 0) / max(ns, 1),
                        "median": hist_quantile(h, b, 0.5), "p99": hist_quantile(h, b, 0.99),
                        "max": H.get("cost_max_ns", float("nan"))}
    O = normal["O"]
    over = {}
    if O:
        rounds = sorted({o["round"] for o in O})
        base = {o["round"]: o["rate"] for o in O if o["config"] == "none"}
        for c in ("default", "x10"):
            rel = [1 - o["rate"] / base[o["round"]] for o in O
                   if o["config"] == c and o["round"] in base]
            self_ = [o.get("cost_ns", 0) / o["elapsed_ns"] for o in O
                     if o["config"] == c and o.get("elapsed_ns")]
            rate = [o.get("samples", 0) / o["elapsed_ns"] * 1e9 for o in O
                    if o["config"] == c and o.get("elapsed_ns")]
            if rel:
                se = statistics.stdev(rel) / math.sqrt(len(rel)) if len(rel) > 1 else float("nan")
                over[c] = {"mean": statistics.fmean(rel), "se": se, "rounds": len(rel),
                           "self": statistics.fmean(self_) if self_ else float("nan"),
                           "rate": statistics.fmean(rate) if rate else float("nan")}
        over["base_rate"] = statistics.fmean(base.values()) if base else float("nan")
        over["rounds"] = len(rounds)
    with open(f"{out}/cost.csv", "w") as f:
        f.write("what,n,median_ns,p99_ns,mean_ns,max_ns\n")
        for fn, c in cost.items():
            f.write(f"{fn},{c['n']},{c['median']},{c['p99']},{c['mean']:.0f},{c['max']}\n")
    with open(f"{out}/overhead.csv", "w") as f:
        f.write("config,round,rate,samples,elapsed_ns,cost_ns\n")
        for o in O:
            f.write(f"{o['config']},{o['round']},{o['rate']},{o.get('samples', '')},"
                    f"{o.get('elapsed_ns', '')},{o.get('cost_ns', '')}\n")
    if "tick_sched_timer" in cost and "randstat_timer_fn" in cost:
        t, s = cost["tick_sched_timer"], cost["randstat_timer_fn"]
        k.diag(f"cost (ftrace function_graph, cpu1, CPU-bound loop): randstat_timer_fn median "
               f"{s['median'] / 1e3:.2f}us p99 {s['p99'] / 1e3:.2f}us (n {s['n']}); tick_sched_timer "
               f"median {t['median'] / 1e3:.2f}us p99 {t['p99'] / 1e3:.2f}us (n {t['n']}); "
               f"ratio of medians {s['median'] / t['median']:.2f}")
    for fn in ("randstat_timer_fn", "randstat_draw_interval"):
        if fn in cost and f"{fn}@before" in cost:
            a, b = cost[fn], cost[f"{fn}@before"]
            k.diag(f"cost before/after (ftrace, one boot): {fn} median {b['median'] / 1e3:.2f} -> "
                   f"{a['median'] / 1e3:.2f}us ({a['median'] / b['median']:.2f}x), p99 "
                   f"{b['p99'] / 1e3:.2f} -> {a['p99'] / 1e3:.2f}us ({a['p99'] / b['p99']:.2f}x), "
                   f"mean {b['mean'] / 1e3:.2f} -> {a['mean'] / 1e3:.2f}us")
    tp_cmp = None
    if "randstat_timer_fn@tp_off" in cost and "randstat_timer_fn@tp_on" in cost:
        a, b = cost["randstat_timer_fn@tp_off"], cost["randstat_timer_fn@tp_on"]
        ev = [int(i.split()[1]) for i in normal["I"] if i.startswith("tp_events ")]
        off, on = tp_rounds["randstat_timer_fn@tp_off"], tp_rounds["randstat_timer_fn@tp_on"]
        pairs = [(off[r], on[r]) for r in sorted(off, key=int) if r in on]
        mo = statistics.median(p[0] for p in pairs)
        mn = statistics.median(p[1] for p in pairs)
        tp_cmp = (mo, mn, len(pairs))
        k.diag(f"cost of the randstat:sample event (ftrace, one boot, {len(pairs)} alternating rounds "
               f"of 1 s each way): randstat_timer_fn, median of the rounds' medians {mo / 1e3:.2f}us "
               f"disabled, {mn / 1e3:.2f}us enabled ({sum(ev)} events recorded); ratio {mn / mo:.2f}, "
               f"difference {(mn - mo) / 1e3:+.2f}us; pooled medians {a['median'] / 1e3:.2f} -> "
               f"{b['median'] / 1e3:.2f}us (n {a['n']}, {b['n']}), p99 {a['p99'] / 1e3:.2f} -> "
               f"{b['p99'] / 1e3:.2f}us")
        k.diag("  rounds' medians, disabled/enabled (us): " +
               ", ".join(f"{o / 1e3:.1f}/{n / 1e3:.1f}" for o, n in pairs))
    if "self" in cost:
        c = cost["self"]
        k.diag(f"cost (randstat's own cost_hist, same run): mean {c['mean'] / 1e3:.2f}us, "
               f"median bucket >= {c['median'] / 1e3:.2f}us, p99 bucket >= {c['p99'] / 1e3:.2f}us")
    for c in ("default", "x10"):
        if c in over:
            o = over[c]
            k.diag(f"overhead {c}: throughput -{100 * o['mean']:.2f}% +- {100 * o['se']:.2f} "
                   f"({o['rounds']} rounds, {o['rate']:.0f} samples/s); callback time "
                   f"{100 * o['self']:.3f}% of cpu1")

    # --- convergence ------------------------------------------------------------
    V = nohz["V"]
    conv = []
    if V:
        seeds = sorted({int(v["label"]) for v in V})
        for s in seeds:
            pts = sorted((v for v in V if int(v["label"]) == s), key=lambda v: v["k"])
            if len(pts) < 3:
                continue
            p0, pK = pts[0], pts[-1]
            ref = (pK["stat_user"] - p0["stat_user"]) * 1e7 / (pK["t"] - p0["t"])
            for p in pts[1:]:
                n = p["n"] - p0["n"]
                if n <= 0:
                    continue
                # (format 3) the samples' share of the sampled time, plus
                # exact user time, over the elapsed time
                el = p["elapsed"] - p0["elapsed"]
                est = ((p["n_user"] - p0["n_user"]) / n * (p.get("sampled", 0) - p0.get("sampled", 0))
                       + p.get("x_user", 0) - p0.get("x_user", 0)) / el if el > 0 else float("nan")
                conv.append((s, int(p["k"]), n, est, ref))
    with open(f"{out}/convergence.csv", "w") as f:
        f.write("seed,k,n,est,ref,err,sigma_theory\n")
        for s, kk, n, est, ref in conv:
            f.write(f"{s},{kk},{n},{est:.5f},{ref:.5f},{est - ref:.5f},{sigma(ref, n):.5f}\n")
    conv_rows = []
    if conv:
        ks = sorted({c[1] for c in conv})
        with open(f"{out}/convergence.dat", "w") as f, open(f"{out}/convergence_pts.dat", "w") as g:
            f.write("# n rms_err_pct theory_sigma_pct\n")
            for s, kk, n, est, ref in conv:
                g.write(f"{n} {100 * abs(est - ref):.4f}\n")
            for kk in ks:
                e = [c for c in conv if c[1] == kk]
                n = statistics.fmean(c[2] for c in e)
                rms = math.sqrt(statistics.fmean((c[3] - c[4]) ** 2 for c in e))
                q = statistics.fmean(c[4] for c in e)
                th = sigma(q, n)
                f.write(f"{n:.0f} {100 * rms:.4f} {100 * th:.4f}\n")
                conv_rows.append((n, rms, th, len(e)))
        inside = sum(1 for c in conv if abs(c[3] - c[4]) <= 1.96 * sigma(c[4], c[2]))
        k.diag(f"convergence: {len(conv)} checkpoints over {len(set(c[0] for c in conv))} seeds, "
               f"{100 * inside / len(conv):.0f}% inside the 95% interval; rms error at n~"
               f"{conv_rows[0][0]:.0f}: {100 * conv_rows[0][1]:.2f} (theory {100 * conv_rows[0][2]:.2f}), "
               f"at n~{conv_rows[-1][0]:.0f}: {100 * conv_rows[-1][1]:.2f} (theory {100 * conv_rows[-1][2]:.2f})")

    # --- footprint ----------------------------------------------------------------
    foot = {}   # (guest, workload, config) -> {"cpu0": [..], "cpu1": [..], "trips": [..]}
    # the hlt guests' (with idle=poll the tick is not stopped in idle)
    if hnormal is not None:
        for key, v in hnormal["F"].items():
            if key.endswith("@pingpong"):
                F[key] = v
    for g, rec in (("normal", hnormal or normal), ("nohz", hnohz or nohz)):
        for p in rec["P"]:
            e = foot.setdefault((g, p["wl"], p["config"]), {"cpu0": [], "cpu1": [], "trips": []})
            for key in ("cpu0", "cpu1", "trips"):
                if key in p:
                    e[key].append(p[key])

    def mean_se(v):
        if not v:
            return float("nan"), float("nan")
        return statistics.fmean(v), (statistics.stdev(v) / math.sqrt(len(v)) if len(v) > 1 else float("nan"))

    pp = {}
    for g in ("normal", "nohz"):
        base = foot.get((g, "pingpong", "none"), {}).get("trips", [])
        for c in ("sampled", "exact"):
            v = foot.get((g, "pingpong", c), {}).get("trips", [])
            if base and v and len(base) == len(v):
                rel = [b / a for a, b in zip(base, v)]
                pp[(g, c)] = mean_se(rel) + (statistics.fmean(base), statistics.fmean(v))
    for (g, c), (m, se, a, b) in pp.items():
        k.diag(f"footprint: {g} guest, pipe ping-pong cpu0/cpu1: {a:.0f} round trips/s without "
               f"randstat, {b:.0f} with ({c}); ratio {m:.3f} +- {se:.3f} (rounds alternating)")
    for fn in ("randstat_idle_probe@pingpong",
               "randstat_timer_fn@pingpong"):
        v = F.get(fn, [])
        if v:
            cost[fn] = {"n": len(v), "median": statistics.median(v), "p99": quantile(v, 0.99),
                        "mean": statistics.fmean(v), "max": max(v)}
    with open(f"{out}/footprint.csv", "w") as f:
        f.write("guest,workload,config,cpu0_per_s,cpu1_per_s,trips_per_s\n")
        for (g, wl, c), e in sorted(foot.items()):
            f.write(f"{g},{wl},{c},{statistics.fmean(e['cpu0']) if e['cpu0'] else ''},"
                    f"{statistics.fmean(e['cpu1']) if e['cpu1'] else ''},"
                    f"{statistics.fmean(e['trips']) if e['trips'] else ''}\n")

    # --- results.md ---------------------------------------------------------------
    md = [f"# randstat benchmark ({mode})", "",
          "QEMU TCG guest, Debian 6.1 kernel (HZ=250, NO_HZ), 2 vCPUs; every workload "
          "pinned to cpu1.  Shares in percent of cpu1's wall time; errors in points; "
          "randstat's interval is 95% (1.96 sigma).  *normal*: ordinary guest, reference = "
          "the workload's own CPU time (CLOCK_PROCESS_CPUTIME_ID over the window), "
          "/proc/stat tick-sampled.  *nohz*: guest booted with nohz_full=1, reference = "
          "cpu1's /proc/stat user (exact, vtime).  Both guests idle with idle=poll (their "
          "timer interrupts come on time) and randstat has its default parameters "
          "(tickless).  *tickless=0*: randstat's error with the sampler always armed, same "
          "boot (A/B).  *hlt*: randstat's error in the same guest idling in hlt, against "
          "its own reference (under TCG a timer interrupt due right after a wakeup from "
          "hlt comes late: Documentation/benchmark.rst); not judged.", "",
          "| guest | workload | reference | /proc/stat user | error | randstat user (95%) | error | n | lateness us | tickless=0: error | hlt: error | per-task times() |",
          "|---|---|---|---|---|---|---|---|---|---|---|---|"]

    def err(r):
        return f"{100 * r['err_rs']:+.1f}" if r else ""
    for (g, lab), r in W.items():
        if "@" in lab or g.endswith("-hlt"):
            continue
        stat = "(= ref)" if g == "nohz" else f"{pct(r['stat_user'])}"
        es = "" if g == "nohz" else f"{100 * r['err_stat']:+.1f}"
        md.append(f"| {g} | {lab} | {pct(r['ref'])} | {stat} | {es} | {pct(r['rs_user'])} "
                  f"± {pct(r['ci95'])} | {100 * r['err_rs']:+.1f} | {r['n']} | "
                  f"{r['late_us']:.0f} | {err(W.get((g, lab + '@t0')))} | "
                  f"{err(W.get((g + '-hlt', lab)))} | {pct(r['task_share'])} |")
    md += ["", "Kernel time: randstat's and /proc/stat's *system* shares (not judged: under TCG "
           "interrupt-disabled kernel paths are long and no timer-interrupt sampler sees "
           "inside them; in the nohz guest the exact vtime system share is the truth):", "",
           "| guest | workload | /proc/stat system | randstat system | gap |", "|---|---|---|---|---|"]
    for (g, lab), r in W.items():
        if lab.startswith("sweep") or "@" in lab or g.endswith("-hlt"):
            continue
        md.append(f"| {g} | {lab} | {pct(r['stat_system'])} | {pct(r['rs_system'])} | "
                  f"{100 * (r['rs_system'] - r['stat_system']):+.2f} |")
    if cost:
        md += ["", "## Cost", "", "| what | calls | median us | p99 us | mean us | max us |",
               "|---|---|---|---|---|---|"]
        names = {"tick_sched_timer": "tick_sched_timer (ftrace)",
                 "randstat_timer_fn": "randstat_timer_fn (ftrace)",
                 "randstat_timer_fn@before": "randstat_timer_fn before: LFSR113, uniform (ftrace)",
                 "randstat_draw_interval": "randstat_draw_interval: ChaCha20, exponential (ftrace)",
                 "randstat_draw_interval@before": "randstat_draw_interval before: LFSR113, uniform (ftrace)",
                 "randstat_timer_fn@tp_off": "randstat_timer_fn, randstat:sample disabled (ftrace)",
                 "randstat_timer_fn@tp_on": "randstat_timer_fn, randstat:sample enabled (ftrace)",
                 "self": "randstat_timer_fn (own cost_hist; bucket lower bounds)",
                 "randstat_idle_probe@pingpong": "power:cpu_idle probe, under the ping-pong (ftrace)",
                 "randstat_timer_fn@pingpong": "randstat_timer_fn, under the ping-pong (ftrace)"}
        for fn, c in cost.items():
            md.append(f"| {names[fn]} | {c['n']} | {c['median'] / 1e3:.2f} | {c['p99'] / 1e3:.2f} | "
                      f"{c['mean'] / 1e3:.2f} | {c['max'] / 1e3:.2f} |")
        if "tick_sched_timer" in cost and "randstat_timer_fn" in cost:
            md.append("")
            md.append(f"randstat_timer_fn / tick_sched_timer: median "
                      f"{cost['randstat_timer_fn']['median'] / cost['tick_sched_timer']['median']:.2f}, "
                      f"mean {cost['randstat_timer_fn']['mean'] / cost['tick_sched_timer']['mean']:.2f}.")
        if tp_cmp:
            mo, mn, nr = tp_cmp
            md.append("")
            md.append(f"randstat_timer_fn with the randstat:sample event enabled / disabled "
                      f"({nr} alternating rounds of 1 s, one boot; median of the rounds' medians): "
                      f"{mn / 1e3:.2f} / {mo / 1e3:.2f} us = {mn / mo:.2f}.")
    if "default" in over:
        md += ["", f"Throughput of a CPU-bound loop on cpu1 ({over['rounds']} rounds of 2 s, "
               f"alternating; without randstat {over['base_rate']:.3g} iterations/s):", "",
               "| randstat | samples/s on cpu1 | throughput loss % (± s.e.) | callback time % |",
               "|---|---|---|---|"]
        for c, lab in (("default", "exponential, mean 4 ms"), ("x10", "exponential, mean 0.4 ms")):
            if c in over:
                o = over[c]
                md.append(f"| {lab} | {o['rate']:.0f} | {100 * o['mean']:.2f} ± {100 * o['se']:.2f} | "
                          f"{100 * o['self']:.3f} |")
    if foot:
        md += ["", "## Footprint", "",
               "The guests idling in hlt (idle=poll does not stop the tick in idle).  "
               "Local timer interrupts per second (/proc/interrupts LOC; the tick's own are the "
               "*none* column), mean of 3 rounds of 5 s with the configurations alternating. "
               "*sampled*: every CPU sampled (exact_cpus=); *exact*: the default in the "
               "nohz_full guest, cpu1 served from vtime.", "",
               "| guest | workload | CPU | none (tick) | sampled | exact |", "|---|---|---|---|---|---|"]
        for g in ("normal", "nohz"):
            for wl in ("idle", "spin", "pingpong"):
                for cpu in ("cpu0", "cpu1"):
                    row = []
                    for c in ("none", "sampled", "exact"):
                        v = foot.get((g, wl, c), {}).get(cpu, [])
                        row.append(f"{statistics.fmean(v):.1f}" if v else "")
                    if any(row):
                        md.append(f"| {g} | {wl} | {cpu} | " + " | ".join(row) + " |")
        if pp:
            md += ["", "Pipe ping-pong between cpu0 and cpu1 (each round trip an idle entry and "
                   "exit on both CPUs), round trips per second:", "",
                   "| guest | randstat | without | with | ratio (± s.e.) |", "|---|---|---|---|---|"]
            for (g, c), (m, se, a, b) in sorted(pp.items()):
                md.append(f"| {g} | {c} | {a:.0f} | {b:.0f} | {m:.3f} ± {se:.3f} |")
    # bench/pingpong.sh's table (full mode): the judged ping-pong, on the
    # faithful clock, same-CPU and cross-CPU
    try:
        ptab = open(f"{out}/pingpong.md").read().splitlines()
    except FileNotFoundError:
        ptab = []
    if ptab:
        md += ["", "## Ping-pong", ""] + ptab[2:]
    if conv_rows:
        md += ["", "## Convergence", "",
               "iso 2 ms / 8 ms on nohz_full cpu1, cumulative estimate at each checkpoint against "
               "the exact share of the whole run, over seeds (each insmod reseeds):", "",
               "| samples n | rms error (points) | theory sigma (points) | seeds |", "|---|---|---|---|"]
        for n, rms, th, m in conv_rows[::2]:
            md.append(f"| {n:.0f} | {100 * rms:.2f} | {100 * th:.2f} | {m} |")
    if oki is not None:
        md += interference(k, finterf, oki, out)
        md += cgcost(k, finterf, out)
    if rc_runs:
        md += readcost(k, rc_runs, out)
    open(f"{out}/results.md", "w").write("\n".join(md) + "\n")
    k.dump()
    sys.exit(1 if k.failed else 0)


if __name__ == "__main__":
    main()
