/* SPDX-License-Identifier: MIT */
/*
 * The pi-classic demo's parts (pi-classic.c is the family: its options
 * and hooks): its reports (pi-classic-report.c).  The verdicts are the pi
 * validator's (validators/).  Program-side code: it prints.
 */
#ifndef INVLAB_PI_CLASSIC_H
#define INVLAB_PI_CLASSIC_H

#include "driver.h"

struct pic_cfg {
	struct il_common_cfg common; /* must come first: see opt.h */
	int protocol;
	int64_t cpu;
	uint64_t cs_ns, hog_ns;
	int64_t prio_low, prio_medium, prio_high;
	int ignore_protocol;
};

/* the one CPU of the three tasks */
extern int pic_cpu;

void pic_run_note(struct drv *d, const struct drv_run *r, FILE *f,
		  const char *pfx);
void pic_json_head(struct drv *d, struct il_json *j);
void pic_json_run(struct drv *d, const struct drv_run *r, struct il_json *j);
/* --live: high's waits and the verdict forming (no noise allowance yet) */
int pic_live_rows(struct drv *d, const struct drv_run *r,
		  const struct il_engine_result *er, struct drv_live_row *row,
		  int max);

#endif
