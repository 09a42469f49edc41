// SPDX-License-Identifier: GPL-2.0
/*
 * randstat cgroup: unit tests of the arithmetic (rscgcalc.c) and of the
 * command line's error paths that need no BPF (TAP).
 *
 *   tests/test_cgroup ./randstat-cgroup
 */
#define _GNU_SOURCE	/* unshare() */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include "rscg.h"
#include "rsjson.h"
#include "rsparse.h"
#include "tests/tap.h"

static const char *prog;
static bool fake;		/* run_as() can make its namespace */

static const char rs_v4[] =
	"randstat 5 law exponential floor_ns 50000 mean_ns 4000000 tmin_ns 2000000 tmax_ns 6000000 user_hz 100\n"
	"cpu  2 0 9 589 0 0 0 0 0 0\n"
	"ns cpu0 4017552 0 75219013 2949429131 0 0 0 0 0 0\n"
	"sampler cpu0 online 1 mode sampled dormant 1 elapsed_ns 3028665696 sampled_ns 216643578 samples 54 overruns 0 dormancies 31 cost_ns 393856 cost_max_ns 33902 late_ns 4633466 late_max_ns 486148\n"
	"sampler cpu1 online 1 mode sampled dormant 0 elapsed_ns 3028665696 sampled_ns 3000000000 samples 750 overruns 0 dormancies 0 cost_ns 1 cost_max_ns 1 late_ns 1 late_max_ns 1\n";

static void t_samplers(void)
{
	struct rscg_sampler v[4];
	static const char bad[] = "sampler cpu0 online 1 sampled_ns x samples 3\n";
	static const char big[] = "sampler cpu9 online 1 sampled_ns 1 samples 3\n";
	static const char nokey[] = "sampler cpu0 online 1 samples 3\n";

	EXPECT(rscg_parse_samplers(rs_v4, strlen(rs_v4), v, 4) == 2);
	EXPECT(v[0].seen && v[0].sampled_ns == 216643578 && v[0].samples == 54);
	EXPECT(v[1].seen && v[1].sampled_ns == 3000000000ull && v[1].samples == 750);
	EXPECT(!v[2].seen && !v[3].seen);
	EXPECT(rscg_parse_samplers(bad, strlen(bad), v, 4) == -1);
	EXPECT(rscg_parse_samplers(big, strlen(big), v, 4) == -1);
	EXPECT(rscg_parse_samplers(nokey, strlen(nokey), v, 4) == -1);
	EXPECT(rscg_parse_samplers("cpu 1 2\n", 8, v, 4) == 0);
}

static void t_per_sample(void)
{
	struct rscg_sampler a[2] = { { true, 1000, 10 }, { true, 0, 0 } };
	struct rscg_sampler b[2] = { { true, 41000, 20 }, { true, 8000000, 2 } };

	EXPECT_NEAR(rscg_ns_per_sample(&a[0], &b[0]), 4000, 1e-9);
	EXPECT_NEAR(rscg_ns_per_sample(&a[1], &b[1]), 4e6, 1e-9);
	/* no sample in between, a reset, a CPU not seen: 0 */
	EXPECT(rscg_ns_per_sample(&a[0], &a[0]) == 0);
	EXPECT(rscg_ns_per_sample(&b[0], &a[0]) == 0);
	b[1].seen = false;
	EXPECT(rscg_ns_per_sample(&a[1], &b[1]) == 0);
	/* the mean over the CPUs that count: cpu0 alone now */
	EXPECT_NEAR(rscg_mean_ns_per_sample(a, b, 2), 4000, 1e-9);
	b[1].seen = true;
	EXPECT_NEAR(rscg_mean_ns_per_sample(a, b, 2), (40000.0 + 8e6) / 12, 1e-6);
}

/* Each CPU's samples weighted by its own time per sample. */
static void t_weights(void)
{
	struct rscg_acc r;
	struct rscg_est e;

	memset(&r, 0, sizeof(r));
	rscg_acc_add(&r, RSCG_USER, 100, 4e6);	/* cpu0: 0.4 s */
	rscg_acc_add(&r, RSCG_USER, 100, 2e6);	/* cpu1: 0.2 s */
	rscg_acc_add(&r, RSCG_GUEST, 10, 4e6);	/* user too: 0.04 s */
	rscg_acc_add(&r, RSCG_SYSTEM, 50, 4e6);
	rscg_acc_add(&r, RSCG_SOFTIRQ, 7, 4e6);
	rscg_acc_add(&r, RSCG_NCLASSES, 7, 4e6);	/* ignored */
	rscg_acc_add(&r, -1, 7, 4e6);
	rscg_estimate(&r, RSCG_G_USR, 1e9, 4e6, &e);
	EXPECT(e.k == 210);
	EXPECT_NEAR(e.ns, 0.64e9, 1);
	EXPECT_NEAR(e.pct, 64, 1e-9);
	/* Garwood for k = 210: [182.6, 240.4] (R: qchisq), at 0.64/210 s each */
	EXPECT_NEAR(e.lo, 182.62 * 0.64 / 210 * 100, 0.02);
	EXPECT_NEAR(e.hi, 240.44 * 0.64 / 210 * 100, 0.02);
	rscg_estimate(&r, RSCG_G_BUSY, 1e9, 4e6, &e);
	EXPECT(e.k == 260);
	EXPECT_NEAR(e.pct, 84, 1e-9);
	rscg_estimate(&r, RSCG_G_INTR, 1e9, 4e6, &e);
	EXPECT(e.k == 7);
	rscg_estimate(&r, RSCG_G_IDLE, 1e9, 4e6, &e);
	EXPECT(e.k == 0 && e.pct == 0 && e.lo == 0);
	/* no sample: the upper end at the fallback weight, 3.689 x 4 ms / 1 s */
	EXPECT_NEAR(e.hi, 3.6889 * 0.4, 1e-3);
	rscg_estimate(&r, RSCG_G_USR, 0, 4e6, &e);
	EXPECT(isnan(e.pct));
}

