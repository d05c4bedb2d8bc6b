// SPDX-License-Identifier: MIT
/*
 * The statistics of the result tools: named statistics of a histogram,
 * the spread over runs, and the significance tests.
 *
 * Three host-side tools share it: invlab-compare and invlab-plot read two
 * sides, invlab-gate one side and an optional baseline.
 *
 * Why the statistics are the ones they are:
 *
 * - A side's value is its per-run values summarized as kernel
 *   reviewers' tables do: AMean for a mean, Median for percentiles, HMean
 *   for throughput.  The merged histogram (adding bins is exact) is kept
 *   for what needs all the samples: the limits of invlab-gate and a p999
 *   that no run alone has.
 * - The spread is the coefficient of variation of the per-run values, as
 *   kernel reviewers show it, because run-to-run noise (boot, placement,
 *   host steal) is the noise that decides whether a change is real.
 * - Significance therefore comes from the runs.  Percentiles: the
 *   hierarchical bootstrap, runs resampled and then samples within each
 *   run, with 5 or more runs a side (fewer understate the runs' spread);
 *   the mean, and percentiles over fewer runs: Welch's t over the per-run
 *   values, whose degrees of freedom pay for few runs; min and max: the
 *   rank test (Mann-Whitney U, no normality assumed), whose smallest p
 *   with n runs a side is 2 / C(2n, n), 0.0079 with five.
 * - A claim needs runs: a row is tested only when that floor of the
 *   rank test is below alpha (il_res_runs_enough: 4 runs a side at
 *   0.05), the least any correction asks.  Welch's t and the bootstrap
 *   can give any p from two runs, but only by trusting what two runs
 *   cannot show (normal run values, a spread seen in two draws); one
 *   run a side shows sample-to-sample noise only, and a pooled test of
 *   its samples called a boot's difference a kernel's (16 rows worse or
 *   better between two boots of kernels that differ in code the
 *   scenario never reaches).  il_res_boot_quantile and il_res_mean_z
 *   remain for what pools samples knowingly, not for a claim.
 * - The rows of one comparison are tested together: Holm's or Benjamini
 *   and Hochberg's correction over all of them, and a row is decided
 *   better or worse only when significant after it and beyond a
 *   threshold.  A comparison of 25 rows each at 0.05 would otherwise
 *   call an A/A pair worse most of the time.
 * - The pooled bootstrap is computed, not drawn: the distribution of a
 *   resampled quantile follows from the binomial law of the bin counts.
 *   The hierarchical one is drawn, seeded: the k-th smallest of n draws
 *   from a run is where a Beta(k, n - k + 1) variate falls in its
 *   cumulative counts, so a draw costs a few operations, not n.
 *
 * Results come from devices and may claim any sample count, so no loop
 * here runs for as long as a count says: the binomial tails sum a bounded
 * number of terms from a start computed in log space, and one row's
 * bootstrap makes a bounded number of draws however many runs there are.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "results.h"
#include "stats.h"

/* parts-per-billion scale of percentiles, as in lib/util/hist.c */
#define P_SCALE 1000000000ull
/* binomial tails: above this variance the normal law is used (skew < 1%) */
#define BINOM_NORMAL_VAR 1e4
/*
 * The most terms a binomial tail sums: BINOM_TERMS_SD per standard
 * deviation, plus some.  Terms fall at least as fast as a normal density
 * once past the mode, so they are below 1e-17 of the sum (where the sum
 * stops) within some 9 deviations; this only bounds a bad input.
 */
#define BINOM_TERMS_SD 80
/* the most run draws one row's bootstrap makes, and its fewest replicates */
#define HBOOT_MAX_DRAWS 1e6
#define HBOOT_MIN_REPS	1000

static const struct {
	const char *name;
	double q;
} stats[IL_RES_NSTATS] = {
	[IL_RES_COUNT] = { "count", 0 },   [IL_RES_MIN] = { "min", 0 },
	[IL_RES_MEAN] = { "mean", 0 },	   [IL_RES_P50] = { "p50", 0.5 },
	[IL_RES_P90] = { "p90", 0.9 },	   [IL_RES_P99] = { "p99", 0.99 },
	[IL_RES_P999] = { "p999", 0.999 }, [IL_RES_P9999] = { "p9999", 0.9999 },
	[IL_RES_MAX] = { "max", 0 },
};

const char *il_res_stat_name(enum il_res_stat s)
{
	return (unsigned)s < IL_RES_NSTATS ? stats[s].name : "?";
}

int il_res_stat_parse(const char *name, enum il_res_stat *s)
{
	for (unsigned i = 0; i < IL_RES_NSTATS; i++) {
		if (!strcmp(name, stats[i].name)) {
			*s = (enum il_res_stat)i;
			return 0;
		}
	}
	return -EINVAL;
}

double il_res_stat_quantile(enum il_res_stat s)
{
	return (unsigned)s < IL_RES_NSTATS ? stats[s].q : 0;
}

const char *il_res_stat_list(void)
{
	return "count, min, mean, p50, p90, p99, p999, p9999, max";
}

int il_res_stat_value(const struct il_hist *h, enum il_res_stat s, bool upper,
		      double *v)
{
	uint64_t u;
	int ret;

	if (s == IL_RES_COUNT) {
		*v = (double)h->count;
		return 0;
	}
	if (!h->count)
		return -ENODATA;
	switch (s) {
	case IL_RES_MIN:
		*v = (double)h->min;
		return 0;
	case IL_RES_MAX:
		*v = (double)h->max;
		return 0;
	case IL_RES_MEAN:
		*v = il_hist_mean(h);
		return 0;
	default:
		break;
	}
	if (!stats[s].q)
		return -EINVAL;
	ret = upper ? il_hist_percentile_upper(h, stats[s].q, &u)
		    : il_hist_percentile(h, stats[s].q, &u);
	if (ret)
		return ret;
	*v = (double)u;
	return 0;
}

void il_res_spread(const double *v, size_t stride, size_t n,
		   struct il_res_spread *out)
{
	double sum = 0, ss = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (isnan(v[i * stride]))
			continue;
		sum += v[i * stride];
		k++;
	}
	out->n = k;
	out->mean = k ? sum / (double)k : NAN;
	out->sd = NAN;
	out->cv_pct = NAN;
	if (k < 2)
		return;
	for (size_t i = 0; i < n; i++) {
		double d = v[i * stride] - out->mean;

		if (!isnan(v[i * stride]))
			ss += d * d;
	}
	out->sd = sqrt(ss / (double)(k - 1));
	out->cv_pct = out->mean != 0 ? out->sd / fabs(out->mean) * 100 : NAN;
}

