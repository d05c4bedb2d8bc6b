// SPDX-License-Identifier: MIT
/*
 * dl-mbwi: SCHED_DEADLINE tasks sharing locks, judged against the
 * multiprocessor bandwidth inheritance (M-BWI) guarantees: bandwidth
 * preservation, temporal isolation and the interference bound
 * (docs/m-bwi.md).
 *
 *   sudo dl-mbwi                         every scenario, global EDF
 *   sudo dl-mbwi basic steal-budget -d 2s
 *   sudo dl-mbwi steal-budget --overrun 0        holder well behaved
 *   sudo dl-mbwi basic --partition               partitioned EDF
 *   sudo dl-mbwi basic --unreserve tauD          negative control
 *
 * The scenarios are the job files demos/jobs/dl-*.job, built into the
 * program: basic, chain, cross-cpu and steal-budget share pthread PI
 * mutexes; kmutex shares a kernel mutex (the rename recipe), the kind
 * proxy execution covers.  Each runs on the
 * engine like any job file, and the M-BWI checks judge it exactly as
 * `invlab-run` does with `validate = mbwi`.
 *
 * Negative controls, each of which must FAIL on any kernel:
 *   - steal-budget's holder overruns its reservation (--overrun, 11 ms
 *     past its declared 1 ms section by default): its bandwidth check
 *     fails on a kernel where the boosted holder is not throttled (every
 *     kernel with PI futexes today, see docs/m-bwi.md); expected FAIL;
 *   - --unreserve TASK runs TASK as SCHED_OTHER behind a SCHED_FIFO hog
 *     on every CPU while the checks still judge it by the reservation the
 *     job gives it: the isolation check (and the interference check when
 *     its guarantee covers TASK) must FAIL.
 *
 * Exit: 0 when every verdict is the expected one (an UNDECIDED where PASS
 * is expected counts, reported as undecided: noise could explain it), 1
 * otherwise, 2 usage,
 * 77 cannot run here (reason printed), 99 broken setup, 128+N interrupted.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <invlab/cpu.h>
#include <invlab/engine.h>
#include <invlab/live.h>
#include <invlab/opt.h>
#include <invlab/report.h>
#include <invlab/scenario.h>
#include <invlab/sched.h>
#include <invlab/strbuf.h>
#include <invlab/sysinfo.h>
#include <invlab/time.h>

#include "demo.h"
#include "dl-jobs.h"
#include "mbwi-common.h"

#define PROG	   "dl-mbwi"
#define MAX_SCEN   8
#define MAX_CHECKS (2 * IL_MAX_TASKS + 2)
/* the section steal-budget's holder declares (its job file's contract) */
#define DECLARED_SECTION_NS IL_NSEC_PER_MSEC

struct cfg {
	struct il_common_cfg common; /* must come first: see opt.h */
	uint64_t overrun_ns;
	int partition;
	const char *unreserve;
	int print_job;
	int list;
};

#define O(f) offsetof(struct cfg, f)
static const struct il_opt mbwi_opts[] = {
	{ "overrun", 0, IL_OPT_DURATION, O(overrun_ns), "11ms", 0,
	  IL_NSEC_PER_SEC, IL_NSEC_PER_MSEC, NULL, "TIME",
	  "steal-budget: how far the holder's critical section runs past the "
	  "1ms it declares; 0 makes it a well-behaved holder (its bandwidth "
	  "check is then expected to PASS)",
	  NULL },
	{ "partition", 0, IL_OPT_FLAG, O(partition), NULL, 0, 0, 0, NULL, NULL,
	  "partitioned EDF: each deadline task in a cpuset partition of one "
	  "CPU (its `partition` key, or the least loaded), created for the "
	  "run and removed after it; default: global EDF",
	  NULL },
	{ "unreserve", 0, IL_OPT_STRING, O(unreserve), NULL, 0, 0, 0, NULL,
	  "TASK",
	  "negative control: run TASK without its reservation (SCHED_OTHER, "
	  "behind a SCHED_FIFO hog on every CPU) while the checks judge it "
	  "by the reservation; its isolation check must FAIL",
	  NULL },
	{ "print-job", 0, IL_OPT_FLAG, O(print_job), NULL, 0, 0, 0, NULL, NULL,
	  "print each scenario's job as it would run and exit", NULL },
	{ "list", 0, IL_OPT_FLAG, O(list), NULL, 0, 0, 0, NULL, NULL,
	  "list the scenarios and exit", NULL },
	{ .name = NULL },
};
#undef O