static void t_groups(void)
{
	EXPECT(rscg_group_mask(RSCG_G_USER_ALL) ==
	       (1u << RSCG_USER | 1u << RSCG_GUEST | 1u << RSCG_NICE | 1u << RSCG_GUEST_NICE));
	EXPECT(!(rscg_group_mask(RSCG_G_BUSY) &
		 (rscg_group_mask(RSCG_G_INTR) | rscg_group_mask(RSCG_G_IDLE))));
	EXPECT(!(rscg_group_mask(RSCG_G_BUSY) & 1u << RSCG_STEAL));
}

/* Parents get their children's samples (the tree add, by hand). */
static void t_merge(void)
{
	struct rscg_acc child, parent;

	memset(&child, 0, sizeof(child));
	memset(&parent, 0, sizeof(parent));
	rscg_acc_add(&child, RSCG_SYSTEM, 3, 1e6);
	rscg_acc_add(&parent, RSCG_SYSTEM, 2, 2e6);
	rscg_acc_merge(&parent, &child);
	EXPECT(parent.k[RSCG_SYSTEM] == 5);
	EXPECT_NEAR(parent.ns[RSCG_SYSTEM], 7e6, 1e-6);
	EXPECT(child.k[RSCG_SYSTEM] == 3);
}

static void t_cpustat(void)
{
	static const char ok[] = "usage_usec 3000\nuser_usec 2000\nsystem_usec 1000\n"
		"nr_periods 0\nnr_throttled 0\nthrottled_usec 0\n";
	static const char missing[] = "usage_usec 3000\nuser_usec 2000\n";
	static const char bad[] = "usage_usec 3000\nuser_usec 2x00\nsystem_usec 1\n";
	uint64_t u = 0, us = 0, sy = 0;

	EXPECT(!rscg_parse_cpustat(ok, strlen(ok), &u, &us, &sy));
	EXPECT(u == 3000 && us == 2000 && sy == 1000);
	EXPECT(rscg_parse_cpustat(missing, strlen(missing), &u, &us, &sy) == -1);
	EXPECT(rscg_parse_cpustat(bad, strlen(bad), &u, &us, &sy) == -1);
}

static void t_outside(void)
{
	struct rscg_est e = { .lo = 10, .hi = 20 };

	EXPECT(!rscg_outside(15, &e, 1e9));
	EXPECT(!rscg_outside(20.004, &e, 1e9));	/* the printed rounding */
	EXPECT(rscg_outside(20.2, &e, 1e9));
	EXPECT(rscg_outside(9.8, &e, 1e9));
	EXPECT(!rscg_outside(NAN, &e, 1e9));
}

