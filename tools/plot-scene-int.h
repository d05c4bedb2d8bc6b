/* SPDX-License-Identifier: MIT */
/*
 * The recorded scene, for its backends (plot-scene.c writes SVG,
 * plot-cairo.c PNG and PDF).  Not for the charts: they use plot-scene.h.
 * IL_PLOT_CAIRO is 1 or 0, set by the build (tools/meson.build).
 */
#ifndef INVLAB_TOOLS_PLOT_SCENE_INT_H
#define INVLAB_TOOLS_PLOT_SCENE_INT_H

#include "plot-scene.h"

enum pl_kind {
	PL_K_GROUP,
	PL_K_GROUP_END,
	PL_K_TEXT,
	PL_K_LINE,
	PL_K_RECT,
	PL_K_POLY,
	PL_K_CIRCLE,
};

struct pl_item {
	enum pl_kind kind;
	struct pl_style st;
	struct pl_font font;
	/* line: x0 y0 x1 y1; rect: x y w h; text: x y; circle: cx cy r */
	double v[4];
	double *xy; /* polyline: n points */
	size_t n;
	bool closed;
	char *s;      /* text; a group's class */
	char *id;     /* a group's id */
	char **attrs; /* a group's "name", "value", ..., NULL */
};

struct pl_scene {
	double width, height;
	char *title;
	struct pl_item *items;
	size_t nitems, cap;
	int depth; /* open groups */
	int err;
};

#if IL_PLOT_CAIRO
int pl__write_cairo(const struct pl_scene *sc, FILE *f, enum pl_format fmt,
		    char *err, size_t errlen);
#endif

#endif
