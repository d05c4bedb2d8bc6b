// SPDX-License-Identifier: MIT
/*
 * Control groups a run creates for its tasks (cgroup.h): found through
 * /proc/self/mountinfo and /proc/self/cgroup, never assumed, on cgroup v1,
 * v2 and the v1/v2 hybrid; all under one parent "invlab-<pid>" beside the
 * process's own group; every one registered, so that il_cgroup_cleanup_all
 * can take them all down after an error or a signal.
 *
 * v1: a group is a directory of the controller's hierarchy; threads join
 * it through its `tasks` file; a new cpuset group gets its parent's CPUs
 * and memory nodes (v1 leaves them empty, and an empty cpuset refuses
 * tasks).  A new cpu group has cpu.rt_runtime_us 0 under
 * CONFIG_RT_GROUP_SCHED, which is fine for the fair-class tasks put there.
 *
 * v2: single threads can only move within a threaded subtree, so
 * invlab-<pid> and its groups are made "threaded" (the process's own group
 * becomes the threaded domain), and the controller is enabled in the
 * subtree_control of the own group (where it is available and not yet
 * enabled; turned off again at cleanup) and of invlab-<pid>.  Threads join
 * through `cgroup.threads`.
 *
 * Removal moves whatever threads are still in a group back to the own
 * group, then removes the directory, retrying for a while: an io-wq
 * worker of an exiting thread may take a moment to go.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <dirent.h>

#include <invlab/cgroup.h>
#include <invlab/cpu.h>
#include <invlab/runstate.h>

#include "cgroup-private.h"

#define NAME_MAX_LEN 48
#define MAX_GROUPS   32
#define RMDIR_TRIES  40 /* x 50 ms */

/* one parent per controller: where it is and what was changed there */
struct parent {
	bool created;
	int version;
	char own[512];	  /* the process's own group directory */
	char path[512];	  /* own/invlab-<pid> */
	bool enabled_own; /* we wrote +ctrl into own's subtree_control */
	char mnt[512];	  /* the hierarchy's mount point */
	bool exclusive;	  /* v1 cpuset: path made cpu_exclusive, no balancing */
};

/*
 * v1 cpuset partitions: the groups from the own group up to the mount
 * whose cpuset.sched_load_balance this process turned off (the kernel
 * builds one root domain per top-most balanced cpuset, so every one above
 * the partitions must be off), to be turned on again, last first.
 */
#define MAX_LB_OFF 16
static char lb_off[MAX_LB_OFF][512];
static int nlb_off;

static struct parent parents[2];

static int remove_parent(enum il_cg_ctrl ctrl);
/* copies of the groups created and not yet removed: the callers' own
 * structs may be gone by the time cleanup runs */
static struct il_cgroup groups[MAX_GROUPS];

int il_cgroup_name_ok(const char *name, char *err, size_t len)
{
	size_t n;

	if (!name || !*name) {
		snprintf(err, len, "a cgroup name cannot be empty");
		return -EINVAL;
	}
	if (!strcmp(name, ".") || !strcmp(name, "..")) {
		snprintf(err, len, "'%s' is not a cgroup name", name);
		return -EINVAL;
	}
	n = strlen(name);
	if (n > NAME_MAX_LEN) {
		snprintf(err, len,
			 "cgroup name '%.20s...' is longer than %d "
			 "characters",
			 name, NAME_MAX_LEN);
		return -EINVAL;
	}
	/* ASCII ranges, not isalnum(): the locale must not matter, and
	 * '/', '.', blanks and control characters never reach a path */
	for (const char *s = name; *s; s++) {
		char c = *s;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-')) {
			if ((unsigned char)c < 0x20 || c == 0x7f)
				snprintf(err, len,
					 "cgroup name contains a control "
					 "character; use A-Z a-z 0-9 _ -");
			else
				snprintf(err, len,
					 "cgroup name '%s' contains '%c'; use "
					 "1 to %d of A-Z a-z 0-9 _ -",
					 name, c, NAME_MAX_LEN);
			return -EINVAL;
		}
	}
	return 0;
}

int __il_cgroup_path(char *out, size_t len, const char *own_dir, pid_t pid,
		     const char *name, char *err, size_t errlen)
{
	int n, ret;

	if (name) {
		ret = il_cgroup_name_ok(name, err, errlen);
		if (ret)
			return ret;
		n = snprintf(out, len, "%s/invlab-%d/%s", own_dir, (int)pid,
			     name);
	} else {
		n = snprintf(out, len, "%s/invlab-%d", own_dir, (int)pid);
	}
	if (n < 0 || (size_t)n >= len) {
		snprintf(err, errlen, "cgroup path too long under %s", own_dir);
		return -ENAMETOOLONG;
	}
	return 0;
}

