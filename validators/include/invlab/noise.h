/* SPDX-License-Identifier: MIT */
/* The noise allowances of a calibration histogram (noise.c). */
#ifndef INVLAB_NOISE_H
#define INVLAB_NOISE_H

#include <stdint.h>

#include <invlab/hist.h>

/*
 * The noise allowance a calibration gives: its p90 (its max with fewer
 * than ten samples, 0 when empty), and the rare-outlier allowance of a
 * blocking check (validate.h outlier_ns): its p999 (its max with fewer
 * samples), at most bound_ns, 0 when empty.
 */
uint64_t il_noise_ns(const struct il_hist *calib);
uint64_t il_noise_outlier_ns(const struct il_hist *calib, uint64_t bound_ns);
/*
 * The calibration's p99 (its max with fewer than 100 samples, 0 when
 * empty): a latency the host exceeds in about one wakeup of 100, the
 * order rule's rare window (order.h rare_ns).
 */
uint64_t il_noise_rare_ns(const struct il_hist *calib);

#endif
