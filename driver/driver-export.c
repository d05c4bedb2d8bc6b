// SPDX-License-Identifier: MIT
/*
 * The driver's trace for people (driver-private.h, trace-export.h):
 * each run's worst wait as a timeline for the result file and the board
 * (the subject's, else the most urgent task's with waits), and with
 * --trace-export DIR the whole trace as DIR/CONFIGURATION[-N].json for
 * ui.perfetto.dev, written whole or not at all.  DIR is made and
 * checked before anything is measured, so a bad one costs nothing.  A
 * file it cannot write is exit 99, noted through driver-judge.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <invlab/attrib.h>
#include <invlab/strbuf.h>
#include <invlab/trace-export.h>

#include "driver-private.h"

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
void __drv_keep_timeline(struct session *s, const struct drv_run *r)
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
void __drv_export_trace(struct session *s, const struct drv_run *r)
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
		__drv_note_rc(s, 99);
	} else if (!d->c->quiet && !d->c->tap) {
		printf("trace: %s (open it in ui.perfetto.dev)\n", path);
	}
}

/* --trace-export's directory, before anything is measured: 0 or 2 */
int __drv_check_export_dir(const struct drv *d)
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
