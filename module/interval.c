// SPDX-License-Identifier: GPL-2.0
/*
 * randstat: the sampling interval's law and its parameters.
 *
 * Two laws (Documentation/design.rst, "The statistical model"):
 *
 * - exponential (the default): floor + Exp(mean - floor).  Past the floor
 *   the hazard is constant, so whatever a process knows of past sample
 *   times, the expected number of samples that land while it runs is its
 *   run time over the mean (PASTA), less at most floor/mean of it.
 * - uniform: U[tmin, tmax], McCanne and Torek's law.  No sample comes
 *   within tmin of the previous one, so a process that learns a sample has
 *   just happened can run unseen for tmin.
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/math64.h>
#include <linux/minmax.h>

#include "randstat.h"

const char *const randstat_law_names[RS_NR_LAWS] = {
	[RS_LAW_EXPONENTIAL] = "exponential",
	[RS_LAW_UNIFORM] = "uniform",
};

/**
 * randstat_window_check() - are these parameters acceptable for a law?
 * @law: the law
 * @lo: floor_ns or tmin_ns
 * @hi: mean_ns or tmax_ns
 *
 * Uniform: RANDSTAT_TMIN_LIMIT_NS <= tmin <= tmax <= RANDSTAT_TMAX_LIMIT_NS.
 * Exponential: RANDSTAT_FLOOR_LIMIT_NS <= floor, 2 floor <= mean <=
 * RANDSTAT_MEAN_LIMIT_NS, so that at least half of the mean is memoryless.
 *
 * Return: 0 if acceptable, else -EINVAL.
 */
int randstat_window_check(enum randstat_law law, u64 lo, u64 hi)
{
	switch (law) {
	case RS_LAW_EXPONENTIAL:
		if (lo < RANDSTAT_FLOOR_LIMIT_NS ||
		    hi > RANDSTAT_MEAN_LIMIT_NS || 2 * lo > hi)
			return -EINVAL;
		return 0;
	case RS_LAW_UNIFORM:
		if (lo < RANDSTAT_TMIN_LIMIT_NS ||
		    hi > RANDSTAT_TMAX_LIMIT_NS || lo > hi)
			return -EINVAL;
		return 0;
	default:
		return -EINVAL;
	}
}

/**
 * randstat_window_set() - change one of a law's two parameters
 * @law: the law
 * @w: its parameters
 * @is_hi: set mean_ns or tmax_ns (else floor_ns or tmin_ns)
 * @val: the new value, ns
 * @alone: check @val against the limits only, not against the other
 *	parameter (at load time, when the other one may not have been given
 *	yet): the other is taken at its most permissive limit
 *
 * Return: 0 and @w updated, or -EINVAL and @w untouched.
 */
int randstat_window_set(enum randstat_law law, struct randstat_window *w,
			bool is_hi, u64 val, bool alone)
{
	u64 lo = is_hi ? w->lo : val;
	u64 hi = is_hi ? val : w->hi;
	int ret;

	if (alone) {
		lo = is_hi ? RANDSTAT_TMIN_LIMIT_NS : val;
		hi = is_hi ? val : RANDSTAT_TMAX_LIMIT_NS;
	}
	ret = randstat_window_check(law, lo, hi);
	if (ret)
		return ret;
	if (is_hi)
		w->hi = val;
	else
		w->lo = val;
	return 0;
}

#define RS_FRAC_BITS	32
/* ln 2 in 0.32 fixed point, rounded: 0.693147180559945 * 2^32 */
#define RS_LN2_Q32	2977044472U

/*
 * randstat_neg_log2()'s table, entry i for the mantissas in [1 + i/128,
 * 1 + (i+1)/128) (struct randstat_log2_entry), and its polynomial's
 * coefficients RS_LOG2_Bj = 2^62 / (j ln 2), rounded: all printed by
 * module/gen_log2_table.py (exact integer arithmetic and correctly rounded
 * decimal logarithms; --check compares them with these).  16-byte aligned,
 * so that an entry never straddles two cache lines.
 */
