// SPDX-License-Identifier: MIT
/*
 * invlab-compare: a candidate's results normalized to a baseline's, in the
 * format kernel reviewers use, with the kernels' fingerprints side by side.
 *
 *   invlab-compare base.json cand.json
 *   invlab-compare --format markdown base-*.json -- cand-*.json
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
 * Each row also shows the 95 % interval of its change and the smallest
 * change its runs could detect; the closing line how many runs a side
 * would detect a --plan change.
 *
 * Exit: 0 compared and nothing worse, 1 something is worse (significant
 * after the correction and beyond the threshold), 2 bad usage, 77
 * nothing in common to compare, 99 a result file cannot be read.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
		  "When each side is a single run, a pooled-sample test, "
		  "labelled so, whatever TEST is" },
	IL_RES_OPT_ALPHA(O(alpha),
			 "significance level of the whole comparison: a row is "
			 "significant when its corrected p-value is below P "
			 "(0 < P <= 0.5)"),
	IL_RES_OPT_CORRECTION(
		O(correction),
		"correction for testing all rows of the comparison "
		"together: holm bounds the chance of any false 'worse' or "
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
	const char *metric;
	enum il_res_stat st;
	struct il_res_cmp c;
	bool rate; /* a count over trials: values are rates (results.h) */
	bool first_of_group, first_of_metric;
};

struct cmp {
	const struct cfg *cfg;
	struct il_res_cmp_opts o;
	struct il_res_set base, cand;
	enum il_res_stat stats[MAX_STATS];
	int nstats;
	char **metrics; /* NULL: all */
	int nmetrics;
	struct row *rows;
	size_t nrows, cap;
	char **names; /* group labels */
	size_t nnames;
	char **only; /* groups found on one side only, "baseline: x" */
	size_t nonly;
	size_t count[IL_RES_WORSE + 1];
	size_t family; /* rows with a test: what the correction counts */
	double threshold, plan;
	/* --summary: "metric", "metric.stat" or "" (every row) -> summary */
	char **sum_key;
	enum il_res_summary *sum_val;
	size_t nsum;
	int argc;
	char **argv;
	struct il_ctr_cmp ctr; /* the counters block (counters-cmp.h) */
};

/* ---- helpers --------------------------------------------------------- */

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

static int add_row(struct cmp *c, const char *group, const char *metric,
		   enum il_res_stat st, const struct il_res_cmp *r)
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
		.group = group, .metric = metric, .st = st, .c = *r
	};
	c->nrows++;
	return 0;
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

/*
 * Compare every statistic of every metric of one group that both sides
 * have, in the baseline's order; a metric on one side only has nothing to
 * compare with (rows where neither side has a value are left out too).
 */
static int compare_group(struct cmp *c, const struct il_res_group *gb,
			 const struct il_res_group *gc, const char *label)
{
	for (size_t m = 0; m < gb->nmetrics; m++) {
		const char *name = gb->metrics[m].name;
		const struct il_res_metric *mb = &gb->metrics[m], *mc;
		bool first = true;

		mc = il_res_group_metric(gc, name);
		if (!mc || !metric_wanted(c, name))
			continue;
		for (int s = 0; s < c->nstats; s++) {
			struct il_res_cmp_opts o = c->o;
			struct il_res_cmp r;

			/* of a count, only the mean (the rate) means anything
			 */
			if ((mb->rate || mc->rate) &&
			    c->stats[s] != IL_RES_MEAN)
				continue;
			o.summary = summary_for(c, name, c->stats[s]);
			il_res_compare(mb, mc, c->stats[s], &o, &r);
			if (isnan(r.base) && isnan(r.cand))
				continue;
			if (add_row(c, label, name, c->stats[s], &r))
				return -ENOMEM;
			c->rows[c->nrows - 1].rate = mb->rate || mc->rate;
			c->rows[c->nrows - 1].first_of_metric = first;
			first = false;
		}
	}
	return 0;
}

