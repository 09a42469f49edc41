// SPDX-License-Identifier: GPL-2.0
/*
 * phased TICK_US SYS_US SECONDS
 *
 * User and system work in phase with the tick, so that every tick finds
 * the program in the kernel.  From WAKE_US after a tick it computes in
 * user mode until SYS_US before the next tick; then it reads /dev/zero
 * (the kernel clears the buffer: system time) until CROSS_US after that
 * tick, and sleeps until WAKE_US after it.  The tick grid is learned as
 * the evader learns it (tick_grid() in common.h).  A tick-sampled split
 * (/proc/stat, times(2), cgroup v2's cpu.stat user/system) charges it
 * nearly all to system time; its true split is about
 * (TICK - WAKE - SYS) : (SYS + CROSS).
 *
 * Besides report()'s line, it prints its own view of the split: the
 * wall-clock time of its user phases and of its system phases, which
 * count whatever interrupted them too.
 */
#include <fcntl.h>

#include "common.h"

#define WAKE_US		400
#define CROSS_US	200

int main(int argc, char **argv)
{
	long tick = arg(argc, argv, 1, 4000) * 1000;
	long sys = arg(argc, argv, 2, 1500) * 1000;
	long secs = arg(argc, argv, 3, 5);
	int64_t end, t, t0, user_ns = 0, sys_ns = 0;
	static char buf[16384];
	struct mark m;
	int fd;

	if (argc < 4 || tick <= 0 || sys <= 0 || secs <= 0 ||
	    WAKE_US * 1000L + sys >= tick) {
		fprintf(stderr, "usage: phased TICK_US SYS_US SECONDS\n");
		return 1;
	}
	fd = open("/dev/zero", O_RDONLY);
	if (fd < 0) {
		perror("phased: /dev/zero");
		return 1;
	}
	t = tick_grid(tick, 16);
	sleep_until(t + WAKE_US * 1000L);
	m = mark_now();
	end = m.wall + secs * 1000000000L;
	while (now_ns(CLOCK_MONOTONIC) < end) {
		t0 = now_ns(CLOCK_MONOTONIC);
		spin_until(t + tick - sys);
		user_ns += now_ns(CLOCK_MONOTONIC) - t0;
		t0 = now_ns(CLOCK_MONOTONIC);
		t += tick;
		while (now_ns(CLOCK_MONOTONIC) < t + CROSS_US * 1000L)
			if (read(fd, buf, sizeof(buf)) != sizeof(buf)) {
				perror("phased: read");
				return 1;
			}
		sys_ns += now_ns(CLOCK_MONOTONIC) - t0;
		/* Late past a whole tick: keep to the grid. */
		while (t + WAKE_US * 1000L < now_ns(CLOCK_MONOTONIC) - tick)
			t += tick;
		sleep_until(t + WAKE_US * 1000L);
	}
	report("phased", m);
	printf("phased own_user_ns %lld own_sys_ns %lld\n",
	       (long long)user_ns, (long long)sys_ns);
	return 0;
}
