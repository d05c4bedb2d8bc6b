// SPDX-License-Identifier: MIT
/*
 * invlab-plot: the SVG is well-formed XML and has the expected series.
 *
 *   test-plot build/tools/invlab-plot docs/man/invlab-plot.1
 *
 * Synthetic results with three configurations (one of them named with
 * every character XML must escape) are drawn alone and against a
 * candidate; the chart must parse with the XML checker of t_tools.c,
 * carry the kernel release in its title, and hold one histogram and one
 * percentile series per configuration (and per side, and a ratio series,
 * when there are two sides), found by their ids.  A curve must stop
 * where its samples do.  The look itself is checked by eye (see
 * docs/results-tools.md for the headless-browser command).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <invlab/hist.h>
#include <invlab/sysinfo.h>
#include <invlab/time.h>

#include "t_tools.h"
#include "t_util.h"

#define US IL_NSEC_PER_USEC
#define MS IL_NSEC_PER_MSEC

static const char *tool;
static struct il_sysinfo si;

static int run(char **out, char **err, ...)
{
	char *argv[40];
	va_list ap;
	int n = 0;

	argv[n++] = (char *)tool;
	va_start(ap, err);
	while (n < 39 && (argv[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	return t_run_tool(argv, out, err);
}

static void write_set(const char *name, uint64_t seed, double scale)
{
	static struct il_hist nb, ib, iw, pb, xb;
	struct t_run runs[4] = {
		{ "none", "FAIL", "FAIL", 1, { { "blocked_ns", &nb } } },
		{ "inherit",
		  NULL,
		  NULL,
		  2,
		  { { "blocked_ns", &ib }, { "wakeup_ns", &iw } } },
		{ "protect", NULL, NULL, 1, { { "blocked_ns", &pb } } },
		{ "a<b&\"c\"", NULL, NULL, 1, { { "blocked_ns", &xb } } },
	};
	uint64_t s = seed;

	t_fill_hist(&nb, &s, 60, 21.0 * MS * scale, 0.02);
	t_fill_hist(&ib, &s, 3000, 1.5 * MS * scale, 0.1);
	t_fill_hist(&iw, &s, 3000, 20.0 * US * scale, 0.3);
	t_fill_hist(&pb, &s, 3000, 3.0 * US * scale, 0.5);
	t_fill_hist(&xb, &s, 500, 100.0 * US * scale, 0.5);
	t_check_int(
		t_write_result(t_tmp(name), "pi-classic", &si, 2 * MS, runs, 4),
		0);
}

/* the text of the element with this id, up to its end tag */
static const char *find_id(const char *svg, const char *id)
{
	char want[128];

	snprintf(want, sizeof(want), "id=\"%s\"", id);
	return strstr(svg, want);
}

static void check_svg(const char *svg, const char *what)
{
	char msg[256];
	int rc = t_xml_check(svg, msg, sizeof(msg));

	t_check_int(rc, 0);
	if (rc)
		fprintf(stderr, "  %s: %s\n", what, msg);
	t_check_contains(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\"");
	t_check_contains(svg, "viewBox=\"0 0 ");
	/* no script, no external reference: standalone */
	t_check(!strstr(svg, "<script") && !strstr(svg, "href="));
}

