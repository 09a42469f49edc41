// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: randstat's interval drawing and parameter validation.
 *
 * The statistical cases use fixed seeds so that a verdict is reproducible.
 * Their bounds are the ones a correct uniform generator passes run after
 * run: the mean within 4 sigma (a random seed would fail 6 runs in 100 000)
 * and chi-square at p > 0.001.
 */
#include <kunit/test.h>
#include <linux/gcd.h>
#include <linux/math64.h>
#include <linux/sort.h>

#include "randstat.h"

#define NDRAWS		100000
#define NBINS		20
/* chi-square critical values at p = 0.001 */
#define CHI2_P001_DF19_X1000	43820	/* 19 degrees of freedom */
#define CHI2_P001_DF2_X1000	13816	/* 2 degrees of freedom */

struct window_case {
	const char *name;
	u32 tmin, tmax;
	u64 seed;
};

static const struct window_case window_cases[] = {
	{ "default 2..6 ms", RANDSTAT_TMIN_DEFAULT_NS, RANDSTAT_TMAX_DEFAULT_NS,
	  0x5eed0001 },
	{ "limits 50 us..1 s", RANDSTAT_TMIN_LIMIT_NS, RANDSTAT_TMAX_LIMIT_NS,
	  0x5eed0002 },
	{ "10x rate 200..600 us", 200000, 600000, 0x5eed0003 },
};

static void window_case_desc(const struct window_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(window, window_cases, window_case_desc);

/*
 * Every draw lies in [tmin, tmax]; the mean of NDRAWS draws is within
 * 4 sigma of (tmin + tmax) / 2, sigma = (tmax - tmin) / sqrt(12 NDRAWS);
 * the 20-bin histogram passes chi-square with 19 degrees of freedom at
 * p > 0.001.
 */
static void draw_uniform_test(struct kunit *test)
{
	const struct window_case *c = test->param_value;
	u64 span = (u64)c->tmax - c->tmin + 1;
	u64 bins[NBINS] = { 0 };
	u64 sum = 0, expected, chi2 = 0, sigma, mean;
	struct rnd_state rs;
	int i;

	prandom_seed_state(&rs, c->seed);
	for (i = 0; i < NDRAWS; i++) {
		u32 w = randstat_draw_interval(&rs, c->tmin, c->tmax);

		KUNIT_ASSERT_GE(test, w, c->tmin);
		KUNIT_ASSERT_LE(test, w, c->tmax);
		sum += w;
		bins[div64_u64((u64)(w - c->tmin) * NBINS, span)]++;
	}

	mean = div_u64(sum, NDRAWS);
	sigma = int_sqrt(div_u64(((u64)c->tmax - c->tmin) *
				 ((u64)c->tmax - c->tmin), 12 * NDRAWS)) + 1;
	kunit_info(test, "mean %llu ns, want %llu +- %llu (4 sigma)\n", mean,
		   ((u64)c->tmin + c->tmax) / 2, 4 * sigma);
	KUNIT_EXPECT_LE(test, abs((s64)(2 * mean) - ((s64)c->tmin + c->tmax)),
			(s64)(8 * sigma));

	expected = NDRAWS / NBINS;
	for (i = 0; i < NBINS; i++)
		chi2 += (bins[i] - expected) * (bins[i] - expected);
	kunit_info(test, "chi-square %llu.%03llu, 19 df, p=0.001 at 43.820\n",
		   div_u64(chi2, expected),
		   div_u64(1000 * (chi2 % expected), expected));
	KUNIT_EXPECT_LT(test, 1000 * chi2, CHI2_P001_DF19_X1000 * expected);
}

/* Three values, each a third: chi-square with 2 degrees of freedom. */
static void draw_small_span_test(struct kunit *test)
{
	u64 bins[3] = { 0 }, chi2 = 0, expected = 30000;
	struct rnd_state rs;
	int i;

	prandom_seed_state(&rs, 0x5eed0004);
	for (i = 0; i < 3 * expected; i++) {
		u32 w = randstat_draw_interval(&rs, 100000, 100002);

		KUNIT_ASSERT_GE(test, w, 100000U);
		KUNIT_ASSERT_LE(test, w, 100002U);
		bins[w - 100000]++;
	}
	for (i = 0; i < 3; i++)
		chi2 += (bins[i] - expected) * (bins[i] - expected);
	KUNIT_EXPECT_LT(test, 1000 * chi2, CHI2_P001_DF2_X1000 * expected);
}

/* tmin == tmax is allowed and gives exactly that interval. */
static void draw_fixed_test(struct kunit *test)
{
	struct rnd_state rs;
	int i;

	prandom_seed_state(&rs, 0x5eed0005);
	for (i = 0; i < 1000; i++)
		KUNIT_ASSERT_EQ(test, randstat_draw_interval(&rs, 3000000, 3000000),
				3000000U);
	KUNIT_EXPECT_EQ(test, randstat_window_check(3000000, 3000000), 0);
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/*
 * No lattice: nanosecond resolution, so 10 000 draws from the 4 000 001
 * values of the default window are nearly all distinct (at least 1000 are
 * required) and their offsets from tmin share no common divisor.
 */
static void draw_no_lattice_test(struct kunit *test)
{
	const int n = 10000;
	u32 *v = kunit_kmalloc_array(test, n, sizeof(*v), GFP_KERNEL);
	unsigned long g = 0;
	struct rnd_state rs;
	int i, distinct = 1;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, v);
	prandom_seed_state(&rs, 0x5eed0006);
	for (i = 0; i < n; i++) {
		v[i] = randstat_draw_interval(&rs, RANDSTAT_TMIN_DEFAULT_NS,
					      RANDSTAT_TMAX_DEFAULT_NS);
		g = gcd(g, v[i] - RANDSTAT_TMIN_DEFAULT_NS);
	}
	sort(v, n, sizeof(*v), cmp_u32, NULL);
	for (i = 1; i < n; i++)
		distinct += v[i] != v[i - 1];
	kunit_info(test, "%d distinct of %d, gcd %lu\n", distinct, n, g);
	KUNIT_EXPECT_GE(test, distinct, 1000);
	KUNIT_EXPECT_EQ(test, g, 1UL);
}

static void window_check_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, randstat_window_check(50000, 50000), 0);
	KUNIT_EXPECT_EQ(test, randstat_window_check(50000, 1000000000), 0);
	KUNIT_EXPECT_EQ(test, randstat_window_check(2000000, 6000000), 0);
	KUNIT_EXPECT_EQ(test, randstat_window_check(49999, 6000000), -EINVAL);
	KUNIT_EXPECT_EQ(test, randstat_window_check(0, 6000000), -EINVAL);
	KUNIT_EXPECT_EQ(test, randstat_window_check(2000000, 1000000001),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, randstat_window_check(6000001, 6000000), -EINVAL);
	KUNIT_EXPECT_EQ(test, randstat_window_check(U64_MAX, U64_MAX), -EINVAL);
}

