/* SPDX-License-Identifier: GPL-2.0 */
/*
 * randstat: the randstat:sample trace event, one per expiry of a CPU's
 * sampler (Documentation/admin-guide.rst, "Tracing samples").
 *
 * The kernel's samples/trace_events/ pattern: sampler.c alone defines
 * CREATE_TRACE_POINTS before including this file, and Kbuild adds this
 * directory to its include path for TRACE_INCLUDE_PATH below.  Disabled,
 * trace_sample() is a static branch that is not taken.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM randstat

#if !defined(_RANDSTAT_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _RANDSTAT_TRACE_H

#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "randstat.h"

/* Room for the longest class name, "guest_nice", and its NUL. */
#define RANDSTAT_CLASS_NAME_LEN	12

/**
 * sample - one expiry of a CPU's sampler, after its counters are written
 * @cpu: the sampled CPU (the one the event is emitted on)
 * @p: the interrupted task (current): its pid, tgid and comm
 * @cls: the class the samples were charged to
 * @samples: the samples this expiry counts, 1 + the expiries that passed
 *	before the interrupt was taken
 * @weight_ns: the sampled time this expiry closes, from the previous
 *	expiry counted (or the resume) to the last one counted now: what
 *	randstat_charge() shares out between the classes
 *
 * The class is a string (a fixed array, so the event's layout is the
 * same on every kernel): perf, trace-cmd, bpftrace and the ftrace text
 * interface print it as such.
 */
TRACE_EVENT(sample,
	    TP_PROTO(int cpu, struct task_struct *p, enum randstat_class cls,
		     u32 samples, u64 weight_ns),
	    TP_ARGS(cpu, p, cls, samples, weight_ns),
	    TP_STRUCT__entry(__field(int, cpu)
			     __field(pid_t, pid)
			     __field(pid_t, tgid)
			     __array(char, comm, TASK_COMM_LEN)
			     __array(char, class, RANDSTAT_CLASS_NAME_LEN)
			     __field(u32, samples)
			     __field(u64, weight_ns)),
	    TP_fast_assign(__entry->cpu = cpu;
			   __entry->pid = p->pid;
			   __entry->tgid = p->tgid;
			   memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
			   strscpy_pad(__entry->class, randstat_class_names[cls],
				       RANDSTAT_CLASS_NAME_LEN);
			   __entry->samples = samples;
			   __entry->weight_ns = weight_ns),
	    TP_printk("cpu=%d pid=%d tgid=%d comm=%s class=%s samples=%u weight_ns=%llu",
		      __entry->cpu, __entry->pid, __entry->tgid, __entry->comm,
		      __entry->class, __entry->samples,
		      (unsigned long long)__entry->weight_ns)
);

#endif /* _RANDSTAT_TRACE_H */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE randstat_trace
#include <trace/define_trace.h>
