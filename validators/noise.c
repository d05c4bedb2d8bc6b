// SPDX-License-Identifier: MIT
/*
 * The noise allowances a calibration gives (noise.h): the p90 that a
 * duration check adds to its bound, and the rare-outlier allowance of a
 * blocking check.  Every model and the kmutex judge use them.
 */
#include <invlab/hist.h>
#include <invlab/noise.h>

/* the calibration's p-th percentile (upper edge), its max when it has
 * too few samples for p, 0 when empty */
static uint64_t calib_pct(const struct il_hist *calib, double p)
{
	uint64_t v = 0;

	if (!calib || !calib->count)
		return 0;
	if (il_hist_percentile_upper(calib, p, &v))
		v = calib->max;
	return v;
}

uint64_t il_noise_ns(const struct il_hist *calib)
{
	return calib_pct(calib, 0.90);
}

uint64_t il_noise_outlier_ns(const struct il_hist *calib, uint64_t bound_ns)
{
	uint64_t v = calib_pct(calib, 0.999);

	return v < bound_ns ? v : bound_ns;
}

uint64_t il_noise_rare_ns(const struct il_hist *calib)
{
	return calib_pct(calib, 0.99);
}
