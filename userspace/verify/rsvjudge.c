// SPDX-License-Identifier: GPL-2.0
/*
 * randstat verify: the figures, the checks, the verdicts and the reports
 * (rsvjudge.h has the tolerances and why).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rsjson.h"
#include "rsreport.h"
#include "rsvjudge.h"

const char *const rsv_kind_name[RSV_NKINDS] = {
	[RSV_IDLE] = "idle",
	[RSV_SPIN] = "spin",
	[RSV_AFTER] = "after-tick",
	[RSV_PHASE] = "in-phase",
	[RSV_EVADER] = "evader",
};

const char *const rsv_verdict_name[] = {
	[RSV_PASS] = "PASS",
	[RSV_FAIL] = "FAIL",
	[RSV_NOT_JUDGED] = "not judged",
	[RSV_BACKGROUND] = "background",
	[RSV_NOT_RUN] = "not run",
};

/* The classes a task's runtime is charged to: user (guest in it), nice, system. */
static uint64_t task_classes(const struct rs_row *r)
{
	return r->v[RS_USER] + r->v[RS_NICE] + r->v[RS_SYSTEM];
}

/*
 * randstat's share, as the reader's: the classes' share of the samples
 * (a binomial proportion) times the sampled time, plus their exact time,
 * over the CPU's elapsed time.  Its standard deviation is the reader's
 * 95% half-width (rs_halfwidth95(), the farther end) over 1.96; with no
 * sample, all of the sampled time is in doubt.
 */
struct rsv_share rsv_rs_share(const struct rsv_window *w)
{
	struct rsv_share sh = { NAN, NAN, NAN, NAN };
	uint64_t k = task_classes(&w->samples), n = rs_row_time(&w->samples);
	double x = task_classes(&w->exact), sampled = w->s.sampled_ns;
	double total = w->s.elapsed_ns, lo = 0, hi = 1;

	if (!total)
		return sh;
	if (n)
		rs_prop_ci95(k, n, &lo, &hi);
	sh.pct = 100.0 * ((n ? (double)k / n : 0) * sampled + x) / total;
	/* the sampled part is the module's word: at most the window, so
	 * that it can only narrow sd
	 */
	sh.sd = 100.0 * fmin(sampled, total) * (n ? rs_halfwidth95(k, n) : 1) /
		RS_Z95 / total;
	sh.lo = 100.0 * (lo * sampled + x) / total;
	sh.hi = 100.0 * (hi * sampled + x) / total;
	return sh;
}

/* /proc/stat's share of the same classes: ticks, no error of its own. */
double rsv_stat_share(const struct rsv_window *w)
{
	uint64_t total = rs_row_time(&w->ticks);

	return total ? 100.0 * task_classes(&w->ticks) / total : NAN;
}

bool rsv_within(double err, double sd, double *bound)
{
	double b = RSV_NSIGMA * sd + RSV_ALLOW_PT;

	if (bound)
		*bound = b;
	return !isnan(err) && !isnan(b) && fabs(err) <= b;
}

/* The check that a workload did what it claims: false, and why, if not. */
static bool claims_hold(const struct rsv_run *run, struct rsv_result *r)
{
	double hz = run->tick_ns ? 1e9 / run->tick_ns : NAN;

	switch (r->kind) {
	case RSV_SPIN:
		if (!(r->truth >= RSV_SPIN_MIN_PCT)) {
			snprintf(r->why, sizeof(r->why),
				 "the spin had %.2f%% of the CPU, under %.0f%%: the CPU is not free",
				 r->truth, RSV_SPIN_MIN_PCT);
			return false;
		}
		return true;
	case RSV_AFTER:
		if (!(r->stat <= RSV_EVADED_FRAC * r->truth)) {
			snprintf(r->why, sizeof(r->why),
				 "its phase slipped: the tick saw %.2f%% of its %.2f%%",
				 r->stat, r->truth);
			return false;
		}
		return true;
	case RSV_PHASE:
		if (!(r->stat >= RSV_OVERCHARGED_FRAC * r->truth)) {
			snprintf(r->why, sizeof(r->why),
				 "its phase slipped: the tick charged %.2f%% for its %.2f%%, not %.1f times",
				 r->stat, r->truth, RSV_OVERCHARGED_FRAC);
			return false;
		}
		return true;
	case RSV_EVADER:
		if (isnan(r->rate)) {
			snprintf(r->why, sizeof(r->why), "it ran no cycle: no evader ran");
			return false;
		}
		if (!(fabs(r->rate - hz) <= RSV_RATE_TOL * hz)) {
			snprintf(r->why, sizeof(r->why),
				 "it ran %.1f cycles a second, not HZ (%.0f): it does not evade",
				 r->rate, hz);
			return false;
		}
		if (!(r->stat <= RSV_EVADED_FRAC * r->truth)) {
			snprintf(r->why, sizeof(r->why),
				 "it does not evade: the tick saw %.2f%% of its %.2f%%",
				 r->stat, r->truth);
			return false;
		}
		return true;
	default:
		return true;
	}
}

