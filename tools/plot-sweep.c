// SPDX-License-Identifier: MIT
/*
 * invlab-plot's chart of estimates: the table of an N-way invlab-compare
 * as a picture.
 *
 *   invlab-plot --by groups -l tip -l v21 -l full \
 *       tip-g*.json -- v21-g*.json -- full-g*.json -o sweep.png
 *   invlab-plot -s p99 -m blocked_ns A*.json -- B*.json -- C*.json
 *
 * A panel per block of the comparison (scenario and configuration; with
 * --by configuration, the scenario) and histogram.  With --by KEY, x is
 * KEY's value (the sweep's rows, in compare's order: numeric when every
 * value is a number) and each side is a line through its estimates with
 * its CI95 shaded as a band; without it, x is the configuration and each
 * side a dot with its CI95 as a bar.  y is the side's estimate, its
 * per-run values summarized as compare summarizes them (Median for a
 * percentile, AMean for a mean or a wall time, HMean for throughput),
 * and the interval is that side's own (il_res_summary_ci): the band is
 * how well each kernel's value is known, not a test between them (the
 * test is compare's).  The sides are named as compare names them.
 *
 * x is logarithmic when its values are positive numbers that are powers
 * of two (or the smallest of them times powers of two: 2us, 4us, 8us),
 * on a log2 axis, or span a factor of ten; y when the values span a factor of
 * ten.  sched-messaging's wall time (runs' "wall_ns", read by the
 * counters block of compare: counters-cmp.h) is a metric here like the
 * histograms.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "counters-cmp.h"
#include "escape.h"
#include "format.h"
#include "plot.h"
#include "stats.h"

#define MAX_PANELS 16
#define WALL	   "wall_ns"

#define MARGIN	 24
#define TITLE_H	 84
#define PANEL_H	 460
#define PAD_L	 104
#define PAD_R	 18
#define PAD_T	 48
#define PAD_B	 70
#define FS	 16
#define FS_HEAD	 18
#define FS_TITLE 24
#define INK	 0x222222

static const uint32_t palette[] = {
	0x1f77b4, 0xd62728, 0x2ca02c, 0xff7f0e,
	0x9467bd, 0x8c564b, 0xe377c2, 0x17becf,
};
#define NCOLORS (sizeof(palette) / sizeof(palette[0]))

static const struct pl_style grid = { .stroke = 0xdddddd,
				      .fill = PL_NONE,
				      .width = 1 };
static const struct pl_style tick = { .stroke = 0x444444,
				      .fill = PL_NONE,
				      .width = 1 };

struct point {
	bool have, ci;
	double v, lo, hi;
	size_t runs;
};

struct panel {
	char *block;  /* "pi-classic/inherit", "sched-messaging" */
	char *metric; /* "blocked_ns", "wall_ns" */
	enum il_res_stat st;
	enum il_res_summary sum;
	bool rate;
	const char **x; /* the values of --by, else the configurations */
	size_t nx;
	struct point *pt; /* [side * nx + i] */
};

struct sweep {
	const struct plot_cfg *cfg;
	enum il_res_stat stats[IL_RES_NSTATS]; /* --stat's, in order */
	size_t nstats;
	struct il_res_set *sides;
	size_t nsides;
	char **labels;
	struct il_ctr_cmp ctr;
	bool have_ctr;
	struct panel pn[MAX_PANELS];
	size_t npanels;
	bool truncated;
};

/* ---- the estimates ----------------------------------------------------- */

/* the block of group g, and its x: without --by the configuration */
static void block_of(const struct sweep *w, const struct il_res_group *g,
		     char *buf, size_t len, const char **x)
{
	const char *by = w->cfg->by;

	if (!by || !strcmp(by, "configuration"))
		snprintf(buf, len, "%s", g->scenario);
	else
		snprintf(buf, len, "%s/%s", g->scenario, g->configuration);
	*x = by ? g->by : g->configuration;
}

/* does any group of block have metric name (WALL: a wall-time row)? */
static bool block_has(const struct sweep *w, const char *block,
		      const char *name)
{
	char b[512];
	const char *x;

	for (size_t k = 0; k < w->nsides; k++)
		for (size_t i = 0; i < w->sides[k].ngroups; i++) {
			const struct il_res_group *g = &w->sides[k].groups[i];

			block_of(w, g, b, sizeof(b), &x);
			if (strcmp(b, block))
				continue;
			if (strcmp(name, WALL)
				    ? il_res_group_metric(g, name) != NULL
				    : false)
				return true;
		}
	if (!strcmp(name, WALL) && w->have_ctr)
		for (size_t i = 0; i < w->ctr.n; i++) {
			const char *gr = w->ctr.rows[i].group;
			size_t n = strlen(block);

			/* the block's group, or one of the scenario's */
			if (w->ctr.rows[i].wall && !strncmp(gr, block, n) &&
			    (!gr[n] || gr[n] == '/'))
				return true;
		}
	return false;
}

/* a panel of metric in block for each statistic of --stat */
static int add_panel(struct sweep *w, const char *block, const char *metric)
{
	for (size_t i = 0; i < w->nstats; i++) {
		struct panel *p;

		if (w->npanels == MAX_PANELS) {
			w->truncated = true;
			return 0;
		}
		p = &w->pn[w->npanels];
		memset(p, 0, sizeof(*p));
		p->block = strdup(block);
		p->metric = strdup(metric);
		p->st = w->stats[i];
		if (!p->block || !p->metric) {
			free(p->block);
			free(p->metric);
			return -ENOMEM;
		}
		w->npanels++;
	}
	return 0;
}

