// SPDX-License-Identifier: MIT
/*
 * JSON results: a small streaming writer, histograms and verdicts.  The
 * common envelope every program writes around them is in
 * lib/sys/envelope.c, since it carries the kernel fingerprint.
 *
 * Results are read back by the validators, the compare/gate tools and by
 * people with jq, often on another machine and months later, so the output
 * must stay valid JSON whatever the input: strings are escaped and
 * invalid UTF-8 is replaced, non-finite doubles become null, numbers are
 * printed in the C locale.  The writer never prints anything else and never
 * exits; errors are sticky in j->err.
 */
#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <invlab/hist.h>
#include <invlab/json.h>
#include <invlab/verdict.h>

/* ------------------------------------------------------------------ */
/* writer                                                               */

static void put(struct il_json *j, const char *s)
{
	if (!j->err && fputs(s, j->f) == EOF)
		j->err = -EIO;
}

static void putn(struct il_json *j, const char *s, size_t n)
{
	if (!j->err && n && fwrite(s, 1, n, j->f) != n)
		j->err = -EIO;
}

/* a new line and the indentation of depth, when pretty */
static void newline(struct il_json *j, int depth)
{
	if (!j->pretty)
		return;
	put(j, "\n");
	for (int i = 0; i < depth; i++)
		put(j, "  ");
}

/*
 * Length of the valid UTF-8 sequence at s, or 0.  Overlong forms,
 * surrogates and code points above U+10FFFF are invalid (RFC 3629).
 */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	/* a NUL is never a continuation byte, so this stops at the end */
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

static void put_string(struct il_json *j, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	const unsigned char *run = s;
	char esc[8];

	put(j, "\"");
	while (*s) {
		const char *rep = NULL;
		size_t n;

		if (*s >= 0x20 && *s < 0x7f && *s != '"' && *s != '\\') {
			s++;
			continue;
		}
		if (*s >= 0x80) {
			n = utf8_len(s);
			if (n) {
				s += n;
				continue;
			}
			/* keep the file valid UTF-8 whatever the input was */
			rep = "\\ufffd";
		} else if (*s == '"') {
			rep = "\\\"";
		} else if (*s == '\\') {
			rep = "\\\\";
		} else if (*s == '\n') {
			rep = "\\n";
		} else if (*s == '\t') {
			rep = "\\t";
		} else if (*s == '\r') {
			rep = "\\r";
		} else if (*s == '\b') {
			rep = "\\b";
		} else if (*s == '\f') {
			rep = "\\f";
		} else {
			/* other control characters, and DEL for terminals */
			snprintf(esc, sizeof(esc), "\\u%04x", *s);
			rep = esc;
		}
		putn(j, (const char *)run, (size_t)(s - run));
		put(j, rep);
		s++;
		run = s;
	}
	putn(j, (const char *)run, (size_t)(s - run));
	put(j, "\"");
}

/*
 * Separator, newline, indentation and "key": before every value (pretty;
 * compact, the separator and "key" alone).  Returns false when nothing
 * must be written (error, or no writer at all).
 */
static bool prefix(struct il_json *j, const char *key)
{
	if (!j || !j->f || j->err)
		return false;
	if (j->depth > 0) {
		if (!j->first[j->depth])
			put(j, ",");
		newline(j, j->depth);
	}
	j->first[j->depth] = false;
	if (key) {
		put_string(j, key);
		put(j, j->pretty ? ": " : ":");
	}
	return !j->err;
}

void il_json_init(struct il_json *j, FILE *f)
{
	if (!j)
		return;
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->first[0] = true;
	if (!f)
		j->err = -EINVAL;
	/* a terminal is read by a person; fileno() is -1 for a memory stream */
	else if (fileno(f) >= 0 && isatty(fileno(f)))
		j->pretty = true;
}

void il_json_set_pretty(struct il_json *j, bool pretty)
{
	if (j)
		j->pretty = pretty;
}

static void begin(struct il_json *j, const char *key, const char *open)
{
	if (j && !j->err && j->depth + 1 >= IL_JSON_MAX_DEPTH) {
		j->err = -E2BIG;
		return;
	}
	if (!prefix(j, key))
		return;
	put(j, open);
	j->depth++;
	j->first[j->depth] = true;
}

static void end(struct il_json *j, const char *close)
{
	if (!j || !j->f || j->err)
		return;
	if (j->depth <= 0) {
		j->err = -EINVAL;
		return;
	}
	/* an empty container stays on one line: {} or [] */
	if (!j->first[j->depth])
		newline(j, j->depth - 1);
	put(j, close);
	j->depth--;
	if (!j->depth)
		put(j, "\n");
}

void il_json_begin_object(struct il_json *j, const char *key)
{
	begin(j, key, "{");
}

void il_json_end_object(struct il_json *j)
{
	end(j, "}");
}

