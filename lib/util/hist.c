// SPDX-License-Identifier: MIT
/*
 * Log-linear latency histogram: the out-of-line half of invlab/hist.h.
 *
 * Recording is inline in the header because it sits on the measurement hot
 * path.  What lives here runs after the run: bucket geometry, merging,
 * percentiles and the bin walk used to store histograms and read them back.
 *
 * Percentile ranks are computed in integer arithmetic.  p arrives as a
 * double, and the usual literals are not exact in binary, so the textbook
 * formulas evaluated in floating point are one off exactly where it
 * matters: ceil(1 / (1 - 0.9999)) is 10001, ceil(1 / (1 - 0.9)) is 11 and
 * ceil(0.07 * 100) is 8.  We convert p once to parts per billion and do
 * the rest exactly; nine decimal places is far more resolution than any
 * percentile anyone reports.
 */
#include <errno.h>
#include <string.h>

#include <invlab/hist.h>

#define P_SCALE 1000000000ull

void il_hist_init(struct il_hist *h)
{
	memset(h, 0, sizeof(*h));
	/* so that the first sample, whatever it is, becomes the minimum */
	h->min = UINT64_MAX;
}

/*
 * Group 0 is [0, 128) at 1 ns; group g >= 1 is [2^(g+6), 2^(g+7)) split
 * into 128 sub-buckets of 2^(g-1) ns.  Group 1 is therefore also 1 ns wide,
 * which is why values below 256 are in fact exact.
 */
uint64_t il_hist_bucket_lo(unsigned idx)
{
	unsigned g = idx / IL_HIST_SUB, s = idx % IL_HIST_SUB;

	/* idx == NBUCKETS is allowed: it is the end edge of the last bucket */
	if (idx > IL_HIST_NBUCKETS)
		return UINT64_MAX;
	if (g == 0)
		return s;
	return (uint64_t)(IL_HIST_SUB + s) << (g - 1);
}

uint64_t il_hist_bucket_hi(unsigned idx)
{
	if (idx >= IL_HIST_NBUCKETS)
		return UINT64_MAX;
	return il_hist_bucket_lo(idx + 1);
}

