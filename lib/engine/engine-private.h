/* SPDX-License-Identifier: MIT */
/*
 * Shared by the parts of the engine: engine.c (the run), engine-setup.c
 * (placement and what a run sets up), engine-job.c (the task threads and
 * their jobs), engine-steal.c, engine-calib.c and engine-live.c.  Not
 * part of the public API.
 */
#ifndef INVLAB_ENGINE_PRIVATE_H
#define INVLAB_ENGINE_PRIVATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <invlab/cgroup.h>
#include <invlab/engine.h>
#include <invlab/kmutex.h>

#define BITS_PER_LONG (8 * sizeof(unsigned long))
#define MASK_LONGS    (IL_MAX_CPUS / BITS_PER_LONG)
/* foreign time to be filled with the round's steal once it is known */
#define FOREIGN_PENDING UINT64_MAX
/* uncontended calls measured for each kernel-mutex resource, and how
 * far apart: a scenario's callers mostly sleep between calls too */
#define KMUTEX_CALIBRATION 200
#define KMUTEX_PACE_NS	   (500 * IL_NSEC_PER_USEC)
/* how often a run without rounds notes the steal time */
#define STEAL_SLICE_NS (10 * IL_NSEC_PER_MSEC)
/* a task thread's stack; with `node`, carved from the task's region
 * (il_task_result.mem) above a guard page */
#define TASK_STACK (256 * 1024)

struct engine;

struct trt {
	struct engine *e;
	int idx;
	const struct il_task *t;
	struct il_task_result *r;
	pthread_t th;
	bool started;
	clockid_t clk;
	int rank;  /* priority rank; higher runs first */
	int cg;	   /* index into engine.cg, or -1 */
	int part;  /* --partition: its CPU, or -1 */
	int pcg;   /* index into engine.pcg, or -1 */
	int dl_fd; /* its sched file (dl.runtime), or -1 */
	int cpu;   /* single CPU or -1 */
	unsigned long mask[MASK_LONGS];
	bool pinned;
	bool waiter; /* takes locks: its releases are watched */
	/*
	 * A hog that calls kernel mutexes reads no CPU clock of its own:
	 * reading it runs the scheduler's update_curr() for the task, which
	 * lets the fair server deschedule it at that system call's return
	 * instead of inside the next critical section, and the inversion
	 * being measured disappears (measured: docs/kmutex.md).  It has no
	 * hold or job CPU time, and notes no releases.
	 */
	bool lean;

	/* this task's current release, for the others to watch */
	uint64_t rel;
	uint32_t rel_seq;

	/* CPU clock when this task first saw task w's release pass */
	uint32_t seen_seq[IL_MAX_TASKS];
	uint64_t seen_cpu[IL_MAX_TASKS];

	/* per lock phase: lower tasks, and those of them that are hogs */
	uint32_t lower_mask;
	uint32_t hog_mask[IL_MAX_PHASES];
	uint32_t last_round; /* last round whose job ended */
	/* per lock phase: the tasks that may hold what it waits for */
	uint32_t blockers[IL_MAX_PHASES];
	/* this task's /proc/.../schedstat, for its run-queue delay */
	int schedstat_fd;
	/* its run time (schedstat) as its thread ended, 0 before: the
	 * groups' accounts (cgacct.h) need it once /proc has no thread */
	uint64_t run_end_ns;
	uint64_t pending_from[IL_MAX_PHASES]; /* first sample of the round */

	/* inherited-priority watch (boost_from) */
	bool boost_watch;
	int stat_fd;
	long base_prio;
	uint32_t boost_seen;
	uint64_t boost_next;
	/* why its setup failed; the first failure goes to engine.setup_why */
	char setup_why[256];
};

struct engine {
	const struct il_scenario *sc;
	int n;
	struct trt t[IL_MAX_TASKS];
	pthread_mutex_t *mtx[IL_MAX_RESOURCES];
	struct il_kmutex *km[IL_MAX_RESOURCES]; /* kernel-mutex resources */
	struct il_cgroup cg[IL_MAX_TASKS];	/* the tasks' groups */
	int ncg;
	struct il_cgroup pcg[IL_MAX_TASKS]; /* cpuset partitions */
	int npcg;
	bool partition;

