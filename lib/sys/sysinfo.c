// SPDX-License-Identifier: MIT
/*
 * The kernel fingerprint recorded with every result (docs/theory.md section 3).
 *
 * Two runs can only be compared when we know what they ran on: whether
 * proxy execution was built in and left enabled, which preemption model
 * was in effect, how RT throttling and the fair server were set, and how
 * noisy the machine was (virtualization, steal time).  Everything here is
 * best effort: a field that cannot be read is left unknown ("" or -1)
 * instead of failing the run, because a fingerprint with a hole is still
 * worth more than no result.
 *
 * The file readers live here; the text parsers live in the second half
 * (declared in sysinfo-parse.h) so that the unit test can feed them
 * fixtures from machines it does not run on.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "config.h"

#if HAVE_ZLIB
#include <zlib.h>
#endif

#include <invlab/cpu.h>
#include <invlab/sysinfo.h>

#include "sysinfo-parse.h"

/* upper bounds for files read whole; beyond them the text is truncated */
#define CMDLINE_MAX   (64 * 1024)
#define CONFIG_MAX    (16 * 1024 * 1024)
#define CPUINFO_MAX   (1024 * 1024)
#define MOUNTINFO_MAX (16 * 1024 * 1024)
#define PROC_STAT_MAX (8 * 1024 * 1024)

/* ------------------------------------------------------------------ */
/* small string helpers                                                */

static void copy_str(char *dst, size_t size, const char *src, size_t len)
{
	if (!size)
		return;
	if (len >= size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

static void copy_cstr(char *dst, size_t size, const char *src)
{
	copy_str(dst, size, src, strlen(src));
}

/* end of the line starting at p: its '\n' or its terminating NUL */
static const char *line_end(const char *p)
{
	const char *nl = strchr(p, '\n');

	return nl ? nl : p + strlen(p);
}

static const char *next_line(const char *eol)
{
	return *eol ? eol + 1 : NULL;
}

/* trim [*s, *e) of blanks and carriage returns on both sides */
static void trim(const char **s, const char **e)
{
	while (*s < *e && isspace((unsigned char)**s))
		(*s)++;
	while (*e > *s && isspace((unsigned char)(*e)[-1]))
		(*e)--;
}

/* ------------------------------------------------------------------ */
/* kernel config                                                        */

int __il_kconfig_value(const char *text, const char *sym, char *val,
		       size_t size)
{
	size_t n;
	int found = 0;
	const char *p;

	if (!text || !sym || !val || !size)
		return -EINVAL;
	n = strlen(sym);
	val[0] = '\0';
	for (p = text; p;) {
		const char *eol = line_end(p);

		/*
		 * "CONFIG_X=v" sets it; "# CONFIG_X is not set" and absence
		 * both mean n.  Compare the whole name, so CONFIG_PREEMPT
		 * does not match CONFIG_PREEMPT_RT.
		 */
		if ((size_t)(eol - p) > n && !strncmp(p, sym, n) &&
		    p[n] == '=') {
			const char *s = p + n + 1, *e = eol;

			trim(&s, &e);
			copy_str(val, size, s, (size_t)(e - s));
			found = 1;
		} else if (!strncmp(p, "# ", 2) && (size_t)(eol - p) > n + 2 &&
			   !strncmp(p + 2, sym, n) && p[n + 2] == ' ') {
			val[0] = '\0';
			found = 0;
		}
		p = next_line(eol);
	}
	return found;
}

static int kconfig_bool(const char *text, const char *sym)
{
	char v[8];

	if (__il_kconfig_value(text, sym, v, sizeof(v)) != 1)
		return 0;
	return !strcmp(v, "y") || !strcmp(v, "m");
}

void __il_kconfig_parse(const char *text, struct il_sysinfo *si)
{
	char v[32];
	char *end;
	long hz;

	if (!text || !si)
		return;
	/*
	 * An absent bool means n only in a complete config; text without a
	 * single CONFIG_ line is not a config and tells us nothing.
	 */
	if (strncmp(text, "CONFIG_", 7) && !strstr(text, "\nCONFIG_") &&
	    !strstr(text, "# CONFIG_"))
		return;

	si->config_proxy_exec = kconfig_bool(text, "CONFIG_SCHED_PROXY_EXEC");
	si->preempt_dynamic = kconfig_bool(text, "CONFIG_PREEMPT_DYNAMIC");
	si->rt_group_sched = kconfig_bool(text, "CONFIG_RT_GROUP_SCHED");
	si->config_irq_time = kconfig_bool(text, "CONFIG_IRQ_TIME_ACCOUNTING");

	/*
	 * Since 6.12 PREEMPT_RT is a separate switch on top of the model
	 * choice (FULL or LAZY), so it must be tested first; out-of-tree RT
	 * patches before 5.3 called it PREEMPT_RT_FULL.
	 */
	if (kconfig_bool(text, "CONFIG_PREEMPT_RT") ||
	    kconfig_bool(text, "CONFIG_PREEMPT_RT_FULL"))
		copy_cstr(si->preempt_config, sizeof(si->preempt_config), "rt");
	else if (kconfig_bool(text, "CONFIG_PREEMPT_LAZY"))
		copy_cstr(si->preempt_config, sizeof(si->preempt_config),
			  "lazy");
	else if (kconfig_bool(text, "CONFIG_PREEMPT"))
		copy_cstr(si->preempt_config, sizeof(si->preempt_config),
			  "full");
	else if (kconfig_bool(text, "CONFIG_PREEMPT_VOLUNTARY"))
		copy_cstr(si->preempt_config, sizeof(si->preempt_config),
			  "voluntary");
	else if (kconfig_bool(text, "CONFIG_PREEMPT_NONE"))
		copy_cstr(si->preempt_config, sizeof(si->preempt_config),
			  "none");

	if (__il_kconfig_value(text, "CONFIG_HZ", v, sizeof(v)) == 1) {
		errno = 0;
		hz = strtol(v, &end, 10);
		if (!errno && end != v && !*end && hz > 0 && hz <= 100000)
			si->hz = (int)hz;
	}
}

/* ------------------------------------------------------------------ */
/* kernel command line                                                  */

struct param {
	const char *name;
	size_t name_len;
	const char *val; /* NULL: no '=' */
	size_t val_len;
};

/*
 * The kernel's next_arg(), without modifying the text: one token, which
 * may hold "quoted" spaces, split at its first '='; quotes around the
 * value (or the whole token) are dropped.  Returns the rest of the text,
 * or NULL at the end.
 */
static const char *next_param(const char *p, struct param *pr)
{
	const char *start, *eq = NULL;
	bool in_quote = false, quoted = false;
	size_t i;

	while (*p && isspace((unsigned char)*p))
		p++;
	if (!*p)
		return NULL;
	if (*p == '"') {
		p++;
		in_quote = quoted = true;
	}
	start = p;
	for (i = 0; p[i]; i++) {
		if (isspace((unsigned char)p[i]) && !in_quote)
			break;
		if (!eq && p[i] == '=')
			eq = p + i;
		if (p[i] == '"')
			in_quote = !in_quote;
	}
	pr->name = start;
	if (!eq) {
		pr->name_len = i;
		if (quoted && i > 0 && p[i - 1] == '"')
			pr->name_len--;
		pr->val = NULL;
		pr->val_len = 0;
	} else {
		const char *v = eq + 1, *e = p + i;

		pr->name_len = (size_t)(eq - start);
		if (v < e && *v == '"') {
			v++;
			if (e > v && e[-1] == '"')
				e--;
		} else if (quoted && e > v && e[-1] == '"') {
			e--;
		}
		pr->val = v;
		pr->val_len = (size_t)(e - v);
	}
	return p + i;
}

/* parameter names compare with '-' and '_' as the same character */
static bool param_is(const struct param *pr, const char *name)
{
	size_t i, n = strlen(name);

	if (pr->name_len != n)
		return false;
	for (i = 0; i < n; i++) {
		char a = pr->name[i] == '-' ? '_' : pr->name[i];
		char b = name[i] == '-' ? '_' : name[i];

		if (a != b)
			return false;
	}
	return true;
}

static bool param_is_end(const struct param *pr)
{
	/* a bare "--" hands the rest of the line to init */
	return !pr->val && pr->name_len == 2 && !strncmp(pr->name, "--", 2);
}

int __il_cmdline_param(const char *cmdline, const char *name, char *val,
		       size_t size)
{
	struct param pr;
	const char *p = cmdline;
	int found = 0;

	if (val && size)
		val[0] = '\0';
	if (!cmdline || !name || !val || !size)
		return 0;
	while ((p = next_param(p, &pr))) {
		if (param_is_end(&pr))
			break;
		if (!param_is(&pr, name))
			continue;
		found = 1;
		if (pr.val)
			copy_str(val, size, pr.val, pr.val_len);
		else
			val[0] = '\0';
	}
	return found;
}

int __il_kstrtobool(const char *s, bool *res)
{
	if (!s || !res)
		return -EINVAL;
	switch (s[0]) {
	case 'y':
	case 'Y':
	case 't':
	case 'T':
	case '1':
		*res = true;
		return 0;
	case 'n':
	case 'N':
	case 'f':
	case 'F':
	case '0':
		*res = false;
		return 0;
	case 'o':
	case 'O':
		if (s[1] == 'n' || s[1] == 'N') {
			*res = true;
			return 0;
		}
		if (s[1] == 'f' || s[1] == 'F') {
			*res = false;
			return 0;
		}
		break;
	default:
		break;
	}
	return -EINVAL;
}

int __il_proxy_exec_state(int config_proxy_exec, const char *cmdline)
{
	struct param pr;
	const char *p = cmdline;
	/* DEFINE_STATIC_KEY_TRUE(__sched_proxy_exec): on unless disabled */
	bool enabled = true;

	if (config_proxy_exec == 0)
		return 0;
	/*
	 * Replay setup_proxy_exec() for every occurrence: a bare parameter
	 * enables, a value is read with kstrtobool(), and an unparsable one
	 * is ignored, so the last parsable occurrence wins.
	 */
	while (p && (p = next_param(p, &pr))) {
		char v[16];
		bool b;

		if (param_is_end(&pr))
			break;
		if (!param_is(&pr, "sched_proxy_exec"))
			continue;
		if (!pr.val) {
			enabled = true;
			continue;
		}
		copy_str(v, sizeof(v), pr.val, pr.val_len);
		if (!__il_kstrtobool(v, &b))
			enabled = b;
	}
	if (!enabled)
		return 0; /* off, whether or not it was built in */
	return config_proxy_exec > 0 ? 1 : -1;
}

/* ------------------------------------------------------------------ */
/* preemption model                                                     */

static bool preempt_word_valid(const char *w)
{
	return !strcmp(w, "none") || !strcmp(w, "voluntary") ||
	       !strcmp(w, "full") || !strcmp(w, "lazy");
}

int __il_parse_debugfs_preempt(const char *text, char *out, size_t size)
{
	const char *l, *r;

	if (!text || !out || !size)
		return -EINVAL;
	out[0] = '\0';
	l = strchr(text, '(');
	if (!l)
		return -ENODATA;
	r = strchr(l + 1, ')');
	if (!r || r == l + 1)
		return -ENODATA;
	copy_str(out, size, l + 1, (size_t)(r - l - 1));
	return 0;
}

void __il_preempt_current(const char *debugfs_text, const char *cmdline_val,
			  const char *config_val, int preempt_dynamic,
			  char *out, size_t size)
{
	if (!out || !size)
		return;
	out[0] = '\0';
	if (debugfs_text &&
	    !__il_parse_debugfs_preempt(debugfs_text, out, size))
		return;
	/* preempt= is only honoured by a PREEMPT_DYNAMIC kernel */
	if (preempt_dynamic != 0 && cmdline_val &&
	    preempt_word_valid(cmdline_val)) {
		copy_cstr(out, size, cmdline_val);
		return;
	}
	if (config_val)
		copy_cstr(out, size, config_val);
}

/* ------------------------------------------------------------------ */
/* /proc/stat                                                           */

/* one unsigned decimal within a line; false at the line's end */
static bool scan_u64(const char **pp, uint64_t *v)
{
	const char *p = *pp;
	uint64_t x = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!isdigit((unsigned char)*p))
		return false;
	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');

		if (x > (UINT64_MAX - d) / 10)
			return false;
		x = x * 10 + d;
	}
	*pp = p;
	*v = x;
	return true;
}

