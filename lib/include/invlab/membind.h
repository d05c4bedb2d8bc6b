/* SPDX-License-Identifier: MIT */
/*
 * A task's memory bound to one NUMA node (the task key `node`,
 * docs/job-files.md): a region whose pages can only come from that node
 * (mbind MPOL_BIND before any page of it is touched), the calling
 * thread's own policy set the same way (set_mempolicy), and where a
 * region's pages really are (move_pages).  Needs libnuma; a build
 * without it refuses with "not supported: built without libnuma", and so
 * does a kernel without NUMA support.
 */
#ifndef INVLAB_MEMBIND_H
#define INVLAB_MEMBIND_H

#include <stddef.h>

/* NULL when this build can bind memory, else why not */
const char *il_membind_missing(void);
/*
 * Can memory be bound to node on this machine?  0; -EOPNOTSUPP (no
 * libnuma, or a kernel without NUMA), -ENOENT (no such node: the message
 * says how many this machine has), -ENOMEM (a node without memory), with
 * the reason in why.
 */
int il_membind_check(int node, char *why, size_t len);
/*
 * len bytes, rounded up to whole pages, zero, page aligned, that can only
 * be placed on node; no page is touched yet, so each comes from node when
 * first written.  NULL with errno (EOPNOTSUPP without libnuma).  Free
 * with il_membind_free(p, len) (the same len).
 */
void *il_membind_alloc(size_t len, int node);
void il_membind_free(void *p, size_t len);
/* len rounded up to whole pages, as il_membind_alloc takes it */
size_t il_membind_round(size_t len);
/* The calling thread's own memory policy: MPOL_BIND to node.  0 or -errno. */
int il_membind_thread(int node);
/*
 * Of the pages of [p, p + len) (p page aligned), how many are present
 * (touched) and how many of those are on node.  0 or -errno.
 */
int il_membind_where(const void *p, size_t len, int node, size_t *present,
		     size_t *on_node);

#endif
