// SPDX-License-Identifier: GPL-2.0
/*
 * randstat-cgroup (randstat cgroup): randstat's samples per cgroup v2,
 * beside cpu.stat.  Loads rscg.bpf.c onto the randstat:sample
 * tracepoint, and every INTERVAL prints each cgroup's %usr, %nice and %sys
 * with 95% intervals (rscgcalc.c) beside cpu.stat's usage_usec, user_usec
 * and system_usec deltas over the same interval, a '*' on a cpu.stat
 * figure outside randstat's interval.  A cgroup's figures include its
 * descendants', as cpu.stat's do.  See randstat-cgroup --help and
 * Documentation/admin-guide.rst, "Containers".
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "rscg.h"
#include "rscg.skel.h"
#include "rsexit.h"
#include "rsparse.h"

#define PROG "randstat cgroup"
#define PROC_RANDSTAT "/proc/randstat_detail"
#define CGROUP2_MAGIC 0x63677270

/*
 * Exit codes (rsexit.h, every randstat tool's); --help and
 * randstat-cgroup.1 list them.
 */
#define EXIT_OK		RS_EXIT_OK
#define EXIT_USAGE	RS_EXIT_USAGE
#define EXIT_INPUT	RS_EXIT_INPUT	/* /proc/randstat_detail, cgroup v2 */
#define EXIT_NOMODULE	RS_EXIT_NOMODULE
#define EXIT_OUTPUT	RS_EXIT_OUTPUT	/* stdout, --prometheus FILE */
#define EXIT_FAIL	RS_EXIT_FAIL	/* not root, BPF, out of memory */

static const char usage_text[] =
"Usage: randstat cgroup [--json] [-d DEPTH] [-f GLOB] [-n N]\n"
"                       [--prometheus FILE] [--max-entries N] [--root DIR]\n"
"                       [INTERVAL [COUNT]]\n"
"randstat's samples per cgroup v2 (its tasks and its descendants'), beside\n"
"cpu.stat's deltas over the same interval (default 1 s, until interrupted).\n"
"  --json          one JSON object per report\n"
"  -d DEPTH        cgroups at most DEPTH below the root (default 3)\n"
"  -f GLOB         only cgroups whose path matches GLOB (fnmatch)\n"
"  -n N            the N busiest cgroups only\n"
"  --prometheus FILE  run on, rewriting FILE (node_exporter textfile\n"
"                  format) after every interval with counters since start;\n"
"                  -d and -n (default 100) bound the series\n"
"  --max-entries N  the BPF map's size, (cgroup, class) pairs (default 16384)\n"
"  --root DIR      where cgroup v2 is mounted (default /sys/fs/cgroup)\n"
"  -h, --help      this help\n"
"  -V, --version   the version\n"
"Needs root, the randstat module, BPF and cgroup v2.\n"
"Exit status: 0 ok, 1 usage error, 2 an input could not be read\n"
"(/proc/randstat_detail, cgroup v2 at --root),\n"
"3 the randstat module is not loaded (or has no randstat:sample tracepoint),\n"
"4 the output could not be written (stdout, --prometheus FILE),\n"
"5 another failure: not root, BPF could not load or attach the program,\n"
"out of memory.\n";

struct opts {
	bool json;
	int depth;
	const char *glob;
	long top;
	const char *prom;
	long max_entries;
	const char *root;
	double interval;
	long long count;
};

static volatile sig_atomic_t stop_sig;

static void on_sig(int s)
{
	stop_sig = s;
}

