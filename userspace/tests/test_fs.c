// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of randstat-fs's pure part (rsmerge.c), printing TAP.
 *
 *   test_fs FIXTURES
 *
 * The texts are made here (two CPUs, hand-picked counters) except one
 * /proc/stat captured from a guest (FIXTURES/vm-normal.stat), which the
 * first frame must reproduce byte for byte.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rsmerge.h"
#include "rsparse.h"	/* RS_FORMAT_VERSION */
#include "tap.h"

/* The other lines of a /proc/stat, passed through as they are. */
#define TAIL "intr 1234 5 6 0\nctxt 98765\nbtime 1700000000\n" \
	"processes 4321\nprocs_running 2\nprocs_blocked 0\n" \
	"softirq 555 1 2 3 4 5 6 7 8 9 10\n"

/* stat_text: a /proc/stat with cpu0 and cpu1 (cpu1 left out if !on1). */
static char *stat_text(const unsigned long long *c0,
		       const unsigned long long *c1, bool on1,
		       const char *tail)
{
	static char buf[4096];
	size_t n = 0;
	int k;

	n += (size_t)snprintf(buf + n, sizeof(buf) - n, "cpu ");
	for (k = 0; k < RS_NCOL; k++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, " %llu",
				      c0[k] + (on1 ? c1[k] : 0));
	n += (size_t)snprintf(buf + n, sizeof(buf) - n, "\ncpu0");
	for (k = 0; k < RS_NCOL; k++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, " %llu",
				      c0[k]);
	if (on1) {
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "\ncpu1");
		for (k = 0; k < RS_NCOL; k++)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n,
					      " %llu", c1[k]);
	}
	snprintf(buf + n, sizeof(buf) - n, "\n%s", tail);
	return strdup(buf);
}

/* rs_text: a /proc/randstat with a made-up header and trailing lines. */
static char *rs_text(const char *header, const unsigned long long *c0,
		     const unsigned long long *c1)
{
	char *core = stat_text(c0, c1, true, ""), *buf;
	size_t n = strlen(header) + strlen(core) + 512;

	buf = malloc(n);
	snprintf(buf, n, "%s\n%s"
		 "ns cpu0 1 2 3 4 5 6 7 8 9 10\n"
		 "sampler cpu0 online 1 elapsed_ns 5\n"
		 "cpu_hist cpu0 1 2 3 4 5 6 7 8 9 10\n"
		 "cpu9 1 2 3\n", header, core);
	free(core);
	return buf;
}

/* The served values of line IDX after one step over STAT and RS. */
struct fs {
	struct rs_frame st, rs;
	struct rs_carry_line c[8];
	char *out;
	size_t len;
};

static void fs_init(struct fs *f)
{
	memset(f, 0, sizeof(*f));
	rs_frame_init(&f->st, 8);
	rs_frame_init(&f->rs, 8);
}

static void fs_free(struct fs *f)
{
	rs_frame_free(&f->st);
	rs_frame_free(&f->rs);
	free(f->out);
}

/* step: STAT and RS (NULL: no /proc/randstat); returns lines from rs. */
static unsigned int step(struct fs *f, char *stat, char *rs)
{
	unsigned int n;

	rs_frame_parse(&f->st, stat);
	if (rs)
		rs_frame_parse(&f->rs, rs);
	n = rs_carry_step(f->c, 8, &f->st, rs ? &f->rs : NULL);
	free(f->out);
	f->out = rs_merge(stat, f->c, 8, &f->len);
	free(stat);
	free(rs);
	return n;
}

/* The served line IDX as parsed back from the merged text. */
static bool served(struct fs *f, unsigned int want, unsigned long long *v)
{
	struct rs_frame p;
	bool ok;

	rs_frame_init(&p, 8);
	rs_frame_parse(&p, f->out);
	ok = p.present[want];
	if (ok)
		memcpy(v, p.v[want], sizeof(p.v[want]));
	rs_frame_free(&p);
	return ok;
}

static void add(unsigned long long *a, const unsigned long long *b,
		unsigned long long *out)
{
	for (int k = 0; k < RS_NCOL; k++)
		out[k] = a[k] + b[k];
}

