// SPDX-License-Identifier: MIT
/*
 * invlab-plot --timeline: a run's worst wait as a timeline (timeline.h),
 * drawn into a scene (plot-scene.h) like the charts, so SVG, PNG and PDF.
 *
 *   pi-classic -p none --trace --json none.json
 *   invlab-plot --timeline none.json -o none-timeline.png
 *
 * The picture of an inversion an audience reads at once: high asks for
 * the lock at the first line, low holds it, medium's lane fills the time
 * until high gets it, far past the bound's bracket; under inherit low is
 * boosted at the request and high gets the lock within the bound.
 *
 * Layout, top to bottom: the title and the kernel; the labels of the
 * moments (released, requests, boosted, acquires, locks), each in the
 * first row where it meets no other; the lanes, each with its name,
 * class and role at the left (so nothing is told by colour alone); the
 * brackets of what was waited and of the bound (+ noise); the time
 * axis, in ms or us from the request.
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <invlab/report.h>
#include <invlab/strbuf.h>
#include <invlab/time.h>

#include "results.h"
#include "timeline.h"

/* ---- reading ------------------------------------------------------------ */

static int read_all(const char *path, uint64_t max, char **out, char *err,
		    size_t errlen)
{
	struct stat st;
	size_t n = 0;
	char *b;
	int fd, ret;

	*out = NULL;
	fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		ret = -errno;
		il_setf(err, errlen, "%s: %s", path, strerror(-ret));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size > max) {
		il_setf(err, errlen, "%s: %s", path,
			S_ISREG(st.st_mode) ? "over the input limit "
					      "(--max-input-size)"
					    : "not a regular file");
		close(fd);
		return S_ISREG(st.st_mode) ? -EFBIG : -EINVAL;
	}
	b = malloc((size_t)st.st_size + 1);
	if (!b) {
		close(fd);
		il_setf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	while (n < (size_t)st.st_size) {
		ssize_t got = read(fd, b + n, (size_t)st.st_size - n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	close(fd);
	b[n] = '\0';
	*out = b;
	return 0;
}

static struct json_object *member(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

static void str_of(struct json_object *o, const char *k, char *buf, size_t len)
{
	struct json_object *v = member(o, k);

	snprintf(buf, len, "%s",
		 v && json_object_is_type(v, json_type_string)
			 ? json_object_get_string(v)
			 : "");
}

/* a time in ns; IL_TL_NONE when null or absent; -1 when not a number */
static int ns_of(struct json_object *o, const char *k, uint64_t *v)
{
	struct json_object *x = member(o, k);
	int64_t i;

	if (!x || json_object_is_type(x, json_type_null)) {
		*v = IL_TL_NONE;
		return 0;
	}
	if (!json_object_is_type(x, json_type_int))
		return -1;
	i = json_object_get_int64(x);
	if (i < 0)
		return -1;
	*v = (uint64_t)i;
	return 0;
}

static int int_of(struct json_object *o, const char *k, int *v)
{
	struct json_object *x = member(o, k);

	if (!x || !json_object_is_type(x, json_type_int))
		return -1;
	*v = json_object_get_int(x);
	return 0;
}

/* a moment must lie in the window; IL_TL_NONE stays */
static bool inside(uint64_t v, uint64_t span)
{
	return v == IL_TL_NONE || v <= span;
}

static int parse_timeline(struct json_object *w, struct il_timeline *tl)
{
	struct json_object *lanes = member(w, "lanes"), *boosts;
	uint64_t none;

	memset(tl, 0, sizeof(*tl));
	str_of(w, "task", tl->waiter, sizeof(tl->waiter));
	str_of(w, "resource", tl->resource, sizeof(tl->resource));
	str_of(w, "locked_by", tl->locker, sizeof(tl->locker));
	str_of(w, "boosted", tl->boosted, sizeof(tl->boosted));
	if (ns_of(w, "t0_ns", &tl->t0_ns) ||
	    ns_of(w, "span_ns", &tl->span_ns) ||
	    ns_of(w, "release_ns", &tl->release_ns) ||
	    ns_of(w, "request_ns", &tl->request_ns) ||
	    ns_of(w, "acquired_ns", &tl->acquired_ns) ||
	    ns_of(w, "delay_ns", &tl->delay_ns) ||
	    ns_of(w, "locked_ns", &tl->locked_ns) ||
	    ns_of(w, "boost_ns", &tl->boost_ns) ||
	    ns_of(w, "bound_ns", &tl->bound_ns) ||
	    ns_of(w, "noise_ns", &tl->noise_ns) ||
	    ns_of(w, "others_ns", &tl->others_ns))
		return -EINVAL;
	if (tl->span_ns == IL_TL_NONE || !tl->span_ns ||
	    tl->release_ns == IL_TL_NONE || tl->request_ns == IL_TL_NONE ||
	    tl->acquired_ns == IL_TL_NONE ||
	    !inside(tl->release_ns, tl->span_ns) ||
	    !inside(tl->request_ns, tl->span_ns) ||
	    !inside(tl->acquired_ns, tl->span_ns) ||
	    !inside(tl->locked_ns, tl->span_ns) ||
	    !inside(tl->boost_ns, tl->span_ns))
		return -EINVAL;
	none = IL_TL_NONE;
	if (tl->bound_ns == none)
		tl->bound_ns = 0;
	if (tl->noise_ns == none)
		tl->noise_ns = 0;
	if (tl->others_ns == none)
		tl->others_ns = 0;
	if (tl->boost_ns != IL_TL_NONE &&
	    (int_of(w, "boost_from_kprio", &tl->boost_from) ||
	     int_of(w, "boost_to_kprio", &tl->boost_to)))
		return -EINVAL;
	if (tl->boost_ns != IL_TL_NONE) {
		struct il_tl_boost *b = &tl->boosts[tl->nboosts++];

		b->at_ns = tl->boost_ns;
		b->from = tl->boost_from;
		b->to = tl->boost_to;
		snprintf(b->task, sizeof(b->task), "%s", tl->boosted);
	}
	/* the later links, when the file has them */
	boosts = member(w, "boosts");
	for (size_t i = 1;
	     boosts && json_object_is_type(boosts, json_type_array) &&
	     i < json_object_array_length(boosts) &&
	     tl->nboosts < IL_TL_MAX_BOOSTS;
	     i++) {
		struct json_object *bo = json_object_array_get_idx(boosts, i);
		struct il_tl_boost *b = &tl->boosts[tl->nboosts];

		str_of(bo, "task", b->task, sizeof(b->task));
		if (ns_of(bo, "at_ns", &b->at_ns) || b->at_ns == IL_TL_NONE ||
		    b->at_ns > tl->span_ns ||
		    int_of(bo, "from_kprio", &b->from) ||
		    int_of(bo, "to_kprio", &b->to))
			return -EINVAL;
		tl->nboosts++;
	}
	if (!lanes || !json_object_is_type(lanes, json_type_array))
		return -EINVAL;
	for (size_t i = 0; i < json_object_array_length(lanes) &&
			   tl->nlanes < IL_TL_MAX_LANES;
	     i++) {
		struct json_object *lo = json_object_array_get_idx(lanes, i);
		struct json_object *sl = member(lo, "slices"), *h;
		struct il_tl_lane *l = &tl->lanes[tl->nlanes++];

		str_of(lo, "name", l->name, sizeof(l->name));
		str_of(lo, "role", l->role, sizeof(l->role));
		if (int_of(lo, "pid", &l->pid) ||
		    int_of(lo, "kprio", &l->kprio))
			return -EINVAL;
		h = member(lo, "higher");
		l->higher = h && json_object_get_boolean(h);
		if (ns_of(lo, "ran_ns", &l->ran_ns) || l->ran_ns == IL_TL_NONE)
			l->ran_ns = 0;
		if (!sl || !json_object_is_type(sl, json_type_array))
			return -EINVAL;
		for (size_t k = 0; k < json_object_array_length(sl) &&
				   l->nslices < IL_TL_MAX_SLICES;
		     k++) {
			struct json_object *so =
				json_object_array_get_idx(sl, k);
			struct il_tl_slice *s = &l->s[l->nslices];

			if (ns_of(so, "from_ns", &s->from_ns) ||
			    ns_of(so, "to_ns", &s->to_ns) ||
			    ns_of(so, "ran_ns", &s->ran_ns) ||
			    int_of(so, "cpu", &s->cpu) ||
			    s->from_ns == IL_TL_NONE ||
			    s->to_ns == IL_TL_NONE || s->to_ns < s->from_ns ||
			    s->to_ns > tl->span_ns)
				return -EINVAL;
			/* absent (IL_TL_NONE): the slice was run whole */
			if (s->ran_ns > s->to_ns - s->from_ns)
				s->ran_ns = s->to_ns - s->from_ns;
			l->nslices++;
		}
	}
	return 0;
}

int il_tl_read(const char *path, const char *config, uint64_t max_input,
	       struct il_timeline *tl, struct il_tl_meta *meta, char *err,
	       size_t errlen)
{
	struct json_object *root, *runs, *run = NULL, *w = NULL, *checks;
	char *buf;
	int ret;

	memset(meta, 0, sizeof(*meta));
	ret = read_all(path, max_input, &buf, err, errlen);
	if (ret)
		return ret;
	root = json_tokener_parse(buf);
	free(buf);
	runs = member(root, "runs");
	if (!root || !runs || !json_object_is_type(runs, json_type_array)) {
		il_setf(err, errlen, "%s: not an invlab result (no runs)",
			path);
		json_object_put(root);
		return -EINVAL;
	}
	/* a file without schema_version is of before it: version 1 */
	if (il_res_check_version(root, path, err, errlen)) {
		json_object_put(root);
		return -EINVAL;
	}
	str_of(root, "program", meta->program, sizeof(meta->program));
	str_of(member(root, "kernel"), "release", meta->release,
	       sizeof(meta->release));
	for (size_t i = 0; i < json_object_array_length(runs) && !w; i++) {
		char c[64];

		run = json_object_array_get_idx(runs, i);
		str_of(run, "configuration", c, sizeof(c));
		if (config && strcmp(c, config))
			continue;
		w = member(run, "worst_wait");
		if (w)
			snprintf(meta->configuration,
				 sizeof(meta->configuration), "%s", c);
	}
	if (!w) {
		il_setf(err, errlen,
			"%s: no run%s%s%s has a worst wait (the run was not "
			"traced: see --trace)",
			path, config ? " '" : "", config ? config : "",
			config ? "'" : "");
		json_object_put(root);
		return -ENOENT;
	}
	ret = parse_timeline(w, tl);
	if (ret)
		il_setf(err, errlen, "%s: %s: malformed worst_wait", path,
			meta->configuration);
	checks = member(run, "checks");
	for (size_t i = 0;
	     !ret && checks && json_object_is_type(checks, json_type_array) &&
	     i < json_object_array_length(checks);
	     i++) {
		struct json_object *ck = json_object_array_get_idx(checks, i);
		char task[32];

		str_of(ck, "task", task, sizeof(task));
		if (!strcmp(task, tl->waiter)) {
			str_of(ck, "verdict", meta->verdict,
			       sizeof(meta->verdict));
			break;
		}
	}
	json_object_put(root);
	return ret;
}

/* ---- drawing ------------------------------------------------------------ */

#define W	  1200.0
#define MARGIN	  20.0
#define FONT	  16.0 /* every text but the title */
#define TITLE	  20.0
#define ROW_H	  24.0 /* a row of moment labels */
#define LANE_H	  52.0
#define BAR_H	  26.0
#define LABEL_MAX 20 /* characters of a lane's name shown */
#define MAX_ROWS  8

#define C_TEXT	  0x000000u
#define C_DIM	  0x444444u
#define C_BAND	  0xf3f3f3u
#define C_WAITER  0x1f77b4u
#define C_HOLDER  0x2ca02cu
#define C_LOWER	  0xd62728u
#define C_HIGHER  0xff7f0eu
#define C_FOREIGN 0x9467bdu
#define C_OTHER	  0x7f7f7fu

static const struct pl_font f_text = { .size = FONT, .color = C_TEXT };
static const struct pl_font f_mid = { .size = FONT,
				      .color = C_TEXT,
				      .anchor = PL_MIDDLE };

/*
 * The width a text is laid out with where texts share a row: the size
 * times the characters, wider than any font draws them, so that labels
 * that fit here never touch.  The lane labels' column, which no other
 * text shares, is sized by the scene's estimate (pl_text_width) instead.
 */
static double text_w(const char *s, double size)
{
	return size * (double)strlen(s);
}

struct box {
	double x0, y0, x1, y1;
};

static bool meets(const struct box *a, const struct box *b)
{
	return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

struct tl_draw {
	struct pl_scene *sc;
	const struct il_timeline *tl;
	double x0, x1; /* the time axis */
};

static double xof(const struct tl_draw *g, uint64_t ns)
{
	double span = (double)g->tl->span_ns;

	if ((double)ns > span)
		ns = g->tl->span_ns;
	return g->x0 + (g->x1 - g->x0) * (double)ns / span;
}

static uint32_t role_colour(const struct il_tl_lane *l)
{
	if (!strcmp(l->role, "waiter"))
		return C_WAITER;
	if (!strcmp(l->role, "holder"))
		return C_HOLDER;
	if (!strcmp(l->role, "lower"))
		return C_LOWER;
	if (!strcmp(l->role, "foreign"))
		return l->higher ? C_HIGHER : C_FOREIGN;
	return C_OTHER;
}

/* what a lane's second line says: class and role, in words */
static void lane_role(const struct il_tl_lane *l, char *buf, size_t len)
{
	char cls[24];

	il_trace_class_name(l->kprio, cls, sizeof(cls));
	if (!strcmp(l->role, "foreign"))
		snprintf(buf, len, "%s, %s", cls,
			 l->higher	  ? "interference"
			 : l->kprio < 100 ? "foreign, inverts"
					  : "foreign, fair class");
	else if (!strcmp(l->role, "lower"))
		snprintf(buf, len, "%s, lower", cls);
	else
		snprintf(buf, len, "%s, %s", cls, l->role);
}

static void lane_name(const struct il_tl_lane *l, char *buf, size_t len)
{
	if (!strcmp(l->role, "foreign"))
		snprintf(buf, len, "%.15s %d", l->name, l->pid);
	else
		snprintf(buf, len, "%.*s", LABEL_MAX, l->name);
}

struct moment {
	uint64_t ns;
	const char *cls;
	uint32_t colour;
	double dash_on, dash_off;
	char label[64];
	/* placed */
	int row;
	double tx;
	enum pl_anchor anchor;
};

/* moments in time order, each label in the first row where it fits */
static int place_moments(const struct tl_draw *g, struct moment *m, int n)
{
	struct box placed[MAX_ROWS * 8];
	int np = 0, rows = 1;

	for (int i = 1; i < n; i++)
		for (int k = i; k > 0 && m[k].ns < m[k - 1].ns; k--) {
			struct moment t = m[k];

			m[k] = m[k - 1];
			m[k - 1] = t;
		}
	for (int i = 0; i < n; i++) {
		double x = xof(g, m[i].ns), w = text_w(m[i].label, FONT);
		bool right = x + 4 + w <= W - MARGIN;

		m[i].tx = right ? x + 4 : x - 4;
		m[i].anchor = right ? PL_START : PL_END;
		for (m[i].row = 0; m[i].row < MAX_ROWS; m[i].row++) {
			struct box b = {
				right ? x + 4 : x - 4 - w,
				m[i].row * ROW_H,
				right ? x + 4 + w : x - 4,
				m[i].row * ROW_H + FONT,
			};
			bool ok = b.x0 >= MARGIN;

			for (int k = 0; k < np && ok; k++)
				ok = !meets(&b, &placed[k]);
			if (ok) {
				if (np <
				    (int)(sizeof(placed) / sizeof(placed[0])))
					placed[np++] = b;
				break;
			}
		}
		if (m[i].row == MAX_ROWS)
			m[i].row = -1; /* no room: the line alone is drawn */
		else if (m[i].row + 1 > rows)
			rows = m[i].row + 1;
	}
	return rows;
}

/* a step of 1, 2 or 5 times a power of ten with room for the labels */
static double tick_step(double span_ns, double px, double label_px)
{
	double want = span_ns / (px / (label_px + FONT)), step = 1;

	while (step < want) {
		if (step * 2 >= want)
			return step * 2;
		if (step * 5 >= want)
			return step * 5;
		step *= 10;
	}
	return step;
}

static void fmt_tick(char *buf, size_t len, double ns, bool ms)
{
	double v = ms ? ns / 1e6 : ns / 1e3;

	if (fabs(v) < 1e-9)
		v = 0;
	snprintf(buf, len, "%s%g %s", v > 0 ? "+" : "", v, ms ? "ms" : "us");
}

/* a horizontal bracket from a to b at y, its label under it */
static void bracket(const struct tl_draw *g, double a, double b, double y,
		    const char *cls, uint32_t colour, const char *label,
		    bool open_end)
{
	const struct pl_style st = { .stroke = colour,
				     .fill = PL_NONE,
				     .width = 2 };
	double mid = (a + b) / 2, w = text_w(label, FONT);
	double xy[8] = { a, y + 8, a, y, b, y, b, y + 8 };

	pl_group(g->sc, cls, NULL, NULL);
	pl_polyline(g->sc, xy, open_end ? 3 : 4, false, &st);
	if (mid - w / 2 < MARGIN)
		mid = MARGIN + w / 2;
	if (mid + w / 2 > W - MARGIN)
		mid = W - MARGIN - w / 2;
	pl_text(g->sc, mid, y + 8 + FONT + 2, &f_mid, label);
	pl_group_end(g->sc);
}

static void draw_lanes(const struct tl_draw *g, double lanes_y)
{
	const struct il_timeline *tl = g->tl;
	const struct pl_font bold = { .size = FONT,
				      .bold = true,
				      .color = C_TEXT };
	const struct pl_font dim = { .size = FONT, .color = C_DIM };
	const struct pl_style band = { .stroke = PL_NONE, .fill = C_BAND };
	char lab[64], role[64], pid[16];

	for (size_t i = 0; i < tl->nlanes; i++) {
		const struct il_tl_lane *l = &tl->lanes[i];
		double ly = lanes_y + (double)i * LANE_H;

		snprintf(pid, sizeof(pid), "%d", l->pid);
		pl_group(g->sc, "lane", NULL,
			 (const char *const[]){ "data-role",
						!strcmp(l->role, "foreign")
							? "foreign"
							: "task",
						"data-pid", pid, NULL });
		if (i % 2 == 0)
			pl_rect(g->sc, MARGIN, ly, W - 2 * MARGIN, LANE_H,
				&band);
		lane_name(l, lab, sizeof(lab));
		lane_role(l, role, sizeof(role));
		pl_text(g->sc, MARGIN + 4, ly + 22, &bold, lab);
		pl_text(g->sc, MARGIN + 4, ly + 44, &dim, role);
		for (size_t k = 0; k < l->nslices; k++) {
			const struct il_tl_slice *s = &l->s[k];
			double a = xof(g, s->from_ns), b = xof(g, s->to_ns);
			double len = (double)(s->to_ns - s->from_ns);
			/* merged pieces: as dense as the time run in them */
			double dense = len > 0 ? (double)s->ran_ns / len : 1;
			struct pl_style st = { .stroke = PL_NONE,
					       .fill = role_colour(l),
					       .fill_opacity =
						       fmax(dense, 0.2) };
			char cpu[16], rn[24];

			snprintf(cpu, sizeof(cpu), "%d", s->cpu);
			il_format_duration(rn, sizeof(rn), s->ran_ns);
			pl_group(g->sc, "slice", NULL,
				 (const char *const[]){ "data-cpu", cpu,
							"data-ran", rn, NULL });
			pl_rect(g->sc, a, ly + (LANE_H - BAR_H) / 2,
				fmax(b - a, 1.0), BAR_H, &st);
			pl_group_end(g->sc);
		}
		pl_group_end(g->sc);
	}
}

static void draw_axis(const struct tl_draw *g, double y)
{
	const struct il_timeline *tl = g->tl;
	const struct pl_style axis = { .stroke = C_TEXT, .width = 1 };
	bool unit_ms = tl->span_ns >= 2 * IL_NSEC_PER_MSEC;
	double step = tick_step((double)tl->span_ns, g->x1 - g->x0, 8 * FONT);
	double ms = ceil(-(double)tl->request_ns / step) * step;

	pl_group(g->sc, "axis", NULL, NULL);
	pl_line(g->sc, g->x0, y, g->x1, y, &axis);
	for (; ms + (double)tl->request_ns <= (double)tl->span_ns; ms += step) {
		double x = xof(g, (uint64_t)(ms + (double)tl->request_ns));
		char t[32];

		fmt_tick(t, sizeof(t), ms, unit_ms);
		pl_line(g->sc, x, y, x, y + 6, &axis);
		if (x - text_w(t, FONT) / 2 >= MARGIN &&
		    x + text_w(t, FONT) / 2 <= W - MARGIN)
			pl_text(g->sc, x, y + 8 + FONT, &f_mid, t);
	}
	pl_group_end(g->sc);
}

struct pl_scene *il_tl_scene(const struct il_timeline *tl,
			     const struct il_tl_meta *meta)
{
	struct tl_draw g = { .tl = tl };
	struct moment m[4 + IL_TL_MAX_BOOSTS];
	char title[200], sub[200], d1[24], d2[24], lab[64], role[64];
	const struct pl_font f_title = { .size = TITLE,
					 .bold = true,
					 .color = C_TEXT };
	const struct pl_font f_sub = { .size = FONT, .color = C_DIM };
	const struct pl_style white = { .stroke = PL_NONE, .fill = 0xffffff };
	double label_w = 0, top, lanes_y, y, h;
	int n = 0, rows;

	if (!tl->span_ns)
		return NULL;
	for (size_t i = 0; i < tl->nlanes; i++) {
		const struct pl_font bold = { .size = FONT, .bold = true };

		lane_name(&tl->lanes[i], lab, sizeof(lab));
		lane_role(&tl->lanes[i], role, sizeof(role));
		label_w = fmax(label_w, fmax(pl_text_width(&bold, lab),
					     pl_text_width(&f_text, role)));
	}
	g.x0 = MARGIN + label_w + 16;
	g.x1 = W - MARGIN;

	/* the moments */
	il_format_duration(d1, sizeof(d1), tl->acquired_ns - tl->request_ns);
	m[n++] = (struct moment){ .ns = tl->release_ns,
				  .cls = "marker release",
				  .colour = C_OTHER,
				  .dash_on = 4,
				  .dash_off = 4 };
	snprintf(m[n - 1].label, sizeof(m[0].label), "%s released", tl->waiter);
	m[n++] = (struct moment){ .ns = tl->request_ns,
				  .cls = "marker request",
				  .colour = C_TEXT };
	snprintf(m[n - 1].label, sizeof(m[0].label), "%s requests %s",
		 tl->waiter, tl->resource[0] ? tl->resource : "the lock");
	m[n++] = (struct moment){ .ns = tl->acquired_ns,
				  .cls = "marker acquired",
				  .colour = C_WAITER };
	snprintf(m[n - 1].label, sizeof(m[0].label), "%s acquires it",
		 tl->waiter);
	for (size_t i = 0; i < tl->nboosts; i++) {
		m[n++] = (struct moment){ .ns = tl->boosts[i].at_ns,
					  .cls = "marker boost",
					  .colour = C_HOLDER };
		snprintf(m[n - 1].label, sizeof(m[0].label),
			 "%s boosted %d->%d", tl->boosts[i].task,
			 il_trace_rt_prio(tl->boosts[i].from),
			 il_trace_rt_prio(tl->boosts[i].to));
	}
	if (tl->locked_ns != IL_TL_NONE) {
		m[n++] = (struct moment){ .ns = tl->locked_ns,
					  .cls = "marker locked",
					  .colour = C_HOLDER,
					  .dash_on = 2,
					  .dash_off = 3 };
		snprintf(m[n - 1].label, sizeof(m[0].label), "%s locks it",
			 tl->locker);
	}
	top = 72;
	rows = place_moments(&g, m, n);
	lanes_y = top + rows * ROW_H + 8;
	y = lanes_y + (double)tl->nlanes * LANE_H;
	h = y + 2 * (FONT + 26) + 16 + FONT + 16 + MARGIN;
	if (tl->others_ns)
		h += 2 * FONT;

	g.sc = pl_scene_new(W, h);
	if (!g.sc)
		return NULL;
	il_format_duration(d2, sizeof(d2), tl->delay_ns);
	snprintf(title, sizeof(title), "%s %s: %s's worst wait, %s%s%s%s",
		 meta->program, meta->configuration, tl->waiter, d2,
		 meta->verdict[0] ? " (" : "", meta->verdict,
		 meta->verdict[0] ? ")" : "");
	snprintf(sub, sizeof(sub),
		 "kernel %s; the scheduler's trace, one lane per task",
		 meta->release[0] ? meta->release : "unknown");
	pl_title(g.sc, title);
	pl_rect(g.sc, 0, 0, W, h, &white);
	pl_group(g.sc, "title", NULL, NULL);
	pl_text(g.sc, MARGIN, 30, &f_title, title);
	pl_text(g.sc, MARGIN, 56, &f_sub, sub);
	pl_group_end(g.sc);

	draw_lanes(&g, lanes_y);
	/* the moments across the lanes, and their labels */
	for (int i = 0; i < n; i++) {
		const struct pl_style st = { .stroke = m[i].colour,
					     .width = 2,
					     .dash_on = m[i].dash_on,
					     .dash_off = m[i].dash_off };
		const struct pl_font lf = { .size = FONT,
					    .color = C_TEXT,
					    .anchor = m[i].anchor };
		double x = xof(&g, m[i].ns);

		pl_group(g.sc, m[i].cls, NULL, NULL);
		pl_line(g.sc, x,
			m[i].row >= 0 ? top + m[i].row * ROW_H : lanes_y, x, y,
			&st);
		if (m[i].row >= 0)
			pl_text(g.sc, m[i].tx, top + m[i].row * ROW_H + FONT,
				&lf, m[i].label);
		pl_group_end(g.sc);
	}
	/* what was waited, and the bound from the request */
	snprintf(lab, sizeof(lab), "%s blocked %s", tl->waiter, d1);
	bracket(&g, xof(&g, tl->request_ns), xof(&g, tl->acquired_ns), y + 6,
		"blocked", C_WAITER, lab, false);
	y += FONT + 26;
	if (tl->bound_ns) {
		uint64_t end = tl->request_ns + tl->bound_ns;
		uint64_t nend = end + tl->noise_ns;
		const struct pl_style noise = { .stroke = C_TEXT,
						.width = 2,
						.dash_on = 3,
						.dash_off = 3 };

		il_format_duration(d2, sizeof(d2), tl->bound_ns);
		if (tl->noise_ns) {
			il_format_duration(d1, sizeof(d1), tl->noise_ns);
			snprintf(lab, sizeof(lab), "bound %s + %s noise", d2,
				 d1);
		} else {
			snprintf(lab, sizeof(lab), "bound %s", d2);
		}
		if (tl->noise_ns && end < tl->span_ns) {
			pl_group(g.sc, "noise", NULL, NULL);
			pl_line(g.sc, xof(&g, end), y + 6, xof(&g, nend), y + 6,
				&noise);
			pl_group_end(g.sc);
		}
		bracket(&g, xof(&g, tl->request_ns), xof(&g, end), y + 6,
			"bound", C_TEXT, lab, end > tl->span_ns);
	}
	y += FONT + 26;

	/* the axis: time from the request */
	draw_axis(&g, y);
	if (tl->others_ns) {
		il_format_duration(d1, sizeof(d1), tl->others_ns);
		snprintf(lab, sizeof(lab), "other foreign tasks: %s", d1);
		pl_group(g.sc, "others", NULL, NULL);
		pl_text(g.sc, MARGIN, y + 16 + 2 * FONT, &f_text, lab);
		pl_group_end(g.sc);
	}
	if (pl_scene_error(g.sc)) {
		pl_scene_free(g.sc);
		return NULL;
	}
	return g.sc;
}

int il_tl_main(char **files, int nfiles, const char *config, const char *output,
	       enum pl_format fmt, uint64_t max_input)
{
	struct il_timeline tl;
	struct il_tl_meta meta;
	struct pl_scene *sc;
	char err[512];
	int ret;

	if (nfiles != 1) {
		fprintf(stderr,
			"invlab-plot: --timeline draws one result file "
			"(%d given)\nTry 'invlab-plot --help'.\n",
			nfiles);
		return 2;
	}
	ret = il_tl_read(files[0], config, max_input, &tl, &meta, err,
			 sizeof(err));
	if (ret) {
		fprintf(stderr, "invlab-plot: %s\n", err);
		return ret == -ENOENT ? 77 : 99;
	}
	sc = il_tl_scene(&tl, &meta);
	if (!sc) {
		fprintf(stderr, "invlab-plot: out of memory\n");
		return 99;
	}
	ret = pl_scene_save(sc, output, fmt, err, sizeof(err));
	pl_scene_free(sc);
	if (ret) {
		fprintf(stderr, "invlab-plot: -o: %s\n", err);
		return 99;
	}
	return 0;
}
