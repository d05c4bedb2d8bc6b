/* SPDX-License-Identifier: MIT */
/*
 * SCHED_DEADLINE accounting of one thread, from /proc/<pid>/task/<tid>/sched
 * (docs/theory.md section 3, the budget q).
 *
 * The kernel writes that file in proc_sched_show_task() (kernel/sched/
 * debug.c).  Each line is a name padded to 45 columns, ':' and a value:
 * integers as "%21Ld", times in ns as "ms.nnnnnn" ("%14Ld.%06ld").  The
 * deadline fields are printed only while the thread's own policy is
 * SCHED_DEADLINE (task_has_dl_policy()):
 *
 *   dl.runtime    remaining budget of the current reservation period, ns;
 *                 negative after an overrun the kernel has not yet
 *                 replenished
 *   dl.deadline   absolute scheduling deadline, ns of the runqueue clock
 *                 (sched_clock based, not CLOCK_MONOTONIC: only differences
 *                 between two readings mean something)
 *
 * A thread of another class that inherits a deadline waiter's parameters
 * through a PI futex shows no dl.* lines: its policy is not SCHED_DEADLINE.
 * The file exists when the kernel has the scheduler debug code
 * (CONFIG_SCHED_DEBUG before 6.15, where it became unconditional).
 *
 * Parsing is apart from reading so that the unit test feeds fixtures.  No
 * function here prints.
 */
#ifndef INVLAB_DLSTAT_H
#define INVLAB_DLSTAT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* which fields a text had, in il_dlstat.have */
#define IL_DLSTAT_RUNTIME     (1u << 0)
#define IL_DLSTAT_DEADLINE    (1u << 1)
#define IL_DLSTAT_POLICY      (1u << 2)
#define IL_DLSTAT_PRIO	      (1u << 3)
#define IL_DLSTAT_SUM_EXEC    (1u << 4)
#define IL_DLSTAT_MIGRATIONS  (1u << 5)
#define IL_DLSTAT_VOLUNTARY   (1u << 6)
#define IL_DLSTAT_INVOLUNTARY (1u << 7)

struct il_dlstat {
	unsigned have;		 /* IL_DLSTAT_* present in the text */
	int64_t runtime_ns;	 /* dl.runtime */
	uint64_t deadline_ns;	 /* dl.deadline */
	int policy;		 /* policy: 6 is SCHED_DEADLINE */
	int prio;		 /* prio: -1 for deadline tasks */
	uint64_t sum_exec_ns;	 /* se.sum_exec_runtime: CPU time */
	uint64_t nr_migrations;	 /* se.nr_migrations */
	uint64_t nr_voluntary;	 /* nr_voluntary_switches */
	uint64_t nr_involuntary; /* nr_involuntary_switches */
};

/*
 * Parse the text of a sched file.  Only complete lines count: a last line
 * without its newline may have been cut and is ignored.  A name that
 * appears twice keeps its first value.  Returns 0 when dl.runtime and
 * dl.deadline were both found, -ENODATA when either is missing (st then
 * holds the fields that were there, see st->have), -EINVAL on bad
 * arguments or when a known field's value is not a number, -ERANGE when
 * it does not fit.
 */
int il_dlstat_parse(const char *text, struct il_dlstat *st);

/*
 * The sched file of thread tid of process pid: "/proc/<pid>/task/<tid>/
 * sched"; pid <= 0 means this process, tid <= 0 the calling thread
 * (/proc/thread-self/sched).  Returns 0 and the path, or -ENAMETOOLONG.
 */
int il_dlstat_path(pid_t pid, pid_t tid, char *path, size_t len);

/*
 * Open a sched file (O_RDONLY | O_CLOEXEC) once, to read it again and
 * again with il_dlstat_read_fd(): each read regenerates the text from
 * offset 0 (pread), which avoids an open and a close per job.  Returns the
 * descriptor or -errno (-ENOENT: no such thread, or no scheduler debug
 * code in the kernel).
 */
int il_dlstat_open(pid_t pid, pid_t tid);

/* Read and parse; the returns of il_dlstat_parse(), or -errno of pread. */
int il_dlstat_read_fd(int fd, struct il_dlstat *st);

/* Open, read, parse and close in one call. */
int il_dlstat_read(pid_t pid, pid_t tid, struct il_dlstat *st);

/*
 * Budget a job consumed, from a reading at its start and one at its end:
 *
 *   consumed = runtime(start) - runtime(end) + k * Q,
 *   k = (deadline(end) - deadline(start)) / P
 *
 * Each replenishment of the running reservation adds Q to the runtime and
 * moves the deadline by exactly P (replenish_dl_entity()), so k counts
 * the replenishments between the readings.  This holds only while nothing
 * else moved the deadline, and the function refuses (-ERANGE) when the
 * deadline moved backwards or by a distance that is not a whole number of
 * periods, or the result would be negative.  That happens when:
 *  - the job slept (on a lock, say) and woke to a new deadline, now + D,
 *    by the CBS wake-up rule;
 *  - the thread was boosted through a PI futex: replenishments then use
 *    the donor's runtime and period (pi_of()), not its own;
 *  - the kernel reset a reservation that lagged ("DL replenish lagged too
 *    much"), or sched_setattr() changed it.
 * By chance a reset can land on a whole number of periods; the result is
 * then wrong and nothing here can tell.  Other caveats: a reading does
 * not include CPU time the kernel has not yet accounted (at most up to
 * the next tick or scheduling event, less with HRTICK); with
 * SCHED_FLAG_RECLAIM (GRUB) the runtime drains slower than CPU time; and
 * on CPUs with frequency or capacity invariance it drains at scaled time.
 * Returns 0 with *consumed_ns (and *replenished, may be NULL) set,
 * -EINVAL when a reading lacks the deadline fields or Q or P is 0.
 */
int il_dl_budget_consumed(const struct il_dlstat *start,
			  const struct il_dlstat *end, uint64_t runtime_ns,
			  uint64_t period_ns, uint64_t *consumed_ns,
			  uint64_t *replenished);

#endif
