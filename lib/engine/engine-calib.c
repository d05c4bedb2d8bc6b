// SPDX-License-Identifier: MIT
/*
 * Calibrations: the idle wakeup latency of a class on a CPU
 * (il_engine_calibrate), and the uncontended cost of a kernel-mutex
 * recipe, measured before and after a run.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/cpu.h>
#include <invlab/engine.h>
#include <invlab/hist.h>
#include <invlab/kmutex.h>
#include <invlab/sched.h>
#include <invlab/time.h>
#include <invlab/trace.h>

#include "engine-private.h"

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
int __il_calibrate_kmutex(struct engine *e, struct il_engine_result *res, int r,
			  char *m, size_t len)
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

/* ------------------------------------------------------------------ */
/* calibration                                                          */

struct calib {
	int cpu, samples, err;
	uint64_t period;
	const struct il_sched *s;
	const int *stop;
	struct il_hist *h;
	/* with a trace: each wakeup's due time and latency, kept until the
	 * trace is read (il_trace_remove_above), and the thread's id */
	uint64_t *due, *lat;
	int n, tid;
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
	c->tid = (int)il_gettid();
	t = il_now_ns();
	for (int i = 0; i < c->samples; i++) {
		uint64_t now;

		if (c->stop && __atomic_load_n(c->stop, __ATOMIC_RELAXED))
			break;
		t += c->period;
		if (il_sleep_until(t, c->stop))
			break;
		now = il_now_ns();
		if (c->due) {
			c->due[c->n] = t;
			c->lat[c->n++] = sub0(now, t);
		} else {
			il_hist_record(c->h, sub0(now, t));
		}
		/*
		 * Woken after the next wakeups were due: they passed while
		 * this thread could not run, and sleeping until each would
		 * return at once with the same stall less a period, so one
		 * stall of 240 ms (a host's, under TCG) gave 1,200 samples
		 * and set the p999 and even the p90.  The next wakeup is the
		 * first one still ahead (cyclictest's overrun rule): a stall
		 * counts once.
		 */
		if (c->period && now > t + c->period)
			t += (now - t) / c->period * c->period;
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

	struct il_tracer *tr = NULL;
	char tw[200];

	il_hist_init(h);
	/*
	 * With a trace, a wakeup delayed by a task at or above the
	 * calibrating class is interference, not noise: the checks remove
	 * it from the waits by name, so it is not allowed for twice.
	 */
	if (cpu >= 0 && samples > 0 && il_trace_default() != IL_TRACE_OFF &&
	    il_trace_available(tw, sizeof(tw))) {
		c.due = malloc((size_t)samples * sizeof(*c.due));
		c.lat = malloc((size_t)samples * sizeof(*c.lat));
		/* who ran on its CPU is all that is looked at */
		struct il_trace_scope sc = { .cpus = &cpu,
					     .ncpus = 1,
					     .switches_only = true };

		if (!c.due || !c.lat ||
		    il_trace_start_scope((uint64_t)samples * period_ns, &sc,
					 &tr, tw, sizeof(tw))) {
			free(c.due);
			free(c.lat);
			c.due = c.lat = NULL;
		}
	}
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	ret = pthread_create(&t, NULL, calib_thread, &c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		snprintf(why, len, "cannot create a thread: %s", strerror(ret));
		il_trace_close(tr);
		free(c.due);
		free(c.lat);
		return -ret;
	}
	pthread_join(t, NULL);
	if (tr) {
		struct il_trace trace;

		if (!il_trace_stop(tr, &trace, tw, sizeof(tw)) && !trace.lost)
			il_trace_remove_above(&trace, cpu, il_trace_kprio(s),
					      c.tid, c.due, c.lat, (size_t)c.n);
		il_trace_free(&trace);
		il_trace_close(tr);
		for (int i = 0; i < c.n; i++)
			il_hist_record(h, c.lat[i]);
		free(c.due);
		free(c.lat);
	}
	if (c.err)
		snprintf(why, len, "%s", c.why);
	return c.err;
}
