// SPDX-License-Identifier: GPL-2.0
/*
 * randstat: the estimator's arithmetic.
 *
 * Class k is charged (n_k / n) T_s + X_k: its share of the n samples the
 * CPU took, times the time T_s those samples cover (less the kernel's
 * steal time in it: the paper's p_k T_e), plus X_k, the time charged to
 * it exactly where the kernel's own accounting is exact and nothing was
 * sampled: steal, the idle and iowait of a dormant idle CPU, and every
 * class on a CPU served from the kernel's exact (nohz_full) accounting.
 * Every sample weighs the same.  It does not charge each sample the
 * interval before it: a process that runs right after samples makes the
 * intervals that end in its own samples short, and would pay little
 * (Documentation/design.rst, "Threat model").  With sample times drawn
 * independently of what the CPU runs, n_k / n is an unbiased estimate of
 * class k's share of T_s, its error falling as 1/sqrt(n); with the
 * exponential law this holds even against a process that knows every
 * past sample time (PASTA).
 */
#include <linux/build_bug.h>
#include <linux/cpuidle.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/param.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "randstat.h"

/**
 * randstat_charge() - count samples of one class
 * @c: this CPU's counters
 * @cls: the samples' class (randstat_classify())
 * @nsamples: how many: one, plus the expiries that passed while the CPU
 *	could not take the interrupt, all of the class seen when it came
 * @interval_ns: time from the last expiry counted before to the last one
 *	counted now
 * @steal_ns: steal time the kernel accounted since the previous sample and
 *	not yet charged
 *
 * Guest samples are also counted as user (guest_nice as nice), as
 * /proc/stat does.
 *
 * Return: the steal time charged, at most @interval_ns; the caller carries
 * the rest over to the next sample.
 */
u64 randstat_charge(struct randstat_counters *c, enum randstat_class cls,
		    u64 nsamples, u64 interval_ns, u64 steal_ns)
{
	u64 steal = min(steal_ns, interval_ns);

	c->elapsed_ns += interval_ns;
	c->sampled_ns += interval_ns - steal;
	c->exact_ns[RS_STEAL] += steal;
	c->shown_ns[RS_STEAL] += steal;
	c->samples[cls] += nsamples;
	c->nsamples += nsamples;
	if (cls == RS_GUEST)
		c->samples[RS_USER] += nsamples;
	else if (cls == RS_GUEST_NICE)
		c->samples[RS_NICE] += nsamples;
	randstat_show_sampled(c, cls == RS_GUEST ? RS_USER :
			      cls == RS_GUEST_NICE ? RS_NICE : cls,
			      interval_ns - steal);
	return steal;
}

/**
 * randstat_charge_span() - sampled time that no sample has closed yet
 * @c: this CPU's counters
 * @span_ns: the time
 *
 * When a CPU stops sampling other than at a sample (at an idle entry, or
 * going offline), the time since its last sample is sampled time: the
 * samples before it, whose law's continuation resumes later, cover it.
 */
void randstat_charge_span(struct randstat_counters *c, u64 span_ns)
{
	c->elapsed_ns += span_ns;
	c->sampled_ns += span_ns;
	randstat_show_sampled(c, -1, span_ns);
}

/**
 * randstat_stop_budget() - may a CPU stop its sampler at an idle entry?
 * @stop_from: in: the budget, as the first time in jiffies at which a stop
 *	is allowed (a generic cell rate algorithm); out: moved on by @cost
 *	if the stop is allowed
 * @now: jiffies
 * @cost: the mean interval in jiffies, at least 1
 *
 * A stop is allowed from @stop_from on, and moves it on by @cost, from no
 * earlier than RANDSTAT_STOP_BURST stops before now: a burst of that many
 * and one more, then one per @cost.  The budget is kept as the time it
 * allows a stop, so that the idle-entry probe turns most entries away with
 * one compare (randstat_stop_early()).  Compared as jiffies are, so it
 * holds across their wrap.
 *
 * Return: true if the stop is allowed.
 */
bool randstat_stop_budget(unsigned long *stop_from, unsigned long now,
			  unsigned long cost)
{
	unsigned long floor = now - RANDSTAT_STOP_BURST * cost;

	if (randstat_stop_early(*stop_from, now))
		return false;
	if (time_before(*stop_from, floor))
		*stop_from = floor;
	*stop_from += cost;
	return true;
}

