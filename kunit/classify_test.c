// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: randstat's classification against the kernel's tick accounting
 * (account_process_tick(), account_system_time()), case by case.
 */
#include <kunit/test.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "randstat.h"

/* Sampler-relative contexts: the sampler's own hardirq is always there. */
#define IN_TIMER	HARDIRQ_OFFSET
#define IN_IRQ		(2 * HARDIRQ_OFFSET)	/* a hardirq was interrupted */

struct classify_case {
	const char *name;
	struct randstat_snapshot s;
	enum randstat_class want;
};

static const struct classify_case classify_cases[] = {
	/* Each of the ten classes (steal is never sampled: see below). */
	{ "user", { .user_mode = true }, RS_USER },
	{ "nice", { .user_mode = true, .nice = 10 }, RS_NICE },
	{ "system", { }, RS_SYSTEM },
	{ "idle", { .idle_task = true }, RS_IDLE },
	{ "iowait", { .idle_task = true, .iowait = true }, RS_IOWAIT },
	{ "irq", { .hardirq_nested = true, .irq_nested = true }, RS_IRQ },
	{ "softirq", { .serving_softirq = true, .irq_nested = true },
	  RS_SOFTIRQ },
	{ "guest", { .vcpu = true }, RS_GUEST },
	{ "guest_nice", { .vcpu = true, .nice = 1 }, RS_GUEST_NICE },
	/* nice 0 is user, nice 1 is nice, negative nice is user. */
	{ "nice 0", { .user_mode = true, .nice = 0 }, RS_USER },
	{ "nice 1", { .user_mode = true, .nice = 1 }, RS_NICE },
	{ "nice -20", { .user_mode = true, .nice = -20 }, RS_USER },
	{ "nice 19", { .user_mode = true, .nice = 19 }, RS_NICE },
	/* User mode wins over everything: the tick charges it as user. */
	{ "user in vcpu task", { .user_mode = true, .vcpu = true }, RS_USER },
	/* Guest needs no irq context but the sampler's own. */
	{ "irq inside guest", { .vcpu = true, .hardirq_nested = true,
				.irq_nested = true }, RS_IRQ },
	{ "softirq inside guest", { .vcpu = true, .serving_softirq = true,
				    .irq_nested = true }, RS_SOFTIRQ },
	{ "bh-disabled guest", { .vcpu = true, .irq_nested = true },
	  RS_SYSTEM },
	{ "guest nice 0", { .vcpu = true, .nice = 0 }, RS_GUEST },
	/* A hardirq beats a softirq it interrupted. */
	{ "irq inside softirq", { .hardirq_nested = true,
				  .serving_softirq = true,
				  .irq_nested = true }, RS_IRQ },
	/* Softirq versus system: only serving a softirq is softirq. */
	{ "bh-disabled task", { .irq_nested = true }, RS_SYSTEM },
	{ "softirq in task", { .serving_softirq = true, .irq_nested = true },
	  RS_SOFTIRQ },
	/* The idle task in any irq context is not idle. */
	{ "idle in irq", { .idle_task = true, .hardirq_nested = true,
			   .irq_nested = true }, RS_IRQ },
	{ "idle in softirq", { .idle_task = true, .serving_softirq = true,
			       .irq_nested = true }, RS_SOFTIRQ },
	{ "idle bh-disabled", { .idle_task = true, .irq_nested = true },
	  RS_SYSTEM },
	{ "idle in irq, iowait", { .idle_task = true, .iowait = true,
				   .hardirq_nested = true,
				   .irq_nested = true }, RS_IRQ },
	/* iowait means nothing for a task that is not idle. */
	{ "iowait flag on a task", { .iowait = true }, RS_SYSTEM },
	/* A nice kernel thread in the kernel is system, not nice. */
	{ "nice kernel", { .nice = 19 }, RS_SYSTEM },
};

static void classify_case_desc(const struct classify_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(classify, classify_cases, classify_case_desc);

static void classify_test(struct kunit *test)
{
	const struct classify_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, randstat_classify(&c->s), c->want);
}

/* Nothing a sample can see is steal: it comes from the kernel. */
static void classify_never_steal_test(struct kunit *test)
{
	struct randstat_snapshot s;
	unsigned int bits;

	for (bits = 0; bits < 256; bits++) {
		s = (struct randstat_snapshot){
			.user_mode = bits & 1, .vcpu = bits & 2,
			.idle_task = bits & 4, .hardirq_nested = bits & 8,
			.irq_nested = bits & 16, .serving_softirq = bits & 32,
			.iowait = bits & 64, .nice = bits & 128 ? 5 : 0,
		};
		KUNIT_EXPECT_NE(test, randstat_classify(&s), RS_STEAL);
		KUNIT_EXPECT_LT(test, randstat_classify(&s), RS_NR_CLASSES);
	}
}

static struct task_struct *fake_task(struct kunit *test, unsigned int flags,
				     int nice)
{
	struct task_struct *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	p->flags = flags;
	p->static_prio = NICE_TO_PRIO(nice);
	return p;
}

/* NULL regs (not entered from a hardware interrupt) is kernel mode. */
static void snapshot_null_regs_test(struct kunit *test)
{
	struct randstat_snapshot s = { .user_mode = true, .iowait = true };

	randstat_snapshot_fill(&s, NULL, fake_task(test, 0, 0), IN_TIMER,
			       IN_TIMER, false);
	KUNIT_EXPECT_FALSE(test, s.user_mode);
	KUNIT_EXPECT_FALSE(test, s.iowait);
	KUNIT_EXPECT_EQ(test, randstat_classify(&s), RS_SYSTEM);
}

