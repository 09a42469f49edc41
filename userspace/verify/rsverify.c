// SPDX-License-Identifier: GPL-2.0
/*
 * randstat verify [--cpu N] [--seconds S] [--json] [--no-legend]
 *
 * The paper's workloads, run on the machine it is typed on, one CPU, each
 * in its own window: an idle stretch (the CPU's background), a spin, a
 * job of TICK/2 every 2 TICK just after a tick and in phase with it, and
 * the tick evader (userspace/lib/rswork.c, the benchmark's loops).  The
 * truth is each workload's exact runtime, /proc/PID/schedstat's
 * sum_exec_runtime; randstat and /proc/stat are judged against it
 * (rsvjudge.c has the arithmetic, rsvjudge.h the tolerances).
 *
 * The workloads are children pinned to the CPU; this process pins itself
 * on the other CPUs and reads /proc around each window.  On SIGINT or SIGTERM the
 * child is killed and reaped, then the signal ends this process.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rsexit.h"
#include "rsparse.h"
#include "rsreport.h"
#include "rsverify.h"
#include "rsvjudge.h"
#include "rswork.h"

#define WHO		"randstat verify"
#define PROC_STAT	"/proc/stat"
#define NOHZ_FULL	"/sys/devices/system/cpu/nohz_full"
#define PARAMS_DIR	"/sys/module/randstat/parameters"

/* verify's own exit codes (rsexit.h's comment; randstat.1). */
enum {
	V_PASS = 0,
	V_FAIL = 1,
	V_USAGE = 2,
	V_NOMODULE = RS_EXIT_NOMODULE,
	V_OUTPUT = RS_EXIT_OUTPUT,
	V_OTHER = RS_EXIT_FAIL,
};

#define DEFAULT_SECONDS	30.0
#define MIN_SECONDS	5.0
#define MAX_SECONDS	3600.0
#define CHECK_NS	500000000LL	/* the busy check before the run */
#define GRID_EDGES	16		/* tick edges watched for the grid */

static const char usage_text[] =
"Usage: randstat verify [--cpu N] [--seconds S] [--json] [--no-legend]\n"
"\n"
"Judges randstat on this machine: runs the paper's workloads on one CPU,\n"
"each in its own window, and compares randstat's share of the CPU, and\n"
"/proc/stat's, with the truth: each workload's exact CPU time, the\n"
"kernel's per-task runtime (/proc/PID/schedstat, sum_exec_runtime).\n"
"The workloads: an idle stretch (the CPU's background, subtracted from the\n"
"others with its own error), a spin, a job of TICK/2 every 2 TICKs (2 ms\n"
"every 8 ms at HZ 250) just after a tick and in phase with it, and the\n"
"tick evader.  PASS: randstat within 4 sigma plus 1.25 points of the truth.\n"
"\n"
"  --cpu N           the CPU (default: the least busy one, never nohz_full);\n"
"                    refused if busier than 10% or nohz_full\n"
"  --seconds S       the whole run, 5 to 3600 s (default 30)\n"
"  --json            one JSON object\n"
"  --no-legend       no explanation above the table\n"
"  --randstat PATH   read PATH instead of /proc/randstat_detail\n"
"  -h, --help        this help\n"
"  -V, --version     the version\n"
"\n"
"Exit status: 0 every workload passed, 1 a workload failed (named, with\n"
"its figures), 2 a bad argument, 3 the randstat module is not loaded,\n"
"4 the output could not be written, 5 another failure (the CPU is busy or\n"
"nohz_full, not permitted, a workload that could not be judged).\n";

struct voptions {
	int cpu;		/* -1: pick one */
	double seconds;
	bool json;
	bool no_legend;
	const char *rs_path;
};

static volatile sig_atomic_t stop_sig;
static pid_t child;		/* the workload running, or 0 */

static void on_signal(int sig)
{
	stop_sig = sig;
}

