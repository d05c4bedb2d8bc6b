// SPDX-License-Identifier: MIT
/*
 * Scheduling-class specs, their range checks and error explanations, and
 * CPU lists: every malformed or out-of-range spec is refused with a
 * message that says what is allowed.
 */
#include <errno.h>
#include <string.h>

#include <invlab/cpu.h>
#include <invlab/sched.h>
#include <invlab/time.h>

#include "t_util.h"

static void ok_spec(const char *spec, const char *formatted)
{
	struct il_sched s;
	char err[256] = "", buf[64];

	t_check_int(il_sched_parse(spec, &s, err, sizeof(err)), 0);
	t_check_str(err, "");
	il_sched_format(&s, buf, sizeof(buf));
	t_check_str(buf, formatted);
}

static void bad_spec(const char *spec, const char *msg)
{
	struct il_sched s;
	char err[256] = "";

	t_check_int(il_sched_parse(spec, &s, err, sizeof(err)), -EINVAL);
	t_check_contains(err, msg);
}

static void test_parse(void)
{
	struct il_sched s;
	char err[256];

	ok_spec("fifo:30", "fifo:30");
	ok_spec("rr:99", "rr:99");
	ok_spec("other", "other:0");
	ok_spec("other:-5", "other:-5");
	ok_spec("batch:19", "batch:19");
	ok_spec("idle", "idle");
	ok_spec("deadline:2ms/10ms/10ms", "deadline:2.00ms/10.0ms/10.0ms");
	/* period defaults to the deadline; bare numbers are microseconds */
	ok_spec("deadline:500/1000", "deadline:500us/1.00ms/1.00ms");
	il_sched_parse("deadline:3ms/8ms/12ms", &s, err, sizeof(err));
	t_check_int(s.policy, IL_SCHED_DEADLINE);
	t_check_int(s.runtime_ns, 3 * IL_NSEC_PER_MSEC);
	t_check_int(s.deadline_ns, 8 * IL_NSEC_PER_MSEC);
	t_check_int(s.period_ns, 12 * IL_NSEC_PER_MSEC);

	bad_spec("fifo", "needs a priority 1..99");
	bad_spec("fifo:0", "needs a priority 1..99");
	bad_spec("fifo:100", "needs a priority 1..99");
	bad_spec("fifo:3x", "needs a priority 1..99");
	bad_spec("rr:", "needs a priority 1..99");
	bad_spec("other:20", "nice must be -20..19");
	bad_spec("other:-21", "nice must be -20..19");
	bad_spec("idle:3", "idle takes no parameter");
	bad_spec("deadline", "runtime/deadline[/period]");
	bad_spec("deadline:2ms", "runtime/deadline[/period]");
	bad_spec("deadline:1/2/3/4", "runtime/deadline[/period]");
	bad_spec("deadline:2xs/10ms", "'2xs' is not a duration");
	bad_spec("deadline:11ms/10ms/10ms", "runtime <= deadline <= period");
	bad_spec("deadline:2ms/12ms/10ms", "runtime <= deadline <= period");
	bad_spec("deadline:100ns/1ms", "at least 1024ns");
	bad_spec("fair:3", "unknown class 'fair'");
	bad_spec("", "unknown class ''");
}

static void test_errors(void)
{
	struct il_sched dl = { .policy = IL_SCHED_DEADLINE,
			       .runtime_ns = 2000000,
			       .deadline_ns = 10000000,
			       .period_ns = 10000000 };
	struct il_sched bad = { .policy = IL_SCHED_FIFO, .prio = 0 };
	char buf[512];

	il_sched_strerror(-EBUSY, &dl, buf, sizeof(buf));
	t_check_contains(buf, "admission control");
	il_sched_strerror(EINVAL, &bad, buf, sizeof(buf));
	t_check_contains(buf, "out of range; allowed 1..99");
	/* the kernel refuses what the syscall wrapper already refuses */
	t_check_int(il_sched_set(0, &bad), -EINVAL);
	il_sched_strerror(-EPERM, &dl, buf, sizeof(buf));
	t_check_contains(buf, "refused");
}

static void test_self(void)
{
	struct il_sched s, other = { .policy = IL_SCHED_OTHER, .nice = 0 };

	/* reading back the class of a normal thread needs no privilege */
	t_check_int(il_sched_get(0, &s), 0);
	t_check_int(s.policy, IL_SCHED_OTHER);
	t_check_int(il_sched_set(0, &other), 0);
	t_check(il_gettid() > 0);
}

static void test_cpus(void)
{
	unsigned long mask[IL_MAX_CPUS / (8 * sizeof(unsigned long))];
	int cpus[IL_MAX_CPUS], n;
	char err[128] = "";

	t_check_int(il_cpulist_parse("0-3,8,10-11", mask, err, sizeof(err)), 7);
	t_check_int(il_cpulist_parse("5", mask, err, sizeof(err)), 1);
	t_check_int(il_cpulist_parse("1,1,1", mask, err, sizeof(err)), 1);
	t_check_int(il_cpulist_parse("3-1", mask, err, sizeof(err)), -EINVAL);
	t_check_contains(err, "invalid");
	t_check_int(il_cpulist_parse("0-5000", mask, err, sizeof(err)),
		    -EINVAL);
	t_check_int(il_cpulist_parse("a", mask, err, sizeof(err)), -EINVAL);
	t_check_contains(err, "not a CPU list");
	t_check_int(il_cpulist_parse("", mask, err, sizeof(err)), -EINVAL);
	t_check_int(il_cpulist_parse("1,", mask, err, sizeof(err)), -EINVAL);
	t_check_int(il_cpulist_parse("1-", mask, err, sizeof(err)), -EINVAL);

	n = il_cpu_online(cpus, IL_MAX_CPUS);
	t_check(n >= 1);
	t_check_int(il_cpu_last_online(), cpus[n - 1]);
	t_check(il_cpu_is_online(cpus[0]));
	t_check(!il_cpu_is_online(IL_MAX_CPUS + 5));
	t_check(!il_cpu_is_online(-1));
	t_check(il_numa_nodes() >= 1);
	t_check(il_cpu_node(cpus[0]) >= 0);
	t_check_int(il_pin_cpu(0, -1), -EINVAL);
}

int main(void)
{
	test_parse();
	test_errors();
	test_self();
	test_cpus();
	return t_done("sched");
}