void il_json_begin_array(struct il_json *j, const char *key)
{
	begin(j, key, "[");
}

void il_json_end_array(struct il_json *j)
{
	end(j, "]");
}

void il_json_str(struct il_json *j, const char *key, const char *val)
{
	if (!prefix(j, key))
		return;
	if (val)
		put_string(j, val);
	else
		put(j, "null");
}

void il_json_int(struct il_json *j, const char *key, int64_t val)
{
	char buf[32];

	if (!prefix(j, key))
		return;
	snprintf(buf, sizeof(buf), "%" PRId64, val);
	put(j, buf);
}

void il_json_uint(struct il_json *j, const char *key, uint64_t val)
{
	char buf[32];

	if (!prefix(j, key))
		return;
	snprintf(buf, sizeof(buf), "%" PRIu64, val);
	put(j, buf);
}

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void c_locale_init(void)
{
	c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

/*
 * The shortest of %.15g and %.17g that reads back as the same double:
 * 0.1 stays "0.1" and every value still round-trips.  Formatted in the
 * C locale, because a program that called setlocale() must not get
 * "0,5" into a JSON file.
 */
static void format_double(double v, char *buf, size_t size)
{
	locale_t old = (locale_t)0;

	pthread_once(&c_locale_once, c_locale_init);
	if (c_locale)
		old = uselocale(c_locale);
	snprintf(buf, size, "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, size, "%.17g", v);
	if (c_locale)
		uselocale(old);
}

void il_json_double(struct il_json *j, const char *key, double val)
{
	char buf[40];

	if (!prefix(j, key))
		return;
	if (!isfinite(val)) {
		put(j, "null");
		return;
	}
	format_double(val, buf, sizeof(buf));
	put(j, buf);
}

void il_json_bool(struct il_json *j, const char *key, bool val)
{
	if (prefix(j, key))
		put(j, val ? "true" : "false");
}

void il_json_null(struct il_json *j, const char *key)
{
	if (prefix(j, key))
		put(j, "null");
}

int il_json_error(const struct il_json *j)
{
	if (!j)
		return -EINVAL;
	if (j->err)
		return j->err;
	if (j->f && ferror(j->f))
		return -EIO;
	return 0;
}

/* ------------------------------------------------------------------ */
/* histograms                                                           */

void il_json_hist(struct il_json *j, const char *key, const struct il_hist *h)
{
	static const struct {
		double p;
		const char *key;
	} pct[] = {
		{ 0.5, "p50" },	   { 0.9, "p90" },	{ 0.99, "p99" },
		{ 0.999, "p999" }, { 0.9999, "p9999" },
	};
	unsigned idx = 0, guard;
	uint64_t lo, count, v;
	size_t i;

	if (!h) {
		il_json_null(j, key);
		return;
	}
	il_json_begin_object(j, key);
	il_json_uint(j, "count", h->count);
	if (h->count) {
		il_json_uint(j, "min", h->min);
		il_json_double(j, "mean", il_hist_mean(h));
	} else {
		il_json_null(j, "min");
		il_json_null(j, "mean");
	}
	/* a percentile from too few samples would be a guess: null */
	for (i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
		if (!il_hist_percentile(h, pct[i].p, &v))
			il_json_uint(j, pct[i].key, v);
		else
			il_json_null(j, pct[i].key);
	}
	if (h->count)
		il_json_uint(j, "max", h->max);
	else
		il_json_null(j, "max");
	il_json_uint(j, "overflow", h->overflow);

	/*
	 * Non-empty bins as [lo, count] pairs (one a line when pretty), so
	 * runs can be merged and re-analysed later; the guard bounds the
	 * walk even if the iterator misbehaves.
	 */
	il_json_begin_array(j, "bins");
	for (guard = 0; guard <= IL_HIST_NBUCKETS &&
			il_hist_next_bin(h, &idx, &lo, &count) == 1;
	     guard++) {
		char buf[64];

		if (!prefix(j, NULL))
			break;
		snprintf(buf, sizeof(buf),
			 j->pretty ? "[%" PRIu64 ", %" PRIu64 "]"
				   : "[%" PRIu64 ",%" PRIu64 "]",
			 lo, count);
		put(j, buf);
	}
	il_json_end_array(j);
	il_json_end_object(j);
}

void il_json_check(struct il_json *j, const struct il_check *c)
{
	il_json_str(j, "verdict", il_verdict_name(c->verdict));
	il_json_str(j, "bound", c->bound_name);
	il_json_uint(j, "bound_ns", c->bound_ns);
	il_json_uint(j, "noise_ns", c->noise_ns);
	il_json_uint(j, "worst_ns", c->worst_ns);
	il_json_bool(j, "trace_decided", c->by_trace != 0);
	il_json_str(j, "evidence", c->evidence);
}
