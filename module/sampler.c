// SPDX-License-Identifier: GPL-2.0
/*
 * randstat: the per-CPU randomized statclock.
 *
 * Each online CPU runs a pinned, hard hrtimer.  At each expiry it takes a
 * snapshot of the interrupted context, classifies it (classify.c), counts
 * the sample (estimator.c), and schedules the next expiry a random
 * interval (interval.c, drawn from this CPU's keystream, rng.c) after this
 * one's scheduled time, so interrupt latency does not stretch the mean
 * interval.  Expiries that passed while the CPU could not take the
 * interrupt are samples too, of the class seen when it came, as the tick
 * counts the ticks it missed (randstat_advance()).
 *
 * Each CPU's sampler is a small state machine (enum randstat_state):
 *
 *   OFF -> ACTIVE or EXACT      the CPU comes online, or its mode changes
 *   ACTIVE -> DORMANT           a sample finds the CPU idle (tickless)
 *   DORMANT -> ACTIVE           the CPU leaves idle for work
 *   any -> OFF                  the CPU goes offline, or its mode changes
 *
 * randstat_enter() alone moves a CPU from one state to another: in one
 * write section of the CPU's seqcount it charges what the outgoing state
 * owes (randstat_charge_pending(): a dormant span from the kernel's exact
 * NO_HZ sleep times, an exact CPU's growth of the kernel's figures) and
 * keeps the kernel's figures the incoming state will charge from.  The
 * timer, the probes, hotplug, mode changes and reset are thin callers.
 * A reader copies the counters, the state and those figures in one read
 * section and charges what is pending on its copy with the same pure
 * function, so what it shows is what the CPU would charge.
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
 * - this CPU enqueues the first task on its own runqueue
 *   (sched_update_nr_running_tp): a wakeup onto an idle CPU is queued
 *   there and enqueued by the CPU itself; enqueues this CPU does for
 *   others (a NIC's softirq waking tasks elsewhere) leave it dormant;
 * - the CPU leaves its idle state (power:cpu_idle) with need_resched()
 *   set, as after a remote wakeup's IPI, or having spent more than
 *   1/2^RANDSTAT_BUSY_SHIFT of the last second or so in interrupts
 *   (randstat_busy_update());
 * - the scheduler's load tracking (PELT tracepoints) runs for a task
 *   other than the idle task on it: the backstop, within one tick, for a
 *   remote enqueue that raced with a pass through the idle loop.
 *
 * A CPU where the kernel's own accounting is exact (nohz_full, vtime; the
 * exact_cpus parameter) is not sampled at all: it is served from
 * kcpustat_cpu_fetch() and the NO_HZ sleep times, as /proc/stat is.
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpuidle.h>
#include <linux/hrtimer.h>
#include <linux/irqflags.h>
#include <linux/kernel_stat.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/stat.h>
#include <linux/seqlock.h>
#include <linux/smp.h>
#include <linux/tick.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>
#include <asm/irq_regs.h>
#include <trace/events/power.h>
#include <trace/events/sched.h>

#include "params.h"
#include "sampler.h"

#define CREATE_TRACE_POINTS
#include "randstat_trace.h"

/**
 * struct randstat_cpu - one CPU's sampler
 * @timer: the statclock
 * @rng: the keystream the intervals are drawn from
 * @rekey: fresh key material from get_random_bytes() for @rng
 * @rekey_ready: @rekey is filled and not yet used; set (release) by the
 *	rekey work, cleared (release) by this CPU's timer, which alone then
 *	reads @rekey
 * @seq: lets readers copy @c, @state and @base consistently; written only
 *	by this CPU with interrupts off, or while it is offline
 * @c: the counters
 * @state: what the sampler is doing (enum randstat_state)
 * @base: the kernel's figures the current state charges from; its steal
 *	is the steal charged so far, in every state
 * @prev_expires: the time up to which samples have been charged: the last
 *	expiry counted, or when the sampler last (re)started
 * @last_sample: the last expiry counted (the law's floor runs from it)
 * @last_idle_us: get_cpu_idle_time_us() at the last idle sample
 * @last_iowait_us: get_cpu_iowait_time_us() at the last idle sample
 * @last_iowait: the last idle sample was iowait
 * @nohz_idle: the kernel keeps exact idle sleep times here (NO_HZ)
 * @steal_credit: the idle and iowait the last dormant span was charged
 *	that a steal backlog may still be taken from
 *	(randstat_charge_backlog()), until the first sample after it
 * @stop_after: the budget of stops at idle entries (randstat_stop_budget())
 * @busy: dormant: the busy check's window
 */