static bool eq(const unsigned long long *a, const unsigned long long *b)
{
	bool ok = !memcmp(a, b, RS_NCOL * sizeof(*a));

	if (!ok) {
		printf("#   got ");
		for (int k = 0; k < RS_NCOL; k++)
			printf(" %llu", a[k]);
		printf("\n#   want");
		for (int k = 0; k < RS_NCOL; k++)
			printf(" %llu", b[k]);
		printf("\n");
	}
	return ok;
}

static void test_cpu_line(void)
{
	unsigned long long v[RS_NCOL];
	unsigned int idx = 99;
	const char *l;

	tap_begin();
	l = "cpu  1 2 3 4 5 6 7 8 9 10";
	EXPECT(rs_cpu_line(l, strlen(l), &idx, v) == 1 && idx == 0 &&
	       v[0] == 1 && v[9] == 10);
	l = "cpu17 11 0 0 0 0 0 0 0 0 18446744073709551615";
	EXPECT(rs_cpu_line(l, strlen(l), &idx, v) == 1 && idx == 18 &&
	       v[0] == 11 && v[9] == 18446744073709551615ULL);
	l = "cpu0 1 2 3 4 5 6 7 8 9";	/* nine counters */
	EXPECT(rs_cpu_line(l, strlen(l), &idx, v) == 0);
	l = "cpu0 1 2 3 4 5 6 7 8 9 10 11";	/* eleven */
	EXPECT(rs_cpu_line(l, strlen(l), &idx, v) == 0);
	l = "cpu0 1 2 3 4 5 6 7 8 9 18446744073709551616";	/* overflow */
	EXPECT(rs_cpu_line(l, strlen(l), &idx, v) == 0);
	l = "cpux 1 2 3 4 5 6 7 8 9 10";
	EXPECT(rs_cpu_line(l, strlen(l), &idx, v) == 0);
	l = "cpu_hist 1 2 3 4 5 6 7 8 9 10";
	EXPECT(rs_cpu_line(l, strlen(l), &idx, v) == 0);
	l = "cpu0 1 2 3 4 5 6 7 8 9 1O";
	EXPECT(rs_cpu_line(l, strlen(l), &idx, v) == 0);
	l = "ns cpu0 1 2 3 4 5 6 7 8 9 10";
	EXPECT(rs_cpu_line(l, strlen(l), &idx, v) == 0);
	tap_end("rs_cpu_line: cpu and cpuN with exactly ten counters, nothing else");
}

static const unsigned long long K0[RS_NCOL] = { 1000, 10, 500, 90000, 40, 0, 7, 0, 0, 0 };
static const unsigned long long K1[RS_NCOL] = { 2000, 0, 700, 80000, 20, 0, 3, 0, 0, 0 };
static const unsigned long long R0[RS_NCOL] = { 300, 1, 50, 9000, 4, 0, 1, 0, 0, 0 };
static const unsigned long long R1[RS_NCOL] = { 600, 0, 70, 8000, 2, 0, 0, 0, 0, 0 };

