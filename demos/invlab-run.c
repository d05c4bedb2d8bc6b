// SPDX-License-Identifier: MIT
/*
 * invlab-run: run any job file and judge it.
 *
 *   sudo invlab-run demos/jobs/pi-classic.job
 *   sudo invlab-run demos/jobs/pi-classic.job --set M.protocol=none \
 *        --set expect=FAIL --json out.json
 *
 * The job file describes tasks, resources and bodies (docs/job-files.md);
 * the engine runs it; the validators the job names in `validate` judge
 * it ("auto" picks them from the scenario's shape):
 *
 *   pi     every real-time task that takes locks is judged against the
 *          one-CPU priority-inheritance bound over the critical sections
 *          of the lower-priority tasks that use its locks (the immediate
 *          ceiling bound when all its locks are `protect`);
 *   chain  the highest-priority task that takes a lock is the head of a
 *          chain of owners; judged against the transitive inheritance
 *          bound, or the remote-blocking fixed point when a task above
 *          the head shares an owner's CPU;
 *   none   measure only.
 *
 * Exit: 0 when every verdict is the job's `expect` (PASS by default; an
 * UNDECIDED where PASS is expected counts, reported as undecided), 1
 * otherwise, 2 for a bad job file or usage (FILE:LINE: message), 77 when
 * it cannot run here (reason printed), 99 broken setup, 128+N interrupted.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <invlab/attrib.h>
#include <invlab/cpu.h>
#include <invlab/engine.h>
#include <invlab/hist.h>
#include <invlab/judge.h>
#include <invlab/live.h>
#include <invlab/opt.h>
#include <invlab/report.h>
#include <invlab/scenario.h>
#include <invlab/sched.h>
#include <invlab/strbuf.h>
#include <invlab/sysinfo.h>
#include <invlab/time.h>
#include <invlab/validate.h>
#include <invlab/verdict.h>

#include "demo.h"
#include "mbwi-common.h"

struct cfg {
	struct il_common_cfg common; /* must come first: see opt.h */
	struct il_strlist set;
	int print_job;
	int partition;
};

#define O(f) offsetof(struct cfg, f)
static const struct il_opt run_opts[] = {
	{ "set", 's', IL_OPT_LIST, O(set), NULL, 0, 0, 0, NULL,
	  "NAME.KEY=VALUE",
	  "change one key of the job before it runs (NAME is global, a task "
	  "or a resource; may be repeated)",
	  NULL },
	{ "print-job", 0, IL_OPT_FLAG, O(print_job), NULL, 0, 0, 0, NULL, NULL,
	  "print the job as it will run (after --set and --duration) and "
	  "exit",
	  NULL },
	{ "partition", 0, IL_OPT_FLAG, O(partition), NULL, 0, 0, 0, NULL, NULL,
	  "run SCHED_DEADLINE tasks partitioned: each in a cpuset partition "
	  "of one CPU (its `partition` key, or the least loaded), created "
	  "for the run and removed after it (docs/m-bwi.md)",
	  NULL },
	{ .name = NULL },
};
#undef O

static const struct il_opt *const tables[] = { il_common_opts, run_opts, NULL };

#define MAX_CHECKS (2 * IL_MAX_TASKS)

#define check demo_check

/* a real-time or deadline task: the run needs real-time privilege */
static bool is_rt(const struct il_sched *s)
{
	return s->policy == IL_SCHED_DEADLINE || s->policy == IL_SCHED_FIFO ||
	       s->policy == IL_SCHED_RR;
}

static void print_tasks_rt(FILE *f, const struct il_scenario *sc,
			   const struct il_engine_result *er, const char *pfx)
{
	struct il_table t;
	char a[24], b[24], c[24], d[24], e[24];

	il_table_init(&t);
	il_table_col(&t, "task", false);
	il_table_col(&t, "placement", false);
	il_table_col(&t, "jobs", true);
	il_table_col(&t, "wakeup p99", true);
	il_table_col(&t, "response p99", true);
	il_table_col(&t, "lock", false);
	il_table_col(&t, "blocked p50", true);
	il_table_col(&t, "p99", true);
	il_table_col(&t, "max", true);
	for (int i = 0; i < er->ntasks; i++) {
		const struct il_task_result *r = &er->tasks[i];
		int rows = r->nlocks ? r->nlocks : 1;

		for (int l = 0; l < rows; l++) {
			il_format_stat(a, sizeof(a), &r->wakeup, 0.99);
			il_format_stat(b, sizeof(b), &r->response, 0.99);
			il_table_cell(&t, "%s", l ? "" : r->name);
			il_table_cell(&t, "%s", l ? "" : r->placement);
			if (l)
				il_table_cell(&t, "%s", "");
			else
				il_table_cell(&t, "%" PRIu64, r->jobs);
			il_table_cell(&t, "%s", l ? "" : a);
			il_table_cell(&t, "%s", l ? "" : b);
			if (!r->nlocks) {
				for (int k = 0; k < 4; k++)
					il_table_cell(&t, "%s", "");
				continue;
			}
			il_format_stat(c, sizeof(c), &r->locks[l]->blocked,
				       0.5);
			il_format_stat(d, sizeof(d), &r->locks[l]->blocked,
				       0.99);
			il_format_stat(e, sizeof(e), &r->locks[l]->blocked, -1);
			il_table_cell(&t, "%s", sc->res[r->locks[l]->res].name);
			il_table_cell(&t, "%s", c);
			il_table_cell(&t, "%s", d);
			il_table_cell(&t, "%s", e);
		}
	}
	il_table_print_prefixed(&t, f, pfx);
	il_table_free(&t);
}

