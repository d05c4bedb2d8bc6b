/* SPDX-License-Identifier: MIT */
/*
 * The engine: runs a checked scenario (scenario.h) on the live kernel and
 * returns plain, merged measurements.  It owns placement, scheduling
 * classes, releases, the phases of every job, recording and the run's
 * time bound; demos only describe scenarios and judge the results.
 *
 * What is recorded, per task: wakeup latency (release -> running),
 * response time (release -> job end), CPU time per job, jobs and
 * deadline misses; per lock request, and per `call` of a kernel-mutex
 * resource (the system call's latency): blocked time (request ->
 * acquired) and one wait sample for the validators (validate.h):
 *
 *   delay    release of the job -> lock acquired (first lock of a job) or
 *            request -> acquired (later locks)
 *   lower    CPU time that lower-priority tasks which cannot hold the lock
 *            (directly or through a chain) got in that interval: the hog
 *   foreign  the part of delay not caused by lower-priority tasks: when
 *            every lower-priority task shares the waiter's single CPU,
 *            measured exactly from their CPU clocks (it is then the
 *            waiter's own time, higher-priority work, steal, interrupts);
 *            otherwise the steal time measured on the scenario's CPUs
 *            during the round
 *
 * and per task and resource, the CPU time of each critical section
 * (lock, work, unlock) as the holder saw it.
 *
 * CPU clocks are read so that they cannot be moving: each task reads only
 * its own, when it first sees a watched release time pass, and a waiter
 * reads others' at acquisition.
 */
#ifndef INVLAB_ENGINE_H
#define INVLAB_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include <invlab/counters.h>
#include <invlab/hist.h>
#include <invlab/probe.h>
#include <invlab/scenario.h>
#include <invlab/notes.h>
#include <invlab/trace.h>
#include <invlab/verdict.h>

/* job_later_seq of a missed job outside the trace's window */
#define IL_EDF_UNSEEN UINT64_MAX
/* the most CPUs whose steal a run keeps one by one */
#define IL_STEAL_CPUS 8

/* one lock phase's measurements */
struct il_lock_result {
	int res;		/* resource index */
	struct il_hist blocked; /* request -> acquired */
	struct il_hist delay;	/* see above */
	struct il_wait_sample *samples;
	size_t nsamples, cap;
	size_t late;	   /* not judged: an earlier `wait` slept */
	int exact_foreign; /* foreign time measured exactly (one CPU) */
	/*
	 * The same waits with foreign and lower time taken from the
	 * scheduler's trace (validators' il_attribute_run(), attrib.h), one
	 * per sample; NULL when there is no trace.  attr says who ran.
	 */
	struct il_wait_sample *traced;
	struct il_attr_summary attr;
};

/*
 * What the trace showed of a lock holder between its sections, the
 * deboost check's ledger (validators' il_attribute_run fills it, a result
 * file keeps it).  A gap runs from the return of the unlock that left the
 * task holding nothing to its next lock request; its first record is the
 * first switch (or priority change) of the task in it.
 */
struct il_deboost {
	uint64_t gaps;	      /* gaps whose first record the trace holds */
	uint64_t after_boost; /* of them, after a section it ran raised in */
	/* gaps whose first record is a switch showing the task above its
	 * own priority, with no priority change by the kernel since the
	 * unlock: the boost outlived every lock */
	uint64_t missed;
	uint64_t lost;		 /* events the trace lost (then no FAIL) */
	int32_t own_prio;	 /* its own kernel priority */
	int32_t missed_prio;	 /* the first missed gap's: what it ran at */
	uint64_t missed_at_ns;	 /* that record's time (CLOCK_MONOTONIC) */
	uint64_t missed_late_ns; /* and how long after the unlock it was */
	int traced;		 /* 1: filled from a trace */
};

/*
 * What the trace showed of where a task pinned to one CPU ran, the
 * affinity check's ledger (validators' il_attribute_run fills it, a
 * result file keeps it): from the run's start, its switches in, the
 * migrations that took it off its CPU (a proxy-execution donor moved to
 * its lock owner's CPU) and whether it next ran back on its own CPU.
 */
struct il_affinity {
	uint64_t runs;		  /* switches to it */
	uint64_t away;		  /* migrations off its CPU */
	uint64_t returned;	  /* of those, next run on its own CPU */
	uint64_t outside;	  /* runs on another CPU */
	int32_t cpu;		  /* its CPU */
	int32_t outside_cpu;	  /* the first run elsewhere: where */
	uint64_t outside_at_ns;	  /* and when (CLOCK_MONOTONIC) */
	uint64_t outside_late_ns; /* and how long after it was moved off its
				     CPU (0: not moved, as far as seen) */
	int traced;		  /* 1: filled from a trace */
};

