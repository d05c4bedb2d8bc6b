// SPDX-License-Identifier: MIT
/*
 * Unit tests for the scenario model and job files (lib/scenario/scenario*.c,
 * lib/scenario/jobfile.c): valid files read into the expected structures, every
 * kind of mistake reported at its exact line with its message (the
 * messages are the user interface, so their text is checked), --set,
 * writing a scenario back and reading it again, building one in C, the
 * documentation's key tables against the option tables, and robustness:
 * mutated and random text must give a result or an error, never a crash
 * or a leak (run it under valgrind: meson test --setup valgrind scenario).
 *
 * Run: meson test -C build scenario   (or build/tests/test-scenario SRCDIR)
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "invlab/kmutex.h"
#include "invlab/scenario.h"
#include "invlab/time.h"
#include "t_util.h"

#define ERR_LEN 1024

static const char *srcdir = ".";

static const char *src(char *buf, size_t len, const char *rel)
{
	snprintf(buf, len, "%s/%s", srcdir, rel);
	return buf;
}

/* Load SRCDIR/rel; a failure is reported with its message. */
static int load(const char *rel, struct il_scenario *sc)
{
	char p[512], err[ERR_LEN];
	int ret =
		il_scenario_load(src(p, sizeof(p), rel), sc, err, sizeof(err));

	if (ret)
		fprintf(stderr, "%s: unexpected error: %s\n", rel, err);
	t_check_int(ret, 0);
	return ret;
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/*
 * The first difference between two scenarios in what they mean (keys,
 * resolved classes, phases, events), or "" when there is none.  Line
 * numbers and the file name are where a scenario came from, not what it
 * is, so they are not compared.
 */
static const char *diff(const struct il_scenario *a,
			const struct il_scenario *b, char *buf, size_t len)
{
	buf[0] = '\0';
#define D(cond, ...)                                                           \
	do {                                                                   \
		if (cond) {                                                    \
			snprintf(buf, len, __VA_ARGS__);                       \
			return buf;                                            \
		}                                                              \
	} while (0)
	D(!same_str(a->g.name, b->g.name), "name");
	D(!same_str(a->g.description, b->g.description), "description");
	D(!same_str(a->g.validate, b->g.validate), "validate");
	D(a->g.duration_ns != b->g.duration_ns, "duration");
	D(a->g.timeout_ns != b->g.timeout_ns, "timeout");
	D(a->nres != b->nres, "nres %d vs %d", a->nres, b->nres);
	for (int i = 0; i < a->nres; i++) {
		const struct il_resource *x = &a->res[i], *y = &b->res[i];

		D(strcmp(x->name, y->name), "resource %d name", i);
		D(x->k.type != y->k.type || x->k.protocol != y->k.protocol ||
			  x->k.ceiling != y->k.ceiling ||
			  x->k.node != y->k.node,
		  "resource %s keys", x->name);
		/* a pthread mutex does not write the kernel-mutex keys back,
		 * nor a kernel mutex the pthread ones */
		D(IL_RES_IS_KMUTEX(x->k.type) &&
			  (x->k.size != y->k.size || x->k.via != y->k.via ||
			   !same_str(x->k.dir, y->k.dir) ||
			   !same_str(x->k.source, y->k.source)),
		  "resource %s kernel-mutex keys", x->name);
	}
	D(a->ntasks != b->ntasks, "ntasks %d vs %d", a->ntasks, b->ntasks);
	for (int i = 0; i < a->ntasks; i++) {
		const struct il_task *x = &a->tasks[i], *y = &b->tasks[i];

		D(strcmp(x->name, y->name), "task %d name", i);
		D(!same_str(x->k.class_spec, y->k.class_spec) ||
			  !same_str(x->k.cpu, y->k.cpu) ||
			  !same_str(x->k.on, y->k.on) ||
			  !same_str(x->k.body, y->k.body) ||
			  x->k.activation != y->k.activation ||
			  x->k.period_ns != y->k.period_ns ||
			  x->k.offset_ns != y->k.offset_ns ||
			  !same_str(x->k.cgroup, y->k.cgroup) ||
			  x->k.cpu_weight != y->k.cpu_weight,
		  "task %s keys", x->name);
		D(x->sched.policy != y->sched.policy ||
			  x->sched.prio != y->sched.prio ||
			  x->sched.nice != y->sched.nice ||
			  x->sched.runtime_ns != y->sched.runtime_ns ||
			  x->sched.deadline_ns != y->sched.deadline_ns ||
			  x->sched.period_ns != y->sched.period_ns,
		  "task %s sched", x->name);
		D(x->place != y->place || x->place_node != y->place_node ||
			  memcmp(x->cpus, y->cpus, sizeof(x->cpus)),
		  "task %s placement", x->name);
		D(x->on_event != y->on_event, "task %s on_event", x->name);
		D(x->nphases != y->nphases, "task %s nphases", x->name);
		for (int p = 0; p < x->nphases; p++) {
			const struct il_phase *u = &x->phases[p];
			const struct il_phase *v = &y->phases[p];

			D(u->kind != v->kind || u->ns != v->ns ||
				  u->res != v->res || u->event != v->event ||
				  u->op != v->op,
			  "task %s phase %d", x->name, p + 1);
		}
	}
	D(a->nevents != b->nevents, "nevents");
	for (int i = 0; i < a->nevents; i++)
		D(strcmp(a->events[i], b->events[i]), "event %d", i);
#undef D
	return buf;
}

/* il_scenario_write into a string the caller frees */
static char *write_text(const struct il_scenario *sc)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	if (!f)
		return NULL;
	il_scenario_write(sc, f);
	fclose(f);
	return text;
}

/*
 * Write sc, read it back, compare; write again and compare the texts
 * (writing is a fixed point).  Returns 0, or -1 with the reason printed.
 */
static int round_trip(const struct il_scenario *sc, const char *what)
{
	struct il_scenario back;
	char err[ERR_LEN], d[128];
	char *text = write_text(sc), *again;
	int ret = -1;

	if (!text)
		return -1;
	if (il_scenario_parse(text, sc->file, &back, err, sizeof(err))) {
		fprintf(stderr,
			"%s: written scenario does not read back: %s\n"
			"%s",
			what, err, text);
		free(text);
		return -1;
	}
	if (diff(sc, &back, d, sizeof(d))[0]) {
		fprintf(stderr, "%s: read back differs: %s\n%s", what, d, text);
	} else {
		again = write_text(&back);
		if (again && !strcmp(text, again))
			ret = 0;
		else
			fprintf(stderr, "%s: writing is not stable\n", what);
		free(again);
	}
	il_scenario_free(&back);
	free(text);
	return ret;
}

static void test_tables(void)
{
	static const struct il_opt *const g[] = { il_global_keys, NULL };
	static const struct il_opt *const r[] = { il_resource_keys, NULL };
	static const struct il_opt *const t[] = { il_task_keys, NULL };
	static const struct il_opt *const *const tables[] = { g, r, t };
	union {
		struct il_global_keys g;
		struct il_resource_keys r;
		struct il_task_keys t;
	} k;
	struct il_scenario sc;
	char err[ERR_LEN];

	/* il_opt_parse checks the tables and applies every default */
	for (size_t i = 0; i < 3; i++) {
		t_check_int(
			il_opt_parse(0, NULL, tables[i], &k, err, sizeof(err)),
			1);
		t_check_str(err, "");
	}

	il_scenario_init(&sc, "demo");
	t_check_str(sc.file, "demo");
	t_check_str(sc.g.name, "demo");
	t_check(sc.g.description == NULL);
	t_check_int(sc.g.duration_ns, 3 * IL_NSEC_PER_SEC);
	t_check_int(sc.g.timeout_ns, IL_NSEC_PER_SEC);
	t_check_str(sc.g.validate, "auto");
	t_check_int(il_scenario_add_resource(&sc, "M"), 0);
	t_check_int(sc.res[0].k.type, IL_RES_MUTEX);
	t_check_int(sc.res[0].k.protocol, IL_PROTO_INHERIT);
	t_check_int(sc.res[0].k.ceiling, 0);
	t_check_int(sc.res[0].k.node, -1);
	t_check_int(il_scenario_add_task(&sc, "t"), 0);
	t_check_str(sc.tasks[0].k.class_spec, "other");
	t_check_str(sc.tasks[0].k.cpu, "any");
	t_check_int(sc.tasks[0].k.activation, IL_ACT_ROUND);
	t_check_int(sc.tasks[0].k.period_ns, 0);
	t_check_int(sc.tasks[0].k.offset_ns, 0);
	t_check(sc.tasks[0].k.on == NULL);
	t_check(sc.tasks[0].k.body == NULL);
	t_check_int(sc.tasks[0].on_event, -1);
	il_scenario_free(&sc);
	t_check(sc.strings == NULL && sc.ntasks == 0);
	il_scenario_free(&sc); /* twice is fine */
}

