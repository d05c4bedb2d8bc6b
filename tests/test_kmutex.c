// SPDX-License-Identifier: MIT
/*
 * Unit tests for the kernel-mutex work, no privileges needed:
 *
 *  - recipe parameters (il_kmutex_check, the operation words) and the
 *    recipes themselves on this machine, unprivileged: a rename, fpos,
 *    pipe and seqfile recipe set up, called and calibrated, and nothing
 *    left in the temporary directory after close or cleanup;
 *  - cgroup names and paths: hostile names never become a path, and the
 *    mountinfo and /proc/self/cgroup of layouts this machine does not
 *    have (v2 only, v1 only, hybrid, a container) are read right;
 *  - the validators on synthetic histograms, for every verdict: the
 *    fair-server bound, the share threshold and what each kernel is
 *    expected to give.
 *
 * Run: meson test -C build kmutex   (or build/tests/test-kmutex)
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <invlab/attrib.h>
#include <invlab/cgroup.h>
#include <invlab/hist.h>
#include <invlab/kmutex-bounds.h>
#include <invlab/kmutex.h>
#include <invlab/noise.h>
#include <invlab/time.h>
#include <invlab/trace.h>

#include "../lib/sys/cgroup-private.h"
#include "t_judge.h"
#include "t_util.h"

#define MS IL_NSEC_PER_MSEC
#define US IL_NSEC_PER_USEC

/* ---- recipe parameters -------------------------------------------------- */

static int check(enum il_km_recipe r, enum il_km_via via, uint64_t size,
		 const char *dir, const char *source, char *err, size_t len)
{
	struct il_kmutex_params p = { .recipe = r,
				      .via = via,
				      .size = size,
				      .dir = dir,
				      .source = source };

	err[0] = '\0';
	return il_kmutex_check(&p, err, len);
}

static void test_params(void)
{
	char err[256], buf[160], long_dir[300];
	enum il_km_op op;

	for (int r = 0; r < IL_KM_RECIPES; r++) {
		t_check_int(check((enum il_km_recipe)r, IL_KM_VIA_SYSCALL, 0,
				  NULL, NULL, err, sizeof(err)),
			    0);
		t_check_int(check((enum il_km_recipe)r, IL_KM_VIA_SYSCALL, 4096,
				  "/tmp", "/proc/kallsyms", err, sizeof(err)),
			    0);
	}
	t_check_str(il_kmutex_recipe_name(IL_KM_RENAME), "rename");
	t_check_str(il_kmutex_recipe_name(IL_KM_SEQFILE), "seqfile");
	t_check_str(il_kmutex_lock_name(IL_KM_RENAME), "s_vfs_rename_mutex");
	t_check_str(il_kmutex_lock_name(IL_KM_FPOS), "f_pos_lock");
	t_check_str(il_kmutex_lock_name(IL_KM_PIPE), "pipe->mutex");
	t_check_contains(il_kmutex_lock_name(IL_KM_SEQFILE), "seq_file->lock");
	t_check_str(il_kmutex_recipe_name((enum il_km_recipe)9), "?");

	/* each recipe's own size range */
	t_check_int(il_kmutex_size_max(IL_KM_RENAME), 0);
	t_check_int(il_kmutex_size_max(IL_KM_FPOS), 4u << 20);
	t_check_int(il_kmutex_size_max(IL_KM_PIPE), 256u << 10);
	t_check_int(il_kmutex_size_max(IL_KM_SEQFILE), 1u << 20);
	t_check_int(il_kmutex_size_default(IL_KM_RENAME), 0);
	t_check_int(il_kmutex_size_default(IL_KM_FPOS), 1u << 20);
	t_check_int(il_kmutex_size_default(IL_KM_PIPE), 64u << 10);
	t_check_int(il_kmutex_size_default(IL_KM_SEQFILE), 64u << 10);
	t_check_int(check(IL_KM_PIPE, IL_KM_VIA_SYSCALL, 512u << 10, NULL, NULL,
			  err, sizeof(err)),
		    -EINVAL);
	t_check_str(err, "size: 524288 is out of range for a pipe resource; "
			 "allowed 1..256K");
	t_check_int(check(IL_KM_FPOS, IL_KM_VIA_SYSCALL, (4u << 20) + 1, NULL,
			  NULL, err, sizeof(err)),
		    -EINVAL);
	t_check_contains(err, "allowed 1..4M");
	t_check_int(check(IL_KM_SEQFILE, IL_KM_VIA_SYSCALL, 1u << 20, NULL,
			  NULL, err, sizeof(err)),
		    0);

	/* paths */
	t_check_int(check(IL_KM_RENAME, IL_KM_VIA_SYSCALL, 0, "tmp", NULL, err,
			  sizeof(err)),
		    -EINVAL);
	t_check_str(err, "dir = tmp: must be an absolute path");
	t_check_int(check(IL_KM_SEQFILE, IL_KM_VIA_SYSCALL, 0, NULL,
			  "proc/kallsyms", err, sizeof(err)),
		    -EINVAL);
	t_check_str(err, "source = proc/kallsyms: must be an absolute path");
	memset(long_dir, 'd', sizeof(long_dir) - 1);
	long_dir[0] = '/';
	long_dir[sizeof(long_dir) - 1] = '\0';
	t_check_int(check(IL_KM_FPOS, IL_KM_VIA_SYSCALL, 0, long_dir, NULL, err,
			  sizeof(err)),
		    -EINVAL);
	t_check_contains(err, "dir: longer than");
	t_check_int(check(IL_KM_FPOS, IL_KM_VIA_SYSCALL, 0, "/tmp/a\nb", NULL,
			  err, sizeof(err)),
		    -EINVAL);
	t_check_contains(err, "control character");

	/* io_uring: accepted exactly when the build has liburing */
	if (il_kmutex_have_uring()) {
		t_check_int(check(IL_KM_RENAME, IL_KM_VIA_URING, 0, NULL, NULL,
				  err, sizeof(err)),
			    0);
	} else {
		t_check_int(check(IL_KM_RENAME, IL_KM_VIA_URING, 0, NULL, NULL,
				  err, sizeof(err)),
			    -EOPNOTSUPP);
		t_check_str(err, "via = io_uring: not supported: built without "
				 "liburing");
	}
	t_check_int(check(IL_KM_RENAME, (enum il_km_via)7, 0, NULL, NULL, err,
			  sizeof(err)),
		    -EINVAL);
	t_check_int(check((enum il_km_recipe)7, IL_KM_VIA_SYSCALL, 0, NULL,
			  NULL, err, sizeof(err)),
		    -EINVAL);

	/* operation words */
	t_check_int(il_kmutex_op_parse(IL_KM_SEQFILE, "pread", &op, err,
				       sizeof(err)),
		    0);
	t_check_int(op, IL_KM_OP_PREAD);
	t_check_int(il_kmutex_op_parse(IL_KM_SEQFILE, "read", &op, err,
				       sizeof(err)),
		    0);
	t_check_int(op, IL_KM_OP_DEFAULT);
	t_check_int(
		il_kmutex_op_parse(IL_KM_RENAME, NULL, &op, err, sizeof(err)),
		0);
	t_check_int(op, IL_KM_OP_DEFAULT);
	t_check_int(il_kmutex_op_parse(IL_KM_RENAME, "pread", &op, err,
				       sizeof(err)),
		    -EINVAL);
	t_check_str(err, "'pread' is not an operation of a rename resource "
			 "(rename; none: rename)");
	t_check_int(il_kmutex_op_parse(IL_KM_SEQFILE, "write", &op, err,
				       sizeof(err)),
		    -EINVAL);
	t_check_contains(err, "(read, pread; none: read)");
	t_check_str(il_kmutex_op_name(IL_KM_SEQFILE, IL_KM_OP_PREAD), "pread");
	t_check_str(il_kmutex_op_name(IL_KM_PIPE, IL_KM_OP_DEFAULT), "write");

	{
		struct il_kmutex_params p = { .recipe = IL_KM_FPOS,
					      .size = 256 * 1024 };

		t_check_str(il_kmutex_describe(&p, IL_KM_OP_DEFAULT, buf,
					       sizeof(buf)),
			    "read() of 256K from a shared file");
		p.recipe = IL_KM_SEQFILE;
		p.size = 0;
		t_check_str(il_kmutex_describe(&p, IL_KM_OP_PREAD, buf,
					       sizeof(buf)),
			    "pread() of 64K of /proc/kallsyms");
	}
}

/* ---- recipes on this machine, unprivileged ------------------------------ */

static bool exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

/* the temporary directory of a recipe, from "fs at /path" */
static void tmp_of(const struct il_kmutex *km, char *buf, size_t len)
{
	const char *at = strstr(il_kmutex_where(km), " at ");

	snprintf(buf, len, "%s", at ? at + 4 : "");
}

static void test_recipes(void)
{
	static const struct {
		enum il_km_recipe r;
		enum il_km_op op;
		uint64_t size;
		bool tmp;
	} cases[] = {
		{ IL_KM_RENAME, IL_KM_OP_DEFAULT, 0, true },
		{ IL_KM_FPOS, IL_KM_OP_DEFAULT, 8192, true },
		{ IL_KM_PIPE, IL_KM_OP_DEFAULT, 8192, false },
		{ IL_KM_SEQFILE, IL_KM_OP_DEFAULT, 4096, false },
		{ IL_KM_SEQFILE, IL_KM_OP_PREAD, 4096, false },
	};
	char err[256], tmp[300];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct il_kmutex_params p = { .recipe = cases[i].r,
					      .size = cases[i].size,
					      /* readable by anyone */
					      .source =
						      "/proc/self/mountinfo" };
		struct il_kmutex *km;
		struct il_hist h;
		uint64_t t0 = 0, t1 = 0;
		int ret = il_kmutex_open(&km, &p, 2, err, sizeof(err));

		if (ret)
			fprintf(stderr, "recipe %d: %s\n", (int)cases[i].r,
				err);
		t_check_int(ret, 0);
		if (ret)
			continue;
		tmp_of(km, tmp, sizeof(tmp));
		if (cases[i].tmp) {
			t_check_contains(tmp, "/tmp/invlab-kmutex-");
			t_check(exists(tmp));
		}
		t_check_int(il_kmutex_attach(km, 0, err, sizeof(err)), 0);
		t_check_int(il_kmutex_attach(km, 1, err, sizeof(err)), 0);
		t_check_int(il_kmutex_attach(km, 5, err, sizeof(err)), -EINVAL);
		/* more calls than the fpos file holds sections: it wraps */
		for (int c = 0; c < 20; c++) {
			t_check_int(il_kmutex_call(km, c % 2, cases[i].op, &t0,
						   &t1),
				    0);
			t_check(t1 >= t0 && t0 > 0);
		}
		t_check_int(
			il_kmutex_calibrate(km, 10, 0, &h, err, sizeof(err)),
			0);
		t_check_int(h.count, 10);
		il_kmutex_detach(km, 0);
		il_kmutex_close(km);
		if (cases[i].tmp)
			t_check(!exists(tmp));
	}

	/* cleanup_all takes what is still open */
	{
		struct il_kmutex_params p = { .recipe = IL_KM_RENAME };
		struct il_kmutex *a, *b;

		t_check_int(il_kmutex_open(&a, &p, 1, err, sizeof(err)), 0);
		t_check_int(il_kmutex_open(&b, &p, 3, err, sizeof(err)), 0);
		tmp_of(a, tmp, sizeof(tmp));
		t_check(exists(tmp));
		il_kmutex_cleanup_all();
		t_check(!exists(tmp));
		il_kmutex_cleanup_all(); /* twice is fine */
	}

	/* what cannot be set up says why, and leaves nothing */
	{
		struct il_kmutex_params p = { .recipe = IL_KM_RENAME,
					      .dir = "/nonexistent/dir" };
		struct il_kmutex *km = (struct il_kmutex *)1;

		t_check_int(il_kmutex_open(&km, &p, 1, err, sizeof(err)),
			    -ENOENT);
		t_check(km == NULL);
		t_check_contains(err, "dir = /nonexistent/dir: cannot create");
		p.recipe = IL_KM_SEQFILE;
		p.dir = NULL;
		p.source = "/nonexistent/file";
		t_check_int(il_kmutex_open(&km, &p, 1, err, sizeof(err)),
			    -ENOENT);
		t_check_contains(err,
				 "source = /nonexistent/file: cannot read");
		p.source = NULL;
		t_check_int(il_kmutex_open(&km, &p, 0, err, sizeof(err)),
			    -EINVAL);
	}
}

