// SPDX-License-Identifier: GPL-2.0
/*
 * tsckhz: the host's TSC rate in kHz, measured against CLOCK_MONOTONIC_RAW
 * over 200 ms.  Under TCG the guest's TSC is the host's, and the debug
 * kernel, without ACPI, has no HPET or PM timer to calibrate it against:
 * when its PIT calibration fails on a busy host it marks the TSC unstable,
 * and with it IRQ time accounting.  tests/vm/run.sh passes this figure as
 * tsc_early_khz=.
 */
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

int main(void)
{
	struct timespec a, b, d = { 0, 200000000 };
	unsigned long long t0, t1;
	double ns;

	clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	t0 = __rdtsc();
	nanosleep(&d, NULL);
	clock_gettime(CLOCK_MONOTONIC_RAW, &b);
	t1 = __rdtsc();
	ns = (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec);
	printf("%.0f\n", (double)(t1 - t0) / ns * 1e6);
	return 0;
}
