// SPDX-License-Identifier: MIT
/*
 * State files of runs (runstate.h): what a process changed, recorded
 * before the change, so that the next run can undo what a SIGKILLed one
 * left behind: cgroups and cpuset partitions, cpuset.sched_load_balance
 * turned off machine-wide, a controller enabled in a subtree, temporary
 * directories and files.
 *
 * Only root can write /run/invlab; a process that cannot gets -EACCES
 * from il_runstate_record, and its callers decide (a cgroup is then not
 * made: nobody could undo it; a temporary directory in /tmp still is,
 * found again by its name).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <invlab/runstate.h>

#include "cgroupfs-private.h"

#define STATE_MAX (IL_RS_MAX * 600 + 256)

static const char *const kinds[] = {
	[IL_RS_NONE] = "",
	[IL_RS_CGROUP] = "cgroup",
	[IL_RS_BALANCE] = "balance",
	[IL_RS_SUBTREE] = "subtree",
	[IL_RS_TMPDIR] = "tmpdir",
	[IL_RS_FILE] = "file",
	[IL_RS_PARTITION] = "partition",
	[IL_RS_TRACEFS] = "tracefs",
	[IL_RS_MOUNT] = "mount",
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct il_runstate self;
static void (*notice_fn)(const char *line);

void il_runstate_set_notice(void (*fn)(const char *line))
{
	notice_fn = fn;
}

void __il_notice(const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (!notice_fn)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	notice_fn(line);
}

/* ---- text ---------------------------------------------------------------- */

int __il_proc_stat_parse(const char *text, char *comm, size_t clen,
			 unsigned long long *start)
{
	const char *l = text ? strchr(text, '(') : NULL;
	const char *r = text ? strrchr(text, ')') : NULL;
	const char *p;

	/* "pid (comm) state ppid ...": comm is everything between the first
	 * '(' and the last ')' */
	if (!l || !r || r < l)
		return -EINVAL;
	if (comm)
		snprintf(comm, clen, "%.*s", (int)(r - l - 1), l + 1);
	p = r + 1;
	/* fields 3.. follow; start time is field 22 */
	for (int field = 3; field <= 22; field++) {
		char *end;
		unsigned long long v;

		while (*p == ' ')
			p++;
		if (!*p)
			return -EINVAL;
		if (field == 22) {
			errno = 0;
			v = strtoull(p, &end, 10);
			if (end == p || errno ||
			    (*end && *end != ' ' && *end != '\n'))
				return -EINVAL;
			*start = v;
			return 0;
		}
		while (*p && *p != ' ')
			p++;
	}
	return -EINVAL;
}

int __il_runstate_name_pid(const char *name, bool kmutex)
{
	const char *pre = kmutex ? "invlab-kmutex-" : "invlab-";
	size_t n = strlen(pre);
	long v = 0;
	const char *p;

	if (!name || strncmp(name, pre, n))
		return -1;
	p = name + n;
	if (*p < '1' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (*p - '0');
		if (v > 0x3fffffff)
			return -1;
	}
	if (kmutex ? *p != '-' : *p != '\0')
		return -1;
	return (int)v;
}

