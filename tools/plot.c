// SPDX-License-Identifier: MIT
/*
 * invlab-plot: results as a chart, in SVG, PNG or PDF.
 *
 *   invlab-plot results.json -o chart.svg
 *   invlab-plot results.json -o chart.png          (needs cairo)
 *   invlab-plot -m wakeup_ns base-*.json -- cand-*.json -o compare.pdf
 *   invlab-plot --by groups -l tip -l v21 -l full \
 *       tip-*.json -- v21-*.json -- full-*.json -o sweep.svg
 *
 * The charts are laid out in plot-charts.c (what is drawn: see there),
 * into a scene (plot-scene.h) that plot-scene.c writes as SVG and
 * plot-cairo.c as PNG or PDF; the series and their bounds come from
 * plot-data.c.  With --by, --stat or three sides or more, the chart is
 * instead the estimates of every side (plot-sweep.c), the picture of an
 * N-way invlab-compare.  This file is the command line.
 *
 * The format is the output's extension (.svg, .png, .pdf) or --format;
 * a name with another extension and no --format, or a format this build
 * cannot write (PNG and PDF need the meson feature cairo), is refused
 * before anything is read: never an SVG under a .png name.
 *
 * Exit: 0 chart written, 2 bad usage (also: a format this build cannot
 * write), 77 no such histogram in the results, 99 a result file cannot
 * be read or the chart not written.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/opt.h>
#include <invlab/report.h>

#include "args.h"
#include "plot.h"
#include "timeline.h"

#define O(f) offsetof(struct plot_cfg, f)
static const struct il_opt opts[] = {
	IL_OPT_HELP_ROW(O(help)),
	IL_OPT_VERSION_ROW(O(version)),
	{ .name = "output",
	  .short_name = 'o',
	  .type = IL_OPT_STRING,
	  .offset = O(output),
	  .def = "-",
	  .metavar = "FILE",
	  .help = "where to write the chart ('-' for stdout); its extension "
		  "(.svg, .png, .pdf) is the format unless --format is "
		  "given; written complete or not at all" },
	{ .name = "format",
	  .short_name = 'f',
	  .type = IL_OPT_STRING,
	  .offset = O(format),
	  .metavar = "FMT",
	  .help = "svg, png or pdf (default: from the output's name; svg "
		  "for stdout); png and pdf need a build with cairo" },
	{ .name = "metric",
	  .short_name = 'm',
	  .type = IL_OPT_STRING,
	  .offset = O(metric),
	  .metavar = "NAME[,NAME]",
	  .help = "the histograms to draw, up to 4, one row each (default: "
		  "blocked_ns and wakeup_ns when the results have them, else "
		  "their first histogram)" },
	{ .name = "title",
	  .short_name = 't',
	  .type = IL_OPT_STRING,
	  .offset = O(title),
	  .metavar = "TEXT",
	  .help = "the chart's title (default: program and histograms); the "
		  "kernel release is always shown below it" },
	{ .name = "width",
	  .type = IL_OPT_INT,
	  .offset = O(width),
	  .def = "1280",
	  .min = 800,
	  .max = 8000,
	  .metavar = "PX",
	  .help = "the chart's width in pixels (points in a PDF); the "
		  "height follows from the panels.  Text is 16 to 24 px "
		  "whatever the width" },
	{ .name = "bins-per-decade",
	  .type = IL_OPT_INT,
	  .offset = O(bins_per_decade),
	  .def = "20",
	  .min = 2,
	  .max = 200,
	  .metavar = "N",
	  .help = "histogram bars per factor of ten of latency (the data's own "
		  "buckets are 1/128 of a factor of two, too fine to read)" },
	{ .name = "by",
	  .type = IL_OPT_STRING,
	  .offset = O(by),
	  .metavar = "KEY",
	  .help = "draw the estimates over a sweep: each side's runs grouped "
		  "also by their value of KEY, as invlab-compare --by groups "
		  "them (a member of the run, of the file's scenario, or a "
		  "job key as --set names it), a line a side over the "
		  "values with its CI95 shaded" },
	{ .name = "stat",
	  .short_name = 's',
	  .type = IL_OPT_STRING,
	  .offset = O(stat),
	  .metavar = "LIST",
	  .help = "the statistics of each histogram the chart of estimates "
		  "draws, a panel each, comma-separated, from min, mean, p50, "
		  "p90, p99, p999, p9999, max (default p99; a count's rate "
		  "and a wall time are their mean); without --by, a dot a "
		  "side with its CI95" },
	{ .name = "label",
	  .short_name = 'l',
	  .type = IL_OPT_LIST,
	  .offset = O(label),
	  .metavar = "NAME",
	  .help = "the name of a side in the chart of estimates (only "
		  "there), given once "
		  "for every side, in side order (default as invlab-compare: "
		  "baseline and candidate; with three sides or more each "
		  "side's kernel release when the releases tell them apart, "
		  "else baseline, cand1, cand2, ...)" },
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

int main(int argc, char **argv)
{
	static const char usage[] =
		"[OPTIONS] RESULTS.json... [-- CAND.json...]\n"
		"   or: invlab-plot [OPTIONS] --by KEY|--stat LIST "
		"A.json... [-- B.json... [-- C.json...]]";
	static const char summary[] =
		"Draw invlab results as a chart (SVG; PNG and PDF with "
		"cairo): for each histogram, blocked_ns and wakeup_ns by "
		"default, a latency histogram per configuration (log latency, "
		"log counts, shared axes) with the bound its runs were judged "
		"against, their p99 and their verdict, and a percentile plot "
		"from p50 to p99.99.  Runs of a configuration are merged bin "
		"by bin.  With files after '--' (options go before it), those "
		"are a candidate drawn over the baseline, with a panel of "
		"candidate / baseline at each percentile.  The title names the "
		"kernel release.  With --by KEY, --stat or three sides or "
		"more (each after another '--'), the chart of estimates "
		"instead, an N-way invlab-compare drawn: a panel per "
		"configuration and histogram, each side's estimate (its "
		"per-run values summarized as compare does) with its own "
		"CI95, a line a side over KEY's values (log x for powers of "
		"two or a decade) with a shaded band, or without --by a dot "
		"a side with a bar; --label names the sides.  Exit status: 0 "
		"written, 2 bad usage or a "
		"format this build cannot write, 77 no such histogram in the "
		"results, 99 a file cannot be read or written.";
	struct plot_cfg cfg;
	struct plot p;
	struct pl_scene *sc;
	enum pl_format fmt = PL_SVG;
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
		printf("invlab-plot %s (%s; formats svg%s)\n", il_version(),
		       il_features(),
		       pl_format_available(PL_PNG) ? " png pdf" : "");
		return 0;
	}
	/* an output that cannot be written is found before any work */
	if (cfg.output && il_afile_check(cfg.output, err, sizeof(err))) {
		fprintf(stderr, "invlab-plot: -o: %s\n", err);
		return 2;
	}
	if (pl_format_for(cfg.output, cfg.format, &fmt, err, sizeof(err))) {
		fprintf(stderr, "invlab-plot: %s\n", err);
		return 2;
	}
	if (cfg.timeline)
		return il_tl_main(argv + first, argc - first, cfg.configuration,
				  cfg.output, fmt, cfg.max_input);
	nops = argc - first;
	if (plot_sweep_wanted(&cfg, argv + first, nops, after))
		return plot_sweep_main(&cfg, argv + first, nops, after, fmt);
	if (cfg.label.n) {
		/* the histograms say baseline and candidate: not silently */
		fprintf(stderr,
			"invlab-plot: --label names the sides of the chart of "
			"estimates (--by, --stat or three sides or more)\n"
			"Try 'invlab-plot --help'.\n");
		return 2;
	}
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
		plot_free(&p);
		return ret;
	}
	ret = plot_pick_metrics(&p, err, sizeof(err));
	if (ret == -EINVAL) {
		fprintf(stderr, "invlab-plot: %s\n", err);
		plot_free(&p);
		return 2;
	}
	if (!ret && p.nmetrics)
		ret = plot_collect(&p);
	if (ret || !p.n) {
		char names[256] = "";

		for (size_t k = 0; k < p.nmetrics; k++) {
			size_t n = strlen(names);

			snprintf(names + n, sizeof(names) - n, "%s'%s'",
				 k ? " or " : "", p.metric[k]);
		}
		if (ret)
			fprintf(stderr, "invlab-plot: out of memory\n");
		else
			fprintf(stderr,
				"invlab-plot: no histogram %s in the "
				"results\n",
				p.nmetrics ? names : "(any)");
		plot_free(&p);
		return ret ? 99 : 77;
	}
	ret = plot_read_bounds(&p, argv + first, (size_t)nbase, (size_t)nops,
			       err, sizeof(err));
	if (ret) {
		fprintf(stderr, "invlab-plot: %s\n", err);
		plot_free(&p);
		return 99;
	}
	sc = plot_draw(&p);
	plot_free(&p);
	if (!sc) {
		fprintf(stderr, "invlab-plot: out of memory\n");
		return 99;
	}
	ret = pl_scene_save(sc, cfg.output, fmt, err, sizeof(err));
	pl_scene_free(sc);
	if (ret) {
		fprintf(stderr, "invlab-plot: -o: %s\n", err);
		return 99;
	}
	return 0;
}
