// SPDX-License-Identifier: GPL-2.0
/*
 * iso PERIOD_US JOB_US SECONDS [PHASE_US]
 *
 * An isochronous worker, the paper's "vat" pattern: a job of JOB_US of
 * computation every PERIOD_US, for SECONDS.  With PHASE_US given, the
 * first job starts PHASE_US after a tick (the grid from the coarse clock,
 * tick_grid() in common.h, for HZ=250), so against a tick that divides
 * PERIOD_US every job sees the tick at the same point: a job that fits
 * between two ticks is never charged, one that straddles a tick is
 * charged a whole tick.  Without it the phase is whatever it happens to be.
 */
#include "common.h"

int main(int argc, char **argv)
{
	long period = arg(argc, argv, 1, 8000) * 1000;
	long job = arg(argc, argv, 2, 2000) * 1000;
	long secs = arg(argc, argv, 3, 5);
	long phase = arg(argc, argv, 4, -1);
	int64_t start, end;
	struct mark m;

	if (argc < 4 || job <= 0 || job > period || secs <= 0) {
		fprintf(stderr, "usage: iso PERIOD_US JOB_US SECONDS [PHASE_US]\n");
		return 1;
	}
	start = phase >= 0 ? tick_grid(4000000, 16) + phase * 1000 :
			     now_ns(CLOCK_MONOTONIC);
	sleep_until(start);
	m = mark_now();
	end = start + secs * 1000000000L;
	rs_jobs(start, period, job, end);	/* userspace/lib/rswork.c */
	report("iso", m);
	return 0;
}
