/* SPDX-License-Identifier: MIT */
/*
 * The verdict of a bound check, with its evidence.
 *
 *   NONE       no verdict: nothing judged this (the zero value).  It is an
 *              error wherever a verdict is needed, and never a pass.
 *   PASS       the bound held in every judged sample
 *   FAIL       the bound was violated by more than measured noise explains
 *   UNDECIDED  a violation that measured noise explains, or too few samples
 *   SKIP       could not run: missing privilege or kernel feature (reason)
 *
 * The zero value is NONE so that a check that was zeroed and never
 * judged, or judged by code that returned early, fails closed (a
 * "validation" that cannot say FAIL passes with the protocol off).
 */
#ifndef INVLAB_VERDICT_H
#define INVLAB_VERDICT_H

#include <stdint.h>

/* for functions whose result is a verdict or says whether one was made */
#define IL_MUST_CHECK __attribute__((warn_unused_result))

enum il_verdict {
	IL_NONE = 0,
	IL_PASS,
	IL_FAIL,
	IL_UNDECIDED,
	IL_SKIP,
	IL_VERDICT_N,
};

struct il_check {
	enum il_verdict verdict;
	const char *bound_name; /* "priority inheritance (one CPU)" */
	uint64_t bound_ns;	/* the bound, before the noise allowance */
	uint64_t noise_ns;	/* the noise allowance used */
	uint64_t worst_ns;	/* the worst measured value judged */
	/* decided on the order of events in the scheduler's trace
	 * (order.h), not on durations */
	int by_trace;
	/* no verdict from the order check (order.h), although the trace
	 * saw every wait: its windows past the tolerance, or past the
	 * p99 within it, came no more often than the host makes them
	 * (il_order_durations: a duration FAIL is then UNDECIDED) */
	int trace_rare;
	char evidence[1024];
};

/*
 * One job of the task under test that requested a contended lock.
 *
 * delay_ns is release -> lock acquired: the blocking the protocol allows,
 * whether it shows as a wait at the lock (inheritance) or as a delayed
 * start (ceiling).  foreign_ns is the part of that interval in which no
 * lower-priority thread of the scenario ran: the waiter's own lock
 * operations, host steal, interrupts, other processes; it is measured
 * from the threads' CPU clocks.  lower_ns is the CPU time that
 * lower-priority threads which do not hold the lock (the hog) got during
 * the interval: with a working protocol it is zero, and it is the
 * direct evidence of an inversion.
 */
struct il_wait_sample {
	uint64_t delay_ns;
	uint64_t foreign_ns;
	uint64_t lower_ns;
	int timed_out; /* not acquired within the run's time bound */
	/* CLOCK_MONOTONIC: the interval's start (the release) and the lock
	 * request; 0 when unknown (then no trace can be laid over it) */
	uint64_t t_ns, t_req_ns;
	/* the trace covered this wait whole (attrib.h): lower_ns and
	 * foreign_ns are then the kernel's account, not inferred */
	int traced;
	/*
	 * Of lower_ns, the part the trace does not witness as the kernel's
	 * choice (attrib.h): where the CPU recorded nothing (no switch, no
	 * run-time account) for longer than a tick, less that tick (a busy
	 * CPU accounts its task at every tick, so only there can the host
	 * have held the vCPU), and what followed a holder's wakeup or boost
	 * while the lower task already ran (the CPU's lag in acting on it):
	 * up to two ticks of it, and past them only where the CPU recorded
	 * nothing.
	 */
	uint64_t unseen_ns;
};

/*
 * The one table of verdict names: "NONE", "PASS", "FAIL", "UNDECIDED",
 * "SKIP"; "?" for a value out of range.
 */
const char *il_verdict_name(enum il_verdict v);
/*
 * Parse "PASS", "FAIL", "UNDECIDED" or "SKIP" (case-insensitive).  "NONE"
 * is not a verdict one can ask for or read back: -EINVAL, as for any
 * unknown word.
 */
int il_verdict_parse(const char *s, enum il_verdict *v) IL_MUST_CHECK;

#endif
