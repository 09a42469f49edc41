/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exit codes of every randstat tool (randstat, randstat top,
 * randstat-fs, randstat-fs-mount), one convention, in each man page:
 *
 *   0  success; --help and --version too
 *   1  a usage error: an unknown option, a bad or missing argument
 *   2  an input could not be read or parsed (unreadable, truncated,
 *      damaged, a format version this release does not read)
 *   3  the randstat module is not loaded (no /proc/randstat_detail, or no
 *      randstat:sample tracepoint)
 *   4  the output could not be written (a full disk, a closed pipe...)
 *   5  any other failure: not permitted (needs root), out of memory, a
 *      mount that failed; randstat-fs-mount status: not randstat-fs's
 *
 * randstat verify has its own, for a verdict: 0 every workload passed,
 * 1 a workload failed, 2 a bad argument, 3 the module is not loaded,
 * 4 the output could not be written, 5 another failure (a busy or
 * nohz_full CPU, not permitted, a workload that could not be judged).
 *
 * randstat exec runs a command and exits with its status; its own
 * failures are therefore 125 (its usage errors too), 126 (the command
 * could not be run) and 127 (not found), as env(1) and timeout(1) do.
 */
#ifndef RSEXIT_H
#define RSEXIT_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

enum {
	RS_EXIT_OK = 0,
	RS_EXIT_USAGE = 1,
	RS_EXIT_INPUT = 2,
	RS_EXIT_NOMODULE = 3,
	RS_EXIT_OUTPUT = 4,
	RS_EXIT_FAIL = 5,
};

/**
 * rs_output_error() - was all of standard output written?
 * @who: the program, for the message ("randstat", "randstat top")
 *
 * Flushes stdout; if that or an earlier write failed, says so on stderr.
 *
 * Return: 0, or RS_EXIT_OUTPUT.
 */
static inline int rs_output_error(const char *who)
{
	int bad;

	errno = 0;
	bad = fflush(stdout) != 0 || ferror(stdout);
	if (!bad)
		return 0;
	fprintf(stderr, "%s: writing the output: %s\n", who,
		errno ? strerror(errno) : "write error");
	return RS_EXIT_OUTPUT;
}

/* The release, from the top Makefile's VERSION (userspace/Makefile). */
#ifndef RS_VERSION
#define RS_VERSION "unknown"
#endif

/* --version: "randstat 0.1", and the exit code (0, or 4 if unwritten). */
static inline int rs_print_version(const char *who)
{
	printf("%s %s\n", who, RS_VERSION);
	return rs_output_error(who);
}

#endif /* RSEXIT_H */
