// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer: randstat-fs's merge (rsmerge.c), two frames as randstat-fs's
 * take() serves them.  The input is a frame size byte (1 + the byte % 8
 * lines: "cpu" and cpu0..) and then up to four texts separated by NUL
 * bytes: /proc/stat and /proc/randstat of the first frame, then of the
 * second (a missing /proc/randstat: the module is not loaded).  Checked,
 * an abort() otherwise:
 *   - rs_merge()'s text has the length it says, and parsed again it has
 *     the cpu lines /proc/stat had (those the frame holds), each with the
 *     served values;
 *   - a line served in both frames never goes back (rsmerge.h: "the
 *     served values only ever grow"), as long as no counter read is
 *     beyond 2^62 (so that no sum of three wraps around 2^64; no kernel
 *     counts that far).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rsmerge.h"

#define MAX_SIZE 8
#define HUGE (1ULL << 62)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The next NUL-separated text of DATA from *OFF on, malloc'd, or NULL. */
static char *next_text(const uint8_t *data, size_t size, size_t *off)
{
	const uint8_t *nul;
	size_t n;
	char *s;

	if (*off > size)
		return NULL;
	nul = memchr(data + *off, '\0', size - *off);
	n = nul ? (size_t)(nul - (data + *off)) : size - *off;
	s = malloc(n + 1);
	if (!s)
		abort();
	memcpy(s, data + *off, n);
	s[n] = '\0';
	*off += n + 1;
	return s;
}

static int huge(const struct rs_frame *f)
{
	unsigned int i;
	int k;

	for (i = 0; i < f->size; i++)
		for (k = 0; k < RS_NCOL; k++)
			if (f->present[i] && f->v[i][k] >= HUGE)
				return 1;
	return 0;
}

/* One frame: STAT and RS (or NULL) into C; the merged text checked. */
static int step(struct rs_carry_line *c, unsigned int size, const char *stat,
		const char *rs)
{
	struct rs_frame fs, fr, back;
	unsigned int i;
	size_t len;
	char *out;
	int big;

	if (rs_frame_init(&fs, size) || rs_frame_init(&fr, size) ||
	    rs_frame_init(&back, size))
		abort();
	rs_frame_parse(&fs, stat);
	if (rs && rs_frame_parse(&fr, rs) == 0)
		rs = NULL;	/* as take(): no cpu lines, the kernel's */
	rs_carry_step(c, size, &fs, rs ? &fr : NULL);
	big = huge(&fs) || (rs && huge(&fr));
	out = rs_merge(stat, c, size, &len);
	if (!out || strlen(out) != len)
		abort();
	rs_frame_parse(&back, out);
	for (i = 0; i < size; i++) {
		if (back.present[i] != fs.present[i])
			abort();
		if (fs.present[i] &&
		    memcmp(back.v[i], c[i].out, sizeof(c[i].out)))
			abort();
	}
	free(out);
	rs_frame_free(&fs);
	rs_frame_free(&fr);
	rs_frame_free(&back);
	return big;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rs_carry_line c[MAX_SIZE], before[MAX_SIZE];
	size_t off = 1;
	char *st1, *rs1, *st2, *rs2;
	unsigned int n, i;
	int big, k;

	if (size < 1)
		return 0;
	n = 1 + data[0] % MAX_SIZE;
	st1 = next_text(data, size, &off);
	rs1 = next_text(data, size, &off);
	st2 = next_text(data, size, &off);
	rs2 = next_text(data, size, &off);
	memset(c, 0, sizeof(c));
	big = step(c, n, st1 ? st1 : "", rs1);
	memcpy(before, c, sizeof(c));
	big |= step(c, n, st2 ? st2 : "", rs2);
	for (i = 0; i < n && !big; i++) {
		if (before[i].src == RS_SRC_NONE)
			continue;
		for (k = 0; k < RS_NCOL; k++)
			if (c[i].out[k] < before[i].out[k])
				abort();
	}
	free(st1);
	free(rs1);
	free(st2);
	free(rs2);
	return 0;
}
