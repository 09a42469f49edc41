// SPDX-License-Identifier: GPL-2.0
/* The paper's workloads: see rswork.h. */
#include "rswork.h"

int64_t rs_now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void rs_sleep_until(int64_t t)
{
	struct timespec ts = { t / 1000000000, t % 1000000000 };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
		;
}

void rs_spin_until(int64_t t)
{
	while (rs_now_ns(CLOCK_MONOTONIC) < t)
		;
}

int64_t rs_tick_ns(void)
{
	struct timespec res;

	if (clock_getres(CLOCK_MONOTONIC_COARSE, &res) || res.tv_sec)
		return 0;
	return res.tv_nsec;
}

/*
 * CLOCK_MONOTONIC_COARSE only advances when a CPU's tick updates the
 * timekeeping, and every CPU's tick is on the same grid (no skew_tick).
 * Spin until it moves; the fine clock then is just after a tick, late by
 * the time the interrupt took to get there.
 */
int64_t rs_next_tick_edge(void)
{
	int64_t c = rs_now_ns(CLOCK_MONOTONIC_COARSE);

	while (rs_now_ns(CLOCK_MONOTONIC_COARSE) == c)
		;
	return rs_now_ns(CLOCK_MONOTONIC);
}

/*
 * The tick is a periodic hrtimer (TICK_NSEC apart, in CLOCK_MONOTONIC),
 * so its phase is fixed; keep the earliest phase seen.
 */
int64_t rs_tick_grid(int64_t tick, int edges)
{
	int64_t first = rs_next_tick_edge(), best = 0, off;
	int i;

	for (i = 1; i < edges; i++) {
		/* the offset from the first edge, in (-tick/2, tick/2] */
		off = (rs_next_tick_edge() - first) % tick;
		if (off > tick / 2)
			off -= tick;
		if (off < best)
			best = off;
	}
	first += best;
	while (first < rs_now_ns(CLOCK_MONOTONIC))
		first += tick;
	return first;
}

long rs_jobs(int64_t start, int64_t period, int64_t job, int64_t end)
{
	long n = 0;
	int64_t t;

	for (t = start; t < end; t += period, n++) {
		rs_sleep_until(t);
		rs_spin_until(t + job);
	}
	return n;
}

long rs_evade(int64_t t, int64_t tick, int64_t margin, int64_t end,
	      int64_t *spin)
{
	int64_t s0;
	long n = 0;

	if (spin)
		*spin = 0;
	rs_sleep_until(t + margin / 4);
	while (rs_now_ns(CLOCK_MONOTONIC) < end) {
		/* after a tick: compute until the margin... */
		s0 = rs_now_ns(CLOCK_MONOTONIC);
		rs_spin_until(t + tick - margin);
		if (spin && t + tick - margin > s0)
			*spin += t + tick - margin - s0;
		/* ...then sleep across the tick, waking just after it. */
		t += tick;
		rs_sleep_until(t + margin / 4);
		n++;
	}
	return n;
}
