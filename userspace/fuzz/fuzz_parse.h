/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The parsers' fuzz targets (fuzz_randstat.c, fuzz_stat.c): one parse of
 * the input, copied to a buffer of exactly its size (ASan then catches a
 * read past the end; the parsers take a length, not a NUL), and what a
 * parse promises checked, an abort() otherwise:
 *   - a rejected input has a status and a message, NUL-terminated, which
 *     names the input;
 *   - an accepted one has its CPUs below ncpu, says which parser took it,
 *     and, from /proc/randstat_detail, the block of counters of every CPU it
 *     lists (format 4: the histograms are in /proc/randstat_hist);
 *   - and sums that cannot wrap: its cpu line's eight time columns within
 *     64 bits, each cpuN line's below RS_MAX_TICKS.
 */
#ifndef FUZZ_PARSE_H
#define FUZZ_PARSE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rsparse.h"

/* The eight time columns' sum, saturated: above @max is too much. */
static inline bool fuzz_sum_above(const struct rs_row *r, uint64_t max)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < RS_NTIME; i++) {
		if (r->v[i] > max - sum)
			return true;
		sum += r->v[i];
	}
	return false;
}

typedef enum rs_status (*rs_parse_fn)(const char *buf, size_t len,
				      const char *name, struct rs_snap *snap,
				      struct rs_error *err);

static inline void fuzz_parse(rs_parse_fn parse, bool randstat,
			      const uint8_t *data, size_t size)
{
	struct rs_snap snap;
	struct rs_error err;
	enum rs_status st;
	char *buf = malloc(size ? size : 1);
	unsigned int i;

	if (!buf)
		return;
	memcpy(buf, data, size);
	memset(&err, 0, sizeof(err));
	st = parse(buf, size, "fuzz", &snap, &err);
	if (st != RS_OK) {
		if (err.status != st || !memchr(err.msg, '\0', sizeof(err.msg)) ||
		    !strstr(err.msg, "fuzz"))
			abort();
	} else {
		if (snap.is_randstat != randstat || (snap.ncpu && !snap.cpu) ||
		    rs_snap_cpu(&snap, snap.ncpu) ||
		    fuzz_sum_above(&snap.all, UINT64_MAX))
			abort();
		for (i = 0; i < snap.ncpu; i++) {
			const struct rs_cpu *c = rs_snap_cpu(&snap, i);

			if (!c || (randstat && c->listed && !c->counted) ||
			    (c->listed &&
			     fuzz_sum_above(&c->ticks, RS_MAX_TICKS - 1)))
				abort();
		}
	}
	rs_snap_free(&snap);
	free(buf);
}

#endif /* FUZZ_PARSE_H */
