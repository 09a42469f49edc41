// SPDX-License-Identifier: GPL-2.0
/*
 * randstat reader: the arithmetic.
 *
 * Each class's share is taken of its own source's total, the sum of the
 * first eight columns (guest is already inside user, guest_nice inside
 * nice).  Each sample of randstat falls in class k with probability p_k,
 * so the sample proportion is binomial; its 95% interval is Clopper and
 * Pearson's (Wilson's for large counts, rs_prop_ci95()), which holds at
 * p^ = 0 or 1 and at a single sample, where the normal approximation's
 * 1.96 sqrt(p^ (1 - p^) / n) is 0.  randstat's shares come from the sample
 * counts of the interval (the module's estimator: every sample weighs the
 * same), times the CPU's sampled time, plus its exact time, which adds
 * nothing to the interval.  A CPU's interval is the proportion's, so
 * lopsided near 0 and 1 (rs_line's lo and hi); the all row adds the CPUs'
 * variances, each CPU's taken as (its half-width / 1.96)^2 (a normal sum
 * over CPUs), cut to what the class can be.
 * Steal is read from the kernel's steal clock, not sampled, so it has no
 * interval.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rsreport.h"

/* Clopper-Pearson's interval below this many samples in or out of a class */
#define CP_EXACT_MAX		50

/* A difference smaller than this does not show in the printed digits. */
#define RS_PRINT_RESOLUTION	0.005

const char *const rs_disp_name[RS_NDISP] = {
	"usr", "nice", "sys", "iowait", "irq", "soft", "steal", "guest",
	"gnice", "idle",
};

const char *const rs_col_name[RS_NCOLS] = {
	"user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal",
	"guest", "guest_nice",
};

/* What one row of a report is made of. */
struct rs_sums {
	bool has_rs;
	bool has_stat;
	struct rs_row ns;
	struct rs_row samples;
	struct rs_row exact;
	struct rs_row ticks;
	struct rs_sampler s;
	double est[RS_NDISP];	/* randstat's estimate of each class, ns */
	double var[RS_NDISP];	/* its variance, ns^2 */
	double lo[RS_NDISP];	/* the ends of its 95% interval, ns */
	double hi[RS_NDISP];
	unsigned int nparts;	/* CPUs with randstat's figures added in */
};

/* The binomial law's P(X <= k), n trials of chance p, k < CP_EXACT_MAX. */
static double binom_cdf(uint64_t k, uint64_t n, double p)
{
	double lp = log(p), lq = log1p(-p), l[CP_EXACT_MAX], m, lc, sum = 0;
	uint64_t j;

	if (p <= 0)
		return 1;
	if (p >= 1)
		return k >= n ? 1 : 0;
	/*
	 * The terms C(n, j) p^j q^(n-j) in logs (no underflow for large n),
	 * log C(n, j) a sum of j small logs: no cancellation of lgamma(n)'s.
	 */
	for (j = 0, lc = 0; j <= k; j++) {
		l[j] = lc + j * lp + (n - j) * lq;
		lc += log((double)(n - j)) - log(j + 1.0);
	}
	for (m = l[0], j = 1; j <= k; j++)
		m = fmax(m, l[j]);
	for (j = 0; j <= k; j++)
		sum += exp(l[j] - m);
	return fmin(1, exp(m + log(sum)));
}