unsigned long __il_cgroup_shares(unsigned weight)
{
	unsigned long s = (unsigned long)weight * 1024 / 100;

	/* the kernel's minimum for cpu.shares */
	return s < 2 ? 2 : s;
}

/* ---- the parent --------------------------------------------------------- */

static int errf(char *err, size_t len, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int errf(char *err, size_t len, int ret, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	n = strlen(err);
	if (ret < 0 && n + 1 < len)
		snprintf(err + n, len - n, ": %s%s", strerror(-ret),
			 ret == -EACCES || ret == -EPERM
				 ? " (needs CAP_SYS_ADMIN, i.e. root, or a "
				   "cgroup delegated to this user)"
				 : "");
	return ret;
}

/*
 * Write a change down before making it (runstate.h).  Only root can write
 * /run/invlab; a user with a delegated cgroup goes on unrecorded (its
 * leftovers are still found by their invlab-<pid> names).
 */
static int record(enum il_rs_kind kind, const char *path, const char *value)
{
	int ret = il_runstate_record(kind, path, value);

	return ret && geteuid() != 0 ? 0 : ret;
}

/* copy cpuset.cpus (unless cpus says which) and cpuset.mems from one v1
 * group to another */
static int cpuset_inherit(const char *from, const char *to, const char *cpus)
{
	static const char *const files[] = { "cpuset.cpus", "cpuset.mems" };
	char v[4096];
	int ret;

	for (int i = 0; i < 2; i++) {
		if (!i && cpus) {
			snprintf(v, sizeof(v), "%s", cpus);
			ret = 0;
		} else {
			ret = __il_cgroup_read(from, files[i], v, sizeof(v));
		}
		if (!ret)
			ret = __il_cgroup_write(to, files[i], v[0] ? v : "\n");
		if (ret)
			return ret;
	}
	return 0;
}

static int make_parent(enum il_cg_ctrl ctrl, char *err, size_t len)
{
	struct parent *pa = &parents[ctrl];
	char mnt[512], root[512], own[512], ctl[512], plus[16];
	const char *name = __il_cgroup_ctrl_name(ctrl);
	char *mi, *pc;
	int ret;

	if (pa->created)
		return 0;
	ret = il_cgroup_mount(ctrl, mnt, sizeof(mnt), &pa->version, err, len);
	if (ret)
		return ret;
	mi = __il_cgroup_read_all("/proc/self/mountinfo");
	ret = mi ? __il_cgroup_find_mount(mi, ctrl, mnt, sizeof(mnt), root,
					  sizeof(root), &pa->version)
		 : -ENOENT;
	free(mi);
	pc = __il_cgroup_read_all("/proc/self/cgroup");
	if (!ret)
		ret = pc ? __il_cgroup_own(pc, ctrl, pa->version, own,
					   sizeof(own))
			 : -ENOENT;
	free(pc);
	if (ret)
		return errf(err, len, -ENOENT,
			    "cannot find this process's %s group in "
			    "/proc/self/cgroup",
			    name);
	ret = __il_cgroup_own_dir(pa->own, sizeof(pa->own), mnt, root, own);
	snprintf(pa->mnt, sizeof(pa->mnt), "%s", mnt);
	if (!ret)
		ret = __il_cgroup_path(pa->path, sizeof(pa->path), pa->own,
				       getpid(), NULL, err, len);
	if (ret)
		return errf(err, len, ret, "%s group path of this process",
			    name);
	/* written down first: a run killed from here on is undone by the
	 * next one (runstate.h) */
	ret = record(IL_RS_CGROUP, pa->path, NULL);
	if (ret)
		return errf(err, len, ret,
			    "cannot record %s in " IL_RUNSTATE_DIR
			    " before creating it",
			    pa->path);
	if (mkdir(pa->path, 0755) && errno != EEXIST) {
		ret = -errno;
		il_runstate_forget(IL_RS_CGROUP, pa->path);
		return errf(err, len, ret, "cannot create %s", pa->path);
	}
	/* registered before anything else can fail: cleanup removes it */
	pa->created = true;
	if (pa->version == 1) {
		if (ctrl == IL_CG_CPUSET &&
		    (ret = cpuset_inherit(pa->own, pa->path, NULL))) {
			char who[200];

			if (ret == -EINVAL &&
			    il_runstate_live_owners(who, sizeof(who)) > 0)
				return errf(err, len, -EBUSY,
					    "%s: cpuset.cpus refused: another "
					    "cpuset holds these CPUs "
					    "exclusively, held by %s",
					    pa->path, who);
			return errf(err, len, ret, "%s: cpuset.cpus/mems%s",
				    pa->path,
				    ret == -EINVAL
					    ? " refused: another cpuset holds "
					      "these CPUs exclusively"
					    : "");
		}
		return 0;
	}
	/* v2: a threaded subtree, the controller enabled down to it */
	ret = __il_cgroup_write(pa->path, "cgroup.type", "threaded");
	if (ret)
		return errf(err, len, ret, "%s: cgroup.type = threaded",
			    pa->path);
	snprintf(plus, sizeof(plus), "+%s", name);
	if (!__il_cgroup_read(pa->own, "cgroup.subtree_control", ctl,
			      sizeof(ctl)) &&
	    !__il_cgroup_has_word(ctl, name)) {
		char minus[16];

		snprintf(minus, sizeof(minus), "-%s", name);
		ret = record(IL_RS_SUBTREE, pa->own, minus);
		if (!ret)
			ret = __il_cgroup_write(pa->own,
						"cgroup.subtree_control", plus);
		if (ret)
			return errf(err, len, ret,
				    "cannot enable %s in %s/cgroup.subtree_"
				    "control",
				    name, pa->own);
		pa->enabled_own = true;
	}
	ret = __il_cgroup_write(pa->path, "cgroup.subtree_control", plus);
	if (ret)
		return errf(err, len, ret,
			    "cannot enable %s in %s/cgroup.subtree_control",
			    name, pa->path);
	return 0;
}

/* ---- groups ------------------------------------------------------------- */

static void registry_add(const struct il_cgroup *cg)
{
	for (int i = 0; i < MAX_GROUPS; i++)
		if (!groups[i].created) {
			groups[i] = *cg;
			return;
		}
}

static void registry_drop(const struct il_cgroup *cg)
{
	for (int i = 0; i < MAX_GROUPS; i++)
		if (groups[i].created && !strcmp(groups[i].path, cg->path))
			memset(&groups[i], 0, sizeof(groups[i]));
}

static int registered(void)
{
	int n = 0;

	for (int i = 0; i < MAX_GROUPS; i++)
		n += groups[i].created;
	return n;
}

/* the directory of group name under ctrl's parent, recorded before it is
 * made and registered once it is; no setup */
static int mkgroup(struct il_cgroup *cg, enum il_cg_ctrl ctrl, const char *name,
		   char *err, size_t len)
{
	struct parent *pa = &parents[ctrl];
	int ret;

	memset(cg, 0, sizeof(*cg));
	if (ctrl != IL_CG_CPU && ctrl != IL_CG_CPUSET)
		return errf(err, len, -EINVAL, "unknown controller %d",
			    (int)ctrl);
	ret = il_cgroup_name_ok(name, err, len);
	if (ret)
		return ret;
	if (registered() >= MAX_GROUPS)
		return errf(err, len, -ENOSPC, "more than %d groups",
			    MAX_GROUPS);
	ret = make_parent(ctrl, err, len);
	if (ret) {
		/* a parent half set up is not left for the next call */
		if (!registered())
			remove_parent(ctrl);
		return ret;
	}
	snprintf(cg->name, sizeof(cg->name), "%s", name);
	cg->ctrl = ctrl;
	cg->version = pa->version;
	ret = __il_cgroup_path(cg->path, sizeof(cg->path), pa->own, getpid(),
			       name, err, len);
	if (ret)
		return ret;
	ret = record(IL_RS_CGROUP, cg->path, NULL);
	if (ret)
		return errf(err, len, ret,
			    "cannot record %s in " IL_RUNSTATE_DIR
			    " before creating it",
			    cg->path);
	if (mkdir(cg->path, 0755)) {
		ret = -errno;
		il_runstate_forget(IL_RS_CGROUP, cg->path);
		return errf(err, len, ret, "cannot create %s", cg->path);
	}
	cg->created = true;
	registry_add(cg);
	return 0;
}

/* a group; a v1 cpuset one gets cpus, or its parent's CPUs when NULL */
static int create(struct il_cgroup *cg, enum il_cg_ctrl ctrl, const char *name,
		  const char *cpus, char *err, size_t len)
{
	int ret = mkgroup(cg, ctrl, name, err, len);

	if (ret)
		return ret;
	if (cg->version == 2)
		ret = __il_cgroup_write(cg->path, "cgroup.type", "threaded");
	else if (ctrl == IL_CG_CPUSET)
		ret = cpuset_inherit(parents[ctrl].path, cg->path, cpus);
	if (ret) {
		errf(err, len, ret, "%s: setting it up", cg->path);
		/* the caller gets no group, and nothing stays behind */
		il_cgroup_remove(cg);
		return ret;
	}
	return 0;
}

int il_cgroup_create(struct il_cgroup *cg, enum il_cg_ctrl ctrl,
		     const char *name, char *err, size_t len)
{
	return create(cg, ctrl, name, NULL, err, len);
}

int il_cgroup_set(const struct il_cgroup *cg, const char *file,
		  const char *value, char *err, size_t len)
{
	int ret;

	if (!cg->created)
		return errf(err, len, -EINVAL, "group '%s' was not created",
			    cg->name);
	/* a file name of the group, nothing that climbs out of it */
	if (!file || !*file || strchr(file, '/') || !strcmp(file, "..") ||
	    !strcmp(file, "."))
		return errf(err, len, -EINVAL, "'%s' is not a cgroup file",
			    file ? file : "");
	ret = __il_cgroup_write(cg->path, file, value);
	if (ret)
		return errf(err, len, ret, "%s/%s = %s", cg->path, file, value);
	return 0;
}

int il_cgroup_set_weight(const struct il_cgroup *cg, unsigned weight, char *err,
			 size_t len)
{
	char v[32];

	if (cg->ctrl != IL_CG_CPU)
		return errf(err, len, -EINVAL,
			    "group '%s' is not a cpu group: no weight",
			    cg->name);
	if (weight < 1 || weight > 10000)
		return errf(err, len, -EINVAL,
			    "cpu weight %u is out of range; allowed 1..10000",
			    weight);
	if (cg->version == 2) {
		snprintf(v, sizeof(v), "%u", weight);
		return il_cgroup_set(cg, "cpu.weight", v, err, len);
	}
	snprintf(v, sizeof(v), "%lu", __il_cgroup_shares(weight));
	return il_cgroup_set(cg, "cpu.shares", v, err, len);
}

/* v1: turn sched_load_balance off from dir up to the mount point */
static int balance_off_upwards(const char *dir, const char *mnt)
{
	char d[512], v[16];
	int ret;

	snprintf(d, sizeof(d), "%s", dir);
	for (;;) {
		char *slash;

		if (!__il_cgroup_read(d, "cpuset.sched_load_balance", v,
				      sizeof(v)) &&
		    !strcmp(v, "1")) {
			if (nlb_off == MAX_LB_OFF)
				return -ENOSPC;
			/* the one change that outlives the groups: load
			 * balancing off machine-wide */
			ret = record(IL_RS_BALANCE, d, "1");
			if (!ret)
				ret = __il_cgroup_write(
					d, "cpuset.sched_load_balance", "0");
			if (ret)
				return ret;
			snprintf(lb_off[nlb_off++], sizeof(lb_off[0]), "%s", d);
		}
		if (!strcmp(d, mnt) || strlen(d) <= strlen(mnt))
			return 0;
		slash = strrchr(d, '/');
		if (!slash || slash == d)
			return 0;
		*slash = '\0';
	}
}

/* ---- cgroup v2 partitions ---------------------------------------------- */

#define BITS_PER_LONG (8 * sizeof(unsigned long))
#define MASK_LONGS    (IL_MAX_CPUS / BITS_PER_LONG)

static bool bit(const unsigned long *m, int c)
{
	return (m[c / BITS_PER_LONG] >> (c % BITS_PER_LONG)) & 1;
}

/* "0-2,5" for a mask; false when it does not fit */
static bool cpulist(const unsigned long *m, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int c = 0; c < IL_MAX_CPUS; c++) {
		int lo = c;

		if (!bit(m, c))
			continue;
		while (c + 1 < IL_MAX_CPUS && bit(m, c + 1))
			c++;
		off += (size_t)snprintf(buf + off, off < len ? len - off : 0,
					c > lo ? "%s%d-%d" : "%s%d",
					off ? "," : "", lo, c);
		if (off >= len)
			return false;
	}
	return true;
}

