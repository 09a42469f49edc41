// SPDX-License-Identifier: GPL-2.0
/* The userspace unit tests' TAP (tap.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

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
