// SPDX-License-Identifier: MIT
/*
 * invlab-plot: results as a standalone SVG chart.
 *
 *   invlab-plot results.json -o chart.svg
 *   invlab-plot -m wakeup_ns base-*.json -- cand-*.json -o compare.svg
 *
 * For one histogram (--metric, blocked_ns by default) it draws:
 *
 *   - one latency histogram per configuration, side by side, with log
 *     latency and log counts on shared axes, so the shapes compare at a
 *     glance (the layout the priority-inversion-demo charts made
 *     familiar): an inversion is a second hump an order of magnitude to
 *     the right;
 *   - a percentile plot, p50 to p99.99 on a "nines" axis against log
 *     latency, one curve per configuration, dots on the reported
 *     percentiles;
 *   - with two result sets (BASE... -- CAND..., as invlab-compare), each
 *     histogram overlays baseline and candidate, the percentile plot draws
 *     the baseline dashed, and a third panel shows candidate / baseline
 *     at each percentile.
 *
 * The SVG is written with plain fprintf and needs nothing at run time:
 * no script, no external font or stylesheet.  Every series is a <g> with
 * an id and a data-configuration attribute, so tests (and people with a
 * text editor) can find them.  Curves stop where the samples do: a p999
 * needs 1000 samples, and a curve drawn past that would be invented.
 *
 * Exit: 0 chart written, 2 bad usage, 77 no such histogram in the
 * results, 99 a result file cannot be read or the chart not written.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/opt.h>
#include <invlab/report.h>

#include "args.h"
#include "escape.h"
#include "format.h"
#include "results.h"
#include "stats.h"
#include "timeline.h"

struct cfg {
	int help;
	int version;
	const char *output;
	const char *metric;
	const char *title;
	int64_t bins_per_decade;
	uint64_t max_input;
	int timeline;		   /* timeline.h */
	const char *configuration; /* of --timeline */
};

#define O(f) offsetof(struct cfg, f)
static const struct il_opt opts[] = {
	IL_OPT_HELP_ROW(O(help)),
	IL_OPT_VERSION_ROW(O(version)),
	{ .name = "output",
	  .short_name = 'o',
	  .type = IL_OPT_STRING,
	  .offset = O(output),
	  .def = "-",
	  .metavar = "FILE",
	  .help = "where to write the SVG ('-' for stdout); written complete "
		  "or not at all" },
	{ .name = "metric",
	  .short_name = 'm',
	  .type = IL_OPT_STRING,
	  .offset = O(metric),
	  .metavar = "NAME",
	  .help = "the histogram to draw (default: blocked_ns when the results "
		  "have it, else their first histogram)" },
	{ .name = "title",
	  .short_name = 't',
	  .type = IL_OPT_STRING,
	  .offset = O(title),
	  .metavar = "TEXT",
	  .help = "the chart's title (default: program and histogram); the "
		  "kernel release is always shown below it" },
	{ .name = "bins-per-decade",
	  .type = IL_OPT_INT,
	  .offset = O(bins_per_decade),
	  .def = "20",
	  .min = 2,
	  .max = 200,
	  .metavar = "N",
	  .help = "histogram bars per factor of ten of latency (the data's own "
		  "buckets are 1/128 of a factor of two, too fine to read)" },
	IL_RES_OPT_MAX_INPUT(O(max_input)),
	{ .name = "timeline",
	  .type = IL_OPT_FLAG,
	  .offset = O(timeline),
	  .help = "draw instead the worst wait of a traced run (one result "
		  "file) as a timeline: a lane per task and foreign task, the "
		  "request, boost and acquisition, the bound" },
	{ .name = "configuration",
	  .short_name = 'c',
	  .type = IL_OPT_STRING,
	  .offset = O(configuration),
	  .metavar = "NAME",
	  .help = "with --timeline: the configuration whose run is drawn "
		  "(default: the first traced one)" },
	{ .name = NULL },
};
#undef O

static const struct il_opt *const tables[] = { opts, NULL };

/* ---- geometry ---------------------------------------------------------- */

#define MARGIN	 20
#define TITLE_H	 64
#define PANEL_W	 380
#define PANEL_H	 270
#define BOTTOM_H 340
#define MAX_COLS 3
/* inside a panel: room for the axis labels */
#define PAD_L 62
#define PAD_R 14
#define PAD_T 28
#define PAD_B 46
/* the percentile axis: -log10(1 - p) from p50 to p99.99 */
#define NINES_LO 0.30103
#define NINES_HI 4.0

static const char *const palette[] = {
	"#d62728", "#1f77b4", "#2ca02c", "#ff7f0e",
	"#9467bd", "#8c564b", "#e377c2", "#17becf",
};
#define NCOLORS	  (sizeof(palette) / sizeof(palette[0]))
#define BASE_GREY "#7f7f7f"

