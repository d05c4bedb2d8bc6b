/* SPDX-License-Identifier: MIT */
/*
 * The kernel fingerprint recorded with every result, so results from two
 * kernels (or two boots of one) can be told apart and compared: release,
 * command line, proxy-execution state, preemption model, HZ, RT throttling,
 * fair server, CPU, NUMA, cgroup layout, virtualization and steal time.
 *
 * Every field is best effort: what cannot be read is left empty ("") or
 * -1 and reported as unknown.
 */
#ifndef INVLAB_SYSINFO_H
#define INVLAB_SYSINFO_H

#include <limits.h>
#include <stdint.h>

/*
 * Unknown markers where -1 does not fit: sched_rt_runtime_us is -1 when
 * RT throttling is off, and steal_ns is unsigned.  JSON reports both as
 * null.
 */
#define IL_RT_RUNTIME_UNKNOWN LONG_MIN
#define IL_STEAL_UNKNOWN      UINT64_MAX

struct il_sysinfo {
	char release[65];  /* uname -r */
	char version[257]; /* uname -v */
	char machine[65];  /* uname -m */
	char hostname[65];
	char cmdline[2048];	/* /proc/cmdline */
	char config_source[64]; /* "/proc/config.gz", "/boot/config-..." or ""
				 */

	/* proxy execution */
	int config_proxy_exec; /* CONFIG_SCHED_PROXY_EXEC: 1, 0, -1 unknown */
	char cmdline_proxy_exec[16]; /* value of sched_proxy_exec= or "" */
	int proxy_exec_active; /* 1 built in and not disabled, 0 no, -1 unknown
				*/

	/* preemption */
	char preempt_config[16];  /* none|voluntary|full|lazy|rt from the config
				   */
	int preempt_dynamic;	  /* CONFIG_PREEMPT_DYNAMIC: 1, 0, -1 */
	char preempt_cmdline[16]; /* value of preempt= or "" */
	char preempt_current[16]; /* debugfs sched/preempt "(x)", else derived
				   */

	int hz;		    /* CONFIG_HZ, -1 unknown */
	int rt_group_sched; /* CONFIG_RT_GROUP_SCHED: 1, 0, -1 */
	long rt_runtime_us; /* sched_rt_runtime_us: -1 = unlimited,
			       IL_RT_RUNTIME_UNKNOWN when unreadable */
	long rt_period_us;
	int64_t fair_server_runtime_ns; /* cpu0, debugfs; -1 unknown */
	int64_t fair_server_period_ns;

	char cpu_model[128];
	int cpus_online;
	int numa_nodes;
	int cgroup_version;	   /* 1, 2, or 3 for a v1/v2 hybrid; 0 none */
	char cgroup_v2_mount[128]; /* "/sys/fs/cgroup" or
				      "/sys/fs/cgroup/unified" */
	char virt[32];		   /* "kvm", "xen", ... or "none" / "" */
	uint64_t steal_ns;	   /* steal since boot, all CPUs, or
				      IL_STEAL_UNKNOWN */
};

int il_sysinfo_read(struct il_sysinfo *si);
/*
 * Steal time of one CPU (cpu >= 0) or of all (cpu < 0) since boot, from
 * /proc/stat, in ns.  Returns 0 or a negative errno.
 */
int il_steal_ns(int cpu, uint64_t *ns);

#endif
