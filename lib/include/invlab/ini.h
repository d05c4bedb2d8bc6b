/* SPDX-License-Identifier: MIT */
/*
 * The one INI reader: job files (jobfile.c) and the gate's profiles.
 *
 *   ; a comment            # also a comment
 *   [section name]
 *   key = value            ; a trailing comment needs a blank before it
 *
 * The reader knows the shape only: lines (LF or CRLF, a UTF-8 BOM
 * ignored), comments, blanks, section headers and "key = value".  What a
 * section or key means is the caller's, told through one callback per
 * section header and one per other line.  A callback's message is
 * prefixed "FILE:LINE: " so that an editor can jump to it; the first
 * error stops the reading.  Control characters (but tab) and NUL bytes
 * are refused by the reader itself.
 */
#ifndef INVLAB_INI_H
#define INVLAB_INI_H

#include <stddef.h>
#include <stdint.h>

struct il_ini_at {
	const char *file;
	int line;
	/* the whole line, its comment and surrounding blanks removed */
	const char *text;
};

struct il_ini_ops {
	/*
	 * A line starting with '[': name is what is between it and the
	 * first ']', trimmed (NULL when there is no ']'), after is what
	 * follows the ']', trimmed ("" when nothing does).
	 */
	int (*section)(void *ctx, const struct il_ini_at *at, char *name,
		       char *after, char *msg, size_t msglen);
	/*
	 * Any other line, split at its first '=': key and value trimmed.
	 * value is NULL when the line has no '=', or when the '=' follows
	 * one of op_chars (it is then part of an operator such as "<=",
	 * and key is the whole line).
	 */
	int (*key)(void *ctx, const struct il_ini_at *at, char *key,
		   char *value, char *msg, size_t msglen);
	const char *op_chars; /* NULL: none */
};

/*
 * Read the len bytes of text as INI, calling ops for every line that is
 * not blank or a comment.  A callback returns 0 or a negative errno with
 * its message in msg (without the FILE:LINE prefix; an empty message
 * with -ENOMEM reads "out of memory").  Returns 0 or the first error,
 * with "FILE:LINE: message" in err.
 */
int il_ini_parse(const char *text, size_t len, const char *file,
		 const struct il_ini_ops *ops, void *ctx, char *err,
		 size_t errlen);

/*
 * Read the file at path, at most max bytes, and parse it.  Only a regular
 * file is read (-EINVAL for a device, FIFO or directory: they may never
 * end); -EFBIG when it is larger than max.  Errors as "FILE: message" or
 * "FILE:LINE: message".
 */
int il_ini_load(const char *path, uint64_t max, const struct il_ini_ops *ops,
		void *ctx, char *err, size_t errlen);

/*
 * Blanks (space, tab) off both ends of s, in place: s after the leading
 * ones, with a NUL over the first trailing one.  How the reader trims
 * names, keys and values, for a caller that splits them further.
 */
char *il_ini_trim(char *s);

#endif