static const struct {
	double q;
	const char *label;
} marks[] = {
	{ 0.5, "p50" },	    { 0.9, "p90" },	  { 0.99, "p99" },
	{ 0.999, "p99.9" }, { 0.9999, "p99.99" },
};
#define NMARKS (sizeof(marks) / sizeof(marks[0]))

/* a log10 axis mapped onto [p0, p1] pixels */
struct axis {
	double lo, hi; /* log10 of the range */
	double p0, p1;
};

static double map(const struct axis *a, double log_v)
{
	return a->p0 + (log_v - a->lo) / (a->hi - a->lo) * (a->p1 - a->p0);
}

/* one configuration: its group in each set (either may be absent) */
struct series {
	char *label;
	char id[96];
	const char *color;
	const struct il_res_metric *mb, *mc; /* mc: candidate, or NULL */
};

struct plot {
	const struct cfg *cfg;
	struct il_res_set base, cand;
	bool two;
	const char *metric;
	struct series *s;
	size_t n;
	FILE *f;
};

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

static void text(FILE *f, double x, double y, const char *anchor,
		 const char *extra, const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s%s>", x, y,
		anchor, extra ? " " : "", extra ? extra : "");
	il_res_xml_escape(f, s);
	fputs("</text>\n", f);
}

/*
 * An id from a configuration name: XML names allow only some characters.
 * Two names that sanitize alike are kept apart by their index.
 */
static void make_id(char *buf, size_t len, const char *name, size_t idx,
		    const struct plot *p)
{
	size_t n = 0;

	for (const char *c = name; *c && n + 1 < len; c++) {
		bool ok = (*c >= 'a' && *c <= 'z') ||
			  (*c >= 'A' && *c <= 'Z') ||
			  (*c >= '0' && *c <= '9') || *c == '-' || *c == '_';

		buf[n++] = ok ? *c : '_';
	}
	buf[n] = '\0';
	for (size_t i = 0; i < idx; i++) {
		if (!strcmp(p->s[i].id, buf)) {
			snprintf(buf + n, len - n, "-%zu", idx);
			break;
		}
	}
}

/* ---- data ---------------------------------------------------------------- */

static bool has_metric(const struct il_res_set *s, const char *m)
{
	for (size_t i = 0; i < s->ngroups; i++)
		if (il_res_group_metric(&s->groups[i], m))
			return true;
	return false;
}

static int add_series(struct plot *p, const struct il_res_group *g,
		      bool single_scenario)
{
	const struct il_res_group *gb, *gc;
	struct series *ns, *s;
	char label[512];

	gb = il_res_set_find(&p->base, g->scenario, g->configuration, 0);
	gc = p->two ? il_res_set_find(&p->cand, g->scenario, g->configuration,
				      0)
		    : NULL;
	if (!il_res_group_metric(gb, p->metric) &&
	    !il_res_group_metric(gc, p->metric))
		return 0;
	ns = realloc(p->s, (p->n + 1) * sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	p->s = ns;
	s = &ns[p->n];
	memset(s, 0, sizeof(*s));
	if (single_scenario)
		snprintf(label, sizeof(label), "%s", g->configuration);
	else
		snprintf(label, sizeof(label), "%s/%s", g->scenario,
			 g->configuration);
	s->label = strdup(label);
	if (!s->label)
		return -ENOMEM;
	s->color = palette[p->n % NCOLORS];
	s->mb = il_res_group_metric(gb, p->metric);
	s->mc = il_res_group_metric(gc, p->metric);
	/* prefixes (hist-, pct-, ratio-) are added where the id is used */
	make_id(s->id, sizeof(s->id), label, p->n, p);
	p->n++;
	return 0;
}

static int collect(struct plot *p)
{
	bool single = true;

	for (int side = 0; side < 2; side++) {
		const struct il_res_set *s = side ? &p->cand : &p->base;

		for (size_t i = 0; i < s->ngroups; i++)
			if (strcmp(s->groups[i].scenario,
				   p->base.groups[0].scenario))
				single = false;
	}
	for (size_t i = 0; i < p->base.ngroups; i++)
		if (add_series(p, &p->base.groups[i], single))
			return -ENOMEM;
	for (size_t i = 0; p->two && i < p->cand.ngroups; i++) {
		const struct il_res_group *g = &p->cand.groups[i];

		if (il_res_set_find(&p->base, g->scenario, g->configuration, 0))
			continue;
		if (add_series(p, g, single))
			return -ENOMEM;
	}
	return 0;
}

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

/* ---- drawing ------------------------------------------------------------- */

static void frame(FILE *f, double x0, double y0, double x1, double y1)
{
	fprintf(f,
		"<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%.1f\" fill=\"none\" stroke=\"#444\" "
		"stroke-width=\"1\"/>\n",
		x0, y0, x1 - x0, y1 - y0);
}

/* decade ticks and grid on a log axis; minor ticks at 2..9 */
static void log_ticks_x(FILE *f, const struct axis *ax, double y0, double y1,
			bool counts)
{
	char buf[32];

	fputs("<g class=\"axis x\" font-size=\"11\">\n", f);
	for (int d = (int)floor(ax->lo); d <= (int)ceil(ax->hi); d++) {
		for (int m = 1; m < 10; m++) {
			double lv = d + log10(m), x;

			if (lv < ax->lo - 1e-9 || lv > ax->hi + 1e-9)
				continue;
			x = map(ax, lv);
			if (m == 1) {
				fprintf(f,
					"<line x1=\"%.1f\" y1=\"%.1f\" "
					"x2=\"%.1f\" "
					"y2=\"%.1f\" stroke=\"#ddd\"/>\n",
					x, y0, x, y1);
				if (counts)
					fmt_tick_count(buf, sizeof(buf),
						       pow(10, d));
				else
					fmt_tick_ns(buf, sizeof(buf),
						    pow(10, d));
				text(f, x, y1 + 15, "middle", NULL, buf);
			}
			fprintf(f,
				"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				"y2=\"%.1f\" stroke=\"#444\"/>\n",
				x, y1, x, y1 + (m == 1 ? 5 : 3));
		}
	}
	fputs("</g>\n", f);
}

static void log_ticks_y(FILE *f, const struct axis *ay, double x0, double x1,
			bool counts)
{
	char buf[32];

	fputs("<g class=\"axis y\" font-size=\"11\">\n", f);
	for (int d = (int)ceil(ay->lo - 1e-9); d <= (int)floor(ay->hi + 1e-9);
	     d++) {
		double y = map(ay, d);

		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#ddd\"/>\n",
			x0, y, x1, y);
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#444\"/>\n",
			x0 - 5, y, x0, y);
		if (counts)
			fmt_tick_count(buf, sizeof(buf), pow(10, d));
		else
			fmt_tick_ns(buf, sizeof(buf), pow(10, d));
		text(f, x0 - 8, y + 4, "end", NULL, buf);
	}
	fputs("</g>\n", f);
}

