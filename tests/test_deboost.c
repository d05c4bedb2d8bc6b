// SPDX-License-Identifier: MIT
/*
 * The deboost check (deboost.h) on synthetic traces: a holder (pid 300,
 * SCHED_FIFO 10, kernel priority 89) raised to FIFO 30 (69) in each of
 * its sections.  Given back at each unlock, the check passes; kept, it
 * fails, naming what the holder ran at and how long after the unlock;
 * and each rule that keeps it from failing (a priority change since the
 * unlock, lost events, a gap the trace does not hold) at its boundary.
 */
#include <errno.h>
#include <string.h>

#include <invlab/deboost.h>
#include <invlab/time.h>

#include "t_util.h"

#define MS   IL_NSEC_PER_MSEC
#define US   IL_NSEC_PER_USEC
#define T0   (1000 * MS)
#define PID  300
#define OWN  89
#define HIGH 69
#define MAXS 16

static struct il_trace tr;
static uint64_t from[MAXS], to[MAXS];
static size_t ns;

static void reset(void)
{
	il_trace_free(&tr);
	memset(&tr, 0, sizeof(tr));
	tr.t0_ns = T0;
	tr.t1_ns = T0 + 1000 * MS;
	ns = 0;
}

static void add(uint64_t ts, int kind, int prev, int next, int pp, int np)
{
	struct il_trace_rec r = {
		.ts = ts,
		.kind = (uint8_t)kind,
		.cpu = 1,
		.prev_pid = prev,
		.next_pid = next,
		.prev_prio = (int16_t)pp,
		.next_prio = (int16_t)np,
	};

	t_check_int(il_trace_add(&tr, &r), 0);
}

static void setprio(uint64_t ts, int oldp, int newp)
{
	add(ts, IL_TR_PI_SETPRIO, PID, 0, oldp, newp);
}

/* the holder switched out (to idle) at prio p */
static void out_at(uint64_t ts, int p)
{
	add(ts, IL_TR_SWITCH, PID, 0, p, 120);
}

/* and in (from idle) */
static void in_at(uint64_t ts, int p)
{
	add(ts, IL_TR_SWITCH, 0, PID, 120, p);
}

/*
 * Section s, 10 ms apart: requested at +0, raised at +0.5 ms, preempted
 * raised at +1 ms and back at +1.1 ms, unlocked at +2 ms (deboosted at
 * +1.99 ms when deboost), asleep at +2.1 ms at what it then had.
 */
static void section(int s, bool deboost)
{
	uint64_t b = T0 + (uint64_t)s * 10 * MS;

	in_at(b - 10 * US, deboost || !s ? OWN : HIGH);
	from[ns] = b;
	if (deboost || !s)
		setprio(b + 500 * US, OWN, HIGH);
	out_at(b + MS, HIGH);
	in_at(b + 1100 * US, HIGH);
	if (deboost)
		setprio(b + 1990 * US, HIGH, OWN);
	to[ns++] = b + 2 * MS;
	out_at(b + 2100 * US, deboost ? OWN : HIGH);
}

static void tally(struct il_deboost *d)
{
	il_trace_sort(&tr);
	il_deboost_tally(&tr, PID, OWN, from, to, ns, d);
}

static enum il_verdict judge(struct il_check *c)
{
	struct il_deboost d;

	tally(&d);
	if (il_check_deboost(&d, "low", c))
		return (enum il_verdict) - 1;
	return c->verdict;
}

static void test_healthy(void)
{
	struct il_deboost d;
	struct il_check c;

	reset();
	for (int s = 0; s < 5; s++)
		section(s, true);
	tally(&d);
	t_check_int((int)d.gaps, 5);
	t_check_int((int)d.after_boost, 5);
	t_check_int((int)d.missed, 0);
	t_check_int(d.own_prio, OWN);
	t_check_int(judge(&c), IL_PASS);
	t_check_int(c.by_trace, 1);
	t_check_contains(c.evidence, "in each of the 5 gaps");
	t_check_contains(c.evidence, "low back at its own FIFO 10");
	/* one gap fewer after a raise: not yet evidence */
	reset();
	for (int s = 0; s < 4; s++)
		section(s, true);
	t_check_int(judge(&c), IL_UNDECIDED);
	t_check_contains(c.evidence, "only 4 came after a section");
	t_check_contains(c.evidence, "(need 5)");
}

