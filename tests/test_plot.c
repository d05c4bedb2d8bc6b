// SPDX-License-Identifier: MIT
/*
 * invlab-plot: the chart is well-formed, complete, legible and honest.
 *
 *   test-plot build/tools/invlab-plot docs/man/invlab-plot.1 \
 *             SVG-ONLY-PLOT HAVE-CAIRO
 *
 * Synthetic results with four configurations (one named with every
 * character XML must escape), with checks (bound, noise, verdict) as the
 * demos write them, are drawn alone and against a candidate.  The SVG
 * must parse with the XML checker of t_tools.c, carry the kernel release
 * in its title, and hold one histogram and one percentile series per
 * configuration, histogram and side (and a ratio series with two sides),
 * found by their ids; a curve must stop where its samples do.  Every
 * chart is read back (t_svg.c): no two texts overlap (boxes estimated
 * from font size x characters), no text is under 16 px, every legend
 * entry draws as its series does, and every histogram has its bound and
 * verdict.  PNG (its IHDR size) and PDF (%PDF) are checked when the
 * build has cairo (HAVE-CAIRO 1); SVG-ONLY-PLOT is the same program
 * built without cairo, which must refuse them by name.  The look itself
 * is checked by eye (docs/results-tools.md).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <invlab/hist.h>
#include <invlab/report.h>
#include <invlab/sysinfo.h>
#include <invlab/time.h>

#include "t_svg.h"
#include "t_tools.h"
#include "t_util.h"

#define US IL_NSEC_PER_USEC
#define MS IL_NSEC_PER_MSEC

static const char *tool, *svg_only;
static bool have_cairo;
static struct il_sysinfo si;

static int run_v(const char *prog, char **out, char **err, va_list ap)
{
	char *argv[40];
	int n = 0;

	argv[n++] = (char *)prog;
	while (n < 39 && (argv[n] = va_arg(ap, char *)))
		n++;
	argv[n] = NULL;
	return t_run_tool(argv, out, err);
}

static int run(char **out, char **err, ...)
{
	va_list ap;
	int rc;

	va_start(ap, err);
	rc = run_v(tool, out, err, ap);
	va_end(ap);
	return rc;
}

static int run_svg_only(char **out, char **err, ...)
{
	va_list ap;
	int rc;

	va_start(ap, err);
	rc = run_v(svg_only, out, err, ap);
	va_end(ap);
	return rc;
}

/* one run of a synthetic result, with the check a demo would write */
struct run {
	const char *conf, *verdict, *expected;
	uint64_t bound_ns, noise_ns;
	struct il_hist *blocked, *wakeup;
};

static void write_result(const char *path, const struct run *r, int n)
{
	static char *argv[] = { "synthetic", NULL };
	struct il_run_info ri = {
		.program = "pi-classic", .argc = 1, .argv = argv, .sys = &si
	};
	struct il_json j;
	FILE *f = fopen(path, "w");

	t_check(f != NULL);
	if (!f)
		return;
	clock_gettime(CLOCK_REALTIME, &ri.start);
	il_json_init(&j, f);
	il_report_begin(&j, &ri);
	il_json_begin_object(&j, "scenario");
	il_json_uint(&j, "cs_ns", 2 * MS);
	il_json_end_object(&j);
	il_json_bool(&j, "interrupted", false);
	il_json_begin_array(&j, "runs");
	for (int i = 0; i < n; i++) {
		il_json_begin_object(&j, NULL);
		il_json_str(&j, "configuration", r[i].conf);
		il_json_str(&j, "verdict", r[i].verdict);
		il_json_str(&j, "expected", r[i].expected);
		if (r[i].blocked)
			il_json_hist(&j, "blocked_ns", r[i].blocked);
		if (r[i].wakeup)
			il_json_hist(&j, "wakeup_ns", r[i].wakeup);
		il_json_begin_array(&j, "checks");
		if (r[i].bound_ns) {
			il_json_begin_object(&j, NULL);
			il_json_str(&j, "validator", "pi");
			il_json_str(&j, "task", "high");
			il_json_str(&j, "expected", r[i].expected);
			il_json_str(&j, "verdict", r[i].verdict);
			il_json_str(&j, "bound", "priority inheritance (test)");
			il_json_uint(&j, "bound_ns", r[i].bound_ns);
			il_json_uint(&j, "noise_ns", r[i].noise_ns);
			il_json_uint(&j, "worst_ns", r[i].bound_ns);
			il_json_str(&j, "evidence", "synthetic");
			il_json_end_object(&j);
		}
		il_json_end_array(&j);
		il_json_end_object(&j);
	}
	il_json_end_array(&j);
	il_report_end(&j, 0);
	fputc('\n', f);
	t_check_int(il_json_error(&j), 0);
	fclose(f);
}

static const char long_name[] =
	"Zz-a-configuration-name-long-enough-to-run-into-everything-beside";

static void write_set(const char *name, uint64_t seed, double scale,
		      bool with_long)
{
	static struct il_hist nb, nw, ib, iw, pb, pw, xb;
	struct run r[5] = {
		{ "none", "FAIL", "FAIL", 2 * MS, 50 * US, &nb, &nw },
		{ "inherit", "PASS", "PASS", 2050 * US, 40 * US, &ib, &iw },
		{ "inherit", "PASS", "PASS", 2100 * US, 50 * US, &ib, &iw },
		{ "protect", "PASS", "PASS", 2200 * US, 45 * US, &pb, &pw },
		{ "a<b&\"c\"", "PASS", "PASS", 0, 0, &xb, NULL },
	};
	uint64_t s = seed;

	t_fill_hist(&nb, &s, 60, 21.0 * MS * scale, 0.02);
	t_fill_hist(&nw, &s, 60, 50.0 * US * scale, 0.3);
	t_fill_hist(&ib, &s, 2000, 1.5 * MS * scale, 0.1);
	t_fill_hist(&iw, &s, 2000, 20.0 * US * scale, 0.3);
	t_fill_hist(&pb, &s, 3000, 3.0 * US * scale, 0.5);
	t_fill_hist(&pw, &s, 3000, 1.6 * MS * scale, 0.1);
	t_fill_hist(&xb, &s, 500, 100.0 * US * scale, 0.5);
	if (with_long)
		r[4].conf = long_name;
	for (int i = 0; i < 5; i++)
		r[i].bound_ns = (uint64_t)((double)r[i].bound_ns * scale);
	write_result(t_tmp(name), r, 5);
}

