// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the SCHED_DEADLINE sched-file parser (dlstat.h).
 *
 * The input is one /proc/<pid>/task/<tid>/sched text, or two separated
 * by a NUL byte (a reading at a job's start and one at its end).  Each is
 * parsed; il_dl_budget_consumed then runs on the pair for a few budgets
 * and periods, extremes included.  Checked: the documented returns, the
 * `have` bits of a successful parse, and that a consumed budget is only
 * reported for readings whose deadlines moved by whole periods.
 *
 *   build-fuzz/tests/fuzz/fuzz-dlstat tests/fuzz/corpus/dlstat
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/dlstat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what)
{
	fprintf(stderr, "fuzz-dlstat: %s\n", what);
	abort();
}

static int parse(const char *text, struct il_dlstat *st)
{
	const unsigned need = IL_DLSTAT_RUNTIME | IL_DLSTAT_DEADLINE;
	int ret = il_dlstat_parse(text, st);

	if (ret && ret != -ENODATA && ret != -EINVAL && ret != -ERANGE)
		fail("il_dlstat_parse: an undocumented return");
	if (!ret && (st->have & need) != need)
		fail("il_dlstat_parse: 0 without both dl.* fields");
	if (ret == -ENODATA && (st->have & need) == need)
		fail("il_dlstat_parse: -ENODATA with both dl.* fields");
	return ret;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t q[] = { 1, 3000000, INT64_MAX, UINT64_MAX };
	static const uint64_t p[] = { 1, 10000000, INT64_MAX, UINT64_MAX };
	struct il_dlstat a, b;
	char *text;
	const char *second;
	int ra, rb;

	text = malloc(size + 2);
	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	text[size + 1] = '\0';
	/* the second text starts after the first NUL, or is empty */
	second = text + strlen(text) + 1;

	ra = parse(text, &a);
	rb = parse(second, &b);
	if (!*second)
		b = a, rb = ra;
	for (size_t i = 0; i < sizeof(q) / sizeof(*q); i++) {
		for (size_t j = 0; j < sizeof(p) / sizeof(*p); j++) {
			uint64_t used = 0, k = 0;
			int ret = il_dl_budget_consumed(&a, &b, q[i], p[j],
							&used, &k);

			if (ret && ret != -EINVAL && ret != -ERANGE)
				fail("il_dl_budget_consumed: an undocumented "
				     "return");
			if (ret == -EINVAL && !ra && !rb)
				fail("il_dl_budget_consumed: -EINVAL on two "
				     "complete readings");
			if (!ret && (b.deadline_ns - a.deadline_ns) % p[j])
				fail("il_dl_budget_consumed: a budget across a "
				     "deadline moved by no whole period");
			if (!ret && (int64_t)used < 0)
				fail("il_dl_budget_consumed: a negative "
				     "budget");
		}
	}
	free(text);
	return 0;
}