/* ---- cgroup names and paths --------------------------------------------- */

static void test_cgroup_names(void)
{
	static const char *const hostile[] = {
		"../../etc",
		"a/b",
		"",
		".",
		"..",
		"x\n",
		"a b",
		"-\t",
		"/abs",
		"a..b",
		"name.with.dots",
		"\x7f",
		"ctl\x01",
		"0123456789012345678901234567890123456789012345678", /* 49 */
	};
	char err[200], out[512];

	for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		err[0] = '\0';
		t_check_int(il_cgroup_name_ok(hostile[i], err, sizeof(err)),
			    -EINVAL);
		t_check(err[0] != '\0');
		/* and so never a path */
		strcpy(out, "untouched");
		t_check_int(__il_cgroup_path(out, sizeof(out),
					     "/sys/fs/cgroup/cpu", 42,
					     hostile[i], err, sizeof(err)),
			    -EINVAL);
		t_check_str(out, "untouched");
	}
	t_check_int(il_cgroup_name_ok(NULL, err, sizeof(err)), -EINVAL);
	t_check_int(il_cgroup_name_ok("", err, sizeof(err)), -EINVAL);
	t_check_str(err, "a cgroup name cannot be empty");
	t_check_int(il_cgroup_name_ok("a/b", err, sizeof(err)), -EINVAL);
	t_check_str(err, "cgroup name 'a/b' contains '/'; use 1 to 48 of "
			 "A-Z a-z 0-9 _ -");
	t_check_int(il_cgroup_name_ok("x\n", err, sizeof(err)), -EINVAL);
	t_check_contains(err, "control character");
	t_check_int(il_cgroup_name_ok("..", err, sizeof(err)), -EINVAL);
	t_check_str(err, "'..' is not a cgroup name");

	t_check_int(il_cgroup_name_ok("kmutex-bg", err, sizeof(err)), 0);
	t_check_int(il_cgroup_name_ok("A_1-z", err, sizeof(err)), 0);
	t_check_int(il_cgroup_name_ok(
			    "012345678901234567890123456789012345678901234567",
			    err, sizeof(err)),
		    0);

	t_check_int(__il_cgroup_path(out, sizeof(out), "/sys/fs/cgroup/cpu", 42,
				     "bg", err, sizeof(err)),
		    0);
	t_check_str(out, "/sys/fs/cgroup/cpu/invlab-42/bg");
	t_check_int(__il_cgroup_path(out, sizeof(out), "/sys/fs/cgroup", 7,
				     NULL, err, sizeof(err)),
		    0);
	t_check_str(out, "/sys/fs/cgroup/invlab-7");
	t_check_int(__il_cgroup_path(out, 20, "/sys/fs/cgroup/cpu", 42, "bg",
				     err, sizeof(err)),
		    -ENAMETOOLONG);

	t_check_int(__il_cgroup_shares(100), 1024);
	t_check_int(__il_cgroup_shares(10), 102);
	t_check_int(__il_cgroup_shares(1000), 10240);
	t_check_int(__il_cgroup_shares(0), 2);
	t_check_str(__il_cgroup_ctrl_name(IL_CG_CPU), "cpu");
	t_check_str(__il_cgroup_ctrl_name(IL_CG_CPUSET), "cpuset");
}

/* mountinfo of the layouts: this machine's hybrid, and others */
static const char mi_hybrid[] =
	"25 30 0:23 / /sys rw,nosuid - sysfs sysfs rw\n"
	"31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
	"33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup "
	"rw,cpuacct\n"
	"34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup "
	"rw,cpuset\n"
	"40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup "
	"rw,name=systemd\n"
	"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 "
	"rw\n";
static const char mi_v2[] =
	"22 1 0:21 / /sys rw - sysfs sysfs rw\n"
	"26 22 0:24 / /sys/fs/cgroup rw,nosuid shared:9 - cgroup2 cgroup2 "
	"rw,nsdelegate,memory_recursiveprot\n";
/* v1 with cpu and cpuacct co-mounted, optional fields, cpuset absent */
static const char mi_v1[] =
	"30 25 0:26 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid shared:11 "
	"master:3 - cgroup cgroup rw,cpu,cpuacct\n";
/* a container: the hierarchy from /docker/abc on, a blank in the path */
static const char mi_container[] =
	"700 690 0:29 /docker/abc /sys/fs/cgroup/my\\040cpu ro,nosuid - "
	"cgroup cgroup rw,cpuacct,cpu\n";

static void test_cgroup_mounts(void)
{
	char mnt[256], root[256], own[256], dir[512];
	int v = 0;

	t_check_int(__il_cgroup_find_mount(mi_hybrid, IL_CG_CPU, mnt,
					   sizeof(mnt), root, sizeof(root), &v),
		    0);
	t_check_str(mnt, "/sys/fs/cgroup/cpu");
	t_check_str(root, "/");
	t_check_int(v, 1);
	t_check_int(__il_cgroup_find_mount(mi_hybrid, IL_CG_CPUSET, mnt,
					   sizeof(mnt), root, sizeof(root), &v),
		    0);
	t_check_str(mnt, "/sys/fs/cgroup/cpuset");

	t_check_int(__il_cgroup_find_mount(mi_v2, IL_CG_CPU, mnt, sizeof(mnt),
					   root, sizeof(root), &v),
		    0);
	t_check_str(mnt, "/sys/fs/cgroup");
	t_check_int(v, 2);

	/* "cpu" is its own item of "cpu,cpuacct", never a prefix match */
	t_check_int(__il_cgroup_find_mount(mi_v1, IL_CG_CPU, mnt, sizeof(mnt),
					   root, sizeof(root), &v),
		    0);
	t_check_str(mnt, "/sys/fs/cgroup/cpu,cpuacct");
	t_check_int(v, 1);
	t_check_int(__il_cgroup_find_mount(mi_v1, IL_CG_CPUSET, mnt,
					   sizeof(mnt), root, sizeof(root), &v),
		    -ENOENT);
	t_check_int(__il_cgroup_find_mount("", IL_CG_CPU, mnt, sizeof(mnt),
					   root, sizeof(root), &v),
		    -ENOENT);

	t_check_int(__il_cgroup_find_mount(mi_container, IL_CG_CPU, mnt,
					   sizeof(mnt), root, sizeof(root), &v),
		    0);
	t_check_str(mnt, "/sys/fs/cgroup/my cpu");
	t_check_str(root, "/docker/abc");

	/* /proc/self/cgroup */
	t_check_int(__il_cgroup_own("9:name=systemd:/\n4:cpu,cpuacct:/user/x\n"
				    "3:cpuset:/\n0::/user.slice/s.scope\n",
				    IL_CG_CPU, 1, own, sizeof(own)),
		    0);
	t_check_str(own, "/user/x");
	t_check_int(__il_cgroup_own("4:cpu,cpuacct:/user/x\n0::/u/s.scope\n",
				    IL_CG_CPU, 2, own, sizeof(own)),
		    0);
	t_check_str(own, "/u/s.scope");
	t_check_int(__il_cgroup_own("2:cpuacct:/a\n", IL_CG_CPU, 1, own,
				    sizeof(own)),
		    -ENOENT);
	t_check_int(
		__il_cgroup_own("0::/\n", IL_CG_CPUSET, 2, own, sizeof(own)),
		0);
	t_check_str(own, "/");

	/* the own group's directory */
	t_check_int(__il_cgroup_own_dir(dir, sizeof(dir), "/sys/fs/cgroup/cpu",
					"/", "/"),
		    0);
	t_check_str(dir, "/sys/fs/cgroup/cpu");
	t_check_int(__il_cgroup_own_dir(dir, sizeof(dir), "/sys/fs/cgroup", "/",
					"/user.slice/a.scope"),
		    0);
	t_check_str(dir, "/sys/fs/cgroup/user.slice/a.scope");
	t_check_int(__il_cgroup_own_dir(dir, sizeof(dir), "/sys/fs/cgroup/my",
					"/docker/abc", "/docker/abc/sub"),
		    0);
	t_check_str(dir, "/sys/fs/cgroup/my/sub");
	t_check_int(__il_cgroup_own_dir(dir, sizeof(dir), "/sys/fs/cgroup/my",
					"/docker/abc", "/docker/abc"),
		    0);
	t_check_str(dir, "/sys/fs/cgroup/my");
	/* outside the mount's root, or climbing: refused */
	t_check_int(__il_cgroup_own_dir(dir, sizeof(dir), "/m", "/docker/abc",
					"/docker/abcd"),
		    -EINVAL);
	t_check_int(__il_cgroup_own_dir(dir, sizeof(dir), "/m", "/",
					"/a/../../etc"),
		    -EINVAL);

	/* create refuses a hostile name before touching anything */
	{
		struct il_cgroup cg;
		char err[200];

		t_check_int(il_cgroup_create(&cg, IL_CG_CPU, "../../etc", err,
					     sizeof(err)),
			    -EINVAL);
		t_check(!cg.created);
		t_check_int(il_cgroup_remove(&cg), 0);
		il_cgroup_cleanup_all();
	}
}

/* ---- validators ---------------------------------------------------------- */

static void fill(struct il_hist *h, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		il_hist_record(h, v);
}

static struct il_sysinfo sysinfo(const char *release, int proxy, long rt,
				 int64_t fs_runtime)
{
	struct il_sysinfo si;

	memset(&si, 0, sizeof(si));
	snprintf(si.release, sizeof(si.release), "%s", release);
	si.proxy_exec_active = proxy;
	si.config_proxy_exec = proxy;
	si.rt_runtime_us = rt;
	si.rt_period_us = 1000000;
	si.fair_server_runtime_ns = fs_runtime;
	si.fair_server_period_ns = fs_runtime > 0 ? 500 * (int64_t)MS : -1;
	return si;
}

static void test_fair_server(void)
{
	struct il_fair_server fs;
	struct il_sysinfo si;
	int a = 0, b = 0;

	t_check_int(il_km_kernel_version("6.18.44-fc-v782", &a, &b), 0);
	t_check(a == 6 && b == 18);
	t_check_int(il_km_kernel_version("7.0.0-rc2", &a, &b), 0);
	t_check(a == 7 && b == 0);
	t_check_int(il_km_kernel_version("x.y", &a, &b), -EINVAL);
	t_check_int(il_km_kernel_version("6", &a, &b), -EINVAL);
	t_check_int(il_km_kernel_version(NULL, &a, &b), -EINVAL);

	/* >= 6.12, debugfs unreadable: the defaults, and says so */
	si = sysinfo("6.18.44", 0, 950000, -1);
	il_km_fair_server_of(&si, &fs);
	t_check(fs.bounded);
	t_check_int(fs.runtime_ns, 50 * MS);
	t_check_int(fs.period_ns, 1000 * MS);
	t_check_contains(fs.source, "default 50ms/1s");
	/* debugfs values win */
	si = sysinfo("6.12.1", 0, 950000, 25 * (int64_t)MS);
	il_km_fair_server_of(&si, &fs);
	t_check_int(fs.runtime_ns, 25 * MS);
	t_check_int(fs.period_ns, 500 * MS);
	t_check_contains(fs.source, "from debugfs");
	/* before the fair server: RT throttling */
	si = sysinfo("6.6.30", 0, 900000, -1);
	il_km_fair_server_of(&si, &fs);
	t_check(fs.bounded);
	t_check_int(fs.runtime_ns, 100 * MS);
	t_check_int(fs.period_ns, 1000 * MS);
	t_check_contains(fs.source, "RT throttling");
	/* and with that off, nothing */
	si = sysinfo("5.15.0", 0, -1, -1);
	il_km_fair_server_of(&si, &fs);
	t_check(!fs.bounded);
	t_check_contains(fs.source, "no fair server");

	/* B = ceil((L + tick) / Q) * P + L + tick */
	si = sysinfo("6.18.0", 0, 950000, -1);
	il_km_fair_server_of(&si, &fs);
	t_check_int(il_km_rt_waiter_bound(&fs, 20 * US, 4 * MS),
		    1000 * MS + 20 * US + 4 * MS);
	t_check_int(il_km_rt_waiter_bound(&fs, 60 * MS, 4 * MS),
		    2 * 1000 * MS + 64 * MS);
	fs.runtime_ns = 0;
	t_check_int(il_km_rt_waiter_bound(&fs, 20 * US, 4 * MS), 0);
}

