/* SPDX-License-Identifier: MIT */
/*
 * The scheduler's own account of a run, from the kernel's tracefs
 * (docs/tracing.md).
 *
 * A recorder makes a tracefs instance of its own, instances/invlab-<pid>,
 * so that the user's tracing is untouched; it enables sched_switch,
 * sched_waking, sched_wakeup, sched_migrate_task and sched_pi_setprio
 * (and sched_stat_runtime of the scenario's threads when asked for),
 * sizes the per-CPU buffers for the run, and is switched on before the
 * measured part and off after it.  Nothing is read while the run goes on:
 * the buffers are read and parsed after it, into a compact array of
 * records in CLOCK_MONOTONIC nanoseconds (the instance's "mono" clock),
 * so the engine's timestamps and the trace's are on one clock.
 *
 * tracefs is mounted at /sys/kernel/tracing when it is mounted nowhere,
 * and unmounted again at the end.  The instance and the mount are
 * recorded in the run state (runstate.h) before they are made, so a run
 * killed with SIGKILL leaves nothing the next run does not remove.
 *
 * Built on libtracefs and libtraceevent (meson feature `tracefs`); without
 * them il_trace_start() returns -ENOTSUP and says so, and the records
 * functions below still work (they are plain data).
 *
 * Library rules: nothing here prints or exits.
 */
#ifndef INVLAB_TRACE_H
#define INVLAB_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* --trace: auto is on when tracefs is there and may be used */
enum il_trace_mode {
	IL_TRACE_AUTO = 0,
	IL_TRACE_ON,
	IL_TRACE_OFF,
};

enum il_trace_kind {
	IL_TR_SWITCH = 1, /* prev -> next on cpu */
	IL_TR_PI_SETPRIO, /* pid's priority oldprio -> newprio */
	IL_TR_WAKEUP,	  /* pid woken (sched_wakeup) on cpu */
	IL_TR_MIGRATE,	  /* pid moved from next_pid (a CPU) to cpu */
	IL_TR_RUNTIME,	  /* pid's run time accounted (sched_stat_runtime) */
};

/*
 * Priorities are the kernel's (prio field of the sched events): -1 for
 * SCHED_DEADLINE, 0..99 real time (99 - the SCHED_FIFO/RR priority:
 * lower runs first), 100..139 the fair class (120 + nice).
 * il_trace_rt_prio() turns one into a SCHED_FIFO number.
 */
struct il_trace_rec {
	uint64_t ts; /* CLOCK_MONOTONIC ns */
	uint8_t kind;
	/*
	 * switch: prev was preempted, not blocked; wakeup: the wakeup was
	 * made on cpu itself with a reschedule pending there (the event's
	 * need-resched flag): the kernel asked cpu to switch at once, and
	 * its next switch shows what it chose
	 */
	uint8_t prev_runnable;
	uint16_t cpu;
	/*
	 * switch: prev and next; pi_setprio, wakeup, migrate, runtime: pid
	 * in prev; migrate: the CPU it left (orig_cpu) in next_pid, the one
	 * it goes to (dest_cpu) in cpu; runtime: the ns of CPU time the
	 * scheduler accounted to pid since its last account (or since it
	 * was switched in) in next_pid, -1 when over INT32_MAX, and cpu is
	 * where the account was made (another CPU's when it read pid's CPU
	 * clock), not always pid's
	 */
	int32_t prev_pid, next_pid;
	/* switch: their priorities; pi_setprio: old and new */
	int16_t prev_prio, next_prio;
};

/* a task seen in the trace */
struct il_trace_task {
	int32_t pid;  /* the thread id; 0 is the idle task */
	int16_t prio; /* the last kernel priority seen */
	char comm[16];
};

struct il_trace {
	struct il_trace_rec *rec; /* in time order */
	size_t n, cap;
	struct il_trace_task *tasks; /* sorted by pid */
	size_t ntasks, tasks_cap;
	uint64_t t0_ns, t1_ns; /* what was traced: on -> off */
	uint64_t lost;	       /* events the buffers had no room for */
	/* switches from idle the kernel left out, put back from run-time
	 * accounts (il_trace_fill_idle) */
	uint64_t filled;
	/* the recorder's CPU time in the caller's thread: making and
	 * switching on the instance, and reading and parsing the buffers */
	uint64_t setup_cpu_ns, read_cpu_ns;
	/* "tracefs instance invlab-4242, 2 CPUs x 4096 KiB, 5 events" */
	char how[224];
};

/*
 * Who ran while one task waited for its locks, over all its judged waits,
 * from the trace (validators' attrib.h computes it).  Times are summed
 * over the waits and over the CPUs looked at (the holders' and the
 * waiter's).
 */