/**
 * randstat_idle_may_cancel() - may the idle-entry probe cancel the timer?
 * @drv: the CPU's cpuidle driver, or NULL (none: the arch's default idle)
 * @state: the index of the idle state being entered (power:cpu_idle)
 * @default_broadcast: the arch's default idle hands the CPU to the
 *	broadcast device (randstat_default_idle_broadcast())
 *
 * power:cpu_idle fires after tick_broadcast_enter(): on a state that stops
 * the local timer (CPUIDLE_FLAG_TIMER_STOP: arm64's local-timer-stop PSCI
 * states, x86 C-states without ARAT) the CPU's clock event device is
 * already shut down there, and cancelling an hrtimer would reprogram it
 * (to KTIME_MAX if that timer was the last: ONESHOT_STOPPED from
 * SHUTDOWN, which __clockevents_switch_state() warns of in the idle path;
 * under panic_on_warn, a panic).  Such a state keeps the timer; its next
 * sample comes through the broadcast device and stops the sampler, as
 * any sample in idle does.  A state the driver does not list (or no
 * driver) is the arch's default idle, default_idle_call(): since 6.9 it
 * enters the broadcast before power:cpu_idle where the arch needs it
 * (cond_tick_broadcast_enter()), so it keeps the timer then too.
 *
 * Return: false for a state that stops the local timer.
 */
bool randstat_idle_may_cancel(const struct cpuidle_driver *drv,
			      unsigned int state, bool default_broadcast)
{
	if (!drv || state >= (unsigned int)drv->state_count)
		return !default_broadcast;
	return !(drv->states[state].flags & CPUIDLE_FLAG_TIMER_STOP);
}

/**
 * randstat_charge_backlog() - steal that belongs to the last dormant span
 * @c: this CPU's counters
 * @steal_ns: steal time the kernel accounted since the last charge and not
 *	yet charged
 * @credit: in: the idle and iowait time the last dormant span was charged
 *	and that steal has not yet been taken from; out: what is left (the
 *	caller clears it once the backlog has come)
 *
 * With its tick stopped, an idle CPU's steal time is accounted only when
 * it leaves idle (tick_nohz_idle_exit()), after randstat charged the span
 * from the NO_HZ sleep times, which count stolen time as sleep.  That
 * backlog is the span's: it is taken from the span's idle and iowait, as
 * /proc/stat takes it from idle, not from the busy time that follows,
 * which it would otherwise swallow (a guest's user time shown as steal).
 *
 * Return: the steal time charged here; the caller charges the rest, if
 * any, against the samples' interval (randstat_charge()).
 */
u64 randstat_charge_backlog(struct randstat_counters *c, u64 steal_ns,
			    u64 *credit)
{
	u64 back = min3(steal_ns, *credit,
			c->exact_ns[RS_IDLE] + c->exact_ns[RS_IOWAIT]);
	u64 from_idle = min(back, c->exact_ns[RS_IDLE]);

	c->exact_ns[RS_IDLE] -= from_idle;
	c->exact_ns[RS_IOWAIT] -= back - from_idle;
	c->exact_ns[RS_STEAL] += back;
	/* Shown idle and iowait never fall: the next sampled time pays. */
	c->shown_ns[RS_STEAL] += back;
	c->shown_ahead_ns += back;
	*credit -= back;
	return back;
}

/**
 * randstat_charge_dormant() - charge a span the sampler slept through
 * @c: this CPU's counters
 * @span_ns: the span: from the last sample, which found the CPU idle, to
 *	now (the sampler resumes, or a reader looks)
 * @idle_ns: growth of the kernel's exact idle sleep time in the span
 * @iowait_ns: growth of the kernel's exact iowait sleep time in the span
 * @steal_ns: steal time the kernel accounted and not yet charged
 * @softirq_ns: growth of the kernel's exact softirq time in the span
 *
 * The CPU ran nothing but its idle task in the span, and the interrupts
 * that woke it.  Steal, up to the span, is steal; the NO_HZ sleep times
 * are idle and iowait, as /proc/stat shows them; the rest is the time the
 * sleeping CPU spent serving interrupts (hardirqs, and the softirqs they
 * ran on exit), which NO_HZ does not count as sleep and the stopped tick
 * does not see.  Where the kernel measures interrupt time exactly
 * (CONFIG_IRQ_TIME_ACCOUNTING; the caller passes 0 elsewhere, where
 * kcpustat's irq and softirq are the tick's samples), its softirq time,
 * up to the rest, is softirq, so that the same load shows in the same
 * columns whether the CPU was sampled or dormant; the rest of the rest
 * (hardirqs, and entering and leaving idle) is irq.  Idle and iowait
 * together grow as the span does, but the sleep so far can move between
 * them (randstat_keep_shown() keeps what a reader sees from falling).
 * randstat_dormant_busy() keeps the rest small.
 *
 * Return: the steal time charged; the caller carries the rest over.
 */
