// SPDX-License-Identifier: MIT
/*
 * The counters block of invlab-compare (counters-cmp.h): per-run counter
 * values and sched-messaging wall times read from the result files of
 * each side, grouped like the histograms (program, or program/scenario
 * name, and configuration), compared by AMean with the rank test over
 * runs and the comparison's correction.
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/report.h>

#include "counters-cmp.h"
#include "escape.h"
#include "results.h"

/* values a side may hold, all series together (far above real use) */
#define MAX_VALUES (IL_RES_MAX_RUNS * 16)

struct series {
	char *group, *metric;
	char *by; /* the runs' value of --by's KEY; NULL: none */
	double *v;
	size_t n, cap;
};

struct side {
	struct series *s;
	size_t n, cap, nvalues;
};

/* two values of a key, NULL for none */
static bool same_value(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

static struct series *series_get(struct side *sd, const char *group,
				 const char *by, const char *metric)
{
	struct series *s;

	for (size_t i = 0; i < sd->n; i++)
		if (!strcmp(sd->s[i].group, group) &&
		    !strcmp(sd->s[i].metric, metric) &&
		    same_value(sd->s[i].by, by))
			return &sd->s[i];
	if (sd->n == sd->cap) {
		size_t cap = sd->cap ? 2 * sd->cap : 16;
		struct series *ns = realloc(sd->s, cap * sizeof(*ns));

		if (!ns)
			return NULL;
		sd->s = ns;
		sd->cap = cap;
	}
	s = &sd->s[sd->n];
	memset(s, 0, sizeof(*s));
	s->group = strdup(group);
	s->metric = strdup(metric);
	s->by = by ? strdup(by) : NULL;
	if (!s->group || !s->metric || (by && !s->by)) {
		free(s->group);
		free(s->metric);
		free(s->by);
		return NULL;
	}
	sd->n++;
	return s;
}

static int add_value(struct side *sd, const char *group, const char *by,
		     const char *metric, double v)
{
	struct series *s;

	if (sd->nvalues >= MAX_VALUES)
		return -E2BIG;
	s = series_get(sd, group, by, metric);
	if (!s)
		return -ENOMEM;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 8;
		double *nv = realloc(s->v, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		s->v = nv;
		s->cap = cap;
	}
	s->v[s->n++] = v;
	sd->nvalues++;
	return 0;
}

static void side_free(struct side *sd)
{
	for (size_t i = 0; i < sd->n; i++) {
		free(sd->s[i].group);
		free(sd->s[i].metric);
		free(sd->s[i].by);
		free(sd->s[i].v);
	}
	free(sd->s);
	memset(sd, 0, sizeof(*sd));
}

static char *esc(struct json_object *o)
{
	const char *s = json_object_get_string(o);

	return il_res_escape(s, (size_t)json_object_get_string_len(o));
}

static bool is_number(struct json_object *o)
{
	return json_object_is_type(o, json_type_int) ||
	       json_object_is_type(o, json_type_double);
}

/* What one file's runs are read with. */
struct file {
	struct json_object *root;
	const char *path;
	const char *scenario;
	const char *by; /* --by's KEY, NULL: none */
	char *err;
	size_t len;
};

/* one run's values into the side */
static int add_run(struct side *sd, const struct file *f, size_t i,
		   struct json_object *run)
{
	struct json_object *c, *ctr, *o;
	char *group = NULL, *conf, *key, *by = NULL;
	int ret = 0;

	if (!json_object_object_get_ex(run, "configuration", &c) ||
	    !json_object_is_type(c, json_type_string))
		return 0;
	/* a run that did not complete (stopped at its bound) has neither
	 * a wall time nor counters to compare */
	if (json_object_object_get_ex(run, "completed", &o) &&
	    json_object_is_type(o, json_type_boolean) &&
	    !json_object_get_boolean(o))
		return 0;
	if (f->by) {
		ret = il_res_run_key(f->root, run, f->by, &by);
		if (ret == -ENOENT) {
			snprintf(f->err, f->len,
				 "%s: runs[%zu]: no '%s' for --by", f->path, i,
				 f->by);
			return -ENOKEY;
		}
		if (ret)
			return ret;
	}
	if (il_res_run_configuration(run, f->by, &conf)) {
		free(by);
		return -ENOMEM;
	}
	/* the configuration as the key: a row each, in one table */
	if (f->by && !strcmp(f->by, "configuration"))
		group = strdup(f->scenario);
	else if (asprintf(&group, "%s/%s", f->scenario, conf) < 0)
		group = NULL;
	free(conf);
	if (!group) {
		free(by);
		return -ENOMEM;
	}
	if (json_object_object_get_ex(run, "wall_ns", &o) && is_number(o))
		ret = add_value(sd, group, by, "wall_ns",
				json_object_get_double(o));
	if (ret || !json_object_object_get_ex(run, "counters", &ctr) ||
	    !json_object_is_type(ctr, json_type_object)) {
		free(group);
		free(by);
		return ret;
	}
	json_object_object_foreach(ctr, k, val)
	{
		if (!is_number(val))
			continue; /* "not supported", the fallback lists */
		key = il_res_escape(k, strlen(k));
		ret = key ? add_value(sd, group, by, key,
				      json_object_get_double(val))
			  : -ENOMEM;
		free(key);
		if (ret)
			break;
	}
	free(group);
	free(by);
	return ret;
}

static int add_file(struct side *sd, struct json_object *root, const char *path,
		    const char *by, char *err, size_t len)
{
	struct json_object *o, *sc, *runs;
	char *program = NULL, *name = NULL, *scenario = NULL;
	int ret = 0;

	if (json_object_object_get_ex(root, "program", &o) &&
	    json_object_is_type(o, json_type_string))
		program = esc(o);
	if (json_object_object_get_ex(root, "scenario", &sc) &&
	    json_object_is_type(sc, json_type_object) &&
	    json_object_object_get_ex(sc, "name", &o) &&
	    json_object_is_type(o, json_type_string))
		name = esc(o);
	if (!program) {
		ret = -ENOMEM;
		goto out;
	}
	if (name ? asprintf(&scenario, "%s/%s", program, name) < 0
		 : !(scenario = strdup(program))) {
		scenario = NULL;
		ret = -ENOMEM;
		goto out;
	}
	if (json_object_object_get_ex(root, "runs", &runs) &&
	    json_object_is_type(runs, json_type_array)) {
		struct file f = { .root = root,
				  .path = path,
				  .scenario = scenario,
				  .by = by,
				  .err = err,
				  .len = len };

		for (size_t i = 0; i < json_object_array_length(runs) && !ret;
		     i++) {
			struct json_object *run =
				json_object_array_get_idx(runs, i);

			if (json_object_is_type(run, json_type_object))
				ret = add_run(sd, &f, i, run);
		}
	}
	if (ret == -E2BIG)
		snprintf(err, len, "counters: more than %d values a side",
			 MAX_VALUES);
out:
	if (ret == -ENOMEM)
		snprintf(err, len, "out of memory");
	free(program);
	free(name);
	free(scenario);
	return ret;
}

static double amean(const double *v, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	return n ? s / (double)n : NAN;
}

static void compare_series(const struct series *b, const struct series *c,
			   struct il_res_cmp *r, double *delta)
{
	bool exact = false;

	memset(r, 0, sizeof(*r));
	r->base = amean(b->v, b->n);
	r->cand = amean(c->v, c->n);
	il_res_spread(b->v, 1, b->n, &r->sb);
	il_res_spread(c->v, 1, c->n, &r->sc);
	r->ratio = r->base ? r->cand / r->base : NAN;
	r->pct_imp = il_res_pct_improvement(r->base, r->cand);
	*delta = r->base ? (r->cand - r->base) / r->base * 100 : NAN;
	r->ci_lo = r->ci_hi = NAN;
	r->summary = IL_RES_SUM_AMEAN;
	r->higher_better = false;
	r->p = r->p_adj = NAN;
	r->test = IL_RES_T_NONE;
	if (b->n >= 2 && c->n >= 2 &&
	    !il_res_mann_whitney(b->v, b->n, c->v, c->n, &r->p, &exact))
		r->test = exact ? IL_RES_T_RANK_EXACT : IL_RES_T_RANK_NORMAL;
	r->p_adj = r->p;
}

static const struct series *series_find(const struct side *sd,
					const struct series *like)
{
	for (size_t k = 0; k < sd->n; k++)
		if (!strcmp(sd->s[k].group, like->group) &&
		    !strcmp(sd->s[k].metric, like->metric) &&
		    same_value(sd->s[k].by, like->by))
			return &sd->s[k];
	return NULL;
}

static int add_row(struct il_ctr_cmp *out, const struct series *b,
		   const struct series *c, size_t side)
{
	struct il_ctr_row *r;

	if (out->n == out->cap) {
		size_t cap = out->cap ? 2 * out->cap : 16;
		struct il_ctr_row *nr = realloc(out->rows, cap * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		out->rows = nr;
		out->cap = cap;
	}
	r = &out->rows[out->n];
	memset(r, 0, sizeof(*r));
	r->group = strdup(b->group);
	r->metric = strdup(b->metric);
	r->by = b->by ? strdup(b->by) : NULL;
	if (!r->group || !r->metric || (b->by && !r->by)) {
		free(r->group);
		free(r->metric);
		free(r->by);
		return -ENOMEM;
	}
	r->side = side;
	r->wall = !strcmp(b->metric, "wall_ns");
	compare_series(b, c, &r->c, &r->delta_pct);
	out->n++;
	return 0;
}

/* a row and where it goes in a sweep: configuration, metric, value */
struct row_order {
	struct il_ctr_row r;
	size_t group, metric, value, at;
};

static int order_cmp(const void *a, const void *b)
{
	const struct row_order *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->metric != y->metric)
		return x->metric < y->metric ? -1 : 1;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/*
 * With --by, the rows of a sweep together: by configuration and metric
 * as the baseline has them first, then by value in the order of
 * il_res_by_sort over every side's values.  0 or -ENOMEM.
 */
static int sort_sweep(struct il_ctr_cmp *out, const struct side *sd, int nsides)
{
	const char **vals;
	struct row_order *o;
	size_t cap = 1, nv = 0;

	for (int k = 0; k < nsides; k++)
		cap += sd[k].n;
	vals = calloc(cap, sizeof(*vals));
	o = calloc(out->n + 1, sizeof(*o));
	if (!vals || !o) {
		free(vals);
		free(o);
		return -ENOMEM;
	}
	for (int k = 0; k < nsides; k++)
		for (size_t i = 0; i < sd[k].n; i++) {
			size_t j = 0;

			/* with --by every series has a value */
			while (j < nv && !same_value(vals[j], sd[k].s[i].by))
				j++;
			if (j == nv)
				vals[nv++] = sd[k].s[i].by;
		}
	if (il_res_by_sort(vals, nv)) {
		free(vals);
		free(o);
		return -ENOMEM;
	}
	for (size_t i = 0; i < out->n; i++) {
		const struct il_ctr_row *r = &out->rows[i];

		o[i].r = *r;
		o[i].at = i;
		o[i].group = o[i].metric = i;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(out->rows[j].group, r->group)) {
				o[i].group = o[j].group;
				break;
			}
		for (size_t j = 0; j < i; j++)
			if (!strcmp(out->rows[j].group, r->group) &&
			    !strcmp(out->rows[j].metric, r->metric)) {
				o[i].metric = o[j].metric;
				break;
			}
		while (o[i].value < nv && !same_value(vals[o[i].value], r->by))
			o[i].value++;
	}
	qsort(o, out->n, sizeof(*o), order_cmp);
	for (size_t i = 0; i < out->n; i++)
		out->rows[i] = o[i].r;
	free(vals);
	free(o);
	return 0;
}

int il_ctr_cmp_build(char *const *paths, int nb, int nc, uint64_t max_input,
		     const struct il_res_cmp_opts *o, struct il_ctr_cmp *out,
		     char *err, size_t len)
{
	const int nfiles[2] = { nb, nc };

	return il_ctr_cmp_build_sides(paths, nfiles, 2, NULL, NULL, max_input,
				      o, out, err, len);
}

/* every side's series, between the files and the rows */
struct il_ctr_cmp_acc {
	struct side *sd;
	int nsides;
	const char *by;
};

struct il_ctr_cmp_acc *il_ctr_cmp_acc_new(int nsides, const char *by)
{
	struct il_ctr_cmp_acc *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	a->sd = calloc((size_t)nsides, sizeof(*a->sd));
	if (!a->sd) {
		free(a);
		return NULL;
	}
	a->nsides = nsides;
	a->by = by;
	return a;
}

int il_ctr_cmp_add_json(struct il_ctr_cmp_acc *a, int side,
			struct json_object *root, const char *path, char *err,
			size_t len)
{
	if (side < 0 || side >= a->nsides)
		return -EINVAL;
	return add_file(&a->sd[side], root, path, a->by, err, len);
}

void il_ctr_cmp_acc_free(struct il_ctr_cmp_acc *a)
{
	if (!a)
		return;
	for (int k = 0; k < a->nsides; k++)
		side_free(&a->sd[k]);
	free(a->sd);
	free(a);
}

int il_ctr_cmp_finish(struct il_ctr_cmp_acc *a, const char *const *labels,
		      const struct il_res_cmp_opts *o, struct il_ctr_cmp *out,
		      char *err, size_t len)
{
	struct side *sd = a->sd;
	int nsides = a->nsides;
	struct il_res_cmp **v = NULL;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->alpha = o->alpha;
	out->correction = o->correction;
	out->nsides = (size_t)nsides;
	out->labels = labels;
	out->by = a->by;
	/*
	 * The baseline's order: wall time, then the counters as written;
	 * each series once for every side that has it, in side order.
	 */
	for (size_t i = 0; i < sd[0].n && !ret; i++)
		for (int k = 1; k < nsides && !ret; k++) {
			const struct series *m =
				series_find(&sd[k], &sd[0].s[i]);

			if (m)
				ret = add_row(out, &sd[0].s[i], m, (size_t)k);
		}
	if (!ret && a->by)
		ret = sort_sweep(out, sd, nsides);
	if (!ret && out->n) {
		v = calloc(out->n, sizeof(*v));
		if (!v)
			ret = -ENOMEM;
		for (size_t i = 0; v && i < out->n; i++)
			v[i] = &out->rows[i].c;
		if (v && il_res_decide_family(v, out->n, o) < 0)
			ret = -ENOMEM;
		for (size_t i = 0; !ret && i < out->n; i++)
			out->worse += out->rows[i].wall &&
				      out->rows[i].c.change == IL_RES_WORSE;
	}
	if (ret == -ENOMEM)
		snprintf(err, len, "out of memory");
	free(v);
	return ret;
}

int il_ctr_cmp_build_sides(char *const *paths, const int *nfiles, int nsides,
			   const char *by, const char *const *labels,
			   uint64_t max_input, const struct il_res_cmp_opts *o,
			   struct il_ctr_cmp *out, char *err, size_t len)
{
	struct il_ctr_cmp_acc *a = il_ctr_cmp_acc_new(nsides, by);
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (!a) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	for (int k = 0, f = 0; k < nsides && !ret; k++)
		for (int i = 0; i < nfiles[k] && !ret; i++, f++) {
			struct json_object *root = il_res_parse_lean(
				paths[f], max_input, err, len, &ret);

			if (!root) {
				ret = ret ? ret : -EINVAL;
				break;
			}
			ret = add_file(&a->sd[k], root, paths[f], by, err, len);
			json_object_put(root);
		}
	if (!ret)
		ret = il_ctr_cmp_finish(a, labels, o, out, err, len);
	il_ctr_cmp_acc_free(a);
	return ret;
}

void il_ctr_cmp_free(struct il_ctr_cmp *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->rows[i].group);
		free(c->rows[i].metric);
		free(c->rows[i].by);
	}
	free(c->rows);
	memset(c, 0, sizeof(*c));
}

