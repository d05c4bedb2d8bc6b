// SPDX-License-Identifier: MIT
/*
 * The sched-file parser on fixtures: a SCHED_DEADLINE thread and a fair
 * one as Linux 6.18 prints them (captured on the test VM), an older
 * layout, truncated and garbled texts; and the per-job budget arithmetic
 * on readings whose numbers are worked out next to them.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <invlab/dlstat.h>

#include "t_util.h"

/* `chrt -d --sched-runtime 2000000 --sched-deadline 10000000
 *  --sched-period 10000000 0 cat /proc/self/sched` on 6.18.44 */
static const char dl_618[] =
	"cat (4182, #threads: 1)\n"
	"-------------------------------------------------------------------\n"
	"se.exec_start                                :       2694224.958691\n"
	"se.vruntime                                  :           294.606696\n"
	"se.sum_exec_runtime                          :             1.744182\n"
	"se.nr_migrations                             :                    0\n"
	"nr_switches                                  :                    3\n"
	"nr_voluntary_switches                        :                    2\n"
	"nr_involuntary_switches                      :                    1\n"
	"se.load.weight                               :              1048576\n"
	"se.avg.load_sum                              :                46055\n"
	"se.avg.runnable_sum                          :             12317128\n"
	"se.avg.util_sum                              :             12300093\n"
	"se.avg.load_avg                              :                 1006\n"
	"se.avg.runnable_avg                          :                  262\n"
	"se.avg.util_avg                              :                  262\n"
	"se.avg.last_update_time                      :        2694224958464\n"
	"se.avg.util_est                              :                  240\n"
	"policy                                       :                    6\n"
	"prio                                         :                   -1\n"
	"dl.runtime                                   :              2000000\n"
	"dl.deadline                                  :        2706750194985\n"
	"clock-delta                                  :                   81\n"
	"mm->numa_scan_seq                            :                    0\n"
	"numa_pages_migrated                          :                    0\n"
	"numa_preferred_nid                           :                   -1\n"
	"total_numa_faults                            :                    0\n"
	"current_node=0, numa_group_id=0\n"
	"numa_faults node=0 task_private=0 task_shared=0 group_private=0 "
	"group_shared=0\n";

/* `cat /proc/self/sched` (SCHED_OTHER) on the same kernel */
static const char fair_618[] =
	"cat (4107, #threads: 1)\n"
	"-------------------------------------------------------------------\n"
	"se.exec_start                                :       2693248.007295\n"
	"se.vruntime                                  :           273.284514\n"
	"se.sum_exec_runtime                          :             1.043397\n"
	"se.nr_migrations                             :                    0\n"
	"nr_switches                                  :                    0\n"
	"nr_voluntary_switches                        :                    0\n"
	"nr_involuntary_switches                      :                    0\n"
	"se.load.weight                               :              1048576\n"
	"policy                                       :                    0\n"
	"prio                                         :                  120\n"
	"se.slice                                     :              1400000\n"
	"clock-delta                                  :                   90\n";

/*
 * The 5.x layout (util_est.ewma/enqueued, no se.slice), with a thread
 * that overran: the kernel prints a negative remaining runtime until it
 * replenishes.
 */
static const char dl_old_overrun[] =
	"rt-app (1200, #threads: 5)\n"
	"-------------------------------------------------------------------\n"
	"se.sum_exec_runtime                          :          1234.000001\n"
	"se.nr_migrations                             :                   17\n"
	"nr_voluntary_switches                        :                  300\n"
	"nr_involuntary_switches                      :                   42\n"
	"se.avg.util_est.ewma                         :                  100\n"
	"se.avg.util_est.enqueued                     :                  120\n"
	"policy                                       :                    6\n"
	"prio                                         :                   -1\n"
	"dl.runtime                                   :              -123456\n"
	"dl.deadline                                  :         987654321000\n";

