// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: tickless randstat's arithmetic and its law.
 *
 * A sample that finds a CPU idle stops its sampler; the CPU resumes at its
 * next wakeup with the law's continuation (randstat_draw_resume()), and
 * the span in between is charged exactly (randstat_charge_dormant()).
 * The simulations here run that rule against workloads whose busy time is
 * known, with fixed keys so that a verdict is reproducible; each asserted
 * bound is 4 sigma of the count estimator, sigma = T_s sqrt(p (1 - p) / n),
 * plus, where the law's floor lets work go unseen, floor / mean of the
 * time (Documentation/design.rst, "Footprint").
 */
#include <kunit/test.h>
#include <linux/cpuidle.h>
#include <linux/jiffies.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "randstat.h"

static void seed_rng(struct randstat_rng *r, u64 seed)
{
	u32 key[8] = { lower_32_bits(seed), upper_32_bits(seed) };

	randstat_rng_init(r, key);
}

/*
 * A dormant span: idle, iowait and steal as the kernel counted them, the
 * rest (interrupts served on the sleeping CPU) irq.
 */
static void charge_dormant_test(struct kunit *test)
{
	struct randstat_counters c = { };
	int i;

	/* 10 ms: 5.5 ms idle, 3 ms iowait, 1 ms steal: 0.5 ms irq work */
	KUNIT_EXPECT_EQ(test, randstat_charge_dormant(&c, 10000000, 5500000,
						      3000000, 1000000, 0),
			1000000ULL);
	KUNIT_EXPECT_EQ(test, c.elapsed_ns, 10000000ULL);
	KUNIT_EXPECT_EQ(test, c.sampled_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_IDLE], 5500000ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_IOWAIT], 3000000ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_STEAL], 1000000ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_IRQ], 500000ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_SOFTIRQ], 0ULL);
	KUNIT_EXPECT_EQ(test, randstat_total_samples(&c), 0ULL);

	/*
	 * More than the span (microsecond rounding, carried steal): capped,
	 * steal first, then iowait, then idle; nothing is left for irq.
	 */
	KUNIT_EXPECT_EQ(test, randstat_charge_dormant(&c, 2000, 900, 5000,
						      1500, 0), 1500ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_IOWAIT], 3000500ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_IDLE], 5500000ULL);
	KUNIT_EXPECT_EQ(test, randstat_charge_dormant(&c, 2000, 3000, 0, 9000, 0),
			2000ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_IDLE], 5500000ULL);
	KUNIT_EXPECT_EQ(test, randstat_charge_dormant(&c, 2000, 3000, 500, 0, 0),
			0ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_IOWAIT], 3001000ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_IDLE], 5501500ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_IRQ], 500000ULL);
	KUNIT_EXPECT_EQ(test, c.elapsed_ns, 10006000ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_STEAL], 1003500ULL);

	/*
	 * A CPU whose every dormant span is cut short by a wakeup (a
	 * PREEMPT_RT tick waking its timer thread): its interrupt time is
	 * irq however short the spans, never idle, where the kernel does not
	 * measure interrupt time (its irq and softirq did not grow).
	 */
	memset(&c, 0, sizeof(c));
	for (i = 0; i < 250; i++)
		randstat_charge_dormant(&c, 4000000, 3700000, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_IDLE], 925000000ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_IRQ], 75000000ULL);
}

/*
 * Sampled and exact time together: the samples share the sampled time,
 * the exact time goes to its class, the columns sum to the elapsed time.
 */
static void estimate_mixed_test(struct kunit *test)
{
	struct randstat_counters c = { };
	u64 ns[RS_NR_CLASSES] = { 0 };
	u64 kernel[RS_NR_CLASSES] = { 0 };

	/* 3 user and 1 idle sample over 8 ms, then 12 ms dormant */
	randstat_charge(&c, RS_USER, 3, 6000000, 0);
	randstat_charge(&c, RS_IDLE, 1, 2000000, 0);
	randstat_charge_dormant(&c, 12000000, 10000000, 2000000, 0, 0);
	memcpy(ns, c.shown_ns, sizeof(ns));
	KUNIT_EXPECT_EQ(test, ns[RS_USER], 6000000ULL);
	KUNIT_EXPECT_EQ(test, ns[RS_IDLE], 2000000ULL + 10000000ULL);
	KUNIT_EXPECT_EQ(test, ns[RS_IOWAIT], 2000000ULL);
	KUNIT_EXPECT_EQ(test, ns[RS_USER] + ns[RS_IDLE] + ns[RS_IOWAIT],
			20000000ULL);

	/* A CPU's figures from the kernel (nohz_full): each to its class. */
	kernel[RS_USER] = 7000000;
	kernel[RS_GUEST] = 1000000;	/* inside user */
	kernel[RS_SYSTEM] = 2000000;
	kernel[RS_STEAL] = 500000;
	randstat_charge_exact(&c, kernel);
	KUNIT_EXPECT_EQ(test, c.elapsed_ns, 29500000ULL);
	memcpy(ns, c.shown_ns, sizeof(ns));
	KUNIT_EXPECT_EQ(test, ns[RS_USER], 13000000ULL);
	KUNIT_EXPECT_EQ(test, ns[RS_SYSTEM], 2000000ULL);
	KUNIT_EXPECT_EQ(test, ns[RS_STEAL], 500000ULL);
	KUNIT_EXPECT_EQ(test, ns[RS_GUEST], 1000000ULL);
}