static void err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs(PROG ": ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* --- reading files ------------------------------------------------------ */

/* The whole of @path into a NUL-terminated malloc'd buffer, or NULL. */
static char *slurp(const char *path, size_t *len)
{
	size_t cap = 8192, n = 0;
	char *b = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (!b || fd < 0) {
		free(b);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	for (;;) {
		if (n + 1 >= cap) {
			char *nb = realloc(b, cap *= 2);

			if (!nb) {
				free(b);
				close(fd);
				return NULL;
			}
			b = nb;
		}
		r = read(fd, b + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (r < 0) {
		free(b);
		return NULL;
	}
	b[n] = 0;
	*len = n;
	return b;
}

/* --- the cgroup tree ---------------------------------------------------- */

struct cg {
	char *path;		/* "/" for the root, else "/a/b" */
	uint64_t id;
	int parent;		/* index, -1 for the root */
	int depth;
	bool has_stat;
	uint64_t usage, user, system;	/* cpu.stat, usec */
};

struct tree {
	size_t n, cap;
	struct cg *v;
	size_t *by_id;		/* indices sorted by id */
};

static uint64_t handle_id(const char *path)
{
	struct {
		struct file_handle fh;
		unsigned char buf[16];
	} h;
	int mnt;
	uint64_t id = 0;

	h.fh.handle_bytes = sizeof(h.buf);
	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mnt, 0) || h.fh.handle_bytes < 8)
		return 0;
	memcpy(&id, h.fh.f_handle, sizeof(id));
	return id;
}

/* Add @rel: its index, -1 out of memory, -2 gone already. */
static int tree_add(struct tree *t, const char *root, const char *rel,
		    int parent, int depth)
{
	char full[4096], statp[4200];
	struct cg *c;
	char *buf;
	size_t len;

	if (snprintf(full, sizeof(full), "%s%s", root, rel) >= (int)sizeof(full))
		return -1;
	if (t->n == t->cap) {
		struct cg *nv = realloc(t->v, (t->cap = t->cap ? 2 * t->cap : 256) * sizeof(*nv));

		if (!nv)
			return -1;
		t->v = nv;
	}
	c = &t->v[t->n];
	memset(c, 0, sizeof(*c));
	c->id = handle_id(full);
	if (!c->id)
		return -2;	/* removed while we walked */
	c->path = strdup(*rel ? rel : "/");
	if (!c->path)
		return -1;
	c->parent = parent;
	c->depth = depth;
	snprintf(statp, sizeof(statp), "%s/cpu.stat", full);
	buf = slurp(statp, &len);
	if (buf && !rscg_parse_cpustat(buf, len, &c->usage, &c->user, &c->system))
		c->has_stat = true;
	free(buf);
	return (int)t->n++;
}

static int tree_walk(struct tree *t, const char *root, const char *rel,
		     int parent, int depth)
{
	char full[4096];
	struct dirent *d;
	DIR *dir;
	int me = tree_add(t, root, rel, parent, depth);

	if (me < 0)
		return me == -1 ? -1 : 0;
	snprintf(full, sizeof(full), "%s%s", root, rel);
	dir = opendir(full);
	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		char sub[4096];

		if (d->d_type != DT_DIR || d->d_name[0] == '.')
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", rel, d->d_name) >= (int)sizeof(sub))
			continue;
		if (tree_walk(t, root, sub, me, depth + 1) < 0) {
			closedir(dir);
			return -1;
		}
	}
	closedir(dir);
	return 0;
}

static const struct tree *cmp_tree;

static int cmp_id(const void *a, const void *b)
{
	uint64_t x = cmp_tree->v[*(const size_t *)a].id;
	uint64_t y = cmp_tree->v[*(const size_t *)b].id;

	return x < y ? -1 : x > y;
}

static int tree_read(struct tree *t, const char *root)
{
	size_t i;

	if (tree_walk(t, root, "", -1, 0))
		return -1;
	t->by_id = malloc((t->n + 1) * sizeof(*t->by_id));
	if (!t->by_id)
		return -1;
	for (i = 0; i < t->n; i++)
		t->by_id[i] = i;
	cmp_tree = t;
	qsort(t->by_id, t->n, sizeof(*t->by_id), cmp_id);
	return 0;
}

static int tree_find(const struct tree *t, uint64_t id)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t m = (lo + hi) / 2;
		uint64_t x = t->v[t->by_id[m]].id;

		if (x == id)
			return (int)t->by_id[m];
		if (x < id)
			lo = m + 1;
		else
			hi = m;
	}
	return -1;
}

static void tree_free(struct tree *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->v[i].path);
	free(t->v);
	free(t->by_id);
	memset(t, 0, sizeof(*t));
}

/* --- the map ---------------------------------------------------------- */

struct ent {
	struct rscg_key key;
	uint64_t *v;		/* per possible CPU */
};

