// SPDX-License-Identifier: GPL-2.0
/*
 * randstat: put the randomized statclock's estimates beside /proc/stat.
 *
 *   randstat                     shares since the counters started
 *   randstat INTERVAL [COUNT]    shares over each interval, as mpstat
 *   randstat --json ...          the same, one JSON object per report
 *   randstat --prometheus        the counters, node_exporter textfile format
 *   randstat top ...             per process or thread (rstop.c)
 *   randstat exec ...            a command on randstat's /proc/stat (rsexec.c)
 *   randstat cgroup ...          per cgroup: runs randstat-cgroup (cgroup/)
 *   randstat verify ...          judged on this machine (verify/rsverify.c)
 *
 * See randstat.1.  The parsing is in rsparse.c, the arithmetic in
 * rsreport.c; this file has the command line and the three outputs.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rsexec.h"
#include "rsexit.h"
#include "rsjson.h"
#include "rsparse.h"
#include "rsreport.h"
#include "rstop.h"
#include "rsverify.h"

#define PROC_STAT	"/proc/stat"
#define PROC_RANDSTAT	RS_PROC_DETAIL

/* Exit codes (rsexit.h); randstat.1 and --help list them. */
#define EXIT_OK		RS_EXIT_OK
#define EXIT_USAGE	RS_EXIT_USAGE
#define EXIT_INPUT	RS_EXIT_INPUT
#define EXIT_NOMODULE	RS_EXIT_NOMODULE

enum output { OUT_TEXT, OUT_ROWS, OUT_JSON, OUT_PROMETHEUS };

struct options {
	enum output out;
	unsigned int nstat, nrs;	/* --stat and --randstat given */
	const char **stat, **rs;
	bool no_legend;			/* --no-legend */
	double interval;		/* 0: since the counters started */
	unsigned long long count;	/* 0: until interrupted */
};

/* One read of both files. */
struct pair {
	struct rs_snap stat;
	struct rs_snap rs;
	struct timespec when;		/* CLOCK_MONOTONIC */
};

static const char usage_text[] =
"Usage: randstat [--one-row | --json | --prometheus] [--no-legend]\n"
"                [--stat PATH] [--randstat PATH] [INTERVAL [COUNT]]\n"
"       randstat top [-t] [-p PID[,PID...]] [-n N] [--rows N] [--json]\n"
"                    [INTERVAL [COUNT]]\n"
"       randstat exec [--stat FILE] [--] CMD [ARGS...]\n"
"       randstat cgroup ...   per cgroup v2 (randstat-cgroup(1))\n"
"       randstat verify [--cpu N] [--seconds S] [--json] [--no-legend]\n"
"\n"
"Puts the estimates of randstat's randomized statclock (/proc/randstat_detail)\n"
"beside the kernel's tick-based /proc/stat, with randstat's 95% confidence\n"
"interval per class (+- a half-width, or its two ends where it is\n"
"lopsided), in mpstat's columns.\n"
"\n"
"With no INTERVAL: each class's share of the time since the counters\n"
"started (randstat since it was loaded or reset, /proc/stat since boot).\n"
"With INTERVAL (seconds, a plain decimal from 0.01, such as 2 or 0.5): a\n"
"report of the shares over each interval, COUNT times or until interrupted.\n"
"\n"
"  --one-row         for scripts, as sadf -d: one line per CPU and report,\n"
"                    fields separated by ';' (time, CPU, source, seconds,\n"
"                    samples, then each class's randstat share, its 95%\n"
"                    half-width and /proc/stat's share, then the classes\n"
"                    marked '*'), under one '#' header line\n"
"  --no-legend       no explanation above the first report\n"
"  --json            one JSON object per report, one per line\n"
"  --prometheus      randstat's counters in node_exporter's textfile\n"
"                    collector format (takes no INTERVAL)\n"
"  --stat PATH       read PATH instead of /proc/stat\n"
"  --randstat PATH   read PATH instead of /proc/randstat_detail\n"
"                    Both given N >= 2 times: N captured pairs, one\n"
"                    interval report per consecutive two (no INTERVAL).\n"
"  -h, --help        this help\n"
"  -V, --version     the version\n"
"\n"
"randstat top: per process or thread, from the randstat:sample tracepoint\n"
"(randstat top --help).  randstat exec: a command that sees randstat's\n"
"figures in /proc/stat (randstat.1).  randstat verify: randstat judged on\n"
"this machine against each workload's exact CPU time (randstat verify\n"
"--help).\n"
"\n"
"A '*' after a /proc/stat share: it lies outside randstat's 95% interval.\n"
"\n"
"Exit status: 0 ok, 1 usage error, 2 an input could not be read or parsed\n"
"(truncated, damaged, unknown format version), 3 the randstat module is\n"
"not loaded (no /proc/randstat_detail), 4 the output could not be written,\n"
"5 another failure (out of memory).\n";

static int usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("randstat: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'randstat --help'.\n", stderr);
	return EXIT_USAGE;
}

