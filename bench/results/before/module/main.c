// SPDX-License-Identifier: GPL-2.0
/*
 * randstat: a randomized statclock for Linux.
 *
 * The kernel charges CPU time by sampling at its periodic tick, and a
 * periodic sampler aliases with periodic work.  Following McCanne and
 * Torek's 4.4BSD statclock, randstat samples each CPU at uniformly random
 * intervals in [tmin_ns, tmax_ns] and serves the resulting estimates at
 * /proc/randstat.  See Documentation/randstat.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "sampler.h"

#define RANDSTAT_WINDOW(tmin, tmax)	((u64)(tmax) << 32 | (tmin))

/*
 * The window, tmin in the low 32 bits and tmax in the high, so that the
 * sampler reads both in one atomic load and never sees a torn pair.
 */
static atomic64_t randstat_window_packed =
	ATOMIC64_INIT(RANDSTAT_WINDOW(RANDSTAT_TMIN_DEFAULT_NS,
				      RANDSTAT_TMAX_DEFAULT_NS));

/* Set once loaded: before that, parameters are checked as a pair in init. */
static bool randstat_live;

struct randstat_window randstat_get_window(void)
{
	u64 w = atomic64_read(&randstat_window_packed);

	return (struct randstat_window){
		.tmin = lower_32_bits(w),
		.tmax = upper_32_bits(w),
	};
}

/*
 * Writes are serialized by the module parameter lock.  At load time
 * (modprobe randstat tmin_ns=... tmax_ns=...) each value is range-checked
 * alone, so the order of the two does not matter, and randstat_init()
 * checks the pair; once loaded, a value that would make the window invalid
 * is refused and both values stay as they were.
 */
static int randstat_param_set(const char *val, const struct kernel_param *kp)
{
	struct randstat_window w = randstat_get_window();
	bool is_tmax = (uintptr_t)kp->arg;
	u64 ns;
	int ret;

	ret = kstrtou64(val, 0, &ns);
	if (ret)
		return ret;
	ret = randstat_window_set(&w, is_tmax, ns, !randstat_live);
	if (ret)
		return ret;
	atomic64_set(&randstat_window_packed, RANDSTAT_WINDOW(w.tmin, w.tmax));
	return 0;
}

static int randstat_param_get(char *buf, const struct kernel_param *kp)
{
	struct randstat_window w = randstat_get_window();

	return sysfs_emit(buf, "%u\n", kp->arg ? w.tmax : w.tmin);
}

static const struct kernel_param_ops randstat_param_ops = {
	.set = randstat_param_set,
	.get = randstat_param_get,
};

module_param_cb(tmin_ns, &randstat_param_ops, (void *)0, 0644);
MODULE_PARM_DESC(tmin_ns, "shortest sampling interval, ns (>= 50000, default 2000000)");
module_param_cb(tmax_ns, &randstat_param_ops, (void *)1, 0644);
MODULE_PARM_DESC(tmax_ns, "longest sampling interval, ns (<= 1000000000, default 6000000)");

static int __init randstat_init(void)
{
	struct randstat_window w = randstat_get_window();
	int ret;

	if (randstat_window_check(w.tmin, w.tmax)) {
		pr_err("tmin_ns=%u tmax_ns=%u: need %u <= tmin_ns <= tmax_ns <= %u\n",
		       w.tmin, w.tmax, RANDSTAT_TMIN_LIMIT_NS,
		       RANDSTAT_TMAX_LIMIT_NS);
		return -EINVAL;
	}
	randstat_live = true;

	ret = randstat_sampler_start();
	if (ret)
		return ret;
	ret = randstat_proc_init();
	if (ret)
		goto err_sampler;
	return 0;

err_sampler:
	randstat_sampler_stop();
	return ret;
}

static void __exit randstat_exit(void)
{
	randstat_proc_exit();
	randstat_sampler_stop();
}

module_init(randstat_init);
module_exit(randstat_exit);

MODULE_DESCRIPTION("Randomized statclock: aliasing-free CPU time accounting");
MODULE_AUTHOR("The randstat authors");
MODULE_LICENSE("GPL");
