// SPDX-License-Identifier: MIT
/*
 * pi-classic: the three-task priority inversion (the Mars Pathfinder
 * case), run and judged under each pthread mutex protocol.
 *
 *   sudo pi-classic                      # none, inherit and protect, 3 s each
 *   sudo pi-classic -p inherit -d 10s --json out.json
 *
 * Three SCHED_FIFO tasks share one CPU.  Each round is ordered by
 * hand-offs (events of the scenario engine), not by hoping sleeps line
 * up:
 *
 *   1. low (prio 10) is released, takes the mutex and starts a critical
 *      section of --cs CPU time;
 *   2. a quarter of the way in, high (prio 30) is released at an absolute
 *      time, releases medium (prio 20) and requests the mutex;
 *   3. medium spins for --hog, or until high has the mutex.
 *
 * Medium is runnable before high requests the mutex but cannot run before
 * high blocks (same CPU, lower priority).  Without a protocol it then
 * runs for the whole hog while high waits: the inversion.  With
 * inheritance low runs boosted and medium never runs during the wait;
 * with the ceiling low runs at high's priority from the moment it locks,
 * so high's start is delayed instead.
 *
 * For each round the engine's CPU-clock accounting tells who ran while
 * high waited: low (the bounded part), medium (the inversion) or nobody
 * lower in the scenario (steal, interrupts: noise).  validators/pi.c
 * judges that against the bound; the noise allowance comes from a
 * wakeup-latency calibration on the same CPU just before each protocol's
 * run.  This file only describes the scenario and judges it.
 *
 * Exit: 0 every verdict as expected (none fails, inherit and protect
 * pass), 1 otherwise, 2 bad usage, 77 cannot run here (reason printed),
 * 99 broken setup, 128+N interrupted by signal N (results still written).
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <invlab/attrib.h>
#include <invlab/cpu.h>
#include <invlab/engine.h>
#include <invlab/hist.h>
#include <invlab/live.h>
#include <invlab/opt.h>
#include <invlab/report.h>
#include <invlab/scenario.h>
#include <invlab/sched.h>
#include <invlab/sysinfo.h>
#include <invlab/time.h>
#include <invlab/validate.h>
#include <invlab/verdict.h>

#include "demo.h"

enum protocol { P_NONE, P_INHERIT, P_PROTECT, P_ALL };
static const char *const proto_names[] = { "none", "inherit", "protect" };

struct cfg {
	struct il_common_cfg common; /* must come first: see opt.h */
	int protocol;
	int64_t cpu;
	uint64_t cs_ns;
	uint64_t hog_ns;
	int64_t prio_low, prio_medium, prio_high;
	int ignore_protocol;
};

#define O(f) offsetof(struct cfg, f)
static const struct il_opt pi_opts[] = {
	{ "protocol", 'p', IL_OPT_CHOICE, O(protocol), "all", 0, 0, 0,
	  "none|inherit|protect|all", "PROTO",
	  "mutex protocol to run; all runs none, inherit and protect in turn",
	  NULL },
	{ "cpu", 'c', IL_OPT_INT, O(cpu), "-1", -1, IL_MAX_CPUS - 1, 0, NULL,
	  "CPU", "CPU the three threads share; -1 picks the last online CPU",
	  NULL },
	{ "cs", 0, IL_OPT_DURATION, O(cs_ns), "2ms", 100 * IL_NSEC_PER_USEC,
	  100 * IL_NSEC_PER_MSEC, IL_NSEC_PER_MSEC, NULL, "TIME",
	  "CPU time low spends holding the mutex each round", NULL },
	{ "hog", 0, IL_OPT_DURATION, O(hog_ns), "20ms", IL_NSEC_PER_MSEC,
	  IL_NSEC_PER_SEC, IL_NSEC_PER_MSEC, NULL, "TIME",
	  "how long medium spins while high waits (it stops once high has "
	  "the mutex)",
	  NULL },
	{ "prio-low", 0, IL_OPT_INT, O(prio_low), "10", 1, 97, 0, NULL, "PRIO",
	  "SCHED_FIFO priority of the lock holder", NULL },
	{ "prio-medium", 0, IL_OPT_INT, O(prio_medium), "20", 2, 98, 0, NULL,
	  "PRIO", "SCHED_FIFO priority of the hog (between low and high)",
	  NULL },
	{ "prio-high", 0, IL_OPT_INT, O(prio_high), "30", 3, 99, 0, NULL,
	  "PRIO", "SCHED_FIFO priority of the waiter", NULL },
	{ "ignore-protocol", 0, IL_OPT_FLAG, O(ignore_protocol), NULL, 0, 0, 0,
	  NULL, NULL,
	  "create every mutex without a protocol but judge it as requested, "
	  "as a C library that ignores the attribute would; the verdict must "
	  "then be FAIL (a self-test of the check)",
	  NULL },
	{ .name = NULL },
};
#undef O

