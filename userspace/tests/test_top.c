// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of randstat top, printing TAP.
 *
 *   test_top RANDSTAT
 *
 * The arithmetic (rstask.c) and the output (rstopout.c) are called
 * directly, on made-up samples and /proc figures whose results are worked
 * out by hand here; the program RANDSTAT is run for its command line and
 * the checks it makes before it touches tracefs (usage, module, root).
 * The reference quantiles are Garwood's, computed to 12 digits with
 * mpmath (bisection of the regularized incomplete gamma function).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rsjson.h"
#include "rstask.h"
#include "rstopout.h"
#include "tap.h"

static const char *prog;

/* --- the 95% interval ---------------------------------------------------- */

static void t_poisson(void)
{
	static const struct {
		uint64_t k;
		double lo, hi;
	} ref[] = {
		{ 0, 0, 3.68887945411 },
		{ 1, 0.0253178079843, 5.57164339094 },
		{ 2, 0.242209278544, 7.22468766772 },
		{ 5, 1.62348639012, 11.6683320793 },
		{ 10, 4.79538869613, 18.390356042 },
		{ 30, 20.2408740214, 42.8268653948 },
		{ 100, 81.3639912509, 121.626793792 },
		{ 250, 219.967995631, 282.987705042 },
		{ 1000, 938.973018408, 1063.95213602 },
		{ 20000, 19723.7676006, 20279.1336279 },
		/* past EXACT_MAX: Wilson and Hilferty's */
		{ 20001, 19724.7606711, 20280.1405572 },
		{ 100000, 99381.1526637, 100621.74474 },
	};
	double lo, hi;
	size_t i;

	for (i = 0; i < sizeof(ref) / sizeof(*ref); i++) {
		rs_poisson_ci95(ref[i].k, &lo, &hi);
		/* 1e-9 relative where exact, 1e-6 beyond */
		EXPECT_NEAR(lo, ref[i].lo, (ref[i].k > 20000 ? 1e-6 : 1e-9) *
			    (ref[i].lo + 1));
		EXPECT_NEAR(hi, ref[i].hi, (ref[i].k > 20000 ? 1e-6 : 1e-9) *
			    ref[i].hi);
	}
	/* the interval always holds k, and grows with it */
	for (i = 0; i < 3000; i += 7) {
		double lo2, hi2;

		rs_poisson_ci95(i, &lo, &hi);
		rs_poisson_ci95(i + 1, &lo2, &hi2);
		EXPECT(lo <= i && i <= hi && lo2 > lo && hi2 > hi);
	}
}

static void t_outside(void)
{
	/* [10, 20], one tick 1 point: outside below 8.995, above 21.005 */
	EXPECT(!rs_kernel_outside(15, 10, 20, 1));
	EXPECT(!rs_kernel_outside(9, 10, 20, 1));
	EXPECT(!rs_kernel_outside(8.996, 10, 20, 1));
	EXPECT(rs_kernel_outside(8.99, 10, 20, 1));
	EXPECT(!rs_kernel_outside(21.004, 10, 20, 1));
	EXPECT(rs_kernel_outside(21.01, 10, 20, 1));
	EXPECT(rs_kernel_outside(0, 10, 20, 1));
	/* no kernel figure, or no interval: never */
	EXPECT(!rs_kernel_outside(NAN, 10, 20, 1));
	EXPECT(!rs_kernel_outside(50, NAN, 20, 1));
	/* no resolution given: the print resolution alone */
	EXPECT(rs_kernel_outside(20.006, 10, 20, NAN));
	EXPECT(!rs_kernel_outside(20.004, 10, 20, 0));
}

/* --- parsing ------------------------------------------------------------- */

static void t_class(void)
{
	static const char *const names[] = {
		"user", "nice", "system", "idle", "iowait", "irq", "softirq",
		"steal", "guest", "guest_nice",
	};
	char f[12];
	int i;

	for (i = 0; i < RS_NCOLS; i++) {
		memset(f, 0, sizeof(f));
		memcpy(f, names[i], strlen(names[i]));
		EXPECT(rs_class_index(f, sizeof(f)) == i);
	}
	EXPECT(rs_class_index("guest_nice", 10) == RS_GUEST_NICE);	/* no NUL */
	EXPECT(rs_class_index("userX", 4) == RS_USER);		/* the field's size */
	EXPECT(rs_class_index("use", 12) == -1);
	EXPECT(rs_class_index("users", 12) == -1);
	EXPECT(rs_class_index("", 12) == -1);
	EXPECT(rs_class_index("usr", 12) == -1);
	EXPECT(rs_class_index("guest_nicer", 12) == -1);
}

/* A stat line of 52 fields, as 6.1 writes them; utime 1234, stime 56. */
#define STAT_TAIL \
	" R 1 812 812 0 -1 4194560 101 0 0 0 1234 56 0 0 20 0 1 0 4242 " \
	"2510848 256 18446744073709551615 4194304 4894213 140727 0 0 0 0 0 " \
	"0 0 0 0 17 1 0 0 0 0 0 6991160 7004448 30912512 140727 140727 " \
	"140727 140727 0\n"