/* ---- output ----------------------------------------------------------- */

static void fmt_p(char *buf, size_t len, double p)
{
	if (isnan(p))
		snprintf(buf, len, "-");
	else if (p < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%.3f", p);
}

static void fmt_delta(char *buf, size_t len, double d)
{
	if (isnan(d))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.2f%%", round(d * 100) / 100 + 0.0);
}

static void fmt_val(char *buf, size_t len, double v, bool wall)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (wall)
		snprintf(buf, len, "%.4f", v / 1e9);
	else if (v >= 100)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.2f", v);
}

/*
 * The reviewers' form of a side's change against the baseline: the
 * change as an improvement, lower is better, starred when it is
 * significant ("*-29.27%*"), else in parentheses ("( -1.20%)").
 */
static void fmt_imp(char *buf, size_t len, const struct il_res_cmp *r)
{
	bool star = r->change == IL_RES_BETTER || r->change == IL_RES_WORSE;

	if (isnan(r->pct_imp))
		snprintf(buf, len, "(   -   )");
	else
		snprintf(buf, len, "%s%6.2f%%%s", star ? "*" : "(",
			 round(r->pct_imp * 100) / 100 + 0.0, star ? "*" : ")");
}

/* significant after the correction, at the comparison's level */
static const char *signif(const struct il_ctr_cmp *c,
			  const struct il_res_cmp *r)
{
	if (r->test == IL_RES_T_NONE || isnan(r->p_adj))
		return "too few runs";
	return r->p_adj < c->alpha ? "significant" : "not significant";
}

