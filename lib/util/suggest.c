// SPDX-License-Identifier: MIT
/*
 * "Did you mean": the closest of a list of names to a misspelt one.
 *
 * Option names and choice values (scenario/opt.c), probe keys
 * (trace/probe-parse.c) and the tools' profile sections and metrics all
 * suggest the same way, so the search lives here, below all of them.
 *
 * A candidate is close when its edit distance is at most max(2, len / 3)
 * of the typed length, and also below that length, so that "-ab" does
 * not suggest "tap" (everything short is within 2 edits of everything
 * short).  A unique prefix wins over both: "--prot" was an abbreviation
 * of --protocol (getopt would have accepted it), not a typo of --prio.
 */
#include <limits.h>
#include <string.h>

#include <invlab/suggest.h>

/* Levenshtein distance, two rows; UINT_MAX when a string is too long */
static unsigned int edit_distance(const char *a, size_t la, const char *b,
				  size_t lb)
{
	unsigned int row[IL_SUGGEST_MAX_LEN + 1];

	if (la > IL_SUGGEST_MAX_LEN || lb > IL_SUGGEST_MAX_LEN)
		return UINT_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = (unsigned int)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned int diag = row[0];

		row[0] = (unsigned int)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned int up = row[j];
			unsigned int best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

void il_suggest_init(struct il_suggest *s, const char *typed, size_t len)
{
	memset(s, 0, sizeof(*s));
	s->typed = typed;
	s->typed_len = len;
	s->best_dist = UINT_MAX;
}

void il_suggest_consider(struct il_suggest *s, const char *cand, size_t len)
{
	unsigned int d = edit_distance(s->typed, s->typed_len, cand, len);
	unsigned int limit = (unsigned int)(s->typed_len / 3);

	if (limit < 2)
		limit = 2;
	if (d <= limit && d < s->typed_len && d < s->best_dist) {
		s->best = cand;
		s->best_len = len;
		s->best_dist = d;
	}
	if (s->typed_len && s->typed_len < len &&
	    !strncmp(cand, s->typed, s->typed_len)) {
		s->prefix = cand;
		s->prefix_len = len;
		s->prefixes++;
	}
}

const char *il_suggest_result(const struct il_suggest *s, size_t *len)
{
	if (s->prefixes == 1) {
		*len = s->prefix_len;
		return s->prefix;
	}
	if (s->best) {
		*len = s->best_len;
		return s->best;
	}
	return NULL;
}

const char *il_suggest(const char *typed, const char *const *cands, size_t n)
{
	struct il_suggest s;
	size_t rlen;

	il_suggest_init(&s, typed, strlen(typed));
	for (size_t i = 0; i < n; i++)
		if (cands[i])
			il_suggest_consider(&s, cands[i], strlen(cands[i]));
	return il_suggest_result(&s, &rlen);
}
