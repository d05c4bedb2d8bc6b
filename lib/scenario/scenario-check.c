// SPDX-License-Identifier: MIT
/*
 * il_scenario_check: the raw keys of a scenario turned into what the
 * engine runs, and the scenarios that cannot work refused with the
 * FILE:LINE of the key at fault (see scenario.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "invlab/cgroup.h"
#include "invlab/kmutex.h"
#include "invlab/scenario.h"
#include "invlab/strbuf.h"
#include "invlab/time.h"
#include "scenario-private.h"

/*
 * A period below this is refused: each job costs a wakeup and a few
 * clock reads, and below 100us that overhead is what would be measured.
 * The table cannot say "0 or 100us..10s", so the lower bound is checked
 * in il_scenario_check.
 */
#define PERIOD_MIN_NS (100 * US)
/* phase durations: shorter is below the clock's use, longer is a hang */
#define PHASE_MIN_NS US
#define PHASE_MAX_NS (60 * SEC)
/* paths the lock-order search may follow before it gives up */
#define CYCLE_BUDGET (1L << 20)

/* task and resource sets are uint32_t bit masks in the check */
_Static_assert(IL_MAX_TASKS <= 32 && IL_MAX_RESOURCES <= 32 &&
		       IL_MAX_EVENTS <= 32,
	       "the check keeps sets of tasks and resources in 32 bits");

/* phase words, in the order of enum il_phase_kind, for suggestions */
static const struct il_opt phase_words[] = {
	[IL_PH_RUN] = { .name = "run" },
	[IL_PH_SPIN] = { .name = "spin" },
	[IL_PH_LOCK] = { .name = "lock" },
	[IL_PH_UNLOCK] = { .name = "unlock" },
	[IL_PH_SLEEP] = { .name = "sleep" },
	[IL_PH_SIGNAL] = { .name = "signal" },
	[IL_PH_WAIT] = { .name = "wait" },
	[IL_PH_CALL] = { .name = "call" },
	{ .name = NULL },
};
static const struct il_opt *const phase_tables[] = { phase_words, NULL };

