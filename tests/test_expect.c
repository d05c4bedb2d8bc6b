// SPDX-License-Identifier: MIT
/*
 * The expectation rule (validators/expect.c): every cell of the table in
 * expect.h, what each outcome means under each UNDECIDED policy, and the
 * exit status for each tally of outcomes and of two statuses, and the
 * kselftest mapping of every exit status.
 */
#include <invlab/expect.h>

#include "t_util.h"

#define P IL_PASS
#define F IL_FAIL
#define U IL_UNDECIDED
#define S IL_SKIP
#define N IL_NONE

static void test_mut_out_of_range(void);
static void test_exit_status(void);
static void test_exit_worse(void);
static void test_exit_kselftest(void);

int main(void)
{
	/* rows: expected; columns: got PASS FAIL UNDECIDED SKIP NONE */
	static const enum il_verdict got[] = { P, F, U, S, N };
	static const struct {
		enum il_verdict expected;
		enum il_outcome o[5];
	} table[] = {
		{ P,
		  { IL_OUT_AS_EXPECTED, IL_OUT_NOT_AS_EXPECTED,
		    IL_OUT_UNDECIDED, IL_OUT_SKIP, IL_OUT_NOT_AS_EXPECTED } },
		{ F,
		  { IL_OUT_NOT_AS_EXPECTED, IL_OUT_AS_EXPECTED,
		    IL_OUT_NOT_AS_EXPECTED, IL_OUT_SKIP,
		    IL_OUT_NOT_AS_EXPECTED } },
		{ U,
		  { IL_OUT_NOT_AS_EXPECTED, IL_OUT_NOT_AS_EXPECTED,
		    IL_OUT_AS_EXPECTED, IL_OUT_SKIP, IL_OUT_NOT_AS_EXPECTED } },
		{ N,
		  { IL_OUT_INFO, IL_OUT_INFO, IL_OUT_INFO, IL_OUT_SKIP,
		    IL_OUT_NOT_AS_EXPECTED } },
	};

	for (unsigned r = 0; r < sizeof(table) / sizeof(table[0]); r++)
		for (unsigned c = 0; c < 5; c++)
			t_check_int(il_expect(got[c], table[r].expected),
				    table[r].o[c]);
	/* out-of-range verdicts are no verdict */
	t_check_int(il_expect((enum il_verdict)IL_VERDICT_N, P),
		    IL_OUT_NOT_AS_EXPECTED);
	t_check_int(il_expect((enum il_verdict) - 1, P),
		    IL_OUT_NOT_AS_EXPECTED);

	/* what fails the run, per policy */
	for (int p = IL_UNDECIDED_TOLERATE; p <= IL_UNDECIDED_SKIPS; p++) {
		enum il_undecided_policy pol = (enum il_undecided_policy)p;

		t_check(!il_outcome_fails(IL_OUT_AS_EXPECTED, pol));
		t_check(il_outcome_fails(IL_OUT_NOT_AS_EXPECTED, pol));
		t_check(il_outcome_fails(IL_OUT_NONE, pol));
		t_check(!il_outcome_fails(IL_OUT_SKIP, pol));
		t_check(!il_outcome_fails(IL_OUT_INFO, pol));
		t_check_int(il_outcome_fails(IL_OUT_UNDECIDED, pol),
			    pol == IL_UNDECIDED_FAILS);
		t_check(il_outcome_skips(IL_OUT_SKIP, pol));
		t_check(!il_outcome_skips(IL_OUT_AS_EXPECTED, pol));
		t_check(!il_outcome_skips(IL_OUT_NOT_AS_EXPECTED, pol));
		t_check(!il_outcome_skips(IL_OUT_INFO, pol));
		t_check_int(il_outcome_skips(IL_OUT_UNDECIDED, pol),
			    pol == IL_UNDECIDED_SKIPS);
	}
	/* a negative control that detected nothing fails under every policy */
	for (int p = IL_UNDECIDED_TOLERATE; p <= IL_UNDECIDED_SKIPS; p++)
		t_check(il_outcome_fails(il_expect(U, F),
					 (enum il_undecided_policy)p));

	t_check_str(il_outcome_name(IL_OUT_AS_EXPECTED), "as expected");
	t_check_str(il_outcome_name(IL_OUT_NOT_AS_EXPECTED), "not as expected");
	t_check_str(il_outcome_name(IL_OUT_UNDECIDED), "undecided");
	t_check_str(il_outcome_name(IL_OUT_N), "?");
	t_check_str(il_verdict_name(IL_NONE), "NONE");
	t_check_str(il_verdict_name(IL_PASS), "PASS");
	t_check_str(il_verdict_name(IL_VERDICT_N), "?");
	{
		enum il_verdict v = IL_NONE;

		t_check(il_verdict_parse("none", &v) < 0);
		t_check(il_verdict_parse("fail", &v) == 0 && v == IL_FAIL);
		t_check(il_verdict_parse("UNDECIDED", &v) == 0 &&
			v == IL_UNDECIDED);
		t_check(il_verdict_parse("skip", &v) == 0 && v == IL_SKIP);
		t_check(il_verdict_parse("Pass", &v) == 0 && v == IL_PASS);
		t_check(il_verdict_parse(NULL, &v) < 0);
	}
	test_mut_out_of_range();
	test_exit_status();
	test_exit_worse();
	test_exit_kselftest();
	return t_done("expect");
}

