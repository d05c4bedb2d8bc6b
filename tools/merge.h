/* SPDX-License-Identifier: MIT */
/* Between reading (load.c) and merging (merge.c): not for the tools. */
#ifndef INVLAB_TOOLS_MERGE_H
#define INVLAB_TOOLS_MERGE_H

#include "results.h"

/*
 * Count one run of scenario/conf (from file) with its verdict and the
 * verdict it expected, making its group when new.  0 or -ENOMEM.
 */
int __il_res_add_run(struct il_res_set *s, const char *scenario,
		     const char *conf, size_t file, enum il_verdict got,
		     enum il_verdict expected, struct il_res_group **g);
/*
 * The same with the run's outcome decided already (il_expect of a run
 * whose verdicts are per check: load.c), and its value of s->by (NULL
 * without).
 */
int __il_res_add_judged(struct il_res_set *s, const char *scenario,
			const char *conf, const char *by, size_t file,
			enum il_verdict got, enum il_outcome outcome,
			struct il_res_group **g);
/*
 * Add one run's histogram name to g: merged bin by bin, its statistics
 * kept.  0, -ENOMEM, or -E2BIG when s already has IL_RES_MAX_MERGED
 * metrics and this would be a new one.
 */
int __il_res_add_hist(struct il_res_set *s, struct il_res_group *g,
		      const char *name, const struct il_hist *h);
/*
 * Add one run's count of events over trials (deadline misses of jobs)
 * to g as the rate metric name (results.h): each trial a sample of 0
 * or 1.  The same returns as __il_res_add_hist.
 */
int __il_res_add_rate(struct il_res_set *s, struct il_res_group *g,
		      const char *name, uint64_t events, uint64_t trials);
void __il_res_free_file(struct il_res_file *f);
/*
 * The set's copy of str, made on first sight, freed with the set: what
 * a file's program, fingerprint and scenario members point to.  NULL
 * when out of memory.
 */
const char *__il_res_intern(struct il_res_set *s, const char *str);

#endif
