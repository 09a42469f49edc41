// SPDX-License-Identifier: GPL-2.0
/*
 * snap: one snapshot of the counters on stdout, for the guest tests to
 * take deltas of:
 *
 *   mono_ns N              CLOCK_MONOTONIC, read between the two files
 *   rs <line>              every line of /proc/randstat_detail (if present)
 *   stat <line>            the cpu lines of /proc/stat
 *   rs <line>              every line of /proc/randstat_hist (if present):
 *                          the sampler's cost and lateness histograms
 *
 * One small process instead of cat, cat and date keeps the snapshot
 * short, which matters on a slow (TCG) guest.
 */
#include <string.h>

#include "common.h"

static void copy(const char *path, const char *prefix, const char *only)
{
	char line[4096];
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!only || strncmp(line, only, strlen(only)) == 0)
			printf("%s %s", prefix, line);
	fclose(f);
}

int main(void)
{
	copy("/proc/randstat_detail", "rs", NULL);
	printf("mono_ns %llu\n", now_ns(CLOCK_MONOTONIC));
	copy("/proc/stat", "stat", "cpu");
	copy("/proc/randstat_hist", "rs", NULL);
	return 0;
}
