/* SPDX-License-Identifier: MIT */
/*
 * The scenario model (docs/theory.md section 2): tasks, resources and task
 * bodies made of phases, as read from an fio-style job file or built by a
 * demo in C.  The engine (engine.h) runs a scenario; this header only
 * describes one.
 *
 * Job file grammar (docs/job-files.md):
 *
 *   ; comment            # comment
 *   [global]             name, duration, validate, ...
 *   [resource NAME]      type, protocol, ceiling, node, size, via, dir,
 *                        source
 *   [task NAME]          class, cpu, activation, period, offset, on, body,
 *                        cgroup, cpu_weight, misbehaves, partition, node
 *
 * Every key of every section is a row of one of the option tables below
 * (il_global_keys, il_resource_keys, il_task_keys), so ranges, units,
 * defaults and help come from the same place as the command line's.
 *
 * A body is a comma-separated list of phases:
 *
 *   run TIME          busy for TIME of CPU time
 *   spin TIME [until EVENT]
 *                     busy for TIME of wall time, or until EVENT is
 *                     signalled in this round
 *   lock RES          request RES (the wait is recorded)
 *   unlock RES
 *   call RES [OP]     one kernel critical section on a kernel-mutex
 *                     resource (kmutex.h): the system call that takes
 *                     that mutex; its latency is recorded as a lock
 *                     request's blocked time and wait sample
 *   sleep TIME        relative sleep
 *   signal EVENT      mark EVENT as happened in this round, waking waiters
 *   wait EVENT        block until EVENT happened in this round
 *
 * Events are declared by use; a `wait` or `until` on an event nothing
 * signals is an error, as are unlocking a resource not held, locking one
 * already held, ending a body with a resource held, and lock orders that
 * can deadlock (a cycle between tasks).  `lock`/`unlock` take pthread
 * mutexes (type mutex) and `call` takes kernel-mutex resources (rename,
 * fpos, pipe, seqfile), never the other way round.
 *
 * A task with `cgroup = NAME` runs in a cpu cgroup the engine creates
 * (cgroup.h) with `cpu_weight` (v2 scale; cpu.shares on v1), and removes
 * after the run; only fair-class tasks may have one.
 */
#ifndef INVLAB_SCENARIO_H
#define INVLAB_SCENARIO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <invlab/cpu.h>
#include <invlab/opt.h>
#include <invlab/sched.h>

#define IL_MAX_TASKS	 16
#define IL_MAX_RESOURCES 16
#define IL_MAX_EVENTS	 16
#define IL_MAX_PHASES	 32
#define IL_NAME_MAX	 32
/* rows of the largest section table; key_line[] is indexed by row */
#define IL_MAX_KEYS 16

/*
 * resource types and protocols, in the order of their CHOICE strings: a
 * pthread mutex, or a kernel struct-mutex recipe (kmutex.h, whose enum
 * il_km_recipe is the type less IL_RES_RENAME)
 */
enum il_res_type {
	IL_RES_MUTEX,
	IL_RES_RENAME,
	IL_RES_FPOS,
	IL_RES_PIPE,
	IL_RES_SEQFILE,
};
#define IL_RES_TYPE_CHOICES "mutex|rename|fpos|pipe|seqfile"
#define IL_RES_IS_KMUTEX(t) ((t) >= IL_RES_RENAME && (t) <= IL_RES_SEQFILE)
enum il_protocol { IL_PROTO_NONE, IL_PROTO_INHERIT, IL_PROTO_PROTECT };
#define IL_PROTOCOL_CHOICES "none|inherit|protect"

/*
 * How a task's jobs are released:
 *   round     once per round, offset after the round's start; a round
 *             starts when every job of the previous one has finished and
 *             as much idle time as the round took has passed (keeps RT
 *             use at or below half of each CPU)
 *   periodic  every period, offset after the start (absolute releases)
 *   oneshot   once, offset after the start
 *   hog       one job for the whole run (the body repeats until the end)
 *   event     once per round, when `on` is signalled
 */
