// SPDX-License-Identifier: MIT
/*
 * invlab-plot --timeline on a fixture result: the worst wait of "none"
 * (high waits 21.6 ms while medium spins, no boost) and of "inherit"
 * (low boosted 1.7 us after the request: their labels would meet on one
 * row), with a foreign task of a long name.
 *
 *   test-timeline build/tools/invlab-plot build/tests/invlab-plot-svgonly 1
 *
 * (the second program is a build without cairo, the third argument 1
 * when the first was built with it).
 * The SVG must be well-formed, have one lane per task and per foreign
 * task, the request, boost (only under inherit), acquisition and the
 * bound's bracket, every text at 16 px or more, and no two text boxes
 * that meet, a box being the font size times the characters wide and
 * the font size high (and none by the charts' estimate, t_svg.h).  With
 * cairo the same timeline is a PNG of the SVG's size and a PDF; a build
 * without it refuses PNG and PDF naming the feature, and writes nothing.
 * A run without a worst wait is exit 77, a malformed one 99, two files
 * 2.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <invlab/report.h>
#include <invlab/time.h>
#include <invlab/trace-export.h>

#include "t_svg.h"
#include "t_tools.h"
#include "t_util.h"

#define US IL_NSEC_PER_USEC
#define MS IL_NSEC_PER_MSEC

static const char *tool, *tool_svg_only;

static int vrun(const char *prog, char **out, char **err, va_list ap)
{
	char *argv[20];
	int n = 0;

	argv[n++] = (char *)prog;
	while (n < 19 && (argv[n] = va_arg(ap, char *)))
		n++;
	argv[n] = NULL;
	return t_run_tool(argv, out, err);
}

static int run_svg_only(char **out, char **err, ...)
{
	va_list ap;
	int rc;

	va_start(ap, err);
	rc = vrun(tool_svg_only, out, err, ap);
	va_end(ap);
	return rc;
}

static int run(char **out, char **err, ...)
{
	char *argv[20];
	va_list ap;
	int n = 0;

	argv[n++] = (char *)tool;
	va_start(ap, err);
	while (n < 19 && (argv[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	return t_run_tool(argv, out, err);
}

static void lane(struct il_timeline *tl, const char *name, int pid, int kprio,
		 const char *role, int higher)
{
	struct il_tl_lane *l = &tl->lanes[tl->nlanes++];

	snprintf(l->name, sizeof(l->name), "%s", name);
	snprintf(l->role, sizeof(l->role), "%s", role);
	l->pid = pid;
	l->kprio = kprio;
	l->higher = higher;
}

static void slice(struct il_timeline *tl, size_t ln, uint64_t a, uint64_t b)
{
	struct il_tl_lane *l = &tl->lanes[ln];

	l->s[l->nslices++] = (struct il_tl_slice){ a, b, b - a, 1 };
	l->ran_ns += b - a;
}

/* high waits from 1 ms to 22.6 ms; low holds the lock from 0.5 ms */
static void make(struct il_timeline *tl, bool inherit)
{
	memset(tl, 0, sizeof(*tl));
	snprintf(tl->waiter, sizeof(tl->waiter), "high");
	snprintf(tl->resource, sizeof(tl->resource), "M");
	snprintf(tl->locker, sizeof(tl->locker), "low");
	tl->t0_ns = 5000 * MS;
	tl->span_ns = inherit ? 4 * MS : 25 * MS;
	tl->release_ns = 1 * MS - 40 * US;
	tl->request_ns = 1 * MS;
	tl->locked_ns = 500 * US;
	tl->bound_ns = 2060 * US;
	tl->noise_ns = 66 * US;
	tl->boost_ns = IL_TL_NONE;
	lane(tl, "high", 101, 69, "waiter", 0);
	lane(tl, "low", 102, 89, "holder", 0);
	lane(tl, "medium", 103, 79, "lower", 0);
	lane(tl, "a-long-comm-nam", 4242, 49, "foreign", 1);
	slice(tl, 0, 960 * US, 1 * MS);
	slice(tl, 1, 300 * US, 960 * US);
	if (inherit) {
		tl->boost_ns = 1 * MS + 1700;
		snprintf(tl->boosted, sizeof(tl->boosted), "low");
		tl->boost_from = 89;
		tl->boost_to = 69;
		/* and a second link, 3 us later: a third label on the rows */
		tl->nboosts = 2;
		tl->boosts[0] =
			(struct il_tl_boost){ tl->boost_ns, "low", 89, 69 };
		tl->boosts[1] =
			(struct il_tl_boost){ 1 * MS + 4700, "medium", 79, 69 };
		tl->acquired_ns = 2600 * US;
		slice(tl, 1, 1 * MS, 2600 * US);
		slice(tl, 0, 2600 * US, 2700 * US);
		slice(tl, 3, 2700 * US, 3500 * US);
	} else {
		tl->acquired_ns = 22600 * US;
		slice(tl, 2, 1 * MS, 21 * MS);
		slice(tl, 1, 21 * MS, 22600 * US);
		slice(tl, 0, 22600 * US, 22700 * US);
	}
	tl->delay_ns = tl->acquired_ns - tl->release_ns;
}

