// SPDX-License-Identifier: MIT
/*
 * The affinity check (affinity.h) on synthetic traces: a task (pid 400)
 * pinned to CPU 0, moved to CPU 1 as a proxy-execution donor while it
 * waits.  Sent back before it runs each time, it passes; run on CPU 1,
 * it fails, naming the CPU and how long after the move; and each count
 * at its boundary.
 */
#include <errno.h>
#include <string.h>

#include <invlab/affinity.h>
#include <invlab/time.h>

#include "t_util.h"

#define MS  IL_NSEC_PER_MSEC
#define US  IL_NSEC_PER_USEC
#define T0  (1000 * MS)
#define PID 400

static struct il_trace tr;

static void reset(void)
{
	il_trace_free(&tr);
	memset(&tr, 0, sizeof(tr));
	tr.t0_ns = T0;
	tr.t1_ns = T0 + 1000 * MS;
}

static void add(uint64_t ts, int kind, int cpu, int prev, int next)
{
	struct il_trace_rec r = {
		.ts = ts,
		.kind = (uint8_t)kind,
		.cpu = (uint16_t)cpu,
		.prev_pid = prev,
		.next_pid = next,
	};

	t_check_int(il_trace_add(&tr, &r), 0);
}

/* switched in on cpu */
static void runs(uint64_t ts, int cpu)
{
	add(ts, IL_TR_SWITCH, cpu, 0, PID);
}

/* moved from one CPU to another (migrate: orig in next_pid) */
static void moved(uint64_t ts, int from, int to)
{
	add(ts, IL_TR_MIGRATE, to, PID, from);
}

/* wait k: runs on 0, moved to 1, back to 0 (when back), runs at +2ms */
static void wait_round(int k, bool back)
{
	uint64_t b = T0 + (uint64_t)k * 10 * MS;

	runs(b, 0);
	moved(b + 500 * US, 0, 1);
	if (back)
		moved(b + 1900 * US, 1, 0);
	runs(b + 2 * MS, back ? 0 : 1);
}

static enum il_verdict judge(struct il_affinity *a, struct il_check *c)
{
	il_trace_sort(&tr);
	il_affinity_tally(&tr, PID, 0, T0, a);
	if (il_check_affinity(a, "fg", c))
		return (enum il_verdict) - 1;
	return c->verdict;
}

static void test_returned(void)
{
	struct il_affinity a;
	struct il_check c;

	reset();
	for (int k = 0; k < 5; k++)
		wait_round(k, true);
	t_check_int(judge(&a, &c), IL_PASS);
	t_check_int(a.runs, 10);
	t_check_int(a.away, 5);
	t_check_int(a.returned, 5);
	t_check_int(a.outside, 0);
	t_check_int(c.by_trace, 1);
	t_check_contains(c.evidence, "moved off its CPU 0 5 times");
	t_check_contains(c.evidence, "on no other CPU in 10 runs");
	/* moved, not yet seen running again: no evidence either way */
	reset();
	runs(T0, 0);
	moved(T0 + MS, 0, 1);
	t_check_int(judge(&a, &c), IL_UNDECIDED);
	t_check_contains(c.evidence, "after only 0 of 1 moves off it "
				     "(need 1): where it ran meanwhile");
	/* one seen back is */
	runs(T0 + 2 * MS, 0);
	t_check_int(judge(&a, &c), IL_PASS);
	t_check_int(a.returned, 1);
	/* a move not yet followed by a run: not counted back */
	moved(T0 + 900 * MS, 0, 1);
	t_check_int(judge(&a, &c), IL_PASS);
	t_check_int(a.away, 2);
	t_check_int(a.returned, 1);
	/* two moves before it runs are one move away */
	reset();
	for (int k = 0; k < 5; k++)
		wait_round(k, true);
	moved(T0 + 600 * US, 1, 1);
	moved(T0 + 700 * US, 1, 1);
	t_check_int(judge(&a, &c), IL_PASS);
	t_check_int(a.away, 5);
	/* never moved, only on its CPU: nothing to judge */
	reset();
	runs(T0 + MS, 0);
	runs(T0 + 2 * MS, 0);
	t_check_int(judge(&a, &c), IL_NONE);
	t_check_int(a.runs, 2);
}

