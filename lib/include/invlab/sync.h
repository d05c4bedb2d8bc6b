/* SPDX-License-Identifier: MIT */
/*
 * Futex-based hand-offs between the scenario's threads.  A waiter sleeps
 * until a 32-bit word changes from the value it saw; a waker stores the
 * new value and wakes.  Used to order a round deterministically (holder
 * has the lock, waiter is released, hog is released) without relying on
 * sleeps lining up.
 */
#ifndef INVLAB_SYNC_H
#define INVLAB_SYNC_H

#include <stdint.h>

/* Wait while *word == val, at most until abs_ns on CLOCK_MONOTONIC
 * (0: no limit).  Returns 0 when woken or the value changed, -ETIMEDOUT,
 * or -EINTR. */
int il_futex_wait(uint32_t *word, uint32_t val, uint64_t abs_ns);
/* Store val and wake every waiter. */
void il_futex_post(uint32_t *word, uint32_t val);
/* Add one and wake every waiter: for counters several threads bump,
 * where a store of a value read earlier would lose increments. */
void il_futex_count(uint32_t *word);

#endif