u64 randstat_charge_dormant(struct randstat_counters *c, u64 span_ns,
			    u64 idle_ns, u64 iowait_ns, u64 steal_ns,
			    u64 softirq_ns)
{
	u64 steal = min(steal_ns, span_ns);
	u64 iowait = min(iowait_ns, span_ns - steal);
	u64 idle = min(idle_ns, span_ns - steal - iowait);
	u64 rest = span_ns - steal - iowait - idle;
	u64 soft = min(softirq_ns, rest);

	c->elapsed_ns += span_ns;
	c->exact_ns[RS_STEAL] += steal;
	c->exact_ns[RS_IOWAIT] += iowait;
	c->exact_ns[RS_IDLE] += idle;
	c->exact_ns[RS_SOFTIRQ] += soft;
	c->exact_ns[RS_IRQ] += rest - soft;
	c->shown_ns[RS_STEAL] += steal;
	c->shown_ns[RS_IOWAIT] += iowait;
	c->shown_ns[RS_IDLE] += idle;
	c->shown_ns[RS_SOFTIRQ] += soft;
	c->shown_ns[RS_IRQ] += rest - soft;
	return steal;
}

/**
 * randstat_charge_exact() - charge the kernel's exact figures
 * @c: this CPU's counters
 * @ns: the growth of each class of the kernel's own accounting (guest
 *	inside user, guest_nice inside nice, as in /proc/stat)
 *
 * For a CPU that is not sampled because the kernel's accounting is exact
 * there (nohz_full, vtime).
 */
void randstat_charge_exact(struct randstat_counters *c,
			   const u64 ns[RS_NR_CLASSES])
{
	int k;

	for (k = 0; k < RS_NR_CLASSES; k++) {
		c->exact_ns[k] += ns[k];
		c->shown_ns[k] += ns[k];
		if (k < RS_NR_TIME_CLASSES)
			c->elapsed_ns += ns[k];
	}
}

/**
 * randstat_growth() - how much a kernel counter grew from @a to @b
 * @a: the earlier reading
 * @b: the later reading
 *
 * Every difference of two readings of a kernel counter goes through here,
 * so a counter that went back (a reset raced with a read) charges nothing
 * rather than wrapping to 2^64.
 *
 * Return: @b - @a, or 0 if @b < @a.
 */
u64 randstat_growth(u64 a, u64 b)
{
	return b > a ? b - a : 0;
}

/*
 * The growth of the NO_HZ sleep times, into @d's idle and iowait: their
 * sum's growth, iowait's share of it up to that.  Taken apart, a sleep in
 * progress that moved from iowait to idle since @from would count twice:
 * nothing off iowait (its fall charges nothing), all of it onto idle.
 */
static void randstat_sleep_growth(const struct randstat_kstat *from,
				  const struct randstat_kstat *now,
				  u64 d[RS_NR_CLASSES])
{
	u64 sleep = randstat_growth(from->ns[RS_IDLE] + from->ns[RS_IOWAIT],
				    now->ns[RS_IDLE] + now->ns[RS_IOWAIT]);

	d[RS_IOWAIT] = min(randstat_growth(from->ns[RS_IOWAIT],
					   now->ns[RS_IOWAIT]), sleep);
	d[RS_IDLE] = sleep - d[RS_IOWAIT];
}

