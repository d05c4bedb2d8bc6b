// SPDX-License-Identifier: MIT
/*
 * invlab-compare and the arithmetic under it, on synthetic results with
 * known answers.
 *
 *   test-compare build/tools/invlab-compare docs/man/invlab-compare.1 \
 *       tests/data/compare
 *
 * The statistics are checked against values worked out by hand (a rank
 * test whose permutation distribution is small enough to count, a t test
 * from its tables, binomial tails summed exactly) and against brute
 * force.  Then result files are written with the real JSON writer and
 * compared: identical inputs must read as no change with p = 1, a clear
 * shift as worse with the ratio it was built with, runs from the same
 * distribution as no change, and the reviewers' "ratio [pct imp](CV)"
 * must come out digit for digit where the data makes it exact.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include <invlab/hist.h>
#include <invlab/sysinfo.h>
#include <invlab/time.h>

#include "escape.h"
#include "results.h"
#include "stats.h"
#include "t_tools.h"
#include "t_util.h"

#define US		IL_NSEC_PER_USEC
#define MS		IL_NSEC_PER_MSEC
#define near(a, b, eps) (fabs((a) - (b)) <= (eps))

static const char *tool, *data;

/* ---- arithmetic ------------------------------------------------------ */

static void test_normalization(void)
{
	double v[] = { 1, 2, NAN, 3, 4 };
	struct il_res_spread s;

	/* positive is better: lower latency is better */
	t_check(near(il_res_pct_improvement(100, 103.94), -3.94, 1e-9));
	t_check(near(il_res_pct_improvement(100, 96.06), 3.94, 1e-9));
	t_check(near(il_res_pct_improvement(2, 2), 0, 0));
	t_check(isnan(il_res_pct_improvement(0, 5)));
	t_check(il_res_pct_improvement(0, 0) == 0);
	t_check(isnan(il_res_pct_improvement(NAN, 1)));

	/* NAN is "this run has no value" and is left out */
	il_res_spread(v, 1, 5, &s);
	t_check_int(s.n, 4);
	t_check(near(s.mean, 2.5, 1e-12));
	t_check(near(s.sd, sqrt(5.0 / 3), 1e-12));
	t_check(near(s.cv_pct, sqrt(5.0 / 3) / 2.5 * 100, 1e-9));
	il_res_spread(v, 1, 1, &s);
	t_check_int(s.n, 1);
	t_check(isnan(s.sd) && isnan(s.cv_pct));
	/* a stride walks one column of the per-run table */
	{
		double tab[3][2] = { { 10, 1 }, { 20, 1 }, { 30, 1 } };

		il_res_spread(&tab[0][0], 2, 3, &s);
		t_check(near(s.mean, 20, 1e-12));
		t_check(near(s.cv_pct, 50, 1e-9));
	}
}

/* the exact two-sided p by enumerating every split (small n only) */
static double brute_mw(const double *a, int na, const double *b, int nb)
{
	double all[16], r[16], e, obs = 0, hit = 0, total = 0;
	int n = na + nb;

	for (int i = 0; i < na; i++)
		all[i] = a[i];
	for (int i = 0; i < nb; i++)
		all[na + i] = b[i];
	for (int i = 0; i < n; i++) {
		double less = 0, eq = 0;

		for (int k = 0; k < n; k++) {
			less += all[k] < all[i];
			eq += all[k] == all[i];
		}
		r[i] = less + (eq + 1) / 2;
	}
	for (int i = 0; i < na; i++)
		obs += r[i];
	e = na * (n + 1) / 2.0;
	for (unsigned m = 0; m < 1u << n; m++) {
		double s = 0;

		if (__builtin_popcount(m) != na)
			continue;
		for (int i = 0; i < n; i++)
			if (m & 1u << i)
				s += r[i];
		total++;
		if (fabs(s - e) >= fabs(obs - e) - 1e-9)
			hit++;
	}
	return hit / total;
}

static void test_mann_whitney(void)
{
	double a[40], b[40], p;
	uint64_t seed = 7;
	bool exact;

	/* three against three, fully apart: 2 of C(6, 3) = 20 splits */
	a[0] = 1, a[1] = 2, a[2] = 3, b[0] = 4, b[1] = 5, b[2] = 6;
	t_check_int(il_res_mann_whitney(a, 3, b, 3, &p, &exact), 0);
	t_check(exact);
	t_check(near(p, 0.1, 1e-12));
	/* five against five: 2 / 252 */
	for (int i = 0; i < 5; i++)
		a[i] = i, b[i] = 10 + i;
	il_res_mann_whitney(a, 5, b, 5, &p, &exact);
	t_check(near(p, 2.0 / 252, 1e-12));
	/* identical samples: no evidence at all */
	il_res_mann_whitney(a, 5, a, 5, &p, &exact);
	t_check(near(p, 1, 1e-12));
	/* ties, many small cases, against brute force */
	{
		int bad = 0;

		for (int round = 0; round < 200; round++) {
			int na = 2 + (int)(t_rand(&seed) % 5),
			    nb = 2 + (int)(t_rand(&seed) % 5);
			double pb;

			for (int i = 0; i < na; i++)
				a[i] = (double)(t_rand(&seed) % 4);
			for (int i = 0; i < nb; i++)
				b[i] = (double)(t_rand(&seed) % 4);
			il_res_mann_whitney(a, (size_t)na, b, (size_t)nb, &p,
					    &exact);
			pb = brute_mw(a, na, b, nb);
			if (!near(p, pb, 1e-9) && !bad++)
				fprintf(stderr, "  %d vs %d: %g, brute %g\n",
					na, nb, p, pb);
		}
		t_check_int(bad, 0);
	}
	/* NAN values are not runs */
	a[0] = 1, a[1] = NAN, a[2] = 2, b[0] = 3, b[1] = 4;
	il_res_mann_whitney(a, 3, b, 2, &p, &exact);
	t_check(near(p, 2.0 / 6, 1e-12));
	t_check_int(il_res_mann_whitney(a, 0, b, 2, &p, &exact), -EINVAL);
	/* large samples: the normal approximation */
	for (int i = 0; i < 40; i++)
		a[i] = i, b[i] = 100 + i;
	il_res_mann_whitney(a, 40, b, 40, &p, &exact);
	t_check(!exact);
	t_check(p < 1e-10);
	for (int i = 0; i < 40; i++)
		a[i] = 2 * i, b[i] = 2 * i + 1;
	il_res_mann_whitney(a, 40, b, 40, &p, &exact);
	t_check(p > 0.8);
	/* what three or four runs a side can ever show */
	t_check(near(il_res_mann_whitney_min_p(3, 3), 0.1, 1e-12));
	t_check(near(il_res_mann_whitney_min_p(4, 4), 2.0 / 70, 1e-12));
	t_check(near(il_res_mann_whitney_min_p(1, 1), 1, 0));
}

static void test_welch_and_beta(void)
{
	double a[] = { 1, 2, 3, 4, 5 }, b[] = { 2, 3, 4, 5, 6 }, p;
	double c1[] = { 5, 5, 5 }, c2[] = { 6, 6, 6 };

	/* I_x(1, 1) = x; I_0.5(a, a) = 1/2; I_0.4(2, 3) summed by hand */
	t_check(near(il_res_betai(1, 1, 0.3), 0.3, 1e-12));
	t_check(near(il_res_betai(7.5, 7.5, 0.5), 0.5, 1e-12));
	t_check(near(il_res_betai(2, 3, 0.4), 0.5248, 1e-12));
	/* t = -1 with 8 degrees of freedom: p = 0.346594 (tables) */
	t_check_int(il_res_welch(a, 5, b, 5, &p), 0);
	t_check(near(p, 0.346594, 1e-6));
	/* no spread: equal means are no evidence, different ones are */
	il_res_welch(c1, 3, c1, 3, &p);
	t_check(p == 1);
	il_res_welch(c1, 3, c2, 3, &p);
	t_check(p == 0);
	t_check_int(il_res_welch(a, 1, b, 5, &p), -EINVAL);
}

static void test_binomial(void)
{
	/* sums of C(10, k) / 1024 */
	t_check(near(il_res_binom_tail(10, 0.5, 5), 638.0 / 1024, 1e-12));
	t_check(near(il_res_binom_tail(10, 0.5, 8), 56.0 / 1024, 1e-12));
	t_check(near(il_res_binom_tail(10, 0.5, 1), 1023.0 / 1024, 1e-12));
	t_check(il_res_binom_tail(10, 0.5, 0) == 1);
	t_check(il_res_binom_tail(10, 0.5, 11) == 0);
	t_check(il_res_binom_tail(10, 0, 1) == 0);
	t_check(il_res_binom_tail(10, 1, 10) == 1);
	/* P(X >= 3), X ~ Bin(1000, 0.001): 1 - e^-1 (1 + 1 + 1/2), ~Poisson */
	t_check(near(il_res_binom_tail(1000, 0.001, 3), 0.0802, 2e-4));
	/* the normal branch: the middle of a symmetric million */
	t_check(near(il_res_binom_tail(1000000, 0.5, 500000), 0.5004, 1e-3));
}

static void test_bootstrap(void)
{
	static struct il_hist a, a2, up, other, small;
	uint64_t s;
	double p;

	s = 1, t_fill_hist(&a, &s, 2000, 1.0 * MS, 0.2);
	s = 1, t_fill_hist(&a2, &s, 2000, 1.0 * MS, 0.2);
	s = 1, t_fill_hist(&up, &s, 2000, 1.2 * MS, 0.2);
	s = 99, t_fill_hist(&other, &s, 2000, 1.0 * MS, 0.2);
	s = 3, t_fill_hist(&small, &s, 500, 1.0 * MS, 0.2);

	/* identical inputs: every resample is a tie or symmetric */
	t_check_int(il_res_boot_quantile(&a, &a2, 0.5, &p), 0);
	t_check(near(p, 1, 1e-9));
	il_res_boot_quantile(&a, &a2, 0.99, &p);
	t_check(near(p, 1, 1e-9));
	/* a 20 % shift of 2000 samples is no accident */
	il_res_boot_quantile(&a, &up, 0.5, &p);
	t_check(p < 1e-6);
	il_res_boot_quantile(&a, &up, 0.99, &p);
	t_check(p < 1e-3);
	/* another draw of the same distribution is */
	il_res_boot_quantile(&a, &other, 0.5, &p);
	t_check(p > 0.05);
	/* p999 of 500 samples does not exist */
	t_check_int(il_res_boot_quantile(&a, &small, 0.999, &p), -ENODATA);

	t_check_int(il_res_mean_z(&a, &a2, &p), 0);
	t_check(near(p, 1, 1e-12));
	il_res_mean_z(&a, &up, &p);
	t_check(p < 1e-6);
	il_res_mean_z(&a, &other, &p);
	t_check(p > 0.05);
}

/* ---- result files ---------------------------------------------------- */

/* one file: configurations "inherit" and "none" with blocked_ns */
static void write_file(const char *name, const struct il_sysinfo *si,
		       uint64_t cs_ns, uint64_t seed, double scale)
{
	static struct il_hist inh, none;
	struct t_run runs[2] = {
		{ "inherit", "PASS", "PASS", 1, { { "blocked_ns", &inh } } },
		{ "none", "FAIL", "FAIL", 1, { { "blocked_ns", &none } } },
	};
	uint64_t s = seed;

	t_fill_hist(&inh, &s, 400, 1.5 * MS * scale, 0.1);
	t_fill_hist(&none, &s, 40, 20.0 * MS * scale, 0.05);
	t_check_int(
		t_write_result(t_tmp(name), "pi-classic", si, cs_ns, runs, 2),
		0);
}

/* a file whose every sample is v: percentiles are exactly v */
static void write_const(const char *name, const struct il_sysinfo *si,
			uint64_t v)
{
	static struct il_hist h;
	struct t_run run = {
		"inherit", NULL, NULL, 1, { { "blocked_ns", &h } }
	};

	il_hist_init(&h);
	for (int i = 0; i < 200; i++)
		il_hist_record(&h, v);
	t_check_int(
		t_write_result(t_tmp(name), "pi-classic", si, 2 * MS, &run, 1),
		0);
}

/* argv[i] = the path of PREFIX<i>.json */
static void files(const char *prefix, int n, char **argv)
{
	for (int i = 0; i < n; i++) {
		char name[64];

		snprintf(name, sizeof(name), "%s%d.json", prefix, i);
		argv[i] = strdup(t_tmp(name));
	}
}

