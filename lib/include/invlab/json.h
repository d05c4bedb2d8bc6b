/* SPDX-License-Identifier: MIT */
/*
 * The streaming JSON writer of every result file, with histograms and
 * verdicts as members (lib/util/json.c).
 */
#ifndef INVLAB_JSON_H
#define INVLAB_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <invlab/hist.h>

#define IL_JSON_MAX_DEPTH 32

/*
 * Streaming JSON writer.  key is the member name inside an object and
 * NULL inside an array or at the top.  Strings are escaped.  Errors are
 * sticky: check il_json_error() at the end.
 *
 * Compact by default (no white space but the newline after the top-level
 * value: a lab keeps thousands of result files, and a reader parses every
 * byte), pretty (a member a line, two spaces a level) when f is a
 * terminal or il_json_set_pretty asks for it (--json-pretty).  The two
 * carry the same data; only the white space differs.
 */
struct il_json {
	FILE *f;
	int depth;
	int err;
	bool pretty;
	bool first[IL_JSON_MAX_DEPTH];
};

void il_json_init(struct il_json *j, FILE *f);
/* pretty or compact from here on; call it before the first value */
void il_json_set_pretty(struct il_json *j, bool pretty);
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

#endif
