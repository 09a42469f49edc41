// SPDX-License-Identifier: GPL-2.0
/*
 * randstat top [-t] [-n N] [--json] [INTERVAL [COUNT]]
 *
 * Per process (per thread with -t): its user and system time over each
 * interval, from the randstat:sample events of the interval (rstrace.c),
 * beside the kernel's utime and stime from /proc.  The arithmetic is in
 * rstask.c, the output in rstopout.c; this file has the command line, the
 * checks, the reads of /proc and the loop.
 *
 * The intervals: at each boundary the reader notes CLOCK_MONOTONIC, reads
 * every /proc/PID/stat (or /proc/PID/task/TID/stat), then drains the
 * trace buffers.  The instance's trace clock is mono, so every event goes
 * to the interval its time falls in: those after the boundary, read with
 * the rest, wait for the next report.  Between boundaries the buffers are
 * drained every DRAIN_NS so that a long interval cannot fill them.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rsexit.h"
#include "rsparse.h"
#include "rstask.h"
#include "rstop.h"
#include "rstopout.h"
#include "rstrace.h"

/* The tools' exit codes (rsexit.h). */
#define EXIT_OK		RS_EXIT_OK
#define EXIT_USAGE	RS_EXIT_USAGE
#define EXIT_INPUT	RS_EXIT_INPUT	/* tracefs, /proc or /proc/randstat */
#define EXIT_NOMODULE	RS_EXIT_NOMODULE	/* or no randstat:sample */

#define PROC_RANDSTAT	RS_PROC_DETAIL
#define DRAIN_NS	1000000000ull	/* drain at least this often */
#define EVENT_BYTES	64		/* a randstat:sample in the buffer */
#define BUFFER_SECS	30		/* what the buffer holds, undrained */

struct top_opts {
	bool threads;
	bool json;
	size_t rows;			/* --rows; 0: all */
	int *pids;			/* -p: only these processes */
	size_t npids;
	double interval;		/* seconds */
	unsigned long long count;	/* 0: until interrupted */
};

static const char usage_text[] =
"Usage: randstat top [-t] [-p PID[,PID...]] [-n N] [--rows N] [--json]\n"
"                    [INTERVAL [COUNT]]\n"
"\n"
"Per process (per thread with -t): its user and system time over each\n"
"interval, in % of one CPU, from randstat's samples (the randstat:sample\n"
"tracepoint): the samples in the class times the mean sampling interval,\n"
"with a 95% interval; beside them the kernel's utime and stime over the\n"
"same interval, from /proc/PID/stat.\n"
"\n"
"With no INTERVAL: one report over one second.  With INTERVAL (seconds,\n"
"a plain decimal from 0.01, such as 2 or 0.5): a report every INTERVAL,\n"
"COUNT times or until interrupted.\n"
"\n"
"  -t, --threads     one row per thread, not per process\n"
"  -p PID[,PID...]   only these processes (with -t, their threads), shown\n"
"                    even when idle; -p may be given again\n"
"  -n N              N reports, then exit (as top's -n; COUNT likewise)\n"
"  --rows N          only the N rows with the most CPU (randstat's figure)\n"
"  --json            one JSON object per report, one per line\n"
"  -h, --help        this help\n"
"  -V, --version     the version\n"
"\n"
"A '*' after the kernel's figure: it lies outside randstat's 95% interval\n"
"(by more than the kernel's resolution of one clock tick).\n"
"\n"
"It needs root (it reads tracefs) and the randstat module, with its\n"
"randstat:sample tracepoint.\n"
"\n"
"Exit status: 0 ok, 1 usage error, 2 tracefs, /proc or /proc/randstat\n"
"could not be read, 3 the randstat module is not loaded (or has no\n"
"randstat:sample tracepoint), 4 the output could not be written, 5 not\n"
"root or another failure.\n";

static int usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("randstat top: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'randstat top --help'.\n", stderr);
	return EXIT_USAGE;
}

