/* SPDX-License-Identifier: MIT */
/*
 * The kmutex demo's parts (kmutex.c is the family: its options and
 * hooks): the configurations as job files and the machine they run on
 * (kmutex-job.c), and its text and JSON reports (kmutex-report.c).  The
 * verdicts are il_km_judge_run's (validators/kmutex-judge.c).
 * Program-side code: it prints.
 */
#ifndef INVLAB_KMUTEX_DEMO_H
#define INVLAB_KMUTEX_DEMO_H

#include <invlab/kmutex-bounds.h>
#include <invlab/kmutex.h>
#include <invlab/sysinfo.h>

#include "driver.h"

#define KM_PROG "kmutex"

enum km_config {
	C_ALONE = IL_KM_CONFIG_ALONE,
	C_CONTENTION = IL_KM_CONFIG_CONTENTION,
	C_LOAD = IL_KM_CONFIG_LOAD,
	C_LOAD_CONTENTION = IL_KM_CONFIG_LOAD_CONTENTION,
	C_THROTTLED = IL_KM_CONFIG_THROTTLED,
	C_CROSS_CPU = IL_KM_CONFIG_CROSS_CPU,
	C_RT_WAITER = IL_KM_CONFIG_RT_WAITER,
	C_N = IL_KM_CONFIG_N
};
extern const char *const km_config_names[C_N];

struct km_cfg {
	struct il_common_cfg common; /* must come first: see opt.h */
	const char *configs;
	int recipe;
	int via;
	uint64_t size;
	const char *dir;
	const char *source;
	uint64_t period_ns;
	int64_t hogs;
	int64_t bg_weight, hog_weight;
	int64_t cpu, other_cpu;
	int64_t rt_prio, hog_prio;
	int donor_migration; /* --donor-migration: enum il_km_donor */
	int print_job;
};

/* everything a configuration's job needs, resolved once */
struct km_setup {
	const struct km_cfg *cfg;
	int cpu, other; /* other: -1 with one CPU */
	uint64_t tick_ns, slice_ns, quantum_ns;
	char slice_src[48];
	struct il_sysinfo si;
	struct il_fair_server fs;
};
extern struct km_setup km_su;

/* what the current run measured and how it was judged */
struct km_run {
	int fg, bg, k;
	struct il_km_judged out;
	struct il_judge_kmutex rec; /* the judge's inputs, for the file */
};
extern struct km_run km_cur;
/* alone's p99 and max of the current repetition (0: not run) */
extern uint64_t km_alone_p99, km_alone_max;

/* the family's options (kmutex-opts.c) */
extern const struct il_opt km_opts[];
/* --via's name ("syscall") */
void km_via_name(const struct km_cfg *cfg, char *buf, size_t len);
/* bytes per critical section as it runs (0: rename's fixed section) */
uint64_t km_size(const struct km_cfg *cfg);
/* --config into d->want; -EINVAL with the reason */
int km_parse_configs(struct drv *d, const char *list, char *err, size_t len);
/* the machine: CPUs, tick, base slice, fair server, into km_su */
void km_setup_machine(struct drv *d, const struct km_cfg *cfg);
/* configuration c as a job file (what --print-job shows) */
void km_job_text(enum km_config c, char *job, size_t len);
/* why configuration c cannot run here (NULL: it can) */
const char *km_cannot_run(struct drv *d, int c, char *why, size_t len);

/* the waiter's calls in run r */
const struct il_hist *km_fg_calls(const struct drv_run *r);
void km_header(struct drv *d, FILE *f);
void km_run_note(struct drv *d, const struct drv_run *r, FILE *f,
		 const char *pfx);
void km_end_text(struct drv *d, FILE *f, const char *pfx);
void km_json_head(struct drv *d, struct il_json *j);
void km_json_run(struct drv *d, const struct drv_run *r, struct il_json *j);

#endif
