// SPDX-License-Identifier: GPL-2.0
/*
 * pingpong SECS CPU_A CPU_B: two threads, pinned to CPU_A and CPU_B,
 * bounce one byte through a pair of pipes for SECS seconds.  On two CPUs
 * each round trip puts both through an idle entry and exit (tens of
 * thousands a second): the workload that would make a sampler that
 * cancelled and re-armed its timer at every idle transition expensive.
 * Prints "pingpong trips N wall_ns W trips_per_s R".
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include "common.h"

static int ab[2], ba[2];

static void *pong(void *arg)
{
	char c;

	pin(*(int *)arg);
	while (read(ab[0], &c, 1) == 1 && c)
		if (write(ba[1], &c, 1) != 1)
			break;
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long long t0, dur, t, trips = 0;
	int cpu_a, cpu_b;
	pthread_t th;
	char c = 1;

	if (argc != 4) {
		fprintf(stderr, "usage: pingpong SECS CPU_A CPU_B\n");
		return 2;
	}
	dur = secs_arg(argv[1], "pingpong");
	cpu_a = atoi(argv[2]);
	cpu_b = atoi(argv[3]);
	if (pipe(ab) || pipe(ba)) {
		perror("pingpong: pipe");
		return 1;
	}
	pin(cpu_a);
	if (pthread_create(&th, NULL, pong, &cpu_b)) {
		fprintf(stderr, "pingpong: pthread_create failed\n");
		return 1;
	}
	t0 = now_ns(CLOCK_MONOTONIC);
	do {
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			return 1;
		trips++;
		t = now_ns(CLOCK_MONOTONIC);
	} while (t - t0 < dur);
	c = 0;
	if (write(ab[1], &c, 1) != 1)
		return 1;
	pthread_join(th, NULL);
	printf("pingpong trips %llu wall_ns %llu trips_per_s %.0f\n",
	       trips, t - t0, trips * 1e9 / (t - t0));
	return 0;
}