static void axis_labels(FILE *f, double x0, double y0, double x1, double y1,
			const char *xl, const char *yl)
{
	char tr[96];

	text(f, (x0 + x1) / 2, y1 + 34, "middle", NULL, xl);
	snprintf(tr, sizeof(tr), "transform=\"rotate(-90 %.1f %.1f)\"", x0 - 46,
		 (y0 + y1) / 2);
	text(f, x0 - 46, (y0 + y1) / 2, "middle", tr, yl);
}

/* the nines axis: p50 .. p99.99 */
static void nines_ticks(FILE *f, const struct axis *ax, double y0, double y1)
{
	fputs("<g class=\"axis x\" font-size=\"11\">\n", f);
	for (size_t i = 0; i < NMARKS; i++) {
		double x = ax->p0 + (-log10(1 - marks[i].q) - ax->lo) /
					    (ax->hi - ax->lo) *
					    (ax->p1 - ax->p0);

		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#ddd\"/>\n",
			x, y0, x, y1);
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#444\"/>\n",
			x, y1, x, y1 + 5);
		text(f, x, y1 + 15, "middle", NULL, marks[i].label);
	}
	fputs("</g>\n", f);
}

/* One histogram as bars, one path: x on ax (log ns), y on ay (log count). */
static void bars(FILE *f, const struct il_hist *h, const struct axis *ax,
		 const struct axis *ay, long bpd, const char *fill,
		 const char *stroke, double opacity)
{
	size_t nbins = (size_t)((ax->hi - ax->lo) * (double)bpd + 0.5) + 1;
	double *b = calloc(nbins, sizeof(*b));
	double ybase = ay->p0;
	size_t used;

	if (!b)
		return;
	used = rebin(h, ax->lo, bpd, b, nbins);
	fprintf(f,
		"<path fill=\"%s\" fill-opacity=\"%.2f\" stroke=\"%s\" "
		"stroke-width=\"0.8\" d=\"",
		fill, opacity, stroke);
	for (size_t i = 0; i < used; i++) {
		double x0, x1, y;

		if (!b[i])
			continue;
		x0 = map(ax, ax->lo + (double)i / (double)bpd);
		x1 = map(ax, ax->lo + (double)(i + 1) / (double)bpd);
		y = map(ay, log10(b[i]));
		fprintf(f, "M%.1f %.1fV%.1fH%.1fV%.1fZ", x0, ybase, y, x1,
			ybase);
	}
	fputs("\"/>\n", f);
	free(b);
}

/* x of the p99 of h, or NAN when h has none */
static double p99_x(const struct il_hist *h, const struct axis *ax, uint64_t *v)
{
	if (!h || il_hist_percentile(h, 0.99, v))
		return NAN;
	return map(ax, log10(fmax((double)*v, 1)));
}

/*
 * Dashed lines at the p99 of each side, labelled.  The labels stack on
 * the side of both lines away from the panel's middle, so that neither
 * crosses a line.
 */
