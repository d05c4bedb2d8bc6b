// SPDX-License-Identifier: MIT
/*
 * The one INI reader (lib/util/ini.c): what reaches the callbacks, and the
 * FILE:LINE errors of the reader and of the callbacks.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include <invlab/ini.h>

#include "t_util.h"

/* every callback, as one line of text: "3 [name|after]" or "4 key=value" */
struct log {
	char text[2048];
	const char *fail_key; /* this key fails, with a message */
};

static int on_section(void *ctx, const struct il_ini_at *at, char *name,
		      char *after, char *msg, size_t len)
{
	struct log *l = ctx;
	size_t n = strlen(l->text);

	snprintf(l->text + n, sizeof(l->text) - n, "%d [%s|%s]\n", at->line,
		 name ? name : "(none)", after);
	return 0;
}

static int on_key(void *ctx, const struct il_ini_at *at, char *key, char *value,
		  char *msg, size_t len)
{
	struct log *l = ctx;
	size_t n = strlen(l->text);

	if (l->fail_key && !strcmp(key, l->fail_key)) {
		snprintf(msg, len, "bad key '%s'", key);
		return -EINVAL;
	}
	if (l->fail_key && !strcmp(l->fail_key, "nomem"))
		return -ENOMEM;
	snprintf(l->text + n, sizeof(l->text) - n, "%d %s=%s (%s)\n", at->line,
		 key, value ? value : "(none)", at->text);
	return 0;
}

static int parse(const char *text, size_t len, const char *ops_chars,
		 struct log *l, char *err, size_t errlen)
{
	const struct il_ini_ops ops = {
		.section = on_section,
		.key = on_key,
		.op_chars = ops_chars,
	};

	return il_ini_parse(text, len, "t.ini", &ops, l, err, errlen);
}

int main(void)
{
	static const char text[] = "\xef\xbb\xbf; comment\r\n"
				   "[ sec one ]  \r\n"
				   "  key = a value ; comment\n"
				   "hash = C#;x # trailing\n"
				   "# whole line\n"
				   "\n"
				   "[open\n"
				   "[x] junk\n"
				   "novalue\n"
				   "a.b <= 3ms\n"
				   "=5\n"
				   "last=1";
	struct log l = { .fail_key = NULL };
	char err[256];

	t_check_int(parse(text, sizeof(text) - 1, "<>", &l, err, sizeof(err)),
		    0);
	t_check_str(l.text, "2 [sec one|]\n"
			    "3 key=a value (key = a value)\n"
			    "4 hash=C#;x (hash = C#;x)\n"
			    "7 [(none)|]\n"
			    "8 [x|junk]\n"
			    "9 novalue=(none) (novalue)\n"
			    "10 a.b <= 3ms=(none) (a.b <= 3ms)\n"
			    "11 =5 (=5)\n"
			    "12 last=1 (last=1)\n");
	/* without operators, the first '=' splits */
	memset(&l, 0, sizeof(l));
	t_check_int(parse("a.b <= 3\n", 9, NULL, &l, err, sizeof(err)), 0);
	t_check_str(l.text, "1 a.b <=3 (a.b <= 3)\n");

	/* the reader's refusals */
	memset(&l, 0, sizeof(l));
	t_check_int(parse("a=1\nb=\x01\n", 8, NULL, &l, err, sizeof(err)),
		    -EINVAL);
	t_check_str(err, "t.ini:2: control character 0x01");
	t_check_int(parse("a=1\n\nb=x\0y\n", 10, NULL, &l, err, sizeof(err)),
		    -EINVAL);
	t_check_str(err, "t.ini:3: NUL byte; not a text file?");
	/* a callback's message gets the prefix; the first error stops */
	memset(&l, 0, sizeof(l));
	l.fail_key = "b";
	t_check_int(parse("a=1\nb=2\nc=3\n", 12, NULL, &l, err, sizeof(err)),
		    -EINVAL);
	t_check_str(err, "t.ini:2: bad key 'b'");
	t_check_str(l.text, "1 a=1 (a=1)\n");
	l.fail_key = "nomem";
	t_check_int(parse("a=1\n", 4, NULL, &l, err, sizeof(err)), -ENOMEM);
	t_check_str(err, "t.ini:1: out of memory");

	/* files: regular, bounded */
	{
		const struct il_ini_ops ops = { .key = on_key };
		char path[] = "/tmp/invlab-ini-XXXXXX";
		int fd = mkstemp(path);
		FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

		t_check(f != NULL);
		if (f) {
			fputs("k = v\n", f);
			fclose(f);
		}
		memset(&l, 0, sizeof(l));
		t_check_int(il_ini_load(path, 1024, &ops, &l, err, sizeof(err)),
			    0);
		t_check_str(l.text, "1 k=v (k = v)\n");
		t_check_int(il_ini_load(path, 5, &ops, &l, err, sizeof(err)),
			    -EFBIG);
		t_check_contains(err, "6 bytes, over the limit of 5");
		t_check_int(il_ini_load("/dev/zero", 1024, &ops, &l, err,
					sizeof(err)),
			    -EINVAL);
		t_check_contains(err, "/dev/zero: not a regular file");
		t_check_int(
			il_ini_load("/tmp", 1024, &ops, &l, err, sizeof(err)),
			-EINVAL);
		unlink(path);
		t_check_int(il_ini_load(path, 1024, &ops, &l, err, sizeof(err)),
			    -ENOENT);
	}
	return t_done("ini");
}