static void panel_free(struct panel *p)
{
	free(p->block);
	free(p->metric);
	free(p->x);
	free(p->pt);
}

/* the metrics of one block: --metric's, else as plot_pick_metrics does */
static int block_panels(struct sweep *w, const char *block,
			const struct il_res_group *g0)
{
	const struct plot_cfg *cfg = w->cfg;
	int ret = 0;

	if (cfg->metric) {
		char *copy = strdup(cfg->metric), *save = NULL;

		if (!copy)
			return -ENOMEM;
		for (char *m = strtok_r(copy, ",", &save); m && !ret;
		     m = strtok_r(NULL, ",", &save))
			if (block_has(w, block, m))
				ret = add_panel(w, block, m);
		free(copy);
		return ret;
	}
	if (block_has(w, block, "blocked_ns")) {
		ret = add_panel(w, block, "blocked_ns");
		if (!ret && block_has(w, block, "wakeup_ns"))
			ret = add_panel(w, block, "wakeup_ns");
		return ret;
	}
	for (size_t m = 0; m < g0->nmetrics; m++)
		if (!g0->metrics[m].rate)
			return add_panel(w, block, g0->metrics[m].name);
	if (g0->nmetrics)
		return add_panel(w, block, g0->metrics[0].name);
	if (block_has(w, block, WALL))
		return add_panel(w, block, WALL);
	return 0;
}

/* the wall-time row of side k for group "scenario/configuration", by */
static const struct il_ctr_row *wall_row(const struct sweep *w, size_t k,
					 const struct il_res_group *g)
{
	char label[512];

	snprintf(label, sizeof(label), "%s/%s", g->scenario, g->configuration);
	for (size_t i = 0; w->have_ctr && i < w->ctr.n; i++) {
		const struct il_ctr_row *r = &w->ctr.rows[i];

		if (!r->wall || strcmp(r->group, label))
			continue;
		if ((r->by == NULL) != (g->by == NULL) ||
		    (r->by && strcmp(r->by, g->by)))
			continue;
		/* the baseline is in every row; another side in its own */
		if (!k || r->side == k)
			return r;
	}
	return NULL;
}

static void estimate(const struct sweep *w, const struct panel *p, size_t k,
		     const struct il_res_group *g, struct point *pt)
{
	const struct il_res_metric *m;
	double *v;

	if (!strcmp(p->metric, WALL)) {
		const struct il_ctr_row *r = wall_row(w, k, g);
		const struct il_res_spread *sp;

		if (!r)
			return;
		sp = k ? &r->c.sc : &r->c.sb;
		if (!sp->n || isnan(sp->mean))
			return;
		pt->have = true;
		pt->v = sp->mean;
		pt->runs = sp->n;
		pt->ci = !il_res_mean_ci(sp->n, sp->mean, sp->sd, &pt->lo,
					 &pt->hi);
		return;
	}
	m = il_res_group_metric(g, p->metric);
	if (!m || !m->nruns)
		return;
	v = malloc(m->nruns * sizeof(*v));
	if (!v)
		return;
	for (size_t r = 0; r < m->nruns; r++)
		v[r] = m->run[r][p->st];
	pt->v = il_res_summarize(p->sum, v, m->nruns);
	for (size_t r = 0; r < m->nruns; r++)
		pt->runs += !isnan(v[r]);
	pt->ci = !isnan(pt->v) &&
		 !il_res_summary_ci(p->sum, v, m->nruns, &pt->lo, &pt->hi);
	free(v);
	/*
	 * No run has st (too few samples each): the merged runs' value, as
	 * compare shows it, without an interval
	 */
	if (isnan(pt->v) && il_res_stat_value(m->merged, p->st, false, &pt->v))
		pt->v = NAN;
	pt->have = !isnan(pt->v);
}

static size_t x_index(const struct panel *p, const char *x)
{
	for (size_t i = 0; x && i < p->nx; i++)
		if (!strcmp(p->x[i], x))
			return i;
	return p->nx;
}

/* the x values of panel p, then every side's point at each */
static int fill_panel(struct sweep *w, struct panel *p)
{
	size_t cap = 1;
	char b[512];
	const char *x;
	bool wall = !strcmp(p->metric, WALL);

	for (size_t k = 0; k < w->nsides; k++)
		cap += w->sides[k].ngroups;
	p->x = calloc(cap, sizeof(*p->x));
	if (!p->x)
		return -ENOMEM;
	for (size_t k = 0; k < w->nsides; k++)
		for (size_t i = 0; i < w->sides[k].ngroups; i++) {
			const struct il_res_group *g = &w->sides[k].groups[i];

			block_of(w, g, b, sizeof(b), &x);
			if (strcmp(b, p->block) || !x)
				continue;
			if (!wall && !il_res_group_metric(g, p->metric))
				continue;
			if (x_index(p, x) == p->nx)
				p->x[p->nx++] = x;
		}
	/* a sweep in compare's order; configurations as first seen */
	if (w->cfg->by && il_res_by_sort(p->x, p->nx))
		return -ENOMEM;
	for (size_t k = 0; k < w->nsides; k++)
		for (size_t i = 0; i < w->sides[k].ngroups; i++) {
			const struct il_res_group *g = &w->sides[k].groups[i];
			const struct il_res_metric *m =
				il_res_group_metric(g, p->metric);

			if (m && m->rate)
				p->rate = true;
		}
	/* of a count only the mean (its rate), of a wall time its mean */
	if (p->rate || wall)
		p->st = IL_RES_MEAN;
	p->sum =
		wall ? IL_RES_SUM_AMEAN : il_res_summary_auto(p->metric, p->st);
	p->pt = calloc(w->nsides * (p->nx + 1), sizeof(*p->pt));
	if (!p->pt)
		return -ENOMEM;
	for (size_t k = 0; k < w->nsides; k++)
		for (size_t i = 0; i < w->sides[k].ngroups; i++) {
			const struct il_res_group *g = &w->sides[k].groups[i];
			size_t j;

			block_of(w, g, b, sizeof(b), &x);
			j = x_index(p, x);
			if (strcmp(b, p->block) || j == p->nx)
				continue;
			estimate(w, p, k, g, &p->pt[k * p->nx + j]);
		}
	return 0;
}

