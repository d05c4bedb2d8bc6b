// SPDX-License-Identifier: MIT
/*
 * The judge (judge.h) on synthetic scenarios and engine results: which
 * validators a job names, which calibrations they need, and every
 * verdict of the pi and chain models, with the inputs each builds (the
 * bound from the lower tasks' sections, the ceiling when all locks
 * protect, the chain's head, owners, hops and interferers) and the cases
 * where there is nothing to judge.  No kernel, no timing.
 */
#include <errno.h>
#include <string.h>

#include <invlab/hist.h>
#include <invlab/judge.h>
#include <invlab/noise.h>
#include <invlab/time.h>

#include "t_judge.h"
#include "t_util.h"

#define MS IL_NSEC_PER_MSEC
#define US IL_NSEC_PER_USEC

static struct il_judged ck[32];
static char why[512];

static void set(const char *assignment)
{
	char err[256];

	if (il_scenario_set(&t_sc, assignment, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		t_check(0);
	}
}

/* ---- validators, calibrations, noise -------------------------------- */

static const char pi_job[] = "[global]\n"
			     "validate = pi\n"
			     "[resource M]\n"
			     "protocol = inherit\n"
			     "[task low]\n"
			     "class = fifo:10\n"
			     "cpu = 1\n"
			     "body = lock M, run 2ms, unlock M\n"
			     "[task high]\n"
			     "class = fifo:30\n"
			     "cpu = 1\n"
			     "body = lock M, unlock M\n"
			     "[task medium]\n"
			     "class = fifo:20\n"
			     "cpu = 1\n"
			     "body = run 1ms\n";

static const char nested_job[] = "[global]\n"
				 "validate = auto\n"
				 "[resource A]\n"
				 "[resource B]\n"
				 "[task t1]\n"
				 "class = fifo:30\n"
				 "body = lock A, unlock A\n"
				 "[task t2]\n"
				 "class = fifo:20\n"
				 "body = lock A, lock B, unlock B, unlock A\n"
				 "[task t3]\n"
				 "class = fifo:10\n"
				 "body = lock B, run 1ms, unlock B\n";

static void test_validators(void)
{
	unsigned mask = 99;
	char err[256];

	t_run_reset(pi_job);
	t_check_int(il_judge_validators(&t_sc, &mask, err, sizeof(err)), 0);
	t_check_int(mask, IL_JUDGE_PI);
	set("validate= chain , mbwi");
	t_check_int(il_judge_validators(&t_sc, &mask, err, sizeof(err)), 0);
	t_check_int(mask, IL_JUDGE_CHAIN | IL_JUDGE_MBWI);
	set("validate=none");
	t_check_int(il_judge_validators(&t_sc, &mask, err, sizeof(err)), 0);
	t_check_int(mask, 0);
	/* auto: not chain-shaped (sections one after the other) is pi */
	set("validate=auto");
	set("high.body=lock M, unlock M, lock M, unlock M");
	t_check_int(il_judge_validators(&t_sc, &mask, err, sizeof(err)), 0);
	t_check_int(mask, IL_JUDGE_PI);
	set("validate=auto,mbwi");
	t_check_int(il_judge_validators(&t_sc, &mask, err, sizeof(err)), 0);
	t_check_int(mask, IL_JUDGE_PI | IL_JUDGE_MBWI);
	set("validate=pix");
	t_check_int(il_judge_validators(&t_sc, &mask, err, sizeof(err)),
		    -EINVAL);
	t_check_int(mask, 0);
	t_check_contains(err, "test.job: validate: unknown validator 'pix'");
	set("validate=p");
	t_check_int(il_judge_validators(&t_sc, &mask, err, sizeof(err)),
		    -EINVAL);
	/* only the unknown name is quoted */
	set("validate=pix,chain");
	t_check_int(il_judge_validators(&t_sc, &mask, err, sizeof(err)),
		    -EINVAL);
	t_check_contains(err, "unknown validator 'pix' (pi, chain");
	/* auto on a nested body: a chain */
	t_run_reset(nested_job);
	t_check_int(il_judge_validators(&t_sc, &mask, err, sizeof(err)), 0);
	t_check_int(mask, IL_JUDGE_CHAIN);
}

static void test_calibrations(void)
{
	struct il_judge_calib c;
	bool need[IL_MAX_TASKS];
	int low, high, medium;

	t_run_reset(pi_job);
	low = t_task("low");
	high = t_task("high");
	medium = t_task("medium");
	t_er.tasks[high].cpu = 1;
	t_er.tasks[low].hold_max[0] = 2 * MS;
	t_run_waits(high, 0, 30, MS, 0, 0);
	t_run_waits(low, 0, 30, MS, 0, 0);
	il_judge_calib_needed(&t_sc, &t_er, IL_JUDGE_PI, need);
	t_check(need[high]);
	t_check(!need[low]);
	t_check(!need[medium]);
	t_check(!il_judge_calib_any_needed(&t_sc, IL_JUDGE_PI));
	t_check(il_judge_calib_any_needed(&t_sc, IL_JUDGE_MBWI));
	il_judge_calib_needed(&t_sc, &t_er, 0, need);
	t_check(!need[high]);
	/* chain: the head */
	il_judge_calib_needed(&t_sc, &t_er, IL_JUDGE_CHAIN, need);
	t_check(need[high]);
	t_check(!need[low]);

	il_judge_calib_of(&t_sc, &t_er, high, &c);
	t_check_int(c.cpu, 1);
	t_check_int(c.sched.policy, IL_SCHED_FIFO);
	t_check_int(c.sched.prio, 30);
	t_check_int(c.samples, 1000);
	t_check_int(c.period_ns, 200 * US);
	il_judge_calib_of(&t_sc, &t_er, -1, &c);
	t_check_int(c.cpu, -1);
	t_check_int(c.sched.policy, IL_SCHED_FIFO);
	t_check_int(c.sched.prio, 98);
	/* the first task is a task like any other, the last one too; one
	 * past it is none */
	t_er.tasks[0].cpu = 1;
	il_judge_calib_of(&t_sc, &t_er, 0, &c);
	t_check_int(c.cpu, 1);
	t_check_int(c.sched.prio, t_sc.tasks[0].sched.prio);
	il_judge_calib_of(&t_sc, &t_er, t_sc.ntasks, &c);
	t_check_int(c.cpu, -1);
	t_check_int(c.sched.prio, 98);
}

static void test_noise(void)
{
	struct il_hist h;

	t_check_int(il_noise_ns(NULL), 0);
	il_hist_init(&h);
	t_check_int(il_noise_ns(&h), 0);
	t_check_int(il_noise_outlier_ns(&h, MS), 0);
	t_check_int(il_noise_outlier_ns(NULL, MS), 0);
	/* too few for a p90: the max */
	for (int k = 0; k < 4; k++)
		il_hist_record(&h, 1000);
	il_hist_record(&h, MS);
	t_check_int(il_noise_ns(&h), MS);
	/* p90 of 90 x 1 us and 10 x 1 ms: the 1 us bucket's top */
	il_hist_init(&h);
	for (int k = 0; k < 90; k++)
		il_hist_record(&h, 1000);
	for (int k = 0; k < 10; k++)
		il_hist_record(&h, MS);
	t_check_int(il_noise_ns(&h), 1003);
	/* p999 of 100 samples is their max, capped by the bound */
	t_check_int(il_noise_outlier_ns(&h, 10 * MS), MS);
	t_check_int(il_noise_outlier_ns(&h, 500 * US), 500 * US);
}

static void test_run_inputs(void)
{
	int n = 7;

	t_run_reset(pi_job);
	t_er.ntasks = 2;
	t_check_int(t_judge(IL_JUDGE_PI, ck, 32, &n, why, sizeof(why)),
		    -EINVAL);
	t_check_int(n, 0);
	t_check_contains(why, "malformed input");
	t_check_int(il_judge_run(&t_sc, &t_er, &t_env, IL_JUDGE_PI, ck, 32,
				 NULL, why, sizeof(why)),
		    -EINVAL);
}

/* ---- pi --------------------------------------------------------------- */

static void pi_run(int high_waits, uint64_t delay, uint64_t lower)
{
	int low = t_task("low"), high = t_task("high");

	t_er.tasks[low].cpu = t_er.tasks[high].cpu = 1;
	/* the task's own longer section is not a lower task's */
	t_er.tasks[high].hold_max[0] = 7 * MS;
	t_er.tasks[low].hold_max[0] = 2 * MS;
	t_run_waits(high, 0, high_waits, delay, 0, lower);
	t_run_waits(low, 0, 30, 10 * US, 0, 0);
}

static void test_pi(void)
{
	int n, high;

	/* the bound: the lower task's longest section; PASS */
	t_run_reset(pi_job);
	high = t_task("high");
	pi_run(30, 1500 * US, 0);
	t_check_int(t_judge(IL_JUDGE_PI, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(n, 1);
	t_check_str(ck[0].validator, "pi");
	t_check_str(ck[0].task, "high");
	t_check_int(ck[0].c.verdict, IL_PASS);
	t_check_int(ck[0].expected, IL_PASS);
	t_check_str(ck[0].c.bound_name, "priority inheritance (one CPU)");
	t_check_int(ck[0].c.bound_ns, 2 * MS);
	t_check_int(ck[0].c.noise_ns, il_noise_ns(&t_calib));

	/* waits past it with hog time: FAIL; the job's expect applies */
	t_run_reset(pi_job);
	pi_run(30, 3 * MS, MS);
	set("expect=FAIL");
	t_check_int(t_judge(IL_JUDGE_PI, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(n, 1);
	t_check_int(ck[0].c.verdict, IL_FAIL);
	t_check_int(ck[0].expected, IL_FAIL);
	set("expect=UNDECIDED");
	t_check_int(t_judge(IL_JUDGE_PI, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].expected, IL_UNDECIDED);

	/* work around the section does not make a lock of it */
	t_run_reset(pi_job);
	set("high.body=run 100us, lock M, run 100us, unlock M, sleep 1ms");
	pi_run(30, 1500 * US, 0);
	t_check_int(t_judge(IL_JUDGE_PI, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(n, 1);
	t_check_str(ck[0].c.bound_name, "priority inheritance (one CPU)");
	t_check_int(ck[0].c.bound_ns, 2 * MS);
	set("M.protocol=protect");
	t_check_int(t_judge(IL_JUDGE_PI, ck, 32, &n, why, sizeof(why)), 0);
	t_check_str(ck[0].c.bound_name, "immediate priority ceiling (one CPU)");
	t_check_int(ck[0].c.bound_ns, 2 * MS);

	/* 19 waits are too few, 20 are enough */
	t_run_reset(pi_job);
	pi_run(19, 1500 * US, 0);
	t_check_int(t_judge(IL_JUDGE_PI, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.verdict, IL_UNDECIDED);
	t_run_reset(pi_job);
	pi_run(20, 1500 * US, 0);
	t_check_int(t_judge(IL_JUDGE_PI, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.verdict, IL_PASS);

	/* no calibration: no verdict, and why */
	t_run_reset(pi_job);
	pi_run(30, 1500 * US, 0);
	t_env.calib[high] = NULL;
	t_check_int(t_judge(IL_JUDGE_PI, ck, 32, &n, why, sizeof(why)),
		    -EINVAL);
	t_check_int(n, 0);
	t_check_contains(why, "pi high: no calibration");

	/* no room: -ENOSPC, nothing half-judged */
	t_run_reset(pi_job);
	pi_run(30, 1500 * US, 0);
	t_check_int(t_judge(IL_JUDGE_PI, ck, 0, &n, why, sizeof(why)), -ENOSPC);
	t_check_int(n, 0);
	t_check_int(t_judge(IL_JUDGE_PI, ck, 1, &n, why, sizeof(why)), 0);
	t_check_int(n, 1);
}

static void test_pi_lower(void)
{
	int n, peer, rr, high;

	/* a task of the same priority is not lower: its section does not
	 * count; a lower RR task's does */
	t_run_reset(pi_job);
	set("medium.body=lock M, run 1ms, unlock M");
	set("medium.class=fifo:30");
	pi_run(30, 1500 * US, 0);
	peer = t_task("medium");
	t_er.tasks[peer].hold_max[0] = 5 * MS;
	t_check_int(t_judge(IL_JUDGE_PI, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(n, 1);
	t_check_int(ck[0].c.bound_ns, 2 * MS);
	set("medium.class=rr:20");
	rr = t_task("medium");
	t_er.tasks[rr].hold_max[0] = 5 * MS;
	t_check_int(t_judge(IL_JUDGE_PI, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.bound_ns, 5 * MS);

	/* an RR task is real-time: judged like a FIFO one */
	t_run_reset(pi_job);
	set("high.class=rr:30");
	pi_run(30, 1500 * US, 0);
	t_check_int(t_judge(IL_JUDGE_PI, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(n, 1);
	t_check_str(ck[0].task, "high");
	t_check_int(ck[0].c.bound_ns, 2 * MS);
	/* a deadline task ranks above every FIFO priority */
	t_run_reset(pi_job);
	set("low.class=fifo:99");
	set("high.class=deadline:5ms/10ms/10ms");
	set("high.cpu=any");
	pi_run(30, 1500 * US, 0);
	t_check_int(t_judge(IL_JUDGE_PI, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(n, 1);
	t_check_str(ck[0].task, "high");

	/* no lower task: no check, no calibration needed */
	t_run_reset(pi_job);
	set("low.body=run 2ms");
	pi_run(30, 1500 * US, 0);
	t_er.tasks[t_task("low")].nlocks = 0;
	t_er.tasks[t_task("low")].hold_max[0] = 0;
	t_check_int(t_judge(IL_JUDGE_PI, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(n, 0);
	/* a lower task that locks but never held it: none either */
	t_run_reset(pi_job);
	pi_run(30, 1500 * US, 0);
	t_er.tasks[t_task("low")].hold_max[0] = 0;
	t_check_int(t_judge(IL_JUDGE_PI, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(n, 0);
	{
		bool need[IL_MAX_TASKS];

		il_judge_calib_needed(&t_sc, &t_er, IL_JUDGE_PI, need);
		for (int i = 0; i < t_sc.ntasks; i++)
			t_check(!need[i]);
	}
	/* a fair-class task is not judged, though it is lower than all */
	t_run_reset(pi_job);
	set("high.class=other");
	pi_run(30, 1500 * US, 0);
	t_check_int(t_judge(IL_JUDGE_PI, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(n, 1);
	t_check_str(ck[0].task, "low");
	t_check_int(ck[0].c.bound_ns, 7 * MS);
	/* nor one without lock results */
	t_run_reset(pi_job);
	pi_run(30, 1500 * US, 0);
	high = t_task("high");
	t_er.tasks[high].nlocks = 0;
	t_check_int(t_judge(IL_JUDGE_PI, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(n, 0);
}

static const char ceil_job[] = "[global]\n"
			       "validate = pi\n"
			       "[resource A]\n"
			       "protocol = protect\n"
			       "ceiling = 30\n"
			       "[resource B]\n"
			       "protocol = protect\n"
			       "[task high]\n"
			       "class = fifo:30\n"
			       "cpu = 1\n"
			       "body = lock A, unlock A, lock B, unlock B\n"
			       "[task low1]\n"
			       "class = fifo:10\n"
			       "cpu = 1\n"
			       "body = lock A, run 1ms, unlock A\n"
			       "[task low2]\n"
			       "class = fifo:20\n"
			       "cpu = 1\n"
			       "body = lock B, run 1ms, unlock B\n";

static void ceil_run(void)
{
	int high = t_task("high");

	t_er.tasks[t_task("low1")].hold_max[0] = 4 * MS;
	t_er.tasks[t_task("low2")].hold_max[1] = 5 * MS;
	t_run_waits(high, 0, 30, 1500 * US, 0, 0);
}

static void test_ceiling(void)
{
	int n;

	/* all protect: one section, the longest on a lock whose ceiling
	 * reaches the task (B's ceiling 0 is the highest priority) */
	t_run_reset(ceil_job);
	ceil_run();
	t_check_int(t_judge(IL_JUDGE_PI, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(n, 1);
	t_check_str(ck[0].c.bound_name, "immediate priority ceiling (one CPU)");
	t_check_int(ck[0].c.bound_ns, 5 * MS);
	/* one lock inherits: the inheritance bound over both */
	set("B.protocol=inherit");
	t_check_int(t_judge(IL_JUDGE_PI, ck, 32, &n, why, sizeof(why)), 0);
	t_check_str(ck[0].c.bound_name, "priority inheritance (one CPU)");
	t_check_int(ck[0].c.bound_ns, 9 * MS);
	/* and when the other does */
	set("B.protocol=protect");
	set("A.protocol=none");
	t_check_int(t_judge(IL_JUDGE_PI, ck, 32, &n, why, sizeof(why)), 0);
	t_check_str(ck[0].c.bound_name, "priority inheritance (one CPU)");
}

/* ---- chain ------------------------------------------------------------ */

static const char chain_job[] =
	"[global]\n"
	"validate = chain\n"
	"[resource A]\n"
	"[resource B]\n"
	"[task t3]\n"
	"class = fifo:10\n"
	"cpu = 1\n"
	"body = lock B, run 2ms, unlock B\n"
	"[task t1]\n"
	"class = fifo:30\n"
	"cpu = 0\n"
	"body = lock A, unlock A\n"
	"[task t2]\n"
	"class = fifo:20\n"
	"cpu = 1\n"
	"body = lock A, run 1ms, lock B, run 1ms, unlock B, unlock A\n"
	"[task hog]\n"
	"class = fifo:25\n"
	"cpu = 1\n"
	"body = run 1ms\n";

/* the same chain with its head first in the file (task 0) */
static const char chain_job_head_first[] =
	"[global]\n"
	"validate = chain\n"
	"[resource A]\n"
	"[resource B]\n"
	"[task t1]\n"
	"class = fifo:30\n"
	"cpu = 0\n"
	"body = lock A, unlock A\n"
	"[task t3]\n"
	"class = fifo:10\n"
	"cpu = 1\n"
	"body = lock B, run 2ms, unlock B\n"
	"[task t2]\n"
	"class = fifo:20\n"
	"cpu = 1\n"
	"body = lock A, run 1ms, lock B, run 1ms, unlock B, unlock A\n"
	"[task hog]\n"
	"class = fifo:25\n"
	"cpu = 1\n"
	"body = run 1ms\n";

static void chain_run(void)
{
	int t1 = t_task("t1"), t2 = t_task("t2"), t3 = t_task("t3");
	int hog = t_task("hog");

	t_er.tasks[t1].cpu = 0;
	t_er.tasks[t2].cpu = 1;
	t_er.tasks[t3].cpu = 1;
	t_er.tasks[hog].cpu = 1;
	t_er.tasks[t2].hold_max[0] = 2 * MS;
	t_er.tasks[t2].hold_max[1] = MS;
	t_er.tasks[t3].hold_max[1] = 3 * MS;
	t_run_waits(t1, 0, 30, 4 * MS, 0, 0);
	/* a 1000 Hz kernel: a tick per hop stays well under the bound */
	t_env.tick_ns = MS;
}

static void test_chain(void)
{
	uint64_t eps = il_noise_ns(&t_calib);
	int n;

	/* head t1 (the highest, not the first), owners t2 then t3: the
	 * transitive bound, one hop (t1's CPU to t2's) */
	t_run_reset(chain_job);
	chain_run();
	t_check_int(t_judge(IL_JUDGE_CHAIN, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(n, 1);
	t_check_str(ck[0].validator, "chain");
	t_check_str(ck[0].task, "t1");
	t_check_int(ck[0].c.verdict, IL_PASS);
	t_check_int(ck[0].expected, IL_PASS);
	t_check_int(ck[0].c.bound_ns, 5 * MS);
	t_check_contains(ck[0].c.evidence,
			 "transitive priority inheritance, 2 links");
	t_check_int(ck[0].c.noise_ns, 2 * eps + MS);
	/* the head as task 0: a lower task after it does not take over */
	t_run_reset(chain_job_head_first);
	chain_run();
	t_check_int(t_judge(IL_JUDGE_CHAIN, ck, 32, &n, why, sizeof(why)), 0);
	t_check_str(ck[0].task, "t1");
	t_check_int(ck[0].c.verdict, IL_PASS);
	t_check_int(ck[0].c.bound_ns, 5 * MS);
	t_run_reset(chain_job);
	chain_run();
	/* the tail on a third CPU: two hops */
	t_er.tasks[t_task("t3")].cpu = 2;
	t_check_int(t_judge(IL_JUDGE_CHAIN, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.noise_ns, 3 * eps + 2 * MS);
	/* an owner on no single CPU is a hop too, and so is the next
	 * lock handed from it */
	t_er.tasks[t_task("t3")].cpu = 1;
	t_er.tasks[t_task("t2")].cpu = -1;
	t_check_int(t_judge(IL_JUDGE_CHAIN, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.noise_ns, 3 * eps + 2 * MS);
	/* everything on the head's CPU: no hop */
	t_run_reset(chain_job);
	chain_run();
	t_er.tasks[t_task("t1")].cpu = 1;
	t_check_int(t_judge(IL_JUDGE_CHAIN, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.noise_ns, eps);
	/* the same on CPU 0: CPU 0 is a CPU like another */
	for (int i = 0; i < t_sc.ntasks; i++)
		t_er.tasks[i].cpu = 0;
	t_check_int(t_judge(IL_JUDGE_CHAIN, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.noise_ns, eps);
	/* an owner that releases another lock while it holds the head's:
	 * it still holds it, and the chain goes on through B */
	t_run_reset(chain_job);
	set("t2.body=lock B, lock A, unlock B, run 1ms, lock B, run 1ms, "
	    "unlock B, unlock A");
	chain_run();
	t_check_int(t_judge(IL_JUDGE_CHAIN, ck, 32, &n, why, sizeof(why)), 0);
	t_check_contains(ck[0].c.evidence, "2 links");
	/* a 250 Hz kernel: the hop's tick is 4 ms of a 5 ms bound, too
	 * much for the check to tell a working protocol from a broken one */
	t_run_reset(chain_job);
	chain_run();
	t_env.tick_ns = 4 * MS;
	t_check_int(t_judge(IL_JUDGE_CHAIN, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.noise_ns, 2 * eps + 4 * MS);
	t_check_int(ck[0].c.verdict, IL_UNDECIDED);
	t_check_contains(ck[0].c.evidence, "swamps the bound 5.00ms");
	/* a violation beyond that allowance is still a FAIL */
	t_run_waits(t_task("t1"), 0, 30, 12 * MS, 0, 3 * MS);
	t_check_int(t_judge(IL_JUDGE_CHAIN, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.verdict, IL_FAIL);

	/* waits past the bound with hog time: FAIL */
	t_run_reset(chain_job);
	chain_run();
	t_run_waits(t_task("t1"), 0, 30, 12 * MS, 0, 3 * MS);
	t_check_int(t_judge(IL_JUDGE_CHAIN, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.verdict, IL_FAIL);
	/* too few waits: UNDECIDED */
	t_run_reset(chain_job);
	chain_run();
	t_run_waits(t_task("t1"), 0, 19, 4 * MS, 0, 0);
	t_check_int(t_judge(IL_JUDGE_CHAIN, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.verdict, IL_UNDECIDED);

	/* the head's first lock after other work */
	t_run_reset(chain_job);
	set("t1.body=run 100us, lock A, unlock A");
	chain_run();
	t_check_int(t_judge(IL_JUDGE_CHAIN, ck, 32, &n, why, sizeof(why)), 0);
	t_check_str(ck[0].task, "t1");
	t_check_int(ck[0].c.bound_ns, 5 * MS);

	/* sections one after the other: a chain of one link */
	t_run_reset(chain_job);
	set("t2.body=lock A, run 1ms, unlock A, lock B, run 1ms, unlock B");
	chain_run();
	t_check_int(t_judge(IL_JUDGE_CHAIN, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.bound_ns, 2 * MS);
	t_check_contains(ck[0].c.evidence, "1 link");

	/* a task at the head's priority is no owner */
	t_run_reset(chain_job);
	set("hog.class=fifo:30");
	set("hog.cpu=2");
	set("hog.body=lock B, unlock B");
	chain_run();
	t_er.tasks[t_task("hog")].cpu = 2;
	t_check_int(t_judge(IL_JUDGE_CHAIN, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.verdict, IL_PASS);
	t_check_int(ck[0].c.bound_ns, 5 * MS);

	/* no calibration of the head: no verdict */
	t_run_reset(chain_job);
	chain_run();
	t_env.calib[t_task("t1")] = NULL;
	t_check_int(t_judge(IL_JUDGE_CHAIN, ck, 32, &n, why, sizeof(why)),
		    -EINVAL);
	t_check_int(n, 0);
	t_check_contains(why, "chain t1: no calibration");
}

static void test_chain_interferers(void)
{
	int n;

	/* a hog between the owners and the head: inheritance defeats it */
	t_run_reset(chain_job);
	chain_run();
	t_check_int(t_judge(IL_JUDGE_CHAIN, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.verdict, IL_PASS);
	/* above the head on an owner's CPU, never yielding: no bound */
	set("hog.class=fifo:40");
	t_check_int(t_judge(IL_JUDGE_CHAIN, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.verdict, IL_UNDECIDED);
	t_check_contains(ck[0].c.evidence, "bound does not apply");
	/* a spinning one is as much a hog */
	set("hog.body=spin 1ms");
	t_check_int(t_judge(IL_JUDGE_CHAIN, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.verdict, IL_UNDECIDED);
	/* one that only sleeps does no work there */
	set("hog.body=sleep 1ms");
	t_check_int(t_judge(IL_JUDGE_CHAIN, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.verdict, IL_PASS);
	/* one on no single CPU is not counted on an owner's */
	set("hog.body=run 1ms");
	t_er.tasks[t_task("hog")].cpu = -1;
	t_check_int(t_judge(IL_JUDGE_CHAIN, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.verdict, IL_PASS);
	/* on a CPU no owner uses: not counted */
	t_er.tasks[t_task("hog")].cpu = 0;
	t_check_int(t_judge(IL_JUDGE_CHAIN, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.verdict, IL_PASS);
}

static void test_chain_does_not_apply(void)
{
	int n;

	/* nobody locks */
	t_run_reset("[global]\nvalidate = chain\n[task a]\nclass = fifo:10\n"
		    "body = run 1ms\n");
	t_check_int(t_judge(IL_JUDGE_CHAIN, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(n, 1);
	t_check_str(ck[0].task, "-");
	t_check_int(ck[0].c.verdict, IL_UNDECIDED);
	t_check_int(ck[0].expected, IL_PASS);
	t_check_str(ck[0].c.evidence,
		    "bound does not apply: no task takes a lock");
	/* the head's lock has no owner below it */
	t_run_reset(chain_job);
	set("t2.body=run 1ms");
	chain_run();
	t_check_int(t_judge(IL_JUDGE_CHAIN, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.verdict, IL_UNDECIDED);
	t_check_str(ck[0].c.evidence, "bound does not apply: resource 'A' "
				      "has no owner below the head");
	/* two owners below it */
	t_run_reset(chain_job);
	set("t3.body=lock A, unlock A, lock B, run 2ms, unlock B");
	chain_run();
	t_check_int(t_judge(IL_JUDGE_CHAIN, ck, 32, &n, why, sizeof(why)), 0);
	t_check_int(ck[0].c.verdict, IL_UNDECIDED);
	t_check_str(ck[0].c.evidence, "bound does not apply: resource 'A' "
				      "has more than one owner below the head");
	/* no room for even that */
	t_check_int(t_judge(IL_JUDGE_CHAIN, ck, 0, &n, why, sizeof(why)),
		    -ENOSPC);
}

/* the pi check so far (--live): against the holder's longest section */
static void test_pi_so_far(void)
{
	struct il_wait_sample w[24];

	for (int k = 0; k < 24; k++)
		w[k] = (struct il_wait_sample){ .delay_ns = MS };
	/* 20 waits within the bound: PASS; one fewer: UNDECIDED */
	t_check_int(il_judge_pi_so_far(w, 20, 2 * MS), IL_PASS);
	t_check_int(il_judge_pi_so_far(w, 19, 2 * MS), IL_UNDECIDED);
	/* no noise allowance: a wait just over the bound FAILs */
	w[3].delay_ns = 2 * MS + 1;
	t_check_int(il_judge_pi_so_far(w, 20, 2 * MS), IL_FAIL);
	t_check_int(il_judge_pi_so_far(w, 20, 2 * MS + 1), IL_PASS);
	t_check_int(il_judge_pi_so_far(NULL, 20, 2 * MS), IL_NONE);
}

/* a fair-class head under inheritance: the bound does not apply */
static void test_chain_fair_head(void)
{
	struct il_judged c = { .expected = IL_PASS };

	t_run_reset(chain_job);
	set("A.protocol=inherit");
	c.c.verdict = IL_FAIL;
	/* a real-time head: left as judged */
	t_check(!il_judge_chain_fair_head(&t_sc, "t1", &c));
	t_check_int(c.c.verdict, IL_FAIL);
	t_check_int(c.expected, IL_PASS);
	t_check(!il_judge_chain_fair_head(&t_sc, "nobody", &c));
	t_check(!il_judge_chain_fair_head(NULL, "t1", &c));
	t_check(!il_judge_chain_fair_head(&t_sc, "t1", NULL));
	/* fair, but its lock does not inherit */
	set("t1.class=other");
	set("A.protocol=none");
	t_check(!il_judge_chain_fair_head(&t_sc, "t1", &c));
	t_check_int(c.c.verdict, IL_FAIL);
	set("A.protocol=protect");
	t_check(!il_judge_chain_fair_head(&t_sc, "t1", &c));
	/* fair and inheriting: UNDECIDED, and expected so */
	set("A.protocol=inherit");
	t_check(il_judge_chain_fair_head(&t_sc, "t1", &c));
	t_check_int(c.c.verdict, IL_UNDECIDED);
	t_check_int(c.expected, IL_UNDECIDED);
	t_check_str(c.c.evidence, "bound does not apply: a fair-class head "
				  "cannot boost its owners above real-time "
				  "work");
	/* the other fair classes too; a task that takes no lock is no head */
	set("t1.class=batch");
	t_check(il_judge_chain_fair_head(&t_sc, "t1", &c));
	set("t1.class=idle");
	t_check(il_judge_chain_fair_head(&t_sc, "t1", &c));
	set("t1.body=run 1ms");
	t_check(!il_judge_chain_fair_head(&t_sc, "t1", &c));
}

int main(void)
{
	test_validators();
	test_calibrations();
	test_noise();
	test_run_inputs();
	test_pi();
	test_pi_lower();
	test_ceiling();
	test_chain();
	test_chain_interferers();
	test_chain_does_not_apply();
	test_chain_fair_head();
	test_pi_so_far();
	il_scenario_free(&t_sc);
	return t_done("judge");
}
