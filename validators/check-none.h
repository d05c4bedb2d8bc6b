/* SPDX-License-Identifier: MIT */
/*
 * Failing closed: a check that cannot judge (bad arguments, a bound that
 * does not fit 64 bits) leaves no verdict (IL_NONE) and says why in the
 * evidence, whatever it had written before.  Private to validators/.
 */
#ifndef INVLAB_CHECK_NONE_H
#define INVLAB_CHECK_NONE_H

#include <stdio.h>
#include <string.h>

#include <invlab/verdict.h>

static inline int il_check_none(struct il_check *out, int err, const char *what)
{
	if (out && err) {
		memset(out, 0, sizeof(*out));
		snprintf(out->evidence, sizeof(out->evidence),
			 "no verdict: %s: %s", what, strerror(-err));
	}
	return err;
}

#endif
