/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The userspace unit tests' TAP: one "ok N - name" or "not ok N - name"
 * line a test, the failed expectations above it as comments, the plan
 * at the end (tap_done()).
 */
#ifndef RS_TAP_H
#define RS_TAP_H

#include <stdbool.h>

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

#endif /* RS_TAP_H */