/* gen_log2_table.py: begin */
#define RS_LOG2_B1	0x5c551d94ae0bf85eULL
#define RS_LOG2_B2	0x2e2a8eca5705fc2fULL
#define RS_LOG2_B3	0x1ec709dc3a03fd75ULL
#define RS_LOG2_B4	0x171547652b82fe17ULL

const struct randstat_log2_entry randstat_log2_table[RS_LOG2_N] __aligned(16) = {
	{ 0x0200000000000000ULL, 0x0000000000000000ULL },	/*   0 */
	{ 0x01fc07f01fc07f02ULL, 0x00b7f285b778428cULL },	/*   1 */
	{ 0x01f81f81f81f81f8ULL, 0x016e79685c2d2299ULL },	/*   2 */
	{ 0x01f44659e4a42715ULL, 0x02239a3aa266825eULL },	/*   3 */
	{ 0x01f07c1f07c1f07cULL, 0x02d75a6eb1dfb0e6ULL },	/*   4 */
	{ 0x01ecc07b301ecc08ULL, 0x0389bf5721556bdfULL },	/*   5 */
	{ 0x01e9131abf0b7673ULL, 0x043ace27e8a7e6adULL },	/*   6 */
	{ 0x01e573ac901e573bULL, 0x04ea8bf749fc70b6ULL },	/*   7 */
	{ 0x01e1e1e1e1e1e1e2ULL, 0x0598fdbeb244c59fULL },	/*   8 */
	{ 0x01de5d6e3f8868a4ULL, 0x0646285b918cd6acULL },	/*   9 */
	{ 0x01dae6076b981daeULL, 0x06f210902b6aee99ULL },	/*  10 */
	{ 0x01d77b654b82c339ULL, 0x079cbb045fe96c87ULL },	/*  11 */
	{ 0x01d41d41d41d41d4ULL, 0x08462c466d3cf1cbULL },	/*  12 */
	{ 0x01d0cb58f6ec0743ULL, 0x08ee68cbaa95bdafULL },	/*  13 */
	{ 0x01cd85689039b0adULL, 0x099574f13c570d10ULL },	/*  14 */
	{ 0x01ca4b3055ee1910ULL, 0x0a3b54fcc1fba699ULL },	/*  15 */
	{ 0x01c71c71c71c71c7ULL, 0x0ae00d1cfdeb43d0ULL },	/*  16 */
	{ 0x01c3f8f01c3f8f02ULL, 0x0b83a16a77813f95ULL },	/*  17 */
	{ 0x01c0e070381c0e07ULL, 0x0c2615e81781d97fULL },	/*  18 */
	{ 0x01bdd2b899406f75ULL, 0x0cc76e83bf386f81ULL },	/*  19 */
	{ 0x01bacf914c1bacf9ULL, 0x0d67af16da7649f8ULL },	/*  20 */
	{ 0x01b7d6c3dda338b3ULL, 0x0e06db66eca6f720ULL },	/*  21 */
	{ 0x01b4e81b4e81b4e8ULL, 0x0ea4f726192cb7e4ULL },	/*  22 */
	{ 0x01b2036406c80d90ULL, 0x0f4205f3a7352664ULL },	/*  23 */
	{ 0x01af286bca1af287ULL, 0x0fde0b5c81340512ULL },	/*  24 */
	{ 0x01ac5701ac5701acULL, 0x10790adbb030096fULL },	/*  25 */
	{ 0x01a98ef606a63bd8ULL, 0x111307dad30b75cbULL },	/*  26 */
	{ 0x01a6d01a6d01a6d0ULL, 0x11ac05b291f07053ULL },	/*  27 */
	{ 0x01a41a41a41a41a4ULL, 0x124407ab0e073982ULL },	/*  28 */
	{ 0x01a16d3f97a4b01aULL, 0x12db10fc4d9aaf6fULL },	/*  29 */
	{ 0x019ec8e951033d92ULL, 0x137124cea4cdecdaULL },	/*  30 */
	{ 0x019c2d14ee4a101aULL, 0x1406463b1b044976ULL },	/*  31 */
	{ 0x019999999999999aULL, 0x149a784bcd1b8afeULL },	/*  32 */
	{ 0x01970e4f80cb8728ULL, 0x152dbdfc4c96b37eULL },	/*  33 */
	{ 0x01948b0fcd6e9e06ULL, 0x15c01a39fbd687a0ULL },	/*  34 */
	{ 0x01920fb49d0e228dULL, 0x16518fe4677ba6e5ULL },	/*  35 */
	{ 0x018f9c18f9c18f9cULL, 0x16e221cd9d0cde58ULL },	/*  36 */
	{ 0x018d3018d3018d30ULL, 0x1771d2ba7efb3be4ULL },	/*  37 */
	{ 0x018acb90f6bf3a9aULL, 0x1800a563161c5433ULL },	/*  38 */
	{ 0x01886e5f0abb0499ULL, 0x188e9c72e0b225a5ULL },	/*  39 */
	{ 0x0186186186186186ULL, 0x191bba891f1708b5ULL },	/*  40 */
	{ 0x0183c977ab2bedd3ULL, 0x19a802391e232f35ULL },	/*  41 */
	{ 0x0181818181818182ULL, 0x1a33760a7f60509dULL },	/*  42 */
	{ 0x017f405fd017f406ULL, 0x1abe18797f1f48e2ULL },	/*  43 */
	{ 0x017d05f417d05f41ULL, 0x1b47ebf73882a0a4ULL },	/*  44 */
	{ 0x017ad2208e0ecc35ULL, 0x1bd0f2e9e79030abULL },	/*  45 */
	{ 0x0178a4c8178a4c81ULL, 0x1c592fad295b567eULL },	/*  46 */
	{ 0x01767dce434a9b10ULL, 0x1ce0a4923a587cc9ULL },	/*  47 */
	{ 0x01745d1745d1745dULL, 0x1d6753e032ea0efeULL },	/*  48 */
	{ 0x01724287f46debc0ULL, 0x1ded3fd442364c4fULL },	/*  49 */
	{ 0x01702e05c0b81703ULL, 0x1e726aa1e754d20cULL },	/*  50 */
	{ 0x016e1f76b4337c6dULL, 0x1ef6d67328e2207dULL },	/*  51 */
	{ 0x016c16c16c16c16cULL, 0x1f7a8568cb06ceceULL },	/*  52 */
	{ 0x016a13cd15372904ULL, 0x1ffd799a83ff9abaULL },	/*  53 */
	{ 0x0168168168168168ULL, 0x207fb5172f32fe67ULL },	/*  54 */
	{ 0x01661ec6a5122f90ULL, 0x210139e4fee07aa5ULL },	/*  55 */
	{ 0x01642c8590b21643ULL, 0x21820a01ac754cb1ULL },	/*  56 */
	{ 0x01623fa7701623faULL, 0x22022762a791d4f6ULL },	/*  57 */
	{ 0x0160581605816058ULL, 0x228193f543ca873cULL },	/*  58 */
	{ 0x015e75bb8d015e76ULL, 0x2300519ee52ed49dULL },	/*  59 */
	{ 0x015c9882b9310572ULL, 0x237e623d2ba01bc7ULL },	/*  60 */
	{ 0x015ac056b015ac05ULL, 0x23fbc7a61d024c85ULL },	/*  61 */
	{ 0x0158ed2308158ed2ULL, 0x247883a84e4f9010ULL },	/*  62 */
	{ 0x01571ed3c506b39aULL, 0x24f4980b0b97f00bULL },	/*  63 */
	{ 0x0155555555555555ULL, 0x2570068e7ef5a1e8ULL },	/*  64 */
	{ 0x015390948f40feacULL, 0x25ead0ebd67e4c28ULL },	/*  65 */
	{ 0x0151d07eae2f8152ULL, 0x2664f8d569394d91ULL },	/*  66 */
	{ 0x0150150150150150ULL, 0x26de7ff6db22c481ULL },	/*  67 */
	{ 0x014e5e0a72f05398ULL, 0x275767f54042cd9aULL },	/*  68 */
	{ 0x014cab88725af6e7ULL, 0x27cfb26f3ee02cd6ULL },	/*  69 */
	{ 0x014afd6a052bf5a8ULL, 0x284760fd30d552ceULL },	/*  70 */
	{ 0x0149539e3b2d066fULL, 0x28be7531440e714aULL },	/*  71 */
	{ 0x0147ae147ae147aeULL, 0x2934f0979a3715fdULL },	/*  72 */
	{ 0x01460cbc7f5cf9a2ULL, 0x29aad4b6679d8895ULL },	/*  73 */
	{ 0x01446f86562d9fafULL, 0x2a20230e1151f1bcULL },	/*  74 */
	{ 0x0142d6625d51f86fULL, 0x2a94dd194a871b63ULL },	/*  75 */
	{ 0x0141414141414141ULL, 0x2b09044d313a6787ULL },	/*  76 */
	{ 0x013fb013fb013fb0ULL, 0x2b7c9a196a286956ULL },	/*  77 */
	{ 0x013e22cbce4a9028ULL, 0x2bef9fe83c135d72ULL },	/*  78 */
	{ 0x013c995a47babe74ULL, 0x2c62171eaa609081ULL },	/*  79 */
	{ 0x013b13b13b13b13bULL, 0x2cd4011c8f11979aULL },	/*  80 */
	{ 0x013991c2c187f633ULL, 0x2d455f3cb41e1410ULL },	/*  81 */
	{ 0x0138138138138138ULL, 0x2db632d4ec3293b3ULL },	/*  82 */
	{ 0x013698df3de07479ULL, 0x2e267d362ad8f7caULL },	/*  83 */
	{ 0x013521cfb2b78c13ULL, 0x2e963fac9c0ea78eULL },	/*  84 */
	{ 0x0133ae45b57bcb1eULL, 0x2f057b7fbb4caef8ULL },	/*  85 */
	{ 0x01323e34a2b10bf6ULL, 0x2f7431f26a05c814ULL },	/*  86 */
	{ 0x0130d190130d1901ULL, 0x2fe26443059e2ba2ULL },	/*  87 */
	{ 0x012f684bda12f685ULL, 0x305013ab7ce0e5b8ULL },	/*  88 */
	{ 0x012e025c04b80970ULL, 0x30bd416164f64c21ULL },	/*  89 */
	{ 0x012c9fb4d812c9fbULL, 0x3129ee960ddf1681ULL },	/*  90 */
	{ 0x012b404ad012b405ULL, 0x31961c7696777b67ULL },	/*  91 */
	{ 0x0129e4129e4129e4ULL, 0x3201cc2c000599fdULL },	/*  92 */
	{ 0x01288b01288b0129ULL, 0x326cfedb41565d3aULL },	/*  93 */
	{ 0x0127350b88127351ULL, 0x32d7b5a5596bebe0ULL },	/*  94 */
	{ 0x0125e22708092f11ULL, 0x3341f1a761c09fbdULL },	/*  95 */
	{ 0x0124924924924925ULL, 0x33abb3faa02166cdULL },	/*  96 */
	{ 0x0123456789abcdf0ULL, 0x3414fdb4982259ccULL },	/*  97 */
	{ 0x0121fb78121fb781ULL, 0x347dcfe71c303da1ULL },	/*  98 */
	{ 0x0120b470c67c0d88ULL, 0x34e62ba05e418f7bULL },	/*  99 */
	{ 0x011f7047dc11f704ULL, 0x354e11eb0029a6faULL },	/* 100 */
	{ 0x011e2ef3b3fb8744ULL, 0x35b583ce239065a3ULL },	/* 101 */
	{ 0x011cf06ada2811cfULL, 0x361c824d7990d7afULL },	/* 102 */
	{ 0x011bb4a4046ed290ULL, 0x36830e69520117b3ULL },	/* 103 */
	{ 0x011a7b9611a7b961ULL, 0x36e9291eaa65b497ULL },	/* 104 */
	{ 0x0119453808ca29c0ULL, 0x374ed3673c92c81eULL },	/* 105 */
	{ 0x0118118118118118ULL, 0x37b40e398cfcdb6aULL },	/* 106 */
	{ 0x0116e0689427378fULL, 0x3818da88f8bba6c6ULL },	/* 107 */
	{ 0x0115b1e5f75270d0ULL, 0x387d3945c340aa67ULL },	/* 108 */
	{ 0x011485f0e0acd3b7ULL, 0x38e12b5d23c38ec1ULL },	/* 109 */
	{ 0x01135c81135c8113ULL, 0x3944b1b952662c6cULL },	/* 110 */
	{ 0x0112358e75d30337ULL, 0x39a7cd4195120d85ULL },	/* 111 */
	{ 0x0111111111111111ULL, 0x3a0a7eda4c112ce6ULL },	/* 112 */
	{ 0x010fef010fef0110ULL, 0x3a6cc764fe63aa53ULL },	/* 113 */
	{ 0x010ecf56be69c8feULL, 0x3acea7c065d41dfcULL },	/* 114 */
	{ 0x010db20a88f4695aULL, 0x3b3020c87acc2988ULL },	/* 115 */
	{ 0x010c9714fbcda3acULL, 0x3b9133567fead8bdULL },	/* 116 */
	{ 0x010b7e6ec259dc79ULL, 0x3bf1e0410d5e5898ULL },	/* 117 */
	{ 0x010a6810a6810a68ULL, 0x3c52285c1c02803fULL },	/* 118 */
	{ 0x010953f39010953fULL, 0x3cb20c7910459cacULL },	/* 119 */
	{ 0x0108421084210842ULL, 0x3d118d66c4d4e554ULL },	/* 120 */
	{ 0x01073260a47f7c67ULL, 0x3d70abf19511f61bULL },	/* 121 */
	{ 0x010624dd2f1a9fbeULL, 0x3dcf68e36752a0fbULL },	/* 122 */
	{ 0x0105197f7d734041ULL, 0x3e2dc503b6ec6076ULL },	/* 123 */
	{ 0x0104104104104104ULL, 0x3e8bc1179e0caa9dULL },	/* 124 */
	{ 0x0103091b51f5e1a5ULL, 0x3ee95de1df5f5bafULL },	/* 125 */
	{ 0x0102040810204081ULL, 0x3f469c22ef8466c5ULL },	/* 126 */
	{ 0x0101010101010101ULL, 0x3fa37c98fe55f285ULL },	/* 127 */
};