static void test_rt_waiter(void)
{
	struct il_rt_waiter_input in = {
		.bound_ns = 1004 * MS,
		.noise_ns = 50 * US,
		.steal_ns = 5 * MS,
		.long_ns = 10 * MS,
		.min_samples = 100,
	};
	struct il_check c;
	struct il_hist h;

	/* starved waits within the bound: PASS, and counted */
	il_hist_init(&h);
	fill(&h, 20 * US, 1000);
	fill(&h, 950 * MS, 4);
	t_check_int(il_km_check_rt_waiter(&in, &h, &c), 0);
	t_check_int(c.verdict, IL_PASS);
	t_check_contains(c.evidence, "1004 calls, 4 starved over 10.0ms");
	t_check_int(c.bound_ns, 1004 * MS);

	/* far over: FAIL */
	fill(&h, 1900 * MS, 1);
	t_check_int(il_km_check_rt_waiter(&in, &h, &c), 0);
	t_check_int(c.verdict, IL_FAIL);
	t_check_contains(c.evidence, "more than the run's");

	/* over by less than the run's steal: UNDECIDED */
	il_hist_init(&h);
	fill(&h, 20 * US, 1000);
	fill(&h, 1006 * MS, 1);
	t_check_int(il_km_check_rt_waiter(&in, &h, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
	t_check_contains(c.evidence, "host steal could explain");

	/* too few calls: UNDECIDED; a timed-out call: FAIL */
	il_hist_init(&h);
	fill(&h, 20 * US, 50);
	t_check_int(il_km_check_rt_waiter(&in, &h, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
	t_check_contains(c.evidence, "only 50 calls");
	in.timed_out = 1;
	t_check_int(il_km_check_rt_waiter(&in, &h, &c), 0);
	t_check_int(c.verdict, IL_FAIL);
	t_check_int(il_km_check_rt_waiter(NULL, &h, &c), -EINVAL);
}

static void test_share(void)
{
	/* the demo's throttled: fg 100, bg 10, hogs 1000; q 4 ms */
	struct il_share_input in = {
		.w_waiter = il_km_weight_load(100),
		.w_owner = il_km_weight_load(10),
		.w_others = il_km_weight_load(1000),
		.quantum_ns = 4 * MS,
		.cs_ns = 20 * US,
		.noise_ns = 20 * MS,
		.min_samples = 100,
		.min_exceed = 3,
	};
	struct il_share_stats st;
	struct il_check c;
	struct il_hist h;

	t_check(il_km_weight_load(100) == 1024.0);
	il_hist_init(&h);
	il_km_share_stats(&in, &h, &st);
	/* s_w = 1024 / 11366, s_o = 102.4 / 10342.4 */
	t_check(st.s_waiter > 0.0900 && st.s_waiter < 0.0902);
	t_check(st.s_owner > 0.00989 && st.s_owner < 0.00991);
	t_check(st.rho > 9.09 && st.rho < 9.11);
	t_check(st.b_waiter_ns > 44 * MS && st.b_waiter_ns < 45 * MS);
	t_check(st.b_owner_ns > 405 * MS && st.b_owner_ns < 407 * MS);
	t_check(st.threshold_ns > 133 * MS && st.threshold_ns < 136 * MS);

	/* waits that scale with the owner's share: FAIL */
	fill(&h, 25 * US, 1000);
	fill(&h, 400 * MS, 5);
	t_check_int(il_km_check_share(&in, &h, &c), 0);
	t_check_int(c.verdict, IL_FAIL);
	t_check_contains(c.evidence, "5 of 1005 waits exceeded");
	t_check_contains(c.evidence, "share ratio 9.1");
	il_km_share_stats(&in, &h, &st);
	t_check_int(st.exceed, 5);
	t_check(st.factor > 8.9 && st.factor < 9.1);

	/* an inversion is found however few waits there were */
	il_hist_init(&h);
	fill(&h, 400 * MS, 3);
	t_check_int(il_km_check_share(&in, &h, &c), 0);
	t_check_int(c.verdict, IL_FAIL);

	/* two over: not enough to call it */
	il_hist_init(&h);
	fill(&h, 25 * US, 1000);
	fill(&h, 400 * MS, 2);
	t_check_int(il_km_check_share(&in, &h, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
	t_check_contains(c.evidence, "too few to call an inversion");

	/* over by less than the run's steal: UNDECIDED */
	il_hist_init(&h);
	fill(&h, 25 * US, 1000);
	fill(&h, 140 * MS, 5);
	t_check_int(il_km_check_share(&in, &h, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
	t_check_contains(c.evidence, "host steal");

	/* waits that scale with the waiter's share: PASS */
	il_hist_init(&h);
	fill(&h, 25 * US, 1000);
	fill(&h, 40 * MS, 20);
	t_check_int(il_km_check_share(&in, &h, &c), 0);
	t_check_int(c.verdict, IL_PASS);
	t_check_contains(c.evidence, "1020 waits, worst 40.0ms");

	/* too few waits to PASS */
	il_hist_init(&h);
	fill(&h, 25 * US, 50);
	t_check_int(il_km_check_share(&in, &h, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
	t_check_contains(c.evidence, "only 50 waits");

	/* equal weights: the hypotheses cannot be told apart */
	in.w_owner = il_km_weight_load(100);
	in.w_others = il_km_weight_load(200);
	t_check_int(il_km_check_share(&in, &h, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
	t_check_contains(c.evidence, "too close to tell apart");
	in.w_owner = 0;
	t_check_int(il_km_check_share(&in, &h, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
	t_check_int(il_km_check_share(&in, NULL, &c), -EINVAL);
}

/* each branch of the donor-migration rule, both sides of each comparison */
static void test_donor_migration(void)
{
	static const struct {
		const char *release;
		int config;
		int override;
		bool want;
		const char *why;
	} cases[] = {
		{ "7.2.13", 1, IL_KM_DONOR_AUTO, true, "(7.2, from 7.2 on)" },
		{ "7.2.0", -1, IL_KM_DONOR_AUTO, true, "(7.2, from 7.2 on)" },
		{ "7.1.9", 1, IL_KM_DONOR_AUTO, false, "(7.1, before 7.2)" },
		{ "7.3.1", 1, IL_KM_DONOR_AUTO, true, "(7.3, from 7.2 on)" },
		{ "7.10.0", 1, IL_KM_DONOR_AUTO, true, "(7.10, from 7.2 on)" },
		{ "8.0.0", 1, IL_KM_DONOR_AUTO, true, "(8.0, from 7.2 on)" },
		{ "6.99.0", 1, IL_KM_DONOR_AUTO, false, "(6.99, before 7.2)" },
		{ "6.17.0", 1, IL_KM_DONOR_AUTO, false, "(6.17, before 7.2)" },
		/* not built: nothing to migrate, whatever the release */
		{ "7.2.13", 0, IL_KM_DONOR_AUTO, false, "not built" },
		{ "", 1, IL_KM_DONOR_AUTO, false, "release unknown" },
		{ "x.y", -1, IL_KM_DONOR_AUTO, false, "release unknown" },
		/* the override wins both ways */
		{ "6.17.0", 1, IL_KM_DONOR_YES, true, "(--donor-migration)" },
		{ "7.2.13", 1, IL_KM_DONOR_NO, false, "(--donor-migration)" },
		{ "7.2.13", 0, IL_KM_DONOR_YES, true, "(--donor-migration)" },
	};
	char why[80];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct il_sysinfo si = sysinfo(cases[i].release, 1, 950000, -1);

		si.config_proxy_exec = cases[i].config;
		t_check_int(il_km_donor_migration(&si, cases[i].override, why,
						  sizeof(why)),
			    cases[i].want);
		t_check_contains(why, cases[i].why);
	}
}

static void test_expect(void)
{
	struct il_sysinfo off = sysinfo("6.18.44", 0, 950000, -1);
	struct il_sysinfo on = sysinfo("6.17.0", 1, 950000, -1);
	struct il_sysinfo unknown = sysinfo("6.18.0", -1, 950000, -1);
	struct il_sysinfo old = sysinfo("5.10.0", 0, -1, -1);
	struct il_sysinfo on72 = sysinfo("7.2.13", 1, 950000, -1);
	char why[160];

	t_check_int(il_km_expect(IL_KM_CASE_THROTTLED, &off, false, why,
				 sizeof(why)),
		    IL_FAIL);
	t_check_str(why, "proxy execution off");
	t_check_int(il_km_expect(IL_KM_CASE_THROTTLED, &on, false, why,
				 sizeof(why)),
		    IL_PASS);
	t_check_int(il_km_expect(IL_KM_CASE_THROTTLED, &unknown, false, why,
				 sizeof(why)),
		    IL_FAIL);
	t_check_contains(why, "unknown, taken as off");

	/* cross-cpu: proxy execution on, and donors migrated */
	t_check_int(il_km_expect(IL_KM_CASE_CROSS_CPU, &off, IL_KM_DONOR_YES,
				 why, sizeof(why)),
		    IL_FAIL);
	t_check_str(why, "proxy execution off");
	t_check_int(il_km_expect(IL_KM_CASE_CROSS_CPU, &on, IL_KM_DONOR_AUTO,
				 why, sizeof(why)),
		    IL_FAIL);
	t_check_contains(why, "without donor migration (6.17, before 7.2)");
	t_check_int(il_km_expect(IL_KM_CASE_CROSS_CPU, &on, IL_KM_DONOR_YES,
				 why, sizeof(why)),
		    IL_PASS);
	t_check_contains(why, "with donor migration (--donor-migration)");
	t_check_int(il_km_expect(IL_KM_CASE_CROSS_CPU, &on72, IL_KM_DONOR_AUTO,
				 why, sizeof(why)),
		    IL_PASS);
	t_check_str(why, "proxy execution on, with donor migration (7.2, "
			 "from 7.2 on)");
	t_check_int(il_km_expect(IL_KM_CASE_CROSS_CPU, &on72, IL_KM_DONOR_NO,
				 why, sizeof(why)),
		    IL_FAIL);
	t_check_contains(why, "without donor migration (--donor-migration)");
	/* 7.2 booted with sched_proxy_exec=0 */
	on72.proxy_exec_active = 0;
	t_check_int(il_km_expect(IL_KM_CASE_CROSS_CPU, &on72, IL_KM_DONOR_AUTO,
				 why, sizeof(why)),
		    IL_FAIL);
	t_check_str(why, "proxy execution off");
	t_check_int(il_km_expect(IL_KM_CASE_THROTTLED, &on72, IL_KM_DONOR_AUTO,
				 why, sizeof(why)),
		    IL_FAIL);

	t_check_int(il_km_expect(IL_KM_CASE_RT_WAITER, &off, false, why,
				 sizeof(why)),
		    IL_PASS);
	t_check_contains(why, "fair server");
	t_check_int(il_km_expect(IL_KM_CASE_RT_WAITER, &old, false, why,
				 sizeof(why)),
		    IL_FAIL);
	t_check_int(il_km_expect(IL_KM_CASE_CONTENTION, &old, false, why,
				 sizeof(why)),
		    IL_PASS);
}

/* ---- judging one configuration (il_km_judge) ------------------------- */

static struct il_hist km_blocked;
static struct il_judged ck_km[2];
static struct il_sysinfo km_si;
static struct il_fair_server km_fs;

/* 100 calls of fg: `slow` of them at 100 us, the rest at 5 us */
static struct il_km_judge_input km_input(enum il_km_config c, int slow)
{
	il_hist_init(&km_blocked);
	fill(&km_blocked, 100 * US, slow);
	fill(&km_blocked, 5 * US, 100 - slow);
	km_si = sysinfo("6.18.44", 0, 950000, -1);
	il_km_fair_server_of(&km_si, &km_fs);
	return (struct il_km_judge_input){
		.config = c,
		.via = IL_KM_VIA_SYSCALL,
		.recipe = IL_KM_RENAME,
		.cost_ns = 8 * US,
		.cost_p90_ns = 10 * US,
		.blocked = &km_blocked,
		.contender_calls = 1000,
		.bg_weight = 10,
		.hog_weight = 1000,
		.quantum_ns = 3 * MS,
		.tick_ns = 4 * MS,
		.steal_ns = 0,
		.noise_ns = 50 * US,
		.fs = &km_fs,
		.si = &km_si,
	};
}

static void test_km_contention(void)
{
	struct il_km_judge_input in;
	struct il_km_judged out;

	/* the thresholds: below 25 % UNDECIDED (below 15 % no contention
	 * measured, which is not the kernel's fault), 25 % PASS */
	in = km_input(IL_KM_CONFIG_CONTENTION, 14);
	t_check_int(il_km_judge(&in, &out), 0);
	t_check(out.judged);
	t_check(!out.informational);
	t_check_int(out.check.verdict, IL_UNDECIDED);
	t_check_contains(out.check.evidence,
			 "no contention measured in this run (below 15 %)");
	t_check_int(out.expected, IL_PASS);
	t_check_str(out.expect_why, "a recipe contends on every kernel");
	t_check_str(out.check.bound_name, "uncontended p90");
	t_check_int(out.check.bound_ns, 10 * US);
	t_check_int(out.check.worst_ns, 100 * US);
	in = km_input(IL_KM_CONFIG_CONTENTION, 15);
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.verdict, IL_UNDECIDED);
	t_check_contains(out.check.evidence, "too few to tell contention");
	in = km_input(IL_KM_CONFIG_CONTENTION, 24);
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.verdict, IL_UNDECIDED);
	in = km_input(IL_KM_CONFIG_CONTENTION, 25);
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.verdict, IL_PASS);
	t_check_contains(out.check.evidence,
			 "the contender made 1000 calls; 25 % of fg's calls "
			 "were slower than the uncontended p90 10.0us "
			 "(uncontended: 10 %; contended: at least 25 %)");
	t_check(!strstr(out.check.evidence, "nothing to judge"));
	/* a contender that made no call: nobody else took the mutex */
	in.contender_calls = 0;
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.verdict, IL_FAIL);
	t_check_contains(out.check.evidence, "nobody else took the mutex");
	/* a calibration's stretched tail counts as twice its median */
	in = km_input(IL_KM_CONFIG_CONTENTION, 30);
	in.cost_p90_ns = 200 * US;
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.bound_ns, 16 * US);
	t_check_int(out.check.verdict, IL_PASS);
	in.cost_ns = 0; /* no median: the p90 as measured */
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.bound_ns, 200 * US);
	t_check_int(out.check.verdict, IL_UNDECIDED);
	/* a call counts when surely slower: its bucket starts above */
	in = km_input(IL_KM_CONFIG_CONTENTION, 0);
	il_hist_init(&km_blocked);
	fill(&km_blocked, 9984, 50);
	fill(&km_blocked, 5 * US, 50);
	in.cost_p90_ns = 9984;
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.verdict, IL_UNDECIDED);
	in.cost_p90_ns = 9983;
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.verdict, IL_PASS);
	/* through io_uring: measured, not judged */
	in = km_input(IL_KM_CONFIG_CONTENTION, 50);
	in.via = IL_KM_VIA_URING;
	t_check_int(il_km_judge(&in, &out), 0);
	t_check(!out.judged);
	t_check_int(out.check.verdict, IL_NONE);
	/* the configurations that only measure */
	for (int c = IL_KM_CONFIG_ALONE; c <= IL_KM_CONFIG_LOAD_CONTENTION;
	     c++) {
		if (c == IL_KM_CONFIG_CONTENTION)
			continue;
		in = km_input((enum il_km_config)c, 50);
		t_check_int(il_km_judge(&in, &out), 0);
		t_check(!out.judged);
	}
}

static void test_km_share(void)
{
	struct il_km_judge_input in;
	struct il_km_judged out;
	struct il_share_input si;
	struct il_share_stats st;

	/* a plain rename through system calls: expected per kernel */
	in = km_input(IL_KM_CONFIG_THROTTLED, 50);
	in.cost_ns = 20 * US;
	t_check_int(il_km_judge(&in, &out), 0);
	t_check(out.judged);
	t_check(!out.informational);
	t_check_int(out.expected, IL_FAIL);
	t_check_str(out.expect_why, "proxy execution off");
	t_check(out.check.verdict != IL_NONE);
	t_check_str(out.check.bound_name, "waiter's share (proxy execution)");
	/* judged from the weights, quantum, section and steal given */
	si = (struct il_share_input){
		.w_waiter = il_km_weight_load(100),
		.w_owner = il_km_weight_load(10),
		.w_others = il_km_weight_load(1000),
		.quantum_ns = 3 * MS,
		.cs_ns = 20 * US,
		.noise_ns = 0,
		.min_samples = 100,
		.min_exceed = 3,
	};
	il_km_share_stats(&si, &km_blocked, &st);
	t_check_int(out.share.threshold_ns, st.threshold_ns);
	t_check_int(out.share.b_owner_ns, st.b_owner_ns);
	t_check_int(out.check.bound_ns, st.threshold_ns);
	km_si.proxy_exec_active = 1;
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.expected, IL_PASS);
	/* cross-cpu: needs donor migration too */
	in.config = IL_KM_CONFIG_CROSS_CPU;
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.expected, IL_FAIL);
	in.donor_migration = IL_KM_DONOR_YES;
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.expected, IL_PASS);
	t_check_contains(out.expect_why, "with donor migration");
	/* the fingerprint alone: a 7.2 kernel migrates donors */
	in.donor_migration = IL_KM_DONOR_AUTO;
	snprintf(km_si.release, sizeof(km_si.release), "7.2.13");
	km_si.config_proxy_exec = 1;
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.expected, IL_PASS);
	t_check_contains(out.expect_why, "(7.2, from 7.2 on)");
	/* other recipes, and io_uring: informational, nothing expected */
	in = km_input(IL_KM_CONFIG_THROTTLED, 50);
	in.recipe = IL_KM_FPOS;
	t_check_int(il_km_judge(&in, &out), 0);
	t_check(out.judged);
	t_check(out.informational);
	t_check_int(out.expected, IL_NONE);
	t_check_str(out.expect_why, "nothing expected of fpos: whether its "
				    "owner is preempted in the section "
				    "depends on the kernel");
	in = km_input(IL_KM_CONFIG_CROSS_CPU, 50);
	in.via = IL_KM_VIA_URING;
	t_check_int(il_km_judge(&in, &out), 0);
	t_check(out.informational);
	t_check_int(out.expected, IL_NONE);
	t_check_str(out.expect_why, "nothing expected through io_uring: the "
				    "owner is an io-wq worker");
	/* a stopped run says so after the evidence */
	in = km_input(IL_KM_CONFIG_THROTTLED, 50);
	in.hung = true;
	in.hung_why = "fg waited 5s";
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_contains(out.check.evidence, "; the run was stopped: fg "
					     "waited 5s");
}

static void test_km_rt_waiter(void)
{
	struct il_km_judge_input in;
	struct il_km_judged out;
	uint64_t bound;

	/* the fair server bounds it on 6.18: PASS expected */
	in = km_input(IL_KM_CONFIG_RT_WAITER, 0);
	bound = il_km_rt_waiter_bound(&km_fs, in.cost_ns, in.tick_ns);
	t_check_int(il_km_judge(&in, &out), 0);
	t_check(out.judged);
	t_check(!out.informational);
	t_check_int(out.check.verdict, IL_PASS);
	t_check_int(out.expected, IL_PASS);
	t_check_int(out.check.bound_ns, bound);
	t_check_int(out.check.noise_ns, 50 * US);
	t_check_contains(out.expect_why, "bounded by");
	/* a wait beyond bound + noise: FAIL */
	fill(&km_blocked, bound + 60 * US, 1);
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.verdict, IL_FAIL);
	/* within the noise: not */
	in = km_input(IL_KM_CONFIG_RT_WAITER, 0);
	fill(&km_blocked, bound + 40 * US, 1);
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.verdict, IL_PASS);
	/* starved waits are counted over 10 ms */
	in = km_input(IL_KM_CONFIG_RT_WAITER, 0);
	fill(&km_blocked, 11 * MS, 2);
	fill(&km_blocked, 9 * MS, 1);
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_contains(out.check.evidence, "2 starved over 10.0ms");
	/* a call that outlived the run: FAIL, no note appended */
	in = km_input(IL_KM_CONFIG_RT_WAITER, 0);
	in.hung = true;
	in.hung_why = "fg waited 5s";
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.verdict, IL_FAIL);
	t_check(!strstr(out.check.evidence, "the run was stopped"));
	/* too few calls */
	il_hist_init(&km_blocked);
	fill(&km_blocked, 5 * US, 99);
	in.hung = false;
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.verdict, IL_UNDECIDED);
	/* no fair server or throttling: FAIL expected */
	in = km_input(IL_KM_CONFIG_RT_WAITER, 0);
	km_si = sysinfo("5.10.0", 0, -1, -1);
	il_km_fair_server_of(&km_si, &km_fs);
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.expected, IL_FAIL);
}

