// SPDX-License-Identifier: MIT
/*
 * Scheduler and CPU event counters of a thread (counters.h): one
 * perf_event_open() file descriptor per event, opened before the measured
 * part and read after it, and the /proc figures that perf does not split
 * (voluntary and involuntary switches, run-queue delay).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <invlab/counters.h>
#include <invlab/report.h>

static const struct {
	const char *name, *key;
} names[IL_CTR_N] = {
	[IL_CTR_CS] = { "context-switches", "context_switches" },
	[IL_CTR_MIGRATIONS] = { "cpu-migrations", "cpu_migrations" },
	[IL_CTR_SCHED_SWITCH] = { "sched:sched_switch", "sched_switch" },
	[IL_CTR_SCHED_WAKEUP] = { "sched:sched_wakeup", "sched_wakeup" },
	[IL_CTR_SCHED_MIGRATE] = { "sched:sched_migrate_task",
				   "sched_migrate_task" },
	[IL_CTR_CYCLES] = { "cycles", "cycles" },
	[IL_CTR_INSTRUCTIONS] = { "instructions", "instructions" },
	[IL_CTR_CACHE_MISSES] = { "cache-misses", "cache_misses" },
	[IL_CTR_VOLUNTARY] = { "voluntary-ctxt-switches",
			       "voluntary_switches" },
	[IL_CTR_INVOLUNTARY] = { "nonvoluntary-ctxt-switches",
				 "involuntary_switches" },
	[IL_CTR_RUN_DELAY] = { "run-delay-ns", "run_delay_ns" },
};

/* the tracepoints counted, by counter */
static const char *const tp_name[IL_CTR_N] = {
	[IL_CTR_SCHED_SWITCH] = "sched_switch",
	[IL_CTR_SCHED_WAKEUP] = "sched_wakeup",
	[IL_CTR_SCHED_MIGRATE] = "sched_migrate_task",
};

const char *il_counters_name(enum il_ctr k)
{
	return (unsigned)k < IL_CTR_N ? names[k].name : "?";
}

const char *il_counters_key(enum il_ctr k)
{
	return (unsigned)k < IL_CTR_N ? names[k].key : "?";
}

int il_counters_lookup(const char *name)
{
	for (int k = 0; k < IL_CTR_N; k++)
		if (!strcmp(name, names[k].name) || !strcmp(name, names[k].key))
			return k;
	return -1;
}

const char *il_counters_state_name(enum il_ctr_state s)
{
	switch (s) {
	case IL_CTR_COUNTED:
		return "counted";
	case IL_CTR_FALLBACK:
		return "fallback";
	case IL_CTR_NOT_SUPPORTED:
		return "not supported";
	case IL_CTR_NOT_AVAILABLE:
		return "not available";
	case IL_CTR_UNSET:
		break;
	}
	return "not measured";
}

/* ---- parsing /proc ---------------------------------------------------- */

static int field_u64(const char *text, const char *key, uint64_t *v)
{
	size_t n = strlen(key);

	for (const char *p = text; p && *p;) {
		char *end;

		if (strncmp(p, key, n)) {
			p = strchr(p, '\n');
			p = p ? p + 1 : NULL;
			continue;
		}
		p += n;
		while (*p == ' ' || *p == '\t' || *p == ':')
			p++;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		errno = 0;
		*v = strtoull(p, &end, 10);
		return errno ? -errno : 0;
	}
	return -ENOENT;
}

int il_counters_parse_status(const char *text, uint64_t *vol, uint64_t *invol)
{
	int ret = field_u64(text, "voluntary_ctxt_switches", vol);

	if (!ret)
		ret = field_u64(text, "nonvoluntary_ctxt_switches", invol);
	return ret ? -ENOENT : 0;
}

int il_counters_parse_sched(const char *text, uint64_t *migrations)
{
	return field_u64(text, "se.nr_migrations", migrations) ? -ENOENT : 0;
}

int il_counters_parse_schedstat(const char *text, uint64_t *run_ns,
				uint64_t *wait_ns, uint64_t *slices)
{
	unsigned long long a, b, c;
	int end = 0;

	if (sscanf(text, "%llu %llu %llu%n", &a, &b, &c, &end) != 3 ||
	    (text[end] && text[end] != '\n'))
		return -EINVAL;
	*run_ns = a;
	*wait_ns = b;
	*slices = c;
	return 0;
}

static int read_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	close(fd);
	buf[n] = '\0';
	return 0;
}

