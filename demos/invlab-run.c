// SPDX-License-Identifier: MIT
/*
 * invlab-run: run any job file and judge it.
 *
 *   sudo invlab-run demos/jobs/pi-classic.job
 *   sudo invlab-run demos/jobs/pi-classic.job --set M.protocol=none \
 *        --set expect=FAIL --json out.json
 *   sudo invlab-run demos/jobs/pi-classic.job \
 *        --sweep M.protocol=none,inherit,protect --json sweep.json
 *
 * The job file describes tasks, resources and bodies (docs/job-files.md);
 * the engine runs it; the validators the job names in `validate` judge
 * it ("auto" picks them from the scenario's shape):
 *
 *   pi     every real-time task that takes locks is judged against the
 *          one-CPU priority-inheritance bound over the critical sections
 *          of the lower-priority tasks that use its locks (the immediate
 *          ceiling bound when all its locks are `protect`);
 *   chain  the highest-priority task that takes a lock is the head of a
 *          chain of owners; judged against the transitive inheritance
 *          bound, or the remote-blocking fixed point when a task above
 *          the head shares an owner's CPU;
 *   mbwi   the M-BWI guarantees of SCHED_DEADLINE tasks (docs/m-bwi.md);
 *   none   measure only.
 *
 * Everything else (options, output, the exit status) is the demo driver's
 * (driver.h): the demos run their own job files the same way.
 *
 * Exit: 0 when every verdict is the job's `expect` (PASS by default; an
 * UNDECIDED where PASS is expected counts, reported as undecided), 1
 * otherwise, 2 for a bad job file or usage (FILE:LINE: message), 77 when
 * it cannot run here (reason printed), 99 broken setup, 128+N interrupted.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/ini.h>
#include <invlab/strbuf.h>
#include <invlab/sweep.h>
#include <invlab/time.h>

#include "driver.h"

struct cfg {
	struct il_common_cfg common; /* must come first: see opt.h */
	struct il_strlist set;
	struct il_strlist sweep;
	int print_job;
	int partition;
};

/*
 * --sweep KEY=V1,V2,...: configuration c is the job with KEY=v[c] after
 * the --set changes, named "JOB KEY=V" (KEY without "global.").
 */
static struct il_sweep sweep;
static const char *sweep_key, *sweep_base;

#define O(f) offsetof(struct cfg, f)
static const struct il_opt run_opts[] = {
	{
		.name = "set",
		.short_name = 's',
		.type = IL_OPT_LIST,
		.offset = O(set),
		.metavar = "NAME.KEY=VALUE",
		.help = "change one key of the job before it runs (NAME is "
			"global, a task or a resource; may be repeated)",
	},
	{
		.name = "sweep",
		.type = IL_OPT_LIST,
		.offset = O(sweep),
		.metavar = "NAME.KEY=V1,V2,...",
		.help = "run the job once for each value of one key --set "
			"could change (at most 16 values), each a "
			"configuration of its own named as JOB KEY=VALUE, so "
			"that invlab-compare --by KEY makes a row of each; "
			"--set applies to all of them",
	},
	{
		.name = "print-job",
		.type = IL_OPT_FLAG,
		.offset = O(print_job),
		.help = "print the job as it will run (after --set and "
			"--duration) and exit",
	},
	{
		.name = "partition",
		.type = IL_OPT_FLAG,
		.offset = O(partition),
		.help = "run SCHED_DEADLINE tasks partitioned: each in a "
			"cpuset "
			"partition of one CPU (its `partition` key, or the "
			"least loaded), created for the run and removed after "
			"it (docs/m-bwi.md)",
	},
	{ .name = NULL },
};
#undef O

/* the job as the --set changes (and --duration) leave it: every
 * configuration's, before the sweep's value */
static int build_base(const struct cfg *cfg, const char *file,
		      struct il_scenario *sc, char *err, size_t len)
{
	int ret = il_scenario_load(file, sc, err, len);

	for (int i = 0; !ret && i < cfg->set.n; i++)
		ret = il_scenario_set(sc, cfg->set.v[i], err, len);
	if (!ret && il_opt_was_set(cfg, "duration"))
		sc->g.duration_ns = cfg->common.duration_ns;
	if (ret)
		il_scenario_free(sc);
	return ret;
}

/* "M.protocol" of "M.protocol=none", "duration" of "global.duration" */
static void key_of(const char *assignment, char *buf, size_t len)
{
	const char *eq = strchr(assignment, '=');
	size_t n = eq ? (size_t)(eq - assignment) : strlen(assignment);
	char *k;

	snprintf(buf, len, "%.*s", (int)n, assignment);
	k = il_ini_trim(buf);
	if (!strncmp(k, "global.", 7))
		k += 7;
	memmove(buf, k, strlen(k) + 1);
}

