// SPDX-License-Identifier: MIT
/*
 * The scenario engine: one thread per task, pinned and put in its class,
 * running its body once per job; an orchestrator (the caller's thread)
 * that releases rounds, bounds the run in time and merges nothing until
 * the threads are gone.
 *
 * Rounds.  Tasks with `round` activation are released together, each at
 * its offset after the round's start; `event` tasks when their event is
 * signalled in the round.  A round ends when all their jobs have ended;
 * the next starts after as much idle time as the round took, which keeps
 * real-time use at or below half of each CPU, clear of RT throttling and
 * the fair server.  `periodic`, `oneshot` and `hog` tasks run on their own
 * clocks beside the rounds.
 *
 * Who ran during a wait.  Every task watches the release times of the
 * tasks that take locks: at each phase boundary and in every busy-loop
 * iteration it notes its own CPU clock the first time it sees such a
 * release time pass.  A task that was not running at the release had a
 * still clock until it next ran, so that note is its clock at the release.
 * When the waiter gets its lock it reads the others' clocks; the
 * differences are what each ran while it waited.  Each thread reads only
 * its own clock for the note, which stays consistent even if it is
 * preempted between two reads.
 *
 * Nothing on the measured path allocates, locks a mutex of ours, prints
 * or makes a syscall other than the clock reads and the operation being
 * measured.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <invlab/cgroup.h>
#include <invlab/cpu.h>
#include <invlab/dlstat.h>
#include <invlab/engine.h>
#include <invlab/kmutex.h>
#include <invlab/release.h>
#include <invlab/runlock.h>
#include <invlab/sched.h>
#include <invlab/sync.h>
#include <invlab/sysinfo.h>
#include <invlab/time.h>

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
	uint64_t pending_from[IL_MAX_PHASES]; /* first sample of the round */

	/* inherited-priority watch (boost_from) */
	bool boost_watch;
	int stat_fd;
	long base_prio;
	uint32_t boost_seen;
	uint64_t boost_next;
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
	uint64_t next_progress;
	uint64_t boost_req;
	uint32_t boost_seq;
};

static bool stopping(struct engine *e)
{
	return __atomic_load_n(&e->stop, __ATOMIC_RELAXED) ||
	       (e->ext_stop && __atomic_load_n(e->ext_stop, __ATOMIC_RELAXED));
}

static uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

static uint64_t clock_of(clockid_t c)
{
	uint64_t ns = 0;

	il_clock_ns(c, &ns);
	return ns;
}

/*
 * Time a task has waited on a run queue (runnable, not running), from
 * /proc/.../schedstat (CONFIG_SCHED_INFO); UINT64_MAX when unreadable.
 * The kernel adds a wait when it ends, so a value read while the task
 * waits does not include that wait yet.
 */
static uint64_t run_delay(const struct trt *t)
{
	char buf[128];
	ssize_t n;
	unsigned long long exec, delay;

	if (t->schedstat_fd < 0)
		return UINT64_MAX;
	n = pread(t->schedstat_fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return UINT64_MAX;
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu", &exec, &delay) != 2)
		return UINT64_MAX;
	return delay;
}

static int rank_of(const struct il_sched *s)
{
	switch (s->policy) {
	case IL_SCHED_DEADLINE:
		return 200;
	case IL_SCHED_FIFO:
	case IL_SCHED_RR:
		return 100 + s->prio;
	default:
		/* fair-class tasks are not ordered among themselves */
		return 0;
	}
}

/* ------------------------------------------------------------------ */
/* watching releases                                                    */

static void publish_release(struct trt *me, uint64_t rel)
{
	me->rel = rel;
	__atomic_store_n(&me->rel_seq, me->rel_seq + 1, __ATOMIC_RELEASE);
}

/* The kernel's "priority" of this thread (field 18 of its stat file):
 * lower is more urgent, and it includes inherited boosts. */
static long stat_prio(int fd)
{
	char buf[512], *p;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	int field = 2;

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p)
		return 0;
	for (p++; *p && field < 18; p++)
		if (*p == ' ')
			field++;
	return strtol(p, NULL, 10);
}

/*
 * Has the watched task requested a lock since we last looked, and are we
 * running boosted?  Checked at most every 20 us: each look is a read of
 * /proc/thread-self/stat.
 */
static void watch_boost(struct trt *me, uint64_t now)
{
	struct engine *e = me->e;
	uint32_t seq;

	if (now < me->boost_next)
		return;
	me->boost_next = now + 20 * IL_NSEC_PER_USEC;
	seq = __atomic_load_n(&e->boost_seq, __ATOMIC_ACQUIRE);
	if (seq == me->boost_seen)
		return;
	if (stat_prio(me->stat_fd) < me->base_prio) {
		il_hist_record(&me->r->boost, sub0(now, e->boost_req));
		me->boost_seen = seq;
	}
}

static void observe(struct trt *me, uint64_t now, uint64_t cpu)
{
	struct engine *e = me->e;

	if (me->boost_watch)
		watch_boost(me, now);

	for (int w = 0; w < e->n; w++) {
		struct trt *o = &e->t[w];
		uint32_t seq;

		if (!o->waiter || w == me->idx)
			continue;
		seq = __atomic_load_n(&o->rel_seq, __ATOMIC_ACQUIRE);
		if (seq == me->seen_seq[w] || now < o->rel)
			continue;
		me->seen_cpu[w] = cpu;
		__atomic_store_n(&me->seen_seq[w], seq, __ATOMIC_RELEASE);
	}
}

static void observe_now(struct trt *me)
{
	if (!me->lean)
		observe(me, il_now_ns(), il_thread_cpu_ns());
}

/* CPU time task o ran since it first saw my current release pass */
static uint64_t ran_since_release(struct trt *me, struct trt *o)
{
	uint32_t seq = __atomic_load_n(&o->seen_seq[me->idx], __ATOMIC_ACQUIRE);
	uint64_t now = clock_of(o->clk);

	/* not seen yet: it has not passed a phase boundary or loop
	 * iteration since the release, so it has not run */
	if (seq != __atomic_load_n(&me->rel_seq, __ATOMIC_ACQUIRE))
		return 0;
	return sub0(now, o->seen_cpu[me->idx]);
}

/* ------------------------------------------------------------------ */
/* phases                                                               */

static struct timespec rt_deadline(uint64_t from_now)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return il_ns_to_ts(il_ts_to_ns(&ts) + from_now);
}

static void run_cpu(struct trt *me, uint64_t ns)
{
	uint64_t c = il_thread_cpu_ns(), end = c + ns;

	while (c < end && !stopping(me->e)) {
		observe(me, il_now_ns(), c);
		c = il_thread_cpu_ns();
	}
}

static void spin_wall(struct trt *me, uint64_t ns, int event, uint32_t k)
{
	struct engine *e = me->e;
	uint64_t now = il_now_ns(), end = now + ns;

	while (now < end && !stopping(e)) {
		if (event >= 0 &&
		    __atomic_load_n(&e->ev[event], __ATOMIC_ACQUIRE) >= k)
			break;
		observe(me, now, il_thread_cpu_ns());
		now = il_now_ns();
	}
}

static void signal_event(struct trt *me, int event, uint32_t k)
{
	struct engine *e = me->e;
	uint64_t now = il_now_ns();

	/* tasks released by this event: their release is now */
	for (int i = 0; i < e->n; i++)
		if (e->t[i].t->k.activation == IL_ACT_EVENT &&
		    e->t[i].t->on_event == event)
			publish_release(&e->t[i], now);
	e->ev_time[event] = now;
	il_futex_post(&e->ev[event], k);
}

