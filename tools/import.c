// SPDX-License-Identifier: MIT
/*
 * invlab-import: the results of the tools testers already run, as one
 * invlab result file that invlab-compare, invlab-gate and invlab-plot
 * take like any other.
 *
 *   invlab-import -f cyclictest-json -o base.json ct-1.json ct-2.json
 *   invlab-import -f rename-test --kernel-release 6.6 -o a.json results-*.log
 *   invlab-import -f schbench -c m2t4 -o sb.json schbench-run*.txt
 *
 * Each input becomes one run or more (import-formats.c says how), the
 * kernel fingerprint is what the source records plus what the options
 * give (never this machine's: the results were measured elsewhere), and
 * `source` records the tool, the format and the files.  Bad input is
 * refused with FILE:LINE and exit 2 before anything is written; the
 * output is checked before any input is read, and written complete or
 * not at all.
 *
 * Exit: 0 written, 2 bad usage or bad input (nothing written), 99 the
 * output could not be written.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <invlab/opt.h>
#include <invlab/report.h>
#include <invlab/strbuf.h>
#include <invlab/sysinfo.h>

/* the fingerprint's .config parser, shared with the programs' own */
#include "../lib/sys/sysinfo-parse.h"

#include "args.h"
#include "import.h"

struct cfg {
	int help;
	int version;
	const char *from;
	const char *output;
	int json_pretty;
	const char *configuration;
	int per_thread;
	int nsecs;
	const char *log_basename;
	const char *release, *kversion, *machine, *hostname, *cmdline;
	const char *kconfig;
	const char *preempt, *proxy_exec, *rt_runtime, *cpu_model, *virt;
	int64_t hz, cpus;
	uint64_t max_input;
};

