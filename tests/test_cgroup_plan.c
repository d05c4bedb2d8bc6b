// SPDX-License-Identifier: MIT
/*
 * Unit test of the cgroup v2 partition plan (__il_cgroup_plan_v2): which
 * groups, which files, in what order, without a kernel, for the layouts
 * read from fixtures of /proc/self/mountinfo and /proc/self/cgroup:
 *
 *  - cgroup v2 only, the process in the top cgroup: invlab-<pid> becomes
 *    a partition root of the CPUs asked for (two or three of four), with
 *    a partition inside it for each but the lowest, which stays in
 *    invlab-<pid> itself;
 *  - the same on two CPUs, both asked for: the top cgroup keeps the
 *    lowest, invlab-<pid> is the other's partition;
 *  - v2 only under systemd, the process in a session scope that is not a
 *    partition root: refused, saying why;
 *  - the v1/v2 hybrid: cpuset is on v1, so there is no v2 plan.
 *
 * Run: meson test -C build cgroup-plan   (or build/tests/test-cgroup-plan)
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <invlab/cgroup.h>

#include "../lib/sys/cgroup-private.h"
#include "t_util.h"

static const char mi_v2[] =
	"22 1 0:21 / /sys rw - sysfs sysfs rw\n"
	"26 22 0:24 / /sys/fs/cgroup rw,nosuid shared:9 - cgroup2 cgroup2 "
	"rw,nsdelegate,memory_recursiveprot\n";
static const char pc_v2_top[] = "0::/\n";
static const char pc_v2_session[] = "0::/user.slice/user-0.slice/"
				    "session-3.scope\n";
static const char mi_hybrid[] =
	"31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
	"34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup "
	"rw,cpuset\n"
	"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 "
	"rw\n";
static const char pc_hybrid[] = "5:cpuset:/\n4:cpu:/user.slice\n0::/\n";

/* the own cpuset group of a layout, as cgroup.c finds it */
static int own_dir(const char *mi, const char *pc, char *dir, size_t len,
		   int *version)
{
	char mnt[256], root[256], own[256];
	int ret = __il_cgroup_find_mount(mi, IL_CG_CPUSET, mnt, sizeof(mnt),
					 root, sizeof(root), version);

	if (!ret)
		ret = __il_cgroup_own(pc, IL_CG_CPUSET, *version, own,
				      sizeof(own));
	if (!ret)
		ret = __il_cgroup_own_dir(dir, len, mnt, root, own);
	return ret;
}

/* step k of p is op on dir/file = value */
static void is(const struct il_cg_plan *p, int k, enum il_cg_op op,
	       const char *dir, const char *file, const char *value)
{
	t_check(k < p->n);
	if (k >= p->n)
		return;
	t_check_int(p->step[k].op, op);
	t_check_str(p->step[k].dir, dir);
	t_check_str(p->step[k].file, file);
	t_check_str(p->step[k].value, value);
}

static struct il_cg_plan plan;

