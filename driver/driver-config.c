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
#include <invlab/hist.h>
#include <invlab/sched.h>
#include <invlab/strbuf.h>
#include <invlab/time.h>

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

/* the default row of configuration name, or NULL */
static const struct drv_default *default_of(const struct drv_family *f,
					    const char *name)
{
	const struct drv_default *any = NULL;

	for (const struct drv_default *r = f->defaults; r && r->bound_ns; r++)
		if (!r->config && !any)
			any = r;
		else if (r->config && name && !strcmp(r->config, name))
			return r;
	return any;
}

void drv_run_limit(const struct drv *d, int c, struct il_run_limit *out)
{
	const struct drv_default *r = default_of(
		d->fam, c >= 0 && c < d->nconfigs ? d->configs[c].name : NULL);

	il_opt_run_limit(d->c, r ? r->tail : 0, r ? r->bound_ns : 0, out);
}

void __drv_format_bound(char *buf, size_t len, uint64_t ns)
{
	if (ns % IL_NSEC_PER_SEC && !(ns % (IL_NSEC_PER_SEC / 10)))
		snprintf(buf, len, "%.1fs", (double)ns / IL_NSEC_PER_SEC);
	else
		il_format_duration_exact(buf, len, ns);
}

/* "p999" of 0.999 */
static void tail_name(char *buf, size_t len, double tail)
{
	char v[32];

	/* the digits after "0.", two at least: p50, p99, p999 */
	snprintf(v, sizeof(v), "%.6g", tail);
	if (strncmp(v, "0.", 2))
		snprintf(buf, len, "p%.20s", v);
	else
		snprintf(buf, len, "p%.20s%s", v + 2, v[3] ? "" : "0");
}

/* what the default rows say, grouped: 0 the target, 1 the bound, 2
 * both ("to 100 samples (p99) within 5.5s") */
static void value(char *buf, size_t len, const struct drv_default *r, int which)
{
	char p[32], b[24];

	tail_name(p, sizeof(p), r->tail);
	__drv_format_bound(b, sizeof(b), r->bound_ns);
	if (which == 1)
		snprintf(buf, len, "%s", b);
	else if (r->tail <= 0)
		snprintf(buf, len, which ? "for %s" : "0", b);
	else if (which == 0)
		snprintf(buf, len, "%" PRIu64 " (%s)",
			 il_hist_samples_for(r->tail), p);
	else
		snprintf(buf, len, "to %" PRIu64 " samples (%s) within %s",
			 il_hist_samples_for(r->tail), p, b);
}

/* whether d runs the configuration a default row names (NULL d: say
 * every row, as --help does) */
static bool row_runs(const struct drv *d, const struct drv_default *r)
{
	if (!d || !r->config)
		return true;
	for (int c = 0; c < d->nconfigs; c++)
		if (!strcmp(d->configs[c].name, r->config))
			return d->want[c];
	return false;
}

/*
 * The default rows grouped by what they give (which, as value()): "none
 * 100 (p99), inherit and protect 1000 (p999)"; a row for every
 * configuration reads "each".  With d, only the rows of what it runs.
 */
static void default_list(const struct drv_family *f, const struct drv *d,
			 int which, char *buf, size_t len)
{
	const struct drv_default *t[DRV_MAX_CONFIGS];
	bool done[DRV_MAX_CONFIGS] = { false };
	int nt = 0, n = 0;

	buf[0] = '\0';
	for (const struct drv_default *r = f->defaults;
	     r && r->bound_ns && nt < DRV_MAX_CONFIGS; r++)
		if (row_runs(d, r))
			t[nt++] = r;
	for (int i = 0; i < nt; i++) {
		char v[96], w[96];
		int same[DRV_MAX_CONFIGS], k = 0;

		if (done[i])
			continue;
		value(v, sizeof(v), t[i], which);
		for (int j = i; j < nt; j++) {
			value(w, sizeof(w), t[j], which);
			if (!done[j] && !strcmp(v, w)) {
				done[j] = true;
				same[k++] = j;
			}
		}
		il_appendf(buf, len, "%s", n++ ? ", " : "");
		if (k == nt && !t[same[k - 1]]->config) {
			/* every row, one of them for every configuration */
			il_appendf(buf, len, "%s each", v);
			continue;
		}
		for (int m = 0; m < k; m++)
			il_appendf(buf, len, "%s%s",
				   !m	       ? ""
				   : m < k - 1 ? ", "
					       : " and ",
				   t[same[m]]->config ? t[same[m]]->config
						      : "the others");
		il_appendf(buf, len, " %s", v);
	}
}

void __drv_default_help(struct drv *d)
{
	int n = 0;

	for (const struct il_opt *o = il_common_opts;
	     o->name && n < IL_OPT_MAX_ROWS - 1; o++)
		d->common[n++] = *o;
	d->common[n] = (struct il_opt){ .name = NULL };
	if (!d->fam->defaults || !d->fam->defaults[0].bound_ns)
		return;
	default_list(d->fam, NULL, 1, d->def_duration, sizeof(d->def_duration));
	il_appendf(d->def_duration, sizeof(d->def_duration),
		   ", or sooner at the sample target; 60s with --samples "
		   "or --percentile");
	default_list(d->fam, NULL, 0, d->def_samples, sizeof(d->def_samples));
	il_appendf(d->def_samples, sizeof(d->def_samples),
		   "; 0 with -d or --percentile");
	for (int i = 0; i < n; i++)
		if (!strcmp(d->common[i].name, "duration"))
			d->common[i].def_help = d->def_duration;
		else if (!strcmp(d->common[i].name, "samples"))
			d->common[i].def_help = d->def_samples;
}

void drv_default_plan(const struct drv *d, char *buf, size_t len)
{
	buf[0] = '\0';
	if (d->default_run)
		default_list(d->fam, d, 2, buf, len);
}

int drv_build(struct drv *d, int c, struct il_scenario *sc, char *err,
	      size_t len)
{
	const struct drv_config *cf = &d->configs[c];
	struct il_run_limit lim;
	int ret;

	ret = cf->text ? il_scenario_parse(cf->text, cf->file, sc, err, len)
		       : il_scenario_load(cf->file, sc, err, len);
	for (int i = 0; !ret && i < DRV_MAX_SETS && cf->set[i]; i++)
		ret = il_scenario_set(sc, cf->set[i], err, len);
	d->unreserved[c] = -1;
	/* --duration (a job's own counts unless given: then adjust decides),
	 * or the family's default run for this configuration */
	drv_run_limit(d, c, &lim);
	if (!ret && (!d->fam->job_duration || lim.by_default))
		sc->g.duration_ns = lim.duration_ns;
	/* the sample target, over the job's `samples` */
	if (!ret && lim.samples)
		sc->g.samples = (int64_t)lim.samples;
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
