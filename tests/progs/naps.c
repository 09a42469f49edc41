// SPDX-License-Identifier: GPL-2.0
/*
 * naps WORK_US SECS: work WORK_US in user mode, then sleep as briefly as
 * the kernel allows (nanosleep of 1 ns with a timer slack of 1 ns), again
 * and again, for SECS seconds.  The attack on tickless randstat's floor:
 * if every wakeup restarted the law's floor (50 us), work that follows a
 * wakeup for less than the floor would never be sampled.  Prints "naps
 * cpu_ns N wall_ns W naps K": its CPU time, wall time and sleeps.
 */
#include <sys/prctl.h>

#include "common.h"

int main(int argc, char **argv)
{
	struct timespec nap = { 0, 1 };
	unsigned long long t0, c0, dur, work, t, end, naps = 0;
	volatile unsigned long x = 0;
	char *e;

	if (argc != 3 || (work = strtoull(argv[1], &e, 10) * 1000) == 0 || *e) {
		fprintf(stderr, "usage: naps WORK_US SECS\n");
		return 2;
	}
	dur = secs_arg(argv[2], "naps");
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	c0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
	t0 = now_ns(CLOCK_MONOTONIC);
	do {
		end = now_ns(CLOCK_MONOTONIC) + work;
		do {
			x++;
			t = now_ns(CLOCK_MONOTONIC);
		} while (t < end);
		nanosleep(&nap, NULL);
		naps++;
	} while (t - t0 < dur);
	printf("naps cpu_ns %llu wall_ns %llu naps %llu\n",
	       now_ns(CLOCK_PROCESS_CPUTIME_ID) - c0,
	       now_ns(CLOCK_MONOTONIC) - t0, naps);
	return 0;
}
