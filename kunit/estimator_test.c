// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: randstat's estimator arithmetic.
 */
#include <kunit/test.h>
#include <linux/param.h>
#include <linux/math64.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "randstat.h"

#define NS_PER_TICK	(NSEC_PER_SEC / USER_HZ)

static void clock_t_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, randstat_ns_to_clock_t(0), 0ULL);
	KUNIT_EXPECT_EQ(test, randstat_ns_to_clock_t(NS_PER_TICK - 1), 0ULL);
	KUNIT_EXPECT_EQ(test, randstat_ns_to_clock_t(NS_PER_TICK), 1ULL);
	KUNIT_EXPECT_EQ(test, randstat_ns_to_clock_t(NSEC_PER_SEC),
			(u64)USER_HZ);
	/* Exact to the top of the range: no overflow in the conversion. */
	KUNIT_EXPECT_EQ(test, randstat_ns_to_clock_t(U64_MAX),
			U64_MAX / NS_PER_TICK);
	KUNIT_EXPECT_EQ(test, randstat_ns_to_clock_t(U64_MAX - 1),
			(U64_MAX - 1) / NS_PER_TICK);
}

/* A keystream keyed by a 64-bit test seed. */
static void seed_rng(struct randstat_rng *r, u64 seed)
{
	u32 key[8] = { lower_32_bits(seed), upper_32_bits(seed) };

	randstat_rng_init(r, key);
}

/* The eight time columns' sum. */
static u64 time_sum(const u64 *ns)
{
	u64 sum = 0;
	int k;

	for (k = 0; k < RS_NR_TIME_CLASSES; k++)
		sum += ns[k];
	return sum;
}

/*
 * Per CPU, the counts sum to the samples taken (expiries that passed
 * included), elapsed_ns to the intervals, steal never exceeds an interval
 * and the rest is carried; guest samples are also user samples.  The
 * times shown, brought up by every charge, never fall, sum to the
 * elapsed time exactly, and stay within a few intervals of (n_k / n)
 * (elapsed - steal); steal is exact, and the samples share the rest.
 */
static void charge_sums_test(struct kunit *test)
{
	struct randstat_counters *c = kunit_kzalloc(test, sizeof(*c),
						    GFP_KERNEL);
	u64 elapsed = 0, steal_seen = 0, steal_charged = 0, pending = 0;
	u64 nsamples = 0, ns[RS_NR_CLASSES] = { 0 }, before[RS_NR_CLASSES];
	u64 worst = 0, t;
	struct randstat_rng rs;
	int i, k;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c);
	seed_rng(&rs, 0x5eed0010);
	for (i = 0; i < 100000; i++) {
		enum randstat_class cls = randstat_rng_u32(&rs) % RS_NR_CLASSES;
		u64 interval = randstat_draw_exponential(&rs, 50000, 4000000);
		u64 m = randstat_rng_u32(&rs) % 16 ? 1 : 2;
		u64 steal, charged;

		if (cls == RS_STEAL)	/* never a sample's class */
			cls = RS_IDLE;
		steal = randstat_rng_u32(&rs) % 4 ? 0 :
			randstat_rng_u32(&rs) % 8000000;
		steal_seen += steal;
		pending += steal;
		charged = randstat_charge(c, cls, m, interval, pending);
		KUNIT_ASSERT_LE(test, charged, interval);
		KUNIT_ASSERT_LE(test, charged, pending);
		pending -= charged;
		steal_charged += charged;
		elapsed += interval;
		nsamples += m;
		memcpy(before, ns, sizeof(ns));
		memcpy(ns, c->shown_ns, sizeof(ns));
		for (k = 0; k < RS_NR_CLASSES; k++)
			KUNIT_ASSERT_GE(test, ns[k], before[k]);
		/* The class the interval went to ends less than it above. */
		for (k = 0; k < RS_NR_TIME_CLASSES; k++) {
			if (k == RS_STEAL || ns[k] == before[k])
				continue;
			t = randstat_mul_div(elapsed - steal_charged,
					     c->samples[k], nsamples);
			KUNIT_ASSERT_LT_MSG(test, ns[k], t + interval + 1,
					    "sample %d, class %d", i, k);
		}
		KUNIT_ASSERT_EQ(test, time_sum(ns), elapsed);
		KUNIT_ASSERT_LE(test, ns[RS_GUEST], ns[RS_USER]);
		KUNIT_ASSERT_LE(test, ns[RS_GUEST_NICE], ns[RS_NICE]);
		for (k = 0; k < RS_NR_TIME_CLASSES; k++) {
			if (k == RS_STEAL)
				continue;
			t = randstat_mul_div(elapsed - steal_charged,
					     c->samples[k], nsamples);
			worst = max_t(u64, worst, abs((s64)ns[k] - (s64)t));
		}
	}
	/*
	 * At every sample, every class within 10 mean intervals of its
	 * target (not a bound of the rule, which allows the deficits to
	 * reach six times the largest interval: what it does here).
	 */
	kunit_info(test, "largest distance from a target: %llu ns\n", worst);
	KUNIT_EXPECT_LE(test, worst, 40000000ULL);
	KUNIT_EXPECT_EQ(test, randstat_elapsed_ns(c), elapsed);
	KUNIT_EXPECT_EQ(test, randstat_total_samples(c), nsamples);
	KUNIT_EXPECT_EQ(test, c->exact_ns[RS_STEAL], steal_charged);
	KUNIT_EXPECT_EQ(test, c->sampled_ns, elapsed - steal_charged);
	KUNIT_EXPECT_EQ(test, ns[RS_STEAL], steal_charged);
	KUNIT_EXPECT_EQ(test, steal_charged + pending, steal_seen);
	KUNIT_EXPECT_EQ(test, c->samples[RS_STEAL], 0ULL);
	KUNIT_EXPECT_GE(test, c->samples[RS_USER], c->samples[RS_GUEST]);
	KUNIT_EXPECT_GE(test, c->samples[RS_NICE], c->samples[RS_GUEST_NICE]);
	/* Every class ends within 10 mean intervals of its target. */
	for (k = 0; k < RS_NR_TIME_CLASSES; k++) {
		u64 t = randstat_mul_div(elapsed - steal_charged,
					    c->samples[k], nsamples);

		if (k == RS_STEAL)
			continue;
		KUNIT_EXPECT_LE_MSG(test, abs((s64)ns[k] - (s64)t), 40000000LL,
				    "class %d", k);
	}
}

