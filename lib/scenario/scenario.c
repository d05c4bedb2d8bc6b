// SPDX-License-Identifier: MIT
/*
 * The scenario model: the option tables of the job-file sections, adding
 * sections, applying keys (from a job file or --set), and the check that
 * turns the raw keys into what the engine runs: scheduling classes, CPU
 * placements, task bodies as phases, the events they use.
 *
 * The check is also where a scenario that cannot work is refused before
 * any thread starts: a lock released by a task that does not hold it, a
 * wait on an event nobody signals, or lock orders that let tasks deadlock.
 * A hang found at run time costs a timeout and says little; found here it
 * costs nothing and names the tasks.
 *
 * Reading job-file text is in jobfile.c; both go through
 * __il_scenario_key so a key means the same in a file and in --set.  The
 * check is in scenario-check.c, --set in scenario-set.c, writing a job
 * file back in scenario-write.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "invlab/cgroup.h"
#include "invlab/kmutex.h"
#include "invlab/scenario.h"
#include "invlab/strbuf.h"
#include "invlab/time.h"
#include "scenario-private.h"

#define G(f) offsetof(struct il_global_keys, f)
#define R(f) offsetof(struct il_resource_keys, f)
#define T(f) offsetof(struct il_task_keys, f)

_Static_assert(GK_N <= IL_MAX_KEYS && RK_N <= IL_MAX_KEYS &&
		       TK_N <= IL_MAX_KEYS,
	       "IL_MAX_KEYS is smaller than a section table");

const struct il_opt il_global_keys[] = {
	[GK_NAME] = {
		.name = "name",
		.type = IL_OPT_STRING,
		.offset = G(name),
		.metavar = "NAME",
		.help = "name of the scenario in reports and result files; "
			"default: the job file's name without its extension",
	},
	[GK_DESCRIPTION] = {
		.name = "description",
		.type = IL_OPT_STRING,
		.offset = G(description),
		.metavar = "TEXT",
		.help = "one line saying what the scenario shows",
	},
	[GK_DURATION] = {
		.name = "duration",
		.type = IL_OPT_DURATION,
		.offset = G(duration_ns),
		.def = "3s",
		.min = 100 * MS,
		.max = 3600 * SEC,
		.metavar = "TIME",
		.help = "how long the scenario runs",
	},
	[GK_VALIDATE] = {
		.name = "validate",
		.type = IL_OPT_STRING,
		.offset = G(validate),
		.def = "auto",
		.metavar = "LIST",
		.help = "validators that judge the run, comma-separated; "
			"'auto' picks them from the scenario's shape",
	},
	[GK_TIMEOUT] = {
		.name = "timeout",
		.type = IL_OPT_DURATION,
		.offset = G(timeout_ns),
		.def = "1s",
		.min = MS,
		.max = 60 * SEC,
		.metavar = "TIME",
		.help = "the longest any single wait may take before the run "
			"is stopped as hung",
	},
	[GK_EXPECT] = {
		.name = "expect",
		.type = IL_OPT_CHOICE,
		.offset = G(expect),
		.def = "PASS",
		.choices = "PASS|FAIL|UNDECIDED",
		.metavar = "VERDICT",
		.help = "the verdict every check should reach; a job that "
			"shows an inversion on purpose expects FAIL",
	},
	[GK_SAMPLES] = {
		.name = "samples",
		.type = IL_OPT_INT,
		.offset = G(samples),
		.min = 0,
		.max = IL_MAX_SAMPLES_TARGET,
		.metavar = "N",
		.help = "end the run once it has N judged samples (each "
			"measured task's waits, or its jobs when it takes no "
			"lock) or at its duration, whichever comes first; 0: "
			"at its duration",
	},
	[GK_N] = { .name = NULL },
};

const struct il_opt il_resource_keys[] = {
	[RK_TYPE] = {
		.name = "type",
		.type = IL_OPT_CHOICE,
		.offset = R(type),
		.def = "mutex",
		.choices = IL_RES_TYPE_CHOICES,
		.help = "kind of lock: a pthread mutex, or a kernel struct "
			"mutex taken by a system call (rename: "
			"s_vfs_rename_mutex, fpos: f_pos_lock, pipe: "
			"pipe->mutex, seqfile: f_pos_lock then "
			"seq_file->lock)",
	},
	[RK_PROTOCOL] = {
		.name = "protocol",
		.type = IL_OPT_CHOICE,
		.offset = R(protocol),
		.def = "inherit",
		.choices = IL_PROTOCOL_CHOICES,
		.help = "pthread mutex protocol: none, priority inheritance or "
			"priority ceiling (protect)",
	},
	[RK_CEILING] = {
		.name = "ceiling",
		.type = IL_OPT_INT,
		.offset = R(ceiling),
		.def = "0",
		.min = 0,
		.max = 99,
		.metavar = "PRIO",
		.help = "priority ceiling with protocol = protect; 0: the "
			"highest priority among the tasks that lock it",
	},
	[RK_NODE] = {
		.name = "node",
		.type = IL_OPT_INT,
		.offset = R(node),
		.def = "-1",
		.min = -1,
		.max = 1023,
		.metavar = "NODE",
		.help = "NUMA node the lock's memory is placed on; -1: wherever "
			"the first task to touch it runs",
	},
	[RK_SIZE] = {
		.name = "size",
		.type = IL_OPT_SIZE,
		.offset = R(size),
		.min = 0,
		.max = 16 << 20,
		.metavar = "BYTES",
		.help = "kernel-mutex resources: bytes copied in one critical "
			"section (fpos up to 4M, pipe up to 256K, seqfile up to "
			"1M; rename takes none); 0: 1M for fpos, 64K for the "
			"others",
	},
	[RK_VIA] = {
		.name = "via",
		.type = IL_OPT_CHOICE,
		.offset = R(via),
		.def = "syscall",
		.choices = IL_KM_VIA_CHOICES,
		.help = "kernel-mutex resources: issue the critical section as "
			"a plain system call, or through io_uring (the mutex "
			"may then be owned by an io-wq worker)",
	},
	[RK_DIR] = {
		.name = "dir",
		.type = IL_OPT_STRING,
		.offset = R(dir),
		.metavar = "PATH",
		.help = "rename, fpos: directory that holds the run's temporary "
			"directory, and so the filesystem tested; default /tmp",
	},
	[RK_SOURCE] = {
		.name = "source",
		.type = IL_OPT_STRING,
		.offset = R(source),
		.metavar = "PATH",
		.help = "seqfile: the seq_file read; default /proc/kallsyms",
	},
	[RK_N] = { .name = NULL },
};

const struct il_opt il_task_keys[] = {
	[TK_CLASS] = {
		.name = "class",
		.type = IL_OPT_STRING,
		.offset = T(class_spec),
		.def = "other",
		.metavar = "CLASS",
		.help = "scheduling class: fifo:P, rr:P, "
			"deadline:RUNTIME/DEADLINE[/PERIOD], other[:NICE], "
			"batch[:NICE] or idle",
	},
	[TK_CPU] = {
		.name = "cpu",
		.type = IL_OPT_STRING,
		.offset = T(cpu),
		.def = "any",
		.metavar = "CPUS",
		.help = "where the task runs: a CPU list (1, 0-3,8), node:N, "
			"spread (distinct CPUs, across nodes when there are "
			"several) or any",
	},
	[TK_ACTIVATION] = {
		.name = "activation",
		.type = IL_OPT_CHOICE,
		.offset = T(activation),
		.def = "round",
		.choices = IL_ACTIVATION_CHOICES,
		.help = "how jobs are released",
	},
	[TK_PERIOD] = {
		.name = "period",
		.type = IL_OPT_DURATION,
		.offset = T(period_ns),
		.min = 0,
		.max = 10 * SEC,
		.unit_ns = IL_NSEC_PER_MSEC,
		.metavar = "TIME",
		.help = "release period of a periodic task: 0 (none) or "
			"100us..10s",
	},
	[TK_OFFSET] = {
		.name = "offset",
		.type = IL_OPT_DURATION,
		.offset = T(offset_ns),
		.def = "0",
		.min = 0,
		.max = 10 * SEC,
		.unit_ns = IL_NSEC_PER_MSEC,
		.metavar = "TIME",
		.help = "release time after the start (of the run, or of each "
			"round)",
	},
	[TK_ON] = {
		.name = "on",
		.type = IL_OPT_STRING,
		.offset = T(on),
		.metavar = "EVENT",
		.help = "event that releases a task with activation = event",
	},
	[TK_BODY] = {
		.name = "body",
		.type = IL_OPT_STRING,
		.offset = T(body),
		.metavar = "PHASES",
		.help = "what each job does: comma-separated phases (required)",
	},
	[TK_CGROUP] = {
		.name = "cgroup",
		.type = IL_OPT_STRING,
		.offset = T(cgroup),
		.metavar = "NAME",
		.help = "cpu cgroup the task runs in, created for the run under "
			"invlab-<pid> and removed after it (fair-class tasks "
			"only); tasks may share one",
	},
	[TK_CPU_WEIGHT] = {
		.name = "cpu_weight",
		.type = IL_OPT_INT,
		.offset = T(cpu_weight),
		.def = "0",
		.min = 0,
		.max = 10000,
		.metavar = "N",
		.help = "weight of the task's cgroup on the cgroup v2 scale "
			"(100 is a nice-0 task; v1 cpu.shares = N * 1024 / 100); "
			"0: the default, 100",
	},
	[TK_MISBEHAVES] = {
		.name = "misbehaves",
		.type = IL_OPT_FLAG,
		.offset = T(misbehaves),
		.help = "the task overruns its budget or critical sections on "
			"purpose (a negative control): the bandwidth check of "
			"its reservation is expected to FAIL, and tasks sharing "
			"no lock with it must stay isolated",
	},
	[TK_PARTITION] = {
		.name = "partition",
		.type = IL_OPT_INT,
		.offset = T(partition),
		.def = "-1",
		.min = -1,
		.max = IL_MAX_CPUS - 1,
		.metavar = "CPU",
		.help = "SCHED_DEADLINE tasks, when run partitioned "
			"(--partition): the CPU whose cpuset partition the task "
			"runs in; -1: the runner picks one (densest task first, "
			"on the least loaded CPU); ignored under global EDF",
	},
	[TK_NODE] = {
		.name = "node",
		.type = IL_OPT_INT,
		.offset = T(node),
		.def = "-1",
		.min = -1,
		.max = 1023,
		.metavar = "NODE",
		.help = "NUMA node the task's memory is bound to (its stack, "
			"the buffers the engine allocates for it, and what its "
			"thread allocates; libnuma); -1: no binding",
	},
	[TK_N] = { .name = NULL },
};

static const struct il_opt *const global_tables[] = { il_global_keys, NULL };
static const struct il_opt *const resource_tables[] = { il_resource_keys,
							NULL };
static const struct il_opt *const task_tables[] = { il_task_keys, NULL };

bool __il_name_valid(const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= IL_NAME_MAX)
		return false;
	/* ASCII ranges rather than isalnum(): names must not depend on
	 * the locale */
	for (; *s; s++) {
		char c = *s;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.' ||
		      c == '-'))
			return false;
	}
	return true;
}

