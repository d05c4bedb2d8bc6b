// SPDX-License-Identifier: MIT
/*
 * il_scenario_set: one --set SECTION.KEY=VALUE applied to a scenario,
 * through the same key tables as a job file, and checked again.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "invlab/cgroup.h"
#include "invlab/ini.h"
#include "invlab/kmutex.h"
#include "invlab/scenario.h"
#include "invlab/strbuf.h"
#include "invlab/time.h"
#include "scenario-private.h"

/* ---- --set -------------------------------------------------------------- */

/* A value a job file would cut at a comment: " ;..." or " #..." */
static bool has_comment(const char *s)
{
	for (const char *p = s; *p; p++)
		if ((*p == ';' || *p == '#') && p > s &&
		    (p[-1] == ' ' || p[-1] == '\t'))
			return true;
	return false;
}

/* "did you mean" among the task and resource names, or NULL */
static const char *suggest_section(const struct il_scenario *sc,
				   const char *name)
{
	struct il_opt rows[IL_MAX_TASKS + IL_MAX_RESOURCES + 2];
	const struct il_opt *const tables[] = { rows, NULL };
	int n = 0;

	memset(rows, 0, sizeof(rows));
	rows[n++].name = "global";
	for (int i = 0; i < sc->ntasks; i++)
		rows[n++].name = sc->tasks[i].name;
	for (int i = 0; i < sc->nres; i++)
		rows[n++].name = sc->res[i].name;
	return il_opt_suggest(tables, name);
}

int il_scenario_set(struct il_scenario *sc, const char *assignment, char *err,
		    size_t errlen)
{
	union {
		struct il_global_keys g;
		struct il_resource_keys r;
		struct il_task_keys t;
	} saved;
	int saved_lines[IL_MAX_KEYS];
	enum il_section kind = IL_SEC_GLOBAL;
	struct section s;
	char *a, *eq, *lhs, *key, *value, *dot, m[768];
	int idx = 0, ret;

	if (err && errlen)
		err[0] = '\0';
	if (!sc || !assignment) {
		il_setf(err, errlen, "--set: nothing to set");
		return -EINVAL;
	}
	a = strdup(assignment);
	if (!a) {
		il_setf(err, errlen, "--set %s: out of memory", assignment);
		return -ENOMEM;
	}
	eq = strchr(a, '=');
	if (!eq) {
		il_setf(err, errlen,
			"--set %s: expected SECTION.KEY=VALUE (or KEY=VALUE "
			"for "
			"[global])",
			assignment);
		ret = -EINVAL;
		goto out;
	}
	*eq = '\0';
	lhs = il_ini_trim(a);
	value = il_ini_trim(eq + 1);
	key = lhs;
	dot = strrchr(lhs, '.');
	if (dot) {
		*dot = '\0';
		key = dot + 1;
		if (strcmp(lhs, "global")) {
			idx = il_scenario_task(sc, lhs);
			kind = IL_SEC_TASK;
			if (idx < 0) {
				idx = il_scenario_resource(sc, lhs);
				kind = IL_SEC_RESOURCE;
			}
			if (idx < 0) {
				const char *sug = suggest_section(sc, lhs);

				if (sug)
					il_setf(err, errlen,
						"--set %s: no task or resource "
						"'%s'; did you mean '%s'?",
						assignment, lhs, sug);
				else
					il_setf(err, errlen,
						"--set %s: no task or resource "
						"'%s'",
						assignment, lhs);
				ret = -EINVAL;
				goto out;
			}
		}
	}
	if (has_comment(value)) {
		il_setf(err, errlen,
			"--set %s: ' ;' and ' #' start a comment in a job "
			"file, "
			"so the value could not be written back",
			assignment);
		ret = -EINVAL;
		goto out;
	}
	__il_get_section(sc, kind, idx, &s);
	memcpy(&saved, s.keys, s.keys_size);
	memcpy(saved_lines, s.key_line, sizeof(saved_lines));
	ret = __il_scenario_key(sc, kind, idx, key, value, 0, m, sizeof(m));
	if (ret) {
		il_setf(err, errlen, "--set %s: %s", assignment, m);
		goto out;
	}
	/* a scenario still being built in C is checked once complete */
	if (!sc->checked)
		goto out;
	ret = il_scenario_check(sc, m, sizeof(m));
	if (ret) {
		/* leave the scenario as it was, derived fields included */
		memcpy(s.keys, &saved, s.keys_size);
		memcpy(s.key_line, saved_lines, sizeof(saved_lines));
		il_scenario_check(sc, NULL, 0);
		il_setf(err, errlen, "--set %s: %s", assignment, m);
	}
out:
	free(a);
	return ret;
}

int il_scenario_setf(struct il_scenario *sc, char *err, size_t len,
		     const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return il_scenario_set(sc, buf, err, len);
}
