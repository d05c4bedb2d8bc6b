// SPDX-License-Identifier: MIT
/*
 * The driver's reports (driver.h, driver-private.h), one run at a time
 * as it is judged, then the end: the text (each task's figures, or the
 * family's own, then the verdict lines, words whole on a terminal), TAP
 * (one test per verdict, the figures as comments) and the JSON object
 * of each run, with everything its verdicts were decided from, so that
 * invlab-judge can judge it again; at the end the subject table and the
 * result file, committed whole or not at all.  The families call the
 * public ones from their hooks.  Reports read what was measured and
 * judged; they decide nothing and call none of the other driver*.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <invlab/board.h>
#include <invlab/expect.h>
#include <invlab/hist.h>
#include <invlab/noise.h>
#include <invlab/strbuf.h>
#include <invlab/time.h>
#include <invlab/trace-export.h>

#include "driver-private.h"
#include "dl-tasks.h"
#include "judge-env.h"

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

		if (d->fam->subject && strcmp(k->task, d->fam->subject))
			/* a check of another task (a holder's deboost)
			 * says whose it is */
			snprintf(what, sizeof(what), "%s%s, %s", name, r->tag,
				 k->task);
		else if (d->fam->subject)
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
		/* KTAP: "diagnostic lines regarding a test are directly
		 * before the test result line" (ktap.rst) */
		if (d->c->ktap)
			il_tap_diag(f, "%s", k->c.evidence);
		il_tap_result_in(f, demo_tap_dialect(d->c), ok || info,
				 ++d->ntap, desc,
				 und ? "SKIP undecided: measured noise could "
				       "explain it"
				     : NULL);
		if (!d->c->ktap)
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
			dl_tasks_print(f, sc, er, pfx);
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
	dl_tasks_json(j, r->sc, er);
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

/* the subject table's columns: p9999 only when --percentile asks */
static bool with_p9999(const struct drv *d)
{
	return il_opt_percentile(d->c) > 0.999;
}

void drv_ended_cell(const struct il_engine_result *er, char *buf, size_t len)
{
	char t[24];

	il_format_duration(t, sizeof(t), er->elapsed_ns);
	switch (er->ended) {
	case IL_END_SAMPLES:
		snprintf(buf, len, "target %s", t);
		return;
	case IL_END_DURATION:
		__drv_format_bound(t, sizeof(t), er->duration_ns);
		snprintf(buf, len, "bound %s", t);
		return;
	case IL_END_STOPPED:
	case IL_END_HUNG:
		snprintf(buf, len, "%s %s", il_engine_end_name(er->ended), t);
		return;
	case IL_END_NONE:
		break;
	}
	snprintf(buf, len, "-");
}

/* every run's end (the footnote); the subject table's cells */
static void keep_row(struct drv *d, const struct drv_run *r)
{
	const struct il_task_result *t = drv_subject(d, r);
	const struct il_lock_result *lr = t ? t->locks[0] : NULL;
	const double pct[] = { 0.5, 0.99, 0.999, with_p9999(d) ? 0.9999 : -1,
			       -1 };
	const char *of = strrchr(r->er->samples_of, ' ');
	struct drv_row *w;
	bool und = false;
	int c = 3;

	if (d->nrows >= d->nconfigs * d->c->repeat)
		return;
	w = &d->rows[d->nrows++];
	w->samples = r->er->samples;
	w->elapsed_ns = r->er->elapsed_ns;
	w->duration_ns = r->er->duration_ns;
	w->ended = r->er->ended;
	snprintf(w->what, sizeof(w->what), "%s", of ? of + 1 : "samples");
	snprintf(w->cell[0], 48, "%s%s", r->name, r->tag);
	if (!d->fam->subject_table || !lr)
		return;
	/* the table counts the subject's waits, as the target does */
	w->samples = lr->nsamples;
	snprintf(w->cell[1], 48, "%zu", lr->nsamples);
	drv_ended_cell(r->er, w->cell[2], 48);
	for (int k = 0; k < 5; k++)
		if (k < 4 || pct[3] > 0)
			il_format_stat(w->cell[c++], 48, &lr->blocked, pct[k]);
	il_format_stat(w->cell[c++], 48, &t->wakeup, 0.99);
	il_format_stat(w->cell[c++], 48, &t->wakeup, 0.999);
	il_format_duration(w->cell[c++], 48, r->nck ? r->ck[0].c.bound_ns : 0);
	if (!r->nck) {
		snprintf(w->cell[c], 48, "-");
		return;
	}
	snprintf(w->cell[c], 48, "%s%s", il_verdict_name(r->ck[0].c.verdict),
		 r->ck[0].c.verdict == r->ck[0].expected ? ""
		 : demo_as_expected(r->ck[0].c.verdict, r->ck[0].expected,
				    &und) &&
				 und
			 ? " (undecided)"
			 : " (unexpected)");
	drv_other_checks_cell(r, w->cell[c], 48);
}

