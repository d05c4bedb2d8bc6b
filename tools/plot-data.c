// SPDX-License-Identifier: MIT
/*
 * invlab-plot's data: which histograms are drawn, one series per
 * configuration (its group on each side), and the bound its runs were
 * judged against, from the checks of the result files (tools/load.c
 * keeps run verdicts, not checks).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "escape.h"
#include "plot.h"

static const uint32_t palette[] = {
	0xd62728, 0x1f77b4, 0x2ca02c, 0xff7f0e,
	0x9467bd, 0x8c564b, 0xe377c2, 0x17becf,
};
#define NCOLORS (sizeof(palette) / sizeof(palette[0]))

static bool has_metric(const struct il_res_set *s, const char *m)
{
	for (size_t i = 0; i < s->ngroups; i++)
		if (il_res_group_metric(&s->groups[i], m))
			return true;
	return false;
}

static bool either_has(const struct plot *p, const char *m)
{
	return has_metric(&p->base, m) || (p->two && has_metric(&p->cand, m));
}

int plot_pick_metrics(struct plot *p, char *err, size_t errlen)
{
	char *save = NULL;

	p->nmetrics = 0;
	if (p->cfg->metric) {
		p->metric_buf = strdup(p->cfg->metric);
		if (!p->metric_buf)
			return -ENOMEM;
		for (char *t = strtok_r(p->metric_buf, ",", &save); t;
		     t = strtok_r(NULL, ",", &save)) {
			if (p->nmetrics == PLOT_MAX_METRICS) {
				snprintf(err, errlen,
					 "--metric: at most %d histograms",
					 PLOT_MAX_METRICS);
				return -EINVAL;
			}
			p->metric[p->nmetrics++] = t;
		}
		return 0;
	}
	if (either_has(p, "blocked_ns")) {
		p->metric[p->nmetrics++] = "blocked_ns";
		if (either_has(p, "wakeup_ns"))
			p->metric[p->nmetrics++] = "wakeup_ns";
		return 0;
	}
	for (size_t i = 0; i < p->base.ngroups; i++) {
		if (p->base.groups[i].nmetrics) {
			p->metric[p->nmetrics++] =
				p->base.groups[i].metrics[0].name;
			break;
		}
	}
	return 0;
}

/*
 * An id from a configuration name: XML names allow only some characters.
 * Two names that sanitize alike are kept apart by their index.
 */
static void make_id(char *buf, size_t len, const char *name, size_t idx,
		    const struct plot *p)
{
	size_t n = 0;

	for (const char *c = name; *c && n + 1 < len; c++) {
		bool ok = (*c >= 'a' && *c <= 'z') ||
			  (*c >= 'A' && *c <= 'Z') ||
			  (*c >= '0' && *c <= '9') || *c == '-' || *c == '_';

		buf[n++] = ok ? *c : '_';
	}
	buf[n] = '\0';
	for (size_t i = 0; i < idx; i++) {
		if (!strcmp(p->s[i].id, buf)) {
			snprintf(buf + n, len - n, "-%zu", idx);
			break;
		}
	}
}

static void fill_side(const struct plot *p, struct plot_side *sd,
		      const struct il_res_group *g)
{
	sd->g = g;
	for (size_t k = 0; k < p->nmetrics; k++)
		sd->m[k] = il_res_group_metric(g, p->metric[k]);
}

static int add_series(struct plot *p, const struct il_res_group *g,
		      bool single_scenario)
{
	const struct il_res_group *gb, *gc;
	struct plot_series *ns, *s;
	char label[512];
	bool any = false;

	gb = il_res_set_find(&p->base, g->scenario, g->configuration, 0);
	gc = p->two ? il_res_set_find(&p->cand, g->scenario, g->configuration,
				      0)
		    : NULL;
	for (size_t k = 0; k < p->nmetrics; k++)
		if (il_res_group_metric(gb, p->metric[k]) ||
		    il_res_group_metric(gc, p->metric[k]))
			any = true;
	if (!any)
		return 0;
	ns = realloc(p->s, (p->n + 1) * sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	p->s = ns;
	s = &ns[p->n];
	memset(s, 0, sizeof(*s));
	if (single_scenario)
		snprintf(label, sizeof(label), "%s", g->configuration);
	else
		snprintf(label, sizeof(label), "%s/%s", g->scenario,
			 g->configuration);
	s->label = strdup(label);
	if (!s->label)
		return -ENOMEM;
	s->color = palette[p->n % NCOLORS];
	fill_side(p, &s->side[0], gb);
	fill_side(p, &s->side[1], gc);
	/* prefixes (hist-, pct-, ratio-) are added where the id is used */
	make_id(s->id, sizeof(s->id), label, p->n, p);
	p->n++;
	return 0;
}

int plot_collect(struct plot *p)
{
	bool single = true;

	if (!p->base.ngroups)
		return 0;
	for (int side = 0; side < 2; side++) {
		const struct il_res_set *s = side ? &p->cand : &p->base;

		for (size_t i = 0; i < s->ngroups; i++)
			if (strcmp(s->groups[i].scenario,
				   p->base.groups[0].scenario))
				single = false;
	}
	for (size_t i = 0; i < p->base.ngroups; i++)
		if (add_series(p, &p->base.groups[i], single))
			return -ENOMEM;
	for (size_t i = 0; p->two && i < p->cand.ngroups; i++) {
		const struct il_res_group *g = &p->cand.groups[i];

		if (il_res_set_find(&p->base, g->scenario, g->configuration, 0))
			continue;
		if (add_series(p, g, single))
			return -ENOMEM;
	}
	return 0;
}

/* ---- bounds ---------------------------------------------------------- */

static const char *str_member(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static bool uint_member(struct json_object *o, const char *key, uint64_t *u)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) < 0)
		return false;
	*u = (uint64_t)json_object_get_int64(v);
	return true;
}

