/* SPDX-License-Identifier: GPL-2.0 */
/*
 * randstat: interfaces between the sampler, the proc file and the module.
 */
#ifndef _RANDSTAT_SAMPLER_H
#define _RANDSTAT_SAMPLER_H

#include "randstat.h"

int randstat_sampler_start(void);
void randstat_sampler_stop(void);
void randstat_read_cpu(unsigned int cpu, struct randstat_counters *c);
void randstat_reset(void);
struct randstat_window randstat_get_window(void);

int randstat_proc_init(void);
void randstat_proc_exit(void);

#endif /* _RANDSTAT_SAMPLER_H */
