// SPDX-License-Identifier: GPL-2.0
/*
 * randstat: /proc/randstat, in /proc/stat's own form, /proc/randstat_detail
 * and /proc/randstat_hist.
 *
 * /proc/randstat's cpu and cpuN lines are exactly those of fs/proc/stat.c
 * (USER_HZ, the same ten columns, "cpu" summed over all possible CPUs,
 * cpuN for online CPUs), so a /proc/stat parser reads them, at about
 * /proc/stat's cost per CPU.  /proc/randstat_detail has the same lines and
 * after them what a statistician needs: per CPU, full-resolution ns, the
 * raw sample counts, the exact times and the sampler's state and own
 * cost, four lines more per CPU (the reader's error bars come from
 * them).  The sampler's cost and lateness histograms are in
 * /proc/randstat_hist.  Documentation/admin-guide.rst has the formats.
 *
 * What a read shows of a CPU is a copy of what its sampler left
 * (randstat_read_cpu(): the times shown, which each of the CPU's charges
 * brings up, and what a dormant or exact CPU owes up to now), so no read
 * changes what another shows: the only state a reader keeps is its own
 * open file's, what it showed last (struct randstat_reader), so that
 * what it shows never falls where the kernel's figures do
 * (randstat_keep_shown()).  A reset zeroes the counters of every CPU at
 * once, under randstat_reset_sem's write side (readers take its per-CPU,
 * cheap, read side), and moves randstat_resets on, so that an open file
 * starts again from zero.
 */
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/percpu.h>
#include <linux/percpu-rwsem.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "params.h"
#include "proc.h"
#include "sampler.h"

/**
 * struct randstat_row - what one read shows of one CPU
 * @ns: its times per class (and, until the next read, what it showed)
 * @samples: its sample counts
 * @exact_ns: its exact times (and what it showed)
 * @elapsed_ns: the time its counters cover
 * @sampled_ns: the time its samples share
 * @nsamples: its samples in all
 * @overruns: see struct randstat_counters
 * @dormancies: see struct randstat_counters
 * @cost_ns: see struct randstat_counters
 * @cost_max_ns: see struct randstat_counters
 * @late_ns: see struct randstat_counters
 * @late_max_ns: see struct randstat_counters
 * @state: its sampler's state (enum randstat_state)
 */
struct randstat_row {
	u64 ns[RS_NR_CLASSES];
	u64 samples[RS_NR_CLASSES];
	u64 exact_ns[RS_NR_CLASSES];
	u64 elapsed_ns;
	u64 sampled_ns;
	u64 nsamples;
	u64 overruns;
	u64 dormancies;
	u64 cost_ns;
	u64 cost_max_ns;
	u64 late_ns;
	u64 late_max_ns;
	int state;
};

/**
 * struct randstat_reader - one open file's own state
 * @resets: randstat_resets when @rows were shown
 * @rows: per possible CPU, what the last read showed
 */
struct randstat_reader {
	unsigned long resets;
	struct randstat_row rows[];
};

DEFINE_STATIC_PERCPU_RWSEM(randstat_reset_sem);
/* Resets so far; written under randstat_reset_sem's write side. */
static unsigned long randstat_resets;

static void randstat_put_row(struct seq_file *m, const u64 *v, bool clock_t)
{
	int i;

	for (i = 0; i < RS_NR_CLASSES; i++)
		seq_put_decimal_ull(m, " ", clock_t ?
				    randstat_ns_to_clock_t(v[i]) : v[i]);
	seq_putc(m, '\n');
}

/* "NAME cpuN", without seq_printf()'s parsing of a format. */
static void randstat_put_name(struct seq_file *m, const char *name,
			      unsigned int cpu)
{
	seq_puts(m, name);
	seq_put_decimal_ull(m, " cpu", cpu);
}