struct snap {
	size_t n;
	struct ent *e;
	uint64_t *vals;
	uint64_t lost[RSCG_NLOST];
	struct rscg_sampler *smp;
	struct tree tree;
	struct timespec when;
};

static int ncpu;

static int cmp_key(const void *a, const void *b)
{
	const struct rscg_key *x = &((const struct ent *)a)->key;
	const struct rscg_key *y = &((const struct ent *)b)->key;

	if (x->cgid != y->cgid)
		return x->cgid < y->cgid ? -1 : 1;
	return x->cls < y->cls ? -1 : x->cls > y->cls;
}

static void snap_free(struct snap *s)
{
	free(s->e);
	free(s->vals);
	free(s->smp);
	tree_free(&s->tree);
	memset(s, 0, sizeof(*s));
}

/* Read the map, the lost counters, /proc/randstat_detail and the tree, in that order. */
static int snap_read(struct snap *s, struct rscg_bpf *skel, const struct opts *o)
{
	int fd = bpf_map__fd(skel->maps.rscg_counts), lfd = bpf_map__fd(skel->maps.rscg_lost);
	size_t cap = 256;
	struct rscg_key k, nk, *prev = NULL;
	uint64_t *lv = calloc((size_t)ncpu, sizeof(*lv));
	char *buf;
	size_t len;
	uint32_t i;
	int c;

	memset(s, 0, sizeof(*s));
	s->e = malloc(cap * sizeof(*s->e));
	s->vals = malloc(cap * (size_t)ncpu * sizeof(*s->vals));
	s->smp = calloc((size_t)ncpu, sizeof(*s->smp));
	if (!s->e || !s->vals || !s->smp || !lv)
		goto nomem;
	while (!bpf_map_get_next_key(fd, prev, &nk)) {
		k = nk;
		prev = &k;
		if (s->n == cap) {
			void *ne = realloc(s->e, 2 * cap * sizeof(*s->e));
			void *nv;

			if (!ne)
				goto nomem;
			s->e = ne;
			nv = realloc(s->vals, 2 * cap * (size_t)ncpu * sizeof(*s->vals));
			if (!nv)
				goto nomem;
			s->vals = nv;
			cap *= 2;
		}
		if (bpf_map_lookup_elem(fd, &k, s->vals + s->n * (size_t)ncpu))
			continue;	/* deleted meanwhile */
		s->e[s->n].key = k;
		s->n++;
	}
	for (i = 0; i < s->n; i++)
		s->e[i].v = s->vals + i * (size_t)ncpu;
	qsort(s->e, s->n, sizeof(*s->e), cmp_key);
	for (i = 0; i < RSCG_NLOST; i++) {
		if (bpf_map_lookup_elem(lfd, &i, lv))
			continue;
		for (c = 0; c < ncpu; c++)
			if (i != RSCG_LOST_ERRNO)
				s->lost[i] += lv[c];
			else if (lv[c])
				s->lost[i] = lv[c];
	}
	free(lv);
	lv = NULL;
	clock_gettime(CLOCK_MONOTONIC, &s->when);
	buf = slurp(PROC_RANDSTAT, &len);
	if (!buf) {
		err("%s: %s", PROC_RANDSTAT, strerror(errno));
		return errno == ENOENT ? -EXIT_NOMODULE : -EXIT_INPUT;
	}
	if (rscg_parse_samplers(buf, len, s->smp, ncpu) <= 0) {
		err("%s: no 'sampler cpuN' lines, or a damaged one", PROC_RANDSTAT);
		free(buf);
		return -EXIT_INPUT;
	}
	free(buf);
	if (tree_read(&s->tree, o->root))
		goto nomem;
	return 0;
nomem:
	free(lv);
	err("out of memory");
	return -EXIT_FAIL;
}

static const struct ent *snap_find(const struct snap *s, const struct rscg_key *k)
{
	struct ent key = { .key = *k };

	return s->n ? bsearch(&key, s->e, s->n, sizeof(*s->e), cmp_key) : NULL;
}

/* --- one interval ------------------------------------------------------- */

