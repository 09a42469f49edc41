// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the randstat reader, printing TAP.
 *
 *   test_reader RANDSTAT FIXTURES MANPAGE
 *
 * The parser and the arithmetic (rsparse.c, rsreport.c) are called
 * directly; the program RANDSTAT is run over the fixture files, and its
 * output and exit code checked.  The expected numbers are worked out by
 * hand from the fixtures (tests/fixtures/README).
 */
#define _GNU_SOURCE	/* unshare(), mount() (t_exec_groups) */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rsexec.h"
#include "rsparse.h"
#include "rsreport.h"
#include "tap.h"

static const char *prog, *fixtures, *manpage;

/* --- helpers ----------------------------------------------------------- */

/* The path of a fixture; a ring of buffers, so several can be used. */
static const char *fx(const char *name)
{
	static char buf[8][4096];
	static unsigned int i;
	char *b = buf[i++ % 8];

	snprintf(b, sizeof(buf[0]), "%s/%s", fixtures, name);
	return b;
}

/* A fixture's text, NUL-terminated. */
static char *slurp(const char *name)
{
	struct rs_error err;
	char *buf, *s;
	size_t len;

	if (rs_read_file(fx(name), &buf, &len, &err)) {
		printf("# %s\n", err.msg);
		exit(2);
	}
	s = realloc(buf, len + 1);
	if (!s)
		exit(2);
	s[len] = '\0';
	return s;
}

/* @s with the first @from replaced by @to; @s is freed. */
static char *replace(char *s, const char *from, const char *to)
{
	char *at = strstr(s, from), *r;

	if (!at) {
		printf("# replace: \"%s\" not found\n", from);
		exit(2);
	}
	r = malloc(strlen(s) - strlen(from) + strlen(to) + 1);
	if (!r)
		exit(2);
	sprintf(r, "%.*s%s%s", (int)(at - s), s, to, at + strlen(from));
	free(s);
	return r;
}

static enum rs_status parse_rs(const char *text, struct rs_snap *s,
			       struct rs_error *err)
{
	return rs_parse_randstat(text, strlen(text), "mem", s, err);
}

static enum rs_status parse_stat(const char *text, struct rs_snap *s,
				 struct rs_error *err)
{
	return rs_parse_stat(text, strlen(text), "mem", s, err);
}

/* A fixture pair, which must parse. */
static void load_pair(const char *name, struct rs_snap *stat,
		      struct rs_snap *rs)
{
	char path[256];
	struct rs_error err;

	snprintf(path, sizeof(path), "%s.stat", name);
	if (rs_load_stat(fx(path), stat, &err))
		goto fail;
	snprintf(path, sizeof(path), "%s.randstat", name);
	if (rs_load_randstat(fx(path), rs, &err))
		goto fail;
	return;
fail:
	printf("# %s\n", err.msg);
	exit(2);
}

static void free_pair(struct rs_snap *stat, struct rs_snap *rs)
{
	rs_snap_free(stat);
	rs_snap_free(rs);
}

struct result {
	int status;		/* exit code, or -1 */
	char *out;
	char *err;
};

/* Where the program's stdout goes: a file to capture, or this path. */
static const char *stdout_path;

/* Run the program with these arguments (a NULL-terminated array). */
static struct result run_argv(const char *const *args)
{
	const char *argv[32] = { prog };
	struct result r;
	FILE *out, *err;
	int argc = 1;

	for (; *args && argc < 31; args++)
		argv[argc++] = *args;
	r.status = tap_run(prog, argv, -1, stdout_path, &out, &err);
	r.out = tap_slurp_all(out);
	r.err = tap_slurp_all(err);
	return r;
}

#define run(...)	run_argv((const char *const[]){ __VA_ARGS__, NULL })

/* A pair of fixtures, "NAME.stat" and "NAME.randstat", for the program. */
#define PAIR(name) "--stat", fx(name ".stat"), "--randstat", fx(name ".randstat")

static void result_free(struct result *r)
{
	free(r->out);
	free(r->err);
}

static unsigned int count_lines(const char *s)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* A negative number or a NaN anywhere in the output ("+-95%" is not). */
static bool absurd(const char *s)
{
	const char *p;

	for (p = s; (p = strchr(p, '-')); p++)
		if (p[1] >= '0' && p[1] <= '9' && (p == s || p[-1] != '+'))
			return true;
	return strstr(s, "nan") || strstr(s, "inf");
}

/* A share marked '*' anywhere in a table: a digit, then '*'. */
static bool has_mark(const char *s)
{
	const char *p;

	for (p = s; (p = strchr(p, '*')); p++)
		if (p > s && p[-1] >= '0' && p[-1] <= '9')
			return true;
	return false;
}

/* --- the arithmetic ----------------------------------------------------- */

/*
 * The interval by its definition, written apart from rsreport.c's: for
 * fewer than 50 samples in or out of the class, Clopper and Pearson's
 * ends, the p where P(X >= k) or P(X <= k) is 0.025, the binomial sum
 * taken term by term (t_{j+1} = t_j (n - j) / (j + 1) p / q, in long
 * double, from q^n); else Wilson's.  The half-width is the distance from
 * k / n to the farther end.
 */
static long double ref_cdf(double k, double n, long double p)
{
	long double t = powl(1 - p, n), sum = t;
	double j;

	for (j = 0; j < k; j++) {
		t *= (n - j) / (j + 1) * p / (1 - p);
		sum += t;
	}
	return sum;
}

static double ref_solve(double k, double n, double target)
{
	long double lo = 0, hi = 1, mid;
	int i;

	for (i = 0; i < 80; i++) {
		mid = (lo + hi) / 2;
		if (ref_cdf(k, n, mid) > target)
			lo = mid;
		else
			hi = mid;
	}
	return (double)lo;
}

static double ref_halfwidth95(double k, double n)
{
	double m = fmin(k, n - k), p = k / n, z2 = 1.96 * 1.96, a, b, c, h;

	if (m < 50) {
		a = m ? ref_solve(m - 1, n, 0.975) : 0;
		b = ref_solve(m, n, 0.025);
		return fmax(m / n - a, b - m / n);	/* the same by symmetry */
	}
	c = (p + z2 / (2 * n)) / (1 + z2 / n);
	h = 1.96 / (1 + z2 / n) * sqrt(p * (1 - p) / n + z2 / (4 * n * n));
	return fmax(p - (c - h), c + h - p);
}

/*
 * The half-width is the distance from p^ = k / n to the farther end of
 * the interval.  Large counts: Wilson's, c +- h with c = (p^ + z^2 / 2n) /
 * (1 + z^2 / n), h = z / (1 + z^2 / n) sqrt(p^ q^ / n + z^2 / 4n^2): for
 * 50000 of 250000, h = 0.0015680 and c - p^ = 4.61e-6, together
 * 0.0015726 (the normal approximation's 1.96 sqrt(.2 .8 / 250000) =
 * 0.001568 is within 0.3%); for 1000 of 2500, 0.0191995 + 0.0001438.
 * Small counts: Clopper-Pearson's.  At k = 0 its upper end solves
 * (1 - p)^n = 0.025: 1 - 0.025^(1/n) (0.975 at n = 1, 0.0036821 at n =
 * 1000), where the normal approximation gives 0.  1 of 10: [0.00253,
 * 0.44502] (the textbook value, e.g. Clopper and Pearson's own charts),
 * so 0.34502 above 0.1.
 */
static void t_halfwidth(void)
{
	double lo, hi;

	EXPECT_NEAR(rs_halfwidth95(50000, 250000), 0.0015726046, 1e-9);
	EXPECT_NEAR(rs_halfwidth95(1000, 2500), 0.0193433033, 1e-9);
	EXPECT_NEAR(rs_halfwidth95(0, 1000), 1 - pow(0.025, 1 / 1000.0), 1e-9);
	EXPECT_NEAR(rs_halfwidth95(1000, 1000), 1 - pow(0.025, 1 / 1000.0), 1e-9);
	EXPECT_NEAR(rs_halfwidth95(0, 1), 0.975, 1e-9);
	EXPECT_NEAR(rs_halfwidth95(1, 1), 0.975, 1e-9);
	rs_prop_ci95(1, 10, &lo, &hi);
	EXPECT_NEAR(lo, 0.0025286, 1e-6);
	EXPECT_NEAR(hi, 0.4450161, 1e-6);
	EXPECT_NEAR(rs_halfwidth95(1, 10), 0.3450161, 1e-6);
	rs_prop_ci95(9, 10, &lo, &hi);		/* the mirror image */
	EXPECT_NEAR(lo, 1 - 0.4450161, 1e-6);
	EXPECT_NEAR(hi, 1 - 0.0025286, 1e-6);
	EXPECT(isnan(rs_halfwidth95(0, 0)));
	/*
	 * Few in many samples: Poisson's limit, Garwood's interval over n
	 * (k = 1: [0.0253, 5.5716]; k = 10: [4.7954, 18.3904]; k = 0:
	 * -ln 0.025 = 3.6889), to 1e-4 relative at n = 1e9 and 1e12.
	 */
	rs_prop_ci95(1, 1000000000, &lo, &hi);
	EXPECT_NEAR(lo * 1e9, 0.0253, 1e-4);
	EXPECT_NEAR(hi * 1e9, 5.5716, 6e-4);
	rs_prop_ci95(10, 1000000000, &lo, &hi);
	EXPECT_NEAR(lo * 1e9, 4.7954, 5e-4);
	EXPECT_NEAR(hi * 1e9, 18.3904, 2e-3);
	rs_prop_ci95(0, 1000000000000ULL, &lo, &hi);
	EXPECT(lo == 0);
	EXPECT_NEAR(hi * 1e12, 3.6889, 4e-4);
}

/* splitmix64: a seeded PRNG, so a coverage run is the same every time */
static uint64_t rng_state = 0x5eed2026;

static double rng_uniform(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return (z >> 11) * 0x1.0p-53;
}

/*
 * Simulated coverage of p^ +- rs_halfwidth95(k, n): for each n and p,
 * TRIALS binomial draws (by inversion of the law's distribution
 * function), and the share of them whose interval holds p.  Clopper and
 * Pearson's interval covers at least 95% at every p and n, so the
 * simulated coverage falls below 93% only by chance: with 20000 trials
 * its standard error at 0.95 is sqrt(.95 .05 / 20000) = 0.00154, and 93%
 * is 13 of them below.  The normal approximation's interval, 0 wide at
 * k = 0 or n, covers p = 0.5 at n = 1 never, and 0.1 at n = 10 35% of
 * the time.  The edges p = 0 and 1 are in the grid (only k = 0, or n,
 * is drawn there).
 */
#define COV_TRIALS	20000
#define COV_MIN		0.93

static void t_coverage(void)
{
	static const unsigned int ns[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20,
					   50, 100, 1000 };
	static const double ps[] = { 0, 0.0005, 0.001, 0.005, 0.01, 0.02, 0.03,
				     0.05, 0.07, 0.1, 0.15, 0.2, 0.25, 0.3,
				     0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7, 0.8,
				     0.9, 0.95, 0.97, 0.99, 0.995, 0.999, 1 };
	double worst = 2, worst_p = 0, *hw, *cdf, cov, pmf;
	unsigned int a, b, worst_n = 0, n, k, t, hits, lo, hi;

	for (a = 0; a < sizeof(ns) / sizeof(ns[0]); a++) {
		n = ns[a];
		hw = calloc(n + 1, sizeof(*hw));
		cdf = calloc(n + 1, sizeof(*cdf));
		if (!hw || !cdf)
			exit(2);
		for (k = 0; k <= n; k++)
			hw[k] = rs_halfwidth95(k, n);
		for (b = 0; b < sizeof(ps) / sizeof(ps[0]); b++) {
			/* the law's distribution function, for inversion */
			for (k = 0, cov = 0; k <= n; k++) {
				pmf = exp(lgamma(n + 1.0) - lgamma(k + 1.0) -
					  lgamma(n - k + 1.0)) *
				      pow(ps[b], k) * pow(1 - ps[b], n - k);
				cov += pmf;
				cdf[k] = cov;
			}
			cdf[n] = 2;	/* rounding: every draw lands */
			for (t = hits = 0; t < COV_TRIALS; t++) {
				double u = rng_uniform();

				for (lo = 0, hi = n; lo < hi;) {
					k = (lo + hi) / 2;
					if (cdf[k] > u)
						hi = k;
					else
						lo = k + 1;
				}
				hits += fabs((double)lo / n - ps[b]) <= hw[lo];
			}
			cov = (double)hits / COV_TRIALS;
			if (cov < worst) {
				worst = cov;
				worst_n = n;
				worst_p = ps[b];
			}
			if (cov < COV_MIN)
				printf("# n %u, p %g: covered %.4f\n", n, ps[b],
				       cov);
		}
		free(hw);
		free(cdf);
	}
	printf("# worst simulated coverage of the stated 95%%: %.4f (n %u, p %g; %d trials each)\n",
	       worst, worst_n, worst_p, COV_TRIALS);
	EXPECT(worst >= COV_MIN);
}

static void t_disp(void)
{
	struct rs_row r = { { 40000, 5000, 25000, 165000, 7500, 0, 7500, 0,
			      10000, 1000 } };
	uint64_t d[RS_NDISP];
	double pct[RS_NDISP];

	rs_disp(&r, d);
	EXPECT(d[RS_D_USR] == 30000 && d[RS_D_NICE] == 4000);
	EXPECT(d[RS_D_GUEST] == 10000 && d[RS_D_GNICE] == 1000);
	EXPECT(d[RS_D_IDLE] == 165000 && d[RS_D_SOFT] == 7500);
	rs_shares(&r, pct);
	EXPECT_NEAR(pct[RS_D_USR], 12.0, 1e-12);	/* 30000 / 250000 */
	EXPECT_NEAR(pct[RS_D_IDLE], 66.0, 1e-12);
	r.v[RS_GUEST] = 50000;			/* guest > user: no wrap */
	rs_disp(&r, d);
	EXPECT(d[RS_D_USR] == 0);
	memset(&r, 0, sizeof(r));
	rs_shares(&r, pct);
	EXPECT(isnan(pct[RS_D_USR]));
}

