/* SPDX-License-Identifier: MIT */
/*
 * Shared by scenario.c (the model) and jobfile.c (reading job-file text):
 * applying one key of one section through the option tables, and the
 * rule for names.  Not part of the public API.
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

#endif
