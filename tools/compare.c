// SPDX-License-Identifier: MIT
/*
 * invlab-compare: a candidate's results normalized to a baseline's, in the
 * format kernel reviewers use, with the kernels' fingerprints side by side.
 *
 *   invlab-compare base.json cand.json
 *   invlab-compare --format markdown base-*.json -- cand-*.json
 *   invlab-compare -l tip -l v21 -l full tip-*.json -- v21-*.json --
 * full-*.json
 *
 * Each side is one or more result files (repeated runs, several devices).
 * Runs are grouped by scenario and configuration and their histograms
 * merged bin by bin; for every histogram and statistic the candidate is
 * shown as "ratio [pct imp](CV)": cand / base, the percent improvement
 * (positive is better: lower latency is better) and the coefficient of
 * variation of the per-run values, as in "1.00 [ -3.94]( 1.51)".  Each
 * side's value is its per-run values summarized as the reviewers' tables
 * do (AMean for a mean, Median for percentiles, HMean for throughput;
 * named in each block's header, --summary overrides it).  Every row is
 * tested with a test that respects runs (stats.h says which), all rows of
 * the comparison are corrected together (Holm by default, --correction),
 * and a difference only counts as better or worse when it is significant
 * after the correction and beyond --threshold; otherwise "no change".
 * A row whose runs a side are too few for any test over runs to reach
 * --alpha at all (il_res_runs_enough: 4 a side at 0.05) claims nothing:
 * "too few runs: 1 a side, need 4".  One run a side is such a row: its
 * samples show how a boot varies within itself, not how boots differ.
 * Each row also shows the 95 % interval of its change and the smallest
 * change its runs could detect; the closing line how many runs a side
 * would detect a --plan change.
 *
 * With three sides or more (kernels side by side: tip, a patch set, the
 * patch set with its option on), every side after the first is compared
 * with the first, a column group each, and the correction counts every
 * side's test of every row.  Two sides print as they always did.
 *
 * Exit: 0 compared and nothing worse, 1 something is worse (significant
 * after the correction and beyond the threshold), 2 bad usage, 77
 * nothing in common to compare, or no claim at all (every row too few
 * runs: "nothing worse" would be no finding), 99 a result file cannot
 * be read.
 */
#include <errno.h>
#include <malloc.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include <invlab/opt.h>
#include <invlab/report.h>
#include <invlab/time.h>

#include "args.h"
#include "counters-cmp.h"
#include "escape.h"
#include "format.h"
#include "results.h"
#include "stats.h"

enum format { F_TEXT, F_MARKDOWN, F_JSON };

struct cfg {
	int help;
	int version;
	int quiet;
	int format;
	const char *json;
	int json_pretty;
	struct il_strlist label;
	const char *by;
	const char *metric;
	const char *stat;
	int test;
	const char *alpha;
	const char *threshold;
	int correction;
	const char *summary;
	const char *plan;
	int64_t seed;
	int64_t resamples;
	uint64_t max_input;
};

#define O(f) offsetof(struct cfg, f)
static const struct il_opt opts[] = {
	IL_OPT_HELP_ROW(O(help)),
	IL_OPT_VERSION_ROW(O(version)),
	{ .name = "quiet",
	  .short_name = 'q',
	  .type = IL_OPT_FLAG,
	  .offset = O(quiet),
	  .help = "print only the comparison table, without the kernel "
		  "fingerprints and notes" },
	{ .name = "format",
	  .short_name = 'f',
	  .type = IL_OPT_CHOICE,
	  .offset = O(format),
	  .def = "text",
	  .choices = "text|markdown|json",
	  .metavar = "FORMAT",
	  .help = "what to print on standard output" },
	{ .name = "json",
	  .type = IL_OPT_STRING,
	  .offset = O(json),
	  .metavar = "FILE",
	  .help = "also write the comparison as JSON to FILE ('-' for stdout), "
		  "complete or not at all" },
	{ .name = "json-pretty",
	  .type = IL_OPT_FLAG,
	  .offset = O(json_pretty),
	  .help = "indent the JSON (--json, --format json), a member a line; "
		  "by default it is compact unless it goes to a terminal" },
	{ .name = "label",
	  .short_name = 'l',
	  .type = IL_OPT_LIST,
	  .offset = O(label),
	  .metavar = "NAME",
	  .help = "the name of a side in the tables and notes, given once for "
		  "every side, in side order (default: baseline and "
		  "candidate; with three sides or more, each side's kernel "
		  "release when the releases tell the sides apart, else "
		  "baseline, cand1, cand2, ...)" },
	{ .name = "by",
	  .type = IL_OPT_STRING,
	  .offset = O(by),
	  .metavar = "KEY",
	  .help = "rows of a sweep: group each side's runs also by their "
		  "value of KEY, the value of a --sweep of KEY (its values "
		  "then one block), a member of the run (configuration), of "
		  "the file's scenario (sched-messaging's groups) or a key of "
		  "the job as --set names it (M.protocol); a row a value, in "
		  "numeric order when every value is a number, else as first "
		  "seen.  A run without KEY is an error naming its file" },
	{ .name = "metric",
	  .short_name = 'm',
	  .type = IL_OPT_STRING,
	  .offset = O(metric),
	  .metavar = "LIST",
	  .help = "histograms to compare, comma-separated, e.g. "
		  "blocked_ns,wakeup_ns (default: every histogram of the "
		  "results)" },
	{ .name = "stat",
	  .short_name = 's',
	  .type = IL_OPT_STRING,
	  .offset = O(stat),
	  .def = "p50,p99,p999,max,mean",
	  .metavar = "LIST",
	  .help = "statistics of each histogram to compare, comma-separated, "
		  "from: min, mean, p50, p90, p99, p999, p9999, max" },
	{ .name = "test",
	  .short_name = 't',
	  .type = IL_OPT_CHOICE,
	  .offset = O(test),
	  .def = "auto",
	  .choices = "auto|rank|welch|bootstrap",
	  .metavar = "TEST",
	  .help = "significance test over the runs: rank is Mann-Whitney U "
		  "over the per-run values, welch is Welch's t test over them, "
		  "bootstrap the hierarchical bootstrap (runs resampled, then "
		  "samples within each run); auto takes the bootstrap for "
		  "percentiles, welch for the mean and rank for min and max.  "
		  "Whatever TEST is, a row with too few runs a side for a "
		  "test over runs to reach --alpha at all (fewer than 4 a "
		  "side at 0.05; one run a side always) is not tested and "
		  "reads 'too few runs'" },
	IL_RES_OPT_ALPHA(O(alpha),
			 "significance level of the whole comparison: a row is "
			 "significant when its corrected p-value is below P "
			 "(0 < P <= 0.5)"),
	IL_RES_OPT_CORRECTION(
		O(correction),
		"correction for testing all rows of the comparison "
		"together (with three sides or more, every side's test of "
		"every row): holm bounds the chance of any false 'worse' or "
		"'better' by --alpha (family-wise), bh (Benjamini-Hochberg) "
		"the expected share of false ones among them; none tests "
		"each row alone"),
	{ .name = "threshold",
	  .type = IL_OPT_STRING,
	  .offset = O(threshold),
	  .def = "2",
	  .metavar = "PCT",
	  .help = "a row is worse or better only when significant and its "
		  "change is beyond PCT percent (0 <= PCT <= 100); histogram "
		  "buckets are up to 0.8% wide" },
	{ .name = "summary",
	  .type = IL_OPT_STRING,
	  .offset = O(summary),
	  .metavar = "LIST",
	  .help = "how the per-run values of a side are summarized: "
		  "amean, hmean or median, for every row or as "
		  "METRIC=NAME or METRIC.STAT=NAME, comma-separated (default: "
		  "AMean for a mean, Median for percentiles, min and max, "
		  "HMean for throughput metrics)" },
	{ .name = "plan",
	  .type = IL_OPT_STRING,
	  .offset = O(plan),
	  .def = "5",
	  .metavar = "PCT",
	  .help = "the closing line tells how many runs a side would detect a "
		  "change of PCT percent on every row (80% power, at the "
		  "corrected level)" },
	{ .name = "seed",
	  .type = IL_OPT_INT,
	  .offset = O(seed),
	  .def = "1",
	  .min = 0,
	  .max = INT64_MAX,
	  .metavar = "N",
	  .help = "seed of the bootstrap: the same files and seed give the "
		  "same table" },
	{ .name = "resamples",
	  .type = IL_OPT_INT,
	  .offset = O(resamples),
	  .def = "4000",
	  .min = 100,
	  .max = 1000000,
	  .metavar = "N",
	  .help = "replicates of the bootstrap (its smallest p-value is "
		  "about 1/N)" },
	IL_RES_OPT_MAX_INPUT(O(max_input)),
	{ .name = NULL },
};
#undef O

static const struct il_opt *const tables[] = { opts, NULL };

#define MAX_STATS IL_RES_NSTATS

struct row {
	const char *group; /* "pi-classic/inherit", owned by struct cmp */
	const char *by;	   /* the value of --by, owned by its set; NULL */
	const char *metric;
	enum il_res_stat st;
	/* [nsides - 1]: side k + 1 against the baseline (the first side) */
	struct il_res_cmp *c;
	bool rate; /* a count over trials: values are rates (results.h) */
	bool first_of_group, first_of_metric;
};

/* a group some side lacks: where it is (in[k] for side k) */
struct missing {
	char *group; /* "pi-classic/protect" */
	bool *in;    /* [nsides] */
};

struct cmp {
	const struct cfg *cfg;
	struct il_res_cmp_opts o;
	struct il_res_set *sides; /* [nsides]: the baseline first */
	size_t nsides;
	char **files;  /* every side's files in turn, nfiles[k] of side k */
	size_t npaths; /* of files, which is this program's (args.h) */
	int *nfiles;
	char **labels;	/* [nsides]: the sides' names */
	bool labeled;	/* named by --label */
	bool unnamed;	/* three sides or more, not told apart by release */
	char **hnorm;	/* [nsides]: "NAME[pct imp](CV)" */
	char *hbase;	/* "NAME (CV)": the baseline's column, more sides */
	const char *by; /* --by KEY, NULL: none */
	const char **values; /* --by: every side's values, in row order */
	size_t nvalues;
	enum il_res_stat stats[MAX_STATS];
	int nstats;
	char **metrics; /* NULL: all */
	int nmetrics;
	struct row *rows;
	size_t nrows, cap;
	char **names; /* group labels */
	size_t nnames;
	struct missing *miss; /* groups some side lacks, in order */
	size_t nmiss;
	size_t count[IL_RES_WORSE + 1];
	size_t family; /* tests that ran: what the correction counts */
	/* rows with too few runs a side for any test (il_res_runs_enough) */
	size_t too_few_runs;
	size_t fewest_runs; /* the fewest runs a side of such a row */
	double threshold, plan;
	/* --summary: "metric", "metric.stat" or "" (every row) -> summary */
	char **sum_key;
	enum il_res_summary *sum_val;
	size_t nsum;
	int argc;
	char **argv;
	struct il_ctr_cmp ctr;	    /* the counters block (counters-cmp.h) */
	struct il_ctr_cmp_acc *acc; /* its per-run values, as files are read */
	/* every side's scenario members, each once, borrowed from sides */
	const char **skeys;
	size_t nskeys;
};

