/* SPDX-License-Identifier: GPL-2.0 */
/*
 * randstat top: the arithmetic of the per-task view.  The samples of the
 * randstat:sample tracepoint added up per task, each task's user and
 * system time estimated from them with a 95% interval, the kernel's own
 * utime and stime deltas from /proc beside them, the '*' judgement, and
 * the order of the rows.  No I/O here: rstop.c reads tracefs and /proc,
 * rstopout.c prints.
 */
#ifndef RSTASK_H
#define RSTASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rsparse.h"

#define RS_COMM_LEN	16	/* the kernel's TASK_COMM_LEN, NUL included */

/* One task's figures from one read of /proc/PID/stat (or .../task/TID/stat). */
struct rs_pstat {
	int id;			/* the PID, or the TID with threads */
	int tgid;
	char comm[RS_COMM_LEN];
	uint64_t utime;		/* clock ticks (USER_HZ), fields 14 and 15 */
	uint64_t stime;
	uint64_t start;		/* field 22, ticks since boot: a reused id differs */
};

/* One read of /proc: every task's figures, found by id. */
struct rs_pscan {
	size_t n, cap;
	struct rs_pstat *v;
	size_t hcap;		/* a power of two, or 0 */
	size_t *h;		/* index + 1 into v, 0: empty */
};

/* An estimate of one class of one task over an interval, % of one CPU. */
struct rs_share {
	uint64_t k;		/* its samples */
	double pct;		/* randstat's estimate: k x mean interval / T */
	double lo, hi;		/* the 95% interval of that */
	double kernel;		/* the kernel's (utime or stime delta / T), or NAN */
	bool outside;		/* kernel is outside [lo, hi] beyond its resolution */
};

/* One task (a process, or a thread with threads) over one interval. */
struct rs_task {
	int id;			/* the PID (the tgid), or the TID */
	int tgid;
	char comm[RS_COMM_LEN];
	int comm_rank;		/* where comm is from: see set_comm() */
	uint64_t samples[RS_NCOLS];	/* its samples, by /proc/stat class */
	bool has_kernel;	/* /proc had it at the end of the interval */
	uint64_t dutime;	/* the kernel's utime and stime deltas, ticks */
	uint64_t dstime;
	struct rs_share usr;	/* user: user, nice, guest and guest_nice */
	struct rs_share sys;	/* system */
};

/* The tasks of one interval. */
struct rs_tasks {
	bool threads;		/* one row per thread, not per process */
	size_t n, cap;
	struct rs_task *v;
	size_t hcap;
	size_t *h;
	uint64_t samples[RS_NCOLS];	/* every sample of the interval */
	uint64_t unknown;	/* events of a class this reader does not know */
};

int rs_class_index(const char *s, size_t len);
void rs_poisson_ci95(uint64_t k, double *lo, double *hi);
bool rs_kernel_outside(double kernel, double lo, double hi, double res);

int rs_parse_pid_stat(const char *buf, size_t len, struct rs_pstat *p);
int rs_pscan_add(struct rs_pscan *s, const struct rs_pstat *p);
const struct rs_pstat *rs_pscan_find(const struct rs_pscan *s, int id);
void rs_pscan_clear(struct rs_pscan *s);
void rs_pscan_free(struct rs_pscan *s);

void rs_tasks_init(struct rs_tasks *t, bool threads);
int rs_tasks_add_sample(struct rs_tasks *t, int pid, int tgid,
			const char *comm, int cls, uint64_t n);
int rs_tasks_add_kernel(struct rs_tasks *t, const struct rs_pscan *before,
			const struct rs_pscan *after);
int rs_tasks_want(struct rs_tasks *t, const struct rs_pscan *after,
		  const int *pids, size_t n);
void rs_tasks_estimate(struct rs_tasks *t, double mean_ns,
		       double interval_ns, double user_hz);
size_t rs_tasks_rank(struct rs_tasks *t);
size_t rs_tasks_keep(struct rs_tasks *t, const int *pids, size_t n);
void rs_tasks_clear(struct rs_tasks *t);
void rs_tasks_free(struct rs_tasks *t);

#endif /* RSTASK_H */
