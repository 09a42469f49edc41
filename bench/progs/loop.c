// SPDX-License-Identifier: GPL-2.0
/*
 * loop SECONDS: a CPU-bound loop, for the overhead measurement.  Prints
 * "loop iters N wall_ns W rate R" (R: iterations per second of wall time)
 * and the usual cpu_ns line.  The clock is read every 2^16 iterations.
 */
#include "common.h"

int main(int argc, char **argv)
{
	long secs = arg(argc, argv, 1, 2);
	volatile unsigned long x = 0;
	unsigned long i, iters = 0;
	int64_t end, t;
	struct mark m;

	if (argc < 2 || secs <= 0) {
		fprintf(stderr, "usage: loop SECONDS\n");
		return 1;
	}
	m = mark_now();
	end = m.wall + secs * 1000000000L;
	do {
		for (i = 0; i < 65536; i++)
			x += i;
		iters += 65536;
		t = now_ns(CLOCK_MONOTONIC);
	} while (t < end);
	printf("loop iters %lu wall_ns %lld rate %.0f\n", iters,
	       (long long)(t - m.wall), iters * 1e9 / (t - m.wall));
	report("loop", m);
	return 0;
}
