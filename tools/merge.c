// SPDX-License-Identifier: MIT
/*
 * Runs merged into a result set: grouped by scenario and configuration
 * (and file, per file; and value of the set's key, with one), each
 * histogram added bin by bin into its group's
 * merged one, each run's own statistics kept for the spread and the rank
 * test; then the queries the tools make of a set.
 *
 * A group's headline value is taken from the merged histogram, never
 * averaged over runs: a p99 of p99s is not a p99, while adding bins is
 * exact, so three 1 s runs give the same p99 as one 3 s run would.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"

/* two values of a key, NULL for none */
static bool same_value(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

static struct il_res_group *find_group(struct il_res_set *s,
				       const char *scenario, const char *conf,
				       const char *by, size_t file)
{
	for (size_t i = 0; i < s->ngroups; i++) {
		struct il_res_group *g = &s->groups[i];

		if (!strcmp(g->scenario, scenario) &&
		    !strcmp(g->configuration, conf) && same_value(g->by, by) &&
		    (!s->per_file || g->file == file))
			return g;
	}
	return NULL;
}

static struct il_res_group *add_group(struct il_res_set *s,
				      const char *scenario, const char *conf,
				      const char *by, size_t file)
{
	struct il_res_group *g = find_group(s, scenario, conf, by, file);

	if (g)
		return g;
	if (s->ngroups == s->groups_cap) {
		size_t cap = s->groups_cap ? 2 * s->groups_cap : 8;
		struct il_res_group *ng = realloc(s->groups, cap * sizeof(*ng));

		if (!ng)
			return NULL;
		s->groups = ng;
		s->groups_cap = cap;
	}
	g = &s->groups[s->ngroups];
	memset(g, 0, sizeof(*g));
	g->scenario = strdup(scenario);
	g->configuration = strdup(conf);
	g->by = by ? strdup(by) : NULL;
	g->file = s->per_file ? file : 0;
	if (!g->scenario || !g->configuration || (by && !g->by)) {
		free(g->scenario);
		free(g->configuration);
		free(g->by);
		return NULL;
	}
	s->ngroups++;
	return g;
}

int __il_res_add_judged(struct il_res_set *s, const char *scenario,
			const char *conf, const char *by, size_t file,
			enum il_verdict got, enum il_outcome outcome,
			struct il_res_group **out)
{
	struct il_res_group *g = add_group(s, scenario, conf, by, file);

	if (!g)
		return -ENOMEM;
	if ((unsigned)got >= IL_VERDICT_N)
		got = IL_NONE;
	if ((unsigned)outcome >= IL_OUT_N)
		outcome = IL_OUT_NONE;
	g->nruns++;
	g->verdicts[got]++;
	g->outcomes[outcome]++;
	s->nruns++;
	*out = g;
	return 0;
}

int __il_res_add_run(struct il_res_set *s, const char *scenario,
		     const char *conf, size_t file, enum il_verdict got,
		     enum il_verdict expected, struct il_res_group **out)
{
	/* the one expectation rule: never a count of its own here */
	return __il_res_add_judged(s, scenario, conf, NULL, file, got,
				   il_expect(got, expected), out);
}

static struct il_res_metric *add_metric(struct il_res_set *s,
					struct il_res_group *g,
					const char *name, int *ret)
{
	struct il_res_metric *m, *nm;

	for (size_t i = 0; i < g->nmetrics; i++)
		if (!strcmp(g->metrics[i].name, name))
			return &g->metrics[i];
	*ret = -E2BIG;
	if (s->nmerged >= IL_RES_MAX_MERGED)
		return NULL;
	*ret = -ENOMEM;
	nm = realloc(g->metrics, (g->nmetrics + 1) * sizeof(*nm));
	if (!nm)
		return NULL;
	g->metrics = nm;
	m = &g->metrics[g->nmetrics];
	memset(m, 0, sizeof(*m));
	m->name = strdup(name);
	m->merged = malloc(sizeof(*m->merged));
	if (!m->name || !m->merged) {
		free(m->name);
		free(m->merged);
		return NULL;
	}
	il_hist_init(m->merged);
	m->keep_run_hists = s->keep_run_hists;
	g->nmetrics++;
	s->nmerged++;
	return m;
}

int __il_res_add_hist(struct il_res_set *s, struct il_res_group *g,
		      const char *name, const struct il_hist *h)
{
	struct il_res_metric *m;
	int ret = 0;

	m = add_metric(s, g, name, &ret);
	if (!m)
		return ret;
	/* its statistics, its buckets (stats.c), and its bins merged */
	if (il_res_metric_add_run(m, h))
		return -ENOMEM;
	s->nhists++;
	return 0;
}

int __il_res_add_rate(struct il_res_set *s, struct il_res_group *g,
		      const char *name, uint64_t events, uint64_t trials)
{
	struct il_res_metric *m;
	struct il_hist *h;
	int ret = 0;

	m = add_metric(s, g, name, &ret);
	if (!m)
		return ret;
	m->rate = true;
	/*
	 * One sample a trial, 1 for an event: the mean is the rate, and the
	 * tests of a mean (two proportions for one run a side, Welch's t
	 * over the per-run rates) apply as they are.  Buckets 0 and 1 are
	 * exact, so no statistic is widened.
	 */
	h = malloc(sizeof(*h));
	if (!h)
		return -ENOMEM;
	il_hist_init(h);
	if (il_hist_add_bin(h, 0, trials - events) ||
	    il_hist_add_bin(h, 1, events)) {
		free(h);
		return -EINVAL;
	}
	if (trials) {
		h->min = events == trials ? 1 : 0;
		h->max = events ? 1 : 0;
	}
	ret = il_res_metric_add_run(m, h);
	free(h);
	if (ret)
		return -ENOMEM;
	s->nhists++;
	return 0;
}

void __il_res_free_file(struct il_res_file *f)
{
	/* its other strings are the set's */
	free(f->path);
	free(f->scenario);
	memset(f, 0, sizeof(*f));
}

static uint64_t str_hash(const char *str)
{
	uint64_t h = 1469598103934665603ull;

	for (; *str; str++)
		h = (h ^ (unsigned char)*str) * 1099511628211ull;
	return h;
}

/* open addressing over a power-of-two table, at most half full */
static char **str_slot(char **tab, size_t cap, const char *str)
{
	size_t i = (size_t)str_hash(str) & (cap - 1);

	while (tab[i] && strcmp(tab[i], str))
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

const char *__il_res_intern(struct il_res_set *s, const char *str)
{
	char **slot;

	if (2 * (s->nstrings + 1) > s->strings_cap) {
		size_t cap = s->strings_cap ? 2 * s->strings_cap : 64;
		char **tab = calloc(cap, sizeof(*tab));

		if (!tab)
			return NULL;
		for (size_t i = 0; i < s->strings_cap; i++)
			if (s->strings[i])
				*str_slot(tab, cap, s->strings[i]) =
					s->strings[i];
		free(s->strings);
		s->strings = tab;
		s->strings_cap = cap;
	}
	slot = str_slot(s->strings, s->strings_cap, str);
	if (!*slot) {
		*slot = strdup(str);
		if (!*slot)
			return NULL;
		s->nstrings++;
	}
	return *slot;
}

void il_res_set_init(struct il_res_set *s, bool per_file)
{
	memset(s, 0, sizeof(*s));
	s->per_file = per_file;
	s->max_input = IL_RES_MAX_INPUT_DEFAULT;
}

void il_res_set_free(struct il_res_set *s)
{
	for (size_t i = 0; i < s->nfiles; i++)
		__il_res_free_file(&s->files[i]);
	for (size_t i = 0; i < s->ngroups; i++) {
		struct il_res_group *g = &s->groups[i];

		for (size_t j = 0; j < g->nmetrics; j++) {
			free(g->metrics[j].name);
			free(g->metrics[j].merged);
			il_res_metric_free_runs(&g->metrics[j]);
		}
		free(g->metrics);
		free(g->scenario);
		free(g->configuration);
		free(g->by);
	}
	free(s->files);
	free(s->groups);
	for (size_t i = 0; i < s->strings_cap; i++)
		free(s->strings[i]);
	free(s->strings);
	il_res_set_init(s, s->per_file);
}

const struct il_res_group *il_res_set_find(const struct il_res_set *s,
					   const char *scenario,
					   const char *configuration,
					   size_t file)
{
	return find_group((struct il_res_set *)s, scenario, configuration, NULL,
			  file);
}

const struct il_res_group *il_res_set_find_by(const struct il_res_set *s,
					      const char *scenario,
					      const char *configuration,
					      const char *by, size_t file)
{
	return find_group((struct il_res_set *)s, scenario, configuration, by,
			  file);
}

struct by_value {
	const char *s;
	double v;
	size_t at; /* where it was: ties keep their order */
};

static int by_cmp(const void *a, const void *b)
{
	const struct by_value *x = a, *y = b;

	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

int il_res_by_sort(const char **v, size_t n)
{
	struct by_value *b = calloc(n + 1, sizeof(*b));

	if (!b)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		char *end;

		b[i].s = v[i];
		b[i].at = i;
		errno = 0;
		b[i].v = strtod(v[i], &end);
		/* one that is not a number: the order as given */
		if (!v[i][0] || *end || errno || !isfinite(b[i].v)) {
			free(b);
			return 0;
		}
	}
	qsort(b, n, sizeof(*b), by_cmp);
	for (size_t i = 0; i < n; i++)
		v[i] = b[i].s;
	free(b);
	return 0;
}

const struct il_res_metric *il_res_group_metric(const struct il_res_group *g,
						const char *name)
{
	for (size_t i = 0; g && i < g->nmetrics; i++)
		if (!strcmp(g->metrics[i].name, name))
			return &g->metrics[i];
	return NULL;
}

/* distinct values among vals[0..n) (n is small: files of one side) */
static const char *common_value(const char *const *vals, size_t n, int *nvalues)
{
	int distinct = 0;

	for (size_t i = 0; i < n; i++) {
		size_t j;

		for (j = 0; j < i; j++)
			if (!strcmp(vals[i], vals[j]))
				break;
		if (j == i)
			distinct++;
	}
	if (nvalues)
		*nvalues = distinct;
	return distinct <= 1 ? (n ? vals[0] : NULL) : "mixed";
}

const char *il_res_set_fp(const struct il_res_set *s, int i, int *nvalues)
{
	const char **vals;
	const char *r;

	if (nvalues)
		*nvalues = 0;
	if (i < 0 || i >= IL_RES_FP_N || !s->nfiles)
		return "none";
	vals = malloc(s->nfiles * sizeof(*vals));
	if (!vals)
		return "unknown";
	for (size_t f = 0; f < s->nfiles; f++)
		vals[f] = s->files[f].fp[i];
	r = common_value(vals, s->nfiles, nvalues);
	free(vals);
	return r;
}

const char *il_res_set_scenario(const struct il_res_set *s, const char *key,
				int *nvalues)
{
	const char **vals;
	const char *r;
	bool any = false;

	if (nvalues)
		*nvalues = 0;
	if (!s->nfiles)
		return NULL;
	vals = malloc(s->nfiles * sizeof(*vals));
	if (!vals)
		return NULL;
	for (size_t f = 0; f < s->nfiles; f++) {
		const struct il_res_file *fi = &s->files[f];

		vals[f] = "absent";
		for (size_t k = 0; k < fi->nscenario; k++) {
			if (!strcmp(fi->scenario[k].key, key)) {
				vals[f] = fi->scenario[k].value;
				any = true;
				break;
			}
		}
	}
	r = any ? common_value(vals, s->nfiles, nvalues) : NULL;
	free(vals);
	return r;
}