static int build(struct cmp *c)
{
	char label[512];

	for (size_t i = 0; i < c->base.ngroups; i++) {
		const struct il_res_group *gb = &c->base.groups[i], *gc;
		size_t before = c->nrows;

		snprintf(label, sizeof(label), "%s/%s", gb->scenario,
			 gb->configuration);
		gc = il_res_set_find(&c->cand, gb->scenario, gb->configuration,
				     0);
		if (!gc) {
			if (push_str(&c->only, &c->nonly, "baseline") ||
			    push_str(&c->only, &c->nonly, label))
				return -ENOMEM;
			continue;
		}
		if (push_str(&c->names, &c->nnames, label) ||
		    compare_group(c, gb, gc, c->names[c->nnames - 1]))
			return -ENOMEM;
		if (c->nrows > before)
			c->rows[before].first_of_group = true;
	}
	for (size_t i = 0; i < c->cand.ngroups; i++) {
		const struct il_res_group *g = &c->cand.groups[i];

		if (il_res_set_find(&c->base, g->scenario, g->configuration, 0))
			continue;
		snprintf(label, sizeof(label), "%s/%s", g->scenario,
			 g->configuration);
		if (push_str(&c->only, &c->nonly, "candidate") ||
		    push_str(&c->only, &c->nonly, label))
			return -ENOMEM;
	}
	return 0;
}

/* every row of the comparison corrected together, then decided */
static int decide(struct cmp *c)
{
	struct il_res_cmp **v = calloc(c->nrows + 1, sizeof(*v));
	int ret;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < c->nrows; i++) {
		v[i] = &c->rows[i].c;
		c->family += c->rows[i].c.test != IL_RES_T_NONE;
	}
	ret = il_res_decide_family(v, c->nrows, &c->o);
	free(v);
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < c->nrows; i++)
		c->count[c->rows[i].c.change]++;
	return 0;
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

