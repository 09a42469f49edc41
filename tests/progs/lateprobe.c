// SPDX-License-Identifier: GPL-2.0
/*
 * lateprobe ROUNDS SLEEP_US ARM_US: how late the emulator delivers a
 * timer interrupt due while the CPU runs user code just after a wakeup,
 * the sampler's case, measured without randstat's word (the judged
 * suites gate their runs on it; shared/emulator-probe's wakespin, made a
 * test program).
 *
 * Each round sleeps SLEEP_US (the CPU idles), then arms a POSIX timer
 * ARM_US ahead and spins in user mode until its signal comes, and records
 * how late that was by CLOCK_MONOTONIC: the interrupt's lateness plus the
 * signal's delivery, so an upper bound of the interrupt's.  Prints
 * "lateprobe rounds N mean_us M p50_us A p90_us B max_us C".
 */
#include <signal.h>
#include <string.h>

#include "common.h"

static volatile sig_atomic_t fired;
static volatile unsigned long long fired_at;

static void on_alarm(int sig)
{
	fired_at = now_ns(CLOCK_MONOTONIC);
	fired = 1;
}

static int cmp(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static long count_arg(const char *s, long max)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v < 1 || v > max) {
		fprintf(stderr, "lateprobe: bad count '%s' (1 to %ld)\n", s, max);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL,
				.sigev_signo = SIGALRM };
	struct sigaction sa;
	long rounds, i;
	long long sleep_ns, arm_ns, *late, sum = 0;
	timer_t t;

	if (argc != 4) {
		fprintf(stderr, "usage: lateprobe ROUNDS SLEEP_US ARM_US\n");
		return 2;
	}
	rounds = count_arg(argv[1], 100000);
	sleep_ns = count_arg(argv[2], 1000000) * 1000LL;
	arm_ns = count_arg(argv[3], 1000000) * 1000LL;
	late = calloc(rounds, sizeof(*late));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	if (!late || sigaction(SIGALRM, &sa, NULL) ||
	    timer_create(CLOCK_MONOTONIC, &sev, &t)) {
		perror("lateprobe");
		return 1;
	}
	for (i = 0; i < rounds; i++) {
		struct timespec s = { sleep_ns / 1000000000LL,
				      sleep_ns % 1000000000LL };
		struct itimerspec its = { { 0, 0 }, { 0, 0 } };
		unsigned long long due;

		nanosleep(&s, NULL);
		due = now_ns(CLOCK_MONOTONIC) + arm_ns;
		its.it_value.tv_sec = due / 1000000000ULL;
		its.it_value.tv_nsec = due % 1000000000ULL;
		fired = 0;
		if (timer_settime(t, TIMER_ABSTIME, &its, NULL)) {
			perror("lateprobe: timer_settime");
			return 1;
		}
		while (!fired)
			;
		late[i] = (long long)(fired_at - due);
		sum += late[i];
	}
	qsort(late, rounds, sizeof(*late), cmp);
	printf("lateprobe rounds %ld mean_us %.1f p50_us %.1f p90_us %.1f max_us %.1f\n",
	       rounds, sum / 1e3 / rounds, late[rounds / 2] / 1e3,
	       late[rounds * 9 / 10] / 1e3, late[rounds - 1] / 1e3);
	return 0;
}
