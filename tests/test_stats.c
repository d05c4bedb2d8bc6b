// SPDX-License-Identifier: MIT
/*
 * The statistics under invlab-compare and invlab-gate, on seeded
 * synthetic data with known answers:
 *
 * - the distribution functions, from GSL and from the built-in
 *   fallbacks alike, against reference values (closed forms where there
 *   are some, the usual tables' values otherwise);
 * - Holm's and Benjamini-Hochberg's corrections, worked out by hand;
 * - the hierarchical bootstrap: identical sides give no change, a clear
 *   shift is found, one wildly varying run does not turn into the tiny
 *   p-value a pooled-sample test gives, and the same seed gives the same
 *   answer;
 * - every decision (significance, threshold, direction, the family's
 *   exit) on both sides of its comparison.
 *
 *   test-stats
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/hist.h>
#include <invlab/time.h>

#include "config.h"
#include "results.h"
#include "stats.h"
#include "t_tools.h"
#include "t_util.h"

#define US		IL_NSEC_PER_USEC
#define near(a, b, eps) (fabs((a) - (b)) <= (eps))

/* ---- distribution functions ------------------------------------------ */

struct dist {
	const char *name;
	double (*betai)(double, double, double);
	double (*norm_cdf)(double);
	double (*norm_q)(double);
	double (*t_cdf)(double, double);
	double (*t_q)(double, double);
};

static void check_dist(const struct dist *d)
{
	fprintf(stderr, "# distributions: %s\n", d->name);
	/* closed forms: I_x(1, 1) = x, I_x(a, 1) = x^a, I_x(1, b) */
	t_check(near(d->betai(1, 1, 0.3), 0.3, 1e-13));
	t_check(near(d->betai(2.5, 1, 0.3), pow(0.3, 2.5), 1e-13));
	t_check(near(d->betai(1, 4, 0.2), 1 - pow(0.8, 4), 1e-13));
	t_check(near(d->betai(7.5, 7.5, 0.5), 0.5, 1e-13));
	/* I_0.4(2, 3) = sum of C(4, k) 0.4^k 0.6^(4-k), k >= 2 */
	t_check(near(d->betai(2, 3, 0.4), 0.5248, 1e-13));
	t_check(d->betai(2, 3, 0) == 0 && d->betai(2, 3, 1) == 1);

	/* the normal law: tables to 16 digits */
	t_check(near(d->norm_cdf(0), 0.5, 1e-15));
	t_check(near(d->norm_cdf(1.96), 0.9750021048517795, 1e-14));
	t_check(near(d->norm_cdf(-1), 0.15865525393145707, 1e-14));
	t_check(near(d->norm_cdf(-5), 2.866515718791939e-07, 1e-19));
	t_check(near(d->norm_q(0.975), 1.959963984540054, 1e-12));
	t_check(near(d->norm_q(0.8), 0.8416212335729143, 1e-12));
	t_check(near(d->norm_q(0.001), -3.090232306167813, 1e-11));
	t_check(near(d->norm_q(0.5), 0, 1e-14));
	t_check(isinf(d->norm_q(0)) && isinf(d->norm_q(1)));

	/* t: one degree is Cauchy, two have a closed form */
	t_check(near(d->t_cdf(1, 1), 0.75, 1e-13));
	t_check(near(d->t_cdf(1, 2), 0.5 + 1 / (2 * sqrt(3)), 1e-13));
	t_check(near(d->t_cdf(-1, 8), 0.346593507087 / 2, 1e-11));
	t_check(near(d->t_cdf(0, 5), 0.5, 1e-15));
	t_check(near(d->t_q(0.975, 1), 12.706204736174698, 1e-9));
	t_check(near(d->t_q(0.975, 4), 2.7764451051977987, 1e-10));
	t_check(near(d->t_q(0.975, 10), 2.2281388519649385, 1e-10));
	t_check(near(d->t_q(0.75, 1), 1, 1e-10));
	t_check(near(d->t_q(0.025, 10), -2.2281388519649385, 1e-10));
	/* many degrees: the normal law */
	t_check(near(d->t_q(0.975, 1e7), 1.959963984540054, 1e-5));
	t_check(isnan(d->t_cdf(1, 0)));
}

