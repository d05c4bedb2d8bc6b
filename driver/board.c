// SPDX-License-Identifier: MIT
/*
 * The live board's layout (board.h): rows in, lines out, no I/O.
 *
 * Columns, by what they tell: the configuration, the measure, the
 * verdict and the p99 are always there; when the width is short the
 * others go in this order: p50, samples, max, the strip, the bound (the
 * bound last: with the p99 it is the story).  What is left over widens
 * the strip, up to IL_BOARD_STRIP_MAX cells.  Lines, by what they tell:
 * when the height is short the evidence goes first (oldest rows first),
 * then the legend, then every row's second measure, then the axis; rows
 * themselves stay (at most IL_BOARD_MAX_ROWS of them).
 *
 * The strips share one logarithmic axis, whole decades from the smallest
 * figure on the board to the largest (the bounds included), so a row of
 * none and a row of inherit can be compared by eye.  A cell's height is
 * its log count relative to the strip's tallest cell, so a thin tail
 * shows next to a tall mode; the cell of the bound shows '|'.
 *
 * A final board adds, where the height leaves room, each traced row's
 * worst wait as a text timeline (tl_block): lanes of cells on one scale
 * for every row, the requests in one column.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <invlab/board.h>
#include <invlab/strbuf.h>
#include <invlab/time.h>
#include <invlab/trace-export.h>

static const char *const blocks_utf8[] = { " ",	     "\u2581", "\u2582",
					   "\u2583", "\u2584", "\u2585",
					   "\u2586", "\u2587", "\u2588" };
static const char blocks_ascii[] = " .:-=+*#@";

/* columns in the order they are dropped */
enum col { C_P50, C_N, C_MAX, C_STRIP, C_BOUND, C_NCOLS };
#define VAL_W 6 /* "21.6ms", "850ns", "1.50s" */

int il_board_cols(const char *s)
{
	int n = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

static int bin_of(double ns)
{
	double d = (log10(ns > 1 ? ns : 1) - IL_BOARD_LO_DECADE) *
		   IL_BOARD_BINS_DECADE;
	int i = (int)floor(d);

	return i < 0 ? 0 : i >= IL_BOARD_BINS ? IL_BOARD_BINS - 1 : i;
}

void il_board_metric_set(struct il_board_metric *m, const char *name,
			 const char *abbr, const struct il_hist *h)
{
	unsigned idx = 0;
	uint64_t lo, cnt;

	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->abbr, sizeof(m->abbr), "%s", abbr ? abbr : name);
	if (!h || !h->count)
		return;
	m->n = h->count;
	m->max = h->max;
	if (il_hist_percentile(h, 0.5, &m->p50))
		m->p50 = IL_BOARD_NA;
	if (il_hist_percentile(h, 0.99, &m->p99))
		m->p99 = IL_BOARD_NA;
	while (il_hist_next_bin(h, &idx, &lo, &cnt)) {
		double mid = ((double)lo + (double)il_hist_bucket_hi(idx)) / 2;

		m->bins[bin_of(mid)] += cnt;
		idx++;
	}
	if (h->overflow)
		m->bins[bin_of((double)h->max)] += h->overflow;
}

/* ------------------------------------------------------------------ */
/* output: lines appended to a caller's buffer                          */

struct out {
	char *buf;
	size_t len, off;
	int lines;
	bool full;
};

static void emit(struct out *o, const char *line)
{
	size_t n = strlen(line);

	if (o->off + n + 2 > o->len) {
		o->full = true;
		return;
	}
	memcpy(o->buf + o->off, line, n);
	o->off += n;
	o->buf[o->off++] = '\n';
	o->buf[o->off] = '\0';
	o->lines++;
}

/* one line being built: bytes and the columns they take */
struct line {
	char s[1024];
	size_t off;
	int cols;
};

