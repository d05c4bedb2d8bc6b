/* SPDX-License-Identifier: MIT */
/*
 * Result sets: result files read back (load.c) and merged (merge.c), the
 * data the host-side tools invlab-compare, invlab-gate and invlab-plot
 * share.  The statistics over them are in stats.h, the command-line
 * helpers in args.h, escaping in escape.h, formatting in format.h.
 *
 * A result set is every run of every file given for one side.  Runs are
 * grouped by scenario (the program, plus scenario.name when a program has
 * several) and configuration, and with a key to group by (--by: a sweep)
 * by their value of it too; within a group each histogram key ("_ns")
 * is merged bin by bin, so a merged percentile is exactly the one a
 * single run holding all the samples would have reported.  Each run's own
 * statistics are kept as well, one value per run, for the spread (CV) and
 * for the rank test across runs.
 *
 * Like the library, nothing here prints or exits: errors come back as a
 * negative errno with a message in the caller's buffer, naming the file
 * and the JSON path ("a.json: runs[1].blocked_ns.bins[3]: ...").
 */
#ifndef INVLAB_RESULTS_H
#define INVLAB_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <invlab/expect.h>
#include <invlab/hist.h>
#include <invlab/report.h>
#include <invlab/verdict.h>

#include "stats.h"

/*
 * What one result set may hold.  A result file comes from a device and
 * is read as untrusted input: the size of a file is checked before it is
 * read (json-c needs some 20 bytes of memory per byte of JSON), and what
 * the JSON then asks for is bounded too.  Each limit names itself in its
 * error.  The input size is a setting (--max-input-size); the others are
 * above a lab's results (10,000 files of 5 runs a side) and bound the
 * memory a side's per-run values take: 72 bytes a histogram of a run
 * (IL_RES_NSTATS doubles), some 75 MB at IL_RES_MAX_RUN_HISTS.
 */
#define IL_RES_MAX_INPUT_DEFAULT (16ull << 20) /* bytes per file: 16 MiB */
#define IL_RES_MAX_RUNS		 100000	       /* runs per set */
#define IL_RES_MAX_RUN_HISTS	 (1 << 20) /* histograms per set, run by run */
#define IL_RES_MAX_MERGED	 4096	   /* configurations x histograms */
#define IL_RES_MAX_SCENARIO_KEYS 256 /* scalar "scenario" members a file */

/*
 * Rebuild a histogram from its JSON form ({count, min, mean, max,
 * overflow, bins: [[lo, count], ...]}).  The bins give the shape; count,
 * min, max and overflow are taken as written (min and max are exact in
 * the file, the bins alone would widen them to bucket edges), and the sum
 * from mean * count.  Checks that every lo is a bucket edge and that the
 * bins add up to count.  what names the object in messages.
 */
struct json_object;
int il_res_hist_from_json(struct json_object *o, struct il_hist *h,
			  const char *what, char *err, size_t errlen);

/* One histogram key of one group. */
struct il_res_metric {
	char *name;		/* "blocked_ns" */
	struct il_hist *merged; /* every run of the group, added bin by bin */
	size_t nruns;		/* runs that had this histogram */
	size_t cap;
	/* per run: the display value of each statistic, NAN when n/a */
	double (*run)[IL_RES_NSTATS];
	/*
	 * per run: its buckets, for the hierarchical bootstrap (stats.h);
	 * NULL from IL_RES_HBOOT_NESTED_RUNS runs on, unless keep_run_hists
	 */
	struct il_res_run_hist *hists;
	bool keep_run_hists;
	/*
	 * A count of events over trials (a task's deadline misses of its
	 * jobs, "tauA/deadline_misses"), not a histogram of times: each
	 * trial is a sample of 0 or 1, so the mean is the rate, and only
	 * the mean means anything.
	 */
	bool rate;
};