struct set_case {
	const char *name;
	bool is_tmax;
	u64 val;
	bool alone;
	int ret;
	u32 tmin, tmax;	/* the window after, from 2 ms..6 ms */
};

static const struct set_case set_cases[] = {
	/* Accepted: the one value changes. */
	{ "tmin 3 ms", false, 3000000, false, 0, 3000000, 6000000 },
	{ "tmax 10 ms", true, 10000000, false, 0, 2000000, 10000000 },
	{ "tmin = tmax", false, 6000000, false, 0, 6000000, 6000000 },
	{ "tmin at limit", false, 50000, false, 0, 50000, 6000000 },
	{ "tmax at limit", true, 1000000000, false, 0, 2000000, 1000000000 },
	/* Refused: both values stay. */
	{ "tmin below limit", false, 49999, false, -EINVAL, 2000000, 6000000 },
	{ "tmin zero", false, 0, false, -EINVAL, 2000000, 6000000 },
	{ "tmax above limit", true, 1000000001, false, -EINVAL, 2000000,
	  6000000 },
	{ "tmin above tmax", false, 6000001, false, -EINVAL, 2000000, 6000000 },
	{ "tmax below tmin", true, 1999999, false, -EINVAL, 2000000, 6000000 },
	{ "tmax 2^32 + 6 ms", true, (1ULL << 32) + 6000000, false, -EINVAL,
	  2000000, 6000000 },
	{ "tmin U64_MAX", false, U64_MAX, false, -EINVAL, 2000000, 6000000 },
	/* At load time each value is checked alone, in either order. */
	{ "load: tmin past tmax", false, 10000000, true, 0, 10000000, 6000000 },
	{ "load: tmax below tmin", true, 1000000, true, 0, 2000000, 1000000 },
	{ "load: tmin below limit", false, 49999, true, -EINVAL, 2000000,
	  6000000 },
	{ "load: tmax above limit", true, 1000000001, true, -EINVAL, 2000000,
	  6000000 },
};

static void set_case_desc(const struct set_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(set, set_cases, set_case_desc);

static void window_set_test(struct kunit *test)
{
	const struct set_case *c = test->param_value;
	struct randstat_window w = { RANDSTAT_TMIN_DEFAULT_NS,
				     RANDSTAT_TMAX_DEFAULT_NS };

	KUNIT_EXPECT_EQ(test, randstat_window_set(&w, c->is_tmax, c->val,
						  c->alone), c->ret);
	KUNIT_EXPECT_EQ(test, w.tmin, c->tmin);
	KUNIT_EXPECT_EQ(test, w.tmax, c->tmax);
}

static struct kunit_case randstat_interval_cases[] = {
	KUNIT_CASE_PARAM(draw_uniform_test, window_gen_params),
	KUNIT_CASE(draw_small_span_test),
	KUNIT_CASE(draw_fixed_test),
	KUNIT_CASE(draw_no_lattice_test),
	KUNIT_CASE(window_check_test),
	KUNIT_CASE_PARAM(window_set_test, set_gen_params),
	{}
};

static struct kunit_suite randstat_interval_suite = {
	.name = "randstat_interval",
	.test_cases = randstat_interval_cases,
};

kunit_test_suite(randstat_interval_suite);