static int run(char **out, char **err, ...)
{
	char *argv[40];
	va_list ap;
	int n = 0;

	argv[n++] = (char *)tool;
	va_start(ap, err);
	while (n < 39 && (argv[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	return t_run_tool(argv, out, err);
}

static void load_set(struct il_res_set *s, char **paths, int n)
{
	char err[512];

	il_res_set_init(s, false);
	for (int i = 0; i < n; i++) {
		int ret = il_res_set_load(s, paths[i], err, sizeof(err));

		t_check_int(ret, 0);
		if (ret)
			fprintf(stderr, "  %s\n", err);
	}
}

static void test_merge_exact(char **base)
{
	static struct il_hist orig[5], none, merged;
	struct il_res_set s;
	const struct il_res_metric *m;
	uint64_t v1, v2;
	double d;

	/* rebuild what write_file wrote, and merge it in memory */
	il_hist_init(&merged);
	for (int i = 0; i < 5; i++) {
		uint64_t seed = 100 + (uint64_t)i;

		t_fill_hist(&orig[i], &seed, 400, 1.5 * MS, 0.1);
		t_fill_hist(&none, &seed, 40, 20.0 * MS, 0.05);
		il_hist_merge(&merged, &orig[i]);
	}
	load_set(&s, base, 5);
	t_check_int(s.nfiles, 5);
	t_check_int(s.ngroups, 2);
	m = il_res_group_metric(il_res_set_find(&s, "pi-classic", "inherit", 0),
				"blocked_ns");
	t_check(m != NULL);
	if (!m)
		return;
	t_check_int(m->nruns, 5);
	/* bins added up are the histogram of all samples: exactly */
	t_check_int(m->merged->count, merged.count);
	t_check_int(m->merged->min, merged.min);
	t_check_int(m->merged->max, merged.max);
	t_check(memcmp(m->merged->bins, merged.bins, sizeof(merged.bins)) == 0);
	t_check_int(il_res_stat_value(m->merged, IL_RES_P99, false, &d), 0);
	il_hist_percentile(&merged, 0.99, &v1);
	t_check(d == (double)v1);
	/* a run read back reports what the demo reported */
	il_hist_percentile(&orig[0], 0.5, &v2);
	t_check(m->run[0][IL_RES_P50] == (double)v2);
	t_check(m->run[0][IL_RES_MAX] == (double)orig[0].max);
	t_check(isnan(m->run[0][IL_RES_P999])); /* 400 samples */
	il_res_set_free(&s);
}

static void test_compare_sets(char **base, char **same, char **shift,
			      char **noise)
{
	struct il_res_cmp_opts o = { .mode = IL_RES_TEST_AUTO,
				     .alpha = 0.05,
				     .threshold_pct = 1 };
	struct il_res_set b, c;
	const struct il_res_metric *mb, *mc;
	struct il_res_cmp r;
	static const enum il_res_stat st[] = { IL_RES_P50, IL_RES_P90,
					       IL_RES_P99, IL_RES_MAX,
					       IL_RES_MEAN };

	load_set(&b, base, 5);
	mb = il_res_group_metric(
		il_res_set_find(&b, "pi-classic", "inherit", 0), "blocked_ns");

	/*
	 * The test by statistic: percentiles by the hierarchical bootstrap,
	 * the mean by Welch's t over the per-run means, max by the rank
	 * test over the per-run maxima.
	 */
	static const enum il_res_test want[] = { IL_RES_T_HBOOT, IL_RES_T_HBOOT,
						 IL_RES_T_HBOOT,
						 IL_RES_T_RANK_EXACT,
						 IL_RES_T_WELCH };

	/* identical inputs: ratio 1, no change, p far from any level */
	load_set(&c, same, 5);
	mc = il_res_group_metric(
		il_res_set_find(&c, "pi-classic", "inherit", 0), "blocked_ns");
	for (size_t i = 0; i < sizeof(st) / sizeof(st[0]); i++) {
		il_res_compare(mb, mc, st[i], &o, &r);
		t_check(r.ratio == 1 && r.pct_imp == 0);
		t_check(r.p > 0.5);
		t_check(r.p_adj == r.p);
		t_check_int(r.change, IL_RES_SAME);
		t_check_int(r.test, want[i]);
		/* the interval holds 0 */
		t_check(r.ci_lo <= 0 && r.ci_hi >= 0);
	}
	il_res_set_free(&c);

	/* 25 % slower in every run: worse, by every test */
	load_set(&c, shift, 5);
	mc = il_res_group_metric(
		il_res_set_find(&c, "pi-classic", "inherit", 0), "blocked_ns");
	for (size_t i = 0; i < sizeof(st) / sizeof(st[0]); i++) {
		il_res_compare(mb, mc, st[i], &o, &r);
		t_check_int(r.change, IL_RES_WORSE);
		t_check_int(r.test, want[i]);
		/* the rank test's floor with 5 runs a side is 2 / 252 */
		if (want[i] == IL_RES_T_RANK_EXACT)
			t_check(near(r.p, 2.0 / 252, 1e-12));
		/* no replicate of the bootstrap crosses 1: 1 / (B + 1) */
		if (want[i] == IL_RES_T_HBOOT)
			t_check(near(r.p, 1.0 / (IL_RES_RESAMPLES_DEFAULT + 1),
				     1e-12));
		/* the histogram's resolution: within 0.8 % */
		t_check(near(r.ratio, 1.25, 0.0125));
		t_check(near(r.pct_imp, -25, 1.25));
		/* the interval holds the change, and not 0 */
		t_check(r.ci_lo <= r.pct_imp && r.ci_hi >= r.pct_imp);
		t_check(r.ci_hi < 0);
		t_check_int(r.sb.n, 5);
		t_check_int(r.sc.n, 5);
	}
	/* the same, told by Welch's t and by the bootstrap */
	o.mode = IL_RES_TEST_WELCH;
	il_res_compare(mb, mc, IL_RES_P50, &o, &r);
	t_check_int(r.test, IL_RES_T_WELCH);
	t_check_int(r.change, IL_RES_WORSE);
	o.mode = IL_RES_TEST_BOOTSTRAP;
	il_res_compare(mb, mc, IL_RES_MEAN, &o, &r);
	t_check_int(r.test, IL_RES_T_HBOOT);
	t_check_int(r.change, IL_RES_WORSE);
	/* rank only, two runs a side: too few runs, not "no change" */
	o.mode = IL_RES_TEST_RANK;
	{
		struct il_res_metric m2b = *mb, m2c = *mc;

		m2b.nruns = m2c.nruns = 2;
		il_res_compare(&m2b, &m2c, IL_RES_P50, &o, &r);
		t_check_int(r.change, IL_RES_TOO_FEW);
		t_check(isnan(r.p));
		t_check_int(r.runs_needed, 4);
		/*
		 * One run a side, 25 % slower: the samples alone would call
		 * it certain, but one run cannot show how runs vary: no
		 * test of any statistic, too few runs.
		 */
		m2b.nruns = m2c.nruns = 1;
		o.mode = IL_RES_TEST_AUTO;
		for (size_t i = 0; i < sizeof(st) / sizeof(st[0]); i++) {
			il_res_compare(&m2b, &m2c, st[i], &o, &r);
			t_check_int(r.test, IL_RES_T_NONE);
			t_check(isnan(r.p) && isnan(r.ci_lo));
			t_check_int(r.change, IL_RES_TOO_FEW);
			t_check_int(r.runs_needed, 4);
		}
		/*
		 * Four runs a side: auto tests a percentile by Welch's t,
		 * with Welch's interval; --test bootstrap draws the
		 * bootstrap for its p all the same, and shows Welch's
		 * interval too (the bootstrap's is over-confident there).
		 */
		m2b.nruns = m2c.nruns = 4;
		{
			struct il_res_cmp w;

			il_res_compare(&m2b, &m2c, IL_RES_P50, &o, &w);
			t_check_int(w.test, IL_RES_T_WELCH);
			t_check(w.ci_lo <= w.pct_imp && w.ci_hi >= w.pct_imp);
			o.mode = IL_RES_TEST_BOOTSTRAP;
			il_res_compare(&m2b, &m2c, IL_RES_P50, &o, &r);
			o.mode = IL_RES_TEST_AUTO;
			t_check_int(r.test, IL_RES_T_HBOOT);
			t_check(r.p < 0.01);
			t_check(r.ci_lo == w.ci_lo && r.ci_hi == w.ci_hi);
		}
	}
	/* a change within --threshold is no change; beyond it, worse */
	o.mode = IL_RES_TEST_AUTO;
	o.threshold_pct = 30;
	il_res_compare(mb, mc, IL_RES_P50, &o, &r);
	t_check_int(r.change, IL_RES_SAME);
	o.threshold_pct = 20;
	il_res_compare(mb, mc, IL_RES_P50, &o, &r);
	t_check_int(r.change, IL_RES_WORSE);
	o.threshold_pct = 1;
	il_res_set_free(&c);

	/*
	 * The same distribution drawn again: noise, read as no change.  (At
	 * alpha 0.05 each row has a 5 % chance of a false alarm; the seeds
	 * are fixed, and these give none.)
	 */
	load_set(&c, noise, 5);
	mc = il_res_group_metric(
		il_res_set_find(&c, "pi-classic", "inherit", 0), "blocked_ns");
	for (size_t i = 0; i < sizeof(st) / sizeof(st[0]); i++) {
		il_res_compare(mb, mc, st[i], &o, &r);
		t_check_int(r.change, IL_RES_SAME);
		t_check(fabs(r.pct_imp) < 5);
	}
	il_res_set_free(&c);
	il_res_set_free(&b);
}

static int write_runs(const char *path, size_t n, const char *extra);

static void test_cli(char **base, char **same, char **shift, char **noise)
{
	char *out = NULL, *err = NULL;
	int rc;

	rc = run(&out, &err, "--quiet", base[0], base[1], base[2], base[3],
		 base[4], "--", same[0], same[1], same[2], same[3], same[4],
		 NULL);
	t_check_int(rc, 0);
	t_check_contains(out, "no change");
	t_check(!strstr(out, "  worse\n") && !strstr(out, "  better\n"));
	t_check_contains(out, "1.00 [  0.00]");
	t_check_contains(out, "U-exact");
	t_check_contains(out, "h-bootstrap");
	/* each block names the statistic over runs its rows use */
	t_check_contains(out, "pi-classic/inherit blocked_ns: Median of "
			      "per-run p50, p99, p999, max; AMean of per-run "
			      "mean; lower is better\n");
	free(out), free(err);

	rc = run(&out, &err, base[0], base[1], base[2], base[3], base[4], "--",
		 shift[0], shift[1], shift[2], shift[3], shift[4], NULL);
	t_check_int(rc, 1);
	t_check_contains(out, "worse");
	t_check_contains(out, "pi-classic/inherit");
	t_check_contains(out, "the kernel fingerprints agree");
	free(out), free(err);

	rc = run(&out, &err, base[0], base[1], base[2], base[3], base[4], "--",
		 noise[0], noise[1], noise[2], noise[3], noise[4], NULL);
	t_check_int(rc, 0);
	/* the p999 rows: 400 samples a run give none */
	t_check_contains(out, "\n0 worse, 0 better, 7 no change, 2 too few");
	t_check_contains(out, "Holm correction over 7 tested rows");
	t_check_contains(out, "\nplan: ");
	free(out), free(err);

	/*
	 * One file against one, 25 % slower: the samples alone would call
	 * it certain, but one run a side cannot show how runs vary.  No
	 * claim, and exit 77, not 0: "nothing worse" from one run a side
	 * would read as a finding.
	 */
	rc = run(&out, &err, "-m", "blocked_ns", "-s", "p50", base[0], shift[0],
		 NULL);
	t_check_int(rc, 77);
	t_check_contains(out, "too few runs: 1 a side, need 4");
	t_check_contains(out, "1:1");
	t_check_contains(out, "\n0 worse, 0 better, 0 no change, 2 too few");
	t_check_contains(out,
			 "\nno claim: 2 rows have too few runs a side (the "
			 "fewest: 1) for a test over runs to reach alpha "
			 "0.05 at all: 4 a side are needed; one run a "
			 "side shows how samples vary within a boot");
	t_check_contains(out, "give at least 4 runs a side");
	t_check_contains(err, "invlab-compare: no claim: every row has too "
			      "few runs a side (the fewest: 1; 4 a side are "
			      "needed at alpha 0.05)");
	free(out), free(err);
	/* three against three: still too few at 0.05; at 0.2, enough */
	rc = run(&out, &err, "-q", "-s", "p50", base[0], base[1], base[2], "--",
		 shift[0], shift[1], shift[2], NULL);
	t_check_int(rc, 77);
	t_check_contains(out, "too few runs: 3 a side, need 4");
	free(out), free(err);
	rc = run(&out, &err, "-q", "-s", "p50", "--alpha", "0.2", base[0],
		 base[1], base[2], "--", shift[0], shift[1], shift[2], NULL);
	t_check_int(rc, 1);
	t_check(!strstr(out, "too few runs:"));
	t_check(!strstr(out, "no claim"));
	free(out), free(err);
	/*
	 * One run against forty is enough for the rank test (2/41 <
	 * 0.05), not for Welch's t: the mean has no test, and reads too
	 * few runs without a count it could not name.
	 */
	t_check_int(write_runs(t_tmp("r1.json"), 1, ""), 0);
	t_check_int(write_runs(t_tmp("r40.json"), 40, ""), 0);
	rc = run(&out, &err, "-s", "mean,max", t_tmp("r1.json"),
		 t_tmp("r40.json"), NULL);
	t_check_contains(out, "1:40");
	t_check_contains(out, "U-exact");
	t_check_contains(out, "too few runs\n");
	t_check(!strstr(out, "need 0"));
	/* forty runs of one file are one invocation's; one run is not */
	t_check_contains(out, "note: the candidate's 40 runs are from one");
	t_check(!strstr(out, "note: the baseline's"));
	free(out), free(err);
	/* four against four: worse, and the closing line claims it */
	rc = run(&out, &err, "-s", "p50", base[0], base[1], base[2], base[3],
		 "--", shift[0], shift[1], shift[2], shift[3], NULL);
	t_check_int(rc, 1);
	t_check_contains(out, "\n2 worse, 0 better, 0 no change, 0 too few");
	t_check(!strstr(out, "no claim"));
	free(out), free(err);
	/* rows with enough runs decide the exit; the others say so */
	rc = run(&out, &err, "-s", "p50,p999", base[0], base[1], base[2],
		 base[3], "--", same[0], same[1], same[2], same[3], NULL);
	t_check_int(rc, 0);
	t_check_contains(out, "too few runs: 0 a side, need 4");
	t_check_contains(out, "\nno claim on those: 1 row has too few runs");
	/* no run has a p999: nothing about one run a side to say */
	t_check(!strstr(out, "one run a side shows"));
	free(out), free(err);

	/* the threshold decides the exit, both sides of the 25 % change */
	rc = run(&out, &err, "-q", "-s", "p50", "--threshold", "24", base[0],
		 base[1], base[2], base[3], base[4], "--", shift[0], shift[1],
		 shift[2], shift[3], shift[4], NULL);
	t_check_int(rc, 1);
	free(out), free(err);
	rc = run(&out, &err, "-q", "-s", "p50", "--threshold", "26", base[0],
		 base[1], base[2], base[3], base[4], "--", shift[0], shift[1],
		 shift[2], shift[3], shift[4], NULL);
	t_check_int(rc, 0);
	t_check_contains(out, "no change");
	free(out), free(err);
	/* the other way round: better never exits 1 */
	rc = run(&out, &err, "-q", shift[0], shift[1], shift[2], shift[3],
		 shift[4], "--", base[0], base[1], base[2], base[3], base[4],
		 NULL);
	t_check_int(rc, 0);
	t_check_contains(out, "  better\n");
	free(out), free(err);
	/*
	 * The correction decides too: two configurations give two max rows,
	 * each at the rank test's floor 2/252 = 0.0079.  At alpha 0.015,
	 * alone each is worse; Holm makes the first 2 x 0.0079 = 0.016, not
	 * below 0.015: no change; Benjamini-Hochberg keeps both at 0.0079.
	 */
	rc = run(&out, &err, "-s", "max", "-c", "none", base[0], base[1],
		 base[2], base[3], base[4], "--", shift[0], shift[1], shift[2],
		 shift[3], shift[4], NULL);
	t_check_int(rc, 1);
	t_check_contains(out, "none correction over 2 tested rows");
	free(out), free(err);
	rc = run(&out, &err, "-s", "max", "-t", "rank", "-c", "holm", "--alpha",
		 "0.015", base[0], base[1], base[2], base[3], base[4], "--",
		 shift[0], shift[1], shift[2], shift[3], shift[4], NULL);
	t_check_int(rc, 0);
	t_check_contains(out, "Holm correction over 2 tested rows");
	free(out), free(err);
	rc = run(&out, &err, "-s", "max", "-t", "rank", "-c", "bh", "--alpha",
		 "0.015", base[0], base[1], base[2], base[3], base[4], "--",
		 shift[0], shift[1], shift[2], shift[3], shift[4], NULL);
	t_check_int(rc, 1);
	t_check_contains(out, "Benjamini-Hochberg correction over 2 tested");
	free(out), free(err);

	/* settings out of range: exit 2, the range named */
	rc = run(&out, &err, "--threshold", "-1", base[0], shift[0], NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "from 0 to 100");
	free(out), free(err);
	rc = run(&out, &err, "--plan", "0", base[0], shift[0], NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "--plan");
	free(out), free(err);
	rc = run(&out, &err, "--summary", "blocked_ns=gmean", base[0], shift[0],
		 NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "not amean, hmean or median");
	free(out), free(err);
	/* --summary: the header says what the rows use */
	rc = run(&out, &err, "-q", "-s", "p50,mean", "--summary",
		 "median,blocked_ns.p50=amean", base[0], shift[0], NULL);
	t_check_contains(out, "blocked_ns: Median of per-run mean; AMean of "
			      "per-run p50; lower");
	free(out), free(err);
	/* a histogram no run has is a typo: 2 with the name, not 77 */
	rc = run(&out, &err, "-m", "blokced_ns", base[0], shift[0], NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "--metric: no histogram 'blokced_ns' in the "
			      "results; did you mean 'blocked_ns'?");
	free(out), free(err);
	rc = run(&out, &err, "-m", "blocked_ns,zzz", base[0], shift[0], NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "no histogram 'zzz' in the results");
	free(out), free(err);
}

static void test_exact_format(const struct il_sysinfo *si)
{
	char *b[5], *c[5], *d[3], *out = NULL, *err = NULL;
	char name[32];
	int rc;

	for (int i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "kb%d.json", i);
		write_const(name, si, 1000 * US);
		b[i] = strdup(t_tmp(name));
		snprintf(name, sizeof(name), "kc%d.json", i);
		write_const(name, si, 1250 * US);
		c[i] = strdup(t_tmp(name));
	}
	/* constant runs: every percentile exact, CV 0 */
	rc = run(&out, &err, "-s", "p50,p99", b[0], b[1], b[2], b[3], b[4],
		 "--", c[0], c[1], c[2], c[3], c[4], NULL);
	t_check_int(rc, 1);
	t_check_contains(out, "1.00 [  0.00]( 0.00)");
	t_check_contains(out, "1.25 [-25.00]( 0.00)");
	t_check_contains(out, "1.00ms");
	t_check_contains(out, "1.25ms");
	free(out), free(err);
	/* the other way round: better, +20 % */
	rc = run(&out, &err, "-q", "-s", "p50", c[0], c[1], c[2], c[3], c[4],
		 "--", b[0], b[1], b[2], b[3], b[4], NULL);
	t_check_int(rc, 0);
	t_check_contains(out, "0.80 [ 20.00]( 0.00)");
	t_check_contains(out, "better");
	free(out), free(err);

	/* runs at 800, 1000 and 1200 us: CV exactly 20 % */
	write_const("cv0.json", si, 800 * US);
	write_const("cv1.json", si, 1000 * US);
	write_const("cv2.json", si, 1200 * US);
	files("cv", 3, d);
	rc = run(&out, &err, "-q", "-s", "p50", d[0], d[1], d[2], "--", d[0],
		 d[1], d[2], NULL);
	t_check_int(rc, 77); /* three runs a side claim nothing */
	t_check_contains(out, "1.00 [  0.00](20.00)");
	free(out), free(err);

	/* markdown and JSON say the same */
	rc = run(&out, &err, "--format", "markdown", "-s", "p50", b[0], b[1],
		 b[2], b[3], b[4], "--", c[0], c[1], c[2], c[3], c[4], NULL);
	t_check_int(rc, 1);
	t_check_contains(out, "**pi-classic/inherit** `blocked_ns`: Median "
			      "of per-run p50; lower is better");
	t_check_contains(out, "| stat | baseline | candidate |");
	t_check_contains(out, "`1.25 [-25.00]( 0.00)`");
	t_check_contains(out, "**worse**");
	free(out), free(err);
	rc = run(&out, &err, "--format=json", "--json", t_tmp("cmp.json"), "-s",
		 "p50", b[0], b[1], b[2], b[3], b[4], "--", c[0], c[1], c[2],
		 c[3], c[4], NULL);
	t_check_int(rc, 1);
	{
		struct json_object *o = json_tokener_parse(out), *cmp, *x;
		char *written = t_read_file(t_tmp("cmp.json"));

		t_check(o != NULL);
		t_check(written && !strcmp(written, out));
		t_check(json_object_object_get_ex(o, "comparisons", &cmp));
		t_check_int(json_object_array_length(cmp), 1);
		x = json_object_array_get_idx(cmp, 0);
		t_check_str(json_object_get_string(
				    json_object_object_get(x, "change")),
			    "worse");
		t_check(near(json_object_get_double(
				     json_object_object_get(x, "ratio")),
			     1.25, 1e-12));
		t_check(near(json_object_get_double(json_object_object_get(
				     x, "pct_improvement")),
			     -25, 1e-9));
		t_check_str(json_object_get_string(
				    json_object_object_get(x, "test")),
			    "h-bootstrap");
		t_check_str(json_object_get_string(
				    json_object_object_get(x, "summary")),
			    "Median");
		t_check_int(json_object_array_length(json_object_object_get(
				    x, "pct_improvement_ci95")),
			    2);
		t_check(json_object_object_get_ex(x, "p_adjusted", NULL));
		t_check(json_object_object_get_ex(x, "detectable_pct", NULL));
		/* constant runs: no spread, no plan */
		t_check_int(json_object_get_int(json_object_object_get(
				    x, "plan_runs_per_side")),
			    0);
		t_check_str(json_object_get_string(json_object_object_get(
				    json_object_object_get(o, "settings"),
				    "correction")),
			    "Holm");
		t_check_int(json_object_get_int(
				    json_object_object_get(o, "return_code")),
			    1);
		json_object_put(o);
		free(written);
	}
	free(out), free(err);
	for (int i = 0; i < 5; i++)
		free(b[i]), free(c[i]);
	for (int i = 0; i < 3; i++)
		free(d[i]);
}

static void test_fingerprints(const struct il_sysinfo *si, char **base)
{
	struct il_sysinfo other = *si;
	char *out = NULL, *err = NULL;
	int rc;

	snprintf(other.release, sizeof(other.release), "6.19.0-test");
	snprintf(other.preempt_current, sizeof(other.preempt_current), "lazy");
	snprintf(other.cmdline, sizeof(other.cmdline),
		 "root=/dev/vda1 console=ttyS0 threadirqs");
	other.proxy_exec_active = 1;
	snprintf(other.hypervisor, sizeof(other.hypervisor), "tcg");
	write_file("k.json", &other, 3 * MS, 100, 1.0);
	rc = run(&out, &err, base[0], t_tmp("k.json"), NULL);
	t_check_int(rc, 77); /* one run a side */
	t_check_contains(out, "DIFFERS");
	t_check_contains(out, "release differs: 6.18.0-test (baseline) vs "
			      "6.19.0-test (candidate)");
	t_check_contains(out, "preempt_current differs: full (baseline) vs "
			      "lazy (candidate)");
	t_check_contains(out, "proxy_exec_active differs: false (baseline) "
			      "vs true (candidate)");
	t_check_contains(out, "baseline only 'quiet', candidate only "
			      "'threadirqs'");
	t_check_contains(out, "scenario differs: cs_ns 2.00ms (baseline) vs "
			      "3.00ms (candidate)");
	t_check_contains(out, "hypervisor differs: unknown (baseline) vs "
			      "tcg (candidate)");
	t_check(!strstr(out, "hz differs"));
	free(out), free(err);
}

/* ---- untrusted results ------------------------------------------------ */

/* the smallest result that once hung compare and gate */
static const char hang_json[] =
	"{\"schema_version\":1,\"program\":\"p\",\"runs\":[{\"configuration\":"
	"\"c\",\"blocked_ns\":{\"count\":10000000000,\"bins\":[[100,"
	"9999999999],[200,1]]}}]}";

static void test_escape(void)
{
	static const char in[] =
		"a\x1b]0;t\x07\r\nb\\c\0d\xc2\x9b\xff\xe2\x80\xae"
		"\xc3\xa9";
	char *e = il_res_escape(in, sizeof(in) - 1);

	t_check_str(e, "a\\x1b]0;t\\x07\\x0d\\x0ab\\\\c\\x00d\\xc2\\x9b\\xff"
		       "\\xe2\\x80\\xae\xc3\xa9");
	free(e);
	/* distinct inputs stay distinct: a written "\x1b" is not an ESC */
	e = il_res_escape("\\x1b", 4);
	t_check_str(e, "\\\\x1b");
	free(e);
	e = il_res_escape("plain 1.5ms", 11);
	t_check_str(e, "plain 1.5ms");
	free(e);
}

static void test_untrusted(const struct il_sysinfo *si0)
{
	static struct il_hist h;
	struct il_sysinfo si = *si0;
	struct t_run r = { "in\x1b]0;pwned\x07\r\nx: PASS",
			   NULL,
			   NULL,
			   1,
			   { { "blocked_ns", &h } } };
	struct il_res_set set;
	char *out = NULL, *err = NULL, msg[512], *big;
	const char *hang = t_tmp("hang.json"), *esc = t_tmp("esc.json");
	uint64_t seed = 9;
	int rc;

	/*
	 * A count of 1e10 over two bins: every statistic must come back
	 * (the binomial tail once looped count times).  The test's timeout
	 * is the bound.
	 */
	t_check(il_res_binom_tail(10000000000ull, 0.9999999999, 5000000000ull) >
		0.99);
	t_check(il_res_binom_tail(10000000000ull, 1e-10, 3) < 0.1);
	t_check_int(t_write_text(hang, hang_json), 0);
	rc = run(&out, &err, hang, hang, NULL);
	t_check(rc == 0 || rc == 77);
	t_check_contains(out, "p/c");
	free(out), free(err);
	rc = run(&out, &err, "--test", "bootstrap", hang, hang, NULL);
	t_check(rc == 0 || rc == 77);
	free(out), free(err);

	/* larger than the limit: refused, the limit named */
	big = calloc(1, 4096);
	memset(big, ' ', 3000);
	memcpy(big + 3000, hang_json, sizeof(hang_json));
	t_check_int(t_write_text(t_tmp("big.json"), big), 0);
	free(big);
	rc = run(&out, &err, "--max-input-size", "2K", t_tmp("big.json"), hang,
		 NULL);
	t_check_int(rc, 99);
	t_check_contains(err, "big.json: 3134 bytes, over the input limit of "
			      "2 KiB (--max-input-size)");
	free(out), free(err);
	rc = run(&out, &err, "--max-input-size", "4K", t_tmp("big.json"), hang,
		 NULL);
	t_check(rc == 0 || rc == 77);
	free(out), free(err);
	il_res_set_init(&set, false);
	set.max_input = 1024;
	t_check_int(il_res_set_load(&set, t_tmp("big.json"), msg, sizeof(msg)),
		    -EFBIG);
	t_check_int((int)set.nfiles, 0);
	/* the limit itself is allowed */
	set.max_input = 3134;
	t_check_int(il_res_set_load(&set, t_tmp("big.json"), msg, sizeof(msg)),
		    0);
	set.max_input = 3133;
	t_check_int(il_res_set_load(&set, t_tmp("big.json"), msg, sizeof(msg)),
		    -EFBIG);
	il_res_set_free(&set);

	/* not a regular file: a device (it would never end), a directory */
	rc = run(&out, &err, "/dev/zero", hang, NULL);
	t_check_int(rc, 99);
	t_check_contains(err, "/dev/zero: not a regular file");
	free(out), free(err);
	/* a directory is its *.json files: one that is a directory fails */
	t_check_int(mkdir(t_tmp("dirjson"), 0755), 0);
	t_check_int(mkdir(t_tmp("dirjson/sub.json"), 0755), 0);
	rc = run(&out, &err, hang, t_tmp("dirjson"), NULL);
	t_check_int(rc, 99);
	t_check_contains(err, "dirjson/sub.json: not a regular file");
	free(out), free(err);

	/* control characters from a result reach no terminal raw */
	snprintf(si.release, sizeof(si.release), "6.18\x1b[2J\rfake");
	t_fill_hist(&h, &seed, 50, 1.0 * MS, 0.1);
	t_check_int(t_write_result(esc, "pi-classic", &si, 2 * MS, &r, 1), 0);
	for (int f = 0; f < 3; f++) {
		static const char *const fmt[] = { "text", "markdown", "json" };

		rc = run(&out, &err, "--format", fmt[f], esc, esc, NULL);
		t_check_int(rc, 77);
		t_check_printable(fmt[f], out);
		t_check_printable(fmt[f], err);
		if (f < 2) {
			t_check_contains(out,
					 "in\\x1b]0;pwned\\x07\\x0d\\x0ax: "
					 "PASS");
			t_check_contains(out, "6.18\\x1b[2J\\x0dfake");
		}
		free(out), free(err);
	}
	/* \u0000 would cut the name short: it is shown */
	t_check_int(t_write_text(t_tmp("nul.json"),
				 "{\"schema_version\":1,\"program\":\"p\","
				 "\"runs\":[{\"configuration\":\"c\\u0000hid"
				 "den\",\"blocked_ns\":{\"count\":1,\"bins\":"
				 "[[100,1]]}}]}"),
		    0);
	rc = run(&out, &err, t_tmp("nul.json"), t_tmp("nul.json"), NULL);
	t_check_contains(out, "p/c\\x00hidden");
	free(out), free(err);
}

/* a result with n runs of configuration "c", written as text */
static int write_runs(const char *path, size_t n, const char *extra)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f, "{\"schema_version\":1,\"program\":\"p\",%s\"runs\":[",
		extra);
	for (size_t i = 0; i < n; i++)
		fprintf(f,
			"%s{\"configuration\":\"c\",\"blocked_ns\":{"
			"\"count\":1,\"bins\":[[100,1]]}}",
			i ? "," : "");
	fputs("]}\n", f);
	return fclose(f);
}

