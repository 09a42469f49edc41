/* SPDX-License-Identifier: GPL-2.0 */
/* randstat exec: a command with randstat-fs's file as its /proc/stat. */
#ifndef RSEXEC_H
#define RSEXEC_H

#include <sys/types.h>

/* rs_exec_main: ARGV[0] is "exec"; returns an exit status on failure
 * (125 its own error, 126 the command cannot run, 127 not found). */
int rs_exec_main(int argc, char **argv);

/* rs_unprivileged: a setuid install serves exec only: everything else
 * runs as the caller.  0, or -1 (and a message) if that fails. */
int rs_unprivileged(void);
int rs_exec_setgroups(uid_t uid, gid_t gid);

#endif