/* the name of side k in a header */
static const char *label(const struct il_ctr_cmp *c, size_t k)
{
	if (c->labels)
		return c->labels[k];
	return k ? "candidate" : "baseline";
}

/*
 * Two sides are shown as they always were: a wall-time line per
 * configuration, the counters baseline beside candidate.  More sides
 * are a column group each.
 */
static bool by_sides(const struct il_ctr_cmp *c)
{
	return c->nsides > 2 || c->by;
}

static void md_row(FILE *f, int n, const char *const *cells)
{
	fputc('|', f);
	for (int i = 0; i < n; i++)
		fprintf(f, " %s |", cells[i]);
	fputc('\n', f);
}

/* a Markdown cell of a name read from a file: '|' would end it */
static void md_name(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
}

static void print_wall(FILE *f, const struct il_ctr_cmp *c, bool md)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct il_ctr_row *r = &c->rows[i];
		char vb[32], vc[32], pb[32], pc[32], p[16], pa[16], cvb[16],
			cvc[16];

		if (!r->wall)
			continue;
		fmt_val(vb, sizeof(vb), r->c.base, true);
		fmt_val(vc, sizeof(vc), r->c.cand, true);
		snprintf(pb, sizeof(pb), "(  0.00%%)");
		fmt_imp(pc, sizeof(pc), &r->c);
		fmt_p(p, sizeof(p), r->c.p);
		fmt_p(pa, sizeof(pa), r->c.p_adj);
		snprintf(cvb, sizeof(cvb), "%.2f", r->c.sb.cv_pct);
		snprintf(cvc, sizeof(cvc), "%.2f", r->c.sc.cv_pct);
		if (md) {
			char runs[32], b[64], cd[64];
			const char *cells[8];

			snprintf(runs, sizeof(runs), "%zu:%zu", r->c.sb.n,
				 r->c.sc.n);
			snprintf(b, sizeof(b), "%s %s", vb, pb);
			snprintf(cd, sizeof(cd), "%s %s", vc, pc);
			fprintf(f,
				"\n**%s wall time** (s, AMean over runs, lower "
				"is better)\n\n",
				r->group);
			cells[0] = "";
			cells[1] = label(c, 0);
			cells[2] = label(c, 1);
			cells[3] = "runs";
			cells[4] = "p";
			cells[5] = "p adj";
			cells[6] = "change";
			md_row(f, 7, cells);
			fprintf(f, "|---|---:|---:|---:|---:|---:|---|\n");
			cells[0] = "Amean wall";
			cells[1] = b;
			cells[2] = cd;
			cells[3] = runs;
			cells[4] = p;
			cells[5] = pa;
			cells[6] = il_res_change_name(r->c.change);
			md_row(f, 7, cells);
		} else {
			fprintf(f,
				"\n%s wall time (s, AMean over runs, lower is "
				"better; %s over runs, CV %s%% : %s%%)\n",
				r->group, il_res_test_name(r->c.test), cvb,
				cvc);
			fprintf(f,
				"%-12s %10s %-10s %10s %-10s  runs %zu:%zu  p "
				"%s  p adj %s  %s\n",
				"Amean wall", vb, pb, vc, pc, r->c.sb.n,
				r->c.sc.n, p, pa,
				il_res_change_name(r->c.change));
		}
	}
}

