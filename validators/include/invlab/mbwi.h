/* SPDX-License-Identifier: MIT */
/*
 * The multiprocessor bandwidth inheritance (M-BWI) guarantees of docs/theory.md
 * section 4, item 5, as pure checks on SCHED_DEADLINE tasks: bandwidth
 * preservation, temporal isolation, and the interference bound with its
 * hard guarantee.  Like validate.h and chain.h they take a description of
 * the scenario and what was measured, and return numbers or a verdict;
 * they never measure, print or exit.  docs/m-bwi.md gives the theory,
 * the sources and the verdicts to expect on which kernel.
 *
 * Notation (Faggioli, Lipari, Cucinotta, ECRTS 2010 / RTS 2012): task i
 * has a reservation (a constant bandwidth server) of runtime Q_i every
 * period P_i with relative deadline D_i, and needs C_i of CPU time per job,
 * its own critical sections included.  U_l is the set of tasks that lock
 * l, N_{i,l} how often a job of i requests l, L_{j,l} the CPU time of j's
 * longest outermost section on l (its own work, including the work it
 * does while holding locks nested in l, excluding the time it waits for
 * them).
 */
#ifndef INVLAB_MBWI_H
#define INVLAB_MBWI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <invlab/hist.h>
#include <invlab/verdict.h>

/* ------------------------------------------------------------------ */
/* Bandwidth preservation                                              */
/* ------------------------------------------------------------------ */

/*
 * A server may consume at most n * Q_i + tick over any n consecutive
 * periods: budget is enforced when the kernel next accounts it (a tick, or
 * an hrtick), the overrun is then owed and taken off the next
 * replenishment, so at most one overrun is outstanding in any window.
 */
struct il_bw_window {
	size_t first;	      /* index of the window's first period */
	size_t count;	      /* n: the window's length in periods */
	uint64_t consumed_ns; /* budget consumed in the window */
	int64_t excess_ns;    /* consumed - n * Q; > 0 is beyond the budget */
};

/*
 * The window of consecutive periods, of any length 1..n, that consumed
 * most beyond its budget: the maximum over all windows of
 *   sum_{k in window} (consumed[k] - Q),
 * found in one pass (a maximum-sum subarray: the best window ending at
 * period k either extends the best one ending at k - 1 or starts afresh),
 * so all n(n+1)/2 windows are judged in O(n).  Of equal windows the one
 * that ends first is kept.  consumed[k] is the budget used in period k of
 * the reservation, 0 for a period without a job: the reservation's, not
 * the task's, which differ where an owner runs on a donor's budget
 * (docs/m-bwi.md says which to feed on which kernel).  Returns 0, -EINVAL
 * (n == 0, NULL pointers) or -ERANGE (a value or sum beyond 2^63 ns).
 */
int il_bw_worst_window(const uint64_t *consumed_ns, size_t n,
		       uint64_t runtime_ns, struct il_bw_window *w);