static int add_path(const char ***paths, unsigned int *n, const char *p)
{
	const char **np = realloc(*paths, (*n + 1) * sizeof(*np));

	if (!np)
		return -1;
	np[(*n)++] = p;
	*paths = np;
	return 0;
}

/* Returns -1 to go on, else an exit code. */
static int parse_args(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "one-row", no_argument, NULL, '1' },
		{ "no-legend", no_argument, NULL, 'L' },
		{ "prometheus", no_argument, NULL, 'p' },
		{ "stat", required_argument, NULL, 's' },
		{ "randstat", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c, npos;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
		case 'p':
		case '1':
			if (o->out != OUT_TEXT)
				return usage_error("--one-row, --json and --prometheus exclude each other");
			o->out = c == 'j' ? OUT_JSON :
				 c == 'p' ? OUT_PROMETHEUS : OUT_ROWS;
			break;
		case 'L':
			o->no_legend = true;
			break;
		case 's':
		case 'r':
			if (c == 's' ? add_path(&o->stat, &o->nstat, optarg) :
				       add_path(&o->rs, &o->nrs, optarg))
				return usage_error("out of memory");
			break;
		case 'h':
			fputs(usage_text, stdout);
			return rs_output_error("randstat");
		case 'V':
			return rs_print_version("randstat");
		default:
			return usage_error("unknown option or missing argument: %s",
					   argv[optind - 1]);
		}
	}
	npos = argc - optind;
	if (npos > 2)
		return usage_error("too many arguments: %s", argv[optind + 2]);
	if (npos >= 1 && !rs_parse_interval(argv[optind], &o->interval))
		return usage_error("INTERVAL must be " RS_INTERVAL_RULE ": '%s'",
				   argv[optind]);
	if (npos == 2 && !rs_parse_count(argv[optind + 1], &o->count))
		return usage_error("COUNT must be a whole number above 0: '%s'",
				   argv[optind + 1]);
	if ((o->nstat > 1 || o->nrs > 1) && o->nstat != o->nrs)
		return usage_error("give --stat and --randstat as many times each for captured pairs");
	if (o->nrs > 1 && npos)
		return usage_error("captured pairs take no INTERVAL or COUNT");
	if (o->out == OUT_PROMETHEUS && (npos || o->nrs > 1))
		return usage_error("--prometheus prints counters, which take no INTERVAL or captured pairs; run it from a timer");
	return -1;
}

static const char *stat_path(const struct options *o, unsigned int k)
{
	return o->nstat ? o->stat[k < o->nstat ? k : o->nstat - 1] : PROC_STAT;
}

static const char *rs_path(const struct options *o, unsigned int k)
{
	return o->nrs ? o->rs[k < o->nrs ? k : o->nrs - 1] : PROC_RANDSTAT;
}

/* An error a person can act on, and its exit code. */
static int input_error(const struct rs_error *err, bool default_randstat)
{
	if (err->status == RS_ERR_NOENT && default_randstat) {
		fputs(RS_NO_MODULE_MSG("randstat"), stderr);
		return EXIT_NOMODULE;
	}
	fprintf(stderr, "randstat: %s\n", err->msg);
	return EXIT_INPUT;
}

static void pair_free(struct pair *p)
{
	rs_snap_free(&p->stat);
	rs_snap_free(&p->rs);
}

/* Read the k-th pair of files: returns -1 if done, else an exit code. */
static int read_pair(const struct options *o, unsigned int k, struct pair *p)
{
	struct rs_error err;

	memset(p, 0, sizeof(*p));
	clock_gettime(CLOCK_MONOTONIC, &p->when);
	if (rs_load_randstat(rs_path(o, k), &p->rs, &err))
		return input_error(&err, !o->nrs);
	if (rs_load_stat(stat_path(o, k), &p->stat, &err)) {
		pair_free(p);
		return input_error(&err, false);
	}
	return -1;
}

/* --- text ------------------------------------------------------------ */

struct context {
	const struct options *o;
	bool said_legend;
	double wall;		/* seconds between the reads, or NAN */
	const char *title;	/* what the report covers, or NULL */
	const char *stamp;	/* --one-row's time field */
	bool said_header;	/* --one-row's header */
};

#define CELL	8		/* "%7.2f" and a mark */

/* Before each line of a report: "Average: " in sysstat's average block. */
static const char *row_prefix = "";

static void cell(char **p, double v, bool mark)
{
	if (isnan(v))
		*p += sprintf(*p, "%*s ", CELL - 1, "-");
	else
		*p += sprintf(*p, "%*.2f%c", CELL - 1, v, mark ? '*' : ' ');
}

/* Print a row without trailing blanks. */
static void put_row(char *buf, char *end)
{
	while (end > buf && end[-1] == ' ')
		end--;
	*end = '\0';
	fputs(row_prefix, stdout);
	puts(buf);
}