void rsv_judge(struct rsv_run *run)
{
	const struct rsv_window *idle = &run->w[RSV_IDLE];
	struct rsv_share bg = { 0, 0, 0, 0 }, sh;
	double bg_stat = 0;
	int k;

	if (idle->ran) {
		bg = rsv_rs_share(idle);
		bg_stat = rsv_stat_share(idle);
	}
	for (k = 0; k < RSV_NKINDS; k++) {
		const struct rsv_window *w = &run->w[k];
		struct rsv_result *r = &run->r[k];

		memset(r, 0, sizeof(*r));
		r->kind = k;
		r->loc_per_s = w->has_loc && w->wall_ns > 0 ?
			       w->loc / (w->wall_ns / 1e9) : NAN;
		r->rate = w->loop_ns > 0 ? w->cycles / (w->loop_ns / 1e9) : NAN;
		if (!w->ran) {
			r->verdict = RSV_NOT_RUN;
			r->truth = r->stat = r->rs = r->lo = r->hi = NAN;
			r->stat_err = r->rs_err = r->sd = r->bound = NAN;
			continue;
		}
		r->truth = w->wall_ns > 0 ? 100.0 * w->truth_ns / w->wall_ns : NAN;
		sh = rsv_rs_share(w);
		if (k == RSV_IDLE) {
			/* the background itself: shown, not judged */
			r->verdict = RSV_BACKGROUND;
			r->stat = bg_stat;
			r->rs = sh.pct;
			r->lo = sh.lo;
			r->hi = sh.hi;
			r->sd = sh.sd;
			r->stat_err = r->stat - r->truth;
			r->rs_err = r->rs - r->truth;
			r->bound = NAN;
			continue;
		}
		r->stat = rsv_stat_share(w) - bg_stat;
		r->rs = sh.pct - bg.pct;
		r->lo = sh.lo - bg.pct;
		r->hi = sh.hi - bg.pct;
		/* independent samples: the variances add */
		r->sd = sqrt(sh.sd * sh.sd + bg.sd * bg.sd);
		r->stat_err = r->stat - r->truth;
		r->rs_err = r->rs - r->truth;
		if (isnan(r->rs)) {
			r->verdict = RSV_FAIL;
			snprintf(r->why, sizeof(r->why),
				 "randstat's counters for cpu%u did not advance over its window",
				 run->cpu);
			continue;
		}
		if (!claims_hold(run, r)) {
			r->verdict = RSV_NOT_JUDGED;
			rsv_within(r->rs_err, r->sd, &r->bound);
			continue;
		}
		if (rsv_within(r->rs_err, r->sd, &r->bound)) {
			r->verdict = RSV_PASS;
		} else {
			r->verdict = RSV_FAIL;
			snprintf(r->why, sizeof(r->why),
				 "randstat %.2f%% against the truth %.2f%%: off by %+.2f points, more than %.2f (%.0f sigma of %.2f, plus %.2f)",
				 r->rs, r->truth, r->rs_err, r->bound,
				 RSV_NSIGMA, r->sd, RSV_ALLOW_PT);
		}
	}
}

