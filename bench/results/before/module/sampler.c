// SPDX-License-Identifier: GPL-2.0
/*
 * randstat: the per-CPU randomized statclock.
 *
 * Each online CPU runs a pinned, hard hrtimer.  At each expiry it takes a
 * snapshot of the interrupted context, classifies it (classify.c), charges
 * the interval since the previous scheduled expiry (estimator.c), and
 * schedules the next expiry a uniformly random interval after this one's
 * scheduled time (interval.c), so interrupt latency does not stretch the
 * mean interval.
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/hrtimer.h>
#include <linux/kernel_stat.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/seqlock.h>
#include <linux/smp.h>
#include <linux/tick.h>
#include <asm/irq_regs.h>

#include "sampler.h"

/**
 * struct randstat_cpu - one CPU's sampler
 * @timer: the statclock
 * @rnd: pseudo-random state for the intervals, seeded in process context
 * @seq: lets readers copy @c consistently; written only by this CPU, in
 *	its timer, or with interrupts off (reset), or while it is offline
 * @c: the counters
 * @prev_expires: scheduled time of the previous expiry
 * @last_steal: the kernel's steal time of this CPU already charged
 * @last_idle_us: get_cpu_idle_time_us() at the last idle sample
 * @last_iowait_us: get_cpu_iowait_time_us() at the last idle sample
 * @last_iowait: the last idle sample was iowait
 */
struct randstat_cpu {
	struct hrtimer timer;
	struct rnd_state rnd;
	seqcount_t seq;
	struct randstat_counters c;
	ktime_t prev_expires;
	u64 last_steal;
	u64 last_idle_us;
	u64 last_iowait_us;
	bool last_iowait;
};

static DEFINE_PER_CPU(struct randstat_cpu, randstat_cpus);
static enum cpuhp_state randstat_hp_state;

static u32 randstat_next_interval(struct randstat_cpu *rc)
{
	struct randstat_window w = randstat_get_window();

	return randstat_draw_interval(&rc->rnd, w.tmin, w.tmax);
}

/*
 * The idle task was sampled: does a task of this CPU wait for I/O?  See
 * randstat_idle_is_iowait().  Without NO_HZ the kernel keeps no idle
 * sleep times and this reports idle.
 */
static bool randstat_sample_iowait(struct randstat_cpu *rc, int cpu)
{
	u64 idle = get_cpu_idle_time_us(cpu, NULL);
	u64 iowait = get_cpu_iowait_time_us(cpu, NULL);

	if (idle == (u64)-1 || iowait == (u64)-1)
		return false;
	rc->last_iowait = randstat_idle_is_iowait(idle - rc->last_idle_us,
						  iowait - rc->last_iowait_us,
						  rc->last_iowait);
	rc->last_idle_us = idle;
	rc->last_iowait_us = iowait;
	return rc->last_iowait;
}

static enum randstat_class randstat_sample_class(struct randstat_cpu *rc)
{
	struct randstat_snapshot s;

	randstat_snapshot_fill(&s, get_irq_regs(), current, irq_count(),
			       hardirq_count(), in_serving_softirq());
	if (s.idle_task && !s.user_mode && !s.irq_nested)
		s.iowait = randstat_sample_iowait(rc, smp_processor_id());
	return randstat_classify(&s);
}

static enum hrtimer_restart randstat_timer_fn(struct hrtimer *timer)
{
	struct randstat_cpu *rc = container_of(timer, struct randstat_cpu,
					       timer);
	u64 start = local_clock();
	ktime_t now = ktime_get();
	ktime_t expires = hrtimer_get_expires(timer);
	ktime_t next = ktime_add_ns(expires, randstat_next_interval(rc));
	enum randstat_class cls = randstat_sample_class(rc);
	u64 steal = kcpustat_this_cpu->cpustat[CPUTIME_STEAL] - rc->last_steal;
	u64 overruns = 0;

	/* Expiries that already passed are skipped, and counted. */
	while (ktime_compare(next, now) <= 0) {
		next = ktime_add_ns(next, randstat_next_interval(rc));
		overruns++;
	}

