// SPDX-License-Identifier: GPL-2.0
/*
 * randstat reader: parsing of /proc/stat and /proc/randstat.
 *
 * A small lexer walks the file line by line and token by token, without
 * copying it.  /proc/randstat's lines come in a fixed order, which a little
 * state machine follows, so that every error can say what was expected at
 * which line.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rsparse.h"

#define RS_MAX_FILE	(256u << 20)	/* refuse to read more than this */

struct rs_tok {
	const char *s;
	size_t len;
};

struct rs_lex {
	const char *name;
	const char *next;	/* start of the next line */
	const char *end;	/* end of the file */
	const char *cur;	/* cursor in the current line */
	const char *eol;	/* end of the current line */
	unsigned int lineno;
	struct rs_error *err;
};

static enum rs_status set_error(struct rs_error *err, enum rs_status st,
				const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static enum rs_status set_error(struct rs_error *err, enum rs_status st,
				const char *fmt, ...)
{
	va_list ap;

	err->status = st;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return st;
}

static enum rs_status lex_error(struct rs_lex *lx, enum rs_status st,
				const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* An error at the current line: "name:line: message". */
static enum rs_status lex_error(struct rs_lex *lx, enum rs_status st,
				const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return set_error(lx->err, st, "%s:%u: %s", lx->name, lx->lineno, msg);
}

static void lex_init(struct rs_lex *lx, const char *buf, size_t len,
		     const char *name, struct rs_error *err)
{
	memset(lx, 0, sizeof(*lx));
	lx->name = name;
	lx->next = buf;
	lx->end = buf + len;
	lx->err = err;
	err->status = RS_OK;
	err->msg[0] = '\0';
}

/*
 * Move to the next line.  Returns 1 with a line, 0 at the end of the file,
 * or -1 (error set) if the file ends inside a line or holds a NUL byte.
 */
static int lex_line(struct rs_lex *lx)
{
	const char *nl;

	if (lx->next == lx->end)
		return 0;
	lx->lineno++;
	nl = memchr(lx->next, '\n', lx->end - lx->next);
	if (!nl) {
		lex_error(lx, RS_ERR_FORMAT,
			  "truncated: the file ends inside this line (no newline)");
		return -1;
	}
	if (memchr(lx->next, '\0', nl - lx->next)) {
		lex_error(lx, RS_ERR_FORMAT, "binary data (a NUL byte)");
		return -1;
	}
	lx->cur = lx->next;
	lx->eol = nl;
	lx->next = nl + 1;
	return 1;
}

/* The next space-separated token of the current line; false at its end. */
static bool lex_tok(struct rs_lex *lx, struct rs_tok *t)
{
	while (lx->cur < lx->eol && (*lx->cur == ' ' || *lx->cur == '\t'))
		lx->cur++;
	if (lx->cur == lx->eol)
		return false;
	t->s = lx->cur;
	while (lx->cur < lx->eol && *lx->cur != ' ' && *lx->cur != '\t')
		lx->cur++;
	t->len = lx->cur - t->s;
	return true;
}

static bool lex_more(struct rs_lex *lx)
{
	struct rs_tok t;
	const char *save = lx->cur;
	bool more = lex_tok(lx, &t);

	lx->cur = save;
	return more;
}

static bool tok_is(const struct rs_tok *t, const char *word)
{
	return t->len == strlen(word) && !memcmp(t->s, word, t->len);
}

/* A token, printable and short, for a message. */
static const char *tok_show(const struct rs_tok *t, char *buf, size_t size)
{
	size_t i, n = t->len < size - 4 ? t->len : size - 4;

	for (i = 0; i < n; i++)
		buf[i] = isprint((unsigned char)t->s[i]) ? t->s[i] : '?';
	strcpy(buf + n, n < t->len ? "..." : "");
	return buf;
}

/* Decimal digits only: no sign, no space, no overflow. */
static bool parse_u64(const char *s, size_t len, uint64_t *v)
{
	uint64_t x = 0;
	size_t i;

	if (!len)
		return false;
	for (i = 0; i < len; i++) {
		unsigned int d = (unsigned char)s[i] - '0';

		if (d > 9 || x > (UINT64_MAX - d) / 10)
			return false;
		x = x * 10 + d;
	}
	*v = x;
	return true;
}

/* "cpuN", N a CPU number. */
static bool tok_cpu(const struct rs_tok *t, unsigned int *cpu)
{
	uint64_t n;

	if (t->len <= 3 || memcmp(t->s, "cpu", 3) ||
	    !parse_u64(t->s + 3, t->len - 3, &n) || n >= RS_MAX_CPUS)
		return false;
	*cpu = n;
	return true;
}

/*
 * Up to @max numbers from the rest of the line into @v; *@count says how
 * many.  Anything that is not a number is an error.
 */
static enum rs_status lex_numbers(struct rs_lex *lx, const char *what,
				  uint64_t *v, unsigned int max,
				  unsigned int *count)
{
	struct rs_tok t;
	char shown[40];
	unsigned int n = 0;

	*count = 0;
	while (n < max && lex_tok(lx, &t)) {
		if (!parse_u64(t.s, t.len, &v[n]))
			return lex_error(lx, RS_ERR_FORMAT,
					 "'%s': field %u, '%s', is not a number",
					 what, n + 1,
					 tok_show(&t, shown, sizeof(shown)));
		n++;
	}
	*count = n;
	return RS_OK;
}

/* Exactly @n numbers, and nothing after them. */
static enum rs_status lex_exact(struct rs_lex *lx, const char *what,
				uint64_t *v, unsigned int n)
{
	unsigned int count = 0;	/* set on RS_OK; gcc -O3 cannot tell */
	enum rs_status st = lex_numbers(lx, what, v, n, &count);

	if (st)
		return st;
	if (count < n || lex_more(lx))
		return lex_error(lx, RS_ERR_FORMAT,
				 "'%s': expected %u numbers, found %s", what, n,
				 count < n ? "fewer" : "more");
	return RS_OK;
}

struct rs_kv {
	const char *key;
	uint64_t *val;
	const char *const *words;	/* a word value: its index in this */
};

/* "key value" pairs: each key once, in any order, no other key. */
static enum rs_status lex_kv(struct rs_lex *lx, const char *what,
			     const struct rs_kv *kv, unsigned int n)
{
	struct rs_tok key, val;
	char shown[40];
	unsigned int i;

	/* Every key, once, in the contract's order: a module that wrote them
	 * otherwise is not the module this reader was written for. */
	for (i = 0; i < n; i++) {
		if (!lex_tok(lx, &key))
			return lex_error(lx, RS_ERR_FORMAT,
					 "'%s': no '%s' key", what, kv[i].key);
		if (!tok_is(&key, kv[i].key))
			return lex_error(lx, RS_ERR_FORMAT,
					 "'%s': expected key '%s', found '%s'",
					 what, kv[i].key,
					 tok_show(&key, shown, sizeof(shown)));
		if (kv[i].words) {
			uint64_t w;

			if (!lex_tok(lx, &val))
				return lex_error(lx, RS_ERR_FORMAT,
						 "'%s': '%s' is not followed by a word",
						 what, kv[i].key);
			for (w = 0; kv[i].words[w] && !tok_is(&val, kv[i].words[w]); w++)
				;
			if (!kv[i].words[w])
				return lex_error(lx, RS_ERR_FORMAT,
						 "'%s': '%s' is '%s', not a known value",
						 what, kv[i].key,
						 tok_show(&val, shown, sizeof(shown)));
			*kv[i].val = w;
		} else if (!lex_tok(lx, &val) ||
			   !parse_u64(val.s, val.len, kv[i].val)) {
			return lex_error(lx, RS_ERR_FORMAT,
					 "'%s': '%s' is not followed by a number",
					 what, kv[i].key);
		}
	}
	if (lex_tok(lx, &key))
		return lex_error(lx, RS_ERR_FORMAT, "'%s': unknown key '%s' after '%s'",
				 what, tok_show(&key, shown, sizeof(shown)),
				 kv[n - 1].key);
	return RS_OK;
}

/* The entry of CPU @n, allocated (zeroed) on first use. */
static struct rs_cpu *snap_cpu(struct rs_snap *s, unsigned int n)
{
	if (n >= s->ncpu) {
		unsigned int want = n + 1 > 2 * s->ncpu ? n + 1 : 2 * s->ncpu;
		struct rs_cpu *c = realloc(s->cpu, want * sizeof(*c));

		if (!c)
			return NULL;
		memset(c + s->ncpu, 0, (want - s->ncpu) * sizeof(*c));
		s->cpu = c;
		s->ncpu = want;
	}
	return &s->cpu[n];
}

const struct rs_cpu *rs_snap_cpu(const struct rs_snap *snap, unsigned int n)
{
	return n < snap->ncpu ? &snap->cpu[n] : NULL;
}

uint64_t rs_row_time(const struct rs_row *r)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < RS_NTIME; i++)
		sum += r->v[i];
	return sum;
}

