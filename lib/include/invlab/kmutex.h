/* SPDX-License-Identifier: MIT */
/*
 * Kernel struct-mutex recipes (docs/theory.md section 5): system calls that
 * take one particular `struct mutex` inside the kernel, so that a CFS task
 * can be made to wait for another task that owns a kernel lock.  This is
 * the inversion proxy execution addresses, and userspace PI futexes do
 * nothing for it.
 *
 *   recipe   kernel lock                  critical section (one call)
 *   rename   sb->s_vfs_rename_mutex       renameat() of the caller's own
 *                                         file between two directories of
 *                                         one filesystem; fixed cost, the
 *                                         filesystem is chosen with `dir`
 *   fpos     file->f_pos_lock             read() of `size` bytes from a
 *                                         file shared by all users (one
 *                                         open file description)
 *   pipe     pipe->mutex                  write() of `size` bytes into a
 *                                         pipe shared by all users
 *   seqfile  file->f_pos_lock, then       read() of `size` bytes of a
 *            seq_file->lock               procfs seq_file (`source`); op
 *                                         `pread` takes only seq_file->lock
 *                                         (no f_pos_lock): a reader behind
 *                                         a pread holder is a two-deep chain
 *
 * How long the lock is held grows with `size` (bytes copied, or seq_file
 * output generated and copied); a rename costs what the filesystem makes
 * it cost.  The uncontended cost of a recipe is calibrated with
 * il_kmutex_calibrate: calls from one thread with nobody else using it.
 *
 * With `via = io_uring` (liburing builds) the same operation is submitted
 * through an io_uring ring of the calling thread and waited for: renameat
 * always runs in an io-wq worker thread, so the kernel mutex is owned by
 * the worker, not by the task that asked for it.  Reads and writes are
 * first tried inline and punted to a worker when they would block.  An
 * io_uring read at the file position updates f_pos without f_pos_lock,
 * so `fpos` through io_uring takes no kernel mutex at all (docs/kmutex.md).
 *
 * Library rules apply: nothing here prints or exits; errors come back as
 * 0/-errno with a message in the caller's buffer.  il_kmutex_call is on the
 * measured path: no allocation, no lock of ours, one system call (plus an
 * untimed lseek or pipe drain where the recipe needs one).
 */
#ifndef INVLAB_KMUTEX_H
#define INVLAB_KMUTEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <invlab/hist.h>

enum il_km_recipe {
	IL_KM_RENAME,
	IL_KM_FPOS,
	IL_KM_PIPE,
	IL_KM_SEQFILE,
};
#define IL_KM_RECIPES 4

enum il_km_via {
	IL_KM_VIA_SYSCALL,
	IL_KM_VIA_URING,
};
#define IL_KM_VIA_CHOICES "syscall|io_uring"

/* the operation of one call; DEFAULT is the recipe's own (table above) */
enum il_km_op {
	IL_KM_OP_DEFAULT,
	IL_KM_OP_PREAD, /* seqfile only: pread at offset 0, no f_pos_lock */
};

/*
 * bytes per critical section when `size` is not given: 64K, and 1M for
 * fpos, whose lock is held only while the bytes are copied: a contender
 * reading back to back finds a small file hot in its cache and holds the
 * lock for a fraction of what a waiter's cold read costs, unless the read
 * is larger than the caches (see il_kmutex_size_default)
 */
#define IL_KM_SIZE_DEFAULT   (64 * 1024)
#define IL_KM_DIR_DEFAULT    "/tmp"
#define IL_KM_SOURCE_DEFAULT "/proc/kallsyms"

struct il_kmutex_params {
	enum il_km_recipe recipe;
	enum il_km_via via;
	uint64_t size;	    /* fpos, pipe, seqfile; 0: the recipe's default */
	const char *dir;    /* rename, fpos: parent of the run's temporary
			       directory; NULL: IL_KM_DIR_DEFAULT */
	const char *source; /* seqfile: the file read; NULL: default */
	int callers;	    /* users that call at the same time (sizes the
			       pipe); 0: all of them */
};

