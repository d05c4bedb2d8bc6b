// SPDX-License-Identifier: MIT
/*
 * Kernel-mutex critical sections issued through io_uring (liburing): one
 * small ring per calling thread, one operation in flight, submitted and
 * waited for in one io_uring_enter.
 *
 * This is the point of the `via = io_uring` variant: IORING_OP_RENAMEAT
 * is always punted to an io-wq worker, so the rename mutex is owned by
 * that worker thread, which was created from the submitting thread (same
 * cgroup, same class and nice at creation) but is a different task to the
 * scheduler; a reader or writer that would block is punted the same way.
 * docs/kmutex.md has what that does to the inversion.
 *
 * Compiled only when the build has liburing (meson: uring_dep.found()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <liburing.h>

#include "kmutex-private.h"

struct il_km_ring {
	struct io_uring ring;
};

int __il_km_ring_init(struct il_km_ring **r, char *err, size_t len)
{
	struct il_km_ring *k = calloc(1, sizeof(*k));
	int ret;

	*r = NULL;
	if (!k) {
		snprintf(err, len, "io_uring: out of memory");
		return -ENOMEM;
	}
	/* two entries: one operation is ever in flight */
	ret = io_uring_queue_init(2, &k->ring, 0);
	if (ret < 0) {
		snprintf(err, len, "io_uring_queue_init: %s%s", strerror(-ret),
			 ret == -EPERM || ret == -ENOSYS
				 ? " (io_uring disabled: see "
				   "/proc/sys/kernel/io_uring_disabled)"
				 : "");
		free(k);
		return ret;
	}
	*r = k;
	return 0;
}

void __il_km_ring_exit(struct il_km_ring *r)
{
	if (!r)
		return;
	io_uring_queue_exit(&r->ring);
	free(r);
}

/* submit what is prepared, wait for its completion, return its result */
static int submit_wait(struct il_km_ring *r)
{
	struct io_uring_cqe *cqe;
	int ret = io_uring_submit_and_wait(&r->ring, 1);

	if (ret < 0)
		return ret;
	do
		ret = io_uring_wait_cqe(&r->ring, &cqe);
	while (ret == -EINTR);
	if (ret < 0)
		return ret;
	ret = cqe->res;
	io_uring_cqe_seen(&r->ring, cqe);
	return ret;
}

int __il_km_ring_renameat(struct il_km_ring *r, int olddfd, const char *old,
			  int newdfd, const char *new)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&r->ring);

	if (!sqe)
		return -EBUSY;
	io_uring_prep_renameat(sqe, olddfd, old, newdfd, new, 0);
	return submit_wait(r);
}

ssize_t __il_km_ring_rw(struct il_km_ring *r, bool write, int fd, void *buf,
			size_t n, int64_t off)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&r->ring);

	if (!sqe)
		return -EBUSY;
	/* off -1 (as __u64): "use and advance the file position" */
	if (write)
		io_uring_prep_write(sqe, fd, buf, (unsigned)n, (__u64)off);
	else
		io_uring_prep_read(sqe, fd, buf, (unsigned)n, (__u64)off);
	return submit_wait(r);
}
