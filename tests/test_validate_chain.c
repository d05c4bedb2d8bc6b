// SPDX-License-Identifier: MIT
/*
 * Chain bounds on hand-computed cases and the chain check on synthetic
 * waits.  Every expected number below is worked out in the comment next
 * to it, and the samples sit between a wrong answer and the right one,
 * so an arithmetic slip (max instead of sum, interferers ignored or
 * counted twice, ceil as floor) changes a verdict or a value.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <invlab/chain.h>
#include <invlab/time.h>

#include "t_util.h"

#define MS	      IL_NSEC_PER_MSEC
#define US	      IL_NSEC_PER_USEC
#define N	      200
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static struct il_wait_sample s[N];

/* waits spread over [lo, lo + span), no hog time, a little foreign time */
static void fill(uint64_t seed, uint64_t lo, uint64_t span)
{
	for (int i = 0; i < N; i++) {
		s[i].delay_ns = lo + t_rand(&seed) % span;
		s[i].foreign_ns = t_rand(&seed) % (20 * US);
		s[i].lower_ns = 0;
		s[i].timed_out = 0;
	}
}

static void test_transitive(void)
{
	const struct il_chain_link d2[] = { { 3 * MS, 0 }, { 2 * MS, 1 } };
	const struct il_chain_link d3[] = { { 1 * MS, 0 },
					    { 4 * MS, 1 },
					    { 2 * MS, 0 } };
	const struct il_chain_link d5[] = { { 1 * MS, 0 },
					    { 2 * MS, 1 },
					    { 3 * MS, 2 },
					    { 4 * MS, 3 },
					    { 5 * MS, 0 } };
	const struct il_chain_link big[] = { { UINT64_MAX, 0 }, { 1, 0 } };
	uint64_t outer[5], b;

	/* 3 + 2; owner 0's section holds the 2 ms it waits for */
	t_check_int(il_chain_pi_bound(d2, 2, outer, &b), 0);
	t_check_int(b, 5 * MS);
	t_check_int(outer[0], 5 * MS);
	t_check_int(outer[1], 2 * MS);

	/* 1 + 4 + 2 = 7, not max 4; sections 7, 6, 2 */
	t_check_int(il_chain_pi_bound(d3, 3, outer, &b), 0);
	t_check_int(b, 7 * MS);
	t_check_int(outer[0], 7 * MS);
	t_check_int(outer[1], 6 * MS);
	t_check_int(outer[2], 2 * MS);

	/* 1 + 2 + 3 + 4 + 5 = 15; sections 15, 14, 12, 9, 5 */
	t_check_int(il_chain_pi_bound(d5, 5, outer, &b), 0);
	t_check_int(b, 15 * MS);
	t_check_int(outer[0], 15 * MS);
	t_check_int(outer[1], 14 * MS);
	t_check_int(outer[2], 12 * MS);
	t_check_int(outer[3], 9 * MS);
	t_check_int(outer[4], 5 * MS);
	/* the breakdown is optional */
	t_check_int(il_chain_pi_bound(d5, 5, NULL, &b), 0);
	t_check_int(b, 15 * MS);

	/* a chain starting at link 2 of d5 is its last three links */
	t_check_int(il_chain_pi_bound(d5 + 2, 3, NULL, &b), 0);
	t_check_int(b, 12 * MS);

	t_check_int(il_chain_pi_bound(d2, 0, NULL, &b), 0);
	t_check_int(b, 0);
	t_check_int(il_chain_pi_bound(big, 2, NULL, &b), -ERANGE);
	t_check_int(il_chain_pi_bound(NULL, 2, NULL, &b), -EINVAL);
	t_check_int(il_chain_pi_bound(d2, 2, NULL, NULL), -EINVAL);
}

