// SPDX-License-Identifier: MIT
/*
 * --sweep from the command line to the comparison: sched-messaging and
 * invlab-run each run a small sweep (no privilege: CFS tasks, a tiny
 * workload, --no-lock), and the result must hold each value as a
 * configuration of its own, with the sweep member invlab-compare folds
 * by, so that `invlab-compare --by KEY A -- B` gives one row a value and
 * without --by each value stays a block of its own.  invlab-run's job is
 * one CFS task without a lock: the figures compared are its wakeups.
 *
 *   test-sweep-compare build/demos/sched-messaging build/demos/invlab-run \
 *       build/tools/invlab-compare demos/jobs/pi-classic.job
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "t_tools.h"
#include "t_util.h"

static const char *messaging, *runner, *compare, *pijob;
static char job[512];

static const char job_text[] = "[global]\n"
			       "name = t-sweep\n"
			       "validate = none\n"
			       "\n"
			       "[task a]\n"
			       "class = other\n"
			       "activation = periodic\n"
			       "period = 10ms\n"
			       "body = run 100us\n";

static const char *str_at(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* the lines of text that begin with prefix */
static size_t lines_with(const char *text, const char *prefix)
{
	size_t n = 0, len = strlen(prefix);

	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');

		if (!strncmp(p, prefix, len))
			n++;
		p = nl ? nl + 1 : NULL;
	}
	return n;
}