struct il_bw_input {
	const char *task;    /* named in the evidence */
	uint64_t runtime_ns; /* Q */
	uint64_t period_ns;  /* P, for the evidence */
	uint64_t tick_ns;    /* 1/HZ of the kernel under test */
	uint64_t noise_ns;   /* measurement allowance of this run */
	size_t min_periods;  /* fewer periods and no violation: UNDECIDED */
	/*
	 * Host steal in each period (NULL: none measured), as many as the
	 * consumption.  A thread's CPU clock can be charged some of the
	 * time its vCPU was stolen: measured here, a 2 ms job read 9.2 ms
	 * of CPU across a 20 ms step of steal.
	 */
	const uint64_t *steal_ns;
	/*
	 * The resolution of those figures: one step of the host's steal
	 * counter (1/USER_HZ, 10 ms), 0 when exact.  A period's steal can
	 * read up to a step short, so on a host that stole during the run
	 * (steal_ns not all 0) a window's excess within one step more is
	 * not shown to be the kernel's.
	 */
	uint64_t steal_step_ns;
	/*
	 * The host steal in periods [first, first + count) taken as one
	 * span (NULL: the sum of steal_ns).  Each period's figure is the
	 * steal of the stretch of the counter's timeline around it, and a
	 * stretch longer than a period (the sampler kept off its CPU)
	 * counts once in every period it spans: summed over a window, the
	 * same steal counted many times (measured here: 4.27 s "stolen" in
	 * 75 periods of 20 ms).  A window the sum excuses is judged again
	 * with its steal counted once.
	 */
	uint64_t (*steal_window)(const void *ctx, size_t first, size_t count);
	const void *steal_ctx;
	/*
	 * How much later than one tick the kernel's accounting of the task
	 * came in each period (NULL: no trace of its accounts), as many as
	 * the consumption (il_trace_late_ticks): the throttle comes at an
	 * account, so a CPU that took no tick for that long (a vCPU the
	 * host held without its steal counted: measured here, a 3.5 ms job
	 * read 9.35 ms of CPU with no steal read) let the task run that
	 * much past its budget, and the CPU clock counted it.
	 */
	const uint64_t *late_tick_ns;
	/*
	 * The time in each period the task may have run on another
	 * reservation's parameters (NULL: none measured), as many as the
	 * consumption: a deadline task was blocked on a pthread mutex this
	 * task takes, and a PI futex gives its holder the waiter's deadline
	 * and runtime, replenished and not throttled (deadline inheritance),
	 * so a holder behind its releases can run past its Q while a waiter
	 * blocks on it.  The waiter's blocked time, at most its Q per
	 * blocked job (what M-BWI lets a holder take from a waiter's
	 * reservation): an upper bound, the holder need not have run all of
	 * it.
	 */
	const uint64_t *lent_ns;
	/*
	 * The periods are the task's own (t0 + k P, from its releases),
	 * not the kernel's: the CBS replenishes at a wakeup past the
	 * deadline (now + D) and at the deadline of a throttled task, so
	 * its periods start a wake-up latency or more after the task's.
	 * A window of n of the task's periods then overlaps n + 1 of the
	 * kernel's, which grant up to (n + 1) Q + tick (measured here: a
	 * 3.5 ms job of a 4 ms reservation read 8.59 ms in one of its
	 * periods, its budget having run out once in each of two of the
	 * kernel's).  Set: beyond n Q + tick + noise by no more than one
	 * Q more is UNDECIDED, not FAIL.
	 */
	bool unaligned;
};

/*
 * Judge per-period consumption against n * Q + tick over every window:
 *  - the worst window exceeds n * Q + tick + noise, with the host steal
 *    of its periods, the ticks' lateness and the time lent taken off:
 *    FAIL;
 *  - it exceeds it only with that steal counted, or with the steal off
 *    by no more than one steal_step_ns past it on a host that stole
 *    during the run, or only with the ticks' lateness (late_tick_ns)
 *    or the time lent by blocked deadline waiters (lent_ns) counted:
 *    UNDECIDED;
 *  - it exceeds n * Q + tick only by measurement noise: UNDECIDED;
 *  - with unaligned set, it exceeds n * Q + tick + noise by no more
 *    than one Q (with steal and lateness taken off as above): UNDECIDED;
 *  - otherwise PASS, given at least min_periods periods (else UNDECIDED).
 * out->bound_ns = n * Q + tick and out->worst_ns = the consumption, both
 * of the worst window; worst (may be NULL) receives the window.  Returns
 * 0, -EINVAL or -ERANGE as il_bw_worst_window() (n == 0 is a verdict,
 * UNDECIDED, not an error).
 */
int il_check_bandwidth(const struct il_bw_input *in,
		       const uint64_t *consumed_ns, size_t n,
		       struct il_check *out,
		       struct il_bw_window *worst) IL_MUST_CHECK;

/* ------------------------------------------------------------------ */
/* The task set                                                        */
/* ------------------------------------------------------------------ */

/* Limits of one set: the engine's are 16 tasks and 16 resources. */
#define IL_MBWI_MAX_TASKS 32
#define IL_MBWI_MAX_LOCKS 32

/*
 * One task: its reservation and declared demand, and what was measured
 * (for the checks that judge deadline misses).  A task with runtime_ns 0
 * has no reservation (SCHED_FIFO, SCHED_OTHER): it takes part in lock
 * sharing but is neither counted for schedulability nor judged.
 */
struct il_mbwi_task {
	const char *name;
	uint64_t runtime_ns;  /* Q */
	uint64_t deadline_ns; /* D, relative; runtime <= deadline <= period */
	uint64_t period_ns;   /* P */
	int cpu;	  /* partitioned: the CPU of its partition; else -1 */
	uint64_t wcet_ns; /* C: declared CPU time per job (0: unknown) */
	int misbehaves;	  /* declared to overrun its C or a section */

