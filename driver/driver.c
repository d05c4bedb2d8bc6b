// SPDX-License-Identifier: MIT
/* The one demo driver; see driver.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <invlab/attrib.h>
#include <invlab/emulated.h>
#include <invlab/cgroup.h>
#include <invlab/cpu.h>
#include <invlab/expect.h>
#include <invlab/hist.h>
#include <invlab/kmutex.h>
#include <invlab/noise.h>
#include <invlab/runlock.h>
#include <invlab/sched.h>
#include <invlab/stage.h>
#include <invlab/strbuf.h>
#include <invlab/time.h>
#include <invlab/trace-export.h>

#include "driver-show.h"
#include "driver.h"
#include "dl-tasks.h"

int drv_flag(const struct drv *d, const char *name)
{
	const struct il_opt *o = il_opt_find(d->tables, name);

	if (!o || o->type != IL_OPT_FLAG)
		return 0;
	return *(const int *)((const char *)d->cfg + o->offset);
}

int drv_cpu(const struct drv *d, int64_t v)
{
	int cpu = v < 0 ? il_cpu_last_online() : (int)v;

	if (cpu >= 0 && il_cpu_is_online(cpu))
		return cpu;
	fprintf(stderr,
		"%s: --cpu: CPU %" PRId64
		" is not online (see /sys/devices/system/cpu/online)\n",
		d->fam->prog, v);
	return -1;
}

int drv_list(struct drv *d)
{
	struct il_scenario sc;
	char err[512];

	for (int c = 0; c < d->nconfigs; c++) {
		if (drv_build(d, c, &sc, err, sizeof(err)))
			continue;
		printf("%-13s %s\n", d->configs[c].name,
		       sc.g.description ? sc.g.description : "");
		il_scenario_free(&sc);
	}
	return 0;
}

int drv_pick(struct drv *d, int argc, char **argv, int pos, const char *what)
{
	struct drv_config all[DRV_MAX_CONFIGS];
	char names[256] = "";
	int n = d->nconfigs;

	memcpy(all, d->configs, sizeof(all));
	for (int c = 0; c < n; c++)
		il_appendf(names, sizeof(names), "%s%s", c ? ", " : "",
			   all[c].name);
	if (pos < argc)
		d->nconfigs = 0;
	for (int i = pos; i < argc && d->nconfigs < DRV_MAX_CONFIGS; i++) {
		int c = 0;

		while (c < n && strcmp(argv[i], all[c].name))
			c++;
		if (c == n) {
			fprintf(stderr,
				"%s: unknown %s '%s' (%s)\nTry '%s --help'.\n",
				d->fam->prog, what, argv[i], names,
				d->fam->prog);
			return 2;
		}
		d->configs[d->nconfigs++] = all[c];
	}
	for (int c = 0; c < d->nconfigs; c++)
		d->want[c] = true;
	return -1;
}

int drv_build(struct drv *d, int c, struct il_scenario *sc, char *err,
	      size_t len)
{
	const struct drv_config *cf = &d->configs[c];
	int ret;

	ret = cf->text ? il_scenario_parse(cf->text, cf->file, sc, err, len)
		       : il_scenario_load(cf->file, sc, err, len);
	for (int i = 0; !ret && i < DRV_MAX_SETS && cf->set[i]; i++)
		ret = il_scenario_set(sc, cf->set[i], err, len);
	d->unreserved[c] = -1;
	/* --duration, unless the job's own counts (then adjust decides) */
	if (!ret && !d->fam->job_duration)
		sc->g.duration_ns = d->c->duration_ns;
	if (!ret && d->fam->adjust)
		ret = d->fam->adjust(d, c, sc, err, len);
	if (!ret)
		ret = il_scenario_check(sc, err, len);
	if (ret)
		il_scenario_free(sc);
	return ret < 0 ? ret : ret ? -EINVAL : 0;
}

/* the real-time priority the scenario needs (1 for deadline), or 0 */
static int rt_prio(const struct il_scenario *sc)
{
	int p = 0;

	for (int i = 0; i < sc->ntasks; i++) {
		const struct il_sched *s = &sc->tasks[i].sched;

		if ((s->policy == IL_SCHED_FIFO || s->policy == IL_SCHED_RR) &&
		    s->prio > p)
			p = s->prio;
		else if (s->policy == IL_SCHED_DEADLINE && !p)
			p = 1;
	}
	return p;
}

/* what the kernel refuses: exit 77, or a skipped configuration */
static bool refused(const struct drv_family *f, int ret)
{
	return ret == -EPERM || ret == -EBUSY || ret == -EINVAL ||
	       (f->skip_refused && (ret == -ENODEV || ret == -EOPNOTSUPP));
}