#define O(f) offsetof(struct cfg, f)
static const struct il_opt opts[] = {
	IL_OPT_HELP_ROW(O(help)),
	IL_OPT_VERSION_ROW(O(version)),
	{ .name = "from",
	  .short_name = 'f',
	  .type = IL_OPT_STRING,
	  .offset = O(from),
	  .metavar = "FORMAT",
	  .help = "the format of the inputs (required): cyclictest-json, "
		  "cyclictest-hist, rt-app, rename-test, perf-messaging or "
		  "schbench" },
	{ .name = "output",
	  .short_name = 'o',
	  .type = IL_OPT_STRING,
	  .offset = O(output),
	  .def = "-",
	  .metavar = "FILE",
	  .help = "where to write the result file ('-' for stdout); checked "
		  "before any input is read, written complete or not at all" },
	{ .name = "json-pretty",
	  .type = IL_OPT_FLAG,
	  .offset = O(json_pretty),
	  .help = "indent the result file, a member a line; by default it "
		  "is compact unless it goes to a terminal" },
	{ .name = "configuration",
	  .short_name = 'c',
	  .type = IL_OPT_STRING,
	  .offset = O(configuration),
	  .metavar = "NAME",
	  .help = "the configuration every run is filed under (default: "
		  "rt-app the thread's name, rename-test the file's name, "
		  "the others 'default')" },
	{ .name = "per-thread",
	  .type = IL_OPT_FLAG,
	  .offset = O(per_thread),
	  .help = "for cyclictest, a histogram per thread (threadN_latency_ns) "
		  "besides all threads' latency_ns" },
	{ .name = "nsecs",
	  .short_name = 'N',
	  .type = IL_OPT_FLAG,
	  .offset = O(nsecs),
	  .help = "for cyclictest-hist: the run used -N, so its histogram is "
		  "in "
		  "ns, not us (the JSON says so itself)" },
	{ .name = "log-basename",
	  .type = IL_OPT_STRING,
	  .offset = O(log_basename),
	  .def = "rt-app",
	  .metavar = "NAME",
	  .help = "for rt-app: the use case's log_basename, the prefix of its "
		  "log "
		  "file names" },
	{ .name = "release",
	  .type = IL_OPT_STRING,
	  .offset = O(release),
	  .metavar = "TEXT",
	  .help = "the kernel's release (uname -r), when the source does not "
		  "record it" },
	{ .name = "kernel-release",
	  .type = IL_OPT_STRING,
	  .offset = O(release),
	  .metavar = "TEXT",
	  .help = "the same as --release (its first name)" },
	{ .name = "kernel-version",
	  .type = IL_OPT_STRING,
	  .offset = O(kversion),
	  .metavar = "TEXT",
	  .help = "the kernel's build (uname -v), when the source does not "
		  "record it" },
	{ .name = "machine",
	  .type = IL_OPT_STRING,
	  .offset = O(machine),
	  .metavar = "TEXT",
	  .help = "the machine (uname -m), when the source does not record "
		  "it" },
	{ .name = "hostname",
	  .type = IL_OPT_STRING,
	  .offset = O(hostname),
	  .metavar = "TEXT",
	  .help = "the host name, when the source does not record it" },
	{ .name = "cmdline",
	  .type = IL_OPT_STRING,
	  .offset = O(cmdline),
	  .metavar = "TEXT",
	  .help = "the kernel command line (/proc/cmdline); with --config "
		  "it also gives the preemption model and proxy execution "
		  "in force (preempt=, sched_proxy_exec=)" },
	{ .name = "config",
	  .type = IL_OPT_STRING,
	  .offset = O(kconfig),
	  .metavar = "FILE",
	  .help = "the kernel's .config (or config.gz): "
		  "CONFIG_SCHED_PROXY_EXEC, the preemption model, "
		  "PREEMPT_DYNAMIC, HZ and RT_GROUP_SCHED are read from it "
		  "as the programs read their own kernel's" },
	{ .name = "preempt",
	  .type = IL_OPT_STRING,
	  .offset = O(preempt),
	  .metavar = "MODEL",
	  .help = "the preemption model in force: none, voluntary, full, "
		  "lazy or rt" },
	{ .name = "proxy-exec",
	  .type = IL_OPT_STRING,
	  .offset = O(proxy_exec),
	  .metavar = "on|off",
	  .help = "whether proxy execution was active (built in and not "
		  "disabled)" },
	{ .name = "hz",
	  .type = IL_OPT_INT,
	  .offset = O(hz),
	  .min = 1,
	  .max = 100000,
	  .metavar = "N",
	  .help = "the kernel's CONFIG_HZ" },
	{ .name = "rt-runtime-us",
	  .type = IL_OPT_STRING,
	  .offset = O(rt_runtime),
	  .metavar = "N",
	  .help = "sched_rt_runtime_us (-1: RT throttling off)" },
	{ .name = "cpus",
	  .type = IL_OPT_INT,
	  .offset = O(cpus),
	  .min = 1,
	  .max = 65536,
	  .metavar = "N",
	  .help = "the number of CPUs online" },
	{ .name = "cpu-model",
	  .type = IL_OPT_STRING,
	  .offset = O(cpu_model),
	  .metavar = "TEXT",
	  .help = "the CPU model" },
	{ .name = "virt",
	  .type = IL_OPT_STRING,
	  .offset = O(virt),
	  .metavar = "NAME",
	  .help = "the hypervisor (kvm, xen, ...) or none" },
	/*
	 * Not the tools' shared row: the line formats stream, so their
	 * size is no memory risk and has no limit unless one is asked for;
	 * only cyclictest's JSON is held whole (and json-c takes some 20
	 * times its size), so it keeps a default limit.
	 */
	{ .name = "max-input-size",
	  .type = IL_OPT_SIZE,
	  .offset = O(max_input),
	  .min = 1024,
	  .max = 1ll << 30,
	  .metavar = "SIZE",
	  .help = "refuse any input larger than SIZE (K, M, G suffixes; "
		  "counted decompressed).  Default: no limit for the formats "
		  "read line by line, which stream (memory does not grow "
		  "with the file), " IL_IMP_SLURP_MAX_DEFAULT_STR
		  " for cyclictest-json, which is held in memory whole "
		  "(json-c needs some 20 times its size)" },
	{ .name = NULL },
};
#undef O

