/* SPDX-License-Identifier: GPL-2.0 */
/* randstat verify: the module judged on this machine, against the truth. */
#ifndef RSVERIFY_H
#define RSVERIFY_H

/* rs_verify_main: ARGV[0] is "verify"; returns the exit status (randstat.1). */
int rs_verify_main(int argc, char **argv);

#endif
