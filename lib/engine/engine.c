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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <invlab/cgacct.h>
#include <invlab/cgroup.h>
#include <invlab/counters.h>
#include <invlab/engine.h>
#include <invlab/kmutex.h>
#include <invlab/release.h>
#include <invlab/runlock.h>
#include <invlab/sync.h>
#include <invlab/time.h>
#include <invlab/trace.h>

#include "engine-private.h"

/* the live view's hook, at most once a second, never from a task; it
 * gets a copy, as the tasks write res (engine-live.c) */
static void progress(struct engine *e, const struct il_engine_opts *o,
		     struct il_engine_result *res)
{
	const struct il_engine_result *copy;
	uint64_t now;

	if (!o || !o->progress)
		return;
	now = il_now_ns();
	if (now < e->next_progress)
		return;
	e->next_progress = now + IL_NSEC_PER_SEC;
	copy = __il_live_copy(e, res);
	if (copy)
		o->progress(o->progress_ctx, copy);
}

/*
 * memset(res, 0, ...), writing only the pages that are not zero yet: of a
 * result from il_engine_result_new(), or on a fresh stack, the pages of
 * the tasks that do not exist are never written, so they take no memory
 * (a result is 2.4 MB; a task's part of it 150 KB).
 */
static void zero_result(struct il_engine_result *res)
{
	const size_t page = 4096;
	unsigned char *p = (unsigned char *)res;
	size_t n = sizeof(*res);

	for (size_t off = 0; off < n; off += page) {
		size_t len = n - off < page ? n - off : page;
		size_t i = 0;

		while (i < len && !p[off + i])
			i++;
		if (i < len)
			memset(p + off, 0, len);
	}
}

/*
 * --trace: on fails the run when no trace can be made (-EPERM, a missing
 * privilege or kernel feature); auto goes on without and says so.
 */
static int start_trace(struct il_engine_result *res, uint64_t duration,
		       struct il_tracer **tr, char *why, size_t len)
{
	enum il_trace_mode m = il_trace_default();
	int cpus[IL_MAX_TASKS], pids[IL_MAX_TASKS], ncpus = 0, npids = 0;
	struct il_trace_scope scope;
	bool all_cpus = false;
	char w[200] = "";
	int ret;

	*tr = NULL;
	if (m == IL_TRACE_OFF) {
		snprintf(res->trace_note, sizeof(res->trace_note),
			 "no trace (--trace=off)");
		return 0;
	}
	/* the scenario's CPUs (when every task is pinned) and threads */
	for (int i = 0; i < res->ntasks; i++) {
		bool seen = false;

		pids[npids++] = res->tasks[i].tid;
		for (int k = 0; k < ncpus; k++)
			seen |= cpus[k] == res->tasks[i].cpu;
		if (res->tasks[i].cpu < 0)
			all_cpus = true;
		else if (!seen)
			cpus[ncpus++] = res->tasks[i].cpu;
	}
	scope = (struct il_trace_scope){ .cpus = cpus,
					 .ncpus = all_cpus ? 0 : ncpus,
					 .pids = pids,
					 .npids = npids,
					 .runtime = true };
	ret = il_trace_available(w, sizeof(w))
		      ? il_trace_start_scope(duration, &scope, tr, w, sizeof(w))
		      : -EPERM;
	if (ret && m == IL_TRACE_ON) {
		snprintf(why, len, "--trace=on: %s", w);
		return ret == -ENOTSUP || ret == -EACCES ? -EPERM : ret;
	}
	if (ret)
		snprintf(res->trace_note, sizeof(res->trace_note),
			 "no trace (%s)", w);
	return 0;
}

/* after the run: switch it off, read it into res->trace, remove it */
static void read_trace(struct il_engine_result *res, struct il_tracer *tr)
{
	char w[200] = "";

	if (!tr)
		return;
	res->trace = calloc(1, sizeof(*res->trace));
	if (!res->trace)
		snprintf(res->trace_note, sizeof(res->trace_note),
			 "no trace (out of memory)");
	else if (il_trace_stop(tr, res->trace, w, sizeof(w))) {
		snprintf(res->trace_note, sizeof(res->trace_note),
			 "no trace (%s)", w);
		il_trace_free(res->trace);
		free(res->trace);
		res->trace = NULL;
	} else {
		char rd[24], su[24];

		il_format_duration(rd, sizeof(rd), res->trace->read_cpu_ns);
		il_format_duration(su, sizeof(su), res->trace->setup_cpu_ns);
		snprintf(
			res->trace_note, sizeof(res->trace_note),
			"traced: %.170s, %zu records, %llu lost, %llu switches "
			"from idle put back; recorder CPU: setup %s, reading "
			"%s",
			res->trace->how, res->trace->n,
			(unsigned long long)res->trace->lost,
			(unsigned long long)res->trace->filled, su, rd);
	}
	il_trace_close(tr);
}