static int collect(struct sweep *w)
{
	char **seen = NULL;
	size_t nseen = 0;
	int ret = 0;

	for (size_t k = 0; k < w->nsides && !ret; k++)
		for (size_t i = 0; i < w->sides[k].ngroups && !ret; i++) {
			const struct il_res_group *g = &w->sides[k].groups[i];
			char b[512], **ns;
			const char *x;
			size_t j = 0;

			block_of(w, g, b, sizeof(b), &x);
			while (j < nseen && strcmp(seen[j], b))
				j++;
			if (j < nseen)
				continue;
			ns = realloc(seen, (nseen + 1) * sizeof(*ns));
			if (!ns || !(ns[nseen] = strdup(b))) {
				if (ns)
					seen = ns;
				ret = -ENOMEM;
				break;
			}
			seen = ns;
			nseen++;
			ret = block_panels(w, b, g);
		}
	for (size_t i = 0; i < nseen; i++)
		free(seen[i]);
	free(seen);
	for (size_t i = 0; i < w->npanels && !ret; i++)
		ret = fill_panel(w, &w->pn[i]);
	/* a count or a wall time is its mean whatever --stat says: once */
	for (size_t i = 0, j; i < w->npanels && !ret; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(w->pn[j].block, w->pn[i].block) &&
			    !strcmp(w->pn[j].metric, w->pn[i].metric) &&
			    w->pn[j].st == w->pn[i].st)
				break;
		if (j == i)
			continue;
		panel_free(&w->pn[i]);
		memmove(&w->pn[i], &w->pn[i + 1],
			(w->npanels - i - 1) * sizeof(w->pn[0]));
		w->npanels--;
		i--;
	}
	return ret;
}

/* ---- axes ---------------------------------------------------------------- */

struct xaxis {
	enum { X_CAT, X_LIN, X_LOG2, X_LOG10 } kind;
	double lo, hi; /* of the transformed values */
	double p0, p1;
};

static double num(const char *s, bool *ok)
{
	char *end;
	double v = strtod(s, &end);

	*ok = end != s && !*end && isfinite(v);
	return v;
}

static double xt(const struct xaxis *a, const char *s, size_t i)
{
	bool ok;
	double v = a->kind == X_CAT ? (double)i : num(s, &ok);

	if (a->kind == X_LOG2)
		return log2(v);
	if (a->kind == X_LOG10)
		return log10(v);
	return v;
}

static double xmap(const struct xaxis *a, double t)
{
	if (a->hi <= a->lo)
		return (a->p0 + a->p1) / 2;
	return a->p0 + (t - a->lo) / (a->hi - a->lo) * (a->p1 - a->p0);
}

static void x_axis_kind(const struct panel *p, bool sweep, struct xaxis *a)
{
	bool all = sweep && p->nx > 0, pos = true, pow2 = true;
	double lo = INFINITY, hi = -INFINITY;

	for (size_t i = 0; i < p->nx && all; i++) {
		bool ok;
		double v = num(p->x[i], &ok);

		all = ok;
		if (!ok)
			break;
		pos = pos && v > 0;
		lo = fmin(lo, v);
		hi = fmax(hi, v);
	}
	/* powers of two, or the smallest times powers of two (2us, 4us) */
	for (size_t i = 0; i < p->nx && all && pos; i++) {
		bool ok;
		double r = num(p->x[i], &ok) / lo, e = round(log2(r));

		pow2 = pow2 && fabs(r - exp2(e)) < 1e-9 * r;
	}
	if (!all)
		a->kind = X_CAT;
	else if (pos && pow2 && p->nx > 2)
		a->kind = X_LOG2;
	else if (pos && hi >= 10 * lo)
		a->kind = X_LOG10;
	else
		a->kind = X_LIN;
	if (a->kind == X_CAT) {
		/* half a slot either side, so that the dots sit inside */
		a->lo = -0.5;
		a->hi = (double)p->nx - 0.5;
		return;
	}
	a->lo = INFINITY;
	a->hi = -INFINITY;
	for (size_t i = 0; i < p->nx; i++) {
		double t = xt(a, p->x[i], i);

		a->lo = fmin(a->lo, t);
		a->hi = fmax(a->hi, t);
	}
	{
		/* a margin so that the end points' dots and bars show */
		double m = a->hi > a->lo ? (a->hi - a->lo) * 0.04 : 0.5;

		a->lo -= m;
		a->hi += m;
	}
}