enum il_activation {
	IL_ACT_ROUND,
	IL_ACT_PERIODIC,
	IL_ACT_ONESHOT,
	IL_ACT_HOG,
	IL_ACT_EVENT,
};
#define IL_ACTIVATION_CHOICES "round|periodic|oneshot|hog|event"

enum il_phase_kind {
	IL_PH_RUN,
	IL_PH_SPIN,
	IL_PH_LOCK,
	IL_PH_UNLOCK,
	IL_PH_SLEEP,
	IL_PH_SIGNAL,
	IL_PH_WAIT,
	IL_PH_CALL,
};

struct il_phase {
	enum il_phase_kind kind;
	uint64_t ns; /* run, spin, sleep */
	int res;     /* lock, unlock, call: index into resources */
	int event;   /* signal, wait, spin-until: index into events; -1 */
	int op;	     /* call: enum il_km_op (0: the recipe's own) */
};

/* Raw key values of a section, written by the option tables. */
struct il_resource_keys {
	int type;	 /* IL_RES_TYPE_CHOICES index */
	int protocol;	 /* IL_PROTOCOL_CHOICES index */
	int64_t ceiling; /* protect: 1..99; 0 = highest priority among users */
	int64_t node;	 /* NUMA node for the lock's memory; -1 none */
	/* kernel-mutex recipes (kmutex.h) */
	uint64_t size;	    /* bytes per critical section; 0: default */
	int via;	    /* IL_KM_VIA_CHOICES index */
	const char *dir;    /* parent of the temporary directory */
	const char *source; /* seqfile: the file read */
};

struct il_task_keys {
	const char *class_spec; /* "fifo:30", see il_sched_parse */
	const char *cpu;	/* "1", "0-3", "node:0", "spread", "any" */
	int activation;		/* IL_ACTIVATION_CHOICES index */
	uint64_t period_ns;
	uint64_t offset_ns;
	const char *on;	    /* event that releases an `event` task */
	const char *body;   /* phases, see above */
	const char *cgroup; /* cpu cgroup the engine creates; NULL: none */
	int64_t cpu_weight; /* of that group, 1..10000; 0: default (100) */
	int misbehaves;	    /* overruns on purpose (M-BWI negative control) */
	int64_t partition;  /* deadline tasks under --partition: its CPU; -1 */
	int64_t node;	    /* NUMA node its memory is bound to; -1 none */
};

struct il_global_keys {
	const char *name;
	const char *description;
	uint64_t duration_ns;
	const char *validate; /* comma-separated validator names, or "auto" */
	uint64_t timeout_ns;  /* a wait longer than this ends the run */
	int expect;	      /* expected verdict: enum il_verdict order */
	/* end the run at this many judged samples (engine.h), or at
	 * duration_ns, whichever first; 0: at duration_ns */
	int64_t samples;
};

/* where a task may run, parsed from k.cpu */
enum il_placement {
	IL_PLACE_ANY,	 /* "any": wherever the kernel puts it */
	IL_PLACE_CPUS,	 /* a CPU list: cpus[] */
	IL_PLACE_NODE,	 /* "node:N": the CPUs of node place_node */
	IL_PLACE_SPREAD, /* "spread": the engine picks distinct CPUs/nodes */
};

struct il_resource {
	char name[IL_NAME_MAX];
	struct il_resource_keys k;
	int line; /* of its section header; 0 when built in C */
	/* line of each key (index: row of il_resource_keys); 0: not from
	 * the file, messages then give the section's line */
	int key_line[IL_MAX_KEYS];
};

struct il_task {
	char name[IL_NAME_MAX];
	struct il_task_keys k;
	struct il_sched sched; /* parsed from k.class_spec */
	int on_event;	       /* parsed from k.on; -1 */
	struct il_phase phases[IL_MAX_PHASES];
	int nphases;
	int line;
	int key_line[IL_MAX_KEYS]; /* as in struct il_resource */
	/* parsed from k.cpu */
	enum il_placement place;
	int place_node;
	unsigned long cpus[IL_MAX_CPUS / (8 * sizeof(unsigned long))];
};

