/* SPDX-License-Identifier: GPL-2.0 */
/* randstat top: a report of one interval, as text or as JSON. */
#ifndef RSTOPOUT_H
#define RSTOPOUT_H

#include <stdio.h>

#include "rstask.h"

struct rs_top_report {
	const char *title;	/* the time of day at the end, "HH:MM:SS" */
	double time;		/* then, Unix seconds */
	double interval_s;	/* the interval's length */
	enum rs_law law;	/* the sampling law, as of the end */
	uint64_t floor_ns;
	uint64_t mean_ns;
	uint64_t tmin_ns;
	uint64_t tmax_ns;
	double mu_ns;		/* the mean interval the estimates use */
	uint64_t lost;		/* events the trace buffer lost */
	bool lost_unknown;	/* it lost some, how many is not known */
	const struct rs_tasks *tasks;	/* ranked (rs_tasks_rank()) */
	size_t active;		/* tasks with user or system time */
	size_t shown;		/* the first rows shown (-n) */
	unsigned int nnotes;
	char **notes;
};

void rs_top_legend(FILE *f, const struct rs_top_report *r);
void rs_top_text(FILE *f, const struct rs_top_report *r);
int rs_top_json(FILE *f, const struct rs_top_report *r);

#endif /* RSTOPOUT_H */