/* the unit the y values are shown in: ns, us, ms, s, or % of a rate */
struct yunit {
	const char *name;
	double div;
};

static struct yunit y_unit(double hi, bool rate)
{
	if (rate)
		return (struct yunit){ "%", 0.01 };
	if (hi >= 1e9)
		return (struct yunit){ "s", 1e9 };
	if (hi >= 1e6)
		return (struct yunit){ "ms", 1e6 };
	if (hi >= 1e3)
		return (struct yunit){ "us", 1e3 };
	return (struct yunit){ "ns", 1 };
}

struct yaxis {
	bool log;
	double lo, hi; /* of the values, log10 when log */
	double p0, p1; /* p0 at lo (bottom) */
	struct yunit u;
};

static double ymap(const struct yaxis *a, double v)
{
	double t = a->log ? log10(fmax(v, 1e-300)) : v;

	if (a->hi <= a->lo)
		return (a->p0 + a->p1) / 2;
	return a->p0 + (t - a->lo) / (a->hi - a->lo) * (a->p1 - a->p0);
}

static double nice_step(double span, int want)
{
	double raw = span / want, mag = pow(10, floor(log10(raw)));

	if (raw / mag < 1.5)
		return mag;
	if (raw / mag < 3.5)
		return 2 * mag;
	if (raw / mag < 7.5)
		return 5 * mag;
	return 10 * mag;
}

static void y_axis(const struct sweep *w, const struct panel *p,
		   struct yaxis *a)
{
	double lo = INFINITY, hi = -INFINITY;

	for (size_t k = 0; k < w->nsides; k++)
		for (size_t i = 0; i < p->nx; i++) {
			const struct point *pt = &p->pt[k * p->nx + i];

			if (!pt->have)
				continue;
			lo = fmin(lo, pt->ci ? fmin(pt->lo, pt->v) : pt->v);
			hi = fmax(hi, pt->ci ? fmax(pt->hi, pt->v) : pt->v);
		}
	if (!(hi >= lo))
		lo = hi = 1;
	a->u = y_unit(hi, p->rate);
	a->log = lo > 0 && hi >= 10 * lo;
	if (a->log) {
		/* the data's own range, a little wider: ticks say the rest */
		double l = log10(lo), h = log10(hi), pad = (h - l) * 0.05;

		a->lo = l - pad;
		a->hi = h + pad;
		return;
	}
	if (hi == lo) {
		double d = hi ? fabs(hi) * 0.1 : 1;

		lo -= d;
		hi += d;
	}
	{
		double st = nice_step(hi - lo, 5);

		a->lo = floor(lo / st) * st;
		a->hi = ceil(hi / st) * st;
		/* a time or a rate below 0 means nothing */
		if (a->lo < 0 && lo >= 0)
			a->lo = 0;
	}
}

static void fmt_y(char *buf, size_t len, const struct yaxis *a, double v)
{
	snprintf(buf, len, "%g", v / a->u.div);
}

static void y_ticks(struct pl_scene *sc, const struct yaxis *a, double x0,
		    double x1)
{
	struct pl_font f = pl_font_of(FS, INK, PL_END, false);
	double last = INFINITY;
	char buf[48];

	pl_group(sc, "axis y", NULL, NULL);
	if (a->log) {
		for (int d = (int)floor(a->lo); d <= (int)ceil(a->hi); d++) {
			for (int m = 1; m < 10; m++) {
				double v = m * pow(10, d), y = ymap(a, v);

				if (log10(v) > a->hi + 1e-9)
					break;
				if (log10(v) < a->lo - 1e-9)
					continue;
				if (m != 1 && !(a->hi - a->lo < 2.5 &&
						(m == 2 || m == 5)))
					continue;
				pl_line(sc, x0, y, x1, y, &grid);
				pl_line(sc, x0 - 5, y, x0, y, &tick);
				if (y + 0.25 * FS > last - 4)
					continue;
				fmt_y(buf, sizeof(buf), a, v);
				pl_text(sc, x0 - 8, y + 0.3 * FS, &f, buf);
				last = y + 0.3 * FS - 0.8 * FS;
			}
		}
	} else {
		double st = nice_step(a->hi - a->lo, 5);

		for (double v = a->lo; v <= a->hi + st * 1e-6; v += st) {
			double y = ymap(a, v);

			pl_line(sc, x0, y, x1, y, &grid);
			pl_line(sc, x0 - 5, y, x0, y, &tick);
			if (y + 0.25 * FS > last - 4)
				continue;
			fmt_y(buf, sizeof(buf), a, fabs(v) < st * 1e-6 ? 0 : v);
			pl_text(sc, x0 - 8, y + 0.3 * FS, &f, buf);
			last = y + 0.3 * FS - 0.8 * FS;
		}
	}
	pl_group_end(sc);
}

