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
 *   ACTIVE -> DORMANT           a sample finds the CPU idle, or the CPU
 *                               enters an idle state (tickless)
 *   DORMANT -> ACTIVE           the CPU leaves idle for work
 *   any -> OFF                  the CPU goes offline, or its mode changes
 *   any -> itself               reset: the counters zeroed, the state kept
 *
 * randstat_acct_enter() (estimator.c, pure) alone moves a CPU from one
 * state to another: it charges what the outgoing state owes
 * (randstat_charge_pending(): a dormant span from the kernel's exact
 * NO_HZ sleep times, an exact CPU's growth of the kernel's figures) and
 * keeps the kernel's figures the incoming state will charge from.
 * randstat_enter() calls it in one write section of the CPU's seqcount,
 * for the probes, hotplug, mode changes and reset; the timer's sample
 * that finds the CPU idle stops it through randstat_acct_sample().
 * A reader copies the counters, the state and those figures in one read
 * section and charges what is pending on its copy with the same pure
 * function, so what it shows is what the CPU would charge.
 *
 * Tickless: a sample that finds the CPU idle stops the timer (the CPU is
 * dormant), and the probes in tickless.c stop it at idle entries and
 * resume it when the CPU leaves idle, with the law's own continuation
 * (randstat_draw_resume()), so an idle CPU takes no interrupt of
 * randstat's.
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
#include <linux/lockdep.h>
#include <linux/mutex.h>
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

#include "params.h"
#include "sampler.h"
#include "sampler_cpu.h"

#define CREATE_TRACE_POINTS
#include "randstat_trace.h"

DEFINE_PER_CPU(struct randstat_cpu, randstat_cpus);
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
 * The kernel's figures for @cpu now, into @k, its NO_HZ idle and iowait
 * sleep times (us, (u64)-1 without NO_HZ) already read.  With @all, every
 * class as fs/proc/stat.c computes them (an exact CPU); else only what a
 * dormant span is charged from: the NO_HZ sleep times, steal and softirq,
 * read from kcpustat directly (this runs in the sampler's hardirq, where
 * kcpustat_cpu_fetch()'s vtime retry loop has no place).  Steal is the
 * kernel's total: randstat_enter() keeps its own.
 */
static void randstat_kstat_fill(unsigned int cpu, bool all, u64 idle,
				u64 iowait, struct randstat_kstat *k)
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
	int i;

	memset(k, 0, sizeof(*k));
	k->t_ns = ktime_get_ns();
	if (all) {
		kcpustat_cpu_fetch(&kcs, cpu);
		for (i = 0; i < RS_NR_CLASSES; i++)
			k->ns[i] = kcs.cpustat[from[i]];
	} else {
		/*
		 * softirq only where the kernel measures it
		 * (randstat_charge_dormant()); without IRQ_TIME_ACCOUNTING
		 * it is the tick's samples, in whole ticks.  Idle and
		 * iowait are the NO_HZ sleep times, below.
		 */
		k->ns[RS_STEAL] =
			READ_ONCE(kcpustat_cpu(cpu).cpustat[CPUTIME_STEAL]);
		if (IS_ENABLED(CONFIG_IRQ_TIME_ACCOUNTING))
			k->ns[RS_SOFTIRQ] =
				READ_ONCE(kcpustat_cpu(cpu).cpustat[CPUTIME_SOFTIRQ]);
	}
	if (idle != (u64)-1)
		k->ns[RS_IDLE] = idle * NSEC_PER_USEC;
	if (iowait != (u64)-1)
		k->ns[RS_IOWAIT] = iowait * NSEC_PER_USEC;
}

/* The same, the NO_HZ sleep times read here. */
static void randstat_kstat_read(unsigned int cpu, bool all,
				struct randstat_kstat *k)
{
	randstat_kstat_fill(cpu, all, get_cpu_idle_time_us(cpu, NULL),
			    get_cpu_iowait_time_us(cpu, NULL), k);
}

/**
 * randstat_enter() - move a CPU's sampler from its state to @to
 * @rc: the CPU's sampler
 * @cpu: the CPU
 * @to: the new state (the same one, with @zero, for a reset)
 * @zero: zero the counters instead of charging what is pending
 *
 * The one place a sampler's state changes, but a sample's own stop
 * (randstat_timer_fn()).  What the outgoing state owes is charged and the
 * incoming state's figures are taken (randstat_acct_enter()), in one
 * write section, so a reader sees either the old state with its pending
 * charge or the new one.  The caller starts or stops the timer.
 * Interrupts are off, on @cpu itself, or @cpu is offline.
 */
void randstat_enter(struct randstat_cpu *rc, unsigned int cpu,
		    enum randstat_state to, bool zero)
{
	struct randstat_kstat now;

