// SPDX-License-Identifier: MIT
/*
 * The probe (probe.h): the --probe option and its errors, the default
 * priority, cyclictest's --json and -h text read back from files
 * cyclictest 2.40 wrote here (tests/data/probe/README.md says how), with
 * overflows, and what the running side does when cyclictest is missing,
 * fails at its start, runs and is stopped (a stand-in in Python with the
 * fixtures for output), ignores SIGINT or writes what is not its output
 * (no privilege needed: nothing real-time runs).
 *
 *   test-probe tests/data/probe
 */
#include <errno.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <invlab/probe.h>
#include <invlab/report.h>

#include "t_util.h"

static const char *dir = "tests/data/probe";

static char *load(const char *name)
{
	char path[512];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		exit(99);
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
		exit(99);
	fclose(f);
	return buf;
}

static char err[256];

static int parse(const char *spec, struct il_probe_opts *o)
{
	err[0] = '\0';
	return il_probe_parse(spec, o, err, sizeof(err));
}

static void bad(const char *spec, const char *needle)
{
	struct il_probe_opts o;

	t_check_int(parse(spec, &o), -EINVAL);
	t_check_contains(err, needle);
}

static void test_parse(void)
{
	struct il_probe_opts o;

	t_check_int(parse("cyclictest", &o), 0);
	t_check(o.enabled);
	t_check_int(o.prio, 0);
	t_check_int(o.rr, 0);
	t_check_int(o.interval_ns, 1000000);
	t_check_int(o.limit_ns, 10000000);
	t_check_int(o.ncpus, 0);
	t_check_int(o.format, IL_PROBE_JSON);
	t_check(!o.tune);

	t_check_int(parse("cyclictest=prio=80,policy=rr,interval=500us,"
			  "limit=20ms,cpus=0,2-3,format=text,tune=on",
			  &o),
		    0);
	t_check_int(o.prio, 80);
	t_check_int(o.rr, 1);
	t_check_int(o.interval_ns, 500000);
	t_check_int(o.limit_ns, 20000000);
	t_check_int(o.ncpus, 3);
	t_check_int(o.cpus[0], 0);
	t_check_int(o.cpus[1], 2);
	t_check_int(o.cpus[2], 3);
	t_check_int(o.format, IL_PROBE_TEXT);
	t_check(o.tune);
	/* a bare number is microseconds; cpus last keeps its commas */
	t_check_int(parse("cyclictest=interval=250,cpus=1,3", &o), 0);
	t_check_int(o.interval_ns, 250000);
	t_check_int(o.ncpus, 2);
	t_check_int(o.cpus[1], 3);
	/* the edges of the ranges are allowed */
	t_check_int(parse("cyclictest=prio=1,interval=50us,limit=1ms", &o), 0);
	t_check_int(parse("cyclictest=prio=99,interval=100ms,limit=100ms", &o),
		    0);

	bad("cyclictst", "unknown probe 'cyclictst'; did you mean "
			 "'cyclictest'?");
	bad("", "unknown probe ''");
	bad("cyclictest=", "nothing after 'cyclictest='");
	bad("cyclictest=prio=0", "prio: 0 is out of range (1 to 99)");
	bad("cyclictest=prio=100", "prio: 100 is out of range (1 to 99)");
	bad("cyclictest=prio=8x", "prio: '8x' is not a number");
	bad("cyclictest=interval=49us",
	    "interval: '49us' is out of range (50us to 100ms)");
	bad("cyclictest=interval=101ms", "out of range (50us to 100ms)");
	bad("cyclictest=interval=fast", "interval: 'fast' is not a duration");
	bad("cyclictest=limit=999us", "limit: '999us' is out of range (1ms to "
				      "100ms)");
	bad("cyclictest=limit=101ms", "out of range (1ms to 100ms)");
	bad("cyclictest=policy=other", "policy: 'other' is not fifo or rr");
	bad("cyclictest=format=xml", "format: 'xml' is not json or text");
	bad("cyclictest=tune=yes", "tune: 'yes' is not off or on");
	bad("cyclictest=cpus=a", "cpus: 'a'");
	bad("cyclictest=cpus=0-40", "at most 32");
	bad("cyclictest=pri=3", "unknown key 'pri'; did you mean 'prio'?");
	bad("cyclictest=-p80", "'-p80' is not KEY=VALUE");
	bad("cyclictest=prio=", "prio: no value");
	bad("cyclictest==3", "is not KEY=VALUE");

	/* timerlat: rtla's, the same keys, text only */
	t_check_int(parse("timerlat", &o), 0);
	t_check(o.enabled);
	t_check_int(o.tool, IL_PROBE_TIMERLAT);
	t_check_int(o.format, IL_PROBE_TEXT);
	t_check_int(o.interval_ns, IL_PROBE_INTERVAL_DEF_NS);
	t_check_int(parse("timerlat=prio=90,policy=rr,tune=on,cpus=1", &o), 0);
	t_check_int(o.tool, IL_PROBE_TIMERLAT);
	t_check_int(o.prio, 90);
	t_check_int(o.rr, 1);
	t_check(o.tune);
	t_check_int(o.ncpus, 1);
	t_check_int(parse("timerlat=format=text", &o), 0);
	t_check_int(parse("cyclictest", &o), 0);
	t_check_int(o.tool, IL_PROBE_CYCLICTEST);
	t_check_int(o.format, IL_PROBE_JSON);
	bad("timerlat=format=json", "format: rtla timerlat prints only text");
	bad("timerlat=", "nothing after 'timerlat='");
	bad("timerlt", "unknown probe 'timerlt'; did you mean 'timerlat'?");
	bad("rtla", "(probes: cyclictest, timerlat)");
	bad("timerlat=prio=100", "prio: 100 is out of range (1 to 99)");
	t_check_str(il_probe_name(IL_PROBE_TIMERLAT), "timerlat");
	t_check_str(il_probe_name(IL_PROBE_CYCLICTEST), "cyclictest");
}

