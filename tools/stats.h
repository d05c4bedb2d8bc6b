/* SPDX-License-Identifier: MIT */
/*
 * The statistics of the result tools: the named statistics of a
 * histogram (p99, mean, ...), the spread over runs, and the significance
 * tests that tell a change from noise (stats.c says which and why).
 *
 * Every loop here is bounded by the sizes of its inputs, never by a
 * sample count read from a file: a result from a device may claim any
 * count, and a statistic must still come back at once.
 */
#ifndef INVLAB_TOOLS_STATS_H
#define INVLAB_TOOLS_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <invlab/hist.h>

/* The statistics of a histogram that the tools know by name. */
enum il_res_stat {
	IL_RES_COUNT,
	IL_RES_MIN,
	IL_RES_MEAN,
	IL_RES_P50,
	IL_RES_P90,
	IL_RES_P99,
	IL_RES_P999,
	IL_RES_P9999,
	IL_RES_MAX,
	IL_RES_NSTATS,
};

const char *il_res_stat_name(enum il_res_stat s);
/* "p99" -> IL_RES_P99; -EINVAL when unknown */
int il_res_stat_parse(const char *name, enum il_res_stat *s);
/* the percentile of a percentile statistic (0.99), else 0 */
double il_res_stat_quantile(enum il_res_stat s);
/* "count, min, mean, p50, ..." for messages */
const char *il_res_stat_list(void);
/*
 * The value of s in h.  upper picks, for percentiles, the highest value
 * of the bucket (what a gate should compare with a limit) instead of its
 * midpoint (what a report shows).  -ENODATA when h has too few samples
 * for it (a p999 needs 1000) or is empty.
 */
int il_res_stat_value(const struct il_hist *h, enum il_res_stat s, bool upper,
		      double *v);

/* Mean, sample standard deviation and CV (in %) of v, NAN ignored. */
struct il_res_spread {
	size_t n;
	double mean, sd, cv_pct; /* sd and cv are NAN when n < 2 */
};
void il_res_spread(const double *v, size_t stride, size_t n,
		   struct il_res_spread *out);

/*
 * Percent improvement of cand over base where lower is better:
 * (base - cand) / base * 100, so positive means better.  NAN when base
 * is 0 (unless cand is 0 too) or either is NAN.
 */
double il_res_pct_improvement(double base, double cand);

/*
 * Two-sided Mann-Whitney U test of a against b, ties given midranks.
 * Exact (the permutation distribution of the rank sum, ties included)
 * when na + nb <= IL_RES_MW_EXACT_MAX, else the normal approximation with
 * tie and continuity corrections.  Returns 0 and fills p and *exact, or
 * -EINVAL when a side is empty.
 */
#define IL_RES_MW_EXACT_MAX 60
int il_res_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
			double *p, bool *exact);
/* the smallest two-sided p the rank test can reach with na and nb runs */
double il_res_mann_whitney_min_p(size_t na, size_t nb);
/*
 * Whether na and nb runs can support a claim at level alpha: whether a
 * test over the runs that assumes nothing of their distribution (the
 * exact rank test) could give p < alpha at all, i.e. whether
 * il_res_mann_whitney_min_p(na, nb) < alpha.  No correction makes a p
 * smaller, and alpha is the least any correction asks of a row (Holm's
 * last step, Benjamini-Hochberg's largest p), so with fewer runs no row
 * can be significant whatever the data, unless a test's assumptions
 * (normal run values for Welch's t, a bootstrap of a handful of runs)
 * are taken on trust: what they say from two runs a side is not what
 * the runs show.
 */
bool il_res_runs_enough(size_t na, size_t nb, double alpha);
/* the fewest runs a side that are enough at alpha (4 at 0.05, 5 at 0.01) */
size_t il_res_runs_needed(double alpha);

/*
 * Welch's two-sample t test of a against b (NAN ignored), two-sided:
 * for two or three runs a side, where the rank test cannot reach the
 * usual levels.  -EINVAL with fewer than 2 values a side.
 */
int il_res_welch(const double *a, size_t na, const double *b, size_t nb,
		 double *p);
/*
 * Distribution functions (stats-dist.c): from GSL when the build has it
 * (meson feature "gsl"), else the hand-written il_res_fb_ versions, which
 * are always built so that the tests check both against reference values.
 */
