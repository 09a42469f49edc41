// SPDX-License-Identifier: GPL-2.0
/*
 * sysloop SECS [read]: getppid() through syscall(2), so every call is a
 * real kernel entry (glibc caches nothing here, and it is not a vDSO
 * call), in a tight loop for SECS seconds.  With "read", each call is
 * instead a 64 KiB read(2) of /dev/zero: the kernel clears the buffer with
 * interrupts on, so nearly all the time is system time in the syscall's
 * body rather than in its entry and exit paths (which run with interrupts
 * off).  Prints the number of calls and the process's CPU time.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common.h"

int main(int argc, char **argv)
{
	unsigned long long t0, dur, t, calls = 0;
	static char buf[65536];
	int i, fd = -1;

	if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "read"))) {
		fprintf(stderr, "usage: sysloop SECS [read]\n");
		return 2;
	}
	dur = secs_arg(argv[1], "sysloop");
	if (argc == 3 && (fd = open("/dev/zero", O_RDONLY)) < 0) {
		perror("sysloop: /dev/zero");
		return 1;
	}
	t0 = now_ns(CLOCK_MONOTONIC);
	do {
		for (i = 0; i < 16; i++) {
			if (fd < 0)
				syscall(SYS_getppid);
			else if (read(fd, buf, sizeof(buf)) != sizeof(buf))
				return 1;
		}
		calls += 16;
		t = now_ns(CLOCK_MONOTONIC);
	} while (t - t0 < dur);
	printf("sysloop calls %llu\n", calls);
	print_cputime("sysloop", t - t0);
	return 0;
}
