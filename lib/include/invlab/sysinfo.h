/* SPDX-License-Identifier: MIT */
/*
 * The kernel fingerprint recorded with every result, so results from two
 * kernels (or two boots of one) can be told apart and compared: release,
 * command line, proxy-execution state, preemption model, HZ, RT throttling,
 * fair server, CPU, NUMA, cgroup layout, virtualization and steal time.
 *
 * Every field is best effort: what cannot be read is left empty ("") or
 * -1 and reported as unknown.  Where a kernel hides its configuration
 * (no /proc/config.gz, no /boot), the fields come from what every kernel
 * shows: the preemption model from uname -v, HZ from the resolution of
 * the coarse clock, proxy execution from the release, the hypervisor
 * from CPUID and DMI (docs/kernels.md, "The fingerprint").
 */
#ifndef INVLAB_SYSINFO_H
#define INVLAB_SYSINFO_H

#include <limits.h>
#include <stddef.h>
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
	char cmdline[2048]; /* /proc/cmdline */
	/* "/proc/config.gz", "/boot/config-...", the --kconfig file, or "" */
	char config_source[256];

	/* proxy execution */
	int config_proxy_exec; /* CONFIG_SCHED_PROXY_EXEC: 1, 0, -1 unknown */
	char cmdline_proxy_exec[16]; /* value of sched_proxy_exec= or "" */
	int proxy_exec_active; /* 1 built in and not disabled, 0 no, -1 unknown
				*/
	/*
	 * Does the release have proxy execution at all (6.17 and later)?
	 * 1, 0 ("not in this kernel": config_proxy_exec and
	 * proxy_exec_active are then 0), -1 unparsable release.
	 */
	int proxy_exec_in_release;
	/*
	 * CONFIG_IRQ_TIME_ACCOUNTING: 1, 0, -1 unknown.  When 0, a task's
	 * run time as the scheduler accounts it leaves out the host's steal
	 * only (with CONFIG_PARAVIRT_TIME_ACCOUNTING), not the kernel's own
	 * interrupts: the run-time witness of a stalled CPU (trace.h).
	 */
	int config_irq_time;

	/* preemption */
	char preempt_config[16];  /* none|voluntary|full|lazy|rt from the config
				   */
	int preempt_dynamic;	  /* CONFIG_PREEMPT_DYNAMIC: 1, 0, -1 */
	char preempt_cmdline[16]; /* value of preempt= or "" */
	char preempt_current[16]; /* debugfs sched/preempt "(x)", else derived
				   */
	/* the model uname -v names: rt, dynamic, full, lazy, or "" */
	char preempt_version[16];
	/* where preempt_current came from: debugfs, cmdline, config, version */
	char preempt_source[16];

	int hz;		    /* CONFIG_HZ, -1 unknown */
	char hz_source[8];  /* "config", "clock" (the coarse clock's tick) */
	int rt_group_sched; /* CONFIG_RT_GROUP_SCHED: 1, 0, -1 */
	long rt_runtime_us; /* sched_rt_runtime_us: -1 = unlimited,
			       IL_RT_RUNTIME_UNKNOWN when unreadable */
	long rt_period_us;
	int64_t fair_server_runtime_ns; /* cpu0, debugfs; -1 unknown */
	int64_t fair_server_period_ns;

	char cpu_model[128];
	int cpus_online;
	/* NUMA nodes online (/sys/devices/system/node/online); 1 for a
	 * kernel without NUMA, -1 unknown (no sysfs) */
	int numa_nodes;
	int cgroup_version;	   /* 1, 2, or 3 for a v1/v2 hybrid; 0 none */
	char cgroup_v2_mount[128]; /* "/sys/fs/cgroup" or
				      "/sys/fs/cgroup/unified" */
	char virt[32];		   /* "kvm", "xen", ... or "none" / "" */
	/*
	 * What runs the vCPUs, from CPUID leaf 0x40000000 and DMI: kvm,
	 * tcg (QEMU emulating the CPU), hyperv, vmware, xen, firecracker,
	 * qemu (accelerator not known), ..., "none" on bare metal.
	 */
	char hypervisor[32];
	/*
	 * 1: the CPU is emulated (QEMU TCG): the guest cannot see the host
	 * preempt its vCPUs, so timing is not the kernel's alone; 0 not,
	 * -1 unknown.  Recorded, not judged.
	 */
	int emulated;
	uint64_t steal_ns; /* steal since boot, all CPUs, or
			      IL_STEAL_UNKNOWN */
};

int il_sysinfo_read(struct il_sysinfo *si);
/*
 * A fingerprint of nothing known: every string empty, every number and
 * tristate -1 (or its unknown marker), so that every field reads as null
 * in JSON.  il_sysinfo_read starts from it; a fingerprint made from
 * elsewhere (an imported result) fills in only what its source says.
 */
void il_sysinfo_unknown(struct il_sysinfo *si);
/*
 * Read the kernel config from path in every later il_sysinfo_read() of
 * this process, ahead of /proc/config.gz and /boot (the option --kconfig:
 * a VM runner hands in the config of the kernel it booted).  The file is
 * read and checked now: 0, -errno when it cannot be read, -EINVAL when it
 * holds no CONFIG_ line.  NULL goes back to the kernel's own places.  Not
 * thread-safe: call it before any thread reads the fingerprint.
 */
int il_sysinfo_use_kconfig(const char *path);
/*
 * The preemption model as the report header shows it: "voluntary
 * (dynamic)", "rt", "full", "dynamic" (model unknown), or "?".
 */
const char *il_sysinfo_preempt_str(const struct il_sysinfo *si, char *buf,
				   size_t size);
/* "on", "off", "not built", "not in this kernel" or "unknown" */
const char *il_sysinfo_proxy_exec_str(const struct il_sysinfo *si);
/* "vm=tcg (emulated)", "vm=kvm", "bare metal", "vm=?" (unknown) */
const char *il_sysinfo_hypervisor_str(const struct il_sysinfo *si, char *buf,
				      size_t size);
/* "1 NUMA node", "2 NUMA nodes", "? NUMA nodes" (unknown) */
const char *il_sysinfo_numa_str(const struct il_sysinfo *si, char *buf,
				size_t size);
/*
 * Steal time of one CPU (cpu >= 0) or of all (cpu < 0) since boot, from
 * /proc/stat, in ns.  Returns 0 or a negative errno.
 */
int il_steal_ns(int cpu, uint64_t *ns);

#endif