/* a round's start and end, for the exported trace (engine.h) */
static void note_round(struct il_engine_result *res, uint64_t r0, uint64_t end)
{
	if (res->nround_t == res->round_t_cap) {
		size_t cap = res->round_t_cap ? 2 * res->round_t_cap : 1024;
		uint64_t *a = realloc(res->round_t, cap * sizeof(*a));

		if (a)
			res->round_t = a;
		a = a ? realloc(res->round_end_t, cap * sizeof(*a)) : NULL;
		if (!a)
			return;
		res->round_end_t = a;
		res->round_t_cap = cap;
	}
	res->round_t[res->nround_t] = r0;
	res->round_end_t[res->nround_t++] = end;
}

/*
 * The groups' accounts and their tasks' run time (cgacct.h), read while
 * no task of them runs, so that no account lags behind the entity that
 * ran (the kernel brings a group's up to date when its task stops): at
 * the start, every thread waiting to go, each one's run time from its
 * schedstat file; at the end, every thread gone, the run time it noted
 * as it ended.  Into charged[] and own[] per group; false, with the
 * reason in res, when the scheduler's file cannot be read or does not
 * name a group.
 */
static bool read_accounts(const struct engine *e, struct il_engine_result *res,
			  bool ended, uint64_t *charged, uint64_t *own)
{
	const char *dirs[IL_MAX_TASKS];
	unsigned char found[IL_MAX_TASKS];
	int ret;

	for (int g = 0; g < e->ncg; g++)
		dirs[g] = e->cg[g].path;
	ret = il_cgacct_read(dirs, e->ncg, charged, found);
	if (ret < 0) {
		snprintf(res->cg_acct_note, sizeof(res->cg_acct_note), "%s: %s",
			 IL_CGACCT_FILE,
			 ret == -ENOENT ? "not there (debugfs not mounted?)"
					: strerror(-ret));
		return false;
	}
	for (int g = 0; g < e->ncg; g++) {
		if (!found[g]) {
			snprintf(res->cg_acct_note, sizeof(res->cg_acct_note),
				 "%s does not name group %s", IL_CGACCT_FILE,
				 e->cg[g].name);
			return false;
		}
		own[g] = 0;
	}
	for (int i = 0; i < e->n; i++) {
		uint64_t run;

		if (e->t[i].cg < 0 || e->t[i].cg >= e->ncg)
			continue;
		run = ended ? __atomic_load_n(&e->t[i].run_end_ns,
					      __ATOMIC_ACQUIRE)
			    : __il_task_run_ns(&e->t[i]);
		own[e->t[i].cg] += run;
	}
	return true;
}

/* the sample target reached (il_engine_samples)?  The caller's thread
 * asks between rounds, or every slice of a run without rounds */
static bool have_samples(const struct engine *e,
			 const struct il_engine_result *res)
{
	return res->samples_target &&
	       il_engine_samples(e->sc, res, e->samples_task, NULL, NULL) >=
		       res->samples_target;
}

/* after the run, the threads gone: what ended it, and the count */
static void note_end(const struct engine *e, struct il_engine_result *res,
		     bool got)
{
	const struct il_scenario *sc = e->sc;
	int who = -1, waits = 0;

	res->samples =
		il_engine_samples(sc, res, e->samples_task, &who, &waits);
	if (who >= 0) {
		const struct il_task *t = &sc->tasks[who];
		const char *what = waits ? "waits" : "jobs";

		/* a kernel-mutex call is the wait a recipe measures */
		for (int p = 0; waits && p < t->nphases; p++)
			if (t->phases[p].kind == IL_PH_LOCK ||
			    t->phases[p].kind == IL_PH_CALL) {
				if (t->phases[p].kind == IL_PH_CALL)
					what = "calls";
				break;
			}
		snprintf(res->samples_of, sizeof(res->samples_of), "%.31s's %s",
			 t->name, what);
	}
	res->ended = res->hung	    ? IL_END_HUNG
		     : res->stopped ? IL_END_STOPPED
		     : got	    ? IL_END_SAMPLES
				    : IL_END_DURATION;
}