static void x_ticks(struct pl_scene *sc, const struct panel *p,
		    const struct xaxis *a, double y0, double y1, double left,
		    double right)
{
	struct pl_font f = pl_font_of(FS, INK, PL_MIDDLE, false);
	double last = -INFINITY;

	pl_group(sc, "axis x", NULL, NULL);
	for (size_t i = 0; i < p->nx; i++) {
		double x = xmap(a, xt(a, p->x[i], i)), tw;
		char buf[128];

		pl_line(sc, x, y0, x, y1, &grid);
		pl_line(sc, x, y1, x, y1 + 6, &tick);
		pl_text_fit(buf, sizeof(buf), &f, 240, p->x[i]);
		tw = pl_text_width(&f, buf);
		x = fmin(fmax(x, left + tw / 2 + 2), right - tw / 2 - 2);
		if (x - tw / 2 < last + 8)
			continue;
		pl_text(sc, x, y1 + 24, &f, buf);
		last = x + tw / 2;
	}
	pl_group_end(sc);
}

/* ---- the page ------------------------------------------------------------ */

static double legend_width(const struct sweep *w)
{
	struct pl_font f = pl_font_of(FS, INK, PL_START, false);
	double lw = 0;

	for (size_t k = 0; k < w->nsides; k++)
		lw = fmax(lw, pl_text_width(&f, w->labels[k]));
	return lw + 50;
}

/* the baseline wider, so that a side on top of it leaves it seen */
static struct pl_style line_style(size_t k)
{
	return (struct pl_style){ .stroke = palette[k % NCOLORS],
				  .fill = PL_NONE,
				  .width = k ? 2.5 : 5 };
}

static struct pl_style dot_style(size_t k)
{
	return (struct pl_style){ .stroke = 0xffffff,
				  .fill = palette[k % NCOLORS],
				  .width = 1 };
}

/* the shaded CI95 of side k: a polygon per run of points that have one */
static void band(struct pl_scene *sc, const struct panel *p, size_t k,
		 const struct xaxis *xa, const struct yaxis *ya, const char *id,
		 const char *label)
{
	const struct pl_style st = { .stroke = PL_NONE,
				     .fill = palette[k % NCOLORS],
				     .fill_opacity = 0.18 };
	double *xy = malloc(4 * (p->nx + 1) * sizeof(*xy));
	char bid[224];

	if (!xy)
		return;
	snprintf(bid, sizeof(bid), "band-%s", id);
	pl_group(sc, "band", bid, (const char *[]){ "data-side", label, NULL });
	for (size_t i = 0; i < p->nx;) {
		size_t j = i, n = 0;

		while (j < p->nx && p->pt[k * p->nx + j].ci)
			j++;
		if (j - i >= 2) {
			for (size_t t = i; t < j; t++, n++) {
				xy[2 * n] = xmap(xa, xt(xa, p->x[t], t));
				xy[2 * n + 1] =
					ymap(ya, p->pt[k * p->nx + t].hi);
			}
			for (size_t t = j; t-- > i; n++) {
				xy[2 * n] = xmap(xa, xt(xa, p->x[t], t));
				xy[2 * n + 1] =
					ymap(ya, p->pt[k * p->nx + t].lo);
			}
			pl_polyline(sc, xy, n, true, &st);
		}
		i = j > i ? j : i + 1;
	}
	pl_group_end(sc);
	free(xy);
}

/* whether point i of side k is drawn with a bar (not inside a band) */
static bool bar_of(const struct panel *p, size_t k, size_t i, bool sweep)
{
	const struct point *pt = p->pt + k * p->nx;

	if (!pt[i].ci)
		return false;
	return !sweep ||
	       !((i > 0 && pt[i - 1].ci) || (i + 1 < p->nx && pt[i + 1].ci));
}

static void series(struct pl_scene *sc, const struct sweep *w,
		   const struct panel *p, size_t k, const struct xaxis *xa,
		   const struct yaxis *ya, double dodge, const char *id)
{
	bool sweep = w->cfg->by != NULL;
	struct pl_style ls = line_style(k), ds = dot_style(k);
	double *xy = malloc(2 * (p->nx + 1) * sizeof(*xy));
	size_t n = 0;
	char npts[32];

	if (!xy)
		return;
	snprintf(npts, sizeof(npts), "%zu", p->nx);
	pl_group(sc, "series", id,
		 (const char *[]){ "data-side", w->labels[k], NULL });
	for (size_t i = 0; i < p->nx; i++) {
		const struct point *pt = &p->pt[k * p->nx + i];

		if (!pt->have)
			continue;
		xy[2 * n] = xmap(xa, xt(xa, p->x[i], i)) + dodge;
		xy[2 * n + 1] = ymap(ya, pt->v);
		n++;
	}
	if (sweep) {
		pl_polyline(sc, xy, n, false, &ls);
	} else {
		/* a dot plot: the estimate also as a mark across its dot */
		for (size_t i = 0; i < n; i++)
			pl_line(sc, xy[2 * i] - 9, xy[2 * i + 1], xy[2 * i] + 9,
				xy[2 * i + 1], &ls);
	}
	for (size_t i = 0; i < p->nx; i++) {
		const struct point *pt = &p->pt[k * p->nx + i];
		double x = xmap(xa, xt(xa, p->x[i], i)) + dodge;

		if (!bar_of(p, k, i, sweep))
			continue;
		pl_line(sc, x, ymap(ya, pt->lo), x, ymap(ya, pt->hi), &ls);
		pl_line(sc, x - 5, ymap(ya, pt->lo), x + 5, ymap(ya, pt->lo),
			&ls);
		pl_line(sc, x - 5, ymap(ya, pt->hi), x + 5, ymap(ya, pt->hi),
			&ls);
	}
	for (size_t i = 0; i < p->nx; i++) {
		const struct point *pt = &p->pt[k * p->nx + i];
		char v[40], lo[40], hi[40], runs[24];

		if (!pt->have)
			continue;
		snprintf(v, sizeof(v), "%.6g", pt->v);
		snprintf(lo, sizeof(lo), "%.6g", pt->ci ? pt->lo : NAN);
		snprintf(hi, sizeof(hi), "%.6g", pt->ci ? pt->hi : NAN);
		snprintf(runs, sizeof(runs), "%zu", pt->runs);
		pl_group(sc, "point", NULL,
			 (const char *[]){ "data-x", p->x[i], "data-estimate",
					   v, "data-ci95-lo", lo,
					   "data-ci95-hi", hi, "data-runs",
					   runs, NULL });
		pl_circle(sc, xmap(xa, xt(xa, p->x[i], i)) + dodge,
			  ymap(ya, pt->v), 4.5, &ds);
		pl_group_end(sc);
	}
	pl_group_end(sc);
	free(xy);
}