struct randstat_cpu {
	struct hrtimer timer;
	struct randstat_rng rng;
	u32 rekey[RANDSTAT_KEY_WORDS];
	bool rekey_ready;
	seqcount_t seq;
	struct randstat_counters c;
	enum randstat_state state;
	struct randstat_kstat base;
	ktime_t prev_expires;
	ktime_t last_sample;
	u64 last_idle_us;
	u64 last_iowait_us;
	bool last_iowait;
	bool nohz_idle;
	u64 steal_credit;
	unsigned long stop_after;
	struct randstat_busy busy;
};

static DEFINE_PER_CPU(struct randstat_cpu, randstat_cpus);
static enum cpuhp_state randstat_hp_state;

/*
 * Every keystream is rekeyed from get_random_bytes() this often, so that a
 * state that leaked (a memory disclosure) stops predicting within a minute.
 * Deferrable: the work never wakes an idle CPU.
 */
#define RANDSTAT_REKEY_PERIOD	(60 * HZ)

static void randstat_rekey_fn(struct work_struct *work);
static DECLARE_DEFERRABLE_WORK(randstat_rekey_work, randstat_rekey_fn);

static void randstat_rekey_fn(struct work_struct *work)
{
	struct randstat_cpu *rc;
	int cpu;

	for_each_possible_cpu(cpu) {
		rc = per_cpu_ptr(&randstat_cpus, cpu);
		/* Not taken yet (the CPU is offline or idle): keep it. */
		/* Pairs with the release in randstat_take_rekey(). */
		if (smp_load_acquire(&rc->rekey_ready))
			continue;
		get_random_bytes(rc->rekey, sizeof(rc->rekey));
		/* The key is written before the flag is seen set. */
		smp_store_release(&rc->rekey_ready, true);
	}
	queue_delayed_work(system_power_efficient_wq, &randstat_rekey_work,
			   RANDSTAT_REKEY_PERIOD);
}

/* In the timer: take the fresh key material if some is ready. */
static void randstat_take_rekey(struct randstat_cpu *rc)
{
	/* Pairs with the release in randstat_rekey_fn(): the key is there. */
	if (!smp_load_acquire(&rc->rekey_ready))
		return;
	randstat_rng_mix(&rc->rng, rc->rekey);
	memzero_explicit(rc->rekey, sizeof(rc->rekey));
	/* The key is used and wiped before the work may write it again. */
	smp_store_release(&rc->rekey_ready, false);
}

/*
 * The kernel's figures for @cpu now, into @k.  With @all, every class as
 * fs/proc/stat.c computes them (an exact CPU); else only what a dormant
 * span is charged from: the NO_HZ sleep times, steal, irq and softirq,
 * read from kcpustat directly (this runs in the sampler's hardirq, where
 * kcpustat_cpu_fetch()'s vtime retry loop has no place).  Steal is the
 * kernel's total: randstat_enter() keeps its own.
 */
static void randstat_kstat_read(unsigned int cpu, bool all,
				struct randstat_kstat *k)
{
	static const u8 from[RS_NR_CLASSES] = {
		[RS_USER] = CPUTIME_USER,	[RS_NICE] = CPUTIME_NICE,
		[RS_SYSTEM] = CPUTIME_SYSTEM,	[RS_IDLE] = CPUTIME_IDLE,
		[RS_IOWAIT] = CPUTIME_IOWAIT,	[RS_IRQ] = CPUTIME_IRQ,
		[RS_SOFTIRQ] = CPUTIME_SOFTIRQ,	[RS_STEAL] = CPUTIME_STEAL,
		[RS_GUEST] = CPUTIME_GUEST,
		[RS_GUEST_NICE] = CPUTIME_GUEST_NICE,
	};
	struct kernel_cpustat kcs;
	u64 idle, iowait;
	int i;

