// SPDX-License-Identifier: MIT
/*
 * sched-messaging: the scheduler's messaging workload (hackbench, `perf
 * bench sched messaging`): groups of senders and receivers; every sender
 * of a group writes LOOPS messages of SIZE bytes to every receiver of its
 * group, over a socket pair or a pipe per receiver; the workers are
 * processes or threads.  What is measured is the wall time from the
 * release of all workers (all created and waiting) until the last has
 * been reaped (as perf measures it), and the scheduler counters of the workers
 * over that time (counters.h, inherited by every worker).
 *
 * It validates nothing: it is a throughput guard for comparisons
 * (invlab-compare: AMean wall time, lower is better).  Exit status: 0
 * every run completed within the bound, 1 a run did not (its workers
 * were stopped), 2 bad usage, 77 cannot run here (the CPUs are in use,
 * too few file descriptors or processes), 99 broken setup, 128+N
 * interrupted by signal N.
 *
 * --sweep NAME=V1,V2,... runs each value of one numeric option as a
 * configuration of its own, the values one after the other within each
 * --repeat (so a drift of the machine spreads over all of them):
 *
 *   sched-messaging --sweep groups=1,2,4,8,16 -l 100 -r 5 --json a.json
 *   invlab-compare a.json -- b.json --by groups
 *
 * The workload itself is in messaging.c; this file is the program: its
 * options, reports and exit codes.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <invlab/counters.h>
#include <invlab/opt.h>
#include <invlab/report.h>
#include <invlab/runlock.h>
#include <invlab/sweep.h>
#include <invlab/sysinfo.h>
#include <invlab/time.h>
#include <invlab/trace.h>

#include "demo.h"
#include "messaging.h"

#define PROG "sched-messaging"
/* the bound of one run when --duration is not given */
#define DEFAULT_BOUND_NS (60 * IL_NSEC_PER_SEC)

struct cfg {
	struct il_common_cfg common;
	struct msg_params m;
	struct il_strlist sweep;
};

#define O(f) offsetof(struct cfg, f)

static const struct il_opt opts[] = {
	{
		.name = "groups",
		.short_name = 'g',
		.type = IL_OPT_INT,
		.offset = O(m.groups),
		.def = "10",
		.min = 1,
		.max = 1000,
		.metavar = "N",
		.help = "groups of senders and receivers (perf's -g)",
	},
	{
		.name = "fds",
		.short_name = 'f',
		.type = IL_OPT_INT,
		.offset = O(m.fds),
		.def = "20",
		.min = 1,
		.max = 1000,
		.metavar = "N",
		.help = "senders, and as many receivers, in each group",
	},
	{
		.name = "loops",
		.short_name = 'l',
		.type = IL_OPT_INT,
		.offset = O(m.loops),
		.def = "100",
		.min = 1,
		.max = 10000000,
		.metavar = "N",
		.help = "messages each sender writes to each receiver of its "
			"group (perf's -l)",
	},
	{
		.name = "size",
		.short_name = 's',
		.type = IL_OPT_SIZE,
		.offset = O(m.size),
		.def = "100",
		.min = 1,
		.max = MSG_MAX_SIZE,
		.metavar = "BYTES",
		.help = "bytes of one message",
	},
	{
		.name = "pipe",
		.short_name = 'p',
		.type = IL_OPT_FLAG,
		.offset = O(m.pipe),
		.help = "a pipe per receiver instead of a socket pair (perf's "
			"-p)",
	},
	{
		.name = "thread",
		.short_name = 't',
		.type = IL_OPT_FLAG,
		.offset = O(m.thread),
		.help = "the workers are threads instead of processes (perf's "
			"-t)",
	},
	{
		.name = "sweep",
		.type = IL_OPT_LIST,
		.offset = O(sweep),
		.metavar = "NAME=V1,V2,...",
		.help = "run each value of one of --groups, --fds, --loops or "
			"--size as a configuration of its own (e.g. "
			"groups=1,2,4,8,16; at most 64 values, each in the "
			"option's range), one after the other within each "
			"--repeat; each is named as process-socket groups=4, "
			"so that invlab-compare --by groups makes a row of "
			"each",
	},
	{ .name = NULL },
};