static void test_km_bad_input(void)
{
	struct il_km_judge_input in = km_input(IL_KM_CONFIG_RT_WAITER, 0);
	struct il_km_judged out;

	t_check_int(il_km_judge(&in, NULL), -EINVAL);
	in.blocked = NULL;
	out.check.verdict = IL_PASS;
	out.judged = true;
	t_check_int(il_km_judge(&in, &out), -EINVAL);
	t_check(!out.judged);
	t_check_int(out.check.verdict, IL_NONE);
	t_check_str(out.check.evidence, "no verdict: missing input");
	in = km_input(IL_KM_CONFIG_N, 0);
	t_check_int(il_km_judge(&in, &out), -EINVAL);
	in = km_input(IL_KM_CONFIG_THROTTLED, 0);
	in.si = NULL;
	t_check_int(il_km_judge(&in, &out), -EINVAL);
	in = km_input(IL_KM_CONFIG_THROTTLED, 0);
	in.fs = NULL;
	t_check_int(il_km_judge(&in, &out), -EINVAL);
	t_check_int(il_km_judge(NULL, &out), -EINVAL);
	t_check_int(out.check.verdict, IL_NONE);
}

/* ---- on the scheduler's trace (attrib.h) ---------------------------- */

/*
 * Fixture traces shaped like the kmutex demo's runs: fg's 200 calls two
 * seconds apart, each a 30 ms wait for the owner (bg, or in rt-waiter the
 * owner on CPU 2) and 1 ms of fg's own section; in 5 of them (every
 * 40th) task x preempts the owner for XNS at kernel priority xp.
 */
#define KN  200
#define KT0 (1000 * MS)
#define XNS (150 * MS)
enum { FG = 201, BG = 202, HOG = 203, FX = 500 };

static struct il_trace ktr;

/* prev preempted (still runnable), as the kernel marks it, when set */
static int ksw_runnable;
static void ksw(uint64_t ts, int cpu, int prev, int pp, int next, int np)
{
	struct il_trace_rec r = {
		.ts = ts,
		.kind = IL_TR_SWITCH,
		.prev_runnable = (uint8_t)ksw_runnable,
		.cpu = cpu,
		.prev_pid = prev,
		.next_pid = next,
		.prev_prio = (int16_t)pp,
		.next_prio = (int16_t)np,
	};

	t_check_int(il_trace_add(&ktr, &r), 0);
}

/* c: throttled (all on CPU 1) or rt-waiter (fg FIFO 50 on CPU 1, the
 * owner and hog1 on CPU 2); x 0: nobody preempts */
