// SPDX-License-Identifier: MIT
/*
 * Scheduling classes through the raw sched_setattr/sched_getattr
 * syscalls.  The attribute struct is declared here under our own name:
 * glibc only gained struct sched_attr in 2.41, musl and bionic differ, and
 * the kernel's layout (VER0, 48 bytes, plus the util-clamp fields of VER1)
 * is a stable ABI.
 *
 * When the kernel refuses, il_sched_strerror looks at the likely causes
 * (capability, RLIMIT_RTPRIO, the RT runtime of the thread's cpu cgroup,
 * deadline admission control) so the user is told what to change.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <invlab/sched.h>
#include <invlab/time.h>

#ifndef SCHED_BATCH
#define SCHED_BATCH 3
#endif
#ifndef SCHED_IDLE
#define SCHED_IDLE 5
#endif
#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif
#ifndef SYS_sched_setattr
#if defined(__x86_64__)
#define SYS_sched_setattr 314
#define SYS_sched_getattr 315
#elif defined(__aarch64__) || defined(__riscv)
#define SYS_sched_setattr 274
#define SYS_sched_getattr 275
#elif defined(__i386__)
#define SYS_sched_setattr 351
#define SYS_sched_getattr 352
#elif defined(__arm__)
#define SYS_sched_setattr 380
#define SYS_sched_getattr 381
#else
#error "sched_setattr syscall number unknown for this architecture"
#endif
#endif

struct il_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;
	uint32_t sched_util_max;
};

/* The kernel's smallest accepted runtime (DL_SCALE granularity). */
#define IL_DL_MIN_RUNTIME_NS 1024

static const struct {
	const char *name;
	enum il_policy policy;
	int kernel;
} policies[] = {
	{ "other", IL_SCHED_OTHER, SCHED_OTHER },
	{ "fifo", IL_SCHED_FIFO, SCHED_FIFO },
	{ "rr", IL_SCHED_RR, SCHED_RR },
	{ "deadline", IL_SCHED_DEADLINE, SCHED_DEADLINE },
	{ "batch", IL_SCHED_BATCH, SCHED_BATCH },
	{ "idle", IL_SCHED_IDLE, SCHED_IDLE },
};
#define NPOLICIES (sizeof(policies) / sizeof(policies[0]))

pid_t il_gettid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

const char *il_policy_name(enum il_policy p)
{
	for (size_t i = 0; i < NPOLICIES; i++)
		if (policies[i].policy == p)
			return policies[i].name;
	return "unknown";
}

static int is_rt(enum il_policy p)
{
	return p == IL_SCHED_FIFO || p == IL_SCHED_RR;
}

static int parse_int(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	if (!*s)
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -EINVAL;
	*out = v;
	return 0;
}

int il_sched_check(const struct il_sched *s, char *err, size_t errlen)
{
	switch (s->policy) {
	case IL_SCHED_FIFO:
	case IL_SCHED_RR:
		if (s->prio < 1 || s->prio > 99) {
			snprintf(
				err, errlen,
				"%s priority %d is out of range; allowed 1..99",
				il_policy_name(s->policy), s->prio);
			return -EINVAL;
		}
		return 0;
	case IL_SCHED_OTHER:
	case IL_SCHED_BATCH:
		if (s->nice < -20 || s->nice > 19) {
			snprintf(err, errlen,
				 "nice %d is out of range; allowed -20..19",
				 s->nice);
			return -EINVAL;
		}
		return 0;
	case IL_SCHED_IDLE:
		return 0;
	case IL_SCHED_DEADLINE:
		if (s->runtime_ns < IL_DL_MIN_RUNTIME_NS) {
			snprintf(err, errlen,
				 "deadline runtime must be at least 1024ns");
			return -EINVAL;
		}
		if (s->runtime_ns > s->deadline_ns) {
			snprintf(err, errlen,
				 "deadline runtime exceeds the relative "
				 "deadline "
				 "(need runtime <= deadline <= period)");
			return -EINVAL;
		}
		if (s->period_ns && s->deadline_ns > s->period_ns) {
			snprintf(err, errlen,
				 "relative deadline exceeds the period "
				 "(need runtime <= deadline <= period)");
			return -EINVAL;
		}
		return 0;
	}
	snprintf(err, errlen, "unknown scheduling policy");
	return -EINVAL;
}

