/* SPDX-License-Identifier: MIT */
/*
 * The one expectation rule: what a verdict means for the exit status,
 * given the verdict that was expected.  Every demo, invlab-run and the
 * gate decide "as expected" here and nowhere else.
 *
 *   expected \ got  PASS      FAIL      UNDECIDED          SKIP   NONE
 *   PASS            as exp.   not       undecided (policy) skip   not
 *   FAIL            not       as exp.   not                skip   not
 *   UNDECIDED       not       not       as exp.            skip   not
 *   NONE            info      info      info               skip   not
 *
 * - NONE got: nothing judged; never counted as anything but a failure.
 * - NONE expected: judged for information only (nothing is expected of
 *   this case on this kernel); it never changes the exit status.
 * - UNDECIDED where PASS was expected: measured noise could explain what
 *   was seen.  The policy says what it counts as: tolerated (reported,
 *   exit status unchanged: the demos' default), a failure, or a skip.
 * - UNDECIDED where FAIL was expected: a negative control that did not
 *   detect what it is there to detect.  Not as expected, whatever the
 *   policy: a control that detects nothing must never pass.
 */
#ifndef INVLAB_EXPECT_H
#define INVLAB_EXPECT_H

#include <stdbool.h>
#include <stddef.h>

#include <invlab/verdict.h>

enum il_outcome {
	IL_OUT_NONE = 0, /* not decided: an error, like IL_NONE */
	IL_OUT_AS_EXPECTED,
	IL_OUT_NOT_AS_EXPECTED,
	IL_OUT_UNDECIDED, /* UNDECIDED where PASS was expected */
	IL_OUT_SKIP,	  /* the check could not run here */
	IL_OUT_INFO,	  /* nothing was expected of it */
	IL_OUT_N,
};

/* what an UNDECIDED where PASS was expected counts as */
enum il_undecided_policy {
	IL_UNDECIDED_TOLERATE = 0, /* reported; the exit status is unchanged */
	IL_UNDECIDED_FAILS,	   /* counts as not as expected */
	IL_UNDECIDED_SKIPS,	   /* counts as a skip */
};

/* The outcome of one verdict against its expectation (table above). */
enum il_outcome il_expect(enum il_verdict got,
			  enum il_verdict expected) IL_MUST_CHECK;

/*
 * Does the outcome fail the run under policy p?  NOT_AS_EXPECTED and NONE
 * always do; UNDECIDED does under IL_UNDECIDED_FAILS.
 */
bool il_outcome_fails(enum il_outcome o,
		      enum il_undecided_policy p) IL_MUST_CHECK;
/* Does it count as a skip under policy p?  SKIP, and UNDECIDED under
 * IL_UNDECIDED_SKIPS. */
bool il_outcome_skips(enum il_outcome o,
		      enum il_undecided_policy p) IL_MUST_CHECK;

/* "as expected", "not as expected", "undecided", "skip", "info", "none" */
const char *il_outcome_name(enum il_outcome o);

/*
 * A run judged check by check (invlab-run, dl-mbwi, kmutex write verdicts
 * per check, not per run): the run's verdict and outcome from its checks',
 * by the rule above applied to each.
 *
 * - The outcome is the worst of the checks' outcomes: NOT_AS_EXPECTED
 *   (which il_expect gives a check without a verdict), then UNDECIDED,
 *   AS_EXPECTED, SKIP, INFO.  One check not as expected makes the run not
 *   as expected; a run of skipped and informational checks is a SKIP.
 * - The verdict is the worst of the checks' verdicts: NONE, FAIL,
 *   UNDECIDED, PASS, SKIP (SKIP only when every check skipped).
 * - Fail closed: a run without checks has no verdict (IL_NONE) and
 *   outcome IL_OUT_NONE, which nothing counts as a pass.  A check its
 *   reader found unjudged (no "expected", or one that is no verdict) is
 *   added with got = IL_NONE.
 *
 * Zero-initialised: no checks yet, no verdict.
 */
struct il_run_judgement {
	enum il_verdict verdict;
	enum il_outcome outcome;
	size_t nchecks;
};

/* Add one check: its verdict and the verdict it expected. */
void il_expect_add_check(struct il_run_judgement *rj, enum il_verdict got,
			 enum il_verdict expected);

#endif
