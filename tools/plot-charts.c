// SPDX-License-Identifier: MIT
/*
 * invlab-plot's layouts, drawn into a scene (plot-scene.h).  For each
 * histogram drawn (plot.h: blocked_ns and wakeup_ns by default):
 *
 *   - one latency histogram per configuration, log latency and log
 *     counts on axes shared by the row, so the shapes compare at a
 *     glance: an inversion is a second hump an order of magnitude to the
 *     right.  Each carries the bound its runs were judged against (a
 *     solid line, the noise allowance shaded after it), the p99 of each
 *     side (dashed), and the verdict in a badge that says it in words;
 *   - a percentile plot, p50 to p99.99 on a "nines" axis against log
 *     latency, one curve per configuration and side, dots on the
 *     reported percentiles, with a legend drawn from the same styles;
 *   - with two result sets, candidate / baseline at each percentile.
 *
 * One configuration gets its histogram and percentile plot side by side,
 * so the page is filled.  Every text is at least 16 px at the default
 * width (a quarter of a slide stays legible), is cut to the room it has,
 * and floating labels (bound, p99) are placed where they meet no other
 * label: the tests check that no two texts of the SVG overlap.  Curves
 * stop where the samples do: a p99.9 needs 1000 samples.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "plot.h"

/* ---- geometry ---------------------------------------------------------- */

#define MARGIN	    24
#define TITLE_H	    84
#define HIST_H	    360
#define PCT_H	    400
#define MAX_COLS    3
#define MIN_PANEL_W 360
/* inside a panel: room for the axis labels */
#define PAD_L 88
#define PAD_R 18
#define PAD_B 62
/* the percentile axis: -log10(1 - p) from p50 to p99.99 */
#define NINES_LO 0.30103
#define NINES_HI 4.0

#define FS	 16 /* ticks, labels, legends: every text is >= 16 px */
#define FS_HEAD	 18
#define FS_TITLE 24

#define INK	  0x222222
#define GREY_INK  0x555555
#define BASE_GREY 0x7f7f7f

static const struct pl_style grid = { .stroke = 0xdddddd,
				      .fill = PL_NONE,
				      .width = 1 };
static const struct pl_style tick = { .stroke = 0x444444,
				      .fill = PL_NONE,
				      .width = 1 };
static const struct pl_style frame_st = { .stroke = 0x444444,
					  .fill = PL_NONE,
					  .width = 1 };
static const struct pl_style plot_bg = { .stroke = PL_NONE, .fill = 0xfbfbfb };

static const struct {
	double q;
	const char *label;
} marks[] = {
	{ 0.5, "p50" },	    { 0.9, "p90" },	  { 0.99, "p99" },
	{ 0.999, "p99.9" }, { 0.9999, "p99.99" },
};
#define NMARKS (sizeof(marks) / sizeof(marks[0]))

/* a log axis mapped onto [p0, p1] pixels */
struct axis {
	double lo, hi; /* log of the range */
	double p0, p1;
};

static double map(const struct axis *a, double log_v)
{
	return a->p0 + (log_v - a->lo) / (a->hi - a->lo) * (a->p1 - a->p0);
}

static double nines_x(const struct axis *ax, double q)
{
	return map(ax, -log10(1 - q));
}

/* a panel: its box, and the plot area inside it */
struct panel {
	double ox, oy, w, h;
	double x0, y0, x1, y1;
};

/* texts already placed in a panel, so that the next one avoids them */
#define MAX_BOXES 96
struct boxes {
	size_t n;
	double b[MAX_BOXES][4]; /* x0 y0 x1 y1 */
};

static bool box_free(const struct boxes *bx, const double b[4])
{
	for (size_t i = 0; i < bx->n; i++)
		if (b[0] < bx->b[i][2] && bx->b[i][0] < b[2] &&
		    b[1] < bx->b[i][3] && bx->b[i][1] < b[3])
			return false;
	return true;
}

static void box_add(struct boxes *bx, double x0, double y0, double x1,
		    double y1)
{
	if (bx->n < MAX_BOXES) {
		bx->b[bx->n][0] = x0;
		bx->b[bx->n][1] = y0;
		bx->b[bx->n][2] = x1;
		bx->b[bx->n][3] = y1;
		bx->n++;
	}
}

/* "1us", "10ms": decade ticks */
static void fmt_tick_ns(char *buf, size_t len, double ns)
{
	if (ns < 1e3)
		snprintf(buf, len, "%gns", ns);
	else if (ns < 1e6)
		snprintf(buf, len, "%gus", ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, len, "%gms", ns / 1e6);
	else
		snprintf(buf, len, "%gs", ns / 1e9);
}

static void fmt_tick_count(char *buf, size_t len, double c)
{
	if (c < 1e3)
		snprintf(buf, len, "%g", c);
	else if (c < 1e6)
		snprintf(buf, len, "%gk", c / 1e3);
	else if (c < 1e9)
		snprintf(buf, len, "%gM", c / 1e6);
	else
		snprintf(buf, len, "%gG", c / 1e9);
}

/*
 * A tick label under the plot, centred on x but kept inside the panel,
 * and skipped when it would touch the previous one (*last: its right
 * edge).
 */
static void x_label(struct pl_scene *sc, const struct panel *pn, double x,
		    double *last, const char *s)
{
	struct pl_font f = pl_font_of(FS, INK, PL_MIDDLE, false);
	double w = pl_text_width(&f, s);

	x = fmax(x, pn->ox + w / 2 + 2);
	x = fmin(x, pn->ox + pn->w - w / 2 - 2);
	if (x - w / 2 < *last + 8)
		return;
	pl_text(sc, x, pn->y1 + 22, &f, s);
	*last = x + w / 2;
}

/* a label left of the plot at y, skipped when it would touch the last */
static void y_label(struct pl_scene *sc, const struct panel *pn, double y,
		    double *last, const char *s)
{
	struct pl_font f = pl_font_of(FS, INK, PL_END, false);

	/* going up: *last is the top of the previous label */
	if (y + 0.25 * FS > *last - 4)
		return;
	pl_text(sc, pn->x0 - 8, y + 0.3 * FS, &f, s);
	*last = y + 0.3 * FS - 0.8 * FS;
}