static void test_remote_single(void)
{
	const struct il_interferer h1[] = { { 0, 60, 1 * MS, 5 * MS } };
	const struct il_interferer h2[] = { { 0, 60, 2 * MS, 5 * MS } };
	const struct il_interferer h3[] = { { 2, 99, 3 * MS, 7 * MS } };
	const struct il_interferer h4[] = { { 1, 51, 1 * MS, 4 * MS },
					    { 1, 70, 2 * MS, 10 * MS } };
	const struct il_interferer h5[] = { { 0, 60, 1 * MS, 10 * MS } };
	const struct il_interferer h6[] = { { 0, 60, 9 * MS, 10 * MS } };
	const int head = 50;
	uint64_t b = 0;

	/* 2 -> 2 + ceil(2/5)*1 = 3 -> 2 + ceil(3/5)*1 = 3 */
	t_check_int(il_remote_blocking_bound(2 * MS, 0, head, h1, 1, 0, &b), 0);
	t_check_int(b, 3 * MS);

	/* 4 -> 4 + 1*2 = 6 -> 4 + 2*2 = 8 -> 4 + ceil(8/5)*2 = 8 */
	t_check_int(il_remote_blocking_bound(4 * MS, 0, head, h2, 1, 0, &b), 0);
	t_check_int(b, 8 * MS);

	/* 10 -> 10 + 2*3 = 16 -> 10 + 3*3 = 19 -> 10 + ceil(19/7)*3 = 19 */
	t_check_int(il_remote_blocking_bound(10 * MS, 2, head, h3, 1, 0, &b),
		    0);
	t_check_int(b, 19 * MS);
	/* the same task on another CPU than the owner's does nothing */
	t_check_int(il_remote_blocking_bound(10 * MS, 1, head, h3, 1, 0, &b),
		    0);
	t_check_int(b, 10 * MS);

	/*
	 * Two interferers: 3 -> 3 + 1*1 + 1*2 = 6 -> 3 + 2*1 + 1*2 = 7
	 * -> 3 + ceil(7/4)*1 + ceil(7/10)*2 = 7
	 */
	t_check_int(il_remote_blocking_bound(3 * MS, 1, head, h4, 2, 0, &b), 0);
	t_check_int(b, 7 * MS);

	/* a ceiling, not a floor: 1 ns past a period costs a second job */
	t_check_int(il_remote_blocking_bound(9 * MS + 1, 0, head, h5, 1, 0, &b),
		    0);
	t_check_int(b, 11 * MS + 1);

	/*
	 * U = 0.9: b = 10 + 9k climbs one job a step until
	 * b = 100 = 10 + ceil(100/10)*9.  A horizon of exactly 100 ms
	 * holds it, 99 ms does not.
	 */
	t_check_int(
		il_remote_blocking_bound(10 * MS, 0, head, h6, 1, 100 * MS, &b),
		0);
	t_check_int(b, 100 * MS);
	b = 7;
	t_check_int(
		il_remote_blocking_bound(10 * MS, 0, head, h6, 1, 99 * MS, &b),
		-ERANGE);
	t_check_int(b, 7); /* untouched on failure */

	/* nothing counted: the owner's own work */
	t_check_int(il_remote_blocking_bound(2 * MS, 0, head, NULL, 0, 0, &b),
		    0);
	t_check_int(b, 2 * MS);
	t_check_int(il_remote_blocking_bound(0, 0, head, h1, 1, 0, &b), 0);
	t_check_int(b, 0);
	t_check_int(il_remote_blocking_bound(2 * MS, 0, head, h1, 1, 0, NULL),
		    -EINVAL);
}

