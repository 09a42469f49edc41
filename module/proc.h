/* SPDX-License-Identifier: GPL-2.0 */
/*
 * randstat: /proc/randstat (proc.c), as main.c sets it up.
 */
#ifndef _RANDSTAT_PROC_H
#define _RANDSTAT_PROC_H

int randstat_proc_init(void);
void randstat_proc_exit(void);

#endif /* _RANDSTAT_PROC_H */