/* the job with the sweep's value i, written out (NULL: cannot) */
static char *job_text(const struct il_scenario *sc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return NULL;
	il_scenario_write(sc, m);
	fclose(m);
	return text;
}

/*
 * --sweep: one configuration a value, each value checked as --set
 * checks it, and no two values that make the same job.  -1 to go on, or
 * the exit status (messages printed).
 */
static int setup_sweep(struct drv *d, const char *file, const char *jobname)
{
	static char names[DRV_MAX_CONFIGS][320], key[128];
	const struct cfg *cfg = d->cfg;
	char err[768], a[512], *texts[DRV_MAX_CONFIGS] = { NULL };
	int rc = 2;

	if (cfg->sweep.n > 1) {
		fprintf(stderr,
			"invlab-run: --sweep is given %d times: one key a "
			"run (a sweep over two is several runs)\nTry "
			"'invlab-run --help'.\n",
			cfg->sweep.n);
		return 2;
	}
	if (il_sweep_parse(cfg->sweep.v[0], DRV_MAX_CONFIGS, &sweep, err,
			   sizeof(err))) {
		fprintf(stderr, "invlab-run: %s\nTry 'invlab-run --help'.\n",
			err);
		return 2;
	}
	key_of(sweep.name, key, sizeof(key));
	sweep_key = key;
	sweep_base = jobname;
	for (int i = 0; i < cfg->set.n; i++) {
		char k[128];

		key_of(cfg->set.v[i], k, sizeof(k));
		if (!strcmp(k, key)) {
			fprintf(stderr,
				"invlab-run: --sweep %s and --set %s: the "
				"sweep gives %s its values, give one or the "
				"other\n",
				sweep.arg, cfg->set.v[i], key);
			return 2;
		}
	}
	if (!strcmp(key, "duration") && il_opt_was_set(cfg, "duration")) {
		fprintf(stderr,
			"invlab-run: --sweep %s and --duration: the sweep "
			"gives the duration its values, give one or the "
			"other\n",
			sweep.arg);
		return 2;
	}
	for (int i = 0; i < sweep.n; i++) {
		struct il_scenario sc;
		int ret;

		if (build_base(cfg, file, &sc, err, sizeof(err))) {
			fprintf(stderr, "invlab-run: %s\n", err);
			goto out;
		}
		snprintf(a, sizeof(a), "%s=%s", key, sweep.v[i]);
		ret = il_scenario_set(&sc, a, err, sizeof(err));
		if (!ret)
			ret = il_scenario_check(&sc, err, sizeof(err));
		if (ret) {
			size_t n = strlen("--set ") + strlen(a) + 2;
			/* --set's own words, without its "--set A: " */
			const char *m = !strncmp(err, "--set ", 6) &&
							!strncmp(err + 6, a,
								 strlen(a)) &&
							strlen(err) > n
						? err + n
						: err;

			fprintf(stderr, "invlab-run: --sweep %s: %s: %s\n",
				sweep.arg, a, m);
			il_scenario_free(&sc);
			goto out;
		}
		texts[i] = job_text(&sc);
		il_scenario_free(&sc);
		for (int k = 0; texts[i] && k < i; k++)
			if (texts[k] && !strcmp(texts[k], texts[i])) {
				fprintf(stderr,
					"invlab-run: --sweep %s: '%s' makes "
					"the job '%s' makes (a value given "
					"twice)\n",
					sweep.arg, sweep.v[i], sweep.v[k]);
				goto out;
			}
		il_setf(names[i], sizeof(names[i]), "%s %s=%s", jobname, key,
			sweep.v[i]);
		d->configs[i] = d->configs[0];
		d->configs[i].name = names[i];
		d->want[i] = true;
	}
	d->nconfigs = sweep.n;
	rc = -1;
out:
	for (int i = 0; i < sweep.n; i++)
		free(texts[i]);
	return rc;
}

static int setup(struct drv *d, int argc, char **argv, int pos)
{
	static char name[256];
	struct drv_config *c = &d->configs[0];
	const struct cfg *cfg = d->cfg;
	struct il_scenario sc;
	char err[512];

	if (pos >= argc) {
		fprintf(stderr, "invlab-run: which job file? (e.g. "
				"demos/jobs/pi-classic.job)\nTry 'invlab-run "
				"--help'.\n");
		return 2;
	}
	/* the job's name is its configuration's */
	if (il_scenario_load(argv[pos], &sc, err, sizeof(err))) {
		fprintf(stderr, "invlab-run: %s\n", err);
		il_scenario_free(&sc);
		return 2;
	}
	c->file = argv[pos];
	snprintf(name, sizeof(name), "%s", sc.g.name);
	c->name = name;
	il_scenario_free(&sc);
	d->nconfigs = 1;
	d->want[0] = true;
	return cfg->sweep.n ? setup_sweep(d, c->file, name) : -1;
}