static void test_cpulist(void)
{
	/* cpus[n] is past the list: it must not join the last range */
	static const int c[] = { 0, 1, 2, 5, 7, 8, 9 };
	char buf[64], spec[600];
	struct il_probe_opts o;

	t_check_str(il_probe_cpulist(c, 3, buf, sizeof(buf)), "0-2");
	t_check_str(il_probe_cpulist(c, 7, buf, sizeof(buf)), "0-2,5,7-9");
	t_check_str(il_probe_cpulist(c + 3, 1, buf, sizeof(buf)), "5");
	t_check_str(il_probe_cpulist(c + 4, 2, buf, sizeof(buf)), "7-8");
	t_check_str(il_probe_cpulist(c, 0, buf, sizeof(buf)), "");
	/* 511 characters of options fit, 512 do not */
	memset(spec, 0, sizeof(spec));
	memcpy(spec, "cyclictest=tune=off", 19);
	memset(spec + 19, ',', 511 - 8);
	spec[11 + 511] = '\0';
	t_check_int(strlen(spec + 11), 511);
	t_check_int(parse(spec, &o), -EINVAL);
	t_check_contains(err, "tune: 'off,,,");
	spec[11 + 511] = ',';
	t_check_int(parse(spec, &o), -EINVAL);
	t_check_contains(err, "longer than 511 characters");
}

static void test_prio(void)
{
	static struct il_scenario sc;
	struct il_probe_opts o;

	t_check_int(parse("cyclictest", &o), 0);
	/* nothing real-time: the lowest */
	t_check_int(il_probe_prio(&o, &sc), 1);
	sc.ntasks = 3;
	sc.tasks[0].sched.policy = IL_SCHED_FIFO;
	sc.tasks[0].sched.prio = 10;
	sc.tasks[1].sched.policy = IL_SCHED_RR;
	sc.tasks[1].sched.prio = 30;
	sc.tasks[2].sched.policy = IL_SCHED_OTHER;
	sc.tasks[2].sched.prio = 50; /* not real time: not counted */
	t_check_int(il_probe_prio(&o, &sc), 31);
	sc.tasks[0].sched.prio = 99;
	t_check_int(il_probe_prio(&o, &sc), 99);
	sc.tasks[0].sched.prio = 98;
	t_check_int(il_probe_prio(&o, &sc), 99);
	o.prio = 5; /* given: it wins, below the scenario or not */
	t_check_int(il_probe_prio(&o, &sc), 5);
}

static struct il_probe_result r;

