// SPDX-License-Identifier: MIT
/*
 * The one INI reader (ini.h): lines, comments, blanks, section headers
 * and "key = value", for job files and the gate's profiles alike, with
 * every error as "FILE:LINE: message".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <invlab/ini.h>

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

char *il_ini_trim(char *s)
{
	char *e;

	while (is_blank(*s))
		s++;
	e = s + strlen(s);
	while (e > s && is_blank(e[-1]))
		*--e = '\0';
	return s;
}

/*
 * A comment is a whole line starting with ';' or '#', or the rest of a
 * line from a ';' or '#' that follows a blank.  Requiring the blank keeps
 * values such as "C#" or "a;b" whole, as fio does.
 */
static void strip_comment(char *s)
{
	char *p = s;

	while (is_blank(*p))
		p++;
	if (*p == ';' || *p == '#') {
		*s = '\0';
		return;
	}
	for (; *p; p++) {
		if ((*p == ';' || *p == '#') && is_blank(p[-1])) {
			*p = '\0';
			return;
		}
	}
}

static int fail(char *err, size_t errlen, const struct il_ini_at *at,
		const char *msg, int ret)
{
	if (err && errlen)
		snprintf(err, errlen, "%s:%d: %s", at->file, at->line,
			 *msg		  ? msg
			 : ret == -ENOMEM ? "out of memory"
					  : "invalid line");
	return ret;
}

/* one line (NUL-terminated, in a buffer of its own) */
static int one_line(char *p, char *whole, const struct il_ini_ops *ops,
		    void *ctx, struct il_ini_at *at, char *err, size_t errlen)
{
	char msg[1024] = "", *line, *eq;
	size_t len = strlen(p);
	int ret;

	if (len && p[len - 1] == '\r')
		p[--len] = '\0';
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)p[i];

		if ((c < 0x20 && c != '\t') || c == 0x7f) {
			snprintf(msg, sizeof(msg), "control character 0x%02x",
				 c);
			return fail(err, errlen, at, msg, -EINVAL);
		}
	}
	strip_comment(p);
	line = il_ini_trim(p);
	if (!*line)
		return 0;
	/* the callbacks may cut line up: they get the whole of it apart */
	strcpy(whole, line);
	at->text = whole;
	if (*line == '[') {
		char *close = strchr(line, ']'), *name = NULL, *after = "";

		if (close) {
			*close = '\0';
			name = il_ini_trim(line + 1);
			after = il_ini_trim(close + 1);
		}
		ret = ops->section ? ops->section(ctx, at, name, after, msg,
						  sizeof(msg))
				   : 0;
	} else {
		char *value = NULL, *key = line;

		eq = strchr(line, '=');
		if (eq && !(eq > line && ops->op_chars &&
			    strchr(ops->op_chars, eq[-1]))) {
			*eq = '\0';
			key = il_ini_trim(line);
			value = il_ini_trim(eq + 1);
		}
		ret = ops->key ? ops->key(ctx, at, key, value, msg, sizeof(msg))
			       : 0;
	}
	return ret ? fail(err, errlen, at, msg, ret) : 0;
}

int il_ini_parse(const char *text, size_t len, const char *file,
		 const struct il_ini_ops *ops, void *ctx, char *err,
		 size_t errlen)
{
	struct il_ini_at at = { .file = file ? file : "(text)" };
	char *buf, *whole;
	size_t off = 0;
	int ret = 0;

	if (err && errlen)
		err[0] = '\0';
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		off = 3;
	buf = malloc(2 * (len + 1));
	if (!buf) {
		if (err && errlen)
			snprintf(err, errlen, "%s: out of memory", at.file);
		return -ENOMEM;
	}
	whole = buf + len + 1;
	while (off < len) {
		const char *nl = memchr(text + off, '\n', len - off);
		size_t n = nl ? (size_t)(nl - (text + off)) : len - off;

		at.line++;
		at.text = "";
		/* the text would silently end there */
		if (memchr(text + off, '\0', n)) {
			ret = fail(err, errlen, &at,
				   "NUL byte; not a text file?", -EINVAL);
			break;
		}
		memcpy(buf, text + off, n);
		buf[n] = '\0';
		ret = one_line(buf, whole, ops, ctx, &at, err, errlen);
		if (ret)
			break;
		off += n + 1;
	}
	free(buf);
	return ret;
}

int il_ini_load(const char *path, uint64_t max, const struct il_ini_ops *ops,
		void *ctx, char *err, size_t errlen)
{
	struct stat st;
	size_t n = 0, cap;
	ssize_t got = 0;
	char *buf;
	int fd, ret;

	/* O_NONBLOCK: opening a FIFO must not wait for a writer */
	fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen,
			 "%s: not a regular file (a device, FIFO or directory "
			 "has no end to read to)",
			 path);
		close(fd);
		return -EINVAL;
	}
	if ((uint64_t)st.st_size > max) {
		snprintf(err, errlen, "%s: %lld bytes, over the limit of %llu",
			 path, (long long)st.st_size, (unsigned long long)max);
		close(fd);
		return -EFBIG;
	}
	cap = (size_t)st.st_size + 1;
	buf = malloc(cap);
	while (buf) {
		if (n == cap) {
			/* it grew while being read: read on, to one past max */
			size_t ncap =
				cap * 2 > max + 1 ? (size_t)max + 1 : cap * 2;
			char *nb = ncap > cap ? realloc(buf, ncap) : NULL;

			if (!nb)
				break;
			buf = nb;
			cap = ncap;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	if (!buf || (n == cap && cap <= max)) {
		free(buf);
		close(fd);
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	ret = got < 0 ? -errno : 0;
	close(fd);
	if (ret)
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
	else if (n > max) {
		snprintf(err, errlen, "%s: over the limit of %llu bytes", path,
			 (unsigned long long)max);
		ret = -EFBIG;
	} else {
		ret = il_ini_parse(buf, n, path, ops, ctx, err, errlen);
	}
	free(buf);
	return ret;
}
