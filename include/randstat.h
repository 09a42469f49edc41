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

#include <crypto/chacha.h>
#include <linux/jiffies.h>
#include <linux/typecheck.h>
#include <linux/types.h>

/* The release: MODULE_VERSION, and the tools' --version (the Makefile reads it). */
#define RANDSTAT_VERSION		"0.1"

#define RANDSTAT_FORMAT_VERSION		5

/* The uniform law, U[tmin_ns, tmax_ns]: McCanne and Torek's. */
#define RANDSTAT_TMIN_DEFAULT_NS	2000000U
#define RANDSTAT_TMAX_DEFAULT_NS	6000000U
#define RANDSTAT_TMIN_LIMIT_NS		50000U
#define RANDSTAT_TMAX_LIMIT_NS		1000000000U

/*
 * The exponential law, floor_ns + Exp(mean_ns - floor_ns): memoryless past
 * the floor.  The default mean is HZ=250's period; the floor is the least
 * the uniform law allows as tmin, which bounds the sampler's interrupt
 * rate at 20 kHz and lets a process that knows every past sample time run
 * unseen for at most floor_ns / mean_ns = 1.25% of the time
 * (Documentation/design.rst, "Threat model").
 */
#define RANDSTAT_MEAN_DEFAULT_NS	4000000U
#define RANDSTAT_FLOOR_DEFAULT_NS	50000U
#define RANDSTAT_FLOOR_LIMIT_NS		RANDSTAT_TMIN_LIMIT_NS
#define RANDSTAT_MEAN_LIMIT_NS		RANDSTAT_TMAX_LIMIT_NS

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

extern const char *const randstat_class_names[RS_NR_CLASSES];

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

/* ChaCha20 blocks per key: 224 bytes of output per refill */
#define RANDSTAT_RNG_BLOCKS	4

/**
 * struct randstat_rng - a per-CPU ChaCha20 keystream (rng.c)
 * @state: ChaCha20's input: constants, key, block counter and nonce
 * @buf: keystream words not handed out yet
 * @avail: how many of @buf are left (used from the top down)
 */
struct randstat_rng {
#ifdef RANDSTAT_HAVE_CHACHA_STATE
	struct chacha_state state;
#else
	u32 state[CHACHA_STATE_WORDS];
#endif
	u32 buf[RANDSTAT_RNG_BLOCKS * CHACHA_STATE_WORDS -
		CHACHA_KEY_SIZE / sizeof(u32)];
	unsigned int avail;
};

#define RANDSTAT_KEY_WORDS	(CHACHA_KEY_SIZE / sizeof(u32))

void randstat_rng_init(struct randstat_rng *r,
		       const u32 key[RANDSTAT_KEY_WORDS]);
void randstat_rng_mix(struct randstat_rng *r,
		      const u32 key[RANDSTAT_KEY_WORDS]);
u32 randstat_rng_u32(struct randstat_rng *r);
u64 randstat_rng_u64(struct randstat_rng *r);

/**
 * enum randstat_law - how sampling intervals are drawn
 * @RS_LAW_EXPONENTIAL: floor + Exp(mean - floor); the pair is (floor, mean)
 * @RS_LAW_UNIFORM: U[tmin, tmax]; the pair is (tmin, tmax)
 * @RS_NR_LAWS: number of laws
 */
enum randstat_law {
	RS_LAW_EXPONENTIAL,
	RS_LAW_UNIFORM,
	RS_NR_LAWS,
};

extern const char *const randstat_law_names[RS_NR_LAWS];

/**
 * struct randstat_window - a law's two parameters, in ns
 * @lo: the shortest interval: floor_ns (exponential) or tmin_ns (uniform)
 * @hi: mean_ns (exponential) or tmax_ns (uniform)
 */
struct randstat_window {
	u32 lo;
	u32 hi;
};

int randstat_window_check(enum randstat_law law, u64 lo, u64 hi);
int randstat_window_set(enum randstat_law law, struct randstat_window *w,
			bool is_hi, u64 val, bool alone);
/**
 * struct randstat_log2_entry - one interval of randstat_neg_log2()'s table
 * @inv: 2^64 / (RS_LOG2_N + i), rounded: 1 / (RS_LOG2_N x_i) in 0.64 fixed
 *	point, x_i = 1 + i / RS_LOG2_N
 * @log2: 2^62 log2(x_i), rounded: log2(x_i) in 2.62 fixed point
 */
struct randstat_log2_entry {
	u64 inv;
	u64 log2;
};

#define RS_LOG2_N	128
/* module/interval.c's, generated by module/gen_log2_table.py */
extern const struct randstat_log2_entry randstat_log2_table[RS_LOG2_N];

u64 randstat_neg_log2(u64 u);
u64 randstat_draw_exponential(struct randstat_rng *r, u32 floor, u32 mean);
u32 randstat_draw_uniform(struct randstat_rng *r, u32 tmin, u32 tmax);
u64 randstat_draw_interval(struct randstat_rng *r, enum randstat_law law,
			   struct randstat_window w);
