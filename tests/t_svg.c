// SPDX-License-Identifier: MIT
/*
 * Reading invlab-plot's SVG back (t_svg.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t_svg.h"

int t_svg_attr(const char *p, const char *name, char *buf, size_t len)
{
	const char *end = strchr(p, '>'), *a;
	char want[64];
	size_t n;

	snprintf(want, sizeof(want), " %s=\"", name);
	a = strstr(p, want);
	if (!end || !a || a > end)
		return -1;
	a += strlen(want);
	n = strcspn(a, "\"");
	if (n >= len)
		n = len - 1;
	memcpy(buf, a, n);
	buf[n] = '\0';
	return 0;
}

static double num_attr(const char *p, const char *name, double def)
{
	char buf[64];

	return t_svg_attr(p, name, buf, sizeof(buf)) ? def : atof(buf);
}

/* characters of the text as shown: an entity is one */
static size_t shown_chars(const char *s, const char *end)
{
	size_t n = 0;

	while (s < end) {
		if (*s == '&') {
			const char *semi = memchr(s, ';', (size_t)(end - s));

			n++;
			s = semi ? semi + 1 : s + 1;
			continue;
		}
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
		s++;
	}
	return n;
}

struct t_text *t_svg_texts(const char *svg, size_t *n)
{
	struct t_text *t = NULL;
	size_t cap = 0;

	*n = 0;
	for (const char *p = strstr(svg, "<text "); p;
	     p = strstr(p + 1, "<text ")) {
		const char *body = strchr(p, '>'), *end;
		char anchor[16] = "start", weight[16] = "", tr[64] = "";
		double x, y, size, w, dx0;
		struct t_text *e;

		if (!body || !(end = strstr(body, "</text>")))
			break;
		body++;
		if (*n == cap) {
			struct t_text *nt;

			cap = cap ? 2 * cap : 64;
			nt = realloc(t, cap * sizeof(*t));
			if (!nt) {
				free(t);
				return NULL;
			}
			t = nt;
		}
		e = &t[(*n)++];
		x = num_attr(p, "x", 0);
		y = num_attr(p, "y", 0);
		size = num_attr(p, "font-size", 0);
		t_svg_attr(p, "text-anchor", anchor, sizeof(anchor));
		t_svg_attr(p, "font-weight", weight, sizeof(weight));
		t_svg_attr(p, "transform", tr, sizeof(tr));
		w = (strcmp(weight, "bold") ? 0.6 : 0.7) * size *
		    (double)shown_chars(body, end);
		dx0 = !strcmp(anchor, "middle") ? -w / 2
		      : !strcmp(anchor, "end")	? -w
						: 0;
		if (strstr(tr, "rotate(-90")) {
			/* (dx, dy) turned a quarter left: (dy, -dx) */
			e->x0 = x - 0.8 * size;
			e->x1 = x + 0.25 * size;
			e->y0 = y - (dx0 + w);
			e->y1 = y - dx0;
		} else {
			e->x0 = x + dx0;
			e->x1 = x + dx0 + w;
			e->y0 = y - 0.8 * size;
			e->y1 = y + 0.25 * size;
		}
		e->size = size;
		snprintf(e->s, sizeof(e->s), "%.*s",
			 (int)(end - body < 150 ? end - body : 150), body);
	}
	return t;
}

size_t t_svg_overlaps(const struct t_text *t, size_t n)
{
	size_t bad = 0;

	for (size_t i = 0; i < n; i++) {
		for (size_t j = i + 1; j < n; j++) {
			const struct t_text *a = &t[i], *b = &t[j];

			if (!(a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 &&
			      b->y0 < a->y1))
				continue;
			if (bad++ < 6)
				printf("# texts overlap: '%s' [%.1f,%.1f %.1f,"
				       "%.1f] and '%s' [%.1f,%.1f %.1f,%.1f]\n",
				       a->s, a->x0, a->y0, a->x1, a->y1, b->s,
				       b->x0, b->y0, b->x1, b->y1);
		}
	}
	return bad;
}

double t_svg_min_font(const struct t_text *t, size_t n)
{
	double m = 1e9;

	for (size_t i = 0; i < n; i++)
		if (t[i].size < m)
			m = t[i].size;
	return m;
}

/* the first <line, <path or <rect at or after p, before stop */
static const char *first_shape(const char *p, const char *stop)
{
	const char *best = NULL;
	static const char *const tags[] = { "<line ", "<path ", "<rect " };

	for (int i = 0; i < 3; i++) {
		const char *q = strstr(p, tags[i]);

		if (q && (!stop || q < stop) && (!best || q < best))
			best = q;
	}
	return best;
}

static void look(const char *el, char *out, size_t len)
{
	char a[4][48] = { "", "", "", "" };

	if (!strncmp(el, "<rect ", 6)) {
		t_svg_attr(el, "fill", a[0], sizeof(a[0]));
		t_svg_attr(el, "fill-opacity", a[1], sizeof(a[1]));
		snprintf(out, len, "rect fill %s opacity %s", a[0], a[1]);
	} else {
		t_svg_attr(el, "stroke", a[0], sizeof(a[0]));
		t_svg_attr(el, "stroke-dasharray", a[1], sizeof(a[1]));
		t_svg_attr(el, "stroke-width", a[2], sizeof(a[2]));
		snprintf(out, len, "stroke %s dash '%s' width %s", a[0], a[1],
			 a[2]);
	}
}

size_t t_svg_legend_mismatches(const char *svg, size_t *checked)
{
	size_t bad = 0;

	*checked = 0;
	for (const char *p = strstr(svg, "class=\"legend-entry\""); p;
	     p = strstr(p + 1, "class=\"legend-entry\"")) {
		const char *g = p, *sw, *ser, *end;
		char id[192], want[224], l1[160], l2[160];

		while (g > svg && *g != '<')
			g--;
		if (t_svg_attr(g, "data-series", id, sizeof(id))) {
			printf("# a legend entry names no series\n");
			bad++;
			continue;
		}
		end = strstr(p, "</g>");
		sw = first_shape(p, end);
		snprintf(want, sizeof(want), " id=\"%s\"", id);
		ser = strstr(svg, want);
		ser = ser ? first_shape(ser, strstr(ser, "</g>")) : NULL;
		(*checked)++;
		if (!sw || !ser) {
			printf("# legend entry %s: %s\n", id,
			       sw ? "no such series" : "no swatch");
			bad++;
			continue;
		}
		look(sw, l1, sizeof(l1));
		look(ser, l2, sizeof(l2));
		/* a rect swatch for a rect series; a line for a curve */
		if (!strncmp(l1, "rect", 4) != !strncmp(l2, "rect", 4) ||
		    strcmp(l1, l2)) {
			printf("# legend entry %s: %s; its series: %s\n", id,
			       l1, l2);
			bad++;
		}
	}
	return bad;
}
