// SPDX-License-Identifier: MIT
/*
 * The scene of plot-scene.h: recording, text estimates, the format
 * names, and the SVG backend.  The SVG is written with plain fprintf and
 * needs nothing at run time: no script, no external font or stylesheet.
 * Every text carries its own font-size and anchor, so that a reader (the
 * tests) can tell where it is without a renderer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <invlab/report.h>

#include "escape.h"
#include "plot-scene-int.h"

struct pl_scene *pl_scene_new(double width, double height)
{
	struct pl_scene *sc = calloc(1, sizeof(*sc));

	if (!sc)
		return NULL;
	sc->width = width;
	sc->height = height;
	return sc;
}

void pl_scene_free(struct pl_scene *sc)
{
	if (!sc)
		return;
	for (size_t i = 0; i < sc->nitems; i++) {
		struct pl_item *it = &sc->items[i];

		free(it->xy);
		free(it->s);
		free(it->id);
		for (char **a = it->attrs; a && *a; a++)
			free(*a);
		free(it->attrs);
	}
	free(sc->items);
	free(sc->title);
	free(sc);
}

double pl_scene_width(const struct pl_scene *sc)
{
	return sc->width;
}

double pl_scene_height(const struct pl_scene *sc)
{
	return sc->height;
}

int pl_scene_error(const struct pl_scene *sc)
{
	if (sc->err)
		return sc->err;
	return sc->depth ? -EINVAL : 0;
}

static char *dup_or_fail(struct pl_scene *sc, const char *s)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		sc->err = -ENOMEM;
	return d;
}

static struct pl_item *add(struct pl_scene *sc, enum pl_kind kind)
{
	struct pl_item *it;

	if (sc->err)
		return NULL;
	if (sc->nitems == sc->cap) {
		size_t cap = sc->cap ? 2 * sc->cap : 256;
		struct pl_item *ni = realloc(sc->items, cap * sizeof(*ni));

		if (!ni) {
			sc->err = -ENOMEM;
			return NULL;
		}
		sc->items = ni;
		sc->cap = cap;
	}
	it = &sc->items[sc->nitems++];
	memset(it, 0, sizeof(*it));
	it->kind = kind;
	return it;
}

void pl_title(struct pl_scene *sc, const char *title)
{
	free(sc->title);
	sc->title = dup_or_fail(sc, title);
}

void pl_group(struct pl_scene *sc, const char *cls, const char *id,
	      const char *const *attrs)
{
	struct pl_item *it = add(sc, PL_K_GROUP);
	size_t n = 0;

	if (!it)
		return;
	sc->depth++;
	it->s = dup_or_fail(sc, cls);
	it->id = dup_or_fail(sc, id);
	while (attrs && attrs[n] && attrs[n + 1])
		n += 2;
	if (!n)
		return;
	it->attrs = calloc(n + 1, sizeof(*it->attrs));
	if (!it->attrs) {
		sc->err = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < n; i++)
		it->attrs[i] = dup_or_fail(sc, attrs[i]);
}

void pl_group_end(struct pl_scene *sc)
{
	if (add(sc, PL_K_GROUP_END))
		sc->depth--;
}

void pl_text(struct pl_scene *sc, double x, double y, const struct pl_font *f,
	     const char *s)
{
	struct pl_item *it = add(sc, PL_K_TEXT);

	if (!it)
		return;
	it->font = *f;
	it->v[0] = x;
	it->v[1] = y;
	it->s = dup_or_fail(sc, s ? s : "");
}

void pl_line(struct pl_scene *sc, double x0, double y0, double x1, double y1,
	     const struct pl_style *st)
{
	struct pl_item *it = add(sc, PL_K_LINE);

	if (!it)
		return;
	it->st = *st;
	it->v[0] = x0;
	it->v[1] = y0;
	it->v[2] = x1;
	it->v[3] = y1;
}

void pl_rect(struct pl_scene *sc, double x, double y, double w, double h,
	     const struct pl_style *st)
{
	struct pl_item *it = add(sc, PL_K_RECT);

	if (!it)
		return;
	it->st = *st;
	it->v[0] = x;
	it->v[1] = y;
	it->v[2] = w;
	it->v[3] = h;
}

void pl_polyline(struct pl_scene *sc, const double *xy, size_t n, bool closed,
		 const struct pl_style *st)
{
	struct pl_item *it;

	if (n < 2)
		return;
	it = add(sc, PL_K_POLY);
	if (!it)
		return;
	it->st = *st;
	it->closed = closed;
	it->xy = malloc(2 * n * sizeof(*it->xy));
	if (!it->xy) {
		sc->err = -ENOMEM;
		return;
	}
	memcpy(it->xy, xy, 2 * n * sizeof(*xy));
	it->n = n;
}

void pl_circle(struct pl_scene *sc, double cx, double cy, double r,
	       const struct pl_style *st)
{
	struct pl_item *it = add(sc, PL_K_CIRCLE);

	if (!it)
		return;
	it->st = *st;
	it->v[0] = cx;
	it->v[1] = cy;
	it->v[2] = r;
}

/* ---- text estimates -------------------------------------------------- */

