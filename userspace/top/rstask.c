// SPDX-License-Identifier: GPL-2.0
/*
 * randstat top: the arithmetic of the per-task view.
 *
 * The estimate.  On a sampled CPU, randstat's sample times are a renewal
 * process of mean interval mu (the exponential law: a floor delta plus an
 * exponential draw of mean mu - delta; the uniform law: mu = (tmin_ns +
 * tmax_ns) / 2).  Its sampler stops only on an idle CPU (dormancy: no
 * task runs there then) and resumes with the law's own continuation from
 * the last sample, so on the time a CPU is not dormant the sample times
 * are the same renewal process as if it had never stopped
 * (Documentation/design.rst, "Why it stays unbiased").  A task that
 * spends time A in a class during the interval, however that time is cut
 * up, is therefore sampled in that class k times with E[k] = A / mu, and
 *
 *	A^ = k * mu
 *
 * is unbiased.  With no floor (delta = 0) the process is Poisson, and k
 * is exactly Poisson with mean lambda = A / mu, whatever the shape of
 * the task's time.  The exact (Garwood) 95% interval of a Poisson mean
 * given k is
 *
 *	[ G(0.025; k), G(0.975; k + 1) ]
 *
 * G(p; a) being the p-quantile of the Gamma(a, 1) law (chi-square with 2a
 * degrees of freedom, halved; G(0.025; 0) = 0): the lambdas for which k
 * or more, or k or fewer, samples have a chance of at least 2.5%.  Times
 * mu it is the interval of A; over the interval's length T, of the share.
 * The floor and the uniform law make the counts more regular than
 * Poisson's (a renewal count over a long span has variance (A / mu)
 * sigma^2 / mu^2, sigma the interval's standard deviation: (1 - delta /
 * mu)^2 = 0.975 of Poisson's for the default exponential law, 1/12 for the
 * uniform law on [2, 6] ms), so the Poisson interval is, if anything,
 * conservative.
 *
 * What no sample can see is not in the estimate: the time of CPUs served
 * from the kernel's exact accounting (nohz_full, parameter exact_cpus),
 * and events the trace buffer lost.  rstop.c says when either happened.
 *
 * The kernel's utime and stime come in clock ticks (USER_HZ), each read
 * truncated, so a delta is within one tick of the true one; a kernel
 * figure is marked '*' only if it lies outside randstat's interval by
 * more than that tick (and than the 0.005 that two decimals show).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rstask.h"

#define P_LO		0.025	/* the two tails of a 95% interval */
#define P_HI		0.975
#define Z_HI		1.959963984540054	/* the normal 97.5% quantile */
#define EXACT_MAX	20000	/* Wilson-Hilferty beyond: error < 1e-6 */
#define PRINT_RES	0.005	/* a difference smaller does not show */

/* /proc/stat's class names, as the tracepoint writes them. */
static const char *const class_name[RS_NCOLS] = {
	"user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal",
	"guest", "guest_nice",
};

/**
 * rs_class_index() - a class named by the tracepoint
 * @s: its class field (NUL-padded, maybe not NUL-terminated)
 * @len: the field's size
 *
 * Return: the class (enum rs_col), or -1 if the name is not one of ten.
 */
int rs_class_index(const char *s, size_t len)
{
	size_t n = strnlen(s, len);
	int i;

	for (i = 0; i < RS_NCOLS; i++)
		if (strlen(class_name[i]) == n && !memcmp(class_name[i], s, n))
			return i;
	return -1;
}

/*
 * The regularized lower incomplete gamma function P(a, x), a > 0, x >= 0:
 * the series below a + 1, the continued fraction (modified Lentz) above,
 * as in Numerical Recipes' gammp().
 */
static double gamma_p(double a, double x)
{
	double lead, sum, term, b, c, d, h, an;
	int n;

	if (x <= 0)
		return 0;
	lead = exp(a * log(x) - x - lgamma(a));
	if (x < a + 1) {
		term = sum = 1 / a;
		for (n = 1; n < 1000000; n++) {
			term *= x / (a + n);
			sum += term;
			if (term < sum * 1e-15)
				break;
		}
		return fmin(1, sum * lead);
	}
	b = x + 1 - a;
	c = 1 / 1e-300;
	d = 1 / b;
	h = d;
	for (n = 1; n < 1000000; n++) {
		an = -n * (n - a);
		b += 2;
		d = an * d + b;
		if (fabs(d) < 1e-300)
			d = 1e-300;
		c = b + an / c;
		if (fabs(c) < 1e-300)
			c = 1e-300;
		d = 1 / d;
		h *= d * c;
		if (fabs(d * c - 1) < 1e-15)
			break;
	}
	return fmax(0, 1 - lead * h);
}