static void print_tasks(FILE *f, const struct il_scenario *sc,
			const struct il_engine_result *er, const char *pfx)
{
	for (int i = 0; i < sc->ntasks; i++)
		if (sc->tasks[i].sched.policy == IL_SCHED_DEADLINE) {
			demo_print_dl_tasks(f, sc, er, pfx);
			return;
		}
	print_tasks_rt(f, sc, er, pfx);
}

static void write_job(struct il_json *j, const struct il_scenario *sc,
		      int64_t repeat)
{
	char *job = NULL;
	size_t jlen = 0;
	FILE *m = open_memstream(&job, &jlen);

	if (m) {
		il_scenario_write(sc, m);
		fclose(m);
	}
	il_json_begin_object(j, "job");
	il_json_str(j, "file", sc->file);
	il_json_str(j, "name", sc->g.name);
	il_json_str(j, "description", sc->g.description);
	il_json_str(j, "text", job);
	il_json_int(j, "repeat", repeat);
	il_json_end_object(j);
	free(job);
}

static void write_run(struct il_json *j, const struct il_scenario *sc,
		      const struct il_engine_result *er, const struct check *ck,
		      int nck, int repeat, const struct il_judge_env *env,
		      unsigned mask)
{
	struct il_judge_record rec;

	il_json_begin_object(j, NULL);
	il_json_str(j, "configuration", sc->g.name);
	il_json_int(j, "repeat", repeat);
	il_json_str(j, "expected",
		    il_verdict_name((enum il_verdict)(IL_PASS + sc->g.expect)));
	il_json_uint(j, "rounds", er->rounds);
	il_json_uint(j, "elapsed_ns", er->elapsed_ns);
	il_json_uint(j, "steal_ns", er->steal_ns);
	il_json_str(j, "placement", er->placement);
	il_json_str(j, "partitions", er->partitions);
	il_json_str(j, "numa", er->numa);
	il_json_str(j, "lock_placement", er->lock_placement);
	il_json_bool(j, "hung", er->hung);
	il_json_str(j, "hung_reason", er->hung ? er->hung_why : NULL);
	demo_json_checks(j, ck, nck);
	demo_json_tasks(j, sc, er);
	/* everything the verdicts were decided from (invlab-judge) */
	demo_judge_record(env, mask, &rec);
	il_report_judge_inputs(j, sc, er, &rec);
	il_json_end_object(j);
}

/* --live: every task's lock waits (or wakeups) as they come */
struct live_ctx {
	struct il_live live;
	char title[96];
	const struct il_scenario *sc;
};

static void live_frame(void *arg, const struct il_engine_result *er)
{
	struct live_ctx *lc = arg;
	struct il_live_row rows[IL_LIVE_MAX_ROWS];
	int n = 0;

	memset(rows, 0, sizeof(rows));
	for (int i = 0; i < er->ntasks && n < IL_LIVE_MAX_ROWS; i++) {
		const struct il_task_result *r = &er->tasks[i];

		if (!r->nlocks) {
			snprintf(rows[n].name, sizeof(rows[n].name),
				 "%.30s wakeup", r->name);
			rows[n++].h = &r->wakeup;
			continue;
		}
		for (int l = 0; l < r->nlocks && n < IL_LIVE_MAX_ROWS; l++) {
			snprintf(rows[n].name, sizeof(rows[n].name),
				 "%.20s blocked on %.10s", r->name,
				 lc->sc->res[r->locks[l]->res].name);
			rows[n++].h = &r->locks[l]->blocked;
		}
	}
	il_live_frame(&lc->live, lc->title, rows, n);
}