static void t_row_sub(void)
{
	struct rs_row a = { { 10, 20, 30, 40, 50, 0, 0, 0, 0, 0 } };
	struct rs_row b = { { 15, 20, 35, 39, 60, 0, 0, 0, 0, 0 } };
	struct rs_row d;

	EXPECT(rs_row_sub(&a, &b, &d) == 1u << RS_IDLE);
	EXPECT(d.v[RS_USER] == 5 && d.v[RS_NICE] == 0 && d.v[RS_IDLE] == 0);
	EXPECT(d.v[RS_IOWAIT] == 10);
}

/* --- the parser ---------------------------------------------------------- */

static void t_parse_randstat(void)
{
	struct rs_snap s;
	struct rs_error err;
	const struct rs_cpu *c0, *c1;

	if (rs_load_randstat(fx("normal.randstat"), &s, &err)) {
		printf("# %s\n", err.msg);
		EXPECT(!"normal.randstat parses");
		return;
	}
	EXPECT(s.version == 5 && s.law == RS_LAW_EXPONENTIAL &&
	       s.floor_ns == 50000 && s.mean_ns == 4000000 &&
	       s.tmin_ns == 2000000 && s.tmax_ns == 6000000 &&
	       s.user_hz == 100);
	EXPECT(s.all.v[RS_USER] == 35999 && s.all.v[RS_GUEST_NICE] == 398);
	EXPECT(s.ncpu >= 2);
	c0 = rs_snap_cpu(&s, 0);
	c1 = rs_snap_cpu(&s, 1);
	EXPECT(c0 && c0->listed && c0->counted && c0->s.online);
	EXPECT(c1 && c1->listed && c1->counted);
	EXPECT(c0->ticks.v[RS_USER] == 19987);
	EXPECT(c0->ns.v[RS_USER] == 199873456789ULL);
	EXPECT(c1->ns.v[RS_GUEST] == 40012345678ULL);
	EXPECT(c0->samples.v[RS_IDLE] == 160000);
	EXPECT(c0->s.elapsed_ns == 1000000000000ULL && c0->s.samples == 250000);
	EXPECT(c0->s.overruns == 3 && c0->s.cost_max_ns == 18432);
	rs_snap_free(&s);
}

static void t_parse_stat(void)
{
	struct rs_snap s;
	struct rs_error err;

	EXPECT(!rs_load_stat(fx("normal.stat"), &s, &err));
	EXPECT(s.all.v[RS_USER] == 189246 && s.all.v[RS_GUEST] == 20111);
	EXPECT(rs_snap_cpu(&s, 1) && s.cpu[1].listed &&
	       s.cpu[1].ticks.v[RS_GUEST_NICE] == 2012);
	EXPECT(!rs_snap_cpu(&s, 2) || !s.cpu[2].listed);
	rs_snap_free(&s);
}

static void t_parse_proc_stat(void)
{
	struct rs_snap s;
	struct rs_error err;
	enum rs_status st = rs_load_stat("/proc/stat", &s, &err);

	if (st)
		printf("# %s\n", err.msg);
	EXPECT(!st && s.ncpu >= 1 && s.cpu[0].listed);
	rs_snap_free(&s);
}

static void t_parse_old_stat(void)
{
	struct rs_snap s;
	struct rs_error err;

	/* 2.6.24 had 9 columns, and the intr line is not ours to check */
	EXPECT(!parse_stat("cpu  1 2 3 4 5 6 7 8 9\ncpu0 1 2 3 4 5 6 7 8 9\n"
			   "intr 1 x -\n", &s, &err));
	EXPECT(s.cpu[0].ticks.v[RS_GUEST] == 9 &&
	       s.cpu[0].ticks.v[RS_GUEST_NICE] == 0);
	rs_snap_free(&s);
}

static void t_parse_offline(void)
{
	struct rs_snap stat, rs;

	load_pair("offline", &stat, &rs);
	EXPECT(rs.cpu[0].listed && rs.cpu[1].counted && !rs.cpu[1].listed);
	EXPECT(!rs.cpu[1].s.online && rs.cpu[0].s.online);
	EXPECT(!rs_snap_cpu(&stat, 1) || !stat.cpu[1].listed);
	free_pair(&stat, &rs);
}

/* A file that must not parse, and what its message must say. */
static void expect_bad(enum rs_status got, enum rs_status want,
		       const struct rs_error *err, const char *where,
		       const char *what)
{
	EXPECT(got == want);
	EXPECT_HAS(err->msg, where);
	EXPECT_HAS(err->msg, what);
}

static void t_truncated(void)
{
	struct rs_snap s;
	struct rs_error err;

	expect_bad(rs_load_randstat(fx("truncated.randstat"), &s, &err),
		   RS_ERR_FORMAT, &err, "truncated.randstat:10:", "truncated");
	expect_bad(rs_load_stat(fx("truncated.stat"), &s, &err),
		   RS_ERR_FORMAT, &err, "truncated.stat:3:", "truncated");
}

static void t_truncated_at_line(void)
{
	char *text = slurp("normal.randstat");
	struct rs_snap s;
	struct rs_error err;

	*strstr(text, "sampler cpu1") = '\0';
	expect_bad(parse_rs(text, &s, &err), RS_ERR_FORMAT, &err, "mem:11:",
		   "before 'sampler cpu1'");
	strcpy(text, "randstat 5 law exponential floor_ns 50000 mean_ns 4000000 tmin_ns 2000000 tmax_ns 6000000 user_hz 100\n");
	expect_bad(parse_rs(text, &s, &err), RS_ERR_FORMAT, &err, "mem:1:",
		   "before the 'cpu' line");
	expect_bad(parse_rs("", &s, &err), RS_ERR_FORMAT, &err, "mem",
		   "empty");
	free(text);
	/* /proc/randstat itself (format 5): the lines up to the blocks */
	text = slurp("normal.randstat");
	*strstr(text, "ns cpu0") = '\0';
	expect_bad(parse_rs(text, &s, &err), RS_ERR_FORMAT, &err, "mem:",
		   "/proc/stat's lines only, no 'ns cpuN' block: the per-CPU blocks are in /proc/randstat_detail");
	free(text);
}

static void t_bad_version(void)
{
	struct rs_snap s;
	struct rs_error err;

	expect_bad(rs_load_randstat(fx("badversion.randstat"), &s, &err),
		   RS_ERR_VERSION, &err, "badversion.randstat:1:",
		   "format version 4; this reader knows version 5");
}

static void t_garbage(void)
{
	struct rs_snap s;
	struct rs_error err;

	expect_bad(rs_load_randstat(fx("garbage.randstat"), &s, &err),
		   RS_ERR_FORMAT, &err, "garbage.randstat:5:", "'9O123456789'");
}

static void t_unknown_line(void)
{
	char *text = replace(slurp("normal.randstat"), "\nns cpu0",
			     "\nprocs_running 2\nns cpu0");
	struct rs_snap s;
	struct rs_error err;

	expect_bad(parse_rs(text, &s, &err), RS_ERR_FORMAT, &err, "mem:5:",
		   "expected a 'cpuN' line or 'ns cpuN', found 'procs_running'");
	free(text);
	/* format 3's histogram lines are in /proc/randstat_hist since 4 */
	text = replace(slurp("normal.randstat"), "\nns cpu0",
		       "\nhist_bounds_ns 0 64\nns cpu0");
	expect_bad(parse_rs(text, &s, &err), RS_ERR_FORMAT, &err, "mem:5:",
		   "expected a 'cpuN' line or 'ns cpuN', found 'hist_bounds_ns'");
	free(text);
	text = replace(slurp("normal.randstat"), "\nns cpu1",
		       "\ncost_hist cpu0 1 2\nns cpu1");
	expect_bad(parse_rs(text, &s, &err), RS_ERR_FORMAT, &err, "mem:9:",
		   "expected 'ns cpuN', found 'cost_hist'");
	free(text);
	text = slurp("normal.stat");
	expect_bad(parse_rs(text, &s, &err), RS_ERR_FORMAT, &err, "mem:1:",
		   "not a /proc/randstat file");
	free(text);
}

static void t_inconsistent(void)
{
	char *text = replace(slurp("normal.randstat"),
			     "elapsed_ns 1000000000000", "elapsed_ns 1000000000001");
	struct rs_snap s;
	struct rs_error err;

	expect_bad(parse_rs(text, &s, &err), RS_ERR_FORMAT, &err, "mem:8:",
		   "not the sum of the first eight ns columns");
	free(text);
	/* an online CPU without its block */
	text = replace(slurp("normal.randstat"), "\nns cpu0",
		       "\ncpu2 0 0 0 0 0 0 0 0 0 0\nns cpu0");
	expect_bad(parse_rs(text, &s, &err), RS_ERR_FORMAT, &err, "mem:",
		   "cpu2 has a cpu line but no 'ns cpu2' block");
	free(text);
	/* a block's lines must name the same CPU */
	text = replace(slurp("normal.randstat"), "samples cpu1 ",
		       "samples cpu0 ");
	expect_bad(parse_rs(text, &s, &err), RS_ERR_FORMAT, &err, "mem:",
		   "expected 'samples cpu1'");
	free(text);
	/* format 3's sampler keys come in the contract's order, each once */
	text = replace(slurp("tickless-a.randstat"), "mode sampled dormant 1",
		       "dormant 1 mode sampled");
	expect_bad(parse_rs(text, &s, &err), RS_ERR_FORMAT, &err, "mem:8:",
		   "expected key 'mode', found 'dormant'");
	free(text);
	text = replace(slurp("tickless-a.randstat"), " dormancies 40", "");
	expect_bad(parse_rs(text, &s, &err), RS_ERR_FORMAT, &err, "mem:8:",
		   "expected key 'dormancies', found 'cost_ns'");
	free(text);
	text = replace(slurp("tickless-a.randstat"), "late_max_ns 16384\nns cpu1",
		       "late_max_ns 16384 late_max_ns 1\nns cpu1");
	expect_bad(parse_rs(text, &s, &err), RS_ERR_FORMAT, &err, "mem:8:",
		   "unknown key 'late_max_ns' after 'late_max_ns'");
	free(text);
}

static void t_numbers(void)
{
	struct rs_snap s;
	struct rs_error err;

	EXPECT(!parse_stat("cpu  18446744073709551615 0 0 0 0 0 0 0 0 0\n",
			   &s, &err));
	EXPECT(s.all.v[RS_USER] == UINT64_MAX);
	rs_snap_free(&s);
	expect_bad(parse_stat("cpu  18446744073709551616 0 0 0 0 0 0 0 0 0\n",
			      &s, &err), RS_ERR_FORMAT, &err, "mem:1:",
		   "is not a number");
	expect_bad(parse_stat("cpu  -1 0 0 0 0 0 0 0 0 0\n", &s, &err),
		   RS_ERR_FORMAT, &err, "mem:1:", "'-1', is not a number");
	expect_bad(parse_stat("cpu  +1 0 0 0 0 0 0 0 0 0\n", &s, &err),
		   RS_ERR_FORMAT, &err, "mem:1:", "is not a number");
	expect_bad(parse_stat("cpu  1 2 3\n", &s, &err), RS_ERR_FORMAT, &err,
		   "mem:1:", "at least 4");
	expect_bad(rs_parse_stat("cpu  1 2 3 4\0\n", 14, "mem", &s, &err),
		   RS_ERR_FORMAT, &err, "mem:1:", "NUL");
	expect_bad(parse_stat("cpu  1 2 3 4\ncpu0 1 2 3 4\ncpu0 1 2 3 4\n",
			      &s, &err), RS_ERR_FORMAT, &err, "mem:3:",
		   "a second 'cpu0' line");
	expect_bad(parse_stat("intr 1\nctxt 2\n", &s, &err), RS_ERR_FORMAT,
		   &err, "mem", "no 'cpu' line");
}

/*
 * Counters that cannot be: a cpuN line of 2^48 ticks or more (89,000
 * years at USER_HZ 100), in a column or in its eight time columns' sum,
 * or a cpu line whose sum overflows 64 bits, is damaged: the file is
 * refused (exit 2), as a truncated one, rather than its sums wrapping.
 * Under 2^48 a CPU, the sums over 65536 CPUs cannot wrap either.
 */
static void t_stat_overflow(void)
{
	struct rs_snap s;
	struct rs_error err;
	struct result r;

	expect_bad(parse_stat("cpu  1 0 0 0 0 0 0 0 0 0\n"
			      "cpu0 18446744073709551615 0 0 0 0 0 0 0 0 0\n",
			      &s, &err), RS_ERR_FORMAT, &err, "mem:2:",
		   "'cpu0': user is 18446744073709551615 ticks, 2^48 or more: damaged");
	expect_bad(parse_stat("cpu  1 0 0 0 0 0 0 0 0 0\n"
			      "cpu0 140737488355328 140737488355328 0 0 0 0 0 0 0 0\n",
			      &s, &err), RS_ERR_FORMAT, &err, "mem:2:",
		   "'cpu0': its eight time columns add up to 2^48 ticks or more: damaged");
	expect_bad(parse_stat("cpu  1 0 0 0 0 0 0 0 0 0\n"
			      "cpu0 1 0 0 0 0 0 0 0 281474976710656 0\n",
			      &s, &err), RS_ERR_FORMAT, &err, "mem:2:",
		   "'cpu0': guest is 281474976710656 ticks, 2^48 or more");
	expect_bad(parse_stat("cpu  18446744073709551615 1 0 0 0 0 0 0 0 0\n",
			      &s, &err), RS_ERR_FORMAT, &err, "mem:1:",
		   "'cpu': its eight time columns add up to more than 2^64: damaged");
	/* just under: taken */
	EXPECT(!parse_stat("cpu  18446744073709551614 1 0 0 0 0 0 0 0 0\n"
			   "cpu0 281474976710655 0 0 0 0 0 0 0 0 0\n"
			   "cpu1 140737488355327 140737488355328 0 0 0 0 0 0 0 0\n",
			   &s, &err));
	EXPECT(rs_row_time(&s.all) == UINT64_MAX);
	rs_snap_free(&s);
	/* and in /proc/randstat_detail's cpu lines, ticks too */
	{
		char *t = replace(slurp("normal.randstat"),
				  "\ncpu1 16012 ", "\ncpu1 18446744073709551615 ");

		expect_bad(parse_rs(t, &s, &err), RS_ERR_FORMAT, &err, "mem:4:",
			   "'cpu1': user is 18446744073709551615 ticks, 2^48 or more: damaged");
		free(t);
		/* ns columns that wrap to elapsed_ns: damaged, not equal */
		t = replace(slurp("normal.randstat"),
			    "ns cpu0 199873456789 10012345678 ",
			    "ns cpu0 18446744073709551615 10012345679 ");
		t = replace(t, "elapsed_ns 1000000000000 sampled_ns 998800000000",
			    "elapsed_ns 800126543211 sampled_ns 798926543211");
		expect_bad(parse_rs(t, &s, &err), RS_ERR_FORMAT, &err, "mem:8:",
			   "'sampler cpu0': the ns, samples or exact columns add up to more than 2^64: damaged");
		free(t);
	}

	/* the program: exit 2 and why, no table, since the start and over
	 * an interval */
	r = run("--stat", fx("wrap.stat"), "--randstat", fx("normal.randstat"));
	EXPECT(r.status == 2 && !*r.out);
	EXPECT_HAS(r.err, "wrap.stat:2: 'cpu0': user is 18446744073709551615 ticks, 2^48 or more: damaged\n");
	EXPECT_HASNT(r.out, "4615898025375543");
	result_free(&r);
	r = run(PAIR("normal"), "--stat", fx("wrap.stat"), "--randstat",
		fx("later.randstat"));
	EXPECT(r.status == 2 && !*r.out);
	EXPECT_HAS(r.err, "wrap.stat:2:");
	result_free(&r);
}