double il_res_pct_improvement(double base, double cand)
{
	if (isnan(base) || isnan(cand))
		return NAN;
	if (base == 0)
		return cand == 0 ? 0 : NAN;
	return (base - cand) / base * 100;
}

struct ranked {
	double v;
	int side; /* 0: a, 1: b */
};

static int cmp_ranked(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;

	return (a->v > b->v) - (a->v < b->v);
}

double il_res_mann_whitney_min_p(size_t na, size_t nb)
{
	double c = 1;

	/* C(na + nb, na), as a double: only its size matters here */
	for (size_t i = 1; i <= na; i++)
		c = c * (double)(nb + i) / (double)i;
	return na && nb ? fmin(1, 2 / c) : 1;
}

bool il_res_runs_enough(size_t na, size_t nb, double alpha)
{
	return il_res_mann_whitney_min_p(na, nb) < alpha;
}

size_t il_res_runs_needed(double alpha)
{
	size_t n = 1;

	/* 2 / C(2n, n) falls by nearly 4 a run: bounded for any alpha > 0 */
	while (n < 1000 && !il_res_runs_enough(n, n, alpha))
		n++;
	return n;
}

/*
 * Exact two-sided p from the permutation distribution of a's rank sum.
 * Ranks are doubled so that midranks are integers, and every way of
 * choosing na of the N ranks is counted (in doubles: C(60, 30) ~ 1e17).
 */
static int mw_exact(const int *r2, size_t n, size_t na, long s_obs, double *p)
{
	long smax = 0, e2;
	double *dp, total = 0, hit = 0;
	size_t w;

	for (size_t i = 0; i < n; i++)
		smax += r2[i];
	w = (size_t)smax + 1;
	dp = calloc((na + 1) * w, sizeof(*dp));
	if (!dp)
		return -ENOMEM;
	dp[0] = 1;
	/*
	 * Only sums reached so far can be non-zero, and only counts k from
	 * which na can still be completed with the ranks left matter.
	 */
	for (long i = 0, reach = 0; (size_t)i < n; i++) {
		size_t kmax = (size_t)i + 1 < na ? (size_t)i + 1 : na;
		size_t kmin =
			na + (size_t)i + 1 > n ? na + (size_t)i + 1 - n : 1;

		reach += r2[i];
		for (size_t k = kmax; k >= kmin && k >= 1; k--)
			for (long s = reach; s >= r2[i]; s--)
				dp[k * w + (size_t)s] +=
					dp[(k - 1) * w + (size_t)(s - r2[i])];
	}
	/* E[sum of doubled ranks] = na * (N + 1) */
	e2 = (long)(na * (n + 1));
	for (long s = 0; s <= smax; s++) {
		double c = dp[na * w + (size_t)s];

		total += c;
		if (labs(s - e2) >= labs(s_obs - e2))
			hit += c;
	}
	free(dp);
	*p = total > 0 ? fmin(1, hit / total) : 1;
	return 0;
}

int il_res_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
			double *p, bool *exact)
{
	struct ranked *r;
	int *r2;
	size_t n = 0, ka = 0;
	long s_obs = 0;
	double ties = 0;
	int ret = 0;

	r = malloc((na + nb) * sizeof(*r) + 1);
	r2 = malloc((na + nb) * sizeof(*r2) + 1);
	if (!r || !r2) {
		free(r);
		free(r2);
		return -ENOMEM;
	}
	for (size_t i = 0; i < na; i++)
		if (!isnan(a[i]))
			r[n++] = (struct ranked){ a[i], 0 };
	ka = n;
	for (size_t i = 0; i < nb; i++)
		if (!isnan(b[i]))
			r[n++] = (struct ranked){ b[i], 1 };
	if (!ka || ka == n) {
		ret = -EINVAL;
		goto out;
	}
	qsort(r, n, sizeof(*r), cmp_ranked);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j < n && r[j].v == r[i].v)
			j++;
		/* ranks i+1 .. j share (i+1+j)/2, doubled: i+1+j */
		for (size_t k = i; k < j; k++) {
			r2[k] = (int)(i + 1 + j);
			if (r[k].side == 0)
				s_obs += r2[k];
		}
		ties += (double)(j - i) * (double)(j - i) * (double)(j - i) -
			(double)(j - i);
		i = j;
	}
	if (n <= IL_RES_MW_EXACT_MAX) {
		*exact = true;
		ret = mw_exact(r2, n, ka, s_obs, p);
	} else {
		double n1 = (double)ka, n2 = (double)(n - ka), nn = (double)n;
		double u = (double)s_obs / 2 - n1 * (n1 + 1) / 2;
		double var = n1 * n2 / 12 * ((nn + 1) - ties / (nn * (nn - 1)));
		double z;

		*exact = false;
		if (var <= 0) {
			*p = 1;
		} else {
			z = (fabs(u - n1 * n2 / 2) - 0.5) / sqrt(var);
			*p = z <= 0 ? 1 : fmin(1, 2 * il_res_norm_cdf(-z));
		}
	}
out:
	free(r);
	free(r2);
	return ret;
}

int il_res_welch(const double *a, size_t na, const double *b, size_t nb,
		 double *p)
{
	struct il_res_spread sa, sb;
	double va, vb, se2, t, df;

	il_res_spread(a, 1, na, &sa);
	il_res_spread(b, 1, nb, &sb);
	if (sa.n < 2 || sb.n < 2)
		return -EINVAL;
	va = sa.sd * sa.sd / (double)sa.n;
	vb = sb.sd * sb.sd / (double)sb.n;
	se2 = va + vb;
	/* every run gave the same value on both sides: no spread to test */
	if (se2 == 0) {
		*p = sa.mean == sb.mean ? 1 : 0;
		return 0;
	}
	t = (sa.mean - sb.mean) / sqrt(se2);
	df = se2 * se2 /
	     (va * va / (double)(sa.n - 1) + vb * vb / (double)(sb.n - 1));
	*p = fmin(1, 2 * il_res_t_cdf(-fabs(t), df));
	return 0;
}

static double log_pmf(uint64_t n, double p, uint64_t i)
{
	return lgamma((double)n + 1) - lgamma((double)i + 1) -
	       lgamma((double)(n - i) + 1) + (double)i * log(p) +
	       (double)(n - i) * log1p(-p);
}

