/* SPDX-License-Identifier: GPL-2.0 */
/*
 * randstat: the module's parameters (params.c), read by the sampler and
 * the proc file.  A leaf: it calls nothing of the module's.
 */
#ifndef _RANDSTAT_PARAMS_H
#define _RANDSTAT_PARAMS_H

#include <linux/cpumask.h>

#include "randstat.h"

struct randstat_window randstat_get_law(enum randstat_law *law);
struct randstat_window randstat_get_window(enum randstat_law law);
bool randstat_may_sleep(void);
const struct cpumask *randstat_nohz_full(void);
bool randstat_cpu_is_exact(unsigned int cpu);
void randstat_set_exact(const struct cpumask *mask);
const struct cpumask *randstat_get_exact(void);
int randstat_params_init(void);

#endif /* _RANDSTAT_PARAMS_H */