/* A copy of @src, its CPUs too, into @dst: 0, or -1 out of memory. */
int rs_snap_copy(struct rs_snap *dst, const struct rs_snap *src)
{
	*dst = *src;
	dst->cpu = NULL;
	if (!src->ncpu)
		return 0;
	dst->cpu = malloc(src->ncpu * sizeof(*dst->cpu));
	if (!dst->cpu) {
		dst->ncpu = 0;
		return -1;
	}
	memcpy(dst->cpu, src->cpu, src->ncpu * sizeof(*dst->cpu));
	return 0;
}

void rs_snap_free(struct rs_snap *snap)
{
	free(snap->cpu);
	memset(snap, 0, sizeof(*snap));
}

/* "user", ..., for a message: /proc/stat's names of its columns. */
static const char *const col_name[RS_NCOLS] = {
	"user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal",
	"guest", "guest_nice",
};

/*
 * Counters no kernel can have written, which would make the reports'
 * sums wrap: a cpuN line (one CPU) with a column, or its eight time
 * columns together, at RS_MAX_TICKS or more; the cpu line (every CPU)
 * with its eight time columns above 2^64.  Below RS_MAX_TICKS a CPU, the
 * sums of RS_MAX_CPUS CPUs fit in 64 bits.
 */
static enum rs_status check_ticks(struct rs_lex *lx, const char *what,
				  const struct rs_row *row, bool all)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < RS_NCOLS; i++)
		if (!all && row->v[i] >= RS_MAX_TICKS)
			return lex_error(lx, RS_ERR_FORMAT,
					 "'%s': %s is %llu ticks, 2^48 or more: damaged",
					 what, col_name[i],
					 (unsigned long long)row->v[i]);
	for (i = 0; i < RS_NTIME; i++) {
		if (row->v[i] > UINT64_MAX - sum)
			return lex_error(lx, RS_ERR_FORMAT,
					 "'%s': its eight time columns add up to more than 2^64: damaged",
					 what);
		sum += row->v[i];
	}
	if (!all && sum >= RS_MAX_TICKS)
		return lex_error(lx, RS_ERR_FORMAT,
				 "'%s': its eight time columns add up to 2^48 ticks or more: damaged",
				 what);
	return RS_OK;
}

