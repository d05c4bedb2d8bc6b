// SPDX-License-Identifier: MIT
/*
 * A reservation thief for the kernel tests: it lowers the runtime of a
 * SCHED_DEADLINE thread with sched_setattr() for --for every --every and
 * puts it back, for --time at most.  To the thread this is what a kernel
 * that grants less than it admitted does, so a check of temporal
 * isolation must FAIL beside it.  It is not an invlab run (no run lock,
 * no run state).
 *
 *   dlthief --pid 4242 --runtime 600us --for 20ms --every 100ms --time 10s
 *
 * --tid names the thread; --pid a process, whose SCHED_DEADLINE thread
 * is looked for every 10 ms for up to --wait (the first one found).  The
 * reservation is read when the thread is found and written back after
 * every cut, at the end, and on SIGINT or SIGTERM.  Exit 0 when done or
 * when the thread ended, 77 when no deadline thread was found or
 * sched_setattr() is refused (it needs CAP_SYS_NICE), 2 on a bad
 * argument.  The last line on standard output says how many cuts were
 * made.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "t_dlattr.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull +
	       (unsigned long long)ts.tv_nsec;
}

static void sleep_until(unsigned long long t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / 1000000000ull),
			       .tv_nsec = (long)(t % 1000000000ull) };

	/* a signal ends the sleep early: the loop looks at stop */
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

/* "15ms", "100us", "3s", "500000" (ns): ns, or 0 */
static unsigned long long duration(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || v <= 0)
		return 0;
	if (!strcmp(end, "s"))
		v *= 1e9;
	else if (!strcmp(end, "ms"))
		v *= 1e6;
	else if (!strcmp(end, "us"))
		v *= 1e3;
	else if (*end && strcmp(end, "ns"))
		return 0;
	return (unsigned long long)v;
}

/* the first SCHED_DEADLINE thread of pid, or 0 */
static int dl_thread(int pid)
{
	char path[64];
	struct dirent *e;
	DIR *d;
	int tid = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return 0;
	while (!tid && (e = readdir(d))) {
		struct dl_attr a;
		int t = atoi(e->d_name);

		if (t > 0 && !get_attr(t, &a) &&
		    a.sched_policy == SCHED_DEADLINE)
			tid = t;
	}
	closedir(d);
	return tid;
}

static int usage(void)
{
	fprintf(stderr, "usage: dlthief (--tid TID | --pid PID) --runtime TIME "
			"[--for TIME] [--every TIME] [--time TIME] "
			"[--wait TIME]\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long long cut = 0, hold = 20000000ull, every = 100000000ull,
			   total = 10000000000ull, wait = 10000000000ull, t0,
			   next;
	int tid = 0, pid = 0;
	unsigned long cuts = 0;
	struct dl_attr orig, low;

	for (int i = 1; i < argc; i += 2) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v)
			return usage();
		if (!strcmp(argv[i], "--tid"))
			tid = atoi(v);
		else if (!strcmp(argv[i], "--pid"))
			pid = atoi(v);
		else if (!strcmp(argv[i], "--runtime"))
			cut = duration(v);
		else if (!strcmp(argv[i], "--for"))
			hold = duration(v);
		else if (!strcmp(argv[i], "--every"))
			every = duration(v);
		else if (!strcmp(argv[i], "--time"))
			total = duration(v);
		else if (!strcmp(argv[i], "--wait"))
			wait = duration(v);
		else
			return usage();
	}
	if ((tid > 0) == (pid > 0) || !cut || !hold || !every ||
	    hold >= every || !total || total > 600000000000ull || !wait ||
	    wait > 600000000000ull) {
		fprintf(stderr, "dlthief: one of --tid, --pid; --runtime > 0; "
				"0 < --for < --every; 0 < --time, --wait <= "
				"600s\n");
		return 2;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	prctl(PR_SET_NAME, "dlthief");
	t0 = now_ns();
	while (!tid && !stop && now_ns() - t0 < wait) {
		tid = dl_thread(pid);
		if (!tid)
			sleep_until(now_ns() + 10000000ull);
	}
	if (!tid || get_attr(tid, &orig) ||
	    orig.sched_policy != SCHED_DEADLINE) {
		fprintf(stderr, "dlthief: no SCHED_DEADLINE thread %s %d\n",
			pid ? "in process" : "with id", pid ? pid : tid);
		return stop ? 0 : 77;
	}
	if (cut >= orig.sched_runtime) {
		fprintf(stderr,
			"dlthief: --runtime %llu ns is not below the "
			"thread's %llu ns\n",
			cut, (unsigned long long)orig.sched_runtime);
		return 2;
	}
	low = orig;
	low.sched_runtime = cut;
	printf("dlthief: thread %d, runtime %llu ns -> %llu ns for %llu ns "
	       "every %llu ns\n",
	       tid, (unsigned long long)orig.sched_runtime, cut, hold, every);
	fflush(stdout);
	t0 = next = now_ns();
	while (!stop && now_ns() - t0 < total) {
		if (set_attr(tid, &low)) {
			if (errno == ESRCH)
				break;
			fprintf(stderr, "dlthief: sched_setattr(%d): %s\n", tid,
				strerror(errno));
			return errno == EPERM ? 77 : 1;
		}
		cuts++;
		sleep_until(next + hold);
		/* put it back whatever happened meanwhile */
		if (set_attr(tid, &orig) && errno != ESRCH) {
			fprintf(stderr, "dlthief: restoring %d: %s\n", tid,
				strerror(errno));
			return 1;
		}
		next += every;
		if (!stop)
			sleep_until(next);
	}
	printf("dlthief: %lu cuts\n", cuts);
	return 0;
}