static void test_fixtures(void)
{
	struct il_dlstat st;

	t_check_int(il_dlstat_parse(dl_618, &st), 0);
	t_check_int(st.runtime_ns, 2000000);
	t_check(st.deadline_ns == 2706750194985ull);
	t_check_int(st.policy, 6);
	t_check_int(st.prio, -1);
	/* 1 ms + 744182 ns, not 1.744182 ns or 1744182 ms */
	t_check_int(st.sum_exec_ns, 1744182);
	t_check_int(st.nr_migrations, 0);
	t_check_int(st.nr_voluntary, 2);
	t_check_int(st.nr_involuntary, 1);
	t_check_int(st.have, IL_DLSTAT_RUNTIME | IL_DLSTAT_DEADLINE |
				     IL_DLSTAT_POLICY | IL_DLSTAT_PRIO |
				     IL_DLSTAT_SUM_EXEC | IL_DLSTAT_MIGRATIONS |
				     IL_DLSTAT_VOLUNTARY |
				     IL_DLSTAT_INVOLUNTARY);

	/* a fair thread has no dl.* lines: -ENODATA, the rest is kept */
	t_check_int(il_dlstat_parse(fair_618, &st), -ENODATA);
	t_check_int(st.policy, 0);
	t_check_int(st.prio, 120);
	t_check_int(st.sum_exec_ns, 1043397);
	t_check(st.have & IL_DLSTAT_POLICY);
	t_check(!(st.have & IL_DLSTAT_RUNTIME));
	t_check(!(st.have & IL_DLSTAT_DEADLINE));

	t_check_int(il_dlstat_parse(dl_old_overrun, &st), 0);
	t_check_int(st.runtime_ns, -123456);
	t_check(st.deadline_ns == 987654321000ull);
	t_check_int(st.sum_exec_ns, 1234000001);
	t_check_int(st.nr_migrations, 17);
	t_check_int(st.nr_voluntary, 300);
	t_check_int(st.nr_involuntary, 42);
}

static void test_missing_and_cut(void)
{
	struct il_dlstat st;
	char cut[sizeof(dl_618)];
	const char *p;

	t_check_int(il_dlstat_parse("", &st), -ENODATA);
	t_check_int(st.have, 0);
	t_check_int(il_dlstat_parse("dl.runtime : 5\n", &st), -ENODATA);
	t_check_int(st.runtime_ns, 5);
	t_check_int(il_dlstat_parse("dl.deadline : 5\n", &st), -ENODATA);
	t_check_int(il_dlstat_parse("dl.runtime : 5\ndl.deadline : 7\n", &st),
		    0);

	/*
	 * Cut in the middle of dl.deadline's value: "2706" must not be
	 * taken for the deadline, the line is incomplete.
	 */
	p = strstr(dl_618, "2706750194985");
	memcpy(cut, dl_618, (size_t)(p - dl_618) + 4);
	cut[p - dl_618 + 4] = '\0';
	t_check_int(il_dlstat_parse(cut, &st), -ENODATA);
	t_check_int(st.runtime_ns, 2000000);
	t_check(!(st.have & IL_DLSTAT_DEADLINE));
	/* a complete last line without its newline is still not trusted */
	p = strstr(dl_618, "\nclock-delta");
	memcpy(cut, dl_618, (size_t)(p - dl_618));
	cut[p - dl_618] = '\0';
	t_check_int(il_dlstat_parse(cut, &st), -ENODATA);
	/* cut after the newline: complete */
	cut[p - dl_618] = '\n';
	cut[p - dl_618 + 1] = '\0';
	t_check_int(il_dlstat_parse(cut, &st), 0);

	/* names match whole: a longer or shorter name is another field */
	t_check_int(il_dlstat_parse("dl.runtime_x : 5\ndl.deadlin : 7\n"
				    "xdl.runtime : 9\n",
				    &st),
		    -ENODATA);
	t_check_int(st.have, 0);
	/* the first of two values wins */
	t_check_int(il_dlstat_parse("dl.runtime : 1\ndl.runtime : 2\n"
				    "dl.deadline : 3\n",
				    &st),
		    0);
	t_check_int(st.runtime_ns, 1);
	/* CRLF endings, as after a copy through a Windows share */
	t_check_int(
		il_dlstat_parse("dl.runtime : 5\r\ndl.deadline : 7\r\n", &st),
		0);
	t_check_int(st.runtime_ns, 5);
	t_check(st.deadline_ns == 7);
	/* a u64 the kernel printed through (long long) */
	t_check_int(il_dlstat_parse("dl.runtime : 0\ndl.deadline : -1\n", &st),
		    0);
	t_check(st.deadline_ns == UINT64_MAX);
}