/* decade ticks and grid on a log10 axis; minor ticks at 2..9 */
static void log_ticks_x(struct pl_scene *sc, const struct panel *pn,
			const struct axis *ax, bool counts)
{
	struct pl_font f = pl_font_of(FS, INK, PL_MIDDLE, false);
	double last = -INFINITY, widest = 0, decade = map(ax, 1) - map(ax, 0);
	int d0 = (int)ceil(ax->lo - 1e-9), step = 1;
	char buf[32];

	/* every step-th decade labelled, so that the labels keep apart */
	for (int d = d0; d <= (int)floor(ax->hi + 1e-9); d++) {
		if (counts)
			fmt_tick_count(buf, sizeof(buf), pow(10, d));
		else
			fmt_tick_ns(buf, sizeof(buf), pow(10, d));
		widest = fmax(widest, pl_text_width(&f, buf));
	}
	while (step < 8 && (double)step * decade < widest + 12)
		step++;
	pl_group(sc, "axis x", NULL, NULL);
	for (int d = (int)floor(ax->lo); d <= (int)ceil(ax->hi); d++) {
		for (int m = 1; m < 10; m++) {
			double lv = d + log10(m), x;

			if (lv < ax->lo - 1e-9 || lv > ax->hi + 1e-9)
				continue;
			x = map(ax, lv);
			if (m == 1) {
				pl_line(sc, x, pn->y0, x, pn->y1, &grid);
				if (counts)
					fmt_tick_count(buf, sizeof(buf),
						       pow(10, d));
				else
					fmt_tick_ns(buf, sizeof(buf),
						    pow(10, d));
				if ((d - d0) % step == 0)
					x_label(sc, pn, x, &last, buf);
			}
			if ((m == 2 || m == 5) && ax->hi - ax->lo < 2.5) {
				/* a short axis: 2 and 5 of each decade too */
				if (counts)
					fmt_tick_count(buf, sizeof(buf),
						       m * pow(10, d));
				else
					fmt_tick_ns(buf, sizeof(buf),
						    m * pow(10, d));
				x_label(sc, pn, x, &last, buf);
			}
			pl_line(sc, x, pn->y1, x, pn->y1 + (m == 1 ? 6 : 3),
				&tick);
		}
	}
	pl_group_end(sc);
}

static void log_ticks_y(struct pl_scene *sc, const struct panel *pn,
			const struct axis *ay, bool counts)
{
	double last = INFINITY;
	char buf[32];

	/* a short axis gets 2 and 5 of each decade as well */
	static const double few[] = { 1 }, more[] = { 1, 2, 5 };
	bool short_axis = ay->hi - ay->lo < 2.5;
	const double *mult = short_axis ? more : few;
	size_t nmult = short_axis ? 3 : 1;

	pl_group(sc, "axis y", NULL, NULL);
	for (int d = (int)floor(ay->lo); d <= (int)floor(ay->hi + 1e-9); d++) {
		for (size_t i = 0; i < nmult; i++) {
			double lv = d + log10(mult[i]), y;

			if (lv < ay->lo - 1e-9 || lv > ay->hi + 1e-9)
				continue;
			y = map(ay, lv);
			pl_line(sc, pn->x0, y, pn->x1, y, &grid);
			pl_line(sc, pn->x0 - 5, y, pn->x0, y, &tick);
			if (counts)
				fmt_tick_count(buf, sizeof(buf),
					       mult[i] * pow(10, d));
			else
				fmt_tick_ns(buf, sizeof(buf),
					    mult[i] * pow(10, d));
			y_label(sc, pn, y, &last, buf);
		}
	}
	pl_group_end(sc);
}

/* the nines axis: p50 .. p99.99 */
static void nines_ticks(struct pl_scene *sc, const struct panel *pn,
			const struct axis *ax)
{
	double last = -INFINITY;

	pl_group(sc, "axis x", NULL, NULL);
	for (size_t i = 0; i < NMARKS; i++) {
		double x = nines_x(ax, marks[i].q);

		pl_line(sc, x, pn->y0, x, pn->y1, &grid);
		pl_line(sc, x, pn->y1, x, pn->y1 + 6, &tick);
		x_label(sc, pn, x, &last, marks[i].label);
	}
	pl_group_end(sc);
}

static void axis_labels(struct pl_scene *sc, const struct panel *pn,
			const char *xl, const char *yl)
{
	struct pl_font fx = pl_font_of(FS, INK, PL_MIDDLE, false), fy = fx;

	pl_text_fitted(sc, (pn->x0 + pn->x1) / 2, pn->y1 + 48, &fx,
		       pn->x1 - pn->x0, xl);
	fy.vertical = true;
	pl_text_fitted(sc, pn->x0 - 68, (pn->y0 + pn->y1) / 2, &fy,
		       pn->y1 - pn->y0, yl);
}

static void plot_area(struct pl_scene *sc, const struct panel *pn)
{
	pl_rect(sc, pn->x0, pn->y0, pn->x1 - pn->x0, pn->y1 - pn->y0, &plot_bg);
}

static void frame(struct pl_scene *sc, const struct panel *pn)
{
	pl_rect(sc, pn->x0, pn->y0, pn->x1 - pn->x0, pn->y1 - pn->y0,
		&frame_st);
}

/*
 * A label beside the vertical line at x, in the top rows of the plot
 * area, on the side it prefers or the other, where it fits and meets no
 * label already placed.  Not drawn when there is no such place.
 */