/* The busy check: more than 1/64 of the span awake in interrupts. */
static void dormant_busy_test(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, randstat_dormant_busy(6400000, 6400000));
	KUNIT_EXPECT_FALSE(test, randstat_dormant_busy(6400000, 6300000));
	KUNIT_EXPECT_TRUE(test, randstat_dormant_busy(6400000, 6299999));
	/* asleep more than the span (microsecond rounding): not busy */
	KUNIT_EXPECT_FALSE(test, randstat_dormant_busy(1000, 2000));
	KUNIT_EXPECT_FALSE(test, randstat_dormant_busy(0, 0));
	KUNIT_EXPECT_TRUE(test, randstat_dormant_busy(1000, 0));
}

/*
 * The continuation: what is left of the floor, then Exp(mean - floor).
 * Past the floor its mean is mean - floor, within 4 sigma (sigma of an
 * exponential's mean over N draws: (mean - floor) / sqrt(N)); before it,
 * it never comes earlier than the floor's end.
 */
#define NRESUME	100000
static void draw_resume_test(struct kunit *test)
{
	struct randstat_window w = { RANDSTAT_FLOOR_DEFAULT_NS,
				     RANDSTAT_MEAN_DEFAULT_NS };
	u64 sum = 0, d, lo = U64_MAX, mean, sigma = (w.hi - w.lo) / 316;
	struct randstat_rng r;
	int i;

	seed_rng(&r, 0x5eed0d01);
	for (i = 0; i < NRESUME; i++) {
		d = randstat_draw_resume(&r, w, 7000000);
		sum += d;
		lo = min(lo, d);
	}
	mean = div_u64(sum, NRESUME);
	kunit_info(test, "past the floor: mean %llu ns (want %u +- %llu), shortest %llu ns\n",
		   mean, w.hi - w.lo, 4 * sigma, lo);
	KUNIT_EXPECT_LE(test, abs((s64)mean - (s64)(w.hi - w.lo)),
			4 * (s64)sigma);
	KUNIT_EXPECT_LT(test, lo, 1000ULL);

	lo = U64_MAX;
	for (i = 0; i < NRESUME / 10; i++)
		lo = min(lo, randstat_draw_resume(&r, w, 20000));
	KUNIT_EXPECT_GE(test, lo, (u64)w.lo - 20000);
	KUNIT_EXPECT_LT(test, lo, (u64)w.lo - 20000 + 10000);
}

/*
 * A simulated CPU busy for BURST at the start of every PERIOD and idle
 * otherwise, sampled as sampler.c does: a sample in idle stops the
 * sampler (dormant) and the next burst's start resumes it with the law's
 * continuation from the last sample.  With @lazy, a CPU also stops at an
 * idle entry (at most once per mean interval), and resumes the same way.
 * @fresh resumes with a fresh draw (floor + Exp) instead of the
 * continuation: the bug the continuation avoids.
 */
struct dsim {
	u64 t, sampled, exact_idle, n, n_busy, resumes, stops;
};

static void dsim_run(struct randstat_rng *r, struct randstat_window w,
		     u64 period, u64 burst, u64 ncycles, bool fresh,
		     bool lazy, struct dsim *s)
{
	u64 p, prev = 0, last = 0, since = 0, stop_after = 0, next;
	u64 end = ncycles * period;
	bool dormant = false;

	memset(s, 0, sizeof(*s));
	next = randstat_draw_exponential(r, w.lo, w.hi);
	for (p = 0; p < end; p += period) {
		if (dormant) {
			s->exact_idle += p - since;
			s->resumes++;
			prev = p;
			next = p + (fresh ? randstat_draw_exponential(r, w.lo, w.hi) :
				    randstat_draw_resume(r, w, p - last));
			dormant = false;
		}
		for (; next < p + burst; next += randstat_draw_exponential(r, w.lo, w.hi)) {
			s->n++;
			s->n_busy++;
			s->sampled += next - prev;
			prev = next;
			last = next;
		}
		if (lazy && p + burst >= stop_after) {
			/* stops at the idle entry */
			s->sampled += p + burst - prev;
			since = p + burst;
			stop_after = since + w.hi;
			s->stops++;
			dormant = true;
		} else if (next < p + period) {
			/* a sample finds it idle */
			s->n++;
			s->sampled += next - prev;
			prev = next;
			last = next;
			since = next;
			dormant = true;
		}
	}
	if (dormant)
		s->exact_idle += end - since;
	else
		s->sampled += end - prev;
	s->t = end;
}

