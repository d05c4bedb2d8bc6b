// SPDX-License-Identifier: MIT
/*
 * The cgroup file systems as they are (cgroupfs-private.h): where a
 * controller is mounted and which group the process is in, read from
 * /proc/self/mountinfo and /proc/self/cgroup; reading and writing a
 * group's files; and taking a group directory down, its threads moved to
 * the group above first.  Below both cgroup.c (the groups a run makes)
 * and runstate.c (what a dead run left), which each call it and record
 * nothing through it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <invlab/cgroup.h>

#include "cgroupfs-private.h"

#define RMDIR_TRIES 40 /* x 50 ms */

const char *__il_cgroup_ctrl_name(enum il_cg_ctrl ctrl)
{
	return ctrl == IL_CG_CPUSET ? "cpuset" : "cpu";
}

/* next blank-separated field of a line [*p, end) */
static bool field(const char **p, const char *end, const char **f, size_t *len)
{
	const char *s = *p;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	if (s >= end)
		return false;
	*f = s;
	while (s < end && *s != ' ' && *s != '\t')
		s++;
	*len = (size_t)(s - *f);
	*p = s;
	return true;
}

/* mountinfo escapes blanks, tabs, newlines and backslashes as \ooo */
static void unescape(char *out, size_t size, const char *s, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o + 1 < size; i++) {
		if (s[i] == '\\' && i + 3 < n && s[i + 1] >= '0' &&
		    s[i + 1] <= '3' && s[i + 2] >= '0' && s[i + 2] <= '7' &&
		    s[i + 3] >= '0' && s[i + 3] <= '7') {
			out[o++] =
				(char)((s[i + 1] - '0') * 64 +
				       (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
			i += 3;
		} else {
			out[o++] = s[i];
		}
	}
	out[o] = '\0';
}

/* is word one of the comma-separated items of list[0..n)? */
static bool has_item(const char *list, size_t n, const char *word)
{
	size_t w = strlen(word);
	const char *p = list, *end = list + n;

	while (p < end) {
		const char *c = memchr(p, ',', (size_t)(end - p));
		size_t len = c ? (size_t)(c - p) : (size_t)(end - p);

		if (len == w && !strncmp(p, word, w))
			return true;
		if (!c)
			break;
		p = c + 1;
	}
	return false;
}

static int v2_rank(const char *mnt)
{
	if (!strcmp(mnt, "/sys/fs/cgroup"))
		return 0;
	if (!strcmp(mnt, "/sys/fs/cgroup/unified"))
		return 1;
	return 2;
}

int __il_cgroup_find_mount(const char *text, enum il_cg_ctrl ctrl, char *mnt,
			   size_t mlen, char *root, size_t rlen, int *version)
{
	const char *name = __il_cgroup_ctrl_name(ctrl), *line;
	char v2_mnt[512] = "", v2_root[512] = "";
	int best = 99;

	for (line = text; line && *line;) {
		const char *end = strchr(line, '\n'), *q = line, *f;
		const char *fmnt = NULL, *froot = NULL;
		size_t len, mnt_len = 0, root_len = 0;
		int i;

		if (!end)
			end = line + strlen(line);
		/* id parent major:minor root mountpoint options [opt...] - */
		for (i = 0; i < 6 && field(&q, end, &f, &len); i++) {
			if (i == 3) {
				froot = f;
				root_len = len;
			} else if (i == 4) {
				fmnt = f;
				mnt_len = len;
			}
		}
		if (i == 6) {
			while (field(&q, end, &f, &len))
				if (len == 1 && *f == '-')
					break;
		}
		/* fstype source superoptions */
		if (i == 6 && field(&q, end, &f, &len)) {
			bool v1 = len == 6 && !strncmp(f, "cgroup", 6);
			bool v2 = len == 7 && !strncmp(f, "cgroup2", 7);
			const char *opts;
			size_t olen;

			if (v1 && field(&q, end, &f, &len) &&
			    field(&q, end, &opts, &olen) &&
			    has_item(opts, olen, name)) {
				unescape(mnt, mlen, fmnt, mnt_len);
				unescape(root, rlen, froot, root_len);
				*version = 1;
				return 0;
			}
			if (v2) {
				char m[512];

				unescape(m, sizeof(m), fmnt, mnt_len);
				if (v2_rank(m) < best) {
					best = v2_rank(m);
					snprintf(v2_mnt, sizeof(v2_mnt), "%s",
						 m);
					unescape(v2_root, sizeof(v2_root),
						 froot, root_len);
				}
			}
		}
		line = *end ? end + 1 : end;
	}
	if (!v2_mnt[0])
		return -ENOENT;
	snprintf(mnt, mlen, "%s", v2_mnt);
	snprintf(root, rlen, "%s", v2_root);
	*version = 2;
	return 0;
}

int __il_cgroup_own(const char *text, enum il_cg_ctrl ctrl, int version,
		    char *path, size_t len)
{
	const char *name = __il_cgroup_ctrl_name(ctrl), *line;

	for (line = text; line && *line;) {
		const char *end = strchr(line, '\n');
		const char *c1, *c2;

		if (!end)
			end = line + strlen(line);
		c1 = memchr(line, ':', (size_t)(end - line));
		c2 = c1 ? memchr(c1 + 1, ':', (size_t)(end - c1 - 1)) : NULL;
		if (c2) {
			bool v2_line = c2 == c1 + 1 && c1 - line == 1 &&
				       line[0] == '0';
			bool match =
				version == 2
					? v2_line
					: has_item(c1 + 1,
						   (size_t)(c2 - c1 - 1), name);

			if (match && c2 + 1 < end && c2[1] == '/') {
				snprintf(path, len, "%.*s", (int)(end - c2 - 1),
					 c2 + 1);
				return 0;
			}
		}
		line = *end ? end + 1 : end;
	}
	return -ENOENT;
}

int __il_cgroup_own_dir(char *out, size_t len, const char *mnt,
			const char *root, const char *own)
{
	size_t rl = strlen(root);
	const char *rest = own;
	int n;

	/* the mount shows the hierarchy from root on */
	if (strcmp(root, "/")) {
		if (strncmp(own, root, rl) || (own[rl] && own[rl] != '/'))
			return -EINVAL;
		rest = own + rl;
	}
	while (*rest == '/')
		rest++;
	/* a path from the kernel; still, never climb out of the mount */
	if (strstr(rest, "..") || strchr(rest, '\n'))
		return -EINVAL;
	n = *rest ? snprintf(out, len, "%s/%s", mnt, rest)
		  : snprintf(out, len, "%s", mnt);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	/* "/sys/fs/cgroup/cpu/" from a "/" own group: no trailing slash */
	while (n > 1 && out[n - 1] == '/')
		out[--n] = '\0';
	return 0;
}

char *__il_cgroup_read_all(const char *path)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (!buf || fd < 0) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((r = read(fd, buf + n, cap - n - 1)) > 0) {
		n += (size_t)r;
		if (n + 1 == cap) {
			char *b =
				cap < (1u << 22) ? realloc(buf, cap * 2) : NULL;

			if (!b)
				break;
			buf = b;
			cap *= 2;
		}
	}
	close(fd);
	buf[n] = '\0';
	return buf;
}

