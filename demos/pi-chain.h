/* SPDX-License-Identifier: MIT */
/*
 * The pi-chain demo's parts (pi-chain.c is the family: its options and
 * hooks): the chain written as a job file from the options
 * (pi-chain-job.c), and its reports (pi-chain-report.c).  The verdicts
 * are the chain validator's (validators/).  Program-side code: it prints.
 */
#ifndef INVLAB_PI_CHAIN_H
#define INVLAB_PI_CHAIN_H

#include "driver.h"

#define CHAIN_MAX_DEPTH 8

struct chain_cfg {
	struct il_common_cfg common; /* must come first: see opt.h */
	int64_t depth;
	int protocol;
	uint64_t cs_ns, work_ns, hog_ns;
	const char *classes;
	int place; /* CHAIN_PLACE_CPUS or CHAIN_PLACE_NODES */
};

/* --place: a member per CPU (across nodes first), or per NUMA node */
enum { CHAIN_PLACE_CPUS, CHAIN_PLACE_NODES };

enum { C_FIFO, C_RR, C_DEADLINE, C_OTHER };
extern const char *const chain_cls_names[4];

/* the members, head first, as the job places them */
struct chain_member {
	char name[IL_NAME_MAX];
	/* cpu -1: not pinned (deadline), or pinned to a node of several
	 * CPUs; node -1: not placed by node (--place cpus) */
	int cls, prio, cpu, node;
};
extern struct chain_member chain_m[CHAIN_MAX_DEPTH];
/* members, and locks handed to another CPU along the chain */
extern int chain_depth, chain_hops;
extern char chain_job[8192];

/* --classes into one class per member, head first; -1 with err */
int chain_parse_classes(const char *list, char *err, size_t len);
/*
 * Priorities rise from the tail by 10; the head 10 more, the hogs 5
 * below it; one member per CPU in spread order, or with --place nodes
 * one per NUMA node in turn.  Then chain_job.  -1 with err when the
 * machine cannot place it so (--place nodes on a single node).
 */
int chain_write_job(const struct chain_cfg *g, char *err, size_t len);

void chain_run_note(struct drv *d, const struct drv_run *r, FILE *f,
		    const char *pfx);
void chain_json_head(struct drv *d, struct il_json *j);
void chain_json_run(struct drv *d, const struct drv_run *r, struct il_json *j);
/* --live: the head's waits and each owner's boost as they come */
int chain_live_rows(struct drv *d, const struct drv_run *r,
		    const struct il_engine_result *er, struct drv_live_row *row,
		    int max);

#endif