/*
 * INTERVAL: a plain decimal number of seconds, a fraction allowed, from
 * 0.01 s to a year; not hex, an exponent, a sign, inf or nan, which
 * strtod() took.
 */
static void t_parse_interval(void)
{
	static const struct {
		const char *s;
		double v;
	} good[] = {
		{ "1", 1 }, { "0.5", 0.5 }, { "0.01", 0.01 }, { "2.50", 2.5 },
		{ "007", 7 }, { "31622400", 31622400 },
	};
	static const char *const bad[] = {
		"0x10", "1e-7", "1e3", "1E2", "inf", "nan", "INF", "+1", "-1",
		" 1", "1 ", "1.", ".5", "1,5", "0", "0.0", "0.009", "0.001",
		"31622400.5", "99999999999", "", "1..2", "0x1p-3", "\t1",
	};
	unsigned int i;
	double v;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		v = -1;
		EXPECT(rs_parse_interval(good[i].s, &v));
		EXPECT_NEAR(v, good[i].v, 1e-12);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (rs_parse_interval(bad[i], &v))
			printf("# '%s' taken as %g\n", bad[i], v);
		EXPECT(!rs_parse_interval(bad[i], &v));
	}
}

/* --- the reports --------------------------------------------------------- */

static void t_since_start(void)
{
	struct rs_snap stat, rs;
	struct rs_report rep;
	const struct rs_line *all, *c0, *c1;

	load_pair("normal", &stat, &rs);
	EXPECT(!rs_report_since_start(&rep, &stat, &rs));
	/* randstat covers 2000 s, /proc/stat 10085.33 s: a note, no mark */
	EXPECT(rep.nlines == 3 && rep.nnotes == 1 && !rep.interval);
	if (rep.nnotes)
		EXPECT_HAS(rep.notes[0], "the spans differ: randstat covers 2000.000 s (since it was loaded or reset), /proc/stat 10085.330 s (since boot), so no share is marked");
	all = rs_report_line(&rep, RS_ALL);
	c0 = rs_report_line(&rep, 0);
	c1 = rs_report_line(&rep, 1);
	EXPECT(all == &rep.lines[0] && c0 && c1);
	if (!all || !c0 || !c1)
		goto out;
	EXPECT(all->n == 500000 && c0->n == 250000);
	/*
	 * cpu0: 50000 user samples of 250000, times 1 - steal 0.12% (the
	 * sampled time, 998.8 of 1000 s); its 95% half-width is the
	 * proportion's (t_halfwidth: 0.15726 points; the normal
	 * approximation's 0.1568), times that same 0.9988 (format 3: share =
	 * p S / E, so the interval scales by S/E)
	 */
	EXPECT_NEAR(c0->rs[RS_D_USR], 19.976, 1e-9);
	EXPECT_NEAR(c0->hw[RS_D_USR], 0.15726046 * 0.9988, 1e-6);
	/* /proc/stat cpu0: 101234 of 500870 ticks: 0.2356 from 19.976, but
	 * over 5008.7 s, not randstat's 1000: not compared (t_same_span) */
	EXPECT_NEAR(c0->st[RS_D_USR], 20.2116318, 1e-6);
	EXPECT(!c0->compared && !all->compared && !c1->compared);
	EXPECT(!c0->outside[RS_D_USR]);
	/* sys: 8.9892 +- 0.1127 (Wilson, 22500 of 250000: 0.1128141 x
	 * 0.9988; normal 0.1121833) against 9.1197, of another span */
	EXPECT_NEAR(c0->hw[RS_D_SYS], 0.1126788, 1e-6);
	EXPECT(!c0->outside[RS_D_SYS]);
	/* iowait: 3.9952 +- 0.0768 (p 0.04) against 3.9729: inside */
	EXPECT_NEAR(c0->rs[RS_D_IOWAIT], 3.9952, 1e-9);
	EXPECT(!c0->outside[RS_D_IOWAIT]);
	/* cpu1: usr = user - guest = 30000 samples, guest 10000; steal 0.08% */
	EXPECT_NEAR(c1->rs[RS_D_USR], 11.9904, 1e-9);
	EXPECT_NEAR(c1->rs[RS_D_GUEST], 3.9968, 1e-9);
	/* Wilson, 30000 of 250000: 0.1279692 (normal 0.1273849) x 0.9992 */
	EXPECT_NEAR(c1->hw[RS_D_USR], 0.1279692 * 0.9992, 1e-6);
	/*
	 * all: each CPU's samples share its own sampled time, so the
	 * variances add, each CPU's (half-width / 1.96)^2: cpu0 998.8 s x
	 * 0.0015726 / 1.96, cpu1 999.2 s x 0.0012797 / 1.96; 1.96 sqrt(sum)
	 * / 2000 s = 0.1012688 points (the normal approximation's 0.1009060;
	 * pooling the counts, as format 2's reader did, gave 0.1016180)
	 */
	EXPECT_NEAR(all->hw[RS_D_USR], 0.1012688, 1e-6);
	EXPECT_NEAR(all->rs_seconds, 2000, 1e-9);
	EXPECT_NEAR(all->stat_seconds, 10085.33, 1e-9);
	/* steal is read, not sampled: no interval, no mark */
	EXPECT(isnan(c0->hw[RS_D_STEAL]) && !c0->outside[RS_D_STEAL]);
	EXPECT(all->s.overruns == 3 && all->s.cost_max_ns == 20480);
out:
	rs_report_free(&rep);
	free_pair(&stat, &rs);
}

/*
 * Since the start, with /proc/stat over the same span as randstat (as if
 * the module had been loaded at boot): cpu0's ticks scaled to randstat's
 * 1000 s, 100000 ticks at USER_HZ 100 (each column rounded down: the sum
 * is within RS_NTIME ticks of it).  Then the marks are made as between
 * two reads: usr 20.21 against 19.976 +- 0.157 is outside, iowait 3.97
 * against 3.9952 +- 0.0774 inside; cpu1 and the all row still differ.
 */
static void t_same_span(void)
{
	struct rs_snap stat, rs;
	struct rs_report rep;
	const struct rs_line *c0, *c1;
	uint64_t sum;
	int i;

	load_pair("normal", &stat, &rs);
	sum = rs_row_time(&stat.cpu[0].ticks);
	for (i = 0; i < RS_NCOLS; i++)
		stat.cpu[0].ticks.v[i] = stat.cpu[0].ticks.v[i] * 100000 / sum;
	EXPECT(!rs_report_since_start(&rep, &stat, &rs));
	c0 = rs_report_line(&rep, 0);
	c1 = rs_report_line(&rep, 1);
	EXPECT(c0 && c1);
	if (c0 && c1) {
		EXPECT(c0->compared && !c1->compared);
		EXPECT_NEAR(c0->stat_seconds, 1000, RS_NTIME / 100.0);
		EXPECT(c0->outside[RS_D_USR] && !c0->outside[RS_D_IOWAIT]);
		EXPECT(!c1->outside[RS_D_USR]);
	}
	rs_report_free(&rep);
	free_pair(&stat, &rs);
}

static void t_since_start_more_cpus(void)
{
	char *text = replace(slurp("normal.stat"), "intr",
			     "cpu2 100 0 50 800 0 0 0 0 0 0\nintr");
	struct rs_snap stat, rs, dummy;
	struct rs_report rep;
	struct rs_error err;
	const struct rs_line *c2;

	load_pair("normal", &dummy, &rs);
	rs_snap_free(&dummy);
	EXPECT(!parse_stat(text, &stat, &err));
	EXPECT(!rs_report_since_start(&rep, &stat, &rs));
	c2 = rs_report_line(&rep, 2);
	EXPECT(rep.nlines == 4 && c2 && c2->has_stat && !c2->has_rs);
	EXPECT(c2 && isnan(c2->rs[RS_D_USR]) && !c2->outside[RS_D_USR]);
	EXPECT(c2 && fabs(c2->st[RS_D_IDLE] - 84.2105263) < 1e-6);
	EXPECT(rep.nnotes == 2);
	if (rep.nnotes)
		EXPECT_HAS(rep.notes[0], "cpu2 is in the cpu lines of /proc/stat only");
	rs_report_free(&rep);
	free_pair(&stat, &rs);
	free(text);
}

static void t_interval(void)
{
	struct rs_snap s0, r0, s1, r1;
	struct rs_report rep;
	const struct rs_line *all, *c0, *c1;

	load_pair("normal", &s0, &r0);
	load_pair("later", &s1, &r1);
	EXPECT(!rs_report_interval(&rep, &s0, &r0, &s1, &r1));
	EXPECT(rep.interval && !rep.reset && rep.nlines == 3);
	all = rs_report_line(&rep, RS_ALL);
	c0 = rs_report_line(&rep, 0);
	c1 = rs_report_line(&rep, 1);
	if (!all || !c0 || !c1) {
		EXPECT(!"three rows");
		goto out;
	}
	EXPECT(c0->n == 2500 && all->n == 5000);
	/* cpu0: 1000 samples of 2500 (p 0.4), no steal */
	EXPECT_NEAR(c0->rs[RS_D_USR], 40.0, 1e-9);
	EXPECT_NEAR(c0->hw[RS_D_USR], 1.9343303, 1e-6);	/* t_halfwidth */
	EXPECT_NEAR(c0->st[RS_D_USR], 40.5, 1e-9);	/* 405 of 1000 */
	EXPECT(!c0->outside[RS_D_USR]);
	/* cpu1: iowait 1.0 +- 0.4727 (25 of 2500 samples: Clopper-Pearson's
	 * [0.00648, 0.01473], 0.004727 above 0.01; the normal approximation
	 * said 0.3900) against 3.0: outside */
	EXPECT_NEAR(c1->hw[RS_D_IOWAIT], 0.4726797, 1e-6);
	EXPECT(c1->outside[RS_D_IOWAIT] && c1->outside[RS_D_IDLE]);
	EXPECT(!c1->outside[RS_D_USR]);
	/*
	 * all: cpu0 1000 of 2500 usr samples over 10 s sampled, cpu1 500
	 * (600 - 100 guest) of 2500: sqrt((10 x 0.0193433)^2 + (10 x
	 * 0.0161350)^2) / 20 = 1.2594661 points (Wilson's half-widths; the
	 * normal approximation's 1.2396128; pooled: 1.2702)
	 */
	EXPECT_NEAR(all->hw[RS_D_USR], 1.2594661, 1e-6);
	EXPECT_NEAR(all->stat_seconds, 20, 1e-9);
	EXPECT(c0->s.samples == 2500 && c0->s.overruns == 0);
	EXPECT_NEAR((double)c0->s.cost_ns / c0->s.samples, 850, 1e-9);
out:
	rs_report_free(&rep);
	free_pair(&s0, &r0);
	free_pair(&s1, &r1);
}

/* A change of law or of its parameters between two reads is said. */
/*
 * Format 3: tickless-a/b (fixtures/README).  cpu0 is sampled but mostly
 * dormant; cpu1 is served from the kernel's exact accounting.  Over the
 * 10 s between them: cpu0 took 50 user and 50 idle samples over 0.4 s of
 * sampled time and was charged 9.6 s of exact idle, so its usr share is
 * 0.5 x 0.4 / 10 = 2.0%, idle (0.2 + 9.6) / 10 = 98.0%, and the usr
 * half-width 0.4 x 0.0961702 / 10 = 0.3846807 points (Wilson's for 50 of
 * 100, centred on 0.5: 1.96 / (1 + 1.96^2 / 100) x sqrt(.25 / 100 +
 * 1.96^2 / 40000); the normal approximation's 0.392; the exact 9.6 s has
 * no sampling error).  cpu1: 5 s user, 2 s system, 3 s idle, all exact:
 * 50%, 20%, 30%, half-width 0.  The all row: usr (0.2 + 5) / 20 = 26.0%,
 * half-width 0.3846807 / 2.
 */