static void randstat_show_cpu(struct seq_file *m, unsigned int cpu,
			      const struct randstat_row *r)
{
	randstat_put_name(m, "ns", cpu);
	randstat_put_row(m, r->ns, false);
	randstat_put_name(m, "samples", cpu);
	randstat_put_row(m, r->samples, false);
	randstat_put_name(m, "exact", cpu);
	randstat_put_row(m, r->exact_ns, false);
	randstat_put_name(m, "sampler", cpu);
	seq_puts(m, cpu_online(cpu) ? " online 1" : " online 0");
	seq_puts(m, r->state == RS_STATE_EXACT ? " mode exact" :
		 " mode sampled");
	seq_puts(m, r->state == RS_STATE_DORMANT ? " dormant 1" :
		 " dormant 0");
	seq_put_decimal_ull(m, " elapsed_ns ", r->elapsed_ns);
	seq_put_decimal_ull(m, " sampled_ns ", r->sampled_ns);
	seq_put_decimal_ull(m, " samples ", r->nsamples);
	seq_put_decimal_ull(m, " overruns ", r->overruns);
	seq_put_decimal_ull(m, " dormancies ", r->dormancies);
	seq_put_decimal_ull(m, " cost_ns ", r->cost_ns);
	seq_put_decimal_ull(m, " cost_max_ns ", r->cost_max_ns);
	seq_put_decimal_ull(m, " late_ns ", r->late_ns);
	seq_put_decimal_ull(m, " late_max_ns ", r->late_max_ns);
	seq_putc(m, '\n');
}

/*
 * randstat_take() - read one CPU: a copy of what its sampler left, and
 * what this reader showed of it last, brought up to that.  Called with
 * randstat_reset_sem read-held.
 */
static void randstat_take(unsigned int cpu, struct randstat_row *r)
{
	struct randstat_counters c;

	r->state = randstat_read_cpu(cpu, &c);
	randstat_keep_shown(c.shown_ns, r->ns);
	randstat_keep_shown(c.exact_ns, r->exact_ns);
	memcpy(r->samples, c.samples, sizeof(r->samples));
	r->elapsed_ns = randstat_elapsed_ns(&c);
	r->sampled_ns = c.sampled_ns;
	r->nsamples = randstat_total_samples(&c);
	r->overruns = c.overruns;
	r->dormancies = c.dormancies;
	r->cost_ns = c.cost_ns;
	r->cost_max_ns = c.cost_max_ns;
	r->late_ns = c.late_ns;
	r->late_max_ns = c.late_max_ns;
}

/*
 * The header, the cpu line and the cpuN lines, from one copy of each
 * CPU (randstat_take()), so that the sums match; @rows keeps the copies.
 */
static void randstat_show_times(struct seq_file *m,
				struct randstat_reader *rd)
{
	struct randstat_row *rows = rd->rows;
	struct randstat_window e = randstat_get_window(RS_LAW_EXPONENTIAL);
	struct randstat_window u = randstat_get_window(RS_LAW_UNIFORM);
	u64 sum[RS_NR_CLASSES] = { 0 };
	enum randstat_law law;
	unsigned int cpu, start;
	int i;

	randstat_get_law(&law);
	/*
	 * From this CPU on: readers on other CPUs start elsewhere, and rarely
	 * wait.  for_each_cpu_wrap() evaluates its start at every step, and a
	 * preemptible reader may move to another CPU between two: the start
	 * is read once, or the walk can end before it has taken every CPU.
	 */
	start = raw_smp_processor_id();
	percpu_down_read(&randstat_reset_sem);
	if (rd->resets != READ_ONCE(randstat_resets)) {
		memset(rows, 0, nr_cpu_ids * sizeof(*rows));
		rd->resets = READ_ONCE(randstat_resets);
	}
	for_each_cpu_wrap(cpu, cpu_possible_mask, start)
		randstat_take(cpu, &rows[cpu]);
	percpu_up_read(&randstat_reset_sem);

	for_each_possible_cpu(cpu)
		for (i = 0; i < RS_NR_CLASSES; i++)
			sum[i] += rows[cpu].ns[i];
	seq_printf(m, "randstat %d law %s floor_ns %u mean_ns %u tmin_ns %u tmax_ns %u user_hz %d\n",
		   RANDSTAT_FORMAT_VERSION, randstat_law_names[law], e.lo,
		   e.hi, u.lo, u.hi, USER_HZ);
	seq_puts(m, "cpu ");
	randstat_put_row(m, sum, true);
	for_each_online_cpu(cpu) {
		seq_put_decimal_ull(m, "cpu", cpu);
		randstat_put_row(m, rows[cpu].ns, true);
	}
}

/* /proc/randstat: /proc/stat's lines alone. */
static int randstat_show(struct seq_file *m, void *v)
{
	randstat_show_times(m, m->private);
	return 0;
}

/* /proc/randstat_detail: the same lines, then four per CPU of its own. */
static int randstat_detail_show(struct seq_file *m, void *v)
{
	struct randstat_reader *rd = m->private;
	unsigned int cpu;

	randstat_show_times(m, rd);
	for_each_possible_cpu(cpu)
		randstat_show_cpu(m, cpu, &rd->rows[cpu]);
	return 0;
}

