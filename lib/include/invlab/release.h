/* SPDX-License-Identifier: MIT */
/*
 * Release times, as pure arithmetic on nanoseconds so they can be tested
 * on synthetic clocks.
 *
 * Rounds: a round is released at its planned time, or a short lead after
 * "now" when that has passed (the tasks must be able to arm their timers
 * before the release).  The next round is planned after as much idle
 * time as the round took, at least IL_ROUND_MIN_IDLE_NS: real-time work
 * then fills at most half of any CPU, away from RT throttling and the
 * fair server.
 *
 * Periodic tasks: absolute releases start + offset + j * period.  A job
 * that overruns does not shift the later releases (no drift); the next
 * job simply starts late, and its wakeup latency shows it.
 */
#ifndef INVLAB_RELEASE_H
#define INVLAB_RELEASE_H

#include <stdint.h>

#define IL_ROUND_LEAD_NS     200000ull	/* 200 us */
#define IL_ROUND_MIN_IDLE_NS 1000000ull /* 1 ms */

static inline uint64_t il_round_release(uint64_t now, uint64_t planned)
{
	return planned > now + IL_ROUND_LEAD_NS ? planned
						: now + IL_ROUND_LEAD_NS;
}

/* the planned start of the next round, given this one's release and end */
static inline uint64_t il_round_next(uint64_t release, uint64_t end)
{
	uint64_t busy = end > release ? end - release : 0;

	return end +
	       (busy > IL_ROUND_MIN_IDLE_NS ? busy : IL_ROUND_MIN_IDLE_NS);
}

static inline uint64_t il_periodic_release(uint64_t start, uint64_t offset,
					   uint64_t period, uint64_t job)
{
	return start + offset + job * period;
}

#endif
