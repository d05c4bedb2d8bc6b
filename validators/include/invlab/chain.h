/* SPDX-License-Identifier: MIT */
/*
 * Bounds for a chain of mutexes whose owners may sit on different CPUs
 * (docs/theory.md section 4, items 1 and 4), and the check that judges the
 * head's measured waits against them.  Pure functions, like validate.h:
 * they take a description of the scenario and return numbers or a
 * verdict; they never measure, print or exit.
 *
 * A chain, head first: the head waits for lock 0, held by the owner of
 * link 0, who waits for lock 1, held by the owner of link 1, ... ; the
 * owner of the last link (the tail) holds its lock and waits for nothing.
 * Priorities are SCHED_FIFO numbers: larger runs first.
 */
#ifndef INVLAB_CHAIN_H
#define INVLAB_CHAIN_H

#include <stddef.h>
#include <stdint.h>

#include <invlab/validate.h>
#include <invlab/verdict.h>

/*
 * One link of the chain.  own_ns is the CPU work its owner does inside
 * its outermost section on the link's lock, excluding the time it waits
 * for the next link's lock: that wait is the next link's section, and
 * it is counted there.  Work the owner does while holding the next lock
 * too is its own work and belongs here.  cpu is the CPU the owner is
 * pinned to (>= 0); only the multiprocessor bound looks at it.
 */
struct il_chain_link {
	uint64_t own_ns;
	int cpu;
};

/*
 * Transitive priority inheritance.  Every owner runs boosted to the
 * head's priority, so nothing between the owners' and the head's
 * priority delays them, and the head waits at most for each owner's
 * remaining work, one after the other:
 *   B = sum_k own[k]
 * When outer_ns is not NULL it receives the per-link breakdown:
 *   outer[k] = own[k] + outer[k + 1],  outer[last] = own[last],
 * the length of link k's outermost section including its nested wait
 * (the theory's L for that owner and lock); outer[0] == B, and link k adds
 * outer[k] - outer[k + 1] == own[k] to the head's blocking.  An empty
 * chain gives 0.  Returns 0, -EINVAL on bad arguments or -ERANGE when
 * the sum does not fit 64 bits.
 */
int il_chain_pi_bound(const struct il_chain_link *links, size_t nlinks,
		      uint64_t *outer_ns, uint64_t *bound_ns);

/*
 * A task that may preempt a chain owner: it runs on cpu, releases a job
 * of at most wcet_ns CPU time at least period_ns apart, at priority prio.
 * period_ns == 0 with wcet_ns > 0 is a task that never lets go of the CPU
 * (a busy-loop hog).  Jobs are assumed to finish within their period
 * (at most one job pending when a window opens), as in any response-time
 * analysis.
 */
struct il_interferer {
	int cpu;
	int prio;
	uint64_t wcet_ns;
	uint64_t period_ns;
};

/*
 * The scenario a chain check is about: the chain, the head's priority,
 * every other real-time task on the machine, and the noise allowance and
 * sample count of the check.  horizon_ns caps the fixed-point iteration:
 * a bound beyond it is as good as none (pass the run's time bound for a
 * single wait); 0 means no cap other than 64 bits.  It does not apply to
 * the transitive bound, which involves no iteration.
 */
struct il_chain_input {
	const struct il_chain_link *links;
	size_t nlinks;
	int head_prio;
	const struct il_interferer *interferers;
	size_t ninterferers;
	uint64_t horizon_ns;
	uint64_t noise_ns;
	uint64_t outlier_ns; /* rare outliers set aside (validate.h) */
	uint64_t steal_ns;   /* host steal in the run (validate.h) */
	size_t min_samples;
};

/*
 * Give up on a fixed point after this many steps: a utilization that
 * rounds to just below 1 would otherwise crawl towards 2^64.
 */
#define IL_CHAIN_MAX_ITERATIONS 1000000u

/*
 * The bound that applies to a chain, with how it was reached.  name is
 * "transitive priority inheritance" or "remote blocking fixed point";
 * desc says more ("transitive priority inheritance, 3 links", "remote
 * blocking fixed point, owner CPUs 0,1 (...)") or, on -ERANGE, why there
 * is no bound.
 */
struct il_chain_bound {
	const char *name;
	uint64_t bound_ns;   /* valid when il_chain_bound() returned 0 */
	uint64_t own_ns;     /* sum of the links' own work */
	size_t counted;	     /* interferers counted */
	double util;	     /* their utilization, sum C/T */
	unsigned iterations; /* fixed-point steps taken */
	char desc[160];
};

/*
 * Multiprocessor priority inheritance with owners pinned behind
 * higher-priority work (the remote blocking of docs/theory.md 4.4, for a
 * chain).  An interferer counts when it runs on some link's CPU and its
 * priority is above head_prio: the owners run at the head's priority, so
 * tasks between an owner's own priority and the head's are exactly what
 * inheritance defeats, and tasks above the head preempt the owner however
 * it is boosted.  With own = sum_k own[k], iterate
 *   b(0) = own,  b(n+1) = own + sum_{h counted} ceil(b(n) / T_h) * C_h
 * to its fixed point.  The iteration is joint over the whole chain
 * rather than per link; chain.c says why.  Each interferer counts once,
 * however many links share its CPU.  With no interferer counted the
 * result is the transitive bound (name and desc say so).
 *
 * Returns 0 with out filled, -EINVAL on bad arguments (a link or
 * interferer on a negative CPU, a NULL array with a non-zero count), or
 * -ERANGE when there is no bound: the counted utilization is >= 1, the
 * fixed point is beyond horizon_ns, or it does not fit 64 bits; out->desc
 * then says which.
 */
int il_chain_bound(const struct il_chain_input *in, struct il_chain_bound *out);

/*
 * The single-owner form of item 4:
 *   b = owner_ns + sum_{h on cpu, prio_h > head_prio} ceil(b / T_h) * C_h
 * Same returns as il_chain_bound(); *b_ns is set only on success.
 */
int il_remote_blocking_bound(uint64_t owner_ns, int cpu, int head_prio,
			     const struct il_interferer *h, size_t nh,
			     uint64_t horizon_ns, uint64_t *b_ns);

/*
 * Whether a bound applies to this scenario at all.  It does not when a
 * task at exactly the head's priority runs on an owner's CPU (the boosted
 * owner queues behind it in FIFO order, which no formula here models) or
 * when il_chain_bound() finds no finite bound.  Returns 1 when a bound
 * applies, 0 when not, with the reason in why (may be NULL), or -EINVAL.
 */
int il_chain_bound_applies(const struct il_chain_input *in, char *why,
			   size_t len);

/*
 * Judge the head's waits (delay, foreign and hog time as in
 * il_check_blocking(); lower_ns is CPU time of scenario threads below the
 * head that hold none of the chain's locks) against the chain's bound
 * plus noise_ns.  When no bound applies the verdict is UNDECIDED with
 * "bound does not apply: <why>", never FAIL: a hog above the head is not
 * an inversion that inheritance should have prevented.  Otherwise the
 * verdict is il_check_blocking()'s, with out->bound_name set to the
 * bound's name and the evidence prefixed with its description, e.g.
 * "transitive priority inheritance, 3 links: 200 waits, worst ...".
 * Returns 0, or -EINVAL on bad arguments.
 */
int il_check_chain(const struct il_chain_input *in,
		   const struct il_wait_sample *s, size_t n,
		   struct il_check *out) IL_MUST_CHECK;

#endif
