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

struct json_object *rs_json_fixed(double v, int prec);
struct json_object *rs_json_u64(uint64_t v);
struct json_object *rs_json_bool(int v);
struct json_object *rs_json_str(const char *s);
void rs_json_add(struct json_object *obj, const char *key,
		 struct json_object *v);
int rs_json_print(FILE *f, struct json_object *obj);

#endif /* RSJSON_H */
