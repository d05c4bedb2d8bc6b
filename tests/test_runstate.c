// SPDX-License-Identifier: MIT
/*
 * Unit tests for lib/sys/runstate.c and lib/sys/runlock.c, the parts that need
 * no root: the state-file parser and writer (round trip, every malformed line
 * refused with its number, records that would reach outside what a run makes),
 * /proc/PID/stat with a hostile comm, the names of leftovers, whether an owner
 * is alive (a reused PID is not), the removal of a temporary tree that must not
 * follow a symbolic link, the tracefs instances of dead runs reaped (and only
 * theirs), and the lock file's holder line.
 *
 * Run: meson test -C build runstate   (or build/tests/test-runstate)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <invlab/runlock.h>
#include <invlab/runstate.h>

#include "t_util.h"

static const char good[] =
	"invlab-state 1\n"
	"pid 4242\n"
	"start 1234567\n"
	"prog dl-mbwi\n"
	"cgroup /sys/fs/cgroup/cpuset/invlab-4242\n"
	"cgroup /sys/fs/cgroup/cpuset/invlab-4242/cpu0\n"
	"balance /sys/fs/cgroup/cpuset 1\n"
	"subtree /sys/fs/cgroup/user.slice -cpu\n"
	"tmpdir /tmp/my dir/invlab-kmutex-4242-Ab12Cd\n"
	"file /tmp/x.json.tmp.Ef34Gh\n"
	"partition /sys/fs/cgroup/invlab-4242/cpu1 member\n"
	"mount /sys/kernel/tracing\n"
	"tracefs /sys/kernel/tracing/instances/invlab-4242\n";

static void test_parse(void)
{
	struct il_runstate st, st2;
	char err[600], buf[8192];
	int n;

	t_check_int(__il_runstate_parse(good, &st, err, sizeof(err)), 0);
	t_check_int(st.pid, 4242);
	t_check_int(st.start, 1234567);
	t_check_str(st.prog, "dl-mbwi");
	t_check_int(st.n, 9);
	t_check_int(st.rec[0].kind, IL_RS_CGROUP);
	t_check_str(st.rec[1].path, "/sys/fs/cgroup/cpuset/invlab-4242/cpu0");
	t_check_int(st.rec[2].kind, IL_RS_BALANCE);
	t_check_str(st.rec[2].path, "/sys/fs/cgroup/cpuset");
	t_check_str(st.rec[2].value, "1");
	t_check_str(st.rec[3].value, "-cpu");
	/* a blank in a path is kept (tmpdir takes the rest of the line) */
	t_check_str(st.rec[4].path, "/tmp/my dir/invlab-kmutex-4242-Ab12Cd");
	t_check_int(st.rec[5].kind, IL_RS_FILE);
	t_check_int(st.rec[6].kind, IL_RS_PARTITION);
	t_check_str(st.rec[6].path, "/sys/fs/cgroup/invlab-4242/cpu1");
	t_check_str(st.rec[6].value, "member");
	t_check_int(st.rec[7].kind, IL_RS_MOUNT);
	t_check_int(st.rec[8].kind, IL_RS_TRACEFS);
	t_check_str(st.rec[8].path,
		    "/sys/kernel/tracing/instances/invlab-4242");

	/* what is written is what is read back */
	n = __il_runstate_format(&st, buf, sizeof(buf));
	t_check(n > 0);
	t_check_str(buf, good);
	t_check_int(__il_runstate_parse(buf, &st2, err, sizeof(err)), 0);
	t_check_int(st2.n, st.n);
	t_check_int(__il_runstate_format(&st, buf, 40), -ENOSPC);
}

static void bad(const char *text, const char *says)
{
	struct il_runstate st;
	char err[600] = "";

	t_check_int(__il_runstate_parse(text, &st, err, sizeof(err)), -EINVAL);
	t_check_contains(err, says);
}

#define HEAD "invlab-state 1\npid 4242\nstart 9\n"