int __il_stat_steal_ticks(const char *text, int cpu, uint64_t *ticks)
{
	const char *p;

	if (!text || !ticks)
		return -EINVAL;
	for (p = text; p; p = next_line(line_end(p))) {
		const char *q = p + 3;
		uint64_t v = 0;
		int i;

		if (strncmp(p, "cpu", 3))
			continue;
		if (cpu < 0) {
			if (*q != ' ' && *q != '\t')
				continue;
		} else {
			uint64_t n;

			if (!scan_u64(&q, &n) || n != (uint64_t)cpu ||
			    (*q != ' ' && *q != '\t'))
				continue;
		}
		/* user nice system idle iowait irq softirq steal */
		for (i = 0; i < 8; i++)
			if (!scan_u64(&q, &v))
				return -ENODATA;
		*ticks = v;
		return 0;
	}
	return -ENOENT;
}

uint64_t __il_ticks_to_ns(uint64_t ticks, long clk_tck)
{
	const uint64_t nsec = 1000000000ull;
	uint64_t hz = clk_tck > 0 ? (uint64_t)clk_tck : 100;

	return ticks / hz * nsec + ticks % hz * nsec / hz;
}

/* ------------------------------------------------------------------ */
/* mountinfo                                                            */

/* next space-separated field of [*p, end) */
static bool field(const char **p, const char *end, const char **f, size_t *len)
{
	const char *s = *p;

	while (s < end && *s == ' ')
		s++;
	if (s >= end)
		return false;
	*f = s;
	while (s < end && *s != ' ')
		s++;
	*len = (size_t)(s - *f);
	*p = s;
	return true;
}