/*
 * A directory on the command line stands for its *.json files, in name
 * order (a lab's 10,000 files a side need not fit in ARG_MAX): the same
 * table as the files named one by one; hidden names and other files
 * left out; a directory without result files refused.
 */
static void test_dirs(char **base, char **shift)
{
	char *out = NULL, *err = NULL, *want = NULL, name[64];
	int rc;

	t_check_int(mkdir(t_tmp("dir-a"), 0755), 0);
	t_check_int(mkdir(t_tmp("dir-b"), 0755), 0);
	t_check_int(mkdir(t_tmp("dir-none"), 0755), 0);
	for (int i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "dir-a/r%d.json", i);
		t_check_int(symlink(base[i], t_tmp(name)), 0);
		snprintf(name, sizeof(name), "dir-b/r%d.json", i);
		t_check_int(symlink(shift[i], t_tmp(name)), 0);
	}
	t_check_int(t_write_text(t_tmp("dir-a/notes.txt"), "not json"), 0);
	t_check_int(t_write_text(t_tmp("dir-a/.partial.json"), "{"), 0);
	t_check_int(t_write_text(t_tmp("dir-none/notes.txt"), "x"), 0);

	rc = run(&want, NULL, "--quiet", base[0], base[1], base[2], base[3],
		 base[4], "--", shift[0], shift[1], shift[2], shift[3],
		 shift[4], NULL);
	t_check_int(rc, 1);
	rc = run(&out, &err, "--quiet", t_tmp("dir-a"), "--", t_tmp("dir-b"),
		 NULL);
	t_check_int(rc, 1);
	t_check_str(out, want);
	free(out), free(err), free(want);
	/* with a trailing slash, and a directory beside a file */
	rc = run(&out, &err, t_tmp("dir-a/"), base[0], "--", t_tmp("dir-b"),
		 NULL);
	t_check_int(rc, 1);
	t_check_contains(out, "baseline:  6 files: ");
	t_check_contains(out, "dir-a/r0.json, r1.json, ...");
	t_check(!strstr(out, "dir-a//"));
	t_check_contains(out, "candidate: 5 files: ");
	free(out), free(err);

	rc = run(&out, &err, t_tmp("dir-none"), "--", t_tmp("dir-b"), NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "dir-none: a directory without *.json files");
	free(out), free(err);
}