	write_seqcount_begin(&rc->seq);
	rc->last_steal += randstat_charge(&rc->c, cls,
					  ktime_to_ns(ktime_sub(expires,
								rc->prev_expires)),
					  steal);
	rc->c.overruns += overruns;
	randstat_record_timing(&rc->c, local_clock() - start,
			       ktime_to_ns(ktime_sub(now, expires)));
	write_seqcount_end(&rc->seq);

	rc->prev_expires = expires;
	hrtimer_set_expires(timer, next);
	return HRTIMER_RESTART;
}

/* Runs on @cpu itself, in its hotplug thread. */
static int randstat_cpu_online(unsigned int cpu)
{
	struct randstat_cpu *rc = this_cpu_ptr(&randstat_cpus);
	ktime_t now;

	prandom_seed_state(&rc->rnd, get_random_u64());
#ifdef RANDSTAT_HAVE_HRTIMER_SETUP
	hrtimer_setup(&rc->timer, randstat_timer_fn, CLOCK_MONOTONIC,
		      HRTIMER_MODE_ABS_PINNED_HARD);
#else
	hrtimer_init(&rc->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED_HARD);
	rc->timer.function = randstat_timer_fn;
#endif
	rc->last_steal = kcpustat_this_cpu->cpustat[CPUTIME_STEAL];
	rc->last_idle_us = get_cpu_idle_time_us(cpu, NULL);
	rc->last_iowait_us = get_cpu_iowait_time_us(cpu, NULL);
	rc->last_iowait = false;

	now = ktime_get();
	rc->prev_expires = now;
	hrtimer_start(&rc->timer, ktime_add_ns(now, randstat_next_interval(rc)),
		      HRTIMER_MODE_ABS_PINNED_HARD);
	return 0;
}

/* Runs on @cpu itself, in its hotplug thread; the counters are kept. */
static int randstat_cpu_offline(unsigned int cpu)
{
	hrtimer_cancel(&this_cpu_ptr(&randstat_cpus)->timer);
	return 0;
}

int randstat_sampler_start(void)
{
	int cpu, ret;

	for_each_possible_cpu(cpu)
		seqcount_init(&per_cpu_ptr(&randstat_cpus, cpu)->seq);

	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "randstat:online",
				randstat_cpu_online, randstat_cpu_offline);
	if (ret < 0)
		return ret;
	randstat_hp_state = ret;
	return 0;
}

void randstat_sampler_stop(void)
{
	cpuhp_remove_state(randstat_hp_state);
}

/**
 * randstat_read_cpu() - a consistent copy of one CPU's counters
 * @cpu: the CPU
 * @c: where to copy them
 */
void randstat_read_cpu(unsigned int cpu, struct randstat_counters *c)
{
	struct randstat_cpu *rc = per_cpu_ptr(&randstat_cpus, cpu);
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&rc->seq);
		*c = rc->c;
	} while (read_seqcount_retry(&rc->seq, seq));
}

/* Interrupts are off, so this CPU's timer cannot run meanwhile. */
static void randstat_reset_cpu(struct randstat_cpu *rc)
{
	write_seqcount_begin(&rc->seq);
	memset(&rc->c, 0, sizeof(rc->c));
	write_seqcount_end(&rc->seq);
}

static void randstat_reset_this_cpu(void *unused)
{
	randstat_reset_cpu(this_cpu_ptr(&randstat_cpus));
}

/**
 * randstat_reset() - zero every CPU's counters
 *
 * Each online CPU zeroes its own counters in an IPI, so the counters keep a
 * single writer; an offline CPU's timer is not running and its counters are
 * zeroed here.  Holding the hotplug lock keeps the two sets apart.
 */
void randstat_reset(void)
{
	unsigned long flags;
	int cpu;

	cpus_read_lock();
	on_each_cpu(randstat_reset_this_cpu, NULL, 1);
	for_each_possible_cpu(cpu) {
		if (cpu_online(cpu))
			continue;
		local_irq_save(flags);
		randstat_reset_cpu(per_cpu_ptr(&randstat_cpus, cpu));
		local_irq_restore(flags);
	}
	cpus_read_unlock();
}