/* Cumulative seconds per cgroup id, for --prometheus. */
struct cum {
	uint64_t id;
	double ns[3];		/* user, nice, system */
	bool seen;
};

static struct cum *cums;
static size_t ncums;
static double cum_nobody[RSCG_NCLASSES];
static uint64_t cum_lost[RSCG_NLOST];
static int cmp_busy(const void *a, const void *b)
{
	double x = ((const struct rscg_row *)a)->e[RSCG_G_BUSY].ns;
	double y = ((const struct rscg_row *)b)->e[RSCG_G_BUSY].ns;

	return x < y ? 1 : x > y ? -1 : 0;
}

static const char *attach_kind;
/* This interval's samples: /proc/randstat_detail's, and those the map counted. */
static uint64_t n_randstat, n_counted;
static size_t n_entries;	/* the map's keys after the interval's deletions */

static void print_text(struct rscg_row *rows, size_t nrows, struct rscg_row *sp,
		       double t_s, const uint64_t *dlost)
{
	static bool legend;
	static const char *const sname[] = { "(interrupts)", "(idle)", "(removed)" };
	time_t now = time(NULL);
	struct tm tm;
	size_t i;
	int j;

	if (!legend) {
		printf("randstat cgroup: samples at random times through %s; beside them cpu.stat\n"
		       "(usage exact; its user/system split tick-sampled; '*': outside randstat's 95%% interval)\n",
		       attach_kind);
		legend = true;
	}
	localtime_r(&now, &tm);
	printf("\n%02d:%02d:%02d  interval %.2f s\n", tm.tm_hour, tm.tm_min, tm.tm_sec, t_s);
	printf("%-32s %7s %-17s %6s %7s %-17s %8s %8s %8s\n", "CGROUP", "%usr",
	       "95% interval", "%nice", "%sys", "95% interval", "%usage", "%user",
	       "%system");
	for (i = 0; i < nrows; i++) {
		struct rscg_row *r = &rows[i];

		if (!r->shown)
			continue;
		printf("%-32s %7.2f [%6.2f %6.2f] %6.2f %7.2f [%6.2f %6.2f] ",
		       r->path, r->e[RSCG_G_USR].pct, r->e[RSCG_G_USR].lo,
		       r->e[RSCG_G_USR].hi, r->e[RSCG_G_NICE].pct, r->e[RSCG_G_SYS].pct,
		       r->e[RSCG_G_SYS].lo, r->e[RSCG_G_SYS].hi);
		if (isnan(r->k_usage))
			printf("%8s %8s %8s\n", "-", "-", "-");
		else
			printf("%8.2f %7.2f%c %7.2f%c\n", r->k_usage, r->k_user,
			       r->out_user ? '*' : ' ', r->k_system, r->out_system ? '*' : ' ');
	}
	for (j = 0; j < 3; j++) {
		enum rscg_group g = j == 1 ? RSCG_G_IDLE : j == 0 ? RSCG_G_INTR : RSCG_G_BUSY;

		printf("%-32s %7.2f [%6.2f %6.2f]\n", sname[j], sp[j].e[g].pct,
		       sp[j].e[g].lo, sp[j].e[g].hi);
	}
	if (dlost[RSCG_LOST_FULL] || dlost[RSCG_LOST_OTHER] || dlost[RSCG_LOST_CLASS])
		printf("lost samples: map full %llu (--max-entries), other %llu (errno %llu), unknown class %llu\n",
		       (unsigned long long)dlost[RSCG_LOST_FULL],
		       (unsigned long long)dlost[RSCG_LOST_OTHER],
		       (unsigned long long)dlost[RSCG_LOST_ERRNO],
		       (unsigned long long)dlost[RSCG_LOST_CLASS]);
	fflush(stdout);
}

static int print_json(struct rscg_row *rows, size_t nrows, struct rscg_row *sp,
		      double t_s, const uint64_t *dlost)
{
	struct rscg_report r = {
		.time = (long long)time(NULL),
		.interval_s = t_s,
		.attach = attach_kind,
		.map_entries = n_entries,
		.samples_randstat = n_randstat,
		.samples_counted = n_counted,
		.lost = dlost,
		.buckets = sp,
		.rows = rows,
		.nrows = nrows,
	};

	return rscg_json_print(stdout, &r);
}