static void test_parse_ignores_other_lines(void)
{
	struct rs_frame f, g;
	char *t2;
	unsigned long long sum[RS_NCOL];
	char *t;

	tap_begin();
	rs_frame_init(&f, 8);
	add((unsigned long long *)R0, R1, sum);
	t = rs_text("randstat 1 tmin_ns 2000000 tmax_ns 6000000 user_hz 100",
		    R0, R1);
	EXPECT(rs_frame_parse(&f, t) == 3);
	EXPECT(f.present[0] && f.present[1] && f.present[2] && !f.present[3]);
	EXPECT(eq(f.v[0], sum) && eq(f.v[1], R0) && eq(f.v[2], R1));
	free(t);
	/* A header of another version, and fields after it: the same. */
	t = rs_text("randstat 2 window_ns 2000000:6000000 cpus 2 user_hz 100 x", R0, R1);
	EXPECT(rs_frame_parse(&f, t) == 3);
	EXPECT(eq(f.v[0], sum) && eq(f.v[1], R0) && eq(f.v[2], R1));
	/*
	 * "cpu9 1 2 3" (three counters) is not a cpu line.  cpu9 is entry
	 * 10, past this 8-entry frame: a frame of 16 has room for it, so
	 * the entry is read inside the frame and could be set.
	 */
	EXPECT(!rs_frame_init(&g, 16));
	EXPECT(rs_frame_parse(&g, t) == 3 && !g.present[10]);
	/* the same text with a whole cpu9 line: entry 10 is set then */
	t2 = malloc(strlen(t) + 32);
	if (t2) {
		sprintf(t2, "%.*scpu9 1 2 3 4 5 6 7 8 9 10\n",
			(int)(strstr(t, "cpu9 1 2 3\n") - t), t);
		EXPECT(rs_frame_parse(&g, t2) == 4 && g.present[10] &&
		       g.v[10][9] == 10);
	}
	free(t2);
	rs_frame_free(&g);
	free(t);
	/* A CPU beyond the frame's size is dropped, not written past it. */
	EXPECT(rs_frame_parse(&f, "cpu20 1 2 3 4 5 6 7 8 9 10\n") == 0);
	rs_frame_free(&f);
	tap_end("rs_frame_parse: only the cpu lines, whatever the header and the lines after them");
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n)
		n = 0;
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void test_first_frame(const char *fixtures)
{
	char path[4096], *st, *copy;
	struct fs f;

	tap_begin();
	snprintf(path, sizeof(path), "%s/vm-normal.stat", fixtures);
	st = slurp(path);
	EXPECT(st != NULL);
	if (st) {
		fs_init(&f);
		copy = strdup(st);
		EXPECT(step(&f, copy, rs_text("randstat 2", R0, R1)) == 3);
		EXPECT(f.out && strcmp(f.out, st) == 0);
		printf("# %s: %zu bytes in, %zu out\n", path, strlen(st), f.len);
		fs_free(&f);
		free(st);
	}
	tap_end("first frame: /proc/stat's own since-boot values, byte for byte (a guest's /proc/stat)");
}

static void test_deltas_and_passthrough(void)
{
	unsigned long long v[RS_NCOL], want[RS_NCOL], d0[RS_NCOL] = { 25, 0, 5, 70, 0, 0, 0, 0, 0, 0 };
	unsigned long long r0b[RS_NCOL], k0b[RS_NCOL], big[RS_NCOL] = { 999, 999, 999, 999, 999, 0, 0, 0, 0, 0 };
	struct fs f;

	tap_begin();
	fs_init(&f);
	step(&f, stat_text(K0, K1, true, TAIL), rs_text("randstat 1", R0, R1));
	/* randstat's cpu0 advances by d0, the kernel's by a lot more. */
	add((unsigned long long *)R0, d0, r0b);
	add((unsigned long long *)K0, big, k0b);
	EXPECT(step(&f, stat_text(k0b, K1, true, "intr 7\nctxt 8\nbtime 9\n"),
		    rs_text("randstat 1", r0b, R1)) == 3);
	add((unsigned long long *)K0, d0, want);
	EXPECT(served(&f, 1, v) && eq(v, want));
	EXPECT(served(&f, 2, v) && eq(v, K1));
	{
		/* The aggregate: the kernel's first cpu line plus d0. */
		unsigned long long agg[RS_NCOL];

		add((unsigned long long *)K0, K1, agg);
		add(agg, d0, want);
		EXPECT(served(&f, 0, v) && eq(v, want));
	}
	/* The other lines are the new /proc/stat's, in place. */
	EXPECT(f.out && strstr(f.out, "\ncpu1 ") &&
	       strstr(f.out, "\nintr 7\nctxt 8\nbtime 9\n") &&
	       !strstr(f.out, "ctxt 98765") && !strstr(f.out, "sampler"));
	EXPECT(f.out && strncmp(f.out, "cpu  ", 5) == 0);
	fs_free(&f);
	tap_end("a frame: randstat's deltas on the first frame's values, other lines the kernel's");
}

