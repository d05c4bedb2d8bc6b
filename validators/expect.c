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

void il_exit_tally_add(struct il_exit_tally *t, enum il_outcome o)
{
	switch (o) {
	case IL_OUT_AS_EXPECTED:
		t->as_expected++;
		break;
	case IL_OUT_UNDECIDED:
		t->undecided++;
		break;
	case IL_OUT_SKIP:
		t->skipped++;
		break;
	case IL_OUT_INFO:
		break;
	default: /* NOT_AS_EXPECTED, NONE: nothing counts it as a pass */
		t->not_as_expected++;
		break;
	}
}

int il_exit_status(const struct il_exit_tally *t, int undecided_max_pct)
{
	unsigned long long judged;

	if (t->broken)
		return IL_EXIT_BROKEN;
	if (t->not_as_expected)
		return IL_EXIT_NOT_AS_EXPECTED;
	if (t->undecided) {
		if (undecided_max_pct < 0 || undecided_max_pct > 100)
			undecided_max_pct = 0;
		judged = (unsigned long long)t->as_expected + t->undecided;
		/* undecided / judged > pct / 100, without rounding */
		if (100ull * t->undecided >
		    (unsigned long long)undecided_max_pct * judged)
			return IL_EXIT_NOT_AS_EXPECTED;
		return IL_EXIT_UNDECIDED;
	}
	if (t->as_expected)
		return IL_EXIT_OK;
	return IL_EXIT_SKIP;
}

/* how much an exit status says: the higher wins (expect.h) */
static int exit_rank(int rc)
{
	switch (rc) {
	case IL_EXIT_OK:
		return 0;
	case IL_EXIT_SKIP:
		return 1;
	case IL_EXIT_UNDECIDED:
		return 2;
	case IL_EXIT_NOT_AS_EXPECTED:
		return 3;
	case IL_EXIT_USAGE:
		return 6;
	default:
		/* stopped by a signal; anything else is broken */
		return rc > 128 && rc < 256 ? 4 : 5;
	}
}

int il_exit_worse(int a, int b)
{
	return exit_rank(b) > exit_rank(a) ? b : a;
}

int il_exit_kselftest(int rc)
{
	switch (rc) {
	case IL_EXIT_OK:
		return IL_KSFT_PASS;
	case IL_EXIT_NOT_AS_EXPECTED:
		return IL_KSFT_FAIL;
	case IL_EXIT_UNDECIDED: /* UNDECIDED is not a pass */
	case IL_EXIT_SKIP:
		return IL_KSFT_SKIP;
	case IL_EXIT_USAGE:
	case IL_EXIT_BROKEN:
		return rc;
	default:
		/* stopped by a signal; anything else is broken */
		return rc > 128 && rc < 256 ? rc : IL_EXIT_BROKEN;
	}
}
