/* SPDX-License-Identifier: MIT */
/*
 * Result files read back, merged and compared: the shared half of the
 * host-side tools invlab-compare, invlab-gate and invlab-plot.
 *
 * A result set is every run of every file given for one side.  Runs are
 * grouped by scenario (the program, plus scenario.name when a program has
 * several) and configuration; within a group each histogram key ("_ns")
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

#include <invlab/hist.h>
#include <invlab/report.h>

/* The statistics of a histogram that the tools know by name. */
enum il_res_stat {
	IL_RES_COUNT,
	IL_RES_MIN,
	IL_RES_MEAN,
	IL_RES_P50,
	IL_RES_P90,
	IL_RES_P99,
	IL_RES_P999,
	IL_RES_P9999,
	IL_RES_MAX,
	IL_RES_NSTATS,
};

const char *il_res_stat_name(enum il_res_stat s);
/* "p99" -> IL_RES_P99; -EINVAL when unknown */
int il_res_stat_parse(const char *name, enum il_res_stat *s);
/* the percentile of a percentile statistic (0.99), else 0 */
double il_res_stat_quantile(enum il_res_stat s);
/* "count, min, mean, p50, ..." for messages */
const char *il_res_stat_list(void);
/*
 * The value of s in h.  upper picks, for percentiles, the highest value
 * of the bucket (what a gate should compare with a limit) instead of its
 * midpoint (what a report shows).  -ENODATA when h has too few samples
 * for it (a p999 needs 1000) or is empty.
 */
int il_res_stat_value(const struct il_hist *h, enum il_res_stat s, bool upper,
		      double *v);

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
};

/* Verdicts as counted in a group; OTHER is anything unrecognised. */
enum il_res_verdict {
	IL_RES_V_PASS,
	IL_RES_V_FAIL,
	IL_RES_V_UNDECIDED,
	IL_RES_V_SKIP,
	IL_RES_V_OTHER,
	IL_RES_V_N,
};

struct il_res_group {
	char *scenario;	     /* "pi-classic" */
	char *configuration; /* "inherit" */
	size_t file;	     /* per-file sets: index of the file, else 0 */
	size_t nruns;
	size_t verdicts[IL_RES_V_N];
	size_t unexpected; /* runs whose verdict is not their "expected"
			      (UNDECIDED runs are not counted) */
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
	IL_RES_FP_HOSTNAME,
	IL_RES_FP_N,
};
/* the JSON key of field i inside "kernel" */
const char *il_res_fp_key(int i);

struct il_res_kv {
	char *key;
	char *value;
};

struct il_res_file {
	char *path;
	char *program;
	char *fp[IL_RES_FP_N];
	/* the scalar members of "scenario", as JSON text */
	size_t nscenario;
	struct il_res_kv *scenario;
	bool interrupted;
	int return_code; /* -1 when absent */
};

struct il_res_set {
	bool per_file; /* group runs per file rather than across files */
	size_t nfiles, files_cap;
	struct il_res_file *files;
	size_t ngroups, groups_cap;
	struct il_res_group *groups;
};

void il_res_set_init(struct il_res_set *s, bool per_file);
/*
 * Read one result file and add its runs to s.  Returns 0, -ENOENT (and
 * the other errnos of open/read) when the file cannot be read, -EINVAL
 * when it is not JSON or not an invlab result, -ENOMEM.  The whole file
 * is checked before anything is added, so after -EINVAL (or a read
 * error) s is unchanged; after -ENOMEM it may hold part of the file.
 */
int il_res_set_load(struct il_res_set *s, const char *path, char *err,
		    size_t errlen);
void il_res_set_free(struct il_res_set *s);
/* the group for scenario/configuration (file ignored unless per_file) */
const struct il_res_group *il_res_set_find(const struct il_res_set *s,
					   const char *scenario,
					   const char *configuration,
					   size_t file);
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

/* ---- statistics ---------------------------------------------------- */

/* Mean, sample standard deviation and CV (in %) of v, NAN ignored. */
struct il_res_spread {
	size_t n;
	double mean, sd, cv_pct; /* sd and cv are NAN when n < 2 */
};
void il_res_spread(const double *v, size_t stride, size_t n,
		   struct il_res_spread *out);

/*
 * Percent improvement of cand over base where lower is better:
 * (base - cand) / base * 100, so positive means better.  NAN when base
 * is 0 (unless cand is 0 too) or either is NAN.
 */
double il_res_pct_improvement(double base, double cand);

/*
 * Two-sided Mann-Whitney U test of a against b, ties given midranks.
 * Exact (the permutation distribution of the rank sum, ties included)
 * when na + nb <= IL_RES_MW_EXACT_MAX, else the normal approximation with
 * tie and continuity corrections.  Returns 0 and fills p and *exact, or
 * -EINVAL when a side is empty.
 */
#define IL_RES_MW_EXACT_MAX 60
int il_res_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
			double *p, bool *exact);
