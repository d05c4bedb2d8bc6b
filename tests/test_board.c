// SPDX-License-Identifier: MIT
/*
 * The live board's layout (board.h), without a terminal: every row and
 * its verdict at every width from 40 to 200 columns, no line wider than
 * the width, columns dropped in their order as the width shrinks (p50
 * first, the bound last), a wider strip on a wider screen, the bound's
 * mark in the strips, rows kept and evidence dropped first when the
 * height is short, and text wrapped at word boundaries.  On a final
 * board, the worst waits' text timelines: within the width, on one scale
 * with the requests in one column, dropped whole (and first) when the
 * height is short.
 */
#include <stdlib.h>
#include <string.h>

#include <invlab/board.h>
#include <invlab/time.h>
#include <invlab/trace-export.h>

#include "t_util.h"

static struct il_board *board(void)
{
	static const char *const names[] = { "none", "inherit", "protect" };
	struct il_board *b = calloc(1, sizeof(*b));
	struct il_hist h;
	uint64_t seed = 3;

	snprintf(b->title, sizeof(b->title), "pi-classic");
	for (int r = 0; r < 3; r++) {
		struct il_board_row *row = &b->rows[r];
		/* none waits about 20 ms, inherit and protect under 2 ms */
		uint64_t base = r ? 1500000 : 19000000;

		snprintf(row->config, sizeof(row->config), "%s", names[r]);
		snprintf(row->subject, sizeof(row->subject), "high");
		il_hist_init(&h);
		for (int i = 0; i < 500; i++)
			il_hist_record(&h, base + t_rand(&seed) % 300000);
		il_board_metric_set(&row->m[0], "blocked", "blk", &h);
		il_hist_init(&h);
		for (int i = 0; i < 500; i++)
			il_hist_record(&h, (r == 2 ? 1600000 : 3000) +
						   t_rand(&seed) % 2000);
		il_board_metric_set(&row->m[1], "wakeup", "wake", &h);
		row->nm = 2;
		row->bound_ns = 2100000;
		row->elapsed_ns = 2000000000;
		row->state = r < 2 ? IL_BOARD_DONE : IL_BOARD_RUNNING;
		snprintf(row->verdict, sizeof(row->verdict), "%s",
			 r == 0	  ? "FAIL"
			 : r == 1 ? "PASS"
				  : "PASS so far");
		if (r < 2)
			snprintf(row->evidence, sizeof(row->evidence),
				 "%s, expected %s: high's longest wait "
				 "21.6ms against the priority-inheritance "
				 "bound 2.10ms (longest critical section "
				 "2.00ms plus the noise allowance 100us)",
				 r ? "PASS" : "FAIL", r ? "PASS" : "FAIL");
	}
	b->nrows = 3;
	return b;
}

/* the widest line, in characters */
static int widest(const char *s, int *lines)
{
	int w = 0;

	*lines = 0;
	for (const char *p = s; *p;) {
		const char *nl = strchr(p, '\n');
		char line[2048];
		size_t n = (size_t)(nl - p);

		memcpy(line, p, n);
		line[n] = '\0';
		if (il_board_cols(line) > w)
			w = il_board_cols(line);
		(*lines)++;
		p = nl + 1;
	}
	return w;
}

static const char *line_with(const char *s, const char *what, char *buf,
			     size_t len)
{
	const char *p = strstr(s, what), *a, *e;

	if (!p)
		return "";
	for (a = p; a > s && a[-1] != '\n'; a--)
		;
	e = strchr(p, '\n');
	snprintf(buf, len, "%.*s", (int)(e - a), a);
	return buf;
}

static void tl_lane(struct il_timeline *tl, const char *name, const char *role,
		    uint64_t a, uint64_t b)
{
	struct il_tl_lane *l = &tl->lanes[tl->nlanes++];

	snprintf(l->name, sizeof(l->name), "%s", name);
	snprintf(l->role, sizeof(l->role), "%s", role);
	if (b > a)
		l->s[l->nslices++] = (struct il_tl_slice){ a, b, b - a, 0 };
}

