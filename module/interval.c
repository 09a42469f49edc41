// SPDX-License-Identifier: GPL-2.0
/*
 * randstat: the sampling interval's law and its parameters.
 *
 * Two laws (Documentation/design.rst, "The statistical model"):
 *
 * - exponential (the default): floor + Exp(mean - floor).  Past the floor
 *   the hazard is constant, so whatever a process knows of past sample
 *   times, the expected number of samples that land while it runs is its
 *   run time over the mean (PASTA), less at most floor/mean of it.
 * - uniform: U[tmin, tmax], McCanne and Torek's law.  No sample comes
 *   within tmin of the previous one, so a process that learns a sample has
 *   just happened can run unseen for tmin.
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/math64.h>
#include <linux/minmax.h>

#include "randstat.h"

const char *const randstat_law_names[RS_NR_LAWS] = {
	[RS_LAW_EXPONENTIAL] = "exponential",
	[RS_LAW_UNIFORM] = "uniform",
};

/**
 * randstat_window_check() - are these parameters acceptable for a law?
 * @law: the law
 * @lo: floor_ns or tmin_ns
 * @hi: mean_ns or tmax_ns
 *
 * Uniform: RANDSTAT_TMIN_LIMIT_NS <= tmin <= tmax <= RANDSTAT_TMAX_LIMIT_NS.
 * Exponential: RANDSTAT_FLOOR_LIMIT_NS <= floor, 2 floor <= mean <=
 * RANDSTAT_MEAN_LIMIT_NS, so that at least half of the mean is memoryless.
 *
 * Return: 0 if acceptable, else -EINVAL.
 */
int randstat_window_check(enum randstat_law law, u64 lo, u64 hi)
{
	switch (law) {
	case RS_LAW_EXPONENTIAL:
		if (lo < RANDSTAT_FLOOR_LIMIT_NS ||
		    hi > RANDSTAT_MEAN_LIMIT_NS || 2 * lo > hi)
			return -EINVAL;
		return 0;
	case RS_LAW_UNIFORM:
		if (lo < RANDSTAT_TMIN_LIMIT_NS ||
		    hi > RANDSTAT_TMAX_LIMIT_NS || lo > hi)
			return -EINVAL;
		return 0;
	default:
		return -EINVAL;
	}
}

/**
 * randstat_window_set() - change one of a law's two parameters
 * @law: the law
 * @w: its parameters
 * @is_hi: set mean_ns or tmax_ns (else floor_ns or tmin_ns)
 * @val: the new value, ns
 * @alone: check @val against the limits only, not against the other
 *	parameter (at load time, when the other one may not have been given
 *	yet): the other is taken at its most permissive limit
 *
 * Return: 0 and @w updated, or -EINVAL and @w untouched.
 */
int randstat_window_set(enum randstat_law law, struct randstat_window *w,
			bool is_hi, u64 val, bool alone)
{
	u64 lo = is_hi ? w->lo : val;
	u64 hi = is_hi ? val : w->hi;
	int ret;

	if (alone) {
		lo = is_hi ? RANDSTAT_TMIN_LIMIT_NS : val;
		hi = is_hi ? val : RANDSTAT_TMAX_LIMIT_NS;
	}
	ret = randstat_window_check(law, lo, hi);
	if (ret)
		return ret;
	if (is_hi)
		w->hi = val;
	else
		w->lo = val;
	return 0;
}

#define RS_FRAC_BITS	32
/* ln 2 in 0.32 fixed point, rounded: 0.693147180559945 * 2^32 */
#define RS_LN2_Q32	2977044472U

/**
 * randstat_neg_log2() - -log2(u / 2^64), without floating point
 * @u: a uniform 64-bit draw; 0 is taken as 1
 *
 * The integer part is the position of the top bit; the fraction comes one
 * bit per step from squaring the mantissa (x in [1, 2), kept in 1.31 fixed
 * point): log2(x^2) = 2 log2(x), so each squaring that passes 2 is a one.
 * The result is below the exact value by at most 2^-30 (the mantissa and
 * each square are truncated to 32 bits).
 *
 * Return: -log2(u / 2^64) in 32.32 fixed point, in (0, 64].
 */
u64 randstat_neg_log2(u64 u)
{
	unsigned int k, i;
	u64 frac = 0, m;

	if (!u)
		u = 1;
	k = fls64(u) - 1;
	/* The top 32 significant bits: m / 2^31 in [1, 2). */
	m = k >= 31 ? u >> (k - 31) : u << (31 - k);
	for (i = 0; i < RS_FRAC_BITS; i++) {
		m = (m * m) >> 31;
		frac <<= 1;
		if (m >= 1ULL << 32) {
			m >>= 1;
			frac |= 1;
		}
	}
	/* log2(u) = k + frac / 2^32; the answer is 64 - log2(u). */
	return ((u64)(64 - k) << RS_FRAC_BITS) - frac;
}

/**
 * randstat_draw_exponential() - @floor plus an exponential draw
 * @r: this CPU's keystream
 * @floor: the shortest interval, ns
 * @mean: the mean interval, ns; @floor < @mean
 *
 * The exponential part has mean @mean - @floor.
 * Exp(1) is -ln U = -log2(U) ln 2 for U uniform on (0, 1], here 64 bits
 * of the keystream.  Its largest value is 64 ln 2 = 44.4, so an interval is
 * at most floor + 44.4 (mean - floor) (with probability 2^-64).
 *
 * Return: the interval, ns.
 */
