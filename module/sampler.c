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
 * counts the ticks it missed: dropping them would leave out exactly the
 * samples that fell in interrupt-disabled regions.
 *
 * Tickless: a sample that finds the CPU idle stops the timer (the CPU is
 * *dormant*), and the CPU resumes sampling when it leaves idle, with the
 * law's own continuation (randstat_draw_resume()).  The span in between
 * is charged from the kernel's exact NO_HZ idle and iowait sleep times
 * (randstat_charge_dormant()), so an idle CPU takes no interrupt of
 * randstat's.  What ends dormancy:
 *
 * - a task is enqueued by this CPU (sched_update_nr_running_tp): a wakeup
 *   onto an idle CPU is queued there and enqueued by the CPU itself;
 * - the CPU leaves its idle state (power:cpu_idle) with need_resched()
 *   set, as after a remote wakeup's IPI, or having spent more than
 *   1/2^RANDSTAT_BUSY_SHIFT of its time in interrupts since it last
 *   looked (randstat_dormant_busy());
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
 * @seq: lets readers copy @c and the state consistently; written only by
 *	this CPU with interrupts off, or while it is offline
 * @c: the counters
 * @state: what the sampler is doing (enum randstat_state)
 * @prev_expires: scheduled time of the last expiry counted, or when the
 *	sampler last resumed
 * @last_steal: the kernel's steal time of this CPU already charged
 * @last_idle_us: get_cpu_idle_time_us() at the last idle sample
 * @last_iowait_us: get_cpu_iowait_time_us() at the last idle sample
 * @last_iowait: the last idle sample was iowait
 * @nohz_idle: the kernel keeps exact idle sleep times here (NO_HZ)
 * @last_sample: scheduled time of the last expiry counted (the law's
 *	floor runs from it)
 * @dormant_since: dormant: the sample that found the CPU idle, or the
 *	idle entry where it stopped; the exact span runs from it
 * @dormant_idle_us: dormant: get_cpu_idle_time_us() when it began
 * @dormant_iowait_us: dormant: get_cpu_iowait_time_us() when it began
 * @pending_sampled_ns: dormant, stopped at an idle entry: the sampled time
 *	from the last sample (or resume) to the stop, not yet charged
 * @stop_after: the budget of stops at idle entries, as a time in jiffies
 *	(a generic cell rate algorithm): each stop moves it to @stop_cost
 *	past the later of itself and now, and a stop is allowed while it is
 *	at most RANDSTAT_STOP_BURST stops ahead of now
 * @stop_cost: the mean interval in jiffies, at least 1
 * @look_ns: dormant: when the busy check first looked (ktime), 0 before
 * @look_asleep_us: dormant: the idle and iowait sleep time then
 * @exact_base: exact: the kernel's figures already charged
 */
struct randstat_cpu {
	struct hrtimer timer;
	struct randstat_rng rng;
	u32 rekey[RANDSTAT_KEY_WORDS];
	bool rekey_ready;
	seqcount_t seq;
	struct randstat_counters c;
	int state;
	ktime_t prev_expires;
	u64 last_steal;
	u64 last_idle_us;
	u64 last_iowait_us;
	bool last_iowait;
	bool nohz_idle;
	ktime_t last_sample;
	ktime_t dormant_since;
	u64 dormant_idle_us;
	u64 dormant_iowait_us;
	u64 pending_sampled_ns;
	unsigned long stop_after;
	unsigned long stop_cost;
	u64 look_ns;
	u64 look_asleep_us;
	u64 exact_base[RS_NR_CLASSES];
};

static DEFINE_PER_CPU(struct randstat_cpu, randstat_cpus);

/*
 * Stops at idle entries, a CPU may take this many in a row before it is
 * held to one per mean interval: an idle CPU's wakeups come in clusters.
 */
#define RANDSTAT_STOP_BURST	8
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