struct il_task_result {
	char name[IL_NAME_MAX];
	int tid; /* its thread's id (0: never started) */
	/*
	 * "cpu 1", "cpus 0-1", "node 0 (cpus 0-3)", "any", "cpu 1
	 * (partition)"; on a machine of several nodes "cpu 1 (node 1)"; and
	 * " with memory on node 1" for a task with a node
	 */
	char placement[128];
	int cpu;	 /* the single CPU it was pinned to (or whose
			    partition it ran in), or -1 */
	int partitioned; /* ran in a cpuset partition (opts.partition) */
	uint64_t jobs, misses;
	struct il_hist wakeup, response, job_cpu;
	/* periodic tasks: each job's CPU time, in release order (the
	 * per-period consumption of a reservation) */
	uint64_t *job_cpu_seq;
	/* and when each of those jobs started running and ended
	 * (CLOCK_MONOTONIC ns): a job that runs past its period spreads its
	 * CPU time over the periods it spans */
	uint64_t *job_start_seq, *job_end_seq;
	uint64_t *job_rel_seq; /* and its release */
	/*
	 * From the trace: the time tasks outside the scenario ran on the
	 * task's CPU (not pinned: on every traced CPU) between each job's
	 * release and its end (NULL: not known).  A deadline miss no
	 * longer than this is the foreign tasks' doing.
	 */
	uint64_t *job_foreign_seq;
	/*
	 * And, for a deadline task's missed jobs, the CPU time that tasks of
	 * the set ranked below the job (no reservation, or a job of a later
	 * absolute deadline) ran while it waited to run, from the trace
	 * (il_attribute_edf; 0 for jobs that met their deadline; NULL: not
	 * known; IL_EDF_UNSEEN: a missed job the trace does not cover).  A
	 * miss is the kernel's doing when this is not 0.
	 */
	uint64_t *job_later_seq;
	/*
	 * And of that wait, the time its reservation was throttled by the
	 * kernel's rules (il_attribute_edf: a Q run, until its next period):
	 * the reservation's own time, not the kernel's choice (NULL: not
	 * known)
	 */
	uint64_t *job_throttled_seq;
	/*
	 * For a job released while the one before still ran (queued), the
	 * wait in which only the budget its reservation's model gives it
	 * (not renewed since the backlog began) would make the kernel's
	 * choice: the CPU idle, a lower class outside the set running.  Not
	 * in job_later_seq; the judge counts it only behind a queue the
	 * kernel's choice made (validators/model-mbwi.c).  NULL: not known.
	 */
	uint64_t *job_budget_seq;
	size_t njob_cpu, job_cpu_cap;
	/*
	 * A task that takes locks: its sections in order, when, holding
	 * none, it requested one (sect_from_seq) and when its unlock of the
	 * last it held returned (sect_to_seq), CLOCK_MONOTONIC; a section
	 * the run's stop cut short is not kept.  Not kept in lean runs.
	 * NULL: no lock phase.  deboost: what the trace showed between them.
	 */
	uint64_t *sect_from_seq, *sect_to_seq;
	size_t nsect, sect_cap;
	struct il_deboost deboost;
	struct il_affinity affinity; /* pinned to one CPU, with a trace */
	/*
	 * Only in a result read back without its trace (invlab-judge): the
	 * task's run-time accounts the trace held (naccounts; 0: none, no
	 * witness) and, of them, those longer than one tick, the only ones
	 * il_trace_late_ticks() counts (long_acct_ts[k], long_acct_run[k]).
	 */
	long naccounts;
	uint64_t *long_acct_ts, *long_acct_run;
	size_t nlong_acct;
	/*
	 * SCHED_DEADLINE tasks: the reservation's budget each job consumed,
	 * from dl.runtime and dl.deadline read at the job's start and end
	 * (dlstat.h, il_dl_budget_consumed); budget_unknown counts the jobs
	 * for which it cannot be told (the deadline moved by other than
	 * whole periods: a wake-up to a new deadline, a boost) or the file
	 * could not be read.  Each read costs about 8 us of the job's CPU
	 * time here (measured: docs/m-bwi.md).
	 */
	struct il_hist budget;
	uint64_t budget_unknown;
	/*
	 * And of each such job, the budget consumed beyond the job's own
	 * CPU time (0 when less): time the reservation paid for another
	 * task, as a proxy-execution donor pays for the lock owner it runs
	 * in its place.  Without proxy execution it stays near 0 (the
	 * reads' own cost, and an owner boosted by rt-mutex inheritance
	 * runs on its own runtime).  Not kept in lean runs.
	 */
	struct il_hist budget_lent;
	/* critical sections this task held, CPU time, per resource */
	struct il_hist *hold[IL_MAX_RESOURCES];
	uint64_t hold_max[IL_MAX_RESOURCES];
	/* their medians, as a result file keeps them (hold[] is not kept):
	 * il_engine_hold_p50() reads one or the other */
	uint64_t hold_p50[IL_MAX_RESOURCES];
	/*
	 * With il_engine_opts.boost_from: time from that task's lock request
	 * until this task was first seen running with a priority above its
	 * own (inherited), read from /proc/thread-self/stat.
	 */
	struct il_hist boost;
	/* lock phases of the body, in order */
	struct il_lock_result *locks[IL_MAX_PHASES];
	int nlocks;
	/* scheduler and CPU event counts of its thread over the measured
	 * part (counters.h), opened before it and read after */
	struct il_counts counters;
	/*
	 * A task with `node = N` (docs/job-files.md): its memory, one region
	 * bound to node N (membind.h) holding its thread's stack and the
	 * buffers above (job sequences, lock results and their samples, hold
	 * histograms), which are carved from it and freed with it, not with
	 * free().  NULL: none, those come from malloc.  After the run,
	 * mem_pages of it were present and mem_on_node of those on node N.
	 */
	void *mem;
	size_t mem_len;
	size_t mem_pages, mem_on_node;
};