static int step(struct il_cg_plan *p, enum il_cg_op op, int cpu,
		const char *dir, const char *file, const char *value,
		bool optional)
{
	struct il_cg_step *s;

	if (p->n == IL_CG_PLAN_MAX)
		return -ENOSPC;
	s = &p->step[p->n++];
	memset(s, 0, sizeof(*s));
	s->op = op;
	s->cpu = cpu;
	s->optional = optional;
	snprintf(s->dir, sizeof(s->dir), "%s", dir);
	snprintf(s->file, sizeof(s->file), "%s", file ? file : "");
	snprintf(s->value, sizeof(s->value), "%s", value ? value : "");
	return 0;
}

int __il_cgroup_plan_v2(struct il_cg_plan *p, const char *own,
			const char *own_part, const char *own_eff, pid_t pid,
			const int *cpus, int n, char *err, size_t len)
{
	static unsigned long eff[MASK_LONGS], want[MASK_LONGS];
	char e[128], one[16], dir[640];
	const char *type;
	bool all = true;
	int ret = 0;

	memset(p, 0, sizeof(*p));
	p->keep = -1;
	p->own_cpu = -1;
	snprintf(p->own, sizeof(p->own), "%s", own);
	if (own_part && strcmp(own_part, "root") &&
	    strcmp(own_part, "isolated")) {
		snprintf(err, len,
			 "%s is not a partition root (cpuset.cpus.partition "
			 "reads '%s'), and cgroup v2 makes partitions only "
			 "under one: run from the top cgroup",
			 own, own_part);
		return -EOPNOTSUPP;
	}
	if (n <= 0) {
		snprintf(err, len, "no CPU to make a partition for");
		return -EINVAL;
	}
	if (il_cpulist_parse(own_eff, eff, e, sizeof(e)) < 0) {
		snprintf(err, len, "%s/cpuset.cpus.effective: '%s': %s", own,
			 own_eff, e);
		return -EINVAL;
	}
	memset(want, 0, sizeof(want));
	for (int i = 0; i < n; i++) {
		if (cpus[i] < 0 || cpus[i] >= IL_MAX_CPUS ||
		    !bit(eff, cpus[i])) {
			snprintf(err, len,
				 "CPU %d is not one of %s's CPUs (its "
				 "cpuset.cpus.effective is %s)",
				 cpus[i], own, own_eff);
			return -EINVAL;
		}
		want[cpus[i] / BITS_PER_LONG] |= 1ul
						 << (cpus[i] % BITS_PER_LONG);
	}
	for (int c = 0; c < IL_MAX_CPUS; c++)
		if (bit(eff, c) && !bit(want, c))
			all = false;
	/* the own group holds tasks (ours at least): it keeps a CPU, the
	 * lowest, which is then a root domain by itself */
	if (all) {
		for (int c = 0; c < IL_MAX_CPUS && p->keep < 0; c++)
			if (bit(want, c))
				p->keep = c;
		want[p->keep / BITS_PER_LONG] &=
			~(1ul << (p->keep % BITS_PER_LONG));
	}
	if (!cpulist(want, p->cpus, sizeof(p->cpus))) {
		snprintf(err, len, "too many CPUs for one partition");
		return -ENOSPC;
	}
	if (snprintf(p->path, sizeof(p->path), "%s/invlab-%d", own, (int)pid) >=
	    (int)sizeof(p->path))
		return -ENAMETOOLONG;
	if (!p->cpus[0])
		return 0; /* one CPU, the own group's: nothing to make */
	for (int c = 0; c < IL_MAX_CPUS && p->own_cpu < 0; c++)
		if (bit(want, c))
			p->own_cpu = c;
	/* an isolated parent takes isolated partitions only (newer kernels
	 * refuse a root under it) */
	type = own_part && !strcmp(own_part, "isolated") ? "isolated" : "root";
	ret = step(p, IL_CGOP_WRITE, -1, p->path, "cpuset.cpus", p->cpus,
		   false);
	if (!ret)
		ret = step(p, IL_CGOP_WRITE, -1, p->path,
			   "cpuset.cpus.exclusive", p->cpus, true);
	if (!ret)
		ret = step(p, IL_CGOP_PARTITION, p->own_cpu, p->path, NULL,
			   type, false);
	if (!ret)
		ret = step(p, IL_CGOP_EXPECT, -1, p->path,
			   "cpuset.cpus.effective", p->cpus, false);
	if (!ret && p->keep >= 0) {
		snprintf(one, sizeof(one), "%d", p->keep);
		ret = step(p, IL_CGOP_EXPECT, p->keep, own,
			   "cpuset.cpus.effective", one, false);
	}
	for (int c = p->own_cpu + 1; !ret && c < IL_MAX_CPUS; c++) {
		if (!bit(want, c))
			continue;
		snprintf(one, sizeof(one), "%d", c);
		if (snprintf(dir, sizeof(dir), "%s/cpu%d", p->path, c) >=
		    (int)sizeof(p->step[0].dir))
			return -ENAMETOOLONG;
		ret = step(p, IL_CGOP_MKDIR, c, dir, NULL, NULL, false);
		if (!ret)
			ret = step(p, IL_CGOP_WRITE, c, dir, "cgroup.type",
				   "threaded", false);
		if (!ret)
			ret = step(p, IL_CGOP_WRITE, c, dir, "cpuset.cpus", one,
				   false);
		if (!ret)
			ret = step(p, IL_CGOP_WRITE, c, dir,
				   "cpuset.cpus.exclusive", one, true);
		if (!ret)
			ret = step(p, IL_CGOP_PARTITION, c, dir, NULL, type,
				   false);
		if (!ret)
			ret = step(p, IL_CGOP_EXPECT, c, dir,
				   "cpuset.cpus.effective", one, false);
	}
	/* what the children left invlab-<pid>: its lowest CPU alone */
	if (!ret) {
		snprintf(one, sizeof(one), "%d", p->own_cpu);
		ret = step(p, IL_CGOP_EXPECT, p->own_cpu, p->path,
			   "cpuset.cpus.effective", one, false);
	}
	if (ret)
		snprintf(err, len, "too many steps for %d CPUs", n);
	return ret;
}

