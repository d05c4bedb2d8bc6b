/* SPDX-License-Identifier: MIT */
/*
 * Scheduler and CPU event counts of one thread (or of a process and its
 * children), the figures `perf stat` shows beside a benchmark:
 *
 *   context-switches, cpu-migrations      perf software events
 *   sched:sched_switch, sched:sched_wakeup,
 *   sched:sched_migrate_task              perf tracepoint counters
 *                                         (counting only, nothing traced)
 *   cycles, instructions, cache-misses    hardware events, where the PMU
 *                                         has them
 *   voluntary / nonvoluntary switches     /proc/PID/task/TID/status, or
 *                                         getrusage() for a process tree
 *   run-delay-ns                          /proc/PID/task/TID/schedstat:
 *                                         time runnable but not running
 *
 * A counter that cannot be had says why, as perf does: "not supported"
 * (no such event here: no PMU, as in most VMs) or "not available" (the
 * event exists, it cannot be used: no tracefs for the tracepoint ids, no
 * permission, no perf_event_open).  When the perf software events cannot
 * be opened, context-switches are the sum of the /proc switches and
 * cpu-migrations come from /proc/.../sched (se.nr_migrations), marked as
 * fallback.
 *
 * The counters are opened before the measured part and read after it
 * (never in between: nothing here is on a measured path); each event is
 * its own file descriptor, up to 8 a thread.  Values are the differences
 * between the read and the open.  Library code: 0 or -errno, no output.
 */
#ifndef INVLAB_COUNTERS_H
#define INVLAB_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum il_ctr {
	IL_CTR_CS,	   /* context-switches */
	IL_CTR_MIGRATIONS, /* cpu-migrations */
	IL_CTR_SCHED_SWITCH,
	IL_CTR_SCHED_WAKEUP,
	IL_CTR_SCHED_MIGRATE,
	IL_CTR_CYCLES,
	IL_CTR_INSTRUCTIONS,
	IL_CTR_CACHE_MISSES,
	IL_CTR_VOLUNTARY,
	IL_CTR_INVOLUNTARY,
	IL_CTR_RUN_DELAY, /* ns */
	IL_CTR_N,
};

enum il_ctr_state {
	IL_CTR_UNSET = 0,     /* not measured (zero value) */
	IL_CTR_COUNTED,	      /* perf_event_open */
	IL_CTR_FALLBACK,      /* from /proc or getrusage() */
	IL_CTR_NOT_SUPPORTED, /* no such event on this machine */
	IL_CTR_NOT_AVAILABLE, /* it exists but cannot be used here */
};

struct il_ctr_val {
	uint64_t v;
	uint8_t state;	/* enum il_ctr_state */
	uint8_t scaled; /* multiplexed: v scaled from the time it ran */
};

/* One thread's (or one run's) counts. */
struct il_counts {
	struct il_ctr_val c[IL_CTR_N];
};

/* IL_CTR_INHERIT: count tid 0 (the caller) and every thread and process
 * it creates from now on (perf's inherit; /proc splits from getrusage of
 * the process and its waited-for children) */
#define IL_CTR_INHERIT 1u
/* IL_CTR_DISABLED: opened stopped, counting from il_counters_enable()
 * (which also takes the /proc base again); with IL_CTR_INHERIT the
 * threads and processes created meanwhile start and stop with it */
#define IL_CTR_DISABLED 2u

struct il_counters {
	int tid; /* 0: the caller (with IL_CTR_INHERIT, its process) */
	unsigned flags;
	int fd[IL_CTR_N];
	uint64_t base[IL_CTR_N]; /* /proc values when opened */
	bool base_ok[IL_CTR_N];
};

/*
 * Open the counters of thread tid (0: the calling thread) of this
 * process.  Counters that cannot be opened are marked, not errors;
 * -EINVAL for a bad argument, -ESRCH when the thread is gone.
 * il_counters_close() must follow either way.
 */
int il_counters_open(struct il_counters *c, int tid, unsigned flags);
/*
 * false when the environment says INVLAB_COUNTERS=off: the engine then
 * opens none (a counted task's context switches cost the kernel more;
 * docs/counters.md) and the results' counters are empty.
 */