static void put(struct line *l, const char *text, int w, bool right)
{
	int n = il_board_cols(text), pad = w > n ? w - n : 0;
	size_t tl = strlen(text);

	if (n > w) { /* ASCII text: cut to w */
		tl = (size_t)w;
		n = w;
	}
	if (l->off + tl + (size_t)pad + 2 >= sizeof(l->s))
		return;
	if (l->cols) {
		l->s[l->off++] = ' ';
		l->cols++;
	}
	if (right) {
		memset(l->s + l->off, ' ', (size_t)pad);
		l->off += (size_t)pad;
	}
	memcpy(l->s + l->off, text, tl);
	l->off += tl;
	if (!right) {
		memset(l->s + l->off, ' ', (size_t)pad);
		l->off += (size_t)pad;
	}
	l->s[l->off] = '\0';
	l->cols += n + pad;
}

static void trim(struct line *l)
{
	while (l->off && l->s[l->off - 1] == ' ') {
		l->s[--l->off] = '\0';
		l->cols--;
	}
}

int il_board_wrap(const char *text, const char *first, int indent, int width,
		  char *out, size_t len)
{
	struct out o = { .buf = out, .len = len };
	struct line l = { .off = 0 };
	const char *p = text;
	bool words = false;

	if (len)
		out[0] = '\0';
	width = width < 10 ? 10 : width > 1000 ? 1000 : width;
	indent = indent < 0 ? 0 : indent >= width / 2 ? width / 2 : indent;
	snprintf(l.s, sizeof(l.s), "%s", first ? first : "");
	l.off = strlen(l.s);
	l.cols = il_board_cols(l.s);
	for (;;) {
		size_t wl;
		int room;

		while (*p == ' ' || *p == '\n' || *p == '\t')
			p++;
		if (!*p)
			break;
		wl = strcspn(p, " \n\t");
		room = width - l.cols - (words ? 1 : 0);
		if ((int)wl > room && words) {
			/* the word goes to the next line */
			emit(&o, l.s);
			memset(l.s, ' ', (size_t)indent);
			l.s[indent] = '\0';
			l.off = (size_t)indent;
			l.cols = indent;
			words = false;
			continue;
		}
		if (words) {
			l.s[l.off++] = ' ';
			l.cols++;
		}
		if ((int)wl > width - l.cols) /* longer than a line: cut */
			wl = (size_t)(width - l.cols > 0 ? width - l.cols : 0);
		if (l.off + wl + 1 >= sizeof(l.s))
			break;
		memcpy(l.s + l.off, p, wl);
		l.off += wl;
		l.cols += (int)wl;
		l.s[l.off] = '\0';
		p += wl;
		words = true;
		if (*p && *p != ' ' && *p != '\n' && *p != '\t') {
			/* the rest of a cut word on the next line */
			emit(&o, l.s);
			memset(l.s, ' ', (size_t)indent);
			l.s[indent] = '\0';
			l.off = (size_t)indent;
			l.cols = indent;
			words = false;
		}
	}
	if (words || l.cols)
		emit(&o, l.s);
	return o.full ? -ENOSPC : o.lines;
}

/* ------------------------------------------------------------------ */
/* the axis                                                             */

struct axis {
	int lo, hi; /* decades of ns */
	int cells;
};

static void axis_range(const struct il_board *b, struct axis *a)
{
	int lo = IL_BOARD_BINS, hi = -1;

	for (int r = 0; r < b->nrows; r++) {
		const struct il_board_row *row = &b->rows[r];

		for (int k = 0; k < row->nm; k++) {
			const struct il_board_metric *m = &row->m[k];

			if (!m->n)
				continue;
			for (int i = 0; i < IL_BOARD_BINS; i++)
				if (m->bins[i]) {
					lo = i < lo ? i : lo;
					break;
				}
			if (bin_of((double)m->max) > hi)
				hi = bin_of((double)m->max);
		}
		if (row->bound_ns) {
			int i = bin_of((double)row->bound_ns);

			lo = i < lo ? i : lo;
			hi = i > hi ? i : hi;
		}
	}
	if (hi < 0) { /* nothing yet: 1 us to 10 ms */
		a->lo = 3;
		a->hi = 7;
		return;
	}
	a->lo = IL_BOARD_LO_DECADE + lo / IL_BOARD_BINS_DECADE;
	a->hi = IL_BOARD_LO_DECADE + hi / IL_BOARD_BINS_DECADE + 1;
	if (a->hi - a->lo < 2)
		a->hi = a->lo + 2;
	if (a->hi > IL_BOARD_HI_DECADE) {
		a->hi = IL_BOARD_HI_DECADE;
		a->lo = a->lo < a->hi - 2 ? a->lo : a->hi - 2;
	}
}