static const char *find_id(const char *svg, const char *id)
{
	char want[160];

	snprintf(want, sizeof(want), "id=\"%s\"", id);
	return strstr(svg, want);
}

static int count_in(const char *p, const char *end, const char *what)
{
	int n = 0;

	for (const char *c = strstr(p, what); c && (!end || c < end);
	     c = strstr(c + 1, what))
		n++;
	return n;
}

/* the checks every chart passes: XML, standalone, legible, honest */
static void check_svg(const char *svg, const char *what)
{
	char msg[256];
	int rc;
	struct t_text *t;
	size_t n, checked;

	t_check(svg != NULL);
	if (!svg)
		return;
	rc = t_xml_check(svg, msg, sizeof(msg));
	t_check_int(rc, 0);
	if (rc)
		printf("# %s: %s\n", what, msg);
	t_check_contains(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\"");
	t_check_contains(svg, "viewBox=\"0 0 ");
	/* no script, no external reference: standalone */
	t_check(!strstr(svg, "<script") && !strstr(svg, "href="));
	/* no two texts overlap, none is under 16 px */
	t = t_svg_texts(svg, &n);
	t_check(t != NULL && n > 10);
	if (t) {
		size_t bad = t_svg_overlaps(t, n);

		t_check_int((int)bad, 0);
		if (bad)
			printf("# %s: %zu overlapping texts\n", what, bad);
		t_check(t_svg_min_font(t, n) >= 16);
	}
	free(t);
	/* every legend entry looks like its series */
	t_check_int((int)t_svg_legend_mismatches(svg, &checked), 0);
	/* every histogram panel has its verdict */
	t_check_int(count_in(svg, NULL, "class=\"panel histogram\""),
		    count_in(svg, NULL, "class=\"verdict\""));
}

/* the reader itself: two texts put on one another are found */
static void test_reader(void)
{
	static const char two[] =
		"<svg><text x=\"100\" y=\"50\" font-size=\"16\" "
		"text-anchor=\"middle\">p99 1.70ms</text>\n"
		"<text x=\"60\" y=\"60\" font-size=\"16\" "
		"text-anchor=\"start\">1k</text>\n"
		"<text x=\"35\" y=\"200\" font-size=\"16\" "
		"text-anchor=\"start\" transform=\"rotate(-90 35 200)\">"
		"samples per bar</text>\n"
		"<text x=\"30\" y=\"130\" font-size=\"16\" "
		"text-anchor=\"start\">&lt;x</text></svg>";
	static const char legend[] =
		"<g class=\"legend-entry\" data-series=\"pct-a\">"
		"<line x1=\"0\" stroke=\"#000000\" stroke-width=\"2.5\"/></g>"
		"<g class=\"series\" id=\"pct-a\"><path d=\"M0 0L1 1\" "
		"stroke=\"#d62728\" stroke-width=\"2.5\"/></g>";
	struct t_text *t;
	size_t n, checked;

	t = t_svg_texts(two, &n);
	t_check_int((int)n, 4);
	/* "p99 1.70ms" spans 52..148 at y 37..54: on "1k" (60..79) */
	t_check_int((int)t_svg_overlaps(t, n), 2);
	/* the turned label spans y 56..200 at x 22..39: on "<x" (30..49) */
	if (t && n == 4) {
		t_check(t[2].x0 > 22 && t[2].x1 == 39 && t[2].y0 == 56 &&
			t[2].y1 == 200);
		t_check(t[3].x1 - t[3].x0 < 20); /* "<x": two characters */
	}
	free(t);
	/* a legend drawn black for a red curve is caught */
	t_check_int((int)t_svg_legend_mismatches(legend, &checked), 1);
	t_check_int((int)checked, 1);
}