static const struct il_opt *const tables[] = { opts, NULL };

/*
 * One string field: the source's value, or the option's.  Both given and
 * different is a mistake to point out, not to settle silently.
 */
static int fp_field(char *dst, size_t len, const char *source, const char *opt,
		    const char *name, char *err, size_t errlen)
{
	if (source[0] && opt && strcmp(source, opt)) {
		snprintf(err, errlen,
			 "--%s '%s', but the input records '%s': leave the "
			 "option out",
			 name, opt, source);
		return -EINVAL;
	}
	snprintf(dst, len, "%s", source[0] ? source : opt ? opt : "");
	return 0;
}

/*
 * The kernel's .config, as the programs read their own: the configured
 * preemption model, PREEMPT_DYNAMIC, SCHED_PROXY_EXEC, HZ and
 * RT_GROUP_SCHED.  Read through the import reader, so a config.gz is
 * taken as it is and the file is bounded like any input.
 */
static int read_kconfig(const char *path, struct il_sysinfo *si, char *err,
			size_t errlen)
{
	struct il_imp_reader *r = malloc(sizeof(*r));
	char *text = NULL;
	size_t len;
	int ret;

	if (!r) {
		il_setf(err, errlen, "--config: out of memory");
		return -ENOMEM;
	}
	ret = il_imp_open(r, path, IL_IMP_KCONFIG_MAX, err, errlen);
	if (!ret) {
		ret = il_imp_slurp(r, &text, &len, err, errlen);
		il_imp_close(r);
	}
	free(r);
	if (ret)
		return ret;
	if (strlen(text) != len) {
		il_setf(err, errlen,
			"--config: %s: a NUL byte: not a kernel "
			"config",
			path);
		ret = -EINVAL;
	} else if (strncmp(text, "CONFIG_", 7) && !strstr(text, "\nCONFIG_")) {
		il_setf(err, errlen,
			"--config: %s: no CONFIG_ line: not a kernel config",
			path);
		ret = -EINVAL;
	} else {
		__il_kconfig_parse(text, si);
		snprintf(si->config_source, sizeof(si->config_source), "%s",
			 path);
		if (si->hz > 0)
			snprintf(si->hz_source, sizeof(si->hz_source),
				 "config");
	}
	free(text);
	return ret;
}

/* an option that contradicts the config is pointed out, as for the input */
static int against_config(const struct cfg *c, const struct il_sysinfo *si,
			  char *err, size_t errlen)
{
	if (c->hz && si->hz > 0 && c->hz != si->hz) {
		il_setf(err, errlen,
			"--hz %lld, but the config says CONFIG_HZ=%d: leave "
			"the option out",
			(long long)c->hz, si->hz);
		return -EINVAL;
	}
	if (c->proxy_exec && !strcmp(c->proxy_exec, "on") &&
	    si->config_proxy_exec == 0) {
		il_setf(err, errlen,
			"--proxy-exec on, but the config has no "
			"CONFIG_SCHED_PROXY_EXEC");
		return -EINVAL;
	}
	/* without PREEMPT_DYNAMIC the configured model is the one in force */
	if (c->preempt && si->preempt_dynamic == 0 && si->preempt_config[0] &&
	    strcmp(c->preempt, si->preempt_config)) {
		il_setf(err, errlen,
			"--preempt %s, but the config builds a %s kernel "
			"without PREEMPT_DYNAMIC: leave the option out",
			c->preempt, si->preempt_config);
		return -EINVAL;
	}
	return 0;
}

static int fingerprint(const struct cfg *c, const struct il_imp_result *res,
		       struct il_sysinfo *si, char *err, size_t errlen)
{
	const struct il_imp_kernel *k = &res->kernel;