/*
 * A "cpu" or "cpuN" line whose first token is @kw: into the snapshot.
 * /proc/stat may have fewer columns (old kernels) or more (new ones);
 * /proc/randstat has exactly ten.
 */
static enum rs_status parse_cpu_line(struct rs_lex *lx, struct rs_snap *s,
				     const struct rs_tok *kw, bool strict)
{
	char what[24];
	struct rs_row *row;
	unsigned int cpu, count;
	enum rs_status st;

	snprintf(what, sizeof(what), "%.*s", (int)kw->len, kw->s);
	if (tok_is(kw, "cpu")) {
		row = &s->all;
	} else {
		struct rs_cpu *c;

		if (!tok_cpu(kw, &cpu))
			return lex_error(lx, RS_ERR_FORMAT,
					 "'%s' is not a cpu line", what);
		c = snap_cpu(s, cpu);
		if (!c)
			return lex_error(lx, RS_ERR_NOMEM, "out of memory");
		if (c->listed)
			return lex_error(lx, RS_ERR_FORMAT,
					 "a second '%s' line", what);
		c->listed = true;
		row = &c->ticks;
	}
	if (strict) {
		st = lex_exact(lx, what, row->v, RS_NCOLS);
	} else {
		st = lex_numbers(lx, what, row->v, RS_NCOLS, &count);
		if (!st && count < 4)
			st = lex_error(lx, RS_ERR_FORMAT,
				       "'%s': %u numbers, at least 4 expected",
				       what, count);
	}
	return st ? st : check_ticks(lx, what, row, row == &s->all);
}