#define IL_ATTR_MAX_NAMED 4
struct il_attr_named {
	int32_t pid;
	int16_t kprio;	/* the kernel priority it ran at */
	uint8_t higher; /* at or above the waiter: interference */
	/* kprio was one the kernel's priority inheritance had raised it
	 * to (a sched_pi_setprio before, and its lowering after) */
	uint8_t boosted;
	char comm[16];
	uint64_t ns;	   /* its time inside the waits */
	uint64_t worst_ns; /* in one wait */
	uint64_t waits;	   /* waits it ran in */
	/* of ns, what was counted as the kernel's: all of a real-time
	 * task's below the waiter; a fair one's where it ran in place of a
	 * holder left unboosted (attrib.h) */
	uint64_t counted_ns;
};

struct il_attr_summary {
	uint64_t traced;    /* waits the trace covered (0: none) */
	uint64_t holder_ns; /* the possible holders, in their sections */
	uint64_t lower_ns;  /* the scenario's other lower tasks: inversion */
	uint64_t higher_ns; /* the scenario's tasks at or above the waiter */
	uint64_t fhigh_ns;  /* foreign, at or above: interference */
	uint64_t flow_ns;   /* foreign real-time below the waiter: inversion */
	uint64_t fair_ns;   /* foreign fair-class tasks (RT throttling) */
	uint64_t idle_ns;
	uint64_t waiter_ns;	 /* the waiter itself */
	uint64_t boosted;	 /* waits in which a holder was PI-boosted */
	uint64_t boost_worst_ns; /* request -> boost, the slowest */
	/*
	 * Waits in which the waiter (a proxy-execution donor) was moved to
	 * a holder's CPU and back: a migration of the waiter from that CPU
	 * to its own inside the wait (the way back, at its wakeup; the move
	 * there is not traced on 7.2, which sets the CPU without the event,
	 * so it shows as where the way back starts).
	 */
	uint64_t donor_migrated;
	int16_t boost_from, boost_to; /* the kernel priorities of a boost */
	/* the foreign tasks with the most time, most first */
	struct il_attr_named named[IL_ATTR_MAX_NAMED];
	uint32_t nnamed;
	char note[96]; /* why nothing was attributed, when traced == 0 */
};

struct il_sched;
/* a class and priority as the kernel's priority (what the trace shows) */
int il_trace_kprio(const struct il_sched *s);

/* a kernel priority as a SCHED_FIFO number (0 for fair, 100 for DL) */
int il_trace_rt_prio(int kprio);
/* "FIFO 50" (real time), "DL", "nice 0": the class and priority */
void il_trace_class_name(int kprio, char *buf, size_t len);

/*
 * Interference in calibration samples: for each i, the time within
 * [from[i], from[i] + lat[i]] in which cpu ran a task other than self and
 * the idle task at kernel priority kprio or more urgent (<= kprio) is
 * taken off lat[i].  from[] in time order.  Returns how many samples
 * were covered by the trace.
 */
size_t il_trace_remove_above(const struct il_trace *t, int cpu, int kprio,
			     int self, const uint64_t *from, uint64_t *lat,
			     size_t n);

/*
 * Put back the switches from idle the kernel left out of the trace (this
 * machine's 6.18 guest kernel never traces one on CPU 1).  A run-time
 * account (IL_TR_RUNTIME) of a task that runs on no CPU by the switches,
 * made on a CPU the switches leave idle, shows the task running there:
 * a switch from idle to it is added at the account's time less its run
 * (when its scheduler clock started), but after the CPU's last switch
 * and the task's last wakeup.  Counts them in t->filled; the reader calls
 * it (a trace without accounts is left as it is).  0 or -ENOMEM (t
 * unchanged).
 */
int il_trace_fill_idle(struct il_trace *t);

/* the first record at or after ts (after it when strict), or t->n */
size_t il_trace_rec_from(const struct il_trace *t, uint64_t ts, bool strict);

/* the task of pid in t, or NULL */
const struct il_trace_task *il_trace_task_of(const struct il_trace *t, int pid);

/*
 * Where a CPU stalled, witnessed by a timer (stall.c).  A sleeper is a
 * real-time or deadline thread that sleeps until absolute times rel[]
 * (its releases, in time order): when it went to sleep on CPU c before
 * rel[k] (its last event a switch out, asleep) and its next event is its
 * wakeup on c at w > rel[k], c took no interrupt in [rel[k], w) (a vCPU
 * the host held, or interrupts off), and nothing the trace shows running
 * on c then was the scheduler's choice.  A fair sleeper is no witness:
 * on PREEMPT_RT its timer expires in a softirq thread the scheduler may
 * keep waiting.  A wakeup on another CPU, or after a migration, is none
 * either (it does not say which CPU was late).
 */