static void t_tickless(void)
{
	struct rs_snap s0, r0, s1, r1;
	struct rs_report rep;
	const struct rs_line *all, *c0, *c1;

	load_pair("tickless-a", &s0, &r0);
	load_pair("tickless-b", &s1, &r1);
	EXPECT(r1.cpu[0].s.dormant && !r1.cpu[0].s.exact);
	EXPECT(r1.cpu[1].s.exact && !r1.cpu[1].s.dormant);
	EXPECT(r1.cpu[0].s.sampled_ns == 1200000000ULL &&
	       r1.cpu[0].s.dormancies == 75);
	EXPECT(!rs_report_interval(&rep, &s0, &r0, &s1, &r1));
	all = rs_report_line(&rep, RS_ALL);
	c0 = rs_report_line(&rep, 0);
	c1 = rs_report_line(&rep, 1);
	EXPECT(all && c0 && c1);
	if (!all || !c0 || !c1)
		goto out;
	EXPECT_NEAR(c0->rs[RS_D_USR], 2.0, 1e-9);
	EXPECT_NEAR(c0->rs[RS_D_IDLE], 98.0, 1e-9);
	EXPECT_NEAR(c0->hw[RS_D_USR], 0.3846807, 1e-6);
	EXPECT(!c0->outside[RS_D_USR] && !c0->outside[RS_D_IDLE]);
	EXPECT_NEAR(c1->rs[RS_D_USR], 50.0, 1e-9);
	EXPECT_NEAR(c1->rs[RS_D_SYS], 20.0, 1e-9);
	EXPECT_NEAR(c1->rs[RS_D_IDLE], 30.0, 1e-9);
	EXPECT_NEAR(c1->hw[RS_D_USR], 0.0, 0);
	EXPECT(!c1->outside[RS_D_USR] && !c1->outside[RS_D_SYS]);
	EXPECT(c1->n == 0);
	EXPECT_NEAR(all->rs[RS_D_USR], 26.0, 1e-9);
	EXPECT_NEAR(all->hw[RS_D_USR], 0.3846807 / 2, 1e-6);
	EXPECT(rep.nnotes == 0);
out:
	rs_report_free(&rep);
	free_pair(&s0, &r0);
	free_pair(&s1, &r1);
}

/*
 * A CPU that changed mode between the two reads: tickless-a, then
 * modechange-b (fixtures/README).  cpu1 was exact in the first read; over
 * the 10 s it was charged 2 s user and 2 s idle exactly, then was switched
 * to sampled and took 300 user and 300 idle samples over 6 s of sampled
 * time (its counters carried over).  Its shares are the deltas' whatever
 * the mode at either end:
 *   usr  = (300/600 x 6 + 2) / 10 = 50.0%, idle likewise 50.0%, sys 0;
 *   half-width (6/10) x 0.0398809 x 100 = 2.3928519 points (Wilson's for
 *   300 of 600; the normal approximation's 2.4004999; only the 6 s
 *   sampled carry an error; a CPU exact throughout has 0).
 * The kernel's /proc/stat says +500 user, +500 idle ticks: 50%, inside.
 * cpu0 is as in tickless-b: usr 2.0% +- 0.3846807.  The all row:
 *   usr (0.2 + 5) / 20 = 26.0%, half-width sqrt((0.4 x 0.0961702)^2
 *   + (6 x 0.0398809)^2) / 20 x 100 = 1.2117879 points.
 * The mode shown is the second read's: cpu1 sampled now.
 */
static void t_mode_change(void)
{
	struct rs_snap s0, r0, s1, r1;
	struct rs_report rep;
	const struct rs_line *all, *c0, *c1;

	load_pair("tickless-a", &s0, &r0);
	load_pair("modechange-b", &s1, &r1);
	EXPECT(r0.cpu[1].s.exact && !r1.cpu[1].s.exact && !r1.cpu[1].s.dormant);
	EXPECT(r1.cpu[1].s.sampled_ns == 6000000000ULL);
	EXPECT(!rs_report_interval(&rep, &s0, &r0, &s1, &r1));
	EXPECT(rep.nnotes == 1);
	if (rep.nnotes)
		EXPECT_HAS(rep.notes[0], "cpu1 changed mode between the two reads (exact, then sampled)");
	all = rs_report_line(&rep, RS_ALL);
	c0 = rs_report_line(&rep, 0);
	c1 = rs_report_line(&rep, 1);
	EXPECT(all && c0 && c1);
	if (!all || !c0 || !c1)
		goto out;
	EXPECT_NEAR(c1->rs[RS_D_USR], 50.0, 1e-9);
	EXPECT_NEAR(c1->rs[RS_D_IDLE], 50.0, 1e-9);
	EXPECT_NEAR(c1->rs[RS_D_SYS], 0.0, 1e-9);
	EXPECT_NEAR(c1->hw[RS_D_USR], 2.3928519, 1e-6);
	EXPECT_NEAR(c1->hw[RS_D_IDLE], 2.3928519, 1e-6);
	EXPECT(!c1->outside[RS_D_USR] && !c1->outside[RS_D_IDLE] &&
	       !c1->outside[RS_D_SYS]);
	EXPECT_NEAR(c0->rs[RS_D_USR], 2.0, 1e-9);
	EXPECT_NEAR(c0->hw[RS_D_USR], 0.3846807, 1e-6);
	EXPECT_NEAR(all->rs[RS_D_USR], 26.0, 1e-9);
	EXPECT_NEAR(all->hw[RS_D_USR], 1.2117879, 1e-6);
out:
	rs_report_free(&rep);
	free_pair(&s0, &r0);
	free_pair(&s1, &r1);
}

static void t_law_change(void)
{
	struct rs_snap s0, r0, s1, r1;
	struct rs_report rep;

	load_pair("normal", &s0, &r0);
	load_pair("later", &s1, &r1);
	EXPECT(!rs_report_interval(&rep, &s0, &r0, &s1, &r1));
	EXPECT(rep.nnotes == 0);
	rs_report_free(&rep);
	r1.law = RS_LAW_UNIFORM;
	EXPECT(!rs_report_interval(&rep, &s0, &r0, &s1, &r1));
	EXPECT(rep.nnotes == 1);
	if (rep.nnotes)
		EXPECT_HAS(rep.notes[0], "the sampling law changed from exponential, floor 50000 ns, mean 4000000 ns to uniform on [2000000, 6000000] ns");
	rs_report_free(&rep);
	r1.law = RS_LAW_EXPONENTIAL;
	r1.mean_ns = 1000000;
	EXPECT(!rs_report_interval(&rep, &s0, &r0, &s1, &r1));
	EXPECT(rep.nnotes == 1 && rep.nlines == 3);
	if (rep.nnotes)
		EXPECT_HAS(rep.notes[0], "to exponential, floor 50000 ns, mean 1000000 ns");
	rs_report_free(&rep);
	free_pair(&s0, &r0);
	free_pair(&s1, &r1);
}

static void t_reset(void)
{
	struct rs_snap s0, r0, s1, r1, s2, r2;
	struct rs_report rep;

	load_pair("normal", &s0, &r0);
	load_pair("later", &s1, &r1);
	load_pair("reset", &s2, &r2);
	EXPECT(!rs_randstat_went_down(&r0, &r1));
	EXPECT(rs_randstat_went_down(&r1, &r2));
	EXPECT(rs_randstat_went_down(&r1, &r0));
	EXPECT(!rs_report_interval(&rep, &s1, &r1, &s2, &r2));
	EXPECT(rep.reset && rep.nlines == 0 && rep.nnotes == 1);
	if (rep.nnotes)
		EXPECT_HAS(rep.notes[0], "reset");
	rs_report_free(&rep);
	free_pair(&s0, &r0);
	free_pair(&s1, &r1);
	free_pair(&s2, &r2);
}

static void t_offline(void)
{
	struct rs_snap s0, r0, s1, r1;
	struct rs_report rep;
	const struct rs_line *all;

	load_pair("later", &s0, &r0);
	load_pair("offline", &s1, &r1);
	EXPECT(!rs_randstat_went_down(&r0, &r1));
	EXPECT(!rs_report_interval(&rep, &s0, &r0, &s1, &r1));
	EXPECT(!rep.reset && rep.nlines == 2 && !rs_report_line(&rep, 1));
	all = rs_report_line(&rep, RS_ALL);
	EXPECT(all && all->n == 2500);	/* cpu0's alone */
	EXPECT(rep.nnotes == 1);
	if (rep.nnotes)
		EXPECT_HAS(rep.notes[0], "cpu1 went offline");
	rs_report_free(&rep);
	free_pair(&s1, &r1);
	/* cpu1 comes online: absent from the first read's cpu lines */
	load_pair("later", &s1, &r1);
	s0.cpu[1].listed = r0.cpu[1].listed = false;
	EXPECT(!rs_report_interval(&rep, &s0, &r0, &s1, &r1));
	EXPECT(!rep.reset && rep.nnotes == 1 && !rs_report_line(&rep, 1));
	if (rep.nnotes)
		EXPECT_HAS(rep.notes[0], "cpu1 came online");
	rs_report_free(&rep);
	free_pair(&s0, &r0);
	free_pair(&s1, &r1);
}

static void t_stat_went_down(void)
{
	struct rs_snap s0, r0, s1, r1;
	struct rs_report rep;
	const struct rs_line *c0;

	load_pair("normal", &s0, &r0);
	load_pair("later", &s1, &r1);
	s1.cpu[0].ticks.v[RS_IOWAIT] = s0.cpu[0].ticks.v[RS_IOWAIT] - 7;
	EXPECT(!rs_report_interval(&rep, &s0, &r0, &s1, &r1));
	c0 = rs_report_line(&rep, 0);
	EXPECT(c0 && c0->st[RS_D_IOWAIT] == 0);
	EXPECT(rep.nnotes == 1);
	if (rep.nnotes)
		EXPECT_HAS(rep.notes[0], "cpu0 iowait went down by 7 ticks");
	rs_report_free(&rep);
	free_pair(&s0, &r0);
	free_pair(&s1, &r1);
}

/* --- the program ---------------------------------------------------------- */

static void t_prog_since_start(void)
{
	struct result r = run(PAIR("normal"));

	EXPECT(r.status == 0);
	EXPECT(!*r.err);
	EXPECT_HAS(r.out, "randstat counts since it was loaded or reset,\n/proc/stat since boot");
	EXPECT_HAS(r.out, "CPU  source       %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle");
	EXPECT_HAS(r.out, "\n0    randstat    19.98    1.00    8.99    4.00    0.20    1.80    0.12    0.00    0.00   63.92     1000.000     250000\n");
	EXPECT_HAS(r.out, "\n     +-95%        0.16    0.04    0.11    0.08    0.02    0.05       -    0.00    0.00    0.19\n");
	EXPECT_HAS(r.out, "\n     /proc/stat  20.21    0.86    9.12    3.97    0.00    1.53    0.02    0.00    0.00   64.29     5008.700\n");
	EXPECT_HAS(r.out, "\nnote: the spans differ: randstat covers 2000.000 s (since it was loaded or reset), /proc/stat 10085.330 s (since boot), so no share is marked;");
	EXPECT(!has_mark(r.out));
	EXPECT_HAS(r.out, "\nall  randstat    15.98 ");
	EXPECT_HAS(r.out, "3 overruns");
	result_free(&r);
}

static void t_prog_pairs(void)
{
	struct result r = run(PAIR("normal"), PAIR("later"), PAIR("reset"));

	EXPECT(r.status == 0 && !*r.err);
	EXPECT_HAS(r.out, "Shares of each source's own total over each interval");
	EXPECT_HAS(r.out, "\n0    randstat    40.00    0.00   10.00 ");
	/* 1000 of 2500 samples: Wilson's [38.10, 41.93], not +- 1.93, and
	 * nice's 0 of 2500 [0, 0.15]: the line's two ends */
	EXPECT_HAS(r.out, "\n0    randstat    40.00    0.00   10.00    2.00    0.00    2.00    0.00    0.00    0.00   46.00       10.000       2500\n"
		   "     95% from    38.10    0.00    8.88 ");
	EXPECT_HAS(r.out, "\n     95% to      41.93    0.15   11.24 ");
	EXPECT_HAS(r.out, "\n     /proc/stat  20.10    1.00   12.10    3.00*   0.00    2.00    0.00    4.00    0.00   57.80*      10.000\n");
	EXPECT_HAS(r.out, "pair 2 to 3\nnote: randstat's counters went down between the two reads: they were reset");
	EXPECT(!absurd(r.out));
	result_free(&r);
}

static void t_prog_offline(void)
{
	struct result r = run(PAIR("later"), PAIR("offline"));

	EXPECT(r.status == 0 && !*r.err);
	EXPECT_HAS(r.out, "note: cpu1 went offline between the two reads");
	EXPECT_HASNT(r.out, "\n1    ");
	EXPECT(!absurd(r.out));
	result_free(&r);
	r = run(PAIR("offline"));
	EXPECT(r.status == 0);
	EXPECT_HAS(r.out, "note: cpu1 is offline");
	EXPECT_HASNT(r.out, "\n1    ");
	result_free(&r);
}

/* How many lines are "HH:MM:SS  ...": a report's time of day. */
static int has_clock_title(const char *s)
{
	int n = 0, h, m, sec;
	char c;

	for (; s; s = strchr(s, '\n'), s = s ? s + 1 : NULL)
		n += sscanf(s, "%2d:%2d:%2d%c", &h, &m, &sec, &c) == 4 &&
		     c == ' ' && s[2] == ':' && s[5] == ':';
	return n;
}

static void t_prog_live(void)
{
	/* the same files twice, 10 ms apart: nothing moved, nothing absurd */
	struct result r = run(PAIR("normal"), "0.01", "2");

	EXPECT(r.status == 0 && !*r.err);
	EXPECT(count_lines(r.out) > 5);
	EXPECT_HAS(r.out, "interval 0.0");
	EXPECT_HAS(r.out, "all  randstat        -       -");
	EXPECT(!absurd(r.out));
	/* each report has its time of day, as sysstat's; then the average
	 * over both intervals, from the first read to the last */
	EXPECT(has_clock_title(r.out) == 2);
	EXPECT_HAS(r.out, "\nAverage:  interval 0.0");
	EXPECT_HAS(r.out, "\nAverage: all  randstat        -       -");
	result_free(&r);
	/* one report: no average */
	r = run(PAIR("normal"), "0.01", "1");
	EXPECT(r.status == 0 && has_clock_title(r.out) == 1);
	EXPECT_HASNT(r.out, "Average:");
	result_free(&r);
}