static void write_fixture(const char *path)
{
	struct il_timeline tl;
	struct il_json j;
	FILE *f = fopen(path, "w");
	static const char *const cfg[] = { "none", "inherit", "untraced" };

	t_check(f != NULL);
	if (!f)
		return;
	il_json_init(&j, f);
	il_json_begin_object(&j, NULL);
	il_json_str(&j, "program", "pi-classic");
	il_json_begin_object(&j, "kernel");
	il_json_str(&j, "release", "6.1.0-test");
	il_json_end_object(&j);
	il_json_begin_array(&j, "runs");
	for (int i = 0; i < 3; i++) {
		il_json_begin_object(&j, NULL);
		il_json_str(&j, "configuration", cfg[i]);
		il_json_begin_array(&j, "checks");
		il_json_begin_object(&j, NULL);
		il_json_str(&j, "task", "high");
		il_json_str(&j, "verdict", i ? "PASS" : "FAIL");
		il_json_end_object(&j);
		il_json_end_array(&j);
		if (i < 2) {
			make(&tl, i == 1);
			il_timeline_json(&j, "worst_wait", &tl);
		}
		il_json_end_object(&j);
	}
	il_json_end_array(&j);
	il_json_end_object(&j);
	fputc('\n', f);
	t_check_int(il_json_error(&j), 0);
	fclose(f);
}

struct tbox {
	double x0, y0, x1, y1;
	char s[80];
};

static double attr(const char *tag, const char *name)
{
	char key[32];
	const char *p;

	snprintf(key, sizeof(key), " %s=\"", name);
	p = strstr(tag, key);
	return p ? atof(p + strlen(key)) : -1;
}

/* every <text>: its box as laid out (size x chars by size) */
static size_t text_boxes(const char *svg, struct tbox *b, size_t cap)
{
	size_t n = 0;

	for (const char *p = svg; (p = strstr(p, "<text ")) && n < cap;) {
		const char *gt = strchr(p, '>'), *end = strstr(p, "</text>");
		char tag[512], anchor[16] = "start";
		double x, y, size, w;
		size_t chars = 0, k = 0;
		const char *a;

		if (!gt || !end)
			break;
		snprintf(tag, sizeof(tag), "%.*s", (int)(gt - p), p);
		x = attr(tag, "x");
		y = attr(tag, "y");
		size = attr(tag, "font-size");
		a = strstr(tag, "text-anchor=\"");
		if (a)
			sscanf(a + 13, "%15[^\"]", anchor);
		for (const char *c = gt + 1; c < end; c++) {
			if (*c == '&')
				c = strchr(c, ';');
			if (k + 1 < sizeof(b[n].s))
				b[n].s[k++] = *c == ';' ? '?' : *c;
			chars++;
		}
		b[n].s[k] = '\0';
		t_check(size >= 16);
		w = size * (double)chars;
		b[n].x0 = !strcmp(anchor, "middle") ? x - w / 2
			  : !strcmp(anchor, "end")  ? x - w
						    : x;
		b[n].x1 = b[n].x0 + w;
		b[n].y0 = y - size;
		b[n].y1 = y;
		n++;
		p = end;
	}
	return n;
}

