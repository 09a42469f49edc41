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

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "params.h"
#include "proc.h"
#include "sampler.h"

/* The samplers run: exact_cpus takes effect at once (param lock held). */
static bool randstat_running;

/*
 * exact_cpus: the CPUs served from the kernel's own accounting instead of
 * being sampled (params.c stores it).  Only nohz_full CPUs qualify: there
 * the kernel accounts every transition (vtime), so /proc/stat is exact
 * and a sampler would only add interrupts to a CPU isolated to take none.
 * By default all of them; "" samples every CPU.  A list with any other
 * CPU is refused and nothing changes.  Written under the module parameter
 * lock; the hotplug callbacks read it, so it changes under the hotplug
 * lock, and the CPUs whose mode changed are restarted.
 */
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
		randstat_set_exact(mask);
		cpus_read_unlock();
		if (randstat_running)
			randstat_apply_modes();
	}
	free_cpumask_var(mask);
	return ret;
}

static int randstat_exact_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%*pbl\n", cpumask_pr_args(randstat_get_exact()));
}

static const struct kernel_param_ops randstat_exact_ops = {
	.set = randstat_exact_set,
	.get = randstat_exact_get,
};

module_param_cb(exact_cpus, &randstat_exact_ops, NULL, 0644);
MODULE_PARM_DESC(exact_cpus, "CPUs served from the kernel's exact accounting instead of sampled: a cpulist of nohz_full CPUs (default: all nohz_full CPUs; empty: sample every CPU)");

static int __init randstat_init(void)
{
	int ret;

	ret = randstat_params_init();
	if (ret)
		return ret;
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
MODULE_VERSION(RANDSTAT_VERSION);
