// SPDX-License-Identifier: MIT
/*
 * invlab-run: run any job file and judge it.
 *
 *   sudo invlab-run demos/jobs/pi-classic.job
 *   sudo invlab-run demos/jobs/pi-classic.job --set M.protocol=none \
 *        --set expect=FAIL --json out.json
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

#include <invlab/time.h>

#include "driver.h"

struct cfg {
	struct il_common_cfg common; /* must come first: see opt.h */
	struct il_strlist set;
	int print_job;
	int partition;
};

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

static int setup(struct drv *d, int argc, char **argv, int pos)
{
	static char name[256];
	struct drv_config *c = &d->configs[0];
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
	return -1;
}

static int adjust(struct drv *d, int c, struct il_scenario *sc, char *err,
		  size_t len)
{
	const struct cfg *cfg = d->cfg;

	(void)c;
	for (int i = 0; i < cfg->set.n; i++)
		if (il_scenario_set(sc, cfg->set.v[i], err, len))
			return -EINVAL;
	/* --duration on the command line wins over the job's; the table's
	 * default does not */
	if (il_opt_was_set(cfg, "duration"))
		sc->g.duration_ns = cfg->common.duration_ns;
	return 0;
}

static void header(struct drv *d, FILE *f)
{
	struct il_scenario sc;
	char err[512], dur[24];

	if (drv_build(d, 0, &sc, err, sizeof(err)))
		return;
	il_format_duration(dur, sizeof(dur), sc.g.duration_ns);
	fprintf(f,
		"invlab-run: %s (%s): %d tasks, %d resources, %s; "
		"validate = %s\n",
		sc.g.name, sc.file, sc.ntasks, sc.nres, dur, sc.g.validate);
	if (sc.g.description)
		fprintf(f, "  %s\n", sc.g.description);
	il_scenario_free(&sc);
}

static void json_head(struct drv *d, struct il_json *j)
{
	struct il_scenario sc;
	char err[512], *job = NULL;
	size_t jlen = 0;
	FILE *m;

	if (drv_build(d, 0, &sc, err, sizeof(err)))
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
	free(job);
	il_scenario_free(&sc);
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
	.json_head = json_head,
};

int main(int argc, char **argv)
{
	return drv_main(&invlab_run, argc, argv);
}
