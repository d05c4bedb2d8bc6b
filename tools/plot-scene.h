/* SPDX-License-Identifier: MIT */
/*
 * A scene: what a chart draws, recorded once and written by a backend as
 * SVG (always built) or, through cairo, as PNG and PDF (meson feature
 * `cairo`).  Every picture of invlab-plot goes through it, so that the
 * formats show the same thing.
 *
 * The primitives are few: text, lines, rectangles, polylines, circles,
 * and groups.  Coordinates are pixels of the SVG (points of the PDF, one
 * pixel of the PNG at scale 1), y downwards, origin at the top left.
 * Colours are 0xRRGGBB; PL_NONE is no paint.  Strings are copied.
 *
 *   struct pl_scene *sc = pl_scene_new(800, 600);
 *   const struct pl_style axis = { .stroke = 0x444444, .width = 1 };
 *   const struct pl_font label = { .size = 16, .color = 0x222222,
 *                                  .anchor = PL_MIDDLE };
 *
 *   pl_group(sc, "lane", "lane-high", (const char *[]){
 *            "data-task", "high", NULL });
 *   pl_line(sc, 10, 500, 790, 500, &axis);
 *   pl_text(sc, 400, 540, &label, "time");
 *   pl_group_end(sc);
 *   ret = pl_format_for(path, NULL, &fmt, err, sizeof(err));
 *   if (!ret)
 *           ret = pl_scene_save(sc, path, fmt, err, sizeof(err));
 *   pl_scene_free(sc);
 *
 * Groups carry a class, an id and data- attributes into the SVG (<g>), for
 * tests and for people reading the file; the other backends ignore them.
 * Text is placed at its baseline: x is its start, middle or end by
 * .anchor; a vertical text is turned a quarter left about (x, y).  Its
 * size on the page is estimated by pl_text_width (the same estimate the
 * layouts use to keep labels apart, generous for DejaVu Sans, the font
 * every backend asks for).
 *
 * Memory errors are sticky: the drawing calls return nothing, and
 * pl_scene_write (or pl_scene_error) reports -ENOMEM.  Like the library,
 * nothing here prints or exits.
 */
#ifndef INVLAB_TOOLS_PLOT_SCENE_H
#define INVLAB_TOOLS_PLOT_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PL_NONE 0xffffffffu

/* stroke and fill of a shape */
struct pl_style {
	uint32_t stroke; /* PL_NONE (or width 0): no outline */
	uint32_t fill;	 /* PL_NONE: not filled; a zero style fills black */
	double width;	 /* of the stroke, px */
	double dash_on, dash_off; /* a dashed stroke; 0: solid */
	double fill_opacity;	  /* 0 < o <= 1; 0 reads as 1 (opaque) */
};

enum pl_anchor { PL_START, PL_MIDDLE, PL_END };

struct pl_font {
	double size; /* px, the em of the font */
	bool bold;
	uint32_t color;
	enum pl_anchor anchor;
	bool vertical; /* read bottom to top, turned about (x, y) */
};

enum pl_format { PL_SVG, PL_PNG, PL_PDF };

struct pl_scene;

struct pl_scene *pl_scene_new(double width, double height);
void pl_scene_free(struct pl_scene *sc);
double pl_scene_width(const struct pl_scene *sc);
double pl_scene_height(const struct pl_scene *sc);
/* 0, or -ENOMEM when something could not be recorded */
int pl_scene_error(const struct pl_scene *sc);

/* the document's title (SVG <title>, PDF metadata) */
void pl_title(struct pl_scene *sc, const char *title);
/*
 * A group until the matching pl_group_end; cls and id may be NULL; attrs
 * is NULL or "name", "value", ..., NULL (names start with "data-").
 */
void pl_group(struct pl_scene *sc, const char *cls, const char *id,
	      const char *const *attrs);
void pl_group_end(struct pl_scene *sc);

void pl_text(struct pl_scene *sc, double x, double y, const struct pl_font *f,
	     const char *s);
void pl_line(struct pl_scene *sc, double x0, double y0, double x1, double y1,
	     const struct pl_style *st);
void pl_rect(struct pl_scene *sc, double x, double y, double w, double h,
	     const struct pl_style *st);
/* n points x0 y0 x1 y1 ...; closed makes it a polygon */
void pl_polyline(struct pl_scene *sc, const double *xy, size_t n, bool closed,
		 const struct pl_style *st);
void pl_circle(struct pl_scene *sc, double cx, double cy, double r,
	       const struct pl_style *st);

/*
 * The width a text takes in font f: 0.62 em a character (code point),
 * 0.72 em in bold, more than DejaVu Sans needs for most text.  Its height
 * is taken as from 0.8 em above the baseline to 0.25 em below.
 */
double pl_text_width(const struct pl_font *f, const char *s);
/*
 * s cut (at a character, ending in "...") so that it fits max px in
 * font f; into buf of len bytes.  Returns buf.
 */
const char *pl_text_fit(char *buf, size_t len, const struct pl_font *f,
			double max, const char *s);

/* s drawn at (x, y) in font f, cut to fit max px (pl_text_fit) */
void pl_text_fitted(struct pl_scene *sc, double x, double y,
		    const struct pl_font *f, double max, const char *s);
/* a font of size px, color, anchor and weight */
struct pl_font pl_font_of(double size, uint32_t color, enum pl_anchor a,
			  bool bold);

/* whether this build can write the format (SVG always; PNG, PDF: cairo) */
bool pl_format_available(enum pl_format fmt);
const char *pl_format_name(enum pl_format fmt);
/*
 * 0 when this build can write fmt, else -ENOTSUP with a message naming
 * what it lacks (the meson feature and the package).
 */
int pl_format_check(enum pl_format fmt, char *err, size_t errlen);
/*
 * The format named by "svg", "png" or "pdf" (any case); -EINVAL for
 * another name.
 */
int pl_format_parse(const char *name, enum pl_format *fmt);

/*
 * The format of an output: fmt_name (a --format) when given, else the
 * extension of path, else SVG for "-" or NULL (stdout).  0; -EINVAL with
 * a message for an fmt_name that is no format, a path whose extension
 * is none (or that has none) without fmt_name, or a path and an
 * fmt_name that disagree; -ENOTSUP when this build cannot write it
 * (pl_format_check's message).
 */
int pl_format_for(const char *path, const char *fmt_name, enum pl_format *fmt,
		  char *err, size_t errlen);
/*
 * Write the scene to path ("-": stdout) in fmt, complete or not at all
 * (il_afile: a temporary file renamed over path).  0, or -errno with
 * "cannot create 'PATH': ..." or "cannot write 'PATH': ..." in err.
 */
int pl_scene_save(const struct pl_scene *sc, const char *path,
		  enum pl_format fmt, char *err, size_t errlen);
/*
 * Write the scene to f in fmt.  0, -ENOMEM, -EIO (f refused it),
 * -ENOTSUP when the build cannot write fmt, with a message in err.
 */
int pl_scene_write(const struct pl_scene *sc, FILE *f, enum pl_format fmt,
		   char *err, size_t errlen);
int pl_scene_write_svg(const struct pl_scene *sc, FILE *f);

#endif