static void test_missed(void)
{
	struct il_deboost d;
	struct il_check c;

	/* raised once, never lowered: asleep at FIFO 30 after each unlock */
	reset();
	for (int s = 0; s < 3; s++)
		section(s, false);
	tally(&d);
	t_check_int((int)d.gaps, 3);
	t_check_int((int)d.missed, 3);
	t_check_int(d.missed_prio, HIGH);
	t_check_int(d.missed_at_ns, T0 + 2100 * US);
	t_check_int(d.missed_late_ns, 100 * US);
	t_check_int(judge(&c), IL_FAIL);
	t_check_int(c.by_trace, 1);
	t_check_int(c.worst_ns, 100 * US);
	t_check_contains(c.evidence, "low ran above its own FIFO 10 in 3 "
				     "of 3 gaps");
	t_check_contains(c.evidence, "first at FIFO 30 100us after");
	/* one missed gap among healthy ones is enough */
	reset();
	for (int s = 0; s < 8; s++)
		section(s, s != 6);
	t_check_int(judge(&c), IL_FAIL);
	t_check_contains(c.evidence, "in 1 of 8 gaps");
	/* the trace lost events: a raise of its own may be among them */
	tr.lost = 2;
	t_check_int(judge(&c), IL_UNDECIDED);
	t_check_contains(c.evidence, "lost 2 events");
	tr.lost = 0;
}