static char *own(struct il_scenario *sc, const char *s)
{
	char **v, *copy = strdup(s);

	if (!copy)
		return NULL;
	v = realloc(sc->strings, ((size_t)sc->nstrings + 1) * sizeof(*v));
	if (!v) {
		free(copy);
		return NULL;
	}
	sc->strings = v;
	v[sc->nstrings++] = copy;
	return copy;
}

const char *il_scenario_strdup(struct il_scenario *sc, const char *s)
{
	if (!sc || !s)
		return NULL;
	return own(sc, s);
}

void il_scenario_init(struct il_scenario *sc, const char *name)
{
	char m[256];

	memset(sc, 0, sizeof(*sc));
	if (!name || !name[0])
		name = "scenario";
	snprintf(sc->file, sizeof(sc->file), "%s", name);
	/* only the table's own mistakes can fail here; test_jobfile runs it */
	il_opt_parse(0, NULL, global_tables, &sc->g, m, sizeof(m));
	/* a static fallback on ENOMEM: the scenario stays usable */
	sc->g.name = own(sc, name);
	if (!sc->g.name)
		sc->g.name = "scenario";
}

void il_scenario_free(struct il_scenario *sc)
{
	if (!sc)
		return;
	for (int i = 0; i < sc->nstrings; i++)
		free(sc->strings[i]);
	free(sc->strings);
	memset(sc, 0, sizeof(*sc));
}