/* The output of @cmd (stdout and stderr) into @out; its exit status. */
static int shell(const char *cmd, char *out, size_t len)
{
	FILE *f = popen(cmd, "r");
	size_t n;
	int st;

	out[0] = '\0';
	if (!f)
		return -1;
	n = fread(out, 1, len - 1, f);
	out[n] = '\0';
	st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* rscg_prom_format() of @ser into @buf (@size), NUL-terminated. */
static void prom_text(const struct rscg_prom_series *ser, size_t n,
		      char *buf, size_t size)
{
	double nobody[RSCG_NCLASSES] = { 0 };
	uint64_t lost[RSCG_NLOST] = { 3, 4, 5, 99 };
	size_t len = 0;
	FILE *f = tmpfile();

	buf[0] = '\0';
	EXPECT(f != NULL);
	if (!f)
		return;
	nobody[RSCG_SOFTIRQ] = 0.5e9;
	nobody[RSCG_USER] = 7e9;	/* not written: not nobody's class */
	rscg_prom_format(f, ser, n, nobody, lost);
	EXPECT(!ferror(f));
	rewind(f);
	len = fread(buf, 1, size - 1, f);
	buf[len] = '\0';
	fclose(f);
}

static const struct rscg_prom_series prom_ser[] = {
	{ "/", { 1.5e9, 0, 2.25e9 } },
	{ "/odd\"na\\me", { 1e6, 2e6, 3e6 } },
};

/* The Prometheus text: its lines and escaping. */
static void t_prom(void)
{
	char buf[8192];

	prom_text(prom_ser, 2, buf, sizeof(buf));
	EXPECT_HAS(buf, "# TYPE randstat_cgroup_cpu_seconds_total counter\n");
	EXPECT_HAS(buf, "\nrandstat_cgroup_cpu_seconds_total{cgroup=\"/\",mode=\"user\"} 1.500000\n");
	EXPECT_HAS(buf, "\nrandstat_cgroup_cpu_seconds_total{cgroup=\"/\",mode=\"system\"} 2.250000\n");
	EXPECT_HAS(buf, "{cgroup=\"/odd\\\"na\\\\me\",mode=\"nice\"} 0.002000\n");
	EXPECT_HAS(buf, "randstat_cgroup_unattributed_seconds_total{mode=\"softirq\"} 0.500000\n");
	EXPECT_HASNT(buf, "mode=\"user\"} 7.");
	EXPECT_HAS(buf, "randstat_cgroup_lost_samples_total{reason=\"map_full\"} 3\n");
	EXPECT_HAS(buf, "randstat_cgroup_lost_samples_total{reason=\"unknown_class\"} 5\n");
	EXPECT_HASNT(buf, "99");
}

/*
 * promtool (Debian's prometheus; make check puts the copy tests/deps.sh
 * unpacks on PATH, tests/unpack.sh): "check metrics" parses @text, lints
 * it and says nothing.  Its words, on failure, as comments.
 */
static void expect_promtool(const char *text)
{
	char path[] = "/tmp/test_cgroup.XXXXXX", cmd[256], out[4096];
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	EXPECT(f != NULL);
	if (!f)
		return;
	fputs(text, f);
	EXPECT(!fclose(f));
	snprintf(cmd, sizeof(cmd), "promtool check metrics <%s 2>&1", path);
	EXPECT(shell(cmd, out, sizeof(out)) == 0);
	EXPECT_HASNT(out, "error");
	unlink(path);
}

static void t_promtool(void)
{
	char buf[8192];

	prom_text(prom_ser, 2, buf, sizeof(buf));
	expect_promtool(buf);
}

/*
 * A cgroup's name is any bytes but '/': label values must be UTF-8 (the
 * exposition format; promtool says "invalid label value", node_exporter
 * drops the whole file).  Bytes that are not UTF-8 become U+FFFD, "é"
 * stays, a newline is \n.
 */
static const struct rscg_prom_series prom_odd[] = {
	{ "/caf\xc3\xa9/bad\xff\xc3(\n)\xed\xa0\x80", { 1e9, 0, 0 } },
};

static void t_prom_utf8(void)
{
	char buf[8192];

	prom_text(prom_odd, 1, buf, sizeof(buf));
	EXPECT_HAS(buf, "{cgroup=\"/caf\xc3\xa9/bad\xef\xbf\xbd\xef\xbf\xbd(\\n)"
		   "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\",mode=\"user\"} 1.000000\n");
}

static void t_promtool_utf8(void)
{
	char buf[8192];

	prom_text(prom_odd, 1, buf, sizeof(buf));
	expect_promtool(buf);
}

static bool have_promtool(void)
{
	return system("command -v promtool >/dev/null 2>&1") == 0;
}

/*
 * A report of two cgroups: one with a name that is not UTF-8 and has a
 * quote, a backslash and control characters, one without cpu.stat;
 * rscg_json_print() of it in @buf.
 */
static void json_report(char *buf, size_t size)
{
	static struct rscg_row rows[3], sp[3];
	static const uint64_t lost[RSCG_NLOST] = { 1, 2, 3, 4 };
	struct rscg_report r = {
		.time = 1700000000, .interval_s = 1.5, .attach = "raw_tp",
		.map_entries = 7, .samples_randstat = 100, .samples_counted = 98,
		.lost = lost, .buckets = sp, .rows = rows, .nrows = 3,
	};
	size_t n;
	FILE *f = tmpfile();

	buf[0] = '\0';
	EXPECT(f != NULL);
	if (!f)
		return;
	memset(rows, 0, sizeof(rows));
	memset(sp, 0, sizeof(sp));
	rows[0] = (struct rscg_row){ .path = "/q\"uo\\te\n\x01/bad\xff", .id = 42,
		.depth = 2, .k_usage = 12.5, .k_user = 10, .k_system = 2.5,
		.out_system = true, .shown = true };
	rows[0].acc.k[RSCG_USER] = 3;
	rows[0].e[RSCG_G_USR] = (struct rscg_est){ .k = 3, .pct = 1.25,
		.lo = 0.25, .hi = 3.5 };
	rows[1] = (struct rscg_row){ .path = "/hidden", .id = 43 };
	rows[2] = (struct rscg_row){ .path = "/caf\xc3\xa9", .id = 44,
		.k_usage = NAN, .shown = true };
	rows[2].e[RSCG_G_SYS].pct = NAN;
	sp[0].acc.k[RSCG_IRQ] = 5;
	sp[0].e[RSCG_G_INTR] = (struct rscg_est){ .k = 5, .pct = 2, .lo = 0.5, .hi = 4.5 };
	sp[1].acc.k[RSCG_IDLE] = 9;
	sp[1].e[RSCG_G_IDLE].k = 8;
	EXPECT(rscg_json_print(f, &r) == 0);
	rewind(f);
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/* @buf's one object, parsed by json-c's strict tokener, UTF-8 checked. */
static struct json_object *json_parse_strict(const char *buf)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *o;
	size_t len = strlen(buf);

	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	EXPECT(len && buf[len - 1] == '\n' && !memchr(buf, '\n', len - 1));
	o = json_tokener_parse_ex(tok, buf, (int)len - 1);
	if (!o)
		printf("# json-c: %s\n", json_tokener_error_desc(json_tokener_get_error(tok)));
	EXPECT(o != NULL);
	json_tokener_free(tok);
	return o;
}

static struct json_object *jget(struct json_object *o, const char *path)
{
	char key[64];
	const char *p = path;

	while (o && *p) {
		size_t n = strcspn(p, ".");

		snprintf(key, sizeof(key), "%.*s", (int)n, p);
		if (json_object_is_type(o, json_type_array))
			o = json_object_array_get_idx(o, (size_t)atoi(key));
		else if (!json_object_object_get_ex(o, key, &o))
			o = NULL;
		p += n + !!p[n];
	}
	return o;
}

static const char *jstr(struct json_object *o)
{
	const char *s = o ? json_object_get_string(o) : NULL;

	return s ? s : "";
}

/* Valid JSON whatever the cgroup's name: escaped, not UTF-8 as U+FFFD. */
static void t_json_strict(void)
{
	char buf[16384];
	struct json_object *o;

	json_report(buf, sizeof(buf));
	o = json_parse_strict(buf);
	if (!o)
		return;
	EXPECT(!strcmp(jstr(jget(o, "cgroups.0.path")),
		       "/q\"uo\\te\n\x01/bad\xef\xbf\xbd"));
	EXPECT(!strcmp(jstr(jget(o, "cgroups.1.path")),
		       "/caf\xc3\xa9"));
	EXPECT(!jget(o, "cgroups.2"));	/* not shown */
	EXPECT(json_object_get_int64(jget(o, "cgroups.0.id")) == 42);
	EXPECT(json_object_get_boolean(jget(o, "cgroups.0.cpu_stat.system_outside")));
	EXPECT(json_object_is_type(jget(o, "cgroups.1.cpu_stat"), json_type_null));
	EXPECT(json_object_get_int64(jget(o, "lost.other_errno")) == 4);
	EXPECT(json_object_get_int64(jget(o, "interrupts.samples.irq")) == 5);
	/* a bucket's idle count and its idle estimate, both there */
	EXPECT(json_object_get_int64(jget(o, "idle.samples.idle")) == 9);
	EXPECT(json_object_get_int64(jget(o, "idle.idle.samples")) == 8);
	json_object_put(o);
}

/*
 * The schema of every randstat JSON: "version" first (RS_JSON_VERSION),
 * a 95% interval as "ci95": [lo, hi], in the estimate's units (% here).
 */
static void t_json_ci95(void)
{
	char buf[16384];
	struct json_object *o, *ci;

	json_report(buf, sizeof(buf));
	EXPECT(!strncmp(buf, "{\"version\":", 11));
	EXPECT_HASNT(buf, "\"ci\"");
	o = json_parse_strict(buf);
	if (!o)
		return;
	EXPECT(json_object_get_int(jget(o, "version")) == RS_JSON_VERSION);
	ci = jget(o, "cgroups.0.randstat.usr.ci95");
	EXPECT(json_object_is_type(ci, json_type_array) &&
	       json_object_array_length(ci) == 2);
	EXPECT_NEAR(json_object_get_double(jget(o, "cgroups.0.randstat.usr.ci95.0")), 0.25, 1e-9);
	EXPECT_NEAR(json_object_get_double(jget(o, "cgroups.0.randstat.usr.ci95.1")), 3.5, 1e-9);
	EXPECT_NEAR(json_object_get_double(jget(o, "cgroups.0.randstat.usr.pct")), 1.25, 1e-9);
	EXPECT_NEAR(json_object_get_double(jget(o, "interrupts.interrupts.ci95.1")), 4.5, 1e-9);
	/* no estimate (NaN): null */
	EXPECT(json_object_is_type(jget(o, "cgroups.1.randstat.sys.pct"), json_type_null));
	json_object_put(o);
}

/* Python's json module (what a script reads it with) takes it too. */
static void t_json_python(void)
{
	char buf[16384], path[] = "/tmp/test_cgroup.XXXXXX", cmd[256], out[4096];
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	EXPECT(f != NULL);
	if (!f)
		return;
	json_report(buf, sizeof(buf));
	fputs(buf, f);
	EXPECT(!fclose(f));
	snprintf(cmd, sizeof(cmd), "python3 -c 'import json, sys; "
		 "o = json.loads(sys.stdin.buffer.read()); print(ascii(o[\"cgroups\"][0][\"path\"]))' "
		 "<%s 2>&1", path);
	EXPECT(shell(cmd, out, sizeof(out)) == 0);
	EXPECT_HAS(out, "'/q\"uo\\\\te\\n\\x01/bad\\ufffd'\n");
	unlink(path);
}

static bool have_python(void)
{
	return system("command -v python3 >/dev/null 2>&1") == 0;
}

/* run ARGS: the exit status of prog with ARGS, its output in /tmp. */
static int run(const char *args, char *out, size_t len)
{
	char cmd[512];
	FILE *f;
	int st;
	size_t n;

	snprintf(cmd, sizeof(cmd), "%s %s 2>&1", prog, args);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	n = fread(out, 1, len - 1, f);
	out[n] = 0;
	st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* the reader's rule (lib/rsparse.h), as randstat cgroup prints it */
#define INTERVAL_RULE "INTERVAL must be " RS_INTERVAL_RULE ": "

static void t_args(void)
{
	char out[4096];

	EXPECT(run("--help", out, sizeof(out)) == 0);
	EXPECT_HAS(out, "Usage: randstat cgroup [--json]");
	EXPECT(run("cgroup --help", out, sizeof(out)) == 0);
	EXPECT(run("-d x", out, sizeof(out)) == 1);
	EXPECT_HAS(out, "-d takes a whole number from 0 to 1000: 'x'");
	EXPECT_HAS(out, "Try 'randstat cgroup --help'.");
	EXPECT(run("-n 0", out, sizeof(out)) == 1);
	EXPECT_HAS(out, "-n takes a whole number above 0: '0'");
	EXPECT(run("0", out, sizeof(out)) == 1);
	EXPECT_HAS(out, INTERVAL_RULE "'0'");
	/* the reader's rule: what strtod took before is refused */
	EXPECT(run("0x10", out, sizeof(out)) == 1);
	EXPECT_HAS(out, INTERVAL_RULE "'0x10'");
	EXPECT(run("1e-7", out, sizeof(out)) == 1);
	EXPECT_HAS(out, INTERVAL_RULE "'1e-7'");
	EXPECT(run("0.001", out, sizeof(out)) == 1);
	EXPECT_HAS(out, INTERVAL_RULE "'0.001'");
	EXPECT(run("1 0", out, sizeof(out)) == 1);
	EXPECT_HAS(out, "COUNT must be a whole number above 0: '0'");
	EXPECT(run("1 2 3", out, sizeof(out)) == 1);
	EXPECT_HAS(out, "too many arguments: 3");
	EXPECT(run("--json --prometheus /tmp/x", out, sizeof(out)) == 1);
	EXPECT_HAS(out, "--json and --prometheus exclude each other");
	EXPECT(run("--max-entries 0", out, sizeof(out)) == 1);
}

/*
 * -Werror only with WERROR=1, as userspace/Makefile: other compilers and
 * flags (DEB_BUILD_OPTIONS, sanitizers) must build what they warn about.
 * The make that runs this test passes its own WERROR in MAKEFLAGS: unset.
 */
static void t_werror(void)
{
	static const char cmd[] = "env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS "
		"-u WERROR make -n -B randstat-cgroup.o rscg.bpf.o %s 2>&1";
	char line[256], out[16384];

	snprintf(line, sizeof(line), cmd, "");
	EXPECT(shell(line, out, sizeof(out)) == 0);
	EXPECT_HAS(out, "-c -o randstat-cgroup.o randstat-cgroup.c");
	EXPECT_HAS(out, "-target bpf");
	EXPECT_HASNT(out, "-Werror");
	snprintf(line, sizeof(line), cmd, "WERROR=1");
	EXPECT(shell(line, out, sizeof(out)) == 0);
	EXPECT_HAS(out, "-Wextra -Werror");
	EXPECT_HAS(out, "-Wall -Werror -target bpf");
}

struct result {
	int status;		/* exit code, -1 if none; SETUP_FAILED */
	char out[8192];
	char err[8192];
};

#define SETUP_FAILED	99
#define NOBODY		65534
#define ROOT_NOCAPS	-2	/* uid 0 without a capability, as in a container */

/* Drop every capability, for good: uid 0 gets none back at exec. */
static int drop_caps(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	int c;

	memset(d, 0, sizeof(d));
	for (c = 0; c < 64; c++)
		if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) && errno != EINVAL)
			return -1;
	return (int)syscall(SYS_capset, &h, d);
}