/* wait until event was signalled in round k; true if it had to sleep */
static bool wait_event(struct trt *me, int event, uint32_t k, int *timed_out)
{
	struct engine *e = me->e;
	uint64_t deadline = il_now_ns() + e->sc->g.timeout_ns;
	bool slept = false;

	for (;;) {
		uint32_t v = __atomic_load_n(&e->ev[event], __ATOMIC_ACQUIRE);

		if (v >= k || stopping(e))
			return slept;
		if (il_now_ns() >= deadline) {
			*timed_out = 1;
			return slept;
		}
		slept = true;
		il_futex_wait(&e->ev[event], v,
			      il_now_ns() + 50 * IL_NSEC_PER_MSEC);
	}
}

/* Stop the run because a wait was not bounded; the first says why. */
static void mark_hung(struct engine *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void mark_hung(struct engine *e, const char *fmt, ...)
{
	int expect = 0;

	if (__atomic_compare_exchange_n(&e->hung, &expect, 1, false,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(e->hung_why, sizeof(e->hung_why), fmt, ap);
		va_end(ap);
	}
	__atomic_store_n(&e->stop, 1, __ATOMIC_RELAXED);
}

/* One job of task me, released at rel, in round (or job number) k. */
static void run_job(struct trt *me, uint64_t rel, uint32_t k)
{
	struct engine *e = me->e;
	const struct il_task *t = me->t;
	struct il_task_result *r = me->r;
	uint64_t start, cpu0, hold_from[IL_MAX_RESOURCES];
	uint64_t rd0[IL_MAX_TASKS] = { 0 };
	uint32_t held = 0;
	bool late = false, first_lock = true;
	int li = 0, timed_out = 0;
	/*
	 * A hog's job starts when the last one ended: it has no release to
	 * attribute a wait to, and the reads that attribution costs (other
	 * threads' clocks, schedstat files) would keep a task that calls a
	 * kernel mutex back to back out of its critical sections most of
	 * the time, hiding the very contention it is there to make.
	 */
	bool attribute = t->k.activation != IL_ACT_HOG;

	struct il_dlstat dl0;
	bool have_dl0 = false;

	start = il_now_ns();
	/* the reservation's state at the job's start, outside its CPU time */
	if (me->dl_fd >= 0)
		have_dl0 = il_dlstat_read_fd(me->dl_fd, &dl0) == 0;
	cpu0 = me->lean ? 0 : il_thread_cpu_ns();
	if (!me->lean)
		observe(me, start, cpu0);
	il_hist_record(&r->wakeup, sub0(start, rel));
	/* the run-queue delay of whoever may block the first lock request,
	 * read as soon as this task runs (see the lock phase) */
	if (me->waiter && attribute)
		for (int o = 0; o < e->n; o++)
			if (me->blockers[0] & (1u << o))
				rd0[o] = run_delay(&e->t[o]);

	for (int p = 0; p < t->nphases && !stopping(e); p++) {
		const struct il_phase *ph = &t->phases[p];

		switch (ph->kind) {
		case IL_PH_RUN:
			run_cpu(me, ph->ns);
			break;
		case IL_PH_SPIN:
			spin_wall(me, ph->ns, ph->event, k);
			break;
		case IL_PH_SLEEP:
			observe_now(me);
			il_sleep_until(il_now_ns() + ph->ns, &e->stop);
			observe_now(me);
			break;
		case IL_PH_SIGNAL:
			observe_now(me);
			signal_event(me, ph->event, k);
			break;
		case IL_PH_WAIT:
			observe_now(me);
			if (wait_event(me, ph->event, k, &timed_out))
				late = true;
			if (timed_out)
				mark_hung(e,
					  "task '%s' waited longer than the "
					  "timeout for event '%s' (round %u)",
					  t->name, e->sc->events[ph->event], k);
			observe_now(me);
			break;
		case IL_PH_LOCK:
		case IL_PH_CALL: {
			struct il_lock_result *lr = r->locks[li];
			bool call = ph->kind == IL_PH_CALL;
			struct timespec dl;
			uint64_t t_req, t_acq, blocking = 0, hog = 0;
			bool exact = true;
			int ret, call_err = 0;

			if (!call)
				dl = rt_deadline(e->sc->g.timeout_ns);
			hold_from[ph->res] = me->lean ? 0 : il_thread_cpu_ns();
			t_req = il_now_ns();
			if (first_lock && me->idx == e->boost_from) {
				e->boost_req = t_req;
				__atomic_store_n(&e->boost_seq,
						 e->boost_seq + 1,
						 __ATOMIC_RELEASE);
			}
			if (!me->lean)
				observe(me, t_req, hold_from[ph->res]);
			if (call) {
				/*
				 * One kernel critical section: the recipe
				 * times its own system call, so its untimed
				 * preparation stays out.  It cannot be given
				 * up on; a wait longer than the timeout is
				 * found afterwards and stops the run.
				 */
				call_err = il_kmutex_call(
					e->km[ph->res], me->idx,
					(enum il_km_op)ph->op, &t_req, &t_acq);
				ret = call_err ||
				      t_acq - t_req > e->sc->g.timeout_ns;
			} else {
				ret = pthread_mutex_timedlock(e->mtx[ph->res],
							      &dl);
				t_acq = il_now_ns();
			}
			if (first_lock && !attribute) {
				exact = false;
			} else if (first_lock) {
				/*
				 * Blocking is what the possible holders ran
				 * plus what they waited on a run queue (a hog,
				 * or the hand-over of the lock): time they lost
				 * to host steal while running is in neither,
				 * and is the foreign part of the wait.
				 */
				for (int o = 0; o < e->n; o++) {
					uint64_t d, q;

					if (o == me->idx)
						continue;
					d = ran_since_release(me, &e->t[o]);
					if (me->blockers[li] & (1u << o)) {
						q = run_delay(&e->t[o]);
						/*
						 * A holder queued behind other
						 * work before this task even
						 * asked for the lock was not
						 * blocking it: no protocol can
						 * act before the request (the
						 * requester may be late, e.g.
						 * stolen by the host).
						 */
						if (q == UINT64_MAX ||
						    rd0[o] == UINT64_MAX)
							exact = false;
						else
							blocking +=
								d +
								sub0(sub0(q,
									  rd0[o]),
								     sub0(t_req,
									  rel));
					}
					if (me->hog_mask[li] & (1u << o))
						hog += d;
				}
			}
			il_hist_record(&lr->blocked, t_acq - t_req);
			if (first_lock && !late && lr->nsamples < lr->cap) {
				struct il_wait_sample *s =
					&lr->samples[lr->nsamples];

				s->delay_ns = sub0(t_acq, rel);
				s->lower_ns = hog;
				s->timed_out = ret != 0;
				/* without schedstat, fall back to the round's
				 * steal time */
				s->foreign_ns =
					exact ? sub0(s->delay_ns, blocking)
					      : FOREIGN_PENDING;
				/* complete before counted: the live view reads
				 * samples while the run goes on */
				__atomic_store_n(&lr->nsamples,
						 lr->nsamples + 1,
						 __ATOMIC_RELEASE);
				il_hist_record(&lr->delay, s->delay_ns);
			} else if (first_lock && late) {
				lr->late++;
			} else {
				il_hist_record(&lr->delay, t_acq - t_req);
			}
			first_lock = false;
			li++;
			if (call) {
				/* the section is over: what it cost the caller
				 * in CPU time is its hold */
				uint64_t c = me->lean ? 0 : il_thread_cpu_ns(),
					 h = sub0(c, hold_from[ph->res]);

				if (!me->lean) {
					il_hist_record(r->hold[ph->res], h);
					if (h > r->hold_max[ph->res])
						r->hold_max[ph->res] = h;
				}
				if (call_err)
					mark_hung(
						e,
						"task '%s': call '%s' failed: "
						"%s (job %u)",
						t->name,
						e->sc->res[ph->res].name,
						strerror(-call_err), k);
				else if (ret)
					mark_hung(
						e,
						"task '%s': call '%s' took "
						"longer than the timeout (job "
						"%u)",
						t->name,
						e->sc->res[ph->res].name, k);
				if (ret)
					goto out;
				if (!me->lean)
					observe(me, t_acq, c);
				break;
			}
			if (!ret)
				held |= 1u << ph->res;
			if (ret) {
				/* never got it: the protocol failed to bound
				 * the wait, and the run stops */
				mark_hung(e,
					  "task '%s' did not get '%s' within "
					  "the timeout (round %u)",
					  t->name, e->sc->res[ph->res].name, k);
				goto out;
			}
			break;
		}
		case IL_PH_UNLOCK: {
			uint64_t c;

			pthread_mutex_unlock(e->mtx[ph->res]);
			held &= ~(1u << ph->res);
			c = il_thread_cpu_ns();
			if (r->hold[ph->res]) {
				uint64_t h = sub0(c, hold_from[ph->res]);

				il_hist_record(r->hold[ph->res], h);
				if (h > r->hold_max[ph->res])
					r->hold_max[ph->res] = h;
			}
			observe(me, il_now_ns(), c);
			break;
		}
		}
	}
out:
	/* a job cut short by a stop still releases what it holds, so no
	 * other task waits for it until its timeout */
	for (int res = 0; res < IL_MAX_RESOURCES; res++)
		if (held & (1u << res))
			pthread_mutex_unlock(e->mtx[res]);
	{
		uint64_t end = il_now_ns(), resp = sub0(end, rel);
		uint64_t dl = t->sched.policy == IL_SCHED_DEADLINE
				      ? t->sched.deadline_ns
			      : t->k.activation == IL_ACT_PERIODIC
				      ? t->k.period_ns
				      : 0;

		r->jobs++;
		il_hist_record(&r->response, resp);
		if (!me->lean) {
			uint64_t used = sub0(il_thread_cpu_ns(), cpu0);

			il_hist_record(&r->job_cpu, used);
			/* periodic jobs in order: one per period of a
			 * reservation */
			if (r->njob_cpu < r->job_cpu_cap) {
				r->job_rel_seq[r->njob_cpu] = rel;
				r->job_start_seq[r->njob_cpu] = start;
				r->job_end_seq[r->njob_cpu] = end;
				r->job_cpu_seq[r->njob_cpu++] = used;
			}
		}
		if (dl && resp > dl)
			r->misses++;
		if (me->dl_fd >= 0) {
			struct il_dlstat dl1;
			uint64_t used;

			if (have_dl0 &&
			    il_dlstat_read_fd(me->dl_fd, &dl1) == 0 &&
			    il_dl_budget_consumed(
				    &dl0, &dl1, t->sched.runtime_ns,
				    t->sched.period_ns, &used, NULL) == 0)
				il_hist_record(&r->budget, used);
			else
				r->budget_unknown++;
		}
	}
}

/* ------------------------------------------------------------------ */
/* task threads                                                         */

static void job_done(struct engine *e)
{
	il_futex_count(&e->done);
}

/* wait for *word to differ from seen, in slices that honour stop */
static int wait_change(struct engine *e, uint32_t *word, uint32_t seen)
{
	while (__atomic_load_n(word, __ATOMIC_ACQUIRE) == seen) {
		if (stopping(e))
			return -EINTR;
		il_futex_wait(word, seen, il_now_ns() + 50 * IL_NSEC_PER_MSEC);
	}
	return 0;
}

/*
 * In the task's own thread, once its class is set: join its cgroup, then
 * prepare the kernel-mutex recipes it calls, in that order, so that the
 * io-wq workers of an io_uring recipe, created from this thread, start in
 * its group and class.
 */
static int join_cgroup_and_recipes(struct trt *me)
{
	struct engine *e = me->e;
	const struct il_task *t = me->t;
	char m[150];
	int ret;

	if (me->cg >= 0) {
		ret = il_cgroup_attach(&e->cg[me->cg], il_gettid(), m,
				       sizeof(m));
		if (ret) {
			snprintf(e->setup_why, sizeof(e->setup_why),
				 "task '%s': cannot join cgroup %s: %s",
				 t->name, t->k.cgroup, m);
			return ret == -EACCES ? -EPERM : ret;
		}
	}
	for (int p = 0; p < t->nphases; p++) {
		const struct il_phase *ph = &t->phases[p];

		if (ph->kind != IL_PH_CALL)
			continue;
		ret = il_kmutex_attach(e->km[ph->res], me->idx, m, sizeof(m));
		if (ret) {
			snprintf(e->setup_why, sizeof(e->setup_why),
				 "task '%s': resource '%s': %s", t->name,
				 e->sc->res[ph->res].name, m);
			return ret == -EOPNOTSUPP ? -EPERM : ret;
		}
	}
	return 0;
}

static void *task_thread(void *arg)
{
	struct trt *me = arg;
	struct engine *e = me->e;
	const struct il_task *t = me->t;
	int ret = 0;

	pthread_getcpuclockid(pthread_self(), &me->clk);
	me->schedstat_fd =
		open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	/* a partition first: a deadline task's affinity must already be
	 * its root domain's when it becomes one */
	if (me->pcg >= 0) {
		char m[160];

		ret = il_cgroup_attach(&e->pcg[me->pcg], il_gettid(), m,
				       sizeof(m));
		if (ret) {
			snprintf(e->setup_why, sizeof(e->setup_why),
				 "task '%s': cannot join its cpuset partition: "
				 "%s",
				 t->name, m);
			ret = -EPERM;
		}
	}
	if (ret) {
		/* said above */
	} else if (me->pinned && (ret = il_pin_mask(0, me->mask))) {
		snprintf(e->setup_why, sizeof(e->setup_why),
			 "task '%s': cannot set its CPU affinity (%s): %s",
			 t->name, t->k.cpu, strerror(-ret));
	} else if ((ret = il_sched_set(0, &t->sched))) {
		char why[200];

		il_sched_strerror(ret, &t->sched, why, sizeof(why));
		snprintf(e->setup_why, sizeof(e->setup_why), "task '%s': %s",
			 t->name, why);
	}
	if (!ret)
		ret = join_cgroup_and_recipes(me);
	if (!ret && t->sched.policy == IL_SCHED_DEADLINE)
		me->dl_fd = il_dlstat_open(0, 0);
	if (!ret && me->boost_watch) {
		me->stat_fd =
			open("/proc/thread-self/stat", O_RDONLY | O_CLOEXEC);
		if (me->stat_fd < 0)
			me->boost_watch = false;
		else
			me->base_prio = stat_prio(me->stat_fd);
	}
	if (ret)
		__atomic_store_n(&e->setup_err, ret, __ATOMIC_RELAXED);
	il_futex_count(&e->ready);
	if (ret || wait_change(e, &e->go, 0))
		return NULL;

	switch (t->k.activation) {
	case IL_ACT_ROUND: {
		uint32_t k = 0;

		while (wait_change(e, &e->arm, k) == 0) {
			k = __atomic_load_n(&e->arm, __ATOMIC_ACQUIRE);
			il_sleep_until(e->r0 + t->k.offset_ns, &e->stop);
			run_job(me, e->r0 + t->k.offset_ns, k);
			__atomic_store_n(&me->last_round, k, __ATOMIC_RELAXED);
			job_done(e);
		}
		break;
	}
	case IL_ACT_EVENT: {
		uint32_t k = 0;

		/* between rounds the event may be far off: no timeout here,
		 * only the stop flag */
		while (!stopping(e)) {
			uint32_t v;

			k++;
			while ((v = __atomic_load_n(&e->ev[t->on_event],
						    __ATOMIC_ACQUIRE)) < k &&
			       !stopping(e))
				il_futex_wait(&e->ev[t->on_event], v,
					      il_now_ns() +
						      50 * IL_NSEC_PER_MSEC);
			if (stopping(e))
				break;
			run_job(me, e->ev_time[t->on_event], k);
			__atomic_store_n(&me->last_round, k, __ATOMIC_RELAXED);
			job_done(e);
		}
		break;
	}
	case IL_ACT_PERIODIC:
	case IL_ACT_ONESHOT: {
		uint32_t k = 0;
		uint64_t rel = il_periodic_release(e->t_start, t->k.offset_ns,
						   t->k.period_ns, k);

		while (!stopping(e) && rel < e->t_end) {
			publish_release(me, rel);
			il_sleep_until(rel, &e->stop);
			if (stopping(e))
				break;
			run_job(me, rel, ++k);
			if (t->k.activation == IL_ACT_ONESHOT)
				break;
			rel = il_periodic_release(e->t_start, t->k.offset_ns,
						  t->k.period_ns, k);
		}
		break;
	}
	case IL_ACT_HOG: {
		uint32_t k = 0;

		publish_release(me, e->t_start);
		il_sleep_until(e->t_start + t->k.offset_ns, &e->stop);
		while (!stopping(e) && il_now_ns() < e->t_end)
			run_job(me, il_now_ns(), ++k);
		break;
	}
	}
	if (me->boost_watch)
		close(me->stat_fd);
	if (me->dl_fd >= 0)
		close(me->dl_fd);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* setup                                                                */

static void mask_set(unsigned long *m, int cpu)
{
	m[cpu / BITS_PER_LONG] |= 1ul << (cpu % BITS_PER_LONG);
}

static bool mask_test(const unsigned long *m, int cpu)
{
	return (m[cpu / BITS_PER_LONG] >> (cpu % BITS_PER_LONG)) & 1;
}

static int mask_count(const unsigned long *m, int *only)
{
	int n = 0;

	for (int c = 0; c < IL_MAX_CPUS; c++)
		if (mask_test(m, c)) {
			n++;
			*only = c;
		}
	return n;
}

static void mask_describe(const unsigned long *m, char *buf, size_t len)
{
	size_t off = 0;
	int c = 0;

	buf[0] = '\0';
	while (c < IL_MAX_CPUS && off < len) {
		int lo;

		if (!mask_test(m, c)) {
			c++;
			continue;
		}
		lo = c;
		while (c + 1 < IL_MAX_CPUS && mask_test(m, c + 1))
			c++;
		off += (size_t)snprintf(buf + off, len - off, "%s%d",
					off ? "," : "", lo);
		if (c > lo && off < len)
			off += (size_t)snprintf(buf + off, len - off, "-%d", c);
		c++;
	}
}

/* density Q / min(D, P) of a deadline task, for placing partitions */
static double density(const struct il_sched *s)
{
	uint64_t w =
		s->deadline_ns < s->period_ns ? s->deadline_ns : s->period_ns;

	return w ? (double)s->runtime_ns / (double)w : 0.0;
}

/*
 * --partition: a CPU for every deadline task: its `partition` key, else
 * the least loaded online CPU by density, densest task first (worst fit
 * decreasing, which spreads the load; ties go to the lower CPU).
 */
static int partition_cpus(struct engine *e, char *why, size_t len)
{
	static int cpus[IL_MAX_CPUS];
	static double load[IL_MAX_CPUS];
	int n = il_cpu_online(cpus, IL_MAX_CPUS);
	int order[IL_MAX_TASKS], no = 0;

	if (n <= 0) {
		snprintf(why, len, "--partition: no online CPU found");
		return -ENOENT;
	}
	memset(load, 0, sizeof(load));
	for (int i = 0; i < e->n; i++) {
		const struct il_task *t = e->t[i].t;

		if (t->sched.policy != IL_SCHED_DEADLINE)
			continue;
		if (t->k.partition < 0) {
			order[no++] = i;
			continue;
		}
		if (!il_cpu_is_online((int)t->k.partition)) {
			snprintf(why, len,
				 "task '%s': partition = %lld is not an online "
				 "CPU (see /sys/devices/system/cpu/online)",
				 t->name, (long long)t->k.partition);
			return -EINVAL;
		}
		e->t[i].part = (int)t->k.partition;
		for (int c = 0; c < n; c++)
			if (cpus[c] == e->t[i].part)
				load[c] += density(&t->sched);
	}
	/* densest first; insertion sort keeps the file's order for ties */
	for (int a = 1; a < no; a++)
		for (int b = a;
		     b > 0 && density(&e->t[order[b]].t->sched) >
				      density(&e->t[order[b - 1]].t->sched);
		     b--) {
			int x = order[b];

			order[b] = order[b - 1];
			order[b - 1] = x;
		}
	for (int k = 0; k < no; k++) {
		int best = 0;

		for (int c = 1; c < n; c++)
			if (load[c] < load[best])
				best = c;
		e->t[order[k]].part = cpus[best];
		load[best] += density(&e->t[order[k]].t->sched);
	}
	return 0;
}

static int place(struct engine *e, struct il_engine_result *res, char *why,
		 size_t len)
{
	int order[IL_MAX_CPUS],
		norder = il_cpu_spread_order(order, IL_MAX_CPUS);
	int nspread = 0, only = -1, ret;
	char desc[48];
	size_t off = 0;

	if (e->partition && (ret = partition_cpus(e, why, len)))
		return ret;
	for (int i = 0; i < e->n; i++) {
		struct trt *tr = &e->t[i];
		const struct il_task *t = tr->t;
		const char *spec = t->k.cpu ? t->k.cpu : "any";

		/* the job file's check parsed `cpu`; here it meets the machine
		 */
		memset(tr->mask, 0, sizeof(tr->mask));
		tr->cpu = -1;
		tr->pinned = false;
		if (tr->part >= 0 && t->place != IL_PLACE_ANY) {
			snprintf(why, len,
				 "task '%s': cpu = %s: a SCHED_DEADLINE task "
				 "runs where its partition is; with "
				 "--partition say cpu = any and partition = N",
				 t->name, spec);
			return -EINVAL;
		}
		if (tr->part >= 0) {
			tr->cpu = tr->part;
			tr->r->partitioned = 1;
			snprintf(tr->r->placement, sizeof(tr->r->placement),
				 "cpu %d (partition)", tr->part);
			mask_set(e->cpus_used, tr->part);
			goto described;
		}
		switch (t->place) {
		case IL_PLACE_ANY:
			snprintf(tr->r->placement, sizeof(tr->r->placement),
				 "any");
			e->all_cpus = true;
			break;
		case IL_PLACE_SPREAD:
			if (norder <= 0)
				return -ENOENT;
			mask_set(tr->mask, order[nspread % norder]);
			nspread++;
			break;
		case IL_PLACE_NODE: {
			int cpus[IL_MAX_CPUS],
				n = il_cpu_online(cpus, IL_MAX_CPUS);

			for (int c = 0; c < n; c++)
				if (il_cpu_node(cpus[c]) == t->place_node)
					mask_set(tr->mask, cpus[c]);
			break;
		}
		case IL_PLACE_CPUS:
			memcpy(tr->mask, t->cpus, sizeof(tr->mask));
			break;
		}
		if (t->place != IL_PLACE_ANY) {
			for (int c = 0; c < IL_MAX_CPUS; c++)
				if (mask_test(tr->mask, c) &&
				    !il_cpu_is_online(c))
					tr->mask[c / BITS_PER_LONG] &=
						~(1ul << (c % BITS_PER_LONG));
			if (!mask_count(tr->mask, &only)) {
				snprintf(why, len,
					 "task '%s': cpu = %s names no online "
					 "CPU "
					 "(see /sys/devices/system/cpu/online)",
					 tr->t->name, spec);
				return -EINVAL;
			}
			if (tr->t->sched.policy == IL_SCHED_DEADLINE) {
				snprintf(
					why, len,
					"task '%s': a SCHED_DEADLINE task "
					"cannot "
					"have an affinity narrower than its "
					"root "
					"domain; use cpu = any (global EDF), "
					"or "
					"run with --partition to place it in a "
					"cpuset partition (key partition = N)",
					tr->t->name);
				return -EINVAL;
			}
			tr->pinned = true;
			if (mask_count(tr->mask, &only) == 1)
				tr->cpu = only;
			mask_describe(tr->mask, desc, sizeof(desc));
			snprintf(tr->r->placement, sizeof(tr->r->placement),
				 "%s %s%s", tr->cpu >= 0 ? "cpu" : "cpus", desc,
				 t->place == IL_PLACE_SPREAD ? " (spread)"
							     : "");
			for (int c = 0; c < IL_MAX_CPUS; c++)
				if (mask_test(tr->mask, c))
					mask_set(e->cpus_used, c);
		}
	described:
		tr->r->cpu = tr->cpu;
		off += (size_t)snprintf(res->placement + off,
					sizeof(res->placement) - off,
					"%s%s: %s", off ? ", " : "",
					tr->t->name, tr->r->placement);
		if (off >= sizeof(res->placement))
			off = sizeof(res->placement) - 1;
	}
	if (nspread > norder && off + 1 < sizeof(res->placement))
		snprintf(res->placement + off, sizeof(res->placement) - off,
			 "; %d spread tasks share %d CPUs", nspread, norder);
	snprintf(res->numa, sizeof(res->numa), "%s, %d node%s",
		 il_numa_source(), il_numa_nodes(),
		 il_numa_nodes() == 1 ? "" : "s");
	return 0;
}

/* resources that can be held while r is requested: users of r and,
 * through nesting, the users of what they wait for while holding r */
static uint32_t blockers_of(const struct il_scenario *sc, int r, int depth)
{
	uint32_t users = 0;

	if (depth > IL_MAX_RESOURCES)
		return 0;
	for (int i = 0; i < sc->ntasks; i++) {
		const struct il_task *t = &sc->tasks[i];
		uint32_t held = 0;

		for (int p = 0; p < t->nphases; p++) {
			const struct il_phase *ph = &t->phases[p];

			if (ph->kind == IL_PH_LOCK || ph->kind == IL_PH_CALL) {
				if (ph->res == r)
					users |= 1u << i;
				if (held & (1u << r))
					users |= blockers_of(sc, ph->res,
							     depth + 1);
				/* a call's kernel mutex is not held after it */
				if (ph->kind == IL_PH_LOCK)
					held |= 1u << ph->res;
			} else if (ph->kind == IL_PH_UNLOCK) {
				held &= ~(1u << ph->res);
			}
		}
	}
	return users;
}

static void prepare_tasks(struct engine *e)
{
	const struct il_scenario *sc = e->sc;

	for (int i = 0; i < e->n; i++)
		e->t[i].rank = rank_of(&sc->tasks[i].sched);
	for (int i = 0; i < e->n; i++) {
		struct trt *me = &e->t[i];
		int li = 0;

		for (int o = 0; o < e->n; o++)
			if (o != i && e->t[o].rank < me->rank)
				me->lower_mask |= 1u << o;
		for (int p = 0; p < me->t->nphases; p++) {
			const struct il_phase *ph = &me->t->phases[p];

			if (ph->kind != IL_PH_LOCK && ph->kind != IL_PH_CALL)
				continue;
			me->waiter = true;
			if (ph->kind == IL_PH_CALL &&
			    me->t->k.activation == IL_ACT_HOG)
				me->lean = true;
			me->blockers[li] =
				blockers_of(sc, ph->res, 0) & ~(1u << i);
			me->hog_mask[li] = me->lower_mask & ~me->blockers[li];
			li++;
		}
	}
	/* lock holders below the boosting task watch their own priority */
	if (e->boost_from >= 0)
		for (int i = 0; i < e->n; i++)
			e->t[i].boost_watch =
				e->t[i].waiter && i != e->boost_from &&
				e->t[i].rank < e->t[e->boost_from].rank;
}

static int alloc_results(struct engine *e, struct il_engine_result *res,
			 uint64_t duration)
{
	const struct il_scenario *sc = e->sc;

	res->ntasks = e->n;
	for (int i = 0; i < e->n; i++) {
		const struct il_task *t = &sc->tasks[i];
		struct il_task_result *r = &res->tasks[i];
		/* generous: a job every 100 us */
		size_t cap = (size_t)(duration / (100 * IL_NSEC_PER_USEC)) + 64;

		snprintf(r->name, sizeof(r->name), "%s", t->name);
		il_hist_init(&r->wakeup);
		il_hist_init(&r->response);
		il_hist_init(&r->job_cpu);
		il_hist_init(&r->budget);
		il_hist_init(&r->boost);
		if (t->k.activation == IL_ACT_PERIODIC && t->k.period_ns) {
			r->job_cpu_cap =
				(size_t)(duration / t->k.period_ns) + 16;
			r->job_cpu_seq =
				calloc(r->job_cpu_cap, sizeof(*r->job_cpu_seq));
			r->job_start_seq = calloc(r->job_cpu_cap,
						  sizeof(*r->job_start_seq));
			r->job_rel_seq =
				calloc(r->job_cpu_cap, sizeof(*r->job_rel_seq));
			r->job_end_seq =
				calloc(r->job_cpu_cap, sizeof(*r->job_end_seq));
			if (!r->job_cpu_seq || !r->job_start_seq ||
			    !r->job_end_seq || !r->job_rel_seq)
				return -ENOMEM;
		}
		for (int p = 0; p < t->nphases; p++) {
			const struct il_phase *ph = &t->phases[p];
			struct il_lock_result *lr;

			if (ph->kind != IL_PH_LOCK && ph->kind != IL_PH_CALL)
				continue;
			if (!r->hold[ph->res]) {
				r->hold[ph->res] =
					malloc(sizeof(struct il_hist));
				if (!r->hold[ph->res])
					return -ENOMEM;
				il_hist_init(r->hold[ph->res]);
			}
			lr = calloc(1, sizeof(*lr));
			if (!lr)
				return -ENOMEM;
			r->locks[r->nlocks++] = lr;
			lr->res = ph->res;
			il_hist_init(&lr->blocked);
			il_hist_init(&lr->delay);
			lr->cap = cap;
			lr->samples = calloc(cap, sizeof(*lr->samples));
			if (!lr->samples)
				return -ENOMEM;
			/* touch it now, not on the measured path */
			memset(lr->samples, 0, cap * sizeof(*lr->samples));
		}
	}
	return 0;
}

/* the uncontended cost of a recipe, measured where its first caller runs */
struct km_calib {
	struct il_kmutex *km;
	const struct trt *where;
	struct il_hist *h;
	int ret;
	char m[200];
};

static void *km_calib_thread(void *arg)
{
	struct km_calib *c = arg;

	if (c->where && c->where->pinned)
		il_pin_mask(0, c->where->mask);
	c->ret = il_kmutex_calibrate(c->km, KMUTEX_CALIBRATION, KMUTEX_PACE_NS,
				     c->h, c->m, sizeof(c->m));
	return NULL;
}

/*
 * The uncontended cost of recipe r, measured on the CPUs of the first task
 * that calls it, where caches and the CPU's other load are those the calls
 * see.  It is measured before the run and again after it, and the run
 * keeps the calibration with the lower median: other work on the machine
 * (the host, another program) only ever adds time, and a comparison with
 * a disturbed baseline would hide contention.
 */
static int calibrate_kmutex(struct engine *e, struct il_engine_result *res,
			    int r, char *m, size_t len)
{
	struct km_calib c = { .km = e->km[r] };
	sigset_t all, old;
	pthread_t th;
	uint64_t p50;
	int ret;

	for (int i = 0; i < e->n && !c.where; i++)
		for (int ph = 0; ph < e->sc->tasks[i].nphases; ph++)
			if (e->sc->tasks[i].phases[ph].kind == IL_PH_CALL &&
			    e->sc->tasks[i].phases[ph].res == r) {
				c.where = &e->t[i];
				break;
			}
	c.h = malloc(sizeof(*c.h));
	if (!c.h)
		return -ENOMEM;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	ret = -pthread_create(&th, NULL, km_calib_thread, &c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		snprintf(m, len, "cannot create a thread: %s", strerror(-ret));
	} else {
		pthread_join(th, NULL);
		ret = c.ret;
		if (ret)
			snprintf(m, len, "%s", c.m);
	}
	if (!ret && !il_hist_percentile(c.h, 0.5, &p50) &&
	    (!res->kmutex_cost_ns[r] || p50 < res->kmutex_cost_ns[r])) {
		res->kmutex_cost_ns[r] = p50;
		il_hist_percentile_upper(c.h, 0.9, &res->kmutex_cost_p90_ns[r]);
		res->kmutex_cost_mean_ns[r] = (uint64_t)il_hist_mean(c.h);
	}
	free(c.h);
	return ret;
}

/*
 * A kernel-mutex resource: the recipe set up for every task (user index =
 * task index), and its uncontended cost measured before any task runs.
 */
static int make_kmutex(struct engine *e, struct il_engine_result *res, int r,
		       char *why, size_t len)
{
	const struct il_resource *rs = &e->sc->res[r];
	struct il_kmutex_params p = {
		.recipe = (enum il_km_recipe)(rs->k.type - IL_RES_RENAME),
		.via = (enum il_km_via)rs->k.via,
		.size = rs->k.size,
		.dir = rs->k.dir,
		.source = rs->k.source,
	};
	char m[200];
	int ret;

	/* the tasks that call it: each may have one write in a pipe */
	for (int i = 0; i < e->n; i++)
		for (int ph = 0; ph < e->sc->tasks[i].nphases; ph++)
			if (e->sc->tasks[i].phases[ph].kind == IL_PH_CALL &&
			    e->sc->tasks[i].phases[ph].res == r) {
				p.callers++;
				break;
			}
	ret = il_kmutex_open(&e->km[r], &p, e->n, m, sizeof(m));
	if (!ret)
		ret = calibrate_kmutex(e, res, r, m, sizeof(m));
	if (ret) {
		snprintf(why, len, "resource '%s': %s", rs->name, m);
		/* io_uring refused, or the directory not writable: this
		 * machine cannot run it, the scenario is fine */
		return ret == -EOPNOTSUPP || ret == -EACCES || ret == -EPERM
			       ? -EPERM
			       : ret;
	}
	snprintf(res->kmutex_where[r], sizeof(res->kmutex_where[r]), "%s",
		 il_kmutex_where(e->km[r]));
	return 0;
}

/*
 * The tasks' cgroups, one per distinct name, with their weights, before
 * any thread starts; each thread joins its own as it starts.  -ENODEV
 * when the cpu controller is not available, -EPERM when groups cannot be
 * made here.
 */
static int make_cgroups(struct engine *e, struct il_engine_result *res,
			char *why, size_t len)
{
	const struct il_scenario *sc = e->sc;
	size_t off = 0;

	for (int i = 0; i < e->n; i++) {
		const struct il_task *t = &sc->tasks[i];
		char m[300];
		int g, ret;

		e->t[i].cg = -1;
		if (!t->k.cgroup)
			continue;
		for (g = 0; g < e->ncg; g++)
			if (!strcmp(e->cg[g].name, t->k.cgroup))
				break;
		e->t[i].cg = g;
		if (g < e->ncg)
			continue;
		ret = il_cgroup_create(&e->cg[g], IL_CG_CPU, t->k.cgroup, m,
				       sizeof(m));
		if (!ret)
			e->ncg++;
		if (!ret)
			ret = il_cgroup_set_weight(
				&e->cg[g],
				t->k.cpu_weight ? (unsigned)t->k.cpu_weight
						: 100,
				m, sizeof(m));
		if (ret) {
			snprintf(why, len, "task '%s': cgroup %s: %s", t->name,
				 t->k.cgroup, m);
			return ret == -ENOENT ? -ENODEV
			       : ret == -EACCES || ret == -EPERM ||
					       ret == -EROFS
				       ? -EPERM
				       : ret;
		}
		if (off < sizeof(res->cgroups))
			off += (size_t)snprintf(
				res->cgroups + off, sizeof(res->cgroups) - off,
				"%s%s: %s (v%d, weight %lld)", off ? "; " : "",
				t->k.cgroup, e->cg[g].path, e->cg[g].version,
				(long long)(t->k.cpu_weight ? t->k.cpu_weight
							    : 100));
	}
	return 0;
}

/*
 * --partition: one cpuset partition per CPU that has deadline tasks,
 * before any thread starts; each task joins its own as it starts, before
 * it becomes SCHED_DEADLINE.  A partition that cannot be made is a reason
 * the run cannot happen here (-EPERM, why says which and why).
 */
static int make_partitions(struct engine *e, struct il_engine_result *res,
			   char *why, size_t len)
{
	int gcpu[IL_MAX_TASKS];
	size_t off = 0;

	for (int i = 0; i < e->n; i++) {
		struct trt *tr = &e->t[i];
		char m[200];
		int g, ret;

		if (tr->part < 0)
			continue;
		for (g = 0; g < e->npcg; g++)
			if (gcpu[g] == tr->part)
				break;
		if (g == e->npcg) {
			ret = il_cgroup_partition(&e->pcg[g], tr->part, m,
						  sizeof(m));
			if (ret) {
				snprintf(why, len,
					 "--partition: cannot make a cpuset "
					 "partition for CPU %d: %s",
					 tr->part, m);
				return -EPERM;
			}
			gcpu[g] = tr->part;
			e->npcg++;
			if (off < sizeof(res->partitions))
				off += (size_t)snprintf(
					res->partitions + off,
					sizeof(res->partitions) - off,
					"%scpu%d %s (v%d)", off ? ", " : "",
					tr->part, e->pcg[g].path,
					e->pcg[g].version);
		}
		tr->pcg = g;
	}
	return 0;
}

static int make_mutexes(struct engine *e, struct il_engine_result *res,
			char *why, size_t len)
{
	const struct il_scenario *sc = e->sc;
	size_t off = 0;

	for (int r = 0; r < sc->nres; r++) {
		const struct il_resource *rs = &sc->res[r];
		pthread_mutexattr_t a;
		int ceiling = (int)rs->k.ceiling, proto, ret, placed;

		if (IL_RES_IS_KMUTEX(rs->k.type)) {
			ret = make_kmutex(e, res, r, why, len);
			if (ret)
				return ret;
			continue;
		}
		e->mtx[r] = il_alloc_on_node(sizeof(pthread_mutex_t),
					     (int)rs->k.node, &placed);
		if (!e->mtx[r])
			return -ENOMEM;
		if (rs->k.node >= 0 && off < sizeof(res->lock_placement))
			off += (size_t)snprintf(
				res->lock_placement + off,
				sizeof(res->lock_placement) - off,
				"%s%s on node %d%s", off ? ", " : "", rs->name,
				(int)rs->k.node,
				placed ? ""
				       : " requested, not placed (no libnuma "
					 "or no such node)");
		if (!ceiling) {
			/* the highest RT priority among the lock's users */
			for (int i = 0; i < sc->ntasks; i++)
				for (int p = 0; p < sc->tasks[i].nphases; p++)
					if (sc->tasks[i].phases[p].kind ==
						    IL_PH_LOCK &&
					    sc->tasks[i].phases[p].res == r &&
					    sc->tasks[i].sched.prio > ceiling)
						ceiling =
							sc->tasks[i].sched.prio;
			if (!ceiling)
				ceiling = 1;
		}
		proto = rs->k.protocol == IL_PROTO_INHERIT
				? PTHREAD_PRIO_INHERIT
			: rs->k.protocol == IL_PROTO_PROTECT
				? PTHREAD_PRIO_PROTECT
				: PTHREAD_PRIO_NONE;
		pthread_mutexattr_init(&a);
		ret = pthread_mutexattr_setprotocol(&a, proto);
		if (!ret && proto == PTHREAD_PRIO_PROTECT)
			ret = pthread_mutexattr_setprioceiling(&a, ceiling);
		if (!ret)
			ret = pthread_mutex_init(e->mtx[r], &a);
		pthread_mutexattr_destroy(&a);
		if (ret) {
			snprintf(why, len,
				 "resource '%s': cannot create the "
				 "mutex: %s",
				 rs->name, strerror(ret));
			return -ret;
		}
	}
	return 0;
}

static uint64_t steal_now(struct engine *e)
{
	uint64_t total = 0, v;

	if (e->all_cpus) {
		il_steal_ns(-1, &total);
		return total;
	}
	for (int c = 0; c < IL_MAX_CPUS; c++)
		if (mask_test(e->cpus_used, c) && il_steal_ns(c, &v) == 0)
			total += v;
	return total;
}

/* one point of the steal timeline; the last slot keeps the latest */
static void steal_sample(struct il_engine_result *res, uint64_t t,
			 uint64_t steal)
{
	size_t i;

	if (!res->steal_cap)
		return;
	i = res->nsteal < res->steal_cap ? res->nsteal++ : res->steal_cap - 1;
	res->steal_t[i] = t;
	res->steal_v[i] = steal;
}

/* give the samples of the round that just ended their steal time */
static void settle_foreign(struct engine *e, struct il_engine_result *res,
			   uint64_t steal)
{
	for (int i = 0; i < res->ntasks; i++) {
		struct il_task_result *r = &res->tasks[i];

		for (int l = 0; l < r->nlocks; l++) {
			struct il_lock_result *lr = r->locks[l];

			for (size_t s = e->t[i].pending_from[l];
			     s < lr->nsamples; s++)
				if (lr->samples[s].foreign_ns ==
				    FOREIGN_PENDING)
					lr->samples[s].foreign_ns =
						steal < lr->samples[s].delay_ns
							? steal
							: lr->samples[s]
								  .delay_ns;
			e->t[i].pending_from[l] = lr->nsamples;
		}
	}
}

/* the live view's hook, at most once a second, never from a task */
static void progress(struct engine *e, const struct il_engine_opts *o,
		     struct il_engine_result *res)
{
	uint64_t now;

	if (!o || !o->progress)
		return;
	now = il_now_ns();
	if (now < e->next_progress)
		return;
	e->next_progress = now + IL_NSEC_PER_SEC;
	o->progress(o->progress_ctx, res);
}

static int start_thread(struct trt *tr)
{
	sigset_t all, old;
	pthread_attr_t a;
	int ret;

	/* signals are for the caller's thread, never for a measurement */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 256 * 1024);
	ret = pthread_create(&tr->th, &a, task_thread, tr);
	pthread_attr_destroy(&a);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	tr->started = ret == 0;
	return -ret;
}

int il_engine_run(const struct il_scenario *sc, const struct il_engine_opts *o,
		  struct il_engine_result *res, char *why, size_t len)
{
	uint64_t duration =
		o && o->duration_ns ? o->duration_ns : sc->g.duration_ns;
	uint64_t steal0, next, t0;
	struct engine *e;
	int ret = 0;

	memset(res, 0, sizeof(*res));
	why[0] = '\0';
	/* undo what killed runs left, one run per CPU (runlock.h) */
	if ((ret = il_run_begin(sc, o ? o->stop : NULL, why, len)))
		return ret;
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->sc = sc;
	e->n = sc->ntasks;
	e->ext_stop = o ? o->stop : NULL;
	e->partition = o && o->partition;
	e->boost_from =
		o && o->boost_from ? il_scenario_task(sc, o->boost_from) : -1;
	for (int i = 0; i < e->n; i++) {
		e->t[i].e = e;
		e->t[i].idx = i;
		e->t[i].t = &sc->tasks[i];
		e->t[i].r = &res->tasks[i];
		e->t[i].schedstat_fd = -1;
		e->t[i].cg = -1;
		e->t[i].part = -1;
		e->t[i].pcg = -1;
		e->t[i].dl_fd = -1;
		if (sc->tasks[i].k.activation == IL_ACT_ROUND ||
		    sc->tasks[i].k.activation == IL_ACT_EVENT)
			e->per_round++;
	}
	ret = place(e, res, why, len);
	if (!ret)
		ret = alloc_results(e, res, duration);
	if (!ret)
		ret = make_mutexes(e, res, why, len);
	if (!ret)
		ret = make_cgroups(e, res, why, len);
	if (!ret)
		ret = make_partitions(e, res, why, len);
	if (ret)
		goto out;
	prepare_tasks(e);

	for (int i = 0; i < e->n; i++) {
		ret = start_thread(&e->t[i]);
		if (ret) {
			snprintf(why, len, "cannot create a thread: %s",
				 strerror(-ret));
			goto stop;
		}
	}
	while (__atomic_load_n(&e->ready, __ATOMIC_ACQUIRE) < (uint32_t)e->n)
		il_futex_wait(&e->ready,
			      __atomic_load_n(&e->ready, __ATOMIC_ACQUIRE),
			      il_now_ns() + 100 * IL_NSEC_PER_MSEC);
	if (e->setup_err) {
		ret = e->setup_err;
		snprintf(why, len, "%s", e->setup_why);
		goto stop;
	}

	steal0 = steal_now(e);
	t0 = il_now_ns();
	e->t_start = t0 + IL_NSEC_PER_MSEC;
	e->t_end = e->t_start + duration;
	res->t_start_ns = e->t_start;
	next = e->t_start;
	il_futex_post(&e->go, 1);

	if (!e->per_round) {
		/* no rounds: wait for the end, in slices, noting the steal
		 * time as it grows */
		res->steal_cap = (size_t)(duration / STEAL_SLICE_NS) + 64;
		res->steal_t = calloc(res->steal_cap, sizeof(*res->steal_t));
		res->steal_v = calloc(res->steal_cap, sizeof(*res->steal_v));
		if (!res->steal_t || !res->steal_v) {
			free(res->steal_t);
			free(res->steal_v);
			res->steal_t = res->steal_v = NULL;
			res->steal_cap = 0;
		}
		steal_sample(res, t0, steal0);
		while (!stopping(e) && il_now_ns() < e->t_end) {
			il_sleep_until(il_now_ns() + STEAL_SLICE_NS < e->t_end
					       ? il_now_ns() + STEAL_SLICE_NS
					       : e->t_end,
				       e->ext_stop);
			steal_sample(res, il_now_ns(), steal_now(e));
			progress(e, o, res);
		}
	}
	for (uint32_t k = 1; e->per_round && !stopping(e); k++) {
		uint64_t now = il_now_ns(), deadline, s0;

		if (now >= e->t_end)
			break;
		e->r0 = il_round_release(now, next);
		for (int i = 0; i < e->n; i++)
			if (sc->tasks[i].k.activation == IL_ACT_ROUND)
				publish_release(
					&e->t[i],
					e->r0 + sc->tasks[i].k.offset_ns);
		s0 = steal_now(e);
		il_futex_post(&e->arm, k);
		/* a wait longer than the timeout stops the run by itself;
		 * a round still unfinished well after that is stuck */
		deadline = e->r0 + 3 * sc->g.timeout_ns + IL_NSEC_PER_SEC;
		for (;;) {
			uint32_t d =
				__atomic_load_n(&e->done, __ATOMIC_ACQUIRE);

			if (d >= e->per_round * k || stopping(e))
				break;
			if (il_now_ns() >= deadline) {
				char late[128] = "";
				size_t off = 0;

				for (int i = 0; i < e->n && off < sizeof(late);
				     i++)
					if ((sc->tasks[i].k.activation ==
						     IL_ACT_ROUND ||
					     sc->tasks[i].k.activation ==
						     IL_ACT_EVENT) &&
					    e->t[i].last_round < k)
						off += (size_t)snprintf(
							late + off,
							sizeof(late) - off,
							" %s",
							sc->tasks[i].name);
				mark_hung(e,
					  "round %u did not end in time "
					  "(%u of %u jobs); still running:%s",
					  k, d - e->per_round * (k - 1),
					  e->per_round, late);
				break;
			}
			il_futex_wait(&e->done, d,
				      il_now_ns() + 50 * IL_NSEC_PER_MSEC);
		}
		res->rounds = k;
		settle_foreign(e, res, sub0(steal_now(e), s0));
		progress(e, o, res);
		next = il_round_next(e->r0, il_now_ns());
	}
	res->steal_ns = sub0(steal_now(e), steal0);
	if (!e->per_round)
		steal_sample(res, il_now_ns(), steal0 + res->steal_ns);
	res->elapsed_ns = sub0(il_now_ns(), e->t_start);
	ret = 0;
stop:
	res->stopped =
		e->ext_stop && __atomic_load_n(e->ext_stop, __ATOMIC_RELAXED);
	res->hung = e->hung;
	snprintf(res->hung_why, sizeof(res->hung_why), "%s", e->hung_why);
	__atomic_store_n(&e->stop, 1, __ATOMIC_RELAXED);
	il_futex_post(&e->go, 1);
	for (int i = 0; i < e->n; i++)
		if (e->t[i].started)
			pthread_join(e->t[i].th, NULL);
	/* the second calibration of each recipe (see calibrate_kmutex);
	 * not when told to stop: then the program is to end promptly */
	if (!ret && !res->stopped)
		for (int r = 0; r < sc->nres; r++) {
			char m[200];

			if (e->km[r])
				calibrate_kmutex(e, res, r, m, sizeof(m));
		}
	for (int i = 0; i < e->n; i++)
		if (e->t[i].schedstat_fd >= 0)
			close(e->t[i].schedstat_fd);
	/* samples whose round never settled get no forgiveness */
	settle_foreign(e, res, 0);
out:
	for (int r = 0; r < sc->nres; r++)
		if (e->mtx[r]) {
			pthread_mutex_destroy(e->mtx[r]);
			il_free_on_node(e->mtx[r], sizeof(pthread_mutex_t));
		}
	/* the threads are gone: their groups and files can go too */
	for (int r = 0; r < sc->nres; r++)
		il_kmutex_close(e->km[r]);
	for (int g = 0; g < e->ncg; g++)
		il_cgroup_remove(&e->cg[g]);
	for (int g = 0; g < e->npcg; g++)
		il_cgroup_remove(&e->pcg[g]);
	free(e);
	if (ret)
		il_engine_result_free(res);
	return ret;
}

uint64_t il_steal_between(const struct il_engine_result *res, uint64_t from,
			  uint64_t to)
{
	size_t i = 0, j;

	if (res->nsteal < 2)
		return 0;
	/* the points are in time order: bisect for both ends */
	{
		size_t lo = 0, hi = res->nsteal;

		while (hi - lo > 1) {
			size_t mid = lo + (hi - lo) / 2;

			if (res->steal_t[mid] <= from)
				lo = mid;
			else
				hi = mid;
		}
		i = lo;
	}
	for (j = i; j + 1 < res->nsteal && res->steal_t[j] < to; j++)
		;
	return sub0(res->steal_v[j], res->steal_v[i]);
}

void il_engine_result_free(struct il_engine_result *res)
{
	free(res->steal_t);
	free(res->steal_v);
	res->steal_t = res->steal_v = NULL;
	res->nsteal = res->steal_cap = 0;
	for (int i = 0; i < IL_MAX_TASKS; i++) {
		struct il_task_result *r = &res->tasks[i];

		free(r->job_cpu_seq);
		free(r->job_start_seq);
		free(r->job_end_seq);
		free(r->job_rel_seq);
		r->job_cpu_seq = r->job_start_seq = r->job_end_seq = NULL;
		r->job_rel_seq = NULL;
		r->njob_cpu = r->job_cpu_cap = 0;
		for (int l = 0; l < r->nlocks; l++) {
			free(r->locks[l]->samples);
			free(r->locks[l]);
			r->locks[l] = NULL;
		}
		r->nlocks = 0;
		for (int k = 0; k < IL_MAX_RESOURCES; k++) {
			free(r->hold[k]);
			r->hold[k] = NULL;
		}
	}
}

/* ------------------------------------------------------------------ */
/* calibration                                                          */

struct calib {
	int cpu, samples, err;
	uint64_t period;
	const struct il_sched *s;
	const int *stop;
	struct il_hist *h;
	char why[200];
};

static void *calib_thread(void *arg)
{
	struct calib *c = arg;
	uint64_t t;

	if (c->cpu >= 0 && (c->err = il_pin_cpu(0, c->cpu))) {
		snprintf(c->why, sizeof(c->why), "cannot pin to CPU %d: %s",
			 c->cpu, strerror(-c->err));
		return NULL;
	}
	if ((c->err = il_sched_set(0, c->s))) {
		il_sched_strerror(c->err, c->s, c->why, sizeof(c->why));
		return NULL;
	}
	t = il_now_ns();
	for (int i = 0; i < c->samples; i++) {
		if (c->stop && __atomic_load_n(c->stop, __ATOMIC_RELAXED))
			break;
		t += c->period;
		if (il_sleep_until(t, c->stop))
			break;
		il_hist_record(c->h, sub0(il_now_ns(), t));
	}
	return NULL;
}

int il_engine_calibrate(int cpu, const struct il_sched *s, int samples,
			uint64_t period_ns, const int *stop, struct il_hist *h,
			char *why, size_t len)
{
	struct calib c = { .cpu = cpu,
			   .samples = samples,
			   .period = period_ns,
			   .s = s,
			   .stop = stop,
			   .h = h };
	sigset_t all, old;
	pthread_t t;
	int ret;

	il_hist_init(h);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	ret = pthread_create(&t, NULL, calib_thread, &c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		snprintf(why, len, "cannot create a thread: %s", strerror(ret));
		return -ret;
	}
	pthread_join(t, NULL);
	if (c.err)
		snprintf(why, len, "%s", c.why);
	return c.err;
}