int main(int argc, char **argv)
{
	static const char summary[] =
		"Run a job file (docs/job-files.md) on the live kernel and "
		"judge "
		"it with the validators it names.  Exit status: 0 every "
		"verdict "
		"as the job expects, 1 otherwise, 2 bad job file or usage, 77 "
		"cannot run here, 99 broken setup, 128+N interrupted.";
	struct il_run_info ri = { .program = "invlab-run",
				  .argc = argc,
				  .argv = argv };
	struct il_engine_opts eo = { .stop = &demo_stop };
	struct check ck[MAX_CHECKS + 1];
	static struct il_hist calib[IL_MAX_TASKS], calib_any;
	struct il_judge_env env;
	struct il_engine_result er;
	struct il_scenario sc;
	struct il_sysinfo si;
	struct cfg cfg;
	char err[512];
	int ret, nck = 0, rc = 0, ntap = 0, pos;
	bool json_open = false;
	unsigned mask = 0;
	const char *idle_task;
	struct il_afile af;
	struct il_json j;

	memset(&cfg, 0, sizeof(cfg));
	ret = demo_args(argc, argv, tables, &cfg, "invlab-run",
			"JOBFILE [OPTIONS]", summary, 1, &pos);
	if (ret >= 0)
		return ret;
	if (pos >= argc) {
		fprintf(stderr, "invlab-run: which job file? (e.g. "
				"demos/jobs/pi-classic.job)\nTry 'invlab-run "
				"--help'.\n");
		return 2;
	}
	ret = pos;
	ret = il_scenario_load(argv[ret], &sc, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "invlab-run: %s\n", err);
		il_scenario_free(&sc);
		return 2;
	}
	for (int i = 0; i < cfg.set.n; i++) {
		if (il_scenario_set(&sc, cfg.set.v[i], err, sizeof(err))) {
			fprintf(stderr, "invlab-run: %s\n", err);
			il_scenario_free(&sc);
			return 2;
		}
	}
	/* --duration on the command line wins over the job's; the table's
	 * default must not, so look for the option itself */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strncmp(argv[i], "--duration", 10) ||
		    (!strncmp(argv[i], "-d", 2) && argv[i][1] != '-'))
			sc.g.duration_ns = cfg.common.duration_ns;
	if (cfg.print_job) {
		il_scenario_write(&sc, stdout);
		il_scenario_free(&sc);
		return 0;
	}
	eo.partition = cfg.partition;
	if (il_judge_validators(&sc, &mask, err, sizeof(err))) {
		fprintf(stderr, "invlab-run: %s\n", err);
		il_scenario_free(&sc);
		return 2;
	}
	for (int i = 0; i < sc.ntasks; i++) {
		if (is_rt(&sc.tasks[i].sched) &&
		    (ret = il_sched_probe_rt(1, err, sizeof(err)))) {
			il_scenario_free(&sc);
			return demo_skip(&cfg.common, "invlab-run", err);
		}
	}
	if (il_lock_memory(err, sizeof(err)) && !cfg.common.quiet)
		fprintf(stderr, "invlab-run: note: %s\n", err);
	clock_gettime(CLOCK_REALTIME, &ri.start);
	il_sysinfo_read(&si);
	ri.sys = &si;
	demo_signals();

	if (!cfg.common.quiet && !cfg.common.tap) {
		char d[24];

		il_format_duration(d, sizeof(d), sc.g.duration_ns);
		printf("invlab-run: %s (%s): %d tasks, %d resources, %s; "
		       "validate = %s\n",
		       sc.g.name, sc.file, sc.ntasks, sc.nres, d,
		       sc.g.validate);
		if (sc.g.description)
			printf("  %s\n", sc.g.description);
		demo_kernel_line(stdout, &si);
		fflush(stdout);
	}
	if (cfg.common.json) {
		if (il_afile_open(&af, cfg.common.json)) {
			fprintf(stderr,
				"invlab-run: --json: cannot create "
				"'%s'\n",
				cfg.common.json);
			il_scenario_free(&sc);
			return 2;
		}
		json_open = true;
		il_json_init(&j, af.f);
		il_report_begin(&j, &ri);
		write_job(&j, &sc, cfg.common.repeat);
		il_json_begin_array(&j, "runs");
	}
	if (cfg.common.tap)
		printf("TAP version 13\n");
	for (int rep = 1; rep <= cfg.common.repeat && !demo_signal; rep++) {
		struct live_ctx lc;
		char tag[16] = "";

		if (cfg.common.repeat > 1)
			snprintf(tag, sizeof(tag), " #%d", rep);
		if (cfg.common.live) {
			memset(&lc, 0, sizeof(lc));
			il_live_init(&lc.live, stdout, -1);
			snprintf(lc.title, sizeof(lc.title), "invlab-run: %s%s",
				 sc.g.name, tag);
			lc.sc = &sc;
			eo.progress = live_frame;
			eo.progress_ctx = &lc;
		}
		ret = il_engine_run(&sc, &eo, &er, err, sizeof(err));
		if (cfg.common.live)
			il_live_end(&lc.live);
		if (ret == -EPERM || ret == -EBUSY || ret == -EINVAL) {
			rc = demo_skip(&cfg.common, "invlab-run", err);
			break;
		}
		if (ret) {
			fprintf(stderr, "invlab-run: %s\n",
				err[0] ? err : strerror(-ret));
			rc = 99;
			break;
		}
		/* who ran in the waits, from the trace (attrib.h) */
		if (il_attribute_run(&sc, &er))
			fprintf(stderr, "invlab-run: trace not used: %s\n",
				strerror(ENOMEM));
		nck = 0;
		memset(ck, 0, sizeof(ck));
		/*
		 * The calibrations the validators need, measured here, idle,
		 * after the run; the judge itself (validators/judge.c) only
		 * reads.  A check that cannot be judged is reported with why
		 * and never counts as a pass.
		 */
		memset(&env, 0, sizeof(env));
		env.unreserved = -1;
		ret = demo_judge_env(&sc, &er, &si, mask, &demo_stop, calib,
				     &calib_any, &env, err, sizeof(err));
		if (ret) {
			fprintf(stderr, "invlab-run: calibration: %s\n", err);
			rc = 99;
		} else if (mask) {
			ret = il_judge_run(&sc, &er, &env, mask, ck, MAX_CHECKS,
					   &nck, err, sizeof(err));
			if (ret) {
				fprintf(stderr, "invlab-run: no verdict: %s\n",
					err);
				rc = 99;
			}
		}
		for (int i = 0; i < nck; i++)
			if (!demo_as_expected(ck[i].c.verdict, ck[i].expected,
					      NULL))
				rc = rc ? rc : 1;
		/* measure-only jobs still have to run: every task at least one
		 * job, and no wait past the timeout */
		idle_task = NULL;
		for (int i = 0; i < er.ntasks; i++)
			if (!er.tasks[i].jobs && !idle_task)
				idle_task = er.tasks[i].name;
		if (!nck && (idle_task || er.hung))
			rc = rc ? rc : 1;
		if (er.hung)
			fprintf(stderr, "invlab-run: the run was stopped: %s\n",
				er.hung_why);
		if (cfg.common.tap) {
			print_tasks(stdout, &sc, &er, "# ");
			demo_print_checks(stdout, ck, nck, sc.g.name, tag, true,
					  &ntap);
			if (!nck)
				printf("%s %d - %s%s measured only (validate = "
				       "%s): %s%s%s\n",
				       idle_task || er.hung ? "not ok" : "ok",
				       ++ntap, sc.g.name, tag, sc.g.validate,
				       idle_task ? "a task never ran: " : "",
				       idle_task ? idle_task
				       : er.hung ? er.hung_why
						 : "every task ran",
				       "");
		} else {
			if (!cfg.common.quiet) {
				printf("placement: %s (%s)\n", er.placement,
				       er.numa);
				if (er.partitions[0])
					printf("partitions: %s\n",
					       er.partitions);
				print_tasks(stdout, &sc, &er, "");
			}
			demo_print_checks(stdout, ck, nck, NULL, tag, false,
					  NULL);
			if (!nck)
				printf("no check: validate = %s\n",
				       sc.g.validate);
		}
		if (json_open)
			write_run(&j, &sc, &er, ck, nck, rep, &env, mask);
		il_engine_result_free(&er);
	}
	if (demo_signal)
		rc = 128 + demo_signal;
	if (cfg.common.tap && rc != 77)
		printf("1..%d\n", ntap);
	if (json_open) {
		il_json_end_array(&j);
		il_json_bool(&j, "interrupted", demo_signal != 0);
		il_report_end(&j, rc);
		fputc('\n', af.f);
		if (il_json_error(&j)) {
			il_afile_abort(&af);
		} else if (il_afile_commit(&af) == 0) {
			goto written;
		}
		fprintf(stderr, "invlab-run: --json: cannot write '%s'\n",
			cfg.common.json);
		rc = rc ? rc : 99;
	}
written:
	il_scenario_free(&sc);
	return rc;
}