static void p99_lines(FILE *f, const struct il_hist *const h[2],
		      const char *const color[2], const struct axis *ax,
		      double y0, double y1)
{
	double x[2], lo = INFINITY, hi = -INFINITY;
	uint64_t v[2];
	bool right;
	int row = 0;

	for (int i = 0; i < 2; i++) {
		x[i] = p99_x(h[i], ax, &v[i]);
		if (isnan(x[i]))
			continue;
		lo = fmin(lo, x[i]);
		hi = fmax(hi, x[i]);
		fprintf(f,
			"<line class=\"p99\" x1=\"%.1f\" y1=\"%.1f\" "
			"x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			"stroke-dasharray=\"4 3\"/>\n",
			x[i], y0, x[i], y1, color[i]);
	}
	right = hi > (ax->p0 + ax->p1) / 2;
	for (int i = 0; i < 2; i++) {
		char buf[48], val[24], style[64];

		if (isnan(x[i]))
			continue;
		il_res_fmt_ns(val, sizeof(val), (double)v[i]);
		snprintf(buf, sizeof(buf), "p99 %s", val);
		snprintf(style, sizeof(style), "font-size=\"10\" fill=\"%s\"",
			 color[i]);
		text(f, right ? lo - 4 : hi + 4, y0 + 12 + 12 * row++,
		     right ? "end" : "start", style, buf);
	}
}

static uint64_t runs_of(const struct il_res_metric *m)
{
	return m ? m->nruns : 0;
}

static void histogram_panel(struct plot *p, const struct series *s, double ox,
			    double oy, const struct axis *axn,
			    const struct axis *ayn)
{
	FILE *f = p->f;
	double x0 = ox + PAD_L, x1 = ox + PANEL_W - PAD_R;
	double y0 = oy + PAD_T, y1 = oy + PANEL_H - PAD_B;
	struct axis ax = *axn, ay = *ayn;
	long bpd = (long)p->cfg->bins_per_decade;
	char head[256], xl[128];

	ax.p0 = x0;
	ax.p1 = x1;
	ay.p0 = y1;
	ay.p1 = y0;
	fprintf(f,
		"<g class=\"panel histogram\" id=\"hist-%s\" "
		"data-configuration=\"",
		s->id);
	il_res_xml_escape(f, s->label);
	fputs("\">\n", f);
	fprintf(f,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		"fill=\"#fbfbfb\"/>\n",
		x0, y0, x1 - x0, y1 - y0);
	log_ticks_x(f, &ax, y0, y1, false);
	log_ticks_y(f, &ay, x0, x1, true);
	if (p->two) {
		snprintf(head, sizeof(head),
			 "%s: %llu vs %llu samples, %llu vs %llu runs",
			 s->label,
			 (unsigned long long)(s->mb ? s->mb->merged->count : 0),
			 (unsigned long long)(s->mc ? s->mc->merged->count : 0),
			 (unsigned long long)runs_of(s->mb),
			 (unsigned long long)runs_of(s->mc));
	} else {
		snprintf(head, sizeof(head), "%s: %llu samples, %llu run%s",
			 s->label,
			 (unsigned long long)(s->mb ? s->mb->merged->count : 0),
			 (unsigned long long)runs_of(s->mb),
			 runs_of(s->mb) == 1 ? "" : "s");
	}
	text(f, (x0 + x1) / 2, oy + 18, "middle",
	     "font-weight=\"bold\" font-size=\"12\"", head);
	if (s->mb) {
		fprintf(f,
			"<g class=\"series\" id=\"hist-%s%s\" "
			"data-side=\"%s\" data-configuration=\"",
			s->id, p->two ? "-base" : "",
			p->two ? "baseline" : "results");
		il_res_xml_escape(f, s->label);
		fputs("\">\n", f);
		if (p->two)
			bars(f, s->mb->merged, &ax, &ay, bpd, BASE_GREY, "#555",
			     0.45);
		else
			bars(f, s->mb->merged, &ax, &ay, bpd, s->color,
			     s->color, 0.6);
		fputs("</g>\n", f);
	}
	if (s->mc) {
		fprintf(f,
			"<g class=\"series\" id=\"hist-%s-cand\" "
			"data-side=\"candidate\" data-configuration=\"",
			s->id);
		il_res_xml_escape(f, s->label);
		fputs("\">\n", f);
		bars(f, s->mc->merged, &ax, &ay, bpd, s->color, s->color, 0.5);
		fputs("</g>\n", f);
	}
	{
		const struct il_hist *h[2] = { s->mb ? s->mb->merged : NULL,
					       s->mc ? s->mc->merged : NULL };
		const char *col[2] = { p->two ? "#555" : "#333", s->color };

		p99_lines(f, h, col, &ax, y0, y1);
	}
	if ((!s->mb || !s->mb->merged->count) &&
	    (!s->mc || !s->mc->merged->count))
		text(f, (x0 + x1) / 2, (y0 + y1) / 2, "middle", "fill=\"#888\"",
		     "no samples");
	if (p->two) {
		/* which colour is which side, in the corner the bars leave */
		const struct il_hist *h = s->mb ? s->mb->merged : s->mc->merged;
		uint64_t med = 1;
		double lx;

		il_hist_percentile(h, 0.5, &med);
		lx = map(&ax, log10(fmax((double)med, 1))) > (x0 + x1) / 2
			     ? x0 + 8
			     : x1 - 92;
		fprintf(f,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" "
			"height=\"10\" fill=\"%s\" fill-opacity=\"0.45\"/>\n",
			lx, y0 + 30, BASE_GREY);
		text(f, lx + 14, y0 + 39, "start", "font-size=\"10\"",
		     "baseline");
		fprintf(f,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" "
			"height=\"10\" fill=\"%s\" fill-opacity=\"0.5\"/>\n",
			lx, y0 + 44, s->color);
		text(f, lx + 14, y0 + 53, "start", "font-size=\"10\"",
		     "candidate");
	}
	frame(f, x0, y0, x1, y1);
	snprintf(xl, sizeof(xl), "%s (log scale)", p->metric);
	axis_labels(f, x0, y0, x1, y1, xl, "samples per bar (log)");
	fputs("</g>\n", f);
}