static void t_pid_stat(void)
{
	struct rs_pstat p;
	const char *s;

	memset(&p, 0, sizeof(p));
	s = "812 (spin)" STAT_TAIL;
	EXPECT(!rs_parse_pid_stat(s, strlen(s), &p));
	EXPECT(p.id == 812 && !strcmp(p.comm, "spin"));
	EXPECT(p.utime == 1234 && p.stime == 56 && p.start == 4242);

	/* a comm with blanks and parentheses: up to the last ')' */
	s = "77 (a) b (c)) R)" STAT_TAIL;
	EXPECT(!rs_parse_pid_stat(s, strlen(s), &p));
	EXPECT(p.id == 77 && !strcmp(p.comm, "a) b (c)) R"));
	EXPECT(p.utime == 1234 && p.stime == 56);

	/* longer than a comm can be: cut to 15 */
	s = "9 (0123456789abcdefgh)" STAT_TAIL;
	EXPECT(!rs_parse_pid_stat(s, strlen(s), &p));
	EXPECT(!strcmp(p.comm, "0123456789abcde"));

	/* an empty comm is a comm */
	s = "9 ()" STAT_TAIL;
	EXPECT(!rs_parse_pid_stat(s, strlen(s), &p));
	EXPECT(!strcmp(p.comm, "") && p.stime == 56);

	/* damaged: no comm, cut short, letters for numbers */
	s = "812 spin R 1";
	EXPECT(rs_parse_pid_stat(s, strlen(s), &p));
	s = "812 (spin) R 1 812 812 0 -1 4194560 101 0 0 0 1234";
	EXPECT(rs_parse_pid_stat(s, strlen(s), &p));
	s = "812 (spin) R 1 812 812 0 -1 4194560 101 0 0 0 12x4 56 0 0 20 0 1 0 4242\n";
	EXPECT(rs_parse_pid_stat(s, strlen(s), &p));
	s = "x (spin)" STAT_TAIL;
	EXPECT(rs_parse_pid_stat(s, strlen(s), &p));
	EXPECT(rs_parse_pid_stat("", 0, &p));
	/* the length is obeyed: the line cut before stime */
	s = "812 (spin)" STAT_TAIL;
	EXPECT(rs_parse_pid_stat(s, strstr(s, " 56 ") - s, &p));
}

static struct rs_pstat pst(int id, int tgid, const char *comm, uint64_t ut,
			   uint64_t st, uint64_t start)
{
	struct rs_pstat p;

	memset(&p, 0, sizeof(p));
	p.id = id;
	p.tgid = tgid;
	strcpy(p.comm, comm);
	p.utime = ut;
	p.stime = st;
	p.start = start;
	return p;
}

static void t_pscan(void)
{
	struct rs_pscan s;
	struct rs_pstat p;
	int i, found = 0;

	memset(&s, 0, sizeof(s));
	EXPECT(!rs_pscan_find(&s, 1));
	for (i = 1; i <= 5000; i++) {
		p = pst(i * 7, i * 7, "t", i, 2 * i, 1);
		EXPECT(!rs_pscan_add(&s, &p));
	}
	EXPECT(s.n == 5000);
	for (i = 1; i <= 5000; i++) {
		const struct rs_pstat *q = rs_pscan_find(&s, i * 7);

		found += q && q->utime == (uint64_t)i && q->stime == 2u * i;
	}
	EXPECT(found == 5000);
	EXPECT(!rs_pscan_find(&s, 8));
	/* the same id again replaces it */
	p = pst(14, 14, "u", 99, 0, 2);
	EXPECT(!rs_pscan_add(&s, &p));
	EXPECT(s.n == 5000 && rs_pscan_find(&s, 14)->utime == 99);
	rs_pscan_clear(&s);
	EXPECT(s.n == 0 && !rs_pscan_find(&s, 14));
	p = pst(3, 3, "v", 1, 1, 1);
	EXPECT(!rs_pscan_add(&s, &p) && rs_pscan_find(&s, 3));
	rs_pscan_free(&s);
}

/* --- aggregation, estimates, order ------------------------------------- */

static const struct rs_task *row(const struct rs_tasks *t, int id)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->v[i].id == id)
			return &t->v[i];
	return NULL;
}

/* Process 100 (leader "main", threads 101 "worker" and 102), and 200. */
static void add_events(struct rs_tasks *t)
{
	int i;

	for (i = 0; i < 30; i++)
		rs_tasks_add_sample(t, 101, 100, "worker", RS_USER, 1);
	rs_tasks_add_sample(t, 102, 100, "w2", RS_SYSTEM, 2);
	rs_tasks_add_sample(t, 100, 100, "main", RS_NICE, 1);
	rs_tasks_add_sample(t, 100, 100, "main", RS_GUEST, 1);
	rs_tasks_add_sample(t, 100, 100, "main", RS_IRQ, 1);
	rs_tasks_add_sample(t, 200, 200, "other", RS_SYSTEM, 5);
	rs_tasks_add_sample(t, 0, 0, "swapper/1", RS_IDLE, 40);
	rs_tasks_add_sample(t, 200, 200, "other", -1, 3);
}

