/* SPDX-License-Identifier: MIT */
/*
 * Synthetic runs for the judge's unit tests: a scenario from job-file
 * text, and an engine result filled by hand (no kernel, no timing).
 */
#ifndef T_JUDGE_H
#define T_JUDGE_H

#include <stdint.h>

#include <invlab/engine.h>
#include <invlab/hist.h>
#include <invlab/judge.h>
#include <invlab/report-judge.h>
#include <invlab/scenario.h>
#include <invlab/sysinfo.h>

#define T_MAX_SAMPLES 256
#define T_MAX_JOBS    512

/* the run being built; t_run_reset() starts a new one */
extern struct il_scenario t_sc;
extern struct il_engine_result t_er;
extern struct il_judge_env t_env;
extern struct il_hist t_calib; /* 100 idle wakeups of 10 us */

/* parse text into t_sc (aborts the test on error), reset t_er and t_env:
 * every task on no single CPU, no lock results, the env zeroed with
 * t_calib for every task and for calib_any, one CPU, tick 4 ms */
void t_run_reset(const char *text);
/* task i's first lock phase: n waits of delay, foreign and lower time */
void t_run_waits(int i, int res, int n, uint64_t delay_ns, uint64_t foreign_ns,
		 uint64_t lower_ns);
/*
 * n periodic jobs of task i from t_er.t_start_ns + offset: release
 * k * period, start at release, end at release + resp_ns, cpu_ns each;
 * jobs, misses (responses over the task's deadline) and the response
 * histogram follow
 */
void t_run_jobs(int i, int n, uint64_t period_ns, uint64_t resp_ns,
		uint64_t cpu_ns);
/* job k of task i ends at release + resp_ns (misses recounted) */
void t_run_job_resp(int i, size_t k, uint64_t resp_ns);
/* index of a task by name (aborts when unknown) */
int t_task(const char *name);
/*
 * A run of the kmutex demo's configuration c (enum il_km_config): fg
 * calling K (rename, through system calls; SCHED_FIFO in rt-waiter),
 * the contender "bg" ("owner" in rt-waiter) in a cgroup of weight 10 and
 * "hog1" in one of 1000; fg's n calls (at most T_MAX_SAMPLES), `slow` of
 * them slow_ns and the rest 5 us; the contender's ncont calls; K's costs
 * 8 us, 10 us at p90.  t_km is the judge's record of it: quantum 3 ms,
 * the fingerprint t_km_si (6.18, proxy execution off, debugfs not
 * readable: the default fair server 50ms/1s).
 */
extern struct il_judge_kmutex t_km;
extern struct il_sysinfo t_km_si;
void t_run_kmutex(int c, int n, int slow, uint64_t slow_ns, int ncont);
/* judge the run: il_judge_run's return, checks in out[0..*n) */
int t_judge(unsigned mask, struct il_judged *out, int max, int *n, char *why,
	    size_t len);

#endif