/* gen_log2_table.py: end */

/**
 * randstat_neg_log2() - -log2(u / 2^64), without floating point
 * @u: a uniform 64-bit draw; 0 is taken as 1
 *
 * With u = 2^k x, x in [1, 2), the answer is 64 - k - log2(x).  The seven
 * bits of x after its leading one pick the entry i of randstat_log2_table,
 * x_i = 1 + i/128 <= x; then x = x_i (1 + t) with t = (x - x_i) / x_i in
 * [0, 1/128), and log2(x) = log2(x_i) + log2(1 + t), the second term from
 * its Taylor polynomial of degree 4, t (b1 - t (b2 - t (b3 - t b4))) with
 * bj = 1 / (j ln 2), evaluated by Horner's rule in 2.62 fixed point: five
 * multiplications, one table entry, no branch.
 *
 * Error: the polynomial falls short of log2(1 + t) by less than
 * t^5 / (5 ln 2) < 2^-36.7 (the series alternates); the table's rounding
 * and the truncated products add less than 2^-60; the sum is rounded to
 * the nearest 2^-32.  So the result is within 0.54 units of 2^-32 of the
 * exact value (at most 0.5 below it, 0.54 above).  It is 0 only where the
 * exact value is below 2^-33, for @u > 2^64 - 2^30.5.
 *
 * Monotone: the result never grows with @u.  Within an entry, t does not
 * fall as x grows, nor does t a in a Horner step b - t a: a falls by at
 * most one unit when t grows by one, and a > t.  At the end of an entry
 * (t = 1/(128 + i)) the polynomial's shortfall exceeds 2^-42, far more
 * than the arithmetic's errors, so the last log2(x) of an entry stays
 * below the next entry's log2(x_i); and log2(x) < 1 rounds to at most
 * 2^32 units, so it does not cross a power of two either.
 *
 * Return: -log2(u / 2^64) in 32.32 fixed point, in [0, 64].
 */
