/* SPDX-License-Identifier: MIT */
/*
 * The one demo driver.  A demo (a "family": pi-classic, pi-chain, kmutex,
 * dl-mbwi, invlab-run) describes its scenarios as job text and its
 * configurations as changes of that job (--set assignments); the driver
 * does everything else, once, the same way for all of them:
 *
 *   - the command line: the common options and the family's table,
 *     --help, --version, usage errors (exit 2), --json - (demo.h);
 *   - every configuration is built before anything runs, so a bad
 *     option costs nothing; --print-job when the family has it;
 *   - what cannot run here exits 77 with the reason: the real-time probe
 *     (il_sched_probe_rt) for the highest priority any task needs, and an
 *     engine refusal (-EPERM, -EBUSY, -EINVAL);
 *   - mlockall, SIGINT/SIGTERM (128+N, partial results written, the JSON
 *     marked interrupted), --repeat and --live;
 *   - one engine result, allocated once on the heap;
 *   - after each run the idle-wakeup calibrations the judge needs
 *     (il_judge_calib_needed), then the verdicts (il_judge_run, or the
 *     family's own judge);
 *   - text, TAP (one test per verdict, the plan at the end) and JSON,
 *     each run with the judge's inputs (report-judge.h: invlab-judge can
 *     judge it again from the file);
 *   - --probe (probe.h): parsed with the options (exit 2), run beside
 *     every run by the engine, its lines and JSON members after the run's;
 *   - the cgroups and kernel-mutex files of a run removed after it;
 *   - the exit status through the one expectation rule (expect.h).
 *
 * driver.c (the run loop) and driver-config.c, driver-judge.c,
 * driver-report.c and driver-export.c implement it; driver-private.h
 * says which does what.  Program-side code: it prints and returns exit
 * codes.
 */
#ifndef INVLAB_DRIVER_H
#define INVLAB_DRIVER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <invlab/engine.h>
#include <invlab/judge.h>
#include <invlab/board.h>
#include <invlab/opt.h>
#include <invlab/probe.h>
#include <invlab/report-judge.h>
#include <invlab/report.h>
#include <invlab/scenario.h>
#include <invlab/sysinfo.h>
#include <invlab/validate.h>

#include "demo.h"

#define DRV_MAX_CONFIGS 16
#define DRV_MAX_SETS	8
#define DRV_MAX_CHECKS	(2 * IL_MAX_TASKS + 2)

/* One configuration: a job and the changes that make it this case. */
struct drv_config {
	const char *name; /* names the run (JSON "configuration") */
	const char *text; /* the job text; NULL: read the file */
	const char *file; /* its file name, for messages and JSON */
	const char *set[DRV_MAX_SETS]; /* --set assignments, in order */
};

/* One run of one configuration, as the hooks see it. */
struct drv_run {
	int config; /* index into drv.configs */
	const char *name;
	int repeat; /* 1.. */
	char tag[16];
	struct il_scenario *sc;
	struct il_engine_result *er;
	struct il_judge_env env;
	unsigned mask; /* validators (il_judge_validators) */
	struct il_judged ck[DRV_MAX_CHECKS];
	int nck;
	/* why the first check is expected as it is ("" : not said) */
	char expect_why[160];
	/* a kmutex run: its judge's inputs, for the result file (NULL) */
	const struct il_judge_kmutex *kmutex;
};

struct drv;

/*
 * The default run: what a configuration runs to when the command line
 * names none of --duration, --samples and --percentile.  tail is the
 * percentile its table shows, taken as a sample target (0.99: 100
 * samples, 0.999: 1000; il_hist_samples_for), bound_ns the longest it
 * may take (opt.h il_opt_run_limit).  A family's table of them ends
 * with a row whose bound_ns is 0.
 */
struct drv_default {
	const char *config; /* a configuration's name; NULL: every one */
	double tail;
	uint64_t bound_ns;
};

/* a family's live row (drv_family.live_rows): a figure and the verdict
 * forming, read while the tasks still record */
