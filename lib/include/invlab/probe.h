/* SPDX-License-Identifier: MIT */
/*
 * Probes: a standard measuring program run beside each configuration of a
 * run, its figures read back into the run's result (docs/probes.md).
 *
 * Two probes: cyclictest (rt-tests) and rtla's timerlat (below).
 *
 * cyclictest: one measuring thread per CPU of
 * the scenario, at a real-time priority, started once the scenario's
 * threads are ready and stopped once they are gone, so it covers the
 * measured part.  Its histogram comes back per CPU as struct il_hist
 * (nanoseconds; cyclictest counts whole microseconds, so every value is a
 * multiple of 1000).  A latency at or above cyclictest's histogram limit
 * is an overflow without a value: such samples sit at the thread's exact
 * maximum and are counted in il_hist.overflow, so a percentile that falls
 * among them is not available (hist.h) rather than a guess.
 *
 * timerlat: `rtla timerlat hist` (the kernel's timerlat tracer: a
 * kernel thread per CPU woken by a timer each interval, at the priority
 * asked for), its thread-latency histogram per CPU read back from its
 * text output, in whole microseconds too, samples past the histogram's
 * range ("over:") counted as overflows in the same way.  It needs a
 * kernel built with CONFIG_TIMERLAT_TRACER; without one it is skipped
 * with that reason.
 *
 * The option's syntax, parsed by il_probe_parse:
 *
 *   cyclictest[=KEY=VALUE[,KEY=VALUE...]]
 *   timerlat[=KEY=VALUE[,KEY=VALUE...]]
 *
 *   prio=N          1..99; default: one above the scenario's highest
 *                   real-time priority (99 at most)
 *   policy=fifo|rr  default fifo
 *   interval=TIME   50us..100ms, default 1ms (cyclictest -i)
 *   limit=TIME      histogram range, 1ms..100ms, default 10ms (-h)
 *   cpus=LIST       CPU list ("0,2-3": a value may hold commas); default
 *                   the CPUs the scenario's tasks run on
 *   format=json|text  what is read back: --json, or the -h text
 *                   (timerlat: text only)
 *   tune=on|off     off (default): --default-system, cyclictest leaves
 *                   power management alone; on: it holds
 *                   /dev/cpu_dma_latency at 0 as it does by default
 *                   (timerlat: --dma-latency 0)
 *
 * Library rules: nothing prints or exits; the running side (probe.c)
 * records what went wrong in the result instead of failing the run.
 */
#ifndef INVLAB_PROBE_H
#define INVLAB_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <invlab/cpu.h>
#include <invlab/hist.h>
#include <invlab/scenario.h>

/* measuring threads (CPUs) one probe reads back */
#define IL_PROBE_MAX_CPUS 32

/* the ranges of the keys, for the parser and the help */
#define IL_PROBE_PRIO_MIN	 1
#define IL_PROBE_PRIO_MAX	 99
#define IL_PROBE_INTERVAL_MIN_NS 50000ull
#define IL_PROBE_INTERVAL_MAX_NS 100000000ull
#define IL_PROBE_INTERVAL_DEF_NS 1000000ull
#define IL_PROBE_LIMIT_MIN_NS	 1000000ull
#define IL_PROBE_LIMIT_MAX_NS	 100000000ull
#define IL_PROBE_LIMIT_DEF_NS	 10000000ull

enum il_probe_format {
	IL_PROBE_JSON = 0,
	IL_PROBE_TEXT,
};

enum il_probe_tool {
	IL_PROBE_CYCLICTEST = 0,
	IL_PROBE_TIMERLAT,
};

/* What --probe asked for. */
struct il_probe_opts {
	bool enabled; /* a probe was asked for */
	enum il_probe_tool tool;
	int prio; /* 0: above the scenario */
	int rr;	  /* SCHED_RR instead of SCHED_FIFO */
	uint64_t interval_ns;
	uint64_t limit_ns;
	int ncpus; /* 0: the scenario's CPUs */
	int cpus[IL_PROBE_MAX_CPUS];
	enum il_probe_format format;
	bool tune;
};

enum il_probe_status {
	IL_PROBE_NONE = 0, /* no probe asked for */
	IL_PROBE_RAN,
	IL_PROBE_SKIPPED, /* could not run here (not installed): reason */
	IL_PROBE_FAILED,  /* started but gave nothing usable: reason */
};

struct il_probe_cpu {
	int cpu;	   /* where the thread ran */
	uint64_t cycles;   /* its wakeups */
	uint64_t overflow; /* of them at or above the limit */
	struct il_hist h;
};