static void draw_panel(struct pl_scene *sc, const struct sweep *w, size_t pi,
		       double ox, double oy, double width)
{
	const struct panel *p = &w->pn[pi];
	bool sweep = w->cfg->by != NULL, no_ci = false;
	struct pl_font fn = pl_font_of(FS, 0x666666, PL_START, false);
	bool any = false;
	char note[64];
	double lw;
	double x0 = ox + PAD_L, x1, y0 = oy + PAD_T, y1 = oy + PANEL_H - PAD_B;
	struct xaxis xa;
	struct yaxis ya;
	struct pl_font fh = pl_font_of(FS_HEAD, INK, PL_START, true),
		       fl = pl_font_of(FS, INK, PL_MIDDLE, false);
	const struct pl_style bg = { .stroke = PL_NONE, .fill = 0xfbfbfb },
			      frame = { .stroke = 0x444444,
					.fill = PL_NONE,
					.width = 1 };
	char id[160], t[512], stat[16];

	for (size_t k = 0; k < w->nsides; k++)
		for (size_t i = 0; i < p->nx; i++) {
			no_ci = no_ci || (p->pt[k * p->nx + i].have &&
					  !p->pt[k * p->nx + i].ci);
			any = any || p->pt[k * p->nx + i].have;
		}
	snprintf(stat, sizeof(stat), "%s",
		 !strcmp(p->metric, WALL) || p->rate
			 ? (p->rate ? "rate" : "mean")
			 : il_res_stat_name(p->st));
	snprintf(note, sizeof(note), "no CI: < %d runs with a %s",
		 p->sum == IL_RES_SUM_MEDIAN ? 6 : 2, stat);
	lw = legend_width(w);
	if (no_ci)
		lw = fmax(lw, pl_text_width(&fn, note) + 20);
	lw = fmin(lw, width * 0.35);
	x1 = ox + width - PAD_R - lw;
	x_axis_kind(p, sweep, &xa);
	xa.p0 = x0;
	xa.p1 = x1;
	y_axis(w, p, &ya);
	ya.p0 = y1;
	ya.p1 = y0;
	snprintf(id, sizeof(id), "estimates-%zu", pi);
	pl_group(sc, "panel estimates", id,
		 (const char *[]){ "data-block", p->block, "data-metric",
				   p->metric, "data-stat", stat, "data-x-scale",
				   xa.kind == X_LOG2	? "log2"
				   : xa.kind == X_LOG10 ? "log10"
				   : xa.kind == X_LIN	? "linear"
							: "categories",
				   "data-y-scale", ya.log ? "log" : "linear",
				   NULL });
	snprintf(t, sizeof(t), "%s: %s%s%s, %s of runs with CI95", p->block,
		 !strcmp(p->metric, WALL) ? "wall time" : p->metric,
		 strcmp(p->metric, WALL) ? " " : "",
		 strcmp(p->metric, WALL) ? stat : "",
		 il_res_summary_name(p->sum));
	pl_text_fitted(sc, x0, oy + 28, &fh, ox + width - x0, t);
	pl_rect(sc, x0, y0, x1 - x0, y1 - y0, &bg);
	y_ticks(sc, &ya, x0, x1);
	x_ticks(sc, p, &xa, y0, y1, ox, ox + width);
	for (size_t k = 0; k < w->nsides; k++) {
		char sid[200];

		snprintf(sid, sizeof(sid), "%s-side%zu", id, k);
		if (sweep)
			band(sc, p, k, &xa, &ya, sid, w->labels[k]);
	}
	for (size_t k = 0; k < w->nsides; k++) {
		double slot = (x1 - x0) / (double)(p->nx ? p->nx : 1);
		double step = fmin(18, slot / (double)(w->nsides + 1));
		char sid[200];

		snprintf(sid, sizeof(sid), "%s-side%zu", id, k);
		series(sc, w, p, k, &xa, &ya,
		       sweep ? 0
			     : ((double)k - (double)(w->nsides - 1) / 2) * step,
		       sid);
	}
	if (!any) {
		struct pl_font f = pl_font_of(FS, 0x777777, PL_MIDDLE, false);

		snprintf(t, sizeof(t), "no %s: too few samples", stat);
		pl_text_fitted(sc, (x0 + x1) / 2, (y0 + y1) / 2, &f, x1 - x0,
			       t);
	}
	pl_rect(sc, x0, y0, x1 - x0, y1 - y0, &frame);
	/* axis titles, with the unit */
	if (sweep)
		snprintf(t, sizeof(t), "%s%s", w->cfg->by,
			 xa.kind == X_LOG2    ? " (log2 scale)"
			 : xa.kind == X_LOG10 ? " (log scale)"
					      : "");
	else
		snprintf(t, sizeof(t), "configuration");
	pl_text_fitted(sc, (x0 + x1) / 2, y1 + 52, &fl, x1 - x0, t);
	snprintf(t, sizeof(t), "%s%s%s (%s%s)",
		 !strcmp(p->metric, WALL) ? "wall time" : p->metric,
		 strcmp(p->metric, WALL) ? " " : "",
		 strcmp(p->metric, WALL) ? stat : "", ya.u.name,
		 ya.log ? ", log scale" : "");
	fl.vertical = true;
	pl_text_fitted(sc, x0 - 80, (y0 + y1) / 2, &fl, y1 - y0, t);
	fl.vertical = false;
	/* the legend, right of the plot, drawn from the series' styles */
	pl_group(sc, "legend", NULL, NULL);
	for (size_t k = 0; k < w->nsides; k++) {
		struct pl_font f = pl_font_of(FS, INK, PL_START, false);
		struct pl_style ls = line_style(k), ds = dot_style(k);
		double lx = x1 + 14, ly = y0 + 18 + 26.0 * (double)k;
		char sid[200];

		if (ly > y1)
			break;
		snprintf(sid, sizeof(sid), "%s-side%zu", id, k);
		pl_group(sc, "legend-entry", NULL,
			 (const char *[]){ "data-series", sid, NULL });
		pl_line(sc, lx, ly - 5, lx + 30, ly - 5, &ls);
		pl_circle(sc, lx + 15, ly - 5, 4.5, &ds);
		pl_text_fitted(sc, lx + 38, ly, &f, ox + width - lx - 40,
			       w->labels[k]);
		pl_group_end(sc);
	}
	if (no_ci) {
		double ly = y0 + 18 + 26.0 * (double)w->nsides + 8;

		if (ly < y1)
			pl_text_fitted(sc, x1 + 14, ly, &fn,
				       ox + width - x1 - 16, note);
	}
	pl_group_end(sc);
	pl_group_end(sc);
}

