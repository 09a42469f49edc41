// SPDX-License-Identifier: GPL-2.0
/*
 * diowrite PATH SECS: synchronous 4 KiB writes, O_DIRECT|O_DSYNC, to PATH
 * (a block device or a file) for SECS seconds, one at a time, cycling over
 * the first 16 MiB.  Each write sleeps in the block layer (io_schedule),
 * so on a slow (throttled) disk the CPU sits idle with a task in iowait.
 * Prints the number of writes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

#define BLK	4096
#define SPAN	(16 << 20)

int main(int argc, char **argv)
{
	unsigned long long t0, dur, t, writes = 0;
	off_t off = 0;
	void *buf;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: diowrite PATH SECS\n");
		return 2;
	}
	dur = secs_arg(argv[2], "diowrite");
	fd = open(argv[1], O_WRONLY | O_CREAT | O_DIRECT | O_DSYNC, 0600);
	if (fd < 0) {
		fprintf(stderr, "diowrite: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (posix_memalign(&buf, BLK, BLK))
		return 1;
	memset(buf, 0x5a, BLK);
	t0 = now_ns(CLOCK_MONOTONIC);
	do {
		if (pwrite(fd, buf, BLK, off) != BLK) {
			fprintf(stderr, "diowrite: write: %s\n", strerror(errno));
			return 1;
		}
		writes++;
		off = (off + BLK) % SPAN;
		t = now_ns(CLOCK_MONOTONIC);
	} while (t - t0 < dur);
	close(fd);
	printf("diowrite writes %llu iops %.1f\n", writes,
	       writes * 1e9 / (t - t0));
	print_cputime("diowrite", t - t0);
	return 0;
}