static void charge_guest_test(struct kunit *test)
{
	struct randstat_counters c = { };

	KUNIT_EXPECT_EQ(test, randstat_charge(&c, RS_GUEST, 1, 4000000, 1000000),
			1000000ULL);
	KUNIT_EXPECT_EQ(test, c.samples[RS_GUEST], 1ULL);
	KUNIT_EXPECT_EQ(test, c.samples[RS_USER], 1ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_STEAL], 1000000ULL);
	KUNIT_EXPECT_EQ(test, randstat_elapsed_ns(&c), 4000000ULL);

	randstat_charge(&c, RS_GUEST_NICE, 3, 2000000, 0);
	KUNIT_EXPECT_EQ(test, c.samples[RS_NICE], 3ULL);
	KUNIT_EXPECT_EQ(test, c.samples[RS_GUEST_NICE], 3ULL);
	KUNIT_EXPECT_EQ(test, randstat_total_samples(&c), 4ULL);

	/* All steal: the sample still counts. */
	KUNIT_EXPECT_EQ(test, randstat_charge(&c, RS_SYSTEM, 1, 5000, 9000),
			5000ULL);
	KUNIT_EXPECT_EQ(test, c.samples[RS_SYSTEM], 1ULL);
	KUNIT_EXPECT_EQ(test, c.exact_ns[RS_STEAL], 1005000ULL);
}

/* a * b / c exactly, for b <= c, to the top of the range. */
static void mul_div_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, randstat_mul_div(0, 0, 1), 0ULL);
	KUNIT_EXPECT_EQ(test, randstat_mul_div(U64_MAX, 1, 1), U64_MAX);
	KUNIT_EXPECT_EQ(test, randstat_mul_div(U64_MAX, 1, 4), U64_MAX / 4);
	KUNIT_EXPECT_EQ(test, randstat_mul_div(U64_MAX, U64_MAX, U64_MAX),
			U64_MAX);
	KUNIT_EXPECT_EQ(test, randstat_mul_div(U64_MAX, U64_MAX - 1, U64_MAX),
			U64_MAX - 1);
	/* (2^64 - 1) * 3 / 7 = 7905747460161236406 (Python) */
	KUNIT_EXPECT_EQ(test, randstat_mul_div(U64_MAX, 3, 7),
			7905747460161236406ULL);
	/* 10^18 * (2^40 + 1) / (2^41 + 3) = 499999999999772626 (Python) */
	KUNIT_EXPECT_EQ(test, randstat_mul_div(1000000000000000000ULL,
					       (1ULL << 40) + 1,
					       (1ULL << 41) + 3),
			499999999999772626ULL);
	/* r b overflows: r = 2^63 - 1, b = c - 1 = 2^64 - 2 (Python) */
	KUNIT_EXPECT_EQ(test, randstat_mul_div(U64_MAX >> 1, U64_MAX - 1,
					       U64_MAX),
			9223372036854775806ULL);
}