static void test_minimal(void)
{
	struct il_scenario sc;

	if (load("tests/data/jobs/minimal.job", &sc))
		return;
	t_check_str(sc.g.name, "minimal");
	t_check_int(sc.ntasks, 1);
	t_check_int(sc.nres, 0);
	t_check_int(sc.nevents, 0);
	t_check_str(sc.tasks[0].name, "only");
	t_check_int(sc.tasks[0].line, 3);
	t_check_int(sc.tasks[0].sched.policy, IL_SCHED_OTHER);
	t_check_int(sc.tasks[0].sched.nice, 0);
	t_check_int(sc.tasks[0].place, IL_PLACE_ANY);
	t_check_int(sc.tasks[0].nphases, 1);
	t_check_int(sc.tasks[0].phases[0].kind, IL_PH_RUN);
	t_check_int(sc.tasks[0].phases[0].ns, IL_NSEC_PER_MSEC);
	t_check_int(sc.tasks[0].phases[0].res, -1);
	t_check_int(sc.tasks[0].phases[0].event, -1);
	t_check(sc.checked);
	il_scenario_free(&sc);
}

static void check_phase(const struct il_task *t, int p, enum il_phase_kind k,
			uint64_t ns, int res, int event)
{
	t_check(p < t->nphases);
	if (p >= t->nphases)
		return;
	t_check_int(t->phases[p].kind, k);
	t_check_int(t->phases[p].ns, ns);
	t_check_int(t->phases[p].res, res);
	t_check_int(t->phases[p].event, event);
}

static void test_all_phases(void)
{
	const uint64_t us = IL_NSEC_PER_USEC, ms = IL_NSEC_PER_MSEC;
	struct il_scenario sc;
	const struct il_task *t;
	int A, B, C, start, done;

	if (load("tests/data/jobs/all-phases.job", &sc))
		return;
	t_check_str(sc.g.name, "all-phases");
	t_check_str(sc.g.description, "all phases and activations");
	t_check_int(sc.g.duration_ns, 2 * IL_NSEC_PER_SEC);
	t_check_str(sc.g.validate, "pi, blocking");
	t_check_int(sc.g.timeout_ns, 500 * ms);
	t_check_int(sc.global_line, 6);
	t_check_int(sc.global_key_line[2], 8); /* duration */

	t_check_int(sc.nres, 3);
	A = il_scenario_resource(&sc, "A");
	B = il_scenario_resource(&sc, "B");
	C = il_scenario_resource(&sc, "C");
	t_check(A == 0 && B == 1 && C == 2);
	t_check_int(sc.res[A].k.protocol, IL_PROTO_NONE);
	t_check_int(sc.res[B].k.protocol, IL_PROTO_PROTECT);
	t_check_int(sc.res[B].k.ceiling, 50);
	t_check_int(sc.res[B].k.node, 0);
	t_check_int(sc.res[C].k.protocol, IL_PROTO_INHERIT);
	t_check_int(sc.res[C].k.node, -1);
	t_check_int(sc.res[C].line, 20);

	t_check_int(sc.nevents, 2);
	start = il_scenario_event(&sc, "start");
	done = il_scenario_event(&sc, "done");
	t_check(start == 0 && done == 1);
	t_check_int(il_scenario_event(&sc, "nope"), -1);

	t_check_int(sc.ntasks, 5);
	t = &sc.tasks[il_scenario_task(&sc, "producer")];
	t_check_int(t->sched.policy, IL_SCHED_FIFO);
	t_check_int(t->sched.prio, 40);
	t_check_int(t->place, IL_PLACE_CPUS);
	t_check(t->cpus[0] == 0xb); /* 0-1,3 */
	t_check_int(t->k.activation, IL_ACT_ROUND);
	t_check_int(t->k.offset_ns, 1500 * us);
	t_check_int(t->nphases, 6);
	check_phase(t, 0, IL_PH_SIGNAL, 0, -1, start);
	check_phase(t, 1, IL_PH_LOCK, 0, A, -1);
	check_phase(t, 2, IL_PH_RUN, ms, -1, -1);
	check_phase(t, 3, IL_PH_UNLOCK, 0, A, -1);
	check_phase(t, 4, IL_PH_SLEEP, 250 * us, -1, -1);
	check_phase(t, 5, IL_PH_SIGNAL, 0, -1, done);

	t = &sc.tasks[il_scenario_task(&sc, "periodic")];
	t_check_int(t->sched.policy, IL_SCHED_RR);
	t_check_int(t->sched.prio, 30);
	t_check_int(t->place, IL_PLACE_NODE);
	t_check_int(t->place_node, 0);
	t_check_int(t->k.activation, IL_ACT_PERIODIC);
	t_check_int(t->k.period_ns, 10 * ms);
	t_check_int(t->k.offset_ns, 2 * ms);
	t_check_int(t->nphases, 6);
	check_phase(t, 0, IL_PH_WAIT, 0, -1, start);
	check_phase(t, 1, IL_PH_LOCK, 0, B, -1);
	check_phase(t, 2, IL_PH_LOCK, 0, C, -1);
	check_phase(t, 3, IL_PH_SPIN, 3 * ms, -1, -1);
	check_phase(t, 4, IL_PH_UNLOCK, 0, C, -1);
	check_phase(t, 5, IL_PH_UNLOCK, 0, B, -1);

	t = &sc.tasks[il_scenario_task(&sc, "once")];
	t_check_int(t->sched.policy, IL_SCHED_DEADLINE);
	t_check_int(t->sched.runtime_ns, 2 * ms);
	t_check_int(t->sched.deadline_ns, 8 * ms);
	t_check_int(t->sched.period_ns, 10 * ms);
	t_check_int(t->place, IL_PLACE_SPREAD);
	t_check_int(t->k.activation, IL_ACT_ONESHOT);
	t_check_int(t->nphases, 1);
	check_phase(t, 0, IL_PH_SPIN, 50 * ms, -1, done);

	t = &sc.tasks[il_scenario_task(&sc, "hog")];
	t_check_int(t->sched.policy, IL_SCHED_OTHER);
	t_check_int(t->sched.nice, 5);
	t_check_int(t->k.activation, IL_ACT_HOG);
	check_phase(t, 0, IL_PH_RUN, 100 * ms, -1, -1); /* bare: ms */

	t = &sc.tasks[il_scenario_task(&sc, "reactive")];
	t_check_int(t->sched.policy, IL_SCHED_BATCH);
	t_check_int(t->k.activation, IL_ACT_EVENT);
	t_check_str(t->k.on, "done");
	t_check_int(t->on_event, done);
	t_check_int(t->line, 49);
	t_check_int(t->key_line[6], 53); /* body */
	t_check_int(t->nphases, 5);
	check_phase(t, 0, IL_PH_LOCK, 0, A, -1);
	check_phase(t, 1, IL_PH_LOCK, 0, C, -1);
	check_phase(t, 2, IL_PH_RUN, 200 * us, -1, -1);
	check_phase(t, 3, IL_PH_UNLOCK, 0, C, -1);
	check_phase(t, 4, IL_PH_UNLOCK, 0, A, -1);
	il_scenario_free(&sc);
}

