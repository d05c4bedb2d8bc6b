// SPDX-License-Identifier: MIT
/*
 * M-BWI checks on synthetic traces and hand-computed task sets.  Every
 * expected number is worked out in the comment next to it, the
 * schedulability cases sit exactly on their boundary and one nanosecond
 * past it, and every check has a negative control that must FAIL (an
 * overrunning server, an isolated probe that misses, a covered task that
 * misses) beside the same misses where the theory promises nothing
 * (UNDECIDED).  An arithmetic slip - max for sum, a nesting level
 * dropped, N ignored, utilization for density, per-period instead of
 * per-window - changes a number or a verdict here.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <invlab/mbwi.h>
#include <invlab/time.h>

#include "t_util.h"

#define MS	      IL_NSEC_PER_MSEC
#define US	      IL_NSEC_PER_USEC
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------------ */
/* Bandwidth preservation                                              */
/* ------------------------------------------------------------------ */

static void test_worst_window(void)
{
	/* Q = 3: excess per period -1, 1, 1, -2, 0 -> periods 1..2, +2 */
	const uint64_t a[] = { 2 * MS, 4 * MS, 4 * MS, 1 * MS, 3 * MS };
	/* all under: excess -2, -1, -2 -> the single period 1, -1 */
	const uint64_t b[] = { 1 * MS, 2 * MS, 1 * MS };
	/* +2, -2, +2, -2: the sum over all is 0, one period is +2 */
	const uint64_t c[] = { 5 * MS, 1 * MS, 5 * MS, 1 * MS };
	/* +1 per period, 5 periods: the whole run, +5 */
	const uint64_t d[] = { 4 * MS, 4 * MS, 4 * MS, 4 * MS, 4 * MS };
	const uint64_t big[] = { (uint64_t)INT64_MAX + 1 };
	const uint64_t huge[] = { INT64_MAX, INT64_MAX };
	struct il_bw_window w;

	t_check_int(il_bw_worst_window(a, ARRAY_SIZE(a), 3 * MS, &w), 0);
	t_check_int(w.first, 1);
	t_check_int(w.count, 2);
	t_check_int(w.excess_ns, 2 * MS);
	t_check_int(w.consumed_ns, 8 * MS);

	t_check_int(il_bw_worst_window(b, ARRAY_SIZE(b), 3 * MS, &w), 0);
	t_check_int(w.first, 1);
	t_check_int(w.count, 1);
	t_check_int(w.excess_ns, -(int64_t)MS);
	t_check_int(w.consumed_ns, 2 * MS);

	t_check_int(il_bw_worst_window(c, ARRAY_SIZE(c), 3 * MS, &w), 0);
	t_check_int(w.first, 0);
	t_check_int(w.count, 1);
	t_check_int(w.excess_ns, 2 * MS);

	t_check_int(il_bw_worst_window(d, ARRAY_SIZE(d), 3 * MS, &w), 0);
	t_check_int(w.first, 0);
	t_check_int(w.count, 5);
	t_check_int(w.excess_ns, 5 * MS);
	t_check_int(w.consumed_ns, 20 * MS);

	t_check_int(il_bw_worst_window(a, 0, 3 * MS, &w), -EINVAL);
	t_check_int(il_bw_worst_window(NULL, 1, 3 * MS, &w), -EINVAL);
	t_check_int(il_bw_worst_window(a, 1, 3 * MS, NULL), -EINVAL);
	t_check_int(il_bw_worst_window(big, 1, 3 * MS, &w), -ERANGE);
	t_check_int(il_bw_worst_window(huge, 2, 0, &w), -ERANGE);
}

/*
 * The one-pass window against all n(n+1)/2 windows summed directly, on
 * random traces around the budget.
 */
static void test_worst_window_brute(void)
{
	uint64_t seed = 0x5eed, c[64];

	for (int round = 0; round < 200; round++) {
		size_t n = 1 + t_rand(&seed) % ARRAY_SIZE(c);
		uint64_t q = 1 * MS + t_rand(&seed) % (3 * MS);
		int64_t best = INT64_MIN;
		struct il_bw_window w;

		for (size_t k = 0; k < n; k++)
			c[k] = t_rand(&seed) % (2 * q);
		for (size_t i = 0; i < n; i++) {
			int64_t s = 0;

			for (size_t j = i; j < n; j++) {
				s += (int64_t)c[j] - (int64_t)q;
				if (s > best)
					best = s;
			}
		}
		t_check_int(il_bw_worst_window(c, n, q, &w), 0);
		t_check_int(w.excess_ns, best);
		/* and the window reported is one that has it */
		{
			uint64_t sum = 0;

			for (size_t k = w.first; k < w.first + w.count; k++)
				sum += c[k];
			t_check_int(sum, w.consumed_ns);
			t_check_int((int64_t)sum - (int64_t)(w.count * q),
				    best);
		}
	}
}

static void test_bandwidth_steal(struct il_bw_input *in, uint64_t *c);
static void test_bandwidth_steal_once(struct il_bw_input *in, uint64_t *c);
static void test_bandwidth_late_tick(struct il_bw_input *in, uint64_t *c);
static void test_bandwidth_unaligned(struct il_bw_input *in, uint64_t *c);
static void test_bandwidth_lent(struct il_bw_input *in, uint64_t *c);