#ifdef __SIZEOF_INT128__
/* xorshift64 (Marsaglia): the next of a fixed sequence, a shift of it */
static u64 mul_div_next(u64 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x >> (*x % 64);
}

/*
 * Against 128-bit arithmetic (a product, no division: no libgcc): q is
 * the floor of a b / c iff q c <= a b < q c + c.  The triples span every
 * width, so both the two-division path (r b fits) and the bit loop
 * (c above 2^32) are taken, each many times.
 */
static void mul_div_random_test(struct kunit *test)
{
	u64 x = 0x9e3779b97f4a7c15ULL, a, b, c, q;
	unsigned int i, loops = 0;
	__uint128_t p, qc;

	for (i = 0; i < 20000; i++) {
		a = mul_div_next(&x);
		c = mul_div_next(&x) | 1;
		b = c - mul_div_next(&x) % c;
		q = randstat_mul_div(a, b, c);
		p = (__uint128_t)a * b;
		qc = (__uint128_t)q * c;
		if (qc > p || p - qc >= c) {
			KUNIT_FAIL(test, "%llu * %llu / %llu: got %llu",
				   a, b, c, q);
			return;
		}
		/* the bit loop: r b does not fit in 64 bits */
		loops += ((__uint128_t)(a % c) * b >> 64) != 0;
	}
	/* Both paths, each at least 10% of the time. */
	KUNIT_EXPECT_GT(test, loops, 2000U);
	KUNIT_EXPECT_LT(test, loops, 18000U);
}
#endif

/* Sums stay exact up to 2^64 - 1 ns (584 years of one CPU). */
static void charge_limits_test(struct kunit *test)
{
	struct randstat_counters c = { };
	u64 ns[RS_NR_CLASSES] = { 0 };

	randstat_charge(&c, RS_USER, 1, 1ULL << 62, 0);
	randstat_charge(&c, RS_IDLE, 1, 1ULL << 62, 0);
	randstat_charge(&c, RS_SYSTEM, 1, 1ULL << 62, 1ULL << 61);
	randstat_charge(&c, RS_IOWAIT, 1, (1ULL << 62) - 1, 0);
	KUNIT_EXPECT_EQ(test, randstat_elapsed_ns(&c), U64_MAX);
	memcpy(ns, c.shown_ns, sizeof(ns));
	KUNIT_EXPECT_EQ(test, time_sum(ns), U64_MAX);
	KUNIT_EXPECT_EQ(test, ns[RS_STEAL], 1ULL << 61);
	/*
	 * Targets (2^64 - 1 - 2^61) / 4 each; each interval went whole to
	 * the class furthest below: the system sample's 2^61 left after
	 * steal, the iowait sample's 2^62 - 1.
	 */
	KUNIT_EXPECT_EQ(test, ns[RS_USER], 1ULL << 62);
	KUNIT_EXPECT_EQ(test, ns[RS_IDLE], 1ULL << 62);
	KUNIT_EXPECT_EQ(test, ns[RS_SYSTEM], 1ULL << 61);
	KUNIT_EXPECT_EQ(test, ns[RS_IOWAIT], (1ULL << 62) - 1);
}

/*
 * By hand: each sample weighs the same; each interval goes whole to the
 * class furthest below its target; a class whose target falls keeps what
 * it was shown until its target catches up.
 */