void drv_print_checks(struct drv *d, const struct drv_run *r, FILE *f)
{
	const char *name = r->name;
	bool tap = d->c->tap;

	for (int i = 0; i < r->nck; i++) {
		const struct il_judged *k = &r->ck[i];
		const char *got = il_verdict_name(k->c.verdict);
		const char *exp = il_verdict_name(k->expected);
		const char *because = i == 0 ? r->expect_why : "";
		bool info = il_expect(k->c.verdict, k->expected) == IL_OUT_INFO;
		char what[160], desc[512], exp_s[200];
		bool und,
			ok = demo_as_expected(k->c.verdict, k->expected, &und);

		if (d->fam->subject)
			snprintf(what, sizeof(what), "%s%s", name, r->tag);
		else if (tap || d->nconfigs > 1)
			snprintf(what, sizeof(what), "%s%s %s %s", name, r->tag,
				 k->validator, k->task);
		else
			snprintf(what, sizeof(what), "%s %s%s", k->validator,
				 k->task, r->tag);
		/* "expected FAIL (why)", or "(why)" when nothing is expected */
		if (info)
			snprintf(exp_s, sizeof(exp_s), "(%s)",
				 because[0] ? because : "informational");
		else
			snprintf(exp_s, sizeof(exp_s), "expected %s%s%s%s", exp,
				 because[0] ? " (" : "", because,
				 because[0] ? ")" : "");
		if (!tap && d->wrap > 0) {
			/* on a terminal (--live, --stage): words whole */
			char line[1024], out[2048];

			snprintf(line, sizeof(line), "%s: %s%s %s: %s", what,
				 got, info ? "" : ",", exp_s, k->c.evidence);
			if (il_board_wrap(line, "", 4, d->wrap, out,
					  sizeof(out)) > 0) {
				fputs(out, f);
				continue;
			}
		}
		if (!tap) {
			fprintf(f, "%s: %s%s %s: %s\n", what, got,
				info ? "" : ",", exp_s, k->c.evidence);
			continue;
		}
		snprintf(desc, sizeof(desc), "%s: %s (%s%s)", what, got,
			 info ? "informational: " : "expected ",
			 info ? (because[0] ? because : "nothing expected")
			      : exp);
		il_tap_result(f, ok || info, ++d->ntap, desc,
			      und ? "SKIP undecided: measured noise could "
				    "explain it"
				  : NULL);
		il_tap_diag(f, "%s", k->c.evidence);
	}
}

void drv_print_tasks(FILE *f, const struct il_scenario *sc,
		     const struct il_engine_result *er, const char *pfx)
{
	struct il_table t;
	char a[24], b[24], c[24], e[24], g[24];

	for (int i = 0; i < sc->ntasks; i++)
		if (sc->tasks[i].sched.policy == IL_SCHED_DEADLINE) {
			demo_print_dl_tasks(f, sc, er, pfx);
			return;
		}
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

		il_format_stat(a, sizeof(a), &r->wakeup, 0.99);
		il_format_stat(b, sizeof(b), &r->response, 0.99);
		for (int l = 0; l < (r->nlocks ? r->nlocks : 1); l++) {
			const struct il_lock_result *lr =
				r->nlocks ? r->locks[l] : NULL;

			il_table_cell(&t, "%s", l ? "" : r->name);
			il_table_cell(&t, "%s", l ? "" : r->placement);
			if (l)
				il_table_cell(&t, "%s", "");
			else
				il_table_cell(&t, "%" PRIu64, r->jobs);
			il_table_cell(&t, "%s", l ? "" : a);
			il_table_cell(&t, "%s", l ? "" : b);
			if (!lr) {
				for (int k = 0; k < 4; k++)
					il_table_cell(&t, "%s", "");
				continue;
			}
			il_format_stat(c, sizeof(c), &lr->blocked, 0.5);
			il_format_stat(e, sizeof(e), &lr->blocked, 0.99);
			il_format_stat(g, sizeof(g), &lr->blocked, -1);
			il_table_cell(&t, "%s", sc->res[lr->res].name);
			il_table_cell(&t, "%s", c);
			il_table_cell(&t, "%s", e);
			il_table_cell(&t, "%s", g);
		}
	}
	il_table_print_prefixed(&t, f, pfx);
	il_table_free(&t);
}

