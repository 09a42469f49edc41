/* SPDX-License-Identifier: GPL-2.0 */
/*
 * randstat top: the randstat:sample events, read from a tracefs instance
 * of its own with libtracefs and libtraceevent.
 */
#ifndef RSTRACE_H
#define RSTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rstask.h"

/* One randstat:sample event. */
struct rs_sample {
	uint64_t ts;		/* the trace clock: mono, CLOCK_MONOTONIC ns */
	int cpu;
	int pid;
	int tgid;
	char comm[RS_COMM_LEN];
	int cls;		/* enum rs_col, or -1: not one of the ten */
	uint32_t samples;
	uint64_t weight_ns;
};

enum rs_trace_status {
	RS_TRACE_OK,
	RS_TRACE_NOTRACEFS,	/* no tracefs, and it cannot be mounted */
	RS_TRACE_NOEVENT,	/* no randstat:sample event */
	RS_TRACE_ERROR,
	RS_TRACE_UNSUPPORTED,	/* built without libtracefs */
};

struct rs_trace;

/* The instance's name: RS_TRACE_PREFIX and the reader's PID. */
#define RS_TRACE_PREFIX	"randstat-top-"

enum rs_trace_status rs_trace_open(struct rs_trace **tr, size_t buffer_kb,
				   char *msg, size_t size);
int rs_trace_drain(struct rs_trace *tr,
		   int (*fn)(const struct rs_sample *s, void *ctx), void *ctx,
		   uint64_t *lost, bool *lost_unknown);
void rs_trace_stop(struct rs_trace *tr);
void rs_trace_close(struct rs_trace *tr);
void rs_trace_reap(void);
bool rs_trace_alive(struct rs_trace *tr);

#endif /* RSTRACE_H */