static void test_one_set(void)
{
	char *out = NULL, *err = NULL, *svg;
	const char *p;
	int rc;

	rc = run(&out, &err, "-m", "blocked_ns", t_tmp("a0.json"),
		 t_tmp("a1.json"), "-o", t_tmp("one.svg"), NULL);
	t_check_int(rc, 0);
	svg = t_read_file(t_tmp("one.svg"));
	check_svg(svg, "one.svg");
	if (!svg)
		return;
	/* the kernel release is in the subtitle, under a title */
	t_check_contains(svg, "<title>pi-classic: blocked_ns latency</title>");
	t_check_contains(svg, "kernel 6.18.0-test (preempt full, HZ 1000, "
			      "kvm), 2 files");
	/* a histogram and a percentile curve per configuration */
	t_check(find_id(svg, "hist-none") != NULL);
	t_check(find_id(svg, "hist-inherit") != NULL);
	t_check(find_id(svg, "hist-protect") != NULL);
	t_check(find_id(svg, "pct-none") != NULL);
	t_check(find_id(svg, "pct-inherit") != NULL);
	t_check(find_id(svg, "pct-protect") != NULL);
	t_check(find_id(svg, "percentiles") != NULL);
	t_check(find_id(svg, "comparison") == NULL);
	/* the hostile name: escaped in text, sanitized in the id */
	t_check(find_id(svg, "hist-a_b__c_") != NULL);
	t_check_contains(svg,
			 "data-configuration=\"a&lt;b&amp;&quot;c&quot;\"");
	t_check_contains(svg, ">a&lt;b&amp;&quot;c&quot;<");
	/* merged: 2 files x 2 runs x 2000 samples of inherit */
	t_check_contains(svg, ">8000 samples, 4 runs<");
	/* axes with units */
	t_check_contains(svg, ">1ms<");
	t_check_contains(svg, ">p99.9<");
	t_check_contains(svg, ">blocked_ns (log scale)<");
	t_check_contains(svg, ">samples per bar (log)<");
	/*
	 * The bound: on every histogram whose runs were judged, the largest
	 * of their checks (2.1ms of inherit's two), with its name; none on
	 * the configuration without checks.
	 */
	t_check_int(count_in(svg, NULL, "class=\"bound\""), 3);
	t_check_contains(svg, ">bound 2.10ms<");
	t_check_contains(svg, ">bound 2.00ms<");
	t_check_contains(svg,
			 "data-bound-name=\"priority inheritance (test)\"");
	/* the decades are labelled under each histogram */
	p = find_id(svg, "panel-hist-inherit");
	if (p) {
		const char *ax = strstr(p, "<g class=\"axis x\">"),
			   *end = ax ? strstr(ax, "</g>") : NULL;

		t_check(ax && count_in(ax, end, ">1ms<") == 1 &&
			count_in(ax, end, ">10us<") == 1);
	}
	p = find_id(svg, "panel-hist-a_b__c_");
	t_check(p && count_in(p, strstr(p, "class=\"axis y\""),
			      "class=\"bound\"") == 0);
	/* and the verdict, in words */
	t_check_contains(svg, "data-verdict=\"FAIL (expected)\"");
	t_check_contains(svg, ">FAIL (expected)<");
	t_check_contains(svg, "data-verdict=\"PASS\"");
	/*
	 * none has 120 samples: its curve reaches p99 (dots at p50, p90,
	 * p99) and stops before p99.9; inherit's 8000 reach p99.9.
	 */
	p = find_id(svg, "pct-none");
	t_check(p && count_in(p, strstr(p, "</g>"), "<circle") == 3);
	p = find_id(svg, "pct-inherit");
	t_check(p && count_in(p, strstr(p, "</g>"), "<circle") == 4);
	free(svg), free(out), free(err);

	/* another metric, only in some configurations */
	rc = run(&out, &err, "-m", "wakeup_ns", "--title", "T & <t>",
		 t_tmp("a0.json"), "-o", t_tmp("w.svg"), NULL);
	t_check_int(rc, 0);
	svg = t_read_file(t_tmp("w.svg"));
	check_svg(svg, "w.svg");
	t_check(find_id(svg, "hist-inherit") != NULL);
	t_check(find_id(svg, "hist-a_b__c_") == NULL);
	t_check_contains(svg, "<title>T &amp; &lt;t&gt;</title>");
	free(svg), free(out), free(err);

	/* to stdout, SVG */
	rc = run(&out, &err, "-m", "blocked_ns", t_tmp("a0.json"), NULL);
	t_check_int(rc, 0);
	check_svg(out, "stdout");
	free(out), free(err);
}

/* pi-classic's story needs both histograms: both are drawn by default */
static void test_default_metrics(void)
{
	char *out = NULL, *err = NULL, *svg;
	int rc;

	rc = run(&out, &err, t_tmp("a0.json"), "-o", t_tmp("both.svg"), NULL);
	t_check_int(rc, 0);
	svg = t_read_file(t_tmp("both.svg"));
	check_svg(svg, "both.svg");
	if (!svg)
		return;
	t_check_contains(svg, "<title>pi-classic: blocked_ns and wakeup_ns "
			      "latency</title>");
	t_check(find_id(svg, "hist-inherit-blocked_ns") != NULL);
	t_check(find_id(svg, "hist-inherit-wakeup_ns") != NULL);
	t_check(find_id(svg, "hist-protect-wakeup_ns") != NULL);
	t_check(find_id(svg, "percentiles-blocked_ns") != NULL);
	t_check(find_id(svg, "percentiles-wakeup_ns") != NULL);
	t_check(find_id(svg, "pct-protect-wakeup_ns") != NULL);
	/* none's 60 samples have no p99: their worst is marked instead */
	t_check_contains(svg, "<g class=\"max\">");
	t_check_contains(svg, ">max 2");
	/* the bound on the wakeup histograms too */
	t_check_int(count_in(svg, NULL, "class=\"bound\""), 6);
	free(svg), free(out), free(err);

	/* a long name is cut to its room, not drawn over its neighbours */
	rc = run(&out, &err, t_tmp("long.json"), "-o", t_tmp("long.svg"), NULL);
	t_check_int(rc, 0);
	svg = t_read_file(t_tmp("long.svg"));
	check_svg(svg, "long.svg");
	t_check_contains(svg, "Zz-a-configuration-name-long");
	t_check_contains(svg, "...<");
	/* z and Z are kept in ids, as every letter */
	t_check(find_id(svg, "hist-Zz-a-configuration-name-long-enough-to-"
			     "run-into-everything-beside-blocked_ns") != NULL);
	free(svg), free(out), free(err);
}

