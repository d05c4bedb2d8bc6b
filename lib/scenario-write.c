// SPDX-License-Identifier: MIT
/*
 * il_scenario_write: a scenario written back as a job file, the keys
 * as the run used them.
 */
#include <stdint.h>
#include <stdio.h>

#include "invlab/cgroup.h"
#include "invlab/kmutex.h"
#include "invlab/scenario.h"
#include "invlab/strbuf.h"
#include "invlab/time.h"
#include "scenario-private.h"

/* ---- writing a job file ------------------------------------------------- */

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
				fprintf(f, "%s = %s\n", o->name, s);
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
		/* "cpu_weight = 0" without a group and "partition = -1"
		 * are only noise */
		uint32_t skip = sc->tasks[i].k.cgroup ? 0 : 1u << TK_CPU_WEIGHT;

		if (sc->tasks[i].k.partition < 0)
			skip |= 1u << TK_PARTITION;

		fprintf(f, "\n[task %s]\n", sc->tasks[i].name);
		write_keys(f, il_task_keys, &sc->tasks[i].k, skip);
	}
}
