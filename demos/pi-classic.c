// SPDX-License-Identifier: MIT
/*
 * pi-classic: the three-task priority inversion (the Mars Pathfinder
 * case), run and judged under each pthread mutex protocol.
 *
 *   sudo pi-classic                      # none, inherit and protect, 3 s each
 *   sudo pi-classic -p inherit -d 10s --json out.json
 *
 * Three SCHED_FIFO threads share one CPU.  Each round is ordered by
 * hand-offs, not by hoping sleeps line up:
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
 * For each round the threads' CPU clocks tell who ran while high waited:
 * low (the bounded part), medium (the inversion) or nobody in the
 * scenario (steal, interrupts: noise).  validators/pi.c judges that
 * against the bound; the noise allowance comes from a wakeup-latency
 * calibration on the same CPU just before each protocol's run.
 *
 * Exit: 0 every verdict as expected (none fails, inherit and protect
 * pass), 1 otherwise, 2 bad usage, 77 cannot run here (reason printed),
 * 99 broken setup, 128+N interrupted by signal N (results still written).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <invlab/cpu.h>
#include <invlab/hist.h>
#include <invlab/opt.h>
#include <invlab/report.h>
#include <invlab/sched.h>
#include <invlab/sync.h>
#include <invlab/sysinfo.h>
#include <invlab/time.h>
#include <invlab/validate.h>
#include <invlab/verdict.h>

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
	{ NULL },
};
#undef O

static const struct il_opt *const tables[] = { il_common_opts, pi_opts, NULL };

/* per-round flags */
#define R_LATE 1u	/* low had not locked by high's release: not judged */
#define R_TIMEOUT 2u	/* high never got the mutex within the bound */
#define R_UNSTARTED 4u	/* stopped before the round ran */

struct round {
	uint64_t wakeup_ns;  /* high: release -> running */
	uint64_t blocked_ns; /* high: request -> acquired */
	uint64_t delay_ns;   /* high: release -> acquired */
	uint64_t foreign_ns; /* part of delay no scenario thread ran */
	uint64_t lower_ns;   /* medium's CPU time during the wait */
	uint64_t hold_ns;    /* low's critical section, CPU time */
	unsigned flags;
};

/* Shared by the three threads of one protocol's run. */
struct run {
	const struct cfg *cfg;
	int cpu;
	int protocol;
	uint64_t lead_ns;
	pthread_mutex_t m;

	/* futex words, each holding a round number or a count */
	uint32_t arm;	   /* round released by the orchestrator */
	uint32_t held;	   /* round whose mutex low holds */
	uint32_t med_go;   /* round in which medium was released */
	uint32_t acquired; /* round in which high got the mutex */
	uint32_t done;	   /* thread completions, 3 per round */
	uint32_t ready;	   /* threads set up */
	int setup_err;
	char setup_why[256];

	/* the round in flight */
	uint64_t r0, r;
	/*
	 * CPU clocks at high's release: low's, as low first sees the release
	 * time pass inside its critical section (it cannot run between the
	 * release and that moment, so its CPU clock has not moved; and a
	 * thread's own clock stays consistent even if it is preempted between
	 * two reads).  Medium's is read by high as soon as it runs: medium
	 * is asleep until high releases it, and cannot run while high does.
	 */
	uint64_t low_cpu_at_r;
	clockid_t clk_low, clk_med, clk_high;

	struct round *rounds;
	size_t cap, nrounds;
	struct il_hist blocked, wakeup, delay, hold;
};

struct result {
	int protocol;
	bool ran;
	enum il_verdict expected;
	struct il_check check;
	struct il_blocking_stats st;
	size_t rounds, late;
	uint64_t steal_ns;
	struct il_hist calib;
	struct il_hist blocked, wakeup, delay, hold;
};

static int g_stop;	   /* set by SIGINT/SIGTERM or a stuck round */
static volatile sig_atomic_t g_signal;