static const struct il_opt *const tables[] = { il_common_opts, mbwi_opts,
					       NULL };

static const struct dl_job *find_job(const char *name)
{
	for (const struct dl_job *j = dl_jobs; j->scenario; j++)
		if (!strcmp(j->scenario, name))
			return j;
	return NULL;
}

static void scenario_names(char *buf, size_t len)
{
	buf[0] = '\0';
	for (const struct dl_job *j = dl_jobs; j->scenario; j++)
		il_appendf(buf, len, "%s%s", j == dl_jobs ? "" : ", ",
			   j->scenario);
}

/*
 * The scenario as it will run: the job file, then --overrun (steal-budget)
 * and --unreserve.  declared[] receives the reservation a task without
 * one is still judged by.  0, 1 when --unreserve names no task of this
 * scenario (it is then run unchanged), or -EINVAL with err.
 */
static int build(const struct dl_job *job, const struct cfg *cfg,
		 struct il_scenario *sc, struct il_sched *declared,
		 int *unreserved, char *err, size_t len)
{
	char set[160], d[32];
	int ret, ti, ncpu;

	*unreserved = -1;
	ret = il_scenario_parse(job->text, job->file, sc, err, len);
	if (ret)
		return ret;
	sc->g.duration_ns = cfg->common.duration_ns;
	if (!strcmp(job->scenario, "steal-budget")) {
		il_format_duration_exact(d, sizeof(d),
					 DECLARED_SECTION_NS + cfg->overrun_ns);
		snprintf(set, sizeof(set),
			 "holder.body=lock R, run %s, unlock R", d);
		ret = il_scenario_set(sc, set, err, len);
		if (!ret && !cfg->overrun_ns)
			ret = il_scenario_set(sc, "holder.misbehaves=no", err,
					      len);
		if (ret)
			goto fail;
	}
	if (!cfg->unreserve)
		return 0;
	ti = il_scenario_task(sc, cfg->unreserve);
	if (ti < 0)
		return 1;
	if (sc->tasks[ti].sched.policy != IL_SCHED_DEADLINE) {
		snprintf(err, len,
			 "--unreserve %s: the task has no reservation to take "
			 "away (%s)",
			 cfg->unreserve, sc->tasks[ti].k.class_spec);
		ret = -EINVAL;
		goto fail;
	}
	declared[ti] = sc->tasks[ti].sched;
	*unreserved = ti;
	snprintf(set, sizeof(set), "%s.class=other", cfg->unreserve);
	ret = il_scenario_set(sc, set, err, len);
	/* one real-time hog per CPU: the fair class gets what RT throttling
	 * and the fair server leave it, deadline tasks lose nothing */
	{
		static int cpus[IL_MAX_CPUS];

		ncpu = il_cpu_online(cpus, IL_MAX_CPUS);
	}
	for (int c = 0; !ret && c < ncpu && sc->ntasks < IL_MAX_TASKS; c++) {
		char name[24];

		snprintf(name, sizeof(name), "rt-hog%d", c);
		ret = il_scenario_add_task(sc, name) < 0 ? -EINVAL : 0;
		if (ret) {
			snprintf(err, len, "--unreserve: cannot add %s", name);
			break;
		}
		snprintf(set, sizeof(set), "%s.class=fifo:1", name);
		ret = il_scenario_set(sc, set, err, len);
		snprintf(set, sizeof(set), "%s.cpu=spread", name);
		if (!ret)
			ret = il_scenario_set(sc, set, err, len);
		snprintf(set, sizeof(set), "%s.activation=hog", name);
		if (!ret)
			ret = il_scenario_set(sc, set, err, len);
		snprintf(set, sizeof(set), "%s.body=run 1ms", name);
		if (!ret)
			ret = il_scenario_set(sc, set, err, len);
	}
	if (!ret)
		ret = il_scenario_check(sc, err, len);
	if (!ret)
		return 0;
fail:
	il_scenario_free(sc);
	return ret < 0 ? ret : -EINVAL;
}

struct live_ctx {
	struct il_live live;
	char title[96];
};