static void print_files(FILE *f, const char *what, const struct il_res_set *s,
			bool md)
{
	fprintf(f, "%s%s%s %zu file%s:", md ? "**" : "", what, md ? "**" : "",
		s->nfiles, s->nfiles == 1 ? "" : "s");
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

/* Did an earlier file (baseline first) already have scenario key k? */
static bool key_seen_before(const struct cmp *c, int side, size_t fi, size_t k)
{
	const struct il_res_set *s = side ? &c->cand : &c->base;
	const char *key = s->files[fi].scenario[k].key;

	for (int ps = 0; ps <= side; ps++) {
		const struct il_res_set *p = ps ? &c->cand : &c->base;
		size_t nf = ps == side ? fi : p->nfiles;

		for (size_t pf = 0; pf < nf; pf++)
			for (size_t pk = 0; pk < p->files[pf].nscenario; pk++)
				if (!strcmp(p->files[pf].scenario[pk].key, key))
					return true;
	}
	return false;
}

/* Differences between the sides, as notes: kernel, then scenario. */
static void print_notes(FILE *f, const struct cmp *c, bool md)
{
	const char *bullet = md ? "- " : "note: ";
	char agreed[512] = "";
	int diffs = 0, known = 0, unknown = 0;

	for (int i = 0; i < IL_RES_FP_N; i++) {
		int nb, nc;
		const char *vb = il_res_set_fp(&c->base, i, &nb);
		const char *vc = il_res_set_fp(&c->cand, i, &nc);

		if (nb > 1 || nc > 1) {
			fprintf(f, "%s%s differs between the files of the %s\n",
				bullet, fp_label(i),
				nb > 1 && nc > 1
					? "baseline and of the candidate"
				: nb > 1 ? "baseline"
					 : "candidate");
			continue;
		}
		if (!strcmp(vb, vc)) {
			/* two unknowns agree on nothing */
			if (!strcmp(vb, "unknown")) {
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

			cmdline_only(vb, vc, ob, sizeof(ob));
			cmdline_only(vc, vb, oc, sizeof(oc));
			fprintf(f,
				"%skernel command line differs: baseline only "
				"'%s', candidate only '%s'\n",
				bullet, ob, oc);
		} else {
			fprintf(f,
				"%s%s differs: %s (baseline) vs %s "
				"(candidate)\n",
				bullet, fp_label(i), vb, vc);
		}
	}
	if (!diffs && !known)
		fprintf(f, "%sthe kernel fingerprints are unknown\n", bullet);
	else if (!diffs && !unknown)
		fprintf(f, "%sthe kernel fingerprints agree\n", bullet);
	else if (!diffs)
		fprintf(f,
			"%sthe kernel fingerprints agree where known (%s); "
			"%d field%s unknown on both sides\n",
			bullet, agreed, unknown, unknown == 1 ? "" : "s");

	/* scenario parameters, for every key either side has, once */
	for (int side = 0; side < 2; side++) {
		const struct il_res_set *s = side ? &c->cand : &c->base;

		for (size_t fi = 0; fi < s->nfiles; fi++) {
			for (size_t k = 0; k < s->files[fi].nscenario; k++) {
				const char *key = s->files[fi].scenario[k].key;
				const char *vb, *vc;
				char b1[64], b2[64];

				if (key_seen_before(c, side, fi, k))
					continue;
				vb = il_res_set_scenario(&c->base, key, NULL);
				vc = il_res_set_scenario(&c->cand, key, NULL);
				if (!strcmp(vb ? vb : "absent",
					    vc ? vc : "absent"))
					continue;
				fprintf(f,
					"%sscenario differs: %s %s (baseline) "
					"vs %s (candidate)\n",
					bullet, key,
					scalar(key, vb, b1, sizeof(b1)),
					scalar(key, vc, b2, sizeof(b2)));
			}
		}
	}
	for (size_t i = 0; i + 1 < c->nonly; i += 2)
		fprintf(f, "%s%s only in the %s\n", bullet, c->only[i + 1],
			c->only[i]);
	for (int side = 0; side < 2; side++) {
		const struct il_res_set *s = side ? &c->cand : &c->base;

		for (size_t i = 0; i < s->nfiles; i++)
			if (s->files[i].interrupted)
				fprintf(f,
					"%s%s was interrupted: its runs are "
					"shorter\n",
					bullet, s->files[i].path);
	}
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
			if (c->rows[r].c.summary != order[k])
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
			 c->rows[i].c.higher_better ? "higher" : "lower");
}

/* the runs a side that would detect --plan on row r; 0: no spread seen */
static size_t row_plan(const struct cmp *c, const struct il_res_cmp *r)
{
	size_t m = c->o.correction == IL_RES_CORR_NONE ? 1 : c->family;
	double cv;

	if (r->test == IL_RES_T_NONE || isnan(r->sb.cv_pct) ||
	    isnan(r->sc.cv_pct))
		return 0;
	cv = sqrt((r->sb.cv_pct * r->sb.cv_pct + r->sc.cv_pct * r->sc.cv_pct) /
		  2);
	return il_res_plan_runs(cv, c->plan, &c->o, m);
}

/* the runs a side that would detect --plan on every row with runs */
static size_t plan_runs(const struct cmp *c, size_t *worst)
{
	size_t most = 0;

	*worst = c->nrows;
	for (size_t i = 0; i < c->nrows; i++) {
		size_t n = row_plan(c, &c->rows[i].c);

		if (n > most) {
			most = n;
			*worst = i;
		}
	}
	return most;
}

static void print_summary(FILE *f, const struct cmp *c, bool md)
{
	size_t worst, n = plan_runs(c, &worst);

	fprintf(f,
		"%s%zu worse, %zu better, %zu no change, %zu too few runs "
		"(%s correction over %zu tested rows, alpha %g, threshold "
		"%g%%, test %s; lower is better but for throughput; ratio = "
		"candidate / baseline, pct imp > 0 is better, CV over runs, "
		"CI95 of pct imp from the hierarchical bootstrap, detects = "
		"the smallest change these runs detect at 80%% power)\n",
		md ? "\n" : "", c->count[IL_RES_WORSE], c->count[IL_RES_BETTER],
		c->count[IL_RES_SAME], c->count[IL_RES_TOO_FEW],
		il_res_correction_name(c->o.correction), c->family, c->o.alpha,
		c->threshold, mode_name(c->o.mode));
	if (n)
		fprintf(f,
			"%splan: %zu runs a side would detect a %g%% change on "
			"every row with runs (80%% power, %s over %zu rows); "
			"the noisiest is %s %s %s\n",
			md ? "\n" : "", n, c->plan,
			il_res_correction_name(c->o.correction), c->family,
			c->rows[worst].group, c->rows[worst].metric,
			row_stat(&c->rows[worst]));
	else
		fprintf(f,
			"%splan: no row has two runs a side with a spread: "
			"give at least 2 runs a side (5 or more are usual)\n",
			md ? "\n" : "");
}

/* ---- text ------------------------------------------------------------ */

static void print_fp_text(FILE *f, const struct cmp *c)
{
	struct il_table t;

	il_table_init(&t);
	il_table_col(&t, "kernel", false);
	il_table_col(&t, "baseline", false);
	il_table_col(&t, "candidate", false);
	il_table_col(&t, "", false);
	for (int i = 0; i < IL_RES_FP_N; i++) {
		int nb, nc;
		const char *vb = il_res_set_fp(&c->base, i, &nb);
		const char *vc = il_res_set_fp(&c->cand, i, &nc);
		bool differs = nb > 1 || nc > 1 || strcmp(vb, vc);

		il_table_cell(&t, "%s", fp_label(i));
		/* the command line is long: its difference is a note */
		il_table_cell(&t, "%.40s%s", vb, strlen(vb) > 40 ? "..." : "");
		il_table_cell(&t, "%.40s%s", vc, strlen(vc) > 40 ? "..." : "");
		il_table_cell(&t, "%s", differs ? "DIFFERS" : "");
	}
	il_table_print(&t, f);
	il_table_free(&t);
}

static void row_cells(const struct row *r, char *nb, char *nc, char *p,
		      char *pa, char *ci, char *mde, size_t len)
{
	fmt_norm(nb, len, isnan(r->c.base) ? NAN : 1.0,
		 isnan(r->c.base) ? NAN : 0.0, r->c.sb.cv_pct);
	fmt_norm(nc, len, r->c.ratio, r->c.pct_imp, r->c.sc.cv_pct);
	fmt_p(p, len, r->c.p);
	fmt_p(pa, len, r->c.p_adj);
	fmt_ci(ci, len, r->c.ci_lo, r->c.ci_hi);
	fmt_mde(mde, len, r->c.mde_pct);
}

static void print_text(FILE *f, const struct cmp *c)
{
	char nb[64], nc[64], vb[24], vc[24], p[64], pa[64], ci[64], mde[64];
	char head[512];

	if (!c->cfg->quiet) {
		print_files(f, "baseline: ", &c->base, false);
		print_files(f, "candidate:", &c->cand, false);
		fputc('\n', f);
		print_fp_text(f, c);
		print_notes(f, c, false);
		fputc('\n', f);
	}
	for (size_t i = 0; i < c->nrows;) {
		size_t end = block_end(c, i);
		struct il_table t;

		block_header(c, i, end, head, sizeof(head));
		fprintf(f, "%s%s %s: %s\n", i ? "\n" : "", c->rows[i].group,
			c->rows[i].metric, head);
		il_table_init(&t);
		il_table_col(&t, "stat", false);
		il_table_col(&t, "baseline", true);
		il_table_col(&t, "candidate", true);
		il_table_col(&t, "base[pct imp](CV)", false);
		il_table_col(&t, "cand[pct imp](CV)", false);
		il_table_col(&t, "CI95 pct imp", false);
		il_table_col(&t, "runs", true);
		il_table_col(&t, "p", true);
		il_table_col(&t, "p adj", true);
		il_table_col(&t, "test", false);
		il_table_col(&t, "detects", true);
		il_table_col(&t, "change", false);
		for (; i < end; i++) {
			const struct row *r = &c->rows[i];

			row_cells(r, nb, nc, p, pa, ci, mde, sizeof(nb));
			il_table_cell(&t, "%s", row_stat(r));
			il_table_cell(&t, "%s",
				      fmt_value(vb, sizeof(vb), r, r->c.base));
			il_table_cell(&t, "%s",
				      fmt_value(vc, sizeof(vc), r, r->c.cand));
			il_table_cell(&t, "%s", nb);
			il_table_cell(&t, "%s", nc);
			il_table_cell(&t, "%s", ci);
			il_table_cell(&t, "%zu:%zu", r->c.sb.n, r->c.sc.n);
			il_table_cell(&t, "%s", p);
			il_table_cell(&t, "%s", pa);
			il_table_cell(&t, "%s", il_res_test_name(r->c.test));
			il_table_cell(&t, "%s", mde);
			il_table_cell(&t, "%s",
				      il_res_change_name(r->c.change));
		}
		il_table_print(&t, f);
		il_table_free(&t);
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

/* text outside a table: what Markdown would take as markup, escaped */
static void md_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (strchr("`*_<>|", *s))
			fputc('\\', f);
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
	}
}

static void print_markdown(FILE *f, const struct cmp *c)
{
	char nb[64], nc[64], vb[24], vc[24], p[64], pa[64], ci[64], mde[64];
	char runs[32], head[512];

	if (!c->cfg->quiet) {
		fprintf(f, "### invlab-compare\n\n");
		print_files(f, "Baseline:", &c->base, true);
		print_files(f, "Candidate:", &c->cand, true);
		fprintf(f, "\n| kernel | baseline | candidate | |\n"
			   "|---|---|---|---|\n");
		for (int i = 0; i < IL_RES_FP_N; i++) {
			int n1, n2;
			const char *v1 = il_res_set_fp(&c->base, i, &n1);
			const char *v2 = il_res_set_fp(&c->cand, i, &n2);

			fputc('|', f);
			md_cell(f, fp_label(i), false);
			md_cell(f, v1, true);
			md_cell(f, v2, true);
			md_cell(f,
				n1 > 1 || n2 > 1 || strcmp(v1, v2)
					? "**differs**"
					: "",
				false);
			fputc('\n', f);
		}
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
		fprintf(f, "| stat | baseline | candidate | base [pct imp](CV) "
			   "| cand [pct imp](CV) | CI95 pct imp | runs | p | "
			   "p adj | test | detects | change |\n"
			   "|---|---:|---:|---|---|---|---:|---:|---:|---|---:|"
			   "---|\n");
		for (; i < end; i++) {
			const struct row *r = &c->rows[i];
			const char *ch = il_res_change_name(r->c.change);
			char chb[32];

			row_cells(r, nb, nc, p, pa, ci, mde, sizeof(nb));
			snprintf(runs, sizeof(runs), "%zu:%zu", r->c.sb.n,
				 r->c.sc.n);
			if (r->c.change == IL_RES_WORSE ||
			    r->c.change == IL_RES_BETTER) {
				snprintf(chb, sizeof(chb), "**%s**", ch);
				ch = chb;
			}
			fputc('|', f);
			md_cell(f, row_stat(r), false);
			md_cell(f, fmt_value(vb, sizeof(vb), r, r->c.base),
				false);
			md_cell(f, fmt_value(vc, sizeof(vc), r, r->c.cand),
				false);
			md_cell(f, nb, true);
			md_cell(f, nc, true);
			md_cell(f, ci, false);
			md_cell(f, runs, false);
			md_cell(f, p, false);
			md_cell(f, pa, false);
			md_cell(f, il_res_test_name(r->c.test), false);
			md_cell(f, mde, false);
			md_cell(f, ch, false);
			fputc('\n', f);
		}
	}
	il_ctr_cmp_print(f, &c->ctr, true);
	if (!c->cfg->quiet)
		print_summary(f, c, true);
}

/* ---- JSON ------------------------------------------------------------ */

static void json_side(struct il_json *j, const char *key,
		      const struct il_res_set *s)
{
	il_json_begin_object(j, key);
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

static int write_json(FILE *f, const struct cmp *c, int rc)
{
	struct il_json j;
	size_t worst;

	il_json_init(&j, f);
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
	il_json_uint(&j, "plan_runs_per_side", plan_runs(c, &worst));
	il_json_uint(&j, "seed", c->o.seed);
	il_json_uint(&j, "resamples", c->o.resamples);
	il_json_str(&j, "distributions", il_res_dist_backend());
	il_json_str(&j, "better", "lower, higher for throughput");
	il_json_end_object(&j);
	json_side(&j, "baseline", &c->base);
	json_side(&j, "candidate", &c->cand);
	il_json_begin_array(&j, "kernel_differences");
	for (int i = 0; i < IL_RES_FP_N; i++) {
		int nb, nc;
		const char *vb = il_res_set_fp(&c->base, i, &nb);
		const char *vc = il_res_set_fp(&c->cand, i, &nc);

		if (nb <= 1 && nc <= 1 && !strcmp(vb, vc))
			continue;
		il_json_begin_object(&j, NULL);
		il_json_str(&j, "field", il_res_fp_key(i));
		il_json_str(&j, "baseline", nb > 1 ? NULL : vb);
		il_json_str(&j, "candidate", nc > 1 ? NULL : vc);
		il_json_end_object(&j);
	}
	il_json_end_array(&j);
	il_json_begin_array(&j, "scenario_differences");
	for (int side = 0; side < 2; side++) {
		const struct il_res_set *s = side ? &c->cand : &c->base;

		for (size_t fi = 0; fi < s->nfiles; fi++) {
			for (size_t k = 0; k < s->files[fi].nscenario; k++) {
				const char *key = s->files[fi].scenario[k].key;
				const char *vb, *vc;

				if (key_seen_before(c, side, fi, k))
					continue;
				vb = il_res_set_scenario(&c->base, key, NULL);
				vc = il_res_set_scenario(&c->cand, key, NULL);
				if (!strcmp(vb ? vb : "absent",
					    vc ? vc : "absent"))
					continue;
				il_json_begin_object(&j, NULL);
				il_json_str(&j, "key", key);
				il_json_str(&j, "baseline", vb);
				il_json_str(&j, "candidate", vc);
				il_json_end_object(&j);
			}
		}
	}
	il_json_end_array(&j);
	il_json_begin_array(&j, "comparisons");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct row *r = &c->rows[i];

		il_json_begin_object(&j, NULL);
		il_json_str(&j, "configuration", r->group);
		il_json_str(&j, "metric", r->metric);
		il_json_str(&j, "stat", row_stat(r));
		il_json_begin_object(&j, "baseline");
		json_num(&j, r->rate ? "rate" : "value_ns", r->c.base);
		il_json_uint(&j, "runs", r->c.sb.n);
		json_num(&j, "cv_pct", r->c.sb.cv_pct);
		il_json_end_object(&j);
		il_json_begin_object(&j, "candidate");
		json_num(&j, r->rate ? "rate" : "value_ns", r->c.cand);
		il_json_uint(&j, "runs", r->c.sc.n);
		json_num(&j, "cv_pct", r->c.sc.cv_pct);
		il_json_end_object(&j);
		il_json_str(&j, "summary", il_res_summary_name(r->c.summary));
		il_json_str(&j, "better",
			    r->c.higher_better ? "higher" : "lower");
		json_num(&j, "ratio", r->c.ratio);
		json_num(&j, "pct_improvement", r->c.pct_imp);
		il_json_begin_array(&j, "pct_improvement_ci95");
		json_num(&j, NULL, r->c.ci_lo);
		json_num(&j, NULL, r->c.ci_hi);
		il_json_end_array(&j);
		if (r->c.test == IL_RES_T_NONE)
			il_json_null(&j, "test");
		else
			il_json_str(&j, "test", il_res_test_name(r->c.test));
		il_json_bool(&j, "pooled_samples", r->c.pooled);
		json_num(&j, "p_value", r->c.p);
		json_num(&j, "p_adjusted", r->c.p_adj);
		if (isinf(r->c.mde_pct))
			il_json_str(&j, "detectable_pct", "none");
		else
			json_num(&j, "detectable_pct", r->c.mde_pct);
		il_json_uint(&j, "plan_runs_per_side", row_plan(c, &r->c));
		il_json_str(&j, "change", il_res_change_name(r->c.change));
		il_json_end_object(&j);
	}
	il_json_end_array(&j);
	il_json_begin_array(&j, "only_in_one_side");
	for (size_t i = 0; i + 1 < c->nonly; i += 2) {
		il_json_begin_object(&j, NULL);
		il_json_str(&j, "side", c->only[i]);
		il_json_str(&j, "configuration", c->only[i + 1]);
		il_json_end_object(&j);
	}
	il_json_end_array(&j);
	il_ctr_cmp_json(&j, &c->ctr);
	il_json_begin_object(&j, "summary");
	il_json_uint(&j, "worse", c->count[IL_RES_WORSE]);
	il_json_uint(&j, "better", c->count[IL_RES_BETTER]);
	il_json_uint(&j, "no_change", c->count[IL_RES_SAME]);
	il_json_uint(&j, "too_few_runs", c->count[IL_RES_TOO_FEW]);
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
 * --metric names a histogram some run of either side has: one that none
 * has is a typo (blokced_ns), which would otherwise leave nothing to
 * compare (exit 77, a SKIP to a lab).  0, or -EINVAL with the closest
 * name in err; -ENOMEM.
 */
static int metrics_fit(const struct cmp *c, char *err, size_t len)
{
	const struct il_res_set *sides[2] = { &c->base, &c->cand };
	const char **names;
	size_t cap = 1, n = 0;
	int ret = 0;

	for (int sd = 0; sd < 2; sd++)
		for (size_t k = 0; k < sides[sd]->ngroups; k++)
			cap += sides[sd]->groups[k].nmetrics;
	names = calloc(cap, sizeof(*names));
	if (!names)
		return -ENOMEM;
	for (int sd = 0; sd < 2; sd++)
		for (size_t k = 0; k < sides[sd]->ngroups; k++)
			for (size_t m = 0; m < sides[sd]->groups[k].nmetrics;
			     m++)
				names[n++] =
					sides[sd]->groups[k].metrics[m].name;
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

static void free_cmp(struct cmp *c)
{
	il_res_set_free(&c->base);
	il_res_set_free(&c->cand);
	for (int i = 0; i < c->nmetrics; i++)
		free(c->metrics[i]);
	free(c->metrics);
	for (size_t i = 0; i < c->nnames; i++)
		free(c->names[i]);
	free(c->names);
	for (size_t i = 0; i < c->nonly; i++)
		free(c->only[i]);
	free(c->only);
	for (size_t i = 0; i < c->nsum; i++)
		free(c->sum_key[i]);
	free(c->sum_key);
	free(c->sum_val);
	free(c->rows);
	free(c->argv);
	il_ctr_cmp_free(&c->ctr);
}

int main(int argc, char **argv)
{
	static const char usage[] =
		"[OPTIONS] BASE.json CAND.json\n"
		"   or: invlab-compare [OPTIONS] BASE.json... -- CAND.json...";
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
		"and beyond --threshold (default 2%); else 'no change'.  Each "
		"row shows the 95% interval of its change and the smallest "
		"change its runs detect; the closing line how many runs a "
		"side would detect a --plan change.  With two "
		"files the first is the baseline; with more, the files before "
		"'--' are the baseline and those after it the candidate "
		"(options go before '--').  The kernel fingerprints of both "
		"sides are shown and their differences pointed out.  A "
		"counters block follows: each run's scheduler counters and "
		"sched-messaging's wall time, AMean a side, delta %, the rank "
		"test over runs (the wall time decided, lower is better; the "
		"counters shown, not judged).  Exit "
		"status: 0 nothing is worse, 1 a row is worse, 2 "
		"bad usage, 77 nothing in common to compare, 99 a file cannot "
		"be read.";
	struct cfg cfg;
	struct cmp c;
	char err[512];
	int after, first, nops, nbase, rc = 0, ret;
	bool any = false;

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
	nops = argc - first;
	if (after < 0) {
		if (nops != 2) {
			fprintf(stderr,
				"invlab-compare: give BASE.json CAND.json, or "
				"BASE.json... -- CAND.json... (got %d "
				"file%s)\n",
				nops, nops == 1 ? "" : "s");
			free_cmp(&c);
			return 2;
		}
		after = 1;
	}
	nbase = nops - after;
	if (nbase < 1 || after < 1) {
		fprintf(stderr,
			"invlab-compare: no %s files: give at least "
			"one on each side of '--'\n",
			nbase < 1 ? "baseline" : "candidate");
		free_cmp(&c);
		return 2;
	}
	il_res_set_init(&c.base, false);
	il_res_set_init(&c.cand, false);
	c.base.max_input = c.cand.max_input = cfg.max_input;
	if (il_res_load_sides(argc, argv, first, nbase, after, &c.base, &c.cand,
			      &ret, err, sizeof(err))) {
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
	if (build(&c) || decide(&c)) {
		fprintf(stderr, "invlab-compare: out of memory\n");
		free_cmp(&c);
		return 99;
	}
	/* the counters and wall times of the same files (counters-cmp.h) */
	if (il_ctr_cmp_build(argv + first, nbase, after, cfg.max_input, &c.o,
			     &c.ctr, err, sizeof(err))) {
		fprintf(stderr, "invlab-compare: %s\n", err);
		free_cmp(&c);
		return 99;
	}
	for (size_t i = 0; i < c.nrows; i++)
		if (c.rows[i].c.change != IL_RES_NA)
			any = true;
	any = any || c.ctr.n;
	if (!any)
		rc = 77;
	else if (c.count[IL_RES_WORSE] || c.ctr.worse)
		rc = 1;

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
	if (rc == 77)
		fprintf(stderr,
			"invlab-compare: nothing to compare: no "
			"configuration and histogram with values on both "
			"sides\n");
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