	/* measured */
	uint64_t jobs;
	uint64_t misses;	    /* finished after release + D */
	uint64_t late_misses;	    /* of those, after release + D + noise */
	uint64_t worst_response_ns; /* largest finish - release */
	uint64_t cpu_max_ns;	    /* largest CPU time of a job (0: unknown) */
	/*
	 * Of its late misses, the latest release and the earliest end (any
	 * clock; 0 and 0: not known job by job).  When every late miss of
	 * the set is known so and one instant finds them all pending, one
	 * stall at that instant explains them as well as the kernel:
	 * UNDECIDED, not FAIL (one_burst in mbwi.c).
	 */
	uint64_t late_rel_max_ns, late_end_min_ns;
	/* of its late misses, the most one was late by (response - D),
	 * known with them; the misses set aside are not in it */
	uint64_t late_worst_ns;
	/*
	 * Each late miss attested by the scheduler's trace: tasks the
	 * reservations rank below the job ran while it waited to run.  No
	 * stall outside the set does that, so one_burst never excuses them.
	 */
	int late_attested;
	/* how many of its late misses the trace attests so: when more than
	 * a host's stalls make (the binomial rule), one_burst does not
	 * excuse the others either */
	uint64_t late_attested_n;
	/* how many of its late misses the trace saw whole (attested or
	 * not): when it saw every one and attests too few of them for a
	 * pattern, the rest are not shown to be the kernel's */
	uint64_t late_seen_n;
	/*
	 * Of its misses, those by no more than the calibration in which the
	 * trace shows nothing of the kernel's choice (nothing the
	 * reservations rank below the job ran while it waited, its CPUs did
	 * not idle while it had budget left).  When it is every miss, the
	 * misses are not the kernel's: PASS on the trace (judge in mbwi.c).
	 */
	uint64_t misses_kept;
	/*
	 * Of its late misses, those after the kernel charged the task's
	 * sleep to its reservation beyond its slack Q - C (the trace: woken
	 * while still current on its CPU, its run-time accounts going on
	 * over the sleep; il_trace_woken_current).  Still the kernel's
	 * doing, and a FAIL: the evidence names the accounting as the cause.
	 */
	uint64_t late_charged;
};

/*
 * The set the interference and isolation checks are about.  Matrices are
 * row-major, one row per task:
 *
 *   N[i * nlocks + l]     requests of lock l per job of task i (0: i does
 *                         not use l); U_l = { i : N[i][l] > 0 }
 *   L[j * nlocks + l]     L_{j,l} in ns; read only where N[j][l] > 0
 *   nest[(j * nlocks + l) * nlocks + m]
 *                         non-zero when task j requests m while it holds l,
 *                         directly (not through a lock in between; the
 *                         recursion adds those); NULL: nothing is nested
 *
 *   hold_max[j * nlocks + l]
 *                         measured: CPU time of j's longest section on l,
 *                         nested waits included; NULL: not measured
 *
 * N and L may be NULL when nlocks is 0.  A task "misbehaves" when it is
 * declared to, or was measured to: a section on l took more CPU time than
 * Lhat_{j,l} + noise_ns (hold_max, where known), or a job more than
 * C + I + noise_ns (cpu_max_ns, where it and C are known).  The measured
 * CPU time of a job is held against C + I, not C, because a waiter's own
 * CPU time includes time it spends spinning on an owner that runs on
 * another CPU (rt_mutex_slowlock_block() spins on a running owner, and
 * M-BWI lets a blocked task busy-wait in its server the same way): that
 * time is interference, bounded by I, not an overrun.
 * The C the guarantees use is wcet_ns, or where it is 0 the measured
 * cpu_max_ns (which may include spinning, so C + I then counts it twice:
 * fewer tasks are covered, never more); a task with neither has no known
 * demand and is not judged.
 */