	memset(k, 0, sizeof(*k));
	k->t_ns = ktime_get_ns();
	idle = get_cpu_idle_time_us(cpu, NULL);
	iowait = get_cpu_iowait_time_us(cpu, NULL);
	if (all) {
		kcpustat_cpu_fetch(&kcs, cpu);
		for (i = 0; i < RS_NR_CLASSES; i++)
			k->ns[i] = kcs.cpustat[from[i]];
	} else {
		for (i = RS_IDLE; i <= RS_STEAL; i++)
			k->ns[i] = READ_ONCE(kcpustat_cpu(cpu).cpustat[from[i]]);
	}
	if (idle != (u64)-1)
		k->ns[RS_IDLE] = idle * NSEC_PER_USEC;
	if (iowait != (u64)-1)
		k->ns[RS_IOWAIT] = iowait * NSEC_PER_USEC;
}

/**
 * __randstat_enter() - move a CPU's sampler to @to; see randstat_enter()
 * @rc: the CPU's sampler
 * @to: the new state
 * @now: the kernel's figures now (randstat_kstat_read())
 * @zero: zero the counters instead of charging what is pending (reset)
 *
 * Inside a write section of @rc->seq.
 */
static void __randstat_enter(struct randstat_cpu *rc, enum randstat_state to,
			     const struct randstat_kstat *now, bool zero)
{
	u64 steal = rc->base.ns[RS_STEAL];

	if (zero)
		memset(&rc->c, 0, sizeof(rc->c));
	/* From a reset or from off, nothing before now is owed. */
	if (zero || rc->state == RS_STATE_OFF)
		steal = now->ns[RS_STEAL];
	else
		steal += randstat_charge_pending(&rc->c, rc->state, &rc->base,
						 now);
	/* Leaving sampling: the time since the last sample is sampled. */
	if (!zero && rc->state == RS_STATE_ACTIVE && to != RS_STATE_ACTIVE)
		randstat_charge_span(&rc->c,
				     max_t(s64, now->t_ns -
					   ktime_to_ns(rc->prev_expires), 0));
	rc->base = *now;
	rc->base.ns[RS_STEAL] = steal;
	if (to == RS_STATE_DORMANT && rc->state != RS_STATE_DORMANT) {
		rc->c.dormancies++;
		memset(&rc->busy, 0, sizeof(rc->busy));
	}
	WRITE_ONCE(rc->state, to);
}

/**
 * randstat_enter() - move a CPU's sampler from its state to @to
 * @rc: the CPU's sampler
 * @cpu: the CPU
 * @to: the new state (the same one, with @zero, for a reset)
 * @zero: zero the counters instead of charging what is pending
 *
 * The one place a sampler's state changes.  What the outgoing state owes
 * is charged and the incoming state's figures are taken, in one write
 * section, so a reader sees either the old state with its pending charge
 * or the new one.  The caller starts or stops the timer.  Interrupts are
 * off, on @cpu itself, or @cpu is offline.
 */
static void randstat_enter(struct randstat_cpu *rc, unsigned int cpu,
			   enum randstat_state to, bool zero)
{
	struct randstat_kstat now;

	randstat_kstat_read(cpu, to == RS_STATE_EXACT ||
			    rc->state == RS_STATE_EXACT, &now);
	write_seqcount_begin(&rc->seq);
	__randstat_enter(rc, to, &now, zero);
	write_seqcount_end(&rc->seq);
}

/*
 * The idle task was sampled: does a task of this CPU wait for I/O?  See
 * randstat_idle_is_iowait().  Without NO_HZ the kernel keeps no idle
 * sleep times: this reports idle, and the CPU never goes dormant.
 */