/* x of a percentile on the nines axis */
static double nines_x(const struct axis *ax, double q)
{
	return ax->p0 +
	       (-log10(1 - q) - ax->lo) / (ax->hi - ax->lo) * (ax->p1 - ax->p0);
}

/* the quantile function of h from p50 up to where its samples allow */
static void pct_curve(FILE *f, const struct il_hist *h, const struct axis *ax,
		      const struct axis *ay, const char *color, bool dashed)
{
	bool started = false;
	uint64_t v;

	if (!h || !h->count)
		return;
	fprintf(f,
		"<path fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"%s "
		"d=\"",
		color, dashed ? "1.6" : "2",
		dashed ? " stroke-dasharray=\"6 4\"" : "");
	for (double n = NINES_LO; n <= NINES_HI + 1e-9; n += 0.01) {
		double q = 1 - pow(10, -n);

		if (il_hist_percentile(h, q, &v))
			break;
		fprintf(f, "%c%.1f %.1f", started ? 'L' : 'M', nines_x(ax, q),
			map(ay, log10(fmax((double)v, 1))));
		started = true;
	}
	fputs("\"/>\n", f);
	for (size_t i = 0; i < NMARKS; i++) {
		if (il_hist_percentile(h, marks[i].q, &v))
			break;
		fprintf(f,
			"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" "
			"fill=\"%s\" stroke=\"white\" stroke-width=\"1\"/>\n",
			nines_x(ax, marks[i].q),
			map(ay, log10(fmax((double)v, 1))),
			dashed ? "white" : color);
		if (dashed)
			fprintf(f,
				"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
				"fill=\"none\" stroke=\"%s\" "
				"stroke-width=\"1.5\"/>\n",
				nines_x(ax, marks[i].q),
				map(ay, log10(fmax((double)v, 1))), color);
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

static void legend(FILE *f, const struct plot *p, double x, double y)
{
	fputs("<g class=\"legend\" font-size=\"11\">\n", f);
	for (size_t i = 0; i < p->n; i++) {
		double yy = y + 15.0 * (double)i;

		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2.5\"/>\n",
			x, yy - 4, x + 18, yy - 4, p->s[i].color);
		text(f, x + 23, yy, "start", NULL, p->s[i].label);
	}
	if (p->two) {
		double yy = y + 15.0 * (double)p->n + 4;

		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\" stroke=\"#333\" stroke-width=\"2\"/>\n",
			x, yy - 4, x + 18, yy - 4);
		text(f, x + 23, yy, "start", NULL, "candidate");
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\" stroke=\"#333\" stroke-width=\"1.6\" "
			"stroke-dasharray=\"6 4\"/>\n",
			x, yy + 11, x + 18, yy + 11);
		text(f, x + 23, yy + 15, "start", NULL, "baseline");
	}
	fputs("</g>\n", f);
}