static void test_divergence(void)
{
	/* U = 1 exactly: b(n+1) >= 4 + b(n), no fixed point */
	const struct il_interferer u1[] = { { 0, 60, 5 * MS, 5 * MS } };
	/* U = 3/5 + 2/5 = 1 from two tasks */
	const struct il_interferer u2[] = { { 0, 60, 3 * MS, 5 * MS },
					    { 0, 61, 2 * MS, 5 * MS } };
	/* U > 1, and a busy-loop hog (no period) */
	const struct il_interferer u3[] = { { 0, 60, 6 * MS, 5 * MS } };
	const struct il_interferer u4[] = { { 0, 99, 1, 0 } };
	/* 1/3 * 3 may round below 1.0 in double: still no bound */
	const struct il_interferer u5[] = { { 0, 60, 1, 3 },
					    { 0, 61, 1, 3 },
					    { 0, 62, 1, 3 } };
	const struct il_interferer u6[] = { { 0, 60, 999 * US, 1000 * US } };
	const struct il_chain_link l = { 4 * MS, 0 };
	struct il_chain_input in = {
		.links = &l,
		.nlinks = 1,
		.head_prio = 50,
		.ninterferers = 1,
	};
	struct il_chain_bound cb;
	const int head = 50;
	uint64_t b;

	t_check_int(il_remote_blocking_bound(4 * MS, 0, head, u1, 1, 0, &b),
		    -ERANGE);
	/* caught by the utilization test, not by running out of steps */
	in.interferers = u1;
	t_check_int(il_chain_bound(&in, &cb), -ERANGE);
	t_check_str(cb.desc, "work above priority 50 on owner CPUs 0 has "
			     "utilization 1.00 >= 1: the fixed point diverges");
	t_check_int(cb.iterations, 0);
	t_check_int(il_remote_blocking_bound(1 * MS, 0, head, u2, 2, 0, &b),
		    -ERANGE);
	t_check_int(il_remote_blocking_bound(1 * MS, 0, head, u3, 1, 0, &b),
		    -ERANGE);
	t_check_int(il_remote_blocking_bound(1 * MS, 0, head, u4, 1, 0, &b),
		    -ERANGE);
	t_check_int(il_remote_blocking_bound(1 * MS, 0, head, u5, 3, 0, &b),
		    -ERANGE);
	/* just below 1 still converges: 1 -> 1 + 999 = 1000 -> 1000 (us) */
	t_check_int(il_remote_blocking_bound(1 * US, 0, head, u6, 1, 0, &b), 0);
	t_check_int(b, 1000 * US);
}

static void test_priorities(void)
{
	const int head = 50;
	uint64_t b;

	/*
	 * Between the owner's priority and the head's (40, 50) and below
	 * (1): what inheritance defeats, even a busy loop.  Above the head
	 * but on another CPU: irrelevant.  Never running (C = 0): nothing.
	 */
	const struct il_interferer h[] = {
		{ 0, 40, 1 * MS, 0 },	   { 0, 1, 5 * MS, 5 * MS },
		{ 0, 49, 4 * MS, 5 * MS }, { 1, 99, 5 * MS, 5 * MS },
		{ 0, 90, 0, 0 },
	};
	t_check_int(il_remote_blocking_bound(2 * MS, 0, head, h, 5, 0, &b), 0);
	t_check_int(b, 2 * MS);
	/*
	 * At the head's own priority: not counted (the bound counts only
	 * strictly higher; il_chain_bound_applies() refuses the case)
	 */
	t_check_int(il_remote_blocking_bound(2 * MS, 0, 49, h + 2, 1, 0, &b),
		    0);
	t_check_int(b, 2 * MS);
	/* lower the head to 39 and the busy loop at 40 outranks it */
	t_check_int(il_remote_blocking_bound(2 * MS, 0, 39, h, 5, 0, &b),
		    -ERANGE);
	/* head at 48: the 49 task counts, 2 -> 2 + 4 = 6 -> 2 + 2*4 = 10
	 * -> 2 + 2*4 = 10; the 40 and 1 tasks still do not */
	t_check_int(il_remote_blocking_bound(2 * MS, 0, 48, h + 2, 1, 0, &b),
		    0);
	t_check_int(b, 10 * MS);
}

