// SPDX-License-Identifier: GPL-2.0
/*
 * randstat cgroup's JSON (--json): one object per interval, on one line
 * (rscg.h, struct rscg_report), written with the JSON writer of randstat
 * and randstat top (../lib/rsjson.c, on json-c): strings escaped and made
 * valid UTF-8 alike (a cgroup's name is any bytes but '/').  Apart from
 * the command, so that the unit tests (tests/test_cgroup.c) see it.
 */
#include <math.h>

#include "rscg.h"
#include "rsjson.h"

static const char *const cls_names[RSCG_NCLASSES] = {
	"user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal",
	"guest", "guest_nice",
};

/* Samples per class: {"user": k, ...}. */
static struct json_object *json_classes(const struct rscg_acc *acc)
{
	struct json_object *o = json_object_new_object();
	int c;

	for (c = 0; o && c < RSCG_NCLASSES; c++)
		rs_json_add(o, cls_names[c], rs_json_u64(acc->k[c]));
	return o;
}

/*
 * An estimate: {"samples": k, "pct": %, "ci95": [lo, hi]}, % of one CPU;
 * the 95% interval as randstat's and randstat top's JSON write it.
 */
static struct json_object *json_est(const struct rscg_est *e)
{
	struct json_object *o = json_object_new_object();
	struct json_object *ci = json_object_new_array();

	if (ci) {
		json_object_array_add(ci, rs_json_fixed(e->lo, 4));
		json_object_array_add(ci, rs_json_fixed(e->hi, 4));
	}
	if (!o) {
		json_object_put(ci);
		return NULL;
	}
	rs_json_add(o, "samples", rs_json_u64(e->k));
	rs_json_add(o, "pct", rs_json_fixed(e->pct, 4));
	rs_json_add(o, "ci95", ci);
	return o;
}

/* One cgroup: its path, id, samples, estimates and cpu.stat's shares. */
static struct json_object *json_row(const struct rscg_row *w)
{
	struct json_object *o = json_object_new_object(), *x;

	if (!o)
		return NULL;
	rs_json_add(o, "path", rs_json_str(w->path));
	rs_json_add(o, "id", rs_json_u64(w->id));
	rs_json_add(o, "depth", json_object_new_int(w->depth));
	rs_json_add(o, "samples", json_classes(&w->acc));
	x = json_object_new_object();
	if (x) {
		rs_json_add(x, "usr", json_est(&w->e[RSCG_G_USR]));
		rs_json_add(x, "nice", json_est(&w->e[RSCG_G_NICE]));
		rs_json_add(x, "sys", json_est(&w->e[RSCG_G_SYS]));
		rs_json_add(x, "user_all", json_est(&w->e[RSCG_G_USER_ALL]));
		rs_json_add(x, "busy", json_est(&w->e[RSCG_G_BUSY]));
	}
	rs_json_add(o, "randstat", x);
	x = NULL;	/* null: no cpu.stat (the root before 5.x, or unread) */
	if (!isnan(w->k_usage) && (x = json_object_new_object())) {
		rs_json_add(x, "usage", rs_json_fixed(w->k_usage, 4));
		rs_json_add(x, "user", rs_json_fixed(w->k_user, 4));
		rs_json_add(x, "system", rs_json_fixed(w->k_system, 4));
		rs_json_add(x, "user_outside", rs_json_bool(w->out_user));
		rs_json_add(x, "system_outside", rs_json_bool(w->out_system));
	}
	rs_json_add(o, "cpu_stat", x);
	return o;
}

/**
 * rscg_json_print() - one interval's report, one JSON object on one line
 * @f: where to
 * @r: the report
 *
 * Return: 0, or -1 if it could not be made (out of memory) or written.
 */
int rscg_json_print(FILE *f, const struct rscg_report *r)
{
	static const char *const sname[] = { "interrupts", "idle", "removed" };
	struct json_object *o = json_object_new_object(), *x, *a;
	size_t i;
	int j;

	if (!o)
		return -1;
	rs_json_add(o, "version", json_object_new_int(RS_JSON_VERSION));
	rs_json_add(o, "view", rs_json_str("cgroup"));
	rs_json_add(o, "time", json_object_new_int64(r->time));
	rs_json_add(o, "interval_s", rs_json_fixed(r->interval_s, 6));
	rs_json_add(o, "attach", rs_json_str(r->attach));
	rs_json_add(o, "map_entries", rs_json_u64(r->map_entries));
	x = json_object_new_object();
	if (x) {
		rs_json_add(x, "randstat", rs_json_u64(r->samples_randstat));
		rs_json_add(x, "counted", rs_json_u64(r->samples_counted));
	}
	rs_json_add(o, "samples", x);
	x = json_object_new_object();
	if (x) {
		rs_json_add(x, "map_full", rs_json_u64(r->lost[RSCG_LOST_FULL]));
		rs_json_add(x, "other", rs_json_u64(r->lost[RSCG_LOST_OTHER]));
		rs_json_add(x, "unknown_class", rs_json_u64(r->lost[RSCG_LOST_CLASS]));
		rs_json_add(x, "other_errno", rs_json_u64(r->lost[RSCG_LOST_ERRNO]));
	}
	rs_json_add(o, "lost", x);
	for (j = 0; j < 3; j++) {
		const struct rscg_row *b = &r->buckets[j];

		/* the counts apart, as a cgroup's: "idle" is an estimate too */
		x = json_object_new_object();
		if (x) {
			rs_json_add(x, "samples", json_classes(&b->acc));
			rs_json_add(x, "busy", json_est(&b->e[RSCG_G_BUSY]));
			rs_json_add(x, "interrupts", json_est(&b->e[RSCG_G_INTR]));
			rs_json_add(x, "idle", json_est(&b->e[RSCG_G_IDLE]));
		}
		rs_json_add(o, sname[j], x);
	}
	a = json_object_new_array();
	for (i = 0; a && i < r->nrows; i++)
		if (r->rows[i].shown)
			json_object_array_add(a, json_row(&r->rows[i]));
	rs_json_add(o, "cgroups", a);
	return rs_json_print(f, o);
}
