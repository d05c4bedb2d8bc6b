// SPDX-License-Identifier: MIT
/*
 * The kernel fingerprint: every parser behind il_sysinfo_read() fed with
 * fixtures from kernels and machines this test does not run on (proxy
 * execution built in or not, every preemption model, v1/v2/hybrid
 * cgroups, x86 and arm CPUs), then malformed and random input that must
 * not crash, then a smoke check of the live machine.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <invlab/cpu.h>
#include <invlab/sysinfo.h>

#include "../lib/sys/sysinfo-parse.h"
#include "config.h"
#include "t_util.h"

static void unknown_config(struct il_sysinfo *si)
{
	memset(si, 0, sizeof(*si));
	si->config_proxy_exec = -1;
	si->preempt_dynamic = -1;
	si->hz = -1;
	si->rt_group_sched = -1;
}

/* ------------------------------------------------------------------ */

static const char config_proxy[] =
	"#\n"
	"# Automatically generated file; DO NOT EDIT.\n"
	"# Linux/x86 6.18.0 Kernel Configuration\n"
	"#\n"
	"CONFIG_LOCALVERSION=\"-proxy\"\n"
	"CONFIG_PREEMPT_BUILD=y\n"
	"# CONFIG_PREEMPT_NONE is not set\n"
	"# CONFIG_PREEMPT_VOLUNTARY is not set\n"
	"CONFIG_PREEMPT=y\n"
	"# CONFIG_PREEMPT_LAZY is not set\n"
	"# CONFIG_PREEMPT_RT is not set\n"
	"CONFIG_PREEMPT_COUNT=y\n"
	"CONFIG_PREEMPTION=y\n"
	"CONFIG_PREEMPT_DYNAMIC=y\n"
	"CONFIG_SCHED_PROXY_EXEC=y\n"
	"# CONFIG_RT_GROUP_SCHED is not set\n"
	"CONFIG_HZ_1000=y\n"
	"CONFIG_HZ=1000\n";

/* this machine's shape: no proxy exec line at all, NONE, HZ 250, CRLF */
static const char config_plain[] =
	"CONFIG_PREEMPT_BUILD=y\r\n"
	"CONFIG_PREEMPT_NONE=y\r\n"
	"# CONFIG_PREEMPT_VOLUNTARY is not set\r\n"
	"# CONFIG_PREEMPT is not set\r\n"
	"CONFIG_PREEMPT_DYNAMIC=y\r\n"
	"CONFIG_PREEMPT_RCU=y\r\n"
	"CONFIG_RT_GROUP_SCHED=y\r\n"
	"# CONFIG_RT_GROUP_SCHED_DEFAULT_DISABLED is not set\r\n"
	"CONFIG_HZ=250"; /* no final newline */

static void test_kconfig(void)
{
	struct il_sysinfo si;
	char v[32];
	static const struct {
		const char *text, *model;
	} models[] = {
		{ "CONFIG_PREEMPT_NONE=y\n# CONFIG_PREEMPT is not set\n",
		  "none" },
		{ "# CONFIG_PREEMPT_NONE is not set\n"
		  "CONFIG_PREEMPT_VOLUNTARY=y\n",
		  "voluntary" },
		{ "CONFIG_PREEMPT=y\nCONFIG_PREEMPT_RCU=y\n", "full" },
		{ "# CONFIG_PREEMPT is not set\nCONFIG_PREEMPT_LAZY=y\n",
		  "lazy" },
		/* 6.12+: RT on top of the FULL model */
		{ "CONFIG_PREEMPT=y\nCONFIG_PREEMPT_RT=y\n", "rt" },
		{ "CONFIG_PREEMPT_LAZY=y\nCONFIG_PREEMPT_RT=y\n", "rt" },
		{ "CONFIG_PREEMPT_RT_FULL=y\n", "rt" },
		/* neither PREEMPT_BUILD nor PREEMPT_COUNT is PREEMPT */
		{ "CONFIG_PREEMPT_BUILD=y\nCONFIG_PREEMPT_COUNT=y\n", "" },
	};
	size_t i;

	t_check_int(__il_kconfig_value(config_proxy, "CONFIG_HZ", v, sizeof(v)),
		    1);
	t_check_str(v, "1000");
	t_check_int(__il_kconfig_value(config_proxy, "CONFIG_LOCALVERSION", v,
				       sizeof(v)),
		    1);
	t_check_str(v, "\"-proxy\"");
	t_check_int(__il_kconfig_value(config_proxy, "CONFIG_RT_GROUP_SCHED", v,
				       sizeof(v)),
		    0);
	t_check_str(v, "");
	t_check_int(
		__il_kconfig_value(config_proxy, "CONFIG_NOPE", v, sizeof(v)),
		0);
	t_check_int(__il_kconfig_value(config_plain, "CONFIG_HZ", v, sizeof(v)),
		    1);
	t_check_str(v, "250");
	/* a value longer than the buffer is cut, not overflowed */
	t_check_int(
		__il_kconfig_value(config_proxy, "CONFIG_LOCALVERSION", v, 4),
		1);
	t_check_str(v, "\"-p");
	t_check_int(__il_kconfig_value(NULL, "CONFIG_HZ", v, sizeof(v)),
		    -EINVAL);

	unknown_config(&si);
	__il_kconfig_parse(config_proxy, &si);
	t_check_int(si.config_proxy_exec, 1);
	t_check_str(si.preempt_config, "full");
	t_check_int(si.preempt_dynamic, 1);
	t_check_int(si.rt_group_sched, 0);
	t_check_int(si.hz, 1000);

	unknown_config(&si);
	__il_kconfig_parse(config_plain, &si);
	t_check_int(si.config_proxy_exec, 0); /* absent from a full config */
	t_check_str(si.preempt_config, "none");
	t_check_int(si.preempt_dynamic, 1);
	t_check_int(si.rt_group_sched, 1);
	t_check_int(si.hz, 250);

	unknown_config(&si);
	__il_kconfig_parse(
		"# CONFIG_SCHED_PROXY_EXEC is not set\nCONFIG_HZ=100\n", &si);
	t_check_int(si.config_proxy_exec, 0);
	t_check_int(si.preempt_dynamic, 0);
	t_check_int(si.hz, 100);

	for (i = 0; i < sizeof(models) / sizeof(models[0]); i++) {
		unknown_config(&si);
		__il_kconfig_parse(models[i].text, &si);
		t_check_str(si.preempt_config, models[i].model);
	}

	/* not a config: nothing learned, nothing guessed */
	unknown_config(&si);
	__il_kconfig_parse("", &si);
	__il_kconfig_parse("garbage\nmore garbage", &si);
	__il_kconfig_parse(NULL, &si);
	t_check_int(si.config_proxy_exec, -1);
	t_check_int(si.hz, -1);
	t_check_str(si.preempt_config, "");

	unknown_config(&si);
	__il_kconfig_parse("CONFIG_HZ=abc\nCONFIG_X=y\n", &si);
	t_check_int(si.hz, -1);
	__il_kconfig_parse("CONFIG_HZ=99999999999999999999\n", &si);
	t_check_int(si.hz, -1);
}

