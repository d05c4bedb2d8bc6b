/* SPDX-License-Identifier: MIT */
/*
 * Bounds for kernel-mutex inversion (docs/theory.md section 4, items 6, 7)
 * as pure functions of measured histograms and the kernel fingerprint,
 * and what each kernel is expected to give (docs/kmutex.md).
 *
 * Item 7, RT waiter: a SCHED_FIFO waiter on a kernel mutex whose CFS owner
 * sits behind an RT hog waits until the owner gets fair-class time: from
 * the fair server (6.12 and later: runtime Q in every period P, given at
 * the end of the period when real-time work starves the fair class), or
 * from RT throttling before it.  The owner that just missed a window waits
 * at most a period for the next one (the server's period restarts when it
 * stops and starts with the fair class emptying and filling, so P, not
 * P - Q), needs at most a tick to be picked and L to finish the section,
 * and needs ceil((L + tick) / Q) windows in all:
 *
 *   B = ceil((L + tick) / Q) * P + L + tick        (+ the waiter's wakeup)
 *
 * Item 6, CFS owner in a low-weight cgroup: a fair task with share s of a
 * CPU that becomes runnable waits about (q + L) / s to run its section,
 * q the scheduler's quantum (the larger of the base slice and the tick).
 * Without proxy execution the waiter waits for the owner at the owner's
 * share s_o; with it the owner runs on the waiter's share s_w:
 *
 *   B_w = (q + L) / s_w      B_o = (q + L) / s_o      rho = s_w / s_o
 *
 * The check puts its threshold at the geometric mean sqrt(B_w * B_o) =
 * B_w * sqrt(rho): waits that scale with the owner's share land above it,
 * waits that scale with the waiter's below, and the inversion factor
 * worst / B_w is about rho on a stock kernel and about 1 with proxy
 * execution.
 */
#ifndef INVLAB_KMUTEX_BOUNDS_H
#define INVLAB_KMUTEX_BOUNDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <invlab/attrib.h>
#include <invlab/engine.h>
#include <invlab/hist.h>
#include <invlab/judge.h>
#include <invlab/report-judge.h>
#include <invlab/scenario.h>
#include <invlab/sysinfo.h>
#include <invlab/verdict.h>

/* What gives a starved fair task CPU time on this kernel. */
struct il_fair_server {
	uint64_t runtime_ns; /* Q */
	uint64_t period_ns;  /* P */
	bool bounded;	     /* false: nothing does (judged against the
				default server, and expected to fail) */
	char source[128];    /* where Q and P come from, for people */
};

/* "6.18.44-fc-v782" -> 6, 18; 0, or -EINVAL */
int il_km_kernel_version(const char *release, int *major, int *minor);
/*
 * From the fingerprint: the fair server (>= 6.12) with debugfs values when
 * readable, else its defaults 50ms/1s; RT throttling before 6.12
 * (sched_rt_period_us - sched_rt_runtime_us per period); not bounded when
 * that is off (runtime -1).
 */
void il_km_fair_server_of(const struct il_sysinfo *si,
			  struct il_fair_server *fs);
/* B above; 0 when fs has no runtime */
uint64_t il_km_rt_waiter_bound(const struct il_fair_server *fs, uint64_t cs_ns,
			       uint64_t tick_ns);

struct il_rt_waiter_input {
	uint64_t bound_ns;  /* il_km_rt_waiter_bound */
	uint64_t noise_ns;  /* the waiter's wakeup latency (calibration) */
	uint64_t steal_ns;  /* host steal on the run's CPUs, whole run */
	uint64_t long_ns;   /* a wait above this counts as "starved" */
	size_t min_samples; /* fewer calls: UNDECIDED */
	int timed_out;	    /* a call outlived the run's timeout */
};
/*
 * Judge the waiter's call latencies: FAIL when the longest exceeds bound +
 * noise by more than the run's steal could explain (or a call timed out),
 * UNDECIDED when only steal could explain it or with too few calls, PASS
 * otherwise.  The evidence counts the starved waits.  0, or -EINVAL.
 */
int il_km_check_rt_waiter(const struct il_rt_waiter_input *in,
			  const struct il_hist *blocked,
			  struct il_check *out) IL_MUST_CHECK;

