/* SPDX-License-Identifier: GPL-2.0 */
/*
 * randstat: one CPU's sampler, shared by the sampler (sampler.c: the
 * timer, the state machine, hotplug, readers) and its tickless probes
 * (tickless.c).  Private to those two.
 */
#ifndef _RANDSTAT_SAMPLER_CPU_H
#define _RANDSTAT_SAMPLER_CPU_H

#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/percpu.h>
#include <linux/seqlock.h>

#include "randstat.h"

/**
 * struct randstat_cpu - one CPU's sampler
 * @timer: the statclock
 * @rng: the keystream the intervals are drawn from
 * @rekey: fresh key material from get_random_bytes() for @rng
 * @rekey_ready: @rekey is filled and not yet used; set (release) by the
 *	rekey work, cleared (release) by this CPU's timer, which alone then
 *	reads @rekey
 * @seq: lets readers copy @acct's counters, histograms, state and base
 *	consistently; written only by this CPU with interrupts off, or while
 *	it is offline
 * @acct: what the sampler has charged, its state and the figures it
 *	charges from; changed through randstat_enter() and the timer's
 *	randstat_acct_sample() (but the busy check's window, tickless.c)
 * @last_sample: the last expiry counted (the law's floor runs from it)
 * @last_idle_us: get_cpu_idle_time_us() at the last idle sample
 * @last_iowait_us: get_cpu_iowait_time_us() at the last idle sample
 * @last_iowait: the last idle sample was iowait
 * @nohz_idle: the kernel keeps exact idle sleep times here (NO_HZ)
 * @stop_from: the budget of stops at idle entries (randstat_stop_budget())
 */
struct randstat_cpu {
	struct hrtimer timer;
	struct randstat_rng rng;
	u32 rekey[RANDSTAT_KEY_WORDS];
	bool rekey_ready;
	seqcount_t seq;
	struct randstat_acct acct;
	ktime_t last_sample;
	u64 last_idle_us;
	u64 last_iowait_us;
	bool last_iowait;
	bool nohz_idle;
	unsigned long stop_from;
};

DECLARE_PER_CPU(struct randstat_cpu, randstat_cpus);

void randstat_enter(struct randstat_cpu *rc, unsigned int cpu,
		    enum randstat_state to, bool zero);
bool randstat_may_doze(struct randstat_cpu *rc, enum randstat_law law);
void randstat_wake(struct randstat_cpu *rc);

int randstat_tickless_start(void);
void randstat_tickless_stop(void);

#endif /* _RANDSTAT_SAMPLER_CPU_H */
