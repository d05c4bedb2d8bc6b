/* SPDX-License-Identifier: MIT */
/*
 * A result file's text cut down to what the result tools read
 * (tools/lean.c), before json-c parses it.
 */
#ifndef INVLAB_LEAN_H
#define INVLAB_LEAN_H

#include <stddef.h>
#include <stdint.h>

/*
 * Nesting the cut takes on (objects and arrays, the outermost counted);
 * deeper text is left to json-c, whose own limit is 32
 * (JSON_TOKENER_DEFAULT_DEPTH) and whose message it then gives.
 */
#define IL_LEAN_MAX_DEPTH 30

/*
 * The histograms' bins the cut read itself: json-c would make three
 * objects of each [lo_ns, count] pair, and the pairs are most of what
 * is left of a result file once its judge inputs are cut.  Bins array i
 * is pairs pair[2 * first[i]] .. pair[2 * first[i + 1]] (lo, count, lo,
 * count, ...).
 */
struct il_lean_bins {
	uint64_t *pair;
	size_t npairs, pairs_cap;
	size_t *first; /* n + 1 entries */
	size_t n, first_cap;
};
void il_lean_bins_free(struct il_lean_bins *b);

/*
 * Copy the JSON text in (len bytes) to out (room for len bytes at least)
 * without the white space between tokens and without what only
 * invlab-judge reads: of each run's "judge_inputs" (root.runs[i]) only
 * "job_text" stays (what --by reads of a job).  Every other byte of
 * every token is copied as it is, so json-c reads the same values from
 * out as from in, but for one thing, with bins not NULL (zeroed, or
 * used before): the "bins" of a histogram (an object that is the value
 * of a member named ..._ns) outside what is cut, when it is a non-empty
 * array of [lo, count] pairs of plain integers below 10^18, is read
 * into bins, and out has its index there (a number, which no "bins" of
 * in is: the cut refuses a text that has one).
 *
 * The text is checked on the way as strict JSON (RFC 8259): one value,
 * then white space alone.  0 with *outlen; -EINVAL when in is not such
 * a text (not JSON, or JSON beyond the strict grammar that json-c
 * accepts: comments, NaN, a control character in a string), nested
 * deeper than IL_LEAN_MAX_DEPTH, has a member whose name is written
 * with an escape (json-c would read it as the name without, which the
 * cut does not look for), or a "bins" that is a number; -ENOMEM when
 * bins cannot grow.  On an error the caller parses in whole, as
 * without the cut, and so keeps json-c's verdict and message on it.
 */
int il_lean_cut(const char *in, size_t len, char *out, size_t *outlen,
		struct il_lean_bins *bins);

#endif
