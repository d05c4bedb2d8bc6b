// SPDX-License-Identifier: MIT
/*
 * invlab-import on fixtures made on a real machine (tests/data/import:
 * cyclictest 2.40, rt-app 1.0, a rename-test loop, perf bench 6.1) and on
 * schbench output written by hand in its layouts, each read back by the
 * result tools' loader and compared with invlab-compare; then malformed
 * inputs, each refused with FILE:LINE, exit 2 and no output.
 *
 *   test-import build/tools/invlab-{import,compare,gate,plot} \
 *       tests/data/import docs/man/invlab-import.1
 *
 * The expected figures are worked out here from the fixtures themselves
 * (the cyclictest JSON with json-c, the others line by line), so a wrong
 * conversion cannot agree with itself.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "config.h"
#include "results.h"
#include "stats.h"
#include "t_tools.h"
#include "t_util.h"

static const char *tool, *compare, *gate, *plot, *data;

static int run(const char *prog, char **out, char **err, ...)
{
	char *argv[40];
	va_list ap;
	int n = 0;

	argv[n++] = (char *)prog;
	va_start(ap, err);
	while (n < 39 && (argv[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	return t_run_tool(argv, out, err);
}

static const char *fixture(const char *name)
{
	static char buf[8][512];
	static int i;

	i = (i + 1) % 8;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", data, name);
	return buf[i];
}

static bool exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

/* load path with the tools' loader: 0 and s filled */
static int load(const char *path, struct il_res_set *s)
{
	char err[512];
	int ret;

	il_res_set_init(s, false);
	ret = il_res_set_load(s, path, err, sizeof(err));
	if (ret)
		fprintf(stderr, "load %s: %s\n", path, err);
	return ret;
}

static const struct il_res_metric *metric(const struct il_res_set *s,
					  const char *scenario,
					  const char *conf, const char *name)
{
	const struct il_res_group *g = il_res_set_find(s, scenario, conf, 0);

	return g ? il_res_group_metric(g, name) : NULL;
}

static struct json_object *get(struct json_object *o, const char *path)
{
	char buf[256], *save = NULL, *tok;

	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, ".", &save); o && tok;
	     tok = strtok_r(NULL, ".", &save)) {
		if (json_object_is_type(o, json_type_array))
			o = json_object_array_get_idx(o, (size_t)atoi(tok));
		else if (!json_object_object_get_ex(o, tok, &o))
			o = NULL;
	}
	return o;
}

/* ---- cyclictest -------------------------------------------------------- */

struct ct_expect {
	uint64_t cycles, inbins, min_us, max_us;
};

/* the fixture's own totals, read with json-c */
static void ct_expected(const char *path, struct ct_expect *e)
{
	struct json_object *root = json_object_from_file(path), *th;

	memset(e, 0, sizeof(*e));
	e->min_us = UINT64_MAX;
	t_check(root && json_object_object_get_ex(root, "thread", &th));
	if (!root)
		return;
	json_object_object_foreach(th, k, t)
	{
		struct json_object *h = get(t, "histogram");
		uint64_t mn = (uint64_t)json_object_get_int64(get(t, "min"));
		uint64_t mx = (uint64_t)json_object_get_int64(get(t, "max"));

		(void)k;
		e->cycles += (uint64_t)json_object_get_int64(get(t, "cycles"));
		json_object_object_foreach(h, b, c)
		{
			(void)b;
			e->inbins += (uint64_t)json_object_get_int64(c);
		}
		if (mn < e->min_us)
			e->min_us = mn;
		if (mx > e->max_us)
			e->max_us = mx;
	}
	json_object_put(root);
}

static void test_cyclictest(void)
{
	/* what a cyclictest file does not tell of its kernel */
	static const char *const unknown[] = {
		"kernel.proxy_exec_active",
		"kernel.proxy_exec_in_release",
		"kernel.config_proxy_exec",
		"kernel.preempt_dynamic",
		"kernel.hz",
		"kernel.rt_group_sched",
		"kernel.rt_runtime_us",
		"kernel.cpus_online",
		"kernel.numa_nodes",
		"kernel.cgroup_version",
		"kernel.emulated",
		"kernel.steal_ns",
	};
	const char *j = t_tmp("ct-json.json"), *h = t_tmp("ct-hist.json");
	const char *jb = t_tmp("ct-json-b.json");
	const struct il_res_metric *mj, *mh;
	struct il_res_set sj, sh;
	struct ct_expect e;
	struct json_object *root;
	char *out = NULL;
	double v;

	ct_expected(fixture("cyclictest-a.json"), &e);
	t_check(e.cycles > e.inbins); /* the fixture has overflows */
	t_check_int(run(tool, NULL, NULL, "-f", "cyclictest-json",
			"--per-thread", "-o", j, fixture("cyclictest-a.json"),
			NULL),
		    0);
	t_check_int(run(tool, NULL, NULL, "-f", "cyclictest-hist",
			"--per-thread", "-o", h, fixture("cyclictest-a.hist"),
			NULL),
		    0);
	if (load(j, &sj) || load(h, &sh)) {
		t_check(0);
		return;
	}
	mj = metric(&sj, "cyclictest", "default", "latency_ns");
	mh = metric(&sh, "cyclictest", "default", "latency_ns");
	t_check(mj && mh);
	if (mj && mh) {
		/* every cycle is a sample, the overflows counted apart */
		t_check_int(mj->merged->count, e.cycles);
		t_check_int(mj->merged->overflow, e.cycles - e.inbins);
		t_check_int(mj->merged->min, e.min_us * 1000);
		t_check_int(mj->merged->max, e.max_us * 1000);
		/* the JSON and the printed histogram of one run agree */
		t_check_int(mh->merged->count, mj->merged->count);
		t_check_int(mh->merged->overflow, mj->merged->overflow);
		t_check(!memcmp(mh->merged->bins, mj->merged->bins,
				sizeof(mj->merged->bins)));
		/* p50 is measured; p99 falls among the overflows */
		t_check_int(
			il_res_stat_value(mj->merged, IL_RES_P50, false, &v),
			0);
		t_check(v >= 1000 && v < 1e6);
		t_check(e.cycles - e.inbins > e.cycles / 100);
		t_check_int(
			il_res_stat_value(mj->merged, IL_RES_P99, false, &v),
			-ENODATA);
		t_check_int(il_res_stat_value(mh->merged, IL_RES_P99, true, &v),
			    -ENODATA);
	}
	t_check(metric(&sj, "cyclictest", "default", "thread0_latency_ns"));
	t_check(metric(&sj, "cyclictest", "default", "thread1_latency_ns"));
	il_res_set_free(&sj);
	il_res_set_free(&sh);

	/* the file says p99 is null, and where it came from */
	root = json_object_from_file(j);
	t_check(root && json_object_is_type(get(root, "runs.0.latency_ns.p99"),
					    json_type_null));
	t_check_str(json_object_get_string(get(root, "program")), "cyclictest");
	t_check_str(json_object_get_string(get(root, "source.format")),
		    "cyclictest-json");
	t_check_str(json_object_get_string(get(root, "source.tool_version")),
		    "2.40");
	t_check_str(json_object_get_string(get(root, "source.files.0")),
		    fixture("cyclictest-a.json"));
	t_check_str(json_object_get_string(get(root, "kernel.release")),
		    "6.18.44-fc-v669");
	/* not this machine's: the source does not say */
	t_check(json_object_is_type(get(root, "kernel.cmdline"),
				    json_type_null));
	/* nor these: unknown, not "no" (not false, not 0) */
	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++)
		t_check(json_object_is_type(get(root, unknown[i]),
					    json_type_null));
	t_check_int(json_object_get_int(get(root, "schema_version")), 1);
	json_object_put(root);

	/* the same run through both formats: identical p50, one run a side */
	t_check_int(run(compare, &out, NULL, "-q", "-m", "latency_ns", "-s",
			"p50,max", j, h, NULL),
		    77);
	t_check_contains(out, "cyclictest/default");
	t_check_contains(out, "1.00 [  0.00]");
	t_check(!t_count(out, "  worse") && !t_count(out, "  better"));
	free(out);
	out = NULL;
	/* two runs: both compared, several files are several runs */
	t_check_int(run(tool, NULL, NULL, "-f", "cyclictest-json", "-o", jb,
			fixture("cyclictest-a.json"),
			fixture("cyclictest-b.json"), NULL),
		    0);
	if (!load(jb, &sj)) {
		mj = metric(&sj, "cyclictest", "default", "latency_ns");
		t_check(mj && mj->nruns == 2);
		il_res_set_free(&sj);
	}
	t_check(run(compare, &out, NULL, "-q", j, jb, NULL) >= 0);
	t_check_contains(out, "latency_ns");
	free(out);
	out = NULL;

	/* the gate says why p99 cannot be judged, and fails closed */
	t_write_text(t_tmp("ct.ini"), "[cyclictest/default]\n"
				      "latency_ns.p50 <= 1s\n"
				      "latency_ns.p99 <= 1s\n");
	t_check_int(run(gate, &out, NULL, "-p", t_tmp("ct.ini"), j, NULL), 1);
	t_check_contains(out, "latency_ns.p50 <= 1s");
	t_check_contains(out, "p99 falls among the");
	free(out);
	/* and the plot draws it */
	t_check_int(run(plot, NULL, NULL, "-m", "latency_ns", "-o",
			t_tmp("ct.svg"), j, NULL),
		    0);
	out = t_read_file(t_tmp("ct.svg"));
	t_check_contains(out, "hist-default");
	free(out);
}

