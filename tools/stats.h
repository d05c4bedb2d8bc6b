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
 * Welch's two-sample t test of a against b (NAN ignored), two-sided:
 * for two or three runs a side, where the rank test cannot reach the
 * usual levels.  -EINVAL with fewer than 2 values a side.
 */
int il_res_welch(const double *a, size_t na, const double *b, size_t nb,
		 double *p);
/* the regularized incomplete beta function I_x(a, b), for the tests */
double il_res_betai(double a, double b, double x);

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

enum il_res_test_mode {
	IL_RES_TEST_AUTO,      /* rank, else Welch over runs, else bins */
	IL_RES_TEST_RANK,      /* Mann-Whitney over per-run values only */
	IL_RES_TEST_WELCH,     /* Welch's t over per-run values only */
	IL_RES_TEST_BOOTSTRAP, /* merged bins only */
};

enum il_res_test {
	IL_RES_T_NONE,
	IL_RES_T_RANK_EXACT,
	IL_RES_T_RANK_NORMAL,
	IL_RES_T_WELCH,
	IL_RES_T_BOOT_QUANTILE,
	IL_RES_T_Z_MEAN,
};
/* "U-exact", "U-normal", "Welch-t", "bootstrap", "z-mean", "-" */
const char *il_res_test_name(enum il_res_test t);

enum il_res_change {
	IL_RES_NA,	/* a side has no value */
	IL_RES_TOO_FEW, /* no test can decide with these runs/samples */
	IL_RES_SAME,	/* not significant, or smaller than min_change */
	IL_RES_BETTER,
	IL_RES_WORSE,
};
/* "n/a", "too few runs", "no change", "better", "worse" */
const char *il_res_change_name(enum il_res_change c);

struct il_res_cmp_opts {
	enum il_res_test_mode mode;
	double alpha;	       /* significance level, e.g. 0.05 */
	double min_change_pct; /* smaller changes read as no change */
};

struct il_res_cmp {
	double base, cand;	     /* merged values, NAN when n/a */
	struct il_res_spread sb, sc; /* per-run spread */
	double ratio;		     /* cand / base */
	double pct_imp;		     /* positive: better */
	enum il_res_test test;
	double p; /* NAN when no test ran */
	enum il_res_change change;
};

/* Compare statistic st of one metric between two sides (results.h). */
struct il_res_metric;
void il_res_compare(const struct il_res_metric *base,
		    const struct il_res_metric *cand, enum il_res_stat st,
		    const struct il_res_cmp_opts *o, struct il_res_cmp *out);

#endif
