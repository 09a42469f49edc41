// SPDX-License-Identifier: GPL-2.0
/*
 * hostbench: the cost of randstat's pure per-sample path on this machine's
 * CPU, from the module's own sources built for user space (see Makefile).
 *
 * What one sample does in randstat_timer_fn() (module/sampler.c), minus
 * what the kernel provides (the clock reads, get_irq_regs(), the seqcount,
 * the hrtimer core and the interrupt itself):
 *
 *   classify  randstat_snapshot_fill(), randstat_idle_is_iowait() for a
 *             sample of the idle task (randstat_sample_iowait()'s pure
 *             part), randstat_classify()
 *   draw      randstat_draw_interval(): the exponential law (floor 50 us,
 *             mean 4 ms, the defaults) or the uniform one (2 ms to 6 ms)
 *   charge    randstat_charge() and randstat_record_timing()
 *   path      the three in that order, as the timer runs them
 *
 * and what a read of /proc/randstat computes per CPU (module/proc.c's
 * randstat_take(), less the seqcount copy and the kernel's figures):
 *
 *   read      randstat_keep_shown() of a CPU's times and exact times,
 *             each call a second later (1 s of one class and 1 ms of
 *             exact idle more), as a poller at 1 s sees it
 *
 * Usage:
 *   hostbench time MODE N REPS   N calls, REPS times: the fastest and the
 *                                median repetition's ns per call
 *   hostbench cold MODE N        N calls, each timed alone after L1 and L2
 *                                were evicted: the mean of the middle 80%
 *                                and the 90th percentile, ns, less the
 *                                clock's own cost (the TSC's, rdtscp)
 *   hostbench once MODE N        N calls, no clock (for callgrind/perf)
 *   hostbench check              TAP: the host build computes what the
 *                                module does (known answers, means)
 *
 * MODE: path-exp path-uni classify draw-exp draw-uni rng charge read empty.
 * The sampled contexts cycle through user, nice, system, softirq and idle
 * in a fixed pseudo-random order, so the classifier's branches are not
 * trivially predicted; the keystream's key is fixed, so instruction counts
 * repeat exactly.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifndef __aarch64__
#include <x86intrin.h>
#endif

#include "randstat.h"

#define NCTX_ORDER 4096

struct hctx {
	struct pt_regs regs;
	struct task_struct task;
	unsigned long irqs, hardirqs;
	bool softirq;
};

/* user, nice 5, system, softirq (in the idle task), idle */
static struct hctx ctxs[] = {
	{ KSHIM_REGS_USER, { 0, 120 }, HARDIRQ_OFFSET, HARDIRQ_OFFSET, false },
	{ KSHIM_REGS_USER, { 0, 125 }, HARDIRQ_OFFSET, HARDIRQ_OFFSET, false },
	{ KSHIM_REGS_KERNEL, { 0, 120 }, HARDIRQ_OFFSET, HARDIRQ_OFFSET, false },
	{ KSHIM_REGS_KERNEL, { PF_IDLE, 120 }, HARDIRQ_OFFSET + (1UL << 8),
	  HARDIRQ_OFFSET, true },
	{ KSHIM_REGS_KERNEL, { PF_IDLE, 120 }, HARDIRQ_OFFSET, HARDIRQ_OFFSET,
	  false },
};

static unsigned char order[NCTX_ORDER];
static struct randstat_rng rng;
static struct randstat_counters counters;
static struct randstat_hists hists;
static bool last_iowait;
static const struct randstat_window win_exp = {
	RANDSTAT_FLOOR_DEFAULT_NS, RANDSTAT_MEAN_DEFAULT_NS };
static const struct randstat_window win_uni = {
	RANDSTAT_TMIN_DEFAULT_NS, RANDSTAT_TMAX_DEFAULT_NS };

/* read: one CPU's counters, and the times shown of it */
static struct randstat_counters rd;
static u64 rd_ns[RS_NR_CLASSES], rd_exact[RS_NR_CLASSES];

static void setup_read(void)
{
	memset(&rd, 0, sizeof(rd));
	memset(rd_ns, 0, sizeof(rd_ns));
	memset(rd_exact, 0, sizeof(rd_exact));
	/* an hour at 250 samples a second: 50% user, 10% system, 40% idle */
	rd.samples[RS_USER] = 450000;
	rd.samples[RS_SYSTEM] = 90000;
	rd.samples[RS_IDLE] = 360000;
	rd.sampled_ns = 3600ULL * 1000000000ULL;
	rd.elapsed_ns = rd.sampled_ns;
}

