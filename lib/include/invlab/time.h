/* SPDX-License-Identifier: MIT */
/*
 * Clocks, durations with units, and busy-waiting.
 *
 * All latency is measured on CLOCK_MONOTONIC; CPU work is measured on
 * CLOCK_THREAD_CPUTIME_ID, so a critical section "of 2 ms" is 2 ms of
 * work however long preemption stretches it in wall time.
 */
#ifndef INVLAB_TIME_H
#define INVLAB_TIME_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define IL_NSEC_PER_USEC 1000ull
#define IL_NSEC_PER_MSEC 1000000ull
#define IL_NSEC_PER_SEC	 1000000000ull

static inline uint64_t il_ts_to_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * IL_NSEC_PER_SEC + (uint64_t)ts->tv_nsec;
}

static inline struct timespec il_ns_to_ts(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / IL_NSEC_PER_SEC),
			       .tv_nsec = (long)(ns % IL_NSEC_PER_SEC) };
	return ts;
}

/* CLOCK_MONOTONIC in ns (vDSO, no syscall on the usual architectures) */
static inline uint64_t il_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return il_ts_to_ns(&ts);
}

/* CPU time of the calling thread in ns */
uint64_t il_thread_cpu_ns(void);
/* CPU time of any thread of this process, from its clock id */
int il_clock_ns(clockid_t clk, uint64_t *ns);

/*
 * Parse a duration: a decimal number (fractions allowed, "1.5ms") with an
 * optional unit ns, us, ms, s, m (minutes).  A bare number is taken in
 * default_unit_ns.  Returns 0, -EINVAL when malformed, -ERANGE on overflow.
 */
int il_parse_duration(const char *s, uint64_t default_unit_ns, uint64_t *ns);
/*
 * Parse a size: a non-negative integer with an optional binary suffix
 * K, M, G, T (also KiB, MiB..).  Returns 0, -EINVAL or -ERANGE.
 */
int il_parse_size(const char *s, uint64_t *out);
/*
 * Format ns for people: "850ns", "12.3us", "2.00ms", "1.50s" (3 significant
 * digits).  Returns the length snprintf would write.
 */
int il_format_duration(char *buf, size_t len, uint64_t ns);
/*
 * Format ns exactly, in the largest unit that divides it ("100ms", "60m",
 * "1500us", "0ns"), so that il_parse_duration reads back the same value:
 * for help texts and for job files written back.
 */
int il_format_duration_exact(char *buf, size_t len, uint64_t ns);

/*
 * Busy-wait until the calling thread has used ns of CPU time, or the wall
 * clock has advanced ns (il_spin_wall).  When stop is not NULL, return early
 * as soon as *stop becomes non-zero (read with an atomic load).  Returns
 * the CPU time (or wall time) actually spun.
 */
uint64_t il_spin_cpu(uint64_t ns, const int *stop);
uint64_t il_spin_wall(uint64_t ns, const int *stop);
/* clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) until abs_ns, over EINTR
 * unless *stop is set; returns 0 or -EINTR when stopped */
int il_sleep_until(uint64_t abs_ns, const int *stop);

#endif
