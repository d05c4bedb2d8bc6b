// SPDX-License-Identifier: MIT
/*
 * The order of events decides (order.h): a PI, ceiling or chain check
 * judged on what the scheduler's trace shows of every wait, with the
 * durations reported beside it.  A protocol that held shows no task
 * ranked below the waiter running where a holder waited to run, however
 * long the host or higher-priority work stretched the wait; an inversion
 * shows such a task running, however short the wait.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <invlab/order.h>
#include <invlab/strbuf.h>
#include <invlab/time.h>
#include <invlab/validate.h>

#include "check-none.h"

static uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

double il_order_binom_tail(size_t n, size_t k, double p)
{
	double sum = 0;

	if (!k)
		return 1;
	if (k > n)
		return 0;
	/* term by term, in logs: n is a run's waits, a few thousand */
	for (size_t j = k; j <= n; j++)
		sum += exp(lgamma((double)n + 1) - lgamma((double)j + 1) -
			   lgamma((double)(n - j) + 1) + (double)j * log(p) +
			   (double)(n - j) * log1p(-p));
	return sum < 1 ? sum : 1;
}

static int check_order_(const struct il_order_input *in,
			const struct il_wait_sample *s, size_t n,
			struct il_check *out)
{
	char b[24], e[24], t[24], x[24], w[24], o[24], h[24], xo[24];
	size_t inverted = 0, over = 0, untraced = 0, rare = 0;
	size_t big = 0, big_host = 0; /* windows of a section's size */
	size_t whole = 0; /* and, in waits within the bound, of the bound's */
	uint64_t whole_kern = 0, whole_inv = 0, whole_delay = 0;
	uint64_t worst_inv = 0, worst = 0, worst_over = 0, over_steal = 0;
	uint64_t big_kern = 0, big_unseen = 0, big_inv = 0, big_delay = 0;
	uint64_t worst_out = 0; /* the longest wait past the tolerance */
	uint64_t yard;		/* what an inversion of one section costs */
	double chance;