static int cg_index(const int *cpus, int n, int cpu)
{
	for (int i = 0; i < n; i++)
		if (cpus[i] == cpu)
			return i;
	return -1;
}

/* carry out a v2 plan; cg[i] for cpus[i] */
static int run_plan(const struct il_cg_plan *p, struct il_cgroup *cg,
		    const int *cpus, int n, char *err, size_t len)
{
	for (int k = 0; k < p->n; k++) {
		const struct il_cg_step *s = &p->step[k];
		int i = s->cpu >= 0 ? cg_index(cpus, n, s->cpu) : -1;
		char got[160], name[24];
		int ret = 0;

		switch (s->op) {
		case IL_CGOP_MKDIR:
			if (i < 0)
				return errf(err, len, -EINVAL,
					    "plan: no group for CPU %d",
					    s->cpu);
			snprintf(name, sizeof(name), "cpu%d", s->cpu);
			ret = mkgroup(&cg[i], IL_CG_CPUSET, name, err, len);
			if (ret)
				return ret;
			if (strcmp(cg[i].path, s->dir))
				return errf(err, len, -EINVAL,
					    "plan: %s is not %s", cg[i].path,
					    s->dir);
			break;
		case IL_CGOP_WRITE:
			ret = __il_cgroup_write(s->dir, s->file, s->value);
			if (ret == -ENOENT && s->optional)
				ret = 0;
			if (ret)
				return errf(err, len, ret, "%s/%s = %s", s->dir,
					    s->file, s->value);
			break;
		case IL_CGOP_PARTITION:
			ret = record(IL_RS_PARTITION, s->dir, "member");
			if (ret)
				return errf(
					err, len, ret,
					"cannot record %s in " IL_RUNSTATE_DIR
					" before making it a partition",
					s->dir);
			ret = __il_cgroup_write(s->dir, "cpuset.cpus.partition",
						s->value);
			/* the kernel says why it refuses: "root invalid
			 * (reason)", whether or not the write failed */
			if (__il_cgroup_read(s->dir, "cpuset.cpus.partition",
					     got, sizeof(got)))
				snprintf(got, sizeof(got), "?");
			if (i >= 0)
				snprintf(cg[i].partition,
					 sizeof(cg[i].partition), "%.95s", got);
			if (ret || strcmp(got, s->value))
				return errf(err, len, -EOPNOTSUPP,
					    "%s: the kernel did not make it a "
					    "partition: cpuset.cpus.partition "
					    "reads '%s'",
					    s->dir, got);
			break;
		case IL_CGOP_EXPECT:
			ret = __il_cgroup_read(s->dir, s->file, got,
					       sizeof(got));
			if (ret)
				return errf(err, len, ret, "%s/%s", s->dir,
					    s->file);
			if (i >= 0)
				snprintf(cg[i].cpus, sizeof(cg[i].cpus),
					 "%.31s", got);
			if (strcmp(got, s->value))
				return errf(err, len, -EOPNOTSUPP,
					    "%s/%s reads '%s', not %s", s->dir,
					    s->file, got, s->value);
			break;
		case IL_CGOP_NONE:
			break;
		}
	}
	return 0;
}

