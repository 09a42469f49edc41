/* SPDX-License-Identifier: GPL-2.0 */
/* Shared helpers for the randstat test workloads (tests/progs). */
#ifndef RS_PROGS_COMMON_H
#define RS_PROGS_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifdef _GNU_SOURCE
#include <sched.h>
#endif

static inline unsigned long long now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* A duration in seconds (may be fractional) from argv, in ns. */
static inline unsigned long long secs_arg(const char *s, const char *prog)
{
	char *end;
	double d = strtod(s, &end);

	if (*s == '\0' || *end != '\0' || d <= 0 || d > 3600) {
		fprintf(stderr, "%s: bad duration '%s' (seconds)\n", prog, s);
		exit(2);
	}
	return (unsigned long long)(d * 1e9);
}

/* One line of the process's own CPU time (CLOCK_PROCESS_CPUTIME_ID). */
static inline void print_cputime(const char *prog, unsigned long long wall_ns)
{
	printf("%s cpu_ns %llu wall_ns %llu\n", prog,
	       now_ns(CLOCK_PROCESS_CPUTIME_ID), wall_ns);
}

#ifdef _GNU_SOURCE
/* Pin the calling thread to @cpu, or exit. */
static inline void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		exit(1);
	}
}
#endif

#endif