/* none: high asks at 2 ms, medium runs 20 ms, high gets M at 23 ms;
 * inherit: asks at 1 ms, low boosted at once, gets it at 2.6 ms */
static void tl_make(struct il_timeline *tl, bool inherit)
{
	const uint64_t ms = IL_NSEC_PER_MSEC;
	uint64_t req = inherit ? 1 * ms : 2 * ms;
	uint64_t acq = inherit ? 2600 * IL_NSEC_PER_USEC : 23 * ms;

	memset(tl, 0, sizeof(*tl));
	snprintf(tl->waiter, sizeof(tl->waiter), "high");
	snprintf(tl->resource, sizeof(tl->resource), "M");
	tl->span_ns = inherit ? 3 * ms : 26 * ms;
	tl->release_ns = req - 10000;
	tl->request_ns = req;
	tl->acquired_ns = acq;
	tl->delay_ns = acq - tl->release_ns;
	tl->bound_ns = 2100000;
	tl->locked_ns = IL_TL_NONE;
	tl->boost_ns = IL_TL_NONE;
	if (inherit) {
		tl->boost_ns = req + 2000;
		tl->nboosts = 1;
		tl->boosts[0] =
			(struct il_tl_boost){ req + 2000, "low", 89, 69 };
	}
	tl_lane(tl, "low", "holder", 0, inherit ? acq : req);
	tl_lane(tl, "high", "waiter", acq, acq + 100000);
	tl_lane(tl, "medium", "lower", inherit ? acq : req,
		inherit ? acq : req + 20 * ms);
	if (inherit) /* a foreign task, its name longer than the column */
		tl_lane(tl, "kworker/1:2H", "foreign", 0, 300000);
}

/* the column of c in the line of s that starts with start */
static int col_in(const char *s, const char *start, char c)
{
	char want[64], line[2048];
	const char *p;

	snprintf(want, sizeof(want), "\n%s", start);
	p = strstr(s, want);
	if (!p)
		return -1;
	line_with(p + 1, start, line, sizeof(line));
	p = strchr(line + strlen(start), c);
	return p ? (int)(p - line) : -1;
}

static void test_timelines(void)
{
	struct il_board *b = board();
	struct il_timeline tl[2];
	static char out[64 * 1024];
	char buf[2048];
	int lines, n;

	tl_make(&tl[0], false);
	tl_make(&tl[1], true);
	b->rows[0].tl = &tl[0];
	b->rows[1].tl = &tl[1];
	/* not on a frame but the last */
	il_board_layout(b, 160, 48, out, sizeof(out));
	t_check(strstr(out, "worst waits") == NULL);
	b->final = true;
	for (int w = 40; w <= 200; w++) {
		n = il_board_layout(b, w, 60, out, sizeof(out));
		t_check(n > 0 && widest(out, &lines) <= w);
		t_check(lines <= 60);
		if (w >= 80)
			t_check(strstr(out, "none: high waited") != NULL);
	}
	n = il_board_layout(b, 160, 48, out, sizeof(out));
	t_check(widest(out, &lines) <= 160 && lines <= 48);
	t_check_contains(out, "worst waits (trace), 1 char = ");
	t_check_contains(out, "none: high waited 21.0ms for M (FAIL)");
	t_check_contains(out, "inherit: high waited 1.60ms for M (PASS)");
	/* the requests in one column; medium runs from it under none */
	t_check(col_in(out, "  wait", 'R') > 0);
	t_check_int(col_in(strstr(out, "inherit: high"), "  wait", 'R'),
		    col_in(out, "  wait", 'R'));
	t_check_int(col_in(out, "  medium", '#'), col_in(out, "  wait", 'R'));
	t_check_int(col_in(out, "  bound", '['), col_in(out, "  wait", 'R'));
	t_check(col_in(out, "  wait", 'A') > col_in(out, "  bound", ']'));
	/* inherit: boosted, and its wait inside the bound */
	t_check(col_in(strstr(out, "inherit: high"), "  wait", 'B') > 0);
	t_check(col_in(strstr(out, "inherit: high"), "  wait", 'A') <=
		col_in(strstr(out, "inherit: high"), "  bound", ']'));
	t_check_contains(line_with(out, "  wait", buf, sizeof(buf)), "21.0ms");
	t_check_contains(line_with(out, "  *kworker/1 ", buf, sizeof(buf)),
			 "##");
	/* 80x24 has room for the first (evidence of two rows is short) */
	n = il_board_layout(b, 80, 24, out, sizeof(out));
	t_check(widest(out, &lines) <= 80 && lines <= 24);
	t_check(strstr(out, "none: high waited") != NULL);
	/* with no room it goes first, whole: the rest stays as it was */
	n = il_board_layout(b, 80, 22, out, sizeof(out));
	t_check(widest(out, &lines) <= 80 && lines <= 22);
	t_check(strstr(out, "worst waits") == NULL);
	t_check(strstr(out, "  wait ") == NULL);
	t_check(strstr(out, "\nnone ") != NULL);
	t_check(strstr(out, "inherit: PASS, expected PASS") != NULL);
	t_check(strstr(out, "none: FAIL, expected FAIL") != NULL);
	/* a height for one of the two: the first, whole */
	n = il_board_layout(b, 160, 48, out, sizeof(out));
	widest(out, &lines);
	{
		int all = lines, one;

		il_board_layout(b, 160, all - 6, out, sizeof(out));
		widest(out, &one);
		t_check(one <= all - 6);
		t_check(strstr(out, "none: high waited") != NULL);
		t_check(strstr(out, "inherit: high waited") == NULL);
	}
	free(b);
}