/*
 * sysstat's Average: block after two reports or more, every line of it
 * prefixed: normal to later to later is the interval normal to later
 * again (cpu0 40.00% usr), and JSON has none (one object per report).
 */
static void t_prog_average(void)
{
	struct result r = run(PAIR("normal"), PAIR("later"), PAIR("later"));
	const char *avg;

	EXPECT(r.status == 0 && !*r.err);
	avg = strstr(r.out, "\nAverage:\n");
	EXPECT(avg != NULL);
	if (avg) {
		EXPECT_HAS(avg, "\nAverage: CPU  source       %usr");
		EXPECT_HAS(avg, "\nAverage: 0    randstat    40.00    0.00   10.00 ");
		EXPECT_HAS(avg, "\nAverage:      95% from    38.10 ");
		EXPECT_HAS(avg, "\nAverage:      95% to      41.93 ");
		EXPECT_HAS(avg, "\nAverage: sampler: 5000 samples");
		EXPECT_HASNT(avg, "\n0    ");	/* every line prefixed */
	}
	result_free(&r);
	/*
	 * across a reset: the interval that spans it is left out (said),
	 * the others still count.  normal to later (cpu0: 1000 user of 2500
	 * samples, /proc/stat 405 of 1000 ticks) and reset to afterreset
	 * (1500 of 2500, 600 of 1000 ticks): cpu0 usr 2500 of 5000 samples
	 * over 20 s, 50.00%; /proc/stat 1005 of 2000 ticks, 50.25%; sys
	 * (250 + 250) of 5000, 10.00%.
	 */
	r = run(PAIR("normal"), PAIR("later"), PAIR("reset"), PAIR("afterreset"));
	EXPECT(r.status == 0 && !*r.err);
	avg = strstr(r.out, "\nAverage:\n");
	EXPECT(avg != NULL);
	if (avg) {
		EXPECT_HAS(avg, "\nAverage: note: 1 of the 3 intervals left out: randstat's counters went down in it (a reset, or the module reloaded)\n");
		EXPECT_HAS(avg, "\nAverage: 0    randstat    50.00    0.00   10.00 ");
		EXPECT_HAS(avg, "\nAverage:      /proc/stat  50.25 ");
		EXPECT_HAS(avg, "\nAverage: sampler: 10000 samples");
		EXPECT_HASNT(avg, "counters went down between the two reads");
	}
	result_free(&r);
	/* what is left after the reset is the average: here nothing (the
	 * same files twice), not the counters from before it */
	r = run(PAIR("later"), PAIR("reset"), PAIR("reset"));
	EXPECT(r.status == 0);
	avg = strstr(r.out, "\nAverage:\n");
	EXPECT(avg != NULL);
	if (avg) {
		EXPECT_HAS(avg, "\nAverage: note: 1 of the 2 intervals left out");
		EXPECT_HAS(avg, "\nAverage: all  randstat        -       -");
		EXPECT_HASNT(avg, "samples over 99");
	}
	result_free(&r);
	/* --one-row: the same Average rows */
	r = run("--one-row", PAIR("normal"), PAIR("later"), PAIR("reset"),
		PAIR("afterreset"));
	EXPECT(r.status == 0);
	EXPECT_HAS(r.out, "\n# Average: note: 1 of the 3 intervals left out");
	EXPECT_HAS(r.out, "\nAverage;0;randstat;20.000;5000;50.00;");
	result_free(&r);
	r = run("--json", PAIR("normal"), PAIR("later"), PAIR("later"));
	EXPECT(r.status == 0 && count_lines(r.out) == 2);
	EXPECT_HASNT(r.out, "Average");
	result_free(&r);
}

/* What a running child wrote to @fd so far, NUL-terminated (malloc'd). */
static char *written(int fd)
{
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap);
	ssize_t r;

	if (!buf)
		exit(2);
	while ((r = pread(fd, buf + n, cap - 1 - n, n)) > 0) {
		n += r;
		if (n == cap - 1 && !(buf = realloc(buf, cap *= 2)))
			exit(2);
	}
	buf[n] = '\0';
	return buf;
}

/* Does process @pid catch @sig yet (its SigCgt in /proc/PID/status)? */
static bool catches(pid_t pid, int sig)
{
	char path[64], line[256];
	unsigned long long mask = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "SigCgt: %llx", &mask) == 1)
			break;
	if (f)
		fclose(f);
	return mask >> (sig - 1) & 1;
}

/*
 * Start the program with @argv (its stdout and stderr in *@out, *@err),
 * wait until its output has @mark @titles times (reports made) and it
 * catches SIGINT, interrupt it: its exit status, or -1 if it did not exit.
 */