int __il_cgroup_write(const char *dir, const char *file, const char *value)
{
	char p[640];
	size_t n = strlen(value);
	ssize_t w;
	int fd, ret = 0;

	if (snprintf(p, sizeof(p), "%s/%s", dir, file) >= (int)sizeof(p))
		return -ENAMETOOLONG;
	fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	w = write(fd, value, n);
	if (w < 0)
		ret = -errno;
	else if ((size_t)w != n)
		ret = -EIO;
	close(fd);
	return ret;
}

int __il_cgroup_read(const char *dir, const char *file, char *buf, size_t len)
{
	char p[640];
	ssize_t r;
	int fd;

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = read(fd, buf, len - 1);
	close(fd);
	if (r < 0)
		return -errno;
	buf[r] = '\0';
	while (r > 0 && (buf[r - 1] == '\n' || buf[r - 1] == ' '))
		buf[--r] = '\0';
	return 0;
}

bool __il_cgroup_has_word(const char *text, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = text; (p = strstr(p, word)); p += n)
		if ((p == text || p[-1] == ' ' || p[-1] == '\n') &&
		    (!p[n] || p[n] == ' ' || p[n] == '\n'))
			return true;
	return false;
}

int il_cgroup_mount(enum il_cg_ctrl ctrl, char *path, size_t len, int *version,
		    char *err, size_t errlen)
{
	char root[512], own[512], dir[512], ctl[512];
	char *mi = __il_cgroup_read_all("/proc/self/mountinfo"), *pc;
	const char *name = __il_cgroup_ctrl_name(ctrl);
	int ret;

	if (!mi) {
		snprintf(err, errlen, "cannot read /proc/self/mountinfo");
		return -ENOENT;
	}
	ret = __il_cgroup_find_mount(mi, ctrl, path, len, root, sizeof(root),
				     version);
	free(mi);
	if (ret) {
		snprintf(err, errlen,
			 "the %s controller is not mounted (no cgroup v1 "
			 "hierarchy with it, no cgroup2 mount)",
			 name);
		return -ENOENT;
	}
	if (*version == 1)
		return 0;
	/* v2: the controller must be available to the process's group */
	pc = __il_cgroup_read_all("/proc/self/cgroup");
	ret = pc ? __il_cgroup_own(pc, ctrl, 2, own, sizeof(own)) : -ENOENT;
	free(pc);
	if (!ret)
		ret = __il_cgroup_own_dir(dir, sizeof(dir), path, root, own);
	if (!ret)
		ret = __il_cgroup_read(dir, "cgroup.controllers", ctl,
				       sizeof(ctl));
	if (ret || !__il_cgroup_has_word(ctl, name)) {
		snprintf(err, errlen,
			 "the %s controller is not available in cgroup v2 at "
			 "%s (not in cgroup.controllers of the process's "
			 "group)",
			 name, path);
		return -ENOENT;
	}
	return 0;
}