enum rs_status rs_parse_stat(const char *buf, size_t len, const char *name,
			     struct rs_snap *snap, struct rs_error *err)
{
	struct rs_lex lx;
	struct rs_tok kw;
	bool have_all = false;
	enum rs_status st = RS_OK;
	int more;

	memset(snap, 0, sizeof(*snap));
	lex_init(&lx, buf, len, name, err);
	while (!st && (more = lex_line(&lx)) > 0) {
		if (!lex_tok(&lx, &kw) || kw.len < 3 || memcmp(kw.s, "cpu", 3))
			continue;	/* intr, ctxt, btime, ...: not ours */
		if (tok_is(&kw, "cpu")) {
			if (have_all)
				st = lex_error(&lx, RS_ERR_FORMAT,
					       "a second 'cpu' line");
			have_all = true;
		}
		if (!st)
			st = parse_cpu_line(&lx, snap, &kw, false);
	}
	if (!st && more < 0)
		st = err->status;
	if (!st && !have_all)
		st = set_error(err, RS_ERR_FORMAT,
			       "%s: no 'cpu' line: not a /proc/stat file%s",
			       name, len ? "" : " (it is empty)");
	if (st)
		rs_snap_free(snap);
	return st;
}

const char *const rs_law_name[RS_NLAWS] = {
	[RS_LAW_EXPONENTIAL] = "exponential",
	[RS_LAW_UNIFORM] = "uniform",
};

/* /proc/randstat: where the parser is in the file. */
enum rs_state {
	ST_HEADER,	/* randstat 2 law ... */
	ST_CPU_ALL,	/* cpu */
	ST_CPU_N,	/* cpuN ... */
	ST_BLOCK,	/* ns, samples, exact, sampler cpuN */
};

struct rs_parser {
	struct rs_lex lx;
	struct rs_snap *snap;
	enum rs_state state;
	unsigned int bline;	/* ST_BLOCK: which line of the block is next */
	unsigned int cpu;	/* ST_BLOCK: the block's CPU */
	unsigned int nblocks;
};