static void text_source_row(const char *cpu, const char *source,
			    const double *v, const bool *mark, double seconds,
			    const uint64_t *samples)
{
	char buf[256], *p = buf;
	int i;

	p += sprintf(p, "%-4s %-10s", cpu, source);
	for (i = 0; i < RS_NDISP; i++)
		cell(&p, v[i], mark && mark[i]);
	if (!isnan(seconds))
		p += sprintf(p, " %11.3f", seconds);
	if (samples)
		p += sprintf(p, " %10llu", (unsigned long long)*samples);
	put_row(buf, p);
}

static void text_header(void)
{
	char buf[256], *p = buf;
	int i;

	p += sprintf(p, "%-4s %-10s", "CPU", "source");
	for (i = 0; i < RS_NDISP; i++)
		p += sprintf(p, "%*s%s ", CELL - 1 - (int)strlen(rs_disp_name[i]),
			     "%", rs_disp_name[i]);
	p += sprintf(p, " %11s %10s", "seconds", "samples");
	put_row(buf, p);
}

/*
 * Is every interval of the line symmetric about its share, to the two
 * printed decimals?  Then it is the share +- a half-width; else (near 0%
 * or 100%, few samples) the line prints its intervals' two ends.
 */
static bool symmetric(const struct rs_line *l)
{
	char below[32], above[32];
	int i;

	for (i = 0; i < RS_NDISP; i++) {
		if (isnan(l->lo[i]) || isnan(l->rs[i]))
			continue;
		snprintf(below, sizeof(below), "%.2f", l->rs[i] - l->lo[i]);
		snprintf(above, sizeof(above), "%.2f", l->hi[i] - l->rs[i]);
		if (strcmp(below, above))
			return false;
	}
	return true;
}

static void text_line(const struct rs_line *l)
{
	char cpu[16];

	if (l->cpu == RS_ALL)
		strcpy(cpu, "all");
	else
		snprintf(cpu, sizeof(cpu), "%d", l->cpu);
	if (l->has_rs) {
		/* a CPU served from the kernel's exact accounting says so */
		text_source_row(cpu, l->cpu != RS_ALL && l->s.exact ? "exact" :
				"randstat", l->rs, NULL, l->rs_seconds, &l->n);
		if (symmetric(l)) {
			text_source_row("", "+-95%", l->hw, NULL, NAN, NULL);
		} else {
			text_source_row("", "95% from", l->lo, NULL, NAN, NULL);
			text_source_row("", "95% to", l->hi, NULL, NAN, NULL);
		}
	}
	if (l->has_stat)
		text_source_row(l->has_rs ? "" : cpu, "/proc/stat", l->st,
				l->outside, l->stat_seconds, NULL);
}

static double mean(uint64_t total, uint64_t n)
{
	return n ? (double)total / n : NAN;
}

/*
 * The sampler's callbacks: an overrun is an expiry already past when the
 * callback ran, counted as a sample by that same callback, so cost_ns and
 * late_ns (one record per callback) are over samples - overruns calls.
 */
static uint64_t callbacks(const struct rs_sampler *s)
{
	return s->samples > s->overruns ? s->samples - s->overruns : 0;
}

/* A mean in whole ns, or "-" without samples. */
static const char *mean_ns(char *buf, size_t size, uint64_t total, uint64_t n)
{
	if (n)
		snprintf(buf, size, "%.0f ns", mean(total, n));
	else
		snprintf(buf, size, "-");
	return buf;
}

static void text_sampler(const struct rs_report *rep)
{
	const struct rs_sampler *s = &rep->lines[0].s;
	char cost[32], late[32];

	printf("%ssampler: %llu samples over %.1f%% of the time (the rest exact), %llu dormancies, cost mean %s (max %llu ns), late mean %s (max %llu ns), %llu overruns%s\n",
	       row_prefix, (unsigned long long)s->samples,
	       s->elapsed_ns ? 100.0 * s->sampled_ns / s->elapsed_ns : 0.0,
	       (unsigned long long)s->dormancies,
	       mean_ns(cost, sizeof(cost), s->cost_ns, callbacks(s)),
	       (unsigned long long)s->cost_max_ns,
	       mean_ns(late, sizeof(late), s->late_ns, callbacks(s)),
	       (unsigned long long)s->late_max_ns,
	       (unsigned long long)s->overruns,
	       rep->interval ? "; maxima since the start" : "");
}

static void text_legend(struct context *ctx, const struct rs_report *rep)
{
	if (ctx->said_legend || ctx->o->no_legend)
		return;
	ctx->said_legend = true;
	if (rep->law == RS_LAW_UNIFORM)
		printf("randstat: samples at uniformly random intervals in [%.3f, %.3f] ms\n",
		       rep->tmin_ns / 1e6, rep->tmax_ns / 1e6);
	else
		printf("randstat: samples at random times, intervals %.3f ms + exponential, mean %.3f ms\n",
		       rep->floor_ns / 1e6, rep->mean_ns / 1e6);
	if (rep->interval)
		puts("Shares of each source's own total over each interval, from the deltas of both files.");
	else
		puts("Shares of each source's own total: randstat counts since it was loaded or reset,\n"
		     "/proc/stat since boot, so the two cover different times and are compared\n"
		     "only if they cover the same span.");
	puts("A '*' marks a /proc/stat share outside randstat's 95% interval.  Source\n"
	     "'exact': a CPU randstat serves from the kernel's exact (nohz_full) accounting;\n"
	     "an idle CPU's idle time is exact too while its sampler sleeps.");
}

