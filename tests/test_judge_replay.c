// SPDX-License-Identifier: MIT
/*
 * Judging again from a result file, without a kernel: synthetic runs of
 * every model are judged, written as a run's JSON (checks and
 * judge_inputs, through il_report_judge_inputs), and invlab-judge (path
 * in argv[1]) must re-derive every verdict (exit 0, or 3 when a check
 * where PASS was expected is UNDECIDED: agreeing is not passing), find
 * one changed by hand (exit 1) and refuse what it cannot rebuild from
 * (exit 2).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <invlab/judge.h>
#include <invlab/kmutex-bounds.h>
#include <invlab/report-judge.h>
#include <invlab/report.h>
#include <invlab/time.h>

#include "t_judge.h"
#include "t_util.h"

#define MS IL_NSEC_PER_MSEC
#define US IL_NSEC_PER_USEC

static const char *judge_prog;
static char path[64];
static struct il_judged ck[32];
static uint64_t steal_t[64], steal_v[64];
static const struct il_judge_kmutex *km_rec; /* a kmutex run's; NULL */

/* write the judged run to path; flip: change that check's verdict */
static void write_file(unsigned mask, int n, int flip)
{
	struct il_judge_record rec = { 0 };
	FILE *f = fopen(path, "w");
	struct il_json j;

	if (!f)
		exit(99);
	rec.validators = mask;
	rec.tick_ns = t_env.tick_ns;
	rec.steal_step_ns = t_env.steal_step_ns;
	rec.ncpus = t_env.ncpus;
	rec.rt_runtime_us = t_env.rt_runtime_us;
	rec.rt_period_us = t_env.rt_period_us;
	rec.fair_runtime_ns = t_env.fair_runtime_ns;
	rec.fair_period_ns = t_env.fair_period_ns;
	rec.calib_any = t_env.calib_any;
	rec.unreserved = t_env.unreserved;
	rec.kmutex = km_rec;
	for (int i = 0; i < IL_MAX_TASKS; i++) {
		rec.calib[i] = t_env.calib[i];
		rec.declared[i] = t_env.declared[i];
	}
	il_json_init(&j, f);
	il_json_set_pretty(&j, true); /* the tests below edit it as text */
	il_json_begin_object(&j, NULL);
	il_json_begin_array(&j, "runs");
	il_json_begin_object(&j, NULL);
	il_json_str(&j, "configuration", "synthetic");
	il_json_begin_array(&j, "checks");
	for (int i = 0; i < n; i++) {
		struct il_check c = ck[i].c;

		if (i == flip)
			c.verdict = c.verdict == IL_FAIL ? IL_PASS : IL_FAIL;
		il_json_begin_object(&j, NULL);
		il_json_str(&j, "validator", ck[i].validator);
		il_json_str(&j, "task", ck[i].task);
		il_json_str(&j, "expected", il_verdict_name(ck[i].expected));
		il_json_check(&j, &c);
		il_json_end_object(&j);
	}
	il_json_end_array(&j);
	il_report_judge_inputs(&j, &t_sc, &t_er, &rec);
	il_json_end_object(&j);
	il_json_end_array(&j);
	il_json_end_object(&j);
	t_check_int(il_json_error(&j), 0);
	fclose(f);
}