static void km_traced(int c, int x, int xp, uint64_t xns)
{
	const bool rt = c == IL_KM_CONFIG_RT_WAITER;
	const int fp = rt ? 49 : 120, oc = rt ? 2 : 1;
	struct il_lock_result *lr;

	t_run_kmutex(c, KN, 0, 0, 50);
	t_er.tasks[0].tid = FG;
	t_er.tasks[1].tid = BG;
	t_er.tasks[2].tid = HOG;
	t_er.tasks[0].cpu = 1;
	t_er.tasks[1].cpu = t_er.tasks[2].cpu = oc;
	il_trace_free(&ktr);
	ktr.t0_ns = KT0 - MS;
	ktr.t1_ns = KT0 + (KN + 1) * 2 * IL_NSEC_PER_SEC;
	t_check_int(il_trace_note_task(&ktr, FG, "fg", fp), 0);
	t_check_int(il_trace_note_task(&ktr, BG, "bg", 120), 0);
	t_check_int(il_trace_note_task(&ktr, HOG, "hog1", 120), 0);
	t_check_int(il_trace_note_task(&ktr, FX, "fx", xp), 0);
	lr = t_er.tasks[0].locks[0];
	il_hist_init(&lr->blocked);
	for (int k = 0; k < KN; k++) {
		uint64_t b = KT0 + (uint64_t)k * 2 * IL_NSEC_PER_SEC;
		uint64_t x0 = b + 5 * MS, d = 30 * MS;
		bool hit = x && k % 40 == 0;

		if (hit)
			d += xns;
		/* fg asks at b and sleeps on the mutex; the owner runs */
		if (rt) {
			ksw(b, 1, 0, 120, FG, fp);
			ksw(b + 10 * US, 1, FG, fp, 0, 120);
			ksw(b, 2, 0, 120, BG, 120);
		} else {
			ksw(b, 1, 0, 120, FG, fp);
			ksw(b + 10 * US, 1, FG, fp, BG, 120);
		}
		if (hit) {
			ksw_runnable = 1; /* the owner preempted */
			ksw(x0, oc, BG, 120, x, xp);
			ksw_runnable = 0;
			ksw(x0 + xns, oc, x, xp, BG, 120);
		}
		/* the owner releases; fg runs its section for 1 ms */
		if (rt) {
			ksw(b + d - MS, 2, BG, 120, 0, 120);
			ksw(b + d - MS, 1, 0, 120, FG, fp);
		} else {
			ksw(b + d - MS, 1, BG, 120, FG, fp);
		}
		ksw(b + d + 10 * US, 1, FG, fp, 0, 120);
		lr->samples[k] = (struct il_wait_sample){
			.delay_ns = d,
			.t_ns = b,
			.t_req_ns = b,
		};
		il_hist_record(&lr->blocked, d);
	}
	il_trace_sort(&ktr);
	t_er.trace = &ktr;
}

static void test_km_trace(void)
{
	struct il_attr_task k[IL_MAX_TASKS];
	struct il_wait_sample *tmp;
	struct il_attr_summary as;
	const struct il_wait_sample *w;
	struct il_km_judged out;
	char why[256];
	int n = 0;

	/* the roles on a kernel mutex: the other callers hold it, every
	 * other task of the scenario is counted, whatever its rank */
	km_traced(IL_KM_CONFIG_THROTTLED, 0, 0, 0);
	il_attr_roles(&t_sc, &t_er, 0, 0, k);
	t_check_int(k[0].role, IL_ROLE_WAITER);
	t_check_int(k[1].role, IL_ROLE_HOLDER);
	t_check_int(k[2].role, IL_ROLE_LOWER);
	t_check_int(k[1].tid, BG);
	t_check_int(k[2].cpu, 1);
	il_attr_roles(&t_sc, &t_er, 1, 0, k);
	t_check_int(k[0].role, IL_ROLE_HOLDER);
	t_check_int(k[1].role, IL_ROLE_WAITER);
	/* no resource, or one past the scenario's: not a kernel mutex, the
	 * ranks decide (bg, as fair as fg, is at or above it) */
	il_attr_roles(&t_sc, &t_er, 0, -1, k);
	t_check_int(k[1].role, IL_ROLE_HIGHER);
	il_attr_roles(&t_sc, &t_er, 0, t_sc.nres, k);
	t_check_int(k[1].role, IL_ROLE_HIGHER);
	/* a task calling another kernel mutex does not hold this one */
	t_run_reset("[global]\nvalidate = none\n[resource K2]\ntype = rename\n"
		    "[resource K]\ntype = rename\n"
		    "[task fg]\nclass = other\nactivation = hog\n"
		    "body = call K, sleep 1ms\n"
		    "[task bg]\nclass = other\nactivation = hog\n"
		    "body = call K\n"
		    "[task x]\nclass = other\nactivation = hog\n"
		    "body = call K2\n");
	il_attr_roles(&t_sc, &t_er, 0, 1, k);
	t_check_int(k[1].role, IL_ROLE_HOLDER);
	t_check_int(k[2].role, IL_ROLE_LOWER);
	km_traced(IL_KM_CONFIG_THROTTLED, 0, 0, 0);
	/* fg's own section is part of the call: counted, nothing foreign */
	w = il_attr_judged(&t_sc, &t_er, 0, &tmp, &as);
	t_check(w == tmp && w);
	t_check_int(as.traced, KN);
	t_check_int(w[1].foreign_ns, 0);
	t_check_int(as.waiter_ns, KN * (MS + 10 * US));
	free(tmp);

	/* a foreign task above fg (FIFO 50) preempts the owner: 5 calls
	 * over the threshold as measured, FAIL on the calls alone */
	km_traced(IL_KM_CONFIG_THROTTLED, FX, 49, XNS);
	t_er.trace = NULL;
	t_check_int(il_km_judge_run(&t_sc, &t_er, &t_env, &t_km, ck_km, &n,
				    &out, why, sizeof(why)),
		    0);
	t_check_int(out.check.verdict, IL_FAIL);
	t_check_contains(out.check.evidence,
			 "; trace not used (no trace): judged on the calls "
			 "as measured");
	snprintf(t_er.trace_note, sizeof(t_er.trace_note), "no trace (off)");
	t_check_int(il_km_judge_run(&t_sc, &t_er, &t_env, &t_km, ck_km, &n,
				    &out, why, sizeof(why)),
		    0);
	t_check_contains(out.check.evidence, "trace not used (no trace (off))");
	/* on the trace: interference, not counted: no FAIL, fx named */
	t_er.trace = &ktr;
	t_check_int(il_km_judge_run(&t_sc, &t_er, &t_env, &t_km, ck_km, &n,
				    &out, why, sizeof(why)),
		    0);
	t_check_int(n, 1);
	t_check_int(out.check.verdict, IL_PASS);
	t_check_int(ck_km[0].c.verdict, IL_PASS);
	t_check_int(out.check.worst_ns, 30 * MS);
	t_check_int(out.check.by_trace, 1);
	t_check_contains(out.check.evidence,
			 "decided on the trace: in each of 200 covered waits "
			 "(0 of 33.4ms or longer)");
	t_check_contains(out.check.evidence,
			 "the trace's account: 5 of 200 calls over");
	t_check_contains(out.check.evidence, "as measured, 0 with foreign "
					     "time off");
	t_check_contains(out.check.evidence,
			 "; 5 waits delayed by fx (pid 500, FIFO 50): 750ms, "
			 "higher priority than fg (nice 0): interference, not "
			 "inversion");
	t_check(!strstr(out.check.evidence, "no foreign task ran"));
	/* the attribution the run keeps (il_attribute_run, what the result
	 * file holds) gives the same */
	t_check_int(il_attribute_run(&t_sc, &t_er), 0);
	t_check(t_er.tasks[0].locks[0]->traced != NULL);
	t_er.trace = NULL;
	t_check_int(il_km_judge_run(&t_sc, &t_er, &t_env, &t_km, ck_km, &n,
				    &out, why, sizeof(why)),
		    0);
	t_check_int(out.check.verdict, IL_PASS);
	free(t_er.tasks[0].locks[0]->traced);
	free(t_er.tasks[1].locks[0]->traced);
	t_er.tasks[0].locks[0]->traced = t_er.tasks[1].locks[0]->traced = NULL;
	/* a trace that covers none of the calls keeps no account of them
	 * (and says why): the judge then reads the calls as measured */
	km_traced(IL_KM_CONFIG_THROTTLED, FX, 49, XNS);
	ktr.t0_ns = ktr.t1_ns - 1;
	t_check_int(il_attribute_run(&t_sc, &t_er), 0);
	t_check(t_er.tasks[0].locks[0]->traced == NULL);
	t_check_int(t_er.tasks[0].locks[0]->attr.traced, 0);
	free(t_er.tasks[0].locks[0]->traced);
	free(t_er.tasks[1].locks[0]->traced);
	t_er.tasks[0].locks[0]->traced = t_er.tasks[1].locks[0]->traced = NULL;

	/* the scenario's hog preempting the owner is counted: 5 calls
	 * over the duration threshold, but in each the owner got 30 ms of
	 * 180 ms, 16.7 %: over its own share (1 %) and fg's (9 %), the
	 * share proxy execution gives it.  The trace decides: PASS. */
	km_traced(IL_KM_CONFIG_THROTTLED, HOG, 120, XNS);
	t_check_int(il_km_judge_run(&t_sc, &t_er, &t_env, &t_km, ck_km, &n,
				    &out, why, sizeof(why)),
		    0);
	t_check_int(out.check.verdict, IL_PASS);
	t_check_int(out.check.by_trace, 1);
	t_check_int(out.trace_share.covered, KN);
	t_check_int(out.trace_share.inverted, 0);
	t_check_contains(out.check.evidence,
			 "decided on the trace: in each of 200 covered waits "
			 "(5 of 33.4ms or longer) the owner got at least "
			 "3.0 % of the time it could run, over its own share "
			 "1.0 % (fg's 9.0 %); durations: worst 180ms, 5 over "
			 "101ms");
	t_check_contains(out.check.evidence, "as measured, 5 with foreign "
					     "time off");
	t_check_contains(out.check.evidence, "; no foreign task ran");
	/* the hog for 1.9 s of 1.93 s: the owner got 1.6 %, its own share,
	 * not fg's: inversion, FAIL on the trace */
	km_traced(IL_KM_CONFIG_THROTTLED, HOG, 120, 1900 * MS);
	t_check_int(il_km_judge_run(&t_sc, &t_er, &t_env, &t_km, ck_km, &n,
				    &out, why, sizeof(why)),
		    0);
	t_check_int(out.check.verdict, IL_FAIL);
	t_check_int(out.check.by_trace, 1);
	t_check_int(out.trace_share.inverted, 5);
	t_check_contains(out.check.evidence,
			 "decided on the trace: in 5 of 5 covered waits of "
			 "33.4ms or longer the owner got under 3.0 % of the "
			 "time it could run (150ms of 9.65s; the scenario's "
			 "others ran the rest), its own share 1.0 %, not fg's "
			 "9.0 %: inversion; durations: worst 1.93s, 5 over "
			 "101ms");

	/* rt-waiter: fg FIFO 50; a foreign FIFO 20 starving the owner for
	 * 1.2 s is an inversion from outside the scenario: counted, FAIL */
	km_traced(IL_KM_CONFIG_RT_WAITER, FX, 79, 1200 * MS);
	t_check_int(il_km_judge_run(&t_sc, &t_er, &t_env, &t_km, ck_km, &n,
				    &out, why, sizeof(why)),
		    0);
	t_check_int(out.check.verdict, IL_FAIL);
	t_check_int(out.check.worst_ns, 1230 * MS);
	t_check_contains(out.check.evidence,
			 "; 5 waits delayed by fx (pid 500, FIFO 20): 6.00s, "
			 "lower priority than fg (FIFO 50): inversion by a "
			 "task outside the scenario");
	/* the same task above fg: interference, PASS */
	km_traced(IL_KM_CONFIG_RT_WAITER, FX, 39, 1200 * MS);
	t_check_int(il_km_judge_run(&t_sc, &t_er, &t_env, &t_km, ck_km, &n,
				    &out, why, sizeof(why)),
		    0);
	t_check_int(out.check.verdict, IL_PASS);
	/* the owner's 29 ms on its CPU and fg's own 1.01 ms on fg's */
	t_check_int(out.check.worst_ns, 30 * MS + 10 * US);
	/* contention is judged on the calls as measured, the trace told */
	km_traced(IL_KM_CONFIG_CONTENTION, FX, 49, XNS);
	t_check_int(il_km_judge_run(&t_sc, &t_er, &t_env, &t_km, ck_km, &n,
				    &out, why, sizeof(why)),
		    0);
	t_check_int(out.check.worst_ns, 30 * MS + XNS);
	t_check_contains(out.check.evidence,
			 "(judged on the calls as "
			 "measured); 5 waits delayed by fx");
	il_trace_free(&ktr);
	il_scenario_free(&t_sc);
}

