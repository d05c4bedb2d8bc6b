// SPDX-License-Identifier: MIT
/*
 * A result file's text cut down to what the result tools read.
 *
 * Three quarters of a run of a result file are its "judge_inputs" (every
 * wait of every task, the job's text, the steal timeline: what
 * invlab-judge re-derives the verdicts from), which invlab-compare,
 * invlab-gate and invlab-plot never read; and json-c, which builds an
 * object for every value it reads, spends most of a lab's comparison on
 * them.  So before json-c parses a file for those tools, one pass over
 * its text checks it as JSON and copies it without the judge inputs
 * (their job_text aside, which --by reads) and without the white space
 * of a pretty file.  It copies tokens as they are, so the values json-c
 * then reads are the file's own, with one exception: the [lo, count]
 * pairs of a histogram's bins, most of what is left and three json-c
 * objects each, it reads itself into a table and leaves their index in
 * their place (a "bins" that is a number in the file makes it refuse
 * the file, so that an index is always its own).
 *
 * The pass vouches only for strict JSON.  Whatever it does not take
 * (broken text, json-c's extensions, escaped member names, deep
 * nesting) is parsed whole, as before, so that what json-c accepts and
 * the messages it gives do not change.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lean.h"

/* where a value is, for what the cut keeps of it */
enum ctx {
	CTX_OTHER,
	CTX_ROOT, /* the document */
	CTX_RUNS, /* root.runs */
	CTX_RUN,  /* root.runs[i] */
	CTX_JI,	  /* root.runs[i].judge_inputs */
	CTX_HIST, /* a member named ..._ns: a histogram when an object */
};

struct lean {
	const char *in;
	size_t len, pos;
	char *out;
	size_t opos;
	int depth;
	int drop; /* inside a member that is dropped: nothing to copy */
	struct il_lean_bins *bins; /* NULL: bins stay arrays */
};

static inline void ws(struct lean *l)
{
	const char *in = l->in;
	size_t pos = l->pos, len = l->len;

	while (pos < len && (in[pos] == ' ' || in[pos] == '\n' ||
			     in[pos] == '\t' || in[pos] == '\r'))
		pos++;
	l->pos = pos;
}

static inline void emit(struct lean *l, const char *s, size_t n)
{
	if (l->drop)
		return;
	memcpy(l->out + l->opos, s, n);
	l->opos += n;
}

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

/*
 * What a byte is inside a string: 0 itself, 1 the end or an escape, 2
 * never there (a control character).
 */
static const unsigned char str_class[256] = {
	[0 ... 0x1f] = 2,
	['"'] = 1,
	['\\'] = 1,
};

/*
 * A string at l->pos (its opening quote), copied; *escaped says whether
 * it has an escape.  The text between the quotes is in[*from, *to).
 */
static int string(struct lean *l, bool *escaped, size_t *from, size_t *to)
{
	const char *in = l->in;
	size_t start = l->pos, pos = l->pos, len = l->len;

	*escaped = false;
	if (pos >= len || in[pos] != '"')
		return -EINVAL;
	*from = ++pos;
	for (;;) {
		unsigned char c;

		while (pos < len && !str_class[(unsigned char)in[pos]])
			pos++;
		if (pos >= len)
			return -EINVAL;
		c = (unsigned char)in[pos];
		if (c == '"')
			break;
		if (c != '\\')
			return -EINVAL;
		*escaped = true;
		if (pos + 1 >= len)
			return -EINVAL;
		c = (unsigned char)in[pos + 1];
		if (c == 'u') {
			if (pos + 6 > len)
				return -EINVAL;
			for (size_t i = 2; i < 6; i++)
				if (!is_hex(in[pos + i]))
					return -EINVAL;
			pos += 6;
		} else if (c && strchr("\"\\/bfnrt", c)) {
			pos += 2;
		} else {
			return -EINVAL;
		}
	}
	*to = pos;
	l->pos = pos + 1;
	emit(l, in + start, l->pos - start);
	return 0;
}

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, copied */
static int number(struct lean *l)
{
	const char *in = l->in;
	size_t start = l->pos, pos = l->pos, len = l->len, d;

	if (pos < len && in[pos] == '-')
		pos++;
	if (pos < len && in[pos] == '0') {
		pos++;
	} else {
		for (d = pos; pos < len && is_digit(in[pos]);)
			pos++;
		if (pos == d)
			return -EINVAL;
	}
	if (pos < len && in[pos] == '.') {
		for (d = ++pos; pos < len && is_digit(in[pos]);)
			pos++;
		if (pos == d)
			return -EINVAL;
	}
	if (pos < len && (in[pos] == 'e' || in[pos] == 'E')) {
		pos++;
		if (pos < len && (in[pos] == '+' || in[pos] == '-'))
			pos++;
		for (d = pos; pos < len && is_digit(in[pos]);)
			pos++;
		if (pos == d)
			return -EINVAL;
	}
	l->pos = pos;
	emit(l, in + start, pos - start);
	return 0;
}

