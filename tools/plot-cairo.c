// SPDX-License-Identifier: MIT
/*
 * The cairo backend of the scene (plot-scene.h): PNG (an image surface,
 * one pixel per scene unit, white background) and PDF (one page, one
 * point per unit), both written through a stream onto the caller's FILE,
 * so that the output stays atomic (il_afile).  The same items as the
 * SVG, in the same order; groups carry only metadata and are skipped.
 * Text asks for DejaVu Sans through cairo's toy font API (fontconfig
 * finds it, or its nearest match).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cairo-pdf.h>
#include <cairo.h>

#include "plot-scene-int.h"

#define FONT "DejaVu Sans"

static void set_rgb(cairo_t *cr, uint32_t c, double alpha)
{
	cairo_set_source_rgba(cr, ((c >> 16) & 0xff) / 255.0,
			      ((c >> 8) & 0xff) / 255.0, (c & 0xff) / 255.0,
			      alpha);
}

/* fill (when asked) then stroke (when asked) the current path */
static void paint(cairo_t *cr, const struct pl_style *st, bool fillable)
{
	bool stroke = st->stroke != PL_NONE && st->width > 0;

	if (fillable && st->fill != PL_NONE) {
		double a = st->fill_opacity > 0 && st->fill_opacity < 1
				   ? st->fill_opacity
				   : 1;

		set_rgb(cr, st->fill, a);
		if (stroke)
			cairo_fill_preserve(cr);
		else
			cairo_fill(cr);
	}
	if (!stroke) {
		cairo_new_path(cr);
		return;
	}
	set_rgb(cr, st->stroke, 1);
	cairo_set_line_width(cr, st->width);
	if (st->dash_on > 0) {
		double d[2] = { st->dash_on,
				st->dash_off > 0 ? st->dash_off : st->dash_on };

		cairo_set_dash(cr, d, 2, 0);
	} else {
		cairo_set_dash(cr, NULL, 0, 0);
	}
	cairo_stroke(cr);
}

static void text(cairo_t *cr, const struct pl_item *it)
{
	const struct pl_font *f = &it->font;
	cairo_text_extents_t ext;
	double dx = 0;

	cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL,
			       f->bold ? CAIRO_FONT_WEIGHT_BOLD
				       : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, f->size);
	cairo_text_extents(cr, it->s, &ext);
	if (f->anchor == PL_MIDDLE)
		dx = -ext.x_advance / 2;
	else if (f->anchor == PL_END)
		dx = -ext.x_advance;
	cairo_save(cr);
	cairo_translate(cr, it->v[0], it->v[1]);
	if (f->vertical)
		cairo_rotate(cr, -M_PI / 2);
	cairo_move_to(cr, dx, 0);
	set_rgb(cr, f->color, 1);
	cairo_show_text(cr, it->s);
	cairo_restore(cr);
}

static void draw(cairo_t *cr, const struct pl_scene *sc)
{
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	for (size_t i = 0; i < sc->nitems; i++) {
		const struct pl_item *it = &sc->items[i];

		switch (it->kind) {
		case PL_K_GROUP:
		case PL_K_GROUP_END:
			break;
		case PL_K_TEXT:
			text(cr, it);
			break;
		case PL_K_LINE:
			cairo_move_to(cr, it->v[0], it->v[1]);
			cairo_line_to(cr, it->v[2], it->v[3]);
			paint(cr, &it->st, false);
			break;
		case PL_K_RECT:
			cairo_rectangle(cr, it->v[0], it->v[1], it->v[2],
					it->v[3]);
			paint(cr, &it->st, true);
			break;
		case PL_K_POLY:
			cairo_move_to(cr, it->xy[0], it->xy[1]);
			for (size_t k = 1; k < it->n; k++)
				cairo_line_to(cr, it->xy[2 * k],
					      it->xy[2 * k + 1]);
			if (it->closed)
				cairo_close_path(cr);
			paint(cr, &it->st, true);
			break;
		case PL_K_CIRCLE:
			cairo_new_sub_path(cr);
			cairo_arc(cr, it->v[0], it->v[1], it->v[2], 0,
				  2 * M_PI);
			paint(cr, &it->st, true);
			break;
		}
	}
}

static cairo_status_t to_file(void *closure, const unsigned char *data,
			      unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS
						    : CAIRO_STATUS_WRITE_ERROR;
}

static int status_err(cairo_status_t st, char *err, size_t errlen)
{
	snprintf(err, errlen, "cairo: %s", cairo_status_to_string(st));
	if (st == CAIRO_STATUS_NO_MEMORY)
		return -ENOMEM;
	return -EIO;
}

int pl__write_cairo(const struct pl_scene *sc, FILE *f, enum pl_format fmt,
		    char *err, size_t errlen)
{
	cairo_surface_t *s;
	cairo_status_t st;
	cairo_t *cr;

	if (fmt == PL_PNG)
		s = cairo_image_surface_create(CAIRO_FORMAT_RGB24,
					       (int)ceil(sc->width),
					       (int)ceil(sc->height));
	else
		s = cairo_pdf_surface_create_for_stream(to_file, f, sc->width,
							sc->height);
	st = cairo_surface_status(s);
	if (st) {
		cairo_surface_destroy(s);
		return status_err(st, err, errlen);
	}
	if (fmt == PL_PDF && sc->title)
		cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE,
					       sc->title);
	cr = cairo_create(s);
	draw(cr, sc);
	st = cairo_status(cr);
	cairo_destroy(cr);
	if (!st && fmt == PL_PNG)
		st = cairo_surface_write_to_png_stream(s, to_file, f);
	cairo_surface_finish(s);
	if (!st)
		st = cairo_surface_status(s);
	cairo_surface_destroy(s);
	/* one picture a process: cairo's font caches go with it (so that a
	 * leak checker sees what is ours) */
	cairo_debug_reset_static_data();
	if (st)
		return status_err(st, err, errlen);
	return ferror(f) ? -EIO : 0;
}
