// SPDX-License-Identifier: MIT
/*
 * The rt-football invariant (football.h) on synthetic traces of two
 * CPUs: two offense tasks (rank 130), two defense tasks (120) and a fan
 * (110).  A game of rounds in which both offense tasks wake, preempt the
 * defense within 10 us and block again passes; the same game with one
 * offense task kept off the CPUs for 1 ms while a defense task runs
 * fails, naming the instant and both tasks.  Then every other outcome
 * and each threshold at and just past its boundary.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/football.h>
#include <invlab/time.h>

#include "t_util.h"

#define MS  IL_NSEC_PER_MSEC
#define US  IL_NSEC_PER_USEC
#define T0  (1000 * MS)
#define TOL (50 * US)

enum { OFF0 = 201, OFF1, DEF0, DEF1, FAN, FOREIGN = 900 };
enum { I_OFF0, I_OFF1, I_DEF0, I_DEF1, I_FAN };

static const struct il_football_task tasks[] = {
	{ "offense0", OFF0, 130, true }, { "offense1", OFF1, 130, true },
	{ "defense0", DEF0, 120, true }, { "defense1", DEF1, 120, true },
	{ "fan0", FAN, 110, true },
};

static struct il_trace tr;

static void sw(uint64_t ts, int cpu, int prev, int next, int runnable)
{
	struct il_trace_rec r = {
		.ts = ts,
		.kind = IL_TR_SWITCH,
		.prev_runnable = (uint8_t)runnable,
		.cpu = (uint16_t)cpu,
		.prev_pid = prev,
		.next_pid = next,
	};

	t_check_int(il_trace_add(&tr, &r), 0);
}

static void wake(uint64_t ts, int cpu, int pid)
{
	struct il_trace_rec r = {
		.ts = ts,
		.kind = IL_TR_WAKEUP,
		.cpu = (uint16_t)cpu,
		.prev_pid = pid,
	};

	t_check_int(il_trace_add(&tr, &r), 0);
}

static void reset(void)
{
	il_trace_free(&tr);
	tr.t0_ns = T0;
}

static struct il_football_input input(void)
{
	struct il_football_input in = {
		.trace = &tr,
		.tasks = tasks,
		.ntasks = 5,
		.ncpus = 2,
		.tolerance_ns = TOL,
		.detect_ns = MS,
		.min_wakeups = 20,
	};

	return in;
}

/*
 * rounds of 10 ms from T0 + 1 ms: both offense tasks wake on their
 * CPUs, preempt the defense 10 us later, run 1 ms and block; in round
 * bad (-1: none) offense1 is woken on CPU 0 behind offense0 and waits
 * there for `late` while defense1 keeps CPU 1.
 */
static int bad_below; /* also every round below it is bad */

static void game(int rounds, int bad, uint64_t late)
{
	reset();
	sw(T0 + 10 * US, 0, 0, DEF0, 0);
	sw(T0 + 20 * US, 1, 0, DEF1, 0);
	for (int k = 0; k < rounds; k++) {
		uint64_t t = T0 + MS + (uint64_t)k * 10 * MS;

		wake(t, 0, OFF0);
		if (k == bad || k < bad_below) {
			sw(t + 10 * US, 0, DEF0, OFF0, 1);
			wake(t + 10 * US, 0, OFF1);
			/* offense0 ends, offense1 takes CPU 0 late */
			sw(t + 10 * US + late, 0, OFF0, OFF1, 0);
			sw(t + 10 * US + late + MS, 0, OFF1, DEF0, 0);
			continue;
		}
		wake(t, 1, OFF1);
		sw(t + 10 * US, 0, DEF0, OFF0, 1);
		sw(t + 10 * US, 1, DEF1, OFF1, 1);
		sw(t + 10 * US + MS, 0, OFF0, DEF0, 0);
		sw(t + 10 * US + MS, 1, OFF1, DEF1, 0);
	}
	tr.t1_ns = T0 + (uint64_t)(rounds + 1) * 10 * MS;
}

static enum il_verdict judge(const struct il_football_input *in,
			     struct il_football_stats *st, struct il_check *c)
{
	t_check_int(il_football_check(in, st, c), 0);
	return c->verdict;
}

/*
 * Waits past T in as many episodes as the host would make with a chance
 * under 1e-6 (0.5 % each): a pattern, decided on the trace.  50 rounds
 * make 100 episodes; a bad round's wait of offense1 is one past T: 6 of
 * 100 have a binomial chance of 1.2e-5, 7 of 100 8.3e-7.
 */
static void test_over_pattern(void)
{
	struct il_football_input in = input();
	struct il_football_stats st;
	struct il_check c;

	bad_below = 6;
	game(50, -1, MS);
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	t_check_int(st.over, 6);
	t_check_int(st.episodes, 100);
	t_check_int(c.by_trace, 0);
	bad_below = 7;
	game(50, -1, MS);
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	t_check_int(st.over, 7);
	t_check_int(c.by_trace, 1);
	t_check_contains(c.evidence, "7 of ");
	t_check_contains(c.evidence, "waited over 50.0us, more often than "
				     "the host explains; worst: ");
	bad_below = 0;
}

static void test_game(void)
{
	struct il_football_input in = input();
	struct il_football_stats st;
	struct il_check c;

	game(30, -1, 0);
	t_check_int(judge(&in, &st, &c), IL_PASS);
	t_check_int(st.wakeups, 60);
	/* each offense task waits its 10 us behind a defense task */
	t_check_int(st.episodes, 60);
	t_check_int(st.deprived_ns, 60 * 10 * US);
	t_check_int(st.over, 0);
	t_check_contains(c.evidence, "the top 2 always ran within 50.0us: 60 "
				     "wakeups, 60 waits of a top task while a "
				     "lower one ran, the longest 10.0us, 600us "
				     "in all");
	t_check_int(st.longest_ns, 10 * US);
	t_check_int(c.worst_ns, 10 * US);

	/* offense1 behind offense0 for 1 ms while defense1 runs; the
	 * round's other wakeup is still served in 10 us */
	game(30, 7, MS);
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	/* one such wait: as often as the host makes one, so durations
	 * decided it (under emulation it is UNDECIDED) */
	t_check_int(c.by_trace, 0);
	t_check(!strstr(c.evidence, "more often than the host"));
	t_check_int(st.over, 1);
	t_check_int(st.worst.task, I_OFF1);
	t_check_int(st.worst.lower, I_DEF1);
	t_check_int(st.worst.cpu, 1);
	t_check_int(st.worst.start_ns, T0 + MS + 70 * MS + 10 * US);
	t_check_int(st.worst.dur_ns, MS);
	t_check_contains(c.evidence, "offense1 waited 1.00ms from 71.0ms into "
				     "the trace");
	t_check_contains(c.evidence, "while defense1 (lower) ran on CPU 1");
	t_check_int(c.worst_ns, MS);
}

/* an episode of exactly d: offense0 woken at T0 + 1 ms, defense0 on
 * CPU 0 until then, offense1 on CPU 1, then 40 rounds of wakeups */
static void one_wait(uint64_t d, int placed)
{
	uint64_t t = T0 + MS;

	reset();
	if (placed) {
		/* queued behind offense1 while defense1 runs on CPU 1 */
		sw(T0 + 10 * US, 0, 0, OFF1, 0);
		sw(T0 + 10 * US, 1, 0, DEF1, 0);
		wake(t, 0, OFF0);
		sw(t + d, 0, OFF1, OFF0, 0);
	} else {
		/* queued where defense0 runs: CPU 0 switches late */
		sw(T0 + 10 * US, 0, 0, DEF0, 0);
		sw(T0 + 10 * US, 1, 0, OFF1, 0);
		wake(t, 0, OFF0);
		sw(t + d, 0, DEF0, OFF0, 1);
	}
	sw(t + d + MS, 0, OFF0, DEF0, 0);
	for (int k = 0; k < 20; k++)
		wake(t + 10 * MS + (uint64_t)k * MS, 1, FAN);
	tr.t1_ns = T0 + 100 * MS;
}

static void test_tolerance(void)
{
	struct il_football_input in = input();
	struct il_football_stats st;
	struct il_check c;

	one_wait(TOL, 1);
	t_check_int(judge(&in, &st, &c), IL_PASS);
	t_check_int(st.episodes, 1);
	t_check_int(st.longest_ns, TOL);
	one_wait(TOL + 1, 1);
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	t_check_int(st.worst.task, I_OFF0);
	t_check_int(st.worst.lower, I_DEF1);
	t_check_int(st.worst.cpu, 1);
	t_check_int(st.late, 0);
	t_check_contains(c.evidence, "1 of 1 times a task of the top 2");
}

/*
 * A late preemption: queued where only lower tasks run, the CPU slow to
 * switch.  Set aside while no more often than the host makes them
 * (test_late_pattern), each within half of what an inversion lasts
 * (detect_ns 1 ms).
 */