void drv_json_run(struct drv *d, const struct drv_run *r, struct il_json *j)
{
	const struct il_engine_result *er = r->er;

	(void)d;
	il_json_str(j, "job", r->sc->file);
	il_json_str(
		j, "expected",
		il_verdict_name((enum il_verdict)(IL_PASS + r->sc->g.expect)));
	il_json_uint(j, "rounds", er->rounds);
	il_json_uint(j, "elapsed_ns", er->elapsed_ns);
	il_json_uint(j, "steal_ns", er->steal_ns);
	il_json_str(j, "placement", er->placement);
	il_json_str(j, "partitions", er->partitions);
	il_json_str(j, "numa", er->numa);
	il_json_str(j, "lock_placement", er->lock_placement);
	il_json_bool(j, "hung", er->hung);
	il_json_str(j, "hung_reason", er->hung ? er->hung_why : NULL);
	demo_json_tasks(j, r->sc, er);
}

const struct il_task_result *drv_subject(const struct drv *d,
					 const struct drv_run *r)
{
	int t = il_scenario_task(r->sc, d->fam->subject);

	return t >= 0 && r->er->tasks[t].nlocks ? &r->er->tasks[t] : NULL;
}

void drv_json_subject(struct drv *d, const struct drv_run *r, struct il_json *j)
{
	const struct il_task_result *t = drv_subject(d, r);
	const struct il_hist *cal =
		r->env.calib[il_scenario_task(r->sc, d->fam->subject)];
	struct il_blocking_stats st = { 0 };
	struct il_hist none;

	if (!t)
		return;
	il_hist_init(&none);
	if (r->nck) {
		struct il_bound_input in = {
			.bound_ns = r->ck[0].c.bound_ns,
			.noise_ns = r->ck[0].c.noise_ns,
			.min_samples = 20, /* as the pi and chain checks */
			.outlier_ns =
				il_noise_outlier_ns(cal, r->ck[0].c.bound_ns),
		};

		il_blocking_stats(&in, t->locks[0]->samples,
				  t->locks[0]->nsamples, &st);
		il_json_check(j, &r->ck[0].c);
		il_json_str(j, "expected", il_verdict_name(r->ck[0].expected));
	}
	il_json_uint(j, "rounds", t->locks[0]->nsamples);
	demo_json_blocking(j, &st);
	il_json_uint(j, "elapsed_ns", r->er->elapsed_ns);
	il_json_uint(j, "steal_ns", r->er->steal_ns);
	il_json_str(j, "placement", r->er->placement);
	il_json_hist(j, "blocked_ns", &t->locks[0]->blocked);
	il_json_hist(j, "release_to_lock_ns", &t->locks[0]->delay);
	il_json_hist(j, "wakeup_ns", &t->wakeup);
	il_json_hist(j, "calibration_wakeup_ns", cal ? cal : &none);
}

/* one line of the subject table */
struct drv_row {
	char cell[10][48];
};

static void keep_row(struct drv *d, const struct drv_run *r)
{
	const struct il_task_result *t = drv_subject(d, r);
	const struct il_lock_result *lr = t ? t->locks[0] : NULL;
	static const double pct[] = { 0.5, 0.99, 0.999, -1 };
	struct drv_row *w;
	bool und = false;

	if (!lr || d->nrows >= d->nconfigs * d->c->repeat)
		return;
	w = &d->rows[d->nrows++];
	snprintf(w->cell[0], 48, "%s%s", r->name, r->tag);
	snprintf(w->cell[1], 48, "%zu", lr->nsamples);
	for (int k = 0; k < 4; k++)
		il_format_stat(w->cell[2 + k], 48, &lr->blocked, pct[k]);
	il_format_stat(w->cell[6], 48, &t->wakeup, 0.99);
	il_format_stat(w->cell[7], 48, &t->wakeup, 0.999);
	il_format_duration(w->cell[8], 48, r->nck ? r->ck[0].c.bound_ns : 0);
	if (!r->nck) {
		snprintf(w->cell[9], 48, "-");
		return;
	}
	snprintf(w->cell[9], 48, "%s%s", il_verdict_name(r->ck[0].c.verdict),
		 r->ck[0].c.verdict == r->ck[0].expected ? ""
		 : demo_as_expected(r->ck[0].c.verdict, r->ck[0].expected,
				    &und) &&
				 und
			 ? " (undecided)"
			 : " (unexpected)");
}

