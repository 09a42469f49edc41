// SPDX-License-Identifier: GPL-2.0
/*
 * randstat top: a report of one interval, as text (a table like top's,
 * with randstat's interval and the kernel's figure beside each share) or
 * as one JSON object on one line.  randstat.1 describes both.
 */
#include <math.h>
#include <string.h>

#include "rsjson.h"
#include "rstopout.h"

static const char *const class_key[RS_NCOLS] = {
	"user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal",
	"guest", "guest_nice",
};

/* The law, as the CPU view's legend says it. */
void rs_top_legend(FILE *f, const struct rs_top_report *r)
{
	if (r->law == RS_LAW_UNIFORM)
		fprintf(f, "randstat top: samples at uniformly random intervals in [%.3f, %.3f] ms, mean %.3f ms\n",
			r->tmin_ns / 1e6, r->tmax_ns / 1e6, r->mu_ns / 1e6);
	else
		fprintf(f, "randstat top: samples at random times, intervals %.3f ms + exponential, mean %.3f ms\n",
			r->floor_ns / 1e6, r->mu_ns / 1e6);
	fputs("Each task's user and system time over the interval, in % of one CPU: randstat's\n"
	      "(its samples times the mean interval) with its 95% interval, and the kernel's\n"
	      "utime and stime from /proc.  A '*' marks a kernel figure outside randstat's\n"
	      "interval by more than the kernel's resolution of one clock tick.\n", f);
}

/* Print a row without trailing blanks. */
static void put_row(FILE *f, char *buf, char *end)
{
	while (end > buf && end[-1] == ' ')
		end--;
	*end = '\0';
	fputs(buf, f);
	fputc('\n', f);
}

/* A comm for a table: control characters (and DEL) as '?'. */
static void text_comm(char out[RS_COMM_LEN], const char *comm)
{
	size_t i;

	for (i = 0; i < RS_COMM_LEN - 1 && comm[i]; i++)
		out[i] = (unsigned char)comm[i] < 0x20 || comm[i] == 0x7f ?
			 '?' : comm[i];
	out[i] = '\0';
	if (!i)
		strcpy(out, "?");
}

static char *text_share(char *p, const struct rs_share *s)
{
	p += sprintf(p, " %7.2f [%7.2f %7.2f]", s->pct, s->lo, s->hi);
	if (isnan(s->kernel))
		p += sprintf(p, " %7s ", "-");
	else
		p += sprintf(p, " %7.2f%c", s->kernel, s->outside ? '*' : ' ');
	return p;
}

static void text_header(FILE *f, bool threads)
{
	char buf[256], *p = buf;

	if (threads)
		p += sprintf(p, "%7s %7s", "TGID", "TID");
	else
		p += sprintf(p, "%7s", "PID");
	p += sprintf(p, " %-15s %7s %17s %7s  %7s %17s %7s  %7s", "COMMAND",
		     "%usr", "95% interval", "%utime", "%sys", "95% interval",
		     "%stime", "samples");
	put_row(f, buf, p);
}

static void text_task(FILE *f, const struct rs_task *t, bool threads)
{
	char buf[256], comm[RS_COMM_LEN], *p = buf;

	if (threads)
		p += sprintf(p, "%7d %7d", t->tgid, t->id);
	else
		p += sprintf(p, "%7d", t->id);
	text_comm(comm, t->comm);
	p += sprintf(p, " %-15s", comm);
	p = text_share(p, &t->usr);
	p = text_share(p, &t->sys);
	p += sprintf(p, " %7llu", (unsigned long long)(t->usr.k + t->sys.k));
	put_row(f, buf, p);
}

/* The interval's samples by class, those that are there. */
static void text_samples(FILE *f, const struct rs_top_report *r)
{
	const struct rs_tasks *t = r->tasks;
	uint64_t all = t->unknown;
	const char *sep = "";
	int i;

	for (i = 0; i < RS_NCOLS; i++)
		all += t->samples[i];
	fprintf(f, "samples: %llu (", (unsigned long long)all);
	for (i = 0; i < RS_NCOLS; i++) {
		/* user and system always; the others when there */
		if (!t->samples[i] && i != RS_USER && i != RS_SYSTEM)
			continue;
		fprintf(f, "%s%s %llu", sep, class_key[i],
			(unsigned long long)t->samples[i]);
		sep = ", ";
	}
	fprintf(f, "); %zu %s with user or system time, %zu shown\n",
		r->active, t->threads ? "threads" : "processes", r->shown);
}

