// SPDX-License-Identifier: MIT
/*
 * The driver's run loop (driver.h): drv_main reads the command line and
 * checks what the families do not (--probe, --stage-pause, the
 * --trace-export directory), builds every configuration before anything
 * runs (driver-config.c), skips with 77 when the real-time probe says
 * no, locks memory and takes SIGINT/SIGTERM; then each configuration,
 * --repeat times: the engine, the run's cgroups and kernel mutexes
 * removed, the verdicts (driver-judge.c), the worst wait and the trace
 * export (driver-export.c), the reports (driver-report.c) and the board
 * (driver-show.c); at the end the summary and the exit status.  The top
 * of driver*.c: it calls the others, none of them calls it
 * (driver-private.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <invlab/attrib.h>
#include <invlab/cgroup.h>
#include <invlab/expect.h>
#include <invlab/kmutex.h>
#include <invlab/runlock.h>
#include <invlab/sched.h>
#include <invlab/stage.h>

#include "driver-private.h"
#include "driver-show.h"
#include "judge-env.h"

/* One run of configuration c. */
static void run_one(struct session *s, int c, int repeat)
{
	struct drv *d = s->d;
	const struct drv_family *f = d->fam;
	struct il_engine_opts eo = { .stop = &demo_stop,
				     .partition = d->partition,
				     .boost_from = f->boost_from,
				     .samples_task = f->subject,
				     .probe = &d->probe };
	struct drv_run *r = calloc(1, sizeof(*r));
	struct il_scenario sc;
	char err[512] = "";
	int ret;

	if (!r) {
		fprintf(stderr, "%s: out of memory\n", f->prog);
		__drv_note_rc(s, 99);
		s->stop = true;
		return;
	}
	r->config = c;
	r->name = d->configs[c].name;
	r->repeat = repeat;
	/* KTAP has no escape for '#': " run 2" there, " #2" elsewhere */
	if (d->c->ktap && d->c->repeat > 1)
		snprintf(r->tag, sizeof(r->tag), " run %d", repeat);
	else
		demo_run_tag(d->c->repeat, repeat, r->tag, sizeof(r->tag));
	r->sc = &sc;
	r->er = s->er;
	r->env.unreserved = -1;
	if (f->cannot_run && f->cannot_run(d, c, err, sizeof(err))) {
		if (repeat == 1)
			fprintf(stderr, "%s: %s: SKIP: %s\n", f->prog, r->name,
				err);
		/* a test of its own: a configuration skipped, and why */
		__drv_tap_skip(d, r, err);
		free(r);
		return;
	}
	ret = drv_build(d, c, &sc, err, sizeof(err));
	if (!ret) {
		r->env.unreserved = d->unreserved[c];
		for (int i = 0; i < IL_MAX_TASKS; i++)
			if (d->declared[c][i].policy == IL_SCHED_DEADLINE)
				r->env.declared[i] = &d->declared[c][i];
		ret = il_judge_validators(&sc, &r->mask, err, sizeof(err));
		if (ret)
			il_scenario_free(&sc);
	}
	if (!ret && __drv_unsupported(&sc, err, sizeof(err))) {
		__drv_skip_run(s, r, err);
		il_scenario_free(&sc);
		free(r);
		return;
	}
	if (ret) { /* was built once already */
		fprintf(stderr, "%s: %s\n", f->prog, err);
		__drv_note_rc(s, 99);
		s->stop = true;
		free(r);
		return;
	}
	drv_show_begin(s->show, r, &eo);
	if (f->prepare)
		f->prepare(d, c);
	ret = il_engine_run(&sc, &eo, s->er, err, sizeof(err));
	drv_show_ran(s->show, r);
	/* whatever happened, nothing of this run stays */
	il_cgroup_cleanup_all();
	il_kmutex_cleanup_all();
	if (ret && __drv_refused(f, ret) && f->skip_refused) {
		fprintf(stderr, "%s: %s: SKIP: %s\n", f->prog, r->name, err);
		__drv_tap_skip(d, r, err);
	} else if (ret && __drv_refused(f, ret)) {
		/* 77, unless an earlier run said more (1, 99) */
		__drv_note_rc(s, __drv_skip_here(s, err));
		s->stop = true;
	} else if (ret) {
		fprintf(stderr, "%s: %s\n", f->prog,
			err[0] ? err : strerror(-ret));
		__drv_note_rc(s, 99);
		s->stop = true;
	} else {
		d->nruns++;
		/* who ran in the waits, from the scheduler's trace (attrib.h):
		 * the judge and the result file both take it from here */
		s->er->tick_ns = d->tick_ns;
		if (il_attribute_run(&sc, s->er) ||
		    il_attribute_edf(&sc, r->env.declared, s->er,
				     judge_env_run_witness(&d->si)))
			fprintf(stderr, "%s: %s: trace not used: %s\n", f->prog,
				r->name, strerror(ENOMEM));
		__drv_judge(s, r);
		__drv_keep_timeline(s, r);
		if (s->have_tl)
			drv_show_timeline(s->show, &s->tl);
		__drv_report_run(s, r);
		__drv_export_trace(s, r);
		drv_show_judged(s->show, r);
		il_engine_result_free(s->er);
	}
	il_scenario_free(&sc);
	free(r);
}

