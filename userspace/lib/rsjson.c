// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON writer of randstat and randstat top (rsjson.h), on json-c.
 *
 * json-c escapes '"', '\\' and the control characters, and passes every
 * other byte through; it does not check that a string is UTF-8.  A comm
 * (randstat top) is any bytes a process chose, so rs_json_str() keeps
 * each well-formed UTF-8 sequence and puts U+FFFD for each byte that is
 * not part of one: the output is always valid JSON, and "é" stays "é".
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rsjson.h"

/* A number to @prec decimals, as printed; null for NAN. */
struct json_object *rs_json_fixed(double v, int prec)
{
	char buf[64];

	if (isnan(v) || isinf(v))
		return NULL;
	snprintf(buf, sizeof(buf), "%.*f", prec, v);
	return json_object_new_double_s(v, buf);
}

struct json_object *rs_json_u64(uint64_t v)
{
	return json_object_new_uint64(v);
}

struct json_object *rs_json_bool(int v)
{
	return json_object_new_boolean(v ? 1 : 0);
}

/*
 * The length of the well-formed UTF-8 sequence at @p, or 0 if none (so
 * other writers, randstat cgroup's Prometheus labels, judge bytes alike).
 */
size_t rs_utf8_len(const char *p)
{
	const unsigned char *s = (const unsigned char *)p;
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	/* no overlong forms, no surrogates, nothing above U+10FFFF */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	for (i = 1; i < n; i++, lo = 0x80, hi = 0xbf)
		if (s[i] < lo || s[i] > hi)
			return 0;
	return n;
}

/* A string; bytes that are not UTF-8 become U+FFFD. */
struct json_object *rs_json_str(const char *s)
{
	struct json_object *o;
	const char *p = s;
	char *buf, *q;
	size_t n;

	buf = malloc(3 * strlen(s) + 1);
	if (!buf)
		return NULL;
	for (q = buf; *p; p += n) {
		n = rs_utf8_len(p);
		if (n) {
			memcpy(q, p, n);
			q += n;
		} else {
			memcpy(q, "\xef\xbf\xbd", 3);
			q += 3;
			n = 1;
		}
	}
	*q = '\0';
	o = json_object_new_string(buf);
	free(buf);
	return o;
}

void rs_json_add(struct json_object *obj, const char *key,
		 struct json_object *v)
{
	json_object_object_add(obj, key, v);
}

/**
 * rs_json_print() - one object on one line, then freed
 * @f: where to
 * @obj: the object (put, even on error)
 *
 * Return: 0, or -1 if it could not be made (out of memory) or written.
 */
int rs_json_print(FILE *f, struct json_object *obj)
{
	const char *s = obj ? json_object_to_json_string_ext(obj,
				JSON_C_TO_STRING_PLAIN |
				JSON_C_TO_STRING_NOSLASHESCAPE) : NULL;
	int ret = s && fputs(s, f) >= 0 && fputc('\n', f) != EOF ? 0 : -1;

	json_object_put(obj);
	return ret;
}
