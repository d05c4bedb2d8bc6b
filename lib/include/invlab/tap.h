/* SPDX-License-Identifier: MIT */
/*
 * TAP 13 output for the kernel tests and the programs' --tap
 * (lib/util/tap.c).
 */
#ifndef INVLAB_TAP_H
#define INVLAB_TAP_H

#include <stdbool.h>
#include <stdio.h>

void il_tap_version(FILE *f);
void il_tap_plan(FILE *f, int n);
/* "1..0 # SKIP why": nothing runs, and why (one line) */
void il_tap_skip_all(FILE *f, const char *why);
/* directive: NULL, or "SKIP reason" / "TODO reason" */
void il_tap_result(FILE *f, bool ok, int n, const char *desc,
		   const char *directive);
void il_tap_diag(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
