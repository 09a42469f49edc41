/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the benchmark's workloads: clocks and reporting. */
#ifndef RANDSTAT_BENCH_COMMON_H
#define RANDSTAT_BENCH_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

static inline int64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline void sleep_until(int64_t t)
{
	struct timespec ts = { t / 1000000000, t % 1000000000 };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
		;
}

static inline void spin_until(int64_t t)
{
	while (now_ns(CLOCK_MONOTONIC) < t)
		;
}

/*
 * A tick edge: CLOCK_MONOTONIC_COARSE only advances when a CPU's tick
 * updates the timekeeping, and every CPU's tick is on the same grid (no
 * skew_tick).  Spin until it moves; the fine clock then is just after a
 * tick, late by the time the interrupt took to get there.
 */
static inline int64_t next_tick_edge(void)
{
	int64_t c = now_ns(CLOCK_MONOTONIC_COARSE);

	while (now_ns(CLOCK_MONOTONIC_COARSE) == c)
		;
	return now_ns(CLOCK_MONOTONIC);
}

/*
 * The tick grid, as a program can learn it: the tick is a periodic
 * hrtimer (TICK_NSEC apart, in CLOCK_MONOTONIC), so the phase is fixed;
 * each edge seen is late by a variable amount, so watch EDGES edges and
 * keep the earliest phase.  Returns a time just after a tick.
 */
static inline int64_t tick_grid(int64_t tick, int edges)
{
	int64_t first = next_tick_edge(), best = 0, off;
	int i;

	for (i = 1; i < edges; i++) {
		/* the offset from the first edge, in (-tick/2, tick/2] */
		off = (next_tick_edge() - first) % tick;
		if (off > tick / 2)
			off -= tick;
		if (off < best)
			best = off;
	}
	first += best;
	while (first < now_ns(CLOCK_MONOTONIC))
		first += tick;
	return first;
}

/* Where the measured part starts: CPU time, wall time, the task's ticks. */
struct mark {
	int64_t cpu, wall;
	clock_t utime, stime;
};

static inline struct mark mark_now(void)
{
	struct tms t;
	struct mark m;

	times(&t);
	m.cpu = now_ns(CLOCK_PROCESS_CPUTIME_ID);
	m.wall = now_ns(CLOCK_MONOTONIC);
	m.utime = t.tms_utime;
	m.stime = t.tms_stime;
	return m;
}

/*
 * One line the harness parses: what the workload used since M.  cpu_ns is
 * the scheduler's exact runtime; task_utime/task_stime (USER_HZ ticks) are
 * the per-task view of times(2), which Linux scales to that runtime;
 * proc_cpu_ns is the process's whole runtime since its fork (the
 * calibration and start-up included), for comparison with counters taken
 * around the whole process.
 */
static inline void report(const char *name, struct mark m)
{
	struct mark e = mark_now();

	printf("%s cpu_ns %lld wall_ns %lld share %.4f task_utime %ld task_stime %ld clk_tck %ld proc_cpu_ns %lld\n",
	       name, (long long)(e.cpu - m.cpu), (long long)(e.wall - m.wall),
	       (double)(e.cpu - m.cpu) / (e.wall - m.wall),
	       (long)(e.utime - m.utime), (long)(e.stime - m.stime),
	       sysconf(_SC_CLK_TCK), (long long)e.cpu);
}

static inline long arg(int argc, char **argv, int i, long def)
{
	return i < argc ? strtol(argv[i], NULL, 0) : def;
}

#endif