int il_engine_run(const struct il_scenario *sc, const struct il_engine_opts *o,
		  struct il_engine_result *res, char *why, size_t len)
{
	uint64_t duration =
		o && o->duration_ns ? o->duration_ns : sc->g.duration_ns;
	uint64_t steal0, steal, next, t0, per[IL_STEAL_CPUS] = { 0 };
	struct il_tracer *tr = NULL;
	struct il_counters ctr[IL_MAX_TASKS];
	bool counting = false;
	struct il_probe *probe = NULL;
	uint64_t charged0[IL_MAX_TASKS], own0[IL_MAX_TASKS];
	bool accounts = false;
	struct engine *e;
	bool got = false; /* ended by the sample target */
	int ret = 0;

	zero_result(res);
	why[0] = '\0';
	res->duration_ns = duration;
	res->samples_target = sc->g.samples > 0 ? (uint64_t)sc->g.samples : 0;
	/* undo what killed runs left, one run per CPU (runlock.h) */
	if ((ret = il_run_begin(sc, o ? o->stop : NULL, why, len)))
		return ret;
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->sc = sc;
	e->n = sc->ntasks;
	e->ext_stop = o ? o->stop : NULL;
	e->notes = o && o->notes && o->notes->round ? o->notes : NULL;
	e->partition = o && o->partition;
	e->boost_from =
		o && o->boost_from ? il_scenario_task(sc, o->boost_from) : -1;
	e->samples_task = o && o->samples_task
				  ? il_scenario_task(sc, o->samples_task)
				  : -1;
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
	ret = __il_place(e, res, why, len);
	if (!ret)
		ret = __il_alloc_results(e, res, duration);
	if (!ret)
		ret = __il_make_mutexes(e, res, why, len);
	if (!ret)
		ret = __il_make_cgroups(e, res, why, len);
	if (!ret)
		ret = __il_make_partitions(e, res, why, len);
	if (ret)
		goto out;
	__il_prepare_tasks(e);
	/* the tracepoint ids, before there are threads (counters.h) */
	if (il_counters_wanted())
		(void)il_counters_tracepoint_id("sched", "sched_switch");

