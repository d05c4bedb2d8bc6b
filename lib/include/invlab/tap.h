/* SPDX-License-Identifier: MIT */
/*
 * TAP 13 output for the kernel tests and the programs' --tap, and KTAP
 * version 1 (the kernel's dialect) for --ktap (lib/util/tap.c).
 */
#ifndef INVLAB_TAP_H
#define INVLAB_TAP_H

#include <stdbool.h>
#include <stdio.h>

/*
 * The two dialects differ in their version line and in what becomes of
 * a '#' in a description, where it would start a directive: TAP 13
 * escapes it ("\#"); KTAP has no escape (its description is "any
 * string of characters other than # or a newline",
 * Documentation/dev-tools/ktap.rst), so there it becomes '_'.  Plan,
 * skip plan and diagnostics are the same in both.
 */
enum il_tap_dialect {
	IL_TAP_13 = 0, /* "TAP version 13" */
	IL_KTAP_1,     /* "KTAP version 1" */
};

void il_tap_version(FILE *f);
void il_tap_version_in(FILE *f, enum il_tap_dialect d);
void il_tap_plan(FILE *f, int n);
/* "1..0 # SKIP why": nothing runs, and why (one line) */
void il_tap_skip_all(FILE *f, const char *why);
/* directive: NULL, or "SKIP reason" / "TODO reason" */
void il_tap_result(FILE *f, bool ok, int n, const char *desc,
		   const char *directive);
void il_tap_result_in(FILE *f, enum il_tap_dialect d, bool ok, int n,
		      const char *desc, const char *directive);
void il_tap_diag(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