/* ---- rt-app ------------------------------------------------------------ */

/* phases and the largest wu_lat of an rt-app log, counted here */
static void rtapp_expected(const char *path, uint64_t *phases, uint64_t *wu_max,
			   uint64_t *overruns)
{
	FILE *f = fopen(path, "r");
	char line[512];

	*phases = *wu_max = *overruns = 0;
	t_check(f != NULL);
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long v[11];
		long long slack;

		if (line[0] == '#')
			continue;
		if (sscanf(line,
			   "%llu %llu %llu %llu %llu %llu %llu %lld %llu "
			   "%llu %llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			   &slack, &v[8], &v[9], &v[10]) != 11)
			continue;
		(*phases)++;
		if (v[10] > *wu_max)
			*wu_max = v[10];
		if (slack < 0)
			(*overruns)++;
	}
	if (f)
		fclose(f);
}

static void test_rtapp(void)
{
	const char *a = t_tmp("rtapp-a.json"), *b = t_tmp("rtapp-b.json");
	const struct il_res_metric *m;
	uint64_t phases, wu_max, overruns;
	struct il_res_set s;
	char *out = NULL;

	t_check_int(run(tool, NULL, NULL, "-f", "rt-app", "-o", a,
			fixture("rt-app-fifo-1.log"),
			fixture("rt-app-periodic-0.log"), NULL),
		    0);
	t_check_int(run(tool, NULL, NULL, "-f", "rt-app", "-o", b,
			fixture("rt-app-run2/rt-app-fifo-1.log"),
			fixture("rt-app-run2/rt-app-periodic-0.log"), NULL),
		    0);
	if (load(a, &s)) {
		t_check(0);
		return;
	}
	rtapp_expected(fixture("rt-app-fifo-1.log"), &phases, &wu_max,
		       &overruns);
	t_check(phases > 100);
	/* the thread's name is the configuration */
	m = metric(&s, "rt-app", "fifo", "wu_lat_ns");
	t_check(m && m->merged->count == phases &&
		m->merged->max == wu_max * 1000);
	m = metric(&s, "rt-app", "fifo", "run_ns");
	t_check(m && m->merged->count == phases);
	/* every phase is either within its period or over it */
	m = metric(&s, "rt-app", "fifo", "overrun_ns");
	t_check(m && m->merged->count == overruns);
	m = metric(&s, "rt-app", "fifo", "slack_ns");
	t_check(m && m->merged->count == phases - overruns);
	t_check(metric(&s, "rt-app", "periodic", "wu_lat_ns") != NULL);
	il_res_set_free(&s);
	/* two runs of the use case, thread by thread */
	t_check(run(compare, &out, NULL, "-q", "-m", "wu_lat_ns", a, b, NULL) >=
		0);
	t_check_contains(out, "rt-app/fifo");
	t_check_contains(out, "rt-app/periodic");
	free(out);
}

/* ---- rename-test ------------------------------------------------------- */

static void test_rename(void)
{
	const char *a = t_tmp("rename-a.json"), *b = t_tmp("rename-b.json");
	const char *both = t_tmp("rename-both.json");
	const struct il_res_metric *m;
	uint64_t n = 0, sum = 0, min = UINT64_MAX, max = 0;
	struct il_res_set s;
	char line[64], *out = NULL, *err = NULL;
	FILE *f = fopen(fixture("results-alone.log"), "r");
	struct json_object *root;
	int rc;

	while (f && fgets(line, sizeof(line), f)) {
		uint64_t v = strtoull(line, NULL, 10);

		n++;
		sum += v;
		if (v < min)
			min = v;
		if (v > max)
			max = v;
	}
	if (f)
		fclose(f);
	t_check(n == 400);
	t_check_int(run(tool, NULL, NULL, "-f", "rename-test",
			"--kernel-release", "6.18.44-fc-v669", "--preempt",
			"none", "-o", a, fixture("results-alone.log"), NULL),
		    0);
	if (!load(a, &s)) {
		m = metric(&s, "rename-test", "alone", "rename_ns");
		/* exact: one sample per line, sum and extremes kept */
		t_check(m && m->merged->count == n && m->merged->min == min &&
			m->merged->max == max && m->merged->sum == sum);
		il_res_set_free(&s);
	}
	root = json_object_from_file(a);
	t_check_str(json_object_get_string(get(root, "kernel.release")),
		    "6.18.44-fc-v669");
	t_check_str(json_object_get_string(get(root, "kernel.preempt_current")),
		    "none");
	json_object_put(root);

	/* gzipped: read through zlib, or refused naming the feature */
	rc = run(tool, NULL, &err, "-f", "rename-test", "-o", both,
		 fixture("results-alone.log"),
		 fixture("results-contention.log.gz"), NULL);
	if (HAVE_ZLIB) {
		t_check_int(rc, 0);
		if (!load(both, &s)) {
			t_check(metric(&s, "rename-test", "contention",
				       "rename_ns") != NULL);
			t_check(metric(&s, "rename-test", "alone",
				       "rename_ns") != NULL);
			il_res_set_free(&s);
		}
	} else {
		t_check_int(rc, 2);
		t_check_contains(err, "zlib");
		t_check(!exists(both));
	}
	free(err);
	err = NULL;

	/* alone against contention, filed under one configuration */
	t_check_int(run(tool, NULL, NULL, "-f", "rename-test", "-c", "rename",
			"-o", a, fixture("results-alone.log"), NULL),
		    0);
	if (HAVE_ZLIB) {
		t_check_int(run(tool, NULL, NULL, "-f", "rename-test", "-c",
				"rename", "-o", b,
				fixture("results-contention.log.gz"), NULL),
			    0);
		t_check(run(compare, &out, NULL, "-q", a, b, NULL) >= 0);
		t_check_contains(out, "rename-test/rename");
		t_check_contains(out, "rename_ns");
		free(out);
	}
}

/* CRLF line ends, no newline at the end, -N, rt-app's names */
/*
 * The line formats stream, so their inputs have no default size limit:
 * a rename-test log past the tools' 16 MiB (the published ones are some
 * 24 MB) imports as it is, and --max-input-size still sets one.
 */
static void test_big_input(void)
{
	const char *p = t_tmp("results-big.log"), *o = t_tmp("big.json");
	const uint64_t lines = 2600000; /* 7 bytes a line: 17.4 MiB */
	const struct il_res_metric *m;
	char *err = NULL, *out = NULL;
	uint64_t sum = 0;
	struct il_res_set s;
	struct stat st;
	FILE *f = fopen(p, "w");

	t_check(f != NULL);
	if (!f)
		return;
	for (uint64_t i = 0; i < lines; i++) {
		uint64_t v = 100000 + (i * 7919) % 900000;

		sum += v;
		fprintf(f, "%" PRIu64 "\n", v);
	}
	fclose(f);
	t_check(!stat(p, &st) && st.st_size > (16 << 20));
	t_check_int(
		run(tool, NULL, &err, "-f", "rename-test", "-o", o, p, NULL),
		0);
	free(err);
	err = NULL;
	if (!load(o, &s)) {
		m = metric(&s, "rename-test", "big", "rename_ns");
		t_check(m && m->merged->count == lines &&
			m->merged->sum == sum);
		il_res_set_free(&s);
	}
	unlink(o);
	/* a limit asked for still holds */
	t_check_int(run(tool, NULL, &err, "-f", "rename-test",
			"--max-input-size", "16M", "-o", o, p, NULL),
		    2);
	t_check_contains(err, "over the input limit of 16 MiB");
	t_check(!exists(o));
	free(err);
	err = NULL;
	unlink(p);
	/* --help says which formats have a default limit */
	t_check_int(run(tool, &out, NULL, "--help", NULL), 0);
	t_check_contains(out, "Default: no limit");
	t_check_contains(out, "64M for");
	free(out);
}

/*
 * An imported file carries its kernel from --release, --cmdline and
 * --config (the .config read as the programs read their own), and a
 * compare claims agreement only over the fields both sides know.
 */
static void test_kernel_options(void)
{
	const char *cfg = t_tmp("kconfig"), *cfg2 = t_tmp("kconfig-none");
	const char *a = t_tmp("k-a.json"), *b = t_tmp("k-b.json");
	const char *u1 = t_tmp("k-u1.json"), *u2 = t_tmp("k-u2.json");
	const char *in = fixture("results-alone.log");
	struct json_object *root;
	char *out = NULL, *err = NULL;

	t_write_text(cfg, "#\n# Automatically generated file; DO NOT EDIT.\n"
			  "CONFIG_SCHED_PROXY_EXEC=y\n"
			  "CONFIG_PREEMPT_VOLUNTARY=y\n"
			  "CONFIG_PREEMPT_DYNAMIC=y\n"
			  "# CONFIG_RT_GROUP_SCHED is not set\n"
			  "CONFIG_HZ_250=y\nCONFIG_HZ=250\n");
	t_check_int(run(tool, NULL, &err, "-f", "rename-test", "--release",
			"6.8.0-rc3-proxy-v8", "--cmdline",
			"root=/dev/vda preempt=full sched_proxy_exec=0",
			"--config", cfg, "-o", a, in, NULL),
		    0);
	free(err);
	err = NULL;
	root = json_object_from_file(a);
	t_check_str(json_object_get_string(get(root, "kernel.release")),
		    "6.8.0-rc3-proxy-v8");
	t_check_str(json_object_get_string(get(root, "kernel.cmdline")),
		    "root=/dev/vda preempt=full sched_proxy_exec=0");
	t_check_str(json_object_get_string(get(root, "kernel.config_source")),
		    cfg);
	t_check_int(json_object_get_int(get(root, "kernel.hz")), 250);
	t_check_str(json_object_get_string(get(root, "kernel.hz_source")),
		    "config");
	t_check(json_object_get_boolean(get(root, "kernel.config_proxy_exec")));
	t_check(json_object_is_type(get(root, "kernel.proxy_exec_active"),
				    json_type_boolean) &&
		!json_object_get_boolean(
			get(root, "kernel.proxy_exec_active")));
	t_check_str(json_object_get_string(get(root, "kernel.preempt_config")),
		    "voluntary");
	/* PREEMPT_DYNAMIC: preempt= on the command line is in force */
	t_check_str(json_object_get_string(get(root, "kernel.preempt_current")),
		    "full");
	t_check(!json_object_get_boolean(get(root, "kernel.rt_group_sched")));
	json_object_put(root);

	/* without proxy exec built the config decides alone; no dynamic */
	t_write_text(cfg2, "CONFIG_PREEMPT_NONE=y\nCONFIG_HZ=1000\n");
	t_check_int(run(tool, NULL, &err, "-f", "rename-test", "--release",
			"6.8.0-rc3", "--config", cfg2, "-o", b, in, NULL),
		    0);
	free(err);
	err = NULL;
	root = json_object_from_file(b);
	t_check(json_object_is_type(get(root, "kernel.proxy_exec_active"),
				    json_type_boolean) &&
		!json_object_get_boolean(
			get(root, "kernel.proxy_exec_active")));
	t_check_str(json_object_get_string(get(root, "kernel.preempt_current")),
		    "none");
	t_check_int(json_object_get_int(get(root, "kernel.hz")), 1000);
	json_object_put(root);

	/* options that contradict the config, and a file that is none */
	t_check_int(run(tool, NULL, &err, "-f", "rename-test", "--config", cfg2,
			"--hz", "250", "-o", t_tmp("k-x.json"), in, NULL),
		    2);
	t_check_contains(err, "CONFIG_HZ=1000");
	free(err);
	err = NULL;
	t_check_int(run(tool, NULL, &err, "-f", "rename-test", "--config", cfg2,
			"--preempt", "full", "-o", t_tmp("k-x.json"), in, NULL),
		    2);
	t_check_contains(err, "without PREEMPT_DYNAMIC");
	free(err);
	err = NULL;
	t_check_int(run(tool, NULL, &err, "-f", "rename-test", "--config", in,
			"-o", t_tmp("k-x.json"), in, NULL),
		    2);
	t_check_contains(err, "not a kernel config");
	t_check(!exists(t_tmp("k-x.json")));
	free(err);
	err = NULL;

	/* the fingerprints of two imports: a difference where both know */
	t_check_int(run(compare, &out, NULL, a, b, NULL), 77);
	t_check_contains(out, "note: release differs: 6.8.0-rc3-proxy-v8 "
			      "(baseline) vs 6.8.0-rc3 (candidate)");
	t_check_contains(out, "note: hz differs: 250 (baseline) vs 1000");
	t_check(!t_count(out, "fingerprints agree"));
	free(out);
	/* nothing known on either side agrees on nothing */
	t_check_int(
		run(tool, NULL, NULL, "-f", "rename-test", "-o", u1, in, NULL),
		0);
	t_check_int(
		run(tool, NULL, NULL, "-f", "rename-test", "-o", u2, in, NULL),
		0);
	t_check_int(run(compare, &out, NULL, u1, u2, NULL), 77);
	t_check_contains(out, "note: the kernel fingerprints are unknown\n");
	t_check(!t_count(out, "fingerprints agree"));
	free(out);
	/* agreement is claimed over the known fields only, named */
	t_check_int(run(tool, NULL, NULL, "-f", "rename-test", "--release",
			"6.8.0-rc3", "-o", u1, in, NULL),
		    0);
	t_check_int(run(tool, NULL, NULL, "-f", "rename-test", "--release",
			"6.8.0-rc3", "-o", u2, in, NULL),
		    0);
	t_check_int(run(compare, &out, NULL, u1, u2, NULL), 77);
	t_check_contains(out, "note: the kernel fingerprints agree where "
			      "known (release); 12 fields unknown on both "
			      "sides\n");
	free(out);
}

static void test_details(void)
{
	const char *o = t_tmp("details.json");
	const struct il_res_metric *m;
	struct il_res_set s;
	const char *p;

	p = t_tmp("results-crlf.log");
	t_write_text(p, "300\r\n100\r\n200");
	t_check_int(
		run(tool, NULL, NULL, "-f", "rename-test", "-o", o, p, NULL),
		0);
	if (!load(o, &s)) {
		m = metric(&s, "rename-test", "crlf", "rename_ns");
		t_check(m && m->merged->count == 3 && m->merged->sum == 600 &&
			m->merged->min == 100 && m->merged->max == 300);
		il_res_set_free(&s);
	}
	/* -N: the rows are ns, not us */
	p = t_tmp("nsecs.hist");
	t_write_text(p, "# Histogram\n000000 000000\n000001 000000\n"
			"000002 000004\n# Total: 000000004\n"
			"# Min Latencies: 00002\n# Avg Latencies: 00002\n"
			"# Max Latencies: 00002\n"
			"# Histogram Overflows: 00000\n");
	t_check_int(run(tool, NULL, NULL, "-f", "cyclictest-hist", "-N", "-o",
			o, p, NULL),
		    0);
	if (!load(o, &s)) {
		m = metric(&s, "cyclictest", "default", "latency_ns");
		t_check(m && m->merged->count == 4 && m->merged->max == 2);
		il_res_set_free(&s);
	}
	t_check_int(run(tool, NULL, NULL, "-f", "cyclictest-hist", "-o", o, p,
			NULL),
		    0);
	if (!load(o, &s)) {
		m = metric(&s, "cyclictest", "default", "latency_ns");
		t_check(m && m->merged->max == 2000);
		il_res_set_free(&s);
	}
	/* a forked thread's log, and another log_basename */
	p = t_tmp("uc-my-task-3-0002.log");
	t_write_text(p, "#idx perf run period start end rel_st slack "
			"c_duration c_period wu_lat\n 3 1 2 3 4 5 6 -7 8 9 "
			"10\n");
	t_check_int(run(tool, NULL, NULL, "-f", "rt-app", "--log-basename",
			"uc", "-o", o, p, NULL),
		    0);
	if (!load(o, &s)) {
		m = metric(&s, "rt-app", "my-task", "overrun_ns");
		t_check(m && m->merged->count == 1 && m->merged->max == 7000);
		m = metric(&s, "rt-app", "my-task", "slack_ns");
		t_check(m && m->merged->count == 0);
		il_res_set_free(&s);
	}
}

/* ---- perf bench sched messaging ---------------------------------------- */

static void test_perf(void)
{
	const char *a = t_tmp("perf-a.json"), *b = t_tmp("perf-b.json");
	const struct il_res_metric *m;
	struct il_res_set s;
	char *out = NULL;
	double v;

	t_check_int(run(tool, NULL, NULL, "-f", "perf-messaging", "-o", a,
			fixture("perf-process.txt"), NULL),
		    0);
	t_check_int(run(tool, NULL, NULL, "-f", "perf-messaging", "-o", b,
			fixture("perf-thread.txt"), NULL),
		    0);
	if (load(b, &s)) {
		t_check(0);
		return;
	}
	/* three runs, three per-run values: 45, 48 and 43 ms exactly */
	m = metric(&s, "perf-bench-sched-messaging", "default",
		   "total_time_ns");
	t_check(m && m->nruns == 3);
	if (m && m->nruns == 3) {
		t_check(m->run[0][IL_RES_MEAN] == 45e6);
		t_check(m->run[1][IL_RES_MEAN] == 48e6);
		t_check(m->run[2][IL_RES_MEAN] == 43e6);
		t_check_int(
			il_res_stat_value(m->merged, IL_RES_MEAN, false, &v),
			0);
		t_check(fabs(v - 136e6 / 3) < 1);
	}
	t_check_str(il_res_set_scenario(&s, "mode", NULL), "threads");
	t_check_str(il_res_set_scenario(&s, "groups", NULL), "2");
	il_res_set_free(&s);
	/*
	 * processes against threads: per-run values, three a side, too few
	 * for any test over runs to reach 0.05 (it would at 0.2)
	 */
	t_check_int(run(compare, &out, NULL, "-m", "total_time_ns", "-s",
			"mean", a, b, NULL),
		    77);
	t_check_contains(out, "mode processes (baseline) vs threads");
	t_check_contains(out, "3:3");
	t_check_contains(out, "too few runs: 3 a side, need 4");
	free(out);
	t_check_int(run(compare, &out, NULL, "-m", "total_time_ns", "-s",
			"mean", "--alpha", "0.2", a, b, NULL),
		    0);
	t_check_contains(out, "better");
	free(out);
}

/* ---- refusals ---------------------------------------------------------- */

/* path is refused with where (FILE:LINE) in the message; nothing written */
static void refused(const char *format, const char *path, const char *where,
		    const char *what)
{
	const char *o = t_tmp("refused.json");
	char *err = NULL;

	unlink(o);
	t_check_int(run(tool, NULL, &err, "-f", format, "-o", o, path, NULL),
		    2);
	t_check_contains(err, where);
	t_check_contains(err, what);
	t_check(!exists(o));
	if (!err || !strstr(err, where))
		fprintf(stderr, "  %s: %s", format, err ? err : "(null)\n");
	free(err);
}

static char *with_line(const char *path, const char *name, int line)
{
	static char buf[4][600];
	static int i;

	(void)path;
	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s:%d:", name, line);
	return buf[i];
}

/* ---- schbench ---------------------------------------------------------- */

/* out's run i as JSON (runs.I.KEY) */
static struct json_object *sb_json(struct json_object *root, int i,
				   const char *key)
{
	char path[128];

	snprintf(path, sizeof(path), "runs.%d.%s", i, key);
	return get(root, path);
}

/* a one-sample figure of run i in ns (its exact max), or -1 when absent */
static long long sb_fig(struct json_object *root, int i, const char *name)
{
	char key[96];
	struct json_object *h;

	snprintf(key, sizeof(key), "%s.count", name);
	h = sb_json(root, i, key);
	if (!h || json_object_get_int64(h) != 1)
		return -1;
	snprintf(key, sizeof(key), "%s.max", name);
	return json_object_get_int64(sb_json(root, i, key));
}

static long long sb_int(struct json_object *root, int i, const char *key)
{
	struct json_object *o = sb_json(root, i, key);

	return o && json_object_is_type(o, json_type_int)
		       ? json_object_get_int64(o)
		       : -1;
}

static const char *sb_str(struct json_object *root, int i, const char *key)
{
	struct json_object *o = sb_json(root, i, key);

	return o && json_object_is_type(o, json_type_string)
		       ? json_object_get_string(o)
		       : "(none)";
}

/* in imported alone: the result as JSON, NULL (and a failed check) if not */
static struct json_object *sb_import(const char *in)
{
	const char *o = t_tmp("sb.json");
	char *err = NULL;
	int rc;

	unlink(o);
	rc = run(tool, NULL, &err, "-f", "schbench", "-o", o, in, NULL);
	t_check_int(rc, 0);
	if (rc)
		fprintf(stderr, "  schbench %s: %s", in, err ? err : "\n");
	free(err);
	return rc ? NULL : json_object_from_file(o);
}

/* text as a schbench file, imported */
static struct json_object *sb_text(const char *name, const char *text)
{
	const char *p = t_tmp(name);

	t_write_text(p, text);
	return sb_import(p);
}

/* text as a schbench file: refused at line `line` saying `what` */
static void sb_refused(const char *name, const char *text, int line,
		       const char *what)
{
	const char *p = t_tmp(name);

	t_write_text(p, text);
	refused("schbench", p, with_line(p, p, line), what);
}

/* a set of the current layout: 4 lines a table */
#define SB_W                                                                   \
	"Wakeup Latencies percentiles (usec) runtime 1 (s) (100 total "        \
	"samples)\n\t  50.0th: 8          (50 samples)\n\t* 99.0th: 20   "     \
	"      (49 samples)\n\t  min=1, max=30\n"
#define SB_R                                                                   \
	"Request Latencies percentiles (usec) runtime 1 (s) (100 total "       \
	"samples)\n\t  50.0th: 900        (50 samples)\n\t* 99.0th: 990  "     \
	"      (49 samples)\n\t  min=800, max=1000\n"
/* the rows count every sample, and min is max: both at their limit */
#define SB_Q                                                                   \
	"RPS percentiles (requests) runtime 1 (s) (1 total samples)\n\t  "     \
	"20.0th: 100        (1 samples)\n\t* 50.0th: 100        (0 "           \
	"samples)\n\t  min=100, max=100\n"
#define SB_SET SB_W SB_R SB_Q

/*
 * The fixtures, made by hand in schbench's layouts (tests/data/import
 * README): the figures expected are those of the set each should take,
 * read off the fixture.
 */
static void test_schbench(void)
{
	const char *ab = t_tmp("sb-ab.json"), *a = t_tmp("sb-a.json");
	const char *b = t_tmp("sb-b.json"), *cj = t_tmp("sb-cmp.json");
	const struct il_res_metric *m;
	struct json_object *root, *rows;
	struct il_res_set s;
	char *out = NULL;

	/* --help and a wrong --from name it */
	t_check_int(run(tool, &out, NULL, "--help", NULL), 0);
	t_check_contains(out, "perf-messaging or schbench");
	t_check_contains(out, "schbench's percentile tables, one run a file");
	free(out);
	out = NULL;
	t_check_int(run(tool, NULL, &out, "-f", "schbenc", "x", NULL), 2);
	t_check_contains(out, "perf-messaging, schbench)");
	free(out);
	out = NULL;

	/* the final set (line 40), not the periodic ones before it */
	root = sb_import(fixture("schbench-a.txt"));
	t_check_str(json_object_get_string(get(root, "program")), "schbench");
	t_check_str(json_object_get_string(get(root, "source.format")),
		    "schbench");
	t_check_str(sb_str(root, 0, "configuration"), "default");
	t_check_str(sb_str(root, 0, "table_set"), "final");
	t_check_int(sb_int(root, 0, "source_line"), 40);
	t_check_int(sb_int(root, 0, "sets"), 3);
	t_check_int(sb_int(root, 0, "runtime_s"), 3);
	t_check_int(sb_fig(root, 0, "wakeup_p50_ns"), 8000);
	t_check_int(sb_fig(root, 0, "wakeup_p90_ns"), 15000);
	t_check_int(sb_fig(root, 0, "wakeup_p99_ns"), 45000); /* not 43, 47 */
	t_check_int(sb_fig(root, 0, "wakeup_p999_ns"), 163000);
	t_check_int(sb_fig(root, 0, "wakeup_min_ns"), 1000);
	t_check_int(sb_fig(root, 0, "wakeup_max_ns"), 3391000);
	t_check_int(sb_int(root, 0, "wakeup_samples"), 34690);
	t_check_int(sb_fig(root, 0, "wakeup_p20_ns"), -1); /* not printed */
	t_check_int(sb_fig(root, 0, "request_p50_ns"), 6952000);
	t_check_int(sb_fig(root, 0, "request_p90_ns"), 7080000);
	t_check_int(sb_fig(root, 0, "request_p99_ns"), 7368000);
	t_check_int(sb_fig(root, 0, "request_p999_ns"), 9296000);
	t_check_int(sb_fig(root, 0, "request_min_ns"), 5871000);
	t_check_int(sb_fig(root, 0, "request_max_ns"), 15503000);
	t_check_int(sb_int(root, 0, "request_samples"), 34712);
	/* the RPS table counts requests: scalars */
	t_check_int(sb_int(root, 0, "rps_p20"), 11504);
	t_check_int(sb_int(root, 0, "rps_p50"), 11568);
	t_check_int(sb_int(root, 0, "rps_p90"), 11600);
	t_check_int(sb_int(root, 0, "rps_min"), 11497);
	t_check_int(sb_int(root, 0, "rps_max"), 11584);
	t_check_int(sb_int(root, 0, "rps_samples"), 3);
	t_check(!sb_json(root, 0, "rps_p50_ns"));
	t_check_str(sb_str(root, 0, "average_rps"), "11547.33");
	/* 1e9 / 11547.33 = 86600.1 ns between two requests */
	t_check_int(sb_fig(root, 0, "request_interval_ns"), 86600);
	t_check(!sb_json(root, 0, "rps_goal"));
	json_object_put(root);

	/* before 2020: no runtime, no counts, and min (always 0) left out */
	root = sb_import(fixture("schbench-2018.txt"));
	t_check_str(sb_str(root, 0, "table_set"), "last");
	t_check_int(sb_int(root, 0, "sets"), 1);
	t_check_int(sb_int(root, 0, "source_line"), 1);
	t_check_int(sb_fig(root, 0, "latency_p50_ns"), 38000);
	t_check_int(sb_fig(root, 0, "latency_p75_ns"), 53000);
	t_check_int(sb_fig(root, 0, "latency_p90_ns"), 66000);
	t_check_int(sb_fig(root, 0, "latency_p95_ns"), 76000);
	t_check_int(sb_fig(root, 0, "latency_p99_ns"), 102000);
	t_check_int(sb_fig(root, 0, "latency_p995_ns"), 117000);
	t_check_int(sb_fig(root, 0, "latency_p999_ns"), 2308000);
	t_check_int(sb_fig(root, 0, "latency_max_ns"), 10471000);
	t_check(!sb_json(root, 0, "latency_min_ns"));
	t_check(!sb_json(root, 0, "latency_samples"));
	t_check(!sb_json(root, 0, "runtime_s"));
	t_check(!sb_json(root, 0, "wakeup_p99_ns"));
	json_object_put(root);

	/* 2021: three sets that look alike, "rps:" lines between them */
	root = sb_import(fixture("schbench-2021.txt"));
	t_check_str(sb_str(root, 0, "table_set"), "last");
	t_check_int(sb_int(root, 0, "sets"), 3);
	t_check_int(sb_int(root, 0, "source_line"), 21);
	t_check_int(sb_int(root, 0, "runtime_s"), 4);
	t_check_int(sb_int(root, 0, "latency_samples"), 11644);
	t_check_int(sb_fig(root, 0, "latency_p99_ns"), 60000); /* not 61 */
	t_check_int(sb_fig(root, 0, "latency_p999_ns"), 211000);
	t_check_int(sb_fig(root, 0, "latency_min_ns"), 3000);
	json_object_put(root);

	/* stopped inside the third set: the second is the last complete */
	root = sb_import(fixture("schbench-killed.txt"));
	t_check_str(sb_str(root, 0, "table_set"), "last");
	t_check_int(sb_int(root, 0, "sets"), 2);
	t_check_int(sb_int(root, 0, "source_line"), 21);
	t_check_int(sb_int(root, 0, "runtime_s"), 2);
	t_check_int(sb_fig(root, 0, "wakeup_p99_ns"), 47000);
	t_check_int(sb_fig(root, 0, "request_p99_ns"), 7400000);
	t_check_int(sb_int(root, 0, "rps_p90"), 11568);
	t_check(!sb_json(root, 0, "average_rps"));
	t_check(!sb_json(root, 0, "request_interval_ns"));
	json_object_put(root);

	/* pipe mode: one table, with its 20th; p90 equals p50 */
	root = sb_import(fixture("schbench-pipe.txt"));
	t_check_str(sb_str(root, 0, "table_set"), "final");
	t_check_int(sb_int(root, 0, "sets"), 1);
	t_check_int(sb_fig(root, 0, "wakeup_p20_ns"), 6000);
	t_check_int(sb_fig(root, 0, "wakeup_p50_ns"), 7000);
	t_check_int(sb_fig(root, 0, "wakeup_p90_ns"), 7000);
	t_check_int(sb_fig(root, 0, "wakeup_p999_ns"), 15000);
	t_check_int(sb_fig(root, 0, "wakeup_max_ns"), 421000);
	t_check(!sb_json(root, 0, "request_p50_ns"));
	json_object_put(root);

	/* several files are several runs, named by -c */
	t_check_int(run(tool, NULL, NULL, "-f", "schbench", "-c", "m2t4", "-o",
			ab, fixture("schbench-a.txt"),
			fixture("schbench-b.txt"), NULL),
		    0);
	if (!load(ab, &s)) {
		m = metric(&s, "schbench", "m2t4", "wakeup_p99_ns");
		t_check(m && m->nruns == 2);
		if (m && m->nruns == 2) {
			t_check(m->run[0][IL_RES_MEAN] == 45000);
			t_check(m->run[1][IL_RES_MEAN] == 61000);
		}
		m = metric(&s, "schbench", "m2t4", "request_interval_ns");
		t_check(m && m->nruns == 2);
		il_res_set_free(&s);
	}

	/*
	 * b against a: wakeup p99 45 -> 61 us is worse, request p99 7368 ->
	 * 7304 us better, and 11547.33 -> 11890.67 rps better: its interval
	 * is lower, 86600 -> 84100 ns
	 */
	t_check_int(run(tool, NULL, NULL, "-f", "schbench", "-o", a,
			fixture("schbench-a.txt"), NULL),
		    0);
	t_check_int(run(tool, NULL, NULL, "-f", "schbench", "-o", b,
			fixture("schbench-b.txt"), NULL),
		    0);
	t_check_int(run(compare, &out, NULL, "-q", "-s", "mean", "--json", cj,
			a, b, NULL),
		    77);
	t_check_contains(out, "schbench/default wakeup_p99_ns");
	t_check_contains(out, "schbench/default request_interval_ns");
	free(out);
	root = json_object_from_file(cj);
	rows = get(root, "comparisons");
	t_check(rows != NULL);
	for (size_t i = 0; rows && i < json_object_array_length(rows); i++) {
		struct json_object *r = json_object_array_get_idx(rows, i);
		const char *name = json_object_get_string(get(r, "metric"));
		double pct = json_object_get_double(get(r, "pct_improvement"));

		t_check_str(json_object_get_string(get(r, "better")), "lower");
		if (!strcmp(name, "wakeup_p99_ns"))
			t_check(fabs(pct - (45.0 - 61) / 45 * 100) < 1e-9);
		if (!strcmp(name, "request_p99_ns"))
			t_check(fabs(pct - (7368.0 - 7304) / 7368 * 100) <
				1e-9);
		if (!strcmp(name, "request_interval_ns"))
			t_check(fabs(pct - (86600.0 - 84100) / 86600 * 100) <
				1e-9);
	}
	json_object_put(root);
}

/* Each layout and limit the parser accepts, at its edge. */
static void test_schbench_layouts(void)
{
	struct json_object *root;

	/* 2020, before the sample counts: the runtime, and min with it */
	root = sb_text("sb-2020.txt",
		       "Latency percentiles (usec) runtime 30 (s)\n"
		       "\t50.0th: 7\n\t*99.0th: 27\n\tmin=1, max=99\n");
	t_check_int(sb_int(root, 0, "runtime_s"), 30);
	t_check_int(sb_fig(root, 0, "latency_min_ns"), 1000);
	t_check_int(sb_fig(root, 0, "latency_p99_ns"), 27000);
	t_check(!sb_json(root, 0, "latency_samples"));
	json_object_put(root);
	/* late 2020: the counts, the star still glued on */
	root = sb_text("sb-2020b.txt",
		       "Latency percentiles (usec) runtime 30 (s) (100 total "
		       "samples)\n\t50.0th: 7 (50 samples)\n\t*99.0th: 27 "
		       "(49 samples)\n\tmin=1, max=99\n");
	t_check_int(sb_int(root, 0, "latency_samples"), 100);
	t_check_int(sb_fig(root, 0, "latency_p50_ns"), 7000);
	json_object_put(root);
	/* the largest %u, and the 100th percentile */
	root = sb_text("sb-big.txt", "Latency percentiles (usec)\n"
				     "\t50.0th: 4294967295\n"
				     "\t100.0th: 4294967295\n"
				     "\tmin=0, max=4294967295\n");
	t_check_int(sb_fig(root, 0, "latency_p50_ns"), 4294967295000ll);
	t_check_int(sb_fig(root, 0, "latency_p100_ns"), 4294967295000ll);
	json_object_put(root);
	/* other lines before, between and after the tables are skipped */
	root = sb_text("sb-noise.txt",
		       "4 workers a message thread\n"
		       "warmup depth: none\n" SB_W
		       "Pinning to message thread index 0\n" SB_R SB_Q
		       "current rps: 100.00\n");
	t_check_int(sb_fig(root, 0, "wakeup_p99_ns"), 20000);
	t_check_int(sb_fig(root, 0, "request_p99_ns"), 990000);
	t_check_int(sb_int(root, 0, "rps_p20"), 100);
	t_check_str(sb_str(root, 0, "table_set"), "last");
	json_object_put(root);
	/* a table without samples gives no figures, only its count */
	root = sb_text("sb-empty.txt",
		       SB_W "Request Latencies percentiles (usec) runtime 1 "
			    "(s) (0 total samples)\n\t  50.0th: 0          (0 "
			    "samples)\n\t* 99.0th: 0          (0 "
			    "samples)\n\t  min=0, max=0\n" SB_Q);
	t_check_int(sb_int(root, 0, "request_samples"), 0);
	t_check(!sb_json(root, 0, "request_p50_ns"));
	t_check(!sb_json(root, 0, "request_min_ns"));
	t_check_int(sb_fig(root, 0, "wakeup_p50_ns"), 8000);
	json_object_put(root);
	/* no requests: the average is kept, it has no interval */
	root = sb_text("sb-zero.txt", SB_SET "average rps: 0.00\n");
	t_check_str(sb_str(root, 0, "average_rps"), "0.00");
	t_check_str(sb_str(root, 0, "table_set"), "final");
	t_check(!sb_json(root, 0, "request_interval_ns"));
	json_object_put(root);
	/* -A: the goal ends the run instead of an average */
	root = sb_text("sb-goal.txt", SB_SET "final rps goal was 20000\n");
	t_check_int(sb_int(root, 0, "rps_goal"), 20000);
	t_check_str(sb_str(root, 0, "table_set"), "final");
	t_check(!sb_json(root, 0, "average_rps"));
	json_object_put(root);
	/* a pipe transfer with no table before it is another line */
	root = sb_text("sb-transfer.txt",
		       "avg worker transfer: 1.00 ops/sec 1.00KB/s\n" SB_SET);
	t_check_str(sb_str(root, 0, "table_set"), "last");
	json_object_put(root);
}

/* Every way the parser refuses, with the line and what was expected. */
static void test_schbench_refusals(void)
{
	static const char *const headers[] = {
		"Latency percentiles (usec) soon\n",
		"Latency percentiles (usec) time 1 (s)\n",
		"Latency percentiles (usec) runtime x (s)\n",
		"Latency percentiles (usec) runtime 1 (min)\n",
		"Latency percentiles (usec) runtime 1 (s) (10 total)\n",
		"Latency percentiles (usec) runtime 1 (s) [10 total samples)\n",
		"Latency percentiles (usec) runtime 1 (s) (10 all samples)\n",
		"Latency percentiles (usec) runtime 1 (s) (10 total sample)\n",
	};
	static const char *const rows[] = {
		"",
		"50.0th: 8 (3)",
		"50.0th:x 8",
		"50.0: 8",
		"5x.0th: 8",
		"50.0th: 8x",
		"50.0th: 4294967296",
		"50.0th: 8 [3 samples)",
		"50.0th: 8 (3 sample)",
		"*",
		"min=1, max=2 extra",
	};
	static const char *const ends[] = {
		"min=1 max=2",	"min=1,x max=2", "min=a, max=2",
		"min=1, mix=2", "min=1, max=b",
	};
	char text[2048];
	size_t n;

	refused("schbench", fixture("schbench-bad.txt"),
		with_line(NULL, fixture("schbench-bad.txt"), 5),
		"not a row of the Wakeup Latencies table begun at line 2");

	/* table names */
	sb_refused("sb-label.txt",
		   "Wakeup latency percentiles (usec) runtime 1 (s) (10 total "
		   "samples)\n",
		   1, "not a table schbench prints");
	sb_refused("sb-unit.txt", "RPS percentiles (usec)\n", 1,
		   "RPS percentiles in (usec), not (requests)");
	sb_refused("sb-paren.txt", "Latency percentiles (usec\n", 1,
		   "not (usec)");
	for (size_t i = 0; i < sizeof(headers) / sizeof(headers[0]); i++)
		sb_refused("sb-header.txt", headers[i], 1,
			   "then at most 'runtime N (s) (M total samples)'");

	/* rows, and the line that ends a table */
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		snprintf(text, sizeof(text),
			 "Latency percentiles (usec)\n\t%s\n\tmin=1, max=9\n",
			 rows[i]);
		sb_refused("sb-row.txt", text, 2,
			   "not a row of the Latency table begun at line 1 "
			   "(expected 'NN.Nth: VALUE (N samples)'");
	}
	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		snprintf(text, sizeof(text),
			 "Latency percentiles (usec)\n\t50.0th: 7\n\t%s\n",
			 ends[i]);
		sb_refused("sb-end.txt", text, 3, "expected 'min=N, max=N'");
	}
	sb_refused("sb-minmax.txt",
		   "Latency percentiles (usec)\n\t50.0th: 7\n\tmin=6, max=5\n",
		   3, "min 6 is above max 5");
	sb_refused("sb-nopct.txt",
		   "Latency percentiles (usec)\n\tmin=1, max=2\n", 2,
		   "without percentiles");
	sb_refused("sb-count.txt",
		   "Latency percentiles (usec) runtime 1 (s) (10 total "
		   "samples)\n\t50.0th: 7 (6 samples)\n\t99.0th: 9 (5 "
		   "samples)\n\tmin=1, max=9\n",
		   4, "the rows count 11 samples, the table 10 in all");
	sb_refused("sb-ovf.txt",
		   "Latency percentiles (usec)\n\t50.0th: 7 "
		   "(18446744073709551615 samples)\n\t99.0th: 9 (1 samples)\n",
		   3, "overflow");

	/* the percentiles go up from above 0 to 100, the values never down */
	sb_refused("sb-p0.txt", "Latency percentiles (usec)\n\t0.0th: 7\n", 2,
		   "percentile 0: the percentiles go up");
	sb_refused("sb-p100.txt", "Latency percentiles (usec)\n\t100.1th: 7\n",
		   2, "percentile 1001: the percentiles go up");
	sb_refused("sb-ptwice.txt",
		   "Latency percentiles (usec)\n\t50.0th: 7\n\t50.0th: 8\n", 3,
		   "percentile 50: the percentiles go up");
	sb_refused("sb-pdown.txt",
		   "Latency percentiles (usec)\n\t90.0th: 7\n\t50.0th: 8\n", 3,
		   "percentile 50: the percentiles go up");
	sb_refused("sb-vdown.txt",
		   "Latency percentiles (usec)\n\t50.0th: 9\n\t90.0th: 8\n", 3,
		   "p90 8 is below the row above's 9");
	sb_refused("sb-name.txt",
		   "Latency percentiles (usec)\n\t9.99th: 7\n\t99.9th: 8\n", 3,
		   "two percentiles named p999");
	sb_refused("sb-col1.txt",
		   "Latency percentiles (usec)\n\t50.0th: 7 (5 samples)\n\t"
		   "90.0th: 8\n",
		   3, "'(N samples)' column on some");
	sb_refused("sb-col2.txt",
		   "Latency percentiles (usec)\n\t50.0th: 7\n\t90.0th: 8 (5 "
		   "samples)\n",
		   3, "'(N samples)' column on some");
	n = (size_t)snprintf(text, sizeof(text),
			     "Latency percentiles (usec)\n");
	for (int i = 1; i <= 21; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "\t%d.0th: 7\n", i);
	sb_refused("sb-21.txt", text, 22, "more than 20 percentiles");

	/* the order of the tables in a set, and of the sets */
	sb_refused("sb-req1.txt", SB_R, 1,
		   "Request Latencies table where the Wakeup Latencies table "
		   "was due");
	sb_refused("sb-rps.txt", SB_W SB_Q, 5,
		   "RPS table where the Request Latencies table was due");
	sb_refused("sb-req2.txt", SB_SET SB_R, 13,
		   "Request Latencies table where the Wakeup Latencies table "
		   "was due");
	sb_refused("sb-wake2.txt", SB_W SB_W, 5,
		   "Wakeup Latencies table where the Request Latencies table "
		   "of the set begun at line 1 was due");
	sb_refused("sb-mix1.txt",
		   "Latency percentiles (usec)\n\t50.0th: 7\n\tmin=0, "
		   "max=9\n" SB_SET,
		   4, "a Wakeup Latencies table after Latency tables");
	sb_refused("sb-mix2.txt",
		   SB_SET "Latency percentiles (usec)\n\t50.0th: 7\n\tmin=0, "
			  "max=9\n",
		   13, "a Latency table after Wakeup Latencies tables");
	sb_refused("sb-after.txt", SB_SET "average rps: 10.00\n" SB_W, 14,
		   "a table after the end of the run");

	/* the end of the run comes after a complete set, once */
	sb_refused("sb-avg0.txt", "average rps: 10.00\n" SB_SET, 1,
		   "'average rps: 10.00' with no complete set");
	sb_refused("sb-avg1.txt", SB_W "average rps: 10.00\n" SB_R SB_Q, 5,
		   "with no complete set");
	sb_refused("sb-avg2.txt",
		   SB_SET "average rps: 10.00\nfinal rps goal was 10\n", 14,
		   "'final rps goal was 10' with no complete set");
	sb_refused("sb-avgx.txt", SB_SET "average rps: lots\n", 13,
		   "'lots' is not an average of requests a second");
	sb_refused("sb-goalx.txt", SB_SET "final rps goal was x\n", 13,
		   "'x' is not a number of requests a second");

	/* rows outside a table */
	sb_refused("sb-out1.txt", "\t* 99.0th: 27\n" SB_SET, 1,
		   "a table's row outside a table");
	sb_refused("sb-out2.txt", SB_SET "\t  min=1, max=2\n", 13,
		   "a table's row outside a table");

	/* the end of the file before a set is complete */
	sb_refused("sb-none.txt", "", 0, "no schbench percentile table");
	sb_refused("sb-pipe0.txt", "avg worker transfer: 1.00 ops/sec\n", 1,
		   "no schbench percentile table");
	sb_refused("sb-eof1.txt",
		   "Wakeup Latencies percentiles (usec) runtime 1 (s) (100 "
		   "total samples)\n\t  50.0th: 8          (50 samples)\n",
		   2,
		   "end of file in the Wakeup Latencies table begun at line 1, "
		   "and no complete set");
	sb_refused("sb-eof2.txt", SB_W, 4,
		   "end of file where the Request Latencies table was due");
}

