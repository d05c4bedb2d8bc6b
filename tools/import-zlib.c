// SPDX-License-Identifier: MIT
/*
 * The zlib half of invlab-import's reader, compiled only when the build
 * has zlib (meson feature 'zlib'); import-read.c refuses gzip input
 * without it.  Concatenated gzip members are read as one stream, as
 * gunzip does.
 */
#include <errno.h>
#include <limits.h>

#include <zlib.h>

#include "import.h"

int __il_imp_gz_open(int fd, void **gz)
{
	gzFile f = gzdopen(fd, "rb");

	if (!f)
		return -ENOMEM;
	*gz = f;
	return 0;
}

long __il_imp_gz_read(void *gz, char *buf, size_t n)
{
	int got;

	if (n > INT_MAX)
		n = INT_MAX;
	got = gzread((gzFile)gz, buf, (unsigned)n);
	if (got < 0)
		return -EIO;
	/* a cut stream ends early with Z_BUF_ERROR, not with an error */
	if (!got) {
		int errnum = Z_OK;

		gzerror((gzFile)gz, &errnum);
		if (errnum != Z_OK)
			return -EIO;
	}
	return got;
}

void __il_imp_gz_close(void *gz)
{
	gzclose((gzFile)gz);
}