struct il_share_input {
	double w_waiter;     /* top-level weights on the owner's CPU: */
	double w_owner;	     /* the waiter, the owner's group or task, */
	double w_others;     /* and everything else runnable there */
	uint64_t quantum_ns; /* q */
	uint64_t cs_ns;	     /* L: the uncontended cost of the section */
	uint64_t noise_ns;   /* host steal on the run's CPUs, whole run */
	size_t min_samples;  /* fewer waits: UNDECIDED */
	size_t min_exceed;   /* fewer waits above the threshold: UNDECIDED */
};

/* What il_km_check_share derived, for reports. */
struct il_share_stats {
	double s_waiter, s_owner, rho;
	uint64_t b_waiter_ns, b_owner_ns, threshold_ns;
	uint64_t exceed; /* waits above the threshold */
	double factor;	 /* worst / b_waiter */
};
/* cgroup weight on the v2 scale -> the kernel's load weight (100: 1024) */
double il_km_weight_load(unsigned cpu_weight);
void il_km_share_stats(const struct il_share_input *in, const struct il_hist *h,
		       struct il_share_stats *st);
/*
 * Judge the waiter's waits against the share threshold: FAIL when at
 * least min_exceed waits exceed it and the excess is more than the run's
 * steal (however few waits there were: an inversion makes waits few),
 * UNDECIDED when fewer do (or steal explains them) or when rho < 4 (the
 * two hypotheses are too close to tell apart), PASS when none does and
 * there were at least min_samples waits.  0, or -EINVAL.
 */
int il_km_check_share(const struct il_share_input *in, const struct il_hist *h,
		      struct il_check *out) IL_MUST_CHECK;

/* The configurations whose verdict depends on the kernel */
enum il_km_expect_case {
	IL_KM_CASE_CONTENTION, /* the recipe contends: PASS everywhere */
	IL_KM_CASE_THROTTLED,  /* same CPU, low-weight owner */
	IL_KM_CASE_CROSS_CPU,  /* owner starved on another CPU */
	IL_KM_CASE_RT_WAITER,  /* FIFO waiter, CFS owner, RT hog */
};
/*
 * Proxy (donor) migration: a donor blocked on a mutex whose owner is
 * queued on another CPU is moved to the owner's CPU, so that the owner
 * runs on the donor's scheduling context there, and goes back when it
 * wakes (proxy_migrate_task() and proxy_needs_return() in
 * kernel/sched/core.c).  The single-runqueue proxy execution of 6.17
 * does not do it: a donor whose owner is elsewhere is dequeued.
 *
 * The first release known here to have it: 7.2 (7.2.13's source has
 * both).  The series ("Simple Donor Migration", v26) was queued for
 * the merge window after 7.0, so 7.1 may have it too; no 7.1 tree was
 * at hand to check, so a 7.1 kernel is taken as without it (say
 * --donor-migration yes for one that has it).
 */
#define IL_KM_DONOR_MIGRATION_MAJOR 7
#define IL_KM_DONOR_MIGRATION_MINOR 2
/* --donor-migration, in its choices' order: the zero value decides */
enum il_km_donor {
	IL_KM_DONOR_AUTO = 0, /* from the fingerprint */
	IL_KM_DONOR_YES,      /* the tester says it migrates donors */
	IL_KM_DONOR_NO,	      /* the tester says it does not */
};
/*
 * Does this kernel migrate blocked donors?  IL_KM_DONOR_YES or _NO (the
 * tester said so) wins; IL_KM_DONOR_AUTO decides from the
 * fingerprint: no when proxy execution is not built
 * (config_proxy_exec 0) or the release cannot be read, yes from release
 * IL_KM_DONOR_MIGRATION_MAJOR.MINOR on.  why says which, in a phrase.
 */
bool il_km_donor_migration(const struct il_sysinfo *si, int override, char *why,
			   size_t len);