static void test_v2_four_cpus(void)
{
	char dir[512], err[300] = "";
	const char *inv = "/sys/fs/cgroup/invlab-94";
	const char *c3 = "/sys/fs/cgroup/invlab-94/cpu3";
	int v = 0, cpus[] = { 3, 1 };

	t_check_int(own_dir(mi_v2, pc_v2_top, dir, sizeof(dir), &v), 0);
	t_check_int(v, 2);
	t_check_str(dir, "/sys/fs/cgroup");
	/* the top cgroup has no cpuset.cpus.partition: NULL */
	t_check_int(__il_cgroup_plan_v2(&plan, dir, NULL, "0-3", 94, cpus, 2,
					err, sizeof(err)),
		    0);
	t_check_int(plan.keep, -1);
	t_check_int(plan.own_cpu, 1);
	t_check_str(plan.cpus, "1,3");
	t_check_str(plan.path, inv);
	t_check_int(plan.n, 4 + 6 + 1);
	/* the run's own group first: a partition root holding both CPUs */
	is(&plan, 0, IL_CGOP_WRITE, inv, "cpuset.cpus", "1,3");
	is(&plan, 1, IL_CGOP_WRITE, inv, "cpuset.cpus.exclusive", "1,3");
	t_check(plan.step[1].optional); /* 6.7+ */
	t_check(!plan.step[0].optional);
	is(&plan, 2, IL_CGOP_PARTITION, inv, "", "root");
	t_check_int(plan.step[2].cpu, 1); /* CPU 1's partition, in the end */
	is(&plan, 3, IL_CGOP_EXPECT, inv, "cpuset.cpus.effective", "1,3");
	t_check_int(plan.step[3].cpu, -1);
	/* then a partition inside it for every CPU but its lowest */
	is(&plan, 4, IL_CGOP_MKDIR, c3, "", "");
	t_check_int(plan.step[4].cpu, 3);
	is(&plan, 5, IL_CGOP_WRITE, c3, "cgroup.type", "threaded");
	is(&plan, 6, IL_CGOP_WRITE, c3, "cpuset.cpus", "3");
	is(&plan, 7, IL_CGOP_WRITE, c3, "cpuset.cpus.exclusive", "3");
	t_check(plan.step[7].optional);
	t_check(!plan.step[8].optional);
	is(&plan, 8, IL_CGOP_PARTITION, c3, "", "root");
	is(&plan, 9, IL_CGOP_EXPECT, c3, "cpuset.cpus.effective", "3");
	/* what is left to invlab-94 is CPU 1 alone */
	is(&plan, 10, IL_CGOP_EXPECT, inv, "cpuset.cpus.effective", "1");
	t_check_int(plan.step[10].cpu, 1);
	for (int k = 0; k < plan.n; k++)
		t_check(!strstr(plan.step[k].dir, "cpu1"));

	/* three CPUs of four: two child partitions, lowest CPU first */
	{
		int three[] = { 2, 0, 1 };

		t_check_int(__il_cgroup_plan_v2(&plan, dir, NULL, "0-3", 94,
						three, 3, err, sizeof(err)),
			    0);
		t_check_str(plan.cpus, "0-2");
		t_check_int(plan.own_cpu, 0);
		t_check_int(plan.n, 4 + 2 * 6 + 1);
		is(&plan, 4, IL_CGOP_MKDIR, "/sys/fs/cgroup/invlab-94/cpu1", "",
		   "");
		is(&plan, 10, IL_CGOP_MKDIR, "/sys/fs/cgroup/invlab-94/cpu2",
		   "", "");
		is(&plan, 16, IL_CGOP_EXPECT, inv, "cpuset.cpus.effective",
		   "0");
	}

	/* a run's own group that is a partition root itself will do */
	t_check_int(__il_cgroup_plan_v2(&plan, "/sys/fs/cgroup/lab", "root",
					"0-3", 94, cpus, 2, err, sizeof(err)),
		    0);
	t_check_str(plan.path, "/sys/fs/cgroup/lab/invlab-94");
	t_check_str(plan.step[2].value, "root");
	/* under an isolated group the partitions are isolated too */
	t_check_int(__il_cgroup_plan_v2(&plan, "/sys/fs/cgroup/lab", "isolated",
					"0-3", 94, cpus, 2, err, sizeof(err)),
		    0);
	is(&plan, 2, IL_CGOP_PARTITION, "/sys/fs/cgroup/lab/invlab-94", "",
	   "isolated");
	is(&plan, 8, IL_CGOP_PARTITION, "/sys/fs/cgroup/lab/invlab-94/cpu3", "",
	   "isolated");
}