static void test_late(void)
{
	struct il_football_input in = input();
	struct il_football_stats st;
	struct il_check c;

	one_wait(TOL, 0);
	t_check_int(judge(&in, &st, &c), IL_PASS);
	t_check_int(st.late, 0);
	t_check(!strstr(c.evidence, "late"));
	one_wait(TOL + 1, 0);
	t_check_int(judge(&in, &st, &c), IL_PASS);
	t_check_int(st.late, 1);
	t_check_int(st.worst_late.lower, I_DEF0);
	t_check_contains(
		c.evidence,
		"; 1 late preemption on the waiting task's own CPU set "
		"aside as noise (no more often than the host makes them): "
		"offense0 waited 50.0us");
	one_wait(MS / 2, 0);
	t_check_int(judge(&in, &st, &c), IL_PASS);
	t_check_int(st.late, 1);
	one_wait(MS / 2 + 1, 0);
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	t_check_int(st.late, 0);
	t_check_contains(c.evidence, "1 of 1 times a task of the top 2");

	/* queued behind a foreign task above it: placement, it counts */
	reset();
	sw(T0 + 10 * US, 0, 0, FOREIGN, 0);
	tr.rec[0].next_prio = 0; /* FIFO 99 */
	sw(T0 + 10 * US, 1, 0, DEF1, 0);
	wake(T0 + MS, 0, OFF0);
	sw(T0 + MS + TOL + 1, 0, FOREIGN, OFF0, 1);
	tr.rec[3].prev_prio = 0;
	tr.t1_ns = T0 + 10 * MS;
	in.min_wakeups = 0;
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	/* a foreign fair task below it: its CPU's latency */
	tr.rec[0].next_prio = tr.rec[3].prev_prio = 120;
	t_check_int(judge(&in, &st, &c), IL_PASS);
	t_check_int(st.late, 1);
	/* a foreign task at FIFO 30, as high as offense0: placement */
	tr.rec[0].next_prio = 69;
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	tr.rec[0].next_prio = 70; /* FIFO 29 */
	t_check_int(judge(&in, &st, &c), IL_PASS);
	/* a deadline task is above every real-time one */
	tr.rec[0].next_prio = -1;
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	/* an idle CPU is slow to wake: its latency */
	tr.rec[0].next_pid = 0;
	tr.rec[3].prev_pid = 0;
	t_check_int(judge(&in, &st, &c), IL_PASS);
	t_check_int(st.late, 1);
	/* a CPU nothing is known of: counted */
	reset();
	sw(T0 + 10 * US, 1, 0, DEF1, 0);
	wake(T0 + MS, 0, OFF0);
	sw(T0 + MS + TOL + 1, 0, 0, OFF0, 0);
	tr.t1_ns = T0 + 10 * MS;
	/* CPU 0's first switch says what ran before it: idle */
	t_check_int(judge(&in, &st, &c), IL_PASS);
	tr.rec[2].cpu = 1;
	tr.rec[2].prev_pid = DEF1;
	tr.rec[2].prev_runnable = 1;
	tr.rec[1].cpu = 0;
	/* woken on CPU 0, which no switch describes, run on CPU 1 */
	t_check_int(judge(&in, &st, &c), IL_FAIL);

	/* migrated behind an equal task 10 us after its wakeup, and
	 * queued there past the tolerance: placement */
	reset();
	sw(T0 + 10 * US, 0, 0, DEF0, 0);
	sw(T0 + 10 * US, 1, 0, OFF1, 0);
	wake(T0 + MS, 0, OFF0);
	{
		struct il_trace_rec r = { .ts = T0 + MS + 10 * US,
					  .kind = IL_TR_MIGRATE,
					  .cpu = 1,
					  .prev_pid = OFF0 };

		t_check_int(il_trace_add(&tr, &r), 0);
	}
	sw(T0 + MS + 10 * US + TOL + 1, 0, DEF0, OFF0, 1);
	tr.t1_ns = T0 + 10 * MS;
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	t_check_int(st.late, 0);
	/* queued behind it for the tolerance exactly: the 10 us before
	 * on its own CPU make the wait a late preemption, set aside */
	tr.rec[4].ts = T0 + MS + 10 * US + TOL;
	t_check_int(judge(&in, &st, &c), IL_PASS);
	t_check_int(st.late, 1);
	t_check_int(st.worst_late.dur_ns, TOL + 10 * US);
	tr.rec[4].ts = T0 + MS + 10 * US + TOL + 1;
	/* a migration of a running task does not move its queue */
	tr.rec[3].prev_pid = OFF1;
	t_check_int(judge(&in, &st, &c), IL_PASS);

	/* behind an equal task for 30 us, pushed to a CPU running a lower
	 * task, which switches 30 us later: 60 us in all, but the
	 * placement took less than one wakeup latency (a push is one), and
	 * the rest was that CPU's own latency: a late preemption */
	reset();
	sw(T0 + 10 * US, 0, 0, OFF1, 0);
	sw(T0 + 10 * US, 1, 0, DEF1, 0);
	wake(T0 + MS, 0, OFF0);
	{
		struct il_trace_rec r = { .ts = T0 + MS + 30 * US,
					  .kind = IL_TR_MIGRATE,
					  .cpu = 1,
					  .prev_pid = OFF0 };

		t_check_int(il_trace_add(&tr, &r), 0);
	}
	sw(T0 + MS + 60 * US, 1, DEF1, OFF0, 1);
	tr.t1_ns = T0 + 10 * MS;
	t_check_int(judge(&in, &st, &c), IL_PASS);
	t_check_int(st.late, 1);
	/* pushed only after the tolerance: placement */
	tr.rec[3].ts = T0 + MS + TOL + 1;
	tr.rec[4].ts = T0 + MS + TOL + 2;
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	/* and at the tolerance exactly, switched 1 ns later: late */
	tr.rec[3].ts = T0 + MS + TOL;
	tr.rec[4].ts = T0 + MS + TOL + 1;
	t_check_int(judge(&in, &st, &c), IL_PASS);
	t_check_int(st.late, 1);
}

/*
 * rounds of 10 ms as game(), the first `nlate` of them with offense0's
 * CPU switching to it `late` after its wakeup: a pattern when that many
 * of the episodes pass T at 0.5 % each with a chance under 1e-6
 * (binomial, worked out apart from the code): over 50 rounds (100
 * episodes) 6 are set aside and 7 are a pattern, over 500 rounds (1,000
 * episodes) 19 and 20
 */
static void test_late_pattern(void)
{
	static const struct {
		int rounds, nlate;
		enum il_verdict want;
	} cases[] = {
		{ 50, 1, IL_PASS },   { 50, 6, IL_PASS },   { 50, 7, IL_FAIL },
		{ 500, 19, IL_PASS }, { 500, 20, IL_FAIL },
	};
	struct il_football_input in = input();
	struct il_football_stats st;
	struct il_check c;

	for (size_t ci = 0; ci < sizeof(cases) / sizeof(cases[0]); ci++) {
		int rounds = cases[ci].rounds, nlate = cases[ci].nlate;

		game(rounds, -1, 0);
		for (int k = 0; k < nlate; k++)
			/* offense0's switch in of round k */
			for (size_t x = 0; x < tr.n; x++)
				if (tr.rec[x].kind == IL_TR_SWITCH &&
				    tr.rec[x].next_pid == OFF0 &&
				    tr.rec[x].ts ==
					    T0 + MS + (uint64_t)k * 10 * MS +
						    10 * US)
					tr.rec[x].ts += 2 * TOL;
		il_trace_sort(&tr);
		t_check_int(judge(&in, &st, &c), cases[ci].want);
		t_check_int(st.late, nlate);
		t_check_int(st.episodes, 2 * rounds);
		t_check_int(c.by_trace, c.verdict == IL_FAIL);
		if (c.verdict == IL_FAIL)
			t_check_contains(c.evidence,
					 "times a CPU switched to a "
					 "task of the top 2 later than "
					 "50.0us, more often than the "
					 "host explains (chance ");
	}
}

/* the last wakeup of pid at ts: made on its target with need-resched */
static void ask(uint64_t ts, int pid)
{
	for (size_t x = tr.n; x-- > 0;)
		if (tr.rec[x].kind == IL_TR_WAKEUP &&
		    tr.rec[x].prev_pid == pid && tr.rec[x].ts == ts) {
			tr.rec[x].prev_runnable = 1;
			return;
		}
	t_check(0);
}

/*
 * Late preemptions the kernel chose at once: the wakeup asked its CPU
 * to reschedule and that CPU's next switch was to the task.  However
 * many, they are the CPU's lag, not a FAIL; one a switch to another
 * task came before, or one not asked, or one queued behind a higher
 * task, or one that began before the ask, is judged as before.
 */