static void t_per_process(void)
{
	struct rs_tasks t;
	const struct rs_task *r;

	rs_tasks_init(&t, false);
	add_events(&t);
	EXPECT(t.n == 3);
	r = row(&t, 100);
	EXPECT(r && r->tgid == 100 && !strcmp(r->comm, "main"));
	EXPECT(r && r->samples[RS_USER] == 30 && r->samples[RS_SYSTEM] == 2 &&
	       r->samples[RS_NICE] == 1 && r->samples[RS_GUEST] == 1 &&
	       r->samples[RS_IRQ] == 1);
	r = row(&t, 200);
	EXPECT(r && r->samples[RS_SYSTEM] == 5 && !strcmp(r->comm, "other"));
	EXPECT(t.samples[RS_USER] == 30 && t.samples[RS_SYSTEM] == 7 &&
	       t.samples[RS_IDLE] == 40 && t.unknown == 3);
	rs_tasks_free(&t);
}

static void t_per_thread(void)
{
	struct rs_tasks t;
	const struct rs_task *r;

	rs_tasks_init(&t, true);
	add_events(&t);
	EXPECT(t.n == 5);
	r = row(&t, 101);
	EXPECT(r && r->tgid == 100 && !strcmp(r->comm, "worker") &&
	       r->samples[RS_USER] == 30);
	r = row(&t, 102);
	EXPECT(r && r->tgid == 100 && r->samples[RS_SYSTEM] == 2);
	r = row(&t, 100);
	EXPECT(r && r->samples[RS_USER] == 0 && r->samples[RS_NICE] == 1);
	rs_tasks_free(&t);
}

/* A leader's comm wins over a thread's seen first; /proc's over both. */
static void t_comm(void)
{
	struct rs_tasks t;
	struct rs_pscan a, b;
	struct rs_pstat p;

	rs_tasks_init(&t, false);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	rs_tasks_add_sample(&t, 301, 300, "thread", RS_USER, 1);
	EXPECT(!strcmp(row(&t, 300)->comm, "thread"));
	rs_tasks_add_sample(&t, 300, 300, "leader", RS_USER, 1);
	rs_tasks_add_sample(&t, 302, 300, "thread2", RS_USER, 1);
	EXPECT(!strcmp(row(&t, 300)->comm, "leader"));
	p = pst(300, 300, "fromproc", 1, 0, 5);
	rs_pscan_add(&b, &p);
	EXPECT(!rs_tasks_add_kernel(&t, &a, &b));
	EXPECT(!strcmp(row(&t, 300)->comm, "fromproc"));
	rs_tasks_free(&t);
	rs_pscan_free(&a);
	rs_pscan_free(&b);
}

/*
 * -p: the rows of the processes asked for only, an idle one (no sample,
 * no kernel time: otherwise no row at all) included, in rank order; with
 * threads, the threads of those processes.
 */
static void t_pids(void)
{
	static const int want[] = { 400, 100 };
	struct rs_tasks t;
	struct rs_pscan a, b;
	struct rs_pstat p;
	size_t n;

	rs_tasks_init(&t, false);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	rs_tasks_add_sample(&t, 100, 100, "main", RS_USER, 30);
	rs_tasks_add_sample(&t, 200, 200, "other", RS_USER, 50);
	p = pst(100, 100, "main", 1000, 50, 7);
	rs_pscan_add(&a, &p);
	rs_pscan_add(&b, &p);
	p = pst(400, 400, "sleeper", 9, 9, 1);	/* idle all along */
	rs_pscan_add(&a, &p);
	rs_pscan_add(&b, &p);
	EXPECT(!rs_tasks_want(&t, &b, want, 2));
	EXPECT(!rs_tasks_add_kernel(&t, &a, &b));
	rs_tasks_estimate(&t, 4e6, 1e9, 100);
	EXPECT(rs_tasks_rank(&t) == 2);		/* 200 and 100 have samples */
	n = rs_tasks_keep(&t, want, 2);
	EXPECT(n == 2 && t.n == 2);
	EXPECT(t.v[0].id == 100 && t.v[1].id == 400);
	EXPECT(!strcmp(t.v[1].comm, "sleeper") && t.v[1].has_kernel);
	rs_tasks_free(&t);
	rs_pscan_free(&a);
	rs_pscan_free(&b);

	/* threads: 101 and 102 of process 100 kept, 201 of 200 not */
	rs_tasks_init(&t, true);
	rs_tasks_add_sample(&t, 101, 100, "w1", RS_USER, 3);
	rs_tasks_add_sample(&t, 102, 100, "w2", RS_SYSTEM, 2);
	rs_tasks_add_sample(&t, 201, 200, "x", RS_USER, 9);
	rs_tasks_estimate(&t, 4e6, 1e9, 100);
	rs_tasks_rank(&t);
	n = rs_tasks_keep(&t, want + 1, 1);
	EXPECT(n == 2 && t.v[0].id == 101 && t.v[1].id == 102);
	rs_tasks_free(&t);
}