enum fake_proc { REAL_PROC, EMPTY_PROC, MODULE_PROC };

/*
 * Run prog with @args (NULL-terminated, after argv[0]), as @uid if not
 * -1 (ROOT_NOCAPS: as root without capabilities), stdout into @out_path if not NULL.  @fp other than REAL_PROC: in a
 * mount namespace of its own, over a /proc of its own (a tmpfs, with the
 * module's /proc/randstat_detail if MODULE_PROC), so that "the module is
 * loaded" or not whatever this host has; a cgroup v2 mounted for --root
 * "@cg".  That needs root: else, or if a mount fails, SETUP_FAILED.
 */
struct child {
	int uid;
	enum fake_proc fp;
	const char *cg;		/* where cgroup v2 is mounted for --root */
	const char *keep;	/* an empty directory, for the real /proc/PID */
};

/*
 * In a mount namespace of its own: cgroup v2 at @c->cg, and a tmpfs over
 * /proc with the module's file if MODULE_PROC.  The process's own
 * /proc/PID (and /proc/self, a link to it) stays the real one, moved in
 * through @c->keep: a sanitizer's runtime reads /proc/self/maps at start
 * (tests/sanitize.sh runs these tests under ASan).  0, or an errno.
 */
static int fake_proc(const struct child *c)
{
	char pid[16], own[32];

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	snprintf(own, sizeof(own), "/proc/%s", pid);
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("none", c->cg, "cgroup2", 0, NULL) ||
	    mount(own, c->keep, NULL, MS_BIND, NULL) ||
	    mount("tmpfs", "/proc", "tmpfs", 0, "mode=0755") ||
	    mkdir(own, 0555) || mount(c->keep, own, NULL, MS_MOVE, NULL) ||
	    symlink(pid, "/proc/self"))
		return errno ? errno : EIO;
	if (c->fp == MODULE_PROC) {
		FILE *f = fopen("/proc/randstat_detail", "w");

		if (!f || fputs(rs_v4, f) < 0 || fclose(f))
			return errno ? errno : EIO;
	}
	return 0;
}