static void test_dispatch(void)
{
	struct il_football_input in = input();
	struct il_football_stats st;
	struct il_check c;
	uint64_t t = T0 + MS;

	/* 7 late of 100: FAIL as a pattern; asked, the CPU's lag */
	game(50, -1, 0);
	for (int k = 0; k < 7; k++)
		for (size_t x = 0; x < tr.n; x++)
			if (tr.rec[x].kind == IL_TR_SWITCH &&
			    tr.rec[x].next_pid == OFF0 &&
			    tr.rec[x].ts ==
				    T0 + MS + (uint64_t)k * 10 * MS + 10 * US)
				tr.rec[x].ts += 2 * TOL;
	il_trace_sort(&tr);
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	t_check_int(st.late, 7);
	t_check_int(st.dispatch, 0);
	for (int k = 0; k < 7; k++)
		ask(T0 + MS + (uint64_t)k * 10 * MS, OFF0);
	/* asked at once, and late all the same, as often: a kernel slow
	 * to act on a reschedule it asked for is the kernel's */
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	t_check_int(st.late, 0);
	t_check_int(st.dispatch, 7);
	t_check_int(st.worst_dispatch.task, I_OFF0);
	t_check_int(st.worst_dispatch.dur_ns, 10 * US + 2 * TOL);
	/* seven as long: the first is the one named */
	t_check_int(st.worst_dispatch.start_ns, T0 + MS);
	t_check_contains(c.evidence, "7 of 100 times a CPU switched to a task "
				     "of the top 2 later than 50.0us (7 of "
				     "them after the kernel asked it to at "
				     "once), more often than the host "
				     "explains");
	t_check_contains(c.evidence, "worst: offense0 waited 110us");
	/* 6 asked, 1 not: seven late in all, still a pattern */
	for (size_t x = 0; x < tr.n; x++)
		if (tr.rec[x].kind == IL_TR_WAKEUP && tr.rec[x].ts == t &&
		    tr.rec[x].prev_pid == OFF0)
			tr.rec[x].prev_runnable = 0;
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	t_check_int(st.dispatch, 6);
	t_check_int(st.late, 1);
	t_check_contains(c.evidence, "(6 of them after the kernel asked");
	/* that one on time: six, as often as the host makes them, set
	 * aside and named */
	for (size_t x = 0; x < tr.n; x++)
		if (tr.rec[x].kind == IL_TR_SWITCH &&
		    tr.rec[x].next_pid == OFF0 &&
		    tr.rec[x].ts == T0 + MS + 10 * US + 2 * TOL)
			tr.rec[x].ts -= 2 * TOL;
	il_trace_sort(&tr);
	t_check_int(judge(&in, &st, &c), IL_PASS);
	t_check_int(st.dispatch, 6);
	t_check_int(st.late, 0);
	t_check_contains(c.evidence, "the top 2 always ran within 50.0us, or "
				     "were chosen at once");
	t_check_contains(c.evidence,
			 "; 6 waits past 50.0us were the CPU's lag");

	/* asked, but CPU 0 switched to the fan first: the kernel's choice */
	reset();
	sw(T0 + 10 * US, 0, 0, DEF0, 0);
	sw(T0 + 10 * US, 1, 0, OFF1, 0);
	wake(t, 0, OFF0);
	ask(t, OFF0);
	sw(t + 2 * TOL, 0, DEF0, FAN, 1);
	sw(t + 4 * TOL, 0, FAN, OFF0, 1);
	sw(t + 4 * TOL + MS, 0, OFF0, DEF0, 0);
	for (int k = 0; k < 20; k++)
		wake(t + 10 * MS + (uint64_t)k * MS, 1, FAN);
	tr.t1_ns = T0 + 100 * MS;
	il_trace_sort(&tr);
	t_check_int(judge(&in, &st, &c), IL_PASS);
	t_check_int(st.dispatch, 0);
	t_check_int(st.late, 1);
	/* the same with the first switch to it: its CPU's lag */
	one_wait(4 * TOL, 0);
	ask(t, OFF0);
	t_check_int(judge(&in, &st, &c), IL_PASS);
	t_check_int(st.dispatch, 1);
	t_check_int(st.late, 0);
	t_check_contains(c.evidence, "; 1 wait past 50.0us was the CPU's lag");
	/* within the tolerance: no episode over it to set apart */
	one_wait(TOL, 0);
	ask(t, OFF0);
	t_check_int(judge(&in, &st, &c), IL_PASS);
	t_check_int(st.dispatch, 0);
	t_check(!strstr(c.evidence, "lag"));
	/* a lag as long as the inversion it means to detect counts */
	one_wait(MS / 2 + 1, 0);
	ask(t, OFF0);
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	t_check_int(st.dispatch, 0);

	/* queued behind offense1 (placement): asked or not, it counts */
	one_wait(4 * TOL, 1);
	ask(t, OFF0);
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	t_check_int(st.dispatch, 0);

	/* asked on CPU 0, moved to CPU 1 before a switch: not that ask */
	reset();
	sw(T0 + 10 * US, 0, 0, DEF0, 0);
	sw(T0 + 10 * US, 1, 0, DEF1, 0);
	sw(T0 + 20 * US, 1, DEF1, OFF1, 1);
	wake(t, 0, OFF0);
	ask(t, OFF0);
	{
		struct il_trace_rec m = { .ts = t + TOL / 2,
					  .kind = IL_TR_MIGRATE,
					  .cpu = 1,
					  .prev_pid = OFF0,
					  .next_pid = 0 };

		t_check_int(il_trace_add(&tr, &m), 0);
	}
	sw(t + 4 * TOL, 1, OFF1, OFF0, 1);
	sw(t + 4 * TOL + MS, 1, OFF0, DEF1, 0);
	for (int k = 0; k < 20; k++)
		wake(t + 10 * MS + (uint64_t)k * MS, 0, FAN);
	tr.t1_ns = T0 + 100 * MS;
	il_trace_sort(&tr);
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	t_check_int(st.dispatch, 0);
	/* without the move, CPU 1 ran it: another CPU than the one asked */
	for (size_t x = 0; x < tr.n; x++)
		if (tr.rec[x].kind == IL_TR_MIGRATE)
			tr.rec[x].cpu = 0;
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	t_check_int(st.dispatch, 0);

	/* preempted (deprived from then), woken again with an ask later:
	 * the episode began before the ask */
	reset();
	sw(T0 + 10 * US, 0, 0, DEF0, 0);
	sw(T0 + 10 * US, 1, 0, OFF1, 0);
	sw(t, 0, DEF0, OFF0, 1);
	sw(t + MS, 0, OFF0, FAN, 0);
	wake(t + MS + 2 * TOL, 0, DEF0);
	ask(t + MS + 2 * TOL, DEF0);
	sw(t + MS + 4 * TOL, 0, FAN, DEF0, 1);
	sw(t + 2 * MS, 0, DEF0, 0, 0);
	for (int k = 0; k < 20; k++)
		wake(t + 10 * MS + (uint64_t)k * MS, 1, FAN);
	tr.t1_ns = T0 + 100 * MS;
	il_trace_sort(&tr);
	t_check_int(judge(&in, &st, &c), IL_PASS);
	t_check_int(st.dispatch, 0);
	t_check_int(st.late, 1);
}

static void test_steal(void)
{
	/* steal in 10 ms steps around the wait at T0 + 1 ms */
	static const uint64_t at[] = { T0, T0 + 10 * MS, T0 + 20 * MS };
	uint64_t v[] = { 0, 100 * US, 100 * US };
	struct il_football_input in = input();
	struct il_football_stats st;
	struct il_check c;

	in.steal_t = at;
	in.steal_v = v;
	in.nsteal = 3;
	one_wait(TOL + 100 * US, 1);
	t_check_int(judge(&in, &st, &c), IL_UNDECIDED);
	t_check_int(st.stolen, 1);
	t_check_int(st.worst.steal_ns, 100 * US);
	t_check_contains(c.evidence, "within the host's steal");
	v[1] = v[2] = 100 * US - 1;
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	t_check_contains(c.evidence, "(host steal 100us)");
	/* steal after the wait is not counted */
	v[1] = 0;
	v[2] = 100 * US;
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	t_check_int(st.worst.steal_ns, 0);
	/* nor steal before it */
	{
		static const uint64_t at2[] = { T0 - 20 * MS, T0 - 10 * MS, T0,
						T0 + 20 * MS };
		uint64_t v2[] = { 0, 100 * US, 100 * US, 100 * US };

		in.steal_t = at2;
		in.steal_v = v2;
		in.nsteal = 4;
		t_check_int(judge(&in, &st, &c), IL_FAIL);
		t_check_int(st.worst.steal_ns, 0);
		v2[3] = 200 * US;
		t_check_int(judge(&in, &st, &c), IL_UNDECIDED);
	}
}

/* timeline points exactly at a wait's start and end bound its steal */
static void test_steal_edges(void)
{
	uint64_t d = TOL + 130 * US;
	const uint64_t at[] = { T0, T0 + MS, T0 + MS + d, T0 + 20 * MS };
	static const uint64_t v[] = { 0, 60 * US, 160 * US, 300 * US };
	struct il_football_input in = input();
	struct il_football_stats st;
	struct il_check c;

	in.steal_t = at;
	in.steal_v = v;
	in.nsteal = 4;
	one_wait(d, 1);
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	t_check_int(st.worst.steal_ns, 100 * US);
}

/* a wait that steal covers, even more than whole, is not the worst of
 * a FAIL: one that steal does not cover is */
static void test_steal_worst(void)
{
	static const uint64_t at[] = { T0, T0 + 9 * MS, T0 + 10 * MS,
				       T0 + 40 * MS };
	static const uint64_t v[] = { 0, 10 * MS, 10 * MS, 10 * MS };
	struct il_football_input in = input();
	struct il_football_stats st;
	struct il_check c;

	in.steal_t = at;
	in.steal_v = v;
	in.nsteal = 4;
	reset();
	sw(T0 + 10 * US, 0, 0, DEF0, 0);
	sw(T0 + 10 * US, 1, 0, DEF1, 0);
	wake(T0 + MS, 0, OFF0);
	sw(T0 + 5 * MS, 0, DEF0, OFF0, 1);
	sw(T0 + 6 * MS, 0, OFF0, DEF0, 0);
	wake(T0 + 20 * MS, 1, OFF1);
	sw(T0 + 21 * MS, 1, DEF1, OFF1, 1);
	tr.t1_ns = T0 + 50 * MS;
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	t_check_int(st.over, 2);
	t_check_int(st.stolen, 1);
	t_check_int(st.worst.task, I_OFF1);
	t_check_int(st.worst.steal_ns, 0);
}

/* the longest of two waits over the tolerance is the one named; of two
 * as long, the first */
static void test_worst(void)
{
	struct il_football_input in = input();
	struct il_football_stats st;
	struct il_check c;

	for (int longer = 0; longer < 3; longer++) {
		uint64_t d0 = MS, d1 = longer == 1 ? 2 * MS : MS;

		if (longer == 2)
			d0 = 2 * MS;
		reset();
		sw(T0 + 10 * US, 0, 0, DEF0, 0);
		sw(T0 + 10 * US, 1, 0, DEF1, 0);
		wake(T0 + MS, 0, OFF0);
		sw(T0 + MS + d0, 0, DEF0, OFF0, 1);
		sw(T0 + 2 * MS + d0, 0, OFF0, DEF0, 0);
		wake(T0 + 10 * MS, 1, OFF1);
		sw(T0 + 10 * MS + d1, 1, DEF1, OFF1, 1);
		sw(T0 + 11 * MS + d1, 1, OFF1, DEF1, 0);
		tr.t1_ns = T0 + 50 * MS;
		t_check_int(judge(&in, &st, &c), IL_FAIL);
		t_check_int(st.over, 2);
		t_check_int(st.worst.task, longer == 1 ? I_OFF1 : I_OFF0);
	}
}

/*
 * offense0 runs on CPU 0, offense1 waits there too (pinned), defense0
 * waits, fan0 runs on CPU 1: offense1 is deprived; defense0 is not one
 * of the top 2 (two runnable tasks above it), but is one of the top 3.
 */
static void test_top_n(void)
{
	struct il_football_input in = input();
	struct il_football_stats st;
	struct il_check c;

	reset();
	sw(T0 + 10 * US, 0, 0, OFF0, 0);
	sw(T0 + 10 * US, 1, 0, FAN, 0);
	wake(T0 + MS, 0, OFF1);
	wake(T0 + MS, 0, DEF0);
	sw(T0 + 3 * MS, 0, OFF0, OFF1, 0);
	sw(T0 + 4 * MS, 0, OFF1, DEF0, 0);
	tr.t1_ns = T0 + 10 * MS;
	in.min_wakeups = 0;
	/* offense1 from 1 ms to 3 ms; defense0 once offense0 leaves (3 ms)
	 * until it runs (4 ms) */
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	t_check_int(st.episodes, 2);
	t_check_int(st.worst.task, I_OFF1);
	t_check_int(st.worst.lower, I_FAN);
	t_check_int(st.worst.dur_ns, 2 * MS);
	t_check_int(st.deprived_ns, 3 * MS);
	/* one of the top 3 from 1 ms on */
	in.ncpus = 3;
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	t_check_int(st.episodes, 2);
	t_check_int(st.deprived_ns, 2 * MS + 3 * MS);
	t_check_int(st.worst.task, I_DEF0);
}