static void t_kernel(void)
{
	struct rs_tasks t;
	struct rs_pscan a, b;
	struct rs_pstat p;
	const struct rs_task *r;

	rs_tasks_init(&t, false);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	add_events(&t);
	/* 100: there at both reads */
	p = pst(100, 100, "main", 1000, 50, 7);
	rs_pscan_add(&a, &p);
	p = pst(100, 100, "main", 1031, 52, 7);
	rs_pscan_add(&b, &p);
	/* 200: its id reused by a new process in between */
	p = pst(200, 200, "other", 500, 500, 3);
	rs_pscan_add(&a, &p);
	p = pst(200, 200, "newer", 4, 6, 9);
	rs_pscan_add(&b, &p);
	/* 300: new, sampled never; 400: no change; 500: gone */
	p = pst(300, 300, "new", 2, 1, 11);
	rs_pscan_add(&b, &p);
	p = pst(400, 400, "sleeper", 9, 9, 1);
	rs_pscan_add(&a, &p);
	rs_pscan_add(&b, &p);
	p = pst(500, 500, "gone", 9, 9, 1);
	rs_pscan_add(&a, &p);
	/* 600: its figures went down (cannot, but must not wrap) */
	p = pst(600, 600, "odd", 10, 10, 1);
	rs_pscan_add(&a, &p);
	p = pst(600, 600, "odd", 8, 12, 1);
	rs_pscan_add(&b, &p);
	EXPECT(!rs_tasks_add_kernel(&t, &a, &b));

	r = row(&t, 100);
	EXPECT(r && r->has_kernel && r->dutime == 31 && r->dstime == 2);
	r = row(&t, 200);
	EXPECT(r && r->has_kernel && r->dutime == 4 && r->dstime == 6 &&
	       !strcmp(r->comm, "newer"));
	r = row(&t, 300);
	EXPECT(r && r->has_kernel && r->dutime == 2 && r->dstime == 1 &&
	       r->samples[RS_USER] == 0);
	EXPECT(!row(&t, 400) && !row(&t, 500));
	r = row(&t, 600);
	EXPECT(r && r->dutime == 0 && r->dstime == 2);
	r = row(&t, 0);
	EXPECT(r && !r->has_kernel);
	rs_tasks_free(&t);
	rs_pscan_free(&a);
	rs_pscan_free(&b);
}

static void t_estimate(void)
{
	struct rs_tasks t;
	struct rs_pscan a, b;
	struct rs_pstat p;
	const struct rs_task *r;
	double lo, hi;
	int i;

	rs_tasks_init(&t, false);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	/* 250 user samples of 4 ms over 1 s: 100% of one CPU */
	for (i = 0; i < 250; i++)
		rs_tasks_add_sample(&t, 10, 10, "spin", RS_USER, 1);
	rs_tasks_add_sample(&t, 10, 10, "spin", RS_IRQ, 3);
	p = pst(10, 10, "spin", 0, 0, 1);
	rs_pscan_add(&a, &p);
	/* the kernel: 80 ticks of utime (80%), 20 of stime (20%) */
	p = pst(10, 10, "spin", 80, 20, 1);
	rs_pscan_add(&b, &p);
	rs_tasks_add_kernel(&t, &a, &b);
	/* a task with 5 system samples and no kernel figure */
	rs_tasks_add_sample(&t, 20, 20, "gone", RS_SYSTEM, 5);
	rs_tasks_estimate(&t, 4e6, 1e9, 100);

	r = row(&t, 10);
	rs_poisson_ci95(250, &lo, &hi);
	EXPECT(r && r->usr.k == 250 && r->sys.k == 0);
	EXPECT_NEAR(r->usr.pct, 100, 1e-9);
	EXPECT_NEAR(r->usr.lo, lo * 0.4, 1e-9);
	EXPECT_NEAR(r->usr.hi, hi * 0.4, 1e-9);
	EXPECT_NEAR(r->usr.lo, 87.9871982524, 1e-6);
	EXPECT_NEAR(r->usr.hi, 113.195082017, 1e-6);
	EXPECT_NEAR(r->usr.kernel, 80, 1e-9);
	/* 80 < 87.99 - 1 - 0.005: marked */
	EXPECT(r->usr.outside);
	EXPECT_NEAR(r->sys.pct, 0, 1e-12);
	EXPECT_NEAR(r->sys.lo, 0, 1e-12);
	EXPECT_NEAR(r->sys.hi, 3.68887945411 * 0.4, 1e-9);
	EXPECT_NEAR(r->sys.kernel, 20, 1e-9);
	EXPECT(r->sys.outside);		/* 20 > 1.4756 + 1.005 */

	r = row(&t, 20);
	EXPECT(r && isnan(r->sys.kernel) && !r->sys.outside && !r->usr.outside);
	EXPECT_NEAR(r->sys.pct, 2, 1e-9);

	/* user holds nice, guest and guest_nice; irq is in neither */
	rs_tasks_clear(&t);
	rs_tasks_add_sample(&t, 30, 30, "vm", RS_USER, 1);
	rs_tasks_add_sample(&t, 30, 30, "vm", RS_NICE, 2);
	rs_tasks_add_sample(&t, 30, 30, "vm", RS_GUEST, 4);
	rs_tasks_add_sample(&t, 30, 30, "vm", RS_GUEST_NICE, 8);
	rs_tasks_add_sample(&t, 30, 30, "vm", RS_SOFTIRQ, 16);
	/* over 2 s with a mean of 1 ms, one tick 0.5 points */
	rs_tasks_estimate(&t, 1e6, 2e9, 100);
	r = row(&t, 30);
	EXPECT(r && r->usr.k == 15 && r->sys.k == 0);
	EXPECT_NEAR(r->usr.pct, 15 * 0.05, 1e-12);
	EXPECT(isnan(r->usr.kernel));
	rs_tasks_free(&t);
	rs_pscan_free(&a);
	rs_pscan_free(&b);
}