static struct pl_scene *draw(const struct sweep *w)
{
	double width = (double)w->cfg->width, inner = width - 2 * MARGIN;
	double height = TITLE_H + (double)w->npanels * PANEL_H + MARGIN;
	struct pl_scene *sc = pl_scene_new(width, height);
	struct pl_font ft = pl_font_of(FS_TITLE, INK, PL_START, true),
		       fs = pl_font_of(FS, 0x444444, PL_START, false);
	char title[512], sub[1024];
	size_t n = 0;

	if (!sc)
		return NULL;
	if (w->cfg->title)
		snprintf(title, sizeof(title), "%s", w->cfg->title);
	else
		snprintf(title, sizeof(title), "%s%s%s: %zu side%s",
			 w->sides[0].groups[0].scenario,
			 w->cfg->by ? " by " : "", w->cfg->by ? w->cfg->by : "",
			 w->nsides, w->nsides == 1 ? "" : "s");
	sub[0] = '\0';
	for (size_t k = 0; k < w->nsides && n < sizeof(sub); k++) {
		int nv;
		const char *rel =
			il_res_set_fp(&w->sides[k], IL_RES_FP_RELEASE, &nv);

		n += (size_t)snprintf(
			sub + n, sizeof(sub) - n, "%s%s: kernel %s, %zu file%s",
			k ? "; " : "", w->labels[k], nv > 1 ? "(several)" : rel,
			w->sides[k].nfiles, w->sides[k].nfiles == 1 ? "" : "s");
	}
	if (w->truncated && n < sizeof(sub))
		snprintf(sub + n, sizeof(sub) - n, "; first %d panels",
			 MAX_PANELS);
	pl_title(sc, title);
	pl_group(sc, "title", NULL, NULL);
	pl_text_fitted(sc, MARGIN, 36, &ft, inner, title);
	pl_group_end(sc);
	pl_group(sc, "subtitle", NULL, NULL);
	pl_text_fitted(sc, MARGIN, 64, &fs, inner, sub);
	pl_group_end(sc);
	for (size_t i = 0; i < w->npanels; i++)
		draw_panel(sc, w, i, MARGIN, TITLE_H + (double)i * PANEL_H,
			   inner);
	return sc;
}

static void sweep_free(struct sweep *w)
{
	for (size_t k = 0; w->sides && k < w->nsides; k++)
		il_res_set_free(&w->sides[k]);
	free(w->sides);
	for (size_t k = 0; w->labels && k < w->nsides; k++)
		free(w->labels[k]);
	free(w->labels);
	for (size_t i = 0; i < w->npanels; i++)
		panel_free(&w->pn[i]);
	if (w->have_ctr)
		il_ctr_cmp_free(&w->ctr);
}