/* "randstat verify: " FMT on stderr, then @tail; returns @ret */
static int say(int ret, const char *tail, const char *fmt, va_list ap)
{
	fputs(WHO ": ", stderr);
	vfprintf(stderr, fmt, ap);
	fputs(tail, stderr);
	return ret;
}

static int usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = say(V_USAGE, "\nTry 'randstat verify --help'.\n", fmt, ap);
	va_end(ap);
	return ret;
}

static int failure(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static int failure(const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = say(V_OTHER, "\n", fmt, ap);
	va_end(ap);
	return ret;
}

/* --- the CPUs --------------------------------------------------------- */

/* A cpulist ("1-3,5"; "(null)" or empty: none) into @set. */
static void parse_cpulist(const char *s, cpu_set_t *set)
{
	char *end;
	long a, b;

	CPU_ZERO(set);
	while (*s) {
		if (*s < '0' || *s > '9') {
			s++;
			continue;
		}
		a = strtol(s, &end, 10);
		b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (; a <= b && a < CPU_SETSIZE; a++)
			CPU_SET(a, set);
		s = end;
	}
}

static void read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");

	buf[0] = 0;
	if (!f)
		return;
	if (!fgets(buf, (int)size, f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
}

/* The busy share of each CPU over two reads of /proc/stat, percent. */
static double busy_pct(const struct rs_snap *a, const struct rs_snap *b,
		       unsigned int cpu)
{
	const struct rs_cpu *x = rs_snap_cpu(a, cpu), *y = rs_snap_cpu(b, cpu);
	struct rs_row d;
	uint64_t total;

	if (!x || !y || !x->listed || !y->listed)
		return NAN;
	rs_row_sub(&x->ticks, &y->ticks, &d);
	total = rs_row_time(&d);
	if (!total)
		return NAN;
	return 100.0 * (total - d.v[RS_IDLE] - d.v[RS_IOWAIT] - d.v[RS_STEAL]) /
	       total;
}

/* --- reads around a window -------------------------------------------- */

struct reads {
	struct rs_snap stat, rs;
	int64_t t;
	bool has_loc;
	uint64_t loc;
};

/* The local timer interrupts CPU @cpu has taken (rsv_timer_irqs()). */
static bool read_loc(unsigned int cpu, uint64_t *loc)
{
	FILE *f = fopen("/proc/interrupts", "r");
	bool ok;

	if (!f)
		return false;
	ok = rsv_timer_irqs(f, cpu, loc);
	fclose(f);
	return ok;
}

static int take_reads(struct reads *r, unsigned int cpu, const char *rs_path)
{
	struct rs_error err;

	memset(r, 0, sizeof(*r));
	if (rs_load_stat(PROC_STAT, &r->stat, &err)) {
		fprintf(stderr, WHO ": %s\n", err.msg);
		return -1;
	}
	if (rs_load_randstat(rs_path, &r->rs, &err)) {
		fprintf(stderr, WHO ": %s\n", err.msg);
		return -1;
	}
	r->t = rs_now_ns(CLOCK_MONOTONIC);
	r->has_loc = read_loc(cpu, &r->loc);
	return 0;
}

static void free_reads(struct reads *r)
{
	rs_snap_free(&r->stat);
	rs_snap_free(&r->rs);
}

static uint64_t sub(uint64_t a, uint64_t b)
{
	return b > a ? b - a : 0;
}

/* The window between two reads, on @cpu. */
static int fill_window(struct rsv_window *w, const struct reads *a,
		       const struct reads *b, unsigned int cpu)
{
	const struct rs_cpu *sa = rs_snap_cpu(&a->stat, cpu),
			    *sb = rs_snap_cpu(&b->stat, cpu),
			    *ra = rs_snap_cpu(&a->rs, cpu),
			    *rb = rs_snap_cpu(&b->rs, cpu);

	if (!sa || !sb || !ra || !rb || !ra->counted || !rb->counted)
		return failure("cpu%u went offline during the run", cpu);
	w->ran = true;
	w->wall_ns = b->t - a->t;
	rs_row_sub(&sa->ticks, &sb->ticks, &w->ticks);
	rs_row_sub(&ra->samples, &rb->samples, &w->samples);
	rs_row_sub(&ra->exact, &rb->exact, &w->exact);
	w->s = rb->s;
	w->s.elapsed_ns = sub(ra->s.elapsed_ns, rb->s.elapsed_ns);
	w->s.sampled_ns = sub(ra->s.sampled_ns, rb->s.sampled_ns);
	w->s.samples = sub(ra->s.samples, rb->s.samples);
	w->s.overruns = sub(ra->s.overruns, rb->s.overruns);
	w->s.dormancies = sub(ra->s.dormancies, rb->s.dormancies);
	w->s.cost_ns = sub(ra->s.cost_ns, rb->s.cost_ns);
	w->s.late_ns = sub(ra->s.late_ns, rb->s.late_ns);
	w->has_loc = a->has_loc && b->has_loc;
	w->loc = w->has_loc ? sub(a->loc, b->loc) : 0;
	return 0;
}

/* --- the workloads ------------------------------------------------------ */

struct child_report {
	long cycles;
	int64_t loop_ns;
	int64_t cpu_ns;		/* its own CLOCK_PROCESS_CPUTIME_ID */
	int err;		/* errno of a failed sched_setaffinity */
};

struct plan {
	unsigned int cpu;
	int64_t tick, grid;	/* the period; a time just after a tick */
	int64_t stretch;	/* each window, ns */
};

/* The first tick of the grid at least two ticks from now. */
static int64_t next_grid_tick(const struct plan *p)
{
	int64_t now = rs_now_ns(CLOCK_MONOTONIC) + 2 * p->tick;

	return p->grid + ((now - p->grid) / p->tick + 1) * p->tick;
}

static void workload(enum rsv_kind kind, const struct plan *p, int64_t end,
		     struct child_report *rep)
{
	int64_t t0 = next_grid_tick(p), start;

	switch (kind) {
	case RSV_SPIN:
		start = rs_now_ns(CLOCK_MONOTONIC);
		rs_spin_until(end);
		break;
	case RSV_AFTER:	/* TICK/8 after a tick: the tick never sees it */
		start = t0 + p->tick / 8;
		rep->cycles = rs_jobs(start, 2 * p->tick, p->tick / 2, end);
		break;
	case RSV_PHASE:	/* TICK/4 before a tick to TICK/4 after: every job seen */
		start = t0 - p->tick / 4;
		rep->cycles = rs_jobs(start, 2 * p->tick, p->tick / 2, end);
		break;
	case RSV_EVADER:	/* margin TICK/8, as the benchmark's 500 us of 4 ms */
		start = t0 + p->tick / 32;
		rep->cycles = rs_evade(t0, p->tick, p->tick / 8, end, NULL);
		break;
	default:
		return;
	}
	rep->loop_ns = rs_now_ns(CLOCK_MONOTONIC) - start;
}

/* The workload's exact runtime: /proc/PID/schedstat's first field. */
static bool schedstat_ns(pid_t pid, double *ns)
{
	char path[64], buf[128];
	unsigned long long v;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	read_line(path, buf, sizeof(buf));
	if (sscanf(buf, "%llu", &v) != 1)
		return false;
	*ns = (double)v;
	return true;
}

/* Sleep until CLOCK_MONOTONIC @t, or a signal to stop. */
static void nap_until(int64_t t)
{
	struct timespec ts = { t / 1000000000, t % 1000000000 };

	while (!stop_sig &&
	       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* Kill and reap the workload, if one runs. */
static void reap_child(void)
{
	if (child > 0) {
		kill(child, SIGKILL);
		while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
			;
		child = 0;
	}
}

/* Stopped by a signal: no child left, then the signal's own end. */
static void stop_now(void)
{
	int sig = stop_sig;
	pid_t was = child;

	reap_child();
	if (isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
	if (was > 0)
		fprintf(stderr, WHO ": stopped by signal %d; the workload (pid %d) was killed and reaped\n",
			sig, (int)was);
	else
		fprintf(stderr, WHO ": stopped by signal %d\n", sig);
	fflush(stderr);
	signal(sig, SIG_DFL);
	raise(sig);
	_exit(128 + sig);
}

static void progress(int k, double secs)
{
	if (!isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "\r\033[K" WHO ": [%d/%d] %s, %.1f s", k + 1,
		RSV_NKINDS, rsv_kind_name[k], secs);
	fflush(stderr);
}

/*
 * One window: read, run the workload (none for the idle stretch) in a
 * child pinned to the CPU until the window's end, read its runtime, read.
 */
static int run_window(enum rsv_kind kind, const struct plan *p,
		      const char *rs_path, struct rsv_window *w)
{
	struct child_report rep = { 0, 0, 0, 0 };
	struct reads a, b;
	int res[2], hold[2], ret = 0;
	int64_t end;
	ssize_t n;
	size_t got = 0;

	if (take_reads(&a, p->cpu, rs_path))
		return V_OTHER;
	end = a.t + p->stretch;
	if (kind == RSV_IDLE) {
		nap_until(end);
		if (stop_sig)
			stop_now();
		goto read_b;
	}
	if (pipe(res) || pipe(hold)) {
		free_reads(&a);
		return failure("pipe: %s", strerror(errno));
	}
	child = fork();
	if (child < 0) {
		child = 0;
		free_reads(&a);
		return failure("fork: %s", strerror(errno));
	}
	if (!child) {
		cpu_set_t set;
		char c;

		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		/* this process killed outright: the workload goes too */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(res[0]);
		close(hold[1]);
		CPU_ZERO(&set);
		CPU_SET(p->cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			rep.err = errno;
		else
			workload(kind, p, end, &rep);
		rep.cpu_ns = rs_now_ns(CLOCK_PROCESS_CPUTIME_ID);
		if (write(res[1], &rep, sizeof(rep)) != sizeof(rep))
			_exit(1);
		/* asleep until the parent has read its runtime */
		while (read(hold[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(res[1]);
	close(hold[0]);
	while (got < sizeof(rep)) {
		n = read(res[0], (char *)&rep + got, sizeof(rep) - got);
		if (stop_sig)
			stop_now();
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += n;
	}
	if (got == sizeof(rep) && !rep.err &&
	    !schedstat_ns(child, &w->truth_ns))
		w->truth_ns = rep.cpu_ns;	/* no schedstat: its own clock */
	close(res[0]);
read_b:
	if (take_reads(&b, p->cpu, rs_path)) {
		ret = V_OTHER;
	} else {
		if (got == sizeof(rep) || kind == RSV_IDLE) {
			w->cycles = rep.cycles;
			w->loop_ns = rep.loop_ns;
			ret = fill_window(w, &a, &b, p->cpu);
		}
		free_reads(&b);
	}
	free_reads(&a);
	if (kind != RSV_IDLE) {
		close(hold[1]);	/* the workload exits */
		while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
			;
		child = 0;
		if (stop_sig)
			stop_now();
		if (got != sizeof(rep))
			return failure("the %s workload died", rsv_kind_name[kind]);
		if (rep.err)
			return failure("cannot pin the workload to cpu%u: %s",
				       p->cpu, strerror(rep.err));
	}
	return ret;
}

/* --- the machine -------------------------------------------------------- */

static void machine(struct rsv_run *run)
{
	struct utsname u;
	char line[4096], *v;
	FILE *f;
	DIR *d;
	struct dirent *e;
	char path[512];
	unsigned int i, j;

	if (!uname(&u))
		snprintf(run->kernel, sizeof(run->kernel), "%s %s %s %s",
			 u.sysname, u.release, u.version, u.machine);
	snprintf(run->cpu_model, sizeof(run->cpu_model), "unknown");
	f = fopen("/proc/cpuinfo", "r");
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		v = strchr(line, ':');
		if (!v)
			continue;
		v += 1 + (v[1] == ' ');
		if (!strncmp(line, "model name", 10) &&
		    !strcmp(run->cpu_model, "unknown"))
			snprintf(run->cpu_model, sizeof(run->cpu_model), "%s", v);
		if (!strncmp(line, "flags", 5) &&
		    (strstr(v, " hypervisor ") || !strncmp(v, "hypervisor ", 11)))
			run->hypervisor = true;
	}
	if (f)
		fclose(f);
	d = opendir(PARAMS_DIR);
	while (d && (e = readdir(d)) && run->nparams < RSV_MAX_PARAMS) {
		size_t len = strlen(e->d_name);

		if (e->d_name[0] == '.' || len >= sizeof(run->param_name[0]))
			continue;
		i = run->nparams++;
		memcpy(run->param_name[i], e->d_name, len + 1);
		snprintf(path, sizeof(path), PARAMS_DIR "/%s", e->d_name);
		read_line(path, run->param_value[i], sizeof(run->param_value[i]));
	}
	if (d)
		closedir(d);
	/* in name order */
	for (i = 1; i < run->nparams; i++)
		for (j = i; j > 0 && strcmp(run->param_name[j - 1],
					    run->param_name[j]) > 0; j--) {
			char n[32], val[96];

			memcpy(n, run->param_name[j], sizeof(n));
			memcpy(val, run->param_value[j], sizeof(val));
			memcpy(run->param_name[j], run->param_name[j - 1], sizeof(n));
			memcpy(run->param_value[j], run->param_value[j - 1], sizeof(val));
			memcpy(run->param_name[j - 1], n, sizeof(n));
			memcpy(run->param_value[j - 1], val, sizeof(val));
		}
}

/* --- the command ----------------------------------------------------------- */

static int parse_args(int argc, char **argv, struct voptions *o)
{
	static const struct option longopts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "seconds", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "no-legend", no_argument, NULL, 'L' },
		{ "randstat", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long n;
	int c;

	o->cpu = -1;
	o->seconds = DEFAULT_SECONDS;
	o->rs_path = RS_PROC_DETAIL;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (!rs_parse_count(optarg, &n) && strcmp(optarg, "0"))
				return usage_error("--cpu takes a CPU number: '%s'", optarg);
			if (strcmp(optarg, "0") && n >= CPU_SETSIZE)
				return usage_error("--cpu takes a CPU number below %d: '%s'",
						   CPU_SETSIZE, optarg);
			o->cpu = strcmp(optarg, "0") ? (int)n : 0;
			break;
		case 's':
			if (!rs_parse_interval(optarg, &o->seconds) ||
			    o->seconds < MIN_SECONDS || o->seconds > MAX_SECONDS)
				return usage_error("--seconds takes a plain decimal number of seconds from 5 to 3600: '%s'",
						   optarg);
			break;
		case 'j':
			o->json = true;
			break;
		case 'L':
			o->no_legend = true;
			break;
		case 'r':
			o->rs_path = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return rs_output_error(WHO);
		case 'V':
			return rs_print_version("randstat");
		default:
			return usage_error("unknown option or missing argument: %s",
					   argv[optind - 1]);
		}
	}
	if (optind < argc)
		return usage_error("takes no arguments: %s", argv[optind]);
	return -1;
}

/* Pick or check the CPU; -1 to go on, else an exit code. */
static int choose_cpu(struct voptions *o, const struct rs_snap *rs,
		      unsigned int *cpu, unsigned int *ncpus)
{
	struct rs_snap s0, s1;
	struct rs_error err;
	cpu_set_t nohz, mine;
	char buf[4096];
	double busy, best = INFINITY;
	const struct rs_cpu *c;
	unsigned int i;
	int pick = -1, pass;

	read_line(NOHZ_FULL, buf, sizeof(buf));
	parse_cpulist(buf, &nohz);
	*ncpus = 0;
	for (i = 0; i < rs->ncpu; i++)
		*ncpus += rs->cpu[i].listed;
	if (o->cpu >= 0) {
		c = rs_snap_cpu(rs, o->cpu);
		if (!c || !c->listed)
			return usage_error("--cpu %d: no such CPU online", o->cpu);
		if (CPU_ISSET(o->cpu, &nohz) && c->s.exact)
			return failure("cpu%d is nohz_full: randstat serves it exactly, from the kernel's own accounting (exact_cpus): there is no sampler to judge; pick another with --cpu",
				       o->cpu);
		if (CPU_ISSET(o->cpu, &nohz))
			return failure("cpu%d is nohz_full: randstat serves it exactly by default (exact_cpus), and its tick stops while one task runs, which the workloads' tick phases rule out; pick another with --cpu",
				       o->cpu);
		if (c->s.exact)
			return failure("cpu%d is served exactly (exact_cpus): there is no sampler to judge; pick another with --cpu",
				       o->cpu);
	}
	if (rs_load_stat(PROC_STAT, &s0, &err))
		return failure("%s", err.msg);
	nap_until(rs_now_ns(CLOCK_MONOTONIC) + CHECK_NS);
	if (stop_sig) {
		rs_snap_free(&s0);
		stop_now();
	}
	if (rs_load_stat(PROC_STAT, &s1, &err)) {
		rs_snap_free(&s0);
		return failure("%s", err.msg);
	}
	if (o->cpu >= 0) {
		pick = o->cpu;
		best = busy_pct(&s0, &s1, pick);
	} else {
		/*
		 * The least busy; of equals, the highest (cpu0 takes more).
		 * First among the CPUs this process is not on (a harness or a
		 * shell pinned there may wake up), then among all.
		 */
		if (sched_getaffinity(0, sizeof(mine), &mine))
			CPU_ZERO(&mine);
		for (pass = 0; pass < 2 && !(best <= RSV_BUSY_PCT); pass++) {
			for (i = 0; i < rs->ncpu && i < CPU_SETSIZE; i++) {
				c = &rs->cpu[i];
				if (!c->listed || !c->counted || c->s.exact ||
				    CPU_ISSET(i, &nohz) ||
				    (!pass && CPU_ISSET(i, &mine)))
					continue;
				busy = busy_pct(&s0, &s1, i);
				if (!isnan(busy) && busy <= best) {
					best = busy;
					pick = (int)i;
				}
			}
		}
	}
	rs_snap_free(&s0);
	rs_snap_free(&s1);
	if (pick < 0)
		return failure("no CPU to run on: every online CPU is nohz_full or served exactly");
	if (!(best <= RSV_BUSY_PCT))
		return failure("cpu%d is busy: %.1f%% over %.1f s, above %.0f%%; its own work would swamp the workloads' (pick another with --cpu, or run it when the CPU is quieter)",
			       pick, best, CHECK_NS / 1e9, RSV_BUSY_PCT);
	*cpu = (unsigned int)pick;
	return -1;
}

int rs_verify_main(int argc, char **argv)
{
	struct voptions o;
	struct rs_snap rs;
	struct rs_error err;
	struct rsv_run *run;
	struct reads first, last;
	struct plan p;
	struct sigaction sa;
	cpu_set_t others;
	int64_t t0, callbacks;
	unsigned int i;
	int ret, k;

	memset(&o, 0, sizeof(o));
	ret = parse_args(argc, argv, &o);
	if (ret >= 0)
		return ret;
	if (rs_load_randstat(o.rs_path, &rs, &err)) {
		if (err.status == RS_ERR_NOENT) {
			fputs(RS_NO_MODULE_MSG(WHO), stderr);
			return V_NOMODULE;
		}
		return failure("%s", err.msg);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: the waits see it */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	run = calloc(1, sizeof(*run));
	if (!run) {
		rs_snap_free(&rs);
		return failure("out of memory");
	}
	t0 = rs_now_ns(CLOCK_MONOTONIC);
	ret = choose_cpu(&o, &rs, &run->cpu, &run->ncpus);
	if (ret >= 0) {
		rs_snap_free(&rs);
		goto out;
	}
	p.cpu = run->cpu;
	p.tick = rs_tick_ns();
	if (p.tick <= 0) {
		rs_snap_free(&rs);
		ret = failure("cannot learn the tick's period (CLOCK_MONOTONIC_COARSE's resolution)");
		goto out;
	}
	p.stretch = (int64_t)((o.seconds - 1.0) / RSV_NKINDS * 1e9);
	fprintf(stderr, WHO ": on cpu%u for %.0f s: an idle stretch, a spin, a %.1f ms job every %.1f ms just after a tick and in phase with it, and the tick evader, %.1f s each, pinned to cpu%u%s.\n",
		p.cpu, o.seconds, p.tick / 2e6, p.tick * 2 / 1e6,
		p.stretch / 1e9, p.cpu,
		o.cpu < 0 ? " (the least busy CPU)" : "");
	/*
	 * This process elsewhere: on every other online CPU (the kernel keeps
	 * it within its cpuset); if none is left, it stays, and only reads
	 * /proc at the windows' edges.
	 */
	CPU_ZERO(&others);
	for (i = 0; i < rs.ncpu && i < CPU_SETSIZE; i++)
		if (i != p.cpu && rs_snap_cpu(&rs, i) && rs_snap_cpu(&rs, i)->listed)
			CPU_SET(i, &others);
	if (CPU_COUNT(&others))
		sched_setaffinity(0, sizeof(others), &others);
	rs_snap_free(&rs);
	p.grid = rs_tick_grid(p.tick, GRID_EDGES);
	run->tick_ns = p.tick;
	run->phase_ns = p.grid % p.tick;
	run->seconds = o.seconds;
	if (take_reads(&first, p.cpu, o.rs_path)) {
		ret = V_OTHER;
		goto out;
	}
	for (k = 0; k < RSV_NKINDS; k++) {
		progress(k, p.stretch / 1e9);
		ret = run_window(k, &p, o.rs_path, &run->w[k]);
		if (ret) {
			free_reads(&first);
			goto out;
		}
	}
	if (isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
	if (take_reads(&last, p.cpu, o.rs_path)) {
		free_reads(&first);
		ret = V_OTHER;
		goto out;
	}
	{
		struct rsv_window all;

		memset(&all, 0, sizeof(all));
		if (fill_window(&all, &first, &last, p.cpu) == 0) {
			uint64_t tot = rs_row_time(&all.ticks);

			run->steal_pct = tot ? 100.0 * all.ticks.v[RS_STEAL] / tot : 0;
			run->samples = all.s.samples;
			run->overruns = all.s.overruns;
			run->late_max_ns = all.s.late_max_ns;
			callbacks = all.s.samples > all.s.overruns ?
				    all.s.samples - all.s.overruns : 0;
			run->late_mean_ns = callbacks ?
					    (double)all.s.late_ns / callbacks : NAN;
		}
	}
	free_reads(&first);
	free_reads(&last);
	run->wall_s = (rs_now_ns(CLOCK_MONOTONIC) - t0) / 1e9;
	machine(run);
	rsv_judge(run);
	if (o.json)
		rsv_print_json(stdout, run);
	else
		rsv_print_text(stdout, run, !o.no_legend);
	ret = rs_output_error(WHO);
	if (!ret)
		ret = rsv_exit_code(run);
	if (ret == V_FAIL && o.json)
		for (i = 0; i < RSV_NKINDS; i++)
			if (run->r[i].verdict == RSV_FAIL)
				fprintf(stderr, WHO ": FAIL: %s: %s\n",
					rsv_kind_name[i], run->r[i].why);
out:
	free(run);
	return ret;
}