/* Zeroed registers are kernel mode on x86 (CS = 0) and on UML. */
static void snapshot_kernel_regs_test(struct kunit *test)
{
	struct pt_regs *regs = kunit_kzalloc(test, sizeof(*regs), GFP_KERNEL);
	struct randstat_snapshot s;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, regs);
	randstat_snapshot_fill(&s, regs, fake_task(test, PF_IDLE, 0), IN_TIMER,
			       IN_TIMER, false);
	KUNIT_EXPECT_FALSE(test, s.user_mode);
	KUNIT_EXPECT_EQ(test, randstat_classify(&s), RS_IDLE);
}

/* The sampler's own HARDIRQ_OFFSET is not a nested interrupt. */
static void snapshot_irq_counts_test(struct kunit *test)
{
	struct task_struct *p = fake_task(test, PF_VCPU, 3);
	struct randstat_snapshot s;

	randstat_snapshot_fill(&s, NULL, p, IN_TIMER, IN_TIMER, false);
	KUNIT_EXPECT_FALSE(test, s.hardirq_nested);
	KUNIT_EXPECT_FALSE(test, s.irq_nested);
	KUNIT_EXPECT_TRUE(test, s.vcpu);
	KUNIT_EXPECT_EQ(test, s.nice, 3);
	KUNIT_EXPECT_EQ(test, randstat_classify(&s), RS_GUEST_NICE);

	randstat_snapshot_fill(&s, NULL, p, IN_IRQ, IN_IRQ, false);
	KUNIT_EXPECT_TRUE(test, s.hardirq_nested);
	KUNIT_EXPECT_TRUE(test, s.irq_nested);
	KUNIT_EXPECT_EQ(test, randstat_classify(&s), RS_IRQ);

	randstat_snapshot_fill(&s, NULL, p, IN_TIMER + SOFTIRQ_OFFSET,
			       IN_TIMER, true);
	KUNIT_EXPECT_FALSE(test, s.hardirq_nested);
	KUNIT_EXPECT_TRUE(test, s.irq_nested);
	KUNIT_EXPECT_EQ(test, randstat_classify(&s), RS_SOFTIRQ);

	/* local_bh_disable() in the idle task: system, as the tick says. */
	randstat_snapshot_fill(&s, NULL, fake_task(test, PF_IDLE, 0),
			       IN_TIMER + SOFTIRQ_DISABLE_OFFSET, IN_TIMER,
			       false);
	KUNIT_EXPECT_TRUE(test, s.idle_task);
	KUNIT_EXPECT_EQ(test, randstat_classify(&s), RS_SYSTEM);
}

static void idle_is_iowait_test(struct kunit *test)
{
	/* Only one counter grew: it tells. */
	KUNIT_EXPECT_TRUE(test, randstat_idle_is_iowait(0, 1, false));
	KUNIT_EXPECT_FALSE(test, randstat_idle_is_iowait(1, 0, true));
	/* Both grew: the larger share decides. */
	KUNIT_EXPECT_TRUE(test, randstat_idle_is_iowait(100, 3000, false));
	KUNIT_EXPECT_FALSE(test, randstat_idle_is_iowait(3000, 100, true));
	/* Neither grew (or a tie): the last answer stands. */
	KUNIT_EXPECT_TRUE(test, randstat_idle_is_iowait(0, 0, true));
	KUNIT_EXPECT_FALSE(test, randstat_idle_is_iowait(0, 0, false));
	KUNIT_EXPECT_TRUE(test, randstat_idle_is_iowait(7, 7, true));
}

/*
 * The classes' names are /proc/stat's column names, in its order, and
 * each fits the trace event's 12-byte class field with its NUL.
 */
static void class_names_test(struct kunit *test)
{
	static const char *const want[RS_NR_CLASSES] = {
		"user", "nice", "system", "idle", "iowait", "irq", "softirq",
		"steal", "guest", "guest_nice",
	};
	int k;

	for (k = 0; k < RS_NR_CLASSES; k++) {
		KUNIT_ASSERT_NOT_NULL(test, randstat_class_names[k]);
		KUNIT_EXPECT_STREQ(test, randstat_class_names[k], want[k]);
		KUNIT_EXPECT_LT(test, strlen(randstat_class_names[k]), 12);
	}
}

static struct kunit_case randstat_classify_cases[] = {
	KUNIT_CASE_PARAM(classify_test, classify_gen_params),
	KUNIT_CASE(classify_never_steal_test),
	KUNIT_CASE(snapshot_null_regs_test),
	KUNIT_CASE(snapshot_kernel_regs_test),
	KUNIT_CASE(snapshot_irq_counts_test),
	KUNIT_CASE(idle_is_iowait_test),
	KUNIT_CASE(class_names_test),
	{}
};

static struct kunit_suite randstat_classify_suite = {
	.name = "randstat_classify",
	.test_cases = randstat_classify_cases,
};

kunit_test_suite(randstat_classify_suite);

/* One MODULE_LICENSE for the test module (this file, the first linked). */
MODULE_LICENSE("GPL");