/* mountinfo escapes space, tab, newline and backslash as \ooo */
static void unescape_path(char *dst, size_t size, const char *src, size_t len)
{
	size_t i, o = 0;

	if (!size)
		return;
	for (i = 0; i < len && o + 1 < size; i++) {
		if (src[i] == '\\' && i + 3 < len && src[i + 1] >= '0' &&
		    src[i + 1] <= '3' && src[i + 2] >= '0' &&
		    src[i + 2] <= '7' && src[i + 3] >= '0' &&
		    src[i + 3] <= '7') {
			dst[o++] = (char)(((src[i + 1] - '0') << 6) |
					  ((src[i + 2] - '0') << 3) |
					  (src[i + 3] - '0'));
			i += 3;
		} else {
			dst[o++] = src[i];
		}
	}
	dst[o] = '\0';
}

static bool has_v1_controller(const char *opts, size_t len)
{
	static const char *const ctl[] = {
		"cpu",	   "cpuacct", "cpuset",	  "memory", "devices",
		"freezer", "net_cls", "net_prio", "blkio",  "perf_event",
		"hugetlb", "pids",    "rdma",	  "misc",   "debug",
	};
	const char *p = opts, *end = opts + len;

	while (p < end) {
		const char *c = memchr(p, ',', (size_t)(end - p));
		size_t n = c ? (size_t)(c - p) : (size_t)(end - p);
		size_t i;

		for (i = 0; i < sizeof(ctl) / sizeof(ctl[0]); i++)
			if (strlen(ctl[i]) == n && !strncmp(p, ctl[i], n))
				return true;
		p += n + 1;
	}
	return false;
}

/* lower is better: where systemd and the distributions mount cgroup2 */
static int v2_mount_rank(const char *mnt)
{
	if (!strcmp(mnt, "/sys/fs/cgroup"))
		return 0;
	if (!strcmp(mnt, "/sys/fs/cgroup/unified"))
		return 1;
	return 2;
}

