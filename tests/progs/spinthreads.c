// SPDX-License-Identifier: GPL-2.0
/*
 * spinthreads N SECS: N threads (the main one and N - 1 others) each in a
 * user-mode busy loop, as spin's, for SECS seconds of wall time.  Thread
 * i is named "spinthr-i" (prctl(PR_SET_NAME)), so a per-thread view can
 * tell them apart; the process keeps its name, "spinthreads".  Prints
 * "spinthreads tid T cpu_ns C" for each thread (C its own
 * CLOCK_THREAD_CPUTIME_ID over its loop) and "spinthreads wall_ns W".
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common.h"

#define MAX_THREADS	64

static unsigned long long dur;

struct thr {
	pthread_t th;
	int i;
	long tid;
	unsigned long long cpu_ns;
};

static void *loop(void *arg)
{
	struct thr *t = arg;
	unsigned long long t0, c0, t1;
	volatile unsigned long x = 0;
	unsigned long i;
	char name[16];

	if (t->i) {
		snprintf(name, sizeof(name), "spinthr-%d", t->i);
		prctl(PR_SET_NAME, name);
	}
	t->tid = syscall(SYS_gettid);
	c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
	t0 = now_ns(CLOCK_MONOTONIC);
	do {
		for (i = 0; i < 65536; i++)
			x += i;
		t1 = now_ns(CLOCK_MONOTONIC);
	} while (t1 - t0 < dur);
	t->cpu_ns = now_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
	return NULL;
}

int main(int argc, char **argv)
{
	static struct thr thr[MAX_THREADS];
	unsigned long long t0;
	int n, i;

	if (argc != 3 || (n = atoi(argv[1])) < 1 || n > MAX_THREADS) {
		fprintf(stderr, "usage: spinthreads N SECS (N 1 to %d)\n",
			MAX_THREADS);
		return 2;
	}
	dur = secs_arg(argv[2], "spinthreads");
	t0 = now_ns(CLOCK_MONOTONIC);
	for (i = 1; i < n; i++) {
		thr[i].i = i;
		if (pthread_create(&thr[i].th, NULL, loop, &thr[i])) {
			fprintf(stderr, "spinthreads: pthread_create failed\n");
			return 1;
		}
	}
	loop(&thr[0]);
	for (i = 1; i < n; i++)
		pthread_join(thr[i].th, NULL);
	for (i = 0; i < n; i++)
		printf("spinthreads tid %ld cpu_ns %llu\n", thr[i].tid,
		       thr[i].cpu_ns);
	printf("spinthreads wall_ns %llu\n", now_ns(CLOCK_MONOTONIC) - t0);
	return 0;
}
