// SPDX-License-Identifier: MIT
/* Synthetic runs for the judge's unit tests; see t_judge.h. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t_judge.h"

struct il_scenario t_sc;
struct il_engine_result t_er;
struct il_judge_env t_env;
struct il_hist t_calib;

static struct il_lock_result locks[IL_MAX_TASKS];
static struct il_wait_sample samples[IL_MAX_TASKS][T_MAX_SAMPLES];
static uint64_t seq[IL_MAX_TASKS][4][T_MAX_JOBS];

void t_run_reset(const char *text)
{
	char err[512];

	il_scenario_free(&t_sc);
	if (il_scenario_parse(text, "test.job", &t_sc, err, sizeof(err))) {
		fprintf(stderr, "synthetic job: %s\n", err);
		exit(99);
	}
	memset(&t_er, 0, sizeof(t_er));
	memset(locks, 0, sizeof(locks));
	t_er.ntasks = t_sc.ntasks;
	t_er.t_start_ns = 1000000000ull;
	for (int i = 0; i < t_sc.ntasks; i++) {
		struct il_task_result *r = &t_er.tasks[i];

		snprintf(r->name, sizeof(r->name), "%s", t_sc.tasks[i].name);
		r->cpu = -1;
		il_hist_init(&r->response);
		r->job_cpu_seq = seq[i][0];
		r->job_start_seq = seq[i][1];
		r->job_end_seq = seq[i][2];
		r->job_rel_seq = seq[i][3];
	}
	il_hist_init(&t_calib);
	for (int k = 0; k < 100; k++)
		il_hist_record(&t_calib, 10000);
	memset(&t_env, 0, sizeof(t_env));
	t_env.tick_ns = 4000000;
	t_env.steal_step_ns = 10000000;
	t_env.unreserved = -1;
	t_env.ncpus = 1;
	for (int i = 0; i < t_sc.ntasks; i++)
		t_env.calib[i] = &t_calib;
	t_env.calib_any = &t_calib;
}

void t_run_waits(int i, int res, int n, uint64_t delay_ns, uint64_t foreign_ns,
		 uint64_t lower_ns)
{
	struct il_lock_result *lr = &locks[i];

	if (n > T_MAX_SAMPLES)
		exit(99);
	lr->res = res;
	lr->samples = samples[i];
	lr->nsamples = lr->cap = (size_t)n;
	il_hist_init(&lr->blocked);
	il_hist_init(&lr->delay);
	for (int k = 0; k < n; k++) {
		samples[i][k] = (struct il_wait_sample){
			.delay_ns = delay_ns,
			.foreign_ns = foreign_ns,
			.lower_ns = lower_ns,
		};
		il_hist_record(&lr->blocked, delay_ns);
		il_hist_record(&lr->delay, delay_ns);
	}
	t_er.tasks[i].locks[0] = lr;
	t_er.tasks[i].nlocks = 1;
}

static void recount(int i)
{
	struct il_task_result *r = &t_er.tasks[i];
	uint64_t d = t_sc.tasks[i].sched.deadline_ns;

	il_hist_init(&r->response);
	r->misses = 0;
	for (size_t k = 0; k < r->njob_cpu; k++) {
		uint64_t resp = r->job_end_seq[k] - r->job_rel_seq[k];

		il_hist_record(&r->response, resp);
		r->misses += d && resp > d;
	}
	r->jobs = r->njob_cpu;
}

void t_run_jobs(int i, int n, uint64_t period_ns, uint64_t resp_ns,
		uint64_t cpu_ns)
{
	struct il_task_result *r = &t_er.tasks[i];
	uint64_t t0 = t_er.t_start_ns + t_sc.tasks[i].k.offset_ns;

	if (n > T_MAX_JOBS)
		exit(99);
	for (int k = 0; k < n; k++) {
		r->job_rel_seq[k] = t0 + (uint64_t)k * period_ns;
		r->job_start_seq[k] = r->job_rel_seq[k];
		r->job_end_seq[k] = r->job_rel_seq[k] + resp_ns;
		r->job_cpu_seq[k] = cpu_ns;
	}
	r->njob_cpu = r->job_cpu_cap = (size_t)n;
	recount(i);
}

void t_run_job_resp(int i, size_t k, uint64_t resp_ns)
{
	struct il_task_result *r = &t_er.tasks[i];

	r->job_end_seq[k] = r->job_rel_seq[k] + resp_ns;
	recount(i);
}

int t_task(const char *name)
{
	int i = il_scenario_task(&t_sc, name);

	if (i < 0) {
		fprintf(stderr, "no task %s\n", name);
		exit(99);
	}
	return i;
}

int t_judge(unsigned mask, struct il_judged *out, int max, int *n, char *why,
	    size_t len)
{
	*n = 0;
	why[0] = '\0';
	memset(out, 0, (size_t)max * sizeof(*out));
	return il_judge_run(&t_sc, &t_er, &t_env, mask, out, max, n, why, len);
}

struct il_judge_kmutex t_km;
struct il_sysinfo t_km_si;

void t_run_kmutex(int c, int n, int slow, uint64_t slow_ns, int ncont)
{
	/* IL_KM_CONFIG_RT_WAITER: kmutex-bounds.h, which tests link alone */
	const bool rt = c == 6;
	char job[1024];
	struct il_lock_result *lr;
	int fg, bg;

	snprintf(job, sizeof(job),
		 "[global]\nvalidate = none\n[resource K]\ntype = rename\n"
		 "[task fg]\nclass = %s\nactivation = hog\n"
		 "body = call K, sleep 1ms\n"
		 "[task %s]\nclass = other\nactivation = hog\nbody = call K\n"
		 "cgroup = kmutex-bg\ncpu_weight = 10\n"
		 "[task hog1]\nclass = other\nactivation = hog\n"
		 "body = run 100ms\ncgroup = kmutex-hogs\ncpu_weight = 1000\n",
		 rt ? "fifo:50" : "other", rt ? "owner" : "bg");
	t_run_reset(job);
	fg = t_task("fg");
	bg = t_task(rt ? "owner" : "bg");
	t_run_waits(fg, 0, n, 5000, 0, 0);
	lr = t_er.tasks[fg].locks[0];
	il_hist_init(&lr->blocked);
	for (int k = 0; k < n; k++) {
		lr->samples[k].delay_ns = k < slow ? slow_ns : 5000;
		il_hist_record(&lr->blocked, lr->samples[k].delay_ns);
	}
	t_run_waits(bg, 0, ncont, 5000, 0, 0);
	t_er.kmutex_cost_ns[0] = 8000;
	t_er.kmutex_cost_p90_ns[0] = 10000;
	memset(&t_km_si, 0, sizeof(t_km_si));
	snprintf(t_km_si.release, sizeof(t_km_si.release), "6.18.44");
	t_km_si.proxy_exec_active = 0;
	t_km_si.rt_runtime_us = 950000;
	t_km_si.rt_period_us = 1000000;
	t_km_si.fair_server_runtime_ns = -1;
	t_km_si.fair_server_period_ns = -1;
	t_env.rt_runtime_us = t_km_si.rt_runtime_us;
	t_env.rt_period_us = t_km_si.rt_period_us;
	t_km = (struct il_judge_kmutex){ .config = c,
					 .quantum_ns = 3000000,
					 .si = &t_km_si };
}
