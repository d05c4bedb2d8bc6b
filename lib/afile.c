// SPDX-License-Identifier: MIT
/*
 * Atomic result files.  A run can be killed half-way (timeout, SIGTERM,
 * a kernel that panics under test), and a truncated JSON file is worse
 * than none: the gate tool would read it as a result.  So the output goes
 * to "PATH.tmp.XXXXXX" beside the target and is renamed over it only
 * once complete and on disk; readers see the old file or the new one,
 * never a part.  "-" writes to stdout directly.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <invlab/report.h>

/*
 * mkstemp() creates 0600; a result file should get the mode any other
 * new file would.  The umask is read from /proc, because umask() can only
 * be read by changing it, which races with other threads.
 */
static mode_t file_mode(void)
{
	char line[128];
	unsigned int mask = 022;
	FILE *f = fopen("/proc/self/status", "re");

	if (f) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "Umask: %o", &mask) == 1)
				break;
		fclose(f);
	}
	return (mode_t)(0666 & ~mask);
}

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

static void afile_clear(struct il_afile *a)
{
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
	struct stat st;
	int fd, err;

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
	 * A device, FIFO or socket (/dev/null, a pipe to a lab's collector)
	 * is written in place: renaming a file over it would replace the
	 * device node itself.
	 */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			afile_clear(a);
			return -EISDIR;
		}
		a->f = fopen(path, "we");
		if (!a->f) {
			err = -errno;
			afile_clear(a);
			return err;
		}
		return 0;
	}
	if (asprintf(&a->tmp, "%s.tmp.XXXXXX", path) < 0) {
		a->tmp = NULL;
		afile_clear(a);
		return -ENOMEM;
	}
	fd = mkostemp(a->tmp, O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		afile_clear(a);
		return err;
	}
	if (fchmod(fd, file_mode()) < 0 || !(a->f = fdopen(fd, "w"))) {
		err = -errno;
		close(fd);
		unlink(a->tmp);
		afile_clear(a);
		return err;
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
