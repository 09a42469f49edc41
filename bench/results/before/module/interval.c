// SPDX-License-Identifier: GPL-2.0
/*
 * randstat: the sampling interval and its bounds.
 */
#include <linux/errno.h>
#include <linux/math64.h>

#include "randstat.h"

/**
 * randstat_window_check() - are these bounds acceptable?
 * @tmin: shortest interval, ns
 * @tmax: longest interval, ns
 *
 * Return: 0 if RANDSTAT_TMIN_LIMIT_NS <= @tmin <= @tmax <=
 * RANDSTAT_TMAX_LIMIT_NS, else -EINVAL.
 */
int randstat_window_check(u64 tmin, u64 tmax)
{
	if (tmin < RANDSTAT_TMIN_LIMIT_NS || tmax > RANDSTAT_TMAX_LIMIT_NS ||
	    tmin > tmax)
		return -EINVAL;
	return 0;
}

/**
 * randstat_window_set() - change one bound
 * @w: the window
 * @is_tmax: set tmax (else tmin)
 * @val: the new value, ns
 * @alone: check @val against the limits only, not against the other bound
 *	(at load time, when the other one may not have been given yet)
 *
 * Return: 0 and @w updated, or -EINVAL and @w untouched.
 */
int randstat_window_set(struct randstat_window *w, bool is_tmax, u64 val,
			bool alone)
{
	u64 tmin = is_tmax ? w->tmin : val;
	u64 tmax = is_tmax ? val : w->tmax;
	int ret;

	if (alone) {
		tmin = is_tmax ? RANDSTAT_TMIN_LIMIT_NS : val;
		tmax = is_tmax ? val : RANDSTAT_TMAX_LIMIT_NS;
	}
	ret = randstat_window_check(tmin, tmax);
	if (ret)
		return ret;
	if (is_tmax)
		w->tmax = val;
	else
		w->tmin = val;
	return 0;
}

/**
 * randstat_draw_interval() - a uniform random interval in [@tmin, @tmax]
 * @rs: the pseudo-random state (this CPU's)
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
u32 randstat_draw_interval(struct rnd_state *rs, u32 tmin, u32 tmax)
{
	u32 span = tmax - tmin + 1;
	u64 m = mul_u32_u32(prandom_u32_state(rs), span);

	if ((u32)m < span) {
		/* 2^32 mod span: draws below it are the biased ones. */
		u32 threshold = -span % span;

		while ((u32)m < threshold)
			m = mul_u32_u32(prandom_u32_state(rs), span);
	}
	return tmin + (u32)(m >> 32);
}