/* the end of the rows from i that belong to the same line of a table:
 * one configuration's wall time, every side */
static size_t line_end(const struct il_ctr_cmp *c, size_t i)
{
	size_t j = i + 1;

	while (j < c->n && c->rows[j].wall == c->rows[i].wall &&
	       !strcmp(c->rows[j].group, c->rows[i].group) &&
	       !strcmp(c->rows[j].metric, c->rows[i].metric) &&
	       same_value(c->rows[j].by, c->rows[i].by))
		j++;
	return j;
}

/* the end of the wall-time rows from i of one configuration: a table */
static size_t wall_end(const struct il_ctr_cmp *c, size_t i)
{
	size_t j = i + 1;

	while (j < c->n && c->rows[j].wall &&
	       !strcmp(c->rows[j].group, c->rows[i].group))
		j++;
	return j;
}

/* the row of side k among the rows [i, end) of one line, or NULL */
static const struct il_ctr_row *side_row(const struct il_ctr_cmp *c, size_t i,
					 size_t end, size_t k)
{
	for (; i < end; i++)
		if (c->rows[i].side == k)
			return &c->rows[i];
	return NULL;
}

/* "6:6:5": the runs of the baseline and of sides [k0, k1) */
static void fmt_runs(char *buf, size_t len, const struct il_ctr_cmp *c,
		     size_t i, size_t end, size_t k0, size_t k1)
{
	size_t used = (size_t)snprintf(buf, len, "%zu", c->rows[i].c.sb.n);

	for (size_t k = k0; k < k1 && used < len; k++) {
		const struct il_ctr_row *r = side_row(c, i, end, k);

		used += (size_t)snprintf(buf + used, len - used, ":%zu",
					 r ? r->c.sc.n : 0);
	}
}

