// SPDX-License-Identifier: GPL-2.0
/*
 * randstat: the module's parameters.
 *
 * A leaf: the sampler (sampler.c) and the proc file (proc.c) read the
 * parameters through the functions here, and nothing here calls back into
 * the module.  exact_cpus, whose change restarts samplers, is set in
 * main.c and stored here.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/tick.h>

#include "params.h"

#define RANDSTAT_WINDOW(lo, hi)	((u64)(hi) << 32 | (lo))

/*
 * Each law's two parameters, the low one in the low 32 bits and the high
 * one in the high, so that the sampler reads a pair in one atomic load and
 * never sees a torn one; and which law is in use.
 */
static atomic64_t randstat_windows[RS_NR_LAWS] = {
	[RS_LAW_EXPONENTIAL] =
		ATOMIC64_INIT(RANDSTAT_WINDOW(RANDSTAT_FLOOR_DEFAULT_NS,
					      RANDSTAT_MEAN_DEFAULT_NS)),
	[RS_LAW_UNIFORM] =
		ATOMIC64_INIT(RANDSTAT_WINDOW(RANDSTAT_TMIN_DEFAULT_NS,
					      RANDSTAT_TMAX_DEFAULT_NS)),
};

static int randstat_law = RS_LAW_EXPONENTIAL;

/* Set once loaded: before that, parameters are checked as pairs in init. */
static bool randstat_live;

static struct randstat_window randstat_window_of(enum randstat_law law)
{
	u64 w = atomic64_read(&randstat_windows[law]);

	return (struct randstat_window){
		.lo = lower_32_bits(w),
		.hi = upper_32_bits(w),
	};
}

/**
 * randstat_get_law() - the law in use and its parameters
 * @law: where to put the law
 *
 * Return: its parameters.
 */
struct randstat_window randstat_get_law(enum randstat_law *law)
{
	*law = READ_ONCE(randstat_law);
	return randstat_window_of(*law);
}

/**
 * randstat_get_window() - a law's parameters, in use or not
 * @law: the law
 *
 * Return: its parameters.
 */
struct randstat_window randstat_get_window(enum randstat_law law)
{
	return randstat_window_of(law);
}

/*
 * floor_ns, mean_ns, tmin_ns, tmax_ns: kp->arg is law * 2 + is_hi.  Writes
 * are serialized by the module parameter lock.  At load time (modprobe
 * randstat mean_ns=...) each value is range-checked alone, so the order of
 * the two does not matter, and randstat_init() checks the pairs; once
 * loaded, a value that would make its pair invalid is refused and both
 * values stay as they were.
 */
static int randstat_param_set(const char *val, const struct kernel_param *kp)
{
	unsigned long arg = (uintptr_t)kp->arg;
	enum randstat_law law = arg / 2;
	struct randstat_window w = randstat_window_of(law);
	u64 ns;
	int ret;

	ret = kstrtou64(val, 0, &ns);
	if (ret)
		return ret;
	ret = randstat_window_set(law, &w, arg % 2, ns, !randstat_live);
	if (ret)
		return ret;
	atomic64_set(&randstat_windows[law], RANDSTAT_WINDOW(w.lo, w.hi));
	return 0;
}

static int randstat_param_get(char *buf, const struct kernel_param *kp)
{
	unsigned long arg = (uintptr_t)kp->arg;
	struct randstat_window w = randstat_window_of(arg / 2);

	return sysfs_emit(buf, "%u\n", arg % 2 ? w.hi : w.lo);
}

static const struct kernel_param_ops randstat_param_ops = {
	.set = randstat_param_set,
	.get = randstat_param_get,
};

#define RANDSTAT_PARAM_ARG(law, is_hi)	((void *)(uintptr_t)((law) * 2 + (is_hi)))

module_param_cb(floor_ns, &randstat_param_ops,
		RANDSTAT_PARAM_ARG(RS_LAW_EXPONENTIAL, 0), 0644);
MODULE_PARM_DESC(floor_ns, "law=exponential: shortest sampling interval, ns (>= 50000, <= mean_ns/2; default 50000)");
module_param_cb(mean_ns, &randstat_param_ops,
		RANDSTAT_PARAM_ARG(RS_LAW_EXPONENTIAL, 1), 0644);
MODULE_PARM_DESC(mean_ns, "law=exponential: mean sampling interval, ns (>= 2*floor_ns, <= 1000000000; default 4000000)");
module_param_cb(tmin_ns, &randstat_param_ops,
		RANDSTAT_PARAM_ARG(RS_LAW_UNIFORM, 0), 0644);
MODULE_PARM_DESC(tmin_ns, "law=uniform: shortest sampling interval, ns (>= 50000, default 2000000)");
module_param_cb(tmax_ns, &randstat_param_ops,
		RANDSTAT_PARAM_ARG(RS_LAW_UNIFORM, 1), 0644);
MODULE_PARM_DESC(tmax_ns, "law=uniform: longest sampling interval, ns (<= 1000000000, default 6000000)");