static void dsim_judge(struct kunit *test, const char *name,
		       const struct dsim *s, u64 period, u64 burst,
		       u64 *est, u64 *truth, u64 *sigma)
{
	u64 p_ppm = div64_u64(1000000 * s->n_busy, s->n);

	*est = randstat_mul_div(s->sampled, s->n_busy, s->n);
	*truth = div64_u64(s->t, period) * burst;
	*sigma = div64_u64(s->sampled * int_sqrt64(p_ppm * (1000000 - p_ppm)),
			   1000000 * int_sqrt64(s->n)) + 1;
	kunit_info(test, "%s: busy %llu us of %llu ms; charged %llu us (4 sigma %llu us); %llu samples, %llu resumes, %llu stops at idle entry, %llu ms exact idle\n",
		   name, *truth / 1000, s->t / 1000000, *est / 1000,
		   4 * *sigma / 1000, s->n, s->resumes, s->stops,
		   s->exact_idle / 1000000);
}

/*
 * 200 us of work every 5 ms, idle in between (the short-burst
 * workload): every burst follows a wakeup.  The continuation charges it
 * within 4 sigma, with or without stops at idle entries; a fresh draw at
 * each wakeup never sees a burst's first floor_ns and charges about
 * (200 - 50) / 200 of it, outside 4 sigma: this test would catch that
 * bug.  (So did it catch a first version of the stop at idle entry that
 * kept the sample it put off, and so removed from the sampled time only
 * the idle spans that sample missed: 26.5 s of 40.)
 */
static void short_bursts_test(struct kunit *test)
{
	struct randstat_window w = { RANDSTAT_FLOOR_DEFAULT_NS,
				     RANDSTAT_MEAN_DEFAULT_NS };
	u64 est, truth, sigma;
	struct randstat_rng r;
	struct dsim s;

	seed_rng(&r, 0x5eed0d02);
	dsim_run(&r, w, 5000000, 200000, 200000, false, false, &s);
	dsim_judge(test, "continuation", &s, 5000000, 200000, &est, &truth,
		   &sigma);
	KUNIT_EXPECT_LE(test, abs((s64)est - (s64)truth), 4 * (s64)sigma);
	KUNIT_EXPECT_EQ(test, s.t, s.sampled + s.exact_idle);

	dsim_run(&r, w, 5000000, 200000, 200000, false, true, &s);
	dsim_judge(test, "continuation, stop at idle entry", &s, 5000000,
		   200000, &est, &truth, &sigma);
	KUNIT_EXPECT_LE(test, abs((s64)est - (s64)truth), 4 * (s64)sigma);
	KUNIT_EXPECT_EQ(test, s.t, s.sampled + s.exact_idle);

	/* every 3 ms: the stops (once per mean) miss every other idle entry */
	dsim_run(&r, w, 3000000, 200000, 300000, false, true, &s);
	dsim_judge(test, "every 3 ms, stop at idle entry", &s, 3000000,
		   200000, &est, &truth, &sigma);
	KUNIT_EXPECT_LE(test, abs((s64)est - (s64)truth), 4 * (s64)sigma);
	KUNIT_EXPECT_EQ(test, s.t, s.sampled + s.exact_idle);

	dsim_run(&r, w, 5000000, 200000, 200000, true, false, &s);
	dsim_judge(test, "fresh draw", &s, 5000000, 200000, &est, &truth,
		   &sigma);
	KUNIT_EXPECT_LT(test, est + 4 * sigma, truth);
}

/*
 * The floor's window, exploited: work for floor_ns, sleep as briefly as
 * possible (20 us), again and again, hoping that each wakeup restarts the
 * floor.  Dormancy begins only at a sample, so the work escapes at most
 * floor / mean of the time (plus 4 sigma); it is not overcharged either.
 */