static void print_text(struct context *ctx, const struct rs_report *rep)
{
	unsigned int i;

	text_legend(ctx, rep);
	if (!ctx->o->no_legend || ctx->said_header)
		putchar('\n');
	ctx->said_header = true;
	if (ctx->title) {
		fputs(ctx->title, stdout);
		if (!isnan(ctx->wall))
			printf("  interval %.3f s", ctx->wall);
		putchar('\n');
	}
	for (i = 0; i < rep->nnotes; i++)
		printf("%snote: %s\n", row_prefix, rep->notes[i]);
	if (!rep->nlines)
		return;
	text_header();
	for (i = 0; i < rep->nlines; i++)
		text_line(&rep->lines[i]);
	text_sampler(rep);
}

/* --- one row per CPU ------------------------------------------------- */

/* A share for --one-row: two decimals, or an empty field. */
static void row_share(double v, bool have)
{
	if (have && !isnan(v))
		printf(";%.2f", v);
	else
		putchar(';');
}

/*
 * --one-row: sadf -d's way, one line per CPU and report, fields
 * separated by ';', one '#' header line above the first; the notes as
 * '#' lines.  A field a CPU lacks (no randstat line, no /proc/stat line,
 * the interval of steal) is empty.
 */
static void print_rows(struct context *ctx, const struct rs_report *rep)
{
	unsigned int i;
	int k;

	if (!ctx->said_header) {
		ctx->said_header = true;
		fputs("# time;CPU;source;seconds;samples", stdout);
		for (k = 0; k < RS_NDISP; k++)
			printf(";%s;%s_ci95;%s_stat", rs_disp_name[k],
			       rs_disp_name[k], rs_disp_name[k]);
		puts(";outside");
	}
	for (i = 0; i < rep->nnotes; i++)
		printf("# %s: note: %s\n", ctx->stamp, rep->notes[i]);
	for (i = 0; i < rep->nlines; i++) {
		const struct rs_line *l = &rep->lines[i];
		bool first = true;

		fputs(ctx->stamp, stdout);
		if (l->cpu == RS_ALL)
			fputs(";all", stdout);
		else
			printf(";%d", l->cpu);
		if (l->has_rs)
			printf(";%s;%.3f;%llu",
			       l->cpu != RS_ALL && l->s.exact ? "exact" : "randstat",
			       l->rs_seconds, (unsigned long long)l->n);
		else
			fputs(";;;", stdout);
		for (k = 0; k < RS_NDISP; k++) {
			row_share(l->rs[k], l->has_rs);
			row_share(l->hw[k], l->has_rs);
			row_share(l->st[k], l->has_stat);
		}
		putchar(';');
		for (k = 0; k < RS_NDISP; k++) {
			if (!l->outside[k])
				continue;
			printf("%s%s", first ? "" : "+", rs_disp_name[k]);
			first = false;
		}
		putchar('\n');
	}
}

/* --- JSON ------------------------------------------------------------ */

static struct json_object *json_classes(const double *v)
{
	struct json_object *o = json_object_new_object();
	int i;

	for (i = 0; o && i < RS_NDISP; i++)
		rs_json_add(o, rs_disp_name[i], rs_json_fixed(v[i], 4));
	return o;
}

/* Each class's interval, [lo, hi] in percent as its share; null: none. */
static struct json_object *json_intervals(const double *lo, const double *hi)
{
	struct json_object *o = json_object_new_object(), *a;
	int i;

	for (i = 0; o && i < RS_NDISP; i++) {
		a = NULL;
		if (!isnan(lo[i]) && !isnan(hi[i]) &&
		    (a = json_object_new_array())) {
			json_object_array_add(a, rs_json_fixed(lo[i], 4));
			json_object_array_add(a, rs_json_fixed(hi[i], 4));
		}
		rs_json_add(o, rs_disp_name[i], a);
	}
	return o;
}

static struct json_object *json_sampler(const struct rs_sampler *s)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	rs_json_add(o, "samples", rs_json_u64(s->samples));
	rs_json_add(o, "sampled_s", rs_json_fixed(s->sampled_ns / 1e9, 6));
	rs_json_add(o, "dormancies", rs_json_u64(s->dormancies));
	rs_json_add(o, "overruns", rs_json_u64(s->overruns));
	rs_json_add(o, "cost_mean_ns",
		    rs_json_fixed(mean(s->cost_ns, callbacks(s)), 1));
	rs_json_add(o, "cost_max_ns", rs_json_u64(s->cost_max_ns));
	rs_json_add(o, "late_mean_ns",
		    rs_json_fixed(mean(s->late_ns, callbacks(s)), 1));
	rs_json_add(o, "late_max_ns", rs_json_u64(s->late_max_ns));
	return o;
}