double il_res_binom_tail(uint64_t n, double p, uint64_t k)
{
	double mean, var, sd, t, sum = 0, lt;
	uint64_t terms;

	if (k == 0)
		return 1;
	if (k > n || !(p > 0))
		return 0;
	if (p >= 1)
		return 1;
	mean = (double)n * p;
	var = mean * (1 - p);
	sd = sqrt(var);
	if (var > BINOM_NORMAL_VAR) {
		/* with continuity correction */
		double z = ((double)k - 0.5 - mean) / sd;

		return il_res_norm_cdf(-z);
	}
	/*
	 * Sum the smaller tail from its end nearest the mean, where terms
	 * shrink geometrically: a few hundred terms at this variance.  The
	 * first term comes from logs, so a count of 1e10 costs no more than
	 * one of 10, and when even it underflows the tail is 0 (or its
	 * complement 1) without a sum.
	 */
	terms = (uint64_t)(BINOM_TERMS_SD * sd) + 64;
	if ((double)k > mean) {
		lt = log_pmf(n, p, k);
		/* the first term underflows: so does the tail it starts */
		if (lt < -700)
			return 0;
		t = exp(lt);
		for (uint64_t i = k; i <= n && terms--; i++) {
			sum += t;
			if (t < sum * 1e-17)
				break;
			t *= (double)(n - i) / (double)(i + 1) * p / (1 - p);
		}
		return fmin(1, sum);
	}
	lt = log_pmf(n, p, k - 1);
	if (lt < -700)
		return 1;
	t = exp(lt);
	for (uint64_t i = k - 1; terms--; i--) {
		sum += t;
		if (i == 0 || t < sum * 1e-17)
			break;
		t *= (double)i / (double)(n - i + 1) * (1 - p) / p;
	}
	return fmax(0, 1 - sum);
}

/* ceil(q * count) as lib/util/hist.c computes the rank */
static uint64_t rank_of(uint64_t count, double q)
{
	uint64_t ppb = (uint64_t)(q * (double)P_SCALE + 1e-6);

	return count / P_SCALE * ppb +
	       (count % P_SCALE * ppb + P_SCALE - 1) / P_SCALE;
}

/* where the k-th smallest of n resampled values falls, bucket by bucket */
static void quantile_dist(const struct il_hist *h, double q, double *dist)
{
	uint64_t k = rank_of(h->count, q), cum = 0;
	double prev = 0;

	for (unsigned j = 0; j < IL_HIST_NBUCKETS; j++) {
		double tail;

		dist[j] = 0;
		if (!h->bins[j])
			continue;
		cum += h->bins[j];
		tail = cum >= h->count
			       ? 1
			       : il_res_binom_tail(
					 h->count,
					 (double)cum / (double)h->count, k);
		dist[j] = fmax(0, tail - prev);
		prev = tail;
	}
}

int il_res_boot_quantile(const struct il_hist *base, const struct il_hist *cand,
			 double q, double *p)
{
	double *db, *dc, bcdf = 0, lt = 0, eq = 0, gt = 0;

	if (!il_hist_has_percentile(base, q) ||
	    !il_hist_has_percentile(cand, q))
		return -ENODATA;
	db = malloc(2 * IL_HIST_NBUCKETS * sizeof(*db));
	if (!db)
		return -ENOMEM;
	dc = db + IL_HIST_NBUCKETS;
	quantile_dist(base, q, db);
	quantile_dist(cand, q, dc);
	/* bcdf: P(base* in a bucket below j) before the update */
	for (unsigned j = 0; j < IL_HIST_NBUCKETS; j++) {
		gt += dc[j] * bcdf;
		eq += dc[j] * db[j];
		bcdf += db[j];
		lt += dc[j] * fmax(0, 1 - bcdf);
	}
	free(db);
	*p = fmin(1, 2 * fmin(lt + eq / 2, gt + eq / 2));
	return 0;
}

/* variance of the samples, each taken at its bucket's midpoint */
static double bin_variance(const struct il_hist *h, double mean)
{
	double ss = 0;

	for (unsigned j = 0; j < IL_HIST_NBUCKETS; j++) {
		uint64_t lo, hi;
		double mid, d;

		if (!h->bins[j])
			continue;
		lo = il_hist_bucket_lo(j);
		hi = il_hist_bucket_hi(j);
		mid = (double)lo + (double)(hi - lo - 1) / 2;
		mid = fmax(fmin(mid, (double)h->max), (double)h->min);
		d = mid - mean;
		ss += (double)h->bins[j] * d * d;
	}
	return ss / (double)(h->count - 1);
}

int il_res_mean_z(const struct il_hist *base, const struct il_hist *cand,
		  double *p)
{
	double mb, mc, se;

	if (base->count < 2 || cand->count < 2)
		return -ENODATA;
	mb = il_hist_mean(base);
	mc = il_hist_mean(cand);
	se = sqrt(bin_variance(base, mb) / (double)base->count +
		  bin_variance(cand, mc) / (double)cand->count);
	if (se == 0)
		*p = mb == mc ? 1 : 0;
	else
		*p = fmin(1, 2 * il_res_norm_cdf(-fabs(mc - mb) / se));
	return 0;
}

/* ---- runs kept whole: the buckets of each run ------------------------ */

static int run_hist_set(struct il_res_run_hist *r, const struct il_hist *h)
{
	size_t n = 0;
	uint64_t cum = 0;
	double mean = h->count ? il_hist_mean(h) : NAN;

	for (unsigned j = 0; j < IL_HIST_NBUCKETS; j++)
		n += h->bins[j] != 0;
	memset(r, 0, sizeof(*r));
	r->cum = malloc((n + 1) * sizeof(*r->cum));
	r->val = malloc((n + 1) * sizeof(*r->val));
	if (!r->cum || !r->val) {
		free(r->cum);
		free(r->val);
		return -ENOMEM;
	}
	for (unsigned j = 0; j < IL_HIST_NBUCKETS; j++) {
		uint64_t lo, v;

		if (!h->bins[j])
			continue;
		/* the value il_hist_percentile reports for this bucket */
		lo = il_hist_bucket_lo(j);
		v = lo + (il_hist_bucket_hi(j) - lo) / 2;
		v = v < h->min ? h->min : v > h->max ? h->max : v;
		cum += h->bins[j];
		r->cum[r->nbins] = cum;
		r->val[r->nbins] = (double)v;
		r->nbins++;
	}
	r->count = cum;
	r->mean = mean;
	r->var = h->count >= 2 ? bin_variance(h, mean) : 0;
	return 0;
}