int rsv_exit_code(const struct rsv_run *run)
{
	bool fail = false, unjudged = false;
	int k;

	for (k = 0; k < RSV_NKINDS; k++) {
		fail |= run->r[k].verdict == RSV_FAIL;
		unjudged |= run->r[k].verdict == RSV_NOT_JUDGED ||
			    run->r[k].verdict == RSV_NOT_RUN;
	}
	return fail ? 1 : unjudged ? 5 : 0;
}

/* --- text ----------------------------------------------------------------- */

static const char *fmt_pct(char *buf, size_t size, double v, bool sign)
{
	if (isnan(v))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, sign ? "%+.2f" : "%.2f", v);
	return buf;
}

static void text_legend(FILE *f)
{
	fprintf(f,
		"Each workload ran alone on the CPU, pinned, in its own window.  Shares are\n"
		"percent of the window, of the classes a task's runtime goes to (user,\n"
		"nice, system), with the CPU's background (the idle stretch's) taken off.\n"
		"  truth       the workload's exact runtime (/proc/PID/schedstat)\n"
		"  /proc/stat  the tick's share; err: it minus the truth\n"
		"  randstat    randstat's share and its 95%% interval; err: it minus the truth\n"
		"  bound       the verdict's: %.0f sigma (randstat's and the background's)\n"
		"              plus %.2f points (window edges %.2f, background drift %.2f)\n"
		"  verdict     PASS: |err| within the bound; FAIL: outside it; not judged:\n"
		"              the workload did not do what it claims (said below)\n\n",
		RSV_NSIGMA, RSV_ALLOW_PT, RSV_ALLOW_EDGE_PT, RSV_ALLOW_BG_PT);
}

int rsv_print_text(FILE *f, const struct rsv_run *run, bool legend)
{
	char a[5][32], iv[64], bd[32];
	unsigned int i;
	int k;

	fprintf(f, "randstat verify: cpu%u (of %u online), %.1f s; HZ %.0f (tick %lld us), the tick's phase %.1f us\n",
		run->cpu, run->ncpus, run->wall_s,
		run->tick_ns ? 1e9 / run->tick_ns : 0.0,
		(long long)run->tick_ns / 1000, run->phase_ns / 1000.0);
	fprintf(f, "kernel:  %s\n", run->kernel);
	fprintf(f, "cpu:     %s; %s; steal on cpu%u %.2f%%\n", run->cpu_model,
		run->hypervisor ? "virtual (hypervisor flag)" : "no hypervisor flag",
		run->cpu, run->steal_pct);
	fprintf(f, "module:  ");
	for (i = 0; i < run->nparams; i++)
		fprintf(f, "%s%s=%s", i ? " " : "", run->param_name[i],
			run->param_value[i]);
	fprintf(f, "%s\n", run->nparams ? "" : "(no parameters readable)");
	fprintf(f, "sampler: cpu%u: %llu samples, mean lateness %s us (max %.1f us), %llu overruns (shown, not judged)\n",
		run->cpu, (unsigned long long)run->samples,
		fmt_pct(a[0], sizeof(a[0]), run->late_mean_ns / 1000.0, false),
		run->late_max_ns / 1000.0, (unsigned long long)run->overruns);
	fprintf(f, "LOC interrupts on cpu%u: %s/s idle, %s/s under the spin\n\n",
		run->cpu,
		fmt_pct(a[0], sizeof(a[0]), run->r[RSV_IDLE].loc_per_s, false),
		fmt_pct(a[1], sizeof(a[1]), run->r[RSV_SPIN].loc_per_s, false));
	if (legend)
		text_legend(f);
	fprintf(f, "%-11s %7s %10s %7s %9s %17s %7s %6s  %s\n", "workload",
		"truth", "/proc/stat", "err", "randstat", "95% interval", "err",
		"bound", "verdict");
	for (k = 0; k < RSV_NKINDS; k++) {
		const struct rsv_result *r = &run->r[k];

		if (isnan(r->lo))
			snprintf(iv, sizeof(iv), "-");
		else
			snprintf(iv, sizeof(iv), "[%.2f, %.2f]", r->lo, r->hi);
		fprintf(f, "%-11s %7s %10s %7s %9s %17s %7s %6s  %s\n",
			rsv_kind_name[k],
			fmt_pct(a[0], sizeof(a[0]), r->truth, false),
			fmt_pct(a[1], sizeof(a[1]), r->stat, false),
			fmt_pct(a[2], sizeof(a[2]), r->stat_err, true),
			fmt_pct(a[3], sizeof(a[3]), r->rs, false), iv,
			fmt_pct(a[4], sizeof(a[4]), r->rs_err, true),
			fmt_pct(bd, sizeof(bd), r->bound, false),
			rsv_verdict_name[r->verdict]);
	}
	if (!isnan(run->r[RSV_EVADER].rate))
		fprintf(f, "\nevader: %.1f cycles a second (HZ %.0f)\n",
			run->r[RSV_EVADER].rate,
			run->tick_ns ? 1e9 / run->tick_ns : 0.0);
	for (k = 0; k < RSV_NKINDS; k++)
		if (run->r[k].why[0])
			fprintf(f, "%s: %s: %s\n", rsv_kind_name[k],
				rsv_verdict_name[run->r[k].verdict],
				run->r[k].why);
	switch (rsv_exit_code(run)) {
	case 0:
		fprintf(f, "\nrandstat PASSES every workload on cpu%u.\n", run->cpu);
		break;
	case 1:
		fprintf(f, "\nrandstat FAILS on cpu%u: see above.\n", run->cpu);
		break;
	default:
		fprintf(f, "\nNot every workload could be judged on cpu%u: see above.\n",
			run->cpu);
		break;
	}
	return fflush(f) || ferror(f) ? -1 : 0;
}