static const struct il_opt *const tables[] = { il_common_opts, pi_opts, NULL };

struct result {
	int protocol;
	int repeat; /* 1.. */
	bool ran;
	enum il_verdict expected;
	struct il_check check;
	struct il_blocking_stats st;
	size_t rounds, late;
	uint64_t steal_ns;
	char placement[256];
	struct il_hist calib;
	struct il_hist blocked, wakeup, delay, hold;
};

/*
 * The scenario, as a job file (demos/jobs/pi-classic.job is the same with
 * the defaults): all three tasks on one CPU.  `wait held` only sleeps
 * when low was late; such rounds are not judged.
 */
static int build(struct il_scenario *sc, const struct cfg *cfg, int cpu,
		 int protocol, char *err, size_t len)
{
	char job[2048];

	snprintf(job, sizeof(job),
		 "[global]\n"
		 "name = pi-classic\n"
		 "duration = %" PRIu64 "ns\n"
		 "[resource M]\n"
		 "protocol = %s\n"
		 "ceiling = %" PRId64 "\n"
		 "[task low]\n"
		 "class = fifo:%" PRId64 "\n"
		 "cpu = %d\n"
		 "body = lock M, signal held, run %" PRIu64 "ns, unlock M\n"
		 "[task high]\n"
		 "class = fifo:%" PRId64 "\n"
		 "cpu = %d\n"
		 "offset = %" PRIu64 "ns\n"
		 "body = wait held, signal go, lock M, signal got, unlock M\n"
		 "[task medium]\n"
		 "class = fifo:%" PRId64 "\n"
		 "cpu = %d\n"
		 "activation = event\n"
		 "on = go\n"
		 "body = spin %" PRIu64 "ns until got\n",
		 cfg->common.duration_ns,
		 cfg->ignore_protocol ? "none" : proto_names[protocol],
		 cfg->prio_high, cfg->prio_low, cpu, cfg->cs_ns, cfg->prio_high,
		 cpu, cfg->cs_ns / 4, cfg->prio_medium, cpu, cfg->hog_ns);
	return il_scenario_parse(job, "pi-classic", sc, err, len);
}

/*
 * One protocol: calibrate, run the scenario for --duration, judge high's
 * waits.  Returns 0, or a negative errno with why filled.
 */
/* --live: high's waits as they come, and the verdict forming */
struct live_ctx {
	struct il_live live;
	char title[96];
	int hi, lo, m;
	struct il_bound_input in;
};

static void live_frame(void *arg, const struct il_engine_result *er)
{
	struct live_ctx *lc = arg;
	const struct il_task_result *high = &er->tasks[lc->hi];
	const struct il_task_result *low = &er->tasks[lc->lo];
	struct il_live_row rows[3];
	struct il_check c;
	size_t n;
	uint64_t L = low->hold_max[lc->m];

	memset(rows, 0, sizeof(rows));
	n = __atomic_load_n(&high->locks[0]->nsamples, __ATOMIC_ACQUIRE);
	lc->in.bound_ns = L;
	/* no verdict so far (NONE) when the check cannot run */
	if (il_check_blocking(&lc->in, high->locks[0]->samples, n, &c))
		c.verdict = IL_NONE;
	snprintf(rows[0].name, sizeof(rows[0].name), "high blocked");
	rows[0].h = &high->locks[0]->blocked;
	snprintf(rows[0].verdict, sizeof(rows[0].verdict), "%s so far",
		 il_verdict_name(c.verdict));
	snprintf(rows[1].name, sizeof(rows[1].name), "high wakeup");
	rows[1].h = &high->wakeup;
	snprintf(rows[2].name, sizeof(rows[2].name), "low section (CPU)");
	rows[2].h = low->hold[lc->m];
	il_live_frame(&lc->live, lc->title, rows, rows[2].h ? 3 : 2);
}