#define DRV_LIVE_MAX_ROWS 32
struct drv_live_row {
	char name[48];
	const struct il_hist *h; /* read, never written */
	char verdict[48];	 /* "PASS so far", "FAIL: 3 over", "" */
};

struct drv_family {
	const char *prog, *usage, *summary;
	const struct il_opt *opts; /* the family's table (common comes first) */
	size_t cfg_size; /* its settings, struct il_common_cfg first */
	int max_pos;	 /* positional arguments accepted */
	/* the configurations when setup does not fill them */
	const struct drv_config *configs;
	int nconfigs;
	/*
	 * After the command line: check the options, fill or select
	 * d->configs.  -1 to go on, or the exit status (messages printed).
	 */
	int (*setup)(struct drv *d, int argc, char **argv, int pos);
	/* Why configuration c cannot run here (NULL: it can); it is skipped. */
	const char *(*cannot_run)(struct drv *d, int c, char *why, size_t len);
	/* Just before configuration c runs (pinning the orchestrator...). */
	void (*prepare)(struct drv *d, int c);
	/* Changes from the family's options, after the configuration's. */
	int (*adjust)(struct drv *d, int c, struct il_scenario *sc, char *err,
		      size_t len);
	/* Its own judge (NULL: il_judge_run); 0 or -errno with why. */
	int (*judge)(struct drv *d, struct drv_run *r, char *why, size_t len);
	/* Before the runs (not with --quiet or --tap). */
	void (*header)(struct drv *d, FILE *f);
	/* Text of one run before its verdict lines (NULL: the task table). */
	void (*run_text)(struct drv *d, const struct drv_run *r, FILE *f,
			 const char *pfx);
	/* Text of one run after its verdict lines. */
	void (*run_note)(struct drv *d, const struct drv_run *r, FILE *f,
			 const char *pfx);
	/* After the last run (tables over all runs). */
	void (*end_text)(struct drv *d, FILE *f, const char *pfx);
	/* The JSON: members before "runs", and each run's (NULL: default). */
	void (*json_head)(struct drv *d, struct il_json *j);
	void (*json_run)(struct drv *d, const struct drv_run *r,
			 struct il_json *j);
	/* --live rows (NULL: every task's waits or wakeups). */
	int (*live_rows)(struct drv *d, const struct drv_run *r,
			 const struct il_engine_result *er,
			 struct drv_live_row *rows, int max);
	/*
	 * One check per run, of this task's first lock: the verdict lines
	 * name the configuration alone, and drv_json_subject writes it.
	 */
	const char *subject;
	/* what a configuration is ("protocol"): a JSON member of each run */
	const char *config_label;
	/* the text ends with a table of the subject's waits, run by run */
	bool subject_table;
	/* a configuration the engine refuses is skipped, the others run */
	bool skip_refused;
	/* the text report ends with the count of checks by outcome */
	bool count_line;
	/* the job's duration stands unless adjust changes it (else
	 * --duration, or its default, applies to every configuration) */
	bool job_duration;
	/* engine options every run takes */
	const char *boost_from;
	/* the default run (NULL: --duration's default, no sample target) */
	const struct drv_default *defaults;
};

struct drv {
	const struct drv_family *fam;
	void *cfg;
	struct il_common_cfg *c;
	const struct il_opt *tables[3];
	struct drv_config configs[DRV_MAX_CONFIGS];
	int nconfigs;
	/* run configs[i] when want[i] (all, unless setup chose) */
	bool want[DRV_MAX_CONFIGS];
	struct il_sysinfo si;
	uint64_t tick_ns;
	int partition; /* engine option, from a "partition" flag */
	/* M-BWI negative control (judge.h il_judge_env), set by adjust */
	struct il_sched declared[DRV_MAX_CONFIGS][IL_MAX_TASKS];
	int unreserved[DRV_MAX_CONFIGS];
	struct drv_row *rows; /* every run's end; the subject table's cells */
	int nrows;
	/* no --duration, --samples or --percentile: f->defaults decide */
	bool default_run;
	/* the common options, with the default run's defaults in --help */
	struct il_opt common[IL_OPT_MAX_ROWS];
	char def_duration[160], def_samples[160];
	int wrap; /* verdict lines wrapped at this width (0: not) */
	/* counts, for the exit status and the summary */
	int ntap, nexp, nundec, nunexp, nruns;
	/* --probe (probe.h); a skip is said once on stderr */
	struct il_probe_opts probe;
	bool probe_said;
};