/* what ended a run (il_engine_ended) */
enum il_run_end {
	IL_END_NONE,	 /* not run */
	IL_END_DURATION, /* its duration passed */
	IL_END_SAMPLES,	 /* it had its sample target */
	IL_END_STOPPED,	 /* il_engine_opts.stop was set */
	IL_END_HUNG,	 /* a wait exceeded the timeout */
};

struct il_engine_result {
	int ntasks;
	struct il_task_result tasks[IL_MAX_TASKS];
	uint64_t rounds;
	/*
	 * When round k was released and when its last job ended
	 * (CLOCK_MONOTONIC), at [k - 1], for the exported trace: noted by
	 * the caller's thread between rounds; nround_t is below rounds only
	 * when memory ran out.
	 */
	uint64_t *round_t, *round_end_t;
	size_t nround_t, round_t_cap;
	uint64_t steal_ns; /* on the scenario's CPUs, whole run */
	/* the longest a CPU's trace was silent (il_trace_silence), as a
	 * result file keeps it for a judge without the trace; 0: unknown */
	uint64_t trace_silence_ns;
	/* 1/HZ of the kernel that ran it (0: not known), for the
	 * attribution's witness of a CPU that ticked (attrib.h) */
	uint64_t tick_ns;
	uint64_t t_start_ns; /* the run's start, CLOCK_MONOTONIC: periodic
				releases are t_start + offset + k period */
	/*
	 * Runs without rounds: the steal time on the scenario's CPUs
	 * (cumulative, ns, from /proc/stat, so in steps of 1/USER_HZ) as it
	 * was at times steal_t (CLOCK_MONOTONIC), about every 10 ms from the
	 * start to the end (none when it could not be allocated); a late job is
	 * judged against the steal around it (validators see
	 * il_steal_between()).
	 */
	uint64_t *steal_t, *steal_v;
	size_t nsteal, steal_cap;
	/*
	 * The same timeline CPU by CPU, for the scenario's CPUs when it
	 * has at most IL_STEAL_CPUS of them (none for a run on every CPU
	 * or on more): CPU steal_cpu[c]'s cumulative steal at steal_t[k]
	 * is steal_cv[k * steal_ncpu + c] (il_steal_between_on()).
	 */
	int steal_ncpu;
	int steal_cpu[IL_STEAL_CPUS];
	uint64_t *steal_cv;
	uint64_t elapsed_ns;
	/*
	 * What ended the run, its bound (the duration) and its sample
	 * target (the scenario's `samples`; 0: none); samples is the count
	 * il_engine_samples() gave when it ended, of the task samples_of
	 * names ("high's waits").  The caller's thread checks the target
	 * between rounds, and every 10 ms in a run without rounds.
	 */
	enum il_run_end ended;
	uint64_t duration_ns, samples_target, samples;
	char samples_of[64];
	int hung;		  /* a wait exceeded the timeout: run stopped */
	char hung_why[160];	  /* which wait, for people */
	int stopped;		  /* *stop was set before the end */
	char placement[512];	  /* how tasks were placed, for people */
	char numa[64];		  /* "libnuma, 1 node", "sysfs, 2 nodes", ... */
	char lock_placement[128]; /* locks with a `node`: where they went */
	/* tasks with a `node`: where their memory was after the run,
	 * "head: node 0 (497 of 497 pages)", for people */
	char mem_placement[256];
	/*
	 * Kernel-mutex resources (kmutex.h): the uncontended cost of one
	 * call: the median, 90th percentile and mean of 200 calls 500 us
	 * apart on the CPUs of the first task that calls it, measured before
	 * and after the run, from the one with the lower median (0 for
	 * pthread mutexes); and where the recipe was set up.
	 */
	uint64_t kmutex_cost_ns[IL_MAX_RESOURCES];
	uint64_t kmutex_cost_p90_ns[IL_MAX_RESOURCES];
	uint64_t kmutex_cost_mean_ns[IL_MAX_RESOURCES];
	char kmutex_where[IL_MAX_RESOURCES][160];
	/* the tasks' cgroups: "bg: /sys/fs/cgroup/cpu/invlab-1/bg (v1,
	 * weight 10)"; removed again by the end of the run */
	char cgroups[256];
	/*
	 * Those groups by the scheduler's own accounts (cgacct.h), from
	 * just before the measured part to its threads' end (read while none
	 * of them runs, so no account lags): cg_charged_ns[g], what the kernel
	 * charged group cg_acct_name[g] (its entity's sum_exec_runtime on every
	 * CPU), and cg_own_ns[g], what its own tasks ran (their schedstat).
	 * With proxy execution a blocked donor's group pays for the owner run
	 * in its place: charged over own there, under it in the owner's group.
	 * ncg_acct is 0 when not read, and cg_acct_note says why.
	 */
	int ncg_acct;
	char cg_acct_name[IL_MAX_TASKS][64];
	uint64_t cg_charged_ns[IL_MAX_TASKS], cg_own_ns[IL_MAX_TASKS];
	char cg_acct_note[96];
	/* opts.partition: "cpu0 /sys/fs/cgroup/cpuset/invlab-1/cpu0 (v1)" */
	char partitions[256];
	/*
	 * The scheduler's trace of the measured part (trace.h), with
	 * --trace (il_trace_default()): NULL when there is none, and then
	 * trace_note says why ("no trace (tracing needs root ...)");
	 * otherwise it says how it was recorded.  The tasks' threads are
	 * named after them (15 characters) and their tid is in tasks[].tid.
	 */
	struct il_trace *trace;
	char trace_note[320];
	/* the tasks' counters added up (counters.h, il_counters_add) */
	struct il_counts counters;
	/* opts.probe: what the probe saw beside the measured part, or why
	 * it did not run (probe.h); NULL when none was asked for */
	struct il_probe_result *probe;
};

