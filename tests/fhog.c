// SPDX-License-Identifier: MIT
/*
 * Foreign load for the kernel tests: a SCHED_FIFO thread that spins for
 * --spin every --period on one CPU, for --time at most, and exits.  It is
 * not an invlab run (no run lock, no run state): what a lab's audio or
 * display thread looks like to a scenario.  With --nice it is a fair-class
 * (SCHED_OTHER) task at that nice value instead: a build or a browser
 * beside a fair-class lock holder.  With --deadline it is a
 * SCHED_DEADLINE task whose reservation is its load (runtime --spin,
 * deadline and period --period), on whichever CPU the kernel gives it:
 * a deadline task cannot be pinned to one CPU of its root domain, so
 * --cpu is refused with it.
 *
 *   fhog --prio 50 --cpu 1 --spin 15ms --period 100ms --time 10s
 *   fhog --nice -5 --cpu 1 --spin 100ms --period 100ms --time 10s
 *   fhog --deadline --spin 15ms --period 50ms --time 10s
 *
 * Exit 0 when done, 77 when the class or the CPU cannot be had, 2 on a
 * bad argument.  SIGINT and SIGTERM end it early.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>

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

static int usage(void)
{
	fprintf(stderr, "usage: fhog [--prio N | --nice N | --deadline] "
			"[--cpu N] "
			"[--spin TIME] [--period TIME] [--time TIME] "
			"[--name COMM]\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long long spin = 15000000ull, period = 100000000ull,
			   total = 10000000000ull, t0, next;
	int prio = 50, cpu = -1, nice = 0;
	int fair = 0; /* --nice given: SCHED_OTHER */
	int dl = 0;   /* --deadline given */
	const char *name = "fhog";
	struct sched_param sp;
	cpu_set_t set;

	for (int i = 1; i < argc; i += 2) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(argv[i], "--deadline")) {
			dl = 1;
			i--; /* takes no value */
			continue;
		}
		if (!v)
			return usage();
		if (!strcmp(argv[i], "--prio")) {
			prio = atoi(v);
		} else if (!strcmp(argv[i], "--nice")) {
			nice = atoi(v);
			fair = 1;
		} else if (!strcmp(argv[i], "--cpu")) {
			cpu = atoi(v);
		} else if (!strcmp(argv[i], "--spin")) {
			spin = duration(v);
		} else if (!strcmp(argv[i], "--period")) {
			period = duration(v);
		} else if (!strcmp(argv[i], "--time")) {
			total = duration(v);
		} else if (!strcmp(argv[i], "--name")) {
			name = v;
		} else {
			return usage();
		}
	}
	if (prio < 1 || prio > 99 || nice < -20 || nice > 19 || !spin ||
	    !period || spin > period || !total || total > 600000000000ull ||
	    (dl && (fair || cpu >= 0))) {
		fprintf(stderr,
			"fhog: --prio 1..99, --nice -20..19, 0 < --spin "
			"<= --period, 0 < --time <= 600s; --deadline "
			"without --nice or --cpu\n");
		return 2;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	prctl(PR_SET_NAME, name);
	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			fprintf(stderr, "fhog: CPU %d: %s\n", cpu,
				strerror(errno));
			return 77;
		}
	}
	memset(&sp, 0, sizeof(sp));
	sp.sched_priority = prio;
	if (fair && setpriority(PRIO_PROCESS, 0, nice)) {
		fprintf(stderr, "fhog: nice %d: %s (needs CAP_SYS_NICE)\n",
			nice, strerror(errno));
		return 77;
	}
	if (dl) {
		struct dl_attr a = { .size = sizeof(a),
				     .sched_policy = SCHED_DEADLINE,
				     .sched_runtime = spin,
				     .sched_deadline = period,
				     .sched_period = period };

		if (set_attr(0, &a)) {
			fprintf(stderr,
				"fhog: SCHED_DEADLINE %llu/%llu ns: %s (needs "
				"CAP_SYS_NICE and room in the admission "
				"test)\n",
				spin, period, strerror(errno));
			return 77;
		}
	} else if (!fair && sched_setscheduler(0, SCHED_FIFO, &sp)) {
		fprintf(stderr,
			"fhog: SCHED_FIFO %d: %s (needs CAP_SYS_NICE)\n", prio,
			strerror(errno));
		return 77;
	}
	t0 = next = now_ns();
	while (!stop && now_ns() - t0 < total) {
		struct timespec ts;

		while (!stop && now_ns() - next < spin)
			;
		next += period;
		ts.tv_sec = (time_t)(next / 1000000000ull);
		ts.tv_nsec = (long)(next % 1000000000ull);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
	return 0;
}
