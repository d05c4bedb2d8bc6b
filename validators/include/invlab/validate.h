/* SPDX-License-Identifier: MIT */
/*
 * Bound checks (docs/theory.md section 4) as pure functions: they take measured
 * data and return a verdict with its evidence.  They never measure and
 * never print, so they are tested on synthetic data for every verdict.
 */
#ifndef INVLAB_VALIDATE_H
#define INVLAB_VALIDATE_H

#include <stddef.h>
#include <stdint.h>

#include <invlab/verdict.h>

/*
 * Critical-section lengths of the tasks that can block the task under
 * test: L[j * nlocks + l] is the longest outermost critical section of
 * lower-priority task j on lock l (0 when j never takes l).
 *
 * Priority inheritance on one CPU (at most min(n, m) sections):
 *   B <= min( sum_j max_l L[j][l], sum_l max_j L[j][l] )
 */
uint64_t il_pi_bound(const uint64_t *L, size_t ntasks, size_t nlocks);
/*
 * Immediate priority ceiling on one CPU (at most one section, and only on
 * a lock whose ceiling reaches the task's priority):
 *   B <= max_{j, l : ceiling[l] >= prio} L[j][l]
 */
uint64_t il_ceiling_bound(const uint64_t *L, const int *ceiling, int prio,
			  size_t ntasks, size_t nlocks);

/*
 * The largest noise allowance, in percent of the bound, with which a
 * check can still pass (docs/theory.md section 6).  On a quiet machine
 * the allowance (the calibration's p90 wakeup latency) is a few percent
 * of a millisecond-scale bound; beyond half of it a protocol that lets
 * the waiter wait 1.5 times its bound would still pass, so the check
 * cannot discriminate and says UNDECIDED.  A FAIL stands whatever the
 * allowance: the wait exceeded the bound and the allowance both.
 */
#define IL_NOISE_MAX_PERCENT 50u

struct il_bound_input {
	const char *bound_name;
	uint64_t bound_ns;  /* the protocol's bound on blocking */
	uint64_t noise_ns;  /* allowance from this run's calibration */
	size_t min_samples; /* fewer clean samples: UNDECIDED */
	/*
	 * Rare outliers: a wait over the limit by at most this much (the
	 * calibration's p999: interrupts and the host stretch about one
	 * idle wakeup in a thousand that far) is set aside as noise, as long
	 * as there are at most n / 100 + 1 of them; more are a pattern and
	 * are violations.  0: none.
	 */
	uint64_t outlier_ns;
	/*
	 * Host steal on the scenario's CPUs in the run (0: none measured).
	 * Steal is invisible to the tasks' clocks and to the trace: a holder
	 * that "runs" while its vCPU is stolen makes no progress.  Waits over
	 * the limit in which no lower-priority thread ran (beyond the noise)
	 * by no more than this are UNDECIDED, not FAIL: the holder's own
	 * section stretched, which no protocol can prevent.
	 */
	uint64_t steal_ns;
};

/*
 * Judge the samples against bound_ns + noise_ns:
 *  - a sample whose delay, less its measured foreign time, still exceeds
 *    the limit (or that timed out) is a violation -> FAIL, with the excess
 *    and the hog time in the evidence; but UNDECIDED when no violation
 *    timed out, no lower-priority thread ran beyond noise_ns in any wait
 *    and steal_ns covers the worst excess (see above);
 *  - a sample over the limit only because of foreign time is set aside,
 *    and so are rare outliers within outlier_ns of it (see above);
 *  - a check with no violation whose noise_ns exceeds IL_NOISE_MAX_PERCENT
 *    of bound_ns is UNDECIDED ("noise allowance ... swamps the bound");
 *  - PASS needs no violation and at least min_samples samples within the
 *    limit outright; otherwise UNDECIDED.
 * out->worst_ns is the largest delay less foreign time.  Returns 0, or
 * -EINVAL on bad arguments.
 */
int il_check_blocking(const struct il_bound_input *in,
		      const struct il_wait_sample *s, size_t n,
		      struct il_check *out) IL_MUST_CHECK;

/* Counts behind a verdict, for reports. */
struct il_blocking_stats {
	size_t clean, noisy, violations, timed_out;
	size_t outliers;	  /* of noisy: set aside within outlier_ns */
	uint64_t worst_excess_ns; /* largest (delay - foreign) - limit */
	uint64_t worst_lower_ns;  /* largest hog time during a wait */
	uint64_t worst_foreign_ns;
};
/*
 * Whether a noise allowance is too large for the bound to discriminate:
 * noise_ns > bound_ns * IL_NOISE_MAX_PERCENT / 100 (no overflow).
 */
int il_noise_swamps(uint64_t bound_ns, uint64_t noise_ns);

void il_blocking_stats(const struct il_bound_input *in,
		       const struct il_wait_sample *s, size_t n,
		       struct il_blocking_stats *st);

#endif