static void floor_abuse_test(struct kunit *test)
{
	struct randstat_window w = { RANDSTAT_FLOOR_DEFAULT_NS,
				     RANDSTAT_MEAN_DEFAULT_NS };
	u64 est, truth, sigma, allowance;
	struct randstat_rng r;
	struct dsim s;

	seed_rng(&r, 0x5eed0d03);
	dsim_run(&r, w, 70000, 50000, 4000000, false, true, &s);
	dsim_judge(test, "floor abuse", &s, 70000, 50000, &est, &truth,
		   &sigma);
	allowance = randstat_mul_div(s.t, w.lo, w.hi);
	KUNIT_EXPECT_GE(test, est + allowance + 4 * sigma, truth);
	KUNIT_EXPECT_LE(test, est, truth + 4 * sigma);
	/* stops are bounded by samples: each follows a resume */
	KUNIT_EXPECT_LE(test, s.stops, s.n);
}

/*
 * Defect 5 of the dormancy review: a dormant span's interrupt time was all
 * irq, while a sampled CPU shows the same load as softirq.  Where the
 * kernel measures interrupt time, its softirq time (up to the rest) is
 * softirq and the remainder irq; each part grows only as the span does.
 */
static void dormant_split_test(struct kunit *test)
{
	struct randstat_counters c = { };

	/* 10 ms: 9 ms asleep, 1 ms awake, 0.6 of it softirq: 0.4 irq */
	randstat_charge_dormant(&c, 10000000, 9000000, 0, 0, 600000);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_IDLE], 9000000ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_SOFTIRQ], 600000ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_IRQ], 400000ULL);
	KUNIT_EXPECT_EQ(test, c.elapsed_ns, 10000000ULL);
	/* more softirq than the rest (rounding): capped, irq 0 */
	memset(&c, 0, sizeof(c));
	randstat_charge_dormant(&c, 10000000, 9000000, 0, 0, 1500000);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_SOFTIRQ], 1000000ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_IRQ], 0ULL);
}

/*
 * Defect 5's second half: the busy check measured from its first look and
 * never moved, so after an hour dormant a new interrupt load of 3% (twice
 * the 1/64 threshold) needed about another hour to resume sampling.  The
 * window slides: the load is seen within one window.
 */
static void busy_window_test(struct kunit *test)
{
	struct randstat_busy b = { };
	const u64 hour = 3600ULL * NSEC_PER_SEC, step = 10000000;
	u64 t = 1000, asleep = 0, first = 0;

	KUNIT_EXPECT_FALSE(test, randstat_busy_update(&b, t, asleep));
	/* an hour asleep, looked at every 10 ms (interrupts of no length) */
	while (t < hour) {
		t += step;
		asleep += step;
		KUNIT_ASSERT_FALSE(test, randstat_busy_update(&b, t, asleep));
	}
	/* then 3% of each 10 ms in interrupts */
	while (!first && t < 2 * hour) {
		t += step;
		asleep += step - step * 3 / 100;
		if (randstat_busy_update(&b, t, asleep))
			first = t - hour;
	}
	kunit_info(test, "a 3%% load after an hour asleep: resumed after %llu ms\n",
		   first / 1000000);
	KUNIT_EXPECT_GT(test, first, 0ULL);
	KUNIT_EXPECT_LE(test, first, RANDSTAT_BUSY_WINDOW_NS);
	/* The old rule, over the whole span, would not have resumed yet. */
	KUNIT_EXPECT_FALSE(test, randstat_dormant_busy(hour + first,
						       hour + first - first * 3 / 100));

	/* A short burst of wakeups after a long sleep is not work. */
	memset(&b, 0, sizeof(b));
	t = 1000;
	asleep = 0;
	randstat_busy_update(&b, t, asleep);
	t += hour;
	asleep += hour;
	KUNIT_EXPECT_FALSE(test, randstat_busy_update(&b, t, asleep));
	/* 100 us awake in 1 ms: busy now, but the window holds the hour */
	t += 1000000;
	asleep += 900000;
	KUNIT_EXPECT_FALSE(test, randstat_busy_update(&b, t, asleep));
}

/*
 * Defect 2: a reader charged a dormant CPU's span from state it read
 * outside its read section.  If the CPU woke and charged steal in between,
 * the reader's fresh "already charged" steal exceeded its older reading of
 * the kernel's, the difference wrapped, and the whole span was charged as
 * steal.  Now the reader copies the figures in its read section and
 * randstat_charge_pending() charges nothing for figures that went back.
 */
