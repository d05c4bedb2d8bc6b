// SPDX-License-Identifier: MIT
/*
 * rt-football: on N CPUs, the N highest-priority runnable real-time
 * tasks must always be the ones running (the invariant of LTP's
 * sched_football), judged on the scheduler's trace.
 *
 *   sudo rt-football                      # the game, then the control
 *   sudo rt-football football -d 2s --tap
 *   sudo rt-football pinned --json fb.json
 *
 * N is the CPUs online (at most 5: three tasks a CPU within the
 * scenario's 16).  N offense tasks (fifo:30) wake together every 150
 * ms and run 30 ms; N defense tasks (fifo:20) spin 6 ms and sleep 4 ms;
 * N fans (fifo:10) wake every 2 ms and run 50 us; none is pinned.  The
 * job is demos/jobs/rt-football.job (N = 2), built in; past two CPUs a
 * player of each team is added per CPU, and on a machine of more than
 * five CPUs every task is kept to the first five.
 *
 * Configurations:
 *   football  the game: expected PASS
 *   pinned    the negative control: offense0 and offense1 pinned to one
 *             CPU, so one waits a whole job while a defense task runs on
 *             another CPU; expected FAIL
 *
 * The football validator (validators/football.c, docs/rt-football.md)
 * replays the trace: a task of the top N kept runnable, not running,
 * while a lower task runs anywhere, for longer than one p999 of the
 * top task's calibrated wakeup latency (beyond the host's steal) is a
 * FAIL naming the instant and the tasks; no trace is UNDECIDED.
 *
 * Exit: 0 every verdict as expected, 1 otherwise, 2 usage, 77 cannot
 * run here (reason printed), 99 broken setup, 128+N interrupted.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <invlab/cpu.h>
#include <invlab/strbuf.h>

#include "driver.h"
#include "jobs.h"

#define PROG	    "rt-football"
#define MAX_PLAYERS (IL_MAX_TASKS / 3)

struct cfg {
	struct il_common_cfg common; /* must come first: see opt.h */
	int print_job;
	int list;
};

#define O(f) offsetof(struct cfg, f)
static const struct il_opt football_opts[] = {
	{
		.name = "print-job",
		.type = IL_OPT_FLAG,
		.offset = O(print_job),
		.help = "print each configuration's job as it would run here "
			"and exit",
	},
	{
		.name = "list",
		.type = IL_OPT_FLAG,
		.offset = O(list),
		.help = "list the configurations and exit",
	},
	{ .name = NULL },
};
#undef O

static const char *const teams[] = { "offense", "defense", "fan" };
static int players;	   /* N */
static char cpus[64] = ""; /* every task's CPUs on a big machine */

static const struct demo_job *job(void)
{
	return demo_job("rt-football");
}

static int setup(struct drv *d, int argc, char **argv, int pos)
{
	const struct cfg *cfg = d->cfg;
	int online[IL_MAX_CPUS], n = il_cpu_online(online, IL_MAX_CPUS);
	int rc;

	players = n < MAX_PLAYERS ? n : MAX_PLAYERS;
	for (int i = 0; n > MAX_PLAYERS && i < players; i++)
		il_appendf(cpus, sizeof(cpus), "%s%d", i ? "," : "", online[i]);
	d->configs[0] = (struct drv_config){
		.name = "football",
		.text = job()->text,
		.file = job()->file,
	};
	d->configs[1] = (struct drv_config){
		.name = "pinned",
		.text = job()->text,
		.file = job()->file,
		.set = { "expect=FAIL", "description=the negative control: "
					"offense0 and offense1 share a CPU" },
	};
	d->nconfigs = 2;
	if (cfg->list)
		return drv_list(d);
	rc = drv_pick(d, argc, argv, pos, "configuration");
	return rc >= 0 ? rc : -1;
}

static const char *cannot_run(struct drv *d, int c, char *why, size_t len)
{
	(void)d;
	(void)c;
	if (players >= 2)
		return NULL;
	snprintf(why, len,
		 PROG " needs 2 CPUs or more: on %d the top task always "
		      "runs",
		 players);
	return why;
}