static void test_v2_two_cpus(void)
{
	char dir[512], err[300] = "";
	const char *inv = "/sys/fs/cgroup/invlab-7";
	int v = 0, both[] = { 1, 0 }, one[] = { 1 };

	t_check_int(own_dir(mi_v2, pc_v2_top, dir, sizeof(dir), &v), 0);
	/* both CPUs: the top cgroup keeps CPU 0, invlab-7 is CPU 1's */
	t_check_int(__il_cgroup_plan_v2(&plan, dir, NULL, "0-1", 7, both, 2,
					err, sizeof(err)),
		    0);
	t_check_int(plan.keep, 0);
	t_check_int(plan.own_cpu, 1);
	t_check_str(plan.cpus, "1");
	t_check_int(plan.n, 6);
	is(&plan, 0, IL_CGOP_WRITE, inv, "cpuset.cpus", "1");
	is(&plan, 2, IL_CGOP_PARTITION, inv, "", "root");
	is(&plan, 3, IL_CGOP_EXPECT, inv, "cpuset.cpus.effective", "1");
	/* what is left to the top cgroup is CPU 0 alone */
	is(&plan, 4, IL_CGOP_EXPECT, "/sys/fs/cgroup", "cpuset.cpus.effective",
	   "0");
	t_check_int(plan.step[4].cpu, 0);
	is(&plan, 5, IL_CGOP_EXPECT, inv, "cpuset.cpus.effective", "1");
	for (int k = 0; k < plan.n; k++)
		t_check(plan.step[k].op != IL_CGOP_MKDIR);

	/* one CPU of two: nothing kept, nothing squeezed */
	t_check_int(__il_cgroup_plan_v2(&plan, dir, NULL, "0-1", 7, one, 1, err,
					sizeof(err)),
		    0);
	t_check_int(plan.keep, -1);
	t_check_int(plan.own_cpu, 1);
	t_check_str(plan.cpus, "1");
	t_check_int(plan.n, 5);

	/* one CPU in all: it is the top cgroup's, nothing to make */
	t_check_int(__il_cgroup_plan_v2(&plan, dir, NULL, "0", 7, both + 1, 1,
					err, sizeof(err)),
		    0);
	t_check_int(plan.keep, 0);
	t_check_int(plan.own_cpu, -1);
	t_check_int(plan.n, 0);
}

static void test_v2_refused(void)
{
	char dir[512], err[300] = "";
	int v = 0, cpus[] = { 0, 1 }, off[] = { 5 };

	/* a session scope under systemd is a member, not a partition root */
	t_check_int(own_dir(mi_v2, pc_v2_session, dir, sizeof(dir), &v), 0);
	t_check_str(dir,
		    "/sys/fs/cgroup/user.slice/user-0.slice/session-3.scope");
	t_check_int(__il_cgroup_plan_v2(&plan, dir, "member", "0-3", 7, cpus, 2,
					err, sizeof(err)),
		    -EOPNOTSUPP);
	t_check_contains(err, "session-3.scope is not a partition root");
	t_check_contains(err, "reads 'member'");
	t_check_int(plan.n, 0);
	/* the kernel's own reason is quoted */
	t_check_int(__il_cgroup_plan_v2(
			    &plan, dir,
			    "root invalid (Parent is not a partition root)",
			    "0-3", 7, cpus, 2, err, sizeof(err)),
		    -EOPNOTSUPP);
	t_check_contains(err, "(Parent is not a partition root)");
	/* a CPU the group does not have */
	t_check_int(__il_cgroup_plan_v2(&plan, "/sys/fs/cgroup", NULL, "0-3", 7,
					off, 1, err, sizeof(err)),
		    -EINVAL);
	t_check_contains(err, "CPU 5 is not one of /sys/fs/cgroup's CPUs");
	t_check_int(__il_cgroup_plan_v2(&plan, "/sys/fs/cgroup", NULL, "0-3", 7,
					cpus, 0, err, sizeof(err)),
		    -EINVAL);
	t_check_int(__il_cgroup_plan_v2(&plan, "/sys/fs/cgroup", NULL, "x", 7,
					cpus, 2, err, sizeof(err)),
		    -EINVAL);
	t_check_contains(err, "cpuset.cpus.effective: 'x'");
}

static void test_hybrid(void)
{
	char dir[512];
	int v = 0;

	/* cpuset on v1 wins over the cgroup2 mount: the v1 partitions */
	t_check_int(own_dir(mi_hybrid, pc_hybrid, dir, sizeof(dir), &v), 0);
	t_check_int(v, 1);
	t_check_str(dir, "/sys/fs/cgroup/cpuset");
}

int main(void)
{
	test_v2_four_cpus();
	test_v2_two_cpus();
	test_v2_refused();
	test_hybrid();
	return t_done("test-cgroup-plan");
}
