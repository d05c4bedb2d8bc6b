/* SPDX-License-Identifier: MIT */
/*
 * invlab-plot --timeline: the worst wait of a run (the "worst_wait"
 * member a traced run keeps in its result, trace-export.h) drawn as an
 * SVG timeline: one lane per task of the scenario and per foreign task
 * that ran on its CPUs, the release, request, boost and acquisition
 * marked across the lanes, what the waiter waited and the bound as
 * brackets under them.
 *
 * The SVG is written with plain fprintf, self-contained (no script, no
 * external font), text at 16 px or more, and laid out so that no two
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

/* Draw tl as a standalone SVG.  0 or -EIO. */
int il_tl_svg(FILE *f, const struct il_timeline *tl,
	      const struct il_tl_meta *meta);

/*
 * The --timeline mode of invlab-plot: nfiles result files (exactly one
 * is accepted), written to output ("-": stdout) whole or not at all.
 * Returns the exit status: 0, 2 bad usage, 77 no worst wait in the
 * results, 99 not readable or not written.  Messages on stderr.
 */
int il_tl_main(char **files, int nfiles, const char *config, const char *output,
	       uint64_t max_input);

#endif