/* The kernel's tick: a figure one tick out of the interval is not marked. */
static void t_estimate_tick(void)
{
	struct rs_tasks t;
	struct rs_pscan a, b;
	struct rs_pstat p;
	const struct rs_task *r;

	rs_tasks_init(&t, false);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	/* 2 samples over 1 s at 4 ms: 0.8%, interval [0.0969, 2.8899] */
	rs_tasks_add_sample(&t, 5, 5, "x", RS_USER, 2);
	p = pst(5, 5, "x", 0, 0, 1);
	rs_pscan_add(&a, &p);
	/* 3 ticks: 3% is within 2.8899 + 1 tick + 0.005 */
	p = pst(5, 5, "x", 3, 0, 1);
	rs_pscan_add(&b, &p);
	rs_tasks_add_kernel(&t, &a, &b);
	rs_tasks_estimate(&t, 4e6, 1e9, 100);
	r = row(&t, 5);
	EXPECT(r && !r->usr.outside);
	EXPECT_NEAR(r->usr.hi, 7.22468766772 * 0.4, 1e-9);
	/* 4 ticks are not */
	rs_pscan_clear(&b);
	p = pst(5, 5, "x", 4, 0, 1);
	rs_pscan_add(&b, &p);
	rs_tasks_add_kernel(&t, &a, &b);
	rs_tasks_estimate(&t, 4e6, 1e9, 100);
	EXPECT(row(&t, 5)->usr.outside);
	/* a kernel 0 against a task seen once: 0 is in [0.01, 2.23] */
	rs_pscan_clear(&b);
	p = pst(5, 5, "x", 0, 0, 1);
	rs_pscan_add(&b, &p);
	rs_tasks_clear(&t);
	rs_tasks_add_sample(&t, 5, 5, "x", RS_USER, 1);
	rs_tasks_add_kernel(&t, &a, &b);
	rs_tasks_estimate(&t, 4e6, 1e9, 100);
	EXPECT(!row(&t, 5)->usr.outside);
	rs_tasks_free(&t);
	rs_pscan_free(&a);
	rs_pscan_free(&b);
}

static void t_rank(void)
{
	struct rs_tasks t;
	struct rs_pscan a, b;
	struct rs_pstat p;
	size_t n;

	rs_tasks_init(&t, false);
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	rs_tasks_add_sample(&t, 1, 1, "a", RS_USER, 5);
	rs_tasks_add_sample(&t, 2, 2, "b", RS_SYSTEM, 9);
	rs_tasks_add_sample(&t, 3, 3, "c", RS_USER, 5);	/* ties a */
	rs_tasks_add_sample(&t, 4, 4, "d", RS_IRQ, 50);	/* not shown */
	rs_tasks_add_sample(&t, 0, 0, "swapper/0", RS_IDLE, 99);
	/* e: no samples, the kernel's 3 ticks; c: more kernel than a */
	p = pst(5, 5, "e", 3, 0, 1);
	rs_pscan_add(&b, &p);
	p = pst(3, 3, "c", 1, 0, 1);
	rs_pscan_add(&b, &p);
	rs_tasks_add_kernel(&t, &a, &b);
	rs_tasks_estimate(&t, 4e6, 1e9, 100);
	n = rs_tasks_rank(&t);
	EXPECT(n == 4);
	EXPECT(t.n == 6);
	EXPECT(t.v[0].id == 2 && t.v[1].id == 3 && t.v[2].id == 1 &&
	       t.v[3].id == 5);
	EXPECT(t.v[4].id == 0 && t.v[5].id == 4);
	/* ranked, the table still finds and counts */
	rs_tasks_add_sample(&t, 4, 4, "d", RS_USER, 1);
	EXPECT(t.n == 6 && row(&t, 4)->samples[RS_USER] == 1);
	rs_tasks_clear(&t);
	EXPECT(t.n == 0 && t.samples[RS_USER] == 0);
	rs_tasks_add_sample(&t, 4, 4, "d", RS_USER, 1);
	EXPECT(t.n == 1 && row(&t, 4)->samples[RS_USER] == 1);
	rs_tasks_free(&t);
	rs_pscan_free(&a);
	rs_pscan_free(&b);
}

/* --- output -------------------------------------------------------------- */

/* What @fn prints of @r, NUL-terminated. */
static char *print(void (*fn)(FILE *, const struct rs_top_report *),
		   const struct rs_top_report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		exit(2);
	fn(f, r);
	fclose(f);
	return buf;
}

/* A report: spin (pid 812) at 100% user, kernel 80; a gone task; x. */
static void make_report(struct rs_top_report *r, struct rs_tasks *t,
			bool threads)
{
	struct rs_pscan a, b;
	struct rs_pstat p;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	rs_tasks_init(t, threads);
	rs_tasks_add_sample(t, 812, 812, "spin", RS_USER, 250);
	rs_tasks_add_sample(t, 900, 899, "gone", RS_SYSTEM, 5);
	rs_tasks_add_sample(t, 0, 0, "swapper/0", RS_IDLE, 240);
	rs_tasks_add_sample(t, 7, 7, "we\"ird\\\x01\xc3\xa9", RS_USER, 1);
	p = pst(812, 812, "spin", 80, 0, 1);
	rs_pscan_add(&b, &p);
	p = pst(7, 7, "we\"ird\\\x01\xc3\xa9", 1, 0, 1);
	rs_pscan_add(&b, &p);
	rs_tasks_add_kernel(t, &a, &b);
	rs_tasks_estimate(t, 4e6, 1e9, 100);
	memset(r, 0, sizeof(*r));
	r->title = "12:34:56";
	r->time = 1700000000.25;
	r->interval_s = 1;
	r->law = RS_LAW_EXPONENTIAL;
	r->floor_ns = 50000;
	r->mean_ns = 4000000;
	r->tmin_ns = 2000000;
	r->tmax_ns = 6000000;
	r->mu_ns = 4e6;
	r->tasks = t;
	r->active = rs_tasks_rank(t);
	r->shown = r->active;
	rs_pscan_free(&a);
	rs_pscan_free(&b);
}

