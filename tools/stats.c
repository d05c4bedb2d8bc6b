// SPDX-License-Identifier: MIT
/*
 * The statistics of the result tools: named statistics of a histogram,
 * the spread over runs, and the significance tests.
 *
 * three host-side tools share it: invlab-compare and invlab-plot read two
 * sides, invlab-gate one side and an optional baseline.
 *
 * Why the statistics are the ones they are:
 *
 * - A group's headline value is taken from the merged histogram, never
 *   averaged over runs: a p99 of p99s is not a p99, while adding bins is
 *   exact, so three 1 s runs give the same p99 as one 3 s run would.
 * - The spread is the coefficient of variation of the per-run values, as
 *   kernel reviewers show it, because run-to-run noise (boot, placement,
 *   host steal) is the noise that decides whether a change is real.
 * - Significance therefore comes from the per-run values first: a rank
 *   test (Mann-Whitney U: no normality assumed, latency never is) when
 *   there are runs enough for it.  With n runs a side the smallest p it
 *   can reach is 2 / C(2n, n): 0.10 with three runs, 0.029 with four.
 *   With two or three runs a side, Welch's t test over the same values
 *   (it assumes the per-run values are roughly normal, which holds
 *   better for a run's percentile than for single samples).  Only when
 *   a side has a single run, so that run-to-run noise cannot be seen at
 *   all, a bootstrap over the merged bins: it sees sample-to-sample noise
 *   only, and calls a difference real that another boot might not
 *   reproduce.  The report names the test used so nobody mistakes one
 *   for the other.
 * - The bootstrap is computed, not drawn: the distribution of a resampled
 *   quantile follows from the binomial law of the bin counts, so results
 *
 * Results come from devices and may claim any sample count, so no loop
 * here runs for as long as a count says: the binomial tails sum a bounded
 * number of terms from a start computed in log space.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "stats.h"

/* parts-per-billion scale of percentiles, as in lib/hist.c */
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
			*p = z <= 0 ? 1 : fmin(1, erfc(z / M_SQRT2));
		}
	}
out:
	free(r);
	free(r2);
	return ret;
}

/* continued fraction of the incomplete beta function (modified Lentz) */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double qab = a + b, qap = a + 1, qam = a - 1, c = 1, d, h;

	d = 1 - qab * x / qap;
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 10000; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

double il_res_betai(double a, double b, double x)
{
	double bt;

	if (!(x > 0))
		return 0;
	if (x >= 1)
		return 1;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		 b * log1p(-x));
	/* the fraction converges fast on this side of the mean */
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
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
	*p = fmin(1, il_res_betai(df / 2, 0.5, df / (df + t * t)));
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

		return 0.5 * erfc(z / M_SQRT2);
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

/* ceil(q * count) as lib/hist.c computes the rank */
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
		*p = fmin(1, erfc(fabs(mc - mb) / se / M_SQRT2));
	return 0;
}

const char *il_res_test_name(enum il_res_test t)
{
	switch (t) {
	case IL_RES_T_RANK_EXACT:
		return "U-exact";
	case IL_RES_T_RANK_NORMAL:
		return "U-normal";
	case IL_RES_T_WELCH:
		return "Welch-t";
	case IL_RES_T_BOOT_QUANTILE:
		return "bootstrap";
	case IL_RES_T_Z_MEAN:
		return "z-mean";
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

static void run_test(const struct il_res_metric *base,
		     const struct il_res_metric *cand, enum il_res_stat st,
		     const struct il_res_cmp_opts *o, struct il_res_cmp *out)
{
	enum il_res_test_mode mode = o->mode;
	bool rank_ok =
		out->sb.n && out->sc.n &&
		il_res_mann_whitney_min_p(out->sb.n, out->sc.n) <= o->alpha;
	bool welch_ok = out->sb.n >= 2 && out->sc.n >= 2;
	double q = il_res_stat_quantile(st), *a;
	size_t na, nb;
	bool exact;

	if (mode == IL_RES_TEST_AUTO)
		mode = rank_ok	  ? IL_RES_TEST_RANK
		       : welch_ok ? IL_RES_TEST_WELCH
				  : IL_RES_TEST_BOOTSTRAP;
	if ((mode == IL_RES_TEST_RANK && !rank_ok) ||
	    (mode == IL_RES_TEST_WELCH && !welch_ok))
		return;
	if (mode == IL_RES_TEST_BOOTSTRAP) {
		if (q > 0 && !il_res_boot_quantile(base->merged, cand->merged,
						   q, &out->p))
			out->test = IL_RES_T_BOOT_QUANTILE;
		else if (st == IL_RES_MEAN &&
			 !il_res_mean_z(base->merged, cand->merged, &out->p))
			out->test = IL_RES_T_Z_MEAN;
		return;
	}
	a = malloc((base->nruns + cand->nruns + 1) * sizeof(*a));
	if (!a)
		return;
	na = run_values(base, st, a);
	nb = run_values(cand, st, a + na);
	if (mode == IL_RES_TEST_RANK) {
		if (!il_res_mann_whitney(a, na, a + na, nb, &out->p, &exact))
			out->test = exact ? IL_RES_T_RANK_EXACT
					  : IL_RES_T_RANK_NORMAL;
	} else if (!il_res_welch(a, na, a + na, nb, &out->p)) {
		out->test = IL_RES_T_WELCH;
	}
	free(a);
}

void il_res_compare(const struct il_res_metric *base,
		    const struct il_res_metric *cand, enum il_res_stat st,
		    const struct il_res_cmp_opts *o, struct il_res_cmp *out)
{
	memset(out, 0, sizeof(*out));
	out->base = out->cand = out->ratio = out->pct_imp = out->p = NAN;
	out->sb.mean = out->sb.sd = out->sb.cv_pct = NAN;
	out->sc = out->sb;
	out->change = IL_RES_NA;
	if (!base || !cand)
		return;
	if (il_res_stat_value(base->merged, st, false, &out->base))
		out->base = NAN;
	if (il_res_stat_value(cand->merged, st, false, &out->cand))
		out->cand = NAN;
	il_res_spread(base->nruns ? &base->run[0][st] : NULL, IL_RES_NSTATS,
		      base->nruns, &out->sb);
	il_res_spread(cand->nruns ? &cand->run[0][st] : NULL, IL_RES_NSTATS,
		      cand->nruns, &out->sc);
	if (isnan(out->base) || isnan(out->cand))
		return;
	out->ratio = out->base != 0   ? out->cand / out->base
		     : out->cand == 0 ? 1
				      : NAN;
	out->pct_imp = il_res_pct_improvement(out->base, out->cand);

	run_test(base, cand, st, o, out);
	if (out->test == IL_RES_T_NONE) {
		out->change = IL_RES_TOO_FEW;
		return;
	}
	out->change = IL_RES_SAME;
	/* NAN pct: the baseline is 0 and the candidate is not */
	if (out->p < o->alpha && out->cand != out->base &&
	    (isnan(out->pct_imp) || fabs(out->pct_imp) >= o->min_change_pct))
		out->change =
			out->cand < out->base ? IL_RES_BETTER : IL_RES_WORSE;
}
