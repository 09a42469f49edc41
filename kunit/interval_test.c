// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: randstat's interval laws and parameter validation.
 *
 * The statistical cases use fixed keys so that a verdict is reproducible.
 * Their bounds are the ones a correct generator passes run after run: the
 * mean within 4 sigma (a random key would fail 6 runs in 100 000) and
 * chi-square at p > 0.001.
 */
#include <kunit/test.h>
#include <linux/gcd.h>
#include <linux/math64.h>
#include <linux/sort.h>

#include "randstat.h"

/* A keystream keyed by a 64-bit test seed. */
static void seed_rng(struct randstat_rng *r, u64 seed)
{
	u32 key[8] = { lower_32_bits(seed), upper_32_bits(seed) };

	randstat_rng_init(r, key);
}

#define NDRAWS		100000
#define NBINS		20
/* chi-square critical values at p = 0.001 */
#define CHI2_P001_DF19_X1000	43820	/* 19 degrees of freedom */
#define CHI2_P001_DF2_X1000	13816	/* 2 degrees of freedom */
#define CHI2_P001_DF31_X1000	61098	/* 31 degrees of freedom */

/*
 * Chi-square of NBINS equally likely bins, each expecting @expected, below
 * @crit_x1000 / 1000 (the p = 0.001 critical value for nbins - 1 degrees
 * of freedom).
 */
static void expect_fit(struct kunit *test, const u64 *bins, int nbins,
		       u64 expected, u64 crit_x1000)
{
	u64 chi2 = 0;
	int i;

	for (i = 0; i < nbins; i++)
		chi2 += (bins[i] - expected) * (bins[i] - expected);
	kunit_info(test, "chi-square %llu.%03llu, %d df, p=0.001 at %llu.%03llu\n",
		   div_u64(chi2, expected),
		   div_u64(1000 * (chi2 % expected), expected), nbins - 1,
		   crit_x1000 / 1000, crit_x1000 % 1000);
	KUNIT_EXPECT_LT(test, 1000 * chi2, crit_x1000 * expected);
}

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
	u64 sum = 0, sigma, mean;
	struct randstat_rng rs;
	int i;

	seed_rng(&rs, c->seed);
	for (i = 0; i < NDRAWS; i++) {
		u32 w = randstat_draw_uniform(&rs, c->tmin, c->tmax);

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

	expect_fit(test, bins, NBINS, NDRAWS / NBINS, CHI2_P001_DF19_X1000);
}

/* Three values, each a third: chi-square with 2 degrees of freedom. */
static void draw_small_span_test(struct kunit *test)
{
	u64 bins[3] = { 0 }, expected = 30000;
	struct randstat_rng rs;
	int i;

	seed_rng(&rs, 0x5eed0004);
	for (i = 0; i < 3 * expected; i++) {
		u32 w = randstat_draw_uniform(&rs, 100000, 100002);

		KUNIT_ASSERT_GE(test, w, 100000U);
		KUNIT_ASSERT_LE(test, w, 100002U);
		bins[w - 100000]++;
	}
	expect_fit(test, bins, 3, expected, CHI2_P001_DF2_X1000);
}