static int run_protocol(const struct cfg *cfg, int cpu, int protocol,
			struct result *res, char *why, size_t len)
{
	struct live_ctx lc;
	struct il_sched hi = { .policy = IL_SCHED_FIFO,
			       .prio = (int)cfg->prio_high };
	struct il_engine_opts eo = { .stop = &demo_stop };
	struct il_engine_result er;
	struct il_bound_input in = { 0 };
	struct il_scenario sc;
	struct il_lock_result *lr;
	struct il_task_result *low, *high;
	const struct il_wait_sample *smp;
	struct il_wait_sample *tmp;
	struct il_attr_summary as;
	int ret, m, ceiling[1];
	uint64_t L, eps = 0;

	res->protocol = protocol;
	res->expected = (protocol == P_NONE || cfg->ignore_protocol) ? IL_FAIL
								     : IL_PASS;
	ret = build(&sc, cfg, cpu, protocol, why, len);
	if (ret) {
		il_scenario_free(&sc);
		return -EIO;
	}
	/*
	 * The noise allowance: idle wakeup latency of a thread at high's
	 * priority on the same CPU, just before the run.  1000 samples, p90:
	 * a few host stalls during calibration do not widen it; steal and
	 * interrupts during the run are removed round by round anyway.
	 */
	ret = il_engine_calibrate(cpu, &hi, 1000, 200 * IL_NSEC_PER_USEC,
				  &demo_stop, &res->calib, why, len);
	if (ret) {
		il_scenario_free(&sc);
		return ret;
	}
	if (il_hist_percentile_upper(&res->calib, 0.90, &eps))
		eps = res->calib.count ? res->calib.max : 0;
	if (cfg->common.live) {
		memset(&lc, 0, sizeof(lc));
		il_live_init(&lc.live, stdout, -1);
		snprintf(lc.title, sizeof(lc.title), "pi-classic: %s, run %d",
			 proto_names[protocol], res->repeat);
		lc.hi = il_scenario_task(&sc, "high");
		lc.lo = il_scenario_task(&sc, "low");
		lc.m = il_scenario_resource(&sc, "M");
		lc.in.noise_ns = eps;
		lc.in.min_samples = 20;
		lc.in.bound_name = "bound";
		eo.progress = live_frame;
		eo.progress_ctx = &lc;
	}
	ret = il_engine_run(&sc, &eo, &er, why, len);
	if (cfg->common.live)
		il_live_end(&lc.live);
	if (ret) {
		il_scenario_free(&sc);
		return ret;
	}
	m = il_scenario_resource(&sc, "M");
	low = &er.tasks[il_scenario_task(&sc, "low")];
	high = &er.tasks[il_scenario_task(&sc, "high")];
	lr = high->locks[0];

	res->blocked = lr->blocked;
	res->delay = lr->delay;
	res->wakeup = high->wakeup;
	if (low->hold[m])
		res->hold = *low->hold[m];
	else
		il_hist_init(&res->hold);
	res->late = lr->late;
	res->rounds = lr->nsamples;
	res->steal_ns = er.steal_ns;
	snprintf(res->placement, sizeof(res->placement), "%s", er.placement);

