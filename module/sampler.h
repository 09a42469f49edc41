/* SPDX-License-Identifier: GPL-2.0 */
/*
 * randstat: the sampler (sampler.c), as main.c and the proc file use it.
 */
#ifndef _RANDSTAT_SAMPLER_H
#define _RANDSTAT_SAMPLER_H

#include "randstat.h"

int randstat_sampler_start(void);
void randstat_sampler_stop(void);
enum randstat_state randstat_read_cpu(unsigned int cpu,
				      struct randstat_counters *c);
void randstat_read_hist(unsigned int cpu, struct randstat_hists *h);
void randstat_apply_modes(void);
void randstat_reset(void);

#endif /* _RANDSTAT_SAMPLER_H */