static void test_one_set(void)
{
	char *out = NULL, *err = NULL, *svg;
	const char *p;
	int rc;

	rc = run(&out, &err, t_tmp("a0.json"), t_tmp("a1.json"), "-o",
		 t_tmp("one.svg"), NULL);
	t_check_int(rc, 0);
	svg = t_read_file(t_tmp("one.svg"));
	t_check(svg != NULL);
	if (!svg)
		return;
	check_svg(svg, "one.svg");
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
	t_check_contains(svg,
			 ">a&lt;b&amp;&quot;c&quot;: 1000 samples, 2 runs<");
	/* merged: 2 x 3000 samples of inherit */
	t_check_contains(svg, ">inherit: 6000 samples, 2 runs<");
	/* axes with units */
	t_check_contains(svg, ">1ms<");
	t_check_contains(svg, ">10us<");
	t_check_contains(svg, ">p99.9<");
	t_check_contains(svg, ">blocked_ns (log scale)<");
	t_check_contains(svg, ">samples per bar (log)<");
	/*
	 * none has 120 samples: its curve reaches p99 (dots at p50, p90,
	 * p99) and stops before p99.9; inherit's 6000 reach p99.9.
	 */
	p = find_id(svg, "pct-none");
	if (p) {
		const char *end = strstr(p, "</g>");
		int dots = 0;

		for (const char *c = strstr(p, "<circle"); c && c < end;
		     c = strstr(c + 1, "<circle"))
			dots++;
		t_check_int(dots, 3);
	}
	p = find_id(svg, "pct-inherit");
	if (p) {
		const char *end = strstr(p, "</g>");
		int dots = 0;

		for (const char *c = strstr(p, "<circle"); c && c < end;
		     c = strstr(c + 1, "<circle"))
			dots++;
		t_check_int(dots, 4);
	}
	free(svg), free(out), free(err);

	/* another metric, only in some configurations */
	rc = run(&out, &err, "-m", "wakeup_ns", "--title", "T & <t>",
		 t_tmp("a0.json"), "-o", t_tmp("w.svg"), NULL);
	t_check_int(rc, 0);
	svg = t_read_file(t_tmp("w.svg"));
	check_svg(svg, "w.svg");
	t_check(find_id(svg, "hist-inherit") != NULL);
	t_check(find_id(svg, "hist-none") == NULL);
	t_check_contains(svg, "<title>T &amp; &lt;t&gt;</title>");
	free(svg), free(out), free(err);

	/* to stdout */
	rc = run(&out, &err, t_tmp("a0.json"), NULL);
	t_check_int(rc, 0);
	check_svg(out, "stdout");
	free(out), free(err);
}

static void test_two_sets(void)
{
	char *out = NULL, *err = NULL, *svg;
	int rc;

	rc = run(&out, &err, "-o", t_tmp("two.svg"), t_tmp("a0.json"),
		 t_tmp("a1.json"), "--", t_tmp("b0.json"), NULL);
	t_check_int(rc, 0);
	svg = t_read_file(t_tmp("two.svg"));
	t_check(svg != NULL);
	if (!svg)
		return;
	check_svg(svg, "two.svg");
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
	free(svg), free(out), free(err);
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
	rc = run(&out, &err, NULL);
	t_check_int(rc, 2);
	free(out), free(err);
	rc = run(&out, &err, "--bins-per-decade", "1", t_tmp("a0.json"), NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "--bins-per-decade");
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
		rc = run(&out, &err, "-o", t_tmp("null"), t_tmp("a0.json"),
			 NULL);
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
	struct il_sysinfo hs = si;
	struct t_run r = {
		"in\x1b]0;x\x07\r\n<b>", NULL, NULL, 1, { { "blocked_ns", &h } }
	};
	char *out = NULL, *err = NULL;
	uint64_t seed = 5;
	int rc;

	snprintf(hs.release, sizeof(hs.release), "6.18\x1b[2J");
	t_fill_hist(&h, &seed, 200, 1.0 * MS, 0.1);
	t_check_int(t_write_result(t_tmp("evil.json"), "pi-classic", &hs,
				   2 * MS, &r, 1),
		    0);
	rc = run(&out, &err, "-o", "-", t_tmp("evil.json"), NULL);
	t_check_int(rc, 0);
	check_svg(out, "evil.svg");
	t_check_printable("svg", out);
	t_check_contains(out, "in\\x1b]0;x\\x07\\x0d\\x0a&lt;b&gt;");
	t_check_contains(out, "6.18\\x1b[2J");
	free(out), free(err);
	rc = run(&out, &err, "/dev/zero", NULL);
	t_check_int(rc, 99);
	t_check_contains(err, "not a regular file");
	free(out), free(err);
}

int main(int argc, char **argv)
{
	struct il_sysinfo other;

	if (argc < 3) {
		fprintf(stderr, "usage: %s INVLAB-PLOT MANPAGE\n", argv[0]);
		return 99;
	}
	tool = argv[1];
	t_sysinfo(&si);
	write_set("a0.json", 1, 1.0);
	write_set("a1.json", 2, 1.0);
	other = si;
	snprintf(other.release, sizeof(other.release), "6.19.0-test");
	si = other;
	write_set("b0.json", 3, 1.5);
	t_sysinfo(&si);

	test_one_set();
	test_two_sets();
	test_errors();
	test_untrusted();
	t_check_man_page(tool, argv[2]);

	t_tmp_cleanup();
	return t_done("plot");
}
