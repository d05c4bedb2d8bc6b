/* SPDX-License-Identifier: MIT */
/*
 * The verdict of a bound check, with its evidence.
 *
 *   PASS       the bound held in every judged sample
 *   FAIL       the bound was violated by more than measured noise explains
 *   UNDECIDED  a violation that measured noise explains, or too few samples
 *   SKIP       could not run: missing privilege or kernel feature (reason)
 */
#ifndef INVLAB_VERDICT_H
#define INVLAB_VERDICT_H

#include <stdint.h>

enum il_verdict {
	IL_PASS,
	IL_FAIL,
	IL_UNDECIDED,
	IL_SKIP,
};

struct il_check {
	enum il_verdict verdict;
	const char *bound_name; /* "priority inheritance (one CPU)" */
	uint64_t bound_ns;	/* the bound, before the noise allowance */
	uint64_t noise_ns;	/* the noise allowance used */
	uint64_t worst_ns;	/* the worst measured value judged */
	char evidence[512];
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
};

const char *il_verdict_name(enum il_verdict v);
/* parse "PASS"... (case-insensitive); -EINVAL when unknown */
int il_verdict_parse(const char *s, enum il_verdict *v);

#endif
