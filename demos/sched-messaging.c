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
	{ .name = NULL },
};

static const struct il_opt *const tables[] = { il_common_opts, opts, NULL };

static void json_run(struct il_json *j, const struct cfg *c, int k,
		     const struct msg_run *r)
{
	il_json_begin_object(j, NULL);
	il_json_str(j, "configuration", msg_mode_name(&c->m));
	il_json_int(j, "repeat", k);
	il_json_bool(j, "completed", r->completed);
	il_json_str(j, "reason", r->completed ? NULL : r->why);
	il_json_uint(j, "wall_ns", r->wall_ns);
	il_counters_json(j, "counters", &r->counts);
	il_json_end_object(j);
}

int main(int argc, char **argv)
{
	struct cfg cfg;
	struct il_sysinfo si;
	struct il_afile af;
	struct il_json j;
	struct il_run_info ri = { .program = PROG, .argc = argc, .argv = argv };
	char why[512] = "", line[1024];
	uint64_t bound;
	int rc = 0, first, ncpu, cpus[1024], ntap = 0, done = 0;
	bool json = false;
	double sum = 0;

	memset(&cfg, 0, sizeof(cfg));
	rc = demo_args(argc, argv, tables, &cfg, PROG, "[OPTIONS]",
		       "The scheduler's messaging workload (hackbench, perf "
		       "bench sched messaging): groups of senders and "
		       "receivers exchanging messages over socket pairs or "
		       "pipes, as processes or threads. Reports the wall time "
		       "of each run and the workers' scheduler counters; it "
		       "validates nothing (a throughput guard: compare runs "
		       "with invlab-compare). --duration is the bound of one "
		       "run here (default 60s when not given). Exit status: 0 "
		       "every run completed within the bound, 1 a run did "
		       "not, 2 bad usage, 77 cannot run here, 99 broken "
		       "setup, 128+N interrupted by signal N.",
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
	bound = il_opt_was_set(&cfg, "duration") ? cfg.common.duration_ns
						 : DEFAULT_BOUND_NS;
	if (msg_needs_fds(&cfg.m, why, sizeof(why)))
		return demo_skip(&cfg.common, PROG, why);
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
	if (rc == -EBUSY)
		return demo_skip(&cfg.common, PROG, why);
	if (rc)
		return demo_signal ? 128 + demo_signal : 99;
	clock_gettime(CLOCK_REALTIME, &ri.start);
	if (cfg.common.json) {
		rc = il_afile_open(&af, cfg.common.json);
		if (rc) {
			fprintf(stderr,
				PROG ": --json: cannot create '%s': %s\n",
				cfg.common.json, strerror(-rc));
			return 2;
		}
		json = true;
		il_json_init(&j, af.f);
		il_report_begin(&j, &ri);
		il_json_begin_object(&j, "scenario");
		il_json_int(&j, "groups", cfg.m.groups);
		il_json_int(&j, "fds", cfg.m.fds);
		il_json_int(&j, "loops", cfg.m.loops);
		il_json_uint(&j, "size", cfg.m.size);
		il_json_str(&j, "ipc", cfg.m.pipe ? "pipe" : "socket");
		il_json_str(&j, "workers", cfg.m.thread ? "thread" : "process");
		il_json_uint(&j, "bound_ns", bound);
		il_json_end_object(&j);
		il_json_begin_array(&j, "runs");
	}
	rc = 0;
	if (cfg.common.tap)
		il_tap_version(stdout);
	else if (!cfg.common.quiet) {
		printf("%s: %" PRId64 " groups of %" PRId64
		       " senders and %" PRId64 " receivers, %" PRId64
		       " loops, %" PRIu64 " bytes a message, %s\n",
		       PROG, cfg.m.groups, cfg.m.fds, cfg.m.fds, cfg.m.loops,
		       cfg.m.size, msg_mode_name(&cfg.m));
		demo_kernel_line(stdout, &si);
	}
	fflush(stdout);
	for (int k = 1; k <= cfg.common.repeat && !demo_signal; k++) {
		struct msg_run r;
		char tag[16];
		int ret = msg_run_once(&cfg.m, bound, &r, why, sizeof(why));

		if (ret) {
			fprintf(stderr, PROG ": %s\n", why);
			rc = ret == -EMFILE || ret == -ENFILE || ret == -EAGAIN
				     ? 77
				     : 99;
			if (rc == 77 && cfg.common.tap && !ntap)
				il_tap_skip_all(stdout, why);
			break;
		}
		if (demo_signal)
			break;
		demo_run_tag(cfg.common.repeat, k, tag, sizeof(tag));
		il_counters_line(&r.counts, line, sizeof(line));
		if (json)
			json_run(&j, &cfg, k, &r);
		if (!r.completed) {
			rc = 1;
			fprintf(stderr, PROG ": run %d: %s\n", k, r.why);
		} else {
			sum += (double)r.wall_ns;
			done++;
		}
		if (cfg.common.tap) {
			printf("%s %d - %s%s %s: wall %.3f s (throughput "
			       "guard: measured, not judged)\n# counters: "
			       "%s\n",
			       r.completed ? "ok" : "not ok", ++ntap,
			       msg_mode_name(&cfg.m), tag,
			       r.completed ? "completed" : r.why,
			       (double)r.wall_ns / 1e9, line);
		} else if (!cfg.common.quiet) {
			printf("run %d: Total time: %.3f [sec]%s\n  counters: "
			       "%s\n",
			       k, (double)r.wall_ns / 1e9,
			       r.completed ? "" : " (did not complete)", line);
		} else {
			printf("run %d: %.3f s%s\n", k, (double)r.wall_ns / 1e9,
			       r.completed ? "" : " (did not complete)");
		}
		fflush(stdout);
	}
	if (demo_signal)
		rc = 128 + demo_signal;
	if (cfg.common.tap && rc != 77)
		il_tap_plan(stdout, ntap);
	else if (!cfg.common.quiet && done)
		printf("%s: AMean wall time %.3f s over %d run%s (throughput "
		       "guard, lower is better; no verdict)\n",
		       PROG, sum / done / 1e9, done, done == 1 ? "" : "s");
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
	return rc;
}
