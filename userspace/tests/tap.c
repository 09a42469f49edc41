// SPDX-License-Identifier: GPL-2.0
/* The userspace unit tests' TAP (tap.h). */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

static unsigned int ntests, nfailed;
static bool cur_ok;

void tap_expect(bool c, int line, const char *what)
{
	if (!c) {
		cur_ok = false;
		printf("# line %d: failed: %s\n", line, what);
	}
}

void tap_expect_near(double a, double b, double eps, int line,
		     const char *what)
{
	if (!(fabs(a - b) <= eps)) {
		cur_ok = false;
		printf("# line %d: %s = %.9g, expected %.9g\n", line, what, a,
		       b);
	}
}

/* @s has (@want) or lacks @sub; else the whole of @s, as comments. */
void tap_expect_has(const char *s, const char *sub, bool want, int line)
{
	if (!s || !!strstr(s, sub) != want) {
		cur_ok = false;
		printf("# line %d: output %s \"%s\"; it was:\n", line,
		       want ? "lacks" : "has", sub);
		for (; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : "")
			printf("#   %.*s\n", (int)strcspn(s, "\n"), s);
	}
}

void tap_begin(void)
{
	cur_ok = true;
}

void tap_end(const char *name)
{
	ntests++;
	if (!cur_ok)
		nfailed++;
	printf("%sok %u - %s\n", cur_ok ? "" : "not ", ntests, name);
	fflush(stdout);
}

void tap_test(const char *name, void (*fn)(void))
{
	tap_begin();
	fn();
	tap_end(name);
}

void tap_skip(const char *name, const char *why)
{
	printf("ok %u - %s # SKIP %s\n", ++ntests, name, why);
	fflush(stdout);
}

/* The plan; the exit code: 1 if a test failed. */
int tap_done(void)
{
	printf("1..%u\n", ntests);
	if (nfailed)
		printf("# %u of %u failed\n", nfailed, ntests);
	return nfailed ? 1 : 0;
}

pid_t tap_spawn(const char *path, const char *const *argv,
		const char *out_path, FILE **out, FILE **err,
		int (*setup)(void *), void *arg)
{
	pid_t pid;

	*out = tmpfile();
	*err = tmpfile();
	if (!*out || !*err)
		exit(2);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		exit(2);
	if (!pid) {
		int fd = out_path ? open(out_path, O_WRONLY) : -1, rc;

		dup2(fd >= 0 ? fd : fileno(*out), 1);
		dup2(fileno(*err), 2);
		rc = setup ? setup(arg) : 0;

		if (rc)
			_exit(rc);
		execv(path, (char *const *)argv);
		_exit(127);
	}
	return pid;
}

/* tap_run()'s child: @arg points to the uid to run as. */
static int become(void *arg)
{
	int uid = *(int *)arg;

	return uid >= 0 && (setgid(uid) || setuid(uid)) ? 126 : 0;
}

int tap_run(const char *path, const char *const *argv, int uid,
	    const char *out_path, FILE **out, FILE **err)
{
	pid_t pid = tap_spawn(path, argv, out_path, out, err, become, &uid);
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

void tap_slurp(FILE *f, char *buf, size_t size)
{
	size_t n;

	rewind(f);
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
}

char *tap_slurp_all(FILE *f)
{
	long n;
	char *s;

	fflush(f);
	n = ftell(f);
	s = calloc(1, n + 1);
	if (!s)
		exit(2);
	rewind(f);
	if (fread(s, 1, n, f) != (size_t)n)
		exit(2);
	fclose(f);
	return s;
}

void tap_expect_manpage(const char *path)
{
	char cmd[4200], out[8192];
	size_t n;
	FILE *p;

	/* groff's warnings (-ww) go to stderr, which is captured here */
	snprintf(cmd, sizeof(cmd),
		 "groff -man -Tutf8 -ww %s 2>&1 >/dev/null; echo END", path);
	p = popen(cmd, "r");
	EXPECT(p != NULL);
	if (!p)
		return;
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	EXPECT(pclose(p) == 0);
	EXPECT(!strcmp(out, "END\n"));
	if (strcmp(out, "END\n"))
		printf("# groff said: %s", out);
}