/* "2ms/10ms/10ms" or "2ms/10ms" (period = deadline) */
static int parse_deadline(const char *p, struct il_sched *s, char *err,
			  size_t errlen)
{
	char buf[96], *parts[3] = { 0 }, *save = NULL, *tok;
	uint64_t v[3];
	int n = 0;

	if (strlen(p) >= sizeof(buf))
		goto bad;
	strcpy(buf, p);
	for (tok = strtok_r(buf, "/", &save); tok;
	     tok = strtok_r(NULL, "/", &save)) {
		if (n == 3)
			goto bad;
		parts[n++] = tok;
	}
	if (n < 2)
		goto bad;
	for (int i = 0; i < n; i++) {
		/* a bare number is microseconds, as in chrt and rt-app */
		if (il_parse_duration(parts[i], IL_NSEC_PER_USEC, &v[i]) < 0) {
			snprintf(err, errlen, "'%s' is not a duration",
				 parts[i]);
			return -EINVAL;
		}
	}
	s->runtime_ns = v[0];
	s->deadline_ns = v[1];
	s->period_ns = n == 3 ? v[2] : v[1];
	return il_sched_check(s, err, errlen);
bad:
	snprintf(err, errlen,
		 "deadline needs runtime/deadline[/period], e.g. "
		 "deadline:2ms/10ms/10ms");
	return -EINVAL;
}

int il_sched_parse(const char *spec, struct il_sched *s, char *err,
		   size_t errlen)
{
	const char *colon = strchr(spec, ':');
	size_t nlen = colon ? (size_t)(colon - spec) : strlen(spec);
	const char *arg = colon ? colon + 1 : NULL;
	long v;

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < NPOLICIES; i++) {
		if (strlen(policies[i].name) != nlen ||
		    strncmp(policies[i].name, spec, nlen))
			continue;
		s->policy = policies[i].policy;
		switch (s->policy) {
		case IL_SCHED_FIFO:
		case IL_SCHED_RR:
			if (!arg || parse_int(arg, 1, 99, &v)) {
				snprintf(err, errlen,
					 "'%s': %s needs a priority 1..99, "
					 "e.g. %s:30",
					 spec, policies[i].name,
					 policies[i].name);
				return -EINVAL;
			}
			s->prio = (int)v;
			return 0;
		case IL_SCHED_OTHER:
		case IL_SCHED_BATCH:
			if (!arg)
				return 0;
			if (parse_int(arg, -20, 19, &v)) {
				snprintf(err, errlen,
					 "'%s': nice must be -20..19", spec);
				return -EINVAL;
			}
			s->nice = (int)v;
			return 0;
		case IL_SCHED_IDLE:
			if (arg) {
				snprintf(err, errlen,
					 "'%s': idle takes no parameter", spec);
				return -EINVAL;
			}
			return 0;
		case IL_SCHED_DEADLINE:
			if (!arg)
				return parse_deadline("", s, err, errlen);
			return parse_deadline(arg, s, err, errlen);
		}
	}
	snprintf(
		err, errlen,
		"unknown class '%.*s'; use fifo:P, rr:P, "
		"deadline:RUNTIME/DEADLINE/PERIOD, other[:NICE], batch or idle",
		(int)nlen, spec);
	return -EINVAL;
}

int il_sched_format(const struct il_sched *s, char *buf, size_t len)
{
	char r[24], d[24], p[24];

	switch (s->policy) {
	case IL_SCHED_FIFO:
	case IL_SCHED_RR:
		return snprintf(buf, len, "%s:%d", il_policy_name(s->policy),
				s->prio);
	case IL_SCHED_DEADLINE:
		il_format_duration(r, sizeof(r), s->runtime_ns);
		il_format_duration(d, sizeof(d), s->deadline_ns);
		il_format_duration(p, sizeof(p), s->period_ns);
		return snprintf(buf, len, "deadline:%s/%s/%s", r, d, p);
	case IL_SCHED_IDLE:
		return snprintf(buf, len, "idle");
	default:
		return snprintf(buf, len, "%s:%d", il_policy_name(s->policy),
				s->nice);
	}
}

