// SPDX-License-Identifier: GPL-2.0
/*
 * randstat verify's unit tests: the verdict's arithmetic at its bounds,
 * the checks that a workload did what it claims, the background taken
 * off, the reports (text, the JSON's shape, an unwritable output), and
 * the program's exits that need no module (usage 2, no module 3, --help
 * to /dev/full 4).  TAP.  Usage: test_verify RANDSTAT
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rsjson.h"
#include "rsreport.h"
#include "rsvjudge.h"
#include "tests/tap.h"

static const char *prog;

#define WALL	5e9		/* a window of 5 s */
#define NSAMP	1200		/* about 5 s at the default mean of 4 ms */
#define TICKS	400		/* 4 s at USER_HZ 100: checks' bounds exact */

/*
 * A window: the workload had @truth of the CPU, /proc/stat saw @stat of
 * it in user time, randstat @k of NSAMP samples in user.
 */
static void window(struct rsv_window *w, double truth, double stat, uint64_t k)
{
	memset(w, 0, sizeof(*w));
	w->ran = true;
	w->wall_ns = WALL;
	w->truth_ns = truth * WALL;
	w->ticks.v[RS_USER] = (uint64_t)lround(stat * TICKS);
	w->ticks.v[RS_IDLE] = TICKS - w->ticks.v[RS_USER];
	w->samples.v[RS_USER] = k;
	w->samples.v[RS_IDLE] = NSAMP - k;
	w->s.elapsed_ns = (uint64_t)WALL;
	w->s.sampled_ns = (uint64_t)WALL;
	w->s.samples = NSAMP;
}

/* A run where everything is as it should be at HZ 250. */
static void good_run(struct rsv_run *run)
{
	memset(run, 0, sizeof(*run));
	run->cpu = 1;
	run->ncpus = 2;
	run->seconds = 30;
	run->wall_s = 29.7;
	run->tick_ns = 4000000;
	run->phase_ns = 1234567;
	snprintf(run->kernel, sizeof(run->kernel), "Linux 6.1.0 test");
	snprintf(run->cpu_model, sizeof(run->cpu_model), "Test CPU");
	run->hypervisor = true;
	run->nparams = 2;
	snprintf(run->param_name[0], 32, "law");
	snprintf(run->param_value[0], 96, "exponential");
	snprintf(run->param_name[1], 32, "mean_ns");
	snprintf(run->param_value[1], 96, "4000000");
	run->late_mean_ns = 12345;
	run->late_max_ns = 99000;
	run->samples = 5 * NSAMP;
	window(&run->w[RSV_IDLE], 0, 0, 0);
	run->w[RSV_IDLE].has_loc = true;
	run->w[RSV_IDLE].loc = 25;
	window(&run->w[RSV_SPIN], 1, 1, NSAMP);
	run->w[RSV_SPIN].has_loc = true;
	run->w[RSV_SPIN].loc = 1250;
	window(&run->w[RSV_AFTER], 0.25, 0, NSAMP / 4);
	window(&run->w[RSV_PHASE], 0.25, 0.5, NSAMP / 4);
	window(&run->w[RSV_EVADER], 0.8, 0.02, NSAMP * 8 / 10);
	run->w[RSV_EVADER].cycles = 1250;
	run->w[RSV_EVADER].loop_ns = WALL;
}

static void t_within(void)
{
	double b, sd = 0.5;

	/* the bound: 4 sigma plus the stated allowance */
	EXPECT(rsv_within(0, sd, &b));
	EXPECT_NEAR(b, 4 * 0.5 + 1.25, 1e-12);
	EXPECT_NEAR(RSV_ALLOW_PT, RSV_ALLOW_EDGE_PT + RSV_ALLOW_BG_PT, 1e-12);
	EXPECT(rsv_within(b, sd, NULL));		/* on the bound: PASS */
	EXPECT(rsv_within(-b, sd, NULL));
	EXPECT(!rsv_within(b + 1e-9, sd, NULL));	/* past it: FAIL */
	EXPECT(!rsv_within(-b - 1e-9, sd, NULL));
	/* no error to speak of: the allowance alone */
	EXPECT(rsv_within(1.25, 0, NULL));
	EXPECT(!rsv_within(1.2501, 0, NULL));
	/* nothing measured is never a PASS */
	EXPECT(!rsv_within(NAN, sd, NULL));
	EXPECT(!rsv_within(0, NAN, NULL));
}

