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
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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

static char *read_all(FILE *f)
{
	long n;
	char *s;

	fflush(f);
	n = ftell(f);
	s = calloc(1, n + 1);
	if (!s)
		exit(2);
	rewind(f);
	if (fread(s, 1, n, f) != (size_t)n)
		exit(2);
	fclose(f);
	return s;
}

/* Run the program with these arguments (a NULL-terminated array). */
static struct result run_argv(const char *const *args)
{
	const char *argv[32] = { prog };
	struct result r = { -1, NULL, NULL };
	FILE *out = tmpfile(), *err = tmpfile();
	int argc = 1, status;
	pid_t pid;

	for (; *args && argc < 31; args++)
		argv[argc++] = *args;
	if (!out || !err)
		exit(2);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		dup2(fileno(out), 1);
		dup2(fileno(err), 2);
		execv(prog, (char *const *)argv);
		_exit(127);
	}
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status))
		r.status = WEXITSTATUS(status);
	r.out = read_all(out);
	r.err = read_all(err);
	return r;
}

#define run(...)	run_argv((const char *const[]){ __VA_ARGS__, NULL })

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

/* --- the arithmetic ----------------------------------------------------- */

static void t_halfwidth(void)
{
	/* 1.96 * sqrt(0.2 * 0.8 / 250000) = 1.96 * 0.0008 */
	EXPECT_NEAR(rs_halfwidth95(50000, 250000), 0.001568, 1e-12);
	/* 1.96 * sqrt(0.4 * 0.6 / 2500) = 1.96 * 0.0097980 */
	EXPECT_NEAR(rs_halfwidth95(1000, 2500), 0.019204, 1e-6);
	EXPECT_NEAR(rs_halfwidth95(0, 1000), 0, 0);
	EXPECT_NEAR(rs_halfwidth95(1000, 1000), 0, 0);
	EXPECT(isnan(rs_halfwidth95(0, 0)));
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
	EXPECT(s.version == 4 && s.law == RS_LAW_EXPONENTIAL &&
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
	strcpy(text, "randstat 4 law exponential floor_ns 50000 mean_ns 4000000 tmin_ns 2000000 tmax_ns 6000000 user_hz 100\n");
	expect_bad(parse_rs(text, &s, &err), RS_ERR_FORMAT, &err, "mem:1:",
		   "before the 'cpu' line");
	expect_bad(parse_rs("", &s, &err), RS_ERR_FORMAT, &err, "mem",
		   "empty");
	free(text);
}

static void t_bad_version(void)
{
	struct rs_snap s;
	struct rs_error err;

	expect_bad(rs_load_randstat(fx("badversion.randstat"), &s, &err),
		   RS_ERR_VERSION, &err, "badversion.randstat:1:",
		   "format version 5; this reader knows version 4");
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

/* --- the reports --------------------------------------------------------- */

static void t_since_start(void)
{
	struct rs_snap stat, rs;
	struct rs_report rep;
	const struct rs_line *all, *c0, *c1;

	load_pair("normal", &stat, &rs);
	EXPECT(!rs_report_since_start(&rep, &stat, &rs));
	EXPECT(rep.nlines == 3 && rep.nnotes == 0 && !rep.interval);
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
	 * proportion's, 1.96 sqrt(.2 .8 / 250000) = 0.1568 points, times
	 * that same 0.9988 (format 3: share = p S / E, so sigma scales by S/E)
	 */
	EXPECT_NEAR(c0->rs[RS_D_USR], 19.976, 1e-9);
	EXPECT_NEAR(c0->hw[RS_D_USR], 0.1568 * 0.9988, 1e-9);
	/* /proc/stat cpu0: 101234 of 500870 ticks: 0.2356 from 19.976 */
	EXPECT_NEAR(c0->st[RS_D_USR], 20.2116318, 1e-6);
	EXPECT(c0->outside[RS_D_USR]);
	/* sys: 8.9892 +- 0.1120 (p 0.09: 0.1121833 x 0.9988) against 9.1197: outside */
	EXPECT_NEAR(c0->hw[RS_D_SYS], 0.1121833 * 0.9988, 1e-6);
	EXPECT(c0->outside[RS_D_SYS]);
	/* iowait: 3.9952 +- 0.0768 (p 0.04) against 3.9729: inside */
	EXPECT_NEAR(c0->rs[RS_D_IOWAIT], 3.9952, 1e-9);
	EXPECT(!c0->outside[RS_D_IOWAIT]);
	/* cpu1: usr = user - guest = 30000 samples, guest 10000; steal 0.08% */
	EXPECT_NEAR(c1->rs[RS_D_USR], 11.9904, 1e-9);
	EXPECT_NEAR(c1->rs[RS_D_GUEST], 3.9968, 1e-9);
	EXPECT_NEAR(c1->hw[RS_D_USR], 0.1273849 * 0.9992, 1e-6);
	/*
	 * all: each CPU's samples share its own sampled time, so the
	 * variances add: cpu0 998.8 s x sqrt(.2 .8 / 250000) = 0.79904 s,
	 * cpu1 999.2 s x sqrt(.12 .88 / 250000) = 0.64940 s; 1.96
	 * sqrt(0.79904^2 + 0.64940^2) / 2000 s = 0.1009060 points (pooling
	 * the counts, as format 2's reader did, gave 0.1016180)
	 */
	EXPECT_NEAR(all->hw[RS_D_USR], 0.1009060, 1e-6);
	EXPECT_NEAR(all->rs_seconds, 2000, 1e-9);
	EXPECT_NEAR(all->stat_seconds, 10085.33, 1e-9);
	/* steal is read, not sampled: no interval, no mark */
	EXPECT(isnan(c0->hw[RS_D_STEAL]) && !c0->outside[RS_D_STEAL]);
	EXPECT(all->s.overruns == 3 && all->s.cost_max_ns == 20480);
out:
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
	EXPECT(rep.nnotes == 1);
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
	EXPECT_NEAR(c0->hw[RS_D_USR], 1.9204, 1e-4);
	EXPECT_NEAR(c0->st[RS_D_USR], 40.5, 1e-9);	/* 405 of 1000 */
	EXPECT(!c0->outside[RS_D_USR]);
	/* cpu1: iowait 0.9988 +- 0.3900 against 3.0: outside */
	EXPECT_NEAR(c1->hw[RS_D_IOWAIT], 0.3900351, 1e-6);
	EXPECT(c1->outside[RS_D_IOWAIT] && c1->outside[RS_D_IDLE]);
	EXPECT(!c1->outside[RS_D_USR]);
	/*
	 * all: cpu0 1000 of 2500 usr samples over 10 s sampled, cpu1 500
	 * (600 - 100 guest) of 2500: 1.96 sqrt((10 sqrt(.4 .6 / 2500))^2 +
	 * (10 sqrt(.2 .8 / 2500))^2) / 20 = 1.2396128 points (pooled: 1.2702)
	 */
	EXPECT_NEAR(all->hw[RS_D_USR], 1.2396128, 1e-6);
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
 * half-width 1.96 x 0.4 x sqrt(.5 .5 / 100) / 10 = 0.392 points (the
 * exact 9.6 s has no sampling error).  cpu1: 5 s user, 2 s system, 3 s
 * idle, all exact: 50%, 20%, 30%, half-width 0.  The all row: usr
 * (0.2 + 5) / 20 = 26.0%, half-width 0.392 / 2 = 0.196.
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
	EXPECT_NEAR(c0->hw[RS_D_USR], 0.392, 1e-9);
	EXPECT(!c0->outside[RS_D_USR] && !c0->outside[RS_D_IDLE]);
	EXPECT_NEAR(c1->rs[RS_D_USR], 50.0, 1e-9);
	EXPECT_NEAR(c1->rs[RS_D_SYS], 20.0, 1e-9);
	EXPECT_NEAR(c1->rs[RS_D_IDLE], 30.0, 1e-9);
	EXPECT_NEAR(c1->hw[RS_D_USR], 0.0, 0);
	EXPECT(!c1->outside[RS_D_USR] && !c1->outside[RS_D_SYS]);
	EXPECT(c1->n == 0);
	EXPECT_NEAR(all->rs[RS_D_USR], 26.0, 1e-9);
	EXPECT_NEAR(all->hw[RS_D_USR], 0.196, 1e-9);
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
 *   half-width 1.96 x (6/10) x sqrt(.5 x .5 / 600) x 100 = 2.4004999 points
 *   (only the 6 s sampled carry an error; a CPU exact throughout has 0).
 * The kernel's /proc/stat says +500 user, +500 idle ticks: 50%, inside.
 * cpu0 is as in tickless-b: usr 2.0% +- 0.392.  The all row:
 *   usr (0.2 + 5) / 20 = 26.0%, half-width 1.96 x sqrt((0.4 x sqrt(.25/100))^2
 *   + (6 x sqrt(.25/600))^2) / 20 x 100 = 1.2161480 points.
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
	EXPECT_NEAR(c1->hw[RS_D_USR], 2.4004999, 1e-6);
	EXPECT_NEAR(c1->hw[RS_D_IDLE], 2.4004999, 1e-6);
	EXPECT(!c1->outside[RS_D_USR] && !c1->outside[RS_D_IDLE] &&
	       !c1->outside[RS_D_SYS]);
	EXPECT_NEAR(c0->rs[RS_D_USR], 2.0, 1e-9);
	EXPECT_NEAR(c0->hw[RS_D_USR], 0.392, 1e-9);
	EXPECT_NEAR(all->rs[RS_D_USR], 26.0, 1e-9);
	EXPECT_NEAR(all->hw[RS_D_USR], 1.2161480, 1e-6);
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

#define PAIR(name) "--stat", fx(name ".stat"), "--randstat", fx(name ".randstat")

static void t_prog_since_start(void)
{
	struct result r = run(PAIR("normal"));

	EXPECT(r.status == 0);
	EXPECT(!*r.err);
	EXPECT_HAS(r.out, "randstat counts since it was loaded or reset,\n/proc/stat since boot");
	EXPECT_HAS(r.out, "CPU  source       %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle");
	EXPECT_HAS(r.out, "\n0    randstat    19.98    1.00    8.99    4.00    0.20    1.80    0.12    0.00    0.00   63.92     1000.000     250000\n");
	EXPECT_HAS(r.out, "\n     +-95%        0.16    0.04    0.11    0.08    0.02    0.05       -    0.00    0.00    0.19\n");
	EXPECT_HAS(r.out, "\n     /proc/stat  20.21*   0.86*   9.12*   3.97    0.00*   1.53*   0.02    0.00    0.00   64.29*    5008.700\n");
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
	EXPECT_HAS(r.out, "\n     +-95%        1.92 ");
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

static void t_prog_live(void)
{
	/* the same files twice, 10 ms apart: nothing moved, nothing absurd */
	struct result r = run(PAIR("normal"), "0.01", "2");

	EXPECT(r.status == 0 && !*r.err);
	EXPECT(count_lines(r.out) > 5);
	EXPECT_HAS(r.out, "interval 0.0");
	EXPECT_HAS(r.out, "all  randstat        -       -");
	EXPECT(!absurd(r.out));
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

	EXPECT(r.status == 0 && count_lines(r.out) == 1);
	EXPECT(json_shaped(r.out));
	EXPECT_HAS(r.out, "\"mode\":\"since_start\"");
	EXPECT_HAS(r.out, "{\"cpu\":\"0\",\"randstat\":{\"seconds\":1000.000000,\"samples\":250000,\"pct\":{\"usr\":19.9760,");
	EXPECT_HAS(r.out, "\"ci95\":{\"usr\":0.1566,");
	EXPECT_HAS(r.out, "\"steal\":null");
	EXPECT_HAS(r.out, "\"outside\":[\"usr\",\"nice\",\"sys\",\"irq\",\"soft\",\"idle\"]");
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
		if (sscanf(s, "%127[a-z_]{cpu=\"%*[0-9]\"", name) != 1 ||
		    !memchr(s, '}', eol - s) || !memchr(s, ' ', eol - s))
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
	r = run("--json", PAIR("tickless-a"), PAIR("tickless-b"));
	EXPECT(r.status == 0 && json_shaped(r.out));
	EXPECT_HAS(r.out, "\"mode\":\"exact\",\"dormant\":false");
	EXPECT_HAS(r.out, "\"mode\":\"sampled\",\"dormant\":true");
	r = run("--prometheus", "--randstat", fx("tickless-b.randstat"));
	EXPECT(r.status == 0 && prometheus_shaped(r.out));
	EXPECT_HAS(r.out, "\nrandstat_exact_seconds_total{cpu=\"0\",mode=\"idle\"} 18.800000000\n");
	EXPECT_HAS(r.out, "\nrandstat_exact_seconds_total{cpu=\"1\",mode=\"user\"} 11.000000000\n");
	EXPECT_HAS(r.out, "\nrandstat_sampled_seconds_total{cpu=\"0\"} 1.200000000\n");
	EXPECT_HAS(r.out, "\nrandstat_sampler_exact{cpu=\"1\"} 1\n");
	EXPECT_HAS(r.out, "\nrandstat_sampler_dormant{cpu=\"0\"} 1\n");
	EXPECT_HAS(r.out, "\nrandstat_sampler_dormancies_total{cpu=\"0\"} 75\n");
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
	EXPECT_HAS(r.err, "badversion.randstat:1: format version 5; this reader knows version 4");
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
}

static void t_prog_usage(void)
{
	static const char *const bad[][5] = {
		{ "--bogus" }, { "0" }, { "-1" }, { "1", "0" }, { "1", "2", "3" },
		{ "abc" }, { "--json", "--prometheus" }, { "--prometheus", "1" },
		{ "--stat" }, { "--stat", "a", "--stat", "b" },
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
	r = run("--help");
	EXPECT(r.status == 0);
	EXPECT_HAS(r.out, "Exit status: 0 ok, 1 usage error, 2 ");
	EXPECT_HAS(r.out, "3 the randstat module is\nnot loaded");
	result_free(&r);
}

static void t_manpage(void)
{
	char cmd[4200];
	FILE *p;
	char out[8192];
	size_t n;
	int status;

	/* groff's warnings (-ww) go to stderr, which is captured here */
	snprintf(cmd, sizeof(cmd),
		 "groff -man -Tutf8 -ww %s 2>&1 >/dev/null; echo END", manpage);
	p = popen(cmd, "r");
	EXPECT(p != NULL);
	if (!p)
		return;
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	status = pclose(p);
	EXPECT(status == 0);
	EXPECT(!strcmp(out, "END\n"));
	if (strcmp(out, "END\n"))
		printf("# groff said: %s", out);
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

/* The text table's row SOURCE ("randstat" or "+-95%") of CPU: ten values,
 * NAN for "-". */
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
		p = strstr(p + 1, "\n     +-95%");
		if (!p)
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

static void t_vm_since_start(void)
{
	struct result r = run(PAIR("vm-normal"));
	unsigned long long ns[RS_NCOLS], smp[RS_NCOLS];
	const char *cpu1;
	double v[RS_NDISP];
	int i;

	EXPECT(r.status == 0 && !*r.err);
	EXPECT_HAS(r.out, "CPU  source       %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle      seconds    samples\n");
	EXPECT_HAS(r.out, "\nall  randstat ");
	EXPECT_HAS(r.out, "\n0    randstat ");
	EXPECT_HAS(r.out, "\n1    randstat ");
	EXPECT_HASNT(r.out, "note:");
	EXPECT(!absurd(r.out));
	/* A second after insmod, cpu1 idle: the table's cpu1 row is the
	 * file's ns row over its total (here idle 1044160953 and softirq
	 * 8090186 ns of 1052251139: 99.23% and 0.77%), to 2 decimals. */
	EXPECT(table_row(r.out, "1", "randstat", v));
	if (vm_row("vm-normal.randstat", "ns cpu1", ns))
		for (i = 0; i < RS_NDISP; i++)
			EXPECT_NEAR(v[i], 100.0 * vm_class_of(ns, i) / vm_total(ns),
				    0.005 + 1e-9);
	result_free(&r);

	r = run("--json", PAIR("vm-normal"));
	cpu1 = strstr(r.out, "{\"cpu\":\"1\",");
	EXPECT(r.status == 0 && json_shaped(r.out) && cpu1);
	/* seconds and samples: the first eight columns of ns and samples
	 * cpu1 (here 1.052251139 s, 260 samples) */
	if (cpu1 && vm_row("vm-normal.randstat", "ns cpu1", ns) &&
	    vm_row("vm-normal.randstat", "samples cpu1", smp)) {
		EXPECT_NEAR(json_num(cpu1, "seconds"), vm_total(ns) / 1e9, 5e-7);
		EXPECT_NEAR(json_num(cpu1, "samples"), vm_total(smp), 0);
	}
	result_free(&r);
}

/* The number after "KEY " in fixture NAME's line "sampler cpu1 ...". */
static unsigned long long vm_sampler(const char *name, const char *key)
{
	char *text = slurp(name), *p = strstr(text, "\nsampler cpu1 "), *k;
	char want[32];
	unsigned long long v = 0;

	snprintf(want, sizeof(want), " %s ", key);
	k = p ? strstr(p, want) : NULL;
	if (k && k < strchr(p + 1, '\n'))
		v = strtoull(k + strlen(want), NULL, 10);
	else
		printf("# %s: no %s on the sampler cpu1 line\n", name, key);
	free(text);
	return v;
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
	double v[RS_NDISP], p, n, sampled, elapsed;
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
	 * time, over the elapsed time; the half-width is 100 * 1.96 * sqrt(p
	 * (1 - p) / n) of the same p, times sampled / elapsed; /proc/stat's
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
			EXPECT(isnan(json_num(ci, "steal")));
			continue;
		}
		p = vm_class_of(smp, i) / n;
		EXPECT_NEAR(json_num(ci, vm_class[i].key),
			    100.0 * 1.96 * sqrt(p * (1 - p) / n) * sampled / elapsed,
			    0.00005 + 1e-9);
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
	EXPECT(table_row(r.out, "1", "+-95%", v));
	p = vm_class_of(smp, 0) / n;
	EXPECT_NEAR(v[0], 100.0 * 1.96 * sqrt(p * (1 - p) / n) * sampled / elapsed,
		    0.005 + 1e-9);
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
	char want[160], prefix[16];
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

	tap_test("since start: shares, half-widths, marks", t_since_start);
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
	tap_test("randstat --json", t_prog_json);
	tap_test("randstat --prometheus", t_prog_prometheus);
	tap_test("randstat: input errors, exit 2", t_prog_errors);
	if (access("/proc/randstat", F_OK) && errno == ENOENT)
		tap_test("randstat: module not loaded, exit 3", t_prog_no_module);
	else
		tap_skip("randstat: module not loaded, exit 3",
		     "/proc/randstat exists here");
	tap_test("randstat: usage errors, exit 1; --help", t_prog_usage);
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