int il_scenario_task(const struct il_scenario *sc, const char *name)
{
	for (int i = 0; name && i < sc->ntasks; i++)
		if (!strcmp(sc->tasks[i].name, name))
			return i;
	return -1;
}

int il_scenario_resource(const struct il_scenario *sc, const char *name)
{
	for (int i = 0; name && i < sc->nres; i++)
		if (!strcmp(sc->res[i].name, name))
			return i;
	return -1;
}

int il_scenario_event(const struct il_scenario *sc, const char *name)
{
	for (int i = 0; name && i < sc->nevents; i++)
		if (!strcmp(sc->events[i], name))
			return i;
	return -1;
}

/*
 * A name is refused when it is already a task or a resource: "--set
 * M.protocol=none" must name one section, whatever its kind.  "global"
 * is taken by the [global] section for the same reason.
 */
static int check_new_name(const struct il_scenario *sc, const char *name)
{
	if (!name || !__il_name_valid(name) || !strcmp(name, "global"))
		return -EINVAL;
	if (il_scenario_task(sc, name) >= 0 ||
	    il_scenario_resource(sc, name) >= 0)
		return -EEXIST;
	return 0;
}

int il_scenario_add_task(struct il_scenario *sc, const char *name)
{
	struct il_task *t;
	char m[256];
	int ret = check_new_name(sc, name);

	if (ret)
		return ret;
	if (sc->ntasks >= IL_MAX_TASKS)
		return -ENOSPC;
	t = &sc->tasks[sc->ntasks];
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", name);
	if (il_opt_parse(0, NULL, task_tables, &t->k, m, sizeof(m)) < 0)
		return -EINVAL;
	t->on_event = -1;
	sc->checked = 0;
	return sc->ntasks++;
}

