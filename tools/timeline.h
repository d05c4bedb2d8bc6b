/* SPDX-License-Identifier: MIT */
/*
 * invlab-plot --timeline: the worst wait of a run (the "worst_wait"
 * member a traced run keeps in its result, trace-export.h) drawn as a
 * timeline: one lane per task of the scenario and per foreign task that
 * ran on its CPUs, the release, request, boost and acquisition marked
 * across the lanes, what the waiter waited and the bound as brackets
 * under them.
 *
 * It is drawn into a scene (plot-scene.h), so it is written as SVG, PNG
 * or PDF like the charts; text at 16 px or more, laid out so that no two
 * text boxes meet when a box is estimated as the font size times the
 * characters wide (a generous estimate for proportional fonts).  Like
 * the rest of the tools it never exits: errors come back as -errno with
 * a message.
 */
#ifndef INVLAB_TOOLS_TIMELINE_H
#define INVLAB_TOOLS_TIMELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <invlab/trace-export.h>

#include "plot-scene.h"

/* what the drawing needs beside the timeline itself */
struct il_tl_meta {
	char program[32];
	char configuration[64];
	char release[64]; /* the kernel's */
	char verdict[16]; /* the waiter's check, or "" */
};

/*
 * Read the worst wait of configuration config (NULL: the first run that
 * has one) from a result file of at most max_input bytes.  0; -ENOENT
 * when no such run has a worst wait (the run was not traced); -EINVAL
 * when the file is not a result or the member is malformed; -EFBIG;
 * or the errno of reading it.  err says which.
 */
int il_tl_read(const char *path, const char *config, uint64_t max_input,
	       struct il_timeline *tl, struct il_tl_meta *meta, char *err,
	       size_t errlen);

/*
 * tl drawn as a scene 1200 px wide (free it with pl_scene_free); NULL
 * when out of memory or tl spans no time.
 */
struct pl_scene *il_tl_scene(const struct il_timeline *tl,
			     const struct il_tl_meta *meta);

/*
 * The --timeline mode of invlab-plot: nfiles result files (exactly one
 * is accepted), written to output ("-": stdout) in fmt whole or not at
 * all (the caller has checked that this build can write fmt).
 * Returns the exit status: 0, 2 bad usage, 77 no worst wait in the
 * results, 99 not readable or not written.  Messages on stderr.
 */
int il_tl_main(char **files, int nfiles, const char *config, const char *output,
	       enum pl_format fmt, uint64_t max_input);

#endif