static void print_rows(struct drv *d, FILE *f, const char *pfx)
{
	const char *col[] = {
		d->fam->config_label,
		"rounds",
		"blocked p50",
		"p99",
		"p999",
		"max",
		"wakeup p99",
		"p999",
		"bound",
		"verdict",
	};
	struct il_table t;

	if (d->c->quiet || !d->nrows)
		return;
	il_table_init(&t);
	for (int k = 0; k < 10; k++)
		il_table_col(&t, col[k], k && k < 9);
	for (int i = 0; i < d->nrows; i++)
		for (int k = 0; k < 10; k++)
			il_table_cell(&t, "%s", d->rows[i].cell[k]);
	il_table_print_prefixed(&t, f, pfx);
	il_table_free(&t);
}

/* the run's scheduler and CPU counters, and each task's (counters.h) */
static void json_counters(struct il_json *j, const struct drv_run *r)
{
	il_counters_json(j, "counters", &r->er->counters);
	il_json_begin_array(j, "task_counters");
	for (int i = 0; i < r->er->ntasks; i++) {
		il_json_begin_object(j, NULL);
		il_json_str(j, "task", r->er->tasks[i].name);
		il_json_int(j, "tid", r->er->tasks[i].tid);
		il_counters_json(j, "counters", &r->er->tasks[i].counters);
		il_json_end_object(j);
	}
	il_json_end_array(j);
}

static void json_checks(struct il_json *j, const struct drv_run *r)
{
	il_json_begin_array(j, "checks");
	for (int i = 0; i < r->nck; i++) {
		il_json_begin_object(j, NULL);
		il_json_str(j, "validator", r->ck[i].validator);
		il_json_str(j, "task", r->ck[i].task);
		il_json_str(j, "expected", il_verdict_name(r->ck[i].expected));
		il_json_check(j, &r->ck[i].c);
		il_json_end_object(j);
	}
	il_json_end_array(j);
}

/*
 * A protocol this build lacks (musl, bionic: no priority ceiling): the
 * configurations that need it are skipped with the reason, the others
 * run and decide the exit status.
 */
static const char *protocol_missing(enum il_protocol p)
{
	return p == IL_PROTO_PROTECT ? il_engine_protect_missing() : NULL;
}

const char *(*drv_protocol_missing)(enum il_protocol p) = protocol_missing;

static const char *unsupported(const struct il_scenario *sc, char *why,
			       size_t len)
{
	for (int i = 0; i < sc->nres; i++) {
		const char *m;

		if (IL_RES_IS_KMUTEX(sc->res[i].k.type))
			continue;
		m = drv_protocol_missing(
			(enum il_protocol)sc->res[i].k.protocol);
		if (m) {
			snprintf(why, len, "resource '%s': %s", sc->res[i].name,
				 m);
			return why;
		}
	}
	return NULL;
}

/* the state of one drv_main */
struct session {
	struct drv *d;
	struct il_engine_result *er; /* the one result, reused */
	struct il_hist *calib;	     /* IL_MAX_TASKS, and the unpinned one */
	struct il_afile af;
	struct il_json j;
	bool json;
	int rc;
	bool stop;    /* a skip or a broken setup ends the runs */
	int nskipped; /* runs of configurations this build cannot run */
	struct drv_show *show; /* --live, --stage; NULL: neither */
	FILE *out;	       /* the runs' reports (drv_show_out) */
	/* the run's worst wait, from its trace (trace-export.h) */
	struct il_timeline tl;
	bool have_tl;
};

static void note_rc(struct session *s, int rc)
{
	if (!s->rc)
		s->rc = rc;
}