static void test_distributions(void)
{
	const struct dist lib = { il_res_dist_backend(), il_res_betai,
				  il_res_norm_cdf,	 il_res_norm_quantile,
				  il_res_t_cdf,		 il_res_t_quantile };
	const struct dist fb = { "built-in fallback", il_res_fb_betai,
				 il_res_fb_norm_cdf,  il_res_fb_norm_quantile,
				 il_res_fb_t_cdf,     il_res_fb_t_quantile };

	check_dist(&lib);
	check_dist(&fb);
#if HAVE_GSL
	t_check(!strncmp(il_res_dist_backend(), "GSL ", 4));
#else
	t_check_str(il_res_dist_backend(), "built-in");
#endif
}

/* ---- corrections -------------------------------------------------------- */

static void test_corrections(void)
{
	const double p[] = { 0.01, 0.04, 0.03, 0.005 };
	const double q[] = { 0.01, NAN, 0.04, 0.03, 0.005 };
	double adj[5];

	/* Holm: 4 x 0.005, 3 x 0.01, 2 x 0.03, then max(0.06, 1 x 0.04) */
	t_check_int(il_res_adjust(p, 4, IL_RES_CORR_HOLM, adj), 0);
	t_check(near(adj[3], 0.02, 1e-15));
	t_check(near(adj[0], 0.03, 1e-15));
	t_check(near(adj[2], 0.06, 1e-15));
	t_check(near(adj[1], 0.06, 1e-15));
	/* BH: 4/k p_(k) = 0.02, 0.02, 0.04, 0.04, made monotone from top */
	t_check_int(il_res_adjust(p, 4, IL_RES_CORR_BH, adj), 0);
	t_check(near(adj[3], 0.02, 1e-15));
	t_check(near(adj[0], 0.02, 1e-15));
	t_check(near(adj[2], 0.04, 1e-15));
	t_check(near(adj[1], 0.04, 1e-15));
	/* none: unchanged */
	t_check_int(il_res_adjust(p, 4, IL_RES_CORR_NONE, adj), 0);
	t_check(adj[1] == 0.04);
	/* a row without a test is not one of the family */
	t_check_int(il_res_adjust(q, 5, IL_RES_CORR_HOLM, adj), 0);
	t_check(isnan(adj[1]));
	t_check(near(adj[4], 0.02, 1e-15) && near(adj[2], 0.06, 1e-15));
	/* never above 1 */
	{
		const double big[] = { 0.6, 0.7, 0.9 };

		il_res_adjust(big, 3, IL_RES_CORR_HOLM, adj);
		t_check(adj[0] == 1 && adj[1] == 1 && adj[2] == 1);
		il_res_adjust(big, 3, IL_RES_CORR_BH, adj);
		t_check(near(adj[0], 0.9, 1e-15) && near(adj[2], 0.9, 1e-15));
	}
	t_check_str(il_res_correction_name(IL_RES_CORR_HOLM), "Holm");
	t_check_str(il_res_correction_name(IL_RES_CORR_BH),
		    "Benjamini-Hochberg");
}

/* ---- the hierarchical bootstrap ---------------------------------------- */

static void metric_init(struct il_res_metric *m, const char *name)
{
	memset(m, 0, sizeof(*m));
	m->name = (char *)name;
	m->merged = malloc(sizeof(*m->merged));
	il_hist_init(m->merged);
}

static void metric_free(struct il_res_metric *m)
{
	il_res_metric_free_runs(m);
	free(m->merged);
}

/* n runs of samples samples around median_ns * scale[i] */
static void metric_runs(struct il_res_metric *m, uint64_t seed, size_t n,
			size_t samples, double median_ns, const double *scale)
{
	static struct il_hist h;

	for (size_t i = 0; i < n; i++) {
		t_fill_hist(&h, &seed, samples, median_ns * scale[i], 0.05);
		t_check_int(il_res_metric_add_run(m, &h), 0);
	}
}