/* invlab-judge with argv (NULL: the file), its exit status or -1 */
static int run_judge_args(const char *a1, const char *a2)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execl(judge_prog, judge_prog, a1, a2, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static int run_judge(void)
{
	return run_judge_args(path, NULL);
}

/*
 * What invlab-judge must end with when it agrees with the n checks in
 * ck: 3 when one where PASS was expected is UNDECIDED, else 0.
 */
static int agreed_status(int n)
{
	for (int i = 0; i < n; i++)
		if (ck[i].c.verdict == IL_UNDECIDED &&
		    ck[i].expected == IL_PASS)
			return 3;
	return 0;
}

/* judge the synthetic run, then again from its file */
static void replay(unsigned mask, int want_checks)
{
	char why[256];
	int n = 0;

	t_check_int(il_judge_run(&t_sc, &t_er, &t_env, mask, ck, 32, &n, why,
				 sizeof(why)),
		    0);
	t_check_int(n, want_checks);
	write_file(mask, n, -1);
	t_check_int(run_judge(), agreed_status(n));
	for (int k = 0; k < n; k++) {
		write_file(mask, n, k);
		t_check_int(run_judge(), 1);
	}
}

/*
 * Judged on the trace: 10 waits the tasks' clocks blame on the holder
 * (FAIL), that the trace shows delayed by a foreign task above high
 * (PASS, the task named); the file must carry the trace's account.
 */
static void test_pi_traced(void)
{
	static struct il_wait_sample traced[40];
	struct il_lock_result *lr;
	char why[256];
	int n = 0;

	t_run_waits(1, 0, 40, 1500 * US, 3 * US, 0);
	lr = t_er.tasks[1].locks[0];
	for (int k = 0; k < 10; k++)
		lr->samples[k].delay_ns = 5 * MS;
	t_check_int(il_judge_run(&t_sc, &t_er, &t_env, IL_JUDGE_PI, ck, 32, &n,
				 why, sizeof(why)),
		    0);
	t_check_int(ck[0].c.verdict, IL_FAIL);
	t_check_contains(ck[0].c.evidence, "no trace: inferred");
	for (int k = 0; k < 40; k++) {
		traced[k] = lr->samples[k];
		if (k < 10)
			traced[k].foreign_ns = 3500 * US;
	}
	lr->traced = traced;
	lr->attr.traced = 40;
	lr->attr.boosted = 40;
	lr->attr.boost_from = 89;
	lr->attr.boost_to = 69;
	lr->attr.nnamed = 1;
	lr->attr.named[0] = (struct il_attr_named){ .pid = 123,
						    .kprio = 49,
						    .higher = 1,
						    .comm = "fhog",
						    .ns = 35 * MS,
						    .worst_ns = 3500 * US,
						    .waits = 10 };
	n = 0;
	t_check_int(il_judge_run(&t_sc, &t_er, &t_env, IL_JUDGE_PI, ck, 32, &n,
				 why, sizeof(why)),
		    0);
	t_check_int(ck[0].c.verdict, IL_PASS);
	t_check_contains(ck[0].c.evidence,
			 "10 waits delayed by fhog (pid 123, FIFO 50): 35.0ms, "
			 "higher priority than high (FIFO 30)");
	t_check_contains(ck[0].c.evidence, "holder boosted 10->30");
	replay(IL_JUDGE_PI, 1);
	lr->traced = NULL;
}

/*
 * One section stretched by a stall (the longest 60 ms, the median 2 ms)
 * and a calibration of 50 ms wakeups: 3 ms of a lower task in every
 * traced wait is within the tolerance and under half the 60 ms bound,
 * but not half the bound over the median sections.  No PASS then (the
 * durations judge, and 50 ms of noise swamps them): UNDECIDED, and the
 * file must carry the median (hold_p50_ns) for the replay to agree.
 */
static void test_pi_stretched(void)
{
	static struct il_wait_sample traced[40];
	static struct il_hist wide;
	struct il_lock_result *lr;
	char why[256];
	int n = 0;

	t_er.tasks[0].hold_max[0] = 60 * MS;
	t_er.tasks[0].hold_p50[0] = 2 * MS;
	t_run_waits(1, 0, 40, 5 * MS, 0, 3 * MS);
	il_hist_init(&wide);
	for (int k = 0; k < 100; k++)
		il_hist_record(&wide, 50 * MS);
	t_env.calib[1] = &wide;
	lr = t_er.tasks[1].locks[0];
	for (int k = 0; k < 40; k++) {
		traced[k] = lr->samples[k];
		traced[k].traced = 1;
	}
	lr->traced = traced;
	lr->attr.traced = 40;
	t_check_int(il_judge_run(&t_sc, &t_er, &t_env, IL_JUDGE_PI, ck, 32, &n,
				 why, sizeof(why)),
		    0);
	t_check_int(ck[0].c.verdict, IL_UNDECIDED);
	t_check_contains(ck[0].c.evidence,
			 "judged on durations: in 40 waits a task below high "
			 "ran up to 3.00ms while a holder waited: within the "
			 "trace's tolerance 50.0ms");
	replay(IL_JUDGE_PI, 1);
	/* agreeing on an UNDECIDED where PASS was expected: 3, not 0 */
	t_check_int(ck[0].expected, IL_PASS);
	write_file(IL_JUDGE_PI, 1, -1);
	t_check_int(run_judge(), 3);
	/* the median unknown (a file from before it): the longest alone,
	 * and the 3 ms pass as under half of it */
	t_er.tasks[0].hold_p50[0] = 0;
	n = 0;
	t_check_int(il_judge_run(&t_sc, &t_er, &t_env, IL_JUDGE_PI, ck, 32, &n,
				 why, sizeof(why)),
		    0);
	t_check_int(ck[0].c.verdict, IL_PASS);
	t_check_int(ck[0].c.by_trace, 1);
	lr->traced = NULL;
	t_env.calib[1] = &t_calib;
}

static void test_pi(void)
{
	t_run_reset("[global]\nvalidate = pi\n[resource M]\n"
		    "[task low]\nclass = fifo:10\ncpu = 1\n"
		    "body = lock M, run 2ms, unlock M\n"
		    "[task high]\nclass = fifo:30\ncpu = 1\n"
		    "body = lock M, unlock M\n");
	t_er.tasks[0].cpu = t_er.tasks[1].cpu = 1;
	t_er.tasks[0].hold_max[0] = 2 * MS;
	t_run_waits(1, 0, 40, 1500 * US, 3 * US, 0);
	t_run_waits(0, 0, 40, 10 * US, 0, 0);
	replay(IL_JUDGE_PI, 1);
	/* a FAIL from waits with hog time */
	t_run_waits(1, 0, 40, 5 * MS, 3 * US, MS);
	replay(IL_JUDGE_PI, 1);
	test_pi_traced();
	test_pi_stretched();
}

static void test_chain(void)
{
	t_run_reset("[global]\nvalidate = chain\n[resource A]\n[resource B]\n"
		    "[task t1]\nclass = fifo:30\ncpu = 0\n"
		    "body = lock A, unlock A\n"
		    "[task t2]\nclass = fifo:20\ncpu = 1\n"
		    "body = lock A, run 1ms, lock B, unlock B, unlock A\n"
		    "[task t3]\nclass = fifo:10\ncpu = 1\n"
		    "body = lock B, run 2ms, unlock B\n");
	t_er.tasks[0].cpu = 0;
	t_er.tasks[1].cpu = t_er.tasks[2].cpu = 1;
	t_er.tasks[1].hold_max[0] = MS;
	t_er.tasks[2].hold_max[1] = 2 * MS;
	t_run_waits(0, 0, 30, 2 * MS, 0, 0);
	replay(IL_JUDGE_CHAIN, 1);
}

static void test_mbwi(void)
{
	static struct il_sched dd = { .policy = IL_SCHED_DEADLINE,
				      .runtime_ns = 2 * MS,
				      .deadline_ns = 8 * MS,
				      .period_ns = 8 * MS };

	t_run_reset("[global]\nvalidate = mbwi\n[resource R]\n"
		    "[task a]\nclass = deadline:3ms/10ms/10ms\ncpu = any\n"
		    "activation = periodic\nperiod = 10ms\n"
		    "body = lock R, run 1ms, unlock R\n"
		    "[task b]\nclass = deadline:4ms/12ms/12ms\ncpu = any\n"
		    "activation = periodic\nperiod = 12ms\n"
		    "body = lock R, run 1ms, unlock R\n"
		    "[task d]\nclass = other\ncpu = any\n"
		    "activation = periodic\nperiod = 8ms\nbody = run 1ms\n");
	t_run_jobs(0, 30, 10 * MS, 1500 * US, MS);
	t_run_jobs(1, 30, 12 * MS, 1500 * US, 1100 * US);
	t_run_jobs(2, 30, 8 * MS, 1500 * US, MS);
	t_run_job_resp(2, 4, 30 * MS);
	/* b missed by the calibration (10 us): within noise */
	t_run_job_resp(1, 7, 12 * MS + 10 * US);
	for (int k = 0; k < 40; k++) {
		steal_t[k] = t_er.t_start_ns + (uint64_t)k * 10 * MS;
		steal_v[k] = k > 20 ? 3 * MS : 0;
	}
	t_er.steal_t = steal_t;
	t_er.steal_v = steal_v;
	t_er.nsteal = 40;
	t_er.kmutex_cost_p90_ns[0] = 0;
	t_env.ncpus = 2;
	t_env.rt_runtime_us = 950000;
	t_env.rt_period_us = 1000000;
	t_env.declared[2] = &dd;
	t_env.unreserved = 2;
	replay(IL_JUDGE_MBWI, 4);
	/* with the trace's figures per job (foreign time, EDF inversion):
	 * the sixth element of each job, judged the same from the file */
	{
		static uint64_t fo[30], lo[30];

		/* five late jobs with lower-ranked tasks running: more
		 * than a host's stalls make in 30 (one alone would be
		 * UNDECIDED, as often as a host makes it) */
		for (int k = 4; k < 30; k += 5) {
			t_run_job_resp(2, (size_t)k, 30 * MS);
			lo[k] = 25 * MS;
		}
		t_er.tasks[2].job_foreign_seq = fo;
		t_er.tasks[2].job_later_seq = lo;
		replay(IL_JUDGE_MBWI, 4);
		t_check_int(ck[0].c.by_trace, 1);
		/* the seventh, what the reservation's throttle took of the
		 * wait (its own time): 20 ms of the kernel's choice covers
		 * 22 ms of lateness with 2 ms of it, and the file says so */
		{
			static uint64_t th[30];

			for (int k = 4; k < 30; k += 5)
				lo[k] = 20 * MS;
			replay(IL_JUDGE_MBWI, 4);
			t_check_int(ck[0].c.verdict != IL_FAIL, 1);
			t_er.tasks[2].job_throttled_seq = th;
			for (int k = 4; k < 30; k += 5)
				th[k] = 2 * MS;
			replay(IL_JUDGE_MBWI, 4);
			t_check_int(ck[0].c.verdict, IL_FAIL);
			t_check_int(ck[0].c.by_trace, 1);
			t_er.tasks[2].job_throttled_seq = NULL;
			for (int k = 4; k < 30; k += 5)
				lo[k] = 25 * MS;
		}
		/* foreign tasks ran longer than each late job was late:
		 * set aside within the fair server's default budget, late
		 * beyond the one the file records (1 ns a period) */
		for (int k = 4; k < 30; k += 5) {
			lo[k] = 0;
			fo[k] = 25 * MS;
		}
		replay(IL_JUDGE_MBWI, 4);
		t_check_int(ck[0].c.verdict, IL_UNDECIDED);
		t_env.fair_runtime_ns = 1;
		t_env.fair_period_ns = IL_NSEC_PER_SEC;
		replay(IL_JUDGE_MBWI, 4);
		t_check_int(ck[0].c.verdict, IL_FAIL);
		/* the budget unreadable: bad input */
		{
			FILE *f;
			char buf[1 << 16], *p;
			size_t len;

			write_file(IL_JUDGE_MBWI, 4, -1);
			f = fopen(path, "r");
			if (!f)
				exit(99);
			len = fread(buf, 1, sizeof(buf) - 1, f);
			fclose(f);
			buf[len] = 0;
			p = strstr(buf, "\"fair_period_ns\": ");
			t_check(p != NULL);
			if (p) {
				char *q = p + strlen("\"fair_period_ns\": ");

				/* a string where a number belongs */
				q += strspn(q, "-0123456789");
				f = fopen(path, "w");
				if (!f)
					exit(99);
				fprintf(f, "%.*s\"fair_period_ns\": \"x\"%s",
					(int)(p - buf), buf, q);
				fclose(f);
				t_check_int(run_judge(), 2);
			}
		}
		t_env.fair_runtime_ns = t_env.fair_period_ns = 0;
		t_er.tasks[2].job_foreign_seq = NULL;
		t_er.tasks[2].job_later_seq = NULL;
		for (int k = 9; k < 30; k += 5)
			t_run_job_resp(2, (size_t)k, 1500 * US);
	}
	/* a job of a that read 12 ms of CPU (Q 3 ms, tick 4 ms, one Q more
	 * for periods that are the task's): a bandwidth FAIL, unless the
	 * trace's run-time account of a shows a tick 3 ms late there; the
	 * file keeps that account, so the re-judge without the trace gives
	 * the same verdict */
	{
		static struct il_trace tr;
		struct il_trace_rec x = { .kind = IL_TR_RUNTIME, .cpu = 0 };
		uint64_t rel = t_er.tasks[0].job_rel_seq[10];
		char why[256];
		int n = 0, bw = -1;
		uint64_t step = t_env.steal_step_ns;

		/* a steal counter read to the microsecond: 2 ms beyond the
		 * bound is not steal it missed */
		t_env.steal_step_ns = US;
		t_er.tasks[0].tid = 11;
		t_er.tasks[0].job_cpu_seq[10] = 12 * MS;
		t_check_int(il_judge_run(&t_sc, &t_er, &t_env, IL_JUDGE_MBWI,
					 ck, 32, &n, why, sizeof(why)),
			    0);
		for (int k = 0; k < n; k++)
			if (!strcmp(ck[k].task, "a bandwidth"))
				bw = k;
		t_check(bw >= 0);
		t_check_int(ck[bw].c.verdict, IL_FAIL);
		x.prev_pid = 11;
		x.ts = rel + 8 * MS;
		x.next_pid = 7 * MS; /* 3 ms beyond one tick */
		t_check_int(il_trace_add(&tr, &x), 0);
		x.ts = rel + 9 * MS;
		x.next_pid = MS; /* within one tick: not kept */
		t_check_int(il_trace_add(&tr, &x), 0);
		x.ts = rel + 20 * MS;
		x.next_pid = 4 * MS; /* one tick exactly: not kept */
		t_check_int(il_trace_add(&tr, &x), 0);
		x.prev_pid = 12; /* another task's, long: not a's */
		x.next_pid = 20 * MS;
		t_check_int(il_trace_add(&tr, &x), 0);
		x.kind = IL_TR_WAKEUP; /* no account */
		x.prev_pid = 11;
		t_check_int(il_trace_add(&tr, &x), 0);
		tr.t0_ns = t_er.t_start_ns;
		tr.t1_ns = rel + 300 * MS;
		t_er.trace = &tr;
		replay(IL_JUDGE_MBWI, 4);
		t_check(ck[bw].c.verdict != IL_FAIL);
		t_check_contains(ck[bw].c.evidence, "later than one tick");
		/* what the file kept of a: its 3 accounts, the long one;
		 * then that list broken, or gone: bad input (exit 2); with
		 * the count gone too, a file of before (the trace's account
		 * unknown: FAIL, not as recorded, exit 1) */
		write_file(IL_JUDGE_MBWI, 4, -1);
		{
			static const char kept[] =
				"\"long_accounts\": [\n"
				"              [\n"
				"                1108000000,\n"
				"                7000000\n"
				"              ]\n"
				"            ],\n"
				"            \"runtime_accounts\": 3,";
			static const char *const instead[] = {
				"\"long_accounts\": 0, \"runtime_accounts\": "
				"3,",
				"\"long_accounts\": [[1]], "
				"\"runtime_accounts\": 3,",
				"\"long_accounts\": [1], \"runtime_accounts\": "
				"3,",
				"\"runtime_accounts\": 3,",
				"",
			};
			static char buf[1 << 17];
			FILE *f = fopen(path, "r");
			size_t got = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
			char *at;

			if (f)
				fclose(f);
			buf[got] = '\0';
			at = strstr(buf, kept);
			t_check(at != NULL);
			for (size_t b = 0; at && b < 5; b++) {
				f = fopen(path, "w");
				if (!f)
					exit(99);
				fprintf(f, "%.*s%s%s", (int)(at - buf), buf,
					instead[b], at + strlen(kept));
				fclose(f);
				t_check_int(run_judge(), b < 4 ? 2 : 1);
			}
		}
		t_er.trace = NULL;
		il_trace_free(&tr);
		t_er.tasks[0].job_cpu_seq[10] = MS;
		t_env.steal_step_ns = step;
	}
	/*
	 * a's job 10 reads 12.5 ms of CPU while b waits for R from 0.5 ms
	 * after a's release, asking at 4 ms, until 6 ms: blocked 2 ms,
	 * which leaves a FAIL (taken from the release, 5.5 ms, at most b's
	 * Q 4 ms, it would be UNDECIDED).  The file keeps the request.
	 */
	{
		uint64_t rel = t_er.tasks[0].job_rel_seq[10];
		struct il_wait_sample *w;

		uint64_t step = t_env.steal_step_ns;

		/* the steal counter read to the microsecond, as above */
		t_env.steal_step_ns = US;
		t_run_waits(1, 0, 30, 0, 0, 0);
		w = &t_er.tasks[1].locks[0]->samples[5];
		w->t_ns = rel + 500 * US;
		w->t_req_ns = rel + 4 * MS;
		w->delay_ns = 5500 * US;
		t_er.tasks[0].job_cpu_seq[10] = 12 * MS + 500 * US;
		replay(IL_JUDGE_MBWI, 4);
		t_check_int(ck[2].c.verdict, IL_FAIL);
		t_check_str(ck[2].task, "a bandwidth");
		w->t_req_ns = 0;
		replay(IL_JUDGE_MBWI, 4);
		t_check_int(ck[2].c.verdict, IL_UNDECIDED);
		t_check_contains(ck[2].c.evidence, "ran up to 4.00ms");
		t_er.tasks[1].nlocks = 0;
		t_er.tasks[0].job_cpu_seq[10] = MS;
		t_env.steal_step_ns = step;
	}
	/* partitioned */
	for (int i = 0; i < 3; i++) {
		t_er.tasks[i].partitioned = 1;
		t_er.tasks[i].cpu = i % 2;
	}
	t_env.unreserved = -1;
	replay(IL_JUDGE_MBWI, 4);
}

/* the file at path with its steal_cpus array replaced by list */
static void put_steal_cpus(const char *list)
{
	static char buf[1 << 20];
	const char *key = "\"steal_cpus\": [";
	char *a, *b;
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f)
		exit(99);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	a = strstr(buf, key);
	b = a ? strchr(a, ']') : NULL;
	t_check(b != NULL);
	if (!b)
		return;
	f = fopen(path, "w");
	if (!f)
		exit(99);
	fprintf(f, "%.*s\"steal_cpus\": [%s%s", (int)(a - buf), buf, list, b);
	fclose(f);
}