static void estimate_by_hand_test(struct kunit *test)
{
	struct randstat_counters c = { };

	/* 3 user samples after long intervals: user's, 9 ms */
	randstat_charge(&c, RS_USER, 1, 3000000, 0);
	randstat_charge(&c, RS_USER, 1, 3000000, 0);
	randstat_charge(&c, RS_USER, 1, 3000000, 0);
	KUNIT_EXPECT_EQ(test, c.shown_ns[RS_USER], 9000000ULL);
	/*
	 * 1 idle after a short one: 9.003 ms, targets user 3/4 of it
	 * (6.75225 ms), idle 1/4, whatever the intervals.  User is above
	 * its target and keeps its 9 ms; idle, below, takes the 3 us.
	 */
	randstat_charge(&c, RS_IDLE, 1, 3000, 0);
	KUNIT_EXPECT_EQ(test, c.shown_ns[RS_USER], 9000000ULL);
	KUNIT_EXPECT_EQ(test, c.shown_ns[RS_IDLE], 3000ULL);
	KUNIT_EXPECT_EQ(test, randstat_total_samples(&c), 4ULL);

	/* One more idle sample, 0.1 ms later: user's target falls to 3/5 */
	randstat_charge(&c, RS_IDLE, 1, 100000, 0);
	KUNIT_EXPECT_EQ(test, c.shown_ns[RS_USER], 9000000ULL);
	KUNIT_EXPECT_EQ(test, c.shown_ns[RS_IDLE], 103000ULL);

	/* Five more idle samples: user's target 3/10 of 29.103 ms */
	randstat_charge(&c, RS_IDLE, 5, 20000000, 0);
	KUNIT_EXPECT_EQ(test, c.shown_ns[RS_USER], 9000000ULL);
	KUNIT_EXPECT_EQ(test, c.shown_ns[RS_IDLE], 20103000ULL);
	KUNIT_EXPECT_EQ(test, time_sum(c.shown_ns), 29103000ULL);

	/* A user sample: user's target 4/11 of 33.103 ms is above 9 ms. */
	randstat_charge(&c, RS_USER, 1, 4000000, 0);
	KUNIT_EXPECT_EQ(test, c.shown_ns[RS_USER], 13000000ULL);
	KUNIT_EXPECT_EQ(test, c.shown_ns[RS_IDLE], 20103000ULL);
}

/*
 * A CPU that stops sampling at an idle entry charges the span since its
 * last sample as sampled time (randstat_charge_span()): the samples
 * before it cover it.  By hand: 1 user and 1 idle sample over 4 ms, then
 * a 2 ms span: 6 ms elapsed and sampled, shared 3 ms and 3 ms.
 */
static void charge_span_test(struct kunit *test)
{
	struct randstat_counters c = { };
	u64 ns[RS_NR_CLASSES] = { 0 }, after[RS_NR_CLASSES] = { 0 };

	randstat_charge(&c, RS_USER, 1, 3000000, 0);
	randstat_charge(&c, RS_IDLE, 1, 1000000, 0);
	memcpy(ns, c.shown_ns, sizeof(ns));
	/* targets 2 ms each: user, above, keeps 3; idle takes its 1 */
	KUNIT_EXPECT_EQ(test, ns[RS_USER], 3000000ULL);
	KUNIT_EXPECT_EQ(test, ns[RS_IDLE], 1000000ULL);

	randstat_charge_span(&c, 2000000);
	KUNIT_EXPECT_EQ(test, c.elapsed_ns, 6000000ULL);
	KUNIT_EXPECT_EQ(test, c.sampled_ns, 6000000ULL);
	KUNIT_EXPECT_EQ(test, randstat_total_samples(&c), 2ULL);
	memcpy(after, c.shown_ns, sizeof(after));
	KUNIT_EXPECT_EQ(test, after[RS_USER], 3000000ULL);
	KUNIT_EXPECT_EQ(test, after[RS_IDLE], 3000000ULL);
	KUNIT_EXPECT_EQ(test, time_sum(after), 6000000ULL);
}

/*
 * The times shown are the counters' own: what a reader sees does not
 * depend on when, or whether, anyone read before.  The same samples
 * charged with reads at every sample, at random, or never, leave the same
 * times shown; a reader's own state (randstat_keep_shown()) shows them as
 * they are when nothing fell.  A reset (the counters zeroed) zeroes them.
 */