/* one configuration: histogram and percentiles side by side, one row */
static void test_one_configuration(void)
{
	static struct il_hist b, w;
	struct run r = { "inherit", "PASS", "PASS", 2 * MS, 50 * US, &b, &w };
	char *out = NULL, *err = NULL, *svg;
	char h[32] = "";
	uint64_t s = 9;
	int rc;

	t_fill_hist(&b, &s, 2000, 1.5 * MS, 0.1);
	t_fill_hist(&w, &s, 2000, 30.0 * US, 0.3);
	write_result(t_tmp("single.json"), &r, 1);
	rc = run(&out, &err, "-m", "blocked_ns", t_tmp("single.json"), "-o",
		 t_tmp("single.svg"), NULL);
	t_check_int(rc, 0);
	svg = t_read_file(t_tmp("single.svg"));
	check_svg(svg, "single.svg");
	if (!svg)
		return;
	/* a one-decade axis (1ms..10ms) is labelled at 2 and 5 too */
	{
		const char *ax = strstr(svg, "<g class=\"axis x\">"),
			   *end = ax ? strstr(ax, "</g>") : NULL;

		t_check(ax && count_in(ax, end, ">1ms<") == 1 &&
			count_in(ax, end, ">2ms<") == 1 &&
			count_in(ax, end, ">5ms<") == 1 &&
			count_in(ax, end, ">10ms<") == 1);
	}
	/* one row of panels: the page is no taller than one of them */
	t_check_int(t_svg_attr(strstr(svg, "<svg "), "height", h, sizeof(h)),
		    0);
	t_check(atof(h) > 300 && atof(h) < 500);
	t_check(find_id(svg, "percentiles") != NULL);
	free(svg), free(out), free(err);

	/* and against a candidate: three panels abreast */
	rc = run(&out, &err, "-m", "blocked_ns", "-o", t_tmp("single2.svg"),
		 t_tmp("single.json"), "--", t_tmp("single.json"), NULL);
	t_check_int(rc, 0);
	svg = t_read_file(t_tmp("single2.svg"));
	check_svg(svg, "single2.svg");
	t_check(find_id(svg, "comparison") != NULL);
	/* the sides' bounds agree: drawn once, not twice on one another */
	t_check_int(count_in(svg, NULL, "class=\"bound\""), 1);
	t_check_contains(svg, ">bound 2.00ms<");
	free(svg), free(out), free(err);
}

static void test_two_sets(void)
{
	char *out = NULL, *err = NULL, *svg;
	size_t checked = 0;
	int rc;

	rc = run(&out, &err, "-m", "blocked_ns", "-o", t_tmp("two.svg"),
		 t_tmp("a0.json"), t_tmp("a1.json"), "--", t_tmp("b0.json"),
		 NULL);
	t_check_int(rc, 0);
	svg = t_read_file(t_tmp("two.svg"));
	check_svg(svg, "two.svg");
	if (!svg)
		return;
	t_check_contains(svg, "candidate vs baseline");
	t_check_contains(svg, "baseline: kernel 6.18.0-test");
	t_check_contains(svg, "candidate: kernel 6.19.0-test");
	for (int i = 0; i < 3; i++) {
		static const char *const c[] = { "none", "inherit", "protect" };
		char id[64];

		snprintf(id, sizeof(id), "hist-%s-base", c[i]);
		t_check(find_id(svg, id) != NULL);
		snprintf(id, sizeof(id), "hist-%s-cand", c[i]);
		t_check(find_id(svg, id) != NULL);
		snprintf(id, sizeof(id), "pct-%s-base", c[i]);
		t_check(find_id(svg, id) != NULL);
		snprintf(id, sizeof(id), "pct-%s-cand", c[i]);
		t_check(find_id(svg, id) != NULL);
		snprintf(id, sizeof(id), "ratio-%s", c[i]);
		t_check(find_id(svg, id) != NULL);
	}
	t_check(find_id(svg, "comparison") != NULL);
	t_check_contains(svg, "data-side=\"baseline\"");
	t_check_contains(svg, "data-side=\"candidate\"");
	t_check_contains(svg, ">candidate / baseline (log)<");
	/* the candidate is 1.5 times slower: the ratio axis reaches 2 */
	t_check_contains(svg, ">2<");
	/*
	 * The legends: the percentile plot names each curve with its side
	 * (baseline dashed, candidate solid, both in the configuration's
	 * colour), the histograms each side's bars, the ratio plot its
	 * curves; t_svg_legend_mismatches compared each with its series.
	 */
	t_svg_legend_mismatches(svg, &checked);
	/* 4 x 2 percentile curves, 4 x 2 histogram sides, 4 ratio curves */
	t_check_int((int)checked, 20);
	t_check_contains(svg, "data-series=\"pct-inherit-base\"");
	/* the baseline's curve dashed, the candidate's solid */
	{
		const char *b = find_id(svg, "pct-inherit-base"),
			   *c = find_id(svg, "pct-inherit-cand"), *d;

		t_check(b && (d = strstr(b, "stroke-dasharray")) &&
			d < strstr(b, "</g>"));
		t_check(c && (!(d = strstr(c, "stroke-dasharray")) ||
			      d > strstr(c, "</g>")));
	}
	t_check_contains(svg, ">inherit, baseline<");
	t_check_contains(svg, "stroke-dasharray");
	/* each side's bound, from its own checks, named by side */
	t_check_contains(svg, ">bound (base) 2.10ms<");
	t_check_contains(svg, ">bound (cand) 3.15ms<");
	t_check_int(count_in(svg, NULL, "class=\"bound\""), 6);
	t_check_contains(svg, "data-verdict=\"FAIL (expected) \xe2\x86\x92 "
			      "FAIL (expected)\"");
	free(svg), free(out), free(err);

	/* narrow: two panels a row, still apart and legible */
	rc = run(&out, &err, "--width", "800", "-o", t_tmp("narrow.svg"),
		 t_tmp("a0.json"), "--", t_tmp("b0.json"), NULL);
	t_check_int(rc, 0);
	svg = t_read_file(t_tmp("narrow.svg"));
	check_svg(svg, "narrow.svg");
	free(svg), free(out), free(err);

	/* the default, two histograms a side, passes the same checks */
	rc = run(&out, &err, "-o", t_tmp("two2.svg"), t_tmp("a0.json"), "--",
		 t_tmp("b0.json"), NULL);
	t_check_int(rc, 0);
	svg = t_read_file(t_tmp("two2.svg"));
	check_svg(svg, "two2.svg");
	t_check(find_id(svg, "comparison-wakeup_ns") != NULL);
	free(svg), free(out), free(err);
}