/* ------------------------------------------------------------------ */

static void test_cmdline(void)
{
	char v[16];
	static const struct {
		int config;
		const char *cmdline;
		int active;
	} pe[] = {
		{ 1, "root=/dev/vda ro", 1 },
		{ 1, "root=/dev/vda sched_proxy_exec=0", 0 },
		{ 1, "sched_proxy_exec=1 quiet", 1 },
		{ 1, "sched_proxy_exec", 1 },
		{ 1, "sched_proxy_exec=off", 0 },
		{ 1, "sched_proxy_exec=n", 0 },
		{ 1, "sched_proxy_exec=on", 1 },
		{ 1, "sched-proxy-exec=0", 0 },
		/* the kernel ignores what it cannot parse */
		{ 1, "sched_proxy_exec=maybe", 1 },
		{ 1, "sched_proxy_exec=0 sched_proxy_exec=maybe", 0 },
		{ 1, "sched_proxy_exec=", 1 },
		/* the last one wins */
		{ 1, "sched_proxy_exec=0 sched_proxy_exec=y", 1 },
		{ 1, "sched_proxy_exec=1 sched_proxy_exec=0", 0 },
		/* init's arguments and quoted values are not parameters */
		{ 1, "quiet -- sched_proxy_exec=0", 1 },
		{ 1, "foo=\"a sched_proxy_exec=0\" bar", 1 },
		{ 1, "xsched_proxy_exec=0 sched_proxy_execx=0", 1 },
		{ 0, "sched_proxy_exec=1", 0 },
		{ 0, "", 0 },
		{ -1, "quiet", -1 },
		{ -1, "sched_proxy_exec=1", -1 },
		{ -1, "sched_proxy_exec=0", 0 },
		{ 1, NULL, 1 },
	};
	size_t i;

	t_check_int(__il_cmdline_param("a=1 preempt=full b", "preempt", v,
				       sizeof(v)),
		    1);
	t_check_str(v, "full");
	t_check_int(__il_cmdline_param("preempt=none preempt=\"lazy\"",
				       "preempt", v, sizeof(v)),
		    1);
	t_check_str(v, "lazy");
	t_check_int(__il_cmdline_param("\"preempt=voluntary\"", "preempt", v,
				       sizeof(v)),
		    1);
	t_check_str(v, "voluntary");
	t_check_int(__il_cmdline_param("sched_proxy_exec=0 preempt=full",
				       "sched_proxy_exec", v, sizeof(v)),
		    1);
	t_check_str(v, "0");
	t_check_int(__il_cmdline_param("sched_proxy_exec", "sched_proxy_exec",
				       v, sizeof(v)),
		    1);
	t_check_str(v, "");
	t_check_int(__il_cmdline_param("\tquiet\n", "preempt", v, sizeof(v)),
		    0);
	t_check_str(v, "");
	t_check_int(
		__il_cmdline_param("-- preempt=full", "preempt", v, sizeof(v)),
		0);
	t_check_int(__il_cmdline_param("", "preempt", v, sizeof(v)), 0);
	t_check_int(__il_cmdline_param("\"", "preempt", v, sizeof(v)), 0);
	t_check_int(__il_cmdline_param("preempt=\"", "preempt", v, sizeof(v)),
		    1);
	t_check_str(v, "");
	t_check_int(__il_cmdline_param("preempt=0123456789abcdefXYZ", "preempt",
				       v, sizeof(v)),
		    1);
	t_check_str(v, "0123456789abcde");

	for (i = 0; i < sizeof(pe) / sizeof(pe[0]); i++) {
		int got = __il_proxy_exec_state(pe[i].config, pe[i].cmdline);

		if (got != pe[i].active)
			fprintf(stderr, "proxy exec: config %d, \"%s\"\n",
				pe[i].config,
				pe[i].cmdline ? pe[i].cmdline : "(null)");
		t_check_int(got, pe[i].active);
	}
}

/* ------------------------------------------------------------------ */

static void test_preempt(void)
{
	char out[16];
	bool b;

	t_check_int(__il_parse_debugfs_preempt("none voluntary (full) lazy\n",
					       out, sizeof(out)),
		    0);
	t_check_str(out, "full");
	t_check_int(__il_parse_debugfs_preempt("(none) voluntary full\n", out,
					       sizeof(out)),
		    0);
	t_check_str(out, "none");
	t_check_int(__il_parse_debugfs_preempt("none voluntary full", out,
					       sizeof(out)),
		    -ENODATA);
	t_check_int(__il_parse_debugfs_preempt("none (full", out, sizeof(out)),
		    -ENODATA);
	t_check_int(__il_parse_debugfs_preempt("()", out, sizeof(out)),
		    -ENODATA);

	/* debugfs wins, then preempt= on a dynamic kernel, then the config */
	__il_preempt_current("none (voluntary) full", "full", "none", 1, out,
			     sizeof(out));
	t_check_str(out, "voluntary");
	__il_preempt_current(NULL, "full", "none", 1, out, sizeof(out));
	t_check_str(out, "full");
	__il_preempt_current(NULL, "full", "none", 0, out, sizeof(out));
	t_check_str(out, "none");
	__il_preempt_current(NULL, "bogus", "voluntary", 1, out, sizeof(out));
	t_check_str(out, "voluntary");
	__il_preempt_current("unreadable", "", "lazy", 1, out, sizeof(out));
	t_check_str(out, "lazy");
	__il_preempt_current(NULL, "", "", -1, out, sizeof(out));
	t_check_str(out, "");

	t_check(!__il_kstrtobool("Yes", &b) && b);
	t_check(!__il_kstrtobool("0", &b) && !b);
	t_check(!__il_kstrtobool("oFf", &b) && !b);
	t_check(!__il_kstrtobool("true", &b) && b);
	t_check_int(__il_kstrtobool("o", &b), -EINVAL);
	t_check_int(__il_kstrtobool("", &b), -EINVAL);
	t_check_int(__il_kstrtobool("2", &b), -EINVAL);
}

/* ------------------------------------------------------------------ */