static void fmt_cv(char *buf, size_t len, double cv)
{
	if (isnan(cv))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.2f", cv);
}

/* the side columns of a wall-time table: at most this many a table */
#define WALL_FIXED_COLS 5 /* "", --by's value, runs, the baseline, CV */
#define WALL_SIDE_COLS	4 /* the side, its CV, p adj, change */
#define WALL_SIDES	((IL_TABLE_MAX_COLS - WALL_FIXED_COLS) / WALL_SIDE_COLS)
#define CELL		64 /* bytes of a cell */

/*
 * The cells of one line of a wall-time table for the sides [k0, k1):
 * "Amean wall", runs, the baseline's AMean and CV, then each side's
 * AMean with its change, CV, p adj and change; missing sides "-".
 */
static int wall_cells(const struct il_ctr_cmp *c, size_t i, size_t end,
		      size_t k0, size_t k1, char (*cell)[CELL])
{
	const struct il_ctr_row *r0 = &c->rows[i];
	char v[CELL / 2], pc[CELL / 2 - 1];
	int n = 0;

	snprintf(cell[n++], CELL, "Amean wall");
	if (c->by)
		snprintf(cell[n++], CELL, "%s", r0->by);
	fmt_runs(cell[n++], CELL, c, i, end, k0, k1);
	fmt_val(v, sizeof(v), r0->c.base, true);
	snprintf(cell[n++], CELL, "%s (  0.00%%)", v);
	fmt_cv(cell[n++], CELL, r0->c.sb.cv_pct);
	for (size_t k = k0; k < k1; k++) {
		const struct il_ctr_row *r = side_row(c, i, end, k);

		if (!r) {
			for (int x = 0; x < WALL_SIDE_COLS; x++)
				snprintf(cell[n++], CELL, "-");
			continue;
		}
		fmt_val(v, sizeof(v), r->c.cand, true);
		fmt_imp(pc, sizeof(pc), &r->c);
		snprintf(cell[n++], CELL, "%s %s", v, pc);
		fmt_cv(cell[n++], CELL, r->c.sc.cv_pct);
		fmt_p(cell[n++], CELL, r->c.p_adj);
		snprintf(cell[n++], CELL, "%s",
			 il_res_change_name(r->c.change));
	}
	return n;
}