/**
 * randstat_charge_pending() - charge what a state owes up to now
 * @c: the CPU's counters, or a reader's copy of them
 * @state: the state (enum randstat_state)
 * @from: the kernel's figures when the state began (and, for steal, what
 *	has been charged so far)
 * @now: the kernel's figures now
 * @reader: a reader's look, not the CPU's own charge
 *
 * A dormant CPU owes its span since @from, charged from the growth of the
 * NO_HZ sleep times, steal and softirq (randstat_charge_dormant());
 * an exact CPU owes the growth of every class (randstat_charge_exact()).
 * An active or offline CPU owes nothing here: its samples are charged as
 * they come.  The same function serves the CPU when it leaves the state
 * and a reader that looks while it is in it, from figures the reader
 * copied in one read section, so the two agree.  Figures that went back
 * charge nothing.
 *
 * A reader's look at a dormant CPU leaves out the span's rest (the time
 * neither asleep nor stolen, charged as irq): the sleep times grow in
 * whole microseconds, so the rest at a later look can be up to one below
 * an earlier one's, and a column shown would fall.  The CPU charges it
 * when it leaves the state.
 *
 * Return: the steal time charged (the caller moves @from's steal up by it).
 */
u64 randstat_charge_pending(struct randstat_counters *c,
			    enum randstat_state state,
			    const struct randstat_kstat *from,
			    const struct randstat_kstat *now, bool reader)
{
	u64 d[RS_NR_CLASSES], span;
	int k;

	switch (state) {
	case RS_STATE_DORMANT:
		randstat_sleep_growth(from, now, d);
		d[RS_STEAL] = randstat_growth(from->ns[RS_STEAL],
					      now->ns[RS_STEAL]);
		d[RS_SOFTIRQ] = randstat_growth(from->ns[RS_SOFTIRQ],
						now->ns[RS_SOFTIRQ]);
		span = randstat_growth(from->t_ns, now->t_ns);
		if (reader)
			span = min(span, d[RS_IDLE] + d[RS_IOWAIT] +
				   d[RS_STEAL] + d[RS_SOFTIRQ]);
		return randstat_charge_dormant(c, span, d[RS_IDLE],
					       d[RS_IOWAIT], d[RS_STEAL],
					       d[RS_SOFTIRQ]);
	case RS_STATE_EXACT:
		for (k = 0; k < RS_NR_CLASSES; k++)
			d[k] = randstat_growth(from->ns[k], now->ns[k]);
		randstat_sleep_growth(from, now, d);
		randstat_charge_exact(c, d);
		return d[RS_STEAL];
	default:
		return 0;
	}
}

/* The exact idle and iowait charged so far. */
static u64 randstat_asleep_ns(const struct randstat_counters *c)
{
	return c->exact_ns[RS_IDLE] + c->exact_ns[RS_IOWAIT];
}

/**
 * randstat_acct_enter() - move a CPU's accounting from its state to @to
 * @a: the CPU's accounting
 * @to: the new state (the same one, with @zero, for a reset)
 * @now: the kernel's figures now (for steal: the kernel's total)
 * @zero: zero the counters instead of charging what is pending (a reset)
 *
 * What the outgoing state owes is charged (randstat_charge_pending()),
 * and a sampling CPU that stops owes the time since its last sample as
 * sampled time (randstat_charge_span()).  The incoming state charges from
 * @now: its figures become @a->base, and sampling (re)started, or reset,
 * counts its time from @now.  A CPU that resumes sampling after a dormant
 * span keeps that span's exact idle and iowait as the credit a steal
 * backlog may take.  The caller holds the CPU's write section.
 */
void randstat_acct_enter(struct randstat_acct *a, enum randstat_state to,
			 const struct randstat_kstat *now, bool zero)
{
	u64 steal = a->base.ns[RS_STEAL], asleep = randstat_asleep_ns(&a->c);

	if (zero) {
		memset(&a->c, 0, sizeof(a->c));
		memset(&a->hist, 0, sizeof(a->hist));
		asleep = 0;
	}
	/* From a reset or from off, nothing before now is owed. */
	if (zero || a->state == RS_STATE_OFF)
		steal = now->ns[RS_STEAL];
	else
		steal += randstat_charge_pending(&a->c, a->state, &a->base,
						 now, false);
	/* Leaving sampling: the time since the last sample is sampled. */
	if (!zero && a->state == RS_STATE_ACTIVE && to != RS_STATE_ACTIVE)
		randstat_charge_span(&a->c,
				     randstat_growth(a->prev_ns, now->t_ns));
	if (zero || (to == RS_STATE_ACTIVE && a->state != RS_STATE_ACTIVE)) {
		a->prev_ns = now->t_ns;
		a->steal_credit = randstat_asleep_ns(&a->c) - asleep;
	}
	a->base = *now;
	a->base.ns[RS_STEAL] = steal;
	if (to == RS_STATE_DORMANT && a->state != RS_STATE_DORMANT) {
		a->c.dormancies++;
		memset(&a->busy, 0, sizeof(a->busy));
	}
	WRITE_ONCE(a->state, to);
}

