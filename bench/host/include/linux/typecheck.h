/* SPDX-License-Identifier: GPL-2.0 */
/* kshim.h's time_after() and time_before() need no typecheck(). */
#include "../kshim.h"