static void test_hboot(void)
{
	/* run-to-run variation of 1 to 2 %, as measured here */
	static const double runs[] = { 1.00, 1.01, 0.99, 1.02, 0.985 };
	static const double up[] = { 1.10, 1.11, 1.09, 1.12, 1.085 };
	static const double wild[] = { 1.00, 1.01, 0.99, 3.00, 0.985 };
	struct il_res_metric a, b, c, w;
	double p, lo, hi, p2, lo2, hi2;

	metric_init(&a, "blocked_ns");
	metric_init(&b, "blocked_ns");
	metric_init(&c, "blocked_ns");
	metric_init(&w, "blocked_ns");
	metric_runs(&a, 11, 5, 1000, 1000 * US, runs);
	metric_runs(&b, 11, 5, 1000, 1000 * US, runs); /* a, again */
	metric_runs(&c, 11, 5, 1000, 1000 * US, up);
	metric_runs(&w, 31, 5, 1000, 1000 * US, wild);
	t_check_int(a.nruns, 5);
	t_check_int(a.merged->count, 5000);
	t_check_int(a.hists[0].count, 1000);
	t_check(a.hists[0].nbins > 0 &&
		a.hists[0].cum[a.hists[0].nbins - 1] == 1000);

	/* identical sides: the interval holds 1, p is large */
	t_check_int(il_res_hboot(&a, &b, IL_RES_P50, IL_RES_SUM_MEDIAN, 2000, 7,
				 0.05, &p, &lo, &hi),
		    0);
	t_check(p > 0.5);
	t_check(lo < 1 && hi > 1);
	t_check(lo > 0.97 && hi < 1.03);
	/* seeded: the same seed, the same answer */
	il_res_hboot(&a, &b, IL_RES_P50, IL_RES_SUM_MEDIAN, 2000, 7, 0.05, &p2,
		     &lo2, &hi2);
	t_check(p == p2 && lo == lo2 && hi == hi2);

	/* a clear 10 % shift: no replicate crosses 1 */
	for (int s = 0; s < 3; s++) {
		static const enum il_res_stat st[] = { IL_RES_P50, IL_RES_P99,
						       IL_RES_MEAN };

		t_check_int(il_res_hboot(&a, &c, st[s], IL_RES_SUM_MEDIAN, 2000,
					 7, 0.05, &p, &lo, &hi),
			    0);
		t_check(near(p, 1.0 / 2001, 1e-12));
		t_check(lo > 1.05 && hi < 1.15);
	}

	/*
	 * One wildly varying run (three times the others): the pooled
	 * samples' bootstrap calls the p90 different beyond doubt, because
	 * a fifth of the samples moved; over runs, it is one run in five,
	 * and the median over runs barely moves: no change.
	 */
	{
		struct il_res_cmp_opts o = { .mode = IL_RES_TEST_AUTO,
					     .alpha = 0.05,
					     .threshold_pct = 2 };
		struct il_res_cmp r;
		double pooled;

		t_check_int(
			il_res_boot_quantile(a.merged, w.merged, 0.9, &pooled),
			0);
		t_check(pooled < 1e-6);
		il_res_compare(&a, &w, IL_RES_P90, &o, &r);
		t_check_int(r.test, IL_RES_T_HBOOT);
		t_check(r.p > 0.05);
		t_check_int(r.change, IL_RES_SAME);
		/* AMean over runs would move by 40 %: the interval is wide */
		o.summary = IL_RES_SUM_AMEAN;
		il_res_compare(&a, &w, IL_RES_P90, &o, &r);
		t_check_int(r.summary, IL_RES_SUM_AMEAN);
		t_check(r.ci_hi - r.ci_lo > 30);
		t_check_int(r.change, IL_RES_SAME);
	}
	/*
	 * Two runs a side, the candidate's two above the baseline's two (as
	 * one A/A row in six is): resampling so few runs finds the gap
	 * certain, and no test over two runs a side can be significant
	 * without taking their distribution on trust: too few runs, no
	 * test, no interval.  Four a side are Welch's, with Welch's
	 * interval (the bootstrap's would be as over-confident as its p).
	 */
	{
		static const double two_lo[] = { 1.00, 1.01, 1.005, 0.995 },
				    two_hi[] = { 1.02, 1.03, 1.025, 1.015 };
		struct il_res_cmp_opts o = { .mode = IL_RES_TEST_AUTO,
					     .alpha = 0.05 };
		struct il_res_metric x, y;
		struct il_res_cmp r;
		double ma = 0, mb = 0, va = 0, vb = 0;

		metric_init(&x, "blocked_ns");
		metric_init(&y, "blocked_ns");
		metric_runs(&x, 41, 4, 1000, 1000 * US, two_lo);
		metric_runs(&y, 43, 4, 1000, 1000 * US, two_hi);
		x.nruns = y.nruns = 2;
		il_res_hboot(&x, &y, IL_RES_P50, IL_RES_SUM_MEDIAN, 2000, 7,
			     0.05, &p, &lo, &hi);
		t_check(p < 0.01);
		il_res_compare(&x, &y, IL_RES_P50, &o, &r);
		t_check_int(r.test, IL_RES_T_NONE);
		t_check(isnan(r.p) && isnan(r.ci_lo) && isnan(r.ci_hi));
		t_check_int(r.change, IL_RES_TOO_FEW);
		t_check_int(r.runs_needed, 4);
		/* --test bootstrap asks for no more than auto does */
		o.mode = IL_RES_TEST_BOOTSTRAP;
		il_res_compare(&x, &y, IL_RES_P50, &o, &r);
		t_check_int(r.test, IL_RES_T_NONE);
		t_check_int(r.change, IL_RES_TOO_FEW);
		o.mode = IL_RES_TEST_AUTO;
		/* three against four: 2 / C(7, 3) = 0.057, still too few */
		x.nruns = 3;
		y.nruns = 4;
		il_res_compare(&x, &y, IL_RES_P50, &o, &r);
		t_check_int(r.change, IL_RES_TOO_FEW);
		t_check_int(r.runs_needed, 4);
		x.nruns = 4;
		il_res_compare(&x, &y, IL_RES_P50, &o, &r);
		t_check_int(r.test, IL_RES_T_WELCH);
		t_check_int(r.runs_needed, 0);
		for (int i = 0; i < 4; i++) {
			ma += x.run[i][IL_RES_P50] / 4;
			mb += y.run[i][IL_RES_P50] / 4;
		}
		for (int i = 0; i < 4; i++) {
			va += pow(x.run[i][IL_RES_P50] - ma, 2) / 3 / 4;
			vb += pow(y.run[i][IL_RES_P50] - mb, 2) / 3 / 4;
		}
		{
			double se = sqrt(va + vb);
			double df = (va + vb) * (va + vb) /
				    (va * va / 3 + vb * vb / 3);
			double t = il_res_t_quantile(0.975, df);

			t_check(near(r.ci_lo, -(mb - ma + t * se) / ma * 100,
				     1e-9));
			t_check(near(r.ci_hi, -(mb - ma - t * se) / ma * 100,
				     1e-9));
		}
		/* five a side: the bootstrap */
		il_res_compare(&a, &b, IL_RES_P50, &o, &r);
		t_check_int(r.test, IL_RES_T_HBOOT);
		/* one run against several: no test */
		x.nruns = 1;
		il_res_compare(&x, &a, IL_RES_P50, &o, &r);
		t_check_int(r.change, IL_RES_TOO_FEW);
		x.nruns = 4;
		metric_free(&x);
		metric_free(&y);
	}
	t_check_int(il_res_hboot(&a, &c, IL_RES_P999, IL_RES_SUM_MEDIAN, 100, 1,
				 0.05, &p, &lo, &hi),
		    0);
	{
		struct il_res_metric e;

		metric_init(&e, "blocked_ns");
		t_check_int(il_res_hboot(&a, &e, IL_RES_P50, IL_RES_SUM_MEDIAN,
					 100, 1, 0.05, &p, &lo, &hi),
			    -ENODATA);
		metric_free(&e);
	}
	metric_free(&a);
	metric_free(&b);
	metric_free(&c);
	metric_free(&w);
}

