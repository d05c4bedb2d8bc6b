/* SPDX-License-Identifier: MIT */
/*
 * The live board (--live): every configuration of a run on one screen,
 * the finished ones frozen with their verdict, the running one refreshing
 * about once a second.  Per configuration two lines, one per measure
 * (a waiter's blocked time and its wakeup latency: a ceiling moves the
 * delay from the first to the second), with samples, p50/p99/max, the
 * bound, a histogram strip on an axis shared by every row (log scale, the
 * bound drawn as '|') and the verdict in words.  Nothing is told by
 * colour alone: the board has no colour.
 *
 * The layout is a pure function (il_board_layout): rows and a size in,
 * lines out.  It fits any width from 40 columns by abbreviating and then
 * dropping columns (p50 first, then samples, max, the strip, the bound)
 * and uses a wider strip on a wider terminal; evidence is wrapped at
 * word boundaries.  il_board_show puts a layout on a terminal (redrawn in
 * place, sized by TIOCGWINSZ, again after SIGWINCH) or, elsewhere, as
 * plain blocks of lines without escape sequences.
 */
#ifndef INVLAB_BOARD_H
#define INVLAB_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <invlab/hist.h>

struct il_timeline;

#define IL_BOARD_MAX_ROWS    16
#define IL_BOARD_MAX_METRICS 2
/* log-spaced bins a row keeps: 32 a decade from 100 ns to 100 s */
#define IL_BOARD_BINS_DECADE 32
#define IL_BOARD_LO_DECADE   2 /* 10^2 ns */
#define IL_BOARD_HI_DECADE   11
#define IL_BOARD_BINS                                                          \
	((IL_BOARD_HI_DECADE - IL_BOARD_LO_DECADE) * IL_BOARD_BINS_DECADE)
/* narrowest and widest strip, in cells */
#define IL_BOARD_STRIP_MIN 8
#define IL_BOARD_STRIP_MAX 100
#define IL_BOARD_NA	   UINT64_MAX

enum il_board_state {
	IL_BOARD_WAITING, /* not started: no figures */
	IL_BOARD_RUNNING,
	IL_BOARD_DONE, /* frozen */
};

/* One measure of a row, as plain figures (il_board_metric_set). */
struct il_board_metric {
	char name[16]; /* "blocked", "wakeup" */
	char abbr[8];  /* for narrow screens: "blk", "wake" */
	/* ns; n == 0: no figures yet; IL_BOARD_NA: too few samples */
	uint64_t n, p50, p99, max;
	uint64_t bins[IL_BOARD_BINS];
};

struct il_board_row {
	char config[24];  /* "none", "inherit #2" */
	char subject[16]; /* the task measured: "high" */
	enum il_board_state state;
	struct il_board_metric m[IL_BOARD_MAX_METRICS];
	int nm;
	uint64_t bound_ns;  /* 0: not known (yet) */
	char verdict[24];   /* "FAIL", "PASS so far", "running" */
	char evidence[640]; /* frozen rows: why, wrapped on the board */
	uint64_t elapsed_ns;
	/* the run's worst wait from its trace (trace-export.h), drawn on the
	 * final frame; NULL: not traced.  The caller's, not copied */
	const struct il_timeline *tl;
};

struct il_board {
	char title[64]; /* the program */
	struct il_board_row rows[IL_BOARD_MAX_ROWS];
	int nrows;
	int total; /* configurations the run will have (0: nrows) */
	bool utf8; /* block characters for the strips */
	/* the last frame: under the rest, when there is room, each traced
	 * row's worst wait as a text timeline (il_board_layout) */
	bool final;
};

/* The figures and bins of h (read once; h may be a live copy). */
void il_board_metric_set(struct il_board_metric *m, const char *name,
			 const char *abbr, const struct il_hist *h);

/*
 * Lay b out in width columns and at most height lines: the lines, each
 * ending in '\n', into out (always terminated).  Returns the number of
 * lines, or -ENOSPC when out is too small.  No line is wider than width
 * (in characters: a block character counts one); width below 40 is
 * taken as 40.  Pure: no I/O, no clock.
 *
 * On a final board the rows with a timeline get one under everything
 * else, the first thing dropped when the height is short (whole, never
 * in part): a line of legend, then per row its title, one lane per task
 * (a cell '#' when the task ran at least half of it, ':' when less; a
 * task not of the scenario named with a leading '*'),
 * the request, boosts and acquisition as R, B and A on the wait's line,
 * and the bound as a bracket [---] from the request.  Every timeline has
 * the same scale (1, 2 or 5 times a power of ten ns a cell) and its
 * request in the same column, so the configurations compare by eye.
 */
int il_board_layout(const struct il_board *b, int width, int height, char *out,
		    size_t len);

/*
 * text wrapped at word boundaries into lines of at most width characters,
 * the first preceded by first, the others by indent spaces; a word longer
 * than a line is cut.  Each line ends in '\n'.  Returns the number of
 * lines, or -ENOSPC.
 */
int il_board_wrap(const char *text, const char *first, int indent, int width,
		  char *out, size_t len);

/* Characters (not bytes) of s: UTF-8 continuation bytes do not count. */
int il_board_cols(const char *s);

/* The terminal side. */
struct il_board_term {
	FILE *f;
	bool tty;
	bool utf8; /* the terminal takes block characters (LANG...) */
	int frames;
	int width, height; /* 0: ask the terminal */
};

/*
 * tty: -1 detect (isatty), 0 plain blocks, 1 redraw in place.  On a
 * terminal SIGWINCH is caught (SA_RESTART) so a resize redraws whole.
 */
void il_board_term_init(struct il_board_term *t, FILE *f, int tty);
/* Draw b: in place on a terminal, else as a block of plain lines (the
 * caller sets b->utf8 from t->utf8). */
void il_board_show(struct il_board_term *t, const struct il_board *b);
/* The terminal's size (COLUMNS/LINES, else 80x24 when not a terminal). */
void il_board_size(const struct il_board_term *t, int *width, int *height);

#endif
