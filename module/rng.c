// SPDX-License-Identifier: GPL-2.0
/*
 * randstat: the random numbers behind the sample times.
 *
 * A process that can predict the next sample time can run between samples
 * and never be charged.  /proc/randstat_detail is world-readable and gives
 * away every past interval, so the generator must resist prediction from its
 * outputs: prandom_u32_state() (LFSR113, linear over GF(2)) is recovered
 * from a handful of intervals (Documentation/design.rst, "Threat
 * model"; kunit/rng_test.c does it).  get_random_u32() takes a local_lock,
 * which sleeps on PREEMPT_RT, so the hard hrtimer cannot call it.
 *
 * So each CPU runs its own ChaCha20 keystream, as drivers/char/random.c
 * does per CPU: keyed from get_random_bytes() in process context, with
 * "fast key erasure" (each refill's first half block becomes the next key
 * and only the rest is output, so the state never reveals earlier
 * outputs), and rekeyed from get_random_bytes() regularly by the sampler
 * (randstat_rng_mix()).  Generating a block is plain arithmetic on this
 * CPU's data: safe in hardirq context on every kernel, RT included.
 */
#include <linux/string.h>
#include <linux/types.h>

#include "randstat.h"

/* chacha_block_generic() takes a struct chacha_state since 6.16. */
#ifdef RANDSTAT_HAVE_CHACHA_STATE
static u32 *randstat_rng_words(struct randstat_rng *r)
{
	return r->state.x;
}

static void randstat_chacha20(struct randstat_rng *r, u32 *block)
{
	chacha_block_generic(&r->state, (u8 *)block, 20);
}
#else
static u32 *randstat_rng_words(struct randstat_rng *r)
{
	return r->state;
}

static void randstat_chacha20(struct randstat_rng *r, u32 *block)
{
	chacha_block_generic(r->state, (u8 *)block, 20);
}
#endif

/*
 * A refill: RANDSTAT_RNG_BLOCKS blocks under one key, as
 * crng_fast_key_erasure() makes them.  The first block's first half
 * becomes the next key; the rest of the blocks is output, so the block
 * function runs once per 14 output words.
 */
static void randstat_rng_refill(struct randstat_rng *r)
{
	u32 block[CHACHA_STATE_WORDS];
	u32 *s = randstat_rng_words(r);
	u32 *out = r->buf + CHACHA_STATE_WORDS - RANDSTAT_KEY_WORDS;
	unsigned int i;

	randstat_chacha20(r, block);
	for (i = 1; i < RANDSTAT_RNG_BLOCKS; i++, out += CHACHA_STATE_WORDS)
		randstat_chacha20(r, out);
	memcpy(&s[4], block, CHACHA_KEY_SIZE);
	memcpy(r->buf, &block[RANDSTAT_KEY_WORDS],
	       CHACHA_BLOCK_SIZE - CHACHA_KEY_SIZE);
	r->avail = ARRAY_SIZE(r->buf);
	memzero_explicit(block, sizeof(block));
}

/**
 * randstat_rng_init() - key a keystream
 * @r: the keystream
 * @key: 256 bits from get_random_bytes() (or a test's fixed key)
 *
 * The block counter and nonce start at zero: the key alone sets the
 * stream.
 */
void randstat_rng_init(struct randstat_rng *r, const u32 key[RANDSTAT_KEY_WORDS])
{
	u32 *s = randstat_rng_words(r);

	memset(r, 0, sizeof(*r));
	/* "expand 32-byte k" (chacha_init_consts()'s signature varies) */
	s[0] = 0x61707865;
	s[1] = 0x3320646e;
	s[2] = 0x79622d32;
	s[3] = 0x6b206574;
	memcpy(&s[4], key, CHACHA_KEY_SIZE);
}

/**
 * randstat_rng_mix() - rekey a running keystream
 * @r: the keystream
 * @key: 256 new bits from get_random_bytes()
 *
 * The new bits are XORed into the key, so the stream is at least as
 * unpredictable as the better of the two, and the words already generated
 * from the old key are dropped.
 */
void randstat_rng_mix(struct randstat_rng *r, const u32 key[RANDSTAT_KEY_WORDS])
{
	u32 *s = randstat_rng_words(r);
	unsigned int i;

	for (i = 0; i < RANDSTAT_KEY_WORDS; i++)
		s[4 + i] ^= key[i];
	memzero_explicit(r->buf, sizeof(r->buf));
	r->avail = 0;
}

/**
 * randstat_rng_u32() - 32 random bits
 * @r: this CPU's keystream
 *
 * Return: the next keystream word.
 */
u32 randstat_rng_u32(struct randstat_rng *r)
{
	u32 v;

	if (!r->avail)
		randstat_rng_refill(r);
	v = r->buf[--r->avail];
	r->buf[r->avail] = 0;	/* an output, once used, is not kept */
	return v;
}

/**
 * randstat_rng_u64() - 64 random bits
 * @r: this CPU's keystream
 *
 * Return: two keystream words.
 */
u64 randstat_rng_u64(struct randstat_rng *r)
{
	u64 hi = randstat_rng_u32(r);

	return hi << 32 | randstat_rng_u32(r);
}
