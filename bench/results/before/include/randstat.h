/* SPDX-License-Identifier: GPL-2.0 */
/*
 * randstat: a randomized statclock for Linux.
 *
 * The pure parts of the module: classification of a sampled context,
 * drawing of the random sampling interval, the estimator's arithmetic and
 * parameter validation.  None of it touches a live CPU, so KUnit drives it
 * directly (see kunit/).
 */
#ifndef _RANDSTAT_H
#define _RANDSTAT_H

#include <linux/prandom.h>
#include <linux/types.h>

#define RANDSTAT_FORMAT_VERSION		1

#define RANDSTAT_TMIN_DEFAULT_NS	2000000U
#define RANDSTAT_TMAX_DEFAULT_NS	6000000U
#define RANDSTAT_TMIN_LIMIT_NS		50000U
#define RANDSTAT_TMAX_LIMIT_NS		1000000000U

/**
 * enum randstat_class - the ten classes of /proc/stat, in its column order
 * @RS_USER: user mode, nice <= 0 (includes guest time, as /proc/stat does)
 * @RS_NICE: user mode, nice > 0 (includes guest_nice time)
 * @RS_SYSTEM: kernel mode, not in an interrupt and not the idle task
 * @RS_IDLE: the idle task, no task of this CPU waiting for I/O
 * @RS_IOWAIT: the idle task while a task of this CPU waits for I/O
 * @RS_IRQ: inside a hardirq handler that the sampler interrupted
 * @RS_SOFTIRQ: serving a softirq
 * @RS_STEAL: time the hypervisor ran something else (never sampled)
 * @RS_GUEST: running a KVM guest, nice <= 0
 * @RS_GUEST_NICE: running a KVM guest, nice > 0
 * @RS_NR_CLASSES: number of classes
 */
enum randstat_class {
	RS_USER,
	RS_NICE,
	RS_SYSTEM,
	RS_IDLE,
	RS_IOWAIT,
	RS_IRQ,
	RS_SOFTIRQ,
	RS_STEAL,
	RS_GUEST,
	RS_GUEST_NICE,
	RS_NR_CLASSES,
};

/* The classes whose sum is a CPU's elapsed time (guest is inside user). */
#define RS_NR_TIME_CLASSES	(RS_STEAL + 1)

/**
 * struct randstat_snapshot - what the sampler saw when it fired
 * @user_mode: the interrupted context was user mode
 * @vcpu: current has PF_VCPU set (it is running a KVM guest)
 * @idle_task: current is this CPU's idle task
 * @hardirq_nested: hardirq_count() beyond the sampler's own HARDIRQ_OFFSET
 * @irq_nested: irq_count() beyond the sampler's own HARDIRQ_OFFSET (any
 *	hardirq, NMI, softirq or bh-disabled section was interrupted)
 * @serving_softirq: in_serving_softirq()
 * @iowait: this CPU has a task waiting for I/O (only looked at for idle)
 * @nice: task_nice(current)
 */
struct randstat_snapshot {
	bool user_mode;
	bool vcpu;
	bool idle_task;
	bool hardirq_nested;
	bool irq_nested;
	bool serving_softirq;
	bool iowait;
	int nice;
};

struct pt_regs;
struct task_struct;

void randstat_snapshot_fill(struct randstat_snapshot *s,
			    struct pt_regs *regs,
			    const struct task_struct *p, unsigned long irqs,
			    unsigned long hardirqs, bool serving_softirq);
enum randstat_class randstat_classify(const struct randstat_snapshot *s);
bool randstat_idle_is_iowait(u64 d_idle_us, u64 d_iowait_us, bool last);

/**
 * struct randstat_window - the interval bounds, in ns
 * @tmin: shortest interval
 * @tmax: longest interval
 */
struct randstat_window {
	u32 tmin;
	u32 tmax;
};

int randstat_window_check(u64 tmin, u64 tmax);
int randstat_window_set(struct randstat_window *w, bool is_tmax, u64 val,
			bool alone);
u32 randstat_draw_interval(struct rnd_state *rs, u32 tmin, u32 tmax);

#define RANDSTAT_HIST_BUCKETS		32
#define RANDSTAT_HIST_MIN_SHIFT		6	/* bucket 1 starts at 64 ns */

/**
 * struct randstat_counters - one CPU's counters
 * @ns: estimated time per class, ns (guest also counted in user/nice)
 * @samples: samples per class (guest also counted in user/nice)
 * @overruns: expiries skipped because the CPU took the timer too late
 * @cost_ns: total time spent in the sampler's callback
 * @cost_max_ns: longest callback
 * @late_ns: total delay from scheduled expiry to callback
 * @late_max_ns: longest such delay
 * @cost_hist: callback cost histogram (see randstat_hist_bucket())
 * @late_hist: lateness histogram
 */
struct randstat_counters {
	u64 ns[RS_NR_CLASSES];
	u64 samples[RS_NR_CLASSES];
	u64 overruns;
	u64 cost_ns;
	u64 cost_max_ns;
	u64 late_ns;
	u64 late_max_ns;
	u64 cost_hist[RANDSTAT_HIST_BUCKETS];
	u64 late_hist[RANDSTAT_HIST_BUCKETS];
};

u64 randstat_charge(struct randstat_counters *c, enum randstat_class cls,
		    u64 interval_ns, u64 steal_ns);
void randstat_record_timing(struct randstat_counters *c, u64 cost_ns,
			    u64 late_ns);
u64 randstat_elapsed_ns(const struct randstat_counters *c);
u64 randstat_total_samples(const struct randstat_counters *c);
u64 randstat_ns_to_clock_t(u64 ns);
unsigned int randstat_hist_bucket(u64 v);
u64 randstat_hist_lower_bound(unsigned int bucket);

#endif /* _RANDSTAT_H */
