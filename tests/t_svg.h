/* SPDX-License-Identifier: MIT */
/*
 * Reading invlab-plot's SVG back, for the plot tests: where its texts
 * are, and whether its legends draw what the series draw.  Only the
 * subset the scene writes (tools/plot-scene.c) is understood: each
 * <text> carries x, y, font-size, text-anchor and, when turned, a
 * rotate(-90 x y) transform.
 */
#ifndef INVLAB_T_SVG_H
#define INVLAB_T_SVG_H

#include <stddef.h>

struct t_text {
	double x0, y0, x1, y1; /* the estimated box */
	double size;	       /* font-size */
	char s[160];	       /* the text (entities left as written) */
};

/*
 * Every <text> of svg with its box estimated from font size x
 * characters: 0.6 em a character (0.7 in bold), 0.8 em above the
 * baseline and 0.25 below.  A malloc'd array (free it), its length in
 * *n; NULL when out of memory.
 */
struct t_text *t_svg_texts(const char *svg, size_t *n);
/*
 * The pairs of texts whose boxes intersect; each is printed as a TAP
 * comment, up to a few.
 */
size_t t_svg_overlaps(const struct t_text *t, size_t n);
/* the smallest font-size of the texts */
double t_svg_min_font(const struct t_text *t, size_t n);
/*
 * Legend entries (<g class="legend-entry" data-series="ID">) whose
 * swatch (their first <line> or <rect>) does not draw as the series
 * with that id (its first <path> or <rect>): stroke and dash for a
 * line, fill and opacity for a rect.  Each mismatch is printed; the
 * number of entries checked is in *checked.
 */
size_t t_svg_legend_mismatches(const char *svg, size_t *checked);
/* the value of attribute name in the first element at or after p */
int t_svg_attr(const char *p, const char *name, char *buf, size_t len);

#endif