/*
 * Partitioned, only the steal on the CPUs that can delay a job counts:
 * d (CPU 1, no lock) late by 12 ms in jobs 5 and 25, 2 ms stolen around
 * each on CPU 0 alone.  The file must give the columns back, or the sum
 * with its step would forgive both misses: FAIL from the file too.  A
 * CPU out of range, a column that goes back, or rows without a column
 * for each CPU named, is bad input.
 */
static void test_mbwi_steal_cpus(void)
{
	static uint64_t cv[2 * 64];
	char why[256];
	int n = 0;

	t_run_reset("[global]\nvalidate = mbwi\n[resource R]\n"
		    "[task a]\nclass = deadline:3ms/10ms/10ms\ncpu = any\n"
		    "activation = periodic\nperiod = 10ms\n"
		    "body = lock R, run 1ms, unlock R\n"
		    "[task b]\nclass = deadline:4ms/12ms/12ms\ncpu = any\n"
		    "activation = periodic\nperiod = 12ms\n"
		    "body = lock R, run 1ms, unlock R\n"
		    "[task d]\nclass = deadline:2ms/8ms/8ms\ncpu = any\n"
		    "activation = periodic\nperiod = 8ms\nbody = run 1ms\n");
	t_run_jobs(0, 30, 10 * MS, 1500 * US, MS);
	t_run_jobs(1, 30, 12 * MS, 1500 * US, MS);
	t_run_jobs(2, 30, 8 * MS, 1500 * US, MS);
	t_run_job_resp(2, 5, 20 * MS);
	t_run_job_resp(2, 25, 20 * MS);
	for (int k = 0; k < 40; k++) {
		uint64_t at = (uint64_t)k * 10 * MS;

		steal_t[k] = t_er.t_start_ns + at;
		steal_v[k] =
			(at >= 50 * MS) * 2 * MS + (at >= 210 * MS) * 2 * MS;
		cv[2 * k] = steal_v[k];
		cv[2 * k + 1] = 0;
	}
	t_er.steal_t = steal_t;
	t_er.steal_v = steal_v;
	t_er.nsteal = 40;
	t_er.steal_cv = cv;
	t_er.steal_ncpu = 2;
	t_er.steal_cpu[0] = 0;
	t_er.steal_cpu[1] = 1;
	t_env.ncpus = 2;
	for (int i = 0; i < 3; i++) {
		t_er.tasks[i].partitioned = 1;
		t_er.tasks[i].cpu = i == 2;
	}
	replay(IL_JUDGE_MBWI, 5);
	t_check_int(ck[0].c.verdict, IL_FAIL);
	/* the same steal on d's CPU: the host's, UNDECIDED */
	for (int k = 0; k < 40; k++) {
		cv[2 * k + 1] = cv[2 * k];
		cv[2 * k] = 0;
	}
	replay(IL_JUDGE_MBWI, 5);
	t_check_int(ck[0].c.verdict, IL_UNDECIDED);
	t_check_int(il_judge_run(&t_sc, &t_er, &t_env, IL_JUDGE_MBWI, ck, 32,
				 &n, why, sizeof(why)),
		    0);
	t_er.steal_cpu[1] = IL_MAX_CPUS;
	write_file(IL_JUDGE_MBWI, n, -1);
	t_check_int(run_judge(), 2);
	t_er.steal_cpu[1] = 1;
	write_file(IL_JUDGE_MBWI, n, -1);
	t_check_int(run_judge(), agreed_status(n));
	put_steal_cpus("0, 1, 2");
	t_check_int(run_judge(), 2);
	cv[2 * 30 + 1] = 0;
	write_file(IL_JUDGE_MBWI, n, -1);
	t_check_int(run_judge(), 2);
	t_er.steal_cv = NULL;
	t_er.steal_ncpu = 0;
	t_er.steal_t = t_er.steal_v = NULL;
	t_er.nsteal = 0;
	t_env.ncpus = 0;
}

