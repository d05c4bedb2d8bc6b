// SPDX-License-Identifier: MIT
/*
 * The engine's task threads: each sets itself up (partition, affinity,
 * class, cgroup, kernel-mutex recipes), then runs its jobs phase by
 * phase, watching the others' releases so that a waiter can tell who ran
 * while it waited (see engine.c), and records what each job measured.
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
#include <time.h>
#include <unistd.h>

#include <invlab/cgroup.h>
#include <invlab/cpu.h>
#include <invlab/dlstat.h>
#include <invlab/engine.h>
#include <invlab/kmutex.h>
#include <invlab/membind.h>
#include <invlab/release.h>
#include <invlab/sched.h>
#include <invlab/sync.h>
#include <invlab/time.h>

#include "engine-private.h"

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

uint64_t __il_task_run_ns(const struct trt *t)
{
	char buf[128];
	ssize_t n;
	unsigned long long exec;

	if (t->schedstat_fd < 0)
		return 0;
	n = pread(t->schedstat_fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return sscanf(buf, "%llu", &exec) == 1 ? exec : 0;
}

/* ------------------------------------------------------------------ */
/* watching releases                                                    */

/*
 * A release is two words that others read while it may change: its time
 * (rel) and its number (rel_seq), which names the release in seen_seq.
 * Both are atomics, and nobody waits for a consistent pair: a real-time
 * reader that spun until a descheduled writer on its own CPU finished
 * would never let it finish.  The order makes a torn pair harmless:
 *
 *   publish_release:  store rel (relaxed), then add 1 to rel_seq (release)
 *   observe:          load rel_seq (acquire), then load rel (relaxed)
 *
 * A reader that acquires rel_seq = s therefore reads the time of release
 * s or of a later one, never an earlier one.  A later one is published
 * by the orchestrator between rounds, by the task itself between jobs,
 * or at a signal of its event, and a task's releases only move forward,
 * so "that time has passed" holds for s too, and the note taken for s is
 * the one the reader would have taken anyway; if the later time has not
 * passed yet, the reader notes nothing, as if it had not looked.  The
 * addition is atomic because an event task's release is published by
 * every task that signals the event.  boost_req and ev_time are
 * published the same way, before boost_seq and ev.
 */
void __il_publish_release(struct trt *me, uint64_t rel)
{
	__atomic_store_n(&me->rel, rel, __ATOMIC_RELAXED);
	__atomic_fetch_add(&me->rel_seq, 1, __ATOMIC_RELEASE);
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
		il_hist_record(&me->r->boost,
			       sub0(now, __atomic_load_n(&e->boost_req,
							 __ATOMIC_RELAXED)));
		me->boost_seen = seq;
	}
}

/* observe()'s cpu when the caller has not read the CPU clock: it is read
 * only if a release is noted */
#define CPU_LATER UINT64_MAX

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
		/* see __il_publish_release for the order of these loads */
		seq = __atomic_load_n(&o->rel_seq, __ATOMIC_ACQUIRE);
		if (seq == me->seen_seq[w] ||
		    now < __atomic_load_n(&o->rel, __ATOMIC_RELAXED))
			continue;
		if (cpu == CPU_LATER)
			cpu = il_thread_cpu_ns();
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

/*
 * ns of this thread's CPU time.  The CPU clock is a system call, and each
 * read is an update of the scheduler's accounting (a sched_stat_runtime
 * event: hundreds of thousands a second in a trace that records them);
 * the wall clock is neither, and CPU time never runs ahead of it.  So
 * the wall clock is spun on for what is left, then the CPU clock read
 * again: twice in all when nothing takes the CPU away.
 */