static void test_json(void)
{
	char *text = load("ct-overflow.json"), *p;
	uint64_t v;

	t_check_int(il_probe_read_json(text, &r, err, sizeof(err)), 0);
	t_check_int(r.n, 2);
	t_check_int(r.cpu[0].cpu, 0);
	t_check_int(r.cpu[1].cpu, 1);
	t_check_int(r.cpu[0].cycles, 500);
	t_check_int(r.cpu[0].overflow, 421);
	t_check_int(r.cpu[1].overflow, 391);
	t_check_int(r.cpu[0].h.count, 500);
	t_check_int(r.cpu[0].h.overflow, 421);
	t_check_int(r.cpu[0].h.min, 25000);
	t_check_int(r.cpu[0].h.max, 1455000);
	t_check_int(r.cpu[1].h.max, 7788000);
	/* the mean from cyclictest's avg, the bins cannot give it */
	t_check(il_hist_mean(&r.cpu[0].h) > 98400 &&
		il_hist_mean(&r.cpu[0].h) < 98600);
	/* most samples overflowed: the median is not known */
	t_check_int(il_hist_percentile(&r.cpu[0].h, 0.5, &v), -ENODATA);
	/* but the smallest fifth is */
	t_check_int(il_hist_percentile(&r.cpu[0].h, 0.1, &v), 0);
	t_check(v < 60000);
	t_check_int(r.all.count, 1000);
	t_check_int(r.all.overflow, 812);
	t_check_int(r.all.max, 7788000);
	t_check_int(r.all.min, 25000);
	free(text);

	text = load("ct-1cpu.json");
	t_check_int(il_probe_read_json(text, &r, err, sizeof(err)), 0);
	t_check_int(r.n, 1);
	t_check_int(r.cpu[0].cpu, 1);
	t_check_int(r.cpu[0].cycles, 300);
	t_check_int(r.cpu[0].overflow, 0);
	t_check_int(r.cpu[0].h.overflow, 0);
	t_check_int(r.cpu[0].h.min, 28000);
	t_check_int(r.cpu[0].h.max, 7979000);
	/* p50 is 78 us exactly sorted (ceil(0.5 n)-th), p99 424 us */
	t_check_int(il_hist_percentile(&r.cpu[0].h, 0.5, &v), 0);
	t_check_int(il_hist_index(v), il_hist_index(78000));
	t_check_int(il_hist_percentile(&r.cpu[0].h, 0.99, &v), 0);
	t_check_int(il_hist_index(v), il_hist_index(424000));

	/* a max inside the histogram with nothing overflowed: not its own */
	p = strstr(text, "\"max\": 7979");
	t_check(p != NULL);
	if (p) {
		memcpy(p, "\"max\": 7000", 11);
		t_check_int(il_probe_read_json(text, &r, err, sizeof(err)),
			    -EINVAL);
		t_check_contains(err, "do not fit its histogram");
		t_check_int(r.n, 0);
	}
	free(text);

	text = load("ct-overflow.json");
	/* overflows (cycles past the bins), but max inside the bins */
	p = strstr(text, "\"max\": 1455");
	if (p) {
		memcpy(p, "\"max\": 0055", 11);
		t_check_int(il_probe_read_json(text, &r, err, sizeof(err)),
			    -EINVAL);
		t_check_contains(err, "thread 0: 421 overflows, but max 55 us "
				      "is inside the histogram");
	}
	free(text);

	text = load("ct-overflow.json");
	text[strlen(text) / 2] = '\0'; /* cut short */
	t_check_int(il_probe_read_json(text, &r, err, sizeof(err)), -EINVAL);
	t_check_contains(err, "not cyclictest's --json");
	t_check_int(il_probe_read_json("{\"num_threads\": 1}", &r, err,
				       sizeof(err)),
		    -EINVAL);
	t_check_contains(err, "no \"thread\" object");
	t_check_int(
		il_probe_read_json("{\"thread\": {}}", &r, err, sizeof(err)),
		-EINVAL);
	t_check_contains(err, "no thread in \"thread\"");
	t_check_int(il_probe_read_json("{\"thread\": {\"0\": {\"cycles\": 3, "
				       "\"min\": 1, \"max\": 2, \"avg\": 1}}}",
				       &r, err, sizeof(err)),
		    -EINVAL);
	t_check_contains(err, "thread 0: no \"histogram\" (cyclictest -h N");
	t_check_int(il_probe_read_json("{\"thread\": {\"0\": {\"histogram\": "
				       "{\"5\": 4}, \"cycles\": 3, \"min\": "
				       "5, \"max\": 5, \"avg\": 5}}}",
				       &r, err, sizeof(err)),
		    -EINVAL);
	t_check_contains(err, "holds 4 samples, more than its 3 cycles");
	t_check_int(il_probe_read_json("{\"resolution_in_ns\": 1, \"thread\": "
				       "{}}",
				       &r, err, sizeof(err)),
		    -EINVAL);
	t_check_contains(err, "in ns (-N)");
	/* overflows and a max on the histogram's last sample: not possible */
	t_check_int(il_probe_read_json("{\"thread\": {\"0\": {\"histogram\": "
				       "{\"5\": 2}, \"cycles\": 3, \"min\": "
				       "5, \"max\": 5, \"avg\": 5}}}",
				       &r, err, sizeof(err)),
		    -EINVAL);
	t_check_contains(err, "1 overflows, but max 5 us is inside");
	/* a mean outside [min, max] */
	t_check_int(il_probe_read_json("{\"thread\": {\"0\": {\"histogram\": "
				       "{\"5\": 2}, \"cycles\": 3, \"min\": "
				       "5, \"max\": 90, \"avg\": 95}}}",
				       &r, err, sizeof(err)),
		    -EINVAL);
	t_check_contains(err, "mean 95.00 us is not between min and max");
	t_check_int(il_probe_read_json("{\"thread\": {\"0\": {\"histogram\": "
				       "{\"5\": 2}, \"cycles\": 3, \"min\": "
				       "5, \"max\": 90, \"avg\": 30}}}",
				       &r, err, sizeof(err)),
		    0);
	t_check_int(r.cpu[0].overflow, 1);
	t_check_int(r.cpu[0].h.sum, 90000);
	/* counts are whole and not negative */
	t_check_int(il_probe_read_json("{\"thread\": {\"0\": {\"histogram\": "
				       "{}, \"cycles\": 2.5, \"min\": 1, "
				       "\"max\": 2, \"avg\": 1}}}",
				       &r, err, sizeof(err)),
		    -EINVAL);
	t_check_contains(err, "cycles: 2.5 is not a count");
	t_check_int(il_probe_read_json("{\"thread\": {\"0\": {\"histogram\": "
				       "{}, \"cycles\": -1, \"min\": 1, "
				       "\"max\": 2, \"avg\": 1}}}",
				       &r, err, sizeof(err)),
		    -EINVAL);
	t_check_contains(err, "cycles: -1 is not a count");
	/* members it does not read, arrays empty or not, are passed over */
	t_check_int(il_probe_read_json("{\"a\": [], \"b\": [1, [2, {}], "
				       "\"x\"], \"c\": true, \"d\": null, "
				       "\"thread\": {\"0\": {\"histogram\": "
				       "{\"7\": 1}, \"cycles\": 1, \"min\": "
				       "7, \"max\": 7, \"avg\": 7, \"e\": "
				       "false}}}",
				       &r, err, sizeof(err)),
		    0);
	t_check_int(r.n, 1);
	t_check_int(r.cpu[0].h.max, 7000);
	free(text);
}