static void percentile_panel(struct plot *p, double ox, double oy, double w)
{
	FILE *f = p->f;
	double x0 = ox + PAD_L, x1 = ox + w - PAD_R - 110;
	double y0 = oy + PAD_T, y1 = oy + BOTTOM_H - PAD_B;
	double lo = INFINITY, hi = 0;
	struct axis ax = { NINES_LO, NINES_HI, x0, x1 }, ay;
	char yl[128];

	for (size_t i = 0; i < p->n; i++) {
		pct_range(p->s[i].mb ? p->s[i].mb->merged : NULL, &lo, &hi);
		pct_range(p->s[i].mc ? p->s[i].mc->merged : NULL, &lo, &hi);
	}
	fputs("<g class=\"panel percentiles\" id=\"percentiles\">\n", f);
	text(f, (x0 + x1) / 2, oy + 18, "middle",
	     "font-weight=\"bold\" font-size=\"12\"",
	     "Percentiles (merged runs)");
	fprintf(f,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		"fill=\"#fbfbfb\"/>\n",
		x0, y0, x1 - x0, y1 - y0);
	if (!(hi > 0)) {
		text(f, (x0 + x1) / 2, (y0 + y1) / 2, "middle", "fill=\"#888\"",
		     "too few samples for p50");
		lo = hi = 1000;
	}
	ay.lo = floor(log10(lo));
	ay.hi = ceil(log10(hi));
	if (ay.hi - ay.lo < 1)
		ay.hi = ay.lo + 1;
	ay.p0 = y1;
	ay.p1 = y0;
	nines_ticks(f, &ax, y0, y1);
	log_ticks_y(f, &ay, x0, x1, false);
	for (size_t i = 0; i < p->n; i++) {
		const struct series *s = &p->s[i];

		if (s->mb) {
			fprintf(f,
				"<g class=\"series\" id=\"pct-%s%s\" "
				"data-configuration=\"",
				s->id, p->two ? "-base" : "");
			il_res_xml_escape(f, s->label);
			fputs("\">\n", f);
			pct_curve(f, s->mb->merged, &ax, &ay, s->color, p->two);
			fputs("</g>\n", f);
		}
		if (s->mc) {
			fprintf(f,
				"<g class=\"series\" id=\"pct-%s-cand\" "
				"data-configuration=\"",
				s->id);
			il_res_xml_escape(f, s->label);
			fputs("\">\n", f);
			pct_curve(f, s->mc->merged, &ax, &ay, s->color, false);
			fputs("</g>\n", f);
		}
	}
	frame(f, x0, y0, x1, y1);
	snprintf(yl, sizeof(yl), "%s (log scale)", p->metric);
	axis_labels(f, x0, y0, x1, y1, "percentile", yl);
	legend(f, p, x1 + 14, y0 + 12);
	fputs("</g>\n", f);
}

/* candidate / baseline at each percentile, on a log2 axis around 1 */
static void ratio_panel(struct plot *p, double ox, double oy, double w)
{
	FILE *f = p->f;
	double x0 = ox + PAD_L, x1 = ox + w - PAD_R;
	double y0 = oy + PAD_T, y1 = oy + BOTTOM_H - PAD_B;
	struct axis ax = { NINES_LO, NINES_HI, x0, x1 }, ay;
	double span = 1;
	uint64_t vb, vc;

	for (size_t i = 0; i < p->n; i++) {
		const struct series *s = &p->s[i];

		if (!s->mb || !s->mc)
			continue;
		for (double n = NINES_LO; n <= NINES_HI + 1e-9; n += 0.01) {
			double q = 1 - pow(10, -n);

			if (il_hist_percentile(s->mb->merged, q, &vb) ||
			    il_hist_percentile(s->mc->merged, q, &vc))
				break;
			span = fmax(span, fabs(log2(fmax((double)vc, 1) /
						    fmax((double)vb, 1))));
		}
	}
	span = ceil(span);
	/* log2 values on an axis struct meant for log10: same arithmetic */
	ay = (struct axis){ -span, span, y1, y0 };
	fputs("<g class=\"panel comparison\" id=\"comparison\">\n", f);
	text(f, (x0 + x1) / 2, oy + 18, "middle",
	     "font-weight=\"bold\" font-size=\"12\"",
	     "Candidate / baseline at each percentile");
	fprintf(f,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		"fill=\"#fbfbfb\"/>\n",
		x0, y0, x1 - x0, y1 - y0);
	/* the worse half, lightly tinted: lower latency is better */
	fprintf(f,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		"fill=\"#d62728\" fill-opacity=\"0.05\"/>\n",
		x0, y0, x1 - x0, map(&ay, 0) - y0);
	nines_ticks(f, &ax, y0, y1);
	fputs("<g class=\"axis y\" font-size=\"11\">\n", f);
	for (int k = (int)-span; k <= (int)span; k++) {
		double y = map(&ay, k);
		char buf[32];

		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"%s\"%s/>\n",
			x0, y, x1, y, k ? "#ddd" : "#444",
			k ? "" : " stroke-width=\"1.2\"");
		snprintf(buf, sizeof(buf), "%g", pow(2, k));
		text(f, x0 - 8, y + 4, "end", NULL, buf);
	}
	fputs("</g>\n", f);
	text(f, x1 - 6, y0 + 14, "end", "font-size=\"10\" fill=\"#a33\"",
	     "above 1: candidate slower");
	text(f, x1 - 6, y1 - 8, "end", "font-size=\"10\" fill=\"#3a3\"",
	     "below 1: candidate faster");
	for (size_t i = 0; i < p->n; i++) {
		const struct series *s = &p->s[i];
		bool started = false;

		if (!s->mb || !s->mc)
			continue;
		fprintf(f,
			"<g class=\"series\" id=\"ratio-%s\" "
			"data-configuration=\"",
			s->id);
		il_res_xml_escape(f, s->label);
		fprintf(f,
			"\">\n<path fill=\"none\" stroke=\"%s\" "
			"stroke-width=\"2\" d=\"",
			s->color);
		for (double n = NINES_LO; n <= NINES_HI + 1e-9; n += 0.01) {
			double q = 1 - pow(10, -n);

			if (il_hist_percentile(s->mb->merged, q, &vb) ||
			    il_hist_percentile(s->mc->merged, q, &vc))
				break;
			fprintf(f, "%c%.1f %.1f", started ? 'L' : 'M',
				nines_x(&ax, q),
				map(&ay, log2(fmax((double)vc, 1) /
					      fmax((double)vb, 1))));
			started = true;
		}
		fputs("\"/>\n", f);
		for (size_t m = 0; m < NMARKS; m++) {
			if (il_hist_percentile(s->mb->merged, marks[m].q,
					       &vb) ||
			    il_hist_percentile(s->mc->merged, marks[m].q, &vc))
				break;
			fprintf(f,
				"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" "
				"fill=\"%s\" stroke=\"white\"/>\n",
				nines_x(&ax, marks[m].q),
				map(&ay, log2(fmax((double)vc, 1) /
					      fmax((double)vb, 1))),
				s->color);
		}
		fputs("</g>\n", f);
	}
	frame(f, x0, y0, x1, y1);
	axis_labels(f, x0, y0, x1, y1, "percentile",
		    "candidate / baseline (log)");
	fputs("</g>\n", f);
}

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

