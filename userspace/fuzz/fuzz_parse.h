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
 *     lists (format 4: the histograms are in /proc/randstat_hist).
 */
#ifndef FUZZ_PARSE_H
#define FUZZ_PARSE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rsparse.h"

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
		    rs_snap_cpu(&snap, snap.ncpu))
			abort();
		for (i = 0; i < snap.ncpu; i++) {
			const struct rs_cpu *c = rs_snap_cpu(&snap, i);

			if (!c || (randstat && c->listed && !c->counted))
				abort();
		}
	}
	rs_snap_free(&snap);
	free(buf);
}

#endif /* FUZZ_PARSE_H */
