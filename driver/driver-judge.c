// SPDX-License-Identifier: MIT
/*
 * The driver's judging and skips (driver-private.h): each run's
 * verdicts, from the idle calibrations measured after it (judge-env.h)
 * and the family's judge or il_judge_run, counted by the one
 * expectation rule into the exit status; a run that measured only is a
 * TAP line of its own.  What cannot run is told here too: what the
 * kernel refuses (77, or a skipped configuration), a protocol this
 * build lacks or a task's memory node without libnuma (that
 * configuration is a SKIP, the others run).  The
 * lowest of driver*.c: it calls none of the others.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <invlab/emulated.h>
#include <invlab/expect.h>
#include <invlab/membind.h>

#include "driver-private.h"
#include "judge-env.h"

/* what the kernel refuses: exit 77, or a skipped configuration */
bool __drv_refused(const struct drv_family *f, int ret)
{
	return ret == -EPERM || ret == -EBUSY || ret == -EINVAL ||
	       (f->skip_refused && (ret == -ENODEV || ret == -EOPNOTSUPP));
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

const char *__drv_unsupported(const struct il_scenario *sc, char *why,
			      size_t len)
{
	/* a task's memory on a node: only with libnuma (membind.h) */
	for (int i = 0; i < sc->ntasks; i++)
		if (sc->tasks[i].k.node >= 0 && il_membind_missing()) {
			snprintf(why, len, "task '%s': node = %lld: %s",
				 sc->tasks[i].name,
				 (long long)sc->tasks[i].k.node,
				 il_membind_missing());
			return why;
		}
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

void __drv_note_rc(struct session *s, int rc)
{
	s->rc = il_exit_worse(s->rc, rc);
}

/* Judge a run and count its outcomes. */
void __drv_judge(struct session *s, struct drv_run *r)
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
	ret = judge_env_measure(r->sc, r->er, &d->si, r->mask, &demo_stop,
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
		__drv_note_rc(s, 99);
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
			__drv_note_rc(s, 1);
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
		__drv_note_rc(s, 1);
	}
	if (d->c->tap) {
		char desc[640];

		snprintf(desc, sizeof(desc),
			 "%s%s measured only (validate = %s): %s%s", r->name,
			 r->tag, r->sc->g.validate,
			 idle ? "a task never ran: " : "",
			 idle	       ? idle
			 : r->er->hung ? r->er->hung_why
				       : "every task ran");
		il_tap_result_in(stdout, demo_tap_dialect(d->c),
				 !idle && !r->er->hung, ++d->ntap, desc, NULL);
	}
}

/*
 * Cannot run here, found once the runs began: 77 with the reason (with
 * --tap the version line is out already: a skip plan when no test was;
 * with --ktap the plan is written at the end, with this reason).
 */
int __drv_skip_here(struct session *s, const char *why)
{
	if (s->d->c->ktap && !s->d->ntap && !s->skip_why[0])
		snprintf(s->skip_why, sizeof(s->skip_why), "%s", why);
	else if (s->d->c->tap && !s->d->ntap && !s->d->c->ktap)
		il_tap_skip_all(stdout, why);
	fprintf(stderr, "%s: SKIP: %s\n", s->d->fam->prog, why);
	return 77;
}

void __drv_tap_skip(struct drv *d, const struct drv_run *r, const char *why)
{
	char desc[256], skip[600];

	if (!d->c->tap)
		return;
	snprintf(desc, sizeof(desc), "%s%s", r->name, r->tag);
	snprintf(skip, sizeof(skip), "SKIP %s", why);
	il_tap_result_in(stdout, demo_tap_dialect(d->c), true, ++d->ntap, desc,
			 skip);
}

/* A run this build cannot make: SKIP with the reason, in the text, the
 * TAP and the result file (a run whose verdict is SKIP); the others go on */
void __drv_skip_run(struct session *s, const struct drv_run *r, const char *why)
{
	struct drv *d = s->d;

	if (r->repeat == 1)
		fprintf(stderr, "%s: %s: SKIP: %s\n", d->fam->prog, r->name,
			why);
	__drv_tap_skip(d, r, why);
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