/* run_as()'s child, before exec: its namespace, /proc, uid; 0 or SETUP_FAILED. */
static int child_setup(void *arg)
{
	const struct child *c = arg;

	if (c->fp != REAL_PROC && fake_proc(c))
		return SETUP_FAILED;
	if (c->uid >= 0 && (setgid(c->uid) || setuid(c->uid)))
		return SETUP_FAILED;
	if (c->uid == ROOT_NOCAPS && drop_caps())
		return SETUP_FAILED;
	return 0;
}

static void run_as(struct result *r, int uid, enum fake_proc fp,
		   const char *out_path, const char *const *args)
{
	const char *argv[32] = { prog };
	char cg[] = "/tmp/test_cgroup.cg.XXXXXX";
	char keep[] = "/tmp/test_cgroup.proc.XXXXXX";
	struct child c = { uid, fp, cg, keep };
	FILE *out, *err;
	int argc = 1, st;
	pid_t pid;

	for (; *args && argc < 31; args++)
		argv[argc++] = !strcmp(*args, "@cg") ? cg : *args;
	r->status = -1;
	r->out[0] = r->err[0] = '\0';
	if (fp != REAL_PROC && (!mkdtemp(cg) || !mkdtemp(keep)))
		exit(2);
	pid = tap_spawn(prog, argv, out_path, &out, &err, child_setup, &c);
	if (waitpid(pid, &st, 0) == pid && WIFEXITED(st))
		r->status = WEXITSTATUS(st);
	if (fp != REAL_PROC) {
		rmdir(cg);
		rmdir(keep);
	}
	tap_slurp(out, r->out, sizeof(r->out));
	tap_slurp(err, r->err, sizeof(r->err));
}

