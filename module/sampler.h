/* SPDX-License-Identifier: GPL-2.0 */
/*
 * randstat: interfaces between the sampler, the proc file and the module.
 */
#ifndef _RANDSTAT_SAMPLER_H
#define _RANDSTAT_SAMPLER_H

#include "randstat.h"

/**
 * enum randstat_state - what one CPU's sampler is doing
 * @RS_STATE_OFF: nothing: the CPU is offline (or the module is going)
 * @RS_STATE_ACTIVE: sampling: its timer is queued
 * @RS_STATE_DORMANT: a sample found it idle: no timer until it leaves idle
 * @RS_STATE_EXACT: not sampled: served from the kernel's exact accounting
 */
enum randstat_state {
	RS_STATE_OFF,
	RS_STATE_ACTIVE,
	RS_STATE_DORMANT,
	RS_STATE_EXACT,
};

int randstat_sampler_start(void);
void randstat_sampler_stop(void);
int randstat_read_cpu(unsigned int cpu, struct randstat_counters *c);
bool randstat_cpu_is_exact(unsigned int cpu);
bool randstat_may_sleep(void);
void randstat_apply_modes(void);
void randstat_reset(void);
struct randstat_window randstat_get_law(enum randstat_law *law);
struct randstat_window randstat_get_window(enum randstat_law law);

int randstat_proc_init(void);
void randstat_proc_exit(void);

#endif /* _RANDSTAT_SAMPLER_H */