int __il_mountinfo_cgroup(const char *text, char *v2_mount, size_t size)
{
	const char *p;
	bool v1 = false, v1_ctl = false, v2 = false;
	int best = INT_MAX;

	if (v2_mount && size)
		v2_mount[0] = '\0';
	if (!text)
		return 0;
	for (p = text; p; p = next_line(line_end(p))) {
		const char *end = line_end(p), *q = p, *f, *mnt = NULL;
		size_t len, mnt_len = 0;
		int i;

		/* id parent major:minor root mountpoint opts [optional...] - */
		for (i = 0; i < 6 && field(&q, end, &f, &len); i++)
			if (i == 4) {
				mnt = f;
				mnt_len = len;
			}
		if (i < 6)
			continue;
		while (field(&q, end, &f, &len))
			if (len == 1 && *f == '-')
				break;
		/* fstype source superoptions */
		if (!field(&q, end, &f, &len))
			continue;
		if (len == 7 && !strncmp(f, "cgroup2", 7)) {
			char m[256];
			int r;

			unescape_path(m, sizeof(m), mnt, mnt_len);
			r = v2_mount_rank(m);
			v2 = true;
			if (r < best && v2_mount && size) {
				best = r;
				copy_cstr(v2_mount, size, m);
			}
		} else if (len == 6 && !strncmp(f, "cgroup", 6)) {
			const char *opts;
			size_t olen;

			v1 = true;
			if (field(&q, end, &f, &len) &&
			    field(&q, end, &opts, &olen) &&
			    has_v1_controller(opts, olen))
				v1_ctl = true;
		}
	}
	/*
	 * A v1 mount that holds a controller takes it away from cgroup2,
	 * wherever either is mounted: that is the hybrid layout.  A v1
	 * "name=systemd" hierarchy beside cgroup2 holds none.
	 */
	if (v2)
		return v1_ctl ? 3 : 2;
	return v1 ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* /proc/cpuinfo and virtualization                                     */

static bool has_word(const char *s, const char *e, const char *word)
{
	size_t n = strlen(word);

	while (s < e) {
		const char *w;

		while (s < e && isspace((unsigned char)*s))
			s++;
		w = s;
		while (s < e && !isspace((unsigned char)*s))
			s++;
		if ((size_t)(s - w) == n && !strncmp(w, word, n))
			return true;
	}
	return false;
}

int __il_numa_online_count(const char *text)
{
	unsigned long mask[IL_MAX_CPUS / (8 * sizeof(unsigned long))];
	char list[512], err[128];
	size_t n = strlen(text);

	/* the kernel ends the list with a newline; a bitmap list of nodes
	 * reads like one of CPUs, and nodes are below 1024 as CPUs are */
	while (n && isspace((unsigned char)text[n - 1]))
		n--;
	if (!n || n >= sizeof(list))
		return -EINVAL;
	memcpy(list, text, n);
	list[n] = '\0';
	return il_cpulist_parse(list, mask, err, sizeof(err));
}

void __il_cpuinfo_parse(const char *text, char *model, size_t size,
			bool *hypervisor)
{
	/* in order of preference */
	static const char *const keys[] = {
		"model name", "Hardware", "Processor",
		"cpu model",  "cpu",	  "uarch",
	};
	const size_t nkeys = sizeof(keys) / sizeof(keys[0]);
	size_t best = nkeys;
	char impl[32] = "", part[32] = "";
	const char *p;

	if (model && size)
		model[0] = '\0';
	if (hypervisor)
		*hypervisor = false;
	if (!text || !model || !size)
		return;
	for (p = text; p; p = next_line(line_end(p))) {
		const char *eol = line_end(p);
		const char *colon = memchr(p, ':', (size_t)(eol - p));
		const char *ks = p, *ke, *vs, *ve = eol;
		size_t k, klen;

		if (!colon)
			continue;
		ke = colon;
		vs = colon + 1;
		trim(&ks, &ke);
		trim(&vs, &ve);
		klen = (size_t)(ke - ks);
		if (klen == 5 && !strncmp(ks, "flags", 5)) {
			if (hypervisor && has_word(vs, ve, "hypervisor"))
				*hypervisor = true;
			continue;
		}
		if (vs == ve)
			continue;
		if (klen == 15 && !strncmp(ks, "CPU implementer", 15) &&
		    !impl[0]) {
			copy_str(impl, sizeof(impl), vs, (size_t)(ve - vs));
			continue;
		}
		if (klen == 8 && !strncmp(ks, "CPU part", 8) && !part[0]) {
			copy_str(part, sizeof(part), vs, (size_t)(ve - vs));
			continue;
		}
		for (k = 0; k < best; k++) {
			if (strlen(keys[k]) == klen &&
			    !strncmp(ks, keys[k], klen)) {
				copy_str(model, size, vs, (size_t)(ve - vs));
				best = k;
				break;
			}
		}
	}
	/* arm64 prints no name, only the MIDR fields */
	if (best == nkeys && impl[0] && part[0])
		snprintf(model, size, "implementer %s part %s", impl, part);
}

const char *__il_virt_from_dmi(const char *sys_vendor, const char *product)
{
	const char *v = sys_vendor ? sys_vendor : "";
	const char *p = product ? product : "";

	/* EC2 bare-metal instances ("m5.metal") carry the same vendor */
	if (!strncmp(v, "Amazon EC2", 10))
		return strstr(p, ".metal") ? NULL : "amazon";
	if (!strncmp(v, "Google", 6) &&
	    !strncmp(p, "Google Compute Engine", 21))
		return "google";
	/* Microsoft also sells laptops: only its VMs say "Virtual Machine" */
	if (!strncmp(v, "Microsoft Corporation", 21) &&
	    !strncmp(p, "Virtual Machine", 15))
		return "microsoft";
	if (!strncmp(v, "VMware", 6) || !strncmp(p, "VMware", 6))
		return "vmware";
	if (!strncmp(v, "innotek GmbH", 12) || !strncmp(p, "VirtualBox", 10))
		return "oracle";
	if (!strncmp(v, "Xen", 3) || !strncmp(p, "HVM domU", 8))
		return "xen";
	if (!strncmp(v, "Parallels", 9))
		return "parallels";
	if (!strncmp(v, "BHYVE", 5))
		return "bhyve";
	if (!strncmp(v, "Firecracker", 11) || !strncmp(p, "Firecracker", 11))
		return "amazon";
	if (!strncmp(v, "KVM", 3) || !strncmp(p, "KVM", 3))
		return "kvm";
	if (!strncmp(v, "QEMU", 4) || !strncmp(p, "QEMU", 4))
		return "qemu";
	if (!strncmp(v, "Bochs", 5))
		return "bochs";
	return NULL;
}

const char *__il_virt_from_cpuid(const char sig[12])
{
	static const struct {
		char sig[13];
		const char *name;
	} tab[] = {
		{ "KVMKVMKVM\0\0\0", "kvm" },
		/* KVM with Hyper-V enlightenments */
		{ "Linux KVM Hv", "kvm" },
		{ "TCGTCGTCGTCG", "qemu" },
		{ "Microsoft Hv", "microsoft" },
		{ "VMwareVMware", "vmware" },
		{ "XenVMMXenVMM", "xen" },
		{ "VBoxVBoxVBox", "oracle" },
		{ "bhyve bhyve ", "bhyve" },
		{ "ACRNACRNACRN", "acrn" },
		{ " lrpepyh  vr", "parallels" },
		{ "QNXQVMBSQG\0\0", "qnx" },
	};
	size_t i;

	if (!sig)
		return NULL;
	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (!memcmp(sig, tab[i].sig, 12))
			return tab[i].name;
	return NULL;
}

/* does s start with prefix p? (NULL s: no) */
static bool starts(const char *s, const char *p)
{
	return s && !strncmp(s, p, strlen(p));
}

const char *__il_hypervisor_of(const char *sig, const char *vendor,
			       const char *product, const char *dt_model,
			       const char *dt_hyp, bool hypervisor_flag,
			       int *emulated)
{
	static const struct {
		char sig[13];
		const char *name;
		int emulated;
	} tab[] = {
		{ "KVMKVMKVM\0\0\0", "kvm", 0 },
		{ "Linux KVM Hv", "kvm", 0 },
		{ "TCGTCGTCGTCG", "tcg", 1 },
		{ "Microsoft Hv", "hyperv", 0 },
		{ "VMwareVMware", "vmware", 0 },
		{ "XenVMMXenVMM", "xen", 0 },
		{ "VBoxVBoxVBox", "virtualbox", 0 },
		{ "bhyve bhyve ", "bhyve", 0 },
		{ "ACRNACRNACRN", "acrn", 0 },
		{ " lrpepyh  vr", "parallels", 0 },
		{ "QNXQVMBSQG\0\0", "qnx", 0 },
	};
	const char *name = NULL;
	int emu = -1;
	size_t i;

	if (sig)
		for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
			if (!memcmp(sig, tab[i].sig, 12)) {
				name = tab[i].name;
				emu = tab[i].emulated;
				break;
			}
	/*
	 * Firecracker is a KVM VMM: CPUID says KVM, DMI (when it has any)
	 * names the VMM, which tells more about the machine's noise.
	 */
	if (name && !strcmp(name, "kvm") &&
	    (starts(vendor, "Firecracker") || starts(product, "Firecracker")))
		name = "firecracker";
	if (!name) {
		/* no CPUID leaf (not x86, or hidden): DMI, then device tree */
		if (starts(vendor, "Firecracker") ||
		    starts(product, "Firecracker"))
			name = "firecracker", emu = 0;
		else if (starts(vendor, "QEMU") || starts(product, "QEMU") ||
			 starts(dt_model, "linux,dummy-virt"))
			name = "qemu"; /* KVM or TCG: not said */
		else if (starts(vendor, "KVM") || starts(product, "KVM") ||
			 (starts(vendor, "Google") &&
			  starts(product, "Google Compute Engine")))
			name = "kvm", emu = 0;
		else if (starts(vendor, "Microsoft Corporation") &&
			 starts(product, "Virtual Machine"))
			name = "hyperv", emu = 0;
		else if (starts(vendor, "VMware") || starts(product, "VMware"))
			name = "vmware", emu = 0;
		else if (starts(vendor, "innotek GmbH") ||
			 starts(product, "VirtualBox"))
			name = "virtualbox", emu = 0;
		else if (starts(vendor, "Xen") || starts(product, "HVM domU") ||
			 starts(dt_hyp, "xen,"))
			name = "xen", emu = 0;
		else if (starts(vendor, "Amazon EC2") && product &&
			 !strstr(product, ".metal"))
			name = "amazon", emu = 0;
		else if (starts(vendor, "Parallels"))
			name = "parallels", emu = 0;
		else if (starts(vendor, "BHYVE"))
			name = "bhyve", emu = 0;
		else if (hypervisor_flag)
			name = "vm-other";
		else
			name = "none", emu = 0;
	}
	if (emulated)
		*emulated = emu;
	return name;
}

/* one decimal number of at most 5 digits at *p; false if none */
static bool small_num(const char **p, int *v)
{
	int x = 0, n = 0;

	while (isdigit((unsigned char)**p) && n < 5) {
		x = x * 10 + (**p - '0');
		(*p)++;
		n++;
	}
	*v = x;
	return n > 0 && !isdigit((unsigned char)**p);
}

int __il_release_version(const char *release, int *major, int *minor)
{
	const char *p = release;
	int a, b;

	if (!p || !small_num(&p, &a) || *p != '.')
		return -EINVAL;
	p++;
	if (!small_num(&p, &b))
		return -EINVAL;
	if (major)
		*major = a;
	if (minor)
		*minor = b;
	return 0;
}

/* release at least a.b? 1, 0, -1 unparsable */
static int release_at_least(const char *release, int a, int b)
{
	int ma, mi;

	if (__il_release_version(release, &ma, &mi))
		return -1;
	return ma > a || (ma == a && mi >= b);
}

int __il_release_has_proxy_exec(const char *release)
{
	/* CONFIG_SCHED_PROXY_EXEC was merged for 6.17 */
	return release_at_least(release, 6, 17);
}

/* is the word w (a token between blanks) in s? */
static bool has_token(const char *s, const char *w)
{
	return has_word(s, s + strlen(s), w);
}

void __il_version_preempt(const char *version, char *out, size_t size)
{
	const char *v = version ? version : "";
	const char *model = "";

	if (!out || !size)
		return;
	/*
	 * init/Makefile (scripts/mkcompile_h before 6.1) writes one flag:
	 * PREEMPT_RT over PREEMPT_DYNAMIC over PREEMPT (since 5.18; before,
	 * a dynamic kernel said PREEMPT); none for a none or voluntary
	 * kernel.  Out-of-tree RT patches before 5.3 wrote "PREEMPT RT".
	 */
	if (has_token(v, "PREEMPT_RT") || strstr(v, " PREEMPT RT "))
		model = "rt";
	else if (has_token(v, "PREEMPT_DYNAMIC"))
		model = "dynamic";
	else if (has_token(v, "PREEMPT_LAZY"))
		model = "lazy";
	else if (has_token(v, "PREEMPT"))
		model = "full";
	copy_cstr(out, size, model);
}

int __il_hz_from_res_ns(long res_ns)
{
	long hz, tick, diff;

	if (res_ns <= 0 || res_ns > 1000000000L)
		return -1;
	hz = (1000000000L + res_ns / 2) / res_ns;
	if (hz < 10 || hz > 100000)
		return -1;
	/*
	 * TICK_NSEC of that HZ must be the resolution, within 0.02%: old
	 * kernels derived it from the PIT's rate (999848 ns at HZ=1000).
	 */
	tick = (1000000000L + hz / 2) / hz;
	diff = tick > res_ns ? tick - res_ns : res_ns - tick;
	return diff * 5000 <= res_ns ? (int)hz : -1;
}

static void set_str(char *dst, size_t size, const char *s)
{
	copy_cstr(dst, size, s);
}

void __il_sysinfo_derive(struct il_sysinfo *si, const char *cmdline,
			 const char *debugfs_preempt, long coarse_res_ns)
{
	const char *pv;
	char dfs[16];
	int hz;

	if (!si)
		return;
	__il_version_preempt(si->version, si->preempt_version,
			     sizeof(si->preempt_version));
	pv = si->preempt_version;

	/* the config, when read, has the last word; uname -v fills holes */
	if (!si->preempt_config[0]) {
		if (!strcmp(pv, "rt"))
			set_str(si->preempt_config, sizeof(si->preempt_config),
				"rt");
		else if (!strcmp(pv, "lazy"))
			set_str(si->preempt_config, sizeof(si->preempt_config),
				"lazy");
		else if (!strcmp(pv, "full"))
			set_str(si->preempt_config, sizeof(si->preempt_config),
				"full");
	}
	if (si->preempt_dynamic < 0) {
		if (!strcmp(pv, "dynamic"))
			si->preempt_dynamic = 1;
		else if (!strcmp(pv, "full") &&
			 release_at_least(si->release, 5, 18) == 1)
			si->preempt_dynamic = 0;
		/* PREEMPT_DYNAMIC depended on !PREEMPT_RT before 6.12 */
		else if (!strcmp(pv, "rt") &&
			 release_at_least(si->release, 6, 12) == 0)
			si->preempt_dynamic = 0;
	}

	si->preempt_source[0] = '\0';
	if (!strcmp(si->preempt_config, "rt")) {
		/*
		 * An RT kernel is "rt" whatever full/lazy choice a dynamic
		 * RT kernel (6.13 on) shows: its locks and interrupts are
		 * what change the bounds.
		 */
		set_str(si->preempt_current, sizeof(si->preempt_current), "rt");
		set_str(si->preempt_source, sizeof(si->preempt_source),
			pv[0] && !strcmp(pv, "rt") && !si->config_source[0]
				? "version"
				: "config");
	} else {
		__il_preempt_current(debugfs_preempt, si->preempt_cmdline,
				     si->preempt_config, si->preempt_dynamic,
				     si->preempt_current,
				     sizeof(si->preempt_current));
		if (si->preempt_current[0]) {
			const char *src = "config";

			if (debugfs_preempt &&
			    !__il_parse_debugfs_preempt(debugfs_preempt, dfs,
							sizeof(dfs)))
				src = "debugfs";
			else if (si->preempt_dynamic != 0 &&
				 !strcmp(si->preempt_current,
					 si->preempt_cmdline))
				src = "cmdline";
			else if (!si->config_source[0])
				src = "version";
			set_str(si->preempt_source, sizeof(si->preempt_source),
				src);
		}
	}

	si->proxy_exec_in_release = __il_release_has_proxy_exec(si->release);
	/* a config that has it wins: a backport to an older release */
	if (si->config_proxy_exec < 0 && si->proxy_exec_in_release == 0)
		si->config_proxy_exec = 0;
	si->proxy_exec_active = __il_proxy_exec_state(
		si->config_proxy_exec, cmdline ? cmdline : si->cmdline);

	if (si->hz > 0) {
		set_str(si->hz_source, sizeof(si->hz_source), "config");
	} else {
		hz = __il_hz_from_res_ns(coarse_res_ns);
		si->hz = hz;
		set_str(si->hz_source, sizeof(si->hz_source),
			hz > 0 ? "clock" : "");
	}
}

int __il_gunzip(const void *in, size_t len, size_t cap, char **out)
{
#if HAVE_ZLIB
	z_stream zs;
	size_t alloc = 64 * 1024, used = 0;
	char *buf;
	int zr, ret = 0;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!in || !len || cap < 2)
		return -EINVAL;
	if (alloc > cap)
		alloc = cap;
	buf = malloc(alloc);
	if (!buf)
		return -ENOMEM;
	memset(&zs, 0, sizeof(zs));
	/* 16 + MAX_WBITS: a gzip header and trailer, checked */
	if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
		free(buf);
		return -ENOMEM;
	}
	zs.next_in = (Bytef *)(uintptr_t)in;
	for (;;) {
		uInt chunk = len > UINT_MAX ? UINT_MAX : (uInt)len;

		if (!zs.avail_in && len) {
			zs.avail_in = chunk;
			len -= chunk;
		}
		if (used + 1 >= alloc) {
			char *nb;

			if (alloc >= cap) {
				ret = -EFBIG;
				break;
			}
			alloc = alloc * 2 > cap ? cap : alloc * 2;
			nb = realloc(buf, alloc);
			if (!nb) {
				ret = -ENOMEM;
				break;
			}
			buf = nb;
		}
		zs.next_out = (Bytef *)buf + used;
		zs.avail_out = (uInt)(alloc - 1 - used);
		zr = inflate(&zs, Z_NO_FLUSH);
		used = (size_t)((char *)zs.next_out - buf);
		if (zr == Z_STREAM_END)
			break;
		if (zr == Z_MEM_ERROR) {
			ret = -ENOMEM;
			break;
		}
		if (zr != Z_OK && zr != Z_BUF_ERROR) {
			ret = -EINVAL;
			break;
		}
		/* no progress and nothing left to feed: truncated stream */
		if (zr == Z_BUF_ERROR && !zs.avail_in && !len && zs.avail_out) {
			ret = -EINVAL;
			break;
		}
	}
	inflateEnd(&zs);
	if (ret) {
		free(buf);
		return ret;
	}
	buf[used] = '\0';
	*out = buf;
	return 0;