static void live_frame(void *arg, const struct il_engine_result *er)
{
	struct live_ctx *lc = arg;
	struct il_live_row rows[IL_LIVE_MAX_ROWS];
	int n = 0;

	memset(rows, 0, sizeof(rows));
	for (int i = 0; i < er->ntasks && n < IL_LIVE_MAX_ROWS; i++) {
		snprintf(rows[n].name, sizeof(rows[n].name), "%.30s response",
			 er->tasks[i].name);
		rows[n++].h = &er->tasks[i].response;
	}
	il_live_frame(&lc->live, lc->title, rows, n);
}

static void write_run(struct il_json *j, const struct il_scenario *sc,
		      const char *scenario, const struct cfg *cfg,
		      const struct il_engine_result *er,
		      const struct demo_check *ck, int nck, int repeat,
		      const struct il_judge_env *env)
{
	struct il_judge_record rec;

	il_json_begin_object(j, NULL);
	il_json_str(j, "configuration", scenario);
	il_json_str(j, "job", sc->file);
	il_json_int(j, "repeat", repeat);
	il_json_str(j, "placement_mode",
		    cfg->partition ? "partitioned" : "global EDF");
	il_json_uint(j, "overrun_ns", cfg->overrun_ns);
	il_json_str(j, "unreserved", cfg->unreserve);
	il_json_uint(j, "elapsed_ns", er->elapsed_ns);
	il_json_uint(j, "steal_ns", er->steal_ns);
	il_json_str(j, "placement", er->placement);
	il_json_str(j, "partitions", er->partitions);
	il_json_bool(j, "hung", er->hung);
	il_json_str(j, "hung_reason", er->hung ? er->hung_why : NULL);
	demo_json_checks(j, ck, nck);
	demo_json_tasks(j, sc, er);
	/* everything the verdicts were decided from (invlab-judge) */
	demo_judge_record(env, IL_JUDGE_MBWI, &rec);
	il_report_judge_inputs(j, sc, er, &rec);
	il_json_end_object(j);
}

