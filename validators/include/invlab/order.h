/* SPDX-License-Identifier: MIT */
/*
 * The order of events decides (order.c, docs/theory.md "Deciding on the
 * trace"): where the scheduler's trace covers every wait of a check,
 * whether the protocol held is read from who ran, not from how long the
 * waits took.  A pure function over attributed waits (attrib.h).
 *
 *   FAIL       in some wait, a task ranked below the waiter (of the
 *              scenario, or a foreign real-time one) ran where a holder
 *              waited to run, for longer than the tolerance once the
 *              host's steal in that wait is taken off: an inversion the
 *              kernel recorded; or, in one wait past the bound, longer
 *              than a section (typical_ns, else the bound) once the
 *              larger of its steal and its unseen time (verdict.h) is
 *              taken off: magnitude counts, whatever the count rules say
 *   no verdict such a window in a wait past the bound that the host's
 *              measured part could explain: out->trace_rare is then
 *              IL_ORDER_NO_PASS, and the durations judge with no PASS
 *              (il_order_durations)
 *   PASS       in every wait, only holders, tasks at or above the
 *              waiter, foreign tasks at or above it and idle ran there
 *              (within the tolerance); or past the tolerance in no more
 *              waits than the host stretches a wakeup that far (the
 *              binomial rule below), each of them a wait within the
 *              bound itself (no slack of the noise allowance)
 *   no verdict (IL_NONE) a wait the trace does not cover (it started or
 *              ended outside the trace, it timed out, events were lost),
 *              fewer waits than min_samples, or no FAIL with a tolerance
 *              that swamps the bound or its typical value (typical_ns;
 *              il_noise_swamps: an inversion the size of a critical
 *              section could hide in it, as under emulation):
 *              the caller then judges on durations (validate.h) and says
 *              so
 *
 * Durations stay the measure: the evidence gives the worst wait against
 * the bound, and the waits over it with the time the trace gave to
 * higher-priority and foreign tasks (interference), which is no reason
 * for a verdict either way.
 */
#ifndef INVLAB_ORDER_H
#define INVLAB_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <invlab/verdict.h>

struct il_order_input {
	const char *waiter;	/* its name, for the evidence */
	const char *bound_name; /* the duration bound, reported */
	uint64_t bound_ns;
	/*
	 * The same bound over the median critical sections instead of the
	 * longest (0: not known).  What the tolerance forgives must stay
	 * within half of the smaller of the two: one section stretched by a
	 * host stall (60 ms for a 2 ms section under TCG) inflates the
	 * bound, never the median, and a 20 ms inversion then passed as
	 * "less than half the bound".
	 */
	uint64_t typical_ns;
	uint64_t noise_ns; /* the duration rule's allowance, reported */
	/*
	 * Lower-ranked time a wait may hold and still be clean: the time
	 * the kernel takes to act on a request, one wakeup-to-run latency
	 * of the waiter's class per CPU the request must reach (this run's
	 * calibration, p90): before that no protocol can have put a holder
	 * on the CPU.
	 */
	uint64_t tolerance_ns;
	/*
	 * A window the host makes in at most IL_ORDER_RARE_P of the waits:
	 * the calibration's p99, per CPU the request must reach (0: none).
	 * Lower-ranked time beyond it in more waits than that rate allows
	 * (binomial tail under IL_ORDER_ALPHA) is an inversion the
	 * tolerance cannot hide, however wide the tolerance.
	 */
	uint64_t rare_ns;
	/* per wait, the host's steal on the CPUs looked at while it lasted
	 * (NULL: none measured); a stolen vCPU keeps its current task */
	const uint64_t *steal_ns;
	size_t min_samples; /* fewer traced waits: no verdict */
};

/*
 * Judge the n waits s[] on the trace into out.  0 with out->verdict
 * PASS or FAIL, or IL_NONE with the reason in out->evidence when the
 * trace cannot decide; -EINVAL on bad arguments (out then has no
 * verdict).
 */
/* the rare window's rate under the null (5 x the calibration's 1 %) */
#define IL_ORDER_RARE_P 0.05
/* a window past the tolerance (the calibration's p999) under the
 * null: 5 x its 0.1 % */
#define IL_ORDER_OUTLIER_P 0.005
/* the chance of that many rare windows the rule accepts as the host's */
#define IL_ORDER_ALPHA 1e-6

/*
 * P(X >= k) for X ~ Binomial(n, p), 0 < p < 1: the chance that k or more
 * of n waits hold a window the host makes with probability p each.  1
 * for k == 0.
 */
double il_order_binom_tail(size_t n, size_t k, double p);

/*
 * Are k of n more than the host makes: k > 0 and the binomial tail at
 * IL_ORDER_OUTLIER_P under IL_ORDER_ALPHA (5 of 30, 7 of 100)?  The one
 * rule by which a count of events past a tolerance becomes the
 * kernel's pattern.
 */
bool il_order_pattern(size_t n, size_t k);

/*
 * A duration check's verdict dur, made after the order check gave none
 * (its reason why_not, appended to the evidence): a FAIL stays a FAIL
 * only where the trace could not see.  When the trace saw every wait
 * and its windows came no more often than the host makes them
 * (trace_rare, out->trace_rare of that order check), a duration FAIL is
 * not shown to be the kernel's and reads UNDECIDED; PASS and UNDECIDED
 * stand.
 */
/* trace_rare's value for a window of a section's size that the host's
 * measured part could explain (il_check_order's UNDECIDED of the
 * magnitude rule, left to the durations): their PASS is UNDECIDED, their
 * FAIL stands */
#define IL_ORDER_NO_PASS 2
void il_order_durations(struct il_check *dur, int trace_rare,
			const char *why_not);

/*
 * Rounds set aside are evidence (a late owner, a request made before
 * the holder locked): set_aside rounds of set_aside + judged were not
 * judged, for the reason what.  When they are the majority a PASS is
 * UNDECIDED ("too few judged to PASS"); any other verdict stands.  The
 * evidence names them either way (none: unchanged).
 */
void il_order_set_aside(struct il_check *c, size_t set_aside, size_t judged,
			const char *what);

int il_check_order(const struct il_order_input *in,
		   const struct il_wait_sample *s, size_t n,
		   struct il_check *out) IL_MUST_CHECK;

#endif