static bool path_ok(const char *p)
{
	if (!p || p[0] != '/' || strstr(p, "/../") || strstr(p, "/./"))
		return false;
	for (; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return false;
	return true;
}

static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

int __il_runstate_rec_ok(const struct il_rs_rec *r, int pid, char *err,
			 size_t len)
{
	char want[32];
	size_t n;

	if (!path_ok(r->path) || (n = strlen(r->path)) < 2 ||
	    r->path[n - 1] == '/' ||
	    (n >= 3 && !strcmp(r->path + n - 3, "/..")) ||
	    (n >= 2 && !strcmp(r->path + n - 2, "/."))) {
		snprintf(err, len, "'%s' is not a plain absolute path",
			 r->path);
		return -EINVAL;
	}
	snprintf(want, sizeof(want), "/invlab-%d", pid);
	switch (r->kind) {
	case IL_RS_CGROUP:
	case IL_RS_PARTITION: {
		const char *m = strstr(r->path, want);
		size_t w = strlen(want);

		if (strncmp(r->path, "/sys/fs/cgroup/", 15) || !m ||
		    (m[w] && m[w] != '/')) {
			snprintf(err, len,
				 "%s '%s' is not an invlab-%d group under "
				 "/sys/fs/cgroup",
				 kinds[r->kind], r->path, pid);
			return -EINVAL;
		}
		/* a partition is only ever given back to its parent */
		if (r->kind == IL_RS_PARTITION && strcmp(r->value, "member")) {
			snprintf(err, len,
				 "partition '%s' '%s': only member undoes a "
				 "partition",
				 r->path, r->value);
			return -EINVAL;
		}
		return 0;
	}
	case IL_RS_BALANCE:
		if (strncmp(r->path, "/sys/fs/cgroup", 14) ||
		    (strcmp(r->value, "0") && strcmp(r->value, "1"))) {
			snprintf(err, len,
				 "balance '%s' '%s': a cpuset under "
				 "/sys/fs/cgroup and 0 or 1",
				 r->path, r->value);
			return -EINVAL;
		}
		return 0;
	case IL_RS_SUBTREE:
		if (strncmp(r->path, "/sys/fs/cgroup", 14) ||
		    (strcmp(r->value, "-cpu") && strcmp(r->value, "-cpuset"))) {
			snprintf(err, len,
				 "subtree '%s' '%s': a group under "
				 "/sys/fs/cgroup and -cpu or -cpuset",
				 r->path, r->value);
			return -EINVAL;
		}
		return 0;
	case IL_RS_TMPDIR:
		if (__il_runstate_name_pid(base(r->path), true) != pid) {
			snprintf(err, len,
				 "tmpdir '%s' is not named "
				 "invlab-kmutex-%d-...",
				 r->path, pid);
			return -EINVAL;
		}
		return 0;
	case IL_RS_FILE:
		if (!strstr(base(r->path), ".tmp.")) {
			snprintf(err, len, "file '%s' is not a .tmp. file",
				 r->path);
			return -EINVAL;
		}
		return 0;
	case IL_RS_TRACEFS: {
		size_t d = (size_t)(base(r->path) - r->path);
		char own[80];

		snprintf(own, sizeof(own),
			 IL_RUNSTATE_DIR "/tracefs-%d/instances/", pid);
		if ((strncmp(r->path, "/sys/kernel/tracing/instances/", d) ||
		     d != 30) &&
		    (strncmp(r->path, "/sys/kernel/debug/tracing/instances/",
			     d) ||
		     d != 36) &&
		    (strncmp(r->path, own, d) || d != strlen(own))) {
			snprintf(err, len,
				 "tracefs '%s' is not an instance under "
				 "/sys/kernel/tracing or %s",
				 r->path, own);
			return -EINVAL;
		}
		if (strcmp(base(r->path), want + 1)) {
			snprintf(err, len,
				 "tracefs '%s' is not the instance invlab-%d",
				 r->path, pid);
			return -EINVAL;
		}
		return 0;
	}
	case IL_RS_MOUNT: {
		char own[64];

		/* the run's own mount point; /sys/kernel/tracing from
		 * versions that mounted tracefs there */
		snprintf(own, sizeof(own), IL_RUNSTATE_DIR "/tracefs-%d", pid);
		if (strcmp(r->path, own) &&
		    strcmp(r->path, "/sys/kernel/tracing")) {
			snprintf(err, len,
				 "mount '%s' is neither %s nor "
				 "/sys/kernel/tracing",
				 r->path, own);
			return -EINVAL;
		}
		return 0;
	}
	default:
		snprintf(err, len, "unknown record");
		return -EINVAL;
	}
}

/* next line of text into buf (without the newline); false at the end */
static bool next_line(const char **p, char *buf, size_t len, bool *toolong)
{
	const char *s = *p, *e;
	size_t n;

	if (!*s)
		return false;
	e = strchr(s, '\n');
	n = e ? (size_t)(e - s) : strlen(s);
	*toolong = n >= len;
	snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), s);
	*p = e ? e + 1 : s + n;
	return true;
}