/*
 * More sides than two: one table per configuration, a column group per
 * side, as many as fit a table (the baseline repeated in each).
 */
static void print_wall_sides(FILE *f, const struct il_ctr_cmp *c, bool md)
{
	char(*cell)[CELL] = calloc(WALL_FIXED_COLS + WALL_SIDE_COLS * c->nsides,
				   sizeof(*cell));

	if (!cell)
		return;
	for (size_t i = 0; i < c->n;) {
		size_t end = wall_end(c, i),
		       chunk = md ? c->nsides : WALL_SIDES;

		if (!c->rows[i].wall) {
			i++;
			continue;
		}
		if (md) {
			fprintf(f, "\n**");
			md_name(f, c->rows[i].group);
			fprintf(f, " wall time** (s, AMean over runs, lower is "
				   "better; rank test over runs)\n\n");
		} else {
			fprintf(f,
				"\n%s wall time (s, AMean over runs, lower is "
				"better; rank test over runs)\n",
				c->rows[i].group);
		}
		for (size_t k0 = 1; k0 < c->nsides; k0 += chunk) {
			size_t k1 =
				k0 + chunk < c->nsides ? k0 + chunk : c->nsides;
			struct il_table t;

			if (md) {
				fprintf(f, "| |%s%s%s runs | ",
					c->by ? " " : "", c->by ? c->by : "",
					c->by ? " |" : "");
				md_name(f, label(c, 0));
				fprintf(f, " | CV |");
				for (size_t k = k0; k < k1; k++) {
					fputc(' ', f);
					md_name(f, label(c, k));
					fprintf(f, " | CV | p adj | change |");
				}
				fprintf(f, "\n|---|%s---:|---:|---:|",
					c->by ? "---:|" : "");
				for (size_t k = k0; k < k1; k++)
					fprintf(f, "---:|---:|---:|---|");
				fputc('\n', f);
			} else {
				il_table_init(&t);
				il_table_col(&t, "", false);
				if (c->by)
					il_table_col(&t, c->by, true);
				il_table_col(&t, "runs", true);
				il_table_col(&t, label(c, 0), false);
				il_table_col(&t, "CV", true);
				for (size_t k = k0; k < k1; k++) {
					il_table_col(&t, label(c, k), false);
					il_table_col(&t, "CV", true);
					il_table_col(&t, "p adj", true);
					il_table_col(&t, "change", false);
				}
			}
			/* a line for each value of --by (one without) */
			for (size_t l = i, e; l < end; l = e) {
				int n;

				e = line_end(c, l);
				n = wall_cells(c, l, e, k0, k1, cell);
				if (md)
					fputc('|', f);
				for (int x = 0; x < n; x++) {
					if (!md) {
						il_table_cell(&t, "%s",
							      cell[x]);
						continue;
					}
					fputc(' ', f);
					md_name(f, cell[x]);
					fprintf(f, " |");
				}
				if (md)
					fputc('\n', f);
			}
			if (!md) {
				il_table_print(&t, f);
				il_table_free(&t);
			}
		}
		i = end;
	}
	free(cell);
}