static void test_chain_bound(void)
{
	const struct il_chain_link l2[] = { { 2 * MS, 0 }, { 3 * MS, 1 } };
	const struct il_interferer h2[] = {
		{ 0, 60, 1 * MS, 10 * MS },
		{ 1, 70, 2 * MS, 20 * MS },
		{ 2, 90, 5 * MS, 6 * MS },
		{ 0, 30, 1 * MS, 0 },
	};
	const struct il_chain_link lj[] = { { 1 * MS, 0 }, { 200 * MS, 1 } };
	const struct il_interferer hj[] = { { 0, 60, 1 * MS, 100 * MS } };
	const struct il_chain_link ls[] = { { 1 * MS, 0 }, { 1 * MS, 0 } };
	const struct il_interferer hu[] = { { 0, 60, 6 * MS, 10 * MS },
					    { 1, 60, 6 * MS, 10 * MS } };
	const struct il_chain_link l3[] = {
		{ 1 * MS, 3 }, { 2 * MS, 1 }, { 1 * MS, 3 }, { 4 * MS, 0 }
	};
	const struct il_interferer h3[] = { { 3, 60, 1 * MS, 100 * MS } };
	const struct il_chain_link lneg[] = { { 1 * MS, -1 } };
	struct il_chain_input in = {
		.links = l2,
		.nlinks = 2,
		.head_prio = 50,
		.interferers = h2,
		.ninterferers = 4,
	};
	struct il_chain_bound cb;

	/*
	 * Two links on CPUs 0 and 1, own work 2 + 3 = 5.  Counted: 60 on
	 * CPU 0 (1 per 10), 70 on CPU 1 (2 per 20).  Not counted: 90 on
	 * CPU 2 (no owner there), 30 on CPU 0 (below the head).
	 *   5 -> 5 + 1 + 2 = 8 -> 5 + ceil(8/10)*1 + ceil(8/20)*2 = 8
	 */
	t_check_int(il_chain_bound(&in, &cb), 0);
	t_check_int(cb.bound_ns, 8 * MS);
	t_check_int(cb.own_ns, 5 * MS);
	t_check_int(cb.counted, 2);
	t_check(cb.util > 0.199 && cb.util < 0.201);
	t_check_str(cb.name, "remote blocking fixed point");
	t_check_contains(cb.desc,
			 "remote blocking fixed point, owner CPUs 0,1");
	t_check_contains(cb.desc, "2 links, 2 tasks above priority 50");

	/*
	 * Why joint: owner 0 (CPU 0) does 0.5 ms, waits for owner 1's
	 * 200 ms on CPU 1, then does 0.5 ms more; a CPU 0 task of 1 per
	 * 100 ms can hit both halves: 0.5 + 1 + 200 + 1 + 0.5 = 203 ms.
	 * Per link would say (1 + 1) + 200 = 202, too little.  Joint:
	 *   201 -> 201 + ceil(201/100)*1 = 204 -> 201 + 3 = 204
	 */
	in.links = lj;
	in.interferers = hj;
	in.ninterferers = 1;
	t_check_int(il_chain_bound(&in, &cb), 0);
	t_check_int(cb.bound_ns, 204 * MS);
	t_check(cb.bound_ns >= 203 * MS);

	/* two links on one CPU share its interferer: 2 + 1, not 2 + 2 */
	in.links = ls;
	t_check_int(il_chain_bound(&in, &cb), 0);
	t_check_int(cb.bound_ns, 3 * MS);
	t_check_contains(cb.desc, "owner CPUs 0 (");

	/*
	 * U 0.6 on each of two owner CPUs: the joint form charges 1.2 to
	 * the whole window and gives up (the documented price)
	 */
	in.links = l2;
	in.interferers = hu;
	in.ninterferers = 2;
	t_check_int(il_chain_bound(&in, &cb), -ERANGE);
	t_check_contains(cb.desc, "utilization 1.20 >= 1");
	t_check_contains(cb.desc, "owner CPUs 0,1");
	/* one of them alone: 5 -> 11 -> 5 + 2*6 = 17 -> 5 + 2*6 = 17 */
	in.ninterferers = 1;
	t_check_int(il_chain_bound(&in, &cb), 0);
	t_check_int(cb.bound_ns, 17 * MS);
	t_check_int(cb.iterations, 3);

	/* nothing above the head on an owner CPU: transitive inheritance */
	in.links = l3;
	in.nlinks = 4;
	in.interferers = h2 + 2;
	in.ninterferers = 2;
	t_check_int(il_chain_bound(&in, &cb), 0);
	t_check_int(cb.bound_ns, 8 * MS);
	t_check_str(cb.name, "transitive priority inheritance");
	t_check_str(cb.desc, "transitive priority inheritance, 4 links");
	/* owner CPUs listed ascending, each once: 8 -> 9 -> 9 */
	in.interferers = h3;
	in.ninterferers = 1;
	t_check_int(il_chain_bound(&in, &cb), 0);
	t_check_int(cb.bound_ns, 9 * MS);
	t_check_contains(cb.desc, "owner CPUs 0,1,3 (");

	/* bad input */
	in.links = lneg;
	in.nlinks = 1;
	t_check_int(il_chain_bound(&in, &cb), -EINVAL);
	t_check_int(il_chain_bound(NULL, &cb), -EINVAL);
	in.links = l3;
	t_check_int(il_chain_bound(&in, NULL), -EINVAL);
	in.links = NULL;
	t_check_int(il_chain_bound(&in, &cb), -EINVAL);
}

