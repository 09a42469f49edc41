// SPDX-License-Identifier: GPL-2.0
/*
 * randstat-fs's pure part: cpu-line parsing, the monotonic carry and the
 * merge of /proc/stat with /proc/randstat's cpu lines (rsmerge.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rsmerge.h"
#include "rsparse.h"	/* RS_FORMAT_VERSION only */

int rs_frame_init(struct rs_frame *f, unsigned int size)
{
	f->size = size;
	f->present = calloc(size, 1);
	f->v = calloc(size, sizeof(*f->v));
	if (!f->present || !f->v) {
		rs_frame_free(f);
		return -1;
	}
	return 0;
}

void rs_frame_free(struct rs_frame *f)
{
	free(f->present);
	free(f->v);
	f->present = NULL;
	f->v = NULL;
	f->size = 0;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A decimal number at *P (before END) into *V; *P moves past it. */
static int number(const char **p, const char *end, unsigned long long *v)
{
	unsigned long long x = 0;
	const char *s = *p;

	if (s == end || !is_digit(*s))
		return 0;
	for (; s < end && is_digit(*s); s++) {
		unsigned long long d = (unsigned long long)(*s - '0');

		if (x > (~0ULL - d) / 10)
			return 0;
		x = x * 10 + d;
	}
	*p = s;
	*v = x;
	return 1;
}

int rs_cpu_line(const char *line, size_t len, unsigned int *idx,
		unsigned long long v[RS_NCOL])
{
	const char *p = line, *end = line + len;
	unsigned long long n;
	int i;

	if (len < 4 || memcmp(line, "cpu", 3) != 0)
		return 0;
	p += 3;
	if (*p == ' ') {
		*idx = 0;
	} else {
		if (!number(&p, end, &n) || p == end || *p != ' ' ||
		    n >= 1U << 20)
			return 0;
		*idx = (unsigned int)n + 1;
	}
	for (i = 0; i < RS_NCOL; i++) {
		if (p == end || *p != ' ')
			return 0;
		while (p < end && *p == ' ')
			p++;
		if (!number(&p, end, &v[i]))
			return 0;
	}
	while (p < end && *p == ' ')
		p++;
	return p == end;
}

unsigned int rs_frame_parse(struct rs_frame *f, const char *text)
{
	unsigned long long v[RS_NCOL];
	unsigned int idx, found = 0;
	const char *p = text, *nl;
	size_t len;

	memset(f->present, 0, f->size);
	while (*p) {
		nl = strchr(p, '\n');
		len = nl ? (size_t)(nl - p) : strlen(p);
		if (rs_cpu_line(p, len, &idx, v) && idx < f->size &&
		    !f->present[idx]) {
			f->present[idx] = 1;
			memcpy(f->v[idx], v, sizeof(v));
			found++;
		}
		p += len + (nl != NULL);
	}
	return found;
}

/* Does LINE (LEN bytes) start as a cpu line does: "cpu " or "cpuN "? */
static int looks_like_cpu_line(const char *line, size_t len)
{
	size_t i = 3;

	if (len < 4 || memcmp(line, "cpu", 3) != 0)
		return 0;
	while (i < len && is_digit(line[i]))
		i++;
	return i < len && line[i] == ' ';
}

int rs_randstat_check(const char *text, char *why, size_t size)
{
	unsigned long long v[RS_NCOL], version;
	const char *p = text, *nl, *q;
	unsigned int idx, lineno = 0;
	size_t len;

	q = p + strlen("randstat ");
	if (strncmp(p, "randstat ", strlen("randstat ")) ||
	    !number(&q, q + 20, &version) || (*q != ' ' && *q != '\n')) {
		snprintf(why, size, "line 1: no 'randstat VERSION' header: '%.40s'",
			 p);
		return -1;
	}
	if (version != RS_FORMAT_VERSION) {
		snprintf(why, size, "format version %llu, this randstat-fs reads %d",
			 version, RS_FORMAT_VERSION);
		return -1;
	}
	while (*p) {
		nl = strchr(p, '\n');
		len = nl ? (size_t)(nl - p) : strlen(p);
		lineno++;
		if (looks_like_cpu_line(p, len) &&
		    !rs_cpu_line(p, len, &idx, v)) {
			snprintf(why, size, "line %u: a damaged cpu line: '%.*s'",
				 lineno, (int)(len > 60 ? 60 : len), p);
			return -1;
		}
		p += len + (nl != NULL);
	}
	return 0;
}

unsigned int rs_carry_step(struct rs_carry_line *c, unsigned int size,
			   const struct rs_frame *stat,
			   const struct rs_frame *rs)
{
	unsigned int i, from_rs = 0;
	int k, fell;

	for (i = 0; i < size && i < stat->size; i++) {
		struct rs_carry_line *l = &c[i];
		const unsigned long long *raw;
		unsigned char src;

		if (!stat->present[i])
			continue;
		if (rs && i < rs->size && rs->present[i]) {
			src = RS_SRC_RANDSTAT;
			raw = rs->v[i];
			from_rs++;
		} else {
			src = RS_SRC_KERNEL;
			raw = stat->v[i];
		}
		if (l->src == RS_SRC_NONE) {
			/* First sight: the kernel's since-boot counters. */
			memcpy(l->out, stat->v[i], sizeof(l->out));
		} else if (l->src == src) {
			fell = 0;
			for (k = 0; k < RS_NCOL; k++)
				fell |= raw[k] < l->raw[k];
			for (k = 0; k < RS_NCOL; k++) {
				if (fell && src == RS_SRC_RANDSTAT)
					l->out[k] += raw[k];
				else if (raw[k] >= l->raw[k])
					l->out[k] += raw[k] - l->raw[k];
			}
		}
		/* A changed source: served unchanged this frame. */
		l->src = src;
		memcpy(l->raw, raw, sizeof(l->raw));
	}
	return from_rs;
}

char *rs_merge(const char *stat, const struct rs_carry_line *c,
	       unsigned int size, size_t *len)
{
	unsigned long long v[RS_NCOL];
	size_t cap = strlen(stat) + 4096, n = 0, ll;
	const char *p = stat, *nl;
	unsigned int idx;
	char *out = malloc(cap), *t;
	int k, w;

	if (!out)
		return NULL;
	while (*p) {
		nl = strchr(p, '\n');
		ll = nl ? (size_t)(nl - p) : strlen(p);
		/* A cpu line is at most 4 + 7 + 10 * 21 + 1 bytes. */
		if (cap - n < ll + 256) {
			cap = 2 * cap + ll + 256;
			t = realloc(out, cap);
			if (!t) {
				free(out);
				return NULL;
			}
			out = t;
		}
		if (rs_cpu_line(p, ll, &idx, v) && idx < size &&
		    c[idx].src != RS_SRC_NONE) {
			if (idx == 0)
				w = snprintf(out + n, cap - n, "cpu ");
			else
				w = snprintf(out + n, cap - n, "cpu%u", idx - 1);
			n += (size_t)w;
			for (k = 0; k < RS_NCOL; k++) {
				w = snprintf(out + n, cap - n, " %llu",
					     c[idx].out[k]);
				n += (size_t)w;
			}
		} else {
			memcpy(out + n, p, ll);
			n += ll;
		}
		if (nl)
			out[n++] = '\n';
		p += ll + (nl != NULL);
	}
	out[n] = '\0';
	*len = n;
	return out;
}
