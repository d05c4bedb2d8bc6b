// SPDX-License-Identifier: MIT
/*
 * Counters (counters.h): the /proc parsers on text made here, the sums
 * and the JSON, and the counting itself on synthetic threads: one that
 * sleeps N times has at least N voluntary switches (and, where perf
 * counts them, at least N context switches and sched_switch events); one
 * moved between two CPUs counts its migrations ("migrate": 77 with one
 * CPU).  No timing is asserted.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <invlab/counters.h>
#include <invlab/report.h>
#include <invlab/sched.h>

#include "t_util.h"

#define SLEEPS 20
#define MOVES  10

struct worker {
	pthread_mutex_t m;
	pthread_cond_t cv;
	int tid;
	int go;	  /* 1: start, set by main once the counters are open */
	int done; /* the work is over: main reads, then sets go 2 */
	int cpu[2];
};

static void wait_go(struct worker *w, int v)
{
	pthread_mutex_lock(&w->m);
	while (w->go < v)
		pthread_cond_wait(&w->cv, &w->m);
	pthread_mutex_unlock(&w->m);
}

static void set(struct worker *w, int *field, int v)
{
	pthread_mutex_lock(&w->m);
	*field = v;
	pthread_cond_broadcast(&w->cv);
	pthread_mutex_unlock(&w->m);
}

static void wait_field(struct worker *w, int *field, int v)
{
	pthread_mutex_lock(&w->m);
	while (*field < v)
		pthread_cond_wait(&w->cv, &w->m);
	pthread_mutex_unlock(&w->m);
}

static void *sleeper(void *arg)
{
	struct worker *w = arg;
	struct timespec ts = { 0, 1000000 };

	set(w, &w->tid, (int)il_gettid());
	wait_go(w, 1);
	for (int i = 0; i < SLEEPS; i++)
		nanosleep(&ts, NULL);
	set(w, &w->done, 1);
	wait_go(w, 2);
	return NULL;
}

static void *mover(void *arg)
{
	struct worker *w = arg;

	set(w, &w->tid, (int)il_gettid());
	wait_go(w, 1);
	for (int i = 0; i < MOVES; i++) {
		cpu_set_t s;

		CPU_ZERO(&s);
		CPU_SET(w->cpu[i % 2], &s);
		/* the call moves the thread before it returns */
		if (sched_setaffinity(0, sizeof(s), &s))
			break;
		sched_yield();
	}
	set(w, &w->done, 1);
	wait_go(w, 2);
	return NULL;
}

/* run fn in a thread, counted from go 1 to done; 0 or -errno */
static int count_thread(void *(*fn)(void *), struct worker *w,
			struct il_counts *out)
{
	struct il_counters c;
	pthread_t th;
	int ret;

	pthread_mutex_init(&w->m, NULL);
	pthread_cond_init(&w->cv, NULL);
	if (pthread_create(&th, NULL, fn, w))
		return -EAGAIN;
	wait_field(w, &w->tid, 1);
	ret = il_counters_open(&c, w->tid, 0);
	set(w, &w->go, 1);
	wait_field(w, &w->done, 1);
	if (!ret)
		ret = il_counters_read(&c, out);
	il_counters_close(&c);
	set(w, &w->go, 2);
	pthread_join(th, NULL);
	return ret;
}

static void test_parse(void)
{
	uint64_t a = 0, b = 0, s = 0;

	t_check_int(
		il_counters_parse_status("Name:\tx\nvoluntary_ctxt_switches:\t"
					 "17\nnonvoluntary_ctxt_switches:\t4\n",
					 &a, &b),
		0);
	t_check_int(a, 17);
	t_check_int(b, 4);
	t_check_int(il_counters_parse_status("voluntary_ctxt_switches: 3\n", &a,
					     &b),
		    -ENOENT);
	t_check_int(il_counters_parse_status("", &a, &b), -ENOENT);
	t_check_int(il_counters_parse_schedstat("100 250 7\n", &a, &b, &s), 0);
	t_check_int(a, 100);
	t_check_int(b, 250);
	t_check_int(s, 7);
	t_check_int(il_counters_parse_schedstat("100 250\n", &a, &b, &s),
		    -EINVAL);
	t_check_int(il_counters_parse_schedstat("1 2 3 x", &a, &b, &s),
		    -EINVAL);
	t_check_int(
		il_counters_parse_sched("se.exec_start : 1.0\n"
					"se.nr_migrations                     "
					"        :                    9\n",
					&a),
		0);
	t_check_int(a, 9);
	t_check_int(il_counters_parse_sched("nr_switches : 3\n", &a), -ENOENT);
}

