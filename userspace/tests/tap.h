/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The userspace unit tests' TAP: one "ok N - name" or "not ok N - name"
 * line a test, the failed expectations above it as comments, the plan
 * at the end (tap_done()).
 */
#ifndef RS_TAP_H
#define RS_TAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#define EXPECT(c) tap_expect(c, __LINE__, #c)
#define EXPECT_NEAR(a, b, eps) tap_expect_near(a, b, eps, __LINE__, #a)
#define EXPECT_HAS(s, sub) tap_expect_has(s, sub, true, __LINE__)
#define EXPECT_HASNT(s, sub) tap_expect_has(s, sub, false, __LINE__)

void tap_expect(bool c, int line, const char *what);
void tap_expect_near(double a, double b, double eps, int line,
		     const char *what);
void tap_expect_has(const char *s, const char *sub, bool want, int line);
void tap_begin(void);
void tap_end(const char *name);
void tap_test(const char *name, void (*fn)(void));
void tap_skip(const char *name, const char *why);
int tap_done(void);

/*
 * Run the program @path with @argv (argv[0] first, NULL-terminated), as
 * @uid if it is not -1, its stdout to the file @out_path if that is not
 * NULL; what it writes to stdout (else) and stderr is left in *@out and
 * *@err, for tap_slurp() or tap_slurp_all().  A harness that cannot make
 * the files or fork exits 2.  Return: its exit code, or -1.
 */
int tap_run(const char *path, const char *const *argv, int uid,
	    const char *out_path, FILE **out, FILE **err);
/*
 * tap_run()'s start: the program forked with its output redirected as
 * there, @setup(@arg) run in the child before execv() (if it returns
 * non-zero, the child exits with that code instead); not waited for.
 * Return: its pid.
 */
pid_t tap_spawn(const char *path, const char *const *argv,
		const char *out_path, FILE **out, FILE **err,
		int (*setup)(void *), void *arg);
/* @f from its start into @buf (@size, NUL-terminated); @f closed. */
void tap_slurp(FILE *f, char *buf, size_t size);
/* @f whole, in a malloc'd string; @f closed. */
char *tap_slurp_all(FILE *f);
/* Expectations: groff -man -ww formats the man page @path without a word. */
void tap_expect_manpage(const char *path);

#endif /* RS_TAP_H */