static int adjust(struct drv *d, int c, struct il_scenario *sc, char *err,
		  size_t len)
{
	const struct cfg *cfg = d->cfg;

	for (int i = 0; i < cfg->set.n; i++)
		if (il_scenario_set(sc, cfg->set.v[i], err, len))
			return -EINVAL;
	/* --duration on the command line wins over the job's; the table's
	 * default does not */
	if (il_opt_was_set(cfg, "duration"))
		sc->g.duration_ns = cfg->common.duration_ns;
	if (sweep.n &&
	    il_scenario_setf(sc, err, len, "%s=%s", sweep_key, sweep.v[c]))
		return -EINVAL;
	return 0;
}

static void header(struct drv *d, FILE *f)
{
	struct il_scenario sc;
	char err[512], dur[24];

	if (build_base(d->cfg, d->configs[0].file, &sc, err, sizeof(err)))
		return;
	il_format_duration(dur, sizeof(dur), sc.g.duration_ns);
	fprintf(f,
		"invlab-run: %s (%s): %d tasks, %d resources, %s; "
		"validate = %s\n",
		sc.g.name, sc.file, sc.ntasks, sc.nres, dur, sc.g.validate);
	if (sc.g.description)
		fprintf(f, "  %s\n", sc.g.description);
	if (sweep.n) {
		fprintf(f, "  --sweep %s over %d values:", sweep_key, sweep.n);
		for (int i = 0; i < sweep.n; i++)
			fprintf(f, "%s %s", i ? "," : "", sweep.v[i]);
		fputc('\n', f);
	}
	il_scenario_free(&sc);
}

static void json_head(struct drv *d, struct il_json *j)
{
	struct il_scenario sc;
	char err[512], *job = NULL;
	size_t jlen = 0;
	FILE *m;

	/* the job every configuration shares, before a sweep's value */
	if (build_base(d->cfg, d->configs[0].file, &sc, err, sizeof(err)))
		return;
	m = open_memstream(&job, &jlen);
	if (m) {
		il_scenario_write(&sc, m);
		fclose(m);
	}
	il_json_begin_object(j, "job");
	il_json_str(j, "file", sc.file);
	il_json_str(j, "name", sc.g.name);
	il_json_str(j, "description", sc.g.description);
	il_json_str(j, "text", job);
	il_json_int(j, "repeat", d->c->repeat);
	il_json_end_object(j);
	if (sweep.n) {
		il_json_begin_object(j, "sweep");
		il_json_str(j, "key", sweep_key);
		il_json_begin_array(j, "values");
		for (int i = 0; i < sweep.n; i++)
			il_json_str(j, NULL, sweep.v[i]);
		il_json_end_array(j);
		il_json_end_object(j);
	}
	free(job);
	il_scenario_free(&sc);
}

/* a run's text: with --sweep, which value it ran, before the tasks */
static void run_text(struct drv *d, const struct drv_run *r, FILE *f,
		     const char *pfx)
{
	if (sweep.n)
		fprintf(f, "%s%s=%s%s:\n", pfx, sweep_key, sweep.v[r->config],
			r->tag);
	if (!d->c->tap) {
		fprintf(f, "placement: %s (%s)\n", r->er->placement,
			r->er->numa);
		if (r->er->partitions[0])
			fprintf(f, "partitions: %s\n", r->er->partitions);
	}
	drv_print_tasks(f, r->sc, r->er, pfx);
}

/* a run's members, and with --sweep what the result tools fold by */
static void json_run(struct drv *d, const struct drv_run *r, struct il_json *j)
{
	drv_json_run(d, r, j);
	if (!sweep.n)
		return;
	il_json_begin_object(j, "sweep");
	il_json_str(j, "key", sweep_key);
	il_json_str(j, "value", sweep.v[r->config]);
	il_json_str(j, "configuration", sweep_base);
	il_json_end_object(j);
}

static const struct drv_family invlab_run = {
	.prog = "invlab-run",
	.usage = "JOBFILE [OPTIONS]",
	.summary = "Run a job file (docs/job-files.md) on the live kernel and "
		   "judge it with the validators it names.  Exit status: 0 "
		   "every verdict as the job expects, 1 otherwise, 2 bad job "
		   "file or usage, 77 cannot run here, 99 broken setup, 128+N "
		   "interrupted.",
	.opts = run_opts,
	.cfg_size = sizeof(struct cfg),
	.max_pos = 1,
	.setup = setup,
	.adjust = adjust,
	.job_duration = true,
	.header = header,
	.run_text = run_text,
	.json_head = json_head,
	.json_run = json_run,
};

int main(int argc, char **argv)
{
	int rc = drv_main(&invlab_run, argc, argv);

	il_sweep_free(&sweep);
	return rc;
}