static void test_parse_bad(void)
{
	bad("", "empty");
	bad("invlab-state 2\npid 1\nstart 1\n", "line 1: not an invlab state");
	bad("something else\n", "line 1");
	bad("invlab-state 1\nstart 9\n", "no pid");
	bad("invlab-state 1\npid 4242\n", "no start");
	bad("invlab-state 1\npid x\nstart 9\n", "line 2: bad pid");
	bad("invlab-state 1\npid 0\nstart 9\n", "line 2: bad pid");
	bad("invlab-state 1\npid 4242\nstart -\n", "line 3: bad start");
	bad("invlab-state 1\ncgroup /sys/fs/cgroup/cpu/invlab-4242\npid 4242\n",
	    "line 2: a record before the pid");
	bad(HEAD "rmrf /\n", "line 4: unknown key 'rmrf'");
	bad(HEAD "cgroup\n", "line 4: 'cgroup' without a value");
	/* records that would undo something this run did not make */
	bad(HEAD "cgroup /sys/fs/cgroup/cpu/invlab-4243\n", "line 4");
	bad(HEAD "cgroup /sys/fs/cgroup/cpu/invlab-42420\n",
	    "not an invlab-4242");
	bad(HEAD "cgroup /etc/invlab-4242\n", "not an invlab-4242");
	bad(HEAD "cgroup /sys/fs/cgroup/cpu/../../../etc/invlab-4242\n",
	    "not a plain absolute path");
	bad(HEAD "cgroup sys/fs/cgroup/cpu/invlab-4242\n",
	    "not a plain absolute path");
	bad(HEAD "balance /sys/fs/cgroup/cpuset 7\n", "0 or 1");
	bad(HEAD "balance /proc/sys/kernel 1\n", "under /sys/fs/cgroup");
	bad(HEAD "subtree /sys/fs/cgroup +memory\n", "-cpu or -cpuset");
	bad(HEAD "tmpdir /home/user\n", "not named invlab-kmutex-4242");
	bad(HEAD "tmpdir /tmp/invlab-kmutex-4243-abc\n", "invlab-kmutex-4242");
	bad(HEAD "file /etc/passwd\n", "not a .tmp. file");
	/* a partition record only ever gives a partition back */
	bad(HEAD "partition /sys/fs/cgroup/invlab-4242 root\n",
	    "only member undoes");
	bad(HEAD "partition /sys/fs/cgroup/invlab-4243 member\n",
	    "not an invlab-4242");
	bad(HEAD "partition /sys/fs/cgroup member\n", "not an invlab-4242");
	bad(HEAD "tracefs /sys/kernel/tracing/instances/invlab-4243\n",
	    "not the instance invlab-4242");
	bad(HEAD "tracefs /sys/kernel/tracing/invlab-4242\n",
	    "not an instance under");
	bad(HEAD "tracefs /sys/fs/cgroup/instances/invlab-4242\n",
	    "not an instance under");
	bad(HEAD "mount /sys\n", "neither /run/invlab/tracefs-4242");
	bad(HEAD "mount /run/invlab/tracefs-4243\n", "neither");
	bad(HEAD "tracefs /run/invlab/tracefs-4243/instances/invlab-4242\n",
	    "not an instance under");
	bad(HEAD "tracefs /run/invlab/tracefs-4242/instances/invlab-4243\n",
	    "not the instance invlab-4242");
	{
		char big[IL_RS_MAX * 64 + 256];
		size_t off = (size_t)snprintf(big, sizeof(big), HEAD);

		for (int i = 0; i <= IL_RS_MAX; i++)
			off += (size_t)snprintf(big + off, sizeof(big) - off,
						"file /tmp/a.tmp.%d\n", i);
		bad(big, "more than");
	}
}

static void test_names(void)
{
	t_check_int(__il_runstate_name_pid("invlab-4242", false), 4242);
	t_check_int(__il_runstate_name_pid("invlab-4242x", false), -1);
	t_check_int(__il_runstate_name_pid("invlab-", false), -1);
	t_check_int(__il_runstate_name_pid("invlab-0", false), -1);
	t_check_int(__il_runstate_name_pid("invlab-test.ab12", false), -1);
	t_check_int(__il_runstate_name_pid("invlab-kmutex-4242-Ab12Cd", true),
		    4242);
	t_check_int(__il_runstate_name_pid("invlab-kmutex-4242", true), -1);
	t_check_int(__il_runstate_name_pid("invlab-kmutex-4242-x", false), -1);
	t_check_int(__il_runstate_name_pid("invlab-99999999999", false), -1);
}

