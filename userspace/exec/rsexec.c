// SPDX-License-Identifier: GPL-2.0
/*
 * randstat exec [--stat FILE] [--] CMD [ARGS...]
 *
 * Runs CMD in a private mount namespace in which /proc/stat is FILE (by
 * default randstat-fs's, /run/randstat-fs/stat), as the caller: the real
 * uid and gid (or sudo's SUDO_UID and SUDO_GID when run as root by sudo).
 *
 * Making a mount namespace and mounting need CAP_SYS_ADMIN: run it as root
 * (sudo) or install it setuid root.  Setuid, it ignores --stat and
 * RANDSTAT_FS_STAT, and binds only a file served by FUSE, so a user can
 * only get randstat-fs's file, and only in a namespace of their own.
 */
#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "rsexec.h"
#include "rsexit.h"

#define RS_EXEC_STAT "/run/randstat-fs/stat"
#define FUSE_SUPER_MAGIC 0x65735546

static int fail(const char *what, const char *arg)
{
	fprintf(stderr, "randstat exec: %s%s%s: %s\n", what, arg ? " " : "",
		arg ? arg : "", strerror(errno));
	return 125;
}

/* The ids to run CMD as: the real ones, or sudo's caller's. */
static int target_ids(uid_t *uid, gid_t *gid, int *sudo)
{
	const char *su = getenv("SUDO_UID"), *sg = getenv("SUDO_GID");
	char *e1, *e2;
	unsigned long u, g;

	*uid = getuid();
	*gid = getgid();
	*sudo = 0;
	if (*uid != 0 || geteuid() != 0 || !su || !sg)
		return 0;
	u = strtoul(su, &e1, 10);
	g = strtoul(sg, &e2, 10);
	if (!*su || *e1 || !*sg || *e2 || u > 0x7fffffffUL || g > 0x7fffffffUL) {
		fprintf(stderr, "randstat exec: bad SUDO_UID or SUDO_GID\n");
		return -1;
	}
	*uid = (uid_t)u;
	*gid = (gid_t)g;
	*sudo = 1;
	return 0;
}

/**
 * rs_exec_setgroups() - the supplementary groups a login of @uid gets
 * @uid: the user
 * @gid: their primary group
 *
 * initgroups(): @gid and every group the group database lists the user
 * in, as login and sudo itself give them (setgroups(1, &gid) dropped the
 * user's supplementary groups).  A uid with no name in the user database
 * has no supplementary group: @gid alone.  Needs CAP_SETGID.
 *
 * Return: 0, or -1 with errno set.
 */
int rs_exec_setgroups(uid_t uid, gid_t gid)
{
	struct passwd *pw;

	errno = 0;
	pw = getpwuid(uid);
	if (pw)
		return initgroups(pw->pw_name, gid);
	if (errno)
		return -1;
	return setgroups(1, &gid);
}

int rs_unprivileged(void)
{
	uid_t uid = getuid();
	gid_t gid = getgid();

	if (uid == geteuid() && gid == getegid())
		return 0;
	if (setgid(gid) || setuid(uid) || geteuid() != uid ||
	    getegid() != gid) {
		perror("randstat: dropping setuid privileges");
		return -1;
	}
	return 0;
}

static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "randstat exec: %s%s\nTry 'randstat exec --help'.\n",
		what, arg ? arg : "");
	return 125;
}

/*
 * The options up to CMD: getopt_long, stopping at the first non-option
 * ("+"), which is CMD, or after "--".  Returns -1 to go on (*@cmd: CMD's
 * index in argv), else the exit status.
 */
static int parse_args(int argc, char **argv, const char **file, int *cmd)
{
	static const struct option longopts[] = {
		{ "stat", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+hV", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			*file = optarg;
			break;
		case 'h':
			printf("Usage: randstat exec [--stat FILE] [--] CMD [ARGS...]\n"
			       "Runs CMD with FILE (default %s, randstat-fs's)\n"
			       "as its /proc/stat, in a private mount namespace, as the caller.\n"
			       "Needs root (sudo) or a setuid-root install.  The options end at\n"
			       "CMD, or at '--'.\n"
			       "\n"
			       "Exit status: CMD's; 125 randstat exec's own failure or usage\n"
			       "error, 126 CMD could not be run, 127 CMD not found.\n",
			       RS_EXEC_STAT);
			return rs_output_error("randstat exec") ? 125 : 0;
		case 'V':
			return rs_print_version("randstat exec") ? 125 : 0;
		default:
			return usage_error("unknown option or missing argument: ",
					   argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return usage_error("no command to run", NULL);
	*cmd = optind;
	return -1;
}

int rs_exec_main(int argc, char **argv)
{
	const char *file = getenv("RANDSTAT_FS_STAT");
	int setuid_run = getuid() != geteuid() || getgid() != getegid();
	int i, sudo, ret;
	struct statfs sf;
	uid_t uid;
	gid_t gid;

	if (!file || !*file)
		file = RS_EXEC_STAT;
	ret = parse_args(argc, argv, &file, &i);
	if (ret >= 0)
		return ret;
	if (setuid_run)
		file = RS_EXEC_STAT;
	if (target_ids(&uid, &gid, &sudo))
		return 125;
	if (statfs(file, &sf))
		return fail("no randstat-fs file (start randstat-fs /run/randstat-fs, or the randstat-fs unit):",
			    file);
	if (sf.f_type != FUSE_SUPER_MAGIC) {
		fprintf(stderr, "randstat exec: %s is not served by randstat-fs (FUSE)\n",
			file);
		return 125;
	}
	if (unshare(CLONE_NEWNS)) {
		if (errno == EPERM)
			fprintf(stderr, "randstat exec: a mount namespace needs root: run it with sudo, or install it setuid root\n");
		return fail("unshare(CLONE_NEWNS)", NULL);
	}
	/* Nothing mounted here may reach the caller's namespace. */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return fail("making / private", NULL);
	if (mount(file, "/proc/stat", NULL, MS_BIND, NULL))
		return fail("binding over /proc/stat:", file);
	/*
	 * Back to the caller, for good, before running anything of theirs.
	 * Setuid, the supplementary groups are already the caller's; under
	 * sudo they are root's: replace them with the caller's own.
	 */
	if (sudo && rs_exec_setgroups(uid, gid))
		return fail("setting the caller's groups", NULL);
	if (setgid(gid) || setuid(uid))
		return fail("dropping to the caller's uid and gid", NULL);
	if (getuid() != uid || geteuid() != uid || getgid() != gid ||
	    getegid() != gid || (uid != 0 && setuid(0) == 0)) {
		fprintf(stderr, "randstat exec: privileges not dropped\n");
		return 125;
	}
	execvp(argv[i], argv + i);
	fprintf(stderr, "randstat exec: %s: %s\n", argv[i], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}