static void test_nested(void)
{
	struct il_scenario sc;

	if (load("tests/data/jobs/nested.job", &sc))
		return;
	t_check_str(sc.g.name, "nested-locks");
	t_check_int(sc.nres, 3);
	t_check_int(il_scenario_resource(&sc, "r-2"), 1);
	t_check_int(il_scenario_task(&sc, "T_3"), 2);
	t_check_int(sc.tasks[0].nphases, 7);
	il_scenario_free(&sc);
}

static void test_demo_jobs(void)
{
	struct il_scenario sc;
	const struct il_task *t;
	int go, got, held;

	if (!load("demos/jobs/pi-classic.job", &sc)) {
		t_check_str(sc.g.name, "pi-classic");
		t_check_str(sc.g.validate, "pi");
		t_check_int(sc.ntasks, 3);
		t_check_int(sc.res[0].k.protocol, IL_PROTO_INHERIT);
		held = il_scenario_event(&sc, "held");
		go = il_scenario_event(&sc, "go");
		got = il_scenario_event(&sc, "got");
		t_check(held >= 0 && go >= 0 && got >= 0);
		for (int i = 0; i < sc.ntasks; i++) {
			t_check_int(sc.tasks[i].sched.policy, IL_SCHED_FIFO);
			t_check_int(sc.tasks[i].place, IL_PLACE_CPUS);
			t_check(sc.tasks[i].cpus[0] == 2); /* cpu 1 */
		}
		t = &sc.tasks[il_scenario_task(&sc, "low")];
		t_check_int(t->k.offset_ns, 0);
		check_phase(t, 1, IL_PH_SIGNAL, 0, -1, held);
		t = &sc.tasks[il_scenario_task(&sc, "high")];
		t_check_int(t->k.offset_ns, 500 * IL_NSEC_PER_USEC);
		t_check(t->sched.prio == 30);
		t = &sc.tasks[il_scenario_task(&sc, "medium")];
		t_check_int(t->k.activation, IL_ACT_EVENT);
		t_check_int(t->on_event, go);
		check_phase(t, 0, IL_PH_SPIN, 20 * IL_NSEC_PER_MSEC, -1, got);
		il_scenario_free(&sc);
	}
	if (!load("demos/jobs/membind.job", &sc)) {
		static const int cpu_node[] = { 0, 1, 0 },
				 mem_node[] = { 0, 1, 1 };

		t_check_int(sc.ntasks, 3);
		for (int i = 0; i < sc.ntasks && i < 3; i++) {
			t_check_int(sc.tasks[i].place, IL_PLACE_NODE);
			t_check_int(sc.tasks[i].place_node, cpu_node[i]);
			t_check_int(sc.tasks[i].k.node, mem_node[i]);
		}
		il_scenario_free(&sc);
	}
	if (!load("demos/jobs/pi-chain-3.job", &sc)) {
		t_check_int(sc.ntasks, 5);
		t_check_int(sc.nres, 2);
		t_check(il_scenario_task(&sc, "owner1") >= 0);
		t_check(il_scenario_task(&sc, "hog0") >= 0);
		t = &sc.tasks[il_scenario_task(&sc, "owner1")];
		t_check_int(t->place, IL_PLACE_CPUS);
		t_check_int(t->on_event, il_scenario_event(&sc, "h2"));
		t = &sc.tasks[il_scenario_task(&sc, "hog0")];
		t_check_int(t->sched.prio, 35);
		il_scenario_free(&sc);
	}
}

/* Every kind of mistake: the file, the line it must be reported at, and
 * the part of the message that says what is wrong. */
static const struct {
	const char *file;
	int line;
	const char *msg;
} bad[] = {
	{ "bad-syntax.job", 5,
	  "syntax error: expected 'key = value' or '[section]', got "
	  "'lock M'" },
	{ "bad-unterminated.job", 3,
	  "unterminated section header '[task high'" },
	{ "bad-outside.job", 3, "key 'duration' outside a section" },
	{ "bad-section-type.job", 3,
	  "unknown section type 'tsak'; did you mean 'task'?" },
	{ "bad-dup-task.job", 6, "duplicate task 'a' (first at line 3)" },
	{ "bad-dup-global.job", 5,
	  "duplicate section [global] (first at line 3)" },
	{ "bad-same-name.job", 6, "'M' already names a resource (line 3)" },
	{ "bad-name.job", 3, "invalid task name 'hi/gh'" },
	{ "bad-unknown-key.job", 5,
	  "unknown key 'perod' in task 'p'; did you mean 'period'?" },
	{ "bad-dup-key.job", 6,
	  "duplicate key 'body' in task 'a' (first at line 4)" },
	{ "bad-unit.job", 4,
	  "duration: '2xs' is not a duration (a number with unit ns, us, "
	  "ms, s or m)" },
	{ "bad-int.job", 6, "ceiling: 'high' is not an integer" },
	{ "bad-range.job", 6, "ceiling: 100 is out of range; allowed 0..99" },
	{ "bad-range-duration.job", 4,
	  "duration: 90m is out of range; allowed 100ms..60m" },
	{ "bad-choice.job", 4,
	  "protocol: 'inherti' is not one of none|inherit|protect; did you "
	  "mean 'inherit'?" },
	{ "bad-class.job", 5,
	  "task 'a': class: 'fifo:100': fifo needs a priority 1..99" },
	{ "bad-deadline.job", 4,
	  "task 'dl': class = deadline:5ms/2ms/10ms: deadline runtime "
	  "exceeds the relative deadline" },
	{ "bad-cpu.job", 4, "task 'a': cpu: '1-' is not a CPU list" },
	{ "bad-cpu-node.job", 4,
	  "task 'a': cpu = node:x: node:N needs a node number" },
	{ "bad-resource.job", 6,
	  "task 'a': body phase 1 'lock mutx': no resource 'mutx'; did you "
	  "mean 'mutex'?" },
	{ "bad-phase.job", 7,
	  "task 'a': body phase 1 'lok M': unknown phase 'lok'; did you "
	  "mean 'lock'?" },
	{ "bad-missing-arg.job", 7,
	  "task 'a': body phase 2 'lock': 'lock' needs a resource" },
	{ "bad-extra-word.job", 4,
	  "task 'a': body phase 1 'spin 2ms while x': unexpected 'while' "
	  "after 'spin 2ms'; did you mean 'until'?" },
	{ "bad-unlock.job", 7,
	  "task 'a': body phase 2 'unlock M': 'M' is not held by this task" },
	{ "bad-relock.job", 7,
	  "task 'a': body phase 3 'lock M': 'M' is already held by this "
	  "task" },
	{ "bad-held-at-end.job", 7,
	  "task 'a': body ends holding 'M'; add 'unlock M'" },
	{ "bad-wait.job", 6,
	  "task 'b': body phase 1 'wait og': no task signals 'og'" },
	{ "bad-until.job", 4,
	  "task 'a': body phase 1 'spin ... until got': no task signals "
	  "'got'" },
	{ "bad-on.job", 7, "task 'b': on = go, but no task signals 'go'" },
	{ "bad-self-wait.job", 4,
	  "task 'a': body phase 1 'wait go': waits for 'go' before it "
	  "signals it, and no other task does" },
	{ "bad-cycle.job", 8,
	  "lock-order cycle, these tasks can deadlock: task 'A' holds 'R1' "
	  "and locks 'R2'; task 'B' holds 'R2' and locks 'R1'" },
	{ "bad-cycle-3.job", 8,
	  "lock-order cycle, these tasks can deadlock: task 'A' holds 'R1' "
	  "and locks 'R2'; task 'B' holds 'R2' and locks 'R3'; task 'C' "
	  "holds 'R3' and locks 'R1'" },
	{ "bad-periodic.job", 4,
	  "task 'p': activation = periodic needs a period" },
	{ "bad-period-min.job", 5,
	  "task 'p': period 50us is out of range; allowed 0 or 100us..10s" },
	{ "bad-period-not-periodic.job", 4,
	  "task 'p': period is only used with activation = periodic, not "
	  "round" },
	{ "bad-event-no-on.job", 6,
	  "task 'b': activation = event needs 'on = EVENT'" },
	{ "bad-on-not-event.job", 6,
	  "task 'b': on = go is only used with activation = event, not "
	  "round" },
	{ "bad-no-body.job", 3, "task 'a' has no body" },
	{ "bad-ceiling.job", 5,
	  "resource 'M': ceiling 20 is below the priority of task 'high' "
	  "(fifo:40)" },
	/* a problem of the whole file has no line */
	{ "bad-no-tasks.job", 0, "no tasks: a scenario needs at least one" },
};