static void test_check_bandwidth(void)
{
	struct il_bw_input in = {
		.task = "holder",
		.runtime_ns = 3 * MS,
		.period_ns = 10 * MS,
		.tick_ns = 4 * MS, /* HZ=250 */
		.noise_ns = 200 * US,
		.min_periods = 10,
	};
	uint64_t c[100];
	struct il_bw_window w;
	struct il_check ck;

	/* a well-behaved server: at most Q in every period */
	for (size_t k = 0; k < ARRAY_SIZE(c); k++)
		c[k] = 2 * MS + (k % 7) * 100 * US;
	c[50] = 3 * MS;
	t_check_int(il_check_bandwidth(&in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_PASS);
	t_check_str(ck.bound_name, "bandwidth preservation (n*Q + tick)");
	t_check_int(w.first, 50);
	t_check_int(w.count, 1);
	t_check_int(ck.bound_ns, 3 * MS + 4 * MS);
	t_check_int(ck.worst_ns, 3 * MS);
	t_check_contains(ck.evidence, "holder");
	t_check_contains(ck.evidence, "periods 50..50");

	/*
	 * Negative control: the holder overruns its section by 20 ms in
	 * period 60 and is never throttled.  n = 1: 23 ms > 3 + 4 + noise.
	 */
	c[60] = 23 * MS;
	t_check_int(il_check_bandwidth(&in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check_int(w.first, 60);
	t_check_int(ck.worst_ns, 23 * MS);
	t_check_int(ck.bound_ns, 7 * MS);
	t_check_contains(ck.evidence, "holder");
	t_check_contains(ck.evidence, "exceeded");
	c[60] = 2 * MS;

	/*
	 * 1 ms over in each of 5 consecutive periods: no period alone is
	 * beyond Q + tick (4 < 7), but the 5 together are beyond 5 Q + tick
	 * (20 > 19 + 0.2): only a check over every window length sees it.
	 */
	for (size_t k = 10; k < 15; k++)
		c[k] = 4 * MS;
	t_check_int(il_check_bandwidth(&in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check_int(w.first, 10);
	t_check_int(w.count, 5);
	t_check_int(ck.bound_ns, 5 * 3 * MS + 4 * MS);
	t_check_int(ck.worst_ns, 20 * MS);
	/* with 4 such periods it is 16 <= 12 + 4: allowed */
	c[14] = 2 * MS + 400 * US;
	t_check_int(il_check_bandwidth(&in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_PASS);
	t_check_int(w.count, 4);
	t_check_int(ck.worst_ns, 16 * MS);

	/* 4.1 ms over the budget in one period: past the tick, within noise */
	for (size_t k = 10; k < 15; k++)
		c[k] = 2 * MS;
	c[20] = 7 * MS + 100 * US;
	t_check_int(il_check_bandwidth(&in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check_contains(ck.evidence, "within");
	/* and 4.3 ms is past both */
	c[20] = 7 * MS + 300 * US;
	t_check_int(il_check_bandwidth(&in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_FAIL);
	c[20] = 2 * MS;

	/* too few periods: UNDECIDED, but a violation fails at once */
	t_check_int(il_check_bandwidth(&in, c, 5, &ck, &w), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check_contains(ck.evidence, "only 5 periods");
	c[2] = 30 * MS;
	t_check_int(il_check_bandwidth(&in, c, 5, &ck, &w), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check_int(il_check_bandwidth(&in, c, 0, &ck, NULL), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check_int(il_check_bandwidth(NULL, c, 5, &ck, NULL), -EINVAL);
	t_check_int(il_check_bandwidth(&in, NULL, 5, &ck, NULL), -EINVAL);
	c[2] = 2 * MS;
	test_bandwidth_steal(&in, c);
	test_bandwidth_steal_once(&in, c);
	test_bandwidth_late_tick(&in, c);
	test_bandwidth_unaligned(&in, c);
	test_bandwidth_lent(&in, c);
}

/*
 * Periods that are the task's, not the kernel's: a window of n of them
 * can hold n + 1 of the kernel's budgets, so beyond n Q + tick + noise
 * by up to one Q is UNDECIDED, and 1 ns past that FAIL; below it the
 * verdicts are as for aligned periods; steal and lateness are taken off
 * against the same bound.
 */
static void test_bandwidth_unaligned(struct il_bw_input *in, uint64_t *c)
{
	uint64_t lt[100] = { 0 };
	struct il_bw_window w;
	struct il_check ck;

	in->unaligned = true;
	/* the well-behaved server: PASS as before */
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_PASS);
	/* 4.1 ms over Q: within tick + noise, UNDECIDED as before */
	c[20] = 7 * MS + 100 * US;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check_contains(ck.evidence, "within 200us noise");
	/* exactly tick + noise over Q: noise, not yet the one Q more */
	c[20] = 7 * MS + 200 * US;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check_contains(ck.evidence, "within 200us noise");
	t_check(!strstr(ck.evidence, "one Q more"));
	/* 3 + 4 + 0.2 + 3 ms exactly: within one Q more */
	c[20] = 10 * MS + 200 * US;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check_contains(ck.evidence, "within one Q more");
	t_check_contains(ck.evidence, "1 of them span 2 of the kernel's");
	t_check_int(ck.bound_ns, 7 * MS);
	/* 1 ns more: the kernel's */
	c[20]++;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check_contains(ck.evidence, "exceeded");
	/* the same with late ticks: taken off against Q more too */
	in->late_tick_ns = lt;
	lt[20] = 1;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check_contains(ck.evidence, "and one Q more");
	lt[20] = 0;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check_contains(ck.evidence, "with the ticks' lateness taken off");
	/* the negative control's overrun stays a FAIL */
	c[20] = 23 * MS;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_FAIL);
	in->late_tick_ns = NULL;
	in->unaligned = false;
	c[20] = 2 * MS;
}

/*
 * Steal in the periods that covers the excess: UNDECIDED; steal that
 * does not, or an overrun far beyond it: FAIL, on the window with the
 * steal taken off.  Each comparison on both sides.
 */
static void test_bandwidth_steal(struct il_bw_input *in, uint64_t *c)
{
	uint64_t st[100] = { 0 };
	struct il_bw_window w;
	struct il_check ck;

	/* 9.2 ms in period 30: 2.2 ms beyond 3 + 4, 2 ms past tick + noise */
	c[30] = 9 * MS + 200 * US;
	in->steal_ns = st;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_FAIL); /* no steal measured */
	/* 2 ms stolen in it: 7.2 ms is past the tick, within the noise */
	st[30] = 2 * MS;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check_contains(ck.evidence, "the host stole 2.00ms in those periods");
	/* 1.999 ms stolen: 7.201 ms, past tick + noise */
	st[30] = 2 * MS - 1 * US;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check_contains(ck.evidence, "with the host's steal taken off");
	t_check_int(ck.worst_ns, 9 * MS + 200 * US - 2 * MS + 1 * US);
	t_check_int(w.first, 30);
	/* steal in another period does not excuse this one */
	st[30] = 0;
	st[31] = 20 * MS;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_FAIL);
	/*
	 * But the counter moves in steps: on a host that stole during the
	 * run, a period's figure can read up to one step short.  9.2 ms
	 * with nothing read in it: 2.2 ms beyond 3 + 4, within 0.2 + 10.
	 */
	in->steal_step_ns = 10 * MS;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check_contains(ck.evidence, "steps of 10.0ms");
	t_check_contains(ck.evidence,
			 "the steal counter read 0ns in those periods (its "
			 "counter moves in steps of 10.0ms, so up to one more "
			 "goes unseen)");
	/* exactly tick + noise + one step beyond Q: still UNDECIDED */
	c[30] = 3 * MS + 4 * MS + 200 * US + 10 * MS;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	/* 1 ns more: the kernel's */
	c[30]++;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check_contains(ck.evidence, "exceeded");
	/* a host that stole nothing in the run: the step excuses nothing */
	c[30] = 9 * MS + 200 * US;
	st[31] = 0;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check_int(ck.worst_ns, 9 * MS + 200 * US);
	in->steal_step_ns = 0;
	/* an overrun of 20 ms with 10 ms stolen: still exceeded */
	c[30] = 23 * MS;
	st[30] = 10 * MS;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check_int(ck.worst_ns, 13 * MS);
	/* within one more step: not shown (13 - 3 = 10 <= 4 + 0.2 + 10) */
	in->steal_step_ns = 10 * MS;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	/* an overrun of 27 ms with 10 ms stolen: 2.8 ms past the step */
	c[30] = 30 * MS;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check_int(ck.worst_ns, 20 * MS);
	in->steal_step_ns = 0;
	c[30] = 2 * MS;
	in->steal_ns = NULL;
}

/*
 * The steal of a window counted once (steal_window): periods 30..39
 * consume 5 ms each, 20 ms beyond 10 x 3 ms; a 3 ms stretch of steal
 * read in each of them (one sample of the counter spanning the ten)
 * sums to 30 ms and would excuse it.  Counted once, 17 ms is left
 * beyond: FAIL; the window's excess left within tick + noise (4.2 ms):
 * UNDECIDED, 1 ns more steal is the boundary.
 */
static uint64_t once_ns;

static uint64_t steal_once(const void *ctx, size_t first, size_t count)
{
	(void)ctx;
	(void)first;
	(void)count;
	return once_ns;
}

static void test_bandwidth_steal_once(struct il_bw_input *in, uint64_t *c)
{
	uint64_t st[100] = { 0 };
	struct il_bw_window w;
	struct il_check ck;

	for (size_t k = 30; k < 40; k++) {
		c[k] = 5 * MS;
		st[k] = 3 * MS;
	}
	in->steal_ns = st;
	/* no window figure: the sum excuses it */
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	in->steal_window = steal_once;
	once_ns = 3 * MS;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check_int(ck.worst_ns, 47 * MS);
	t_check_int(w.first, 30);
	t_check_int(w.count, 10);
	t_check_contains(ck.evidence, "with the host's steal taken off");
	/* 15.8 ms once: 4.2 ms left beyond, within tick + noise */
	once_ns = 15 * MS + 800 * US;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	once_ns--;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_FAIL);
	/* the window's steal as large as the sum: excused as before */
	once_ns = 30 * MS;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	/* without per-period steal it is not asked */
	in->steal_ns = NULL;
	once_ns = 0;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check_int(ck.worst_ns, 50 * MS);
	in->steal_window = NULL;
	for (size_t k = 30; k < 40; k++)
		c[k] = 2 * MS;
}

/*
 * The tick's lateness in the periods (late_tick_ns), alone and beside
 * the steal: what covers the excess makes it UNDECIDED, 1 ns less
 * FAILs on the window with it taken off, and another period's excuses
 * nothing.
 */
static void test_bandwidth_late_tick(struct il_bw_input *in, uint64_t *c)
{
	uint64_t lt[100] = { 0 }, st[100] = { 0 };
	struct il_bw_window w;
	struct il_check ck;

	/* 9.2 ms in period 30: 2.2 ms beyond 3 + 4, 2 ms past tick + noise */
	c[30] = 9 * MS + 200 * US;
	in->late_tick_ns = lt;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check_contains(ck.evidence, "with the ticks' lateness taken off");
	t_check_int(ck.worst_ns, 9 * MS + 200 * US);
	/* the accounts came 2 ms late: 7.2 ms, within tick + noise (the
	 * steal counter's step has nothing to do with it) */
	lt[30] = 2 * MS;
	in->steal_step_ns = 10 * MS;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check_contains(ck.evidence, "accounts of holder came 2.00ms later "
				      "than one tick apart");
	t_check(!strstr(ck.evidence, "stole"));
	t_check(!strstr(ck.evidence, "steps of"));
	in->steal_step_ns = 0;
	/* 1 ns less: 7.2 ms + 1 ns, past it */
	lt[30] = 2 * MS - 1;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check_int(ck.worst_ns, 7 * MS + 200 * US + 1);
	t_check_int(w.first, 30);
	t_check_contains(ck.evidence, "with the ticks' lateness taken off");
	/* lateness in another period does not excuse this one */
	lt[30] = 0;
	lt[31] = 20 * MS;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check_int(w.first, 30);
	lt[31] = 0;
	/* steal and lateness together cover it: both named */
	in->steal_ns = st;
	st[30] = MS;
	lt[30] = MS;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check_contains(ck.evidence, "the host stole 1.00ms in those periods");
	t_check_contains(ck.evidence, "; and the kernel's accounts of holder "
				      "came 1.00ms later");
	/* lateness of 0 in those periods is not named */
	lt[30] = 0;
	st[30] = 3 * MS;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check(!strstr(ck.evidence, "later than one tick"));
	st[30] = MS;
	lt[30] = MS;
	/* the step is named only on a host that stole in the run */
	t_check(!strstr(ck.evidence, "steps of"));
	in->steal_step_ns = 10 * MS;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_contains(ck.evidence, "steps of 10.0ms");
	st[30] = 0;
	lt[30] = 2 * MS;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check(!strstr(ck.evidence, "steps of"));
	in->steal_step_ns = 0;
	st[30] = MS;
	lt[30] = MS;
	/* 1 ns short together: FAIL, with both taken off */
	lt[30] = MS - 1;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check_int(ck.worst_ns, 7 * MS + 200 * US + 1);
	t_check_contains(ck.evidence, "with the host's steal and the ticks' "
				      "lateness taken off");
	/* a window within tick + noise from the start is not looked at */
	c[30] = 7 * MS + 200 * US;
	lt[30] = 0;
	st[30] = 0;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check(!strstr(ck.evidence, "taken off"));
	in->steal_ns = NULL;
	in->late_tick_ns = NULL;
	c[30] = 2 * MS;
}

/*
 * The time deadline waiters were blocked on the task's locks (lent_ns):
 * what covers the excess makes it UNDECIDED, never PASS; 1 ns less
 * FAILs with it taken off and named; another period's excuses nothing;
 * beside the steal, both are taken off, and the steal counted once
 * still has the lent time off; a window within the bound stays PASS.
 */
static void test_bandwidth_lent(struct il_bw_input *in, uint64_t *c)
{
	uint64_t ln[100] = { 0 }, st[100] = { 0 };
	struct il_bw_window w;
	struct il_check ck;

	/* 12.2 ms in period 40: 5.2 ms beyond 3 + 4 + 0.2 noise */
	c[40] = 12 * MS + 400 * US;
	in->lent_ns = ln;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check_int(ck.worst_ns, 12 * MS + 400 * US);
	t_check_contains(ck.evidence,
			 "with what it ran while deadline waiters blocked on "
			 "its locks taken off");
	/* a waiter blocked 5.2 ms: 7.2 ms left, within tick + noise */
	ln[40] = 5 * MS + 200 * US;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check_contains(ck.evidence, "but holder ran up to 5.20ms in those "
				      "periods while deadline tasks were "
				      "blocked on locks it holds");
	t_check_contains(ck.evidence, "deadline inheritance");
	t_check(!strstr(ck.evidence, "CPU clock"));
	/* 1 ns less: past it */
	ln[40]--;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check_int(ck.worst_ns, 7 * MS + 200 * US + 1);
	t_check_int(w.first, 40);
	/* lent in another period excuses nothing here */
	ln[40] = 0;
	ln[41] = 20 * MS;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check_int(w.first, 40);
	ln[41] = 0;
	/* with the steal: both taken off, both named */
	in->steal_ns = st;
	st[40] = 2 * MS;
	ln[40] = 3 * MS + 200 * US;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check_contains(ck.evidence, "the host stole 2.00ms");
	t_check_contains(ck.evidence, "; and holder ran up to 3.20ms");
	t_check_contains(ck.evidence, "a thread's CPU clock counts that time");
	ln[40]--;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check_contains(ck.evidence,
			 "with the host's steal and what it ran while deadline "
			 "waiters blocked on its locks taken off");
	/* the steal counted once, as large as the sum: the lent time is
	 * still taken off the window */
	ln[40]++;
	in->steal_window = steal_once;
	once_ns = 2 * MS;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	/* the steal summed period by period excuses a window of 10 (5 ms
	 * each, 2 ms stolen in each); counted once it is 2 ms: 48 ms
	 * against 10 x 3 + 4.2, and the 13.8 ms lent in it covers the rest */
	for (size_t k = 40; k < 50; k++) {
		c[k] = 5 * MS;
		st[k] = 2 * MS;
		ln[k] = 0;
	}
	ln[40] = 13 * MS + 800 * US;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	ln[40]--;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check_int(ck.worst_ns, 34 * MS + 200 * US + 1);
	t_check_int(w.first, 40);
	t_check_int(w.count, 10);
	for (size_t k = 40; k < 50; k++) {
		c[k] = 2 * MS;
		st[k] = 0;
		ln[k] = 0;
	}
	in->steal_window = NULL;
	in->steal_ns = NULL;
	once_ns = 0;
	/* within the bound: PASS, lent or not */
	ln[40] = 10 * MS;
	t_check_int(il_check_bandwidth(in, c, 100, &ck, &w), 0);
	t_check_int(ck.verdict, IL_PASS);
	t_check(!strstr(ck.evidence, "deadline tasks"));
	ln[40] = 0;
	in->lent_ns = NULL;
}

/* ------------------------------------------------------------------ */
/* Schedulability                                                      */
/* ------------------------------------------------------------------ */

static struct il_mbwi_task dl(const char *name, uint64_t q, uint64_t d,
			      uint64_t p, int cpu)
{
	struct il_mbwi_task t = { 0 };

	t.name = name;
	t.runtime_ns = q;
	t.deadline_ns = d;
	t.period_ns = p;
	t.cpu = cpu;
	return t;
}

static int sched_of(struct il_mbwi_task *t, size_t n, int m, double cap,
		    int part, struct il_dl_sched *out)
{
	struct il_mbwi_set s = { .tasks = t,
				 .ntasks = n,
				 .ncpus = m,
				 .cap = cap,
				 .partitioned = part };

	return il_dl_schedulable(&s, out);
}

static void test_gfb(void)
{
	struct il_mbwi_task t[4];
	struct il_dl_sched r;

	/*
	 * m = 2, cap 1, three tasks of density 1/2: sum 3/2 and
	 * m - (m - 1) max = 2 - 1/2 = 3/2: on the boundary, schedulable.
	 */
	t[0] = dl("a", 5 * MS, 10 * MS, 10 * MS, -1);
	t[1] = dl("b", 5 * MS, 10 * MS, 10 * MS, -1);
	t[2] = dl("c", 5 * MS, 10 * MS, 10 * MS, -1);
	t_check_int(sched_of(t, 3, 2, 1.0, 0, &r), 0);
	t_check_int(r.test, IL_DL_GLOBAL_GFB);
	t_check_int(r.schedulable, 1);
	t_check_int(r.load_bw, 3 * (IL_DL_BW_ONE / 2));
	t_check_int(r.limit_bw, 3 * (IL_DL_BW_ONE / 2));
	t_check_int(r.max_bw, IL_DL_BW_ONE / 2);
	t_check_int(r.cpu, -1);
	t_check_contains(r.desc, "GFB");
	/* one nanosecond more runtime: the sum grows and the limit drops */
	t[2].runtime_ns++;
	t_check_int(sched_of(t, 3, 2, 1.0, 0, &r), 0);
	t_check_int(r.schedulable, 0);
	t[2].runtime_ns--;

	/* cap 3/4: limit 2 * 3/4 - 1/2 = 1; two tasks (sum 1) fit, three not */
	t_check_int(sched_of(t, 3, 2, 0.75, 0, &r), 0);
	t_check_int(r.limit_bw, IL_DL_BW_ONE);
	t_check_int(r.schedulable, 0);
	t_check_int(sched_of(t, 2, 2, 0.75, 0, &r), 0);
	t_check_int(r.schedulable, 1);

	/*
	 * The Dhall case: 0.9 + 0.9 + 0.1 = 1.9 <= m = 2, yet GFB asks for
	 * <= 2 - 0.9 = 1.1: global EDF can miss here, so not schedulable.
	 */
	t[0] = dl("h1", 9 * MS, 10 * MS, 10 * MS, -1);
	t[1] = dl("h2", 9 * MS, 10 * MS, 10 * MS, -1);
	t[2] = dl("l", 1 * MS, 10 * MS, 10 * MS, -1);
	t_check_int(sched_of(t, 3, 2, 1.0, 0, &r), 0);
	t_check_int(r.schedulable, 0);

	/* m = 1: global EDF is EDF, the test is sum <= cap */
	t[0] = dl("a", 1 * MS, 4 * MS, 4 * MS, -1);
	t[1] = dl("b", 3 * MS, 4 * MS, 4 * MS, -1);
	t_check_int(sched_of(t, 2, 1, 1.0, 0, &r), 0);
	t_check_int(r.schedulable, 1);
	t_check_int(r.limit_bw, IL_DL_BW_ONE);

	/*
	 * Density, not utilization: 2 ms within 4 ms every 10 ms is 1/2,
	 * not 1/5.  With a 3/4-dense partner on one CPU: 5/4 > 1.
	 */
	t[0] = dl("dense", 2 * MS, 4 * MS, 10 * MS, -1);
	t[1] = dl("b", 3 * MS, 4 * MS, 4 * MS, -1);
	t_check_int(sched_of(t, 2, 1, 1.0, 0, &r), 0);
	t_check_int(r.schedulable, 0);
	t_check_int(r.load_bw, IL_DL_BW_ONE / 2 + 3 * (IL_DL_BW_ONE / 4));

	/*
	 * The `basic` scenario: 3/10 + 4/12 + 5/15 + 2/8 = 1.2167 on two
	 * CPUs with cap 0.95: limit 1.9 - 0.3333 = 1.5667.
	 */
	t[0] = dl("tauA", 3 * MS, 10 * MS, 10 * MS, -1);
	t[1] = dl("tauB", 4 * MS, 12 * MS, 12 * MS, -1);
	t[2] = dl("tauC", 5 * MS, 15 * MS, 15 * MS, -1);
	t[3] = dl("tauD", 2 * MS, 8 * MS, 8 * MS, -1);
	t_check_int(sched_of(t, 4, 2, 0.95, 0, &r), 0);
	t_check_int(r.schedulable, 1);
	t_check_contains(r.desc, "1.217");
	t_check_contains(r.desc, "1.567");
	/* on one CPU it is over the cap */
	t_check_int(sched_of(t, 4, 1, 0.95, 0, &r), 0);
	t_check_int(r.schedulable, 0);

	/* a task without a reservation does not count */
	t[3] = dl("fifo", 0, 0, 0, -1);
	t_check_int(sched_of(t, 3, 1, 1.0, 0, &r), 0);
	{
		uint64_t three = r.load_bw;

		t_check_int(sched_of(t, 4, 1, 1.0, 0, &r), 0);
		t_check_int(r.load_bw, three);
	}

	/* bad input */
	t[0] = dl("a", 5 * MS, 4 * MS, 10 * MS, -1);
	t_check_int(sched_of(t, 1, 2, 1.0, 0, &r), -EINVAL);
	t[0] = dl("a", 1 * MS, 11 * MS, 10 * MS, -1);
	t_check_int(sched_of(t, 1, 2, 1.0, 0, &r), -EINVAL);
	t[0] = dl("a", 1 * MS, 10 * MS, 10 * MS, -1);
	t_check_int(sched_of(t, 1, 0, 1.0, 0, &r), -EINVAL);
	t_check_int(sched_of(t, 1, 2, 0.0, 0, &r), -EINVAL);
	t_check_int(sched_of(t, 1, 2, 1.01, 0, &r), -EINVAL);
	/* period 0 is the deadline, as in sched_setattr() */
	t[0] = dl("a", 1 * MS, 2 * MS, 0, -1);
	t_check_int(sched_of(t, 1, 1, 1.0, 0, &r), 0);
	t_check_int(r.load_bw, IL_DL_BW_ONE / 2);
}

static void test_partitioned(void)
{
	struct il_mbwi_task t[4];
	struct il_dl_sched r;

	/* CPU 0: 1/4 + 3/4 = 1 <= cap 1; CPU 1: 1/2 */
	t[0] = dl("a", 1 * MS, 4 * MS, 4 * MS, 0);
	t[1] = dl("b", 3 * MS, 4 * MS, 4 * MS, 0);
	t[2] = dl("c", 5 * MS, 10 * MS, 10 * MS, 1);
	t_check_int(sched_of(t, 3, 2, 1.0, 1, &r), 0);
	t_check_int(r.test, IL_DL_PARTITIONED);
	t_check_int(r.schedulable, 1);
	t_check_int(r.cpu, 0);
	t_check_int(r.load_bw, IL_DL_BW_ONE);
	t_check_contains(r.desc, "partitioned EDF");
	/* one nanosecond more on CPU 0 breaks it, and CPU 0 decides */
	t[1].runtime_ns++;
	t_check_int(sched_of(t, 3, 2, 1.0, 1, &r), 0);
	t_check_int(r.schedulable, 0);
	t_check_int(r.cpu, 0);
	t_check_contains(r.desc, "CPU 0");
	t[1].runtime_ns--;
	/* the overloaded CPU decides, whichever task comes first */
	t[0].cpu = 1;
	t[2].cpu = 0;
	t[2].runtime_ns = 2 * MS; /* CPU 0: 3/4 + 1/5, CPU 1: 1/4 */
	t_check_int(sched_of(t, 3, 2, 1.0, 1, &r), 0);
	t_check_int(r.schedulable, 1);
	t_check_int(r.cpu, 0);
	t[2].runtime_ns = 5 * MS; /* CPU 0: 3/4 + 1/2 = 5/4 */
	t_check_int(sched_of(t, 3, 2, 1.0, 1, &r), 0);
	t_check_int(r.schedulable, 0);
	t_check_int(r.cpu, 0);
	t_check_int(r.load_bw, 5 * (IL_DL_BW_ONE / 4));
	t[0].cpu = 0;
	t[2].cpu = 1;
	/* the same three tasks on one CPU of a global set would not fit */
	t_check_int(sched_of(t, 3, 2, 1.0, 0, &r), 0);
	t_check_int(r.schedulable, 0);

	/*
	 * cap 0.95 with 0.5 + 0.45 on CPU 1: exactly on the boundary in
	 * real numbers, but neither 0.95 nor 0.45 is a multiple of 2^-32,
	 * and the rounding (density up, cap down) answers "no": the
	 * conservative side, by design.  0.5 + 0.4 fits.
	 */
	t[0] = dl("a", 5 * MS, 10 * MS, 10 * MS, 1);
	t[1] = dl("b", 45 * MS / 10, 10 * MS, 10 * MS, 1);
	t_check_int(sched_of(t, 2, 2, 0.95, 1, &r), 0);
	t_check_int(r.schedulable, 0);
	t[1].runtime_ns = 4 * MS;
	t_check_int(sched_of(t, 2, 2, 0.95, 1, &r), 0);
	t_check_int(r.schedulable, 1);
	t_check_int(r.cpu, 1);

	/* partitioned needs every reserved task on a valid CPU */
	t[1].cpu = -1;
	t_check_int(sched_of(t, 2, 2, 0.95, 1, &r), -EINVAL);
	t[1].cpu = 2;
	t_check_int(sched_of(t, 2, 2, 0.95, 1, &r), -EINVAL);
}

/* ------------------------------------------------------------------ */
/* Interference                                                        */
/* ------------------------------------------------------------------ */

/*
 * Example 1: tasks A, B, C, D; locks R1, R2.  A takes R1 for 2 ms; B
 * takes R1 for 1 ms and, separately, R2 for 1 ms; C takes R1 for 3 ms
 * and inside it R2 for 1 ms (its 3 ms include that); D takes nothing.
 *   Lhat_{C,R1} = 3 + Lhat_{B,R2} = 4 (C may wait for B inside R1)
 *   I_A = Lhat_{B,R1} + Lhat_{C,R1} = 1 + 4 = 5
 *   I_B = (Lhat_{A,R1} + Lhat_{C,R1}) + Lhat_{C,R2} = 6 + 1 = 7
 *   I_C = (Lhat_{A,R1} + Lhat_{B,R1}) + Lhat_{B,R2} = 3 + 1 = 4
 *   I_D = 0
 */
enum { R1, R2, NL1 };
static const unsigned ex1_N[4 * NL1] = {
	1, 0, /* A */
	1, 1, /* B */
	1, 1, /* C */
	0, 0, /* D */
};
static const uint64_t ex1_L[4 * NL1] = {
	2 * MS, 0,	/* A */
	1 * MS, 1 * MS, /* B */
	3 * MS, 1 * MS, /* C */
	0,	0,	/* D */
};
static unsigned char ex1_nest[4 * NL1 * NL1];

static void ex1_set(struct il_mbwi_set *s, struct il_mbwi_task *t)
{
	memset(ex1_nest, 0, sizeof(ex1_nest));
	/* C (task 2) requests R2 while holding R1 */
	ex1_nest[(2 * NL1 + R1) * NL1 + R2] = 1;
	memset(s, 0, sizeof(*s));
	s->tasks = t;
	s->ntasks = 4;
	s->nlocks = NL1;
	s->N = ex1_N;
	s->L = ex1_L;
	s->nest = ex1_nest;
	s->ncpus = 2;
	s->cap = 1.0;
	s->noise_ns = 500 * US;
	s->min_jobs = 50;
}

static void test_lhat_example1(void)
{
	struct il_mbwi_task t[4] = { 0 };
	struct il_mbwi_set s;
	uint64_t lhat[4 * NL1], I[4];

	ex1_set(&s, t);
	t_check_int(il_mbwi_lhat(&s, lhat), 0);
	t_check_int(lhat[0 * NL1 + R1], 2 * MS);
	t_check_int(lhat[1 * NL1 + R1], 1 * MS);
	t_check_int(lhat[1 * NL1 + R2], 1 * MS);
	t_check_int(lhat[2 * NL1 + R1], 4 * MS);
	t_check_int(lhat[2 * NL1 + R2], 1 * MS);
	t_check_int(lhat[3 * NL1 + R1], 0);
	t_check_int(il_mbwi_interference(&s, I), 0);
	t_check_int(I[0], 5 * MS);
	t_check_int(I[1], 7 * MS);
	t_check_int(I[2], 4 * MS);
	t_check_int(I[3], 0);

	/* without the nesting C's section is its own 3 ms: I_A = 4 */
	s.nest = NULL;
	t_check_int(il_mbwi_interference(&s, I), 0);
	t_check_int(I[0], 4 * MS);
	t_check_int(I[1], 6 * MS);
}

/*
 * Example 2, three levels and N > 1: locks X, Y, Z.
 *   P: X for 5 ms, inside it Y for 2 ms      (nests Y in X)
 *   Q: Y for 3 ms, inside it Z for 1 ms      (nests Z in Y)
 *   S: Z for 4 ms
 *   T: X for 1 ms, twice per job
 *   Lhat_{S,Z} = 4, Lhat_{Q,Z} = 1, Lhat_{P,Y} = 2, Lhat_{T,X} = 1
 *   Lhat_{Q,Y} = 3 + Lhat_{S,Z} = 7
 *   Lhat_{P,X} = 5 + Lhat_{Q,Y} = 12  (two levels down, through Q)
 *   I_P = Lhat_{T,X} + Lhat_{Q,Y} = 1 + 7 = 8
 *   I_Q = Lhat_{P,Y} + Lhat_{S,Z} = 2 + 4 = 6
 *   I_S = Lhat_{Q,Z} = 1
 *   I_T = 2 * Lhat_{P,X} = 24
 */
enum { X, Y, Z, NL2 };
static const unsigned ex2_N[4 * NL2] = {
	1, 1, 0, /* P */
	0, 1, 1, /* Q */
	0, 0, 1, /* S */
	2, 0, 0, /* T */
};
static const uint64_t ex2_L[4 * NL2] = {
	5 * MS, 2 * MS, 0,	/* P */
	0,	3 * MS, 1 * MS, /* Q */
	0,	0,	4 * MS, /* S */
	1 * MS, 0,	0,	/* T */
};

static void test_lhat_example2(void)
{
	unsigned char nest[4 * NL2 * NL2] = { 0 };
	struct il_mbwi_task t[4] = { 0 };
	struct il_mbwi_set s = { .tasks = t,
				 .ntasks = 4,
				 .nlocks = NL2,
				 .N = ex2_N,
				 .L = ex2_L,
				 .nest = nest };
	uint64_t lhat[4 * NL2], I[4];

	nest[(0 * NL2 + X) * NL2 + Y] = 1;
	nest[(1 * NL2 + Y) * NL2 + Z] = 1;
	t_check_int(il_mbwi_lhat(&s, lhat), 0);
	t_check_int(lhat[2 * NL2 + Z], 4 * MS);
	t_check_int(lhat[1 * NL2 + Z], 1 * MS);
	t_check_int(lhat[0 * NL2 + Y], 2 * MS);
	t_check_int(lhat[3 * NL2 + X], 1 * MS);
	t_check_int(lhat[1 * NL2 + Y], 7 * MS);
	t_check_int(lhat[0 * NL2 + X], 12 * MS);
	t_check_int(il_mbwi_interference(&s, I), 0);
	t_check_int(I[0], 8 * MS);
	t_check_int(I[1], 6 * MS);
	t_check_int(I[2], 1 * MS);
	t_check_int(I[3], 24 * MS);

	/*
	 * Q also nests X in Y: P holds X and waits for Y, Q holds Y and
	 * waits for X.  A deadlock has no bound.
	 */
	nest[(1 * NL2 + Y) * NL2 + X] = 1;
	{
		unsigned N2[4 * NL2];

		memcpy(N2, ex2_N, sizeof(N2));
		N2[1 * NL2 + X] = 1;
		s.N = N2;
		t_check_int(il_mbwi_lhat(&s, lhat), -ELOOP);
		t_check_int(il_mbwi_interference(&s, I), -ELOOP);
		s.N = ex2_N;
	}
	nest[(1 * NL2 + Y) * NL2 + X] = 0;

	/*
	 * One task nesting both ways (X in Y in one phase, Y in X in
	 * another) cannot deadlock with itself: no loop as long as no
	 * other task nests the other way round.
	 */
	nest[(0 * NL2 + Y) * NL2 + X] = 1;
	t_check_int(il_mbwi_lhat(&s, lhat), 0);
	/* Lhat_{P,Y} = 2 + Lhat_{T,X} = 3 */
	t_check_int(lhat[0 * NL2 + Y], 3 * MS);

	/* overflow is an error, not a wrap */
	{
		uint64_t L2[4 * NL2];

		memcpy(L2, ex2_L, sizeof(L2));
		L2[3 * NL2 + X] = UINT64_MAX / 2;
		L2[0 * NL2 + X] = UINT64_MAX / 2;
		s.L = L2;
		t_check_int(il_mbwi_lhat(&s, lhat), 0);
		t_check_int(il_mbwi_interference(&s, I), -ERANGE);
		s.L = ex2_L;
	}
	s.N = NULL;
	t_check_int(il_mbwi_lhat(&s, lhat), -EINVAL);
}

static void test_tainted(void)
{
	/* A-R1-B, B-R2-C, D alone */
	static const unsigned N[4 * 2] = { 1, 0, 1, 1, 0, 1, 0, 0 };
	static const uint64_t L[4 * 2] = { MS, 0, MS, MS, 0, MS, 0, 0 };
	struct il_mbwi_task t[4] = { 0 };
	struct il_mbwi_set s = { .tasks = t,
				 .ntasks = 4,
				 .nlocks = 2,
				 .N = N,
				 .L = L,
				 .noise_ns = 100 * US };
	size_t who = 99;

	t_check_int(il_mbwi_tainted(&s, 0, &who), 0);
	t[2].misbehaves = 1;
	/* A reaches C through B */
	t_check_int(il_mbwi_tainted(&s, 0, &who), 1);
	t_check_int(who, 2);
	t_check_int(il_mbwi_tainted(&s, 2, &who), 1);
	t_check_int(who, 2);
	t_check_int(il_mbwi_tainted(&s, 3, &who), 0);
	t_check_int(il_mbwi_tainted(&s, 4, &who), -EINVAL);

	/*
	 * Measured overrun of a job: A's C is 1 ms and I_A = L_{B,R1} = 1 ms
	 * (A may spin on B for that long), so up to C + I + noise = 2.1 ms
	 * of CPU is within the analysis, and 2.2 ms is not.
	 */
	t[2].misbehaves = 0;
	t[0].wcet_ns = 1 * MS;
	t[0].cpu_max_ns = 2 * MS + 100 * US;
	t_check_int(il_mbwi_tainted(&s, 2, NULL), 0);
	t[0].cpu_max_ns = 2 * MS + 200 * US;
	t_check_int(il_mbwi_tainted(&s, 2, &who), 1);
	t_check_int(who, 0);
	t[0].cpu_max_ns = 0;

	/* measured overrun of a section: B held R2 for 1.2 ms, L is 1 ms */
	{
		uint64_t hold[4 * 2] = { 0 };

		hold[0 * 2 + 0] = MS;
		hold[1 * 2 + 0] = MS;
		hold[1 * 2 + 1] = MS + 100 * US; /* within noise */
		hold[2 * 2 + 1] = MS;
		s.hold_max = hold;
		t_check_int(il_mbwi_tainted(&s, 0, NULL), 0);
		hold[1 * 2 + 1] = MS + 200 * US;
		t_check_int(il_mbwi_tainted(&s, 0, &who), 1);
		t_check_int(who, 1);
		/* a lock B does not use is not B's section */
		hold[1 * 2 + 1] = MS;
		hold[3 * 2 + 0] = 50 * MS;
		t_check_int(il_mbwi_tainted(&s, 3, NULL), 0);
		s.hold_max = NULL;
	}
}

/* ------------------------------------------------------------------ */
/* Isolation                                                           */
/* ------------------------------------------------------------------ */

/*
 * The `basic` scenario as the engine would report it: A, B, C share R1
 * (C nests R2), D shares nothing.  A is declared to misbehave (it
 * overruns its section).  Every task ran 200 jobs without a miss.
 */
static void basic_set(struct il_mbwi_set *s, struct il_mbwi_task *t)
{
	t[0] = dl("tauA", 3 * MS, 10 * MS, 10 * MS, -1);
	t[1] = dl("tauB", 4 * MS, 12 * MS, 12 * MS, -1);
	t[2] = dl("tauC", 5 * MS, 15 * MS, 15 * MS, -1);
	t[3] = dl("tauD", 2 * MS, 8 * MS, 8 * MS, -1);
	t[0].wcet_ns = 2500 * US;
	t[1].wcet_ns = 1500 * US;
	t[2].wcet_ns = 2 * MS;
	t[3].wcet_ns = 1500 * US;
	for (int i = 0; i < 4; i++) {
		t[i].jobs = 200;
		t[i].worst_response_ns = t[i].deadline_ns - 1 * MS;
	}
	t[3].worst_response_ns = 7 * MS; /* least slack of all: 1 ms */
	t[1].worst_response_ns = 5 * MS;
	ex1_set(s, t);
	s->cap = 0.95;
	s->min_jobs = 100;
	t[0].misbehaves = 1;
}

static void test_isolation(void)
{
	struct il_mbwi_task_verdict v[4];
	struct il_mbwi_task t[4];
	struct il_mbwi_set s;
	struct il_check ck;

	/* PASS: D, the only isolated task, met every deadline */
	basic_set(&s, t);
	t_check_int(il_check_isolation(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_PASS);
	t_check_str(ck.bound_name, "temporal isolation (M-BWI)");
	t_check_int(ck.bound_ns, 8 * MS);
	t_check_int(ck.worst_ns, 7 * MS);
	t_check_int(ck.by_trace, 0);
	t_check_contains(ck.evidence, "judged tauD: no miss;");
	t_check_contains(ck.evidence, "global EDF (GFB)");
	t_check_contains(ck.evidence, "misbehaving tauA");
	t_check_int(v[3].judged, 1);
	t_check_int(v[3].verdict, IL_PASS);
	/* B reaches A through R1; C through R1 too */
	t_check_int(v[1].judged, 0);
	t_check_contains(v[1].why, "misbehaving tauA");
	t_check_int(v[0].judged, 0);
	t_check_contains(v[0].why, "misbehaves itself");

	/* the tasks that share a lock with A may miss: not a FAIL */
	t[1].misses = t[1].late_misses = 7;
	t[1].worst_response_ns = 20 * MS;
	t_check_int(il_check_isolation(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_PASS);
	t_check_contains(ck.evidence, "not judged: tauB, 7 misses");

	/* negative control: the isolated probe misses by 3 ms -> FAIL */
	t[3].misses = t[3].late_misses = 3;
	t[3].worst_response_ns = 11 * MS;
	t_check_int(il_check_isolation(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check_int(ck.bound_ns, 8 * MS);
	t_check_int(ck.worst_ns, 11 * MS);
	t_check_contains(ck.evidence, "tauD: 3 of 200 jobs missed");
	t_check_contains(ck.evidence, "3.00ms late");
	t_check_contains(ck.evidence, "shares no lock");
	t_check_contains(ck.evidence, "GFB");
	t_check_int(v[3].verdict, IL_FAIL);
	t_check(strstr(ck.evidence, "charged") == NULL);
	/* the same misses, 2 after the kernel charged the probe's sleep
	 * to its reservation: still the kernel's FAIL, the cause named */
	t[3].late_charged = 2;
	t_check_int(il_check_isolation(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check_contains(ck.evidence,
			 "3.00ms late (> 500us noise), 2 after the kernel "
			 "charged its sleep to its reservation");
	t[3].late_charged = 0;

	/*
	 * The same misses when the set is not hard-schedulable (one CPU:
	 * 1.217 > 0.95): isolation was never promised -> UNDECIDED.
	 */
	s.ncpus = 1;
	t_check_int(il_check_isolation(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check_contains(ck.evidence, "isolation not guaranteed: global EDF "
				      "(GFB) fails");
	t_check_int(v[3].judged, 0);
	/*
	 * Partitioned, with A and D crowding CPU 0: 0.3 + 6/8 = 1.05 > 0.95
	 * (CPU 1 holds B and C, 0.667).
	 */
	s.ncpus = 2;
	s.partitioned = 1;
	t[0].cpu = 0;
	t[1].cpu = 1;
	t[2].cpu = 1;
	t[3].cpu = 0;
	t[3].runtime_ns = 6 * MS;
	t_check_int(il_check_isolation(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check_contains(ck.evidence, "partitioned EDF fails");
	t_check_contains(ck.evidence, "CPU 0");
	/* D back to 2 ms: 0.55 and 0.667 fit under 0.95 -> FAIL again */
	t[3].runtime_ns = 2 * MS;
	t_check_int(il_check_isolation(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check_contains(ck.evidence, "partitioned EDF");

	/* misses within the 500 us noise: UNDECIDED, not FAIL */
	basic_set(&s, t);
	t[3].misses = 2;
	t[3].worst_response_ns = 8 * MS + 300 * US;
	t_check_int(il_check_isolation(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check_contains(ck.evidence, "tauD: 2 of 200 jobs missed, none "
				      "beyond 500us noise and the time "
				      "measured around it");
	t_check_int(ck.by_trace, 0);
	/* the trace saw nothing of the kernel's in one of the two: still
	 * UNDECIDED */
	t[3].misses_kept = 1;
	t_check_int(il_check_isolation(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	/* in both: not the kernel's misses, PASS on the trace */
	t[3].misses_kept = 2;
	t_check_int(il_check_isolation(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_PASS);
	t_check_int(ck.by_trace, 1);
	t_check_int(v[3].by_trace, 1);
	t_check_contains(ck.evidence, "no miss the kernel made");
	t_check_contains(ck.evidence, "tauD: 2 of 200 jobs missed, each by "
				      "no more than 500us noise, the trace "
				      "showing nothing of the kernel's choice "
				      "in each");
	/* but not with too few jobs to judge */
	t[3].jobs = 99;
	t_check_int(il_check_isolation(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check_int(ck.by_trace, 0);
	t_check_contains(ck.evidence, "none beyond 500us noise");
	t[3].jobs = 100;
	t_check_int(il_check_isolation(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_PASS);
	/* one of them beyond noise: FAIL, whatever the trace kept */
	t[3].late_misses = 1;
	t[3].worst_response_ns = 9 * MS;
	t_check_int(il_check_isolation(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check_int(ck.by_trace, 0);

	/* too few jobs */
	basic_set(&s, t);
	t[3].jobs = 20;
	t_check_int(il_check_isolation(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check_contains(ck.evidence, "only 20 jobs (need 100)");

	/*
	 * A probe that needs more than its budget (C 2.5 ms > Q 2 ms) has
	 * no guarantee; with everything else tainted, nothing is judged.
	 */
	basic_set(&s, t);
	t[3].wcet_ns = 2500 * US;
	t[3].misses = t[3].late_misses = 50;
	t_check_int(il_check_isolation(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check_contains(ck.evidence, "no task is covered");
	t_check_contains(v[3].why, "> Q = 2.00ms");
	/* C unknown: not declared, not measured */
	t[3].wcet_ns = 0;
	t_check_int(il_check_isolation(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check_contains(v[3].why, "C unknown");
	/* ... but measured is enough: 1.9 ms of CPU fits, and it missed */
	t[3].cpu_max_ns = 1900 * US;
	t_check_int(il_check_isolation(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_FAIL);

	/* a probe without a reservation is not judged */
	basic_set(&s, t);
	t[3].runtime_ns = 0;
	t[3].misses = t[3].late_misses = 9;
	t_check_int(il_check_isolation(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check_contains(v[3].why, "no reservation");

	/*
	 * Nobody declared to misbehave, but A was measured holding R1 for
	 * 4 ms of CPU where Lhat_{A,R1} is 2 ms: it misbehaves all the same,
	 * and B's misses (B shares R1 with it) are no FAIL.
	 */
	basic_set(&s, t);
	t[0].misbehaves = 0;
	{
		uint64_t hold[4 * NL1] = { 0 };

		hold[0 * NL1 + R1] = 4 * MS; /* A: twice its L */
		hold[1 * NL1 + R1] = 1 * MS;
		hold[1 * NL1 + R2] = 1 * MS;
		hold[2 * NL1 + R1] = 4 * MS;
		hold[2 * NL1 + R2] = 1 * MS;
		/* C's 4 ms in R1 is its Lhat exactly: fine */
		s.hold_max = hold;
		t[1].misses = t[1].late_misses = 4;
		t[1].worst_response_ns = 15 * MS;
		t_check_int(il_check_isolation(&s, &ck, v), 0);
		t_check_int(ck.verdict, IL_PASS);
		t_check_int(v[1].judged, 0);
		t_check_contains(v[1].why, "misbehaving tauA");
		/*
		 * A within its 2 ms: C's 4 ms in R1 is over its L (3 ms)
		 * but within Lhat, which counts its wait for R2: nobody
		 * misbehaves and B is judged on its budget alone.
		 */
		hold[0] = 2 * MS;
		t_check_int(il_check_isolation(&s, &ck, v), 0);
		t_check_contains(v[1].why, "C + I");
		s.hold_max = NULL;
	}
	/*
	 * The job CPU time of A is held against C + I = 2.5 + 5 = 7.5 ms
	 * (+ 0.5 noise): 7.9 ms is a waiter that spun, 8.1 ms an overrun.
	 */
	t[0].cpu_max_ns = 7900 * US;
	t_check_int(il_check_isolation(&s, &ck, v), 0);
	t_check_int(v[1].judged, 0);
	t_check_contains(v[1].why, "C + I");
	t[0].cpu_max_ns = 8100 * US;
	t_check_int(il_check_isolation(&s, &ck, v), 0);
	t_check_contains(v[1].why, "misbehaving tauA");
	/* with A back within its C, B is isolated but needs C + I = 8.5 > 4 */
	t[0].cpu_max_ns = 2 * MS;
	t_check_int(il_check_isolation(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_PASS);
	t_check_int(v[1].judged, 0);
	t_check_int(v[1].interference_ns, 7 * MS);
	t_check_int(v[1].demand_ns, 8500 * US);
	t_check_contains(v[1].why, "C + I = 1.50ms + 7.00ms = 8.50ms > Q");

	t_check_int(il_check_isolation(NULL, &ck, v), -EINVAL);
	t_check_int(il_check_isolation(&s, NULL, v), -EINVAL);
}

/* ------------------------------------------------------------------ */
/* Interference verdicts                                               */
/* ------------------------------------------------------------------ */

/*
 * Example 1 with budgets: I = 5, 7, 4, 0 ms.
 *   A: Q 8,  C 2 -> 2 + 5 = 7  <= 8   covered
 *   B: Q 4,  C 2 -> 2 + 7 = 9  >  4   not covered
 *   C: Q 10, C 3 -> 3 + 4 = 7  <= 10  covered
 *   D: no lock                        left to the isolation check
 * Densities 8/20 + 4/20 + 10/40 + 2/10 = 1.05 <= 2 - 0.4 (m 2, cap 1).
 */
static void ex1_budgets(struct il_mbwi_set *s, struct il_mbwi_task *t)
{
	t[0] = dl("A", 8 * MS, 20 * MS, 20 * MS, -1);
	t[1] = dl("B", 4 * MS, 20 * MS, 20 * MS, -1);
	t[2] = dl("C", 10 * MS, 40 * MS, 40 * MS, -1);
	t[3] = dl("D", 2 * MS, 10 * MS, 10 * MS, -1);
	t[0].wcet_ns = 2 * MS;
	t[1].wcet_ns = 2 * MS;
	t[2].wcet_ns = 3 * MS;
	t[3].wcet_ns = 1 * MS;
	for (int i = 0; i < 4; i++) {
		t[i].jobs = 500;
		t[i].worst_response_ns = t[i].deadline_ns / 2;
	}
	ex1_set(s, t);
}

static void test_interference(void)
{
	struct il_mbwi_task_verdict v[4];
	struct il_mbwi_task t[4];
	struct il_mbwi_set s;
	struct il_check ck;

	ex1_budgets(&s, t);
	t_check_int(il_check_interference(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_PASS);
	t_check_str(ck.bound_name, "M-BWI interference (Q >= C + I)");
	t_check_contains(ck.evidence, "judged A, C");
	t_check_int(v[0].judged, 1);
	t_check_int(v[0].interference_ns, 5 * MS);
	t_check_int(v[0].demand_ns, 7 * MS);
	t_check_int(v[1].judged, 0);
	t_check_contains(v[1].why, "9.00ms > Q = 4.00ms");
	t_check_int(v[2].judged, 1);
	t_check_int(v[2].demand_ns, 7 * MS);
	t_check_int(v[3].judged, 0);
	t_check_contains(v[3].why, "uses no lock");
	/* least slack: A (10 ms left of 20) vs C (20 of 40): A */
	t_check_int(ck.bound_ns, 20 * MS);
	t_check_int(ck.worst_ns, 10 * MS);

	/* B is not covered: its misses are reported, never a FAIL */
	t[1].misses = t[1].late_misses = 12;
	t_check_int(il_check_interference(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_PASS);
	t_check_contains(ck.evidence, "not judged: B, 12 misses");

	/* negative control: covered A misses by 2 ms -> FAIL */
	t[0].misses = t[0].late_misses = 4;
	t[0].worst_response_ns = 22 * MS;
	t_check_int(il_check_interference(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check_int(ck.bound_ns, 20 * MS);
	t_check_int(ck.worst_ns, 22 * MS);
	t_check_contains(ck.evidence, "A: 4 of 500 jobs missed");
	t_check_contains(ck.evidence, "Q 8.00ms >= C 2.00ms + I 5.00ms");

	/* Q exactly C + I = 7 ms: still covered, still FAIL */
	t[0].runtime_ns = 7 * MS;
	t_check_int(il_check_interference(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_FAIL);
	/* 1 ns less: the guarantee no longer applies to A; C passes */
	t[0].runtime_ns = 7 * MS - 1;
	t_check_int(il_check_interference(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_PASS);
	t_check_int(v[0].judged, 0);
	t_check_contains(ck.evidence, "not judged: A, 4 misses");
	t[0].runtime_ns = 8 * MS;

	/* the partner C misbehaves: A's bound is void, its misses no FAIL */
	t[2].misbehaves = 1;
	t_check_int(il_check_interference(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check_contains(ck.evidence, "no task is covered");
	t_check_contains(v[0].why, "misbehaving C");
	t[2].misbehaves = 0;

	/* misses within noise */
	t[0].late_misses = 0;
	t[0].worst_response_ns = 20 * MS + 100 * US;
	t_check_int(il_check_interference(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check_contains(ck.evidence, "none beyond 500us noise");

	/* not hard-schedulable: one CPU holds 1.05 > 1 */
	t[0].late_misses = 4;
	s.ncpus = 1;
	t_check_int(il_check_interference(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check_contains(ck.evidence, "the guarantee does not apply: global "
				      "EDF (GFB) fails");
	s.ncpus = 2;

	/* a lock-order cycle has no bound at all: an error, not a verdict */
	{
		unsigned char nest[4 * NL1 * NL1] = { 0 };

		nest[(2 * NL1 + R1) * NL1 + R2] = 1;
		nest[(1 * NL1 + R2) * NL1 + R1] = 1;
		s.nest = nest;
		t_check_int(il_check_interference(&s, &ck, v), -ELOOP);
		s.nest = ex1_nest;
	}
}

static void test_misses_from_hist(void)
{
	static struct il_hist h;
	uint64_t m = 0, late = 0, worst = 0;

	il_hist_init(&h);
	/* D 10 ms, noise 1 ms */
	il_hist_record(&h, 9 * MS);		/* met */
	il_hist_record(&h, 10 * MS + 500 * US); /* missed, within noise */
	il_hist_record(&h, 12 * MS);		/* missed */
	il_hist_record(&h, 20 * MS);		/* missed */
	il_mbwi_misses_from_hist(&h, 10 * MS, 1 * MS, &m, &late, &worst);
	t_check_int(m, 3);
	t_check_int(late, 2);
	t_check_int(worst, 20 * MS);
	/* a bucket that straddles the limit is not counted as surely late */
	il_hist_init(&h);
	il_hist_record(&h, 11 * MS + 1);
	il_mbwi_misses_from_hist(&h, 10 * MS, 1 * MS, &m, &late, NULL);
	t_check_int(m, 1);
	t_check_int(late, 0);
	il_hist_init(&h);
	il_mbwi_misses_from_hist(&h, 10 * MS, 0, &m, &late, &worst);
	t_check_int(m, 0);
	t_check_int(worst, 0);
}

/* a check that cannot run leaves no verdict, whatever out held */
static void test_fails_closed(void)
{
	struct il_bw_input bw = { .runtime_ns = 1000, .period_ns = 2000 };
	struct il_check c;

	memset(&c, 0, sizeof(c));
	c.verdict = IL_PASS;
	t_check_int(il_check_bandwidth(&bw, NULL, 3, &c, NULL), -EINVAL);
	t_check_int(c.verdict, IL_NONE);
	t_check_contains(c.evidence, "no verdict: bandwidth check");
	c.verdict = IL_PASS;
	t_check_int(il_check_isolation(NULL, &c, NULL), -EINVAL);
	t_check_int(c.verdict, IL_NONE);
	c.verdict = IL_PASS;
	t_check_int(il_check_interference(NULL, &c, NULL), -EINVAL);
	t_check_int(c.verdict, IL_NONE);
	t_check_contains(c.evidence, "no verdict: interference check");
}

static void test_mut_window_edges(void);
static void test_mut_bandwidth_edges(void);
static void test_mut_set_limits(void);
static void test_mut_density_edges(void);
static void test_mut_partitioned_ties(void);
static void test_mut_taint_edges(void);
static void test_mut_deciders(void);
static void test_mut_not_judged_list(void);
static void test_mut_hist_edges(void);

int main(void)
{
	test_fails_closed();
	test_worst_window();
	test_worst_window_brute();
	test_check_bandwidth();
	test_gfb();
	test_partitioned();
	test_lhat_example1();
	test_lhat_example2();
	test_tainted();
	test_isolation();
	test_interference();
	test_misses_from_hist();
	test_mut_window_edges();
	test_mut_bandwidth_edges();
	test_mut_set_limits();
	test_mut_density_edges();
	test_mut_partitioned_ties();
	test_mut_taint_edges();
	test_mut_deciders();
	test_mut_not_judged_list();
	test_mut_hist_edges();
	return t_done("validate-mbwi");
}

/*
 * Boundary cases, each on both sides of one comparison of mbwi.c: a
 * check that moved a threshold by one or swapped && and ||
 * (tests/mutate.py) gets one of them wrong.
 */

static void test_mut_window_edges(void)
{
	const uint64_t top[] = { INT64_MAX };
	/* excess 0, then +1: a window of zero sum is not extended */
	const uint64_t z[] = { 3 * MS, 4 * MS };
	struct il_bw_window w;

	/* INT64_MAX itself is in range, as consumption and as budget */
	t_check_int(il_bw_worst_window(top, 1, 0, &w), 0);
	t_check_int(w.excess_ns, INT64_MAX);
	t_check_int(w.consumed_ns, INT64_MAX);
	t_check_int(il_bw_worst_window(top, 1, INT64_MAX, &w), 0);
	t_check_int(w.excess_ns, 0);
	t_check_int(w.consumed_ns, INT64_MAX);
	t_check_int(il_bw_worst_window(top, 1, (uint64_t)INT64_MAX + 1, &w),
		    -ERANGE);

	t_check_int(il_bw_worst_window(z, 2, 3 * MS, &w), 0);
	t_check_int(w.first, 1);
	t_check_int(w.count, 1);
	t_check_int(w.excess_ns, 1 * MS);
}

/* Q 3 ms, tick 4 ms, noise 200 us: PASS up to Q + tick, UNDECIDED up to
 * Q + tick + noise, FAIL past it */
static void test_mut_bandwidth_edges(void)
{
	struct il_bw_input in = {
		.task = "srv",
		.runtime_ns = 3 * MS,
		.period_ns = 10 * MS,
		.tick_ns = 4 * MS,
		.noise_ns = 200 * US,
		.min_periods = 10,
	};
	uint64_t c[10];
	struct il_check ck;

	for (size_t k = 0; k < ARRAY_SIZE(c); k++)
		c[k] = 2 * MS;
	c[3] = 7 * MS;
	t_check_int(il_check_bandwidth(&in, c, 10, &ck, NULL), 0);
	t_check_int(ck.verdict, IL_PASS);
	c[3] = 7 * MS + 1;
	t_check_int(il_check_bandwidth(&in, c, 10, &ck, NULL), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	c[3] = 7 * MS + 200 * US;
	t_check_int(il_check_bandwidth(&in, c, 10, &ck, NULL), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	c[3] = 7 * MS + 200 * US + 1;
	t_check_int(il_check_bandwidth(&in, c, 10, &ck, NULL), 0);
	t_check_int(ck.verdict, IL_FAIL);
	c[3] = 2 * MS;

	/* min_periods periods are enough, one fewer is not */
	t_check_int(il_check_bandwidth(&in, c, 10, &ck, NULL), 0);
	t_check_int(ck.verdict, IL_PASS);
	t_check_int(il_check_bandwidth(&in, c, 9, &ck, NULL), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);

	t_check_int(il_check_bandwidth(&in, c, 10, NULL, NULL), -EINVAL);
	/* n * Q + tick past 64 bits is an error, not a wrapped bound */
	in.tick_ns = UINT64_MAX;
	t_check_int(il_check_bandwidth(&in, c, 10, &ck, NULL), -ERANGE);
}

static void test_mut_set_limits(void)
{
	static struct il_mbwi_task t[IL_MBWI_MAX_TASKS + 1];
	static unsigned N[IL_MBWI_MAX_LOCKS + 1];
	static uint64_t L[IL_MBWI_MAX_LOCKS + 1];
	uint64_t lhat[IL_MBWI_MAX_LOCKS + 1], I[4];
	struct il_mbwi_set s = { .tasks = t, .ncpus = 64, .cap = 1.0 };
	struct il_dl_sched r;
	size_t who = 77;

	for (size_t i = 0; i < ARRAY_SIZE(t); i++)
		t[i] = dl("t", 1 * MS, 100 * MS, 100 * MS, -1);
	/* as many tasks as allowed, and one more */
	s.ntasks = IL_MBWI_MAX_TASKS;
	t_check_int(il_dl_schedulable(&s, &r), 0);
	t_check_int(r.load_bw, IL_MBWI_MAX_TASKS * (IL_DL_BW_ONE / 100 + 1));
	s.ntasks = IL_MBWI_MAX_TASKS + 1;
	t_check_int(il_dl_schedulable(&s, &r), -EINVAL);
	s.ntasks = 1;
	t_check_int(il_dl_schedulable(&s, NULL), -EINVAL);

	/* as many locks as allowed, and one more */
	for (size_t l = 0; l < ARRAY_SIZE(N); l++)
		N[l] = 1, L[l] = 1 * MS;
	s.N = N;
	s.L = L;
	s.nlocks = IL_MBWI_MAX_LOCKS;
	t_check_int(il_mbwi_lhat(&s, lhat), 0);
	t_check_int(lhat[IL_MBWI_MAX_LOCKS - 1], 1 * MS);
	s.nlocks = IL_MBWI_MAX_LOCKS + 1;
	t_check_int(il_mbwi_lhat(&s, lhat), -EINVAL);
	/* locks need both N and L */
	s.nlocks = 1;
	s.L = NULL;
	t_check_int(il_mbwi_lhat(&s, lhat), -EINVAL);
	s.L = L;
	s.N = NULL;
	t_check_int(il_mbwi_lhat(&s, lhat), -EINVAL);
	/* no locks: nothing to write, so no array needed */
	s.nlocks = 0;
	s.ntasks = 2;
	t_check_int(il_mbwi_lhat(&s, NULL), 0);
	t_check_int(il_mbwi_interference(&s, I), 0);
	t_check_int(I[0], 0);
	t_check_int(il_mbwi_interference(&s, NULL), -EINVAL);
	t_check_int(il_mbwi_interference(NULL, I), -EINVAL);
	t_check_int(il_mbwi_tainted(NULL, 0, &who), -EINVAL);
	t_check_int(who, 77);
}

static void test_mut_density_edges(void)
{
	struct il_mbwi_task t[2];
	struct il_dl_sched r;

	/* runtime = deadline: density 1, valid */
	t[0] = dl("full", 10 * MS, 10 * MS, 10 * MS, -1);
	t_check_int(sched_of(t, 1, 1, 1.0, 0, &r), 0);
	t_check_int(r.load_bw, IL_DL_BW_ONE);
	t_check_int(r.schedulable, 1);
	/* a deadline shorter than the period decides the density */
	t[0] = dl("d", 1 * MS, 4 * MS, 8 * MS, -1);
	t_check_int(sched_of(t, 1, 1, 1.0, 0, &r), 0);
	t_check_int(r.load_bw, IL_DL_BW_ONE / 4);
	/* INT64_MAX is in range for runtime and period, one more is not */
	t[0] = dl("max", INT64_MAX, INT64_MAX, INT64_MAX, -1);
	t_check_int(sched_of(t, 1, 1, 1.0, 0, &r), 0);
	t_check(r.load_bw >= IL_DL_BW_ONE && r.load_bw <= IL_DL_BW_ONE + 4);
	/*
	 * 2^33 - 1 halves to d = 2^32 - 1 with q rounded up to 2^32: the
	 * density is a little over 1 (rounded up), never q << 32 wrapped
	 * to 0
	 */
	t[0] = dl("odd", (1ull << 33) - 1, (1ull << 33) - 1, (1ull << 33) - 1,
		  -1);
	t_check_int(sched_of(t, 1, 1, 1.0, 0, &r), 0);
	t_check(r.load_bw >= IL_DL_BW_ONE && r.load_bw <= IL_DL_BW_ONE + 4);
	t_check_int(r.schedulable, 0);
	t[0] = dl("p", 1 * MS, INT64_MAX, INT64_MAX, -1);
	t_check_int(sched_of(t, 1, 1, 1.0, 0, &r), 0);
	t[0] = dl("p", 1 * MS, INT64_MAX, (uint64_t)INT64_MAX + 1, -1);
	t_check_int(sched_of(t, 1, 1, 1.0, 0, &r), -ERANGE);
	t[0] = dl("q", (uint64_t)INT64_MAX + 1, UINT64_MAX, UINT64_MAX, -1);
	t_check_int(sched_of(t, 1, 1, 1.0, 0, &r), -ERANGE);
}

/* equal loads: the lower CPU decides, in either order; a lighter CPU
 * with a lower number never does */
static void test_mut_partitioned_ties(void)
{
	struct il_mbwi_task t[2];
	struct il_dl_sched r;

	t[0] = dl("a", 5 * MS, 10 * MS, 10 * MS, 0);
	t[1] = dl("b", 5 * MS, 10 * MS, 10 * MS, 1);
	t_check_int(sched_of(t, 2, 2, 1.0, 1, &r), 0);
	t_check_int(r.cpu, 0);
	t[0].cpu = 1;
	t[1].cpu = 0;
	t_check_int(sched_of(t, 2, 2, 1.0, 1, &r), 0);
	t_check_int(r.cpu, 0);

	t[0] = dl("heavy", 3 * MS, 4 * MS, 4 * MS, 1);
	t[1] = dl("light", 1 * MS, 4 * MS, 4 * MS, 0);
	t_check_int(sched_of(t, 2, 2, 1.0, 1, &r), 0);
	t_check_int(r.cpu, 1);
	t_check_int(r.load_bw, 3 * (IL_DL_BW_ONE / 4));
}

static void test_mut_taint_edges(void)
{
	/* A-R1-B, B-R2-C, D alone; E (task 4) has a section length for R2
	 * but never takes it */
	static const unsigned N[5 * 2] = { 1, 0, 1, 1, 0, 1, 0, 0, 0, 0 };
	static const uint64_t L[5 * 2] = { MS, 0, MS, MS, 0,
					   MS, 0, 0,  0,  50 * MS };
	unsigned char nest[5 * 2 * 2] = { 0 };
	struct il_mbwi_task t[5] = { 0 };
	struct il_mbwi_set s = { .tasks = t,
				 .ntasks = 5,
				 .nlocks = 2,
				 .N = N,
				 .L = L,
				 .noise_ns = 100 * US };
	uint64_t lhat[5 * 2];
	size_t who = 77;

	/* C-in-R1... B nests R2 in R1: Lhat_{B,R1} = 1 + Lhat_{C,R2} = 2,
	 * E's 50 ms for a lock it never takes counts for nothing */
	nest[(1 * 2 + 0) * 2 + 1] = 1;
	s.nest = nest;
	t_check_int(il_mbwi_lhat(&s, lhat), 0);
	t_check_int(lhat[1 * 2 + 0], 2 * MS);
	t_check_int(lhat[4 * 2 + 1], 0);
	s.nest = NULL;

	/* C unknown (0): a measured CPU time cannot overrun it */
	t[0].wcet_ns = 0;
	t[0].cpu_max_ns = 50 * MS;
	t_check_int(il_mbwi_tainted(&s, 0, &who), 0);
	t_check_int(who, 77);
	/* measured, not declared: nothing to compare with either */
	t[0].wcet_ns = 1 * MS;
	t[0].cpu_max_ns = 0;
	t_check_int(il_mbwi_tainted(&s, 0, &who), 0);
	t_check_int(who, 77);
	/* the culprit is optional */
	t[2].misbehaves = 1;
	t_check_int(il_mbwi_tainted(&s, 0, NULL), 1);
	t_check_int(il_mbwi_tainted(&s, 2, &who), 1);
	t_check_int(who, 2);
}

static void test_mut_deciders(void)
{
	struct il_mbwi_task_verdict v[4];
	struct il_mbwi_task t[4];
	struct il_mbwi_set s;
	struct il_check ck;

	/* min_jobs jobs are enough to PASS, one fewer is not */
	basic_set(&s, t);
	t[3].jobs = s.min_jobs;
	t_check_int(il_check_isolation(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_PASS);
	t[3].jobs = s.min_jobs - 1;
	t_check_int(il_check_isolation(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);

	/* the judged task with the least slack decides a PASS: C (5 of
	 * 40 left) over A (10 of 20); on a tie the first, A */
	ex1_budgets(&s, t);
	t[2].worst_response_ns = 35 * MS;
	t_check_int(il_check_interference(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_PASS);
	t_check_int(ck.bound_ns, 40 * MS);
	t_check_contains(ck.evidence, "least slack C");
	t[2].worst_response_ns = 30 * MS;
	t_check_int(il_check_interference(&s, &ck, v), 0);
	t_check_int(ck.bound_ns, 20 * MS);
	t_check_contains(ck.evidence, "least slack A");

	/* one failing task: no count of failed tasks */
	t[0].misses = t[0].late_misses = 4;
	t[0].worst_response_ns = 22 * MS;
	t_check_int(il_check_interference(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check(!strstr(ck.evidence, "tasks failed"));
	/* two, equally late (2 ms): the first decides, both counted */
	t[2].misses = t[2].late_misses = 1;
	t[2].worst_response_ns = 42 * MS;
	t_check_int(il_check_interference(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_FAIL);
	t_check_int(ck.bound_ns, 20 * MS);
	t_check(!strncmp(ck.evidence, "A: ", 3));
	t_check_contains(ck.evidence, "; 2 tasks failed");
	/* the later one decides */
	t[2].worst_response_ns = 42 * MS + 1;
	t_check_int(il_check_interference(&s, &ck, v), 0);
	t_check_int(ck.bound_ns, 40 * MS);
	t_check(!strncmp(ck.evidence, "C: ", 3));

	/* UNDECIDED lists the judged, undecided tasks only */
	ex1_budgets(&s, t);
	t[0].misses = 2;
	t[0].worst_response_ns = 20 * MS + 100 * US;
	t_check_int(il_check_interference(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_UNDECIDED);
	t_check_contains(ck.evidence, "no miss beyond noise, but A: 2 of 500");
	t_check(!strstr(ck.evidence, "; B: "));
	t_check(!strstr(ck.evidence, "; C: "));
	t_check(!strstr(ck.evidence, "; D: "));

	/* the schedulability test's numbers follow its name once */
	basic_set(&s, t);
	s.ncpus = 1;
	t_check_int(il_check_isolation(&s, &ck, v), 0);
	t_check_contains(ck.evidence, "(GFB) fails: density 1.217 > 1 x");
}

static size_t count_of(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* tasks left out are listed once each, those that missed first, and
 * neither judged tasks nor tasks without a reservation */
static void test_mut_not_judged_list(void)
{
	struct il_mbwi_task_verdict v[4];
	struct il_mbwi_task t[4];
	struct il_mbwi_set s;
	struct il_check ck;
	const char *a, *c;

	basic_set(&s, t);
	t[2].misses = t[2].late_misses = 3;
	t_check_int(il_check_isolation(&s, &ck, v), 0);
	t_check_int(ck.verdict, IL_PASS);
	a = strstr(ck.evidence, "not judged: tauA");
	c = strstr(ck.evidence, "not judged: tauC, 3 misses");
	t_check(a && c && c < a);
	t_check_int(count_of(ck.evidence, "not judged: tauA"), 1);
	t_check_int(count_of(ck.evidence, "not judged: tauB"), 1);
	t_check_int(count_of(ck.evidence, "not judged: tauC"), 1);
	t_check_int(count_of(ck.evidence, "not judged: tauD"), 0);

	/* without a reservation: not judged, and not listed */
	t[1].runtime_ns = 0;
	t[1].misses = 5;
	t_check_int(il_check_isolation(&s, &ck, v), 0);
	t_check_int(count_of(ck.evidence, "tauB"), 0);
}

/* a bucket that starts at the deadline (or the deadline + noise) holds
 * no value past it */
static void test_mut_hist_edges(void)
{
	static struct il_hist h;
	const uint64_t edge = il_hist_bucket_lo(il_hist_index(10 * MS));
	uint64_t m = 9, late = 9;

	il_hist_init(&h);
	il_hist_record(&h, edge);
	il_mbwi_misses_from_hist(&h, edge, 0, &m, &late, NULL);
	t_check_int(m, 0);
	t_check_int(late, 0);
	il_mbwi_misses_from_hist(&h, edge - 1, 0, &m, &late, NULL);
	t_check_int(m, 1);
	t_check_int(late, 1);
	il_mbwi_misses_from_hist(&h, edge - 1, 1, &m, &late, NULL);
	t_check_int(m, 1);
	t_check_int(late, 0);
}