static void pending_charge_test(struct kunit *test)
{
	struct randstat_kstat from = { .t_ns = 1000000000 };
	struct randstat_kstat now = { .t_ns = 1010000000 };
	struct randstat_counters c = { };

	from.ns[RS_IDLE] = 5000000000ULL;
	from.ns[RS_STEAL] = 300000;	/* charged so far */
	now.ns[RS_IDLE] = 5009000000ULL;
	now.ns[RS_STEAL] = 200000;	/* older than what was charged */
	KUNIT_EXPECT_EQ(test, randstat_charge_pending(&c, RS_STATE_DORMANT,
						      &from, &now, false),
			0ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_STEAL], 0ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_IDLE], 9000000ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_IRQ], 1000000ULL);
	KUNIT_EXPECT_EQ(test, c.elapsed_ns, 10000000ULL);
	KUNIT_EXPECT_EQ(test, c.shown_ns[RS_IRQ], 1000000ULL);

	/*
	 * A reader's look leaves the rest (irq) to the CPU's own charge: it
	 * moves with the sleep times' microseconds, and would fall.
	 */
	memset(&c, 0, sizeof(c));
	KUNIT_EXPECT_EQ(test, randstat_charge_pending(&c, RS_STATE_DORMANT,
						      &from, &now, true), 0ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_IDLE], 9000000ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_IRQ], 0ULL);
	KUNIT_EXPECT_EQ(test, c.elapsed_ns, 9000000ULL);
	KUNIT_EXPECT_EQ(test, c.shown_ns[RS_IDLE], 9000000ULL);

	/* steal grew: charged, up to the span */
	now.ns[RS_STEAL] = 400000;
	memset(&c, 0, sizeof(c));
	KUNIT_EXPECT_EQ(test, randstat_charge_pending(&c, RS_STATE_DORMANT,
						      &from, &now, false),
			100000ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_STEAL], 100000ULL);

	/* exact: every class's growth; active and off owe nothing here */
	memset(&c, 0, sizeof(c));
	now.ns[RS_USER] = 7000000;
	KUNIT_EXPECT_EQ(test, randstat_charge_pending(&c, RS_STATE_EXACT,
						      &from, &now, false),
			100000ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_USER], 7000000ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_IDLE], 9000000ULL);
	KUNIT_EXPECT_EQ(test, c.elapsed_ns, 16100000ULL);
	memset(&c, 0, sizeof(c));
	KUNIT_EXPECT_EQ(test, randstat_charge_pending(&c, RS_STATE_ACTIVE,
						      &from, &now, false),
			0ULL);
	KUNIT_EXPECT_EQ(test, c.elapsed_ns, 0ULL);
}

/*
 * A sleep in progress counted as iowait when the state began, then moved
 * to idle (the wait ended): the growth is the sleep's since then, once.
 * Taken class by class it counted twice (iowait's fall charged nothing,
 * idle's rise all of it): elapsed 80 ms, not 30.
 */
static void sleep_move_test(struct kunit *test)
{
	struct randstat_kstat from = { .t_ns = 1000000000 };
	struct randstat_kstat now = { .t_ns = 1030000000 };
	struct randstat_counters c = { };

	from.ns[RS_IDLE] = 100000000;
	from.ns[RS_IOWAIT] = 50000000;	/* 50 ms of the sleep, as iowait */
	now.ns[RS_IDLE] = 180000000;	/* those 50, and 30 more, as idle */
	now.ns[RS_IOWAIT] = 0;
	randstat_charge_pending(&c, RS_STATE_EXACT, &from, &now, false);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_IDLE], 30000000ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_IOWAIT], 0ULL);
	KUNIT_EXPECT_EQ(test, c.elapsed_ns, 30000000ULL);

	/* A dormant span: its 30 ms are sleep, none of it irq. */
	memset(&c, 0, sizeof(c));
	randstat_charge_pending(&c, RS_STATE_DORMANT, &from, &now, false);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_IDLE], 30000000ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_IRQ], 0ULL);

	/* Back to iowait, 10 ms on: iowait grew by what the sum allows. */
	now.ns[RS_IDLE] = 100000000;
	now.ns[RS_IOWAIT] = 90000000;
	memset(&c, 0, sizeof(c));
	randstat_charge_pending(&c, RS_STATE_EXACT, &from, &now, false);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_IOWAIT], 40000000ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_IDLE], 0ULL);
	KUNIT_EXPECT_EQ(test, c.elapsed_ns, 40000000ULL);
}

/*
 * Defect 3: with its tick stopped, an idle guest's steal is accounted only
 * when it leaves idle, after the span was charged from sleep times that
 * count stolen time as sleep.  The first sample after the wake then saw a
 * steal backlog larger than its interval: its user time became steal and
 * the rest was carried on, eating the next samples too.  Now the backlog
 * is taken from the span's idle, as /proc/stat takes it.
 */