static const char proc_stat[] = "cpu  2488 0 1473 73370 423 0 79 125 0 0\n"
				"cpu0 794 0 562 37536 15 0 17 55 0 0\n"
				"cpu1 1693 0 910 35834 408 0 62 70 0 0\n"
				"cpu10 1 1 1 1 1 1 1 999 0 0\n"
				"intr 1234 5 6 7\n"
				"ctxt 99\n";

static void test_stat(void)
{
	uint64_t t = 0;

	t_check_int(__il_stat_steal_ticks(proc_stat, -1, &t), 0);
	t_check_int(t, 125);
	t_check_int(__il_stat_steal_ticks(proc_stat, 0, &t), 0);
	t_check_int(t, 55);
	t_check_int(__il_stat_steal_ticks(proc_stat, 1, &t), 0);
	t_check_int(t, 70);
	t_check_int(__il_stat_steal_ticks(proc_stat, 10, &t), 0);
	t_check_int(t, 999);
	t_check_int(__il_stat_steal_ticks(proc_stat, 2, &t), -ENOENT);
	/* before 2.6.11 there was no steal column */
	t_check_int(__il_stat_steal_ticks("cpu  1 2 3 4 5 6 7\n", -1, &t),
		    -ENODATA);
	/* truncated mid-line: the next line's numbers are not borrowed */
	t_check_int(__il_stat_steal_ticks("cpu  1 2 3 4\n5 6 7 8 9\n", -1, &t),
		    -ENODATA);
	t_check_int(__il_stat_steal_ticks("cpu0 1 2 3 4 5 6 7 8", -1, &t),
		    -ENOENT);
	t_check_int(__il_stat_steal_ticks("", -1, &t), -ENOENT);
	t_check_int(__il_stat_steal_ticks("cpu  1 2 3 4 5 6 7 "
					  "99999999999999999999999\n",
					  -1, &t),
		    -ENODATA);

	t_check_int(__il_ticks_to_ns(125, 100), 1250000000);
	t_check_int(__il_ticks_to_ns(3, 300), 10000000);
	t_check_int(__il_ticks_to_ns(1, 0), 10000000); /* falls back to 100 */
	/* a year of ticks at 1000 Hz does not overflow the intermediate */
	t_check_int(__il_ticks_to_ns(31536000000ull, 1000),
		    31536000000000000ll);
}

/* ------------------------------------------------------------------ */

static const char mi_v2[] =
	"22 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw\n"
	"30 22 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 "
	"- "
	"cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n";

static const char mi_v1[] =
	"22 1 259:2 / / rw,relatime - ext4 /dev/sda1 rw\n"
	"31 22 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime shared:9 - cgroup "
	"cgroup rw,cpu,cpuacct\n"
	"34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup "
	"rw,cpuset\n"
	"40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup "
	"rw,xattr,name=systemd\n";

/* this machine */
static const char mi_hybrid[] =
	"31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
	"35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup "
	"rw,memory\n"
	"40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup "
	"rw,name=systemd\n"
	"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 "
	"rw\n";

/* systemd "legacy" with a named v1 hierarchy only: controllers are in v2 */
static const char mi_v2_named_v1[] =
	"30 22 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n"
	"40 30 0:37 / /run/sd rw - cgroup cgroup rw,name=systemd\n";

static void test_mountinfo(void)
{
	char m[128];

	t_check_int(__il_mountinfo_cgroup(mi_v2, m, sizeof(m)), 2);
	t_check_str(m, "/sys/fs/cgroup");
	t_check_int(__il_mountinfo_cgroup(mi_v1, m, sizeof(m)), 1);
	t_check_str(m, "");
	t_check_int(__il_mountinfo_cgroup(mi_hybrid, m, sizeof(m)), 3);
	t_check_str(m, "/sys/fs/cgroup/unified");
	t_check_int(__il_mountinfo_cgroup(mi_v2_named_v1, m, sizeof(m)), 2);
	t_check_int(__il_mountinfo_cgroup("", m, sizeof(m)), 0);
	t_check_int(__il_mountinfo_cgroup(NULL, m, sizeof(m)), 0);

	/* a container's bind mount first, the canonical mount later */
	t_check_int(__il_mountinfo_cgroup(
			    "50 1 0:26 /x /mnt/c\\040g rw - cgroup2 none rw\n"
			    "51 1 0:26 / /sys/fs/cgroup rw - cgroup2 none rw\n",
			    m, sizeof(m)),
		    2);
	t_check_str(m, "/sys/fs/cgroup");
	t_check_int(__il_mountinfo_cgroup(
			    "50 1 0:26 /x /mnt/c\\040g rw - cgroup2 none rw\n",
			    m, sizeof(m)),
		    2);
	t_check_str(m, "/mnt/c g");
	/* short buffer: cut, terminated */
	t_check_int(__il_mountinfo_cgroup(mi_v2, m, 5), 2);
	t_check_str(m, "/sys");

	/* broken lines are skipped, not misread */
	t_check_int(
		__il_mountinfo_cgroup(
			"1 2 3\n"
			"30 22 0:26 / /sys/fs/cgroup rw cgroup2 cgroup2 rw\n"
			"30 22 0:26 / /sys/fs/cgroup rw -\n"
			"31 22 0:26 / /x\\ rw - cgroup\n",
			m, sizeof(m)),
		1);
}

/* ------------------------------------------------------------------ */

