// SPDX-License-Identifier: MIT
/*
 * TAP 13 output, for the kernel suite: meson runs those tests with
 * protocol 'tap', so every check of a demo shows up as its own result
 * and a SKIP carries its reason.  The same lines in KTAP version 1, the
 * kernel's dialect, for kselftest (docs/kselftest.md).
 *
 * A description or diagnostic may come from anywhere (a kernel string,
 * an error message), so the writer keeps the stream parseable: '#' in a
 * description is escaped (TAP) or replaced (KTAP, which has no escape),
 * a newline cannot start a new line, and every line of a diagnostic is
 * a "# " comment.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <invlab/tap.h>

void il_tap_version_in(FILE *f, enum il_tap_dialect d)
{
	if (f)
		fputs(d == IL_KTAP_1 ? "KTAP version 1\n" : "TAP version 13\n",
		      f);
}

void il_tap_version(FILE *f)
{
	il_tap_version_in(f, IL_TAP_13);
}

void il_tap_plan(FILE *f, int n)
{
	if (f)
		fprintf(f, "1..%d\n", n < 0 ? 0 : n);
}

void il_tap_skip_all(FILE *f, const char *why)
{
	if (!f)
		return;
	fputs("1..0 # SKIP ", f);
	for (const char *p = why ? why : ""; *p; p++)
		fputc(*p == '\n' || *p == '\r' ? ' ' : *p, f);
	fputc('\n', f);
}

void il_tap_result_in(FILE *f, enum il_tap_dialect d, bool ok, int n,
		      const char *desc, const char *directive)
{
	const char *p;

	if (!f)
		return;
	fprintf(f, "%s %d", ok ? "ok" : "not ok", n);
	if (desc && desc[0]) {
		fputs(" - ", f);
		for (p = desc; *p; p++) {
			/* '#' would start a directive, a newline a new line */
			if (*p == '#')
				fputs(d == IL_KTAP_1 ? "_" : "\\#", f);
			else if (*p == '\n' || *p == '\r')
				fputc(' ', f);
			else
				fputc(*p, f);
		}
	}
	if (directive && directive[0]) {
		fputs(" # ", f);
		for (p = directive; *p; p++)
			fputc(*p == '\n' || *p == '\r' ? ' ' : *p, f);
	}
	fputc('\n', f);
}

void il_tap_result(FILE *f, bool ok, int n, const char *desc,
		   const char *directive)
{
	il_tap_result_in(f, IL_TAP_13, ok, n, desc, directive);
}

void il_tap_diag(FILE *f, const char *fmt, ...)
{
	va_list ap;
	char *msg = NULL, *line, *nl;
	int n;

	if (!f || !fmt)
		return;
	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	/* one trailing newline is the end of the message, not an empty line */
	if (n > 0 && msg[n - 1] == '\n')
		msg[n - 1] = '\0';
	for (line = msg;; line = nl + 1) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		/* no trailing blank on an empty diagnostic line */
		fprintf(f, line[0] ? "# %s\n" : "#%s\n", line);
		if (!nl)
			break;
	}
	free(msg);
}
