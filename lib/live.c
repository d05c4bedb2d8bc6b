// SPDX-License-Identifier: MIT
/*
 * The live view.  On a terminal each frame moves the cursor home and
 * clears to the end of the screen before drawing, which redraws in place
 * without the flicker of a full clear; elsewhere frames are plain blocks.
 * The histogram bar folds the histogram's non-empty range into a few
 * log-spaced cells and draws each cell's log count as a block height, so
 * a long tail stays visible next to a tall mode.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <invlab/live.h>
#include <invlab/report.h>
#include <invlab/time.h>

static const char *const blocks_utf8[] = { " ",	     "\u2581", "\u2582",
					   "\u2583", "\u2584", "\u2585",
					   "\u2586", "\u2587", "\u2588" };
static const char blocks_ascii[] = " .:-=+*#@";

void il_live_init(struct il_live *l, FILE *f, int tty)
{
	const char *lang = getenv("LC_ALL");

	memset(l, 0, sizeof(*l));
	l->f = f;
	l->tty = tty < 0 ? isatty(fileno(f)) : tty;
	if (!lang || !*lang)
		lang = getenv("LC_CTYPE");
	if (!lang || !*lang)
		lang = getenv("LANG");
	l->utf8 = l->tty && lang &&
		  (strstr(lang, "UTF-8") || strstr(lang, "utf8"));
	l->t0 = il_now_ns();
}

void il_live_bar(const struct il_hist *h, bool utf8, char *buf, size_t len)
{
	uint64_t cell[IL_LIVE_BAR] = { 0 }, top = 0;
	double lo, hi, span;
	size_t off = 0;
	unsigned idx = 0;
	uint64_t blo, cnt;

	buf[0] = '\0';
	if (!h->count) {
		snprintf(buf, len, "%*s", IL_LIVE_BAR, "");
		return;
	}
	lo = log((double)(h->min ? h->min : 1));
	hi = log((double)(h->max > h->min ? h->max : h->min + 1));
	span = hi - lo > 1e-9 ? hi - lo : 1;
	while (il_hist_next_bin(h, &idx, &blo, &cnt)) {
		double x = (log((double)(blo ? blo : 1)) - lo) / span;
		int c = (int)(x * IL_LIVE_BAR);

		c = c < 0 ? 0 : c >= IL_LIVE_BAR ? IL_LIVE_BAR - 1 : c;
		cell[c] += cnt;
		idx++;
	}
	for (int c = 0; c < IL_LIVE_BAR; c++)
		if (cell[c] > top)
			top = cell[c];
	for (int c = 0; c < IL_LIVE_BAR && off + 4 < len; c++) {
		/* height 1..8 by log count, 0 for an empty cell */
		int v = cell[c] ? 1 + (int)(7.0 * log1p((double)cell[c]) /
					    log1p((double)top))
				: 0;

		if (utf8)
			off += (size_t)snprintf(buf + off, len - off, "%s",
						blocks_utf8[v]);
		else
			buf[off++] = blocks_ascii[v];
		buf[off] = '\0';
	}
}

void il_live_frame(struct il_live *l, const char *title,
		   const struct il_live_row *rows, int nrows)
{
	char a[16], b[16], c[16], d[16], bar[4 * IL_LIVE_BAR + 1];
	uint64_t t = il_now_ns() - l->t0;

	if (l->tty)
		fputs("\033[H\033[J", l->f);
	fprintf(l->f, "%s  [%.1fs]\n", title, (double)t / 1e9);
	fprintf(l->f, "%-24s %9s %9s %9s %9s %9s  %-*s %s\n", "", "samples",
		"p50", "p99", "p999", "max", IL_LIVE_BAR, "histogram",
		"verdict");
	for (int i = 0; i < nrows && i < IL_LIVE_MAX_ROWS; i++) {
		const struct il_hist *h = rows[i].h;

		il_format_stat(a, sizeof(a), h, 0.5);
		il_format_stat(b, sizeof(b), h, 0.99);
		il_format_stat(c, sizeof(c), h, 0.999);
		il_format_stat(d, sizeof(d), h, -1);
		il_live_bar(h, l->utf8, bar, sizeof(bar));
		fprintf(l->f, "%-24.24s %9llu %9s %9s %9s %9s  %s %s\n",
			rows[i].name, (unsigned long long)h->count, a, b, c, d,
			bar, rows[i].verdict);
	}
	if (!l->tty)
		fputc('\n', l->f);
	fflush(l->f);
	l->frames++;
}

void il_live_end(struct il_live *l)
{
	if (l->frames)
		fputc('\n', l->f);
	fflush(l->f);
}