static int run_all(struct session *s, int argc, char **argv)
{
	struct drv *d = s->d;
	const struct drv_family *f = d->fam;
	struct il_run_info ri = {
		.program = f->prog, .argc = argc, .argv = argv, .sys = &d->si
	};

	clock_gettime(CLOCK_REALTIME, &ri.start);
	s->show = drv_show_new(d);
	s->out = drv_show_out(s->show);
	d->wrap = drv_show_wrap(s->show);
	if (d->c->json) {
		int ret = il_afile_open(&s->af, d->c->json);

		if (ret) {
			fprintf(stderr, "%s: --json: cannot create '%s': %s\n",
				f->prog, d->c->json, strerror(-ret));
			return 2;
		}
		s->json = true;
		il_json_init(&s->j, s->af.f);
		if (d->c->json_pretty)
			il_json_set_pretty(&s->j, true);
		il_report_begin(&s->j, &ri);
		if (f->json_head)
			f->json_head(d, &s->j);
		il_json_begin_array(&s->j, "runs");
	}
	if (!d->c->quiet && !d->c->tap) {
		char plan[512];

		if (f->header)
			f->header(d, s->out);
		drv_default_plan(d, plan, sizeof(plan));
		if (plan[0])
			fprintf(s->out, "runs: %s, whichever comes first\n",
				plan);
		demo_kernel_line(s->out, &d->si);
		fflush(s->out);
	}
	/* --ktap: the version line and the plan come at the end (drv_main) */
	if (d->c->tap && !d->c->ktap)
		il_tap_version(stdout);
	for (int k = 1, n = 0; k <= d->c->repeat && !demo_signal && !s->stop;
	     k++)
		for (int c = 0; c < d->nconfigs && !demo_signal && !s->stop;
		     c++)
			if (d->want[c]) {
				/* --stage: the audience says when */
				if (n++)
					drv_show_pause(s->show,
						       d->configs[c].name);
				run_one(s, c, k);
			}
	/* the board's last frame, then the reports it held */
	drv_show_free(s->show);
	s->show = NULL;
	s->out = stdout;
	if (demo_signal) {
		s->rc = 128 + demo_signal;
	} else if (d->nexp || d->nundec || d->nunexp) {
		/* 3 when a check where PASS was expected is UNDECIDED, as
		 * expected otherwise: an UNDECIDED is not a pass */
		struct il_exit_tally t = { .as_expected = (unsigned)d->nexp,
					   .undecided = (unsigned)d->nundec,
					   .not_as_expected =
						   (unsigned)d->nunexp };

		__drv_note_rc(s, il_exit_status(&t, 100));
	}
	if ((f->skip_refused || s->nskipped) && !d->nruns && !s->rc &&
	    !demo_signal)
		s->rc = __drv_skip_here(s, "no configuration could run "
					   "here (reasons above)");
	if (s->rc == 77 && d->c->tap && d->ntap && !d->c->ktap)
		il_tap_plan(stdout, d->ntap);
	if (s->rc != 77) {
		if (f->end_text)
			f->end_text(d, stdout, d->c->tap ? "# " : "");
		__drv_print_rows(d, stdout, d->c->tap ? "# " : "");
		/* --ktap: its plan comes first (demo_ktap_release) */
		if (d->c->tap) {
			if (!d->c->ktap)
				il_tap_plan(stdout, d->ntap);
		} else if (f->count_line)
			printf("\n%s: %d check%s as expected, %d undecided "
			       "(noise could explain them), %d not as "
			       "expected\n",
			       f->prog, d->nexp, d->nexp == 1 ? "" : "s",
			       d->nundec, d->nunexp);
	}
	if (demo_signal)
		fprintf(stderr,
			"%s: interrupted by signal %d; results so far "
			"written\n",
			f->prog, (int)demo_signal);
	fflush(stdout);
	return s->json ? __drv_close_json(s) : s->rc;
}