static void randstat_put_hist(struct seq_file *m, const char *name,
			      unsigned int cpu, const u64 *h)
{
	int i;

	randstat_put_name(m, name, cpu);
	for (i = 0; i < RANDSTAT_HIST_BUCKETS; i++)
		seq_put_decimal_ull(m, " ", h[i]);
	seq_putc(m, '\n');
}

/* /proc/randstat_hist: the histograms alone; no times shown move. */
static int randstat_hist_show(struct seq_file *m, void *v)
{
	struct randstat_hists h;
	unsigned int cpu;
	int i;

	seq_put_decimal_ull(m, "randstat_hist ", RANDSTAT_FORMAT_VERSION);
	seq_puts(m, "\nhist_bounds_ns");
	for (i = 0; i < RANDSTAT_HIST_BUCKETS; i++)
		seq_put_decimal_ull(m, " ", randstat_hist_lower_bound(i));
	seq_putc(m, '\n');
	for_each_possible_cpu(cpu) {
		randstat_read_hist(cpu, &h);
		randstat_put_hist(m, "cost_hist", cpu, h.cost);
		randstat_put_hist(m, "late_hist", cpu, h.late);
	}
	return 0;
}

static int randstat_hist_open(struct inode *inode, struct file *file)
{
	return single_open_size(file, randstat_hist_show, NULL,
				1024 + 768 * num_possible_cpus());
}

/*
 * An open file of /proc/randstat or /proc/randstat_detail: seq_file's
 * buffer, of @size, and the reader's own rows, both for as long as it is
 * open, so that a read allocates nothing.
 */
static int randstat_open_reader(struct file *file,
				int (*show)(struct seq_file *, void *),
				size_t size)
{
	struct randstat_reader *rd;
	int ret;

	rd = kvzalloc(struct_size(rd, rows, nr_cpu_ids), GFP_KERNEL);
	if (!rd)
		return -ENOMEM;
	rd->resets = READ_ONCE(randstat_resets);
	ret = single_open_size(file, show, rd, size);
	if (ret)
		kvfree(rd);
	return ret;
}

static int randstat_open(struct inode *inode, struct file *file)
{
	/* A cpuN line is at most 5 + 10 * 21 bytes. */
	return randstat_open_reader(file, randstat_show,
				    1024 + 256 * num_possible_cpus());
}

static int randstat_detail_open(struct inode *inode, struct file *file)
{
	/* Five lines of at most ~900 bytes per CPU. */
	return randstat_open_reader(file, randstat_detail_show,
				    1024 + 1024 * num_possible_cpus());
}

static int randstat_release_reader(struct inode *inode, struct file *file)
{
	kvfree(((struct seq_file *)file->private_data)->private);
	return single_release(inode, file);
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
	/* No read in between: it sees every CPU before or every CPU after. */
	percpu_down_write(&randstat_reset_sem);
	randstat_reset();
	WRITE_ONCE(randstat_resets, randstat_resets + 1);
	percpu_up_write(&randstat_reset_sem);
	return count;
}

static const struct proc_ops randstat_proc_ops = {
	.proc_open	= randstat_open,
	.proc_read	= seq_read,
	.proc_lseek	= seq_lseek,
	.proc_release	= randstat_release_reader,
	.proc_write	= randstat_write,
};

static const struct proc_ops randstat_detail_proc_ops = {
	.proc_open	= randstat_detail_open,
	.proc_read	= seq_read,
	.proc_lseek	= seq_lseek,
	.proc_release	= randstat_release_reader,
};

static const struct proc_ops randstat_hist_proc_ops = {
	.proc_open	= randstat_hist_open,
	.proc_read	= seq_read,
	.proc_lseek	= seq_lseek,
	.proc_release	= single_release,
};

static struct proc_dir_entry *randstat_pde, *randstat_detail_pde,
			     *randstat_hist_pde;

int randstat_proc_init(void)
{
	randstat_pde = proc_create("randstat", 0444, NULL, &randstat_proc_ops);
	if (!randstat_pde)
		goto err;
	randstat_detail_pde = proc_create("randstat_detail", 0444, NULL,
					  &randstat_detail_proc_ops);
	if (!randstat_detail_pde)
		goto err;
	randstat_hist_pde = proc_create("randstat_hist", 0444, NULL,
					&randstat_hist_proc_ops);
	if (!randstat_hist_pde)
		goto err;
	return 0;
err:
	randstat_proc_exit();
	return -ENOMEM;
}

void randstat_proc_exit(void)
{
	proc_remove(randstat_hist_pde);
	proc_remove(randstat_detail_pde);
	proc_remove(randstat_pde);
}
