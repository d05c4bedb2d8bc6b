/* SPDX-License-Identifier: MIT */
/*
 * A recorded trace (trace.h) made into what people look at
 * (docs/tracing.md, "Looking at it"):
 *
 *   - il_trace_export_chrome(): the whole trace as a Chrome JSON
 *     trace-event file, which ui.perfetto.dev and chrome://tracing open:
 *     one lane per CPU with who ran there ("X" complete events), one lane
 *     per task of the scenario with its running slices and its lock
 *     requests, boosts and acquisitions ("i" instant events), the rounds
 *     and the waits on lanes of their own, and the names ("M" metadata);
 *
 *   - il_timeline_worst(): the worst wait of one task as a small plain
 *     structure (the lanes of the tasks that ran on the scenario's CPUs
 *     during it, the request, boost and acquisition, the bound), kept in
 *     the result file by il_timeline_json() so that it can be drawn
 *     offline (invlab-plot --timeline).
 *
 * Pure functions over plain data: nothing here measures, prints to the
 * user or exits.  Timestamps in the Chrome file are microseconds from the
 * trace's start (t0_ns, written in "otherData"), with three decimals, so
 * no nanosecond is lost.
 */
#ifndef INVLAB_TRACE_EXPORT_H
#define INVLAB_TRACE_EXPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <invlab/trace.h>
#include <invlab/verdict.h>

/* a task of the scenario, as the exporters see it */
struct il_export_task {
	const char *name;
	int tid;   /* the thread it ran as (0: never started) */
	int kprio; /* its own kernel priority (il_trace_kprio) */
	int cpu;   /* the one CPU it was pinned to, or -1 */
	/* for the timeline: "waiter", "holder", "lower" or "higher"
	 * (attrib.h's roles for the waiter drawn); NULL: not known */
	const char *role;
	const char *resource; /* the lock of its waits, or NULL */
	/* its first lock's waits (engine.h), or NULL */
	const struct il_wait_sample *waits;
	size_t nwaits;
};

struct il_export_input {
	const struct il_trace *trace;
	const char *title; /* "pi-classic inherit": the scenario's lane group */
	int pid; /* the process the tasks are threads of (0: unknown) */
	const struct il_export_task *tasks;
	size_t ntasks;
	/* the rounds (engine.h round_t, round_end_t), or none */
	const uint64_t *round_start, *round_end;
	size_t nrounds;
};

/*
 * Write in->trace as a Chrome JSON trace-event file to f.  0, -EINVAL
 * (no trace), -ENOMEM, or -EIO when f could not be written.
 */
int il_trace_export_chrome(FILE *f, const struct il_export_input *in);

/*
 * The pids (process ids) of the lane groups that are not real
 * processes: the CPUs (each CPU's lane is IL_EXPORT_CPU_PID + 1 + cpu),
 * and the scenario's when in->pid is 0.  Above any pid_max (2^22).
 */
#define IL_EXPORT_CPU_PID  (1 << 30)
#define IL_EXPORT_SCEN_PID ((1 << 30) + (1 << 21))
/* the scenario's extra lanes: rounds, then each task's waits */
#define IL_EXPORT_ROUNDS_TID ((1 << 30) + (1 << 20))

/* ---- the worst wait, for a timeline ------------------------------------ */

#define IL_TL_MAX_LANES	 8
#define IL_TL_MAX_SLICES 32
#define IL_TL_MAX_BOOSTS 4
#define IL_TL_NONE	 UINT64_MAX

/*
 * A piece of time a lane's task ran, in ns from the window's start;
 * ran_ns is to_ns - from_ns unless pieces were merged into it.
 */
struct il_tl_slice {
	uint64_t from_ns, to_ns, ran_ns;
	int cpu;
};

struct il_tl_lane {
	char name[24];	 /* the scenario's task name, or the comm */
	int pid;	 /* its thread id */
	int kprio;	 /* the kernel priority it ran at (first seen) */
	char role[12];	 /* "waiter", "holder", "lower", "higher", "foreign" */
	int higher;	 /* foreign and at or above the waiter: interference */
	uint64_t ran_ns; /* in the window */
	size_t nslices;
	/* past IL_TL_MAX_SLICES the two slices closest together are merged
	 * into one (merged counts how often), which keeps the time run in
	 * ran_ns: a task that ran 17 us every 200 us is not drawn busy */
	size_t merged;
	struct il_tl_slice s[IL_TL_MAX_SLICES];
};

/*
 * One wait and who ran around it.  Times are ns from t0_ns (the window's
 * start, CLOCK_MONOTONIC); IL_TL_NONE when there is no such moment.
 */
struct il_timeline {
	char waiter[24];
	char resource[24];
	uint64_t t0_ns, span_ns;
	uint64_t release_ns, request_ns, acquired_ns;
	uint64_t delay_ns; /* release -> acquired, as judged */
	/* the holder's own acquisition of the lock before the request */
	uint64_t locked_ns;
	char locker[24];
	/* the first boost of another scenario task inside the wait */
	uint64_t boost_ns;
	char boosted[24];
	int boost_from, boost_to; /* kernel priorities */
	/* each boosted task's first boost in the wait, in time order (the
	 * links of a chain); boosts[0] is the one above */
	size_t nboosts;
	struct il_tl_boost {
		uint64_t at_ns;
		char task[24];
		int from, to;
	} boosts[IL_TL_MAX_BOOSTS];
	uint64_t bound_ns, noise_ns; /* the check's (0: none) */
	size_t nlanes;
	struct il_tl_lane lanes[IL_TL_MAX_LANES];
	uint64_t others_ns; /* foreign tasks beyond the lanes */
};

/*
 * The worst wait (largest delay inside the trace, not timed out) of
 * in->tasks[w] into tl, with lanes for every task of the scenario first
 * (in order) and then the foreign tasks that ran most on the scenario's
 * CPUs (all CPUs when no task is pinned) in the window: the wait, from
 * the holder's acquisition when it is close, with a margin of an eighth
 * each side.  bound_ns and noise_ns are copied in.  0, -EINVAL, or
 * -ENOENT when the trace covers no wait of that task.
 */
int il_timeline_worst(const struct il_export_input *in, size_t w,
		      uint64_t bound_ns, uint64_t noise_ns,
		      struct il_timeline *tl);

/* tl as a member of the JSON object being written (docs/results.md) */
struct il_json;
void il_timeline_json(struct il_json *j, const char *key,
		      const struct il_timeline *tl);

/*
 * A configuration's name as a file name: letters, digits, '-', '_' and
 * '.' kept, anything else '_', never empty, never "." or "..".
 */
void il_export_file_name(char *buf, size_t len, const char *name);

#endif
