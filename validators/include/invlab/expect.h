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
 *   was seen.  The policy says what it counts as: tolerated (not a
 *   failure, but never a pass either: the run ends with IL_EXIT_UNDECIDED,
 *   3, below; the demos' default), a failure, or a skip.
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
	IL_UNDECIDED_TOLERATE = 0, /* not a failure; exit 3, not 0 */
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

/*
 * The exit status every program ends with (docs/exit-status.md), one
 * table for the demos, invlab-run, invlab-judge, invlab-gate and
 * invlab-suite.  128+N (stopped by signal N) is not here: the program
 * that caught the signal sets it.
 */
enum il_exit {
	IL_EXIT_OK = 0,		     /* done; everything decided, as expected */
	IL_EXIT_NOT_AS_EXPECTED = 1, /* done; something not as expected */
	IL_EXIT_USAGE = 2,	     /* bad usage or input, before anything */
	IL_EXIT_UNDECIDED = 3,	     /* done; as expected but some undecided */
	IL_EXIT_SKIP = 77,	     /* could not run here */
	IL_EXIT_BROKEN = 99,	     /* the setup or the machine failed */
};

/*
 * How a program's checks (or a suite's cases) fell, for its exit status.
 * undecided: UNDECIDED where PASS was expected (IL_OUT_UNDECIDED under
 * the tolerating policy); informational checks are not counted.
 */
struct il_exit_tally {
	unsigned as_expected;
	unsigned undecided;
	unsigned not_as_expected; /* IL_OUT_NOT_AS_EXPECTED and IL_OUT_NONE */
	unsigned skipped;
	unsigned broken; /* could not run or crashed: the machine's */
};

/* Count one outcome into the tally (INFO counts nothing). */
void il_exit_tally_add(struct il_exit_tally *t, enum il_outcome o);

/*
 * The exit status for a tally, undecided_max_pct the share of the
 * decided-or-undecided checks (as_expected + undecided) that may be
 * UNDECIDED, in percent (0..100):
 *
 *   broken                               99
 *   not as expected                      1
 *   undecided, over the share            1
 *   undecided, within the share          3  ("as expected but undecided")
 *   as expected                          0
 *   skipped only                         77
 *   nothing at all                       77 (nothing was decided)
 *
 * 100 lets no number of UNDECIDED fail the run, but still ends 3, never
 * 0: an UNDECIDED is not a pass.  0 fails the run on any UNDECIDED.  A
 * share out of range is taken as 0 (fail closed).
 */
int il_exit_status(const struct il_exit_tally *t,
		   int undecided_max_pct) IL_MUST_CHECK;

/*
 * Of two exit statuses the one to end with: 2, then 99, then 128+N,
 * then 1, then 3, then 77, then 0.  An unknown status ranks as 99.
 */
int il_exit_worse(int a, int b) IL_MUST_CHECK;

/*
 * kselftest's exit statuses (tools/testing/selftests/kselftest.h), as
 * its runner (kselftest/runner.sh) reads them: 0 "ok", 4 "ok # SKIP",
 * 2 "ok # XFAIL", anything else "not ok".  3 is kselftest's XPASS.
 */
enum il_ksft_exit {
	IL_KSFT_PASS = 0,
	IL_KSFT_FAIL = 1,
	IL_KSFT_SKIP = 4,
};

/*
 * The exit status of --exit-status=kselftest for an invlab exit status
 * rc (docs/kselftest.md):
 *
 *   0   done, as expected and decided      0  pass
 *   1   not as expected                    1  fail
 *   3   as expected but UNDECIDED          4  skip: not a pass, and no
 *                                             failure of the kernel
 *   77  cannot run here                    4  skip
 *   2   bad usage                          2  as it is
 *   99  broken setup                       99 as it is
 *   128+N  stopped by signal N             as it is
 *
 * Anything else is 99: an unknown status is never read as a pass or a
 * skip.  2 stays 2 because a usage error can come before the option
 * that asks for this mapping is read (or from an invlab without it);
 * kselftest's runner reads 2 as XFAIL, so the kselftest wrapper
 * (kselftest/invlab.sh) reports it as a failure.
 */
int il_exit_kselftest(int rc) IL_MUST_CHECK;

#endif