static void test_applies(void)
{
	char why[160];
	const struct il_chain_link l[] = { { 1 * MS, 0 }, { 1 * MS, 1 } };
	struct il_interferer h[] = { { 1, 50, 1 * MS, 10 * MS } };
	struct il_chain_input in = {
		.links = l,
		.nlinks = 2,
		.head_prio = 50,
		.interferers = h,
		.ninterferers = 1,
	};

	/* FIFO tie with the head on an owner CPU */
	t_check_int(il_chain_bound_applies(&in, why, sizeof(why)), 0);
	t_check_contains(why, "head's priority 50 runs on owner CPU 1");
	/* the same task on a CPU no owner uses is harmless */
	h[0].cpu = 2;
	t_check_int(il_chain_bound_applies(&in, why, sizeof(why)), 1);
	t_check_str(why, "");
	/* above the head, a busy loop: no bound */
	h[0] = (struct il_interferer){ 0, 51, 1 * MS, 0 };
	t_check_int(il_chain_bound_applies(&in, why, sizeof(why)), 0);
	t_check_contains(why, "never yields");
	/* bounded (2 -> 11 -> 2 + 2*9 = 20), but past the horizon */
	h[0] = (struct il_interferer){ 0, 51, 9 * MS, 10 * MS };
	in.horizon_ns = 15 * MS;
	t_check_int(il_chain_bound_applies(&in, why, sizeof(why)), 0);
	t_check_contains(why, "passed 15.0ms after 2 steps");
	in.horizon_ns = 20 * MS;
	t_check_int(il_chain_bound_applies(&in, why, sizeof(why)), 1);
	in.horizon_ns = 0;
	t_check_int(il_chain_bound_applies(&in, NULL, 0), 1);
	t_check_int(il_chain_bound_applies(NULL, why, sizeof(why)), -EINVAL);
}