u64 randstat_neg_log2(u64 u)
{
	unsigned int k = fls64(u | 1) - 1;
	u64 m = u << (63 - k);	/* x in 1.63 fixed point */
	const struct randstat_log2_entry *e =
		&randstat_log2_table[(m >> 56) & (RS_LOG2_N - 1)];
	/* t = (x - x_i) / x_i: 128 (x - x_i), 0.64, times 1/(128 x_i) */
	u64 t = mul_u64_u64_shr(m << 8, e->inv, 64);
	u64 a, lg;

	a = RS_LOG2_B3 - mul_u64_u64_shr(t, RS_LOG2_B4, 64);
	a = RS_LOG2_B2 - mul_u64_u64_shr(t, a, 64);
	a = RS_LOG2_B1 - mul_u64_u64_shr(t, a, 64);
	/* log2(x) in 2.62 fixed point */
	lg = e->log2 + mul_u64_u64_shr(t, a, 64);
	return ((u64)(64 - k) << RS_FRAC_BITS) -
	       ((lg + (1ULL << 29)) >> (62 - RS_FRAC_BITS));
}

/**
 * randstat_draw_exponential() - @floor plus an exponential draw
 * @r: this CPU's keystream
 * @floor: the shortest interval, ns
 * @mean: the mean interval, ns; @floor < @mean
 *
 * The exponential part has mean @mean - @floor.
 * Exp(1) is -ln U = -log2(U) ln 2 for U uniform on (0, 1], here 64 bits
 * of the keystream.  Its largest value is 64 ln 2 = 44.4, so an interval is
 * at most floor + 44.4 (mean - floor) (with probability 2^-64).
 *
 * Return: the interval, ns.
 */