static int cell_of(const struct axis *a, double ns)
{
	double x = (log10(ns > 1 ? ns : 1) - a->lo) / (a->hi - a->lo);
	int c = (int)floor(x * a->cells);

	return c < 0 ? 0 : c >= a->cells ? a->cells - 1 : c;
}

/*
 * Where the bound's mark goes: before cell pos (0..cells), the cell
 * boundary nearest the bound, so no cell's samples are hidden under it;
 * -1 without a bound.
 */
static int mark_at(const struct axis *a, uint64_t bound)
{
	double x;
	long c;

	if (!bound)
		return -1;
	x = (log10((double)bound) - a->lo) / (a->hi - a->lo) * a->cells;
	c = lround(x);
	return c < 0 ? 0 : c > a->cells ? a->cells : (int)c;
}

/* cells + 1 characters: the cells with the mark among them (a space at
 * the end without a bound) */
static void strip(const struct axis *a, const struct il_board_metric *m,
		  uint64_t bound, bool utf8, char *buf, size_t len)
{
	uint64_t cell[IL_BOARD_STRIP_MAX] = { 0 }, top = 0;
	size_t off = 0;
	int pos = mark_at(a, bound);

	for (int i = 0; m->n && i < IL_BOARD_BINS; i++)
		if (m->bins[i]) {
			double mid = pow(
				10, IL_BOARD_LO_DECADE +
					    (i + 0.5) / IL_BOARD_BINS_DECADE);

			cell[cell_of(a, mid)] += m->bins[i];
		}
	for (int c = 0; c < a->cells; c++)
		top = cell[c] > top ? cell[c] : top;
	buf[0] = '\0';
	for (int c = 0; c <= a->cells && off + 5 < len; c++) {
		/* the tallest exactly 8: 7x/x need not round to 7 */
		int v = c == a->cells ? 0
			: !cell[c]    ? 0
			: cell[c] == top
				? 8
				: 1 + (int)(7.0 * log1p((double)cell[c]) /
					    log1p((double)top));

		if (c == pos)
			buf[off++] = '|';
		if (c == a->cells)
			break;
		if (utf8)
			off += (size_t)snprintf(buf + off, len - off, "%s",
						blocks_utf8[v]);
		else
			buf[off++] = blocks_ascii[v];
	}
	if (pos < 0)
		buf[off++] = ' ';
	buf[off] = '\0';
}

static void decade_name(int d, char *buf, size_t len)
{
	static const char *const unit[] = { "ns", "us", "ms", "s" };
	int u = d / 3 > 3 ? 3 : d / 3, e = d - 3 * u;

	snprintf(buf, len, "%d%s", e == 0 ? 1 : e == 1 ? 10 : 100, unit[u]);
}

/*
 * The ruler ('+' at whole decades) and the labels under it, starting at
 * column at; pos is the bound's mark when every row has it there (the
 * ruler then has it too and stays aligned with every strip), else -1.
 */
static void axis_lines(const struct axis *a, int at, int pos, char *ruler,
		       char *labels, size_t len)
{
	int end = at, last = -1, w = a->cells + 1;

	memset(ruler, ' ', (size_t)at);
	memset(labels, ' ', len - 1);
	labels[len - 1] = '\0';
	for (int c = 0; c < w; c++)
		ruler[at + c] = '-';
	if (pos >= 0)
		ruler[at + pos] = '|';
	for (int d = a->lo; d <= a->hi; d++) {
		int c = (int)lround((double)(d - a->lo) / (a->hi - a->lo) *
				    a->cells);
		char name[16];
		int n, start;

		c = c >= a->cells ? a->cells - 1 : c;
		c += pos >= 0 && c >= pos ? 1 : 0;
		if (ruler[at + c] != '|')
			ruler[at + c] = '+';
		decade_name(d, name, sizeof(name));
		n = (int)strlen(name);
		start = at + c - n / 2;
		start = start < at ? at : start;
		if (start <= last + 1 || start + n >= (int)len)
			continue;
		memcpy(labels + start, name, (size_t)n);
		last = start + n - 1;
		end = start + n > end ? start + n : end;
	}
	ruler[at + w] = '\0';
	labels[end] = '\0';
}