static double em_per_char(const struct pl_font *f)
{
	return f->bold ? 0.72 : 0.62;
}

static size_t code_points(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

double pl_text_width(const struct pl_font *f, const char *s)
{
	return s ? em_per_char(f) * f->size * (double)code_points(s) : 0;
}

const char *pl_text_fit(char *buf, size_t len, const struct pl_font *f,
			double max, const char *s)
{
	size_t n, keep;

	if (!len)
		return buf;
	snprintf(buf, len, "%s", s ? s : "");
	if (pl_text_width(f, buf) <= max)
		return buf;
	n = max > 0 ? (size_t)(max / (em_per_char(f) * f->size)) : 0;
	keep = n > 3 ? n - 3 : 0;
	/* keep whole characters: cut before a continuation byte */
	for (size_t i = 0, cp = 0; buf[i]; i++) {
		if (((unsigned char)buf[i] & 0xc0) != 0x80 && cp++ == keep) {
			snprintf(buf + i, len - i, "%s", keep ? "..." : "");
			break;
		}
	}
	return buf;
}

void pl_text_fitted(struct pl_scene *sc, double x, double y,
		    const struct pl_font *f, double max, const char *s)
{
	char buf[512];

	pl_text_fit(buf, sizeof(buf), f, max, s);
	if (*buf)
		pl_text(sc, x, y, f, buf);
}

struct pl_font pl_font_of(double size, uint32_t color, enum pl_anchor a,
			  bool bold)
{
	return (struct pl_font){
		.size = size, .color = color, .anchor = a, .bold = bold
	};
}

/* ---- formats ----------------------------------------------------------- */

static const char *const fmt_names[] = {
	[PL_SVG] = "svg",
	[PL_PNG] = "png",
	[PL_PDF] = "pdf",
};

bool pl_format_available(enum pl_format fmt)
{
	if (fmt == PL_SVG)
		return true;
#if IL_PLOT_CAIRO
	return fmt == PL_PNG || fmt == PL_PDF;
#else
	return false;
#endif
}

const char *pl_format_name(enum pl_format fmt)
{
	return (unsigned)fmt < 3 ? fmt_names[fmt] : "?";
}

int pl_format_parse(const char *name, enum pl_format *fmt)
{
	for (int i = 0; i < 3; i++) {
		if (name && !strcasecmp(name, fmt_names[i])) {
			*fmt = (enum pl_format)i;
			return 0;
		}
	}
	return -EINVAL;
}

int pl_format_check(enum pl_format fmt, char *err, size_t errlen)
{
	if (pl_format_available(fmt))
		return 0;
	snprintf(err, errlen,
		 "%s output needs cairo, and this invlab-plot was built "
		 "without it (meson feature 'cairo'; Debian: libcairo2-dev); "
		 "SVG is always available",
		 fmt == PL_PDF ? "PDF" : "PNG");
	return -ENOTSUP;
}

int pl_scene_write(const struct pl_scene *sc, FILE *f, enum pl_format fmt,
		   char *err, size_t errlen)
{
	int ret = pl_format_check(fmt, err, errlen);

	if (ret)
		return ret;
	ret = pl_scene_error(sc);
	if (ret) {
		snprintf(err, errlen, "%s", strerror(-ret));
		return ret;
	}
	if (fmt == PL_SVG) {
		ret = pl_scene_write_svg(sc, f);
		if (ret)
			snprintf(err, errlen, "%s", strerror(-ret));
		return ret;
	}
#if IL_PLOT_CAIRO
	return pl__write_cairo(sc, f, fmt, err, errlen);
#else
	return -ENOTSUP; /* not reached: pl_format_check refused it */
#endif
}

int pl_format_for(const char *path, const char *fmt_name, enum pl_format *fmt,
		  char *err, size_t errlen)
{
	const char *base, *dot = NULL;
	enum pl_format by_name = PL_SVG;
	bool file = path && strcmp(path, "-"), named = false;

	if (file) {
		base = strrchr(path, '/');
		base = base ? base + 1 : path;
		dot = strrchr(base, '.');
		named = dot && !pl_format_parse(dot + 1, &by_name);
	}
	if (fmt_name) {
		if (pl_format_parse(fmt_name, fmt)) {
			snprintf(err, errlen,
				 "--format: '%s' is not a format (svg, png or "
				 "pdf)",
				 fmt_name);
			return -EINVAL;
		}
		if (named && by_name != *fmt) {
			snprintf(err, errlen,
				 "-o %s names %s, but --format is %s", path,
				 pl_format_name(by_name), pl_format_name(*fmt));
			return -EINVAL;
		}
	} else if (!file) {
		*fmt = PL_SVG;
	} else if (named) {
		*fmt = by_name;
	} else {
		snprintf(err, errlen,
			 "-o %s: %s; name it .svg, .png or .pdf, or give "
			 "--format",
			 path,
			 dot ? "an extension that is not a format"
			     : "no extension to tell the format");
		return -EINVAL;
	}
	return pl_format_check(*fmt, err, errlen);
}

int pl_scene_save(const struct pl_scene *sc, const char *path,
		  enum pl_format fmt, char *err, size_t errlen)
{
	struct il_afile af;
	char why[256];
	int ret;

	if (!path)
		path = "-";
	ret = il_afile_open(&af, path);
	if (ret) {
		snprintf(err, errlen, "cannot create '%s': %s", path,
			 strerror(-ret));
		return ret;
	}
	ret = pl_scene_write(sc, af.f, fmt, why, sizeof(why));
	if (ret) {
		il_afile_abort(&af);
		snprintf(err, errlen, "cannot write '%s': %s", path, why);
		return ret;
	}
	ret = il_afile_commit(&af);
	if (ret)
		snprintf(err, errlen, "cannot write '%s': %s", path,
			 strerror(-ret));
	return ret;
}

/* ---- SVG --------------------------------------------------------------- */

static void svg_color(FILE *f, const char *attr, uint32_t c)
{
	if (c == PL_NONE)
		fprintf(f, " %s=\"none\"", attr);
	else
		fprintf(f, " %s=\"#%06x\"", attr, c & 0xffffff);
}

static void svg_style(FILE *f, const struct pl_style *st, bool fillable)
{
	if (fillable) {
		svg_color(f, "fill", st->fill);
		if (st->fill != PL_NONE && st->fill_opacity > 0 &&
		    st->fill_opacity < 1)
			fprintf(f, " fill-opacity=\"%.2f\"", st->fill_opacity);
	}
	if (st->stroke == PL_NONE || st->width <= 0) {
		fputs(" stroke=\"none\"", f);
		return;
	}
	svg_color(f, "stroke", st->stroke);
	fprintf(f, " stroke-width=\"%.2g\"", st->width);
	if (st->dash_on > 0)
		fprintf(f, " stroke-dasharray=\"%g %g\"", st->dash_on,
			st->dash_off > 0 ? st->dash_off : st->dash_on);
}

static void svg_item(FILE *f, const struct pl_item *it)
{
	static const char *const anchors[] = { "start", "middle", "end" };

	switch (it->kind) {
	case PL_K_GROUP:
		fputs("<g", f);
		if (it->s) {
			fputs(" class=\"", f);
			il_res_xml_escape(f, it->s);
			fputc('"', f);
		}
		if (it->id) {
			fputs(" id=\"", f);
			il_res_xml_escape(f, it->id);
			fputc('"', f);
		}
		for (char **a = it->attrs; a && a[0] && a[1]; a += 2) {
			fprintf(f, " %s=\"", a[0]);
			il_res_xml_escape(f, a[1]);
			fputc('"', f);
		}
		fputs(">\n", f);
		break;
	case PL_K_GROUP_END:
		fputs("</g>\n", f);
		break;
	case PL_K_TEXT:
		fprintf(f,
			"<text x=\"%.1f\" y=\"%.1f\" font-size=\"%g\" "
			"text-anchor=\"%s\"",
			it->v[0], it->v[1], it->font.size,
			anchors[it->font.anchor % 3]);
		svg_color(f, "fill", it->font.color);
		if (it->font.bold)
			fputs(" font-weight=\"bold\"", f);
		if (it->font.vertical)
			fprintf(f, " transform=\"rotate(-90 %.1f %.1f)\"",
				it->v[0], it->v[1]);
		fputc('>', f);
		il_res_xml_escape(f, it->s);
		fputs("</text>\n", f);
		break;
	case PL_K_LINE:
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\"",
			it->v[0], it->v[1], it->v[2], it->v[3]);
		svg_style(f, &it->st, false);
		fputs("/>\n", f);
		break;
	case PL_K_RECT:
		fprintf(f,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			"height=\"%.1f\"",
			it->v[0], it->v[1], it->v[2], it->v[3]);
		svg_style(f, &it->st, true);
		fputs("/>\n", f);
		break;
	case PL_K_POLY:
		fputs("<path d=\"", f);
		for (size_t i = 0; i < it->n; i++)
			fprintf(f, "%c%.1f %.1f", i ? 'L' : 'M', it->xy[2 * i],
				it->xy[2 * i + 1]);
		fprintf(f, "%s\"", it->closed ? "Z" : "");
		svg_style(f, &it->st, true);
		fputs("/>\n", f);
		break;
	case PL_K_CIRCLE:
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"",
			it->v[0], it->v[1], it->v[2]);
		svg_style(f, &it->st, true);
		fputs("/>\n", f);
		break;
	}
}

int pl_scene_write_svg(const struct pl_scene *sc, FILE *f)
{
	int ret = pl_scene_error(sc);

	if (ret)
		return ret;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\">\n",
		sc->width, sc->height, sc->width, sc->height);
	if (sc->title) {
		fputs("<title>", f);
		il_res_xml_escape(f, sc->title);
		fputs("</title>\n", f);
	}
	for (size_t i = 0; i < sc->nitems; i++)
		svg_item(f, &sc->items[i]);
	fputs("</svg>\n", f);
	return ferror(f) ? -EIO : 0;
}