/* equal ranks are no inversion; of two lower tasks, the lowest is named */
static void test_ranks(void)
{
	struct il_football_input in = input();
	struct il_football_stats st;
	struct il_check c;

	in.min_wakeups = 0;
	reset();
	sw(T0 + 10 * US, 0, 0, DEF1, 0);
	wake(T0 + MS, 0, DEF0);
	sw(T0 + 5 * MS, 0, DEF1, DEF0, 1);
	tr.t1_ns = T0 + 10 * MS;
	t_check_int(judge(&in, &st, &c), IL_PASS);
	t_check_int(st.episodes, 0);

	reset();
	sw(T0 + 10 * US, 0, 0, FAN, 0);
	sw(T0 + 10 * US, 1, 0, DEF1, 0);
	wake(T0 + MS, 0, OFF0);
	sw(T0 + 5 * MS, 0, FAN, OFF0, 1);
	tr.t1_ns = T0 + 10 * MS;
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	t_check_int(st.worst.lower, I_FAN);
	t_check_int(st.worst.cpu, 0);
	t_check_int(st.worst.dur_ns, 4 * MS);

	/* a foreign task or idle on the other CPU is no lower task */
	reset();
	sw(T0 + 10 * US, 0, 0, FOREIGN, 0);
	sw(T0 + 10 * US, 1, DEF1, 0, 0);
	wake(T0 + MS, 0, OFF0);
	sw(T0 + 5 * MS, 0, FOREIGN, OFF0, 1);
	tr.t1_ns = T0 + 10 * MS;
	t_check_int(judge(&in, &st, &c), IL_PASS);
	t_check_int(st.episodes, 0);
}

/* the task a CPU's first switch takes off ran there from the start; a
 * wait still open at the end lasts until the trace ends */
static void test_edges(void)
{
	struct il_football_input in = input();
	struct il_football_stats st;
	struct il_check c;

	in.min_wakeups = 0;
	reset();
	sw(T0 + 10 * US, 0, 0, OFF0, 0);
	wake(T0 + MS, 0, OFF1);
	sw(T0 + 3 * MS, 1, DEF1, OFF1, 1);
	tr.t1_ns = T0 + 10 * MS;
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	t_check_int(st.worst.task, I_OFF1);
	t_check_int(st.worst.lower, I_DEF1);
	t_check_int(st.worst.dur_ns, 2 * MS);

	reset();
	sw(T0 + 10 * US, 1, 0, DEF1, 0);
	wake(T0 + MS, 0, OFF0);
	tr.t1_ns = T0 + 10 * MS;
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	t_check_int(st.worst.dur_ns, 9 * MS);
	tr.t1_ns = 0; /* an end before the start: the wait is empty */
	t_check_int(judge(&in, &st, &c), IL_PASS);
	t_check_int(st.episodes, 1);

	/* a task blocked, not preempted, is not waiting */
	reset();
	sw(T0 + 10 * US, 0, 0, OFF0, 0);
	sw(T0 + 10 * US, 1, 0, DEF1, 0);
	sw(T0 + MS, 0, OFF0, 0, 0);
	tr.t1_ns = T0 + 10 * MS;
	t_check_int(judge(&in, &st, &c), IL_PASS);
	t_check_int(st.episodes, 0);
	/* preempted, it is */
	tr.rec[2].prev_runnable = 1;
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	/* woken while running, it stays running */
	reset();
	sw(T0 + 10 * US, 0, 0, OFF0, 0);
	sw(T0 + 10 * US, 1, 0, DEF1, 0);
	wake(T0 + MS, 0, OFF0);
	tr.t1_ns = T0 + 10 * MS;
	t_check_int(judge(&in, &st, &c), IL_PASS);
	t_check_int(st.wakeups, 1);
}

/* a switch missing from the trace: the next switch's word is taken */
static void test_repair(void)
{
	struct il_football_input in = input();
	struct il_football_stats st;
	struct il_check c;

	in.min_wakeups = 0;
	/* defense1 switched off CPU 1 with no record, then seen on CPU 0 */
	reset();
	sw(T0 + 10 * US, 1, 0, DEF1, 0);
	sw(T0 + 20 * US, 0, 0, DEF1, 0);
	wake(T0 + MS, 1, OFF1);
	sw(T0 + 5 * MS, 0, DEF1, OFF1, 1);
	tr.t1_ns = T0 + 10 * MS;
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	t_check_int(st.repaired, 1);
	t_check_int(st.worst.cpu, 0);
	t_check_contains(c.evidence, "1 switches contradicted the state");
	/* a CPU said to run defense0 switches from another task: defense0
	 * left it unseen, its state is unknown and it is not counted */
	reset();
	sw(T0 + 10 * US, 1, 0, DEF0, 0);
	sw(T0 + 20 * US, 1, FOREIGN, 0, 0);
	wake(T0 + MS, 0, OFF0);
	tr.t1_ns = T0 + 10 * MS;
	t_check_int(judge(&in, &st, &c), IL_PASS);
	t_check_int(st.repaired, 1);
	t_check_int(st.episodes, 0);
}

static void test_undecided(void)
{
	struct il_football_input in = input();
	struct il_football_task t2[5];
	struct il_check c;

	in.trace = NULL;
	in.no_trace = "tracing needs root";
	t_check_int(judge(&in, NULL, &c), IL_UNDECIDED);
	t_check_str(c.evidence, "no trace: tracing needs root");
	in.no_trace = NULL;
	t_check_int(judge(&in, NULL, &c), IL_UNDECIDED);
	t_check_str(c.evidence, "no trace: none recorded");

	in = input();
	game(30, -1, 0);
	tr.lost = 3;
	t_check_int(judge(&in, NULL, &c), IL_UNDECIDED);
	t_check_contains(c.evidence, "lost 3 events");
	tr.lost = 0;

	memcpy(t2, tasks, sizeof(t2));
	t2[4].tid = 0;
	in.tasks = t2;
	t_check_int(judge(&in, NULL, &c), IL_UNDECIDED);
	t_check_str(c.evidence, "task fan0 never started");
	t2[4].tid = -1;
	t_check_int(judge(&in, NULL, &c), IL_UNDECIDED);
	t2[4].tid = 1;
	t_check_int(judge(&in, NULL, &c), IL_PASS);

	/* the game never formed: 60 wakeups */
	in = input();
	in.min_wakeups = 60;
	t_check_int(judge(&in, NULL, &c), IL_PASS);
	in.min_wakeups = 61;
	t_check_int(judge(&in, NULL, &c), IL_UNDECIDED);
	t_check_contains(c.evidence, "60 wakeups");
	t_check_contains(c.evidence, "the game never formed");

	/* a tolerance over half of what an inversion lasts */
	in = input();
	in.tolerance_ns = 500 * US;
	t_check_int(judge(&in, NULL, &c), IL_PASS);
	in.tolerance_ns = 500 * US + 1;
	t_check_int(judge(&in, NULL, &c), IL_UNDECIDED);
	t_check_contains(c.evidence, "cannot tell one from noise");
	/* a FAIL stands whatever the tolerance */
	in.tolerance_ns = 900 * US;
	game(30, 7, MS);
	t_check_int(judge(&in, NULL, &c), IL_FAIL);
}

static void test_args(void)
{
	struct il_football_input in = input();
	struct il_check c = { .verdict = IL_PASS };

	t_check_int(il_football_check(NULL, NULL, &c), -EINVAL);
	t_check_int(il_football_check(&in, NULL, NULL), -EINVAL);
	in.ncpus = 0;
	t_check_int(il_football_check(&in, NULL, &c), -EINVAL);
	in = input();
	in.tasks = NULL;
	t_check_int(il_football_check(&in, NULL, &c), -EINVAL);
	in = input();
	in.nsteal = 1;
	t_check_int(il_football_check(&in, NULL, &c), -EINVAL);
	/* nothing judged: no verdict */
	t_check_int(c.verdict, IL_NONE);
	in = input();
	in.ntasks = 0;
	in.tasks = NULL;
	in.min_wakeups = 0;
	game(3, -1, 0);
	t_check_int(judge(&in, NULL, &c), IL_PASS);
}

/*
 * A CPU of lower tasks that stalled (its timers taken late) while a top
 * task was queued on it: that time is not the scheduler's.  offense0
 * waits d = 0.5 ms + 1 ns on CPU 0 behind defense0, past half an
 * inversion: FAIL, unless CPU 0 stalled for all of it but the
 * tolerance.
 */
static void test_stalled(void)
{
	struct il_football_input in = input();
	struct il_football_stats st;
	struct il_check c;
	uint64_t t = T0 + MS, d = MS / 2 + 1;
	uint64_t se[2] = { t, t + d - TOL };
	struct il_trace_stall_cpu cpus[2] = { { se, 1, NULL, 0 },
					      { NULL, 0, NULL, 0 } };
	struct il_trace_stalls stalls = { cpus, 2 };

	one_wait(d, 0);
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	in.stalls = &stalls;
	/* the witness excuses the FAIL, and makes no PASS */
	t_check_int(judge(&in, &st, &c), IL_UNDECIDED);
	t_check_contains(c.evidence, "1 waits of a top task over 50.0us, each "
				     "while a CPU it could run on recorded a "
				     "stall: the host's, or the kernel's with "
				     "interrupts off; not decided");
	t_check_int(st.stalled, 1);
	t_check_int(st.over, 0);
	t_check_int(st.worst_stalled.stalled_ns, d - TOL);
	t_check_contains(c.evidence,
			 "; 1 wait past 50.0us only while the CPU of lower "
			 "tasks it was queued on, or could have moved to, "
			 "stalled");
	t_check_contains(c.evidence, "offense0 waited 500us");
	/* 1 ns less of stall: TOL + 1 is the scheduler's */
	se[1]--;
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	t_check_int(st.stalled, 0);
	se[1]++;
	/* stalled on the other CPU: not where it waited */
	cpus[0].n = 0;
	cpus[1] = (struct il_trace_stall_cpu){ se, 1, NULL, 0 };
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	cpus[1].n = 0;
	cpus[0].n = 1;
	/* queued behind offense1 on CPU 0: placement, a stall there does
	 * not excuse it */
	one_wait(d, 1);
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	t_check_int(st.stalled, 0);
}

