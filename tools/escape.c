// SPDX-License-Identifier: MIT
/* Strings from result files made safe to print (escape.h). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "escape.h"

/*
 * The length of the valid UTF-8 sequence at s (at most n bytes), and its
 * code point; 0 when the bytes there are not one (overlong forms,
 * surrogates and code points past U+10FFFF included).
 */
static size_t utf8_seq(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t len;
	uint32_t c, min;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xe0) == 0xc0) {
		len = 2;
		c = s[0] & 0x1f;
		min = 0x80;
	} else if ((s[0] & 0xf0) == 0xe0) {
		len = 3;
		c = s[0] & 0x0f;
		min = 0x800;
	} else if ((s[0] & 0xf8) == 0xf0) {
		len = 4;
		c = s[0] & 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

/*
 * Code points that a terminal or a viewer acts on rather than shows: C0,
 * DEL, C1 (CSI is U+009B), and the direction overrides and isolates that
 * reorder what is seen on a line.
 */
static bool is_control(uint32_t c)
{
	return c < 0x20 || (c >= 0x7f && c < 0xa0) ||
	       (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) ||
	       c == 0x200e || c == 0x200f || c == 0x061c;
}

char *il_res_escape(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	/* at worst every byte becomes \xNN */
	char *out = malloc(len * 4 + 1), *o = out;

	if (!out)
		return NULL;
	for (size_t i = 0; i < len;) {
		uint32_t cp = 0;
		size_t n = utf8_seq(s + i, len - i, &cp);

		if (n && !is_control(cp)) {
			if (cp == '\\')
				*o++ = '\\';
			for (size_t k = 0; k < n; k++)
				*o++ = (char)s[i + k];
			i += n;
			continue;
		}
		/* not shown: each byte of it as \xNN */
		for (size_t k = 0; k < (n ? n : 1); k++)
			o += sprintf(o, "\\x%02x", s[i + k]);
		i += n ? n : 1;
	}
	*o = '\0';
	return out;
}

void il_res_xml_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&apos;", f);
			break;
		default:
			if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
				fputc('?', f);
			else
				fputc(c, f);
		}
	}
}