static void test_reset(void)
{
	unsigned long long v[RS_NCOL], after[RS_NCOL] = { 3, 0, 1, 40, 0, 0, 0, 0, 0, 0 }, want[RS_NCOL];
	struct fs f;

	tap_begin();
	fs_init(&f);
	step(&f, stat_text(K0, K1, true, TAIL), rs_text("randstat 1", R0, R1));
	/* Reset: every counter restarts from zero; cpu0 has `after` since. */
	step(&f, stat_text(K0, K1, true, TAIL), rs_text("randstat 1", after, after));
	add((unsigned long long *)K0, after, want);
	EXPECT(served(&f, 1, v) && eq(v, want));
	add((unsigned long long *)K1, after, want);
	EXPECT(served(&f, 2, v) && eq(v, want));
	/* Then deltas again, from the counters after the reset. */
	{
		unsigned long long a2[RS_NCOL], w2[RS_NCOL];

		add(after, after, a2);
		step(&f, stat_text(K0, K1, true, TAIL), rs_text("randstat 1", a2, a2));
		add((unsigned long long *)K0, a2, w2);
		EXPECT(served(&f, 1, v) && eq(v, w2));
	}
	fs_free(&f);
	tap_end("reset: served values carry on from the last frame plus the counts since the reset");
}

static void test_missing_and_back(void)
{
	unsigned long long v[RS_NCOL], k0b[RS_NCOL], k0c[RS_NCOL], want[RS_NCOL], r0b[RS_NCOL];
	unsigned long long dk[RS_NCOL] = { 100, 0, 50, 300, 0, 0, 0, 0, 0, 0 };
	unsigned long long dr[RS_NCOL] = { 7, 0, 2, 30, 0, 0, 1, 0, 0, 0 };
	unsigned long long fresh[RS_NCOL] = { 2, 0, 0, 10, 0, 0, 0, 0, 0, 0 };
	struct fs f;

	tap_begin();
	fs_init(&f);
	step(&f, stat_text(K0, K1, true, TAIL), rs_text("randstat 1", R0, R1));
	/* Unloaded: the switch frame serves the last values... */
	add((unsigned long long *)K0, dk, k0b);
	EXPECT(step(&f, stat_text(k0b, K1, true, TAIL), NULL) == 0);
	EXPECT(served(&f, 1, v) && eq(v, K0));
	/* ...then the kernel's deltas. */
	add(k0b, dk, k0c);
	step(&f, stat_text(k0c, K1, true, TAIL), NULL);
	add((unsigned long long *)K0, dk, want);
	EXPECT(served(&f, 1, v) && eq(v, want));
	/* Loaded again (fresh counters): the switch frame, then its deltas. */
	step(&f, stat_text(k0c, K1, true, TAIL), rs_text("randstat 2", fresh, fresh));
	EXPECT(served(&f, 1, v) && eq(v, want));
	add(fresh, dr, r0b);
	step(&f, stat_text(k0c, K1, true, TAIL), rs_text("randstat 2", r0b, fresh));
	add(want, dr, want);
	EXPECT(served(&f, 1, v) && eq(v, want));
	fs_free(&f);
	tap_end("module unloaded and loaded again: the kernel's deltas meanwhile, no jump at either switch");
}

static void test_offline_cpu(void)
{
	unsigned long long v[RS_NCOL], r1b[RS_NCOL], want[RS_NCOL];
	unsigned long long d[RS_NCOL] = { 5, 0, 5, 5, 0, 0, 0, 0, 0, 0 };
	struct fs f;

	tap_begin();
	fs_init(&f);
	step(&f, stat_text(K0, K1, true, TAIL), rs_text("randstat 1", R0, R1));
	/* cpu1 offline: no cpu1 line served, whatever randstat has. */
	step(&f, stat_text(K0, K1, false, TAIL), rs_text("randstat 1", R0, R1));
	EXPECT(!served(&f, 2, v) && served(&f, 1, v));
	EXPECT(f.out && !strstr(f.out, "cpu1"));
	/* Back: deltas from where it was. */
	add((unsigned long long *)R1, d, r1b);
	step(&f, stat_text(K0, K1, true, TAIL), rs_text("randstat 1", R0, r1b));
	add((unsigned long long *)K1, d, want);
	EXPECT(served(&f, 2, v) && eq(v, want));
	fs_free(&f);
	tap_end("a CPU that goes offline: its line left out, its counters carried on when it is back");
}