/* tmin == tmax is allowed and gives exactly that interval. */
static void draw_fixed_test(struct kunit *test)
{
	struct randstat_rng rs;
	int i;

	seed_rng(&rs, 0x5eed0005);
	for (i = 0; i < 1000; i++)
		KUNIT_ASSERT_EQ(test, randstat_draw_uniform(&rs, 3000000, 3000000),
				3000000U);
	KUNIT_EXPECT_EQ(test, randstat_window_check(RS_LAW_UNIFORM, 3000000,
						    3000000), 0);
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
	struct randstat_rng rs;
	int i, distinct = 1;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, v);
	seed_rng(&rs, 0x5eed0006);
	for (i = 0; i < n; i++) {
		v[i] = randstat_draw_uniform(&rs, RANDSTAT_TMIN_DEFAULT_NS,
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

/*
 * -log2(u / 2^64) in 32.32 fixed point: exact at powers of two, and within
 * 1 unit (2^-32) of the exact value elsewhere (it is within 0.54 units;
 * values from Python's math.log2).
 */
static void neg_log2_test(struct kunit *test)
{
	static const struct {
		u64 u, want;
	} cases[] = {
		{ 1, 64ULL << 32 },
		{ 1ULL << 32, 32ULL << 32 },
		{ 1ULL << 63, 1ULL << 32 },
		{ 3ULL << 62, 1782572486 },		/* 2 - log2 3 */
		{ 12345678901234567ULL, 45291049934ULL },
		{ U64_MAX, 0 },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		u64 got = randstat_neg_log2(cases[i].u);

		KUNIT_EXPECT_LE_MSG(test, got, cases[i].want + 1, "u=%llu",
				    cases[i].u);
		KUNIT_EXPECT_GE_MSG(test, got + 1, cases[i].want, "u=%llu",
				    cases[i].u);
	}
	KUNIT_EXPECT_EQ(test, randstat_neg_log2(0), randstat_neg_log2(1));
}

/*
 * log2(x) for x in [1, 2) given in 2.62 fixed point, in 0.62 fixed point,
 * one bit per squaring of x (log2(x^2) = 2 log2(x)): slow, and independent
 * of randstat_neg_log2()'s table and polynomial.  Each square is truncated
 * to 62 bits, as is the result: it falls short of the exact value by less
 * than 3 units of 2^-62.
 */
static u64 ref_log2_q62(u64 x)
{
	u64 r = 0;
	int i;

	for (i = 0; i < 62; i++) {
		x = mul_u64_u64_shr(x, x, 62);
		r <<= 1;
		if (x >= 1ULL << 63) {
			x >>= 1;
			r |= 1;
		}
	}
	return r;
}

/*
 * randstat_log2_table against its definition: inv is 2^64 / (128 + i)
 * rounded (so inv (128 + i) is within (128 + i) / 2 of 2^64: modulo 2^64,
 * within that of 0), and log2 is log2(1 + i/128) in 2.62 fixed point
 * within 4 units of the squaring reference.
 */
static void neg_log2_table_test(struct kunit *test)
{
	int i;

	for (i = 0; i < RS_LOG2_N; i++) {
		const struct randstat_log2_entry *e = &randstat_log2_table[i];
		s64 n = RS_LOG2_N + i;
		s64 rem = (s64)(e->inv * n);
		s64 dlog = (s64)(e->log2 - ref_log2_q62((u64)n << 55));

		KUNIT_EXPECT_LE_MSG(test, abs(rem), n / 2, "entry %d: inv", i);
		KUNIT_EXPECT_LE_MSG(test, abs(dlog), 4LL, "entry %d: log2", i);
	}
}

/*
 * randstat_neg_log2(u) against the squaring reference, in units of 2^-62:
 * with u = 2^k x, 64 - k - the result / 2^32 is log2(x), which must be
 * within 0.5625 units of 2^-32 of the reference (the function's bound,
 * 0.54, and the reference's 3 units of 2^-62).
 */
static void expect_near_ref(struct kunit *test, u64 u)
{
	unsigned int k = fls64(u) - 1;
	u64 lg = ((u64)(64 - k) << 32) - randstat_neg_log2(u);
	u64 ref = ref_log2_q62((u << (63 - k)) >> 1);
	s64 d = (s64)((lg << 30) - ref);

	KUNIT_EXPECT_LE_MSG(test, abs(d), 9LL << 26, "u=%llx: %lld units of 2^-62",
			    u, d);
}

/*
 * Accuracy and monotonicity: the first and last values of every table
 * entry at four exponents, and 20 000 draws of the keystream, each at a
 * random exponent, against the squaring reference; and at every entry's
 * start and every power of two, the value below is no smaller.
 */
static void neg_log2_ref_test(struct kunit *test)
{
	static const unsigned int ks[] = { 8, 31, 40, 63 };
	struct randstat_rng rs;
	int i, j;

	for (j = 0; j < ARRAY_SIZE(ks); j++) {
		for (i = 0; i < RS_LOG2_N; i++) {
			u64 b = (u64)(RS_LOG2_N + i) << (ks[j] - 7);

			expect_near_ref(test, b);
			expect_near_ref(test, b + (1ULL << (ks[j] - 7)) - 1);
			KUNIT_EXPECT_GE_MSG(test, randstat_neg_log2(b - 1),
					    randstat_neg_log2(b), "u=%llx", b);
		}
	}
	for (i = 1; i < 64; i++)
		KUNIT_EXPECT_GE_MSG(test, randstat_neg_log2((1ULL << i) - 1),
				    randstat_neg_log2(1ULL << i), "2^%d", i);
	seed_rng(&rs, 0x5eed0015);
	for (i = 0; i < 20000; i++) {
		u64 u = randstat_rng_u64(&rs) >> (randstat_rng_u32(&rs) % 64);

		expect_near_ref(test, u | 1);
	}
}

/* -ln(1 - k/32) in 32.32 fixed point, k = 1..31 (from Python). */
static const u64 expo_edges_q32[31] = {
	136359621, 277190838, 422796893, 573512964, 729710807, 891804281,
	1060255961, 1235585093, 1418377245, 1609296111, 1809098057,
	2018650217, 2238953239, 2471170186, 2716663704, 2977044472,
	3254235309, 3550557436, 3868848753, 4212629565, 4586340583,
	4995694688, 5448214657, 5954088944, 6527601908, 7189674036,
	7972739160, 8931133415, 10166718508, 11908177887, 14885222359,
};

struct expo_case {
	const char *name;
	u32 floor, mean;
	u64 seed;
};

static const struct expo_case expo_cases[] = {
	{ "default 50 us + Exp, mean 4 ms", RANDSTAT_FLOOR_DEFAULT_NS,
	  RANDSTAT_MEAN_DEFAULT_NS, 0x5eed0011 },
	{ "floor = mean/2, mean 100 us", 50000, 100000, 0x5eed0012 },
	{ "limits 50 us, mean 1 s", RANDSTAT_FLOOR_LIMIT_NS,
	  RANDSTAT_MEAN_LIMIT_NS, 0x5eed0013 },
};

static void expo_case_desc(const struct expo_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(expo, expo_cases, expo_case_desc);

/* Which of 32 equally likely bins of Exp(scale) x falls in. */
static int expo_bin(u64 x, u32 scale)
{
	int k = 0;

	while (k < 31 && x >= mul_u64_u32_shr(expo_edges_q32[k], scale, 32))
		k++;
	return k;
}

/*
 * Every draw is at least the floor; the mean of NDRAWS draws is within
 * 4 sigma of mean_ns, sigma = (mean - floor) / sqrt(NDRAWS) (an
 * exponential's standard deviation is its mean); and the excess over the
 * floor, in 32 bins of equal probability under Exp(mean - floor), passes
 * chi-square with 31 degrees of freedom at p > 0.001.
 */
static void draw_exponential_test(struct kunit *test)
{
	const struct expo_case *c = test->param_value;
	u32 scale = c->mean - c->floor;
	u64 bins[32] = { 0 }, sum = 0, expected = NDRAWS / 32;
	u64 mean, sigma, least = U64_MAX;
	struct randstat_rng rs;
	int i;

	seed_rng(&rs, c->seed);
	for (i = 0; i < NDRAWS; i++) {
		u64 w = randstat_draw_exponential(&rs, c->floor, c->mean);

		least = min(least, w);
		sum += w;
		bins[expo_bin(w - c->floor, scale)]++;
	}
	KUNIT_EXPECT_GE(test, least, (u64)c->floor);
	mean = div_u64(sum, NDRAWS);
	sigma = div_u64(scale, int_sqrt(NDRAWS)) + 1;
	kunit_info(test, "shortest %llu ns, mean %llu ns, want %u +- %llu (4 sigma)\n",
		   least, mean, c->mean, 4 * sigma);
	KUNIT_EXPECT_LE(test, abs((s64)mean - (s64)c->mean), (s64)(4 * sigma));

	expect_fit(test, bins, 32, expected, CHI2_P001_DF31_X1000);
}

/*
 * Memoryless past the floor: of the draws that last longer than
 * floor + 2 (mean - floor), what they last beyond that averages
 * mean - floor again, within 4 sigma (about NDRAWS e^-2 = 13 500 of them).
 */
static void draw_exponential_memoryless_test(struct kunit *test)
{
	u32 floor = RANDSTAT_FLOOR_DEFAULT_NS, mean = RANDSTAT_MEAN_DEFAULT_NS;
	u64 t = floor + 2ULL * (mean - floor), sum = 0, n = 0, rest, sigma;
	struct randstat_rng rs;
	int i;

	seed_rng(&rs, 0x5eed0014);
	for (i = 0; i < NDRAWS; i++) {
		u64 w = randstat_draw_exponential(&rs, floor, mean);

		if (w > t) {
			sum += w - t;
			n++;
		}
	}
	KUNIT_ASSERT_GT(test, n, 10000ULL);
	rest = div64_u64(sum, n);
	sigma = div64_u64(mean - floor, int_sqrt64(n)) + 1;
	kunit_info(test, "%llu draws past %llu ns; they last %llu ns more on average, want %u +- %llu\n",
		   n, t, rest, mean - floor, 4 * sigma);
	KUNIT_EXPECT_LE(test, abs((s64)rest - (s64)(mean - floor)),
			(s64)(4 * sigma));
}

static void window_check_test(struct kunit *test)
{
	enum randstat_law u = RS_LAW_UNIFORM;

	KUNIT_EXPECT_EQ(test, randstat_window_check(u, 50000, 50000), 0);
	KUNIT_EXPECT_EQ(test, randstat_window_check(u, 50000, 1000000000), 0);
	KUNIT_EXPECT_EQ(test, randstat_window_check(u, 2000000, 6000000), 0);
	KUNIT_EXPECT_EQ(test, randstat_window_check(u, 49999, 6000000), -EINVAL);
	KUNIT_EXPECT_EQ(test, randstat_window_check(u, 0, 6000000), -EINVAL);
	KUNIT_EXPECT_EQ(test, randstat_window_check(u, 2000000, 1000000001),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, randstat_window_check(u, 6000001, 6000000), -EINVAL);
	KUNIT_EXPECT_EQ(test, randstat_window_check(u, U64_MAX, U64_MAX), -EINVAL);
}

/* Exponential: floor >= 50 us, 2 floor <= mean <= 1 s. */
static void expo_check_test(struct kunit *test)
{
	enum randstat_law e = RS_LAW_EXPONENTIAL;

	KUNIT_EXPECT_EQ(test, randstat_window_check(e, 50000, 4000000), 0);
	KUNIT_EXPECT_EQ(test, randstat_window_check(e, 50000, 100000), 0);
	KUNIT_EXPECT_EQ(test, randstat_window_check(e, 500000000, 1000000000), 0);
	KUNIT_EXPECT_EQ(test, randstat_window_check(e, 50000, 99999), -EINVAL);
	KUNIT_EXPECT_EQ(test, randstat_window_check(e, 49999, 4000000), -EINVAL);
	KUNIT_EXPECT_EQ(test, randstat_window_check(e, 0, 4000000), -EINVAL);
	KUNIT_EXPECT_EQ(test, randstat_window_check(e, 50000, 1000000001),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, randstat_window_check(e, 500000001, 1000000000),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, randstat_window_check(e, U64_MAX, U64_MAX), -EINVAL);
	KUNIT_EXPECT_EQ(test, randstat_window_check(RS_NR_LAWS, 50000, 4000000),
			-EINVAL);
}

struct set_case {
	const char *name;
	enum randstat_law law;
	bool is_tmax;
	u64 val;
	bool alone;
	int ret;
	u32 tmin, tmax;	/* the pair after, from 2 ms..6 ms */
};

#define UNI RS_LAW_UNIFORM

static const struct set_case set_cases[] = {
	/* Accepted: the one value changes. */
	{ "tmin 3 ms", UNI, false, 3000000, false, 0, 3000000, 6000000 },
	{ "tmax 10 ms", UNI, true, 10000000, false, 0, 2000000, 10000000 },
	{ "tmin = tmax", UNI, false, 6000000, false, 0, 6000000, 6000000 },
	{ "tmin at limit", UNI, false, 50000, false, 0, 50000, 6000000 },
	{ "tmax at limit", UNI, true, 1000000000, false, 0, 2000000, 1000000000 },
	/* Refused: both values stay. */
	{ "tmin below limit", UNI, false, 49999, false, -EINVAL, 2000000, 6000000 },
	{ "tmin zero", UNI, false, 0, false, -EINVAL, 2000000, 6000000 },
	{ "tmax above limit", UNI, true, 1000000001, false, -EINVAL, 2000000,
	  6000000 },
	{ "tmin above tmax", UNI, false, 6000001, false, -EINVAL, 2000000, 6000000 },
	{ "tmax below tmin", UNI, true, 1999999, false, -EINVAL, 2000000, 6000000 },
	{ "tmax 2^32 + 6 ms", UNI, true, (1ULL << 32) + 6000000,
	  false, -EINVAL, 2000000, 6000000 },
	{ "tmin U64_MAX", UNI, false, U64_MAX, false, -EINVAL, 2000000, 6000000 },
	/* At load time each value is checked alone, in either order. */
	{ "load: tmin past tmax", UNI, false, 10000000, true, 0, 10000000, 6000000 },
	{ "load: tmax below tmin", UNI, true, 1000000, true, 0, 2000000, 1000000 },
	{ "load: tmin below limit", UNI, false, 49999, true, -EINVAL, 2000000,
	  6000000 },
	{ "load: tmax above limit", UNI, true, 1000000001, true, -EINVAL, 2000000,
	  6000000 },
	/* Exponential (floor, mean), from the same pair 2 ms, 6 ms. */
	{ "exp: mean 4 ms", RS_LAW_EXPONENTIAL, true, 4000000, false, 0,
	  2000000, 4000000 },
	{ "exp: floor 3 ms = mean/2", RS_LAW_EXPONENTIAL, false, 3000000,
	  false, 0, 3000000, 6000000 },
	{ "exp: floor past mean/2", RS_LAW_EXPONENTIAL, false, 3000001, false,
	  -EINVAL, 2000000, 6000000 },
	{ "exp: mean below 2 floor", RS_LAW_EXPONENTIAL, true, 3999999, false,
	  -EINVAL, 2000000, 6000000 },
	{ "exp: floor below limit", RS_LAW_EXPONENTIAL, false, 49999, false,
	  -EINVAL, 2000000, 6000000 },
	{ "exp: mean above limit", RS_LAW_EXPONENTIAL, true, 1000000001, false,
	  -EINVAL, 2000000, 6000000 },
	{ "exp load: floor past mean", RS_LAW_EXPONENTIAL, false, 10000000,
	  true, 0, 10000000, 6000000 },
	{ "exp load: mean 100 us", RS_LAW_EXPONENTIAL, true, 100000, true, 0,
	  2000000, 100000 },
	{ "exp load: mean below 100 us", RS_LAW_EXPONENTIAL, true, 99999, true,
	  -EINVAL, 2000000, 6000000 },
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

	KUNIT_EXPECT_EQ(test, randstat_window_set(c->law, &w, c->is_tmax,
						  c->val, c->alone), c->ret);
	KUNIT_EXPECT_EQ(test, w.lo, c->tmin);
	KUNIT_EXPECT_EQ(test, w.hi, c->tmax);
}

/*
 * Defect 6: a vCPU not run for 5 s at mean_ns = 100 us had its expiries
 * drawn one by one in the hardirq: 50,000 draws with interrupts off.  Now
 * at most RANDSTAT_OVERRUN_DRAWS are drawn, the rest counted in bulk:
 * the keystream has moved by exactly OVERRUN_DRAWS + 2 draws (the loop's,
 * the first and the fresh one from now), and the count is the gap over
 * the mean within 4 sigma of the drawn part (17 draws of standard
 * deviation mean - floor: 4 sqrt(17) (mean - floor) / mean < 17) plus 2
 * for the bulk count's rounding.
 */
static void advance_bulk_test(struct kunit *test)
{
	struct randstat_window w = { 50000, 100000 };
	struct randstat_rng r, twin;
	u64 last, next = 1000000000, n, gap = 5000000000ULL;
	int i;

	seed_rng(&r, 0x5eed0e01);
	seed_rng(&twin, 0x5eed0e01);
	n = randstat_advance(&r, RS_LAW_EXPONENTIAL, w, next + gap, &last,
			     &next);
	kunit_info(test, "5 s gap at mean 100 us: %llu samples\n", n);
	KUNIT_EXPECT_LE(test, abs((s64)n - (s64)(gap / w.hi)), 19LL);
	KUNIT_EXPECT_EQ(test, last, 1000000000ULL + gap);
	KUNIT_EXPECT_GT(test, next, last);
	KUNIT_EXPECT_LE(test, next, last + 45 * (u64)w.hi);
	for (i = 0; i < RANDSTAT_OVERRUN_DRAWS + 2; i++)
		randstat_draw_interval(&twin, RS_LAW_EXPONENTIAL, w);
	KUNIT_EXPECT_EQ(test, randstat_rng_u64(&r), randstat_rng_u64(&twin));

	/* on time: one sample, the expiry itself, the next one after it */
	next = 1000000000;
	n = randstat_advance(&r, RS_LAW_EXPONENTIAL, w, next + 10, &last,
			     &next);
	KUNIT_EXPECT_EQ(test, n, 1ULL);
	KUNIT_EXPECT_EQ(test, last, 1000000000ULL);
	KUNIT_EXPECT_GE(test, next, 1000000000ULL + w.lo);

	/* uniform: the bulk count uses its mean */
	w = (struct randstat_window){ 2000000, 6000000 };
	next = 0;
	n = randstat_advance(&r, RS_LAW_UNIFORM, w, gap, &last, &next);
	KUNIT_EXPECT_LE(test, abs((s64)n - (s64)(gap / 4000000)), 19LL);
}

static struct kunit_case randstat_interval_cases[] = {
	KUNIT_CASE_PARAM(draw_uniform_test, window_gen_params),
	KUNIT_CASE(draw_small_span_test),
	KUNIT_CASE(draw_fixed_test),
	KUNIT_CASE(draw_no_lattice_test),
	KUNIT_CASE(window_check_test),
	KUNIT_CASE(expo_check_test),
	KUNIT_CASE_PARAM(window_set_test, set_gen_params),
	KUNIT_CASE(neg_log2_test),
	KUNIT_CASE(neg_log2_table_test),
	KUNIT_CASE(neg_log2_ref_test),
	KUNIT_CASE_PARAM(draw_exponential_test, expo_gen_params),
	KUNIT_CASE(draw_exponential_memoryless_test),
	KUNIT_CASE(advance_bulk_test),
	{}
};

static struct kunit_suite randstat_interval_suite = {
	.name = "randstat_interval",
	.test_cases = randstat_interval_cases,
};

kunit_test_suite(randstat_interval_suite);
