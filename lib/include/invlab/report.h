/* SPDX-License-Identifier: MIT */
/*
 * Reporters: JSON with the common envelope, TAP 13, aligned text tables,
 * and atomic result files.  They read plain, merged data only.
 */
#ifndef INVLAB_REPORT_H
#define INVLAB_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <invlab/hist.h>
#include <invlab/sysinfo.h>

#define IL_JSON_SCHEMA_VERSION 1
#define IL_JSON_MAX_DEPTH      32

/*
 * Streaming JSON writer with two-space indentation.  key is the member
 * name inside an object and NULL inside an array or at the top.  Strings
 * are escaped.  Errors are sticky: check il_json_error() at the end.
 */
struct il_json {
	FILE *f;
	int depth;
	int err;
	bool first[IL_JSON_MAX_DEPTH];
};

void il_json_init(struct il_json *j, FILE *f);
void il_json_begin_object(struct il_json *j, const char *key);
void il_json_end_object(struct il_json *j);
void il_json_begin_array(struct il_json *j, const char *key);
void il_json_end_array(struct il_json *j);
void il_json_str(struct il_json *j, const char *key,
		 const char *val); /* NULL -> null */
void il_json_int(struct il_json *j, const char *key, int64_t val);
void il_json_uint(struct il_json *j, const char *key, uint64_t val);
void il_json_double(struct il_json *j, const char *key,
		    double val); /* non-finite -> null */
void il_json_bool(struct il_json *j, const char *key, bool val);
void il_json_null(struct il_json *j, const char *key);
int il_json_error(const struct il_json *j);

/*
 * A histogram as {count, min, mean, p50, p90, p99, p999, p9999, max,
 * overflow, bins: [[lo_ns, count], ...]}; a percentile with too few
 * samples is null, and so are min/mean/max of an empty histogram.
 */
void il_json_hist(struct il_json *j, const char *key, const struct il_hist *h);

/* A verdict's members, in the object being written: verdict, bound,
 * bound_ns, noise_ns, worst_ns, evidence. */
struct il_check;
void il_json_check(struct il_json *j, const struct il_check *c);

/*
 * The common envelope.  il_report_begin opens the top-level object and
 * writes schema_version, program, version, command_line, start_time
 * (RFC 3339 UTC), features ("+NUMA -URING +JSON") and the kernel
 * fingerprint; the program then writes its own members; il_report_end
 * writes end_time and return_code and closes the object.
 */
struct il_run_info {
	const char *program;
	int argc;
	char **argv;
	struct timespec start; /* CLOCK_REALTIME */
	const struct il_sysinfo *sys;
};
void il_report_begin(struct il_json *j, const struct il_run_info *ri);
void il_report_end(struct il_json *j, int return_code);

/* "+NUMA +URING -JSON": the optional features this build has */
const char *il_features(void);
/* the project version string */
const char *il_version(void);

/*
 * Atomic result files: il_afile_open creates "PATH.tmp.XXXXXX" beside
 * path; il_afile_commit flushes, fsyncs and renames it over path (0 or
 * -errno); il_afile_abort removes the temporary file.  "-" means stdout.
 */
struct il_afile {
	FILE *f;
	char *path;
	char *tmp;
};
int il_afile_open(struct il_afile *a, const char *path);
/*
 * Can path take a result file?  Call it before a run, so that a bad name
 * is refused before anything is measured.  0 for "-", /dev/null (also
 * through a link), a regular file or a new name in a writable directory;
 * -ELOOP for any other symbolic link (never followed), -ENXIO for a FIFO,
 * a device or a socket,
 * -EISDIR, or the -errno of creating a file beside it; why says which.
 * il_afile_open applies the same rules again to what it opens.
 */
int il_afile_check(const char *path, char *why, size_t len);
/*
 * Where "-" writes: stdout unless set (a program that moves its report
 * off standard output, so that the JSON is all there is on it, passes
 * the stream that still reaches the original standard output).  Never
 * closed by the functions here.
 */
void il_afile_set_stdout(FILE *f);
int il_afile_commit(struct il_afile *a);
void il_afile_abort(struct il_afile *a);

/* TAP 13 */
void il_tap_version(FILE *f);
void il_tap_plan(FILE *f, int n);
/* "1..0 # SKIP why": nothing runs, and why (one line) */
void il_tap_skip_all(FILE *f, const char *why);
/* directive: NULL, or "SKIP reason" / "TODO reason" */
void il_tap_result(FILE *f, bool ok, int n, const char *desc,
		   const char *directive);
void il_tap_diag(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Aligned text tables.  Columns are added with a header and alignment;
 * cells are appended row by row as strings; il_table_print writes the
 * header, a rule and the rows with every column as wide as its widest
 * cell.
 */
#define IL_TABLE_MAX_COLS 16
struct il_table {
	int ncols;
	const char *header[IL_TABLE_MAX_COLS];
	bool right[IL_TABLE_MAX_COLS];
	int nrows, cap;
	char **cells; /* nrows * ncols, owned */
};
void il_table_init(struct il_table *t);
int il_table_col(struct il_table *t, const char *header, bool right_align);
/* append a cell (printf format); a new row starts every ncols cells */
int il_table_cell(struct il_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void il_table_print(const struct il_table *t, FILE *f);
/* the same, each line preceded by prefix ("# " for TAP diagnostics) */
void il_table_print_prefixed(const struct il_table *t, FILE *f,
			     const char *prefix);
/*
 * One statistic of a histogram for a table cell: percentile p (0 < p < 1,
 * the displayed value), or the maximum when p < 0; "-" when empty and
 * "n/a" when there are too few samples for p.
 */
void il_format_stat(char *buf, size_t len, const struct il_hist *h, double p);
void il_table_free(struct il_table *t);

#endif