void rs_top_text(FILE *f, const struct rs_top_report *r)
{
	unsigned int i;
	size_t k;

	fprintf(f, "\n%s  interval %.3f s\n", r->title, r->interval_s);
	text_samples(f, r);
	for (i = 0; i < r->nnotes; i++)
		fprintf(f, "note: %s\n", r->notes[i]);
	if (!r->shown)
		return;
	text_header(f, r->tasks->threads);
	for (k = 0; k < r->shown; k++)
		text_task(f, &r->tasks->v[k], r->tasks->threads);
}

/* --- JSON ------------------------------------------------------------ */

static struct json_object *json_classes(const uint64_t *v)
{
	struct json_object *o = json_object_new_object();
	int i;

	for (i = 0; o && i < RS_NCOLS; i++)
		rs_json_add(o, class_key[i], rs_json_u64(v[i]));
	return o;
}

static struct json_object *json_pair(double a, double b)
{
	struct json_object *o = json_object_new_array();

	if (o) {
		json_object_array_add(o, rs_json_fixed(a, 4));
		json_object_array_add(o, rs_json_fixed(b, 4));
	}
	return o;
}

static struct json_object *json_usr_sys(struct json_object *usr,
					struct json_object *sys)
{
	struct json_object *o = json_object_new_object();

	rs_json_add(o, "usr", usr);
	rs_json_add(o, "sys", sys);
	return o;
}

static struct json_object *json_task(const struct rs_task *t, bool threads)
{
	struct json_object *o = json_object_new_object(), *x, *out;

	if (!o)
		return NULL;
	rs_json_add(o, "pid", json_object_new_int(threads ? t->tgid : t->id));
	if (threads)
		rs_json_add(o, "tid", json_object_new_int(t->id));
	rs_json_add(o, "comm", rs_json_str(t->comm));
	rs_json_add(o, "samples", json_classes(t->samples));
	x = json_object_new_object();
	if (x) {
		rs_json_add(x, "pct", json_usr_sys(rs_json_fixed(t->usr.pct, 4),
						   rs_json_fixed(t->sys.pct, 4)));
		rs_json_add(x, "ci95", json_usr_sys(json_pair(t->usr.lo, t->usr.hi),
						    json_pair(t->sys.lo, t->sys.hi)));
	}
	rs_json_add(o, "randstat", x);
	x = NULL;
	if (t->has_kernel && (x = json_object_new_object()))
		rs_json_add(x, "pct", json_usr_sys(rs_json_fixed(t->usr.kernel, 4),
						   rs_json_fixed(t->sys.kernel, 4)));
	rs_json_add(o, "kernel", x);
	out = json_object_new_array();
	if (out && t->usr.outside)
		json_object_array_add(out, rs_json_str("usr"));
	if (out && t->sys.outside)
		json_object_array_add(out, rs_json_str("sys"));
	rs_json_add(o, "outside", out);
	return o;
}

/* One report, one line; -1 if it could not be made or written. */
int rs_top_json(FILE *f, const struct rs_top_report *r)
{
	const struct rs_tasks *t = r->tasks;
	struct json_object *o = json_object_new_object(), *a;
	unsigned int i;
	size_t k;

	if (!o)
		return -1;
	rs_json_add(o, "version", json_object_new_int(RS_JSON_VERSION));
	rs_json_add(o, "view", rs_json_str("top"));
	rs_json_add(o, "threads", rs_json_bool(t->threads));
	rs_json_add(o, "time", rs_json_fixed(r->time, 3));
	rs_json_add(o, "interval_s", rs_json_fixed(r->interval_s, 6));
	rs_json_add(o, "law", rs_json_str(rs_law_name[r->law]));
	rs_json_add(o, "floor_ns", rs_json_u64(r->floor_ns));
	rs_json_add(o, "mean_ns", rs_json_u64(r->mean_ns));
	rs_json_add(o, "tmin_ns", rs_json_u64(r->tmin_ns));
	rs_json_add(o, "tmax_ns", rs_json_u64(r->tmax_ns));
	rs_json_add(o, "mean_interval_ns", rs_json_fixed(r->mu_ns, 0));
	rs_json_add(o, "samples", json_classes(t->samples));
	rs_json_add(o, "unknown_samples", rs_json_u64(t->unknown));
	rs_json_add(o, "lost", r->lost_unknown ? NULL : rs_json_u64(r->lost));
	rs_json_add(o, "active", rs_json_u64(r->active));
	a = json_object_new_array();
	for (i = 0; a && i < r->nnotes; i++)
		json_object_array_add(a, rs_json_str(r->notes[i]));
	rs_json_add(o, "notes", a);
	a = json_object_new_array();
	for (k = 0; a && k < r->shown; k++)
		json_object_array_add(a, json_task(&t->v[k], t->threads));
	rs_json_add(o, "tasks", a);
	return rs_json_print(f, o);
}
