/* SPDX-License-Identifier: MIT */
/*
 * Control groups a run creates for its tasks and removes afterwards (also
 * on SIGINT/SIGTERM and on error paths), on cgroup v2 (unified) and on
 * cgroup v1 (one hierarchy per controller), including the v1/v2 hybrid
 * layout where v1 `cpu` and `cpuset` sit under /sys/fs/cgroup/<ctrl> and
 * v2 under /sys/fs/cgroup/unified.  Where a controller is mounted is read
 * from /proc/self/mountinfo, never assumed.
 *
 * Every group lives under one parent per process, "invlab-<pid>", created
 * in the hierarchy of the controller next to the calling process's own
 * group, so cleanup is one recursive removal of that parent.
 *
 * Group names come from job files: they are checked (il_cgroup_name_ok)
 * before any path is built, so "../x", "a/b", ".", "" and control
 * characters never reach the filesystem.
 *
 * With CONFIG_RT_GROUP_SCHED a new cpu group has cpu.rt_runtime_us = 0 and
 * refuses SCHED_FIFO/RR threads; real-time tasks stay in their group
 * unless the run gives the group RT runtime (il_cgroup_set).
 */
#ifndef INVLAB_CGROUP_H
#define INVLAB_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

enum il_cg_ctrl {
	IL_CG_CPU,    /* weights, RT runtime */
	IL_CG_CPUSET, /* CPU partitions for SCHED_DEADLINE */
};

struct il_cgroup {
	char name[64];
	enum il_cg_ctrl ctrl;
	int version;	/* 1 or 2 */
	char path[512]; /* absolute directory of the group */
	bool created;
	/* a v2 partition: what cpuset.cpus.partition and .effective read
	 * back ("root", "isolated", or the kernel's "... invalid (reason)") */
	char partition[96];
	char cpus[32];
	/* v2, no group of its own: the process's own group (top: a CPU left
	 * to the top cgroup) or invlab-<pid> itself (the lowest of the
	 * partition's CPUs); threads join it, and il_cgroup_remove leaves it
	 * to the removal of the parent */
	bool shared;
	bool top;
};

/* Is name usable as a group name ([A-Za-z0-9_-]{1,48}, not "." or "..")?
 * 0, or -EINVAL with the reason in err. */
int il_cgroup_name_ok(const char *name, char *err, size_t len);

/* Where ctrl is mounted and in which version: 0, or -ENOENT with the
 * reason (controller not mounted, or not enabled in v2's subtree). */
int il_cgroup_mount(enum il_cg_ctrl ctrl, char *path, size_t len, int *version,
		    char *err, size_t errlen);

/* Create group name for ctrl under this process's parent group. */
int il_cgroup_create(struct il_cgroup *cg, enum il_cg_ctrl ctrl,
		     const char *name, char *err, size_t len);

/* Write value to file inside the group ("cpu.rt_runtime_us", ...). */
int il_cgroup_set(const struct il_cgroup *cg, const char *file,
		  const char *value, char *err, size_t len);

/* CPU weight on the v2 scale (1..10000, default 100); on v1 it becomes
 * cpu.shares = weight * 1024 / 100. */
int il_cgroup_set_weight(const struct il_cgroup *cg, unsigned weight, char *err,
			 size_t len);

/*
 * Cpuset partitions of one CPU each, their own root domains, so that
 * SCHED_DEADLINE tasks moved into them run partitioned EDF with admission
 * per CPU: cg[i] for cpus[i] (n distinct CPUs), group "cpu<N>".
 *   v2: invlab-<pid> becomes a partition root holding the CPUs, and each
 *       "cpu<N>" inside it but the lowest a partition root of one CPU (a
 *       partition root's parent must be one; the process's own group must
 *       be, and is when it is the top cgroup); the lowest CPU's tasks join
 *       invlab-<pid> itself, then left with that CPU alone (before 6.1 a
 *       child partition may not take all of its parent's CPUs).  The own
 *       group keeps a CPU for the tasks it holds: when every CPU it has is
 *       asked for, the lowest stays with it, then a root domain of one CPU
 *       by itself, and cg[i] for that CPU is the own group (top).
 *       cg->partition and cg->cpus say what the kernel made of it.
 *   v1: an exclusive cpuset under an exclusive parent, with
 *       cpuset.sched_load_balance off in the parent and in every group
 *       above it up to the top cpuset; turned on again when the parent is
 *       removed (il_cgroup_remove of the last group, il_cgroup_cleanup_all).
 * 0, -ENOENT (no cpuset controller), -EOPNOTSUPP (the kernel refused the
 * partition: err quotes cpuset.cpus.partition), or -errno; err says which
 * and why.  Nothing stays behind on failure.
 */
int il_cgroup_partitions(struct il_cgroup *cg, const int *cpus, int n,
			 char *err, size_t len);

/* Move one thread into the group. */
int il_cgroup_attach(const struct il_cgroup *cg, pid_t tid, char *err,
		     size_t len);

/* Move the group's threads back to where this process runs, give a v2
 * partition back to its parent ("member") and remove the group; the last
 * group of a controller removes the parent too.  Safe to call twice; a
 * shared group is left alone. */
int il_cgroup_remove(struct il_cgroup *cg);

/* Remove every group this process created, and its parent.  Idempotent;
 * called by the programs on exit and after a signal stops a run. */
void il_cgroup_cleanup_all(void);

#endif