struct il_engine_opts {
	uint64_t duration_ns; /* 0: the scenario's */
	int *stop;	      /* set it (e.g. from a signal handler) to stop */
	/* name of the task whose first lock request of a job starts the
	 * boost clock of the lock holders below it; NULL: none */
	const char *boost_from;
	/*
	 * Partitioned EDF: every SCHED_DEADLINE task runs in a cpuset
	 * partition of one CPU (cgroup.h, il_cgroup_partitions), the one its
	 * `partition` key names, or the least loaded one by density, densest
	 * task first; the partitions are removed by the end of the run.
	 * Otherwise deadline tasks must be `cpu = any` (global EDF).
	 */
	int partition;
	/*
	 * Called from the caller's thread about once a second while the
	 * run goes on (--live), with a copy of the result as it is then,
	 * valid until the next call: every word whole, but the words taken
	 * one after another while the tasks go on (a count may be a job
	 * ahead of its histogram), so for display only.
	 */
	void (*progress)(void *ctx, const struct il_engine_result *res);
	void *progress_ctx;
	/* a probe beside the measured part (probe.h, --probe); NULL: none */
	const struct il_probe_opts *probe;
	/*
	 * --stage: the round (or job) notes->round is noted there, phase by
	 * phase, for a narration (notes.h); NULL: nothing is noted.
	 */
	struct il_stage_notes *notes;
	/*
	 * The task whose samples a sample target counts (the one a
	 * family's verdict is about: "high"); NULL or not in the scenario:
	 * the least of every task's (il_engine_samples).
	 */
	const char *samples_task;
};