static void on_signal(int sig)
{
	g_signal = sig;
	__atomic_store_n(&g_stop, 1, __ATOMIC_RELAXED);
}

static bool stopping(void)
{
	return __atomic_load_n(&g_stop, __ATOMIC_RELAXED);
}

static uint64_t clock_of(clockid_t c)
{
	uint64_t ns = 0;

	il_clock_ns(c, &ns);
	return ns;
}

static uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/* Wait until *word != seen or stop; slices keep the stop flag honoured. */
static int wait_change(uint32_t *word, uint32_t seen, uint64_t deadline)
{
	while (__atomic_load_n(word, __ATOMIC_ACQUIRE) == seen) {
		uint64_t now = il_now_ns(), until;

		if (stopping())
			return -EINTR;
		if (deadline && now >= deadline)
			return -ETIMEDOUT;
		until = now + 50 * IL_NSEC_PER_MSEC;
		if (deadline && until > deadline)
			until = deadline;
		il_futex_wait(word, seen, until);
	}
	return 0;
}

static void count_done(struct run *rn)
{
	__atomic_fetch_add(&rn->done, 1, __ATOMIC_ACQ_REL);
	il_futex_post(&rn->done, __atomic_load_n(&rn->done, __ATOMIC_ACQUIRE));
}

/* Thread setup: pin, class, then report ready. */
static int enter_class(struct run *rn, int prio, clockid_t *clk)
{
	struct il_sched s = { .policy = IL_SCHED_FIFO, .prio = prio };
	int ret;

	pthread_getcpuclockid(pthread_self(), clk);
	ret = il_pin_cpu(0, rn->cpu);
	if (ret) {
		snprintf(rn->setup_why, sizeof(rn->setup_why),
			 "cannot pin to CPU %d: %s", rn->cpu, strerror(-ret));
		rn->setup_err = ret;
	} else if ((ret = il_sched_set(0, &s))) {
		il_sched_strerror(ret, &s, rn->setup_why,
				  sizeof(rn->setup_why));
		rn->setup_err = ret;
	}
	__atomic_fetch_add(&rn->ready, 1, __ATOMIC_ACQ_REL);
	il_futex_post(&rn->ready, __atomic_load_n(&rn->ready, __ATOMIC_ACQUIRE));
	return ret;
}

/* a CLOCK_REALTIME deadline for pthread_mutex_timedlock */
static struct timespec lock_deadline(uint64_t from_now_ns)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return il_ns_to_ts(il_ts_to_ns(&ts) + from_now_ns);
}

static void *low_thread(void *arg)
{
	struct run *rn = arg;
	uint32_t k = 0;

	if (enter_class(rn, (int)rn->cfg->prio_low, &rn->clk_low))
		return NULL;
	while (wait_change(&rn->arm, k, 0) == 0) {
		struct timespec dl;
		uint64_t c_pre, c0, c_end, c;
		bool seen = false;

		k = __atomic_load_n(&rn->arm, __ATOMIC_ACQUIRE);
		il_sleep_until(rn->r0, &g_stop);
		dl = lock_deadline(IL_NSEC_PER_SEC);
		/* the section the bound speaks of includes the lock and unlock
		 * operations (a ceiling changes priority in both) */
		c_pre = il_thread_cpu_ns();
		if (pthread_mutex_timedlock(&rn->m, &dl)) {
			count_done(rn);
			continue;
		}
		c0 = il_thread_cpu_ns();
		il_futex_post(&rn->held, k);
		/* the critical section: --cs of CPU time, however long it
		 * takes in wall time */
		c_end = c0 + rn->cfg->cs_ns;
		while ((c = il_thread_cpu_ns()) < c_end && !stopping()) {
			if (!seen && il_now_ns() >= rn->r) {
				rn->low_cpu_at_r = c;
				seen = true;
			}
		}
		if (!seen)
			rn->low_cpu_at_r = c;
		pthread_mutex_unlock(&rn->m);
		rn->rounds[k - 1].hold_ns = il_thread_cpu_ns() - c_pre;
		count_done(rn);
	}
	return NULL;
}

