/* SPDX-License-Identifier: MIT */
/*
 * The live view (--live): a screen that refreshes about once a second
 * while a scenario runs, readable on a projector: per row, samples,
 * p50/p99/p999/max, a small histogram bar and the verdict forming.  When
 * the output is not a terminal the same rows come as plain lines, one
 * block per refresh, so logs stay readable.
 *
 * The figures are read from histograms the measuring threads are still
 * writing, without locks: a frame can be off by the samples recorded
 * while it was drawn.  The final report is exact.
 */
#ifndef INVLAB_LIVE_H
#define INVLAB_LIVE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <invlab/hist.h>

#define IL_LIVE_MAX_ROWS 32
#define IL_LIVE_BAR	 16 /* characters of the histogram bar */

struct il_live_row {
	char name[48];
	const struct il_hist *h; /* read, never written */
	char verdict[48];	 /* "PASS so far", "FAIL: 3 over", "" */
};

struct il_live {
	FILE *f;
	bool tty;  /* redraw in place with ANSI sequences */
	bool utf8; /* block characters for the bar */
	int frames;
	uint64_t t0;
};

/* tty: -1 detect from isatty(fileno(f)), 0 plain lines, 1 redraw */
void il_live_init(struct il_live *l, FILE *f, int tty);
/* Draw one frame: a title line and the rows. */
void il_live_frame(struct il_live *l, const char *title,
		   const struct il_live_row *rows, int nrows);
/* After the last frame: leave the screen as it is, below the frame. */
void il_live_end(struct il_live *l);
/* The bar alone, for tests: the non-empty range of h in IL_LIVE_BAR
 * log-spaced cells, each cell's height by log count.  buf needs
 * 4 * IL_LIVE_BAR + 1 bytes. */
void il_live_bar(const struct il_hist *h, bool utf8, char *buf, size_t len);

#endif
