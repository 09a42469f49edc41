// SPDX-License-Identifier: GPL-2.0
/*
 * work SECONDS PERIOD_MS [SWITCH_MS FILE]: a CPU-bound, user-only program
 * whose true work is known, watched from outside.  The paper's section
 * 5.1 (figure 2).
 *
 * A child pinned to cpu1 counts loop iterations into shared memory and
 * never enters the kernel on its own: no system call, no clock read, no
 * page fault after its first pass (it ends by SIGKILL).  The parent,
 * pinned to cpu0, every PERIOD_MS reads, at once, the child's iteration
 * count, its utime and stime from /proc/PID/stat (USER_HZ ticks: the
 * kernel's tick-sampled charge, scaled to its runtime) and its runtime
 * (its CPU-time clock: the scheduler's exact sum_exec_runtime, which
 * without IRQ_TIME_ACCOUNTING includes the interrupts it was current
 * for), and cpu0's and cpu1's NET_RX counts from /proc/softirqs.
 *
 * With SWITCH_MS and FILE, the parent writes "0" and "2" to FILE in turn
 * every SWITCH_MS (a multiple of PERIOD_MS), "0" first, right after a
 * reading: FILE is lo's rps_cpus, and the run alternates between phases
 * without and with the NET_RX work of a flood steered to cpu1, so that
 * the emulator's drifting speed falls alike on both (bench/guest/
 * interf.sh).  One line per reading, after the run (no output during
 * it):
 *
 *   work pid PID clk_tck HZ iters_per_step N
 *   W t_ns T iters I utime U stime S rt_ns R netrx0 A netrx1 B rps P
 *
 * P: what FILE held since the reading before ("-" without FILE).
 * T is CLOCK_MONOTONIC, the clock of the trace's "mono" trace_clock, so
 * the randstat:sample events of the child can be put in the same time
 * bins (bench/guest/bench.sh).  A run with no interference calibrates
 * the time per iteration (bench/analyze.py).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "common.h"

#define STEP 4096	/* iterations between two updates of the count */

struct reading {
	int64_t t, rt;
	unsigned long long iters, netrx0, netrx1;
	long utime, stime;
	int rps;
};

/* NET_RX's first two columns in /proc/softirqs (cpu0, cpu1). */
static void read_netrx(unsigned long long *a, unsigned long long *b)
{
	char line[4096];
	FILE *f = fopen("/proc/softirqs", "r");

	*a = *b = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " NET_RX: %llu %llu", a, b) == 2)
			break;
	fclose(f);
}

static int write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");
	int bad;

	if (!f)
		return -1;
	bad = fputs(s, f) < 0;
	return fclose(f) || bad ? -1 : 0;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("work: sched_setaffinity");
		exit(1);
	}
}

/* Fields 14 and 15 of /proc/PID/stat, after the command's last ')'. */
static int read_stat(const char *path, long *ut, long *st)
{
	char buf[1024], *p;
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	/* ") S ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime" */
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %ld %ld",
			 ut, st) != 2)
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	long secs = arg(argc, argv, 1, 0), period = arg(argc, argv, 2, 250);
	long sw = arg(argc, argv, 3, 0), every = 0;
	const char *file = argc == 5 ? argv[4] : NULL;
	int rps = -1;
	volatile unsigned long long *count;
	struct reading *r;
	char path[64];
	clockid_t clk;
	int64_t t0, next;
	long i, m;
	pid_t pid;

	if ((argc != 3 && argc != 5) || secs <= 0 || period <= 0 ||
	    (file && (sw <= 0 || sw % period))) {
		fprintf(stderr, "usage: work SECONDS PERIOD_MS [SWITCH_MS FILE]\n");
		return 2;
	}
	if (file) {
		every = sw / period;
		if (write_file(file, "0")) {
			perror(file);
			return 1;
		}
		rps = 0;
	}
	count = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	m = secs * 1000 / period + 1;
	r = calloc(m, sizeof(*r));
	if (count == MAP_FAILED || !r) {
		perror("work");
		return 1;
	}
	*count = 0;
	pid = fork();
	if (pid < 0) {
		perror("work: fork");
		return 1;
	}
	if (pid == 0) {
		volatile unsigned long x = 0;
		unsigned long j;

		pin(1);
		prctl(PR_SET_NAME, "work-spin");
		for (;;) {
			for (j = 0; j < STEP; j++)
				x += j;
			__atomic_store_n(count, *count + STEP, __ATOMIC_RELAXED);
		}
	}
	pin(0);
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (clock_getcpuclockid(pid, &clk)) {
		perror("work: clock_getcpuclockid");
		kill(pid, SIGKILL);
		return 1;
	}
	/* the child on cpu1 and counting */
	while (!__atomic_load_n(count, __ATOMIC_RELAXED))
		usleep(1000);
	t0 = now_ns(CLOCK_MONOTONIC);
	for (i = 0, next = t0; i < m; i++, next += period * 1000000L) {
		sleep_until(next);
		r[i].t = now_ns(CLOCK_MONOTONIC);
		r[i].iters = __atomic_load_n(count, __ATOMIC_RELAXED);
		r[i].rt = now_ns(clk);
		if (read_stat(path, &r[i].utime, &r[i].stime)) {
			fprintf(stderr, "work: %s unreadable\n", path);
			kill(pid, SIGKILL);
			return 1;
		}
		read_netrx(&r[i].netrx0, &r[i].netrx1);
		r[i].rps = rps;
		if (file && i > 0 && i % every == 0 && i + 1 < m) {
			rps = rps ? 0 : 2;
			if (write_file(file, rps ? "2" : "0")) {
				perror(file);
				kill(pid, SIGKILL);
				return 1;
			}
		}
	}
	if (file && write_file(file, "0"))
		perror(file);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	printf("work pid %d clk_tck %ld iters_per_step %d\n", pid,
	       sysconf(_SC_CLK_TCK), STEP);
	for (i = 0; i < m; i++) {
		printf("W t_ns %lld iters %llu utime %ld stime %ld rt_ns %lld netrx0 %llu netrx1 %llu rps ",
		       (long long)r[i].t, r[i].iters, r[i].utime, r[i].stime,
		       (long long)r[i].rt, r[i].netrx0, r[i].netrx1);
		if (r[i].rps < 0)
			printf("-\n");
		else
			printf("%d\n", r[i].rps);
	}
	return 0;
}