static int literal(struct lean *l, const char *word)
{
	size_t n = strlen(word);

	if (l->len - l->pos < n || memcmp(l->in + l->pos, word, n))
		return -EINVAL;
	l->pos += n;
	emit(l, word, n);
	return 0;
}

void il_lean_bins_free(struct il_lean_bins *b)
{
	free(b->pair);
	free(b->first);
	memset(b, 0, sizeof(*b));
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t ncap = *cap ? *cap : 64;
	void *np;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	np = realloc(*p, ncap * size);
	if (!np)
		return -ENOMEM;
	*p = np;
	*cap = ncap;
	return 0;
}

/* a plain integer below 10^18 (1 to 18 digits, no sign, no leading 0) */
static bool small_uint(struct lean *l, uint64_t *v)
{
	const char *in = l->in;
	size_t pos = l->pos, len = l->len, start = pos;
	uint64_t x = 0;

	if (pos < len && in[pos] == '0') {
		pos++;
	} else {
		while (pos < len && is_digit(in[pos]) && pos - start < 18)
			x = x * 10 + (uint64_t)(in[pos++] - '0');
		if (pos == start)
			return false;
	}
	/* anything that would make it another number (or a longer one) */
	if (pos < len && (is_digit(in[pos]) || in[pos] == '.' ||
			  in[pos] == 'e' || in[pos] == 'E'))
		return false;
	*v = x;
	l->pos = pos;
	return true;
}

static bool at(struct lean *l, char c)
{
	ws(l);
	if (l->pos < l->len && l->in[l->pos] == c) {
		l->pos++;
		return true;
	}
	return false;
}

/*
 * A bins array at l->pos read into l->bins, its index copied: 1; 0 when
 * it is no non-empty array of such pairs (l->pos and the bins as they
 * were: the caller reads it as any value); -ENOMEM.
 */
static int bins_pairs(struct lean *l)
{
	struct il_lean_bins *b = l->bins;
	size_t pos = l->pos, npairs = b->npairs;
	char num[24];
	int n;

	/* its index fits where the array was: 7 bytes at least */
	if (b->n >= 10000000 || l->depth + 2 > IL_LEAN_MAX_DEPTH || !at(l, '['))
		goto no;
	do {
		uint64_t lo, c;

		if (!at(l, '['))
			goto no;
		ws(l);
		if (!small_uint(l, &lo) || !at(l, ','))
			goto no;
		ws(l);
		if (!small_uint(l, &c) || !at(l, ']'))
			goto no;
		if (grow((void **)&b->pair, &b->pairs_cap, 2 * (npairs + 1),
			 sizeof(*b->pair)))
			return -ENOMEM;
		b->pair[2 * npairs] = lo;
		b->pair[2 * npairs + 1] = c;
		npairs++;
	} while (at(l, ','));
	if (!at(l, ']'))
		goto no;
	if (grow((void **)&b->first, &b->first_cap, b->n + 2,
		 sizeof(*b->first)))
		return -ENOMEM;
	if (!b->n)
		b->first[0] = 0;
	b->first[b->n + 1] = npairs;
	b->npairs = npairs;
	n = snprintf(num, sizeof(num), "%zu", b->n++);
	emit(l, num, (size_t)n);
	return 1;
no:
	l->pos = pos;
	return 0;
}

static int value(struct lean *l, enum ctx ctx);

/* the context of a member of an object in ctx named name (no escapes) */
static enum ctx member_ctx(enum ctx ctx, const char *name, size_t n)
{
	if (ctx == CTX_ROOT && n == 4 && !memcmp(name, "runs", 4))
		return CTX_RUNS;
	if (ctx == CTX_RUN && n == 12 && !memcmp(name, "judge_inputs", 12))
		return CTX_JI;
	if (n > 3 && !memcmp(name + n - 3, "_ns", 3))
		return CTX_HIST;
	return CTX_OTHER;
}

