// SPDX-License-Identifier: MIT
/*
 * Priority-inheritance and priority-ceiling bounds, and the check that
 * judges measured blocking against them.
 *
 * The check is built so that it cannot be fooled in either direction:
 * it judges what happened (how long the waiter waited, and whether a
 * lower-priority hog ran meanwhile), not what the mutex attributes say,
 * so a C library that ignores the protocol fails; and it only forgives
 * time that was measured to belong to nobody in the scenario (steal,
 * interrupts), so noise becomes UNDECIDED rather than a false FAIL while
 * an inversion, which is time the scenario's own hog ran, always fails.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <invlab/time.h>
#include <invlab/validate.h>

#include "check-none.h"

uint64_t il_pi_bound(const uint64_t *L, size_t ntasks, size_t nlocks)
{
	uint64_t by_task = 0, by_lock = 0;

	/* each lower task blocks at most once, on its longest section */
	for (size_t j = 0; j < ntasks; j++) {
		uint64_t m = 0;

		for (size_t l = 0; l < nlocks; l++)
			if (L[j * nlocks + l] > m)
				m = L[j * nlocks + l];
		by_task += m;
	}
	/* each lock blocks at most once, for its longest user */
	for (size_t l = 0; l < nlocks; l++) {
		uint64_t m = 0;

		for (size_t j = 0; j < ntasks; j++)
			if (L[j * nlocks + l] > m)
				m = L[j * nlocks + l];
		by_lock += m;
	}
	return by_task < by_lock ? by_task : by_lock;
}

uint64_t il_ceiling_bound(const uint64_t *L, const int *ceiling, int prio,
			  size_t ntasks, size_t nlocks)
{
	uint64_t m = 0;

	for (size_t l = 0; l < nlocks; l++) {
		if (ceiling[l] < prio)
			continue;
		for (size_t j = 0; j < ntasks; j++)
			if (L[j * nlocks + l] > m)
				m = L[j * nlocks + l];
	}
	return m;
}

static uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

void il_blocking_stats(const struct il_bound_input *in,
		       const struct il_wait_sample *s, size_t n,
		       struct il_blocking_stats *st)
{
	uint64_t limit = in->bound_ns + in->noise_ns;
	uint64_t olimit = limit + in->outlier_ns;
	size_t allowed = in->outlier_ns ? n / 100 + 1 : 0, near = 0;

	memset(st, 0, sizeof(*st));
	/* rare outliers are noise; many are a pattern */
	for (size_t i = 0; i < n; i++) {
		uint64_t own = sub0(s[i].delay_ns, s[i].foreign_ns);

		if (!s[i].timed_out && own > limit && own <= olimit)
			near++;
	}
	if (near > allowed)
		olimit = limit;
	for (size_t i = 0; i < n; i++) {
		uint64_t own = sub0(s[i].delay_ns, s[i].foreign_ns);

		if (s[i].lower_ns > st->worst_lower_ns)
			st->worst_lower_ns = s[i].lower_ns;
		if (s[i].foreign_ns > st->worst_foreign_ns)
			st->worst_foreign_ns = s[i].foreign_ns;
		if (s[i].timed_out) {
			st->timed_out++;
			st->violations++;
		} else if (own > olimit) {
			st->violations++;
			if (own - limit > st->worst_excess_ns)
				st->worst_excess_ns = own - limit;
		} else if (own > limit) {
			st->noisy++;
			st->outliers++;
		} else if (s[i].delay_ns > limit) {
			st->noisy++;
		} else {
			st->clean++;
		}
	}
}

int il_noise_swamps(uint64_t bound_ns, uint64_t noise_ns)
{
	/* noise / bound > pct / 100, in 128 bits so that nothing wraps */
	return (unsigned __int128)noise_ns * 100u >
	       (unsigned __int128)bound_ns * IL_NOISE_MAX_PERCENT;
}

static int check_blocking_(const struct il_bound_input *in,
			   const struct il_wait_sample *s, size_t n,
			   struct il_check *out)
{
	char b[24], e[24], x[24], w[24], f[24];
	struct il_blocking_stats st;
	uint64_t worst = 0;

	if (!in || !out || (n && !s))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->bound_name = in->bound_name;
	out->bound_ns = in->bound_ns;
	out->noise_ns = in->noise_ns;
	il_blocking_stats(in, s, n, &st);
	for (size_t i = 0; i < n; i++) {
		uint64_t own = sub0(s[i].delay_ns, s[i].foreign_ns);

		if (own > worst)
			worst = own;
	}
	out->worst_ns = worst;