static void setup(void)
{
	u32 key[RANDSTAT_KEY_WORDS], x = 12345;
	unsigned int i;

	for (i = 0; i < RANDSTAT_KEY_WORDS; i++)
		key[i] = 0x9e3779b9U * (i + 1);
	randstat_rng_init(&rng, key);
	memset(&counters, 0, sizeof(counters));
	memset(&hists, 0, sizeof(hists));
	setup_read();
	for (i = 0; i < NCTX_ORDER; i++) {
		x = x * 1103515245U + 12345U;
		order[i] = (x >> 16) % ARRAY_SIZE(ctxs);
	}
}

static noinline enum randstat_class step_classify(u64 i)
{
	const struct hctx *h = &ctxs[order[i % NCTX_ORDER]];
	struct randstat_snapshot s;

	randstat_snapshot_fill(&s, (struct pt_regs *)&h->regs, &h->task,
			       h->irqs, h->hardirqs, h->softirq);
	if (s.idle_task && !s.user_mode && !s.irq_nested) {
		/* idle and iowait sleep time grown since the last idle sample */
		last_iowait = randstat_idle_is_iowait(i & 1023, (i >> 3) & 7,
						      last_iowait);
		s.iowait = last_iowait;
	}
	return randstat_classify(&s);
}

static noinline u64 step_draw(enum randstat_law law)
{
	return randstat_draw_interval(&rng, law,
				      law == RS_LAW_UNIFORM ? win_uni : win_exp);
}

static noinline u64 step_charge(enum randstat_class cls, u64 interval)
{
	u64 steal = randstat_charge(&counters, cls, 1, interval, 0);

	/* a cost of a few hundred ns, a lateness of some us: varied buckets */
	randstat_record_timing(&counters, &hists, 200 + (interval & 511),
			       interval & 65535);
	return steal;
}

static noinline u64 step_path(u64 i, enum randstat_law law)
{
	enum randstat_class cls = step_classify(i);
	u64 interval = step_draw(law);

	return step_charge(cls, interval) + interval;
}

static noinline u64 step_read(u64 i)
{
	static const enum randstat_class cls[] = {
		RS_USER, RS_USER, RS_SYSTEM, RS_IDLE, RS_IDLE };

	/* what the CPU's charges left since the read before: a second */
	rd.shown_ns[cls[order[i % NCTX_ORDER]]] += 1000000000ULL;
	rd.exact_ns[RS_IDLE] += 1000000ULL;
	rd.shown_ns[RS_IDLE] += 1000000ULL;
	randstat_keep_shown(rd.shown_ns, rd_ns);
	randstat_keep_shown(rd.exact_ns, rd_exact);
	return rd_ns[RS_USER] + rd_exact[RS_IDLE];
}

static noinline u64 step_empty(u64 i)
{
	__asm__ volatile("" : : "r"(i) : "memory");
	return i;
}

enum mode { M_PATH_EXP, M_PATH_UNI, M_CLASSIFY, M_DRAW_EXP, M_DRAW_UNI,
	    M_RNG, M_CHARGE, M_READ, M_EMPTY, M_NR };
static const char *const mode_names[M_NR] = {
	"path-exp", "path-uni", "classify", "draw-exp", "draw-uni", "rng",
	"charge", "read", "empty",
};

/* Call @i of a mode's step. */
static inline u64 one(enum mode m, u64 i)
{
	switch (m) {
	case M_PATH_EXP:
		return step_path(i, RS_LAW_EXPONENTIAL);
	case M_PATH_UNI:
		return step_path(i, RS_LAW_UNIFORM);
	case M_CLASSIFY:
		return step_classify(i);
	case M_DRAW_EXP:
		return step_draw(RS_LAW_EXPONENTIAL);
	case M_DRAW_UNI:
		return step_draw(RS_LAW_UNIFORM);
	case M_RNG:
		return randstat_rng_u64(&rng);
	case M_CHARGE:
		return step_charge(i % RS_NR_TIME_CLASSES,
				   RANDSTAT_MEAN_DEFAULT_NS + (i & 4095));
	case M_READ:
		return step_read(i);
	default:
		return step_empty(i);
	}
}

/* N calls of a mode's step; the sum keeps the compiler from dropping them. */
static noinline u64 run(enum mode m, u64 n)
{
	u64 i, sum = 0;

	for (i = 0; i < n; i++)
		sum += one(m, i);
	return sum;
}