static void float_label(struct pl_scene *sc, const struct panel *pn,
			struct boxes *bx, double x, bool right, uint32_t color,
			bool bold, const char *s)
{
	struct pl_font f = pl_font_of(FS, color, PL_START, bold);
	double w = pl_text_width(&f, s);
	const struct pl_style bg = { .stroke = PL_NONE,
				     .fill = 0xffffff,
				     .fill_opacity = 0.8 };

	for (int row = 0; row < 6; row++) {
		double base = pn->y0 + 22 + 24.0 * row;

		if (base + 0.25 * FS > pn->y1 - 2)
			break;
		for (int k = 0; k < 3; k++) {
			bool r = k ? !right : right;
			/* beside the line, else over it, inside the plot */
			double l = k == 2 ? fmin(fmax(x - w / 2, pn->x0 + 4),
						 pn->x1 - 4 - w)
				   : r	  ? x + 5
					  : x - 5 - w;
			double b[4] = { l - 2, base - 0.8 * FS - 2, l + w + 2,
					base + 0.25 * FS + 2 };

			if (l < pn->x0 + 2 || l + w > pn->x1 - 2 ||
			    !box_free(bx, b))
				continue;
			box_add(bx, b[0], b[1], b[2], b[3]);
			pl_rect(sc, b[0], b[1], b[2] - b[0], b[3] - b[1], &bg);
			pl_text(sc, l, base, &f, s);
			return;
		}
	}
}

/* ---- histograms ---------------------------------------------------------- */

/* display value of a bucket: its midpoint within the exact min and max */
static double bucket_mid(const struct il_hist *h, unsigned j)
{
	double lo = (double)il_hist_bucket_lo(j),
	       hi = (double)il_hist_bucket_hi(j) - 1;
	double v = (lo + hi) / 2;

	return fmax(fmin(v, (double)h->max), (double)h->min);
}

/* counts per display bin of width 1/bpd decade starting at 10^lo */
static size_t rebin(const struct il_hist *h, double lo, long bpd, double *bins,
		    size_t nbins)
{
	size_t used = 0;

	memset(bins, 0, nbins * sizeof(*bins));
	for (unsigned j = 0; h && j < IL_HIST_NBUCKETS; j++) {
		double v;
		long b;

		if (!h->bins[j])
			continue;
		v = fmax(bucket_mid(h, j), 1);
		b = (long)floor((log10(v) - lo) * (double)bpd);
		if (b < 0)
			b = 0;
		if ((size_t)b >= nbins)
			b = (long)nbins - 1;
		bins[b] += (double)h->bins[j];
		if ((size_t)b + 1 > used)
			used = (size_t)b + 1;
	}
	return used;
}

static const struct il_hist *hist_of(const struct plot_side *sd, size_t k)
{
	return sd->m[k] ? sd->m[k]->merged : NULL;
}

/* One histogram as bars: x on ax (log ns), y on ay (log count). */
static void bars(struct pl_scene *sc, const struct il_hist *h,
		 const struct axis *ax, const struct axis *ay, long bpd,
		 const struct pl_style *st)
{
	size_t nbins = (size_t)((ax->hi - ax->lo) * (double)bpd + 0.5) + 1;
	double *b = calloc(nbins, sizeof(*b));
	double ybase = ay->p0;
	size_t used;

	if (!b)
		return;
	used = rebin(h, ax->lo, bpd, b, nbins);
	for (size_t i = 0; i < used; i++) {
		double x0, x1, y;

		if (!b[i])
			continue;
		x0 = map(ax, ax->lo + (double)i / (double)bpd);
		x1 = map(ax, ax->lo + (double)(i + 1) / (double)bpd);
		y = map(ay, log10(b[i]));
		pl_rect(sc, x0, y, x1 - x0, ybase - y, st);
	}
	free(b);
}

/* the shared axes of metric k: every histogram on one scale */
struct hist_axes {
	struct axis x, y;
};

static int hist_axes(const struct plot *p, size_t k, struct hist_axes *ha)
{
	double vlo = INFINITY, vhi = 0, chi = 1;
	long bpd = (long)p->cfg->bins_per_decade;

	for (size_t i = 0; i < p->n; i++) {
		for (int side = 0; side < 2; side++) {
			const struct plot_side *sd = &p->s[i].side[side];
			const struct il_hist *h = hist_of(sd, k);
			double *b;
			size_t nb;

			if (sd->bound.nchecks) {
				vlo = fmin(vlo, (double)sd->bound.bound_ns);
				vhi = fmax(vhi, (double)(sd->bound.bound_ns +
							 sd->bound.noise_ns));
			}
			if (!h || !h->count)
				continue;
			vlo = fmin(vlo, fmax((double)h->min, 1));
			vhi = fmax(vhi, fmax((double)h->max, 1));
			/* the tallest bar, on a provisional wide axis */
			nb = (size_t)(12 * bpd) + 1;
			b = calloc(nb, sizeof(*b));
			if (!b)
				return -1;
			rebin(h, 0, bpd, b, nb);
			for (size_t j = 0; j < nb; j++)
				chi = fmax(chi, b[j]);
			free(b);
		}
	}
	if (!(vhi > 0))
		vlo = vhi = 1000;
	ha->x.lo = floor(log10(vlo));
	ha->x.hi = ceil(log10(vhi) + 1e-9);
	if (ha->x.hi - ha->x.lo < 1)
		ha->x.hi = ha->x.lo + 1;
	/* counts from 0.5, so that a bar of one sample shows; room above */
	ha->y.lo = log10(0.5);
	ha->y.hi = ceil(log10(chi) + 1e-9) + 0.5;
	if (ha->y.hi < 1)
		ha->y.hi = 1;
	return 0;
}

/*
 * A side's verdict in words: "PASS", "FAIL (expected)", "FAIL 1/3";
 * "no verdict" when its runs have none.
 */
static const char *verdict_words(char *buf, size_t len,
				 const struct il_res_group *g, bool brief,
				 enum il_verdict *worst)
{
	static const enum il_verdict order[] = { IL_FAIL, IL_UNDECIDED, IL_SKIP,
						 IL_PASS };

	*worst = IL_NONE;
	if (!g || !g->nruns) {
		snprintf(buf, len, "no runs");
		return buf;
	}
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		enum il_verdict v = order[i];
		size_t c = g->verdicts[v];

		if (!c)
			continue;
		*worst = v;
		if (c < g->nruns)
			snprintf(buf, len, "%s %zu/%zu", il_verdict_name(v), c,
				 g->nruns);
		else if (v != IL_PASS && !brief &&
			 g->outcomes[IL_OUT_AS_EXPECTED] == g->nruns)
			snprintf(buf, len, "%s (expected)", il_verdict_name(v));
		else
			snprintf(buf, len, "%s", il_verdict_name(v));
		return buf;
	}
	snprintf(buf, len, "no verdict");
	return buf;
}