static enum rs_status parse_header(struct rs_parser *ps,
				   const struct rs_tok *kw)
{
	struct rs_snap *s = ps->snap;
	struct rs_tok t, law;
	uint64_t version;
	char shown[40];
	unsigned int i;
	const struct rs_kv kv[] = {
		{ "floor_ns", &s->floor_ns, NULL },
		{ "mean_ns", &s->mean_ns, NULL },
		{ "tmin_ns", &s->tmin_ns, NULL },
		{ "tmax_ns", &s->tmax_ns, NULL },
		{ "user_hz", &s->user_hz, NULL },
	};
	enum rs_status st;

	if (!tok_is(kw, "randstat") || !lex_tok(&ps->lx, &t) ||
	    !parse_u64(t.s, t.len, &version))
		return lex_error(&ps->lx, RS_ERR_FORMAT,
				 "not a /proc/randstat file: line 1 should be 'randstat %d law ...'",
				 RS_FORMAT_VERSION);
	if (version != RS_FORMAT_VERSION)
		return lex_error(&ps->lx, RS_ERR_VERSION,
				 "format version %llu; this reader knows version %d only (update the reader to match the module)",
				 (unsigned long long)version,
				 RS_FORMAT_VERSION);
	s->version = version;
	if (!lex_tok(&ps->lx, &t) || !tok_is(&t, "law") ||
	    !lex_tok(&ps->lx, &law))
		return lex_error(&ps->lx, RS_ERR_FORMAT,
				 "'randstat': no 'law' after the version");
	for (i = 0; i < RS_NLAWS && !tok_is(&law, rs_law_name[i]); i++)
		;
	if (i == RS_NLAWS)
		return lex_error(&ps->lx, RS_ERR_FORMAT,
				 "'randstat': unknown law '%s'",
				 tok_show(&law, shown, sizeof(shown)));
	s->law = i;
	st = lex_kv(&ps->lx, "randstat", kv, sizeof(kv) / sizeof(kv[0]));
	if (!st && !s->user_hz)
		st = lex_error(&ps->lx, RS_ERR_FORMAT, "user_hz is 0");
	return st;
}

static enum rs_status parse_ns(struct rs_parser *ps, struct rs_cpu *c,
			       const char *what)
{
	return lex_exact(&ps->lx, what, c->ns.v, RS_NCOLS);
}

static enum rs_status parse_samples(struct rs_parser *ps, struct rs_cpu *c,
				    const char *what)
{
	return lex_exact(&ps->lx, what, c->samples.v, RS_NCOLS);
}

static enum rs_status parse_exact(struct rs_parser *ps, struct rs_cpu *c,
				  const char *what)
{
	return lex_exact(&ps->lx, what, c->exact.v, RS_NCOLS);
}

static const char *const rs_mode_name[] = { "sampled", "exact", NULL };

/* Would rs_row_time() of @r overflow? */
static bool row_time_wraps(const struct rs_row *r)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < RS_NTIME; i++) {
		if (r->v[i] > UINT64_MAX - sum)
			return true;
		sum += r->v[i];
	}
	return false;
}