/* The p at which P(X <= k) = target; P(X <= k) falls as p grows. */
static double binom_solve(uint64_t k, uint64_t n, double target)
{
	double lo = 0, hi = 1, mid;
	int i;

	for (i = 0; i < 60; i++) {
		mid = (lo + hi) / 2;
		if (binom_cdf(k, n, mid) > target)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/**
 * rs_prop_ci95() - the 95% interval of a binomial proportion
 * @k: successes (samples in the class)
 * @n: trials (samples in all), at least 1
 * @lo: out: the lower end, a fraction
 * @hi: out: the upper end
 *
 * Clopper and Pearson's exact interval where k or n - k is below
 * CP_EXACT_MAX: the p for which k or more, or k or fewer, successes have
 * a chance of 2.5%; it covers the true p at least 95% of the time
 * whatever p and n, so it holds at p^ = 0 or 1 and at n = 1 (at k = 0
 * it is [0, 1 - 0.025^(1/n)]).  Where both are CP_EXACT_MAX or more,
 * Wilson's score interval, which is then within 1% of it and cheaper
 * (Brown, Cai and DasGupta, Statist. Sci. 16 (2001): its coverage dips
 * below 95% only for small k or n - k).
 */
void rs_prop_ci95(uint64_t k, uint64_t n, double *lo, double *hi)
{
	double p, z2, c, h, a, b;
	uint64_t m = k < n - k ? k : n - k;

	if (m < CP_EXACT_MAX) {
		/* solve for the smaller count; the other end by symmetry */
		a = m ? binom_solve(m - 1, n, 1 - 0.025) : 0;
		b = binom_solve(m, n, 0.025);
		*lo = k == m ? a : 1 - b;
		*hi = k == m ? b : 1 - a;
		return;
	}
	p = (double)k / n;
	z2 = RS_Z95 * RS_Z95;
	c = (p + z2 / (2.0 * n)) / (1 + z2 / n);
	h = RS_Z95 / (1 + z2 / n) * sqrt(p * (1 - p) / n + z2 / (4.0 * n * n));
	*lo = c - h;
	*hi = c + h;
}

/**
 * rs_halfwidth95() - half-width of the 95% interval of a proportion
 * @k: samples in the class
 * @n: samples in all
 *
 * Return: the distance from p^ = k / n to the farther end of
 * rs_prop_ci95()'s interval, as a fraction, so that p^ +- it holds that
 * interval (and covers p at least as often); NAN when there is no sample.
 */
double rs_halfwidth95(uint64_t k, uint64_t n)
{
	double p, lo, hi;

	if (!n)
		return NAN;
	p = (double)k / n;
	rs_prop_ci95(k, n, &lo, &hi);
	return fmax(p - lo, hi - p);
}

static uint64_t sat_sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/* A cpu row in mpstat's columns: usr and nice without their guest part. */
void rs_disp(const struct rs_row *r, uint64_t d[RS_NDISP])
{
	d[RS_D_USR] = sat_sub(r->v[RS_USER], r->v[RS_GUEST]);
	d[RS_D_NICE] = sat_sub(r->v[RS_NICE], r->v[RS_GUEST_NICE]);
	d[RS_D_SYS] = r->v[RS_SYSTEM];
	d[RS_D_IOWAIT] = r->v[RS_IOWAIT];
	d[RS_D_IRQ] = r->v[RS_IRQ];
	d[RS_D_SOFT] = r->v[RS_SOFTIRQ];
	d[RS_D_STEAL] = r->v[RS_STEAL];
	d[RS_D_GUEST] = r->v[RS_GUEST];
	d[RS_D_GNICE] = r->v[RS_GUEST_NICE];
	d[RS_D_IDLE] = r->v[RS_IDLE];
}

/* Each class's percent of the row's time; NAN if the row has none. */
void rs_shares(const struct rs_row *r, double pct[RS_NDISP])
{
	uint64_t d[RS_NDISP], total = rs_row_time(r);
	int i;

	rs_disp(r, d);
	for (i = 0; i < RS_NDISP; i++)
		pct[i] = total ? 100.0 * d[i] / total : NAN;
}

/**
 * rs_estimate() - randstat's time per class, and its variance
 * @samples: one CPU's sample counts (over a report's window)
 * @exact: its time charged exactly, ns
 * @sampled_ns: the time its samples cover and share
 * @est: out: each displayed class's time, ns
 * @var: out: its variance, ns^2 (0 for exact time)
 *
 * Class k's time is k's share of the samples times the sampled time,
 * plus its exact time (format 3: steal, a dormant CPU's idle and iowait,
 * every class of a CPU in mode exact).  The share of the samples is a
 * binomial proportion; @var is (S h / 1.96)^2, S the sampled time and h
 * rs_halfwidth95() of the counts, so 1.96 sqrt(@var) is that interval's
 * half-width in ns.  With no sample, the share of the sampled time is
 * unknown: h is 1.
 */
void rs_estimate(const struct rs_row *samples, const struct rs_row *exact,
		 uint64_t sampled_ns, double est[RS_NDISP],
		 double var[RS_NDISP])
{
	uint64_t k[RS_NDISP], x[RS_NDISP], n = rs_row_time(samples);
	double p, sd;
	int i;

	rs_disp(samples, k);
	rs_disp(exact, x);
	for (i = 0; i < RS_NDISP; i++) {
		p = n ? (double)k[i] / n : 0;
		est[i] = p * sampled_ns + x[i];
		sd = sampled_ns * (n ? rs_halfwidth95(k[i], n) : 1) / RS_Z95;
		var[i] = sd * sd;
	}
}

/**
 * rs_row_sub() - the change of a row between two reads
 * @a: the earlier read
 * @b: the later read
 * @d: b - a, each column at least 0
 *
 * Return: a mask, bit i set if column i went down.
 */
unsigned int rs_row_sub(const struct rs_row *a, const struct rs_row *b,
			struct rs_row *d)
{
	unsigned int down = 0;
	int i;

	for (i = 0; i < RS_NCOLS; i++) {
		if (b->v[i] < a->v[i])
			down |= 1u << i;
		d->v[i] = sat_sub(b->v[i], a->v[i]);
	}
	return down;
}

static void row_add(struct rs_row *acc, const struct rs_row *r)
{
	int i;

	for (i = 0; i < RS_NCOLS; i++)
		acc->v[i] += r->v[i];
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* The sampler's counts between two reads; maxima stay since the start. */
static void sampler_sub(const struct rs_sampler *a, const struct rs_sampler *b,
			struct rs_sampler *d)
{
	*d = *b;
	d->elapsed_ns = sat_sub(b->elapsed_ns, a->elapsed_ns);
	d->sampled_ns = sat_sub(b->sampled_ns, a->sampled_ns);
	d->samples = sat_sub(b->samples, a->samples);
	d->overruns = sat_sub(b->overruns, a->overruns);
	d->dormancies = sat_sub(b->dormancies, a->dormancies);
	d->cost_ns = sat_sub(b->cost_ns, a->cost_ns);
	d->late_ns = sat_sub(b->late_ns, a->late_ns);
}

static void sampler_add(struct rs_sampler *acc, const struct rs_sampler *s)
{
	acc->online |= s->online;
	acc->exact |= s->exact;
	acc->dormant |= s->dormant;
	acc->elapsed_ns += s->elapsed_ns;
	acc->sampled_ns += s->sampled_ns;
	acc->samples += s->samples;
	acc->overruns += s->overruns;
	acc->dormancies += s->dormancies;
	acc->cost_ns += s->cost_ns;
	acc->late_ns += s->late_ns;
	acc->cost_max_ns = max_u64(acc->cost_max_ns, s->cost_max_ns);
	acc->late_max_ns = max_u64(acc->late_max_ns, s->late_max_ns);
}

/*
 * One CPU's estimate: each CPU's samples share its own sampled time.  Its
 * interval is the proportion's (rs_prop_ci95(): lopsided near 0 and 1)
 * times the sampled time, plus the exact time; with no sample, all of
 * the sampled time or none of it.
 */
static void sums_estimate(struct rs_sums *one)
{
	uint64_t k[RS_NDISP], x[RS_NDISP], n = rs_row_time(&one->samples);
	double lo, hi, sampled = one->s.sampled_ns;
	int i;

	rs_estimate(&one->samples, &one->exact, one->s.sampled_ns, one->est,
		    one->var);
	rs_disp(&one->samples, k);
	rs_disp(&one->exact, x);
	for (i = 0; i < RS_NDISP; i++) {
		lo = 0;
		hi = 1;
		if (n)
			rs_prop_ci95(k[i], n, &lo, &hi);
		one->lo[i] = lo * sampled + x[i];
		one->hi[i] = hi * sampled + x[i];
	}
	one->nparts = 1;
}

/*
 * The all row's interval: of one CPU, that CPU's; of several, the normal
 * sum's, est +- 1.96 sqrt(var), cut to what the class can be, its exact
 * time to that plus all the sampled time (no class takes less or more).
 */
static void sums_bounds(struct rs_sums *all)
{
	uint64_t x[RS_NDISP];
	double sd;
	int i;

	if (all->nparts == 1)
		return;
	rs_disp(&all->exact, x);
	for (i = 0; i < RS_NDISP; i++) {
		sd = sqrt(all->var[i]);
		all->lo[i] = fmax(all->est[i] - RS_Z95 * sd, (double)x[i]);
		all->hi[i] = fmin(all->est[i] + RS_Z95 * sd,
				  (double)x[i] + all->s.sampled_ns);
	}
}

/* The all row: the CPUs' estimates and variances add up. */
static void sums_add(struct rs_sums *acc, const struct rs_sums *in)
{
	int i;

	acc->has_rs |= in->has_rs;
	acc->has_stat |= in->has_stat;
	row_add(&acc->ns, &in->ns);
	row_add(&acc->samples, &in->samples);
	row_add(&acc->exact, &in->exact);
	row_add(&acc->ticks, &in->ticks);
	sampler_add(&acc->s, &in->s);
	for (i = 0; i < RS_NDISP; i++) {
		acc->est[i] += in->est[i];
		acc->var[i] += in->var[i];
		if (!acc->nparts) {	/* one CPU: its own interval */
			acc->lo[i] = in->lo[i];
			acc->hi[i] = in->hi[i];
		}
	}
	acc->nparts += in->nparts;
}

/*
 * Is /proc/stat's share outside randstat's interval [lo, hi], by more
 * than the printed digits show?
 */
static bool is_outside(double rs, double lo, double hi, double st)
{
	if (isnan(rs) || isnan(lo) || isnan(hi) || isnan(st))
		return false;
	return st < fmin(lo, rs - RS_PRINT_RESOLUTION) ||
	       st > fmax(hi, rs + RS_PRINT_RESOLUTION);
}

/*
 * Do randstat and /proc/stat cover the same span?  Between two reads,
 * yes: both are deltas.  Since the start, randstat counts from its load
 * or reset and /proc/stat from boot; they cover the same time only if
 * their seconds agree to /proc/stat's resolution, a tick truncated per
 * CPU and per column (RS_NTIME of them).  Else a share of one is no
 * measure of the other's error, and nothing is marked.
 */
static bool same_span(const struct rs_line *l, bool interval,
		      unsigned int ncpu, uint64_t user_hz)
{
	if (interval)
		return true;
	if (isnan(l->rs_seconds) || isnan(l->stat_seconds) || !user_hz)
		return false;
	return fabs(l->rs_seconds - l->stat_seconds) <=
	       (double)ncpu * RS_NTIME / user_hz;
}

static void line_fill(struct rs_line *l, int cpu, const struct rs_sums *in,
		      uint64_t user_hz, bool interval, unsigned int ncpu)
{
	double el = in->s.elapsed_ns;
	int i;

	memset(l, 0, sizeof(*l));
	l->cpu = cpu;
	l->has_rs = in->has_rs;
	l->has_stat = in->has_stat;
	l->n = in->has_rs ? rs_row_time(&in->samples) : 0;
	l->rs_seconds = in->has_rs ? rs_row_time(&in->ns) / 1e9 : NAN;
	l->stat_seconds = in->has_stat ?
			  (double)rs_row_time(&in->ticks) / user_hz : NAN;
	l->s = in->s;
	l->compared = same_span(l, interval, ncpu, user_hz);
	rs_shares(&in->ticks, l->st);
	for (i = 0; i < RS_NDISP; i++) {
		/* share: estimate over elapsed; its interval's ends so too */
		bool ci = in->has_rs && el > 0 && i != RS_D_STEAL;

		l->rs[i] = in->has_rs && el > 0 ? 100 * in->est[i] / el : NAN;
		l->lo[i] = ci ? 100 * in->lo[i] / el : NAN;
		l->hi[i] = ci ? 100 * in->hi[i] / el : NAN;
		l->hw[i] = ci ? fmax(l->rs[i] - l->lo[i], l->hi[i] - l->rs[i]) :
			   NAN;
		if (!in->has_stat)
			l->st[i] = NAN;
		l->outside[i] = l->compared &&
				is_outside(l->rs[i], l->lo[i], l->hi[i],
					   l->st[i]);
	}
}

static int add_note(struct rs_report *rep, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int add_note(struct rs_report *rep, const char *fmt, ...)
{
	char buf[256], **notes, *s;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	s = strdup(buf);
	notes = s ? realloc(rep->notes, (rep->nnotes + 1) * sizeof(*notes)) :
		    NULL;
	if (!notes) {
		free(s);
		return -1;
	}
	notes[rep->nnotes++] = s;
	rep->notes = notes;
	return 0;
}

static int add_line(struct rs_report *rep, int cpu, const struct rs_sums *in,
		    uint64_t user_hz)
{
	struct rs_line *lines;

	lines = realloc(rep->lines, (rep->nlines + 1) * sizeof(*lines));
	if (!lines)
		return -1;
	rep->lines = lines;
	line_fill(&lines[rep->nlines++], cpu, in, user_hz, rep->interval, 1);
	return 0;
}

/* The all row goes first: make room for it, filled in at the end. */
static int reserve_all(struct rs_report *rep)
{
	struct rs_sums none;

	memset(&none, 0, sizeof(none));
	return add_line(rep, RS_ALL, &none, 1);
}

static void report_init(struct rs_report *rep, bool interval,
			const struct rs_snap *rs)
{
	memset(rep, 0, sizeof(*rep));
	rep->interval = interval;
	rep->law = rs->law;
	rep->floor_ns = rs->floor_ns;
	rep->mean_ns = rs->mean_ns;
	rep->tmin_ns = rs->tmin_ns;
	rep->tmax_ns = rs->tmax_ns;
}

static unsigned int max_ncpu(const struct rs_snap *a, const struct rs_snap *b)
{
	return a->ncpu > b->ncpu ? a->ncpu : b->ncpu;
}

static bool listed(const struct rs_snap *s, unsigned int cpu)
{
	const struct rs_cpu *c = rs_snap_cpu(s, cpu);

	return c && c->listed;
}

static bool counted(const struct rs_snap *s, unsigned int cpu)
{
	const struct rs_cpu *c = rs_snap_cpu(s, cpu);

	return c && c->counted;
}

/* randstat's numbers of one CPU since its counters started. */
static void sums_of_randstat(struct rs_sums *out, const struct rs_cpu *c)
{
	out->has_rs = true;
	out->ns = c->ns;
	out->samples = c->samples;
	out->exact = c->exact;
	out->s = c->s;
	sums_estimate(out);
}

/* Is a CPU of a since-start report shown, and what is said about it? */
static int since_start_cpu(struct rs_report *rep, const struct rs_snap *stat,
			   const struct rs_snap *rs, unsigned int i,
			   struct rs_sums *all)
{
	bool in_stat = listed(stat, i), in_rs = listed(rs, i);
	struct rs_sums one;

	memset(&one, 0, sizeof(one));
	if (counted(rs, i)) {
		sums_of_randstat(&one, rs_snap_cpu(rs, i));
		sums_add(all, &one);
	}
	if (!in_stat && !in_rs)
		return one.s.samples ?
		       add_note(rep, "cpu%u is offline: no row of its own, its time so far stays in the all row",
				i) : 0;
	if (in_stat != in_rs &&
	    add_note(rep, "cpu%u is in the cpu lines of %s only (it went offline or online between the two reads)",
		     i, in_stat ? "/proc/stat" : "/proc/randstat"))
		return -1;
	one.has_stat = in_stat;
	if (in_stat)
		one.ticks = rs_snap_cpu(stat, i)->ticks;
	return add_line(rep, i, &one, rs->user_hz);
}

/**
 * rs_report_since_start() - shares since the counters started
 * @rep: the report, to free with rs_report_free()
 * @stat: /proc/stat (since boot)
 * @rs: /proc/randstat (since load or reset)
 *
 * A row for each CPU online in either file; the all row sums randstat over
 * every CPU it has counters for, and takes /proc/stat's cpu line, which
 * also sums every possible CPU.  A row whose two sources cover different
 * spans (same_span()) has no marks, and the report a note saying so.
 *
 * Return: 0, or -1 out of memory.
 */
int rs_report_since_start(struct rs_report *rep, const struct rs_snap *stat,
			  const struct rs_snap *rs)
{
	struct rs_sums all;
	unsigned int i;

	report_init(rep, false, rs);
	memset(&all, 0, sizeof(all));
	if (reserve_all(rep))
		return -1;
	for (i = 0; i < max_ncpu(stat, rs); i++)
		if (since_start_cpu(rep, stat, rs, i, &all))
			return -1;
	all.has_stat = true;
	all.ticks = stat->all;
	sums_bounds(&all);
	line_fill(&rep->lines[0], RS_ALL, &all, rs->user_hz, false,
		  max_ncpu(stat, rs));
	for (i = 0; i < rep->nlines; i++)
		if (rep->lines[i].has_rs && rep->lines[i].has_stat &&
		    !rep->lines[i].compared)
			break;
	if (i < rep->nlines &&
	    add_note(rep, "the spans differ: randstat covers %.3f s (since it was loaded or reset), /proc/stat %.3f s (since boot), so no share is marked; 'randstat INTERVAL' compares the same span",
		     rep->lines[0].rs_seconds, rep->lines[0].stat_seconds))
		return -1;
	return 0;
}

static bool u64s_went_down(const uint64_t *a, const uint64_t *b,
			   unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (b[i] < a[i])
			return true;
	return false;
}

static bool cpu_went_down(const struct rs_cpu *a, const struct rs_cpu *b)
{
	const struct rs_sampler *sa = &a->s, *sb = &b->s;
	const uint64_t va[] = { sa->elapsed_ns, sa->sampled_ns, sa->samples,
				sa->overruns, sa->dormancies, sa->cost_ns,
				sa->cost_max_ns, sa->late_ns, sa->late_max_ns };
	const uint64_t vb[] = { sb->elapsed_ns, sb->sampled_ns, sb->samples,
				sb->overruns, sb->dormancies, sb->cost_ns,
				sb->cost_max_ns, sb->late_ns, sb->late_max_ns };

	return u64s_went_down(a->ns.v, b->ns.v, RS_NCOLS) ||
	       u64s_went_down(a->samples.v, b->samples.v, RS_NCOLS) ||
	       u64s_went_down(a->exact.v, b->exact.v, RS_NCOLS) ||
	       u64s_went_down(va, vb, sizeof(va) / sizeof(va[0]));
}

/**
 * rs_randstat_went_down() - were the counters reset between two reads?
 * @a: the earlier read
 * @b: the later read
 *
 * Return: true if any counter of any CPU went down, or a CPU's counters
 * disappeared (the module was reloaded).
 */
bool rs_randstat_went_down(const struct rs_snap *a, const struct rs_snap *b)
{
	unsigned int i;

	for (i = 0; i < a->ncpu; i++) {
		if (!a->cpu[i].counted)
			continue;
		if (!counted(b, i) ||
		    cpu_went_down(&a->cpu[i], &b->cpu[i]))
			return true;
	}
	return false;
}

/* /proc/stat columns that went down: said, and counted as 0. */
static int note_stat_down(struct rs_report *rep, unsigned int cpu,
			  unsigned int down, const struct rs_row *a,
			  const struct rs_row *b)
{
	int i;

	for (i = 0; i < RS_NCOLS; i++)
		if (down & 1u << i &&
		    add_note(rep, "/proc/stat: cpu%u %s went down by %llu ticks (a kernel quirk); counted as 0",
			     cpu, rs_col_name[i],
			     (unsigned long long)(a->v[i] - b->v[i])))
			return -1;
	return 0;
}

/* Each CPU of an interval report: a row if online at both reads. */
static int interval_cpu(struct rs_report *rep,
			const struct rs_snap *const snap[4], unsigned int i,
			struct rs_sums *all)
{
	bool on0 = listed(snap[0], i) && listed(snap[1], i);
	bool on1 = listed(snap[2], i) && listed(snap[3], i);
	bool any0 = listed(snap[0], i) || listed(snap[1], i);
	bool any1 = listed(snap[2], i) || listed(snap[3], i);
	const struct rs_cpu *r0, *r1, *s0, *s1;
	struct rs_sums one;
	unsigned int down;

	if (!on0 || !on1) {
		if (on0 && !any1)
			return add_note(rep, "cpu%u went offline between the two reads: not shown",
					i);
		if (!any0 && on1)
			return add_note(rep, "cpu%u came online between the two reads: not shown",
					i);
		if (any0 || any1)
			return add_note(rep, "cpu%u went offline or online during a read: not shown",
					i);
		return 0;
	}
	s0 = rs_snap_cpu(snap[0], i);
	r0 = rs_snap_cpu(snap[1], i);
	s1 = rs_snap_cpu(snap[2], i);
	r1 = rs_snap_cpu(snap[3], i);
	if (r0->s.exact != r1->s.exact &&
	    add_note(rep, "cpu%u changed mode between the two reads (%s, then %s): its figures are part exact, part sampled",
		     i, r0->s.exact ? "exact" : "sampled",
		     r1->s.exact ? "exact" : "sampled"))
		return -1;
	memset(&one, 0, sizeof(one));
	one.has_rs = one.has_stat = true;
	rs_row_sub(&r0->ns, &r1->ns, &one.ns);
	rs_row_sub(&r0->samples, &r1->samples, &one.samples);
	rs_row_sub(&r0->exact, &r1->exact, &one.exact);
	sampler_sub(&r0->s, &r1->s, &one.s);
	sums_estimate(&one);
	down = rs_row_sub(&s0->ticks, &s1->ticks, &one.ticks);
	if (note_stat_down(rep, i, down, &s0->ticks, &s1->ticks))
		return -1;
	sums_add(all, &one);
	return add_line(rep, i, &one, snap[3]->user_hz);
}

/**
 * rs_report_interval() - shares over the interval between two reads
 * @rep: the report, to free with rs_report_free()
 * @stat0: /proc/stat at the first read
 * @rs0: /proc/randstat at the first read
 * @stat1: /proc/stat at the second read
 * @rs1: /proc/randstat at the second read
 *
 * A row for each CPU online at both reads in both files, and the all row
 * summing those rows.  If randstat's counters went down, the report has a
 * note and no row.
 *
 * Return: 0, or -1 out of memory.
 */
int rs_report_interval(struct rs_report *rep, const struct rs_snap *stat0,
		       const struct rs_snap *rs0, const struct rs_snap *stat1,
		       const struct rs_snap *rs1)
{
	const struct rs_snap *const snap[4] = { stat0, rs0, stat1, rs1 };
	struct rs_sums all;
	char law0[96], law1[96];
	unsigned int i, n;

	report_init(rep, true, rs1);
	if (rs_randstat_went_down(rs0, rs1)) {
		rep->reset = true;
		return add_note(rep, "randstat's counters went down between the two reads: they were reset or the module was reloaded; no report for this interval");
	}
	rs_law_desc(rs0, law0, sizeof(law0));
	rs_law_desc(rs1, law1, sizeof(law1));
	if (strcmp(law0, law1) &&
	    add_note(rep, "the sampling law changed from %s to %s", law0, law1))
		return -1;
	memset(&all, 0, sizeof(all));
	if (reserve_all(rep))
		return -1;
	for (n = 0, i = 0; i < 4; i++)
		if (snap[i]->ncpu > n)
			n = snap[i]->ncpu;
	for (i = 0; i < n; i++)
		if (interval_cpu(rep, snap, i, &all))
			return -1;
	if (rep->nlines == 1) {		/* no CPU: no all row either */
		rep->nlines = 0;
		return 0;
	}
	sums_bounds(&all);
	line_fill(&rep->lines[0], RS_ALL, &all, rs1->user_hz, true, n);
	return 0;
}

static void row_add_delta(struct rs_row *acc, const struct rs_row *a,
			  const struct rs_row *b)
{
	struct rs_row d;

	rs_row_sub(a, b, &d);
	row_add(acc, &d);
}

/**
 * rs_snap_add_delta() - add the growth of one file between two reads
 * @acc: a copy (rs_snap_copy()) of the file at a first read, to which
 *	 the growth of each interval kept so far has been added
 * @a: the file at an interval's start
 * @b: the file at its end
 *
 * For the Average over intervals some of which are left out (randstat's
 * counters went down in them: rs_randstat_went_down()): rs_report_interval()
 * from the first read to @acc is then the report of the kept intervals'
 * sums.  Each counter of a CPU that has it at both reads grows by its
 * increase (rs_row_sub(): 0 if it went down); the maxima and the flags
 * (online, mode, dormant, a CPU's cpu line) are @b's, as is the header.
 * A CPU @acc lacks (not in the first read) is left out: it has no row in
 * that report either.  Nothing wraps: rsparse.c bounds the tick rows.
 */
void rs_snap_add_delta(struct rs_snap *acc, const struct rs_snap *a,
		       const struct rs_snap *b)
{
	unsigned int i;

	acc->version = b->version;
	acc->law = b->law;
	acc->floor_ns = b->floor_ns;
	acc->mean_ns = b->mean_ns;
	acc->tmin_ns = b->tmin_ns;
	acc->tmax_ns = b->tmax_ns;
	acc->user_hz = b->user_hz;
	row_add_delta(&acc->all, &a->all, &b->all);
	for (i = 0; i < acc->ncpu; i++) {
		const struct rs_cpu *ca = rs_snap_cpu(a, i), *cb = rs_snap_cpu(b, i);
		struct rs_cpu *c = &acc->cpu[i];
		struct rs_sampler d;

		c->listed = cb && cb->listed;
		if (c->listed && ca && ca->listed)
			row_add_delta(&c->ticks, &ca->ticks, &cb->ticks);
		c->counted = cb && cb->counted;
		if (!c->counted || !ca || !ca->counted)
			continue;
		row_add_delta(&c->ns, &ca->ns, &cb->ns);
		row_add_delta(&c->samples, &ca->samples, &cb->samples);
		row_add_delta(&c->exact, &ca->exact, &cb->exact);
		sampler_sub(&ca->s, &cb->s, &d);
		d.cost_max_ns = max_u64(c->s.cost_max_ns, cb->s.cost_max_ns);
		d.late_max_ns = max_u64(c->s.late_max_ns, cb->s.late_max_ns);
		d.elapsed_ns += c->s.elapsed_ns;
		d.sampled_ns += c->s.sampled_ns;
		d.samples += c->s.samples;
		d.overruns += c->s.overruns;
		d.dormancies += c->s.dormancies;
		d.cost_ns += c->s.cost_ns;
		d.late_ns += c->s.late_ns;
		c->s = d;
	}
}

/* A note of the caller's in a report: 0, or -1 out of memory. */
int rs_report_note(struct rs_report *rep, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return add_note(rep, "%s", buf);
}

/* The row of a CPU (or RS_ALL), NULL if the report has none. */
const struct rs_line *rs_report_line(const struct rs_report *rep, int cpu)
{
	unsigned int i;

	for (i = 0; i < rep->nlines; i++)
		if (rep->lines[i].cpu == cpu)
			return &rep->lines[i];
	return NULL;
}

void rs_report_free(struct rs_report *rep)
{
	unsigned int i;

	for (i = 0; i < rep->nnotes; i++)
		free(rep->notes[i]);
	free(rep->notes);
	free(rep->lines);
	memset(rep, 0, sizeof(*rep));
}