static uint32_t verdict_color(enum il_verdict v)
{
	switch (v) {
	case IL_PASS:
		return 0x2a7d2a;
	case IL_FAIL:
		return 0xc0261f;
	case IL_UNDECIDED:
		return 0xa86200;
	default:
		return 0x666666;
	}
}

/* the verdict badge at the right of the heading; returns its left edge */
static double verdict_badge(struct pl_scene *sc, const struct plot *p,
			    const struct plot_series *s, const struct panel *pn,
			    struct boxes *bx)
{
	char a[64], b[64], t[320];
	const char *shown;
	enum il_verdict va, vb = IL_NONE;
	struct pl_font f = pl_font_of(FS, 0xffffff, PL_MIDDLE, true);
	struct pl_style st = { .stroke = PL_NONE };
	double w, r = pn->x1, top = pn->oy + 6;

	for (int brief = 0; brief < 2; brief++) {
		verdict_words(a, sizeof(a), s->side[0].g, brief, &va);
		if (p->two) {
			verdict_words(b, sizeof(b), s->side[1].g, brief, &vb);
			snprintf(t + brief * 160, 160, "%s \xe2\x86\x92 %s", a,
				 b);
			st.fill = verdict_color(vb);
		} else {
			snprintf(t + brief * 160, 160, "%s", a);
			st.fill = verdict_color(va);
		}
	}
	/* the long words when they leave the heading room, else the short */
	shown = t;
	if (pl_text_width(&f, t) + 12 > pn->x1 - pn->x0 - 100)
		shown = t + 160;
	w = pl_text_width(&f, shown) + 12;
	pl_group(sc, "verdict", NULL,
		 (const char *[]){ "data-verdict", t, NULL });
	pl_rect(sc, r - w, top, w, 26, &st);
	f.anchor = PL_MIDDLE;
	pl_text_fitted(sc, r - w / 2, top + 19, &f, w - 12, shown);
	pl_group_end(sc);
	box_add(bx, r - w, top, r, top + 26);
	return r - w;
}

/* the swatch and words of one side of a two-sided histogram */
static void side_legend(struct pl_scene *sc, const struct plot_series *s,
			const char *hid, int side, size_t k,
			const struct pl_style *st, const struct panel *pn,
			double y)
{
	const struct il_res_metric *m = s->side[side].m[k];
	const char *who = side ? "candidate" : "baseline";
	struct pl_font f = pl_font_of(FS, GREY_INK, PL_START, false);
	char id[192], t[256];

	if (!m) {
		snprintf(t, sizeof(t), "%s: no samples", who);
		pl_text_fitted(sc, pn->x0 + 20, y, &f, pn->x1 - pn->x0 - 20, t);
		return;
	}
	snprintf(id, sizeof(id), "%s-%s", hid, side ? "cand" : "base");
	snprintf(t, sizeof(t), "%s: %llu samples, %zu run%s", who,
		 (unsigned long long)m->merged->count, m->nruns,
		 m->nruns == 1 ? "" : "s");
	pl_group(sc, "legend-entry", NULL,
		 (const char *[]){ "data-series", id, NULL });
	pl_rect(sc, pn->x0, y - 13, 14, 14, st);
	pl_text_fitted(sc, pn->x0 + 20, y, &f, pn->x1 - pn->x0 - 20, t);
	pl_group_end(sc);
}

static void bound_mark(struct pl_scene *sc, const struct panel *pn,
		       const struct axis *ax, struct boxes *bx,
		       const struct plot_bound *b, const char *who,
		       uint32_t color)
{
	char v[32], t[96];
	double x, xn;
	struct pl_style line = { .stroke = color,
				 .fill = PL_NONE,
				 .width = 2.5 };
	struct pl_style band = { .stroke = PL_NONE,
				 .fill = color,
				 .fill_opacity = 0.12 };

	if (!b->nchecks)
		return;
	x = map(ax, log10(fmax((double)b->bound_ns, 1)));
	xn = map(ax, log10(fmax((double)(b->bound_ns + b->noise_ns), 1)));
	il_res_fmt_ns(v, sizeof(v), (double)b->bound_ns);
	snprintf(t, sizeof(t), "bound%s %s", who, v);
	pl_group(sc, "bound", NULL,
		 (const char *[]){ "data-bound-name", b->name, NULL });
	if (xn > x + 0.5)
		pl_rect(sc, x, pn->y0, xn - x, pn->y1 - pn->y0, &band);
	pl_line(sc, x, pn->y0, x, pn->y1, &line);
	float_label(sc, pn, bx, x, x < (pn->x0 + pn->x1) / 2, color, true, t);
	pl_group_end(sc);
}

static void p99_mark(struct pl_scene *sc, const struct panel *pn,
		     const struct axis *ax, struct boxes *bx,
		     const struct il_hist *h, uint32_t color)
{
	struct pl_style st = { .stroke = color,
			       .fill = PL_NONE,
			       .width = 1.8,
			       .dash_on = 5,
			       .dash_off = 4 };
	char v[32], t[64];
	uint64_t val;
	double x;

	const char *what = "p99";

	if (!h || !h->count)
		return;
	/* fewer than 100 samples have no p99: their worst, then */
	if (il_hist_percentile(h, 0.99, &val)) {
		val = h->max;
		what = "max";
	}
	x = map(ax, log10(fmax((double)val, 1)));
	il_res_fmt_ns(v, sizeof(v), (double)val);
	snprintf(t, sizeof(t), "%s %s", what, v);
	pl_group(sc, what, NULL, NULL);
	pl_line(sc, x, pn->y0, x, pn->y1, &st);
	float_label(sc, pn, bx, x, x < (pn->x0 + pn->x1) / 2, color, false, t);
	pl_group_end(sc);
}