	randstat_kstat_read(cpu, to == RS_STATE_EXACT ||
			    rc->acct.state == RS_STATE_EXACT, &now);
	write_seqcount_begin(&rc->seq);
	randstat_acct_enter(&rc->acct, to, &now, zero);
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
bool randstat_may_doze(struct randstat_cpu *rc, enum randstat_law law)
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
 * Start the timer, on its CPU: the one place it is started, but for its
 * own restarts.  The first sample is the law's continuation from the last
 * one (randstat_draw_resume(); from a fresh start, a fresh draw), so a
 * resumed CPU is sampled as if it had never stopped.  @now is where
 * randstat_enter() began the sampled time.
 */
static void randstat_arm(struct randstat_cpu *rc, ktime_t now)
{
	enum randstat_law law;
	struct randstat_window w = randstat_get_law(&law);
	u64 delay;

	lockdep_assert_irqs_disabled();
	if (law == RS_LAW_EXPONENTIAL)
		delay = randstat_draw_resume(&rc->rng, w,
					     randstat_ns_since(now, rc->last_sample));
	else
		delay = randstat_draw_interval(&rc->rng, law, w);
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
	u64 steal = READ_ONCE(kcpustat_this_cpu->cpustat[CPUTIME_STEAL]);
	struct randstat_kstat k;
	enum randstat_law law;
	struct randstat_window w = randstat_get_law(&law);
	/* Only a sample that finds the idle task idle stops the sampler. */
	bool doze = (cls == RS_IDLE || cls == RS_IOWAIT) &&
		    randstat_may_doze(rc, law);
	u64 last, next = ktime_to_ns(expires), nsamples, weight;

	randstat_take_rekey(rc);
	nsamples = randstat_advance(&rc->rng, law, w, ktime_to_ns(now),
				    &last, &next);
	/*
	 * The sample found the idle task idle, so randstat_sample_iowait()
	 * has just read the NO_HZ sleep times (randstat_may_doze() wants
	 * them there): the dormant span charges from them.
	 */
	if (doze)
		randstat_kstat_fill(cpu, false, rc->last_idle_us,
				    rc->last_iowait_us, &k);

	write_seqcount_begin(&rc->seq);
	weight = randstat_acct_sample(&rc->acct, cls, nsamples, last,
				      ktime_to_ns(now), steal,
				      doze ? &k : NULL);
	randstat_record_timing(&rc->acct.c, &rc->acct.hist,
			       local_clock() - start,
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
 * Resume sampling on this CPU, dormant until now.  The span's idle and
 * iowait may yet lose a steal backlog (randstat_charge_backlog()).
 */
void randstat_wake(struct randstat_cpu *rc)
{
	lockdep_assert_irqs_disabled();
	randstat_enter(rc, smp_processor_id(), RS_STATE_ACTIVE, false);
	randstat_arm(rc, ns_to_ktime(rc->acct.base.t_ns));
}

/*
 * Start this CPU in the mode the exact_cpus parameter gives it, on the
 * CPU; its counters are kept.
 */
static void randstat_start(struct randstat_cpu *rc, unsigned int cpu)
{
	lockdep_assert_irqs_disabled();
	if (randstat_cpu_is_exact(cpu)) {
		randstat_enter(rc, cpu, RS_STATE_EXACT, false);
		return;
	}
	rc->last_idle_us = get_cpu_idle_time_us(cpu, NULL);
	rc->last_iowait_us = get_cpu_iowait_time_us(cpu, NULL);
	rc->last_iowait = false;
	rc->nohz_idle = false;
	rc->stop_from = RANDSTAT_STOP_FRESH(jiffies);
	randstat_enter(rc, cpu, RS_STATE_ACTIVE, false);
	rc->last_sample = ns_to_ktime(rc->acct.base.t_ns);
	randstat_arm(rc, rc->last_sample);
}

/*
 * Stop this CPU's sampler, whatever it was doing, and charge what is
 * pending.  With interrupts off the timer, which only runs here, is not
 * running; the caller waits for it with hrtimer_cancel() if it may be.
 */
static void randstat_stop(struct randstat_cpu *rc, unsigned int cpu)
{
	lockdep_assert_irqs_disabled();
	if (rc->acct.state == RS_STATE_ACTIVE)
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

/*
 * Held while an online CPU may enter or leave the exact mode otherwise
 * than by hotplug (randstat_apply_modes()), and by randstat_reset(), which
 * zeroes an exact CPU's counters from another CPU.
 */
static DEFINE_MUTEX(randstat_mode_lock);

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
	mutex_lock(&randstat_mode_lock);
	for_each_online_cpu(cpu) {
		rc = per_cpu_ptr(&randstat_cpus, cpu);
		exact = READ_ONCE(rc->acct.state) == RS_STATE_EXACT;
		if (exact != randstat_cpu_is_exact(cpu))
			work_on_cpu(cpu, randstat_restart_fn, NULL);
	}
	mutex_unlock(&randstat_mode_lock);
	cpus_read_unlock();
}

int randstat_sampler_start(void)
{
	int cpu, ret;

	for_each_possible_cpu(cpu)
		seqcount_init(&per_cpu_ptr(&randstat_cpus, cpu)->seq);

	/* The probes first: they do nothing until a CPU is dormant. */
	ret = randstat_tickless_start();
	if (ret)
		return ret;
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "randstat:online",
				randstat_cpu_online, randstat_cpu_offline);
	if (ret < 0) {
		randstat_tickless_stop();
		return ret;
	}
	randstat_hp_state = ret;
	queue_delayed_work(system_power_efficient_wq, &randstat_rekey_work,
			   RANDSTAT_REKEY_PERIOD);
	return 0;
}

void randstat_sampler_stop(void)
{
	cancel_delayed_work_sync(&randstat_rekey_work);
	cpuhp_remove_state(randstat_hp_state);
	randstat_tickless_stop();
}

/**
 * randstat_read_cpu() - one CPU's counters, as of now
 * @cpu: the CPU
 * @c: where to copy them
 *
 * A consistent copy, with what is pending charged in it: a dormant CPU's
 * span up to now (but its rest, randstat_charge_pending()), an exact
 * CPU's growth of the kernel's figures.  So a reader sees an idle CPU's
 * idle time grow while it takes no interrupt.  Everything the pending
 * charge needs is copied in the read section, and charged by the
 * function the CPU itself charges with.  Nothing of the CPU's is written.
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
		*c = rc->acct.c;
		state = READ_ONCE(rc->acct.state);
		base = rc->acct.base;
		if (state == RS_STATE_DORMANT || state == RS_STATE_EXACT)
			randstat_kstat_read(cpu, state == RS_STATE_EXACT, &now);
	} while (read_seqcount_retry(&rc->seq, seq));

	if (state == RS_STATE_DORMANT || state == RS_STATE_EXACT)
		randstat_charge_pending(c, state, &base, &now, true);
	return state;
}

/**
 * randstat_read_hist() - one CPU's histograms, a consistent copy
 * @cpu: the CPU
 * @h: where to copy them
 */
void randstat_read_hist(unsigned int cpu, struct randstat_hists *h)
{
	struct randstat_cpu *rc = per_cpu_ptr(&randstat_cpus, cpu);
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&rc->seq);
		*h = rc->acct.hist;
	} while (read_seqcount_retry(&rc->seq, seq));
}

