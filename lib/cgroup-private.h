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

/* ---- the cgroup v2 partition plan --------------------------------------- */

enum il_cg_op {
	IL_CGOP_NONE,
	IL_CGOP_MKDIR,	   /* a threaded group (recorded first) */
	IL_CGOP_WRITE,	   /* value into dir/file */
	IL_CGOP_PARTITION, /* value into cpuset.cpus.partition (the undo,
			      "member", recorded first), then read back: it
			      must say value */
	IL_CGOP_EXPECT,	   /* dir/file must read value */
};

struct il_cg_step {
	enum il_cg_op op;
	int cpu;       /* the CPU whose group this is, -1: invlab-<pid> or
			  the own group */
	bool optional; /* a missing file is a kernel without it: skipped */
	char dir[512];
	char file[32];
	char value[32];
};

#define IL_CG_PLAN_MAX 200

struct il_cg_plan {
	int keep;	/* the CPU left to the own group, or -1 */
	int own_cpu;	/* the CPU left to invlab-<pid> itself, or -1 */
	char cpus[64];	/* the CPUs of invlab-<pid>'s partition */
	char own[512];	/* the process's own group */
	char path[512]; /* invlab-<pid> */
	int n;
	struct il_cg_step step[IL_CG_PLAN_MAX];
};

/*
 * The cgroup v2 partitions for cpus[0..n), without touching the kernel.
 * own is the process's own group, already the threaded domain of
 * "<own>/invlab-<pid>" (threaded, +cpuset in its subtree_control: made by
 * the parent's setup before the plan runs); own_part what own's
 * cpuset.cpus.partition reads (NULL: no such file, the top cgroup, which
 * is always a partition root), own_eff its cpuset.cpus.effective.
 *
 * In order: invlab-<pid> gets cpuset.cpus = K, cpuset.cpus.exclusive = K
 * (optional: 6.7+) and becomes a partition root; its effective CPUs must
 * then be K (and the own group's the kept CPU, when one is kept); then per
 * CPU c of K but the lowest: mkdir cpu<c>, cgroup.type = threaded,
 * cpuset.cpus = c, cpuset.cpus.exclusive = c (optional), partition root,
 * effective c; last, invlab-<pid>'s effective CPUs must be the lowest of K
 * alone, whose tasks stay in invlab-<pid> itself (before 6.1 a child
 * partition may not take all of its parent's CPUs, tasks or none).
 * The partitions are "root", or "isolated" under an own group that is.
 * K is every CPU asked for but the kept one: when they are all of own_eff,
 * the lowest stays with own (a root domain of one CPU by itself).
 * Removal is the reverse: per group, the per-CPU ones first, threads moved
 * to own, cpuset.cpus.partition = member, rmdir (before 6.1 a partition
 * with child groups cannot be given back).
 * 0; -EOPNOTSUPP when own is not a partition root; -EINVAL for a CPU not
 * in own_eff, a bad list or no CPU; -ENOSPC; err says which.
 */
int __il_cgroup_plan_v2(struct il_cg_plan *p, const char *own,
			const char *own_part, const char *own_eff, pid_t pid,
			const int *cpus, int n, char *err, size_t len);

#endif