/* ---- helpers --------------------------------------------------------- */

/*
 * Two sides are shown as they always were: both values, the p-value, the
 * test and the detectable change beside the candidate's ratio.  With
 * more, the table is a column group a side, without them.
 */
static bool nway(const struct cmp *c)
{
	return c->nsides > 2;
}

/* the sides compared with the baseline */
static size_t ncand(const struct cmp *c)
{
	return c->nsides - 1;
}

/* side k in a sentence: "the baseline", "the candidate", or its name */
static const char *side_ref(const struct cmp *c, size_t k)
{
	if (!c->labeled && c->nsides == 2)
		return k ? "the candidate" : "the baseline";
	return c->labels[k];
}

static int push_str(char ***v, size_t *n, const char *s)
{
	char **nv = realloc(*v, (*n + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[*n] = strdup(s);
	if (!nv[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

static bool metric_wanted(const struct cmp *c, const char *name)
{
	if (!c->metrics)
		return true;
	for (int i = 0; i < c->nmetrics; i++)
		if (!strcmp(c->metrics[i], name))
			return true;
	return false;
}

/* a row whose comparisons cs (ncand of them) it takes over */
static int add_row(struct cmp *c, const char *group, const char *metric,
		   enum il_res_stat st, struct il_res_cmp *cs)
{
	if (c->nrows == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 64;
		struct row *nr = realloc(c->rows, cap * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		c->rows = nr;
		c->cap = cap;
	}
	c->rows[c->nrows] = (struct row){
		.group = group, .metric = metric, .st = st, .c = cs
	};
	c->nrows++;
	return 0;
}

/*
 * The baseline's side of a row: every comparison of the row has the
 * same, but one with a side that lacks the metric has none.
 */
static const struct il_res_cmp *row_base(const struct cmp *c,
					 const struct row *r)
{
	for (size_t k = 0; k < ncand(c); k++)
		if (!isnan(r->c[k].base))
			return &r->c[k];
	return &r->c[0];
}

/* the --summary for a row: metric.stat, then metric, then every row */
static enum il_res_summary summary_for(const struct cmp *c, const char *metric,
				       enum il_res_stat st)
{
	char key[128];
	enum il_res_summary by_metric = IL_RES_SUM_AUTO;
	enum il_res_summary all = IL_RES_SUM_AUTO;

	snprintf(key, sizeof(key), "%s.%s", metric, il_res_stat_name(st));
	for (size_t i = 0; i < c->nsum; i++) {
		if (!strcmp(c->sum_key[i], key))
			return c->sum_val[i];
		if (!strcmp(c->sum_key[i], metric))
			by_metric = c->sum_val[i];
		else if (!c->sum_key[i][0])
			all = c->sum_val[i];
	}
	return by_metric != IL_RES_SUM_AUTO ? by_metric : all;
}

/* --by is the configuration: a block is a scenario, a row each value */
static bool by_configuration(const struct cmp *c)
{
	return c->by && !strcmp(c->by, "configuration");
}

/* groups a and b are rows of one block (with --by, of one sweep) */
static bool same_block(const struct cmp *c, const struct il_res_group *a,
		       const struct il_res_group *b)
{
	return !strcmp(a->scenario, b->scenario) &&
	       (by_configuration(c) ||
		!strcmp(a->configuration, b->configuration));
}

/* "pi-classic/inherit", "sched-messaging/process-socket groups=4" */
static void group_label(const struct cmp *c, const struct il_res_group *g,
			bool value, char *buf, size_t len)
{
	if (by_configuration(c))
		snprintf(buf, len, "%s", g->scenario);
	else
		snprintf(buf, len, "%s/%s", g->scenario, g->configuration);
	if (value && g->by) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, " %s=%s", c->by, g->by);
	}
}

/* where value v comes in the sweep's rows */
static size_t value_rank(const struct cmp *c, const char *v)
{
	for (size_t i = 0; v && i < c->nvalues; i++)
		if (!strcmp(c->values[i], v))
			return i;
	return c->nvalues;
}

/*
 * The values of --by on every side, the baseline's first, in the order
 * of the rows (il_res_by_sort).  0 or -ENOMEM.
 */
static int collect_values(struct cmp *c)
{
	size_t cap = 0;

	for (size_t k = 0; k < c->nsides; k++)
		cap += c->sides[k].ngroups;
	c->values = calloc(cap + 1, sizeof(*c->values));
	if (!c->values)
		return -ENOMEM;
	for (size_t k = 0; k < c->nsides; k++)
		for (size_t i = 0; i < c->sides[k].ngroups; i++) {
			const char *v = c->sides[k].groups[i].by;

			/* a set with a key has a value in every group */
			if (value_rank(c, v) == c->nvalues)
				c->values[c->nvalues++] = v;
		}
	return il_res_by_sort(c->values, c->nvalues);
}

/* a group that some side lacks, with where it is */
static int add_missing(struct cmp *c, const struct il_res_group *g)
{
	struct missing *nm = realloc(c->miss, (c->nmiss + 1) * sizeof(*nm));
	struct missing *m;
	char label[512];

	if (!nm)
		return -ENOMEM;
	c->miss = nm;
	m = &c->miss[c->nmiss];
	group_label(c, g, true, label, sizeof(label));
	m->group = strdup(label);
	m->in = calloc(c->nsides, sizeof(*m->in));
	if (!m->group || !m->in) {
		free(m->group);
		free(m->in);
		return -ENOMEM;
	}
	for (size_t k = 0; k < c->nsides; k++)
		m->in[k] =
			il_res_set_find_by(&c->sides[k], g->scenario,
					   g->configuration, g->by, 0) != NULL;
	c->nmiss++;
	return 0;
}

/* the metrics of the groups gs[0..n) (NULL ones left out), in order */
static const char **block_metrics(const struct il_res_group *const *gs,
				  size_t n, size_t ns, size_t *count)
{
	const char **names;
	size_t cap = 1;

	*count = 0;
	for (size_t j = 0; j < n; j++)
		cap += gs[j * ns] ? gs[j * ns]->nmetrics : 0;
	names = calloc(cap, sizeof(*names));
	if (!names)
		return NULL;
	for (size_t j = 0; j < n; j++) {
		const struct il_res_group *g = gs[j * ns];

		for (size_t m = 0; g && m < g->nmetrics; m++) {
			size_t i = 0;

			while (i < *count &&
			       strcmp(names[i], g->metrics[m].name))
				i++;
			if (i == *count)
				names[(*count)++] = g->metrics[m].name;
		}
	}
	return names;
}

/*
 * The row of one statistic of one metric of one value's groups g (g[k]
 * of side k, NULL where a side lacks it): every side compared with the
 * baseline.  A metric on the baseline alone has nothing to compare with,
 * and a row where no side has a value is left out too.  *first: the
 * next row starts the block of its metric.
 */
static int compare_row(struct cmp *c, const struct il_res_group *const *g,
		       const char *name, enum il_res_stat st, const char *label,
		       bool *first)
{
	const struct il_res_metric *mb = il_res_group_metric(g[0], name);
	size_t nc = ncand(c);
	const struct il_res_metric **mc = calloc(nc, sizeof(*mc));
	struct il_res_cmp_opts o = c->o;
	struct il_res_cmp *r = NULL;
	/* a count is one on every side: only a histogram's name ends in _ns */
	bool any = false, value = false, rate = mb && mb->rate;
	int ret = 0;

	if (!mc)
		return -ENOMEM;
	for (size_t k = 0; mb && k < nc; k++) {
		mc[k] = il_res_group_metric(g[k + 1], name);
		any = any || mc[k];
	}
	/* of a count, only the mean (the rate) means anything */
	if (!any || (rate && st != IL_RES_MEAN))
		goto out;
	r = calloc(nc, sizeof(*r));
	if (!r) {
		ret = -ENOMEM;
		goto out;
	}
	o.summary = summary_for(c, name, st);
	for (size_t k = 0; k < nc; k++) {
		il_res_compare(mb, mc[k], st, &o, &r[k]);
		value = value || !isnan(r[k].base) || !isnan(r[k].cand);
	}
	if (!value)
		goto out;
	ret = add_row(c, label, name, st, r);
	if (ret)
		goto out;
	c->rows[c->nrows - 1].by = g[0]->by;
	c->rows[c->nrows - 1].rate = rate;
	c->rows[c->nrows - 1].first_of_metric = *first;
	*first = false;
	r = NULL;
out:
	free(r);
	free(mc);
	return ret;
}

/*
 * One block: the baseline's group g0 and, with --by, every group of its
 * sweep, in the order of their values; the same groups of the other
 * sides.  Rows by metric, then statistic, then value.
 */
static int build_block(struct cmp *c, const struct il_res_group *g0)
{
	const struct il_res_set *b = &c->sides[0];
	size_t ns = c->nsides, n = 0, nm = 0, before = c->nrows;
	const struct il_res_group **g =
		calloc(ns * (b->ngroups + 1), sizeof(*g));
	const char **names = NULL;
	char label[512];
	int ret = 0;

	if (!g)
		return -ENOMEM;
	/* the block's baseline groups: g[j * ns] for value j (without --by,
	 * g0 alone: no other group has its scenario and configuration) */
	for (size_t i = 0; i < b->ngroups; i++)
		if (same_block(c, &b->groups[i], g0))
			g[n++ * ns] = &b->groups[i];
	for (size_t j = 1; j < n; j++)
		for (size_t x = j;
		     x > 0 && value_rank(c, g[x * ns]->by) <
				      value_rank(c, g[(x - 1) * ns]->by);
		     x--) {
			const struct il_res_group *t = g[x * ns];

			g[x * ns] = g[(x - 1) * ns];
			g[(x - 1) * ns] = t;
		}
	/* each value's group on the other sides */
	for (size_t j = 0; j < n && !ret; j++) {
		const struct il_res_group *gb = g[j * ns];
		size_t found = 0;

		for (size_t k = 1; k < ns; k++) {
			g[j * ns + k] = il_res_set_find_by(
				&c->sides[k], gb->scenario, gb->configuration,
				gb->by, 0);
			found += g[j * ns + k] != NULL;
		}
		if (found < ns - 1)
			ret = add_missing(c, gb);
		/* on the baseline alone: nothing to compare it with */
		if (!found)
			g[j * ns] = NULL;
	}
	if (ret)
		goto out;
	group_label(c, g0, false, label, sizeof(label));
	ret = push_str(&c->names, &c->nnames, label);
	names = ret ? NULL : block_metrics(g, n, ns, &nm);
	if (!ret && !names)
		ret = -ENOMEM;
	for (size_t m = 0; m < nm && !ret; m++) {
		bool first = true;

		if (!metric_wanted(c, names[m]))
			continue;
		for (int s = 0; s < c->nstats && !ret; s++)
			for (size_t j = 0; j < n && !ret; j++)
				if (g[j * ns])
					ret = compare_row(
						c, &g[j * ns], names[m],
						c->stats[s],
						c->names[c->nnames - 1],
						&first);
	}
	if (!ret && c->nrows > before)
		c->rows[before].first_of_group = true;
out:
	free(names);
	free(g);
	return ret;
}

static int build(struct cmp *c)
{
	const struct il_res_set *b = &c->sides[0];
	int ret = c->by ? collect_values(c) : 0;

	for (size_t i = 0; i < b->ngroups && !ret; i++) {
		bool done = false;

		/* a sweep is one block, made at its first group */
		for (size_t j = 0; c->by && j < i && !done; j++)
			done = same_block(c, &b->groups[j], &b->groups[i]);
		if (!done)
			ret = build_block(c, &b->groups[i]);
	}
	/* the groups of the other sides that the baseline lacks, each once */
	for (size_t k = 1; k < c->nsides && !ret; k++) {
		const struct il_res_set *s = &c->sides[k];

		for (size_t i = 0; i < s->ngroups && !ret; i++) {
			const struct il_res_group *gk = &s->groups[i];
			bool seen = false;

			for (size_t j = 0; j < k && !seen; j++)
				seen = il_res_set_find_by(
					&c->sides[j], gk->scenario,
					gk->configuration, gk->by, 0);
			if (!seen)
				ret = add_missing(c, gk);
		}
	}
	return ret;
}

/* every row of the comparison corrected together, then decided */
static int decide(struct cmp *c)
{
	size_t nc = ncand(c), n = c->nrows * nc;
	struct il_res_cmp **v = calloc(n + 1, sizeof(*v));
	int ret;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t k = 0; k < nc; k++) {
			v[i * nc + k] = &c->rows[i].c[k];
			c->family += c->rows[i].c[k].test != IL_RES_T_NONE;
		}
	ret = il_res_decide_family(v, n, &c->o);
	free(v);
	if (ret < 0)
		return ret;
	c->fewest_runs = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		const struct il_res_cmp *x = &c->rows[i / nc].c[i % nc];

		c->count[x->change]++;
		if (x->runs_needed) {
			c->too_few_runs++;
			if (x->sb.n < c->fewest_runs)
				c->fewest_runs = x->sb.n;
			if (x->sc.n < c->fewest_runs)
				c->fewest_runs = x->sc.n;
		}
	}
	return 0;
}

/*
 * Whether the comparison could claim anything: a row (or a counters
 * row) decided better, worse or no change.  When every row has too few
 * runs, "nothing is worse" is no finding.
 */
static bool claims(const struct cmp *c)
{
	if (c->count[IL_RES_SAME] || c->count[IL_RES_BETTER] ||
	    c->count[IL_RES_WORSE])
		return true;
	for (size_t i = 0; i < c->ctr.n; i++)
		if (c->ctr.rows[i].c.change >= IL_RES_SAME)
			return true;
	return false;
}

/* "too few runs: 1 a side, need 4": what a row lacks, when it does */
static const char *change_text(const struct il_res_cmp *x, char *buf,
			       size_t len)
{
	if (x->change != IL_RES_TOO_FEW || !x->runs_needed)
		return il_res_change_name(x->change);
	if (x->sb.n == x->sc.n)
		snprintf(buf, len, "too few runs: %zu a side, need %zu",
			 x->sb.n, x->runs_needed);
	else
		snprintf(buf, len, "too few runs: %zu:%zu, need %zu a side",
			 x->sb.n, x->sc.n, x->runs_needed);
	return buf;
}

/* "1.00 [ -3.94]( 1.51)" */
static void fmt_norm(char *buf, size_t len, double ratio, double pct, double cv)
{
	char r[16], p[16], v[16];

	if (isnan(ratio))
		snprintf(r, sizeof(r), " n/a");
	else
		snprintf(r, sizeof(r), "%4.2f", ratio);
	if (isnan(pct))
		snprintf(p, sizeof(p), "%6s", "n/a");
	else
		/* + 0.0 turns -0.00 into 0.00 */
		snprintf(p, sizeof(p), "%6.2f", round(pct * 100) / 100 + 0.0);
	if (isnan(cv))
		snprintf(v, sizeof(v), "%5s", "n/a");
	else
		snprintf(v, sizeof(v), "%5.2f", cv);
	snprintf(buf, len, "%s [%s](%s)", r, p, v);
}

/* a row's value: a time, or for a count over trials its rate in percent */
static const char *fmt_value(char *buf, size_t len, const struct row *r,
			     double v)
{
	if (!r->rate)
		return il_res_fmt_ns(buf, len, v);
	if (isnan(v))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.2f%%", v * 100);
	return buf;
}

/* the statistic's name in a row: a count's mean is its rate */
static const char *row_stat(const struct row *r)
{
	return r->rate ? "rate" : il_res_stat_name(r->st);
}

static void fmt_p(char *buf, size_t len, double p)
{
	if (isnan(p))
		snprintf(buf, len, "-");
	else if (p < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%.3f", p);
}

static const char *fp_label(int i)
{
	return il_res_fp_key(i);
}

/* the first file's kernel command line words missing from the other's */
static void cmdline_only(const char *a, const char *b, char *out, size_t len)
{
	char *copy = strdup(a), *save = NULL;
	size_t used = 0;

	out[0] = '\0';
	if (!copy)
		return;
	for (char *w = strtok_r(copy, " ", &save); w;
	     w = strtok_r(NULL, " ", &save)) {
		const char *p = b;
		size_t wl = strlen(w);
		bool found = false;

		while ((p = strstr(p, w))) {
			if ((p == b || p[-1] == ' ') &&
			    (p[wl] == ' ' || p[wl] == '\0')) {
				found = true;
				break;
			}
			p += wl;
		}
		if (!found && used + wl + 2 < len) {
			used += (size_t)snprintf(out + used, len - used, "%s%s",
						 used ? " " : "", w);
		}
	}
	free(copy);
}

/* the name of a file relative to nothing: its last component */
static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* text outside a table: what Markdown would take as markup, escaped */
static void md_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (strchr("`*_<>|", *s))
			fputc('\\', f);
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
	}
}

static void print_files(FILE *f, const char *what, const struct il_res_set *s,
			bool md)
{
	if (md) {
		fputs("**", f);
		md_text(f, what);
		fputs("**", f);
	} else {
		fputs(what, f);
	}
	fprintf(f, " %zu file%s:", s->nfiles, s->nfiles == 1 ? "" : "s");
	for (size_t i = 0; i < s->nfiles; i++) {
		/* many files: the first and last name the set well enough */
		if (s->nfiles > 4 && i == 2) {
			fprintf(f, " ...");
			i = s->nfiles - 2;
			continue;
		}
		fprintf(f, md ? " `%s`%s" : " %s%s",
			i ? base_name(s->files[i].path) : s->files[i].path,
			i + 1 < s->nfiles ? "," : "");
	}
	fprintf(f, "%s\n", md ? "  " : "");
}

/* every side's files, each line starting with the side's name */
static void print_sides_files(FILE *f, const struct cmp *c, bool md)
{
	size_t w = 0;
	char what[256];

	if (!c->labeled && c->nsides == 2) {
		print_files(f, md ? "Baseline:" : "baseline: ", &c->sides[0],
			    md);
		print_files(f, md ? "Candidate:" : "candidate:", &c->sides[1],
			    md);
		return;
	}
	for (size_t k = 0; k < c->nsides; k++)
		if (strlen(c->labels[k]) > w)
			w = strlen(c->labels[k]);
	for (size_t k = 0; k < c->nsides; k++) {
		snprintf(what, sizeof(what), "%s:%*s", c->labels[k],
			 md ? 0 : (int)(w - strlen(c->labels[k])), "");
		print_files(f, what, &c->sides[k], md);
	}
}

/* A scenario value for people: "2.00ms" for an integer in a _ns key */
static const char *scalar(const char *key, const char *v, char *buf, size_t len)
{
	size_t kl = strlen(key);
	unsigned long long ns;
	char *end;

	if (!v)
		return "absent";
	if (kl > 3 && !strcmp(key + kl - 3, "_ns") && v[0] >= '0' &&
	    v[0] <= '9') {
		errno = 0;
		ns = strtoull(v, &end, 10);
		if (!errno && !*end) {
			il_format_duration(buf, len, ns);
			return buf;
		}
	}
	return v;
}

/*
 * The scenario members any file of any side has, each once, in the
 * order first seen (the baseline's first file first): a few names
 * however many files, found in one pass over them.  0 or -ENOMEM.
 */
static int collect_scenario_keys(struct cmp *c)
{
	for (size_t side = 0; side < c->nsides; side++) {
		const struct il_res_set *s = &c->sides[side];

		for (size_t fi = 0; fi < s->nfiles; fi++)
			for (size_t k = 0; k < s->files[fi].nscenario; k++) {
				const char *key = s->files[fi].scenario[k].key;
				const char **nk;
				size_t i = 0;

				while (i < c->nskeys &&
				       strcmp(c->skeys[i], key))
					i++;
				if (i < c->nskeys)
					continue;
				nk = realloc(c->skeys,
					     (c->nskeys + 1) * sizeof(*nk));
				if (!nk)
					return -ENOMEM;
				c->skeys = nk;
				c->skeys[c->nskeys++] = key;
			}
	}
	return 0;
}

/* fingerprint field i of every side: vals[k], and whether it differs */
static bool fp_differs(const struct cmp *c, int i, const char **vals,
		       int *nvals)
{
	bool differs = false;

	for (size_t k = 0; k < c->nsides; k++) {
		vals[k] = il_res_set_fp(&c->sides[k], i, &nvals[k]);
		differs = differs || nvals[k] > 1 || strcmp(vals[k], vals[0]);
	}
	return differs;
}

/* scenario member key of every side (NULL: absent); whether they differ */
static bool scenario_differs(const struct cmp *c, const char *key,
			     const char **vals)
{
	bool differs = false;

	for (size_t k = 0; k < c->nsides; k++) {
		vals[k] = il_res_set_scenario(&c->sides[k], key, NULL);
		differs = differs || strcmp(vals[k] ? vals[k] : "absent",
					    vals[0] ? vals[0] : "absent");
	}
	return differs;
}

/* "tip, proxy and full" of the sides where pick[k]; "" when none */
static void join_sides(const struct cmp *c, const bool *pick, const char *sep,
		       const char *last, char *out, size_t len)
{
	size_t n = 0, total = 0, used = 0;

	out[0] = '\0';
	for (size_t k = 0; k < c->nsides; k++)
		total += pick[k];
	for (size_t k = 0; k < c->nsides && used < len; k++) {
		if (!pick[k])
			continue;
		used += (size_t)snprintf(out + used, len - used, "%s%s",
					 !n		 ? ""
					 : n + 1 < total ? sep
							 : last,
					 side_ref(c, k));
		n++;
	}
}

/* Differences between the sides, as notes: kernel, then scenario. */
static void print_notes(FILE *f, const struct cmp *c, bool md)
{
	const char *bullet = md ? "- " : "note: ";
	const char **vals = calloc(c->nsides, sizeof(*vals));
	int *nvals = calloc(c->nsides, sizeof(*nvals));
	bool *pick = calloc(c->nsides, sizeof(*pick));
	char agreed[512] = "", list[1024];
	int diffs = 0, known = 0, unknown = 0;

	if (!vals || !nvals || !pick) {
		free(vals);
		free(nvals);
		free(pick);
		return;
	}
	for (int i = 0; i < IL_RES_FP_N; i++) {
		bool multi = false, differs = fp_differs(c, i, vals, nvals);

		for (size_t k = 0; k < c->nsides; k++) {
			pick[k] = nvals[k] > 1;
			multi = multi || pick[k];
		}
		if (multi) {
			join_sides(c, pick, ", of ", " and of ", list,
				   sizeof(list));
			fprintf(f, "%s%s differs between the files of %s\n",
				bullet, fp_label(i), list);
			continue;
		}
		if (!differs) {
			/* two unknowns agree on nothing */
			if (!strcmp(vals[0], "unknown")) {
				unknown++;
			} else {
				size_t u = strlen(agreed);

				known++;
				snprintf(agreed + u, sizeof(agreed) - u, "%s%s",
					 u ? ", " : "", fp_label(i));
			}
			continue;
		}
		diffs++;
		if (i == IL_RES_FP_CMDLINE) {
			char ob[1024], oc[1024];

			/* each side against the baseline */
			for (size_t k = 1; k < c->nsides; k++) {
				if (!strcmp(vals[k], vals[0]))
					continue;
				cmdline_only(vals[0], vals[k], ob, sizeof(ob));
				cmdline_only(vals[k], vals[0], oc, sizeof(oc));
				fprintf(f,
					"%skernel command line differs: %s "
					"only '%s', %s only '%s'\n",
					bullet, c->labels[0], ob, c->labels[k],
					oc);
			}
		} else {
			fprintf(f, "%s%s differs: ", bullet, fp_label(i));
			for (size_t k = 0; k < c->nsides; k++)
				fprintf(f, "%s%s (%s)", k ? " vs " : "",
					vals[k], c->labels[k]);
			fputc('\n', f);
		}
	}
	if (!diffs && !known)
		fprintf(f, "%sthe kernel fingerprints are unknown\n", bullet);
	else if (!diffs && !unknown)
		fprintf(f, "%sthe kernel fingerprints agree\n", bullet);
	else if (!diffs)
		fprintf(f,
			"%sthe kernel fingerprints agree where known (%s); "
			"%d field%s unknown on %s\n",
			bullet, agreed, unknown, unknown == 1 ? "" : "s",
			nway(c) ? "every side" : "both sides");

	/* scenario parameters, for every key any side has, once */
	for (size_t i = 0; i < c->nskeys; i++) {
		const char *key = c->skeys[i];
		char b1[64];

		if (!scenario_differs(c, key, vals))
			continue;
		fprintf(f, "%sscenario differs: %s ", bullet, key);
		for (size_t j = 0; j < c->nsides; j++)
			fprintf(f, "%s%s (%s)", j ? " vs " : "",
				scalar(key, vals[j], b1, sizeof(b1)),
				c->labels[j]);
		fputc('\n', f);
	}
	for (size_t i = 0; i < c->nmiss; i++) {
		const struct missing *m = &c->miss[i];
		size_t nin = 0;

		for (size_t k = 0; k < c->nsides; k++)
			nin += m->in[k];
		if (nin == 1) {
			for (size_t k = 0; k < c->nsides; k++)
				if (m->in[k])
					fprintf(f, "%s%s only in %s\n", bullet,
						m->group, side_ref(c, k));
			continue;
		}
		/* three sides or more: in some, not in others */
		for (size_t k = 0; k < c->nsides; k++)
			pick[k] = !m->in[k];
		join_sides(c, pick, ", ", " and ", list, sizeof(list));
		fprintf(f, "%s%s not in %s%s\n", bullet, m->group, list,
			m->in[0] ? "" : ": nothing to compare it with");
	}
	for (size_t side = 0; side < c->nsides; side++) {
		const struct il_res_set *s = &c->sides[side];

		for (size_t i = 0; i < s->nfiles; i++)
			if (s->files[i].interrupted)
				fprintf(f,
					"%s%s was interrupted: its runs are "
					"shorter\n",
					bullet, s->files[i].path);
	}
	if (c->unnamed) {
		for (size_t k = 0; k < c->nsides; k++)
			pick[k] = true;
		join_sides(c, pick, ", ", " and ", list, sizeof(list));
		fprintf(f,
			"%sthe sides are named %s in the order given: their "
			"kernel releases do not tell them apart (--label "
			"names them)\n",
			bullet, list);
	}
	free(vals);
	free(nvals);
	free(pick);
}

/* the --test choices are the modes, in order */
static const char *mode_name(enum il_res_test_mode m)
{
	static const char *const names[] = { "auto", "rank", "welch",
					     "bootstrap" };

	return (unsigned)m < 4 ? names[m] : "?";
}

/* "[ -1.20,  +3.40]": the interval of the pct imp */
static void fmt_ci(char *buf, size_t len, double lo, double hi)
{
	if (isnan(lo) || isnan(hi))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "[%+.2f, %+.2f]",
			 round(lo * 100) / 100 + 0.0,
			 round(hi * 100) / 100 + 0.0);
}

