// SPDX-License-Identifier: MIT
/*
 * Atomic result files.  A run can be killed half-way (timeout, SIGTERM,
 * a kernel that panics under test), and a truncated JSON file is worse
 * than none: the gate tool would read it as a result.  So the output goes
 * to "PATH.tmp.XXXXXX" beside the target and is renamed over it only
 * once complete and on disk; readers see the old file or the new one,
 * never a part.  "-" writes to stdout directly.
 *
 * Root writes these files, often into /tmp, so a name planted there by
 * someone else must not redirect the output: the last component is never
 * followed when it is a symbolic link, a FIFO (whose missing reader would
 * hang the run) or a device is refused, and only /dev/null is written in
 * place.  il_afile_check says so before a run starts, il_afile_open checks
 * again on the file it opens.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <invlab/afile.h>
#include <invlab/runstate.h>

/* make the rename itself durable; best effort */
static void sync_dir(const char *path)
{
	char *copy = strdup(path);
	int fd;

	if (!copy)
		return;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(copy);
}

/*
 * The temporary file's name as the run's state file records it: absolute
 * (a relative --json is taken from the working directory), so that the
 * next run finds it wherever it starts.
 */
static void record_name(const char *tmp, char *buf, size_t len)
{
	char cwd[512];

	if (tmp[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		snprintf(buf, len, "%s", tmp);
	else
		snprintf(buf, len, "%s/%s", cwd,
			 !strncmp(tmp, "./", 2) ? tmp + 2 : tmp);
}

static void forget_tmp(const char *tmp)
{
	char name[1024];

	record_name(tmp, name, sizeof(name));
	il_runstate_forget(IL_RS_FILE, name);
}

/* is st the null device (1:3)? */
static bool is_null_dev(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 &&
	       minor(st->st_rdev) == 3;
}

/*
 * What is at path, without opening a device or a FIFO (O_PATH does
 * neither), following a symbolic link of the last component or not:
 * 0 with *st filled, -ENOENT when there is nothing, -errno.
 */
static int peek(const char *path, bool follow, struct stat *st)
{
	int fd = open(path, O_PATH | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, st))
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * The one file written in place: the null device, also through a link
 * (nothing can be redirected through one that ends there).  Opened as a
 * path first and checked, then reopened for writing through that very
 * descriptor, so that a name swapped in between is never opened.
 */
static int open_null(const char *path)
{
	struct stat st;
	char proc[64];
	int pfd = open(path, O_PATH | O_CLOEXEC), fd;

	if (pfd < 0)
		return -errno;
	if (fstat(pfd, &st) || !is_null_dev(&st)) {
		close(pfd);
		return -ENXIO;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
	fd = open(proc, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		fd = -errno;
	close(pfd);
	return fd;
}

/* the verdict on what peek found: 0 for a regular file or /dev/null */
static int judge(const char *path, const struct stat *st, char *why, size_t len)
{
	const char *what = NULL;
	int ret = -EINVAL;
	struct stat target;

	if (S_ISREG(st->st_mode) || is_null_dev(st))
		return 0;
	if (S_ISLNK(st->st_mode) && !peek(path, true, &target) &&
	    is_null_dev(&target))
		return 0;
	if (S_ISLNK(st->st_mode)) {
		what = "a symbolic link (results are never written through "
		       "one, unless it ends at /dev/null)";
		ret = -ELOOP;
	} else if (S_ISDIR(st->st_mode)) {
		what = "a directory";
		ret = -EISDIR;
	} else if (S_ISFIFO(st->st_mode)) {
		what = "a FIFO (a reader that never comes would hang the run)";
		ret = -ENXIO;
	} else if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode)) {
		what = "a device (only /dev/null is written in place)";
		ret = -ENXIO;
	} else if (S_ISSOCK(st->st_mode)) {
		what = "a socket";
		ret = -ENXIO;
	} else {
		what = "not a regular file";
	}
	if (why)
		snprintf(why, len,
			 "'%s' is %s; give a regular file, /dev/null or '-'",
			 path, what);
	return ret;
}

/*
 * A new file beside path, "PATH.tmp.XXXXXX": O_EXCL and O_NOFOLLOW, so
 * that nothing planted under that name (a link, a FIFO) is opened; the
 * kernel applies the umask to 0666, as for any other new file.
 */
static int make_tmp(const char *path, char **tmp, bool record)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyz"
				  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	struct timespec ts;
	unsigned long long r;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	r = (unsigned long long)ts.tv_nsec ^
	    ((unsigned long long)getpid() << 20) ^
	    (unsigned long long)(uintptr_t)tmp;
	for (int tries = 0; tries < 100; tries++) {
		char sfx[7];
		int fd;

		for (int i = 0; i < 6; i++) {
			r = r * 6364136223846793005ull + 1442695040888963407ull;
			sfx[i] = set[(r >> 33) % (sizeof(set) - 1)];
		}
		sfx[6] = '\0';
		if (asprintf(tmp, "%s.tmp.%s", path, sfx) < 0) {
			*tmp = NULL;
			return -ENOMEM;
		}
		/* written down first, so that a killed run's temporary file
		 * is removed by the next (runstate.h); not root: found by
		 * nobody, as before */
		if (record) {
			char name[1024];

			record_name(*tmp, name, sizeof(name));
			il_runstate_record(IL_RS_FILE, name, NULL);
		}
		fd = open(*tmp,
			  O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			  0666);
		if (fd >= 0)
			return fd;
		if (record)
			forget_tmp(*tmp);
		free(*tmp);
		*tmp = NULL;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

int il_afile_check(const char *path, char *why, size_t len)
{
	struct stat st;
	char *tmp = NULL;
	int ret, fd;

	if (why && len)
		why[0] = '\0';
	if (!path || !path[0]) {
		if (why)
			snprintf(why, len, "an empty file name");
		return -EINVAL;
	}
	if (!strcmp(path, "-"))
		return 0;
	ret = peek(path, false, &st);
	if (!ret) {
		ret = judge(path, &st, why, len);
		if (ret || !S_ISREG(st.st_mode))
			return ret;
	} else if (ret != -ENOENT) {
		if (why)
			snprintf(why, len, "'%s': %s", path, strerror(-ret));
		return ret;
	}
	/* the temporary file must be possible too: the directory exists, is
	 * writable, the filesystem is not read-only */
	fd = make_tmp(path, &tmp, false);
	if (fd < 0) {
		if (why)
			snprintf(why, len,
				 "cannot create a file beside '%s': %s", path,
				 strerror(-fd));
		return fd;
	}
	close(fd);
	unlink(tmp);
	free(tmp);
	return 0;
}

static void afile_clear(struct il_afile *a)
{
	if (a->tmp)
		forget_tmp(a->tmp);
	free(a->path);
	free(a->tmp);
	memset(a, 0, sizeof(*a));
}

static FILE *json_stdout;

void il_afile_set_stdout(FILE *f)
{
	json_stdout = f;
}

int il_afile_open(struct il_afile *a, const char *path)
{
	struct stat st, st2;
	int fd, ret;

	if (!a)
		return -EINVAL;
	memset(a, 0, sizeof(*a));
	if (!path || !path[0])
		return -EINVAL;
	a->path = strdup(path);
	if (!a->path)
		return -ENOMEM;
	if (!strcmp(path, "-")) {
		a->f = json_stdout ? json_stdout : stdout;
		return 0;
	}
	/*
	 * Checked again here, not only by il_afile_check before the run: the
	 * name may have been replaced since.  /dev/null is written in place
	 * (renaming over it would replace the device node).
	 */
	ret = peek(path, false, &st);
	if (!ret) {
		ret = judge(path, &st, NULL, 0);
		if (!ret && !S_ISREG(st.st_mode)) {
			fd = open_null(path);
			if (fd < 0) {
				afile_clear(a);
				return fd;
			}
			a->f = fdopen(fd, "w");
			if (!a->f) {
				ret = -errno;
				close(fd);
				afile_clear(a);
				return ret;
			}
			return 0;
		}
	} else if (ret == -ENOENT) {
		ret = 0;
	}
	if (ret) {
		afile_clear(a);
		return ret;
	}
	fd = make_tmp(path, &a->tmp, true);
	if (fd < 0) {
		afile_clear(a);
		return fd;
	}
	if (fstat(fd, &st2) || !S_ISREG(st2.st_mode) ||
	    !(a->f = fdopen(fd, "w"))) {
		ret = errno ? -errno : -ENXIO;
		close(fd);
		unlink(a->tmp);
		afile_clear(a);
		return ret;
	}
	return 0;
}

int il_afile_commit(struct il_afile *a)
{
	int err = 0;

	if (!a || !a->f)
		return -EINVAL;
	if (!a->tmp) {
		/* stdout or a device: nothing to rename; stdout is not ours
		 * to close */
		errno = 0;
		if (fflush(a->f) || ferror(a->f))
			err = errno ? -errno : -EIO;
		if (a->f != stdout && a->f != json_stdout && fclose(a->f) &&
		    !err)
			err = errno ? -errno : -EIO;
		afile_clear(a);
		return err;
	}
	/* ferror catches a write that failed before the last flush */
	errno = 0;
	if (fflush(a->f) || ferror(a->f))
		err = errno ? -errno : -EIO;
	else if (fsync(fileno(a->f)))
		err = -errno;
	errno = 0;
	if (fclose(a->f) && !err)
		err = errno ? -errno : -EIO;
	a->f = NULL;
	if (!err && rename(a->tmp, a->path))
		err = -errno;
	if (err)
		unlink(a->tmp);
	else
		sync_dir(a->path);
	afile_clear(a);
	return err;
}

void il_afile_abort(struct il_afile *a)
{
	if (!a)
		return;
	if (a->f && a->tmp) {
		fclose(a->f);
		unlink(a->tmp);
	} else if (a->f && a->f != stdout && a->f != json_stdout) {
		fclose(a->f);
	}
	afile_clear(a);
}