#define RUN(r, ...) run_as(r, -1, REAL_PROC, NULL, (const char *const[]){ __VA_ARGS__, NULL })

/* --version, -V: the release (RS_VERSION), exit 0; 4 if unwritten. */
static void t_version(void)
{
	struct result r;
	char want[64];

	snprintf(want, sizeof(want), "randstat cgroup %s\n", RS_VERSION);
	EXPECT(strcmp(RS_VERSION, "unknown"));
	RUN(&r, "--version");
	EXPECT(r.status == 0 && !r.err[0]);
	EXPECT(!strcmp(r.out, want));
	RUN(&r, "cgroup", "-V");
	EXPECT(r.status == 0 && !strcmp(r.out, want));
	RUN(&r, "--help");
	EXPECT_HAS(r.out, "  -V, --version");
	run_as(&r, -1, REAL_PROC, "/dev/full", (const char *const[]){ "--version", NULL });
	EXPECT(r.status == 4);
	EXPECT_HAS(r.err, "randstat cgroup: writing the output: No space left on device\n");
	run_as(&r, -1, REAL_PROC, "/dev/full", (const char *const[]){ "--help", NULL });
	EXPECT(r.status == 4);
	EXPECT_HAS(r.err, "randstat cgroup: writing the output: No space left on device\n");
}

/* The exit codes of rsexit.h, and --help and the man page say them. */
static void t_exit_doc(void)
{
	struct result r;
	char man[16384];
	FILE *f = fopen("randstat-cgroup.1", "r");

	RUN(&r, "--help");
	EXPECT_HAS(r.out, "Exit status: 0 ok, 1 usage error, 2 an input could not be read");
	EXPECT_HAS(r.out, "3 the randstat module is not loaded");
	EXPECT_HAS(r.out, "4 the output could not be written");
	EXPECT_HAS(r.out, "5 another failure: not root, BPF");
	EXPECT(f != NULL);
	if (!f)
		return;
	tap_slurp(f, man, sizeof(man));
	EXPECT_HAS(man, "\n4 when the output cannot be written");
	EXPECT_HAS(man, "\n5 for any other failure: not run as root,");
}

/* Can run_as() make its namespace here?  Else why not, in @why. */
static bool fake_proc_ok(char *why, size_t len)
{
	char cg[] = "/tmp/test_cgroup.probe.XXXXXX";
	char keep[] = "/tmp/test_cgroup.proc.XXXXXX";
	struct child c = { -1, EMPTY_PROC, cg, keep };
	int st = -1;
	pid_t pid;

	if (geteuid()) {
		snprintf(why, len, "needs root (a mount namespace with the module's /proc file)");
		return false;
	}
	if (!mkdtemp(cg) || !mkdtemp(keep))
		exit(2);
	fflush(stdout);
	pid = fork();
	if (!pid)
		_exit(fake_proc(&c));
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		exit(2);
	rmdir(cg);
	rmdir(keep);
	if (WIFEXITED(st) && !WEXITSTATUS(st))
		return true;
	snprintf(why, len, "cannot make a mount namespace with cgroup2 and a tmpfs /proc here: %s",
		 WIFEXITED(st) ? strerror(WEXITSTATUS(st)) : "killed");
	return false;
}

static bool module_here(void)
{
	return !access("/proc/randstat_detail", F_OK) ||
	       !access("/sys/kernel/tracing/events/randstat", F_OK) ||
	       !access("/sys/kernel/debug/tracing/events/randstat", F_OK);
}

/* No module: 3, and how to load it; not root is said too. */
static void t_exit_nomodule(void)
{
	struct result r;
	enum fake_proc fp = fake ? EMPTY_PROC : REAL_PROC;

	run_as(&r, -1, fp, NULL, (const char *const[]){ "1", "1", NULL });
	EXPECT(r.status == 3 && !r.out[0]);
	EXPECT_HAS(r.err, "randstat cgroup: the randstat module is not loaded (/proc/randstat_detail missing): sudo modprobe randstat\n");
	/* not root either: both said, 3 */
	run_as(&r, geteuid() ? -1 : NOBODY, fp, NULL, (const char *const[]){ "1", "1", NULL });
	EXPECT(r.status == 3);
	EXPECT_HAS(r.err, "the randstat module is not loaded");
	EXPECT_HAS(r.err, "randstat cgroup: needs root to load its BPF program: run it as root (sudo randstat cgroup)\n");
	/* arguments are judged first */
	run_as(&r, -1, fp, NULL, (const char *const[]){ "-q", NULL });
	EXPECT(r.status == 1);
	EXPECT_HASNT(r.err, "module");
}