/* the smallest detectable change */
static void fmt_mde(char *buf, size_t len, double mde)
{
	if (isnan(mde))
		snprintf(buf, len, "n/a");
	else if (isinf(mde))
		snprintf(buf, len, "none");
	else
		snprintf(buf, len, "%.1f%%", mde);
}

/* the end of the block (group and metric) that starts at row i */
static size_t block_end(const struct cmp *c, size_t i)
{
	size_t j = i + 1;

	while (j < c->nrows && !c->rows[j].first_of_metric)
		j++;
	return j;
}

/*
 * "Median of per-run p50, p99; AMean of per-run mean; lower is better":
 * the statistic over runs each row of the block shows and tests.
 */
static void block_header(const struct cmp *c, size_t i, size_t end, char *buf,
			 size_t len)
{
	static const enum il_res_summary order[] = { IL_RES_SUM_MEDIAN,
						     IL_RES_SUM_AMEAN,
						     IL_RES_SUM_HMEAN };
	size_t used = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < 3; k++) {
		bool first = true;

		for (size_t r = i; r < end && used < len; r++) {
			bool again = false;

			if (row_base(c, &c->rows[r])->summary != order[k])
				continue;
			/* a sweep has a row of each statistic a value */
			for (size_t q = i; q < r && !again; q++)
				again = c->rows[q].st == c->rows[r].st &&
					row_base(c, &c->rows[q])->summary ==
						order[k];
			if (again)
				continue;
			used += (size_t)snprintf(
				buf + used, len - used, "%s%s%s",
				first ? (used ? "; " : "") : ", ",
				first ? il_res_summary_name(order[k]) : "",
				first ? " of per-run " : "");
			if (used < len)
				used += (size_t)snprintf(buf + used, len - used,
							 "%s",
							 row_stat(&c->rows[r]));
			first = false;
		}
	}
	if (used < len)
		snprintf(buf + used, len - used, "%s%s is better",
			 used ? "; " : "",
			 row_base(c, &c->rows[i])->higher_better ? "higher"
								 : "lower");
}