static void histogram_panel(struct pl_scene *sc, const struct plot *p,
			    const struct plot_series *s, size_t k,
			    const struct panel *box, const struct hist_axes *ha)
{
	struct panel pn = *box;
	struct axis ax = ha->x, ay = ha->y;
	struct boxes bx = { 0 };
	long bpd = (long)p->cfg->bins_per_decade;
	const struct il_hist *hb = hist_of(&s->side[0], k),
			     *hc = hist_of(&s->side[1], k);
	struct pl_style base_st = { .stroke = 0x555555,
				    .fill = BASE_GREY,
				    .width = 0.8,
				    .fill_opacity = 0.45 };
	struct pl_style own_st = { .stroke = s->color,
				   .fill = s->color,
				   .width = 0.8,
				   .fill_opacity = p->two ? 0.5 : 0.6 };
	struct pl_font head = pl_font_of(FS_HEAD, INK, PL_START, true);
	char id[128], pid[160], xl[128], t[256];
	double left;

	pn.x0 = pn.ox + PAD_L;
	pn.x1 = pn.ox + pn.w - PAD_R;
	pn.y0 = pn.oy + (p->two ? 86 : 62);
	pn.y1 = pn.oy + pn.h - PAD_B;
	ax.p0 = pn.x0;
	ax.p1 = pn.x1;
	ay.p0 = pn.y1;
	ay.p1 = pn.y0;
	snprintf(id, sizeof(id), "hist-%s", s->id);
	if (p->nmetrics > 1) {
		/* one panel per configuration and histogram */
		size_t n = strlen(id);

		snprintf(id + n, sizeof(id) - n, "-%s", p->metric[k]);
	}
	snprintf(pid, sizeof(pid), "panel-%s", id);
	pl_group(sc, "panel histogram", pid,
		 (const char *[]){ "data-configuration", s->label,
				   "data-metric", p->metric[k], NULL });
	plot_area(sc, &pn);
	log_ticks_x(sc, &pn, &ax, false);
	log_ticks_y(sc, &pn, &ay, true);

	left = verdict_badge(sc, p, s, &pn, &bx);
	pl_text_fitted(sc, pn.x0, pn.oy + 26, &head, left - 12 - pn.x0,
		       s->label);
	if (p->two) {
		side_legend(sc, s, id, 0, k, &base_st, &pn, pn.oy + 52);
		side_legend(sc, s, id, 1, k, &own_st, &pn, pn.oy + 74);
	} else {
		struct pl_font f = pl_font_of(FS, GREY_INK, PL_START, false);
		const struct il_res_metric *m = s->side[0].m[k];

		snprintf(t, sizeof(t), "%llu samples, %zu run%s",
			 (unsigned long long)(m ? m->merged->count : 0),
			 m ? m->nruns : 0, m && m->nruns == 1 ? "" : "s");
		pl_text_fitted(sc, pn.x0, pn.oy + 50, &f, pn.x1 - pn.x0, t);
	}

	/* the bound under the bars, the p99 over them */
	if (!p->two || s->side[0].bound.bound_ns == s->side[1].bound.bound_ns) {
		bound_mark(sc, &pn, &ax, &bx,
			   &s->side[s->side[0].bound.nchecks ? 0 : 1].bound, "",
			   INK);
	} else {
		bound_mark(sc, &pn, &ax, &bx, &s->side[0].bound, " (base)",
			   GREY_INK);
		bound_mark(sc, &pn, &ax, &bx, &s->side[1].bound, " (cand)",
			   INK);
	}
	if (hb) {
		char sid[160];

		snprintf(sid, sizeof(sid), "%s%s", id, p->two ? "-base" : "");
		pl_group(sc, "series", sid,
			 (const char *[]){
				 "data-side", p->two ? "baseline" : "results",
				 "data-configuration", s->label, NULL });
		bars(sc, hb, &ax, &ay, bpd, p->two ? &base_st : &own_st);
		pl_group_end(sc);
	}
	if (hc) {
		char sid[160];

		snprintf(sid, sizeof(sid), "%s-cand", id);
		pl_group(sc, "series", sid,
			 (const char *[]){ "data-side", "candidate",
					   "data-configuration", s->label,
					   NULL });
		bars(sc, hc, &ax, &ay, bpd, &own_st);
		pl_group_end(sc);
	}
	p99_mark(sc, &pn, &ax, &bx, hb, p->two ? GREY_INK : s->color);
	p99_mark(sc, &pn, &ax, &bx, hc, s->color);
	if ((!hb || !hb->count) && (!hc || !hc->count)) {
		struct pl_font f = pl_font_of(FS, 0x777777, PL_MIDDLE, false);

		pl_text(sc, (pn.x0 + pn.x1) / 2, (pn.y0 + pn.y1) / 2, &f,
			"no samples");
	}
	frame(sc, &pn);
	snprintf(xl, sizeof(xl), "%s (log scale)", p->metric[k]);
	axis_labels(sc, &pn, xl, "samples per bar (log)");
	pl_group_end(sc);
}

/* ---- percentiles ------------------------------------------------------- */

/* a curve's look: the legend draws its entries from the same */
struct curve_look {
	struct pl_style line;
	struct pl_style dot;
};

static struct curve_look look(uint32_t color, bool dashed)
{
	struct curve_look l = {
		.line = { .stroke = color,
			  .fill = PL_NONE,
			  .width = dashed ? 2 : 2.5,
			  .dash_on = dashed ? 7 : 0,
			  .dash_off = dashed ? 4 : 0 },
		.dot = { .stroke = dashed ? color : 0xffffff,
			 .fill = dashed ? 0xffffff : color,
			 .width = dashed ? 1.8 : 1 },
	};

	return l;
}