static u64 randstat_next_interval(struct randstat_cpu *rc)
{
	enum randstat_law law;
	struct randstat_window w = randstat_get_law(&law);

	return randstat_draw_interval(&rc->rng, law, w);
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
 * tickless parameter allows it, and only under
 * the exponential law: the uniform law has no memoryless continuation,
 * and a fresh draw at each wakeup would never see work shorter than
 * tmin_ns after one.  Under it idle CPUs keep being sampled.
 */
static bool randstat_may_doze(struct randstat_cpu *rc)
{
	enum randstat_law law;

	randstat_get_law(&law);
	return law == RS_LAW_EXPONENTIAL && randstat_may_sleep() &&
	       rc->nohz_idle && !need_resched();
}

/* @a - @b in ns, 0 if @b is later. */
static u64 randstat_ns_since(ktime_t a, ktime_t b)
{
	return max_t(s64, ktime_to_ns(ktime_sub(a, b)), 0);
}

/*
 * The sampler stops: the CPU is idle.  In the timer, within @rc->seq.
 * The samples cover the time up to @last, the last expiry; the kernel's
 * sleep times were read at @now, in this interrupt, and the span charged
 * from them starts there.  In between the CPU slept on, in the class
 * @cls the sample found, until the interrupt came (NO_HZ stopped its
 * sleep time at the interrupt's entry): that lateness is charged to
 * @cls, not left to be charged as irq with the span's remainder.
 */
static void randstat_doze(struct randstat_cpu *rc, enum randstat_class cls,
			  ktime_t last, ktime_t now)
{
	u64 late = randstat_ns_since(now, last);

	randstat_charge_dormant(&rc->c, late, cls == RS_IDLE ? late : 0,
				cls == RS_IOWAIT ? late : 0, 0);
	rc->dormant_since = now;
	rc->dormant_idle_us = rc->last_idle_us;
	rc->dormant_iowait_us = rc->last_iowait_us;
	rc->pending_sampled_ns = 0;
	/* The busy check starts at the end of this wakeup (idle probe). */
	rc->look_ns = 0;
	rc->c.dormancies++;
	WRITE_ONCE(rc->state, RS_STATE_DORMANT);
}

static enum hrtimer_restart randstat_timer_fn(struct hrtimer *timer)
{
	struct randstat_cpu *rc = container_of(timer, struct randstat_cpu,
					       timer);
	u64 start = local_clock();
	ktime_t now = ktime_get();
	ktime_t expires = hrtimer_get_expires(timer);
	enum randstat_class cls = randstat_sample_class(rc);
	u64 steal = kcpustat_this_cpu->cpustat[CPUTIME_STEAL] - rc->last_steal;
	/* Only a sample that finds the idle task idle stops the sampler. */
	bool doze = (cls == RS_IDLE || cls == RS_IOWAIT) &&
		    randstat_may_doze(rc);
	ktime_t last = expires, next;
	u64 nsamples = 1, weight;

	randstat_take_rekey(rc);
	next = ktime_add_ns(expires, randstat_next_interval(rc));
	/* Expiries that passed meanwhile: samples of what runs now. */
	while (ktime_compare(next, now) <= 0) {
		last = next;
		next = ktime_add_ns(next, randstat_next_interval(rc));
		nsamples++;
	}

	weight = ktime_to_ns(ktime_sub(last, rc->prev_expires));
	write_seqcount_begin(&rc->seq);
	rc->last_steal += randstat_charge(&rc->c, cls, nsamples, weight, steal);
	rc->c.overruns += nsamples - 1;
	if (doze)
		randstat_doze(rc, cls, last, now);
	randstat_record_timing(&rc->c, local_clock() - start,
			       ktime_to_ns(ktime_sub(now, expires)));
	write_seqcount_end(&rc->seq);
	/* A static branch, not taken unless randstat:sample is enabled. */
	trace_sample(smp_processor_id(), current, cls, nsamples, weight);

	rc->prev_expires = last;
	rc->last_sample = last;
	if (doze)
		return HRTIMER_NORESTART;
	hrtimer_set_expires(timer, next);
	return HRTIMER_RESTART;
}

/*
 * The dormant span's charge, from @rc's state to @now: into @c, which is
 * @rc->c or a reader's copy of it.  @idle_us, @iowait_us and @steal are
 * the kernel's figures at @now.
 */
static u64 randstat_dormant_charge(const struct randstat_cpu *rc,
				   struct randstat_counters *c, ktime_t now,
				   u64 idle_us, u64 iowait_us, u64 steal)
{
	u64 span = randstat_ns_since(now, rc->dormant_since);
	u64 idle = (idle_us - min(idle_us, rc->dormant_idle_us)) * NSEC_PER_USEC;
	u64 iowait = (iowait_us - min(iowait_us, rc->dormant_iowait_us)) *
		     NSEC_PER_USEC;

	randstat_charge_span(c, rc->pending_sampled_ns);
	return randstat_charge_dormant(c, span, idle, iowait,
				       steal - rc->last_steal);
}

/*
 * Resume sampling on this CPU, dormant until now.  Interrupts are off.
 * The span is charged exactly, and the next sample is the law's
 * continuation from the last one (randstat_draw_resume()).
 */
static void randstat_wake(struct randstat_cpu *rc)
{
	int cpu = smp_processor_id();
	struct randstat_window w = randstat_get_window(RS_LAW_EXPONENTIAL);
	u64 steal, idle_us, iowait_us, delay;
	ktime_t now;

	write_seqcount_begin(&rc->seq);
	/* After the count changed: a reader that looks later sees it. */
	now = ktime_get();
	idle_us = get_cpu_idle_time_us(cpu, NULL);
	iowait_us = get_cpu_iowait_time_us(cpu, NULL);
	steal = kcpustat_this_cpu->cpustat[CPUTIME_STEAL];
	rc->last_steal += randstat_dormant_charge(rc, &rc->c, now, idle_us,
						  iowait_us, steal);
	rc->pending_sampled_ns = 0;
	WRITE_ONCE(rc->state, RS_STATE_ACTIVE);
	write_seqcount_end(&rc->seq);

	rc->prev_expires = now;
	rc->last_idle_us = idle_us;
	rc->last_iowait_us = iowait_us;
	delay = randstat_draw_resume(&rc->rng, w,
				     randstat_ns_since(now, rc->last_sample));
	hrtimer_start(&rc->timer, ktime_add_ns(now, delay),
		      HRTIMER_MODE_ABS_PINNED_HARD);
}

/*
 * The CPU enters an idle state while sampling: stop the timer rather than
 * let its next sample wake the CPU only to find it idle (as it would after
 * a short task woken on an idle CPU).  The span from here is charged
 * exactly, as from an idle sample, and sampling resumes with the law's
 * continuation from the last sample, which does not depend on where this
 * stop fell (a stop that kept the sample it put off would bias the
 * estimate: KUnit's short_bursts_test).  At most once per mean interval
 * on average (a burst of RANDSTAT_STOP_BURST allowed), so that a CPU
 * entering idle tens of thousands of times a second does not cancel and
 * re-arm its timer each time.  Interrupts are off.
 */
static void randstat_idle_enter(struct randstat_cpu *rc)
{
	int cpu = smp_processor_id();
	u64 idle_us, iowait_us;

	/* One stop's worth of the budget (see randstat_idle_probe()). */
	rc->stop_after = max(rc->stop_after, jiffies) + rc->stop_cost;
	/*
	 * A sample already due (its interrupt held back by the path into
	 * idle, which runs with interrupts off) is taken as it comes, as
	 * the tick's would be: cancelling it would drop a sample whose time
	 * is already counted as sampled.
	 */
	if (ktime_compare(hrtimer_get_expires(&rc->timer), ktime_get()) <= 0 ||
	    hrtimer_try_to_cancel(&rc->timer) != 1)
		return;
	idle_us = get_cpu_idle_time_us(cpu, NULL);
	iowait_us = get_cpu_iowait_time_us(cpu, NULL);
	write_seqcount_begin(&rc->seq);
	rc->dormant_since = ktime_get();
	rc->pending_sampled_ns = randstat_ns_since(rc->dormant_since,
						   rc->prev_expires);
	rc->dormant_idle_us = idle_us;
	rc->dormant_iowait_us = iowait_us;
	rc->look_ns = 0;
	rc->c.dormancies++;
	WRITE_ONCE(rc->state, RS_STATE_DORMANT);
	write_seqcount_end(&rc->seq);
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
 * lock is held).  If this CPU is dormant the task is almost always its
 * own: a wakeup onto an idle CPU is queued there and enqueued by it.
 */
static void randstat_enqueue_probe(void *data, struct rq *rq, int change)
{
	if (change > 0 &&
	    READ_ONCE(this_cpu_ptr(&randstat_cpus)->state) == RS_STATE_DORMANT)
		randstat_wake_this_cpu();
}

/*
 * power:cpu_idle, on every idle entry and exit of every CPU: two or three
 * loads, unless this CPU is dormant and leaving an idle state, or
 * sampling and entering one with no stop in the last mean interval.
 */
static void randstat_idle_probe(void *data, unsigned int state,
				unsigned int cpu_id)
{
	struct randstat_cpu *rc = this_cpu_ptr(&randstat_cpus);
	unsigned long flags;
	u64 now, asleep;
	int cpu;

	if (state != PWR_EVENT_EXIT) {
		if (READ_ONCE(rc->state) != RS_STATE_ACTIVE ||
		    time_before(jiffies + RANDSTAT_STOP_BURST * rc->stop_cost,
				READ_ONCE(rc->stop_after)) ||
		    !randstat_may_doze(rc))
			return;
		local_irq_save(flags);
		if (rc->state == RS_STATE_ACTIVE)
			randstat_idle_enter(rc);
		local_irq_restore(flags);
		return;
	}
	if (READ_ONCE(rc->state) != RS_STATE_DORMANT)
		return;
	local_irq_save(flags);
	if (rc->state != RS_STATE_DORMANT)
		goto out;
	if (need_resched()) {
		randstat_wake(rc);
		goto out;
	}
	/*
	 * Woken by interrupts only: has serving them kept it busy, over the
	 * span since its first look (at the end of the wakeup in which it
	 * stopped)?  Over the whole span, so that a burst of short wakeups
	 * (IPIs) after a long sleep is not taken for work.
	 */
	cpu = smp_processor_id();
	now = ktime_get_ns();
	asleep = get_cpu_idle_time_us(cpu, NULL) +
		 get_cpu_iowait_time_us(cpu, NULL);
	if (!rc->look_ns) {
		rc->look_ns = now;
		rc->look_asleep_us = asleep;
	} else if (randstat_dormant_busy(now - rc->look_ns,
					 (asleep - rc->look_asleep_us) * NSEC_PER_USEC)) {
		randstat_wake(rc);
	}
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

/* The kernel's exact figures for @cpu, as fs/proc/stat.c computes them. */
static void randstat_fetch_exact(unsigned int cpu, u64 ns[RS_NR_CLASSES])
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
	u64 idle = get_cpu_idle_time_us(cpu, NULL);
	u64 iowait = get_cpu_iowait_time_us(cpu, NULL);
	int k;

	kcpustat_cpu_fetch(&kcs, cpu);
	for (k = 0; k < RS_NR_CLASSES; k++)
		ns[k] = kcs.cpustat[from[k]];
	if (idle != (u64)-1)
		ns[RS_IDLE] = idle * NSEC_PER_USEC;
	if (iowait != (u64)-1)
		ns[RS_IOWAIT] = iowait * NSEC_PER_USEC;
}

/* The exact figures' growth since @base, into @c; @base moves up. */
static void randstat_exact_charge(struct randstat_counters *c,
				  u64 base[RS_NR_CLASSES],
				  const u64 now[RS_NR_CLASSES])
{
	u64 d[RS_NR_CLASSES];
	int k;

	for (k = 0; k < RS_NR_CLASSES; k++) {
		d[k] = now[k] - min(now[k], base[k]);
		base[k] = max(base[k], now[k]);
	}
	randstat_charge_exact(c, d);
}

/*
 * Start this CPU in the mode the exact_cpus parameter gives it.
 * Interrupts are off; its counters are kept.
 */
static void randstat_start(struct randstat_cpu *rc, unsigned int cpu)
{
	ktime_t now = ktime_get();

	write_seqcount_begin(&rc->seq);
	if (randstat_cpu_is_exact(cpu)) {
		randstat_fetch_exact(cpu, rc->exact_base);
		WRITE_ONCE(rc->state, RS_STATE_EXACT);
	} else {
		WRITE_ONCE(rc->state, RS_STATE_ACTIVE);
	}
	write_seqcount_end(&rc->seq);
	if (rc->state == RS_STATE_EXACT)
		return;

	rc->last_steal = kcpustat_this_cpu->cpustat[CPUTIME_STEAL];
	rc->last_idle_us = get_cpu_idle_time_us(cpu, NULL);
	rc->last_iowait_us = get_cpu_iowait_time_us(cpu, NULL);
	rc->last_iowait = false;
	rc->nohz_idle = false;
	rc->prev_expires = now;
	rc->last_sample = now;
	rc->stop_after = jiffies;
	rc->stop_cost = max(nsecs_to_jiffies(randstat_get_window(RS_LAW_EXPONENTIAL).hi), 1UL);
	hrtimer_start(&rc->timer, ktime_add_ns(now, randstat_next_interval(rc)),
		      HRTIMER_MODE_ABS_PINNED_HARD);
}

/*
 * Stop this CPU's sampler, whatever it was doing, and charge what is
 * pending.  Interrupts are off, so the timer, which only runs here, is not
 * running.
 */
static void randstat_stop(struct randstat_cpu *rc, unsigned int cpu)
{
	u64 now[RS_NR_CLASSES], steal;

	write_seqcount_begin(&rc->seq);
	switch (rc->state) {
	case RS_STATE_ACTIVE:
		hrtimer_try_to_cancel(&rc->timer);
		break;
	case RS_STATE_DORMANT:
		steal = kcpustat_this_cpu->cpustat[CPUTIME_STEAL];
		rc->last_steal += randstat_dormant_charge(rc, &rc->c, ktime_get(),
							  get_cpu_idle_time_us(cpu, NULL),
							  get_cpu_iowait_time_us(cpu, NULL),
							  steal);
		break;
	case RS_STATE_EXACT:
		randstat_fetch_exact(cpu, now);
		randstat_exact_charge(&rc->c, rc->exact_base, now);
		break;
	}
	WRITE_ONCE(rc->state, RS_STATE_OFF);
	rc->pending_sampled_ns = 0;
	write_seqcount_end(&rc->seq);
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
 *
 * Return: its state (enum randstat_state).
 */
int randstat_read_cpu(unsigned int cpu, struct randstat_counters *c)
{
	struct randstat_cpu *rc = per_cpu_ptr(&randstat_cpus, cpu);
	u64 base[RS_NR_CLASSES], now[RS_NR_CLASSES];
	u64 idle_us = 0, iowait_us = 0, steal = 0;
	ktime_t t = 0;
	unsigned int seq;
	int state;

	do {
		seq = read_seqcount_begin(&rc->seq);
		*c = rc->c;
		state = READ_ONCE(rc->state);
		if (state == RS_STATE_DORMANT) {
			t = ktime_get();
			idle_us = get_cpu_idle_time_us(cpu, NULL);
			iowait_us = get_cpu_iowait_time_us(cpu, NULL);
			steal = kcpustat_cpu(cpu).cpustat[CPUTIME_STEAL];
		} else if (state == RS_STATE_EXACT) {
			memcpy(base, rc->exact_base, sizeof(base));
			randstat_fetch_exact(cpu, now);
		}
	} while (read_seqcount_retry(&rc->seq, seq));

	if (state == RS_STATE_DORMANT)
		randstat_dormant_charge(rc, c, t, idle_us, iowait_us, steal);
	else if (state == RS_STATE_EXACT)
		randstat_exact_charge(c, base, now);
	return state;
}

/* Interrupts are off, so this CPU's timer cannot run meanwhile. */
static void randstat_reset_cpu(struct randstat_cpu *rc, unsigned int cpu)
{
	write_seqcount_begin(&rc->seq);
	memset(&rc->c, 0, sizeof(rc->c));
	if (rc->state == RS_STATE_DORMANT) {
		rc->dormant_since = ktime_get();
		rc->dormant_idle_us = get_cpu_idle_time_us(cpu, NULL);
		rc->dormant_iowait_us = get_cpu_iowait_time_us(cpu, NULL);
		rc->pending_sampled_ns = 0;
		rc->last_steal = kcpustat_this_cpu->cpustat[CPUTIME_STEAL];
	} else if (rc->state == RS_STATE_EXACT) {
		randstat_fetch_exact(cpu, rc->exact_base);
	}
	write_seqcount_end(&rc->seq);
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