/* the 8 bytes of a PNG signature, then IHDR's width and height */
static void check_png(const char *path, unsigned want_w, unsigned want_h)
{
	unsigned char b[24];
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(b, 1, sizeof(b), f) : 0;
	unsigned w, h;

	if (f)
		fclose(f);
	t_check_int((int)n, 24);
	if (n != 24)
		return;
	t_check(!memcmp(b, "\x89PNG\r\n\x1a\n", 8));
	t_check(!memcmp(b + 12, "IHDR", 4));
	w = (unsigned)b[16] << 24 | (unsigned)b[17] << 16 |
	    (unsigned)b[18] << 8 | b[19];
	h = (unsigned)b[20] << 24 | (unsigned)b[21] << 16 |
	    (unsigned)b[22] << 8 | b[23];
	t_check_int((int)w, (int)want_w);
	t_check_int((int)h, (int)want_h);
}

static void test_formats(void)
{
	char *out = NULL, *err = NULL, *svg, h[32] = "0";
	struct stat st;
	int rc;

	/* the SVG's size, for the PNG's */
	t_check_int(
		run(&out, &err, t_tmp("a0.json"), "-o", t_tmp("f.svg"), NULL),
		0);
	free(out), free(err);
	svg = t_read_file(t_tmp("f.svg"));
	if (svg)
		t_svg_attr(strstr(svg, "<svg "), "height", h, sizeof(h));
	free(svg);
	if (have_cairo) {
		char *pdf;

		rc = run(&out, &err, t_tmp("a0.json"), "-o", t_tmp("f.png"),
			 NULL);
		t_check_int(rc, 0);
		check_png(t_tmp("f.png"), 1280, (unsigned)atoi(h));
		free(out), free(err);
		/* --format for a name without an extension; another width */
		rc = run(&out, &err, "--width", "1000", t_tmp("a0.json"), "-o",
			 t_tmp("f1000.svg"), NULL);
		t_check_int(rc, 0);
		free(out), free(err);
		svg = t_read_file(t_tmp("f1000.svg"));
		check_svg(svg, "f1000.svg");
		if (svg)
			t_svg_attr(strstr(svg, "<svg "), "height", h,
				   sizeof(h));
		free(svg);
		rc = run(&out, &err, "--format", "png", "--width", "1000",
			 t_tmp("a0.json"), "-o", t_tmp("f-png"), NULL);
		t_check_int(rc, 0);
		check_png(t_tmp("f-png"), 1000, (unsigned)atoi(h));
		free(out), free(err);
		rc = run(&out, &err, t_tmp("a0.json"), "-o", t_tmp("f.pdf"),
			 NULL);
		t_check_int(rc, 0);
		pdf = t_read_file(t_tmp("f.pdf"));
		t_check(pdf && !strncmp(pdf, "%PDF-", 5));
		free(pdf), free(out), free(err);
		/* PNG on stdout */
		rc = run(&out, &err, "-f", "png", t_tmp("a0.json"), NULL);
		t_check_int(rc, 0);
		t_check(out && !strncmp(out, "\x89PNG", 4));
		free(out), free(err);
	}
	/* a build without cairo refuses PNG and PDF by name, writes nothing */
	rc = run_svg_only(&out, &err, t_tmp("a0.json"), "-o", t_tmp("n.png"),
			  NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "PNG output needs cairo");
	t_check_contains(err, "meson feature 'cairo'");
	t_check(stat(t_tmp("n.png"), &st) != 0);
	free(out), free(err);
	rc = run_svg_only(&out, &err, "--format", "pdf", t_tmp("a0.json"),
			  NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "PDF output needs cairo");
	t_check(out && !*out);
	free(out), free(err);
	/* and still writes SVG */
	rc = run_svg_only(&out, &err, t_tmp("a0.json"), "-o", t_tmp("n.svg"),
			  NULL);
	t_check_int(rc, 0);
	t_check(stat(t_tmp("n.svg"), &st) == 0 && st.st_size > 1000);
	free(out), free(err);
	/* an extension that is no format, without --format: refused */
	rc = run(&out, &err, t_tmp("a0.json"), "-o", t_tmp("x.gif"), NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "name it .svg, .png or .pdf, or give --format");
	t_check(stat(t_tmp("x.gif"), &st) != 0);
	free(out), free(err);
	rc = run(&out, &err, t_tmp("a0.json"), "-o", t_tmp("x"), NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "no extension");
	free(out), free(err);
	rc = run(&out, &err, "--format", "gif", t_tmp("a0.json"), NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "--format: 'gif' is not a format");
	free(out), free(err);
	/* a name and a --format that disagree */
	rc = run(&out, &err, "--format", "svg", t_tmp("a0.json"), "-o",
		 t_tmp("x.png"), NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "names png, but --format is svg");
	free(out), free(err);
	/* an extension is read whatever its case */
	rc = run(&out, &err, t_tmp("a0.json"), "-o", t_tmp("x.SVG"), NULL);
	t_check_int(rc, 0);
	free(out), free(err);
}