/* what keeps a gap from counting as missed, each at its boundary */
static void test_not_missed(void)
{
	struct il_deboost d;

	/* a priority change first: the kernel raised it afresh (or the
	 * deboost came a little late on the user-space clock) */
	reset();
	section(0, false);
	section(1, false);
	/* before section 1's first switch: a setprio in gap 0, which
	 * raised it: that gap decides nothing, neither missed nor seen */
	setprio(T0 + 2050 * US, HIGH, HIGH);
	tally(&d);
	t_check_int((int)d.gaps, 1);
	t_check_int((int)d.missed, 1);
	t_check_int(d.missed_at_ns, T0 + 12100 * US);
	/* one to its own priority (the deboost, late on our clock) is a
	 * deboost seen; one to just above it is not */
	reset();
	section(0, false);
	setprio(T0 + 2050 * US, HIGH, OWN);
	tally(&d);
	t_check_int((int)d.gaps, 1);
	t_check_int((int)d.missed, 0);
	reset();
	section(0, false);
	setprio(T0 + 2050 * US, HIGH, OWN - 1);
	tally(&d);
	t_check_int((int)d.gaps, 0);
	t_check_int((int)d.missed, 0);
	/* at its own priority exactly: given back */
	reset();
	section(0, true);
	tr.rec[tr.n - 1].prev_prio = OWN;
	tally(&d);
	t_check_int((int)d.missed, 0);
	tr.rec[tr.n - 1].prev_prio = OWN - 1;
	tally(&d);
	t_check_int((int)d.missed, 1);
	/* a record at the unlock's very instant is the section's */
	reset();
	from[0] = T0;
	to[0] = T0 + 2 * MS;
	ns = 1;
	setprio(T0 + 500 * US, OWN, HIGH);
	out_at(T0 + 2 * MS, HIGH);
	out_at(T0 + 2 * MS + 1, OWN);
	tally(&d);
	t_check_int((int)d.gaps, 1);
	t_check_int((int)d.missed, 0);
	/* a gap ends at the next request: a record there is not its */
	reset();
	from[0] = T0;
	to[0] = T0 + 2 * MS;
	from[1] = T0 + 5 * MS;
	to[1] = T0 + 6 * MS;
	ns = 2;
	setprio(T0 + 500 * US, OWN, HIGH);
	out_at(T0 + 5 * MS, HIGH);
	tally(&d);
	t_check_int((int)d.gaps, 0);
	t_check_int((int)d.missed, 0);
	from[1] = T0 + 5 * MS + 1;
	tally(&d);
	t_check_int((int)d.gaps, 1);
	t_check_int((int)d.missed, 1);
	/* the last gap runs to the trace's end */
	reset();
	section(0, false);
	tr.t1_ns = T0 + 2100 * US;
	tally(&d);
	t_check_int((int)d.gaps, 0);
	tr.t1_ns = T0 + 2100 * US + 1;
	tally(&d);
	t_check_int((int)d.gaps, 1);
	/* records of other tasks, and wakeups, tell nothing: not even a
	 * run-time account whose ns read as the pid */
	reset();
	from[0] = T0;
	to[0] = T0 + 2 * MS;
	ns = 1;
	setprio(T0 + 500 * US, OWN, HIGH);
	add(T0 + 3 * MS, IL_TR_SWITCH, PID + 1, PID + 2, HIGH, HIGH);
	add(T0 + 3 * MS, IL_TR_WAKEUP, PID, 0, HIGH, HIGH);
	add(T0 + 3 * MS, IL_TR_RUNTIME, PID + 1, PID, HIGH, HIGH);
	out_at(T0 + 4 * MS, OWN);
	tally(&d);
	t_check_int((int)d.gaps, 1);
	t_check_int((int)d.missed, 0);
	/* nor another task's priority change before a missed deboost */
	reset();
	from[0] = T0;
	to[0] = T0 + 2 * MS;
	ns = 1;
	setprio(T0 + 500 * US, OWN, HIGH);
	add(T0 + 3 * MS, IL_TR_PI_SETPRIO, PID + 1, 0, OWN, HIGH);
	out_at(T0 + 4 * MS, HIGH);
	tally(&d);
	t_check_int((int)d.missed, 1);
	/* the switch that brings it back in decides as well */
	reset();
	from[0] = T0;
	to[0] = T0 + 2 * MS;
	ns = 1;
	setprio(T0 + 500 * US, OWN, HIGH);
	in_at(T0 + 4 * MS, HIGH);
	tally(&d);
	t_check_int((int)d.missed, 1);
	t_check_int(d.missed_at_ns, T0 + 4 * MS);
	/* an unlock at its request's instant is a section all the same */
	reset();
	from[0] = to[0] = T0 + MS;
	ns = 1;
	out_at(T0 + 3 * MS, HIGH);
	tally(&d);
	t_check_int((int)d.gaps, 1);
	t_check_int((int)d.missed, 1);
}

