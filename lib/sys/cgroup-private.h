/* SPDX-License-Identifier: MIT */
/*
 * Path building and the cgroup v2 partition plan behind cgroup.c, private
 * to libinvlab.  They look only at values already in memory, so the unit
 * test can feed them layouts this machine does not have and hostile group
 * names.  What reads the cgroup file systems is in cgroupfs-private.h.
 */
#ifndef INVLAB_CGROUP_PRIVATE_H
#define INVLAB_CGROUP_PRIVATE_H

#include <stddef.h>
#include <sys/types.h>

#include <invlab/cgroup.h>

#include "cgroupfs-private.h"

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
