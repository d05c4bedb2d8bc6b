/* SPDX-License-Identifier: MIT */
/*
 * What the driver's files share and driver.h does not publish: the
 * state of one drv_main (struct session) and the steps of a run that
 * one file takes for another.  driver.c runs the loop and calls down
 * into the others; none of them calls back into driver.c, and they call
 * each other one way only (tests/check-layers.py checks it):
 *
 *   driver.c          the run loop: drv_main, each run's steps in order
 *   driver-config.c   the configurations: chosen, built, checked
 *   driver-report.c   text, TAP and JSON of each run and of the end
 *   driver-export.c   the trace for people: timeline and export
 *   driver-judge.c    judging, the exit status, skips
 *
 * Program-side code: it prints and returns exit codes.
 */
#ifndef INVLAB_DRIVER_PRIVATE_H
#define INVLAB_DRIVER_PRIVATE_H

#include <stdbool.h>
#include <stdio.h>

#include <invlab/engine.h>
#include <invlab/hist.h>
#include <invlab/report.h>
#include <invlab/trace-export.h>

#include "driver.h"

struct drv_show;

/* one run: how it ended, and its line of the subject table */
#define DRV_ROW_CELLS 12
struct drv_row {
	char cell[DRV_ROW_CELLS][48];
	/* the run's judged samples (the target's count) and its time: the
	 * pace at which a percentile's samples come; how it ended, and
	 * what the samples were ("waits") (the tables' footnote) */
	uint64_t samples, elapsed_ns, duration_ns;
	enum il_run_end ended;
	char what[16];
};

/* the state of one drv_main */
struct session {
	struct drv *d;
	struct il_engine_result *er; /* the one result, reused */
	struct il_hist *calib;	     /* IL_MAX_TASKS, and the unpinned one */
	struct il_afile af;
	struct il_json j;
	bool json;
	int rc;
	bool stop;    /* a skip or a broken setup ends the runs */
	int nskipped; /* runs of configurations this build cannot run */
	/* --ktap: why nothing could run, for the plan written at the end
	 * (demo_ktap_release); "" while something may */
	char skip_why[512];
	struct drv_show *show; /* --live, --stage; NULL: neither */
	FILE *out;	       /* the runs' reports (drv_show_out) */
	/* the run's worst wait, from its trace (trace-export.h) */
	struct il_timeline tl;
	bool have_tl;
};

/* ---- driver-config.c: the configurations ---- */

/*
 * Build every configuration to be run: a mistake costs nothing.  The
 * highest real-time priority needed goes to *prio.  -1 to go on, or the
 * exit status.
 */
int __drv_build_all(struct drv *d, int *prio);

/* --help's defaults of --duration and --samples for a family with a
 * default run (f->defaults), into d->common */
void __drv_default_help(struct drv *d);
/* a time bound as it was given: "6s", "5.5s" (not "5500ms"), "150ms" */
void __drv_format_bound(char *buf, size_t len, uint64_t ns);

/* ---- driver-judge.c: judging, the exit status, skips ---- */

/* what the kernel refuses: exit 77, or a skipped configuration */
bool __drv_refused(const struct drv_family *f, int ret);
/* the resource of sc whose protocol this build lacks: why, else NULL */
const char *__drv_unsupported(const struct il_scenario *sc, char *why,
			      size_t len);
/* the exit status rc, unless one was noted already */
void __drv_note_rc(struct session *s, int rc);
/* Judge a run and count its outcomes. */
void __drv_judge(struct session *s, struct drv_run *r);
/* Cannot run here, found once the runs began: 77 with the reason. */
int __drv_skip_here(struct session *s, const char *why);
/* A run's TAP (or KTAP) test when it is skipped: "ok N - NAME # SKIP why" */
void __drv_tap_skip(struct drv *d, const struct drv_run *r, const char *why);
/* A run this build cannot make: SKIP with the reason; the others go on. */
void __drv_skip_run(struct session *s, const struct drv_run *r,
		    const char *why);

/* ---- driver-export.c: the trace for people (trace-export.h) ---- */

/* the worst wait into s->tl, for the result file */
void __drv_keep_timeline(struct session *s, const struct drv_run *r);
/* --trace-export DIR: DIR/CONFIGURATION[-N].json, written whole or not */
void __drv_export_trace(struct session *s, const struct drv_run *r);
/* --trace-export's directory, before anything is measured: 0 or 2 */
int __drv_check_export_dir(const struct drv *d);

/* ---- driver-report.c: text, TAP, JSON ---- */

/* a run's report, once it is judged: text or TAP, and its JSON object */
void __drv_report_run(struct session *s, struct drv_run *r);
/* the subject table (f->subject_table), each line prefixed */
void __drv_print_rows(struct drv *d, FILE *f, const char *pfx);
/* the result file's end, committed: the exit status, or 99 */
int __drv_close_json(struct session *s);

#endif