/*
 * Why this build cannot give resources protocol p (NULL: it can): the C
 * library's word (il_engine_protect_missing for protect).  A
 * configuration that needs such a protocol is a SKIP with the reason,
 * the others run.  A test may point it at a fake.
 */
extern const char *(*drv_protocol_missing)(enum il_protocol p);

/* The whole program: returns the exit status. */
int drv_main(const struct drv_family *f, int argc, char **argv);

/*
 * Configuration c as it runs: its job, its changes, then the family's
 * (adjust).  0, or -errno with err (FILE:LINE where the job says it);
 * sc is freed on error.
 */
int drv_build(struct drv *d, int c, struct il_scenario *sc, char *err,
	      size_t len);
/* The int field of a flag of the family's table, by name (0: none). */
int drv_flag(const struct drv *d, const char *name);
/* --list: each configuration's name and description; 0 */
int drv_list(struct drv *d);
/*
 * The configurations named by argv[pos..] (e.g. "basic chain"), in that
 * order; all of them when none is named.  -1 to go on, or 2 after an
 * unknown name (printed, with the names there are: "unknown WHAT 'x'").
 */
int drv_pick(struct drv *d, int argc, char **argv, int pos, const char *what);
/* --cpu: that CPU (-1: the last online), or -1 when it is not online
 * (printed) */
int drv_cpu(const struct drv *d, int64_t v);
/*
 * How configuration c runs here (opt.h il_opt_run_limit): its sample
 * target and time bound, from the command line or the family's default
 * run.
 */
void drv_run_limit(const struct drv *d, int c, struct il_run_limit *out);
/*
 * The default run in words, for the header: "none to 100 samples (p99)
 * within 5.5s, inherit and protect to 1000 (p999) within 6s"; "" when
 * this is not the default run.
 */
void drv_default_plan(const struct drv *d, char *buf, size_t len);
/* What ended a run, for a table cell: "target 4.41s" (its sample
 * target, after that long), "bound 6s", "stopped 1.20s", "hung 2.00s". */
void drv_ended_cell(const struct il_engine_result *er, char *buf, size_t len);
/*
 * Under a table with a column for percentile p: one line on the runs
 * with too few samples for it, and why ("none stopped at its target,
 * 100 waits (1000: about 44.1s)"); nothing when every run has them.
 */
void drv_print_short(const struct drv *d, FILE *f, const char *pfx, double p);
/* The verdict lines of a run (text or TAP). */
void drv_print_checks(struct drv *d, const struct drv_run *r, FILE *f);
/*
 * For a table's verdict cell, which is the first check's: "; fg affinity
 * FAIL" appended to buf for the first later check (a holder's deboost, a
 * task's affinity) not as expected, so that the row does not read PASS
 * over it; nothing when there is none.
 */
void drv_other_checks_cell(const struct drv_run *r, char *buf, size_t len);
/* Each task's figures as a table (deadline tasks: dl_tasks_print). */
void drv_print_tasks(FILE *f, const struct il_scenario *sc,
		     const struct il_engine_result *er, const char *pfx);
/*
 * The members of a one-check run: its check, expected, rounds and how
 * they fell, steal, placement, and the subject's histograms (blocked_ns,
 * release_to_lock_ns, wakeup_ns, calibration_wakeup_ns).
 */
void drv_json_subject(struct drv *d, const struct drv_run *r,
		      struct il_json *j);
/* The subject's task result in r (f->subject), or NULL. */
const struct il_task_result *drv_subject(const struct drv *d,
					 const struct drv_run *r);
/* The default members of a run's JSON object. */
void drv_json_run(struct drv *d, const struct drv_run *r, struct il_json *j);

#endif
