/* SPDX-License-Identifier: MIT */
/*
 * Atomic result files, renamed into place only once complete
 * (lib/sys/afile.c).
 */
#ifndef INVLAB_AFILE_H
#define INVLAB_AFILE_H

#include <stddef.h>
#include <stdio.h>

/*
 * Atomic result files: il_afile_open creates "PATH.tmp.XXXXXX" beside
 * path; il_afile_commit flushes, fsyncs and renames it over path (0 or
 * -errno); il_afile_abort removes the temporary file.  "-" means stdout.
 */
struct il_afile {
	FILE *f;
	char *path;
	char *tmp;
};
int il_afile_open(struct il_afile *a, const char *path);
/*
 * Can path take a result file?  Call it before a run, so that a bad name
 * is refused before anything is measured.  0 for "-", /dev/null (also
 * through a link), a regular file or a new name in a writable directory;
 * -ELOOP for any other symbolic link (never followed), -ENXIO for a FIFO,
 * a device or a socket,
 * -EISDIR, or the -errno of creating a file beside it; why says which.
 * il_afile_open applies the same rules again to what it opens.
 */
int il_afile_check(const char *path, char *why, size_t len);
/*
 * Where "-" writes: stdout unless set (a program that moves its report
 * off standard output, so that the JSON is all there is on it, passes
 * the stream that still reaches the original standard output).  Never
 * closed by the functions here.
 */
void il_afile_set_stdout(FILE *f);
int il_afile_commit(struct il_afile *a);
void il_afile_abort(struct il_afile *a);

#endif
