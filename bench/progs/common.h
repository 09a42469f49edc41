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

#include "rswork.h"

/*
 * The clocks and the tick grid are the workloads' shared source,
 * userspace/lib/rswork.c, which randstat verify runs too.
 */
static inline int64_t now_ns(clockid_t clk) { return rs_now_ns(clk); }
static inline void sleep_until(int64_t t) { rs_sleep_until(t); }
static inline void spin_until(int64_t t) { rs_spin_until(t); }
static inline int64_t tick_grid(int64_t tick, int edges)
{
	return rs_tick_grid(tick, edges);
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