static struct json_object *json_line(const struct rs_line *l)
{
	struct json_object *o = json_object_new_object(), *x, *out;
	char cpu[16];
	int i;

	if (!o)
		return NULL;
	if (l->cpu == RS_ALL)
		strcpy(cpu, "all");
	else
		snprintf(cpu, sizeof(cpu), "%d", l->cpu);
	rs_json_add(o, "cpu", rs_json_str(cpu));
	x = NULL;
	if (l->has_rs && (x = json_object_new_object())) {
		rs_json_add(x, "seconds", rs_json_fixed(l->rs_seconds, 6));
		rs_json_add(x, "samples", rs_json_u64(l->n));
		rs_json_add(x, "pct", json_classes(l->rs));
		rs_json_add(x, "ci95", json_intervals(l->lo, l->hi));
	}
	rs_json_add(o, "randstat", x);
	x = NULL;
	if (l->has_stat && (x = json_object_new_object())) {
		rs_json_add(x, "seconds", rs_json_fixed(l->stat_seconds, 2));
		rs_json_add(x, "pct", json_classes(l->st));
	}
	rs_json_add(o, "stat", x);
	rs_json_add(o, "compared", rs_json_bool(l->compared));
	out = json_object_new_array();
	for (i = 0; out && i < RS_NDISP; i++)
		if (l->outside[i])
			json_object_array_add(out, rs_json_str(rs_disp_name[i]));
	rs_json_add(o, "outside", out);
	if (l->has_rs) {
		if (l->cpu != RS_ALL) {
			rs_json_add(o, "mode", rs_json_str(l->s.exact ? "exact" :
							   "sampled"));
			rs_json_add(o, "dormant", rs_json_bool(l->s.dormant));
		}
		rs_json_add(o, "sampler", json_sampler(&l->s));
	}
	return o;
}

static int print_json(struct context *ctx, const struct rs_report *rep)
{
	struct json_object *o = json_object_new_object(), *a;
	struct timespec now;
	char t[32];
	unsigned int i;

	if (!o)
		return -1;
	clock_gettime(CLOCK_REALTIME, &now);
	snprintf(t, sizeof(t), "%lld.%03ld", (long long)now.tv_sec,
		 now.tv_nsec / 1000000);
	rs_json_add(o, "version", json_object_new_int(RS_JSON_VERSION));
	rs_json_add(o, "format", json_object_new_int(RS_FORMAT_VERSION));
	rs_json_add(o, "mode", rs_json_str(rep->interval ? "interval" :
					   "since_start"));
	rs_json_add(o, "time", json_object_new_double_s(now.tv_sec, t));
	rs_json_add(o, "interval_s", rs_json_fixed(ctx->wall, 3));
	rs_json_add(o, "law", rs_json_str(rs_law_name[rep->law]));
	rs_json_add(o, "floor_ns", rs_json_u64(rep->floor_ns));
	rs_json_add(o, "mean_ns", rs_json_u64(rep->mean_ns));
	rs_json_add(o, "tmin_ns", rs_json_u64(rep->tmin_ns));
	rs_json_add(o, "tmax_ns", rs_json_u64(rep->tmax_ns));
	rs_json_add(o, "reset", rs_json_bool(rep->reset));
	a = json_object_new_array();
	for (i = 0; a && i < rep->nnotes; i++)
		json_object_array_add(a, rs_json_str(rep->notes[i]));
	rs_json_add(o, "notes", a);
	a = json_object_new_array();
	for (i = 0; a && i < rep->nlines; i++)
		json_object_array_add(a, json_line(&rep->lines[i]));
	rs_json_add(o, "cpus", a);
	return rs_json_print(stdout, o);
}

/* --- Prometheus ------------------------------------------------------- */

enum prom_unit { PROM_COUNT, PROM_NS };

/* One metric family: a row of ten columns, or one value per CPU. */
struct prom_family {
	const char *name;
	const char *type;
	const char *help;
	enum prom_unit unit;
	size_t row;		/* offsetof the row in rs_cpu, if modes */
	bool guest;		/* the row's guest columns, not the eight */
	uint64_t (*value)(const struct rs_cpu *c);	/* if no modes */
};

static uint64_t cost_ns(const struct rs_cpu *c) { return c->s.cost_ns; }
static uint64_t late_ns(const struct rs_cpu *c) { return c->s.late_ns; }
static uint64_t overruns(const struct rs_cpu *c) { return c->s.overruns; }
static uint64_t online(const struct rs_cpu *c) { return c->s.online; }
static uint64_t sampled_ns(const struct rs_cpu *c) { return c->s.sampled_ns; }
static uint64_t dormancies(const struct rs_cpu *c) { return c->s.dormancies; }
static uint64_t exact(const struct rs_cpu *c) { return c->s.exact; }
static uint64_t dormant(const struct rs_cpu *c) { return c->s.dormant; }