static int partitions_v2(struct il_cgroup *cg, const int *cpus, int n,
			 char *err, size_t len)
{
	static struct il_cg_plan plan;
	struct parent *pa = &parents[IL_CG_CPUSET];
	char part[96], eff[512];
	bool top;
	int ret;

	top = __il_cgroup_read(pa->own, "cpuset.cpus.partition", part,
			       sizeof(part)) == -ENOENT;
	ret = __il_cgroup_read(pa->own, "cpuset.cpus.effective", eff,
			       sizeof(eff));
	if (ret)
		return errf(err, len, ret, "%s/cpuset.cpus.effective", pa->own);
	ret = __il_cgroup_plan_v2(&plan, pa->own, top ? NULL : part, eff,
				  getpid(), cpus, n, err, len);
	if (ret)
		return ret;
	if (strcmp(plan.path, pa->path))
		return errf(err, len, -EINVAL, "plan: %s is not %s", plan.path,
			    pa->path);
	/* partitions that outlived their scenario are not taken over */
	if (!__il_cgroup_read(pa->path, "cpuset.cpus.partition", eff,
			      sizeof(eff)) &&
	    strcmp(eff, "member"))
		return errf(err, len, -EBUSY,
			    "%s is a partition already (cpuset.cpus.partition "
			    "reads '%s'): the partitions made before were not "
			    "removed",
			    pa->path, eff);
	/* the kept CPU's tasks stay in the own group, the lowest other
	 * CPU's in invlab-<pid>: no group of their own */
	for (int w = 0; w < 2; w++) {
		int c = w ? plan.own_cpu : plan.keep, i = cg_index(cpus, n, c);
		struct il_cgroup *k = i >= 0 ? &cg[i] : NULL;

		if (!k)
			continue;
		memset(k, 0, sizeof(*k));
		snprintf(k->name, sizeof(k->name), "cpu%d", c);
		k->ctrl = IL_CG_CPUSET;
		k->version = 2;
		snprintf(k->path, sizeof(k->path), "%s",
			 w ? pa->path : pa->own);
		if (!w)
			snprintf(k->partition, sizeof(k->partition), "%s",
				 top ? "root" : part);
		k->shared = true;
		k->top = !w;
	}
	return run_plan(&plan, cg, cpus, n, err, len);
}

