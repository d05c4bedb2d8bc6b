// SPDX-License-Identifier: MIT
/*
 * The noise allowances a calibration gives (noise.h): the p90 that a
 * duration check adds to its bound, and the rare-outlier allowance of a
 * blocking check.  Every model and the kmutex judge use them.
 */
#include <invlab/hist.h>
#include <invlab/noise.h>

uint64_t il_noise_ns(const struct il_hist *calib)
{
	uint64_t v = 0;

	if (!calib || !calib->count)
		return 0;
	if (il_hist_percentile_upper(calib, 0.90, &v))
		v = calib->max;
	return v;
}

uint64_t il_noise_outlier_ns(const struct il_hist *calib, uint64_t bound_ns)
{
	uint64_t v = 0;

	if (!calib || !calib->count)
		return 0;
	if (il_hist_percentile_upper(calib, 0.999, &v))
		v = calib->max;
	return v < bound_ns ? v : bound_ns;
}

uint64_t il_noise_rare_ns(const struct il_hist *calib)
{
	uint64_t v = 0;

	if (!calib || !calib->count)
		return 0;
	if (il_hist_percentile_upper(calib, 0.99, &v))
		v = calib->max;
	return v;
}