/* The module, not root: 5 (rsexit.h), not 1, which is a usage error. */
static void t_exit_notroot(void)
{
	struct result r;

	run_as(&r, NOBODY, MODULE_PROC, NULL, (const char *const[]){ "1", "1", NULL });
	EXPECT(r.status != SETUP_FAILED);
	EXPECT_NEAR(r.status, 5, 0);
	EXPECT(!r.out[0]);
	EXPECT_HAS(r.err, "randstat cgroup: needs root to load its BPF program: run it as root (sudo randstat cgroup)\n");
	EXPECT_HASNT(r.err, "module");
}

/*
 * Root, the module's /proc/randstat_detail, cgroup v2, but no
 * randstat:sample tracepoint to attach to (the module is not really
 * here): 3, as rsexit.h says for a missing tracepoint.  Without cgroup v2
 * at --root: an input, 2.
 */
static void t_exit_notracepoint(void)
{
	struct result r;

	run_as(&r, -1, MODULE_PROC, NULL, (const char *const[]){ "--root", "@cg", "1", "1", NULL });
	EXPECT(r.status != SETUP_FAILED);
	EXPECT_NEAR(r.status, 3, 0);
	EXPECT(!r.out[0]);
	EXPECT_HAS(r.err, "randstat cgroup: no randstat:sample tracepoint: the randstat module is not loaded");
	EXPECT_HASNT(r.err, "needs root");
	run_as(&r, -1, MODULE_PROC, NULL, (const char *const[]){ "--root", "/proc", "1", "1", NULL });
	EXPECT_NEAR(r.status, 2, 0);
	EXPECT_HAS(r.err, "randstat cgroup: /proc is not cgroup v2 (mount -t cgroup2 none /proc, or --root DIR)\n");
}

/*
 * uid 0 without CAP_BPF or CAP_SYS_ADMIN (a container's root): BPF
 * refuses the program, a BPF failure: 5 (it was 4, now an output error).
 */
static void t_exit_bpf(void)
{
	struct result r;

	run_as(&r, ROOT_NOCAPS, MODULE_PROC, NULL, (const char *const[]){ "--root", "@cg", "1", "1", NULL });
	EXPECT(r.status != SETUP_FAILED);
	EXPECT_NEAR(r.status, 5, 0);
	EXPECT(!r.out[0]);
	EXPECT_HAS(r.err, "randstat cgroup: cannot load the BPF program: ");
}

/* The reader, beside this directory: "randstat cgroup" runs this one. */
#define READER "../randstat"

static void run_reader(struct result *r, const char *reader, const char *path_env,
		       const char *const *args)
{
	const char *saved = getenv("PATH");
	char *keep = saved ? strdup(saved) : NULL;
	const char *p = prog;

	if (path_env)
		setenv("PATH", path_env, 1);
	prog = reader;
	run_as(r, -1, REAL_PROC, NULL, args);
	prog = p;
	if (keep)
		setenv("PATH", keep, 1);
	free(keep);
}

/*
 * randstat cgroup from the build tree: the reader finds randstat-cgroup
 * in cgroup/ beside it (installed: beside it), before PATH, which here
 * has none.
 */
static void t_reader_finds(void)
{
	struct result r;
	char want[64];

	snprintf(want, sizeof(want), "randstat cgroup %s\n", RS_VERSION);
	run_reader(&r, READER, "/nonexistent", (const char *const[]){ "cgroup", "--version", NULL });
	EXPECT_NEAR(r.status, 0, 0);
	EXPECT(!strcmp(r.out, want));
	EXPECT(!r.err[0]);
	run_reader(&r, READER, "/nonexistent", (const char *const[]){ "cgroup", "-d", "x", NULL });
	EXPECT(r.status == 1);
	EXPECT_HAS(r.err, "randstat cgroup: -d takes a whole number from 0 to 1000: 'x'\n");
	/* and the reader's help and man page name it */
	run_reader(&r, READER, NULL, (const char *const[]){ "--help", NULL });
	EXPECT_HAS(r.out, "randstat cgroup");
	EXPECT_HAS(r.out, "randstat-cgroup(1)");
	{
		char man[65536];
		FILE *f = fopen("../randstat.1", "r");

		EXPECT(f != NULL);
		if (f) {
			tap_slurp(f, man, sizeof(man));
			EXPECT_HAS(man, ".BR randstat-cgroup (1)");
		}
	}
}

/* Nowhere to be found: how to get it, and 5 (rsexit.h), not ENOENT. */
static void t_reader_missing(void)
{
	char dir[] = "/tmp/test_cgroup.reader.XXXXXX", copy[64], cmd[256];
	struct result r;

	EXPECT(mkdtemp(dir) != NULL);
	snprintf(copy, sizeof(copy), "%s/randstat", dir);
	snprintf(cmd, sizeof(cmd), "cp %s %s", READER, copy);
	EXPECT(system(cmd) == 0);
	run_reader(&r, copy, "/nonexistent", (const char *const[]){ "cgroup", "--version", NULL });
	EXPECT_NEAR(r.status, 5, 0);
	EXPECT(!r.out[0]);
	EXPECT_HAS(r.err, "randstat cgroup: randstat-cgroup is not installed");
	EXPECT_HAS(r.err, "make -C userspace/cgroup");
	EXPECT_HAS(r.err, "apt-get install clang llvm bpftool libbpf-dev libelf-dev zlib1g-dev");
	EXPECT_HAS(r.err, "the randstat-cgroup package");
	EXPECT_HASNT(r.err, "No such file or directory");
	unlink(copy);
	rmdir(dir);
}

