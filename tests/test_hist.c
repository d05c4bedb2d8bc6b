// SPDX-License-Identifier: MIT
/*
 * Unit test for the log-linear histogram (lib/util/hist.c, invlab/hist.h).
 *
 * The histogram is what every verdict is computed from, so its claims are
 * checked against the ground truth rather than against itself: percentiles
 * are compared with exact sorting on light- and heavy-tailed synthetic
 * data, the relative error against IL_HIST_MAX_REL_ERR_PPM, the gate value
 * against the exact value (it must never be lower, or a gate could pass on
 * a value the data exceeded).  Percentile ranks are computed here from
 * rational p = num/den in integer arithmetic, independently of the
 * library's own handling of floating-point p.
 *
 * Run: build/tests/test-hist (exit 0 pass, 1 fail).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/hist.h>

#include "t_util.h"

#define TWO36 (1ull << IL_HIST_MAX_LOG2)

struct frac {
	uint64_t num, den;
};

/* the percentiles reports use, plus a few off the usual grid */
static const struct frac fracs[] = {
	{ 1, 2 },	 { 9, 10 },   { 95, 100 }, { 99, 100 }, { 999, 1000 },
	{ 9999, 10000 }, { 1, 1000 }, { 1, 100 },  { 1, 10 },	{ 1, 4 },
	{ 3, 4 },	 { 3, 10 },   { 7, 10 },   { 1, 3 },	{ 2, 3 },
};
#define NFRACS (sizeof(fracs) / sizeof(fracs[0]))

static double frac_p(struct frac f)
{
	return (double)f.num / (double)f.den;
}

/* 1-based rank ceil(n * num / den), exact for the sizes used here */
static uint64_t frac_rank(struct frac f, uint64_t n)
{
	return (n * f.num + f.den - 1) / f.den;
}

/* n >= 1 / (1 - num/den)  <=>  n * (den - num) >= den */
static int frac_enough(struct frac f, uint64_t n)
{
	return n * (f.den - f.num) >= f.den;
}

/* uniform in [0, 1) with 53 random bits */
static double unif(uint64_t *st)
{
	return (double)(t_rand(st) >> 11) * 0x1.0p-53;
}

/* uniform in (0, 1], safe for log() */
static double unif_pos(uint64_t *st)
{
	return 1.0 - unif(st);
}

static double gauss(uint64_t *st)
{
	return sqrt(-2.0 * log(unif_pos(st))) * cos(2.0 * M_PI * unif(st));
}

static uint64_t clamp_ns(double v)
{
	/* stay inside the range the error bound covers */
	if (v < 0.0)
		return 0;
	if (v >= (double)(TWO36 - 1))
		return TWO36 - 1;
	return (uint64_t)v;
}

enum dist {
	D_UNIFORM,
	D_EXP,
	D_LOGNORMAL,
	D_PARETO,
	D_BIMODAL,
	D_CONST,
	D_TINY,
	D_WIDE,
	D_NDIST,
};

static const char *const dist_name[D_NDIST] = {
	"uniform", "exponential", "lognormal", "pareto",
	"bimodal", "constant",	  "below-128", "log-uniform",
};