static void t_share(void)
{
	struct rsv_window w;
	struct rsv_share s;
	double lo, hi;

	window(&w, 0.25, 0, NSAMP / 4);
	s = rsv_rs_share(&w);
	EXPECT_NEAR(s.pct, 25.0, 1e-9);
	/* the reader's half-width over 1.96, in points */
	EXPECT_NEAR(s.sd, 100 * rs_halfwidth95(NSAMP / 4, NSAMP) / RS_Z95, 1e-9);
	rs_prop_ci95(NSAMP / 4, NSAMP, &lo, &hi);
	EXPECT_NEAR(s.lo, 100 * lo, 1e-9);
	EXPECT_NEAR(s.hi, 100 * hi, 1e-9);
	/* near binomial: sqrt(p (1 - p) / n) */
	EXPECT_NEAR(s.sd, 100 * sqrt(0.25 * 0.75 / NSAMP), 0.05);
	/* a sampled part past the window (the module's word) widens nothing */
	w.s.sampled_ns = 3 * (uint64_t)WALL;
	EXPECT_NEAR(rsv_rs_share(&w).sd, 100 * rs_halfwidth95(NSAMP / 4, NSAMP) / RS_Z95, 1e-9);
	w.s.sampled_ns = (uint64_t)WALL;
	/* nice and system are a task's too; irq is not */
	w.samples.v[RS_USER] = 100;
	w.samples.v[RS_NICE] = 100;
	w.samples.v[RS_SYSTEM] = 112;
	w.samples.v[RS_IRQ] = 10;
	w.samples.v[RS_IDLE] = NSAMP - 322;
	EXPECT_NEAR(rsv_rs_share(&w).pct, 100.0 * 312 / NSAMP, 1e-9);
	/* exact time counts as it is */
	w.exact.v[RS_SYSTEM] = (uint64_t)(WALL / 100);
	EXPECT_NEAR(rsv_rs_share(&w).pct, 100.0 * 312 / NSAMP + 1, 1e-9);
	/* no elapsed time: nothing to say */
	w.s.elapsed_ns = 0;
	EXPECT(isnan(rsv_rs_share(&w).pct));
	EXPECT_NEAR(rsv_stat_share(&w), 0, 1e-12);
}

static void t_judge_pass(void)
{
	struct rsv_run run;
	int k;

	good_run(&run);
	rsv_judge(&run);
	EXPECT(run.r[RSV_IDLE].verdict == RSV_BACKGROUND);
	for (k = RSV_SPIN; k < RSV_NKINDS; k++) {
		EXPECT(run.r[k].verdict == RSV_PASS);
		EXPECT(!run.r[k].why[0]);
	}
	EXPECT(rsv_exit_code(&run) == 0);
	EXPECT_NEAR(run.r[RSV_AFTER].truth, 25, 1e-9);
	EXPECT_NEAR(run.r[RSV_AFTER].stat_err, -25, 1e-9);
	EXPECT_NEAR(run.r[RSV_PHASE].stat_err, 25, 1e-9);
	EXPECT_NEAR(run.r[RSV_EVADER].rate, 250, 1e-9);
	EXPECT_NEAR(run.r[RSV_IDLE].loc_per_s, 5, 1e-9);
	EXPECT_NEAR(run.r[RSV_SPIN].loc_per_s, 250, 1e-9);
}

/* The verdict on a workload at the bound and just past it. */
static void t_judge_bounds(void)
{
	struct rsv_run run;
	double sd, b;
	uint64_t k;

	good_run(&run);
	rsv_judge(&run);
	sd = run.r[RSV_AFTER].sd;
	b = run.r[RSV_AFTER].bound;
	EXPECT_NEAR(b, 4 * sd + 1.25, 1e-12);
	/* samples off by more than the bound (in points of NSAMP): FAIL */
	k = NSAMP / 4 + (uint64_t)ceil((b + 0.5) / 100 * NSAMP);
	window(&run.w[RSV_AFTER], 0.25, 0, k);
	rsv_judge(&run);
	EXPECT(run.r[RSV_AFTER].verdict == RSV_FAIL);
	EXPECT(rsv_exit_code(&run) == 1);
	/* named, with the figures */
	EXPECT_HAS(run.r[RSV_AFTER].why, "against the truth 25.00%");
	EXPECT_HAS(run.r[RSV_AFTER].why, "sigma");
	/* just inside: PASS (the sd moves with k, so well inside) */
	k = NSAMP / 4 + (uint64_t)floor((b - 0.5) / 100 * NSAMP);
	window(&run.w[RSV_AFTER], 0.25, 0, k);
	rsv_judge(&run);
	EXPECT(run.r[RSV_AFTER].verdict == RSV_PASS);
	/* randstat's counters stood still: FAIL, said */
	run.w[RSV_SPIN].s.elapsed_ns = 0;
	rsv_judge(&run);
	EXPECT(run.r[RSV_SPIN].verdict == RSV_FAIL);
	EXPECT_HAS(run.r[RSV_SPIN].why, "did not advance");
}