static void test_names(void)
{
	t_check_str(il_counters_name(IL_CTR_SCHED_MIGRATE),
		    "sched:sched_migrate_task");
	t_check_str(il_counters_key(IL_CTR_CS), "context_switches");
	t_check_int(il_counters_lookup("cpu-migrations"), IL_CTR_MIGRATIONS);
	t_check_int(il_counters_lookup("cache_misses"), IL_CTR_CACHE_MISSES);
	t_check_int(il_counters_lookup("nope"), -1);
	t_check_str(il_counters_state_name(IL_CTR_NOT_SUPPORTED),
		    "not supported");
	t_check_str(il_counters_state_name(IL_CTR_UNSET), "not measured");
	/* no PMU: the hardware events are not supported (as perf says) */
	t_check_int(il_counters_open_state(IL_CTR_CYCLES, -ENOENT),
		    IL_CTR_NOT_SUPPORTED);
	t_check_int(il_counters_open_state(IL_CTR_INSTRUCTIONS, -EOPNOTSUPP),
		    IL_CTR_NOT_SUPPORTED);
	t_check_int(il_counters_open_state(IL_CTR_CACHE_MISSES, -ENODEV),
		    IL_CTR_NOT_SUPPORTED);
	/* no privilege: there, but not available */
	t_check_int(il_counters_open_state(IL_CTR_CYCLES, -EACCES),
		    IL_CTR_NOT_AVAILABLE);
	t_check_int(il_counters_open_state(IL_CTR_CS, -EPERM),
		    IL_CTR_NOT_AVAILABLE);
	t_check_int(il_counters_open_state(IL_CTR_CS, -ENOSYS),
		    IL_CTR_NOT_AVAILABLE);
	/* a tracepoint without its id (no tracefs) */
	t_check_int(il_counters_open_state(IL_CTR_SCHED_SWITCH, -ENOENT),
		    IL_CTR_NOT_AVAILABLE);
	t_check_int(il_counters_open_state(IL_CTR_SCHED_WAKEUP, -EINVAL),
		    IL_CTR_NOT_AVAILABLE);
}

static void test_add_json(void)
{
	struct il_counts a, b;
	char line[512], buf[2048];
	struct il_json j;
	FILE *f;
	size_t n;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.c[IL_CTR_CS] = (struct il_ctr_val){ 10, IL_CTR_COUNTED, 0 };
	b.c[IL_CTR_CS] = (struct il_ctr_val){ 5, IL_CTR_FALLBACK, 0 };
	a.c[IL_CTR_CYCLES].state = IL_CTR_NOT_SUPPORTED;
	b.c[IL_CTR_CYCLES].state = IL_CTR_NOT_SUPPORTED;
	a.c[IL_CTR_SCHED_SWITCH] = (struct il_ctr_val){ 7, IL_CTR_COUNTED, 0 };
	b.c[IL_CTR_SCHED_SWITCH].state = IL_CTR_NOT_AVAILABLE;
	b.c[IL_CTR_INSTRUCTIONS] = (struct il_ctr_val){ 3, IL_CTR_COUNTED, 1 };
	il_counters_add(&a, &b);
	t_check_int(a.c[IL_CTR_CS].v, 15);
	t_check_int(a.c[IL_CTR_CS].state, IL_CTR_FALLBACK);
	t_check_int(a.c[IL_CTR_CYCLES].state, IL_CTR_NOT_SUPPORTED);
	/* a part missing: no sum */
	t_check_int(a.c[IL_CTR_SCHED_SWITCH].state, IL_CTR_NOT_AVAILABLE);
	t_check_int(a.c[IL_CTR_SCHED_SWITCH].v, 0);
	t_check_int(a.c[IL_CTR_INSTRUCTIONS].v, 3);
	t_check_int(a.c[IL_CTR_INSTRUCTIONS].scaled, 1);

	f = tmpfile();
	t_check(f != NULL);
	if (!f)
		return;
	il_json_init(&j, f);
	il_counters_json(&j, NULL, &a);
	t_check_int(il_json_error(&j), 0);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	t_check_contains(buf, "\"context_switches\":15");
	t_check_contains(buf, "\"cycles\":\"not supported\"");
	t_check_contains(buf, "\"sched_switch\":\"not available\"");
	t_check_contains(buf, "\"fallback\":[");
	t_check_contains(buf, "\"scaled\":[");
	t_check(!strstr(buf, "run_delay_ns"));

	il_counters_line(&a, line, sizeof(line));
	t_check_contains(line, "context-switches 15");
	t_check_contains(line, "cycles not supported");
	t_check_contains(line, "instructions 3 (scaled)");
	memset(&b, 0, sizeof(b));
	t_check_str(il_counters_line(&b, line, sizeof(line)), "not measured");
}