/*
 * The verdict this kernel should give, and why in one phrase:
 *   throttled   FAIL without proxy execution, PASS with it;
 *   cross-cpu   PASS only with proxy execution that migrates donors
 *               (il_km_donor_migration(si, donor_migration): the
 *               fingerprint, or the tester's override);
 *   rt-waiter   PASS where a fair server or RT throttling bounds it;
 *   contention  PASS.
 * An unknown proxy-execution state is taken as off, and says so.
 */
enum il_verdict il_km_expect(enum il_km_expect_case c,
			     const struct il_sysinfo *si, int donor_migration,
			     char *why, size_t len);

/* ------------------------------------------------------------------ */
/* Judging one configuration of the kmutex demo                        */
/* ------------------------------------------------------------------ */

/* the demo's configurations, in its order */
enum il_km_config {
	IL_KM_CONFIG_ALONE,
	IL_KM_CONFIG_CONTENTION,
	IL_KM_CONFIG_LOAD,
	IL_KM_CONFIG_LOAD_CONTENTION,
	IL_KM_CONFIG_THROTTLED,
	IL_KM_CONFIG_CROSS_CPU,
	IL_KM_CONFIG_RT_WAITER,
	IL_KM_CONFIG_N,
};

/*
 * contention: the share of the waiter's calls slower than the
 * uncontended p90 (10 % when uncontended) that shows contention (PASS),
 * and below which there is none (FAIL); in between, weak evidence either
 * way (UNDECIDED)
 */
#define IL_KM_CONTENDS_FRAC	 0.25
#define IL_KM_NO_CONTENTION_FRAC 0.15
/* rt-waiter: a wait this long means the owner was starved */
#define IL_KM_STARVED_NS (10ull * 1000 * 1000)
/* fewer waits than this: UNDECIDED (share and rt-waiter) */
/* the rt-waiter check's bound_name (emulated.c tells it by this) */
#define IL_KM_BOUND_FAIR_SERVER "fair server (RT waiter, CFS owner, RT hog)"
#define IL_KM_MIN_SAMPLES	100
/* share: fewer waits above the threshold than this: UNDECIDED */
#define IL_KM_MIN_EXCEED 3

/* What one configuration's run measured and how it was set up. */
struct il_km_judge_input {
	enum il_km_config config;
	int via;		       /* enum il_km_via (kmutex.h) */
	int recipe;		       /* enum il_km_recipe (kmutex.h) */
	uint64_t cost_ns;	       /* uncontended cost of a call: median */
	uint64_t cost_p90_ns;	       /* and 90th percentile */
	const struct il_hist *blocked; /* the waiter's calls */
	uint64_t contender_calls;      /* the contender's (or owner's) */
	/* cgroup weights (v2 scale) of the contender and of the hogs */
	unsigned bg_weight, hog_weight;
	uint64_t quantum_ns; /* the larger of the base slice and the tick */
	uint64_t tick_ns;
	uint64_t steal_ns; /* host steal on the run's CPUs, whole run */
	uint64_t noise_ns; /* rt-waiter: the waiter's wakeup (p90) */
	const struct il_fair_server *fs;
	const struct il_sysinfo *si;
	int donor_migration; /* enum il_km_donor: the override, or auto */
	bool hung;	     /* a call outlived the run's timeout */
	const char *hung_why;
	/*
	 * The scheduler's trace (attrib.h), set by il_km_judge_run: attr
	 * NULL says nothing of a trace; attr without traced waits says why
	 * it was not used (attr->note, else trace_note).  traced[0..ntraced)
	 * are fg's calls as the trace attributes them: the share and
	 * rt-waiter checks then judge each call's delay less its foreign
	 * time (delay_ns - foreign_ns), instead of the calls' histogram.
	 */
	const struct il_attr_summary *attr;
	const struct il_wait_sample *traced;
	size_t ntraced;
	const char *trace_note;
	int waiter_kprio; /* fg's kernel priority, for the evidence */
};

/*
 * The share cases decided on the trace (il_km_judge): the covered waits,
 * those at least min_window_ns long (the waiter-share bound B_w), and
 * those in which the owner's side ran under cut (sqrt(s_o * s_w)) of the
 * time it could run, with their time and the owner's part of it; the
 * waits the trace did not cover, and of those the ones over the duration
 * threshold.
 */