/* free the buckets of every run of m (m->hists becomes NULL) */
static void drop_run_hists(struct il_res_metric *m)
{
	for (size_t i = 0; m->hists && i < m->nruns; i++) {
		free(m->hists[i].cum);
		free(m->hists[i].val);
	}
	free(m->hists);
	m->hists = NULL;
}

int il_res_metric_add_run(struct il_res_metric *m, const struct il_hist *h)
{
	/* many runs: their values are resampled, not their samples */
	bool keep =
		m->keep_run_hists || m->nruns + 1 < IL_RES_HBOOT_NESTED_RUNS;

	if (m->nruns == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 4;
		double(*nr)[IL_RES_NSTATS] = realloc(m->run, cap * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		m->run = nr;
		if (keep) {
			struct il_res_run_hist *nh =
				realloc(m->hists, cap * sizeof(*nh));

			if (!nh)
				return -ENOMEM;
			m->hists = nh;
		}
		m->cap = cap;
	}
	if (keep) {
		if (run_hist_set(&m->hists[m->nruns], h))
			return -ENOMEM;
	} else if (m->hists) {
		drop_run_hists(m);
	}
	for (unsigned i = 0; i < IL_RES_NSTATS; i++) {
		double v;

		m->run[m->nruns][i] =
			il_res_stat_value(h, (enum il_res_stat)i, false, &v)
				? NAN
				: v;
	}
	m->nruns++;
	il_hist_merge(m->merged, h);
	return 0;
}

void il_res_metric_free_runs(struct il_res_metric *m)
{
	drop_run_hists(m);
	free(m->run);
	m->run = NULL;
	m->nruns = m->cap = 0;
}

/* ---- summaries over runs --------------------------------------------- */

const char *il_res_summary_name(enum il_res_summary s)
{
	switch (s) {
	case IL_RES_SUM_AMEAN:
		return "AMean";
	case IL_RES_SUM_HMEAN:
		return "HMean";
	case IL_RES_SUM_MEDIAN:
		return "Median";
	case IL_RES_SUM_AUTO:
		break;
	}
	return "auto";
}

int il_res_summary_parse(const char *name, enum il_res_summary *s)
{
	static const char *const names[] = { "auto", "amean", "hmean",
					     "median" };

	for (unsigned i = 0; i < 4; i++) {
		if (!strcasecmp(name, names[i])) {
			*s = (enum il_res_summary)i;
			return 0;
		}
	}
	return -EINVAL;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

bool il_res_higher_is_better(const char *metric)
{
	return metric &&
	       (ends_with(metric, "_per_s") || ends_with(metric, "_ops") ||
		strstr(metric, "throughput"));
}

enum il_res_summary il_res_summary_auto(const char *metric, enum il_res_stat st)
{
	if (il_res_higher_is_better(metric))
		return IL_RES_SUM_HMEAN;
	return st == IL_RES_MEAN ? IL_RES_SUM_AMEAN : IL_RES_SUM_MEDIAN;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/*
 * The k-th smallest of v[0..n) (from 0), v reordered so that v[0..k)
 * are not above it: Hoare's selection, the middle element as pivot.
 */
static double select_kth(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		double pivot = v[lo + (hi - lo) / 2];
		size_t i = lo, j = hi;

		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				double t = v[i];

				v[i] = v[j];
				v[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;
	}
	return v[k];
}

/* s of v[0..n), all finite; v may be reordered */
static double summarize_inplace(enum il_res_summary s, double *v, size_t n)
{
	double acc = 0;

	if (!n)
		return NAN;
	switch (s) {
	case IL_RES_SUM_HMEAN:
		for (size_t i = 0; i < n; i++) {
			if (!(v[i] > 0))
				return NAN;
			acc += 1 / v[i];
		}
		return (double)n / acc;
	case IL_RES_SUM_MEDIAN:
		if (n <= 16) {
			/* insertion sort: the bootstrap's usual few runs */
			for (size_t i = 1; i < n; i++) {
				double x = v[i];
				size_t j = i;

				for (; j > 0 && v[j - 1] > x; j--)
					v[j] = v[j - 1];
				v[j] = x;
			}
			return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
		}
		/* many runs: the middle by selection, not a sort */
		acc = select_kth(v, n, n / 2);
		if (n % 2)
			return acc;
		/* the largest of the lower half, which selection left below */
		{
			double lower = v[0];

			for (size_t i = 1; i < n / 2; i++)
				lower = fmax(lower, v[i]);
			return (lower + acc) / 2;
		}
	default:
		for (size_t i = 0; i < n; i++)
			acc += v[i];
		return acc / (double)n;
	}
}

double il_res_summarize(enum il_res_summary s, const double *v, size_t n)
{
	double *w = malloc((n + 1) * sizeof(*w)), r;
	size_t k = 0;

	if (!w)
		return NAN;
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			w[k++] = v[i];
	r = summarize_inplace(s, w, k);
	free(w);
	return r;
}

int il_res_mean_ci(size_t n, double mean, double sd, double *lo, double *hi)
{
	double h;

	if (n < 2 || !isfinite(sd) || !isfinite(mean))
		return -ENODATA;
	h = il_res_t_quantile(1 - (1 - IL_RES_CI_LEVEL) / 2, (double)(n - 1)) *
	    sd / sqrt((double)n);
	*lo = mean - h;
	*hi = mean + h;
	return 0;
}

/* the order-statistic interval of the median of the sorted w[0..n) */
static int median_ci(const double *w, size_t n, double *lo, double *hi)
{
	size_t j = 0;

	/* the largest j whose [x(j), x(n + 1 - j)] covers the level */
	while (j + 1 <= n / 2 &&
	       1 - 2 * (1 - il_res_binom_tail(n, 0.5, j + 1)) >=
		       IL_RES_CI_LEVEL)
		j++;
	if (!j)
		return -ENODATA;
	*lo = w[j - 1];
	*hi = w[n - j];
	return 0;
}

int il_res_summary_ci(enum il_res_summary s, const double *v, size_t n,
		      double *lo, double *hi)
{
	double *w = malloc((n + 1) * sizeof(*w));
	struct il_res_spread sp;
	size_t k = 0;
	int ret = -ENODATA;

	if (!w)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			w[k++] = v[i];
	switch (s) {
	case IL_RES_SUM_MEDIAN:
		qsort(w, k, sizeof(*w), cmp_double);
		ret = median_ci(w, k, lo, hi);
		break;
	case IL_RES_SUM_HMEAN:
		for (size_t i = 0; i < k; i++) {
			if (!(w[i] > 0))
				goto out;
			w[i] = 1 / w[i];
		}
		il_res_spread(w, 1, k, &sp);
		ret = il_res_mean_ci(k, sp.mean, sp.sd, lo, hi);
		if (!ret) {
			/* the reciprocal's upper end is the value's lower */
			double l = *hi > 0 ? 1 / *hi : NAN;

			*hi = *lo > 0 ? 1 / *lo : INFINITY;
			*lo = l;
		}
		break;
	default:
		il_res_spread(w, 1, k, &sp);
		ret = il_res_mean_ci(k, sp.mean, sp.sd, lo, hi);
		break;
	}
out:
	free(w);
	return ret;
}

/* ---- seeded random draws --------------------------------------------- */

struct rng {
	uint64_t s;
	double spare; /* Box-Muller's second deviate */
	bool has_spare;
};

/* splitmix64: a full-period generator, cheap and good enough here */
static uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* uniform on (0, 1), never 0 */
static double rng_unif(struct rng *r)
{
	return ((double)(rng_next(r) >> 11) + 0.5) * 0x1.0p-53;
}

static size_t rng_below(struct rng *r, size_t n)
{
	return (size_t)(rng_unif(r) * (double)n) % n;
}

static double rng_normal(struct rng *r)
{
	double u1, u2, rad;

	if (r->has_spare) {
		r->has_spare = false;
		return r->spare;
	}
	u1 = rng_unif(r);
	u2 = rng_unif(r);
	rad = sqrt(-2 * log(u1));
	r->spare = rad * sin(2 * M_PI * u2);
	r->has_spare = true;
	return rad * cos(2 * M_PI * u2);
}

/* Gamma(shape, 1) for shape >= 1 (Marsaglia and Tsang, 2000) */
static double rng_gamma(struct rng *r, double shape)
{
	double d = shape - 1.0 / 3, c = 1 / sqrt(9 * d);

	for (int tries = 0; tries < 1000; tries++) {
		double x = rng_normal(r), v = 1 + c * x, u;

		if (v <= 0)
			continue;
		v = v * v * v;
		u = rng_unif(r);
		/* the squeeze accepts most draws without a logarithm */
		if (u < 1 - 0.0331 * x * x * x * x)
			return d * v;
		if (log(u) < 0.5 * x * x + d - d * v + d * log(v))
			return d * v;
	}
	return shape; /* unreachable in practice: the mean */
}

/* Beta(a, b) for a, b >= 1: the share of n uniforms below the k-th */
static double rng_beta(struct rng *r, double a, double b)
{
	double x, y;

	/* both large: normal to within 1e-3 of the skew, far faster */
	if (a > 200 && b > 200) {
		double n = a + b, m = a / n;

		return fmin(1, fmax(0, m + sqrt(m * (1 - m) / (n + 1)) *
						       rng_normal(r)));
	}
	x = rng_gamma(r, a);
	y = rng_gamma(r, b);
	return x / (x + y);
}

/* ---- the hierarchical bootstrap -------------------------------------- */

/* a resampled value of statistic st of run h */
static double resample_run(struct rng *r, const struct il_res_run_hist *h,
			   enum il_res_stat st, double run_value)
{
	double q = il_res_stat_quantile(st), u, pos;
	uint64_t k;
	size_t lo = 0, hi;

	if (!h->count || !h->nbins)
		return run_value;
	if (st == IL_RES_MEAN)
		return h->mean +
		       sqrt(h->var / (double)h->count) * rng_normal(r);
	if (st == IL_RES_MIN)
		k = 1;
	else if (st == IL_RES_MAX)
		k = h->count;
	else if (q > 0)
		k = rank_of(h->count, q);
	else
		return run_value;
	if (k < 1)
		k = 1;
	/* the k-th smallest of count uniforms, then the bucket it hits */
	u = rng_beta(r, (double)k, (double)(h->count - k + 1));
	pos = ceil(u * (double)h->count);
	if (pos < 1)
		pos = 1;
	hi = h->nbins - 1;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if ((double)h->cum[mid] >= pos)
			hi = mid;
		else
			lo = mid + 1;
	}
	return h->val[lo];
}

/* the runs of m that have st: their indices */
static size_t runs_with(const struct il_res_metric *m, enum il_res_stat st,
			size_t *idx)
{
	size_t n = 0;

	for (size_t i = 0; i < m->nruns; i++)
		if (!isnan(m->run[i][st]))
			idx[n++] = i;
	return n;
}

static double resample_side(struct rng *r, const struct il_res_metric *m,
			    const size_t *idx, size_t n, enum il_res_stat st,
			    enum il_res_summary sum, double *buf)
{
	for (size_t i = 0; i < n; i++) {
		size_t k = idx[n > 1 ? rng_below(r, n) : 0];

		buf[i] = m->hists ? resample_run(r, &m->hists[k], st,
						 m->run[k][st])
				  : m->run[k][st];
	}
	return summarize_inplace(sum, buf, n);
}

/*
 * A replicate of a side of many runs (no buckets kept): its summary over
 * n per-run values drawn with replacement from v, sorted.  A median
 * needs no draws of values at all: the k-th smallest of n draws from the
 * n values is v[ceil(n U) - 1] for U the k-th smallest of n uniforms, a
 * Beta(k, n - k + 1) variate (and the next one above it, for an even n,
 * U + (1 - U) Beta(1, n - k)), the same law as drawing all n.  A mean
 * draws its n values; each draw is an index.
 */
static double resample_values(struct rng *r, const double *v, size_t n,
			      enum il_res_summary sum, double *buf)
{
	if (sum == IL_RES_SUM_MEDIAN && n > 1) {
		size_t k = n % 2 ? (n + 1) / 2 : n / 2;
		double u = rng_beta(r, (double)k, (double)(n - k + 1)), x;
		size_t j =
			(size_t)fmin((double)n, fmax(1, ceil(u * (double)n)));

		x = v[j - 1];
		if (n % 2)
			return x;
		u += (1 - u) * rng_beta(r, 1, (double)(n - k));
		j = (size_t)fmin((double)n, fmax(1, ceil(u * (double)n)));
		return (x + v[j - 1]) / 2;
	}
	for (size_t i = 0; i < n; i++)
		buf[i] = v[n > 1 ? rng_below(r, n) : 0];
	return summarize_inplace(sum, buf, n);
}

/* the values of st of the runs idx of m, sorted, for resample_values */
static void sorted_values(const struct il_res_metric *m, const size_t *idx,
			  size_t n, enum il_res_stat st, double *out)
{
	for (size_t i = 0; i < n; i++)
		out[i] = m->run[idx[i]][st];
	qsort(out, n, sizeof(*out), cmp_double);
}

int il_res_hboot(const struct il_res_metric *base,
		 const struct il_res_metric *cand, enum il_res_stat st,
		 enum il_res_summary sum, unsigned resamples, uint64_t seed,
		 double ci_alpha, double *p, double *lo, double *hi)
{
	struct rng r = { .s = seed };
	size_t nb, nc, *idx;
	double *buf, *ratio, *vals, below = 0, above = 0;
	unsigned nr = 0;
	int ret = 0;

	if (!resamples)
		resamples = IL_RES_RESAMPLES_DEFAULT;
	idx = malloc((base->nruns + cand->nruns + 1) * sizeof(*idx));
	buf = malloc((base->nruns + cand->nruns + 1) * sizeof(*buf));
	ratio = malloc(resamples * sizeof(*ratio));
	vals = malloc((base->nruns + cand->nruns + 1) * sizeof(*vals));
	if (!idx || !buf || !ratio || !vals) {
		ret = -ENOMEM;
		goto out;
	}
	nb = runs_with(base, st, idx);
	nc = runs_with(cand, st, idx + nb);
	if (!nb || !nc) {
		ret = -ENODATA;
		goto out;
	}
	/*
	 * A device may send 10000 runs a side: the draws of one row are
	 * bounded, fewer replicates for many runs (whose p-values are
	 * rarely near a level anyway), never fewer than HBOOT_MIN_REPS.
	 */
	if ((double)resamples * (double)(nb + nc) > HBOOT_MAX_DRAWS)
		resamples = (unsigned)fmax(HBOOT_MIN_REPS,
					   HBOOT_MAX_DRAWS / (double)(nb + nc));
	/* a side of many runs: its per-run values alone (stats.h) */
	if (!base->hists)
		sorted_values(base, idx, nb, st, vals);
	if (!cand->hists)
		sorted_values(cand, idx + nb, nc, st, vals + nb);
	for (unsigned b = 0; b < resamples; b++) {
		double vb =
			base->hists
				? resample_side(&r, base, idx, nb, st, sum, buf)
				: resample_values(&r, vals, nb, sum, buf);
		double vc = cand->hists ? resample_side(&r, cand, idx + nb, nc,
							st, sum, buf)
					: resample_values(&r, vals + nb, nc,
							  sum, buf);
		double x;

		if (!(vb > 0) || isnan(vc))
			continue;
		x = vc / vb;
		ratio[nr++] = x;
		if (x < 1)
			below++;
		else if (x > 1)
			above++;
		else
			below += 0.5, above += 0.5;
	}
	if (!nr) {
		ret = -ENODATA;
		goto out;
	}
	qsort(ratio, nr, sizeof(*ratio), cmp_double);
	*lo = ratio[(size_t)floor(ci_alpha / 2 * (nr - 1))];
	*hi = ratio[(size_t)ceil((1 - ci_alpha / 2) * (nr - 1))];
	/* the +1 keeps a finite number of replicates from claiming p = 0 */
	*p = fmin(1, (2 * fmin(below, above) + 1) / ((double)nr + 1));
out:
	free(idx);
	free(buf);
	free(ratio);
	free(vals);
	return ret;
}

/* ---- corrections ------------------------------------------------------ */

const char *il_res_correction_name(enum il_res_correction c)
{
	switch (c) {
	case IL_RES_CORR_HOLM:
		return "Holm";
	case IL_RES_CORR_BH:
		return "Benjamini-Hochberg";
	case IL_RES_CORR_NONE:
		break;
	}
	return "none";
}

struct pidx {
	double p;
	size_t i;
};

static int cmp_pidx(const void *x, const void *y)
{
	const struct pidx *a = x, *b = y;

	if (a->p != b->p)
		return (a->p > b->p) - (a->p < b->p);
	return (a->i > b->i) - (a->i < b->i);
}

int il_res_adjust(const double *p, size_t n, enum il_res_correction c,
		  double *adj)
{
	struct pidx *s = malloc((n + 1) * sizeof(*s));
	size_t m = 0;
	double run;

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		adj[i] = p[i];
		if (!isnan(p[i]))
			s[m++] = (struct pidx){ p[i], i };
	}
	qsort(s, m, sizeof(*s), cmp_pidx);
	if (c == IL_RES_CORR_HOLM) {
		/* step down: (m - k) p_(k), made monotone upwards */
		run = 0;
		for (size_t k = 0; k < m; k++) {
			run = fmax(run, fmin(1, (double)(m - k) * s[k].p));
			adj[s[k].i] = run;
		}
	} else if (c == IL_RES_CORR_BH) {
		/* step up: m / (k + 1) p_(k), made monotone downwards */
		run = 1;
		for (size_t k = m; k-- > 0;) {
			run = fmin(run, fmin(1, (double)m / (double)(k + 1) *
							s[k].p));
			adj[s[k].i] = run;
		}
	}
	free(s);
	return 0;
}

/* ---- one row ------------------------------------------------------------ */

const char *il_res_test_name(enum il_res_test t)
{
	switch (t) {
	case IL_RES_T_RANK_EXACT:
		return "U-exact";
	case IL_RES_T_RANK_NORMAL:
		return "U-normal";
	case IL_RES_T_WELCH:
		return "Welch-t";
	case IL_RES_T_HBOOT:
		return "h-bootstrap";
	case IL_RES_T_NONE:
		break;
	}
	return "-";
}

const char *il_res_change_name(enum il_res_change c)
{
	switch (c) {
	case IL_RES_NA:
		return "n/a";
	case IL_RES_TOO_FEW:
		return "too few runs";
	case IL_RES_SAME:
		return "no change";
	case IL_RES_BETTER:
		return "better";
	case IL_RES_WORSE:
		return "worse";
	}
	return "?";
}

/* the non-NAN per-run values of one statistic */
static size_t run_values(const struct il_res_metric *m, enum il_res_stat st,
			 double *out)
{
	size_t n = 0;

	for (size_t i = 0; i < m->nruns; i++)
		if (!isnan(m->run[i][st]))
			out[n++] = m->run[i][st];
	return n;
}

/* one seed per metric and statistic: rows do not depend on their order */
static uint64_t row_seed(uint64_t seed, const char *name, enum il_res_stat st)
{
	uint64_t h = 1469598103934665603ull ^ seed;

	for (const char *c = name ? name : ""; *c; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211ull;
	return h ^ ((uint64_t)st + 1) * 0x9E3779B97F4A7C15ull;
}

static void rank_or_welch(double *a, size_t na, size_t nb, bool rank,
			  struct il_res_cmp *out)
{
	bool exact;

	if (rank) {
		if (!il_res_mann_whitney(a, na, a + na, nb, &out->p, &exact))
			out->test = exact ? IL_RES_T_RANK_EXACT
					  : IL_RES_T_RANK_NORMAL;
	} else if (!il_res_welch(a, na, a + na, nb, &out->p)) {
		out->test = IL_RES_T_WELCH;
	}
}

/*
 * Welch's IL_RES_CI_LEVEL interval of the difference of the per-run
 * means, as a percent improvement over the baseline's mean.
 */
static void welch_ci(const double *a, size_t na, const double *b, size_t nb,
		     struct il_res_cmp *out)
{
	struct il_res_spread sa, sb;
	double va, vb, se, df, t, d, lo, hi;

	il_res_spread(a, 1, na, &sa);
	il_res_spread(b, 1, nb, &sb);
	if (sa.n < 2 || sb.n < 2 || !(sa.mean != 0))
		return;
	va = sa.sd * sa.sd / (double)sa.n;
	vb = sb.sd * sb.sd / (double)sb.n;
	se = sqrt(va + vb);
	d = sb.mean - sa.mean;
	if (se > 0) {
		df = (va + vb) * (va + vb) /
		     (va * va / (double)(sa.n - 1) +
		      vb * vb / (double)(sb.n - 1));
		t = il_res_t_quantile(1 - (1 - IL_RES_CI_LEVEL) / 2, df);
	} else {
		t = 0;
	}
	/* candidate above the baseline is worse, unless higher is better */
	lo = -(d + t * se) / sa.mean * 100;
	hi = -(d - t * se) / sa.mean * 100;
	if (out->higher_better) {
		double x = -hi;

		hi = -lo;
		lo = x;
	}
	out->ci_lo = lo + 0.0;
	out->ci_hi = hi + 0.0;
}

/*
 * Welch's interval replaces the bootstrap's (run_test): with fewer runs
 * than the bootstrap is used with, its interval is as over-confident as
 * its p would be, and a row tested by Welch's t shows Welch's interval.
 * welch_ci sets it whenever both sides have 2 runs, but for a baseline
 * whose values are all 0 (they are never negative), where the bootstrap
 * has no ratio to give either.
 */
static bool welch_interval(size_t na, size_t nb, enum il_res_test_mode mode)
{
	return na >= 2 && nb >= 2 &&
	       (na < IL_RES_HBOOT_MIN_RUNS || nb < IL_RES_HBOOT_MIN_RUNS ||
		mode == IL_RES_TEST_WELCH);
}

static void run_test(const struct il_res_metric *base,
		     const struct il_res_metric *cand, enum il_res_stat st,
		     const struct il_res_cmp_opts *o, struct il_res_cmp *out)
{
	enum il_res_test_mode mode = o->mode;
	double q = il_res_stat_quantile(st), *a, lo, hi, pb;
	size_t na, nb;
	int hb = -ENODATA;

	a = malloc((base->nruns + cand->nruns + 1) * sizeof(*a));
	if (!a)
		return;
	na = run_values(base, st, a);
	nb = run_values(cand, st, a + na);
	/*
	 * Runs that no test over them could find significant without
	 * assumptions they cannot check have no test and no interval:
	 * one run a side shows sample-to-sample noise only and would call
	 * a boot's difference a kernel's.
	 */
	if (!il_res_runs_enough(na, nb, o->alpha))
		goto out;
	if (mode == IL_RES_TEST_AUTO) {
		/*
		 * Resampling few runs understates their spread: with 2 a
		 * side, one A/A row in 6 has every candidate run above every
		 * baseline run, and every replicate would say so.  Below
		 * IL_RES_HBOOT_MIN_RUNS a side, Welch's t over the per-run
		 * values, whose degrees of freedom pay for the few runs;
		 * one run against several has no test.
		 */
		if (q > 0 && na >= IL_RES_HBOOT_MIN_RUNS &&
		    nb >= IL_RES_HBOOT_MIN_RUNS)
			mode = IL_RES_TEST_BOOTSTRAP;
		else if (q > 0 || st == IL_RES_MEAN)
			mode = IL_RES_TEST_WELCH;
		else
			mode = IL_RES_TEST_RANK;
	}
	/*
	 * The interval comes from the bootstrap, unless Welch's replaces
	 * it: then the bootstrap runs only when its p is the test (a mean
	 * row of many runs would otherwise draw every run a replicate for
	 * an interval it throws away).
	 */
	if (mode == IL_RES_TEST_BOOTSTRAP || !welch_interval(na, nb, mode))
		hb = il_res_hboot(base, cand, st, out->summary, o->resamples,
				  row_seed(o->seed, base->name, st),
				  1 - IL_RES_CI_LEVEL, &pb, &lo, &hi);
	if (!hb) {
		out->ci_lo =
			out->higher_better ? (hi - 1) * 100 : (1 - hi) * 100;
		out->ci_hi =
			out->higher_better ? (lo - 1) * 100 : (1 - lo) * 100;
		if (out->ci_lo > out->ci_hi) {
			double t = out->ci_lo;

			out->ci_lo = out->ci_hi;
			out->ci_hi = t;
		}
	}
	if (mode == IL_RES_TEST_BOOTSTRAP) {
		if (!hb) {
			out->p = pb;
			out->test = IL_RES_T_HBOOT;
		}
	} else if (mode == IL_RES_TEST_RANK) {
		rank_or_welch(a, na, nb, true, out);
	} else {
		rank_or_welch(a, na, nb, false, out);
	}
	/*
	 * With fewer runs than the bootstrap is used with, its interval is
	 * as over-confident as its p would be: Welch's interval instead.
	 */
	if ((na < IL_RES_HBOOT_MIN_RUNS || nb < IL_RES_HBOOT_MIN_RUNS ||
	     out->test == IL_RES_T_WELCH) &&
	    na >= 2 && nb >= 2)
		welch_ci(a, na, a + na, nb, out);
out:
	free(a);
}

void il_res_decide(struct il_res_cmp *c, const struct il_res_cmp_opts *o)
{
	c->runs_needed = 0;
	if (isnan(c->base) || isnan(c->cand)) {
		c->change = IL_RES_NA;
		return;
	}
	if (!il_res_runs_enough(c->sb.n, c->sc.n, o->alpha)) {
		c->change = IL_RES_TOO_FEW;
		c->runs_needed = il_res_runs_needed(o->alpha);
		return;
	}
	if (c->test == IL_RES_T_NONE || isnan(c->p_adj)) {
		c->change = IL_RES_TOO_FEW;
		return;
	}
	c->change = IL_RES_SAME;
	/* NAN pct: the baseline is 0 and the candidate is not */
	if (c->p_adj < o->alpha && c->cand != c->base &&
	    (isnan(c->pct_imp) || fabs(c->pct_imp) > o->threshold_pct))
		c->change = (c->cand > c->base) == c->higher_better
				    ? IL_RES_BETTER
				    : IL_RES_WORSE;
}

/* the two quantiles a two-sided test at level a with power pw adds up */
static double power_factor(double a, double pw, double df)
{
	if (df > 0)
		return il_res_t_quantile(1 - a / 2, df) +
		       il_res_t_quantile(pw, df);
	return il_res_norm_quantile(1 - a / 2) + il_res_norm_quantile(pw);
}

void il_res_power(struct il_res_cmp *c, const struct il_res_cmp_opts *o,
		  size_t m)
{
	double a = o->alpha / (double)(m ? m : 1);
	double pw = o->power > 0 && o->power < 1 ? o->power : 0.8;
	double se, df;

	c->mde_pct = NAN;
	if (c->sb.n < 2 || c->sc.n < 2 || isnan(c->sb.cv_pct) ||
	    isnan(c->sc.cv_pct) || c->test == IL_RES_T_NONE)
		return;
	if ((c->test == IL_RES_T_RANK_EXACT ||
	     c->test == IL_RES_T_RANK_NORMAL) &&
	    il_res_mann_whitney_min_p(c->sb.n, c->sc.n) > a) {
		c->mde_pct = INFINITY;
		return;
	}
	se = sqrt(c->sb.cv_pct * c->sb.cv_pct / (double)c->sb.n +
		  c->sc.cv_pct * c->sc.cv_pct / (double)c->sc.n);
	df = (double)(c->sb.n + c->sc.n - 2);
	c->mde_pct = fmax(o->threshold_pct, power_factor(a, pw, df) * se);
}

size_t il_res_plan_runs(double cv_pct, double change_pct,
			const struct il_res_cmp_opts *o, size_t m)
{
	double a = o->alpha / (double)(m ? m : 1);
	double pw = o->power > 0 && o->power < 1 ? o->power : 0.8;
	/* fewer runs than il_res_runs_enough asks for claim nothing */
	size_t n = il_res_runs_needed(o->alpha);

	if (!(cv_pct > 0) || !(change_pct > 0) || isinf(cv_pct))
		return 0;
	/* n a side: (t_a + t_pw)^2 * 2 CV^2 / change^2, t at 2n - 2 df */
	for (; n < 100000; n++) {
		double f = power_factor(a, pw, (double)(2 * n - 2));

		if (f * cv_pct * sqrt(2.0 / (double)n) <= change_pct)
			break;
	}
	return n;
}

void il_res_compare(const struct il_res_metric *base,
		    const struct il_res_metric *cand, enum il_res_stat st,
		    const struct il_res_cmp_opts *o, struct il_res_cmp *out)
{
	double *v;
	size_t n;

	memset(out, 0, sizeof(*out));
	out->base = out->cand = out->ratio = out->pct_imp = out->p = NAN;
	out->p_adj = out->ci_lo = out->ci_hi = out->mde_pct = NAN;
	out->sb.mean = out->sb.sd = out->sb.cv_pct = NAN;
	out->sc = out->sb;
	out->change = IL_RES_NA;
	if (!base || !cand)
		return;
	out->higher_better = il_res_higher_is_better(base->name);
	out->summary = o->summary != IL_RES_SUM_AUTO
			       ? o->summary
			       : il_res_summary_auto(base->name, st);
	il_res_spread(base->nruns ? &base->run[0][st] : NULL, IL_RES_NSTATS,
		      base->nruns, &out->sb);
	il_res_spread(cand->nruns ? &cand->run[0][st] : NULL, IL_RES_NSTATS,
		      cand->nruns, &out->sc);
	v = malloc((base->nruns + cand->nruns + 1) * sizeof(*v));
	if (!v)
		return;
	n = run_values(base, st, v);
	out->base = n ? il_res_summarize(out->summary, v, n) : NAN;
	n = run_values(cand, st, v);
	out->cand = n ? il_res_summarize(out->summary, v, n) : NAN;
	free(v);
	/* the runs lack st (too few samples each): the merged values */
	if (!out->sb.n &&
	    il_res_stat_value(base->merged, st, false, &out->base))
		out->base = NAN;
	if (!out->sc.n &&
	    il_res_stat_value(cand->merged, st, false, &out->cand))
		out->cand = NAN;
	if (isnan(out->base) || isnan(out->cand))
		return;
	out->ratio = out->base != 0   ? out->cand / out->base
		     : out->cand == 0 ? 1
				      : NAN;
	out->pct_imp = il_res_pct_improvement(out->base, out->cand);
	if (out->higher_better)
		out->pct_imp = -out->pct_imp + 0.0;

	if (out->sb.n && out->sc.n)
		run_test(base, cand, st, o, out);
	out->p_adj = out->p;
	il_res_power(out, o, 1);
	il_res_decide(out, o);
}

int il_res_decide_family(struct il_res_cmp *const *rows, size_t n,
			 const struct il_res_cmp_opts *o)
{
	double *p = calloc(2 * n + 1, sizeof(*p));
	size_t m = 0;
	int worse = 0;

	if (!p)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		p[i] = rows[i]->test == IL_RES_T_NONE ? NAN : rows[i]->p;
		m += !isnan(p[i]);
	}
	if (il_res_adjust(p, n, o->correction, p + n)) {
		free(p);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		rows[i]->p_adj = p[n + i];
		il_res_power(rows[i], o,
			     o->correction == IL_RES_CORR_NONE ? 1 : m);
		il_res_decide(rows[i], o);
		worse += rows[i]->change == IL_RES_WORSE;
	}
	free(p);
	return worse;
}