int __il_runstate_parse(const char *text, struct il_runstate *st, char *err,
			size_t len)
{
	char line[700];
	const char *p = text;
	bool toolong;
	int ln = 0, have = 0;

	memset(st, 0, sizeof(*st));
	while (next_line(&p, line, sizeof(line), &toolong)) {
		char *sp, *key = line, *rest;

		ln++;
		if (toolong) {
			snprintf(err, len, "line %d: too long", ln);
			return -EINVAL;
		}
		if (!line[0])
			continue;
		sp = strchr(line, ' ');
		if (!sp) {
			snprintf(err, len, "line %d: '%s' without a value", ln,
				 line);
			return -EINVAL;
		}
		*sp = '\0';
		rest = sp + 1;
		if (ln == 1) {
			if (strcmp(key, "invlab-state") || strcmp(rest, "1")) {
				snprintf(err, len,
					 "line 1: not an invlab state file "
					 "(version 1)");
				return -EINVAL;
			}
			continue;
		}
		if (!strcmp(key, "pid") || !strcmp(key, "start")) {
			char *end;
			unsigned long long v;

			errno = 0;
			v = strtoull(rest, &end, 10);
			if (errno || end == rest || *end ||
			    (!strcmp(key, "pid") &&
			     (v < 1 || v > 0x3fffffff))) {
				snprintf(err, len, "line %d: bad %s '%s'", ln,
					 key, rest);
				return -EINVAL;
			}
			if (key[0] == 'p') {
				st->pid = (int)v;
				have |= 1;
			} else {
				st->start = v;
				have |= 2;
			}
		} else if (!strcmp(key, "prog")) {
			snprintf(st->prog, sizeof(st->prog), "%s", rest);
		} else {
			struct il_rs_rec *r;
			enum il_rs_kind k = IL_RS_NONE;
			char *val;

			for (int i = 1;
			     i < (int)(sizeof(kinds) / sizeof(kinds[0])); i++)
				if (!strcmp(key, kinds[i]))
					k = (enum il_rs_kind)i;
			if (k == IL_RS_NONE) {
				snprintf(err, len, "line %d: unknown key '%s'",
					 ln, key);
				return -EINVAL;
			}
			if (!(have & 1)) {
				snprintf(err, len,
					 "line %d: a record before the pid",
					 ln);
				return -EINVAL;
			}
			if (st->n == IL_RS_MAX) {
				snprintf(err, len,
					 "line %d: more than %d records", ln,
					 IL_RS_MAX);
				return -EINVAL;
			}
			r = &st->rec[st->n];
			memset(r, 0, sizeof(*r));
			r->kind = k;
			val = (k == IL_RS_BALANCE || k == IL_RS_SUBTREE ||
			       k == IL_RS_PARTITION)
				      ? strrchr(rest, ' ')
				      : NULL;
			if (val) {
				*val++ = '\0';
				snprintf(r->value, sizeof(r->value), "%s", val);
			}
			snprintf(r->path, sizeof(r->path), "%s", rest);
			if (__il_runstate_rec_ok(r, st->pid, err + 0, len)) {
				char why[600];

				snprintf(why, sizeof(why), "%s", err);
				snprintf(err, len, "line %d: %s", ln, why);
				return -EINVAL;
			}
			st->n++;
		}
	}
	if (!ln) {
		snprintf(err, len, "empty");
		return -EINVAL;
	}
	if (have != 3) {
		snprintf(err, len, "no %s line", have & 1 ? "start" : "pid");
		return -EINVAL;
	}
	return 0;
}

int __il_runstate_format(const struct il_runstate *st, char *buf, size_t len)
{
	size_t off = 0;
	int n;

	n = snprintf(buf, len, "invlab-state 1\npid %d\nstart %llu\nprog %s\n",
		     st->pid, st->start, st->prog[0] ? st->prog : "?");
	if (n < 0 || (size_t)n >= len)
		return -ENOSPC;
	off = (size_t)n;
	for (int i = 0; i < st->n; i++) {
		const struct il_rs_rec *r = &st->rec[i];

		n = snprintf(buf + off, len - off, "%s %s%s%s\n",
			     kinds[r->kind], r->path, r->value[0] ? " " : "",
			     r->value);
		if (n < 0 || (size_t)n >= len - off)
			return -ENOSPC;
		off += (size_t)n;
	}
	return (int)off;
}

/* ---- processes ----------------------------------------------------------- */

static char *read_text(const char *path, size_t max)
{
	char *buf = malloc(max + 1);
	size_t n = 0;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0 || !buf) {
		if (fd >= 0)
			close(fd);
		free(buf);
		return NULL;
	}
	while (n < max && (r = read(fd, buf + n, max - n)) > 0)
		n += (size_t)r;
	close(fd);
	buf[n] = '\0';
	return buf;
}

/*
 * The start time is read from the main thread's own file, the same
 * figure as /proc/PID/stat's, because a process under qemu-user (the
 * device builds' tests) reading /proc/self/stat or /proc/<own pid>/stat
 * gets a stat that qemu makes up, whose start time can be a tick off the
 * kernel's: every other process then took it for dead and removed its
 * temporary files while it ran.  qemu passes the task path through.
 */
