/* SPDX-License-Identifier: MIT */
/*
 * "Did you mean": the closest of a list of names to a misspelt one (a
 * unique prefix first, then the smallest edit distance within
 * max(2, len / 3)), or NULL when none is close.
 */
#ifndef INVLAB_SUGGEST_H
#define INVLAB_SUGGEST_H

#include <stddef.h>

/* longest name the edit distance is computed for */
#define IL_SUGGEST_MAX_LEN 64

/*
 * The closest of n NUL-terminated candidates to typed: the "did you
 * mean" of option names, for any list of names (a profile's sections,
 * histograms).  NULL candidates are passed over.
 */
const char *il_suggest(const char *typed, const char *const *cands, size_t n);

/*
 * The same search one candidate at a time, for candidates that are not
 * NUL-terminated strings of their own (the '|'-separated choices of an
 * option, a name cut at its '='): init with what was typed, consider
 * each candidate, then result gives the closest one and its length, or
 * NULL.  typed and the candidates must outlive the search.
 */
struct il_suggest {
	const char *typed;
	size_t typed_len;
	const char *best;
	size_t best_len;
	unsigned int best_dist;
	const char *prefix;
	size_t prefix_len;
	int prefixes;
};
void il_suggest_init(struct il_suggest *s, const char *typed, size_t len);
void il_suggest_consider(struct il_suggest *s, const char *cand, size_t len);
const char *il_suggest_result(const struct il_suggest *s, size_t *len);

#endif
