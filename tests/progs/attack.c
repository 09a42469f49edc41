// SPDX-License-Identifier: GPL-2.0
/*
 * attack MODE SECS BURST_US [POLL_US]: a process that tries to use cpu1 without
 * being charged for it, and its control (Documentation/design.rst,
 * "Threat model").  Runs as any user: it needs only to read
 * /proc/randstat, which is world-readable.
 *
 * Two processes.  The watcher, on cpu0, reads /proc/randstat every
 * POLL_US (default 20; 0: as fast as it can).  (Under QEMU's
 * single-threaded TCG one host thread runs both vCPUs, and a vCPU0 that
 * never sleeps delays vCPU1's timer interrupts by up to a millisecond,
 * which only makes the watcher see samples later; on hardware it would
 * not.)  The hog, on cpu1, sleeps in read(2) on a pipe until the watcher
 * writes to it, then spins in user mode until a deadline the watcher set,
 * then sleeps again.
 *
 *   MODE sample   the attack.  Each time cpu1's sample count grows, the
 *                 watcher learns when that sample was taken: the line
 *                 "sampler cpu1 ... elapsed_ns E" gives E, the time from
 *                 cpu1's sampler start to its last expiry, and the least
 *                 (now - E) seen so far estimates the start.  It wakes the
 *                 hog to run until BURST_US after the sample: under
 *                 law=uniform no sample can come within tmin_ns of the
 *                 last one, so a burst shorter than tmin is never seen.
 *   MODE random   the control, of the same shape: the same watcher
 *                 reading the same file as often, the same pipe, the same
 *                 burst (until BURST_US after a trigger), but triggers at
 *                 times of its own, a Poisson process of the sampler's
 *                 mean rate, independent of the samples.
 *
 * Prints one line:
 *   attack MODE hog_cpu_ns C hog_utime_ns U hog_stime_ns K wall_ns W
 *          bursts B polls P samples_seen S late_bursts L detect_us D
 *          resumes R
 * hog_cpu_ns is the hog's own CPU time (CLOCK_PROCESS_CPUTIME_ID, exact,
 * user and kernel, interrupts it took included); hog_utime_ns and
 * hog_stime_ns its getrusage() split, which the kernel samples at its tick
 * except on a nohz_full CPU, where vtime measures it at every kernel entry
 * and exit; late_bursts counts triggers whose deadline had passed
 * before the watcher saw them (no burst); detect_us is the mean time from
 * a sample (as estimated) to the watcher's seeing it; resumes counts the
 * bursts started because cpu1 was dormant.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

struct shared {
	volatile unsigned long long deadline;	/* CLOCK_MONOTONIC ns */
	volatile int stop;
	unsigned long long hog_cpu_ns;
	unsigned long long hog_utime_ns;
	unsigned long long hog_stime_ns;
};

static void hog(struct shared *sh, int rfd)
{
	struct rusage ru;
	char buf[256];
	unsigned long long c0;
	volatile unsigned long x = 0;
	int i;

	pin(1);
	c0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
	while (!sh->stop) {
		if (read(rfd, buf, sizeof(buf)) <= 0 && errno != EINTR)
			break;
		while (!sh->stop && now_ns(CLOCK_MONOTONIC) < sh->deadline)
			for (i = 0; i < 256; i++)
				x += i;
	}
	sh->hog_cpu_ns = now_ns(CLOCK_PROCESS_CPUTIME_ID) - c0;
	if (!getrusage(RUSAGE_SELF, &ru)) {
		sh->hog_utime_ns = ru.ru_utime.tv_sec * 1000000000ULL +
				   ru.ru_utime.tv_usec * 1000ULL;
		sh->hog_stime_ns = ru.ru_stime.tv_sec * 1000000000ULL +
				   ru.ru_stime.tv_usec * 1000ULL;
	}
	exit(0);
}

/*
 * From a /proc/randstat read: cpu1's elapsed_ns and samples, whether it
 * is dormant, mean_ns.
 */
static int parse(const char *buf, unsigned long long *el,
		 unsigned long long *n, int *dormant, double *mean)
{
	const char *p = strstr(buf, "sampler cpu1 ");
	char law[16];
	unsigned long long fl, mn, tmin, tmax;

	if (sscanf(buf, "randstat %*d law %15s floor_ns %llu mean_ns %llu tmin_ns %llu tmax_ns %llu",
		   law, &fl, &mn, &tmin, &tmax) != 5 || !p)
		return -1;
	*mean = strcmp(law, "uniform") ? mn : (tmin + tmax) / 2.0;
	*dormant = strncmp(p, "sampler cpu1 online 1 mode sampled dormant 1 ", 45) == 0;
	p = strstr(p, " elapsed_ns ");
	if (!p || sscanf(p, " elapsed_ns %llu sampled_ns %*u samples %llu", el, n) != 2)
		return -1;
	return 0;
}