/* the smallest two-sided p the rank test can reach with na and nb runs */
double il_res_mann_whitney_min_p(size_t na, size_t nb);

/*
 * Welch's two-sample t test of a against b (NAN ignored), two-sided:
 * for two or three runs a side, where the rank test cannot reach the
 * usual levels.  -EINVAL with fewer than 2 values a side.
 */
int il_res_welch(const double *a, size_t na, const double *b, size_t nb,
		 double *p);
/* the regularized incomplete beta function I_x(a, b), for the tests */
double il_res_betai(double a, double b, double x);

/*
 * Bootstrap over merged bins, without random draws.  Resampling n values
 * from a histogram puts its k-th smallest (k = ceil(q n)) in bucket j
 * with probability P(Bin(n, F(j)) >= k) - P(Bin(n, F(j-1)) >= k), F the
 * cumulative share of the bins; both sides use the same buckets, so the
 * chance that the candidate's resampled quantile is above, equal to or
 * below the baseline's is a sum over buckets.  p is twice the smaller
 * tail (equal counted half): the two-sided bootstrap p-value of "same
 * quantile".  -ENODATA when a side has too few samples for q.
 */
int il_res_boot_quantile(const struct il_hist *base, const struct il_hist *cand,
			 double q, double *p);
/*
 * The mean's bootstrap distribution is normal for the sample sizes here
 * (central limit), with the variance of the bins (bucket midpoints): a
 * two-sample z test.  -ENODATA with fewer than 2 samples a side.
 */
int il_res_mean_z(const struct il_hist *base, const struct il_hist *cand,
		  double *p);
/* P(Bin(n, prob) >= k), exposed for the tests */
double il_res_binom_tail(uint64_t n, double prob, uint64_t k);

enum il_res_test_mode {
	IL_RES_TEST_AUTO,      /* rank, else Welch over runs, else bins */
	IL_RES_TEST_RANK,      /* Mann-Whitney over per-run values only */
	IL_RES_TEST_WELCH,     /* Welch's t over per-run values only */
	IL_RES_TEST_BOOTSTRAP, /* merged bins only */
};

enum il_res_test {
	IL_RES_T_NONE,
	IL_RES_T_RANK_EXACT,
	IL_RES_T_RANK_NORMAL,
	IL_RES_T_WELCH,
	IL_RES_T_BOOT_QUANTILE,
	IL_RES_T_Z_MEAN,
};
/* "U-exact", "U-normal", "Welch-t", "bootstrap", "z-mean", "-" */
const char *il_res_test_name(enum il_res_test t);

enum il_res_change {
	IL_RES_NA,	/* a side has no value */
	IL_RES_TOO_FEW, /* no test can decide with these runs/samples */
	IL_RES_SAME,	/* not significant, or smaller than min_change */
	IL_RES_BETTER,
	IL_RES_WORSE,
};
/* "n/a", "too few runs", "no change", "better", "worse" */
const char *il_res_change_name(enum il_res_change c);

struct il_res_cmp_opts {
	enum il_res_test_mode mode;
	double alpha;	       /* significance level, e.g. 0.05 */
	double min_change_pct; /* smaller changes read as no change */
};

struct il_res_cmp {
	double base, cand;	     /* merged values, NAN when n/a */
	struct il_res_spread sb, sc; /* per-run spread */
	double ratio;		     /* cand / base */
	double pct_imp;		     /* positive: better */
	enum il_res_test test;
	double p; /* NAN when no test ran */
	enum il_res_change change;
};

/* Compare statistic st of one metric between two sides. */
void il_res_compare(const struct il_res_metric *base,
		    const struct il_res_metric *cand, enum il_res_stat st,
		    const struct il_res_cmp_opts *o, struct il_res_cmp *out);

/*
 * Two sides on one command line: "BASE... -- CAND...".  il_opt_parse ends
 * the options at the first "--" and drops it, so count what follows it
 * beforehand: those are the last operands after parsing.  Returns that
 * count, or -1 when there is no "--".  (An option never takes "--" as its
 * value, so the first "--" is always the one the parser stops at.)
 */
int il_res_count_after_dashdash(int argc, char *const *argv);
/*
 * Load the files of the two sides, argv[first..first+nbase) and the
 * `after` files after "--" (none when after <= 0), refusing an option
 * after "--" (il_opt_parse would have taken it for a file).  0, or -1
 * with the message in err (2 for usage, 99 for an unreadable file in
 * *status).
 */
int il_res_load_sides(int argc, char **argv, int first, int nbase, int after,
		      struct il_res_set *base, struct il_res_set *cand,
		      int *status, char *err, size_t errlen);

/*
 * XML 1.0 text or attribute value (JUnit, SVG): markup characters are
 * escaped, and control characters, which XML cannot hold even escaped,
 * become '?'.
 */
void il_res_xml_escape(FILE *f, const char *s);

/* "12.3us" for a value in ns (rounded), "n/a" for NAN */
const char *il_res_fmt_ns(char *buf, size_t len, double ns);

#endif