/* The limits on what a file may ask for, each named in its error. */
static void test_limits(void)
{
	struct il_res_set s;
	char msg[512], extra[8192];
	size_t used = 0;

	il_res_set_init(&s, false);
	t_check_int(write_runs(t_tmp("runs.json"), IL_RES_MAX_RUNS, ""), 0);
	t_check_int(il_res_set_load(&s, t_tmp("runs.json"), msg, sizeof(msg)),
		    0);
	t_check_int((int)s.nruns, IL_RES_MAX_RUNS);
	/* one run more, in a second file of the same side */
	t_check_int(write_runs(t_tmp("one.json"), 1, ""), 0);
	t_check_int(il_res_set_load(&s, t_tmp("one.json"), msg, sizeof(msg)),
		    -E2BIG);
	t_check_contains(msg, "over the limit of 100000 runs a side "
			      "(IL_RES_MAX_RUNS)");
	t_check_int((int)s.nfiles, 1);
	il_res_set_free(&s);

	/* scenario members */
	used = (size_t)snprintf(extra, sizeof(extra), "\"scenario\":{");
	for (int i = 0; i <= IL_RES_MAX_SCENARIO_KEYS; i++)
		used += (size_t)snprintf(extra + used, sizeof(extra) - used,
					 "%s\"k%d\":%d", i ? "," : "", i, i);
	snprintf(extra + used, sizeof(extra) - used, "},");
	t_check_int(write_runs(t_tmp("keys.json"), 1, extra), 0);
	il_res_set_init(&s, false);
	t_check_int(il_res_set_load(&s, t_tmp("keys.json"), msg, sizeof(msg)),
		    -EINVAL);
	t_check_contains(msg, "over the limit of 256 "
			      "(IL_RES_MAX_SCENARIO_KEYS)");
	il_res_set_free(&s);

	/* counts must agree with the bins */
	t_check_int(t_write_text(t_tmp("ovf.json"),
				 "{\"schema_version\":1,\"program\":\"p\","
				 "\"runs\":[{\"configuration\":\"c\","
				 "\"blocked_ns\":{\"count\":2,\"overflow\":3,"
				 "\"bins\":[[100,2]]}}]}"),
		    0);
	il_res_set_init(&s, false);
	t_check_int(il_res_set_load(&s, t_tmp("ovf.json"), msg, sizeof(msg)),
		    -EINVAL);
	t_check_contains(msg, "overflow: 3 is more than the 2 samples");
	il_res_set_free(&s);
}

/*
 * What is on one side only is reported once: every loop over the two
 * sides stops after the candidate (a loop running a third time would
 * report the candidate again).
 */
static void test_sides_once(void)
{
	static const char base[] =
		"{\"schema_version\":1,\"program\":\"p\",\"scenario\":{"
		"\"cs_ns\":1000},\"runs\":[{\"configuration\":\"c\","
		"\"blocked_ns\":{\"count\":1,\"bins\":[[100,1]]}}]}";
	static const char cand[] =
		"{\"schema_version\":1,\"program\":\"p\",\"interrupted\":true,"
		"\"scenario\":{\"cs_ns\":1000,\"cand_key\":5},\"runs\":[{"
		"\"configuration\":\"c\",\"blocked_ns\":{\"count\":1,\"bins\":"
		"[[100,1]]},\"cand_ns\":{\"count\":1,\"bins\":[[100,1]]}}]}";
	const char *b = t_tmp("side-base.json"), *c = t_tmp("side-cand.json");
	char *out = NULL, *err = NULL;

	t_check_int(t_write_text(b, base), 0);
	t_check_int(t_write_text(c, cand), 0);
	t_check(run(&out, &err, "--stat", "p50", b, c, NULL) >= 0);
	t_check_int((int)t_count(out, "scenario differs: cand_key"), 1);
	t_check_int((int)t_count(out, "was interrupted"), 1);
	free(out), free(err);
	t_check(run(&out, &err, "--format", "json", "--stat", "p50", b, c,
		    NULL) >= 0);
	t_check_int((int)t_count(out, "\"cand_key\""), 1);
	free(out), free(err);
}

static void test_errors(const struct il_sysinfo *si, char **base)
{
	static struct il_hist h;
	struct t_run r = { "x", NULL, NULL, 1, { { "other_ns", &h } } };
	char *out = NULL, *err = NULL;
	struct json_object *doc;
	uint64_t s = 5;
	FILE *f;
	int rc, rc0;

	rc = run(&out, &err, base[0], base[1], base[2], NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "BASE.json... -- CAND.json...");
	free(out), free(err);
	rc = run(&out, &err, base[0], "--", NULL);
	t_check_int(rc, 2);
	free(out), free(err);
	rc = run(&out, &err, base[0], "--", base[1], "--format", "json", NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "options go before '--'");
	free(out), free(err);
	rc = run(&out, &err, "--alpha", "2", base[0], base[1], NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "--alpha");
	free(out), free(err);
	rc = run(&out, &err, "--stat", "p95", base[0], base[1], NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "unknown statistic 'p95'");
	free(out), free(err);
	rc = run(&out, &err, "--formt", "json", base[0], base[1], NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "did you mean '--format'");
	free(out), free(err);

	/* a missing input is an input error (2), as in every program */
	rc = run(&out, &err, base[0], t_tmp("absent.json"), NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "absent.json: No such file or directory");
	free(out), free(err);
	/* unreadable inputs: 99, with the file (and line) named */
	f = fopen(t_tmp("broken.json"), "w");
	fputs("{\n  \"schema_version\": 1,\n  \"runs\": [\n", f);
	fclose(f);
	rc = run(&out, &err, base[0], t_tmp("broken.json"), NULL);
	t_check_int(rc, 99);
	t_check_contains(err, "broken.json:");
	t_check_contains(err, "not JSON");
	free(out), free(err);
	f = fopen(t_tmp("badbin.json"), "w");
	fputs("{\"schema_version\": 1, \"program\": \"p\", \"runs\": [{"
	      "\"configuration\": \"c\", \"x_ns\": {\"count\": 1, \"bins\": "
	      "[[257, 1]]}}]}\n",
	      f);
	fclose(f);
	rc = run(&out, &err, base[0], t_tmp("badbin.json"), NULL);
	t_check_int(rc, 99);
	t_check_contains(err, "runs[0].x_ns.bins[0]: 257 is not a bucket "
			      "edge");
	free(out), free(err);

	/*
	 * schema_version: a file without one (of before it) reads as
	 * version 1, as the same file with it; a newer one, or one that is
	 * not a number, is refused (a newer schema may mean something else
	 * by the same keys)
	 */
	doc = json_object_from_file(base[0]);
	t_check(doc != NULL);
	json_object_object_del(doc, "schema_version");
	t_check_int(json_object_to_file(t_tmp("old.json"), doc), 0);
	rc0 = run(&out, &err, base[0], base[0], NULL);
	t_check(rc0 == 0 || rc0 == 77);
	free(out), free(err);
	rc = run(&out, &err, base[0], t_tmp("old.json"), NULL);
	t_check_int(rc, rc0);
	t_check(!strstr(err, "schema_version"));
	free(out), free(err);
	json_object_object_add(doc, "schema_version", json_object_new_int(2));
	t_check_int(json_object_to_file(t_tmp("newer.json"), doc), 0);
	rc = run(&out, &err, base[0], t_tmp("newer.json"), NULL);
	t_check_int(rc, 99);
	t_check_contains(err, "newer.json: schema_version 2, this tool reads "
			      "version 1");
	free(out), free(err);
	json_object_object_add(doc, "schema_version",
			       json_object_new_string("1"));
	t_check_int(json_object_to_file(t_tmp("strver.json"), doc), 0);
	rc = run(&out, &err, base[0], t_tmp("strver.json"), NULL);
	t_check_int(rc, 99);
	t_check_contains(err, "strver.json: schema_version is not an integer");
	free(out), free(err);
	json_object_put(doc);

	/* nothing in common: 77 */
	t_fill_hist(&h, &s, 100, 1000, 0.1);
	t_check_int(
		t_write_result(t_tmp("other.json"), "pi-other", si, 0, &r, 1),
		0);
	rc = run(&out, &err, base[0], t_tmp("other.json"), NULL);
	t_check_int(rc, 77);
	t_check_contains(out, "pi-classic/inherit only in the baseline");
	t_check_contains(out, "pi-other/x only in the candidate");
	t_check_contains(err, "nothing to compare");
	free(out), free(err);
}

static void test_mut_statistics(void);

/* the row of metric and stat in a compare --json document, or NULL */
static struct json_object *json_row(struct json_object *doc, const char *metric,
				    const char *stat)
{
	struct json_object *rows;

	if (!json_object_object_get_ex(doc, "comparisons", &rows))
		return NULL;
	for (size_t i = 0; i < json_object_array_length(rows); i++) {
		struct json_object *r = json_object_array_get_idx(rows, i);
		struct json_object *m, *s;

		if (json_object_object_get_ex(r, "metric", &m) &&
		    json_object_object_get_ex(r, "stat", &s) &&
		    !strcmp(json_object_get_string(m), metric) &&
		    !strcmp(json_object_get_string(s), stat))
			return r;
	}
	return NULL;
}

static double json_num_at(struct json_object *r, const char *side,
			  const char *key)
{
	struct json_object *o, *v;

	if (!r || !json_object_object_get_ex(r, side, &o) ||
	    !json_object_object_get_ex(o, key, &v))
		return NAN;
	return json_object_get_double(v);
}

static const char *json_str_at(struct json_object *r, const char *key)
{
	struct json_object *v;

	if (!r || !json_object_object_get_ex(r, key, &v))
		return "";
	return json_object_get_string(v);
}

/* a file of write_const's shape from a kernel of release rel */
static void write_const_rel(const char *name, const struct il_sysinfo *si,
			    uint64_t v, const char *rel)
{
	struct il_sysinfo k = *si;

	snprintf(k.release, sizeof(k.release), "%s", rel);
	write_const(name, &k, v);
}

/* write_const's file with count samples */
static void write_const_count(const char *name, const struct il_sysinfo *si,
			      uint64_t v, int count)
{
	static struct il_hist h;
	struct t_run run = {
		"inherit", NULL, NULL, 1, { { "blocked_ns", &h } }
	};

	il_hist_init(&h);
	for (int i = 0; i < count; i++)
		il_hist_record(&h, v);
	t_check_int(
		t_write_result(t_tmp(name), "pi-classic", si, 2 * MS, &run, 1),
		0);
}

/* argv[at..at+n) = files, then "--"; returns the next free index */
static int side_args(char **argv, int at, char **files, int n, bool dashes)
{
	for (int i = 0; i < n; i++)
		argv[at++] = files[i];
	if (dashes)
		argv[at++] = "--";
	return at;
}

/*
 * Three sides and more: every side against the first, a column group a
 * side, worked out from constant runs (1.00ms, 1.25ms, 0.80ms: the
 * ratios and changes are exact), and the correction over every side's
 * test of every row.
 */