static void test_cpuinfo(void)
{
	char model[128];
	bool hv = false;

	__il_cpuinfo_parse("processor\t: 0\n"
			   "vendor_id\t: AuthenticAMD\n"
			   "cpu family\t: 25\n"
			   "model\t\t: 1\n"
			   "model name\t: AMD EPYC 7B13 64-Core Processor  \n"
			   "cpu MHz\t\t: 2450.000\n"
			   "flags\t\t: fpu vme de hypervisor lahf_lm\n"
			   "\n"
			   "processor\t: 1\n"
			   "model name\t: something else\n",
			   model, sizeof(model), &hv);
	t_check_str(model, "AMD EPYC 7B13 64-Core Processor");
	t_check(hv);

	__il_cpuinfo_parse("model name\t: Intel(R) Xeon(R)\n"
			   "flags\t\t: fpu hypervisor_x xhypervisor\n",
			   model, sizeof(model), &hv);
	t_check_str(model, "Intel(R) Xeon(R)");
	t_check(!hv);

	/* arm64 */
	__il_cpuinfo_parse("processor\t: 0\n"
			   "BogoMIPS\t: 48.00\n"
			   "Features\t: fp asimd evtstrm\n"
			   "CPU implementer\t: 0x41\n"
			   "CPU architecture: 8\n"
			   "CPU variant\t: 0x3\n"
			   "CPU part\t: 0xd0c\n",
			   model, sizeof(model), &hv);
	t_check_str(model, "implementer 0x41 part 0xd0c");
	t_check(!hv);

	/* arm32 / Android: the SoC name at the end */
	__il_cpuinfo_parse("processor\t: 0\n"
			   "model name\t: ARMv7 Processor rev 4 (v7l)\n"
			   "CPU part\t: 0xd03\n"
			   "\n"
			   "Hardware\t: BCM2835\n",
			   model, sizeof(model), NULL);
	t_check_str(model, "ARMv7 Processor rev 4 (v7l)");
	__il_cpuinfo_parse("Processor\t: AArch64 Processor rev 4 (aarch64)\n"
			   "Hardware\t: Qualcomm Technologies, Inc SM8150\n",
			   model, sizeof(model), NULL);
	t_check_str(model, "Qualcomm Technologies, Inc SM8150");

	/* powerpc and riscv */
	__il_cpuinfo_parse("cpu\t\t: POWER9 (raw), altivec supported\n", model,
			   sizeof(model), NULL);
	t_check_str(model, "POWER9 (raw), altivec supported");
	__il_cpuinfo_parse("isa\t\t: rv64imafdc\nuarch\t\t: sifive,u74-mc\n",
			   model, sizeof(model), NULL);
	t_check_str(model, "sifive,u74-mc");

	__il_cpuinfo_parse("model name\t:\nnothing: here\n", model,
			   sizeof(model), &hv);
	t_check_str(model, "");
	__il_cpuinfo_parse("model name\t: 0123456789", model, 5, &hv);
	t_check_str(model, "0123");
}

static void test_virt(void)
{
	t_check_str(
		__il_virt_from_dmi("QEMU", "Standard PC (Q35 + ICH9, 2009)"),
		"qemu");
	t_check_str(__il_virt_from_dmi("Amazon EC2", "m5.large"), "amazon");
	t_check(__il_virt_from_dmi("Amazon EC2", "m5.metal") == NULL);
	t_check_str(__il_virt_from_dmi("Google", "Google Compute Engine"),
		    "google");
	t_check_str(
		__il_virt_from_dmi("Microsoft Corporation", "Virtual Machine"),
		"microsoft");
	t_check(__il_virt_from_dmi("Microsoft Corporation", "Surface Pro 9") ==
		NULL);
	t_check_str(__il_virt_from_dmi("VMware, Inc.", "VMware7,1"), "vmware");
	t_check_str(__il_virt_from_dmi("innotek GmbH", "VirtualBox"), "oracle");
	t_check_str(__il_virt_from_dmi("Xen", "HVM domU"), "xen");
	t_check(__il_virt_from_dmi("Dell Inc.", "PowerEdge R750") == NULL);
	t_check(__il_virt_from_dmi(NULL, NULL) == NULL);

	t_check_str(__il_virt_from_cpuid("KVMKVMKVM\0\0\0"), "kvm");
	t_check_str(__il_virt_from_cpuid("Microsoft Hv"), "microsoft");
	t_check_str(__il_virt_from_cpuid("XenVMMXenVMM"), "xen");
	t_check_str(__il_virt_from_cpuid("TCGTCGTCGTCG"), "qemu");
	t_check(__il_virt_from_cpuid("AuthenticAMD") == NULL);
	t_check(__il_virt_from_cpuid(NULL) == NULL);
}

/* ------------------------------------------------------------------ */
/* what every kernel shows: the kernels of the emulated-boot matrix     */

/* uname -v of Debian's 6.1.0-57 kernels (from their vmlinuz banners) */
static const char v_deb61[] =
	"#1 SMP PREEMPT_DYNAMIC Debian 6.1.192-3 (2026-11-26)";
static const char v_deb61_rt[] = "#1 SMP PREEMPT_RT Debian 6.1.192-3 "
				 "(2026-11-26)";
/* this machine's 6.18 */
static const char v_host618[] = "#1 SMP PREEMPT_DYNAMIC @0";

/* the relevant lines of Debian's config-6.1.0-57-amd64 */
static const char config_deb61[] =
	"#\n"
	"# Automatically generated file; DO NOT EDIT.\n"
	"# Linux/x86 6.1.192 Kernel Configuration\n"
	"#\n"
	"CONFIG_PREEMPT_BUILD=y\n"
	"# CONFIG_PREEMPT_NONE is not set\n"
	"CONFIG_PREEMPT_VOLUNTARY=y\n"
	"# CONFIG_PREEMPT is not set\n"
	"CONFIG_PREEMPT_COUNT=y\n"
	"CONFIG_PREEMPTION=y\n"
	"CONFIG_PREEMPT_DYNAMIC=y\n"
	"# CONFIG_RT_GROUP_SCHED is not set\n"
	"CONFIG_HZ_250=y\n"
	"CONFIG_HZ=250\n";

static void test_version_preempt(void)
{
	static const struct {
		const char *version, *model;
	} tab[] = {
		{ v_deb61, "dynamic" },
		{ v_deb61_rt, "rt" },
		{ v_host618, "dynamic" },
		{ "#1 SMP PREEMPT Tue Mar 5 10:00:00 UTC 2024", "full" },
		{ "#1 SMP PREEMPT_LAZY Fri Jan 9 2026", "lazy" },
		/* out-of-tree RT before 5.3 */
		{ "#1 SMP PREEMPT RT Debian 4.19.67-2 (2019-08-28)", "rt" },
		/* a none or voluntary kernel names no model */
		{ "#1 SMP Debian 5.10.209-2 (2024-01-31)", "" },
		{ "#42-Ubuntu SMP Fri Apr 1 2022", "" },
		/* whole words only */
		{ "#1 SMP PREEMPT_DYNAMICX", "" },
		{ "#1 SMP XPREEMPT", "" },
		{ "PREEMPT_RT", "rt" },
		{ "", "" },
	};
	char out[16];
	size_t i;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		__il_version_preempt(tab[i].version, out, sizeof(out));
		if (strcmp(out, tab[i].model))
			printf("# version '%s'\n", tab[i].version);
		t_check_str(out, tab[i].model);
	}
	__il_version_preempt(NULL, out, sizeof(out));
	t_check_str(out, "");
	/* a short buffer is cut, never overrun */
	__il_version_preempt(v_deb61, out, 4);
	t_check_str(out, "dyn");
}