struct il_km_trace_share {
	uint64_t covered, long_waits, inverted;
	uint64_t uncovered, uncovered_over;
	uint64_t min_window_ns, inv_window_ns, inv_own_ns;
	double cut;
};

/* The verdict of one configuration. */
struct il_km_judged {
	bool judged; /* false: measured only (alone, load, ...) */
	/*
	 * Judged for information: nothing is expected of this case here
	 * (expected is then IL_NONE, "info" in the expectation rule).
	 */
	bool informational;
	enum il_verdict expected;
	char expect_why[160];
	struct il_check check;
	struct il_share_stats share;	      /* throttled and cross-cpu */
	struct il_km_trace_share trace_share; /* and on the trace */
	/*
	 * From the trace (0 without one): the waits it covered, and those
	 * in which fg, the donor, was migrated to the owner's CPU and back
	 * (il_attr_summary.donor_migrated)
	 */
	uint64_t traced_waits, donor_migrated;
};

/*
 * Judge one configuration:
 *   contention (through system calls only: io_uring's hand-off to a
 *     worker dwarfs a short section): PASS when at least
 *     IL_KM_CONTENDS_FRAC of the waiter's calls are slower than the
 *     uncontended p90 (taken as at most twice the median), FAIL when
 *     the contender made no call, UNDECIDED otherwise (below
 *     IL_KM_NO_CONTENTION_FRAC the evidence says no contention was
 *     measured);
 *   throttled, cross-cpu: il_km_check_share (informational unless a plain
 *     rename through system calls, whose owner is known to be off the CPU
 *     in its section);
 *   rt-waiter: il_km_check_rt_waiter against the fair server.
 * With the trace's account (in->traced), share and rt-waiter judge the
 * calls with their foreign time taken off: a foreign task at or above
 * fg's priority is interference, not counted; a foreign real-time task
 * below an RT fg, the scenario's tasks (owner, hogs) and fg's own time
 * are counted.  The evidence then ends with what the trace showed, the
 * foreign tasks by name; contention is judged on the calls as measured
 * (foreign time only makes calls slower, which reads as contention).
 * Other configurations are measured only (out->judged false).  Returns 0,
 * or -EINVAL (bad input: out->judged false, the verdict IL_NONE, why in
 * the evidence) or the error of the check (the same).
 */
int il_km_judge(const struct il_km_judge_input *in,
		struct il_km_judged *out) IL_MUST_CHECK;

/*
 * The model of a kmutex run: its inputs from the scenario (the waiter
 * "fg", the contender "bg" or, in rt-waiter, "owner", the resource "K"
 * with its recipe and via, the cgroup weights of bg and of "hog1"), the
 * engine result (the costs of K, fg's calls, the contender's call count,
 * steal, a hang), the judge's environment (the tick; rt-waiter: fg's
 * idle wakeup calibration, whose p90 is the noise) and km (the
 * configuration, the quantum, donor migration, the fingerprint).  *fs
 * receives the fair server in->fs points to.  0, or -EINVAL with why.
 */
int il_km_model(const struct il_scenario *sc, const struct il_engine_result *er,
		const struct il_judge_env *env,
		const struct il_judge_kmutex *km, struct il_fair_server *fs,
		struct il_km_judge_input *in, char *why,
		size_t len) IL_MUST_CHECK;

/*
 * il_km_model then il_km_judge: the kmutex demo's judge and
 * invlab-judge's for its result files; fg's calls on the trace's
 * account when there is one (il_attr_judged: the run's lr->traced,
 * which the result file keeps as judge_inputs, else er->trace).  A judged
 * configuration gives one check, ck[0] (validator "kmutex", task "fg", expected
 * IL_NONE when informational) and *n = 1; a measured one *n = 0.  out receives
 * what il_km_judge derived.  0, or -EINVAL (*n 0, why said).
 */
int il_km_judge_run(const struct il_scenario *sc,
		    const struct il_engine_result *er,
		    const struct il_judge_env *env,
		    const struct il_judge_kmutex *km, struct il_judged *ck,
		    int *n, struct il_km_judged *out, char *why,
		    size_t len) IL_MUST_CHECK;

#endif