static void steal_backlog_test(struct kunit *test)
{
	struct randstat_counters c = { };
	u64 credit, steal, back, carried;

	/* 100 ms dormant: 99 ms of NO_HZ sleep, 30 ms of it stolen */
	randstat_charge_dormant(&c, 100000000, 99000000, 0, 0, 0);
	credit = c.exact_ns[RS_IDLE];
	/* the first sample, 4 ms of user time later, sees the 30 ms backlog */
	steal = 30000000;
	back = randstat_charge_backlog(&c, steal, &credit);
	carried = steal - back -
		  randstat_charge(&c, RS_USER, 1, 4000000, steal - back);
	KUNIT_EXPECT_EQ(test, back, 30000000ULL);
	KUNIT_EXPECT_EQ(test, carried, 0ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_STEAL], 30000000ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_IDLE], 69000000ULL);
	KUNIT_EXPECT_EQ(test, c.sampled_ns, 4000000ULL);
	KUNIT_EXPECT_EQ(test, c.elapsed_ns, 104000000ULL);

	/* without the credit (the old rule) the user sample became steal */
	memset(&c, 0, sizeof(c));
	randstat_charge_dormant(&c, 100000000, 99000000, 0, 0, 0);
	credit = 0;
	back = randstat_charge_backlog(&c, steal, &credit);
	KUNIT_EXPECT_EQ(test, back, 0ULL);
	randstat_charge(&c, RS_USER, 1, 4000000, steal);
	KUNIT_EXPECT_EQ(test, c.sampled_ns, 0ULL);

	/* never more than the span's idle and iowait */
	memset(&c, 0, sizeof(c));
	randstat_charge_dormant(&c, 10000000, 6000000, 2000000, 0, 0);
	credit = 8000000;
	KUNIT_EXPECT_EQ(test, randstat_charge_backlog(&c, 50000000, &credit),
			8000000ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_IDLE] + c.exact_ns[RS_IOWAIT], 0ULL);
	KUNIT_EXPECT_EQ(test, credit, 0ULL);
}

/*
 * Defect 7: the stop budget was max(stop_after, jiffies) + cost, which is
 * not wrap-safe: once stop_after has wrapped ahead of jiffies, max() takes
 * jiffies and forgets the stops already made, so a CPU near the wrap
 * could stop at every idle entry.  randstat_stop_budget() compares as
 * jiffies are compared: at one instant, whatever the wrap, a burst of
 * RANDSTAT_STOP_BURST + 1 stops, then one per cost; and
 * randstat_stop_early(), the probe's first look, turns away exactly the
 * entries the budget refuses.
 */
static void stop_budget_test(struct kunit *test)
{
	unsigned long starts[] = { 1000, ULONG_MAX - 2, ULONG_MAX - 20 };
	unsigned long b, now, cost;
	int i, k, n;

	for (i = 0; i < ARRAY_SIZE(starts); i++) {
		for (cost = 1; cost <= 3; cost++) {
			now = starts[i];
			b = RANDSTAT_STOP_FRESH(now);
			for (n = 0, k = 0; k < 100; k++)
				n += randstat_stop_budget(&b, now, cost);
			KUNIT_EXPECT_EQ_MSG(test, n, RANDSTAT_STOP_BURST + 1,
					    "start %lu cost %lu", starts[i], cost);
			/* cost jiffies later, exactly one more */
			now += cost;
			for (n = 0, k = 0; k < 100; k++)
				n += randstat_stop_budget(&b, now, cost);
			KUNIT_EXPECT_EQ_MSG(test, n, 1, "start %lu cost %lu", starts[i], cost);
			/* spent: the first look refuses until the budget's time */
			KUNIT_EXPECT_TRUE(test, randstat_stop_early(b, now));
			KUNIT_EXPECT_TRUE(test, randstat_stop_early(b, b - 1));
			KUNIT_EXPECT_FALSE(test, randstat_stop_early(b, b));
		}
	}
	/* a budget long spent (an hour idle) allows a burst again */
	b = ULONG_MAX - 5;
	now = b + 3600 * HZ;
	for (n = 0, k = 0; k < 100; k++)
		n += randstat_stop_budget(&b, now, 1);
	KUNIT_EXPECT_EQ(test, n, RANDSTAT_STOP_BURST + 1);
}

/*
 * The idle-entry probe must not touch the timer on entry to a state that
 * stops the local timer (the clock event device is shut down by then:
 * cancelling would reprogram it, and warn).  A driver like arm64's PSCI
 * one: a polling state, a shallow one, a deep one with
 * CPUIDLE_FLAG_TIMER_STOP.  With no driver, or a state it does not list,
 * the CPU idles in default_idle_call(), which keeps the local timer but
 * where the arch needs the broadcast (x86 with AMD's E400 C1E): since 6.9
 * it enters the broadcast before the probe.
 */
