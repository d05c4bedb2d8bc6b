// SPDX-License-Identifier: MIT
/*
 * Input for invlab-import, line by line, plain or gzip.
 *
 * Only a regular file is read (a FIFO or a device is not a result), and
 * only up to the input limit, counted after decompression: a small .gz
 * can expand to gigabytes.  Lines are bounded too, and a NUL byte is
 * refused: none of the formats has one, and it would cut a line short
 * without anyone noticing.  gzip is recognised by its magic bytes, not
 * by the name, and read by import-zlib.c; a build without zlib refuses
 * it and says which feature is missing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <invlab/strbuf.h>

#include "config.h"
#include "format.h"
#include "import.h"

bool il_imp_have_zlib(void)
{
	return HAVE_ZLIB;
}

#if !HAVE_ZLIB
/* the plain fallback: never reached, il_imp_open refuses gzip first */
int __il_imp_gz_open(int fd, void **gz)
{
	(void)fd;
	*gz = NULL;
	return -ENOTSUP;
}

long __il_imp_gz_read(void *gz, char *buf, size_t n)
{
	(void)gz;
	(void)buf;
	(void)n;
	return -ENOTSUP;
}

void __il_imp_gz_close(void *gz)
{
	(void)gz;
}
#endif

int il_imp_open(struct il_imp_reader *r, const char *path, uint64_t max,
		char *err, size_t errlen)
{
	unsigned char magic[2];
	struct stat st;
	ssize_t got;
	int ret;

	memset(r, 0, sizeof(*r));
	r->path = path;
	r->max = max;
	r->fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (r->fd < 0) {
		ret = -errno;
		il_setf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	if (fstat(r->fd, &st) || !S_ISREG(st.st_mode)) {
		il_setf(err, errlen,
			"%s: not a regular file (a device, FIFO or directory "
			"is not a result)",
			path);
		ret = -EINVAL;
		goto fail;
	}
	got = pread(r->fd, magic, sizeof(magic), 0);
	if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
		if (!HAVE_ZLIB) {
			il_setf(err, errlen,
				"%s: gzip-compressed, and this build cannot "
				"read it: it was built without zlib (meson "
				"feature 'zlib', Debian zlib1g-dev); gunzip "
				"the file first",
				path);
			ret = -ENOTSUP;
			goto fail;
		}
		ret = __il_imp_gz_open(r->fd, &r->gz);
		if (ret) {
			il_setf(err, errlen, "%s: %s", path, strerror(-ret));
			goto fail;
		}
		/* the stream owns the descriptor now */
		r->fd = -1;
	} else if ((uint64_t)st.st_size > max) {
		char lim[32];

		il_res_fmt_size(lim, sizeof(lim), max);
		il_setf(err, errlen,
			"%s: %lld bytes, over the input limit of %s "
			"(--max-input-size)",
			path, (long long)st.st_size, lim);
		ret = -EFBIG;
		goto fail;
	}
	return 0;
fail:
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	return ret;
}

void il_imp_close(struct il_imp_reader *r)
{
	if (r->gz)
		__il_imp_gz_close(r->gz);
	if (r->fd >= 0)
		close(r->fd);
	r->gz = NULL;
	r->fd = -1;
}

/* more bytes into buf: >0, 0 at the end, or -errno with the message */
static long fill(struct il_imp_reader *r, char *dst, size_t n, char *err,
		 size_t errlen)
{
	long got;

	for (;;) {
		if (r->gz) {
			got = __il_imp_gz_read(r->gz, dst, n);
		} else {
			got = (long)read(r->fd, dst, n);
			if (got < 0 && errno == EINTR)
				continue;
			if (got < 0)
				got = -errno;
		}
		break;
	}
	if (got < 0) {
		il_setf(err, errlen, "%s:%lu: %s", r->path, r->line + 1,
			got == -EIO && r->gz ? "corrupt gzip data"
					     : strerror((int)-got));
		return got;
	}
	r->total += (uint64_t)got;
	if (r->total > r->max) {
		char lim[32];

		il_res_fmt_size(lim, sizeof(lim), r->max);
		il_setf(err, errlen,
			"%s:%lu: over the input limit of %s "
			"(--max-input-size)%s",
			r->path, r->line + 1, lim,
			r->gz ? ", counted decompressed" : "");
		return -EFBIG;
	}
	return got;
}

int il_imp_getline(struct il_imp_reader *r, const char **line, char *err,
		   size_t errlen)
{
	for (;;) {
		char *nl = memchr(r->buf + r->pos, '\n', r->len - r->pos);
		size_t n;
		long got;

		if (nl || (r->eof && r->pos < r->len)) {
			size_t start = r->pos;

			n = nl ? (size_t)(nl - (r->buf + start))
			       : r->len - start;
			r->line++;
			r->pos = nl ? start + n + 1 : r->len;
			if (n > IL_IMP_MAX_LINE) {
				il_setf(err, errlen,
					"%s:%lu: line longer than %d bytes",
					r->path, r->line, IL_IMP_MAX_LINE);
				return -EINVAL;
			}
			if (memchr(r->buf + start, '\0', n)) {
				il_setf(err, errlen,
					"%s:%lu: a NUL byte: not a text file",
					r->path, r->line);
				return -EINVAL;
			}
			memcpy(r->cur, r->buf + start, n);
			if (n && r->cur[n - 1] == '\r')
				n--;
			r->cur[n] = '\0';
			*line = r->cur;
			return 1;
		}
		if (r->eof)
			return 0;
		/* keep the partial line, make room behind it */
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
		r->len -= r->pos;
		r->pos = 0;
		if (r->len > IL_IMP_MAX_LINE) {
			il_setf(err, errlen,
				"%s:%lu: line longer than %d bytes", r->path,
				r->line + 1, IL_IMP_MAX_LINE);
			return -EINVAL;
		}
		got = fill(r, r->buf + r->len, sizeof(r->buf) - r->len, err,
			   errlen);
		if (got < 0)
			return (int)got;
		if (!got)
			r->eof = true;
		r->len += (size_t)got;
	}
}

int il_imp_slurp(struct il_imp_reader *r, char **buf, size_t *len, char *err,
		 size_t errlen)
{
	size_t cap = 65536, n = 0;
	char *b = malloc(cap + 1);

	if (!b)
		goto nomem;
	for (;;) {
		long got;

		if (n == cap) {
			char *nb = realloc(b, 2 * cap + 1);

			if (!nb)
				goto nomem;
			b = nb;
			cap *= 2;
		}
		got = fill(r, b + n, cap - n, err, errlen);
		if (got < 0) {
			free(b);
			return (int)got;
		}
		if (!got)
			break;
		n += (size_t)got;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
nomem:
	free(b);
	il_setf(err, errlen, "%s: out of memory", r->path);
	return -ENOMEM;
}