/*
 * Zero one CPU's counters, its state kept: on the CPU, whose timer cannot
 * run meanwhile, or for a CPU that writes none of its own: an offline one,
 * or an exact one (no timer, no probe; only a mode change or hotplug moves
 * it, which randstat_mode_lock and the hotplug lock hold off).
 */
static void randstat_reset_cpu(struct randstat_cpu *rc, unsigned int cpu)
{
	lockdep_assert_irqs_disabled();
	randstat_enter(rc, cpu, rc->acct.state, true);
}

static void randstat_reset_this_cpu(void *unused)
{
	randstat_reset_cpu(this_cpu_ptr(&randstat_cpus), smp_processor_id());
}

/* Does @cpu zero its own counters (it samples), or does the caller? */
static bool randstat_resets_itself(int cpu, void *unused)
{
	return cpu_online(cpu) &&
	       READ_ONCE(per_cpu_ptr(&randstat_cpus, cpu)->acct.state) !=
	       RS_STATE_EXACT;
}

/**
 * randstat_reset() - zero every CPU's counters
 *
 * A sampling CPU (active or dormant) zeroes its own in an IPI, so its
 * counters keep a single writer.  An offline or exact CPU writes none of
 * its own: its counters are zeroed here, from process context, so a
 * nohz_full CPU takes no interrupt for a reset.  The hotplug lock and
 * randstat_mode_lock keep each CPU in its set meanwhile.
 */
void randstat_reset(void)
{
	unsigned long flags;
	int cpu;

	cpus_read_lock();
	mutex_lock(&randstat_mode_lock);
	on_each_cpu_cond(randstat_resets_itself, randstat_reset_this_cpu,
			 NULL, true);
	for_each_possible_cpu(cpu) {
		if (randstat_resets_itself(cpu, NULL))
			continue;
		local_irq_save(flags);
		randstat_reset_cpu(per_cpu_ptr(&randstat_cpus, cpu), cpu);
		local_irq_restore(flags);
	}
	mutex_unlock(&randstat_mode_lock);
	cpus_read_unlock();
}