int il_scenario_add_resource(struct il_scenario *sc, const char *name)
{
	struct il_resource *r;
	char m[256];
	int ret = check_new_name(sc, name);

	if (ret)
		return ret;
	if (sc->nres >= IL_MAX_RESOURCES)
		return -ENOSPC;
	r = &sc->res[sc->nres];
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	if (il_opt_parse(0, NULL, resource_tables, &r->k, m, sizeof(m)) < 0)
		return -EINVAL;
	sc->checked = 0;
	return sc->nres++;
}

int __il_get_section(struct il_scenario *sc, enum il_section kind, int idx,
		     struct section *s)
{
	switch (kind) {
	case IL_SEC_GLOBAL:
		s->tables = global_tables;
		s->rows = il_global_keys;
		s->keys = &sc->g;
		s->keys_size = sizeof(sc->g);
		s->key_line = sc->global_key_line;
		snprintf(s->what, sizeof(s->what), "[global]");
		return 0;
	case IL_SEC_RESOURCE:
		if (idx < 0 || idx >= sc->nres)
			return -EINVAL;
		s->tables = resource_tables;
		s->rows = il_resource_keys;
		s->keys = &sc->res[idx].k;
		s->keys_size = sizeof(sc->res[idx].k);
		s->key_line = sc->res[idx].key_line;
		snprintf(s->what, sizeof(s->what), "resource '%s'",
			 sc->res[idx].name);
		return 0;
	case IL_SEC_TASK:
		if (idx < 0 || idx >= sc->ntasks)
			return -EINVAL;
		s->tables = task_tables;
		s->rows = il_task_keys;
		s->keys = &sc->tasks[idx].k;
		s->keys_size = sizeof(sc->tasks[idx].k);
		s->key_line = sc->tasks[idx].key_line;
		snprintf(s->what, sizeof(s->what), "task '%s'",
			 sc->tasks[idx].name);
		return 0;
	}
	return -EINVAL;
}

static bool has_control(const char *s)
{
	for (; *s; s++)
		if (((unsigned char)*s < 0x20 && *s != '\t') || *s == 0x7f)
			return true;
	return false;
}

int __il_scenario_key(struct il_scenario *sc, enum il_section kind, int idx,
		      const char *key, const char *value, int line, char *msg,
		      size_t len)
{
	const struct il_opt *o;
	struct section s;
	char m[256];
	const char *rest;
	size_t nlen;
	int row, ret;

	if (__il_get_section(sc, kind, idx, &s)) {
		il_setf(msg, len, "no such section");
		return -EINVAL;
	}
	o = il_opt_find(s.tables, key);
	if (!o) {
		const char *sug = il_opt_suggest(s.tables, key);

		if (sug)
			il_setf(msg, len,
				"unknown key '%s' in %s; did you mean '%s'?",
				key, s.what, sug);
		else
			il_setf(msg, len, "unknown key '%s' in %s", key,
				s.what);
		return -EINVAL;
	}
	row = (int)(o - s.rows);
	if (line > 0 && s.key_line[row] > 0) {
		il_setf(msg, len, "duplicate key '%s' in %s (first at line %d)",
			o->name, s.what, s.key_line[row]);
		return -EINVAL;
	}
	if (has_control(value)) {
		il_setf(msg, len, "%s: the value contains a control character",
			o->name);
		return -EINVAL;
	}
	if (o->type == IL_OPT_STRING) {
		value = own(sc, value);
		if (!value) {
			il_setf(msg, len, "%s: out of memory", o->name);
			return -ENOMEM;
		}
	}
	ret = il_opt_set(s.tables, s.keys, o->name, value, m, sizeof(m));
	if (ret) {
		/* "--period: ..." reads as a command-line option; a job file
		 * has keys */
		rest = m;
		nlen = strlen(o->name);
		if (!strncmp(m, "--", 2) && !strncmp(m + 2, o->name, nlen) &&
		    !strncmp(m + 2 + nlen, ": ", 2))
			rest = m + 2 + nlen + 2;
		il_setf(msg, len, "%s: %s", o->name, rest);
		return ret;
	}
	s.key_line[row] = line;
	return 0;
}