/* What the probe saw during one run. */
struct il_probe_result {
	enum il_probe_tool tool;
	enum il_probe_status status;
	char reason[256];  /* skipped or failed: why */
	char command[512]; /* the command line it ran as */
	int prio;
	int rr;
	uint64_t interval_ns, limit_ns;
	enum il_probe_format format;
	bool tune;
	int pid;
	int n; /* threads read back */
	struct il_probe_cpu cpu[IL_PROBE_MAX_CPUS];
	struct il_hist all; /* every CPU's together */
};

/* ---- pure: probe-parse.c ------------------------------------------------ */

/*
 * Parse the option's value into o (defaults first).  0, or -EINVAL with
 * a message naming the key, the value and the allowed range or choices
 * ("prio: 120 is out of range (1 to 99)").
 */
int il_probe_parse(const char *spec, struct il_probe_opts *o, char *err,
		   size_t len);
/*
 * The priority the probe runs at for sc: o->prio when given, else one
 * above the highest real-time priority of sc's tasks (1 when there is
 * none, 99 at most).
 */
int il_probe_prio(const struct il_probe_opts *o, const struct il_scenario *sc);
/*
 * cyclictest's output read back into r->cpu[] and r->all (r->n threads):
 * its --json file, or its -h text (cpus[i] is the CPU of thread i, as
 * -a pins them in turn; ncpus of them).  0, or -EINVAL with what is wrong
 * in err ("thread 1: 12 overflows, but max 80 us is inside the
 * histogram").
 */
int il_probe_read_json(const char *text, struct il_probe_result *r, char *err,
		       size_t len);
int il_probe_read_text(const char *text, const int *cpus, int ncpus,
		       struct il_probe_result *r, char *err, size_t len);
/*
 * `rtla timerlat hist`'s output read back (microseconds): the "Index"
 * line's Thr-NNN columns (IRQ-NNN and Usr-NNN ones are passed over), a
 * line per bucket, then "over:", "count:", "min:", "avg:" and "max:"
 * with a figure per column ("-" where a column counted nothing); the
 * CPU of each thread is the one its column names.  0, or -EINVAL with
 * what is wrong in err.
 */
int il_probe_read_timerlat(const char *text, struct il_probe_result *r,
			   char *err, size_t len);
/* "cyclictest", "timerlat" */
const char *il_probe_name(enum il_probe_tool tool);
/* "0-1,3" for a list of CPUs, in buf */
const char *il_probe_cpulist(const int *cpus, int n, char *buf, size_t len);

/* ---- running it: probe.c ------------------------------------------------ */

/* o's cpus are online: 0, or -EINVAL with the first that is not */
int il_probe_check_cpus(const struct il_probe_opts *o, char *err, size_t len);

struct il_probe;
struct il_json;

/*
 * Start the probe o asks for beside sc, on o's CPUs or, by default, on
 * those of mask (NULL: every online CPU), bounded to about duration_ns
 * (cyclictest -D, with a margin).  *res is allocated (the caller frees it
 * with il_probe_result_delete) and tells what happened; *pp is the
 * running probe, or NULL when it is not running (not asked for: *res
 * stays NULL; skipped or failed: said in *res).  Waits until its threads
 * run, at most 2 s, or until *stop.  0, or -ENOMEM.
 */
int il_probe_start(const struct il_probe_opts *o, const struct il_scenario *sc,
		   const unsigned long *mask, uint64_t duration_ns,
		   const int *stop, struct il_probe **pp,
		   struct il_probe_result **res);
/*
 * Stop it (SIGINT, then SIGKILL after 1 s), reap it, read its output into
 * res and free p.  Nothing when p is NULL.  Its output was never a file
 * with a name (O_TMPFILE), or one removed as soon as it was opened.
 */
void il_probe_stop(struct il_probe *p, struct il_probe_result *res);
void il_probe_result_delete(struct il_probe_result *res);

/* The probe as lines of the text report: one per CPU (p50, p99, max,
 * overflow), or why it did not run.  Nothing for NULL. */
void il_probe_report(FILE *f, const char *pfx, const struct il_probe_result *r);
/*
 * The members of a run's JSON object: "probe" (what ran, how, or why
 * not), and the histograms probe_NAME_ns (every CPU) and
 * probe_NAME_cpuN_ns (NAME cyclictest or timerlat), which the result
 * tools take as any histogram.  Nothing for NULL.
 */
void il_probe_json(struct il_json *j, const struct il_probe_result *r);

#endif