/* ---- summaries ---------------------------------------------------------- */

static int cmp_dbl(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/*
 * From IL_RES_HBOOT_NESTED_RUNS runs a side, the bootstrap resamples the
 * per-run values alone and the runs' buckets are not kept: memory stays
 * flat and a draw is an index.  It must still see a shift and not see
 * one where there is none.
 */
static void test_hboot_many_runs(void)
{
	const size_t n = IL_RES_HBOOT_NESTED_RUNS;
	double *scale = malloc(200 * sizeof(*scale)), *up;
	struct il_res_metric a, b, c, k;
	uint64_t seed = 5;
	double p, lo, hi;

	up = malloc(200 * sizeof(*up));
	for (size_t i = 0; i < 200; i++) {
		/* a 2 % spread from run to run */
		scale[i] = 1 + 0.02 *
				       ((double)(t_rand(&seed) >> 11) /
						9007199254740992.0 -
					0.5) *
				       3.4;
		up[i] = scale[i] * 1.03;
	}
	metric_init(&a, "blocked_ns");
	metric_init(&b, "blocked_ns");
	metric_init(&c, "blocked_ns");
	metric_init(&k, "blocked_ns");
	k.keep_run_hists = true;
	/* one run short of the number: every run's buckets are kept */
	metric_runs(&a, 21, n - 1, 200, 1000 * US, scale);
	t_check(a.hists != NULL);
	t_check_int(a.hists[n - 2].count, 200);
	/* the run that reaches it drops them all */
	metric_runs(&a, 22, 1, 200, 1000 * US, scale + n - 1);
	t_check(a.hists == NULL);
	t_check_int(a.nruns, n);
	metric_runs(&a, 23, 200 - n, 200, 1000 * US, scale + n);
	t_check(a.hists == NULL);
	t_check_int(a.nruns, 200);
	t_check_int(a.merged->count, 200 * 200);
	/* unless asked to keep them */
	metric_runs(&k, 21, 40, 200, 1000 * US, scale);
	t_check(k.hists != NULL && k.hists[39].count == 200);

	metric_runs(&b, 31, 200, 200, 1000 * US, scale + 0);
	metric_runs(&c, 41, 200, 200, 1000 * US, up);
	t_check(b.hists == NULL && c.hists == NULL);
	/* alike: p large, the interval holds 1 */
	t_check_int(il_res_hboot(&a, &b, IL_RES_P50, IL_RES_SUM_MEDIAN, 2000, 7,
				 0.05, &p, &lo, &hi),
		    0);
	t_check(p > 0.05 && lo < 1 && hi > 1);
	/* 3 % up: found, and the interval holds the shift */
	t_check_int(il_res_hboot(&a, &c, IL_RES_P50, IL_RES_SUM_MEDIAN, 2000, 7,
				 0.05, &p, &lo, &hi),
		    0);
	t_check(p < 0.001);
	t_check(lo > 1.015 && lo < 1.03 && hi > 1.03 && hi < 1.045);
	/* one side of few runs (buckets kept) against one of many */
	t_check_int(il_res_hboot(&k, &c, IL_RES_MEAN, IL_RES_SUM_AMEAN, 2000, 7,
				 0.05, &p, &lo, &hi),
		    0);
	t_check(lo > 1 && hi < 1.06);
	metric_free(&a);
	metric_free(&b);
	metric_free(&c);
	metric_free(&k);
	free(scale);
	free(up);
}

static void test_summaries(void)
{
	const double v[] = { 1, 2, 4, NAN };
	enum il_res_summary s;

	t_check(near(il_res_summarize(IL_RES_SUM_AMEAN, v, 4), 7.0 / 3, 1e-15));
	t_check(near(il_res_summarize(IL_RES_SUM_HMEAN, v, 4), 3 / 1.75,
		     1e-15));
	t_check(il_res_summarize(IL_RES_SUM_MEDIAN, v, 4) == 2);
	t_check(il_res_summarize(IL_RES_SUM_MEDIAN, v, 2) == 1.5);
	t_check(isnan(il_res_summarize(IL_RES_SUM_MEDIAN, v + 3, 1)));
	/* many values: the median by selection agrees with a sort */
	for (size_t n = 17; n < 140; n += 13) {
		double w[140], sorted[140], m;
		uint64_t seed = n;

		for (size_t i = 0; i < n; i++)
			w[i] = sorted[i] = (double)(t_rand(&seed) % 50);
		qsort(sorted, n, sizeof(*sorted), cmp_dbl);
		m = n % 2 ? sorted[n / 2]
			  : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
		t_check(il_res_summarize(IL_RES_SUM_MEDIAN, w, n) == m);
	}
	/* the reviewers' choice by metric and statistic */
	t_check_int(il_res_summary_auto("blocked_ns", IL_RES_MEAN),
		    IL_RES_SUM_AMEAN);
	t_check_int(il_res_summary_auto("blocked_ns", IL_RES_P99),
		    IL_RES_SUM_MEDIAN);
	t_check_int(il_res_summary_auto("blocked_ns", IL_RES_MAX),
		    IL_RES_SUM_MEDIAN);
	t_check_int(il_res_summary_auto("msgs_per_s", IL_RES_MEAN),
		    IL_RES_SUM_HMEAN);
	t_check(il_res_higher_is_better("msgs_per_s"));
	t_check(!il_res_higher_is_better("blocked_ns"));
	t_check_int(il_res_summary_parse("HMean", &s), 0);
	t_check_int(s, IL_RES_SUM_HMEAN);
	t_check_int(il_res_summary_parse("gmean", &s), -EINVAL);
}

/* a side's own interval, each summary, at the edges of its runs */
static void test_summary_ci(void)
{
	const double v[] = { 5, 1, 4, 2, 3, 6, NAN };
	const double one[] = { 2, 2 };
	double lo = 0, hi = 0, t = il_res_t_quantile(0.975, 5);

	/* AMean: 3.5 -/+ t(5) sd / sqrt(6), sd of 1..6 is sqrt(3.5) */
	t_check_int(il_res_summary_ci(IL_RES_SUM_AMEAN, v, 7, &lo, &hi), 0);
	t_check(near(lo, 3.5 - t * sqrt(3.5 / 6), 1e-12));
	t_check(near(hi, 3.5 + t * sqrt(3.5 / 6), 1e-12));
	t_check(lo < 3.5 && 3.5 < hi);
	t_check_int(il_res_mean_ci(1, 3, 1, &lo, &hi), -ENODATA);
	t_check_int(il_res_summary_ci(IL_RES_SUM_AMEAN, v, 1, &lo, &hi),
		    -ENODATA);
	/* no spread: the interval is the value */
	t_check_int(il_res_summary_ci(IL_RES_SUM_AMEAN, one, 2, &lo, &hi), 0);
	t_check(lo == 2 && hi == 2);
	/* Median: [min, max] of 6 covers 1 - 2/64; of 5, 93.75 %: none */
	t_check_int(il_res_summary_ci(IL_RES_SUM_MEDIAN, v, 7, &lo, &hi), 0);
	t_check(lo == 1 && hi == 6);
	t_check_int(il_res_summary_ci(IL_RES_SUM_MEDIAN, v, 5, &lo, &hi),
		    -ENODATA);
	{
		/* 1..20: P(Bin(20, 1/2) <= 5) = 0.0207, <= 6 is 0.0577 */
		double w[20];

		for (int i = 0; i < 20; i++)
			w[i] = 20 - i;
		t_check_int(
			il_res_summary_ci(IL_RES_SUM_MEDIAN, w, 20, &lo, &hi),
			0);
		t_check(lo == 6 && hi == 15);
	}
	/* HMean: the reciprocals' interval turned back, around the HMean */
	t_check_int(il_res_summary_ci(IL_RES_SUM_HMEAN, v, 7, &lo, &hi), 0);
	t_check(lo < il_res_summarize(IL_RES_SUM_HMEAN, v, 7) &&
		il_res_summarize(IL_RES_SUM_HMEAN, v, 7) < hi);
	{
		const double z[] = { 1, 0, 2 };

		t_check_int(il_res_summary_ci(IL_RES_SUM_HMEAN, z, 3, &lo, &hi),
			    -ENODATA);
	}
}

/* ---- decisions, each on both sides -------------------------------------- */

static struct il_res_cmp row(double base, double cand, double p_adj)
{
	struct il_res_cmp c;

	memset(&c, 0, sizeof(c));
	c.base = base;
	c.cand = cand;
	c.pct_imp = il_res_pct_improvement(base, cand);
	c.p = c.p_adj = p_adj;
	c.test = IL_RES_T_HBOOT;
	c.sb.n = c.sc.n = 5;
	c.sb.cv_pct = c.sc.cv_pct = 1;
	return c;
}

static void test_decisions(void)
{
	struct il_res_cmp_opts o = { .mode = IL_RES_TEST_AUTO,
				     .alpha = 0.05,
				     .threshold_pct = 2,
				     .correction = IL_RES_CORR_HOLM };
	struct il_res_cmp c, r[3], *v[3] = { &r[0], &r[1], &r[2] };

	/* significance: p_adj below alpha, not at it */
	c = row(100, 110, 0.0499);
	il_res_decide(&c, &o);
	t_check_int(c.change, IL_RES_WORSE);
	c = row(100, 110, 0.05);
	il_res_decide(&c, &o);
	t_check_int(c.change, IL_RES_SAME);
	/* the threshold: beyond it, not at it */
	c = row(100, 102.01, 0.001);
	il_res_decide(&c, &o);
	t_check_int(c.change, IL_RES_WORSE);
	c = row(100, 102, 0.001);
	il_res_decide(&c, &o);
	t_check_int(c.change, IL_RES_SAME);
	c = row(100, 97.99, 0.001);
	il_res_decide(&c, &o);
	t_check_int(c.change, IL_RES_BETTER);
	c = row(100, 98, 0.001);
	il_res_decide(&c, &o);
	t_check_int(c.change, IL_RES_SAME);
	/* throughput: higher is better, so a drop is worse */
	c = row(100, 90, 0.001);
	c.higher_better = true;
	c.pct_imp = -c.pct_imp;
	il_res_decide(&c, &o);
	t_check_int(c.change, IL_RES_WORSE);
	c = row(100, 110, 0.001);
	c.higher_better = true;
	c.pct_imp = -c.pct_imp;
	il_res_decide(&c, &o);
	t_check_int(c.change, IL_RES_BETTER);
	/*
	 * Runs a side: a claim needs runs that a test assuming nothing of
	 * their distribution could find significant at alpha at all, 2 /
	 * C(na + nb, na) < alpha: 4 a side at 0.05 (2/70), not 3 (0.1),
	 * and not at the level exactly; whatever p the row's test gave.
	 */
	t_check(il_res_runs_enough(4, 4, 0.05));
	t_check(!il_res_runs_enough(3, 3, 0.05));
	t_check(!il_res_runs_enough(4, 4, 2.0 / 70));
	t_check(il_res_runs_enough(4, 4, 2.0 / 70 + 1e-12));
	t_check(il_res_runs_enough(3, 5, 0.05)); /* 2/56 */
	t_check(!il_res_runs_enough(1, 1, 0.5));
	t_check(!il_res_runs_enough(0, 40, 0.5));
	t_check_int(il_res_runs_needed(0.05), 4);
	t_check_int(il_res_runs_needed(2.0 / 70), 5);
	t_check_int(il_res_runs_needed(2.0 / 70 + 1e-12), 4);
	t_check_int(il_res_runs_needed(0.01), 5);
	t_check_int(il_res_runs_needed(0.5), 2);
	/* a level no double's floor misses: the loop's bound is not hit */
	t_check(il_res_runs_needed(1e-300) < 1000);
	c = row(100, 200, 1e-9);
	c.sb.n = c.sc.n = 3;
	il_res_decide(&c, &o);
	t_check_int(c.change, IL_RES_TOO_FEW);
	t_check_int(c.runs_needed, 4);
	c = row(100, 200, 1e-9);
	c.sb.n = 1;
	c.sc.n = 1;
	il_res_decide(&c, &o);
	t_check_int(c.change, IL_RES_TOO_FEW);
	t_check_int(c.runs_needed, 4);
	c = row(100, 200, 1e-9);
	c.sb.n = c.sc.n = 4;
	c.runs_needed = 7;
	il_res_decide(&c, &o);
	t_check_int(c.change, IL_RES_WORSE);
	t_check_int(c.runs_needed, 0);
	/* no value is n/a before too few runs */
	c = row(NAN, 200, 1e-9);
	c.sb.n = 0;
	il_res_decide(&c, &o);
	t_check_int(c.change, IL_RES_NA);
	t_check_int(c.runs_needed, 0);
	/* no test: too few runs, never no change; no value: n/a */
	c = row(100, 200, NAN);
	c.test = IL_RES_T_NONE;
	il_res_decide(&c, &o);
	t_check_int(c.change, IL_RES_TOO_FEW);
	c = row(NAN, 200, 0.001);
	il_res_decide(&c, &o);
	t_check_int(c.change, IL_RES_NA);
	/* a baseline of 0 and a candidate that is not: beyond any threshold */
	c = row(0, 5, 0.001);
	il_res_decide(&c, &o);
	t_check_int(c.change, IL_RES_WORSE);

	/*
	 * The family: three rows at 0.02, 0.03, 0.04, each 10 % worse.
	 * Alone each is worse; Holm makes them 0.06: none is, and the
	 * comparison would exit 0; Benjamini-Hochberg makes them 0.04:
	 * all three are.
	 */
	r[0] = row(100, 110, 0.02);
	r[1] = row(100, 110, 0.03);
	r[2] = row(100, 110, 0.04);
	o.correction = IL_RES_CORR_NONE;
	t_check_int(il_res_decide_family(v, 3, &o), 3);
	o.correction = IL_RES_CORR_HOLM;
	t_check_int(il_res_decide_family(v, 3, &o), 0);
	t_check(near(r[0].p_adj, 0.06, 1e-15));
	t_check_int(r[2].change, IL_RES_SAME);
	o.correction = IL_RES_CORR_BH;
	t_check_int(il_res_decide_family(v, 3, &o), 3);
	t_check(near(r[1].p_adj, 0.04, 1e-15));
	/* two rows: Holm keeps them below 0.05 */
	o.correction = IL_RES_CORR_HOLM;
	t_check_int(il_res_decide_family(v, 2, &o), 2);

	/* power: more noise, more change needed; more rows, too */
	o.power = 0.8;
	c = row(100, 100, 0.5);
	c.sb.cv_pct = c.sc.cv_pct = 0.5;
	il_res_power(&c, &o, 1);
	/* (t_0.975,8 + t_0.8,8) sqrt(2/5) 0.5 % = 1.01 %: the threshold */
	t_check(c.mde_pct == 2);
	c.sb.cv_pct = c.sc.cv_pct = 1;
	il_res_power(&c, &o, 1);
	t_check(c.mde_pct > 2 && c.mde_pct < 2.1);
	c.sb.cv_pct = c.sc.cv_pct = 5;
	il_res_power(&c, &o, 1);
	t_check(near(c.mde_pct,
		     (il_res_t_quantile(0.975, 8) + il_res_t_quantile(0.8, 8)) *
			     5 * sqrt(0.4),
		     1e-9));
	{
		double one = c.mde_pct;

		il_res_power(&c, &o, 25);
		t_check(c.mde_pct > one);
	}
	/* a rank test that cannot reach the level: no change detectable */
	c.test = IL_RES_T_RANK_EXACT;
	il_res_power(&c, &o, 25);
	t_check(isinf(c.mde_pct));
	c.sb.n = 1;
	il_res_power(&c, &o, 1);
	t_check(isnan(c.mde_pct));
	/* the plan: more runs for less change, the bound on both sides */
	{
		size_t n5 = il_res_plan_runs(5, 5, &o, 1);
		size_t n2 = il_res_plan_runs(5, 2.5, &o, 1);
		double f = il_res_t_quantile(0.975, (double)(2 * n5 - 2)) +
			   il_res_t_quantile(0.8, (double)(2 * n5 - 2));
		double g = il_res_t_quantile(0.975, (double)(2 * n5 - 4)) +
			   il_res_t_quantile(0.8, (double)(2 * n5 - 4));

		t_check(n2 > 3 * n5);
		t_check(f * 5 * sqrt(2.0 / (double)n5) <= 5);
		t_check(g * 5 * sqrt(2.0 / (double)(n5 - 1)) > 5);
		t_check(il_res_plan_runs(5, 5, &o, 25) > n5);
		/* never fewer than a claim needs, however large the change */
		t_check_int(il_res_plan_runs(1, 50, &o, 1), 4);
		t_check_int(il_res_plan_runs(0, 5, &o, 1), 0);
	}
}

int main(void)
{
	test_distributions();
	test_corrections();
	test_hboot();
	test_hboot_many_runs();
	test_summaries();
	test_summary_ci();
	test_decisions();
	return t_done("stats");
}