static void run_cpu(struct trt *me, uint64_t ns)
{
	uint64_t c = il_thread_cpu_ns(), end = c + ns;

	while (c < end && !stopping(me->e)) {
		uint64_t now = il_now_ns(), until = now + (end - c);

		do {
			observe(me, now, CPU_LATER);
			now = il_now_ns();
		} while (now < until && !stopping(me->e));
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
		observe(me, now, CPU_LATER);
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
			__il_publish_release(&e->t[i], now);
	__atomic_store_n(&e->ev_time[event], now, __ATOMIC_RELAXED);
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
void __il_mark_hung(struct engine *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void __il_mark_hung(struct engine *e, const char *fmt, ...)
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
	/* --stage: this job's phases noted for the narration (stage.h) */
	struct il_stage_task_notes *nt = e->notes && k == e->notes->round
						 ? &e->notes->task[me->idx]
						 : NULL;

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

		if (nt)
			nt->begin[p] = il_now_ns();
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
				__il_mark_hung(
					e,
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
			/* a section begins: the deboost check's ledger */
			if (!call && !held && !me->lean && r->sect_from_seq &&
			    r->nsect < r->sect_cap)
				r->sect_from_seq[r->nsect] = t_req;
			if (first_lock && me->idx == e->boost_from) {
				__atomic_store_n(&e->boost_req, t_req,
						 __ATOMIC_RELAXED);
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
				s->t_ns = rel;
				s->t_req_ns = t_req;
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
				__atomic_store_n(&lr->late, lr->late + 1,
						 __ATOMIC_RELAXED);
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
						__atomic_store_n(
							&r->hold_max[ph->res],
							h, __ATOMIC_RELAXED);
				}
				if (call_err)
					__il_mark_hung(
						e,
						"task '%s': call '%s' failed: "
						"%s (job %u)",
						t->name,
						e->sc->res[ph->res].name,
						strerror(-call_err), k);
				else if (ret)
					__il_mark_hung(
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
				__il_mark_hung(
					e,
					"task '%s' did not get '%s' within "
					"the timeout (round %u)",
					t->name, e->sc->res[ph->res].name, k);
				goto out;
			}
			break;
		}
		case IL_PH_UNLOCK: {
			uint64_t c, now;

			pthread_mutex_unlock(e->mtx[ph->res]);
			held &= ~(1u << ph->res);
			c = il_thread_cpu_ns();
			if (r->hold[ph->res]) {
				uint64_t h = sub0(c, hold_from[ph->res]);

				il_hist_record(r->hold[ph->res], h);
				if (h > r->hold_max[ph->res])
					__atomic_store_n(&r->hold_max[ph->res],
							 h, __ATOMIC_RELAXED);
			}
			now = il_now_ns();
			observe(me, now, c);
			/* and ends, once the unlock of the last has returned:
			 * the clock read observe takes, no other (a moment
			 * late, so a gap starts after the unlock, never
			 * before) */
			if (!held && !me->lean && r->sect_to_seq &&
			    r->nsect < r->sect_cap) {
				r->sect_to_seq[r->nsect] = now;
				__atomic_store_n(&r->nsect, r->nsect + 1,
						 __ATOMIC_RELEASE);
			}
			break;
		}
		}
		if (nt)
			nt->done[p] = il_now_ns();
	}
out:
	/* a job cut short by a stop still releases what it holds, so no
	 * other task waits for it until its timeout */
	for (int res = 0; res < IL_MAX_RESOURCES; res++)
		if (held & (1u << res))
			pthread_mutex_unlock(e->mtx[res]);
	{
		uint64_t end = il_now_ns(), resp = sub0(end, rel), own_cpu = 0;
		uint64_t dl = t->sched.policy == IL_SCHED_DEADLINE
				      ? t->sched.deadline_ns
			      : t->k.activation == IL_ACT_PERIODIC
				      ? t->k.period_ns
				      : 0;

		/* the counts are stored whole: the live view copies them */
		__atomic_store_n(&r->jobs, r->jobs + 1, __ATOMIC_RELAXED);
		il_hist_record(&r->response, resp);
		if (!me->lean) {
			uint64_t used = sub0(il_thread_cpu_ns(), cpu0);

			own_cpu = used;

			il_hist_record(&r->job_cpu, used);
			/* periodic jobs in order: one per period of a
			 * reservation */
			if (r->njob_cpu < r->job_cpu_cap) {
				r->job_rel_seq[r->njob_cpu] = rel;
				r->job_start_seq[r->njob_cpu] = start;
				r->job_end_seq[r->njob_cpu] = end;
				r->job_cpu_seq[r->njob_cpu] = used;
				/* complete before counted, as samples */
				__atomic_store_n(&r->njob_cpu, r->njob_cpu + 1,
						 __ATOMIC_RELEASE);
			}
		}
		if (dl && resp > dl)
			__atomic_store_n(&r->misses, r->misses + 1,
					 __ATOMIC_RELAXED);
		if (nt) {
			nt->rel = rel;
			nt->start = start;
			nt->end = end;
			__atomic_store_n(&nt->noted, 1, __ATOMIC_RELEASE);
		}
		if (me->dl_fd >= 0) {
			struct il_dlstat dl1;
			uint64_t used;

			if (have_dl0 &&
			    il_dlstat_read_fd(me->dl_fd, &dl1) == 0 &&
			    il_dl_budget_consumed(
				    &dl0, &dl1, t->sched.runtime_ns,
				    t->sched.period_ns, &used, NULL) == 0) {
				il_hist_record(&r->budget, used);
				if (!me->lean)
					il_hist_record(&r->budget_lent,
						       sub0(used, own_cpu));
			} else
				__atomic_store_n(&r->budget_unknown,
						 r->budget_unknown + 1,
						 __ATOMIC_RELAXED);
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
			snprintf(me->setup_why, sizeof(me->setup_why),
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
			snprintf(me->setup_why, sizeof(me->setup_why),
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
	char comm[16];
	int ret = 0;

	/* named after its task, so that a trace reads like the scenario */
	snprintf(comm, sizeof(comm), "%.15s", t->name);
	pthread_setname_np(pthread_self(), comm);
	me->r->tid = (int)il_gettid();
	pthread_getcpuclockid(pthread_self(), &me->clk);
	me->schedstat_fd =
		open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	/* its own policy before anything it allocates: the C library's
	 * arena, a recipe's buffers (its region is bound already) */
	if (t->k.node >= 0 && (ret = il_membind_thread((int)t->k.node))) {
		snprintf(me->setup_why, sizeof(me->setup_why),
			 "task '%s': node = %lld: cannot bind its memory "
			 "(set_mempolicy): %s",
			 t->name, (long long)t->k.node, strerror(-ret));
	} else if (me->pcg >= 0) {
		/* a partition first: a deadline task's affinity must
		 * already be its root domain's when it becomes one */
		char m[160];

		ret = il_cgroup_attach(&e->pcg[me->pcg], il_gettid(), m,
				       sizeof(m));
		if (ret) {
			snprintf(me->setup_why, sizeof(me->setup_why),
				 "task '%s': cannot join its cpuset partition: "
				 "%s",
				 t->name, m);
			ret = -EPERM;
		}
	}
	if (ret) {
		/* said above */
	} else if (me->pinned && (ret = il_pin_mask(0, me->mask))) {
		snprintf(me->setup_why, sizeof(me->setup_why),
			 "task '%s': cannot set its CPU affinity (%s): %s",
			 t->name, t->k.cpu, strerror(-ret));
	} else if ((ret = il_sched_set(0, &t->sched))) {
		char why[200];

		il_sched_strerror(ret, &t->sched, why, sizeof(why));
		snprintf(me->setup_why, sizeof(me->setup_why), "task '%s': %s",
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
	if (ret) {
		int expect = 0;

		/* the first task that fails says why; ready, counted next,
		 * publishes both to the orchestrator */
		if (__atomic_compare_exchange_n(&e->setup_err, &expect, ret,
						false, __ATOMIC_RELAXED,
						__ATOMIC_RELAXED))
			memcpy(e->setup_why, me->setup_why,
			       sizeof(e->setup_why));
	}
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
			run_job(me,
				__atomic_load_n(&e->ev_time[t->on_event],
						__ATOMIC_RELAXED),
				k);
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

		while (!stopping(e) && rel < end_of(e)) {
			__il_publish_release(me, rel);
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

		__il_publish_release(me, e->t_start);
		il_sleep_until(e->t_start + t->k.offset_ns, &e->stop);
		while (!stopping(e) && il_now_ns() < end_of(e))
			run_job(me, il_now_ns(), ++k);
		break;
	}
	}
	if (me->boost_watch)
		close(me->stat_fd);
	if (me->dl_fd >= 0)
		close(me->dl_fd);
	__atomic_store_n(&me->run_end_ns, __il_task_run_ns(me),
			 __ATOMIC_RELEASE);
	return NULL;
}

int __il_start_thread(struct trt *tr)
{
	sigset_t all, old;
	pthread_attr_t a;
	int ret;

	/* signals are for the caller's thread, never for a measurement */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_attr_init(&a);
	/* a task with a node runs on the stack of its region, bound to that
	 * node, above its guard page (engine-setup.c) */
	if (tr->r->mem)
		ret = pthread_attr_setstack(
			&a, (char *)tr->r->mem + il_membind_round(1),
			TASK_STACK);
	else
		ret = pthread_attr_setstacksize(&a, TASK_STACK);
	if (!ret)
		ret = pthread_create(&tr->th, &a, task_thread, tr);
	pthread_attr_destroy(&a);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	tr->started = ret == 0;
	return -ret;
}
