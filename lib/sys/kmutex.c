// SPDX-License-Identifier: MIT
/*
 * Kernel struct-mutex recipes: the system calls that make a task own, or
 * wait for, a known `struct mutex` inside the kernel (kmutex.h has the
 * table).  The engine uses them for resources of type rename, fpos, pipe
 * and seqfile and the `call RES` phase.
 *
 * Why these calls take these locks (Linux 6.x):
 *
 *   rename   lock_rename() takes the superblock's s_vfs_rename_mutex
 *            whenever source and target directories differ, before the
 *            directories' own locks, so every cross-directory rename on
 *            one filesystem is serialized by it.  Each user renames its
 *            own empty file between directories a/ and b/ of the run's
 *            temporary directory: no user ever races another for a name.
 *   fpos     read() goes through fdget_pos(), which takes file->f_pos_lock
 *            when the file has FMODE_ATOMIC_POS (regular files,
 *            directories) and more than one reference; the users share one
 *            open file description and a dup() of it keeps the count
 *            above one.  The lock is held while `size` bytes are copied
 *            from the page cache.  pread() would not take it.
 *   pipe     pipe_write() holds pipe->mutex while it copies the data in
 *            (it drops it only to sleep on a full pipe, which the buffer
 *            size set here prevents: room for every user's write).  Each
 *            write is drained right after, untimed, by the same user.
 *   seqfile  read() of a seq_file takes f_pos_lock (fdget_pos) and then
 *            seq_file->lock in seq_read_iter(), holding both while the
 *            next `size` bytes are generated; pread() takes only the
 *            second.  The position is reset to 0 (untimed) before every
 *            read, so each read generates the first `size` bytes and costs
 *            the same.
 *
 * The temporary directory is "invlab-kmutex-<pid>-XXXXXX" under `dir`, so
 * a tester (and the kernel test) can tell what a run left behind; it is
 * removed by il_kmutex_close and, for every recipe still open, by
 * il_kmutex_cleanup_all.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <invlab/kmutex.h>
#include <invlab/runstate.h>
#include <invlab/time.h>

#include "kmutex-private.h"

/* the shared fpos file holds this many sections, read in turn */
#define FPOS_SECTIONS 8
#define PATH_LEN      256
#define WARMUP_CALLS  16

static const struct {
	const char *name;
	const char *lock;
	const char *ops; /* op words, in enum il_km_op order, '|' separated */
	uint64_t size_max;
} recipes[IL_KM_RECIPES] = {
	[IL_KM_RENAME] = { "rename", "s_vfs_rename_mutex", "rename", 0 },
	[IL_KM_FPOS] = { "fpos", "f_pos_lock", "read", 4u << 20 },
	[IL_KM_PIPE] = { "pipe", "pipe->mutex", "write", 256u << 10 },
	[IL_KM_SEQFILE] = { "seqfile", "f_pos_lock + seq_file->lock",
			    "read|pread", 1u << 20 },
};

struct km_user {
	bool attached;
	int side;      /* rename: 0 the file is in a/, 1 in b/ */
	bool wrap;     /* fpos: the last read came back short */
	char name[24]; /* rename: this user's file */
	char *buf;     /* size bytes */
	struct il_km_ring *ring;
};

struct il_kmutex {
	struct il_kmutex_params p;
	char dir[PATH_LEN];	 /* copy of p.dir */
	char source[PATH_LEN];	 /* copy of p.source */
	char tmp[PATH_LEN + 64]; /* the temporary directory, or "" */
	char tmpname[64];	 /* its name in dir, "" once removed */
	int dfd_dir, dfd_tmp;	 /* dir and the temporary directory */
	uint64_t size;
	int nusers;
	int dfd_a, dfd_b; /* rename */
	int fd, fd_dup;	  /* fpos, seqfile */
	int pipe_r, pipe_w;
	struct km_user *users; /* nusers + 1: the last calibrates */
	char where[PATH_LEN + 128];
	struct il_kmutex *next;
};

/* every open recipe, for il_kmutex_cleanup_all */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct il_kmutex *registry;

const char *il_kmutex_recipe_name(enum il_km_recipe r)
{
	return (unsigned)r < IL_KM_RECIPES ? recipes[r].name : "?";
}

