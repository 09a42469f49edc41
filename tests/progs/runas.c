// SPDX-License-Identifier: GPL-2.0
/*
 * runas [-u UID] [-n NICE] PROG ARGS...: run PROG as user and group UID
 * (no supplementary groups, so no capabilities) and/or at nice NICE.
 * busybox has neither nice(1) nor a setpriv that changes uid.
 */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int opt, uid = -1, nice = 0, set_nice = 0;

	while ((opt = getopt(argc, argv, "+u:n:")) != -1) {
		switch (opt) {
		case 'u':
			uid = atoi(optarg);
			break;
		case 'n':
			nice = atoi(optarg);
			set_nice = 1;
			break;
		default:
			goto usage;
		}
	}
	if (optind >= argc)
		goto usage;
	if (set_nice && setpriority(PRIO_PROCESS, 0, nice)) {
		perror("runas: setpriority");
		return 126;
	}
	if (uid >= 0 && (setgroups(0, NULL) || setgid(uid) || setuid(uid))) {
		perror("runas: setuid");
		return 126;
	}
	execvp(argv[optind], argv + optind);
	fprintf(stderr, "runas: %s: %s\n", argv[optind], strerror(errno));
	return 127;
usage:
	fprintf(stderr, "usage: runas [-u UID] [-n NICE] PROG ARGS...\n");
	return 2;
}