/* law: "exponential" or "uniform" (a trailing newline allowed). */
static int randstat_law_set(const char *val, const struct kernel_param *kp)
{
	int law = sysfs_match_string(randstat_law_names, val);

	if (law < 0)
		return -EINVAL;
	WRITE_ONCE(randstat_law, law);
	return 0;
}

static int randstat_law_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", randstat_law_names[READ_ONCE(randstat_law)]);
}

static const struct kernel_param_ops randstat_law_ops = {
	.set = randstat_law_set,
	.get = randstat_law_get,
};

module_param_cb(law, &randstat_law_ops, NULL, 0644);
MODULE_PARM_DESC(law, "the sampling intervals' law: exponential (floor_ns + Exp(mean_ns - floor_ns), memoryless; default) or uniform (U[tmin_ns, tmax_ns], the paper's)");

/*
 * tickless: whether an idle CPU's sampler may sleep (Documentation/
 * design.rst, "Footprint").  On by default; off, every sampled CPU is
 * sampled all the time, as before randstat was tickless: for comparing
 * the two, and for an emulator that delivers a timer armed right after a
 * wakeup late (single-threaded QEMU TCG; the benchmark runs there).  A
 * CPU dormant when it is turned off resumes at its next wakeup.
 */
static bool randstat_tickless = true;
module_param_named(tickless, randstat_tickless, bool, 0644);
MODULE_PARM_DESC(tickless, "let an idle CPU's sampler sleep, charging its idle time from NO_HZ's exact accounting (default Y)");

/**
 * randstat_may_sleep() - may an idle CPU's sampler sleep?
 *
 * Return: the tickless parameter.
 */
bool randstat_may_sleep(void)
{
	return READ_ONCE(randstat_tickless);
}

/*
 * exact_cpus (main.c sets it): the CPUs served from the kernel's own
 * accounting instead of being sampled.  Only nohz_full CPUs qualify.
 * Written under the hotplug lock, which the hotplug callbacks that read
 * it hold.
 */
static struct cpumask randstat_exact_mask;
static bool randstat_exact_given;

/**
 * randstat_nohz_full() - the nohz_full CPUs
 *
 * Return: the kernel's nohz_full mask, or the empty mask.
 */
const struct cpumask *randstat_nohz_full(void)
{
#ifdef CONFIG_NO_HZ_FULL
	if (tick_nohz_full_enabled())
		return tick_nohz_full_mask;
#endif
	return cpu_none_mask;
}

/**
 * randstat_cpu_is_exact() - is a CPU served from the kernel's accounting?
 * @cpu: the CPU
 *
 * Return: true if it is in exact_cpus.
 */
bool randstat_cpu_is_exact(unsigned int cpu)
{
	return cpumask_test_cpu(cpu, &randstat_exact_mask);
}

/**
 * randstat_set_exact() - store exact_cpus
 * @mask: the CPUs, a subset of randstat_nohz_full()
 *
 * The caller holds the hotplug lock (read), which keeps the hotplug
 * callbacks that read the mask out meanwhile.
 */
void randstat_set_exact(const struct cpumask *mask)
{
	cpumask_copy(&randstat_exact_mask, mask);
	randstat_exact_given = true;
}

/**
 * randstat_get_exact() - exact_cpus
 *
 * Return: the mask.
 */
const struct cpumask *randstat_get_exact(void)
{
	return &randstat_exact_mask;
}

/**
 * randstat_params_init() - check the values given at load, and go live
 *
 * Each value was range-checked alone as it was given; here the pairs are
 * checked, and exact_cpus takes its default (every nohz_full CPU) unless
 * it was given.  From now on a value that would make its pair invalid is
 * refused.
 *
 * Return: 0, or -EINVAL with the reason logged.
 */
int randstat_params_init(void)
{
	struct randstat_window e = randstat_window_of(RS_LAW_EXPONENTIAL);
	struct randstat_window u = randstat_window_of(RS_LAW_UNIFORM);

	if (randstat_window_check(RS_LAW_EXPONENTIAL, e.lo, e.hi)) {
		pr_err("floor_ns=%u mean_ns=%u: need %u <= floor_ns <= mean_ns/2, mean_ns <= %u\n",
		       e.lo, e.hi, RANDSTAT_FLOOR_LIMIT_NS,
		       RANDSTAT_MEAN_LIMIT_NS);
		return -EINVAL;
	}
	if (randstat_window_check(RS_LAW_UNIFORM, u.lo, u.hi)) {
		pr_err("tmin_ns=%u tmax_ns=%u: need %u <= tmin_ns <= tmax_ns <= %u\n",
		       u.lo, u.hi, RANDSTAT_TMIN_LIMIT_NS,
		       RANDSTAT_TMAX_LIMIT_NS);
		return -EINVAL;
	}
	if (!randstat_exact_given)
		cpumask_copy(&randstat_exact_mask, randstat_nohz_full());
	randstat_live = true;
	return 0;
}