static void test_bad_input(void)
{
	FILE *f = fopen(path, "w");

	if (!f)
		exit(99);
	fputs("{\"runs\": [{\"checks\": []}]}\n", f);
	fclose(f);
	t_check_int(run_judge(), 2);
	f = fopen(path, "w");
	fputs("not json", f);
	fclose(f);
	t_check_int(run_judge(), 2);
	unlink(path);
	t_check_int(run_judge(), 2);
	/* usage */
	t_check_int(run_judge_args(NULL, NULL), 2);
	t_check_int(run_judge_args("--bogus", NULL), 2);
	t_check_int(run_judge_args(path, path), 2);
	t_check_int(run_judge_args("--help", NULL), 0);
}

/* the file at path with "schema_version": version as its first member */
static void put_version(const char *version)
{
	char buf[1 << 16];
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f)
		exit(99);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	t_check(n > 1 && n < sizeof(buf) - 1 && buf[0] == '{');
	buf[n] = '\0';
	f = fopen(path, "w");
	if (!f)
		exit(99);
	fprintf(f, "{\"schema_version\": %s,%s", version, buf + 1);
	fclose(f);
}

/*
 * write_file writes no schema_version, as files of before it had none:
 * every replay above reads such a file.  With version 1 the same file
 * is judged the same; a newer version, or one that is not a number, is
 * bad input, not judged by rules that may no longer be its own.
 */