/* Judge a run and count its outcomes. */
static void judge(struct session *s, struct drv_run *r)
{
	struct drv *d = s->d;
	const struct drv_family *f = d->fam;
	const char *idle = NULL;
	char why[512] = "";
	int ret = 0;

	/* stopped by a signal: what was measured is written, nothing is
	 * judged on it */
	if (demo_signal)
		return;
	/* the calibrations the judge needs, measured after the run, idle */
	ret = demo_judge_env(r->sc, r->er, &d->si, r->mask, &demo_stop,
			     s->calib, s->calib + IL_MAX_TASKS, &r->env, why,
			     sizeof(why));
	if (!ret && f->judge)
		ret = f->judge(d, r, why, sizeof(why));
	else if (!ret)
		ret = il_judge_run(r->sc, r->er, &r->env, r->mask, r->ck,
				   DRV_MAX_CHECKS, &r->nck, why, sizeof(why));
	if (ret && !demo_signal) {
		fprintf(stderr, "%s: %s: %s\n", f->prog, r->name,
			why[0] ? why : strerror(-ret));
		note_rc(s, 99);
	}
	/* on an emulated CPU a FAIL on timing alone is UNDECIDED (emulated.h)
	 */
	il_emu_apply(r->sc, r->er, d->si.emulated, r->ck, r->nck);
	for (int i = 0; i < r->nck; i++) {
		bool und;

		/* (unless the judge said so already) */
		if (r->er->hung &&
		    !strstr(r->ck[i].c.evidence, "the run was stopped")) {
			size_t n = strlen(r->ck[i].c.evidence);

			snprintf(r->ck[i].c.evidence + n,
				 sizeof(r->ck[i].c.evidence) - n,
				 "; the run was stopped: %s", r->er->hung_why);
		}
		if (il_expect(r->ck[i].c.verdict, r->ck[i].expected) ==
		    IL_OUT_INFO)
			continue;
		if (demo_as_expected(r->ck[i].c.verdict, r->ck[i].expected,
				     &und)) {
			d->nexp += !und;
			d->nundec += und;
		} else {
			d->nunexp++;
			note_rc(s, 1);
		}
	}
	if (r->er->hung)
		fprintf(stderr, "%s: %s%s: the run was stopped: %s\n", f->prog,
			r->name, r->tag, r->er->hung_why);
	if (r->nck || ret)
		return;
	/* measured only: every task ran at least one job, no wait past the
	 * timeout */
	for (int i = 0; i < r->er->ntasks && !idle; i++)
		if (!r->er->tasks[i].jobs)
			idle = r->er->tasks[i].name;
	if (idle || r->er->hung) {
		d->nunexp++;
		note_rc(s, 1);
	}
	if (d->c->tap)
		printf("%s %d - %s%s measured only (validate = %s): %s%s\n",
		       idle || r->er->hung ? "not ok" : "ok", ++d->ntap,
		       r->name, r->tag, r->sc->g.validate,
		       idle ? "a task never ran: " : "",
		       idle	     ? idle
		       : r->er->hung ? r->er->hung_why
				     : "every task ran");
}

static void report_run(struct session *s, struct drv_run *r)
{
	struct drv *d = s->d;
	const struct drv_family *f = d->fam;
	const char *pfx = d->c->tap ? "# " : "";
	bool detail = !d->c->quiet || d->c->tap;
	struct il_judge_record rec;

	if (detail && f->run_text) {
		f->run_text(d, r, s->out, pfx);
	} else if (detail && !f->subject) {
		if (!d->c->tap) {
			fprintf(s->out, "placement: %s (%s)\n",
				r->er->placement, r->er->numa);
			if (r->er->partitions[0])
				fprintf(s->out, "partitions: %s\n",
					r->er->partitions);
		}
		drv_print_tasks(s->out, r->sc, r->er, pfx);
	}
	drv_print_checks(d, r, s->out);
	if (r->er->probe && r->er->probe->status != IL_PROBE_RAN &&
	    !d->probe_said) {
		fprintf(stderr, "%s: probe cyclictest %s: %s\n", f->prog,
			r->er->probe->status == IL_PROBE_SKIPPED ? "skipped"
								 : "failed",
			r->er->probe->reason);
		d->probe_said = true;
	}
	if (f->subject_table)
		keep_row(d, r);
	if (f->run_note && !d->c->quiet)
		f->run_note(d, r, s->out, pfx);
	/* the probe beside the run (probe.h): figures, or why not */
	if (detail)
		il_probe_report(s->out, pfx, r->er->probe);
	fflush(s->out);
	if (!s->json)
		return;
	il_json_begin_object(&s->j, NULL);
	/* "configuration" names the run for compare and gate tools */
	il_json_str(&s->j, "configuration", r->name);
	il_json_int(&s->j, "repeat", r->repeat);
	if (f->config_label)
		il_json_str(&s->j, f->config_label, r->name);
	if (f->json_run)
		f->json_run(d, r, &s->j);
	else
		drv_json_run(d, r, &s->j);
	json_counters(&s->j, r);
	il_probe_json(&s->j, r->er->probe);
	json_checks(&s->j, r);
	if (s->have_tl)
		il_timeline_json(&s->j, "worst_wait", &s->tl);
	/* everything the verdicts were decided from (invlab-judge) */
	demo_judge_record(&r->env, r->mask, &rec);
	rec.kmutex = r->kmutex;
	il_report_judge_inputs(&s->j, r->sc, r->er, &rec);
	il_json_end_object(&s->j);
}

/*
 * Cannot run here, found once the runs began: 77 with the reason (with
 * --tap the version line is out already: a skip plan when no test was).
 */
static int skip_here(struct session *s, const char *why)
{
	if (s->d->c->tap && !s->d->ntap)
		il_tap_skip_all(stdout, why);
	fprintf(stderr, "%s: SKIP: %s\n", s->d->fam->prog, why);
	return 77;
}