void il_ctr_cmp_print(FILE *f, const struct il_ctr_cmp *c, bool md)
{
	struct il_table t;
	bool any = false, sides = by_sides(c);

	if (!c->n)
		return;
	if (sides)
		print_wall_sides(f, c, md);
	else
		print_wall(f, c, md);
	for (size_t i = 0; i < c->n && !any; i++)
		any = !c->rows[i].wall;
	if (!any)
		return;
	if (sides)
		fprintf(f,
			"\n%scounters%s (per run, AMean over runs; delta %% = "
			"(side - baseline) / baseline; rank test over runs, "
			"%s correction over the %zu rows of this block, every "
			"side against the baseline, wall times included; "
			"shown, not judged)\n%s",
			md ? "**" : "", md ? "**" : "",
			il_res_correction_name(c->correction), c->n,
			md ? "\n" : "");
	else
		fprintf(f,
			"\n%scounters%s (per run, AMean over runs; delta %% = "
			"(candidate - baseline) / baseline; rank test over "
			"runs, %s correction over the %zu rows of this block, "
			"wall times included; shown, not judged)\n%s",
			md ? "**" : "", md ? "**" : "",
			il_res_correction_name(c->correction), c->n,
			md ? "\n" : "");
	if (md) {
		const char *h[] = {
			"configuration", "metric", label(c, 0), label(c, 1),
			"delta %",	 "runs",   "p",		"p adj",
			"significance"
		};
		const char *hs[] = { "configuration", "metric", "side",
				     label(c, 0),     "value",	"delta %",
				     "runs",	      "p",	"p adj",
				     "significance" };

		if (sides) {
			/* --by's values after the configuration */
			fprintf(f, "| configuration%s%s ", c->by ? " | " : "",
				c->by ? c->by : "");
			md_row(f, 9, hs + 1);
			fprintf(f,
				"|---|%s---|---|---:|---:|---:|---:|---:|---:|"
				"---|\n",
				c->by ? "---:|" : "");
		} else {
			md_row(f, 9, h);
			fprintf(f, "|---|---|---:|---:|---:|---:|---:|---:|---|"
				   "\n");
		}
	} else {
		il_table_init(&t);
		il_table_col(&t, "configuration", false);
		if (c->by)
			il_table_col(&t, c->by, true);
		il_table_col(&t, "metric", false);
		if (sides) {
			il_table_col(&t, "side", false);
			il_table_col(&t, label(c, 0), true);
			il_table_col(&t, "value", true);
		} else {
			il_table_col(&t, label(c, 0), true);
			il_table_col(&t, label(c, 1), true);
		}
		il_table_col(&t, "delta %", true);
		il_table_col(&t, "runs", true);
		il_table_col(&t, "p", true);
		il_table_col(&t, "p adj", true);
		il_table_col(&t, "significance", false);
	}
	for (size_t i = 0; i < c->n; i++) {
		const struct il_ctr_row *r = &c->rows[i];
		char vb[32], vc[32], d[32], runs[32], p[16], pa[16];
		const char *cells[11];
		int n = 0;

		if (r->wall)
			continue;
		fmt_val(vb, sizeof(vb), r->c.base, false);
		fmt_val(vc, sizeof(vc), r->c.cand, false);
		fmt_delta(d, sizeof(d), r->delta_pct);
		snprintf(runs, sizeof(runs), "%zu:%zu", r->c.sb.n, r->c.sc.n);
		fmt_p(p, sizeof(p), r->c.p);
		fmt_p(pa, sizeof(pa), r->c.p_adj);
		cells[n++] = r->group;
		if (c->by)
			cells[n++] = r->by;
		cells[n++] = r->metric;
		if (sides)
			cells[n++] = label(c, r->side);
		cells[n++] = vb;
		cells[n++] = vc;
		cells[n++] = d;
		cells[n++] = runs;
		cells[n++] = p;
		cells[n++] = pa;
		cells[n++] = signif(c, &r->c);
		if (md) {
			md_row(f, n, cells);
			continue;
		}
		for (int x = 0; x < n; x++)
			il_table_cell(&t, "%s", cells[x]);
	}
	if (!md) {
		il_table_print(&t, f);
		il_table_free(&t);
	}
}