static void test_schema_version(void)
{
	int n = 0;
	char why[256];

	t_run_reset("[global]\nvalidate = pi\n[resource M]\n"
		    "[task low]\nclass = fifo:10\ncpu = 1\n"
		    "body = lock M, run 2ms, unlock M\n"
		    "[task high]\nclass = fifo:30\ncpu = 1\n"
		    "body = lock M, unlock M\n");
	t_er.tasks[0].cpu = t_er.tasks[1].cpu = 1;
	t_er.tasks[0].hold_max[0] = 2 * MS;
	t_run_waits(1, 0, 40, 1500 * US, 3 * US, 0);
	t_run_waits(0, 0, 40, 10 * US, 0, 0);
	t_check_int(il_judge_run(&t_sc, &t_er, &t_env, IL_JUDGE_PI, ck, 32, &n,
				 why, sizeof(why)),
		    0);
	write_file(IL_JUDGE_PI, n, -1);
	t_check_int(run_judge(), agreed_status(n));
	put_version("1");
	t_check_int(run_judge(), agreed_status(n));
	write_file(IL_JUDGE_PI, n, -1);
	put_version("2");
	t_check_int(run_judge(), 2);
	write_file(IL_JUDGE_PI, n, -1);
	put_version("\"1\"");
	t_check_int(run_judge(), 2);
}