static void test_refusals(void)
{
	const char *p;
	char *err = NULL;

	p = t_tmp("bad-ct.json");
	t_write_text(p,
		     "{\n  \"thread\": {\n    \"0\": {\n      \"histogram"
		     "\": {\n        \"12\": 5,\n        \"x\": 1\n      },\n"
		     "      \"cycles\": 6, \"min\": 12, \"max\": 12, \"avg\": "
		     "12\n    }\n  }\n}\n");
	refused("cyclictest-json", p, with_line(p, p, 6), "\"x\"");
	/* thread 1's line, though thread 0 has a bin "1" before it */
	p = t_tmp("bad-ct1.json");
	t_write_text(p, "{\n  \"thread\": {\n    \"0\": {\n      \"histogram"
			"\": {\n        \"1\": 5\n      },\n      \"cycles\": "
			"5, \"min\": 1, \"max\": 1, \"avg\": 1\n    },\n    "
			"\"1\": {\n      \"histogram\": {\n        \"y\": 1\n"
			"      },\n      \"cycles\": 1, \"min\": 1, \"max\": "
			"1, \"avg\": 1\n    }\n  }\n}\n");
	refused("cyclictest-json", p, with_line(p, p, 11), "thread 1");
	p = t_tmp("trunc-ct.json");
	t_write_text(p, "{\n  \"thread\": {\n    \"0\": {\n");
	refused("cyclictest-json", p, with_line(p, p, 4), "not JSON");
	p = t_tmp("cycles-ct.json");
	t_write_text(p, "{\n\"thread\": {\n\"0\": {\n\"histogram\": {\"3\": 9"
			"},\n\"cycles\": 4,\n\"min\": 3, \"max\": 3, \"avg\": 3"
			"}}}\n");
	refused("cyclictest-json", p, with_line(p, p, 5), "4 cycles");

	p = t_tmp("bad.hist");
	t_write_text(p, "# Histogram\n000000 000001\n000002 000003\n");
	refused("cyclictest-hist", p, with_line(p, p, 3), "latency 1");
	p = t_tmp("total.hist");
	t_write_text(p, "# Histogram\n000000 000001\n000001 000003\n"
			"# Total: 000000005\n# Min Latencies: 00000\n"
			"# Avg Latencies: 00000\n# Max Latencies: 00001\n"
			"# Histogram Overflows: 00000\n");
	refused("cyclictest-hist", p, with_line(p, p, 4), "Total 5");
	p = t_tmp("short.hist");
	t_write_text(p, "# Histogram\n000000 000001\n# Total: 000000001\n");
	refused("cyclictest-hist", p, with_line(p, p, 3), "Min Latencies");

	p = t_tmp("rt-app-x-0.log");
	t_write_text(p, "# Policy : SCHED_OTHER priority : 0\n#idx perf run "
			"period start end rel_st slack c_duration c_period "
			"wu_lat\n 0 1 2 3 4 5 6 7 8 9 10\n 0 1 2 3 4 5 6 7 8 "
			"9\n");
	refused("rt-app", p, with_line(p, p, 4), "10 fields");
	p = t_tmp("rt-app-y-0.log");
	t_write_text(p, "#idx perf run period start end rel_st slack "
			"c_duration c_period\n");
	refused("rt-app", p, with_line(p, p, 1), "wu_lat");
	refused("rt-app", fixture("perf-thread.txt"), "not named", "-THREAD-");

	p = t_tmp("results-bad.log");
	t_write_text(p, "100\n200\n-5\n");
	refused("rename-test", p, with_line(p, p, 3), "not a latency");
	p = t_tmp("results-empty.log");
	t_write_text(p, "");
	refused("rename-test", p, with_line(p, p, 0), "no latencies");
	p = t_tmp("nameless.log");
	t_write_text(p, "100\n");
	refused("rename-test", p, "not named", "results-CONFIGURATION");
	if (HAVE_ZLIB) {
		/* a cut gzip stream is an error, not a shorter file */
		char *gz = t_read_file(fixture("results-contention.log.gz"));
		FILE *f;

		p = t_tmp("results-cut.log.gz");
		f = fopen(p, "w");
		if (f && gz) {
			fwrite(gz, 1, 300, f);
			fclose(f);
		}
		free(gz);
		refused("rename-test", p, p, "corrupt gzip data");
	}

	p = t_tmp("perf-bad.txt");
	t_write_text(p, "# Running 'sched/messaging' benchmark:\n"
			"     Total time: 0.0x5 [sec]\n");
	refused("perf-messaging", p, with_line(p, p, 2), "Total time");
	p = t_tmp("perf-mixed.txt");
	t_write_text(p, "# 2 groups == 80 threads run\n Total time: 0.05 "
			"[sec]\n# 4 groups == 160 threads run\n Total time: "
			"0.09 [sec]\n");
	refused("perf-messaging", p, with_line(p, p, 3), "groups 4");

	/* cyclictest's extremes must agree with its histogram */
	p = t_tmp("min.hist");
	t_write_text(p, "# Histogram\n000000 000000\n000001 000003\n"
			"# Total: 000000003\n# Min Latencies: 00000\n"
			"# Avg Latencies: 00001\n# Max Latencies: 00001\n"
			"# Histogram Overflows: 00000\n");
	refused("cyclictest-hist", p, with_line(p, p, 7), "min latency 0 ns");
	p = t_tmp("over.hist");
	t_write_text(p, "# Histogram\n000000 000000\n000001 000003\n"
			"# Total: 000000003\n# Min Latencies: 00001\n"
			"# Avg Latencies: 00001\n# Max Latencies: 00001\n"
			"# Histogram Overflows: 00002\n");
	refused("cyclictest-hist", p, with_line(p, p, 7),
		"inside the histogram");
	p = t_tmp("max.hist");
	t_write_text(p, "# Histogram\n000000 000000\n000001 000003\n"
			"# Total: 000000003\n# Min Latencies: 00001\n"
			"# Avg Latencies: 00001\n# Max Latencies: 00007\n"
			"# Histogram Overflows: 00000\n");
	refused("cyclictest-hist", p, with_line(p, p, 7), "nothing overflowed");

	/* decompressed bytes count against the limit (a zip bomb) */
	if (HAVE_ZLIB) {
		const char *o = t_tmp("bomb.json");

		t_check_int(run(tool, NULL, &err, "-f", "rename-test",
				"--max-input-size", "1K", "-o", o,
				fixture("results-contention.log.gz"), NULL),
			    2);
		t_check_contains(err, "counted decompressed");
		t_check(!exists(o));
		free(err);
		err = NULL;
	}

	/* a device is not an input */
	refused("rename-test", "/dev/zero", "/dev/zero", "not a regular file");

	/* the output is checked before any input is read */
	t_check_int(run(tool, NULL, &err, "-f", "rename-test", "-o",
			"/nonexistent/dir/x.json", t_tmp("results-bad.log"),
			NULL),
		    2);
	t_check_contains(err, "-o");
	t_check(!t_count(err, "not a latency"));
	free(err);
	err = NULL;
	/* an option contradicting the input */
	t_check_int(run(tool, NULL, &err, "-f", "cyclictest-json", "--release",
			"5.10", "-o", t_tmp("contra.json"),
			fixture("cyclictest-a.json"), NULL),
		    2);
	t_check_contains(err, "--release '5.10'");
	t_check(!exists(t_tmp("contra.json")));
	free(err);
	err = NULL;
	/* usage */
	t_check_int(run(tool, NULL, &err, "-o", t_tmp("u.json"),
			fixture("results-alone.log"), NULL),
		    2);
	t_check_contains(err, "--from");
	free(err);
	err = NULL;
	t_check_int(run(tool, NULL, &err, "-f", "iperf", "x", NULL), 2);
	t_check_contains(err, "unknown format 'iperf'");
	free(err);
	err = NULL;
	t_check_int(run(tool, NULL, &err, "-f", "rename-test", "--preempt",
			"sometimes", "x", NULL),
		    2);
	t_check_contains(err, "--preempt");
	free(err);
}

int main(int argc, char **argv)
{
	if (argc < 7) {
		fprintf(stderr,
			"usage: %s INVLAB-IMPORT INVLAB-COMPARE INVLAB-GATE "
			"INVLAB-PLOT DATADIR MANPAGE\n",
			argv[0]);
		return 99;
	}
	tool = argv[1];
	compare = argv[2];
	gate = argv[3];
	plot = argv[4];
	data = argv[5];
	test_cyclictest();
	test_rtapp();
	test_rename();
	test_perf();
	test_details();
	test_big_input();
	test_kernel_options();
	test_refusals();
	test_schbench();
	test_schbench_layouts();
	test_schbench_refusals();
	t_check_man_page(tool, argv[6]);
	t_tmp_cleanup();
	return t_done("import");
}