static uint64_t draw(enum dist d, uint64_t *st)
{
	switch (d) {
	case D_UNIFORM:
		/* 10 us .. 1 ms */
		return 10000 + t_rand(st) % 990000;
	case D_EXP:
		/* mean 50 us */
		return clamp_ns(-50000.0 * log(unif_pos(st)));
	case D_LOGNORMAL:
		/* median 20 us, sigma 2.5: tail into seconds */
		return clamp_ns(20000.0 * exp(2.5 * gauss(st)));
	case D_PARETO:
		/* x_m 5 us, alpha 0.6: tail up to tens of seconds */
		return clamp_ns(5000.0 * pow(unif_pos(st), -1.0 / 0.6));
	case D_BIMODAL:
		/* fast path ~3 us, 5 % stalls ~ 4 ms (an inversion's shape) */
		if (t_rand(st) % 100 < 5)
			return clamp_ns(4e6 + 2e5 * gauss(st));
		return clamp_ns(3000.0 + 300.0 * gauss(st));
	case D_CONST:
		return 123457;
	case D_TINY:
		return t_rand(st) % IL_HIST_SUB;
	case D_WIDE:
		/* log-uniform over the whole covered range, 1 ns .. 2^36 */
		return clamp_ns(exp2(unif(st) * IL_HIST_MAX_LOG2));
	default:
		return 0;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* |got - exact| <= exact * IL_HIST_MAX_REL_ERR_PPM / 1e6, in integers */
static int within_bound(uint64_t got, uint64_t exact)
{
	uint64_t d = got > exact ? got - exact : exact - got;

	return d * 1000000u <= exact * (uint64_t)IL_HIST_MAX_REL_ERR_PPM;
}

static void check_dist(enum dist d, size_t n, uint64_t seed)
{
	uint64_t *v = malloc(n * sizeof(*v));
	struct il_hist *h = malloc(sizeof(*h));
	uint64_t st = seed, sum = 0;
	size_t i, f;
	int bad = 0;

	t_check(v && h);
	if (!v || !h) {
		free(v);
		free(h);
		return;
	}
	il_hist_init(h);
	for (i = 0; i < n; i++) {
		v[i] = draw(d, &st);
		sum += v[i];
		il_hist_record(h, v[i]);
	}
	qsort(v, n, sizeof(*v), cmp_u64);

	t_check_int(h->count, n);
	t_check_int(h->sum, sum);
	t_check_int(h->min, v[0]);
	t_check_int(h->max, v[n - 1]);
	t_check_int(h->overflow, 0);

	for (f = 0; f < NFRACS; f++) {
		uint64_t exact, disp = 0, gate = 0;
		double p = frac_p(fracs[f]);
		int r1, r2;

		if (!frac_enough(fracs[f], n))
			continue;
		exact = v[frac_rank(fracs[f], n) - 1];
		r1 = il_hist_percentile(h, p, &disp);
		r2 = il_hist_percentile_upper(h, p, &gate);
		t_check_int(r1, 0);
		t_check_int(r2, 0);
		t_check(within_bound(disp, exact));
		t_check(gate >= exact);
		t_check(gate >= disp);
		t_check(disp >= h->min && gate <= h->max);
		/* the gate is the top of the bucket the exact value is in */
		t_check_int(il_hist_index(gate), il_hist_index(exact));
		if (!within_bound(disp, exact) || gate < exact) {
			if (!bad++)
				fprintf(stderr,
					"  %s n=%zu p=%llu/%llu: exact %llu "
					"display %llu gate %llu\n",
					dist_name[d], n,
					(unsigned long long)fracs[f].num,
					(unsigned long long)fracs[f].den,
					(unsigned long long)exact,
					(unsigned long long)disp,
					(unsigned long long)gate);
		}
	}
	free(v);
	free(h);
}

static void test_distributions(void)
{
	static const size_t sizes[] = { 100, 1000, 4099, 200003 };
	uint64_t seed = 0;
	size_t s;
	int d;

	/* a different, well-mixed xorshift seed for every run */
	for (d = 0; d < D_NDIST; d++)
		for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
			seed += 0x9e3779b97f4a7c15ull;
			check_dist((enum dist)d, sizes[s], seed);
		}
}

/* every bucket's edges map back to it, and the buckets tile the range */
static void test_buckets(void)
{
	unsigned i, bad = 0;

	t_check_int(il_hist_bucket_lo(0), 0);
	t_check_int(il_hist_bucket_hi(IL_HIST_NBUCKETS - 1), TWO36);
	for (i = 0; i < IL_HIST_NBUCKETS; i++) {
		uint64_t lo = il_hist_bucket_lo(i), hi = il_hist_bucket_hi(i);
		int ok = il_hist_index(lo) == i && il_hist_index(hi - 1) == i &&
			 hi > lo &&
			 (i + 1 == IL_HIST_NBUCKETS ||
			  hi == il_hist_bucket_lo(i + 1)) &&
			 /* no bucket wider than 1/128 of its lower edge */
			 (hi - lo == 1 || (hi - lo) * IL_HIST_SUB <= lo);

		if (!ok && !bad++)
			fprintf(stderr, "  bucket %u: lo %llu hi %llu\n", i,
				(unsigned long long)lo, (unsigned long long)hi);
	}
	t_check_int(bad, 0);
	/* values below 2 * IL_HIST_SUB are exact */
	for (i = 0; i < 2 * IL_HIST_SUB; i++)
		if (il_hist_index(i) != i || il_hist_bucket_lo(i) != i)
			bad++;
	t_check_int(bad, 0);
	t_check_int(il_hist_index(TWO36 - 1), IL_HIST_NBUCKETS - 1);
	t_check_int(il_hist_index(TWO36), IL_HIST_NBUCKETS - 1);
	t_check_int(il_hist_index(UINT64_MAX), IL_HIST_NBUCKETS - 1);
}

static void report_rank(struct frac f, unsigned n, int has, int r1, int r2)
{
	fprintf(stderr, "  rank n=%u p=%llu/%llu: has %d, returned %d %d\n", n,
		(unsigned long long)f.num, (unsigned long long)f.den, has, r1,
		r2);
}

/*
 * Rank selection and the sample-count threshold for every n up to the
 * number of buckets: the k-th sample is recorded in bucket k - 1, so the
 * bucket a percentile lands in names the rank it picked.
 */
static void test_ranks(void)
{
	struct il_hist *h = malloc(sizeof(*h));
	unsigned n, bad = 0;
	size_t f;

	t_check(h != NULL);
	if (!h)
		return;
	il_hist_init(h);
	for (n = 1; n <= IL_HIST_NBUCKETS; n++) {
		il_hist_record(h, il_hist_bucket_lo(n - 1));
		for (f = 0; f < NFRACS; f++) {
			double p = frac_p(fracs[f]);
			uint64_t disp = 0, gate = 0;
			int r1 = il_hist_percentile(h, p, &disp);
			int r2 = il_hist_percentile_upper(h, p, &gate);
			int has = il_hist_has_percentile(h, p);

			if (!frac_enough(fracs[f], n)) {
				if (has || r1 != -ENODATA || r2 != -ENODATA)
					bad++;
				continue;
			}
			if (!has || r1 || r2 ||
			    il_hist_index(disp) != frac_rank(fracs[f], n) - 1 ||
			    il_hist_index(gate) != frac_rank(fracs[f], n) - 1) {
				if (!bad)
					report_rank(fracs[f], n, has, r1, r2);
				bad++;
			}
		}
	}
	t_check_int(bad, 0);
	free(h);
}

/* modular inverse of k mod m by brute force, 0 when there is none */
static uint64_t inverse_mod(uint64_t k, uint64_t m)
{
	uint64_t x;

	for (x = 1; x < m; x++)
		if (k * x % m == 1)
			return x;
	return 0;
}

static void report_split(uint64_t k, uint64_t n, uint64_t r, uint64_t split,
			 unsigned idx)
{
	fprintf(stderr,
		"  p=%llu/10000 n=%llu: rank %llu, split %llu, bucket %u\n",
		(unsigned long long)k, (unsigned long long)n,
		(unsigned long long)r, (unsigned long long)split, idx);
}

/*
 * Every four-digit p = k / 10000, passed as the double a caller would
 * write: the sample-count threshold must flip at exactly ceil(1 / (1 - p)),
 * and the rank must be exactly ceil(p * n), also for the n where p * n is
 * barely above an integer.  Many such doubles (0.0157, 0.0314, ...) sit
 * just below their decimal value, and so would give a rank one too low at
 * large n if the library trusted them to the last bit.
 */
static void test_rank_sweep(void)
{
	static const unsigned lo_idx = 900, hi_idx = 1800;
	struct il_hist *h = malloc(sizeof(*h));
	unsigned bad_need = 0, bad_rank = 0;
	uint64_t k;

	t_check(h != NULL);
	if (!h)
		return;
	il_hist_init(h);
	for (k = 1; k < 10000; k++) {
		struct frac f = { k, 10000 };
		double p = frac_p(f);
		uint64_t need = (10000 + (10000 - k) - 1) / (10000 - k);
		uint64_t ns[4] = { need, 1000, 1000003, 0 };
		uint64_t inv = inverse_mod(k, 10000);
		unsigned j;

		h->count = need - 1;
		if (il_hist_has_percentile(h, p))
			bad_need++;
		h->count = need;
		if (!il_hist_has_percentile(h, p))
			bad_need++;

		/* n * k == 1 (mod 10000): p * n is an integer plus 1e-4 */
		if (inv)
			ns[3] = inv + 10000 * (100000 / 10000 + 7);
		for (j = 0; j < 4; j++) {
			uint64_t n = ns[j], r, split;
			unsigned idx;

			if (!n || !frac_enough(f, n))
				continue;
			r = frac_rank(f, n);
			/*
			 * The first `split` samples in one bucket, the rest in
			 * a higher one: the answer says which side of the
			 * split the library's rank fell on.
			 */
			for (split = r - 1; split <= r; split++) {
				uint64_t v = 0;

				h->bins[lo_idx] = split;
				h->bins[hi_idx] = n - split;
				h->count = n;
				h->min = split ? il_hist_bucket_lo(lo_idx)
					       : il_hist_bucket_lo(hi_idx);
				h->max = split < n ? il_hist_bucket_lo(hi_idx)
						   : il_hist_bucket_lo(lo_idx);
				if (il_hist_percentile_upper(h, p, &v)) {
					bad_rank++;
					continue;
				}
				idx = il_hist_index(v);
				if (idx != (split == r ? lo_idx : hi_idx) &&
				    !bad_rank++)
					report_split(k, n, r, split, idx);
			}
		}
	}
	t_check_int(bad_need, 0);
	t_check_int(bad_rank, 0);

	/* many nines: the threshold is exactly 10^digits */
	il_hist_init(h);
	h->count = 99999;
	t_check(!il_hist_has_percentile(h, 0.99999));
	h->count = 100000;
	t_check(il_hist_has_percentile(h, 0.99999));
	h->count = 9999999;
	t_check(!il_hist_has_percentile(h, 0.9999999));
	h->count = 10000000;
	t_check(il_hist_has_percentile(h, 0.9999999));
	h->count = 999999999;
	t_check(!il_hist_has_percentile(h, 0.999999999));
	h->count = 1000000000;
	t_check(il_hist_has_percentile(h, 0.999999999));
	free(h);
}

static void fill_n(struct il_hist *h, unsigned n, uint64_t seed)
{
	uint64_t st = seed;
	unsigned i;

	il_hist_init(h);
	for (i = 0; i < n; i++)
		il_hist_record(h, draw(D_LOGNORMAL, &st));
}

static void test_edges(void)
{
	struct il_hist *h = malloc(sizeof(*h));
	uint64_t v = 0;
	unsigned i;

	t_check(h != NULL);
	if (!h)
		return;

	/* init, empty */
	il_hist_init(h);
	t_check_int(h->count, 0);
	t_check_int(h->sum, 0);
	t_check(h->min == UINT64_MAX);
	t_check_int(h->max, 0);
	t_check_int(h->overflow, 0);
	t_check(il_hist_mean(h) == 0.0);
	t_check_int(il_hist_percentile(h, 0.5, &v), -ENODATA);
	t_check_int(il_hist_percentile_upper(h, 0.5, &v), -ENODATA);
	t_check_int(il_hist_percentile(h, 0.999, &v), -ENODATA);
	t_check(!il_hist_has_percentile(h, 0.5));

	/* p outside (0, 1) is a caller bug, not missing data */
	fill_n(h, 2000, 1);
	t_check_int(il_hist_percentile(h, 0.0, &v), -EINVAL);
	t_check_int(il_hist_percentile(h, 1.0, &v), -EINVAL);
	t_check_int(il_hist_percentile(h, -0.5, &v), -EINVAL);
	t_check_int(il_hist_percentile_upper(h, NAN, &v), -EINVAL);
	t_check(!il_hist_has_percentile(h, 1.5));

	/* the thresholds at exactly the documented counts */
	fill_n(h, 1, 2);
	t_check(!il_hist_has_percentile(h, 0.5));
	t_check_int(il_hist_percentile(h, 0.5, &v), -ENODATA);
	fill_n(h, 2, 2);
	t_check(il_hist_has_percentile(h, 0.5));
	t_check_int(il_hist_percentile(h, 0.5, &v), 0);
	fill_n(h, 99, 3);
	t_check(!il_hist_has_percentile(h, 0.99));
	t_check_int(il_hist_percentile(h, 0.99, &v), -ENODATA);
	t_check_int(il_hist_percentile_upper(h, 0.99, &v), -ENODATA);
	t_check_int(il_hist_percentile(h, 0.9, &v), 0);
	fill_n(h, 100, 3);
	t_check(il_hist_has_percentile(h, 0.99));
	t_check_int(il_hist_percentile(h, 0.99, &v), 0);
	t_check_int(il_hist_percentile_upper(h, 0.99, &v), 0);
	t_check(!il_hist_has_percentile(h, 0.999));
	fill_n(h, 999, 4);
	t_check(!il_hist_has_percentile(h, 0.999));
	t_check_int(il_hist_percentile(h, 0.999, &v), -ENODATA);
	t_check_int(il_hist_percentile_upper(h, 0.999, &v), -ENODATA);
	t_check_int(il_hist_percentile(h, 0.99, &v), 0);
	fill_n(h, 1000, 4);
	t_check(il_hist_has_percentile(h, 0.999));
	t_check_int(il_hist_percentile(h, 0.999, &v), 0);
	t_check_int(il_hist_percentile_upper(h, 0.999, &v), 0);
	t_check(!il_hist_has_percentile(h, 0.9999));
	/* ceil(0.07 * 100) in doubles is 8; the 7th sample is the answer */
	il_hist_init(h);
	for (i = 0; i < 100; i++)
		il_hist_record(h, il_hist_bucket_lo(i));
	t_check_int(il_hist_percentile_upper(h, 0.07, &v), 0);
	t_check_int(v, 6);
	t_check_int(il_hist_percentile_upper(h, 0.9, &v), 0);
	t_check_int(v, 89);
	fill_n(h, 9999, 5);
	t_check(!il_hist_has_percentile(h, 0.9999));
	fill_n(h, 10000, 5);
	t_check(il_hist_has_percentile(h, 0.9999));

	/*
	 * A single sample: exact count, sum, min, max and mean, but no
	 * percentile, since even p50 needs two samples.
	 */
	il_hist_init(h);
	il_hist_record(h, 777777);
	t_check_int(h->count, 1);
	t_check_int(h->sum, 777777);
	t_check_int(h->min, 777777);
	t_check_int(h->max, 777777);
	t_check(il_hist_mean(h) == 777777.0);
	t_check_int(il_hist_percentile(h, 0.5, &v), -ENODATA);

	/* identical samples: clamping to min/max makes every value exact */
	il_hist_init(h);
	for (i = 0; i < 1000; i++)
		il_hist_record(h, 777777);
	v = 0;
	t_check_int(il_hist_percentile(h, 0.5, &v), 0);
	t_check_int(v, 777777);
	v = 0;
	t_check_int(il_hist_percentile(h, 0.999, &v), 0);
	t_check_int(v, 777777);
	v = 0;
	t_check_int(il_hist_percentile_upper(h, 0.999, &v), 0);
	t_check_int(v, 777777);
	t_check(il_hist_mean(h) == 777777.0);

	/* zero is a value like any other */
	il_hist_init(h);
	il_hist_record(h, 0);
	il_hist_record(h, 0);
	t_check_int(h->min, 0);
	v = 1;
	t_check_int(il_hist_percentile_upper(h, 0.5, &v), 0);
	t_check_int(v, 0);

	/*
	 * Overflow: values >= 2^36 share the last bucket, are counted, and
	 * min, max and sum stay exact.  A percentile that falls among them
	 * has no value (the top two ranks here), the one below them has.
	 */
	il_hist_init(h);
	for (i = 0; i < 98; i++)
		il_hist_record(h, 1000);
	il_hist_record(h, TWO36);
	il_hist_record(h, 100 * TWO36 + 5);
	t_check_int(h->overflow, 2);
	t_check_int(h->count, 100);
	t_check_int(h->max, 100 * TWO36 + 5);
	t_check_int(h->min, 1000);
	t_check_int(h->sum, 98 * 1000 + 101 * TWO36 + 5);
	t_check_int(h->bins[IL_HIST_NBUCKETS - 1], 2);
	t_check_int(il_hist_percentile_upper(h, 0.99, &v), -ENODATA);
	t_check_int(il_hist_percentile(h, 0.99, &v), -ENODATA);
	v = 0;
	t_check_int(il_hist_percentile(h, 0.98, &v), 0);
	t_check(v >= 1000 && v < il_hist_bucket_hi(il_hist_index(1000)));
	v = 0;
	t_check_int(il_hist_percentile_upper(h, 0.98, &v), 0);
	t_check(v >= 1000 && v < il_hist_bucket_hi(il_hist_index(1000)));
	/* one overflow fewer: p99 is the last known sample again */
	h->overflow = 1;
	t_check_int(il_hist_percentile(h, 0.99, &v), 0);
	/* just below the limit is not overflow */
	il_hist_init(h);
	il_hist_record(h, TWO36 - 1);
	t_check_int(h->overflow, 0);
	t_check_int(h->bins[IL_HIST_NBUCKETS - 1], 1);

	free(h);
}

static void fill_dist(struct il_hist *h, enum dist d, unsigned n, uint64_t seed)
{
	uint64_t st = seed;
	unsigned i;

	for (i = 0; i < n; i++)
		il_hist_record(h, draw(d, &st));
}

/* percentiles of a and b agree, return code and value, for every p */
static int same_percentiles(const struct il_hist *a, const struct il_hist *b)
{
	size_t f;

	for (f = 0; f < NFRACS; f++) {
		double p = frac_p(fracs[f]);
		uint64_t va = 0, vb = 0, ua = 0, ub = 0;

		if (il_hist_percentile(a, p, &va) !=
			    il_hist_percentile(b, p, &vb) ||
		    il_hist_percentile_upper(a, p, &ua) !=
			    il_hist_percentile_upper(b, p, &ub) ||
		    va != vb || ua != ub)
			return 0;
	}
	return 1;
}

/* recording into per-thread histograms and merging == recording into one */
static void test_merge(void)
{
	struct il_hist *one = malloc(sizeof(*one));
	struct il_hist *part = malloc(3 * sizeof(*part));
	struct il_hist *sum = malloc(sizeof(*sum));

	t_check(one && part && sum);
	if (!one || !part || !sum)
		goto out;
	il_hist_init(one);
	il_hist_init(sum);
	il_hist_init(&part[0]);
	il_hist_init(&part[1]);
	il_hist_init(&part[2]);
	fill_dist(one, D_LOGNORMAL, 50000, 11);
	fill_dist(one, D_BIMODAL, 30000, 12);
	fill_dist(one, D_TINY, 100, 13);
	il_hist_record(one, 3 * TWO36);
	fill_dist(&part[0], D_LOGNORMAL, 50000, 11);
	fill_dist(&part[1], D_BIMODAL, 30000, 12);
	fill_dist(&part[2], D_TINY, 100, 13);
	il_hist_record(&part[1], 3 * TWO36);

	il_hist_merge(sum, &part[0]);
	il_hist_merge(sum, &part[1]);
	il_hist_merge(sum, &part[2]);
	t_check(memcmp(one, sum, sizeof(*one)) == 0);
	t_check(same_percentiles(one, sum));
	t_check_int(sum->overflow, 1);

	/* merging an empty histogram changes nothing */
	il_hist_init(&part[0]);
	il_hist_merge(sum, &part[0]);
	t_check(memcmp(one, sum, sizeof(*one)) == 0);
	/* and into an empty one copies */
	il_hist_merge(&part[0], one);
	t_check(memcmp(one, &part[0], sizeof(*one)) == 0);
out:
	free(one);
	free(part);
	free(sum);
}

/* what a reader of stored bins does: walk, then add back */
static void test_bins_roundtrip(void)
{
	struct il_hist *h = malloc(sizeof(*h));
	struct il_hist *r = malloc(sizeof(*r));
	uint64_t lo, cnt, nbins = 0, total = 0, prev = 0;
	unsigned idx = 0, bad = 0;
	size_t f;
	int first = 1;

	t_check(h && r);
	if (!h || !r)
		goto out;
	il_hist_init(h);
	fill_dist(h, D_PARETO, 100000, 21);
	fill_dist(h, D_TINY, 1000, 22);
	il_hist_init(r);
	while (il_hist_next_bin(h, &idx, &lo, &cnt)) {
		/* strictly increasing, non-empty, and on bucket edges */
		if ((!first && lo <= prev) || !cnt ||
		    il_hist_bucket_lo(il_hist_index(lo)) != lo)
			bad++;
		if (il_hist_add_bin(r, lo, cnt))
			bad++;
		first = 0;
		prev = lo;
		nbins++;
		total += cnt;
	}
	t_check_int(bad, 0);
	t_check(nbins > 100);
	t_check_int(total, h->count);
	/* the walk stays finished */
	t_check_int(il_hist_next_bin(h, &idx, &lo, &cnt), 0);

	t_check(memcmp(h->bins, r->bins, sizeof(h->bins)) == 0);
	t_check_int(r->count, h->count);
	t_check(r->sum <= h->sum);
	t_check(r->min <= h->min);
	t_check(r->max >= h->max);
	t_check_int(il_hist_index(r->min), il_hist_index(h->min));
	t_check_int(il_hist_index(r->max), il_hist_index(h->max));

	/*
	 * Same bucket for every percentile; the gate may only get more
	 * conservative.  With the exact min and max restored (stored next to
	 * the bins in the JSON), the values are identical.
	 */
	for (f = 0; f < NFRACS; f++) {
		uint64_t a = 0, b = 0, ua = 0, ub = 0;
		double p = frac_p(fracs[f]);

		t_check_int(il_hist_percentile(h, p, &a), 0);
		t_check_int(il_hist_percentile(r, p, &b), 0);
		t_check_int(il_hist_percentile_upper(h, p, &ua), 0);
		t_check_int(il_hist_percentile_upper(r, p, &ub), 0);
		t_check_int(il_hist_index(a), il_hist_index(b));
		t_check(ub >= ua);
	}
	r->min = h->min;
	r->max = h->max;
	t_check(same_percentiles(h, r));

	/* an empty histogram has no bins */
	il_hist_init(r);
	idx = 0;
	t_check_int(il_hist_next_bin(r, &idx, &lo, &cnt), 0);
out:
	free(h);
	free(r);
}

static void test_add_bin(void)
{
	struct il_hist *h = malloc(sizeof(*h));
	uint64_t v = 0;
	unsigned i, bad = 0;

	t_check(h != NULL);
	if (!h)
		return;
	il_hist_init(h);

	/* not a lower edge: nothing changes */
	t_check_int(il_hist_add_bin(h, 257, 1), -EINVAL);
	t_check_int(il_hist_add_bin(h, 1025, 3), -EINVAL);
	t_check_int(il_hist_add_bin(h, TWO36, 1), -EINVAL);
	t_check_int(il_hist_add_bin(h, UINT64_MAX, 1), -EINVAL);
	t_check_int(h->count, 0);
	t_check(h->min == UINT64_MAX);
	/* every real edge is accepted */
	for (i = 0; i < IL_HIST_NBUCKETS; i++) {
		if (il_hist_add_bin(h, il_hist_bucket_lo(i), 1))
			bad++;
		/* one past an edge is never an edge in the wide buckets */
		if (il_hist_bucket_hi(i) - il_hist_bucket_lo(i) > 1 &&
		    il_hist_add_bin(h, il_hist_bucket_lo(i) + 1, 1) != -EINVAL)
			bad++;
	}
	t_check_int(bad, 0);
	t_check_int(h->count, IL_HIST_NBUCKETS);

	/* conservative min/max, sum from the lower edges */
	il_hist_init(h);
	t_check_int(il_hist_add_bin(h, 1024, 10), 0);
	t_check_int(il_hist_add_bin(h, 4096, 90), 0);
	t_check_int(il_hist_add_bin(h, 512, 0), 0);
	t_check_int(h->count, 100);
	t_check_int(h->sum, 1024 * 10 + 4096 * 90);
	t_check_int(h->min, 1024);
	t_check_int(h->max, il_hist_bucket_hi(il_hist_index(4096)) - 1);
	t_check_int(h->bins[il_hist_index(1024)], 10);
	t_check_int(il_hist_percentile_upper(h, 0.99, &v), 0);
	t_check_int(v, il_hist_bucket_hi(il_hist_index(4096)) - 1);
	t_check_int(il_hist_percentile_upper(h, 0.1, &v), 0);
	t_check_int(v, il_hist_bucket_hi(il_hist_index(1024)) - 1);

	/* refuse to wrap the counters */
	t_check_int(il_hist_add_bin(h, 1024, UINT64_MAX), -EOVERFLOW);
	t_check_int(h->count, 100);
	free(h);
}

/* the samples a percentile needs: one beyond it, as has_percentile */
static void test_samples_for(void)
{
	static const struct {
		double p;
		uint64_t n;
	} want[] = {
		{ 0.5, 2 },	 { 0.9, 10 },	    { 0.99, 100 },
		{ 0.999, 1000 }, { 0.9999, 10000 }, { 0.95, 20 },
	};
	struct il_hist h;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		t_check_int(il_hist_samples_for(want[i].p), want[i].n);
		/* and it is the count has_percentile starts at */
		il_hist_init(&h);
		for (uint64_t k = 0; k + 1 < want[i].n; k++)
			il_hist_record(&h, 1000 + k);
		t_check(!il_hist_has_percentile(&h, want[i].p));
		il_hist_record(&h, 5000);
		t_check(il_hist_has_percentile(&h, want[i].p));
	}
	t_check_int(il_hist_samples_for(0), 0);
	t_check_int(il_hist_samples_for(1), 0);
	t_check_int(il_hist_samples_for(-0.5), 0);
}

int main(void)
{
	test_samples_for();
	test_buckets();
	test_ranks();
	test_rank_sweep();
	test_edges();
	test_distributions();
	test_merge();
	test_bins_roundtrip();
	test_add_bin();
	return t_done("hist");
}
