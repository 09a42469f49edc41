// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: randstat's keystream, and the attack it exists to stop.
 *
 * The attack (Documentation/design.rst, "Threat model"): /proc/randstat_detail
 * is world-readable and its elapsed time grows by exactly each interval,
 * which gives away about 21 bits of every generator output.  The kernel's
 * prandom_u32_state() is LFSR113, linear over GF(2): every output bit is a
 * fixed XOR of the 113 state bits.  So a handful of intervals, read as
 * equations over GF(2), pin the state down, and Gaussian elimination finds
 * it; from then on every interval is known in advance.  The same solver,
 * fed randstat's ChaCha20 intervals, must find no state consistent with
 * them.
 */
#include <kunit/test.h>
#include <linux/bitops.h>
#include <linux/math.h>
#include <linux/prandom.h>
#include <linux/string.h>

#include "randstat.h"

/* 256 bits of key: the bytes 0, 1, ..., 31, as u32 words (little endian). */
static void test_key(u32 key[8])
{
	int i;

	for (i = 0; i < 8; i++)
		key[i] = (4 * i) | (4 * i + 1) << 8 | (4 * i + 2) << 16 |
			 (u32)(4 * i + 3) << 24;
}

/*
 * Known answers, from an independent ChaCha20 (RFC 7539's block function,
 * checked against its test vector 2.3.2) with the same construction: key
 * 0..31, counter and nonce 0; a refill is four blocks under one key (the
 * counter running on), the first block's first eight words become the
 * next key, and the other 56 words are output from the last one down.
 * Word 56 is the first of the second refill, under the second key.
 */
static void rng_known_answer_test(struct kunit *test)
{
	static const u32 want[] = {
		0x2c3baee4, 0xa81cd806, 0xc8a7d11f, 0xfff8cb4a, 0x981bcd58,
		0xd82f95ed, 0xb4d41356, 0xbdf9f24d, 0x82b7516b, 0x815634f1,
	};
	struct randstat_rng r;
	u32 key[8];
	int i;

	test_key(key);
	randstat_rng_init(&r, key);
	for (i = 0; i < ARRAY_SIZE(want); i++)
		KUNIT_EXPECT_EQ(test, randstat_rng_u32(&r), want[i]);
	for (; i < ARRAY_SIZE(r.buf); i++)
		randstat_rng_u32(&r);
	KUNIT_EXPECT_EQ(test, randstat_rng_u32(&r), 0x7751945cU);
}

/* Fast key erasure: no used output and not the first key stay in memory. */
static void rng_erasure_test(struct kunit *test)
{
	struct randstat_rng r;
	u32 key[8], *s;
	int i;

	test_key(key);
	randstat_rng_init(&r, key);
	randstat_rng_u32(&r);
#ifdef RANDSTAT_HAVE_CHACHA_STATE
	s = r.state.x;
#else
	s = r.state;
#endif
	KUNIT_EXPECT_NE(test, memcmp(&s[4], key, sizeof(key)), 0);
	KUNIT_EXPECT_EQ(test, r.avail, ARRAY_SIZE(r.buf) - 1);
	KUNIT_EXPECT_EQ(test, r.buf[r.avail], 0U);
	for (i = 0; i < r.avail; i++)
		KUNIT_EXPECT_NE(test, r.buf[i], 0U);
}

/*
 * Rekeying changes the stream, drops buffered words, and is deterministic
 * in its inputs; mixing in zeros changes the key by nothing but still
 * drops the buffer.
 */
