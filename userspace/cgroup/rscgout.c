// SPDX-License-Identifier: GPL-2.0
/*
 * randstat cgroup's JSON (--json): one object per interval, on one line
 * (rscg.h, struct rscg_report).  Apart from the command, so that the unit
 * tests (tests/test_cgroup.c) see what it writes.
 */
#include <math.h>

#include "rscg.h"

static const char *const cls_names[RSCG_NCLASSES] = {
	"user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal",
	"guest", "guest_nice",
};

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static void json_num(FILE *f, double x)
{
	if (isnan(x))
		fputs("null", f);
	else
		fprintf(f, "%.4f", x);
}

static void json_est(FILE *f, const char *name, const struct rscg_est *e)
{
	fprintf(f, "\"%s\":{\"samples\":%llu,\"pct\":", name, (unsigned long long)e->k);
	json_num(f, e->pct);
	fputs(",\"ci\":[", f);
	json_num(f, e->lo);
	fputc(',', f);
	json_num(f, e->hi);
	fputs("]}", f);
}

/**
 * rscg_json_print() - one interval's report, one JSON object on one line
 * @f: where to
 * @r: the report
 *
 * Return: 0, or -1 if it could not be written.
 */
int rscg_json_print(FILE *f, const struct rscg_report *r)
{
	static const char *const sname[] = { "interrupts", "idle", "removed" };
	const struct rscg_row *sp = r->buckets;
	const uint64_t *dlost = r->lost;
	size_t i;
	int j, c;
	bool first = true;

	fprintf(f, "{\"view\":\"cgroup\",\"time\":%lld,\"interval_s\":%.6f,\"attach\":\"%s\","
		"\"map_entries\":%zu,\"samples\":{\"randstat\":%llu,\"counted\":%llu},"
		"\"lost\":{\"map_full\":%llu,\"other\":%llu,\"unknown_class\":%llu,\"other_errno\":%llu}",
		r->time, r->interval_s, r->attach, r->map_entries,
		(unsigned long long)r->samples_randstat,
		(unsigned long long)r->samples_counted,
		(unsigned long long)dlost[RSCG_LOST_FULL],
		(unsigned long long)dlost[RSCG_LOST_OTHER],
		(unsigned long long)dlost[RSCG_LOST_CLASS],
		(unsigned long long)dlost[RSCG_LOST_ERRNO]);
	for (j = 0; j < 3; j++) {
		fprintf(f, ",\"%s\":{", sname[j]);
		for (c = 0; c < RSCG_NCLASSES; c++)
			fprintf(f, "%s\"%s\":%llu", c ? "," : "", cls_names[c],
				(unsigned long long)sp[j].acc.k[c]);
		fprintf(f, ",");
		json_est(f, "busy", &sp[j].e[RSCG_G_BUSY]);
		fprintf(f, ",");
		json_est(f, "interrupts", &sp[j].e[RSCG_G_INTR]);
		fprintf(f, ",");
		json_est(f, "idle", &sp[j].e[RSCG_G_IDLE]);
		fprintf(f, "}");
	}
	fprintf(f, ",\"cgroups\":[");
	for (i = 0; i < r->nrows; i++) {
		const struct rscg_row *w = &r->rows[i];

		if (!w->shown)
			continue;
		fprintf(f, "%s{\"path\":", first ? "" : ",");
		first = false;
		json_str(f, w->path);
		fprintf(f, ",\"id\":%llu,\"depth\":%d,\"samples\":{", (unsigned long long)w->id, w->depth);
		for (c = 0; c < RSCG_NCLASSES; c++)
			fprintf(f, "%s\"%s\":%llu", c ? "," : "", cls_names[c],
				(unsigned long long)w->acc.k[c]);
		fprintf(f, "},\"randstat\":{");
		json_est(f, "usr", &w->e[RSCG_G_USR]);
		fputc(',', f);
		json_est(f, "nice", &w->e[RSCG_G_NICE]);
		fputc(',', f);
		json_est(f, "sys", &w->e[RSCG_G_SYS]);
		fputc(',', f);
		json_est(f, "user_all", &w->e[RSCG_G_USER_ALL]);
		fputc(',', f);
		json_est(f, "busy", &w->e[RSCG_G_BUSY]);
		fprintf(f, "},\"cpu_stat\":");
		if (isnan(w->k_usage)) {
			fprintf(f, "null}");
			continue;
		}
		fprintf(f, "{\"usage\":%.4f,\"user\":%.4f,\"system\":%.4f,"
			"\"user_outside\":%s,\"system_outside\":%s}}",
			w->k_usage, w->k_user, w->k_system,
			w->out_user ? "true" : "false", w->out_system ? "true" : "false");
	}
	fprintf(f, "]}\n");
	return fflush(f) || ferror(f) ? -1 : 0;
}