/*
 * The share cases decided on the trace (trace_share): each outcome and
 * each boundary: the window B_w, the cut sqrt(s_o * s_w), the count of
 * inverted waits, the covered waits a PASS needs, an uncovered wait over
 * the threshold, and a share ratio too small to decide on.
 */
static void test_km_trace_share(void)
{
	static struct il_wait_sample w[120];
	struct il_attr_summary a = { .traced = 120 };
	struct il_km_judge_input in = km_input(IL_KM_CONFIG_THROTTLED, 0);
	struct il_km_judged out;
	struct il_share_stats st;
	struct il_share_input si = {
		.w_waiter = il_km_weight_load(100),
		.w_owner = il_km_weight_load(10),
		.w_others = il_km_weight_load(1000),
		.quantum_ns = in.quantum_ns,
		.cs_ns = in.cost_ns,
	};
	uint64_t bw, win;
	double cut;

	il_km_share_stats(&si, NULL, &st);
	bw = st.b_waiter_ns;
	cut = sqrt(st.s_owner * st.s_waiter);
	/* one wait of 2 B_w, the owner's part put on either side of the
	 * cut: the first ns it holds at cut * win, not inverted */
	win = 2 * bw;
#define KW(k, own)                                                             \
	(w[k] = (struct il_wait_sample){ .delay_ns = win + MS,                 \
					 .foreign_ns = MS,                     \
					 .lower_ns = win - (own),              \
					 .traced = 1 })
	for (int k = 0; k < 120; k++)
		w[k] = (struct il_wait_sample){ .delay_ns = 50 * US,
						.traced = 1 };
	in.attr = &a;
	in.traced = w;
	in.ntraced = 120;
	/* short waits only: PASS on the trace */
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.verdict, IL_PASS);
	t_check_int(out.check.by_trace, 1);
	t_check_int(out.trace_share.covered, 120);
	t_check_int(out.trace_share.long_waits, 0);
	/* three long waits exactly at the cut (rounded up): PASS */
	for (int k = 0; k < 3; k++)
		KW(k, (uint64_t)ceil(cut * (double)win));
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.verdict, IL_PASS);
	t_check_int(out.trace_share.long_waits, 3);
	t_check_int(out.trace_share.inverted, 0);
	/* a ns under it: three inverted waits, FAIL, even though the
	 * durations (worst 2 B_w, under the threshold B_w * 3) pass */
	for (int k = 0; k < 3; k++)
		KW(k, (uint64_t)(cut * (double)win) - 1);
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.verdict, IL_FAIL);
	t_check_int(out.check.by_trace, 1);
	t_check_int(out.trace_share.inverted, 3);
	t_check_int(out.share.exceed, 0);
	t_check_contains(out.check.evidence, ": inversion; durations:");
	/* two: UNDECIDED, not PASS */
	KW(2, win);
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.verdict, IL_UNDECIDED);
	t_check_int(out.check.by_trace, 1);
	t_check_contains(out.check.evidence, "too few to call an inversion");
	/* a window a ns under B_w is no evidence either way: with the
	 * owner at 0 it is not inverted; one inverted wait left is
	 * UNDECIDED still, none PASS */
	win = bw - 1;
	KW(1, 0);
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.trace_share.long_waits, 2);
	t_check_int(out.trace_share.inverted, 1);
	t_check_int(out.check.verdict, IL_UNDECIDED);
	KW(0, 0);
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.trace_share.long_waits, 1);
	t_check_int(out.check.verdict, IL_PASS);
	/* at B_w it counts: three inverted, FAIL */
	win = bw;
	KW(0, 0);
	KW(1, 0);
	KW(2, 0);
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.trace_share.long_waits, 3);
	t_check_int(out.check.verdict, IL_FAIL);
	/* the PASS needs IL_KM_MIN_SAMPLES covered waits: 100 do, 99 leave
	 * it to the durations (which pass: by_trace 0) */
	for (int k = 0; k < 3; k++)
		w[k] = (struct il_wait_sample){ .delay_ns = 50 * US,
						.traced = 1 };
	for (int k = 100; k < 120; k++)
		w[k].traced = 0;
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.verdict, IL_PASS);
	t_check_int(out.check.by_trace, 1);
	t_check_int(out.trace_share.uncovered, 20);
	w[99].traced = 0;
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.by_trace, 0);
	t_check_int(out.trace_share.covered, 99);
	w[99].traced = 1;
	/* a wait the trace did not cover over the threshold: the trace
	 * does not vouch for it, the durations judge (UNDECIDED: one) */
	w[110].delay_ns = st.threshold_ns + 1;
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.by_trace, 0);
	t_check_int(out.trace_share.uncovered_over, 1);
	w[110].delay_ns = st.threshold_ns;
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.by_trace, 1);
	/* share ratio under 4 (2.3): the trace does not decide either */
	w[110].delay_ns = 50 * US;
	in.hog_weight = 20;
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.by_trace, 0);
	t_check_int(out.check.verdict, IL_UNDECIDED);
	/* cross-cpu is decided the same way */
	in = km_input(IL_KM_CONFIG_CROSS_CPU, 0);
	in.attr = &a;
	in.traced = w;
	in.ntraced = 120;
	win = 2 * bw;
	for (int k = 0; k < 3; k++)
		KW(k, 0);
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.verdict, IL_FAIL);
	t_check_int(out.check.by_trace, 1);
	/* without the trace: the durations, by_trace 0 */
	in.traced = NULL;
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.by_trace, 0);
#undef KW
}

/* il_km_judge on a trace's account given directly: each condition of
 * using it, and the count of calls over the limit on its boundary */
static void test_km_traced_input(void)
{
	static struct il_wait_sample w[100];
	struct il_attr_summary a = { .traced = 100 };
	struct il_km_judge_input in = km_input(IL_KM_CONFIG_RT_WAITER, 0);
	struct il_km_judged out;
	uint64_t lim = il_km_rt_waiter_bound(&km_fs, in.cost_ns, in.tick_ns) +
		       in.noise_ns;

	/* the calls' histogram has one call over the limit; the trace's
	 * account has one exactly at it and one over it only by foreign
	 * time */
	fill(&km_blocked, lim + MS, 1);
	for (int k = 0; k < 100; k++)
		w[k] = (struct il_wait_sample){ .delay_ns = 5 * US };
	w[0].delay_ns = lim;
	w[1] = (struct il_wait_sample){ .delay_ns = lim + MS,
					.foreign_ns = MS };
	in.attr = &a;
	in.traced = w;
	in.ntraced = 100;
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.verdict, IL_PASS);
	t_check_int(out.check.worst_ns, lim);
	t_check_contains(out.check.evidence,
			 "judged on the trace: 1 of 100 calls over");
	t_check_contains(out.check.evidence, "as measured, 0 with foreign");
	/* rt-waiter's owner is on another CPU: the donor count is said,
	 * and kept for the report */
	t_check_contains(out.check.evidence,
			 "fg (the donor) migrated to the owner's CPU and back "
			 "in 0 of 100 waits");
	t_check_int(out.traced_waits, 100);
	t_check_int(out.donor_migrated, 0);
	a.donor_migrated = 7;
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_contains(out.check.evidence, "and back in 7 of 100 waits");
	/* said before the foreign tasks, which may fill the evidence */
	a.nnamed = 1;
	a.named[0] = (struct il_attr_named){
		.pid = 9, .kprio = 120, .higher = 1, .ns = MS, .waits = 1
	};
	snprintf(a.named[0].comm, sizeof(a.named[0].comm), "fx");
	t_check_int(il_km_judge(&in, &out), 0);
	t_check(strstr(out.check.evidence, "and back in 7 of 100 waits") <
		strstr(out.check.evidence, "delayed by fx"));
	a.nnamed = 0;
	t_check_int(out.donor_migrated, 7);
	/* throttled: one CPU, nowhere to migrate: not said unless seen */
	in.config = IL_KM_CONFIG_THROTTLED;
	a.donor_migrated = 0;
	t_check_int(il_km_judge(&in, &out), 0);
	t_check(!strstr(out.check.evidence, "the donor"));
	a.donor_migrated = 2;
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_contains(out.check.evidence, "and back in 2 of 100 waits");
	in.config = IL_KM_CONFIG_CROSS_CPU;
	a.donor_migrated = 0;
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_contains(out.check.evidence, "and back in 0 of 100 waits");
	in.config = IL_KM_CONFIG_RT_WAITER;
	/* without traced calls, with none, or with an account that
	 * attributed nothing: the calls as measured */
	in.traced = NULL;
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.verdict, IL_FAIL);
	t_check_contains(out.check.evidence,
			 "trace not used (no trace): judged on the calls");
	in.traced = w;
	in.ntraced = 0;
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.verdict, IL_FAIL);
	in.ntraced = 100;
	a.traced = 0;
	snprintf(a.note, sizeof(a.note), "the trace lost 5 events");
	in.trace_note = "unused";
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.verdict, IL_FAIL);
	t_check_contains(out.check.evidence,
			 "trace not used (the trace lost 5 events)");
	/* no account at all: nothing said of a trace */
	in.attr = NULL;
	t_check_int(il_km_judge(&in, &out), 0);
	t_check_int(out.check.verdict, IL_FAIL);
	t_check(!strstr(out.check.evidence, "trace"));
}

/* il_km_model's task indices on their boundaries: fg or the contender
 * the first task past the engine result, the contender task 0 */
static void test_mut_km_model(void)
{
	struct il_km_judge_input in;
	struct il_fair_server fs;
	char why[256];

	/* t_km, the record, stays from this run */
	t_run_kmutex(IL_KM_CONFIG_CONTENTION, 10, 0, 0, 10);
	t_run_reset("[global]\nvalidate = none\n[resource K]\ntype = rename\n"
		    "[task bg]\nclass = other\nactivation = hog\n"
		    "body = call K\n"
		    "[task fg]\nclass = other\nactivation = hog\n"
		    "body = call K, sleep 1ms\n");
	t_run_waits(0, 0, 7, 5 * US, 0, 0);
	t_run_waits(1, 0, 10, 5 * US, 0, 0);
	t_check_int(il_km_model(&t_sc, &t_er, &t_env, &t_km, &fs, &in, why,
				sizeof(why)),
		    0);
	t_er.ntasks = 1; /* fg (task 1) past the result */
	t_check_int(il_km_model(&t_sc, &t_er, &t_env, &t_km, &fs, &in, why,
				sizeof(why)),
		    -EINVAL);
	t_er.ntasks = 2;
	t_er.tasks[0].nlocks = 0; /* the contender, task 0, never called */
	t_check_int(il_km_model(&t_sc, &t_er, &t_env, &t_km, &fs, &in, why,
				sizeof(why)),
		    -EINVAL);
	t_run_reset("[global]\nvalidate = none\n[resource K]\ntype = rename\n"
		    "[task fg]\nclass = other\nactivation = hog\n"
		    "body = call K, sleep 1ms\n"
		    "[task bg]\nclass = other\nactivation = hog\n"
		    "body = call K\n");
	t_run_waits(0, 0, 10, 5 * US, 0, 0);
	t_run_waits(1, 0, 7, 5 * US, 0, 0);
	t_er.ntasks = 1; /* the contender (task 1) past the result */
	t_check_int(il_km_model(&t_sc, &t_er, &t_env, &t_km, &fs, &in, why,
				sizeof(why)),
		    -EINVAL);
	il_scenario_free(&t_sc);
}

static void test_mut_kernel_version(void);
static void test_mut_fair_server(void);
static void test_mut_rt_waiter(void);
static void test_mut_share(void);