/* v1: one exclusive cpuset of one CPU */
static int partition_v1(struct il_cgroup *cg, int cpu, char *err, size_t len)
{
	struct parent *pa = &parents[IL_CG_CPUSET];
	char name[24], v[16];
	int ret;

	snprintf(name, sizeof(name), "cpu%d", cpu);
	snprintf(v, sizeof(v), "%d", cpu);
	/* with its one CPU from the start: the parent's whole set would
	 * overlap an exclusive sibling */
	ret = create(cg, IL_CG_CPUSET, name, v, err, len);
	if (ret)
		return ret;
	/*
	 * An exclusive cpuset of one CPU under an exclusive parent, with
	 * load balancing off in the parent and every group above it, is a
	 * root domain of its own (Documentation/scheduler/sched-deadline.rst,
	 * section 5).
	 */
	if (!pa->exclusive) {
		ret = __il_cgroup_write(pa->path, "cpuset.cpu_exclusive", "1");
		if (ret) {
			errf(err, len, ret,
			     "%s: cannot make it cpu_exclusive (%s): a cpuset "
			     "beside it shares its CPUs",
			     pa->path, strerror(-ret));
			goto out;
		}
		pa->exclusive = true;
		ret = __il_cgroup_write(pa->path, "cpuset.sched_load_balance",
					"0");
		if (!ret)
			ret = balance_off_upwards(pa->own, pa->mnt);
		if (ret) {
			errf(err, len, ret,
			     "cannot turn cpuset.sched_load_balance off above "
			     "%s: %s",
			     cg->path, strerror(-ret));
			goto out;
		}
	}
	ret = il_cgroup_set(cg, "cpuset.cpu_exclusive", "1", err, len);
	if (!ret) {
		snprintf(cg->partition, sizeof(cg->partition), "exclusive");
		snprintf(cg->cpus, sizeof(cg->cpus), "%d", cpu);
	}
out:
	if (ret)
		il_cgroup_remove(cg);
	return ret;
}

