// SPDX-License-Identifier: GPL-2.0
/*
 * twofn SECS: two functions that share the CPU equally, on a schedule
 * that a fixed-rate profiler aliases with.  Every 4 ms (an absolute
 * clock_nanosleep on CLOCK_MONOTONIC, so the cycle is exactly 4 ms and
 * does not drift), f() runs 1 ms busy, then g() 1 ms busy, then the
 * program sleeps to the next cycle (about 2 ms).  perf's cpu-clock at
 * -F 250 is a 4 ms hrtimer too: its samples fall at one phase of the
 * cycle, so a profile shows f or g (or neither), not both (the VM suite
 * prof, tests/vm/guest/prof.sh).
 *
 * Prints one line: "twofn f_ns F g_ns G cpu_ns C wall_ns W start_ns S
 * period_ns P cycles N late L chunks K": the CPU time each function truly
 * used (CLOCK_THREAD_CPUTIME_ID around each call, so the true shares are
 * known: 50/50 but for the noise of the emulator), the thread's CPU time
 * over the loop, its wall time, the CLOCK_MONOTONIC time of the first
 * cycle's start and the period (so a sample's phase in the cycle is
 * (t - S) mod P), the cycles run, those whose busy part overran the
 * next cycle's start, and the busy loops' clock reads.
 *
 * Built with frame pointers and f and g noinline, so that perf's
 * callchains name them: f <- main, g <- main.  Each function has its own
 * loop (busy() is always inlined), so no frame but f or g is on top.
 */
#include <sys/prctl.h>

#include "common.h"

#define PERIOD_NS	4000000ULL
#define BUSY_NS		1000000ULL

static volatile unsigned long sink;
static unsigned long long chunks;

/*
 * Busy in user mode until DUR ns after entry.  The clock (the vDSO's
 * CLOCK_MONOTONIC) is read every 4096 iterations, a few tens of
 * microseconds under TCG: a sample that finds the CPU in the clock read
 * (glibc's clock_gettime has no frame pointer, so the walk skips the
 * caller) names neither function, and this keeps those few.
 */
static inline __attribute__((always_inline)) void
busy(unsigned long long dur, unsigned long salt)
{
	unsigned long long t0 = now_ns(CLOCK_MONOTONIC);
	unsigned long i;

	do {
		for (i = 0; i < 4096; i++)
			sink += i ^ salt;
		chunks++;
	} while (now_ns(CLOCK_MONOTONIC) - t0 < dur);
}

/* Different salts: identical bodies would be folded into one symbol. */
static __attribute__((noinline)) void f(void)
{
	busy(BUSY_NS, 1);
}

static __attribute__((noinline)) void g(void)
{
	busy(BUSY_NS, 2);
}

int main(int argc, char **argv)
{
	unsigned long long dur, start, next, c0, c1, c2, cs, t, fns = 0, gns = 0;
	unsigned long cycles = 0, late = 0;
	struct timespec ts;

	if (argc != 2) {
		fprintf(stderr, "usage: twofn SECS\n");
		return 2;
	}
	dur = secs_arg(argv[1], "twofn");
	/*
	 * Wake exactly at each cycle's start: the default timer slack would
	 * let the kernel wake the program up to 50 us late, at random.
	 */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	cs = now_ns(CLOCK_THREAD_CPUTIME_ID);
	start = now_ns(CLOCK_MONOTONIC) + PERIOD_NS;
	for (next = start; next - start < dur; next += PERIOD_NS) {
		ts.tv_sec = next / 1000000000ULL;
		ts.tv_nsec = next % 1000000000ULL;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
			;
		c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		f();
		c1 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		g();
		c2 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		fns += c1 - c0;
		gns += c2 - c1;
		cycles++;
		t = now_ns(CLOCK_MONOTONIC);
		if (t >= next + PERIOD_NS)
			late++;
	}
	printf("twofn f_ns %llu g_ns %llu cpu_ns %llu wall_ns %llu start_ns %llu period_ns %llu cycles %lu late %lu chunks %llu\n",
	       fns, gns, now_ns(CLOCK_THREAD_CPUTIME_ID) - cs, next - start,
	       start, PERIOD_NS, cycles, late, chunks);
	return 0;
}