static void proc_path(const struct il_counters *c, const char *file, char *path,
		      size_t len)
{
	if (c->tid)
		snprintf(path, len, "/proc/self/task/%d/%s", c->tid, file);
	else
		snprintf(path, len, "/proc/thread-self/%s", file);
}

/*
 * The /proc figures now, into v[] with ok[] set for the ones read:
 * voluntary, involuntary, run delay, and the fallbacks for switches and
 * migrations.
 */
static void proc_now(const struct il_counters *c, uint64_t *v, bool *ok)
{
	char path[96], buf[4096];
	uint64_t a, b, s;

	memset(ok, 0, IL_CTR_N * sizeof(*ok));
	if (c->flags & IL_CTR_INHERIT) {
		struct rusage self, kids;

		if (getrusage(RUSAGE_SELF, &self) ||
		    getrusage(RUSAGE_CHILDREN, &kids))
			return;
		v[IL_CTR_VOLUNTARY] =
			(uint64_t)self.ru_nvcsw + (uint64_t)kids.ru_nvcsw;
		v[IL_CTR_INVOLUNTARY] =
			(uint64_t)self.ru_nivcsw + (uint64_t)kids.ru_nivcsw;
		ok[IL_CTR_VOLUNTARY] = ok[IL_CTR_INVOLUNTARY] = true;
	} else {
		proc_path(c, "status", path, sizeof(path));
		if (!read_text(path, buf, sizeof(buf)) &&
		    !il_counters_parse_status(buf, &a, &b)) {
			v[IL_CTR_VOLUNTARY] = a;
			v[IL_CTR_INVOLUNTARY] = b;
			ok[IL_CTR_VOLUNTARY] = ok[IL_CTR_INVOLUNTARY] = true;
		}
		proc_path(c, "schedstat", path, sizeof(path));
		if (!read_text(path, buf, sizeof(buf)) &&
		    !il_counters_parse_schedstat(buf, &a, &b, &s)) {
			v[IL_CTR_RUN_DELAY] = b;
			ok[IL_CTR_RUN_DELAY] = true;
		}
		proc_path(c, "sched", path, sizeof(path));
		if (!read_text(path, buf, sizeof(buf)) &&
		    !il_counters_parse_sched(buf, &a)) {
			v[IL_CTR_MIGRATIONS] = a;
			ok[IL_CTR_MIGRATIONS] = true;
		}
	}
	if (ok[IL_CTR_VOLUNTARY]) {
		v[IL_CTR_CS] = v[IL_CTR_VOLUNTARY] + v[IL_CTR_INVOLUNTARY];
		ok[IL_CTR_CS] = true;
	}
}

/* ---- tracepoint ids --------------------------------------------------- */

#define TP_CACHE 8
static pthread_mutex_t tp_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	char sys[32], name[64];
	int id;
} tp_cache[TP_CACHE];
static int tp_ncache;

/* a mounted tracefs (or debugfs/tracing) from /proc/self/mounts */
static int find_tracing(char *dir, size_t len)
{
	FILE *f = fopen("/proc/self/mounts", "re");
	char line[512], mnt[200], type[64];
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %199s %63s", mnt, type) != 2)
			continue;
		if (!strcmp(type, "tracefs")) {
			snprintf(dir, len, "%s", mnt);
			ret = 0;
			break;
		}
		if (!strcmp(type, "debugfs") && ret) {
			snprintf(dir, len, "%s/tracing", mnt);
			ret = 0; /* a tracefs further down is preferred */
		}
	}
	fclose(f);
	return ret;
}

static int id_from(const char *path)
{
	char buf[32], *end;
	long v;
	int ret = read_text(path, buf, sizeof(buf));

	if (ret)
		return ret;
	v = strtol(buf, &end, 10);
	if (end == buf || v < 0 || v > INT32_MAX)
		return -EINVAL;
	return (int)v;
}

/*
 * No tracefs mounted: a child process mounts one in a mount namespace of
 * its own (gone with it, whatever happens) and writes the id to a pipe.
 * Only system calls between fork and _exit; bounded to 2 s.
 */