int il_cgroup_partitions(struct il_cgroup *cg, const int *cpus, int n,
			 char *err, size_t len)
{
	struct parent *pa = &parents[IL_CG_CPUSET];
	int ret;

	if (n <= 0 || n > MAX_GROUPS)
		return errf(err, len, -EINVAL, "%d partitions; allowed 1..%d",
			    n, MAX_GROUPS);
	for (int i = 0; i < n; i++) {
		memset(&cg[i], 0, sizeof(cg[i]));
		if (cpus[i] < 0)
			return errf(err, len, -EINVAL, "CPU %d is not a CPU",
				    cpus[i]);
		for (int j = 0; j < i; j++)
			if (cpus[j] == cpus[i])
				return errf(err, len, -EINVAL,
					    "CPU %d asked for twice", cpus[i]);
	}
	ret = make_parent(IL_CG_CPUSET, err, len);
	if (ret) {
		if (!registered())
			remove_parent(IL_CG_CPUSET);
		return ret;
	}
	if (pa->version == 1) {
		for (int i = 0; i < n && !ret; i++)
			ret = partition_v1(&cg[i], cpus[i], err, len);
	} else {
		ret = partitions_v2(cg, cpus, n, err, len);
	}
	if (ret) {
		int left = 0;

		/* nothing stays behind: the groups, then the parent */
		for (int i = n - 1; i >= 0; i--)
			il_cgroup_remove(&cg[i]);
		for (int i = 0; i < MAX_GROUPS; i++)
			left += groups[i].created &&
				groups[i].ctrl == IL_CG_CPUSET;
		if (!left)
			remove_parent(IL_CG_CPUSET);
	}
	return ret;
}