struct il_trace_sleeper {
	int32_t tid;
	const uint64_t *rel;
	size_t nrel;
};
/* a task's run-time account on one CPU: of the wall time b - a, the
 * kernel counted run ns as the task's (il_trace_stalls_runtime) */
struct il_trace_run_win {
	uint64_t a, b, run;
};
struct il_trace_stall_cpu {
	uint64_t *se; /* [se[2k], se[2k+1]): disjoint, in time order */
	size_t n;
	struct il_trace_run_win *win; /* disjoint, in time order */
	size_t nwin;
};
struct il_trace_stalls {
	struct il_trace_stall_cpu *cpu; /* per CPU the trace switched on */
	int ncpus;
};
/* 0, -EINVAL or -ENOMEM (out then empty); il_trace_stalls_free() after */
int il_trace_stalls(const struct il_trace *t, const struct il_trace_sleeper *sl,
		    size_t nsl, struct il_trace_stalls *out)
	__attribute__((warn_unused_result));
/*
 * The second witness, the scheduler's run-time accounting (IL_TR_RUNTIME
 * records, il_trace_scope.runtime): a task on CPU c accounted run ns
 * over a wall time of w (from its switch in, or its last account, to
 * this one) ran on c no more than run ns of any part of w; with steal
 * accounting (CONFIG_PARAVIRT_TIME_ACCOUNTING) the rest is time the host
 * held the vCPU.  Adds each CPU's windows to s (made by il_trace_stalls
 * on t).  Only for a kernel that takes nothing but steal off a task's
 * run time: with CONFIG_IRQ_TIME_ACCOUNTING the kernel's own interrupts
 * would be counted as the host's.  An account the replay cannot place
 * (a task not running on any CPU by the switches, as a proxy-execution
 * donor's, or one whose switch in the kernel left out and
 * il_trace_fill_idle() did not put back) ends the window of the CPU it
 * was made on unused.
 * 0, -EINVAL or -ENOMEM (s keeps its timer stretches).
 */
int il_trace_stalls_runtime(const struct il_trace *t, struct il_trace_stalls *s)
	__attribute__((warn_unused_result));
/*
 * How much of [x, y) CPU cpu spent stalled (0 for a CPU not known): the
 * larger of what its timer stretches cover and what its run-time windows
 * leave unaccounted (each window's overlap with [x, y) beyond its run
 * and IL_TRACE_RUN_SLACK_NS).
 */
uint64_t il_trace_stalled(const struct il_trace_stalls *s, int cpu, uint64_t x,
			  uint64_t y);
/*
 * The run-time account's window is bounded by trace timestamps taken a
 * little after the scheduler read its clock (microseconds apart): so
 * much of each window is never counted as stalled.
 */
#define IL_TRACE_RUN_SLACK_NS 30000u
void il_trace_stalls_free(struct il_trace_stalls *s);

/*
 * The third witness, for a running task: the kernel updates its account
 * at every tick of its CPU (and when it leaves the CPU), so one account
 * of run ns beyond a tick says the CPU took no tick for run - tick while
 * the task ran (a vCPU the host held without its steal counted, or
 * interrupts off), and whatever the scheduler enforces at the tick (a
 * deadline task's throttle) came that much late.  Into late[p], for each
 * period p < n of [t0 + p * period, t0 + (p + 1) * period): the sum of
 * run - tick_ns over pid's accounts whose run ([ts - run, ts]) overlaps
 * it.  Returns how many accounts of pid the trace holds (0: no witness,
 * late all 0), or -EINVAL (t NULL, pid <= 0, tick_ns or period 0).
 */
long il_trace_late_ticks(const struct il_trace *t, int pid, uint64_t tick_ns,
			 uint64_t t0, uint64_t period, uint64_t *late, size_t n)
	__attribute__((warn_unused_result));
/* one account of run ns made at ts, added to late[] as
 * il_trace_late_ticks() adds each (for accounts kept without their
 * trace, engine.h long_acct_ts) */
void il_trace_late_add(uint64_t ts, uint64_t run, uint64_t tick_ns, uint64_t t0,
		       uint64_t period, uint64_t *late, size_t n);

/*
 * The longest time a CPU recorded nothing: between two of its switches
 * or run-time accounts (the records a CPU makes of itself; a migration
 * is recorded by another CPU, a wakeup maybe), from t0_ns to its first,
 * or from its last to t1_ns, over the CPUs below ncpus; a CPU with none
 * is silent from t0_ns to t1_ns.  A busy CPU makes a run-time account
 * at every tick, so a silence longer than a tick is an idle CPU, or one
 * that did not run: a vCPU the host held, whose stall is at most that
 * long.  Returns the silence in ns, or 0 when t is NULL, ncpus < 1 or
 * the traced span is not known (t0_ns or t1_ns 0).
 */