static enum rs_status parse_sampler(struct rs_parser *ps, struct rs_cpu *c,
				    const char *what)
{
	struct rs_sampler *s = &c->s;
	uint64_t online, mode, dormant;
	const struct rs_kv kv[] = {
		{ "online", &online, NULL },
		{ "mode", &mode, rs_mode_name },
		{ "dormant", &dormant, NULL },
		{ "elapsed_ns", &s->elapsed_ns, NULL },
		{ "sampled_ns", &s->sampled_ns, NULL },
		{ "samples", &s->samples, NULL },
		{ "overruns", &s->overruns, NULL },
		{ "dormancies", &s->dormancies, NULL },
		{ "cost_ns", &s->cost_ns, NULL },
		{ "cost_max_ns", &s->cost_max_ns, NULL },
		{ "late_ns", &s->late_ns, NULL },
		{ "late_max_ns", &s->late_max_ns, NULL },
	};
	enum rs_status st = lex_kv(&ps->lx, what, kv, sizeof(kv) / sizeof(kv[0]));

	if (st)
		return st;
	if (online > 1 || dormant > 1)
		return lex_error(&ps->lx, RS_ERR_FORMAT,
				 "'%s': online or dormant is %llu, not 0 or 1", what,
				 (unsigned long long)(online > 1 ? online : dormant));
	s->online = online;
	s->exact = mode == 1;
	s->dormant = dormant;
	if (row_time_wraps(&c->ns) || row_time_wraps(&c->samples) ||
	    row_time_wraps(&c->exact) ||
	    s->sampled_ns > UINT64_MAX - rs_row_time(&c->exact))
		return lex_error(&ps->lx, RS_ERR_FORMAT,
				 "'%s': the ns, samples or exact columns add up to more than 2^64: damaged",
				 what);
	if (s->elapsed_ns != rs_row_time(&c->ns))
		return lex_error(&ps->lx, RS_ERR_FORMAT,
				 "'%s': elapsed_ns %llu is not the sum of the first eight ns columns (%llu)",
				 what, (unsigned long long)s->elapsed_ns,
				 (unsigned long long)rs_row_time(&c->ns));
	if (s->samples != rs_row_time(&c->samples))
		return lex_error(&ps->lx, RS_ERR_FORMAT,
				 "'%s': samples %llu is not the sum of the first eight sample columns (%llu)",
				 what, (unsigned long long)s->samples,
				 (unsigned long long)rs_row_time(&c->samples));
	if (s->sampled_ns + rs_row_time(&c->exact) != s->elapsed_ns)
		return lex_error(&ps->lx, RS_ERR_FORMAT,
				 "'%s': sampled_ns %llu and the first eight exact columns (%llu) do not add up to elapsed_ns %llu",
				 what, (unsigned long long)s->sampled_ns,
				 (unsigned long long)rs_row_time(&c->exact),
				 (unsigned long long)s->elapsed_ns);
	return RS_OK;
}

/* The four lines every possible CPU has, in this order. */
static const struct {
	const char *kw;
	enum rs_status (*parse)(struct rs_parser *ps, struct rs_cpu *c,
				const char *what);
} block_lines[] = {
	{ "ns", parse_ns },
	{ "samples", parse_samples },
	{ "exact", parse_exact },
	{ "sampler", parse_sampler },
};

#define NR_BLOCK_LINES	(sizeof(block_lines) / sizeof(block_lines[0]))

/* What the parser expects next, for a message. */
static void describe_expected(const struct rs_parser *ps, char *buf,
			      size_t size)
{
	switch (ps->state) {
	case ST_HEADER:
		snprintf(buf, size, "the header 'randstat %d ...'",
			 RS_FORMAT_VERSION);
		break;
	case ST_CPU_ALL:
		snprintf(buf, size, "the 'cpu' line");
		break;
	case ST_CPU_N:
		snprintf(buf, size, "a 'cpuN' line or 'ns cpuN'");
		break;
	case ST_BLOCK:
		if (ps->bline)
			snprintf(buf, size, "'%s cpu%u'",
				 block_lines[ps->bline].kw, ps->cpu);
		else
			snprintf(buf, size, "'ns cpuN'");
		break;
	}
}

static enum rs_status unexpected(struct rs_parser *ps,
				 const struct rs_tok *kw)
{
	char want[64], shown[40];

	describe_expected(ps, want, sizeof(want));
	return lex_error(&ps->lx, RS_ERR_FORMAT, "expected %s, found '%s'",
			 want, tok_show(kw, shown, sizeof(shown)));
}

static enum rs_status parse_block_line(struct rs_parser *ps,
				       const struct rs_tok *kw)
{
	struct rs_tok t;
	struct rs_cpu *c;
	unsigned int cpu;
	char what[40];
	enum rs_status st;

	if (!tok_is(kw, block_lines[ps->bline].kw))
		return unexpected(ps, kw);
	if (!lex_tok(&ps->lx, &t) || !tok_cpu(&t, &cpu) ||
	    (ps->bline && cpu != ps->cpu))
		return unexpected(ps, kw);
	c = snap_cpu(ps->snap, cpu);
	if (!c)
		return lex_error(&ps->lx, RS_ERR_NOMEM, "out of memory");
	if (!ps->bline && c->counted)
		return lex_error(&ps->lx, RS_ERR_FORMAT,
				 "a second block of lines for cpu%u", cpu);
	snprintf(what, sizeof(what), "%s cpu%u", block_lines[ps->bline].kw,
		 cpu);
	st = block_lines[ps->bline].parse(ps, c, what);
	if (st)
		return st;
	ps->cpu = cpu;
	if (++ps->bline == NR_BLOCK_LINES) {
		c->counted = true;
		ps->bline = 0;
		ps->nblocks++;
	}
	return RS_OK;
}