static const struct il_opt *const tables[] = { il_common_opts, opts, NULL };
/* what --sweep may name: the workload's numbers, not the common options */
static const struct il_opt *const sweep_tables[] = { opts, NULL };

/* One configuration: the parameters, and with --sweep its value. */
struct conf {
	struct msg_params m;
	char name[96]; /* "process-socket", "process-socket groups=4" */
	long long value;
	double sum; /* wall time of its completed runs */
	int done;
};

static void json_run(struct il_json *j, const struct conf *c,
		     const struct il_sweep *sw, int k, const struct msg_run *r)
{
	il_json_begin_object(j, NULL);
	il_json_str(j, "configuration", c->name);
	/* the tools keep the values apart, and fold them with --by NAME */
	if (sw->n) {
		il_json_begin_object(j, "sweep");
		il_json_str(j, "key", sw->name);
		il_json_int(j, "value", c->value);
		il_json_str(j, "configuration", msg_mode_name(&c->m));
		il_json_end_object(j);
	}
	il_json_int(j, "repeat", k);
	il_json_bool(j, "completed", r->completed);
	il_json_str(j, "reason", r->completed ? NULL : r->why);
	il_json_uint(j, "wall_ns", r->wall_ns);
	il_counters_json(j, "counters", &r->counts);
	il_json_end_object(j);
}

/* "10 groups of 20 senders and 20 receivers, 100 loops, ..." */
static void describe(FILE *f, const struct msg_params *m)
{
	fprintf(f,
		"%" PRId64 " groups of %" PRId64 " senders and %" PRId64
		" receivers, %" PRId64 " loops, %" PRIu64
		" bytes a message, %s\n",
		m->groups, m->fds, m->fds, m->loops, m->size, msg_mode_name(m));
}

/*
 * The configurations: one, or with --sweep one a value.  0, or the exit
 * status 2 after the message.
 */
static int make_confs(struct cfg *cfg, struct il_sweep *sw, struct conf *cf,
		      int *n)
{
	long long vals[IL_SWEEP_MAX_VALUES];
	struct cfg tmp = *cfg;
	char err[768];

	*n = 1;
	memset(&cf[0], 0, sizeof(cf[0]));
	cf[0].m = cfg->m;
	snprintf(cf[0].name, sizeof(cf[0].name), "%s", msg_mode_name(&cfg->m));
	if (!cfg->sweep.n)
		return 0;
	if (cfg->sweep.n > 1) {
		fprintf(stderr,
			PROG
			": --sweep is given %d times: one option a "
			"run (a sweep over two is several runs)\nTry '" PROG
			" --help'.\n",
			cfg->sweep.n);
		return 2;
	}
	if (il_sweep_parse(cfg->sweep.v[0], IL_SWEEP_MAX_VALUES, sw, err,
			   sizeof(err)) ||
	    il_sweep_check_opt(sw, sweep_tables, &tmp, vals, err,
			       sizeof(err))) {
		fprintf(stderr, PROG ": %s\nTry '" PROG " --help'.\n", err);
		return 2;
	}
	if (il_opt_was_set(cfg, sw->name)) {
		fprintf(stderr,
			PROG ": --sweep %s and --%s: the sweep gives --%s its "
			     "values, give one or the other\nTry '" PROG
			     " --help'.\n",
			sw->name, sw->name, sw->name);
		return 2;
	}
	for (int i = 0; i < sw->n; i++) {
		tmp = *cfg;
		/* checked above: the option's own parser sets the field */
		il_opt_set(sweep_tables, &tmp, sw->name, sw->v[i], err,
			   sizeof(err));
		memset(&cf[i], 0, sizeof(cf[i]));
		cf[i].m = tmp.m;
		cf[i].value = vals[i];
		snprintf(cf[i].name, sizeof(cf[i].name), "%s %s=%lld",
			 msg_mode_name(&tmp.m), sw->name, vals[i]);
	}
	*n = sw->n;
	return 0;
}

