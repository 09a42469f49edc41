/* SPDX-License-Identifier: GPL-2.0 */
/*
 * randstat verify: the pure parts.  From what was measured over each
 * workload's window (the workload's exact runtime, /proc/stat's and
 * randstat's deltas on the CPU), the figures, the checks that a workload
 * did what it claims, the verdicts, and the text and JSON reports.  No
 * system call here: tests/test_verify.c drives it with made-up windows.
 */
#ifndef RSVJUDGE_H
#define RSVJUDGE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "rsparse.h"

/*
 * The verdict: randstat's share of the CPU for a workload (background
 * subtracted) is within RSV_NSIGMA standard deviations of the truth, plus
 * a fixed allowance in percentage points for what the statistics do not
 * cover:
 *   - the window's edges (RSV_ALLOW_EDGE_PT): the workload's runtime is
 *     the whole task's, from its fork on another CPU to its last write;
 *     the window is the two reads around it, made from another CPU.  The
 *     start-up before the task is on its CPU and the reads take well
 *     under 5 ms, which is 0.1 point of a 5 s window: 0.25 allows for a
 *     slow machine.
 *   - the background (RSV_ALLOW_BG_PT): the CPU's other work, measured
 *     over the idle stretch before and subtracted with its own sampling
 *     error, changes between then and the workload's window; a CPU busier
 *     than RSV_BUSY_PCT is refused, and 1 point is what a quiet CPU's
 *     background drifts by.
 * 4 sigma: a correct randstat fails one workload by chance about once in
 * 16,000 (two-sided normal tail), so a FAIL is worth a report.  The
 * intervals shown are 95%, as the reader's.
 */
#define RSV_NSIGMA		4.0
#define RSV_ALLOW_EDGE_PT	0.25
#define RSV_ALLOW_BG_PT		1.0
#define RSV_ALLOW_PT		(RSV_ALLOW_EDGE_PT + RSV_ALLOW_BG_PT)

/* A CPU busier than this over the check before the run is refused. */
#define RSV_BUSY_PCT		10.0

/*
 * What makes a workload what it claims (checked before it is judged):
 *   - the spin had at least RSV_SPIN_MIN_PCT of the CPU;
 *   - the job just after a tick: /proc/stat saw at most RSV_EVADED_FRAC
 *     of its runtime (else its phase slipped onto the tick);
 *   - the job in phase with the tick: /proc/stat charged it at least
 *     RSV_OVERCHARGED_FRAC times its runtime (one tick per job: 2 times);
 *   - the evader: /proc/stat saw at most RSV_EVADED_FRAC of it, and it
 *     ran one cycle per tick, HZ a second within RSV_RATE_TOL.
 */
#define RSV_SPIN_MIN_PCT	80.0
#define RSV_EVADED_FRAC		0.5
#define RSV_OVERCHARGED_FRAC	1.5
#define RSV_RATE_TOL		0.05

enum rsv_kind {
	RSV_IDLE,	/* nothing run: the background, LOC interrupts */
	RSV_SPIN,	/* all user */
	RSV_AFTER,	/* TICK/2 every 2 TICK, starting TICK/8 after a tick */
	RSV_PHASE,	/* the same, starting TICK/4 before a tick */
	RSV_EVADER,	/* computes between ticks, sleeps across each */
	RSV_NKINDS,
};

extern const char *const rsv_kind_name[RSV_NKINDS];

enum rsv_verdict {
	RSV_PASS,
	RSV_FAIL,
	RSV_NOT_JUDGED,	/* the workload did not do what it claims */
	RSV_BACKGROUND,	/* the idle stretch: measured, subtracted, not judged */
	RSV_NOT_RUN,
};

extern const char *const rsv_verdict_name[];

/* What was measured over one workload's window on the CPU. */
struct rsv_window {
	bool ran;
	double wall_ns;		/* CLOCK_MONOTONIC between the two reads */
	double truth_ns;	/* the workload's sum_exec_runtime */
	struct rs_row ticks;	/* /proc/stat's cpuN, USER_HZ ticks */
	struct rs_row samples;	/* randstat's sample counts */
	struct rs_row exact;	/* randstat's exactly charged ns */
	struct rs_sampler s;	/* randstat's sampler deltas */
	long cycles;		/* jobs run, or ticks evaded */
	double loop_ns;		/* the workload's own loop, wall time */
	bool has_loc;
	uint64_t loc;		/* LOC interrupts on the CPU */
};

/* A share of the CPU, in percent, with randstat's error. */
struct rsv_share {
	double pct;		/* the workload's classes: user, nice, system */
	double sd;		/* randstat's: its standard deviation, points */
	double lo, hi;		/* randstat's: its 95% interval */
};

struct rsv_result {
	enum rsv_kind kind;
	enum rsv_verdict verdict;
	char why[200];		/* NOT_JUDGED and FAIL: in words */
	double truth;		/* percent of the window */
	double stat, stat_err;	/* /proc/stat, background off; - truth */
	double rs, rs_err;	/* randstat, background off; - truth */
	double lo, hi;		/* randstat's 95% interval, background off */
	double sd;		/* randstat's and the background's, points */
	double bound;		/* RSV_NSIGMA sd + RSV_ALLOW_PT */
	double rate;		/* the evader's cycles a second */
	double loc_per_s;	/* LOC interrupts a second; NAN: unknown */
};

/* The machine, the module, the run: printed beside the verdicts. */
#define RSV_MAX_PARAMS	16
struct rsv_run {
	unsigned int cpu;
	unsigned int ncpus;	/* online */
	double seconds;		/* asked */
	double wall_s;		/* taken */
	int64_t tick_ns;
	int64_t phase_ns;	/* the grid's phase in CLOCK_MONOTONIC */
	char kernel[512];
	char cpu_model[128];
	bool hypervisor;
	double steal_pct;	/* on the CPU, over the run (/proc/stat) */
	unsigned int nparams;
	char param_name[RSV_MAX_PARAMS][32];
	char param_value[RSV_MAX_PARAMS][96];
	double late_mean_ns;	/* NAN: no callback */
	uint64_t late_max_ns;
	uint64_t overruns;
	uint64_t samples;
	struct rsv_window w[RSV_NKINDS];
	struct rsv_result r[RSV_NKINDS];
};

/* The workloads' classes' share of a window, by randstat and /proc/stat. */
struct rsv_share rsv_rs_share(const struct rsv_window *w);
double rsv_stat_share(const struct rsv_window *w);
/* The verdict on @err (points) with @sd: within RSV_NSIGMA sd + allowance. */
bool rsv_within(double err, double sd, double *bound);
/* Fill run->r[] from run->w[]: figures, checks, verdicts. */
void rsv_judge(struct rsv_run *run);
/* 0 all pass, 1 a FAIL, 5 a workload not judged (rsexit.h). */
int rsv_exit_code(const struct rsv_run *run);
/* The reports; return 0, or -1 if they could not be written. */
int rsv_print_text(FILE *f, const struct rsv_run *run, bool legend);
int rsv_print_json(FILE *f, const struct rsv_run *run);
/* CPU @cpu's local timer interrupts from /proc/interrupts read from @f. */
bool rsv_timer_irqs(FILE *f, unsigned int cpu, uint64_t *n);

#endif /* RSVJUDGE_H */