static void test_text(void)
{
	static const int cpus[] = { 0, 1 };
	char *text = load("ct-overflow.hist"), *p;

	t_check_int(il_probe_read_text(text, cpus, 2, &r, err, sizeof(err)), 0);
	t_check_int(r.n, 2);
	t_check_int(r.cpu[0].cpu, 0);
	t_check_int(r.cpu[1].cpu, 1);
	t_check_int(r.cpu[0].cycles, 500);
	t_check_int(r.cpu[0].overflow, 387);
	t_check_int(r.cpu[1].overflow, 421);
	t_check_int(r.cpu[0].h.count, 500);
	t_check_int(r.cpu[0].h.overflow, 387);
	t_check_int(r.cpu[0].h.min, 27000);
	t_check_int(r.cpu[0].h.max, 1806000);
	t_check_int(r.cpu[1].h.max, 3164000);
	t_check_int(r.all.count, 1000);
	t_check_int(r.all.overflow, 808);
	/* fewer CPUs than threads */
	t_check_int(il_probe_read_text(text, cpus, 1, &r, err, sizeof(err)),
		    -EINVAL);
	t_check_contains(err, "2 threads, but 1 CPUs");
	/* a Total that disagrees with the bins */
	p = strstr(text, "# Total: 000000113");
	t_check(p != NULL);
	if (p) {
		memcpy(p, "# Total: 000000114", 18);
		t_check_int(
			il_probe_read_text(text, cpus, 2, &r, err, sizeof(err)),
			-EINVAL);
		t_check_contains(err, "thread 0: its histogram adds up to 113, "
				      "Total says 114");
		memcpy(p, "# Total: 000000113", 18);
	}
	p = strstr(text, "# Histogram Overflows:");
	if (p) {
		*p = '\0'; /* no overflow line */
		t_check_int(
			il_probe_read_text(text, cpus, 2, &r, err, sizeof(err)),
			-EINVAL);
		t_check_contains(err, "no '# Histogram Overflows:' line");
	}
	t_check_int(il_probe_read_text("# Histogram\n000001 000002 000003\n"
				       "000002 000004\n",
				       cpus, 2, &r, err, sizeof(err)),
		    -EINVAL);
	t_check_contains(err, "line 3: not a histogram line");
	t_check_int(il_probe_read_text("# Histogram\n000001 00000x\n", cpus, 2,
				       &r, err, sizeof(err)),
		    -EINVAL);
	t_check_contains(err, "line 2: not a histogram line");
	t_check_int(il_probe_read_text("# Histogram\n000001 1 2\n"
				       "# Min Latencies: 00027 x\n",
				       cpus, 2, &r, err, sizeof(err)),
		    -EINVAL);
	t_check_contains(err, "line 3: '# Min Latencies:' does not give one "
			      "number per thread");
	t_check_int(il_probe_read_text("# Histogram\n000001 1 2\n"
				       "# Max Latencies: 1\n",
				       cpus, 2, &r, err, sizeof(err)),
		    -EINVAL);
	t_check_contains(err, "line 3: '# Max Latencies:' does not give");
	t_check_int(il_probe_read_text("# Histogram\n", cpus, 2, &r, err,
				       sizeof(err)),
		    -EINVAL);
	t_check_contains(err, "no histogram");
	/* the smallest whole text: one bucket, two threads */
	t_check_int(il_probe_read_text("# Histogram\n000001 1 2\n"
				       "# Min Latencies: 1 1\n"
				       "# Avg Latencies: 1 1\n"
				       "# Max Latencies: 1 1\n"
				       "# Histogram Overflows: 0 0\n",
				       cpus, 2, &r, err, sizeof(err)),
		    0);
	t_check_int(r.n, 2);
	t_check_int(r.cpu[1].h.count, 2);
	t_check_int(
		il_probe_read_text("nothing\n", cpus, 2, &r, err, sizeof(err)),
		-EINVAL);
	t_check_contains(err, "no histogram");
	free(text);
}