static void shown_stateless_test(struct kunit *test)
{
	struct randstat_counters *a = kunit_kzalloc(test, sizeof(*a),
						    GFP_KERNEL);
	struct randstat_counters *b = kunit_kzalloc(test, sizeof(*b),
						    GFP_KERNEL);
	u64 mine[RS_NR_CLASSES] = { 0 }, copy[RS_NR_CLASSES];
	struct randstat_rng rs;
	int i, k;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	seed_rng(&rs, 0x5eed0040);
	for (i = 0; i < 20000; i++) {
		enum randstat_class cls = randstat_rng_u32(&rs) % 3 ?
					  RS_USER : RS_IDLE;
		u64 interval = randstat_draw_exponential(&rs, 50000, 4000000);

		randstat_charge(a, cls, 1, interval, 0);
		randstat_charge(b, cls, 1, interval, 0);
		/* b is read often, by a reader that keeps what it showed */
		if (randstat_rng_u32(&rs) % 4 == 0) {
			memcpy(copy, b->shown_ns, sizeof(copy));
			randstat_keep_shown(copy, mine);
			for (k = 0; k < RS_NR_CLASSES; k++)
				KUNIT_ASSERT_EQ(test, mine[k], copy[k]);
		}
	}
	KUNIT_EXPECT_EQ(test, memcmp(a, b, sizeof(*a)), 0);
	memset(a, 0, sizeof(*a));
	randstat_charge(a, RS_SYSTEM, 1, 4000000, 0);
	KUNIT_EXPECT_EQ(test, a->shown_ns[RS_SYSTEM], 4000000ULL);
	KUNIT_EXPECT_EQ(test, time_sum(a->shown_ns), 4000000ULL);
}

/*
 * A process that knows every sample time and runs for BURST right after
 * each one (the strongest form of the attack: it starts at the sample
 * itself), simulated over NSIM samples of each law.  The process is busy
 * on the union of [t_i, t_i + BURST).
 *
 * Exponential law: the count estimator charges its true time, less at
 * most floor / mean of the elapsed time (the floor's window) and 4 sigma,
 * sigma = T sqrt(p (1 - p) / n); charging each sample the interval before
 * it gives it a small fraction (the intervals that end in its samples are
 * short): under half.
 *
 * Uniform law, BURST < tmin: no sample ever lands in a burst; whatever
 * the estimator, the process is never charged.
 */
#define NSIM	200000
#define BURST	1000000

struct sim {
	u64 elapsed, busy, n, n_busy, interval_busy;
};

static void simulate(struct randstat_rng *r, enum randstat_law law,
		     struct randstat_window w, struct sim *s)
{
	u64 t = 0, end = 0, next;
	int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < NSIM; i++) {
		u64 interval = randstat_draw_interval(r, law, w);

		end = max(end, t + BURST);	/* it runs after sample t */
		next = t + interval;
		s->busy += min(next, end) - t;
		s->n++;
		if (next < end) {
			s->n_busy++;
			s->interval_busy += interval;
		}
		t = next;
	}
	s->elapsed = t;
}

static void pasta_test(struct kunit *test)
{
	struct randstat_window e = { RANDSTAT_FLOOR_DEFAULT_NS,
				     RANDSTAT_MEAN_DEFAULT_NS };
	struct randstat_window u = { RANDSTAT_TMIN_DEFAULT_NS,
				     RANDSTAT_TMAX_DEFAULT_NS };
	u64 counted, allowance, sigma, p_ppm;
	struct randstat_rng rs;
	struct sim s;

	seed_rng(&rs, 0x5eed0020);
	simulate(&rs, RS_LAW_EXPONENTIAL, e, &s);
	counted = randstat_mul_div(s.elapsed, s.n_busy, s.n);
	p_ppm = div64_u64(1000000 * s.busy, s.elapsed);
	sigma = div64_u64(s.elapsed * int_sqrt64(p_ppm * (1000000 - p_ppm)),
			  1000000 * int_sqrt64(s.n)) + 1;
	allowance = randstat_mul_div(s.elapsed, e.lo, e.hi);
	kunit_info(test, "exponential: busy %llu ms of %llu ms; counts charge %llu ms, intervals %llu ms; floor/mean allows %llu ms, 4 sigma %llu ms\n",
		   s.busy / 1000000, s.elapsed / 1000000, counted / 1000000,
		   s.interval_busy / 1000000, allowance / 1000000,
		   4 * sigma / 1000000);
	KUNIT_EXPECT_GE(test, counted + allowance + 4 * sigma, s.busy);
	KUNIT_EXPECT_LE(test, counted, s.busy + 4 * sigma);
	KUNIT_EXPECT_LT(test, 2 * s.interval_busy, s.busy);

	simulate(&rs, RS_LAW_UNIFORM, u, &s);
	kunit_info(test, "uniform: busy %llu ms of %llu ms, %llu of %llu samples in it\n",
		   s.busy / 1000000, s.elapsed / 1000000, s.n_busy, s.n);
	KUNIT_EXPECT_GT(test, s.busy, s.elapsed / 10);
	KUNIT_EXPECT_EQ(test, s.n_busy, 0ULL);
}