/*
 * offense0 woken at t on CPU 0 behind offense1 for d, defense1 on CPU 1
 * and, when fan, the fan on CPU 2; then 20 wakeups
 */
static void three_cpus(uint64_t t, uint64_t d, bool fan)
{
	reset();
	sw(T0 + 10 * US, 0, 0, OFF1, 0);
	sw(T0 + 10 * US, 1, 0, DEF1, 0);
	if (fan)
		sw(T0 + 10 * US, 2, 0, FAN, 0);
	wake(t, 0, OFF0);
	sw(t + d, 0, OFF1, OFF0, 0);
	sw(t + d + MS, 0, OFF0, DEF0, 0);
	for (int k = 0; k < 20; k++)
		wake(t + 10 * MS + (uint64_t)k * MS, 1, DEF0);
	tr.t1_ns = T0 + 100 * MS;
}

/*
 * Queued behind a task at or above it while the one CPU of lower tasks
 * stalled: that CPU could neither take it nor switch to it.  offense0
 * waits d behind offense1 on CPU 0 while defense1 "runs" on CPU 1.
 */
static void test_stalled_behind(void)
{
	struct il_football_input in = input();
	struct il_football_stats st;
	struct il_check c;
	uint64_t t = T0 + MS, d = MS / 2 + 1;
	uint64_t se[2] = { t, t + d - TOL };
	struct il_trace_stall_cpu cpus[3] = { { NULL, 0, NULL, 0 },
					      { se, 1, NULL, 0 },
					      { NULL, 0, NULL, 0 } };
	struct il_trace_stalls stalls = { cpus, 2 };
	struct il_football_task pinned[5];

	in.stalls = &stalls;
	one_wait(d, 1);
	t_check_int(judge(&in, &st, &c), IL_UNDECIDED);
	t_check_int(st.stalled, 1);
	t_check_int(st.over, 0);
	t_check_int(st.worst_stalled.stalled_ns, d - TOL);
	t_check_contains(c.evidence,
			 "; 1 wait past 50.0us only while the CPU of lower "
			 "tasks it was queued on, or could have moved to, "
			 "stalled");
	/* 1 ns less of stall: TOL + 1 queued behind is placement */
	se[1]--;
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	t_check_int(st.stalled, 0);
	se[1]++;
	/* a stall longer than the stretch it is asked about counts no
	 * more than the stretch: the whole wait stalled */
	se[0] = t - MS;
	se[1] = t + d + MS;
	t_check_int(judge(&in, &st, &c), IL_UNDECIDED);
	t_check_int(st.worst_stalled.stalled_ns, d);
	se[0] = t;
	se[1] = t + d - TOL;
	/* pinned where it waits: it could not have moved there */
	memcpy(pinned, tasks, sizeof(pinned));
	pinned[I_OFF0].movable = false;
	in.tasks = pinned;
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	t_check_int(st.stalled, 0);
	in.tasks = tasks;
	/* lower tasks on two CPUs of three: which should have taken it is
	 * not known, so neither stall excuses it */
	three_cpus(t, d, true);
	in.ncpus = 3;
	stalls.ncpus = 3;
	cpus[2] = cpus[1];
	t_check_int(judge(&in, &st, &c), IL_FAIL);
	t_check_int(st.stalled, 0);
	/* the same with the fan gone from CPU 2: one CPU of lower tasks */
	three_cpus(t, d, false);
	t_check_int(judge(&in, &st, &c), IL_UNDECIDED);
	t_check_int(st.stalled, 1);
}

/*
 * il_trace_stalls: a real-time sleeper asleep on CPU 0 until its release
 * and woken there late witnesses [release, wakeup) on CPU 0; woken on
 * CPU 1, after a migration, running at its release, on time, or due at
 * the trace's start: no witness.  Overlapping and touching stretches are
 * merged.
 */
static void test_trace_stalls(void)
{
	struct il_trace_stalls s;
	uint64_t rel[] = { T0,		T0 + MS,     T0 + 2 * MS, T0 + 3 * MS,
			   T0 + 4 * MS, T0 + 5 * MS, T0 + 6 * MS };
	uint64_t rel2[] = { T0 + MS + 100 * US };
	uint64_t rel3[] = { T0 + 1500 * US };
	struct il_trace_sleeper sl[] = { { FAN, rel, 7 },
					 { OFF0, rel2, 1 },
					 { OFF1, rel3, 1 } };

	reset();
	tr.t1_ns = T0 + 10 * MS;
	/* due at the trace's start (T0): what came before is not known */
	sw(T0 - 300 * US, 0, FAN, 0, 0);
	wake(T0 + 100 * US, 0, FAN);
	sw(T0 + 100 * US, 0, 0, FAN, 0);
	/* release 1: asleep on CPU 0, woken there 300 us late */
	sw(T0 + 500 * US, 0, FAN, 0, 0);
	wake(T0 + 1300 * US, 0, FAN);
	sw(T0 + 1300 * US, 0, 0, FAN, 0);
	/* offense0 asleep on CPU 0, due at 1.1 ms, woken at 1.5 ms: over
	 * the fan's; offense1, due at 1.5 ms, woken at 1.6 ms: touching */
	sw(T0 + 400 * US, 0, OFF0, 0, 0);
	wake(T0 + 1500 * US, 0, OFF0);
	sw(T0 + 450 * US, 0, OFF1, 0, 0);
	wake(T0 + 1600 * US, 0, OFF1);
	/* release 2: asleep on CPU 0, woken on CPU 1 */
	sw(T0 + 1800 * US, 0, FAN, 0, 0);
	wake(T0 + 2500 * US, 1, FAN);
	sw(T0 + 2500 * US, 1, 0, FAN, 0);
	/* release 3: running at it (switched in last), a wakeup after */
	wake(T0 + 3100 * US, 1, FAN);
	/* release 4: asleep on CPU 1, woken on time */
	sw(T0 + 3800 * US, 1, FAN, 0, 0);
	wake(T0 + 4 * MS, 1, FAN);
	sw(T0 + 4 * MS, 1, 0, FAN, 0);
	/* release 5: asleep on CPU 1, migrated, then woken on CPU 1 late */
	sw(T0 + 4800 * US, 1, FAN, 0, 0);
	{
		struct il_trace_rec m = { .ts = T0 + 5100 * US,
					  .kind = IL_TR_MIGRATE,
					  .cpu = 1,
					  .prev_pid = FAN,
					  .next_pid = 1 };

		t_check_int(il_trace_add(&tr, &m), 0);
	}
	wake(T0 + 5200 * US, 1, FAN);
	sw(T0 + 5200 * US, 1, 0, FAN, 0);
	/* release 6: asleep on CPU 1, woken there 2 ms late */
	sw(T0 + 5800 * US, 1, FAN, 0, 0);
	wake(T0 + 8 * MS, 1, FAN);
	/* a wakeup names CPU 3, which no switch does: not a CPU of it */
	wake(T0 + 9 * MS, 3, FOREIGN);
	il_trace_sort(&tr);
	t_check_int(il_trace_stalls(&tr, sl, 3, &s), 0);
	t_check_int(s.ncpus, 2);
	if (s.ncpus == 2) {
		t_check_int(s.cpu[0].n, 1);
		if (s.cpu[0].n == 1) {
			t_check_int(s.cpu[0].se[0], T0 + MS);
			t_check_int(s.cpu[0].se[1], T0 + 1600 * US);
		}
		t_check_int(s.cpu[1].n, 1);
		if (s.cpu[1].n == 1) {
			t_check_int(s.cpu[1].se[0], T0 + 6 * MS);
			t_check_int(s.cpu[1].se[1], T0 + 8 * MS);
		}
	}
	t_check_int(il_trace_stalled(&s, 0, T0, T0 + 10 * MS), 600 * US);
	t_check_int(il_trace_stalled(&s, 0, T0 + 1200 * US, T0 + 1300 * US),
		    100 * US);
	t_check_int(il_trace_stalled(&s, 1, T0 + 7 * MS, T0 + 9 * MS), MS);
	t_check_int(il_trace_stalled(&s, 2, T0, T0 + 10 * MS), 0);
	t_check_int(il_trace_stalled(NULL, 0, T0, T0 + 10 * MS), 0);
	il_trace_stalls_free(&s);
	t_check_int(s.ncpus, 0);
	t_check_int(il_trace_stalls(NULL, sl, 1, &s), -EINVAL);
	t_check_int(il_trace_stalls(&tr, NULL, 1, &s), -EINVAL);

	/* switches on CPU 0 only: one CPU, and its stretch */
	reset();
	tr.t1_ns = T0 + 10 * MS;
	sw(T0 + 500 * US, 0, FAN, 0, 0);
	wake(T0 + 1300 * US, 0, FAN);
	il_trace_sort(&tr);
	t_check_int(il_trace_stalls(&tr, sl, 1, &s), 0);
	t_check_int(s.ncpus, 1);
	t_check_int(il_trace_stalled(&s, 0, T0, T0 + 10 * MS), 300 * US);
	il_trace_stalls_free(&s);
}

static void acct(uint64_t ts, int cpu, int pid, int32_t run)
{
	struct il_trace_rec r = {
		.ts = ts,
		.kind = IL_TR_RUNTIME,
		.cpu = (uint16_t)cpu,
		.prev_pid = pid,
		.next_pid = run,
	};

	t_check_int(il_trace_add(&tr, &r), 0);
}