/* text with line `line` (1-based) replaced by repl */
static char *with_line(const char *text, int line, const char *repl)
{
	static char out[8192];
	const char *p = text;
	size_t n = 0;

	for (int l = 1; *p; l++) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p + 1) : strlen(p);

		if (l == line)
			n += (size_t)snprintf(out + n, sizeof(out) - n, "%s\n",
					      repl);
		else
			n += (size_t)snprintf(out + n, sizeof(out) - n, "%.*s",
					      (int)len, p);
		p += len;
	}
	return out;
}

static void bad_tl(const char *text, const char *needle)
{
	err[0] = '\0';
	t_check_int(il_probe_read_timerlat(text, &r, err, sizeof(err)),
		    -EINVAL);
	t_check_contains(err, needle);
	/* nothing half-read is left */
	t_check_int(r.n, 0);
	t_check_int(r.all.count, 0);
}

/* whether this kernel has the timerlat tracer, as far as this process
 * can tell: 1, 0, or -1 (tracefs not readable here) */
static int host_timerlat(void)
{
	static const char *const at[] = {
		"/sys/kernel/tracing/available_tracers",
		"/sys/kernel/debug/tracing/available_tracers",
	};

	for (size_t i = 0; i < 2; i++) {
		char buf[4096] = "";
		FILE *f = fopen(at[i], "r");
		size_t n;

		if (!f)
			continue;
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[n] = '\0';
		return strstr(buf, "timerlat") != NULL;
	}
	return -1;
}

/*
 * timerlat's start: rtla not in PATH, a skip that says so; a stand-in
 * rtla that fails at once: on a kernel without the tracer it never runs
 * (a skip naming the tracer), on one with it its failure is said, and
 * its command line is rtla's
 */
static void test_start_timerlat(void)
{
	static struct il_scenario sc;
	char bin[] = "/tmp/invlab-test-probe-XXXXXX", script[600];
	struct il_probe_result *res = NULL;
	struct il_probe *p = NULL;
	struct il_probe_opts o;
	char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	int has = host_timerlat();
	FILE *f;

	t_check_int(parse("timerlat=cpus=0,prio=70", &o), 0);
	setenv("PATH", "/nonexistent", 1);
	t_check_int(il_probe_start(&o, &sc, NULL, 1000000000, NULL, &p, &res),
		    0);
	t_check(!p);
	t_check(res && res->status == IL_PROBE_SKIPPED);
	if (res)
		t_check_contains(res->reason, "rtla is not in PATH");
	il_probe_result_delete(res);

	if (!mkdtemp(bin))
		exit(99);
	snprintf(script, sizeof(script), "%s/rtla", bin);
	f = fopen(script, "w");
	if (!f)
		exit(99);
	fprintf(f, "#!/bin/sh\necho 'Failed to enable the timerlat tracer' "
		   ">&2\nexit 1\n");
	fclose(f);
	chmod(script, 0755);
	setenv("PATH", bin, 1);
	t_check_int(il_probe_start(&o, &sc, NULL, 1000000000, NULL, &p, &res),
		    0);
	t_check(!p);
	t_check(res != NULL);
	if (res) {
		bool skipped = res->status == IL_PROBE_SKIPPED;

		t_check_contains(res->command,
				 "rtla timerlat hist -c 0 -p 1000 -P f:70 "
				 "-E 10000 -b 1 --no-irq -d 7");
		/* tracefs not readable here: either, each said as it is */
		if (has == 0 || (has < 0 && skipped)) {
			t_check_int(res->status, IL_PROBE_SKIPPED);
			t_check_str(res->reason,
				    "the kernel has no timerlat tracer "
				    "(CONFIG_TIMERLAT_TRACER)");
		} else {
			t_check_int(res->status, IL_PROBE_FAILED);
			t_check_contains(res->reason,
					 "timerlat ended at its start (exit "
					 "status 1): Failed to enable the "
					 "timerlat tracer");
		}
	}
	il_probe_result_delete(res);
	unlink(script);
	rmdir(bin);
	if (old)
		setenv("PATH", old, 1);
	free(old);
}

/*
 * rtla timerlat hist's text (fixtures in rtla's layout, README.md): the
 * thread columns only, each CPU from its column's name, overflows at
 * the thread's max, figures checked against the summary
 */
