/* SPDX-License-Identifier: MIT */
/*
 * Scheduling classes: put a thread in SCHED_FIFO/RR (priority),
 * SCHED_DEADLINE (runtime/deadline/period), SCHED_OTHER (nice), BATCH or
 * IDLE, read it back, and explain a refusal in terms of its cause.
 *
 * Everything goes through the raw sched_setattr/sched_getattr syscalls
 * with a thread id, so it works the same with glibc, musl and bionic.
 */
#ifndef INVLAB_SCHED_H
#define INVLAB_SCHED_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum il_policy {
	IL_SCHED_OTHER,
	IL_SCHED_FIFO,
	IL_SCHED_RR,
	IL_SCHED_DEADLINE,
	IL_SCHED_BATCH,
	IL_SCHED_IDLE,
};

struct il_sched {
	enum il_policy policy;
	int prio;	      /* FIFO/RR: 1..99 */
	int nice;	      /* OTHER/BATCH: -20..19 */
	uint64_t runtime_ns;  /* DEADLINE */
	uint64_t deadline_ns; /* DEADLINE */
	uint64_t period_ns;   /* DEADLINE */
	uint64_t flags;	      /* SCHED_FLAG_* passed through */
};

/* the calling thread's kernel id */
pid_t il_gettid(void);
/* "fifo", "deadline", ... */
const char *il_policy_name(enum il_policy p);
/*
 * Parse "fifo:30", "rr:10", "deadline:2ms/10ms/10ms" (runtime/deadline/
 * period), "other", "other:-5", "batch", "batch:5", "idle".  Returns 0 or
 * -EINVAL with the reason in err.
 */
int il_sched_parse(const char *spec, struct il_sched *s, char *err,
		   size_t errlen);
/* "fifo:30", "deadline:2ms/10ms/10ms", "other:0" */
int il_sched_format(const struct il_sched *s, char *buf, size_t len);
/* Check ranges (prio 1..99, nice -20..19, runtime <= deadline <= period,
 * runtime >= 1024 ns as the kernel needs); -EINVAL with the reason. */
int il_sched_check(const struct il_sched *s, char *err, size_t errlen);
/* Apply to tid (0: the calling thread).  Returns 0 or -errno. */
int il_sched_set(pid_t tid, const struct il_sched *s);
int il_sched_get(pid_t tid, struct il_sched *s);
/*
 * Explain a failure of il_sched_set in terms a tester can act on:
 * EPERM -> missing CAP_SYS_NICE / RLIMIT_RTPRIO, or no RT runtime in the
 * thread's cpu cgroup; EBUSY -> deadline admission control refused the
 * bandwidth; EINVAL -> which parameter.  Returns buf.
 */
const char *il_sched_strerror(int err, const struct il_sched *s, char *buf,
			      size_t len);
/* Can this process use SCHED_FIFO at prio?  0, or -EPERM with the reason
 * in why (tries it on a short-lived thread, leaving the caller alone). */
int il_sched_probe_rt(int prio, char *why, size_t len);

#endif