u64 randstat_draw_resume(struct randstat_rng *r, struct randstat_window w,
			 u64 since_ns);

/*
 * Expiries that passed before the interrupt was taken are drawn one by
 * one up to this many; the rest are counted in bulk (randstat_advance()).
 */
#define RANDSTAT_OVERRUN_DRAWS		16

u64 randstat_law_mean(enum randstat_law law, struct randstat_window w);
u64 randstat_advance(struct randstat_rng *r, enum randstat_law law,
		     struct randstat_window w, u64 now_ns, u64 *last_ns,
		     u64 *next_ns);

#define RANDSTAT_HIST_BUCKETS		32
#define RANDSTAT_HIST_MIN_SHIFT		6	/* bucket 1 starts at 64 ns */

/**
 * struct randstat_counters - one CPU's counters, as its sampler keeps them
 * @samples: samples per class (guest also counted in user/nice), expiries
 *	that passed while the CPU could not take the interrupt included
 * @exact_ns: time per class charged exactly, not from samples: steal, a
 *	dormant span's idle and iowait, and every class while the CPU is
 *	served from the kernel's own exact accounting (guest inside user,
 *	guest_nice inside nice, as in @samples)
 * @elapsed_ns: the time covered: @sampled_ns plus the eight time classes
 *	of @exact_ns
 * @sampled_ns: the time the samples cover and share, steal taken out
 * @nsamples: the samples of the eight time classes (their sum)
 * @shown_ns: the times shown per class, as the files show them: brought
 *	up at every charge by the charge itself (randstat_show_sampled(),
 *	randstat_charge_dormant(), randstat_charge_exact()), so that what a
 *	reader sees is a copy of what the CPU's own charges left, whoever
 *	else reads; no column falls (see randstat_show_sampled())
 * @shown_ahead_ns: how far the eight times shown are ahead of
 *	@elapsed_ns: a steal backlog, shown as steal at once, whose time the
 *	next sampled time pays (randstat_charge_backlog())
 * @dormancies: how many times the sampler stopped on an idle CPU
 * @overruns: expiries that passed before the interrupt was taken (each
 *	also counted as a sample)
 * @cost_ns: total time spent in the sampler's callback
 * @cost_max_ns: longest callback
 * @late_ns: total delay from scheduled expiry to callback
 * @late_max_ns: longest such delay
 */
struct randstat_counters {
	u64 samples[RS_NR_CLASSES];
	u64 exact_ns[RS_NR_CLASSES];
	u64 elapsed_ns;
	u64 sampled_ns;
	u64 nsamples;
	u64 shown_ns[RS_NR_CLASSES];
	u64 shown_ahead_ns;
	u64 dormancies;
	u64 overruns;
	u64 cost_ns;
	u64 cost_max_ns;
	u64 late_ns;
	u64 late_max_ns;
};

/**
 * struct randstat_hists - one CPU's histograms of its sampler's own timing
 * @cost: callback cost (see randstat_hist_bucket())
 * @late: lateness, from the scheduled expiry to the callback
 *
 * Apart from struct randstat_counters: only /proc/randstat_hist prints
 * them, and a read of the other files copies the counters of every CPU.
 */
struct randstat_hists {
	u64 cost[RANDSTAT_HIST_BUCKETS];
	u64 late[RANDSTAT_HIST_BUCKETS];
};

/**
 * enum randstat_state - what one CPU's sampler is doing
 * @RS_STATE_OFF: nothing: the CPU is offline (or the module is going)
 * @RS_STATE_ACTIVE: sampling: its timer is queued
 * @RS_STATE_DORMANT: a sample found it idle: no timer until it leaves idle;
 *	the span is charged from the kernel's exact NO_HZ sleep times
 * @RS_STATE_EXACT: not sampled: served from the kernel's exact accounting
 */
enum randstat_state {
	RS_STATE_OFF,
	RS_STATE_ACTIVE,
	RS_STATE_DORMANT,
	RS_STATE_EXACT,
};

/**
 * struct randstat_kstat - the kernel's own figures for one CPU, at a time
 * @t_ns: when (CLOCK_MONOTONIC, ns)
 * @ns: per class, as /proc/stat has them: idle and iowait from the NO_HZ
 *	sleep times, the others from kcpustat (a dormant CPU's snapshot
 *	fills only idle, iowait, irq, softirq and steal)
 *
 * A state that charges from the kernel's figures (dormant, exact) keeps
 * the figures at its start; what it owes at any later time is charged by
 * randstat_charge_pending() from those and the figures then.  For steal,
 * @ns[RS_STEAL] is what has been charged so far in every state: steal
 * that did not fit in a span is carried to the next.
 */
struct randstat_kstat {
	u64 t_ns;
	u64 ns[RS_NR_CLASSES];
};

/*
 * A dormant CPU resumes sampling when, over the last second or so, it
 * spent more than 1/2^RANDSTAT_BUSY_SHIFT of the time awake without
 * leaving the idle task: interrupt work that NO_HZ does not count as idle
 * (randstat_dormant_busy(), randstat_busy_update()).
 */