/* A run this build cannot make: SKIP with the reason, in the text, the
 * TAP and the result file (a run whose verdict is SKIP); the others go on */
static void skip_run(struct session *s, const struct drv_run *r,
		     const char *why)
{
	struct drv *d = s->d;

	if (r->repeat == 1)
		fprintf(stderr, "%s: %s: SKIP: %s\n", d->fam->prog, r->name,
			why);
	if (d->c->tap)
		printf("ok %d - %s%s # SKIP %s\n", ++d->ntap, r->name, r->tag,
		       why);
	s->nskipped++;
	if (!s->json)
		return;
	il_json_begin_object(&s->j, NULL);
	il_json_str(&s->j, "configuration", r->name);
	il_json_int(&s->j, "repeat", r->repeat);
	il_json_str(&s->j, "verdict", il_verdict_name(IL_SKIP));
	il_json_str(&s->j, "skipped", why);
	il_json_end_object(&s->j);
}

/* ---- the trace for people: timeline and export (trace-export.h) ---- */

/* the task whose worst wait is drawn: the subject, else the most urgent
 * task with waits */
static int drawn_waiter(const struct drv *d, const struct drv_run *r)
{
	const struct il_engine_result *er = r->er;
	int w = d->fam->subject ? il_scenario_task(r->sc, d->fam->subject) : -1;

	if (w >= 0)
		return w < er->ntasks && er->tasks[w].nlocks ? w : -1;
	for (int i = 0; i < er->ntasks && i < r->sc->ntasks; i++)
		if (er->tasks[i].nlocks && er->tasks[i].locks[0]->nsamples &&
		    (w < 0 || il_trace_kprio(&r->sc->tasks[i].sched) <
				      il_trace_kprio(&r->sc->tasks[w].sched)))
			w = i;
	return w;
}

static void export_input(const struct drv_run *r, int w,
			 struct il_export_task *tk, struct il_export_input *in)
{
	static const char *const role[] = {
		[IL_ROLE_HIGHER] = "higher",
		[IL_ROLE_WAITER] = "waiter",
		[IL_ROLE_HOLDER] = "holder",
		[IL_ROLE_LOWER] = "lower",
	};
	const struct il_engine_result *er = r->er;
	struct il_attr_task roles[IL_MAX_TASKS];
	int n = er->ntasks < r->sc->ntasks ? er->ntasks : r->sc->ntasks;

	memset(roles, 0, sizeof(roles));
	if (w >= 0)
		il_attr_roles(r->sc, er, w, er->tasks[w].locks[0]->res, roles);
	for (int i = 0; i < n; i++) {
		const struct il_task_result *t = &er->tasks[i];
		const struct il_lock_result *lr =
			t->nlocks ? t->locks[0] : NULL;

		tk[i] = (struct il_export_task){
			.name = t->name,
			.tid = t->tid,
			.kprio = il_trace_kprio(&r->sc->tasks[i].sched),
			.cpu = t->cpu,
			.role = w >= 0 ? role[roles[i].role] : NULL,
			.resource = lr ? r->sc->res[lr->res].name : NULL,
			.waits = lr ? lr->samples : NULL,
			.nwaits = lr ? lr->nsamples : 0,
		};
	}
	*in = (struct il_export_input){
		.trace = er->trace,
		.title = r->name,
		.pid = (int)getpid(),
		.tasks = tk,
		.ntasks = (size_t)n,
		.round_start = er->round_t,
		.round_end = er->round_end_t,
		.nrounds = er->nround_t,
	};
}

/* the worst wait into s->tl, for the result file */
static void keep_timeline(struct session *s, const struct drv_run *r)
{
	struct il_export_task tk[IL_MAX_TASKS];
	struct il_export_input in;
	int w = drawn_waiter(s->d, r);
	uint64_t bound = 0, noise = 0;

	s->have_tl = false;
	if (w < 0 || !r->er->trace)
		return;
	for (int i = 0; i < r->nck; i++)
		if (!strcmp(r->ck[i].task, r->er->tasks[w].name) &&
		    r->ck[i].c.bound_ns) {
			bound = r->ck[i].c.bound_ns;
			noise = r->ck[i].c.noise_ns;
			break;
		}
	export_input(r, w, tk, &in);
	s->have_tl = !il_timeline_worst(&in, (size_t)w, bound, noise, &s->tl);
}

