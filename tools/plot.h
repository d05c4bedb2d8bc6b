/* SPDX-License-Identifier: MIT */
/*
 * invlab-plot's pieces:
 *
 *   plot.c         options, the output format, main
 *   plot-data.c    the series (one per configuration) and their bounds
 *   plot-charts.c  the layouts: histograms, percentiles, ratios
 *   plot-scene.c   the scene the layouts draw into, and its SVG backend
 *   plot-cairo.c   the PNG and PDF backend (meson feature cairo)
 *   plot-sweep.c   the chart of estimates: sides over a sweep (--by),
 *                  or side by side, with their CI95
 *
 * A drawing for another picture (a timeline) uses plot-scene.h alone.
 */
#ifndef INVLAB_TOOLS_PLOT_H
#define INVLAB_TOOLS_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <invlab/opt.h>

#include "plot-scene.h"
#include "results.h"

#define PLOT_MAX_METRICS 4

struct plot_cfg {
	int help;
	int version;
	const char *output;
	const char *format;
	const char *metric;
	const char *title;
	int64_t bins_per_decade;
	int64_t width;
	uint64_t max_input;
	int timeline;		   /* timeline.h */
	const char *configuration; /* of --timeline */
	const char *by;		   /* --by KEY: the chart of estimates */
	const char *stat;	   /* --stat: its statistic */
	struct il_strlist label;   /* --label: the sides' names */
};

/* the bound the runs of a configuration were judged against */
struct plot_bound {
	size_t nchecks;	   /* checks with a bound; 0: none drawn */
	uint64_t bound_ns; /* the largest bound of those checks */
	uint64_t noise_ns; /* the noise allowance that came with it */
	char name[128];	   /* "priority inheritance (one CPU)" (escaped) */
};

/* one configuration on one side (baseline 0, candidate 1) */
struct plot_side {
	const struct il_res_group *g; /* NULL: not on this side */
	const struct il_res_metric *m[PLOT_MAX_METRICS];
	struct plot_bound bound;
};

struct plot_series {
	char *label; /* "inherit", or "pi-chain/depth3/inherit" */
	char id[96]; /* label made an XML name, unique */
	uint32_t color;
	struct plot_side side[2];
};

struct plot {
	const struct plot_cfg *cfg;
	struct il_res_set base, cand;
	bool two;
	const char *metric[PLOT_MAX_METRICS];
	size_t nmetrics;
	char *metric_buf; /* what --metric's names point into */
	struct plot_series *s;
	size_t n;
};

/*
 * The metrics to draw: --metric (names separated by commas), else
 * blocked_ns and wakeup_ns when the results have both (each protocol's
 * story needs the two), else blocked_ns, else the first histogram.  0,
 * -EINVAL (too many names, with err), -ENOMEM.
 */
int plot_pick_metrics(struct plot *p, char *err, size_t errlen);
/* the series of p's sets; 0 or -ENOMEM; p->n is 0 when none has data */
int plot_collect(struct plot *p);
/*
 * The bounds of every series from its checks ("runs[].checks[]":
 * bound_ns, noise_ns, bound), read from the same files: paths[0..nbase)
 * baseline, the rest candidate.  0, or -errno with the message in err.
 */
int plot_read_bounds(struct plot *p, char *const *paths, size_t nbase,
		     size_t npaths, char *err, size_t errlen);
void plot_free(struct plot *p);

/* the chart of p as a scene; NULL when out of memory */
struct pl_scene *plot_draw(const struct plot *p);

/*
 * Whether the command line asks for the chart of estimates (plot-sweep.c)
 * rather than histograms: --by, --stat, or three sides or more.  ops:
 * the operands after the options, after of them after the first "--"
 * (il_res_count_after_dashdash).
 */
bool plot_sweep_wanted(const struct plot_cfg *cfg, char *const *ops, int nops,
		       int after);
/*
 * The chart of estimates of the sides in ops (parted by "--"), written
 * to cfg->output in fmt.  Returns the exit status (plot.c's), having
 * said what went wrong.
 */
int plot_sweep_main(const struct plot_cfg *cfg, char **ops, int nops, int after,
		    enum pl_format fmt);

#endif