const char *il_kmutex_lock_name(enum il_km_recipe r)
{
	return (unsigned)r < IL_KM_RECIPES ? recipes[r].lock : "?";
}

uint64_t il_kmutex_size_max(enum il_km_recipe r)
{
	return (unsigned)r < IL_KM_RECIPES ? recipes[r].size_max : 0;
}

uint64_t il_kmutex_size_default(enum il_km_recipe r)
{
	if ((unsigned)r >= IL_KM_RECIPES || !recipes[r].size_max)
		return 0;
	return r == IL_KM_FPOS ? 16 * IL_KM_SIZE_DEFAULT : IL_KM_SIZE_DEFAULT;
}

bool il_kmutex_have_uring(void)
{
	return HAVE_LIBURING;
}

/* word number idx of a '|' list, into buf */
static const char *nth_word(const char *list, int idx, char *buf, size_t len)
{
	const char *p = list;

	for (int i = 0; i < idx && p; i++) {
		p = strchr(p, '|');
		if (p)
			p++;
	}
	if (!p)
		return NULL;
	snprintf(buf, len, "%.*s", (int)strcspn(p, "|"), p);
	return buf;
}

const char *il_kmutex_op_name(enum il_km_recipe r, enum il_km_op op)
{
	static const char *const seq[] = { "read", "pread" };

	switch (r) {
	case IL_KM_RENAME:
		return "rename";
	case IL_KM_FPOS:
		return "read";
	case IL_KM_PIPE:
		return "write";
	case IL_KM_SEQFILE:
		return (unsigned)op < 2 ? seq[op] : "?";
	}
	return "?";
}

int il_kmutex_op_parse(enum il_km_recipe r, const char *word, enum il_km_op *op,
		       char *err, size_t len)
{
	char w[16], shown[64];
	size_t off = 0;

	*op = IL_KM_OP_DEFAULT;
	if ((unsigned)r >= IL_KM_RECIPES) {
		snprintf(err, len, "unknown recipe %d", (int)r);
		return -EINVAL;
	}
	if (!word || !*word)
		return 0;
	for (int i = 0; nth_word(recipes[r].ops, i, w, sizeof(w)); i++) {
		if (!strcmp(word, w)) {
			*op = (enum il_km_op)i;
			return 0;
		}
		off += (size_t)snprintf(shown + off, sizeof(shown) - off,
					"%s%s", i ? ", " : "", w);
		if (off >= sizeof(shown))
			break;
	}
	snprintf(err, len,
		 "'%s' is not an operation of a %s resource (%s; none: %s)",
		 word, recipes[r].name, shown, il_kmutex_op_name(r, 0));
	return -EINVAL;
}

static void fmt_size(char *buf, size_t len, uint64_t v)
{
	if (v && !(v % (1u << 20)))
		snprintf(buf, len, "%lluM", (unsigned long long)(v >> 20));
	else if (v && !(v % 1024))
		snprintf(buf, len, "%lluK", (unsigned long long)(v >> 10));
	else
		snprintf(buf, len, "%llu", (unsigned long long)v);
}

const char *il_kmutex_describe(const struct il_kmutex_params *p,
			       enum il_km_op op, char *buf, size_t len)
{
	char sz[24];
	const char *via = p->via == IL_KM_VIA_URING ? " via io_uring" : "";

	fmt_size(sz, sizeof(sz),
		 p->size ? p->size : il_kmutex_size_default(p->recipe));
	switch (p->recipe) {
	case IL_KM_RENAME:
		snprintf(buf, len, "cross-directory renameat()%s", via);
		break;
	case IL_KM_FPOS:
		snprintf(buf, len, "read() of %s from a shared file%s", sz,
			 via);
		break;
	case IL_KM_PIPE:
		snprintf(buf, len, "write() of %s into a shared pipe%s", sz,
			 via);
		break;
	case IL_KM_SEQFILE:
		snprintf(buf, len, "%s() of %s of %s%s",
			 op == IL_KM_OP_PREAD ? "pread" : "read", sz,
			 p->source ? p->source : IL_KM_SOURCE_DEFAULT, via);
		break;
	default:
		snprintf(buf, len, "?");
	}
	return buf;
}

