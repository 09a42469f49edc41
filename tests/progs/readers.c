// SPDX-License-Identifier: GPL-2.0
/*
 * readers [-m] K SECS [FILE...]: K processes read the FILEs (default
 * /proc/randstat and /proc/randstat_detail; reader i the i-th, modulo
 * their number) over and over for SECS seconds, so that readers of the
 * two files move the same times shown.  With -m, one more process moves
 * each reader to another CPU (sched_setaffinity()) every 100 us or so,
 * so that readers are moved in the middle of reads: where the kernel
 * preempts fully, a move takes the reader off its CPU at once, wherever
 * it is in a read.  Each checks, on every read, that
 *
 *  - every counter is >= its value in the reader's previous read (all of
 *    them only grow between resets; the test must not reset meanwhile):
 *    the cpu/cpuN lines, "ns", "samples", "exact", the "sampler" figures
 *    (not the online and dormant flags) and both histograms, keyed by
 *    line name, so CPUs going offline and online do not confuse it;
 *  - the file has a cpu line of ten values;
 *  - in every file but /proc/randstat, which has /proc/stat's lines only,
 *    there are per-CPU blocks, and
 *    per CPU, the sampler's elapsed_ns is the sum of the first eight ns
 *    columns and its sampled_ns plus the first eight exact columns, its
 *    samples the sum of the first eight sample columns, and steal is
 *    never sampled.
 *
 * Prints "reader PID reads N errors E" per reader (and with -m "mover
 * moves N") and exits 0 if no check failed, 1 otherwise (the first few
 * failures are printed to stderr).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

#define MAXLINES	1024
#define MAXVALS		40

struct row {
	char key[32];
	int n;
	unsigned long long v[MAXVALS];
};

static struct row prev[MAXLINES], cur[MAXLINES];
static int nprev, ncur;
static unsigned long long errors;

static void fail(const char *fmt, const char *key, int i,
		 unsigned long long a, unsigned long long b)
{
	if (++errors <= 5) {
		fprintf(stderr, "readers[%d]: ", getpid());
		fprintf(stderr, fmt, key, i, a, b);
		fputc('\n', stderr);
	}
}

/* Split one line into a key (the words before the numbers) and values. */
static int parse_line(char *line, struct row *r)
{
	char *tok, *save = NULL;
	int words = 0, skip_next = 0;

	r->key[0] = '\0';
	r->n = 0;
	for (tok = strtok_r(line, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		char *end;
		unsigned long long x = strtoull(tok, &end, 10);

		if (*end != '\0' || end == tok) {	/* a word */
			/* 0/1 flags, not counters */
			if (strcmp(tok, "online") == 0 ||
			    strcmp(tok, "dormant") == 0)
				skip_next = 1;
			/* name the line by its first two words only */
			if (words++ < 2 && strlen(r->key) + strlen(tok) + 2 <
			    sizeof(r->key)) {
				if (r->key[0])
					strcat(r->key, " ");
				strcat(r->key, tok);
			}
			continue;
		}
		if (skip_next) {
			skip_next = 0;
			continue;
		}
		if (r->n < MAXVALS)
			r->v[r->n++] = x;
	}
	return r->key[0] != '\0';
}

/* The file has per-CPU blocks: every file but /proc/randstat (reader()). */
static bool has_blocks;

static void check_consistency(void)
{
	int i, j, k, samplers = 0, cpu_line = 0;

	for (i = 0; i < ncur; i++) {
		struct row *s = &cur[i], *ns = NULL, *sm = NULL, *x = NULL;
		unsigned long long sum_ns = 0, sum_s = 0, sum_x = 0;
		const char *cpu;

		if (strcmp(s->key, "cpu") == 0 && s->n == 10)
			cpu_line = 1;
		if (strncmp(s->key, "sampler ", 8) != 0)
			continue;
		samplers++;
		cpu = s->key + 8;
		for (j = 0; j < ncur; j++) {
			if (strncmp(cur[j].key, "ns ", 3) == 0 &&
			    strcmp(cur[j].key + 3, cpu) == 0)
				ns = &cur[j];
			if (strncmp(cur[j].key, "samples ", 8) == 0 &&
			    strcmp(cur[j].key + 8, cpu) == 0)
				sm = &cur[j];
			if (strncmp(cur[j].key, "exact ", 6) == 0 &&
			    strcmp(cur[j].key + 6, cpu) == 0)
				x = &cur[j];
		}
		if (!ns || !sm || !x || ns->n != 10 || sm->n != 10 ||
		    x->n != 10 || s->n < 3) {
			fail("%s: malformed (%d) %llu %llu", s->key, 0, 0, 0);
			continue;
		}
		/* sampler values: elapsed_ns sampled_ns samples ... */
		for (k = 0; k < 8; k++) {
			sum_ns += ns->v[k];
			sum_s += sm->v[k];
			sum_x += x->v[k];
		}
		if (sum_ns != s->v[0])
			fail("%s: elapsed_ns (%d) %llu != sum of ns %llu",
			     s->key, 0, s->v[0], sum_ns);
		if (s->v[1] + sum_x != s->v[0])
			fail("%s: sampled_ns + exact (%d) %llu != elapsed_ns %llu",
			     s->key, 1, s->v[1] + sum_x, s->v[0]);
		if (sum_s != s->v[2])
			fail("%s: samples (%d) %llu != sum of samples %llu",
			     s->key, 2, s->v[2], sum_s);
		if (sm->v[7] != 0)
			fail("%s: steal sampled (%d) %llu %llu", s->key, 7,
			     sm->v[7], 0);
	}
	if (!cpu_line)
		fail("%s: no cpu line of ten values (%d) %llu %llu", "file", 0,
		     0, 0);
	if (has_blocks && !samplers)
		fail("%s: no sampler lines (%d) %llu %llu", "file", 0, 0, 0);
}

static void check_monotonic(void)
{
	int i, j, k;

	for (i = 0; i < ncur; i++) {
		if (strcmp(cur[i].key, "randstat") == 0)	/* header */
			continue;
		for (j = 0; j < nprev; j++)
			if (strcmp(prev[j].key, cur[i].key) == 0)
				break;
		if (j == nprev)
			continue;
		if (prev[j].n != cur[i].n) {
			fail("%s: field count changed (%d) %llu -> %llu",
			     cur[i].key, 0, (unsigned long long)prev[j].n,
			     (unsigned long long)cur[i].n);
			continue;
		}
		for (k = 0; k < cur[i].n; k++)
			if (cur[i].v[k] < prev[j].v[k])
				fail("%s: field %d went back, %llu -> %llu",
				     cur[i].key, k, prev[j].v[k], cur[i].v[k]);
	}
}

static int read_all(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	if (n < 0)
		return -1;
	buf[len] = '\0';
	return 0;
}

static int reader(const char *path, unsigned long long dur)
{
	static char buf[1 << 18];
	unsigned long long t0 = now_ns(CLOCK_MONOTONIC), reads = 0;

	has_blocks = strcmp(path, "/proc/randstat") != 0;
	do {
		char *line, *save = NULL;

		if (read_all(path, buf, sizeof(buf))) {
			fprintf(stderr, "readers: %s: %s\n", path,
				strerror(errno));
			return 1;
		}
		reads++;
		ncur = 0;
		for (line = strtok_r(buf, "\n", &save); line && ncur < MAXLINES;
		     line = strtok_r(NULL, "\n", &save))
			ncur += parse_line(line, &cur[ncur]);
		check_consistency();
		check_monotonic();
		memcpy(prev, cur, ncur * sizeof(cur[0]));
		nprev = ncur;
	} while (now_ns(CLOCK_MONOTONIC) - t0 < dur);
	printf("reader %d reads %llu errors %llu\n", getpid(), reads, errors);
	return errors ? 1 : 0;
}

/*
 * -m: move reader i to CPU (round + i) mod ncpus, round after round, for
 * @dur; a reader that has ended is skipped.
 */
static int mover(const pid_t *pids, int k, unsigned long long dur)
{
	const struct timespec gap = { 0, 100000 };
	unsigned long long t0 = now_ns(CLOCK_MONOTONIC), moves = 0, round;
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;
	int i;

	if (ncpus < 2) {
		fprintf(stderr, "readers: -m needs two CPUs online\n");
		return 1;
	}
	for (round = 0; now_ns(CLOCK_MONOTONIC) - t0 < dur; round++) {
		for (i = 0; i < k; i++) {
			CPU_ZERO(&set);
			CPU_SET((round + i) % ncpus, &set);
			if (sched_setaffinity(pids[i], sizeof(set), &set) == 0)
				moves++;
			else if (errno != ESRCH)
				perror("readers: sched_setaffinity");
		}
		nanosleep(&gap, NULL);
	}
	printf("mover moves %llu\n", moves);
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const dflt[] = { "/proc/randstat",
					    "/proc/randstat_detail" };
	const char *const *paths = dflt;
	pid_t pids[64], mv = -1;
	int npaths = 2, move = 0;
	unsigned long long dur;
	int k, i, status, bad = 0;

	if (argc > 1 && strcmp(argv[1], "-m") == 0) {
		move = 1;
		argc--;
		argv++;
	}
	if (argc > 3) {
		paths = (const char *const *)argv + 3;
		npaths = argc - 3;
	}
	if (argc < 3 || (k = atoi(argv[1])) < 1 || k > 64) {
		fprintf(stderr, "usage: readers [-m] K SECS [FILE...]\n");
		return 2;
	}
	dur = secs_arg(argv[2], "readers");
	fflush(stdout);
	for (i = 0; i < k; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (pid == 0) {
			int r = reader(paths[i % npaths], dur);

			fflush(stdout);
			_exit(r);
		}
		pids[i] = pid;
	}
	if (move) {
		mv = fork();
		if (mv < 0)
			return 1;
		if (mv == 0) {
			int r = mover(pids, k, dur);

			fflush(stdout);
			_exit(r);
		}
	}
	for (i = 0; i < k; i++) {
		if (waitpid(pids[i], &status, 0) < 0)
			return 1;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			bad++;
	}
	if (mv > 0) {
		if (waitpid(mv, &status, 0) < 0)
			return 1;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			bad++;
	}
	printf("readers %d failed %d\n", k, bad);
	return bad ? 1 : 0;
}