/* A random walk of frames: resets, unloads, reloads, offline; nothing falls. */
static void test_monotonic_random(void)
{
	unsigned long long k[2][RS_NCOL], r[2][RS_NCOL], last[3][RS_NCOL], v[RS_NCOL];
	unsigned int seed = 12345, i, c, falls = 0, resets = 0, gone = 0, frames = 2000;
	bool loaded = true, on1 = true, had[3] = { false, false, false };
	struct fs f;
	int col;

	tap_begin();
	memset(k, 0, sizeof(k));
	memset(r, 0, sizeof(r));
	fs_init(&f);
	for (i = 0; i < frames; i++) {
		for (c = 0; c < 2; c++)
			for (col = 0; col < RS_NCOL; col++) {
				seed = seed * 1103515245 + 12345;
				k[c][col] += (seed >> 16) % 7;
				r[c][col] += (seed >> 20) % 9;
			}
		seed = seed * 1103515245 + 12345;
		switch ((seed >> 16) % 23) {
		case 0:
			memset(r, 0, sizeof(r));
			resets++;
			break;
		case 1:
			loaded = !loaded;
			if (loaded)
				memset(r, 0, sizeof(r));
			gone += !loaded;
			break;
		case 2:
			on1 = !on1;
			break;
		}
		step(&f, stat_text(k[0], k[1], on1, TAIL),
		     loaded ? rs_text("randstat 1", r[0], r[1]) : NULL);
		for (c = 0; c < 3; c++) {
			if (!served(&f, c, v))
				continue;
			for (col = 0; had[c] && col < RS_NCOL; col++)
				falls += v[col] < last[c][col];
			memcpy(last[c], v, sizeof(v));
			had[c] = true;
		}
	}
	printf("# %u frames, %u resets, %u unloads: %u counters fell\n",
	       frames, resets, gone, falls);
	EXPECT(falls == 0 && resets > 10 && gone > 10);
	fs_free(&f);
	tap_end("random resets, unloads, reloads and hotplug: no served counter ever falls");
}

/*
 * randstat-fs serves a /proc/randstat only of the format version it
 * knows and with every cpu line whole; anything else is refused with the
 * reason (the daemon then serves the kernel's lines and logs it, or does
 * not start).
 */
static void test_check(void)
{
	char hdr[128], why[200], *t;

	tap_begin();
	snprintf(hdr, sizeof(hdr), "randstat %d law exponential floor_ns 50000 user_hz 100",
		 RS_FORMAT_VERSION);
	t = rs_text(hdr, R0, R1);
	/* rs_text's trailing "cpu9 1 2 3" is a damaged cpu line: line 8 */
	EXPECT(rs_randstat_check(t, why, sizeof(why)) == -1);
	EXPECT_HAS(why, "line 8: a damaged cpu line: 'cpu9 1 2 3'");
	*strstr(t, "cpu9 1 2 3\n") = '\0';
	EXPECT(rs_randstat_check(t, why, sizeof(why)) == 0);
	free(t);
	/* another version, as the reader refuses it */
	snprintf(hdr, sizeof(hdr), "randstat %d law exponential", RS_FORMAT_VERSION + 1);
	t = rs_text(hdr, R0, R1);
	EXPECT(rs_randstat_check(t, why, sizeof(why)) == -1);
	snprintf(hdr, sizeof(hdr), "format version %d, this randstat-fs reads %d",
		 RS_FORMAT_VERSION + 1, RS_FORMAT_VERSION);
	EXPECT_HAS(why, hdr);
	free(t);
	/* no header; a cpu1 line cut short in the middle of the file */
	EXPECT(rs_randstat_check("cpu  1 2 3 4 5 6 7 8 9 10\n", why, sizeof(why)) == -1);
	EXPECT_HAS(why, "no 'randstat VERSION' header");
	snprintf(hdr, sizeof(hdr), "randstat %d", RS_FORMAT_VERSION);
	t = rs_text(hdr, R0, R1);
	memcpy(strstr(t, "\ncpu1 ") + 7, "\n", 1);
	*strstr(t, "cpu9 1 2 3\n") = '\0';
	EXPECT(rs_randstat_check(t, why, sizeof(why)) == -1);
	EXPECT_HAS(why, "line 4: a damaged cpu line: 'cpu1 ");
	free(t);
	/* the lines after the cpu lines are not cpu lines */
	snprintf(hdr, sizeof(hdr), "randstat %d\nns cpu0 1\ncpu_hist 1 2\ncost_hist cpu0 1\n",
		 RS_FORMAT_VERSION);
	EXPECT(!rs_randstat_check(hdr, why, sizeof(why)));
	tap_end("randstat-fs refuses another format version and a damaged cpu line, and says why");
}

