// SPDX-License-Identifier: GPL-2.0
/*
 * randstat: /proc/randstat, in /proc/stat's own form.
 *
 * The cpu and cpuN lines are exactly those of fs/proc/stat.c (USER_HZ,
 * the same ten columns, "cpu" summed over all possible CPUs, cpuN for
 * online CPUs), so a /proc/stat parser reads them.  The lines after them
 * carry what a statistician needs: full-resolution ns, the raw sample
 * counts and the sampler's own cost.  Documentation/randstat.rst has the
 * format.
 *
 * The times shown are brought up to the sample counts at each read
 * (randstat_estimate()), from the times shown at the read before: they are
 * kept here, one set per CPU, under randstat_shown_lock.
 */
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "params.h"
#include "proc.h"
#include "sampler.h"

/**
 * struct randstat_shown - what /proc/randstat shows of one CPU
 * @c: its counters, as read
 * @ns: its times per class, never falling between reads
 * @state: its sampler's state (enum randstat_state)
 */
struct randstat_shown {
	struct randstat_counters c;
	u64 ns[RS_NR_CLASSES];
	int state;
};

static DEFINE_MUTEX(randstat_shown_lock);
static DEFINE_PER_CPU(u64 [RS_NR_CLASSES], randstat_shown_ns);

static void randstat_put_row(struct seq_file *m, const u64 *v, bool clock_t)
{
	int i;

	for (i = 0; i < RS_NR_CLASSES; i++)
		seq_put_decimal_ull(m, " ", clock_t ?
				    randstat_ns_to_clock_t(v[i]) : v[i]);
	seq_putc(m, '\n');
}

static void randstat_put_hist(struct seq_file *m, const char *name,
			      unsigned int cpu, const u64 *h)
{
	int i;

	seq_printf(m, "%s cpu%u", name, cpu);
	for (i = 0; i < RANDSTAT_HIST_BUCKETS; i++)
		seq_put_decimal_ull(m, " ", h[i]);
	seq_putc(m, '\n');
}

static void randstat_show_cpu(struct seq_file *m, unsigned int cpu,
			      const struct randstat_shown *sh)
{
	const struct randstat_counters *c = &sh->c;

	seq_printf(m, "ns cpu%u", cpu);
	randstat_put_row(m, sh->ns, false);
	seq_printf(m, "samples cpu%u", cpu);
	randstat_put_row(m, c->samples, false);
	seq_printf(m, "exact cpu%u", cpu);
	randstat_put_row(m, c->exact_ns, false);
	seq_printf(m, "sampler cpu%u online %d mode %s dormant %d", cpu,
		   cpu_online(cpu),
		   sh->state == RS_STATE_EXACT ? "exact" : "sampled",
		   sh->state == RS_STATE_DORMANT);
	seq_put_decimal_ull(m, " elapsed_ns ", randstat_elapsed_ns(c));
	seq_put_decimal_ull(m, " sampled_ns ", c->sampled_ns);
	seq_put_decimal_ull(m, " samples ", randstat_total_samples(c));
	seq_put_decimal_ull(m, " overruns ", c->overruns);
	seq_put_decimal_ull(m, " dormancies ", c->dormancies);
	seq_put_decimal_ull(m, " cost_ns ", c->cost_ns);
	seq_put_decimal_ull(m, " cost_max_ns ", c->cost_max_ns);
	seq_put_decimal_ull(m, " late_ns ", c->late_ns);
	seq_put_decimal_ull(m, " late_max_ns ", c->late_max_ns);
	seq_putc(m, '\n');
	randstat_put_hist(m, "cost_hist", cpu, c->cost_hist);
	randstat_put_hist(m, "late_hist", cpu, c->late_hist);
}

static int randstat_show(struct seq_file *m, void *v)
{
	struct randstat_window e = randstat_get_window(RS_LAW_EXPONENTIAL);
	struct randstat_window u = randstat_get_window(RS_LAW_UNIFORM);
	u64 sum[RS_NR_CLASSES] = { 0 };
	struct randstat_shown *cpus;
	enum randstat_law law;
	unsigned int cpu;
	int i;

	randstat_get_law(&law);
	cpus = kvcalloc(nr_cpu_ids, sizeof(*cpus), GFP_KERNEL);
	if (!cpus)
		return -ENOMEM;

	/* One consistent copy per CPU, taken once, so the sums match. */
	mutex_lock(&randstat_shown_lock);
	for_each_possible_cpu(cpu) {
		u64 *shown = *per_cpu_ptr(&randstat_shown_ns, cpu);

		cpus[cpu].state = randstat_read_cpu(cpu, &cpus[cpu].c);
		randstat_estimate(&cpus[cpu].c, shown);
		memcpy(cpus[cpu].ns, shown, sizeof(cpus[cpu].ns));
		for (i = 0; i < RS_NR_CLASSES; i++)
			sum[i] += shown[i];
	}
	mutex_unlock(&randstat_shown_lock);

	seq_printf(m, "randstat %d law %s floor_ns %u mean_ns %u tmin_ns %u tmax_ns %u user_hz %d\n",
		   RANDSTAT_FORMAT_VERSION, randstat_law_names[law], e.lo,
		   e.hi, u.lo, u.hi, USER_HZ);
	seq_puts(m, "cpu ");
	randstat_put_row(m, sum, true);
	for_each_online_cpu(cpu) {
		seq_printf(m, "cpu%u", cpu);
		randstat_put_row(m, cpus[cpu].ns, true);
	}
	seq_puts(m, "hist_bounds_ns");
	for (i = 0; i < RANDSTAT_HIST_BUCKETS; i++)
		seq_put_decimal_ull(m, " ", randstat_hist_lower_bound(i));
	seq_putc(m, '\n');
	for_each_possible_cpu(cpu)
		randstat_show_cpu(m, cpu, &cpus[cpu]);

	kvfree(cpus);
	return 0;
}

static int randstat_open(struct inode *inode, struct file *file)
{
	/* About 1 KiB per CPU. */
	return single_open_size(file, randstat_show, NULL,
				1024 + 1024 * num_possible_cpus());
}

/* The only command: "reset" (a trailing newline allowed), by an admin. */
static ssize_t randstat_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	unsigned int cpu;
	char buf[8];

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (!sysfs_streq(buf, "reset"))
		return -EINVAL;
	mutex_lock(&randstat_shown_lock);
	randstat_reset();
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&randstat_shown_ns, cpu), 0,
		       sizeof(randstat_shown_ns));
	mutex_unlock(&randstat_shown_lock);
	return count;
}

static const struct proc_ops randstat_proc_ops = {
	.proc_open	= randstat_open,
	.proc_read	= seq_read,
	.proc_lseek	= seq_lseek,
	.proc_release	= single_release,
	.proc_write	= randstat_write,
};

static struct proc_dir_entry *randstat_pde;

int randstat_proc_init(void)
{
	randstat_pde = proc_create("randstat", 0444, NULL, &randstat_proc_ops);
	return randstat_pde ? 0 : -ENOMEM;
}

void randstat_proc_exit(void)
{
	proc_remove(randstat_pde);
}
