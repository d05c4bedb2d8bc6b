/* SPDX-License-Identifier: MIT */
/*
 * cgacct: what the kernel charged each task group for CPU time, from the
 * scheduler's own accounts (debugfs sched/debug: every CPU's group
 * entity's se->sum_exec_runtime), set against what its own tasks ran
 * (their /proc schedstat).  The two agree without proxy execution.  With
 * it, a task that runs in a blocked donor's place charges the donor's
 * entities (its vruntime, its group, its group's bandwidth) but its own
 * sum_exec_runtime (kernel/sched/fair.c, update_se): the donor's group
 * is charged more than its tasks ran, the owner's less.
 */
#ifndef INVLAB_CGACCT_H
#define INVLAB_CGACCT_H

#include <stddef.h>
#include <stdint.h>

/* the most groups one call takes */
#define IL_CGACCT_MAX 64

/* the scheduler's debug file, under debugfs */
#define IL_CGACCT_FILE "/sys/kernel/debug/sched/debug"

/*
 * Sum, for each of the n groups whose absolute cgroup directories are
 * dirs[i], the se->sum_exec_runtime of its entity on every CPU in the
 * sched/debug text into ns[i], and set found[i] when at least one CPU's
 * section named it.  A section "cfs_rq[CPU]:PATH" names the group whose
 * directory ends in PATH at a '/' (PATH is relative to the hierarchy's
 * root, which this does not need to know; "/" is the root, which has no
 * entity); of the paths that a directory ends in, the longest in the
 * text is its own (a shorter one is another group higher up).  found[i]
 * counts the CPUs' sections.  Returns the number of groups found, or
 * -EINVAL on bad arguments (n over IL_CGACCT_MAX) or a sum_exec_runtime
 * line that does not parse.
 */
int il_cgacct_parse(const char *text, const char *const *dirs, int n,
		    uint64_t *ns, unsigned char *found);

/*
 * The same from IL_CGACCT_FILE; -errno when it cannot be read (-ENOENT:
 * debugfs not mounted or no such file on this kernel).
 */
int il_cgacct_read(const char *const *dirs, int n, uint64_t *ns,
		   unsigned char *found);

#endif