static void test_proc_stat(void)
{
	char comm[64];
	unsigned long long start = 0;
	/* fields 3..21 are 19 numbers; start time is field 22 */
	const char *plain = "123 (dl-mbwi) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 "
			    "15 16 17 18 777 19 20\n";
	const char *hostile = "123 (a) b (c) S 1 2 3 4 5 6 7 8 9 10 11 12 13 "
			      "14 15 16 17 18 888 19\n";

	t_check_int(__il_proc_stat_parse(plain, comm, sizeof(comm), &start), 0);
	t_check_str(comm, "dl-mbwi");
	t_check_int(start, 777);
	/* a comm with ") S" inside: the last ')' ends it */
	t_check_int(__il_proc_stat_parse(hostile, comm, sizeof(comm), &start),
		    0);
	t_check_str(comm, "a) b (c");
	t_check_int(start, 888);
	t_check_int(__il_proc_stat_parse("123 (x) S 1 2\n", comm, sizeof(comm),
					 &start),
		    -EINVAL);
	t_check_int(__il_proc_stat_parse("garbage", comm, sizeof(comm), &start),
		    -EINVAL);
}

static void test_alive(void)
{
	unsigned long long start = 0, seen = 0;
	int fds[2];
	pid_t kid;

	t_check_int(__il_proc_start(getpid(), NULL, 0, &start), 0);
	t_check(il_runstate_owner_alive(getpid(), start, 0));
	/* the start time this process records for itself is the one every
	 * other process reads for it (under qemu-user, its own stat is made
	 * up and was a tick off) */
	t_check_int(pipe(fds), 0);
	kid = fork();
	if (kid == 0) {
		unsigned long long s = 0;

		__il_proc_start(getppid(), NULL, 0, &s);
		_exit(write(fds[1], &s, sizeof(s)) == sizeof(s) ? 0 : 1);
	}
	t_check(kid > 0);
	close(fds[1]);
	t_check_int(read(fds[0], &seen, sizeof(seen)), (int)sizeof(seen));
	close(fds[0]);
	if (kid > 0)
		waitpid(kid, NULL, 0);
	t_check_int(seen, start);
	/* the same PID with another start time: reused, the owner is dead */
	t_check(!il_runstate_owner_alive(getpid(), start + 1, 0));
	/* without a start time: alive unless it began after the thing */
	t_check(il_runstate_owner_alive(getpid(), 0, 0));
	t_check(!il_runstate_owner_alive(getpid(), 0, 1000));
	t_check(!il_runstate_owner_alive(0, 0, 0));
	t_check(!il_runstate_owner_alive(0x3ffffff0, 0, 0));
}

static int exists(const char *p)
{
	struct stat st;

	return lstat(p, &st) == 0;
}

