/* SPDX-License-Identifier: MIT */
/*
 * What the engine notes of one round for a narration (il_engine_opts.notes,
 * --stage): per task, the release, start and end of its noted job and the
 * time each phase began and ended.  The engine writes these (engine-job.c);
 * the driver's stage mode (stage.h) reads them once the round is over.
 * Types only.
 */
#ifndef INVLAB_NOTES_H
#define INVLAB_NOTES_H

#include <stdint.h>

#include <invlab/scenario.h>

/* What one task's noted job did; times are CLOCK_MONOTONIC ns, 0: not
 * reached. */
struct il_stage_task_notes {
	uint64_t rel, start, end; /* release, running, job end */
	uint64_t begin[IL_MAX_PHASES], done[IL_MAX_PHASES];
	uint32_t noted; /* set (release) when the job's notes are whole */
};

struct il_stage_notes {
	uint32_t round; /* the round (or job number) to note; 0: none */
	uint32_t over;	/* set (release) once that round ended, or the run */
	struct il_stage_task_notes task[IL_MAX_TASKS];
};

#endif