/* the windows of the run-time accounts, and what they leave unaccounted */
static void test_trace_stalls_runtime(void)
{
	struct il_trace_stalls s;
	const uint64_t K = IL_TRACE_RUN_SLACK_NS;

	reset();
	tr.t1_ns = T0 + 10 * MS;
	/* before CPU 0's first switch its task is not known */
	acct(T0 - 100 * US, 0, FAN, 10 * US);
	sw(T0, 0, 0, FAN, 0);
	sw(T0 + 100 * US, 1, 0, DEF0, 0);
	sw(T0 + 100 * US, 2, DEF1, 0, 0);
	/* the tick: 400 us of 1 ms accounted */
	acct(T0 + MS, 0, FAN, 400 * US);
	/* CPU 1 reads the fan's CPU clock: an account of CPU 0's task */
	acct(T0 + 2 * MS, 1, FAN, (int32_t)MS);
	/* a task running nowhere (a proxy-execution donor): CPU 0's window
	 * ends unused, so the next account starts one */
	acct(T0 + 2500 * US, 0, FOREIGN, 5 * US);
	acct(T0 + 3 * MS, 0, FAN, 100 * US);
	/* an account too large to record: none, and none from it */
	acct(T0 + 4 * MS, 0, FAN, -1);
	acct(T0 + 5 * MS, 0, FAN, 10 * US);
	/* made on idle CPU 2 (a reader there, in theory): the fan's, on
	 * CPU 0, where it runs */
	acct(T0 + 5500 * US, 2, FAN, 100 * US);
	acct(T0 + 6 * MS, 0, FAN, 200 * US);
	/* a second account at the same instant: no window of no time */
	acct(T0 + 6 * MS, 0, FAN, 0);
	/* idle has no account; pid 0 is never one */
	sw(T0 + 7 * MS, 0, FAN, 0, 0);
	/* a wakeup on the idle CPU is no account */
	wake(T0 + 7500 * US, 0, FAN);
	acct(T0 + 8 * MS, 0, 0, 10 * US);
	acct(T0 + 8200 * US, 0, 0, 10 * US);
	acct(T0 + 8 * MS, 1, DEF0, 0);
	acct(T0 + 9 * MS, 1, DEF0, 0);
	/* an account on CPU 0, idle by the switches: defense1 runs there,
	 * its switch in missing; put back (at the account: it counts no
	 * time), its windows start there */
	acct(T0 + 8500 * US, 0, DEF1, 0);
	acct(T0 + 9500 * US, 0, DEF1, 100 * US);
	il_trace_sort(&tr);
	t_check_int(il_trace_stalls(&tr, NULL, 0, &s), 0);
	t_check_int(il_trace_stalls_runtime(&tr, &s), 0);
	/* not put back: the account ends CPU 0's window unused */
	t_check_int(s.cpu && s.ncpus == 3 ? s.cpu[0].nwin : 0, 4);
	il_trace_stalls_free(&s);
	t_check_int(il_trace_fill_idle(&tr), 0);
	t_check_int(tr.filled, 1);
	t_check_int(il_trace_stalls(&tr, NULL, 0, &s), 0);
	t_check_int(il_trace_stalls_runtime(&tr, &s), 0);
	t_check_int(s.ncpus, 3);
	if (s.ncpus != 3) {
		il_trace_stalls_free(&s);
		return;
	}
	t_check_int(s.cpu[2].nwin, 0);
	t_check_int(s.cpu[0].nwin, 5);
	if (s.cpu[0].nwin == 5) {
		t_check_int(s.cpu[0].win[3].a, T0 + 5500 * US);
		t_check_int(s.cpu[0].win[3].run, 200 * US);
		t_check_int(s.cpu[0].win[4].a, T0 + 8500 * US);
		t_check_int(s.cpu[0].win[4].b, T0 + 9500 * US);
		t_check_int(s.cpu[0].win[4].run, 100 * US);
		t_check_int(s.cpu[0].win[0].a, T0);
		t_check_int(s.cpu[0].win[0].b, T0 + MS);
		t_check_int(s.cpu[0].win[0].run, 400 * US);
		t_check_int(s.cpu[0].win[1].a, T0 + MS);
		t_check_int(s.cpu[0].win[1].b, T0 + 2 * MS);
		t_check_int(s.cpu[0].win[2].a, T0 + 5 * MS);
		t_check_int(s.cpu[0].win[2].b, T0 + 5500 * US);
		t_check_int(s.cpu[0].win[2].run, 100 * US);
	}
	t_check_int(s.cpu[1].nwin, 2);
	if (s.cpu[1].nwin == 2) {
		t_check_int(s.cpu[1].win[0].a, T0 + 100 * US);
		t_check_int(s.cpu[1].win[0].b, T0 + 8 * MS);
		t_check_int(s.cpu[1].win[0].run, 0);
		/* an account of no time still ends a window */
		t_check_int(s.cpu[1].win[1].a, T0 + 8 * MS);
		t_check_int(s.cpu[1].win[1].b, T0 + 9 * MS);
	}
	t_check_int(il_trace_stalled(&s, 0, T0, T0 + MS), 600 * US - K);
	t_check_int(il_trace_stalled(&s, 0, T0 + 500 * US, T0 + MS),
		    100 * US - K);
	/* the overlap at the run and the slack: nothing; 1 ns past it: 1 */
	t_check_int(il_trace_stalled(&s, 0, T0 + 570 * US, T0 + MS), 0);
	t_check_int(il_trace_stalled(&s, 0, T0 + 570 * US - 1, T0 + MS), 1);
	t_check_int(il_trace_stalled(&s, 0, T0 + MS, T0 + 2 * MS), 0);
	t_check_int(il_trace_stalled(&s, 0, T0, T0 + 10 * MS),
		    600 * US - K + 400 * US - K + 300 * US - K + 900 * US - K);
	t_check_int(il_trace_stalled(&s, 0, T0 + 2 * MS, T0 + 5 * MS), 0);
	t_check_int(il_trace_stalled(&s, 1, T0 + 2 * MS, T0 + 3 * MS), MS - K);
	t_check_int(il_trace_stalled(&s, 0, T0 + MS, T0 + MS), 0);
	il_trace_stalls_free(&s);
	t_check_int(s.ncpus, 0);
	t_check_int(il_trace_stalls_runtime(NULL, &s), -EINVAL);
	t_check_int(il_trace_stalls_runtime(&tr, NULL), -EINVAL);
	/* no CPU: nothing to add */
	t_check_int(il_trace_stalls_runtime(&tr, &s), 0);

	/* a timer's stretch and a window on one CPU: the larger counts */
	{
		uint64_t se[2] = { T0 + 100 * US, T0 + 300 * US };
		struct il_trace_run_win w[1] = { { T0, T0 + MS, 500 * US } };
		struct il_trace_stall_cpu c1[1] = { { se, 1, w, 1 } };
		struct il_trace_stalls both = { c1, 1 };

		t_check_int(il_trace_stalled(&both, 0, T0, T0 + MS),
			    500 * US - K);
		t_check_int(il_trace_stalled(&both, 0, T0, T0 + 400 * US),
			    200 * US);
		c1[0].nwin = 0;
		t_check_int(il_trace_stalled(&both, 0, T0, T0 + MS), 200 * US);
	}
}

/*
 * A late preemption the run-time account shows the host held: offense0
 * waits d on CPU 0 while defense0 runs there, and defense0's account of
 * the wait leaves all of it but run unaccounted.
 */
static void test_run_witness(void)
{
	struct il_football_input in = input();
	struct il_football_stats st;
	struct il_check c;
	struct il_trace_stalls s;
	uint64_t t = T0 + MS, d = MS / 2 + 1;
	/* what the kernel may have run of the wait for it to be set aside:
	 * the window ends 1 ns before the switch */
	int32_t run = (int32_t)(TOL - IL_TRACE_RUN_SLACK_NS - 1);

	for (int k = 0; k < 2; k++) {
		one_wait(d, 0);
		acct(t, 0, DEF0, (int32_t)(t - T0 - 10 * US));
		acct(t + d - 1, 0, DEF0, run + k);
		il_trace_sort(&tr);
		t_check_int(il_trace_stalls(&tr, NULL, 0, &s), 0);
		t_check_int(il_trace_stalls_runtime(&tr, &s), 0);
		in.stalls = &s;
		if (!k) {
			t_check_int(judge(&in, &st, &c), IL_UNDECIDED);
			t_check_int(st.stalled, 1);
			t_check_contains(c.evidence,
					 "1 wait past 50.0us only while the "
					 "CPU of lower tasks it was queued on, "
					 "or could have moved to, stalled");
		} else {
			/* 1 ns more run: T + 1 of it is the scheduler's */
			t_check_int(judge(&in, &st, &c), IL_FAIL);
			t_check_int(st.stalled, 0);
		}
		in.stalls = NULL;
		t_check_int(judge(&in, &st, &c), IL_FAIL);
		il_trace_stalls_free(&s);
	}
}

/*
 * A switch from idle missing from the trace (this machine's kernel never
 * traces one on CPU 1): offense0 is woken on idle CPU 1 and runs there,
 * but the trace shows only its run-time account and its switch out,
 * while defense0 runs on CPU 0.  il_trace_fill_idle() puts the switch
 * back from the account; without it, or with an account that does not
 * show offense0 on idle CPU 1, offense0 reads as waiting all along.
 */
static void test_missing_switch_in(void)
{
	struct il_football_input in = input();
	struct il_football_stats st;
	struct il_check c;
	uint64_t t = T0 + MS;

	for (int k = 0; k < 5; k++) {
		reset();
		sw(T0 + 10 * US, 0, 0, DEF0, 0);
		sw(T0 + 20 * US, 1, OFF1, 0, 0);
		wake(t, 1, OFF0);
		if (k == 1 || k == 4) /* ran 5 us of the 10 since its wakeup */
			acct(t + 10 * US, 1, OFF0, 5 * US);
		if (k == 2) /* made on CPU 0, which runs defense0 */
			acct(t + 10 * US, 0, OFF0, 5 * US);
		if (k == 3) /* another task's, on CPU 1 */
			acct(t + 10 * US, 1, DEF1, 5 * US);
		sw(t + MS, 1, OFF0, 0, 0);
		for (int j = 0; j < 20; j++)
			wake(t + 10 * MS + (uint64_t)j * MS, 1, FAN);
		tr.t1_ns = T0 + 100 * MS;
		il_trace_sort(&tr);
		if (k != 4)
			t_check_int(il_trace_fill_idle(&tr), 0);
		if (k == 1) {
			t_check_int(tr.filled, 1);
			t_check_int(judge(&in, &st, &c), IL_PASS);
			t_check_int(st.longest_ns, 5 * US);
			t_check_contains(c.evidence,
					 "; 1 switch from idle missing from "
					 "the trace, put back");
		} else {
			/* waiting, by the trace, all the while (defense1's
			 * account puts it on CPU 1: lower than offense0) */
			t_check_int(tr.filled, k == 3);
			t_check_int(judge(&in, &st, &c), IL_FAIL);
		}
	}
}

