// SPDX-License-Identifier: GPL-2.0
/*
 * randstat cgroup: the arithmetic (no I/O).
 *
 * A cgroup's samples of a class on CPU c, k_c, stand for k_c x s_c of
 * time, s_c = that CPU's delta sampled_ns / delta samples over the same
 * interval (/proc/randstat_detail's "sampler cpuN" line): the CPU view's
 * estimator, CPU by CPU.  The 95% interval is randstat top's: Garwood's
 * exact Poisson interval on k = sum k_c (rs_poisson_ci95()), scaled by
 * the mean time per sample of those samples, (sum k_c s_c) / k.  With one
 * s for all CPUs that is the exact interval; with different ones it
 * treats the samples as one Poisson count at their mean weight.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rscg.h"
#include "rsjson.h"
#include "rstask.h"

/* The value after " KEY " in [p, end), or -1 if absent. */
static int field(const char *p, const char *end, const char *key, uint64_t *v)
{
	size_t kl = strlen(key);
	const char *q;

	for (q = p; q + kl + 2 <= end; q++) {
		if (*q == ' ' && !memcmp(q + 1, key, kl) && q[kl + 1] == ' ') {
			char *e;
			unsigned long long x;

			q += kl + 2;
			if (q >= end || *q < '0' || *q > '9')
				return -1;
			x = strtoull(q, &e, 10);
			if (e > end)
				return -1;
			*v = x;
			return 0;
		}
	}
	return -1;
}

/**
 * rscg_parse_samplers() - the "sampler cpuN" lines of /proc/randstat_detail
 * @buf: the file (any format version that has these lines; other lines
 *	are ignored)
 * @len: its length
 * @v: out: @ncpu entries, zeroed first; seen for the CPUs found
 * @ncpu: the size of @v
 *
 * Return: the number of CPUs found, or -1 if a sampler line is damaged
 * or names a CPU at or above @ncpu.
 */
int rscg_parse_samplers(const char *buf, size_t len, struct rscg_sampler *v,
			int ncpu)
{
	const char *p = buf, *end = buf + len;
	int n = 0;

	memset(v, 0, sizeof(*v) * (size_t)ncpu);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		if (le - p > 11 && !memcmp(p, "sampler cpu", 11)) {
			char *e;
			long cpu = strtol(p + 11, &e, 10);

			if (e == p + 11 || e >= le || *e != ' ' || cpu < 0 || cpu >= ncpu ||
			    field(e, le, "sampled_ns", &v[cpu].sampled_ns) ||
			    field(e, le, "samples", &v[cpu].samples))
				return -1;
			v[cpu].seen = true;
			n++;
		}
		p = le + 1;
	}
	return n;
}

/**
 * rscg_ns_per_sample() - a CPU's sampled time per sample between two reads
 * @a: the first read's figures of that CPU
 * @b: the second's
 *
 * Return: delta sampled_ns / delta samples, or 0 when it took no sample
 * (or was reset in between).
 */
double rscg_ns_per_sample(const struct rscg_sampler *a,
			  const struct rscg_sampler *b)
{
	if (!a->seen || !b->seen || b->samples <= a->samples ||
	    b->sampled_ns < a->sampled_ns)
		return 0;
	return (double)(b->sampled_ns - a->sampled_ns) /
	       (double)(b->samples - a->samples);
}

/**
 * rscg_mean_ns_per_sample() - the same over every CPU together
 * @a: the first read, @ncpu entries
 * @b: the second
 * @ncpu: their size
 *
 * The weight of a group with no sample (for its interval's upper end).
 * Return: the mean, or 0 if no CPU took a sample.
 */
double rscg_mean_ns_per_sample(const struct rscg_sampler *a,
			       const struct rscg_sampler *b, int ncpu)
{
	double ns = 0, n = 0;
	int c;

	for (c = 0; c < ncpu; c++) {
		if (!rscg_ns_per_sample(&a[c], &b[c]))
			continue;
		ns += (double)(b[c].sampled_ns - a[c].sampled_ns);
		n += (double)(b[c].samples - a[c].samples);
	}
	return n ? ns / n : 0;
}