static void test_release(void)
{
	static const struct {
		const char *release;
		int major, minor, proxy;
	} tab[] = {
		{ "6.1.0-57-amd64", 6, 1, 0 },
		{ "6.1.0-57-rt-amd64", 6, 1, 0 },
		{ "6.1.0-50-rt-amd64", 6, 1, 0 },
		{ "6.16.9-arch1-1", 6, 16, 0 },
		{ "6.17.0-rc1", 6, 17, 1 },
		{ "6.17", 6, 17, 1 },
		{ "6.18.44-fc-v669", 6, 18, 1 },
		{ "6.12.117+deb12-rt-amd64", 6, 12, 0 },
		{ "5.10.198-android12-9-00085-g226a9632f13d", 5, 10, 0 },
		{ "7.0.0", 7, 0, 1 },
		{ "10.2.0", 10, 2, 1 },
		{ "3.10.0-1160.el7.x86_64", 3, 10, 0 },
	};
	static const char *const bad[] = {
		"", "6", "6.", ".1", "x6.1", "6-1", "6.x", "123456.1",
	};
	size_t i;
	int ma = -1, mi = -1;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		t_check_int(__il_release_version(tab[i].release, &ma, &mi), 0);
		t_check_int(ma, tab[i].major);
		t_check_int(mi, tab[i].minor);
		if (__il_release_has_proxy_exec(tab[i].release) != tab[i].proxy)
			printf("# release '%s'\n", tab[i].release);
		t_check_int(__il_release_has_proxy_exec(tab[i].release),
			    tab[i].proxy);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		t_check_int(__il_release_version(bad[i], &ma, &mi), -EINVAL);
		t_check_int(__il_release_has_proxy_exec(bad[i]), -1);
	}
	t_check_int(__il_release_version(NULL, &ma, &mi), -EINVAL);
	t_check_int(__il_release_has_proxy_exec(NULL), -1);
}

static void test_hz_clock(void)
{
	/* TICK_NSEC = (10^9 + HZ/2) / HZ */
	t_check_int(__il_hz_from_res_ns(4000000), 250);
	t_check_int(__il_hz_from_res_ns(1000000), 1000);
	t_check_int(__il_hz_from_res_ns(3333333), 300);
	t_check_int(__il_hz_from_res_ns(10000000), 100);
	t_check_int(__il_hz_from_res_ns(5000000), 200);
	t_check_int(__il_hz_from_res_ns(976563), 1024);
	t_check_int(__il_hz_from_res_ns(41666667), 24);
	/* HZ=1000 on kernels that derived the tick from the PIT */
	t_check_int(__il_hz_from_res_ns(999848), 1000);
	/* no jiffy: between two HZ, the high-resolution 1 ns, nonsense */
	t_check_int(__il_hz_from_res_ns(4100000), -1);
	t_check_int(__il_hz_from_res_ns(3990000), -1);
	t_check_int(__il_hz_from_res_ns(1), -1);
	t_check_int(__il_hz_from_res_ns(0), -1);
	t_check_int(__il_hz_from_res_ns(-4000000), -1);
	t_check_int(__il_hz_from_res_ns(999999999), -1);
	t_check_int(__il_hz_from_res_ns(2000000000L), -1);
}

static void test_hypervisor(void)
{
	int emu = 7;

	/* CPUID leaf 0x40000000 */
	t_check_str(__il_hypervisor_of("KVMKVMKVM\0\0\0", NULL, NULL, NULL,
				       NULL, true, &emu),
		    "kvm");
	t_check_int(emu, 0);
	t_check_str(__il_hypervisor_of("TCGTCGTCGTCG", "QEMU",
				       "Standard PC (i440FX + PIIX, 1996)",
				       NULL, NULL, true, &emu),
		    "tcg");
	t_check_int(emu, 1);
	/* KVM under QEMU: DMI says QEMU, CPUID says which accelerator */
	t_check_str(__il_hypervisor_of("KVMKVMKVM\0\0\0", "QEMU",
				       "Standard PC (Q35 + ICH9, 2009)", NULL,
				       NULL, true, &emu),
		    "kvm");
	t_check_int(emu, 0);
	t_check_str(__il_hypervisor_of("Microsoft Hv", "Microsoft Corporation",
				       "Virtual Machine", NULL, NULL, true,
				       &emu),
		    "hyperv");
	t_check_str(__il_hypervisor_of("VMwareVMware", "VMware, Inc.",
				       "VMware7,1", NULL, NULL, true, &emu),
		    "vmware");
	t_check_str(__il_hypervisor_of("XenVMMXenVMM", "Xen", "HVM domU", NULL,
				       NULL, true, &emu),
		    "xen");
	t_check_str(__il_hypervisor_of("VBoxVBoxVBox", NULL, NULL, NULL, NULL,
				       true, &emu),
		    "virtualbox");
	t_check_int(emu, 0);
	/* Firecracker is a KVM VMM that DMI names */
	t_check_str(__il_hypervisor_of("KVMKVMKVM\0\0\0", "Firecracker",
				       "Firecracker", NULL, NULL, true, &emu),
		    "firecracker");
	t_check_int(emu, 0);

	/* no CPUID leaf (not x86, or hidden): DMI */
	t_check_str(__il_hypervisor_of(NULL, "QEMU",
				       "Standard PC (i440FX + PIIX, 1996)",
				       NULL, NULL, true, &emu),
		    "qemu");
	t_check_int(emu, -1);
	t_check_str(__il_hypervisor_of(NULL, "Firecracker", "", NULL, NULL,
				       false, &emu),
		    "firecracker");
	t_check_str(__il_hypervisor_of(NULL, "Google", "Google Compute Engine",
				       NULL, NULL, false, &emu),
		    "kvm");
	t_check_str(__il_hypervisor_of(NULL, "Amazon EC2", "m5.large", NULL,
				       NULL, false, &emu),
		    "amazon");
	t_check_str(__il_hypervisor_of(NULL, "innotek GmbH", "VirtualBox", NULL,
				       NULL, false, &emu),
		    "virtualbox");
	/* ... or the device tree (QEMU's arm "virt" machine, Xen) */
	t_check_str(__il_hypervisor_of(NULL, NULL, NULL, "linux,dummy-virt",
				       NULL, false, &emu),
		    "qemu");
	t_check_int(emu, -1);
	t_check_str(__il_hypervisor_of(NULL, NULL, NULL, "arm,vexpress",
				       "xen,xen-4.17", false, &emu),
		    "xen");
	t_check_int(emu, 0);

	/* bare metal: a vendor's own DMI and no CPUID leaf */
	t_check_str(__il_hypervisor_of(NULL, "Dell Inc.", "PowerEdge R750",
				       NULL, NULL, false, &emu),
		    "none");
	t_check_int(emu, 0);
	t_check_str(__il_hypervisor_of(NULL, "Amazon EC2", "m5.metal", NULL,
				       NULL, false, &emu),
		    "none");
	t_check_str(__il_hypervisor_of(NULL, "Microsoft Corporation",
				       "Surface Pro 9", NULL, NULL, false,
				       &emu),
		    "none");
	t_check_str(__il_hypervisor_of(NULL, "", "", "raspberrypi,4-model-b",
				       "", false, &emu),
		    "none");
	/* a guest of something unknown */
	t_check_str(__il_hypervisor_of("ZZZZZZZZZZZZ", NULL, NULL, NULL, NULL,
				       true, &emu),
		    "vm-other");
	t_check_int(emu, -1);
	t_check_str(
		__il_hypervisor_of(NULL, NULL, NULL, NULL, NULL, true, &emu),
		"vm-other");
	t_check_str(
		__il_hypervisor_of(NULL, NULL, NULL, NULL, NULL, false, NULL),
		"none");
}

