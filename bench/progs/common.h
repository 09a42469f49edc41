/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the benchmark's workloads: clocks and reporting. */
#ifndef RANDSTAT_BENCH_COMMON_H
#define RANDSTAT_BENCH_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

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
 * The tick grid: CLOCK_MONOTONIC_COARSE only advances when the timekeeping
 * CPU's tick updates it, and every CPU's tick is on the same grid.  Spin
 * until it moves; the fine clock then is just after a tick.
 */
static inline int64_t next_tick_edge(void)
{
	int64_t c = now_ns(CLOCK_MONOTONIC_COARSE);

	while (now_ns(CLOCK_MONOTONIC_COARSE) == c)
		;
	return now_ns(CLOCK_MONOTONIC);
}

/* One line the harness parses: what the workload really used. */
static inline void report(const char *name, int64_t wall_ns)
{
	int64_t cpu = now_ns(CLOCK_PROCESS_CPUTIME_ID);

	printf("%s cpu_ns %lld wall_ns %lld share %.4f\n", name,
	       (long long)cpu, (long long)wall_ns, (double)cpu / wall_ns);
}

static inline long arg(int argc, char **argv, int i, long def)
{
	return i < argc ? strtol(argv[i], NULL, 0) : def;
}

#endif
