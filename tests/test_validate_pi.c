// SPDX-License-Identifier: MIT
/*
 * The priority-inheritance and ceiling checks on synthetic data, for
 * every verdict: a working protocol passes, an inversion fails (also when
 * noise is present, and also as a single round), noise alone is
 * undecided, and too few samples are undecided.
 */
#include <errno.h>
#include <string.h>

#include <invlab/time.h>
#include <invlab/validate.h>

#include "t_util.h"

#define MS IL_NSEC_PER_MSEC
#define US IL_NSEC_PER_USEC
#define N  200

static struct il_wait_sample s[N];
static const struct il_bound_input pi = {
	.bound_name = "priority inheritance (one CPU)",
	.bound_ns = 2 * MS,
	.noise_ns = 50 * US,
	.min_samples = 20,
};

/* rounds of a working protocol: 1.5 ms +- jitter, no hog time */
static void fill_bounded(uint64_t seed)
{
	for (int i = 0; i < N; i++) {
		s[i].delay_ns = 1500 * US + t_rand(&seed) % (400 * US);
		s[i].foreign_ns = t_rand(&seed) % (20 * US);
		s[i].lower_ns = 0;
		s[i].timed_out = 0;
	}
}

static void test_steal(void);

static void test_bounds(void)
{
	/* three lower tasks, two locks */
	const uint64_t L[] = {
		1 * MS, 4 * MS, /* task 0 */
		2 * MS, 0,	/* task 1 */
		3 * MS, 1 * MS, /* task 2 */
	};
	const int ceiling[] = { 30, 10 };

	/* by task: 4 + 2 + 3 = 9; by lock: 3 + 4 = 7 */
	t_check_int(il_pi_bound(L, 3, 2), 7 * MS);
	/* one task, two locks: by task 4, by lock 5 */
	t_check_int(il_pi_bound(L, 1, 2), 4 * MS);
	t_check_int(il_pi_bound(L, 0, 2), 0);
	/* only lock 0 has a ceiling reaching prio 30 */
	t_check_int(il_ceiling_bound(L, ceiling, 30, 3, 2), 3 * MS);
	t_check_int(il_ceiling_bound(L, ceiling, 10, 3, 2), 4 * MS);
	t_check_int(il_ceiling_bound(L, ceiling, 40, 3, 2), 0);
}

static void test_pass(void)
{
	struct il_check c;

	fill_bounded(1);
	t_check_int(il_check_blocking(&pi, s, N, &c), 0);
	t_check_int(c.verdict, IL_PASS);
	t_check(c.worst_ns <= pi.bound_ns);
	t_check_contains(c.evidence, "200 waits");
	t_check_str(c.bound_name, pi.bound_name);
}

static void test_inversion_fails(void)
{
	struct il_check c;

	/* PI off: the 20 ms hog runs while the waiter waits, every round */
	fill_bounded(2);
	for (int i = 0; i < N; i++) {
		s[i].delay_ns += 20 * MS;
		s[i].lower_ns = 20 * MS;
	}
	t_check_int(il_check_blocking(&pi, s, N, &c), 0);
	t_check_int(c.verdict, IL_FAIL);
	t_check_contains(c.evidence, "200 of 200 waits exceeded");
	t_check_contains(c.evidence, "lower-priority thread ran");
	t_check(c.worst_ns > 20 * MS);

	/* a single inverted round among clean ones is still caught */
	fill_bounded(3);
	s[77].delay_ns = 9 * MS;
	s[77].lower_ns = 7 * MS;
	t_check_int(il_check_blocking(&pi, s, N, &c), 0);
	t_check_int(c.verdict, IL_FAIL);
	t_check_contains(c.evidence, "1 of 200");

	/* heavy steal elsewhere does not hide an inversion */
	for (int i = 0; i < N; i += 2)
		s[i].foreign_ns = 30 * MS, s[i].delay_ns += 30 * MS;
	t_check_int(il_check_blocking(&pi, s, N, &c), 0);
	t_check_int(c.verdict, IL_FAIL);

	/* foreign time is subtracted, never more: an inversion inside a
	 * round that also had steal still fails */
	fill_bounded(4);
	s[5].delay_ns = 40 * MS;
	s[5].foreign_ns = 15 * MS;
	s[5].lower_ns = 23 * MS;
	t_check_int(il_check_blocking(&pi, s, N, &c), 0);
	t_check_int(c.verdict, IL_FAIL);

	/* a lock never acquired is unbounded blocking */
	fill_bounded(5);
	s[0].timed_out = 1;
	t_check_int(il_check_blocking(&pi, s, N, &c), 0);
	t_check_int(c.verdict, IL_FAIL);
	t_check_contains(c.evidence, "never got the lock");

	/* over the bound with no hog time and no foreign time: a kernel
	 * that lets the holder run slowly is still a violation */
	fill_bounded(6);
	s[9].delay_ns = 5 * MS;
	t_check_int(il_check_blocking(&pi, s, N, &c), 0);
	t_check_int(c.verdict, IL_FAIL);
	t_check_contains(c.evidence, "beyond measured foreign time");
	test_steal();
}

