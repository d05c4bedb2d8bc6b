// SPDX-License-Identifier: MIT
/* Messages in fixed buffers; see strbuf.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <invlab/strbuf.h>

void il_setf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!buf || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

void il_appendf(char *buf, size_t len, const char *fmt, ...)
{
	size_t used;
	va_list ap;

	if (!buf || !len)
		return;
	used = strnlen(buf, len);
	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}