static void test_nway(const struct il_sysinfo *si, char **base, char **same,
		      char **shift)
{
	char *b[5], *c[5], *d[5], *r[3], *argv[40], *out = NULL, *err = NULL;
	char name[32];
	struct json_object *o, *x, *y;
	int rc, n;

	for (int i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "nb%d.json", i);
		write_const(name, si, 1000 * US);
		b[i] = strdup(t_tmp(name));
		snprintf(name, sizeof(name), "nc%d.json", i);
		write_const(name, si, 1250 * US);
		c[i] = strdup(t_tmp(name));
		snprintf(name, sizeof(name), "nd%d.json", i);
		write_const(name, si, 800 * US);
		d[i] = strdup(t_tmp(name));
	}

	/* the table, digit for digit */
	n = 0;
	argv[n++] = (char *)tool;
	argv[n++] = "-q";
	argv[n++] = "-s";
	argv[n++] = "p50,mean";
	argv[n++] = "-l";
	argv[n++] = "tip";
	argv[n++] = "--label=v21";
	argv[n++] = "-l";
	argv[n++] = "full";
	n = side_args(argv, n, b, 5, true);
	n = side_args(argv, n, c, 5, true);
	n = side_args(argv, n, d, 5, false);
	argv[n] = NULL;
	rc = t_run_tool(argv, &out, &err);
	t_check_int(rc, 1);
	t_check_contains(
		out,
		"pi-classic/inherit blocked_ns: Median of per-run p50; AMean "
		"of per-run mean; lower is better\n"
		"stat        tip (CV)   runs  v21[pct imp](CV)      CI95 pct "
		"imp       p adj  change  full[pct imp](CV)     CI95 pct imp   "
		"  "
		"  p adj  change\n"
		"----  --------------  -----  --------------------  "
		"------------"
		"----  ------  ------  --------------------  ----------------  "
		"------  ------\n"
		"p50   1.00ms ( 0.00)  5:5:5  1.25 [-25.00]( 0.00)  [-25.00, "
		"-25.00]  <0.001  worse   0.80 [ 20.00]( 0.00)  [+20.00, "
		"+20.00]"
		"  <0.001  better\n"
		"mean  1.00ms ( 0.00)  5:5:5  1.25 [-25.00]( 0.00)  [-25.00, "
		"-25.00]  <0.001  worse   0.80 [ 20.00]( 0.00)  [+20.00, "
		"+20.00]"
		"  <0.001  better\n");
	free(out), free(err);

	/* the closing lines count every side's test of every row */
	argv[1] = "-s";
	argv[2] = "p50";
	argv[3] = "-l";
	argv[4] = "tip";
	argv[5] = "-l";
	argv[6] = "v21";
	argv[7] = "-l";
	argv[8] = "full";
	rc = t_run_tool(argv, &out, &err);
	t_check_int(rc, 1);
	t_check_contains(out, "tip:  5 files: ");
	t_check_contains(out, "full: 5 files: ");
	t_check_contains(out, "\n1 worse, 1 better, 0 no change, 0 too few "
			      "runs (Holm correction over 2 tests, every side "
			      "against the baseline on every row");
	t_check_contains(out, "kernel             tip                     "
			      "            v21   ");
	free(out), free(err);

	/* Markdown: one table, a column group a side */
	argv[1] = "--stat=p50";
	argv[2] = "--format=markdown";
	rc = t_run_tool(argv, &out, &err);
	t_check_int(rc, 1);
	t_check_contains(out, "| stat | tip (CV) | runs | v21[pct imp](CV) | "
			      "CI95 pct imp | p adj | change | "
			      "full[pct imp](CV) | CI95 pct imp | p adj | "
			      "change |\n|---|---:|---:|---|---|---:|---|---|"
			      "---|---:|---|\n");
	t_check_contains(out, "| p50 | 1.00ms ( 0.00) | 5:5:5 | `1.25 "
			      "[-25.00]( 0.00)` | [-25.00, -25.00] | <0.001 | "
			      "**worse** | `0.80 [ 20.00]( 0.00)` | [+20.00, "
			      "+20.00] | <0.001 | **better** |\n");
	t_check_contains(out, "| kernel | tip | v21 | full | |\n");
	free(out), free(err);

	/* JSON: the baseline, then the candidates, each row with each */
	argv[2] = "--format=json";
	rc = t_run_tool(argv, &out, &err);
	t_check_int(rc, 1);
	o = json_tokener_parse(out);
	t_check(o != NULL);
	t_check_str(json_str_at(json_object_object_get(o, "baseline"), "label"),
		    "tip");
	x = json_object_object_get(o, "candidates");
	t_check_int(json_object_array_length(x), 2);
	t_check_str(json_str_at(json_object_array_get_idx(x, 1), "label"),
		    "full");
	t_check(!json_object_object_get_ex(o, "candidate", NULL));
	x = json_row(o, "blocked_ns", "p50");
	t_check(near(json_num_at(x, "baseline", "value_ns"), 1000 * US, 1));
	y = json_object_object_get(x, "candidates");
	t_check_int(json_object_array_length(y), 2);
	t_check_str(json_str_at(json_object_array_get_idx(y, 0), "label"),
		    "v21");
	t_check(near(json_object_get_double(json_object_object_get(
			     json_object_array_get_idx(y, 0), "ratio")),
		     1.25, 1e-12));
	t_check_str(json_str_at(json_object_array_get_idx(y, 0), "change"),
		    "worse");
	t_check(near(json_object_get_double(json_object_object_get(
			     json_object_array_get_idx(y, 1), "value_ns")),
		     800 * US, 1));
	t_check_str(json_str_at(json_object_array_get_idx(y, 1), "change"),
		    "better");
	/* every side's test of every row */
	t_check_int(
		json_object_get_int(json_object_object_get(
			json_object_object_get(o, "settings"), "tested_rows")),
		2);
	json_object_put(o);
	free(out), free(err);

	/*
	 * The names: without --label, the kernel releases when they tell
	 * the sides apart, else baseline, cand1, cand2 and a note.
	 */
	n = 0;
	argv[n++] = (char *)tool;
	argv[n++] = "-s";
	argv[n++] = "p50";
	n = side_args(argv, n, b, 2, true);
	n = side_args(argv, n, c, 2, true);
	n = side_args(argv, n, d, 2, false);
	argv[n] = NULL;
	rc = t_run_tool(argv, &out, &err);
	t_check_int(rc, 77); /* two runs a side claim nothing */
	t_check_contains(out, "cand1[pct imp](CV)");
	t_check_contains(out, "stat   baseline (CV)");
	t_check_contains(out, "note: the sides are named baseline, cand1 and "
			      "cand2 in the order given");
	t_check_contains(out, "\ncand1:    2 files: ");
	t_check_contains(out, "\ncand2:    2 files: ");
	/* what agrees on every side is no note */
	t_check(!strstr(out, "scenario differs"));
	t_check(!strstr(out, "DIFFERS"));
	free(out), free(err);
	/* the JSON names the sides, the baseline too */
	argv[1] = "--format=json";
	argv[2] = "--stat=p50";
	rc = t_run_tool(argv, &out, &err);
	o = json_tokener_parse(out);
	t_check_str(json_str_at(json_object_object_get(o, "baseline"), "label"),
		    "baseline");
	t_check_int(json_object_array_length(
			    json_object_object_get(o, "scenario_differences")),
		    0);
	json_object_put(o);
	free(out), free(err);
	write_const_rel("r0.json", si, 1000 * US, "6.18.0-tip");
	write_const_rel("r1.json", si, 1250 * US, "6.18.0-v21");
	write_const_rel("r2.json", si, 1250 * US, "6.18.0-tip");
	for (int i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "r%d.json", i);
		r[i] = strdup(t_tmp(name));
	}
	rc = run(&out, &err, "-s", "p50", r[0], "--", r[1], "--", b[0], NULL);
	t_check_int(rc, 77); /* one run a side */
	t_check_contains(out, "6.18.0-v21[pct imp](CV)");
	t_check_contains(out, "6.18.0-test[pct imp](CV)");
	t_check_contains(out, "6.18.0-tip (CV)");
	t_check(!strstr(out, "the sides are named"));
	free(out), free(err);
	rc = run(&out, &err, "-f", "json", "-s", "p50", r[0], "--", r[1], "--",
		 b[0], NULL);
	o = json_tokener_parse(out);
	x = json_object_array_get_idx(
		json_object_object_get(o, "kernel_differences"), 0);
	t_check_str(json_str_at(x, "field"), "release");
	t_check_str(json_str_at(x, "baseline"), "6.18.0-tip");
	t_check_str(json_object_get_string(json_object_array_get_idx(
			    json_object_object_get(x, "candidates"), 1)),
		    "6.18.0-test");
	json_object_put(o);
	free(out), free(err);
	/* two sides: the candidate's value, and no names unless given */
	rc = run(&out, &err, "-f", "json", "-s", "p50", r[0], r[1], NULL);
	o = json_tokener_parse(out);
	x = json_object_array_get_idx(
		json_object_object_get(o, "kernel_differences"), 0);
	t_check_str(json_str_at(x, "candidate"), "6.18.0-v21");
	t_check(!json_object_object_get_ex(
		json_object_object_get(o, "baseline"), "label", NULL));
	json_object_put(o);
	free(out), free(err);
	rc = run(&out, &err, "-f", "json", "-s", "p50", "-l", "tip", "-l",
		 "v21", r[0], r[1], NULL);
	o = json_tokener_parse(out);
	t_check_str(
		json_str_at(json_object_object_get(o, "candidate"), "label"),
		"v21");
	json_object_put(o);
	free(out), free(err);
	/* two sides of one release: not a name; the middle one differs */
	rc = run(&out, &err, "-s", "p50", r[0], "--", r[1], "--", r[2], NULL);
	t_check_contains(out, "cand2[pct imp](CV)");
	t_check_contains(out, "the sides are named");
	t_check_contains(out, "note: release differs: 6.18.0-tip (baseline) "
			      "vs 6.18.0-v21 (cand1) vs 6.18.0-tip (cand2)\n");
	t_check_contains(out, "6.18.0-tip                          DIFFERS\n");
	free(out), free(err);
	/* a side of two releases: not a name either */
	rc = run(&out, &err, "-s", "p50", r[0], "--", r[1], b[0], "--", b[1],
		 NULL);
	t_check_contains(out, "cand1[pct imp](CV)");
	t_check_contains(out, "release differs between the files of cand1");
	free(out), free(err);
	/* unknown is no name: the counters fixtures know no release */
	{
		char cb[512], cc[512];

		snprintf(cb, sizeof(cb), "%s/../counters/base.json", data);
		snprintf(cc, sizeof(cc), "%s/../counters/cand.json", data);
		rc = run(&out, &err, cb, "--", cc, "--", cb, NULL);
		/* the wall time of the second side is worse */
		t_check_int(rc, 1);
		t_check_contains(out, "the sides are named baseline, cand1 "
				      "and cand2");
		t_check_contains(out, "Amean wall  6:6:6  0.1025 (  0.00%)  "
				      "4.89  0.1325 *-29.27%*  3.78  0.013  "
				      "worse   0.1025 (  0.00%)  4.89  1.000  "
				      "no change\n");
		free(out), free(err);
		rc = run(&out, &err, cb, "--", cb, "--", cb, NULL);
		t_check_int(rc, 0);
		free(out), free(err);
	}

	/*
	 * Holm over every side's test: two configurations, two sides 25 %
	 * slower, the rank test's floor 2/252 on each of the four max rows.
	 * Four tests make it 4 x 2/252 = 0.0317: no change at alpha 0.03,
	 * worse at 0.035; two sides alone (two tests, 0.0159) are worse at
	 * 0.03.
	 */
	n = 0;
	argv[n++] = (char *)tool;
	argv[n++] = "-s";
	argv[n++] = "max";
	argv[n++] = "-t";
	argv[n++] = "rank";
	argv[n++] = "--alpha";
	argv[n++] = "0.03";
	n = side_args(argv, n, base, 5, true);
	n = side_args(argv, n, shift, 5, true);
	n = side_args(argv, n, shift, 5, false);
	argv[n] = NULL;
	rc = t_run_tool(argv, &out, &err);
	t_check_int(rc, 0);
	t_check_contains(out, "Holm correction over 4 tests");
	t_check_contains(out, "0.032  no change");
	t_check(!strstr(out, "  worse"));
	free(out), free(err);
	argv[6] = "0.035";
	rc = t_run_tool(argv, &out, &err);
	t_check_int(rc, 1);
	t_check_int((int)t_count(out, "0.032  worse"), 4);
	/* two sides alike: the noisiest is the first of them */
	t_check_contains(out, "blocked_ns max against cand1\n");
	free(out), free(err);
	argv[6] = "0.03";
	argv[7 + 5 + 1 + 5] = NULL;
	rc = t_run_tool(argv, &out, &err);
	t_check_int(rc, 1);
	t_check_contains(out, "Holm correction over 2 tested rows");
	free(out), free(err);

	/* only the last side worse: worse all the same */
	n = 1;
	argv[n++] = "-s";
	argv[n++] = "p50";
	n = side_args(argv, n, base, 5, true);
	n = side_args(argv, n, same, 5, true);
	n = side_args(argv, n, shift, 5, false);
	argv[n] = NULL;
	rc = t_run_tool(argv, &out, &err);
	t_check_int(rc, 1);
	t_check_contains(out, "1.000  no change  1.25 [-25.");
	t_check_int((int)t_count(out, "  worse\n"), 2);
	free(out), free(err);
	/* better is never a failure */
	n = 3;
	n = side_args(argv, n, shift, 5, true);
	n = side_args(argv, n, shift, 5, true);
	n = side_args(argv, n, base, 5, false);
	argv[n] = NULL;
	rc = t_run_tool(argv, &out, &err);
	t_check_int(rc, 0);
	t_check_contains(out, "  better\n");
	free(out), free(err);

	/*
	 * A side without a configuration: its cells n/a, the others
	 * compared, the baseline's value still shown; a configuration no
	 * baseline has is noted, not compared.
	 */
	n = 1;
	argv[n++] = "-s";
	argv[n++] = "p50";
	n = side_args(argv, n, base, 5, true);
	n = side_args(argv, n, c, 5, true);
	n = side_args(argv, n, shift, 5, false);
	argv[n++] = (char *)t_tmp("other.json");
	argv[n] = NULL;
	rc = t_run_tool(argv, &out, &err);
	t_check_int(rc, 1);
	t_check_contains(out, "note: pi-classic/none not in cand1\n");
	t_check_contains(out, "note: pi-other/x only in cand2\n");
	t_check_contains(out, "p50   20.0ms ( 1.18)  5:0:5   n/a [   n/a](  "
			      "n/a)  -                 -  n/a     1.25 [-24.");
	t_check_contains(out, "Holm correction over 3 tests");
	free(out), free(err);
	/* in JSON: the groups not on every side, and where they are */
	argv[1] = "--format=json";
	argv[2] = "--stat=p50";
	rc = t_run_tool(argv, &out, &err);
	o = json_tokener_parse(out);
	x = json_object_object_get(o, "not_in_every_side");
	t_check_int(json_object_array_length(x), 2);
	y = json_object_array_get_idx(x, 0);
	t_check_str(json_str_at(y, "configuration"), "pi-classic/none");
	t_check_int(json_object_array_length(json_object_object_get(y, "in")),
		    2);
	t_check_str(json_object_get_string(json_object_array_get_idx(
			    json_object_object_get(y, "in"), 1)),
		    "cand2");
	json_object_put(o);
	free(out), free(err);

	/*
	 * A statistic one side lacks (a p999 of 200 samples): the row is
	 * shown with what there is, and no test.
	 */
	write_const_count("n2000.json", si, 1000 * US, 2000);
	rc = run(&out, &err, "-q", "-s", "p999", t_tmp("n2000.json"), b[0],
		 NULL);
	t_check_int(rc, 77);
	t_check_contains(
		out, "p999    1.00ms        n/a  1.00 [  0.00](  n/a)   n/a");
	free(out), free(err);
	rc = run(&out, &err, "-q", "-s", "p999", t_tmp("n2000.json"), "--",
		 b[0], "--", c[0], NULL);
	t_check_int(rc, 77);
	t_check_contains(out, "p999  1.00ms (  n/a)  1:0:0   n/a [   n/a](  "
			      "n/a)");
	free(out), free(err);

	/* a side with nothing to compare: 77, as for two */
	rc = run(&out, &err, "-s", "p50", t_tmp("other.json"), "--", b[0], "--",
		 c[0], NULL);
	t_check_int(rc, 77);
	t_check_contains(err, "nothing to compare");
	free(out), free(err);

	for (int i = 0; i < 5; i++)
		free(b[i]), free(c[i]), free(d[i]);
	for (int i = 0; i < 3; i++)
		free(r[i]);
}