int __il_proc_start(int pid, char *comm, size_t clen, unsigned long long *start)
{
	char p[64], *t;
	int ret;

	snprintf(p, sizeof(p), "/proc/%d/task/%d/stat", pid, pid);
	t = read_text(p, 4096);
	if (!t)
		return -ESRCH;
	ret = __il_proc_stat_parse(t, comm, clen, start);
	free(t);
	return ret;
}

/* seconds since the epoch when a process with start time st began */
static long start_epoch(unsigned long long st)
{
	static long btime = -1;
	long hz = sysconf(_SC_CLK_TCK);

	if (btime < 0) {
		char *t = read_text("/proc/stat", 1 << 16), *b;

		btime = 0;
		if (t && (b = strstr(t, "\nbtime ")))
			btime = strtol(b + 7, NULL, 10);
		free(t);
	}
	return btime + (long)(st / (unsigned long long)(hz > 0 ? hz : 100));
}

bool il_runstate_owner_alive(int pid, unsigned long long start, long t_made)
{
	unsigned long long s;

	if (pid <= 0 || __il_proc_start(pid, NULL, 0, &s))
		return false;
	if (start)
		return s == start;
	/* a process that began after the thing was made did not make it
	 * (2 s for the rounding of both clocks) */
	return !t_made || start_epoch(s) <= t_made + 2;
}

/* ---- this process's state file --------------------------------------------
 */

static int state_path(int pid, char *buf, size_t len)
{
	return snprintf(buf, len, IL_RUNSTATE_DIR "/%d.state", pid) < (int)len
		       ? 0
		       : -ENAMETOOLONG;
}

int __il_runstate_dir(void)
{
	struct stat st;

	if (mkdir(IL_RUNSTATE_DIR, 0755) && errno != EEXIST)
		return -errno;
	if (lstat(IL_RUNSTATE_DIR, &st))
		return -errno;
	/* written by root only; a directory planted by someone else is not
	 * trusted */
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 022))
		return -EPERM;
	return 0;
}