static void test_bad_files(void)
{
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct il_scenario sc;
		char rel[128], p[512], err[ERR_LEN], prefix[600];
		int ret;

		snprintf(rel, sizeof(rel), "tests/data/jobs/%s", bad[i].file);
		src(p, sizeof(p), rel);
		ret = il_scenario_load(p, &sc, err, sizeof(err));
		t_check_int(ret, -EINVAL);
		if (bad[i].line)
			snprintf(prefix, sizeof(prefix), "%s:%d: ", p,
				 bad[i].line);
		else
			snprintf(prefix, sizeof(prefix), "%s: ", p);
		if (strncmp(err, prefix, strlen(prefix)))
			fprintf(stderr, "%s: expected the prefix '%s'\n",
				bad[i].file, prefix);
		t_check(!strncmp(err, prefix, strlen(prefix)));
		t_check_contains(err, bad[i].msg);
		/* a failed load leaves nothing to free */
		t_check(sc.strings == NULL && sc.ntasks == 0);
	}
}

/* Parse text named "t.job"; expect an error at line with msg in it. */
static void expect_error(const char *text, int line, const char *msg)
{
	struct il_scenario sc;
	char err[ERR_LEN], prefix[64];

	t_check_int(il_scenario_parse(text, "t.job", &sc, err, sizeof(err)),
		    -EINVAL);
	snprintf(prefix, sizeof(prefix), "t.job:%d: ", line);
	if (strncmp(err, prefix, strlen(prefix)))
		fprintf(stderr, "expected an error at line %d, got: %s\n", line,
			err);
	t_check(!strncmp(err, prefix, strlen(prefix)));
	t_check_contains(err, msg);
}

static void expect_ok(const char *text, struct il_scenario *sc)
{
	char err[ERR_LEN];
	int ret = il_scenario_parse(text, "t.job", sc, err, sizeof(err));

	if (ret)
		fprintf(stderr, "unexpected error: %s\n", err);
	t_check_int(ret, 0);
}

/* A buffer that grows; the texts below are a few KiB */
struct text {
	char buf[16384];
	size_t n;
};

static void add(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	t->n += (size_t)vsnprintf(t->buf + t->n, sizeof(t->buf) - t->n, fmt,
				  ap);
	va_end(ap);
}

static void test_limits(void)
{
	struct text t;

	/* IL_MAX_TASKS + 1 tasks: the error is at the header too many */
	t.n = 0;
	for (int i = 0; i <= IL_MAX_TASKS; i++)
		add(&t, "[task t%d]\nbody = run 1ms\n", i);
	expect_error(t.buf, 2 * IL_MAX_TASKS + 1,
		     "too many tasks; at most 16 (IL_MAX_TASKS)");

	t.n = 0;
	for (int i = 0; i <= IL_MAX_RESOURCES; i++)
		add(&t, "[resource r%d]\n", i);
	add(&t, "[task a]\nbody = run 1ms\n");
	expect_error(t.buf, IL_MAX_RESOURCES + 1,
		     "too many resources; at most 16 (IL_MAX_RESOURCES)");

	t.n = 0;
	add(&t, "[task a]\nbody = run 1ms");
	for (int i = 1; i <= IL_MAX_PHASES; i++)
		add(&t, ", run 1ms");
	add(&t, "\n");
	expect_error(t.buf, 2,
		     "task 'a': body has more than 32 phases (IL_MAX_PHASES)");

	/* exactly IL_MAX_PHASES is fine */
	t.n = 0;
	add(&t, "[task a]\nbody = run 1ms");
	for (int i = 1; i < IL_MAX_PHASES; i++)
		add(&t, ", run 1ms");
	add(&t, "\n");
	{
		struct il_scenario sc;

		expect_ok(t.buf, &sc);
		t_check_int(sc.tasks[0].nphases, IL_MAX_PHASES);
		il_scenario_free(&sc);
	}

	t.n = 0;
	add(&t, "[task a]\nbody = signal e0");
	for (int i = 1; i <= IL_MAX_EVENTS; i++)
		add(&t, ", signal e%d", i);
	add(&t, "\n");
	expect_error(t.buf, 2,
		     "task 'a': body phase 17 'signal e16': too many events; "
		     "at most 16 (IL_MAX_EVENTS)");
}

static void test_syntax(void)
{
	struct il_scenario sc;

	expect_error("[task a]\nbody = run 1ms\n\x01\n", 3,
		     "control character 0x01");
	expect_error("[task a]\n= 5\n", 2, "syntax error: no key before '='");
	expect_error("[]\n", 1, "empty section header '[]'");
	expect_error("[job a]\n", 1,
		     "unknown section type 'job'; expected global, resource "
		     "or task");
	expect_error("[task]\n", 1, "[task] needs a name, e.g. [task high]");
	expect_error("[global x]\n", 1, "[global] takes no name, got 'x'");
	expect_error("[task a] b\n", 1,
		     "unexpected 'b' after the section header");
	expect_error("[task a23456789012345678901234567890bc]\n", 1,
		     "invalid task name");
	expect_error("[resource global]\n", 1,
		     "'global' cannot name a resource");
	expect_error("[task a]\nclass =\nbody = run 1ms\n", 2,
		     "task 'a': class = : unknown class ''");
	expect_error("[task a]\nbody =\n", 2, "task 'a': body is empty");
	expect_error("[task a]\nbody = run 1ms,\n", 2,
		     "task 'a': body phase 2 is empty (a stray comma?)");
	expect_error("[task a]\nbody = run 0\n", 2,
		     "task 'a': body phase 1 'run 0': 0 is out of range; "
		     "allowed 1us..60s");
	expect_error("[task a]\nbody = sleep 2s5\n", 2,
		     "'2s5' is not a duration (a number with unit ns, us, ms, "
		     "s or m; a bare number is in ms)");
	expect_error("[task a]\nbody = signal a/b\n", 2,
		     "'a/b' is not a valid event name");
	expect_error("[task a]\nbody = spin 1ms until\n", 2,
		     "'until' needs an event, e.g. 'spin 20ms until got'");
	expect_error("[task a]\nbody = jump\n", 2,
		     "unknown phase 'jump'; phases are run, spin, lock, "
		     "unlock, call, sleep, signal and wait");
	expect_error("[task a]\nbody = run 1ms\nactivation = event\n"
		     "on = go\noffset = 1ms\n[task b]\nbody = signal go\n",
		     5, "task 'a': offset is not used with activation = event");
	expect_error("[task a]\nbody = signal go\nactivation = event\n"
		     "on = go\n",
		     4, "only this task signals 'go', so it is never released");
	expect_error("[resource M]\nprotocol = protect\n[task a]\n"
		     "body = lock M, unlock M\n",
		     2,
		     "resource 'M': protocol = protect needs a ceiling: set "
		     "ceiling = 1..99, or lock it from a fifo or rr task");
	expect_error("[global]\nvalidate = pi,,x\n[task a]\nbody = run 1ms\n",
		     2, "validate = pi,,x: expected validator names");
	expect_error("[global]\nname = a/b\n[task a]\nbody = run 1ms\n", 2,
		     "name must be non-empty and without '/'");

	/* comments: whole line, trailing after a blank, never inside a word */
	expect_ok("# c\n  ; c\n[global]   ; c\ndescription = C# and a;b # c\n"
		  "[task a]\t# c\nbody = run 1ms\t; c\n",
		  &sc);
	t_check_str(sc.g.description, "C# and a;b");
	il_scenario_free(&sc);

	/* CRLF line ends, blanks around everything, no final newline */
	expect_ok("[task a]\r\n  class\t=  fifo:5 \r\n\r\nbody=run 1ms", &sc);
	t_check_int(sc.tasks[0].sched.prio, 5);
	il_scenario_free(&sc);
}