/* how the sides are given: every way of getting it wrong is refused */
static void test_nway_errors(char **base)
{
	char *out = NULL, *err = NULL;
	int rc;

	/* one side only */
	rc = run(&out, &err, base[0], "--", NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "no candidate files");
	free(out), free(err);
	rc = run(&out, &err, "--", base[0], NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "no baseline files");
	free(out), free(err);
	/* an empty side, between two "--" or after the last */
	rc = run(&out, &err, base[0], "--", "--", base[1], NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "side 2 of 3 has no files");
	free(out), free(err);
	rc = run(&out, &err, base[0], "--", base[1], "--", NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "side 3 of 3 has no files");
	free(out), free(err);
	rc = run(&out, &err, base[0], "--", base[1], "--", base[2], "--", "--",
		 NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "side 4 of 5 has no files");
	free(out), free(err);
	/* options go before the first "--", whatever follows */
	rc = run(&out, &err, base[0], "--", base[1], "--", base[2], "-q", NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "options go before '--': '-q'");
	free(out), free(err);
	/* --label: one a side, named, no two alike */
	rc = run(&out, &err, "-l", "a", "-l", "b", base[0], "--", base[1], "--",
		 base[2], NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "--label: 3 sides and 2 labels: give one "
			      "--label a side");
	free(out), free(err);
	rc = run(&out, &err, "-l", "a", "-l", "b", "-l", "c", base[0], "--",
		 base[1], NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "2 sides and 3 labels");
	free(out), free(err);
	rc = run(&out, &err, "-l", "a", "-l", "", base[0], base[1], NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "--label: side 2: an empty name");
	free(out), free(err);
	rc = run(&out, &err, "-l", "a", "-l", "b", "-l", "a", base[0], "--",
		 base[1], "--", base[2], NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "--label: 'a' names sides 1 and 3");
	free(out), free(err);
	/* two sides in Markdown: the files' lines as they were */
	rc = run(&out, &err, "-f", "markdown", "-s", "p50", base[0], base[1],
		 NULL);
	t_check_contains(out, "\n**Baseline:** 1 file: `");
	t_check_contains(out, "\n**Candidate:** 1 file: `");
	free(out), free(err);
	rc = run(&out, &err, "-f", "markdown", "-s", "p50", "-l", "tip", "-l",
		 "v21", base[0], base[1], NULL);
	t_check_contains(out, "\n**tip:** 1 file: `");
	t_check_contains(out, "| stat | tip | v21 | tip[pct imp](CV) | "
			      "v21[pct imp](CV) | CI95 pct imp |");
	free(out), free(err);
	/* two sides named: the names in the headers and notes */
	rc = run(&out, &err, "-l", "tip", "-l", "v21", "-s", "p50", base[0],
		 base[1], NULL);
	t_check_contains(out, "stat     tip     v21  tip[pct imp](CV)");
	t_check_contains(out, "tip: 1 file: ");
	t_check_contains(out, "the kernel fingerprints agree");
	free(out), free(err);
}

/* write_const's file with a critical section of cs_ns */
static void write_const_cs(const char *name, const struct il_sysinfo *si,
			   uint64_t v, uint64_t cs_ns)
{
	static struct il_hist h;
	struct t_run run = {
		"inherit", NULL, NULL, 1, { { "blocked_ns", &h } }
	};

	il_hist_init(&h);
	for (int i = 0; i < 200; i++)
		il_hist_record(&h, v);
	t_check_int(
		t_write_result(t_tmp(name), "pi-classic", si, cs_ns, &run, 1),
		0);
}

/* where needle first is in hay, or a number past any */
static size_t at(const char *hay, const char *needle)
{
	const char *p = hay ? strstr(hay, needle) : NULL;

	return p ? (size_t)(p - hay) : (size_t)-1;
}

/* a job run (invlab-run's shape) whose job sets M's protocol */
static void write_job(const char *name, const char *protocol,
		      const char *run_protocol)
{
	char text[2048], ji[512] = "";

	if (run_protocol)
		snprintf(ji, sizeof(ji),
			 "\"judge_inputs\":{\"job_text\":\"[global]\\nduration "
			 "= 1s\\n\\n[resource M]\\nprotocol = %s\\n\"},",
			 run_protocol);
	snprintf(text, sizeof(text),
		 "{\"schema_version\":1,\"program\":\"invlab-run\",\"job\":{"
		 "\"name\":\"pi\",\"text\":\"; a job\\n[global]\\nduration = "
		 "2s\\n\\n[resource M]\\nprotocol = %s\\n\\n[task high]\\n"
		 "class = fifo:30\\n\"},\"runs\":[{\"configuration\":\"pi\",%s"
		 "\"blocked_ns\":{\"count\":1,\"bins\":[[100,1]]}}]}",
		 protocol, ji);
	t_check_int(t_write_text(t_tmp(name), text), 0);
}

/* what --by reads of a run: the run, its scenario, its job */
static void test_run_key(void)
{
	static const char doc[] =
		"{\"scenario\":{\"groups\":4,\"configuration\":\"no\","
		"\"flag\":true,\"gone\":null},\"job\":{\"text\":\"[global]\\n"
		"duration = 2s\\n[task high]\\nclass = fifo:30\\n[resource "
		"M.1]\\nprotocol = none\\n\"},\"runs\":[{\"configuration\":"
		"\"inherit\",\"reason\":null,\"judge_inputs\":{\"job_text\":"
		"\"[global]\\nduration = 3s\\n\"}},{\"configuration\":\"x\"}]}";
	struct json_object *root = json_tokener_parse(doc), *runs, *r0, *r1;
	const char *v[6];
	char *val = NULL;

	t_check(root != NULL);
	if (!root)
		return;
	runs = json_object_object_get(root, "runs");
	r0 = json_object_array_get_idx(runs, 0);
	r1 = json_object_array_get_idx(runs, 1);
	/* the run's member first, then the scenario's */
	t_check_int(il_res_run_key(root, r0, "configuration", &val), 0);
	t_check_str(val, "inherit");
	free(val);
	t_check_int(il_res_run_key(root, r0, "groups", &val), 0);
	t_check_str(val, "4");
	free(val);
	t_check_int(il_res_run_key(root, r0, "flag", &val), 0);
	t_check_str(val, "true");
	free(val);
	/* null is no value */
	t_check_int(il_res_run_key(root, r0, "reason", &val), -ENOENT);
	t_check(val == NULL);
	t_check_int(il_res_run_key(root, r0, "gone", &val), -ENOENT);
	/* the job as the run ran it, else as the file has it */
	t_check_int(il_res_run_key(root, r0, "duration", &val), 0);
	t_check_str(val, "3s");
	free(val);
	t_check_int(il_res_run_key(root, r1, "duration", &val), 0);
	t_check_str(val, "2s");
	free(val);
	t_check_int(il_res_run_key(root, r1, "global.duration", &val), 0);
	t_check_str(val, "2s");
	free(val);
	/* SECTION.KEY as --set names it; a name may hold dots */
	t_check_int(il_res_run_key(root, r1, "high.class", &val), 0);
	t_check_str(val, "fifo:30");
	free(val);
	t_check_int(il_res_run_key(root, r1, "M.1.protocol", &val), 0);
	t_check_str(val, "none");
	free(val);
	t_check_int(il_res_run_key(root, r0, "high.class", &val), -ENOENT);
	t_check_int(il_res_run_key(root, r1, "low.class", &val), -ENOENT);
	t_check_int(il_res_run_key(root, r1, "high.prio", &val), -ENOENT);
	t_check_int(il_res_run_key(root, r1, "class", &val), -ENOENT);
	/* an object is no value, a member of the run or not */
	t_check_int(il_res_run_key(root, r0, "judge_inputs", &val), -ENOENT);
	t_check(val == NULL);
	json_object_put(root);

	/* the job's text as the INI reader reads it */
	{
		static const char jobs[] =
			"{\"job\":{\"text\":\"[global\\nprotocol = g0\\n"
			"[global]\\nprotocol = g1\\n[resource M]\\nprotocol\\n"
			"protocol = none\\nprotocol = inherit\\n[M]\\nprotocol "
			"= bare\\n\"},\"runs\":[{\"judge_inputs\":{\"job_text\""
			":5}},{\"judge_inputs\":null},{\"judge_inputs\":\"x\"}]"
			"}";

		root = json_tokener_parse(jobs);
		t_check(root != NULL);
		runs = json_object_object_get(root, "runs");
		for (int i = 0; root && i < 3; i++) {
			r0 = json_object_array_get_idx(runs, (size_t)i);
			/* a header without ']' opens no section */
			t_check_int(il_res_run_key(root, r0, "protocol", &val),
				    0);
			t_check_str(val, "g1");
			free(val);
			/* the first of a key twice; [M] is neither a task
			 * nor a resource; a line without '=' is no key */
			t_check_int(
				il_res_run_key(root, r0, "M.protocol", &val),
				0);
			t_check_str(val, "none");
			free(val);
		}
		json_object_put(root);
	}

	/* a run's sweep of the key: its value first, its configuration
	 * folded; "global.K" is "K"; a sweep of another key changes nothing */
	{
		static const char sw[] =
			"{\"scenario\":{\"groups\":10},\"runs\":[{"
			"\"configuration\":\"process-socket groups=4\","
			"\"groups\":7,\"sweep\":{\"key\":\"groups\","
			"\"value\":4,\"configuration\":\"process-socket\"}},"
			"{\"configuration\":\"j duration=2s\",\"sweep\":{"
			"\"key\":\"duration\",\"value\":\"2s\","
			"\"configuration\":\"j\"}},{\"configuration\":\"c\","
			"\"sweep\":{\"key\":5,\"value\":1,"
			"\"configuration\":\"x\"}},{\"sweep\":{\"key\":"
			"\"groups\",\"value\":1}}]}";
		struct json_object *rs, *s0, *s1, *s2, *s3;

		root = json_tokener_parse(sw);
		t_check(root != NULL);
		rs = json_object_object_get(root, "runs");
		s0 = json_object_array_get_idx(rs, 0);
		s1 = json_object_array_get_idx(rs, 1);
		s2 = json_object_array_get_idx(rs, 2);
		s3 = json_object_array_get_idx(rs, 3);
		t_check_int(il_res_run_key(root, s0, "groups", &val), 0);
		t_check_str(val, "4");
		free(val);
		t_check_int(il_res_run_configuration(s0, "groups", &val), 0);
		t_check_str(val, "process-socket");
		free(val);
		/* without --by, or by another key: the run's own name */
		t_check_int(il_res_run_configuration(s0, NULL, &val), 0);
		t_check_str(val, "process-socket groups=4");
		free(val);
		t_check_int(il_res_run_configuration(s0, "loops", &val), 0);
		t_check_str(val, "process-socket groups=4");
		free(val);
		t_check_int(il_res_run_configuration(s0, "configuration", &val),
			    0);
		t_check_str(val, "process-socket groups=4");
		free(val);
		t_check_int(il_res_run_key(root, s0, "configuration", &val), 0);
		t_check_str(val, "process-socket groups=4");
		free(val);
		t_check_int(il_res_run_key(root, s1, "global.duration", &val),
			    0);
		t_check_str(val, "2s");
		free(val);
		t_check_int(
			il_res_run_configuration(s1, "global.duration", &val),
			0);
		t_check_str(val, "j");
		free(val);
		t_check_int(il_res_run_configuration(s1, "duration", &val), 0);
		t_check_str(val, "j");
		free(val);
		/* a key that is no string sweeps nothing */
		t_check_int(il_res_run_configuration(s2, "5", &val), 0);
		t_check_str(val, "c");
		free(val);
		t_check_int(il_res_run_key(root, s2, "5", &val), -ENOENT);
		/* nor does a sweep without its configuration make one */
		t_check_int(il_res_run_configuration(s3, "groups", &val),
			    -ENOENT);
		t_check(val == NULL);
		t_check_int(il_res_run_configuration(s3, NULL, &val), -ENOENT);
		json_object_put(root);
	}

	/* by number when every value is one, stable; else as given */
	v[0] = "16", v[1] = "1", v[2] = "4", v[3] = "1.0", v[4] = "2e0";
	t_check_int(il_res_by_sort(v, 5), 0);
	t_check_str(v[0], "1");
	t_check_str(v[1], "1.0");
	t_check_str(v[2], "2e0");
	t_check_str(v[3], "4");
	t_check_str(v[4], "16");
	v[0] = "16", v[1] = "2s", v[2] = "4";
	t_check_int(il_res_by_sort(v, 3), 0);
	t_check_str(v[0], "16");
	t_check_str(v[1], "2s");
	v[0] = "3", v[1] = "", v[2] = "1";
	il_res_by_sort(v, 3);
	t_check_str(v[0], "3");
	v[0] = "3", v[1] = "inf", v[2] = "1";
	il_res_by_sort(v, 3);
	t_check_str(v[0], "3");
	v[0] = "-1", v[1] = "-2";
	il_res_by_sort(v, 2);
	t_check_str(v[0], "-2");
}

/*
 * --by: a sweep, one row a value.  sched-messaging over groups 1, 4 and
 * 16 (tests/data/compare/sm-*.json, made so: v21 10 % slower at 16
 * groups, full 10 % faster at 1, six runs each, fully apart), then
 * pi-classic's cs_ns, then a job's key.
 */
