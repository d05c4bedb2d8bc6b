// SPDX-License-Identifier: MIT
/*
 * The live board's layout (board.h), without a terminal: every row and
 * its verdict at every width from 40 to 200 columns, no line wider than
 * the width, columns dropped in their order as the width shrinks (p50
 * first, the bound last), a wider strip on a wider screen, the bound's
 * mark in the strips, rows kept and evidence dropped first when the
 * height is short, and text wrapped at word boundaries.
 */
#include <stdlib.h>
#include <string.h>

#include <invlab/board.h>
#include <invlab/time.h>

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
	return t_done("board");
}
