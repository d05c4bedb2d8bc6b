/* SPDX-License-Identifier: MIT */
/*
 * The cgroup file systems as they are (cgroupfs.c), private to libinvlab:
 * text parsers of /proc/self/mountinfo and /proc/self/cgroup that look
 * only at text already in memory, so the unit test can feed them the
 * layouts this machine does not have (v2 only, v1 only, the hybrid, a
 * container whose mount root is not "/"); a group's files read and
 * written; a group directory taken down.
 */
#ifndef INVLAB_CGROUPFS_PRIVATE_H
#define INVLAB_CGROUPFS_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <invlab/cgroup.h>

/* "cpu" or "cpuset" */
const char *__il_cgroup_ctrl_name(enum il_cg_ctrl ctrl);

/*
 * Where ctrl is mounted, from /proc/self/mountinfo text: a v1 hierarchy
 * whose super options name the controller wins (the controller is then
 * not available to cgroup2), else the cgroup2 mount (at /sys/fs/cgroup
 * rather than /sys/fs/cgroup/unified when both exist).  mnt gets the
 * mount point, root the mount's root within the hierarchy ("/" outside
 * containers).  0, or -ENOENT when there is neither.
 */
int __il_cgroup_find_mount(const char *mountinfo, enum il_cg_ctrl ctrl,
			   char *mnt, size_t mlen, char *root, size_t rlen,
			   int *version);

/*
 * The calling process's group for ctrl, from /proc/self/cgroup text
 * ("N:cpu,cpuacct:/path" for v1, "0::/path" for v2), relative to the
 * hierarchy's root.  0, or -ENOENT.
 */
int __il_cgroup_own(const char *proc_cgroup, enum il_cg_ctrl ctrl, int version,
		    char *path, size_t len);

/*
 * The directory of the process's own group: mnt, plus own with the
 * mount's root taken off (a container sees its own group as the mount's
 * root).  -EINVAL when own is not under root, -ENAMETOOLONG.
 */
int __il_cgroup_own_dir(char *out, size_t len, const char *mnt,
			const char *root, const char *own);

/* the whole of a (small) file, NUL-terminated, or NULL; free() it */
char *__il_cgroup_read_all(const char *path);
/* dir/file's first line into buf, trailing blanks off; 0 or -errno */
int __il_cgroup_read(const char *dir, const char *file, char *buf, size_t len);
/* value into dir/file; 0 or -errno (-EIO on a short write) */
int __il_cgroup_write(const char *dir, const char *file, const char *value);
/* the file a thread joins a group through: "tasks" (v1), "cgroup.threads" */
const char *__il_cgroup_threads_file(int version);
/* word is a blank- or newline-separated word of text */
bool __il_cgroup_has_word(const char *text, const char *word);
/* cpuset.cpu_exclusive of dir is 1 */
bool __il_cgroup_exclusive(const char *dir);

/*
 * rmdir dir after moving its threads to own, retrying while it is busy (a
 * v2 partition root becomes a member first).  0 (also when it is gone
 * already), -EBUSY after the retries, -errno.
 */
int __il_cgroup_remove_dir(const char *dir, int version, const char *own);
/* dir and its child groups down to depth, threads moved to `to` */
int __il_cgroup_remove_tree(const char *dir, const char *to, int version,
			    int depth);
/*
 * For runstate.c (a dead run's records): remove the group at path
 * (".../invlab-<pid>[/name]") and its child groups, moving what is left in them
 * to the group above invlab-<pid>.  0 (also when it is gone already) or -errno.
 */
int __il_cgroup_remove_path(const char *path);

#endif