/**
 * randstat_acct_sample() - charge a sample, and stop sampling if it dozes
 * @a: the CPU's accounting, sampling
 * @cls: the class the sample found
 * @nsamples: the expiries it stands for (randstat_advance())
 * @last_ns: the last of them
 * @now_ns: when the interrupt came
 * @steal_ns: the kernel's steal total now
 * @doze: NULL to go on sampling; else the kernel's figures at the
 *	interrupt, and the CPU goes dormant
 *
 * The samples share the interval since the previous expiry, with a
 * dormant span's steal backlog first and this interval's steal taken out
 * (randstat_charge()).  A sample that dozes ends the sampled time at
 * @now_ns, not at @last_ns: every expiry up to @now_ns was counted, so a
 * late interrupt's wait after @last_ns is time the samples watched, and
 * ending the sampled time at @last_ns would keep their count but drop
 * that time (an excess of lateness / mean samples per stop).  The span
 * charged exactly starts at @now_ns.  The caller holds the CPU's write
 * section.
 *
 * Return: the interval the samples share (the trace event's weight).
 */
u64 randstat_acct_sample(struct randstat_acct *a, enum randstat_class cls,
			 u64 nsamples, u64 last_ns, u64 now_ns, u64 steal_ns,
			 const struct randstat_kstat *doze)
{
	u64 steal = randstat_growth(a->base.ns[RS_STEAL], steal_ns);
	u64 weight = randstat_growth(a->prev_ns, last_ns), back = 0;
	struct randstat_kstat k;

	if (unlikely(a->steal_credit)) {
		back = randstat_charge_backlog(&a->c, steal, &a->steal_credit);
		a->steal_credit = 0;
	}
	a->base.ns[RS_STEAL] += back + randstat_charge(&a->c, cls, nsamples,
						       weight, steal - back);
	a->c.overruns += nsamples - 1;
	a->prev_ns = last_ns;
	if (doze) {
		k = *doze;
		k.t_ns = now_ns;
		randstat_acct_enter(a, RS_STATE_DORMANT, &k, false);
	}
	return weight;
}

/**
 * randstat_dormant_busy() - should a dormant CPU resume sampling?
 * @span_ns: the time since the CPU first looked, at the end of the wakeup
 *	in which it went dormant
 * @asleep_ns: the part of it the kernel counts as idle or iowait sleep
 *
 * A dormant CPU that leaves its idle state only to serve interrupts stays
 * dormant, and the time those interrupts take is charged as irq
 * (randstat_charge_dormant()).  If they take more than
 * 1/2^RANDSTAT_BUSY_SHIFT of the span, the CPU is no longer idle in any
 * useful sense, and it is sampled again: what the interrupts cost is then
 * split between irq and softirq by the samples, and work they wake is
 * seen.
 *
 * Return: true if the CPU should resume sampling.
 */
bool randstat_dormant_busy(u64 span_ns, u64 asleep_ns)
{
	u64 busy = span_ns - min(asleep_ns, span_ns);

	return busy > span_ns >> RANDSTAT_BUSY_SHIFT;
}

/**
 * randstat_busy_update() - the busy check over a sliding window
 * @b: the window (all zero when the CPU goes dormant)
 * @now_ns: now
 * @asleep_ns: the CPU's NO_HZ idle and iowait sleep time now
 *
 * Called at each of a dormant CPU's exits from idle that no task caused.
 * The first call opens the window; later ones judge the time since its
 * start with randstat_dormant_busy(), and slide it, so that it covers
 * the last RANDSTAT_BUSY_WINDOW_NS / 2 to RANDSTAT_BUSY_WINDOW_NS: a
 * burst of short wakeups after a long sleep is judged over at least half
 * a window, and a load that starts after an hour asleep is seen within
 * a window, not diluted by the hour.
 *
 * Return: true if the CPU should resume sampling.
 */
