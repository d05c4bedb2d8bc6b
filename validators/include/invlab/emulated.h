/* SPDX-License-Identifier: MIT */
/*
 * Timing on an emulated CPU (QEMU TCG, sysinfo.h `emulated`): the guest
 * cannot see the host preempting its virtual CPUs.  There is no steal
 * time; a vCPU the host took away looks, inside the guest, like the task
 * on it running on (its CPU clock and its deadline budget advance, and
 * the tick that would throttle it comes only when the vCPU is back) or
 * like a wakeup arriving late.  A waiter spinning on a lock owner whose
 * vCPU was taken away spins all that time: vcpu_is_preempted() is false
 * without paravirtual steal time.  So a FAIL decided by a duration is
 * not evidence against the kernel there; how much time the host took is
 * unknown, and the allowances for noise and steal cannot cover it
 * (docs/kernels.md, "Emulated timing").
 *
 * An order of events is: the scheduler's trace (attrib.h) showing that,
 * in a wait over the check's limit, tasks ranked below the waiter ran at
 * least the wait's excess over the limit, and that the holder was never
 * boosted in any traced wait: a scheduling decision of the guest kernel,
 * which host preemption cannot make, and one that accounts for the
 * excess.  Such a FAIL stands.
 *
 * Pure, as validate.h: no measuring, printing or exiting.
 */
#ifndef INVLAB_EMULATED_H
#define INVLAB_EMULATED_H

#include <stdint.h>

#include <invlab/engine.h>
#include <invlab/judge.h>
#include <invlab/scenario.h>
#include <invlab/verdict.h>

/* What the run says about one check. */
struct il_emu_input {
	/* the kernel fingerprint's flag: 1 emulated, 0 not, -1 unknown */
	int emulated;
	/* the trace's account of the check's waits (attrib.h); all 0:
	 * no trace, or a check the trace does not cover (M-BWI) */
	uint64_t traced;    /* waits the trace covered */
	uint64_t boosted;   /* waits in which a holder was boosted */
	uint64_t explained; /* waits over the limit in which lower-ranked
			       tasks ran at least the excess (il_emu_explained)
			     */
	uint64_t lower_ns;  /* their lower-ranked time, in those waits */
	/*
	 * The bound is a budget window the lower-ranked time is meant to
	 * fill (kmutex rt-waiter: the RT hog runs but for the fair server's
	 * window): that time explains nothing, and the window itself is
	 * spent on the guest's clock, which runs on while the host holds a
	 * vCPU.  A FAIL on it is UNDECIDED unless decided on the trace.
	 */
	int window_bound;
	/*
	 * An M-BWI check (1 a miss check, 2 a bandwidth check) of a run
	 * traced whole: its FAIL stands when the trace attests every late
	 * miss (by_trace), and the reason names what the trace left open.
	 */
	int mbwi_traced;
	/* an rt-football check of a traced run (its FAIL on a pattern of
	 * waits past the tolerance is by_trace; one on a few is timing) */
	int football_traced;
};

enum il_emu_effect {
	IL_EMU_NONE = 0,  /* not emulated, or not a FAIL: unchanged */
	IL_EMU_UNDECIDED, /* a FAIL on timing alone: now UNDECIDED */
	IL_EMU_KERNEL,	  /* a FAIL the trace attests: it stands */
};

/*
 * The rule, applied to one check c:
 *  - emulated != 1, or c->verdict is not FAIL: unchanged (host preemption
 *    only lengthens what is measured, so a PASS stays a PASS, and a
 *    negative control that did not fail is still a finding);
 *  - traced > 0, explained > 0 and boosted == 0: the FAIL stands, the
 *    evidence starts with why ("the kernel's FAIL, also under
 *    emulation: ...");
 *  - otherwise UNDECIDED, the evidence starting with the reason and
 *    keeping the timing evidence after "was FAIL: ".
 * Returns the effect; IL_EMU_NONE also for NULL arguments.
 */
enum il_emu_effect il_emu_check(const struct il_emu_input *in,
				struct il_check *c);

/*
 * Of the waits s[0..n) (delay, foreign and lower time as attributed from
 * the trace), those over limit_ns (delay - foreign > limit; a timed-out
 * one too) in which lower_ns is at least that excess.  Their lower time
 * is added up in *lower_ns (may be NULL).  Returns their number.
 */
uint64_t il_emu_explained(const struct il_wait_sample *s, size_t n,
			  uint64_t limit_ns, uint64_t *lower_ns);

/*
 * The rule over a run's checks ck[0..n): each pi, chain or kmutex check
 * takes the attribution of its task's waits (il_attr_judged; for kmutex
 * fg's calls, "lower" being the scenario's load and foreign real-time
 * tasks below fg, attrib.h), its limit being
 * the check's bound_ns + noise_ns; every other check none.  emulated as in
 * il_emu_input.  Returns how many checks it turned UNDECIDED.
 */
int il_emu_apply(const struct il_scenario *sc,
		 const struct il_engine_result *er, int emulated,
		 struct il_judged *ck, int n);

#endif
