// SPDX-License-Identifier: GPL-2.0
/*
 * failnth N OP ARGS: do one operation with the N-th fault-injection point
 * it reaches made to fail (Documentation/fault-injection/
 * fault-injection.rst, /proc/thread-self/fail-nth: failslab and
 * fail_page_alloc, whichever comes N-th), and print
 *
 *   "injected ok"      the N-th point was reached and failed, and yet
 *                      the operation succeeded (it fell back or retried);
 *   "injected ENOMEM"  it was reached, and the operation failed with
 *                      that errno (any errno name);
 *   "none ok"          the operation has fewer than N points: nothing
 *                      was injected, and it succeeded (or "none EINVAL"...)
 *
 * OP is done with the system calls themselves, so that the points are the
 * kernel's for that operation alone:
 *
 *   insmod KO [PARAMS]   finit_module(2)
 *   read FILE            open(2), read(2) to the end, close(2)
 *   write FILE STRING    open(2), one write(2), close(2)
 *
 * Exits 0 if the operation succeeded, 1 if it failed, 2 on a usage or
 * set-up error (no fail-nth: CONFIG_FAULT_INJECTION_DEBUG_FS).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int op_insmod(int argc, char **argv)
{
	int fd, ret;

	if (argc < 1)
		return -EINVAL;
	fd = open(argv[0], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, argc > 1 ? argv[1] : "", 0);
	ret = ret ? -errno : 0;
	close(fd);
	return ret;
}

static int op_read(int argc, char **argv)
{
	static char buf[1 << 16];
	ssize_t n;
	int fd, ret = 0;

	if (argc != 1)
		return -EINVAL;
	fd = open(argv[0], O_RDONLY);
	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		;
	if (n < 0)
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

static int op_write(int argc, char **argv)
{
	size_t len;
	int fd, ret = 0;

	if (argc != 2)
		return -EINVAL;
	fd = open(argv[0], O_WRONLY);
	if (fd < 0)
		return -errno;
	len = strlen(argv[1]);
	if (write(fd, argv[1], len) != (ssize_t)len)
		ret = errno ? -errno : -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

int main(int argc, char **argv)
{
	char nth[16], left[16] = "";
	ssize_t n;
	int fd, ret;

	if (argc < 3) {
		fprintf(stderr, "usage: failnth N insmod KO [PARAMS] | read FILE | write FILE STRING\n");
		return 2;
	}
	fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "failnth: /proc/thread-self/fail-nth: %s (CONFIG_FAULT_INJECTION_DEBUG_FS)\n",
			strerror(errno));
		return 2;
	}
	snprintf(nth, sizeof(nth), "%u", (unsigned int)strtoul(argv[1], NULL, 10));
	if (write(fd, nth, strlen(nth)) < 0) {
		fprintf(stderr, "failnth: writing fail-nth: %s\n", strerror(errno));
		return 2;
	}
	if (!strcmp(argv[2], "insmod"))
		ret = op_insmod(argc - 3, argv + 3);
	else if (!strcmp(argv[2], "read"))
		ret = op_read(argc - 3, argv + 3);
	else if (!strcmp(argv[2], "write"))
		ret = op_write(argc - 3, argv + 3);
	else
		ret = -ENOSYS;
	/* What is left of N: 0 once the N-th point has failed. */
	n = pread(fd, left, sizeof(left) - 1, 0);
	if (n < 0) {
		fprintf(stderr, "failnth: reading fail-nth: %s\n", strerror(errno));
		return 2;
	}
	left[n] = '\0';
	if (write(fd, "0", 1) < 0)
		return 2;
	printf("%s %s\n", atoi(left) ? "none" : "injected",
	       ret ? strerrorname_np(-ret) : "ok");
	return ret ? 1 : 0;
}