static int id_private_mount(const char *sys, const char *name)
{
	const char *mnt = "/sys/kernel/tracing";
	char path[200];
	int p[2], id = -ENOENT, st;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/events/%s/%s/id", mnt, sys, name);
	if (pipe2(p, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		id = -errno;
		close(p[0]);
		close(p[1]);
		return id;
	}
	if (pid == 0) {
		int r = -EPERM;

		close(p[0]);
		if (!unshare(CLONE_NEWNS) &&
		    !mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) &&
		    !mount("tracefs", mnt, "tracefs", 0, NULL))
			r = id_from(path);
		else
			r = -errno;
		if (write(p[1], &r, sizeof(r)) != sizeof(r))
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	{
		struct pollfd pf = { .fd = p[0], .events = POLLIN };

		if (poll(&pf, 1, 2000) == 1 &&
		    read(p[0], &id, sizeof(id)) != sizeof(id))
			id = -EIO;
		else if (!(pf.revents & POLLIN))
			id = -ETIMEDOUT;
	}
	close(p[0]);
	kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return id;
}

int il_counters_tracepoint_id(const char *sys, const char *name)
{
	char dir[256], path[400];
	int id;

	if (!sys || !name || strlen(sys) >= sizeof(tp_cache[0].sys) ||
	    strlen(name) >= sizeof(tp_cache[0].name) || strchr(sys, '/') ||
	    strchr(name, '/'))
		return -EINVAL;
	pthread_mutex_lock(&tp_lock);
	for (int i = 0; i < tp_ncache; i++)
		if (!strcmp(tp_cache[i].sys, sys) &&
		    !strcmp(tp_cache[i].name, name)) {
			id = tp_cache[i].id;
			pthread_mutex_unlock(&tp_lock);
			return id;
		}
	if (!find_tracing(dir, sizeof(dir))) {
		snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, sys,
			 name);
		id = id_from(path);
	} else {
		id = id_private_mount(sys, name);
	}
	if (tp_ncache < TP_CACHE) {
		snprintf(tp_cache[tp_ncache].sys, sizeof(tp_cache[0].sys), "%s",
			 sys);
		snprintf(tp_cache[tp_ncache].name, sizeof(tp_cache[0].name),
			 "%s", name);
		tp_cache[tp_ncache++].id = id;
	}
	pthread_mutex_unlock(&tp_lock);
	return id;
}

/* ---- perf_event_open -------------------------------------------------- */

static int perf_open(struct perf_event_attr *a, int tid)
{
	int fd = (int)syscall(SYS_perf_event_open, a, tid, -1, -1,
			      PERF_FLAG_FD_CLOEXEC);

	if (fd < 0 && (errno == EACCES || errno == EPERM) &&
	    !a->exclude_kernel) {
		/* perf_event_paranoid 2: the user's part only */
		a->exclude_kernel = 1;
		a->exclude_hv = 1;
		fd = (int)syscall(SYS_perf_event_open, a, tid, -1, -1,
				  PERF_FLAG_FD_CLOEXEC);
	}
	return fd < 0 ? -errno : fd;
}

static bool event_of(enum il_ctr k, uint32_t *type, uint64_t *config)
{
	switch (k) {
	case IL_CTR_CS:
		*type = PERF_TYPE_SOFTWARE;
		*config = PERF_COUNT_SW_CONTEXT_SWITCHES;
		return true;
	case IL_CTR_MIGRATIONS:
		*type = PERF_TYPE_SOFTWARE;
		*config = PERF_COUNT_SW_CPU_MIGRATIONS;
		return true;
	case IL_CTR_CYCLES:
		*type = PERF_TYPE_HARDWARE;
		*config = PERF_COUNT_HW_CPU_CYCLES;
		return true;
	case IL_CTR_INSTRUCTIONS:
		*type = PERF_TYPE_HARDWARE;
		*config = PERF_COUNT_HW_INSTRUCTIONS;
		return true;
	case IL_CTR_CACHE_MISSES:
		*type = PERF_TYPE_HARDWARE;
		*config = PERF_COUNT_HW_CACHE_MISSES;
		return true;
	default:
		if (!tp_name[k])
			return false;
		*type = PERF_TYPE_TRACEPOINT;
		*config = 0;
		return true;
	}
}

enum il_ctr_state il_counters_open_state(enum il_ctr k, int err)
{
	if (err == -EACCES || err == -EPERM || err == -ENOSYS ||
	    err == -EMFILE || err == -ENFILE || err == -EBUSY)
		return IL_CTR_NOT_AVAILABLE;
	/* a kernel with these tracepoints has them all: one that cannot
	 * be had (no id, no tracefs) is not available, not unsupported */
	return tp_name[(unsigned)k < IL_CTR_N ? k : 0] ? IL_CTR_NOT_AVAILABLE
						       : IL_CTR_NOT_SUPPORTED;
}