	/* one lower task, one lock: both bounds are its longest section,
	 * measured (low's CPU time from lock to unlock) */
	L = low->hold_max[m] ? low->hold_max[m] : cfg->cs_ns;
	ceiling[0] = (int)cfg->prio_high;
	if (protocol == P_PROTECT) {
		in.bound_name = "immediate priority ceiling (one CPU)";
		in.bound_ns = il_ceiling_bound(&L, ceiling, (int)cfg->prio_high,
					       1, 1);
	} else {
		in.bound_name = "priority inheritance (one CPU)";
		in.bound_ns = il_pi_bound(&L, 1, 1);
	}
	in.noise_ns = eps;
	in.min_samples = 20;
	in.outlier_ns = demo_outlier_ns(&res->calib, in.bound_ns);
	/* on the scheduler's trace when there is one (attrib.h) */
	smp = il_attr_judged(&sc, &er, il_scenario_task(&sc, "high"), &tmp,
			     &as);
	/* fails closed: no verdict (NONE), the reason in the evidence */
	if (il_check_blocking(&in, smp, lr->nsamples, &res->check))
		fprintf(stderr, "pi-classic: %s\n", res->check.evidence);
	else
		il_attr_append(res->check.evidence, sizeof(res->check.evidence),
			       &as, er.trace_note, "high",
			       99 - (int)cfg->prio_high);
	il_blocking_stats(&in, smp, lr->nsamples, &res->st);
	free(tmp);
	if (er.hung)
		snprintf(res->check.evidence + strlen(res->check.evidence),
			 sizeof(res->check.evidence) -
				 strlen(res->check.evidence),
			 "; the run was stopped: %s", er.hung_why);
	res->ran = true;
	il_engine_result_free(&er);
	il_scenario_free(&sc);
	return 0;
}

static void print_text(FILE *f, const struct cfg *cfg, struct result *res,
		       int nres, const char *prefix)
{
	struct il_table t;
	char a[24], b[24], c[24], d[24], e[24], g[24], x[24], tag[16];

	il_table_init(&t);
	il_table_col(&t, "protocol", false);
	il_table_col(&t, "rounds", true);
	il_table_col(&t, "blocked p50", true);
	il_table_col(&t, "p99", true);
	il_table_col(&t, "p999", true);
	il_table_col(&t, "max", true);
	il_table_col(&t, "wakeup p99", true);
	il_table_col(&t, "p999", true);
	il_table_col(&t, "bound", true);
	il_table_col(&t, "verdict", false);
	for (int i = 0; i < nres; i++) {
		struct result *r = &res[i];

		if (!r->ran)
			continue;
		il_format_stat(a, sizeof(a), &r->blocked, 0.5);
		il_format_stat(b, sizeof(b), &r->blocked, 0.99);
		il_format_stat(c, sizeof(c), &r->blocked, 0.999);
		il_format_stat(d, sizeof(d), &r->blocked, -1);
		il_format_stat(e, sizeof(e), &r->wakeup, 0.99);
		il_format_stat(g, sizeof(g), &r->wakeup, 0.999);
		il_format_duration(x, sizeof(x), r->check.bound_ns);
		il_table_cell(&t, "%s%s", proto_names[r->protocol],
			      demo_run_tag(cfg->common.repeat, r->repeat, tag,
					   sizeof(tag)));
		il_table_cell(&t, "%zu", r->rounds);
		il_table_cell(&t, "%s", a);
		il_table_cell(&t, "%s", b);
		il_table_cell(&t, "%s", c);
		il_table_cell(&t, "%s", d);
		il_table_cell(&t, "%s", e);
		il_table_cell(&t, "%s", g);
		il_table_cell(&t, "%s", x);
		il_table_cell(
			&t, "%s%s", il_verdict_name(r->check.verdict),
			r->check.verdict == r->expected ? "" : " (unexpected)");
	}
	/* with --tap the table becomes diagnostics */
	if (!cfg->common.quiet && nres)
		il_table_print_prefixed(&t, f, prefix);
	il_table_free(&t);
	for (int i = 0; i < nres; i++) {
		struct result *r = &res[i];
		char steal[24];

		if (!r->ran)
			continue;
		il_format_duration(steal, sizeof(steal), r->steal_ns);
		fprintf(f, "%s%s%s: %s, expected %s: %s\n", prefix,
			proto_names[r->protocol],
			demo_run_tag(cfg->common.repeat, r->repeat, tag,
				     sizeof(tag)),
			il_verdict_name(r->check.verdict),
			il_verdict_name(r->expected), r->check.evidence);
		if (!cfg->common.quiet)
			fprintf(f,
				"%s  %s; bound = longest critical section "
				"measured; noise = p90 idle wakeup latency "
				"(%" PRIu64 " samples); steal on the CPU %s; "
				"%zu round(s) with a late holder not judged\n",
				prefix, r->check.bound_name, r->calib.count,
				steal, r->late);
	}
}