/*
 * The runs a side that would detect --plan on row r, tested or not (a
 * row with too few runs is planned for the family it would join); 0: no
 * spread seen (a side of one run has no CV, and il_res_plan_runs plans
 * nothing from a CV that is not a number).
 */
static size_t row_plan(const struct cmp *c, const struct il_res_cmp *r)
{
	size_t m = c->o.correction == IL_RES_CORR_NONE
			   ? 1
			   : c->family + c->too_few_runs;
	double cv = sqrt(
		(r->sb.cv_pct * r->sb.cv_pct + r->sc.cv_pct * r->sc.cv_pct) /
		2);

	return il_res_plan_runs(cv, c->plan, &c->o, m);
}

/*
 * The runs a side that would detect --plan on every row with runs; the
 * noisiest row in *worst (nrows when none), its side in *side.
 */
static size_t plan_runs(const struct cmp *c, size_t *worst, size_t *side)
{
	size_t most = 0;

	*worst = c->nrows;
	*side = 0;
	for (size_t i = 0; i < c->nrows; i++)
		for (size_t k = 0; k < ncand(c); k++) {
			size_t n = row_plan(c, &c->rows[i].c[k]);

			if (n > most) {
				most = n;
				*worst = i;
				*side = k + 1;
			}
		}
	return most;
}

static void print_summary(FILE *f, const struct cmp *c, bool md)
{
	size_t worst, side, n = plan_runs(c, &worst, &side);

	if (nway(c))
		fprintf(f,
			"%s%zu worse, %zu better, %zu no change, %zu too few "
			"runs (%s correction over %zu tests, every side "
			"against the baseline on every row, alpha %g, "
			"threshold %g%%, test %s; lower is better but for "
			"throughput; ratio = side / baseline, pct imp > 0 is "
			"better, CV over runs, CI95 of pct imp from the "
			"hierarchical bootstrap)\n",
			md ? "\n" : "", c->count[IL_RES_WORSE],
			c->count[IL_RES_BETTER], c->count[IL_RES_SAME],
			c->count[IL_RES_TOO_FEW],
			il_res_correction_name(c->o.correction), c->family,
			c->o.alpha, c->threshold, mode_name(c->o.mode));
	else
		fprintf(f,
			"%s%zu worse, %zu better, %zu no change, %zu too few "
			"runs (%s correction over %zu tested rows, alpha %g, "
			"threshold %g%%, test %s; lower is better but for "
			"throughput; ratio = candidate / baseline, pct imp > "
			"0 is better, CV over runs, CI95 of pct imp from the "
			"hierarchical bootstrap, detects = the smallest "
			"change these runs detect at 80%% power)\n",
			md ? "\n" : "", c->count[IL_RES_WORSE],
			c->count[IL_RES_BETTER], c->count[IL_RES_SAME],
			c->count[IL_RES_TOO_FEW],
			il_res_correction_name(c->o.correction), c->family,
			c->o.alpha, c->threshold, mode_name(c->o.mode));
	if (n)
		fprintf(f,
			"%splan: %zu runs a side would detect a %g%% change on "
			"every row with runs (80%% power, %s over %zu %s); "
			"the noisiest is %s %s %s%s%s%s%s%s%s\n",
			md ? "\n" : "", n, c->plan,
			il_res_correction_name(c->o.correction), c->family,
			nway(c) ? "tests" : "rows", c->rows[worst].group,
			c->rows[worst].metric, row_stat(&c->rows[worst]),
			c->by ? " at " : "", c->by ? c->by : "",
			c->by ? "=" : "", c->by ? c->rows[worst].by : "",
			nway(c) ? " against " : "",
			nway(c) ? c->labels[side] : "");
	else
		fprintf(f,
			"%splan: no row has two runs a side with a spread: "
			"give at least %zu runs a side (5 or more are usual)\n",
			md ? "\n" : "", il_res_runs_needed(c->o.alpha));
	if (c->too_few_runs)
		fprintf(f,
			"%s%s: %zu %s too few runs a side (the fewest: %zu) "
			"for a test over runs to reach alpha %g at all: "
			"%zu a side are needed%s%s\n",
			md ? "\n" : "",
			claims(c) ? "no claim on those" : "no claim",
			c->too_few_runs,
			nway(c) ? (c->too_few_runs == 1 ? "test has"
							: "tests have")
				: (c->too_few_runs == 1 ? "row has"
							: "rows have"),
			c->fewest_runs, c->o.alpha,
			il_res_runs_needed(c->o.alpha),
			c->fewest_runs == 1
				? "; one run a side shows how samples vary "
				  "within a boot, not how boots vary"
				: "",
			claims(c) ? "" : " (exit 77: not enough runs to tell)");
	/*
	 * The tests count runs; the runs of one file are one invocation's,
	 * in one boot and the machine's state of that moment, and two such
	 * files of one kernel can differ by more than their runs do.
	 */
	for (size_t k = 0; k < c->nsides && claims(c); k++)
		if (c->sides[k].nfiles == 1 && c->sides[k].nruns > 1)
			fprintf(f,
				"%snote: %s's %zu runs are from one file: runs "
				"of one invocation share its boot and the "
				"machine's state then, and a difference may be "
				"the invocations'; files of several boots tell "
				"(invlab-vm --boots)\n",
				md ? "\n" : "", side_ref(c, k),
				c->sides[k].nruns);
}