/* the mark's place when every row with a bound has it in one place */
static int common_mark(const struct il_board *b, const struct axis *a)
{
	int pos = -1;

	for (int r = 0; r < b->nrows; r++) {
		int m = mark_at(a, b->rows[r].bound_ns);

		if (m < 0)
			continue;
		if (pos >= 0 && m != pos)
			return -1;
		pos = m;
	}
	return pos;
}

/* ------------------------------------------------------------------ */
/* the board                                                            */

static void value(char *buf, size_t len, const struct il_board_metric *m,
		  uint64_t v)
{
	if (!m->n)
		snprintf(buf, len, "-");
	else if (v == IL_BOARD_NA)
		snprintf(buf, len, "n/a");
	else
		il_format_duration(buf, len, v);
}

struct plan {
	bool on[C_NCOLS];
	int cw, mw, vw;
	bool abbr;
	struct axis a;
};

static int plan_width(const struct plan *p)
{
	int w = p->cw + 1 + p->mw + 1 + VAL_W + 1 + p->vw;

	if (p->on[C_P50])
		w += VAL_W + 1;
	if (p->on[C_N])
		w += 7 + 1;
	if (p->on[C_MAX])
		w += VAL_W + 1;
	if (p->on[C_BOUND])
		w += VAL_W + 1;
	if (p->on[C_STRIP])
		w += p->a.cells + 2;
	return w;
}

static void make_plan(const struct il_board *b, int width, struct plan *p)
{
	int mw = 4, cw = 6, vw = 7, amw = 4;

	memset(p, 0, sizeof(*p));
	for (int r = 0; r < b->nrows; r++) {
		const struct il_board_row *row = &b->rows[r];
		int n = (int)strlen(row->config);

		cw = n > cw ? n : cw;
		n = (int)strlen(row->verdict);
		vw = n > vw ? n : vw;
		for (int k = 0; k < row->nm; k++) {
			n = (int)strlen(row->m[k].name);
			mw = n > mw ? n : mw;
			n = (int)strlen(row->m[k].abbr);
			amw = n > amw ? n : amw;
		}
	}
	p->cw = cw > 12 ? 12 : cw;
	p->vw = vw > 16 ? 16 : vw; /* "UNDECIDED so far" */
	p->mw = mw > 10 ? 10 : mw;
	for (int c = 0; c < C_NCOLS; c++)
		p->on[c] = true;
	axis_range(b, &p->a);
	p->a.cells = IL_BOARD_STRIP_MIN;
	/* abbreviate first, then drop columns in order */
	if (plan_width(p) > width) {
		p->abbr = true;
		p->mw = amw > 6 ? 6 : amw;
		p->cw = p->cw > 10 ? 10 : p->cw;
	}
	for (int c = 0; c < C_NCOLS && plan_width(p) > width; c++)
		p->on[c] = false;
	if (plan_width(p) > width) /* 40 columns hold the rest */
		p->vw = width - (plan_width(p) - p->vw);
	if (p->on[C_STRIP]) {
		int more = width - plan_width(p);

		p->a.cells += more;
		if (p->a.cells > IL_BOARD_STRIP_MAX)
			p->a.cells = IL_BOARD_STRIP_MAX;
	}
}