static void fresh(struct il_sysinfo *si, const char *release,
		  const char *version)
{
	unknown_config(si);
	si->proxy_exec_active = -1;
	si->proxy_exec_in_release = -1;
	si->emulated = -1;
	snprintf(si->release, sizeof(si->release), "%s", release);
	snprintf(si->version, sizeof(si->version), "%s", version);
}

static void test_derive(void)
{
	struct il_sysinfo si;
	char b[40];

	/* Debian 6.1 under TCG: no config, no debugfs mounted */
	fresh(&si, "6.1.0-57-amd64", v_deb61);
	__il_sysinfo_derive(&si, "console=ttyS0", NULL, 4000000);
	t_check_str(si.preempt_version, "dynamic");
	t_check_int(si.preempt_dynamic, 1);
	t_check_str(si.preempt_config, "");
	t_check_str(si.preempt_current, "");
	t_check_str(il_sysinfo_preempt_str(&si, b, sizeof(b)), "dynamic");
	t_check_int(si.hz, 250);
	t_check_str(si.hz_source, "clock");
	t_check_int(si.proxy_exec_in_release, 0);
	t_check_int(si.config_proxy_exec, 0);
	t_check_int(si.proxy_exec_active, 0);
	t_check_str(il_sysinfo_proxy_exec_str(&si), "not in this kernel");

	/* ... with debugfs mounted (the VM's init does) */
	fresh(&si, "6.1.0-57-amd64", v_deb61);
	__il_sysinfo_derive(&si, "", "none (voluntary) full\n", 4000000);
	t_check_str(si.preempt_current, "voluntary");
	t_check_str(si.preempt_source, "debugfs");
	t_check_str(il_sysinfo_preempt_str(&si, b, sizeof(b)),
		    "voluntary (dynamic)");

	/* ... booted with preempt=full, debugfs not readable */
	fresh(&si, "6.1.0-57-amd64", v_deb61);
	snprintf(si.preempt_cmdline, sizeof(si.preempt_cmdline), "full");
	__il_sysinfo_derive(&si, "preempt=full", NULL, 4000000);
	t_check_str(si.preempt_current, "full");
	t_check_str(si.preempt_source, "cmdline");

	/* ... with its config handed in: the config's word wins */
	fresh(&si, "6.1.0-57-amd64", v_deb61);
	__il_kconfig_parse(config_deb61, &si);
	snprintf(si.config_source, sizeof(si.config_source), "x.config");
	__il_sysinfo_derive(&si, "", NULL, 1000000);
	t_check_str(si.preempt_current, "voluntary");
	t_check_str(si.preempt_source, "config");
	t_check_int(si.hz, 250);
	t_check_str(si.hz_source, "config");
	t_check_str(il_sysinfo_proxy_exec_str(&si), "not in this kernel");

	/* Debian 6.1-rt: uname -v alone says rt */
	fresh(&si, "6.1.0-57-rt-amd64", v_deb61_rt);
	__il_sysinfo_derive(&si, "", NULL, 4000000);
	t_check_str(si.preempt_version, "rt");
	t_check_str(si.preempt_config, "rt");
	t_check_str(si.preempt_current, "rt");
	t_check_str(si.preempt_source, "version");
	t_check_str(il_sysinfo_preempt_str(&si, b, sizeof(b)), "rt");
	t_check_int(si.preempt_dynamic, 0);
	t_check_int(si.hz, 250);
	t_check_int(si.proxy_exec_active, 0);

	/* an RT kernel stays rt whatever a dynamic RT kernel's debugfs says */
	fresh(&si, "6.18.0-rt", "#1 SMP PREEMPT_RT @0");
	__il_sysinfo_derive(&si, "", "(full) lazy\n", 4000000);
	t_check_str(si.preempt_current, "rt");
	t_check_int(si.preempt_dynamic, -1);

	/* 6.18 without a config: proxy execution may be there */
	fresh(&si, "6.18.44-fc-v669", v_host618);
	__il_sysinfo_derive(&si, "", NULL, 4000000);
	t_check_int(si.proxy_exec_in_release, 1);
	t_check_int(si.config_proxy_exec, -1);
	t_check_int(si.proxy_exec_active, -1);
	t_check_str(il_sysinfo_proxy_exec_str(&si), "unknown");
	fresh(&si, "6.18.44-fc-v669", v_host618);
	__il_sysinfo_derive(&si, "sched_proxy_exec=0", NULL, 4000000);
	t_check_int(si.proxy_exec_active, 0);
	t_check_str(il_sysinfo_proxy_exec_str(&si), "off");
	/* 6.18 with a config that has it / lacks it */
	fresh(&si, "6.18.44", v_host618);
	__il_kconfig_parse(config_proxy, &si);
	__il_sysinfo_derive(&si, "", NULL, -1);
	t_check_str(il_sysinfo_proxy_exec_str(&si), "on");
	fresh(&si, "6.18.44", v_host618);
	__il_kconfig_parse(config_deb61, &si);
	__il_sysinfo_derive(&si, "", NULL, -1);
	t_check_str(il_sysinfo_proxy_exec_str(&si), "not built");
	/* a backport: the config says it is built into a 6.6 */
	fresh(&si, "6.6.50-android15", "#1 SMP PREEMPT");
	__il_kconfig_parse(config_proxy, &si);
	__il_sysinfo_derive(&si, "", NULL, -1);
	t_check_int(si.proxy_exec_in_release, 0);
	t_check_str(il_sysinfo_proxy_exec_str(&si), "on");

	/* plain PREEMPT: full; not dynamic since 5.18, said so */
	fresh(&si, "6.1.0", "#1 SMP PREEMPT Tue Mar 5 2024");
	__il_sysinfo_derive(&si, "", NULL, 1000000);
	t_check_str(si.preempt_current, "full");
	t_check_str(si.preempt_source, "version");
	t_check_int(si.preempt_dynamic, 0);
	t_check_int(si.hz, 1000);
	fresh(&si, "5.15.0", "#1 SMP PREEMPT Tue Mar 5 2024");
	__il_sysinfo_derive(&si, "", NULL, 1000000);
	t_check_int(si.preempt_dynamic, -1);

	/* nothing known */
	fresh(&si, "", "");
	__il_sysinfo_derive(&si, NULL, NULL, -1);
	t_check_int(si.hz, -1);
	t_check_str(si.hz_source, "");
	t_check_str(il_sysinfo_preempt_str(&si, b, sizeof(b)), "?");
	t_check_str(il_sysinfo_proxy_exec_str(&si), "unknown");
	__il_sysinfo_derive(NULL, NULL, NULL, -1);

	/* the header's words */
	si.hypervisor[0] = '\0';
	t_check_str(il_sysinfo_hypervisor_str(&si, b, sizeof(b)), "vm=?");
	snprintf(si.hypervisor, sizeof(si.hypervisor), "tcg");
	si.emulated = 1;
	t_check_str(il_sysinfo_hypervisor_str(&si, b, sizeof(b)),
		    "vm=tcg (emulated)");
	snprintf(si.hypervisor, sizeof(si.hypervisor), "kvm");
	si.emulated = 0;
	t_check_str(il_sysinfo_hypervisor_str(&si, b, sizeof(b)), "vm=kvm");
	snprintf(si.hypervisor, sizeof(si.hypervisor), "none");
	t_check_str(il_sysinfo_hypervisor_str(&si, b, sizeof(b)), "bare metal");
	t_check_str(il_sysinfo_proxy_exec_str(NULL), "unknown");
	t_check_str(il_sysinfo_preempt_str(NULL, b, sizeof(b)), "?");
}