bool randstat_busy_update(struct randstat_busy *b, u64 now_ns, u64 asleep_ns)
{
	if (!b->t0) {
		b->t0 = now_ns;
		b->asleep0 = asleep_ns;
		b->t1 = now_ns;
		b->asleep1 = asleep_ns;
		return false;
	}
	if (randstat_dormant_busy(randstat_growth(b->t0, now_ns),
				  randstat_growth(b->asleep0, asleep_ns)))
		return true;
	if (randstat_growth(b->t1, now_ns) >= RANDSTAT_BUSY_WINDOW_NS / 2) {
		b->t0 = b->t1;
		b->asleep0 = b->asleep1;
		b->t1 = now_ns;
		b->asleep1 = asleep_ns;
	}
	return false;
}

/* @hi:@lo / @c for @hi < @c (the quotient fits): long division, bit by bit. */
static u64 randstat_div128(u64 hi, u64 lo, u64 c)
{
	u64 q = 0;
	int i;

	for (i = 63; i >= 0; i--) {
		bool carry = hi >> 63;

		hi = hi << 1 | (lo >> i & 1);
		q <<= 1;
		if (carry || hi >= c) {
			hi -= c;
			q |= 1;
		}
	}
	return q;
}

/**
 * randstat_mul_div() - @a * @b / @c, exactly, for @b <= @c
 * @a: any
 * @b: at most @c
 * @c: not 0
 *
 * With @a = q @c + r, @a @b / @c is q @b + r @b / @c: q @b is at most @a,
 * and r @b, below @c^2, fits in 64 bits whenever @c fits in 32 (a sample
 * count always does), so two divisions do.  Else r @b's 128-bit product
 * is divided bit by bit, exact on every architecture (the generic
 * mul_u64_u64_div_u64() of 6.1 drops precision).  A read divides up to
 * 26 times per CPU: with the bit loop for every one, the division was
 * a third of the cost per CPU of a read of /proc/randstat.
 *
 * Return: the quotient, rounded down (at most @a).
 */
u64 randstat_mul_div(u64 a, u64 b, u64 c)
{
	u64 r, p, q = div64_u64_rem(a, c, &r);
	u64 r0 = lower_32_bits(r), r1 = upper_32_bits(r);
	u64 b0 = lower_32_bits(b), b1 = upper_32_bits(b);
	u64 p00, p01, p10, mid;

	if (!check_mul_overflow(r, b, &p))
		return q * b + div64_u64(p, c);
	p00 = r0 * b0;
	p01 = r0 * b1;
	p10 = r1 * b0;
	mid = (p00 >> 32) + lower_32_bits(p01) + lower_32_bits(p10);
	/* r < c and b <= c: the high half is below c. */
	return q * b + randstat_div128(r1 * b1 + (p01 >> 32) + (p10 >> 32) +
				       (mid >> 32),
				       mid << 32 | lower_32_bits(p00), c);
}

/*
 * randstat_catch_up() - bring times shown up towards their targets
 * @target: per class, where each should be
 * @ns: in: the times shown last; out: the new ones
 * @total: what the eight time columns must sum to (the targets' sum)
 * @fixed: a time class already brought up by the caller, or -1
 *
 * The time added since the last call (@total less what the time columns
 * hold) is shared among the classes below their targets, in proportion
 * to how far below they are; a class above its target waits until its
 * target has caught up, so no column falls.  A @total below what they
 * hold adds nothing.  Guest (guest_nice) time is part of user (nice)
 * time: it is raised towards its target within it.
 */
static void randstat_catch_up(const u64 target[RS_NR_CLASSES],
			      u64 ns[RS_NR_CLASSES], u64 total, int fixed)
{
	u64 below[RS_NR_TIME_CLASSES] = { 0 };
	u64 shown = 0, add, sum_below = 0, added = 0, t;
	int k, most = RS_IDLE;

	for (k = 0; k < RS_NR_TIME_CLASSES; k++)
		shown += ns[k];
	if (shown >= total)
		return;
	for (k = 0; k < RS_NR_TIME_CLASSES; k++) {
		if (k == fixed || target[k] <= ns[k])
			continue;
		below[k] = target[k] - ns[k];
		sum_below += below[k];
		if (below[k] > below[most])
			most = k;
	}
	add = total - shown;
	for (k = 0; sum_below && k < RS_NR_TIME_CLASSES; k++) {
		t = randstat_mul_div(add, below[k], sum_below);
		ns[k] += t;
		added += t;
	}
	/* The targets are rounded down: what rounding leaves goes here. */
	ns[most] += add - added;

	for (k = RS_GUEST; k <= RS_GUEST_NICE; k++) {
		t = min(target[k], ns[k == RS_GUEST ? RS_USER : RS_NICE]);
		ns[k] = max(ns[k], t);
	}
}

