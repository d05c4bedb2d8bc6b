/* SPDX-License-Identifier: MIT */
/*
 * What the driver shows while it runs (--live, --stage): the board of
 * every configuration (board.h) and the narration of one round of each
 * (stage.h).  Program-side: it prints.
 *
 * On a terminal with --live the board redraws in place; the runs'
 * reports are held meanwhile and printed below the board's final frame,
 * their verdict lines wrapped at word boundaries to the terminal.  With
 * --stage the narration scrolls, each run's report follows it, then the
 * board as it stands, then the pause before the next configuration.
 */
#ifndef INVLAB_DRIVER_SHOW_H
#define INVLAB_DRIVER_SHOW_H

#include <stdio.h>

#include <invlab/engine.h>

struct drv;
struct drv_run;
struct drv_show;

/* NULL when neither --live nor --stage was given (or no memory: then
 * the runs go on without) */
struct drv_show *drv_show_new(struct drv *d);
/* where the runs' reports go: stdout, or held for after the board */
FILE *drv_show_out(struct drv_show *s);
/* the width to wrap verdict lines at (0: do not wrap) */
int drv_show_wrap(const struct drv_show *s);
/* Before configuration r runs: its row, the engine's hooks in eo, the
 * narrator. */
void drv_show_begin(struct drv_show *s, struct drv_run *r,
		    struct il_engine_opts *eo);
/* After the engine returned: the narration told to its end. */
void drv_show_ran(struct drv_show *s, struct drv_run *r);
/* The running configuration's worst wait from its trace (copied), for
 * the board's final frame. */
struct il_timeline;
void drv_show_timeline(struct drv_show *s, const struct il_timeline *tl);
/* After its verdicts: the row frozen, the board drawn. */
void drv_show_judged(struct drv_show *s, struct drv_run *r);
/* Between two configurations (--stage): Enter or the timer. */
void drv_show_pause(struct drv_show *s, const char *next);
/* After the last run: the final frame (with the worst waits' timelines
 * when the runs were traced and there is room), then the held reports. */
void drv_show_finish(struct drv_show *s);
void drv_show_free(struct drv_show *s);

#endif