/* ---- text ------------------------------------------------------------ */

/* the sides in a fingerprint table: the baseline and this many more */
#define FP_SIDES (IL_TABLE_MAX_COLS - 3)

static void print_fp_text(FILE *f, const struct cmp *c)
{
	const char **vals = calloc(c->nsides, sizeof(*vals));
	int *nvals = calloc(c->nsides, sizeof(*nvals));

	if (!vals || !nvals) {
		free(vals);
		free(nvals);
		return;
	}
	/* many sides: several tables, the baseline in each */
	for (size_t k0 = 1; k0 < c->nsides; k0 += FP_SIDES) {
		size_t k1 =
			k0 + FP_SIDES < c->nsides ? k0 + FP_SIDES : c->nsides;
		struct il_table t;

		il_table_init(&t);
		il_table_col(&t, "kernel", false);
		il_table_col(&t, c->labels[0], false);
		for (size_t k = k0; k < k1; k++)
			il_table_col(&t, c->labels[k], false);
		il_table_col(&t, "", false);
		for (int i = 0; i < IL_RES_FP_N; i++) {
			bool differs = fp_differs(c, i, vals, nvals);

			il_table_cell(&t, "%s", fp_label(i));
			/* the command line is long: its difference is a
			 * note */
			il_table_cell(&t, "%.40s%s", vals[0],
				      strlen(vals[0]) > 40 ? "..." : "");
			for (size_t k = k0; k < k1; k++)
				il_table_cell(&t, "%.40s%s", vals[k],
					      strlen(vals[k]) > 40 ? "..."
								   : "");
			il_table_cell(&t, "%s", differs ? "DIFFERS" : "");
		}
		il_table_print(&t, f);
		il_table_free(&t);
	}
	free(vals);
	free(nvals);
}

static void row_cells(const struct cmp *c, const struct row *r, size_t k,
		      char *nc, char *p, char *pa, char *ci, char *mde,
		      size_t len)
{
	const struct il_res_cmp *x = &r->c[k];

	(void)c;
	fmt_norm(nc, len, x->ratio, x->pct_imp, x->sc.cv_pct);
	fmt_p(p, len, x->p);
	fmt_p(pa, len, x->p_adj);
	fmt_ci(ci, len, x->ci_lo, x->ci_hi);
	fmt_mde(mde, len, x->mde_pct);
}

/* the baseline's normalized cell: "1.00 [  0.00](CV)" */
static void base_norm(const struct cmp *c, const struct row *r, char *nb,
		      size_t len)
{
	const struct il_res_cmp *b = row_base(c, r);

	fmt_norm(nb, len, isnan(b->base) ? NAN : 1.0,
		 isnan(b->base) ? NAN : 0.0, b->sb.cv_pct);
}

/* the baseline's cell with more sides: "1.54ms ( 0.61)" */
static void base_cell(const struct cmp *c, const struct row *r, char *buf,
		      size_t len)
{
	const struct il_res_cmp *b = row_base(c, r);
	char v[24];

	if (isnan(b->sb.cv_pct))
		snprintf(buf, len, "%s (  n/a)",
			 fmt_value(v, sizeof(v), r, b->base));
	else
		snprintf(buf, len, "%s (%5.2f)",
			 fmt_value(v, sizeof(v), r, b->base), b->sb.cv_pct);
}

/* "5:5:4": the runs of the baseline and of sides k0 + 1 .. k1 */
static void runs_cell(const struct cmp *c, const struct row *r, size_t k0,
		      size_t k1, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "%zu", row_base(c, r)->sb.n);

	for (size_t k = k0; k < k1 && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, ":%zu",
					 r->c[k].sc.n);
}

/* two sides: the columns of the baseline and the candidate */
static void print_block_pair(FILE *f, const struct cmp *c, size_t i, size_t end)
{
	char nb[64], nc[64], vb[24], vc[24], p[64], pa[64], ci[64], mde[64];
	char chb[64];
	struct il_table t;

	il_table_init(&t);
	il_table_col(&t, "stat", false);
	if (c->by)
		il_table_col(&t, c->by, true);
	il_table_col(&t, c->labels[0], true);
	il_table_col(&t, c->labels[1], true);
	il_table_col(&t, c->labeled ? c->hnorm[0] : "base[pct imp](CV)", false);
	il_table_col(&t, c->labeled ? c->hnorm[1] : "cand[pct imp](CV)", false);
	il_table_col(&t, "CI95 pct imp", false);
	il_table_col(&t, "runs", true);
	il_table_col(&t, "p", true);
	il_table_col(&t, "p adj", true);
	il_table_col(&t, "test", false);
	il_table_col(&t, "detects", true);
	il_table_col(&t, "change", false);
	for (; i < end; i++) {
		const struct row *r = &c->rows[i];

		base_norm(c, r, nb, sizeof(nb));
		row_cells(c, r, 0, nc, p, pa, ci, mde, sizeof(nb));
		il_table_cell(&t, "%s", row_stat(r));
		if (c->by)
			il_table_cell(&t, "%s", r->by);
		il_table_cell(&t, "%s",
			      fmt_value(vb, sizeof(vb), r, r->c[0].base));
		il_table_cell(&t, "%s",
			      fmt_value(vc, sizeof(vc), r, r->c[0].cand));
		il_table_cell(&t, "%s", nb);
		il_table_cell(&t, "%s", nc);
		il_table_cell(&t, "%s", ci);
		il_table_cell(&t, "%zu:%zu", r->c[0].sb.n, r->c[0].sc.n);
		il_table_cell(&t, "%s", p);
		il_table_cell(&t, "%s", pa);
		il_table_cell(&t, "%s", il_res_test_name(r->c[0].test));
		il_table_cell(&t, "%s", mde);
		il_table_cell(&t, "%s",
			      change_text(&r->c[0], chb, sizeof(chb)));
	}
	il_table_print(&t, f);
	il_table_free(&t);
}

/* the columns of a block with more sides: fixed, then these a side */
#define NWAY_FIXED_COLS 4 /* stat, --by's value, the baseline (CV), runs */
#define NWAY_SIDE_COLS	4 /* [pct imp](CV), CI95, p adj, change */
#define NWAY_SIDES	((IL_TABLE_MAX_COLS - NWAY_FIXED_COLS) / NWAY_SIDE_COLS)

/*
 * Three sides or more: a column group a side, as many as a table holds
 * (the baseline repeated in each table).
 */
static void print_block_nway(FILE *f, const struct cmp *c, size_t i0,
			     size_t end)
{
	char nc[64], p[64], pa[64], ci[64], mde[64], b[64], runs[256];
	char chb[64];

	for (size_t k0 = 0; k0 < ncand(c); k0 += NWAY_SIDES) {
		size_t k1 =
			k0 + NWAY_SIDES < ncand(c) ? k0 + NWAY_SIDES : ncand(c);
		struct il_table t;

		il_table_init(&t);
		il_table_col(&t, "stat", false);
		if (c->by)
			il_table_col(&t, c->by, true);
		il_table_col(&t, c->hbase, true);
		il_table_col(&t, "runs", true);
		for (size_t k = k0; k < k1; k++) {
			il_table_col(&t, c->hnorm[k + 1], false);
			il_table_col(&t, "CI95 pct imp", false);
			il_table_col(&t, "p adj", true);
			il_table_col(&t, "change", false);
		}
		for (size_t i = i0; i < end; i++) {
			const struct row *r = &c->rows[i];

			base_cell(c, r, b, sizeof(b));
			runs_cell(c, r, k0, k1, runs, sizeof(runs));
			il_table_cell(&t, "%s", row_stat(r));
			if (c->by)
				il_table_cell(&t, "%s", r->by);
			il_table_cell(&t, "%s", b);
			il_table_cell(&t, "%s", runs);
			for (size_t k = k0; k < k1; k++) {
				row_cells(c, r, k, nc, p, pa, ci, mde,
					  sizeof(nc));
				il_table_cell(&t, "%s", nc);
				il_table_cell(&t, "%s", ci);
				il_table_cell(&t, "%s", pa);
				il_table_cell(&t, "%s",
					      change_text(&r->c[k], chb,
							  sizeof(chb)));
			}
		}
		il_table_print(&t, f);
		il_table_free(&t);
	}
}

static void print_text(FILE *f, const struct cmp *c)
{
	char head[512];

	if (!c->cfg->quiet) {
		print_sides_files(f, c, false);
		fputc('\n', f);
		print_fp_text(f, c);
		print_notes(f, c, false);
		fputc('\n', f);
	}
	for (size_t i = 0; i < c->nrows;) {
		size_t end = block_end(c, i);

		block_header(c, i, end, head, sizeof(head));
		fprintf(f, "%s%s %s: %s\n", i ? "\n" : "", c->rows[i].group,
			c->rows[i].metric, head);
		if (nway(c))
			print_block_nway(f, c, i, end);
		else
			print_block_pair(f, c, i, end);
		i = end;
	}
	il_ctr_cmp_print(f, &c->ctr, false);
	if (!c->cfg->quiet) {
		fputc('\n', f);
		print_summary(f, c, false);
	}
}

/* ---- markdown -------------------------------------------------------- */

/* a table cell: '|' would end it, a newline would end the row */
static void md_cell(FILE *f, const char *s, bool code)
{
	fputs(code ? " `" : " ", f);
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else if (*s == '\n' || *s == '\r')
			fputc(' ', f);
		else if (*s == '`' && code)
			fputc('\'', f);
		else
			fputc(*s, f);
	}
	fputs(code ? "` |" : " |", f);
}

/* "worse" and "better" stand out */
static const char *md_change(const struct il_res_cmp *x, char *buf, size_t len)
{
	const char *ch = change_text(x, buf, len);

	if (x->change != IL_RES_WORSE && x->change != IL_RES_BETTER)
		return ch;
	snprintf(buf, len, "**%s**", ch);
	return buf;
}