int il_sched_set(pid_t tid, const struct il_sched *s)
{
	struct il_sched_attr a;
	char err[128];

	if (il_sched_check(s, err, sizeof(err)))
		return -EINVAL;
	memset(&a, 0, sizeof(a));
	a.size = 48; /* SCHED_ATTR_SIZE_VER0: no util clamps */
	for (size_t i = 0; i < NPOLICIES; i++)
		if (policies[i].policy == s->policy)
			a.sched_policy = (uint32_t)policies[i].kernel;
	a.sched_flags = s->flags;
	if (is_rt(s->policy))
		a.sched_priority = (uint32_t)s->prio;
	else if (s->policy != IL_SCHED_DEADLINE)
		a.sched_nice = s->nice;
	if (s->policy == IL_SCHED_DEADLINE) {
		a.sched_runtime = s->runtime_ns;
		a.sched_deadline = s->deadline_ns;
		a.sched_period = s->period_ns;
	}
	if (syscall(SYS_sched_setattr, tid, &a, 0))
		return -errno;
	return 0;
}

int il_sched_get(pid_t tid, struct il_sched *s)
{
	struct il_sched_attr a;

	memset(&a, 0, sizeof(a));
	if (syscall(SYS_sched_getattr, tid, &a, 48u, 0))
		return -errno;
	memset(s, 0, sizeof(*s));
	s->policy = IL_SCHED_OTHER;
	for (size_t i = 0; i < NPOLICIES; i++)
		if (policies[i].kernel == (int)a.sched_policy)
			s->policy = policies[i].policy;
	s->prio = (int)a.sched_priority;
	s->nice = a.sched_nice;
	s->runtime_ns = a.sched_runtime;
	s->deadline_ns = a.sched_deadline;
	s->period_ns = a.sched_period;
	s->flags = a.sched_flags;
	return 0;
}

/* Effective capability bit from /proc/self/status; -1 when unknown. */
static int have_cap(int bit)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "re");
	int ret = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long caps;

		if (sscanf(line, "CapEff: %llx", &caps) == 1) {
			ret = (int)((caps >> bit) & 1);
			break;
		}
	}
	fclose(f);
	return ret;
}

/* Is name one of the comma-separated controllers in list? */
static int has_controller(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p; p = strchr(p, ',')) {
		if (*p == ',')
			p++;
		if (!strncmp(p, name, n) && (p[n] == ',' || p[n] == '\0'))
			return 1;
	}
	return 0;
}

/*
 * RT runtime of the calling thread's cgroup-v1 cpu controller group, in
 * us; -2 when not found.  With CONFIG_RT_GROUP_SCHED a new group has 0,
 * which refuses SCHED_FIFO with EPERM even to root.
 */
static long cgroup_rt_runtime(char *path, size_t len)
{
	char line[512], file[768];
	FILE *f = fopen("/proc/thread-self/cgroup", "re");
	long us = -2;

	if (!f)
		return -2;
	while (fgets(line, sizeof(line), f)) {
		char *ctrl = strchr(line, ':'), *p;

		if (!ctrl)
			continue;
		p = strchr(ctrl + 1, ':');
		if (!p)
			continue;
		*p++ = '\0';
		p[strcspn(p, "\n")] = '\0';
		if (!has_controller(ctrl + 1, "cpu"))
			continue;
		snprintf(path, len, "%s", p);
		/* "cpu,cpuacct" is the usual v1 mount name */
		const char *mounts[] = { "/sys/fs/cgroup/cpu,cpuacct",
					 "/sys/fs/cgroup/cpu" };
		for (size_t i = 0; i < 2 && us == -2; i++) {
			FILE *r;

			snprintf(file, sizeof(file), "%s%s/cpu.rt_runtime_us",
				 mounts[i], p);
			r = fopen(file, "re");
			if (!r)
				continue;
			if (fscanf(r, "%ld", &us) != 1)
				us = -2;
			fclose(r);
		}
		break;
	}
	fclose(f);
	return us;
}