/* the model: each input from the job, the engine result and the record */
static void test_km_model(void)
{
	struct il_km_judge_input in;
	struct il_fair_server fs;
	struct il_km_judged out;
	struct il_judge_kmutex km;
	char why[256];
	int n = 1;

	t_run_kmutex(IL_KM_CONFIG_THROTTLED, 200, 10, 300 * MS, 50);
	t_env.tick_ns = 2 * MS;
	t_er.steal_ns = 7 * US;
	t_check_int(il_km_model(&t_sc, &t_er, &t_env, &t_km, &fs, &in, why,
				sizeof(why)),
		    0);
	t_check_int(in.config, IL_KM_CONFIG_THROTTLED);
	t_check_int(in.via, IL_KM_VIA_SYSCALL);
	t_check_int(in.recipe, IL_KM_RENAME);
	t_check_int(in.cost_ns, 8 * US);
	t_check_int(in.cost_p90_ns, 10 * US);
	t_check(in.blocked == &t_er.tasks[0].locks[0]->blocked);
	t_check_int(in.blocked->count, 200);
	t_check_int(in.contender_calls, 50);
	t_check_int(in.bg_weight, 10);
	t_check_int(in.hog_weight, 1000);
	t_check_int(in.quantum_ns, 3 * MS);
	t_check_int(in.tick_ns, 2 * MS);
	t_check_int(in.steal_ns, 7 * US);
	t_check_int(in.noise_ns, 0); /* rt-waiter only */
	t_check(in.fs == &fs && fs.bounded && fs.runtime_ns == 50 * MS);
	t_check(in.si == &t_km_si && in.donor_migration == IL_KM_DONOR_AUTO &&
		!in.hung);
	/* no weight in the job: a nice-0 task's */
	t_sc.tasks[1].k.cpu_weight = 0;
	t_check_int(il_km_model(&t_sc, &t_er, &t_env, &t_km, &fs, &in, why,
				sizeof(why)),
		    0);
	t_check_int(in.bg_weight, 100);
	/* another recipe, through io_uring */
	t_sc.res[0].k.type = IL_RES_SEQFILE;
	t_sc.res[0].k.via = IL_KM_VIA_URING;
	t_check_int(il_km_model(&t_sc, &t_er, &t_env, &t_km, &fs, &in, why,
				sizeof(why)),
		    0);
	t_check_int(in.recipe, IL_KM_SEQFILE);
	t_check_int(in.via, IL_KM_VIA_URING);

	/* rt-waiter: the owner contends, fg's calibration is the noise */
	t_run_kmutex(IL_KM_CONFIG_RT_WAITER, 200, 0, 0, 30);
	t_er.hung = 1;
	snprintf(t_er.hung_why, sizeof(t_er.hung_why), "fg: call");
	t_check_int(il_km_model(&t_sc, &t_er, &t_env, &t_km, &fs, &in, why,
				sizeof(why)),
		    0);
	t_check_int(in.contender_calls, 30);
	t_check_int(in.noise_ns, il_noise_ns(&t_calib));
	t_check(in.noise_ns > 0 && in.hung);
	t_check_str(in.hung_why, "fg: call");
	t_env.calib[0] = NULL;
	t_check_int(il_km_model(&t_sc, &t_er, &t_env, &t_km, &fs, &in, why,
				sizeof(why)),
		    -EINVAL);
	t_check_contains(why, "not calibrated");
	out.check.verdict = IL_PASS;
	t_check_int(il_km_judge_run(&t_sc, &t_er, &t_env, &t_km, ck_km, &n,
				    &out, why, sizeof(why)),
		    -EINVAL);
	t_check_int(n, 0);
	t_check_int(out.check.verdict, IL_NONE);
	t_check_contains(out.check.evidence, "no verdict: rt-waiter");

	/* what is no kmutex run */
	t_run_kmutex(IL_KM_CONFIG_CONTENTION, 10, 0, 0, 10);
	km = t_km;
	km.config = IL_KM_CONFIG_N;
	t_check_int(il_km_model(&t_sc, &t_er, &t_env, &km, &fs, &in, why,
				sizeof(why)),
		    -EINVAL);
	km.config = -1;
	t_check_int(il_km_model(&t_sc, &t_er, &t_env, &km, &fs, &in, why,
				sizeof(why)),
		    -EINVAL);
	km = t_km;
	km.si = NULL;
	t_check_int(il_km_model(&t_sc, &t_er, &t_env, &km, &fs, &in, why,
				sizeof(why)),
		    -EINVAL);
	t_check_int(il_km_model(&t_sc, &t_er, &t_env, NULL, &fs, &in, why,
				sizeof(why)),
		    -EINVAL);
	t_check_int(il_km_model(NULL, &t_er, &t_env, &t_km, &fs, &in, why,
				sizeof(why)),
		    -EINVAL);
	t_check_int(il_km_model(&t_sc, NULL, &t_env, &t_km, &fs, &in, why,
				sizeof(why)),
		    -EINVAL);
	t_check_int(il_km_model(&t_sc, &t_er, NULL, &t_km, &fs, &in, why,
				sizeof(why)),
		    -EINVAL);
	t_check_int(il_km_model(&t_sc, &t_er, &t_env, &t_km, NULL, &in, why,
				sizeof(why)),
		    -EINVAL);
	t_check_int(il_km_model(&t_sc, &t_er, &t_env, &t_km, &fs, NULL, why,
				sizeof(why)),
		    -EINVAL);
	/* no waiter named fg */
	snprintf(t_sc.tasks[0].name, sizeof(t_sc.tasks[0].name), "waiter");
	t_check_int(il_km_model(&t_sc, &t_er, &t_env, &t_km, &fs, &in, why,
				sizeof(why)),
		    -EINVAL);
	t_check_contains(why, "not a kmutex run");
	snprintf(t_sc.tasks[0].name, sizeof(t_sc.tasks[0].name), "fg");
	t_check_int(il_km_judge_run(&t_sc, &t_er, &t_env, &t_km, NULL, &n, &out,
				    why, sizeof(why)),
		    -EINVAL);
	t_check_int(il_km_judge_run(&t_sc, &t_er, &t_env, &t_km, ck_km, NULL,
				    &out, why, sizeof(why)),
		    -EINVAL);
	t_check_int(il_km_judge_run(&t_sc, &t_er, &t_env, &t_km, ck_km, &n,
				    NULL, why, sizeof(why)),
		    -EINVAL);
	t_sc.res[0].k.type = IL_RES_MUTEX;
	t_check_int(il_km_model(&t_sc, &t_er, &t_env, &t_km, &fs, &in, why,
				sizeof(why)),
		    -EINVAL);
	t_check_contains(why, "not a kmutex run");
	t_sc.res[0].k.type = IL_RES_RENAME;
	t_er.tasks[1].nlocks = 0; /* a contender that never called */
	t_check_int(il_km_model(&t_sc, &t_er, &t_env, &t_km, &fs, &in, why,
				sizeof(why)),
		    -EINVAL);
	t_er.tasks[1].nlocks = 1;
	t_er.ntasks = 0;
	t_check_int(il_km_model(&t_sc, &t_er, &t_env, &t_km, &fs, &in, why,
				sizeof(why)),
		    -EINVAL);
	t_er.ntasks = t_sc.ntasks;
	t_er.tasks[0].nlocks = 0;
	t_check_int(il_km_model(&t_sc, &t_er, &t_env, &t_km, &fs, &in, why,
				sizeof(why)),
		    -EINVAL);
	t_er.tasks[0].nlocks = 1;
	/* the contender as task 0 of the job: still counted, still
	 * weighted */
	t_run_reset("[global]\nvalidate = none\n[resource K]\ntype = rename\n"
		    "[task bg]\nclass = other\nactivation = hog\n"
		    "body = call K\ncgroup = kmutex-bg\ncpu_weight = 20\n"
		    "[task fg]\nclass = other\nactivation = hog\n"
		    "body = call K, sleep 1ms\n");
	t_run_waits(0, 0, 7, 5 * US, 0, 0);
	t_run_waits(1, 0, 10, 5 * US, 0, 0);
	t_check_int(il_km_model(&t_sc, &t_er, &t_env, &t_km, &fs, &in, why,
				sizeof(why)),
		    0);
	t_check_int(in.contender_calls, 7);
	t_check_int(in.bg_weight, 20);
	t_check_int(in.blocked->count, 10);
	t_run_kmutex(IL_KM_CONFIG_CONTENTION, 10, 0, 0, 10);
	/* judged: one check, the kmutex validator's, of fg */
	t_check_int(il_km_judge_run(&t_sc, &t_er, &t_env, &t_km, ck_km, &n,
				    &out, why, sizeof(why)),
		    0);
	t_check_int(n, 1);
	t_check_str(ck_km[0].validator, "kmutex");
	t_check_str(ck_km[0].task, "fg");
	t_check_int(ck_km[0].expected, IL_PASS);
	t_check_int(ck_km[0].c.verdict, out.check.verdict);
	/* through io_uring contention is measured, not judged */
	t_sc.res[0].k.via = IL_KM_VIA_URING;
	t_check_int(il_km_judge_run(&t_sc, &t_er, &t_env, &t_km, ck_km, &n,
				    &out, why, sizeof(why)),
		    0);
	t_check_int(n, 0);
	/* informational: nothing expected */
	t_run_kmutex(IL_KM_CONFIG_CROSS_CPU, 200, 0, 0, 50);
	t_sc.res[0].k.type = IL_RES_PIPE;
	t_check_int(il_km_judge_run(&t_sc, &t_er, &t_env, &t_km, ck_km, &n,
				    &out, why, sizeof(why)),
		    0);
	t_check_int(n, 1);
	t_check(out.informational);
	t_check_int(ck_km[0].expected, IL_NONE);
	il_scenario_free(&t_sc);
}

/*
 * The share check's steal: the worst call's, not the run's, when the run
 * has a timeline and the calls their times.  Throttled, 10 calls of
 * 300 ms against a threshold of about 101 ms: the run's 500 ms of steal
 * would forgive them; none around the worst call does not.
 */
static void test_km_worst_call_steal(void)
{
	static uint64_t st_t[40], st_v[40];
	struct il_km_judged out;
	char why[256];
	int n = 0;

	t_run_kmutex(IL_KM_CONFIG_THROTTLED, 200, 10, 300 * MS, 50);
	t_er.steal_ns = 500 * MS;
	t_check_int(il_km_judge_run(&t_sc, &t_er, &t_env, &t_km, ck_km, &n,
				    &out, why, sizeof(why)),
		    0);
	t_check_int(out.check.verdict, IL_UNDECIDED);
	t_check_contains(out.check.evidence, "host steal during the run");
	/* a timeline: the calls at 10 ms steps, steal only late in the run */
	for (int k = 0; k < 40; k++) {
		st_t[k] = t_er.t_start_ns + (uint64_t)k * 100 * MS;
		st_v[k] = k >= 30 ? 500 * MS : 0;
	}
	t_er.steal_t = st_t;
	t_er.steal_v = st_v;
	t_er.nsteal = 40;
	for (int k = 0; k < 200; k++)
		t_er.tasks[0].locks[0]->samples[k].t_ns =
			t_er.t_start_ns + (uint64_t)k * 10 * MS + MS;
	t_check_int(il_km_judge_run(&t_sc, &t_er, &t_env, &t_km, ck_km, &n,
				    &out, why, sizeof(why)),
		    0);
	t_check_int(out.check.verdict, IL_FAIL);
	t_check_contains(out.check.evidence, "host steal 0ns");
	/* steal while the worst call was pending: forgiven again */
	for (int k = 0; k < 40; k++)
		st_v[k] = k >= 1 ? 500 * MS : 0;
	t_check_int(il_km_judge_run(&t_sc, &t_er, &t_env, &t_km, ck_km, &n,
				    &out, why, sizeof(why)),
		    0);
	t_check_int(out.check.verdict, IL_UNDECIDED);
	/* calls without their times: the run's steal */
	for (int k = 0; k < 40; k++)
		st_v[k] = 0;
	for (int k = 0; k < 200; k++)
		t_er.tasks[0].locks[0]->samples[k].t_ns = 0;
	t_check_int(il_km_judge_run(&t_sc, &t_er, &t_env, &t_km, ck_km, &n,
				    &out, why, sizeof(why)),
		    0);
	t_check_int(out.check.verdict, IL_UNDECIDED);
	t_er.steal_t = t_er.steal_v = NULL;
	t_er.nsteal = 0;
}