static void test_timerlat(void)
{
	char *two = load("tl-2cpu.txt"), *irq = load("tl-irq.txt");
	uint64_t v;

	t_check_int(il_probe_read_timerlat(two, &r, err, sizeof(err)), 0);
	t_check_int(r.n, 2);
	t_check_int(r.cpu[0].cpu, 0);
	t_check_int(r.cpu[1].cpu, 1);
	t_check_int(r.cpu[0].cycles, 4969);
	t_check_int(r.cpu[0].overflow, 0);
	t_check_int(r.cpu[1].cycles, 4839);
	t_check_int(r.cpu[1].overflow, 3);
	t_check_int(r.cpu[1].h.overflow, 3);
	t_check_int(r.cpu[0].h.min, 1000);
	t_check_int(r.cpu[0].h.max, 23000);
	/* the overflows sit at the exact max: p100 is 250 us, not 41 */
	t_check_int(r.cpu[1].h.max, 250000);
	t_check_int(r.all.count, 4969 + 4839);
	t_check_int(il_hist_percentile(&r.cpu[0].h, 0.5, &v), 0);
	t_check_int(v, 3000);

	/* IRQ columns passed over, a thread that counted nothing kept */
	t_check_int(il_probe_read_timerlat(irq, &r, err, sizeof(err)), 0);
	t_check_int(r.n, 2);
	t_check_int(r.cpu[0].cpu, 2);
	t_check_int(r.cpu[1].cpu, 5);
	t_check_int(r.cpu[0].cycles, 1000);
	t_check_int(r.cpu[0].h.count, 1000);
	t_check_int(r.cpu[0].h.max, 6000);
	t_check_int(r.cpu[1].cycles, 0);
	t_check_int(r.all.count, 1000);

	/* each figure checked: lines 4 Index, 5.. buckets, then over,
	 * count, min, avg, max (lines 15 to 19 of tl-2cpu.txt) */
	bad_tl("", "no 'Index' line");
	bad_tl("# RTLA timerlat histogram\n", "no 'Index' line");
	bad_tl(with_line(two, 4, "Index   IRQ-000   IRQ-001"),
	       "no Thr-N column");
	bad_tl(with_line(two, 4, "Index   Thr-000   Foo-001"),
	       "not IRQ-N, Thr-N or Usr-N");
	bad_tl(with_line(two, 4, "Index   Thr-000   Thr-x"),
	       "CPU is not a number in range");
	bad_tl(with_line(two, 4, "Index   Thr-000   Thr-000"), "Thr-000 twice");
	bad_tl(with_line(two, 2, "# Time unit is nanoseconds (ns)"),
	       "in nanoseconds");
	bad_tl(with_line(two, 4, "# no index"), "figures before the 'Index'");
	bad_tl(with_line(two, 3, "Index   Thr-000   Thr-001"),
	       "a second 'Index' line");
	bad_tl(with_line(two, 6, "2          2310"), "not a histogram line");
	bad_tl(with_line(two, 6, "2          2310      1150    7"),
	       "not a histogram line");
	bad_tl(with_line(two, 6, "2          2310      x"),
	       "not a histogram line");
	/* an Index line without columns is still the Index line */
	bad_tl(with_line(two, 3, "Index"), "a second 'Index' line");
	/* a bucket line after the summary */
	bad_tl(with_line(two, 19, "max:         23       250\n3 1 1"),
	       "a histogram line after the summary");
	/* right after over:, before count: */
	bad_tl(with_line(two, 15, "over:         0         3\n3 1 1"),
	       "a histogram line after the summary");
	bad_tl(with_line(two, 15, "# over"), "no 'over:' line");
	bad_tl(with_line(two, 16, "# count"), "no 'count:' line");
	bad_tl(with_line(two, 19, "# max"), "no 'max:' line");
	bad_tl(with_line(two, 16, "count:     4969"),
	       "'count:' does not give one figure per column (2)");
	bad_tl(with_line(two, 15, "over:         0         -"),
	       "'over:' does not give one figure per column");
	bad_tl(with_line(two, 17, "min:          1         1\nmin: 1 1"),
	       "a second 'min:' line");
	/* count against the histogram and over: one off either way */
	bad_tl(with_line(two, 16, "count:     4970      4839"),
	       "Thr-000: its histogram holds 4969 samples and 0 are over "
	       "it, but count says 4970");
	bad_tl(with_line(two, 15, "over:         0         4"),
	       "Thr-001: its histogram holds 4836 samples and 4 are over");
	bad_tl(with_line(two, 15, "over:      5000         3"),
	       "Thr-000: its histogram holds");
	/* a count without figures, figures without a count */
	bad_tl(with_line(two, 17, "min:          -         1"),
	       "Thr-000: count 4969 but min, avg and max missing");
	bad_tl(with_line(irq, 11,
			 "min:          0         1         0    "
			 "     0"),
	       "Thr-005: count 0 but min, avg and max given");
	/* the summary's figures must fit the histogram (finish) */
	bad_tl(with_line(two, 17, "min:          2         1"),
	       "do not fit its histogram");
	bad_tl(with_line(two, 19, "max:         23        30"),
	       "overflows, but max 30 us is inside the histogram");
	/* other words of rtla's are passed over */
	t_check_int(il_probe_read_timerlat(
			    with_line(two, 19,
				      "max:         23       250\nALL:  Thr\n"
				      "rtla timerlat hit stop tracing"),
			    &r, err, sizeof(err)),
		    0);
	t_check_int(r.n, 2);
	free(two);
	free(irq);
}

