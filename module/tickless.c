// SPDX-License-Identifier: GPL-2.0
/*
 * randstat: tickless sampling, the probes that stop and resume a CPU's
 * sampler around idle (sampler.c holds the sampler itself).
 *
 * Tickless: a sample that finds the CPU idle stops the timer, and so
 * does a sampling CPU entering an idle state (at most once per mean
 * interval on average, randstat_stop_budget()), except a state that
 * stops the local timer: there the idle path has already shut the clock
 * event down and handed the CPU to the broadcast device, and a cancel
 * would reprogram it.  The CPU resumes sampling when it leaves idle, with
 * the law's own continuation (randstat_draw_resume()), so an idle CPU
 * takes no interrupt of randstat's.  What ends dormancy:
 *
 * - the CPU leaves its idle state (power:cpu_idle) with need_resched()
 *   set: a task was woken onto it, by its own interrupt (a timer's
 *   wakeup, a wakeup queued to it by another CPU) or by another CPU's
 *   IPI or write to its polled flag; or having spent more than
 *   1/2^RANDSTAT_BUSY_SHIFT of the last second or so in interrupts
 *   (randstat_busy_update());
 * - the scheduler's load tracking (PELT tracepoints) runs for a task
 *   other than the idle task on it: the backstop, within one tick, for a
 *   wakeup that came between leaving an idle state and the idle loop's
 *   next look at need_resched().
 *
 * Nothing runs at enqueue and dequeue, which come twice per context
 * switch on every CPU: the idle exit sees a wakeup microseconds after its
 * enqueue, and the backstop the one in the window above.
 */
#include <linux/cpuidle.h>
#include <linux/hrtimer.h>
#include <linux/irqflags.h>
#include <linux/jiffies.h>
#include <linux/kernel_stat.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/tick.h>
#include <linux/tracepoint.h>
#include <asm/cpufeature.h>
#include <trace/events/power.h>
#include <trace/events/sched.h>

#include "params.h"
#include "sampler_cpu.h"

/*
 * Does the arch's default idle stop the local timer and hand the CPU to
 * the broadcast device?  On x86, only with AMD's E400 erratum and C1E on
 * (X86_BUG_AMD_APIC_C1E: its idle routine on 6.1, default_idle_call()'s
 * cond_tick_broadcast_enter() from 6.9, whose arch_needs_tick_broadcast
 * key this bug alone enables and which modules cannot see).  No other
 * arch enables that key; arm64's default idle (WFI) keeps the timer.
 */
static bool randstat_default_idle_broadcast(void)
{
#ifdef CONFIG_X86
	return boot_cpu_has_bug(X86_BUG_AMD_APIC_C1E);
#else
	return false;
#endif
}

/* Whoever noticed: resume if this CPU is still dormant. */
static void randstat_wake_this_cpu(void)
{
	struct randstat_cpu *rc = this_cpu_ptr(&randstat_cpus);
	unsigned long flags;

	local_irq_save(flags);
	if (rc->acct.state == RS_STATE_DORMANT)
		randstat_wake(rc);
	local_irq_restore(flags);
}

/*
 * The CPU enters idle state @state while sampling: stop the timer rather
 * than let its next sample wake the CPU only to find it idle (as it would
 * after a short task woken on an idle CPU).  The time since the last
 * sample is sampled time, the span from here is charged exactly, as from
 * an idle sample, and sampling resumes with the law's continuation from
 * the last sample, which does not depend on where this stop fell (KUnit's
 * short_bursts_test).  At most once per mean interval on average
 * (randstat_stop_budget(), with the mean as it is now), so that a CPU
 * entering idle tens of thousands of times a second does not cancel and
 * re-arm its timer each time.
 *
 * Never in a state that stops the local timer (randstat_idle_may_cancel()).
 */
static void randstat_idle_enter(struct randstat_cpu *rc, unsigned int state)
{
	unsigned long budget = READ_ONCE(rc->stop_from), now = jiffies, flags;
	struct randstat_window w;
	enum randstat_law law;

	/* The budget first: most idle entries stop here. */
	if (randstat_stop_early(budget, now))
		return;
	w = randstat_get_law(&law);
	if (!randstat_stop_budget(&budget, now,
				  max_t(u64, div_u64(w.hi, NSEC_PER_SEC / HZ), 1)) ||
	    !randstat_may_doze(rc, law))
		return;
	if (!randstat_idle_may_cancel(cpuidle_get_driver(), state,
				      randstat_default_idle_broadcast()))
		return;
	local_irq_save(flags);
	if (rc->acct.state != RS_STATE_ACTIVE)
		goto out;
	/*
	 * A sample already due (its interrupt held back by the path into
	 * idle, which runs with interrupts off) is taken as it comes, as the
	 * tick's would be: cancelling it would drop a sample whose time is
	 * already counted as sampled.  Only a stop spends the budget.
	 */
	if (ktime_compare(hrtimer_get_expires(&rc->timer), ktime_get()) > 0 &&
	    hrtimer_try_to_cancel(&rc->timer) == 1) {
		rc->stop_from = budget;
		randstat_enter(rc, smp_processor_id(), RS_STATE_DORMANT, false);
	}
out:
	local_irq_restore(flags);
}