int main(void)
{
	test_km_model();
	test_km_worst_call_steal();
	test_km_contention();
	test_km_share();
	test_km_rt_waiter();
	test_km_bad_input();
	test_km_trace();
	test_km_traced_input();
	test_km_trace_share();
	test_mut_km_model();
	test_params();
	test_recipes();
	test_cgroup_names();
	test_cgroup_mounts();
	test_fair_server();
	test_rt_waiter();
	test_share();
	test_donor_migration();
	test_expect();
	test_mut_kernel_version();
	test_mut_fair_server();
	test_mut_rt_waiter();
	test_mut_share();
	return t_done("kmutex");
}

/*
 * Boundary cases, each on both sides of one comparison of kmutex.c: a
 * check that moved a threshold by one (tests/mutate.py) gets one wrong.
 */

/* 0 and 1000 are the ends of the accepted range, on both numbers */
static void test_mut_kernel_version(void)
{
	int a = -1, b = -1;

	t_check_int(il_km_kernel_version("0.0", &a, &b), 0);
	t_check(a == 0 && b == 0);
	t_check_int(il_km_kernel_version("1000.1000", &a, &b), 0);
	t_check(a == 1000 && b == 1000);
	t_check_int(il_km_kernel_version("1001.0", &a, &b), -EINVAL);
	t_check_int(il_km_kernel_version("0.1001", &a, &b), -EINVAL);
	t_check_int(il_km_kernel_version("-1.5", &a, &b), -EINVAL);
	t_check_int(il_km_kernel_version("6.-1", &a, &b), -EINVAL);
	/* no major number, even when a dot follows */
	t_check_int(il_km_kernel_version(".5", &a, &b), -EINVAL);
	t_check(a == 1000 && b == 1000);
}

static void test_mut_fair_server(void)
{
	struct il_fair_server fs;
	struct il_sysinfo si;

	/* 6.11 is the last kernel without the fair server, 7.0 has it */
	si = sysinfo("6.11.9", 0, 950000, 25 * (int64_t)MS);
	il_km_fair_server_of(&si, &fs);
	t_check_contains(fs.source, "RT throttling");
	t_check_int(fs.runtime_ns, 50 * MS);
	si = sysinfo("7.0.0", 0, 950000, 25 * (int64_t)MS);
	il_km_fair_server_of(&si, &fs);
	t_check_contains(fs.source, "from debugfs");
	t_check_int(fs.runtime_ns, 25 * MS);
	/* before 6, a high minor number does not make it 6.12 */
	si = sysinfo("5.15.0", 0, 950000, 25 * (int64_t)MS);
	il_km_fair_server_of(&si, &fs);
	t_check_contains(fs.source, "RT throttling");
	/* an unreadable release is taken as a current kernel */
	si = sysinfo("", 0, 950000, -1);
	il_km_fair_server_of(&si, &fs);
	t_check(fs.bounded);
	t_check_contains(fs.source, "fair server, default");

	/* debugfs values count only when both are positive */
	si = sysinfo("6.18.0", 0, 950000, -1);
	si.fair_server_runtime_ns = 0;
	si.fair_server_period_ns = 500 * (int64_t)MS;
	il_km_fair_server_of(&si, &fs);
	t_check_int(fs.runtime_ns, 50 * MS);
	t_check_int(fs.period_ns, 1000 * MS);
	t_check_contains(fs.source, "debugfs not readable");
	si.fair_server_runtime_ns = 25 * (int64_t)MS;
	si.fair_server_period_ns = 0;
	il_km_fair_server_of(&si, &fs);
	t_check_int(fs.runtime_ns, 50 * MS);
	t_check_int(fs.period_ns, 1000 * MS);
	si.fair_server_period_ns = 1;
	il_km_fair_server_of(&si, &fs);
	t_check_int(fs.runtime_ns, 25 * MS);
	t_check_int(fs.period_ns, 1);

	/* RT throttling at 0 us leaves the whole period to CFS */
	si = sysinfo("6.6.0", 0, 0, -1);
	il_km_fair_server_of(&si, &fs);
	t_check(fs.bounded);
	t_check_int(fs.runtime_ns, 1000 * MS);
	t_check_int(fs.period_ns, 1000 * MS);
	/* at 100 % of the period it leaves nothing: unbounded */
	si = sysinfo("6.6.0", 0, 1000000, -1);
	il_km_fair_server_of(&si, &fs);
	t_check(!fs.bounded);
	si = sysinfo("6.6.0", 0, 999999, -1);
	il_km_fair_server_of(&si, &fs);
	t_check(fs.bounded);
	t_check_int(fs.runtime_ns, 1 * US);

	/* no bound from a server without a period, or without runtime */
	fs.runtime_ns = 50 * MS;
	fs.period_ns = 0;
	t_check_int(il_km_rt_waiter_bound(&fs, 20 * US, 4 * MS), 0);
	fs.runtime_ns = 0;
	fs.period_ns = 1000 * MS;
	t_check_int(il_km_rt_waiter_bound(&fs, 20 * US, 4 * MS), 0);
}

static void test_mut_rt_waiter(void)
{
	struct il_rt_waiter_input in = {
		.bound_ns = 1004 * MS,
		.noise_ns = 50 * US,
		.steal_ns = 5 * MS,
		.long_ns = 10 * MS,
		.min_samples = 100,
	};
	const uint64_t limit = in.bound_ns + in.noise_ns;
	/* a value that is the lower edge of its bucket */
	const uint64_t edge = il_hist_bucket_lo(il_hist_index(10 * MS));
	struct il_check c;
	struct il_hist h;

	il_hist_init(&h);
	t_check_int(il_km_check_rt_waiter(&in, NULL, &c), -EINVAL);
	t_check_int(il_km_check_rt_waiter(&in, &h, NULL), -EINVAL);

	/* over by exactly the steal: UNDECIDED; by one ns more: FAIL */
	il_hist_init(&h);
	fill(&h, 20 * US, 200);
	fill(&h, limit + in.steal_ns, 1);
	t_check_int(il_km_check_rt_waiter(&in, &h, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
	fill(&h, limit + in.steal_ns + 1, 1);
	t_check_int(il_km_check_rt_waiter(&in, &h, &c), 0);
	t_check_int(c.verdict, IL_FAIL);
	/* exactly at bound + noise is within */
	il_hist_init(&h);
	fill(&h, 20 * US, 200);
	fill(&h, limit, 1);
	t_check_int(il_km_check_rt_waiter(&in, &h, &c), 0);
	t_check_int(c.verdict, IL_PASS);

	/* min_samples calls are enough, one fewer is not */
	il_hist_init(&h);
	fill(&h, 20 * US, (int)in.min_samples);
	t_check_int(il_km_check_rt_waiter(&in, &h, &c), 0);
	t_check_int(c.verdict, IL_PASS);
	il_hist_init(&h);
	fill(&h, 20 * US, (int)in.min_samples - 1);
	t_check_int(il_km_check_rt_waiter(&in, &h, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);

	/* a bucket that starts at long_ns is not counted as over it */
	il_hist_init(&h);
	fill(&h, 20 * US, 200);
	fill(&h, edge, 3);
	in.long_ns = edge;
	t_check_int(il_km_check_rt_waiter(&in, &h, &c), 0);
	t_check_int(c.verdict, IL_PASS);
	t_check_contains(c.evidence, "203 calls, 0 starved");
	in.long_ns = edge - 1;
	t_check_int(il_km_check_rt_waiter(&in, &h, &c), 0);
	t_check_contains(c.evidence, "203 calls, 3 starved");
}

static void test_mut_share(void)
{
	/* waiter 8, owner 1, others 7: s_w = 1/2, s_o = 1/8, rho = 4 */
	struct il_share_input in = {
		.w_waiter = 8,
		.w_owner = 1,
		.w_others = 7,
		.quantum_ns = 4 * MS,
		.cs_ns = 0,
		.noise_ns = 2 * MS,
		.min_samples = 100,
		.min_exceed = 3,
	};
	struct il_share_input w;
	struct il_share_stats st;
	struct il_check c;
	struct il_hist h;

	il_hist_init(&h);
	t_check_int(il_km_check_share(NULL, &h, &c), -EINVAL);
	t_check_int(il_km_check_share(&in, &h, NULL), -EINVAL);

	/* rho exactly RHO_MIN (4) is far enough apart; just below is not */
	il_hist_init(&h);
	fill(&h, 1 * MS, 200);
	il_km_share_stats(&in, &h, &st);
	t_check(st.rho == 4.0);
	t_check_int(st.b_waiter_ns, 8 * MS);
	t_check_int(st.b_owner_ns, 32 * MS);
	t_check_int(st.threshold_ns, 16 * MS);
	t_check_int(il_km_check_share(&in, &h, &c), 0);
	t_check_int(c.verdict, IL_PASS);
	w = in;
	w.w_waiter = 7.99;
	t_check_int(il_km_check_share(&w, &h, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
	t_check_contains(c.evidence, "too close to tell apart");

	/* min_samples waits are enough to PASS, one fewer is not */
	il_hist_init(&h);
	fill(&h, 1 * MS, (int)in.min_samples);
	t_check_int(il_km_check_share(&in, &h, &c), 0);
	t_check_int(c.verdict, IL_PASS);
	il_hist_init(&h);
	fill(&h, 1 * MS, (int)in.min_samples - 1);
	t_check_int(il_km_check_share(&in, &h, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);

	/* exactly min_exceed waits over the threshold, by exactly the
	 * noise: UNDECIDED; by one ns more: FAIL; one wait fewer: UNDECIDED */
	il_hist_init(&h);
	fill(&h, 1 * MS, 200);
	fill(&h, 16 * MS + in.noise_ns, (int)in.min_exceed);
	t_check_int(il_km_check_share(&in, &h, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
	t_check_contains(c.evidence, "host steal");
	fill(&h, 16 * MS + in.noise_ns + 1, 1);
	t_check_int(il_km_check_share(&in, &h, &c), 0);
	t_check_int(c.verdict, IL_FAIL);
	il_hist_init(&h);
	fill(&h, 1 * MS, 200);
	fill(&h, 16 * MS + in.noise_ns + 1, (int)in.min_exceed - 1);
	t_check_int(il_km_check_share(&in, &h, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
	t_check_contains(c.evidence, "too few");
	fill(&h, 16 * MS + in.noise_ns + 1, 1);
	t_check_int(il_km_check_share(&in, &h, &c), 0);
	t_check_int(c.verdict, IL_FAIL);

	/* no owner weight, no waiter weight, weights summing to zero: no
	 * share bound, and nothing computed */
	w = in;
	w.w_owner = 0;
	t_check_int(il_km_check_share(&w, &h, &c), 0);
	t_check_int(c.verdict, IL_UNDECIDED);
	t_check_contains(c.evidence, "no weights");
	il_km_share_stats(&w, &h, &st);
	t_check(st.rho == 0 && st.s_owner == 0 && st.s_waiter == 0);
	t_check_int(st.threshold_ns, 0);
	w = in;
	w.w_waiter = 0;
	il_km_share_stats(&w, &h, &st);
	t_check(st.rho == 0 && st.s_owner == 0 && st.s_waiter == 0);
	t_check_int(st.threshold_ns, 0);
	w = in;
	w.w_others = -9;
	il_km_share_stats(&w, &h, &st);
	t_check(st.rho == 0 && st.s_owner == 0 && st.s_waiter == 0);

	/* no histogram: the bounds, but nothing counted */
	il_km_share_stats(&in, NULL, &st);
	t_check_int(st.threshold_ns, 16 * MS);
	t_check_int(st.exceed, 0);
	t_check(st.factor == 0);
	/* a zero quantum gives a zero bound, and no factor of it */
	w = in;
	w.quantum_ns = 0;
	il_km_share_stats(&w, &h, &st);
	t_check_int(st.b_waiter_ns, 0);
	t_check(st.factor == 0);
}