#else
	if (out)
		*out = NULL;
	(void)in;
	(void)len;
	(void)cap;
	return -ENOTSUP;
#endif
}

/* ------------------------------------------------------------------ */
/* file readers                                                         */

/* read up to size-1 bytes of a small file; length or -errno */
static ssize_t read_text(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	int fd, err;

	if (!size)
		return -EINVAL;
	buf[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len + 1 < size) {
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			close(fd);
			buf[0] = '\0';
			return err;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return (ssize_t)len;
}

/*
 * Read from fd into a growing, NUL-terminated buffer of at most cap
 * bytes (*len without the NUL); longer input is truncated (*truncated
 * set).  With timeout_ms >= 0 the whole read has that deadline.  0 or
 * -errno.
 */
static int read_fd_alloc(int fd, size_t cap, int timeout_ms, char **out,
			 size_t *lenp, bool *truncated)
{
	size_t len = 0, alloc = 64 * 1024;
	char *buf = malloc(alloc);
	struct timespec t0;

	*out = NULL;
	if (truncated)
		*truncated = false;
	if (!buf)
		return -ENOMEM;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		ssize_t n;

		if (len + 1 >= alloc) {
			char *nb;

			if (alloc >= cap) {
				if (truncated)
					*truncated = true;
				break;
			}
			alloc = alloc * 2 > cap ? cap : alloc * 2;
			nb = realloc(buf, alloc);
			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
		}
		if (timeout_ms >= 0) {
			struct pollfd pfd = { .fd = fd, .events = POLLIN };
			struct timespec now;
			long left;
			int r;

			clock_gettime(CLOCK_MONOTONIC, &now);
			left = timeout_ms -
			       ((now.tv_sec - t0.tv_sec) * 1000 +
				(now.tv_nsec - t0.tv_nsec) / 1000000);
			if (left <= 0) {
				free(buf);
				return -ETIMEDOUT;
			}
			r = poll(&pfd, 1, (int)left);
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0) {
				int err = -errno;

				free(buf);
				return err;
			}
			if (!r)
				continue;
		}
		n = read(fd, buf + len, alloc - 1 - len);
		if (n < 0) {
			int err = -errno;

			if (errno == EINTR)
				continue;
			free(buf);
			return err;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	*out = buf;
	if (lenp)
		*lenp = len;
	return 0;
}

static int read_alloc_len(const char *path, size_t cap, char **out, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret;

	*out = NULL;
	if (fd < 0)
		return -errno;
	ret = read_fd_alloc(fd, cap, -1, out, len, NULL);
	close(fd);
	return ret;
}

static int read_alloc(const char *path, size_t cap, char **out)
{
	return read_alloc_len(path, cap, out, NULL);
}

static int read_long(const char *path, long *v)
{
	char buf[64], *end;
	ssize_t n = read_text(path, buf, sizeof(buf));
	long x;

	if (n < 0)
		return (int)n;
	errno = 0;
	x = strtol(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n'))
		return -EINVAL;
	*v = x;
	return 0;
}

static int read_line(const char *path, char *buf, size_t size)
{
	ssize_t n = read_text(path, buf, size);
	const char *s = buf, *e;

	if (n < 0)
		return (int)n;
	e = buf + n;
	trim(&s, &e);
	memmove(buf, s, (size_t)(e - s));
	buf[e - s] = '\0';
	return 0;
}

/* ------------------------------------------------------------------ */
/* the kernel config                                                    */

/* the --kconfig file, set once before any fingerprint is read */
static const char *kconfig_path;

static bool is_config(const char *text)
{
	return !strncmp(text, "CONFIG_", 7) || strstr(text, "\nCONFIG_") ||
	       strstr(text, "# CONFIG_");
}

/*
 * A config file, plain (a .config, /boot/config-*) or gzipped (a copy
 * of /proc/config.gz): the gzip magic tells which.
 */
static int read_config_file(const char *path, char **text)
{
	size_t len = 0;
	char *raw;
	int ret = read_alloc_len(path, CONFIG_MAX, &raw, &len);

	*text = NULL;
	if (ret)
		return ret;
	if (len >= 2 && (unsigned char)raw[0] == 0x1f &&
	    (unsigned char)raw[1] == 0x8b) {
		ret = __il_gunzip(raw, len, CONFIG_MAX, text);
		free(raw);
		if (ret)
			return ret;
	} else {
		*text = raw;
	}
	if (!is_config(*text)) {
		free(*text);
		*text = NULL;
		return -EINVAL;
	}
	return 0;
}

int il_sysinfo_use_kconfig(const char *path)
{
	char *text;
	int ret;

	if (!path) {
		kconfig_path = NULL;
		return 0;
	}
	ret = read_config_file(path, &text);
	if (ret)
		return ret;
	free(text);
	kconfig_path = path;
	return 0;
}

static void read_config(struct il_sysinfo *si)
{
	char path[128];
	char *text = NULL;

	/*
	 * A file handed in (--kconfig) first: whoever booted the kernel
	 * knows its config.  Then /proc/config.gz, the running kernel's
	 * own, while /boot/config-<release> goes stale when a tester
	 * rebuilds with the same release string (the proxy-exec on/off
	 * comparison is exactly that); /boot is the fallback when
	 * IKCONFIG_PROC is off (Debian) or the build has no zlib.
	 */
	if (kconfig_path && !read_config_file(kconfig_path, &text)) {
		copy_cstr(si->config_source, sizeof(si->config_source),
			  kconfig_path);
	} else if (!read_config_file("/proc/config.gz", &text)) {
		copy_cstr(si->config_source, sizeof(si->config_source),
			  "/proc/config.gz");
	} else {
		snprintf(path, sizeof(path), "/boot/config-%s", si->release);
		if (!si->release[0] || read_config_file(path, &text))
			return;
		copy_cstr(si->config_source, sizeof(si->config_source), path);
	}
	__il_kconfig_parse(text, si);
	free(text);
}

/* ------------------------------------------------------------------ */
/* debugfs                                                              */

#define DEBUGFS		 "/sys/kernel/debug"
#define DEBUGFS_MAGIC_NR 0x64626720
#define DEBUGFS_CHILD_MS 2000
#define DBG_PREEMPT	 DEBUGFS "/sched/preempt"
#define DBG_FS_RUNTIME	 DEBUGFS "/sched/fair_server/cpu0/runtime"
#define DBG_FS_PERIOD	 DEBUGFS "/sched/fair_server/cpu0/period"

struct dbg {
	char preempt[128];	    /* "" unreadable */
	long fs_runtime, fs_period; /* -1 unreadable */
};

static void dbg_read(struct dbg *d)
{
	long v;

	if (read_text(DBG_PREEMPT, d->preempt, sizeof(d->preempt)) <= 0)
		d->preempt[0] = '\0';
	if (!read_long(DBG_FS_RUNTIME, &v) && v >= 0)
		d->fs_runtime = v;
	if (!read_long(DBG_FS_PERIOD, &v) && v > 0)
		d->fs_period = v;
}

static bool debugfs_mounted(void)
{
	struct statfs st;

	return !statfs(DEBUGFS, &st) &&
	       (unsigned long)st.f_type == DEBUGFS_MAGIC_NR;
}

static void put_all(int fd, const char *s, size_t len)
{
	while (len) {
		ssize_t n = write(fd, s, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		s += n;
		len -= (size_t)n;
	}
}

/*
 * In the child: a mount namespace of its own, private so that nothing
 * propagates back, debugfs mounted there, the files written to the pipe
 * as one "key value" line each.  Its mounts end with it: nothing to undo,
 * even when it is killed.
 */
static void __attribute__((noreturn)) dbg_child(int wfd)
{
	static const char *const files[] = { DBG_PREEMPT, DBG_FS_RUNTIME,
					     DBG_FS_PERIOD };
	char buf[128];
	size_t i;

	if (unshare(CLONE_NEWNS) ||
	    mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) ||
	    mount("debugfs", DEBUGFS, "debugfs",
		  MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL))
		_exit(1);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		ssize_t n = read_text(files[i], buf, sizeof(buf));
		char *nl;

		if (n <= 0)
			continue;
		nl = memchr(buf, '\n', (size_t)n);
		if (nl)
			n = nl - buf;
		put_all(wfd, i == 0 ? "P " : i == 1 ? "R " : "T ", 2);
		put_all(wfd, buf, (size_t)n);
		put_all(wfd, "\n", 1);
	}
	_exit(0);
}

static void dbg_parse_child(const char *text, struct dbg *d)
{
	const char *p;

	for (p = text; p; p = next_line(line_end(p))) {
		const char *eol = line_end(p);
		char v[128], *end;
		long x;

		if ((size_t)(eol - p) < 2 || p[1] != ' ')
			continue;
		copy_str(v, sizeof(v), p + 2, (size_t)(eol - p - 2));
		if (p[0] == 'P') {
			copy_cstr(d->preempt, sizeof(d->preempt), v);
			continue;
		}
		errno = 0;
		x = strtol(v, &end, 10);
		if (errno || end == v || *end)
			continue;
		if (p[0] == 'R' && x >= 0)
			d->fs_runtime = x;
		else if (p[0] == 'T' && x > 0)
			d->fs_period = x;
	}
}

/*
 * The debugfs files of the fingerprint.  Read in place when debugfs is
 * mounted; when it is not and we are root, mounted for a moment in a
 * child's private mount namespace, so the system's mounts never change.
 */
static void read_debugfs(struct dbg *d)
{
	int pfd[2], status;
	char *text = NULL;
	pid_t pid;

	d->preempt[0] = '\0';
	d->fs_runtime = d->fs_period = -1;
	if (debugfs_mounted() || geteuid() != 0) {
		dbg_read(d);
		return;
	}
	if (pipe2(pfd, O_CLOEXEC))
		return;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return;
	}
	if (!pid) {
		close(pfd[0]);
		dbg_child(pfd[1]);
	}
	close(pfd[1]);
	if (read_fd_alloc(pfd[0], 4096, DEBUGFS_CHILD_MS, &text, NULL, NULL))
		kill(pid, SIGKILL);
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (text)
		dbg_parse_child(text, d);
	free(text);
}