/* the quantile function of h from p50 up to where its samples allow */
static void pct_curve(struct pl_scene *sc, const struct il_hist *h,
		      const struct axis *ax, const struct axis *ay,
		      const struct curve_look *lk)
{
	double *xy;
	size_t n = 0;
	uint64_t v;

	if (!h || !h->count)
		return;
	xy = malloc(2 * 400 * sizeof(*xy));
	if (!xy)
		return;
	for (double q9 = NINES_LO; q9 <= NINES_HI + 1e-9 && n < 400;
	     q9 += 0.01) {
		double q = 1 - pow(10, -q9);

		if (il_hist_percentile(h, q, &v))
			break;
		xy[2 * n] = nines_x(ax, q);
		xy[2 * n + 1] = map(ay, log10(fmax((double)v, 1)));
		n++;
	}
	pl_polyline(sc, xy, n, false, &lk->line);
	free(xy);
	for (size_t i = 0; i < NMARKS; i++) {
		if (il_hist_percentile(h, marks[i].q, &v))
			break;
		pl_circle(sc, nines_x(ax, marks[i].q),
			  map(ay, log10(fmax((double)v, 1))), 4, &lk->dot);
	}
}

/* the range of values a percentile curve of h covers */
static void pct_range(const struct il_hist *h, double *lo, double *hi)
{
	uint64_t v;

	if (!h || !h->count)
		return;
	for (double n = NINES_LO; n <= NINES_HI + 1e-9; n += 0.01) {
		double q = 1 - pow(10, -n);

		if (il_hist_percentile(h, q, &v))
			break;
		*lo = fmin(*lo, fmax((double)v, 1));
		*hi = fmax(*hi, fmax((double)v, 1));
	}
}

struct legend_entry {
	char series[160]; /* the id of the series it stands for */
	char label[256];
	struct curve_look lk;
};

static double legend_width(const struct legend_entry *e, size_t n)
{
	struct pl_font f = pl_font_of(FS, INK, PL_START, false);
	double w = 0;

	for (size_t i = 0; i < n; i++)
		w = fmax(w, pl_text_width(&f, e[i].label));
	return w + 44;
}

/* entries right of the plot, from x to the panel's right edge */
static void legend(struct pl_scene *sc, const struct panel *pn,
		   const struct legend_entry *e, size_t n, double x)
{
	struct pl_font f = pl_font_of(FS, INK, PL_START, false);
	double max = pn->ox + pn->w - 6 - (x + 38);
	size_t i;

	pl_group(sc, "legend", NULL, NULL);
	for (i = 0; i < n; i++) {
		double y = pn->y0 + 18 + 26.0 * (double)i;

		if (y + 26 > pn->y1 + 0.25 * FS && i + 1 < n) {
			char more[48];

			snprintf(more, sizeof(more), "(%zu more)", n - i);
			pl_text(sc, x, y, &f, more);
			break;
		}
		pl_group(sc, "legend-entry", NULL,
			 (const char *[]){ "data-series", e[i].series, NULL });
		pl_line(sc, x, y - 5, x + 30, y - 5, &e[i].lk.line);
		pl_circle(sc, x + 15, y - 5, 4, &e[i].lk.dot);
		pl_text_fitted(sc, x + 38, y, &f, max, e[i].label);
		pl_group_end(sc);
	}
	pl_group_end(sc);
}

static void panel_head(struct pl_scene *sc, const struct panel *pn,
		       const char *s)
{
	struct pl_font f = pl_font_of(FS_HEAD, INK, PL_START, true);

	pl_text_fitted(sc, pn->x0, pn->oy + 26, &f, pn->ox + pn->w - 6 - pn->x0,
		       s);
}

static void percentile_panel(struct pl_scene *sc, const struct plot *p,
			     size_t k, const struct panel *box)
{
	struct panel pn = *box;
	struct legend_entry *e = calloc(2 * p->n + 1, sizeof(*e));
	double lo = INFINITY, hi = 0, lw;
	struct axis ax, ay;
	size_t ne = 0;
	char id[96], t[160];

	if (!e)
		return;
	for (size_t i = 0; i < p->n; i++) {
		for (int side = 0; side < 2; side++) {
			const struct plot_series *s = &p->s[i];
			struct legend_entry *le = &e[ne];

			if (!s->side[side].m[k])
				continue;
			pct_range(hist_of(&s->side[side], k), &lo, &hi);
			snprintf(le->series, sizeof(le->series), "pct-%s%s%s%s",
				 s->id, p->nmetrics > 1 ? "-" : "",
				 p->nmetrics > 1 ? p->metric[k] : "",
				 !p->two ? ""
				 : side	 ? "-cand"
					 : "-base");
			snprintf(le->label, sizeof(le->label), "%s%s", s->label,
				 !p->two ? ""
				 : side	 ? ", candidate"
					 : ", baseline");
			le->lk = look(s->color, p->two && !side);
			ne++;
		}
	}
	lw = fmin(legend_width(e, ne), pn.w * 0.42);
	pn.x0 = pn.ox + PAD_L;
	pn.x1 = pn.ox + pn.w - PAD_R - lw;
	pn.y0 = pn.oy + 44;
	pn.y1 = pn.oy + pn.h - PAD_B;
	ax = (struct axis){ NINES_LO, NINES_HI, pn.x0, pn.x1 };
	snprintf(id, sizeof(id), "percentiles%s%s", p->nmetrics > 1 ? "-" : "",
		 p->nmetrics > 1 ? p->metric[k] : "");
	pl_group(sc, "panel percentiles", id,
		 (const char *[]){ "data-metric", p->metric[k], NULL });
	snprintf(t, sizeof(t), "%s percentiles (merged runs)", p->metric[k]);
	panel_head(sc, &pn, t);
	plot_area(sc, &pn);
	if (!(hi > 0)) {
		struct pl_font f = pl_font_of(FS, 0x777777, PL_MIDDLE, false);

		pl_text_fitted(sc, (pn.x0 + pn.x1) / 2, (pn.y0 + pn.y1) / 2, &f,
			       pn.x1 - pn.x0, "too few samples for p50");
		lo = hi = 1000;
	}
	ay.lo = floor(log10(lo));
	ay.hi = ceil(log10(hi));
	if (ay.hi - ay.lo < 1)
		ay.hi = ay.lo + 1;
	ay.p0 = pn.y1;
	ay.p1 = pn.y0;
	nines_ticks(sc, &pn, &ax);
	log_ticks_y(sc, &pn, &ay, false);
	for (size_t i = 0, j = 0; i < p->n; i++) {
		for (int side = 0; side < 2; side++) {
			const struct plot_series *s = &p->s[i];

			if (!s->side[side].m[k])
				continue;
			pl_group(sc, "series", e[j].series,
				 (const char *[]){ "data-configuration",
						   s->label, NULL });
			pct_curve(sc, hist_of(&s->side[side], k), &ax, &ay,
				  &e[j].lk);
			pl_group_end(sc);
			j++;
		}
	}
	frame(sc, &pn);
	snprintf(t, sizeof(t), "%s (log scale)", p->metric[k]);
	axis_labels(sc, &pn, "percentile", t);
	legend(sc, &pn, e, ne, pn.x1 + 16);
	pl_group_end(sc);
	free(e);
}