static void test_load_errors(void)
{
	struct il_scenario sc;
	char err[ERR_LEN], p[] = "/tmp/test-scenario-XXXXXX";
	int fd;

	t_check_int(
		il_scenario_load("/nonexistent/x.job", &sc, err, sizeof(err)),
		-ENOENT);
	t_check_str(err, "/nonexistent/x.job: No such file or directory");
	t_check_int(il_scenario_load("/", &sc, err, sizeof(err)), -EISDIR);

	fd = mkstemp(p);
	t_check(fd >= 0);
	if (fd < 0)
		return;
	t_check_int(write(fd, "[task a]\nbody = run 1ms\n\0\n", 26), 26);
	close(fd);
	t_check_int(il_scenario_load(p, &sc, err, sizeof(err)), -EINVAL);
	t_check_contains(err, ":3: NUL byte");
	unlink(p);
}

static void test_set(void)
{
	struct il_scenario sc;
	char err[ERR_LEN];
	int high, M;

	if (load("demos/jobs/pi-classic.job", &sc))
		return;
	high = il_scenario_task(&sc, "high");
	M = il_scenario_resource(&sc, "M");

	t_check_int(
		il_scenario_set(&sc, "high.class=fifo:40", err, sizeof(err)),
		0);
	t_check_int(sc.tasks[high].sched.prio, 40);
	t_check_str(sc.tasks[high].k.class_spec, "fifo:40");
	t_check_int(
		il_scenario_set(&sc, "global.duration=2s", err, sizeof(err)),
		0);
	t_check_int(sc.g.duration_ns, 2 * IL_NSEC_PER_SEC);
	t_check_int(il_scenario_set(&sc, " duration = 5 ", err, sizeof(err)),
		    0);
	t_check_int(sc.g.duration_ns, 5 * IL_NSEC_PER_SEC);
	t_check_int(il_scenario_set(&sc, "M.protocol=none", err, sizeof(err)),
		    0);
	t_check_int(sc.res[M].k.protocol, IL_PROTO_NONE);
	t_check_int(
		il_scenario_set(&sc, "M.protocol=protect", err, sizeof(err)),
		0);
	t_check_int(
		il_scenario_set(&sc, "description=set twice", err, sizeof(err)),
		0);
	t_check_int(
		il_scenario_set(&sc, "description=and again", err, sizeof(err)),
		0);
	t_check_str(sc.g.description, "and again");

	/* errors name the assignment */
	t_check_int(il_scenario_set(&sc, "high.clas=fifo:40", err, sizeof(err)),
		    -EINVAL);
	t_check_str(err, "--set high.clas=fifo:40: unknown key 'clas' in "
			 "task 'high'; did you mean 'class'?");
	t_check_int(
		il_scenario_set(&sc, "hihg.class=fifo:40", err, sizeof(err)),
		-EINVAL);
	t_check_str(err, "--set hihg.class=fifo:40: no task or resource "
			 "'hihg'; did you mean 'high'?");
	t_check_int(il_scenario_set(&sc, "duration", err, sizeof(err)),
		    -EINVAL);
	t_check_contains(err, "--set duration: expected SECTION.KEY=VALUE");
	t_check_int(il_scenario_set(&sc, "duration=1ms", err, sizeof(err)),
		    -EINVAL);
	t_check_str(err, "--set duration=1ms: duration: 1ms is out of range; "
			 "allowed 100ms..60m");
	t_check_int(il_scenario_set(&sc, "description=a ; b", err, sizeof(err)),
		    -EINVAL);
	t_check_contains(err, "' ;' and ' #' start a comment");

	/* the re-check refuses, and the scenario stays as it was */
	t_check_int(
		il_scenario_set(&sc, "high.class=fifo:400", err, sizeof(err)),
		-EINVAL);
	t_check_contains(err, "--set high.class=fifo:400: ");
	t_check_contains(err, "task 'high': class: 'fifo:400': fifo needs a "
			      "priority 1..99");
	t_check_str(sc.tasks[high].k.class_spec, "fifo:40");
	t_check_int(sc.tasks[high].sched.prio, 40);
	t_check_int(il_scenario_set(&sc, "low.body=lock M, run 1ms", err,
				    sizeof(err)),
		    -EINVAL);
	t_check_contains(err, "body ends holding 'M'");
	t_check_str(sc.tasks[0].k.body,
		    "lock M, signal held, run 2ms, unlock M");
	t_check_int(sc.tasks[0].nphases, 4);
	t_check_int(il_scenario_set(&sc, "medium.activation=round", err,
				    sizeof(err)),
		    -EINVAL);
	t_check_contains(err, "task 'medium': on = go is only used with "
			      "activation = event");
	t_check_int(sc.tasks[2].k.activation, IL_ACT_EVENT);
	t_check(sc.checked);

	t_check_int(round_trip(&sc, "pi-classic after --set"), 0);
	il_scenario_free(&sc);

	/* a name with dots: the key follows the last one */
	if (load("tests/data/jobs/nested.job", &sc))
		return;
	t_check_int(
		il_scenario_set(&sc, "t.one.class=fifo:9", err, sizeof(err)),
		0);
	t_check_int(sc.tasks[0].sched.prio, 9);
	t_check_int(il_scenario_set(&sc, "r.1.protocol=none", err, sizeof(err)),
		    0);
	t_check_int(sc.res[0].k.protocol, IL_PROTO_NONE);
	il_scenario_free(&sc);
}

/* A scenario built in C, key by key, as demos/pi-chain.c does. */
static void test_build_in_c(void)
{
	struct il_scenario sc;
	char err[ERR_LEN], name[8];
	int ret = 0;

	il_scenario_init(&sc, "demo");
	t_check_int(il_scenario_add_resource(&sc, "M"), 0);
	t_check_int(il_scenario_add_task(&sc, "low"), 0);
	t_check_int(il_scenario_add_task(&sc, "M"), -EEXIST);
	t_check_int(il_scenario_add_resource(&sc, "low"), -EEXIST);
	t_check_int(il_scenario_add_task(&sc, "global"), -EINVAL);
	t_check_int(il_scenario_add_task(&sc, "a b"), -EINVAL);
	t_check_int(il_scenario_add_task(&sc, ""), -EINVAL);
	/* incomplete: keys are checked one by one, not the scenario */
	ret |= il_scenario_set(&sc, "M.protocol=none", err, sizeof(err));
	ret |= il_scenario_set(&sc, "low.class=fifo:10", err, sizeof(err));
	ret |= il_scenario_set(&sc, "low.body=lock M, signal x, unlock M", err,
			       sizeof(err));
	t_check_int(ret, 0);
	t_check_int(il_scenario_set(&sc, "low.clas=fifo:10", err, sizeof(err)),
		    -EINVAL);
	t_check_int(il_scenario_add_task(&sc, "high"), 1);
	/* no line: the message starts with the scenario's name */
	t_check_int(il_scenario_check(&sc, err, sizeof(err)), -EINVAL);
	t_check_str(err, "demo: task 'high' has no body; add 'body = PHASES', "
			 "e.g. 'body = lock M, run 2ms, unlock M'");
	sc.tasks[1].k.body =
		il_scenario_strdup(&sc, "wait x, lock M, unlock M");
	t_check_int(il_scenario_check(&sc, err, sizeof(err)), 0);
	t_check(sc.checked);
	/* complete now: --set re-checks */
	t_check_int(il_scenario_set(&sc, "high.body=wait y", err, sizeof(err)),
		    -EINVAL);
	t_check_contains(err, "no task signals 'y'");
	t_check_int(round_trip(&sc, "built in C"), 0);
	for (int i = 2; i < IL_MAX_TASKS; i++) {
		snprintf(name, sizeof(name), "t%d", i);
		t_check_int(il_scenario_add_task(&sc, name), i);
	}
	t_check_int(il_scenario_add_task(&sc, "one-more"), -ENOSPC);
	t_check(!sc.checked);
	il_scenario_free(&sc);
}