static void idle_cancel_test(struct kunit *test)
{
	struct cpuidle_driver drv = { .state_count = 3 };
	int b;

	drv.states[0].flags = CPUIDLE_FLAG_POLLING;
	drv.states[2].flags = CPUIDLE_FLAG_TIMER_STOP;
	for (b = 0; b <= 1; b++) {
		KUNIT_EXPECT_TRUE(test, randstat_idle_may_cancel(&drv, 0, b));
		KUNIT_EXPECT_TRUE(test, randstat_idle_may_cancel(&drv, 1, b));
		KUNIT_EXPECT_FALSE(test, randstat_idle_may_cancel(&drv, 2, b));
	}
	/* any other flag with it still stops the timer */
	drv.states[1].flags = CPUIDLE_FLAG_TIMER_STOP | CPUIDLE_FLAG_COUPLED;
	KUNIT_EXPECT_FALSE(test, randstat_idle_may_cancel(&drv, 1, false));
	/* no driver, or a state it does not list: the arch's default idle */
	KUNIT_EXPECT_TRUE(test, randstat_idle_may_cancel(NULL, 2, false));
	KUNIT_EXPECT_TRUE(test, randstat_idle_may_cancel(&drv, 3, false));
	KUNIT_EXPECT_TRUE(test, randstat_idle_may_cancel(&drv, CPUIDLE_STATE_MAX,
							 false));
	/* ... in the broadcast window (default_idle_call() since 6.9) */
	KUNIT_EXPECT_FALSE(test, randstat_idle_may_cancel(NULL, 0, true));
	KUNIT_EXPECT_FALSE(test, randstat_idle_may_cancel(&drv, 3, true));
	KUNIT_EXPECT_FALSE(test, randstat_idle_may_cancel(&drv, CPUIDLE_STATE_MAX,
							  true));
}

/*
 * The sampler's transitions, as the CPU makes them (randstat_acct_enter(),
 * randstat_acct_sample()): start, a sample, a late sample that finds the
 * CPU idle and stops it, a wakeup whose steal backlog the next sample
 * takes from the dormant span, a stop.  Every nanosecond from the start
 * to the stop is covered once: 25 ms elapsed.
 */
static void acct_transitions_test(struct kunit *test)
{
	struct randstat_acct a = { };
	struct randstat_kstat k = { .t_ns = 1000000 };

	randstat_acct_enter(&a, RS_STATE_ACTIVE, &k, false);
	KUNIT_EXPECT_EQ(test, a.state, RS_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, a.prev_ns, 1000000ULL);
	KUNIT_EXPECT_EQ(test, a.steal_credit, 0ULL);

	/* user at 5 ms, its interrupt 0.3 ms late: 4 ms sampled */
	KUNIT_EXPECT_EQ(test, randstat_acct_sample(&a, RS_USER, 1, 5000000,
						   5300000, 0, NULL),
			4000000ULL);
	KUNIT_EXPECT_EQ(test, a.c.sampled_ns, 4000000ULL);
	KUNIT_EXPECT_EQ(test, a.c.samples[RS_USER], 1ULL);
	KUNIT_EXPECT_EQ(test, a.prev_ns, 5000000ULL);

	/*
	 * Two expiries, the last at 9 ms, taken at 9.3 ms: the CPU is idle
	 * and stops.  The sampled time runs to the interrupt, 8.3 ms, and
	 * the dormant span starts there.
	 */
	k.t_ns = 9350000;
	k.ns[RS_IDLE] = 50000000;
	KUNIT_EXPECT_EQ(test, randstat_acct_sample(&a, RS_IDLE, 2, 9000000,
						   9300000, 0, &k),
			4000000ULL);
	KUNIT_EXPECT_EQ(test, a.state, RS_STATE_DORMANT);
	KUNIT_EXPECT_EQ(test, a.c.dormancies, 1ULL);
	KUNIT_EXPECT_EQ(test, a.c.samples[RS_IDLE], 2ULL);
	KUNIT_EXPECT_EQ(test, a.c.overruns, 1ULL);
	KUNIT_EXPECT_EQ(test, a.c.sampled_ns, 8300000ULL);
	KUNIT_EXPECT_EQ(test, a.c.elapsed_ns, 8300000ULL);
	KUNIT_EXPECT_EQ(test, a.base.t_ns, 9300000ULL);

	/* awake at 20 ms, asleep all the 10.7 ms since */
	k.t_ns = 20000000;
	k.ns[RS_IDLE] = 60700000;
	randstat_acct_enter(&a, RS_STATE_ACTIVE, &k, false);
	KUNIT_EXPECT_EQ(test, a.state, RS_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, a.c.exact_ns[RS_IDLE], 10700000ULL);
	KUNIT_EXPECT_EQ(test, a.c.exact_ns[RS_IRQ], 0ULL);
	KUNIT_EXPECT_EQ(test, a.prev_ns, 20000000ULL);
	KUNIT_EXPECT_EQ(test, a.steal_credit, 10700000ULL);

	/* 1 ms of steal accounted at the wakeup: the span's, not the sample's */
	KUNIT_EXPECT_EQ(test, randstat_acct_sample(&a, RS_SYSTEM, 1, 24000000,
						   24010000, 1000000, NULL),
			4000000ULL);
	KUNIT_EXPECT_EQ(test, a.c.exact_ns[RS_IDLE], 9700000ULL);
	KUNIT_EXPECT_EQ(test, a.c.exact_ns[RS_STEAL], 1000000ULL);
	KUNIT_EXPECT_EQ(test, a.steal_credit, 0ULL);
	KUNIT_EXPECT_EQ(test, a.base.ns[RS_STEAL], 1000000ULL);
	KUNIT_EXPECT_EQ(test, a.c.sampled_ns, 12300000ULL);

	/* offline at 26 ms: the 2 ms since the last sample are sampled */
	k.t_ns = 26000000;
	k.ns[RS_STEAL] = 1000000;
	randstat_acct_enter(&a, RS_STATE_OFF, &k, false);
	KUNIT_EXPECT_EQ(test, a.state, RS_STATE_OFF);
	KUNIT_EXPECT_EQ(test, a.c.sampled_ns, 14300000ULL);
	KUNIT_EXPECT_EQ(test, a.c.elapsed_ns, 25000000ULL);
	KUNIT_EXPECT_EQ(test, a.c.dormancies, 1ULL);
}