bool il_counters_wanted(void)
{
	const char *v = getenv("INVLAB_COUNTERS");

	return !v || strcmp(v, "off");
}

bool il_counters_proc_only(void)
{
	const char *v = getenv("INVLAB_COUNTERS");

	return v && !strcmp(v, "proc");
}

int il_counters_open(struct il_counters *c, int tid, unsigned flags)
{
	uint64_t v[IL_CTR_N];

	if (!c || tid < 0 || ((flags & IL_CTR_INHERIT) && tid))
		return -EINVAL;
	memset(c, 0, sizeof(*c));
	c->tid = tid;
	c->flags = flags;
	for (int k = 0; k < IL_CTR_N; k++)
		c->fd[k] = -1;
	if (tid) {
		char path[64];

		snprintf(path, sizeof(path), "/proc/self/task/%d", tid);
		if (access(path, F_OK))
			return -ESRCH;
	}
	for (int k = 0; k < IL_CTR_N; k++) {
		struct perf_event_attr a;
		uint32_t type;
		uint64_t config;
		int fd;

		if (!event_of((enum il_ctr)k, &type, &config))
			continue;
		/* no perf event: opening one patches kernel text (jump
		 * labels), which an emulated CPU can execute half-done */
		if (il_counters_proc_only()) {
			c->fd[k] = -ENOSYS;
			continue;
		}
		if (type == PERF_TYPE_TRACEPOINT) {
			int id = il_counters_tracepoint_id("sched", tp_name[k]);

			if (id < 0) {
				c->fd[k] = id == -ENOENT || id == -EPERM ||
							   id == -EACCES
						   ? -ENOENT
						   : id;
				continue;
			}
			config = (uint64_t)id;
		}
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = type;
		a.config = config;
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				PERF_FORMAT_TOTAL_TIME_RUNNING;
		a.inherit = !!(flags & IL_CTR_INHERIT);
		a.disabled = !!(flags & IL_CTR_DISABLED);
		fd = perf_open(&a, tid);
		if (fd == -ESRCH)
			return -ESRCH;
		/* an error is kept as -errno in fd[] for the read */
		c->fd[k] = fd;
	}
	proc_now(c, v, c->base_ok);
	memcpy(c->base, v, sizeof(v));
	return 0;
}

static int ioctl_all(struct il_counters *c, unsigned long req)
{
	int ret = 0;

	for (int k = 0; k < IL_CTR_N; k++)
		if (c->fd[k] >= 0 && ioctl(c->fd[k], req, 0) && !ret)
			ret = -errno;
	return ret;
}

int il_counters_enable(struct il_counters *c)
{
	uint64_t v[IL_CTR_N];

	if (!c)
		return -EINVAL;
	proc_now(c, v, c->base_ok);
	memcpy(c->base, v, sizeof(v));
	return ioctl_all(c, PERF_EVENT_IOC_ENABLE);
}

int il_counters_disable(struct il_counters *c)
{
	return c ? ioctl_all(c, PERF_EVENT_IOC_DISABLE) : -EINVAL;
}

