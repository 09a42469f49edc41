// SPDX-License-Identifier: GPL-2.0
/*
 * sleeploop SPIN_US SLEEP_US SECS [SLACK_NS]: spin SPIN_US in user mode
 * (reading CLOCK_MONOTONIC through the vDSO), then nanosleep(SLEEP_US),
 * again and again for SECS seconds of wall time: a service that works and
 * waits in short turns.  SLACK_NS sets its timer slack (default the
 * kernel's, 50 us): 1 lets it wake up to ~150,000 times a second.  Each
 * cycle has one wake-up, so the kernel's per-wake-up bias in its per-task
 * runtime (tests/vm/guest/faithful.sh) is known from the cycle count.
 * Prints
 *
 *   sleeploop cycles N spin_ns S cpu_ns C wall_ns W proc_cpu_ns P
 *
 * N cycles; S the time it spun (each spin's wall time, CLOCK_MONOTONIC);
 * C its CPU time over the loop (CLOCK_PROCESS_CPUTIME_ID), W the loop's
 * wall time, P its CPU time since the fork (the exec and start-up too),
 * for counters taken around the whole process.  A loop that degenerated
 * (woke late and often, spun little) shows it: S/C well below 1, N/W far
 * from 1/(SPIN + SLEEP).
 */
#include <sys/prctl.h>

#include "common.h"

int main(int argc, char **argv)
{
	unsigned long long spin, nap, dur, c0, t0, t, s0, end;
	unsigned long long spun = 0, cycles = 0;
	volatile unsigned long x = 0;
	struct timespec ts;
	char *e;

	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: sleeploop SPIN_US SLEEP_US SECS [SLACK_NS]\n");
		return 2;
	}
	spin = strtoull(argv[1], &e, 10) * 1000;
	if (*e || !spin) {
		fprintf(stderr, "sleeploop: bad SPIN_US '%s'\n", argv[1]);
		return 2;
	}
	nap = strtoull(argv[2], &e, 10) * 1000;
	if (*e || !nap) {
		fprintf(stderr, "sleeploop: bad SLEEP_US '%s'\n", argv[2]);
		return 2;
	}
	dur = secs_arg(argv[3], "sleeploop");
	if (argc == 5) {
		unsigned long slack = strtoul(argv[4], &e, 10);

		if (*e || !slack || prctl(PR_SET_TIMERSLACK, slack, 0, 0, 0)) {
			fprintf(stderr, "sleeploop: bad SLACK_NS '%s'\n", argv[4]);
			return 2;
		}
	}
	ts.tv_sec = nap / 1000000000;
	ts.tv_nsec = nap % 1000000000;
	c0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
	t0 = now_ns(CLOCK_MONOTONIC);
	do {
		s0 = now_ns(CLOCK_MONOTONIC);
		end = s0 + spin;
		do {
			x++;
			t = now_ns(CLOCK_MONOTONIC);
		} while (t < end);
		spun += t - s0;
		cycles++;
		nanosleep(&ts, NULL);
	} while (t - t0 < dur);
	t = now_ns(CLOCK_MONOTONIC);
	printf("sleeploop cycles %llu spin_ns %llu cpu_ns %llu wall_ns %llu proc_cpu_ns %llu\n",
	       cycles, spun, now_ns(CLOCK_PROCESS_CPUTIME_ID) - c0, t - t0,
	       now_ns(CLOCK_PROCESS_CPUTIME_ID));
	return 0;
}