static void write_json(struct il_json *j, const struct cfg *cfg, int cpu,
		       struct result *res, int nres)
{
	il_json_begin_object(j, "scenario");
	il_json_int(j, "cpu", cpu);
	il_json_uint(j, "cs_ns", cfg->cs_ns);
	il_json_uint(j, "hog_ns", cfg->hog_ns);
	il_json_uint(j, "lead_ns", cfg->cs_ns / 4);
	il_json_int(j, "prio_low", cfg->prio_low);
	il_json_int(j, "prio_medium", cfg->prio_medium);
	il_json_int(j, "prio_high", cfg->prio_high);
	il_json_uint(j, "duration_ns", cfg->common.duration_ns);
	il_json_int(j, "repeat", cfg->common.repeat);
	il_json_bool(j, "ignore_protocol", cfg->ignore_protocol);
	il_json_end_object(j);
	il_json_bool(j, "interrupted", demo_signal != 0);
	il_json_begin_array(j, "runs");
	for (int i = 0; i < nres; i++) {
		struct result *r = &res[i];

		if (!r->ran)
			continue;
		il_json_begin_object(j, NULL);
		/* "configuration" names the run for compare and gate tools */
		il_json_str(j, "configuration", proto_names[r->protocol]);
		il_json_str(j, "protocol", proto_names[r->protocol]);
		il_json_int(j, "repeat", r->repeat);
		il_json_check(j, &r->check);
		il_json_str(j, "expected", il_verdict_name(r->expected));
		il_json_uint(j, "rounds", r->rounds);
		il_json_uint(j, "rounds_late_holder", r->late);
		demo_json_blocking(j, &r->st);
		il_json_uint(j, "steal_ns", r->steal_ns);
		il_json_str(j, "placement", r->placement);
		il_json_hist(j, "blocked_ns", &r->blocked);
		il_json_hist(j, "wakeup_ns", &r->wakeup);
		il_json_hist(j, "release_to_lock_ns", &r->delay);
		il_json_hist(j, "holder_cs_cpu_ns", &r->hold);
		il_json_hist(j, "calibration_wakeup_ns", &r->calib);
		il_json_end_object(j);
	}
	il_json_end_array(j);
}

/* what the JSON body needs, for demo_write_json */
struct json_ctx {
	const struct cfg *cfg;
	int cpu;
	struct result *res;
	int nres;
};

static void json_body(struct il_json *j, void *arg)
{
	struct json_ctx *c = arg;

	write_json(j, c->cfg, c->cpu, c->res, c->nres);
}