/* write self to its file atomically, or remove the file when empty */
static int save(void)
{
	char path[128], tmp[160], *buf;
	int fd, n, ret = 0;

	if (state_path(self.pid, path, sizeof(path)))
		return -ENAMETOOLONG;
	if (!self.n)
		return unlink(path) && errno != ENOENT ? -errno : 0;
	ret = __il_runstate_dir();
	if (ret)
		return ret;
	buf = malloc(STATE_MAX);
	if (!buf)
		return -ENOMEM;
	n = __il_runstate_format(&self, buf, STATE_MAX);
	if (n < 0) {
		free(buf);
		return n;
	}
	snprintf(tmp, sizeof(tmp), IL_RUNSTATE_DIR "/.%d.state.tmp", self.pid);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	if (fd < 0) {
		free(buf);
		return -errno;
	}
	if (write(fd, buf, (size_t)n) != n)
		ret = errno ? -errno : -EIO;
	if (!ret && fsync(fd))
		ret = -errno;
	close(fd);
	free(buf);
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

static int undo(const struct il_runstate *st, char *what, size_t len);

/*
 * A file under this PID already: a dead process that had the same PID
 * (it started at another time) and was never repaired.  Undone before it
 * is overwritten.
 */
static void undo_predecessor(void)
{
	struct il_runstate *old = malloc(sizeof(*old));
	char path[128], err[600], what[256], *text;

	if (!old || state_path(self.pid, path, sizeof(path)) ||
	    !(text = read_text(path, STATE_MAX))) {
		free(old);
		return;
	}
	if (!__il_runstate_parse(text, old, err, sizeof(err)) &&
	    old->pid == self.pid && old->start != self.start &&
	    !undo(old, what, sizeof(what)))
		__il_notice("repaired what an earlier PID %d (%s) left: %s",
			    old->pid, old->prog, what);
	free(text);
	free(old);
}

int il_runstate_record(enum il_rs_kind kind, const char *path,
		       const char *value)
{
	struct il_rs_rec *r;
	char err[600];
	int ret;

	if (kind <= IL_RS_NONE || kind >= IL_RS_KIND_N || !path)
		return -EINVAL;
	pthread_mutex_lock(&lock);
	if (self.pid != getpid()) {
		/* first record, or a child after fork(): its own file */
		memset(&self, 0, sizeof(self));
		self.pid = getpid();
		__il_proc_start(self.pid, NULL, 0, &self.start);
		snprintf(self.prog, sizeof(self.prog), "%s",
			 program_invocation_short_name);
		/* not under the lock: undoing a group forgets its record */
		pthread_mutex_unlock(&lock);
		undo_predecessor();
		pthread_mutex_lock(&lock);
	}
	for (int i = 0; i < self.n; i++)
		if (self.rec[i].kind == kind &&
		    !strcmp(self.rec[i].path, path)) {
			pthread_mutex_unlock(&lock);
			return 0;
		}
	if (self.n == IL_RS_MAX) {
		pthread_mutex_unlock(&lock);
		return -ENOSPC;
	}
	r = &self.rec[self.n];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	snprintf(r->path, sizeof(r->path), "%s", path);
	snprintf(r->value, sizeof(r->value), "%s", value ? value : "");
	if (strlen(path) >= sizeof(r->path) ||
	    __il_runstate_rec_ok(r, self.pid, err, sizeof(err))) {
		pthread_mutex_unlock(&lock);
		return -EINVAL;
	}
	self.n++;
	ret = save();
	if (ret)
		self.n--;
	pthread_mutex_unlock(&lock);
	return ret;
}

void il_runstate_forget(enum il_rs_kind kind, const char *path)
{
	pthread_mutex_lock(&lock);
	if (self.pid == getpid()) {
		for (int i = 0; i < self.n; i++) {
			if (self.rec[i].kind != kind ||
			    strcmp(self.rec[i].path, path))
				continue;
			memmove(&self.rec[i], &self.rec[i + 1],
				(size_t)(self.n - i - 1) * sizeof(self.rec[0]));
			self.n--;
			save();
			break;
		}
	}
	pthread_mutex_unlock(&lock);
}

/* ---- undoing ----------------------------------------------------------- */

int __il_rmtree_at(int dfd, const char *name, int depth)
{
	int fd = openat(dfd, name,
			O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d;
	struct dirent *de;

	if (fd < 0) {
		/* not a directory (or a link to one): the name itself */
		if (errno == ENOTDIR || errno == ELOOP)
			return unlinkat(dfd, name, 0) && errno != ENOENT
				       ? -errno
				       : 0;
		return errno == ENOENT ? 0 : -errno;
	}
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (depth > 0)
			__il_rmtree_at(dirfd(d), de->d_name, depth - 1);
		else
			unlinkat(dirfd(d), de->d_name, 0);
	}
	closedir(d);
	return unlinkat(dfd, name, AT_REMOVEDIR) && errno != ENOENT ? -errno
								    : 0;
}

/* a path's directory open without following its last component, and the
 * last component */
static int open_parent(const char *path, char *name, size_t len)
{
	char dir[512];
	const char *b = base(path);
	int fd;

	if (b == path || !*b || (size_t)(b - path) >= sizeof(dir))
		return -EINVAL;
	snprintf(dir, sizeof(dir), "%.*s", (int)(b - path - 1), path);
	snprintf(name, len, "%s", b);
	fd = open(dir[0] ? dir : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static int undo_tmp(const struct il_rs_rec *r)
{
	char name[256];
	struct stat st;
	int dfd = open_parent(r->path, name, sizeof(name)), ret;

	if (dfd < 0)
		return dfd == -ENOENT ? 0 : dfd;
	/* only what this user made: a directory or file of its own */
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		ret = errno == ENOENT ? 0 : -errno;
	} else if (st.st_uid != geteuid() ||
		   (r->kind == IL_RS_TMPDIR ? !S_ISDIR(st.st_mode)
					    : !S_ISREG(st.st_mode))) {
		ret = -EPERM;
	} else if (r->kind == IL_RS_TMPDIR) {
		ret = __il_rmtree_at(dfd, name, 1);
	} else {
		ret = unlinkat(dfd, name, 0) ? -errno : 0;
	}
	close(dfd);
	return ret;
}

static int write_str(const char *dir, const char *file, const char *v)
{
	char p[600];
	int fd, ret = 0;

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	fd = open(p, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	if (write(fd, v, strlen(v)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static void append(char *msg, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void append(char *msg, size_t len, const char *fmt, ...)
{
	size_t off = strlen(msg);
	va_list ap;

	if (off + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(msg + off, len - off, fmt, ap);
	va_end(ap);
}

/* undo one dead run's records: 0 when all of them were undone */
static int undo(const struct il_runstate *st, char *what, size_t len)
{
	int ncg = 0, left = 0, nbal = 0, ntmp = 0, ndir = 0, ntr = 0;

	/*
	 * groups, the deepest first (recorded parent first); a v2 partition
	 * root is given back to its parent ("member") before its group goes,
	 * the per-CPU ones before the run's own (recorded after it)
	 */
	for (int i = st->n - 1; i >= 0; i--)
		if (st->rec[i].kind == IL_RS_PARTITION) {
			if (write_str(st->rec[i].path, "cpuset.cpus.partition",
				      st->rec[i].value) &&
			    errno != ENOENT)
				left++;
		} else if (st->rec[i].kind == IL_RS_CGROUP) {
			if (__il_cgroup_remove_path(st->rec[i].path))
				left++;
			else
				ncg++;
		}
	for (int i = st->n - 1; i >= 0; i--) {
		const struct il_rs_rec *r = &st->rec[i];

		if (r->kind == IL_RS_BALANCE) {
			if (write_str(r->path, "cpuset.sched_load_balance",
				      r->value) &&
			    errno != ENOENT)
				left++;
			else
				nbal++;
		} else if (r->kind == IL_RS_SUBTREE) {
			/* -EBUSY: someone else uses the controller there now;
			 * leaving it enabled is harmless */
			write_str(r->path, "cgroup.subtree_control", r->value);
		} else if (r->kind == IL_RS_TRACEFS) {
			/* its files closed with its owner: rmdir removes it,
			 * events and buffers with it */
			if (rmdir(r->path) && errno != ENOENT)
				left++;
			else
				ntr++;
		} else if (r->kind == IL_RS_MOUNT) {
			/* recorded before the instance: undone after it; the
			 * run's own mount point goes with its mount; busy (in
			 * use by someone else now): left, harmless */
			umount2(r->path, 0);
			if (!strncmp(r->path, IL_RUNSTATE_DIR "/", 12))
				rmdir(r->path); /* EBUSY while mounted */
		} else if (r->kind == IL_RS_TMPDIR || r->kind == IL_RS_FILE) {
			if (undo_tmp(r))
				left++;
			else if (r->kind == IL_RS_TMPDIR)
				ndir++;
			else
				ntmp++;
		}
	}
	what[0] = '\0';
	if (ncg)
		append(what, len, "%d cgroup%s", ncg, ncg == 1 ? "" : "s");
	if (nbal)
		append(what, len, "%sload balancing restored",
		       what[0] ? ", " : "");
	if (ndir)
		append(what, len, "%s%d temporary director%s",
		       what[0] ? ", " : "", ndir, ndir == 1 ? "y" : "ies");
	if (ntmp)
		append(what, len, "%s%d temporary file%s", what[0] ? ", " : "",
		       ntmp, ntmp == 1 ? "" : "s");
	if (ntr)
		append(what, len, "%s%d tracefs instance%s",
		       what[0] ? ", " : "", ntr, ntr == 1 ? "" : "s");
	if (left)
		append(what, len, "%s%d left (busy)", what[0] ? ", " : "",
		       left);
	if (!what[0])
		append(what, len, "nothing that was still there");
	return left ? -EBUSY : 0;
}

/* invlab-kmutex-<pid>-* in /tmp of dead PIDs (no state file for them) */
static int reap_tmp(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		int pid = __il_runstate_name_pid(de->d_name, true);
		struct stat st;

		if (pid <= 0 || pid == getpid() ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
		    il_runstate_owner_alive(pid, 0, (long)st.st_mtime))
			continue;
		if (!__il_rmtree_at(dirfd(d), de->d_name, 1))
			n++;
	}
	closedir(d);
	return n;
}

/*
 * tracefs instances invlab-<pid> of dead PIDs under dir/instances, and
 * the mount points IL_RUNSTATE_DIR/tracefs-<pid> of dead PIDs: left by a
 * run whose record was lost (its mount was taken away under it) or by a
 * version that kept none.  The number removed.
 */
int __il_trace_reap_instances(const char *dir)
{
	char path[400];
	DIR *d;
	struct dirent *de;
	int n = 0;

	snprintf(path, sizeof(path), "%s/instances", dir);
	d = opendir(path);
	while (d && (de = readdir(d))) {
		int pid = __il_runstate_name_pid(de->d_name, false);
		struct stat st;

		if (pid <= 0 || pid == getpid() ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISDIR(st.st_mode) ||
		    il_runstate_owner_alive(pid, 0, (long)st.st_mtime))
			continue;
		/* its files closed with its owner: rmdir removes it */
		if (!unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR))
			n++;
	}
	if (d)
		closedir(d);
	return n;
}

/*
 * One walk over the mount table: a dead run's own mount point
 * (IL_RUNSTATE_DIR/tracefs-PID) loses its dead instances and is
 * unmounted; the first other tracefs mount (every mount shows the same
 * instances) loses the instances of dead runs.  Then the empty mount
 * points of dead runs go.  None mounted at all: the recorder reaps in
 * the mount it makes.
 */
static int reap_tracefs(void)
{
	char line[1024], dev[256], mnt[256], type[64], pre[64];
	FILE *f = fopen("/proc/self/mounts", "re");
	bool shared_done = false;
	DIR *d;
	struct dirent *de;
	int n = 0;

	snprintf(pre, sizeof(pre), IL_RUNSTATE_DIR "/tracefs-");
	while (f && fgets(line, sizeof(line), f)) {
		int pid;

		if (sscanf(line, "%255s %255s %63s", dev, mnt, type) != 3 ||
		    strcmp(type, "tracefs"))
			continue;
		if (strncmp(mnt, pre, strlen(pre))) {
			if (!shared_done)
				n += __il_trace_reap_instances(mnt);
			shared_done = true;
			continue;
		}
		pid = atoi(mnt + strlen(pre));
		if (pid > 0 && pid != getpid() &&
		    !il_runstate_owner_alive(pid, 0, 0)) {
			n += __il_trace_reap_instances(mnt);
			if (!umount2(mnt, 0))
				n++;
		}
	}
	if (f)
		fclose(f);
	d = opendir(IL_RUNSTATE_DIR);
	while (d && (de = readdir(d))) {
		int pid;

		if (strncmp(de->d_name, "tracefs-", 8))
			continue;
		pid = atoi(de->d_name + 8);
		if (pid > 0 && pid != getpid() &&
		    !il_runstate_owner_alive(pid, 0, 0))
			unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR);
	}
	if (d)
		closedir(d);
	return n;
}

/*
 * Remove invlab-<pid> groups of dead PIDs that have no state file, at the
 * top of the cpu and cpuset hierarchies and beside this process's own
 * group; a v1 exclusive one also turns load balancing at the top cpuset
 * back on.  The number removed, what says so.
 */

/* invlab-<pid> cgroups in dir of dead PIDs without a state file */
static int reap_in(const char *dir, int version, bool *was_excl)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d))) {
		int pid = __il_runstate_name_pid(de->d_name, false);
		char sub[640], state[128];
		struct stat st;

		if (pid <= 0 || pid == getpid())
			continue;
		snprintf(state, sizeof(state), IL_RUNSTATE_DIR "/%d.state",
			 pid);
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		if (!access(state, F_OK) || lstat(sub, &st) ||
		    !S_ISDIR(st.st_mode) ||
		    il_runstate_owner_alive(pid, 0, (long)st.st_mtime))
			continue;
		if (__il_cgroup_exclusive(sub))
			*was_excl = true;
		if (!__il_cgroup_remove_tree(sub, dir, version, 1))
			n++;
	}
	if (d)
		closedir(d);
	return n;
}

static int reap_cgroups(char *what, size_t len)
{
	int total = 0;
	bool balance = false;
	char cpuset_mnt[512] = "";

	what[0] = '\0';
	for (int c = IL_CG_CPU; c <= IL_CG_CPUSET; c++) {
		char mnt[512], root[512], own[512], dir[512], e[256];
		char *pc = __il_cgroup_read_all("/proc/self/cgroup");
		bool excl = false;
		int version, n;

		if (il_cgroup_mount((enum il_cg_ctrl)c, mnt, sizeof(mnt),
				    &version, e, sizeof(e))) {
			free(pc);
			continue;
		}
		n = reap_in(mnt, version, &excl);
		{
			char *mi = __il_cgroup_read_all("/proc/self/mountinfo");

			if (mi && pc &&
			    !__il_cgroup_find_mount(mi, (enum il_cg_ctrl)c, mnt,
						    sizeof(mnt), root,
						    sizeof(root), &version) &&
			    !__il_cgroup_own(pc, (enum il_cg_ctrl)c, version,
					     own, sizeof(own)) &&
			    !__il_cgroup_own_dir(dir, sizeof(dir), mnt, root,
						 own) &&
			    strcmp(dir, mnt))
				n += reap_in(dir, version, &excl);
			free(mi);
		}
		free(pc);
		total += n;
		if (c == IL_CG_CPUSET && version == 1 && excl) {
			balance = true;
			snprintf(cpuset_mnt, sizeof(cpuset_mnt), "%s", mnt);
		}
	}
	/*
	 * An exclusive partition of a dead run had turned load balancing off
	 * at the top cpuset (its default is on, and nothing else of ours
	 * holds it off once the partition is gone).
	 */
	if (balance) {
		char v[16];

		if (!__il_cgroup_read(cpuset_mnt, "cpuset.sched_load_balance",
				      v, sizeof(v)) &&
		    !strcmp(v, "0") &&
		    !__il_cgroup_write(cpuset_mnt, "cpuset.sched_load_balance",
				       "1"))
			balance = true;
		else
			balance = false;
	}
	if (total)
		snprintf(what, len, "%d invlab cgroup%s of dead processes%s%s",
			 total, total == 1 ? "" : "s",
			 balance ? "; load balancing back on in " : "",
			 balance ? cpuset_mnt : "");
	return total;
}

int il_runstate_repair(char *msg, size_t len)
{
	DIR *d;
	struct dirent *de;
	int runs = 0, fd, ret = 0, n;
	char what[256];

	msg[0] = '\0';
	/* one repairer at a time; a failure to lock is no reason to stop */
	fd = __il_runstate_dir()
		     ? -1
		     : open(IL_RUNSTATE_DIR "/repair.lock",
			    O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0)
		flock(fd, LOCK_EX);
	d = opendir(IL_RUNSTATE_DIR);
	while (d && (de = readdir(d))) {
		struct il_runstate st;
		char path[300], err[600], *text;
		char *dot = strstr(de->d_name, ".state");
		int pid;

		if (!dot || strcmp(dot, ".state") || de->d_name[0] == '.')
			continue;
		pid = atoi(de->d_name);
		if (pid <= 0 || pid == getpid())
			continue;
		snprintf(path, sizeof(path), IL_RUNSTATE_DIR "/%s", de->d_name);
		text = read_text(path, STATE_MAX);
		if (!text)
			continue;
		ret = __il_runstate_parse(text, &st, err, sizeof(err));
		free(text);
		if (ret || st.pid != pid) {
			append(msg, len, "%s%s: %s", msg[0] ? "; " : "", path,
			       ret ? err : "pid differs from the file name");
			ret = -EINVAL;
			continue;
		}
		if (il_runstate_owner_alive(st.pid, st.start, 0))
			continue;
		if (!undo(&st, what, sizeof(what)))
			unlink(path);
		append(msg, len, "%srepaired what PID %d (%s) left: %s",
		       msg[0] ? "; " : "", st.pid, st.prog, what);
		runs++;
	}
	if (d)
		closedir(d);
	/* left by runs that kept no state file */
	n = reap_cgroups(what, sizeof(what));
	if (n > 0) {
		append(msg, len, "%sremoved %s", msg[0] ? "; " : "", what);
		runs += n;
	}
	n = reap_tracefs();
	if (n > 0) {
		append(msg, len,
		       "%sremoved %d tracefs instance%s or mount%s of dead "
		       "processes",
		       msg[0] ? "; " : "", n, n == 1 ? "" : "s",
		       n == 1 ? "" : "s");
		runs += n;
	}
	n = reap_tmp("/tmp");
	if (n > 0) {
		append(msg, len,
		       "%sremoved %d invlab-kmutex director%s of dead "
		       "processes from /tmp",
		       msg[0] ? "; " : "", n, n == 1 ? "y" : "ies");
		runs += n;
	}
	if (fd >= 0)
		close(fd);
	return ret ? ret : runs;
}

int il_runstate_live_owners(char *buf, size_t len)
{
	DIR *d = opendir(IL_RUNSTATE_DIR);
	struct dirent *de;
	int n = 0;

	buf[0] = '\0';
	while (d && (de = readdir(d))) {
		struct il_runstate st;
		char path[300], err[600], *text;
		char *dot = strstr(de->d_name, ".state");

		if (!dot || strcmp(dot, ".state") || de->d_name[0] == '.' ||
		    atoi(de->d_name) == getpid())
			continue;
		snprintf(path, sizeof(path), IL_RUNSTATE_DIR "/%s", de->d_name);
		text = read_text(path, STATE_MAX);
		if (!text)
			continue;
		if (!__il_runstate_parse(text, &st, err, sizeof(err)) &&
		    il_runstate_owner_alive(st.pid, st.start, 0)) {
			append(buf, len, "%sPID %d (%s)", n ? ", " : "", st.pid,
			       st.prog);
			n++;
		}
		free(text);
	}
	if (d)
		closedir(d);
	return n;
}