/* root whose capability was taken away: "run as root" would not help */
static const char root_no_cap[] =
	", which this root process does not hold (dropped by its container, "
	"capsh or setpriv)";

const char *il_sched_strerror(int err, const struct il_sched *s, char *buf,
			      size_t len)
{
	char what[64], cg[256] = "";
	struct rlimit rl;
	long rt;

	if (err < 0)
		err = -err;
	il_sched_format(s, what, sizeof(what));
	switch (err) {
	case EPERM:
		if (have_cap(23) == 0) {
			if (is_rt(s->policy) &&
			    getrlimit(RLIMIT_RTPRIO, &rl) == 0 &&
			    rl.rlim_cur != RLIM_INFINITY &&
			    rl.rlim_cur < (rlim_t)s->prio)
				snprintf(buf, len,
					 "%s refused: needs CAP_SYS_NICE or "
					 "RLIMIT_RTPRIO >= %d (it is %lu)%s",
					 what, s->prio,
					 (unsigned long)rl.rlim_cur,
					 geteuid() ? "; run as root"
						   : root_no_cap);
			else
				snprintf(buf, len,
					 "%s refused: needs CAP_SYS_NICE%s",
					 what,
					 geteuid() ? "; run as root"
						   : root_no_cap);
			return buf;
		}
		rt = cgroup_rt_runtime(cg, sizeof(cg));
		if (is_rt(s->policy) && rt == 0) {
			snprintf(buf, len,
				 "%s refused: the cpu cgroup '%s' has "
				 "cpu.rt_runtime_us = 0 "
				 "(CONFIG_RT_GROUP_SCHED); "
				 "run from the root cpu cgroup or give the "
				 "group RT runtime",
				 what, cg);
			return buf;
		}
		snprintf(buf, len,
			 "%s refused (EPERM) although CAP_SYS_NICE is held: "
			 "RT throttling, a cgroup without RT runtime, or a "
			 "security policy",
			 what);
		return buf;
	case EBUSY:
		snprintf(buf, len,
			 "%s refused: SCHED_DEADLINE admission control found "
			 "not enough bandwidth (see "
			 "/proc/sys/kernel/sched_rt_runtime_us and the root "
			 "domain's CPUs)",
			 what);
		return buf;
	case EINVAL:
		if (il_sched_check(s, buf, len) == 0)
			snprintf(buf, len,
				 "%s refused as invalid by the kernel (a "
				 "deadline task with a narrower affinity than "
				 "its root domain, or an unsupported flag)",
				 what);
		return buf;
	case ENOSYS:
		snprintf(buf, len,
			 "%s: sched_setattr is not supported by "
			 "this kernel",
			 what);
		return buf;
	default:
		snprintf(buf, len, "%s: %s", what, strerror(err));
		return buf;
	}
}

struct probe {
	int prio;
	int ret;
};

static void *probe_thread(void *arg)
{
	struct probe *p = arg;
	struct il_sched s = { .policy = IL_SCHED_FIFO, .prio = p->prio };

	p->ret = il_sched_set(0, &s);
	return NULL;
}

int il_sched_probe_rt(int prio, char *why, size_t len)
{
	struct probe p = { .prio = prio, .ret = 0 };
	struct il_sched s = { .policy = IL_SCHED_FIFO, .prio = prio };
	pthread_t t;
	int ret;

	/* a throwaway thread, so the caller's own class is untouched */
	ret = pthread_create(&t, NULL, probe_thread, &p);
	if (ret) {
		snprintf(why, len, "cannot create a thread: %s", strerror(ret));
		return -ret;
	}
	pthread_join(t, NULL);
	if (p.ret)
		il_sched_strerror(p.ret, &s, why, len);
	return p.ret;
}