static void t_text(void)
{
	static char note0[] = "cpu1 is served from the kernel's exact accounting";
	static char *notes[] = { note0 };
	struct rs_top_report r;
	struct rs_tasks t;
	char *s;

	make_report(&r, &t, false);
	r.nnotes = 1;
	r.notes = notes;
	s = print(rs_top_legend, &r);
	EXPECT_HAS(s, "randstat top: samples at random times, intervals 0.050 ms + exponential, mean 4.000 ms\n");
	EXPECT_HAS(s, "A '*' marks a kernel figure outside randstat's\ninterval");
	free(s);
	s = print(rs_top_text, &r);
	EXPECT_HAS(s, "\n12:34:56  interval 1.000 s\n");
	EXPECT_HAS(s, "samples: 496 (user 251, system 5, idle 240); 3 processes with user or system time, 3 shown\n");
	EXPECT_HAS(s, "note: cpu1 is served from the kernel's exact accounting\n");
	EXPECT_HAS(s, "    PID COMMAND            %usr      95% interval  %utime     %sys      95% interval  %stime  samples\n");
	EXPECT_HAS(s, "    812 spin             100.00 [  87.99  113.20]   80.00*    0.00 [   0.00    1.48]    0.00      250\n");
	/* gone: no kernel figure, no mark */
	EXPECT_HAS(s, "    899 gone               0.00 [   0.00    1.48]       -     2.00 [   0.65    4.67]       -        5\n");
	/* a control character shown as '?', other bytes as they are */
	EXPECT_HAS(s, "      7 we\"ird\\?\xc3\xa9         0.40 [   0.01    2.23]    1.00     0.00 [");
	EXPECT_HASNT(s, "swapper");
	free(s);
	/* -n 1: the first row only */
	r.shown = 1;
	s = print(rs_top_text, &r);
	EXPECT_HAS(s, "3 processes with user or system time, 1 shown\n");
	EXPECT_HAS(s, " spin ");
	EXPECT_HASNT(s, " gone ");
	free(s);
	rs_tasks_free(&t);

	make_report(&r, &t, true);
	s = print(rs_top_text, &r);
	EXPECT_HAS(s, "   TGID     TID COMMAND            %usr");
	EXPECT_HAS(s, "    899     900 gone               0.00 [");
	EXPECT_HAS(s, "3 threads with user or system time");
	free(s);
	rs_tasks_free(&t);

	/* the uniform law says its bounds */
	make_report(&r, &t, false);
	r.law = RS_LAW_UNIFORM;
	s = print(rs_top_legend, &r);
	EXPECT_HAS(s, "randstat top: samples at uniformly random intervals in [2.000, 6.000] ms, mean 4.000 ms\n");
	free(s);
	rs_tasks_free(&t);
}

/*
 * The one JSON writer's strings: UTF-8 as it is ("é" in, "é" out, and
 * back), control characters escaped, and a byte that is not UTF-8 (a
 * comm is any bytes) replaced by U+FFFD, so that the line stays JSON.
 */
static void t_json_strings(void)
{
	static const char *const in[] = {
		"\xc3\xa9", "tab\there\x1f", "a\xff" "b", "\xc3", "\xe2\x82\xac",
		"\xed\xa0\x80", "/proc/stat",
	};
	static const char *const out[] = {
		"[\"\xc3\xa9\"]", "[\"tab\\there\\u001f\"]",
		"[\"a\xef\xbf\xbd" "b\"]", "[\"\xef\xbf\xbd\"]",
		"[\"\xe2\x82\xac\"]",
		"[\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"]",	/* a surrogate */
		"[\"/proc/stat\"]",
	};
	struct json_object *a, *back;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f;

	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		f = open_memstream(&buf, &len);
		a = json_object_new_array();
		if (!f || !a)
			exit(2);
		json_object_array_add(a, rs_json_str(in[i]));
		EXPECT(!rs_json_print(f, a));
		fclose(f);
		EXPECT(len && buf[len - 1] == '\n');
		if (len)
			buf[len - 1] = '\0';
		EXPECT_HAS(buf, out[i]);
		EXPECT(strlen(buf) == strlen(out[i]));
		back = json_tokener_parse(buf);
		EXPECT(back && json_object_array_length(back) == 1);
		if (i == 0 && back)	/* "é" round-trips */
			EXPECT(!strcmp(json_object_get_string(
				json_object_array_get_idx(back, 0)), in[0]));
		json_object_put(back);
		free(buf);
		buf = NULL;
	}
	EXPECT(!rs_json_fixed(NAN, 4) && !rs_json_fixed(INFINITY, 4));
}