/* The background comes off randstat's share and /proc/stat's. */
static void t_background(void)
{
	struct rsv_run run;
	double bsd;

	good_run(&run);
	/* 4% background: everything sees 4 points more */
	window(&run.w[RSV_IDLE], 0, 0.04, NSAMP * 4 / 100);
	window(&run.w[RSV_AFTER], 0.25, 0.04, NSAMP * 29 / 100);
	rsv_judge(&run);
	EXPECT(run.r[RSV_IDLE].verdict == RSV_BACKGROUND);
	EXPECT_NEAR(run.r[RSV_IDLE].rs, 4, 1e-9);
	EXPECT_NEAR(run.r[RSV_AFTER].rs, 25, 1e-9);
	EXPECT_NEAR(run.r[RSV_AFTER].stat, 0, 1e-9);
	EXPECT(run.r[RSV_AFTER].verdict == RSV_PASS);
	/* its error adds in quadrature */
	bsd = rsv_rs_share(&run.w[RSV_IDLE]).sd;
	EXPECT_NEAR(run.r[RSV_AFTER].sd,
		    sqrt(pow(rsv_rs_share(&run.w[RSV_AFTER]).sd, 2) + bsd * bsd),
		    1e-12);
	EXPECT(bsd > 0);
}

/* A workload that did not do what it claims is not judged. */
static void t_claims(void)
{
	struct rsv_run run;

	/* the job after the tick, seen by the tick: its phase slipped */
	good_run(&run);
	window(&run.w[RSV_AFTER], 0.25, 0.2, NSAMP / 4);
	rsv_judge(&run);
	EXPECT(run.r[RSV_AFTER].verdict == RSV_NOT_JUDGED);
	EXPECT_HAS(run.r[RSV_AFTER].why, "its phase slipped: the tick saw 20.00% of its 25.00%");
	EXPECT(rsv_exit_code(&run) == 5);
	/* at the check's bound (half of it seen): still judged */
	window(&run.w[RSV_AFTER], 0.25, 0.125, NSAMP / 4);
	rsv_judge(&run);
	EXPECT(run.r[RSV_AFTER].verdict == RSV_PASS);
	/* the job in phase, not overcharged */
	window(&run.w[RSV_PHASE], 0.25, 0.25, NSAMP / 4);
	rsv_judge(&run);
	EXPECT(run.r[RSV_PHASE].verdict == RSV_NOT_JUDGED);
	EXPECT_HAS(run.r[RSV_PHASE].why, "its phase slipped");
	window(&run.w[RSV_PHASE], 0.25, 0.375, NSAMP / 4);	/* 1.5 times */
	rsv_judge(&run);
	EXPECT(run.r[RSV_PHASE].verdict == RSV_PASS);
	/* an evader not at HZ */
	run.w[RSV_EVADER].cycles = 1100;	/* 220 a second */
	rsv_judge(&run);
	EXPECT(run.r[RSV_EVADER].verdict == RSV_NOT_JUDGED);
	EXPECT_HAS(run.r[RSV_EVADER].why, "it ran 220.0 cycles a second, not HZ (250)");
	run.w[RSV_EVADER].cycles = 1250 + 62;	/* within 5% */
	rsv_judge(&run);
	EXPECT(run.r[RSV_EVADER].verdict == RSV_PASS);
	/* an evader the tick sees */
	window(&run.w[RSV_EVADER], 0.8, 0.6, NSAMP * 8 / 10);
	run.w[RSV_EVADER].cycles = 1250;
	run.w[RSV_EVADER].loop_ns = WALL;
	rsv_judge(&run);
	EXPECT(run.r[RSV_EVADER].verdict == RSV_NOT_JUDGED);
	EXPECT_HAS(run.r[RSV_EVADER].why, "it does not evade: the tick saw 60.00% of its 80.00%");
	/* a spin that did not get the CPU */
	window(&run.w[RSV_SPIN], 0.7, 0.7, NSAMP * 7 / 10);
	rsv_judge(&run);
	EXPECT(run.r[RSV_SPIN].verdict == RSV_NOT_JUDGED);
	/* a FAIL outranks what was not judged */
	window(&run.w[RSV_AFTER], 0.25, 0, NSAMP / 2);
	rsv_judge(&run);
	EXPECT(rsv_exit_code(&run) == 1);
}

