// SPDX-License-Identifier: MIT
/*
 * il_scenario_write: a scenario written back as a job file, the keys
 * as the run used them.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "invlab/cgroup.h"
#include "invlab/kmutex.h"
#include "invlab/scenario.h"
#include "invlab/strbuf.h"
#include "invlab/time.h"
#include "scenario-private.h"

/* ---- writing a job file ------------------------------------------------- */

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Can jobfile.c read s back from "key = s"?  It trims blanks around a
 * value, refuses control characters other than tab, and ends a value at
 * a ';' or '#' that follows a blank; there is no quoting.  Whatever a job
 * file or --set gives passes; only a program, or a default name taken
 * from a file name, can give more.
 */
static bool writable(const char *s)
{
	size_t n = strlen(s);

	if (n && (blank(s[0]) || blank(s[n - 1])))
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return false;
		if ((c == ';' || c == '#') && i && blank(s[i - 1]))
			return false;
	}
	return true;
}

/*
 * A string key so that it reads back the same: a value that starts with
 * ';' or '#' goes right after the '=' ("name =;x"; after a blank it
 * would be a comment), an empty one is "key =".  One that cannot be read
 * back is left out, with a comment saying so: for the name, reading the
 * text under the same file name gives it again.
 */
static void write_string(FILE *f, const char *key, const char *s)
{
	if (!writable(s))
		fprintf(f,
			"; %s: left out, its value cannot be written in a "
			"job file\n",
			key);
	else if (!s[0])
		fprintf(f, "%s =\n", key);
	else
		fprintf(f, "%s =%s%s\n", key,
			s[0] == ';' || s[0] == '#' ? "" : " ", s);
}

/*
 * One key per row of the table.  A key at its "unset" value (a NULL
 * string, or 0 for a number without a default, such as period) is left
 * out: writing "period = 0" on every task would only be noise.
 */
static void write_keys(FILE *f, const struct il_opt *rows, const void *keys,
		       uint32_t skip)
{
	for (const struct il_opt *o = rows; o->name; o++) {
		const char *field = (const char *)keys + o->offset;
		char buf[64];

		if (skip & (1u << (o - rows)))
			continue;
		switch (o->type) {
		case IL_OPT_STRING: {
			const char *s = *(const char *const *)field;

			if (s)
				write_string(f, o->name, s);
			break;
		}
		case IL_OPT_DURATION:
		case IL_OPT_SIZE: {
			uint64_t v = *(const uint64_t *)field;

			if (!v && !o->def)
				break;
			if (o->type == IL_OPT_DURATION)
				il_format_duration_exact(buf, sizeof(buf), v);
			else
				snprintf(buf, sizeof(buf), "%llu",
					 (unsigned long long)v);
			fprintf(f, "%s = %s\n", o->name, buf);
			break;
		}
		case IL_OPT_INT: {
			int64_t v = *(const int64_t *)field;

			if (!v && !o->def)
				break;
			fprintf(f, "%s = %lld\n", o->name, (long long)v);
			break;
		}
		case IL_OPT_CHOICE:
			if (il_opt_choice_name(o, *(const int *)field, buf,
					       sizeof(buf)))
				fprintf(f, "%s = %s\n", o->name, buf);
			break;
		case IL_OPT_FLAG:
			fprintf(f, "%s = %s\n", o->name,
				*(const int *)field ? "yes" : "no");
			break;
		case IL_OPT_LIST:
			/* no job-file key is a list */
			break;
		}
	}
}

void il_scenario_write(const struct il_scenario *sc, FILE *f)
{
	/* the name comes from a program: keep it on its comment line */
	fputs("; ", f);
	for (const char *p = sc->file; *p; p++)
		fputc((unsigned char)*p < 0x20 ? '?' : *p, f);
	fputs(", as run (written by invlab)\n\n[global]\n", f);
	write_keys(f, il_global_keys, &sc->g, 0);
	for (int i = 0; i < sc->nres; i++) {
		/* the keys of the other kind of resource mean nothing here */
		uint32_t skip =
			IL_RES_IS_KMUTEX(sc->res[i].k.type)
				? (1u << RK_PROTOCOL) | (1u << RK_CEILING) |
					  (1u << RK_NODE)
				: (1u << RK_SIZE) | (1u << RK_VIA) |
					  (1u << RK_DIR) | (1u << RK_SOURCE);

		fprintf(f, "\n[resource %s]\n", sc->res[i].name);
		write_keys(f, il_resource_keys, &sc->res[i].k, skip);
	}
	for (int i = 0; i < sc->ntasks; i++) {
		/* "cpu_weight = 0" without a group, "partition = -1" and
		 * "node = -1" are only noise */
		uint32_t skip = sc->tasks[i].k.cgroup ? 0 : 1u << TK_CPU_WEIGHT;

		if (sc->tasks[i].k.partition < 0)
			skip |= 1u << TK_PARTITION;
		if (sc->tasks[i].k.node < 0)
			skip |= 1u << TK_NODE;

		fprintf(f, "\n[task %s]\n", sc->tasks[i].name);
		write_keys(f, il_task_keys, &sc->tasks[i].k, skip);
	}
}
