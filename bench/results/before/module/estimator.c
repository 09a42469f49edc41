// SPDX-License-Identifier: GPL-2.0
/*
 * randstat: the estimator's arithmetic.
 *
 * Each sample is charged the time since the previous sample's scheduled
 * expiry, less the steal time the kernel saw in that span.  With intervals
 * drawn independently of what the CPU runs, the class found at a sample is
 * independent of the length of the interval that ends there, so the
 * expected time charged to class k is p_k times the elapsed time: the
 * estimator is unbiased, and its relative error falls as 1/sqrt(n) in the
 * number of samples n (Documentation/randstat.rst).
 */
#include <linux/build_bug.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/param.h>
#include <linux/time64.h>

#include "randstat.h"

/**
 * randstat_charge() - charge one sample
 * @c: this CPU's counters
 * @cls: the sample's class (randstat_classify())
 * @interval_ns: time since the previous sample
 * @steal_ns: steal time the kernel accounted since the previous sample and
 *	not yet charged
 *
 * Steal is taken out of the interval first, so that it does not inflate
 * the sampled classes; the rest goes to @cls.  Guest time is also charged
 * to user (guest_nice to nice), as /proc/stat does.  The eight time
 * classes thus always sum to the sum of all intervals.
 *
 * Return: the steal time charged, at most @interval_ns; the caller carries
 * the rest over to the next sample.
 */
u64 randstat_charge(struct randstat_counters *c, enum randstat_class cls,
		    u64 interval_ns, u64 steal_ns)
{
	u64 steal = min(steal_ns, interval_ns);
	u64 t = interval_ns - steal;

	c->ns[RS_STEAL] += steal;
	c->ns[cls] += t;
	c->samples[cls]++;
	if (cls == RS_GUEST || cls == RS_GUEST_NICE) {
		enum randstat_class host = cls == RS_GUEST ? RS_USER : RS_NICE;

		c->ns[host] += t;
		c->samples[host]++;
	}
	return steal;
}

/**
 * randstat_hist_bucket() - the histogram bucket of a duration
 * @v: the duration, ns
 *
 * Bucket 0 holds [0, 64) ns; above that there are two buckets per power of
 * two, starting at 2^k and 1.5 * 2^k; the last bucket has no upper bound.
 *
 * Return: the bucket index, below RANDSTAT_HIST_BUCKETS.
 */
unsigned int randstat_hist_bucket(u64 v)
{
	unsigned int k, b;

	if (v < (1ULL << RANDSTAT_HIST_MIN_SHIFT))
		return 0;
	k = ilog2(v);
	b = 1 + 2 * (k - RANDSTAT_HIST_MIN_SHIFT) + ((v >> (k - 1)) & 1);
	return min_t(unsigned int, b, RANDSTAT_HIST_BUCKETS - 1);
}

/**
 * randstat_hist_lower_bound() - the smallest duration in a bucket
 * @bucket: the bucket index
 *
 * Return: the lower bound, ns.
 */
u64 randstat_hist_lower_bound(unsigned int bucket)
{
	unsigned int k;

	if (!bucket)
		return 0;
	k = RANDSTAT_HIST_MIN_SHIFT + (bucket - 1) / 2;
	return (bucket - 1) % 2 ? 3ULL << (k - 1) : 1ULL << k;
}

/**
 * randstat_record_timing() - record the sampler's own cost and lateness
 * @c: this CPU's counters
 * @cost_ns: time spent in the callback
 * @late_ns: delay from the scheduled expiry to the callback
 */
void randstat_record_timing(struct randstat_counters *c, u64 cost_ns,
			    u64 late_ns)
{
	c->cost_ns += cost_ns;
	c->cost_max_ns = max(c->cost_max_ns, cost_ns);
	c->cost_hist[randstat_hist_bucket(cost_ns)]++;
	c->late_ns += late_ns;
	c->late_max_ns = max(c->late_max_ns, late_ns);
	c->late_hist[randstat_hist_bucket(late_ns)]++;
}

/* The eight time classes; guest and guest_nice are inside user and nice. */
static u64 randstat_sum_time_classes(const u64 *v)
{
	u64 sum = 0;
	int i;

	for (i = 0; i < RS_NR_TIME_CLASSES; i++)
		sum += v[i];
	return sum;
}

/**
 * randstat_elapsed_ns() - a CPU's sampled time base
 * @c: the counters
 *
 * Return: the sum of the eight time classes.
 */
u64 randstat_elapsed_ns(const struct randstat_counters *c)
{
	return randstat_sum_time_classes(c->ns);
}

/**
 * randstat_total_samples() - a CPU's number of samples
 * @c: the counters
 *
 * Return: the sum of the sample counts of the eight time classes.
 */
u64 randstat_total_samples(const struct randstat_counters *c)
{
	return randstat_sum_time_classes(c->samples);
}

/**
 * randstat_ns_to_clock_t() - ns to USER_HZ ticks, as nsec_to_clock_t()
 * @ns: the time, ns
 *
 * nsec_to_clock_t() is not exported; this is its arithmetic for the usual
 * case where USER_HZ divides NSEC_PER_SEC, and it is exact up to U64_MAX.
 *
 * Return: @ns in USER_HZ units, rounded down.
 */
u64 randstat_ns_to_clock_t(u64 ns)
{
	BUILD_BUG_ON(NSEC_PER_SEC % USER_HZ);
	return div_u64(ns, NSEC_PER_SEC / USER_HZ);
}