/* kernel-mutex calls: their recorded costs are what decides */
static void test_kmutex_costs(void)
{
	t_run_reset("[global]\nvalidate = mbwi\n[resource K]\ntype = rename\n"
		    "[task a]\nclass = deadline:3ms/10ms/10ms\ncpu = any\n"
		    "activation = periodic\nperiod = 10ms\nbody = call K\n"
		    "[task b]\nclass = deadline:4ms/12ms/12ms\ncpu = any\n"
		    "activation = periodic\nperiod = 12ms\nbody = call K\n");
	t_run_jobs(0, 30, 10 * MS, 1500 * US, MS);
	t_run_jobs(1, 30, 12 * MS, 1500 * US, MS);
	t_er.kmutex_cost_ns[0] = MS;
	/* C + I = 2.1 + 2.1 ms > Q for both */
	t_er.kmutex_cost_p90_ns[0] = 2100 * US;
	t_er.kmutex_cost_mean_ns[0] = MS;
	replay(IL_JUDGE_MBWI, 4);
	t_check_int(ck[1].c.verdict, IL_UNDECIDED);
}

/*
 * A kmutex run judged (il_km_judge_run), written with its record and
 * judged again from the file: the verdicts asserted here, so that a
 * judge that changed turns this red even though both sides share it.
 */