double il_res_betai(double a, double b, double x); /* I_x(a, b) */
double il_res_norm_cdf(double x);		   /* P(Z <= x) */
double il_res_norm_quantile(double p);		   /* x with P(Z <= x) = p */
double il_res_t_cdf(double t, double df);	   /* P(T_df <= t) */
double il_res_t_quantile(double p, double df);
double il_res_fb_betai(double a, double b, double x);
double il_res_fb_norm_cdf(double x);
double il_res_fb_norm_quantile(double p);
double il_res_fb_t_cdf(double t, double df);
double il_res_fb_t_quantile(double p, double df);
/* "GSL 2.7.1" or "built-in" */
const char *il_res_dist_backend(void);

/*
 * Bootstrap over merged bins, without random draws.  Resampling n values
 * from a histogram puts its k-th smallest (k = ceil(q n)) in bucket j
 * with probability P(Bin(n, F(j)) >= k) - P(Bin(n, F(j-1)) >= k), F the
 * cumulative share of the bins; both sides use the same buckets, so the
 * chance that the candidate's resampled quantile is above, equal to or
 * below the baseline's is a sum over buckets.  p is twice the smaller
 * tail (equal counted half): the two-sided bootstrap p-value of "same
 * quantile".  -ENODATA when a side has too few samples for q.
 */
int il_res_boot_quantile(const struct il_hist *base, const struct il_hist *cand,
			 double q, double *p);
/*
 * The mean's bootstrap distribution is normal for the sample sizes here
 * (central limit), with the variance of the bins (bucket midpoints): a
 * two-sample z test.  -ENODATA with fewer than 2 samples a side.
 */
int il_res_mean_z(const struct il_hist *base, const struct il_hist *cand,
		  double *p);
/* P(Bin(n, prob) >= k), exposed for the tests */
double il_res_binom_tail(uint64_t n, double prob, uint64_t k);

/*
 * One run's histogram, kept beside its statistics for the hierarchical
 * bootstrap: its non-empty buckets only (a run has a few hundred), each
 * with the value a percentile in it reports and the cumulative count.
 */
struct il_res_run_hist {
	uint64_t count;
	double mean, var; /* of the samples (var at bucket midpoints) */
	size_t nbins;
	uint64_t *cum; /* samples in this bucket and below */
	double *val;   /* the bucket's reported value */
};

/*
 * The runs a side from which the hierarchical bootstrap resamples the
 * per-run values alone, no longer each run's samples as well.  A run's
 * value already carries the noise of its samples, so resampling the
 * values of many runs is the ordinary bootstrap of their summary, and
 * gets its spread right; resampling the samples too adds that noise a
 * second time (Davison and Hinkley, Bootstrap Methods, 1997, 3.8), which
 * errs on the safe side and is kept for few runs, where it smooths the
 * handful of values.  Past this many runs each draw is an index, not a
 * beta variate, and the runs' buckets need not be kept: the cost of a
 * row grows with its runs at a few ns a run, and memory stays flat.
 */
#define IL_RES_HBOOT_NESTED_RUNS 30

/*
 * Add one run's histogram h to metric m: its statistics (m->run), its
 * buckets (m->hists, while m has fewer than IL_RES_HBOOT_NESTED_RUNS
 * runs or m->keep_run_hists; when the runs reach that number, those kept
 * are freed and m->hists is NULL) and its bins into m->merged.  0 or
 * -ENOMEM (m is then unchanged but for spare capacity).
 */
struct il_res_metric;
int il_res_metric_add_run(struct il_res_metric *m, const struct il_hist *h);
/* free what il_res_metric_add_run allocated (not m->name, m->merged) */
void il_res_metric_free_runs(struct il_res_metric *m);

/*
 * How a side's per-run values are summarized into the value a row
 * shows and tests, as the reviewers' tables do: AMean for times (a
 * mean), HMean for throughput (a metric named *_per_s, *_ops or
 * *throughput*, where higher is better), Median for latency percentiles
 * (min, p50 ... p9999, max).  AUTO picks by metric and statistic.
 */
enum il_res_summary {
	IL_RES_SUM_AUTO,
	IL_RES_SUM_AMEAN,
	IL_RES_SUM_HMEAN,
	IL_RES_SUM_MEDIAN,
};
/* "auto", "AMean", "HMean", "Median" */
const char *il_res_summary_name(enum il_res_summary s);
/* "amean" (any case) -> IL_RES_SUM_AMEAN; -EINVAL when unknown */
int il_res_summary_parse(const char *name, enum il_res_summary *s);
/* what AUTO means for statistic st of metric name */
enum il_res_summary il_res_summary_auto(const char *metric,
					enum il_res_stat st);
