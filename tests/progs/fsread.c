// SPDX-License-Identifier: GPL-2.0
/*
 * Readers of randstat-fs's stat file (tests/vm/guest/fuse.sh).
 *
 *   fsread chunks FILE
 *	One open: the file read one byte at a time from offset 0 (one
 *	snapshot), then pread at odd offsets and sizes, in reverse order,
 *	each compared with that read; a pread past the end must return 0.
 *	Then a rewind and a read in 7-byte chunks (a new snapshot) while a
 *	second descriptor reads too: a frame with the same lines, no cpu
 *	counter below the first's, and preads on the first descriptor still
 *	match its own snapshot.  Exit 0 if all hold.
 *
 *   fsread watch FILE SECONDS INTERVAL_MS
 *	Reads FILE every INTERVAL_MS for SECONDS, alternately by a fresh
 *	open and by rewinding one kept descriptor (as procps does); every
 *	cpu counter must be >= its previous value.  A failed read is
 *	counted and the kept descriptor reopened.  Exit 0 if nothing fell
 *	and the last reads succeeded.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NCOL 10
#define MAXL 65

/* readall FD CHUNK: from the current offset to EOF in CHUNK-byte reads. */
static char *readall(int fd, size_t chunk, size_t *len, int *err)
{
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap + 1);
	ssize_t r;

	*err = 0;
	for (;;) {
		if (n + chunk > cap) {
			cap = 2 * cap + chunk;
			buf = realloc(buf, cap + 1);
		}
		r = read(fd, buf + n, chunk);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			*err = errno;
			free(buf);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* cpus TEXT V: the cpu lines' counters (index 0 "cpu", N + 1 "cpuN");
 * returns the number of lines of TEXT, -1 if a cpu line is malformed. */
static int cpus(const char *t, unsigned long long v[MAXL][NCOL], int *seen)
{
	int lines = 0, idx, k, n;
	const char *p = t;

	memset(seen, 0, MAXL * sizeof(*seen));
	while (*p) {
		lines++;
		if (!strncmp(p, "cpu", 3)) {
			idx = p[3] == ' ' ? 0 : atoi(p + 3) + 1;
			if (idx < 0 || idx >= MAXL)
				return -1;
			p += 3;
			while (*p && *p != ' ')
				p++;
			for (k = 0; k < NCOL; k++) {
				if (sscanf(p, " %llu%n", &v[idx][k], &n) != 1)
					return -1;
				p += n;
			}
			if (*p != '\n')
				return -1;
			seen[idx] = 1;
		}
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return lines;
}

static int chunks(const char *path)
{
	static unsigned long long a[MAXL][NCOL], b[MAXL][NCOL];
	int sa[MAXL], sb[MAXL], fd, fd2, err, bad = 0, la, lb, i, k, checked = 0;
	size_t len, len2, len3, off, sz;
	char *s1, *s2, *s3, buf[64];
	ssize_t r;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	s1 = readall(fd, 1, &len, &err);
	if (!s1) {
		printf("# 1-byte reads failed: %s\n", strerror(err));
		return 1;
	}
	/* Odd offsets and sizes, from the end back to offset 1. */
	for (off = len > 1 ? len - 1 : 1, sz = 1; off >= 1; off -= off > 13 ? 13 : off) {
		sz = sz % 37 + 3;
		r = pread(fd, buf, sz, (off_t)off);
		if (r < 0 || (size_t)r != (off + sz <= len ? sz : len - off) ||
		    memcmp(buf, s1 + off, (size_t)r)) {
			printf("# pread(%zu bytes at %zu) = %zd: not the snapshot's bytes\n",
			       sz, off, r);
			bad = 1;
		}
		checked++;
		if (off == 0)
			break;
	}
	r = pread(fd, buf, sizeof(buf), (off_t)len + 5);
	if (r != 0) {
		printf("# pread past the end returned %zd\n", r);
		bad = 1;
	}
	/* A rewind: a new frame, read in 7-byte chunks, while fd2 reads. */
	fd2 = open(path, O_RDONLY);
	lseek(fd, 0, SEEK_SET);
	s2 = readall(fd, 7, &len2, &err);
	s3 = fd2 >= 0 ? readall(fd2, 4096, &len3, &err) : NULL;
	if (!s2 || !s3) {
		printf("# second read failed\n");
		return 1;
	}
	for (off = 3; off < len2; off += 101) {
		r = pread(fd, buf, 11, (off_t)off);
		if (r <= 0 || memcmp(buf, s2 + off, (size_t)r)) {
			printf("# pread at %zu after another descriptor's read: not this descriptor's snapshot\n",
			       off);
			bad = 1;
		}
		checked++;
	}
	la = cpus(s1, a, sa);
	lb = cpus(s2, b, sb);
	if (la <= 0 || la != lb || len < 100) {
		printf("# frames of %d and %d lines (%zu bytes): malformed\n",
		       la, lb, len);
		bad = 1;
	}
	for (i = 0; i < MAXL; i++) {
		if (sa[i] != sb[i]) {
			printf("# cpu line %d in one frame only\n", i);
			bad = 1;
		}
		for (k = 0; sa[i] && sb[i] && k < NCOL; k++)
			if (b[i][k] < a[i][k]) {
				printf("# line %d column %d fell: %llu -> %llu\n",
				       i, k, a[i][k], b[i][k]);
				bad = 1;
			}
	}
	printf("# snapshot %zu bytes, %d lines, read 1 byte at a time; %d preads compared; rewound frame %zu bytes\n",
	       len, la, checked, len2);
	return bad;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static int watch(const char *path, double secs, int ms)
{
	static unsigned long long last[MAXL][NCOL], v[MAXL][NCOL];
	static int had[MAXL];
	int seen[MAXL], kept = -1, fd, err, i, k, falls = 0, errors = 0;
	long long end = now_ms() + (long long)(secs * 1000), reads = 0, ok_after = 0;
	char *s;
	size_t len;

	for (int n = 0; now_ms() < end; n++) {
		if (n % 2) {
			if (kept < 0)
				kept = open(path, O_RDONLY);
			fd = kept;
			if (fd >= 0)
				lseek(fd, 0, SEEK_SET);
		} else {
			fd = open(path, O_RDONLY);
		}
		s = fd >= 0 ? readall(fd, 4096, &len, &err) : NULL;
		if (fd < 0)
			err = errno;
		if (fd >= 0 && fd != kept)
			close(fd);
		if (!s || cpus(s, v, seen) <= 0) {
			if (errors++ < 5)
				printf("# read %lld failed: %s\n", reads,
				       s ? "malformed" : strerror(err));
			if (fd >= 0 && fd == kept) {
				close(kept);
				kept = -1;
			}
			ok_after = 0;
		} else {
			for (i = 0; i < MAXL; i++) {
				if (!seen[i])
					continue;
				for (k = 0; had[i] && k < NCOL; k++)
					if (v[i][k] < last[i][k]) {
						if (falls++ < 5)
							printf("# read %lld: line %d column %d fell %llu -> %llu\n",
							       reads, i, k, last[i][k], v[i][k]);
					}
				memcpy(last[i], v[i], sizeof(v[i]));
				had[i] = 1;
			}
			ok_after++;
		}
		free(s);
		reads++;
		usleep((useconds_t)ms * 1000);
	}
	printf("# watch: %lld reads, %d failed, %d counters fell, %lld good reads at the end\n",
	       reads, errors, falls, ok_after);
	return falls || ok_after < 3;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "chunks"))
		return chunks(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "watch"))
		return watch(argv[2], atof(argv[3]), atoi(argv[4]));
	fprintf(stderr, "usage: fsread chunks FILE | fsread watch FILE SECONDS INTERVAL_MS\n");
	return 2;
}