static const struct prom_family prom_families[] = {
	{ "randstat_cpu_seconds_total", "counter",
	  "Seconds the CPUs spent in each mode, estimated by randstat's randomized statclock (as node_cpu_seconds_total).",
	  PROM_NS, offsetof(struct rs_cpu, ns), false, NULL },
	{ "randstat_cpu_guest_seconds_total", "counter",
	  "Seconds the CPUs spent in guests (VMs), estimated by randstat; also counted in user and nice (as node_cpu_guest_seconds_total).",
	  PROM_NS, offsetof(struct rs_cpu, ns), true, NULL },
	{ "randstat_samples_total", "counter",
	  "Samples randstat's statclock took in each mode.",
	  PROM_COUNT, offsetof(struct rs_cpu, samples), false, NULL },
	{ "randstat_guest_samples_total", "counter",
	  "Samples randstat took in guests; also counted in user and nice.",
	  PROM_COUNT, offsetof(struct rs_cpu, samples), true, NULL },
	{ "randstat_sampler_cost_seconds_total", "counter",
	  "Seconds spent in randstat's sampler callback.",
	  PROM_NS, 0, false, cost_ns },
	{ "randstat_sampler_late_seconds_total", "counter",
	  "Seconds from the sampler's scheduled expiries to its callbacks.",
	  PROM_NS, 0, false, late_ns },
	{ "randstat_sampler_overruns_total", "counter",
	  "Expiries the sampler skipped because its timer ran too late.",
	  PROM_COUNT, 0, false, overruns },
	{ "randstat_sampler_online", "gauge",
	  "1 if the CPU was online when /proc/randstat_detail was read.",
	  PROM_COUNT, 0, false, online },
	{ "randstat_exact_seconds_total", "counter",
	  "Seconds randstat charged exactly, from the kernel's own accounting, not from samples (included in randstat_cpu_seconds_total).",
	  PROM_NS, offsetof(struct rs_cpu, exact), false, NULL },
	{ "randstat_sampled_seconds_total", "counter",
	  "Seconds randstat's samples cover and share among the modes.",
	  PROM_NS, 0, false, sampled_ns },
	{ "randstat_sampler_dormancies_total", "counter",
	  "Times the sampler stopped on an idle CPU (tickless).",
	  PROM_COUNT, 0, false, dormancies },
	{ "randstat_sampler_exact", "gauge",
	  "1 if the CPU is served from the kernel's exact (nohz_full) accounting, not sampled.",
	  PROM_COUNT, 0, false, exact },
	{ "randstat_sampler_dormant", "gauge",
	  "1 if the CPU's sampler was asleep (the CPU idle) when /proc/randstat_detail was read.",
	  PROM_COUNT, 0, false, dormant },
};

static void prom_value(enum prom_unit unit, uint64_t v)
{
	if (unit == PROM_NS)
		printf(" %llu.%09llu\n", (unsigned long long)(v / 1000000000),
		       (unsigned long long)(v % 1000000000));
	else
		printf(" %llu\n", (unsigned long long)v);
}

static void prom_cpu(const struct prom_family *f, unsigned int cpu,
		     const struct rs_cpu *c)
{
	static const int guest_cols[] = { RS_GUEST, RS_GUEST_NICE };
	static const char *const guest_modes[] = { "user", "nice" };
	const struct rs_row *row;
	int i;

	if (f->value) {
		printf("%s{cpu=\"%u\"}", f->name, cpu);
		prom_value(f->unit, f->value(c));
		return;
	}
	row = (const struct rs_row *)((const char *)c + f->row);
	for (i = 0; i < (f->guest ? 2 : RS_NTIME); i++) {
		printf("%s{cpu=\"%u\",mode=\"%s\"}", f->name, cpu,
		       f->guest ? guest_modes[i] : rs_col_name[i]);
		prom_value(f->unit, row->v[f->guest ? guest_cols[i] : i]);
	}
}

/* CPUs online, or that have been: a possible CPU never up is left out. */
static bool prom_shown(const struct rs_cpu *c)
{
	return c->counted && (c->listed || c->s.online || c->s.elapsed_ns);
}

/*
 * What is said whatever happens: the release, and whether /proc/randstat
 * could be read (0: the module not loaded, or the file unreadable or of
 * another format; the exit code and stderr say which).
 */
static void print_prometheus_up(bool up)
{
	printf("# HELP randstat_build_info The randstat reader's release (always 1).\n"
	       "# TYPE randstat_build_info gauge\n"
	       "randstat_build_info{version=\"%s\"} 1\n", RS_VERSION);
	printf("# HELP randstat_up 1 if /proc/randstat_detail was read, 0 if not (the module not loaded, or the file unreadable or of another format).\n"
	       "# TYPE randstat_up gauge\n"
	       "randstat_up %d\n", up);
}

static void print_prometheus(const struct rs_snap *rs)
{
	const struct prom_family *f;
	unsigned int cpu;

	print_prometheus_up(true);
	for (f = prom_families;
	     f < prom_families + sizeof(prom_families) / sizeof(*f); f++) {
		printf("# HELP %s %s\n# TYPE %s %s\n", f->name, f->help,
		       f->name, f->type);
		for (cpu = 0; cpu < rs->ncpu; cpu++)
			if (prom_shown(&rs->cpu[cpu]))
				prom_cpu(f, cpu, &rs->cpu[cpu]);
	}
}

