/* SPDX-License-Identifier: MIT */
/*
 * The kernel's sched_setattr()/sched_getattr() for the tests' foreign
 * helpers (fhog --deadline, dlthief), which are no invlab runs and link
 * nothing of it.
 */
#ifndef T_DLATTR_H
#define T_DLATTR_H

#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif

/* the kernel's struct sched_attr, first version (48 bytes) */
struct dl_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

static inline int get_attr(int tid, struct dl_attr *a)
{
	memset(a, 0, sizeof(*a));
	return (int)syscall(SYS_sched_getattr, tid, a, sizeof(*a), 0);
}

static inline int set_attr(int tid, const struct dl_attr *a)
{
	return (int)syscall(SYS_sched_setattr, tid, a, 0);
}

#endif