static enum rs_status parse_randstat_line(struct rs_parser *ps)
{
	struct rs_tok kw = { "", 0 };
	unsigned int cpu;

	if (!lex_tok(&ps->lx, &kw))
		return unexpected(ps, &kw);
	switch (ps->state) {
	case ST_HEADER:
		ps->state = ST_CPU_ALL;
		return parse_header(ps, &kw);
	case ST_CPU_ALL:
		if (!tok_is(&kw, "cpu"))
			return unexpected(ps, &kw);
		ps->state = ST_CPU_N;
		return parse_cpu_line(&ps->lx, ps->snap, &kw, true);
	case ST_CPU_N:
		if (tok_cpu(&kw, &cpu))
			return parse_cpu_line(&ps->lx, ps->snap, &kw, true);
		if (!tok_is(&kw, block_lines[0].kw))
			return unexpected(ps, &kw);
		ps->state = ST_BLOCK;
		return parse_block_line(ps, &kw);
	case ST_BLOCK:
		return parse_block_line(ps, &kw);
	}
	return unexpected(ps, &kw);
}

/* At the end of the file: complete, and every online CPU has its block. */
static enum rs_status check_randstat_end(struct rs_parser *ps)
{
	struct rs_snap *s = ps->snap;
	char want[64];
	unsigned int i;

	if (ps->state == ST_CPU_N)
		return set_error(ps->lx.err, RS_ERR_FORMAT,
				 "%s: /proc/stat's lines only, no 'ns cpuN' block: the per-CPU blocks are in %s",
				 ps->lx.name, RS_PROC_DETAIL);
	if (ps->state != ST_BLOCK || ps->bline || !ps->nblocks) {
		describe_expected(ps, want, sizeof(want));
		if (!ps->lx.lineno)
			return set_error(ps->lx.err, RS_ERR_FORMAT,
					 "%s: empty file", ps->lx.name);
		return lex_error(&ps->lx, RS_ERR_FORMAT,
				 "truncated: the file ends here, before %s",
				 want);
	}
	for (i = 0; i < s->ncpu; i++)
		if (s->cpu[i].listed && !s->cpu[i].counted)
			return set_error(ps->lx.err, RS_ERR_FORMAT,
					 "%s: cpu%u has a cpu line but no 'ns cpu%u' block",
					 ps->lx.name, i, i);
	return RS_OK;
}

enum rs_status rs_parse_randstat(const char *buf, size_t len,
				 const char *name, struct rs_snap *snap,
				 struct rs_error *err)
{
	struct rs_parser ps;
	enum rs_status st = RS_OK;
	int more;

	memset(snap, 0, sizeof(*snap));
	memset(&ps, 0, sizeof(ps));
	snap->is_randstat = true;
	ps.snap = snap;
	lex_init(&ps.lx, buf, len, name, err);
	while (!st && (more = lex_line(&ps.lx)) > 0)
		st = parse_randstat_line(&ps);
	if (!st && more < 0)
		st = err->status;
	if (!st)
		st = check_randstat_end(&ps);
	if (st)
		rs_snap_free(snap);
	return st;
}