/*
 * IL_VERDICT_N itself is out of range: no expectation makes it INFO, and
 * not even an expectation of the same out-of-range value makes it AS
 * EXPECTED (a check at > instead of >= would let both through).
 */
static void test_mut_out_of_range(void)
{
	const enum il_verdict past = (enum il_verdict)IL_VERDICT_N;

	t_check_int(il_expect(past, N), IL_OUT_NOT_AS_EXPECTED);
	t_check_int(il_expect(past, past), IL_OUT_NOT_AS_EXPECTED);
	/* the last verdict in range is judged as itself */
	t_check_int(il_expect((enum il_verdict)(IL_VERDICT_N - 1), N),
		    IL_OUT_SKIP);
	t_check_int(il_expect(N, N), IL_OUT_NOT_AS_EXPECTED);
}

/* t as written, then status s for share pct */
static int status_of(unsigned exp, unsigned und, unsigned not, unsigned skip,
		     unsigned broken, int pct)
{
	struct il_exit_tally t = { .as_expected = exp,
				   .undecided = und,
				   .not_as_expected = not,
				   .skipped = skip,
				   .broken = broken };

	return il_exit_status(&t, pct);
}

/* every row of il_exit_status's table, and the share at its edge */
static void test_exit_status(void)
{
	struct il_exit_tally t = { 0 };

	/* each outcome counts where it belongs, INFO nowhere */
	il_exit_tally_add(&t, IL_OUT_AS_EXPECTED);
	il_exit_tally_add(&t, IL_OUT_UNDECIDED);
	il_exit_tally_add(&t, IL_OUT_UNDECIDED);
	il_exit_tally_add(&t, IL_OUT_NOT_AS_EXPECTED);
	il_exit_tally_add(&t, IL_OUT_NONE);
	il_exit_tally_add(&t, IL_OUT_SKIP);
	il_exit_tally_add(&t, IL_OUT_INFO);
	t_check_int(t.as_expected, 1);
	t_check_int(t.undecided, 2);
	t_check_int(t.not_as_expected, 2);
	t_check_int(t.skipped, 1);
	t_check_int(t.broken, 0);

	/* nothing decided: not a pass */
	t_check_int(status_of(0, 0, 0, 0, 0, 100), IL_EXIT_SKIP);
	t_check_int(status_of(0, 0, 0, 3, 0, 100), IL_EXIT_SKIP);
	/* decided and as expected; skips beside it do not matter */
	t_check_int(status_of(1, 0, 0, 0, 0, 0), IL_EXIT_OK);
	t_check_int(status_of(4, 0, 0, 5, 0, 0), IL_EXIT_OK);
	/* one UNDECIDED is never a silent 0, whatever the share */
	t_check_int(status_of(9, 1, 0, 0, 0, 100), IL_EXIT_UNDECIDED);
	t_check_int(status_of(0, 1, 0, 0, 0, 100), IL_EXIT_UNDECIDED);
	t_check_int(status_of(0, 1, 0, 7, 0, 100), IL_EXIT_UNDECIDED);
	/* share 0: any UNDECIDED fails */
	t_check_int(status_of(99, 1, 0, 0, 0, 0), IL_EXIT_NOT_AS_EXPECTED);
	/* at the share exactly: within; one more: over (1 of 4 is 25 %) */
	t_check_int(status_of(3, 1, 0, 0, 0, 25), IL_EXIT_UNDECIDED);
	t_check_int(status_of(3, 1, 0, 0, 0, 24), IL_EXIT_NOT_AS_EXPECTED);
	t_check_int(status_of(2, 2, 0, 0, 0, 50), IL_EXIT_UNDECIDED);
	t_check_int(status_of(1, 2, 0, 0, 0, 50), IL_EXIT_NOT_AS_EXPECTED);
	/* skips are not in the share: 1 of 2 judged, not 1 of 10 */
	t_check_int(status_of(1, 1, 0, 8, 0, 10), IL_EXIT_NOT_AS_EXPECTED);
	/* all UNDECIDED is within 100 % only */
	t_check_int(status_of(0, 3, 0, 0, 0, 99), IL_EXIT_NOT_AS_EXPECTED);
	/* a share out of range is 0 */
	t_check_int(status_of(9, 1, 0, 0, 0, -1), IL_EXIT_NOT_AS_EXPECTED);
	t_check_int(status_of(9, 1, 0, 0, 0, 101), IL_EXIT_NOT_AS_EXPECTED);
	/* not as expected before undecided, broken before everything */
	t_check_int(status_of(5, 1, 1, 0, 0, 100), IL_EXIT_NOT_AS_EXPECTED);
	t_check_int(status_of(0, 0, 1, 0, 0, 100), IL_EXIT_NOT_AS_EXPECTED);
	t_check_int(status_of(5, 1, 1, 1, 1, 100), IL_EXIT_BROKEN);
	t_check_int(status_of(0, 0, 0, 0, 1, 100), IL_EXIT_BROKEN);
	t_check_int(status_of(1, 0, 0, 0, 1, 100), IL_EXIT_BROKEN);
}