static int check_path(const char *key, const char *v, char *err, size_t len)
{
	if (!v)
		return 0;
	if (v[0] != '/') {
		snprintf(err, len, "%s = %s: must be an absolute path", key, v);
		return -EINVAL;
	}
	/* room for "/invlab-kmutex-<pid>-XXXXXX/a/u15" */
	if (strlen(v) > PATH_LEN - 64) {
		snprintf(err, len, "%s: longer than %d characters", key,
			 PATH_LEN - 64);
		return -EINVAL;
	}
	for (const char *s = v; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f) {
			snprintf(err, len, "%s: contains a control character",
				 key);
			return -EINVAL;
		}
	return 0;
}

int il_kmutex_check(const struct il_kmutex_params *p, char *err, size_t len)
{
	uint64_t max;
	char a[24];
	int ret;

	if (!p || (unsigned)p->recipe >= IL_KM_RECIPES) {
		snprintf(err, len, "type: not a kernel-mutex recipe");
		return -EINVAL;
	}
	if (p->via != IL_KM_VIA_SYSCALL && p->via != IL_KM_VIA_URING) {
		snprintf(err, len, "via: %d is not one of %s", (int)p->via,
			 IL_KM_VIA_CHOICES);
		return -EINVAL;
	}
	if (p->via == IL_KM_VIA_URING && !il_kmutex_have_uring()) {
		snprintf(err, len, "via = io_uring: %s", IL_KM_NO_URING);
		return -EOPNOTSUPP;
	}
	max = recipes[p->recipe].size_max;
	if (max && p->size > max) {
		fmt_size(a, sizeof(a), max);
		snprintf(err, len,
			 "size: %llu is out of range for a %s resource; "
			 "allowed 1..%s",
			 (unsigned long long)p->size, recipes[p->recipe].name,
			 a);
		return -EINVAL;
	}
	ret = check_path("dir", p->dir, err, len);
	if (!ret)
		ret = check_path("source", p->source, err, len);
	return ret;
}

/* ---- setting up and removing ------------------------------------------- */

static const char *fs_name(long type)
{
	switch ((unsigned long)type) {
	case 0x01021994:
		return "tmpfs";
	case 0xEF53:
		return "ext4";
	case 0x58465342:
		return "xfs";
	case 0x9123683E:
		return "btrfs";
	case 0x794c7630:
		return "overlayfs";
	case 0x6969:
		return "nfs";
	case 0xF2F52010:
		return "f2fs";
	case 0x858458f6:
		return "ramfs";
	default:
		return "a filesystem";
	}
}

/*
 * Remove what a run created: the temporary directory, its files and
 * subdirectories.  Through the descriptor of the directory it was made in
 * and unlinkat(), never by path again: someone who can write `dir` may
 * have swapped the temporary directory for a symbolic link since, and
 * root must not empty whatever it points to.
 */