/*
 * The tick's lateness from the run-time accounts (il_trace_late_ticks):
 * periods of 10 ms from T0, a tick of 4 ms.  Only a run past the tick
 * counts, by what is past it, in every period its run overlaps.
 */
static void test_late_ticks(void)
{
	uint64_t late[4];
	const uint64_t P = 10 * MS, TK = 4 * MS;

	reset();
	t_check_int(il_trace_late_ticks(&tr, DEF0, TK, T0, P, late, 4), 0);
	/* a tick exactly: not late; 1 ns more: 1 ns late */
	acct(T0 + 5 * MS, 0, DEF0, (int32_t)TK);
	acct(T0 + 9 * MS, 0, DEF0, (int32_t)(TK + 1));
	/* another task's, and an unknown run: no witness */
	acct(T0 + 9 * MS, 0, DEF1, (int32_t)(9 * MS));
	acct(T0 + 19 * MS, 0, DEF0, -1);
	/* 9.3 ms ending 2 ms into period 2: in periods 1 and 2 */
	acct(T0 + 22 * MS, 0, DEF0, (int32_t)(9300 * US));
	/* before T0, and beyond the periods asked for */
	acct(T0 - 1 * MS, 0, DEF0, (int32_t)(8 * MS));
	acct(T0 + 50 * MS, 0, DEF0, (int32_t)(8 * MS));
	il_trace_sort(&tr);
	t_check_int(il_trace_late_ticks(&tr, DEF0, TK, T0, P, late, 4), 6);
	t_check_int(late[0], 1);
	t_check_int(late[1], 5300 * US);
	t_check_int(late[2], 5300 * US);
	t_check_int(late[3], 0);
	/* a run from before T0 into period 0 counts there, as does one
	 * that ends at T0 itself */
	reset();
	acct(T0 + 1 * MS, 0, DEF0, (int32_t)(6 * MS));
	t_check_int(il_trace_late_ticks(&tr, DEF0, TK, T0, P, late, 4), 1);
	t_check_int(late[0], 2 * MS);
	t_check_int(late[1], 0);
	acct(T0, 0, DEF0, (int32_t)(5 * MS));
	il_trace_sort(&tr);
	t_check_int(il_trace_late_ticks(&tr, DEF0, TK, T0, P, late, 4), 2);
	t_check_int(late[0], 3 * MS);
	reset();
	acct(T0 + 1 * MS, 0, DEF0, (int32_t)(6 * MS));
	/* none of the task's: 0 accounts, all periods 0 */
	t_check_int(il_trace_late_ticks(&tr, DEF1, TK, T0, P, late, 4), 0);
	t_check_int(late[0], 0);
	t_check_int(il_trace_late_ticks(&tr, DEF0, TK, T0, P, NULL, 0), 1);
	t_check_int(il_trace_late_ticks(NULL, DEF0, TK, T0, P, late, 4),
		    -EINVAL);
	t_check_int(il_trace_late_ticks(&tr, 0, TK, T0, P, late, 4), -EINVAL);
	t_check_int(il_trace_late_ticks(&tr, DEF0, 0, T0, P, late, 4), -EINVAL);
	t_check_int(il_trace_late_ticks(&tr, DEF0, TK, T0, 0, late, 4),
		    -EINVAL);
	t_check_int(il_trace_late_ticks(&tr, DEF0, TK, T0, P, NULL, 4),
		    -EINVAL);
	/* one account at a time: no period, no array, no room, or before
	 * t0 adds nothing (and does not divide by 0 or write through
	 * NULL); a tick and a ns later adds 1 ns */
	late[0] = 0;
	il_trace_late_add(T0 + P / 2, TK + 1, TK, T0, 0, late, 1);
	il_trace_late_add(T0 + P / 2, TK + 1, TK, T0, P, NULL, 1);
	il_trace_late_add(T0 + P / 2, TK + 1, TK, T0, P, late, 0);
	il_trace_late_add(T0 - 1, TK + 1, TK, T0, P, late, 1);
	il_trace_late_add(T0 + P / 2, TK, TK, T0, P, late, 1);
	t_check_int(late[0], 0);
	il_trace_late_add(T0 + P / 2, TK + 1, TK, T0, P, late, 1);
	t_check_int(late[0], 1);
}

/*
 * The longest silence of a CPU (il_trace_silence): between its own
 * switches and accounts, from the start and to the end; a wakeup or a
 * migration does not end it, nor does another CPU's record; a CPU
 * without any is silent all along; no span known, nothing.
 */
static void test_silence(void)
{
	struct il_trace_rec m = { .kind = IL_TR_MIGRATE, .cpu = 1 };

	reset();
	tr.t1_ns = T0 + 100 * MS;
	t_check_int(il_trace_silence(NULL, 2), 0);
	t_check_int(il_trace_silence(&tr, 0), 0);
	t_check_int(il_trace_silence(&tr, 2), 100 * MS); /* none at all */
	sw(T0 + 10 * MS, 0, 0, DEF0, 0);
	acct(T0 + 40 * MS, 0, DEF0, (int32_t)(30 * MS));
	acct(T0 + 95 * MS, 0, DEF0, (int32_t)(55 * MS));
	sw(T0 + 20 * MS, 1, 0, OFF0, 0);
	sw(T0 + 80 * MS, 1, OFF0, 0, 0);
	il_trace_sort(&tr);
	/* CPU 0: 10, 30, 55, 5; CPU 1: 20, 60, 20 */
	t_check_int(il_trace_silence(&tr, 2), 60 * MS);
	t_check_int(il_trace_silence(&tr, 1), 55 * MS);
	/* a migration to CPU 1 in its silence is recorded by another CPU */
	m.ts = T0 + 50 * MS;
	t_check_int(il_trace_add(&tr, &m), 0);
	m.kind = IL_TR_WAKEUP;
	t_check_int(il_trace_add(&tr, &m), 0);
	il_trace_sort(&tr);
	t_check_int(il_trace_silence(&tr, 2), 60 * MS);
	/* its own account there ends it: 30, 30 */
	acct(T0 + 50 * MS, 1, OFF0, (int32_t)(30 * MS));
	il_trace_sort(&tr);
	t_check_int(il_trace_silence(&tr, 2), 55 * MS);
	/* a third CPU without any record: silent all along */
	t_check_int(il_trace_silence(&tr, 3), 100 * MS);
	/* the end of the span counts: CPU 0's last at 95 */
	tr.t1_ns = T0 + 200 * MS;
	t_check_int(il_trace_silence(&tr, 2), 120 * MS);
	tr.t1_ns = 0;
	t_check_int(il_trace_silence(&tr, 2), 0);
	tr.t1_ns = T0 + 100 * MS;
	tr.t0_ns = 0;
	t_check_int(il_trace_silence(&tr, 2), 0);
	reset();
}

/*
 * A sleep the kernel charged: a wakeup of a task that the switches show
 * still current on the CPU it is woken on is listed, one woken on
 * another CPU, after a switch away, before any switch on its CPU, or
 * of another task is not; and the accounts over a span are counted for
 * their overlap with it.
 */
static void test_woken_current(void)
{
	uint64_t *w = NULL;

	reset();
	t_check_int(il_trace_woken_current(&tr, DEF0, &w), 0);
	t_check(w == NULL);
	/* CPU 1's current unknown: a wakeup there is not listed */
	wake(T0 + 1 * MS, 1, DEF0);
	sw(T0 + 2 * MS, 0, 0, DEF0, 0);
	/* woken on CPU 0 while current there: listed */
	wake(T0 + 5 * MS, 0, DEF0);
	/* another task's wakeup, and one on the other CPU */
	wake(T0 + 6 * MS, 0, DEF1);
	sw(T0 + 6 * MS + 1, 1, 0, DEF1, 0);
	wake(T0 + 7 * MS, 1, DEF0);
	/* switched away, then woken: a true sleep */
	sw(T0 + 8 * MS, 0, DEF0, 0, 0);
	wake(T0 + 9 * MS, 0, DEF0);
	/* switched back in, woken again while current: listed */
	sw(T0 + 10 * MS, 0, 0, DEF0, 0);
	wake(T0 + 12 * MS, 0, DEF0);
	il_trace_sort(&tr);
	t_check_int(il_trace_woken_current(&tr, DEF0, &w), 2);
	t_check(w && w[0] == T0 + 5 * MS && w[1] == T0 + 12 * MS);
	free(w);
	t_check_int(il_trace_woken_current(NULL, DEF0, &w), -EINVAL);
	t_check_int(il_trace_woken_current(&tr, 0, &w), -EINVAL);
	t_check_int(il_trace_woken_current(&tr, DEF0, NULL), -EINVAL);

	/* accounts: [1, 3] ms, [3, 7] ms, [7, 9] ms of DEF0, one of DEF1,
	 * one unknown; over [2, 8] ms: 1 + 4 + 1 ms */
	reset();
	acct(T0 + 3 * MS, 0, DEF0, (int32_t)(2 * MS));
	acct(T0 + 7 * MS, 0, DEF0, (int32_t)(4 * MS));
	acct(T0 + 7 * MS, 0, DEF1, (int32_t)(4 * MS));
	acct(T0 + 7 * MS, 0, 0, (int32_t)(4 * MS));
	acct(T0 + 8 * MS, 0, DEF0, -1);
	acct(T0 + 9 * MS, 0, DEF0, (int32_t)(2 * MS));
	/* after the one that reached the span's end: not looked at */
	acct(T0 + 20 * MS, 0, DEF0, (int32_t)(19 * MS));
	il_trace_sort(&tr);
	t_check_int(il_trace_accounted(&tr, DEF0, T0 + 2 * MS, T0 + 8 * MS),
		    6 * MS);
	/* an account that ends at the span's start adds nothing */
	t_check_int(il_trace_accounted(&tr, DEF0, T0 + 3 * MS, T0 + 4 * MS),
		    1 * MS);
	t_check_int(il_trace_accounted(&tr, DEF1, T0 + 2 * MS, T0 + 8 * MS),
		    4 * MS);
	t_check_int(il_trace_accounted(&tr, DEF0, T0 + 8 * MS, T0 + 8 * MS), 0);
	t_check_int(il_trace_accounted(NULL, DEF0, T0, T0 + 8 * MS), 0);
	t_check_int(il_trace_accounted(&tr, 0, T0, T0 + 8 * MS), 0);
}