/* --- JSON ----------------------------------------------------------------- */

static struct json_object *json_result(const struct rsv_result *r)
{
	struct json_object *o = json_object_new_object(), *a;

	rs_json_add(o, "name", rs_json_str(rsv_kind_name[r->kind]));
	rs_json_add(o, "verdict", rs_json_str(rsv_verdict_name[r->verdict]));
	rs_json_add(o, "why", r->why[0] ? rs_json_str(r->why) : NULL);
	rs_json_add(o, "truth_pct", rs_json_fixed(r->truth, 4));
	rs_json_add(o, "stat_pct", rs_json_fixed(r->stat, 4));
	rs_json_add(o, "stat_err", rs_json_fixed(r->stat_err, 4));
	rs_json_add(o, "randstat_pct", rs_json_fixed(r->rs, 4));
	a = NULL;
	if (!isnan(r->lo)) {
		a = json_object_new_array();
		json_object_array_add(a, rs_json_fixed(r->lo, 4));
		json_object_array_add(a, rs_json_fixed(r->hi, 4));
	}
	rs_json_add(o, "ci95", a);
	rs_json_add(o, "randstat_err", rs_json_fixed(r->rs_err, 4));
	rs_json_add(o, "sigma", rs_json_fixed(r->sd, 4));
	rs_json_add(o, "bound", rs_json_fixed(r->bound, 4));
	rs_json_add(o, "loc_per_s", rs_json_fixed(r->loc_per_s, 1));
	if (r->kind == RSV_EVADER)
		rs_json_add(o, "cycles_per_s", rs_json_fixed(r->rate, 1));
	return o;
}