/* The directory of the programs: this test's, "tests/" -> "fs/". */
static char bindir[4096];

struct run {
	int status;
	char out[4096], err[4096];
};

/* Run bindir/ARGV[0] with ARGV, stdout and stderr captured. */
static void run(struct run *r, const char *const *argv)
{
	char path[4200];
	FILE *out, *err;

	snprintf(path, sizeof(path), "%s/%s", bindir, argv[0]);
	r->status = tap_run(path, argv, -1, NULL, &out, &err);
	tap_slurp(out, r->out, sizeof(r->out));
	tap_slurp(err, r->err, sizeof(r->err));
}

#define RUN(r, ...)	run(r, (const char *const[]){ __VA_ARGS__, NULL })

/*
 * The programs: --version and --help exit 0 (the version is the one this
 * test is built with, -DRS_VERSION), a usage error 1, and a
 * /proc/randstat of another format version or with a damaged cpu line
 * stops randstat-fs before it mounts anything: exit 2, and why.
 */
static void test_programs(const char *fixtures)
{
	char want[128], bad[4200], damaged[] = "/tmp/test_fs.XXXXXX", *t;
	char mnt[] = "/tmp/test_fs_mnt.XXXXXX";
	struct run r;
	FILE *f;
	int fd;

	tap_begin();
	snprintf(want, sizeof(want), "randstat-fs %s\n", RS_VERSION);
	RUN(&r, "randstat-fs", "--version");
	EXPECT(r.status == 0 && !strcmp(r.out, want));
	RUN(&r, "randstat-fs", "-V");
	EXPECT(r.status == 0 && !strcmp(r.out, want));
	snprintf(want, sizeof(want), "randstat-fs-mount %s\n", RS_VERSION);
	RUN(&r, "randstat-fs-mount", "--version");
	EXPECT(r.status == 0 && !strcmp(r.out, want));
	RUN(&r, "randstat-fs", "--help");
	EXPECT(r.status == 0 && strstr(r.out, "usage: randstat-fs"));
	EXPECT_HAS(r.out, "Exit status: 0 unmounted or stopped, 1 usage error");
	RUN(&r, "randstat-fs-mount", "--help");
	EXPECT(r.status == 0 && strstr(r.out, "usage: randstat-fs-mount"));
	RUN(&r, "randstat-fs");			/* no MOUNTPOINT */
	EXPECT(r.status == 1 && strstr(r.err, "usage: randstat-fs"));
	RUN(&r, "randstat-fs-mount", "bogus");
	EXPECT(r.status == 1 && strstr(r.err, "usage: randstat-fs-mount"));

	/*
	 * vm-normal.randstat of the next format version, then with its cpu1
	 * line cut to three counters.  The mount point is an empty directory
	 * of its own, and --stat a file that does not exist: randstat-fs
	 * that did not refuse would stop there, not mount.
	 */
	EXPECT(mkdtemp(mnt) != NULL);
	snprintf(bad, sizeof(bad), "%s/vm-normal.randstat", fixtures);
	t = slurp(bad);
	EXPECT(t && strstr(t, "\ncpu1 ") && !strncmp(t, "randstat ", 9));
	if (!t || !strstr(t, "\ncpu1 ") || strncmp(t, "randstat ", 9)) {
		free(t);
		goto out;
	}
	fd = mkstemp(damaged);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (f) {
		fprintf(f, "randstat %d%s", RS_FORMAT_VERSION + 1,
			t + strcspn(t, " ") + 1 + strcspn(t + strcspn(t, " ") + 1, " \n"));
		fclose(f);
		RUN(&r, "randstat-fs", "--randstat", damaged, "--stat",
		    "/nonexistent/stat", mnt);
		snprintf(want, sizeof(want), "format version %d, this randstat-fs reads %d: not started",
			 RS_FORMAT_VERSION + 1, RS_FORMAT_VERSION);
		EXPECT(r.status == 2);
		EXPECT_HAS(r.err, want);
	}
	f = fd >= 0 ? fopen(damaged, "w") : NULL;
	EXPECT(f != NULL);
	if (f) {
		char *c1 = strstr(t, "\ncpu1 ") + 1, *nl = strchr(c1, '\n');

		fprintf(f, "%.*scpu1 1 2 3%s", (int)(c1 - t), t, nl ? nl : "");
		fclose(f);
		RUN(&r, "randstat-fs", "--randstat", damaged, "--stat",
		    "/nonexistent/stat", mnt);
		EXPECT(r.status == 2);
		EXPECT_HAS(r.err, "line 4: a damaged cpu line: 'cpu1 1 2 3': not started\n");
	}
	if (fd >= 0)
		unlink(damaged);
	free(t);
out:
	rmdir(mnt);
	tap_end("randstat-fs, randstat-fs-mount: --version, --help, usage 1, a bad /proc/randstat refused with 2");
}