struct il_scenario {
	char file[256]; /* for messages: the job file, or the demo's name */
	struct il_global_keys g;
	struct il_task tasks[IL_MAX_TASKS];
	int ntasks;
	struct il_resource res[IL_MAX_RESOURCES];
	int nres;
	char events[IL_MAX_EVENTS][IL_NAME_MAX];
	int nevents;
	/* strings the raw keys point to, owned by the scenario */
	char **strings;
	int nstrings;
	int global_line;		  /* of the [global] header; 0: none */
	int global_key_line[IL_MAX_KEYS]; /* as in struct il_resource */
	/* passed il_scenario_check since the last section was added */
	int checked;
};

extern const struct il_opt il_global_keys[];
extern const struct il_opt il_resource_keys[];
extern const struct il_opt il_task_keys[];

/*
 * An empty scenario with the global defaults applied; name is both the
 * default global name and what messages call the scenario (sc->file).
 */
void il_scenario_init(struct il_scenario *sc, const char *name);
/* Free the owned strings and leave sc zeroed (freeing twice is safe). */
void il_scenario_free(struct il_scenario *sc);
/*
 * A copy of s owned by the scenario (freed by il_scenario_free), for a
 * demo that fills .k directly with strings it formats; NULL on ENOMEM.
 */
const char *il_scenario_strdup(struct il_scenario *sc, const char *s);

/*
 * Read a job file (il_scenario_load) or job-file text (il_scenario_parse;
 * file names the text in messages).  On error returns -EINVAL (or
 * -errno when the file cannot be read) with "FILE:LINE: message" in err;
 * unknown keys get a suggestion.  The result has passed
 * il_scenario_check.  Both initialize sc themselves; on error it is
 * already freed, on success the caller frees it with il_scenario_free.
 * Without a `name` key in [global], the scenario's name is the file's
 * base name without its extension.
 */
int il_scenario_load(const char *path, struct il_scenario *sc, char *err,
		     size_t errlen);
int il_scenario_parse(const char *text, const char *file,
		      struct il_scenario *sc, char *err, size_t errlen);

/*
 * Apply "SECTION.KEY=VALUE" (SECTION is "global" or a task or resource
 * name; a bare "KEY=VALUE" means global), as --set does, then re-check
 * the scenario when it had passed a check before (sc->checked: a loaded
 * job file).  -EINVAL with the reason in err, which starts with
 * "--set ASSIGNMENT: "; the scenario is then left as it was.  A scenario
 * being built in C is not complete yet, so there only the key itself is
 * checked (unknown key, value, range) and the builder calls
 * il_scenario_check once it has added everything.
 */
int il_scenario_set(struct il_scenario *sc, const char *assignment, char *err,
		    size_t errlen);
/* il_scenario_set of an assignment built with printf (at most 511 bytes) */
int il_scenario_setf(struct il_scenario *sc, char *err, size_t len,
		     const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * Add a section built in C (demos) with the table's defaults: returns its
 * index, or -ENOSPC (too many), -EINVAL (not a valid name: 1..31 of
 * A-Z a-z 0-9 _ . -, and not "global"), -EEXIST (a task or a resource
 * has that name already).  Keys are then set with il_scenario_set or
 * directly in .k.
 */
int il_scenario_add_task(struct il_scenario *sc, const char *name);
int il_scenario_add_resource(struct il_scenario *sc, const char *name);

/*
 * Resolve and check everything: class specs, bodies, event names,
 * resource references, lock balance and order (no cycle between tasks),
 * activation keys (periodic needs a period, event needs `on`).  Messages
 * are "FILE:LINE: message" (line of the key, or of the section when the
 * key was not read from the file, or no line when it has none) and name
 * the task or resource.  Can be run again after keys change.
 */
int il_scenario_check(struct il_scenario *sc, char *err, size_t errlen);

/* indices by name, or -1 */
int il_scenario_task(const struct il_scenario *sc, const char *name);
int il_scenario_resource(const struct il_scenario *sc, const char *name);
int il_scenario_event(const struct il_scenario *sc, const char *name);

/* Write the scenario back as a job file (what was run, for the record). */
void il_scenario_write(const struct il_scenario *sc, FILE *f);

#endif