/* the cells of one row's line for measure k */
static void row_line(const struct plan *p, const struct il_board *b,
		     const struct il_board_row *row, int k, struct line *l)
{
	const struct il_board_metric *m = &row->m[k];
	char v[24], st[4 * IL_BOARD_STRIP_MAX + 8];

	memset(l, 0, sizeof(*l));
	put(l, k ? "" : row->config, p->cw, false);
	put(l, p->abbr ? m->abbr : m->name, p->mw, false);
	if (p->on[C_N]) {
		if (m->n)
			snprintf(v, sizeof(v), "%llu",
				 (unsigned long long)m->n);
		else
			snprintf(v, sizeof(v), "-");
		put(l, v, 7, true);
	}
	if (p->on[C_P50]) {
		value(v, sizeof(v), m, m->p50);
		put(l, v, VAL_W, true);
	}
	value(v, sizeof(v), m, m->p99);
	put(l, v, VAL_W, true);
	if (p->on[C_MAX]) {
		value(v, sizeof(v), m, m->max);
		put(l, v, VAL_W, true);
	}
	if (p->on[C_BOUND]) {
		if (k)
			v[0] = '\0';
		else if (row->bound_ns)
			il_format_duration(v, sizeof(v), row->bound_ns);
		else
			snprintf(v, sizeof(v), "?");
		put(l, v, VAL_W, true);
	}
	if (p->on[C_STRIP]) {
		strip(&p->a, m, row->bound_ns, b->utf8, st, sizeof(st));
		put(l, st, p->a.cells + 1, false);
	}
	put(l, k ? "" : row->verdict, p->vw, false);
	trim(l);
}

static void header_line(const struct plan *p, struct line *l)
{
	memset(l, 0, sizeof(*l));
	put(l, "config", p->cw, false);
	put(l, p->abbr ? "what" : "measure", p->mw, false);
	if (p->on[C_N])
		put(l, "samples", 7, true);
	if (p->on[C_P50])
		put(l, "p50", VAL_W, true);
	put(l, "p99", VAL_W, true);
	if (p->on[C_MAX])
		put(l, "max", VAL_W, true);
	if (p->on[C_BOUND])
		put(l, "bound", VAL_W, true);
	if (p->on[C_STRIP])
		put(l, p->a.cells >= 16 ? "samples by time" : "histogram",
		    p->a.cells + 1, false);
	put(l, "verdict", p->vw, false);
	trim(l);
}

/* what the board says on top: the program, the row running or last */
static void title_line(const struct il_board *b, int width, char *buf,
		       size_t len)
{
	const struct il_board_row *cur = NULL;
	int done = 0;

	for (int r = 0; r < b->nrows; r++) {
		if (b->rows[r].state == IL_BOARD_DONE)
			done++;
		if (b->rows[r].state != IL_BOARD_WAITING)
			cur = &b->rows[r];
	}
	snprintf(buf, len, "%s", b->title);
	if (cur && cur->subject[0]) {
		size_t n = strlen(buf);

		il_appendf(buf, len, " (task %s)", cur->subject);
		if (il_board_cols(buf) > width)
			buf[n] = '\0';
	}
	if (cur) {
		size_t n = strlen(buf);

		il_appendf(buf, len, "  %s %s [%.1fs]", cur->config,
			   cur->state == IL_BOARD_DONE ? "ran" : "running",
			   (double)cur->elapsed_ns / 1e9);
		if (il_board_cols(buf) > width)
			buf[n] = '\0';
		n = strlen(buf);
		il_appendf(buf, len, "  %d of %d done", done,
			   b->total > b->nrows ? b->total : b->nrows);
		if (il_board_cols(buf) > width)
			buf[n] = '\0';
	}
	if (il_board_cols(buf) > width)
		buf[width] = '\0';
}

/* ------------------------------------------------------------------ */
/* the timelines of the final frame                                     */

#define TL_NAME_W    10 /* a lane's name */
#define TL_LEFT	     (2 + TL_NAME_W + 1)
#define TL_RIGHT     9 /* "  26.7ms" after the wait and the bound */
#define TL_MIN_CELLS 20
#define TL_MAX_CELLS 200

struct tl_scale {
	uint64_t step; /* ns a cell */
	uint64_t pre;  /* ns before the request, the longest of the rows */
	int cells;
};

/* the smallest 1, 2 or 5 times a power of ten ns that is at least want */
static uint64_t nice_step(uint64_t want)
{
	for (uint64_t p = 1;; p *= 10) {
		if (p >= want)
			return p;
		if (2 * p >= want)
			return 2 * p;
		if (5 * p >= want)
			return 5 * p;
		if (p > UINT64_MAX / 100)
			return p * 10;
	}
}

/* one scale for every row's timeline; false when none has one or the
 * width leaves too few cells */