static void test_report(void)
{
	static struct il_probe_result s;
	char *text = load("ct-1cpu.json"), *buf = NULL;
	size_t n = 0;
	struct il_json j;
	FILE *f;

	t_check_int(il_probe_read_json(text, &s, err, sizeof(err)), 0);
	s.status = IL_PROBE_RAN;
	s.prio = 31;
	s.interval_ns = 1000000;
	f = open_memstream(&buf, &n);
	il_probe_report(f, "# ", &s);
	fclose(f);
	t_check_contains(buf, "# probe cyclictest (FIFO 31, every 1.00ms, "
			      "cpus 1):\n");
	t_check_contains(buf, "#   cpu 1: 300 wakeups, p50 78");
	t_check_contains(buf, "max 7.98ms, overflow 0\n");
	free(buf);
	buf = NULL;

	f = open_memstream(&buf, &n);
	il_json_init(&j, f);
	il_json_begin_object(&j, NULL);
	il_probe_json(&j, &s);
	il_json_end_object(&j);
	fclose(f);
	t_check_contains(buf, "\"status\":\"ran\"");
	t_check_contains(buf, "\"probe_cyclictest_ns\":{");
	t_check_contains(buf, "\"probe_cyclictest_cpu1_ns\":{");
	t_check_contains(buf, "\"overflow\":0");
	free(buf);
	buf = NULL;

	/* skipped: the reason, and no histogram to take for a figure */
	memset(&s, 0, sizeof(s));
	s.status = IL_PROBE_SKIPPED;
	snprintf(s.reason, sizeof(s.reason), "cyclictest is not in PATH");
	f = open_memstream(&buf, &n);
	il_json_init(&j, f);
	il_json_begin_object(&j, NULL);
	il_probe_json(&j, &s);
	il_json_end_object(&j);
	il_probe_report(f, "", &s);
	fclose(f);
	t_check_contains(buf, "\"status\":\"skipped\"");
	t_check_contains(buf, "\"reason\":\"cyclictest is not in PATH\"");
	t_check(!strstr(buf, "probe_cyclictest_ns"));
	t_check_contains(
		buf, "probe cyclictest: skipped: cyclictest is not in PATH");
	free(buf);
	free(text);
}

static void test_start(void)
{
	static struct il_scenario sc;
	char bin[] = "/tmp/invlab-test-probe-XXXXXX", script[600];
	struct il_probe_result *res = (void *)1;
	struct il_probe *p = (void *)1;
	struct il_probe_opts o;
	char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	FILE *f;

	/* not asked for: nothing at all */
	memset(&o, 0, sizeof(o));
	t_check_int(il_probe_start(&o, &sc, NULL, 1000000000, NULL, &p, &res),
		    0);
	t_check(!p && !res);

	t_check_int(parse("cyclictest=cpus=0", &o), 0);
	/* not installed: a skip that says so */
	setenv("PATH", "/nonexistent", 1);
	t_check_int(il_probe_start(&o, &sc, NULL, 1000000000, NULL, &p, &res),
		    0);
	t_check(!p);
	t_check(res && res->status == IL_PROBE_SKIPPED);
	if (res)
		t_check_contains(res->reason, "cyclictest is not in PATH");
	il_probe_stop(p, res); /* nothing, for NULL */
	il_probe_result_delete(res);

	/* one that fails at its start: failed, with what it said */
	if (!mkdtemp(bin))
		exit(99);
	snprintf(script, sizeof(script), "%s/cyclictest", bin);
	f = fopen(script, "w");
	if (!f)
		exit(99);
	fprintf(f, "#!/bin/sh\necho 'WARN: a note' >&2\n"
		   "echo 'Unable to change scheduling policy!' >&2\nexit 3\n");
	fclose(f);
	chmod(script, 0755);
	setenv("PATH", bin, 1);
	t_check_int(il_probe_start(&o, &sc, NULL, 1000000000, NULL, &p, &res),
		    0);
	t_check(!p);
	t_check(res && res->status == IL_PROBE_FAILED);
	if (res) {
		t_check_contains(res->reason, "cyclictest ended at its start "
					      "(exit status 3): Unable to "
					      "change scheduling policy!");
		t_check_contains(res->command, "cyclictest -q -m -t1 -a 0 -p1 "
					       "--policy=fifo -i1000 -h10000 "
					       "-D7 --default-system");
	}
	il_probe_result_delete(res);
	unlink(script);
	rmdir(bin);
	if (old)
		setenv("PATH", old, 1);
	free(old);
}

/*
 * A stand-in for cyclictest, in Python for its threads: one per -tN, then
 * on SIGINT it writes FILE (a fixture) on its --json descriptor, 3 (on
 * its standard output without --json); with
 * "hang" it ignores SIGINT and has to be killed.
 */