/* Class @k's distance below its target, times n (the samples, at least 1). */
static __int128 randstat_deficit(const struct randstat_counters *c, int k,
				 u64 n)
{
	/* |exact - shown|, n and the sampled time below 2^63: 128 bits hold it */
	return (__int128)(s64)(c->exact_ns[k] - c->shown_ns[k]) * (s64)n +
	       (__int128)c->sampled_ns * c->samples[k];
}

/* The class furthest below its target (the lowest on a tie), not steal. */
static noinline int randstat_most_below(const struct randstat_counters *c,
					u64 n)
{
	__int128 d, most_d = 0;
	int k, most = -1;

	for (k = 0; k < RS_NR_TIME_CLASSES; k++) {
		if (k == RS_STEAL || (!c->samples[k] && !c->exact_ns[k]))
			continue;
		d = randstat_deficit(c, k, n);
		if (most < 0 || d > most_d) {
			most = k;
			most_d = d;
		}
	}
	/* Only steal was charged: the time added is sampled, as idle. */
	return most < 0 ? RS_IDLE : most;
}

/**
 * randstat_show_sampled() - bring the times shown up to the time charged
 * @c: the CPU's counters, after a charge of sampled time
 * @cls: the class of the sample just counted, or -1 (no sample: the span
 *	before a stop)
 * @add: the sampled time charged (steal taken out: shown by the caller)
 *
 * The times shown must behave as /proc/stat's do: each column never
 * falls, and the eight time columns sum to the elapsed time.  The targets
 * (n_k / n) T_s + X_k sum to the elapsed time, but a class's target falls
 * when the other classes gain samples.  So at each charge of sampled time
 * the time added goes whole to one class below its target: the sample's
 * own class if it is not above it, else the class furthest below (the
 * largest-deficit rule of apportionment; the lowest class on a tie); a
 * class above its target waits until its target has caught up.  Either
 * way the class taken was not above its target (the furthest below is
 * below: the deficits sum to the time added), so it ends at most the
 * time added above it.  The deficits sum to zero after each call, and
 * each column stays within a few sampling intervals of its target
 * (KUnit's charge_sums_test measures it at every sample).  The sample's
 * own class is taken most of the time, which spares the search: on
 * bench/host's mix of classes the per-sample path costs 1.2 times what it
 * did without times shown (766 instructions against 679), with the
 * search at every sample 1.45 times.
 * Steal is exact throughout: shown as it is charged.
 *
 * The CPU itself calls this, in its write section, so the times shown
 * are a copy of what its own charges left: what a reader sees does not
 * depend on when, or whether, others read.  The deficits are compared
 * multiplied by n, in 128 bits: no division on the sampling path.  A
 * class with neither samples nor exact time is never below its target
 * (zero).  Times shown ahead of the time charged (a steal backlog moved
 * from idle to steal, randstat_charge_backlog()) take the sampled time
 * that follows until the elapsed time has caught up.
 */
void randstat_show_sampled(struct randstat_counters *c, int cls, u64 add)
{
	u64 pay = min(add, c->shown_ahead_ns), n = max(c->nsamples, 1ULL), t;
	int k;

	c->shown_ahead_ns -= pay;
	add -= pay;
	if (!add)
		return;
	if (cls < 0 || randstat_deficit(c, cls, n) < 0)
		cls = randstat_most_below(c, n);
	c->shown_ns[cls] += add;

	/* Guest (guest_nice) time is part of user (nice) time, up to its target. */
	for (k = RS_GUEST; k <= RS_GUEST_NICE; k++) {
		if (!c->samples[k] && !c->exact_ns[k])
			continue;
		t = c->exact_ns[k] + randstat_mul_div(c->sampled_ns,
						      c->samples[k], n);
		t = min(t, c->shown_ns[k == RS_GUEST ? RS_USER : RS_NICE]);
		c->shown_ns[k] = max(c->shown_ns[k], t);
	}
}