static void replay_km(enum il_verdict want, enum il_verdict want_expected)
{
	struct il_km_judged out;
	char why[256];
	int n = 0;

	t_check_int(il_km_judge_run(&t_sc, &t_er, &t_env, &t_km, ck, &n, &out,
				    why, sizeof(why)),
		    0);
	t_check_int(n, 1);
	t_check_int(ck[0].c.verdict, want);
	t_check_int(ck[0].expected, want_expected);
	km_rec = &t_km;
	write_file(0, n, -1);
	t_check_int(run_judge(),
		    want == IL_UNDECIDED && want_expected == IL_PASS ? 3 : 0);
	write_file(0, n, 0);
	t_check_int(run_judge(), 1);
	km_rec = NULL;
}

static void test_kmutex(void)
{
	struct il_km_judged out;
	char why[256];
	int n = 1;

	/* contention: 60 of 200 calls slower than the uncontended p90
	 * (30 %): PASS; 20 of them (10 %): none measured, UNDECIDED; a
	 * contender that made no call: FAIL */
	t_run_kmutex(IL_KM_CONFIG_CONTENTION, 200, 60, 100 * US, 100);
	replay_km(IL_PASS, IL_PASS);
	t_run_kmutex(IL_KM_CONFIG_CONTENTION, 200, 20, 100 * US, 100);
	replay_km(IL_UNDECIDED, IL_PASS);
	t_run_kmutex(IL_KM_CONFIG_CONTENTION, 200, 60, 100 * US, 0);
	replay_km(IL_FAIL, IL_PASS);
	/* throttled, threshold about 101 ms: 10 waits of 300 ms FAIL, as
	 * expected without proxy execution; none over it PASS */
	t_run_kmutex(IL_KM_CONFIG_THROTTLED, 200, 10, 300 * MS, 50);
	replay_km(IL_FAIL, IL_FAIL);
	t_run_kmutex(IL_KM_CONFIG_CROSS_CPU, 200, 0, 0, 50);
	replay_km(IL_PASS, IL_FAIL);
	/* another recipe: judged for information only */
	t_run_kmutex(IL_KM_CONFIG_THROTTLED, 200, 10, 300 * MS, 50);
	t_sc.res[0].k.type = IL_RES_FPOS;
	replay_km(IL_FAIL, IL_NONE);
	/* rt-waiter, bound about 1.004 s: a 2 s wait FAILs */
	t_run_kmutex(IL_KM_CONFIG_RT_WAITER, 200, 1, 2000 * MS, 50);
	replay_km(IL_FAIL, IL_PASS);
	t_run_kmutex(IL_KM_CONFIG_RT_WAITER, 200, 1, 900 * MS, 50);
	replay_km(IL_PASS, IL_PASS);
	/* on the trace's account (lr->traced, kept in judge_inputs): the
	 * 10 slow waits were 290 ms of foreign interference each, PASS;
	 * judged again from the file without the trace itself */
	t_run_kmutex(IL_KM_CONFIG_THROTTLED, 200, 10, 300 * MS, 50);
	{
		static struct il_wait_sample tr[200];
		struct il_lock_result *lr = t_er.tasks[0].locks[0];

		for (int k = 0; k < 200; k++) {
			tr[k] = lr->samples[k];
			tr[k].foreign_ns = k < 10 ? 290 * MS : 0;
		}
		lr->traced = tr;
		lr->attr.traced = 200;
		lr->attr.fhigh_ns = 10 * 290 * MS;
		replay_km(IL_PASS, IL_FAIL);
		t_check_contains(ck[0].c.evidence, "judged on the trace");
		lr->traced = NULL;
	}
	/* measured only: no check, recorded or re-judged */
	t_run_kmutex(IL_KM_CONFIG_ALONE, 200, 0, 0, 0);
	t_check_int(il_km_judge_run(&t_sc, &t_er, &t_env, &t_km, ck, &n, &out,
				    why, sizeof(why)),
		    0);
	t_check_int(n, 0);
	km_rec = &t_km;
	write_file(0, 0, -1);
	t_check_int(run_judge(), 0);
	km_rec = NULL;
}

int main(int argc, char **argv)
{
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: test-judge-replay INVLAB_JUDGE\n");
		return 2;
	}
	judge_prog = argv[1];
	snprintf(path, sizeof(path), "/tmp/invlab-replay.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return 99;
	close(fd);
	test_pi();
	test_chain();
	test_mbwi();
	test_mbwi_steal_cpus();
	test_kmutex_costs();
	test_kmutex();
	test_bad_input();
	test_schema_version();
	unlink(path);
	il_scenario_free(&t_sc);
	return t_done("judge-replay");
}
