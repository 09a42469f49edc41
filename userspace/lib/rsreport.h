/* SPDX-License-Identifier: GPL-2.0 */
/*
 * randstat reader: the arithmetic.  Shares of time per class, their 95%
 * confidence half-widths from randstat's sample counts, interval deltas,
 * and the detection of resets and of CPUs going offline or online.
 */
#ifndef RSREPORT_H
#define RSREPORT_H

#include "rsparse.h"

/* mpstat's columns, in its order. */
enum rs_disp {
	RS_D_USR,	/* user - guest */
	RS_D_NICE,	/* nice - guest_nice */
	RS_D_SYS,
	RS_D_IOWAIT,
	RS_D_IRQ,
	RS_D_SOFT,
	RS_D_STEAL,
	RS_D_GUEST,
	RS_D_GNICE,
	RS_D_IDLE,
	RS_NDISP,
};

#define RS_Z95		1.96	/* the normal quantile of a 95% interval */
#define RS_ALL		(-1)	/* rs_line.cpu of the row summing all CPUs */

/* mpstat's names, without the '%': "usr", "nice", ... */
extern const char *const rs_disp_name[RS_NDISP];
/* /proc/stat's column names: "user", "nice", ..., "guest_nice" */
extern const char *const rs_col_name[RS_NCOLS];

/* One row of a report: one CPU, or all of them. */
struct rs_line {
	int cpu;		/* the CPU number, or RS_ALL */
	bool has_rs;		/* randstat's numbers are there */
	bool has_stat;		/* /proc/stat's numbers are there */
	uint64_t n;		/* randstat's samples (first eight columns) */
	double rs_seconds;	/* randstat's time: its first eight ns columns */
	double stat_seconds;	/* /proc/stat's: its first eight columns */
	double rs[RS_NDISP];	/* randstat's shares, percent; NAN: none */
	double lo[RS_NDISP];	/* their 95% intervals' ends, percent; */
	double hi[RS_NDISP];	/* NAN: none (steal, no time) */
	double hw[RS_NDISP];	/* the farther end's distance: a half-width */
	double st[RS_NDISP];	/* /proc/stat's shares, percent */
	bool compared;		/* the two cover the same span: marks made */
	bool outside[RS_NDISP];	/* /proc/stat is outside randstat's interval */
	struct rs_sampler s;	/* the sampler's counts over the report */
};

struct rs_report {
	bool interval;		/* deltas between two reads, not since start */
	bool reset;		/* the counters went down: no lines */
	enum rs_law law;	/* the law and its parameters, as of the end */
	uint64_t floor_ns;
	uint64_t mean_ns;
	uint64_t tmin_ns;
	uint64_t tmax_ns;
	unsigned int nlines;
	struct rs_line *lines;	/* the all row first, then CPUs in order */
	unsigned int nnotes;
	char **notes;		/* what the reader has to be told */
};

void rs_prop_ci95(uint64_t k, uint64_t n, double *lo, double *hi);
double rs_halfwidth95(uint64_t k, uint64_t n);
void rs_disp(const struct rs_row *r, uint64_t d[RS_NDISP]);
void rs_shares(const struct rs_row *r, double pct[RS_NDISP]);
void rs_estimate(const struct rs_row *samples, const struct rs_row *exact,
		 uint64_t sampled_ns, double est[RS_NDISP],
		 double var[RS_NDISP]);
unsigned int rs_row_sub(const struct rs_row *a, const struct rs_row *b,
			struct rs_row *d);
bool rs_randstat_went_down(const struct rs_snap *a, const struct rs_snap *b);

int rs_report_since_start(struct rs_report *rep, const struct rs_snap *stat,
			  const struct rs_snap *rs);
int rs_report_interval(struct rs_report *rep, const struct rs_snap *stat0,
		       const struct rs_snap *rs0, const struct rs_snap *stat1,
		       const struct rs_snap *rs1);
void rs_snap_add_delta(struct rs_snap *acc, const struct rs_snap *a,
		       const struct rs_snap *b);
int rs_report_note(struct rs_report *rep, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const struct rs_line *rs_report_line(const struct rs_report *rep, int cpu);
void rs_report_free(struct rs_report *rep);

#endif /* RSREPORT_H */
