// SPDX-License-Identifier: MIT
/*
 * Futex hand-offs.  A futex wait on a plain word lets an RT thread sleep
 * until another thread has reached a given point of the round, with a
 * timeout so that no protocol failure can hang a run.
 */
#include <errno.h>
#include <linux/futex.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <invlab/sync.h>
#include <invlab/time.h>

int il_futex_wait(uint32_t *word, uint32_t val, uint64_t abs_ns)
{
	struct timespec ts = il_ns_to_ts(abs_ns);
	long ret;

	if (__atomic_load_n(word, __ATOMIC_ACQUIRE) != val)
		return 0;
	/* FUTEX_WAIT_BITSET takes an absolute CLOCK_MONOTONIC timeout */
	ret = syscall(SYS_futex, word, FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG,
		      val, abs_ns ? &ts : NULL, NULL, FUTEX_BITSET_MATCH_ANY);
	if (ret == 0 || errno == EAGAIN)
		return 0;
	return -errno;
}

void il_futex_post(uint32_t *word, uint32_t val)
{
	__atomic_store_n(word, val, __ATOMIC_RELEASE);
	syscall(SYS_futex, word, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, INT32_MAX,
		NULL, NULL, 0);
}

void il_futex_count(uint32_t *word)
{
	__atomic_fetch_add(word, 1, __ATOMIC_ACQ_REL);
	syscall(SYS_futex, word, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, INT32_MAX,
		NULL, NULL, 0);
}
