/* SPDX-License-Identifier: MIT */
/*
 * --sweep NAME=V1,V2,...: one parameter, several values, each value run
 * as a configuration of its own (sweep.c).
 *
 * il_sweep_parse reads the argument: the name, then the values, each
 * trimmed, none empty, none given twice, at most a caller's limit.  What
 * a name and a value may be is the program's to say: il_sweep_check_opt
 * holds them to an option table (a numeric option, each value checked as
 * the option itself checks it, two values that are one number refused),
 * invlab-run to its job's keys (--set).
 *
 * A result names each configuration "BASE NAME=VALUE" and gives its run
 * a "sweep" member {key, value, configuration: BASE}, so that the result
 * tools keep the values apart, and with --by NAME make one block of
 * them, a row a value (docs/results.md).
 *
 * The library never prints: errors come back in the caller's buffer,
 * beginning "--sweep ARG: ".
 */
#ifndef INVLAB_SWEEP_H
#define INVLAB_SWEEP_H

#include <stddef.h>

#include <invlab/opt.h>

/* the most values one sweep takes (a program may allow fewer) */
#define IL_SWEEP_MAX_VALUES 64

struct il_sweep {
	const char *arg; /* as given, for messages */
	char *name;	 /* "groups", "M.protocol" (points into text) */
	const char *v[IL_SWEEP_MAX_VALUES]; /* the values, trimmed */
	int n;
	char *text; /* the copy name and v point into */
};

/*
 * Read "NAME=V1,V2,..." into s, at most max values (<=
 * IL_SWEEP_MAX_VALUES).  0, or -EINVAL (-ENOMEM) with err: no '=', no
 * name, no value, an empty value, a value twice, too many values.  s
 * needs il_sweep_free after a success (and may have it after a failure).
 */
int il_sweep_parse(const char *arg, int max, struct il_sweep *s, char *err,
		   size_t errlen);
void il_sweep_free(struct il_sweep *s);

/*
 * The values of s as the option s->name of tables takes them: the row
 * must be an IL_OPT_INT, IL_OPT_SIZE or IL_OPT_DURATION one (a name
 * tables lacks gets the closest that can be swept; one of another type
 * is refused, naming those that can), each value in its syntax and
 * range, and no two values the same number ("04" after "4", "1K" after
 * "1024").  scratch is a settings struct the rows' offsets write into
 * (a copy of the program's). With vals, the number each value gives
 * (the field as il_opt_set writes it). 0, or -EINVAL with err.
 */
int il_sweep_check_opt(const struct il_sweep *s,
		       const struct il_opt *const *tables, void *scratch,
		       long long *vals, char *err, size_t errlen);

/* "groups, fds, loops, size": the rows of tables a sweep can name */
void il_sweep_names(const struct il_opt *const *tables, char *buf, size_t len);

#endif
