// SPDX-License-Identifier: MIT
/*
 * The `football` model (model-football.c): a job of two offense, two
 * defense and a fan task plus a fair-class one, judged through
 * il_judge_run on synthetic traces.  Only the real-time tasks rank; the
 * top task's calibration gives the tolerance (its p999, here the max of
 * 100 wakeups of 10 us); a trace with one offense task kept waiting
 * while a defense task runs fails, a clean one passes, none is
 * UNDECIDED with the engine's note.
 */
#include <errno.h>
#include <string.h>

#include <invlab/time.h>

#include "t_judge.h"
#include "t_util.h"

#define MS IL_NSEC_PER_MSEC
#define US IL_NSEC_PER_USEC
#define T0 (1000 * MS)

static const char job[] = "[global]\n"
			  "validate = football\n"
			  "[task bg]\n"
			  "class = other\n"
			  "activation = hog\n"
			  "body = spin 10ms\n"
			  "[task offense0]\n"
			  "class = fifo:30\n"
			  "activation = periodic\n"
			  "period = 10ms\n"
			  "body = run 2ms\n"
			  "[task offense1]\n"
			  "class = fifo:30\n"
			  "activation = periodic\n"
			  "period = 10ms\n"
			  "body = run 2ms\n"
			  "[task defense0]\n"
			  "class = fifo:20\n"
			  "activation = hog\n"
			  "body = spin 10ms\n"
			  "[task fan0]\n"
			  "class = fifo:10\n"
			  "activation = periodic\n"
			  "period = 1ms\n"
			  "body = run 20us\n";

static struct il_trace tr;

static void rec(uint64_t ts, int kind, int cpu, int prev, int next, int run)
{
	struct il_trace_rec r = {
		.ts = ts,
		.kind = (uint8_t)kind,
		.prev_runnable = (uint8_t)run,
		.cpu = (uint16_t)cpu,
		.prev_pid = prev,
		.next_pid = next,
	};

	t_check_int(il_trace_add(&tr, &r), 0);
}

/* 30 rounds: offense0 and offense1 wake and preempt within 5 us; in
 * round bad offense1, queued on CPU 0 behind offense0, waits `late`
 * while defense0 keeps CPU 1; bg (fair, lower than all) runs on CPU 0
 * after offense0 (not counted) */
static void game(int bad, uint64_t late)
{
	il_trace_free(&tr);
	tr.t0_ns = T0;
	rec(T0 + 1 * US, IL_TR_SWITCH, 1, 0, 14, 0);
	for (int k = 0; k < 30; k++) {
		uint64_t t = T0 + MS + (uint64_t)k * 10 * MS;
		uint64_t in1 = k == bad ? late : 5 * US;

		rec(t, IL_TR_WAKEUP, 0, 12, 0, 0);
		/* in round bad offense1 is queued behind offense0 */
		rec(t, IL_TR_WAKEUP, k == bad ? 0 : 1, 13, 0, 0);
		rec(t + 5 * US, IL_TR_SWITCH, 0, 0, 12, 0);
		rec(t + in1, IL_TR_SWITCH, 1, 14, 13, 1);
		rec(t + in1 + 2 * MS, IL_TR_SWITCH, 1, 13, 14, 0);
		rec(t + 5 * US + 2 * MS, IL_TR_SWITCH, 0, 12, 11, 0);
		rec(t + 3 * MS, IL_TR_SWITCH, 0, 11, 0, 1);
	}
	il_trace_sort(&tr);
	tr.t1_ns = T0 + 400 * MS;
}

static void reset(void)
{
	t_run_reset(job);
	for (int i = 0; i < t_sc.ntasks; i++)
		t_er.tasks[i].tid = 11 + i;
	t_env.ncpus = 2;
	t_er.trace = &tr;
}