static void test_garbage(void)
{
	struct il_dlstat st;

	t_check_int(il_dlstat_parse(NULL, &st), -EINVAL);
	t_check_int(il_dlstat_parse("x", NULL), -EINVAL);
	/* text that is not a sched file at all */
	t_check_int(il_dlstat_parse("hello world\n\x01\x02\x7f:::\n:\n", &st),
		    -ENODATA);
	t_check_int(il_dlstat_parse("dl.runtime : abc\ndl.deadline : 1\n", &st),
		    -EINVAL);
	t_check_int(il_dlstat_parse("dl.runtime : 12abc\n", &st), -EINVAL);
	t_check_int(il_dlstat_parse("dl.runtime :\n", &st), -EINVAL);
	t_check_int(il_dlstat_parse("dl.runtime : 1 2\n", &st), -EINVAL);
	t_check_int(il_dlstat_parse("dl.runtime : 99999999999999999999\n", &st),
		    -ERANGE);
	t_check_int(il_dlstat_parse("policy : 99999999999\n", &st), -ERANGE);
	t_check_int(il_dlstat_parse("nr_voluntary_switches : -3\n", &st),
		    -EINVAL);
	/* the ns part is always 6 digits; anything else is not this format */
	t_check_int(il_dlstat_parse("se.sum_exec_runtime : 1.74418\n", &st),
		    -EINVAL);
	t_check_int(il_dlstat_parse("se.sum_exec_runtime : 1744182\n", &st),
		    -EINVAL);
	t_check_int(il_dlstat_parse("se.sum_exec_runtime : -1.000000\n", &st),
		    -EINVAL);
	t_check_int(il_dlstat_parse("se.sum_exec_runtime : 1.7441x2\n", &st),
		    -EINVAL);
	/* unknown lines with odd values are none of our business */
	t_check_int(il_dlstat_parse("se.exec_start : banana\ndl.runtime : 1\n"
				    "dl.deadline : 2\n",
				    &st),
		    0);
}

/* readings at a job's start and end, deadlines d0 + k * P */
static struct il_dlstat rd(int64_t runtime, uint64_t deadline)
{
	struct il_dlstat s = { 0 };

	s.have = IL_DLSTAT_RUNTIME | IL_DLSTAT_DEADLINE;
	s.runtime_ns = runtime;
	s.deadline_ns = deadline;
	return s;
}

