// SPDX-License-Identifier: GPL-2.0
/*
 * readrate FILE SECS: open FILE, read it to its end and close it, as a
 * monitor (or randstat-fs on each open of its /proc/stat) does, over and
 * over for SECS seconds.  Prints
 *
 *	readrate reads N wall_ns W bytes B
 *
 * N whole reads in W ns of CLOCK_MONOTONIC, the last read B bytes long.
 * SECS may be fractional.  With SECS 0 it reads until killed, printing
 * nothing: the "poller at full speed" of the reader-independence test.
 * Exits 1 if a read fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

static char buf[1 << 20];

/* One whole read of @path: its length, or -1. */
static long read_once(const char *path)
{
	long len = 0;
	ssize_t r;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while ((r = read(fd, buf, sizeof(buf))) > 0)
		len += r;
	close(fd);
	return r < 0 ? -1 : len;
}

int main(int argc, char **argv)
{
	unsigned long long start, end, t, n = 0;
	long len = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: readrate FILE SECS (0: until killed)\n");
		return 2;
	}
	if (strcmp(argv[2], "0") == 0) {
		for (;;)
			if (read_once(argv[1]) < 0) {
				fprintf(stderr, "readrate: %s: %s\n", argv[1],
					strerror(errno));
				return 1;
			}
	}
	t = secs_arg(argv[2], "readrate");
	start = now_ns(CLOCK_MONOTONIC);
	end = start + t;
	do {
		len = read_once(argv[1]);
		if (len < 0) {
			fprintf(stderr, "readrate: %s: %s\n", argv[1],
				strerror(errno));
			return 1;
		}
		n++;
	} while (now_ns(CLOCK_MONOTONIC) < end);
	printf("readrate reads %llu wall_ns %llu bytes %ld\n", n,
	       now_ns(CLOCK_MONOTONIC) - start, len);
	return 0;
}
