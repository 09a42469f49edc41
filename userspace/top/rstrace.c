// SPDX-License-Identifier: GPL-2.0
/*
 * randstat top: the randstat:sample events, from a tracefs instance of
 * the reader's own (so that it neither sees nor disturbs anyone else's
 * tracing), read with libtracefs (tracefs_iterate_raw_events(), which
 * reads each CPU's trace_pipe_raw without blocking) and decoded with
 * libtraceevent from the event's own format file.
 *
 * The instance's trace clock is "mono": event times are CLOCK_MONOTONIC,
 * so rstop.c can put each event in the interval it belongs to.
 *
 * Built without libtracefs (RS_HAVE_TRACEFS undefined), rs_trace_open()
 * says so and nothing else is done.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rstrace.h"

#ifdef RS_HAVE_TRACEFS
#include <event-parse.h>
#include <tracefs.h>

struct rs_trace {
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	struct tep_event *ev;
	int (*fn)(const struct rs_sample *s, void *ctx);
	void *ctx;
	uint64_t lost;
	bool lost_unknown;
	int failed;		/* fn returned non-zero */
};

static const char *const fields[] = {
	"cpu", "pid", "tgid", "comm", "class", "samples", "weight_ns",
};

static enum rs_trace_status fail(char *msg, size_t size,
				 enum rs_trace_status st, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static enum rs_trace_status fail(char *msg, size_t size,
				 enum rs_trace_status st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, size, fmt, ap);
	va_end(ap);
	return st;
}

/**
 * rs_trace_open() - an instance with randstat:sample enabled in it
 * @tr: out: the session, for rs_trace_drain() and rs_trace_close()
 * @buffer_kb: the ring buffer's size per CPU (0: the kernel's default)
 * @msg: out: what went wrong, in words
 * @size: @msg's size
 *
 * libtracefs mounts tracefs if it is not (as root).
 *
 * Return: RS_TRACE_OK, or what went wrong (and @msg says it).
 */
enum rs_trace_status rs_trace_open(struct rs_trace **tr, size_t buffer_kb,
				   char *msg, size_t size)
{
	static const char *const systems[] = { "randstat", NULL };
	char name[64];
	struct rs_trace *t;
	enum rs_trace_status st;
	size_t i;

	*tr = NULL;
	if (!tracefs_tracing_dir())
		return fail(msg, size, RS_TRACE_NOTRACEFS,
			    "tracefs is not mounted and could not be mounted: mount -t tracefs nodev /sys/kernel/tracing");
	t = calloc(1, sizeof(*t));
	if (!t)
		return fail(msg, size, RS_TRACE_ERROR, "out of memory");
	t->tep = tracefs_local_events_system(NULL, systems);
	t->ev = t->tep ? tep_find_event_by_name(t->tep, "randstat", "sample") :
			 NULL;
	if (!t->ev) {
		st = fail(msg, size, RS_TRACE_NOEVENT,
			  "the randstat module has no randstat:sample tracepoint (%s/events/randstat/sample): load a build of randstat that has it",
			  tracefs_tracing_dir());
		goto out;
	}
	for (i = 0; i < sizeof(fields) / sizeof(*fields); i++) {
		if (!tep_find_field(t->ev, fields[i])) {
			st = fail(msg, size, RS_TRACE_NOEVENT,
				  "randstat:sample has no field '%s': the module and this reader do not match",
				  fields[i]);
			goto out;
		}
	}
	snprintf(name, sizeof(name), RS_TRACE_PREFIX "%d", (int)getpid());
	t->inst = tracefs_instance_create(name);
	if (!t->inst) {
		st = fail(msg, size, RS_TRACE_ERROR,
			  "cannot create the tracefs instance %s/instances/%s: %s",
			  tracefs_tracing_dir(), name, strerror(errno));
		goto out;
	}
	/* Changing the clock empties the buffer: first. */
	if (tracefs_instance_file_write(t->inst, "trace_clock", "mono") <= 0) {
		st = fail(msg, size, RS_TRACE_ERROR,
			  "cannot set the trace clock of instance %s to mono: %s",
			  name, strerror(errno));
		goto out;
	}
	if (buffer_kb)	/* if refused, the default size will do */
		tracefs_instance_set_buffer_size(t->inst, buffer_kb, -1);
	if (tracefs_event_enable(t->inst, "randstat", "sample")) {
		st = fail(msg, size, RS_TRACE_NOEVENT,
			  "cannot enable randstat:sample in instance %s: %s",
			  name, strerror(errno));
		goto out;
	}
	tracefs_trace_on(t->inst);
	*tr = t;
	return RS_TRACE_OK;
out:
	rs_trace_close(t);
	return st;
}

/* The number in a field of the event. */
static uint64_t num(struct tep_event *ev, struct tep_record *rec,
		    const char *name)
{
	unsigned long long v = 0;

	tep_get_field_val(NULL, ev, name, rec, &v, 0);
	return v;
}

/* A char[] field, copied NUL-terminated into @out. */
static void str(struct tep_event *ev, struct tep_record *rec,
		const char *name, char *out, size_t size)
{
	int len = 0;
	const char *p = tep_get_field_raw(NULL, ev, name, rec, &len, 0);
	size_t n = p && len > 0 ? strnlen(p, len) : 0;

	if (n >= size)
		n = size - 1;
	memcpy(out, p ? p : "", n);
	out[n] = '\0';
}