/* make install puts it, and its man page, beside the reader. */
static void t_install(void)
{
	char dir[] = "/tmp/test_cgroup.install.XXXXXX", cmd[512], out[4096], f[256];
	static const char *const want[] = {
		"usr/bin/randstat", "usr/bin/randstat-cgroup",
		"usr/share/man/man1/randstat.1", "usr/share/man/man1/randstat-cgroup.1",
	};
	size_t i;

	EXPECT(mkdtemp(dir) != NULL);
	snprintf(cmd, sizeof(cmd), "make -s --no-print-directory -C .. install DESTDIR=%s PREFIX=/usr 2>&1", dir);
	EXPECT(shell(cmd, out, sizeof(out)) == 0);
	if (out[0])
		printf("# make install said: %s", out);
	for (i = 0; i < sizeof(want) / sizeof(*want); i++) {
		snprintf(f, sizeof(f), "%s/%s", dir, want[i]);
		if (access(f, F_OK))
			printf("# not installed: /%s\n", want[i]);
		EXPECT(!access(f, F_OK));
	}
	snprintf(f, sizeof(f), "%s/usr/bin/randstat-cgroup", dir);
	EXPECT(!access(f, X_OK));
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	EXPECT(system(cmd) == 0);
}

static void t_manpage(void)
{
	tap_expect_manpage("randstat-cgroup.1");
}

int main(int argc, char **argv)
{
	char why[256];

	if (argc != 2) {
		fprintf(stderr, "usage: %s RANDSTAT-CGROUP\n", argv[0]);
		return 2;
	}
	prog = argv[1];
	puts("TAP version 13");
	tap_test("/proc/randstat's sampler lines, any format version", t_samplers);
	tap_test("each CPU's sampled time per sample", t_per_sample);
	tap_test("counts weighted per CPU, Garwood's interval scaled", t_weights);
	tap_test("the groups of classes: busy excludes interrupts, idle, steal", t_groups);
	tap_test("a parent adds its children's samples", t_merge);
	tap_test("cpu.stat's three figures", t_cpustat);
	tap_test("the '*': outside beyond cpu.stat's resolution and the rounding", t_outside);
	tap_test("the Prometheus text: lines and escapes", t_prom);
	if (have_promtool())
		tap_test("promtool check metrics accepts the Prometheus text", t_promtool);
	else
		tap_skip("promtool check metrics accepts the Prometheus text",
			 "promtool not found (Debian's prometheus: make check puts tests/unpack.sh's copy on PATH)");
	tap_test("Prometheus label values: UTF-8, bad bytes as U+FFFD", t_prom_utf8);
	if (have_promtool())
		tap_test("promtool accepts a cgroup name that is not UTF-8", t_promtool_utf8);
	else
		tap_skip("promtool accepts a cgroup name that is not UTF-8",
			 "promtool not found (Debian's prometheus: make check puts tests/unpack.sh's copy on PATH)");
	tap_test("--json: valid JSON (json-c, strict) whatever the cgroup's name", t_json_strict);
	tap_test("--json: \"version\" first, 95% intervals as \"ci95\": [lo, hi]", t_json_ci95);
	if (have_python())
		tap_test("--json: Python's json.loads reads it", t_json_python);
	else
		tap_skip("--json: Python's json.loads reads it", "python3 not found");
	tap_test("arguments: usage and errors", t_args);
	tap_test("randstat-cgroup.1 formats without warnings", t_manpage);
	tap_test("-Werror only with WERROR=1", t_werror);
	tap_test("randstat cgroup runs cgroup/randstat-cgroup beside the reader", t_reader_finds);
	tap_test("randstat cgroup without randstat-cgroup: how to get it, exit 5", t_reader_missing);
	tap_test("make install: randstat-cgroup and its man page", t_install);
	tap_test("--version and -V; an unwritable output exits 4", t_version);
	tap_test("--help and the man page list rsexit.h's exit codes", t_exit_doc);
	fake = fake_proc_ok(why, sizeof(why));
	if (!fake && module_here())
		tap_skip("no module: exit 3, says how to load it", why);
	else
		tap_test("no module: exit 3, says how to load it", t_exit_nomodule);
	if (!fake) {
		tap_skip("not root: exit 5, says it needs root", why);
		tap_skip("no randstat:sample tracepoint: exit 3; no cgroup v2: exit 2", why);
		tap_skip("BPF refuses the program: exit 5", why);
	} else {
		tap_test("not root: exit 5, says it needs root", t_exit_notroot);
		if (module_here())
			tap_skip("no randstat:sample tracepoint: exit 3; no cgroup v2: exit 2",
				 "the module is loaded here: its tracepoint is");
		else
			tap_test("no randstat:sample tracepoint: exit 3; no cgroup v2: exit 2",
				 t_exit_notracepoint);
		tap_test("BPF refuses the program: exit 5", t_exit_bpf);
	}
	return tap_done();
}
