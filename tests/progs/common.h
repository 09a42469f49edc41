/* SPDX-License-Identifier: GPL-2.0 */
/* Shared helpers for the randstat test workloads (tests/progs). */
#ifndef RS_PROGS_COMMON_H
#define RS_PROGS_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

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

#endif