#define RANDSTAT_BUSY_SHIFT		6
#define RANDSTAT_BUSY_WINDOW_NS		1000000000ULL

/**
 * struct randstat_busy - the busy check's sliding window
 * @t0: start of the window (ns), 0 before the first look
 * @asleep0: the CPU's NO_HZ sleep time then (ns)
 * @t1: start of the window's second half
 * @asleep1: the sleep time then
 *
 * The window is judged from @t0; when its second half is half a window
 * old, the halves move up, so the window spans the last half to whole
 * RANDSTAT_BUSY_WINDOW_NS and an hour asleep does not dilute a new load.
 */
struct randstat_busy {
	u64 t0;
	u64 asleep0;
	u64 t1;
	u64 asleep1;
};

/**
 * struct randstat_acct - what one CPU's sampler has charged, and from what
 * @c: its counters
 * @hist: its histograms
 * @state: what it is doing (enum randstat_state)
 * @base: the kernel's figures when @state began, which a dormant or exact
 *	CPU charges from; for steal, what has been charged so far
 * @prev_ns: where the sampled time so far ends: the last sample's expiry,
 *	or where sampling (re)started
 * @steal_credit: exact idle and iowait of the last dormant span that a
 *	steal backlog may yet take (randstat_charge_backlog())
 * @busy: the dormant CPU's busy check: zeroed as it goes dormant, moved on
 *	at its idle exits (randstat_busy_update())
 *
 * Changed only by randstat_acct_enter() and randstat_acct_sample(), but
 * @busy's moves: they take the kernel's figures as arguments and touch
 * nothing else, so KUnit drives the sampler's transitions as the CPU
 * does.
 */
struct randstat_acct {
	struct randstat_counters c;
	struct randstat_hists hist;
	enum randstat_state state;
	struct randstat_kstat base;
	u64 prev_ns;
	u64 steal_credit;
	struct randstat_busy busy;
};

/*
 * A sampling CPU that enters idle stops its sampler there, at most once
 * per mean interval on average after a burst of this many
 * (randstat_stop_budget()): an idle CPU's wakeups come in clusters.
 */
#define RANDSTAT_STOP_BURST		8

u64 randstat_growth(u64 a, u64 b);
u64 randstat_charge(struct randstat_counters *c, enum randstat_class cls,
		    u64 nsamples, u64 interval_ns, u64 steal_ns);
void randstat_charge_span(struct randstat_counters *c, u64 span_ns);
bool randstat_stop_budget(unsigned long *stop_from, unsigned long now,
			  unsigned long cost);

/* Before the budget's time: no stop (randstat_stop_budget()). */
static inline bool randstat_stop_early(unsigned long stop_from,
				       unsigned long now)
{
	return time_before(now, stop_from);
}

/* A budget long spent, for a CPU that starts sampling. */
#define RANDSTAT_STOP_FRESH(now)	((now) - ULONG_MAX / 4)
struct cpuidle_driver;
bool randstat_idle_may_cancel(const struct cpuidle_driver *drv,
			      unsigned int state, bool default_broadcast);
u64 randstat_charge_backlog(struct randstat_counters *c, u64 steal_ns,
			    u64 *credit);
u64 randstat_charge_dormant(struct randstat_counters *c, u64 span_ns,
			    u64 idle_ns, u64 iowait_ns, u64 steal_ns,
			    u64 softirq_ns);
void randstat_charge_exact(struct randstat_counters *c,
			   const u64 ns[RS_NR_CLASSES]);
u64 randstat_charge_pending(struct randstat_counters *c,
			    enum randstat_state state,
			    const struct randstat_kstat *from,
			    const struct randstat_kstat *now, bool reader);
void randstat_acct_enter(struct randstat_acct *a, enum randstat_state to,
			 const struct randstat_kstat *now, bool zero);
u64 randstat_acct_sample(struct randstat_acct *a, enum randstat_class cls,
			 u64 nsamples, u64 last_ns, u64 now_ns, u64 steal_ns,
			 const struct randstat_kstat *doze);
bool randstat_dormant_busy(u64 span_ns, u64 asleep_ns);
bool randstat_busy_update(struct randstat_busy *b, u64 now_ns,
			  u64 asleep_ns);
void randstat_show_sampled(struct randstat_counters *c, int cls, u64 add);
void randstat_keep_shown(const u64 now[RS_NR_CLASSES],
			 u64 shown[RS_NR_CLASSES]);
u64 randstat_mul_div(u64 a, u64 b, u64 c);
void randstat_record_timing(struct randstat_counters *c,
			    struct randstat_hists *h, u64 cost_ns, u64 late_ns);
u64 randstat_elapsed_ns(const struct randstat_counters *c);
u64 randstat_total_samples(const struct randstat_counters *c);
u64 randstat_ns_to_clock_t(u64 ns);
unsigned int randstat_hist_bucket(u64 v);
u64 randstat_hist_lower_bound(unsigned int bucket);

#endif /* _RANDSTAT_H */