/* candidate / baseline at each percentile, on a log2 axis around 1 */
static void ratio_panel(struct pl_scene *sc, const struct plot *p, size_t k,
			const struct panel *box)
{
	struct panel pn = *box;
	struct legend_entry *e = calloc(p->n + 1, sizeof(*e));
	struct axis ax, ay;
	double span = 1, lw, last = INFINITY;
	size_t ne = 0;
	uint64_t vb, vc;
	char id[96], t[160];

	if (!e)
		return;
	for (size_t i = 0; i < p->n; i++) {
		const struct plot_series *s = &p->s[i];
		const struct il_hist *hb = hist_of(&s->side[0], k),
				     *hc = hist_of(&s->side[1], k);

		if (!hb || !hc)
			continue;
		for (double n = NINES_LO; n <= NINES_HI + 1e-9; n += 0.01) {
			double q = 1 - pow(10, -n);

			if (il_hist_percentile(hb, q, &vb) ||
			    il_hist_percentile(hc, q, &vc))
				break;
			span = fmax(span, fabs(log2(fmax((double)vc, 1) /
						    fmax((double)vb, 1))));
		}
		snprintf(e[ne].series, sizeof(e[ne].series), "ratio-%s%s%s",
			 s->id, p->nmetrics > 1 ? "-" : "",
			 p->nmetrics > 1 ? p->metric[k] : "");
		snprintf(e[ne].label, sizeof(e[ne].label), "%s", s->label);
		e[ne].lk = look(s->color, false);
		ne++;
	}
	span = ceil(span);
	lw = fmin(legend_width(e, ne), pn.w * 0.42);
	pn.x0 = pn.ox + PAD_L;
	pn.x1 = pn.ox + pn.w - PAD_R - lw;
	pn.y0 = pn.oy + 44;
	pn.y1 = pn.oy + pn.h - PAD_B;
	ax = (struct axis){ NINES_LO, NINES_HI, pn.x0, pn.x1 };
	/* log2 values on the same arithmetic */
	ay = (struct axis){ -span, span, pn.y1, pn.y0 };
	snprintf(id, sizeof(id), "comparison%s%s", p->nmetrics > 1 ? "-" : "",
		 p->nmetrics > 1 ? p->metric[k] : "");
	pl_group(sc, "panel comparison", id,
		 (const char *[]){ "data-metric", p->metric[k], NULL });
	snprintf(t, sizeof(t), "%s: candidate / baseline at each percentile",
		 p->metric[k]);
	panel_head(sc, &pn, t);
	plot_area(sc, &pn);
	{
		/* the worse half, lightly tinted: lower latency is better */
		const struct pl_style tint = { .stroke = PL_NONE,
					       .fill = 0xd62728,
					       .fill_opacity = 0.05 };

		pl_rect(sc, pn.x0, pn.y0, pn.x1 - pn.x0, map(&ay, 0) - pn.y0,
			&tint);
	}
	nines_ticks(sc, &pn, &ax);
	pl_group(sc, "axis y", NULL, NULL);
	for (int r = (int)-span; r <= (int)span; r++) {
		const struct pl_style one = { .stroke = 0x444444,
					      .fill = PL_NONE,
					      .width = 1.2 };
		double y = map(&ay, r);
		char buf[32];

		pl_line(sc, pn.x0, y, pn.x1, y, r ? &grid : &one);
		snprintf(buf, sizeof(buf), "%g", pow(2, r));
		y_label(sc, &pn, y, &last, buf);
	}
	pl_group_end(sc);
	{
		struct pl_font f = pl_font_of(FS, 0xa33333, PL_END, false);

		pl_text_fitted(sc, pn.x1 - 6, pn.y0 + 22, &f,
			       pn.x1 - pn.x0 - 12, "above 1: candidate slower");
		f.color = 0x2f7f2f;
		pl_text_fitted(sc, pn.x1 - 6, pn.y1 - 10, &f,
			       pn.x1 - pn.x0 - 12, "below 1: candidate faster");
	}
	for (size_t i = 0, j = 0; i < p->n; i++) {
		const struct plot_series *s = &p->s[i];
		const struct il_hist *hb = hist_of(&s->side[0], k),
				     *hc = hist_of(&s->side[1], k);
		double xy[2 * 400];
		size_t n = 0;

		if (!hb || !hc)
			continue;
		pl_group(sc, "series", e[j].series,
			 (const char *[]){ "data-configuration", s->label,
					   NULL });
		for (double q9 = NINES_LO; q9 <= NINES_HI + 1e-9 && n < 400;
		     q9 += 0.01) {
			double q = 1 - pow(10, -q9);

			if (il_hist_percentile(hb, q, &vb) ||
			    il_hist_percentile(hc, q, &vc))
				break;
			xy[2 * n] = nines_x(&ax, q);
			xy[2 * n + 1] = map(&ay, log2(fmax((double)vc, 1) /
						      fmax((double)vb, 1)));
			n++;
		}
		pl_polyline(sc, xy, n, false, &e[j].lk.line);
		for (size_t m = 0; m < NMARKS; m++) {
			if (il_hist_percentile(hb, marks[m].q, &vb) ||
			    il_hist_percentile(hc, marks[m].q, &vc))
				break;
			pl_circle(sc, nines_x(&ax, marks[m].q),
				  map(&ay, log2(fmax((double)vc, 1) /
						fmax((double)vb, 1))),
				  4, &e[j].lk.dot);
		}
		pl_group_end(sc);
		j++;
	}
	frame(sc, &pn);
	axis_labels(sc, &pn, "percentile", "candidate / baseline (log)");
	legend(sc, &pn, e, ne, pn.x1 + 16);
	pl_group_end(sc);
	free(e);
}