	if (!in || !out || (n && !s))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->bound_name = in->bound_name;
	out->bound_ns = in->bound_ns;
	out->noise_ns = in->noise_ns;
	yard = in->typical_ns && in->typical_ns < in->bound_ns ? in->typical_ns
							       : in->bound_ns;
	for (size_t i = 0; i < n; i++) {
		uint64_t inv, st = in->steal_ns ? in->steal_ns[i] : 0;

		if (!s[i].traced || s[i].timed_out) {
			untraced++;
			continue;
		}
		inv = sub0(s[i].lower_ns, st);
		if (inv > in->tolerance_ns) {
			inverted++;
			if (s[i].delay_ns > worst_out)
				worst_out = s[i].delay_ns;
		}
		/* a rare window counts in a wait past the bound: within
		 * it, the window cost the waiter nothing the bound promises
		 * (a remote boost's IPI on a busy vCPU takes longer than an
		 * idle wakeup's p99, in every wait) */
		if (in->rare_ns && inv > in->rare_ns &&
		    (!in->bound_ns || s[i].delay_ns > in->bound_ns))
			rare++;
		/*
		 * Magnitude: in a wait past the bound, a lower-ranked task
		 * ran longer than a (typical) section while a holder waited.
		 * Of that window, the host can have taken at most the larger
		 * of the steal measured and the time the CPU made no record
		 * of its own (unseen_ns): past that, the CPU ran and ticked
		 * and the kernel chose the lower task, and one such wait is
		 * an inversion whatever the count rule says.  No more than
		 * that: the host may have made it, undecided.
		 */
		if (in->bound_ns && s[i].lower_ns > yard &&
		    s[i].delay_ns > in->bound_ns) {
			uint64_t host =
				s[i].unseen_ns > st ? s[i].unseen_ns : st;
			uint64_t kern = sub0(s[i].lower_ns, host);

			if (kern > yard) {
				big++;
				if (kern > big_kern) {
					big_kern = kern;
					big_inv = s[i].lower_ns;
					big_delay = s[i].delay_ns;
				}
			} else {
				big_host++;
				if (host > big_unseen)
					big_unseen = host;
			}
		} else if (in->bound_ns && s[i].lower_ns > in->bound_ns) {
			/*
			 * And in a wait within the bound: a lower-ranked
			 * task that the kernel chose for longer than the
			 * whole bound while a holder waited (summed over the
			 * CPUs: each one an inversion there) broke the
			 * protocol; the wait kept within the bound by luck
			 * (a generous longest section).  A late boost did
			 * so on pi-chain: 44.2 ms of it in a wait of at most
			 * 26.6 ms against 29.8 ms, read PASS.
			 */
			uint64_t host =
				s[i].unseen_ns > st ? s[i].unseen_ns : st;
			uint64_t kern = sub0(s[i].lower_ns, host);

			if (kern > in->bound_ns) {
				whole++;
				if (kern > whole_kern) {
					whole_kern = kern;
					whole_inv = s[i].lower_ns;
					whole_delay = s[i].delay_ns;
				}
			}
		}
		if (inv > worst_inv)
			worst_inv = inv;
		if (s[i].delay_ns > worst)
			worst = s[i].delay_ns;
		if (s[i].delay_ns > in->bound_ns + in->noise_ns) {
			over++;
			if (s[i].foreign_ns > worst_over)
				worst_over = s[i].foreign_ns;
			if (st > over_steal)
				over_steal = st;
		}
	}
	out->worst_ns = worst;
	il_format_duration(b, sizeof(b), in->bound_ns);
	il_format_duration(e, sizeof(e), in->noise_ns);
	il_format_duration(t, sizeof(t), in->tolerance_ns);
	il_format_duration(x, sizeof(x), worst_inv);
	il_format_duration(w, sizeof(w), worst);
	il_format_duration(o, sizeof(o), worst_over);
	il_format_duration(h, sizeof(h), over_steal);
	il_format_duration(xo, sizeof(xo), worst_out);
	if (untraced) {
		/* the trace decides only what it saw whole */
		snprintf(out->evidence, sizeof(out->evidence),
			 "the trace does not cover %zu of %zu waits", untraced,
			 n);
		return 0;
	}
	if (n < in->min_samples) {
		snprintf(out->evidence, sizeof(out->evidence),
			 "only %zu traced waits (need %zu)", n,
			 in->min_samples);
		return 0;
	}
	out->by_trace = 1;
	/* the chance of that many windows past the tolerance by the host */
	chance = il_order_binom_tail(n, inverted, IL_ORDER_OUTLIER_P);
	if (chance < IL_ORDER_ALPHA) { /* 1 for none */
		out->verdict = IL_FAIL;
		snprintf(out->evidence, sizeof(out->evidence),
			 "trace: in %zu of %zu waits a task below %s ran while "
			 "a holder waited, up to %s past steal (allowed %s): "
			 "inversion; worst wait %s vs %s + %s noise",
			 inverted, n, in->waiter, x, t, w, b, e);
		return 0;
	}
	if (big) {
		char k[24], l[24], d[24], y[24];

		il_format_duration(k, sizeof(k), big_kern);
		il_format_duration(l, sizeof(l), big_inv);
		il_format_duration(d, sizeof(d), big_delay);
		il_format_duration(y, sizeof(y), yard);
		out->verdict = IL_FAIL;
		snprintf(out->evidence, sizeof(out->evidence),
			 "trace: in %zu of %zu waits past the bound %s a task "
			 "below %s ran longer than a section (%s) while a "
			 "holder waited, on a CPU that recorded its ticks: the "
			 "worst %s of %s in a wait of %s, past the host's "
			 "steal and unrecorded time: inversion",
			 big, n, b, in->waiter, y, k, l, d);
		return 0;
	}
	if (whole) {
		char k[24], l[24], d[24];

		il_format_duration(k, sizeof(k), whole_kern);
		il_format_duration(l, sizeof(l), whole_inv);
		il_format_duration(d, sizeof(d), whole_delay);
		out->verdict = IL_FAIL;
		snprintf(
			out->evidence, sizeof(out->evidence),
			"trace: in %zu of %zu waits a task below %s ran "
			"longer than the whole bound %s while a holder waited, "
			"on CPUs that recorded their ticks: the worst %s of %s "
			"in a wait of %s, past the host's steal and "
			"unrecorded time: inversion, though the wait kept "
			"within the bound",
			whole, n, in->waiter, b, k, l, d);
		return 0;
	}
	if (in->rare_ns &&
	    il_order_binom_tail(n, rare, IL_ORDER_RARE_P) < IL_ORDER_ALPHA) {
		char r[24];

		il_format_duration(r, sizeof(r), in->rare_ns);
		out->verdict = IL_FAIL;
		snprintf(out->evidence, sizeof(out->evidence),
			 "trace: in %zu of %zu waits a task below %s ran more "
			 "than %s (the calibration's p99) while a holder "
			 "waited, up to %s past steal: a window the host makes "
			 "in one wait of 20 at most cannot come %zu times "
			 "(chance under %.0e): inversion; worst wait %s vs %s "
			 "+ %s noise",
			 rare, n, in->waiter, r, x, rare, IL_ORDER_ALPHA, w, b,
			 e);
		return 0;
	}
	if (big_host) {
		char u[24], y[24];

		/* a window the host could have made: never a PASS; the
		 * durations judge, and a FAIL of theirs stands (the trace
		 * shows the window) */
		il_format_duration(u, sizeof(u), big_unseen);
		il_format_duration(y, sizeof(y), yard);
		out->by_trace = 0;
		out->trace_rare = IL_ORDER_NO_PASS;
		snprintf(out->evidence, sizeof(out->evidence),
			 "in %zu of %zu waits past the bound %s a task below "
			 "%s ran longer than a section (%s) while a holder "
			 "waited, up to %s, but its CPU recorded nothing, or "
			 "the host stole, for up to %s of it: not shown to be "
			 "the kernel's, nor the host's",
			 big_host, n, b, in->waiter, y, x, u);
		return 0;
	}
	if (inverted && (!in->bound_ns || worst_out > in->bound_ns)) {
		/* past the tolerance, but no more often than the host
		 * stretches a wakeup that far, and in a wait past the bound:
		 * the trace cannot decide whose the excess was */
		out->by_trace = 0;
		out->trace_rare = 1;
		snprintf(out->evidence, sizeof(out->evidence),
			 "in %zu of %zu waits a task below %s ran while a "
			 "holder waited, up to %s past steal (allowed %s): no "
			 "more often than the host stretches a wakeup past the "
			 "calibration's p999 (chance %.1e), too few to call an "
			 "inversion",
			 inverted, n, in->waiter, x, t, chance);
		return 0;
	}
	if (!in->bound_ns || il_noise_swamps(yard, worst_inv)) {
		/* what the tolerance forgave must be too small to be an
		 * inversion of the bound's size: a wide tolerance (a slow
		 * calibration) is no reason to doubt waits that used
		 * little of it, only one that was used */
		char y[24], ys[112];

		il_format_duration(y, sizeof(y), yard);
		if (yard == in->bound_ns)
			snprintf(ys, sizeof(ys), "the bound %s", b);
		else
			snprintf(ys, sizeof(ys),
				 "the bound %s over the median sections (%s "
				 "over the longest)",
				 y, b);
		out->by_trace = 0;
		/*
		 * Nor can the durations show an excess to be the kernel's:
		 * the trace saw every wait whole, no window past what the
		 * host alone does to a wakeup and, with the p99 rule, none
		 * past the p99 more often than the host makes them.  A
		 * duration FAIL is then UNDECIDED (il_order_durations):
		 * pi-chain's inherit failed a README run so, 2 of 12 waits
		 * over, a window of 11.7 ms under a tolerance of 23.2 ms.
		 */
		out->trace_rare = in->rare_ns != 0;
		snprintf(out->evidence, sizeof(out->evidence),
			 "in %zu waits a task below %s ran up to %s while a "
			 "holder waited: within the trace's tolerance %s (the "
			 "calibration's slowest wakeup), but more than half "
			 "%s, so an inversion could hide in it",
			 n, in->waiter, x, t, ys);
		return 0;
	}
	out->verdict = IL_PASS;
	if (inverted)
		/*
		 * A few windows past the tolerance, as often as the host
		 * stretches a wakeup, each in a wait that stayed within the
		 * bound itself: whatever ran in them cost the waiter no
		 * bound, and every other wait is clean on the trace.
		 */
		snprintf(out->evidence, sizeof(out->evidence),
			 "trace: %zu waits; in %zu a task below %s ran while a "
			 "holder waited, up to %s past steal (allowed %s), no "
			 "more often than the host stretches a wakeup past the "
			 "calibration's p999 (chance %.1e), and none of those "
			 "waits passed the bound %s (the longest %s); the "
			 "others clean; worst wait %s",
			 n, inverted, in->waiter, x, t, chance, b, xo, w);
	else if (over)
		snprintf(out->evidence, sizeof(out->evidence),
			 "trace: %zu waits, none with a task below %s running "
			 "while a holder waited (worst %s, allowed %s); %zu "
			 "waits over %s + %s noise (worst %s): up to %s went "
			 "to higher-priority and foreign tasks, up to %s was "
			 "stolen: interference, not inversion",
			 n, in->waiter, x, t, over, b, e, w, o, h);
	else
		snprintf(out->evidence, sizeof(out->evidence),
			 "trace: %zu waits, none with a task below %s running "
			 "while a holder waited (worst %s, allowed %s); worst "
			 "wait %s <= %s + %s noise",
			 n, in->waiter, x, t, w, b, e);
	return 0;
}