void drv_other_checks_cell(const struct drv_run *r, char *buf, size_t len)
{
	for (int i = 1; i < r->nck; i++) {
		const struct il_judged *k = &r->ck[i];

		if (k->c.verdict == k->expected ||
		    il_expect(k->c.verdict, k->expected) == IL_OUT_INFO)
			continue;
		il_appendf(buf, len, "; %s %s", k->task,
			   il_verdict_name(k->c.verdict));
		return;
	}
}

/*
 * The runs of one end short of need samples, into list: "stopped at the
 * target: none (100 waits; 1000 in about 46.2s)", "stopped at the bound:
 * throttled (563 calls; 1000 in about 5.33s), cross-cpu (815; 3.68s)";
 * how many there were.
 */
static int short_runs(const struct drv *d, uint64_t need, enum il_run_end e,
		      char *list, size_t len)
{
	int n = 0;

	for (int i = 0; i < d->nrows; i++) {
		const struct drv_row *w = &d->rows[i];
		char t[24];

		if (w->samples >= need || w->ended != e)
			continue;
		if (!n)
			il_appendf(list, len, "%s%s: ", list[0] ? "; " : "",
				   e == IL_END_SAMPLES ? "stopped at the target"
				   : e == IL_END_DURATION
					   ? "stopped at the bound"
				   : e == IL_END_HUNG ? "hung"
						      : "interrupted");
		il_appendf(list, len, "%s%s", n ? ", " : "", w->cell[0]);
		if (!w->samples) {
			il_appendf(list, len, " (none)");
			n++;
			continue;
		}
		/* what they would cost at the pace this run had */
		il_format_duration(
			t, sizeof(t),
			(uint64_t)((double)w->elapsed_ns * (double)need /
				   (double)w->samples));
		if (n++)
			il_appendf(list, len, " (%" PRIu64 "; %s)", w->samples,
				   t);
		else
			il_appendf(list, len,
				   " (%" PRIu64 " %s; %" PRIu64 " in about %s)",
				   w->samples, w->what, need, t);
	}
	return n;
}

void drv_print_short(const struct drv *d, FILE *f, const char *pfx, double p)
{
	static const enum il_run_end ends[] = { IL_END_SAMPLES, IL_END_DURATION,
						IL_END_STOPPED, IL_END_HUNG };
	uint64_t need = il_hist_samples_for(p);
	char list[768] = "", msg[1024], out[1280], pname[16];
	int n = 0;

	for (int k = 0; k < 4; k++)
		n += short_runs(d, need, ends[k], list, sizeof(list));
	if (!n)
		return;
	snprintf(pname, sizeof(pname), "p%s",
		 p > 0.9995  ? "9999"
		 : p > 0.995 ? "999"
			     : "99");
	snprintf(msg, sizeof(msg),
		 "n/a (<%" PRIu64
		 "): %s; --percentile %s runs each to %" PRIu64,
		 need, list, pname, need);
	/* prose: wrapped to 80 columns, the prefix on every line */
	il_board_wrap(msg, NULL, 2, 80 - (int)strlen(pfx), out, sizeof(out));
	for (char *l = out, *nl; *l; l = nl) {
		nl = strchr(l, '\n');
		nl = nl ? nl + 1 : l + strlen(l);
		fprintf(f, "%s%.*s\n", pfx, (int)(nl - l - (nl[-1] == '\n')),
			l);
	}
}

void __drv_print_rows(struct drv *d, FILE *f, const char *pfx)
{
	const char *col[DRV_ROW_CELLS] = {
		d->fam->config_label, "rounds", "ended",
		"blocked p50",	      "p99",	"p999",
	};
	const char *rest[] = { "max",	"wakeup p99", "p999",
			       "bound", "verdict",    NULL };
	struct il_table t;
	int ncol = 6;

	if (d->c->quiet || !d->nrows || !d->fam->subject_table)
		return;
	if (with_p9999(d))
		col[ncol++] = "p9999";
	for (int k = 0; rest[k]; k++)
		col[ncol++] = rest[k];
	il_table_init(&t);
	for (int k = 0; k < ncol; k++)
		il_table_col(&t, col[k], k == 1 || (k > 2 && k < ncol - 1));
	for (int i = 0; i < d->nrows; i++)
		for (int k = 0; k < ncol; k++)
			il_table_cell(&t, "%s", d->rows[i].cell[k]);
	il_table_print_prefixed(&t, f, pfx);
	il_table_free(&t);
	drv_print_short(d, f, pfx, with_p9999(d) ? 0.9999 : 0.999);
}

/*
 * Tasks with a `node`: where their memory was after the run (the pages
 * touched and those on the node asked for), measured, not judged.
 */
static void json_memory(struct il_json *j, const struct drv_run *r)
{
	const struct il_engine_result *er = r->er;

	il_json_str(j, "memory_placement",
		    er->mem_placement[0] ? er->mem_placement : NULL);
	il_json_begin_array(j, "memory");
	for (int i = 0; i < er->ntasks && i < r->sc->ntasks; i++) {
		const struct il_task_result *t = &er->tasks[i];

		if (r->sc->tasks[i].k.node < 0)
			continue;
		il_json_begin_object(j, NULL);
		il_json_str(j, "task", t->name);
		il_json_int(j, "node", r->sc->tasks[i].k.node);
		il_json_uint(j, "pages", t->mem_pages);
		il_json_uint(j, "pages_on_node", t->mem_on_node);
		il_json_end_object(j);
	}
	il_json_end_array(j);
}