/* ---- the page ------------------------------------------------------------ */

/* "kernel 6.18.1 (preempt full, HZ 1000, kvm), 3 files" */
static void describe_set(char *buf, size_t len, const struct il_res_set *s)
{
	int n[4];
	const char *rel = il_res_set_fp(s, IL_RES_FP_RELEASE, &n[0]);
	const char *pre = il_res_set_fp(s, IL_RES_FP_PREEMPT, &n[1]);
	const char *hz = il_res_set_fp(s, IL_RES_FP_HZ, &n[2]);
	const char *virt = il_res_set_fp(s, IL_RES_FP_VIRT, &n[3]);

	snprintf(buf, len, "kernel %s (preempt %s, HZ %s%s%s), %zu file%s",
		 n[0] > 1 ? "(several)" : rel, pre, hz,
		 strcmp(virt, "none") && strcmp(virt, "unknown") ? ", " : "",
		 strcmp(virt, "none") && strcmp(virt, "unknown") ? virt : "",
		 s->nfiles, s->nfiles == 1 ? "" : "s");
}

static struct panel at(double x, double y, double w, double h)
{
	return (struct panel){ .ox = x, .oy = y, .w = w, .h = h };
}

struct pl_scene *plot_draw(const struct plot *p)
{
	double width = (double)p->cfg->width, inner = width - 2 * MARGIN;
	/* as many panels abreast as keep them MIN_PANEL_W wide */
	size_t fit = (size_t)fmax(1, floor(inner / MIN_PANEL_W));
	size_t cols = p->n < fit ? p->n : fit;
	size_t rows, pcols, prows;
	bool abreast = p->n == 1 && (p->two ? 3 : 2) <= fit;
	struct hist_axes ha[PLOT_MAX_METRICS];
	struct pl_font ft = pl_font_of(FS_TITLE, INK, PL_START, true),
		       fs = pl_font_of(FS, 0x444444, PL_START, false);
	char title[512], sub[1024], d1[400], d2[400];
	struct pl_scene *sc;
	double height, y;

	if (cols > MAX_COLS)
		cols = MAX_COLS;
	rows = (p->n + cols - 1) / cols;
	pcols = p->nmetrics < 2 || fit < 3 ? 1 : 2;
	prows = (p->nmetrics + pcols - 1) / pcols;
	if (abreast)
		height = TITLE_H + (double)p->nmetrics * HIST_H + MARGIN;
	else
		height = TITLE_H + (double)(p->nmetrics * rows) * HIST_H +
			 (double)(prows * (p->two ? 2 : 1)) * PCT_H + MARGIN;
	for (size_t k = 0; k < p->nmetrics; k++)
		if (hist_axes(p, k, &ha[k]))
			return NULL;
	sc = pl_scene_new(width, height);
	if (!sc)
		return NULL;

	if (p->cfg->title)
		snprintf(title, sizeof(title), "%s", p->cfg->title);
	else
		snprintf(title, sizeof(title), "%s: %s%s%s latency%s",
			 p->base.groups[0].scenario, p->metric[0],
			 p->nmetrics > 1 ? " and " : "",
			 p->nmetrics > 1 ? p->metric[1] : "",
			 p->two ? ", candidate vs baseline" : "");
	if (p->nmetrics > 2 && !p->cfg->title) {
		size_t n = strlen(title);

		snprintf(title + n, sizeof(title) - n, " (and more)");
	}
	describe_set(d1, sizeof(d1), &p->base);
	if (p->two) {
		describe_set(d2, sizeof(d2), &p->cand);
		snprintf(sub, sizeof(sub), "baseline: %s; candidate: %s", d1,
			 d2);
	} else {
		snprintf(sub, sizeof(sub), "%s", d1);
	}
	pl_title(sc, title);
	pl_group(sc, "title", NULL, NULL);
	pl_text_fitted(sc, MARGIN, 36, &ft, inner, title);
	pl_group_end(sc);
	pl_group(sc, "subtitle", NULL, NULL);
	pl_text_fitted(sc, MARGIN, 64, &fs, inner, sub);
	pl_group_end(sc);

	y = TITLE_H;
	if (abreast) {
		/* one configuration: its histogram and percentiles abreast */
		size_t np = p->two ? 3 : 2;
		double w = inner / (double)np;

		for (size_t k = 0; k < p->nmetrics; k++, y += HIST_H) {
			struct panel a = at(MARGIN, y, w, HIST_H),
				     b = at(MARGIN + w, y, w, HIST_H),
				     c = at(MARGIN + 2 * w, y, w, HIST_H);

			histogram_panel(sc, p, &p->s[0], k, &a, &ha[k]);
			percentile_panel(sc, p, k, &b);
			if (p->two)
				ratio_panel(sc, p, k, &c);
		}
		return sc;
	}
	for (size_t k = 0; k < p->nmetrics; k++) {
		double w = inner / (double)cols;

		for (size_t i = 0; i < p->n; i++) {
			struct panel a =
				at(MARGIN + (double)(i % cols) * w,
				   y + (double)(i / cols) * HIST_H, w, HIST_H);

			histogram_panel(sc, p, &p->s[i], k, &a, &ha[k]);
		}
		y += (double)rows * HIST_H;
	}
	for (int ratio = 0; ratio < (p->two ? 2 : 1); ratio++) {
		double w = inner / (double)pcols;

		for (size_t k = 0; k < p->nmetrics; k++) {
			struct panel a =
				at(MARGIN + (double)(k % pcols) * w,
				   y + (double)(k / pcols) * PCT_H, w, PCT_H);

			if (ratio)
				ratio_panel(sc, p, k, &a);
			else
				percentile_panel(sc, p, k, &a);
		}
		y += (double)prows * PCT_H;
	}
	return sc;
}