static void md_fingerprints(FILE *f, const struct cmp *c)
{
	const char **vals = calloc(c->nsides, sizeof(*vals));
	int *nvals = calloc(c->nsides, sizeof(*nvals));

	if (!vals || !nvals) {
		free(vals);
		free(nvals);
		return;
	}
	fputs("\n|", f);
	md_cell(f, "kernel", false);
	for (size_t k = 0; k < c->nsides; k++)
		md_cell(f, c->labels[k], false);
	fputs(" |\n|---|", f);
	for (size_t k = 0; k <= c->nsides; k++)
		fputs("---|", f);
	fputc('\n', f);
	for (int i = 0; i < IL_RES_FP_N; i++) {
		bool differs = fp_differs(c, i, vals, nvals);

		fputc('|', f);
		md_cell(f, fp_label(i), false);
		for (size_t k = 0; k < c->nsides; k++)
			md_cell(f, vals[k], true);
		md_cell(f, differs ? "**differs**" : "", false);
		fputc('\n', f);
	}
	free(vals);
	free(nvals);
}

static void md_block_pair(FILE *f, const struct cmp *c, size_t i, size_t end)
{
	char nb[64], nc[64], vb[24], vc[24], p[64], pa[64], ci[64], mde[64];
	char runs[32], chb[64];

	if (c->labeled || c->by) {
		fputc('|', f);
		md_cell(f, "stat", false);
		if (c->by)
			md_cell(f, c->by, false);
		md_cell(f, c->labels[0], false);
		md_cell(f, c->labels[1], false);
		md_cell(f, c->labeled ? c->hnorm[0] : "base [pct imp](CV)",
			false);
		md_cell(f, c->labeled ? c->hnorm[1] : "cand [pct imp](CV)",
			false);
		fprintf(f, " CI95 pct imp | runs | p | p adj | test | detects "
			   "| change |\n");
	} else {
		fprintf(f, "| stat | baseline | candidate | base [pct imp](CV) "
			   "| cand [pct imp](CV) | CI95 pct imp | runs | p | "
			   "p adj | test | detects | change |\n");
	}
	fprintf(f,
		"|---|%s---:|---:|---|---|---|---:|---:|---:|---|---:|"
		"---|\n",
		c->by ? "---:|" : "");
	for (; i < end; i++) {
		const struct row *r = &c->rows[i];

		base_norm(c, r, nb, sizeof(nb));
		row_cells(c, r, 0, nc, p, pa, ci, mde, sizeof(nb));
		snprintf(runs, sizeof(runs), "%zu:%zu", r->c[0].sb.n,
			 r->c[0].sc.n);
		fputc('|', f);
		md_cell(f, row_stat(r), false);
		if (c->by)
			md_cell(f, r->by, false);
		md_cell(f, fmt_value(vb, sizeof(vb), r, r->c[0].base), false);
		md_cell(f, fmt_value(vc, sizeof(vc), r, r->c[0].cand), false);
		md_cell(f, nb, true);
		md_cell(f, nc, true);
		md_cell(f, ci, false);
		md_cell(f, runs, false);
		md_cell(f, p, false);
		md_cell(f, pa, false);
		md_cell(f, il_res_test_name(r->c[0].test), false);
		md_cell(f, mde, false);
		md_cell(f, md_change(&r->c[0], chb, sizeof(chb)), false);
		fputc('\n', f);
	}
}

/* three sides or more: one table, a column group a side */
static void md_block_nway(FILE *f, const struct cmp *c, size_t i, size_t end)
{
	char nc[64], p[64], pa[64], ci[64], mde[64], b[64], runs[256], chb[64];

	fputc('|', f);
	md_cell(f, "stat", false);
	if (c->by)
		md_cell(f, c->by, false);
	md_cell(f, c->hbase, false);
	md_cell(f, "runs", false);
	for (size_t k = 1; k < c->nsides; k++) {
		md_cell(f, c->hnorm[k], false);
		fputs(" CI95 pct imp | p adj | change |", f);
	}
	fputs(c->by ? "\n|---|---:|---:|---:|" : "\n|---|---:|---:|", f);
	for (size_t k = 1; k < c->nsides; k++)
		fputs("---|---|---:|---|", f);
	fputc('\n', f);
	for (; i < end; i++) {
		const struct row *r = &c->rows[i];

		base_cell(c, r, b, sizeof(b));
		runs_cell(c, r, 0, ncand(c), runs, sizeof(runs));
		fputc('|', f);
		md_cell(f, row_stat(r), false);
		if (c->by)
			md_cell(f, r->by, false);
		md_cell(f, b, false);
		md_cell(f, runs, false);
		for (size_t k = 0; k < ncand(c); k++) {
			row_cells(c, r, k, nc, p, pa, ci, mde, sizeof(nc));
			md_cell(f, nc, true);
			md_cell(f, ci, false);
			md_cell(f, pa, false);
			md_cell(f, md_change(&r->c[k], chb, sizeof(chb)),
				false);
		}
		fputc('\n', f);
	}
}

static void print_markdown(FILE *f, const struct cmp *c)
{
	char head[512];

	if (!c->cfg->quiet) {
		fprintf(f, "### invlab-compare\n\n");
		print_sides_files(f, c, true);
		md_fingerprints(f, c);
		fputc('\n', f);
		print_notes(f, c, true);
		fputc('\n', f);
	}
	for (size_t i = 0; i < c->nrows;) {
		size_t end = block_end(c, i);

		block_header(c, i, end, head, sizeof(head));
		fprintf(f, "%s**", i ? "\n" : "");
		md_text(f, c->rows[i].group);
		fputs("** `", f);
		/* a code span: nothing is markup in it but a backtick */
		for (const char *m = c->rows[i].metric; *m; m++)
			fputc(*m == '`' ? '\'' : *m == '\n' ? ' ' : *m, f);
		fprintf(f, "`: %s\n\n", head);
		if (nway(c))
			md_block_nway(f, c, i, end);
		else
			md_block_pair(f, c, i, end);
		i = end;
	}
	il_ctr_cmp_print(f, &c->ctr, true);
	if (!c->cfg->quiet)
		print_summary(f, c, true);
}

/* ---- JSON ------------------------------------------------------------ */

static void json_side(struct il_json *j, const char *key,
		      const struct il_res_set *s, const char *label)
{
	il_json_begin_object(j, key);
	if (label)
		il_json_str(j, "label", label);
	il_json_begin_array(j, "files");
	for (size_t i = 0; i < s->nfiles; i++)
		il_json_str(j, NULL, s->files[i].path);
	il_json_end_array(j);
	il_json_begin_object(j, "kernel");
	for (int i = 0; i < IL_RES_FP_N; i++) {
		int n;
		const char *v = il_res_set_fp(s, i, &n);

		il_json_str(j, il_res_fp_key(i), n > 1 ? NULL : v);
	}
	il_json_end_object(j);
	il_json_end_object(j);
}

/* a number, or null when it is not one */
static void json_num(struct il_json *j, const char *key, double v)
{
	il_json_double(j, key, v);
}

/* one side's value of a row: {value_ns (rate), runs, cv_pct} */
static void json_value(struct il_json *j, const struct row *r, double v,
		       const struct il_res_spread *s)
{
	json_num(j, r->rate ? "rate" : "value_ns", v);
	il_json_uint(j, "runs", s->n);
	json_num(j, "cv_pct", s->cv_pct);
}

/* what a row says of one side against the baseline */
static void json_verdict(struct il_json *j, const struct cmp *c,
			 const struct il_res_cmp *x)
{
	json_num(j, "ratio", x->ratio);
	json_num(j, "pct_improvement", x->pct_imp);
	il_json_begin_array(j, "pct_improvement_ci95");
	json_num(j, NULL, x->ci_lo);
	json_num(j, NULL, x->ci_hi);
	il_json_end_array(j);
	if (x->test == IL_RES_T_NONE)
		il_json_null(j, "test");
	else
		il_json_str(j, "test", il_res_test_name(x->test));
	json_num(j, "p_value", x->p);
	json_num(j, "p_adjusted", x->p_adj);
	if (isinf(x->mde_pct))
		il_json_str(j, "detectable_pct", "none");
	else
		json_num(j, "detectable_pct", x->mde_pct);
	il_json_uint(j, "plan_runs_per_side", row_plan(c, x));
	il_json_str(j, "change", il_res_change_name(x->change));
	il_json_uint(j, "runs_needed_per_side", x->runs_needed);
}

/* the differences between the sides: [{field or key, baseline, ...}] */
static void json_differences(struct il_json *j, const struct cmp *c)
{
	const char **vals = calloc(c->nsides, sizeof(*vals));
	int *nvals = calloc(c->nsides, sizeof(*nvals));

	il_json_begin_array(j, "kernel_differences");
	for (int i = 0; vals && nvals && i < IL_RES_FP_N; i++) {
		if (!fp_differs(c, i, vals, nvals))
			continue;
		il_json_begin_object(j, NULL);
		il_json_str(j, "field", il_res_fp_key(i));
		il_json_str(j, "baseline", nvals[0] > 1 ? NULL : vals[0]);
		if (nway(c)) {
			il_json_begin_array(j, "candidates");
			for (size_t k = 1; k < c->nsides; k++)
				il_json_str(j, NULL,
					    nvals[k] > 1 ? NULL : vals[k]);
			il_json_end_array(j);
		} else {
			il_json_str(j, "candidate",
				    nvals[1] > 1 ? NULL : vals[1]);
		}
		il_json_end_object(j);
	}
	il_json_end_array(j);
	il_json_begin_array(j, "scenario_differences");
	for (size_t i = 0; vals && i < c->nskeys; i++) {
		const char *key = c->skeys[i];

		if (!scenario_differs(c, key, vals))
			continue;
		il_json_begin_object(j, NULL);
		il_json_str(j, "key", key);
		il_json_str(j, "baseline", vals[0]);
		if (nway(c)) {
			il_json_begin_array(j, "candidates");
			for (size_t x = 1; x < c->nsides; x++)
				il_json_str(j, NULL, vals[x]);
			il_json_end_array(j);
		} else {
			il_json_str(j, "candidate", vals[1]);
		}
		il_json_end_object(j);
	}
	il_json_end_array(j);
	free(vals);
	free(nvals);
}

static void json_rows(struct il_json *j, const struct cmp *c)
{
	il_json_begin_array(j, "comparisons");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct row *r = &c->rows[i];
		const struct il_res_cmp *b = row_base(c, r);

		il_json_begin_object(j, NULL);
		il_json_str(j, "configuration", r->group);
		il_json_str(j, "metric", r->metric);
		il_json_str(j, "stat", row_stat(r));
		if (c->by)
			il_json_str(j, "by", r->by);
		il_json_begin_object(j, "baseline");
		json_value(j, r, b->base, &b->sb);
		il_json_end_object(j);
		if (!nway(c)) {
			il_json_begin_object(j, "candidate");
			json_value(j, r, r->c[0].cand, &r->c[0].sc);
			il_json_end_object(j);
		}
		il_json_str(j, "summary", il_res_summary_name(b->summary));
		il_json_str(j, "better", b->higher_better ? "higher" : "lower");
		if (!nway(c)) {
			json_verdict(j, c, &r->c[0]);
			il_json_end_object(j);
			continue;
		}
		il_json_begin_array(j, "candidates");
		for (size_t k = 0; k < ncand(c); k++) {
			il_json_begin_object(j, NULL);
			il_json_str(j, "label", c->labels[k + 1]);
			json_value(j, r, r->c[k].cand, &r->c[k].sc);
			json_verdict(j, c, &r->c[k]);
			il_json_end_object(j);
		}
		il_json_end_array(j);
		il_json_end_object(j);
	}
	il_json_end_array(j);
}