static void test_rmtree(void)
{
	char dir[] = "/tmp/test-runstate-XXXXXX", p[256], v[256];
	int dfd;

	if (!mkdtemp(dir)) {
		t_check(0);
		return;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	/* a victim directory, and a tree whose entry links to it */
	snprintf(v, sizeof(v), "%s/victim", dir);
	t_check_int(mkdir(v, 0700), 0);
	snprintf(p, sizeof(p), "%s/victim/keep", dir);
	fclose(fopen(p, "w"));
	snprintf(p, sizeof(p), "%s/t", dir);
	t_check_int(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/t/a", dir);
	t_check_int(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/t/a/u0", dir);
	fclose(fopen(p, "w"));
	snprintf(p, sizeof(p), "%s/t/link", dir);
	t_check_int(symlink(v, p), 0);

	t_check_int(__il_rmtree_at(dfd, "t", 1), 0);
	snprintf(p, sizeof(p), "%s/t", dir);
	t_check(!exists(p));
	snprintf(p, sizeof(p), "%s/victim/keep", dir);
	t_check(exists(p));

	/* the tree itself swapped for a link: only the link goes */
	snprintf(p, sizeof(p), "%s/t", dir);
	t_check_int(symlink(v, p), 0);
	t_check_int(__il_rmtree_at(dfd, "t", 1), 0);
	t_check(!exists(p));
	snprintf(p, sizeof(p), "%s/victim/keep", dir);
	t_check(exists(p));
	t_check_int(__il_rmtree_at(dfd, "absent", 1), 0);

	t_check_int(__il_rmtree_at(dfd, "victim", 1), 0);
	close(dfd);
	t_check_int(rmdir(dir), 0);
}

/* the run's own tracefs mount and its instance there are records */
static void test_own_mount(void)
{
	struct il_rs_rec r = { .kind = IL_RS_MOUNT };
	char err[600];

	snprintf(r.path, sizeof(r.path), "/run/invlab/tracefs-4242");
	t_check_int(__il_runstate_rec_ok(&r, 4242, err, sizeof(err)), 0);
	t_check_int(__il_runstate_rec_ok(&r, 4243, err, sizeof(err)), -EINVAL);
	snprintf(r.path, sizeof(r.path), "/sys/kernel/tracing");
	t_check_int(__il_runstate_rec_ok(&r, 4242, err, sizeof(err)), 0);
	r.kind = IL_RS_TRACEFS;
	snprintf(r.path, sizeof(r.path),
		 "/run/invlab/tracefs-4242/instances/invlab-4242");
	t_check_int(__il_runstate_rec_ok(&r, 4242, err, sizeof(err)), 0);
	snprintf(r.path, sizeof(r.path),
		 "/run/invlab/tracefs-4242/x/instances/invlab-4242");
	t_check_int(__il_runstate_rec_ok(&r, 4242, err, sizeof(err)), -EINVAL);
}

/* instances of dead PIDs go; a live one's, this process's and another
 * name stay (plain directories stand in for tracefs here) */
static void test_reap_instances(void)
{
	char dir[] = "/tmp/test-runstate-XXXXXX", p[300];
	int dead, st;
	pid_t child;

	if (!mkdtemp(dir)) {
		t_check(0);
		return;
	}
	child = fork();
	if (child == 0)
		_exit(0);
	waitpid(child, &st, 0);
	dead = (int)child;
	snprintf(p, sizeof(p), "%s/instances", dir);
	t_check_int(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/instances/invlab-%d", dir, dead);
	t_check_int(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/instances/invlab-%d", dir, (int)getppid());
	t_check_int(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/instances/invlab-%d", dir, (int)getpid());
	t_check_int(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/instances/other-%d", dir, dead);
	t_check_int(mkdir(p, 0700), 0);

	t_check_int(__il_trace_reap_instances(dir), 1);
	snprintf(p, sizeof(p), "%s/instances/invlab-%d", dir, dead);
	t_check(!exists(p));
	snprintf(p, sizeof(p), "%s/instances/invlab-%d", dir, (int)getppid());
	t_check(exists(p));
	t_check_int(rmdir(p), 0);
	snprintf(p, sizeof(p), "%s/instances/invlab-%d", dir, (int)getpid());
	t_check(exists(p));
	t_check_int(rmdir(p), 0);
	snprintf(p, sizeof(p), "%s/instances/other-%d", dir, dead);
	t_check(exists(p));
	t_check_int(rmdir(p), 0);
	snprintf(p, sizeof(p), "%s/instances", dir);
	t_check_int(rmdir(p), 0);
	t_check_int(rmdir(dir), 0);
}

static void test_holder(void)
{
	char prog[64];
	int pid = 0;

	t_check_int(__il_runlock_parse_holder("4242 dl-mbwi\n", &pid, prog,
					      sizeof(prog)),
		    0);
	t_check_int(pid, 4242);
	t_check_str(prog, "dl-mbwi");
	t_check_int(__il_runlock_parse_holder("", &pid, prog, sizeof(prog)),
		    -EINVAL);
	t_check_int(
		__il_runlock_parse_holder("4242\n", &pid, prog, sizeof(prog)),
		-EINVAL);
	t_check_int(
		__il_runlock_parse_holder("-1 x\n", &pid, prog, sizeof(prog)),
		-EINVAL);
	t_check_int(
		__il_runlock_parse_holder("12 \n", &pid, prog, sizeof(prog)),
		-EINVAL);
}

int main(void)
{
	test_parse();
	test_parse_bad();
	test_names();
	test_proc_stat();
	test_alive();
	test_rmtree();
	test_own_mount();
	test_reap_instances();
	test_holder();
	return t_done("test-runstate");
}
