// SPDX-License-Identifier: MIT
/*
 * The common envelope every program writes around its JSON results
 * (CONVENTIONS.md, "JSON results"): schema version, program, version,
 * command line, start and end times, the build's features and the kernel
 * fingerprint.
 *
 * It sits in sys/ rather than beside the writer in util/ because the
 * fingerprint is read here when the program did not pass one.  An unknown
 * kernel field is written as null rather than a made-up value, so that a
 * result read on another machine months later says what was not known.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <invlab/envelope.h>
#include <invlab/json.h>
#include <invlab/sysinfo.h>

#include "config.h"

const char *il_features(void)
{
	return
#if HAVE_LIBNUMA
		"+NUMA"
#else
		"-NUMA"
#endif
#if HAVE_LIBURING
		" +URING"
#else
		" -URING"
#endif
#if HAVE_JSON_C
		" +JSON";
#else
		" -JSON";
#endif
}

const char *il_version(void)
{
	return INVLAB_VERSION;
}

/* RFC 3339 UTC with microseconds: 2025-01-31T12:00:00.123456Z */
static int format_time(const struct timespec *ts, char *buf, size_t size)
{
	struct tm tm;
	char s[32];
	long us;

	if (!gmtime_r(&ts->tv_sec, &tm))
		return -EOVERFLOW;
	if (!strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%S", &tm))
		return -EOVERFLOW;
	us = ts->tv_nsec / 1000;
	if (us < 0 || us > 999999)
		us = 0;
	snprintf(buf, size, "%s.%06ldZ", s, us);
	return 0;
}

static void time_member(struct il_json *j, const char *key,
			const struct timespec *ts)
{
	char buf[48];

	if (!format_time(ts, buf, sizeof(buf)))
		il_json_str(j, key, buf);
	else
		il_json_null(j, key);
}

/* "" is unknown */
static void str_or_null(struct il_json *j, const char *key, const char *s)
{
	il_json_str(j, key, s && s[0] ? s : NULL);
}

/* 1 / 0 / -1 unknown */
static void tristate(struct il_json *j, const char *key, int v)
{
	if (v < 0)
		il_json_null(j, key);
	else
		il_json_bool(j, key, v > 0);
}

/* negative is unknown */
static void int_or_null(struct il_json *j, const char *key, int64_t v)
{
	if (v < 0)
		il_json_null(j, key);
	else
		il_json_int(j, key, v);
}

static void kernel_object(struct il_json *j, const struct il_sysinfo *si)
{
	il_json_begin_object(j, "kernel");
	str_or_null(j, "release", si->release);
	str_or_null(j, "version", si->version);
	str_or_null(j, "machine", si->machine);
	str_or_null(j, "hostname", si->hostname);
	str_or_null(j, "cmdline", si->cmdline);
	str_or_null(j, "config_source", si->config_source);
	tristate(j, "config_proxy_exec", si->config_proxy_exec);
	str_or_null(j, "cmdline_proxy_exec", si->cmdline_proxy_exec);
	tristate(j, "proxy_exec_active", si->proxy_exec_active);
	tristate(j, "proxy_exec_in_release", si->proxy_exec_in_release);
	str_or_null(j, "preempt_config", si->preempt_config);
	tristate(j, "preempt_dynamic", si->preempt_dynamic);
	str_or_null(j, "preempt_cmdline", si->preempt_cmdline);
	str_or_null(j, "preempt_current", si->preempt_current);
	str_or_null(j, "preempt_source", si->preempt_source);
	str_or_null(j, "preempt_version", si->preempt_version);
	int_or_null(j, "hz", si->hz);
	str_or_null(j, "hz_source", si->hz_source);
	tristate(j, "rt_group_sched", si->rt_group_sched);
	/* -1 is the kernel's own "no RT throttling" and stays -1 */
	if (si->rt_runtime_us == IL_RT_RUNTIME_UNKNOWN)
		il_json_null(j, "rt_runtime_us");
	else
		il_json_int(j, "rt_runtime_us", si->rt_runtime_us);
	int_or_null(j, "rt_period_us", si->rt_period_us);
	int_or_null(j, "fair_server_runtime_ns", si->fair_server_runtime_ns);
	int_or_null(j, "fair_server_period_ns", si->fair_server_period_ns);
	str_or_null(j, "cpu_model", si->cpu_model);
	int_or_null(j, "cpus_online", si->cpus_online);
	int_or_null(j, "numa_nodes", si->numa_nodes);
	int_or_null(j, "cgroup_version", si->cgroup_version);
	str_or_null(j, "cgroup_v2_mount", si->cgroup_v2_mount);
	str_or_null(j, "virt", si->virt);
	str_or_null(j, "hypervisor", si->hypervisor);
	tristate(j, "emulated", si->emulated);
	if (si->steal_ns == IL_STEAL_UNKNOWN)
		il_json_null(j, "steal_ns");
	else
		il_json_uint(j, "steal_ns", si->steal_ns);
	il_json_end_object(j);
}

void il_report_begin(struct il_json *j, const struct il_run_info *ri)
{
	struct il_sysinfo *own = NULL;
	const struct il_sysinfo *si;
	int i;

	if (!j)
		return;
	if (!ri) {
		if (!j->err)
			j->err = -EINVAL;
		return;
	}
	il_json_begin_object(j, NULL);
	il_json_int(j, "schema_version", IL_JSON_SCHEMA_VERSION);
	il_json_str(j, "program", ri->program);
	il_json_str(j, "version", il_version());
	il_json_begin_array(j, "command_line");
	for (i = 0; ri->argv && i < ri->argc; i++)
		il_json_str(j, NULL, ri->argv[i]);
	il_json_end_array(j);
	time_member(j, "start_time", &ri->start);
	il_json_str(j, "features", il_features());

	/* every result carries the fingerprint, read here if not given */
	si = ri->sys;
	if (!si) {
		own = malloc(sizeof(*own));
		if (own)
			il_sysinfo_read(own);
		si = own;
	}
	if (si)
		kernel_object(j, si);
	else
		il_json_null(j, "kernel");
	free(own);
}

void il_report_end(struct il_json *j, int return_code)
{
	struct timespec now;

	if (!j || j->err)
		return;
	/* members left open by the program would end up in the envelope */
	if (j->depth != 1) {
		j->err = -EINVAL;
		return;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	time_member(j, "end_time", &now);
	il_json_int(j, "return_code", return_code);
	il_json_end_object(j);
	if (!j->err && fflush(j->f))
		j->err = -errno;
}
