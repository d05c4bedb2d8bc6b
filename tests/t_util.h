/* SPDX-License-Identifier: MIT */
/*
 * Minimal test helpers: each failed check prints file:line and the
 * expression, the test exits 1 when any check failed, 0 otherwise.
 */
#ifndef T_UTIL_H
#define T_UTIL_H

#include <stdint.h>
#include <stdio.h>

extern int t_failures;
extern int t_checks;

#define t_check(cond)                                                          \
	do {                                                                   \
		t_checks++;                                                    \
		if (!(cond)) {                                                 \
			t_failures++;                                          \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, \
				__LINE__, #cond);                              \
		}                                                              \
	} while (0)

#define t_check_int(a, b)                                                      \
	do {                                                                   \
		long long t_a_ = (long long)(a), t_b_ = (long long)(b);        \
		t_checks++;                                                    \
		if (t_a_ != t_b_) {                                            \
			t_failures++;                                          \
			fprintf(stderr, "%s:%d: %s == %lld, expected %lld\n",  \
				__FILE__, __LINE__, #a, t_a_, t_b_);           \
		}                                                              \
	} while (0)

#define t_check_str(a, b) t_check_str_(__FILE__, __LINE__, #a, (a), (b))
#define t_check_contains(hay, needle)                                          \
	t_check_contains_(__FILE__, __LINE__, #hay, (hay), (needle))

void t_check_str_(const char *file, int line, const char *expr, const char *a,
		  const char *b);
void t_check_contains_(const char *file, int line, const char *expr,
		       const char *hay, const char *needle);
/* print "N passed, M failed" and return the exit code */
int t_done(const char *name);
/* deterministic xorshift64* generator for synthetic data */
uint64_t t_rand(uint64_t *state);

#endif