/* whether higher values of metric name are better (throughput) */
bool il_res_higher_is_better(const char *metric);
/* s of the n values v (NAN ignored); NAN when none (HMean: any <= 0) */
double il_res_summarize(enum il_res_summary s, const double *v, size_t n);
/*
 * The central IL_RES_CI_LEVEL (95 %) interval of one side's summary s of
 * its n per-run values v (NAN ignored), what invlab-plot draws as a
 * band: for AMean Student's t interval of the mean (il_res_mean_ci),
 * for HMean the same of the reciprocals, turned back; for Median the
 * distribution-free interval between two order statistics, the closest
 * to the middle x(j), x(n + 1 - j) whose cover 1 - 2 P(Bin(n, 1/2) < j)
 * is still at least the level (it needs 6 runs: [min, max] of 5 covers
 * 93.75 %).  0, -ENODATA with too few runs (AMean, HMean: 2; Median: 6;
 * HMean: a value <= 0), -ENOMEM.
 */
int il_res_summary_ci(enum il_res_summary s, const double *v, size_t n,
		      double *lo, double *hi);
/*
 * Student's t interval at IL_RES_CI_LEVEL of a mean of n values with
 * sample standard deviation sd: mean -/+ t(n - 1) sd / sqrt(n).
 * -ENODATA when n < 2 or sd is not a number.
 */
int il_res_mean_ci(size_t n, double mean, double sd, double *lo, double *hi);

/*
 * The hierarchical bootstrap of statistic st summarized by sum:
 * resamples replicates, each drawing every side's runs with replacement
 * and then, for a side whose buckets are kept (m->hists: fewer than
 * IL_RES_HBOOT_NESTED_RUNS runs), within each drawn run its samples with
 * replacement (the
 * k-th smallest of n draws from a run's buckets is the bucket where a
 * Beta(k, n - k + 1) variate falls in its cumulative counts; a mean is
 * the run's mean plus a normal deviation of its standard error).  Seeded
 * with seed: the same inputs give the same answer.  Fills *p, the
 * two-sided p-value of "the ratio cand / base is 1" (the share of
 * replicates on the other side of 1, counted twice, ties half), and the
 * central 100 * (1 - ci_alpha) % interval [*lo, *hi] of that ratio.
 * -ENODATA when a side has no run with st, -ENOMEM.
 */
int il_res_hboot(const struct il_res_metric *base,
		 const struct il_res_metric *cand, enum il_res_stat st,
		 enum il_res_summary sum, unsigned resamples, uint64_t seed,
		 double ci_alpha, double *p, double *lo, double *hi);

/*
 * Corrections for testing the rows of one comparison together.  adj[i]
 * is the adjusted p-value of p[i] over the n of them that are not NAN
 * (a NAN stays NAN): Holm's step-down (family-wise error) or Benjamini
 * and Hochberg's step-up (false discovery rate).  0 or -ENOMEM.
 */
enum il_res_correction {
	IL_RES_CORR_HOLM,
	IL_RES_CORR_BH,
	IL_RES_CORR_NONE,
};
/* "Holm", "Benjamini-Hochberg", "none" */
const char *il_res_correction_name(enum il_res_correction c);
int il_res_adjust(const double *p, size_t n, enum il_res_correction c,
		  double *adj);

enum il_res_test_mode {
	IL_RES_TEST_AUTO,      /* by statistic, see il_res_compare */
	IL_RES_TEST_RANK,      /* Mann-Whitney over per-run values only */
	IL_RES_TEST_WELCH,     /* Welch's t over per-run values only */
	IL_RES_TEST_BOOTSTRAP, /* the hierarchical bootstrap only */
};

enum il_res_test {
	IL_RES_T_NONE,
	IL_RES_T_RANK_EXACT,
	IL_RES_T_RANK_NORMAL,
	IL_RES_T_WELCH,
	IL_RES_T_HBOOT,
};
/* "U-exact", "U-normal", "Welch-t", "h-bootstrap", "-" */
const char *il_res_test_name(enum il_res_test t);