struct il_res_group {
	char *scenario;	     /* "pi-classic" */
	char *configuration; /* "inherit" */
	char *by;    /* the runs' value of the set's key; NULL: no key */
	size_t file; /* per-file sets: index of the file, else 0 */
	size_t nruns;
	/* runs by verdict; IL_NONE: no verdict, or one not known */
	size_t verdicts[IL_VERDICT_N];
	/* runs by il_expect(verdict, the run's "expected") */
	size_t outcomes[IL_OUT_N];
	size_t nmetrics;
	struct il_res_metric *metrics;
};

/*
 * The kernel fingerprint fields compared between sides, in the order they
 * are shown.  A file's value is its JSON text ("6.18.1", "true", "250");
 * null and absent fields read as "unknown".
 */
enum {
	IL_RES_FP_RELEASE,
	IL_RES_FP_VERSION,
	IL_RES_FP_CMDLINE,
	IL_RES_FP_PREEMPT,
	IL_RES_FP_PROXY_CONFIG,
	IL_RES_FP_PROXY_ACTIVE,
	IL_RES_FP_HZ,
	IL_RES_FP_RT_RUNTIME,
	IL_RES_FP_CPUS,
	IL_RES_FP_CPU_MODEL,
	IL_RES_FP_VIRT,
	IL_RES_FP_HYPERVISOR,
	IL_RES_FP_HOSTNAME,
	IL_RES_FP_N,
};
/* the JSON key of field i inside "kernel" */
const char *il_res_fp_key(int i);

/*
 * A file's strings other than its path are the set's (il_res_set.strings):
 * thousands of files of one lab share a handful of kernels, programs and
 * scenario members, and each is kept once.
 */
struct il_res_kv {
	const char *key;
	const char *value;
};

struct il_res_file {
	char *path;
	const char *program;
	const char *fp[IL_RES_FP_N];
	/* the scalar members of "scenario", as JSON text */
	size_t nscenario;
	struct il_res_kv *scenario;
	bool interrupted;
	int return_code; /* -1 when absent */
};

struct il_res_set {
	bool per_file; /* group runs per file rather than across files */
	/*
	 * keep every run's buckets, however many runs (a tool that rebuilds
	 * the runs from them: bench/bench_stats.c); set after
	 * il_res_set_init, before loading
	 */
	bool keep_run_hists;
	/*
	 * group runs by their value of this key as well (il_res_run_key),
	 * NULL: not; set after il_res_set_init, before loading
	 */
	const char *by;
	uint64_t max_input; /* bytes per file (IL_RES_MAX_INPUT_DEFAULT) */
	size_t nruns;	    /* every run of every file */
	size_t nhists;	    /* histograms of those runs */
	size_t nmerged;	    /* metrics over all groups */
	size_t nfiles, files_cap;
	struct il_res_file *files;
	size_t ngroups, groups_cap;
	struct il_res_group *groups;
	/* the files' strings, each distinct one once (merge.c) */
	char **strings;
	size_t nstrings, strings_cap;
};

void il_res_set_init(struct il_res_set *s, bool per_file);
/*
 * Read one result file (lean: il_res_parse_lean) and add its runs to s.
 * Returns 0, -ENOENT (and
 * the other errnos of open/read) when the file cannot be read, -EINVAL
 * when it is not a regular file, not JSON or not an invlab result,
 * -EFBIG when it is larger than s->max_input, -E2BIG when it would take
 * s over one of the IL_RES_MAX_ limits, -ENOKEY when s->by is set and a
 * run has no value for it, -ENOMEM.  Every string taken
 * from the file is stored escaped (escape.h).  The whole file is checked
 * before anything is added, so after -EINVAL, -EFBIG or a read error s
 * is unchanged; after -ENOMEM or -E2BIG it may hold part of the file.
 */
int il_res_set_load(struct il_res_set *s, const char *path, char *err,
		    size_t errlen);
/*
 * The same for a file read already (il_res_parse_file): root is the
 * caller's, path names it in messages.  A tool that reads each file for
 * more than one purpose parses it once and frees it at once, so that
 * memory holds one document at a time, however many files there are.
 */
struct json_object;
int il_res_set_add_json(struct il_res_set *s, struct json_object *root,
			const char *path, char *err, size_t errlen);