static char *print(int (*fn)(FILE *, const struct rsv_run *, bool),
		   const struct rsv_run *run, bool legend, int *ret)
{
	FILE *f = tmpfile();

	*ret = fn(f, run, legend);
	return tap_slurp_all(f);
}

static int json3(FILE *f, const struct rsv_run *run, bool legend)
{
	(void)legend;
	return rsv_print_json(f, run);
}

/* x86's LOC line; arm64's architected timer lines and broadcast IPIs. */
static void t_timer_irqs(void)
{
	static const char x86[] =
		"           CPU0       CPU1       \n"
		"  0:         44          0   IO-APIC   2-edge      timer\n"
		"NMI:          0          0   Non-maskable interrupts\n"
		"LOC:      12345      67890   Local timer interrupts\n"
		"ERR:          0\n";
	static const char arm64[] =
		"           CPU0       CPU1       \n"
		" 10:          0          0     GIC-0  30 Level     arch_timer\n"
		" 11:       4321       8765     GIC-0  27 Level     arch_timer\n"
		" 13:         99          0     GIC-0  33 Level     uart-pl011\n"
		"IPI0:        17         23       Rescheduling interrupts\n"
		"IPI4:         5         11       Timer broadcast interrupts\n"
		"Err:          0\n";
	static const char none[] =
		"           CPU0       CPU1       \n"
		" 13:         99          0     GIC-0  33 Level     uart-pl011\n";
	uint64_t n = 1;
	FILE *f;

	f = fmemopen((void *)x86, sizeof(x86) - 1, "r");
	EXPECT(rsv_timer_irqs(f, 1, &n) && n == 67890);
	fclose(f);
	f = fmemopen((void *)arm64, sizeof(arm64) - 1, "r");
	EXPECT(rsv_timer_irqs(f, 1, &n) && n == 8765 + 11);
	rewind(f);
	EXPECT(rsv_timer_irqs(f, 0, &n) && n == 4321 + 5);
	rewind(f);
	EXPECT(!rsv_timer_irqs(f, 2, &n));
	fclose(f);
	f = fmemopen((void *)none, sizeof(none) - 1, "r");
	EXPECT(!rsv_timer_irqs(f, 0, &n));
	fclose(f);
}

static void t_text(void)
{
	struct rsv_run run;
	char *s, row[128];
	int ret;

	good_run(&run);
	rsv_judge(&run);
	s = print(rsv_print_text, &run, true, &ret);
	EXPECT(ret == 0);
	EXPECT_HAS(s, "randstat verify: cpu1 (of 2 online), 29.7 s; HZ 250 (tick 4000 us), the tick's phase 1234.6 us\n");
	EXPECT_HAS(s, "kernel:  Linux 6.1.0 test\n");
	EXPECT_HAS(s, "cpu:     Test CPU; virtual (hypervisor flag); steal on cpu1 0.00%\n");
	EXPECT_HAS(s, "module:  law=exponential mean_ns=4000000\n");
	EXPECT_HAS(s, "mean lateness 12.35 us (max 99.0 us), 0 overruns (shown, not judged)\n");
	EXPECT_HAS(s, "LOC interrupts on cpu1: 5.00/s idle, 250.00/s under the spin\n");
	EXPECT_HAS(s, "  truth       the workload's exact runtime (/proc/PID/schedstat)\n");
	EXPECT_HAS(s, "workload      truth /proc/stat     err  randstat      95% interval     err  bound  verdict\n");
	EXPECT_HAS(s, "\nafter-tick    25.00       0.00  -25.00     25.00");
	/* the interval and the bound, each in its own column */
	snprintf(row, sizeof(row), "[%.2f, %.2f]   +0.00 %6.2f  PASS\n",
		 run.r[RSV_AFTER].lo, run.r[RSV_AFTER].hi, run.r[RSV_AFTER].bound);
	EXPECT_HAS(s, row);
	EXPECT_HAS(s, "\nidle           0.00       0.00   +0.00      0.00");
	EXPECT_HAS(s, "  PASS\n");
	EXPECT_HAS(s, "\nrandstat PASSES every workload on cpu1.\n");
	free(s);
	s = print(rsv_print_text, &run, false, &ret);
	EXPECT_HASNT(s, "  truth       the workload's");
	free(s);
	window(&run.w[RSV_AFTER], 0.25, 0, NSAMP / 2);
	rsv_judge(&run);
	s = print(rsv_print_text, &run, false, &ret);
	EXPECT_HAS(s, "after-tick: FAIL: randstat 50.00% against the truth 25.00%: off by +25.00 points");
	EXPECT_HAS(s, "\nrandstat FAILS on cpu1: see above.\n");
	free(s);
}

