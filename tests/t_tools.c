// SPDX-License-Identifier: MIT
/*
 * Test helpers for the result tools: synthetic result files, running a
 * tool, and an XML well-formedness checker (see t_tools.h).
 *
 * The XML checker is deliberately small and strict: it accepts the subset
 * of XML 1.0 that JUnit reports and SVG charts use, and rejects anything
 * else, so a missing escape or an unclosed tag fails the test instead of
 * depending on whether xmllint happens to be installed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <invlab/report.h>

#include "t_tools.h"
#include "t_util.h"

static char tmpdir[256];
/* a ring, so that several t_tmp() can be arguments of one call */
static char tmpbuf[16][512];
static unsigned tmpnext;

const char *t_tmpdir(void)
{
	if (!tmpdir[0]) {
		const char *base = getenv("TMPDIR");

		snprintf(tmpdir, sizeof(tmpdir), "%s/invlab-t-XXXXXX",
			 base && *base ? base : "/tmp");
		if (!mkdtemp(tmpdir)) {
			perror("mkdtemp");
			exit(99);
		}
	}
	return tmpdir;
}

const char *t_tmp(const char *name)
{
	char *b = tmpbuf[tmpnext++ % 16];

	snprintf(b, sizeof(tmpbuf[0]), "%s/%s", t_tmpdir(), name);
	return b;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

void t_tmp_cleanup(void)
{
	if (!tmpdir[0])
		return;
	/* T_KEEP=1 keeps the files to look at after a failure */
	if (getenv("T_KEEP")) {
		fprintf(stderr, "kept %s\n", tmpdir);
		return;
	}
	/* depth first: the tests make directories of files too */
	nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	tmpdir[0] = '\0';
}

void t_sysinfo(struct il_sysinfo *si)
{
	memset(si, 0, sizeof(*si));
	snprintf(si->release, sizeof(si->release), "6.18.0-test");
	snprintf(si->version, sizeof(si->version), "#1 SMP PREEMPT_DYNAMIC");
	snprintf(si->machine, sizeof(si->machine), "x86_64");
	snprintf(si->hostname, sizeof(si->hostname), "lab1");
	snprintf(si->cmdline, sizeof(si->cmdline),
		 "root=/dev/vda1 console=ttyS0 quiet");
	si->config_proxy_exec = 0;
	si->proxy_exec_active = 0;
	snprintf(si->preempt_config, sizeof(si->preempt_config), "full");
	si->preempt_dynamic = 1;
	snprintf(si->preempt_current, sizeof(si->preempt_current), "full");
	si->hz = 1000;
	si->rt_group_sched = 0;
	si->rt_runtime_us = 950000;
	si->rt_period_us = 1000000;
	si->fair_server_runtime_ns = -1;
	si->fair_server_period_ns = -1;
	snprintf(si->cpu_model, sizeof(si->cpu_model), "Test CPU");
	si->cpus_online = 4;
	si->numa_nodes = 1;
	si->cgroup_version = 2;
	snprintf(si->virt, sizeof(si->virt), "kvm");
	si->steal_ns = 0;
}

void t_fill_hist(struct il_hist *h, uint64_t *seed, size_t n, double median_ns,
		 double spread)
{
	il_hist_init(h);
	for (size_t i = 0; i < n; i++) {
		double z = -6;

		/* Irwin-Hall: twelve uniforms less six is nearly N(0, 1) */
		for (int k = 0; k < 12; k++)
			z += (double)(t_rand(seed) >> 11) / 9007199254740992.0;
		il_hist_record(h,
			       (uint64_t)llround(median_ns * exp(spread * z)));
	}
}

int t_write_result(const char *path, const char *program,
		   const struct il_sysinfo *si, uint64_t cs_ns,
		   const struct t_run *runs, int nruns)
{
	static char *argv[] = { "synthetic", NULL };
	struct il_run_info ri = {
		.program = program, .argc = 1, .argv = argv, .sys = si
	};
	struct il_json j;
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -errno;
	clock_gettime(CLOCK_REALTIME, &ri.start);
	il_json_init(&j, f);
	il_report_begin(&j, &ri);
	il_json_begin_object(&j, "scenario");
	il_json_uint(&j, "cs_ns", cs_ns);
	il_json_end_object(&j);
	il_json_bool(&j, "interrupted", false);
	il_json_begin_array(&j, "runs");
	for (int i = 0; i < nruns; i++) {
		const struct t_run *r = &runs[i];

		il_json_begin_object(&j, NULL);
		il_json_str(&j, "configuration", r->configuration);
		il_json_str(&j, "verdict", r->verdict ? r->verdict : "PASS");
		il_json_str(&j, "expected", r->expected ? r->expected : "PASS");
		for (int k = 0; k < r->nhists; k++)
			il_json_hist(&j, r->hists[k].name, r->hists[k].h);
		il_json_end_object(&j);
	}
	il_json_end_array(&j);
	il_report_end(&j, 0);
	fputc('\n', f);
	ret = il_json_error(&j);
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

int t_write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int ret = 0;

	if (!f)
		return -errno;
	if (fputs(text, f) < 0)
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

size_t t_count(const char *hay, const char *needle)
{
	size_t n = 0, len = strlen(needle);

	for (const char *p = hay; p && len && (p = strstr(p, needle)); p += len)
		n++;
	return n;
}

void t_check_printable(const char *what, const char *text)
{
	const unsigned char *s = (const unsigned char *)(text ? text : "");
	size_t i;

	for (i = 0; s[i]; i++) {
		if ((s[i] < 0x20 && s[i] != '\t' && s[i] != '\n') ||
		    s[i] == 0x7f ||
		    (s[i] == 0xc2 && s[i + 1] >= 0x80 && s[i + 1] < 0xa0))
			break;
	}
	t_check(!s[i]);
	if (s[i])
		fprintf(stderr, "  %s: byte 0x%02x at offset %zu\n", what, s[i],
			i);
}

char *t_read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, got;

	if (!f)
		return NULL;
	do {
		if (len + 4096 + 1 > cap) {
			char *nb;

			cap = cap ? 2 * cap : 65536;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + len, 1, cap - len - 1, f);
		len += got;
	} while (got > 0);
	fclose(f);
	buf[len] = '\0';
	return buf;
}

int t_run_tool(char *const argv[], char **out, char **err)
{
	static int seq;
	char po[600], pe[600];
	int status, fo, fe;
	pid_t pid;

	snprintf(po, sizeof(po), "%s/run-%d.out", t_tmpdir(), seq);
	snprintf(pe, sizeof(pe), "%s/run-%d.err", t_tmpdir(), seq++);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		fo = open(po, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		fe = open(pe, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fo < 0 || fe < 0 || dup2(fo, 1) < 0 || dup2(fe, 2) < 0)
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (out)
		*out = t_read_file(po);
	if (err)
		*err = t_read_file(pe);
	unlink(po);
	unlink(pe);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void t_check_man_page(const char *tool, const char *man)
{
	char *argv[] = { (char *)tool, "--help", NULL };
	char *help = NULL, *page = t_read_file(man), *p;
	int rc = t_run_tool(argv, &help, NULL), n = 0;

	t_check_int(rc, 0);
	t_check(page != NULL);
	if (!help || !page) {
		free(help);
		free(page);
		return;
	}
	t_check_contains(help, "Usage:");
	for (p = strstr(help, "--"); p; p = strstr(p + 2, "--")) {
		char name[64], roff[160];
		size_t len = 0, r = 0;

		if (!((p[2] >= 'a' && p[2] <= 'z')))
			continue;
		while (len + 1 < sizeof(name) &&
		       ((p[2 + len] >= 'a' && p[2 + len] <= 'z') ||
			p[2 + len] == '-'))
			len++;
		memcpy(name, p + 2, len);
		name[len] = '\0';
		/* "\-\-name" with every '-' of the name escaped too */
		r += (size_t)snprintf(roff, sizeof(roff), "\\-\\-");
		for (size_t i = 0; i < len && r + 3 < sizeof(roff); i++) {
			if (name[i] == '-')
				roff[r++] = '\\';
			roff[r++] = name[i];
		}
		roff[r] = '\0';
		t_check_contains(page, roff);
		n++;
	}
	/* the --help of these tools has at least --help and --version */
	t_check(n >= 2);
	free(help);
	free(page);
}

/* ---- XML ------------------------------------------------------------- */

struct xml {
	const char *s, *p;
	char *err;
	size_t errlen;
};

static int xfail(struct xml *x, const char *why)
{
	snprintf(x->err, x->errlen, "offset %ld: %s", (long)(x->p - x->s), why);
	return -1;
}

static bool name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       c == ':' || (unsigned char)c >= 0x80;
}

static bool name_char(char c)
{
	return name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

static bool bad_char(char c)
{
	unsigned char u = (unsigned char)c;

	return u < 0x20 && u != '\t' && u != '\n' && u != '\r';
}

static void skip_ws(struct xml *x)
{
	while (*x->p == ' ' || *x->p == '\t' || *x->p == '\n' || *x->p == '\r')
		x->p++;
}

/* a name at x->p; its length, 0 when there is none */
static size_t xname(struct xml *x)
{
	const char *b = x->p;

	if (!name_start(*x->p))
		return 0;
	while (name_char(*x->p))
		x->p++;
	return (size_t)(x->p - b);
}

/* "&...;" at x->p */
static int xref(struct xml *x)
{
	static const char *const ent[] = { "lt;", "gt;", "amp;", "quot;",
					   "apos;" };

	x->p++;
	if (*x->p == '#') {
		bool hex = x->p[1] == 'x';
		int n = 0;

		x->p += hex ? 2 : 1;
		while ((hex && strchr("0123456789abcdefABCDEF", *x->p) &&
			*x->p) ||
		       (!hex && *x->p >= '0' && *x->p <= '9')) {
			x->p++;
			n++;
		}
		if (!n || *x->p != ';')
			return xfail(x, "bad character reference");
		x->p++;
		return 0;
	}
	for (size_t i = 0; i < sizeof(ent) / sizeof(ent[0]); i++) {
		if (!strncmp(x->p, ent[i], strlen(ent[i]))) {
			x->p += strlen(ent[i]);
			return 0;
		}
	}
	return xfail(x, "unknown entity or bare '&'");
}

/* text up to the next '<' */
static int xtext(struct xml *x, bool *nonblank)
{
	while (*x->p && *x->p != '<') {
		if (bad_char(*x->p))
			return xfail(x, "control character");
		if (*x->p == '&') {
			if (xref(x))
				return -1;
			*nonblank = true;
			continue;
		}
		if (!strchr(" \t\r\n", *x->p))
			*nonblank = true;
		x->p++;
	}
	return 0;
}

/* "<!--", "<?", "<![CDATA[": skip to their end */
static int xskip(struct xml *x, const char *open, const char *close,
		 bool no_dashes)
{
	const char *e;

	x->p += strlen(open);
	e = strstr(x->p, close);
	if (!e)
		return xfail(x, "unterminated comment, PI or CDATA");
	for (const char *c = x->p; c < e; c++) {
		if (bad_char(*c))
			return xfail(x, "control character");
		if (no_dashes && c[0] == '-' && c[1] == '-')
			return xfail(x, "'--' inside a comment");
	}
	x->p = e + strlen(close);
	return 0;
}

/* a start tag at x->p (after '<'); *empty when it ends in "/>" */
static int xstart(struct xml *x, const char **name, size_t *nlen, bool *empty)
{
	const char *attrs[64];
	size_t alen[64];
	int na = 0;

	*name = x->p;
	*nlen = xname(x);
	if (!*nlen)
		return xfail(x, "bad element name");
	for (;;) {
		const char *an;
		size_t al;
		char q;

		bool ws = strchr(" \t\r\n", *x->p) && *x->p;

		skip_ws(x);
		if (*x->p == '>') {
			x->p++;
			*empty = false;
			return 0;
		}
		if (x->p[0] == '/' && x->p[1] == '>') {
			x->p += 2;
			*empty = true;
			return 0;
		}
		if (!ws)
			return xfail(x, "attributes need a blank before them");
		an = x->p;
		al = xname(x);
		if (!al)
			return xfail(x, "bad attribute name");
		for (int i = 0; i < na; i++)
			if (alen[i] == al && !strncmp(attrs[i], an, al))
				return xfail(x, "duplicate attribute");
		if (na < 64) {
			attrs[na] = an;
			alen[na++] = al;
		}
		skip_ws(x);
		if (*x->p != '=')
			return xfail(x, "attribute without '='");
		x->p++;
		skip_ws(x);
		q = *x->p;
		if (q != '"' && q != '\'')
			return xfail(x, "unquoted attribute value");
		x->p++;
		while (*x->p != q) {
			if (!*x->p || *x->p == '<')
				return xfail(x, "'<' or end in an attribute");
			if (bad_char(*x->p))
				return xfail(x, "control character");
			if (*x->p == '&') {
				if (xref(x))
					return -1;
				continue;
			}
			x->p++;
		}
		x->p++;
	}
}

int t_xml_check(const char *text, char *err, size_t errlen)
{
	struct xml x = { text, text, err, errlen };
	const char *stack[256];
	size_t slen[256];
	int depth = 0, roots = 0;

	if (!text)
		return snprintf(err, errlen, "no text"), -1;
	if (!strncmp(x.p, "<?xml", 5) && xskip(&x, "<?", "?>", false))
		return -1;
	for (;;) {
		bool nonblank = false;

		if (xtext(&x, &nonblank))
			return -1;
		if (nonblank && !depth)
			return xfail(&x, "text outside the root element");
		if (!*x.p)
			break;
		if (!strncmp(x.p, "<!--", 4)) {
			if (xskip(&x, "<!--", "-->", true))
				return -1;
		} else if (!strncmp(x.p, "<![CDATA[", 9)) {
			if (!depth)
				return xfail(&x, "CDATA outside the root");
			if (xskip(&x, "<![CDATA[", "]]>", false))
				return -1;
		} else if (!strncmp(x.p, "<?", 2)) {
			if (!strncmp(x.p, "<?xml", 5) && !name_char(x.p[5]))
				return xfail(&x, "XML declaration not first");
			if (xskip(&x, "<?", "?>", false))
				return -1;
		} else if (!strncmp(x.p, "<!", 2)) {
			return xfail(&x, "DOCTYPE or other declaration");
		} else if (x.p[1] == '/') {
			const char *n;
			size_t l;

			x.p += 2;
			n = x.p;
			l = xname(&x);
			if (!depth || l != slen[depth - 1] ||
			    strncmp(n, stack[depth - 1], l))
				return xfail(&x, "end tag does not match");
			skip_ws(&x);
			if (*x.p != '>')
				return xfail(&x, "bad end tag");
			x.p++;
			depth--;
		} else {
			const char *n;
			size_t l;
			bool empty;

			x.p++;
			if (!depth && roots++)
				return xfail(&x, "a second root element");
			if (xstart(&x, &n, &l, &empty))
				return -1;
			if (!empty) {
				if (depth == 256)
					return xfail(&x, "nested too deep");
				stack[depth] = n;
				slen[depth++] = l;
			}
		}
	}
	if (depth)
		return xfail(&x, "element not closed at the end");
	if (!roots)
		return xfail(&x, "no root element");
	return 0;
}

int t_run_toolv(const char *prog, char **out, char **err, ...)
{
	char *argv[40];
	va_list ap;
	int n = 0;

	argv[n++] = (char *)prog;
	va_start(ap, err);
	while (n < 39 && (argv[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	return t_run_tool(argv, out, err);
}