static int cmp_cum(const void *a, const void *b)
{
	uint64_t x = ((const struct cum *)a)->id, y = ((const struct cum *)b)->id;

	return x < y ? -1 : x > y;
}

static struct cum *cum_get(uint64_t id)
{
	struct cum key = { .id = id }, *c, *n;

	c = ncums ? bsearch(&key, cums, ncums, sizeof(*cums), cmp_cum) : NULL;
	if (c)
		return c;
	n = realloc(cums, (ncums + 1) * sizeof(*cums));
	if (!n)
		return NULL;
	cums = n;
	cums[ncums++] = key;
	qsort(cums, ncums, sizeof(*cums), cmp_cum);
	return bsearch(&key, cums, ncums, sizeof(*cums), cmp_cum);
}

/*
 * Add this interval's estimates to the counters and rewrite @path (a
 * temporary file renamed over it, as node_exporter's textfile collector
 * wants).  Counters of cgroups that went away are dropped.
 *
 * Return: 0, EXIT_OUTPUT if @path could not be written, EXIT_FAIL out of
 * memory (said on stderr).
 */
static int prom_write(const char *path, struct rscg_row *rows, size_t nrows,
		      const struct rscg_row *nobody, const uint64_t *dlost, long top, int depth)
{
	static const enum rscg_group grp[] = { RSCG_G_USR, RSCG_G_NICE, RSCG_G_SYS };
	struct rscg_prom_series *ser;
	char tmp[4200];
	size_t i, shown = 0;
	int m, c, ret;
	FILE *f;

	for (i = 0; i < ncums; i++)
		cums[i].seen = false;
	for (i = 0; i < nrows; i++) {
		struct cum *cu = cum_get(rows[i].id);

		if (!cu) {
			err("out of memory");
			return EXIT_FAIL;
		}
		for (m = 0; m < 3; m++)
			cu->ns[m] += rows[i].e[grp[m]].ns;
		cu->seen = true;
	}
	for (i = 0; i < ncums;)	/* the gone */
		if (!cums[i].seen)
			memmove(&cums[i], &cums[i + 1], (--ncums - i) * sizeof(*cums));
		else
			i++;
	for (c = 0; c < RSCG_NCLASSES; c++)
		cum_nobody[c] += nobody->acc.ns[c];
	for (c = 0; c < RSCG_NLOST; c++)
		cum_lost[c] += c == RSCG_LOST_ERRNO ? 0 : dlost[c];

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		err("%s: %s", tmp, strerror(errno));
		return EXIT_OUTPUT;
	}
	ser = calloc(nrows + 1, sizeof(*ser));
	if (!ser) {
		fclose(f);
		unlink(tmp);
		err("out of memory");
		return EXIT_FAIL;
	}
	/* rows are sorted by this interval's busy time: take the depth, then top */
	for (i = 0; i < nrows && (top <= 0 || (long)shown < top); i++) {
		struct cum *cu;

		if (rows[i].depth > depth)
			continue;
		cu = cum_get(rows[i].id);
		ser[shown].path = rows[i].path;
		for (m = 0; m < 3; m++)
			ser[shown].ns[m] = cu ? cu->ns[m] : 0;
		shown++;
	}
	rscg_prom_format(f, ser, shown, cum_nobody, cum_lost);
	free(ser);
	errno = 0;
	ret = fflush(f) || ferror(f);
	if (fclose(f) || ret) {
		err("%s: %s", tmp, errno ? strerror(errno) : "write error");
		unlink(tmp);
		return EXIT_OUTPUT;
	}
	if (rename(tmp, path)) {
		err("%s: %s", path, strerror(errno));
		unlink(tmp);
		return EXIT_OUTPUT;
	}
	return 0;
}

/*
 * The interval from @a to @b: each key's per-CPU deltas, weighted by its
 * CPU's time per sample, added to its cgroup and every ancestor; keys of
 * cgroups gone by @b into the "removed" row and deleted from the map.
 */