static void test_round_trips(void)
{
	static const char *const files[] = {
		"tests/data/jobs/minimal.job",
		"tests/data/jobs/all-phases.job",
		"tests/data/jobs/nested.job",
		"demos/jobs/pi-classic.job",
		"demos/jobs/pi-chain-3.job",
		"demos/jobs/kmutex-throttled.job",
		"demos/jobs/kmutex-rt-waiter.job",
		"demos/jobs/kmutex-seqfile-chain.job",
		"demos/jobs/rt-football.job",
		"demos/jobs/membind.job",
	};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct il_scenario sc;

		if (load(files[i], &sc))
			continue;
		t_check_int(round_trip(&sc, files[i]), 0);
		il_scenario_free(&sc);
	}
}

/*
 * Values at the edges of the syntax: a ';' or '#' right after the '='
 * (a comment only after a blank), inside a value, runs of blanks, an
 * empty value.  Each must be written so that it reads back the same.
 * want: a line the written text must hold.
 */
static void value_trip(const char *value_line, const char *key_value,
		       const char *want)
{
	struct il_scenario sc;
	char text[512], err[ERR_LEN];
	char *written;

	snprintf(text, sizeof(text), "[global]\n%s\n[task a]\nbody = run 1ms\n",
		 value_line);
	if (il_scenario_parse(text, "edge.job", &sc, err, sizeof(err))) {
		fprintf(stderr, "'%s': unexpected error: %s\n", value_line,
			err);
		t_check(0);
		return;
	}
	t_check_str(sc.g.description ? sc.g.description : sc.g.name, key_value);
	t_check_int(round_trip(&sc, value_line), 0);
	written = write_text(&sc);
	t_check_contains(written ? written : "", want);
	free(written);
	il_scenario_free(&sc);
}

static void test_round_trip_values(void)
{
	struct il_scenario sc;
	char err[ERR_LEN], *written;

	value_trip("name =;x", ";x", "\nname =;x\n");
	value_trip("name =#1", "#1", "\nname =#1\n");
	value_trip("description =;", ";", "\ndescription =;\n");
	value_trip("description = C# and a;b", "C# and a;b",
		   "\ndescription = C# and a;b\n");
	value_trip("description = a;b#c ; a comment", "a;b#c",
		   "\ndescription = a;b#c\n");
	value_trip("description =  two  blanks\tand a tab  ",
		   "two  blanks\tand a tab",
		   "\ndescription = two  blanks\tand a tab\n");
	value_trip("description = x=y", "x=y", "\ndescription = x=y\n");
	value_trip("description =", "", "\ndescription =\n");
	value_trip("description = ", "", "\ndescription =\n");
	/* a default name from a file name the syntax cannot carry: left
	 * out, so that reading it back under that name gives it again */
	t_check_int(il_scenario_parse("[task a]\nbody = run 1ms\n", "a ;b.job",
				      &sc, err, sizeof(err)),
		    0);
	t_check_str(sc.g.name, "a ;b");
	t_check_int(round_trip(&sc, "name from 'a ;b.job'"), 0);
	written = write_text(&sc);
	t_check(written && !strstr(written, "\nname ="));
	free(written);
	il_scenario_free(&sc);
}

/*
 * The lock-order search on the largest graphs a file can make: it must
 * finish, accept what cannot deadlock and find what can.
 */
static void test_lock_order(void)
{
	struct il_scenario sc;
	struct text t;

	/* every task locks every resource in one order: a dense DAG */
	t.n = 0;
	for (int r = 0; r < IL_MAX_RESOURCES; r++)
		add(&t, "[resource r%d]\n", r);
	for (int ti = 0; ti < IL_MAX_TASKS; ti++) {
		add(&t, "[task t%d]\nbody = ", ti);
		for (int r = 0; r < IL_MAX_RESOURCES; r++)
			add(&t, "lock r%d, ", r);
		for (int r = IL_MAX_RESOURCES - 1; r >= 0; r--)
			add(&t, "unlock r%d%s", r, r ? ", " : "\n");
	}
	expect_ok(t.buf, &sc);
	il_scenario_free(&sc);

	/*
	 * Each task takes its pair of neighbours in both orders: a cycle of
	 * two edges per pair, but each from one task, and the pairs chain
	 * through every resource.  No deadlock, many paths.
	 */
	t.n = 0;
	for (int r = 0; r < IL_MAX_RESOURCES; r++)
		add(&t, "[resource r%d]\n", r);
	for (int ti = 0; ti < IL_MAX_TASKS - 1; ti++)
		add(&t,
		    "[task t%d]\nbody = lock r%d, lock r%d, unlock r%d, "
		    "unlock r%d, lock r%d, lock r%d, unlock r%d, unlock r%d\n",
		    ti, ti, ti + 1, ti + 1, ti, ti + 1, ti, ti, ti + 1);
	expect_ok(t.buf, &sc);
	il_scenario_free(&sc);

	/* a ring through all 16 resources and 16 tasks */
	t.n = 0;
	for (int r = 0; r < IL_MAX_RESOURCES; r++)
		add(&t, "[resource r%d]\n", r);
	for (int ti = 0; ti < IL_MAX_TASKS; ti++)
		add(&t,
		    "[task t%d]\nbody = lock r%d, lock r%d, unlock r%d, "
		    "unlock r%d\n",
		    ti, ti, (ti + 1) % 16, (ti + 1) % 16, ti);
	expect_error(t.buf, 18,
		     "lock-order cycle, these tasks can deadlock: "
		     "task 't0' holds 'r0' and locks 'r1'; task "
		     "'t1' holds 'r1' and locks 'r2';");
	expect_error(t.buf, 18, "task 't15' holds 'r15' and locks 'r0'");
}

/*
 * Kernel-mutex resources, `call`, and the cgroup keys: the example job
 * files read as intended, and every new mistake is reported at its line.
 */