static int on_record(struct tep_event *ev, struct tep_record *rec, int cpu,
		     void *ctx)
{
	struct rs_trace *t = ctx;
	struct rs_sample s;
	char cls[16];

	(void)cpu;
	if (rec->missed_events > 0)
		t->lost += rec->missed_events;
	else if (rec->missed_events < 0)
		t->lost_unknown = true;
	if (ev->id != t->ev->id)
		return 0;
	memset(&s, 0, sizeof(s));
	s.ts = rec->ts;
	s.cpu = (int)num(ev, rec, "cpu");
	s.pid = (int)num(ev, rec, "pid");
	s.tgid = (int)num(ev, rec, "tgid");
	str(ev, rec, "comm", s.comm, sizeof(s.comm));
	str(ev, rec, "class", cls, sizeof(cls));
	s.cls = rs_class_index(cls, sizeof(cls));
	s.samples = (uint32_t)num(ev, rec, "samples");
	s.weight_ns = num(ev, rec, "weight_ns");
	if (t->fn(&s, t->ctx)) {
		t->failed = 1;
		return 1;
	}
	return 0;
}

/**
 * rs_trace_drain() - pass every event in the buffer to @fn
 * @tr: the session
 * @fn: called with each event, oldest first; non-zero stops
 * @ctx: its context
 * @lost: out: incremented by the events the buffer lost
 * @lost_unknown: out: set if it lost some and does not say how many
 *
 * Return: 0, or -1 if the buffers could not be read or @fn failed.
 */
int rs_trace_drain(struct rs_trace *tr,
		   int (*fn)(const struct rs_sample *s, void *ctx), void *ctx,
		   uint64_t *lost, bool *lost_unknown)
{
	int ret;

	tr->fn = fn;
	tr->ctx = ctx;
	tr->lost = 0;
	tr->lost_unknown = false;
	tr->failed = 0;
	ret = tracefs_iterate_raw_events(tr->tep, tr->inst, NULL, 0,
					 on_record, tr);
	*lost += tr->lost;
	*lost_unknown |= tr->lost_unknown;
	return ret < 0 || tr->failed ? -1 : 0;
}

/* Stop a drain under way (from a signal handler: it only sets a flag). */
void rs_trace_stop(struct rs_trace *tr)
{
	if (tr)
		tracefs_iterate_stop(tr->inst);
}

/* Remove the instance, and free everything. */
void rs_trace_close(struct rs_trace *tr)
{
	if (!tr)
		return;
	if (tr->inst) {
		tracefs_event_disable(tr->inst, "randstat", "sample");
		tracefs_instance_destroy(tr->inst);
		tracefs_instance_free(tr->inst);
	}
	if (tr->tep)
		tep_free(tr->tep);
	free(tr);
}

/*
 * Remove the instances of readers that are gone (killed with SIGKILL, or
 * crashed), which would otherwise keep randstat:sample enabled for good.
 * A reader in another PID namespace sharing this tracefs would look gone
 * too; rmdir refuses while it has the instance's buffers open, and it
 * says so at its next interval (rs_trace_alive()).
 */
void rs_trace_reap(void)
{
	/* a regex both basic and extended */
	char **names = tracefs_instances("^" RS_TRACE_PREFIX "[0-9][0-9]*$");
	struct tracefs_instance *inst;
	int i, pid;

	for (i = 0; names && names[i]; i++) {
		pid = atoi(names[i] + strlen(RS_TRACE_PREFIX));
		if (pid <= 0 || pid == getpid() || !kill(pid, 0) ||
		    errno != ESRCH)
			continue;
		inst = tracefs_instance_alloc(NULL, names[i]);
		if (inst) {
			tracefs_instance_destroy(inst);
			tracefs_instance_free(inst);
		}
	}
	tracefs_list_free(names);
}

/* Is randstat:sample still enabled in the instance (module not reloaded)? */
bool rs_trace_alive(struct rs_trace *tr)
{
	return tracefs_event_is_enabled(tr->inst, "randstat", "sample") ==
	       TRACEFS_ALL_ENABLED;
}

#else /* !RS_HAVE_TRACEFS */

enum rs_trace_status rs_trace_open(struct rs_trace **tr, size_t buffer_kb,
				   char *msg, size_t size)
{
	(void)buffer_kb;
	*tr = NULL;
	snprintf(msg, size, "this randstat was built without libtracefs: apt-get install libtracefs-dev libtraceevent-dev pkg-config, and rebuild it");
	return RS_TRACE_UNSUPPORTED;
}

int rs_trace_drain(struct rs_trace *tr,
		   int (*fn)(const struct rs_sample *s, void *ctx), void *ctx,
		   uint64_t *lost, bool *lost_unknown)
{
	(void)tr, (void)fn, (void)ctx, (void)lost, (void)lost_unknown;
	return -1;
}

void rs_trace_stop(struct rs_trace *tr)
{
	(void)tr;
}

void rs_trace_close(struct rs_trace *tr)
{
	(void)tr;
}

void rs_trace_reap(void)
{
}

bool rs_trace_alive(struct rs_trace *tr)
{
	(void)tr;
	return false;
}

#endif /* RS_HAVE_TRACEFS */