/* a player of each team per CPU past two, as the job's first ones */
static int add_players(struct il_scenario *sc, char *err, size_t len)
{
	for (int k = 2; k < players; k++)
		for (size_t t = 0; t < sizeof(teams) / sizeof(teams[0]); t++) {
			char from[IL_NAME_MAX], name[IL_NAME_MAX];
			const struct il_task *src;
			int s;

			snprintf(from, sizeof(from), "%s0", teams[t]);
			snprintf(name, sizeof(name), "%s%d", teams[t], k);
			s = il_scenario_task(sc, from);
			if (s < 0 || il_scenario_add_task(sc, name)) {
				snprintf(err, len, "cannot add task %s", name);
				return -1;
			}
			src = &sc->tasks[s];
			if (il_scenario_setf(sc, err, len, "%s.class=%s", name,
					     src->k.class_spec) ||
			    il_scenario_setf(sc, err, len, "%s.body=%s", name,
					     src->k.body) ||
			    (src->k.period_ns &&
			     (il_scenario_setf(sc, err, len,
					       "%s.activation=periodic",
					       name) ||
			      il_scenario_setf(
				      sc, err, len, "%s.period=%lluns", name,
				      (unsigned long long)src->k.period_ns))) ||
			    (!src->k.period_ns &&
			     il_scenario_setf(sc, err, len, "%s.activation=hog",
					      name)))
				return -1;
		}
	return il_scenario_check(sc, err, len);
}

static int adjust(struct drv *d, int c, struct il_scenario *sc, char *err,
		  size_t len)
{
	if (add_players(sc, err, len))
		return -1;
	for (int i = 0; cpus[0] && i < sc->ntasks; i++)
		if (il_scenario_setf(sc, err, len, "%s.cpu=%s",
				     sc->tasks[i].name, cpus))
			return -1;
	if (!strcmp(d->configs[c].name, "pinned")) {
		int online[IL_MAX_CPUS];
		int first =
			il_cpu_online(online, IL_MAX_CPUS) > 0 ? online[0] : 0;

		if (il_scenario_setf(sc, err, len, "offense0.cpu=%d", first) ||
		    il_scenario_setf(sc, err, len, "offense1.cpu=%d", first))
			return -1;
	}
	return 0;
}

static void header(struct drv *d, FILE *f)
{
	(void)d;
	fprintf(f,
		PROG ": N = %d CPUs%s%s: %d offense (fifo 30, 30ms every "
		     "150ms), %d defense (fifo 20, spin 6ms, sleep 4ms), %d "
		     "fans (fifo 10, 50us every 2ms)\n",
		players, cpus[0] ? " " : "", cpus, players, players, players);
}

static void run_text(struct drv *d, const struct drv_run *r, FILE *f,
		     const char *pfx)
{
	if (!d->c->tap) {
		fprintf(f, "\n== %s%s: %s\n", r->name, r->tag,
			r->sc->g.description ? r->sc->g.description : "");
		fprintf(f, "placement: %s\n", r->er->placement);
	}
	drv_print_tasks(f, r->sc, r->er, pfx);
}

static void json_head(struct drv *d, struct il_json *j)
{
	il_json_int(j, "players", players);
	il_json_int(j, "repeat", d->c->repeat);
}

static const struct drv_family rt_football = {
	.prog = PROG,
	.usage = "[CONFIGURATION...] [OPTIONS]",
	.summary = "N offense, N defense and N fan real-time tasks on N "
		   "CPUs, judged on the scheduler's trace: the N highest-"
		   "priority runnable tasks must always be the ones running "
		   "(docs/rt-football.md).  CONFIGURATION is football (the "
		   "game, expected PASS) or pinned (two offense tasks on one "
		   "CPU, the negative control, expected FAIL); default: "
		   "both.  Needs CAP_SYS_NICE and tracefs.  Exit status: 0 "
		   "every verdict as expected, 1 otherwise, 2 usage, 77 "
		   "cannot run here, 99 broken setup, 128+N interrupted.",
	.opts = football_opts,
	.cfg_size = sizeof(struct cfg),
	.max_pos = 2,
	.setup = setup,
	.cannot_run = cannot_run,
	.adjust = adjust,
	.header = header,
	.run_text = run_text,
	.json_head = json_head,
	.config_label = "configuration",
	.count_line = true,
};

int main(int argc, char **argv)
{
	return drv_main(&rt_football, argc, argv);
}