static void test_by(const struct il_sysinfo *si, char **base, char **shift)
{
	char f[9][512], *argv[40], *out = NULL, *err = NULL;
	static const char *const kern[] = { "tip", "v21", "full" };
	static const int order[] = { 16, 1, 4 };
	char *b[3], *c[3], *j[4];
	char name[32];
	struct json_object *o, *x;
	int rc, n = 0;

	for (int k = 0; k < 3; k++)
		for (int g = 0; g < 3; g++)
			snprintf(f[k * 3 + g], sizeof(f[0]),
				 "%s/sm-%s-g%d.json", data, kern[k], order[g]);
	argv[n++] = (char *)tool;
	argv[n++] = "-q";
	argv[n++] = "--by";
	argv[n++] = "groups";
	for (int k = 0; k < 3; k++) {
		for (int g = 0; g < 3; g++)
			argv[n++] = f[k * 3 + g];
		if (k < 2)
			argv[n++] = "--";
	}
	argv[n] = NULL;
	rc = t_run_tool(argv, &out, &err);
	t_check_int(rc, 1);
	/* in the order of the numbers, not of the files or the strings */
	t_check_contains(
		out,
		"sched-messaging/process-socket wall time (s, AMean over runs, "
		"lower is better; rank test over runs)\n"
		"            groups   runs  6.18.0-tip          CV  6.18.0-v21 "
		"         CV  p adj  change     6.18.0-full         CV  p adj  "
		"change\n"
		"----------  ------  -----  ----------------  ----  -----------"
		"-----  ----  -----  ---------  ----------------  ----  -----  "
		"---------\n"
		"Amean wall       1  6:6:6  0.0200 (  0.00%)  1.41  0.0200 (  "
		"0.00%)  1.41  1.000  no change  0.0180 * 10.00%*  1.57  0.026 "
		" "
		"better\n"
		"Amean wall       4  6:6:6  0.0500 (  0.00%)  0.68  0.0500 (  "
		"0.00%)  0.68  1.000  no change  0.0500 (  0.00%)  0.68  1.000 "
		" "
		"no change\n"
		"Amean wall      16  6:6:6  0.2000 (  0.00%)  0.71  0.2200 "
		"*-10.00%*  0.64  0.026  worse      0.2000 (  0.00%)  0.71  "
		"1.000  no change\n");
	/* 3 values x 2 metrics x 2 sides; 12 x 2/924 = 0.026 */
	t_check_contains(out, "Holm correction over the 12 rows of this block");
	t_check_contains(out,
			 "sched-messaging/process-socket      16  "
			 "context_switches  6.18.0-full       16025  16025");
	free(out), free(err);
	/* without --by the sweep is one configuration of 18 runs a side */
	argv[2] = "-s";
	argv[3] = "p50";
	rc = t_run_tool(argv, &out, &err);
	t_check_contains(out, "Amean wall  18:18:18");
	t_check(!strstr(out, "groups"));
	free(out), free(err);
	/* JSON: the key in the settings, each row's value */
	argv[2] = "--format=json";
	argv[3] = "--by=groups";
	rc = t_run_tool(argv, &out, &err);
	t_check_int(rc, 1);
	o = json_tokener_parse(out);
	t_check_str(json_str_at(json_object_object_get(o, "settings"), "by"),
		    "groups");
	x = json_object_array_get_idx(json_object_object_get(o, "counters"), 4);
	t_check_str(json_str_at(x, "by"), "16");
	t_check_str(json_str_at(x, "side"), "6.18.0-v21");
	t_check_str(json_str_at(x, "change"), "worse");
	json_object_put(o);
	free(out), free(err);
	/* two sides: the wall-time table the same, a column of groups */
	rc = run(&out, &err, "-q", "--by", "groups", f[0], f[1], f[2], "--",
		 f[3], f[4], f[5], NULL);
	t_check_int(rc, 1);
	t_check_contains(out, "Amean wall      16   6:6  0.2000 (  0.00%)  "
			      "0.71  0.2200 *-10.00%*  0.64  0.013  worse\n");
	free(out), free(err);
	/* a value on one side only is no row (and a note) */
	rc = run(&out, &err, "--by", "groups", f[0], f[1], "--", f[3], f[5],
		 NULL);
	t_check_int(rc, 1);
	t_check_contains(out, "note: sched-messaging/process-socket groups=1 "
			      "only in the baseline\n");
	t_check_contains(out, "note: sched-messaging/process-socket groups=4 "
			      "only in the candidate\n");
	t_check(!strstr(out, "Amean wall       1 "));
	free(out), free(err);

	/*
	 * Histograms: pi-classic at cs_ns 10ms, 500us and 2ms (in that
	 * order), the candidate 25 % slower at 2ms only.
	 */
	for (int i = 0; i < 3; i++) {
		static const uint64_t cs[] = { 10 * MS, 500 * US, 2 * MS };

		snprintf(name, sizeof(name), "by-b%d.json", i);
		write_const_cs(name, si, 1000 * US, cs[i]);
		b[i] = strdup(t_tmp(name));
		snprintf(name, sizeof(name), "by-c%d.json", i);
		write_const_cs(name, si, i == 2 ? 1250 * US : 1000 * US, cs[i]);
		c[i] = strdup(t_tmp(name));
	}
	rc = run(&out, &err, "-s", "p50", "--by", "cs_ns", b[0], b[1], b[2],
		 "--", c[0], c[1], c[2], NULL);
	t_check_int(rc, 77); /* a value is one run a side */
	t_check_contains(out, "pi-classic/inherit blocked_ns: Median of "
			      "per-run p50; lower is better\n"
			      "stat     cs_ns  baseline  candidate  ");
	t_check_contains(out, "p50    2000000    1.00ms     1.25ms  1.00 [  "
			      "0.00](  n/a)  1.25 [-25.00](  n/a)");
	t_check(at(out, "p50     500000") < at(out, "p50    2000000"));
	t_check(at(out, "p50    2000000") < at(out, "p50   10000000"));
	t_check_contains(out, "0 better, 0 no change, 3 too few runs (Holm "
			      "correction over 0 tested rows");
	free(out), free(err);
	/* every statistic, then every value, in a block */
	rc = run(&out, &err, "-q", "-s", "p50,max", "--by", "cs_ns", b[0], b[1],
		 b[2], "--", c[0], c[1], c[2], NULL);
	t_check_contains(out, "blocked_ns: Median of per-run p50, max; lower");
	t_check(at(out, "p50   10000000") < at(out, "max     500000"));
	t_check_int((int)t_count(out, "\np50 "), 3);
	free(out), free(err);
	rc = run(&out, &err, "--format=json", "-s", "p50", "--by", "cs_ns",
		 b[0], b[1], b[2], "--", c[0], c[1], c[2], NULL);
	o = json_tokener_parse(out);
	x = json_object_array_get_idx(json_object_object_get(o, "comparisons"),
				      1);
	t_check_str(json_str_at(x, "by"), "2000000");
	t_check_str(json_str_at(x, "change"), "too few runs");
	json_object_put(o);
	free(out), free(err);

	/* the plan names the noisiest row's value */
	rc = run(&out, &err, "--by", "cs_ns", base[0], base[1], base[2], "--",
		 shift[0], shift[1], shift[2], NULL);
	t_check_contains(out, "; the noisiest is pi-classic/");
	t_check_contains(out, " at cs_ns=2000000\n");
	/* a block a configuration, as without --by */
	t_check_int((int)t_count(out, " blocked_ns: Median"), 2);
	t_check_contains(out, "\npi-classic/none blocked_ns: ");
	free(out), free(err);
	/* Markdown: the key's column, in the table and in the counters */
	rc = run(&out, &err, "-q", "-f", "markdown", "-s", "p50", "--by",
		 "cs_ns", base[0], base[1], "--", shift[0], shift[1], NULL);
	t_check_contains(out, "| stat | cs_ns | baseline | candidate | base "
			      "[pct imp](CV) | cand [pct imp](CV) | CI95 pct "
			      "imp | runs | p | p adj | test | detects | "
			      "change |\n|---|---:|---:|---:|---|");
	t_check_contains(out, "| p50 | 2000000 | ");
	free(out), free(err);
	rc = run(&out, &err, "-q", "-f", "markdown", "--by", "groups", f[0],
		 f[1], "--", f[3], f[4], NULL);
	t_check_contains(out, "| configuration | groups | metric | side | "
			      "baseline | value |");
	t_check_contains(out,
			 "| | groups | runs | baseline | CV | candidate "
			 "| CV | p adj | change |\n|---|---:|---:|---:|---:|"
			 "---:|---:|---:|---|\n| Amean wall | 1 | 6:6 |");
	free(out), free(err);

	/* a job's key, as --set names it: not numbers, so as first seen */
	write_job("job0.json", "none", NULL);
	write_job("job1.json", "inherit", NULL);
	/* the run's own job text wins over the file's */
	write_job("job2.json", "inherit", "protect");
	write_job("job3.json", "inherit", NULL);
	for (int i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "job%d.json", i);
		j[i] = strdup(t_tmp(name));
	}
	rc = run(&out, &err, "-q", "-s", "mean", "--by", "M.protocol", j[0],
		 j[1], j[2], "--", j[0], j[1], j[2], "--", j[2], j[3], NULL);
	t_check_int(rc, 77); /* one run a side */
	t_check(at(out, " none ") < at(out, " inherit "));
	t_check(at(out, " inherit ") < at(out, " protect "));
	t_check_contains(out, "stat  M.protocol  baseline (CV)");
	free(out), free(err);
	/* with the configuration as the key, a block of the scenario */
	rc = run(&out, &err, "-q", "-s", "mean", "--by", "configuration", j[0],
		 j[1], "--", j[0], j[1], NULL);
	t_check_contains(out, "invlab-run blocked_ns: AMean of per-run mean; "
			      "lower is better\nstat  configuration");
	free(out), free(err);
	/* a run without the key is an error, and names its file */
	rc = run(&out, &err, "--by", "high.prio", j[0], j[1], NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "job0.json: runs[0]: no 'high.prio' for --by");
	free(out), free(err);
	rc = run(&out, &err, "--by", "groups", f[0], "--", f[3], "--", j[0],
		 NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "job0.json: runs[0]: no 'groups' for --by");
	free(out), free(err);
	rc = run(&out, &err, "--by", "", j[0], j[1], NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "--by: no key given");
	free(out), free(err);

	for (int i = 0; i < 3; i++)
		free(b[i]), free(c[i]);
	for (int i = 0; i < 4; i++)
		free(j[i]);
}

/*
 * Two dl-mbwi results (tests/data/compare, trimmed from two runs of
 * `dl-mbwi basic -d 1s`): the deadline tasks' histograms, those of their
 * locks, and their counts (misses of jobs, late waits of those judged)
 * are compared like any histogram, in the one corrected family.
 */
/*
 * The result file in with its one run made five, tauA's deadline
 * misses m0, m0 + step, ... in turn, written to out.
 */
static void five_runs(const char *in, const char *out, int m0, int step)
{
	struct json_object *src = json_object_from_file(in), *runs, *run = NULL;

	t_check(src != NULL);
	if (!src)
		return;
	runs = json_object_object_get(src, "runs");
	t_check_int(json_object_deep_copy(json_object_array_get_idx(runs, 0),
					  &run, NULL),
		    0);
	for (int i = 0; i < 5; i++) {
		struct json_object *r = NULL, *task;

		t_check_int(json_object_deep_copy(run, &r, NULL), 0);
		task = json_object_array_get_idx(
			json_object_object_get(r, "tasks"), 0);
		json_object_object_add(task, "deadline_misses",
				       json_object_new_int(m0 + i * step));
		if (i)
			json_object_array_add(runs, r);
		else
			json_object_array_put_idx(runs, 0, r);
	}
	json_object_put(run);
	t_check_int(json_object_to_file(out, src), 0);
	json_object_put(src);
}

static void test_dl_mbwi(void)
{
	char a[512], b[512], *out = NULL, *err = NULL;
	const char *j = t_tmp("dl.json"), *more = t_tmp("dl-misses.json");
	const char *bad = t_tmp("dl-bad.json");
	struct json_object *doc, *r, *src, *task;
	int rc;

	snprintf(a, sizeof(a), "%s/dl-mbwi-a.json", data);
	snprintf(b, sizeof(b), "%s/dl-mbwi-b.json", data);
	rc = run(&out, &err, "--json", j, a, b, NULL);
	t_check_int(rc, 77); /* one run a side */
	t_check_contains(out, "dl-mbwi/basic tauA/response_ns: Median of "
			      "per-run p50, p99, max; AMean of per-run mean");
	t_check_contains(out, "dl-mbwi/basic tauA/deadline_misses: AMean of "
			      "per-run rate; lower is better\n");
	free(out), free(err);
	doc = json_object_from_file(j);
	t_check(doc != NULL);
	for (int t = 0; t < 2; t++) {
		const char *task_name = t ? "tauB" : "tauA";
		char m[64];

		snprintf(m, sizeof(m), "%s/response_ns", task_name);
		t_check(json_row(doc, m, "p50") && json_row(doc, m, "mean"));
		snprintf(m, sizeof(m), "%s/wakeup_ns", task_name);
		t_check(json_row(doc, m, "p50") && json_row(doc, m, "mean"));
		snprintf(m, sizeof(m), "%s/R1/blocked_ns", task_name);
		t_check(json_row(doc, m, "p50") != NULL);
		/* a count has only its rate, no percentiles */
		snprintf(m, sizeof(m), "%s/deadline_misses", task_name);
		t_check(json_row(doc, m, "rate") != NULL);
		t_check(!json_row(doc, m, "p50") && !json_row(doc, m, "mean"));
		snprintf(m, sizeof(m), "%s/R1/late", task_name);
		t_check(json_row(doc, m, "rate") != NULL);
	}
	/* the rate is misses / jobs: 0 of 100 and 1 of 100 */
	r = json_row(doc, "tauA/deadline_misses", "rate");
	t_check(near(json_num_at(r, "baseline", "rate"), 0, 1e-12));
	t_check(near(json_num_at(r, "candidate", "rate"), 0.01, 1e-12));
	/* one run a side: a rate over its jobs is no test over runs */
	t_check(json_str_at(r, "test") == NULL);
	t_check_str(json_str_at(r, "change"), "too few runs");
	json_object_put(doc);

	/*
	 * 38 to 42 misses of 100 jobs in five runs against none in five:
	 * worse, through the correction, by Welch's t over the runs' rates
	 */
	five_runs(a, t_tmp("dl-a5.json"), 0, 0);
	five_runs(b, t_tmp("dl-b5.json"), 38, 1);
	rc = run(&out, &err, "--json", j, t_tmp("dl-a5.json"),
		 t_tmp("dl-b5.json"), NULL);
	t_check_int(rc, 1);
	free(out), free(err);
	doc = json_object_from_file(j);
	r = json_row(doc, "tauA/deadline_misses", "rate");
	t_check(near(json_num_at(r, "candidate", "rate"), 0.4, 1e-12));
	t_check_str(json_str_at(r, "test"), "Welch-t");
	t_check_str(json_str_at(r, "change"), "worse");
	json_object_put(doc);

	/* 40 misses of 100 jobs against none, one run a side: no claim */
	src = json_object_from_file(b);
	task = json_object_array_get_idx(
		json_object_object_get(
			json_object_array_get_idx(
				json_object_object_get(src, "runs"), 0),
			"tasks"),
		0);
	json_object_object_add(task, "deadline_misses",
			       json_object_new_int(40));
	json_object_to_file(more, src);
	rc = run(&out, &err, "--json", j, a, more, NULL);
	t_check_int(rc, 77);
	free(out), free(err);
	doc = json_object_from_file(j);
	r = json_row(doc, "tauA/deadline_misses", "rate");
	t_check(near(json_num_at(r, "candidate", "rate"), 0.4, 1e-12));
	t_check_str(json_str_at(r, "change"), "too few runs");
	json_object_put(doc);

	/*
	 * late waits are not among the judged ones (the engine judges only
	 * the waits that were not late): 150 late beside 100 judged is a
	 * rate of 150 / 250, not a refusal
	 */
	{
		struct json_object *lk = json_object_array_get_idx(
			json_object_object_get(task, "locks"), 0);

		json_object_object_add(task, "deadline_misses",
				       json_object_new_int(0));
		json_object_object_add(lk, "late", json_object_new_int(150));
		json_object_to_file(more, src);
		rc = run(&out, &err, "--json", j, a, more, NULL);
		t_check_int(rc, 77);
		free(out), free(err);
		doc = json_object_from_file(j);
		r = json_row(doc, "tauA/R1/late", "rate");
		t_check(near(json_num_at(r, "candidate", "rate"), 0.6, 1e-12));
		json_object_put(doc);
		json_object_object_add(lk, "late", json_object_new_int(0));
	}

	/* more misses than jobs is no count: the file is refused */
	json_object_object_add(task, "deadline_misses",
			       json_object_new_int(101));
	json_object_to_file(bad, src);
	json_object_put(src);
	rc = run(&out, &err, a, bad, NULL);
	t_check_int(rc, 99);
	t_check_contains(err, "runs[0].tasks[0].deadline_misses: not a count "
			      "of at most jobs");
	free(out), free(err);
}

