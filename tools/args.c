// SPDX-License-Identifier: MIT
/* The command-line helpers the result tools share (args.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/strbuf.h>

#include "args.h"

int il_res_count_after_dashdash(int argc, char *const *argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--"))
			return argc - i - 1;
	return -1;
}

int il_res_parse_alpha(const char *s, double *alpha, char *err, size_t errlen)
{
	char *end;
	double a;

	errno = 0;
	a = strtod(s, &end);
	if (errno || end == s || *end || !(a > 0 && a <= 0.5)) {
		il_setf(err, errlen,
			"--alpha: '%s' is not a level between 0 and 0.5 "
			"(e.g. 0.05)",
			s);
		return -EINVAL;
	}
	*alpha = a;
	return 0;
}

int il_res_split_sides(char **ops, int nops, int after, int *counts,
		       int *nsides, char *err, size_t errlen)
{
	int n, k = 1, out = nops - after;

	/* "A --": the side after the only "--" is there, and empty */
	counts[0] = nops - after;
	counts[1] = 0;
	for (int i = nops - after; i < nops; i++) {
		if (!strcmp(ops[i], "--")) {
			counts[++k] = 0;
			continue;
		}
		counts[k]++;
		ops[out++] = ops[i];
	}
	n = k + 1;
	for (k = 0; k < n; k++) {
		if (counts[k] > 0)
			continue;
		if (n == 2 || !k)
			il_setf(err, errlen,
				"no %s files: give at least one on each side "
				"of '--'",
				k ? "candidate" : "baseline");
		else
			il_setf(err, errlen,
				"side %d of %d has no files: give at least one "
				"between two '--' and after the last",
				k + 1, n);
		return -EINVAL;
	}
	/* after "--" nothing is an option: say so rather than open "-o" */
	for (int i = counts[0]; i < out; i++) {
		if (ops[i][0] == '-' && ops[i][1]) {
			il_setf(err, errlen,
				"options go before '--': '%s' comes after it "
				"(write ./%s for a file of that name)",
				ops[i], ops[i]);
			return -EINVAL;
		}
	}
	*nsides = n;
	return 0;
}

int il_res_load_status(int ret)
{
	/* a key to group by that a run lacks: the option does not fit */
	return ret == -ENOENT || ret == -ENOTDIR || ret == -ENOKEY ? 2 : 99;
}

int il_res_load_sides(int argc, char **argv, int first, int nbase, int after,
		      struct il_res_set *base, struct il_res_set *cand,
		      int *status, char *err, size_t errlen)
{
	/* after "--" nothing is an option: say so rather than open "-o" */
	for (int i = after > 0 ? argc - after : argc; i < argc; i++) {
		if (argv[i][0] == '-' && argv[i][1]) {
			il_setf(err, errlen,
				"options go before '--': '%s' comes after it "
				"(write ./%s for a file of that name)",
				argv[i], argv[i]);
			*status = 2;
			return -1;
		}
	}
	for (int i = 0; i < nbase + (after > 0 ? after : 0); i++) {
		struct il_res_set *s = i < nbase ? base : cand;

		int ret = il_res_set_load(s, argv[first + i], err, errlen);

		if (ret) {
			*status = il_res_load_status(ret);
			return -1;
		}
	}
	return 0;
}