/* the series of this scenario and configuration (as load.c names them) */
static struct plot_series *find_series(struct plot *p, int side,
				       const char *scenario, const char *conf)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct il_res_group *g = p->s[i].side[side].g;

		if (g && !strcmp(g->scenario, scenario) &&
		    !strcmp(g->configuration, conf))
			return &p->s[i];
	}
	return NULL;
}

static void add_check(struct plot_bound *b, struct json_object *ck)
{
	uint64_t bound, noise = 0;
	const char *name = str_member(ck, "bound");

	if (!uint_member(ck, "bound_ns", &bound) || !bound)
		return;
	uint_member(ck, "noise_ns", &noise);
	if (!b->nchecks || bound > b->bound_ns) {
		b->bound_ns = bound;
		b->noise_ns = noise;
		if (name) {
			char *e = il_res_escape(name, strlen(name));

			snprintf(b->name, sizeof(b->name), "%s", e ? e : "");
			free(e);
		}
	}
	b->nchecks++;
}

static int file_bounds(struct plot *p, int side, struct json_object *root)
{
	struct json_object *runs, *sc, *o;
	const char *prog = str_member(root, "program"), *name = NULL;
	char *scenario = NULL, *eprog;

	if (!prog || !json_object_object_get_ex(root, "runs", &runs) ||
	    !json_object_is_type(runs, json_type_array))
		return 0;
	if (json_object_object_get_ex(root, "scenario", &sc) &&
	    json_object_is_type(sc, json_type_object))
		name = str_member(sc, "name");
	eprog = il_res_escape(prog, strlen(prog));
	if (!eprog)
		return -ENOMEM;
	if (name) {
		char *ename = il_res_escape(name, strlen(name));

		if (!ename || asprintf(&scenario, "%s/%s", eprog, ename) < 0)
			scenario = NULL;
		free(ename);
		free(eprog);
	} else {
		scenario = eprog;
	}
	if (!scenario)
		return -ENOMEM;
	for (size_t i = 0; i < json_object_array_length(runs); i++) {
		struct json_object *run = json_object_array_get_idx(runs, i);
		const char *conf = str_member(run, "configuration");
		struct plot_series *s;
		char *econf;

		if (!conf || !json_object_object_get_ex(run, "checks", &o) ||
		    !json_object_is_type(o, json_type_array))
			continue;
		econf = il_res_escape(conf, strlen(conf));
		if (!econf) {
			free(scenario);
			return -ENOMEM;
		}
		s = find_series(p, side, scenario, econf);
		free(econf);
		for (size_t k = 0; s && k < json_object_array_length(o); k++) {
			struct json_object *ck =
				json_object_array_get_idx(o, k);

			if (json_object_is_type(ck, json_type_object))
				add_check(&s->side[side].bound, ck);
		}
	}
	free(scenario);
	return 0;
}

int plot_read_bounds(struct plot *p, char *const *paths, size_t nbase,
		     size_t npaths, char *err, size_t errlen)
{
	for (size_t i = 0; i < npaths; i++) {
		struct json_object *root;
		int ret;

		root = il_res_parse_lean(paths[i], p->cfg->max_input, err,
					 errlen, &ret);
		if (!root)
			return ret;
		ret = file_bounds(p, i < nbase ? 0 : 1, root);
		json_object_put(root);
		if (ret) {
			snprintf(err, errlen, "out of memory");
			return ret;
		}
	}
	return 0;
}

void plot_free(struct plot *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->s[i].label);
	free(p->s);
	free(p->metric_buf);
	il_res_set_free(&p->base);
	il_res_set_free(&p->cand);
}