/* A reset: every count zeroed, the state kept, the time counted from now. */
static void acct_reset_test(struct kunit *test)
{
	static const struct randstat_counters zero_c;
	static const struct randstat_hists zero_h;
	struct randstat_acct a = { };
	struct randstat_kstat k = { .t_ns = 1000000 };

	randstat_acct_enter(&a, RS_STATE_ACTIVE, &k, false);
	k.t_ns = 2000000;
	k.ns[RS_IDLE] = 7000000;
	randstat_acct_sample(&a, RS_IDLE, 1, 2000000, 2000000, 0, &k);
	k.t_ns = 5000000;
	k.ns[RS_IDLE] = 10000000;
	randstat_acct_enter(&a, RS_STATE_ACTIVE, &k, false);
	randstat_record_timing(&a.c, &a.hist, 1000, 2000);
	KUNIT_ASSERT_EQ(test, a.steal_credit, 3000000ULL);

	/* steal the kernel counted before the reset is not owed after it */
	k.t_ns = 6000000;
	k.ns[RS_STEAL] = 400000;
	randstat_acct_enter(&a, a.state, &k, true);
	KUNIT_EXPECT_EQ(test, a.state, RS_STATE_ACTIVE);
	KUNIT_EXPECT_EQ(test, memcmp(&a.c, &zero_c, sizeof(zero_c)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&a.hist, &zero_h, sizeof(zero_h)), 0);
	KUNIT_EXPECT_EQ(test, a.prev_ns, 6000000ULL);
	KUNIT_EXPECT_EQ(test, a.steal_credit, 0ULL);
	KUNIT_EXPECT_EQ(test, a.base.ns[RS_STEAL], 400000ULL);

	/* the next sample shares the time from the reset only */
	KUNIT_EXPECT_EQ(test, randstat_acct_sample(&a, RS_USER, 1, 9000000,
						   9000000, 400000, NULL),
			3000000ULL);
	KUNIT_EXPECT_EQ(test, a.c.sampled_ns, 3000000ULL);
	KUNIT_EXPECT_EQ(test, a.c.exact_ns[RS_STEAL], 0ULL);
}

static struct kunit_case randstat_dormancy_cases[] = {
	KUNIT_CASE(charge_dormant_test),
	KUNIT_CASE(estimate_mixed_test),
	KUNIT_CASE(dormant_busy_test),
	KUNIT_CASE(draw_resume_test),
	KUNIT_CASE(short_bursts_test),
	KUNIT_CASE(floor_abuse_test),
	KUNIT_CASE(dormant_split_test),
	KUNIT_CASE(busy_window_test),
	KUNIT_CASE(pending_charge_test),
	KUNIT_CASE(sleep_move_test),
	KUNIT_CASE(steal_backlog_test),
	KUNIT_CASE(stop_budget_test),
	KUNIT_CASE(idle_cancel_test),
	KUNIT_CASE(acct_transitions_test),
	KUNIT_CASE(acct_reset_test),
	{}
};

static struct kunit_suite randstat_dormancy_suite = {
	.name = "randstat_dormancy",
	.test_cases = randstat_dormancy_cases,
};

kunit_test_suite(randstat_dormancy_suite);

MODULE_LICENSE("GPL");