/* "FILE:LINE: message", or "FILE: message" for what has no line */
static int fail(const struct il_scenario *sc, int line, char *err, size_t len,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int fail(const struct il_scenario *sc, int line, char *err, size_t len,
		const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!err || !len)
		return -EINVAL;
	if (line > 0)
		n = snprintf(err, len, "%s:%d: ", sc->file, line);
	else
		n = snprintf(err, len, "%s: ", sc->file);
	if (n >= 0 && (size_t)n < len) {
		va_start(ap, fmt);
		vsnprintf(err + n, len - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* ---- the check ---------------------------------------------------------- */

static int tline(const struct il_task *t, int row)
{
	return t->key_line[row] ? t->key_line[row] : t->line;
}

static int rline(const struct il_resource *r, int row)
{
	return r->key_line[row] ? r->key_line[row] : r->line;
}

static int gline(const struct il_scenario *sc, int row)
{
	return sc->global_key_line[row] ? sc->global_key_line[row]
					: sc->global_line;
}

/* What the bodies tell about the whole scenario, gathered task by task. */
struct uses {
	/* edge[a][b]: tasks that lock b while holding a */
	uint32_t edge[IL_MAX_RESOURCES][IL_MAX_RESOURCES];
	uint32_t users[IL_MAX_RESOURCES]; /* tasks that lock it */
	uint32_t signals[IL_MAX_EVENTS];  /* tasks that signal it */
	int first_signal[IL_MAX_TASKS][IL_MAX_EVENTS]; /* phase; -1 */
};

static int check_global(struct il_scenario *sc, char *err, size_t len)
{
	const char *v = sc->g.validate, *p;

	if (!sc->g.name || !sc->g.name[0] || strchr(sc->g.name, '/'))
		return fail(sc, gline(sc, GK_NAME), err, len,
			    "name must be non-empty and without '/': it names "
			    "the result files");
	if (!v)
		return fail(sc, gline(sc, GK_VALIDATE), err, len,
			    "validate is not set (use 'auto')");
	/* a list of names; which validators exist is the runner's business */
	for (p = v;;) {
		char item[IL_NAME_MAX + 1];
		size_t n;

		while (*p == ' ' || *p == '\t')
			p++;
		n = strcspn(p, ",");
		while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		snprintf(item, sizeof(item), "%.*s", (int)n, p);
		if (!n || n >= sizeof(item) - 1 || !__il_name_valid(item))
			return fail(sc, gline(sc, GK_VALIDATE), err, len,
				    "validate = %s: expected validator names "
				    "separated by commas, or auto",
				    v);
		p += strcspn(p, ",");
		if (!*p)
			break;
		p++;
	}
	return 0;
}

static int parse_node(const char *s, int *node)
{
	long v = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		v = v * 10 + (*s - '0');
		if (v > 1023)
			return -EINVAL;
	}
	*node = (int)v;
	return 0;
}

static int check_cpu(struct il_scenario *sc, struct il_task *t, char *err,
		     size_t len)
{
	const char *c = t->k.cpu;
	char m[160];

	memset(t->cpus, 0, sizeof(t->cpus));
	t->place_node = -1;
	if (!c)
		return fail(sc, tline(t, TK_CPU), err, len,
			    "task '%s': cpu is not set (use 'any')", t->name);
	if (!strcmp(c, "any")) {
		t->place = IL_PLACE_ANY;
		return 0;
	}
	if (!strcmp(c, "spread")) {
		t->place = IL_PLACE_SPREAD;
		return 0;
	}
	if (!strncmp(c, "node:", 5)) {
		t->place = IL_PLACE_NODE;
		if (parse_node(c + 5, &t->place_node))
			return fail(sc, tline(t, TK_CPU), err, len,
				    "task '%s': cpu = %s: node:N needs a node "
				    "number 0..1023",
				    t->name, c);
		return 0;
	}
	t->place = IL_PLACE_CPUS;
	if (il_cpulist_parse(c, t->cpus, m, sizeof(m)) < 0)
		return fail(sc, tline(t, TK_CPU), err, len,
			    "task '%s': cpu: %s; or use node:N, spread or any",
			    t->name, m);
	return 0;
}

static int check_class(struct il_scenario *sc, struct il_task *t, char *err,
		       size_t len)
{
	char m[200];

	if (!t->k.class_spec)
		return fail(sc, tline(t, TK_CLASS), err, len,
			    "task '%s': class is not set", t->name);
	if (il_sched_parse(t->k.class_spec, &t->sched, m, sizeof(m)) < 0) {
		/* il_sched_parse names the spec itself in some messages */
		if (m[0] == '\'')
			return fail(sc, tline(t, TK_CLASS), err, len,
				    "task '%s': class: %s", t->name, m);
		return fail(sc, tline(t, TK_CLASS), err, len,
			    "task '%s': class = %s: %s", t->name,
			    t->k.class_spec, m);
	}
	return 0;
}

static int check_activation(struct il_scenario *sc, struct il_task *t,
			    char *err, size_t len)
{
	char act[16], v[32];
	const struct il_opt *o = &il_task_keys[TK_ACTIVATION];

	/* only a scenario built in C can hold another number here */
	if (t->k.activation < IL_ACT_ROUND || t->k.activation > IL_ACT_EVENT)
		return fail(sc, tline(t, TK_ACTIVATION), err, len,
			    "task '%s': activation %d is not one of %s",
			    t->name, t->k.activation, IL_ACTIVATION_CHOICES);
	il_opt_choice_name(o, t->k.activation, act, sizeof(act));
	if (t->k.period_ns && t->k.period_ns < PERIOD_MIN_NS) {
		il_format_duration_exact(v, sizeof(v), t->k.period_ns);
		return fail(sc, tline(t, TK_PERIOD), err, len,
			    "task '%s': period %s is out of range; allowed 0 "
			    "or 100us..10s",
			    t->name, v);
	}
	if (t->k.activation == IL_ACT_PERIODIC && !t->k.period_ns)
		return fail(sc, tline(t, TK_ACTIVATION), err, len,
			    "task '%s': activation = periodic needs a period "
			    "(100us..10s)",
			    t->name);
	if (t->k.activation != IL_ACT_PERIODIC && t->k.period_ns)
		return fail(sc, tline(t, TK_PERIOD), err, len,
			    "task '%s': period is only used with activation = "
			    "periodic, not %s",
			    t->name, act);
	if (t->k.activation == IL_ACT_EVENT && !t->k.on)
		return fail(sc, tline(t, TK_ACTIVATION), err, len,
			    "task '%s': activation = event needs 'on = EVENT', "
			    "the event that releases it",
			    t->name);
	if (t->k.activation != IL_ACT_EVENT && t->k.on)
		return fail(sc, tline(t, TK_ON), err, len,
			    "task '%s': on = %s is only used with activation "
			    "= event, not %s",
			    t->name, t->k.on, act);
	if (t->k.activation == IL_ACT_EVENT && t->k.offset_ns)
		return fail(sc, tline(t, TK_OFFSET), err, len,
			    "task '%s': offset is not used with activation = "
			    "event: the task is released when '%s' is "
			    "signalled",
			    t->name, t->k.on);
	return 0;
}

/* index of event name, created on first use; -ENOSPC when full */
static int event_get(struct il_scenario *sc, const char *name)
{
	int e = il_scenario_event(sc, name);

	if (e >= 0)
		return e;
	if (sc->nevents >= IL_MAX_EVENTS)
		return -ENOSPC;
	snprintf(sc->events[sc->nevents], IL_NAME_MAX, "%s", name);
	return sc->nevents++;
}

/* "did you mean" among the resource names, or NULL */
static const char *suggest_resource(const struct il_scenario *sc,
				    const char *name)
{
	struct il_opt rows[IL_MAX_RESOURCES + 1];
	const struct il_opt *const tables[] = { rows, NULL };

	memset(rows, 0, sizeof(rows));
	for (int i = 0; i < sc->nres; i++)
		rows[i].name = sc->res[i].name;
	return il_opt_suggest(tables, name);
}

/* "spin TIME until EVENT" has 4 words; the 5th is kept to be named in
 * "unexpected 'x' after ..." */
#define MAX_WORDS 5
#define WORD_MAX  64

struct phase_text {
	char ctx[200]; /* "task 'low': body phase 2 'lok M'" */
	char w[MAX_WORDS][WORD_MAX];
	int n; /* words in the phase; only the first MAX_WORDS are kept */
};

/* Split one phase into words; -ENAMETOOLONG for a word too long */
static int split_words(const char *p, size_t n, struct phase_text *pt)
{
	size_t i = 0;

	pt->n = 0;
	while (i < n) {
		size_t start;

		while (i < n && (p[i] == ' ' || p[i] == '\t'))
			i++;
		if (i == n)
			break;
		start = i;
		while (i < n && p[i] != ' ' && p[i] != '\t')
			i++;
		if (i - start >= WORD_MAX)
			return -ENAMETOOLONG;
		if (pt->n < MAX_WORDS) {
			memcpy(pt->w[pt->n], p + start, i - start);
			pt->w[pt->n][i - start] = '\0';
		}
		pt->n++;
	}
	return 0;
}

static int phase_duration(struct il_scenario *sc, const struct il_task *t,
			  const struct phase_text *pt, const char *s,
			  uint64_t *ns, char *err, size_t len)
{
	int ret = il_parse_duration(s, IL_NSEC_PER_MSEC, ns);

	if (ret == -EINVAL)
		return fail(sc, tline(t, TK_BODY), err, len,
			    "%s: '%s' is not a duration (a number with unit "
			    "ns, us, ms, s or m; a bare number is in ms)",
			    pt->ctx, s);
	if (ret || *ns < PHASE_MIN_NS || *ns > PHASE_MAX_NS)
		return fail(sc, tline(t, TK_BODY), err, len,
			    "%s: %s is out of range; allowed 1us..60s", pt->ctx,
			    s);
	return 0;
}

static int phase_event(struct il_scenario *sc, const struct il_task *t,
		       const struct phase_text *pt, const char *name,
		       int *event, char *err, size_t len)
{
	if (!__il_name_valid(name))
		return fail(sc, tline(t, TK_BODY), err, len,
			    "%s: '%s' is not a valid event name (1 to %d of "
			    "A-Z a-z 0-9 _ . -)",
			    pt->ctx, name, IL_NAME_MAX - 1);
	*event = event_get(sc, name);
	if (*event < 0)
		return fail(sc, tline(t, TK_BODY), err, len,
			    "%s: too many events; at most %d "
			    "(IL_MAX_EVENTS)",
			    pt->ctx, IL_MAX_EVENTS);
	return 0;
}

static int phase_resource(struct il_scenario *sc, const struct il_task *t,
			  const struct phase_text *pt, const char *name,
			  int *res, char *err, size_t len)
{
	const char *sug;

	*res = il_scenario_resource(sc, name);
	if (*res >= 0)
		return 0;
	sug = suggest_resource(sc, name);
	if (sug)
		return fail(sc, tline(t, TK_BODY), err, len,
			    "%s: no resource '%s'; did you mean '%s'?", pt->ctx,
			    name, sug);
	return fail(sc, tline(t, TK_BODY), err, len,
		    "%s: no resource '%s'; declare it with [resource %s]",
		    pt->ctx, name, name);
}

/* Parse one phase's words into ph; what it needs of the syntax only. */
static int parse_phase(struct il_scenario *sc, struct il_task *t,
		       struct phase_text *pt, struct il_phase *ph, char *err,
		       size_t len)
{
	const struct il_opt *w = il_opt_find(phase_tables, pt->w[0]);
	const char *word = pt->w[0];
	int nargs = 1, ret;

	memset(ph, 0, sizeof(*ph));
	ph->res = -1;
	ph->event = -1;
	if (!w) {
		const char *sug = il_opt_suggest(phase_tables, word);

		if (sug)
			return fail(sc, tline(t, TK_BODY), err, len,
				    "%s: unknown phase '%s'; did you mean "
				    "'%s'?",
				    pt->ctx, word, sug);
		return fail(sc, tline(t, TK_BODY), err, len,
			    "%s: unknown phase '%s'; phases are run, spin, "
			    "lock, unlock, call, sleep, signal and wait",
			    pt->ctx, word);
	}
	ph->kind = (enum il_phase_kind)(w - phase_words);
	if (pt->n < 2) {
		static const char *const what[] = {
			[IL_PH_RUN] = "a duration, e.g. 'run 2ms'",
			[IL_PH_SPIN] = "a duration, e.g. 'spin 20ms'",
			[IL_PH_LOCK] = "a resource, e.g. 'lock M'",
			[IL_PH_UNLOCK] = "a resource, e.g. 'unlock M'",
			[IL_PH_SLEEP] = "a duration, e.g. 'sleep 1ms'",
			[IL_PH_SIGNAL] = "an event, e.g. 'signal go'",
			[IL_PH_WAIT] = "an event, e.g. 'wait go'",
			[IL_PH_CALL] = "a kernel-mutex resource, e.g. 'call R'",
		};

		return fail(sc, tline(t, TK_BODY), err, len,
			    "%s: '%s' needs %s", pt->ctx, word, what[ph->kind]);
	}
	switch (ph->kind) {
	case IL_PH_RUN:
	case IL_PH_SLEEP:
		ret = phase_duration(sc, t, pt, pt->w[1], &ph->ns, err, len);
		break;
	case IL_PH_SPIN:
		ret = phase_duration(sc, t, pt, pt->w[1], &ph->ns, err, len);
		if (ret || pt->n < 3)
			break;
		if (strcmp(pt->w[2], "until")) {
			nargs = 1;
			break;
		}
		if (pt->n < 4)
			return fail(sc, tline(t, TK_BODY), err, len,
				    "%s: 'until' needs an event, e.g. 'spin "
				    "20ms until got'",
				    pt->ctx);
		nargs = 3;
		ret = phase_event(sc, t, pt, pt->w[3], &ph->event, err, len);
		break;
	case IL_PH_LOCK:
	case IL_PH_UNLOCK:
		ret = phase_resource(sc, t, pt, pt->w[1], &ph->res, err, len);
		if (!ret && IL_RES_IS_KMUTEX(sc->res[ph->res].k.type))
			return fail(sc, tline(t, TK_BODY), err, len,
				    "%s: '%s' is a kernel-mutex resource "
				    "(type %s): take it with 'call %s'",
				    pt->ctx, pt->w[1],
				    il_kmutex_recipe_name((enum il_km_recipe)(
					    sc->res[ph->res].k.type -
					    IL_RES_RENAME)),
				    pt->w[1]);
		break;
	case IL_PH_CALL: {
		enum il_km_op op;
		char m[160];
		int type;

		ret = phase_resource(sc, t, pt, pt->w[1], &ph->res, err, len);
		if (ret)
			break;
		type = sc->res[ph->res].k.type;
		if (!IL_RES_IS_KMUTEX(type))
			return fail(sc, tline(t, TK_BODY), err, len,
				    "%s: '%s' is a pthread mutex: use 'lock "
				    "%s' and 'unlock %s'; call takes a "
				    "kernel-mutex resource (type rename, fpos, "
				    "pipe or seqfile)",
				    pt->ctx, pt->w[1], pt->w[1], pt->w[1]);
		if (pt->n < 3)
			break;
		nargs = 2;
		if (il_kmutex_op_parse(
			    (enum il_km_recipe)(type - IL_RES_RENAME), pt->w[2],
			    &op, m, sizeof(m)))
			return fail(sc, tline(t, TK_BODY), err, len, "%s: %s",
				    pt->ctx, m);
		ph->op = (int)op;
		break;
	}
	case IL_PH_SIGNAL:
	case IL_PH_WAIT:
		ret = phase_event(sc, t, pt, pt->w[1], &ph->event, err, len);
		break;
	default:
		ret = -EINVAL;
		break;
	}
	if (ret)
		return ret;
	if (pt->n > nargs + 1) {
		char before[MAX_WORDS * WORD_MAX] = "";

		for (int i = 0; i <= nargs; i++)
			il_appendf(before, sizeof(before), "%s%s", i ? " " : "",
				   pt->w[i]);
		return fail(sc, tline(t, TK_BODY), err, len,
			    "%s: unexpected '%s' after '%s'%s", pt->ctx,
			    pt->w[nargs + 1], before,
			    ph->kind == IL_PH_SPIN && nargs == 1
				    ? "; did you mean 'until'?"
				    : "");
	}
	return 0;
}

/*
 * Split the body into phases and follow the locks it holds: balance
 * (unlock what is held, never lock twice, end with nothing held) and the
 * held->requested edges of the lock-order graph.
 */
static int check_body(struct il_scenario *sc, int ti, struct uses *u, char *err,
		      size_t len)
{
	struct il_task *t = &sc->tasks[ti];
	const char *p = t->k.body, *end;
	struct phase_text pt;
	uint32_t held = 0;
	int ret;

	t->nphases = 0;
	if (!p)
		return fail(sc, t->line, err, len,
			    "task '%s' has no body; add 'body = PHASES', "
			    "e.g. 'body = lock M, run 2ms, unlock M'",
			    t->name);
	if (!p[strspn(p, " \t")])
		return fail(sc, tline(t, TK_BODY), err, len,
			    "task '%s': body is empty", t->name);
	for (;;) {
		size_t n, lead, shown;
		struct il_phase *ph;
		int idx = t->nphases;

		end = strchr(p, ',');
		n = end ? (size_t)(end - p) : strlen(p);
		snprintf(pt.ctx, sizeof(pt.ctx), "task '%s': body phase %d",
			 t->name, idx + 1);
		ret = split_words(p, n, &pt);
		if (ret)
			return fail(sc, tline(t, TK_BODY), err, len,
				    "%s: a word is longer than %d characters",
				    pt.ctx, WORD_MAX - 1);
		if (!pt.n)
			return fail(sc, tline(t, TK_BODY), err, len,
				    "%s is empty (a stray comma?)", pt.ctx);
		/* the phase as written, without its surrounding blanks */
		lead = strspn(p, " \t");
		shown = n - lead;
		while (shown && (p[lead + shown - 1] == ' ' ||
				 p[lead + shown - 1] == '\t'))
			shown--;
		il_appendf(pt.ctx, sizeof(pt.ctx), " '%.*s%s'",
			   (int)(shown > 40 ? 40 : shown), p + lead,
			   shown > 40 ? "..." : "");
		if (idx >= IL_MAX_PHASES)
			return fail(sc, tline(t, TK_BODY), err, len,
				    "task '%s': body has more than %d phases "
				    "(IL_MAX_PHASES)",
				    t->name, IL_MAX_PHASES);
		ph = &t->phases[idx];
		ret = parse_phase(sc, t, &pt, ph, err, len);
		if (ret)
			return ret;
		t->nphases++;

		if (ph->kind == IL_PH_LOCK) {
			uint32_t bit = 1u << ph->res;

			if (held & bit)
				return fail(sc, tline(t, TK_BODY), err, len,
					    "%s: '%s' is already held by this "
					    "task (locked twice without "
					    "unlock)",
					    pt.ctx, sc->res[ph->res].name);
			for (int h = 0; h < sc->nres; h++)
				if (held & (1u << h))
					u->edge[h][ph->res] |= 1u << ti;
			held |= bit;
			u->users[ph->res] |= 1u << ti;
		} else if (ph->kind == IL_PH_UNLOCK) {
			uint32_t bit = 1u << ph->res;

			if (!(held & bit))
				return fail(sc, tline(t, TK_BODY), err, len,
					    "%s: '%s' is not held by this task "
					    "at that point",
					    pt.ctx, sc->res[ph->res].name);
			held &= ~bit;
		} else if (ph->kind == IL_PH_SIGNAL) {
			u->signals[ph->event] |= 1u << ti;
			if (u->first_signal[ti][ph->event] < 0)
				u->first_signal[ti][ph->event] = idx;
		}
		if (!end)
			break;
		p = end + 1;
	}
	for (int r = 0; r < sc->nres; r++)
		if (held & (1u << r))
			return fail(sc, tline(t, TK_BODY), err, len,
				    "task '%s': body ends holding '%s'; add "
				    "'unlock %s'",
				    t->name, sc->res[r].name, sc->res[r].name);
	return 0;
}

static int check_on(struct il_scenario *sc, struct il_task *t, char *err,
		    size_t len)
{
	t->on_event = -1;
	if (!t->k.on)
		return 0;
	if (!__il_name_valid(t->k.on))
		return fail(sc, tline(t, TK_ON), err, len,
			    "task '%s': on = %s: not a valid event name (1 to "
			    "%d of A-Z a-z 0-9 _ . -)",
			    t->name, t->k.on, IL_NAME_MAX - 1);
	t->on_event = event_get(sc, t->k.on);
	if (t->on_event < 0)
		return fail(sc, tline(t, TK_ON), err, len,
			    "task '%s': on = %s: too many events; at most %d "
			    "(IL_MAX_EVENTS)",
			    t->name, t->k.on, IL_MAX_EVENTS);
	return 0;
}

/*
 * Every event waited for must be signalled by someone: by another task,
 * or by the waiter itself earlier in its body.  An event task released
 * only by its own signal would never run.
 */
static int check_events(struct il_scenario *sc, const struct uses *u, char *err,
			size_t len)
{
	for (int ti = 0; ti < sc->ntasks; ti++) {
		const struct il_task *t = &sc->tasks[ti];
		uint32_t self = 1u << ti;

		if (t->on_event >= 0) {
			uint32_t by = u->signals[t->on_event];

			if (!by)
				return fail(sc, tline(t, TK_ON), err, len,
					    "task '%s': on = %s, but no task "
					    "signals '%s'",
					    t->name, t->k.on, t->k.on);
			if (by == self)
				return fail(sc, tline(t, TK_ON), err, len,
					    "task '%s': on = %s, but only this "
					    "task signals '%s', so it is never "
					    "released",
					    t->name, t->k.on, t->k.on);
		}
		for (int i = 0; i < t->nphases; i++) {
			const struct il_phase *ph = &t->phases[i];
			const char *ev;

			if (ph->kind != IL_PH_WAIT &&
			    !(ph->kind == IL_PH_SPIN && ph->event >= 0))
				continue;
			ev = sc->events[ph->event];
			if (!u->signals[ph->event])
				return fail(sc, tline(t, TK_BODY), err, len,
					    "task '%s': body phase %d '%s %s': "
					    "no task signals '%s'",
					    t->name, i + 1,
					    ph->kind == IL_PH_WAIT
						    ? "wait"
						    : "spin ... until",
					    ev, ev);
			if (ph->kind == IL_PH_WAIT &&
			    u->signals[ph->event] == self &&
			    u->first_signal[ti][ph->event] > i)
				return fail(sc, tline(t, TK_BODY), err, len,
					    "task '%s': body phase %d 'wait "
					    "%s': waits for '%s' before it "
					    "signals it, and no other task "
					    "does",
					    t->name, i + 1, ev, ev);
		}
	}
	return 0;
}

/*
 * Lock-order cycles.  A deadlock needs k distinct tasks, each holding a
 * resource the next one requests: a cycle in the held->requested graph
 * whose edges can be given to k different tasks.  A cycle made only of
 * one task's edges cannot deadlock (a thread does not wait for itself).
 *
 * The search walks simple paths over resources and keeps a matching of
 * the path's edges to distinct tasks (Kuhn's augmenting paths), so a
 * path that cannot be given distinct tasks is dropped at once instead of
 * trying every assignment; it only enters resources from which the start
 * can be reached again.  Starting each cycle at its smallest resource
 * reports every cycle once, from the same place every time.
 */
struct cycle {
	const struct uses *u;
	int nres, start;
	long budget;
	uint32_t reach[IL_MAX_RESOURCES]; /* resources reachable from each */
	int n;
	int res[IL_MAX_RESOURCES]; /* res[i] held while locking res[i+1] */
	uint32_t mask[IL_MAX_RESOURCES]; /* tasks that give edge i */
	int task[IL_MAX_RESOURCES];	 /* the task matched to edge i */
	int owner[IL_MAX_TASKS];	 /* the edge matched to each task; -1 */
};

static bool augment(struct cycle *c, int e, uint32_t *seen)
{
	for (int t = 0; t < IL_MAX_TASKS; t++) {
		if (!(c->mask[e] & (1u << t)) || (*seen & (1u << t)))
			continue;
		*seen |= 1u << t;
		if (c->owner[t] < 0 || augment(c, c->owner[t], seen)) {
			c->owner[t] = e;
			c->task[e] = t;
			return true;
		}
	}
	return false;
}

static int cycle_dfs(struct cycle *c, int v, uint32_t visited, int depth)
{
	for (int w = 0; w < c->nres; w++) {
		int saved_task[IL_MAX_RESOURCES], saved_owner[IL_MAX_TASKS];
		uint32_t seen = 0;
		int ret;

		if (!c->u->edge[v][w])
			continue;
		if (w != c->start && (w < c->start || (visited & (1u << w)) ||
				      !(c->reach[w] & (1u << c->start))))
			continue;
		if (--c->budget < 0)
			return -1;
		memcpy(saved_task, c->task, sizeof(saved_task));
		memcpy(saved_owner, c->owner, sizeof(saved_owner));
		c->res[depth] = v;
		c->mask[depth] = c->u->edge[v][w];
		/* a failed augment changes nothing */
		if (!augment(c, depth, &seen))
			continue;
		if (w == c->start) {
			c->n = depth + 1;
			return 1;
		}
		ret = cycle_dfs(c, w, visited | (1u << w), depth + 1);
		if (ret)
			return ret;
		memcpy(c->task, saved_task, sizeof(saved_task));
		memcpy(c->owner, saved_owner, sizeof(saved_owner));
	}
	return 0;
}

static int check_cycles(struct il_scenario *sc, const struct uses *u, char *err,
			size_t len)
{
	struct cycle c = { .u = u, .nres = sc->nres, .budget = CYCLE_BUDGET };
	char m[768];
	int ret = 0;

	/* transitive closure: which resources lead back to which */
	for (int v = 0; v < sc->nres; v++)
		for (int w = 0; w < sc->nres; w++)
			if (u->edge[v][w])
				c.reach[v] |= 1u << w;
	for (int k = 0; k < sc->nres; k++)
		for (int v = 0; v < sc->nres; v++)
			if (c.reach[v] & (1u << k))
				c.reach[v] |= c.reach[k];

	for (c.start = 0; c.start < sc->nres; c.start++) {
		if (!(c.reach[c.start] & (1u << c.start)))
			continue;
		memset(c.owner, 0xff, sizeof(c.owner));
		ret = cycle_dfs(&c, c.start, 1u << c.start, 0);
		if (ret)
			break;
	}
	if (ret < 0)
		return fail(sc, 0, err, len,
			    "lock order too intricate to check for deadlocks "
			    "(more than %ld paths); nest fewer locks",
			    CYCLE_BUDGET);
	if (!ret)
		return 0;
	snprintf(m, sizeof(m), "lock-order cycle, these tasks can deadlock:");
	for (int i = 0; i < c.n; i++) {
		int next = c.res[(i + 1) % c.n];

		il_appendf(m, sizeof(m),
			   "%s task '%s' holds '%s' and locks '%s'",
			   i ? ";" : "", sc->tasks[c.task[i]].name,
			   sc->res[c.res[i]].name, sc->res[next].name);
	}
	/* at the body of the first task named */
	return fail(sc, tline(&sc->tasks[c.task[0]], TK_BODY), err, len, "%s",
		    m);
}

static bool is_rt(const struct il_sched *s)
{
	return s->policy == IL_SCHED_FIFO || s->policy == IL_SCHED_RR;
}

/*
 * PTHREAD_PRIO_PROTECT: glibc refuses the lock (EINVAL) to a thread whose
 * priority is above the ceiling, and a ceiling only means something for
 * SCHED_FIFO/RR threads, so a default ceiling needs such a user.
 */
static int check_resources(struct il_scenario *sc, const struct uses *u,
			   char *err, size_t len)
{
	for (int ri = 0; ri < sc->nres; ri++) {
		const struct il_resource *r = &sc->res[ri];
		bool rt_user = false;

		if (r->k.protocol != IL_PROTO_PROTECT || !u->users[ri])
			continue;
		for (int ti = 0; ti < sc->ntasks; ti++) {
			const struct il_task *t = &sc->tasks[ti];

			if (!(u->users[ri] & (1u << ti)) || !is_rt(&t->sched))
				continue;
			rt_user = true;
			if (r->k.ceiling && t->sched.prio > r->k.ceiling)
				return fail(sc, rline(r, RK_CEILING), err, len,
					    "resource '%s': ceiling %lld is "
					    "below the priority of task '%s' "
					    "(%s), which locks it; the lock "
					    "would fail",
					    r->name, (long long)r->k.ceiling,
					    t->name, t->k.class_spec);
		}
		if (!r->k.ceiling && !rt_user)
			return fail(
				sc, rline(r, RK_PROTOCOL), err, len,
				"resource '%s': protocol = protect needs "
				"a ceiling: set ceiling = 1..99, or lock it "
				"from a fifo or rr task",
				r->name);
	}
	return 0;
}

/*
 * Kernel-mutex resources: the recipe's parameters (kmutex.h says what
 * each takes), reported at the line of the key at fault; a key the
 * resource's type does not use is refused rather than silently ignored,
 * since a tester who sets it expects it to change something.
 */
static int check_kmutex_resource(struct il_scenario *sc,
				 const struct il_resource *r, char *err,
				 size_t len)
{
	struct il_kmutex_params p = { 0 };
	const char *type;
	char m[200];
	int row = RK_TYPE;

	if (!IL_RES_IS_KMUTEX(r->k.type)) {
		if (r->k.via != IL_KM_VIA_SYSCALL)
			return fail(sc, rline(r, RK_VIA), err, len,
				    "resource '%s': via = io_uring is for "
				    "kernel-mutex resources (type rename, "
				    "fpos, pipe or seqfile), and '%s' is a "
				    "pthread mutex",
				    r->name, r->name);
		return 0;
	}
	p.recipe = (enum il_km_recipe)(r->k.type - IL_RES_RENAME);
	p.via = (enum il_km_via)r->k.via;
	p.size = r->k.size;
	p.dir = r->k.dir;
	p.source = r->k.source;
	type = il_kmutex_recipe_name(p.recipe);
	if (p.size && !il_kmutex_size_max(p.recipe))
		return fail(sc, rline(r, RK_SIZE), err, len,
			    "resource '%s': size: a %s resource takes no "
			    "size; its critical section is one rename (dir "
			    "chooses the filesystem)",
			    r->name, type);
	if (p.dir && p.recipe != IL_KM_RENAME && p.recipe != IL_KM_FPOS)
		return fail(sc, rline(r, RK_DIR), err, len,
			    "resource '%s': dir is only used by rename and "
			    "fpos resources, not %s",
			    r->name, type);
	if (p.source && p.recipe != IL_KM_SEQFILE)
		return fail(sc, rline(r, RK_SOURCE), err, len,
			    "resource '%s': source is only used by seqfile "
			    "resources, not %s",
			    r->name, type);
	if (!il_kmutex_check(&p, m, sizeof(m)))
		return 0;
	if (!strncmp(m, "size", 4))
		row = RK_SIZE;
	else if (!strncmp(m, "via", 3))
		row = RK_VIA;
	else if (!strncmp(m, "dir", 3))
		row = RK_DIR;
	else if (!strncmp(m, "source", 6))
		row = RK_SOURCE;
	return fail(sc, rline(r, row), err, len, "resource '%s': %s", r->name,
		    m);
}

static bool is_fair(const struct il_sched *s)
{
	return s->policy == IL_SCHED_OTHER || s->policy == IL_SCHED_BATCH ||
	       s->policy == IL_SCHED_IDLE;
}

/*
 * cgroup and cpu_weight: a safe group name (it becomes a directory), a
 * weight only with a group, fair-class tasks only, and one weight per
 * group when tasks share it.
 */
static int check_cgroup(struct il_scenario *sc, int ti, char *err, size_t len)
{
	const struct il_task *t = &sc->tasks[ti];
	char m[160];

	if (!t->k.cgroup) {
		if (t->k.cpu_weight)
			return fail(sc, tline(t, TK_CPU_WEIGHT), err, len,
				    "task '%s': cpu_weight needs cgroup = NAME "
				    "(the weight is the group's)",
				    t->name);
		return 0;
	}
	if (il_cgroup_name_ok(t->k.cgroup, m, sizeof(m)))
		return fail(sc, tline(t, TK_CGROUP), err, len,
			    "task '%s': cgroup: %s", t->name, m);
	if (!is_fair(&t->sched))
		return fail(sc, tline(t, TK_CGROUP), err, len,
			    "task '%s': cgroup = %s: only fair-class tasks "
			    "(other, batch, idle) can be put in a cgroup: "
			    "weights divide fair-class time, and with "
			    "CONFIG_RT_GROUP_SCHED a new group has no RT "
			    "runtime",
			    t->name, t->k.cgroup);
	for (int o = 0; o < ti; o++) {
		const struct il_task *x = &sc->tasks[o];
		int64_t wx = x->k.cpu_weight ? x->k.cpu_weight : 100;
		int64_t wt = t->k.cpu_weight ? t->k.cpu_weight : 100;

		if (x->k.cgroup && !strcmp(x->k.cgroup, t->k.cgroup) &&
		    wx != wt)
			return fail(sc, tline(t, TK_CPU_WEIGHT), err, len,
				    "task '%s': cpu_weight = %lld, but task "
				    "'%s' gives cgroup '%s' weight %lld",
				    t->name, (long long)wt, x->name,
				    t->k.cgroup, (long long)wx);
	}
	return 0;
}

int il_scenario_check(struct il_scenario *sc, char *err, size_t errlen)
{
	struct uses u;
	int ret;

	if (err && errlen)
		err[0] = '\0';
	memset(&u, 0, sizeof(u));
	memset(u.first_signal, 0xff, sizeof(u.first_signal));
	sc->nevents = 0;
	sc->checked = 0;

	ret = check_global(sc, err, errlen);
	if (ret)
		return ret;
	if (!sc->ntasks)
		return fail(sc, 0, err, errlen,
			    "no tasks: a scenario needs at least one "
			    "[task NAME] section");
	for (int ti = 0; ti < sc->ntasks; ti++) {
		struct il_task *t = &sc->tasks[ti];

		ret = check_class(sc, t, err, errlen);
		if (!ret && t->k.partition >= 0 &&
		    t->sched.policy != IL_SCHED_DEADLINE)
			ret = fail(sc, tline(t, TK_PARTITION), err, errlen,
				   "task '%s': partition = %lld: only "
				   "SCHED_DEADLINE tasks run in cpuset "
				   "partitions; pin other classes with cpu = "
				   "%lld",
				   t->name, (long long)t->k.partition,
				   (long long)t->k.partition);
		if (!ret)
			ret = check_cgroup(sc, ti, err, errlen);
		if (!ret)
			ret = check_cpu(sc, t, err, errlen);
		if (!ret)
			ret = check_activation(sc, t, err, errlen);
		if (!ret)
			ret = check_on(sc, t, err, errlen);
		if (!ret)
			ret = check_body(sc, ti, &u, err, errlen);
		if (ret)
			return ret;
	}
	ret = check_events(sc, &u, err, errlen);
	if (!ret)
		ret = check_cycles(sc, &u, err, errlen);
	if (!ret)
		ret = check_resources(sc, &u, err, errlen);
	for (int ri = 0; !ret && ri < sc->nres; ri++)
		ret = check_kmutex_resource(sc, &sc->res[ri], err, errlen);
	sc->checked = !ret;
	return ret;
}