/**
 * randstat_keep_shown() - what one reader shows: never below what it
 *	showed before
 * @now: per class, the times to show (the counters' times shown, or
 *	their exact times, as randstat_read_cpu() copied them)
 * @shown: in: what this reader showed last (all zero at first, and after
 *	a reset); out: what it shows now
 *
 * The times a reader copies each only grow but in two cases.  While a CPU
 * sleeps, get_cpu_iowait_time_us() counts the sleep so far as iowait if a
 * task of the CPU waits for I/O at that moment, and
 * get_cpu_idle_time_us() counts it as idle otherwise: when the last such
 * wait ends, or a new one begins, the sleep so far moves from one to the
 * other (fs/proc/stat.c's iowait falls then).  And a steal backlog moves
 * a dormant span's exact idle to steal.  Their sum only grows.  So what a
 * reader shows is brought up to @now as the times shown are
 * (randstat_catch_up()): when every class grew, it is @now exactly (and
 * from zero, @now); else the time added is shared among the classes
 * below @now's, and none falls.  The state is the reader's own (its open
 * file's): no reader changes what another sees.
 */
void randstat_keep_shown(const u64 now[RS_NR_CLASSES],
			 u64 shown[RS_NR_CLASSES])
{
	u64 total = 0;
	int k;

	for (k = 0; k < RS_NR_TIME_CLASSES; k++)
		total += now[k];
	randstat_catch_up(now, shown, total, -1);
}

/**
 * randstat_hist_bucket() - the histogram bucket of a duration
 * @v: the duration, ns
 *
 * Bucket 0 holds [0, 64) ns; above that there are two buckets per power of
 * two, starting at 2^k and 1.5 * 2^k; the last bucket has no upper bound.
 *
 * Return: the bucket index, below RANDSTAT_HIST_BUCKETS.
 */
unsigned int randstat_hist_bucket(u64 v)
{
	unsigned int k, b;

	if (v < (1ULL << RANDSTAT_HIST_MIN_SHIFT))
		return 0;
	k = ilog2(v);
	b = 1 + 2 * (k - RANDSTAT_HIST_MIN_SHIFT) + ((v >> (k - 1)) & 1);
	return min_t(unsigned int, b, RANDSTAT_HIST_BUCKETS - 1);
}

/**
 * randstat_hist_lower_bound() - the smallest duration in a bucket
 * @bucket: the bucket index
 *
 * Return: the lower bound, ns.
 */
u64 randstat_hist_lower_bound(unsigned int bucket)
{
	unsigned int k;

	if (!bucket)
		return 0;
	k = RANDSTAT_HIST_MIN_SHIFT + (bucket - 1) / 2;
	return (bucket - 1) % 2 ? 3ULL << (k - 1) : 1ULL << k;
}

/**
 * randstat_record_timing() - record the sampler's own cost and lateness
 * @c: this CPU's counters
 * @h: this CPU's histograms
 * @cost_ns: time spent in the callback
 * @late_ns: delay from the scheduled expiry to the callback
 */
void randstat_record_timing(struct randstat_counters *c,
			    struct randstat_hists *h, u64 cost_ns, u64 late_ns)
{
	c->cost_ns += cost_ns;
	c->cost_max_ns = max(c->cost_max_ns, cost_ns);
	h->cost[randstat_hist_bucket(cost_ns)]++;
	c->late_ns += late_ns;
	c->late_max_ns = max(c->late_max_ns, late_ns);
	h->late[randstat_hist_bucket(late_ns)]++;
}

/**
 * randstat_elapsed_ns() - the time a CPU's counters cover
 * @c: the counters
 *
 * Return: the time its eight time classes share, sampled and exact.
 */
u64 randstat_elapsed_ns(const struct randstat_counters *c)
{
	return c->elapsed_ns;
}

/**
 * randstat_total_samples() - a CPU's number of samples
 * @c: the counters
 *
 * Return: the sum of the sample counts of the eight time classes.
 */
u64 randstat_total_samples(const struct randstat_counters *c)
{
	return c->nsamples;
}

/**
 * randstat_ns_to_clock_t() - ns to USER_HZ ticks, as nsec_to_clock_t()
 * @ns: the time, ns
 *
 * nsec_to_clock_t() is not exported; this is its arithmetic for the usual
 * case where USER_HZ divides NSEC_PER_SEC, and it is exact up to U64_MAX.
 *
 * Return: @ns in USER_HZ units, rounded down.
 */
u64 randstat_ns_to_clock_t(u64 ns)
{
	BUILD_BUG_ON(NSEC_PER_SEC % USER_HZ);
	return div_u64(ns, NSEC_PER_SEC / USER_HZ);
}