int il_cgroup_attach(const struct il_cgroup *cg, pid_t tid, char *err,
		     size_t len)
{
	char v[32];

	snprintf(v, sizeof(v), "%d", (int)tid);
	if (cg->shared) {
		/* the own group: back where the thread started */
		int ret = __il_cgroup_write(
			cg->path, __il_cgroup_threads_file(cg->version), v);

		return ret ? errf(err, len, ret, "%s/%s = %s", cg->path,
				  __il_cgroup_threads_file(cg->version), v)
			   : 0;
	}
	return il_cgroup_set(cg, __il_cgroup_threads_file(cg->version), v, err,
			     len);
}
static int remove_dir(const char *dir, int version, const char *own)
{
	int ret = __il_cgroup_remove_dir(dir, version, own);

	if (!ret) {
		il_runstate_forget(IL_RS_PARTITION, dir);
		il_runstate_forget(IL_RS_CGROUP, dir);
	}
	return ret;
}

/* the parent of ctrl, and what was enabled for it in the own group */
static int remove_parent(enum il_cg_ctrl ctrl)
{
	struct parent *pa = &parents[ctrl];
	int ret;

	if (!pa->created)
		return 0;
	/* on v2 both controllers' parents are one directory: the last of
	 * them removes it (the partitions may still be in there) */
	if (pa->version == 2 && parents[!ctrl].created &&
	    !strcmp(parents[!ctrl].path, pa->path))
		ret = 0;
	else
		ret = remove_dir(pa->path, pa->version, pa->own);
	if (ctrl == IL_CG_CPUSET)
		while (nlb_off > 0) {
			nlb_off--;
			if (!__il_cgroup_write(lb_off[nlb_off],
					       "cpuset.sched_load_balance",
					       "1"))
				il_runstate_forget(IL_RS_BALANCE,
						   lb_off[nlb_off]);
		}
	if (pa->enabled_own) {
		char minus[16];

		snprintf(minus, sizeof(minus), "-%s",
			 __il_cgroup_ctrl_name(ctrl));
		__il_cgroup_write(pa->own, "cgroup.subtree_control", minus);
		il_runstate_forget(IL_RS_SUBTREE, pa->own);
	}
	memset(pa, 0, sizeof(*pa));
	return ret;
}

int il_cgroup_remove(struct il_cgroup *cg)
{
	int ret, left = 0;

	if (cg && cg->shared) {
		struct parent *pa = &parents[cg->ctrl];

		/* invlab-<pid> itself: it goes with the last group of its
		 * controller, or now when there is none */
		cg->shared = false;
		for (int i = 0; i < MAX_GROUPS; i++)
			left += groups[i].created && groups[i].ctrl == cg->ctrl;
		if (pa->created && !strcmp(cg->path, pa->path) && !left)
			return remove_parent(cg->ctrl);
		return 0;
	}
	if (!cg || !cg->created)
		return 0;
	ret = remove_dir(cg->path, cg->version, parents[cg->ctrl].own);
	registry_drop(cg);
	cg->created = false;
	/* the last group of its controller takes the parent with it, so a
	 * program that runs scenarios one after another leaves nothing
	 * between them */
	for (int i = 0; i < MAX_GROUPS; i++)
		left += groups[i].created && groups[i].ctrl == cg->ctrl;
	if (!left) {
		int r = remove_parent(cg->ctrl);

		if (!ret)
			ret = r;
	}
	return ret;
}

void il_cgroup_cleanup_all(void)
{
	for (int i = 0; i < MAX_GROUPS; i++) {
		if (!groups[i].created)
			continue;
		remove_dir(groups[i].path, groups[i].version,
			   parents[groups[i].ctrl].own);
		memset(&groups[i], 0, sizeof(groups[i]));
	}
	remove_parent(IL_CG_CPU);
	remove_parent(IL_CG_CPUSET);
}
