// SPDX-License-Identifier: GPL-2.0
/*
 * wr FILE STRING: open FILE for writing and write STRING in one write(2),
 * as "echo STRING > FILE" would, and print what happened: "ok", or the
 * errno's name (EINVAL, EPERM, EACCES, ...).  Exit 0 on success, 1 on a
 * refused write; the shell's own redirection does not say which errno.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	size_t len;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: wr FILE STRING\n");
		return 2;
	}
	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		printf("%s\n", strerrorname_np(errno));
		return 1;
	}
	len = strlen(argv[2]);
	if (write(fd, argv[2], len) != (ssize_t)len) {
		printf("%s\n", errno ? strerrorname_np(errno) : "short");
		return 1;
	}
	if (close(fd)) {
		printf("%s\n", strerrorname_np(errno));
		return 1;
	}
	printf("ok\n");
	return 0;
}