/*
 * il_trace_on_cpu(): DEF0 on CPU 0 from before the span (its first
 * switch is away, at 3 ms), again [5, 6] ms, then on CPU 1 from 9 ms to
 * the end; DEF1 never switched.  Each boundary and each unknown.
 */
static void test_on_cpu(void)
{
	reset();
	tr.t1_ns = T0 + 20 * MS;
	sw(T0 + 3 * MS, 0, DEF0, OFF0, 1);
	sw(T0 + 5 * MS, 0, OFF0, DEF0, 0);
	sw(T0 + 6 * MS, 0, DEF0, 0, 0);
	sw(T0 + 9 * MS, 1, FAN, DEF0, 0);
	il_trace_sort(&tr);
	/* on from the start: [1, 3] + [5, 6] + [9, 10] */
	t_check_int(il_trace_on_cpu(&tr, DEF0, T0 + MS, T0 + 10 * MS), 4 * MS);
	/* within one run, and off throughout */
	t_check_int(il_trace_on_cpu(&tr, DEF0, T0 + 5100 * US, T0 + 5900 * US),
		    800 * US);
	t_check_int(il_trace_on_cpu(&tr, DEF0, T0 + 6 * MS, T0 + 9 * MS), 0);
	t_check_int(il_trace_on_cpu(&tr, DEF0, T0 + 7 * MS, T0 + 8 * MS), 0);
	/* a span starting at a switch in, and one ending at it */
	t_check_int(il_trace_on_cpu(&tr, DEF0, T0 + 5 * MS, T0 + 8 * MS), MS);
	t_check_int(il_trace_on_cpu(&tr, DEF0, T0 + 4 * MS, T0 + 5 * MS), 0);
	/* after the last switch, still on: to the span's end */
	t_check_int(il_trace_on_cpu(&tr, DEF0, T0 + 12 * MS, T0 + 20 * MS),
		    8 * MS);
	/* before the first switch, which is away: on */
	t_check_int(il_trace_on_cpu(&tr, DEF0, T0, T0 + 2 * MS), 2 * MS);
	/* the other task and the fan: off before their first switch in */
	t_check_int(il_trace_on_cpu(&tr, OFF0, T0 + MS, T0 + 4 * MS), MS);
	t_check_int(il_trace_on_cpu(&tr, FAN, T0 + 10 * MS, T0 + 11 * MS), 0);
	/* an empty span; a span ending at a switch away, off after it */
	t_check_int(il_trace_on_cpu(&tr, DEF0, T0 + 2 * MS, T0 + 2 * MS), 0);
	t_check_int(il_trace_on_cpu(&tr, DEF0, T0 + 6 * MS, T0 + 8 * MS), 0);
	/* OFF0 before its first switch, which is to it: off */
	t_check_int(il_trace_on_cpu(&tr, OFF0, T0 + MS, T0 + 2 * MS), 0);
	/* switches missing from the trace: OFF1 switched in twice (on from
	 * the first), FOREIGN switched away twice (off from the first) */
	sw(T0 + 12 * MS, 0, 0, OFF1, 0);
	sw(T0 + 13 * MS, 1, 0, OFF1, 0);
	sw(T0 + 15 * MS, 1, OFF1, 0, 0);
	sw(T0 + 12 * MS, 0, FOREIGN, 0, 0);
	sw(T0 + 14 * MS, 1, FOREIGN, 0, 0);
	il_trace_sort(&tr);
	t_check_int(il_trace_on_cpu(&tr, OFF1, T0 + 11 * MS, T0 + 16 * MS),
		    3 * MS);
	t_check_int(il_trace_on_cpu(&tr, FOREIGN, T0 + 13 * MS, T0 + 15 * MS),
		    0);
	/* what the trace cannot tell */
	t_check(il_trace_on_cpu(&tr, DEF1, T0 + MS, T0 + 2 * MS) == UINT64_MAX);
	t_check(il_trace_on_cpu(&tr, DEF0, T0 - 1, T0 + 2 * MS) == UINT64_MAX);
	t_check(il_trace_on_cpu(&tr, DEF0, T0, T0 + 20 * MS + 1) == UINT64_MAX);
	t_check(il_trace_on_cpu(&tr, DEF0, T0 + 2 * MS, T0 + MS) == UINT64_MAX);
	t_check(il_trace_on_cpu(NULL, DEF0, T0, T0 + MS) == UINT64_MAX);
	t_check(il_trace_on_cpu(&tr, 0, T0, T0 + MS) == UINT64_MAX);
	tr.lost = 1;
	t_check(il_trace_on_cpu(&tr, DEF0, T0 + MS, T0 + 2 * MS) == UINT64_MAX);
	tr.lost = 0;
	tr.t1_ns = 0;
}

/* where il_trace_fill_idle() puts a switch back, and where not */
static void test_fill_idle(void)
{
	const struct il_trace_rec *x;
	size_t k;

	reset();
	t_check_int(il_trace_fill_idle(&tr), 0);
	t_check_int(il_trace_fill_idle(NULL), 0);
	/* no switch: no CPU known, nothing */
	acct(T0, 0, FAN, 5 * US);
	t_check_int(il_trace_fill_idle(&tr), 0);
	t_check_int(tr.filled, 0);
	/* one CPU, idle, then an account there */
	sw(T0 + US, 0, FAN, 0, 0);
	acct(T0 + 10 * US, 0, OFF0, 5 * US);
	il_trace_sort(&tr);
	t_check_int(il_trace_fill_idle(&tr), 0);
	t_check_int(tr.filled, 1);

	reset();
	sw(T0, 0, FAN, 0, 0);
	sw(T0, 1, 0, DEF0, 0);
	/* before CPU 2's first switch its task is not known */
	acct(T0 + 10 * US, 2, OFF0, 5 * US);
	sw(T0 + 20 * US, 2, OFF1, DEF1, 0);
	/* (a) woken at 100 us, accounted 300 us at 500 us: from 200 us */
	wake(T0 + 100 * US, 0, OFF0);
	/* another task's wakeup does not count */
	wake(T0 + 300 * US, 1, FAN);
	acct(T0 + 500 * US, 0, OFF0, 300 * US);
	/* a second account: it runs there now, nothing more */
	acct(T0 + 600 * US, 0, OFF0, 100 * US);
	sw(T0 + MS, 0, OFF0, 0, 0);
	/* (b) an account larger than the time since its wakeup: just
	 * after the wakeup */
	wake(T0 + 1200 * US, 0, OFF1);
	acct(T0 + 1300 * US, 0, OFF1, 500 * US);
	sw(T0 + 1400 * US, 0, OFF1, 0, 0);
	/* (c) no wakeup seen, the account reaching back to the CPU's last
	 * switch: just after it */
	acct(T0 + 1600 * US, 0, FAN, 200 * US);
	sw(T0 + 1700 * US, 0, FAN, 0, 0);
	/* (d) an account too large to record: at the account */
	acct(T0 + 1900 * US, 0, FAN, -1);
	sw(T0 + 2 * MS, 0, FAN, 0, 0);
	/* not filled: defense0 runs on CPU 1 (a read from idle CPU 0);
	 * pid 0; CPU 1 is not idle */
	acct(T0 + 2100 * US, 0, DEF0, 5 * US);
	acct(T0 + 2200 * US, 0, 0, 5 * US);
	acct(T0 + 2300 * US, 1, FAN, 5 * US);
	/* (e) an account reaching back to the wakeup: just after it */
	wake(T0 + 2500 * US, 0, OFF1);
	acct(T0 + 2800 * US, 0, OFF1, 300 * US);
	il_trace_sort(&tr);
	t_check_int(il_trace_fill_idle(&tr), 0);
	t_check_int(tr.filled, 5);
	{
		uint64_t want[5] = { T0 + 200 * US, T0 + 1200 * US + 1,
				     T0 + 1400 * US + 1, T0 + 1900 * US,
				     T0 + 2500 * US + 1 };
		int pid[5] = { OFF0, OFF1, FAN, FAN, OFF1 };
		int got = 0;

		for (k = 0; k < tr.n; k++) {
			x = &tr.rec[k];
			if (x->kind != IL_TR_SWITCH || x->prev_pid != 0 ||
			    x->cpu != 0)
				continue;
			if (got < 5) {
				t_check_int(x->ts, want[got]);
				t_check_int(x->next_pid, pid[got]);
				t_check_int(x->prev_runnable, 1);
			}
			got++;
		}
		t_check_int(got, 5);
	}
	/* in time order */
	for (k = 1; k < tr.n; k++)
		t_check(tr.rec[k - 1].ts <= tr.rec[k].ts);
	/* a second pass finds nothing more */
	t_check_int(il_trace_fill_idle(&tr), 0);
	t_check_int(tr.filled, 5);
}

int main(void)
{
	test_over_pattern();
	test_game();
	test_tolerance();
	test_late();
	test_late_pattern();
	test_dispatch();
	test_steal();
	test_steal_edges();
	test_steal_worst();
	test_worst();
	test_top_n();
	test_ranks();
	test_edges();
	test_repair();
	test_undecided();
	test_args();
	test_stalled();
	test_stalled_behind();
	test_trace_stalls();
	test_trace_stalls_runtime();
	test_run_witness();
	test_missing_switch_in();
	test_fill_idle();
	test_late_ticks();
	test_silence();
	test_woken_current();
	test_on_cpu();
	il_trace_free(&tr);
	return t_done("football");
}