/* --trace-export DIR: DIR/CONFIGURATION[-N].json, written whole or not */
static void export_trace(struct session *s, const struct drv_run *r)
{
	struct drv *d = s->d;
	struct il_export_task tk[IL_MAX_TASKS];
	struct il_export_input in;
	struct il_afile af;
	char name[96], path[4200];
	int ret;

	if (!d->c->trace_export)
		return;
	if (!r->er->trace) {
		fprintf(stderr,
			"%s: %s%s: --trace-export: nothing to write: %s\n",
			d->fam->prog, r->name, r->tag, r->er->trace_note);
		return;
	}
	il_export_file_name(name, sizeof(name), r->name);
	if (d->c->repeat > 1)
		il_appendf(name, sizeof(name), "-%d", r->repeat);
	snprintf(path, sizeof(path), "%s/%s.json", d->c->trace_export, name);
	export_input(r, drawn_waiter(d, r), tk, &in);
	ret = il_afile_open(&af, path);
	if (!ret) {
		ret = il_trace_export_chrome(af.f, &in);
		if (ret)
			il_afile_abort(&af);
		else
			ret = il_afile_commit(&af);
	}
	if (ret) {
		fprintf(stderr, "%s: --trace-export: cannot write '%s': %s\n",
			d->fam->prog, path, strerror(-ret));
		note_rc(s, 99);
	} else if (!d->c->quiet && !d->c->tap) {
		printf("trace: %s (open it in ui.perfetto.dev)\n", path);
	}
}

/* --trace-export's directory, before anything is measured: 0 or 2 */
static int check_export_dir(const struct drv *d)
{
	const char *dir = d->c->trace_export;
	struct stat st;

	if (!dir)
		return 0;
	if (d->c->trace == IL_TRACE_OFF) {
		fprintf(stderr,
			"%s: --trace-export needs the trace: not with "
			"--trace=off\n",
			d->fam->prog);
		return 2;
	}
	if (!*dir || (mkdir(dir, 0777) && errno != EEXIST)) {
		fprintf(stderr, "%s: --trace-export: cannot make '%s': %s\n",
			d->fam->prog, dir, strerror(*dir ? errno : ENOENT));
		return 2;
	}
	if (stat(dir, &st) || !S_ISDIR(st.st_mode) ||
	    access(dir, W_OK | X_OK)) {
		fprintf(stderr,
			"%s: --trace-export: '%s' is not a directory this "
			"user can write in\n",
			d->fam->prog, dir);
		return 2;
	}
	return 0;
}