static bool tl_scale(const struct il_board *b, int nrows, int width,
		     struct tl_scale *sc)
{
	uint64_t pre = 0, post = 0, total;
	int avail = width - TL_LEFT - TL_RIGHT;
	bool any = false;

	if (avail > TL_MAX_CELLS)
		avail = TL_MAX_CELLS;
	for (int r = 0; r < nrows; r++) {
		const struct il_timeline *tl = b->rows[r].tl;

		if (!tl || !tl->span_ns || tl->request_ns > tl->span_ns)
			continue;
		any = true;
		pre = tl->request_ns > pre ? tl->request_ns : pre;
		if (tl->span_ns - tl->request_ns > post)
			post = tl->span_ns - tl->request_ns;
	}
	if (!any || avail < TL_MIN_CELLS)
		return false;
	total = pre + post;
	sc->step = nice_step((total + (uint64_t)avail - 1) / (uint64_t)avail);
	sc->pre = pre;
	sc->cells = (int)((total + sc->step - 1) / sc->step);
	if (sc->cells < 1)
		sc->cells = 1;
	return sc->cells <= avail;
}

/* the cell of a moment of tl (ns from its window's start) */
static int tl_col(const struct tl_scale *sc, const struct il_timeline *tl,
		  uint64_t ns)
{
	uint64_t at = sc->pre - tl->request_ns + ns;
	uint64_t c = at / sc->step;

	return c >= (uint64_t)sc->cells ? sc->cells - 1 : (int)c;
}

static int tl_lines(const struct il_timeline *tl)
{
	return 1 + (int)tl->nlanes + 2;
}

/* the left column of a timeline line: "  name      " */
static void tl_left(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "  %-*.*s ", TL_NAME_W, TL_NAME_W, name);
}

static void tl_emit(struct out *o, char *line)
{
	size_t n = strlen(line);

	while (n && line[n - 1] == ' ')
		line[--n] = '\0';
	emit(o, line);
}

