// SPDX-License-Identifier: MIT
/*
 * The narration of one round (stage.h): the noted times of each task's
 * phases turned into sentences in the scenario's names, sorted by time.
 *
 * Sentences, by phase: the job's start ("high wakes up", with how late
 * when it ran 100us or more after its release: a ceiling shows there),
 * run ("low works 2.00ms holding M"; when it took much longer than its
 * work, a second line says so: it was kept off the CPU), spin ("medium
 * spins 20.0ms or until got", and when the event cut it short, when it
 * stopped), lock ("low takes M" when it came at once, else "high asks for
 * M" and later "high gets M after 21.4ms"), unlock, signal (with the
 * tasks the event releases), wait (when it had to), sleep, call, and
 * the job's end.  Quick means under 20us: below that a request and its
 * acquisition are one moment to an audience.
 *
 * The round's word ("inversion" or "bounded") compares a task's delay,
 * release to first lock (from the holder's acquisition, when the holder
 * took the lock only after that release), with the work its holder does
 * inside that critical section: more than one and a half times that work
 * plus 200us is an inversion in this round.  It is a caption, not a
 * verdict.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <invlab/stage.h>
#include <invlab/strbuf.h>
#include <invlab/time.h>

#define QUICK_NS (20 * IL_NSEC_PER_USEC)
#define LATE_NS	 (100 * IL_NSEC_PER_USEC)
#define SLACK_NS (200 * IL_NSEC_PER_USEC)

struct story {
	struct il_stage_line *l;
	int n, max;
	uint64_t t0, lo, hi; /* the round's start, and its window */
	int seq[IL_STAGE_MAX_LINES];
};