/* Add @k samples of class @cls, each worth @ns_per_sample. */
void rscg_acc_add(struct rscg_acc *r, int cls, uint64_t k, double ns_per_sample)
{
	if (cls < 0 || cls >= RSCG_NCLASSES)
		return;
	r->k[cls] += k;
	r->ns[cls] += (double)k * ns_per_sample;
}

void rscg_acc_merge(struct rscg_acc *to, const struct rscg_acc *from)
{
	int i;

	for (i = 0; i < RSCG_NCLASSES; i++) {
		to->k[i] += from->k[i];
		to->ns[i] += from->ns[i];
	}
}

/* The classes of group @g, a bit each. */
unsigned int rscg_group_mask(enum rscg_group g)
{
	switch (g) {
	case RSCG_G_USR: return 1u << RSCG_USER | 1u << RSCG_GUEST;
	case RSCG_G_NICE: return 1u << RSCG_NICE | 1u << RSCG_GUEST_NICE;
	case RSCG_G_SYS: return 1u << RSCG_SYSTEM;
	case RSCG_G_USER_ALL:
		return rscg_group_mask(RSCG_G_USR) | rscg_group_mask(RSCG_G_NICE);
	case RSCG_G_BUSY:
		return rscg_group_mask(RSCG_G_USER_ALL) | 1u << RSCG_SYSTEM;
	case RSCG_G_INTR: return 1u << RSCG_IRQ | 1u << RSCG_SOFTIRQ;
	case RSCG_G_IDLE: return 1u << RSCG_IDLE | 1u << RSCG_IOWAIT;
	default: return 0;
	}
}

/**
 * rscg_estimate() - a group's time over an interval, with its 95% interval
 * @r: the row's samples
 * @g: the group of classes
 * @t_ns: the interval's length
 * @fallback_ns: time per sample for a group with no sample (the mean over
 *	CPUs: rscg_mean_ns_per_sample())
 * @e: out
 */
void rscg_estimate(const struct rscg_acc *r, enum rscg_group g, double t_ns,
		   double fallback_ns, struct rscg_est *e)
{
	unsigned int m = rscg_group_mask(g);
	double lo, hi, w;
	int i;

	memset(e, 0, sizeof(*e));
	for (i = 0; i < RSCG_NCLASSES; i++) {
		if (!(m & 1u << i))
			continue;
		e->k += r->k[i];
		e->ns += r->ns[i];
	}
	if (t_ns <= 0) {
		e->pct = e->lo = e->hi = NAN;
		return;
	}
	w = e->k ? e->ns / (double)e->k : fallback_ns;
	rs_poisson_ci95(e->k, &lo, &hi);
	e->pct = 100 * e->ns / t_ns;
	e->lo = 100 * lo * w / t_ns;
	e->hi = 100 * hi * w / t_ns;
}

/**
 * rscg_parse_cpustat() - usage_usec, user_usec, system_usec of a cpu.stat
 * @buf: the file
 * @len: its length
 * @usage: out
 * @user: out
 * @system: out
 *
 * Return: 0, or -1 if one of the three is missing or not a number.
 */
int rscg_parse_cpustat(const char *buf, size_t len, uint64_t *usage,
		       uint64_t *user, uint64_t *system)
{
	const char *p = buf, *end = buf + len;
	int seen = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		static const char *const keys[] = { "usage_usec ", "user_usec ",
						    "system_usec " };
		uint64_t *out[] = { usage, user, system };
		int i;

		for (i = 0; i < 3; i++) {
			size_t kl = strlen(keys[i]);
			char *e;

			if ((size_t)(le - p) <= kl || memcmp(p, keys[i], kl))
				continue;
			if (p[kl] < '0' || p[kl] > '9')
				return -1;
			*out[i] = strtoull(p + kl, &e, 10);
			if (e != le)
				return -1;
			seen |= 1 << i;
		}
		p = le + 1;
	}
	return seen == 7 ? 0 : -1;
}