/* c becomes UNDECIDED, its evidence kept after why */
static void undecided_because(struct il_check *c, const char *why)
{
	char was[sizeof(c->evidence)];

	snprintf(was, sizeof(was), "%s", c->evidence);
	c->verdict = IL_UNDECIDED;
	il_setf(c->evidence, sizeof(c->evidence), "%s: %s", why, was);
}

void il_order_durations(struct il_check *dur, int trace_rare,
			const char *why_not)
{
	if (trace_rare == IL_ORDER_NO_PASS && dur->verdict == IL_PASS) {
		undecided_because(dur, "durations within the bound, but the "
				       "trace shows a window longer than a "
				       "section that only the host's part of "
				       "it keeps from being the kernel's: no "
				       "PASS");
	} else if (trace_rare == IL_ORDER_NO_PASS && dur->verdict == IL_FAIL) {
		undecided_because(dur,
				  "durations over the bound, and the "
				  "trace's windows past a section the "
				  "host's part could explain: not shown to "
				  "be the kernel's");
	} else if (trace_rare == 1 && dur->verdict == IL_FAIL) {
		/*
		 * The durations alone call it an inversion, but the trace
		 * saw every wait and a task below the waiter ran where a
		 * holder waited no more often than the host stretches a
		 * wakeup: the excess is not shown to be the kernel's.
		 */
		undecided_because(dur, "durations over the bound, not shown "
				       "to be the kernel's");
	}
	if (why_not && why_not[0])
		il_appendf(dur->evidence, sizeof(dur->evidence),
			   "; judged on durations: %s", why_not);
}

void il_order_set_aside(struct il_check *c, size_t set_aside, size_t judged,
			const char *what)
{
	if (!set_aside)
		return;
	if (c->verdict == IL_PASS && set_aside > judged) {
		char why[256];

		snprintf(why, sizeof(why),
			 "%zu of %zu rounds set aside (%s), the majority: too "
			 "few judged to PASS; of the %zu judged",
			 set_aside, set_aside + judged, what, judged);
		undecided_because(c, why);
		return;
	}
	il_appendf(c->evidence, sizeof(c->evidence),
		   "; %zu of %zu rounds set aside (%s), not judged", set_aside,
		   set_aside + judged, what);
}

int il_check_order(const struct il_order_input *in,
		   const struct il_wait_sample *s, size_t n,
		   struct il_check *out)
{
	return il_check_none(out, check_order_(in, s, n, out), "order check");
}

bool il_order_pattern(size_t n, size_t k)
{
	/* k == 0: the tail is 1, never a pattern */
	return il_order_binom_tail(n, k, IL_ORDER_OUTLIER_P) < IL_ORDER_ALPHA;
}