static void test_messaging(void)
{
	char *out = NULL, *err = NULL, a[512], b[512];
	struct json_object *o, *runs, *sw, *x;
	int rc;

	snprintf(a, sizeof(a), "%s", t_tmp("sm-a.json"));
	snprintf(b, sizeof(b), "%s", t_tmp("sm-b.json"));
	rc = t_run_toolv(messaging, &out, &err, "--no-lock", "-f", "1", "-l",
			 "2", "-r", "2", "--sweep", "groups=3,1,2", "--json", a,
			 NULL);
	t_check_int(rc, 0);
	/* each value's own lines, in the order given */
	t_check_contains(out, "--sweep groups over 3 values, one "
			      "configuration each:\n  groups=3: 3 groups of 1 "
			      "senders");
	t_check_contains(out, "\ngroups=3 run 1: Total time: ");
	t_check_contains(out, "\ngroups=2 run 2: Total time: ");
	t_check_contains(out, "sched-messaging: process-socket groups=1: "
			      "AMean wall time ");
	free(out), free(err);
	rc = t_run_toolv(messaging, &out, &err, "--no-lock", "-f", "1", "-l",
			 "2", "-r", "2", "-q", "--sweep", "groups=1,2,3",
			 "--json", b, NULL);
	t_check_int(rc, 0);
	t_check_contains(out, "groups=1 run 1: ");
	free(out), free(err);

	/* the file: a configuration a value, the runs interleaved */
	o = json_object_from_file(a);
	t_check(o != NULL);
	runs = json_object_object_get(o, "runs");
	t_check_int(json_object_array_length(runs), 6);
	x = json_object_array_get_idx(runs, 1);
	t_check_str(str_at(x, "configuration"), "process-socket groups=1");
	sw = json_object_object_get(x, "sweep");
	t_check_str(str_at(sw, "key"), "groups");
	t_check_str(str_at(sw, "configuration"), "process-socket");
	t_check_int(json_object_get_int(json_object_object_get(sw, "value")),
		    1);
	x = json_object_array_get_idx(runs, 3);
	t_check_str(str_at(x, "configuration"), "process-socket groups=3");
	t_check_int(json_object_get_int(json_object_object_get(x, "repeat")),
		    2);
	/* the swept option is the runs', not the scenario's */
	x = json_object_object_get(o, "scenario");
	t_check(!json_object_object_get_ex(x, "groups", NULL));
	t_check_int(json_object_get_int(json_object_object_get(x, "fds")), 1);
	sw = json_object_object_get(o, "sweep");
	t_check_str(str_at(sw, "key"), "groups");
	t_check_int(
		json_object_array_length(json_object_object_get(sw, "values")),
		3);
	json_object_put(o);

	/* --by groups: one block, one row a value, in numeric order */
	rc = t_run_toolv(compare, &out, &err, "-q", "--by", "groups", a, "--",
			 b, NULL);
	t_check(rc == 77);
	t_check_int((int)t_count(out, " wall time (s, AMean"), 1);
	t_check_contains(out, "sched-messaging/process-socket wall time");
	t_check_int((int)lines_with(out, "Amean wall "), 3);
	t_check_contains(out, "\nAmean wall       1   2:2  ");
	t_check_contains(out, "\nAmean wall       2   2:2  ");
	t_check_contains(out, "\nAmean wall       3   2:2  ");
	t_check(strstr(out, "wall       1 ") < strstr(out, "wall       2 "));
	t_check(strstr(out, "wall       2 ") < strstr(out, "wall       3 "));
	t_check(!strstr(out, "groups=2"));
	free(out), free(err);
	/* three sides, as three kernels would be */
	rc = t_run_toolv(compare, &out, &err, "-q", "--by", "groups", a, "--",
			 b, "--", a, NULL);
	t_check(rc == 77);
	t_check_int((int)lines_with(out, "Amean wall "), 3);
	t_check_contains(out, "\nAmean wall       2  2:2:2  ");
	free(out), free(err);
	/* without --by, a block a value: never merged unasked */
	rc = t_run_toolv(compare, &out, &err, "-q", a, "--", b, NULL);
	t_check(rc == 77);
	t_check_int((int)t_count(out, " wall time (s, AMean"), 3);
	t_check_contains(out, "sched-messaging/process-socket groups=2 wall "
			      "time");
	free(out), free(err);
	/* JSON: the value of each row */
	rc = t_run_toolv(compare, &out, &err, "--format=json", "--by", "groups",
			 a, "--", b, NULL);
	o = json_tokener_parse(out);
	t_check(o != NULL);
	x = json_object_object_get(o, "counters");
	t_check(json_object_array_length(x) >= 3);
	t_check_str(str_at(json_object_array_get_idx(x, 0), "configuration"),
		    "sched-messaging/process-socket");
	t_check_str(str_at(json_object_array_get_idx(x, 0), "by"), "1");
	t_check_str(str_at(json_object_array_get_idx(x, 2), "by"), "3");
	json_object_put(o);
	free(out), free(err);

	/* the refusals exit 2 before anything runs, naming the range */
	rc = t_run_toolv(messaging, &out, &err, "--sweep", "groups=1,1001",
			 NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "--sweep groups=1,1001: --groups: 1001 is out "
			      "of range; allowed 1..1000");
	free(out), free(err);
	rc = t_run_toolv(messaging, &out, &err, "--sweep", "fds=2,2", NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "'2' is given twice");
	free(out), free(err);
	rc = t_run_toolv(messaging, &out, &err, "--sweep", "loop=1,2", NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "no option 'loop' to sweep; did you mean "
			      "'loops'?");
	free(out), free(err);
	rc = t_run_toolv(messaging, &out, &err, "--sweep", "thread=0,1", NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "(these can: groups, fds, loops, size)");
	free(out), free(err);
	rc = t_run_toolv(messaging, &out, &err, "-l", "5", "--sweep",
			 "loops=1,2", NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "--sweep loops and --loops:");
	free(out), free(err);
	rc = t_run_toolv(messaging, &out, &err, "--sweep", "size=1K,1024",
			 NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "'1024' is '1K' again");
	free(out), free(err);
	rc = t_run_toolv(messaging, &out, &err, "--sweep", "loops=1",
			 "--sweep=fds=1", NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "--sweep is given 2 times");
	free(out), free(err);
}