/* -p's list, added to o->pids: 0, or -1 if it is not ids above 0. */
static int add_pids(struct top_opts *o, const char *list)
{
	const char *p = list;
	unsigned long long id;
	char num[24];
	size_t len;
	int *v;

	do {
		len = strcspn(p, ",");
		if (!len || len >= sizeof(num))
			return -1;
		memcpy(num, p, len);
		num[len] = '\0';
		if (!rs_parse_count(num, &id) || id > 0x7fffffff)
			return -1;
		v = realloc(o->pids, (o->npids + 1) * sizeof(*v));
		if (!v)
			return -1;
		o->pids = v;
		o->pids[o->npids++] = (int)id;
		p += len;
	} while (*p++ == ',');
	return 0;
}

/* Returns -1 to go on, else an exit code. */
static int parse_args(int argc, char **argv, struct top_opts *o)
{
	static const struct option longopts[] = {
		{ "threads", no_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "rows", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long n, iterations = 0;
	int c, npos;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+htn:p:V", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			o->threads = true;
			break;
		case 'j':
			o->json = true;
			break;
		case 'n':
			if (!rs_parse_count(optarg, &iterations))
				return usage_error("-n takes a whole number above 0: '%s'",
						   optarg);
			break;
		case 'r':
			if (!rs_parse_count(optarg, &n) || n > 1000000000)
				return usage_error("--rows takes a whole number above 0: '%s'",
						   optarg);
			o->rows = n;
			break;
		case 'p':
			if (add_pids(o, optarg))
				return usage_error("-p takes process ids above 0, separated by commas: '%s'",
						   optarg);
			break;
		case 'h':
			fputs(usage_text, stdout);
			return rs_output_error("randstat top");
		case 'V':
			return rs_print_version("randstat top");
		default:
			return usage_error("unknown option or missing argument: %s",
					   argv[optind - 1]);
		}
	}
	npos = argc - optind;
	o->interval = 1;
	o->count = 1;
	if (npos > 2)
		return usage_error("too many arguments: %s", argv[optind + 2]);
	if (npos >= 1) {
		if (!rs_parse_interval(argv[optind], &o->interval))
			return usage_error("INTERVAL must be " RS_INTERVAL_RULE ": '%s'",
					   argv[optind]);
		o->count = 0;
	}
	if (npos == 2 && !rs_parse_count(argv[optind + 1], &o->count))
		return usage_error("COUNT must be a whole number above 0: '%s'",
				   argv[optind + 1]);
	if (iterations && npos == 2)
		return usage_error("give -n or COUNT, not both");
	if (iterations)
		o->count = iterations;
	return -1;
}

/* --- /proc ------------------------------------------------------------- */

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* One stat file into @s; a task that went away meanwhile is left out. */
static int scan_one(struct rs_pscan *s, const char *path, int tgid)
{
	char buf[1024];
	struct rs_pstat p;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	memset(&p, 0, sizeof(p));
	if (n <= 0 || rs_parse_pid_stat(buf, n, &p))
		return 0;
	p.tgid = tgid;
	return rs_pscan_add(s, &p);
}

static bool is_id(const char *name)
{
	for (; *name; name++)
		if (!isdigit((unsigned char)*name))
			return false;
	return true;
}

/* Every process's (or thread's) figures now.  -1: /proc unreadable. */
static int scan_proc(struct rs_pscan *s, bool threads)
{
	char path[64];
	struct dirent *e, *te;
	DIR *d, *td;
	int ret = 0;

	rs_pscan_clear(s);
	d = opendir("/proc");
	if (!d)
		return -1;
	while (!ret && (e = readdir(d))) {
		int tgid;

		if (!is_id(e->d_name) || strlen(e->d_name) > 10)
			continue;
		tgid = atoi(e->d_name);
		if (!threads) {
			snprintf(path, sizeof(path), "/proc/%d/stat", tgid);
			ret = scan_one(s, path, tgid);
			continue;
		}
		snprintf(path, sizeof(path), "/proc/%d/task", tgid);
		td = opendir(path);
		if (!td)
			continue;
		while (!ret && (te = readdir(td))) {
			if (!is_id(te->d_name) || strlen(te->d_name) > 10)
				continue;
			/* a number (is_id(), at most 10 digits): no cut */
			snprintf(path, sizeof(path), "/proc/%d/task/%d/stat",
				 tgid, atoi(te->d_name));
			ret = scan_one(s, path, tgid);
		}
		closedir(td);
	}
	closedir(d);
	return ret;
}