static void check_svg(const char *svg, bool inherit)
{
	struct tbox b[200];
	size_t n, meet = 0;
	char err[256];

	t_check(svg != NULL);
	if (!svg)
		return;
	t_check_int(t_xml_check(svg, err, sizeof(err)), 0);
	/* a lane per task and per foreign task */
	t_check_int(t_count(svg, "<g class=\"lane\""), 4);
	t_check_int(t_count(svg, "data-role=\"foreign\""), 1);
	t_check_contains(svg, ">a-long-comm-nam 4242<");
	t_check_contains(svg, ">FIFO 50, interference<");
	t_check_contains(svg, ">FIFO 10, holder<");
	/* the moments and the brackets */
	t_check_int(t_count(svg, "<g class=\"marker request\""), 1);
	t_check_int(t_count(svg, "<g class=\"marker acquired\""), 1);
	t_check_int(t_count(svg, "<g class=\"marker boost\""), 2 * inherit);
	t_check_int(t_count(svg, "<g class=\"bound\""), 1);
	t_check_int(t_count(svg, "<g class=\"blocked\""), 1);
	t_check_contains(svg, "bound 2.06ms + 66.0us noise");
	t_check_contains(svg, inherit ? ">high blocked 1.60ms<"
				      : ">high blocked 21.6ms<");
	if (inherit) {
		t_check_contains(svg, ">low boosted 10-&gt;30<");
		t_check_contains(svg, ">medium boosted 20-&gt;30<");
	}
	t_check_contains(svg, inherit ? "(PASS)" : "(FAIL)");
	/* no two text boxes meet */
	n = text_boxes(svg, b, sizeof(b) / sizeof(b[0]));
	t_check(n >= 15);
	for (size_t i = 0; i < n; i++)
		for (size_t k = i + 1; k < n; k++)
			if (b[i].x0 < b[k].x1 && b[k].x0 < b[i].x1 &&
			    b[i].y0 < b[k].y1 && b[k].y0 < b[i].y1) {
				fprintf(stderr, "text boxes meet: '%s' '%s'\n",
					b[i].s, b[k].s);
				meet++;
			}
	t_check_int(meet, 0);
	/* nor by the charts' own estimate of the drawn text */
	{
		size_t nt = 0;
		struct t_text *t = t_svg_texts(svg, &nt);

		t_check(t != NULL && nt == n);
		if (t) {
			t_check_int((int)t_svg_overlaps(t, nt), 0);
			t_check(t_svg_min_font(t, nt) >= 16);
		}
		free(t);
	}
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

/* the timeline in the other formats, or their refusal without cairo */
static void test_formats(const char *res, const char *svg_path, bool have_cairo)
{
	char *out = NULL, *err = NULL, *svg, w[32] = "0", h[32] = "0";
	struct stat st;

	/* the SVG of the same run, for the PNG's size */
	t_check_int(run(NULL, NULL, "--timeline", res, "-o", svg_path, NULL),
		    0);
	svg = t_read_file(svg_path);
	if (svg && strstr(svg, "<svg ")) {
		t_svg_attr(strstr(svg, "<svg "), "width", w, sizeof(w));
		t_svg_attr(strstr(svg, "<svg "), "height", h, sizeof(h));
	}
	free(svg);
	t_check_int(atoi(w), 1200);
	if (have_cairo) {
		char *pdf;

		t_check_int(run(NULL, NULL, "--timeline", res, "-o",
				t_tmp("tl.png"), NULL),
			    0);
		check_png(t_tmp("tl.png"), (unsigned)atoi(w),
			  (unsigned)atoi(h));
		t_check_int(run(NULL, NULL, "--timeline", res, "-o",
				t_tmp("tl.pdf"), NULL),
			    0);
		pdf = t_read_file(t_tmp("tl.pdf"));
		t_check(pdf && !strncmp(pdf, "%PDF-", 5));
		free(pdf);
		/* --format for a name without the extension; and stdout */
		t_check_int(run(NULL, NULL, "--timeline", "--format", "png",
				res, "-o", t_tmp("tl-png"), NULL),
			    0);
		check_png(t_tmp("tl-png"), (unsigned)atoi(w),
			  (unsigned)atoi(h));
		t_check_int(
			run(&out, NULL, "--timeline", "-f", "pdf", res, NULL),
			0);
		t_check(out && !strncmp(out, "%PDF-", 5));
		free(out);
		out = NULL;
	}
	/* a build without cairo: refused by name, nothing written */
	t_check_int(run_svg_only(&out, &err, "--timeline", res, "-o",
				 t_tmp("n.png"), NULL),
		    2);
	t_check_contains(err, "PNG output needs cairo");
	t_check_contains(err, "meson feature 'cairo'");
	t_check(stat(t_tmp("n.png"), &st) != 0);
	free(out), free(err);
	t_check_int(run_svg_only(&out, &err, "--timeline", "--format", "pdf",
				 res, NULL),
		    2);
	t_check_contains(err, "PDF output needs cairo");
	t_check(out && !*out);
	free(out), free(err);
	/* and it still draws the SVG */
	t_check_int(run_svg_only(NULL, NULL, "--timeline", res, "-o",
				 t_tmp("n.svg"), NULL),
		    0);
	t_check(stat(t_tmp("n.svg"), &st) == 0 && st.st_size > 1000);
	/* an extension that is no format */
	t_check_int(
		run(NULL, &err, "--timeline", res, "-o", t_tmp("tl.gif"), NULL),
		2);
	t_check_contains(err, "name it .svg, .png or .pdf");
	free(err);
}

int main(int argc, char **argv)
{
	const char *res = t_tmp("result.json");
	const char *svg = t_tmp("tl.svg");
	char *out = NULL, *err = NULL, *text;

	if (argc < 4) {
		fprintf(stderr,
			"usage: %s INVLAB-PLOT INVLAB-PLOT-SVGONLY 0|1\n",
			argv[0]);
		return 99;
	}
	tool = argv[1];
	tool_svg_only = argv[2];
	write_fixture(res);

	/* the first traced run by default: none */
	t_check_int(run(NULL, &err, "--timeline", res, "-o", svg, NULL), 0);
	free(err);
	text = t_read_file(svg);
	check_svg(text, false);
	free(text);
	t_check_int(run(NULL, NULL, "--timeline", res, "-c", "inherit", "-o",
			svg, NULL),
		    0);
	text = t_read_file(svg);
	check_svg(text, true);
	free(text);
	test_formats(res, svg, !strcmp(argv[3], "1"));

	/* a run that was not traced, two files, a malformed member */
	t_check_int(run(NULL, &err, "--timeline", res, "-c", "untraced", "-o",
			svg, NULL),
		    77);
	t_check_contains(err, "no run 'untraced' has a worst wait");
	free(err);
	t_check_int(run(NULL, NULL, "--timeline", res, res, "-o", svg, NULL),
		    2);
	t_check_int(t_write_text(t_tmp("bad.json"),
				 "{\"runs\": [{\"configuration\": \"x\", "
				 "\"worst_wait\": {\"span_ns\": 10, "
				 "\"release_ns\": 0, \"request_ns\": 1, "
				 "\"acquired_ns\": 50, \"lanes\": []}}]}\n"),
		    0);
	t_check_int(run(NULL, &err, "--timeline", t_tmp("bad.json"), "-o", svg,
			NULL),
		    99);
	t_check_contains(err, "malformed worst_wait");
	free(err);
	free(out);
	t_tmp_cleanup();
	return t_done("timeline");
}