int il_counters_read(struct il_counters *c, struct il_counts *out)
{
	uint64_t v[IL_CTR_N];
	bool ok[IL_CTR_N];

	if (!c || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	for (int k = 0; k < IL_CTR_N; k++) {
		struct il_ctr_val *o = &out->c[k];
		uint64_t r[3];
		uint32_t type;
		uint64_t config;

		if (!event_of((enum il_ctr)k, &type, &config))
			continue;
		if (c->fd[k] < 0) {
			o->state = (uint8_t)il_counters_open_state(
				(enum il_ctr)k, c->fd[k]);
			continue;
		}
		if (read(c->fd[k], r, sizeof(r)) != sizeof(r)) {
			o->state = IL_CTR_NOT_AVAILABLE;
			continue;
		}
		o->state = IL_CTR_COUNTED;
		o->v = r[0];
		if (r[2] < r[1]) {
			o->scaled = 1;
			o->v = r[2] ? (uint64_t)((double)r[0] * (double)r[1] /
						 (double)r[2])
				    : 0;
		}
	}
	proc_now(c, v, ok);
	for (int k = 0; k < IL_CTR_N; k++) {
		struct il_ctr_val *o = &out->c[k];
		bool proc_only = k == IL_CTR_VOLUNTARY ||
				 k == IL_CTR_INVOLUNTARY ||
				 k == IL_CTR_RUN_DELAY;

		if (!proc_only && o->state != IL_CTR_NOT_AVAILABLE &&
		    o->state != IL_CTR_NOT_SUPPORTED)
			continue;
		/* the software events' fallbacks, and the /proc figures */
		if (!proc_only && k != IL_CTR_CS && k != IL_CTR_MIGRATIONS)
			continue;
		if (ok[k] && c->base_ok[k]) {
			o->v = v[k] >= c->base[k] ? v[k] - c->base[k] : 0;
			/* the split is /proc's own: counted, not a stand-in */
			o->state = proc_only ? IL_CTR_COUNTED : IL_CTR_FALLBACK;
			o->scaled = 0;
		} else if (proc_only) {
			o->state = IL_CTR_NOT_AVAILABLE;
		}
	}
	return 0;
}

void il_counters_close(struct il_counters *c)
{
	if (!c)
		return;
	for (int k = 0; k < IL_CTR_N; k++) {
		if (c->fd[k] >= 0)
			close(c->fd[k]);
		c->fd[k] = -1;
	}
}

void il_counters_add(struct il_counts *a, const struct il_counts *b)
{
	for (int k = 0; k < IL_CTR_N; k++) {
		struct il_ctr_val *x = &a->c[k];
		const struct il_ctr_val *y = &b->c[k];

		if (y->state == IL_CTR_UNSET)
			continue;
		if (x->state == IL_CTR_UNSET) {
			*x = *y;
			continue;
		}
		if (il_counters_has(x) && il_counters_has(y)) {
			x->v += y->v;
			x->scaled |= y->scaled;
			if (y->state == IL_CTR_FALLBACK)
				x->state = IL_CTR_FALLBACK;
		} else if (il_counters_has(x) || il_counters_has(y)) {
			/* a sum with a part missing is no sum */
			x->v = 0;
			x->scaled = 0;
			x->state = IL_CTR_NOT_AVAILABLE;
		}
	}
}

/* ---- output ----------------------------------------------------------- */

static void json_keys(struct il_json *j, const char *key,
		      const struct il_counts *c, bool scaled)
{
	bool any = false;

	for (int k = 0; k < IL_CTR_N && !any; k++)
		any = scaled ? c->c[k].scaled
			     : c->c[k].state == IL_CTR_FALLBACK;
	if (!any)
		return;
	il_json_begin_array(j, key);
	for (int k = 0; k < IL_CTR_N; k++)
		if (scaled ? c->c[k].scaled : c->c[k].state == IL_CTR_FALLBACK)
			il_json_str(j, NULL, names[k].key);
	il_json_end_array(j);
}

void il_counters_json(struct il_json *j, const char *key,
		      const struct il_counts *c)
{
	il_json_begin_object(j, key);
	for (int k = 0; k < IL_CTR_N; k++) {
		const struct il_ctr_val *v = &c->c[k];

		if (il_counters_has(v))
			il_json_uint(j, names[k].key, v->v);
		else if (v->state != IL_CTR_UNSET)
			il_json_str(j, names[k].key,
				    il_counters_state_name(
					    (enum il_ctr_state)v->state));
	}
	json_keys(j, "fallback", c, false);
	json_keys(j, "scaled", c, true);
	il_json_end_object(j);
}

char *il_counters_line(const struct il_counts *c, char *buf, size_t len)
{
	size_t off = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (int k = 0; k < IL_CTR_N && off < len; k++) {
		const struct il_ctr_val *v = &c->c[k];
		const char *n = strchr(names[k].name, ':');

		if (v->state == IL_CTR_UNSET || k == IL_CTR_VOLUNTARY ||
		    k == IL_CTR_INVOLUNTARY)
			continue;
		n = n ? n + 1 : names[k].name;
		if (il_counters_has(v))
			off += (size_t)snprintf(buf + off, len - off,
						"%s%s %" PRIu64 "%s",
						off ? ", " : "", n, v->v,
						v->scaled ? " (scaled)" : "");
		else
			off += (size_t)snprintf(
				buf + off, len - off, "%s%s %s",
				off ? ", " : "", n,
				il_counters_state_name(
					(enum il_ctr_state)v->state));
		if (k == IL_CTR_CS && off < len &&
		    il_counters_has(&c->c[IL_CTR_VOLUNTARY]))
			off += (size_t)snprintf(buf + off, len - off,
						" (voluntary %" PRIu64
						", involuntary %" PRIu64 ")",
						c->c[IL_CTR_VOLUNTARY].v,
						c->c[IL_CTR_INVOLUNTARY].v);
	}
	if (!off)
		snprintf(buf, len, "not measured");
	return buf;
}
