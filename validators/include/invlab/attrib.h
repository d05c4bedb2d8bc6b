/* SPDX-License-Identifier: MIT */
/*
 * Who ran while a waiter waited, from the scheduler's trace (trace.h):
 * the attribution of every wait (docs/theory.md section 6, "The
 * scheduler's trace").  Pure functions over plain records, like
 * validate.h: they never measure, print or exit.
 *
 * Over each wait interval (release -> acquired) and each CPU looked at
 * (the possible holders' and the waiter's), the time of every task that
 * ran is put in one of:
 *
 *   holder   a task of the scenario that can hold the awaited lock
 *            (directly, or through the locks its owners wait for): the
 *            blocking the protocol bounds
 *   lower    another task of the scenario ranked below the waiter: an
 *            inversion
 *   higher   a task of the scenario ranked at or above the waiter
 *   fhigh    a foreign task (not the scenario's: told by thread id) at or
 *            above the waiter's priority: interference, which no locking
 *            protocol prevents; reported by name, not counted
 *   flow     a foreign real-time or deadline task below the waiter: an
 *            inversion by a task outside the scenario, counted and named
 *   fair     a foreign fair-class task under a real-time waiter, while
 *            the holder waiting there to run was itself real time (its
 *            own class or boosted): it ran on the fair server's or RT
 *            throttling's budget, interference, counted up to that
 *            budget (IL_ATTR_FAIR_RUNTIME_NS in every
 *            IL_ATTR_FAIR_PERIOD_NS of the wait) and as flow beyond it;
 *            while the holder was still fair class (never boosted), the
 *            foreign fair task ran in its place by the kernel's choice:
 *            flow
 *   idle, waiter
 *
 * The attributed sample keeps delay and timed_out; its lower time is
 * lower + flow, and its foreign time is the delay less what is counted
 * (holder + lower + flow), never below 0: so il_check_blocking() judges
 * on the kernel's account instead of the tasks' CPU clocks.  Its unseen
 * time (verdict.h) is the part of lower + flow in which the CPU that ran
 * the lower task made no record of its own (a switch, a run-time
 * account) for more than tick_ns, less one tick: time the host may have
 * held that vCPU; the rest the CPU, ticking, shows the kernel chose.
 * A wait the trace does not cover (before it started, after it stopped,
 * no start time) keeps its inferred values.
 */
#ifndef INVLAB_ATTRIB_H
#define INVLAB_ATTRIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <invlab/engine.h>
#include <invlab/scenario.h>
#include <invlab/trace.h>
#include <invlab/verdict.h>

enum il_attr_role {
	IL_ROLE_HIGHER = 0, /* at or above the waiter (the zero value) */
	IL_ROLE_WAITER,
	IL_ROLE_HOLDER,
	IL_ROLE_LOWER,
};

/* a task of the scenario, by the thread id it ran as */
struct il_attr_task {
	int tid;
	enum il_attr_role role;
	int cpu; /* the one CPU it is pinned to, or -1 */
};

struct il_attr_input {
	const struct il_attr_task *tasks;
	size_t ntasks;
	/* the waiter's rank: 200 deadline, 100 + prio real time, 0 fair
	 * (as the judge ranks tasks) */
	int waiter_rank;
	/* the waiter's own running time is part of the wait and counted:
	 * a kernel call's latency includes the waiter's own section */
	bool count_waiter;
	/* the lock promises a holder the waiter's priority (a PI or
	 * ceiling pthread mutex; not a kernel mutex, not `none`): a fair
	 * holder still fair while a foreign fair task runs in its place was
	 * not boosted, and that time is the kernel's (flow) */
	bool boosts;
	/* 1/HZ of the kernel under test: a busy CPU records a run-time
	 * account at least this often (0: not known, no lower time is
	 * witnessed) */
	uint64_t tick_ns;
};

/* the kernel's default budget for fair tasks under real-time load: the
 * fair server's (6.12 on) and RT throttling's (950 ms of each second
 * for real time) */
#define IL_ATTR_FAIR_RUNTIME_NS 50000000ull
#define IL_ATTR_FAIR_PERIOD_NS	1000000000ull
/* the fair time a wait of d ns may hold on that budget: one runtime for
 * every period it spans, and one more */
uint64_t il_attr_fair_budget(uint64_t d);

/* the rank of a kernel priority, on the judge's scale */
int il_attr_rank(int kprio);
/* a class and priority as the kernel's priority (what the trace shows) */
int il_attr_kprio(const struct il_sched *s);