/* what a row's timeline draws, lines into o; width is checked */
static void tl_block(struct out *o, const struct il_board_row *row,
		     const struct tl_scale *sc, int width)
{
	const struct il_timeline *tl = row->tl;
	char line[TL_LEFT + TL_MAX_CELLS + 64], d[24], cells[TL_MAX_CELLS + 1];
	char name[32];
	int req = tl_col(sc, tl, tl->request_ns);
	int acq = tl_col(sc, tl, tl->acquired_ns);
	int n = sc->cells;

	il_format_duration(d, sizeof(d), tl->acquired_ns - tl->request_ns);
	snprintf(line, sizeof(line), "%s: %s waited %s for %s (%s)",
		 row->config, tl->waiter, d,
		 tl->resource[0] ? tl->resource : "the lock", row->verdict);
	if (il_board_cols(line) > width)
		line[width] = '\0';
	tl_emit(o, line);
	for (size_t i = 0; i < tl->nlanes; i++) {
		const struct il_tl_lane *l = &tl->lanes[i];
		double cov[TL_MAX_CELLS] = { 0 };

		for (size_t k = 0; k < l->nslices; k++) {
			const struct il_tl_slice *s = &l->s[k];
			double len = (double)(s->to_ns - s->from_ns);
			double dense = len > 0 ? (double)s->ran_ns / len : 1;
			int c0 = tl_col(sc, tl, s->from_ns);
			int c1 = tl_col(sc, tl, s->to_ns);
			uint64_t off = sc->pre - tl->request_ns;

			for (int c = c0; c <= c1; c++) {
				/* the cell in the window's time */
				double a = (double)c * (double)sc->step -
					   (double)off;
				double b = a + (double)sc->step;
				double lo = fmax(a, (double)s->from_ns);
				double hi = fmin(b, (double)s->to_ns);

				if (hi > lo)
					cov[c] += (hi - lo) * dense;
				else if (len == 0 && c == c0)
					cov[c] += 1; /* an instant: shown */
			}
		}
		for (int c = 0; c < n; c++)
			cells[c] = cov[c] >= (double)sc->step / 2 ? '#'
				   : cov[c] > 0			  ? ':'
				   : c == req || c == acq	  ? '|'
								  : ' ';
		cells[n] = '\0';
		/* a task not of the scenario: marked, not told by colour */
		snprintf(name, sizeof(name), "%s%s",
			 !strcmp(l->role, "foreign") ? "*" : "", l->name);
		tl_left(line, sizeof(line), name);
		il_appendf(line, sizeof(line), "%s", cells);
		tl_emit(o, line);
	}
	/* the wait: R at the request, A at the acquisition, B the boosts */
	memset(cells, ' ', (size_t)n);
	for (int c = req; c <= acq; c++)
		cells[c] = '=';
	cells[req] = 'R';
	for (size_t i = 0; i < tl->nboosts; i++) {
		int c = tl_col(sc, tl, tl->boosts[i].at_ns);

		while (c < n - 1 && (cells[c] == 'R' || cells[c] == 'B'))
			c++;
		if (cells[c] != 'R' && cells[c] != 'B')
			cells[c] = 'B';
	}
	if (acq > req || cells[acq] == '=')
		cells[acq] = 'A';
	else if (acq + 1 < n && cells[acq + 1] == ' ')
		cells[acq + 1] = 'A';
	cells[n] = '\0';
	tl_left(line, sizeof(line), "wait");
	il_appendf(line, sizeof(line), "%s", cells);
	{
		size_t e = strlen(line);

		while (e && line[e - 1] == ' ')
			line[--e] = '\0';
		il_appendf(line, sizeof(line), "  %s", d);
	}
	if (il_board_cols(line) > width)
		line[width] = '\0';
	tl_emit(o, line);
	/* the bound from the request: [---], '>' when it ends past the view */
	memset(cells, ' ', (size_t)n);
	if (tl->bound_ns) {
		uint64_t end = tl->request_ns + tl->bound_ns;
		uint64_t off = sc->pre - tl->request_ns;
		bool past = off + end >= (uint64_t)n * sc->step;
		int e = past ? n - 1 : tl_col(sc, tl, end);

		for (int c = req; c <= e; c++)
			cells[c] = '-';
		cells[req] = '[';
		if (e > req)
			cells[e] = past ? '>' : ']';
		il_format_duration(d, sizeof(d), tl->bound_ns);
	} else {
		snprintf(d, sizeof(d), "not known");
	}
	cells[n] = '\0';
	tl_left(line, sizeof(line), "bound");
	il_appendf(line, sizeof(line), "%s", cells);
	{
		size_t e = strlen(line);

		while (e && line[e - 1] == ' ')
			line[--e] = '\0';
		il_appendf(line, sizeof(line), "  %s", d);
	}
	if (il_board_cols(line) > width)
		line[width] = '\0';
	tl_emit(o, line);
}

static void tl_legend(char *buf, size_t len, const struct tl_scale *sc,
		      int width)
{
	char d[24];

	il_format_duration(d, sizeof(d), sc->step);
	snprintf(buf, len,
		 "worst waits (trace), 1 char = %s: # ran, : ran part of it, "
		 "R asks, B boosted, A gets it, [--] the bound, *foreign",
		 d);
	if (il_board_cols(buf) > width)
		snprintf(buf, len, "worst waits, 1 char = %s", d);
	if (il_board_cols(buf) > width)
		buf[width] = '\0';
}

