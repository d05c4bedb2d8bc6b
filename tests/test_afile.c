// SPDX-License-Identifier: MIT
/*
 * Unit tests for lib/sys/afile.c: which names can take a result file (a new
 * name, a regular file, /dev/null, "-") and which are refused before a run
 * and again when the file is opened (a symbolic link, to a file or to a
 * device, a dangling one, a FIFO, a directory, a missing directory); a
 * refused name is left as it was, and a file written through the
 * temporary name replaces the old one whole.
 *
 * Run: meson test -C build afile   (or build/tests/test-afile)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <invlab/report.h>

#include "t_util.h"

static char dir[] = "/tmp/test-afile-XXXXXX";

static const char *at(const char *name)
{
	static char p[4][256];
	static int k;

	k = (k + 1) % 4;
	snprintf(p[k], sizeof(p[k]), "%s/%s", dir, name);
	return p[k];
}

static void put(const char *name, const char *text)
{
	FILE *f = fopen(at(name), "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static int content_is(const char *name, const char *text)
{
	char buf[256] = "";
	FILE *f = fopen(at(name), "r");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return !strcmp(buf, text);
}

/* files in dir besides the ones the test made */
static int entries(void)
{
	char cmd[300];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A %s | wc -l", dir);
	p = popen(cmd, "r");
	if (p) {
		if (fscanf(p, "%d", &n) != 1)
			n = -1;
		pclose(p);
	}
	return n;
}

static void refused(const char *name, int want, const char *says)
{
	struct il_afile a;
	char why[512];

	t_check_int(il_afile_check(at(name), why, sizeof(why)), want);
	t_check_contains(why, says);
	t_check_int(il_afile_open(&a, at(name)), want);
	t_check(a.f == NULL);
}

static void test_accepted(void)
{
	struct il_afile a;
	char why[512];
	int n0 = entries();

	t_check_int(il_afile_check("-", why, sizeof(why)), 0);
	t_check_int(il_afile_check("/dev/null", why, sizeof(why)), 0);
	t_check_int(il_afile_check(at("new.json"), why, sizeof(why)), 0);
	/* the probe leaves nothing */
	t_check_int(entries(), n0);

	put("old.json", "old");
	t_check_int(il_afile_check(at("old.json"), why, sizeof(why)), 0);
	t_check_int(il_afile_open(&a, at("old.json")), 0);
	t_check(a.tmp != NULL);
	fputs("new", a.f);
	/* not replaced before the commit */
	t_check(content_is("old.json", "old"));
	t_check_int(il_afile_commit(&a), 0);
	t_check(content_is("old.json", "new"));
	t_check_int(entries(), n0 + 1);

	/* /dev/null: written in place, no temporary file */
	t_check_int(il_afile_open(&a, "/dev/null"), 0);
	t_check(a.tmp == NULL);
	fputs("x", a.f);
	t_check_int(il_afile_commit(&a), 0);

	t_check_int(il_afile_check("", why, sizeof(why)), -EINVAL);
}

static void test_refused(void)
{
	int n0;

	put("victim", "keep");
	t_check_int(symlink(at("victim"), at("link.json")), 0);
	t_check_int(symlink("/dev/null", at("null-link")), 0);
	t_check_int(symlink("/dev/loop0", at("dev-link")), 0);
	t_check_int(symlink(at("nowhere"), at("dangling")), 0);
	t_check_int(mkfifo(at("fifo"), 0600), 0);
	t_check_int(mkdir(at("sub"), 0700), 0);
	n0 = entries();

	refused("link.json", -ELOOP, "symbolic link");
	t_check_int(il_afile_check(at("null-link"), NULL, 0), 0);
	refused("dev-link", -ELOOP, "symbolic link");
	refused("dangling", -ELOOP, "symbolic link");
	refused("fifo", -ENXIO, "FIFO");
	refused("sub", -EISDIR, "directory");
	refused("no-such-dir/x.json", -ENOENT, "cannot create");
	/* a device other than /dev/null */
	{
		char why[512];

		t_check_int(il_afile_check("/dev/zero", why, sizeof(why)),
			    -ENXIO);
		t_check_contains(why, "device");
	}

	/* nothing was written or created */
	t_check(content_is("victim", "keep"));
	t_check_int(entries(), n0);
	t_check_int(access(at("nowhere"), F_OK), -1);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 99;
	}
	test_accepted();
	test_refused();
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd))
			fprintf(stderr, "cannot remove %s\n", dir);
	}
	return t_done("test-afile");
}