static void test_check_transitive(void)
{
	/* 1 + 2 + 1 = 4 ms; the longest single section is 2 */
	const struct il_chain_link l[] = { { 1 * MS, 0 },
					   { 2 * MS, 1 },
					   { 1 * MS, 2 } };
	/* a hog below the head on every owner CPU: inheritance defeats it */
	const struct il_interferer h[] = { { 0, 10, 1 * MS, 0 },
					   { 1, 10, 1 * MS, 0 },
					   { 2, 10, 1 * MS, 0 } };
	struct il_chain_input in = {
		.links = l,
		.nlinks = 3,
		.head_prio = 50,
		.interferers = h,
		.ninterferers = 3,
		.noise_ns = 50 * US,
		.min_samples = 20,
	};
	struct il_check c;

	/* 3.5 .. 3.9 ms: over any one section, within the sum */
	fill(1, 3500 * US, 400 * US);
	t_check_int(il_check_chain(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_PASS);
	t_check_int(c.bound_ns, 4 * MS);
	t_check_str(c.bound_name, "transitive priority inheritance");
	t_check_contains(c.evidence,
			 "transitive priority inheritance, 3 links: 200 waits");

	/* the hog ran while the head waited: an inversion */
	for (int i = 0; i < N; i += 4) {
		s[i].delay_ns += 20 * MS;
		s[i].lower_ns = 20 * MS;
	}
	t_check_int(il_check_chain(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_FAIL);
	t_check_contains(c.evidence,
			 "transitive priority inheritance, 3 links");
	t_check_contains(c.evidence, "50 of 200 waits exceeded");
	t_check_contains(c.evidence, "lower-priority thread ran");

	/* the limit is exactly 4 ms + noise */
	fill(2, 3500 * US, 400 * US);
	s[0].delay_ns = 4 * MS + 50 * US;
	s[0].foreign_ns = 0;
	t_check_int(il_check_chain(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_PASS);
	s[0].delay_ns++;
	t_check_int(il_check_chain(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_FAIL);

	/* too few waits */
	fill(3, 3500 * US, 400 * US);
	t_check_int(il_check_chain(&in, s, 5, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
	t_check_contains(c.evidence, "only 5 waits");

	/* an allowance of half the 4 ms bound still discriminates; more
	 * does not: UNDECIDED, the bound named first */
	fill(4, 3500 * US, 400 * US);
	in.noise_ns = 2 * MS;
	t_check_int(il_check_chain(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_PASS);
	in.noise_ns = 2 * MS + 1;
	t_check_int(il_check_chain(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
	t_check_contains(c.evidence, "transitive priority inheritance, 3 "
				     "links: noise allowance");
	t_check_contains(c.evidence, "swamps the bound 4.00ms");
}

static void test_check_remote(void)
{
	/* the 8 ms case of test_chain_bound, plus a hog below the head */
	const struct il_chain_link l[] = { { 2 * MS, 0 }, { 3 * MS, 1 } };
	struct il_interferer h[] = {
		{ 0, 60, 1 * MS, 10 * MS },
		{ 1, 70, 2 * MS, 20 * MS },
		{ 1, 40, 1 * MS, 0 },
	};
	struct il_chain_input in = {
		.links = l,
		.nlinks = 2,
		.head_prio = 50,
		.interferers = h,
		.ninterferers = 3,
		.horizon_ns = 1000 * MS,
		.noise_ns = 50 * US,
		.min_samples = 20,
	};
	struct il_check c;

	/* 6.5 .. 7.9 ms: over the 5 ms of own work, within 8 */
	fill(4, 6500 * US, 1400 * US);
	t_check_int(il_check_chain(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_PASS);
	t_check_int(c.bound_ns, 8 * MS);
	t_check_str(c.bound_name, "remote blocking fixed point");
	t_check_contains(c.evidence,
			 "remote blocking fixed point, owner CPUs 0,1");
	s[0].delay_ns = 8 * MS + 50 * US + 1, s[0].foreign_ns = 0;
	t_check_int(il_check_chain(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_FAIL);

	/* the 40 hog on CPU 1 ran for 10 ms: inheritance did not work */
	fill(5, 6500 * US, 1400 * US);
	s[17].delay_ns += 10 * MS;
	s[17].lower_ns = 10 * MS;
	t_check_int(il_check_chain(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_FAIL);
	t_check_contains(c.evidence, "1 of 200 waits exceeded");
	t_check_contains(c.evidence, "lower-priority thread ran up to 10.0ms");

	/*
	 * The same hog at 60, above the head: the waits may be anything,
	 * even never ending, and that is no inversion.  UNDECIDED, never
	 * FAIL, and the evidence says why.
	 */
	h[2].prio = 60;
	s[3].timed_out = 1;
	t_check_int(il_check_chain(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
	t_check_contains(c.evidence, "bound does not apply: a task at "
				     "priority 60 on owner CPU 1");
	t_check(c.worst_ns >= 16400 * US);

	/* 0.1 + 0.1 + 0.9 above the head on the owner CPUs: diverges */
	h[2] = (struct il_interferer){ 0, 55, 9 * MS, 10 * MS };
	t_check_int(il_check_chain(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
	t_check_contains(c.evidence, "bound does not apply: work above "
				     "priority 50 on owner CPUs 0,1 has "
				     "utilization 1.10");

	/* a tie with the head */
	h[2] = (struct il_interferer){ 0, 50, 1 * MS, 10 * MS };
	t_check_int(il_check_chain(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
	t_check_contains(c.evidence, "bound does not apply: a task at the "
				     "head's priority");

	t_check_int(il_check_chain(NULL, s, N, &c), -EINVAL);
	t_check_int(il_check_chain(&in, NULL, 3, &c), -EINVAL);
	t_check_int(il_check_chain(&in, s, N, NULL), -EINVAL);
}

/* a check that cannot run leaves no verdict, whatever out held */
static void test_fails_closed(void)
{
	struct il_chain_link bad[] = { { 1000, -1 } };
	struct il_chain_input in = { .links = bad, .nlinks = 1 };
	struct il_wait_sample w = { 0 };
	struct il_check c;

	memset(&c, 0, sizeof(c));
	c.verdict = IL_PASS;
	t_check_int(il_check_chain(&in, &w, 1, &c), -EINVAL);
	t_check_int(c.verdict, IL_NONE);
	t_check_contains(c.evidence, "no verdict: chain check");
	c.verdict = IL_PASS;
	t_check_int(il_check_chain(NULL, &w, 1, &c), -EINVAL);
	t_check_int(c.verdict, IL_NONE);
	c.verdict = IL_PASS;
	bad[0].cpu = 0;
	t_check_int(il_check_chain(&in, NULL, 3, &c), -EINVAL);
	t_check_int(c.verdict, IL_NONE);
}

static void test_mut_why_buffer(void);
static void test_mut_overflow(void);
static void test_mut_step_limit(void);
static void test_mut_cpu_list(void);
static void test_mut_not_applies_fills_out(void);

int main(void)
{
	test_fails_closed();
	test_transitive();
	test_remote_single();
	test_divergence();
	test_priorities();
	test_chain_bound();
	test_applies();
	test_check_transitive();
	test_check_remote();
	test_mut_why_buffer();
	test_mut_overflow();
	test_mut_step_limit();
	test_mut_cpu_list();
	test_mut_not_applies_fills_out();
	return t_done("validate-chain");
}

/*
 * Boundary cases, each on both sides of one comparison of chain.c: a
 * check that moved a threshold by one or swapped && and ||
 * (tests/mutate.py) gets one of them wrong.
 */

/* why is written only when there is one, and never past len */
static void test_mut_why_buffer(void)
{
	const struct il_chain_link l[] = { { 1 * MS, 0 } };
	struct il_interferer h[] = { { 0, 50, 1 * MS, 10 * MS } };
	struct il_chain_input in = {
		.links = l,
		.nlinks = 1,
		.head_prio = 50,
		.interferers = h,
		.ninterferers = 1,
	};
	char why[4] = "xyz";

	/* a tie with the head, a busy loop above it, a bound */
	t_check_int(il_chain_bound_applies(&in, NULL, 16), 0);
	t_check_int(il_chain_bound_applies(&in, why, 0), 0);
	t_check_str(why, "xyz");
	h[0] = (struct il_interferer){ 0, 51, 1 * MS, 0 };
	t_check_int(il_chain_bound_applies(&in, NULL, 16), 0);
	t_check_int(il_chain_bound_applies(&in, why, 0), 0);
	t_check_str(why, "xyz");
	h[0] = (struct il_interferer){ 0, 51, 1 * MS, 10 * MS };
	t_check_int(il_chain_bound_applies(&in, NULL, 16), 1);
	t_check_int(il_chain_bound_applies(&in, why, 0), 1);
	t_check_str(why, "xyz");
}

/* a fixed point past 64 bits is -ERANGE, never a wrapped small bound */
static void test_mut_overflow(void)
{
	/* own + interference overflows on the first step */
	const struct il_chain_link big[] = { { UINT64_MAX / 10 * 9, 0 } };
	const struct il_interferer half[] = { { 0, 60, 1 * MS, 2 * MS } };
	/*
	 * The interference alone overflows: T = 3 * 2^62, own = T + 1, so
	 * each of two tasks of C = 0.35 T has 2 jobs in the window, 0.7 T
	 * each (fits), 1.4 T > 2^64 together.  Wrapped, the sum would be
	 * 0.05 * 2^64 and the "bound" a converging 0.8 * 2^64.
	 */
	const uint64_t T = 3ull << 62;
	const struct il_chain_link l[] = { { T + 1, 0 } };
	const struct il_interferer two[] = { { 0, 60, T / 20 * 7, T },
					     { 0, 61, T / 20 * 7, T } };
	struct il_chain_input in = {
		.links = big,
		.nlinks = 1,
		.head_prio = 50,
		.interferers = half,
		.ninterferers = 1,
	};
	struct il_chain_bound cb;

	t_check_int(il_chain_bound(&in, &cb), -ERANGE);
	t_check_contains(cb.desc, "does not fit 64 bits");
	t_check_int(cb.iterations, 0);
	in.links = l;
	in.interferers = two;
	in.ninterferers = 2;
	t_check_int(il_chain_bound(&in, &cb), -ERANGE);
	t_check_contains(cb.desc, "does not fit 64 bits");
	t_check_int(cb.iterations, 0);
}

/*
 * With C = T - 1 and own = K <= T the fixed point takes one job more on
 * each step and ends at K * T after exactly K + 1 steps: K + 1 =
 * IL_CHAIN_MAX_ITERATIONS still converges, one step more does not.
 */
static void test_mut_step_limit(void)
{
	const uint64_t T = 2 * IL_CHAIN_MAX_ITERATIONS;
	const uint64_t K = IL_CHAIN_MAX_ITERATIONS - 1;
	const struct il_interferer h[] = { { 0, 60, T - 1, T } };
	struct il_chain_link l[] = { { K, 0 } };
	const struct il_chain_input in = {
		.links = l,
		.nlinks = 1,
		.head_prio = 50,
		.interferers = h,
		.ninterferers = 1,
	};
	struct il_chain_bound cb;

	t_check_int(il_chain_bound(&in, &cb), 0);
	t_check_int(cb.bound_ns, K * T);
	t_check_int(cb.iterations, IL_CHAIN_MAX_ITERATIONS);
	l[0].own_ns = K + 1;
	t_check_int(il_chain_bound(&in, &cb), -ERANGE);
	t_check_int(cb.iterations, IL_CHAIN_MAX_ITERATIONS);
	t_check_contains(cb.desc, "after 1000000 steps");
}

/* owner CPUs that do not fit the list end it, never overrun it */
static void test_mut_cpu_list(void)
{
	struct il_chain_link l[30];
	const struct il_interferer h[] = { { 100, 60, 1 * MS, 100 * MS } };
	struct il_chain_input in = {
		.links = l,
		.nlinks = ARRAY_SIZE(l),
		.head_prio = 50,
		.interferers = h,
		.ninterferers = 1,
	};
	struct il_chain_bound cb;

	for (size_t k = 0; k < ARRAY_SIZE(l); k++)
		l[k] = (struct il_chain_link){ 1 * US, 100 + (int)k };
	/* "100,...,115" is 63 characters: the list's whole room */
	t_check_int(il_chain_bound(&in, &cb), 0);
	t_check_contains(cb.desc, "owner CPUs 100,101,102,");
	t_check_contains(cb.desc, ",114,115 (30 links");
	t_check(!strstr(cb.desc, "116"));
	t_check(!strstr(cb.desc, "129"));

	/*
	 * 400 CPUs, 2.4 KB of list: a loop that went on past the end would
	 * write far beyond the 64-byte buffer (and crash here)
	 */
	{
		static struct il_chain_link many[400];
		const struct il_interferer hm[] = { { 10000, 60, 1 * MS,
						      100 * MS } };

		for (size_t k = 0; k < ARRAY_SIZE(many); k++)
			many[k] = (struct il_chain_link){ 1 * US,
							  10000 + (int)k };
		in.links = many;
		in.nlinks = ARRAY_SIZE(many);
		in.interferers = hm;
		t_check_int(il_chain_bound(&in, &cb), 0);
		t_check_contains(cb.desc, "owner CPUs 10000,10001,");
		t_check_contains(cb.desc, "(400 links");
		t_check(!strstr(cb.desc, "10399"));
	}
}

/* where no bound applies, the check still writes its whole answer */
static void test_mut_not_applies_fills_out(void)
{
	const struct il_chain_link l[] = { { 1 * MS, 0 } };
	const struct il_interferer h[] = { { 0, 50, 1 * MS, 10 * MS } };
	const struct il_chain_input in = {
		.links = l,
		.nlinks = 1,
		.head_prio = 50,
		.interferers = h,
		.ninterferers = 1,
	};
	struct il_check c;

	fill(31, 500 * US, 100 * US);
	memset(&c, 0, sizeof(c));
	c.verdict = IL_PASS;
	snprintf(c.evidence, sizeof(c.evidence), "stale");
	t_check_int(il_check_chain(&in, s, N, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
	t_check_contains(c.evidence, "bound does not apply");
}