/* ------------------------------------------------------------------ */
/* NUMA nodes: /sys/devices/system/node/online and the kernel line      */

static void test_numa(void)
{
	struct il_sysinfo si;
	char b[24];

	/* one node, two (a --numa 2 guest), a hole, the newline sysfs ends
	 * with */
	t_check_int(__il_numa_online_count("0\n"), 1);
	t_check_int(__il_numa_online_count("0-1\n"), 2);
	t_check_int(__il_numa_online_count("0,2-3"), 3);
	t_check_int(__il_numa_online_count("0-7\n"), 8);
	t_check_int(__il_numa_online_count("0-1023"), 1024);
	t_check_int(__il_numa_online_count(""), -EINVAL);
	t_check_int(__il_numa_online_count("\n"), -EINVAL);
	t_check_int(__il_numa_online_count("node0"), -EINVAL);
	t_check_int(__il_numa_online_count("0-1024"), -EINVAL);
	t_check_int(__il_numa_online_count("1-0"), -EINVAL);

	il_sysinfo_unknown(&si);
	t_check_int(si.numa_nodes, -1);
	t_check_str(il_sysinfo_numa_str(&si, b, sizeof(b)), "? NUMA nodes");
	si.numa_nodes = 0;
	t_check_str(il_sysinfo_numa_str(&si, b, sizeof(b)), "? NUMA nodes");
	si.numa_nodes = 1;
	t_check_str(il_sysinfo_numa_str(&si, b, sizeof(b)), "1 NUMA node");
	si.numa_nodes = 2;
	t_check_str(il_sysinfo_numa_str(&si, b, sizeof(b)), "2 NUMA nodes");
	t_check_str(il_sysinfo_numa_str(NULL, b, sizeof(b)), "? NUMA nodes");
	t_check_str(il_sysinfo_numa_str(&si, NULL, 0), "? NUMA nodes");
}

/* ------------------------------------------------------------------ */
/* gzipped configs: /proc/config.gz and --kconfig                       */

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 &&
	    !fseek(f, 0, SEEK_SET)) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*len = (size_t)n;
	}
	fclose(f);
	return buf;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	t_check(f != NULL);
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

static void test_kconfig_file(const char *data)
{
	char gz[512], plain[64] = "/tmp/test-sysinfo-XXXXXX", *out = NULL;
	struct il_sysinfo si;
	size_t len = 0;
	char *raw;
	int fd;

	snprintf(gz, sizeof(gz), "%s/sysinfo/config-6.1.0-57-rt-amd64.gz",
		 data);
	raw = read_file(gz, &len);
	t_check(raw != NULL && len > 20);
	if (!raw)
		return;
#if HAVE_ZLIB
	t_check_int(__il_gunzip(raw, len, 1 << 20, &out), 0);
	t_check(out && strstr(out, "\nCONFIG_PREEMPT_RT=y\n"));
	t_check(out && strstr(out, "\nCONFIG_HZ=250\n"));
	free(out);
	/* a cut stream, a corrupt one, one longer than allowed */
	t_check_int(__il_gunzip(raw, len - 9, 1 << 20, &out), -EINVAL);
	t_check(out == NULL);
	raw[len / 2] ^= 0x55;
	t_check_int(__il_gunzip(raw, len, 1 << 20, &out), -EINVAL);
	raw[len / 2] ^= 0x55;
	t_check_int(__il_gunzip(raw, len, 64, &out), -EFBIG);
	t_check_int(__il_gunzip("CONFIG_HZ=250\n", 14, 1 << 20, &out), -EINVAL);
	t_check_int(__il_gunzip(raw, 0, 1 << 20, &out), -EINVAL);

	/* handed in gzipped: the fingerprint is the RT kernel's */
	t_check_int(il_sysinfo_use_kconfig(gz), 0);
	t_check_int(il_sysinfo_read(&si), 0);
	t_check_str(si.config_source, gz);
	t_check_str(si.preempt_config, "rt");
	t_check_str(si.preempt_current, "rt");
	t_check_int(si.hz, 250);
	t_check_str(si.hz_source, "config");
	t_check_int(si.rt_group_sched, 0);
#else
	t_check_int(__il_gunzip(raw, len, 1 << 20, &out), -ENOTSUP);
	t_check_int(il_sysinfo_use_kconfig(gz), -ENOTSUP);
#endif
	free(raw);

	/* handed in plain */
	fd = mkstemp(plain);
	t_check(fd >= 0);
	if (fd < 0)
		return;
	close(fd);
	write_text(plain, config_deb61);
	t_check_int(il_sysinfo_use_kconfig(plain), 0);
	t_check_int(il_sysinfo_read(&si), 0);
	t_check_str(si.config_source, plain);
	t_check_str(si.preempt_config, "voluntary");
	t_check_int(si.preempt_dynamic, 1);
	t_check_int(si.hz, 250);

	/* refused: not a config, missing */
	write_text(plain, "hello\n");
	t_check_int(il_sysinfo_use_kconfig(plain), -EINVAL);
	unlink(plain);
	t_check_int(il_sysinfo_use_kconfig(plain), -ENOENT);
	/* back to the kernel's own places */
	t_check_int(il_sysinfo_use_kconfig(NULL), 0);
	t_check_int(il_sysinfo_read(&si), 0);
	t_check(strcmp(si.config_source, plain) != 0);
}

