// SPDX-License-Identifier: MIT
/* Test helpers: check accounting and a deterministic random generator. */
#include <stdio.h>
#include <string.h>

#include "t_util.h"

int t_failures;
int t_checks;

void t_check_str_(const char *file, int line, const char *expr, const char *a,
		  const char *b)
{
	t_checks++;
	if (a == b || (a && b && strcmp(a, b) == 0))
		return;
	t_failures++;
	fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", file, line,
		expr, a ? a : "(null)", b ? b : "(null)");
}

void t_check_contains_(const char *file, int line, const char *expr,
		       const char *hay, const char *needle)
{
	t_checks++;
	if (hay && strstr(hay, needle))
		return;
	t_failures++;
	fprintf(stderr, "%s:%d: %s == \"%s\", expected it to contain \"%s\"\n",
		file, line, expr, hay ? hay : "(null)", needle);
}

int t_done(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, t_checks - t_failures,
	       t_failures);
	return t_failures ? 1 : 0;
}

uint64_t t_rand(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1Dull;
}