/* One run of configuration c. */
static void run_one(struct session *s, int c, int repeat)
{
	struct drv *d = s->d;
	const struct drv_family *f = d->fam;
	struct il_engine_opts eo = { .stop = &demo_stop,
				     .partition = d->partition,
				     .boost_from = f->boost_from,
				     .probe = &d->probe };
	struct drv_run *r = calloc(1, sizeof(*r));
	struct il_scenario sc;
	char err[512] = "";
	int ret;

	if (!r) {
		fprintf(stderr, "%s: out of memory\n", f->prog);
		note_rc(s, 99);
		s->stop = true;
		return;
	}
	r->config = c;
	r->name = d->configs[c].name;
	r->repeat = repeat;
	demo_run_tag(d->c->repeat, repeat, r->tag, sizeof(r->tag));
	r->sc = &sc;
	r->er = s->er;
	r->env.unreserved = -1;
	if (f->cannot_run && f->cannot_run(d, c, err, sizeof(err))) {
		if (repeat == 1)
			fprintf(stderr, "%s: %s: SKIP: %s\n", f->prog, r->name,
				err);
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
	if (!ret && unsupported(&sc, err, sizeof(err))) {
		skip_run(s, r, err);
		il_scenario_free(&sc);
		free(r);
		return;
	}
	if (ret) { /* was built once already */
		fprintf(stderr, "%s: %s\n", f->prog, err);
		note_rc(s, 99);
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
	if (ret && refused(f, ret) && f->skip_refused) {
		fprintf(stderr, "%s: %s: SKIP: %s\n", f->prog, r->name, err);
	} else if (ret && refused(f, ret)) {
		s->rc = skip_here(s, err);
		s->stop = true;
	} else if (ret) {
		fprintf(stderr, "%s: %s\n", f->prog,
			err[0] ? err : strerror(-ret));
		note_rc(s, 99);
		s->stop = true;
	} else {
		d->nruns++;
		/* who ran in the waits, from the scheduler's trace (attrib.h):
		 * the judge and the result file both take it from here */
		if (il_attribute_run(&sc, s->er))
			fprintf(stderr, "%s: %s: trace not used: %s\n", f->prog,
				r->name, strerror(ENOMEM));
		judge(s, r);
		keep_timeline(s, r);
		if (s->have_tl)
			drv_show_timeline(s->show, &s->tl);
		report_run(s, r);
		export_trace(s, r);
		drv_show_judged(s->show, r);
		il_engine_result_free(s->er);
	}
	il_scenario_free(&sc);
	free(r);
}

/* --print-job: each configuration's job as it would run (the writer
 * names it in its first line) */
static void print_job(struct drv *d, int c, struct il_scenario *sc)
{
	static bool again;

	if (again)
		putchar('\n');
	again = true;
	il_scenario_write(sc, stdout);
}

/*
 * Build every configuration to be run: a mistake costs nothing.  The
 * highest real-time priority needed goes to *prio.  -1 to go on, or the
 * exit status.
 */
static int build_all(struct drv *d, int *prio)
{
	bool pj = drv_flag(d, "print-job");
	char err[512];

	*prio = 0;
	for (int c = 0; c < d->nconfigs; c++) {
		struct il_scenario sc;
		unsigned mask;
		int p;

		if (!d->want[c])
			continue;
		if (drv_build(d, c, &sc, err, sizeof(err))) {
			fprintf(stderr, "%s: %s\n", d->fam->prog, err);
			return 2;
		}
		if (il_judge_validators(&sc, &mask, err, sizeof(err))) {
			fprintf(stderr, "%s: %s\n", d->fam->prog, err);
			il_scenario_free(&sc);
			return 2;
		}
		p = rt_prio(&sc);
		*prio = p > *prio ? p : *prio;
		if (pj)
			print_job(d, c, &sc);
		il_scenario_free(&sc);
	}
	return pj ? 0 : -1;
}

static int close_json(struct session *s)
{
	struct drv *d = s->d;
	int ret;

	il_json_end_array(&s->j);
	il_json_bool(&s->j, "interrupted", demo_signal != 0);
	il_report_end(&s->j, s->rc);
	fputc('\n', s->af.f);
	if (il_json_error(&s->j)) {
		il_afile_abort(&s->af);
		ret = -EIO;
	} else {
		ret = il_afile_commit(&s->af);
	}
	if (ret) {
		/* 99 whatever the verdicts: a lost result is not a FAIL */
		fprintf(stderr, "%s: --json: cannot write '%s': %s\n",
			d->fam->prog, d->c->json, strerror(-ret));
		return 99;
	}
	return s->rc;
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
		il_report_begin(&s->j, &ri);
		if (f->json_head)
			f->json_head(d, &s->j);
		il_json_begin_array(&s->j, "runs");
	}
	if (!d->c->quiet && !d->c->tap) {
		if (f->header)
			f->header(d, s->out);
		demo_kernel_line(s->out, &d->si);
		fflush(s->out);
	}
	if (d->c->tap)
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
	if (demo_signal)
		s->rc = 128 + demo_signal;
	if ((f->skip_refused || s->nskipped) && !d->nruns && !s->rc &&
	    !demo_signal)
		s->rc = skip_here(s, "no configuration could run here (reasons "
				     "above)");
	if (s->rc == 77 && d->c->tap && d->ntap)
		il_tap_plan(stdout, d->ntap);
	if (s->rc != 77) {
		if (f->end_text)
			f->end_text(d, stdout, d->c->tap ? "# " : "");
		print_rows(d, stdout, d->c->tap ? "# " : "");
		if (d->c->tap)
			il_tap_plan(stdout, d->ntap);
		else if (f->count_line)
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
	return s->json ? close_json(s) : s->rc;
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
	d->tables[0] = il_common_opts;
	d->tables[1] = f->opts;
	rc = demo_args(argc, argv, d->tables, d->cfg, f->prog, f->usage,
		       f->summary, f->max_pos, &pos);
	if (rc >= 0)
		goto out;
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
	if ((rc = check_export_dir(d)))
		goto out;
	if (f->setup && (rc = f->setup(d, argc, argv, pos)) >= 0)
		goto out;
	if (f->subject_table)
		d->rows = calloc((size_t)(d->nconfigs * d->c->repeat),
				 sizeof(*d->rows));
	if (f->subject_table && !d->rows) {
		fprintf(stderr, "%s: out of memory\n", f->prog);
		rc = 99;
		goto out;
	}
	rc = build_all(d, &prio);
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
	rc = run_all(&s, argc, argv);
out:
	if (d) {
		free(d->cfg);
		free(d->rows);
	}
	free(d);
	free(s.er);
	free(s.calib);
	return rc;
}