static void rng_mix_test(struct kunit *test)
{
	struct randstat_rng a, b;
	u32 key[8], fresh[8], zero[8] = { 0 };
	int i, same = 0;

	test_key(key);
	for (i = 0; i < 8; i++)
		fresh[i] = 0x9e3779b9U * (i + 1);
	randstat_rng_init(&a, key);
	randstat_rng_init(&b, key);
	randstat_rng_u32(&a);
	randstat_rng_u32(&b);
	randstat_rng_mix(&a, fresh);
	KUNIT_EXPECT_EQ(test, a.avail, 0U);
	for (i = 0; i < 64; i++)
		same += randstat_rng_u32(&a) == randstat_rng_u32(&b);
	KUNIT_EXPECT_LT(test, same, 2);

	randstat_rng_init(&a, key);
	randstat_rng_init(&b, key);
	randstat_rng_mix(&a, fresh);
	randstat_rng_mix(&b, fresh);
	for (i = 0; i < 64; i++)
		KUNIT_EXPECT_EQ(test, randstat_rng_u32(&a), randstat_rng_u32(&b));

	randstat_rng_init(&a, key);
	randstat_rng_init(&b, key);
	randstat_rng_u32(&a);
	randstat_rng_mix(&a, zero);
	/* b skips what a dropped: the rest of a's first refill */
	for (i = 0; i < ARRAY_SIZE(b.buf); i++)
		randstat_rng_u32(&b);
	for (i = 0; i < 64; i++)
		KUNIT_EXPECT_EQ(test, randstat_rng_u32(&a), randstat_rng_u32(&b));
}

/*
 * The stream after a rekey cannot be computed from the stream before it:
 * two keystreams with the same key and the same outputs so far, rekeyed
 * with fresh keys that differ in one bit, go on as unrelated streams.
 * Each of the 64 words after agrees by chance (2^-32 each: fewer than 2
 * agree), and their 2048 bits differ in half of them: 1024, sigma
 * sqrt(2048 / 4) = 22.6, so within 4 sigma, 91 bits.  A rekey that
 * ignored the fresh key (only dropped the buffer) would agree in all.
 */
static void rng_rekey_unpredictable_test(struct kunit *test)
{
	struct randstat_rng a, b;
	u32 key[8], fresh[8], x;
	int i, same = 0, bits = 0;

	test_key(key);
	for (i = 0; i < 8; i++)
		fresh[i] = 0x9e3779b9U * (i + 1);
	randstat_rng_init(&a, key);
	randstat_rng_init(&b, key);
	for (i = 0; i < 13; i++)
		KUNIT_ASSERT_EQ(test, randstat_rng_u32(&a), randstat_rng_u32(&b));
	randstat_rng_mix(&a, fresh);
	fresh[5] ^= 1U << 17;
	randstat_rng_mix(&b, fresh);
	for (i = 0; i < 64; i++) {
		x = randstat_rng_u32(&a) ^ randstat_rng_u32(&b);
		same += !x;
		bits += hweight32(x);
	}
	kunit_info(test, "after rekeys one bit apart: %d of 64 words equal, %d of 2048 bits differ\n",
		   same, bits);
	KUNIT_EXPECT_LT(test, same, 2);
	KUNIT_EXPECT_LE(test, abs(bits - 1024), 91);
}

/* --- the predictor -------------------------------------------------------- */

/*
 * A bit of the generator's state or output, as the set of initial state
 * bits whose XOR it is: bit w * 32 + b of the mask is bit b of word w.
 */
struct gf2 {
	u64 m[2];
};

struct sym_state {
	struct gf2 s[4][32];
};

struct equation {
	struct gf2 a;
	u8 rhs;
};

#define PRED_TMIN	RANDSTAT_TMIN_DEFAULT_NS
#define PRED_TMAX	RANDSTAT_TMAX_DEFAULT_NS
#define PRED_SEEN	12	/* intervals the attacker reads */
#define PRED_AHEAD	1000	/* intervals it then predicts */
#define PRED_MAXEQ	(32 * PRED_SEEN)

static void gf2_xor(struct gf2 *a, const struct gf2 *b)
{
	a->m[0] ^= b->m[0];
	a->m[1] ^= b->m[1];
}

