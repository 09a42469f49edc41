// SPDX-License-Identifier: GPL-2.0
/*
 * sysloop SECS: getppid() through syscall(2), so every call is a real
 * kernel entry (glibc caches nothing here, and it is not a vDSO call),
 * in a tight loop for SECS seconds.  Prints the number of calls and the
 * process's CPU time.
 */
#include <sys/syscall.h>
#include <unistd.h>

#include "common.h"

int main(int argc, char **argv)
{
	unsigned long long t0, dur, t, calls = 0;
	int i;

	if (argc != 2) {
		fprintf(stderr, "usage: sysloop SECS\n");
		return 2;
	}
	dur = secs_arg(argv[1], "sysloop");
	t0 = now_ns(CLOCK_MONOTONIC);
	do {
		for (i = 0; i < 256; i++)
			syscall(SYS_getppid);
		calls += 256;
		t = now_ns(CLOCK_MONOTONIC);
	} while (t - t0 < dur);
	printf("sysloop calls %llu\n", calls);
	print_cputime("sysloop", t - t0);
	return 0;
}
