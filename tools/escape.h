/* SPDX-License-Identifier: MIT */
/*
 * Strings from result files made safe for where the tools write them.
 *
 * A result comes from a device in a lab, and every string in it (a
 * configuration name, the kernel release, a scenario value) reaches a
 * terminal, a CI log, Markdown or JUnit XML.  Raw, an ESC starts a
 * terminal control sequence, a CR or LF forges a line ("x: PASS"), a NUL
 * cuts the rest off.  So every such string is escaped once, when it is
 * read (load.c), and the tools only ever see the escaped text.
 */
#ifndef INVLAB_TOOLS_ESCAPE_H
#define INVLAB_TOOLS_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/*
 * The len bytes of s (NULs included) as printable text, in a malloc'd
 * string: control characters (C0 such as ESC, CR, LF and NUL; DEL; the
 * C1 range, UTF-8 encoded; the Unicode direction overrides) and bytes
 * that are not UTF-8 become "\xNN" per byte (ESC is "\x1b"), and a
 * backslash becomes "\\", so distinct inputs stay distinct.  Everything
 * else, valid UTF-8 included, is kept.  NULL when out of memory.
 */
char *il_res_escape(const char *s, size_t len);

/*
 * XML 1.0 text or attribute value (JUnit, SVG): markup characters are
 * escaped, and control characters, which XML cannot hold even escaped,
 * become '?'.
 */
void il_res_xml_escape(FILE *f, const char *s);

#endif