/* The p-quantile of Gamma(a, 1), by bisection of P(a, x) = p. */
static double gamma_quantile(double p, double a)
{
	double lo = 0, hi = a + 20 * sqrt(a) + 40, mid;
	int i;

	for (i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		mid = (lo + hi) / 2;
		if (gamma_p(a, mid) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* Wilson and Hilferty's: the cube root of a gamma variable is ~normal. */
static double gamma_quantile_wh(double z, double a)
{
	double c = 1 - 1 / (9 * a) + z / (3 * sqrt(a));

	return a * c * c * c;
}

/**
 * rs_poisson_ci95() - the exact 95% interval of a Poisson mean
 * @k: the count seen
 * @lo: out: the lower end (0 for k = 0)
 * @hi: out: the upper end
 *
 * Garwood's interval, [G(0.025; k), G(0.975; k + 1)] (see the top of this
 * file); beyond EXACT_MAX counts Wilson and Hilferty's approximation of
 * the same quantiles, whose relative error there is below 1e-6.
 */
void rs_poisson_ci95(uint64_t k, double *lo, double *hi)
{
	double a = (double)k;

	if (k > EXACT_MAX) {
		*lo = gamma_quantile_wh(-Z_HI, a);
		*hi = gamma_quantile_wh(Z_HI, a + 1);
		return;
	}
	*lo = k ? gamma_quantile(P_LO, a) : 0;
	*hi = gamma_quantile(P_HI, a + 1);
}

/**
 * rs_kernel_outside() - is the kernel's figure outside randstat's interval?
 * @kernel: the kernel's share, % (NAN: unknown, never outside)
 * @lo: randstat's 95% interval, %
 * @hi: its upper end
 * @res: the kernel figure's resolution, % (one clock tick over the interval)
 *
 * Return: true if @kernel is below @lo or above @hi by more than @res
 * and than what two decimals show.
 */
bool rs_kernel_outside(double kernel, double lo, double hi, double res)
{
	double tol = (isnan(res) ? 0 : res) + PRINT_RES;

	if (isnan(kernel) || isnan(lo) || isnan(hi))
		return false;
	return kernel < lo - tol || kernel > hi + tol;
}

/* The next blank-separated number at *p: 0, or -1 if none. */
static int next_u64(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	while (s < end && *s == ' ')
		s++;
	if (s == end || *s < '0' || *s > '9')
		return -1;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (x > (UINT64_MAX - 9) / 10)
			return -1;
		x = x * 10 + (*s - '0');
	}
	if (s < end && *s != ' ' && *s != '\n')
		return -1;
	*p = s;
	*v = x;
	return 0;
}

/* Skip one blank-separated field (the state letter, or a signed number). */
static int skip_field(const char **p, const char *end)
{
	const char *s = *p;

	while (s < end && *s == ' ')
		s++;
	if (s == end || *s == '\n')
		return -1;
	while (s < end && *s != ' ' && *s != '\n')
		s++;
	*p = s;
	return 0;
}

/**
 * rs_parse_pid_stat() - the figures randstat top needs from a stat file
 * @buf: the text of /proc/PID/stat or /proc/PID/task/TID/stat
 * @len: its length
 * @p: out: id (field 1), comm (2), utime (14), stime (15) and start (22);
 *     tgid is left alone (the file does not have it)
 *
 * The comm is between the first '(' and the last ')': it may hold
 * blanks and parentheses itself.
 *
 * Return: 0, or -1 if the text is not such a line.
 */
int rs_parse_pid_stat(const char *buf, size_t len, struct rs_pstat *p)
{
	const char *end = buf + len, *open, *close = NULL, *s;
	uint64_t id, v;
	size_t n;
	int field;

	s = buf;
	if (next_u64(&s, end, &id) || id > INT32_MAX)
		return -1;
	open = memchr(s, '(', end - s);
	if (!open || open != s + 1 || s[0] != ' ')
		return -1;
	for (s = open + 1; s < end; s++)
		if (*s == ')')
			close = s;
	if (!close)
		return -1;
	n = close - open - 1;
	if (n >= RS_COMM_LEN)
		n = RS_COMM_LEN - 1;
	p->id = (int)id;
	memcpy(p->comm, open + 1, n);
	p->comm[n] = '\0';
	s = close + 1;
	/* fields 3 (state) to 22 (starttime) */
	for (field = 3; field <= 22; field++) {
		switch (field) {
		case 14:
		case 15:
		case 22:
			if (next_u64(&s, end, &v))
				return -1;
			if (field == 14)
				p->utime = v;
			else if (field == 15)
				p->stime = v;
			else
				p->start = v;
			break;
		default:
			if (skip_field(&s, end))
				return -1;
		}
	}
	return 0;
}

/* --- tables found by id ---------------------------------------------- */

/* Both tables find their entries by an int id, their first member. */
_Static_assert(offsetof(struct rs_pstat, id) == 0, "id first");
_Static_assert(offsetof(struct rs_task, id) == 0, "id first");

static size_t hash_id(int id, size_t hcap)
{
	return ((uint32_t)id * 2654435761u) & (hcap - 1);
}

/* The slot of @id in @h, the one it would take if absent. */
static size_t *slot(size_t *h, size_t hcap, int id, const void *base,
		    size_t stride)
{
	size_t i = hash_id(id, hcap);

	while (h[i] && *(const int *)((const char *)base +
				      (h[i] - 1) * stride) != id)
		i = (i + 1) & (hcap - 1);
	return &h[i];
}

/* Room for one more entry in a table of @stride-sized ones, indexed. */
static int grow(void **v, size_t n, size_t *cap, size_t **h, size_t *hcap,
		size_t stride)
{
	size_t ncap, nhcap, i;
	size_t *nh;
	void *nv;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 64;
	nv = realloc(*v, ncap * stride);
	if (!nv)
		return -1;
	*v = nv;
	*cap = ncap;
	nhcap = ncap * 2;
	nh = calloc(nhcap, sizeof(*nh));
	if (!nh)
		return -1;
	for (i = 0; i < n; i++)
		*slot(nh, nhcap, *(int *)((char *)nv + i * stride), nv,
		      stride) = i + 1;
	free(*h);
	*h = nh;
	*hcap = nhcap;
	return 0;
}

/**
 * rs_pscan_add() - remember one task's figures
 * @s: the scan
 * @p: the figures; a second entry of the same id replaces the first
 *
 * Return: 0, or -1 (errno ENOMEM).
 */
int rs_pscan_add(struct rs_pscan *s, const struct rs_pstat *p)
{
	size_t *at;

	if (grow((void **)&s->v, s->n, &s->cap, &s->h, &s->hcap,
		 sizeof(*s->v))) {
		errno = ENOMEM;
		return -1;
	}
	at = slot(s->h, s->hcap, p->id, s->v, sizeof(*s->v));
	if (!*at)
		*at = ++s->n;
	s->v[*at - 1] = *p;
	return 0;
}

const struct rs_pstat *rs_pscan_find(const struct rs_pscan *s, int id)
{
	size_t *at;

	if (!s->hcap)
		return NULL;
	at = slot(s->h, s->hcap, id, s->v, sizeof(*s->v));
	return *at ? &s->v[*at - 1] : NULL;
}

void rs_pscan_clear(struct rs_pscan *s)
{
	s->n = 0;
	if (s->h)
		memset(s->h, 0, s->hcap * sizeof(*s->h));
}

void rs_pscan_free(struct rs_pscan *s)
{
	free(s->v);
	free(s->h);
	memset(s, 0, sizeof(*s));
}

/* --- the tasks of an interval ----------------------------------------- */

void rs_tasks_init(struct rs_tasks *t, bool threads)
{
	memset(t, 0, sizeof(*t));
	t->threads = threads;
}

/* The row of @id, created (with no samples) if it is not there. */
static struct rs_task *task_get(struct rs_tasks *t, int id, int tgid)
{
	struct rs_task *r;
	size_t *at;

	if (grow((void **)&t->v, t->n, &t->cap, &t->h, &t->hcap,
		 sizeof(*t->v)))
		return NULL;
	at = slot(t->h, t->hcap, id, t->v, sizeof(*t->v));
	if (*at)
		return &t->v[*at - 1];
	r = &t->v[t->n];
	memset(r, 0, sizeof(*r));
	r->id = id;
	r->tgid = tgid;
	r->usr.kernel = r->sys.kernel = NAN;
	*at = ++t->n;
	return r;
}

static struct rs_task *task_find(const struct rs_tasks *t, int id)
{
	size_t *at;

	if (!t->hcap)
		return NULL;
	at = slot(t->h, t->hcap, id, t->v, sizeof(*t->v));
	return *at ? &t->v[*at - 1] : NULL;
}

/* Where a task's name comes from, the better last. */
enum {
	COMM_NONE,
	COMM_THREAD,	/* an event of one of its threads: the first one's */
	COMM_LEADER,	/* an event of the task itself (its leader) */
	COMM_PROC,	/* /proc at the end of the interval */
};

static void set_comm(struct rs_task *r, const char *comm, int rank)
{
	if (rank <= r->comm_rank)
		return;
	snprintf(r->comm, sizeof(r->comm), "%.*s", RS_COMM_LEN - 1, comm);
	r->comm_rank = rank;
}

/**
 * rs_tasks_add_sample() - count one randstat:sample event
 * @t: the interval's tasks
 * @pid: the interrupted task's TID (the event's pid)
 * @tgid: its process
 * @comm: its comm (the thread's)
 * @cls: its class (enum rs_col), or -1 if unknown
 * @n: the samples the event counts
 *
 * Per process, the row is the tgid's, named after the leader's comm when
 * an event of the leader comes (else the first thread's).
 *
 * Return: 0, or -1 out of memory.
 */
int rs_tasks_add_sample(struct rs_tasks *t, int pid, int tgid,
			const char *comm, int cls, uint64_t n)
{
	int id = t->threads ? pid : tgid;
	struct rs_task *r;

	if (cls < 0 || cls >= RS_NCOLS) {
		t->unknown += n;
		return 0;
	}
	t->samples[cls] += n;
	r = task_get(t, id, tgid);
	if (!r)
		return -1;
	r->samples[cls] += n;
	set_comm(r, comm, r->id == pid ? COMM_LEADER : COMM_THREAD);
	return 0;
}

static uint64_t sat_sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/**
 * rs_tasks_add_kernel() - the kernel's utime and stime over the interval
 * @t: the interval's tasks
 * @before: /proc read at the start of the interval
 * @after: /proc read at its end
 *
 * Each task of @after gets its deltas: from its figures in @before if it
 * was there (the same id started at the same time), else from 0 (it
 * began within the interval).  A task not yet in @t gets a row if the
 * kernel charged it anything.  Its comm is /proc's (for a process, the
 * leader's).  A task gone by the end has no kernel figures (has_kernel
 * stays false).
 *
 * Return: 0, or -1 out of memory.
 */
int rs_tasks_add_kernel(struct rs_tasks *t, const struct rs_pscan *before,
			const struct rs_pscan *after)
{
	size_t i;

	for (i = 0; i < after->n; i++) {
		const struct rs_pstat *b = &after->v[i];
		const struct rs_pstat *a = rs_pscan_find(before, b->id);
		uint64_t du = b->utime, ds = b->stime;
		struct rs_task *r;

		if (a && a->start == b->start) {
			du = sat_sub(b->utime, a->utime);
			ds = sat_sub(b->stime, a->stime);
		}
		r = task_find(t, b->id);
		if (!r && !du && !ds)
			continue;
		if (!r)
			r = task_get(t, b->id, b->tgid);
		if (!r)
			return -1;
		r->has_kernel = true;
		r->dutime = du;
		r->dstime = ds;
		set_comm(r, b->comm, COMM_PROC);
	}
	return 0;
}

/**
 * rs_tasks_want() - rows for some processes, whatever they did
 * @t: the interval's tasks
 * @after: /proc read at the end of the interval
 * @pids: the processes (randstat top -p)
 * @n: how many
 *
 * Each task of @after that is one of @pids (with threads, one of their
 * threads) gets a row, samples or not, so that an idle process asked for
 * is shown; call it before rs_tasks_add_kernel().
 *
 * Return: 0, or -1 out of memory.
 */
int rs_tasks_want(struct rs_tasks *t, const struct rs_pscan *after,
		  const int *pids, size_t n)
{
	size_t i, j;

	for (i = 0; i < after->n; i++) {
		const struct rs_pstat *b = &after->v[i];
		int id = t->threads ? b->tgid : b->id;

		for (j = 0; j < n && pids[j] != id; j++)
			;
		if (j < n && !task_find(t, b->id) && !task_get(t, b->id, b->tgid))
			return -1;
	}
	return 0;
}

/* One class's estimate, interval and kernel figure, in % of one CPU. */
static void share_fill(struct rs_share *s, uint64_t k, bool has_kernel,
		       uint64_t ticks, double mean_ns, double interval_ns,
		       double user_hz)
{
	double scale = 100 * mean_ns / interval_ns, lo, hi;
	double tick = 100 * (1e9 / user_hz) / interval_ns;

	s->k = k;
	rs_poisson_ci95(k, &lo, &hi);
	s->pct = k * scale;
	s->lo = lo * scale;
	s->hi = hi * scale;
	s->kernel = has_kernel ? ticks * tick : NAN;
	s->outside = rs_kernel_outside(s->kernel, s->lo, s->hi, tick);
}

/**
 * rs_tasks_estimate() - each task's shares, intervals and marks
 * @t: the interval's tasks, with their samples and kernel deltas
 * @mean_ns: the sampling law's mean interval
 * @interval_ns: the interval's length
 * @user_hz: the kernel's clock ticks per second (USER_HZ)
 *
 * User is the samples of user, nice, guest and guest_nice (the kernel's
 * utime holds all four); system is system's.  A task's irq and softirq
 * samples are in neither: randstat charges them to the interrupt, where
 * the kernel (without IRQ_TIME_ACCOUNTING) charges them to the task's
 * stime.
 */
void rs_tasks_estimate(struct rs_tasks *t, double mean_ns,
		       double interval_ns, double user_hz)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		struct rs_task *r = &t->v[i];
		uint64_t ku = r->samples[RS_USER] + r->samples[RS_NICE] +
			      r->samples[RS_GUEST] + r->samples[RS_GUEST_NICE];

		share_fill(&r->usr, ku, r->has_kernel, r->dutime, mean_ns,
			   interval_ns, user_hz);
		share_fill(&r->sys, r->samples[RS_SYSTEM], r->has_kernel,
			   r->dstime, mean_ns, interval_ns, user_hz);
	}
}