static void test_model(void)
{
	struct il_judged ck[4];
	bool need[IL_MAX_TASKS];
	char why[256] = "";
	unsigned mask = 0;
	int n = 0;

	reset();
	t_check_int(il_judge_validators(&t_sc, &mask, why, sizeof(why)), 0);
	t_check_int(mask, IL_JUDGE_FOOTBALL);
	/* the top task's calibration, the first of two as high */
	il_judge_calib_needed(&t_sc, &t_er, mask, need);
	for (int i = 0; i < t_sc.ntasks; i++)
		t_check_int(need[i], i == t_task("offense0"));

	game(-1, 0);
	t_check_int(t_judge(mask, ck, 4, &n, why, sizeof(why)), 0);
	t_check_int(n, 1);
	t_check_str(ck[0].validator, "football");
	t_check_str(ck[0].task, "top 2");
	t_check_int(ck[0].c.verdict, IL_PASS);
	t_check_int(ck[0].expected, IL_PASS);
	t_check_contains(ck[0].c.evidence, "the top 2 always ran within");

	game(4, 400 * US);
	n = 0;
	t_check_int(t_judge(mask, ck, 4, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.verdict, IL_FAIL);
	t_check_contains(ck[0].c.evidence,
			 "offense1 waited 400us from 41.0ms into the trace");
	t_check_contains(ck[0].c.evidence, "while defense0 (lower) ran on "
					   "CPU 1");

	/* no trace: the engine's note says why */
	t_er.trace = NULL;
	snprintf(t_er.trace_note, sizeof(t_er.trace_note),
		 "no trace (tracing needs root)");
	n = 0;
	t_check_int(t_judge(mask, ck, 4, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.verdict, IL_UNDECIDED);
	t_check_contains(ck[0].c.evidence, "tracing needs root");
}

/*
 * offense1, woken on CPU 1 in round 4, waits 1.5 ms there while
 * defense0 runs (over half of its 2 ms job: a FAIL by itself);
 * defense0's run-time account of the wait is 10 us.  With a tolerance
 * of 100 us the account sets it aside, but only when the kernel is
 * known to take nothing but steal off run time (env.run_witness).
 */
static void test_run_witness(void)
{
	struct il_judged ck[4];
	struct il_hist calib;
	char why[256] = "";
	int n = 0;
	uint64_t t = T0 + MS + 4 * 10 * MS, late = 1500 * US;

	reset();
	game(-1, 0);
	/* round 4 again: offense1's switch in comes late */
	for (size_t k = 0; k < tr.n; k++)
		if (tr.rec[k].kind == IL_TR_SWITCH && tr.rec[k].cpu == 1 &&
		    tr.rec[k].ts > t && tr.rec[k].ts < t + 3 * MS)
			tr.rec[k].ts += late;
	rec(t, IL_TR_RUNTIME, 1, 14, 20 * US, 0);
	rec(t + late, IL_TR_RUNTIME, 1, 14, 10 * US, 0);
	il_trace_sort(&tr);
	il_hist_init(&calib);
	for (int i = 0; i < 100; i++)
		il_hist_record(&calib, 100 * US);
	t_env.calib[t_task("offense0")] = &calib;
	t_check_int(t_judge(IL_JUDGE_FOOTBALL, ck, 4, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.verdict, IL_FAIL);
	t_check_contains(ck[0].c.evidence, "offense1 waited 1.51ms");
	t_env.run_witness = true;
	n = 0;
	t_check_int(t_judge(IL_JUDGE_FOOTBALL, ck, 4, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.verdict, IL_UNDECIDED);
	t_check_contains(ck[0].c.evidence, "1 wait past");
	t_check_contains(ck[0].c.evidence, "offense1 waited 1.51ms");
	t_env.run_witness = false;
	t_env.calib[t_task("offense0")] = NULL;
}

/*
 * Round 4 of game(): offense1 waits 400 us on CPU 0 behind offense0
 * while defense0 runs on CPU 1, whose run-time account shows 10 us of
 * it run: the CPU it could have moved to stalled.  Placement any: not
 * shown to be the scheduler's (UNDECIDED: the witness excuses, never
 * passes); pinned: it could not have moved there (FAIL).
 */
static void test_stalled_behind(void)
{
	struct il_judged ck[4];
	struct il_hist calib;
	char why[256] = "";
	int n = 0, o1;
	uint64_t t = T0 + MS + 4 * 10 * MS;

	reset();
	o1 = t_task("offense1");
	game(4, 400 * US);
	rec(t, IL_TR_RUNTIME, 1, 14, 20 * US, 0);
	rec(t + 399 * US, IL_TR_RUNTIME, 1, 14, 10 * US, 0);
	il_trace_sort(&tr);
	il_hist_init(&calib);
	for (int i = 0; i < 100; i++)
		il_hist_record(&calib, 100 * US);
	t_env.calib[t_task("offense0")] = &calib;
	t_env.run_witness = true;
	t_check_int(t_judge(IL_JUDGE_FOOTBALL, ck, 4, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.verdict, IL_UNDECIDED);
	t_check_contains(ck[0].c.evidence, "or could have moved to, stalled");
	t_check_contains(ck[0].c.evidence, "offense1 waited 400us");
	t_sc.tasks[o1].place = IL_PLACE_CPUS;
	n = 0;
	t_check_int(t_judge(IL_JUDGE_FOOTBALL, ck, 4, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.verdict, IL_FAIL);
	t_check_contains(ck[0].c.evidence, "offense1 waited 400us");
	t_env.run_witness = false;
	t_env.calib[t_task("offense0")] = NULL;
}

static void test_inputs(void)
{
	struct il_judged ck[4];
	struct il_hist slow;
	char why[256] = "";
	int n = 0;

	/* a tolerance over half of one offense job (2 ms) */
	reset();
	game(-1, 0);
	il_hist_init(&slow);
	for (int i = 0; i < 100; i++)
		il_hist_record(&slow, 1100 * US);
	t_env.calib[t_task("offense0")] = &slow;
	t_check_int(t_judge(IL_JUDGE_FOOTBALL, ck, 4, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.verdict, IL_UNDECIDED);
	t_check_contains(ck[0].c.evidence, "of the 2.00ms an inversion");

	reset();
	t_env.calib[t_task("offense0")] = NULL;
	n = 0;
	t_check_int(t_judge(IL_JUDGE_FOOTBALL, ck, 4, &n, why, sizeof(why)),
		    -EINVAL);
	t_check_contains(why, "no calibration of offense0's wakeup latency");
	t_check_int(n, 0);
	reset();
	t_env.ncpus = 0;
	t_check_int(t_judge(IL_JUDGE_FOOTBALL, ck, 4, &n, why, sizeof(why)),
		    -EINVAL);
	reset();
	t_check_int(t_judge(IL_JUDGE_FOOTBALL, ck, 0, &n, why, sizeof(why)),
		    -ENOSPC);

	/* N is the CPUs the real-time tasks may use, at most those online */
	reset();
	game(-1, 0);
	for (int i = 1; i < t_sc.ntasks; i++)
		t_check_int(il_scenario_setf(&t_sc, why, sizeof(why),
					     "%s.cpu=%s", t_sc.tasks[i].name,
					     i == 1 ? "0" : "2-3"),
			    0);
	t_env.ncpus = 4;
	n = 0;
	t_check_int(t_judge(IL_JUDGE_FOOTBALL, ck, 4, &n, why, sizeof(why)), 0);
	t_check_str(ck[0].task, "top 3");
	t_env.ncpus = 3;
	n = 0;
	t_check_int(t_judge(IL_JUDGE_FOOTBALL, ck, 4, &n, why, sizeof(why)), 0);
	t_check_str(ck[0].task, "top 3");
	t_env.ncpus = 2;
	n = 0;
	t_check_int(t_judge(IL_JUDGE_FOOTBALL, ck, 4, &n, why, sizeof(why)), 0);
	t_check_str(ck[0].task, "top 2");
	/* a fair task anywhere does not count; a real-time one does */
	t_env.ncpus = 4;
	t_check_int(il_scenario_setf(&t_sc, why, sizeof(why), "bg.cpu=any"), 0);
	n = 0;
	t_check_int(t_judge(IL_JUDGE_FOOTBALL, ck, 4, &n, why, sizeof(why)), 0);
	t_check_str(ck[0].task, "top 3");
	t_check_int(
		il_scenario_setf(&t_sc, why, sizeof(why), "fan0.cpu=node:0"),
		0);
	n = 0;
	t_check_int(t_judge(IL_JUDGE_FOOTBALL, ck, 4, &n, why, sizeof(why)), 0);
	t_check_str(ck[0].task, "top 4");

	/* no real-time task at all */
	t_run_reset("[global]\nvalidate = football\n[task a]\nbody = run "
		    "1ms\n");
	n = 0;
	t_check_int(t_judge(IL_JUDGE_FOOTBALL, ck, 4, &n, why, sizeof(why)),
		    -EINVAL);
	t_check_contains(why, "no real-time task");
	/* a deadline task is above the real-time ones, not one of them */
	t_run_reset("[global]\nvalidate = football\n[task d]\nclass = "
		    "deadline:1ms/10ms\nbody = run 100us\n[task a]\nclass = "
		    "fifo:5\nbody = run 1ms\n");
	{
		bool need[IL_MAX_TASKS];

		il_judge_calib_needed(&t_sc, &t_er, IL_JUDGE_FOOTBALL, need);
		t_check(!need[t_task("d")]);
		t_check(need[t_task("a")]);
	}
}

int main(void)
{
	test_model();
	test_run_witness();
	test_stalled_behind();
	test_inputs();
	il_trace_free(&tr);
	t_er.trace = NULL;
	return t_done("judge-football");
}