u64 randstat_draw_exponential(struct randstat_rng *r, u32 floor, u32 mean)
{
	u64 e = mul_u64_u32_shr(randstat_neg_log2(randstat_rng_u64(r)),
				RS_LN2_Q32, RS_FRAC_BITS);

	return floor + mul_u64_u32_shr(e, mean - floor, RS_FRAC_BITS);
}

/**
 * randstat_draw_uniform() - a uniform random interval in [@tmin, @tmax]
 * @r: this CPU's keystream
 * @tmin: shortest interval, ns
 * @tmax: longest interval, ns; @tmin <= @tmax
 *
 * Every integer nanosecond in the range is equally likely: a 32-bit draw is
 * scaled by multiplication and the few draws that would favour the low end
 * are rejected (Lemire's method), so there is neither modulo bias nor a
 * lattice.  The range has at most RANDSTAT_TMAX_LIMIT_NS + 1 < 2^32 values.
 *
 * Return: the interval, ns.
 */
u32 randstat_draw_uniform(struct randstat_rng *r, u32 tmin, u32 tmax)
{
	u32 span = tmax - tmin + 1;
	u64 m = mul_u32_u32(randstat_rng_u32(r), span);

	if ((u32)m < span) {
		/* 2^32 mod span: draws below it are the biased ones. */
		u32 threshold = -span % span;

		while ((u32)m < threshold)
			m = mul_u32_u32(randstat_rng_u32(r), span);
	}
	return tmin + (u32)(m >> 32);
}