/* One word of TAUSWORTHE(s, a, b, c, d), symbolically. */
static void sym_taus(struct gf2 w[32], unsigned int a, unsigned int b,
		     u32 c, unsigned int d)
{
	struct gf2 t[32], r[32];
	int i;

	/* t = (s << a) ^ s */
	for (i = 0; i < 32; i++) {
		t[i] = w[i];
		if (i >= a)
			gf2_xor(&t[i], &w[i - a]);
	}
	/* r = ((s & c) << d) ^ (t >> b) */
	for (i = 0; i < 32; i++) {
		memset(&r[i], 0, sizeof(r[i]));
		if (i >= d && (c >> (i - d) & 1))
			r[i] = w[i - d];
		if (i + b < 32)
			gf2_xor(&r[i], &t[i + b]);
	}
	memcpy(w, r, sizeof(r));
}

/* prandom_u32_state(), symbolically: step, then the output's 32 bits. */
static void sym_next(struct sym_state *st, struct gf2 out[32])
{
	int i, w;

	sym_taus(st->s[0], 6U, 13U, 4294967294U, 18U);
	sym_taus(st->s[1], 2U, 27U, 4294967288U, 2U);
	sym_taus(st->s[2], 13U, 21U, 4294967280U, 7U);
	sym_taus(st->s[3], 3U, 12U, 4294967168U, 13U);
	for (i = 0; i < 32; i++) {
		out[i] = st->s[0][i];
		for (w = 1; w < 4; w++)
			gf2_xor(&out[i], &st->s[w][i]);
	}
}

/* The interval the old module drew from a 32-bit output (Lemire's). */
static u32 lfsr_interval(struct rnd_state *rs)
{
	u32 span = PRED_TMAX - PRED_TMIN + 1, threshold = -span % span;
	u64 m;

	do {
		m = mul_u32_u32(prandom_u32_state(rs), span);
	} while ((u32)m < threshold);
	return PRED_TMIN + (u32)(m >> 32);
}

/*
 * From an interval, the output bits it fixes: the output u satisfies
 * q = floor(u span / 2^32), q = w - tmin, so u lies in [lo, hi]; the bits
 * above the highest one where lo and hi differ are known.
 */
static int known_bits(u32 w, u32 *value)
{
	u64 span = PRED_TMAX - PRED_TMIN + 1, q = w - PRED_TMIN;
	u32 lo = DIV_ROUND_UP_ULL(q << 32, span);
	u32 hi = DIV_ROUND_UP_ULL((q + 1) << 32, span) - 1;

	*value = lo;
	return lo == hi ? 32 : 31 - __fls(lo ^ hi);
}

/*
 * Gaussian elimination over GF(2) on @n equations in 128 unknowns.
 * Return: true and @x a solution if they are consistent.
 */
static bool gf2_solve(struct equation *eq, int n, struct gf2 *x)
{
	int row = 0, col, i, piv[128];
	u64 bit;

	for (col = 0; col < 128 && row < n; col++) {
		bit = 1ULL << (col % 64);
		for (i = row; i < n && !(eq[i].a.m[col / 64] & bit); i++)
			;
		piv[col] = -1;
		if (i == n)
			continue;
		swap(eq[i], eq[row]);
		for (i = 0; i < n; i++) {
			if (i != row && eq[i].a.m[col / 64] & bit) {
				gf2_xor(&eq[i].a, &eq[row].a);
				eq[i].rhs ^= eq[row].rhs;
			}
		}
		piv[col] = row++;
	}
	for (i = row; i < n; i++)
		if (eq[i].rhs)	/* 0 = 1 */
			return false;
	memset(x, 0, sizeof(*x));
	for (i = 0; i < col; i++)
		if (piv[i] >= 0 && eq[piv[i]].rhs)
			x->m[i / 64] |= 1ULL << (i % 64);
	return true;
}

/*
 * The attacker: from PRED_SEEN intervals, the equations; solve; if a state
 * is found, put it in @guess.  Return: whether one was.
 */