/* An exponential draw of mean @mean, ns (the control's schedule). */
static double expo(double mean)
{
	return -mean * log((random() + 1.0) / 2147483648.0);
}

int main(int argc, char **argv)
{
	unsigned long long dur, t0, now, el, n, last_n = 0, polls = 0;
	unsigned long long seen = 0, bursts = 0, late = 0, detect = 0;
	long long offset = INT64_MAX;
	double mean = 0, next = 0;
	static char buf[65536];
	struct shared *sh;
	int fd, pfd[2], sample_mode, dormant = 0;
	unsigned long long resumes = 0;
	long burst, poll_ns;
	struct timespec pause;
	ssize_t len;
	pid_t pid;

	if (argc < 4 || argc > 5 ||
	    (strcmp(argv[1], "sample") && strcmp(argv[1], "random"))) {
		fprintf(stderr, "usage: attack sample|random SECS BURST_US [POLL_US]\n");
		return 2;
	}
	poll_ns = (argc == 5 ? strtol(argv[4], NULL, 10) : 20) * 1000;
	sample_mode = !strcmp(argv[1], "sample");
	dur = secs_arg(argv[2], "attack");
	burst = strtol(argv[3], NULL, 10) * 1000;
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	fd = open("/proc/randstat_detail", O_RDONLY);
	if (sh == MAP_FAILED || fd < 0 || pipe(pfd) || burst <= 0) {
		perror("attack: setup");
		return 1;
	}
	pid = fork();
	if (pid == 0) {
		close(pfd[1]);
		hog(sh, pfd[0]);
	}
	close(pfd[0]);
	pin(0);
	srandom(now_ns(CLOCK_MONOTONIC) ^ getpid());
	t0 = now_ns(CLOCK_MONOTONIC);
	pause.tv_sec = 0;
	pause.tv_nsec = poll_ns;
	while ((now = now_ns(CLOCK_MONOTONIC)) - t0 < dur) {
		if (poll_ns > 0)
			nanosleep(&pause, NULL);
		len = pread(fd, buf, sizeof(buf) - 1, 0);
		now = now_ns(CLOCK_MONOTONIC);
		polls++;
		if (len <= 0)
			continue;
		buf[len] = '\0';
		if (parse(buf, &el, &n, &dormant, &mean))
			continue;
		/* A dormant CPU's elapsed_ns runs on with the clock. */
		if (!dormant && (long long)(now - el) < offset)
			offset = now - el;
		if (!next)
			next = now + expo(mean);
		if (sample_mode && dormant) {
			/*
			 * Tickless: cpu1 takes no sample until it leaves idle,
			 * and waking the hog makes it resume.  Run right away,
			 * right after that resume, unless a burst is on.
			 */
			last_n = n;
			if (now < sh->deadline)
				continue;
			resumes++;
			sh->deadline = now + burst;
		} else if (sample_mode) {
			unsigned long long at = offset + el;

			if (n == last_n || !last_n) {
				last_n = n;
				continue;
			}
			last_n = n;
			seen++;
			detect += now - at;
			if (at + burst <= now) {
				late++;
				continue;
			}
			sh->deadline = at + burst;
		} else {
			if (now < next)
				continue;
			seen++;
			detect += now - (unsigned long long)next;
			if ((unsigned long long)next + burst <= now) {
				late++;
				next += expo(mean);
				continue;
			}
			sh->deadline = (unsigned long long)next + burst;
			next += expo(mean);
		}
		bursts++;
		if (write(pfd[1], "x", 1) != 1)
			break;
	}
	sh->stop = 1;
	if (write(pfd[1], "x", 1) != 1)
		kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	printf("attack %s hog_cpu_ns %llu hog_utime_ns %llu hog_stime_ns %llu wall_ns %llu bursts %llu polls %llu samples_seen %llu late_bursts %llu detect_us %.1f resumes %llu\n",
	       argv[1], sh->hog_cpu_ns, sh->hog_utime_ns, sh->hog_stime_ns,
	       now - t0, bursts, polls, seen, late,
	       seen ? detect / 1e3 / seen : 0, resumes);
	return 0;
}