/*
 * randstat-fs's options (fuse_opt_parse): one it does not know, on the
 * command line or in -o, is a usage error, 1, said with the usage, and
 * nothing is read or mounted; --stat FILE and --stat=FILE alike.  --stat
 * names a file that does not exist, so that a randstat-fs that took a
 * bad option would stop there (exit 2), never mount.
 */
static void test_fs_options(void)
{
	static const struct {
		const char *args[6];
		const char *msg;
	} bad[] = {
		{ { "--bogus" }, "randstat-fs: unknown option: --bogus\n" },
		{ { "-x" }, "randstat-fs: unknown option: -x\n" },
		{ { "--stat=/nonexistent/stat", "--randstat" }, "missing argument" },
		{ { "-o", "bogus_option" }, "randstat-fs: the FUSE options were refused" },
		{ { "extra" }, "usage: randstat-fs" },
	};
	char mnt[] = "/tmp/test_fs_mnt.XXXXXX";
	const char *argv[12];
	struct run r;
	size_t i, j, n;

	tap_begin();
	EXPECT(mkdtemp(mnt) != NULL);
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		n = 0;
		argv[n++] = "randstat-fs";
		argv[n++] = "--stat";
		argv[n++] = "/nonexistent/stat";
		argv[n++] = mnt;
		for (j = 0; bad[i].args[j]; j++)
			argv[n++] = bad[i].args[j];
		argv[n] = NULL;
		run(&r, argv);
		if (r.status != 1)
			printf("# randstat-fs ... %s: exit %d\n", bad[i].args[0],
			       r.status);
		EXPECT(r.status == 1 && !r.out[0]);
		EXPECT_HAS(r.err, bad[i].msg);
		EXPECT_HAS(r.err, "usage: randstat-fs");
		EXPECT_HASNT(r.err, "/nonexistent/stat: No such file");
	}
	/* the good ones get as far as the file */
	RUN(&r, "randstat-fs", "--stat=/nonexistent/stat", "-d", "-o", "ro",
	    mnt);
	EXPECT(r.status == 2);
	EXPECT_HAS(r.err, "randstat-fs: /nonexistent/stat: No such file or directory\n");
	rmdir(mnt);
	tap_end("randstat-fs: an unknown option, or -o option, is a usage error (1)");
}

int main(int argc, char **argv)
{
	char *slash;

	if (argc != 2) {
		fprintf(stderr, "usage: test_fs FIXTURES\n");
		return 2;
	}
	test_cpu_line();
	test_parse_ignores_other_lines();
	test_first_frame(argv[1]);
	test_deltas_and_passthrough();
	test_reset();
	test_missing_and_back();
	test_offline_cpu();
	test_monotonic_random();
	test_check();
	/* the programs in fs/ beside this test's directory: ./tests/test_fs -> ./fs */
	snprintf(bindir, sizeof(bindir), "%s", argv[0]);
	slash = strrchr(bindir, '/');
	if (slash)
		*slash = '\0';
	else
		strcpy(bindir, ".");
	strncat(bindir, "/../fs", sizeof(bindir) - strlen(bindir) - 1);
	{
		char fs[4200];

		snprintf(fs, sizeof(fs), "%s/randstat-fs", bindir);
		if (access(fs, X_OK))
			tap_skip("randstat-fs, randstat-fs-mount: --version, --help, usage 1, a bad /proc/randstat refused with 2",
				 "randstat-fs not built (no libfuse3-dev)");
		else
			test_programs(argv[1]);
		if (access(fs, X_OK))
			tap_skip("randstat-fs: an unknown option, or -o option, is a usage error (1)",
				 "randstat-fs not built (no libfuse3-dev)");
		else
			test_fs_options();
	}
	return tap_done();
}