int main(void)
{
	struct il_board *b = board();
	static char out[64 * 1024];
	char l[2048];
	int n, lines;

	/* every width: all rows, verdicts, no line too wide */
	for (int w = 40; w <= 200; w++) {
		n = il_board_layout(b, w, 48, out, sizeof(out));
		t_check(n > 0);
		t_check(widest(out, &lines) <= w);
		t_check_int(lines, n);
		t_check_contains(out, "none");
		t_check_contains(out, "inherit");
		t_check_contains(out, "protect");
		t_check_contains(out, "FAIL");
		t_check_contains(out, "PASS so far");
		if (widest(out, &lines) > w) {
			fprintf(stderr, "at %d columns:\n%s", w, out);
			break;
		}
	}

	/* 80x24: everything that tells the story */
	n = il_board_layout(b, 80, 24, out, sizeof(out));
	if (getenv("BOARD_DUMP")) {
		fputs(out, stderr);
		il_board_layout(b, 70, 24, out, sizeof(out));
		fputs(out, stderr);
		il_board_layout(b, 40, 24, out, sizeof(out));
		fputs(out, stderr);
		il_board_layout(b, 160, 24, out, sizeof(out));
		fputs(out, stderr);
		n = il_board_layout(b, 80, 24, out, sizeof(out));
	}
	t_check(n <= 24);
	t_check_contains(out, "pi-classic");
	t_check_contains(out, "[2.0s]");
	t_check_contains(out, "pi-classic (task high)  protect running");
	t_check_contains(out, "2 of 3 done");
	b->total = 5;
	il_board_layout(b, 80, 24, out, sizeof(out));
	t_check_contains(out, "2 of 5 done");
	b->total = 0;
	t_check_contains(out, "samples");
	t_check_contains(out, "p50");
	t_check_contains(out, "p99");
	t_check_contains(out, "max");
	t_check_contains(out, "bound");
	t_check_contains(out, "blocked");
	t_check_contains(out, "wakeup");
	t_check_contains(out, "2.10ms");
	t_check_contains(out, "+"); /* the ruler */
	t_check_contains(out, "10ms");
	/* none's strip: the bound's mark left of where its samples are */
	line_with(out, "none", l, sizeof(l));
	t_check(strchr(l, '|') != NULL);
	t_check(strchr(l, '@') != NULL);
	t_check(strchr(l, '|') < strrchr(l, '@'));
	/* inherit's: its samples below the bound */
	line_with(out, "inherit ", l, sizeof(l));
	t_check(strchr(l, '|') != NULL && strchr(l, '@') != NULL);
	t_check(strchr(l, '@') < strchr(l, '|'));
	/* evidence, wrapped: the frozen rows say why */
	t_check_contains(out, "none: FAIL, expected FAIL:");
	t_check_contains(out, "inherit: PASS, expected PASS:");

	/* columns go in their order as the width shrinks */
	n = il_board_layout(b, 70, 24, out, sizeof(out));
	t_check_contains(out, "p50"); /* abbreviated, all still fit */
	t_check_contains(out, "blk");
	n = il_board_layout(b, 64, 24, out, sizeof(out));
	t_check(!strstr(out, "p50"));
	t_check_contains(out, "samples");
	t_check_contains(out, "bound");
	n = il_board_layout(b, 40, 24, out, sizeof(out));
	t_check(!strstr(out, "p50"));
	t_check(!strstr(out, "samples"));
	t_check(!strstr(out, " max"));
	t_check_contains(out, "p99");
	t_check_contains(out, "verdict");
	t_check_contains(out, "blk"); /* abbreviated */
	/* wider: a wider strip, and the axis grows with it */
	{
		int s80, s160;

		il_board_layout(b, 80, 48, out, sizeof(out));
		line_with(out, "+-", l, sizeof(l));
		s80 = (int)(strrchr(l, '+') - strchr(l, '-'));
		il_board_layout(b, 160, 48, out, sizeof(out));
		line_with(out, "+-", l, sizeof(l));
		s160 = (int)(strrchr(l, '+') - strchr(l, '-'));
		t_check(s160 > s80);
	}

	/* short screens: rows stay, the evidence goes first */
	n = il_board_layout(b, 80, 10, out, sizeof(out));
	t_check(n <= 10);
	t_check_contains(out, "none");
	t_check_contains(out, "protect");
	t_check_contains(out, "wakeup");
	t_check(!strstr(out, "expected FAIL"));
	n = il_board_layout(b, 80, 5, out, sizeof(out));
	t_check(n <= 5);
	t_check_contains(out, "protect");
	t_check(!strstr(out, "wakeup"));

	/* UTF-8 strips count one column a cell */
	b->utf8 = true;
	n = il_board_layout(b, 80, 24, out, sizeof(out));
	t_check(widest(out, &lines) <= 80);
	t_check_contains(out, "\u2588");
	b->utf8 = false;

	/* too small a buffer is said, not overrun */
	t_check_int(il_board_layout(b, 80, 24, out, 100), -28 /* ENOSPC */);

	/* wrapping at word boundaries */
	n = il_board_wrap("high waited 21.6ms for M, held 2.00ms by low", "> ",
			  4, 20, out, sizeof(out));
	t_check_str(out, "> high waited 21.6ms\n    for M, held\n"
			 "    2.00ms by low\n");
	t_check_int(n, 3);
	/* no word cut when it fits a line; a longer one is cut */
	n = il_board_wrap("a bbbbbbbbbbbbbbbbbbbbbbbbb c", "", 2, 10, out,
			  sizeof(out));
	t_check_str(out, "a\n  bbbbbbbb\n  bbbbbbbb\n  bbbbbbbb\n  b c\n");
	n = il_board_wrap("exactly10c", "", 0, 10, out, sizeof(out));
	t_check_str(out, "exactly10c\n");
	t_check_int(n, 1);
	/* every wrapped line within the width, words whole */
	{
		const char *text =
			"FAIL, expected FAIL: high waited up to 21.6ms for M "
			"while medium, which cannot hold it, ran 19.5ms of it; "
			"the priority-inheritance bound is 2.10ms";

		for (int w = 10; w <= 120; w++) {
			il_board_wrap(text, "none: ", 4, w, out, sizeof(out));
			t_check(widest(out, &lines) <= w);
			if (w >= 24) /* the longest word fits: none is cut */
				t_check(strstr(out, "priority-inheritance") !=
					NULL);
		}
	}
	t_check_int(il_board_cols("\u2588\u2581ab"), 4);
	free(b);
	test_timelines();
	return t_done("board");
}