static void test_errors(void)
{
	char *out = NULL, *err = NULL;
	int rc;

	rc = run(&out, &err, "-m", "nope_ns", t_tmp("a0.json"), "-o",
		 t_tmp("x.svg"), NULL);
	t_check_int(rc, 77);
	t_check_contains(err, "no histogram 'nope_ns'");
	free(out), free(err);
	rc = run(&out, &err, "-m", "a_ns,b_ns,c_ns,d_ns,e_ns", t_tmp("a0.json"),
		 NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "at most 4");
	free(out), free(err);
	rc = run(&out, &err, NULL);
	t_check_int(rc, 2);
	free(out), free(err);
	rc = run(&out, &err, "--bins-per-decade", "1", t_tmp("a0.json"), NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "--bins-per-decade");
	free(out), free(err);
	rc = run(&out, &err, "--width", "10", t_tmp("a0.json"), NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "--width");
	free(out), free(err);
	rc = run(&out, &err, t_tmp("a0.json"), "--", t_tmp("b0.json"), "-o",
		 t_tmp("x.svg"), NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "options go before '--'");
	free(out), free(err);
	/* a missing input is an input error, as in every program */
	rc = run(&out, &err, t_tmp("absent.json"), NULL);
	t_check_int(rc, 2);
	free(out), free(err);
	/*
	 * An existing device is written in place, not renamed over: the
	 * symlink to /dev/null must survive (if it did not, it is the link
	 * that is replaced, never /dev/null itself).
	 */
	{
		struct stat st;

		t_check_int(symlink("/dev/null", t_tmp("null")), 0);
		rc = run(&out, &err, "-f", "svg", "-o", t_tmp("null"),
			 t_tmp("a0.json"), NULL);
		t_check_int(rc, 0);
		t_check(lstat(t_tmp("null"), &st) == 0 && S_ISLNK(st.st_mode));
		free(out), free(err);
	}
	/* an output that cannot be created: refused before any work (2) */
	rc = run(&out, &err, t_tmp("a0.json"), "-o", "/nonexistent/dir/x.svg",
		 NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "cannot create");
	free(out), free(err);
}

/* strings from a result reach the SVG escaped, and the SVG stays XML */
static void test_untrusted(void)
{
	static struct il_hist h;
	struct il_sysinfo hs = si, keep = si;
	struct run r = {
		"in\x1b]0;x\x07\r\n<b>", "PASS", "PASS", MS, 0, &h, NULL
	};
	char *out = NULL, *err = NULL;
	uint64_t seed = 5;
	int rc;

	snprintf(hs.release, sizeof(hs.release), "6.18\x1b[2J");
	t_fill_hist(&h, &seed, 200, 1.0 * MS, 0.1);
	si = hs;
	write_result(t_tmp("evil.json"), &r, 1);
	si = keep;
	rc = run(&out, &err, "-o", "-", t_tmp("evil.json"), NULL);
	t_check_int(rc, 0);
	check_svg(out, "evil.svg");
	t_check_printable("svg", out);
	t_check_contains(out, "in\\x1b]0;x\\x07\\x0d\\x0a&lt;b&gt;");
	t_check_contains(out, "6.18\\x1b[2J");
	free(out), free(err);
	/* checks of the wrong types are no bound, and no crash */
	{
		struct run rb = { "inherit", "PASS", "PASS", 1234567,
				  1,	     &h,     NULL };
		char *j, *at;

		write_result(t_tmp("badck.json"), &rb, 1);
		j = t_read_file(t_tmp("badck.json"));
		at = j ? strstr(j, "\"bound_ns\":1234567") : NULL;
		t_check(at != NULL);
		if (at) {
			/* the number becomes a string of the same length */
			static const char str[] = "\"bound_ns\":\"12345\"";

			memcpy(at, str, sizeof(str) - 1);
			t_check_int(t_write_text(t_tmp("badck.json"), j), 0);
		}
		free(j);
		rc = run(&out, &err, t_tmp("badck.json"), NULL);
		t_check_int(rc, 0);
		t_check(out && !strstr(out, "class=\"bound\""));
		t_check_contains(out, "data-verdict=\"PASS\"");
		free(out), free(err);
	}
	rc = run(&out, &err, "/dev/zero", NULL);
	t_check_int(rc, 99);
	t_check_contains(err, "not a regular file");
	free(out), free(err);
}

/* ---- the chart of estimates (plot-sweep.c) ---------------------------- */

/*
 * Three sides over a sweep of cs_ns, its files written in the order
 * 16, 2, 8, 4 us (so that the text order is not the numeric one): six
 * runs a value of inherit, blocked around cs x scale of the side.
 */
static const uint64_t sweep_cs[] = { 16 * US, 2 * US, 8 * US, 4 * US };
static const double sweep_scale[] = { 1.0, 1.5, 0.8 };

static void write_sweep(void)
{
	static struct il_hist h[6];
	uint64_t seed = 7;

	for (int k = 0; k < 3; k++)
		for (int v = 0; v < 4; v++) {
			struct t_run r[6];
			char name[64];

			for (int i = 0; i < 6; i++) {
				/* runs 1 % apart: a spread for the CI */
				t_fill_hist(&h[i], &seed, 400,
					    (double)sweep_cs[v] *
						    sweep_scale[k] *
						    (1 + 0.01 * (i - 2.5)),
					    0.05);
				r[i] = (struct t_run){
					.configuration = "inherit",
					.nhists = 1,
					.hists = { { "blocked_ns", &h[i] } },
				};
			}
			snprintf(name, sizeof(name), "sw%d-%d.json", k, v);
			t_check_int(t_write_result(t_tmp(name), "pi-classic",
						   &si, sweep_cs[v], r, 6),
				    0);
		}
}

