/* SPDX-License-Identifier: GPL-2.0 */
/*
 * randstat reader: parsing of /proc/stat and /proc/randstat.
 *
 * Both files are read whole into memory and parsed into a struct rs_snap.
 * /proc/randstat is parsed strictly (Documentation/admin-guide.rst, "/proc/randstat"): every
 * line is checked, in the order the module writes them, so a truncated or
 * damaged capture is reported with its file and line.  From /proc/stat
 * only the cpu lines are read; the other lines vary between kernels.
 */
#ifndef RSPARSE_H
#define RSPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RS_FORMAT_VERSION	5

/* The columns of a cpu line, in /proc/stat's order. */
enum rs_col {
	RS_USER,
	RS_NICE,
	RS_SYSTEM,
	RS_IDLE,
	RS_IOWAIT,
	RS_IRQ,
	RS_SOFTIRQ,
	RS_STEAL,
	RS_GUEST,
	RS_GUEST_NICE,
	RS_NCOLS,
};

/* user..steal sum to a CPU's time; guest is already inside user. */
#define RS_NTIME	(RS_STEAL + 1)

#define RS_MAX_CPUS	65536	/* highest CPU number accepted, plus one */
/*
 * A cpuN line's counters, and the sum of its eight time columns, are
 * below this many ticks (89,000 years at USER_HZ 100), or the file is
 * damaged: RS_MAX_CPUS of them then add up without overflow.
 */
#define RS_MAX_TICKS	(1ull << 48)

struct rs_row {
	uint64_t v[RS_NCOLS];
};

/* The "sampler cpuN" line. */
struct rs_sampler {
	bool online;
	bool exact;		/* mode exact: the kernel's figures, no sampler */
	bool dormant;		/* sampled, its sampler asleep while idle */
	uint64_t elapsed_ns;
	uint64_t sampled_ns;	/* the time the samples cover and share */
	uint64_t samples;
	uint64_t overruns;
	uint64_t dormancies;
	uint64_t cost_ns;
	uint64_t cost_max_ns;
	uint64_t late_ns;
	uint64_t late_max_ns;
};

/* One CPU of one file. */
struct rs_cpu {
	bool listed;		/* has a cpuN line: online when read */
	bool counted;		/* has randstat's ns..sampler lines */
	struct rs_row ticks;	/* the cpuN line, USER_HZ */
	struct rs_row ns;	/* randstat only, from here on */
	struct rs_row samples;
	struct rs_row exact;	/* ns charged exactly, not from samples */
	struct rs_sampler s;
};

/* The sampling intervals' law (the module's law parameter). */
enum rs_law {
	RS_LAW_EXPONENTIAL,	/* floor_ns + Exp(mean_ns - floor_ns) */
	RS_LAW_UNIFORM,		/* U[tmin_ns, tmax_ns] */
	RS_NLAWS,
};

extern const char *const rs_law_name[RS_NLAWS];

/* One parsed file. */
struct rs_snap {
	bool is_randstat;
	unsigned int version;	/* randstat only: the header */
	enum rs_law law;
	uint64_t floor_ns;
	uint64_t mean_ns;
	uint64_t tmin_ns;
	uint64_t tmax_ns;
	uint64_t user_hz;
	struct rs_row all;	/* the "cpu" line */
	unsigned int ncpu;	/* entries in cpu[]: highest CPU seen + 1 */
	struct rs_cpu *cpu;
};

enum rs_status {
	RS_OK,
	RS_ERR_NOENT,		/* the file does not exist */
	RS_ERR_IO,		/* it could not be read */
	RS_ERR_FORMAT,		/* truncated, damaged or not this format */
	RS_ERR_VERSION,		/* a randstat format this reader does not know */
	RS_ERR_NOMEM,
};

struct rs_error {
	enum rs_status status;
	char msg[512];
};

/*
 * The module's files: /proc/randstat has /proc/stat's lines alone (what
 * randstat-fs serves); the tools read /proc/randstat_detail, the same
 * lines and each CPU's block (sample counts, exact times, the sampler).
 */
#define RS_PROC_RANDSTAT	"/proc/randstat"
#define RS_PROC_DETAIL		"/proc/randstat_detail"

/*
 * What a tool says when /proc/randstat_detail does not exist; @who, a
 * string literal, is the tool ("randstat", "randstat top").
 */
#define RS_NO_MODULE_MSG(who) \
	who ": " RS_PROC_DETAIL " does not exist: the randstat module is not loaded.\n" \
	"  Load it with:            sudo modprobe randstat\n" \
	"  or, in the source tree:  sudo insmod module/randstat.ko\n"

enum rs_status rs_read_file(const char *path, char **buf, size_t *len,
			    struct rs_error *err);
enum rs_status rs_parse_stat(const char *buf, size_t len, const char *name,
			     struct rs_snap *snap, struct rs_error *err);
enum rs_status rs_parse_randstat(const char *buf, size_t len,
				 const char *name, struct rs_snap *snap,
				 struct rs_error *err);
enum rs_status rs_load_stat(const char *path, struct rs_snap *snap,
			    struct rs_error *err);
enum rs_status rs_load_randstat(const char *path, struct rs_snap *snap,
				struct rs_error *err);
int rs_snap_copy(struct rs_snap *dst, const struct rs_snap *src);
void rs_snap_free(struct rs_snap *snap);

const struct rs_cpu *rs_snap_cpu(const struct rs_snap *snap, unsigned int n);
uint64_t rs_row_time(const struct rs_row *r);

/* INTERVAL's bounds, in seconds, and the rule, for a usage error. */
#define RS_INTERVAL_MIN		0.01
#define RS_INTERVAL_MAX		31622400.0	/* 366 days */
#define RS_INTERVAL_RULE \
	"a plain decimal number of seconds from 0.01 to 31622400 (a year), such as 2 or 0.5"

bool rs_parse_interval(const char *s, double *v);
bool rs_parse_count(const char *s, unsigned long long *v);
void rs_law_desc(const struct rs_snap *s, char *buf, size_t size);

#endif /* RSPARSE_H */