int drv_main(const struct drv_family *f, int argc, char **argv)
{
	struct session s = { 0 };
	struct drv *d = calloc(1, sizeof(*d));
	char err[512];
	int rc, pos = 0, prio;

	if (d)
		d->cfg = calloc(1, f->cfg_size);
	s.d = d;
	s.er = calloc(1,
		      sizeof(*s.er)); /* a couple of MB: never on the stack */
	s.calib = calloc(IL_MAX_TASKS + 1, sizeof(*s.calib));
	if (!d || !d->cfg || !s.er || !s.calib) {
		fprintf(stderr, "%s: out of memory\n", f->prog);
		rc = 99;
		goto out;
	}
	d->fam = f;
	d->c = d->cfg; /* first member, see opt.h */
	/* the common options, their --help saying the default run's */
	__drv_default_help(d);
	d->tables[0] = d->common;
	d->tables[1] = f->opts;
	rc = demo_args(argc, argv, d->tables, d->cfg, f->prog, f->usage,
		       f->summary, f->max_pos, &pos);
	if (rc >= 0)
		goto out;
	{
		/* how the runs end (opt.h il_opt_run_limit): the family's
		 * default run, or the command line's; --duration as the
		 * reports and result files give it: a target's 60s without
		 * it (a job's own duration stands), the default run's
		 * longest bound */
		struct il_run_limit lim;

		il_opt_run_limit(d->c, 0, 0, &lim);
		d->c->duration_ns = lim.duration_ns;
		for (const struct drv_default *r = f->defaults;
		     r && r->bound_ns; r++) {
			il_opt_run_limit(d->c, r->tail, r->bound_ns, &lim);
			if (!lim.by_default)
				break;
			if (!d->default_run || r->bound_ns > d->c->duration_ns)
				d->c->duration_ns = r->bound_ns;
			d->default_run = true;
		}
	}
	if (d->c->probe &&
	    (il_probe_parse(d->c->probe, &d->probe, err, sizeof(err)) ||
	     il_probe_check_cpus(&d->probe, err, sizeof(err)))) {
		fprintf(stderr, "%s: --probe: %s\nTry '%s --help'.\n", f->prog,
			err, f->prog);
		rc = 2;
		goto out;
	}
	{
		uint64_t ns;

		if (il_stage_parse_pause(d->c->stage_pause, &ns)) {
			fprintf(stderr,
				"%s: --stage-pause: '%s' is neither 'key' nor "
				"a duration from 0 to 1h\nTry '%s --help'.\n",
				f->prog, d->c->stage_pause, f->prog);
			rc = 2;
			goto out;
		}
	}
	for (int c = 0; c < f->nconfigs && c < DRV_MAX_CONFIGS; c++) {
		d->configs[c] = f->configs[c];
		d->want[c] = true;
	}
	d->nconfigs = f->nconfigs;
	il_sysinfo_read(&d->si);
	d->tick_ns = demo_tick_ns(&d->si);
	d->partition = drv_flag(d, "partition");
	if ((rc = __drv_check_export_dir(d)))
		goto out;
	if (f->setup && (rc = f->setup(d, argc, argv, pos)) >= 0)
		goto out;
	d->rows =
		calloc((size_t)(d->nconfigs * d->c->repeat), sizeof(*d->rows));
	if (!d->rows) {
		fprintf(stderr, "%s: out of memory\n", f->prog);
		rc = 99;
		goto out;
	}
	rc = __drv_build_all(d, &prio);
	if (rc >= 0)
		goto out;
	if (prio && !f->skip_refused &&
	    il_sched_probe_rt(prio, err, sizeof(err))) {
		rc = demo_skip(d->c, f->prog, err);
		goto out;
	}
	if (il_lock_memory(err, sizeof(err)) && !d->c->quiet)
		fprintf(stderr, "%s: note: %s\n", f->prog, err);
	/* signals go to this thread only: the task threads block them */
	demo_signals();
	/* --ktap: what run_all writes is held until its plan is known */
	if (d->c->ktap && (rc = demo_ktap_hold())) {
		fprintf(stderr,
			"%s: --ktap: cannot hold standard output in a "
			"temporary file: %s\n",
			f->prog, strerror(-rc));
		rc = 99;
		goto out;
	}
	rc = run_all(&s, argc, argv);
	if (d->c->ktap)
		demo_ktap_release(d->ntap, s.skip_why[0] ? s.skip_why : NULL);
out:
	/* --exit-status=kselftest (demo_exit); d->cfg starts with the
	 * common options (opt.h) */
	if (d && d->cfg)
		rc = demo_exit(d->cfg, rc);
	if (d) {
		free(d->cfg);
		free(d->rows);
	}
	free(d);
	free(s.er);
	free(s.calib);
	return rc;
}
