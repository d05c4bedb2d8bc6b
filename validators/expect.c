// SPDX-License-Identifier: MIT
/* The one expectation rule; see expect.h for the table. */
#include <invlab/expect.h>

enum il_outcome il_expect(enum il_verdict got, enum il_verdict expected)
{
	if (got <= IL_NONE || got >= IL_VERDICT_N)
		return IL_OUT_NOT_AS_EXPECTED;
	if (got == IL_SKIP)
		return IL_OUT_SKIP;
	if (expected == IL_NONE)
		return IL_OUT_INFO;
	if (got == expected)
		return IL_OUT_AS_EXPECTED;
	if (got == IL_UNDECIDED && expected == IL_PASS)
		return IL_OUT_UNDECIDED;
	return IL_OUT_NOT_AS_EXPECTED;
}

bool il_outcome_fails(enum il_outcome o, enum il_undecided_policy p)
{
	switch (o) {
	case IL_OUT_AS_EXPECTED:
	case IL_OUT_SKIP:
	case IL_OUT_INFO:
		return false;
	case IL_OUT_UNDECIDED:
		return p == IL_UNDECIDED_FAILS;
	default:
		return true;
	}
}

bool il_outcome_skips(enum il_outcome o, enum il_undecided_policy p)
{
	return o == IL_OUT_SKIP ||
	       (o == IL_OUT_UNDECIDED && p == IL_UNDECIDED_SKIPS);
}

const char *il_outcome_name(enum il_outcome o)
{
	static const char *const names[IL_OUT_N] = {
		[IL_OUT_NONE] = "none",
		[IL_OUT_AS_EXPECTED] = "as expected",
		[IL_OUT_NOT_AS_EXPECTED] = "not as expected",
		[IL_OUT_UNDECIDED] = "undecided",
		[IL_OUT_SKIP] = "skip",
		[IL_OUT_INFO] = "info",
	};

	return (unsigned)o < IL_OUT_N ? names[o] : "?";
}

/* A run judged check by check (expect.h): how bad each verdict and
 * outcome is, for a run takes its worst check's */
static int verdict_rank(enum il_verdict v)
{
	switch (v) {
	case IL_SKIP:
		return 1;
	case IL_PASS:
		return 2;
	case IL_UNDECIDED:
		return 3;
	case IL_FAIL:
		return 4;
	default: /* IL_NONE, or not a verdict */
		return 5;
	}
}

static int outcome_rank(enum il_outcome o)
{
	switch (o) {
	case IL_OUT_INFO:
		return 0;
	case IL_OUT_SKIP:
		return 1;
	case IL_OUT_AS_EXPECTED:
		return 2;
	case IL_OUT_UNDECIDED:
		return 3;
	case IL_OUT_NOT_AS_EXPECTED:
		return 4;
	default: /* IL_OUT_NONE */
		return 5;
	}
}

void il_expect_add_check(struct il_run_judgement *rj, enum il_verdict got,
			 enum il_verdict expected)
{
	enum il_outcome o = il_expect(got, expected);

	if ((unsigned)got >= IL_VERDICT_N)
		got = IL_NONE;
	if (!rj->nchecks || verdict_rank(got) > verdict_rank(rj->verdict))
		rj->verdict = got;
	if (!rj->nchecks || outcome_rank(o) > outcome_rank(rj->outcome))
		rj->outcome = o;
	rj->nchecks++;
}
