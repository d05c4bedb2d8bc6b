/* SPDX-License-Identifier: MIT */
/*
 * Text parsers behind il_sysinfo_read(), private to libinvlab.
 *
 * sysinfo.c reads files; these functions only look at text already in
 * memory, so the unit test can feed them fixtures from kernels and
 * machines it does not run on (a proxy-exec kernel, a v1-only cgroup
 * layout, an arm64 /proc/cpuinfo).  Every input is a NUL-terminated
 * string that may be truncated anywhere, hold huge lines or be empty:
 * the parsers never write outside their output buffers and fall back to
 * "unknown" rather than fail.
 */
#ifndef INVLAB_SYSINFO_PARSE_H
#define INVLAB_SYSINFO_PARSE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <invlab/sysinfo.h>

/*
 * Value of CONFIG symbol sym ("CONFIG_HZ") in a kernel .config text.
 * Returns 1 and copies the value (quotes kept) when the symbol is set,
 * 0 when it is "not set" or absent, -EINVAL on bad arguments.
 */
int __il_kconfig_value(const char *text, const char *sym, char *val,
		       size_t size);

/*
 * Fill the config-derived fields of si from a .config text:
 * config_proxy_exec, preempt_config, preempt_dynamic, hz, rt_group_sched.
 * A complete config that lacks a bool symbol means "n" (the option does
 * not exist in that kernel or its dependencies are not met).
 */
void __il_kconfig_parse(const char *text, struct il_sysinfo *si);

/*
 * Find kernel parameter name in a command line the way the kernel does:
 * '-' and '_' are the same in the name, "quoted values" may hold spaces,
 * everything after a bare "--" belongs to init, and the last occurrence
 * wins.  Returns 1 and the value without quotes ("" when the parameter
 * has no '='), or 0 when absent.
 */
int __il_cmdline_param(const char *cmdline, const char *name, char *val,
		       size_t size);

/* The kernel's kstrtobool(): 0 and *res, or -EINVAL */
int __il_kstrtobool(const char *s, bool *res);

/*
 * Is proxy execution active, given CONFIG_SCHED_PROXY_EXEC (1, 0, -1)
 * and the command line?  1, 0, or -1 unknown.
 */
int __il_proxy_exec_state(int config_proxy_exec, const char *cmdline);

/* The mode in parentheses in debugfs sched/preempt ("none (full) lazy") */
int __il_parse_debugfs_preempt(const char *text, char *out, size_t size);

/*
 * The preemption model in effect: debugfs text if any (NULL when not
 * readable), else preempt= when the kernel honours it (PREEMPT_DYNAMIC),
 * else the configured model.  Leaves "" when nothing is known.
 */
void __il_preempt_current(const char *debugfs_text, const char *cmdline_val,
			  const char *config_val, int preempt_dynamic,
			  char *out, size_t size);

/*
 * Steal time, in USER_HZ ticks, of cpu (>= 0) or of all CPUs (< 0) from
 * a /proc/stat text.  0, -ENOENT (no such cpu line) or -ENODATA (a line
 * from a kernel without the steal column, or a truncated one).
 */
int __il_stat_steal_ticks(const char *text, int cpu, uint64_t *ticks);
/* ticks of clk_tck Hz to ns, without overflowing the intermediate */
uint64_t __il_ticks_to_ns(uint64_t ticks, long clk_tck);

/*
 * The cgroup layout from a /proc/self/mountinfo text: 2 (unified),
 * 3 (hybrid: v1 controllers plus a cgroup2 mount), 1 (v1 only) or 0, and
 * the cgroup2 mount point in v2_mount ("" if none).
 */
int __il_mountinfo_cgroup(const char *text, char *v2_mount, size_t size);

/*
 * CPU model and the x86 "hypervisor" flag from a /proc/cpuinfo text.
 * The model comes from "model name" (x86), "Hardware" (arm32/Android),
 * "cpu model" (mips), "cpu" (powerpc), "uarch" (riscv), or the arm64
 * "CPU implementer"/"CPU part" pair.
 */
void __il_cpuinfo_parse(const char *text, char *model, size_t size,
			bool *hypervisor);

/*
 * How many nodes /sys/devices/system/node/online lists ("0", "0-1",
 * "0,2-3", a trailing newline allowed); -EINVAL when text is no such list.
 */
int __il_numa_online_count(const char *text);

/*
 * Virtualization names follow systemd-detect-virt (kvm, qemu, xen,
 * microsoft, vmware, oracle, amazon, google, ...), so a result can be
 * checked against that tool.  NULL when the input says nothing.
 */
const char *__il_virt_from_dmi(const char *sys_vendor, const char *product);
/* from the 12-byte CPUID leaf 0x40000000 signature */
const char *__il_virt_from_cpuid(const char sig[12]);

/*
 * What runs the vCPUs (sysinfo.h hypervisor): sig is the CPUID leaf
 * 0x40000000 signature (NULL when there is none: no hypervisor bit, or
 * not x86), vendor and product the DMI sys_vendor and product_name,
 * dt_model the first string of the device tree's root "compatible" and
 * dt_hyp that of its /hypervisor node (any may be NULL or "").  Sets
 * *emulated to 1 (TCG), 0 or -1 unknown.  hypervisor_flag is the x86
 * "hypervisor" CPU flag: a guest that names no known hypervisor is
 * "vm-other"; nothing at all is "none" (bare metal).
 */
const char *__il_hypervisor_of(const char *sig, const char *vendor,
			       const char *product, const char *dt_model,
			       const char *dt_hyp, bool hypervisor_flag,
			       int *emulated);

/* major and minor of a release ("6.1.0-50-rt-amd64"): 0 or -EINVAL */
int __il_release_version(const char *release, int *major, int *minor);
/* Has this release proxy execution (6.17 on)?  1, 0, -1 unparsable. */
int __il_release_has_proxy_exec(const char *release);

/*
 * The preemption model a uname -v names ("#1 SMP PREEMPT_DYNAMIC Debian
 * 6.1.129-1 (2025-03-08)"): "rt" (PREEMPT_RT, and "PREEMPT RT" of the
 * old RT patches), "dynamic", "lazy", "full" (plain PREEMPT), or "" when
 * it names none (a none or voluntary kernel, or an unknown format).
 */
void __il_version_preempt(const char *version, char *out, size_t size);

/*
 * HZ from the resolution of CLOCK_MONOTONIC_COARSE (one jiffy,
 * TICK_NSEC = (10^9 + HZ/2) / HZ), or -1 when res_ns is no tick.
 */
int __il_hz_from_res_ns(long res_ns);

/*
 * What every kernel shows, where the config said nothing: fill the
 * fields of si still unknown after __il_kconfig_parse() from si->release,
 * si->version, the command line, the debugfs sched/preempt text (NULL
 * when unreadable) and the coarse clock's resolution (<= 0 unknown):
 * preempt_version, preempt_config, preempt_dynamic, preempt_current and
 * preempt_source, proxy_exec_in_release, config_proxy_exec,
 * proxy_exec_active, hz and hz_source.
 */
void __il_sysinfo_derive(struct il_sysinfo *si, const char *cmdline,
			 const char *debugfs_preempt, long coarse_res_ns);

/*
 * Inflate a gzip stream of len bytes into a NUL-terminated buffer of at
 * most cap bytes (*out, to free).  0; -EINVAL not gzip or corrupt;
 * -EFBIG longer than cap; -ENOMEM; -ENOTSUP built without zlib.
 */
int __il_gunzip(const void *in, size_t len, size_t cap, char **out);

#endif