static void test_kmutex(void)
{
	struct il_scenario sc;
	const struct il_task *t;
	int K, S;

	if (!load("demos/jobs/kmutex-throttled.job", &sc)) {
		K = il_scenario_resource(&sc, "K");
		t_check_int(sc.res[K].k.type, IL_RES_RENAME);
		t_check_str(sc.res[K].k.dir, "/tmp");
		t_check_int(sc.res[K].k.via, 0);
		t = &sc.tasks[il_scenario_task(&sc, "bg")];
		t_check_str(t->k.cgroup, "kmutex-bg");
		t_check_int(t->k.cpu_weight, 10);
		t_check_int(t->k.activation, IL_ACT_HOG);
		check_phase(t, 0, IL_PH_CALL, 0, K, -1);
		t = &sc.tasks[il_scenario_task(&sc, "fg")];
		check_phase(t, 0, IL_PH_CALL, 0, K, -1);
		check_phase(t, 1, IL_PH_SLEEP, IL_NSEC_PER_MSEC, -1, -1);
		t = &sc.tasks[il_scenario_task(&sc, "hog2")];
		t_check_int(t->k.cpu_weight, 1000);
		il_scenario_free(&sc);
	}
	if (!load("demos/jobs/kmutex-seqfile-chain.job", &sc)) {
		S = il_scenario_resource(&sc, "S");
		t_check_int(sc.res[S].k.type, IL_RES_SEQFILE);
		t_check_int(sc.res[S].k.size, 65536);
		t_check_str(sc.res[S].k.source, "/proc/kallsyms");
		t = &sc.tasks[il_scenario_task(&sc, "holder")];
		check_phase(t, 0, IL_PH_CALL, 0, S, -1);
		t_check_int(t->phases[0].op, 1); /* IL_KM_OP_PREAD */
		t = &sc.tasks[il_scenario_task(&sc, "middle")];
		t_check_int(t->phases[0].op, 0);
		il_scenario_free(&sc);
	}
	if (!load("demos/jobs/kmutex-rt-waiter.job", &sc)) {
		t = &sc.tasks[il_scenario_task(&sc, "fg")];
		t_check_int(t->sched.policy, IL_SCHED_FIFO);
		t_check(t->k.cgroup == NULL);
		il_scenario_free(&sc);
	}

	/* lock and call each take their own kind of resource */
	expect_error("[resource M]\n[task a]\nbody = call M\n", 3,
		     "task 'a': body phase 1 'call M': 'M' is a pthread mutex: "
		     "use 'lock M' and 'unlock M'");
	expect_error("[resource R]\ntype = rename\n[task a]\n"
		     "body = lock R, unlock R\n",
		     4,
		     "task 'a': body phase 1 'lock R': 'R' is a kernel-mutex "
		     "resource (type rename): take it with 'call R'");
	expect_error("[resource R]\ntype = fpos\n[task a]\nbody = call\n", 4,
		     "'call' needs a kernel-mutex resource");
	expect_error("[resource R]\ntype = rename\n[task a]\n"
		     "body = call R pread\n",
		     4,
		     "body phase 1 'call R pread': 'pread' is not an operation "
		     "of a rename resource");
	expect_error("[resource S]\ntype = seqfile\n[task a]\n"
		     "body = call S pread now\n",
		     4, "unexpected 'now' after 'call S pread'");
	expect_error("[resource R]\ntype = renam\n[task a]\nbody = run 1ms\n",
		     2,
		     "type: 'renam' is not one of "
		     "mutex|rename|fpos|pipe|seqfile");
	/* the recipes' keys */
	expect_error("[resource P]\ntype = pipe\nsize = 512K\n[task a]\n"
		     "body = call P\n",
		     3,
		     "resource 'P': size: 524288 is out of range for a pipe "
		     "resource; allowed 1..256K");
	expect_error("[resource R]\ntype = rename\nsize = 4K\n[task a]\n"
		     "body = call R\n",
		     3, "resource 'R': size: a rename resource takes no size");
	expect_error("[resource R]\ntype = fpos\nsize = 32M\n[task a]\n"
		     "body = call R\n",
		     3, "size: 32M is out of range; allowed 0..16M");
	expect_error("[resource P]\ntype = pipe\ndir = /tmp\n[task a]\n"
		     "body = call P\n",
		     3,
		     "resource 'P': dir is only used by rename and fpos "
		     "resources, not pipe");
	expect_error("[resource R]\ntype = rename\nsource = /proc/kallsyms\n"
		     "[task a]\nbody = call R\n",
		     3,
		     "resource 'R': source is only used by seqfile resources, "
		     "not rename");
	expect_error("[resource R]\ntype = rename\ndir = tmp\n[task a]\n"
		     "body = call R\n",
		     3, "resource 'R': dir = tmp: must be an absolute path");
	expect_error("[resource M]\nvia = io_uring\n[task a]\n"
		     "body = lock M, unlock M\n",
		     2,
		     "resource 'M': via = io_uring is for kernel-mutex "
		     "resources");
	expect_error("[resource R]\ntype = rename\nvia = uring\n[task a]\n"
		     "body = call R\n",
		     3, "via: 'uring' is not one of syscall|io_uring");
	if (!il_kmutex_have_uring())
		expect_error("[resource R]\ntype = rename\nvia = io_uring\n"
			     "[task a]\nbody = call R\n",
			     3,
			     "resource 'R': via = io_uring: not supported: "
			     "built without liburing");
	/* cgroups: a name that is a directory name and nothing else */
	expect_error("[task a]\nbody = run 1ms\ncgroup = ../../etc\n", 3,
		     "task 'a': cgroup: cgroup name '../../etc' contains '.'");
	expect_error("[task a]\nbody = run 1ms\ncgroup = a/b\n", 3,
		     "task 'a': cgroup: cgroup name 'a/b' contains '/'");
	expect_error("[task a]\nbody = run 1ms\ncgroup = .\n", 3,
		     "task 'a': cgroup: '.' is not a cgroup name");
	expect_error("[task a]\nbody = run 1ms\ncgroup = x\x01\n", 3,
		     "control character 0x01");
	expect_error("[task a]\nclass = fifo:10\nbody = run 1ms\n"
		     "cgroup = g\n",
		     4,
		     "task 'a': cgroup = g: only fair-class tasks (other, "
		     "batch, idle) can be put in a cgroup");
	expect_error("[task a]\nbody = run 1ms\ncpu_weight = 10\n", 3,
		     "task 'a': cpu_weight needs cgroup = NAME");
	/* partition: deadline tasks only, a CPU number */
	expect_error(
		"[task a]\nclass = fifo:10\nbody = run 1ms\n"
		"partition = 1\n",
		4,
		"task 'a': partition = 1: only SCHED_DEADLINE tasks run in "
		"cpuset partitions; pin other classes with cpu = 1");
	expect_error("[task a]\nclass = deadline:1ms/10ms/10ms\n"
		     "activation = periodic\nperiod = 10ms\nbody = run 500us\n"
		     "partition = 1024\n",
		     6, "partition: 1024 is out of range; allowed -1..1023");
	expect_error("[task a]\nbody = run 1ms\ncgroup = g\n"
		     "cpu_weight = 20000\n",
		     4, "cpu_weight: 20000 is out of range; allowed 0..10000");
	expect_error("[task a]\nbody = run 1ms\ncgroup = g\ncpu_weight = 10\n"
		     "[task b]\nbody = run 1ms\ncgroup = g\n"
		     "cpu_weight = 20\n",
		     8,
		     "task 'b': cpu_weight = 20, but task 'a' gives cgroup 'g' "
		     "weight 10");
	/* the default weight is 100 whether written or not */
	expect_ok("[task a]\nbody = run 1ms\ncgroup = g\n[task b]\n"
		  "body = run 1ms\ncgroup = g\ncpu_weight = 100\n",
		  &sc);
	t_check_int(round_trip(&sc, "cgroup default weight"), 0);
	il_scenario_free(&sc);
	/* an empty name is a mistake, not "no group" */
	expect_error("[task a]\nbody = run 1ms\ncgroup =\n", 3,
		     "task 'a': cgroup: a cgroup name cannot be empty");
	/* node: -1..1023 like a resource's, read the same on every machine
	 * (whether the node exists is the run's to say), written back only
	 * when set */
	expect_error("[task a]\nbody = run 1ms\nnode = 1024\n", 3,
		     "node: 1024 is out of range; allowed -1..1023");
	expect_error("[task a]\nbody = run 1ms\nnode = -2\n", 3,
		     "node: -2 is out of range; allowed -1..1023");
	expect_error("[task a]\nbody = run 1ms\nnode = one\n", 3,
		     "node: 'one'");
	expect_ok("[task a]\nbody = run 1ms\nnode = 1023\n[task b]\n"
		  "body = run 1ms\n[task c]\nbody = run 1ms\nnode = 0\n",
		  &sc);
	t_check_int((int)sc.tasks[0].k.node, 1023);
	t_check_int((int)sc.tasks[1].k.node, -1);
	t_check_int((int)sc.tasks[2].k.node, 0);
	t_check_int(round_trip(&sc, "task node"), 0);
	{
		char *w = write_text(&sc), err[ERR_LEN];

		t_check(w != NULL);
		if (w) {
			const char *b = strstr(w, "[task b]"),
				   *c = strstr(w, "[task c]");

			t_check_contains(w, "\nnode = 1023\n");
			t_check_contains(w, "\nnode = 0\n");
			/* the default is noise: not written for b */
			t_check(b && c &&
				!memmem(b, (size_t)(c - b), "node", 4));
		}
		free(w);
		t_check_int(il_scenario_set(&sc, "b.node=3", err, sizeof(err)),
			    0);
		t_check_int((int)sc.tasks[1].k.node, 3);
		t_check_int(
			il_scenario_set(&sc, "b.node=1024", err, sizeof(err)),
			-EINVAL);
		t_check_int((int)sc.tasks[1].k.node, 3);
	}
	il_scenario_free(&sc);
}