static const char fake[] =
	"#!%s\n"
	"import os, signal, sys, threading, time\n"
	"stop = threading.Event()\n"
	"mode, src = %s, %s\n"
	"signal.signal(signal.SIGINT, signal.SIG_IGN if mode == 'hang' else\n"
	"              lambda *a: stop.set())\n"
	"n = int([a for a in sys.argv if a.startswith('-t')][0][2:])\n"
	"for i in range(n):\n"
	"    threading.Thread(target=stop.wait, daemon=True).start()\n"
	"t0 = time.time()\n"
	"while not stop.is_set() and time.time() - t0 < 30:\n"
	"    time.sleep(0.02)\n"
	"fd = 3 if [a for a in sys.argv if a.startswith('--json')] else 1\n"
	"os.write(fd, open(src, 'rb').read())\n";

static struct il_probe_result *fake_run(const char *bin, const char *py,
					const char *mode, const char *src,
					const char *spec)
{
	static struct il_scenario sc;
	char script[600], m[64], f[600];
	struct il_probe_result *res = NULL;
	struct il_probe *p = NULL;
	struct il_probe_opts o;
	FILE *fp;

	snprintf(script, sizeof(script), "%s/cyclictest", bin);
	snprintf(m, sizeof(m), "'%s'", mode);
	snprintf(f, sizeof(f), "'%s/%s'", dir, src);
	fp = fopen(script, "w");
	if (!fp)
		exit(99);
	fprintf(fp, fake, py, m, f);
	fclose(fp);
	chmod(script, 0755);
	t_check_int(parse(spec, &o), 0);
	t_check_int(il_probe_start(&o, &sc, NULL, 1000000000, NULL, &p, &res),
		    0);
	t_check(res != NULL);
	if (!res)
		exit(1);
	il_probe_stop(p, res);
	unlink(script);
	/* a machine too loaded to start Python within the 2 s allowed says
	 * nothing about the probe: not a failure (no timing in this suite) */
	if (!p && strstr(res->reason, "had not started")) {
		fprintf(stderr,
			"the stand-in was slow to start (%s): the "
			"rest is not tried\n",
			res->reason);
		il_probe_result_delete(res);
		return NULL;
	}
	t_check(p != NULL);
	return res;
}

/* start, stop, read back: the whole way, with a stand-in */
static void test_run(void)
{
	char bin[] = "/tmp/invlab-test-probe-XXXXXX";
	char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	const char *py = "/usr/bin/python3";
	struct il_probe_result *res;

	if (access(py, X_OK)) {
		fprintf(stderr, "no %s: the stand-in runs are not tried\n", py);
		free(old);
		return;
	}
	if (!mkdtemp(bin))
		exit(99);
	setenv("PATH", bin, 1);
	res = fake_run(bin, py, "ok", "ct-overflow.json",
		       "cyclictest=cpus=0-1");
	if (!res)
		goto out;
	t_check_int(res->status, IL_PROBE_RAN);
	t_check_int(res->n, 2);
	t_check_int(res->cpu[1].overflow, 391);
	t_check_int(res->all.count, 1000);
	t_check(res->pid > 0 && kill(res->pid, 0) && errno == ESRCH);
	il_probe_result_delete(res);

	/* ignores SIGINT: killed, reaped, and said */
	res = fake_run(bin, py, "hang", "ct-overflow.json",
		       "cyclictest=cpus=0");
	if (!res)
		goto out;
	t_check_int(res->status, IL_PROBE_FAILED);
	t_check_contains(res->reason, "did not end within 1 s of SIGINT: "
				      "killed");
	t_check(res->pid > 0 && kill(res->pid, 0) && errno == ESRCH);
	t_check_int(res->n, 0);
	il_probe_result_delete(res);

	/* writes what is not its output: failed, with the reader's reason */
	res = fake_run(bin, py, "ok", "ct-overflow.hist", "cyclictest=cpus=0");
	if (!res)
		goto out;
	t_check_int(res->status, IL_PROBE_FAILED);
	t_check_contains(res->reason, "cyclictest (exit status 0): not "
				      "cyclictest's --json");
	il_probe_result_delete(res);

	/* the text format: read from its standard output, thread i on the
	 * i-th CPU given */
	res = fake_run(bin, py, "ok", "ct-overflow.hist",
		       "cyclictest=cpus=0-1,format=text");
	if (!res)
		goto out;
	t_check_int(res->status, IL_PROBE_RAN);
	t_check(!strstr(res->command, "--json"));
	t_check_int(res->n, 2);
	t_check_int(res->cpu[1].cpu, 1);
	t_check_int(res->cpu[0].overflow, 387);
	il_probe_result_delete(res);
	res = fake_run(bin, py, "ok", "ct-overflow.json",
		       "cyclictest=cpus=0,format=text");
	if (!res)
		goto out;
	t_check_int(res->status, IL_PROBE_FAILED);
	t_check_contains(res->reason, "no histogram");
	il_probe_result_delete(res);
out:
	rmdir(bin);
	if (old)
		setenv("PATH", old, 1);
	free(old);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		dir = argv[1];
	test_parse();
	test_cpulist();
	test_prio();
	test_json();
	test_text();
	test_timerlat();
	test_report();
	test_start();
	test_start_timerlat();
	test_run();
	return t_done("probe");
}