/**
 * randstat_draw_interval() - the next sampling interval
 * @r: this CPU's keystream
 * @law: the law
 * @w: its parameters (randstat_window_check() passed)
 *
 * Return: the interval, ns.
 */
u64 randstat_draw_interval(struct randstat_rng *r, enum randstat_law law,
			   struct randstat_window w)
{
	if (law == RS_LAW_UNIFORM)
		return randstat_draw_uniform(r, w.lo, w.hi);
	return randstat_draw_exponential(r, w.lo, w.hi);
}

/**
 * randstat_draw_resume() - when a dormant CPU's next sample falls
 * @r: this CPU's keystream
 * @w: the exponential law's parameters (floor, mean)
 * @since_ns: time from the CPU's last sample to now, when it resumes
 *
 * A CPU stops sampling at a sample that finds it idle, and resumes when
 * it leaves idle.  Had it gone on, its next sample would have come at
 * floor + X after the last one, X ~ Exp(mean - floor); resuming now means
 * that no sample came in the span, X > since - floor.  X being memoryless,
 * the law's own continuation from now is then the rest of the floor, if
 * any, and a fresh Exp(mean - floor): the sample times stay a renewal
 * process of this law on the time that is sampled, and work that starts
 * at a wakeup is seen as work anywhere else is.  A fresh floor + X from
 * now would leave floor_ns unseen after every wakeup instead.
 *
 * Return: the delay from now to the next sample, ns.
 */