/* --- main ------------------------------------------------------------- */

static double seconds_between(const struct timespec *a,
			      const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) + (b->tv_nsec - a->tv_nsec) / 1e9;
}

static int emit(struct context *ctx, const struct rs_report *rep)
{
	if (ctx->o->out == OUT_JSON && print_json(ctx, rep) && !ferror(stdout)) {
		fputs("randstat: out of memory\n", stderr);
		return RS_EXIT_FAIL;
	}
	if (ctx->o->out == OUT_ROWS)
		print_rows(ctx, rep);
	else if (ctx->o->out != OUT_JSON)
		print_text(ctx, rep);
	return rs_output_error("randstat") ? RS_EXIT_OUTPUT : -1;
}

/*
 * The report from @a to @b; with @left_out intervals of @n left out of
 * it (the Average across a reset), a note that says so.
 */
static int report_span(struct context *ctx, const struct pair *a,
		       const struct pair *b, unsigned long long left_out,
		       unsigned long long n)
{
	struct rs_report rep;
	int ret;

	if (rs_report_interval(&rep, &a->stat, &a->rs, &b->stat, &b->rs) ||
	    (left_out &&
	     rs_report_note(&rep, "%llu of the %llu intervals left out: randstat's counters went down in %s (a reset, or the module reloaded)",
			    left_out, n, left_out > 1 ? "them" : "it"))) {
		fprintf(stderr, "randstat: out of memory\n");
		ret = RS_EXIT_FAIL;
	} else {
		ret = emit(ctx, &rep);
	}
	rs_report_free(&rep);
	return ret;
}

/* Files named on the command line: captured, so no time of day. */
static bool o_pairs(const struct context *ctx)
{
	return ctx->o->nrs || ctx->o->nstat;
}

static int run_since_start(struct context *ctx)
{
	struct rs_report rep;
	char title[64], stamp[16];
	struct pair p;
	int ret = read_pair(ctx->o, 0, &p);

	if (ret >= 0)
		return ret;
	if (!o_pairs(ctx)) {
		time_t now = time(NULL);

		strftime(title, sizeof(title), "%H:%M:%S  since the counters started",
			 localtime(&now));
		ctx->title = title;
		strftime(stamp, sizeof(stamp), "%H:%M:%S", localtime(&now));
		ctx->stamp = stamp;
	}
	if (rs_report_since_start(&rep, &p.stat, &p.rs)) {
		fprintf(stderr, "randstat: out of memory\n");
		ret = RS_EXIT_FAIL;
	} else {
		ret = emit(ctx, &rep);
	}
	rs_report_free(&rep);
	pair_free(&p);
	return ret;
}

/* Set by SIGINT (Ctrl-C) while reports are made every INTERVAL. */
static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* SIGINT ends the sleep (no SA_RESTART) and the loop, as mpstat's. */
static void catch_sigint(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
}

/* Sleep until @offset seconds after @start, or until interrupted. */
static void sleep_until(const struct timespec *start, double offset)
{
	struct timespec t = *start;
	double whole = floor(offset);

	t.tv_sec += (time_t)whole;
	t.tv_nsec += (long)((offset - whole) * 1e9);
	if (t.tv_nsec >= 1000000000) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000;
	}
	while (!interrupted &&
	       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) ==
	       EINTR)
		;
}

/*
 * The Average's end: the first read, plus the growth over each interval
 * kept (rs_snap_add_delta()); an interval in which randstat's counters
 * went down (a reset, a reload) is left out, /proc/stat's growth over it
 * too, so that both cover the same time.
 */
struct average {
	struct pair end;
	unsigned long long kept, left_out;
	double wall;		/* seconds of the intervals kept */
};

static void average_add(struct average *avg, const struct pair *a,
			const struct pair *b)
{
	if (rs_randstat_went_down(&a->rs, &b->rs)) {
		avg->left_out++;
		return;
	}
	rs_snap_add_delta(&avg->end.stat, &a->stat, &b->stat);
	rs_snap_add_delta(&avg->end.rs, &a->rs, &b->rs);
	avg->kept++;
	avg->wall += seconds_between(&a->when, &b->when);
}

/*
 * captured pairs (sleep == false) or live reads every INTERVAL.  After
 * two reports or more, the text output ends, as sysstat's do, with an
 * "Average:" block, each of its lines prefixed "Average: ": the report
 * over the intervals so far, from the sum of their growth, those across
 * a reset left out (struct average).  Live, SIGINT (Ctrl-C) ends the
 * loop as mpstat: the interval under way is dropped, the Average made
 * if a report was, and the exit status is 0.
 */