static bool shown(const struct rs_task *r)
{
	return r->usr.k || r->sys.k || r->dutime || r->dstime;
}

/* Most CPU first: randstat's, then the kernel's; then by id. */
static int task_cmp(const void *pa, const void *pb)
{
	const struct rs_task *a = pa, *b = pb;
	uint64_t ra = a->usr.k + a->sys.k, rb = b->usr.k + b->sys.k;
	uint64_t ka = a->dutime + a->dstime, kb = b->dutime + b->dstime;

	if (shown(a) != shown(b))
		return shown(a) ? -1 : 1;
	if (ra != rb)
		return ra > rb ? -1 : 1;
	if (ka != kb)
		return ka > kb ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

/**
 * rs_tasks_rank() - order the rows, most CPU first
 * @t: the interval's tasks, estimated
 *
 * Rows with user or system samples, or kernel utime or stime, come first,
 * by randstat's user + system samples, then the kernel's utime + stime,
 * then id.
 *
 * Return: the number of such rows.
 */
size_t rs_tasks_rank(struct rs_tasks *t)
{
	size_t i;

	qsort(t->v, t->n, sizeof(*t->v), task_cmp);
	if (t->h) {
		memset(t->h, 0, t->hcap * sizeof(*t->h));
		for (i = 0; i < t->n; i++)
			*slot(t->h, t->hcap, t->v[i].id, t->v,
			      sizeof(*t->v)) = i + 1;
	}
	for (i = 0; i < t->n && shown(&t->v[i]); i++)
		;
	return i;
}

/**
 * rs_tasks_keep() - only the rows of some processes (randstat top -p)
 * @t: the interval's tasks, ranked (rs_tasks_rank())
 * @pids: the processes' ids
 * @n: how many
 *
 * Keeps, in their order, the rows of those processes (with threads, of
 * their threads), idle ones too: top -p shows a process whatever it did.
 *
 * Return: the number of rows kept, all of them to be shown.
 */
size_t rs_tasks_keep(struct rs_tasks *t, const int *pids, size_t n)
{
	size_t i, j, k;

	for (i = k = 0; i < t->n; i++) {
		int id = t->threads ? t->v[i].tgid : t->v[i].id;

		for (j = 0; j < n && pids[j] != id; j++)
			;
		if (j < n)
			t->v[k++] = t->v[i];
	}
	t->n = k;
	if (t->h) {
		memset(t->h, 0, t->hcap * sizeof(*t->h));
		for (i = 0; i < t->n; i++)
			*slot(t->h, t->hcap, t->v[i].id, t->v,
			      sizeof(*t->v)) = i + 1;
	}
	return k;
}

/* Empty, for the next interval; the memory is kept. */
void rs_tasks_clear(struct rs_tasks *t)
{
	t->n = 0;
	if (t->h)
		memset(t->h, 0, t->hcap * sizeof(*t->h));
	memset(t->samples, 0, sizeof(t->samples));
	t->unknown = 0;
}

void rs_tasks_free(struct rs_tasks *t)
{
	free(t->v);
	free(t->h);
	memset(t, 0, sizeof(*t));
}
