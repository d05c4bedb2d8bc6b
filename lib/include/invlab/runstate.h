/* SPDX-License-Identifier: MIT */
/*
 * What a run changes on the machine, written down before it is changed,
 * so that a run killed with SIGKILL (which no cleanup survives) is undone
 * by the next one.
 *
 * Every process that changes something keeps one state file,
 * /run/invlab/<pid>.state, rewritten atomically (a new file renamed over
 * the old one) before each change and removed once everything in it was
 * undone.  It names the process (PID, its start time from /proc/PID/stat,
 * the program) and lists one change per line:
 *
 *   invlab-state 1
 *   pid 4242
 *   start 1234567
 *   prog dl-mbwi
 *   cgroup /sys/fs/cgroup/cpuset/invlab-4242
 *   cgroup /sys/fs/cgroup/cpuset/invlab-4242/cpu0
 *   partition /sys/fs/cgroup/invlab-4242 member
 *   balance /sys/fs/cgroup/cpuset 1
 *   subtree /sys/fs/cgroup/user.slice -cpu
 *   tmpdir /tmp/invlab-kmutex-4242-Ab12Cd
 *   file /tmp/x.json.tmp.Ef34Gh
 *   mount /run/invlab/tracefs-4242
 *   tracefs /run/invlab/tracefs-4242/instances/invlab-4242
 *
 * A record is undone only when its owner is dead: no /proc/PID, or a
 * process there that started at another time (the PID was reused).
 * Cgroups named invlab-<pid> and temporary directories named
 * invlab-kmutex-<pid>-* without a state file (left by a version that kept
 * none) are removed when the PID is dead, or belongs to a process that
 * started after they were made.
 *
 * Library rules apply: nothing here prints; what was repaired comes back
 * as text, and the notice hook (set by the program) is how a waiting or
 * repairing run tells its user.
 */
#ifndef INVLAB_RUNSTATE_H
#define INVLAB_RUNSTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define IL_RUNSTATE_DIR "/run/invlab"
#define IL_RS_MAX	64 /* changes one process records at once */

enum il_rs_kind {
	IL_RS_NONE,
	IL_RS_CGROUP,  /* a cgroup directory: its threads moved out, removed */
	IL_RS_BALANCE, /* cpuset.sched_load_balance of a v1 cpuset: value is
			  what it was before ("1") */
	IL_RS_SUBTREE, /* a controller enabled in cgroup.subtree_control:
			  value is what undoes it ("-cpu") */
	IL_RS_TMPDIR,  /* a temporary directory and what is in it */
	IL_RS_FILE,    /* a temporary file */
	IL_RS_PARTITION, /* cpuset.cpus.partition of a v2 invlab-<pid> group
			    made a partition root: value is what undoes it
			    ("member"), written before the group goes */
	IL_RS_TRACEFS,	 /* a tracefs instance .../instances/invlab-<pid>:
			    removed */
	IL_RS_MOUNT,	 /* tracefs mounted on /sys/kernel/tracing by the run:
			    unmounted (left when busy) */
	IL_RS_KIND_N,
};

struct il_rs_rec {
	enum il_rs_kind kind;
	char path[512];
	char value[32];
};

struct il_runstate {
	int pid;
	unsigned long long start; /* field 22 of /proc/PID/stat */
	char prog[32];
	int n;
	struct il_rs_rec rec[IL_RS_MAX];
};

/*
 * Record a change before making it (path absolute, no newline; value may
 * be NULL).  0, or -errno when the state file cannot be written (then the
 * change must not be made), -ENOSPC when IL_RS_MAX are recorded.
 */
int il_runstate_record(enum il_rs_kind kind, const char *path,
		       const char *value);
/* The change was undone: drop its record (the file goes with the last). */
void il_runstate_forget(enum il_rs_kind kind, const char *path);

/*
 * Undo what dead runs left: their state files, then invlab-<pid> cgroups
 * and invlab-kmutex-<pid>-* directories in /tmp of dead PIDs.  Returns
 * how many runs were repaired (0: nothing left over), msg holding one line
 * ("repaired what PID 4242 (dl-mbwi) left: 3 cgroups, load balancing of
 * /sys/fs/cgroup/cpuset back on"), or -errno for a state file that cannot
 * be read, named in msg.  Records of live owners are left alone.
 */
int il_runstate_repair(char *msg, size_t len);

/*
 * The live owners of state files besides this process, "PID (prog)"
 * separated by ", " (empty: none); for messages that must name who holds
 * something.  The number of them.
 */
int il_runstate_live_owners(char *buf, size_t len);

/* How the library tells the user something while a run goes on: the
 * program passes a function that prints the line; NULL (default) to keep
 * quiet. */
void il_runstate_set_notice(void (*fn)(const char *line));

/*
 * Is pid the process that started at start?  With start 0, is it alive
 * and started no later than t_made (seconds since the epoch; 0: any)?
 */
bool il_runstate_owner_alive(int pid, unsigned long long start, long t_made);

/* ---- semi-internal, for the unit test and for lib/ ---------------------- */

/* Parse a state file's text: 0, or -EINVAL with "line N: reason" in err. */
int __il_runstate_parse(const char *text, struct il_runstate *st, char *err,
			size_t len);
/* Its text: the length, or -ENOSPC when buf is too small. */
int __il_runstate_format(const struct il_runstate *st, char *buf, size_t len);
/* Is rec safe to undo for a run of pid (a cgroup path under
 * /sys/fs/cgroup holding invlab-<pid>, a tmpdir named for pid, ...)?
 * 0, or -EINVAL with the reason in err. */
int __il_runstate_rec_ok(const struct il_rs_rec *rec, int pid, char *err,
			 size_t len);
/* comm and start time (field 22) from /proc/PID/stat text, whose comm may
 * hold blanks and parentheses: 0 or -EINVAL */
int __il_proc_stat_parse(const char *text, char *comm, size_t clen,
			 unsigned long long *start);
/* comm and start time of process pid as every process sees them (its
 * main thread's stat): 0, -ESRCH when it is gone, or -EINVAL */
int __il_proc_start(int pid, char *comm, size_t clen,
		    unsigned long long *start);
/* "invlab-4242" -> 4242; "invlab-kmutex-4242-xyz" with kmutex -> 4242;
 * -1 when name is not one of ours */
int __il_runstate_name_pid(const char *name, bool kmutex);
/* Remove name in dfd and, for a directory, what it holds, depth levels
 * down at most; never following a symbolic link. 0 or -errno. */
int __il_rmtree_at(int dfd, const char *name, int depth);
/* rmdir dir/instances/invlab-<pid> of dead PIDs: how many */
int __il_trace_reap_instances(const char *dir);
/* make /run/invlab (root's, 0755) or check it: 0 or -errno */
int __il_runstate_dir(void);
/* the notice hook, printf-style */
void __il_notice(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