/* which gaps the trace holds, and which sections were raised */
static void test_coverage(void)
{
	struct il_deboost d;
	struct il_check c;

	/* a section begun before the trace: not judged */
	reset();
	section(0, false);
	tr.t0_ns = T0 + 1;
	tally(&d);
	t_check_int((int)d.gaps, 0);
	tr.t0_ns = T0;
	tally(&d);
	t_check_int((int)d.gaps, 1);
	/* an unlock at or after the trace's end: not judged, even with
	 * records past it */
	tr.t1_ns = T0 + 2 * MS;
	tally(&d);
	t_check_int((int)d.gaps, 0);
	from[ns] = T0 + 50 * MS;
	to[ns++] = T0 + 51 * MS;
	tally(&d);
	t_check_int((int)d.gaps, 0);
	/* a section that ends before it begins: not judged */
	reset();
	section(0, false);
	to[0] = from[0] - 1;
	tally(&d);
	t_check_int((int)d.gaps, 0);
	/* a wakeup says nothing of a raise */
	reset();
	from[0] = T0;
	to[0] = T0 + 2 * MS;
	ns = 1;
	add(T0 + MS, IL_TR_WAKEUP, PID, 0, HIGH, HIGH);
	out_at(T0 + 3 * MS, OWN);
	tally(&d);
	t_check_int((int)d.after_boost, 0);
	/* raised only at its own priority: not raised; never raised and
	 * nothing missed: nothing to judge */
	reset();
	from[0] = T0;
	to[0] = T0 + 2 * MS;
	ns = 1;
	out_at(T0 + MS, OWN);
	out_at(T0 + 3 * MS, OWN);
	tally(&d);
	t_check_int((int)d.gaps, 1);
	t_check_int((int)d.after_boost, 0);
	t_check_int(judge(&c), IL_NONE);
	tr.rec[0].prev_prio = OWN - 1;
	tally(&d);
	t_check_int((int)d.after_boost, 1);
	t_check_int(judge(&c), IL_UNDECIDED);
	/* raised at the request's instant counts, before it does not */
	reset();
	from[0] = T0 + MS;
	to[0] = T0 + 2 * MS;
	ns = 1;
	setprio(T0 + MS, OWN, HIGH);
	out_at(T0 + 3 * MS, OWN);
	tally(&d);
	t_check_int((int)d.after_boost, 1);
	from[0] = T0 + MS + 1;
	tally(&d);
	t_check_int((int)d.after_boost, 0);
	/* a fair holder raised to real time, a deadline one never */
	reset();
	from[0] = T0;
	to[0] = T0 + 2 * MS;
	ns = 1;
	setprio(T0 + 500 * US, 120, HIGH);
	out_at(T0 + 3 * MS, HIGH);
	il_trace_sort(&tr);
	il_deboost_tally(&tr, PID, 120, from, to, ns, &d);
	t_check_int((int)d.missed, 1);
	t_check_int(il_check_deboost(&d, "fair", &c), 0);
	t_check_int(c.verdict, IL_FAIL);
	t_check_contains(c.evidence, "above its own nice 0");
	il_deboost_tally(&tr, PID, -1, from, to, ns, &d);
	t_check_int((int)d.missed, 0);
	t_check_int((int)d.after_boost, 0);
}

static void test_edges(void)
{
	struct il_deboost d;
	struct il_check c;

	reset();
	section(0, false);
	/* no trace, no pid: not filled, nothing to judge */
	il_deboost_tally(NULL, PID, OWN, from, to, ns, &d);
	t_check_int(d.traced, 0);
	t_check_int(il_check_deboost(&d, "low", &c), 0);
	t_check_int(c.verdict, IL_NONE);
	il_deboost_tally(&tr, 0, OWN, from, to, ns, &d);
	t_check_int(d.traced, 0);
	il_deboost_tally(&tr, PID, OWN, NULL, to, ns, &d);
	t_check_int(d.traced, 0);
	/* no sections: traced, nothing to judge */
	il_deboost_tally(&tr, PID, OWN, NULL, NULL, 0, &d);
	t_check_int(d.traced, 1);
	t_check_int(il_check_deboost(&d, "low", &c), 0);
	t_check_int(c.verdict, IL_NONE);
	t_check_int(il_check_deboost(NULL, "low", &c), -EINVAL);
	t_check_int(il_check_deboost(&d, NULL, &c), -EINVAL);
	t_check_int(il_check_deboost(&d, "low", NULL), -EINVAL);
	/* a ledger read back: judged the same without the trace */
	memset(&d, 0, sizeof(d));
	d.traced = 1;
	d.own_prio = OWN;
	d.gaps = 9;
	d.missed = 1;
	d.missed_prio = HIGH;
	d.missed_late_ns = 3 * MS;
	t_check_int(il_check_deboost(&d, "low", &c), 0);
	t_check_int(c.verdict, IL_FAIL);
	t_check_contains(c.evidence, "first at FIFO 30 3.00ms after");
	il_trace_free(&tr);
}

int main(void)
{
	test_healthy();
	test_missed();
	test_not_missed();
	test_coverage();
	test_edges();
	return t_done("deboost");
}