/* "rename", "fpos", "pipe", "seqfile" */
const char *il_kmutex_recipe_name(enum il_km_recipe r);
/* the kernel lock the recipe contends: "s_vfs_rename_mutex", ... */
const char *il_kmutex_lock_name(enum il_km_recipe r);
/* what one call does: "renameat()", "read() of 64K", ... into buf */
const char *il_kmutex_describe(const struct il_kmutex_params *p,
			       enum il_km_op op, char *buf, size_t len);
/* Does this build have io_uring (liburing)? */
bool il_kmutex_have_uring(void);

/*
 * Check parameters without touching the system: size within the recipe's
 * range, dir and source absolute paths of sane length, io_uring available.
 * 0, or -EINVAL (-EOPNOTSUPP for io_uring in a build without liburing)
 * with the reason in err, phrased with the job-file key names.
 */
int il_kmutex_check(const struct il_kmutex_params *p, char *err, size_t len);
/* The largest `size` a recipe accepts (0: it takes no size). */
uint64_t il_kmutex_size_max(enum il_km_recipe r);
/* The size used when none is given (0: it takes no size). */
uint64_t il_kmutex_size_default(enum il_km_recipe r);

/*
 * The operation word of a `call RES OP` phase: NULL or "" is the recipe's
 * default; "pread" is seqfile's second operation.  0, or -EINVAL with the
 * operations the recipe has in err.
 */
int il_kmutex_op_parse(enum il_km_recipe r, const char *word, enum il_km_op *op,
		       char *err, size_t len);
/* the word of op for recipe r ("read", "pread", "rename", "write") */
const char *il_kmutex_op_name(enum il_km_recipe r, enum il_km_op op);

struct il_kmutex;

/*
 * Set a recipe up for nusers callers (user 0..nusers-1, e.g. task
 * indices): the temporary directory (mkdtemp "invlab-kmutex-<pid>-XXXXXX"
 * under dir) with the rename directories or the shared file, the pipe, or
 * the seq_file.  Everything is removed by il_kmutex_close, and by
 * il_kmutex_cleanup_all for whatever is still open.  0, or -errno with the
 * reason in err.
 */
int il_kmutex_open(struct il_kmutex **km, const struct il_kmutex_params *p,
		   int nusers, char *err, size_t len);
/*
 * Prepare user in the thread that will call (its io_uring ring is that
 * thread's, and io-wq workers are created from it, so they inherit its
 * cgroup and scheduling class: attach after those are set).  0, or -errno.
 */
int il_kmutex_attach(struct il_kmutex *km, int user, char *err, size_t len);
void il_kmutex_detach(struct il_kmutex *km, int user);
/*
 * One critical section.  *t0 and *t1 are CLOCK_MONOTONIC right before and
 * after the system call (or the io_uring submit-and-wait) that takes the
 * kernel mutex; the untimed lseek or pipe drain some recipes need is
 * outside them.  0, or -errno of the failed call.
 */
int il_kmutex_call(struct il_kmutex *km, int user, enum il_km_op op,
		   uint64_t *t0, uint64_t *t1);
/*
 * Uncontended cost: n calls of the default operation from the calling
 * thread, pace_ns apart (a caller that sleeps between calls finds colder
 * caches than one calling back to back, and a task of a scenario usually
 * sleeps), after a few untimed warm-up calls, into h.  Call it before the
 * users start.  0, or -errno.
 */
int il_kmutex_calibrate(struct il_kmutex *km, int n, uint64_t pace_ns,
			struct il_hist *h, char *err, size_t len);
/* "tmpfs at /tmp/invlab-kmutex-123-Ab12Cd", "/proc/kallsyms", "a pipe" */
const char *il_kmutex_where(const struct il_kmutex *km);
void il_kmutex_close(struct il_kmutex *km);
/* Close every recipe still open (error paths, after a signal). */
void il_kmutex_cleanup_all(void);

/*
 * The scheduler's base slice (EEVDF request size) from debugfs
 * sched/base_slice_ns: 0, or -errno when it cannot be read (no debugfs,
 * no privilege).  Used to size the share bounds (docs/kmutex.md).
 */
int il_sched_base_slice_ns(uint64_t *ns);

#endif