static void top_json(FILE *f, const struct rs_top_report *r)
{
	EXPECT(!rs_top_json(f, r));
}

static void t_json(void)
{
	static char note0[] = "a \"quoted\" note";
	static char *notes[] = { note0 };
	struct rs_top_report r;
	struct rs_tasks t;
	struct json_object *j;
	const char *c;
	char *s;

	make_report(&r, &t, false);
	r.nnotes = 1;
	r.notes = notes;
	s = print(top_json, &r);
	EXPECT(s[strlen(s) - 1] == '\n' && strchr(s, '\n') == s + strlen(s) - 1);
	EXPECT_HAS(s, "{\"version\":2,\"view\":\"top\",\"threads\":false,\"time\":1700000000.250,\"interval_s\":1.000000,\"law\":\"exponential\",\"floor_ns\":50000,\"mean_ns\":4000000,\"tmin_ns\":2000000,\"tmax_ns\":6000000,\"mean_interval_ns\":4000000,");
	EXPECT_HAS(s, "\"samples\":{\"user\":251,\"nice\":0,\"system\":5,\"idle\":240,\"iowait\":0,\"irq\":0,\"softirq\":0,\"steal\":0,\"guest\":0,\"guest_nice\":0},\"unknown_samples\":0,\"lost\":0,\"active\":3,");
	EXPECT_HAS(s, "\"notes\":[\"a \\\"quoted\\\" note\"],\"tasks\":[{\"pid\":812,\"comm\":\"spin\",");
	EXPECT_HAS(s, "\"randstat\":{\"pct\":{\"usr\":100.0000,\"sys\":0.0000},\"ci95\":{\"usr\":[87.9872,113.1951],\"sys\":[0.0000,1.4756]}},\"kernel\":{\"pct\":{\"usr\":80.0000,\"sys\":0.0000}},\"outside\":[\"usr\"]}");
	EXPECT_HAS(s, "{\"pid\":899,\"comm\":\"gone\",");
	EXPECT_HAS(s, "\"kernel\":null,\"outside\":[]}");
	/* a comm's quote, backslash and control byte escaped, its UTF-8
	 * "é" (c3 a9) passed through as it is */
	EXPECT_HAS(s, "\"comm\":\"we\\\"ird\\\\\\u0001\xc3\xa9\"");
	/* and read back by a JSON parser, the same bytes */
	j = json_tokener_parse(s);
	c = j ? json_object_get_string(json_object_object_get(
		json_object_array_get_idx(json_object_object_get(j, "tasks"), 2),
		"comm")) : NULL;
	EXPECT(c && !strcmp(c, "we\"ird\\\001\xc3\xa9"));
	json_object_put(j);
	EXPECT(s[strlen(s) - 3] == ']' && s[strlen(s) - 2] == '}');
	free(s);
	r.lost_unknown = true;
	r.shown = 0;
	s = print(top_json, &r);
	EXPECT_HAS(s, "\"lost\":null,");
	EXPECT_HAS(s, "\"tasks\":[]}\n");
	free(s);
	rs_tasks_free(&t);

	make_report(&r, &t, true);
	s = print(top_json, &r);
	EXPECT_HAS(s, "\"threads\":true,");
	EXPECT_HAS(s, "{\"pid\":899,\"tid\":900,\"comm\":\"gone\",");
	free(s);
	rs_tasks_free(&t);
}

/* --- the program --------------------------------------------------------- */

struct result {
	int status;		/* exit code, or -1 */
	char out[8192];
	char err[8192];
};

/* Run the program with these arguments, as @uid if not -1. */
static void run(struct result *r, int uid, const char *const *args)
{
	const char *argv[32] = { prog };
	FILE *out, *err;
	int argc = 1;

	for (; *args && argc < 31; args++)
		argv[argc++] = *args;
	r->status = tap_run(prog, argv, uid, NULL, &out, &err);
	tap_slurp(out, r->out, sizeof(r->out));
	tap_slurp(err, r->err, sizeof(r->err));
}

#define RUN(r, ...) run(r, -1, (const char *const[]){ __VA_ARGS__, NULL })