static void jnum(struct il_json *j, const char *key, double v)
{
	if (isnan(v))
		il_json_null(j, key);
	else
		il_json_double(j, key, v);
}

void il_ctr_cmp_json(struct il_json *j, const struct il_ctr_cmp *c)
{
	il_json_begin_array(j, "counters");
	for (size_t i = 0; i < c->n; i++) {
		const struct il_ctr_row *r = &c->rows[i];

		il_json_begin_object(j, NULL);
		il_json_str(j, "configuration", r->group);
		il_json_str(j, "metric", r->metric);
		if (c->nsides > 2)
			il_json_str(j, "side", label(c, r->side));
		if (r->by)
			il_json_str(j, "by", r->by);
		il_json_str(j, "summary", "AMean");
		jnum(j, "baseline", r->c.base);
		jnum(j, "candidate", r->c.cand);
		jnum(j, "delta_pct", r->delta_pct);
		jnum(j, "pct_imp", r->c.pct_imp);
		il_json_uint(j, "runs_baseline", r->c.sb.n);
		il_json_uint(j, "runs_candidate", r->c.sc.n);
		il_json_str(j, "test", il_res_test_name(r->c.test));
		jnum(j, "p", r->c.p);
		jnum(j, "p_adj", r->c.p_adj);
		if (r->wall)
			il_json_str(j, "change",
				    il_res_change_name(r->c.change));
		else
			il_json_str(j, "significance", signif(c, &r->c));
		il_json_end_object(j);
	}
	il_json_end_array(j);
}