u64 randstat_draw_exponential(struct randstat_rng *r, u32 floor, u32 mean)
{
	u64 e = mul_u64_u32_shr(randstat_neg_log2(randstat_rng_u64(r)),
				RS_LN2_Q32, RS_FRAC_BITS);

	return floor + mul_u64_u32_shr(e, mean - floor, RS_FRAC_BITS);
}

/**
 * randstat_draw_uniform() - a uniform random interval in [@tmin, @tmax]
 * @r: this CPU's keystream
 * @tmin: shortest interval, ns
 * @tmax: longest interval, ns; @tmin <= @tmax
 *
 * Every integer nanosecond in the range is equally likely: a 32-bit draw is
 * scaled by multiplication and the few draws that would favour the low end
 * are rejected (Lemire's method), so there is neither modulo bias nor a
 * lattice.  The range has at most RANDSTAT_TMAX_LIMIT_NS + 1 < 2^32 values.
 *
 * Return: the interval, ns.
 */
u32 randstat_draw_uniform(struct randstat_rng *r, u32 tmin, u32 tmax)
{
	u32 span = tmax - tmin + 1;
	u64 m = mul_u32_u32(randstat_rng_u32(r), span);

	if ((u32)m < span) {
		/* 2^32 mod span: draws below it are the biased ones. */
		u32 threshold = -span % span;

		while ((u32)m < threshold)
			m = mul_u32_u32(randstat_rng_u32(r), span);
	}
	return tmin + (u32)(m >> 32);
}

/**
 * randstat_draw_interval() - the next sampling interval
 * @r: this CPU's keystream
 * @law: the law
 * @w: its parameters (randstat_window_check() passed)
 *
 * Return: the interval, ns.
 */
u64 randstat_draw_interval(struct randstat_rng *r, enum randstat_law law,
			   struct randstat_window w)
{
	if (law == RS_LAW_UNIFORM)
		return randstat_draw_uniform(r, w.lo, w.hi);
	return randstat_draw_exponential(r, w.lo, w.hi);
}

/**
 * randstat_draw_resume() - when a dormant CPU's next sample falls
 * @r: this CPU's keystream
 * @w: the exponential law's parameters (floor, mean)
 * @since_ns: time from the CPU's last sample to now, when it resumes
 *
 * A CPU stops sampling at a sample that finds it idle, and resumes when
 * it leaves idle.  Had it gone on, its next sample would have come at
 * floor + X after the last one, X ~ Exp(mean - floor); resuming now means
 * that no sample came in the span, X > since - floor.  X being memoryless,
 * the law's own continuation from now is then the rest of the floor, if
 * any, and a fresh Exp(mean - floor): the sample times stay a renewal
 * process of this law on the time that is sampled, and work that starts
 * at a wakeup is seen as work anywhere else is.  A fresh floor + X from
 * now would leave floor_ns unseen after every wakeup instead.
 *
 * Return: the delay from now to the next sample, ns.
 */
u64 randstat_draw_resume(struct randstat_rng *r, struct randstat_window w,
			 u64 since_ns)
{
	return randstat_draw_exponential(r, w.lo, w.hi) - min_t(u64, since_ns, w.lo);
}

/**
 * randstat_law_mean() - a law's mean interval
 * @law: the law
 * @w: its parameters
 *
 * Return: the mean, ns: mean_ns, or (tmin_ns + tmax_ns) / 2.
 */
u64 randstat_law_mean(enum randstat_law law, struct randstat_window w)
{
	if (law == RS_LAW_UNIFORM)
		return ((u64)w.lo + w.hi) / 2;
	return w.hi;
}

/**
 * randstat_advance() - count the expiries up to now and draw the next one
 * @r: this CPU's keystream
 * @law: the law
 * @w: its parameters
 * @now_ns: when the interrupt came
 * @last_ns: out: the last expiry counted (the samples cover up to it)
 * @next_ns: in: the expiry whose interrupt this is; out: the next expiry,
 *	after @now_ns
 *
 * Expiries that passed while the CPU could not take the interrupt are
 * samples too, of what runs when it comes.  A few are drawn one by one, as
 * they would have come; past RANDSTAT_OVERRUN_DRAWS (a vCPU that was not
 * run for seconds) the rest are counted in bulk, the time left over the
 * law's mean, and the next expiry is drawn afresh from now: the law is
 * memoryless, so nothing is lost, and a hardirq never draws more than
 * RANDSTAT_OVERRUN_DRAWS + 1 intervals however long the gap.
 *
 * Return: the number of samples to count, at least 1.
 */
u64 randstat_advance(struct randstat_rng *r, enum randstat_law law,
		     struct randstat_window w, u64 now_ns, u64 *last_ns,
		     u64 *next_ns)
{
	u64 last = *next_ns, next, nsamples = 1;

	next = last + randstat_draw_interval(r, law, w);
	while (next <= now_ns && nsamples <= RANDSTAT_OVERRUN_DRAWS) {
		last = next;
		next += randstat_draw_interval(r, law, w);
		nsamples++;
	}
	if (next <= now_ns) {
		nsamples += div64_u64(now_ns - next,
				      randstat_law_mean(law, w)) + 1;
		last = now_ns;
		next = now_ns + randstat_draw_interval(r, law, w);
	}
	*last_ns = last;
	*next_ns = next;
	return nsamples;
}