static void remove_tmp(struct il_kmutex *km)
{
	struct stat ours, there;

	if (km->dfd_dir < 0 || !km->tmpname[0])
		return;
	if (km->dfd_tmp >= 0 && !fstat(km->dfd_tmp, &ours) &&
	    (fstatat(km->dfd_dir, km->tmpname, &there, AT_SYMLINK_NOFOLLOW) ||
	     there.st_dev != ours.st_dev || there.st_ino != ours.st_ino)) {
		/* moved away and something else put there: empty ours
		 * through its descriptor, leave the name alone */
		__il_rmtree_at(km->dfd_tmp, ".", 1);
	} else {
		__il_rmtree_at(km->dfd_dir, km->tmpname, 1);
	}
	il_runstate_forget(IL_RS_TMPDIR, km->tmp);
	km->tmpname[0] = '\0';
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void km_free(struct il_kmutex *km)
{
	if (!km)
		return;
	for (int i = 0; km->users && i <= km->nusers; i++)
		il_kmutex_detach(km, i);
	free(km->users);
	close_fd(&km->dfd_a);
	close_fd(&km->dfd_b);
	close_fd(&km->fd);
	close_fd(&km->fd_dup);
	close_fd(&km->pipe_r);
	close_fd(&km->pipe_w);
	remove_tmp(km);
	close_fd(&km->dfd_tmp);
	close_fd(&km->dfd_dir);
	free(km);
}

/*
 * The temporary directory "invlab-kmutex-<pid>-XXXXXX" in dir, made with
 * mkdirat() in a descriptor of dir and opened with O_NOFOLLOW: everything
 * after goes through km->dfd_tmp, never through the path.
 */
static int make_tmp(struct il_kmutex *km, char *err, size_t len)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	unsigned long long r =
		il_now_ns() ^ ((unsigned long long)getpid() << 32);
	struct statfs sf;
	struct stat st;
	int ret;

	km->dfd_dir = open(km->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (km->dfd_dir < 0) {
		ret = -errno;
		snprintf(err, len,
			 "dir = %s: cannot create a directory there: %s",
			 km->dir, strerror(errno));
		return ret;
	}
	for (int tries = 0;; tries++) {
		char sfx[7];

		for (int i = 0; i < 6; i++) {
			r = r * 6364136223846793005ull + 1442695040888963407ull;
			sfx[i] = set[(r >> 33) % (sizeof(set) - 1)];
		}
		sfx[6] = '\0';
		snprintf(km->tmpname, sizeof(km->tmpname),
			 "invlab-kmutex-%d-%s", (int)getpid(), sfx);
		snprintf(km->tmp, sizeof(km->tmp), "%s/%s", km->dir,
			 km->tmpname);
		/* written down first (runstate.h); without root the name
		 * alone lets the next run find it */
		il_runstate_record(IL_RS_TMPDIR, km->tmp, NULL);
		if (!mkdirat(km->dfd_dir, km->tmpname, 0700))
			break;
		ret = -errno;
		il_runstate_forget(IL_RS_TMPDIR, km->tmp);
		km->tmpname[0] = '\0';
		if (ret != -EEXIST || tries == 100) {
			snprintf(err, len,
				 "dir = %s: cannot create a directory there: "
				 "%s",
				 km->dir, strerror(-ret));
			km->tmp[0] = '\0';
			return ret;
		}
	}
	km->dfd_tmp = openat(km->dfd_dir, km->tmpname,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (km->dfd_tmp < 0 || fstat(km->dfd_tmp, &st) ||
	    st.st_uid != geteuid()) {
		ret = errno ? -errno : -EPERM;
		snprintf(err, len, "%s: replaced as it was made", km->tmp);
		return ret;
	}
	snprintf(km->where, sizeof(km->where), "%s at %s",
		 fstatfs(km->dfd_tmp, &sf) ? "a filesystem"
					   : fs_name((long)sf.f_type),
		 km->tmp);
	return 0;
}

static int open_rename(struct il_kmutex *km, char *err, size_t len)
{
	char p[PATH_LEN + 80];
	int ret = make_tmp(km, err, len);

	if (ret)
		return ret;
	for (int i = 0; i < 2; i++) {
		char sub[2] = { (char)('a' + i), '\0' };

		snprintf(p, sizeof(p), "%s/%s", km->tmp, sub);
		if (mkdirat(km->dfd_tmp, sub, 0700) ||
		    (*(i ? &km->dfd_b : &km->dfd_a) =
			     openat(km->dfd_tmp, sub,
				    O_DIRECTORY | O_RDONLY | O_NOFOLLOW |
					    O_CLOEXEC)) < 0) {
			ret = -errno;
			snprintf(err, len, "%s: %s", p, strerror(errno));
			return ret;
		}
	}
	/* every user's file starts in a/ */
	for (int u = 0; u <= km->nusers; u++) {
		int fd;

		snprintf(km->users[u].name, sizeof(km->users[u].name), "u%d",
			 u);
		fd = openat(km->dfd_a, km->users[u].name,
			    O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
		if (fd < 0) {
			ret = -errno;
			snprintf(err, len, "%s/a/%s: %s", km->tmp,
				 km->users[u].name, strerror(errno));
			return ret;
		}
		close(fd);
	}
	return 0;
}

static int open_fpos(struct il_kmutex *km, char *err, size_t len)
{
	char p[PATH_LEN + 80], *chunk;
	uint64_t total = km->size * FPOS_SECTIONS;
	int ret = make_tmp(km, err, len);

	if (ret)
		return ret;
	snprintf(p, sizeof(p), "%s/shared", km->tmp);
	km->fd = openat(km->dfd_tmp, "shared",
			O_CREAT | O_EXCL | O_RDWR | O_NOFOLLOW | O_CLOEXEC,
			0600);
	if (km->fd < 0) {
		ret = -errno;
		snprintf(err, len, "%s: %s", p, strerror(errno));
		return ret;
	}
	chunk = malloc(km->size);
	if (!chunk) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	/* real data, not a hole: every read copies from the page cache */
	memset(chunk, 'k', km->size);
	for (uint64_t off = 0; off < total; off += km->size) {
		if (pwrite(km->fd, chunk, km->size, (off_t)off) !=
		    (ssize_t)km->size) {
			ret = errno ? -errno : -EIO;
			snprintf(err, len, "%s: cannot write %llu bytes: %s", p,
				 (unsigned long long)total, strerror(-ret));
			free(chunk);
			return ret;
		}
	}
	free(chunk);
	/* a second reference: fdget_pos() only locks a shared file */
	km->fd_dup = dup(km->fd);
	if (km->fd_dup < 0) {
		ret = -errno;
		snprintf(err, len, "dup: %s", strerror(errno));
		return ret;
	}
	return 0;
}

static int open_pipe(struct il_kmutex *km, char *err, size_t len)
{
	int callers = km->p.callers > 0 && km->p.callers <= km->nusers
			      ? km->p.callers
			      : km->nusers;
	uint64_t want = km->size * (uint64_t)callers, cap = 65536;
	unsigned long max = 0;
	FILE *f;
	int fds[2], ret;

	if (pipe2(fds, O_CLOEXEC)) {
		ret = -errno;
		snprintf(err, len, "pipe2: %s", strerror(errno));
		return ret;
	}
	km->pipe_r = fds[0];
	km->pipe_w = fds[1];
	/* room for every user's write at once: a writer never sleeps on a
	 * full pipe, which would drop the mutex mid-write */
	while (cap < want && cap < (1ull << 30))
		cap <<= 1;
	if (fcntl(km->pipe_w, F_SETPIPE_SZ, (int)cap) < 0 && errno == EPERM) {
		/* without CAP_SYS_RESOURCE: pipe-max-size is the most */
		f = fopen("/proc/sys/fs/pipe-max-size", "re");
		if (f) {
			if (fscanf(f, "%lu", &max) != 1)
				max = 0;
			fclose(f);
		}
		if (max >= want && max <= (1ul << 30) &&
		    fcntl(km->pipe_w, F_SETPIPE_SZ, (int)max) >= 0)
			cap = max;
		else
			cap = 0;
	}
	if ((ret = fcntl(km->pipe_w, F_GETPIPE_SZ)) < 0 ||
	    (uint64_t)ret < want) {
		snprintf(err, len,
			 "size %llu x %d callers needs a pipe of %llu bytes, "
			 "more than /proc/sys/fs/pipe-max-size allows without "
			 "CAP_SYS_RESOURCE; use a smaller size",
			 (unsigned long long)km->size, callers,
			 (unsigned long long)want);
		return -EPERM;
	}
	cap = (uint64_t)ret;
	/* the drain must never block */
	if (fcntl(km->pipe_r, F_SETFL, O_NONBLOCK)) {
		ret = -errno;
		snprintf(err, len, "pipe: O_NONBLOCK: %s", strerror(errno));
		return ret;
	}
	snprintf(km->where, sizeof(km->where), "a pipe of %lluK",
		 (unsigned long long)(cap >> 10));
	return 0;
}

static int open_seqfile(struct il_kmutex *km, char *err, size_t len)
{
	char b;
	int ret;

	km->fd = open(km->source, O_RDONLY | O_CLOEXEC);
	if (km->fd < 0 || pread(km->fd, &b, 1, 0) != 1) {
		ret = errno ? -errno : -EIO;
		snprintf(err, len, "source = %s: cannot read it: %s",
			 km->source, strerror(-ret));
		return ret;
	}
	km->fd_dup = dup(km->fd);
	if (km->fd_dup < 0) {
		ret = -errno;
		snprintf(err, len, "dup: %s", strerror(errno));
		return ret;
	}
	snprintf(km->where, sizeof(km->where), "%s", km->source);
	return 0;
}

int il_kmutex_open(struct il_kmutex **out, const struct il_kmutex_params *p,
		   int nusers, char *err, size_t len)
{
	struct il_kmutex *km;
	int ret;

	*out = NULL;
	ret = il_kmutex_check(p, err, len);
	if (ret)
		return ret;
	if (nusers < 1 || nusers > 1024) {
		snprintf(err, len, "%d users: need 1..1024", nusers);
		return -EINVAL;
	}
	km = calloc(1, sizeof(*km));
	if (!km) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	km->p = *p;
	km->dfd_a = km->dfd_b = km->fd = km->fd_dup = -1;
	km->dfd_dir = km->dfd_tmp = -1;
	km->pipe_r = km->pipe_w = -1;
	km->nusers = nusers;
	km->size = p->size ? p->size : il_kmutex_size_default(p->recipe);
	if (!km->size)
		km->size = 1; /* rename: unused */
	snprintf(km->dir, sizeof(km->dir), "%s",
		 p->dir ? p->dir : IL_KM_DIR_DEFAULT);
	snprintf(km->source, sizeof(km->source), "%s",
		 p->source ? p->source : IL_KM_SOURCE_DEFAULT);
	km->p.dir = km->dir;
	km->p.source = km->source;
	km->users = calloc((size_t)nusers + 1, sizeof(*km->users));
	if (!km->users) {
		free(km);
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	switch (p->recipe) {
	case IL_KM_RENAME:
		ret = open_rename(km, err, len);
		break;
	case IL_KM_FPOS:
		ret = open_fpos(km, err, len);
		break;
	case IL_KM_PIPE:
		ret = open_pipe(km, err, len);
		break;
	case IL_KM_SEQFILE:
		ret = open_seqfile(km, err, len);
		break;
	}
	if (ret) {
		km_free(km);
		return ret;
	}
	pthread_mutex_lock(&registry_lock);
	km->next = registry;
	registry = km;
	pthread_mutex_unlock(&registry_lock);
	*out = km;
	return 0;
}

void il_kmutex_close(struct il_kmutex *km)
{
	struct il_kmutex **pp;

	if (!km)
		return;
	pthread_mutex_lock(&registry_lock);
	for (pp = &registry; *pp; pp = &(*pp)->next)
		if (*pp == km) {
			*pp = km->next;
			break;
		}
	pthread_mutex_unlock(&registry_lock);
	km_free(km);
}

void il_kmutex_cleanup_all(void)
{
	struct il_kmutex *km;

	for (;;) {
		pthread_mutex_lock(&registry_lock);
		km = registry;
		if (km)
			registry = km->next;
		pthread_mutex_unlock(&registry_lock);
		if (!km)
			break;
		km_free(km);
	}
}

const char *il_kmutex_where(const struct il_kmutex *km)
{
	return km ? km->where : "";
}

int il_kmutex_attach(struct il_kmutex *km, int user, char *err, size_t len)
{
	struct km_user *u;
	int ret;

	if (!km || user < 0 || user > km->nusers) {
		snprintf(err, len, "no user %d", user);
		return -EINVAL;
	}
	u = &km->users[user];
	if (u->attached)
		return 0;
	if (km->p.recipe != IL_KM_RENAME) {
		u->buf = malloc(km->size);
		if (!u->buf) {
			snprintf(err, len, "out of memory");
			return -ENOMEM;
		}
		/* fault it in now (and lock it, under mlockall), not on
		 * the measured path */
		memset(u->buf, 'k', km->size);
	}
	if (km->p.via == IL_KM_VIA_URING) {
		ret = __il_km_ring_init(&u->ring, err, len);
		if (ret) {
			free(u->buf);
			u->buf = NULL;
			return ret;
		}
	}
	u->attached = true;
	return 0;
}

void il_kmutex_detach(struct il_kmutex *km, int user)
{
	struct km_user *u;

	if (!km || user < 0 || user > km->nusers)
		return;
	u = &km->users[user];
	__il_km_ring_exit(u->ring);
	u->ring = NULL;
	free(u->buf);
	u->buf = NULL;
	u->attached = false;
}

/* ---- the measured path ------------------------------------------------- */

static ssize_t rw(struct km_user *u, bool wr, int fd, void *buf, size_t n,
		  int64_t off)
{
	ssize_t r;

	if (u->ring)
		return __il_km_ring_rw(u->ring, wr, fd, buf, n, off);
	if (wr)
		r = off < 0 ? write(fd, buf, n) : pwrite(fd, buf, n, off);
	else
		r = off < 0 ? read(fd, buf, n) : pread(fd, buf, n, off);
	return r < 0 ? -errno : r;
}

int il_kmutex_call(struct il_kmutex *km, int user, enum il_km_op op,
		   uint64_t *t0, uint64_t *t1)
{
	struct km_user *u = &km->users[user];
	ssize_t n = 0;
	int ret = 0;

	switch (km->p.recipe) {
	case IL_KM_RENAME: {
		int from = u->side ? km->dfd_b : km->dfd_a;
		int to = u->side ? km->dfd_a : km->dfd_b;

		*t0 = il_now_ns();
		if (u->ring)
			ret = __il_km_ring_renameat(u->ring, from, u->name, to,
						    u->name);
		else if (renameat(from, u->name, to, u->name))
			ret = -errno;
		*t1 = il_now_ns();
		if (!ret)
			u->side ^= 1;
		return ret;
	}
	case IL_KM_FPOS:
		/* wrap around outside the measurement; the lseek is a
		 * short critical section on the same lock */
		if (u->wrap && lseek(km->fd, 0, SEEK_SET) == 0)
			u->wrap = false;
		*t0 = il_now_ns();
		n = rw(u, false, km->fd, u->buf, km->size, -1);
		*t1 = il_now_ns();
		if (n >= 0 && (uint64_t)n < km->size)
			u->wrap = true;
		return n < 0 ? (int)n : 0;
	case IL_KM_PIPE:
		*t0 = il_now_ns();
		n = rw(u, true, km->pipe_w, u->buf, km->size, -1);
		*t1 = il_now_ns();
		/* drain what this user wrote, untimed and non-blocking */
		if (n > 0 && read(km->pipe_r, u->buf, (size_t)n) < 0 &&
		    errno != EAGAIN)
			return -errno;
		return n < 0 ? (int)n : 0;
	case IL_KM_SEQFILE:
		if (op == IL_KM_OP_PREAD) {
			*t0 = il_now_ns();
			n = rw(u, false, km->fd, u->buf, km->size, 0);
			*t1 = il_now_ns();
		} else {
			/* every read generates the first size bytes */
			lseek(km->fd, 0, SEEK_SET);
			*t0 = il_now_ns();
			n = rw(u, false, km->fd, u->buf, km->size, -1);
			*t1 = il_now_ns();
		}
		return n < 0 ? (int)n : 0;
	}
	return -EINVAL;
}

int il_kmutex_calibrate(struct il_kmutex *km, int n, uint64_t pace_ns,
			struct il_hist *h, char *err, size_t len)
{
	int user = km->nusers, ret;
	uint64_t t0, t1;

	il_hist_init(h);
	ret = il_kmutex_attach(km, user, err, len);
	if (ret)
		return ret;
	for (int i = 0; i < WARMUP_CALLS + n; i++) {
		ret = il_kmutex_call(km, user, IL_KM_OP_DEFAULT, &t0, &t1);
		if (ret) {
			snprintf(err, len, "%s: %s", il_kmutex_where(km),
				 strerror(-ret));
			break;
		}
		if (i >= WARMUP_CALLS)
			il_hist_record(h, t1 - t0);
		if (pace_ns)
			il_sleep_until(il_now_ns() + pace_ns, NULL);
	}
	il_kmutex_detach(km, user);
	return ret;
}

int il_sched_base_slice_ns(uint64_t *ns)
{
	FILE *f = fopen("/sys/kernel/debug/sched/base_slice_ns", "re");
	unsigned long long v;
	int ok;

	if (!f)
		return -errno;
	ok = fscanf(f, "%llu", &v) == 1 && v > 0;
	fclose(f);
	if (!ok)
		return -EINVAL;
	*ns = v;
	return 0;
}