/*
 * Read and parse a JSON file as il_res_set_load does (a regular file of
 * at most max bytes, nothing after the value; messages name the path
 * escaped), for a tool that walks the document itself.  NULL with *ret
 * and err set on failure.
 */
struct json_object;
struct json_object *il_res_parse_file(const char *path, uint64_t max, char *err,
				      size_t errlen, int *ret);
/*
 * The same for a tool that reads no run's "judge_inputs" but its
 * "job_text" (compare, gate, plot: all but invlab-judge): those are cut
 * from the text before it is parsed (lean.h), which is most of a
 * result file's bytes and of the time taken to read it.  A text the cut
 * does not take is parsed whole, so a file reads, or is refused with
 * the same message, as with il_res_parse_file.  il_res_set_load reads
 * this way.
 */
struct json_object *il_res_parse_lean(const char *path, uint64_t max, char *err,
				      size_t errlen, int *ret);
/*
 * The schema_version of a parsed result (docs/results.md): a file
 * without one was written before the member was documented and reads as
 * version 1; any other value than IL_RES_SCHEMA_VERSION (a newer schema
 * may mean something else by the same keys) or a value that is not an
 * integer is refused.  0, or -EINVAL with "PATH: ..." in err (epath:
 * the path, escaped).
 */
#define IL_RES_SCHEMA_VERSION 1
int il_res_check_version(struct json_object *root, const char *epath, char *err,
			 size_t errlen);
void il_res_set_free(struct il_res_set *s);
/* the group for scenario/configuration (file ignored unless per_file) */
const struct il_res_group *il_res_set_find(const struct il_res_set *s,
					   const char *scenario,
					   const char *configuration,
					   size_t file);
/* the same for the runs whose value of s->by is by (NULL: no key) */
const struct il_res_group *il_res_set_find_by(const struct il_res_set *s,
					      const char *scenario,
					      const char *configuration,
					      const char *by, size_t file);
/*
 * The value of a key for one run of a result file, what --by groups
 * runs by: root is the file's JSON, run one of its runs.  The first of
 *
 *   - the value of the run's "sweep" when it sweeps key (--sweep:
 *     {key, value, configuration}; "global.K" and "K" are one key),
 *   - the run's own member key (its "configuration", pi-classic's
 *     "protocol"),
 *   - the member key of the file's "scenario" (sched-messaging's
 *     "groups", pi-classic's "cs_ns"),
 *   - the key of the job the run ran, named as --set names it
 *     (SECTION.KEY: "M.protocol", "high.class"; a bare KEY is in
 *     [global]), in the job's text as the run recorded it
 *     (judge_inputs.job_text, else the file's job.text),
 *
 * that is a string, number or boolean, as its JSON text, escaped, in
 * *value (malloc'd).  0, -ENOENT when none has it, -ENOMEM.
 */
int il_res_run_key(struct json_object *root, struct json_object *run,
		   const char *key, char **value);
/*
 * The configuration a run is grouped under, escaped, in *conf
 * (malloc'd): its "configuration", or, when its "sweep" sweeps by (the
 * --by key, NULL: none), the sweep's, so that the values of one sweep
 * are the rows of one block ("process-socket groups=4" is
 * "process-socket" with --by groups).  0, -ENOENT without a
 * configuration string, -ENOMEM.
 */
int il_res_run_configuration(struct json_object *run, const char *by,
			     char **conf);
/*
 * The distinct values of a key in the order of a sweep's rows: by
 * number when every one is a number, else as given (the order they were
 * first seen).  Stable.  0 or -ENOMEM (v is then as given).
 */
int il_res_by_sort(const char **v, size_t n);
const struct il_res_metric *il_res_group_metric(const struct il_res_group *g,
						const char *name);
/*
 * Fingerprint field i over the files of s: the common value, "mixed"
 * when the files disagree (*nvalues says how many distinct values), or
 * "none" when s has no files.
 */
const char *il_res_set_fp(const struct il_res_set *s, int i, int *nvalues);
/* the same for a scenario member; NULL when no file has it */
const char *il_res_set_scenario(const struct il_res_set *s, const char *key,
				int *nvalues);

#endif
