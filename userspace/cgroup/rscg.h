/* SPDX-License-Identifier: GPL-2.0 */
/*
 * randstat cgroup: randstat's samples per cgroup v2.
 *
 * The BPF program (rscg.bpf.c) counts the randstat:sample events per
 * (cgroup id, class) in a per-CPU hash map; the reader (randstat-cgroup.c)
 * turns each CPU's counts into time with that CPU's own sampled time per
 * sample (/proc/randstat_detail's "sampler cpuN" line) and adds them up the
 * hierarchy; the arithmetic is here and in rscgcalc.c (no I/O, unit
 * tested by tests/test_cgroup.c).
 */
#ifndef RSCG_H
#define RSCG_H

#include <linux/types.h>

/* The module's enum randstat_class (include/randstat.h): the same order. */
enum rscg_class {
	RSCG_USER, RSCG_NICE, RSCG_SYSTEM, RSCG_IDLE, RSCG_IOWAIT, RSCG_IRQ,
	RSCG_SOFTIRQ, RSCG_STEAL, RSCG_GUEST, RSCG_GUEST_NICE, RSCG_NCLASSES,
};

/*
 * The cgroup id of samples that belong to no container: idle, iowait, irq
 * and softirq (the task an interrupt interrupted did not ask for it).
 * Real cgroup v2 ids (kernfs node ids) start at 1, the root.
 */
#define RSCG_NOBODY	0

/* The map's key.  Its value, per CPU, is a __u64 count of samples. */
struct rscg_key {
	__u64 cgid;
	__u32 cls;
	__u32 pad;
};

/* The per-CPU array "rscg_lost": its slots. */
enum {
	RSCG_LOST_FULL,		/* samples not counted: the map was full */
	RSCG_LOST_OTHER,	/* ... any other failure to insert */
	RSCG_LOST_CLASS,	/* a class out of range (a newer module) */
	RSCG_LOST_ERRNO,	/* not a count: the last OTHER failure's errno */
	RSCG_NLOST,
};

#define RSCG_MAX_ENTRIES_DEFAULT	16384

#ifndef __bpf__
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One CPU's "sampler cpuN" figures from /proc/randstat_detail. */
struct rscg_sampler {
	bool seen;
	uint64_t sampled_ns;	/* the time its samples cover and share */
	uint64_t samples;
};

/* The groups of classes a row shows (user: user and guest, as /proc/stat). */
enum rscg_group { RSCG_G_USR, RSCG_G_NICE, RSCG_G_SYS, RSCG_G_USER_ALL,
		  RSCG_G_BUSY, RSCG_G_INTR, RSCG_G_IDLE, RSCG_NGROUPS };

/* One row's samples over an interval: counts, and their time. */
struct rscg_acc {
	uint64_t k[RSCG_NCLASSES];
	double ns[RSCG_NCLASSES];	/* sum over CPUs of k x ns per sample */
};

/* An estimate of one group of classes, % of one CPU over the interval. */
struct rscg_est {
	uint64_t k;
	double ns;		/* the estimated time */
	double pct, lo, hi;	/* and its 95% interval, % of one CPU */
};

int rscg_parse_samplers(const char *buf, size_t len, struct rscg_sampler *v,
			int ncpu);
double rscg_ns_per_sample(const struct rscg_sampler *a,
			  const struct rscg_sampler *b);
double rscg_mean_ns_per_sample(const struct rscg_sampler *a,
			       const struct rscg_sampler *b, int ncpu);
void rscg_acc_add(struct rscg_acc *r, int cls, uint64_t k, double ns_per_sample);
void rscg_acc_merge(struct rscg_acc *to, const struct rscg_acc *from);
unsigned int rscg_group_mask(enum rscg_group g);
void rscg_estimate(const struct rscg_acc *r, enum rscg_group g, double t_ns,
		   double fallback_ns, struct rscg_est *e);
int rscg_parse_cpustat(const char *buf, size_t len, uint64_t *usage,
		       uint64_t *user, uint64_t *system);
bool rscg_outside(double kernel_pct, const struct rscg_est *e, double t_ns);

/* One cgroup's counters for the Prometheus text: user, nice, system, ns. */
struct rscg_prom_series {
	const char *path;
	double ns[3];
};

#include <stdio.h>
void rscg_prom_format(FILE *f, const struct rscg_prom_series *s, size_t n,
		      const double *nobody_ns, const uint64_t *lost);

/* One row of a report: a cgroup, or one of the buckets. */
struct rscg_row {
	int cg;			/* index in the tree, -1 for the buckets */
	const char *path;
	uint64_t id;
	int depth;
	struct rscg_acc acc;
	struct rscg_est e[RSCG_NGROUPS];
	double k_usage, k_user, k_system;	/* cpu.stat, % (NAN: none) */
	bool out_user, out_system;
	bool shown;		/* in the report (-d, -f, -n) */
};

/* One interval's report, for --json (rscgout.c). */
struct rscg_report {
	long long time;		/* time(NULL) */
	double interval_s;
	const char *attach;	/* "raw_tp" or "tracepoint" */
	size_t map_entries;	/* the map's keys */
	uint64_t samples_randstat;	/* /proc/randstat_detail's samples */
	uint64_t samples_counted;	/* those the map counted */
	const uint64_t *lost;	/* RSCG_NLOST, over the interval */
	const struct rscg_row *buckets;	/* interrupts, idle, removed */
	const struct rscg_row *rows;	/* the shown ones are written */
	size_t nrows;
};

int rscg_json_print(FILE *f, const struct rscg_report *r);
#endif

#endif /* RSCG_H */