	il_sysinfo_unknown(si);
	if (fp_field(si->release, sizeof(si->release), k->release, c->release,
		     "release", err, errlen) ||
	    fp_field(si->version, sizeof(si->version), k->version, c->kversion,
		     "kernel-version", err, errlen) ||
	    fp_field(si->machine, sizeof(si->machine), k->machine, c->machine,
		     "machine", err, errlen) ||
	    fp_field(si->hostname, sizeof(si->hostname), k->hostname,
		     c->hostname, "hostname", err, errlen))
		return -EINVAL;
	if (c->cmdline) {
		snprintf(si->cmdline, sizeof(si->cmdline), "%s", c->cmdline);
		__il_cmdline_param(c->cmdline, "preempt", si->preempt_cmdline,
				   sizeof(si->preempt_cmdline));
		__il_cmdline_param(c->cmdline, "sched_proxy_exec",
				   si->cmdline_proxy_exec,
				   sizeof(si->cmdline_proxy_exec));
	}
	if (c->kconfig) {
		int ret = read_kconfig(c->kconfig, si, err, errlen);

		if (ret)
			return ret;
		if (against_config(c, si, err, errlen))
			return -EINVAL;
		/*
		 * What the config and the command line decide together:
		 * the model in force (preempt= counts only with
		 * PREEMPT_DYNAMIC), and proxy execution, which a config
		 * without it decides alone and one with it only with the
		 * command line known (sched_proxy_exec= turns it off).
		 */
		if (!c->preempt) {
			__il_preempt_current(
				NULL, si->preempt_cmdline, si->preempt_config,
				si->preempt_dynamic, si->preempt_current,
				sizeof(si->preempt_current));
			if (si->preempt_current[0])
				snprintf(
					si->preempt_source,
					sizeof(si->preempt_source), "%s",
					si->preempt_dynamic != 0 &&
							!strcmp(si->preempt_current,
								si->preempt_cmdline)
						? "cmdline"
						: "config");
		}
		if (!c->proxy_exec &&
		    (si->config_proxy_exec == 0 || c->cmdline))
			si->proxy_exec_active = __il_proxy_exec_state(
				si->config_proxy_exec, si->cmdline);
	}
	if (c->preempt)
		snprintf(si->preempt_current, sizeof(si->preempt_current), "%s",
			 c->preempt);
	if (c->proxy_exec)
		si->proxy_exec_active = !strcmp(c->proxy_exec, "on");
	if (c->hz)
		si->hz = (int)c->hz;
	if (c->cpus)
		si->cpus_online = (int)c->cpus;
	if (c->rt_runtime)
		si->rt_runtime_us = strtol(c->rt_runtime, NULL, 10);
	if (c->cpu_model)
		snprintf(si->cpu_model, sizeof(si->cpu_model), "%s",
			 c->cpu_model);
	if (c->virt)
		snprintf(si->virt, sizeof(si->virt), "%s", c->virt);
	return 0;
}

/* the options whose values the parser cannot check by itself */
static int check_options(const struct cfg *c, enum il_imp_format *f, char *err,
			 size_t errlen)
{
	static const char *const models[] = { "none", "voluntary", "full",
					      "lazy", "rt" };
	int i;

	if (!c->from) {
		snprintf(err, errlen, "--from FORMAT is required");
		return -EINVAL;
	}
	for (i = 0; i < IL_IMP_NFORMATS; i++)
		if (!strcmp(c->from, il_imp_format_name(i)))
			break;
	if (i == IL_IMP_NFORMATS) {
		snprintf(err, errlen,
			 "--from: unknown format '%s' (known: cyclictest-json, "
			 "cyclictest-hist, rt-app, rename-test, "
			 "perf-messaging, schbench)",
			 c->from);
		return -EINVAL;
	}
	*f = (enum il_imp_format)i;
	if (c->preempt) {
		for (i = 0; i < 5; i++)
			if (!strcmp(c->preempt, models[i]))
				break;
		if (i == 5) {
			snprintf(err, errlen,
				 "--preempt: '%s' is not none, voluntary, "
				 "full, lazy or rt",
				 c->preempt);
			return -EINVAL;
		}
	}
	if (c->proxy_exec && strcmp(c->proxy_exec, "on") &&
	    strcmp(c->proxy_exec, "off")) {
		snprintf(err, errlen, "--proxy-exec: '%s' is not on or off",
			 c->proxy_exec);
		return -EINVAL;
	}
	if (c->rt_runtime) {
		char *end;
		long v;

		errno = 0;
		v = strtol(c->rt_runtime, &end, 10);
		if (errno || end == c->rt_runtime || *end || v < -1 ||
		    v > 1000000000) {
			snprintf(err, errlen,
				 "--rt-runtime-us: '%s' is not -1 or 0 to "
				 "1000000000",
				 c->rt_runtime);
			return -EINVAL;
		}
	}
	if (c->configuration && !c->configuration[0]) {
		snprintf(err, errlen, "--configuration: empty");
		return -EINVAL;
	}
	return 0;
}