int rsv_print_json(FILE *f, const struct rsv_run *run)
{
	struct json_object *o = json_object_new_object(), *x, *a;
	unsigned int i;
	int k, code = rsv_exit_code(run);

	rs_json_add(o, "version", json_object_new_int(RS_JSON_VERSION));
	rs_json_add(o, "tool", rs_json_str("randstat verify"));
	rs_json_add(o, "result", rs_json_str(code == 0 ? "PASS" :
					     code == 1 ? "FAIL" : "not judged"));
	rs_json_add(o, "cpu", json_object_new_int((int)run->cpu));
	rs_json_add(o, "online_cpus", json_object_new_int((int)run->ncpus));
	rs_json_add(o, "seconds", rs_json_fixed(run->wall_s, 3));
	rs_json_add(o, "hz", rs_json_fixed(run->tick_ns ? 1e9 / run->tick_ns : NAN, 0));
	rs_json_add(o, "tick_phase_us", rs_json_fixed(run->phase_ns / 1000.0, 1));
	rs_json_add(o, "kernel", rs_json_str(run->kernel));
	rs_json_add(o, "cpu_model", rs_json_str(run->cpu_model));
	x = json_object_new_object();
	rs_json_add(x, "hypervisor", rs_json_bool(run->hypervisor));
	rs_json_add(x, "steal_pct", rs_json_fixed(run->steal_pct, 4));
	rs_json_add(o, "virtualization", x);
	x = json_object_new_object();
	for (i = 0; i < run->nparams; i++)
		rs_json_add(x, run->param_name[i], rs_json_str(run->param_value[i]));
	rs_json_add(o, "module", x);
	x = json_object_new_object();
	rs_json_add(x, "samples", rs_json_u64(run->samples));
	rs_json_add(x, "late_mean_us", rs_json_fixed(run->late_mean_ns / 1000.0, 1));
	rs_json_add(x, "late_max_us", rs_json_fixed(run->late_max_ns / 1000.0, 1));
	rs_json_add(x, "overruns", rs_json_u64(run->overruns));
	rs_json_add(o, "sampler", x);
	x = json_object_new_object();
	rs_json_add(x, "nsigma", rs_json_fixed(RSV_NSIGMA, 1));
	rs_json_add(x, "allowance_pct", rs_json_fixed(RSV_ALLOW_PT, 2));
	rs_json_add(x, "edge_pct", rs_json_fixed(RSV_ALLOW_EDGE_PT, 2));
	rs_json_add(x, "background_pct", rs_json_fixed(RSV_ALLOW_BG_PT, 2));
	rs_json_add(o, "tolerance", x);
	a = json_object_new_array();
	for (k = 0; k < RSV_NKINDS; k++)
		json_object_array_add(a, json_result(&run->r[k]));
	rs_json_add(o, "workloads", a);
	return rs_json_print(f, o) || fflush(f) ? -1 : 0;
}

/*
 * rsv_timer_irqs - the local timer interrupts CPU @cpu has taken, from
 * /proc/interrupts as @f reads it: x86's LOC line, or on arm64 the lines
 * of the architected timer (its name last) and the broadcast timer's
 * IPIs (what wakes a CPU from an idle state that stops its timer),
 * summed.  False if the CPU's column or any such line is missing.
 */
bool rsv_timer_irqs(FILE *f, unsigned int cpu, uint64_t *n)
{
	static const char bcast[] = "Timer broadcast interrupts\n";
	char line[8192], want[32], *tok, *save, *last;
	size_t len;
	uint64_t c;
	int col = -1, i;
	bool found = false, timer;

	snprintf(want, sizeof(want), "CPU%u", cpu);
	if (fgets(line, sizeof(line), f)) {
		for (i = 0, tok = strtok_r(line, " \t\n", &save); tok;
		     i++, tok = strtok_r(NULL, " \t\n", &save))
			if (!strcmp(tok, want))
				col = i;
	}
	*n = 0;
	while (col >= 0 && fgets(line, sizeof(line), f)) {
		len = strlen(line);
		timer = len >= sizeof(bcast) - 1 &&
		      !strcmp(line + len - (sizeof(bcast) - 1), bcast);
		/* the label ("LOC:", "11:"), then a count per CPU, then names */
		tok = strtok_r(line, " \t\n", &save);
		if (!tok)
			continue;
		timer = timer || !strcmp(tok, "LOC:");
		c = 0;
		for (i = 0, last = NULL; (tok = strtok_r(NULL, " \t\n", &save)); i++) {
			if (i == col)
				c = strtoull(tok, NULL, 10);
			last = tok;
		}
		if (i <= col || !(timer || (last && !strcmp(last, "arch_timer"))))
			continue;
		*n += c;
		found = true;
	}
	return found;
}
