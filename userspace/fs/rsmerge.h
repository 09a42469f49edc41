/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pure part of randstat-fs: /proc/stat with its cpu lines replaced by
 * /proc/randstat's, and counters that never fall (Documentation/
 * admin-guide.rst, "randstat-fs").  No I/O here: the daemon reads the files,
 * the unit tests (tests/test_fs.c) feed text.
 *
 * Only the `cpu ` and `cpuN ` lines of either file are looked at (a name,
 * then exactly ten decimal counters); every other line of /proc/randstat is
 * ignored, every other line of /proc/stat is passed through.
 */
#ifndef RSMERGE_H
#define RSMERGE_H

#include <stdbool.h>
#include <stddef.h>

#define RS_NCOL 10	/* user nice system idle iowait irq softirq steal guest gnice */

/* The cpu lines of one file: index 0 is "cpu", N + 1 is "cpuN". */
struct rs_frame {
	unsigned int size;
	unsigned char *present;
	unsigned long long (*v)[RS_NCOL];
};

/* Where a served line's counters come from. */
enum rs_src { RS_SRC_NONE, RS_SRC_KERNEL, RS_SRC_RANDSTAT };

/*
 * One served line's carry state: the last raw values read from its source
 * and the last values served.  The served values only ever grow.
 */
struct rs_carry_line {
	unsigned char src;	/* enum rs_src of the last frame */
	unsigned long long raw[RS_NCOL];
	unsigned long long out[RS_NCOL];
};

int rs_frame_init(struct rs_frame *f, unsigned int size);
void rs_frame_free(struct rs_frame *f);

/*
 * rs_cpu_line: is LINE (LEN bytes, no newline) a cpu line?  Returns 1 and
 * sets *IDX (0 for "cpu", N + 1 for "cpuN") and V, else 0.
 */
int rs_cpu_line(const char *line, size_t len, unsigned int *idx,
		unsigned long long v[RS_NCOL]);

/* rs_frame_parse: the cpu lines of TEXT into F (lines past F's size are
 * dropped); returns how many were found. */
unsigned int rs_frame_parse(struct rs_frame *f, const char *text);

/*
 * rs_randstat_check: is TEXT a /proc/randstat this randstat-fs can serve?
 * Its header must be "randstat V ..." with V the format version the
 * reader knows (RS_FORMAT_VERSION, rsparse.h), and every line that starts
 * like a cpu line ("cpu " or "cpuN ") must be one (rs_cpu_line()).
 * Returns 0, or -1 with the reason in WHY (SIZE bytes), such as
 * "format version 4, this randstat-fs reads 3" or "line 3: a damaged cpu
 * line: 'cpu1 1 2 3'".
 */
int rs_randstat_check(const char *text, char *why, size_t size);

/*
 * rs_carry_step: one served frame.  For each line present in STAT, its
 * source is RS's line of the same name if RS is non-NULL and has it, else
 * STAT's own.  C (SIZE entries, zeroed before the first step) is updated:
 *   - first sight of a line: the served values are /proc/stat's (the
 *     kernel's since-boot counters), whatever the source;
 *   - same source, every column >= the last raw value: served += raw delta;
 *   - randstat source and some column fell (a reset, or a reload between
 *     two frames): the counters restarted from zero, served += raw;
 *   - the source changed (module unloaded or back): served unchanged for
 *     this frame, deltas from the new source from the next one on;
 *   - kernel source and a column fell (not expected): served unchanged
 *     in that column.
 * Returns the number of lines served from randstat.
 */
unsigned int rs_carry_step(struct rs_carry_line *c, unsigned int size,
			   const struct rs_frame *stat,
			   const struct rs_frame *rs);

/*
 * rs_merge: STAT's text with each cpu line it has replaced by C's served
 * values, in /proc/stat's own format ("cpu  " then "cpuN "), every other
 * line unchanged.  Returns a malloc'd string (length in *LEN), or NULL.
 */
char *rs_merge(const char *stat, const struct rs_carry_line *c,
	       unsigned int size, size_t *len);

#endif
