// SPDX-License-Identifier: MIT
/*
 * Job files: fio-style INI text read into a scenario (docs/job-files.md).
 *
 *   ; a comment            # also a comment
 *   [global]
 *   duration = 2s          ; a trailing comment needs a blank before it
 *   [resource M]
 *   protocol = inherit
 *   [task low]
 *   class = fifo:10
 *   body = lock M, run 2ms, unlock M
 *
 * This file only knows the INI shape: sections, "key = value" lines and
 * comments.  What a key means, its range and its units come from the
 * option tables in scenario.c, and the whole scenario is then checked by
 * il_scenario_check, so a job file and --set can never disagree.
 *
 * Every mistake is reported as "FILE:LINE: message" so an editor can jump
 * to it; the first one stops the reading.  The lines, comments and
 * blanks are read by the one INI reader (ini.c), as the gate's profiles
 * are.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "invlab/ini.h"
#include "invlab/scenario.h"
#include "scenario-private.h"

/* A job file is a few KiB; anything this big is something else. */
#define JOBFILE_MAX (1024 * 1024)

struct reader {
	struct il_scenario *sc;
	int lineno;
	enum il_section kind;
	int idx; /* -1: before the first section */
	char *err;
	size_t errlen;
	/* the message of the line being read, which ini.c prefixes */
	char *msg;
	size_t msglen;
};