static int run_intervals(struct context *ctx, bool sleep)
{
	const struct options *o = ctx->o;
	unsigned long long k, reports = 0;
	unsigned long long last = sleep ? o->count : o->nrs - 1;
	bool want_avg = o->out == OUT_TEXT || o->out == OUT_ROWS;
	struct pair first, p[2], *a = &first, *b;
	struct average avg;
	char title[64];
	int ret;

	memset(&avg, 0, sizeof(avg));
	ret = read_pair(o, 0, &first);
	if (ret >= 0)
		return ret;
	if (want_avg && (rs_snap_copy(&avg.end.stat, &first.stat) ||
			 rs_snap_copy(&avg.end.rs, &first.rs))) {
		fputs("randstat: out of memory\n", stderr);
		ret = RS_EXIT_FAIL;
	}
	if (sleep)
		catch_sigint();
	for (k = 1; ret < 0 && (!last || k <= last); k++) {
		b = &p[k % 2];
		if (sleep)
			sleep_until(&a->when, o->interval);
		if (interrupted)
			break;
		ret = read_pair(o, k, b);
		if (ret >= 0)
			break;
		if (sleep) {
			time_t now = time(NULL);

			strftime(title, sizeof(title), "%H:%M:%S",
				 localtime(&now));
			ctx->wall = seconds_between(&a->when, &b->when);
		} else {
			snprintf(title, sizeof(title), "pair %llu to %llu",
				 k, k + 1);
		}
		ctx->title = title;
		ctx->stamp = title;
		ret = report_span(ctx, a, b, 0, 0);
		reports++;
		if (want_avg)
			average_add(&avg, a, b);
		if (a != &first)
			pair_free(a);
		a = b;
	}
	if (ret < 0 && want_avg &&
	    (reports >= 2 || (interrupted && reports >= 1))) {
		ctx->title = "Average:";
		ctx->stamp = "Average";
		ctx->wall = sleep ? avg.wall : NAN;
		row_prefix = o->out == OUT_TEXT ? "Average: " : "";
		ret = report_span(ctx, &first, &avg.end, avg.left_out,
				  avg.kept + avg.left_out);
		row_prefix = "";
	}
	if (a != &first)
		pair_free(a);
	pair_free(&first);
	pair_free(&avg.end);
	return ret;
}

static int run(const struct options *o)
{
	struct context ctx = { .o = o, .wall = NAN, .stamp = "start" };
	struct rs_error err;
	struct rs_snap rs;

	if (o->out == OUT_PROMETHEUS) {
		if (rs_load_randstat(rs_path(o, 0), &rs, &err)) {
			int ret = input_error(&err, !o->nrs);

			print_prometheus_up(false);
			return rs_output_error("randstat") ? RS_EXIT_OUTPUT : ret;
		}
		print_prometheus(&rs);
		rs_snap_free(&rs);
		return rs_output_error("randstat");
	}
	if (o->nrs > 1)
		return run_intervals(&ctx, false);
	if (o->interval > 0)
		return run_intervals(&ctx, true);
	return run_since_start(&ctx);
}

/*
 * randstat cgroup: the program randstat-cgroup (cgroup/, built apart: it
 * needs clang and libbpf), found beside this one (an install), in its
 * cgroup/ (the build tree), then on PATH.  Returns only on failure.
 */
static int run_cgroup(char **argv)
{
	static const char *const near[] = { "randstat-cgroup", "cgroup/randstat-cgroup" };
	char self[4096], path[4200];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;
	size_t i;

	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash)
			*slash = '\0';
		for (i = 0; slash && i < sizeof(near) / sizeof(near[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s", self, near[i]);
			if (!access(path, X_OK)) {
				execv(path, argv);
				fprintf(stderr, "randstat cgroup: cannot run %s: %s\n",
					path, strerror(errno));
				return RS_EXIT_FAIL;
			}
		}
	}
	execvp("randstat-cgroup", argv);
	if (errno != ENOENT) {
		fprintf(stderr, "randstat cgroup: cannot run randstat-cgroup: %s\n",
			strerror(errno));
		return RS_EXIT_FAIL;
	}
	fputs("randstat cgroup: randstat-cgroup is not installed (not beside randstat, nor on PATH).\n"
	      "  Install the randstat-cgroup package, or build it from the sources:\n"
	      "    apt-get install clang llvm bpftool libbpf-dev libelf-dev zlib1g-dev\n"
	      "    make -C userspace/cgroup && sudo make -C userspace/cgroup install\n",
	      stderr);
	return RS_EXIT_FAIL;
}

int main(int argc, char **argv)
{
	struct options o;
	int ret;

	if (argc > 1 && !strcmp(argv[1], "exec"))
		return rs_exec_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "cgroup"))	/* userspace/cgroup/ */
		return run_cgroup(argv + 1);
	if (rs_unprivileged())
		return RS_EXIT_FAIL;
	if (argc > 1 && !strcmp(argv[1], "top"))
		return rs_top_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "verify"))
		return rs_verify_main(argc - 1, argv + 1);
	memset(&o, 0, sizeof(o));
	ret = parse_args(argc, argv, &o);
	if (ret < 0)
		ret = run(&o);
	if (ret < 0)
		ret = EXIT_OK;
	free(o.stat);
	free(o.rs);
	return ret;
}
