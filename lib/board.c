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
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <invlab/board.h>
#include <invlab/strbuf.h>
#include <invlab/time.h>

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

int il_board_layout(const struct il_board *b, int width, int height, char *out,
		    size_t len)
{
	struct out o = { .buf = out, .len = len };
	char ruler[1024], labels[1024], tl[1024], ev[8192];
	int nrows = b->nrows > IL_BOARD_MAX_ROWS ? IL_BOARD_MAX_ROWS : b->nrows;
	int fixed, body = 0, evl[IL_BOARD_MAX_ROWS] = { 0 }, at;
	bool second = true, legend = true, axis = true;
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
	return o.full ? -ENOSPC : o.lines;
}