static int draw(struct plot *p)
{
	FILE *f = p->f;
	size_t cols = p->n < MAX_COLS ? p->n : MAX_COLS;
	size_t rows = (p->n + cols - 1) / cols;
	double width = MARGIN * 2 + (double)cols * PANEL_W;
	double height, by;
	struct axis axn, ayn;
	double vlo = INFINITY, vhi = 0, chi = 1;
	char title[512], sub[1024], d1[400], d2[400];

	if (width < MARGIN * 2 + 2 * 480)
		width = MARGIN * 2 + 2 * 480;
	height = TITLE_H + (double)rows * PANEL_H + BOTTOM_H + MARGIN;

	/* shared axes: every histogram on the same latency and count scale */
	for (size_t i = 0; i < p->n; i++) {
		const struct il_res_metric *m[2] = { p->s[i].mb, p->s[i].mc };

		for (int k = 0; k < 2; k++) {
			const struct il_hist *h = m[k] ? m[k]->merged : NULL;
			double *b;
			size_t nb;

			if (!h || !h->count)
				continue;
			vlo = fmin(vlo, fmax((double)h->min, 1));
			vhi = fmax(vhi, fmax((double)h->max, 1));
			/* the tallest bar, on a provisional wide axis */
			nb = (size_t)(12 * p->cfg->bins_per_decade) + 1;
			b = calloc(nb, sizeof(*b));
			if (!b)
				return -ENOMEM;
			rebin(h, 0, (long)p->cfg->bins_per_decade, b, nb);
			for (size_t j = 0; j < nb; j++)
				chi = fmax(chi, b[j]);
			free(b);
		}
	}
	if (!(vhi > 0))
		vlo = vhi = 1000;
	axn.lo = floor(log10(vlo));
	axn.hi = ceil(log10(vhi) + 1e-9);
	if (axn.hi - axn.lo < 1)
		axn.hi = axn.lo + 1;
	/* counts from 0.5, so that a bar of one sample shows */
	ayn.lo = log10(0.5);
	ayn.hi = ceil(log10(chi) + 1e-9);
	if (ayn.hi < 1)
		ayn.hi = 1;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\" "
		"font-size=\"12\">\n",
		width, height, width, height);
	if (p->cfg->title)
		snprintf(title, sizeof(title), "%s", p->cfg->title);
	else if (p->base.ngroups)
		snprintf(title, sizeof(title), "%s: %s latency%s",
			 p->base.groups[0].scenario, p->metric,
			 p->two ? ", candidate vs baseline" : "");
	describe_set(d1, sizeof(d1), &p->base);
	if (p->two) {
		describe_set(d2, sizeof(d2), &p->cand);
		snprintf(sub, sizeof(sub), "baseline: %s; candidate: %s", d1,
			 d2);
	} else {
		snprintf(sub, sizeof(sub), "%s", d1);
	}
	fputs("<title>", f);
	il_res_xml_escape(f, title);
	fputs("</title>\n", f);
	fprintf(f, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n",
		width, height);
	text(f, MARGIN, 28, "start",
	     "class=\"title\" font-size=\"17\" font-weight=\"bold\"", title);
	text(f, MARGIN, 48, "start", "class=\"subtitle\" fill=\"#444\"", sub);

	for (size_t i = 0; i < p->n; i++)
		histogram_panel(
			p, &p->s[i], MARGIN + (double)(i % cols) * PANEL_W,
			TITLE_H + (double)(i / cols) * PANEL_H, &axn, &ayn);
	by = TITLE_H + (double)rows * PANEL_H;
	if (p->two) {
		double half = (width - 2 * MARGIN) / 2;

		percentile_panel(p, MARGIN, by, half);
		ratio_panel(p, MARGIN + half, by, half);
	} else {
		percentile_panel(p, MARGIN, by, width - 2 * MARGIN);
	}
	fputs("</svg>\n", f);
	return ferror(f) ? -EIO : 0;
}