const char *__il_cgroup_threads_file(int version)
{
	return version == 2 ? "cgroup.threads" : "tasks";
}

/* move every thread left in dir to the process's own group */
static void evacuate(const char *dir, int version, const char *to)
{
	char p[640], *list, *s, *e;

	snprintf(p, sizeof(p), "%s/%s", dir, __il_cgroup_threads_file(version));
	list = __il_cgroup_read_all(p);
	if (!list)
		return;
	for (s = list; *s; s = e) {
		long tid = strtol(s, &e, 10);

		if (e == s) {
			e = s + 1;
			continue;
		}
		if (tid > 0) {
			char v[32];

			snprintf(v, sizeof(v), "%ld", tid);
			__il_cgroup_write(to, __il_cgroup_threads_file(version),
					  v);
		}
	}
	free(list);
}

int __il_cgroup_remove_dir(const char *dir, int version, const char *own)
{
	struct timespec nap = { 0, 50 * 1000 * 1000 };

	for (int i = 0; i < RMDIR_TRIES; i++) {
		char part[96];

		evacuate(dir, version, own);
		/* a v2 partition root goes back to its parent first (its
		 * per-CPU children were removed before it) */
		if (version == 2 &&
		    !__il_cgroup_read(dir, "cpuset.cpus.partition", part,
				      sizeof(part)) &&
		    strcmp(part, "member"))
			__il_cgroup_write(dir, "cpuset.cpus.partition",
					  "member");
		if (!rmdir(dir) || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			return -errno;
		nanosleep(&nap, NULL);
	}
	return -EBUSY;
}

/* a group dir and its child groups (a dead run's threads are gone; what
 * is still in there moves to the group above invlab-<pid>) */
int __il_cgroup_remove_tree(const char *dir, const char *to, int version,
			    int depth)
{
	DIR *d = depth > 0 ? opendir(dir) : NULL;
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char sub[640];

		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		__il_cgroup_remove_tree(sub, to, version, depth - 1);
	}
	if (d)
		closedir(d);
	return __il_cgroup_remove_dir(dir, version, to);
}

int __il_cgroup_remove_path(const char *path)
{
	char to[512], probe[640];
	const char *inv = strstr(path, "/invlab-");
	struct stat st;
	int version;

	if (!inv || (size_t)(inv - path) >= sizeof(to))
		return -EINVAL;
	snprintf(to, sizeof(to), "%.*s", (int)(inv - path), path);
	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	snprintf(probe, sizeof(probe), "%s/cgroup.threads", path);
	version = access(probe, F_OK) ? 1 : 2;
	return __il_cgroup_remove_tree(path, to, version, 1);
}

/* cpuset.cpu_exclusive of dir is 1 */
bool __il_cgroup_exclusive(const char *dir)
{
	char v[16];

	return !__il_cgroup_read(dir, "cpuset.cpu_exclusive", v, sizeof(v)) &&
	       !strcmp(v, "1");
}
