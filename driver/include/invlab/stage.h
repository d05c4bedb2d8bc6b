/* SPDX-License-Identifier: MIT */
/*
 * The narrated mode for talks (--stage): one round of the scenario told
 * line by line ("low takes M", "high asks for M", "medium spins 20.0ms",
 * "high waited 21.6ms ...: inversion") from what the engine noted while
 * it ran, in the scenario's own task, resource and event names, so every
 * demo and job file is narrated the same way.
 *
 * Cost on the measured path: the engine notes one round only, the one
 * the caller names (il_stage_notes.round; for tasks without rounds, that
 * job of each task).  In every other job the cost is one comparison per
 * job and one test of a NULL pointer per phase; in the noted job, two
 * clock reads per phase and plain stores into this task's own slots (no
 * lock, no shared counter, no system call).  The narration is read and
 * paced by another thread once the round is over, so the audience reads
 * at its pace while the run goes on measuring.  A stage run is judged as
 * any other run.
 */
#ifndef INVLAB_STAGE_H
#define INVLAB_STAGE_H

#include <stddef.h>
#include <stdint.h>

#include <invlab/notes.h>
#include <invlab/scenario.h>

#define IL_STAGE_MAX_LINES 96

struct il_stage_line {
	uint64_t t_ns; /* from the round's first release */
	int task;      /* who it is about, -1: the round */
	char text[160];
};

/*
 * The story of the noted round of sc, in time order: what each task did
 * at each phase (quick lock requests and their acquisitions merged into
 * one line), then, for each task whose first lock came late, one line of
 * how long it waited and whether that was longer than its holder's own
 * work in the critical section allows: "high waited 21.6ms from its
 * release for M, where low needs 2.00ms: inversion", or "...: bounded".
 * That word tells one round, not the verdict (the judge gives that over
 * every round).  Returns the number of lines (at most max).  Pure.
 */
int il_stage_story(const struct il_scenario *sc, const struct il_stage_notes *n,
		   struct il_stage_line *lines, int max);

/*
 * The pause between configurations, from --stage-pause: "key" (Enter;
 * *ns = UINT64_MAX) or a duration ("5s", "0": none).  0 or -EINVAL.
 */
int il_stage_parse_pause(const char *s, uint64_t *ns);

#endif