/* ------------------------------------------------------------------ */

/*
 * Hostile input: one huge line, and random bytes with the characters the
 * parsers split on over-represented.  Run under valgrind or ASan to see
 * any out-of-bounds access; here, not crashing is the check.
 */
static void feed_all(const char *text)
{
	struct il_sysinfo si;
	char small[16], big[128], sig[12], *gz;
	uint64_t t;
	bool b;

	unknown_config(&si);
	__il_kconfig_parse(text, &si);
	__il_kconfig_value(text, "CONFIG_HZ", small, sizeof(small));
	__il_cmdline_param(text, "preempt", small, sizeof(small));
	__il_proxy_exec_state(1, text);
	__il_parse_debugfs_preempt(text, small, sizeof(small));
	__il_preempt_current(text, text, "none", 1, small, sizeof(small));
	__il_stat_steal_ticks(text, -1, &t);
	__il_stat_steal_ticks(text, 3, &t);
	__il_mountinfo_cgroup(text, big, sizeof(big));
	__il_cpuinfo_parse(text, big, sizeof(big), &b);
	__il_version_preempt(text, small, sizeof(small));
	__il_release_has_proxy_exec(text);
	memset(sig, 0, sizeof(sig));
	memcpy(sig, text, strnlen(text, sizeof(sig)));
	__il_hypervisor_of(sig, text, text, text, text, true, NULL);
	snprintf(si.release, sizeof(si.release), "%.64s", text);
	snprintf(si.version, sizeof(si.version), "%.256s", text);
	__il_sysinfo_derive(&si, text, text, 4000000);
	if (!__il_gunzip(text, strlen(text), 1 << 16, &gz))
		free(gz);
}

static void test_robust(void)
{
	static const char alphabet[] =
		" \t\n\"=-:()\\0123456789cpugroup2CONFIG_#";
	const size_t huge = 4 << 20;
	char *buf = malloc(huge + 1);
	uint64_t seed = 7;
	int i;

	t_check(buf != NULL);
	if (!buf)
		return;
	memset(buf, 'A', huge);
	buf[huge] = '\0';
	feed_all(buf);
	memcpy(buf, "cpu ", 4);
	memcpy(buf + 100, "CONFIG_HZ=", 10);
	feed_all(buf);
	buf[huge - 1] = '(';
	feed_all(buf);

	for (i = 0; i < 2000; i++) {
		size_t len = t_rand(&seed) % 512, k;

		for (k = 0; k < len; k++) {
			uint64_t r = t_rand(&seed);

			buf[k] = r & 1 ? alphabet[(r >> 1) %
						  (sizeof(alphabet) - 1)]
				       : (char)(r >> 8);
			if (!buf[k])
				buf[k] = ' ';
		}
		buf[len] = '\0';
		feed_all(buf);
	}
	free(buf);
	t_check(true);
}

/* ------------------------------------------------------------------ */

static void test_live(void)
{
	struct il_sysinfo si;
	struct utsname u;
	uint64_t all = 0, cpu0 = 0;

	t_check_int(il_sysinfo_read(NULL), -EINVAL);
	t_check_int(il_sysinfo_read(&si), 0);
	t_check(uname(&u) == 0);
	t_check(si.release[0] != '\0');
	t_check_str(si.release, u.release);
	t_check_str(si.machine, u.machine);
	t_check(si.cpus_online >= 1);
	t_check(si.numa_nodes >= 1);
	/* the same count the engine places tasks by */
	if (!access("/sys/devices/system/node/online", R_OK))
		t_check_int(si.numa_nodes, il_numa_nodes());
	t_check(si.cgroup_version >= 0 && si.cgroup_version <= 3);
	t_check((si.cgroup_version >= 2) == (si.cgroup_v2_mount[0] != '\0'));
	t_check(si.config_proxy_exec >= -1 && si.config_proxy_exec <= 1);
	t_check(si.proxy_exec_active >= -1 && si.proxy_exec_active <= 1);
	t_check(si.config_proxy_exec != 0 || si.proxy_exec_active == 0);
	t_check(si.virt[0] != '\0');
	t_check(si.hypervisor[0] != '\0');
	t_check(si.emulated >= -1 && si.emulated <= 1);
	t_check((si.hz > 0) == (si.hz_source[0] != '\0'));
	t_check(si.proxy_exec_in_release >= -1 &&
		si.proxy_exec_in_release <= 1);
	t_check(si.rt_period_us == -1 || si.rt_period_us > 0);
	t_check(si.steal_ns != IL_STEAL_UNKNOWN);

	t_check_int(il_steal_ns(-1, &all), 0);
	t_check_int(il_steal_ns(0, &cpu0), 0);
	t_check(cpu0 <= all);
	t_check(all >= si.steal_ns); /* steal only grows */
	t_check_int(il_steal_ns(1 << 30, &all), -ENOENT);
	t_check_int(il_steal_ns(0, NULL), -EINVAL);

	printf("# release %s, config %s, proxy_exec %d/%d, preempt %s (%s, "
	       "from %s), hz %d (%s), cgroup v%d %s, virt %s, hypervisor %s "
	       "(emulated %d), steal %llu ns\n",
	       si.release, si.config_source[0] ? si.config_source : "-",
	       si.config_proxy_exec, si.proxy_exec_active, si.preempt_current,
	       si.preempt_config, si.preempt_source, si.hz, si.hz_source,
	       si.cgroup_version, si.cgroup_v2_mount, si.virt, si.hypervisor,
	       si.emulated, (unsigned long long)si.steal_ns);
}

int main(int argc, char **argv)
{
	const char *data = argc > 1 ? argv[1] : "tests/data";

	test_kconfig();
	test_cmdline();
	test_preempt();
	test_stat();
	test_mountinfo();
	test_cpuinfo();
	test_virt();
	test_version_preempt();
	test_release();
	test_hz_clock();
	test_hypervisor();
	test_numa();
	test_derive();
	test_kconfig_file(data);
	test_robust();
	test_live();
	return t_done("test-sysinfo");
}
