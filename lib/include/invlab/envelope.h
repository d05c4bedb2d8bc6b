/* SPDX-License-Identifier: MIT */
/*
 * The common envelope of every JSON result: schema version, program,
 * command line, times, features and the kernel fingerprint
 * (lib/sys/envelope.c).
 */
#ifndef INVLAB_ENVELOPE_H
#define INVLAB_ENVELOPE_H

#include <time.h>

#include <invlab/json.h>
#include <invlab/sysinfo.h>

#define IL_JSON_SCHEMA_VERSION 1

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

#endif