static void test_sleeper(void)
{
	struct worker w;
	struct il_counts c;
	const struct il_ctr_val *cs, *v, *sw;

	memset(&w, 0, sizeof(w));
	t_check_int(count_thread(sleeper, &w, &c), 0);
	v = &c.c[IL_CTR_VOLUNTARY];
	cs = &c.c[IL_CTR_CS];
	sw = &c.c[IL_CTR_SCHED_SWITCH];
	t_check(il_counters_has(v));
	t_check(v->v >= SLEEPS);
	t_check(il_counters_has(cs));
	t_check(cs->v >= SLEEPS);
	if (il_counters_has(sw))
		t_check(sw->v >= SLEEPS);
	else
		t_check(sw->state == IL_CTR_NOT_AVAILABLE ||
			sw->state == IL_CTR_NOT_SUPPORTED);
	/* every counter has an answer */
	for (int k = 0; k < IL_CTR_N; k++)
		t_check(c.c[k].state != IL_CTR_UNSET);
	printf("# sleeper: %s\n", il_counters_line(&c, (char[512]){ 0 }, 512));
}

/* INVLAB_COUNTERS=proc: no perf event, the switches from /proc */
static void test_proc_only(void)
{
	struct worker w;
	struct il_counts c;

	t_check(!il_counters_proc_only());
	setenv("INVLAB_COUNTERS", "procx", 1);
	t_check(!il_counters_proc_only());
	t_check(il_counters_wanted());
	setenv("INVLAB_COUNTERS", "proc", 1);
	t_check(il_counters_proc_only());
	t_check(il_counters_wanted());
	memset(&w, 0, sizeof(w));
	t_check_int(count_thread(sleeper, &w, &c), 0);
	unsetenv("INVLAB_COUNTERS");
	/* the software event's stand-in, and /proc's own split */
	t_check_int(c.c[IL_CTR_CS].state, IL_CTR_FALLBACK);
	t_check(c.c[IL_CTR_CS].v >= SLEEPS);
	t_check_int(c.c[IL_CTR_VOLUNTARY].state, IL_CTR_COUNTED);
	/* a perf-only counter: not opened, so not available */
	t_check_int(c.c[IL_CTR_SCHED_SWITCH].state, IL_CTR_NOT_AVAILABLE);
	t_check_int(c.c[IL_CTR_SCHED_WAKEUP].state, IL_CTR_NOT_AVAILABLE);
	t_check(c.c[IL_CTR_CYCLES].state == IL_CTR_NOT_AVAILABLE);
	printf("# proc only: %s\n",
	       il_counters_line(&c, (char[512]){ 0 }, 512));
}

static int test_mover(void)
{
	struct worker w;
	struct il_counts c;
	cpu_set_t s;
	int n = 0;

	memset(&w, 0, sizeof(w));
	if (sched_getaffinity(0, sizeof(s), &s))
		return 77;
	for (int i = 0; i < CPU_SETSIZE && n < 2; i++)
		if (CPU_ISSET(i, &s))
			w.cpu[n++] = i;
	if (n < 2) {
		printf("1..0 # SKIP a migration needs 2 CPUs, this process "
		       "may use one\n");
		return 77;
	}
	t_check_int(count_thread(mover, &w, &c), 0);
	t_check(il_counters_has(&c.c[IL_CTR_MIGRATIONS]));
	/* each move but perhaps the first (it may be there already) */
	t_check(c.c[IL_CTR_MIGRATIONS].v >= MOVES - 1);
	/* (sched_migrate_task counts what fires while the thread runs: the
	 * stopper thread moves it, so it counts none here) */
	printf("# mover: %s\n", il_counters_line(&c, (char[512]){ 0 }, 512));
	return t_done("counters-migrate");
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "migrate"))
		return test_mover();
	test_parse();
	test_names();
	test_add_json();
	test_sleeper();
	test_proc_only();
	t_check_int(il_counters_open(NULL, 0, 0), -EINVAL);
	return t_done("counters");
}
