// SPDX-License-Identifier: MIT
/*
 * The task groups' accounts parsed from sched/debug (cgacct.h): sections
 * as 6.18 prints them (the layout of a capture on the test VM, trimmed),
 * a group on two CPUs summed, the longest matching path taken, the root
 * and other classes' sections ignored, bad numbers refused.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <invlab/cgacct.h>

#include "t_util.h"

static const char debug_618[] =
	"Sched Debug Version: v0.11, 6.18.44 #1\n"
	"ktime                                   : 425142.060712\n"
	"\n"
	"cpu#0\n"
	"  .nr_running                    : 2\n"
	"\n"
	"cfs_rq[0]:/invlab-7/kmutex-fg\n"
	"  .left_vruntime                 : 64956.181375\n"
	"  .nr_queued                     : 1\n"
	"  .se->exec_start                : 425142.060712\n"
	"  .se->vruntime                  : 224785.108800\n"
	"  .se->sum_exec_runtime          : 11682.388793\n"
	"  .se->load.weight               : 1048576\n"
	"\n"
	"cfs_rq[0]:/invlab-7/kmutex-bg\n"
	"  .se->sum_exec_runtime          : 3.000010\n"
	"\n"
	"cfs_rq[0]:/\n"
	"  .nr_queued                     : 2\n"
	"\n"
	"rt_rq[0]:\n"
	"  .se->sum_exec_runtime          : 999.000000\n"
	"\n"
	"runnable tasks:\n"
	" S            task   PID       vruntime   eligible    deadline\n"
	"\n"
	"cpu#1\n"
	"cfs_rq[1]:/invlab-7/kmutex-fg\n"
	"  .se->sum_exec_runtime          : 0.000123\n"
	"\n"
	"cfs_rq[1]:/kmutex-fg\n"
	"  .se->sum_exec_runtime          : 50.000000\n"
	"\n";

static const char *const dirs[] = {
	"/sys/fs/cgroup/cpu/invlab-7/kmutex-fg",
	"/sys/fs/cgroup/cpu/invlab-7/kmutex-bg",
	"/sys/fs/cgroup/cpu/invlab-7/kmutex-hogs",
};

static void test_parse(void)
{
	uint64_t ns[3];
	unsigned char found[3];

	t_check_int(il_cgacct_parse(debug_618, dirs, 3, ns, found), 2);
	/* two CPUs summed; /kmutex-fg (a shorter match) is another group */
	t_check(ns[0] == 11682388793ull + 123ull);
	t_check_int(found[0], 2);
	/* the rt_rq section's line is not the group's */
	t_check(ns[1] == 3000010ull);
	t_check_int(found[1], 1);
	t_check(ns[2] == 0);
	t_check_int(found[2], 0);
}

static void test_match(void)
{
	static const char *const one[] = { "/sys/fs/cgroup/kmutex-fg" };
	static const char *const part[] = { "/sys/fs/cgroup/xkmutex-fg" };
	uint64_t ns[1];
	unsigned char found[1];

	/* the shorter path matches a group at the hierarchy's top */
	t_check_int(il_cgacct_parse(debug_618, one, 1, ns, found), 1);
	t_check(ns[0] == 50000000ull);
	/* a suffix only at a '/' */
	t_check_int(il_cgacct_parse(debug_618, part, 1, ns, found), 0);
	t_check_int(found[0], 0);
	/* the root's section names no group */
	t_check_int(il_cgacct_parse("cfs_rq[0]:/\n"
				    "  .se->sum_exec_runtime : 1.000000\n",
				    one, 1, ns, found),
		    0);
}

static void test_bad(void)
{
	uint64_t ns[3];
	unsigned char found[3];

	t_check_int(il_cgacct_parse("cfs_rq[0]:/invlab-7/kmutex-fg\n"
				    "  .se->sum_exec_runtime : 12.34\n",
				    dirs, 3, ns, found),
		    -EINVAL);
	t_check_int(il_cgacct_parse("cfs_rq[0]:/invlab-7/kmutex-fg\n"
				    "  .se->sum_exec_runtime : x\n",
				    dirs, 3, ns, found),
		    -EINVAL);
	t_check_int(il_cgacct_parse(NULL, dirs, 3, ns, found), -EINVAL);
	t_check_int(il_cgacct_parse("", dirs, -1, ns, found), -EINVAL);
	t_check_int(il_cgacct_parse("", dirs, 3, ns, found), 0);
	t_check_int(il_cgacct_parse("", NULL, 0, NULL, NULL), 0);
}

int main(void)
{
	test_parse();
	test_match();
	test_bad();
	return t_done("cgacct");
}
