// SPDX-License-Identifier: MIT
/*
 * A run judged check by check (il_expect_add_check, validators/expect.c):
 * the worst check decides the run's verdict and outcome, and a run
 * nobody judged is never a pass.
 */
#include <invlab/expect.h>

#include "t_util.h"

#define P IL_PASS
#define F IL_FAIL
#define U IL_UNDECIDED
#define S IL_SKIP
#define N IL_NONE

/* the run of n checks got[i] expecting want[i] */
static struct il_run_judgement judged(int n, const enum il_verdict *got,
				      const enum il_verdict *want)
{
	struct il_run_judgement rj = { 0 };

	for (int i = 0; i < n; i++)
		il_expect_add_check(&rj, got[i], want[i]);
	return rj;
}

#define RUN(...) ((const enum il_verdict[]){ __VA_ARGS__ })
#define CHECK(n, got, want, v, o)                                              \
	do {                                                                   \
		struct il_run_judgement rj_ = judged(n, got, want);            \
		t_check_int(rj_.verdict, v);                                   \
		t_check_int(rj_.outcome, o);                                   \
		t_check_int(rj_.nchecks, n);                                   \
	} while (0)

int main(void)
{
	struct il_run_judgement none = { 0 };

	/* no checks: no verdict, no outcome (the zero values) */
	t_check_int(none.verdict, IL_NONE);
	t_check_int(none.outcome, IL_OUT_NONE);

	/* one check: its own */
	CHECK(1, RUN(P), RUN(P), P, IL_OUT_AS_EXPECTED);
	CHECK(1, RUN(F), RUN(P), F, IL_OUT_NOT_AS_EXPECTED);
	/* a negative control: its FAIL is as expected, the run's verdict
	 * is FAIL all the same */
	CHECK(2, RUN(P, F), RUN(P, F), F, IL_OUT_AS_EXPECTED);
	CHECK(2, RUN(F, P), RUN(F, P), F, IL_OUT_AS_EXPECTED);
	/* one not as expected fails the run, in either order */
	CHECK(2, RUN(P, P), RUN(P, F), P, IL_OUT_NOT_AS_EXPECTED);
	CHECK(2, RUN(P, P), RUN(F, P), P, IL_OUT_NOT_AS_EXPECTED);
	CHECK(3, RUN(U, P, P), RUN(P, P, F), U, IL_OUT_NOT_AS_EXPECTED);
	/* UNDECIDED where PASS was expected outranks as expected */
	CHECK(2, RUN(P, U), RUN(P, P), U, IL_OUT_UNDECIDED);
	CHECK(2, RUN(U, P), RUN(P, P), U, IL_OUT_UNDECIDED);
	CHECK(2, RUN(U, F), RUN(P, P), F, IL_OUT_NOT_AS_EXPECTED);
	/* a skipped check beside a judged one: the judged one decides */
	CHECK(2, RUN(S, P), RUN(P, P), P, IL_OUT_AS_EXPECTED);
	CHECK(2, RUN(P, S), RUN(P, P), P, IL_OUT_AS_EXPECTED);
	CHECK(2, RUN(S, S), RUN(P, F), S, IL_OUT_SKIP);
	/* information only never fails; with a skip it is a skip */
	CHECK(2, RUN(F, P), RUN(N, P), F, IL_OUT_AS_EXPECTED);
	CHECK(1, RUN(F), RUN(N), F, IL_OUT_INFO);
	CHECK(2, RUN(S, F), RUN(P, N), F, IL_OUT_SKIP);
	CHECK(2, RUN(F, S), RUN(N, P), F, IL_OUT_SKIP);
	/* an unjudged check (no verdict, or one out of range): never a
	 * pass, whatever the others */
	CHECK(2, RUN(P, N), RUN(P, P), N, IL_OUT_NOT_AS_EXPECTED);
	CHECK(2, RUN(N, P), RUN(P, P), N, IL_OUT_NOT_AS_EXPECTED);
	CHECK(2, RUN(F, N), RUN(F, N), N, IL_OUT_NOT_AS_EXPECTED);
	CHECK(1, RUN((enum il_verdict)42), RUN(P), N, IL_OUT_NOT_AS_EXPECTED);
	CHECK(1, RUN(IL_VERDICT_N), RUN(P), N, IL_OUT_NOT_AS_EXPECTED);
	CHECK(2, RUN(S, (enum il_verdict) - 1), RUN(P, P), N,
	      IL_OUT_NOT_AS_EXPECTED);
	return t_done("expect-run");
}
