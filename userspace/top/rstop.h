/* SPDX-License-Identifier: GPL-2.0 */
/* randstat top: per process or thread, from the randstat:sample events. */
#ifndef RSTOP_H
#define RSTOP_H

/* rs_top_main: ARGV[0] is "top"; returns the exit status (randstat.1). */
int rs_top_main(int argc, char **argv);

#endif