static void *medium_thread(void *arg)
{
	struct run *rn = arg;
	uint32_t k = 0;

	if (enter_class(rn, (int)rn->cfg->prio_medium, &rn->clk_med))
		return NULL;
	while (wait_change(&rn->med_go, k, 0) == 0) {
		uint64_t end;

		k = __atomic_load_n(&rn->med_go, __ATOMIC_ACQUIRE);
		end = il_now_ns() + rn->cfg->hog_ns;
		/* spin while high waits; nothing here may block */
		while (__atomic_load_n(&rn->acquired, __ATOMIC_ACQUIRE) != k &&
		       il_now_ns() < end && !stopping())
			;
		count_done(rn);
	}
	return NULL;
}

static void *high_thread(void *arg)
{
	struct run *rn = arg;
	uint32_t k = 0;

	if (enter_class(rn, (int)rn->cfg->prio_high, &rn->clk_high))
		return NULL;
	while (wait_change(&rn->arm, k, 0) == 0) {
		struct round *rd;
		struct timespec dl;
		uint64_t s, t_req, t_acq, cl, cm, lower, med_base;
		int ret;

		k = __atomic_load_n(&rn->arm, __ATOMIC_ACQUIRE);
		rd = &rn->rounds[k - 1];
		il_sleep_until(rn->r, &g_stop);
		s = il_now_ns();
		med_base = clock_of(rn->clk_med);
		rd->wakeup_ns = sub0(s, rn->r);
		if (__atomic_load_n(&rn->held, __ATOMIC_ACQUIRE) != k) {
			/* low was late: wait for it so the round stays in
			 * step, but do not judge this round */
			rd->flags |= R_LATE;
			wait_change(&rn->held, k - 1, s + IL_NSEC_PER_SEC);
		}
		il_futex_post(&rn->med_go, k);
		t_req = il_now_ns();
		dl = lock_deadline(rn->cfg->cs_ns + rn->cfg->hog_ns +
				   IL_NSEC_PER_SEC);
		ret = pthread_mutex_timedlock(&rn->m, &dl);
		t_acq = il_now_ns();
		cl = clock_of(rn->clk_low);
		cm = clock_of(rn->clk_med);
		if (ret == 0) {
			__atomic_store_n(&rn->acquired, k, __ATOMIC_RELEASE);
			pthread_mutex_unlock(&rn->m);
		} else {
			rd->flags |= R_TIMEOUT;
			__atomic_store_n(&g_stop, 1, __ATOMIC_RELAXED);
		}
		rd->blocked_ns = t_acq - t_req;
		rd->delay_ns = sub0(t_acq, rn->r);
		/* blocking is what lower-priority threads ran during the wait;
		 * the rest is high's own lock operations, steal, interrupts */
		lower = sub0(cl, rn->low_cpu_at_r) + sub0(cm, med_base);
		rd->foreign_ns = sub0(rd->delay_ns, lower);
		rd->lower_ns = sub0(cm, med_base);
		count_done(rn);
	}
	return NULL;
}

static int make_mutex(pthread_mutex_t *m, int protocol, int ceiling,
		      bool ignore)
{
	pthread_mutexattr_t a;
	int proto = PTHREAD_PRIO_NONE, ret;

	if (!ignore && protocol == P_INHERIT)
		proto = PTHREAD_PRIO_INHERIT;
	if (!ignore && protocol == P_PROTECT)
		proto = PTHREAD_PRIO_PROTECT;
	pthread_mutexattr_init(&a);
	ret = pthread_mutexattr_setprotocol(&a, proto);
	if (!ret && proto == PTHREAD_PRIO_PROTECT)
		ret = pthread_mutexattr_setprioceiling(&a, ceiling);
	if (!ret)
		ret = pthread_mutex_init(m, &a);
	pthread_mutexattr_destroy(&a);
	return -ret;
}