static void str_or_null(struct il_json *j, const char *key, const char *s)
{
	il_json_str(j, key, s[0] ? s : NULL);
}

static void write_kv(struct il_json *j, const struct il_imp_kv *kv)
{
	if (kv->is_int)
		il_json_int(j, kv->key, strtoll(kv->value, NULL, 10));
	else
		il_json_str(j, kv->key, kv->value);
}

static int write_result(FILE *f, bool pretty, int argc, char **argv,
			const struct il_imp_result *res, enum il_imp_format fmt,
			const struct il_sysinfo *si, char **files, int nfiles)
{
	struct il_run_info ri = {
		.program = res->program,
		.argc = argc,
		.argv = argv,
		.sys = si,
	};
	struct il_json j;

	clock_gettime(CLOCK_REALTIME, &ri.start);
	il_json_init(&j, f);
	if (pretty)
		il_json_set_pretty(&j, true);
	il_report_begin(&j, &ri);
	il_json_begin_object(&j, "source");
	il_json_str(&j, "tool", res->program);
	str_or_null(&j, "tool_version", res->tool_version);
	il_json_str(&j, "format", il_imp_format_name(fmt));
	il_json_str(&j, "importer", "invlab-import");
	str_or_null(&j, "command_line", res->command_line);
	str_or_null(&j, "start_time", res->start_time);
	str_or_null(&j, "end_time", res->end_time);
	il_json_begin_array(&j, "files");
	for (int i = 0; i < nfiles; i++)
		il_json_str(&j, NULL, files[i]);
	il_json_end_array(&j);
	il_json_end_object(&j);
	il_json_begin_object(&j, "scenario");
	for (size_t i = 0; i < res->nscenario; i++)
		write_kv(&j, &res->scenario[i]);
	il_json_end_object(&j);
	il_json_bool(&j, "interrupted", false);
	il_json_begin_array(&j, "runs");
	for (size_t i = 0; i < res->nruns; i++) {
		const struct il_imp_run *run = &res->runs[i];

		il_json_begin_object(&j, NULL);
		il_json_str(&j, "configuration", run->configuration);
		il_json_str(&j, "source_file", run->file);
		for (size_t k = 0; k < run->nkv; k++)
			write_kv(&j, &run->kv[k]);
		for (size_t k = 0; k < run->nhists; k++)
			il_json_hist(&j, run->hists[k].name, run->hists[k].h);
		il_json_end_object(&j);
	}
	il_json_end_array(&j);
	il_report_end(&j, 0);
	return il_json_error(&j);
}