/*
 * power:cpu_idle, on every idle entry and exit of every CPU: a load and a
 * compare, unless this CPU is sampling and entering an idle state, or
 * dormant and leaving one.
 */
static void randstat_idle_probe(void *data, unsigned int state,
				unsigned int cpu_id)
{
	struct randstat_cpu *rc = this_cpu_ptr(&randstat_cpus);
	unsigned long flags;
	int cpu;

	if (state != PWR_EVENT_EXIT) {
		if (READ_ONCE(rc->acct.state) == RS_STATE_ACTIVE)
			randstat_idle_enter(rc, state);
		return;
	}
	if (READ_ONCE(rc->acct.state) != RS_STATE_DORMANT)
		return;
	local_irq_save(flags);
	if (rc->acct.state != RS_STATE_DORMANT)
		goto out;
	/* Woken by interrupts only: has serving them kept it busy? */
	cpu = smp_processor_id();
	if (need_resched() ||
	    randstat_busy_update(&rc->acct.busy, ktime_get_ns(),
				 (get_cpu_idle_time_us(cpu, NULL) +
				  get_cpu_iowait_time_us(cpu, NULL)) *
				 NSEC_PER_USEC))
		randstat_wake(rc);
out:
	local_irq_restore(flags);
}

/*
 * The backstop: the scheduler's load tracking (PELT) updates the running
 * task's class at every tick and at every enqueue and dequeue.  A dormant
 * CPU on which any task but the idle task runs has been woken by a path
 * the probes above did not see (a remote enqueue that raced with a pass
 * through the idle loop): resume, within a tick.  A timer would not do:
 * a deferrable one expiring at every tick raises the timer softirq, which
 * PREEMPT_RT runs in a thread whose every wakeup resumed the sampler.
 */
static void randstat_pelt_check(void)
{
	struct randstat_cpu *rc = this_cpu_ptr(&randstat_cpus);

	if (READ_ONCE(rc->acct.state) == RS_STATE_DORMANT &&
	    !is_idle_task(current))
		randstat_wake_this_cpu();
}

static void randstat_pelt_cfs_probe(void *data, struct cfs_rq *cfs_rq)
{
	randstat_pelt_check();
}

static void randstat_pelt_rq_probe(void *data, struct rq *rq)
{
	randstat_pelt_check();
}

/**
 * randstat_tickless_start() - register the probes
 *
 * They do nothing until a CPU is dormant, or sampling and entering idle.
 *
 * Return: 0, or the error of the registration that failed (none is left
 * registered).
 */
int randstat_tickless_start(void)
{
	int ret;

	ret = register_trace_cpu_idle(randstat_idle_probe, NULL);
	if (ret)
		return ret;
	ret = register_trace_pelt_cfs_tp(randstat_pelt_cfs_probe, NULL);
	if (ret)
		goto err_idle;
	ret = register_trace_pelt_rt_tp(randstat_pelt_rq_probe, NULL);
	if (ret)
		goto err_cfs;
	ret = register_trace_pelt_dl_tp(randstat_pelt_rq_probe, NULL);
	if (ret)
		goto err_rt;
	return 0;

err_rt:
	unregister_trace_pelt_rt_tp(randstat_pelt_rq_probe, NULL);
err_cfs:
	unregister_trace_pelt_cfs_tp(randstat_pelt_cfs_probe, NULL);
err_idle:
	unregister_trace_cpu_idle(randstat_idle_probe, NULL);
	tracepoint_synchronize_unregister();
	return ret;
}

/**
 * randstat_tickless_stop() - unregister the probes
 *
 * No probe runs on, or looks at, the per-CPU data after this.
 */
void randstat_tickless_stop(void)
{
	unregister_trace_pelt_dl_tp(randstat_pelt_rq_probe, NULL);
	unregister_trace_pelt_rt_tp(randstat_pelt_rq_probe, NULL);
	unregister_trace_pelt_cfs_tp(randstat_pelt_cfs_probe, NULL);
	unregister_trace_cpu_idle(randstat_idle_probe, NULL);
	tracepoint_synchronize_unregister();
}