/* --- events ----------------------------------------------------------- */

/* Which interval an event belongs to. */
struct sort_ctx {
	uint64_t lo;		/* at or before: before the first interval */
	uint64_t hi;		/* after: the next interval's */
	struct rs_tasks *cur;
	struct rs_tasks *next;
};

static int on_sample(const struct rs_sample *s, void *ctx)
{
	struct sort_ctx *c = ctx;

	if (s->ts <= c->lo)
		return 0;
	return rs_tasks_add_sample(s->ts <= c->hi ? c->cur : c->next, s->pid,
				   s->tgid, s->comm, s->cls, s->samples);
}

/* --- the loop ----------------------------------------------------------- */

static volatile sig_atomic_t stop_sig;
static struct rs_trace *the_trace;

static void on_signal(int sig)
{
	stop_sig = sig;
	rs_trace_stop(the_trace);
}

static void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: sleeps end */
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(*sigs); i++)
		sigaction(sigs[i], &sa, NULL);
	/* A closed pipe is a write error, then SIGPIPE after the cleanup. */
	signal(SIGPIPE, SIG_IGN);
}

/* The mean interval of the law in use. */
static double law_mean_ns(const struct rs_snap *rs)
{
	if (rs->law == RS_LAW_UNIFORM)
		return (rs->tmin_ns + rs->tmax_ns) / 2.0;
	return (double)rs->mean_ns;
}

/* A ring buffer per CPU that holds BUFFER_SECS of events, in KiB. */
static size_t buffer_kb(const struct rs_snap *rs)
{
	double kb = EVENT_BYTES * BUFFER_SECS * 1e9 / law_mean_ns(rs) / 1024;

	return kb < 256 ? 256 : kb > 8192 ? 8192 : (size_t)kb;
}

struct notes {
	unsigned int n;
	char *v[8];
};