static void test_outside(void)
{
	struct il_affinity a;
	struct il_check c;

	/* not sent back: it runs where its owner is */
	reset();
	for (int k = 0; k < 6; k++)
		wait_round(k, k != 3);
	t_check_int(judge(&a, &c), IL_FAIL);
	t_check_int(a.outside, 1);
	t_check_int(a.outside_cpu, 1);
	t_check_int(a.outside_at_ns, T0 + 32 * MS);
	t_check_int(a.outside_late_ns, 1500 * US);
	t_check_int(a.returned, 5);
	t_check_int(c.worst_ns, 1500 * US);
	t_check_contains(c.evidence, "fg, pinned to CPU 0, ran on CPU 1 "
				     "1.50ms after a migration took it off");
	t_check_contains(c.evidence, "1 of its 12 runs were off it: the "
				     "kernel ran it outside its affinity");
	/* on another CPU with no move seen: outside its affinity all the
	 * same */
	reset();
	runs(T0 + MS, 0);
	runs(T0 + 2 * MS, 1);
	t_check_int(judge(&a, &c), IL_FAIL);
	t_check_int(a.outside_late_ns, 0);
	t_check_int(a.away, 0);
	t_check_contains(c.evidence, "the kernel ran it outside its "
				     "affinity");
	/* the first one is named, each counted */
	runs(T0 + 3 * MS, 1);
	t_check_int(judge(&a, &c), IL_FAIL);
	t_check_int(a.outside, 2);
	t_check_int(a.outside_at_ns, T0 + 2 * MS);
}

static void test_window(void)
{
	struct il_affinity a;
	struct il_check c;

	/* before the run's start (it was pinned then): not counted */
	reset();
	runs(T0 - 1, 1);
	runs(T0, 0);
	t_check_int(judge(&a, &c), IL_NONE);
	t_check_int(a.runs, 1);
	/* at the start's instant: counted */
	reset();
	runs(T0, 1);
	t_check_int(judge(&a, &c), IL_FAIL);
	/* other tasks, switches away and other kinds tell nothing */
	reset();
	add(T0 + MS, IL_TR_SWITCH, 1, PID, 0);
	add(T0 + MS, IL_TR_SWITCH, 1, 0, PID + 1);
	add(T0 + MS, IL_TR_WAKEUP, 1, PID, 0);
	add(T0 + MS, IL_TR_RUNTIME, 1, PID + 1, PID);
	add(T0 + MS, IL_TR_MIGRATE, 1, PID + 1, 0);
	add(T0 + MS, IL_TR_PI_SETPRIO, 1, PID, 0);
	t_check_int(judge(&a, &c), IL_NONE);
	t_check_int(a.runs, 0);
	t_check_int(a.away, 0);
	/* a move from its CPU to its CPU is no move away */
	moved(T0 + 2 * MS, 0, 0);
	t_check_int(judge(&a, &c), IL_NONE);
	t_check_int(a.away, 0);
	/* but one back to it from another is (the way there untraced) */
	reset();
	for (int k = 0; k < 5; k++) {
		uint64_t b = T0 + (uint64_t)k * 10 * MS;

		runs(b, 0);
		moved(b + 1900 * US, 1, 0);
		runs(b + 2 * MS, 0);
	}
	t_check_int(judge(&a, &c), IL_PASS);
	t_check_int(a.away, 5);
	t_check_int(a.returned, 5);
	/* and, seen both ways, one move */
	reset();
	wait_round(0, true);
	t_check_int(judge(&a, &c), IL_PASS);
	t_check_int(a.away, 1);
	t_check_int(a.returned, 1);
}

static void test_edges(void)
{
	struct il_affinity a;
	struct il_check c;

	reset();
	runs(T0 + MS, 1);
	il_affinity_tally(NULL, PID, 0, T0, &a);
	t_check_int(a.traced, 0);
	t_check_int(il_check_affinity(&a, "fg", &c), 0);
	t_check_int(c.verdict, IL_NONE);
	il_affinity_tally(&tr, 0, 0, T0, &a);
	t_check_int(a.traced, 0);
	il_affinity_tally(&tr, PID, -1, T0, &a);
	t_check_int(a.traced, 0);
	il_affinity_tally(&tr, PID, 0, T0, &a);
	t_check_int(a.traced, 1);
	t_check_int(a.cpu, 0);
	t_check_int(il_check_affinity(NULL, "fg", &c), -EINVAL);
	t_check_int(il_check_affinity(&a, NULL, &c), -EINVAL);
	t_check_int(il_check_affinity(&a, "fg", NULL), -EINVAL);
	/* a ledger read back: judged the same without the trace */
	memset(&a, 0, sizeof(a));
	a.traced = 1;
	a.away = 7;
	a.returned = 7;
	a.runs = 20;
	t_check_int(il_check_affinity(&a, "fg", &c), 0);
	t_check_int(c.verdict, IL_PASS);
	a.returned = 0;
	t_check_int(il_check_affinity(&a, "fg", &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
	a.outside = 1;
	t_check_int(il_check_affinity(&a, "fg", &c), 0);
	t_check_int(c.verdict, IL_FAIL);
	il_trace_free(&tr);
}

int main(void)
{
	test_returned();
	test_outside();
	test_window();
	test_edges();
	return t_done("affinity");
}
