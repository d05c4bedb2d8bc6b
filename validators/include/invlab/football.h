/* SPDX-License-Identifier: MIT */
/*
 * The rt-football invariant on the scheduler's trace (football.c,
 * docs/rt-football.md, docs/theory.md "The top N run"): on N CPUs, the
 * N highest-priority runnable real-time tasks of the scenario are always
 * the ones running.  A pure function of a trace and the scenario's tasks.
 *
 * The trace is replayed in time order.  A task is running from the
 * switch that puts it on a CPU, waiting (runnable, not running) from its
 * sched_wakeup or a switch out in state R, blocked from a switch out in
 * any other state; a task not seen yet is in no state and never counted.
 * At each instant a waiting task W is deprived when fewer than N
 * runnable tasks (running or waiting) rank above it, so it is one of
 * the N highest, and some running task ranks below it, on any CPU.  An
 * episode is a stretch of time in which one task stays deprived; its
 * start, the deprived task and the lowest-ranked task running then (and
 * its CPU) are its evidence.
 *
 *   FAIL       some episode lasted longer than the tolerance plus the
 *              host's steal on the machine while it lasted, other than
 *              the late preemptions set aside or chosen at once (below)
 *   UNDECIDED  no trace (the reason given), a trace that lost events, a
 *              task that never started; an episode over the tolerance
 *              that steal covers; a tolerance too large to tell an
 *              inversion of detect_ns from noise (il_noise_swamps); fewer
 *              wakeups of the scenario's tasks than min_wakeups (the game
 *              never formed)
 *   PASS       every episode within the tolerance, enough wakeups
 *
 * Where the deprived task is queued tells two kinds apart.  Queued
 * behind a task ranked at or above it (of the scenario or not), it
 * was put where it cannot run while a lower task runs elsewhere: the
 * placement the invariant is about, and an episode queued so for longer
 * than the tolerance counts.  Queued on a CPU that runs only tasks
 * ranked below it, it was put in the right place and that CPU has not
 * switched to it yet (interrupts, softirqs, a non-preemptible kernel
 * section, the host): a late preemption, one wakeup-to-run latency,
 * the quantity the calibration samples.  An episode queued behind for
 * no longer than the tolerance (the kernel's push to the right CPU is
 * one such latency) and on the right CPU the rest is a late preemption
 * too.  Its p999 is passed one time in
 * a thousand by the calibration itself, so such episodes over the
 * tolerance are set aside as noise while there are at most one in a
 * thousand of the episodes, plus one, and each stays within
 * IL_NOISE_MAX_PERCENT of detect_ns; more, or a longer one, count.
 *
 * Where the trace shows the kernel's choice, the rate does not matter:
 * a late preemption whose wakeup was made on the CPU it queued on with
 * a reschedule pending there (the event's need-resched flag, trace.h),
 * and whose CPU's next switch was to it, was chosen at once; the wait
 * is that CPU's lag in acting on it (interrupt exit, a section without
 * preemption, or the host), counted apart (dispatch) and never a FAIL.
 * A switch there to another task first is the kernel's choice, and the
 * episode is judged as before.
 *
 * Only the scenario's tasks rank; foreign tasks and idle are neither
 * deprived nor lower (a CPU running one is not running a lower task of
 * the scenario).
 */
#ifndef INVLAB_FOOTBALL_H
#define INVLAB_FOOTBALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <invlab/trace.h>
#include <invlab/verdict.h>

struct il_football_task {
	const char *name;
	int32_t tid; /* its thread in the trace; <= 0: never started */
	int rank;    /* higher runs first (il_model_rank) */
	/* it may run on every CPU (placement any): queued behind a task at
	 * or above it, it could have moved to the CPU of a lower task */
	bool movable;
};

struct il_football_input {
	const struct il_trace *trace; /* NULL: none, no_trace says why */
	const char *no_trace;
	const struct il_football_task *tasks;
	size_t ntasks;
	int ncpus; /* N: the CPUs the scenario runs on */
	/*
	 * How long a deprived task may wait and still be served in time:
	 * one wakeup-to-run latency (the calibration's p999,
	 * docs/theory.md "The top N run").
	 */
	uint64_t tolerance_ns;
	/* the shortest inversion the scenario means to show (one job of
	 * its top tasks): a tolerance over IL_NOISE_MAX_PERCENT of it
	 * cannot tell one from noise */
	uint64_t detect_ns;
	size_t min_wakeups;
	/* the host's steal, cumulative steal_v ns at times steal_t (a
	 * timeline in time order; nsteal 0: none measured) */
	const uint64_t *steal_t, *steal_v;
	size_t nsteal;
	/*
	 * Where CPUs stalled, witnessed by the set's late timers (trace.h,
	 * il_trace_stalls; NULL: none known).  The time a deprived task was
	 * queued on a CPU of lower tasks while that CPU stalled is not
	 * counted against the tolerance: that CPU ran nothing then.  Nor,
	 * for a movable task queued behind a task at or above it, the time
	 * the one CPU running lower tasks stalled: that CPU could neither
	 * take it (the kernel's move needs its run queue) nor switch to it.
	 * With lower tasks on several CPUs, none excuses it.
	 */
	const struct il_trace_stalls *stalls;
};

struct il_football_episode {
	uint64_t start_ns, dur_ns;
	int task;  /* the deprived task (index into tasks) */
	int lower; /* the lowest-ranked task running at the start */
	int cpu;   /* where it ran */
	uint64_t steal_ns;
	uint64_t stalled_ns; /* of it, queued on a stalled CPU of lower tasks */
};

struct il_football_stats {
	size_t wakeups;	      /* of the scenario's tasks */
	size_t episodes;      /* all of them, however short */
	size_t over;	      /* longer than the tolerance */
	size_t stolen;	      /* of over: covered by steal */
	size_t late;	      /* of over: late preemptions set aside */
	size_t dispatch;      /* of over: late preemptions the kernel chose
				 at once (the CPU's lag, not counted) */
	size_t stalled;	      /* longer than the tolerance only by the time
				 their CPU stalled (not in over) */
	size_t repaired;      /* switches that contradicted the state (a switch
				 missing from the trace): state taken from them */
	uint64_t deprived_ns; /* summed over the episodes */
	uint64_t longest_ns;  /* the longest episode */
	struct il_football_episode worst;      /* the longest beyond steal */
	struct il_football_episode worst_late; /* the longest late one */
	struct il_football_episode worst_dispatch; /* the longest such lag */
	struct il_football_episode worst_stalled;  /* the most stalled one */
};

/*
 * Judge in into out (and st when not NULL).  0 with a verdict, -EINVAL
 * on bad arguments or -ENOMEM (out then has no verdict).
 */
int il_football_check(const struct il_football_input *in,
		      struct il_football_stats *st,
		      struct il_check *out) IL_MUST_CHECK;

#endif