	for (int i = 0; i < e->n; i++) {
		ret = __il_start_thread(&e->t[i]);
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

	/* the tasks' counters, opened before the measured part; a counter
	 * that cannot be had is marked so in the result, not an error */
	for (int i = 0; i < e->n; i++) {
		ctr[i].tid = -1; /* not opened: nothing to read or close */
		if (il_counters_wanted() && res->tasks[i].tid > 0 &&
		    il_counters_open(&ctr[i], res->tasks[i].tid, 0)) {
			il_counters_close(&ctr[i]);
			ctr[i].tid = -1;
		}
	}
	counting = true;
	/* the probe beside it (probe.h): what it cannot do is in res->probe */
	ret = il_probe_start(o ? o->probe : NULL, sc,
			     e->all_cpus ? NULL : e->cpus_used, duration,
			     e->ext_stop, &probe, &res->probe);
	if (ret)
		goto stop;
	/* the scheduler's trace of the measured part (trace.h) */
	ret = start_trace(res, duration, &tr, why, len);
	if (ret)
		goto stop;
	/* the groups' accounts, from the start of the measured part */
	accounts = e->ncg && read_accounts(e, res, false, charged0, own0);
	__il_steal_cpus(e, res);
	steal0 = __il_steal_read(e, res, per);
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
		res->steal_cv =
			res->steal_ncpu
				? calloc(res->steal_cap *
						 (size_t)res->steal_ncpu,
					 sizeof(*res->steal_cv))
				: NULL;
		if (!res->steal_t || !res->steal_v) {
			free(res->steal_t);
			free(res->steal_v);
			free(res->steal_cv);
			res->steal_t = res->steal_v = res->steal_cv = NULL;
			res->steal_cap = 0;
		}
		/* without the CPUs' own columns: the sum alone */
		if (!res->steal_cv)
			res->steal_ncpu = 0;
		__il_steal_sample(res, t0, steal0, per);
		while (!stopping(e) && il_now_ns() < e->t_end &&
		       !(got = have_samples(e, res))) {
			il_sleep_until(il_now_ns() + STEAL_SLICE_NS < e->t_end
					       ? il_now_ns() + STEAL_SLICE_NS
					       : e->t_end,
				       e->ext_stop);
			steal = __il_steal_read(e, res, per);
			__il_steal_sample(res, il_now_ns(), steal, per);
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
				__il_publish_release(
					&e->t[i],
					e->r0 + sc->tasks[i].k.offset_ns);
		s0 = __il_steal_now(e);
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
				__il_mark_hung(
					e,
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
		note_round(res, e->r0, il_now_ns());
		if (e->notes && k == e->notes->round)
			__atomic_store_n(&e->notes->over, 1, __ATOMIC_RELEASE);
		__il_settle_foreign(e, res, sub0(__il_steal_now(e), s0));
		progress(e, o, res);
		if ((got = have_samples(e, res)))
			break;
		next = il_round_next(e->r0, il_now_ns());
	}
	/* a target met ends the run as its end of time would: no task
	 * starts another job, those under way finish */
	if (got)
		__atomic_store_n(&e->t_end, il_now_ns(), __ATOMIC_RELAXED);
	steal = __il_steal_read(e, res, per);
	res->steal_ns = sub0(steal, steal0);
	if (!e->per_round)
		__il_steal_sample(res, il_now_ns(), steal, per);
	res->elapsed_ns = sub0(il_now_ns(), e->t_start);
	ret = 0;
stop:
	/* after the measured part, while the threads (and their /proc
	 * files) are still there */
	for (int i = 0; counting && i < e->n; i++) {
		if (ctr[i].tid < 0)
			continue;
		if (!il_counters_read(&ctr[i], &res->tasks[i].counters))
			il_counters_add(&res->counters,
					&res->tasks[i].counters);
		il_counters_close(&ctr[i]);
	}
	res->stopped =
		e->ext_stop && __atomic_load_n(e->ext_stop, __ATOMIC_RELAXED);
	res->hung = e->hung;
	snprintf(res->hung_why, sizeof(res->hung_why), "%s", e->hung_why);
	__atomic_store_n(&e->stop, 1, __ATOMIC_RELAXED);
	il_futex_post(&e->go, 1);
	for (int i = 0; i < e->n; i++)
		if (e->t[i].started)
			pthread_join(e->t[i].th, NULL);
	if (accounts) {
		uint64_t charged1[IL_MAX_TASKS], own1[IL_MAX_TASKS];

		if (read_accounts(e, res, true, charged1, own1)) {
			for (int g = 0; g < e->ncg; g++) {
				snprintf(res->cg_acct_name[g],
					 sizeof(res->cg_acct_name[g]), "%s",
					 e->cg[g].name);
				res->cg_charged_ns[g] =
					sub0(charged1[g], charged0[g]);
				res->cg_own_ns[g] = sub0(own1[g], own0[g]);
			}
			res->ncg_acct = e->ncg;
		}
	}
	/* the threads are gone: their memory is as they left it */
	__il_memory_where(e, res);
	if (!ret)
		note_end(e, res, got);
	il_probe_stop(probe, res->probe);
	if (e->notes) /* the noted round may never have come */
		__atomic_store_n(&e->notes->over, 2, __ATOMIC_RELEASE);
	read_trace(res, tr);
	/* the second calibration of each recipe (see __il_calibrate_kmutex);
	 * not when told to stop: then the program is to end promptly */
	if (!ret && !res->stopped)
		for (int r = 0; r < sc->nres; r++) {
			char m[200];

			if (e->km[r])
				__il_calibrate_kmutex(e, res, r, m, sizeof(m));
		}
	for (int i = 0; i < e->n; i++)
		if (e->t[i].schedstat_fd >= 0)
			close(e->t[i].schedstat_fd);
	/* samples whose round never settled get no forgiveness */
	__il_settle_foreign(e, res, 0);
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
	__il_live_free(e);
	free(e);
	if (ret)
		il_engine_result_free(res);
	return ret;
}
