// SPDX-License-Identifier: MIT
/* Verdict names, as printed and as written in JSON: the one table. */
#include <errno.h>
#include <strings.h>

#include <invlab/verdict.h>

static const char *const names[IL_VERDICT_N] = {
	[IL_NONE] = "NONE",	      [IL_PASS] = "PASS", [IL_FAIL] = "FAIL",
	[IL_UNDECIDED] = "UNDECIDED", [IL_SKIP] = "SKIP",
};

const char *il_verdict_name(enum il_verdict v)
{
	if ((unsigned)v < IL_VERDICT_N)
		return names[v];
	return "?";
}

int il_verdict_parse(const char *s, enum il_verdict *v)
{
	for (unsigned i = IL_NONE + 1; s && i < IL_VERDICT_N; i++) {
		if (!strcasecmp(s, names[i])) {
			*v = (enum il_verdict)i;
			return 0;
		}
	}
	return -EINVAL;
}