/*
 * Threads start with SIGINT/SIGTERM blocked, so signals reach the
 * orchestrating main thread only and never interrupt a measurement.
 */
static int start_thread(pthread_t *t, void *(*fn)(void *), void *arg)
{
	sigset_t block, old;
	pthread_attr_t a;
	int ret;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 256 * 1024);
	ret = pthread_create(t, &a, fn, arg);
	pthread_attr_destroy(&a);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return -ret;
}

/*
 * Idle wakeup latency of a thread at high's priority on the test CPU:
 * the noise allowance of this run.
 */
struct calib {
	int cpu, prio, err;
	char why[256];
	struct il_hist *h;
};

static void *calib_thread(void *arg)
{
	struct calib *c = arg;
	struct il_sched s = { .policy = IL_SCHED_FIFO, .prio = c->prio };
	uint64_t t;

	c->err = il_pin_cpu(0, c->cpu);
	if (!c->err && (c->err = il_sched_set(0, &s)))
		il_sched_strerror(c->err, &s, c->why, sizeof(c->why));
	if (c->err)
		return NULL;
	t = il_now_ns();
	/* 1000 samples: p90 then ignores up to a hundred stalls of the host */
	for (int i = 0; i < 1000 && !stopping(); i++) {
		t += 200 * IL_NSEC_PER_USEC;
		if (il_sleep_until(t, &g_stop))
			break;
		il_hist_record(c->h, sub0(il_now_ns(), t));
	}
	return NULL;
}

static int calibrate(int cpu, int prio, struct il_hist *h, char *why,
		     size_t len)
{
	struct calib c = { .cpu = cpu, .prio = prio, .h = h };
	pthread_t t;
	int ret;

	il_hist_init(h);
	ret = start_thread(&t, calib_thread, &c);
	if (ret)
		return ret;
	pthread_join(t, NULL);
	if (c.err)
		snprintf(why, len, "%s", c.why);
	return c.err;
}

/*
 * One protocol: calibrate, run rounds for --duration, judge.  Returns 0,
 * -EPERM-like errors with why filled (cannot run), or -EIO (broken).
 */
static int run_protocol(const struct cfg *cfg, int cpu, int protocol,
			struct result *res, char *why, size_t len)
{
	struct run *rn;
	pthread_t th[3];
	uint64_t t_end, next, steal0 = 0, steal1 = 0, dur;
	size_t cap;
	int ret, nthreads = 0;

	memset(res, 0, sizeof(*res));
	res->protocol = protocol;
	res->expected = (protocol == P_NONE || cfg->ignore_protocol) ? IL_FAIL
								      : IL_PASS;
	ret = calibrate(cpu, (int)cfg->prio_high, &res->calib, why, len);
	if (ret)
		return ret;

	/* a round takes at least 2*cs (work, then as much idle) */
	dur = cfg->common.duration_ns;
	cap = (size_t)(dur / (2 * cfg->cs_ns)) + 16;
	rn = calloc(1, sizeof(*rn));
	if (!rn)
		return -ENOMEM;
	rn->rounds = calloc(cap, sizeof(*rn->rounds));
	if (!rn->rounds) {
		free(rn);
		return -ENOMEM;
	}
	rn->cap = cap;
	rn->cfg = cfg;
	rn->cpu = cpu;
	rn->protocol = protocol;
	rn->lead_ns = cfg->cs_ns / 4;
	ret = make_mutex(&rn->m, protocol, (int)cfg->prio_high,
			 cfg->ignore_protocol);
	if (ret) {
		snprintf(why, len, "cannot create a %s mutex: %s",
			 proto_names[protocol], strerror(-ret));
		free(rn->rounds);
		free(rn);
		return -EIO;
	}
	/* touch everything the threads write before the clock starts */
	memset(rn->rounds, 0, cap * sizeof(*rn->rounds));