static bool randstat_sample_iowait(struct randstat_cpu *rc, int cpu)
{
	u64 idle = get_cpu_idle_time_us(cpu, NULL);
	u64 iowait = get_cpu_iowait_time_us(cpu, NULL);

	rc->nohz_idle = idle != (u64)-1 && iowait != (u64)-1;
	if (!rc->nohz_idle)
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

/*
 * May the sampler stop now, the CPU being idle?  Only with nothing about
 * to run, where the kernel keeps exact idle sleep times, when the
 * tickless parameter allows it, and only under the exponential law: the
 * uniform law has no memoryless continuation, and a fresh draw at each
 * wakeup would never see work shorter than tmin_ns after one.  Under it
 * idle CPUs keep being sampled.
 */
static bool randstat_may_doze(struct randstat_cpu *rc, enum randstat_law law)
{
	return law == RS_LAW_EXPONENTIAL && randstat_may_sleep() &&
	       rc->nohz_idle && !need_resched();
}

/* @a - @b in ns, 0 if @b is later. */
static u64 randstat_ns_since(ktime_t a, ktime_t b)
{
	return max_t(s64, ktime_to_ns(ktime_sub(a, b)), 0);
}

/*
 * Start the timer: the one place it is started, but for its own restarts.
 * Interrupts are off, on the CPU.  The first sample is the law's
 * continuation from the last one (randstat_draw_resume(); from a fresh
 * start, a fresh draw), so a resumed CPU is sampled as if it had never
 * stopped.  Samples charge from now.
 */
static void randstat_arm(struct randstat_cpu *rc, ktime_t now)
{
	enum randstat_law law;
	struct randstat_window w = randstat_get_law(&law);
	u64 delay;

	if (law == RS_LAW_EXPONENTIAL)
		delay = randstat_draw_resume(&rc->rng, w,
					     randstat_ns_since(now, rc->last_sample));
	else
		delay = randstat_draw_interval(&rc->rng, law, w);
	rc->prev_expires = now;
	hrtimer_start(&rc->timer, ktime_add_ns(now, delay),
		      HRTIMER_MODE_ABS_PINNED_HARD);
}

static enum hrtimer_restart randstat_timer_fn(struct hrtimer *timer)
{
	struct randstat_cpu *rc = container_of(timer, struct randstat_cpu,
					       timer);
	int cpu = smp_processor_id();
	u64 start = local_clock();
	ktime_t now = ktime_get();
	ktime_t expires = hrtimer_get_expires(timer);
	enum randstat_class cls = randstat_sample_class(rc);
	u64 steal = kcpustat_this_cpu->cpustat[CPUTIME_STEAL] -
		    rc->base.ns[RS_STEAL];
	struct randstat_kstat k;
	enum randstat_law law;
	struct randstat_window w = randstat_get_law(&law);
	/* Only a sample that finds the idle task idle stops the sampler. */
	bool doze = (cls == RS_IDLE || cls == RS_IOWAIT) &&
		    randstat_may_doze(rc, law);
	u64 last, next = ktime_to_ns(expires), nsamples, weight, late, back;

	randstat_take_rekey(rc);
	nsamples = randstat_advance(&rc->rng, law, w, ktime_to_ns(now),
				    &last, &next);
	weight = randstat_ns_since(ns_to_ktime(last), rc->prev_expires);
	if (doze) {
		randstat_kstat_read(cpu, false, &k);
		/*
		 * The samples cover the time up to @last; the span charged
		 * exactly starts there.  The CPU slept on in @cls until the
		 * interrupt came (NO_HZ stopped its sleep time at the
		 * interrupt's entry): that lateness is sleep of the span.
		 */
		k.t_ns = last;
		late = randstat_ns_since(now, ns_to_ktime(last));
		k.ns[cls] -= min(k.ns[cls], late);
	}

	write_seqcount_begin(&rc->seq);
	/* A dormant span's steal backlog first, then this interval's. */
	back = randstat_charge_backlog(&rc->c, steal, &rc->steal_credit);
	rc->steal_credit = 0;
	rc->base.ns[RS_STEAL] += back + randstat_charge(&rc->c, cls, nsamples,
							weight, steal - back);
	rc->c.overruns += nsamples - 1;
	rc->prev_expires = ns_to_ktime(last);
	if (doze)
		__randstat_enter(rc, RS_STATE_DORMANT, &k, false);
	randstat_record_timing(&rc->c, local_clock() - start,
			       ktime_to_ns(ktime_sub(now, expires)));
	write_seqcount_end(&rc->seq);
	/* A static branch, not taken unless randstat:sample is enabled. */
	trace_sample(cpu, current, cls, nsamples, weight);

	rc->last_sample = ns_to_ktime(last);
	if (doze)
		return HRTIMER_NORESTART;
	hrtimer_set_expires(timer, ns_to_ktime(next));
	return HRTIMER_RESTART;
}

/*
 * Resume sampling on this CPU, dormant until now.  Interrupts are off.
 * The span's idle and iowait may yet lose a steal backlog
 * (randstat_charge_backlog()).
 */
static void randstat_wake(struct randstat_cpu *rc)
{
	u64 idle = rc->c.exact_ns[RS_IDLE] + rc->c.exact_ns[RS_IOWAIT];

	randstat_enter(rc, smp_processor_id(), RS_STATE_ACTIVE, false);
	rc->steal_credit = rc->c.exact_ns[RS_IDLE] + rc->c.exact_ns[RS_IOWAIT] -
			   idle;
	randstat_arm(rc, ns_to_ktime(rc->base.t_ns));
}

/* Whoever noticed: resume if this CPU is still dormant. */
static void randstat_wake_this_cpu(void)
{
	struct randstat_cpu *rc = this_cpu_ptr(&randstat_cpus);
	unsigned long flags;

	local_irq_save(flags);
	if (rc->state == RS_STATE_DORMANT)
		randstat_wake(rc);
	local_irq_restore(flags);
}

/*
 * A task was enqueued by this CPU (sched_update_nr_running_tp; the rq
 * lock is held), on @rq, which may be another CPU's.  Resume if it gave
 * this dormant CPU its first task: this CPU's own runqueue now holds one
 * (it held none while dormant).  An enqueue on another CPU's runqueue
 * leaves this one's at zero: a dormant CPU that serves interrupts waking
 * tasks elsewhere stays dormant.
 */
static void randstat_enqueue_probe(void *data, struct rq *rq, int change)
{
	if (change > 0 &&
	    READ_ONCE(this_cpu_ptr(&randstat_cpus)->state) == RS_STATE_DORMANT &&
	    single_task_running())
		randstat_wake_this_cpu();
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
 * Never in a state that stops the local timer (CPUIDLE_FLAG_TIMER_STOP:
 * arm64's local-timer-stop PSCI states, x86 C-states without ARAT):
 * power:cpu_idle fires after tick_broadcast_enter() has shut the CPU's
 * clock event down, and cancelling the timer there would reprogram it
 * (to KTIME_MAX, if randstat's was the only timer left: ONESHOT_STOPPED
 * from SHUTDOWN, which __clockevents_switch_state() warns of in the idle
 * path).  There the next sample wakes the CPU through the broadcast
 * device and stops the sampler, as any sample in idle does.
 */
static void randstat_idle_enter(struct randstat_cpu *rc, unsigned int state)
{
	enum randstat_law law;
	struct randstat_window w = randstat_get_law(&law);
	unsigned long budget = READ_ONCE(rc->stop_after), flags;
	struct cpuidle_driver *drv;

	/* The budget first: most idle entries stop here. */
	if (!randstat_stop_budget(&budget, jiffies,
				  max_t(u64, div_u64(w.hi, NSEC_PER_SEC / HZ), 1)) ||
	    !randstat_may_doze(rc, law))
		return;
	drv = cpuidle_get_driver();
	if (drv && state < drv->state_count &&
	    drv->states[state].flags & CPUIDLE_FLAG_TIMER_STOP)
		return;
	local_irq_save(flags);
	if (rc->state != RS_STATE_ACTIVE)
		goto out;
	rc->stop_after = budget;
	/*
	 * A sample already due (its interrupt held back by the path into
	 * idle, which runs with interrupts off) is taken as it comes, as the
	 * tick's would be: cancelling it would drop a sample whose time is
	 * already counted as sampled.
	 */
	if (ktime_compare(hrtimer_get_expires(&rc->timer), ktime_get()) > 0 &&
	    hrtimer_try_to_cancel(&rc->timer) == 1)
		randstat_enter(rc, smp_processor_id(), RS_STATE_DORMANT, false);
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
		if (READ_ONCE(rc->state) == RS_STATE_ACTIVE)
			randstat_idle_enter(rc, state);
		return;
	}
	if (READ_ONCE(rc->state) != RS_STATE_DORMANT)
		return;
	local_irq_save(flags);
	if (rc->state != RS_STATE_DORMANT)
		goto out;
	/* Woken by interrupts only: has serving them kept it busy? */
	cpu = smp_processor_id();
	if (need_resched() ||
	    randstat_busy_update(&rc->busy, ktime_get_ns(),
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
	if (READ_ONCE(this_cpu_ptr(&randstat_cpus)->state) == RS_STATE_DORMANT &&
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

/*
 * Start this CPU in the mode the exact_cpus parameter gives it.
 * Interrupts are off; its counters are kept.
 */
static void randstat_start(struct randstat_cpu *rc, unsigned int cpu)
{
	if (randstat_cpu_is_exact(cpu)) {
		randstat_enter(rc, cpu, RS_STATE_EXACT, false);
		return;
	}
	rc->last_idle_us = get_cpu_idle_time_us(cpu, NULL);
	rc->last_iowait_us = get_cpu_iowait_time_us(cpu, NULL);
	rc->last_iowait = false;
	rc->nohz_idle = false;
	rc->steal_credit = 0;
	rc->stop_after = jiffies;
	randstat_enter(rc, cpu, RS_STATE_ACTIVE, false);
	rc->last_sample = ns_to_ktime(rc->base.t_ns);
	randstat_arm(rc, rc->last_sample);
}

/*
 * Stop this CPU's sampler, whatever it was doing, and charge what is
 * pending.  Interrupts are off, so the timer, which only runs here, is not
 * running; the caller waits for it with hrtimer_cancel() if it may be.
 */
static void randstat_stop(struct randstat_cpu *rc, unsigned int cpu)
{
	if (rc->state == RS_STATE_ACTIVE)
		hrtimer_try_to_cancel(&rc->timer);
	randstat_enter(rc, cpu, RS_STATE_OFF, false);
}

/* Runs on @cpu itself, in its hotplug thread. */
static int randstat_cpu_online(unsigned int cpu)
{
	struct randstat_cpu *rc = this_cpu_ptr(&randstat_cpus);
	u32 key[RANDSTAT_KEY_WORDS];

	get_random_bytes(key, sizeof(key));
	randstat_rng_init(&rc->rng, key);
	memzero_explicit(key, sizeof(key));
#ifdef RANDSTAT_HAVE_HRTIMER_SETUP
	hrtimer_setup(&rc->timer, randstat_timer_fn, CLOCK_MONOTONIC,
		      HRTIMER_MODE_ABS_PINNED_HARD);
#else
	hrtimer_init(&rc->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED_HARD);
	rc->timer.function = randstat_timer_fn;
#endif
	local_irq_disable();
	randstat_start(rc, cpu);
	local_irq_enable();
	return 0;
}

/* Runs on @cpu itself, in its hotplug thread; the counters are kept. */
static int randstat_cpu_offline(unsigned int cpu)
{
	struct randstat_cpu *rc = this_cpu_ptr(&randstat_cpus);

	local_irq_disable();
	randstat_stop(rc, cpu);
	local_irq_enable();
	hrtimer_cancel(&rc->timer);
	memzero_explicit(&rc->rng, sizeof(rc->rng));
	return 0;
}

/* On the CPU, from randstat_apply_modes(): stop, then start as told. */
static long randstat_restart_fn(void *unused)
{
	struct randstat_cpu *rc;
	unsigned int cpu;

	local_irq_disable();
	cpu = smp_processor_id();
	rc = this_cpu_ptr(&randstat_cpus);
	randstat_stop(rc, cpu);
	randstat_start(rc, cpu);
	local_irq_enable();
	return 0;
}

/**
 * randstat_apply_modes() - put every online CPU in the mode it should have
 *
 * After the exact_cpus parameter changed: each CPU whose mode differs
 * is stopped and started again on itself; its counters carry over.  An
 * offline CPU takes its mode when it comes online.
 */
void randstat_apply_modes(void)
{
	struct randstat_cpu *rc;
	unsigned int cpu;
	bool exact;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		rc = per_cpu_ptr(&randstat_cpus, cpu);
		exact = READ_ONCE(rc->state) == RS_STATE_EXACT;
		if (exact != randstat_cpu_is_exact(cpu))
			work_on_cpu(cpu, randstat_restart_fn, NULL);
	}
	cpus_read_unlock();
}

int randstat_sampler_start(void)
{
	int cpu, ret;

	for_each_possible_cpu(cpu)
		seqcount_init(&per_cpu_ptr(&randstat_cpus, cpu)->seq);

	/* The probes first: they do nothing until a CPU is dormant. */
	ret = register_trace_sched_update_nr_running_tp(randstat_enqueue_probe,
							NULL);
	if (ret)
		return ret;
	ret = register_trace_cpu_idle(randstat_idle_probe, NULL);
	if (ret)
		goto err_enqueue;
	ret = register_trace_pelt_cfs_tp(randstat_pelt_cfs_probe, NULL);
	if (ret)
		goto err_idle;
	ret = register_trace_pelt_rt_tp(randstat_pelt_rq_probe, NULL);
	if (ret)
		goto err_cfs;
	ret = register_trace_pelt_dl_tp(randstat_pelt_rq_probe, NULL);
	if (ret)
		goto err_rt;
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "randstat:online",
				randstat_cpu_online, randstat_cpu_offline);
	if (ret < 0)
		goto err_dl;
	randstat_hp_state = ret;
	queue_delayed_work(system_power_efficient_wq, &randstat_rekey_work,
			   RANDSTAT_REKEY_PERIOD);
	return 0;

err_dl:
	unregister_trace_pelt_dl_tp(randstat_pelt_rq_probe, NULL);
err_rt:
	unregister_trace_pelt_rt_tp(randstat_pelt_rq_probe, NULL);
err_cfs:
	unregister_trace_pelt_cfs_tp(randstat_pelt_cfs_probe, NULL);
err_idle:
	unregister_trace_cpu_idle(randstat_idle_probe, NULL);
err_enqueue:
	unregister_trace_sched_update_nr_running_tp(randstat_enqueue_probe, NULL);
	tracepoint_synchronize_unregister();
	return ret;
}

void randstat_sampler_stop(void)
{
	cancel_delayed_work_sync(&randstat_rekey_work);
	cpuhp_remove_state(randstat_hp_state);
	unregister_trace_pelt_dl_tp(randstat_pelt_rq_probe, NULL);
	unregister_trace_pelt_rt_tp(randstat_pelt_rq_probe, NULL);
	unregister_trace_pelt_cfs_tp(randstat_pelt_cfs_probe, NULL);
	unregister_trace_cpu_idle(randstat_idle_probe, NULL);
	unregister_trace_sched_update_nr_running_tp(randstat_enqueue_probe, NULL);
	/* No probe runs on, or looks at, the per-CPU data after this. */
	tracepoint_synchronize_unregister();
}

/**
 * randstat_read_cpu() - one CPU's counters, as of now
 * @cpu: the CPU
 * @c: where to copy them
 *
 * A consistent copy, with what is pending charged in it: a dormant CPU's
 * span up to now, an exact CPU's growth of the kernel's figures.  So a
 * reader sees an idle CPU's idle time grow while it takes no interrupt.
 * Everything the pending charge needs is copied in the read section, and
 * charged by the function the CPU itself charges with.
 *
 * Return: its state.
 */
enum randstat_state randstat_read_cpu(unsigned int cpu,
				      struct randstat_counters *c)
{
	struct randstat_cpu *rc = per_cpu_ptr(&randstat_cpus, cpu);
	struct randstat_kstat base, now;
	enum randstat_state state;
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&rc->seq);
		*c = rc->c;
		state = READ_ONCE(rc->state);
		base = rc->base;
		if (state == RS_STATE_DORMANT || state == RS_STATE_EXACT)
			randstat_kstat_read(cpu, state == RS_STATE_EXACT, &now);
	} while (read_seqcount_retry(&rc->seq, seq));

	if (state == RS_STATE_DORMANT || state == RS_STATE_EXACT)
		randstat_charge_pending(c, state, &base, &now);
	return state;
}

/*
 * Zero one CPU's counters, its state kept.  Interrupts are off, on the
 * CPU (its timer cannot run meanwhile), or the CPU is offline.
 */
static void randstat_reset_cpu(struct randstat_cpu *rc, unsigned int cpu)
{
	randstat_enter(rc, cpu, rc->state, true);
	rc->prev_expires = ns_to_ktime(rc->base.t_ns);
	rc->steal_credit = 0;
}

static void randstat_reset_this_cpu(void *unused)
{
	randstat_reset_cpu(this_cpu_ptr(&randstat_cpus), smp_processor_id());
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
		randstat_reset_cpu(per_cpu_ptr(&randstat_cpus, cpu), cpu);
		local_irq_restore(flags);
	}
	cpus_read_unlock();
}
