/* SPDX-License-Identifier: MIT */
/*
 * Log-linear latency histogram (the fio/schbench layout).
 *
 * Values are nanoseconds.  Values below 2^IL_HIST_BITS are counted exactly,
 * one bucket per nanosecond.  Above that, every power-of-two range
 * [2^e, 2^(e+1)) is split into 2^IL_HIST_BITS equal sub-buckets, so a
 * bucket is never wider than 1/128 of its lower edge.  Reporting the
 * bucket midpoint is therefore off by at most 1/256 = 0.39 % of the true
 * value, over 1 ns .. 2^IL_HIST_MAX_LOG2 ns (~68.7 s).  Larger values land
 * in the last bucket and are counted in `overflow`; min and max stay exact.
 *
 * Recording is O(1): a count-leading-zeros, a shift and three updates on
 * a caller-owned, preallocated structure.  No locks, no allocation, no
 * syscalls: one histogram per thread, merged after the run.
 */
#ifndef INVLAB_HIST_H
#define INVLAB_HIST_H

#include <stddef.h>
#include <stdint.h>

#define IL_HIST_BITS	 7
#define IL_HIST_SUB	 (1u << IL_HIST_BITS)
#define IL_HIST_MAX_LOG2 36
/* group 0 holds 0..127 exactly, groups 1.. hold one power of two each */
#define IL_HIST_GROUPS	 (IL_HIST_MAX_LOG2 - IL_HIST_BITS + 1)
#define IL_HIST_NBUCKETS (IL_HIST_GROUPS * IL_HIST_SUB)
/* relative error bound of a reported (midpoint) value, in parts per million */
#define IL_HIST_MAX_REL_ERR_PPM 3907

struct il_hist {
	uint64_t count;
	uint64_t sum;
	uint64_t min;
	uint64_t max;
	uint64_t overflow;
	uint64_t bins[IL_HIST_NBUCKETS];
};

static inline unsigned il_hist_index(uint64_t v)
{
	unsigned e, shift;

	if (v < IL_HIST_SUB)
		return (unsigned)v;
	if (v >> IL_HIST_MAX_LOG2)
		return IL_HIST_NBUCKETS - 1;
	e = 63u - (unsigned)__builtin_clzll(v);
	shift = e - IL_HIST_BITS;
	return (shift + 1) * IL_HIST_SUB +
	       (unsigned)((v >> shift) - IL_HIST_SUB);
}

/*
 * Only its own thread writes a histogram, but each word is stored whole
 * (a relaxed atomic store: a plain store on the usual CPUs), so that the
 * engine can copy it for the live view while the thread records.
 */
#define IL_HIST_SET(field, v) __atomic_store_n(&(field), (v), __ATOMIC_RELAXED)

static inline void il_hist_record(struct il_hist *h, uint64_t v)
{
	unsigned i = il_hist_index(v);

	IL_HIST_SET(h->bins[i], h->bins[i] + 1);
	IL_HIST_SET(h->count, h->count + 1);
	IL_HIST_SET(h->sum, h->sum + v);
	if (v < h->min)
		IL_HIST_SET(h->min, v);
	if (v > h->max)
		IL_HIST_SET(h->max, v);
	if (v >> IL_HIST_MAX_LOG2)
		IL_HIST_SET(h->overflow, h->overflow + 1);
}

void il_hist_init(struct il_hist *h);
/* lowest value of bucket idx, and one past its highest value */
uint64_t il_hist_bucket_lo(unsigned idx);
uint64_t il_hist_bucket_hi(unsigned idx);
void il_hist_merge(struct il_hist *dst, const struct il_hist *src);
/* mean in ns, 0 when empty */
double il_hist_mean(const struct il_hist *h);
/*
 * Enough samples for percentile p (0 < p < 1)?  Needs count >= 1/(1-p):
 * 2 for p50, 100 for p99, 1000 for p999, 10000 for p9999.
 */
int il_hist_has_percentile(const struct il_hist *h, double p);
/*
 * The rule above as a number: the fewest samples that give percentile p,
 * ceil(1/(1-p)), so that at least one sample lies beyond it (100 for p99,
 * 1000 for p999, 10000 for p9999); 0 when p is not inside (0, 1).  A run
 * that is to report p is sized with it (--percentile, opt.h).
 */
uint64_t il_hist_samples_for(double p);
/*
 * Percentile p: the bucket holding the ceil(p*count)-th smallest sample.
 * il_hist_percentile gives the value to display (bucket midpoint, clamped
 * to [min, max]); il_hist_percentile_upper the value to gate on (the
 * bucket's highest value, clamped to max).  Both return 0, or -ENODATA
 * when there are too few samples (see il_hist_has_percentile) or the
 * percentile falls among the overflow samples, whose values are not
 * known (the top `overflow` ranks).
 */
int il_hist_percentile(const struct il_hist *h, double p, uint64_t *value);
int il_hist_percentile_upper(const struct il_hist *h, double p,
			     uint64_t *value);
/*
 * Walk the non-empty buckets in increasing order: start with *idx = 0,
 * returns 1 and fills lo/count while there is one, then 0.
 */
int il_hist_next_bin(const struct il_hist *h, unsigned *idx, uint64_t *lo,
		     uint64_t *count);
/* add count samples whose bucket starts at lo (reading bins back) */
int il_hist_add_bin(struct il_hist *h, uint64_t lo, uint64_t count);

#endif
