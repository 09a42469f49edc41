// SPDX-License-Identifier: GPL-2.0
/*
 * randstat cgroup: count randstat:sample events per (cgroup v2 id, class).
 *
 * The event fires in the sampler's hardirq on the sampled CPU, so current
 * is the interrupted task and bpf_get_current_cgroup_id() its cgroup.
 * Samples of idle, iowait, irq and softirq are kept under RSCG_NOBODY:
 * an interrupt is no work of the task it happened to interrupt.
 *
 * Two ways in, one counter (count()):
 *  - rscg_raw: a raw tracepoint; the arguments of trace_sample() (cpu,
 *    task, class as the module's enum, samples, weight_ns) with no trace
 *    record written.  The cheaper one, tried first.
 *  - rscg_tp: the classic tracepoint, the record of
 *    /sys/kernel/tracing/events/randstat/sample/format (struct
 *    rscg_sample_rec below, by hand: the module has no BTF), the class as
 *    its name.  The fallback.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "rscg.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, RSCG_MAX_ENTRIES_DEFAULT);	/* the reader may set it */
	__type(key, struct rscg_key);
	__type(value, __u64);
} rscg_counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, RSCG_NLOST);
	__type(key, __u32);
	__type(value, __u64);
} rscg_lost SEC(".maps");

static __always_inline void lost(__u32 why, __u64 n)
{
	__u64 *v = bpf_map_lookup_elem(&rscg_lost, &why);

	if (v)
		*v += n;
}

/*
 * Add @n samples of class @cls.  Per-CPU values and a hardirq that does
 * not nest in itself: a plain add is safe.  A key inserted by another CPU
 * between our lookup and update is -EEXIST: look it up again.
 */
static __always_inline void count(__u32 cls, __u64 n)
{
	struct rscg_key key = { .cls = cls };
	__u32 errno_slot;
	__u64 *v;
	int err;

	if (cls >= RSCG_NCLASSES) {
		lost(RSCG_LOST_CLASS, n);
		return;
	}
	switch (cls) {
	case RSCG_IDLE:
	case RSCG_IOWAIT:
	case RSCG_IRQ:
	case RSCG_SOFTIRQ:
		key.cgid = RSCG_NOBODY;
		break;
	default:
		key.cgid = bpf_get_current_cgroup_id();
	}
	v = bpf_map_lookup_elem(&rscg_counts, &key);
	if (v) {
		*v += n;
		return;
	}
	/*
	 * int: 6.1's map_update_elem op returns int, and the verifier calls
	 * it directly, so the upper half of the 64-bit result is not the
	 * sign (-E2BIG came back as 0xfffffff9).
	 */
	err = (int)bpf_map_update_elem(&rscg_counts, &key, &n, BPF_NOEXIST);
	if (!err)
		return;
	if (err == -17 /* EEXIST */) {
		v = bpf_map_lookup_elem(&rscg_counts, &key);
		if (v) {
			*v += n;
			return;
		}
	}
	if (err == -7 /* E2BIG: no free element */) {
		lost(RSCG_LOST_FULL, n);
		return;
	}
	lost(RSCG_LOST_OTHER, n);
	errno_slot = RSCG_LOST_ERRNO;
	v = bpf_map_lookup_elem(&rscg_lost, &errno_slot);
	if (v)
		*v = -err;
}

/* trace_sample(int cpu, struct task_struct *p, enum randstat_class cls,
 *		u32 samples, u64 weight_ns)
 */
SEC("raw_tp/sample")
int rscg_raw(struct bpf_raw_tracepoint_args *ctx)
{
	count((__u32)ctx->args[2], (__u32)ctx->args[3]);
	return 0;
}

/* The record, as .../events/randstat/sample/format lays it out. */
struct rscg_sample_rec {
	__u16 common_type;
	__u8 common_flags;
	__u8 common_preempt_count;
	__s32 common_pid;
	__s32 cpu;		/* offset 8 */
	__s32 pid;		/* 12 */
	__s32 tgid;		/* 16 */
	char comm[16];		/* 20 */
	char cls[12];		/* 36: "class" */
	__u32 samples;		/* 48 */
	__u64 weight_ns;	/* 56 */
};

/* The class index of its name (randstat_class_names), or RSCG_NCLASSES. */
static __always_inline __u32 class_of(const char *c)
{
	switch (c[0]) {
	case 'u': return RSCG_USER;
	case 'n': return RSCG_NICE;
	case 'i':
		return c[1] == 'd' ? RSCG_IDLE : c[1] == 'o' ? RSCG_IOWAIT :
		       c[1] == 'r' ? RSCG_IRQ : RSCG_NCLASSES;
	case 's':
		return c[1] == 'y' ? RSCG_SYSTEM : c[1] == 'o' ? RSCG_SOFTIRQ :
		       c[1] == 't' ? RSCG_STEAL : RSCG_NCLASSES;
	case 'g': return c[5] == '_' ? RSCG_GUEST_NICE : RSCG_GUEST;
	}
	return RSCG_NCLASSES;
}

SEC("tracepoint/randstat/sample")
int rscg_tp(struct rscg_sample_rec *rec)
{
	count(class_of(rec->cls), rec->samples);
	return 0;
}