static void t_json(void)
{
	struct rsv_run run;
	char *s;
	int ret;

	good_run(&run);
	rsv_judge(&run);
	s = print(json3, &run, false, &ret);
	EXPECT(ret == 0);
	/* one object, one line; the keys in order */
	EXPECT(strchr(s, '\n') == s + strlen(s) - 1);
	EXPECT_HAS(s, "{\"version\":2,\"tool\":\"randstat verify\",\"result\":\"PASS\",\"cpu\":1,\"online_cpus\":2,\"seconds\":29.700,\"hz\":250,\"tick_phase_us\":1234.6,");
	EXPECT_HAS(s, "\"kernel\":\"Linux 6.1.0 test\",\"cpu_model\":\"Test CPU\",\"virtualization\":{\"hypervisor\":true,\"steal_pct\":0.0000},");
	EXPECT_HAS(s, "\"module\":{\"law\":\"exponential\",\"mean_ns\":\"4000000\"},");
	EXPECT_HAS(s, "\"sampler\":{\"samples\":6000,\"late_mean_us\":12.3,\"late_max_us\":99.0,\"overruns\":0},");
	EXPECT_HAS(s, "\"tolerance\":{\"nsigma\":4.0,\"allowance_pct\":1.25,\"edge_pct\":0.25,\"background_pct\":1.00},");
	EXPECT_HAS(s, "\"workloads\":[{\"name\":\"idle\",\"verdict\":\"background\",\"why\":null,\"truth_pct\":0.0000,");
	EXPECT_HAS(s, "{\"name\":\"after-tick\",\"verdict\":\"PASS\",\"why\":null,\"truth_pct\":25.0000,\"stat_pct\":0.0000,\"stat_err\":-25.0000,\"randstat_pct\":25.0000,\"ci95\":[");
	EXPECT_HAS(s, "\"name\":\"evader\",");
	EXPECT_HAS(s, "\"cycles_per_s\":250.0}]}\n");
	free(s);
	/* a FAIL: result, verdict and why */
	window(&run.w[RSV_AFTER], 0.25, 0, NSAMP / 2);
	window(&run.w[RSV_EVADER], 0.8, 0.6, NSAMP * 8 / 10);
	rsv_judge(&run);
	s = print(json3, &run, false, &ret);
	EXPECT_HAS(s, "\"result\":\"FAIL\",");
	EXPECT_HAS(s, "{\"name\":\"after-tick\",\"verdict\":\"FAIL\",\"why\":\"randstat 50.00% against the truth 25.00%");
	EXPECT_HAS(s, "{\"name\":\"evader\",\"verdict\":\"not judged\",\"why\":\"it ran no cycle: no evader ran\",");
	free(s);
}

/* An output that cannot be written is said by the return. */
static void t_full(void)
{
	struct rsv_run run;
	FILE *f;

	good_run(&run);
	rsv_judge(&run);
	f = fopen("/dev/full", "w");
	EXPECT(f && rsv_print_json(f, &run) == -1);
	if (f)
		fclose(f);
	f = fopen("/dev/full", "w");
	EXPECT(f && rsv_print_text(f, &run, true) == -1);
	if (f)
		fclose(f);
}

/* --- the program ----------------------------------------------------------- */

struct result {
	int status;
	char out[8192];
	char err[8192];
};

static void run_prog(struct result *r, const char *out_path,
		     const char *const *args)
{
	const char *argv[16] = { prog };
	FILE *out, *err;
	int argc = 1;

	for (; *args && argc < 15; args++)
		argv[argc++] = *args;
	r->status = tap_run(prog, argv, -1, out_path, &out, &err);
	tap_slurp(out, r->out, sizeof(r->out));
	tap_slurp(err, r->err, sizeof(r->err));
}