static void note(struct notes *ns, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(struct notes *ns, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (ns->n == sizeof(ns->v) / sizeof(*ns->v))
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ns->v[ns->n] = strdup(buf);
	if (ns->v[ns->n])
		ns->n++;
}

static void notes_free(struct notes *ns)
{
	while (ns->n)
		free(ns->v[--ns->n]);
}

/* What the report must say besides its numbers. */
static void interval_notes(struct notes *ns, const struct rs_snap *rs0,
			   const struct rs_snap *rs1,
			   const struct rs_top_report *r)
{
	char l0[96], l1[96], cpus[256] = "";
	size_t len = 0;
	unsigned int i, nexact = 0;

	for (i = 0; i < rs1->ncpu; i++) {
		if (!rs1->cpu[i].counted || !rs1->cpu[i].s.exact)
			continue;
		nexact++;
		if (len < sizeof(cpus) - 16)
			len += snprintf(cpus + len, sizeof(cpus) - len, "%scpu%u",
					len ? ", " : "", i);
	}
	if (nexact)
		note(ns, "%s %s served from the kernel's exact accounting (nohz_full): randstat takes no samples there, and time tasks spent there is not in its figures",
		     cpus, nexact > 1 ? "are" : "is");
	rs_law_desc(rs0, l0, sizeof(l0));
	rs_law_desc(rs1, l1, sizeof(l1));
	if (strcmp(l0, l1))
		note(ns, "the sampling law changed from %s to %s: the estimates use a mean interval of %.0f ns",
		     l0, l1, r->mu_ns);
	if (r->lost || r->lost_unknown)
		note(ns, "the trace buffer lost %s%llu events (the reader fell behind): randstat's figures of this interval are too low",
		     r->lost_unknown ? "at least " : "",
		     (unsigned long long)r->lost);
	if (r->tasks->unknown)
		note(ns, "%llu samples of a class this reader does not know: left out",
		     (unsigned long long)r->tasks->unknown);
}

static void sleep_until_ns(uint64_t t)
{
	struct timespec ts = { .tv_sec = t / 1000000000ull,
			       .tv_nsec = t % 1000000000ull };

	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

static int report(const struct top_opts *o, struct rs_tasks *t,
		  const struct rs_snap *rs0, const struct rs_snap *rs1,
		  uint64_t t0, uint64_t t1, uint64_t lost, bool lost_unknown,
		  bool *said_legend)
{
	struct rs_top_report r;
	struct notes ns = { 0 };
	struct timespec now;
	char title[16];
	time_t secs;

	memset(&r, 0, sizeof(r));
	clock_gettime(CLOCK_REALTIME, &now);
	secs = now.tv_sec;
	strftime(title, sizeof(title), "%H:%M:%S", localtime(&secs));
	r.title = title;
	r.time = now.tv_sec + now.tv_nsec / 1e9;
	r.interval_s = (t1 - t0) / 1e9;
	r.law = rs1->law;
	r.floor_ns = rs1->floor_ns;
	r.mean_ns = rs1->mean_ns;
	r.tmin_ns = rs1->tmin_ns;
	r.tmax_ns = rs1->tmax_ns;
	r.mu_ns = law_mean_ns(rs1);
	r.lost = lost;
	r.lost_unknown = lost_unknown;
	rs_tasks_estimate(t, r.mu_ns, (double)(t1 - t0),
			  (double)sysconf(_SC_CLK_TCK));
	r.tasks = t;
	r.active = rs_tasks_rank(t);
	if (o->npids)
		r.active = rs_tasks_keep(t, o->pids, o->npids);
	r.shown = o->rows && o->rows < r.active ? o->rows : r.active;
	interval_notes(&ns, rs0, rs1, &r);
	r.nnotes = ns.n;
	r.notes = ns.v;
	if (o->json) {
		if (rs_top_json(stdout, &r) && !ferror(stdout)) {
			notes_free(&ns);
			fputs("randstat top: out of memory\n", stderr);
			return RS_EXIT_FAIL;
		}
	} else {
		if (!*said_legend)
			rs_top_legend(stdout, &r);
		*said_legend = true;
		rs_top_text(stdout, &r);
	}
	notes_free(&ns);
	errno = 0;
	if (fflush(stdout) || ferror(stdout)) {
		if (errno == EPIPE) {
			stop_sig = SIGPIPE;
			return RS_EXIT_OUTPUT;
		}
		return rs_output_error("randstat top");
	}
	return -1;
}

/* /proc/randstat_detail, or why not (and the exit code). */
static int load_randstat(struct rs_snap *rs)
{
	struct rs_error err;

	if (!rs_load_randstat(PROC_RANDSTAT, rs, &err))
		return -1;
	if (err.status == RS_ERR_NOENT) {
		fputs(RS_NO_MODULE_MSG("randstat top"), stderr);
		return EXIT_NOMODULE;
	}
	fprintf(stderr, "randstat top: %s\n", err.msg);
	return EXIT_INPUT;
}

struct top_state {
	struct rs_tasks tasks[2];
	struct rs_pscan scan[2];
	struct rs_snap rs[2];
};

static int run(const struct top_opts *o, struct rs_trace *tr,
	       struct top_state *st)
{
	uint64_t t0, t1, deadline, now, lost = 0;
	uint64_t step = (uint64_t)(o->interval * 1e9);
	struct sort_ctx sc;
	bool lost_unknown = false, said_legend = false;
	unsigned long long k;
	int ret = -1, cur = 0;

	rs_tasks_init(&st->tasks[0], o->threads);
	rs_tasks_init(&st->tasks[1], o->threads);
	t0 = mono_ns();
	if (scan_proc(&st->scan[0], o->threads)) {
		fprintf(stderr, "randstat top: reading /proc: %s\n",
			strerror(errno));
		return EXIT_INPUT;
	}
	sc.lo = t0;
	for (k = 1; ret < 0 && !stop_sig && (!o->count || k <= o->count);
	     k++) {
		sc.hi = UINT64_MAX;
		sc.cur = &st->tasks[cur];
		sc.next = &st->tasks[!cur];
		deadline = t0 + step;
		while (!stop_sig && (now = mono_ns()) < deadline) {
			sleep_until_ns(deadline - now > DRAIN_NS ?
				       now + DRAIN_NS : deadline);
			if (!stop_sig && mono_ns() < deadline &&
			    rs_trace_drain(tr, on_sample, &sc, &lost,
					   &lost_unknown) && !stop_sig)
				goto drain_failed;
		}
		if (stop_sig)
			break;
		t1 = mono_ns();
		if (scan_proc(&st->scan[!cur], o->threads)) {
			fprintf(stderr, "randstat top: reading /proc: %s\n",
				strerror(errno));
			return EXIT_INPUT;
		}
		ret = load_randstat(&st->rs[!cur]);
		if (ret >= 0)
			break;
		if (!rs_trace_alive(tr)) {
			fputs("randstat top: randstat:sample went away from the trace instance: the randstat module was unloaded or reloaded; start randstat top again\n",
			      stderr);
			return EXIT_NOMODULE;
		}
		sc.hi = t1;
		if (rs_trace_drain(tr, on_sample, &sc, &lost, &lost_unknown)) {
			if (stop_sig)
				break;
			goto drain_failed;
		}
		if ((o->npids && rs_tasks_want(sc.cur, &st->scan[!cur],
					       o->pids, o->npids)) ||
		    rs_tasks_add_kernel(sc.cur, &st->scan[cur],
					&st->scan[!cur])) {
			fputs("randstat top: out of memory\n", stderr);
			return EXIT_INPUT;
		}
		ret = report(o, sc.cur, &st->rs[cur], &st->rs[!cur], t0, t1,
			     lost, lost_unknown, &said_legend);
		/* the next interval: its events so far are in the other table */
		rs_tasks_clear(sc.cur);
		rs_snap_free(&st->rs[cur]);
		cur = !cur;
		t0 = sc.lo = t1;
		lost = 0;
		lost_unknown = false;
	}
	return ret < 0 ? EXIT_OK : ret;
drain_failed:
	fputs(errno == ENOMEM ? "randstat top: out of memory\n" :
	      "randstat top: reading the trace buffers failed\n", stderr);
	return EXIT_INPUT;
}

int rs_top_main(int argc, char **argv)
{
	struct top_opts o;
	struct top_state st;
	struct rs_trace *tr;
	char msg[512];
	int ret, sig;

	/* every return from here on goes through out: all of it freed */
	memset(&o, 0, sizeof(o));
	memset(&st, 0, sizeof(st));
	msg[0] = '\0';
	ret = parse_args(argc, argv, &o);
	if (ret >= 0)
		goto out;
	ret = load_randstat(&st.rs[0]);
	if (geteuid())
		fputs("randstat top: needs root to read tracefs: run it as root (sudo randstat top)\n",
		      stderr);
	if (ret >= 0)
		goto out;
	if (geteuid()) {
		ret = RS_EXIT_FAIL;
		goto out;
	}
	catch_signals();
	rs_trace_reap();
	switch (rs_trace_open(&tr, buffer_kb(&st.rs[0]), msg, sizeof(msg))) {
	case RS_TRACE_OK:
		break;
	case RS_TRACE_NOEVENT:
		ret = EXIT_NOMODULE;
		goto out;
	default:
		ret = EXIT_INPUT;
		goto out;
	}
	the_trace = tr;
	ret = run(&o, tr, &st);
	the_trace = NULL;
	rs_trace_close(tr);
	msg[0] = '\0';
out:
	if (msg[0])
		fprintf(stderr, "randstat top: %s\n", msg);
	rs_tasks_free(&st.tasks[0]);
	rs_tasks_free(&st.tasks[1]);
	rs_pscan_free(&st.scan[0]);
	rs_pscan_free(&st.scan[1]);
	rs_snap_free(&st.rs[0]);
	rs_snap_free(&st.rs[1]);
	free(o.pids);
	sig = stop_sig;
	if (sig) {
		/* die of it, as without the handler, now that all is clean */
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return ret;
}