/* --stat: names separated by commas, each once; p99 without it */
static int parse_stats(struct sweep *w, char *err, size_t len)
{
	const char *s = w->cfg->stat ? w->cfg->stat : "p99";
	char name[32];

	while (*s) {
		size_t n = strcspn(s, ",");
		enum il_res_stat st;

		snprintf(name, sizeof(name), "%.*s", (int)(n < 31 ? n : 31), s);
		if (n > 31 || il_res_stat_parse(name, &st)) {
			snprintf(err, len, "--stat: '%.*s' is not one of %s",
				 (int)(n < 64 ? n : 64), s, il_res_stat_list());
			return -EINVAL;
		}
		for (size_t i = 0; i < w->nstats; i++)
			if (w->stats[i] == st) {
				snprintf(err, len, "--stat: '%s' twice", name);
				return -EINVAL;
			}
		if (w->nstats == IL_RES_NSTATS)
			return -EINVAL; /* not reached: each once */
		w->stats[w->nstats++] = st;
		s += n;
		if (*s == ',')
			s++;
	}
	if (!w->nstats) {
		snprintf(err, len, "--stat: no statistic named");
		return -EINVAL;
	}
	return 0;
}

bool plot_sweep_wanted(const struct plot_cfg *cfg, char *const *ops, int nops,
		       int after)
{
	int sides = after >= 0 ? 2 : 1;

	for (int i = 0; i < nops; i++)
		sides += !strcmp(ops[i], "--");
	return cfg->by || cfg->stat || sides > 2;
}

int plot_sweep_main(const struct plot_cfg *cfg, char **ops, int nops, int after,
		    enum pl_format fmt)
{
	struct sweep w = { .cfg = cfg };
	struct il_res_cmp_opts o = { .alpha = 0.05,
				     .resamples = 100,
				     .seed = 1 };
	int *nfiles = calloc((size_t)nops + 2, sizeof(*nfiles)), ns = 1;
	char err[512], **p;
	struct pl_scene *sc;
	bool rel;
	int ret = 2;

	if (!nfiles) {
		fprintf(stderr, "invlab-plot: out of memory\n");
		return 99;
	}
	if (parse_stats(&w, err, sizeof(err))) {
		fprintf(stderr, "invlab-plot: %s\nTry 'invlab-plot --help'.\n",
			err);
		goto out;
	}
	if (after < 0)
		nfiles[0] = nops;
	else if (il_res_split_sides(ops, nops, after, nfiles, &ns, err,
				    sizeof(err))) {
		fprintf(stderr, "invlab-plot: %s\n", err);
		goto out;
	}
	if (!nfiles[0]) {
		fprintf(stderr, "invlab-plot: no result files given\n"
				"Try 'invlab-plot --help'.\n");
		goto out;
	}
	w.nsides = (size_t)ns;
	if (il_res_labels_check(&cfg->label, w.nsides, err, sizeof(err))) {
		fprintf(stderr, "invlab-plot: %s\n", err);
		goto out;
	}
	ret = 99;
	w.sides = calloc(w.nsides, sizeof(*w.sides));
	w.labels = calloc(w.nsides, sizeof(*w.labels));
	if (!w.sides || !w.labels)
		goto oom;
	for (size_t k = 0; k < w.nsides; k++) {
		il_res_set_init(&w.sides[k], false);
		w.sides[k].max_input = cfg->max_input;
		w.sides[k].by = cfg->by;
	}
	p = ops;
	for (size_t k = 0; k < w.nsides; k++)
		for (int i = 0; i < nfiles[k]; i++, p++) {
			int r = il_res_set_load(&w.sides[k], *p, err,
						sizeof(err));

			if (r) {
				fprintf(stderr, "invlab-plot: %s\n", err);
				ret = il_res_load_status(r);
				goto out;
			}
		}
	if (il_res_side_labels(w.sides, w.nsides, &cfg->label, w.labels, &rel))
		goto oom;
	{
		/*
		 * The wall times, as compare's counters block reads them;
		 * one side is read as a baseline against itself, whose
		 * values are the baseline's.
		 */
		int nf[2] = { nfiles[0], nfiles[0] };
		char **two = calloc(2 * (size_t)nfiles[0] + 1, sizeof(*two));
		int r;

		if (!two)
			goto oom;
		for (int i = 0; i < 2 * nfiles[0]; i++)
			two[i] = ops[i % nfiles[0]];
		if (w.nsides > 1)
			r = il_ctr_cmp_build_sides(
				ops, nfiles, (int)w.nsides, cfg->by,
				(const char *const *)w.labels, cfg->max_input,
				&o, &w.ctr, err, sizeof(err));
		else
			r = il_ctr_cmp_build_sides(two, nf, 2, cfg->by, NULL,
						   cfg->max_input, &o, &w.ctr,
						   err, sizeof(err));
		free(two);
		if (r == -ENOMEM)
			goto oom;
		w.have_ctr = !r;
	}
	if (collect(&w))
		goto oom;
	if (!w.npanels || !w.sides[0].ngroups) {
		fprintf(stderr, "invlab-plot: no %s%s in the results\n",
			cfg->metric ? "histogram " : "histogram or wall time",
			cfg->metric ? cfg->metric : "");
		ret = 77;
		goto out;
	}
	sc = draw(&w);
	if (!sc)
		goto oom;
	ret = pl_scene_save(sc, cfg->output, fmt, err, sizeof(err));
	pl_scene_free(sc);
	if (ret) {
		fprintf(stderr, "invlab-plot: -o: %s\n", err);
		ret = 99;
		goto out;
	}
	ret = 0;
	goto out;
oom:
	fprintf(stderr, "invlab-plot: out of memory\n");
	ret = 99;
out:
	sweep_free(&w);
	free(nfiles);
	return ret;
}