static void test_run(void)
{
	char *out = NULL, *err = NULL, a[512];
	struct json_object *o, *runs, *x, *ji;
	int rc;

	snprintf(a, sizeof(a), "%s", t_tmp("run-a.json"));
	rc = t_run_toolv(runner, &out, &err, job, "--no-lock", "-d", "200ms",
			 "--sweep", "global.duration=200ms,300ms", NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "--sweep global.duration=200ms,300ms and "
			      "--duration:");
	free(out), free(err);
	rc = t_run_toolv(runner, &out, &err, job, "--no-lock", "--sweep",
			 "global.duration=200ms,150ms", "--json", a, NULL);
	t_check_int(rc, 0);
	t_check_contains(out, "--sweep duration over 2 values: 200ms, 150ms");
	t_check_contains(out, "\nduration=150ms:\n");
	free(out), free(err);
	o = json_object_from_file(a);
	t_check(o != NULL);
	runs = json_object_object_get(o, "runs");
	t_check_int(json_object_array_length(runs), 2);
	x = json_object_array_get_idx(runs, 1);
	t_check_str(str_at(x, "configuration"), "t-sweep duration=150ms");
	t_check_str(str_at(json_object_object_get(x, "sweep"), "value"),
		    "150ms");
	t_check_str(str_at(json_object_object_get(x, "sweep"), "configuration"),
		    "t-sweep");
	/* the job each run ran; the file's, before the sweep's value */
	ji = json_object_object_get(x, "judge_inputs");
	t_check_contains(str_at(ji, "job_text"), "duration = 150ms");
	t_check(!strstr(str_at(json_object_object_get(o, "job"), "text"),
			"150ms"));
	json_object_put(o);
	/* --by duration, or as --set names it: one block, a row a value */
	rc = t_run_toolv(compare, &out, &err, "-q", "-m", "a/wakeup_ns", "-s",
			 "p50", "--by", "global.duration", a, "--", a, NULL);
	t_check_int(rc, 77);
	t_check_int((int)t_count(out, "a/wakeup_ns: Median"), 1);
	t_check_int((int)lines_with(out, "p50 "), 2);
	/* not numbers: as first seen */
	t_check(strstr(out, " 200ms ") && strstr(out, " 150ms ") &&
		strstr(out, " 200ms ") < strstr(out, " 150ms "));
	free(out), free(err);
	rc = t_run_toolv(compare, &out, &err, "-q", "-m", "a/wakeup_ns", "-s",
			 "p50", "--by", "duration", a, "--", a, NULL);
	t_check_int((int)lines_with(out, "p50 "), 2);
	free(out), free(err);
	rc = t_run_toolv(compare, &out, &err, "-q", "-m", "a/wakeup_ns", "-s",
			 "p50", a, "--", a, NULL);
	t_check_int((int)t_count(out, "a/wakeup_ns: Median"), 2);
	t_check_contains(out, "invlab-run/t-sweep duration=200ms a/wakeup_ns");
	free(out), free(err);

	/* each value checked as --set checks it, before anything runs */
	rc = t_run_toolv(runner, &out, &err, pijob, "--sweep",
			 "M.protocol=none,foo", NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "--sweep M.protocol=none,foo: M.protocol=foo: "
			      "protocol: 'foo' is not one of "
			      "none|inherit|protect");
	free(out), free(err);
	rc = t_run_toolv(runner, &out, &err, pijob, "--sweep", "M.protcol=none",
			 NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "did you mean 'protocol'?");
	free(out), free(err);
	rc = t_run_toolv(runner, &out, &err, pijob, "--sweep",
			 "global.duration=90m", NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "allowed");
	free(out), free(err);
	rc = t_run_toolv(runner, &out, &err, pijob, "--sweep",
			 "M.protocol=none,inherit", "--set", "M.protocol=none",
			 NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "the sweep gives M.protocol its values");
	free(out), free(err);
	rc = t_run_toolv(runner, &out, &err, pijob, "--sweep",
			 "duration=1s,1000ms", NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "'1000ms' makes the job '1s' makes");
	free(out), free(err);
	rc = t_run_toolv(runner, &out, &err, pijob, "--sweep",
			 "M.protocol=none,inherit,none", NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "'none' is given twice");
	free(out), free(err);
	rc = t_run_toolv(
		runner, &out, &err, pijob, "--sweep",
		"duration=1s,2s,3s,4s,5s,6s,7s,8s,9s,10s,11s,12s,13s,14s,15s,"
		"16s,17s",
		NULL);
	t_check_int(rc, 2);
	t_check_contains(err, "more than 16 values");
	free(out), free(err);
	/* --print-job: each configuration's job */
	rc = t_run_toolv(runner, &out, &err, pijob, "--sweep",
			 "M.protocol=none,inherit", "--print-job", NULL);
	t_check_int(rc, 0);
	t_check_contains(out, "protocol = none\n");
	t_check_contains(out, "protocol = inherit\n");
	free(out), free(err);
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr,
			"usage: %s SCHED-MESSAGING INVLAB-RUN INVLAB-COMPARE "
			"PI-CLASSIC-JOB\n",
			argv[0]);
		return 99;
	}
	messaging = argv[1];
	runner = argv[2];
	compare = argv[3];
	pijob = argv[4];
	snprintf(job, sizeof(job), "%s", t_tmp("t-sweep.job"));
	if (t_write_text(job, job_text))
		return 99;
	/* what is compared here is the shape, not the counters */
	setenv("INVLAB_COUNTERS", "off", 1);
	test_messaging();
	test_run();
	t_tmp_cleanup();
	return t_done("sweep-compare");
}