enum il_res_change {
	IL_RES_NA,	/* a side has no value */
	IL_RES_TOO_FEW, /* no test can decide with these runs/samples */
	IL_RES_SAME,	/* not significant, or within the threshold */
	IL_RES_BETTER,
	IL_RES_WORSE,
};
/* "n/a", "too few runs", "no change", "better", "worse" */
const char *il_res_change_name(enum il_res_change c);

struct il_res_cmp_opts {
	enum il_res_test_mode mode;
	double alpha;	      /* significance level, e.g. 0.05 */
	double threshold_pct; /* changes within it read as no change */
	enum il_res_correction correction;
	enum il_res_summary summary; /* AUTO: by metric and statistic */
	unsigned resamples;	     /* of the bootstrap; 0: the default */
	uint64_t seed;
	double power; /* of the detectable change; 0: 0.8 */
};
#define IL_RES_RESAMPLES_DEFAULT 4000
/* the fewest runs a side the bootstrap of percentiles is used with */
#define IL_RES_HBOOT_MIN_RUNS 5
#define IL_RES_CI_LEVEL	      0.95

struct il_res_cmp {
	double base, cand;	     /* summarized values, NAN when n/a */
	struct il_res_spread sb, sc; /* per-run spread */
	double ratio;		     /* cand / base */
	double pct_imp;		     /* positive: better */
	double ci_lo, ci_hi;	     /* IL_RES_CI_LEVEL interval of pct_imp */
	enum il_res_summary summary;
	bool higher_better;
	enum il_res_test test;
	double p;     /* NAN when no test ran */
	double p_adj; /* after the correction (il_res_compare: = p) */
	/*
	 * The smallest change, in percent, these runs and CVs detect at
	 * the family's level with the chosen power, never below the
	 * threshold; NAN when a side has fewer than 2 runs, INFINITY when
	 * the test cannot reach the level with these runs.
	 */
	double mde_pct;
	enum il_res_change change;
	/*
	 * too few runs: the runs a side il_res_runs_enough asks for at the
	 * level (il_res_decide), else 0
	 */
	size_t runs_needed;
};

/*
 * Compare statistic st of one metric between two sides (results.h), as
 * a family of one: p_adj = p, mde_pct at alpha.  Runs that are not
 * enough at alpha (il_res_runs_enough: one run a side, two, three) have
 * no test and no interval: the row reads "too few runs".  Else the
 * test, by statistic (mode AUTO): a percentile, by the hierarchical
 * bootstrap with IL_RES_HBOOT_MIN_RUNS or more runs a side, else by
 * Welch's t over the per-run values; a mean, by Welch's t over the
 * per-run means; min and max, by the rank test over the per-run values.
 * A row whose runs lack st (a p999 needs 1000 samples a run) shows the
 * merged values and has no test.
 */
struct il_res_metric;
void il_res_compare(const struct il_res_metric *base,
		    const struct il_res_metric *cand, enum il_res_stat st,
		    const struct il_res_cmp_opts *o, struct il_res_cmp *out);
/*
 * The decision of one row from its runs and p_adj: "too few runs" when
 * its runs a side (sb.n, sc.n) are not enough at alpha
 * (il_res_runs_enough; runs_needed says how many are), whatever its
 * test said, or when it has no test; else "worse" or "better" only when
 * p_adj < alpha and |pct_imp| > threshold_pct (a baseline of 0 and a
 * candidate that is not counts as beyond any threshold), else "no
 * change".
 */
void il_res_decide(struct il_res_cmp *c, const struct il_res_cmp_opts *o);
/* mde_pct for a family of m rows tested together */
void il_res_power(struct il_res_cmp *c, const struct il_res_cmp_opts *o,
		  size_t m);
/*
 * Correct the n rows of one comparison together (o->correction), decide
 * each and set its mde_pct for the family: what invlab-compare and
 * invlab-gate do.  Returns the number of rows "worse", or -ENOMEM.
 */
int il_res_decide_family(struct il_res_cmp *const *rows, size_t n,
			 const struct il_res_cmp_opts *o);
/*
 * Runs a side that detect a change of change_pct with power o->power at
 * the level alpha / m (two-sided), for per-run values with CV cv_pct,
 * never fewer than il_res_runs_needed(o->alpha); 0 when cv_pct or
 * change_pct is not a positive number.
 */
size_t il_res_plan_runs(double cv_pct, double change_pct,
			const struct il_res_cmp_opts *o, size_t m);

#endif
