// SPDX-License-Identifier: GPL-2.0
/*
 * randstat: a randomized statclock for Linux.
 *
 * The kernel charges CPU time by sampling at its periodic tick, and a
 * periodic sampler aliases with periodic work.  Following McCanne and
 * Torek's 4.4BSD statclock, randstat samples each CPU at random times and
 * serves the resulting estimates at /proc/randstat.  By default the
 * intervals are exponential past a small floor, so that no process can
 * time its work to escape the samples, even knowing every past sample
 * time; McCanne and Torek's uniform law is kept as an option.  See
 * Documentation/randstat.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/tick.h>

#include "sampler.h"

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
/* The samplers run: exact_cpus takes effect at once (param lock held). */
static bool randstat_running;

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
 * randstat.rst, "Footprint").  On by default; off, every sampled CPU is
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
 * exact_cpus: the CPUs served from the kernel's own accounting instead of
 * being sampled.  Only nohz_full CPUs qualify: there the kernel accounts
 * every transition (vtime), so /proc/stat is exact and a sampler would
 * only add interrupts to a CPU isolated to take none.  By default all of
 * them; "" samples every CPU.  A list with any other CPU is refused and
 * nothing changes.  Written under the module parameter lock; the hotplug
 * callbacks read it, so it changes under the hotplug lock.
 */
static struct cpumask randstat_exact_mask;
static bool randstat_exact_given;

static const struct cpumask *randstat_nohz_full(void)
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

static int randstat_exact_set(const char *val, const struct kernel_param *kp)
{
	cpumask_var_t mask;
	int ret;

	if (!zalloc_cpumask_var(&mask, GFP_KERNEL))
		return -ENOMEM;
	/* Out of range (-ERANGE) is bad input like any other. */
	if (cpulist_parse(val, mask) ||
	    !cpumask_subset(mask, randstat_nohz_full()))
		ret = -EINVAL;
	else
		ret = 0;
	if (!ret) {
		cpus_read_lock();
		cpumask_copy(&randstat_exact_mask, mask);
		randstat_exact_given = true;
		cpus_read_unlock();
		if (randstat_running)
			randstat_apply_modes();
	}
	free_cpumask_var(mask);
	return ret;
}

static int randstat_exact_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%*pbl\n", cpumask_pr_args(&randstat_exact_mask));
}

static const struct kernel_param_ops randstat_exact_ops = {
	.set = randstat_exact_set,
	.get = randstat_exact_get,
};

module_param_cb(exact_cpus, &randstat_exact_ops, NULL, 0644);
MODULE_PARM_DESC(exact_cpus, "CPUs served from the kernel's exact accounting instead of sampled: a cpulist of nohz_full CPUs (default: all nohz_full CPUs; empty: sample every CPU)");

static int __init randstat_init(void)
{
	struct randstat_window e = randstat_window_of(RS_LAW_EXPONENTIAL);
	struct randstat_window u = randstat_window_of(RS_LAW_UNIFORM);
	int ret;

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

	ret = randstat_sampler_start();
	if (ret)
		return ret;
	/* exact_cpus may have been written while the samplers started. */
	kernel_param_lock(THIS_MODULE);
	randstat_running = true;
	randstat_apply_modes();
	kernel_param_unlock(THIS_MODULE);
	ret = randstat_proc_init();
	if (ret)
		goto err_sampler;
	return 0;

err_sampler:
	kernel_param_lock(THIS_MODULE);
	randstat_running = false;
	kernel_param_unlock(THIS_MODULE);
	randstat_sampler_stop();
	return ret;
}

static void __exit randstat_exit(void)
{
	kernel_param_lock(THIS_MODULE);
	randstat_running = false;
	kernel_param_unlock(THIS_MODULE);
	randstat_proc_exit();
	randstat_sampler_stop();
}

module_init(randstat_init);
module_exit(randstat_exit);

MODULE_DESCRIPTION("Randomized statclock: aliasing-free CPU time accounting");
MODULE_AUTHOR("The randstat authors");
MODULE_LICENSE("GPL");