static int rfail(struct reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int rfail(struct reader *r, const char *fmt, ...)
{
	va_list ap;

	if (!r->msg || !r->msglen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(r->msg, r->msglen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static const struct il_opt section_words[] = {
	{ .name = "global" },
	{ .name = "resource" },
	{ .name = "task" },
	{ .name = NULL },
};
static const struct il_opt *const section_tables[] = { section_words, NULL };

/* the kind ("task", "resource") of the section called name, and its line */
static int section_line(const struct il_scenario *sc, const char *name,
			const char **kind)
{
	int i = il_scenario_task(sc, name);

	if (i >= 0) {
		*kind = "task";
		return sc->tasks[i].line;
	}
	i = il_scenario_resource(sc, name);
	*kind = "resource";
	return i >= 0 ? sc->res[i].line : 0;
}

/* [inner] after: inner NULL when the header has no ']' */
static int read_header(struct reader *r, const char *line, char *inner,
		       char *after)
{
	struct il_scenario *sc = r->sc;
	char *type, *name;
	const char *other;
	int ret, first;
	bool task;

	if (!inner)
		return rfail(r,
			     "unterminated section header '%s'; expected "
			     "[global], [resource NAME] or [task NAME]",
			     line);
	if (*after)
		return rfail(r, "unexpected '%s' after the section header",
			     after);
	type = inner;
	name = inner + strcspn(inner, " \t");
	if (*name)
		*name++ = '\0';
	name = il_ini_trim(name);

	if (!strcmp(type, "global")) {
		if (*name)
			return rfail(r, "[global] takes no name, got '%s'",
				     name);
		if (sc->global_line)
			return rfail(r,
				     "duplicate section [global] (first at "
				     "line %d)",
				     sc->global_line);
		sc->global_line = r->lineno;
		r->kind = IL_SEC_GLOBAL;
		r->idx = 0;
		return 0;
	}
	if (strcmp(type, "task") && strcmp(type, "resource")) {
		const char *sug = il_opt_suggest(section_tables, type);

		if (!*type)
			return rfail(r, "empty section header '[]'");
		if (sug)
			return rfail(r,
				     "unknown section type '%s'; did you mean "
				     "'%s'?",
				     type, sug);
		return rfail(r,
			     "unknown section type '%s'; expected global, "
			     "resource or task",
			     type);
	}
	task = !strcmp(type, "task");
	if (!*name)
		return rfail(r, "[%s] needs a name, e.g. [%s %s]", type, type,
			     task ? "high" : "M");
	ret = task ? il_scenario_add_task(sc, name)
		   : il_scenario_add_resource(sc, name);
	if (ret == -ENOSPC)
		return rfail(r, "too many %ss; at most %d (%s)", type,
			     task ? IL_MAX_TASKS : IL_MAX_RESOURCES,
			     task ? "IL_MAX_TASKS" : "IL_MAX_RESOURCES");
	if (ret == -EEXIST) {
		first = section_line(sc, name, &other);
		if (!strcmp(other, type))
			return rfail(r, "duplicate %s '%s' (first at line %d)",
				     type, name, first);
		return rfail(r,
			     "'%s' already names a %s (line %d); tasks and "
			     "resources need distinct names for --set "
			     "NAME.KEY=VALUE",
			     name, other, first);
	}
	if (ret == -EINVAL && !strcmp(name, "global"))
		return rfail(r,
			     "'global' cannot name a %s: --set global.KEY "
			     "means [global]",
			     type);
	if (ret < 0)
		return rfail(r,
			     "invalid %s name '%s': a name is 1 to %d of "
			     "A-Z a-z 0-9 _ . -",
			     type, name, IL_NAME_MAX - 1);
	r->idx = ret;
	if (task) {
		r->kind = IL_SEC_TASK;
		sc->tasks[ret].line = r->lineno;
	} else {
		r->kind = IL_SEC_RESOURCE;
		sc->res[ret].line = r->lineno;
	}
	return 0;
}

/* key = value; value NULL when the line has no '=' */
static int read_key(struct reader *r, const char *line, char *key, char *value)
{
	char m[512];
	int ret;

	if (!value)
		return rfail(r,
			     "syntax error: expected 'key = value' or "
			     "'[section]', got '%.60s'",
			     line);
	if (!*key)
		return rfail(r, "syntax error: no key before '='");
	if (r->idx < 0)
		return rfail(r,
			     "key '%s' outside a section; keys go under "
			     "[global], [resource NAME] or [task NAME]",
			     key);
	ret = __il_scenario_key(r->sc, r->kind, r->idx, key, value, r->lineno,
				m, sizeof(m));
	if (ret == -ENOMEM)
		return ret;
	if (ret)
		return rfail(r, "%s", m);
	return 0;
}

static int on_section(void *ctx, const struct il_ini_at *at, char *name,
		      char *after, char *msg, size_t msglen)
{
	struct reader *r = ctx;

	r->lineno = at->line;
	r->msg = msg;
	r->msglen = msglen;
	return read_header(r, at->text, name, after);
}

static int on_key(void *ctx, const struct il_ini_at *at, char *key, char *value,
		  char *msg, size_t msglen)
{
	struct reader *r = ctx;

	r->lineno = at->line;
	r->msg = msg;
	r->msglen = msglen;
	return read_key(r, at->text, key, value);
}

static int read_lines(struct reader *r, const char *text)
{
	static const struct il_ini_ops ops = {
		.section = on_section,
		.key = on_key,
	};

	return il_ini_parse(text, strlen(text), r->sc->file, &ops, r, r->err,
			    r->errlen);
}

/* "dir/pi-classic.job" -> "pi-classic" */
static void base_name(const char *path, char *buf, size_t len)
{
	const char *b = path ? strrchr(path, '/') : NULL, *dot;
	size_t n;

	b = b ? b + 1 : (path ? path : "");
	dot = strrchr(b, '.');
	n = dot && dot != b ? (size_t)(dot - b) : strlen(b);
	snprintf(buf, len, "%.*s", (int)n, b);
	if (!buf[0])
		snprintf(buf, len, "scenario");
}

int il_scenario_parse(const char *text, const char *file,
		      struct il_scenario *sc, char *err, size_t errlen)
{
	struct reader r = { .sc = sc, .idx = -1, .err = err, .errlen = errlen };
	char base[256];
	int ret;

	if (err && errlen)
		err[0] = '\0';
	base_name(file, base, sizeof(base));
	il_scenario_init(sc, base);
	snprintf(sc->file, sizeof(sc->file), "%s", file ? file : base);
	ret = read_lines(&r, text ? text : "");
	if (!ret)
		ret = il_scenario_check(sc, err, errlen);
	if (ret == -ENOMEM && err && errlen)
		snprintf(err, errlen, "%s: out of memory", sc->file);
	if (ret)
		il_scenario_free(sc);
	return ret;
}

int il_scenario_load(const char *path, struct il_scenario *sc, char *err,
		     size_t errlen)
{
	FILE *f = fopen(path, "re");
	char *buf, *nul;
	size_t n;
	int ret;

	memset(sc, 0, sizeof(*sc));
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	buf = malloc(JOBFILE_MAX + 1);
	if (!buf) {
		fclose(f);
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	n = fread(buf, 1, JOBFILE_MAX + 1, f);
	if (ferror(f)) {
		ret = errno ? -errno : -EIO;
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		goto out;
	}
	if (n > JOBFILE_MAX) {
		snprintf(err, errlen, "%s: larger than %d KiB; not a job file?",
			 path, JOBFILE_MAX / 1024);
		ret = -EINVAL;
		goto out;
	}
	buf[n] = '\0';
	/* the text would silently end there */
	nul = memchr(buf, '\0', n);
	if (nul) {
		int line = 1;

		for (char *p = buf; p < nul; p++)
			line += *p == '\n';
		snprintf(err, errlen, "%s:%d: NUL byte; not a text file?", path,
			 line);
		ret = -EINVAL;
		goto out;
	}
	ret = il_scenario_parse(buf, path, sc, err, errlen);
out:
	free(buf);
	fclose(f);
	return ret;
}