/*
 * The tasks' cgroups by the scheduler's own accounts (cgacct.h): what
 * each group was charged and what its tasks ran, and the difference,
 * which proxy execution moves from an owner's group to its donor's
 */
static void accounts_text(const struct il_engine_result *er, char *buf,
			  size_t len)
{
	buf[0] = '\0';
	if (!er->ncg_acct) {
		if (er->cg_acct_note[0])
			il_appendf(buf, len, "not read: %s", er->cg_acct_note);
		return;
	}
	for (int g = 0; g < er->ncg_acct; g++) {
		uint64_t c = er->cg_charged_ns[g], o = er->cg_own_ns[g];
		char a[24], b[24], dd[24];

		il_format_duration(a, sizeof(a), c);
		il_format_duration(b, sizeof(b), o);
		il_format_duration(dd, sizeof(dd), c > o ? c - o : o - c);
		/* the accounts are read while none of the group runs, and a
		 * thread's last moments after its own reading only add to
		 * the charge: less than it ran, another group paid */
		il_appendf(buf, len,
			   "%s%s charged %s, its tasks ran %s (%s%s%s)",
			   g ? "; " : "", er->cg_acct_name[g], a, b,
			   c >= o ? "+" : "-", dd,
			   c < o ? ": run on another group's account" : "");
	}
}

static void json_accounts(struct il_json *j, const struct drv_run *r)
{
	const struct il_engine_result *er = r->er;

	if (!er->ncg_acct) {
		il_json_null(j, "cgroup_accounts");
		il_json_str(j, "cgroup_accounts_note",
			    er->cg_acct_note[0] ? er->cg_acct_note : NULL);
		return;
	}
	il_json_begin_array(j, "cgroup_accounts");
	for (int g = 0; g < er->ncg_acct; g++) {
		il_json_begin_object(j, NULL);
		il_json_str(j, "group", er->cg_acct_name[g]);
		il_json_uint(j, "charged_ns", er->cg_charged_ns[g]);
		il_json_uint(j, "own_ns", er->cg_own_ns[g]);
		il_json_end_object(j);
	}
	il_json_end_array(j);
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

/* what ended the run, its bound and its sample target (engine.h) */
static void json_ended(struct il_json *j, const struct il_engine_result *er)
{
	il_json_str(j, "ended_by", il_engine_end_name(er->ended));
	il_json_uint(j, "duration_bound_ns", er->duration_ns);
	if (er->samples_target)
		il_json_uint(j, "samples_target", er->samples_target);
	else
		il_json_null(j, "samples_target");
	il_json_uint(j, "samples", er->samples);
	il_json_str(j, "samples_of", er->samples_of[0] ? er->samples_of : NULL);
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

void __drv_report_run(struct session *s, struct drv_run *r)
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
	if (detail && !d->c->tap && r->er->mem_placement[0])
		fprintf(s->out, "memory: %s\n", r->er->mem_placement);
	if (detail && !d->c->tap &&
	    (r->er->ncg_acct || r->er->cg_acct_note[0])) {
		char acc[640];

		accounts_text(r->er, acc, sizeof(acc));
		fprintf(s->out, "accounts: %s\n", acc);
	}
	drv_print_checks(d, r, s->out);
	if (r->er->probe && r->er->probe->status != IL_PROBE_RAN &&
	    !d->probe_said) {
		fprintf(stderr, "%s: probe %s %s: %s\n", f->prog,
			il_probe_name(r->er->probe->tool),
			r->er->probe->status == IL_PROBE_SKIPPED ? "skipped"
								 : "failed",
			r->er->probe->reason);
		d->probe_said = true;
	}
	keep_row(d, r);
	if (f->run_note && !d->c->quiet)
		f->run_note(d, r, s->out, pfx);
	/* a run with a sample target says what ended it (engine.h) */
	if (detail && r->er->samples_target) {
		char ended[200];

		il_engine_ended(r->er, ended, sizeof(ended));
		fprintf(s->out, "%s%s%s: %s\n", pfx, r->name, r->tag, ended);
	}
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
	json_ended(&s->j, r->er);
	json_counters(&s->j, r);
	json_memory(&s->j, r);
	json_accounts(&s->j, r);
	il_probe_json(&s->j, r->er->probe);
	json_checks(&s->j, r);
	if (s->have_tl)
		il_timeline_json(&s->j, "worst_wait", &s->tl);
	/* everything the verdicts were decided from (invlab-judge) */
	judge_env_record(&r->env, r->mask, &rec);
	rec.kmutex = r->kmutex;
	il_report_judge_inputs(&s->j, r->sc, r->er, &rec);
	il_json_end_object(&s->j);
}

int __drv_close_json(struct session *s)
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
