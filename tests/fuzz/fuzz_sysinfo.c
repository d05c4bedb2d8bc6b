// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the /proc and /sys text parsers of sysinfo.c
 * (sysinfo-parse.h).
 *
 * Every parser reads the same input, so one corpus of real files
 * (/proc/cpuinfo, /proc/stat, /proc/self/mountinfo, /proc/cmdline, a
 * kernel .config, debugfs sched/preempt) reaches all of them.  Output
 * buffers are heap blocks of exactly the size passed, some of them small,
 * so a write past the end is an ASan report; every string that comes out
 * must be NUL-terminated within its buffer.
 *
 *   build-fuzz/tests/fuzz/fuzz-sysinfo tests/fuzz/corpus/sysinfo
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo-parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what)
{
	fprintf(stderr, "fuzz-sysinfo: %s\n", what);
	abort();
}

static void terminated(const char *buf, size_t size, const char *what)
{
	if (!memchr(buf, '\0', size))
		fail(what);
}

/*
 * Each name is a pass over the whole text: a few that cover a prefix of
 * another name, '-' for '_', and the empty name.  (__il_kconfig_parse
 * looks up the real symbols.)
 */
static const char *const kconfig_syms[] = { "CONFIG_PREEMPT", "C", "" };
static const char *const params[] = { "sched-proxy-exec", "preempt", "" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* one small size that varies with the input, and a roomy one */
	const size_t sizes[] = { 1 + size % 13, 256 };
	char *text, *buf;
	struct il_sysinfo si;
	uint64_t ticks;
	bool b;
	const char *v;

	text = malloc(size + 1);
	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';

	for (size_t s = 0; s < 2; s++) {
		size_t n = sizes[s];

		buf = malloc(n);
		if (!buf)
			abort();
		for (size_t i = 0; i < sizeof(kconfig_syms) / sizeof(char *);
		     i++) {
			if (__il_kconfig_value(text, kconfig_syms[i], buf, n) <
			    0)
				fail("__il_kconfig_value refused its "
				     "arguments");
			terminated(buf, n, "kconfig value");
		}
		for (size_t i = 0; i < sizeof(params) / sizeof(char *); i++) {
			if (__il_cmdline_param(text, params[i], buf, n) == 1)
				terminated(buf, n, "cmdline value");
		}
		__il_parse_debugfs_preempt(text, buf, n);
		terminated(buf, n, "debugfs preempt mode");
		__il_preempt_current(text, "full", "voluntary", 1, buf, n);
		terminated(buf, n, "current preemption");
		__il_preempt_current(NULL, text, text, (int)(size % 3) - 1, buf,
				     n);
		terminated(buf, n, "current preemption from the cmdline");
		__il_mountinfo_cgroup(text, buf, n);
		terminated(buf, n, "cgroup2 mount");
		__il_cpuinfo_parse(text, buf, n, &b);
		terminated(buf, n, "cpu model");
		free(buf);
	}

	memset(&si, 0, sizeof(si));
	__il_kconfig_parse(text, &si);
	terminated(si.preempt_config, sizeof(si.preempt_config),
		   "preempt_config");
	__il_kstrtobool(text, &b);
	for (int c = -1; c <= 1; c++)
		__il_proxy_exec_state(c, text);
	for (int cpu = -1; cpu <= 2; cpu++)
		if (!__il_stat_steal_ticks(text, cpu, &ticks))
			__il_ticks_to_ns(ticks, (long)(size % 1000) - 1);
	v = __il_virt_from_dmi(text, text);
	if (v && strlen(v) >= sizeof(si.virt))
		fail("a virtualization name longer than il_sysinfo.virt");
	if (size >= 12)
		__il_virt_from_cpuid((const char *)data);
	free(text);
	return 0;
}