/* Doubles a buffer, up to RS_MAX_FILE. */
static char *grow(char *b, size_t *size)
{
	char *nb;

	if (*size >= RS_MAX_FILE)
		return NULL;
	nb = realloc(b, *size * 2);
	if (nb)
		*size *= 2;
	return nb;
}

enum rs_status rs_read_file(const char *path, char **buf, size_t *len,
			    struct rs_error *err)
{
	size_t size = 32768, n = 0;
	char *b, *nb;
	ssize_t r;
	int fd;

	err->status = RS_OK;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return set_error(err, errno == ENOENT ? RS_ERR_NOENT : RS_ERR_IO,
				 "%s: %s", path, strerror(errno));
	b = malloc(size);
	if (!b) {
		set_error(err, RS_ERR_NOMEM, "%s: out of memory", path);
		goto out;
	}
	for (;;) {
		if (n == size) {
			nb = grow(b, &size);
			if (!nb) {
				set_error(err, RS_ERR_IO,
					  "%s: larger than %u MiB or out of memory",
					  path, RS_MAX_FILE >> 20);
				break;
			}
			b = nb;
		}
		r = read(fd, b + n, size - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			set_error(err, RS_ERR_IO, "%s: read: %s", path,
				  strerror(errno));
		if (r <= 0)
			break;
		n += r;
	}
out:
	close(fd);
	if (err->status) {
		free(b);
		return err->status;
	}
	*buf = b;
	*len = n;
	return RS_OK;
}

typedef enum rs_status (*rs_parse_fn)(const char *buf, size_t len,
				      const char *name, struct rs_snap *snap,
				      struct rs_error *err);

static enum rs_status load(const char *path, struct rs_snap *snap,
			   struct rs_error *err, rs_parse_fn parse)
{
	char *buf;
	size_t len;
	enum rs_status st;

	memset(snap, 0, sizeof(*snap));
	st = rs_read_file(path, &buf, &len, err);
	if (st)
		return st;
	st = parse(buf, len, path, snap, err);
	free(buf);
	return st;
}

enum rs_status rs_load_stat(const char *path, struct rs_snap *snap,
			    struct rs_error *err)
{
	return load(path, snap, err, rs_parse_stat);
}

enum rs_status rs_load_randstat(const char *path, struct rs_snap *snap,
				struct rs_error *err)
{
	return load(path, snap, err, rs_parse_randstat);
}

/*
 * A command line's INTERVAL: a plain decimal number of seconds, digits
 * with at most one '.' between digits (no sign, space, exponent, hex,
 * inf or nan, all of which strtod() takes), from RS_INTERVAL_MIN to
 * RS_INTERVAL_MAX.
 */
bool rs_parse_interval(const char *s, double *v)
{
	const char *p = s;
	char *end;
	double x;

	while (isdigit((unsigned char)*p))
		p++;
	if (p == s)
		return false;
	if (*p == '.') {
		const char *frac = ++p;

		while (isdigit((unsigned char)*p))
			p++;
		if (p == frac)
			return false;
	}
	if (*p)
		return false;
	errno = 0;
	x = strtod(s, &end);
	if (errno || *end || !(x >= RS_INTERVAL_MIN && x <= RS_INTERVAL_MAX))
		return false;
	*v = x;
	return true;
}

/* A command line's COUNT: a whole number above 0, no sign, no spaces. */
bool rs_parse_count(const char *s, unsigned long long *v)
{
	char *end;

	if (*s < '1' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end;
}

/* The law in use and its parameters, in words. */
void rs_law_desc(const struct rs_snap *s, char *buf, size_t size)
{
	if (s->law == RS_LAW_UNIFORM)
		snprintf(buf, size, "uniform on [%llu, %llu] ns",
			 (unsigned long long)s->tmin_ns,
			 (unsigned long long)s->tmax_ns);
	else
		snprintf(buf, size, "exponential, floor %llu ns, mean %llu ns",
			 (unsigned long long)s->floor_ns,
			 (unsigned long long)s->mean_ns);
}