/**
 * rscg_outside() - is cpu.stat's figure outside randstat's interval?
 * @kernel_pct: cpu.stat's delta over the interval, % of one CPU (NAN:
 *	none)
 * @e: randstat's estimate
 * @t_ns: the interval, for cpu.stat's resolution (1 us)
 *
 * Return: true if outside beyond that resolution and the printed two
 * decimals (rs_kernel_outside()).
 */
bool rscg_outside(double kernel_pct, const struct rscg_est *e, double t_ns)
{
	return rs_kernel_outside(kernel_pct, e->lo, e->hi, 100 * 1e3 / t_ns);
}

/*
 * A label value: UTF-8, as the exposition format requires (promtool
 * rejects anything else, node_exporter drops the whole file), each byte
 * that is not part of a well-formed sequence put as U+FFFD as in the
 * JSON (rs_json_str()); backslash, double quote and newline escaped.
 */
static void prom_label(FILE *f, const char *s)
{
	size_t n;

	for (; *s; s += n) {
		n = rs_utf8_len(s);
		if (!n) {
			fputs("\xef\xbf\xbd", f);
			n = 1;
		} else if (*s == '\n') {
			fputs("\\n", f);
		} else if (*s == '"' || *s == '\\') {
			fputc('\\', f);
			fputc(*s, f);
		} else {
			fwrite(s, 1, n, f);
		}
	}
}

/**
 * rscg_prom_format() - the counters in Prometheus' text format
 * @f: where to
 * @s: the cgroups' counters
 * @n: how many
 * @nobody_ns: RSCG_NCLASSES: the time charged to no cgroup, ns (idle,
 *	iowait, irq and softirq are written)
 * @lost: RSCG_NLOST: samples not counted
 *
 * Errors are left in @f's error flag.
 */
void rscg_prom_format(FILE *f, const struct rscg_prom_series *s, size_t n,
		      const double *nobody_ns, const uint64_t *lost)
{
	static const char *const mode[] = { "user", "nice", "system" };
	static const struct { int cls; const char *name; } nb[] = {
		{ RSCG_IDLE, "idle" }, { RSCG_IOWAIT, "iowait" },
		{ RSCG_IRQ, "irq" }, { RSCG_SOFTIRQ, "softirq" },
	};
	size_t i;
	int m;

	fputs("# HELP randstat_cgroup_cpu_seconds_total Seconds the CPUs spent in each mode in a cgroup and its descendants, estimated from randstat's samples (interrupts excluded), since randstat cgroup started.\n"
	      "# TYPE randstat_cgroup_cpu_seconds_total counter\n", f);
	for (i = 0; i < n; i++)
		for (m = 0; m < 3; m++) {
			fputs("randstat_cgroup_cpu_seconds_total{cgroup=\"", f);
			prom_label(f, s[i].path);
			fprintf(f, "\",mode=\"%s\"} %.6f\n", mode[m], s[i].ns[m] / 1e9);
		}
	fputs("# HELP randstat_cgroup_unattributed_seconds_total Seconds randstat's samples charged to no cgroup: idle, iowait, irq and softirq, since randstat cgroup started.\n"
	      "# TYPE randstat_cgroup_unattributed_seconds_total counter\n", f);
	for (i = 0; i < sizeof(nb) / sizeof(nb[0]); i++)
		fprintf(f, "randstat_cgroup_unattributed_seconds_total{mode=\"%s\"} %.6f\n",
			nb[i].name, nobody_ns[nb[i].cls] / 1e9);
	fputs("# HELP randstat_cgroup_lost_samples_total Samples the BPF program could not count, by reason.\n"
	      "# TYPE randstat_cgroup_lost_samples_total counter\n", f);
	fprintf(f, "randstat_cgroup_lost_samples_total{reason=\"map_full\"} %llu\n"
		"randstat_cgroup_lost_samples_total{reason=\"other\"} %llu\n"
		"randstat_cgroup_lost_samples_total{reason=\"unknown_class\"} %llu\n",
		(unsigned long long)lost[RSCG_LOST_FULL],
		(unsigned long long)lost[RSCG_LOST_OTHER],
		(unsigned long long)lost[RSCG_LOST_CLASS]);
}
