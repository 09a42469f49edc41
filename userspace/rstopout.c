// SPDX-License-Identifier: GPL-2.0
/*
 * randstat top: a report of one interval, as text (a table like top's,
 * with randstat's interval and the kernel's figure beside each share) or
 * as one JSON object on one line.  randstat.1 describes both.
 */
#include <math.h>
#include <string.h>

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

/* A JSON string; bytes above 0x7e as \u00XX (comm need not be UTF-8). */
static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c > 0x7e)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void json_number(FILE *f, double v, int prec)
{
	if (isnan(v))
		fputs("null", f);
	else
		fprintf(f, "%.*f", prec, v);
}

static void json_classes(FILE *f, const uint64_t *v)
{
	int i;

	fputc('{', f);
	for (i = 0; i < RS_NCOLS; i++)
		fprintf(f, "%s\"%s\":%llu", i ? "," : "", class_key[i],
			(unsigned long long)v[i]);
	fputc('}', f);
}

static void json_task(FILE *f, const struct rs_task *t, bool threads)
{
	const char *sep = "";

	fprintf(f, "{\"pid\":%d", threads ? t->tgid : t->id);
	if (threads)
		fprintf(f, ",\"tid\":%d", t->id);
	fputs(",\"comm\":", f);
	json_string(f, t->comm);
	fputs(",\"samples\":", f);
	json_classes(f, t->samples);
	fprintf(f, ",\"randstat\":{\"pct\":{\"usr\":%.4f,\"sys\":%.4f}",
		t->usr.pct, t->sys.pct);
	fprintf(f, ",\"ci95\":{\"usr\":[%.4f,%.4f],\"sys\":[%.4f,%.4f]}}",
		t->usr.lo, t->usr.hi, t->sys.lo, t->sys.hi);
	fputs(",\"kernel\":", f);
	if (t->has_kernel) {
		fputs("{\"pct\":{\"usr\":", f);
		json_number(f, t->usr.kernel, 4);
		fputs(",\"sys\":", f);
		json_number(f, t->sys.kernel, 4);
		fputs("}}", f);
	} else {
		fputs("null", f);
	}
	fputs(",\"outside\":[", f);
	if (t->usr.outside) {
		fputs("\"usr\"", f);
		sep = ",";
	}
	if (t->sys.outside)
		fprintf(f, "%s\"sys\"", sep);
	fputs("]}", f);
}

void rs_top_json(FILE *f, const struct rs_top_report *r)
{
	const struct rs_tasks *t = r->tasks;
	unsigned int i;
	size_t k;

	fprintf(f, "{\"view\":\"top\",\"threads\":%s,\"time\":%.3f,\"interval_s\":%.6f",
		t->threads ? "true" : "false", r->time, r->interval_s);
	fprintf(f, ",\"law\":\"%s\",\"floor_ns\":%llu,\"mean_ns\":%llu,\"tmin_ns\":%llu,\"tmax_ns\":%llu,\"mean_interval_ns\":%.0f",
		rs_law_name[r->law], (unsigned long long)r->floor_ns,
		(unsigned long long)r->mean_ns,
		(unsigned long long)r->tmin_ns,
		(unsigned long long)r->tmax_ns, r->mu_ns);
	fputs(",\"samples\":", f);
	json_classes(f, t->samples);
	fprintf(f, ",\"unknown_samples\":%llu,\"lost\":",
		(unsigned long long)t->unknown);
	if (r->lost_unknown)
		fputs("null", f);
	else
		fprintf(f, "%llu", (unsigned long long)r->lost);
	fprintf(f, ",\"active\":%zu,\"notes\":[", r->active);
	for (i = 0; i < r->nnotes; i++) {
		if (i)
			fputc(',', f);
		json_string(f, r->notes[i]);
	}
	fputs("],\"tasks\":[", f);
	for (k = 0; k < r->shown; k++) {
		if (k)
			fputc(',', f);
		json_task(f, &t->v[k], t->threads);
	}
	fputs("]}\n", f);
}
