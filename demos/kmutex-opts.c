// SPDX-License-Identifier: MIT
/*
 * The kmutex demo's option table (kmutex-demo.h): what --help, the man
 * page and the parser read.
 */
#include <stddef.h>

#include <invlab/time.h>

#include "kmutex-demo.h"

#define O(f) offsetof(struct km_cfg, f)
const struct il_opt km_opts[] = {
	{
		.name = "config",
		.short_name = 'C',
		.type = IL_OPT_STRING,
		.offset = O(configs),
		.def = "all",
		.metavar = "LIST",
		.help = "configurations to run, comma-separated: alone, "
			"contention, load, load+contention, throttled, "
			"cross-cpu, rt-waiter, or all",
	},
	{
		.name = "recipe",
		.short_name = 'k',
		.type = IL_OPT_CHOICE,
		.offset = O(recipe),
		.def = "rename",
		.choices = "rename|fpos|pipe|seqfile",
		.metavar = "RECIPE",
		.help = "kernel mutex to contend: rename (s_vfs_rename_mutex), "
			"fpos (f_pos_lock), pipe (pipe->mutex), seqfile "
			"(f_pos_lock then seq_file->lock)",
	},
	{
		.name = "via",
		.type = IL_OPT_CHOICE,
		.offset = O(via),
		.def = "syscall",
		.choices = IL_KM_VIA_CHOICES,
		.metavar = "HOW",
		.help = "issue each critical section as a system call, or "
			"through io_uring (the mutex is then owned by an io-wq "
			"worker for operations that are punted to one)",
	},
	{
		.name = "size",
		.type = IL_OPT_SIZE,
		.offset = O(size),
		.def = "0",
		.max = 16 << 20,
		.metavar = "BYTES",
		.help = "bytes copied in one critical section (fpos up to 4M, "
			"pipe up to 256K, seqfile up to 1M; rename has a fixed "
			"section); 0: 1M for fpos, 64K for pipe and seqfile",
	},
	{
		.name = "dir",
		.type = IL_OPT_STRING,
		.offset = O(dir),
		.def = "/tmp",
		.metavar = "PATH",
		.help = "where rename and fpos make their temporary directory: "
			"chooses the filesystem whose rename mutex is "
			"contended",
	},
	{
		.name = "source",
		.type = IL_OPT_STRING,
		.offset = O(source),
		.def = IL_KM_SOURCE_DEFAULT,
		.metavar = "PATH",
		.help = "the seq_file the seqfile recipe reads",
	},
	{
		.name = "period",
		.short_name = 'P',
		.type = IL_OPT_DURATION,
		.offset = O(period_ns),
		.def = "1ms",
		.min = 100 * IL_NSEC_PER_USEC,
		.max = IL_NSEC_PER_SEC,
		.unit_ns = IL_NSEC_PER_MSEC,
		.metavar = "TIME",
		.help = "how long fg sleeps after each call",
	},
	{
		.name = "hogs",
		.type = IL_OPT_INT,
		.offset = O(hogs),
		.def = "2",
		.min = 1,
		.max = 8,
		.metavar = "N",
		.help = "CPU-bound CFS tasks in load, load+contention, "
			"throttled and cross-cpu",
	},
	{
		.name = "bg-weight",
		.type = IL_OPT_INT,
		.offset = O(bg_weight),
		.def = "10",
		.min = 1,
		.max = 10000,
		.metavar = "N",
		.help = "cgroup weight of the contender in throttled and "
			"cross-cpu (v2 scale, 100 = a nice-0 task; cpu.shares "
			"= N * 1024 / 100 on v1)",
	},
	{
		.name = "hog-weight",
		.type = IL_OPT_INT,
		.offset = O(hog_weight),
		.def = "1000",
		.min = 1,
		.max = 10000,
		.metavar = "N",
		.help = "cgroup weight of the hogs in throttled and cross-cpu",
	},
	{
		.name = "cpu",
		.short_name = 'c',
		.type = IL_OPT_INT,
		.offset = O(cpu),
		.def = "-1",
		.min = -1,
		.max = IL_MAX_CPUS - 1,
		.metavar = "CPU",
		.help = "the CPU fg runs on; -1 picks the last online CPU",
	},
	{
		.name = "other-cpu",
		.type = IL_OPT_INT,
		.offset = O(other_cpu),
		.def = "-1",
		.min = -1,
		.max = IL_MAX_CPUS - 1,
		.metavar = "CPU",
		.help = "the owner's CPU in cross-cpu and rt-waiter; -1 picks "
			"another online CPU",
	},
	{
		.name = "rt-prio",
		.type = IL_OPT_INT,
		.offset = O(rt_prio),
		.def = "50",
		.min = 2,
		.max = 99,
		.metavar = "PRIO",
		.help = "SCHED_FIFO priority of fg in rt-waiter",
	},
	{
		.name = "hog-prio",
		.type = IL_OPT_INT,
		.offset = O(hog_prio),
		.def = "40",
		.min = 1,
		.max = 98,
		.metavar = "PRIO",
		.help = "SCHED_FIFO priority of the real-time hog in rt-waiter",
	},
	{
		.name = "donor-migration",
		.type = IL_OPT_CHOICE,
		.offset = O(donor_migration),
		.def = "auto",
		.choices = "auto|yes|no",
		.metavar = "WHEN",
		.help = "whether the kernel's proxy execution migrates blocked "
			"donors across CPUs (cross-cpu then expected to pass "
			"with proxy execution on): auto decides from the "
			"kernel's release (7.2 and later), yes or no overrides "
			"it",
	},
	{
		.name = "print-job",
		.type = IL_OPT_FLAG,
		.offset = O(print_job),
		.help = "print each selected configuration as a job file (for "
			"invlab-run) and exit",
	},
	{ .name = NULL },
};
#undef O

static const struct il_opt *const km_tables[] = { km_opts, NULL };

void km_via_name(const struct km_cfg *cfg, char *buf, size_t len)
{
	il_opt_choice_name(il_opt_find(km_tables, "via"), cfg->via, buf, len);
}