static int interval(const struct opts *o, struct snap *a, struct snap *b,
		    struct rscg_bpf *skel)
{
	const struct tree *t = &b->tree;
	double t_ns = (double)(b->when.tv_sec - a->when.tv_sec) * 1e9 +
		      (double)(b->when.tv_nsec - a->when.tv_nsec);
	double *w = calloc((size_t)ncpu, sizeof(*w)), fb;
	struct rscg_row *rows = calloc(t->n + 1, sizeof(*rows)), sp[3];
	uint64_t dlost[RSCG_NLOST];
	size_t i, shown = 0;
	int c, g, j, ret = 0;

	if (!w || !rows) {
		free(w);
		free(rows);
		err("out of memory");
		return -EXIT_FAIL;
	}
	memset(sp, 0, sizeof(sp));
	n_randstat = n_counted = 0;
	n_entries = b->n;
	for (c = 0; c < ncpu; c++) {
		w[c] = rscg_ns_per_sample(&a->smp[c], &b->smp[c]);
		if (w[c])
			n_randstat += b->smp[c].samples - a->smp[c].samples;
	}
	fb = rscg_mean_ns_per_sample(a->smp, b->smp, ncpu);
	for (i = 0; i < RSCG_NLOST; i++)
		dlost[i] = i == RSCG_LOST_ERRNO ? b->lost[i] : b->lost[i] - a->lost[i];
	for (i = 0; i < t->n; i++) {
		rows[i].cg = (int)i;
		rows[i].path = t->v[i].path;
		rows[i].id = t->v[i].id;
		rows[i].depth = t->v[i].depth;
	}
	for (i = 0; i < b->n; i++) {
		const struct ent *e = &b->e[i], *pe = snap_find(a, &e->key);
		struct rscg_acc acc;
		int cg;

		memset(&acc, 0, sizeof(acc));
		for (c = 0; c < ncpu; c++) {
			uint64_t d = e->v[c] - (pe && pe->v[c] <= e->v[c] ? pe->v[c] : 0);

			n_counted += d;
			if (d)
				rscg_acc_add(&acc, (int)e->key.cls, d, w[c] ? w[c] : fb);
		}
		if (e->key.cgid == RSCG_NOBODY) {
			rscg_acc_merge(&sp[0].acc, &acc);
			continue;
		}
		cg = tree_find(t, e->key.cgid);
		if (cg < 0) {
			rscg_acc_merge(&sp[2].acc, &acc);
			/* gone: its tasks are too; no sample can come now */
			if (!bpf_map_delete_elem(bpf_map__fd(skel->maps.rscg_counts), &e->key))
				n_entries--;
			continue;
		}
		for (; cg >= 0; cg = t->v[cg].parent)
			rscg_acc_merge(&rows[cg].acc, &acc);
	}
	/* idle and iowait are in sp[0] too: split them off for the view */
	sp[1].acc = sp[0].acc;
	for (g = 0; g < RSCG_NGROUPS; g++)
		for (j = 0; j < 3; j++)
			rscg_estimate(&sp[j].acc, (enum rscg_group)g, t_ns, fb, &sp[j].e[g]);
	for (i = 0; i < t->n; i++) {
		struct rscg_row *r = &rows[i];
		const struct cg *cb = &t->v[i];
		int ia = tree_find(&a->tree, cb->id);
		const struct cg *ca = ia >= 0 ? &a->tree.v[ia] : NULL;

		for (g = 0; g < RSCG_NGROUPS; g++)
			rscg_estimate(&r->acc, (enum rscg_group)g, t_ns, fb, &r->e[g]);
		r->k_usage = r->k_user = r->k_system = NAN;
		if (cb->has_stat && (!ca || ca->has_stat)) {
			/* a cgroup made during the interval started at 0 */
			r->k_usage = 100 * 1e3 * (double)(cb->usage - (ca ? ca->usage : 0)) / t_ns;
			r->k_user = 100 * 1e3 * (double)(cb->user - (ca ? ca->user : 0)) / t_ns;
			r->k_system = 100 * 1e3 * (double)(cb->system - (ca ? ca->system : 0)) / t_ns;
			r->out_user = rscg_outside(r->k_user, &r->e[RSCG_G_USER_ALL], t_ns);
			r->out_system = rscg_outside(r->k_system, &r->e[RSCG_G_SYS], t_ns);
		}
	}
	qsort(rows, t->n, sizeof(*rows), cmp_busy);
	for (i = 0; i < t->n; i++) {
		struct rscg_row *r = &rows[i];

		r->shown = r->depth <= o->depth &&
			   (!o->glob || !fnmatch(o->glob, r->path, 0)) &&
			   (r->e[RSCG_G_BUSY].k || (!isnan(r->k_usage) && r->k_usage > 0.005)) &&
			   (o->top <= 0 || (long)shown < o->top);
		shown += r->shown;
	}
	if (o->prom) {
		ret = -prom_write(o->prom, rows, t->n, &sp[0], dlost, o->top, o->depth);
	} else {
		bool unmade = false;

		if (o->json)
			unmade = print_json(rows, t->n, sp, t_ns / 1e9, dlost) &&
				 !ferror(stdout);
		else
			print_text(rows, t->n, sp, t_ns / 1e9, dlost);
		ret = -rs_output_error(PROG);
		if (!ret && unmade) {
			err("out of memory");
			ret = -EXIT_FAIL;
		}
	}
	free(w);
	free(rows);
	return ret;
}