static void json_missing(struct il_json *j, const struct cmp *c)
{
	if (!nway(c)) {
		il_json_begin_array(j, "only_in_one_side");
		for (size_t i = 0; i < c->nmiss; i++) {
			il_json_begin_object(j, NULL);
			il_json_str(j, "side",
				    c->miss[i].in[0] ? "baseline"
						     : "candidate");
			il_json_str(j, "configuration", c->miss[i].group);
			il_json_end_object(j);
		}
		il_json_end_array(j);
		return;
	}
	il_json_begin_array(j, "not_in_every_side");
	for (size_t i = 0; i < c->nmiss; i++) {
		il_json_begin_object(j, NULL);
		il_json_str(j, "configuration", c->miss[i].group);
		il_json_begin_array(j, "in");
		for (size_t k = 0; k < c->nsides; k++)
			if (c->miss[i].in[k])
				il_json_str(j, NULL, c->labels[k]);
		il_json_end_array(j);
		il_json_end_object(j);
	}
	il_json_end_array(j);
}

static int write_json(FILE *f, const struct cmp *c, int rc)
{
	struct il_json j;
	size_t worst, side;

	il_json_init(&j, f);
	if (c->cfg->json_pretty)
		il_json_set_pretty(&j, true);
	il_json_begin_object(&j, NULL);
	il_json_int(&j, "schema_version", IL_JSON_SCHEMA_VERSION);
	il_json_str(&j, "program", "invlab-compare");
	il_json_str(&j, "version", il_version());
	il_json_begin_array(&j, "command_line");
	for (int i = 0; i < c->argc; i++)
		il_json_str(&j, NULL, c->argv[i]);
	il_json_end_array(&j);
	il_json_begin_object(&j, "settings");
	il_json_str(&j, "test", mode_name(c->o.mode));
	il_json_double(&j, "alpha", c->o.alpha);
	il_json_str(&j, "correction", il_res_correction_name(c->o.correction));
	il_json_uint(&j, "tested_rows", c->family);
	il_json_double(&j, "threshold_pct", c->threshold);
	il_json_double(&j, "plan_pct", c->plan);
	il_json_uint(&j, "plan_runs_per_side", plan_runs(c, &worst, &side));
	il_json_uint(&j, "seed", c->o.seed);
	il_json_uint(&j, "resamples", c->o.resamples);
	il_json_str(&j, "distributions", il_res_dist_backend());
	il_json_str(&j, "better", "lower, higher for throughput");
	if (c->by)
		il_json_str(&j, "by", c->by);
	il_json_end_object(&j);
	json_side(&j, "baseline", &c->sides[0],
		  c->labeled || nway(c) ? c->labels[0] : NULL);
	if (nway(c)) {
		il_json_begin_array(&j, "candidates");
		for (size_t k = 1; k < c->nsides; k++)
			json_side(&j, NULL, &c->sides[k], c->labels[k]);
		il_json_end_array(&j);
	} else {
		json_side(&j, "candidate", &c->sides[1],
			  c->labeled ? c->labels[1] : NULL);
	}
	json_differences(&j, c);
	json_rows(&j, c);
	json_missing(&j, c);
	il_ctr_cmp_json(&j, &c->ctr);
	il_json_begin_object(&j, "summary");
	il_json_uint(&j, "worse", c->count[IL_RES_WORSE]);
	il_json_uint(&j, "better", c->count[IL_RES_BETTER]);
	il_json_uint(&j, "no_change", c->count[IL_RES_SAME]);
	il_json_uint(&j, "too_few_runs", c->count[IL_RES_TOO_FEW]);
	il_json_bool(&j, "claims", claims(c));
	il_json_uint(&j, "runs_needed_per_side",
		     il_res_runs_needed(c->o.alpha));
	il_json_end_object(&j);
	il_json_int(&j, "return_code", rc);
	il_json_end_object(&j);
	fputc('\n', f);
	return il_json_error(&j) || ferror(f) ? -EIO : 0;
}

/* ---- command line ---------------------------------------------------- */

/* --summary: NAME, METRIC=NAME or METRIC.STAT=NAME, comma-separated */
static int parse_summary(struct cmp *c, char *err, size_t len)
{
	char *copy = strdup(c->cfg->summary), *save = NULL;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (char *s = strtok_r(copy, ",", &save); s && !ret;
	     s = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(s, '='), **nk;
		const char *name = eq ? eq + 1 : s;
		enum il_res_summary v, *nv;

		if (il_res_summary_parse(name, &v) || v == IL_RES_SUM_AUTO) {
			snprintf(err, len,
				 "--summary: '%s' is not amean, hmean or "
				 "median (as NAME, METRIC=NAME or "
				 "METRIC.STAT=NAME)",
				 name);
			ret = -EINVAL;
			break;
		}
		if (eq)
			*eq = '\0';
		nk = realloc(c->sum_key, (c->nsum + 1) * sizeof(*nk));
		if (nk)
			c->sum_key = nk;
		nv = realloc(c->sum_val, (c->nsum + 1) * sizeof(*nv));
		if (nv)
			c->sum_val = nv;
		if (!nk || !nv || !(nk[c->nsum] = strdup(eq ? s : ""))) {
			ret = -ENOMEM;
			snprintf(err, len, "out of memory");
			break;
		}
		nv[c->nsum++] = v;
	}
	free(copy);
	return ret;
}

