// SPDX-License-Identifier: MIT
/*
 * --sweep NAME=V1,V2,... (sweep.h): the argument read into a name and
 * its values, and the values held to an option table the way the option
 * itself holds them, so that a sweep can ask for nothing the option
 * could not be given.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "invlab/ini.h"
#include "invlab/strbuf.h"
#include "invlab/sweep.h"

void il_sweep_free(struct il_sweep *s)
{
	if (!s)
		return;
	free(s->text);
	memset(s, 0, sizeof(*s));
}

int il_sweep_parse(const char *arg, int max, struct il_sweep *s, char *err,
		   size_t errlen)
{
	char *eq, *p;

	if (err && errlen)
		err[0] = '\0';
	memset(s, 0, sizeof(*s));
	s->arg = arg;
	if (max < 1 || max > IL_SWEEP_MAX_VALUES)
		max = IL_SWEEP_MAX_VALUES;
	if (!arg) {
		il_setf(err, errlen, "--sweep: nothing to sweep");
		return -EINVAL;
	}
	s->text = strdup(arg);
	if (!s->text) {
		il_setf(err, errlen, "--sweep %s: out of memory", arg);
		return -ENOMEM;
	}
	eq = strchr(s->text, '=');
	if (!eq) {
		il_setf(err, errlen,
			"--sweep %s: expected NAME=VALUE,VALUE,... (a name, "
			"then its values separated by commas)",
			arg);
		return -EINVAL;
	}
	*eq = '\0';
	s->name = il_ini_trim(s->text);
	if (!s->name[0]) {
		il_setf(err, errlen, "--sweep %s: no name before '='", arg);
		return -EINVAL;
	}
	p = eq + 1;
	for (;;) {
		char *comma = strchr(p, ',');
		const char *v;

		if (comma)
			*comma = '\0';
		v = il_ini_trim(p);
		if (!v[0]) {
			il_setf(err, errlen,
				"--sweep %s: value %d is empty (the values are "
				"separated by single commas)",
				arg, s->n + 1);
			return -EINVAL;
		}
		for (int i = 0; i < s->n; i++)
			if (!strcmp(s->v[i], v)) {
				il_setf(err, errlen,
					"--sweep %s: '%s' is given twice", arg,
					v);
				return -EINVAL;
			}
		if (s->n == max) {
			il_setf(err, errlen,
				"--sweep %s: more than %d values (at most %d "
				"configurations a run)",
				arg, max, max);
			return -EINVAL;
		}
		s->v[s->n++] = v;
		if (!comma)
			break;
		p = comma + 1;
	}
	return 0;
}

static bool sweepable(const struct il_opt *o)
{
	return o->type == IL_OPT_INT || o->type == IL_OPT_SIZE ||
	       o->type == IL_OPT_DURATION;
}

void il_sweep_names(const struct il_opt *const *tables, char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	for (int t = 0; tables && tables[t]; t++)
		for (const struct il_opt *o = tables[t]; o->name; o++)
			if (sweepable(o) && !o->unsupported)
				il_appendf(buf, len, "%s%s", buf[0] ? ", " : "",
					   o->name);
}

/* the closest name among the rows a sweep can name, or NULL */
static const char *suggest(const struct il_opt *const *tables, const char *name)
{
	const char *cands[IL_OPT_MAX_ROWS];
	size_t n = 0;

	for (int t = 0; tables && tables[t]; t++)
		for (const struct il_opt *o = tables[t];
		     o->name && n < IL_OPT_MAX_ROWS; o++)
			if (sweepable(o))
				cands[n++] = o->name;
	return il_suggest(name, cands, n);
}

int il_sweep_check_opt(const struct il_sweep *s,
		       const struct il_opt *const *tables, void *scratch,
		       long long *vals, char *err, size_t errlen)
{
	const struct il_opt *o = il_opt_find(tables, s->name);
	long long got[IL_SWEEP_MAX_VALUES];
	char names[256], m[512];

	if (err && errlen)
		err[0] = '\0';
	il_sweep_names(tables, names, sizeof(names));
	if (!o || !sweepable(o)) {
		const char *sug = o ? NULL : suggest(tables, s->name);

		if (sug)
			il_setf(err, errlen,
				"--sweep %s: no option '%s' to sweep; did you "
				"mean '%s'?",
				s->arg, s->name, sug);
		else
			il_setf(err, errlen,
				"--sweep %s: '%s' cannot be swept (these can: "
				"%s)",
				s->arg, s->name, names);
		return -EINVAL;
	}
	for (int i = 0; i < s->n; i++) {
		int64_t v;

		/* the option's own parser and range, in its own words */
		if (il_opt_set(tables, scratch, s->name, s->v[i], m,
			       sizeof(m))) {
			il_setf(err, errlen, "--sweep %s: %s", s->arg, m);
			return -EINVAL;
		}
		memcpy(&v, (char *)scratch + o->offset, sizeof(v));
		got[i] = (long long)v;
		for (int k = 0; k < i; k++)
			if (got[k] == got[i]) {
				il_setf(err, errlen,
					"--sweep %s: '%s' is '%s' again (a "
					"value given twice)",
					s->arg, s->v[i], s->v[k]);
				return -EINVAL;
			}
		if (vals)
			vals[i] = got[i];
	}
	return 0;
}
