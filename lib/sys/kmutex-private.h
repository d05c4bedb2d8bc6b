/* SPDX-License-Identifier: MIT */
/*
 * The io_uring half of the kernel-mutex recipes, in lib/sys/kmutex-uring.c,
 * compiled only when the build has liburing.  kmutex.c calls only these
 * functions; without liburing they are never reached, because
 * il_kmutex_check refuses `via = io_uring` first ("not supported: built
 * without liburing"), and the fallbacks below say the same if they are.
 */
#ifndef INVLAB_KMUTEX_PRIVATE_H
#define INVLAB_KMUTEX_PRIVATE_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "config.h"

#define IL_KM_NO_URING "not supported: built without liburing"

struct il_km_ring;

#if HAVE_LIBURING
/* a ring of the calling thread: 0, or -errno with the reason in err */
int __il_km_ring_init(struct il_km_ring **r, char *err, size_t len);
void __il_km_ring_exit(struct il_km_ring *r);
/* submit one operation and wait for it: 0 or the result, -errno */
int __il_km_ring_renameat(struct il_km_ring *r, int olddfd, const char *old,
			  int newdfd, const char *new);
/* read (write false) or write n bytes at off; -1: the file position */
ssize_t __il_km_ring_rw(struct il_km_ring *r, bool write, int fd, void *buf,
			size_t n, int64_t off);
#else
static inline int __il_km_ring_init(struct il_km_ring **r, char *err,
				    size_t len)
{
	*r = NULL;
	snprintf(err, len, "via = io_uring: %s", IL_KM_NO_URING);
	return -EOPNOTSUPP;
}

static inline void __il_km_ring_exit(struct il_km_ring *r)
{
	(void)r;
}

static inline int __il_km_ring_renameat(struct il_km_ring *r, int olddfd,
					const char *old, int newdfd,
					const char *new)
{
	(void)r, (void)olddfd, (void)old, (void)newdfd, (void)new;
	return -EOPNOTSUPP;
}

static inline ssize_t __il_km_ring_rw(struct il_km_ring *r, bool write, int fd,
				      void *buf, size_t n, int64_t off)
{
	(void)r, (void)write, (void)fd, (void)buf, (void)n, (void)off;
	return -EOPNOTSUPP;
}
#endif

#endif