/* every pair of the precedence 2, 99, 128+N, 1, 3, 77, 0, both ways */
static void test_exit_worse(void)
{
	static const int order[] = { IL_EXIT_USAGE,
				     IL_EXIT_BROKEN,
				     143,
				     IL_EXIT_NOT_AS_EXPECTED,
				     IL_EXIT_UNDECIDED,
				     IL_EXIT_SKIP,
				     IL_EXIT_OK };
	const int n = (int)(sizeof(order) / sizeof(order[0]));

	for (int i = 0; i < n; i++) {
		t_check_int(il_exit_worse(order[i], order[i]), order[i]);
		for (int j = i + 1; j < n; j++) {
			t_check_int(il_exit_worse(order[i], order[j]),
				    order[i]);
			t_check_int(il_exit_worse(order[j], order[i]),
				    order[i]);
		}
	}
	/* signals: 129 and 255 are, 128 and 256 are not (broken) */
	t_check_int(il_exit_worse(129, IL_EXIT_NOT_AS_EXPECTED), 129);
	t_check_int(il_exit_worse(255, IL_EXIT_NOT_AS_EXPECTED), 255);
	t_check_int(il_exit_worse(IL_EXIT_NOT_AS_EXPECTED, 128), 128);
	t_check_int(il_exit_worse(143, 128), 128);
	t_check_int(il_exit_worse(143, 256), 256);
	/* of two of one rank the first stays: a signal the first caught */
	t_check_int(il_exit_worse(130, 143), 130);
	t_check_int(il_exit_worse(IL_EXIT_BROKEN, 127), IL_EXIT_BROKEN);
	/* anything else ranks as broken: not hidden behind a 1 */
	t_check_int(il_exit_worse(IL_EXIT_NOT_AS_EXPECTED, 127), 127);
	t_check_int(il_exit_worse(IL_EXIT_USAGE, 127), IL_EXIT_USAGE);
}

/*
 * --exit-status=kselftest (expect.h): each invlab status to what
 * kselftest's runner reads.  Only 77 and 3 may become 4 (SKIP), only 0
 * may be 0, and nothing may become 2 or 3 that was not 2 (XFAIL and
 * XPASS there: 2 "ok # XFAIL").
 */
static void test_exit_kselftest(void)
{
	/* PASS: done, everything decided and as expected */
	t_check_int(il_exit_kselftest(IL_EXIT_OK), 0);
	/* FAIL: a verdict not as expected */
	t_check_int(il_exit_kselftest(IL_EXIT_NOT_AS_EXPECTED), 1);
	/* UNDECIDED where PASS was expected: a skip, never a pass */
	t_check_int(il_exit_kselftest(IL_EXIT_UNDECIDED), 4);
	/* cannot run here: kselftest's skip */
	t_check_int(il_exit_kselftest(IL_EXIT_SKIP), 4);
	/* broken setup and bad usage: never read as a skip or a pass */
	t_check_int(il_exit_kselftest(IL_EXIT_BROKEN), 99);
	t_check_int(il_exit_kselftest(IL_EXIT_USAGE), 2);
	/* stopped by a signal: as it is */
	t_check_int(il_exit_kselftest(130), 130);
	t_check_int(il_exit_kselftest(143), 143);
	t_check_int(il_exit_kselftest(255), 255);
	/* anything else is broken: not 0, 4, or kselftest's XPASS */
	t_check_int(il_exit_kselftest(4), 99);
	t_check_int(il_exit_kselftest(128), 99);
	t_check_int(il_exit_kselftest(256), 99);
	t_check_int(il_exit_kselftest(-1), 99);
	t_check_int(il_exit_kselftest(127), 99);
	for (int rc = -2; rc < 300; rc++) {
		int k = il_exit_kselftest(rc);

		if (k == IL_KSFT_SKIP)
			t_check(rc == IL_EXIT_SKIP || rc == IL_EXIT_UNDECIDED);
		if (k == IL_KSFT_PASS)
			t_check_int(rc, IL_EXIT_OK);
		if (k == 2 || k == 3)
			t_check_int(rc, k == 2 ? IL_EXIT_USAGE : -1);
	}
}
