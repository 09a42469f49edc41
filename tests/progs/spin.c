// SPDX-License-Identifier: GPL-2.0
/*
 * spin SECS: a user-mode busy loop for SECS seconds of wall time.  Prints
 * "spin cpu_ns N wall_ns W proc_cpu_ns P": the CPU time of the loop alone
 * (growth of CLOCK_PROCESS_CPUTIME_ID, the scheduler's exact runtime, over
 * the loop: not the exec and startup before it), the wall time it ran,
 * and the process's whole runtime since its fork at the loop's end.
 *
 * The clock is read through the vDSO (no kernel entry), and only every
 * 2^16 iterations, so nearly all the time is spent in user mode.
 */
#include "common.h"

/*
 * The loop, in a function of its own (and frame pointers: the Makefile)
 * so that a profile's callchains name it: spin_loop <- main (the VM
 * trace suite's perf test).  Returns the loop's end time.
 */
static __attribute__((noinline)) unsigned long long
spin_loop(unsigned long long t0, unsigned long long dur)
{
	volatile unsigned long x = 0;
	unsigned long long t;
	unsigned long i;

	do {
		for (i = 0; i < 65536; i++)
			x += i;
		t = now_ns(CLOCK_MONOTONIC);
	} while (t - t0 < dur);
	return t;
}

int main(int argc, char **argv)
{
	unsigned long long t0, c0, c1, dur, t;

	if (argc != 2) {
		fprintf(stderr, "usage: spin SECS\n");
		return 2;
	}
	dur = secs_arg(argv[1], "spin");
	c0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
	t0 = now_ns(CLOCK_MONOTONIC);
	t = spin_loop(t0, dur);
	c1 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
	printf("spin cpu_ns %llu wall_ns %llu proc_cpu_ns %llu\n",
	       c1 - c0, t - t0, c1);
	return 0;
}