/*
 * Run sc.  Returns 0 with res filled (also when stopped or hung: see
 * res->stopped and res->hung), -EPERM/-EBUSY/-EINVAL when a task cannot
 * get its class or placement (why says which task and why, in the terms
 * of il_sched_strerror), -EPERM also when a cgroup or a kernel-mutex
 * recipe cannot be set up here (no privilege, io_uring unavailable),
 * also when a cpuset partition cannot be made (no cpuset controller, the
 * kernel refused it), -ENODEV when the cpu cgroup controller is not
 * available, -EPERM when a resource asks for the priority-ceiling
 * protocol and this build has none (il_engine_protect_missing), or -errno
 * for other failures.  Groups and recipe files are removed before it
 * returns.
 */
int il_engine_run(const struct il_scenario *sc, const struct il_engine_opts *o,
		  struct il_engine_result *res, char *why, size_t len);

/*
 * NULL when this build has the priority-ceiling protocol
 * (PTHREAD_PRIO_PROTECT); otherwise why not, a sentence for a SKIP: the C
 * library has no pthread_mutexattr_setprioceiling (musl, older bionic).
 */
const char *il_engine_protect_missing(void);

/*
 * A result is large (a histogram per task and measure for IL_MAX_TASKS
 * tasks, some megabytes): too large for a thread's stack.  new gives a
 * zeroed one on the heap, or NULL; it can be run and freed any number of
 * times.  free releases what a run allocated in it (steal timeline, job
 * sequences, lock samples, hold histograms), not res itself, and leaves
 * it ready for another run; delete does both.  delete(NULL) does nothing.
 */
struct il_engine_result *il_engine_result_new(void);
void il_engine_result_free(struct il_engine_result *res);
/*
 * The median critical section task result r held resource res: from its
 * hold histogram in a run, from hold_p50 in a result read back (0: none).
 */
uint64_t il_engine_hold_p50(const struct il_task_result *r, int res);
void il_engine_result_delete(struct il_engine_result *res);

/*
 * The judged samples a run has so far, as its sample target counts them:
 * each task released again and again (round, event or periodic; not a
 * hog or a oneshot) has its judged waits (the samples of its first lock
 * phase: rounds whose holder came late are not judged) or, when it takes
 * no lock, its jobs; the run has the least of those, or task's own when
 * task >= 0 (il_engine_opts.samples_task).  The task that has
 * it goes to *who (-1: no such task, and 0 is returned) and *waits says
 * which of the two it counts.  Reads the counts atomically: the caller's
 * thread calls it while the tasks record.
 */
uint64_t il_engine_samples(const struct il_scenario *sc,
			   const struct il_engine_result *res, int task,
			   int *who, int *waits);
/* "duration", "samples", "stopped", "hung"; "" for IL_END_NONE */
const char *il_engine_end_name(enum il_run_end e);
/*
 * What ended the run, for people, into buf: "ended: 1000 samples (high's
 * waits) in 4.52s", "ended: duration 3s, 412 of 1000 samples (high's
 * waits)", "ended: duration 3s", "ended: stopped after 1.20s, 412 of
 * 1000 samples (high's waits)", "ended: hung after 2.00s".  Returns the
 * length snprintf gives.
 */
int il_engine_ended(const struct il_engine_result *res, char *buf, size_t len);

/*
 * Steal time on the scenario's CPUs between from and to, from the run's
 * timeline: the difference between the last point at or before from and
 * the first at or after to (wider, never narrower, than the interval).
 * 0 when the run has no timeline.
 */
uint64_t il_steal_between(const struct il_engine_result *res, uint64_t from,
			  uint64_t to);

/*
 * The same on the n CPUs of cpus only, from the timeline CPU by CPU:
 * what the host took from those vCPUs, not from the scenario's others.
 * When one of them has no timeline of its own (an older result file, a
 * run on every CPU), il_steal_between(): never less than what was
 * measured on them.
 */
uint64_t il_steal_between_on(const struct il_engine_result *res,
			     const int *cpus, int n, uint64_t from,
			     uint64_t to);

/*
 * Idle wakeup latency of a thread of class s on cpu (-1: unpinned):
 * samples periodic sleeps of period_ns into h.  The noise allowance of a
 * run is taken from it.  0, or -errno with why filled.
 */
int il_engine_calibrate(int cpu, const struct il_sched *s, int samples,
			uint64_t period_ns, const int *stop, struct il_hist *h,
			char *why, size_t len);

#endif