/* the values of attribute name of every element of class cls in p..end */
static size_t attrs_of(const char *p, const char *end, const char *cls,
		       const char *name, char v[][48], size_t max)
{
	char want[64];
	size_t n = 0;

	snprintf(want, sizeof(want), "class=\"%s\"", cls);
	for (const char *c = strstr(p, want); c && c < end && n < max;
	     c = strstr(c + 1, want)) {
		const char *g = c;

		while (g > p && *g != '<')
			g--;
		if (!t_svg_attr(g, name, v[n], sizeof(v[n])))
			n++;
	}
	return n;
}

static void test_sweep(void)
{
	char *out = NULL, *err = NULL, *svg;
	char f[3][4][64];
	char *argv[40];
	int n = 0, rc;

	write_sweep();
	argv[n++] = (char *)tool;
	argv[n++] = "-o";
	argv[n++] = (char *)t_tmp("sweep.svg");
	argv[n++] = "--by";
	argv[n++] = "cs_ns";
	argv[n++] = "-m";
	argv[n++] = "blocked_ns";
	argv[n++] = "-s";
	argv[n++] = "p50";
	for (int k = 0; k < 3; k++) {
		argv[n++] = "-l";
		argv[n++] = (char *[]){ "tip", "v21", "full" }[k];
	}
	for (int k = 0; k < 3; k++) {
		if (k)
			argv[n++] = "--";
		for (int v = 0; v < 4; v++) {
			char name[32];

			snprintf(name, sizeof(name), "sw%d-%d.json", k, v);
			snprintf(f[k][v], sizeof(f[k][v]), "%s", t_tmp(name));
			argv[n++] = f[k][v];
		}
	}
	argv[n] = NULL;
	rc = t_run_tool(argv, &out, &err);
	t_check_int(rc, 0);
	if (rc)
		printf("# %s", err ? err : "");
	free(out), free(err);
	svg = t_read_file(t_tmp("sweep.svg"));
	check_svg(svg, "sweep.svg");
	if (!svg)
		return;
	/* one panel, a line and a band a side, the sweep on log2 x */
	t_check_int(count_in(svg, NULL, "class=\"panel estimates\""), 1);
	t_check_int(count_in(svg, NULL, "class=\"series\""), 3);
	t_check_int(count_in(svg, NULL, "class=\"band\""), 3);
	t_check_contains(svg, "data-x-scale=\"log2\"");
	t_check_contains(svg, "cs_ns (log2 scale)");
	t_check_contains(svg, "blocked_ns p50 (us, log scale)");
	for (int k = 0; k < 3; k++) {
		static const char *const lab[] = { "tip", "v21", "full" };
		char id[64], want[96], xs[8][48], es[8][48], lo[8][48],
			hi[8][48];
		const char *ser, *end, *band;
		size_t np;

		snprintf(id, sizeof(id), "estimates-0-side%zu", (size_t)k);
		ser = find_id(svg, id);
		snprintf(want, sizeof(want), "band-%s", id);
		band = find_id(svg, want);
		t_check(ser != NULL && band != NULL);
		if (!ser || !band)
			continue;
		/* the band is shaded: a closed polygon, filled, no stroke */
		t_check(strstr(band, "<path") < strstr(band, "</g>"));
		t_check(strstr(band, "Z\"") < strstr(band, "</g>"));
		/* the series: its line first, then its points */
		end = strstr(ser, "class=\"series\"");
		end = end ? end : svg + strlen(svg);
		t_check(strstr(ser, "<path") < strstr(ser, "class=\"point\""));
		np = attrs_of(ser, end, "point", "data-x", xs, 8);
		t_check_int((int)np, 4);
		/* in the sweep's numeric order, not the files' nor text's */
		if (np == 4) {
			t_check_str(xs[0], "2000");
			t_check_str(xs[1], "4000");
			t_check_str(xs[2], "8000");
			t_check_str(xs[3], "16000");
		}
		attrs_of(ser, end, "point", "data-estimate", es, 8);
		attrs_of(ser, end, "point", "data-ci95-lo", lo, 8);
		attrs_of(ser, end, "point", "data-ci95-hi", hi, 8);
		for (size_t i = 0; i < np; i++) {
			double e = strtod(es[i], NULL),
			       want_e = (double)(2000 << i) * sweep_scale[k];

			/* the Median of the runs' p50, within the CI95 */
			t_check(e > want_e * 0.95 && e < want_e * 1.05);
			t_check(strtod(lo[i], NULL) <= e &&
				e <= strtod(hi[i], NULL));
			t_check(strtod(lo[i], NULL) < strtod(hi[i], NULL));
		}
		snprintf(want, sizeof(want), "data-side=\"%s\"", lab[k]);
		t_check(strstr(ser, want) && strstr(ser, want) < ser + 200);
		snprintf(want, sizeof(want), ">%s</text>", lab[k]);
		t_check_contains(svg, want);
	}
	free(svg);

	/* no --by: a dot a side, each with its bar, no line, no band */
	rc = run(&out, &err, "-o", t_tmp("dots.svg"), "-s", "p50", "-m",
		 "blocked_ns", f[0][1], "--", f[1][1], NULL);
	t_check_int(rc, 0);
	free(out), free(err);
	svg = t_read_file(t_tmp("dots.svg"));
	check_svg(svg, "dots.svg");
	if (svg) {
		t_check_int(count_in(svg, NULL, "class=\"series\""), 2);
		t_check_int(count_in(svg, NULL, "class=\"band\""), 0);
		t_check_int(count_in(svg, NULL, "class=\"point\""), 2);
		t_check_contains(svg, "data-x-scale=\"categories\"");
		t_check_contains(svg, ">baseline</text>");
		t_check_contains(svg, ">candidate</text>");
		/*
		 * A bar, its two caps and the mark of the estimate a side,
		 * and its legend's line, in the side's colour
		 */
		t_check_int(count_in(svg, NULL, "stroke=\"#1f77b4\""), 5);
		t_check_int(count_in(svg, NULL, "stroke=\"#d62728\""), 5);
	}
	free(svg);

	/* fewer than 6 runs: no Median interval, and the chart says so */
	rc = run(&out, &err, "-o", t_tmp("few.svg"), "-s", "p50", "-m",
		 "blocked_ns", t_tmp("a0.json"), NULL);
	t_check_int(rc, 0);
	free(out), free(err);
	svg = t_read_file(t_tmp("few.svg"));
	check_svg(svg, "few.svg");
	if (svg) {
		t_check_contains(svg, "no CI: &lt; 6 runs with a p50");
		t_check_contains(svg, "data-ci95-lo=\"nan\"");
		t_check_int(count_in(svg, NULL, "class=\"point\""), 4);
	}
	free(svg);

	{
		/*
		 * Runs of 60 samples have no p99 each, 180 merged have one:
		 * the point is the merged value, as compare shows it
		 */
		static struct il_hist h[3];
		struct t_run r[3];
		uint64_t seed = 11;

		for (int i = 0; i < 3; i++) {
			t_fill_hist(&h[i], &seed, 60, 50.0 * US, 0.1);
			r[i] = (struct t_run){
				.configuration = "inherit",
				.nhists = 1,
				.hists = { { "blocked_ns", &h[i] } },
			};
		}
		t_check_int(t_write_result(t_tmp("short.json"), "pi-classic",
					   &si, 2 * MS, r, 3),
			    0);
		rc = run(&out, &err, "-o", t_tmp("short.svg"), "-s", "p99",
			 t_tmp("short.json"), NULL);
		t_check_int(rc, 0);
		free(out), free(err);
		svg = t_read_file(t_tmp("short.svg"));
		if (svg) {
			t_check_int(count_in(svg, NULL, "class=\"point\""), 1);
			t_check_contains(svg, "data-ci95-lo=\"nan\"");
			t_check_contains(svg, "data-runs=\"0\"");
			t_check(!strstr(svg, "too few samples"));
		}
		free(svg);
		rc = run(&out, &err, "-o", t_tmp("short.svg"), "-s", "p9999",
			 t_tmp("short.json"), NULL);
		t_check_int(rc, 0);
		free(out), free(err);
		svg = t_read_file(t_tmp("short.svg"));
		if (svg)
			t_check_contains(svg, "no p9999: too few samples");
		free(svg);
	}

	if (have_cairo) {
		rc = run(&out, &err, "-o", t_tmp("sweep.png"), "--by", "cs_ns",
			 f[0][0], f[0][1], "--", f[1][0], f[1][1], "--",
			 f[2][0], NULL);
		t_check_int(rc, 0);
		free(out), free(err);
		/* the title, one panel for blocked_ns, the margin */
		check_png(t_tmp("sweep.png"), 1280, 84 + 460 + 24);
	}

	/* the refusals: a label a side, a statistic by name */
	rc = run(&out, &err, "-o", t_tmp("x.svg"), "-l", "a", "--by", "cs_ns",
		 f[0][0], "--", f[1][0], NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "2 sides and 1 label");
	free(out), free(err);
	rc = run(&out, &err, "-o", t_tmp("x.svg"), "-l", "a", "-l", "b",
		 f[0][0], "--", f[1][0], NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "--label names the sides of the chart of");
	free(out), free(err);
	/* a panel a statistic; a wall time's mean only once */
	rc = run(&out, &err, "-o", t_tmp("stats.svg"), "-s", "p50,max", f[0][0],
		 "--", f[1][0], NULL);
	t_check_int(rc, 0);
	free(out), free(err);
	svg = t_read_file(t_tmp("stats.svg"));
	if (svg) {
		t_check_int(count_in(svg, NULL, "class=\"panel estimates\""),
			    2);
		t_check_contains(svg, "data-stat=\"p50\"");
		t_check_contains(svg, "data-stat=\"max\"");
	}
	free(svg);
	rc = run(&out, &err, "-o", t_tmp("x.svg"), "-s", "p50,p50", f[0][0],
		 NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "--stat: 'p50' twice");
	free(out), free(err);
	rc = run(&out, &err, "-o", t_tmp("x.svg"), "-s", "p42", f[0][0], NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "--stat: 'p42'");
	free(out), free(err);
	rc = run(&out, &err, "-o", t_tmp("x.svg"), "--by", "nokey", f[0][0],
		 NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "no 'nokey' for --by");
	free(out), free(err);
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr,
			"usage: %s INVLAB-PLOT MANPAGE SVG-ONLY-PLOT "
			"HAVE-CAIRO\n",
			argv[0]);
		return 99;
	}
	tool = argv[1];
	svg_only = argv[3];
	have_cairo = !strcmp(argv[4], "1");
	t_sysinfo(&si);
	write_set("a0.json", 1, 1.0, false);
	write_set("a1.json", 2, 1.0, false);
	write_set("long.json", 4, 1.0, true);
	snprintf(si.release, sizeof(si.release), "6.19.0-test");
	write_set("b0.json", 3, 1.5, false);
	t_sysinfo(&si);

	test_reader();
	test_one_set();
	test_default_metrics();
	test_one_configuration();
	test_two_sets();
	test_formats();
	test_errors();
	test_untrusted();
	test_sweep();
	t_check_man_page(tool, argv[2]);

	t_tmp_cleanup();
	return t_done("plot");
}