static int object(struct lean *l, enum ctx ctx)
{
	bool kept = false;

	l->pos++;
	emit(l, "{", 1);
	ws(l);
	if (l->pos < l->len && l->in[l->pos] == '}') {
		l->pos++;
		emit(l, "}", 1);
		return 0;
	}
	for (;;) {
		size_t mark = l->opos, from, to;
		bool escaped, keep = true;
		enum ctx inner;
		int ret;

		if (kept)
			emit(l, ",", 1);
		ret = string(l, &escaped, &from, &to);
		if (ret)
			return ret;
		/* a name json-c would read as another */
		if (escaped)
			return -EINVAL;
		inner = member_ctx(ctx, l->in + from, to - from);
		if (ctx == CTX_JI)
			keep = to - from == 8 &&
			       !memcmp(l->in + from, "job_text", 8);
		ws(l);
		if (l->pos >= l->len || l->in[l->pos] != ':')
			return -EINVAL;
		l->pos++;
		emit(l, ":", 1);
		ws(l);
		ret = 0;
		if (to - from == 4 && !memcmp(l->in + from, "bins", 4)) {
			/* a number there would read as the cut's index */
			if (l->pos < l->len &&
			    (l->in[l->pos] == '-' || is_digit(l->in[l->pos])))
				return -EINVAL;
			if (l->bins && !l->drop && ctx == CTX_HIST)
				ret = bins_pairs(l);
			if (ret < 0)
				return ret;
		}
		l->drop += !keep;
		if (!ret)
			ret = value(l, inner);
		else
			ret = 0;
		l->drop -= !keep;
		if (ret)
			return ret;
		/* checked, and not kept: as if never written */
		if (!keep)
			l->opos = mark;
		kept = kept || keep;
		ws(l);
		if (l->pos >= l->len)
			return -EINVAL;
		if (l->in[l->pos] == '}') {
			l->pos++;
			emit(l, "}", 1);
			return 0;
		}
		if (l->in[l->pos] != ',')
			return -EINVAL;
		l->pos++;
		ws(l);
	}
}

static int array(struct lean *l, enum ctx ctx)
{
	enum ctx inner = ctx == CTX_RUNS ? CTX_RUN : CTX_OTHER;

	l->pos++;
	emit(l, "[", 1);
	ws(l);
	if (l->pos < l->len && l->in[l->pos] == ']') {
		l->pos++;
		emit(l, "]", 1);
		return 0;
	}
	for (;;) {
		int ret = value(l, inner);

		if (ret)
			return ret;
		ws(l);
		if (l->pos >= l->len)
			return -EINVAL;
		if (l->in[l->pos] == ']') {
			l->pos++;
			emit(l, "]", 1);
			return 0;
		}
		if (l->in[l->pos] != ',')
			return -EINVAL;
		l->pos++;
		emit(l, ",", 1);
		ws(l);
	}
}

/* a value at l->pos (no white space before it), checked and copied */
static int value(struct lean *l, enum ctx ctx)
{
	size_t from, to;
	bool escaped;
	int ret;

	if (l->pos >= l->len)
		return -EINVAL;
	switch (l->in[l->pos]) {
	case '{':
	case '[':
		if (++l->depth > IL_LEAN_MAX_DEPTH)
			return -EINVAL;
		ret = l->in[l->pos] == '{' ? object(l, ctx) : array(l, ctx);
		l->depth--;
		return ret;
	case '"':
		return string(l, &escaped, &from, &to);
	case 't':
		return literal(l, "true");
	case 'f':
		return literal(l, "false");
	case 'n':
		return literal(l, "null");
	default:
		return number(l);
	}
}

int il_lean_cut(const char *in, size_t len, char *out, size_t *outlen,
		struct il_lean_bins *bins)
{
	struct lean l = { .in = in, .len = len, .out = out, .bins = bins };
	int ret;

	ws(&l);
	ret = value(&l, CTX_ROOT);
	if (ret)
		return ret;
	ws(&l);
	if (l.pos != len)
		return -EINVAL;
	*outlen = l.opos;
	return 0;
}