	void *(*fns[3])(void *) = { low_thread, medium_thread, high_thread };
	for (int i = 0; i < 3; i++) {
		ret = start_thread(&th[i], fns[i], rn);
		if (ret) {
			snprintf(why, len, "cannot create a thread: %s",
				 strerror(-ret));
			__atomic_store_n(&g_stop, 1, __ATOMIC_RELAXED);
			ret = -EIO;
			goto join;
		}
		nthreads++;
	}
	while (__atomic_load_n(&rn->ready, __ATOMIC_ACQUIRE) < 3)
		il_futex_wait(&rn->ready,
			      __atomic_load_n(&rn->ready, __ATOMIC_ACQUIRE),
			      il_now_ns() + 100 * IL_NSEC_PER_MSEC);
	if (rn->setup_err) {
		snprintf(why, len, "%s", rn->setup_why);
		ret = rn->setup_err;
		goto join;
	}

	il_steal_ns(cpu, &steal0);
	next = il_now_ns() + IL_NSEC_PER_MSEC;
	t_end = next + dur;
	for (uint32_t k = 1; k <= cap && !stopping(); k++) {
		uint64_t now = il_now_ns(), deadline, busy;

		if (now >= t_end)
			break;
		rn->r0 = next > now + 200 * IL_NSEC_PER_USEC
				 ? next
				 : now + 200 * IL_NSEC_PER_USEC;
		rn->r = rn->r0 + rn->lead_ns;
		rn->nrounds = k;
		il_futex_post(&rn->arm, k);
		/* the round's own bound: high gives up on the lock before */
		deadline = rn->r + cfg->cs_ns + cfg->hog_ns +
			   2 * IL_NSEC_PER_SEC;
		for (;;) {
			uint32_t d = __atomic_load_n(&rn->done,
						     __ATOMIC_ACQUIRE);

			if (d >= 3 * k)
				break;
			if (il_now_ns() >= deadline) {
				/* a thread is stuck: stop everything */
				rn->rounds[k - 1].flags |= R_TIMEOUT;
				__atomic_store_n(&g_stop, 1, __ATOMIC_RELAXED);
				break;
			}
			il_futex_wait(&rn->done, d,
				      il_now_ns() + 50 * IL_NSEC_PER_MSEC);
		}
		/* a round cut short by a stop request is not judged */
		if (stopping() && !(rn->rounds[k - 1].flags & R_TIMEOUT))
			rn->rounds[k - 1].flags |= R_UNSTARTED;
		/* as much idle as work keeps RT use at or below half the CPU,
		 * away from RT throttling and the fair server */
		now = il_now_ns();
		busy = sub0(now, rn->r0);
		next = now + (busy > IL_NSEC_PER_MSEC ? busy : IL_NSEC_PER_MSEC);
	}
	il_steal_ns(cpu, &steal1);
	ret = 0;
join:
	__atomic_store_n(&g_stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	if (!g_signal)
		__atomic_store_n(&g_stop, 0, __ATOMIC_RELAXED);
	if (ret == 0) {
		struct il_wait_sample *ws;
		struct il_bound_input in = { 0 };
		uint64_t L = 0, eps = 0;
		size_t n = 0;

		il_hist_init(&res->blocked);
		il_hist_init(&res->wakeup);
		il_hist_init(&res->delay);
		il_hist_init(&res->hold);
		ws = calloc(rn->nrounds + 1, sizeof(*ws));
		for (size_t i = 0; ws && i < rn->nrounds; i++) {
			struct round *rd = &rn->rounds[i];

			if (rd->flags & R_UNSTARTED)
				continue;
			if (rd->flags & R_LATE) {
				res->late++;
				continue;
			}
			il_hist_record(&res->hold, rd->hold_ns);
			if (rd->hold_ns > L)
				L = rd->hold_ns;
			il_hist_record(&res->blocked, rd->blocked_ns);
			il_hist_record(&res->wakeup, rd->wakeup_ns);
			il_hist_record(&res->delay, rd->delay_ns);
			ws[n].delay_ns = rd->delay_ns;
			ws[n].foreign_ns = rd->foreign_ns;
			ws[n].lower_ns = rd->lower_ns;
			ws[n].timed_out = !!(rd->flags & R_TIMEOUT);
			n++;
		}
		/*
		 * The allowance only has to cover what the per-round accounting
		 * cannot see (clock-read skew, the switch to high); steal and
		 * interrupts are removed round by round.  p90 keeps a few host
		 * stalls during calibration from widening it.
		 */
		if (il_hist_percentile_upper(&res->calib, 0.90, &eps))
			eps = res->calib.count ? res->calib.max : 0;
		in.bound_name = protocol == P_PROTECT
					? "immediate priority ceiling (one CPU)"
					: "priority inheritance (one CPU)";
		/* one lower task, one lock: both bounds are its longest
		 * section, measured (CPU time of low's critical section) */
		in.bound_ns = protocol == P_PROTECT
				      ? il_ceiling_bound(&L,
							 &(int){ (int)cfg->prio_high },
							 (int)cfg->prio_high, 1, 1)
				      : il_pi_bound(&L, 1, 1);
		if (!in.bound_ns)
			in.bound_ns = cfg->cs_ns;
		in.noise_ns = eps;
		in.min_samples = 20;
		il_check_blocking(&in, ws, n, &res->check);
		il_blocking_stats(&in, ws, n, &res->st);
		res->rounds = n;
		res->steal_ns = sub0(steal1, steal0);
		res->ran = true;
		free(ws);
	}
	pthread_mutex_destroy(&rn->m);
	free(rn->rounds);
	free(rn);
	return ret;
}

static void fmt(char *buf, size_t len, const struct il_hist *h, double p)
{
	uint64_t v;

	if (p < 0) {
		if (!h->count)
			snprintf(buf, len, "-");
		else
			il_format_duration(buf, len, h->max);
		return;
	}
	if (il_hist_percentile(h, p, &v))
		snprintf(buf, len, "n/a");
	else
		il_format_duration(buf, len, v);
}

static void print_text(FILE *f, const struct cfg *cfg, struct result *res,
		       int nres, const char *prefix)
{
	struct il_table t;
	char a[24], b[24], c[24], d[24], e[24], g[24], x[24];

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
		fmt(a, sizeof(a), &r->blocked, 0.5);
		fmt(b, sizeof(b), &r->blocked, 0.99);
		fmt(c, sizeof(c), &r->blocked, 0.999);
		fmt(d, sizeof(d), &r->blocked, -1);
		fmt(e, sizeof(e), &r->wakeup, 0.99);
		fmt(g, sizeof(g), &r->wakeup, 0.999);
		il_format_duration(x, sizeof(x), r->check.bound_ns);
		il_table_cell(&t, "%s", proto_names[r->protocol]);
		il_table_cell(&t, "%zu", r->rounds);
		il_table_cell(&t, "%s", a);
		il_table_cell(&t, "%s", b);
		il_table_cell(&t, "%s", c);
		il_table_cell(&t, "%s", d);
		il_table_cell(&t, "%s", e);
		il_table_cell(&t, "%s", g);
		il_table_cell(&t, "%s", x);
		il_table_cell(&t, "%s%s", il_verdict_name(r->check.verdict),
			      r->check.verdict == r->expected ? ""
							      : " (unexpected)");
	}
	if (cfg->common.quiet) {
		/* verdict lines only */
	} else if (!prefix[0]) {
		il_table_print(&t, f);
	} else {
		/* TAP: the table as diagnostics */
		char *buf = NULL;
		size_t blen = 0;
		FILE *m = open_memstream(&buf, &blen);

		if (m) {
			il_table_print(&t, m);
			fclose(m);
			for (char *l = strtok(buf, "\n"); l;
			     l = strtok(NULL, "\n"))
				fprintf(f, "%s%s\n", prefix, l);
			free(buf);
		}
	}
	il_table_free(&t);
	for (int i = 0; i < nres; i++) {
		struct result *r = &res[i];
		char steal[24];

		if (!r->ran)
			continue;
		il_format_duration(steal, sizeof(steal), r->steal_ns);
		fprintf(f, "%s%s: %s, expected %s: %s\n", prefix,
			proto_names[r->protocol],
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
	il_json_bool(j, "ignore_protocol", cfg->ignore_protocol);
	il_json_end_object(j);
	il_json_bool(j, "interrupted", g_signal != 0);
	il_json_begin_array(j, "runs");
	for (int i = 0; i < nres; i++) {
		struct result *r = &res[i];

		if (!r->ran)
			continue;
		il_json_begin_object(j, NULL);
		/* "configuration" names the run for compare and gate tools */
		il_json_str(j, "configuration", proto_names[r->protocol]);
		il_json_str(j, "protocol", proto_names[r->protocol]);
		il_json_str(j, "verdict", il_verdict_name(r->check.verdict));
		il_json_str(j, "expected", il_verdict_name(r->expected));
		il_json_str(j, "bound", r->check.bound_name);
		il_json_uint(j, "bound_ns", r->check.bound_ns);
		il_json_uint(j, "noise_ns", r->check.noise_ns);
		il_json_uint(j, "worst_ns", r->check.worst_ns);
		il_json_str(j, "evidence", r->check.evidence);
		il_json_uint(j, "rounds", r->rounds);
		il_json_uint(j, "rounds_late_holder", r->late);
		il_json_uint(j, "rounds_within_bound", r->st.clean);
		il_json_uint(j, "rounds_noise_set_aside", r->st.noisy);
		il_json_uint(j, "rounds_violating", r->st.violations);
		il_json_uint(j, "rounds_timed_out", r->st.timed_out);
		il_json_uint(j, "worst_excess_ns", r->st.worst_excess_ns);
		il_json_uint(j, "worst_hog_during_wait_ns",
			     r->st.worst_lower_ns);
		il_json_uint(j, "worst_foreign_ns", r->st.worst_foreign_ns);
		il_json_uint(j, "steal_ns", r->steal_ns);
		il_json_hist(j, "blocked_ns", &r->blocked);
		il_json_hist(j, "wakeup_ns", &r->wakeup);
		il_json_hist(j, "release_to_lock_ns", &r->delay);
		il_json_hist(j, "holder_cs_cpu_ns", &r->hold);
		il_json_hist(j, "calibration_wakeup_ns", &r->calib);
		il_json_end_object(j);
	}
	il_json_end_array(j);
}

static int skip(const struct cfg *cfg, const char *why)
{
	if (cfg->common.tap)
		printf("TAP version 13\n1..0 # SKIP %s\n", why);
	fprintf(stderr, "pi-classic: SKIP: %s\n", why);
	return 77;
}

int main(int argc, char **argv)
{
	static const char usage[] = "[OPTIONS]";
	static const char summary[] =
		"The classic three-task priority inversion under the pthread "
		"mutex protocols none, inherit and protect, judged against the "
		"priority-inheritance and priority-ceiling bounds.  Needs "
		"CAP_SYS_NICE (SCHED_FIFO).  Exit status: 0 every verdict as "
		"expected, 1 otherwise, 2 bad usage, 77 cannot run here, 99 "
		"broken setup, 128+N interrupted by signal N.";
	struct result res[3];
	struct il_sysinfo si;
	struct il_run_info ri = { .program = "pi-classic",
				  .argc = argc,
				  .argv = argv };
	struct sigaction sa;
	struct cfg cfg;
	char err[512];
	int ret, cpu, nres = 0, rc = 0, first, last;

	memset(&cfg, 0, sizeof(cfg));
	ret = il_opt_parse(argc, argv, tables, &cfg, err, sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "pi-classic: %s\nTry 'pi-classic --help'.\n",
			err);
		return 2;
	}
	if (cfg.common.help) {
		il_opt_help(stdout, "pi-classic", usage, summary, tables);
		return 0;
	}
	if (cfg.common.version) {
		printf("pi-classic %s (%s)\n", il_version(), il_features());
		return 0;
	}
	if (ret < argc) {
		fprintf(stderr, "pi-classic: unexpected argument '%s'\n",
			argv[ret]);
		return 2;
	}
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
		fprintf(stderr, "pi-classic: --cpu: CPU %" PRId64
			" is not online (see /sys/devices/system/cpu/online)\n",
			cfg.cpu);
		return 2;
	}
	ret = il_sched_probe_rt((int)cfg.prio_high, err, sizeof(err));
	if (ret)
		return skip(&cfg, err);
	if (mlockall(MCL_CURRENT | MCL_FUTURE) && !cfg.common.quiet)
		fprintf(stderr, "pi-classic: note: mlockall failed (%s); page "
			"faults may add latency\n", strerror(errno));