static void t_prog_usage(void)
{
	static const struct {
		const char *args[6];
		const char *msg;
	} bad[] = {
		{ { "top", "-x" }, "unknown option or missing argument: -x" },
		{ { "top", "--jsonx" }, "unknown option or missing argument: --jsonx" },
		{ { "top", "-n" }, "unknown option or missing argument: -n" },
		{ { "top", "--rows", "0" }, "--rows takes a whole number above 0: '0'" },
		{ { "top", "-n", "2", "1", "2" }, "give -n or COUNT, not both" },
		{ { "top", "-p", "1,x" }, "-p takes process ids above 0, separated by commas: '1,x'" },
		{ { "top", "-p", "0" }, "-p takes process ids above 0, separated by commas: '0'" },
		{ { "top", "-p", "1," }, "-p takes process ids above 0, separated by commas: '1,'" },
		{ { "top", "-n", "0" }, "-n takes a whole number above 0: '0'" },
		{ { "top", "-n", "x" }, "-n takes a whole number above 0: 'x'" },
		{ { "top", "0" }, "INTERVAL must be a plain decimal number of seconds from 0.01 to 31622400 (a year), such as 2 or 0.5: '0'" },
		{ { "top", "1", "0" }, "COUNT must be a whole number above 0: '0'" },
		{ { "top", "nan" }, "INTERVAL must be a plain decimal number of seconds from 0.01 to 31622400 (a year), such as 2 or 0.5: 'nan'" },
		{ { "top", "1", "2", "3" }, "too many arguments: 3" },
		{ { "top", "0x10" }, "INTERVAL must be a plain decimal number of seconds from 0.01 to 31622400 (a year), such as 2 or 0.5: '0x10'" },
		{ { "top", "1e-7" }, "INTERVAL must be a plain decimal number of seconds from 0.01 to 31622400 (a year), such as 2 or 0.5: '1e-7'" },
	};
	struct result r;
	char want[256];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		run(&r, -1, bad[i].args);
		snprintf(want, sizeof(want), "randstat top: %s\n", bad[i].msg);
		EXPECT(r.status == 1);
		EXPECT_HAS(r.err, want);
		EXPECT_HAS(r.err, "Try 'randstat top --help'.\n");
		EXPECT(!r.out[0]);
	}
	RUN(&r, "top", "--help");
	EXPECT(r.status == 0 && !r.err[0]);
	EXPECT_HAS(r.out, "Usage: randstat top [-t] [-p PID[,PID...]] [-n N] [--rows N] [--json]\n");
	EXPECT_HAS(r.out, "  -n N              N reports, then exit (as top's -n; COUNT likewise)\n");
	EXPECT_HAS(r.out, "3 the randstat module is not loaded");
	RUN(&r, "top", "-t", "-h");
	EXPECT(r.status == 0);
	/* the CPU view's help names the subcommand */
	RUN(&r, "--help");
	EXPECT(r.status == 0);
	EXPECT_HAS(r.out, "       randstat top [-t] [-p PID[,PID...]] [-n N] [--rows N] [--json]\n");
}

static void t_prog_no_module(void)
{
	struct result r;

	RUN(&r, "top", "1", "1");
	EXPECT(r.status == 3 && !r.out[0]);
	/* the subcommand's own prefix, as its other messages */
	EXPECT_HAS(r.err, "randstat top: /proc/randstat_detail does not exist: the randstat module is not loaded.\n"
		   "  Load it with:            sudo modprobe randstat\n");
	EXPECT_HASNT(r.err, "\nrandstat: ");
	EXPECT(strncmp(r.err, "randstat: ", 10));
	if (geteuid())
		EXPECT_HAS(r.err, "randstat top: needs root to read tracefs");
	else
		EXPECT_HASNT(r.err, "needs root");
	/* -p's list is freed on this early return too (LeakSanitizer, in
	 * tests/sanitize.sh's ASan build, fails the exit code otherwise) */
	RUN(&r, "top", "-p", "1,2", "-p", "3", "1", "1");
	EXPECT(r.status == 3 && !r.out[0]);
	EXPECT_HAS(r.err, "the randstat module is not loaded");
	EXPECT_HASNT(r.err, "LeakSanitizer");
	/* arguments are judged first */
	RUN(&r, "top", "-q");
	EXPECT(r.status == 1);
	EXPECT_HASNT(r.err, "module");
}

/* Not root: said, whatever else is missing (here: the module too). */
static void t_prog_not_root(void)
{
	struct result r;

	run(&r, geteuid() ? -1 : 65534,
	    (const char *const[]){ "top", "--json", NULL });
	EXPECT(r.status == 3 && !r.out[0]);
	EXPECT_HAS(r.err, "randstat top: needs root to read tracefs: run it as root (sudo randstat top)\n");
	EXPECT_HAS(r.err, "the randstat module is not loaded");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s RANDSTAT\n", argv[0]);
		return 2;
	}
	prog = argv[1];
	puts("TAP version 13");

	tap_test("Garwood's 95% interval of a Poisson count", t_poisson);
	tap_test("the '*': outside by more than a tick", t_outside);
	tap_test("the tracepoint's class names", t_class);
	tap_test("/proc/PID/stat: comm, utime, stime, start", t_pid_stat);
	tap_test("a /proc scan: found by id, replaced, cleared", t_pscan);
	tap_test("samples per process: threads added up", t_per_process);
	tap_test("samples per thread", t_per_thread);
	tap_test("the name: the leader's, then /proc's", t_comm);
	tap_test("the kernel's deltas: kept, new, reused, gone", t_kernel);
	tap_test("estimate, interval and marks", t_estimate);
	tap_test("a kernel figure one tick out is not marked", t_estimate_tick);
	tap_test("the order of the rows", t_rank);
	tap_test("-p: the processes asked for, idle ones too", t_pids);
	tap_test("text output", t_text);
	tap_test("JSON output", t_json);
	tap_test("JSON strings: UTF-8 kept, control bytes escaped, other bytes U+FFFD",
		 t_json_strings);

	tap_test("randstat top: usage errors, exit 1; --help", t_prog_usage);
	if (access("/proc/randstat_detail", F_OK) && errno == ENOENT) {
		tap_test("randstat top: module not loaded, exit 3", t_prog_no_module);
		tap_test("randstat top: not root, said", t_prog_not_root);
	} else {
		tap_skip("randstat top: module not loaded, exit 3",
		     "/proc/randstat_detail exists here");
		tap_skip("randstat top: not root, said",
		     "/proc/randstat_detail exists here");
	}

	return tap_done();
}
