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
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <invlab/sysinfo.h>

#include "sysinfo-parse.h"

extern char **environ;

/* upper bounds for files read whole; beyond them the text is truncated */
#define CMDLINE_MAX   (64 * 1024)
#define CONFIG_MAX    (16 * 1024 * 1024)
#define CPUINFO_MAX   (1024 * 1024)
#define MOUNTINFO_MAX (16 * 1024 * 1024)
#define PROC_STAT_MAX (8 * 1024 * 1024)
/* gzip -dc of a ~40 KB /proc/config.gz takes milliseconds */
#define GUNZIP_TIMEOUT_MS 5000

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
 * bytes; longer input is truncated (*truncated set).  0 or -errno.
 */
static int read_fd_alloc(int fd, size_t cap, int timeout_ms, char **out,
			 bool *truncated)
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
	return 0;
}

static int read_alloc(const char *path, size_t cap, char **out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret;

	*out = NULL;
	if (fd < 0)
		return -errno;
	ret = read_fd_alloc(fd, cap, -1, out, NULL);
	close(fd);
	return ret;
}

/*
 * /proc/config.gz through "gzip -dc", spawned without a shell and read
 * through a pipe with a deadline, so a missing or hung gzip costs at most
 * GUNZIP_TIMEOUT_MS and never the run; this keeps zlib out of the
 * dependencies for one file read once per run.
 */
static int gunzip_alloc(const char *path, size_t cap, char **out)
{
	char *argv[] = { "gzip", "-dc", "--", (char *)path, NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, def;
	int pfd[2], ret, rc, status = 0;
	bool truncated = false;
	pid_t pid;

	*out = NULL;
	if (pipe2(pfd, O_CLOEXEC))
		return -errno;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	/* the caller may block or ignore signals gzip relies on */
	posix_spawnattr_init(&attr);
	sigemptyset(&none);
	sigemptyset(&def);
	sigaddset(&def, SIGPIPE);
	sigaddset(&def, SIGTERM);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &def);
	/* its own process group, so a timeout can kill all it started */
	posix_spawnattr_setpgroup(&attr, 0);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK |
						POSIX_SPAWN_SETSIGDEF |
						POSIX_SPAWN_SETPGROUP);
	rc = posix_spawnp(&pid, "gzip", &fa, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	if (rc) {
		close(pfd[0]);
		return -rc;
	}

	ret = read_fd_alloc(pfd[0], cap, GUNZIP_TIMEOUT_MS, out, &truncated);
	close(pfd[0]);
	if (ret || truncated)
		kill(-pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno == EINTR)
			continue;
		/*
		 * ECHILD: a SIGCHLD handler of the program reaped it first;
		 * the data read up to EOF is all we can judge by.
		 */
		status = 0;
		break;
	}
	if (!ret && truncated)
		ret = -EFBIG;
	if (!ret && (!WIFEXITED(status) || WEXITSTATUS(status)))
		ret = -EIO;
	if (!ret && !**out)
		ret = -ENODATA;
	if (ret) {
		free(*out);
		*out = NULL;
	}
	return ret;
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
/* il_sysinfo_read                                                      */

static void read_config(struct il_sysinfo *si)
{
	char path[128];
	char *text = NULL;

	/*
	 * /proc/config.gz first: it is the running kernel's own config,
	 * while /boot/config-<release> goes stale when a tester rebuilds
	 * with the same release string (the proxy-exec on/off comparison
	 * is exactly that).  /boot is the fallback when IKCONFIG_PROC is
	 * off or gzip is missing.
	 */
	if (!gunzip_alloc("/proc/config.gz", CONFIG_MAX, &text)) {
		copy_cstr(si->config_source, sizeof(si->config_source),
			  "/proc/config.gz");
	} else {
		snprintf(path, sizeof(path), "/boot/config-%s", si->release);
		if (!si->release[0] || read_alloc(path, CONFIG_MAX, &text))
			return;
		copy_cstr(si->config_source, sizeof(si->config_source), path);
	}
	__il_kconfig_parse(text, si);
	free(text);
}

static int count_numa_nodes(void)
{
	DIR *d = opendir("/sys/devices/system/node");
	struct dirent *de;
	int n = 0;

	if (!d)
		return 1;
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

static const char *virt_cpuid(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d;
	char sig[12];

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 31)))
		return NULL;
	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	return __il_virt_from_cpuid(sig);
#else
	return NULL;
#endif
}

static const char *detect_virt(bool hypervisor_flag)
{
	char vendor[128] = "", product[128] = "", caps[256];
	const char *dmi, *cpuid;

	read_line("/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor));
	read_line("/sys/class/dmi/id/product_name", product, sizeof(product));
	dmi = __il_virt_from_dmi(vendor, product);
	cpuid = virt_cpuid();
	/*
	 * A cloud or product name in DMI is the most specific answer, but
	 * "QEMU" in DMI may be KVM-accelerated: CPUID tells those apart.
	 */
	if (dmi && strcmp(dmi, "qemu") && strcmp(dmi, "kvm"))
		return dmi;
	if (cpuid)
		return cpuid;
	if (dmi)
		return dmi;
	/* a Xen dom0 is the host, not a guest */
	if (read_text("/proc/xen/capabilities", caps, sizeof(caps)) >= 0 &&
	    !strstr(caps, "control_d"))
		return "xen";
	if (hypervisor_flag)
		return "vm-other";
	return "none";
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

int il_sysinfo_read(struct il_sysinfo *si)
{
	struct utsname u;
	char buf[256];
	char *text = NULL;
	const char *debugfs = NULL;
	bool hyper = false;
	long v;

	if (!si)
		return -EINVAL;
	memset(si, 0, sizeof(*si));
	si->config_proxy_exec = -1;
	si->proxy_exec_active = -1;
	si->preempt_dynamic = -1;
	si->hz = -1;
	si->rt_group_sched = -1;
	si->rt_runtime_us = IL_RT_RUNTIME_UNKNOWN;
	si->rt_period_us = -1;
	si->fair_server_runtime_ns = -1;
	si->fair_server_period_ns = -1;
	si->cpus_online = -1;
	si->steal_ns = IL_STEAL_UNKNOWN;

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
	si->proxy_exec_active =
		__il_proxy_exec_state(si->config_proxy_exec, text ? text : "");
	free(text);
	text = NULL;

	/* debugfs needs root and a mount; without it, derive the model */
	if (read_text("/sys/kernel/debug/sched/preempt", buf, sizeof(buf)) > 0)
		debugfs = buf;
	__il_preempt_current(debugfs, si->preempt_cmdline, si->preempt_config,
			     si->preempt_dynamic, si->preempt_current,
			     sizeof(si->preempt_current));

	if (!read_long("/proc/sys/kernel/sched_rt_runtime_us", &v))
		si->rt_runtime_us = v;
	if (!read_long("/proc/sys/kernel/sched_rt_period_us", &v) && v > 0)
		si->rt_period_us = v;
	if (!read_long("/sys/kernel/debug/sched/fair_server/cpu0/runtime",
		       &v) &&
	    v >= 0)
		si->fair_server_runtime_ns = v;
	if (!read_long("/sys/kernel/debug/sched/fair_server/cpu0/period", &v) &&
	    v > 0)
		si->fair_server_period_ns = v;

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

	copy_cstr(si->virt, sizeof(si->virt), detect_virt(hyper));

	if (il_steal_ns(-1, &si->steal_ns))
		si->steal_ns = IL_STEAL_UNKNOWN;
	return 0;
}