static bool recover(struct kunit *test, const u32 *seen, struct rnd_state *guess)
{
	struct sym_state *st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);
	struct equation *eq = kunit_kcalloc(test, PRED_MAXEQ, sizeof(*eq),
					    GFP_KERNEL);
	struct gf2 out[32], x;
	int t, b, k, n = 0, w;
	u32 v;

	KUNIT_ASSERT_NOT_NULL(test, st);
	KUNIT_ASSERT_NOT_NULL(test, eq);
	for (w = 0; w < 4; w++)
		for (b = 0; b < 32; b++)
			st->s[w][b].m[(w * 32 + b) / 64] = 1ULL << ((w * 32 + b) % 64);
	for (t = 0; t < PRED_SEEN; t++) {
		sym_next(st, out);
		k = known_bits(seen[t], &v);
		for (b = 31; b >= 32 - k; b--) {
			eq[n].a = out[b];
			eq[n++].rhs = v >> b & 1;
		}
	}
	kunit_info(test, "%d equations in 128 unknowns (113 matter)\n", n);
	if (!gf2_solve(eq, n, &x))
		return false;
	guess->s1 = lower_32_bits(x.m[0]);
	guess->s2 = upper_32_bits(x.m[0]);
	guess->s3 = lower_32_bits(x.m[1]);
	guess->s4 = upper_32_bits(x.m[1]);
	return true;
}

/*
 * LFSR113, seeded as the old module seeded it: recovered from 12 intervals
 * (each in [2, 6] ms, so ~22 bits of each output), after which all of the
 * next 1000 intervals are predicted to the nanosecond.
 */
static void predict_lfsr113_test(struct kunit *test)
{
	struct rnd_state rs, guess;
	u32 seen[PRED_SEEN];
	int t, hits = 0;

	prandom_seed_state(&rs, 0x5eed0bad1dea5ULL);
	for (t = 0; t < PRED_SEEN; t++)
		seen[t] = lfsr_interval(&rs);
	KUNIT_ASSERT_TRUE(test, recover(test, seen, &guess));
	for (t = 0; t < PRED_SEEN; t++)
		KUNIT_EXPECT_EQ(test, lfsr_interval(&guess), seen[t]);
	for (t = 0; t < PRED_AHEAD; t++)
		hits += lfsr_interval(&guess) == lfsr_interval(&rs);
	kunit_info(test, "LFSR113: %d of %d later intervals predicted exactly\n",
		   hits, PRED_AHEAD);
	KUNIT_EXPECT_EQ(test, hits, PRED_AHEAD);
}

/*
 * The same attack on randstat's keystream: the equations from 12 of its
 * intervals have no common solution, for each of 20 keys.  (A random
 * system of ~250 equations in 128 unknowns is consistent with
 * probability about 2^-120.)
 */
static void predict_chacha_test(struct kunit *test)
{
	struct randstat_rng r;
	struct rnd_state guess;
	u32 seen[PRED_SEEN], key[8];
	int t, i, found = 0;

	for (i = 0; i < 20; i++) {
		test_key(key);
		key[0] ^= i;
		randstat_rng_init(&r, key);
		for (t = 0; t < PRED_SEEN; t++)
			seen[t] = randstat_draw_uniform(&r, PRED_TMIN, PRED_TMAX);
		found += recover(test, seen, &guess);
	}
	kunit_info(test, "ChaCha20: a consistent LFSR113 state for %d of 20 keys\n",
		   found);
	KUNIT_EXPECT_EQ(test, found, 0);
}

static struct kunit_case rng_cases[] = {
	KUNIT_CASE(rng_known_answer_test),
	KUNIT_CASE(rng_erasure_test),
	KUNIT_CASE(rng_mix_test),
	KUNIT_CASE(rng_rekey_unpredictable_test),
	KUNIT_CASE(predict_lfsr113_test),
	KUNIT_CASE(predict_chacha_test),
	{}
};

static struct kunit_suite rng_suite = {
	.name = "randstat_rng",
	.test_cases = rng_cases,
};

kunit_test_suite(rng_suite);