u64 randstat_draw_resume(struct randstat_rng *r, struct randstat_window w,
			 u64 since_ns)
{
	return randstat_draw_exponential(r, w.lo, w.hi) - min_t(u64, since_ns, w.lo);
}

/**
 * randstat_law_mean() - a law's mean interval
 * @law: the law
 * @w: its parameters
 *
 * Return: the mean, ns: mean_ns, or (tmin_ns + tmax_ns) / 2.
 */
u64 randstat_law_mean(enum randstat_law law, struct randstat_window w)
{
	if (law == RS_LAW_UNIFORM)
		return ((u64)w.lo + w.hi) / 2;
	return w.hi;
}

/**
 * randstat_advance() - count the expiries up to now and draw the next one
 * @r: this CPU's keystream
 * @law: the law
 * @w: its parameters
 * @now_ns: when the interrupt came
 * @last_ns: out: the last expiry counted (the samples cover up to it)
 * @next_ns: in: the expiry whose interrupt this is; out: the next expiry,
 *	after @now_ns
 *
 * Expiries that passed while the CPU could not take the interrupt are
 * samples too, of what runs when it comes.  A few are drawn one by one, as
 * they would have come; past RANDSTAT_OVERRUN_DRAWS (a vCPU that was not
 * run for seconds) the rest are counted in bulk, the time left over the
 * law's mean, and the next expiry is drawn afresh from now: the law is
 * memoryless, so nothing is lost, and a hardirq never draws more than
 * RANDSTAT_OVERRUN_DRAWS + 1 intervals however long the gap.
 *
 * Return: the number of samples to count, at least 1.
 */
u64 randstat_advance(struct randstat_rng *r, enum randstat_law law,
		     struct randstat_window w, u64 now_ns, u64 *last_ns,
		     u64 *next_ns)
{
	u64 last = *next_ns, next, nsamples = 1;

	next = last + randstat_draw_interval(r, law, w);
	while (next <= now_ns && nsamples <= RANDSTAT_OVERRUN_DRAWS) {
		last = next;
		next += randstat_draw_interval(r, law, w);
		nsamples++;
	}
	if (next <= now_ns) {
		nsamples += div64_u64(now_ns - next,
				      randstat_law_mean(law, w)) + 1;
		last = now_ns;
		next = now_ns + randstat_draw_interval(r, law, w);
	}
	*last_ns = last;
	*next_ns = next;
	return nsamples;
}
