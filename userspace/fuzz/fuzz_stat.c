// SPDX-License-Identifier: GPL-2.0
/* libFuzzer: the /proc/stat parser (rs_parse_stat), see fuzz_parse.h. */
#include "fuzz_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_parse(rs_parse_stat, false, data, size);
	return 0;
}
