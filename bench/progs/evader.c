// SPDX-License-Identifier: GPL-2.0
/*
 * evader TICK_US MARGIN_US SECONDS
 *
 * The paper's tick-evading CPU consumer (its appendix), ported to Linux.
 * The coarse clock gives the tick grid (tick_grid() in common.h); the
 * program computes from just after a tick until MARGIN_US before the
 * next one, then sleeps across it, waking MARGIN_US/4 after it.  The tick
 * never finds it running, so /proc/stat's per-CPU counters do not see it,
 * while it uses about (TICK - 1.25 MARGIN - wake-up delay) / TICK of the
 * CPU.
 *
 * So that a harness can tell an evader from a degenerate one (one that
 * lost the grid and sleeps and wakes far more often than the tick, or
 * spins for little of its CPU time), it prints, before the usual line,
 * "evader cycles N spin_ns S tick_ns T": its spin-and-sleep cycles, one
 * per tick when it evades, and the time it meant to spin (from each
 * wake-up to each spin's end, CLOCK_MONOTONIC), most of its CPU time
 * when it evades.
 */
#include "common.h"

int main(int argc, char **argv)
{
	long tick = arg(argc, argv, 1, 4000) * 1000;
	long margin = arg(argc, argv, 2, 500) * 1000;
	long secs = arg(argc, argv, 3, 5);
	int64_t end, t, spin;
	long cycles;
	struct mark m;

	if (argc < 4 || tick <= 0 || margin <= 0 || margin >= tick || secs <= 0) {
		fprintf(stderr, "usage: evader TICK_US MARGIN_US SECONDS\n");
		return 1;
	}
	t = tick_grid(tick, 16);
	sleep_until(t + margin / 4);
	m = mark_now();
	end = m.wall + secs * 1000000000L;
	cycles = rs_evade(t, tick, margin, end, &spin);	/* userspace/lib/rswork.c */
	printf("evader cycles %ld spin_ns %lld tick_ns %ld\n", cycles,
	       (long long)spin, tick);
	report("evader", m);
	return 0;
}