	/* rounds */
	uint32_t arm;  /* round released */
	uint32_t done; /* jobs ended, all rounds */
	uint32_t per_round;
	uint64_t r0;
	uint32_t ev[IL_MAX_EVENTS]; /* round in which signalled */
	uint64_t ev_time[IL_MAX_EVENTS];

	uint32_t ready;
	uint32_t go;
	/* t_end is moved to the present when the sample target is met
	 * (engine.c): the tasks read it with end_of() */
	uint64_t t_start, t_end;
	int stop; /* internal: end, hung, or external stop */
	int hung;
	char hung_why[160];
	const int *ext_stop;
	int setup_err;
	char setup_why[256];
	unsigned long cpus_used[MASK_LONGS];
	bool all_cpus;
	int boost_from;
	int samples_task; /* opts.samples_task's index, or -1 */
	uint64_t next_progress;
	uint64_t boost_req;
	uint32_t boost_seq;
	struct il_engine_result *live; /* the live view's copy, or NULL */
	struct il_stage_notes *notes;  /* --stage (notes.h), or NULL */
};

static inline bool stopping(struct engine *e)
{
	return __atomic_load_n(&e->stop, __ATOMIC_RELAXED) ||
	       (e->ext_stop && __atomic_load_n(e->ext_stop, __ATOMIC_RELAXED));
}

static inline uint64_t end_of(const struct engine *e)
{
	return __atomic_load_n(&e->t_end, __ATOMIC_RELAXED);
}

static inline uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

static inline void mask_set(unsigned long *m, int cpu)
{
	m[cpu / BITS_PER_LONG] |= 1ul << (cpu % BITS_PER_LONG);
}

static inline bool mask_test(const unsigned long *m, int cpu)
{
	return (m[cpu / BITS_PER_LONG] >> (cpu % BITS_PER_LONG)) & 1;
}

/* Stop the run because a wait was not bounded; the first says why. */
void __il_mark_hung(struct engine *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void __il_publish_release(struct trt *me, uint64_t rel);
/* a task's CPU time so far, ns: its schedstat file's first field (0
 * when unreadable), which the kernel brings up to date when read */
uint64_t __il_task_run_ns(const struct trt *t);
int __il_start_thread(struct trt *tr);
int __il_place(struct engine *e, struct il_engine_result *res, char *why,
	       size_t len);
int __il_alloc_results(struct engine *e, struct il_engine_result *res,
		       uint64_t duration);
int __il_make_mutexes(struct engine *e, struct il_engine_result *res, char *why,
		      size_t len);
int __il_make_cgroups(struct engine *e, struct il_engine_result *res, char *why,
		      size_t len);
int __il_make_partitions(struct engine *e, struct il_engine_result *res,
			 char *why, size_t len);
void __il_prepare_tasks(struct engine *e);
/* after the run: where each `node` task's memory is (mem_placement) */
void __il_memory_where(struct engine *e, struct il_engine_result *res);
int __il_calibrate_kmutex(struct engine *e, struct il_engine_result *res, int r,
			  char *m, size_t len);
uint64_t __il_steal_now(struct engine *e);
uint64_t __il_steal_read(struct engine *e, const struct il_engine_result *res,
			 uint64_t *per);
void __il_steal_cpus(struct engine *e, struct il_engine_result *res);
void __il_steal_sample(struct il_engine_result *res, uint64_t t, uint64_t steal,
		       const uint64_t *per);
void __il_settle_foreign(struct engine *e, struct il_engine_result *res,
			 uint64_t steal);

/* engine-live.c: a copy of res for opts.progress, NULL without memory */
const struct il_engine_result *
__il_live_copy(struct engine *e, const struct il_engine_result *res);
void __il_live_free(struct engine *e);

#endif