static void hist_test(struct kunit *test)
{
	static const struct { u64 v; unsigned int b; } cases[] = {
		{ 0, 0 }, { 63, 0 }, { 64, 1 }, { 95, 1 }, { 96, 2 },
		{ 127, 2 }, { 128, 3 }, { 191, 3 }, { 192, 4 }, { 256, 5 },
		{ 1000, 8 }, { 1024, 9 }, { U64_MAX, RANDSTAT_HIST_BUCKETS - 1 },
	};
	unsigned int i, b;
	u64 v;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test, randstat_hist_bucket(cases[i].v),
				    cases[i].b, "v=%llu", cases[i].v);

	/* Bounds rise, and every value lands in the bucket that holds it. */
	for (b = 1; b < RANDSTAT_HIST_BUCKETS; b++)
		KUNIT_EXPECT_LT(test, randstat_hist_lower_bound(b - 1),
				randstat_hist_lower_bound(b));
	for (v = 1; v < (1ULL << 24); v = v * 9 / 8 + 1) {
		b = randstat_hist_bucket(v);
		KUNIT_EXPECT_LE(test, randstat_hist_lower_bound(b), v);
		if (b + 1 < RANDSTAT_HIST_BUCKETS)
			KUNIT_EXPECT_LT(test, v, randstat_hist_lower_bound(b + 1));
	}
}

static void timing_test(struct kunit *test)
{
	struct randstat_counters c = { };
	struct randstat_hists h = { };

	randstat_record_timing(&c, &h, 700, 20000);
	randstat_record_timing(&c, &h, 300, 5000);
	KUNIT_EXPECT_EQ(test, c.cost_ns, 1000ULL);
	KUNIT_EXPECT_EQ(test, c.cost_max_ns, 700ULL);
	KUNIT_EXPECT_EQ(test, c.late_ns, 25000ULL);
	KUNIT_EXPECT_EQ(test, c.late_max_ns, 20000ULL);
	KUNIT_EXPECT_EQ(test, h.cost[randstat_hist_bucket(700)], 1ULL);
	KUNIT_EXPECT_EQ(test, h.cost[randstat_hist_bucket(300)], 1ULL);
	KUNIT_EXPECT_EQ(test, h.late[randstat_hist_bucket(20000)], 1ULL);
}

/* What one reader shows of times that fall, worked by hand. */
static void keep_shown_by_hand_test(struct kunit *test)
{
	u64 raw[RS_NR_CLASSES] = { }, shown[RS_NR_CLASSES] = { };

	/* From zero (the start, or a reset): shown as they are. */
	raw[RS_USER] = 7;
	raw[RS_IDLE] = 100;
	raw[RS_IOWAIT] = 50;
	randstat_keep_shown(raw, shown);
	KUNIT_EXPECT_EQ(test, shown[RS_USER], 7ULL);
	KUNIT_EXPECT_EQ(test, shown[RS_IDLE], 100ULL);
	KUNIT_EXPECT_EQ(test, shown[RS_IOWAIT], 50ULL);

	/* The I/O ends mid-sleep: its 50 move to idle, and 30 more pass. */
	raw[RS_IDLE] = 180;
	raw[RS_IOWAIT] = 0;
	randstat_keep_shown(raw, shown);
	KUNIT_EXPECT_EQ(test, shown[RS_IOWAIT], 50ULL);
	KUNIT_EXPECT_EQ(test, shown[RS_IDLE], 130ULL);

	/* A wait begins again: the sleep so far (120) moves to iowait. */
	raw[RS_IDLE] = 100;
	raw[RS_IOWAIT] = 120;
	randstat_keep_shown(raw, shown);
	KUNIT_EXPECT_EQ(test, shown[RS_IOWAIT], 90ULL);
	KUNIT_EXPECT_EQ(test, shown[RS_IDLE], 130ULL);

	/* The sum falls by rounding: nothing new is shown. */
	raw[RS_IOWAIT] = 119;
	randstat_keep_shown(raw, shown);
	KUNIT_EXPECT_EQ(test, shown[RS_IOWAIT], 90ULL);
	KUNIT_EXPECT_EQ(test, shown[RS_IDLE], 130ULL);

	/* Back on track as soon as the sum allows. */
	raw[RS_USER] = 9;
	raw[RS_IDLE] = 200;
	raw[RS_IOWAIT] = 150;
	randstat_keep_shown(raw, shown);
	KUNIT_EXPECT_EQ(test, shown[RS_USER], 9ULL);
	KUNIT_EXPECT_EQ(test, shown[RS_IOWAIT], 150ULL);
	KUNIT_EXPECT_EQ(test, shown[RS_IDLE], 200ULL);
}