/*
 * Host steal in the run that covers the excess of waits in which no
 * lower-priority thread ran: UNDECIDED (the holder's section stretched);
 * each comparison on both sides.
 */
static void test_steal(void)
{
	struct il_bound_input in = pi;
	struct il_check c;
	/* 5 ms over 2 ms + 50 us: the excess is 2.95 ms */
	const uint64_t excess = 5 * MS - 2 * MS - 50 * US;

	fill_bounded(6);
	s[9].delay_ns = 5 * MS;
	s[9].foreign_ns = 0;
	in.steal_ns = excess;
	t_check_int(il_check_blocking(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
	t_check_contains(c.evidence, "no lower-priority thread ran");
	t_check_contains(c.evidence, "the host stole 2.95ms");
	in.steal_ns = excess - 1;
	t_check_int(il_check_blocking(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_FAIL);
	/* a lower-priority thread that ran beyond the noise: an inversion,
	 * however much was stolen */
	in.steal_ns = 100 * MS;
	s[9].lower_ns = pi.noise_ns;
	t_check_int(il_check_blocking(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
	s[9].lower_ns = pi.noise_ns + 1;
	t_check_int(il_check_blocking(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_FAIL);
	t_check_contains(c.evidence, "lower-priority thread ran");
	/* a lock never acquired: unbounded, steal or not */
	s[9].lower_ns = 0;
	s[3].timed_out = 1;
	t_check_int(il_check_blocking(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_FAIL);
	t_check_contains(c.evidence, "never got the lock");
}

static void test_noise(void)
{
	struct il_check c;

	/* a few rounds hit by steal: set aside, still PASS */
	fill_bounded(7);
	s[3].delay_ns += 25 * MS, s[3].foreign_ns += 25 * MS;
	s[4].delay_ns += 12 * MS, s[4].foreign_ns += 12 * MS;
	t_check_int(il_check_blocking(&pi, s, N, &c), 0);
	t_check_int(c.verdict, IL_PASS);
	t_check_contains(c.evidence, "2 went over only by foreign time");

	/* noise in most rounds: no verdict either way */
	for (int i = 0; i < N - 10; i++)
		s[i].delay_ns += 25 * MS, s[i].foreign_ns += 25 * MS;
	t_check_int(il_check_blocking(&pi, s, N, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
	t_check_contains(c.evidence, "only 10 of 200");

	/* too few samples */
	fill_bounded(8);
	t_check_int(il_check_blocking(&pi, s, 5, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
	t_check_contains(c.evidence, "only 5 waits");
	t_check_int(il_check_blocking(&pi, s, 0, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
}

static void test_edges(void)
{
	struct il_check c;
	struct il_blocking_stats st;

	t_check_int(il_check_blocking(NULL, s, N, &c), -22);
	t_check_int(il_check_blocking(&pi, NULL, 3, &c), -22);
	/* exactly at the limit is within it */
	fill_bounded(9);
	s[0].delay_ns = pi.bound_ns + pi.noise_ns;
	s[0].foreign_ns = 0;
	il_blocking_stats(&pi, s, N, &st);
	t_check_int(st.violations, 0);
	t_check_int(st.clean, N);
	s[0].delay_ns++;
	il_blocking_stats(&pi, s, N, &st);
	t_check_int(st.violations, 1);
	t_check_int(st.worst_excess_ns, 1);
}

/*
 * Rare outliers: one wait over the limit by no more than the
 * calibration's p999 is noise (interrupts charged to the holder, a kernel
 * thread); several are a pattern; one far beyond is a violation; without
 * the allowance every one is.
 */
static void test_outliers(void)
{
	struct il_bound_input in = pi;
	struct il_blocking_stats st;
	struct il_check c;

	in.outlier_ns = 300 * US;
	fill_bounded(11);
	s[17].delay_ns = in.bound_ns + in.noise_ns + 144 * US;
	s[17].foreign_ns = 0;
	t_check_int(il_check_blocking(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_PASS);
	t_check_contains(c.evidence, "1 went over by no more than the "
				     "calibration's rare outliers (300us, at "
				     "most 3 allowed)");
	il_blocking_stats(&in, s, N, &st);
	t_check_int(st.outliers, 1);
	t_check_int(st.violations, 0);
	/* the same wait without the allowance fails */
	t_check_int(il_check_blocking(&pi, s, N, &c), 0);
	t_check_int(c.verdict, IL_FAIL);

	/* N / 100 + 1 = 3 are allowed, 4 are a pattern: all violations */
	for (int i = 20; i < 23; i++)
		s[i].delay_ns = in.bound_ns + in.noise_ns + 100 * US,
		s[i].foreign_ns = 0;
	t_check_int(il_check_blocking(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_FAIL);
	t_check_contains(c.evidence, "4 of 200 waits exceeded");
	s[22].delay_ns = 1500 * US;
	t_check_int(il_check_blocking(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_PASS);

	/* one beyond the allowance is a violation */
	fill_bounded(12);
	s[5].delay_ns = in.bound_ns + in.noise_ns + in.outlier_ns + 1;
	s[5].foreign_ns = 0;
	t_check_int(il_check_blocking(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_FAIL);

	/* the hog every round stays a FAIL however wide the allowance */
	in.outlier_ns = 30 * MS;
	fill_bounded(13);
	for (int i = 0; i < N; i++)
		s[i].delay_ns += 20 * MS, s[i].lower_ns = 20 * MS;
	t_check_int(il_check_blocking(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_FAIL);
}

/*
 * An allowance larger than IL_NOISE_MAX_PERCENT of the bound cannot tell
 * a working protocol from one that lets the waiter wait 1.5 bounds: the
 * waits that would pass are UNDECIDED, with the reason; a violation
 * beyond even that allowance stays a FAIL.
 */
static void test_noise_swamps(void)
{
	struct il_bound_input in = pi;
	struct il_check c;

	/* exactly half the bound still discriminates */
	t_check_int(il_noise_swamps(2 * MS, 1 * MS), 0);
	t_check_int(il_noise_swamps(2 * MS, 1 * MS + 1), 1);
	t_check_int(il_noise_swamps(0, 0), 0);
	t_check_int(il_noise_swamps(0, 1), 1);
	t_check_int(il_noise_swamps(UINT64_MAX, UINT64_MAX / 2), 0);
	t_check_int(il_noise_swamps(UINT64_MAX / 2, UINT64_MAX), 1);

	fill_bounded(21);
	in.noise_ns = in.bound_ns * IL_NOISE_MAX_PERCENT / 100;
	t_check_int(il_check_blocking(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_PASS);
	in.noise_ns++;
	t_check_int(il_check_blocking(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
	t_check_contains(c.evidence, "swamps the bound 2.00ms (more than 50 %");
	t_check_contains(c.evidence, "200 waits, worst ");
	t_check_int(c.noise_ns, in.noise_ns);
	/* the case that passed before: worst 1.68ms <= 2.04ms + 35.1ms */
	in.bound_ns = 2040 * US;
	in.noise_ns = 35100 * US;
	t_check_int(il_check_blocking(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
	t_check_contains(c.evidence, "noise allowance 35.1ms swamps");
	/* the hog beyond the bound and the allowance still fails */
	for (int i = 0; i < N; i++)
		s[i].delay_ns += 40 * MS, s[i].lower_ns = 40 * MS;
	t_check_int(il_check_blocking(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_FAIL);
}

/* a check that cannot run leaves no verdict, whatever out held */
static void test_fails_closed(void)
{
	struct il_check c;

	memset(&c, 0, sizeof(c));
	c.verdict = IL_PASS;
	t_check_int(il_check_blocking(NULL, s, N, &c), -EINVAL);
	t_check_int(c.verdict, IL_NONE);
	t_check_contains(c.evidence, "no verdict: blocking check");
	c.verdict = IL_PASS;
	t_check_int(il_check_blocking(&pi, NULL, 3, &c), -EINVAL);
	t_check_int(c.verdict, IL_NONE);
	t_check_int(il_check_blocking(&pi, s, N, NULL), -EINVAL);
}

static void test_mut_ceiling(void);
static void test_mut_limits(void);
static void test_mut_outlier_edges(void);
static void test_mut_evidence_and_minimum(void);

int main(void)
{
	test_fails_closed();
	test_bounds();
	test_pass();
	test_inversion_fails();
	test_noise();
	test_edges();
	test_outliers();
	test_mut_ceiling();
	test_mut_limits();
	test_mut_outlier_edges();
	test_mut_evidence_and_minimum();
	test_noise_swamps();
	return t_done("validate-pi");
}

/*
 * Boundary cases, each on both sides of one comparison of pi.c: a check
 * that moved a threshold by one (tests/mutate.py) gets one of them wrong.
 */

/* a lock whose ceiling is exactly the task's priority still blocks it */
static void test_mut_ceiling(void)
{
	const uint64_t L[] = { 5 * MS };
	const int ceiling[] = { 20 };

	t_check_int(il_ceiling_bound(L, ceiling, 20, 1, 1), 5 * MS);
	t_check_int(il_ceiling_bound(L, ceiling, 19, 1, 1), 5 * MS);
	t_check_int(il_ceiling_bound(L, ceiling, 21, 1, 1), 0);
}

/* a wait exactly at bound + noise is clean; one ns more is not */
static void test_mut_limits(void)
{
	const uint64_t limit = pi.bound_ns + pi.noise_ns;
	struct il_bound_input in = pi;
	struct il_blocking_stats st;

	/* over the limit in total, within it after foreign time */
	fill_bounded(21);
	s[3].delay_ns = limit;
	s[3].foreign_ns = 10 * US;
	il_blocking_stats(&pi, s, N, &st);
	t_check_int(st.clean, N);
	t_check_int(st.noisy, 0);
	s[3].delay_ns = limit + 1;
	il_blocking_stats(&pi, s, N, &st);
	t_check_int(st.clean, N - 1);
	t_check_int(st.noisy, 1);
	t_check_int(st.violations, 0);

	/* with an outlier allowance, exactly at the limit is still clean */
	in.outlier_ns = 300 * US;
	fill_bounded(22);
	s[4].delay_ns = limit;
	s[4].foreign_ns = 0;
	il_blocking_stats(&in, s, N, &st);
	t_check_int(st.clean, N);
	t_check_int(st.outliers, 0);
	s[4].delay_ns = limit + 1;
	il_blocking_stats(&in, s, N, &st);
	t_check_int(st.clean, N - 1);
	t_check_int(st.outliers, 1);
	t_check_int(st.violations, 0);
}

/*
 * The allowance: a wait exactly at limit + outlier is an outlier, one ns
 * more a violation; waits exactly at the limit are not outliers, so they
 * do not use up the N / 100 + 1 = 3 allowed; a fourth outlier exactly at
 * limit + outlier does.
 */
static void test_mut_outlier_edges(void)
{
	struct il_bound_input in = pi;
	const uint64_t limit = pi.bound_ns + pi.noise_ns;
	struct il_blocking_stats st;
	struct il_check c;

	in.outlier_ns = 300 * US;
	fill_bounded(23);
	s[8].delay_ns = limit + in.outlier_ns;
	s[8].foreign_ns = 0;
	il_blocking_stats(&in, s, N, &st);
	t_check_int(st.outliers, 1);
	t_check_int(st.violations, 0);
	t_check_int(il_check_blocking(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_PASS);
	s[8].delay_ns++;
	il_blocking_stats(&in, s, N, &st);
	t_check_int(st.outliers, 0);
	t_check_int(st.violations, 1);
	t_check_int(st.worst_excess_ns, in.outlier_ns + 1);

	/* three outliers and two waits exactly at the limit: PASS */
	fill_bounded(24);
	for (int i = 10; i < 13; i++)
		s[i].delay_ns = limit + 100 * US, s[i].foreign_ns = 0;
	for (int i = 13; i < 15; i++)
		s[i].delay_ns = limit, s[i].foreign_ns = 0;
	t_check_int(il_check_blocking(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_PASS);
	il_blocking_stats(&in, s, N, &st);
	t_check_int(st.outliers, 3);
	t_check_int(st.clean, N - 3);

	/* a fourth, exactly at limit + outlier, makes them a pattern */
	s[15].delay_ns = limit + in.outlier_ns, s[15].foreign_ns = 0;
	t_check_int(il_check_blocking(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_FAIL);
	t_check_contains(c.evidence, "4 of 200 waits exceeded");
}

/*
 * Which evidence a violation gets: a lower-priority thread that ran for
 * no more than the noise is not blamed.  And min_samples clean waits are
 * enough to PASS; one fewer is not.
 */
static void test_mut_evidence_and_minimum(void)
{
	struct il_check c;

	fill_bounded(25);
	s[30].delay_ns = 6 * MS;
	s[30].lower_ns = pi.noise_ns;
	t_check_int(il_check_blocking(&pi, s, N, &c), 0);
	t_check_int(c.verdict, IL_FAIL);
	t_check_contains(c.evidence, "beyond measured foreign time");
	s[30].lower_ns = pi.noise_ns + 1;
	t_check_int(il_check_blocking(&pi, s, N, &c), 0);
	t_check_int(c.verdict, IL_FAIL);
	t_check_contains(c.evidence, "a lower-priority thread ran");

	fill_bounded(26);
	t_check_int(il_check_blocking(&pi, s, pi.min_samples, &c), 0);
	t_check_int(c.verdict, IL_PASS);
	t_check_int(il_check_blocking(&pi, s, pi.min_samples - 1, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
	/* noisy waits do not count towards the minimum */
	s[0].delay_ns += 10 * MS, s[0].foreign_ns += 10 * MS;
	t_check_int(il_check_blocking(&pi, s, pi.min_samples, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
	t_check_int(il_check_blocking(&pi, s, pi.min_samples + 1, &c), 0);
	t_check_int(c.verdict, IL_PASS);
}
