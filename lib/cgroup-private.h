/* SPDX-License-Identifier: MIT */
/*
 * Text parsers and path building behind cgroup.c, private to libinvlab.
 * They look only at text already in memory, so the unit test can feed
 * them the mountinfo and /proc/self/cgroup of layouts this machine does
 * not have (v2 only, v1 only, the hybrid, a container whose mount root is
 * not "/"), and hostile group names.
 */
#ifndef INVLAB_CGROUP_PRIVATE_H
#define INVLAB_CGROUP_PRIVATE_H

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

/*
 * "<own_dir>/invlab-<pid>", and with a name "<own_dir>/invlab-<pid>/<name>"
 * (name NULL: the parent).  The name is checked with il_cgroup_name_ok
 * first, so nothing but a plain directory name is ever appended.
 * 0, -EINVAL (with the reason in err), -ENAMETOOLONG.
 */
int __il_cgroup_path(char *out, size_t len, const char *own_dir, pid_t pid,
		     const char *name, char *err, size_t errlen);

/* cgroup v1 cpu.shares for a v2-scale weight (1..10000, 100 = 1024) */
unsigned long __il_cgroup_shares(unsigned weight);

/*
 * For runstate.c: remove the group at path (".../invlab-<pid>[/name]")
 * and its child groups, moving what is left in them to the group above
 * invlab-<pid>.  0 (also when it is gone already) or -errno.
 */
int __il_cgroup_remove_path(const char *path);
/*
 * Remove invlab-<pid> groups of dead PIDs that have no state file, at the
 * top of the cpu and cpuset hierarchies and beside this process's own
 * group; a v1 exclusive one also turns load balancing at the top cpuset
 * back on.  The number removed, what says so.
 */
int __il_cgroup_reap_orphans(char *what, size_t len);

#endif