int il_board_layout(const struct il_board *b, int width, int height, char *out,
		    size_t len)
{
	struct out o = { .buf = out, .len = len };
	char ruler[1024], labels[1024], tl[1024], ev[8192];
	int nrows = b->nrows > IL_BOARD_MAX_ROWS ? IL_BOARD_MAX_ROWS : b->nrows;
	int fixed, body = 0, evl[IL_BOARD_MAX_ROWS] = { 0 }, at;
	bool second = true, legend = true, axis = true;
	bool tlr[IL_BOARD_MAX_ROWS] = { false };
	struct tl_scale tls = { 0, 0, 0 };
	int ntl = 0;
	struct plan p;
	struct line l;

	if (len)
		out[0] = '\0';
	width = width < 40 ? 40 : width > 1000 ? 1000 : width;
	height = height < 3 ? 3 : height;
	make_plan(b, width, &p);

	/* what fits in height: rows first, then axis, second measures,
	 * legend, evidence of the newest rows */
	for (int r = 0; r < nrows; r++) {
		body += b->rows[r].nm > 1 ? 2 : 1;
		if (b->rows[r].state == IL_BOARD_DONE &&
		    b->rows[r].evidence[0]) {
			char first[40];

			snprintf(first, sizeof(first),
				 "%s: ", b->rows[r].config);
			evl[r] = il_board_wrap(b->rows[r].evidence, first, 4,
					       width, ev, sizeof(ev));
			evl[r] = evl[r] < 0 ? 0 : evl[r];
		}
	}
	fixed = 2 + body + (p.on[C_STRIP] ? 2 : 0) + 1;
	if (fixed > height) {
		legend = false;
		fixed--;
	}
	if (fixed > height) {
		second = false;
		for (int r = 0; r < nrows; r++)
			fixed -= b->rows[r].nm > 1 ? 1 : 0;
	}
	if (fixed > height && p.on[C_STRIP]) {
		axis = false;
		fixed -= 2;
	}
	/* evidence, newest first, while it fits */
	for (int r = nrows - 1; r >= 0; r--) {
		if (fixed + evl[r] > height)
			evl[r] = 0;
		fixed += evl[r];
	}

	/* the timelines last, whole, while they fit */
	if (b->final && tl_scale(b, nrows, width, &tls)) {
		int need = 1;

		for (int r = 0; r < nrows; r++) {
			if (!b->rows[r].tl || !b->rows[r].tl->span_ns)
				continue;
			if (fixed + need + tl_lines(b->rows[r].tl) > height)
				break;
			need += tl_lines(b->rows[r].tl);
			tlr[r] = true;
			ntl++;
		}
		if (ntl)
			fixed += need;
	}

	title_line(b, width, tl, sizeof(tl));
	emit(&o, tl);
	header_line(&p, &l);
	emit(&o, l.s);
	for (int r = 0; r < nrows && o.lines < height; r++)
		for (int k = 0; k < b->rows[r].nm && (k == 0 || second); k++) {
			row_line(&p, b, &b->rows[r], k, &l);
			if (o.lines < height)
				emit(&o, l.s);
		}
	at = p.cw + 1 + p.mw + 1 + VAL_W + 1 + (p.on[C_N] ? 8 : 0) +
	     (p.on[C_P50] ? VAL_W + 1 : 0) + (p.on[C_MAX] ? VAL_W + 1 : 0) +
	     (p.on[C_BOUND] ? VAL_W + 1 : 0);
	if (p.on[C_STRIP] && axis && o.lines + 2 <= height) {
		size_t lw = (size_t)width + 1 < sizeof(labels)
				    ? (size_t)width + 1
				    : sizeof(labels);

		axis_lines(&p.a, at, common_mark(b, &p.a), ruler, labels, lw);
		emit(&o, ruler);
		emit(&o, labels);
	}
	if (legend && o.lines < height) {
		snprintf(tl, sizeof(tl), "%s",
			 p.on[C_STRIP] ? "strip: how many samples took how "
					 "long (log axis); | marks the bound"
				       : "the verdict is the judge's, against "
					 "the bound");
		if (il_board_cols(tl) > width)
			snprintf(tl, sizeof(tl), "| marks the bound");
		emit(&o, tl);
	}
	for (int r = 0; r < nrows; r++) {
		char first[40];

		if (!evl[r] || o.lines + evl[r] > height)
			continue;
		snprintf(first, sizeof(first), "%s: ", b->rows[r].config);
		if (il_board_wrap(b->rows[r].evidence, first, 4, width, ev,
				  sizeof(ev)) < 0)
			continue;
		for (char *s = ev, *nl; *s; s = nl + 1) {
			nl = strchr(s, '\n');
			*nl = '\0';
			emit(&o, s);
		}
	}
	if (ntl) {
		tl_legend(tl, sizeof(tl), &tls, width);
		emit(&o, tl);
		for (int r = 0; r < nrows; r++)
			if (tlr[r] &&
			    o.lines + tl_lines(b->rows[r].tl) <= height)
				tl_block(&o, &b->rows[r], &tls, width);
	}
	return o.full ? -ENOSPC : o.lines;
}