/* ------------------------------------------------------------------ */
/* il_sysinfo_read                                                      */

/*
 * The NUMA nodes online (those with CPUs or memory): the kernel's list in
 * /sys/devices/system/node/online, else its node directories.  A kernel
 * built without CONFIG_NUMA has no node directory at all: one node.
 * Without sysfs there is no telling (-1).
 */
static int count_numa_nodes(void)
{
	char buf[512];
	DIR *d;
	struct dirent *de;
	int n = 0;

	if (!read_line("/sys/devices/system/node/online", buf, sizeof(buf)) &&
	    (n = __il_numa_online_count(buf)) > 0)
		return n;
	n = 0;
	d = opendir("/sys/devices/system/node");
	if (!d)
		return access("/sys/devices/system/cpu", F_OK) ? -1 : 1;
	while ((de = readdir(d))) {
		const char *s = de->d_name;

		if (strncmp(s, "node", 4) || !isdigit((unsigned char)s[4]))
			continue;
		for (s += 4; isdigit((unsigned char)*s); s++)
			;
		if (!*s)
			n++;
	}
	closedir(d);
	return n ? n : 1;
}

/* CPUID's hypervisor leaf, when the CPU says it runs under one */
static bool cpuid_signature(char sig[12])
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 31)))
		return false;
	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	/*
	 * KVM offering Hyper-V enlightenments answers "Microsoft Hv"
	 * first and its own signature 0x100 further on.
	 */
	if (!memcmp(sig, "Microsoft Hv", 12) && a >= 0x40000001) {
		char kvm[12];

		__cpuid(0x40000100, a, b, c, d);
		memcpy(kvm, &b, 4);
		memcpy(kvm + 4, &c, 4);
		memcpy(kvm + 8, &d, 4);
		if (!memcmp(kvm, "KVMKVMKVM\0\0\0", 12))
			memcpy(sig, kvm, 12);
	}
	return true;