int main(int argc, char **argv)
{
	static const char usage[] = "--from FORMAT [OPTIONS] FILE...";
	static const char summary[] =
		"Read the results of other tools into one invlab result "
		"file, for invlab-compare, invlab-gate and invlab-plot: "
		"cyclictest --json output (cyclictest-json) or its -h "
		"histogram (cyclictest-hist), rt-app's per-thread logs "
		"(rt-app), priority-inversion-demo's rename-test latencies, "
		"one file per configuration named "
		"results-CONFIGURATION.log[.gz] (rename-test), perf bench "
		"sched messaging's output, one run per 'Total time' "
		"(perf-messaging), and schbench's percentile tables, one run "
		"a file from its last complete set of tables (schbench).  "
		"Kernel fields the input does not record "
		"come from the options, never from this machine.  Exit "
		"status: 0 written, 2 bad usage or bad input (FILE:LINE; "
		"nothing is written), 99 the output could not be written.";
	struct il_imp_result res;
	struct il_imp_opts io;
	struct il_sysinfo si;
	struct il_afile af;
	enum il_imp_format fmt;
	struct cfg cfg;
	char err[1024];
	int first, ret;

	memset(&cfg, 0, sizeof(cfg));
	first = il_opt_parse(argc, argv, tables, &cfg, err, sizeof(err));
	if (first < 0) {
		fprintf(stderr,
			"invlab-import: %s\nTry 'invlab-import --help'.\n",
			err);
		return 2;
	}
	if (cfg.help) {
		il_opt_help(stdout, "invlab-import", usage, summary, tables);
		return 0;
	}
	if (cfg.version) {
		printf("invlab-import %s (%s)\n", il_version(), il_features());
		return 0;
	}
	/* an output that cannot be written is found before any work */
	if (cfg.output && il_afile_check(cfg.output, err, sizeof(err))) {
		fprintf(stderr, "invlab-import: -o: %s\n", err);
		return 2;
	}
	if (check_options(&cfg, &fmt, err, sizeof(err))) {
		fprintf(stderr,
			"invlab-import: %s\nTry 'invlab-import --help'.\n",
			err);
		return 2;
	}
	if (first >= argc) {
		fprintf(stderr, "invlab-import: no input files given\n"
				"Try 'invlab-import --help'.\n");
		return 2;
	}
	/* a bad output name is refused before any input is read */
	if (il_afile_check(cfg.output, err, sizeof(err))) {
		fprintf(stderr, "invlab-import: -o: %s\n", err);
		return 2;
	}
	memset(&io, 0, sizeof(io));
	io.format = fmt;
	io.configuration = cfg.configuration;
	io.unit_ns = cfg.nsecs ? 1 : 1000;
	io.per_thread = cfg.per_thread;
	io.log_basename = cfg.log_basename;
	/* 0: not given; only a format read whole has a default limit */
	io.max_input = cfg.max_input ? cfg.max_input
		       : fmt == IL_IMP_CYCLICTEST_JSON
			       ? IL_IMP_SLURP_MAX_DEFAULT
			       : UINT64_MAX;
	il_imp_result_init(&res, fmt);
	for (int i = first; i < argc; i++) {
		ret = il_imp_read(&res, argv[i], &io, err, sizeof(err));
		if (ret) {
			fprintf(stderr, "invlab-import: %s\n", err);
			il_imp_result_free(&res);
			return 2;
		}
	}
	if (fingerprint(&cfg, &res, &si, err, sizeof(err))) {
		fprintf(stderr, "invlab-import: %s\n", err);
		il_imp_result_free(&res);
		return 2;
	}
	ret = il_afile_open(&af, cfg.output);
	if (ret) {
		fprintf(stderr, "invlab-import: -o: cannot create '%s': %s\n",
			cfg.output, strerror(-ret));
		il_imp_result_free(&res);
		return 99;
	}
	ret = write_result(af.f, cfg.json_pretty, argc, argv, &res, fmt, &si,
			   argv + first, argc - first);
	if (ret)
		il_afile_abort(&af);
	else
		ret = il_afile_commit(&af);
	il_imp_result_free(&res);
	if (ret) {
		fprintf(stderr, "invlab-import: -o: cannot write '%s': %s\n",
			cfg.output, strerror(-ret));
		return 99;
	}
	return 0;
}