int main(int argc, char **argv)
{
	static const char summary[] =
		"The classic three-task priority inversion under the pthread "
		"mutex protocols none, inherit and protect, judged against the "
		"priority-inheritance and priority-ceiling bounds.  Needs "
		"CAP_SYS_NICE (SCHED_FIFO).  Exit status: 0 every verdict as "
		"expected, 1 otherwise, 2 bad usage, 77 cannot run here, 99 "
		"broken setup, 128+N interrupted by signal N.";
	struct result *res;
	struct il_sysinfo si;
	struct il_run_info ri = { .program = "pi-classic",
				  .argc = argc,
				  .argv = argv };
	struct json_ctx jc;
	struct cfg cfg;
	char err[512], tag[16];
	int ret, cpu, nres = 0, rc = 0, first, last, pos;

	memset(&cfg, 0, sizeof(cfg));
	ret = demo_args(argc, argv, tables, &cfg, "pi-classic", "[OPTIONS]",
			summary, 0, &pos);
	if (ret >= 0)
		return ret;
	if (!(cfg.prio_low < cfg.prio_medium &&
	      cfg.prio_medium < cfg.prio_high)) {
		fprintf(stderr,
			"pi-classic: priorities must rise low < medium < high "
			"(got %" PRId64 ", %" PRId64 ", %" PRId64 ")\n",
			cfg.prio_low, cfg.prio_medium, cfg.prio_high);
		return 2;
	}
	cpu = cfg.cpu < 0 ? il_cpu_last_online() : (int)cfg.cpu;
	if (cpu < 0 || !il_cpu_is_online(cpu)) {
		fprintf(stderr,
			"pi-classic: --cpu: CPU %" PRId64
			" is not online (see /sys/devices/system/cpu/online)\n",
			cfg.cpu);
		return 2;
	}
	ret = il_sched_probe_rt((int)cfg.prio_high, err, sizeof(err));
	if (ret)
		return demo_skip(&cfg.common, "pi-classic", err);
	if (il_lock_memory(err, sizeof(err)) && !cfg.common.quiet)
		fprintf(stderr, "pi-classic: note: %s\n", err);

	clock_gettime(CLOCK_REALTIME, &ri.start);
	il_sysinfo_read(&si);
	ri.sys = &si;
	/* signals go to this thread only: the RT threads never see them */
	demo_signals();

	/* keep the orchestrator off the test CPU when there is another */
	{
		int cpus[IL_MAX_CPUS], n = il_cpu_online(cpus, IL_MAX_CPUS);

		for (int i = 0; i < n; i++)
			if (cpus[i] != cpu && il_pin_cpu(0, cpus[i]) == 0)
				break;
	}

	first = cfg.protocol == P_ALL ? P_NONE : cfg.protocol;
	last = cfg.protocol == P_ALL ? P_PROTECT : cfg.protocol;
	if (!cfg.common.quiet && !cfg.common.tap) {
		char cs[24], hog[24];

		il_format_duration(cs, sizeof(cs), cfg.cs_ns);
		il_format_duration(hog, sizeof(hog), cfg.hog_ns);
		printf("pi-classic: SCHED_FIFO threads on CPU %d: low (prio "
		       "%" PRId64 ") holds the mutex for %s of CPU, high (prio "
		       "%" PRId64 ") requests it, medium (prio %" PRId64
		       ") spins up to %s%s\n",
		       cpu, cfg.prio_low, cs, cfg.prio_high, cfg.prio_medium,
		       hog,
		       cfg.ignore_protocol ? "; protocols IGNORED (self-test)"
					   : "");
		demo_kernel_line(stdout, &si);
		fflush(stdout);
	}
	res = calloc((size_t)(3 * cfg.common.repeat), sizeof(*res));
	if (!res) {
		fprintf(stderr, "pi-classic: out of memory\n");
		return 99;
	}
	for (int i = 0; i < 3 * cfg.common.repeat; i++)
		il_hist_init(&res[i].calib);
	for (int k = 0;
	     k < cfg.common.repeat * (last - first + 1) && !demo_signal; k++) {
		int p = first + k % (last - first + 1);

		res[nres].repeat = 1 + k / (last - first + 1);
		ret = run_protocol(&cfg, cpu, p, &res[nres], err, sizeof(err));
		if (ret == -EPERM || ret == -EBUSY || ret == -EINVAL) {
			rc = demo_skip(&cfg.common, "pi-classic", err);
			break;
		}
		if (ret) {
			fprintf(stderr, "pi-classic: %s\n", err);
			rc = 99;
			break;
		}
		if (res[nres].check.verdict != res[nres].expected)
			rc = 1;
		nres++;
	}
	if (demo_signal)
		rc = 128 + demo_signal;

	if (cfg.common.tap && rc != 77) {
		printf("TAP version 13\n1..%d\n", nres);
		print_text(stdout, &cfg, res, nres, "# ");
		for (int i = 0; i < nres; i++) {
			char desc[160];

			snprintf(desc, sizeof(desc), "%s%s: %s (expected %s)",
				 proto_names[res[i].protocol],
				 demo_run_tag(cfg.common.repeat, res[i].repeat,
					      tag, sizeof(tag)),
				 il_verdict_name(res[i].check.verdict),
				 il_verdict_name(res[i].expected));
			il_tap_result(stdout,
				      res[i].check.verdict == res[i].expected,
				      i + 1, desc, NULL);
		}
	} else if (rc != 77) {
		print_text(stdout, &cfg, res, nres, "");
	}
	if (demo_signal)
		fprintf(stderr,
			"pi-classic: interrupted by signal %d; "
			"results so far written\n",
			(int)demo_signal);
	if (cfg.common.json && rc != 77) {
		jc = (struct json_ctx){ &cfg, cpu, res, nres };
		rc = demo_write_json("pi-classic", cfg.common.json, &ri,
				     json_body, &jc, rc);
	}
	free(res);
	return rc;
}