bool il_counters_wanted(void);
/*
 * true when the environment says INVLAB_COUNTERS=proc: no perf event is
 * opened (every perf counter reads "not available"); context switches
 * and migrations come from /proc and getrusage() as their fallbacks,
 * with the voluntary, involuntary and run-delay figures.  Opening a
 * perf event switches jump labels in the scheduler (kernel-text
 * patching), which a guest under QEMU TCG has executed half-done
 * (docs/kernels.md).
 */
bool il_counters_proc_only(void);
/* Start and stop counting (IL_CTR_DISABLED); 0 or -errno */
int il_counters_enable(struct il_counters *c);
int il_counters_disable(struct il_counters *c);
/* Read them into out (the counts since the open); 0 or -errno. */
int il_counters_read(struct il_counters *c, struct il_counts *out);
void il_counters_close(struct il_counters *c);

/*
 * What perf_event_open's error err (-errno) means for counter k: "not
 * available" for a missing privilege or resource (EACCES, EPERM,
 * ENOSYS, EMFILE, ENFILE, EBUSY) and for any tracepoint; otherwise "not
 * supported" (ENOENT, EOPNOTSUPP, ENODEV, EINVAL: no such event here).
 */
enum il_ctr_state il_counters_open_state(enum il_ctr k, int err);
/* "context-switches", "sched:sched_switch", "voluntary-ctxt-switches" */
const char *il_counters_name(enum il_ctr k);
/* the JSON key: "context_switches", "sched_switch", ... */
const char *il_counters_key(enum il_ctr k);
/* by name or key; -1 when none */
int il_counters_lookup(const char *name);
/* "counted", "fallback", "not supported", "not available", "not measured" */
const char *il_counters_state_name(enum il_ctr_state s);
/* has a value (counted or fallback) */
static inline bool il_counters_has(const struct il_ctr_val *v)
{
	return v->state == IL_CTR_COUNTED || v->state == IL_CTR_FALLBACK;
}

/*
 * Add b to a (a run's counts as the sum of its tasks'): a value that only
 * one side has is taken with the other's state (a sum with a missing
 * part is marked not available); two states without values keep a's.
 */
void il_counters_add(struct il_counts *a, const struct il_counts *b);

/*
 * Parse /proc/.../status text: voluntary_ctxt_switches and
 * nonvoluntary_ctxt_switches.  0, or -ENOENT when either is missing.
 */
int il_counters_parse_status(const char *text, uint64_t *vol, uint64_t *invol);
/* /proc/.../schedstat text "RUN_NS WAIT_NS SLICES": 0 or -EINVAL */
int il_counters_parse_schedstat(const char *text, uint64_t *run_ns,
				uint64_t *wait_ns, uint64_t *slices);
/* /proc/.../sched text: se.nr_migrations; 0 or -ENOENT */
int il_counters_parse_sched(const char *text, uint64_t *migrations);

/*
 * The id of tracepoint SYS:NAME from the events/SYS/NAME/id file of a
 * mounted tracefs (or debugfs's tracing/); when none is mounted, tracefs
 * is mounted in a private mount namespace of a short-lived child, so
 * nothing stays mounted.  Ids are cached.  The id (>= 0), or -ENOENT (no
 * such event or no tracefs), -EPERM, -errno.
 */
int il_counters_tracepoint_id(const char *sys, const char *name);

struct il_json;
/*
 * Write counts as an object under key: each counter's JSON key with its
 * value, or the string "not supported" / "not available"; unmeasured ones
 * are left out; then "fallback": [keys taken from /proc] and "scaled":
 * [keys multiplexed] when there are any.
 */
void il_counters_json(struct il_json *j, const char *key,
		      const struct il_counts *c);
/*
 * One line for people: "context-switches 120 (voluntary 100,
 * involuntary 20), cpu-migrations 3, sched_switch 120, sched_wakeup 101,
 * sched_migrate_task 3, cycles not supported, ...".  Returns buf.
 */
char *il_counters_line(const struct il_counts *c, char *buf, size_t len);

#endif