/*
 * A sample comes every few ms, after other work has had the caches: write
 * a buffer larger than this CPU's L2 (L1 and L2 then hold none of the
 * sampler's lines; a shared L3 may still hold some).
 */
#define EVICT_BYTES (8UL << 20)
static unsigned char *evict_buf;

static noinline void evict(u64 i)
{
	size_t k;

	for (k = 0; k < EVICT_BYTES; k += 64)
		evict_buf[k] = (unsigned char)(i + k);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/*
 * The cold mode's clock: the TSC (rdtscp waits for what came before), or
 * on aarch64 the generic timer's virtual count, after an isb.
 */
static inline u64 tick(void)
{
#ifdef __aarch64__
	u64 c;

	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(c) : : "memory");
	return c;
#else
	unsigned int aux;

	return __rdtscp(&aux);
#endif
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The mean of a sorted array's middle 80%: not quantized like a median. */
static double mid_mean(const double *a, u64 n)
{
	u64 i, lo = n / 10, hi = n - n / 10;
	double sum = 0;

	for (i = lo; i < hi; i++)
		sum += a[i];
	return sum / (hi - lo);
}

static int parse_mode(const char *s, enum mode *m)
{
	int k;

	for (k = 0; k < M_NR; k++)
		if (!strcmp(s, mode_names[k])) {
			*m = k;
			return 0;
		}
	fprintf(stderr, "hostbench: unknown mode %s\n", s);
	return -1;
}

static int tap_n;

static bool tap(bool ok, const char *what)
{
	printf("%s %d - host build: %s\n", ok ? "ok" : "not ok", ++tap_n,
	       what);
	return ok;
}

/*
 * The mean of n draws of a law, against its expectation within 4 sigma
 * (sigma of the mean: the law's standard deviation over sqrt(n)).
 */
static bool check_mean(enum randstat_law law, u64 n)
{
	struct randstat_window w = law == RS_LAW_UNIFORM ? win_uni : win_exp;
	double sum = 0, want, sd, mean, sigma;
	u64 i, least = UINT64_MAX, v;
	char what[160];

	for (i = 0; i < n; i++) {
		v = randstat_draw_interval(&rng, law, w);
		sum += v;
		if (v < least)
			least = v;
	}
	mean = sum / n;
	if (law == RS_LAW_UNIFORM) {
		want = (w.lo + (double)w.hi) / 2;
		sd = (w.hi - (double)w.lo + 1) / sqrt(12);
	} else {
		want = w.hi;
		sd = w.hi - (double)w.lo;
	}
	sigma = sd / sqrt(n);
	printf("# %s: %llu draws, mean %.0f ns, want %.0f +- %.0f (4 sigma), shortest %llu ns\n",
	       randstat_law_names[law], (unsigned long long)n, mean, want,
	       4 * sigma, (unsigned long long)least);
	snprintf(what, sizeof(what),
		 "%s law's mean within 4 sigma of %.0f ns, none below %u ns",
		 randstat_law_names[law], want, w.lo);
	return tap(fabs(mean - want) <= 4 * sigma && least >= w.lo, what);
}

static int check(void)
{
	/* kunit/rng_test.c's known answers: key 0..31, counter, nonce 0 */
	static const u32 want[] = {
		0x2c3baee4, 0xa81cd806, 0xc8a7d11f, 0xfff8cb4a, 0x981bcd58,
		0xd82f95ed, 0xb4d41356, 0xbdf9f24d, 0x82b7516b, 0x815634f1,
	};
	u32 key[RANDSTAT_KEY_WORDS];
	bool ok = true, kat = true;
	struct randstat_snapshot s;
	unsigned int i;

	printf("TAP version 13\n1..4\n");
	for (i = 0; i < RANDSTAT_KEY_WORDS; i++)
		key[i] = (4 * i) | (4 * i + 1) << 8 | (4 * i + 2) << 16 |
			 (u32)(4 * i + 3) << 24;
	randstat_rng_init(&rng, key);
	for (i = 0; i < ARRAY_SIZE(want); i++)
		kat &= randstat_rng_u32(&rng) == want[i];
	for (; i < ARRAY_SIZE(rng.buf); i++)
		randstat_rng_u32(&rng);
	kat &= randstat_rng_u32(&rng) == 0x7751945cU;
	ok &= tap(kat, "ChaCha20 keystream gives kunit/rng_test.c's known answers");

	/* the five contexts the benchmark samples, classified as the kernel does */
	{
		static const enum randstat_class cls[] = {
			RS_USER, RS_NICE, RS_SYSTEM, RS_SOFTIRQ, RS_IDLE };
		bool cok = true;

		for (i = 0; i < ARRAY_SIZE(ctxs); i++) {
			randstat_snapshot_fill(&s, &ctxs[i].regs, &ctxs[i].task,
					       ctxs[i].irqs, ctxs[i].hardirqs,
					       ctxs[i].softirq);
			cok &= randstat_classify(&s) == cls[i];
		}
		ok &= tap(cok, "user, nice, system, softirq and idle contexts classified as such");
	}
	setup();
	ok &= check_mean(RS_LAW_EXPONENTIAL, 1000000);
	ok &= check_mean(RS_LAW_UNIFORM, 1000000);
	return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
	enum mode m;
	u64 n, sum = 0;
	int reps, r;

	if (argc == 2 && !strcmp(argv[1], "check"))
		return check();
	if (argc == 4 && !strcmp(argv[1], "once")) {
		if (parse_mode(argv[2], &m))
			return 2;
		n = strtoull(argv[3], NULL, 10);
		setup();
		sum = run(m, n);
		printf("%s n=%llu sum=%llu\n", mode_names[m],
		       (unsigned long long)n, (unsigned long long)sum);
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "time")) {
		double *t;

		if (parse_mode(argv[2], &m))
			return 2;
		n = strtoull(argv[3], NULL, 10);
		reps = atoi(argv[4]);
		if (!n || reps < 1) {
			fprintf(stderr, "hostbench: N and REPS must be positive\n");
			return 2;
		}
		t = calloc(reps, sizeof(*t));
		if (!t)
			return 1;
		setup();
		sum = run(m, n);	/* warm up */
		for (r = 0; r < reps; r++) {
			double t0 = now_ns();

			sum += run(m, n);
			t[r] = (now_ns() - t0) / n;
		}
		qsort(t, reps, sizeof(*t), cmp_double);
		printf("%s n=%llu reps=%d min_ns=%.2f median_ns=%.2f sum=%llu\n",
		       mode_names[m], (unsigned long long)n, reps, t[0],
		       t[reps / 2], (unsigned long long)sum);
		free(t);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "cold")) {
		double *t, *e, ns0, per_tick;
		u64 i, c0, tsc0;

		if (parse_mode(argv[2], &m))
			return 2;
		n = strtoull(argv[3], NULL, 10);
		t = calloc(n, sizeof(*t));
		e = calloc(n, sizeof(*e));
		evict_buf = malloc(EVICT_BYTES);
		if (!n || !t || !e || !evict_buf) {
			fprintf(stderr, "hostbench: N must be positive (or out of memory)\n");
			return 2;
		}
		setup();
		/*
		 * Each call alone, and an empty call the same way (the clock's
		 * own cost), in TSC ticks (rdtscp waits for what came before);
		 * the TSC's rate is taken against CLOCK_MONOTONIC over the run.
		 */
		ns0 = now_ns();
		tsc0 = tick();
		for (i = 0; i < n; i++) {
			evict(i);
			c0 = tick();
			sum += one(m, i);
			t[i] = tick() - c0;
			evict(i);
			c0 = tick();
			sum += one(M_EMPTY, i);
			e[i] = tick() - c0;
		}
		per_tick = (now_ns() - ns0) / (tick() - tsc0);
		qsort(t, n, sizeof(*t), cmp_double);
		qsort(e, n, sizeof(*e), cmp_double);
		printf("%s cold n=%llu mean_ns=%.1f p90_ns=%.1f clock_ns=%.1f",
		       mode_names[m], (unsigned long long)n,
		       (mid_mean(t, n) - mid_mean(e, n)) * per_tick,
		       (t[n * 9 / 10] - mid_mean(e, n)) * per_tick,
		       mid_mean(e, n) * per_tick);
		printf(" tsc_mhz=%.0f sum=%llu\n", 1e3 / per_tick,
		       (unsigned long long)sum);
		return 0;
	}
	fprintf(stderr,
		"usage: hostbench time MODE N REPS | cold MODE N | once MODE N | check\n"
		"MODE: path-exp path-uni classify draw-exp draw-uni rng charge read empty\n");
	return 2;
}