/* --- arguments, checks, the loop ----------------------------------------- */

static int usage_err(const char *fmt, const char *arg)
{
	fputs(PROG ": ", stderr);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'randstat cgroup --help'.\n");
	return EXIT_USAGE;
}

static bool parse_long(const char *s, long min, long *v)
{
	char *e;
	long x;

	errno = 0;
	x = strtol(s, &e, 10);
	if (errno || e == s || *e || x < min)
		return false;
	*v = x;
	return true;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "prometheus", required_argument, NULL, 'p' },
		{ "max-entries", required_argument, NULL, 'm' },
		{ "root", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	bool top_given = false;
	long v;
	int ch;

	o->depth = 3;
	o->max_entries = RSCG_MAX_ENTRIES_DEFAULT;
	o->root = "/sys/fs/cgroup";
	o->interval = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+d:f:n:hV", lo, NULL)) != -1) {
		switch (ch) {
		case 'j': o->json = true; break;
		case 'p': o->prom = optarg; break;
		case 'r': o->root = optarg; break;
		case 'f': o->glob = optarg; break;
		case 'h':
			fputs(usage_text, stdout);
			return rs_output_error(PROG);
		case 'V':
			return rs_print_version(PROG);
		case 'd':
			if (!parse_long(optarg, 0, &v) || v > 1000)
				return usage_err("-d takes a whole number from 0 to 1000: '%s'", optarg);
			o->depth = (int)v;
			break;
		case 'n':
			if (!parse_long(optarg, 1, &v))
				return usage_err("-n takes a whole number above 0: '%s'", optarg);
			o->top = v;
			top_given = true;
			break;
		case 'm':
			if (!parse_long(optarg, 1, &v) || v > 1L << 24)
				return usage_err("--max-entries takes a whole number from 1 to 16777216: '%s'", optarg);
			o->max_entries = v;
			break;
		default:
			return usage_err("unknown option or missing argument: %s", argv[optind - 1]);
		}
	}
	if (o->prom && o->json)
		return usage_err("%s", "--json and --prometheus exclude each other");
	if (o->prom && !top_given)
		o->top = 100;
	if (optind < argc) {
		/* the reader's rule (lib/rsparse.c), not a looser one of its own */
		if (!rs_parse_interval(argv[optind], &o->interval))
			return usage_err("INTERVAL must be " RS_INTERVAL_RULE ": '%s'", argv[optind]);
		optind++;
	}
	if (optind < argc) {
		if (!parse_long(argv[optind], 1, &v))
			return usage_err("COUNT must be a whole number above 0: '%s'", argv[optind]);
		o->count = v;
		optind++;
	}
	if (optind < argc)
		return usage_err("too many arguments: %s", argv[optind]);
	return -1;
}

static int libbpf_quiet(enum libbpf_print_level l, const char *fmt, va_list ap)
{
	if (l == LIBBPF_WARN && getenv("RANDSTAT_BPF_DEBUG"))
		return vfprintf(stderr, fmt, ap);
	return 0;
}