static int interrupt_after(const char *const *argv, const char *mark,
			   int titles, FILE **out, FILE **err)
{
	pid_t pid = tap_spawn(prog, argv, NULL, out, err, NULL, NULL);
	int status, i;
	char *s = NULL, *p;

	for (i = 0; i < 2000; i++) {	/* 20 s at most */
		int n = 0;

		free(s);
		s = written(fileno(*out));
		for (p = s; *mark && (p = strstr(p, mark)); p++)
			n++;
		if (n >= titles && catches(pid, SIGINT))
			break;
		usleep(10000);
	}
	free(s);
	kill(pid, SIGINT);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (WIFSIGNALED(status))
		printf("# killed by signal %d\n", WTERMSIG(status));
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * randstat INTERVAL interrupted (Ctrl-C, SIGINT), as mpstat: after a
 * report or more, the Average block over the reports so far, then exit
 * 0; during the first interval, no Average, exit 0 at once.
 */
static void t_prog_sigint(void)
{
	const char *const argv[] = { prog, PAIR("normal"), "0.05", NULL };
	const char *const slow[] = { prog, PAIR("normal"), "30", NULL };
	const char *const one[] = { prog, "--one-row", PAIR("normal"), "0.05",
				    NULL };
	struct timespec t0, t1;
	FILE *out, *err;
	char *o, *e;

	EXPECT(interrupt_after(argv, "interval 0.", 2, &out, &err) == 0);
	o = tap_slurp_all(out);
	e = tap_slurp_all(err);
	EXPECT(!*e);
	EXPECT_HAS(o, "\nAverage:  interval 0.");
	EXPECT_HAS(o, "\nAverage: all  randstat        -       -");
	EXPECT_HAS(o, "\nAverage: sampler:");
	free(o);
	free(e);

	EXPECT(interrupt_after(one, ";all;randstat;", 1, &out, &err) == 0);
	o = tap_slurp_all(out);
	e = tap_slurp_all(err);
	EXPECT(!*e);
	EXPECT_HAS(o, "\nAverage;all;randstat;");
	free(o);
	free(e);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	EXPECT(interrupt_after(slow, "", 0, &out, &err) == 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	EXPECT(t1.tv_sec - t0.tv_sec < 20);	/* not the 30 s interval */
	o = tap_slurp_all(out);
	e = tap_slurp_all(err);
	EXPECT(!*e);
	EXPECT_HASNT(o, "Average");
	EXPECT_HASNT(o, "CPU  source");
	free(o);
	free(e);
}

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* The number of @c in the line that starts at @s. */
static unsigned int count_in_line(const char *s, char c)
{
	unsigned int n = 0;

	for (; *s && *s != '\n'; s++)
		n += *s == c;
	return n;
}

/*
 * --one-row: one '#' header, then a line per CPU and report with as many
 * fields as the header (5, three a class, the marks), the notes as '#'
 * lines, no legend, no table; the Average rows after 2 reports or more.
 * --no-legend: the table without the explanation above it.
 */
static void t_prog_one_row(void)
{
	struct result r = run("--one-row", PAIR("vm-normal"));
	const char *l;
	unsigned int fields = 5 + 3 * RS_NDISP + 1;

	EXPECT(r.status == 0 && !*r.err);
	EXPECT(starts_with(r.out, "# time;CPU;source;seconds;samples;usr;usr_ci95;usr_stat;nice;"));
	EXPECT(count_in_line(r.out, ';') == fields - 1);
	EXPECT_HAS(r.out, ";idle;idle_ci95;idle_stat;outside\n");
	EXPECT_HAS(r.out, "\n# start: note: the spans differ");
	/* the figures of the table (t_vm_since_start), one line a CPU */
	EXPECT_HAS(r.out, "\nstart;all;randstat;2.083;16;0.26;0.78;0.55;");
	EXPECT_HAS(r.out, "\nstart;1;randstat;1.043;1;0.00;1.14;0.44;");
	EXPECT_HAS(r.out, ";98.29;0.78;54.37;\n");	/* all's idle; no mark */
	l = strstr(r.out, "\nstart;0;");
	EXPECT(l && count_in_line(l + 1, ';') == fields - 1);
	EXPECT(count_lines(r.out) == 5);
	EXPECT_HASNT(r.out, "randstat: samples at");
	EXPECT_HASNT(r.out, "sampler:");
	result_free(&r);

	r = run("--one-row", PAIR("normal"), PAIR("later"), PAIR("later"));
	EXPECT(r.status == 0 && !*r.err);
	EXPECT_HAS(r.out, "\npair 1 to 2;0;randstat;10.000;2500;40.00;1.93;40.50;");
	EXPECT_HAS(r.out, "\nAverage;0;randstat;10.000;2500;40.00;1.93;40.50;");
	EXPECT(count_lines(r.out) == 1 + 3 * 3);
	l = strstr(r.out, "\nAverage;all;");
	EXPECT(l && count_in_line(l + 1, ';') == fields - 1);
	result_free(&r);

	r = run("--no-legend", PAIR("vm-normal"));
	EXPECT(r.status == 0 && !*r.err);
	EXPECT(starts_with(r.out, "note: the spans differ"));
	EXPECT_HAS(r.out, "\nCPU  source       %usr");
	EXPECT_HASNT(r.out, "randstat: samples at");
	EXPECT_HASNT(r.out, "A '*' marks");
	result_free(&r);
	/* with INTERVAL reports, a blank line between them still */
	r = run("--no-legend", PAIR("normal"), PAIR("later"), PAIR("later"));
	EXPECT(r.status == 0 && starts_with(r.out, "pair 1 to 2\n"));
	EXPECT_HAS(r.out, "\n\npair 2 to 3\n");
	EXPECT_HASNT(r.out, "randstat: samples at");
	result_free(&r);
}

/* Braces and brackets balance outside strings, and it is one line. */
static bool json_shaped(const char *s)
{
	int depth = 0;
	bool in_str = false;

	if (*s != '{')
		return false;
	for (; *s && *s != '\n'; s++) {
		if (in_str) {
			if (*s == '\\')
				s++;
			else if (*s == '"')
				in_str = false;
		} else if (*s == '"') {
			in_str = true;
		} else if (*s == '{' || *s == '[') {
			depth++;
		} else if ((*s == '}' || *s == ']') && --depth < 0) {
			return false;
		}
	}
	return !depth && !in_str && *s == '\n';
}

static void t_prog_json(void)
{
	struct result r = run("--json", PAIR("normal"));
	const char *second;
	char head[64];

	EXPECT(r.status == 0 && count_lines(r.out) == 1);
	EXPECT(json_shaped(r.out));
	EXPECT_HAS(r.out, "\"mode\":\"since_start\"");
	/* the schema's version first, then the kernel file's format */
	snprintf(head, sizeof(head), "{\"version\":2,\"format\":%d,",
		 RS_FORMAT_VERSION);
	EXPECT(!strncmp(r.out, head, strlen(head)));
	EXPECT_HAS(r.out, "{\"cpu\":\"0\",\"randstat\":{\"seconds\":1000.000000,\"samples\":250000,\"pct\":{\"usr\":19.9760,");
	/* the interval's two ends, in percent as the share (19.9760):
	 * Wilson's, 50000 of 250000 samples, times 0.9988 sampled */
	EXPECT_HAS(r.out, "\"ci95\":{\"usr\":[19.8198,20.1331],");
	EXPECT_HAS(r.out, "\"steal\":null,\"guest\":[");
	EXPECT_HAS(r.out, "\"steal\":null");
	EXPECT_HAS(r.out, "\"compared\":false,\"outside\":[]");
	EXPECT_HASNT(r.out, "\"compared\":true");
	result_free(&r);
	r = run("--json", PAIR("normal"), PAIR("later"), PAIR("reset"));
	second = strchr(r.out, '\n');
	EXPECT(r.status == 0 && count_lines(r.out) == 2 && second);
	if (second) {
		EXPECT(json_shaped(r.out) && json_shaped(second + 1));
		EXPECT_HAS(second, "\"mode\":\"interval\"");
		EXPECT_HAS(second, "\"reset\":true");
		EXPECT_HAS(second, "\"cpus\":[]");
	}
	result_free(&r);
}

/* Each sample line is "name{labels} value"; each family has HELP, TYPE. */
static bool prometheus_shaped(const char *s)
{
	char name[128], last[128] = "", help[128] = "", type[128] = "";
	const char *eol;

	for (; *s; s = eol + 1) {
		eol = strchr(s, '\n');
		if (!eol)
			return false;
		if (sscanf(s, "# HELP %127s", help) == 1 ||
		    sscanf(s, "# TYPE %127s", type) == 1)
			continue;
		/* name{cpu="N"...} value, or name{version="V"} 1, name 0 */
		if (sscanf(s, "%127[a-z_]", name) != 1 ||
		    !memchr(s, ' ', eol - s) ||
		    (s[strlen(name)] != ' ' &&
		     strncmp(s + strlen(name), "{cpu=\"", 6) &&
		     strncmp(s + strlen(name), "{version=\"", 10)) ||
		    (s[strlen(name)] == '{' && !memchr(s, '}', eol - s)))
			return false;
		if (strcmp(name, last) &&
		    (strcmp(name, help) || strcmp(name, type)))
			return false;
		strcpy(last, name);
	}
	return true;
}

/* The reader's outputs say which CPU is exact, and what is exact. */
static void t_prog_tickless(void)
{
	struct result r = run(PAIR("tickless-a"), PAIR("tickless-b"));

	EXPECT(r.status == 0);
	EXPECT_HAS(r.out, "\n1    exact ");
	EXPECT_HAS(r.out, "\n0    randstat ");
	EXPECT_HAS(r.out, "dormancies");
	result_free(&r);
	r = run("--json", PAIR("tickless-a"), PAIR("tickless-b"));
	EXPECT(r.status == 0 && json_shaped(r.out));
	EXPECT_HAS(r.out, "\"mode\":\"exact\",\"dormant\":false");
	EXPECT_HAS(r.out, "\"mode\":\"sampled\",\"dormant\":true");
	result_free(&r);
	r = run("--prometheus", "--randstat", fx("tickless-b.randstat"));
	EXPECT(r.status == 0 && prometheus_shaped(r.out));
	EXPECT_HAS(r.out, "\nrandstat_exact_seconds_total{cpu=\"0\",mode=\"idle\"} 18.800000000\n");
	EXPECT_HAS(r.out, "\nrandstat_exact_seconds_total{cpu=\"1\",mode=\"user\"} 11.000000000\n");
	EXPECT_HAS(r.out, "\nrandstat_sampled_seconds_total{cpu=\"0\"} 1.200000000\n");
	EXPECT_HAS(r.out, "\nrandstat_sampler_exact{cpu=\"1\"} 1\n");
	EXPECT_HAS(r.out, "\nrandstat_sampler_dormant{cpu=\"0\"} 1\n");
	EXPECT_HAS(r.out, "\nrandstat_sampler_dormancies_total{cpu=\"0\"} 75\n");
	result_free(&r);
}

static void t_prog_prometheus(void)
{
	struct result r = run("--prometheus", "--randstat",
			      fx("normal.randstat"));

	EXPECT(r.status == 0 && !*r.err);
	EXPECT(prometheus_shaped(r.out));
	EXPECT_HAS(r.out, "# TYPE randstat_cpu_seconds_total counter\n");
	EXPECT_HAS(r.out, "\nrandstat_cpu_seconds_total{cpu=\"0\",mode=\"user\"} 199.873456789\n");
	EXPECT_HAS(r.out, "\nrandstat_cpu_seconds_total{cpu=\"1\",mode=\"steal\"} 0.800000000\n");
	EXPECT_HAS(r.out, "\nrandstat_cpu_guest_seconds_total{cpu=\"1\",mode=\"user\"} 40.012345678\n");
	EXPECT_HAS(r.out, "\nrandstat_cpu_guest_seconds_total{cpu=\"1\",mode=\"nice\"} 3.987654321\n");
	EXPECT_HAS(r.out, "\nrandstat_samples_total{cpu=\"1\",mode=\"idle\"} 165000\n");
	EXPECT_HAS(r.out, "\nrandstat_sampler_cost_seconds_total{cpu=\"0\"} 0.212500000\n");
	EXPECT_HAS(r.out, "\nrandstat_sampler_overruns_total{cpu=\"0\"} 3\n");
	EXPECT_HASNT(r.out, "mode=\"guest");
	/* the release and randstat_up, each with HELP and TYPE */
	EXPECT_HAS(r.out, "# TYPE randstat_build_info gauge\nrandstat_build_info{version=\"" RS_VERSION "\"} 1\n");
	EXPECT_HAS(r.out, "# TYPE randstat_up gauge\nrandstat_up 1\n");
	result_free(&r);
	/* unreadable: randstat_up 0 and the release on stdout, why on stderr */
	r = run("--prometheus", "--randstat", fx("badversion.randstat"));
	EXPECT(r.status == 2 && prometheus_shaped(r.out));
	EXPECT_HAS(r.out, "\nrandstat_up 0\n");
	EXPECT_HAS(r.out, "randstat_build_info{version=\"");
	EXPECT_HASNT(r.out, "randstat_cpu_seconds_total");
	EXPECT_HAS(r.err, "format");
	result_free(&r);
	r = run("--prometheus", "--randstat", fx("offline.randstat"));
	EXPECT(r.status == 0 && prometheus_shaped(r.out));
	EXPECT_HAS(r.out, "\nrandstat_sampler_online{cpu=\"1\"} 0\n");
	result_free(&r);
}

static void t_prog_errors(void)
{
	struct result r = run("--stat", fx("normal.stat"), "--randstat",
			      fx("truncated.randstat"));

	EXPECT(r.status == 2 && !*r.out);
	EXPECT_HAS(r.err, "truncated.randstat:10: truncated");
	result_free(&r);
	r = run("--stat", fx("normal.stat"), "--randstat",
		fx("badversion.randstat"));
	EXPECT(r.status == 2);
	EXPECT_HAS(r.err, "badversion.randstat:1: format version 4; this reader knows version 5");
	result_free(&r);
	r = run("--stat", fx("normal.stat"), "--randstat",
		fx("garbage.randstat"));
	EXPECT(r.status == 2);
	EXPECT_HAS(r.err, "garbage.randstat:5: 'ns cpu0': field 3");
	result_free(&r);
	r = run("--stat", fx("truncated.stat"), "--randstat",
		fx("normal.randstat"));
	EXPECT(r.status == 2);
	EXPECT_HAS(r.err, "truncated.stat:3:");
	result_free(&r);
	r = run("--stat", fx("normal.stat"), "--randstat", fx("missing"));
	EXPECT(r.status == 2);
	EXPECT_HAS(r.err, "missing: No such file or directory");
	result_free(&r);
}

static void t_prog_no_module(void)
{
	struct result r = run("--stat", fx("normal.stat"));

	EXPECT(r.status == 3 && !*r.out);
	EXPECT_HAS(r.err, "the randstat module is not loaded");
	EXPECT_HAS(r.err, "sudo modprobe randstat");
	EXPECT_HAS(r.err, "sudo insmod module/randstat.ko");
	result_free(&r);
	/* --prometheus: randstat_up 0 for the textfile, still exit 3 */
	r = run("--prometheus");
	EXPECT(r.status == 3 && prometheus_shaped(r.out));
	EXPECT_HAS(r.out, "\nrandstat_up 0\n");
	EXPECT_HAS(r.err, "the randstat module is not loaded");
	result_free(&r);
}

static void t_prog_usage(void)
{
	static const char *const bad[][5] = {
		{ "--bogus" }, { "0" }, { "-1" }, { "1", "0" }, { "1", "2", "3" },
		{ "abc" }, { "--json", "--prometheus" }, { "--prometheus", "1" },
		{ "--one-row", "--json" }, { "--prometheus", "--one-row" },
		{ "--stat" }, { "--stat", "a", "--stat", "b" },
		{ "0x10" }, { "1e-7" }, { "inf" }, { "nan" }, { "0.001" },
	};
	struct result r;
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		r = run_argv(bad[i]);
		if (r.status != 1)
			printf("# '%s %s': exit %d\n", bad[i][0],
			       bad[i][1] ? bad[i][1] : "", r.status);
		EXPECT(r.status == 1);
		EXPECT_HAS(r.err, "Try 'randstat --help'");
		result_free(&r);
	}
	r = run("1e-7");
	EXPECT_HAS(r.err, "randstat: INTERVAL must be a plain decimal number of seconds from 0.01 to 31622400 (a year), such as 2 or 0.5: '1e-7'\n");
	result_free(&r);
	r = run("--help");
	EXPECT(r.status == 0);
	EXPECT_HAS(r.out, "Exit status: 0 ok, 1 usage error, 2 ");
	EXPECT_HAS(r.out, "3 the randstat module is\nnot loaded");
	result_free(&r);
}

/*
 * --version: 0, and "NAME VERSION" with the top Makefile's VERSION (the
 * same -DRS_VERSION builds this test); --help 0 too (t_prog_usage).
 */
static void t_prog_version(void)
{
	static const char *const tool[][4] = {
		{ "randstat", "--version" }, { "randstat", "-V" },
		{ "randstat top", "top", "--version" },
		{ "randstat top", "top", "-V" },
		{ "randstat exec", "exec", "--version" },
	};
	struct result r;
	char want[64];
	unsigned int i;

	EXPECT(strcmp(RS_VERSION, "unknown") && *RS_VERSION);
	for (i = 0; i < sizeof(tool) / sizeof(tool[0]); i++) {
		r = run_argv(tool[i] + 1);
		snprintf(want, sizeof(want), "%s %s\n", tool[i][0], RS_VERSION);
		EXPECT(r.status == 0 && !*r.err);
		EXPECT(!strcmp(r.out, want));
		if (strcmp(r.out, want))
			printf("# %s %s: '%s'\n", tool[i][1],
			       tool[i][2] ? tool[i][2] : "", r.out);
		result_free(&r);
	}
	r = run("exec", "--help");
	EXPECT(r.status == 0 && !*r.err);
	EXPECT_HAS(r.out, "Exit status: CMD's; 125 ");
	result_free(&r);
	r = run("exec");		/* no command: exec's own usage error */
	EXPECT(r.status == 125);
	result_free(&r);
}

/*
 * randstat exec's options (getopt_long, stopping at the command): an
 * unknown option or a missing argument is its own usage error, 125, not
 * a command to run; the command's own options are its own.
 */
static void t_exec_usage(void)
{
	struct result r = run("exec", "--bogus", "true");

	EXPECT(r.status == 125 && !*r.out);
	EXPECT_HAS(r.err, "randstat exec: unknown option or missing argument: --bogus\n");
	EXPECT_HAS(r.err, "Try 'randstat exec --help'.\n");
	EXPECT_HASNT(r.err, "no randstat-fs file");
	result_free(&r);
	r = run("exec", "-x", "true");
	EXPECT(r.status == 125);
	EXPECT_HAS(r.err, "randstat exec: unknown option or missing argument: -x\n");
	result_free(&r);
	r = run("exec", "--stat");
	EXPECT(r.status == 125);
	EXPECT_HAS(r.err, "randstat exec: unknown option or missing argument: --stat\n");
	result_free(&r);
	r = run("exec", "--stat", fx("missing"));	/* no CMD */
	EXPECT(r.status == 125);
	EXPECT_HAS(r.err, "randstat exec: no command to run\n");
	result_free(&r);
	/* the first non-option is CMD, its options are not exec's; --stat=F
	 * and --stat F alike: F is looked at, and is no randstat-fs file */
	r = run("exec", "--stat", fx("missing"), "ls", "-l", "--bogus");
	EXPECT(r.status == 125);
	EXPECT_HAS(r.err, "randstat exec: no randstat-fs file");
	EXPECT_HAS(r.err, "missing: No such file or directory\n");
	EXPECT_HASNT(r.err, "unknown option");
	result_free(&r);
	r = run("exec", "--stat=/nonexistent", "--", "--bogus");
	EXPECT(r.status == 125);
	EXPECT_HAS(r.err, "/nonexistent: No such file or directory\n");
	EXPECT_HASNT(r.err, "unknown option");
	result_free(&r);
}

/*
 * An output that cannot be written (/dev/full: ENOSPC) is said, with its
 * own exit code 4, not 2 (an input could not be read); the old reader
 * exited 2 with no word.
 */
static void t_prog_write_error(void)
{
	static const char *const args[][4] = {
		{ "", "normal" },
		{ "--json", "normal" },
		{ "--prometheus" },
		{ "", "normal", "later" },
		{ "--help" },
		{ "--version" },
	};
	const char *a[16];
	char name[6][64];
	struct result r;
	unsigned int i, j, n;

	stdout_path = "/dev/full";
	for (i = 0; i < sizeof(args) / sizeof(args[0]); i++) {
		n = 0;
		if (*args[i][0])
			a[n++] = args[i][0];
		for (j = 1; j < 4 && args[i][j]; j++) {
			snprintf(name[2 * j - 2], sizeof(name[0]), "%s.stat",
				 args[i][j]);
			snprintf(name[2 * j - 1], sizeof(name[0]),
				 "%s.randstat", args[i][j]);
			a[n++] = "--stat";
			a[n++] = fx(name[2 * j - 2]);
			a[n++] = "--randstat";
			a[n++] = fx(name[2 * j - 1]);
		}
		if (!strcmp(a[0], "--prometheus")) {
			a[n++] = "--randstat";
			a[n++] = fx("normal.randstat");
		}
		a[n] = NULL;
		r = run_argv(a);
		EXPECT(r.status == 4);
		EXPECT_HAS(r.err, "randstat: writing the output: No space left on device\n");
		if (r.status != 4)
			printf("# '%s ...': exit %d\n", a[0], r.status);
		result_free(&r);
	}
	stdout_path = NULL;
}

/*
 * randstat exec under sudo gives the command the caller's supplementary
 * groups (initgroups()), not the primary group alone (setgroups(1,
 * &gid), issue 24 defect 9).  In a child, in a mount namespace of its
 * own (root only), /etc/group is a copy that adds group 4242 with the
 * user of uid 0 as its member; rs_exec_setgroups(0, 0) must then give
 * that child group 4242 as well as 0.  Nothing outside the child sees
 * the copy.
 */
#define TEST_GID	4242

static int groups_child(void)
{
	char path[] = "/tmp/test_reader_group.XXXXXX", line[512];
	struct passwd *pw = getpwuid(0);
	gid_t g[256];
	FILE *in, *out;
	int fd, n, i, has0 = 0, has_test = 0;

	if (!pw || unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return 3;
	fd = mkstemp(path);
	out = fd >= 0 ? fdopen(fd, "w") : NULL;
	in = fopen("/etc/group", "r");
	if (!out)
		return 4;
	while (in && fgets(line, sizeof(line), in))
		fputs(line, out);
	fprintf(out, "rstest:x:%d:%s\n", TEST_GID, pw->pw_name);
	fclose(out);
	if (in)
		fclose(in);
	chmod(path, 0644);
	if (mount(path, "/etc/group", NULL, MS_BIND, NULL)) {
		unlink(path);
		return 3;
	}
	unlink(path);
	if (rs_exec_setgroups(0, 0))
		return 5;
	n = getgroups(256, g);
	for (i = 0; i < n; i++) {
		has0 |= g[i] == 0;
		has_test |= g[i] == TEST_GID;
	}
	return has0 && has_test ? 0 : 6;
}

/* Can a child make a mount namespace here (root, not a locked container)? */
static bool can_unshare(void)
{
	int status = -1;
	pid_t pid;

	if (geteuid())
		return false;
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(unshare(CLONE_NEWNS) ||
		      mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL));
	return pid > 0 && waitpid(pid, &status, 0) == pid &&
	       WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void t_exec_groups(void)
{
	int status = -1;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(groups_child());
	EXPECT(pid > 0 && waitpid(pid, &status, 0) == pid &&
	       WIFEXITED(status));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 6)
		printf("# the child's groups lack %d or 0\n", TEST_GID);
	EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void t_manpage(void)
{
	tap_expect_manpage(manpage);
}

/* --- captures from the VM ------------------------------------------------ */

/*
 * vm-*: real pairs of /proc/stat and /proc/randstat from a test guest (2
 * vCPUs, TCG, Debian's kernel), printed by the VM tests' reader suite and
 * extracted by tests/vm/capture-fixtures.sh:
 *   vm-normal   a second after insmod
 *   vm-later    after a spin of a few seconds pinned to cpu1
 *   vm-reset    right after "echo reset > /proc/randstat"
 *   vm-offline  a second after cpu1 went offline
 * The expected values are worked out here from the files' own numbers,
 * read by vm_row() (sscanf, not rsparse.c), so that a new capture needs no
 * edit; the comments give the figures of the capture in the tree
 * (fixtures/README).
 */

/* The ten numbers after "PREFIX " at the start of a line of fixture NAME. */
static bool vm_row(const char *name, const char *prefix,
		   unsigned long long v[RS_NCOLS])
{
	char *text = slurp(name), *line = text, *p, *end;
	size_t len = strlen(prefix);
	bool found = false;
	int i;

	for (; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (strncmp(line, prefix, len) || line[len] != ' ')
			continue;
		p = line + len;
		for (i = 0; i < RS_NCOLS; i++, p = end) {
			v[i] = strtoull(p, &end, 10);
			if (end == p)
				break;
		}
		found = i == RS_NCOLS;
		break;
	}
	free(text);
	if (!found)
		printf("# %s: no line \"%s\" with ten numbers\n", name, prefix);
	return found;
}

/* b - a for PREFIX between fixtures A and B. */
static bool vm_delta(const char *a, const char *b, const char *prefix,
		     unsigned long long d[RS_NCOLS])
{
	unsigned long long va[RS_NCOLS], vb[RS_NCOLS];
	int i;

	if (!vm_row(a, prefix, va) || !vm_row(b, prefix, vb))
		return false;
	for (i = 0; i < RS_NCOLS; i++)
		d[i] = vb[i] - va[i];
	return true;
}

/* mpstat's columns from the ten of /proc/stat, in the reader's order. */
static const struct {
	const char *key;
	int col, minus;		/* col less column minus (-1: none) */
} vm_class[RS_NDISP] = {
	{ "usr", RS_USER, RS_GUEST },	{ "nice", RS_NICE, RS_GUEST_NICE },
	{ "sys", RS_SYSTEM, -1 },	{ "iowait", RS_IOWAIT, -1 },
	{ "irq", RS_IRQ, -1 },		{ "soft", RS_SOFTIRQ, -1 },
	{ "steal", RS_STEAL, -1 },	{ "guest", RS_GUEST, -1 },
	{ "gnice", RS_GUEST_NICE, -1 },	{ "idle", RS_IDLE, -1 },
};

static unsigned long long vm_class_of(const unsigned long long v[RS_NCOLS],
				      int i)
{
	return v[vm_class[i].col] -
	       (vm_class[i].minus < 0 ? 0 : v[vm_class[i].minus]);
}

/* The sum of the first eight columns (guest is inside user). */
static unsigned long long vm_total(const unsigned long long v[RS_NCOLS])
{
	unsigned long long t = 0;
	int i;

	for (i = 0; i < RS_STEAL + 1; i++)
		t += v[i];
	return t;
}

/* The number after "KEY": in S (JSON), or NAN (absent or null). */
static double json_num(const char *s, const char *key)
{
	char pat[64], *end;
	const char *p;
	double v;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = s ? strstr(s, pat) : NULL;
	if (!p)
		return NAN;
	p += strlen(pat);
	v = strtod(p, &end);
	return end == p ? NAN : v;
}

/*
 * The text table's row SOURCE of CPU ("randstat", or below it "+-95%",
 * "95% from" or "95% to", in that CPU's block): ten values, NAN for "-".
 */
static bool table_row(const char *out, const char *cpu, const char *source,
		      double v[RS_NDISP])
{
	char head[64], *end;
	const char *p;
	int i;

	snprintf(head, sizeof(head), "\n%-4s %-10s", cpu, "randstat");
	p = strstr(out, head);
	if (!p)
		return false;
	if (strcmp(source, "randstat")) {
		/* the lines below that start with blanks: the CPU's */
		snprintf(head, sizeof(head), "\n     %-10s", source);
		for (p = strchr(p + 1, '\n'); p && !strncmp(p, "\n     ", 6);
		     p = strchr(p + 1, '\n'))
			if (!strncmp(p, head, strlen(head)))
				break;
		if (!p || strncmp(p, head, strlen(head)))
			return false;
	}
	p += strlen(head);
	for (i = 0; i < RS_NDISP; i++) {
		p += strspn(p, " ");
		if (p[0] == '-' && (p[1] == ' ' || p[1] == '\n')) {
			v[i] = NAN;	/* none: steal's half-width */
			p++;
			continue;
		}
		v[i] = strtod(p, &end);
		if (end == p)
			return false;
		p = end + (*end == '*');
	}
	return true;
}

/* JSON "KEY":[LO,HI] in @s: true, and the two; false if not there. */
static bool json_bounds(const char *s, const char *key, double *lo, double *hi)
{
	char pat[64], *end;
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\":[", key);
	p = s ? strstr(s, pat) : NULL;
	if (!p)
		return false;
	p += strlen(pat);
	*lo = strtod(p, &end);
	if (end == p || *end != ',')
		return false;
	p = end + 1;
	*hi = strtod(p, &end);
	return end != p && *end == ']';
}

static unsigned long long vm_sampler_of(const char *name, const char *cpu,
					const char *key);

static void t_vm_since_start(void)
{
	struct result r = run(PAIR("vm-normal"));
	unsigned long long ns[RS_NCOLS], smp[RS_NCOLS];
	const char *cpu1, *cpu0;
	double v[RS_NDISP];
	int i;

	EXPECT(r.status == 0 && !*r.err);
	EXPECT_HAS(r.out, "CPU  source       %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle      seconds    samples\n");
	EXPECT_HAS(r.out, "\nall  randstat ");
	EXPECT_HAS(r.out, "\n0    randstat ");
	EXPECT_HAS(r.out, "\n1    randstat ");
	EXPECT_HAS(r.out, "cost mean 58957 ns (max 348955 ns)");
	/* randstat since insmod (2.083 s), /proc/stat since boot (9.030 s):
	 * issue 24 saw 44.96* sys and 54.37* idle here; no class is marked */
	EXPECT_HAS(r.out, "note: the spans differ: randstat covers 2.083 s (since it was loaded or reset), /proc/stat 9.030 s (since boot), so no share is marked");
	EXPECT(!has_mark(r.out));
	EXPECT(!absurd(r.out));
	/* A second after insmod, cpu1 idle: the table's cpu1 row is the
	 * file's ns row over its total (here idle 1044160953 and softirq
	 * 8090186 ns of 1052251139: 99.23% and 0.77%), to 2 decimals. */
	EXPECT(table_row(r.out, "1", "randstat", v));
	if (vm_row("vm-normal.randstat", "ns cpu1", ns))
		for (i = 0; i < RS_NDISP; i++)
			EXPECT_NEAR(v[i], 100.0 * vm_class_of(ns, i) / vm_total(ns),
				    0.005 + 1e-9);
	/*
	 * cpu1's one sample (idle) over 12194773 ns sampled of 1043235409:
	 * each other class 0.00%, its interval from 0 to 0.975 of the
	 * sampled time, 1.14%; idle from (0.025 x 12194773 + 1031040636
	 * exact) / 1043235409 = 98.86% to 100%.  Lopsided: not "+- 1.14"
	 * (which says 0.00 +- 1.14, below 0), but its two ends, a row each.
	 */
	EXPECT_HAS(r.out, "\n1    randstat     0.00    0.00    0.00    0.00    0.00    0.00    0.00    0.00    0.00  100.00        1.043          1\n"
		   "     95% from     0.00    0.00    0.00    0.00    0.00    0.00       -    0.00    0.00   98.86\n"
		   "     95% to       1.14    1.14    1.14    1.14    1.14    1.14       -    1.14    1.14  100.00\n"
		   "     /proc/stat ");
	/* the all row: 0.2632 +- 0.7827 cut at 0, so [0.00, 1.05] */
	EXPECT(table_row(r.out, "all", "95% from", v) && v[RS_D_USR] == 0);
	EXPECT(table_row(r.out, "all", "95% to", v) &&
	       fabs(v[RS_D_USR] - 1.05) < 0.005 + 1e-9);
	EXPECT(!table_row(r.out, "1", "+-95%", v));
	result_free(&r);
	/* symmetric to the printed digits: the +- row still (t_prog_since_start) */
	r = run(PAIR("normal"));
	EXPECT(table_row(r.out, "0", "+-95%", v));
	EXPECT(!table_row(r.out, "0", "95% from", v));
	EXPECT_NEAR(v[RS_D_USR], 0.16, 1e-9);
	result_free(&r);

	r = run("--json", PAIR("vm-normal"));
	cpu1 = strstr(r.out, "{\"cpu\":\"1\",");
	EXPECT(r.status == 0 && json_shaped(r.out) && cpu1);
	/* JSON: the two ends of each interval, [lo, hi] */
	EXPECT_HAS(cpu1, "\"ci95\":{\"usr\":[0.0000,1.1397],");
	EXPECT_HAS(cpu1, "\"idle\":[98.8603,100.0000]}");
	EXPECT_HASNT(r.out, "\"outside\":[\"");	/* every list empty */
	/*
	 * The sampler's means are per callback: an overrun is a sample
	 * without one.  cpu0 here: cost_ns 720684 over 15 samples, 1
	 * overrun: 720684 / 14 = 51477.4 ns (not / 15 = 48045.6), late_ns
	 * 4766483 / 14 = 340463.1 ns; the table's all row, over both CPUs,
	 * (720684 + 163677) / (16 - 1) = 58957 ns.
	 */
	cpu0 = strstr(r.out, "{\"cpu\":\"0\",");
	EXPECT(cpu0 != NULL);
	if (cpu0) {
		double callbacks = (double)vm_sampler_of("vm-normal.randstat", "cpu0", "samples") -
				   vm_sampler_of("vm-normal.randstat", "cpu0", "overruns");

		EXPECT_NEAR(json_num(cpu0, "cost_mean_ns"),
			    vm_sampler_of("vm-normal.randstat", "cpu0", "cost_ns") / callbacks,
			    0.05 + 1e-9);
		EXPECT_NEAR(json_num(cpu0, "late_mean_ns"),
			    vm_sampler_of("vm-normal.randstat", "cpu0", "late_ns") / callbacks,
			    0.05 + 1e-9);
	}
	/* seconds and samples: the first eight columns of ns and samples
	 * cpu1 (here 1.052251139 s, 260 samples) */
	if (cpu1 && vm_row("vm-normal.randstat", "ns cpu1", ns) &&
	    vm_row("vm-normal.randstat", "samples cpu1", smp)) {
		EXPECT_NEAR(json_num(cpu1, "seconds"), vm_total(ns) / 1e9, 5e-7);
		EXPECT_NEAR(json_num(cpu1, "samples"), vm_total(smp), 0);
	}
	result_free(&r);
}

/* The number after "KEY " in fixture NAME's line "sampler CPU ...". */
static unsigned long long vm_sampler_of(const char *name, const char *cpu,
					const char *key)
{
	char *text = slurp(name), *p, *k;
	char want[32];
	unsigned long long v = 0;

	snprintf(want, sizeof(want), "\nsampler %s ", cpu);
	p = strstr(text, want);
	snprintf(want, sizeof(want), " %s ", key);
	k = p ? strstr(p, want) : NULL;
	if (k && k < strchr(p + 1, '\n'))
		v = strtoull(k + strlen(want), NULL, 10);
	else
		printf("# %s: no %s on the sampler %s line\n", name, key, cpu);
	free(text);
	return v;
}

static unsigned long long vm_sampler(const char *name, const char *key)
{
	return vm_sampler_of(name, "cpu1", key);
}

/*
 * randstat's share of display class i, percent (format 3): its share of
 * the samples times the sampled time, plus its exact time, over the
 * elapsed time.
 */
static double vm_count_share(const unsigned long long *smp,
			     const unsigned long long *x, double sampled,
			     double elapsed, int i)
{
	return 100.0 * ((double)vm_class_of(smp, i) / vm_total(smp) * sampled +
			vm_class_of(x, i)) / elapsed;
}

static void t_vm_spin(void)
{
	struct result r = run("--json", PAIR("vm-normal"), PAIR("vm-later"));
	unsigned long long ns[RS_NCOLS], smp[RS_NCOLS], tk[RS_NCOLS];
	unsigned long long x[RS_NCOLS];
	const char *cpu1, *pct, *ci, *st;
	double v[RS_NDISP], n, sampled, elapsed, lo = NAN, hi = NAN, e;
	int i;

	EXPECT(r.status == 0 && !*r.err && count_lines(r.out) == 1);
	EXPECT(json_shaped(r.out));
	EXPECT_HAS(r.out, "\"mode\":\"interval\"");
	EXPECT_HAS(r.out, "\"reset\":false");
	EXPECT_HAS(r.out, "\"notes\":[]");
	cpu1 = strstr(r.out, "{\"cpu\":\"1\",");
	pct = cpu1 ? strstr(cpu1, "\"pct\":{") : NULL;
	ci = cpu1 ? strstr(cpu1, "\"ci95\":{") : NULL;
	st = cpu1 ? strstr(cpu1, "\"stat\":{") : NULL;
	EXPECT(pct && ci && st);
	if (!pct || !ci || !st ||
	    !vm_delta("vm-normal.randstat", "vm-later.randstat", "ns cpu1", ns) ||
	    !vm_delta("vm-normal.randstat", "vm-later.randstat", "samples cpu1", smp) ||
	    !vm_delta("vm-normal.randstat", "vm-later.randstat", "exact cpu1", x) ||
	    !vm_delta("vm-normal.stat", "vm-later.stat", "cpu1", tk)) {
		EXPECT(!"the pairs have cpu1's lines");
		result_free(&r);
		return;
	}
	/*
	 * cpu1 over the spin, by hand from the two captures (vm-later less
	 * vm-normal, "samples cpu1", "exact cpu1" and the sampler line):
	 * randstat's share of a class is its samples over all samples (every
	 * sample weighs the same) times the sampled time, plus its exact
	 * time, over the elapsed time; the half-width is 100 times the
	 * proportion's (ref_halfwidth95()), times sampled / elapsed; /proc/stat's
	 * share is its ticks over its ticks.  The reader prints the shares
	 * and half-widths to 4 decimals in JSON.
	 */
	n = (double)vm_total(smp);
	sampled = (double)vm_sampler("vm-later.randstat", "sampled_ns") -
		  vm_sampler("vm-normal.randstat", "sampled_ns");
	elapsed = (double)vm_sampler("vm-later.randstat", "elapsed_ns") -
		  vm_sampler("vm-normal.randstat", "elapsed_ns");
	for (i = 0; i < RS_NDISP; i++) {
		EXPECT_NEAR(json_num(pct, vm_class[i].key),
			    vm_count_share(smp, x, sampled, elapsed, i),
			    0.00005 + 1e-9);
		EXPECT_NEAR(json_num(st, vm_class[i].key),
			    100.0 * vm_class_of(tk, i) / vm_total(tk),
			    0.00005 + 1e-9);
		if (i == 6) {	/* steal: from the steal clock, no interval */
			EXPECT_HAS(ci, "\"steal\":null,");
			continue;
		}
		/* the farther end is the half-width away, the nearer one
		 * inside it; the share between them */
		EXPECT(json_bounds(ci, vm_class[i].key, &lo, &hi));
		e = json_num(pct, vm_class[i].key);
		EXPECT(lo <= e && e <= hi);
		EXPECT_NEAR(fmax(e - lo, hi - e),
			    100.0 * ref_halfwidth95(vm_class_of(smp, i), n) *
			    sampled / elapsed, 0.00015 + 1e-9);
	}
	/* what the capture is: a spin on cpu1 (>= 90% usr), from the files */
	EXPECT(100.0 * vm_class_of(ns, 0) / vm_total(ns) >= 90);
	EXPECT_NEAR(json_num(cpu1, "samples"), n, 0);
	result_free(&r);

	/* The table: the same, to 2 decimals. */
	r = run(PAIR("vm-normal"), PAIR("vm-later"));
	EXPECT(r.status == 0 && !*r.err && !absurd(r.out));
	EXPECT_HAS(r.out, "pair 1 to 2\n");
	EXPECT(table_row(r.out, "1", "randstat", v));
	for (i = 0; i < RS_NDISP; i++)
		EXPECT_NEAR(v[i], vm_count_share(smp, x, sampled, elapsed, i),
			    0.005 + 1e-9);
	/* 1008 of 1013 samples user: a lopsided interval, its two ends */
	EXPECT(table_row(r.out, "1", "95% from", v));
	lo = v[0];
	EXPECT(table_row(r.out, "1", "95% to", v));
	hi = v[0];
	EXPECT(table_row(r.out, "1", "randstat", v));
	EXPECT(lo < v[0] && v[0] < hi && hi - v[0] < v[0] - lo);
	EXPECT_NEAR(v[0] - lo, 100.0 * ref_halfwidth95(vm_class_of(smp, 0), n) *
		    sampled / elapsed, 0.01 + 1e-9);
	result_free(&r);
}

static void t_vm_reset(void)
{
	struct result r = run(PAIR("vm-later"), PAIR("vm-reset"));
	unsigned long long a[RS_NCOLS], b[RS_NCOLS];

	/* The capture: randstat's counters went down (here cpu1 idle
	 * 1109913983 ns before the reset, a few ms after). */
	EXPECT(vm_row("vm-later.randstat", "ns cpu1", a) &&
	       vm_row("vm-reset.randstat", "ns cpu1", b) &&
	       vm_total(b) < vm_total(a));
	EXPECT(r.status == 0 && !*r.err);
	EXPECT_HAS(r.out, "pair 1 to 2\nnote: randstat's counters went down between the two reads: they were reset or the module was reloaded; no report for this interval\n");
	EXPECT_HASNT(r.out, "all  randstat");
	EXPECT(!absurd(r.out));
	result_free(&r);
	r = run("--json", PAIR("vm-later"), PAIR("vm-reset"));
	EXPECT(r.status == 0 && json_shaped(r.out));
	EXPECT_HAS(r.out, "\"reset\":true");
	EXPECT_HAS(r.out, "\"cpus\":[]");
	result_free(&r);
	/* all four in turn: three reports, the second one the reset */
	r = run(PAIR("vm-normal"), PAIR("vm-later"), PAIR("vm-reset"),
		PAIR("vm-offline"));
	EXPECT(r.status == 0 && !*r.err && !absurd(r.out));
	EXPECT_HAS(r.out, "pair 2 to 3\nnote: randstat's counters went down");
	EXPECT_HAS(r.out, "pair 3 to 4\nnote: cpu1 went offline between the two reads: not shown\n");
	result_free(&r);
}

static void t_vm_offline(void)
{
	struct result r = run(PAIR("vm-reset"), PAIR("vm-offline"));
	unsigned long long ns[RS_NCOLS];
	char *rs = slurp("vm-offline.randstat"), *st = slurp("vm-offline.stat");
	double all[RS_NDISP], c0[RS_NDISP];
	char want[128];
	int i;

	/* The capture: no cpu1 line in either file, its sampler offline. */
	EXPECT_HAS(rs, "\nsampler cpu1 online 0 ");
	EXPECT_HASNT(rs, "\ncpu1 ");
	EXPECT_HASNT(st, "\ncpu1 ");
	free(rs);
	free(st);
	EXPECT(r.status == 0 && !*r.err && !absurd(r.out));
	EXPECT_HAS(r.out, "note: cpu1 went offline between the two reads: not shown\n");
	EXPECT_HASNT(r.out, "\n1    ");
	/* all sums the CPUs online at both reads: cpu0 alone */
	EXPECT(table_row(r.out, "all", "randstat", all) &&
	       table_row(r.out, "0", "randstat", c0));
	for (i = 0; i < RS_NDISP; i++)
		EXPECT_NEAR(all[i], c0[i], 0);
	result_free(&r);

	r = run(PAIR("vm-offline"));
	EXPECT(r.status == 0 && !*r.err);
	EXPECT_HAS(r.out, "note: cpu1 is offline: no row of its own, its time so far stays in the all row\n");
	EXPECT_HASNT(r.out, "\n1    ");
	result_free(&r);

	/* Prometheus: cpu1 still there, offline, its frozen ns exactly
	 * (here idle 0.102906925 s). */
	r = run("--prometheus", "--randstat", fx("vm-offline.randstat"));
	EXPECT(r.status == 0 && prometheus_shaped(r.out));
	EXPECT_HAS(r.out, "\nrandstat_sampler_online{cpu=\"1\"} 0\n");
	EXPECT_HAS(r.out, "\nrandstat_sampler_online{cpu=\"0\"} 1\n");
	if (vm_row("vm-offline.randstat", "ns cpu1", ns)) {
		snprintf(want, sizeof(want),
			 "\nrandstat_cpu_seconds_total{cpu=\"1\",mode=\"idle\"} %llu.%09llu\n",
			 ns[RS_IDLE] / 1000000000, ns[RS_IDLE] % 1000000000);
		EXPECT_HAS(r.out, want);
	}
	result_free(&r);
}

static void t_vm_prometheus(void)
{
	static const char *const mode[8] = { "user", "nice", "system", "idle",
		"iowait", "irq", "softirq", "steal" };
	struct result r = run("--prometheus", "--randstat",
			      fx("vm-later.randstat"));
	unsigned long long ns[RS_NCOLS], smp[RS_NCOLS];
	char want[160], prefix[32];
	int c, i;

	EXPECT(r.status == 0 && !*r.err && prometheus_shaped(r.out));
	/* Every cpu-seconds value is its ns column / 1e9, digit for digit
	 * (here cpu1 user 4.007152152), and the samples are the counts. */
	for (c = 0; c < 2; c++) {
		snprintf(prefix, sizeof(prefix), "ns cpu%d", c);
		if (!vm_row("vm-later.randstat", prefix, ns))
			continue;
		snprintf(prefix, sizeof(prefix), "samples cpu%d", c);
		if (!vm_row("vm-later.randstat", prefix, smp))
			continue;
		for (i = 0; i < 8; i++) {
			snprintf(want, sizeof(want),
				 "\nrandstat_cpu_seconds_total{cpu=\"%d\",mode=\"%s\"} %llu.%09llu\n",
				 c, mode[i], ns[i] / 1000000000, ns[i] % 1000000000);
			EXPECT_HAS(r.out, want);
			snprintf(want, sizeof(want),
				 "\nrandstat_samples_total{cpu=\"%d\",mode=\"%s\"} %llu\n",
				 c, mode[i], smp[i]);
			EXPECT_HAS(r.out, want);
		}
	}
	result_free(&r);
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: %s RANDSTAT FIXTURES MANPAGE\n", argv[0]);
		return 2;
	}
	prog = argv[1];
	fixtures = argv[2];
	manpage = argv[3];
	puts("TAP version 13");

	tap_test("95% half-width of a binomial share", t_halfwidth);
	tap_test("the 95% interval covers >= 93% at n = 1..1000, p = 0..1",
		 t_coverage);
	tap_test("mpstat's columns: usr and nice without guest", t_disp);
	tap_test("deltas saturate and say what went down", t_row_sub);

	tap_test("parse normal.randstat", t_parse_randstat);
	tap_test("parse normal.stat", t_parse_stat);
	if (access("/proc/stat", R_OK))
		tap_skip("parse this machine's /proc/stat", "no /proc/stat");
	else
		tap_test("parse this machine's /proc/stat", t_parse_proc_stat);
	tap_test("parse a 9-column /proc/stat", t_parse_old_stat);
	tap_test("parse the pair with cpu1 offline", t_parse_offline);
	tap_test("truncated files: file and line", t_truncated);
	tap_test("files truncated at a line end", t_truncated_at_line);
	tap_test("unknown format version", t_bad_version);
	tap_test("garbage in a line", t_garbage);
	tap_test("an unknown line, or the wrong file", t_unknown_line);
	tap_test("inconsistent randstat files", t_inconsistent);
	tap_test("numbers: range, sign, count, NUL, duplicates", t_numbers);
	tap_test("INTERVAL: a plain decimal, 0.01 s to a year", t_parse_interval);
	tap_test("a cpu line whose sums would wrap is damaged, exit 2", t_stat_overflow);

	tap_test("since start: shares, half-widths, marks", t_since_start);
	tap_test("since start: equal spans are compared, others not",
		 t_same_span);
	tap_test("since start: /proc/stat has a CPU randstat lacks",
	     t_since_start_more_cpus);
	tap_test("interval: deltas, half-widths, marks", t_interval);
	tap_test("interval: a change of law is said", t_law_change);
	tap_test("format 3: dormant and exact CPUs", t_tickless);
	tap_test("format 3: a CPU that changed mode between the reads", t_mode_change);
	tap_test("format 3: the outputs say what is exact", t_prog_tickless);
	tap_test("interval: a reset is said, not shown", t_reset);
	tap_test("interval: CPUs going offline and online", t_offline);
	tap_test("interval: a /proc/stat counter going down", t_stat_went_down);

	tap_test("randstat: since start, the table", t_prog_since_start);
	tap_test("randstat: captured pairs, with a reset", t_prog_pairs);
	tap_test("randstat: cpu1 offline", t_prog_offline);
	tap_test("randstat INTERVAL COUNT over unchanging files", t_prog_live);
	tap_test("randstat: an Average: block after the reports", t_prog_average);
	tap_test("randstat INTERVAL: SIGINT prints the Average, exit 0", t_prog_sigint);
	tap_test("randstat --one-row and --no-legend", t_prog_one_row);
	tap_test("randstat --json", t_prog_json);
	tap_test("randstat --prometheus", t_prog_prometheus);
	tap_test("randstat: input errors, exit 2", t_prog_errors);
	if (access("/proc/randstat_detail", F_OK) && errno == ENOENT)
		tap_test("randstat: module not loaded, exit 3", t_prog_no_module);
	else
		tap_skip("randstat: module not loaded, exit 3",
		     "/proc/randstat_detail exists here");
	tap_test("randstat: usage errors, exit 1; --help", t_prog_usage);
	tap_test("randstat, top, exec: --version, exit 0", t_prog_version);
	tap_test("randstat exec: unknown options are usage errors, 125", t_exec_usage);
	if (!can_unshare())
		tap_skip("randstat exec: the caller's supplementary groups (initgroups)",
			 "no mount namespace here (not root) for a test /etc/group");
	else
		tap_test("randstat exec: the caller's supplementary groups (initgroups)",
			 t_exec_groups);
	if (access("/dev/full", W_OK))
		tap_skip("randstat > /dev/full: said, exit 4", "no /dev/full");
	else
		tap_test("randstat > /dev/full: said, exit 4", t_prog_write_error);
	if (system("command -v groff >/dev/null 2>&1"))
		tap_skip("randstat.1 formats without warnings", "no groff");
	else
		tap_test("randstat.1 formats without warnings", t_manpage);

	tap_test("VM capture: since start, the cpu1 row from its ns", t_vm_since_start);
	tap_test("VM capture: a spin on cpu1, shares and half-widths by hand",
	     t_vm_spin);
	tap_test("VM capture: a reset is detected", t_vm_reset);
	tap_test("VM capture: cpu1 offline is reported", t_vm_offline);
	tap_test("VM capture: --prometheus is the ns and sample counts",
	     t_vm_prometheus);

	return tap_done();
}