int main(int argc, char **argv)
{
	static const char summary[] =
		"SCHED_DEADLINE tasks sharing locks, judged against the "
		"M-BWI guarantees: bandwidth preservation, temporal isolation "
		"and the interference bound (docs/m-bwi.md).  SCENARIO is "
		"basic, chain, cross-cpu, steal-budget or kmutex (default: "
		"all five, in that order).  Exit status: 0 every verdict as "
		"expected, 1 "
		"otherwise, 2 usage, 77 cannot run here, 99 broken setup, "
		"128+N interrupted.";
	struct il_run_info ri = { .program = PROG, .argc = argc, .argv = argv };
	static struct il_hist calib[IL_MAX_TASKS], calib_any;
	const struct dl_job *jobs[MAX_SCEN];
	struct demo_check ck[MAX_CHECKS];
	struct il_sysinfo si;
	struct cfg cfg;
	struct il_afile af;
	struct il_json j;
	char err[512], names[96];
	int ret, pos, njobs = 0, rc = 0, ntap = 0, nexp = 0, nunexp = 0;
	int nundec = 0;
	bool json_open = false, unreserve_used = false;

	memset(&cfg, 0, sizeof(cfg));
	ret = demo_args(argc, argv, tables, &cfg, PROG,
			"[SCENARIO...] [OPTIONS]", summary, MAX_SCEN, &pos);
	if (ret >= 0)
		return ret;
	scenario_names(names, sizeof(names));
	if (cfg.list) {
		for (const struct dl_job *jb = dl_jobs; jb->scenario; jb++) {
			struct il_scenario sc;

			if (il_scenario_parse(jb->text, jb->file, &sc, err,
					      sizeof(err)))
				continue;
			printf("%-13s %s\n", jb->scenario,
			       sc.g.description ? sc.g.description : "");
			il_scenario_free(&sc);
		}
		return 0;
	}
	for (int i = pos; i < argc; i++) {
		const struct dl_job *jb = find_job(argv[i]);

		if (!jb) {
			fprintf(stderr,
				"%s: unknown scenario '%s' (%s)\nTry '%s "
				"--help'.\n",
				PROG, argv[i], names, PROG);
			return 2;
		}
		jobs[njobs++] = jb;
	}
	if (!njobs)
		for (const struct dl_job *jb = dl_jobs;
		     jb->scenario && njobs < MAX_SCEN; jb++)
			jobs[njobs++] = jb;

	/* every scenario is built before anything runs: a mistake costs
	 * nothing */
	for (int s = 0; s < njobs; s++) {
		struct il_sched declared[IL_MAX_TASKS];
		struct il_scenario sc;
		int unres;

		ret = build(jobs[s], &cfg, &sc, declared, &unres, err,
			    sizeof(err));
		if (ret < 0) {
			fprintf(stderr, "%s: %s: %s\n", PROG, jobs[s]->scenario,
				err);
			return 2;
		}
		unreserve_used |= ret == 0 && unres >= 0;
		il_scenario_free(&sc);
	}
	if (cfg.unreserve && !unreserve_used) {
		fprintf(stderr,
			"%s: --unreserve %s: no task of that name in the "
			"scenarios run (try --print-job)\n",
			PROG, cfg.unreserve);
		return 2;
	}
	for (int s = 0; cfg.print_job && s < njobs; s++) {
		struct il_sched declared[IL_MAX_TASKS];
		struct il_scenario sc;
		int unres;

		if (build(jobs[s], &cfg, &sc, declared, &unres, err,
			  sizeof(err)) < 0)
			return 2;
		printf("%s; scenario %s\n", s ? "\n" : "", jobs[s]->scenario);
		il_scenario_write(&sc, stdout);
		il_scenario_free(&sc);
	}
	if (cfg.print_job)
		return 0;
	if (il_sched_probe_rt(1, err, sizeof(err)))
		return demo_skip(&cfg.common, PROG, err);

	if (il_lock_memory(err, sizeof(err)) && !cfg.common.quiet)
		fprintf(stderr, PROG ": note: %s\n", err);
	clock_gettime(CLOCK_REALTIME, &ri.start);
	il_sysinfo_read(&si);
	ri.sys = &si;
	demo_signals();
	if (!cfg.common.quiet && !cfg.common.tap) {
		char d[24];

		il_format_duration(d, sizeof(d), cfg.common.duration_ns);
		printf("%s: %d scenario%s, %s each, %s%s%s\n", PROG, njobs,
		       njobs == 1 ? "" : "s", d,
		       cfg.partition ? "partitioned EDF (cpuset partitions)"
				     : "global EDF",
		       cfg.unreserve ? ", negative control: no reservation "
				       "for "
				     : "",
		       cfg.unreserve ? cfg.unreserve : "");
		demo_kernel_line(stdout, &si);
		fflush(stdout);
	}
	if (cfg.common.json) {
		if (il_afile_open(&af, cfg.common.json)) {
			fprintf(stderr, "%s: --json: cannot create '%s'\n",
				PROG, cfg.common.json);
			return 2;
		}
		json_open = true;
		il_json_init(&j, af.f);
		il_report_begin(&j, &ri);
		il_json_uint(&j, "duration_ns", cfg.common.duration_ns);
		il_json_int(&j, "repeat", cfg.common.repeat);
		il_json_begin_array(&j, "runs");
	}
	if (cfg.common.tap)
		printf("TAP version 13\n");

	for (int s = 0; s < njobs && !demo_signal && rc != 77 && rc != 99;
	     s++) {
		struct il_sched declared[IL_MAX_TASKS];
		struct il_judge_env env;
		struct il_scenario sc;
		int unres;

		memset(&env, 0, sizeof(env));
		memset(declared, 0, sizeof(declared));
		ret = build(jobs[s], &cfg, &sc, declared, &unres, err,
			    sizeof(err));
		if (ret < 0) { /* was built once already */
			fprintf(stderr, "%s: %s\n", PROG, err);
			rc = 99;
			break;
		}
		env.unreserved = unres;
		if (unres >= 0)
			env.declared[unres] = &declared[unres];
		for (int rep = 1; rep <= cfg.common.repeat && !demo_signal;
		     rep++) {
			struct il_engine_opts eo = { .stop = &demo_stop,
						     .partition =
							     cfg.partition };
			struct il_engine_result er;
			struct live_ctx lc;
			char tag[16];
			int nck = 0;

			demo_run_tag(cfg.common.repeat, rep, tag, sizeof(tag));
			if (!cfg.common.quiet && !cfg.common.tap) {
				printf("\n== %s%s (%s): %s\n",
				       jobs[s]->scenario, tag, jobs[s]->file,
				       sc.g.description ? sc.g.description
							: "");
				fflush(stdout);
			}
			if (cfg.common.live) {
				memset(&lc, 0, sizeof(lc));
				il_live_init(&lc.live, stdout, -1);
				snprintf(lc.title, sizeof(lc.title), "%s: %s%s",
					 PROG, jobs[s]->scenario, tag);
				eo.progress = live_frame;
				eo.progress_ctx = &lc;
			}
			ret = il_engine_run(&sc, &eo, &er, err, sizeof(err));
			if (cfg.common.live)
				il_live_end(&lc.live);
			if (ret == -EPERM || ret == -EBUSY || ret == -EINVAL) {
				rc = demo_skip(&cfg.common, PROG, err);
				break;
			}
			if (ret) {
				fprintf(stderr, "%s: %s\n", PROG,
					err[0] ? err : strerror(-ret));
				rc = 99;
				break;
			}
			memset(ck, 0, sizeof(ck));
			/*
			 * Stopped by a signal: what was measured is written,
			 * nothing is judged on it.  Otherwise the calibration
			 * is measured here and the judge (validators/judge.c)
			 * decides; a check it cannot judge is reported with
			 * why and never counts as a pass.
			 */
			/* no calibration of an earlier run is recorded */
			memset(env.calib, 0, sizeof(env.calib));
			env.calib_any = NULL;
			ret = demo_signal ? 0
					  : demo_judge_env(&sc, &er, &si,
							   IL_JUDGE_MBWI,
							   &demo_stop, calib,
							   &calib_any, &env,
							   err, sizeof(err));
			if (ret) {
				fprintf(stderr, "%s: calibration: %s\n", PROG,
					err);
				rc = demo_signal ? rc : 99;
			} else if (!demo_signal) {
				ret = il_judge_run(
					&sc, &er, &env, IL_JUDGE_MBWI, ck,
					MAX_CHECKS, &nck, err, sizeof(err));
				if (ret) {
					fprintf(stderr,
						"%s: %s: no verdict: %s\n",
						PROG, jobs[s]->scenario, err);
					rc = 99;
				}
			}
			for (int i = 0; i < nck; i++) {
				bool und;

				if (demo_as_expected(ck[i].c.verdict,
						     ck[i].expected, &und)) {
					nexp += !und;
					nundec += und;
				} else {
					nunexp++;
					rc = rc ? rc : 1;
				}
			}
			if (er.hung) {
				fprintf(stderr,
					"%s: %s: the run was stopped: %s\n",
					PROG, jobs[s]->scenario, er.hung_why);
				rc = rc ? rc : 1;
			}
			if (cfg.common.tap) {
				demo_print_dl_tasks(stdout, &sc, &er, "# ");
				demo_print_checks(stdout, ck, nck,
						  jobs[s]->scenario, tag, true,
						  &ntap);
			} else {
				if (!cfg.common.quiet) {
					printf("placement: %s\n", er.placement);
					if (er.partitions[0])
						printf("partitions: %s\n",
						       er.partitions);
					demo_print_dl_tasks(stdout, &sc, &er,
							    "");
				}
				demo_print_checks(stdout, ck, nck,
						  jobs[s]->scenario, tag, false,
						  NULL);
			}
			fflush(stdout);
			if (json_open)
				write_run(&j, &sc, jobs[s]->scenario, &cfg, &er,
					  ck, nck, rep, &env);
			il_engine_result_free(&er);
			if (rc == 99)
				break;
		}
		il_scenario_free(&sc);
	}
	if (demo_signal)
		rc = 128 + demo_signal;
	if (cfg.common.tap && rc != 77)
		printf("1..%d\n", ntap);
	else if (!cfg.common.tap && rc != 77)
		printf("\n%s: %d check%s as expected, %d undecided (noise "
		       "could explain them), %d not as expected\n",
		       PROG, nexp, nexp == 1 ? "" : "s", nundec, nunexp);
	if (json_open) {
		il_json_end_array(&j);
		il_json_bool(&j, "interrupted", demo_signal != 0);
		il_report_end(&j, rc);
		fputc('\n', af.f);
		if (!il_json_error(&j) && il_afile_commit(&af) == 0)
			return rc;
		if (il_json_error(&j))
			il_afile_abort(&af);
		fprintf(stderr, "%s: --json: cannot write '%s'\n", PROG,
			cfg.common.json);
		rc = 99; /* whatever the verdicts */
	}
	return rc;
}
