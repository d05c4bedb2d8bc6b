/* SPDX-License-Identifier: MIT */
/*
 * The affinity check: a task pinned to one CPU runs only there.
 *
 * Proxy execution may move a blocked task (a donor) to its lock owner's
 * CPU, outside its affinity, so that the owner can run on its behalf;
 * the donor itself never runs there (the trace's switch names the owner)
 * and is sent back when it wakes (the return migration).  So a switch to
 * the task on any other CPU is the kernel running it outside its
 * affinity: a fact of the trace, whatever the host did.
 */
#ifndef INVLAB_AFFINITY_H
#define INVLAB_AFFINITY_H

#include <stdint.h>

#include <invlab/engine.h>
#include <invlab/trace.h>
#include <invlab/verdict.h>

/*
 * Moves off its CPU the trace must show it back from before a PASS: a
 * donor is moved seldom (4 to 6 times in 3 s of kmutex cross-cpu under
 * TCG, docs/faults.md), and each return seen is the guarantee kept.
 */
#define IL_AFFINITY_MIN_RETURNS 1

/* fill p from trace t for task pid pinned to cpu, from from_ns on */
void il_affinity_tally(const struct il_trace *t, int pid, int cpu,
		       uint64_t from_ns, struct il_affinity *p);

/*
 * The verdict on p for task: FAIL when it ran on another CPU, PASS when
 * it was moved off its CPU at least IL_AFFINITY_MIN_RETURNS times and
 * next ran on its own each time, UNDECIDED with fewer.  NONE (0) when p
 * was not filled from a trace or shows the task neither moved nor
 * elsewhere: nothing to judge.  -EINVAL on a NULL argument.
 */
int il_check_affinity(const struct il_affinity *p, const char *task,
		      struct il_check *out);

#endif
