/* SPDX-License-Identifier: MIT */
/*
 * Shared by scenario.c (the model), jobfile.c (reading job-file text),
 * scenario-check.c, scenario-set.c and scenario-write.c: applying one key
 * of one section through the option tables, the rule for names, and the
 * rows of the tables.  Not part of the public API.
 */
#ifndef INVLAB_SCENARIO_PRIVATE_H
#define INVLAB_SCENARIO_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>

#include <invlab/scenario.h>

enum il_section {
	IL_SEC_GLOBAL,
	IL_SEC_RESOURCE,
	IL_SEC_TASK,
};

/* 1..IL_NAME_MAX-1 characters of A-Z a-z 0-9 _ . - */
bool __il_name_valid(const char *s);

/*
 * Apply key = value to section idx of kind (idx is ignored for global).
 * line > 0: read from a file at that line, a second occurrence of the key
 * in the section is refused; line 0: from --set or C, replaces the value.
 * String values are copied into the scenario.  On error returns -EINVAL
 * (or -ENOMEM) with a message without the FILE:LINE prefix in msg:
 * "unknown key 'clas' in task 'high'; did you mean 'class'?",
 * "period: '2xs' is not a duration (...)".
 */
int __il_scenario_key(struct il_scenario *sc, enum il_section kind, int idx,
		      const char *key, const char *value, int line, char *msg,
		      size_t len);

#define US  ((int64_t)IL_NSEC_PER_USEC)
#define MS  ((int64_t)IL_NSEC_PER_MSEC)
#define SEC ((int64_t)IL_NSEC_PER_SEC)

enum {
	GK_NAME,
	GK_DESCRIPTION,
	GK_DURATION,
	GK_VALIDATE,
	GK_TIMEOUT,
	GK_EXPECT,
	GK_SAMPLES,
	GK_N
};
enum {
	RK_TYPE,
	RK_PROTOCOL,
	RK_CEILING,
	RK_NODE,
	RK_SIZE,
	RK_VIA,
	RK_DIR,
	RK_SOURCE,
	RK_N
};
enum {
	TK_CLASS,
	TK_CPU,
	TK_ACTIVATION,
	TK_PERIOD,
	TK_OFFSET,
	TK_ON,
	TK_BODY,
	TK_CGROUP,
	TK_CPU_WEIGHT,
	TK_MISBEHAVES,
	TK_PARTITION,
	TK_NODE,
	TK_N
};

/* One section seen through its table. */
struct section {
	const struct il_opt *const *tables;
	const struct il_opt *rows;
	void *keys;
	size_t keys_size;
	int *key_line;
	char what[64]; /* "task 'high'", for messages */
};

/* printf into buf, which may be NULL or of length 0 */
int __il_get_section(struct il_scenario *sc, enum il_section kind, int idx,
		     struct section *s);

#endif