/*
 * Where a long sweep is, on a terminal (stderr), until the next report
 * line clears it: "[3/10] groups=4, run 1 of 2; 12 s so far".
 */
static bool progress_on;

static void progress(const struct il_sweep *sw, const struct conf *c, int at,
		     int total, int k, int repeat, uint64_t t0)
{
	if (!progress_on)
		return;
	fprintf(stderr, "\r\033[K[%d/%d] ", at, total);
	if (sw->n)
		fprintf(stderr, "%s=%lld, ", sw->name, c->value);
	fprintf(stderr, "run %d of %d; %.0f s so far", k, repeat,
		(double)(il_now_ns() - t0) / 1e9);
	fflush(stderr);
}

static void progress_clear(void)
{
	if (progress_on)
		fputs("\r\033[K", stderr);
}

/* the program; *common: its common options, for the exit status */
static int messaging(int argc, char **argv, const struct il_common_cfg **common)
{
	static struct conf confs[IL_SWEEP_MAX_VALUES];
	static struct cfg cfg;
	struct il_sysinfo si;
	struct il_afile af;
	struct il_json j;
	struct il_sweep sw;
	struct il_run_info ri = { .program = PROG, .argc = argc, .argv = argv };
	char why[512] = "", line[1024], pre[80];
	const char *skip_why = NULL; /* --ktap: why nothing ran */
	uint64_t bound, t0;
	int rc = 0, first, ncpu, cpus[1024], ntap = 0, nconf, at = 0;
	bool json = false, stop = false;

	memset(&cfg, 0, sizeof(cfg));
	memset(&sw, 0, sizeof(sw));
	*common = &cfg.common;
	rc = demo_args(argc, argv, tables, &cfg, PROG, "[OPTIONS]",
		       "The scheduler's messaging workload (hackbench, perf "
		       "bench sched messaging): groups of senders and "
		       "receivers exchanging messages over socket pairs or "
		       "pipes, as processes or threads. Reports the wall time "
		       "of each run and the workers' scheduler counters; it "
		       "validates nothing (a throughput guard: compare runs "
		       "with invlab-compare). --duration is the bound of one "
		       "run here (default 60s when not given). --sweep runs "
		       "several values of one option in one result. Exit "
		       "status: 0 every run completed within the bound, 1 a "
		       "run did not, 2 bad usage, 77 cannot run here, 99 "
		       "broken setup, 128+N interrupted by signal N.",
		       0, &first);
	if (rc >= 0)
		return rc;
	if (cfg.common.live || cfg.common.trace == IL_TRACE_ON ||
	    cfg.common.probe || cfg.common.trace_export || cfg.common.stage ||
	    il_opt_samples(&cfg.common)) {
		fprintf(stderr,
			PROG ": %s is not for this program (it has "
			     "no scenario tasks)\nTry '" PROG " --help'.\n",
			cfg.common.live			  ? "--live"
			: cfg.common.trace == IL_TRACE_ON ? "--trace=on"
			: cfg.common.probe		  ? "--probe"
			: cfg.common.stage		  ? "--stage"
			: cfg.common.trace_export	  ? "--trace-export"
			: cfg.common.samples		  ? "--samples"
							  : "--percentile");
		return 2;
	}
	rc = make_confs(&cfg, &sw, confs, &nconf);
	if (rc) {
		il_sweep_free(&sw);
		return rc;
	}
	bound = il_opt_was_set(&cfg, "duration") ? cfg.common.duration_ns
						 : DEFAULT_BOUND_NS;
	for (int c = 0; c < nconf; c++)
		if (msg_needs_fds(&confs[c].m, why, sizeof(why))) {
			il_sweep_free(&sw);
			return demo_skip(&cfg.common, PROG, why);
		}
	demo_signals();
	msg_signals();
	il_sysinfo_read(&si);
	ri.sys = &si;
	/* it loads every CPU: the others' runs and this one would disturb
	 * each other */
	ncpu = (int)sysconf(_SC_NPROCESSORS_CONF);
	ncpu = ncpu < 1 ? 1 : ncpu > 1024 ? 1024 : ncpu;
	for (int i = 0; i < ncpu; i++)
		cpus[i] = i;
	rc = il_runlock_cpus(cpus, ncpu, &demo_stop, why, sizeof(why));
	if (rc == -EBUSY) {
		il_sweep_free(&sw);
		return demo_skip(&cfg.common, PROG, why);
	}
	if (rc) {
		il_sweep_free(&sw);
		return demo_signal ? 128 + demo_signal : 99;
	}
	clock_gettime(CLOCK_REALTIME, &ri.start);
	if (cfg.common.json) {
		rc = il_afile_open(&af, cfg.common.json);
		if (rc) {
			fprintf(stderr,
				PROG ": --json: cannot create '%s': %s\n",
				cfg.common.json, strerror(-rc));
			il_sweep_free(&sw);
			return 2;
		}
		json = true;
		il_json_init(&j, af.f);
		if (cfg.common.json_pretty)
			il_json_set_pretty(&j, true);
		il_report_begin(&j, &ri);
		/* the swept option is the runs', not the scenario's */
		il_json_begin_object(&j, "scenario");
		if (!sw.n || strcmp(sw.name, "groups"))
			il_json_int(&j, "groups", cfg.m.groups);
		if (!sw.n || strcmp(sw.name, "fds"))
			il_json_int(&j, "fds", cfg.m.fds);
		if (!sw.n || strcmp(sw.name, "loops"))
			il_json_int(&j, "loops", cfg.m.loops);
		if (!sw.n || strcmp(sw.name, "size"))
			il_json_uint(&j, "size", cfg.m.size);
		il_json_str(&j, "ipc", cfg.m.pipe ? "pipe" : "socket");
		il_json_str(&j, "workers", cfg.m.thread ? "thread" : "process");
		il_json_uint(&j, "bound_ns", bound);
		il_json_end_object(&j);
		if (sw.n) {
			il_json_begin_object(&j, "sweep");
			il_json_str(&j, "key", sw.name);
			il_json_begin_array(&j, "values");
			for (int c = 0; c < nconf; c++)
				il_json_int(&j, NULL, confs[c].value);
			il_json_end_array(&j);
			il_json_end_object(&j);
		}
		il_json_begin_array(&j, "runs");
	}
	rc = 0;
	if (cfg.common.ktap && (rc = demo_ktap_hold())) {
		/* the version line and the plan come at the end */
		fprintf(stderr,
			PROG ": --ktap: cannot hold standard output in a "
			     "temporary file: %s\n",
			strerror(-rc));
		if (json)
			il_afile_abort(&af);
		il_sweep_free(&sw);
		return 99;
	} else if (cfg.common.tap) {
		if (!cfg.common.ktap)
			il_tap_version(stdout);
	} else if (!cfg.common.quiet && !sw.n) {
		printf("%s: ", PROG);
		describe(stdout, &cfg.m);
		demo_kernel_line(stdout, &si);
	} else if (!cfg.common.quiet) {
		printf("%s: --sweep %s over %d values, one configuration "
		       "each:\n",
		       PROG, sw.name, nconf);
		for (int c = 0; c < nconf; c++) {
			printf("  %s=%lld: ", sw.name, confs[c].value);
			describe(stdout, &confs[c].m);
		}
		demo_kernel_line(stdout, &si);
	}
	fflush(stdout);
	progress_on = !cfg.common.quiet && isatty(STDERR_FILENO) &&
		      nconf * cfg.common.repeat > 1;
	t0 = il_now_ns();
	for (int k = 1; k <= cfg.common.repeat && !stop && !demo_signal; k++)
		for (int c = 0; c < nconf && !stop && !demo_signal; c++) {
			struct conf *cf = &confs[c];
			struct msg_run r;
			char tag[16];
			int ret;

			progress(&sw, cf, ++at, nconf * (int)cfg.common.repeat,
				 k, (int)cfg.common.repeat, t0);
			ret = msg_run_once(&cf->m, bound, &r, why, sizeof(why));
			progress_clear();
			if (ret) {
				fprintf(stderr, PROG ": %s\n", why);
				rc = ret == -EMFILE || ret == -ENFILE ||
						     ret == -EAGAIN
					     ? 77
					     : 99;
				if (rc == 77 && cfg.common.tap && !ntap &&
				    !cfg.common.ktap)
					il_tap_skip_all(stdout, why);
				else if (rc == 77 && cfg.common.ktap && !ntap)
					skip_why = why;
				stop = true;
				break;
			}
			if (demo_signal)
				break;
			/* KTAP has no escape for '#': " run 2" there */
			if (cfg.common.ktap && cfg.common.repeat > 1)
				snprintf(tag, sizeof(tag), " run %d", k);
			else
				demo_run_tag(cfg.common.repeat, k, tag,
					     sizeof(tag));
			il_counters_line(&r.counts, line, sizeof(line));
			/* "groups=4 run 1", or "run 1" without a sweep */
			if (sw.n)
				snprintf(pre, sizeof(pre), "%s=%lld run %d",
					 sw.name, cf->value, k);
			else
				snprintf(pre, sizeof(pre), "run %d", k);
			if (json)
				json_run(&j, cf, &sw, k, &r);
			if (!r.completed) {
				rc = 1;
				fprintf(stderr, PROG ": %s: %s\n", pre, r.why);
			} else {
				cf->sum += (double)r.wall_ns;
				cf->done++;
			}
			if (cfg.common.tap) {
				char desc[640];

				snprintf(desc, sizeof(desc),
					 "%s%s %s: wall %.3f s (throughput "
					 "guard: measured, not judged)",
					 cf->name, tag,
					 r.completed ? "completed" : r.why,
					 (double)r.wall_ns / 1e9);
				/* KTAP: the diagnostics before the test */
				if (cfg.common.ktap)
					il_tap_diag(stdout, "counters: %s",
						    line);
				il_tap_result_in(
					stdout, demo_tap_dialect(&cfg.common),
					r.completed, ++ntap, desc, NULL);
				if (!cfg.common.ktap)
					il_tap_diag(stdout, "counters: %s",
						    line);
			} else if (!cfg.common.quiet) {
				printf("%s: Total time: %.3f [sec]%s\n  "
				       "counters: %s\n",
				       pre, (double)r.wall_ns / 1e9,
				       r.completed ? "" : " (did not complete)",
				       line);
			} else {
				printf("%s: %.3f s%s\n", pre,
				       (double)r.wall_ns / 1e9,
				       r.completed ? ""
						   : " (did not complete)");
			}
			fflush(stdout);
		}
	if (demo_signal)
		rc = 128 + demo_signal;
	if (cfg.common.tap && rc != 77 && !cfg.common.ktap)
		il_tap_plan(stdout, ntap);
	else if (!cfg.common.quiet)
		for (int c = 0; c < nconf; c++) {
			const struct conf *cf = &confs[c];

			if (!cf->done)
				continue;
			if (sw.n)
				printf("%s: %s: ", PROG, cf->name);
			else
				printf("%s: ", PROG);
			printf("AMean wall time %.3f s over %d run%s "
			       "(throughput guard, lower is better; no "
			       "verdict)\n",
			       cf->sum / cf->done / 1e9, cf->done,
			       cf->done == 1 ? "" : "s");
		}
	if (json) {
		il_json_end_array(&j);
		il_json_bool(&j, "interrupted", demo_signal != 0);
		il_report_end(&j, rc);
		fputc('\n', af.f);
		if (il_json_error(&j)) {
			il_afile_abort(&af);
			rc = 99;
		} else if (il_afile_commit(&af)) {
			fprintf(stderr, PROG ": --json: cannot write '%s'\n",
				cfg.common.json);
			rc = 99;
		}
	}
	if (demo_signal)
		fprintf(stderr,
			PROG ": interrupted by signal %d; results so far "
			     "written\n",
			(int)demo_signal);
	if (cfg.common.ktap)
		demo_ktap_release(ntap, skip_why);
	il_sweep_free(&sw);
	return rc;
}

int main(int argc, char **argv)
{
	const struct il_common_cfg *common = NULL;
	int rc = messaging(argc, argv, &common);

	/* --exit-status=kselftest */
	return demo_exit(common, rc);
}
