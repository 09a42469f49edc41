// SPDX-License-Identifier: GPL-2.0
/*
 * randstat: classification of a sampled context.
 *
 * This follows the kernel's tick accounting (kernel/sched/cputime.c,
 * account_process_tick() and account_system_time() without
 * IRQ_TIME_ACCOUNTING) so that randstat and /proc/stat disagree only
 * where sampling does, never in what a class means.
 */
#include <linux/sched.h>
#include <linux/preempt.h>
#include <asm/ptrace.h>

#include "randstat.h"

/* The classes' names: /proc/stat's columns, as the trace event gives them. */
const char *const randstat_class_names[RS_NR_CLASSES] = {
	[RS_USER] = "user",
	[RS_NICE] = "nice",
	[RS_SYSTEM] = "system",
	[RS_IDLE] = "idle",
	[RS_IOWAIT] = "iowait",
	[RS_IRQ] = "irq",
	[RS_SOFTIRQ] = "softirq",
	[RS_STEAL] = "steal",
	[RS_GUEST] = "guest",
	[RS_GUEST_NICE] = "guest_nice",
};

/**
 * randstat_snapshot_fill() - describe the context a sampler interrupted
 * @s: the snapshot to fill; @s->iowait is left false
 * @regs: the interrupted registers (get_irq_regs()), or NULL when the
 *	sampler was not entered from a hardware interrupt: kernel mode
 * @p: the interrupted task (current)
 * @irqs: irq_count() in the sampler
 * @hardirqs: hardirq_count() in the sampler
 * @serving_softirq: in_serving_softirq() in the sampler
 *
 * The sampler runs in its own hardirq, so one HARDIRQ_OFFSET is its own.
 */
void randstat_snapshot_fill(struct randstat_snapshot *s,
			    struct pt_regs *regs,
			    const struct task_struct *p, unsigned long irqs,
			    unsigned long hardirqs, bool serving_softirq)
{
	*s = (struct randstat_snapshot){
		.user_mode = regs && user_mode(regs),
		.vcpu = p->flags & PF_VCPU,
		.idle_task = is_idle_task(p),
		.hardirq_nested = hardirqs != HARDIRQ_OFFSET,
		.irq_nested = irqs != HARDIRQ_OFFSET,
		.serving_softirq = serving_softirq,
		.nice = task_nice(p),
	};
}

/**
 * randstat_classify() - the class a sample is charged to
 * @s: what the sampler saw
 *
 * In order of precedence, as account_process_tick() decides:
 *
 * 1. user mode: nice if task_nice() > 0, else user;
 * 2. PF_VCPU and no irq context but the sampler's own: guest (guest_nice
 *    if nice > 0); the caller also charges user (nice), as /proc/stat does;
 * 3. a hardirq handler was interrupted: irq;
 * 4. serving a softirq: softirq;
 * 5. any other task, or the idle task in any irq, softirq or
 *    bh-disabled context: system;
 * 6. the idle task: iowait if a task of this CPU waits for I/O, else idle.
 *
 * Return: the class.
 */
enum randstat_class randstat_classify(const struct randstat_snapshot *s)
{
	if (s->user_mode)
		return s->nice > 0 ? RS_NICE : RS_USER;
	if (s->vcpu && !s->irq_nested)
		return s->nice > 0 ? RS_GUEST_NICE : RS_GUEST;
	if (s->hardirq_nested)
		return RS_IRQ;
	if (s->serving_softirq)
		return RS_SOFTIRQ;
	if (!s->idle_task || s->irq_nested)
		return RS_SYSTEM;
	return s->iowait ? RS_IOWAIT : RS_IDLE;
}

/**
 * randstat_idle_is_iowait() - did the idle period just ended wait for I/O?
 * @d_idle_us: growth of get_cpu_idle_time_us() since the last idle sample
 * @d_iowait_us: growth of get_cpu_iowait_time_us() over the same span
 * @last: the answer at the last idle sample
 *
 * nr_iowait_cpu() is not exported to modules.  Under NO_HZ the kernel ends
 * the idle period in irq_enter(), before the sampler runs, and adds it to
 * the iowait sleep time if nr_iowait_cpu() > 0 at that moment, else to the
 * idle sleep time.  So the counter that grew tells what nr_iowait_cpu()
 * was when the sample was taken.  If both grew (several idle periods since
 * the last idle sample), the larger share decides; if neither did (the idle
 * task was caught outside its idle window), the last answer stands.
 *
 * Return: true if the sample is iowait.
 */
bool randstat_idle_is_iowait(u64 d_idle_us, u64 d_iowait_us, bool last)
{
	if (d_iowait_us != d_idle_us)
		return d_iowait_us > d_idle_us;
	return last;
}