static int parse_lists(struct cmp *c, char *err, size_t len)
{
	const struct cfg *cfg = c->cfg;
	char *copy, *save = NULL, *end;
	double a;

	if (il_res_parse_alpha(cfg->alpha, &c->o.alpha, err, len))
		return -EINVAL;
	errno = 0;
	a = strtod(cfg->threshold, &end);
	if (errno || end == cfg->threshold || *end || !(a >= 0 && a <= 100)) {
		snprintf(err, len,
			 "--threshold: '%s' is not a percentage from 0 to 100 "
			 "(e.g. 2)",
			 cfg->threshold);
		return -EINVAL;
	}
	c->threshold = c->o.threshold_pct = a;
	errno = 0;
	a = strtod(cfg->plan, &end);
	if (errno || end == cfg->plan || *end || !(a > 0 && a <= 100)) {
		snprintf(err, len,
			 "--plan: '%s' is not a percentage above 0 and up to "
			 "100 (e.g. 5)",
			 cfg->plan);
		return -EINVAL;
	}
	c->plan = a;
	if (cfg->summary && parse_summary(c, err, len))
		return -EINVAL;
	if (cfg->by && !cfg->by[0]) {
		snprintf(err, len, "--by: no key given (e.g. groups)");
		return -EINVAL;
	}
	c->by = cfg->by;

	copy = strdup(cfg->stat);
	if (!copy)
		return -ENOMEM;
	for (char *s = strtok_r(copy, ",", &save); s;
	     s = strtok_r(NULL, ",", &save)) {
		enum il_res_stat st;

		if (il_res_stat_parse(s, &st) || st == IL_RES_COUNT) {
			snprintf(err, len,
				 "--stat: unknown statistic '%s' "
				 "(known: min, mean, p50, p90, p99, p999, "
				 "p9999, max)",
				 s);
			free(copy);
			return -EINVAL;
		}
		if (c->nstats < MAX_STATS)
			c->stats[c->nstats++] = st;
	}
	free(copy);
	if (!c->nstats) {
		snprintf(err, len, "--stat: no statistic given");
		return -EINVAL;
	}
	if (cfg->metric) {
		size_t n = 0;

		copy = strdup(cfg->metric);
		if (!copy)
			return -ENOMEM;
		save = NULL;
		for (char *s = strtok_r(copy, ",", &save); s;
		     s = strtok_r(NULL, ",", &save))
			if (push_str(&c->metrics, &n, s)) {
				free(copy);
				return -ENOMEM;
			}
		free(copy);
		c->nmetrics = (int)n;
		if (!n) {
			snprintf(err, len, "--metric: no histogram given");
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * --metric names a histogram some run of some side has: one that none
 * has is a typo (blokced_ns), which would otherwise leave nothing to
 * compare (exit 77, a SKIP to a lab).  0, or -EINVAL with the closest
 * name in err; -ENOMEM.
 */
static int metrics_fit(const struct cmp *c, char *err, size_t len)
{
	const char **names;
	size_t cap = 1, n = 0;
	int ret = 0;

	for (size_t sd = 0; sd < c->nsides; sd++)
		for (size_t k = 0; k < c->sides[sd].ngroups; k++)
			cap += c->sides[sd].groups[k].nmetrics;
	names = calloc(cap, sizeof(*names));
	if (!names)
		return -ENOMEM;
	for (size_t sd = 0; sd < c->nsides; sd++)
		for (size_t k = 0; k < c->sides[sd].ngroups; k++)
			for (size_t m = 0; m < c->sides[sd].groups[k].nmetrics;
			     m++)
				names[n++] =
					c->sides[sd].groups[k].metrics[m].name;
	for (int i = 0; i < c->nmetrics && !ret; i++) {
		const char *sug;
		bool found = false;

		for (size_t k = 0; k < n && !found; k++)
			found = !strcmp(names[k], c->metrics[i]);
		if (found)
			continue;
		sug = il_suggest(c->metrics[i], names, n);
		snprintf(err, len,
			 "--metric: no histogram '%s' in the results%s%s%s",
			 c->metrics[i], sug ? "; did you mean '" : "",
			 sug ? sug : "", sug ? "'?" : "");
		ret = -EINVAL;
	}
	free(names);
	return ret;
}

/* the sides' names (il_res_side_labels) and the headers made of them */
static int make_labels(struct cmp *c)
{
	const struct il_strlist *l = &c->cfg->label;
	bool releases;
	char buf[300];

	c->labels = calloc(c->nsides, sizeof(*c->labels));
	c->hnorm = calloc(c->nsides, sizeof(*c->hnorm));
	if (!c->labels || !c->hnorm)
		return -ENOMEM;
	c->labeled = l->n > 0;
	if (il_res_side_labels(c->sides, c->nsides, l, c->labels, &releases))
		return -ENOMEM;
	c->unnamed = nway(c) && !l->n && !releases;
	for (size_t k = 0; k < c->nsides; k++) {
		snprintf(buf, sizeof(buf), "%s[pct imp](CV)", c->labels[k]);
		if (!(c->hnorm[k] = strdup(buf)))
			return -ENOMEM;
	}
	snprintf(buf, sizeof(buf), "%s (CV)", c->labels[0]);
	c->hbase = strdup(buf);
	return c->hbase ? 0 : -ENOMEM;
}

static void free_cmp(struct cmp *c)
{
	for (size_t k = 0; c->sides && k < c->nsides; k++)
		il_res_set_free(&c->sides[k]);
	free(c->sides);
	free(c->nfiles);
	if (c->npaths)
		il_res_free_paths(c->files, c->npaths);
	for (size_t k = 0; c->labels && k < c->nsides; k++)
		free(c->labels[k]);
	free(c->labels);
	for (size_t k = 0; c->hnorm && k < c->nsides; k++)
		free(c->hnorm[k]);
	free(c->hnorm);
	free(c->hbase);
	free(c->values);
	for (int i = 0; i < c->nmetrics; i++)
		free(c->metrics[i]);
	free(c->metrics);
	for (size_t i = 0; i < c->nnames; i++)
		free(c->names[i]);
	free(c->names);
	for (size_t i = 0; i < c->nmiss; i++) {
		free(c->miss[i].group);
		free(c->miss[i].in);
	}
	free(c->miss);
	for (size_t i = 0; i < c->nsum; i++)
		free(c->sum_key[i]);
	free(c->sum_key);
	free(c->sum_val);
	for (size_t i = 0; i < c->nrows; i++)
		free(c->rows[i].c);
	free(c->rows);
	free(c->argv);
	il_ctr_cmp_free(&c->ctr);
	il_ctr_cmp_acc_free(c->acc);
	free(c->skeys);
}

/*
 * The sides from the operands: two files, or files parted by "--".
 * 0, or the exit status with the message in err.
 */
static int split_sides(struct cmp *c, char **ops, int nops, int after,
		       char *err, size_t len)
{
	int ns = 2, ret;

	c->nfiles = calloc((size_t)nops + 2, sizeof(*c->nfiles));
	if (!c->nfiles) {
		snprintf(err, len, "out of memory");
		return 99;
	}
	c->files = ops;
	if (after < 0) {
		if (nops != 2) {
			snprintf(err, len,
				 "give BASE.json CAND.json, or BASE.json... -- "
				 "CAND.json... [-- MORE.json...] (got %d "
				 "file%s)",
				 nops, nops == 1 ? "" : "s");
			return 2;
		}
		c->nfiles[0] = c->nfiles[1] = 1;
	} else if (il_res_split_sides(ops, nops, after, c->nfiles, &ns, err,
				      len)) {
		return 2;
	}
	c->nsides = (size_t)ns;
	if (il_res_labels_check(&c->cfg->label, c->nsides, err, len))
		return 2;
	/* a directory stands for its result files (args.h) */
	ret = il_res_expand_dirs(ops, ns, c->nfiles, &c->files, &c->npaths, err,
				 len);
	if (ret)
		return ret == -ENOENT ? 2 : 99;
	c->sides = calloc(c->nsides, sizeof(*c->sides));
	if (!c->sides) {
		snprintf(err, len, "out of memory");
		return 99;
	}
	return 0;
}

/*
 * Every side's files read, each parsed once for its histograms and its
 * counters and freed before the next: memory holds the per-run values,
 * never more than one document.  0, or the exit status with err.
 */
static int load_sides(struct cmp *c, char *err, size_t len)
{
	char **p = c->files;

	for (size_t k = 0; k < c->nsides; k++) {
		il_res_set_init(&c->sides[k], false);
		c->sides[k].max_input = c->cfg->max_input;
		c->sides[k].by = c->by;
	}
	c->acc = il_ctr_cmp_acc_new((int)c->nsides, c->by);
	if (!c->acc) {
		snprintf(err, len, "out of memory");
		return 99;
	}
	for (size_t k = 0; k < c->nsides; k++)
		for (int i = 0; i < c->nfiles[k]; i++, p++) {
			struct json_object *root;
			int ret;

			root = il_res_parse_lean(*p, c->cfg->max_input, err,
						 len, &ret);
			if (!root)
				return il_res_load_status(ret);
			ret = il_res_set_add_json(&c->sides[k], root, *p, err,
						  len);
			if (ret) {
				json_object_put(root);
				return il_res_load_status(ret);
			}
			/* not -ENOKEY: the set found every run's key */
			ret = il_ctr_cmp_add_json(c->acc, (int)k, root, *p, err,
						  len);
			json_object_put(root);
			if (ret)
				return 99;
		}
	return 0;
}

int main(int argc, char **argv)
{
	static const char usage[] =
		"[OPTIONS] BASE.json CAND.json\n"
		"   or: invlab-compare [OPTIONS] BASE.json... -- CAND.json... "
		"[-- MORE.json...]";
	static const char summary[] =
		"Compare invlab result files: for each configuration, "
		"histogram and statistic, the candidate normalized to the "
		"baseline as 'ratio [pct imp](CV)' (positive pct imp is "
		"better: lower latency is better; CV is over runs).  A side's "
		"value is its per-run values summarized (AMean for a mean, "
		"Median for percentiles, HMean for throughput; named in each "
		"block's header).  Every row is tested over the runs, all rows "
		"are corrected together (Holm by default), and a row reads "
		"worse or better only when significant after the correction "
		"and beyond --threshold (default 2%); else 'no change'.  A row "
		"whose runs a side are too few for any test over runs to "
		"reach --alpha (4 a side at 0.05; one run a side shows one "
		"boot, not how boots differ) claims nothing: 'too few runs: "
		"N a side, need M'.  Each "
		"row shows the 95% interval of its change and the smallest "
		"change its runs detect; the closing line how many runs a "
		"side would detect a --plan change.  With two "
		"files the first is the baseline; with more, the files before "
		"'--' are the baseline and those after it the candidate "
		"(options go before '--'); a directory stands for the *.json "
		"files in it, in name order (a lab's thousands of files need "
		"not fit on a command line).  Another '--' starts another side "
		"(kernels side by side): every side is compared with the "
		"baseline, a column group each in one table per histogram, "
		"and the correction counts every side's test of every row; "
		"--label names the sides.  --by KEY makes each value of KEY "
		"(a sweep: sched-messaging's groups, a job's --set key) a "
		"row.  The kernel fingerprints of all "
		"sides are shown and their differences pointed out.  A "
		"counters block follows: each run's scheduler counters and "
		"sched-messaging's wall time, AMean a side, delta %, the rank "
		"test over runs (the wall time decided, lower is better; the "
		"counters shown, not judged).  Exit "
		"status: 0 nothing is worse, 1 a row is worse, 2 "
		"bad usage, 77 nothing in common to compare or no claim at "
		"all (every row too few runs), 99 a file cannot be read.";
	struct cfg cfg;
	struct cmp c;
	char err[512];
	int after, first, rc = 0, ret;
	bool any = false;

#ifdef M_MMAP_THRESHOLD
	/*
	 * A fixed threshold keeps the per-run values' arrays, which grow by
	 * doubling to megabytes, out of the heap where json-c makes and
	 * frees some 10^4 small objects a file: glibc's sliding threshold
	 * moves them into the heap after the first is freed, and the holes
	 * they leave made every parse slower as the files went on (10,000
	 * files a side: 37 s of CPU against 49 s).
	 */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
	memset(&cfg, 0, sizeof(cfg));
	memset(&c, 0, sizeof(c));
	c.cfg = &cfg;
	/* the command line as typed: il_opt_parse reorders argv */
	c.argc = argc;
	c.argv = calloc((size_t)argc + 1, sizeof(*c.argv));
	if (!c.argv) {
		fprintf(stderr, "invlab-compare: out of memory\n");
		return 99;
	}
	memcpy(c.argv, argv, (size_t)argc * sizeof(*argv));
	after = il_res_count_after_dashdash(argc, argv);
	first = il_opt_parse(argc, argv, tables, &cfg, err, sizeof(err));
	if (first < 0) {
		fprintf(stderr,
			"invlab-compare: %s\n"
			"Try 'invlab-compare --help'.\n",
			err);
		free_cmp(&c);
		return 2;
	}
	if (cfg.help || cfg.version) {
		if (cfg.help)
			il_opt_help(stdout, "invlab-compare", usage, summary,
				    tables);
		else
			printf("invlab-compare %s (%s)\n", il_version(),
			       il_features());
		free_cmp(&c);
		return 0;
	}
	/* an output that cannot be written is found before any work */
	if (cfg.json && il_afile_check(cfg.json, err, sizeof(err))) {
		fprintf(stderr, "invlab-compare: --json: %s\n", err);
		free_cmp(&c);
		return 2;
	}
	if (parse_lists(&c, err, sizeof(err))) {
		fprintf(stderr, "invlab-compare: %s\n", err);
		free_cmp(&c);
		return 2;
	}
	c.o.mode = (enum il_res_test_mode)cfg.test;
	c.o.correction = (enum il_res_correction)cfg.correction;
	c.o.seed = (uint64_t)cfg.seed;
	c.o.resamples = (unsigned)cfg.resamples;
	c.o.power = 0.8;
	ret = split_sides(&c, argv + first, argc - first, after, err,
			  sizeof(err));
	if (!ret)
		ret = load_sides(&c, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "invlab-compare: %s\n", err);
		free_cmp(&c);
		return ret;
	}
	ret = metrics_fit(&c, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "invlab-compare: %s\n",
			ret == -ENOMEM ? "out of memory" : err);
		free_cmp(&c);
		return ret == -ENOMEM ? 99 : 2;
	}
	if (make_labels(&c) || collect_scenario_keys(&c) || build(&c) ||
	    decide(&c)) {
		fprintf(stderr, "invlab-compare: out of memory\n");
		free_cmp(&c);
		return 99;
	}
	/* the counters and wall times of the same files (counters-cmp.h) */
	ret = il_ctr_cmp_finish(
		c.acc,
		c.labeled || nway(&c) ? (const char *const *)c.labels : NULL,
		&c.o, &c.ctr, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "invlab-compare: %s\n", err);
		free_cmp(&c);
		return 99;
	}
	for (size_t i = 0; i < c.nrows; i++)
		for (size_t k = 0; k < ncand(&c); k++)
			if (c.rows[i].c[k].change != IL_RES_NA)
				any = true;
	any = any || c.ctr.n;
	if (!any)
		rc = 77;
	else if (c.count[IL_RES_WORSE] || c.ctr.worse)
		rc = 1;
	else if (!claims(&c))
		rc = 77;

	switch (cfg.format) {
	case F_MARKDOWN:
		print_markdown(stdout, &c);
		break;
	case F_JSON:
		write_json(stdout, &c, rc);
		break;
	default:
		print_text(stdout, &c);
		break;
	}
	if (rc == 77 && !any)
		fprintf(stderr,
			"invlab-compare: nothing to compare: no "
			"configuration and histogram with values on %s\n",
			nway(&c) ? "the baseline and another side"
				 : "both sides");
	else if (rc == 77)
		fprintf(stderr,
			"invlab-compare: no claim: every row has too few runs "
			"a side (the fewest: %zu; %zu a side are needed at "
			"alpha %g)\n",
			c.fewest_runs, il_res_runs_needed(c.o.alpha),
			c.o.alpha);
	if (cfg.json) {
		struct il_afile af;

		ret = il_afile_open(&af, cfg.json);
		if (ret) {
			fprintf(stderr,
				"invlab-compare: --json: cannot create "
				"'%s': %s\n",
				cfg.json, strerror(-ret));
			free_cmp(&c);
			return 99;
		}
		ret = write_json(af.f, &c, rc);
		if (ret)
			il_afile_abort(&af);
		else
			ret = il_afile_commit(&af);
		if (ret) {
			fprintf(stderr,
				"invlab-compare: --json: cannot write "
				"'%s': %s\n",
				cfg.json, strerror(-ret));
			free_cmp(&c);
			return 99;
		}
	}
	fflush(stdout);
	free_cmp(&c);
	return rc;
}
