// SPDX-License-Identifier: MIT
/*
 * The driver's configurations (driver.h, driver-private.h): what the
 * families' setup hooks call to read their options and choose the
 * configurations (drv_flag, drv_cpu, drv_pick, drv_list), each
 * configuration built as it runs (its job, its --set changes, the
 * family's adjust), and all of them built once before anything runs, so
 * a bad option costs nothing: --print-job writes them, and the highest
 * real-time priority any task needs is what the real-time probe asks
 * for.  It calls none of the other driver*.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <invlab/cpu.h>
#include <invlab/sched.h>
#include <invlab/strbuf.h>

#include "driver-private.h"

int drv_flag(const struct drv *d, const char *name)
{
	const struct il_opt *o = il_opt_find(d->tables, name);

	if (!o || o->type != IL_OPT_FLAG)
		return 0;
	return *(const int *)((const char *)d->cfg + o->offset);
}

int drv_cpu(const struct drv *d, int64_t v)
{
	int cpu = v < 0 ? il_cpu_last_online() : (int)v;

	if (cpu >= 0 && il_cpu_is_online(cpu))
		return cpu;
	fprintf(stderr,
		"%s: --cpu: CPU %" PRId64
		" is not online (see /sys/devices/system/cpu/online)\n",
		d->fam->prog, v);
	return -1;
}

int drv_list(struct drv *d)
{
	struct il_scenario sc;
	char err[512];

	for (int c = 0; c < d->nconfigs; c++) {
		if (drv_build(d, c, &sc, err, sizeof(err)))
			continue;
		printf("%-13s %s\n", d->configs[c].name,
		       sc.g.description ? sc.g.description : "");
		il_scenario_free(&sc);
	}
	return 0;
}

int drv_pick(struct drv *d, int argc, char **argv, int pos, const char *what)
{
	struct drv_config all[DRV_MAX_CONFIGS];
	char names[256] = "";
	int n = d->nconfigs;

	memcpy(all, d->configs, sizeof(all));
	for (int c = 0; c < n; c++)
		il_appendf(names, sizeof(names), "%s%s", c ? ", " : "",
			   all[c].name);
	if (pos < argc)
		d->nconfigs = 0;
	for (int i = pos; i < argc && d->nconfigs < DRV_MAX_CONFIGS; i++) {
		int c = 0;

		while (c < n && strcmp(argv[i], all[c].name))
			c++;
		if (c == n) {
			fprintf(stderr,
				"%s: unknown %s '%s' (%s)\nTry '%s --help'.\n",
				d->fam->prog, what, argv[i], names,
				d->fam->prog);
			return 2;
		}
		d->configs[d->nconfigs++] = all[c];
	}
	for (int c = 0; c < d->nconfigs; c++)
		d->want[c] = true;
	return -1;
}

int drv_build(struct drv *d, int c, struct il_scenario *sc, char *err,
	      size_t len)
{
	const struct drv_config *cf = &d->configs[c];
	int ret;

	ret = cf->text ? il_scenario_parse(cf->text, cf->file, sc, err, len)
		       : il_scenario_load(cf->file, sc, err, len);
	for (int i = 0; !ret && i < DRV_MAX_SETS && cf->set[i]; i++)
		ret = il_scenario_set(sc, cf->set[i], err, len);
	d->unreserved[c] = -1;
	/* --duration, unless the job's own counts (then adjust decides) */
	if (!ret && !d->fam->job_duration)
		sc->g.duration_ns = d->c->duration_ns;
	/* --samples, --percentile: over the job's `samples` */
	if (!ret && il_opt_samples(d->c))
		sc->g.samples = (int64_t)il_opt_samples(d->c);
	if (!ret && d->fam->adjust)
		ret = d->fam->adjust(d, c, sc, err, len);
	if (!ret)
		ret = il_scenario_check(sc, err, len);
	if (ret)
		il_scenario_free(sc);
	return ret < 0 ? ret : ret ? -EINVAL : 0;
}

/* the real-time priority the scenario needs (1 for deadline), or 0 */
static int rt_prio(const struct il_scenario *sc)
{
	int p = 0;

	for (int i = 0; i < sc->ntasks; i++) {
		const struct il_sched *s = &sc->tasks[i].sched;

		if ((s->policy == IL_SCHED_FIFO || s->policy == IL_SCHED_RR) &&
		    s->prio > p)
			p = s->prio;
		else if (s->policy == IL_SCHED_DEADLINE && !p)
			p = 1;
	}
	return p;
}

/* --print-job: each configuration's job as it would run (the writer
 * names it in its first line) */
static void print_job(struct drv *d, int c, struct il_scenario *sc)
{
	static bool again;

	if (again)
		putchar('\n');
	again = true;
	il_scenario_write(sc, stdout);
}

/*
 * Build every configuration to be run: a mistake costs nothing.  The
 * highest real-time priority needed goes to *prio.  -1 to go on, or the
 * exit status.
 */
int __drv_build_all(struct drv *d, int *prio)
{
	bool pj = drv_flag(d, "print-job");
	char err[512];

	*prio = 0;
	for (int c = 0; c < d->nconfigs; c++) {
		struct il_scenario sc;
		unsigned mask;
		int p;

		if (!d->want[c])
			continue;
		if (drv_build(d, c, &sc, err, sizeof(err))) {
			fprintf(stderr, "%s: %s\n", d->fam->prog, err);
			return 2;
		}
		if (il_judge_validators(&sc, &mask, err, sizeof(err))) {
			fprintf(stderr, "%s: %s\n", d->fam->prog, err);
			il_scenario_free(&sc);
			return 2;
		}
		p = rt_prio(&sc);
		*prio = p > *prio ? p : *prio;
		if (pj)
			print_job(d, c, &sc);
		il_scenario_free(&sc);
	}
	return pj ? 0 : -1;
}