/* ---- main ---------------------------------------------------------------- */

static void free_plot(struct plot *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->s[i].label);
	free(p->s);
	il_res_set_free(&p->base);
	il_res_set_free(&p->cand);
}

int main(int argc, char **argv)
{
	static const char usage[] =
		"[OPTIONS] RESULTS.json... [-- CAND.json...]";
	static const char summary[] =
		"Draw invlab results as a standalone SVG: for one histogram, "
		"a latency histogram per configuration side by side (log "
		"latency, log counts, shared axes) and a percentile plot from "
		"p50 to p99.99.  Runs of a configuration are merged bin by "
		"bin.  With files after '--' (options go before it), those "
		"are a candidate drawn over the baseline, with a panel of "
		"candidate / baseline at each percentile.  The title names the "
		"kernel release.  Exit status: 0 written, 2 bad usage, 77 no "
		"such histogram in the results, 99 a file cannot be read or "
		"written.";
	struct cfg cfg;
	struct plot p;
	struct il_afile af;
	char err[512];
	int after, first, nops, nbase, ret;

	memset(&cfg, 0, sizeof(cfg));
	memset(&p, 0, sizeof(p));
	p.cfg = &cfg;
	after = il_res_count_after_dashdash(argc, argv);
	first = il_opt_parse(argc, argv, tables, &cfg, err, sizeof(err));
	if (first < 0) {
		fprintf(stderr, "invlab-plot: %s\nTry 'invlab-plot --help'.\n",
			err);
		return 2;
	}
	if (cfg.help) {
		il_opt_help(stdout, "invlab-plot", usage, summary, tables);
		return 0;
	}
	if (cfg.version) {
		printf("invlab-plot %s (%s)\n", il_version(), il_features());
		return 0;
	}
	/* an output that cannot be written is found before any work */
	if (cfg.output && il_afile_check(cfg.output, err, sizeof(err))) {
		fprintf(stderr, "invlab-plot: -o: %s\n", err);
		return 2;
	}
	if (cfg.timeline)
		return il_tl_main(argv + first, argc - first, cfg.configuration,
				  cfg.output, cfg.max_input);
	nops = argc - first;
	if (after < 0)
		after = 0;
	nbase = nops - after;
	p.two = after > 0;
	if (nbase < 1) {
		fprintf(stderr, "invlab-plot: no result files given\n"
				"Try 'invlab-plot --help'.\n");
		return 2;
	}
	il_res_set_init(&p.base, false);
	il_res_set_init(&p.cand, false);
	p.base.max_input = p.cand.max_input = cfg.max_input;
	if (il_res_load_sides(argc, argv, first, nbase, after, &p.base, &p.cand,
			      &ret, err, sizeof(err))) {
		fprintf(stderr, "invlab-plot: %s\n", err);
		free_plot(&p);
		return ret;
	}
	if (cfg.metric) {
		p.metric = cfg.metric;
	} else if (has_metric(&p.base, "blocked_ns") ||
		   has_metric(&p.cand, "blocked_ns")) {
		p.metric = "blocked_ns";
	} else {
		for (size_t i = 0; !p.metric && i < p.base.ngroups; i++)
			if (p.base.groups[i].nmetrics)
				p.metric = p.base.groups[i].metrics[0].name;
	}
	if (!p.metric || !p.base.ngroups || collect(&p) || !p.n) {
		fprintf(stderr,
			"invlab-plot: no histogram '%s' in the "
			"results\n",
			p.metric ? p.metric : "(any)");
		free_plot(&p);
		return 77;
	}
	ret = il_afile_open(&af, cfg.output);
	if (ret) {
		fprintf(stderr, "invlab-plot: -o: cannot create '%s': %s\n",
			cfg.output, strerror(-ret));
		free_plot(&p);
		return 99;
	}
	p.f = af.f;
	ret = draw(&p);
	if (ret)
		il_afile_abort(&af);
	else
		ret = il_afile_commit(&af);
	free_plot(&p);
	if (ret) {
		fprintf(stderr, "invlab-plot: -o: cannot write '%s': %s\n",
			cfg.output, strerror(-ret));
		return 99;
	}
	return 0;
}
