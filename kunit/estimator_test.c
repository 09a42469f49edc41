// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: randstat's estimator arithmetic.
 */
#include <kunit/test.h>
#include <linux/param.h>
#include <linux/prandom.h>
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

/*
 * Per CPU, the eight time classes sum to the sum of the intervals, the
 * sample counts to the number of samples, whatever the classes, intervals
 * and steal; steal never exceeds an interval and the rest is carried.
 */
static void charge_sums_test(struct kunit *test)
{
	struct randstat_counters *c = kunit_kzalloc(test, sizeof(*c),
						    GFP_KERNEL);
	u64 elapsed = 0, steal_seen = 0, steal_charged = 0, pending = 0;
	u64 guest = 0, guest_nice = 0;
	struct rnd_state rs;
	int i;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c);
	prandom_seed_state(&rs, 0x5eed0010);
	for (i = 0; i < 100000; i++) {
		enum randstat_class cls = prandom_u32_state(&rs) % RS_NR_CLASSES;
		u64 interval = randstat_draw_interval(&rs, 50000, 6000000);
		u64 steal, charged;

		if (cls == RS_STEAL)	/* never a sample's class */
			cls = RS_IDLE;
		steal = prandom_u32_state(&rs) % 4 ? 0 :
			prandom_u32_state(&rs) % 8000000;
		steal_seen += steal;
		pending += steal;
		charged = randstat_charge(c, cls, interval, pending);
		KUNIT_ASSERT_LE(test, charged, interval);
		KUNIT_ASSERT_LE(test, charged, pending);
		pending -= charged;
		steal_charged += charged;
		elapsed += interval;
		if (cls == RS_GUEST)
			guest += interval - charged;
		if (cls == RS_GUEST_NICE)
			guest_nice += interval - charged;
	}
	KUNIT_EXPECT_EQ(test, randstat_elapsed_ns(c), elapsed);
	KUNIT_EXPECT_EQ(test, randstat_total_samples(c), 100000ULL);
	KUNIT_EXPECT_EQ(test, c->ns[RS_STEAL], steal_charged);
	KUNIT_EXPECT_EQ(test, steal_charged + pending, steal_seen);
	KUNIT_EXPECT_EQ(test, c->samples[RS_STEAL], 0ULL);
	KUNIT_EXPECT_EQ(test, c->ns[RS_GUEST], guest);
	KUNIT_EXPECT_EQ(test, c->ns[RS_GUEST_NICE], guest_nice);
	/* Guest is inside user, guest_nice inside nice, as in /proc/stat. */
	KUNIT_EXPECT_GE(test, c->ns[RS_USER], guest);
	KUNIT_EXPECT_GE(test, c->ns[RS_NICE], guest_nice);
	KUNIT_EXPECT_GE(test, c->samples[RS_USER], c->samples[RS_GUEST]);
}

static void charge_guest_test(struct kunit *test)
{
	struct randstat_counters c = { };

	KUNIT_EXPECT_EQ(test, randstat_charge(&c, RS_GUEST, 4000000, 1000000),
			1000000ULL);
	KUNIT_EXPECT_EQ(test, c.ns[RS_GUEST], 3000000ULL);
	KUNIT_EXPECT_EQ(test, c.ns[RS_USER], 3000000ULL);
	KUNIT_EXPECT_EQ(test, c.ns[RS_STEAL], 1000000ULL);
	KUNIT_EXPECT_EQ(test, c.samples[RS_GUEST], 1ULL);
	KUNIT_EXPECT_EQ(test, c.samples[RS_USER], 1ULL);
	KUNIT_EXPECT_EQ(test, randstat_elapsed_ns(&c), 4000000ULL);

	randstat_charge(&c, RS_GUEST_NICE, 2000000, 0);
	KUNIT_EXPECT_EQ(test, c.ns[RS_NICE], 2000000ULL);
	KUNIT_EXPECT_EQ(test, c.samples[RS_NICE], 1ULL);
	KUNIT_EXPECT_EQ(test, randstat_total_samples(&c), 2ULL);

	/* All steal: the sample still counts, with no time. */
	KUNIT_EXPECT_EQ(test, randstat_charge(&c, RS_SYSTEM, 5000, 9000),
			5000ULL);
	KUNIT_EXPECT_EQ(test, c.ns[RS_SYSTEM], 0ULL);
	KUNIT_EXPECT_EQ(test, c.samples[RS_SYSTEM], 1ULL);
}

/* Sums stay exact up to 2^64 - 1 ns (584 years of one CPU). */
static void charge_limits_test(struct kunit *test)
{
	struct randstat_counters c = { };

	randstat_charge(&c, RS_USER, 1ULL << 62, 0);
	randstat_charge(&c, RS_IDLE, 1ULL << 62, 0);
	randstat_charge(&c, RS_SYSTEM, 1ULL << 62, 1ULL << 61);
	randstat_charge(&c, RS_IOWAIT, (1ULL << 62) - 1, 0);
	KUNIT_EXPECT_EQ(test, randstat_elapsed_ns(&c), U64_MAX);
	KUNIT_EXPECT_EQ(test, c.ns[RS_STEAL], 1ULL << 61);
	KUNIT_EXPECT_EQ(test, randstat_ns_to_clock_t(c.ns[RS_USER]),
			(1ULL << 62) / NS_PER_TICK);
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

	randstat_record_timing(&c, 700, 20000);
	randstat_record_timing(&c, 300, 5000);
	KUNIT_EXPECT_EQ(test, c.cost_ns, 1000ULL);
	KUNIT_EXPECT_EQ(test, c.cost_max_ns, 700ULL);
	KUNIT_EXPECT_EQ(test, c.late_ns, 25000ULL);
	KUNIT_EXPECT_EQ(test, c.late_max_ns, 20000ULL);
	KUNIT_EXPECT_EQ(test, c.cost_hist[randstat_hist_bucket(700)], 1ULL);
	KUNIT_EXPECT_EQ(test, c.cost_hist[randstat_hist_bucket(300)], 1ULL);
	KUNIT_EXPECT_EQ(test, c.late_hist[randstat_hist_bucket(20000)], 1ULL);
}

static struct kunit_case randstat_estimator_cases[] = {
	KUNIT_CASE(clock_t_test),
	KUNIT_CASE(charge_sums_test),
	KUNIT_CASE(charge_guest_test),
	KUNIT_CASE(charge_limits_test),
	KUNIT_CASE(hist_test),
	KUNIT_CASE(timing_test),
	{}
};

static struct kunit_suite randstat_estimator_suite = {
	.name = "randstat_estimator",
	.test_cases = randstat_estimator_cases,
};

kunit_test_suite(randstat_estimator_suite);