static void say(struct story *s, uint64_t t, int task, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void say(struct story *s, uint64_t t, int task, const char *fmt, ...)
{
	struct il_stage_line *l;
	va_list ap;

	if (s->n >= s->max || s->n >= IL_STAGE_MAX_LINES || t < s->lo ||
	    t > s->hi)
		return;
	l = &s->l[s->n];
	l->t_ns = t > s->t0 ? t - s->t0 : 0;
	l->task = task;
	va_start(ap, fmt);
	vsnprintf(l->text, sizeof(l->text), fmt, ap);
	va_end(ap);
	s->seq[s->n] = s->n;
	s->n++;
}

static const char *dur(char *buf, size_t len, uint64_t ns)
{
	il_format_duration(buf, len, ns);
	return buf;
}

/* the resources held just before phase p of task t, as "M" or "M and N" */
static void holding(const struct il_task *t, int p, char *buf, size_t len,
		    const struct il_scenario *sc)
{
	uint32_t held = 0;

	buf[0] = '\0';
	for (int q = 0; q < p; q++) {
		if (t->phases[q].kind == IL_PH_LOCK)
			held |= 1u << t->phases[q].res;
		else if (t->phases[q].kind == IL_PH_UNLOCK)
			held &= ~(1u << t->phases[q].res);
	}
	for (int r = 0; r < sc->nres; r++)
		if (held & (1u << r))
			il_appendf(buf, len, "%s%s", buf[0] ? " and " : "",
				   sc->res[r].name);
}

/* the tasks that event ev releases, as "medium" or "a, b" */
static void released_by(const struct il_scenario *sc, int ev, char *buf,
			size_t len)
{
	buf[0] = '\0';
	for (int i = 0; i < sc->ntasks; i++)
		if (sc->tasks[i].k.activation == IL_ACT_EVENT &&
		    sc->tasks[i].on_event == ev)
			il_appendf(buf, len, "%s%s", buf[0] ? ", " : "",
				   sc->tasks[i].name);
}

static void tell_task(struct story *s, const struct il_scenario *sc,
		      const struct il_stage_notes *n, int i)
{
	const struct il_task *t = &sc->tasks[i];
	const struct il_stage_task_notes *tn = &n->task[i];
	const char *name = t->name;
	char a[24], b[24], h[80], who[80];

	if (!tn->start)
		return;
	if (tn->rel && tn->start - tn->rel >= LATE_NS)
		say(s, tn->start, i, "%s wakes up, %s after its release", name,
		    dur(a, sizeof(a), tn->start - tn->rel));
	else
		say(s, tn->start, i, "%s wakes up", name);
	for (int p = 0; p < t->nphases && tn->begin[p]; p++) {
		const struct il_phase *ph = &t->phases[p];
		uint64_t t0 = tn->begin[p], t1 = tn->done[p];
		uint64_t took = t1 > t0 ? t1 - t0 : 0;
		const char *rn = ph->res >= 0 && ph->res < sc->nres
					 ? sc->res[ph->res].name
					 : "?";
		const char *en = ph->event >= 0 && ph->event < sc->nevents
					 ? sc->events[ph->event]
					 : "?";

		switch (ph->kind) {
		case IL_PH_RUN:
			holding(t, p, h, sizeof(h), sc);
			say(s, t0, i, "%s works %s%s%s", name,
			    dur(a, sizeof(a), ph->ns), h[0] ? " holding " : "",
			    h);
			if (t1 && took > ph->ns + ph->ns / 2 + SLACK_NS)
				say(s, t1, i,
				    "%s's %s of work took %s: it was kept off "
				    "the CPU",
				    name, dur(a, sizeof(a), ph->ns),
				    dur(b, sizeof(b), took));
			break;
		case IL_PH_SPIN:
			if (ph->event >= 0)
				say(s, t0, i, "%s spins %s or until %s", name,
				    dur(a, sizeof(a), ph->ns), en);
			else
				say(s, t0, i, "%s spins %s", name,
				    dur(a, sizeof(a), ph->ns));
			if (t1 && ph->event >= 0 && took + SLACK_NS < ph->ns)
				say(s, t1, i, "%s stops spinning after %s: %s",
				    name, dur(a, sizeof(a), took), en);
			break;
		case IL_PH_LOCK:
			if (t1 && took < QUICK_NS) {
				say(s, t0, i, "%s takes %s", name, rn);
			} else {
				say(s, t0, i, "%s asks for %s", name, rn);
				if (t1)
					say(s, t1, i, "%s gets %s after %s",
					    name, rn, dur(a, sizeof(a), took));
			}
			break;
		case IL_PH_UNLOCK:
			say(s, t0, i, "%s releases %s", name, rn);
			break;
		case IL_PH_SIGNAL:
			released_by(sc, ph->event, who, sizeof(who));
			say(s, t0, i, "%s signals %s%s%s", name, en,
			    who[0] ? ": it releases " : "", who);
			break;
		case IL_PH_WAIT:
			if (t1 && took >= QUICK_NS)
				say(s, t0, i, "%s waits for %s (%s)", name, en,
				    dur(a, sizeof(a), took));
			break;
		case IL_PH_SLEEP:
			say(s, t0, i, "%s sleeps %s", name,
			    dur(a, sizeof(a), ph->ns));
			break;
		case IL_PH_CALL:
			if (t1 && took < QUICK_NS)
				say(s, t0, i, "%s calls %s (%s)", name, rn,
				    dur(a, sizeof(a), took));
			else if (t1)
				say(s, t0, i,
				    "%s calls %s: it returns after %s", name,
				    rn, dur(a, sizeof(a), took));
			else
				say(s, t0, i, "%s calls %s", name, rn);
			break;
		}
	}
	if (tn->end && tn->rel)
		say(s, tn->end, i, "%s is done, %s after its release", name,
		    dur(a, sizeof(a), tn->end - tn->rel));
}

/* work inside task j's critical section on res from phase q (its lock) */
static uint64_t section_work(const struct il_task *t, int q, int res, int *u)
{
	uint64_t w = 0;

	*u = -1;
	for (int p = q + 1; p < t->nphases; p++) {
		const struct il_phase *ph = &t->phases[p];

		if (ph->kind == IL_PH_UNLOCK && ph->res == res) {
			*u = p;
			break;
		}
		if (ph->kind == IL_PH_RUN || ph->kind == IL_PH_SPIN)
			w += ph->ns;
	}
	return w;
}

/* the round's word for task i's first lock */
static void conclude(struct story *s, const struct il_scenario *sc,
		     const struct il_stage_notes *n, int i)
{
	const struct il_task *t = &sc->tasks[i];
	const struct il_stage_task_notes *tn = &n->task[i];
	uint64_t acq, delay, need = 0, from = 0, held;
	int p = 0, holder = -1;
	char a[24], b[24], others[80] = "";

	while (p < t->nphases && t->phases[p].kind != IL_PH_LOCK)
		p++;
	if (p == t->nphases || !tn->rel || !tn->done[p])
		return;
	acq = tn->done[p];
	delay = acq > tn->rel ? acq - tn->rel : 0;
	for (int j = 0; j < sc->ntasks && holder < 0; j++) {
		const struct il_task *o = &sc->tasks[j];
		const struct il_stage_task_notes *on = &n->task[j];

		if (j == i)
			continue;
		for (int q = 0; q < o->nphases; q++) {
			int u;
			uint64_t w;

			if (o->phases[q].kind != IL_PH_LOCK ||
			    o->phases[q].res != t->phases[p].res ||
			    !on->done[q])
				continue;
			w = section_work(o, q, o->phases[q].res, &u);
			/* held while i waited: got before i, let go after
			 * i's release */
			if (u >= 0 && on->done[q] < acq && on->begin[u] &&
			    on->begin[u] > tn->rel) {
				holder = j;
				need = w;
				from = on->done[q];
				break;
			}
		}
	}
	if (holder < 0)
		return;
	/* who else ran while i waited */
	for (int k = 0; k < sc->ntasks; k++) {
		const struct il_task *o = &sc->tasks[k];
		const struct il_stage_task_notes *on = &n->task[k];

		if (k == i || k == holder)
			continue;
		for (int q = 0; q < o->nphases; q++)
			if ((o->phases[q].kind == IL_PH_RUN ||
			     o->phases[q].kind == IL_PH_SPIN) &&
			    on->begin[q] && on->begin[q] < acq &&
			    on->done[q] > tn->rel) {
				il_appendf(others, sizeof(others), "%s%s",
					   others[0] ? ", " : "", o->name);
				break;
			}
	}
	/* what the lock cost: from the release, or from the holder's
	 * acquisition when that came later (before it, the wait was not for
	 * the lock: a late holder, an event) */
	held = from > tn->rel ? acq - from : delay;
	il_format_duration(a, sizeof(a), delay);
	il_format_duration(b, sizeof(b), need);
	if (from > tn->rel) {
		char c[24];

		il_format_duration(c, sizeof(c), held);
		say(s, acq, i,
		    "%s waited %s from its release for %s, %s of it while %s "
		    "held it, needing %s: %s",
		    t->name, a, sc->res[t->phases[p].res].name, c,
		    sc->tasks[holder].name, b,
		    held > need + need / 2 + SLACK_NS ? "inversion"
						      : "bounded");
	} else if (held > need + need / 2 + SLACK_NS) {
		say(s, acq, i,
		    "%s waited %s from its release for %s, where %s needs "
		    "%s: inversion%s%s%s",
		    t->name, a, sc->res[t->phases[p].res].name,
		    sc->tasks[holder].name, b, others[0] ? " (" : "", others,
		    others[0] ? " ran in between)" : "");
	} else {
		say(s, acq, i,
		    "%s waited %s from its release for %s, where %s needs "
		    "%s: bounded",
		    t->name, a, sc->res[t->phases[p].res].name,
		    sc->tasks[holder].name, b);
	}
}

int il_stage_story(const struct il_scenario *sc, const struct il_stage_notes *n,
		   struct il_stage_line *lines, int max)
{
	struct story s = { .l = lines, .max = max, .lo = 0, .hi = UINT64_MAX };
	uint64_t t0 = UINT64_MAX, t1 = 0;
	bool rounds = false;

	/* the round's window: from the first release of a round (or event)
	 * task to the last end; a hog's noted job outside it is left out */
	for (int i = 0; i < sc->ntasks; i++) {
		const struct il_stage_task_notes *tn = &n->task[i];
		int act = sc->tasks[i].k.activation;

		if (!tn->start)
			continue;
		if (act == IL_ACT_ROUND || act == IL_ACT_EVENT) {
			rounds = true;
			t0 = tn->rel && tn->rel < t0 ? tn->rel : t0;
			t1 = tn->end > t1 ? tn->end : t1;
		}
	}
	if (!rounds) {
		for (int i = 0; i < sc->ntasks; i++) {
			const struct il_stage_task_notes *tn = &n->task[i];

			if (tn->start && tn->rel && tn->rel < t0)
				t0 = tn->rel;
		}
	} else {
		s.lo = t0;
		s.hi = t1 ? t1 : UINT64_MAX;
	}
	s.t0 = t0 == UINT64_MAX ? 0 : t0;
	for (int i = 0; i < sc->ntasks; i++)
		tell_task(&s, sc, n, i);
	for (int i = 0; i < sc->ntasks; i++)
		conclude(&s, sc, n, i);
	/* by time; ties keep the order they were told in (a stable sort of
	 * a few dozen lines) */
	for (int a = 1; a < s.n; a++) {
		struct il_stage_line x = lines[a];
		int k = s.seq[a], b = a - 1;

		while (b >= 0 && (lines[b].t_ns > x.t_ns ||
				  (lines[b].t_ns == x.t_ns && s.seq[b] > k))) {
			lines[b + 1] = lines[b];
			s.seq[b + 1] = s.seq[b];
			b--;
		}
		lines[b + 1] = x;
		s.seq[b + 1] = k;
	}
	return s.n;
}

int il_stage_parse_pause(const char *s, uint64_t *ns)
{
	if (!s || !strcmp(s, "key")) {
		*ns = UINT64_MAX;
		return 0;
	}
	if (il_parse_duration(s, IL_NSEC_PER_SEC, ns) ||
	    *ns > 3600 * IL_NSEC_PER_SEC)
		return -EINVAL;
	return 0;
}
