/* SPDX-License-Identifier: MIT */
/*
 * The counters block of invlab-compare: each run's "counters" (counters.h,
 * written by the demo driver and sched-messaging) and, for sched-messaging,
 * its "wall_ns", per configuration, baseline against candidate:
 *
 *   metric   the counter ("context_switches") or the wall time
 *   baseline, candidate   the AMean of the per-run values of each side
 *   delta %  (candidate - baseline) / baseline * 100
 *   p, p adj the rank test (Mann-Whitney U) over the per-run values, the
 *            rows of the block corrected together with the comparison's
 *            correction (Holm by default)
 *
 * The wall time is also decided (lower is better: better, worse, no
 * change, as the histogram rows are): a worse one makes the comparison
 * worse.  Counters are shown, never decided: more switches is not worse
 * by itself.  A run that did not complete ("completed": false) gives
 * nothing.  Counters a side has as "not supported" have no row.
 *
 * With more sides than two, each side is compared with the first (the
 * baseline): one row per series and side, all of them in the block's
 * correction.  With --by KEY (results.h, il_res_run_key) the runs of a
 * configuration are grouped by their value of KEY too: a series is one
 * value's runs, a row of a sweep.
 *
 * Library code of the tools: nothing printed but on the FILE given.
 */
#ifndef INVLAB_COUNTERS_CMP_H
#define INVLAB_COUNTERS_CMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stats.h"

struct il_ctr_row {
	char *group;  /* "pi-classic/inherit" (escaped) */
	char *metric; /* "context_switches", or "wall_ns" */
	char *by;     /* the runs' value of --by's KEY (escaped); NULL: none */
	size_t side;  /* the side compared with the baseline: 1, 2, ... */
	bool wall;
	double delta_pct; /* NAN when the baseline is 0 */
	struct il_res_cmp c;
};

struct il_ctr_cmp {
	struct il_ctr_row *rows;
	size_t n, cap;
	size_t worse; /* wall-time rows decided worse */
	double alpha; /* the level "significant" is told at */
	enum il_res_correction correction;
	size_t nsides; /* the baseline and the sides compared with it */
	/* the sides' names, borrowed (NULL: "baseline" and "candidate") */
	const char *const *labels;
	const char *by; /* --by's KEY, borrowed; NULL: none */
};

/*
 * Read the counters of the files of both sides (already checked by
 * il_res_set_load: paths[0..nb) the baseline, paths[nb..nb+nc) the
 * candidate) and compare them.  0, or -errno with err.
 */
int il_ctr_cmp_build(char *const *paths, int nb, int nc, uint64_t max_input,
		     const struct il_res_cmp_opts *o, struct il_ctr_cmp *out,
		     char *err, size_t len);
/*
 * The same for nsides sides (at least two): paths holds the files of
 * each side in turn, nfiles[k] of side k; the first side is the
 * baseline.  by (--by's KEY, or NULL) and labels (nsides names, or
 * NULL) are kept by reference in out.  A run without KEY is an error
 * naming its file (-ENOKEY).
 */
int il_ctr_cmp_build_sides(char *const *paths, const int *nfiles, int nsides,
			   const char *by, const char *const *labels,
			   uint64_t max_input, const struct il_res_cmp_opts *o,
			   struct il_ctr_cmp *out, char *err, size_t len);
/*
 * The same, a file at a time, for a tool that reads each file once for
 * its histograms too (invlab-compare): il_ctr_cmp_acc_new for nsides
 * sides (by borrowed), il_ctr_cmp_add_json for each file's document
 * (root and path the caller's; side 0 the baseline), il_ctr_cmp_finish
 * for the rows, il_ctr_cmp_acc_free.  Only the per-run values are kept,
 * never a document.  NULL, 0 or -errno with err as il_ctr_cmp_build_sides.
 */
struct il_ctr_cmp_acc;
struct json_object;
struct il_ctr_cmp_acc *il_ctr_cmp_acc_new(int nsides, const char *by);
int il_ctr_cmp_add_json(struct il_ctr_cmp_acc *a, int side,
			struct json_object *root, const char *path, char *err,
			size_t len);
int il_ctr_cmp_finish(struct il_ctr_cmp_acc *a, const char *const *labels,
		      const struct il_res_cmp_opts *o, struct il_ctr_cmp *out,
		      char *err, size_t len);
void il_ctr_cmp_acc_free(struct il_ctr_cmp_acc *a);
/*
 * The block as text (md: a Markdown table): the wall-time rows first,
 * in the reviewers' form ("Amean wall 0.1510 (0.00%) 0.1600 (-5.96%)"),
 * then the counters table.  Nothing when there are no rows.
 */
void il_ctr_cmp_print(FILE *f, const struct il_ctr_cmp *c, bool md);
struct il_json;
/* "counters": [{group, metric, baseline, candidate, delta_pct, ...}] */
void il_ctr_cmp_json(struct il_json *j, const struct il_ctr_cmp *c);
void il_ctr_cmp_free(struct il_ctr_cmp *c);

#endif