/* ---- robustness --------------------------------------------------------- */

static int fuzz_bad, fuzz_runs, fuzz_ok;

/*
 * Any text gives a checked scenario that writes back and reads back the
 * same, or -EINVAL with a "fuzz.job:" message and nothing to free.
 */
static void fuzz_one(const char *text)
{
	struct il_scenario sc;
	char err[ERR_LEN];
	int ret = il_scenario_parse(text, "fuzz.job", &sc, err, sizeof(err));

	fuzz_runs++;
	fuzz_ok += !ret;
	if (!ret) {
		if (round_trip(&sc, "fuzz"))
			goto bad;
		il_scenario_free(&sc);
		return;
	}
	if (ret == -EINVAL && !strncmp(err, "fuzz.job:", 9) && !sc.strings &&
	    !sc.ntasks)
		return;
bad:
	if (!fuzz_bad++)
		fprintf(stderr, "fuzz: ret %d, err '%s' for:\n%s\n", ret, err,
			text);
	if (!ret)
		il_scenario_free(&sc);
}

static char *read_all(const char *rel)
{
	char p[512];
	FILE *f = fopen(src(p, sizeof(p), rel), "re");
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = calloc(1, 65536);
	n = buf ? fread(buf, 1, 65535, f) : 0;
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

static void test_fuzz(void)
{
	static const char *const seeds[] = {
		"tests/data/jobs/all-phases.job",
		"tests/data/jobs/nested.job",
		"tests/data/jobs/bad-cycle-3.job",
		"demos/jobs/pi-classic.job",
		"demos/jobs/pi-chain-3.job",
		"demos/jobs/kmutex-seqfile-chain.job",
		"demos/jobs/kmutex-throttled.job",
	};
	/* the characters the grammar cares about, and some it does not */
	static const char alphabet[] = "[]=,;# \t\n\r:.-_/0123456789"
				       "abcdefghijklmnopqrstuvwxyzMRT";
	uint64_t rng = 0x9e3779b97f4a7c15ull;
	char buf[8192];

	for (size_t s = 0; s < sizeof(seeds) / sizeof(seeds[0]); s++) {
		char *seed = read_all(seeds[s]);
		size_t len;

		t_check(seed != NULL);
		if (!seed)
			continue;
		len = strlen(seed);
		/* every truncation */
		for (size_t cut = 0; cut <= len && cut < sizeof(buf); cut++) {
			memcpy(buf, seed, cut);
			buf[cut] = '\0';
			fuzz_one(buf);
		}
		/* 1 to 4 random edits */
		for (int i = 0; i < 2000; i++) {
			size_t n = len;
			int edits = 1 + (int)(t_rand(&rng) % 4);

			memcpy(buf, seed, len + 1);
			for (int e = 0; e < edits && n; e++) {
				size_t pos = t_rand(&rng) % n;
				uint64_t r = t_rand(&rng);
				size_t k;

				switch (r % 5) {
				case 0: /* replace with a grammar character */
					buf[pos] = alphabet[(r >> 8) %
							    (sizeof(alphabet) -
							     1)];
					break;
				case 1: /* replace with any non-NUL byte */
					buf[pos] = (char)(1 + (r >> 8) % 255);
					break;
				case 2: /* insert */
					if (n + 2 >= sizeof(buf))
						break;
					memmove(buf + pos + 1, buf + pos,
						n - pos + 1);
					buf[pos] = alphabet[(r >> 8) %
							    (sizeof(alphabet) -
							     1)];
					n++;
					break;
				case 3: /* delete up to 16 bytes */
					k = 1 + (r >> 8) % 16;
					if (k > n - pos)
						k = n - pos;
					memmove(buf + pos, buf + pos + k,
						n - pos - k + 1);
					n -= k;
					break;
				default: /* copy a piece elsewhere */
					k = 1 + (r >> 8) % 64;
					if (k > n - pos)
						k = n - pos;
					if (n + k + 1 >= sizeof(buf))
						break;
					{
						size_t to = (r >> 20) % (n + 1);
						char piece[64];

						memcpy(piece, buf + pos, k);
						memmove(buf + to + k, buf + to,
							n - to + 1);
						memcpy(buf + to, piece, k);
						n += k;
					}
					break;
				}
			}
			fuzz_one(buf);
		}
		free(seed);
	}
	/* random text, from the grammar's characters and from any byte */
	for (int i = 0; i < 3000; i++) {
		size_t n = t_rand(&rng) % 400;

		for (size_t j = 0; j < n; j++) {
			uint64_t r = t_rand(&rng);

			buf[j] = i % 2 ? (char)(1 + r % 255)
				       : alphabet[r % (sizeof(alphabet) - 1)];
		}
		buf[n] = '\0';
		fuzz_one(buf);
	}
	printf("fuzz: %d inputs, %d read as scenarios\n", fuzz_runs, fuzz_ok);
	t_check(fuzz_ok > 100 && fuzz_runs - fuzz_ok > 100);
	t_check_int(fuzz_bad, 0);
}

/*
 * docs/job-files.md lists every key with its default, from the same
 * tables; a key added to a table and not to the document fails here.
 */
static void test_docs(void)
{
	static const struct il_opt *const tables[] = { il_global_keys,
						       il_resource_keys,
						       il_task_keys };
	static const char *const phases[] = {
		"`run TIME`",	"`spin TIME [until EVENT]`",
		"`lock RES`",	"`unlock RES`",
		"`sleep TIME`", "`signal EVENT`",
		"`wait EVENT`", "`call RES [OP]`",
	};
	/* each table in its own section: a task's `node` is not a
	 * resource's */
	static const char *const sections[] = { "\n### `[global]`",
						"\n### `[resource NAME]`",
						"\n### `[task NAME]`" };
	char *doc = read_all("docs/job-files.md");

	t_check(doc != NULL);
	if (!doc)
		return;
	for (size_t i = 0; i < 3; i++) {
		char *sec = strstr(doc, sections[i]), *end, keep = '\0';

		t_check_contains(doc, sections[i]);
		if (!sec)
			continue;
		end = strstr(sec + 1, "\n#");
		if (end) {
			keep = *end;
			*end = '\0';
		}
		for (const struct il_opt *o = tables[i]; o->name; o++) {
			char row[64], def[64];
			const char *line;
			size_t n;

			snprintf(row, sizeof(row), "\n| `%s` |", o->name);
			line = strstr(sec, row);
			t_check_contains(sec, row);
			if (!line || !o->def)
				continue;
			n = strcspn(line + 1, "\n");
			snprintf(def, sizeof(def), "`%s`", o->def);
			/* the default is in the key's own row */
			{
				char copy[512];

				snprintf(copy, sizeof(copy), "%.*s", (int)n,
					 line + 1);
				t_check_contains(copy, def);
			}
		}
		if (end)
			*end = keep;
	}
	for (size_t i = 0; i < sizeof(phases) / sizeof(phases[0]); i++)
		t_check_contains(doc, phases[i]);
	free(doc);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		srcdir = argv[1];
	test_tables();
	test_minimal();
	test_all_phases();
	test_nested();
	test_demo_jobs();
	test_bad_files();
	test_limits();
	test_syntax();
	test_load_errors();
	test_set();
	test_build_in_c();
	test_round_trips();
	test_round_trip_values();
	test_lock_order();
	test_kmutex();
	test_fuzz();
	test_docs();
	return t_done("scenario");
}
