// SPDX-License-Identifier: MIT
/*
 * The expectation rule (validators/expect.c): every cell of the table in
 * expect.h, and what each outcome means under each UNDECIDED policy.
 */
#include <invlab/expect.h>

#include "t_util.h"

#define P IL_PASS
#define F IL_FAIL
#define U IL_UNDECIDED
#define S IL_SKIP
#define N IL_NONE

static void test_mut_out_of_range(void);

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
