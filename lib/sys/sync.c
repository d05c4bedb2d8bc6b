// SPDX-License-Identifier: MIT
/*
 * Futex hand-offs.  A futex wait on a plain word lets an RT thread sleep
 * until another thread has reached a given point of the round, with a
 * timeout so that no protocol failure can hang a run.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/*
 * The futex operations are the kernel's ABI, fixed values: defined here
 * rather than taken from <linux/futex.h>, which a C library without the
 * kernel's uapi headers on its path (musl-gcc, some NDK setups) lacks.
 */
#ifndef FUTEX_WAKE
#define FUTEX_WAKE 1
#endif
#ifndef FUTEX_WAIT_BITSET
#define FUTEX_WAIT_BITSET 9
#endif
#ifndef FUTEX_PRIVATE_FLAG
#define FUTEX_PRIVATE_FLAG 128
#endif
#ifndef FUTEX_BITSET_MATCH_ANY
#define FUTEX_BITSET_MATCH_ANY 0xffffffff
#endif

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
