/* SPDX-License-Identifier: MIT */
/*
 * Messages built in caller-owned fixed buffers, the way every library
 * function reports an error ("err, errlen"): always terminated, silently
 * cut at the buffer's end, never allocating.
 */
#ifndef INVLAB_STRBUF_H
#define INVLAB_STRBUF_H

#include <stddef.h>

/* printf into buf; nothing when buf is NULL or len is 0 */
void il_setf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* printf after what buf already holds */
void il_appendf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