/*
 * Attribute the n waits s[] with the trace t into out[] (n entries; may
 * be s itself) and sum.  Returns 0; -ENOTSUP with sum->note saying why
 * when the trace cannot be used (events lost, a holder or the waiter not
 * pinned to one CPU, no waiter among the tasks): out[] is then a copy of
 * s[]; -EINVAL on bad arguments; -ENOMEM.
 */
int il_attribute(const struct il_attr_input *in, const struct il_trace *t,
		 const struct il_wait_sample *s, size_t n,
		 struct il_wait_sample *out, struct il_attr_summary *sum);

/*
 * The roles of a scenario's tasks for waiter w waiting on resource res:
 * holders are the tasks ranked below w that lock res or a lock a holder
 * requests while holding one; other tasks below are lower, the rest
 * higher.  For a kernel mutex (res called, not locked: kmutex.h) the
 * holders are the other tasks that call res and every other task of the
 * scenario is lower, whatever its rank: the kmutex bounds account for
 * the scenario's load (the hogs), so its time is counted; the waiter's
 * own time is counted too (il_attribute_run and il_attr_judged set
 * count_waiter).  Fills n = sc->ntasks entries of tasks from er (tid,
 * cpu).
 */
void il_attr_roles(const struct il_scenario *sc,
		   const struct il_engine_result *er, int w, int res,
		   struct il_attr_task *tasks);

/*
 * For every task's first lock of a job with samples: attribute its
 * waits from er->trace into lr->traced and lr->attr; and for every
 * periodic task, each job's foreign time (engine.h, job_foreign_seq).
 * Nothing to do without a trace.  0 or -ENOMEM.
 */
int il_attribute_run(const struct il_scenario *sc, struct il_engine_result *er);

/*
 * For every deadline task (by its reservation: declared[i] when given,
 * else the scenario's class), each missed job's EDF inversion
 * (engine.h, job_later_seq): the CPU time that tasks of the set ranked
 * below it ran while it waited to run (attrib.c says how).  Nothing
 * without a trace, or with one that lost events.  run_witness: the
 * trace's run-time accounts may show where a CPU stalled
 * (il_trace_stalls_runtime; only for a kernel known to leave its own
 * interrupts in a task's run time, il_judge_env.run_witness).  0 or
 * -ENOMEM.
 */
int il_attribute_edf(const struct il_scenario *sc,
		     const struct il_sched *const declared[IL_MAX_TASKS],
		     struct il_engine_result *er, bool run_witness);

/*
 * The waits a check of task i's first lock judges: lr->traced when
 * il_attribute_run() filled it; else attributed now from er->trace into
 * *tmp (the caller frees it); else lr->samples as inferred.  sum receives
 * the attribution (sum->traced == 0: none, sum->note why).  NULL when
 * task i has no lock result.
 */
const struct il_wait_sample *il_attr_judged(const struct il_scenario *sc,
					    const struct il_engine_result *er,
					    int i, struct il_wait_sample **tmp,
					    struct il_attr_summary *sum);

/*
 * Append to a check's evidence what the waits were judged on: the
 * trace's account (il_attr_text), or "trace not used (<why>): inferred
 * from the tasks' CPU clocks", or "inferred from the tasks' CPU clocks:
 * <note>" (note is er->trace_note: "no trace (...)"), or "no trace:
 * inferred from the tasks' CPU clocks" without a note.
 */
void il_attr_append(char *evidence, size_t len, const struct il_attr_summary *a,
		    const char *note, const char *waiter, int wprio);

/*
 * What the trace says about one waiter's waits, for people: the foreign
 * tasks that ran inside them, e.g. "trace: 7 waits delayed by fhog (pid
 * 123, FIFO 50): 12.4ms, higher priority than high (FIFO 30):
 * interference, not inversion", or "trace: holders 1.20s, nothing else
 * ran"; and whether a holder was boosted.  waiter names the task and
 * wprio is its kernel priority.
 */
void il_attr_text(const struct il_attr_summary *a, const char *waiter,
		  int wprio, char *buf, size_t len);

/*
 * The foreign tasks of il_attr_text alone, each clause starting with
 * "; " ("; 7 waits delayed by fhog (pid 123, FIFO 50): ..."), or
 * "; no foreign task ran": for checks where a boost is not the
 * mechanism (kernel mutexes).
 */
void il_attr_foreign_text(const struct il_attr_summary *a, const char *waiter,
			  int wprio, char *buf, size_t len);

#endif