struct il_mbwi_set {
	const struct il_mbwi_task *tasks;
	size_t ntasks;
	size_t nlocks;
	const unsigned *N;
	const uint64_t *L;
	const unsigned char *nest;
	const uint64_t *hold_max;
	int ncpus;	 /* m: CPUs of the root domain (global EDF) */
	double cap;	 /* share of each CPU deadline tasks may use, (0, 1] */
	int partitioned; /* tasks pinned through cpuset partitions */
	uint64_t noise_ns;
	uint64_t min_jobs; /* fewer jobs in a judged task: UNDECIDED */
	/*
	 * The longest time a CPU's trace was silent (il_trace_silence):
	 * no stall was longer.  0: no trace, not known.  A stall of S
	 * delays a job by at most 2 S on a set its CPUs can serve (what
	 * piled up in S clears in S more), so one_burst excuses no task
	 * late by more than 2 S + noise_ns.
	 */
	uint64_t silence_ns;
};

/* ------------------------------------------------------------------ */
/* Schedulability of the reservations                                  */
/* ------------------------------------------------------------------ */

/*
 * Densities in fixed point, 2^IL_DL_BW_SHIFT == 1.0 (the kernel's to_ratio()
 * uses 2^20).  A task's density Q / min(D, P) is rounded up and the cap
 * down, so the tests stay sufficient: at an exact boundary that is not a
 * multiple of 2^-32 they answer "not schedulable" (off by at most one
 * unit per task), never the other way.
 */
#define IL_DL_BW_SHIFT 32
#define IL_DL_BW_ONE   (1ull << IL_DL_BW_SHIFT)

enum il_dl_test {
	IL_DL_PARTITIONED, /* EDF on each CPU: sum density <= cap */
	IL_DL_GLOBAL_GFB,  /* global EDF: sum <= m cap - (m - 1) max */
};

struct il_dl_sched {
	enum il_dl_test test;
	const char *name;  /* "partitioned EDF" or "global EDF (GFB)" */
	int schedulable;   /* 1: every reservation meets its deadlines */
	int cpu;	   /* partitioned: the most loaded CPU; -1 global */
	uint64_t load_bw;  /* sum of densities: that CPU's, or all */
	uint64_t limit_bw; /* cap, or m cap - (m - 1) max (0 if negative) */
	uint64_t max_bw;   /* largest density */
	char desc[192];	   /* the test with its numbers, for evidence */
};

/*
 * Is the set of reservations (tasks with runtime_ns > 0) hard-schedulable?
 *
 *   partitioned (set->partitioned; every reserved task has a cpu in
 *   [0, ncpus)): on every CPU, sum_{i on it} Q_i / min(D_i, P_i) <= cap.
 *   EDF on one CPU is exact for D == P and sufficient for D < P.
 *
 *   global (otherwise): Goossens, Funk and Baruah's test for global EDF
 *   on m CPUs, with densities (sufficient for D <= P):
 *       sum_i delta_i <= m * cap - (m - 1) * delta_max
 *   The cap is applied as if each CPU ran at speed cap (scale every
 *   density by 1 / cap and apply GFB); with cap == 1 it is GFB itself.
 *
 * cap comes from sched_rt_runtime_us / sched_rt_period_us (0.95 by
 * default; 1.0 for -1).  Returns 0 with out filled, or -EINVAL (no CPUs,
 * cap outside (0, 1], runtime > deadline or > period, a partitioned task
 * without a valid cpu) or -ERANGE (a time beyond 2^63 ns).
 */
int il_dl_schedulable(const struct il_mbwi_set *set, struct il_dl_sched *out);

/* ------------------------------------------------------------------ */
/* Interference (M-BWI)                                                */
/* ------------------------------------------------------------------ */

/*
 * The longest time task j can hold lock l, waits for nested locks
 * included:
 *   Lhat_{j,l} = L_{j,l}
 *              + sum_{m nested in l by j} sum_{k in U_m \ j} Lhat_{k,m}
 * into lhat[j * nlocks + l], 0 where j does not use l.  Returns 0, -EINVAL,
 * -ELOOP when the nesting is circular across tasks (a lock order that can
 * deadlock: there is no bound) or -ERANGE past 64 bits.
 */
int il_mbwi_lhat(const struct il_mbwi_set *set, uint64_t *lhat);

/*
 * The interference bound of every task: the time other tasks can execute
 * in task i's reservation, holding a lock i waits for:
 *   I_i = sum_l N_{i,l} sum_{j in U_l \ i} Lhat_{j,l}
 * interference[i] for i < ntasks.  Same returns as il_mbwi_lhat().
 */