/*
 * A sleeping CPU as tick-sched.c keeps it: each sleep is committed at its
 * end to iowait if a task waits for I/O then, else to idle, and a look
 * during a sleep counts the sleep so far the same way by the wait at the
 * look.  Waits begin and end during sleeps.  Read at random times, the raw
 * figures fall (the case proves it can fail) and the shown ones never do,
 * sum to the raw sum, and keep iowait within one sleep of the raw.
 */
static void keep_shown_nohz_test(struct kunit *test)
{
	u64 raw[RS_NR_CLASSES] = { }, shown[RS_NR_CLASSES] = { };
	u64 prev[RS_NR_CLASSES] = { }, prev_raw_iowait = 0;
	u64 idle = 0, iowait = 0, sleep, so_far, maxsleep = 0;
	unsigned int i, j, raw_falls = 0, bad = 0;
	struct randstat_rng r;
	bool waiting = false;

	seed_rng(&r, 0x5eed0030);
	for (i = 0; i < 20000; i++) {
		sleep = 1 + randstat_rng_u32(&r) % 5000000;
		maxsleep = max(maxsleep, sleep);
		for (so_far = 0; so_far < sleep; ) {
			so_far = min(sleep, so_far + 1 +
				     randstat_rng_u32(&r) % 2000000);
			if (randstat_rng_u32(&r) % 4 == 0)
				waiting = !waiting;
			raw[RS_IDLE] = idle + (waiting ? 0 : so_far);
			raw[RS_IOWAIT] = iowait + (waiting ? so_far : 0);
			raw_falls += raw[RS_IOWAIT] < prev_raw_iowait;
			prev_raw_iowait = raw[RS_IOWAIT];
			randstat_keep_shown(raw, shown);
			for (j = 0; j < RS_NR_CLASSES; j++)
				bad += shown[j] < prev[j];
			memcpy(prev, shown, sizeof(prev));
			bad += shown[RS_IDLE] + shown[RS_IOWAIT] !=
			       raw[RS_IDLE] + raw[RS_IOWAIT];
			bad += shown[RS_IOWAIT] > raw[RS_IOWAIT] + maxsleep ||
			       raw[RS_IOWAIT] > shown[RS_IOWAIT] + maxsleep;
		}
		if (waiting)
			iowait += sleep;
		else
			idle += sleep;
	}
	kunit_info(test, "raw iowait fell %u times; shown: %u faults\n",
		   raw_falls, bad);
	KUNIT_EXPECT_GT(test, raw_falls, 0U);
	KUNIT_EXPECT_EQ(test, bad, 0U);
}

static struct kunit_case randstat_estimator_cases[] = {
	KUNIT_CASE(clock_t_test),
	KUNIT_CASE(charge_sums_test),
	KUNIT_CASE(charge_guest_test),
	KUNIT_CASE(mul_div_test),
#ifdef __SIZEOF_INT128__
	KUNIT_CASE(mul_div_random_test),
#endif
	KUNIT_CASE(charge_limits_test),
	KUNIT_CASE(estimate_by_hand_test),
	KUNIT_CASE(charge_span_test),
	KUNIT_CASE(shown_stateless_test),
	KUNIT_CASE(pasta_test),
	KUNIT_CASE(hist_test),
	KUNIT_CASE(timing_test),
	KUNIT_CASE(keep_shown_by_hand_test),
	KUNIT_CASE(keep_shown_nohz_test),
	{}
};

static struct kunit_suite randstat_estimator_suite = {
	.name = "randstat_estimator",
	.test_cases = randstat_estimator_cases,
};

kunit_test_suite(randstat_estimator_suite);