static void test_consumed(void)
{
	const uint64_t Q = 3000000, P = 10000000, d0 = 2706750194985ull;
	struct il_dlstat a, b;
	uint64_t c = 0, k = 99;

	/* within one period: 3 ms left at the start, 0.879684 ms at the end */
	a = rd(3000000, d0);
	b = rd(879684, d0);
	t_check_int(il_dl_budget_consumed(&a, &b, Q, P, &c, &k), 0);
	t_check_int(c, 2120316);
	t_check_int(k, 0);

	/*
	 * 7 ms of work on a 3 ms budget, measured on the test VM: two
	 * replenishments moved the deadline by 2 P and added 2 Q:
	 * 3000000 - 1928759 + 2 * 3000000 = 7071241.
	 */
	b = rd(1928759, d0 + 2 * P);
	t_check_int(il_dl_budget_consumed(&a, &b, Q, P, &c, &k), 0);
	t_check_int(c, 7071241);
	t_check_int(k, 2);
	t_check_int(il_dl_budget_consumed(&a, &b, Q, P, &c, NULL), 0);

	/* an overrun not yet replenished: runtime below 0 at the end */
	b = rd(-500000, d0);
	t_check_int(il_dl_budget_consumed(&a, &b, Q, P, &c, &k), 0);
	t_check_int(c, 3500000);

	/* across the clock's wrap, as dl_time_before() sees it */
	a = rd(3000000, UINT64_MAX - P + 1);
	b = rd(1000000, 0);
	t_check_int(il_dl_budget_consumed(&a, &b, Q, P, &c, &k), 0);
	t_check_int(c, 5000000);
	t_check_int(k, 1);

	/* a wake-up reset: the deadline moved by something else than k P */
	a = rd(3000000, d0);
	b = rd(1000000, d0 + P + 1234567);
	c = 42;
	t_check_int(il_dl_budget_consumed(&a, &b, Q, P, &c, &k), -ERANGE);
	t_check_int(c, 42);
	/* boosted: replenished with the donor's 2 ms every 5 ms */
	b = rd(1000000, d0 + 3 * 5000000);
	t_check_int(il_dl_budget_consumed(&a, &b, Q, P, &c, &k), -ERANGE);
	/* backwards */
	b = rd(1000000, d0 - P);
	t_check_int(il_dl_budget_consumed(&a, &b, Q, P, &c, &k), -ERANGE);
	/* more budget at the end with the same deadline: a reset */
	a = rd(1000000, d0);
	b = rd(3000000, d0);
	t_check_int(il_dl_budget_consumed(&a, &b, Q, P, &c, &k), -ERANGE);

	/* a reading without the dl fields, or no reservation */
	b = rd(0, d0);
	b.have = IL_DLSTAT_RUNTIME;
	t_check_int(il_dl_budget_consumed(&a, &b, Q, P, &c, &k), -EINVAL);
	b = rd(0, d0);
	t_check_int(il_dl_budget_consumed(&a, &b, 0, P, &c, &k), -EINVAL);
	t_check_int(il_dl_budget_consumed(&a, &b, Q, 0, &c, &k), -EINVAL);
	t_check_int(il_dl_budget_consumed(&a, &b, Q, P, NULL, &k), -EINVAL);
}

static void test_paths_and_live(void)
{
	struct il_dlstat st;
	char path[64];
	int fd, ret;

	t_check_int(il_dlstat_path(0, 0, path, sizeof(path)), 0);
	t_check_str(path, "/proc/thread-self/sched");
	t_check_int(il_dlstat_path(0, 77, path, sizeof(path)), 0);
	t_check_str(path, "/proc/self/task/77/sched");
	t_check_int(il_dlstat_path(12, 34, path, sizeof(path)), 0);
	t_check_str(path, "/proc/12/task/34/sched");
	t_check_int(il_dlstat_path(12, 0, path, sizeof(path)), 0);
	t_check_str(path, "/proc/12/sched");
	t_check_int(il_dlstat_path(12, 34, path, 8), -ENAMETOOLONG);

	/*
	 * This test runs as SCHED_OTHER: the file, where the kernel has it,
	 * says so with -ENODATA and a policy of 0.  Read twice through one
	 * descriptor, as the engine will.
	 */
	fd = il_dlstat_open(0, 0);
	if (fd == -ENOENT) {
		printf("# no /proc/thread-self/sched here; live read "
		       "skipped\n");
		return;
	}
	t_check(fd >= 0);
	if (fd < 0)
		return;
	for (int i = 0; i < 2; i++) {
		ret = il_dlstat_read_fd(fd, &st);
		t_check_int(ret, -ENODATA);
		t_check(st.have & IL_DLSTAT_POLICY);
		t_check_int(st.policy, 0);
		t_check(st.have & IL_DLSTAT_SUM_EXEC);
	}
	close(fd);
	t_check_int(il_dlstat_read(0, 0, &st), -ENODATA);
	t_check_int(il_dlstat_read(0, 0x7ffffff0, &st), -ENOENT);
	t_check_int(il_dlstat_read_fd(-1, &st), -EINVAL);
}

int main(void)
{
	test_fixtures();
	test_missing_and_cut();
	test_garbage();
	test_consumed();
	test_paths_and_live();
	return t_done("dlstat");
}