uint64_t il_trace_silence(const struct il_trace *t, int ncpus);

/*
 * A sleep the kernel charged as run time: a wakeup of pid made while
 * pid was, by the switches, still current on the CPU it is woken on
 * says pid slept without that CPU ever switching away from it, and
 * pid's run-time accounts then go on over the sleep (this machine's
 * kernel idles so in the sleeper's context, and a deadline task's sleep
 * is taken from its budget).  il_trace_woken_current() puts the times
 * of pid's wakeups made so into *wake (sorted; the caller frees it) and
 * returns how many, 0 with *wake NULL when none, or -EINVAL / -ENOMEM.
 * il_trace_accounted() is the run time pid's accounts put in [x, y]:
 * each account's run ([ts - run, ts]) overlapping it, counted for the
 * overlap.
 */
long il_trace_woken_current(const struct il_trace *t, int pid, uint64_t **wake)
	__attribute__((warn_unused_result));
uint64_t il_trace_accounted(const struct il_trace *t, int pid, uint64_t x,
			    uint64_t y);

/*
 * The time pid was on a CPU in [x, y] by the trace's switches: from each
 * switch to it to the next switch away from it, clipped to [x, y].  Its
 * state at x is the one its last switch before x left; with none, the
 * opposite of its first switch after x.  An upper bound on what it ran
 * (a sleep the kernel idled through in its context counts as running).
 * UINT64_MAX when the trace cannot tell: none, events lost, [x, y] not
 * inside what was traced, or no switch of pid at all.
 */
uint64_t il_trace_on_cpu(const struct il_trace *t, int pid, uint64_t x,
			 uint64_t y);

/*
 * Building a trace (the reader, and fixtures in tests): append a record
 * (kept in time order by il_trace_sort()), note a task's comm and
 * priority.  0 or -ENOMEM.
 */
int il_trace_add(struct il_trace *t, const struct il_trace_rec *r);
int il_trace_note_task(struct il_trace *t, int pid, const char *comm, int prio);
void il_trace_sort(struct il_trace *t);
/* free what t holds and zero it; t itself is the caller's */
void il_trace_free(struct il_trace *t);

/* ---- the recorder ------------------------------------------------------- */

struct il_tracer;

/*
 * The process's default mode, set by il_opt_parse() from --trace; the
 * engine uses it.
 */
void il_trace_set_default(enum il_trace_mode m);
enum il_trace_mode il_trace_default(void);

/*
 * Whether a recorder can be made here: 1, or 0 with the reason in why
 * (not built with libtracefs, not root, no tracefs in the kernel).
 */
int il_trace_available(char *why, size_t len);

/*
 * Make the instance for a run of about duration_ns and switch it on.
 * 0 with *out set, or -errno with why filled (nothing is left behind).
 */
int il_trace_start(uint64_t duration_ns, struct il_tracer **out, char *why,
		   size_t len);
/*
 * What a recorder records, to cut what it costs: only the CPUs given
 * (tracing_cpumask; every CPU when ncpus is 0), and the wakeups and
 * migrations of the threads given only (an event filter in the kernel;
 * every thread's when npids is 0; the waiter's migrations show a
 * proxy-execution donor moved to its owner's CPU: attrib.h).  Every
 * context switch of those CPUs and every priority change stays: who ran
 * and who was boosted is what the attribution needs.  switches_only
 * records nothing but the context switches (the calibration).  runtime
 * adds the scheduler's run-time accounting of the threads given
 * (sched_stat_runtime, IL_TR_RUNTIME; only with npids > 0): what of the
 * wall time they were on a CPU the kernel counts as theirs, the host's
 * steal taken off (il_trace_stalls_runtime()).  A scope the kernel
 * refuses is not an error: the recorder then records more.
 */
struct il_trace_scope {
	const int *cpus;
	int ncpus;
	const int *pids;
	int npids;
	bool switches_only;
	bool runtime;
};
int il_trace_start_scope(uint64_t duration_ns,
			 const struct il_trace_scope *scope,
			 struct il_tracer **out, char *why, size_t len);
/*
 * Switch it off (cheap: call it right after the measured part), then
 * read and parse what was recorded into t (zeroed first).  0, or -errno
 * with why filled; t holds what could be read.
 */
int il_trace_stop(struct il_tracer *tr, struct il_trace *t, char *why,
		  size_t len);
/* Remove the instance (and the mount, if this recorder made it). */
void il_trace_close(struct il_tracer *tr);

#endif