	clock_gettime(CLOCK_REALTIME, &ri.start);
	il_sysinfo_read(&si);
	ri.sys = &si;

	/* signals go to this thread only: the RT threads never see them */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

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
		printf("kernel %s, preempt=%s, HZ=%d, proxy-exec=%s, %s\n",
		       si.release, si.preempt_current[0] ? si.preempt_current
							 : "?",
		       si.hz,
		       si.proxy_exec_active == 1   ? "on"
		       : si.proxy_exec_active == 0 ? "off"
						   : "unknown",
		       il_features());
		fflush(stdout);
	}
	for (int p = first; p <= last && !g_signal; p++) {
		ret = run_protocol(&cfg, cpu, p, &res[nres], err, sizeof(err));
		if (ret == -EPERM || ret == -EBUSY || ret == -EINVAL) {
			rc = skip(&cfg, err);
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
	if (g_signal)
		rc = 128 + g_signal;

	if (cfg.common.tap && rc != 77) {
		int n = 0;

		printf("TAP version 13\n1..%d\n", nres);
		print_text(stdout, &cfg, res, nres, "# ");
		for (int i = 0; i < nres; i++) {
			char desc[160];

			snprintf(desc, sizeof(desc), "%s: %s (expected %s)",
				 proto_names[res[i].protocol],
				 il_verdict_name(res[i].check.verdict),
				 il_verdict_name(res[i].expected));
			il_tap_result(stdout, res[i].check.verdict ==
						      res[i].expected,
				      ++n, desc, NULL);
		}
	} else if (rc != 77) {
		print_text(stdout, &cfg, res, nres, "");
	}
	if (g_signal)
		fprintf(stderr, "pi-classic: interrupted by signal %d; "
			"results so far written\n", (int)g_signal);

	if (cfg.common.json && rc != 77) {
		struct il_afile af;
		struct il_json j;

		ret = il_afile_open(&af, cfg.common.json);
		if (ret) {
			fprintf(stderr, "pi-classic: --json: cannot create "
				"'%s': %s\n", cfg.common.json, strerror(-ret));
			return rc ? rc : 99;
		}
		il_json_init(&j, af.f);
		il_report_begin(&j, &ri);
		write_json(&j, &cfg, cpu, res, nres);
		il_report_end(&j, rc);
		fputc('\n', af.f);
		if (il_json_error(&j) || (ret = il_afile_commit(&af))) {
			if (il_json_error(&j))
				il_afile_abort(&af);
			fprintf(stderr, "pi-classic: --json: cannot write "
				"'%s'\n", cfg.common.json);
			return rc ? rc : 99;
		}
	}
	return rc;
}
