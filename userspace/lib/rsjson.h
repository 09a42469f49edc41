/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The JSON of randstat and randstat top: json-c objects, with numbers
 * printed to a fixed number of decimals and strings made valid UTF-8.
 * One writer for both, so they escape the same way.
 */
#ifndef RSJSON_H
#define RSJSON_H

#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

/*
 * The version of the JSON's schema (its keys and their meaning), the
 * first key of every object randstat and randstat top print: raised when
 * a key changes meaning or goes, not when one is added.  Apart from
 * "format", the version of /proc/randstat_detail's format the report was read
 * from.
 */
#define RS_JSON_VERSION	2	/* 2: "ci95" is [lo, hi] in randstat's too */

struct json_object *rs_json_fixed(double v, int prec);
struct json_object *rs_json_u64(uint64_t v);
struct json_object *rs_json_bool(int v);
struct json_object *rs_json_str(const char *s);
size_t rs_utf8_len(const char *s);
void rs_json_add(struct json_object *obj, const char *key,
		 struct json_object *v);
int rs_json_print(FILE *f, struct json_object *obj);

#endif /* RSJSON_H */