void il_hist_merge(struct il_hist *dst, const struct il_hist *src)
{
	unsigned i;

	for (i = 0; i < IL_HIST_NBUCKETS; i++)
		dst->bins[i] += src->bins[i];
	dst->count += src->count;
	dst->sum += src->sum;
	dst->overflow += src->overflow;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

double il_hist_mean(const struct il_hist *h)
{
	if (!h->count)
		return 0.0;
	return (double)h->sum / (double)h->count;
}

/*
 * p in parts per billion, or 0 when p is not inside (0, 1).  The slack
 * (about ten ulps of p * 1e9 near 1e9) absorbs the representation error of
 * decimal literals, so 0.999 gives exactly 999000000.  Beyond that we
 * truncate rather than round: a p that is not a decimal, such as 2.0 / 3,
 * then lands just below its true value, and ceil(p * n) is exact until n
 * reaches about 10^9 / 3, instead of being one too high already at n = 3.
 */
static uint64_t p_to_ppb(double p)
{
	uint64_t ppb;

	/* written so that NaN fails too */
	if (!(p > 0.0 && p < 1.0))
		return 0;
	ppb = (uint64_t)(p * (double)P_SCALE + 1e-6);
	if (ppb >= P_SCALE)
		return 0;
	return ppb;
}

/*
 * count >= 1 / (1 - p), i.e. count >= ceil(S / (S - ppb)).  Below that the
 * requested rank falls on the largest sample (or beyond), and calling the
 * maximum of 500 samples a "p999" is exactly the mistake we refuse to make.
 */
static uint64_t needed(uint64_t ppb)
{
	uint64_t rest = P_SCALE - ppb;

	return (P_SCALE + rest - 1) / rest;
}

static int enough_samples(uint64_t count, uint64_t ppb)
{
	return count >= needed(ppb);
}

uint64_t il_hist_samples_for(double p)
{
	uint64_t ppb = p_to_ppb(p);

	return ppb ? needed(ppb) : 0;
}

int il_hist_has_percentile(const struct il_hist *h, double p)
{
	uint64_t ppb = p_to_ppb(p);

	return ppb && enough_samples(h->count, ppb);
}

/*
 * ceil(count * ppb / S) without overflow: count may be anything up to
 * 2^64 - 1, but count % S and ppb are both below 2^30.
 */
static uint64_t rank_of(uint64_t count, uint64_t ppb)
{
	return count / P_SCALE * ppb +
	       (count % P_SCALE * ppb + P_SCALE - 1) / P_SCALE;
}

/*
 * Find the bucket holding the rank-th smallest sample.  Only buckets
 * between those of min and max can be non-empty, and we walk from the end
 * nearer to the rank: a p99 query then touches the tail only.
 */
static int find_bucket(const struct il_hist *h, double p, unsigned *idx)
{
	uint64_t ppb = p_to_ppb(p), rank, seen = 0;
	unsigned lo, hi, i;

	if (!ppb)
		return -EINVAL;
	if (!enough_samples(h->count, ppb))
		return -ENODATA;
	rank = rank_of(h->count, ppb);
	/*
	 * Overflow samples are past the histogram's range: a percentile
	 * that falls among them has no value to report, only bounds.
	 */
	if (h->overflow > h->count - rank)
		return -ENODATA;
	lo = il_hist_index(h->min);
	hi = il_hist_index(h->max);
	if (lo > hi)
		return -EINVAL;

	if (rank <= h->count / 2) {
		for (i = lo; i <= hi; i++) {
			seen += h->bins[i];
			if (seen >= rank) {
				*idx = i;
				return 0;
			}
		}
	} else {
		/* the rank-th smallest is the (count - rank + 1)-th largest */
		rank = h->count - rank + 1;
		for (i = hi + 1; i-- > lo;) {
			seen += h->bins[i];
			if (seen >= rank) {
				*idx = i;
				return 0;
			}
		}
	}
	/* bins do not add up to count: not a histogram we built */
	return -EINVAL;
}

int il_hist_percentile(const struct il_hist *h, double p, uint64_t *value)
{
	uint64_t lo, width, v;
	unsigned idx;
	int ret;

	ret = find_bucket(h, p, &idx);
	if (ret)
		return ret;
	lo = il_hist_bucket_lo(idx);
	width = il_hist_bucket_hi(idx) - lo;
	/*
	 * lo + width/2 is at most width/2 <= lo/256 away from any value in
	 * the bucket, which is the documented error bound.  Clamping to the
	 * exact min and max only moves it closer to the true value, and
	 * makes a histogram of identical samples report them exactly.
	 */
	v = lo + width / 2;
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	*value = v;
	return 0;
}

int il_hist_percentile_upper(const struct il_hist *h, double p, uint64_t *value)
{
	unsigned idx;
	uint64_t v;
	int ret;

	ret = find_bucket(h, p, &idx);
	if (ret)
		return ret;
	/*
	 * The last bucket also holds everything beyond 2^IL_HIST_MAX_LOG2,
	 * so its nominal upper edge is not an upper bound once something
	 * overflowed; the exact max is.
	 */
	if (idx == IL_HIST_NBUCKETS - 1 && h->overflow)
		v = h->max;
	else
		v = il_hist_bucket_hi(idx) - 1;
	if (v > h->max)
		v = h->max;
	*value = v;
	return 0;
}

int il_hist_next_bin(const struct il_hist *h, unsigned *idx, uint64_t *lo,
		     uint64_t *count)
{
	unsigned i;

	for (i = *idx; i < IL_HIST_NBUCKETS; i++) {
		if (h->bins[i]) {
			*lo = il_hist_bucket_lo(i);
			*count = h->bins[i];
			*idx = i + 1;
			return 1;
		}
	}
	*idx = IL_HIST_NBUCKETS;
	return 0;
}

/*
 * Reading stored bins back loses where in its bucket each sample was, so
 * sum uses the lower edge and min/max take the widest values the buckets
 * allow: the result never claims a tighter spread than the data had.
 */
int il_hist_add_bin(struct il_hist *h, uint64_t lo, uint64_t count)
{
	unsigned idx = il_hist_index(lo);
	uint64_t hi, add, total, sum, bin;

	if (il_hist_bucket_lo(idx) != lo)
		return -EINVAL;
	if (!count)
		return 0;
	if (__builtin_mul_overflow(lo, count, &add) ||
	    __builtin_add_overflow(h->sum, add, &sum) ||
	    __builtin_add_overflow(h->count, count, &total) ||
	    __builtin_add_overflow(h->bins[idx], count, &bin))
		return -EOVERFLOW;
	hi = il_hist_bucket_hi(idx) - 1;
	h->bins[idx] = bin;
	h->count = total;
	h->sum = sum;
	if (lo < h->min)
		h->min = lo;
	if (hi > h->max)
		h->max = hi;
	return 0;
}
