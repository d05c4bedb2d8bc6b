// SPDX-License-Identifier: MIT
/* Values formatted for people, as every result tool shows them. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include <invlab/time.h>

#include "format.h"

const char *il_res_fmt_ns(char *buf, size_t len, double ns)
{
	if (isnan(ns) || ns < 0)
		snprintf(buf, len, "n/a");
	else
		il_format_duration(buf, len, (uint64_t)llround(ns));
	return buf;
}

const char *il_res_fmt_size(char *buf, size_t len, uint64_t bytes)
{
	static const char *const unit[] = { "bytes", "KiB", "MiB", "GiB",
					    "TiB" };
	unsigned u = 0;
	uint64_t v = bytes;

	/* exact units only: a limit is shown as it can be written back */
	while (u + 1 < sizeof(unit) / sizeof(unit[0]) && v >= 1024 &&
	       v % 1024 == 0) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%" PRIu64 " %s", v, unit[u]);
	return buf;
}