#else
	(void)sig;
	return false;
#endif
}

static void detect_virt(struct il_sysinfo *si, bool hypervisor_flag)
{
	char vendor[128] = "", product[128] = "", caps[256];
	char dt_model[128] = "", dt_hyp[128] = "", sig[12];
	const char *dmi, *cpuid, *virt = NULL;
	bool have_sig = cpuid_signature(sig);

	read_line("/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor));
	read_line("/sys/class/dmi/id/product_name", product, sizeof(product));
	read_text("/proc/device-tree/compatible", dt_model, sizeof(dt_model));
	read_text("/proc/device-tree/hypervisor/compatible", dt_hyp,
		  sizeof(dt_hyp));

	copy_cstr(si->hypervisor, sizeof(si->hypervisor),
		  __il_hypervisor_of(have_sig ? sig : NULL, vendor, product,
				     dt_model, dt_hyp, hypervisor_flag,
				     &si->emulated));

	dmi = __il_virt_from_dmi(vendor, product);
	cpuid = have_sig ? __il_virt_from_cpuid(sig) : NULL;
	/*
	 * A cloud or product name in DMI is the most specific answer, but
	 * "QEMU" in DMI may be KVM-accelerated: CPUID tells those apart.
	 */
	if (dmi && strcmp(dmi, "qemu") && strcmp(dmi, "kvm"))
		virt = dmi;
	else if (cpuid)
		virt = cpuid;
	else if (dmi)
		virt = dmi;
	/* a Xen dom0 is the host, not a guest */
	else if (read_text("/proc/xen/capabilities", caps, sizeof(caps)) >= 0 &&
		 !strstr(caps, "control_d"))
		virt = "xen";
	else if (hypervisor_flag)
		virt = "vm-other";
	else
		virt = "none";
	copy_cstr(si->virt, sizeof(si->virt), virt);
}

int il_steal_ns(int cpu, uint64_t *ns)
{
	char *text;
	uint64_t ticks;
	int ret;

	if (!ns)
		return -EINVAL;
	ret = read_alloc("/proc/stat", PROC_STAT_MAX, &text);
	if (ret)
		return ret;
	ret = __il_stat_steal_ticks(text, cpu, &ticks);
	free(text);
	if (ret)
		return ret;
	*ns = __il_ticks_to_ns(ticks, sysconf(_SC_CLK_TCK));
	return 0;
}

void il_sysinfo_unknown(struct il_sysinfo *si)
{
	memset(si, 0, sizeof(*si));
	si->config_proxy_exec = -1;
	si->config_irq_time = -1;
	si->proxy_exec_active = -1;
	si->proxy_exec_in_release = -1;
	si->preempt_dynamic = -1;
	si->hz = -1;
	si->rt_group_sched = -1;
	si->rt_runtime_us = IL_RT_RUNTIME_UNKNOWN;
	si->rt_period_us = -1;
	si->fair_server_runtime_ns = -1;
	si->fair_server_period_ns = -1;
	si->cpus_online = -1;
	si->numa_nodes = -1;
	si->cgroup_version = -1;
	si->emulated = -1;
	si->steal_ns = IL_STEAL_UNKNOWN;
}

int il_sysinfo_read(struct il_sysinfo *si)
{
	struct utsname u;
	struct timespec res;
	struct dbg dbg;
	char *text = NULL;
	bool hyper = false;
	long v, res_ns = -1;

	if (!si)
		return -EINVAL;
	il_sysinfo_unknown(si);
	/* an unreadable mountinfo has always been reported as no cgroup */
	si->cgroup_version = 0;

	if (!uname(&u)) {
		copy_cstr(si->release, sizeof(si->release), u.release);
		copy_cstr(si->version, sizeof(si->version), u.version);
		copy_cstr(si->machine, sizeof(si->machine), u.machine);
		copy_cstr(si->hostname, sizeof(si->hostname), u.nodename);
	}

	/* parse the whole line, even if the copy kept in si is truncated */
	if (!read_alloc("/proc/cmdline", CMDLINE_MAX, &text)) {
		const char *s = text, *e = text + strlen(text);

		trim(&s, &e);
		copy_str(si->cmdline, sizeof(si->cmdline), s, (size_t)(e - s));
		__il_cmdline_param(text, "sched_proxy_exec",
				   si->cmdline_proxy_exec,
				   sizeof(si->cmdline_proxy_exec));
		__il_cmdline_param(text, "preempt", si->preempt_cmdline,
				   sizeof(si->preempt_cmdline));
	}

	read_config(si);
	read_debugfs(&dbg);
	/* LOW_RES_NSEC: the coarse clocks advance once a jiffy */
	if (!clock_getres(CLOCK_MONOTONIC_COARSE, &res) && !res.tv_sec)
		res_ns = res.tv_nsec;
	__il_sysinfo_derive(si, text ? text : "",
			    dbg.preempt[0] ? dbg.preempt : NULL, res_ns);
	free(text);
	text = NULL;

	if (!read_long("/proc/sys/kernel/sched_rt_runtime_us", &v))
		si->rt_runtime_us = v;
	if (!read_long("/proc/sys/kernel/sched_rt_period_us", &v) && v > 0)
		si->rt_period_us = v;
	si->fair_server_runtime_ns = dbg.fs_runtime;
	si->fair_server_period_ns = dbg.fs_period;

	if (!read_alloc("/proc/cpuinfo", CPUINFO_MAX, &text))
		__il_cpuinfo_parse(text, si->cpu_model, sizeof(si->cpu_model),
				   &hyper);
	free(text);
	text = NULL;

	v = sysconf(_SC_NPROCESSORS_ONLN);
	si->cpus_online = v > 0 && v <= INT_MAX ? (int)v : -1;
	si->numa_nodes = count_numa_nodes();

	if (!read_alloc("/proc/self/mountinfo", MOUNTINFO_MAX, &text))
		si->cgroup_version = __il_mountinfo_cgroup(
			text, si->cgroup_v2_mount, sizeof(si->cgroup_v2_mount));
	free(text);

	detect_virt(si, hyper);

	if (il_steal_ns(-1, &si->steal_ns))
		si->steal_ns = IL_STEAL_UNKNOWN;
	return 0;
}

/* ------------------------------------------------------------------ */
/* for the report header                                               */

const char *il_sysinfo_preempt_str(const struct il_sysinfo *si, char *buf,
				   size_t size)
{
	if (!buf || !size)
		return "?";
	if (!si)
		copy_cstr(buf, size, "?");
	else if (si->preempt_current[0] && si->preempt_dynamic == 1)
		snprintf(buf, size, "%s (dynamic)", si->preempt_current);
	else if (si->preempt_current[0])
		copy_cstr(buf, size, si->preempt_current);
	else if (si->preempt_dynamic == 1)
		copy_cstr(buf, size, "dynamic");
	else
		copy_cstr(buf, size, "?");
	return buf;
}

const char *il_sysinfo_proxy_exec_str(const struct il_sysinfo *si)
{
	if (!si)
		return "unknown";
	if (si->proxy_exec_active == 1)
		return "on";
	if (si->config_proxy_exec == 0)
		return si->proxy_exec_in_release == 0 ? "not in this kernel"
						      : "not built";
	if (si->proxy_exec_active == 0)
		return "off";
	return "unknown";
}

const char *il_sysinfo_hypervisor_str(const struct il_sysinfo *si, char *buf,
				      size_t size)
{
	if (!buf || !size)
		return "vm=?";
	if (!si || !si->hypervisor[0])
		copy_cstr(buf, size, "vm=?");
	else if (!strcmp(si->hypervisor, "none"))
		copy_cstr(buf, size, "bare metal");
	else
		snprintf(buf, size, "vm=%s%s", si->hypervisor,
			 si->emulated == 1 ? " (emulated)" : "");
	return buf;
}

const char *il_sysinfo_numa_str(const struct il_sysinfo *si, char *buf,
				size_t size)
{
	if (!buf || !size)
		return "? NUMA nodes";
	if (!si || si->numa_nodes < 1)
		copy_cstr(buf, size, "? NUMA nodes");
	else
		snprintf(buf, size, "%d NUMA node%s", si->numa_nodes,
			 si->numa_nodes == 1 ? "" : "s");
	return buf;
}