/* the runs a side of the closing plan line, 0 without one */
static size_t plan_of(const char *out)
{
	const char *p = strstr(out, "\nplan: ");

	return p ? (size_t)strtoul(p + 7, NULL, 10) : 0;
}

/*
 * Boots of one kernel differ: each run below is a boot, its samples
 * around a median that the boot moved (a CV of some 3 % from boot to
 * boot, as on a shared machine), and within a boot 400 samples that a
 * pooled test would take as independent.
 */
static void boot_files(const struct il_sysinfo *si, const char *prefix,
		       const double *scale, int n, uint64_t seed, char **argv)
{
	for (int i = 0; i < n; i++) {
		char name[64];

		snprintf(name, sizeof(name), "%s%d.json", prefix, i);
		write_file(name, si, 2 * MS, seed + (uint64_t)i, scale[i]);
	}
	files(prefix, n, argv);
}

static void free_files(char **argv, int n)
{
	for (int i = 0; i < n; i++)
		free(argv[i]);
}

/* a boot's scale, exp(cv z) with z a seeded normal (Box-Muller) */
static double boot_scale(uint64_t *x, double cv)
{
	double u1, u2;

	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	u1 = ((double)(*x >> 11) + 1) / 9007199254740993.0;
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	u2 = (double)(*x >> 11) / 9007199254740992.0;
	return exp(cv * sqrt(-2 * log(u1)) * cos(2 * M_PI * u2));
}

static void test_boots(const struct il_sysinfo *si)
{
	/* two boots of one kernel, 6 % apart by the boot alone */
	static const double b1[] = { 1.00 }, c1[] = { 1.06 };
	/* two a side, both candidate boots above both baseline boots */
	static const double b2[] = { 0.98, 1.01 }, c2[] = { 1.03, 1.05 };
	/* five a side, CV about 3 %, and a real 10 % shift */
	static const double b5[] = { 0.97, 1.03, 1.00, 0.96, 1.04 };
	static const double c5[] = { 1.122, 1.078, 1.133, 1.067, 1.10 };
	char *out = NULL, *err = NULL, *b[5], *c[5];
	struct il_res_set sb, sc;
	struct json_object *doc;
	double p;
	int rc;

	/*
	 * One run a side: the pooled samples call the boots' 6 % certain,
	 * and the comparison used to read "worse" on it.  Now no row
	 * claims, and the exit says there was nothing to tell it with.
	 */
	boot_files(si, "aa1b", b1, 1, 300, b);
	boot_files(si, "aa1c", c1, 1, 310, c);
	load_set(&sb, b, 1);
	load_set(&sc, c, 1);
	t_check_int(
		il_res_boot_quantile(
			il_res_group_metric(il_res_set_find(&sb, "pi-classic",
							    "inherit", 0),
					    "blocked_ns")
				->merged,
			il_res_group_metric(il_res_set_find(&sc, "pi-classic",
							    "inherit", 0),
					    "blocked_ns")
				->merged,
			0.5, &p),
		0);
	t_check(p < 0.001);
	il_res_set_free(&sb);
	il_res_set_free(&sc);
	rc = run(&out, &err, "--format=json", b[0], c[0], NULL);
	t_check_int(rc, 77);
	doc = json_tokener_parse(out);
	t_check(doc != NULL);
	if (doc) {
		struct json_object *sum =
			json_object_object_get(doc, "summary");

		t_check_int(json_object_get_int(
				    json_object_object_get(sum, "worse")),
			    0);
		t_check_int(json_object_get_int(
				    json_object_object_get(sum, "better")),
			    0);
		t_check(!json_object_get_boolean(
			json_object_object_get(sum, "claims")));
		t_check_int(json_object_get_int(json_object_object_get(
				    sum, "runs_needed_per_side")),
			    4);
		t_check_int(json_object_get_int(
				    json_object_object_get(doc, "return_code")),
			    77);
		json_object_put(doc);
	}
	free(out), free(err);
	free_files(b, 1), free_files(c, 1);

	/* two a side, the unlucky A/A draw: still no claim */
	boot_files(si, "aa2b", b2, 2, 320, b);
	boot_files(si, "aa2c", c2, 2, 330, c);
	rc = run(&out, &err, b[0], b[1], "--", c[0], c[1], NULL);
	t_check_int(rc, 77);
	t_check(!strstr(out, "  worse\n") && !strstr(out, "  better\n"));
	t_check_contains(out, "too few runs: 2 a side, need 4");
	t_check_contains(out, "\n0 worse, 0 better, 0 no change, ");
	/*
	 * the plan is for the family the rows would be with enough runs:
	 * more runs under Holm than for a row alone
	 */
	{
		size_t holm = plan_of(out), alone;

		free(out), free(err);
		rc = run(&out, &err, "--correction", "none", b[0], b[1], "--",
			 c[0], c[1], NULL);
		t_check_int(rc, 77);
		alone = plan_of(out);
		t_check(alone >= 4 && holm > alone);
	}
	free(out), free(err);
	free_files(b, 2), free_files(c, 2);

	/* any draw of two boots a side: no claim */
	{
		uint64_t x = 7;
		double sb2[2], sc2[2];
		int claims = 0;

		for (int k = 0; k < 10; k++) {
			for (int i = 0; i < 2; i++) {
				sb2[i] = boot_scale(&x, 0.03);
				sc2[i] = boot_scale(&x, 0.03);
			}
			boot_files(si, "aarb", sb2, 2, 400 + 10 * (uint64_t)k,
				   b);
			boot_files(si, "aarc", sc2, 2, 405 + 10 * (uint64_t)k,
				   c);
			rc = run(&out, &err, "-q", b[0], b[1], "--", c[0], c[1],
				 NULL);
			claims += rc != 77 || strstr(out, "  worse\n") ||
				  strstr(out, "  better\n");
			free(out), free(err);
			free_files(b, 2), free_files(c, 2);
		}
		t_check_int(claims, 0);
	}

	/* five a side with a real 10 % shift: found */
	boot_files(si, "s5b", b5, 5, 340, b);
	boot_files(si, "s5c", c5, 5, 350, c);
	rc = run(&out, &err, "-q", "-s", "p50,mean", b[0], b[1], b[2], b[3],
		 b[4], "--", c[0], c[1], c[2], c[3], c[4], NULL);
	t_check_int(rc, 1);
	t_check_int((int)t_count(out, "  worse\n"), 4);
	t_check(!strstr(out, "too few runs"));
	t_check(!strstr(out, "runs are from one file"));
	free(out), free(err);
	/*
	 * Runs of one file are one invocation's: the tests count them, and
	 * the closing lines say that they share a boot.
	 */
	t_check_int(write_runs(t_tmp("inv-a.json"), 5, ""), 0);
	t_check_int(write_runs(t_tmp("inv-b.json"), 5, ""), 0);
	rc = run(&out, &err, "-s", "mean", t_tmp("inv-a.json"),
		 t_tmp("inv-b.json"), NULL);
	t_check_int(rc, 0);
	t_check_contains(out, "\nnote: the baseline's 5 runs are from one "
			      "file: runs of one invocation share its boot");
	t_check_contains(out, "\nnote: the candidate's 5 runs are from one "
			      "file");
	free(out), free(err);
	/* one run against five claims nothing, and needs no such note */
	t_check_int(write_runs(t_tmp("inv-1.json"), 1, ""), 0);
	rc = run(&out, &err, "-s", "mean", t_tmp("inv-a.json"),
		 t_tmp("inv-1.json"), NULL);
	t_check_int(rc, 77);
	t_check_contains(out, "too few runs: 5:1, need 4 a side");
	t_check(!strstr(out, "runs are from one file"));
	free(out), free(err);
	rc = run(&out, &err, "-s", "mean", t_tmp("inv-a.json"), "--",
		 t_tmp("inv-b.json"), t_tmp("inv-a.json"), NULL);
	t_check_contains(out, "note: the baseline's 5 runs are from one");
	t_check(!strstr(out, "note: the candidate's"));
	free(out), free(err);
	/* and with every default statistic in the family */
	rc = run(&out, &err, b[0], b[1], b[2], b[3], b[4], "--", c[0], c[1],
		 c[2], c[3], c[4], NULL);
	t_check_int(rc, 1);
	t_check(!strstr(out, "  better\n"));
	t_check(!strstr(out, "\nno claim: "));
	free(out), free(err);
	/* five against five of the same boots' spread: no change, exit 0 */
	rc = run(&out, &err, "-q", b[0], b[1], b[2], b[3], b[4], "--", b[4],
		 b[3], b[2], b[1], b[0], NULL);
	t_check_int(rc, 0);
	t_check(!strstr(out, "  worse\n") && !strstr(out, "  better\n"));
	free(out), free(err);
	free_files(b, 5), free_files(c, 5);
}

int main(int argc, char **argv)
{
	struct il_sysinfo si;
	char *base[5], *same[5], *shift[5], *noise[5];
	char name[32];

	if (argc < 4) {
		fprintf(stderr, "usage: %s INVLAB-COMPARE MANPAGE DATADIR\n",
			argv[0]);
		return 99;
	}
	tool = argv[1];
	data = argv[3];

	test_normalization();
	test_mann_whitney();
	test_welch_and_beta();
	test_binomial();
	test_bootstrap();

	t_sysinfo(&si);
	for (int i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "base%d.json", i);
		write_file(name, &si, 2 * MS, 100 + (uint64_t)i, 1.0);
		snprintf(name, sizeof(name), "same%d.json", i);
		write_file(name, &si, 2 * MS, 100 + (uint64_t)i, 1.0);
		snprintf(name, sizeof(name), "shift%d.json", i);
		write_file(name, &si, 2 * MS, 100 + (uint64_t)i, 1.25);
		snprintf(name, sizeof(name), "noise%d.json", i);
		write_file(name, &si, 2 * MS, 200 + (uint64_t)i, 1.0);
	}
	files("base", 5, base);
	files("same", 5, same);
	files("shift", 5, shift);
	files("noise", 5, noise);

	test_merge_exact(base);
	test_compare_sets(base, same, shift, noise);
	test_cli(base, same, shift, noise);
	test_exact_format(&si);
	test_fingerprints(&si, base);
	test_errors(&si, base);
	test_dl_mbwi();
	test_boots(&si);
	test_escape();
	test_untrusted(&si);
	test_sides_once();
	test_nway(&si, base, same, shift);
	test_nway_errors(base);
	test_run_key();
	test_by(&si, base, shift);
	test_limits();
	test_dirs(base, shift);
	t_check_man_page(tool, argv[2]);
	test_mut_statistics();

	for (int i = 0; i < 5; i++)
		free(base[i]), free(same[i]), free(shift[i]), free(noise[i]);
	t_tmp_cleanup();
	return t_done("compare");
}

/*
 * Boundary cases of the statistics, each on both sides of one comparison
 * of results.c: a check that moved a threshold by one (tests/mutate.py)
 * gets one of them wrong.
 */

/* a metric of n runs, every statistic of run i being v[i]; merged holds
 * count samples of the value `at` */
static void metric_of(struct il_res_metric *m, struct il_hist *h,
		      double (*run)[IL_RES_NSTATS], const double *v, size_t n,
		      uint64_t at, int count)
{
	il_hist_init(h);
	for (int i = 0; i < count; i++)
		il_hist_record(h, at);
	for (size_t i = 0; i < n; i++)
		for (int st = 0; st < IL_RES_NSTATS; st++)
			run[i][st] = v[i];
	*m = (struct il_res_metric){
		.name = "x_ns", .merged = h, .nruns = n, .cap = n, .run = run
	};
}

static void test_mut_statistics(void)
{
	static struct il_hist hb, hc;
	double rb[5][IL_RES_NSTATS], rc[5][IL_RES_NSTATS];
	const double vb[] = { 4, 3.9, 4.1, 4, 4 }, vc[] = { 5, 4.9, 5.1, 5, 5 };
	const double zero[] = { 0, 0, 0, 0, 0 }, three[] = { 3, 3, 3, 3, 3 };
	struct il_res_cmp_opts o = {
		.mode = IL_RES_TEST_AUTO,
		.alpha = 0.05,
		.threshold_pct = 25,
	};
	struct il_res_metric mb, mc;
	struct il_res_cmp r;
	double a[40], b[40], p;
	bool exact = false;

	/* the last statistic has a name, the one past it none */
	t_check_str(il_res_stat_name(IL_RES_MAX), "max");
	t_check_str(il_res_stat_name(IL_RES_NSTATS), "?");
	t_check(il_res_stat_quantile(IL_RES_P9999) == 0.9999);
	t_check(il_res_stat_quantile(IL_RES_NSTATS) == 0);

	/* IL_RES_MW_EXACT_MAX values in all are counted exactly, one more
	 * is the normal approximation */
	for (int i = 0; i < 31; i++)
		a[i] = i, b[i] = i + 0.5;
	t_check_int(il_res_mann_whitney(a, 30, b, 30, &p, &exact), 0);
	t_check(exact);
	t_check_int(il_res_mann_whitney(a, 30, b, 31, &p, &exact), 0);
	t_check(!exact);

	/* 4 -> 5 is 25 % worse: beyond a threshold of 5 %, a change;
	 * within one of 50 %, none */
	metric_of(&mb, &hb, rb, vb, 5, 4, 100);
	metric_of(&mc, &hc, rc, vc, 5, 5, 100);
	o.threshold_pct = 5;
	il_res_compare(&mb, &mc, IL_RES_MAX, &o, &r);
	t_check(r.pct_imp == -25);
	t_check(r.p < o.alpha);
	t_check_int(r.change, IL_RES_WORSE);
	o.threshold_pct = 50;
	il_res_compare(&mb, &mc, IL_RES_MAX, &o, &r);
	t_check_int(r.change, IL_RES_SAME);
	o.threshold_pct = 25;

	/* a baseline of 0: ratio 1 to a candidate of 0, none to anything
	 * else (and that is worse, however small) */
	metric_of(&mb, &hb, rb, zero, 5, 0, 100);
	metric_of(&mc, &hc, rc, zero, 5, 0, 100);
	il_res_compare(&mb, &mc, IL_RES_MAX, &o, &r);
	t_check(r.ratio == 1);
	t_check(r.pct_imp == 0);
	t_check_int(r.change, IL_RES_SAME);
	metric_of(&mc, &hc, rc, three, 5, 3, 100);
	il_res_compare(&mb, &mc, IL_RES_MAX, &o, &r);
	t_check(isnan(r.ratio));
	t_check(isnan(r.pct_imp));
	t_check_int(r.change, IL_RES_WORSE);
}