#define RUN(r, ...) run_prog(r, NULL, (const char *const[]){ __VA_ARGS__, NULL })

static void t_prog_usage(void)
{
	static const struct {
		const char *args[5];
		const char *msg;
	} bad[] = {
		{ { "verify", "-x" }, "unknown option or missing argument: -x" },
		{ { "verify", "--cpu" }, "unknown option or missing argument: --cpu" },
		{ { "verify", "--cpu", "x" }, "--cpu takes a CPU number: 'x'" },
		{ { "verify", "--cpu", "-1" }, "--cpu takes a CPU number: '-1'" },
		{ { "verify", "--cpu", "99999" }, "--cpu takes a CPU number below 1024: '99999'" },
		{ { "verify", "--seconds", "4" }, "--seconds takes a plain decimal number of seconds from 5 to 3600: '4'" },
		{ { "verify", "--seconds", "3601" }, "--seconds takes a plain decimal number of seconds from 5 to 3600: '3601'" },
		{ { "verify", "--seconds", "1e2" }, "--seconds takes a plain decimal number of seconds from 5 to 3600: '1e2'" },
		{ { "verify", "now" }, "takes no arguments: now" },
	};
	struct result r;
	char want[256];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		run_prog(&r, NULL, bad[i].args);
		snprintf(want, sizeof(want), "randstat verify: %s\n", bad[i].msg);
		EXPECT(r.status == 2);
		EXPECT_HAS(r.err, want);
		EXPECT_HAS(r.err, "Try 'randstat verify --help'.\n");
		EXPECT(!r.out[0]);
	}
	RUN(&r, "verify", "--help");
	EXPECT(r.status == 0 && !r.err[0]);
	EXPECT_HAS(r.out, "Usage: randstat verify [--cpu N] [--seconds S] [--json] [--no-legend]\n");
	/* it names the truth it judges against */
	EXPECT_HAS(r.out, "kernel's per-task runtime (/proc/PID/schedstat, sum_exec_runtime)");
	EXPECT_HAS(r.out, "Exit status: 0 every workload passed, 1 a workload failed");
	RUN(&r, "--help");
	EXPECT_HAS(r.out, "       randstat verify [--cpu N] [--seconds S] [--json] [--no-legend]\n");
}

static void t_prog_no_module(void)
{
	struct result r;

	RUN(&r, "verify", "--randstat", "/nonexistent/randstat_detail", "--json");
	EXPECT(r.status == 3 && !r.out[0]);
	EXPECT_HAS(r.err, "randstat verify: /proc/randstat_detail does not exist: the randstat module is not loaded.\n");
	EXPECT_HAS(r.err, "  Load it with:            sudo modprobe randstat\n");
	/* arguments are judged first */
	RUN(&r, "verify", "--randstat", "/nonexistent/randstat_detail", "--seconds", "1");
	EXPECT(r.status == 2);
}

static void t_prog_full(void)
{
	struct result r;

	run_prog(&r, "/dev/full", (const char *const[]){ "verify", "--help", NULL });
	EXPECT(r.status == 4);
	EXPECT_HAS(r.err, "randstat verify: writing the output: No space left on device\n");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s RANDSTAT\n", argv[0]);
		return 2;
	}
	prog = argv[1];
	puts("TAP version 13");

	tap_test("verify: the bound, 4 sigma plus 1.25 points, at its edges", t_within);
	tap_test("verify: randstat's share, sd and 95% interval", t_share);
	tap_test("verify: a good run passes every workload", t_judge_pass);
	tap_test("verify: just past the bound FAIL, inside PASS", t_judge_bounds);
	tap_test("verify: the background taken off, its error added", t_background);
	tap_test("verify: a workload not doing what it claims is not judged", t_claims);
	tap_test("verify: local timer interrupts from x86's and arm64's /proc/interrupts", t_timer_irqs);
	tap_test("verify: text report", t_text);
	tap_test("verify: JSON shape", t_json);
	tap_test("verify: the reports to /dev/full fail", t_full);
	tap_test("randstat verify: bad arguments exit 2; --help", t_prog_usage);
	tap_test("randstat verify: no module, exit 3 and how to load it", t_prog_no_module);
	if (access("/dev/full", W_OK))
		tap_skip("randstat verify --help > /dev/full: exit 4", "no /dev/full");
	else
		tap_test("randstat verify --help > /dev/full: exit 4", t_prog_full);
	return tap_done();
}
