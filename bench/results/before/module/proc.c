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
 */
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "sampler.h"

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
			      const struct randstat_counters *c)
{
	seq_printf(m, "ns cpu%u", cpu);
	randstat_put_row(m, c->ns, false);
	seq_printf(m, "samples cpu%u", cpu);
	randstat_put_row(m, c->samples, false);
	seq_printf(m, "sampler cpu%u online %d", cpu, cpu_online(cpu));
	seq_put_decimal_ull(m, " elapsed_ns ", randstat_elapsed_ns(c));
	seq_put_decimal_ull(m, " samples ", randstat_total_samples(c));
	seq_put_decimal_ull(m, " overruns ", c->overruns);
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
	struct randstat_window w = randstat_get_window();
	struct randstat_counters *cpus;
	u64 sum[RS_NR_CLASSES] = { 0 };
	unsigned int cpu;
	int i;

	cpus = kvcalloc(nr_cpu_ids, sizeof(*cpus), GFP_KERNEL);
	if (!cpus)
		return -ENOMEM;

	/* One consistent copy per CPU, taken once, so the sums match. */
	for_each_possible_cpu(cpu) {
		randstat_read_cpu(cpu, &cpus[cpu]);
		for (i = 0; i < RS_NR_CLASSES; i++)
			sum[i] += cpus[cpu].ns[i];
	}

	seq_printf(m, "randstat %d tmin_ns %u tmax_ns %u user_hz %d\n",
		   RANDSTAT_FORMAT_VERSION, w.tmin, w.tmax, USER_HZ);
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
	randstat_reset();
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
