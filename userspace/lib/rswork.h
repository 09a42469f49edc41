/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The paper's workloads, one source for the benchmark's programs
 * (bench/progs: iso, evader, phased) and randstat verify: the clocks, the
 * tick's grid as a program can learn it, a periodic job and the tick
 * evader.  Plain C11 with POSIX clocks; no allocation, no output.
 */
#ifndef RSWORK_H
#define RSWORK_H

#include <stdint.h>
#include <time.h>

/* @clk now, in ns. */
int64_t rs_now_ns(clockid_t clk);
/* Sleep until CLOCK_MONOTONIC @t (ns), whatever interrupts the sleep. */
void rs_sleep_until(int64_t t);
/* Compute (read the clock) until CLOCK_MONOTONIC @t. */
void rs_spin_until(int64_t t);
/*
 * The tick's period, ns: CLOCK_MONOTONIC_COARSE's resolution, which the
 * kernel reports as TICK_NSEC (1e9 / HZ).  0 if it cannot be read.
 */
int64_t rs_tick_ns(void);
/* The CLOCK_MONOTONIC time just after the next tick edge. */
int64_t rs_next_tick_edge(void);
/*
 * The tick grid: a CLOCK_MONOTONIC time just after a tick, the earliest
 * phase of @edges edges (each edge is seen late by a variable amount),
 * not in the past.  @tick: the period, ns.
 */
int64_t rs_tick_grid(int64_t tick, int edges);
/*
 * A periodic job: from @start, every @period ns, compute @job ns, until
 * @end (all CLOCK_MONOTONIC ns).  Return: the jobs run.
 */
long rs_jobs(int64_t start, int64_t period, int64_t job, int64_t end);
/*
 * The paper's tick evader: @t is a time just after a tick
 * (rs_tick_grid()); sleep to @margin / 4 after it, then, until @end,
 * compute until @margin before the next tick and sleep across it,
 * waking @margin / 4 after it.  If @spin is not NULL, *@spin is the time
 * it meant to spin (from each wake-up to each spin's end,
 * CLOCK_MONOTONIC): most of its CPU time when it evades.  Return: the
 * cycles (one per tick when it evades).
 */
long rs_evade(int64_t t, int64_t tick, int64_t margin, int64_t end,
	      int64_t *spin);

#endif /* RSWORK_H */