int il_mbwi_interference(const struct il_mbwi_set *set, uint64_t *interference);

/*
 * Does task i share a lock, directly or through a chain of tasks that
 * share locks, with a misbehaving task (or misbehave itself)?  Sharing is
 * taken as symmetric and transitive over all locks (connected components
 * of the task-lock graph), which is wider than what can actually block
 * i: it can only make fewer tasks count as isolated, never more.
 * Returns 1 with *culprit set to such a task (i itself when it
 * misbehaves), 0 when i is isolated, -EINVAL, or the errors of
 * il_mbwi_interference() (measured misbehaviour needs Lhat and I).
 * culprit may be NULL.
 */
int il_mbwi_tainted(const struct il_mbwi_set *set, size_t i, size_t *culprit);

/* ------------------------------------------------------------------ */
/* Verdicts on deadline misses                                         */
/* ------------------------------------------------------------------ */

/* How one task was judged by il_check_isolation / il_check_interference. */
struct il_mbwi_task_verdict {
	enum il_verdict verdict;
	int judged;		  /* the guarantee applies to it */
	uint64_t interference_ns; /* I_i */
	uint64_t demand_ns;	  /* C_i + I_i */
	char why[160];		  /* why it was not judged, or its result */
	int by_trace; /* PASS on the trace's EDF order, despite misses */
};

/*
 * Temporal isolation: a reserved task that shares no lock, directly or
 * through a chain, with a misbehaving task, and whose own demand fits its
 * budget (C_i + I_i <= Q_i, I_i from the locks it does share), has no
 * deadline miss, provided the reservations are hard-schedulable
 * (il_dl_schedulable()).  The verdict:
 *   - the set is not hard-schedulable: UNDECIDED, "isolation not
 *     guaranteed: <test> fails: ...", whatever the misses;
 *   - a judged task missed a deadline by more than noise: FAIL;
 *   - no judged task (every one shares a lock with a misbehaving task or
 *     needs more than its budget): UNDECIDED;
 *   - a judged task missed only within noise, or ran fewer than min_jobs
 *     jobs: UNDECIDED, unless each of its misses is one the trace shows
 *     nothing of the kernel's choice in (misses_kept): those are not the
 *     kernel's, and the task counts as met (its verdict's by_trace set);
 *   - otherwise PASS (out->by_trace when a task's misses were so).
 * Tasks that are not judged never make the verdict; their misses are
 * still named in the evidence.  out->bound_ns is D and out->worst_ns the
 * worst response time of the deciding task (the latest one, or on PASS
 * the one with least slack).  per_task (may be NULL) gets ntasks entries.
 * Returns 0, or the errors of il_dl_schedulable() and il_mbwi_lhat().
 */
int il_check_isolation(const struct il_mbwi_set *set, struct il_check *out,
		       struct il_mbwi_task_verdict *per_task) IL_MUST_CHECK;

/*
 * The hard guarantee of M-BWI: a reserved task that uses locks, with
 * Q_i >= C_i + I_i, in a hard-schedulable set, misses no deadline.
 * Judged: reserved tasks with a lock, a known C, Q_i >= C_i + I_i, and
 * no misbehaving task within reach (its sections are what bounds I_i).
 * Tasks for which the condition does not hold are not judged: the
 * guarantee says nothing about them, so their misses can never be a FAIL,
 * and they do not make the verdict either (a check of a set in which
 * only some tasks are covered would otherwise never PASS); with none
 * covered the verdict is UNDECIDED.  The rest as il_check_isolation().
 */
int il_check_interference(const struct il_mbwi_set *set, struct il_check *out,
			  struct il_mbwi_task_verdict *per_task) IL_MUST_CHECK;

/*
 * Deadline misses of a task from its response-time histogram: misses
 * counts responses surely above deadline_ns, late those surely above
 * deadline_ns + noise_ns (a bucket counts when its lowest value is above
 * the limit), so the count of real misses is never overstated; worst is
 * the exact largest response.  The engine's exact miss count, where it
 * has one, is the better misses.  Any pointer may be NULL but h.
 */
void il_mbwi_misses_from_hist(const struct il_hist *h, uint64_t deadline_ns,
			      uint64_t noise_ns, uint64_t *misses,
			      uint64_t *late, uint64_t *worst_response_ns);

#endif