static int run(const struct opts *o)
{
	struct rscg_bpf *skel;
	struct bpf_link *link;
	struct statfs sf;
	struct snap a, b;
	struct timespec ts;
	long long n = 0;
	int ret;

	bool nomodule = access(PROC_RANDSTAT, F_OK) != 0;

	/* both said, whichever else is missing; the module's code first */
	if (nomodule)
		err("the randstat module is not loaded (%s missing): sudo modprobe randstat",
		    PROC_RANDSTAT);
	if (geteuid())
		err("needs root to load its BPF program: run it as root (sudo randstat cgroup)");
	if (nomodule)
		return EXIT_NOMODULE;
	if (geteuid())
		return EXIT_FAIL;
	if (statfs(o->root, &sf) || sf.f_type != CGROUP2_MAGIC) {
		err("%s is not cgroup v2 (mount -t cgroup2 none %s, or --root DIR)",
		    o->root, o->root);
		return EXIT_INPUT;
	}
	libbpf_set_print(libbpf_quiet);
	ncpu = libbpf_num_possible_cpus();
	if (ncpu <= 0) {
		err("cannot count the possible CPUs: %s", strerror(-ncpu));
		return EXIT_FAIL;
	}
	skel = rscg_bpf__open();
	if (!skel) {
		err("cannot open the BPF program: %s", strerror(errno));
		return EXIT_FAIL;
	}
	bpf_map__set_max_entries(skel->maps.rscg_counts, (__u32)o->max_entries);
	ret = rscg_bpf__load(skel);
	if (ret) {
		err("cannot load the BPF program: %s (a kernel with CONFIG_BPF_SYSCALL "
		    "and CONFIG_BPF_EVENTS, run as root; RANDSTAT_BPF_DEBUG=1 says more)",
		    strerror(-ret));
		rscg_bpf__destroy(skel);
		return EXIT_FAIL;
	}
	attach_kind = "raw_tp";
	link = bpf_program__attach_raw_tracepoint(skel->progs.rscg_raw, "sample");
	if (!link) {
		attach_kind = "tracepoint";
		link = bpf_program__attach_tracepoint(skel->progs.rscg_tp, "randstat", "sample");
	}
	if (!link) {
		int e = errno;

		/* no such tracepoint: the module is not (really) loaded */
		if (e == ENOENT)
			err("no randstat:sample tracepoint: the randstat module is not loaded, "
			    "or is older than this program: sudo modprobe randstat");
		else
			err("cannot attach to the randstat:sample tracepoint: %s", strerror(e));
		rscg_bpf__destroy(skel);
		return e == ENOENT ? EXIT_NOMODULE : EXIT_FAIL;
	}
	signal(SIGINT, on_sig);
	signal(SIGTERM, on_sig);
	signal(SIGHUP, on_sig);
	ret = snap_read(&a, skel, o);
	while (!ret && !stop_sig) {
		double left = o->interval;

		while (left > 0 && !stop_sig) {
			double d = left > 0.2 ? 0.2 : left;

			ts.tv_sec = (time_t)d;
			ts.tv_nsec = (long)((d - (double)ts.tv_sec) * 1e9);
			nanosleep(&ts, NULL);
			left -= d;
		}
		if (stop_sig)
			break;
		ret = snap_read(&b, skel, o);
		if (ret)
			break;
		ret = interval(o, &a, &b, skel);
		snap_free(&a);
		a = b;
		if (o->count && ++n >= o->count)
			break;
	}
	snap_free(&a);
	bpf_link__destroy(link);
	rscg_bpf__destroy(skel);
	free(cums);
	if (stop_sig) {
		signal(stop_sig, SIG_DFL);
		raise(stop_sig);
	}
	return ret < 0 ? -ret : ret;
}

int main(int argc, char **argv)
{
	struct opts o;
	int ret;

	memset(&o, 0, sizeof(o));
	if (argc > 1 && !strcmp(argv[1], "cgroup")) {
		argc--;
		argv++;
	}
	ret = parse_args(argc, argv, &o);
	if (ret >= 0)
		return ret;
	return run(&o);
}