	il_format_duration(b, sizeof(b), in->bound_ns);
	il_format_duration(e, sizeof(e), in->noise_ns);
	il_format_duration(x, sizeof(x), st.worst_excess_ns);
	il_format_duration(w, sizeof(w), st.worst_lower_ns);
	il_format_duration(f, sizeof(f), st.worst_foreign_ns);

	if (st.violations && !st.timed_out &&
	    st.worst_lower_ns <= in->noise_ns &&
	    st.worst_excess_ns <= in->steal_ns) {
		char s_[24];

		il_format_duration(s_, sizeof(s_), in->steal_ns);
		out->verdict = IL_UNDECIDED;
		snprintf(out->evidence, sizeof(out->evidence),
			 "%zu of %zu waits exceeded %s + %s noise by up to %s, "
			 "but no lower-priority thread ran while the lock was "
			 "awaited and the host stole %s of CPU time in the "
			 "run: the holder's own section, stretched by steal, "
			 "cannot be told from a violation",
			 st.violations, n, b, e, x, s_);
		return 0;
	}
	if (st.violations) {
		out->verdict = IL_FAIL;
		if (st.timed_out)
			snprintf(out->evidence, sizeof(out->evidence),
				 "%zu of %zu waits never got the lock within "
				 "the run's time bound: blocking is unbounded",
				 st.timed_out, n);
		else if (st.worst_lower_ns > in->noise_ns)
			snprintf(
				out->evidence, sizeof(out->evidence),
				"%zu of %zu waits exceeded %s + %s noise by up "
				"to %s; a lower-priority thread ran up to %s "
				"while the lock was awaited",
				st.violations, n, b, e, x, w);
		else
			snprintf(
				out->evidence, sizeof(out->evidence),
				"%zu of %zu waits exceeded %s + %s noise by up "
				"to %s beyond measured foreign time",
				st.violations, n, b, e, x);
		return 0;
	}
	if (il_noise_swamps(in->bound_ns, in->noise_ns)) {
		il_format_duration(x, sizeof(x), worst);
		out->verdict = IL_UNDECIDED;
		snprintf(out->evidence, sizeof(out->evidence),
			 "noise allowance %s swamps the bound %s (more than "
			 "%u %% of it): the check cannot discriminate; %zu "
			 "waits, worst %s, no violation",
			 e, b, IL_NOISE_MAX_PERCENT, n, x);
		return 0;
	}
	if (st.clean < in->min_samples) {
		out->verdict = IL_UNDECIDED;
		if (st.noisy)
			snprintf(out->evidence, sizeof(out->evidence),
				 "no violation, but only %zu of %zu waits were "
				 "within %s + %s outright (need %zu); %zu "
				 "exceeded it only by foreign time (steal, "
				 "interrupts; up to %s)",
				 st.clean, n, b, e, in->min_samples, st.noisy,
				 f);
		else
			snprintf(out->evidence, sizeof(out->evidence),
				 "only %zu waits measured (need %zu)", n,
				 in->min_samples);
		return 0;
	}
	out->verdict = IL_PASS;
	il_format_duration(x, sizeof(x), worst);
	if (st.outliers) {
		char o[24];

		il_format_duration(o, sizeof(o), in->outlier_ns);
		snprintf(out->evidence, sizeof(out->evidence),
			 "%zu waits within %s + %s noise; %zu went over by no "
			 "more than the calibration's rare outliers (%s, at "
			 "most %zu allowed) and %zu only by foreign time: set "
			 "aside",
			 n - st.noisy, b, e, st.outliers, o, n / 100 + 1,
			 st.noisy - st.outliers);
	} else if (st.noisy)
		snprintf(out->evidence, sizeof(out->evidence),
			 "%zu waits, worst %s <= %s + %s noise; %zu went over "
			 "only by foreign time (steal, interrupts; up to %s) "
			 "and were set aside",
			 n, x, b, e, st.noisy, f);
	else
		snprintf(out->evidence, sizeof(out->evidence),
			 "%zu waits, worst %s <= %s + %s noise", n, x, b, e);
	return 0;
}

int il_check_blocking(const struct il_bound_input *in,
		      const struct il_wait_sample *s, size_t n,
		      struct il_check *out)
{
	return il_check_none(out, check_blocking_(in, s, n, out),
			     "blocking check");
}
