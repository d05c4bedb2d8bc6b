// SPDX-License-Identifier: MIT
/*
 * Result files read back with json-c, merged exactly, and compared.
 *
 * This file is compiled only when the build has json-c (rt-tests keeps
 * its libnuma code apart the same way); the demos never need it.  The
 * three host-side tools share it: invlab-compare and invlab-plot read two
 * sides, invlab-gate one side and an optional baseline.
 *
 * Why the statistics are the ones they are:
 *
 * - A group's headline value is taken from the merged histogram, never
 *   averaged over runs: a p99 of p99s is not a p99, while adding bins is
 *   exact, so three 1 s runs give the same p99 as one 3 s run would.
 * - The spread is the coefficient of variation of the per-run values, as
 *   kernel reviewers show it, because run-to-run noise (boot, placement,
 *   host steal) is the noise that decides whether a change is real.
 * - Significance therefore comes from the per-run values first: a rank
 *   test (Mann-Whitney U: no normality assumed, latency never is) when
 *   there are runs enough for it.  With n runs a side the smallest p it
 *   can reach is 2 / C(2n, n): 0.10 with three runs, 0.029 with four.
 *   With two or three runs a side, Welch's t test over the same values
 *   (it assumes the per-run values are roughly normal, which holds
 *   better for a run's percentile than for single samples).  Only when
 *   a side has a single run, so that run-to-run noise cannot be seen at
 *   all, a bootstrap over the merged bins: it sees sample-to-sample noise
 *   only, and calls a difference real that another boot might not
 *   reproduce.  The report names the test used so nobody mistakes one
 *   for the other.
 * - The bootstrap is computed, not drawn: the distribution of a resampled
 *   quantile follows from the binomial law of the bin counts, so results
 *   are reproducible and cost one pass over the buckets.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include <invlab/time.h>

#include <invlab/strbuf.h>

#include "results.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* parts-per-billion scale of percentiles, as in lib/hist.c */
#define P_SCALE 1000000000ull
/* binomial tails: above this variance the normal law is used (skew < 1%) */
#define BINOM_NORMAL_VAR 1e4

static const struct {
	const char *name;
	double q;
} stats[IL_RES_NSTATS] = {
	[IL_RES_COUNT] = { "count", 0 },   [IL_RES_MIN] = { "min", 0 },
	[IL_RES_MEAN] = { "mean", 0 },	   [IL_RES_P50] = { "p50", 0.5 },
	[IL_RES_P90] = { "p90", 0.9 },	   [IL_RES_P99] = { "p99", 0.99 },
	[IL_RES_P999] = { "p999", 0.999 }, [IL_RES_P9999] = { "p9999", 0.9999 },
	[IL_RES_MAX] = { "max", 0 },
};

static const char *const fp_keys[IL_RES_FP_N] = {
	[IL_RES_FP_RELEASE] = "release",
	[IL_RES_FP_VERSION] = "version",
	[IL_RES_FP_CMDLINE] = "cmdline",
	[IL_RES_FP_PREEMPT] = "preempt_current",
	[IL_RES_FP_PROXY_CONFIG] = "config_proxy_exec",
	[IL_RES_FP_PROXY_ACTIVE] = "proxy_exec_active",
	[IL_RES_FP_HZ] = "hz",
	[IL_RES_FP_RT_RUNTIME] = "rt_runtime_us",
	[IL_RES_FP_CPUS] = "cpus_online",
	[IL_RES_FP_CPU_MODEL] = "cpu_model",
	[IL_RES_FP_VIRT] = "virt",
	[IL_RES_FP_HOSTNAME] = "hostname",
};

const char *il_res_stat_name(enum il_res_stat s)
{
	return (unsigned)s < IL_RES_NSTATS ? stats[s].name : "?";
}

int il_res_stat_parse(const char *name, enum il_res_stat *s)
{
	for (unsigned i = 0; i < IL_RES_NSTATS; i++) {
		if (!strcmp(name, stats[i].name)) {
			*s = (enum il_res_stat)i;
			return 0;
		}
	}
	return -EINVAL;
}

double il_res_stat_quantile(enum il_res_stat s)
{
	return (unsigned)s < IL_RES_NSTATS ? stats[s].q : 0;
}

const char *il_res_stat_list(void)
{
	return "count, min, mean, p50, p90, p99, p999, p9999, max";
}

int il_res_stat_value(const struct il_hist *h, enum il_res_stat s, bool upper,
		      double *v)
{
	uint64_t u;
	int ret;

	if (s == IL_RES_COUNT) {
		*v = (double)h->count;
		return 0;
	}
	if (!h->count)
		return -ENODATA;
	switch (s) {
	case IL_RES_MIN:
		*v = (double)h->min;
		return 0;
	case IL_RES_MAX:
		*v = (double)h->max;
		return 0;
	case IL_RES_MEAN:
		*v = il_hist_mean(h);
		return 0;
	default:
		break;
	}
	if (!stats[s].q)
		return -EINVAL;
	ret = upper ? il_hist_percentile_upper(h, stats[s].q, &u)
		    : il_hist_percentile(h, stats[s].q, &u);
	if (ret)
		return ret;
	*v = (double)u;
	return 0;
}

const char *il_res_fp_key(int i)
{
	return i >= 0 && i < IL_RES_FP_N ? fp_keys[i] : "?";
}

/* ---- reading ------------------------------------------------------- */

/* a non-negative JSON integer, or -EINVAL */
static int get_u64(struct json_object *o, uint64_t *v)
{
	int64_t i;

	if (!o || !json_object_is_type(o, json_type_int))
		return -EINVAL;
	i = json_object_get_int64(o);
	if (i < 0)
		return -EINVAL;
	*v = (uint64_t)i;
	return 0;
}

int il_res_hist_from_json(struct json_object *o, struct il_hist *h,
			  const char *what, char *err, size_t errlen)
{
	struct json_object *bins, *m;
	uint64_t count, total = 0, v;
	size_t n;
	int ret;

	il_hist_init(h);
	if (!json_object_is_type(o, json_type_object)) {
		il_setf(err, errlen, "%s: not an object", what);
		return -EINVAL;
	}
	if (!json_object_object_get_ex(o, "count", &m) || get_u64(m, &count)) {
		il_setf(err, errlen, "%s.count: missing or not a count", what);
		return -EINVAL;
	}
	if (!json_object_object_get_ex(o, "bins", &bins) ||
	    !json_object_is_type(bins, json_type_array)) {
		il_setf(err, errlen, "%s.bins: missing or not an array", what);
		return -EINVAL;
	}
	n = json_object_array_length(bins);
	for (size_t i = 0; i < n; i++) {
		struct json_object *b = json_object_array_get_idx(bins, i);
		uint64_t lo, c;

		if (!json_object_is_type(b, json_type_array) ||
		    json_object_array_length(b) != 2 ||
		    get_u64(json_object_array_get_idx(b, 0), &lo) ||
		    get_u64(json_object_array_get_idx(b, 1), &c)) {
			il_setf(err, errlen,
				"%s.bins[%zu]: not a [lo_ns, count] pair", what,
				i);
			return -EINVAL;
		}
		ret = il_hist_add_bin(h, lo, c);
		if (ret == -EINVAL) {
			il_setf(err, errlen,
				"%s.bins[%zu]: %llu is not a bucket edge of "
				"this histogram layout",
				what, i, (unsigned long long)lo);
			return ret;
		}
		if (ret) {
			il_setf(err, errlen, "%s.bins[%zu]: counts overflow",
				what, i);
			return ret;
		}
		total += c;
	}
	if (total != count) {
		il_setf(err, errlen,
			"%s: bins add up to %llu samples, count says %llu",
			what, (unsigned long long)total,
			(unsigned long long)count);
		return -EINVAL;
	}
	if (!count)
		return 0;
	/* the exact extremes, when written and consistent with the bins */
	if (json_object_object_get_ex(o, "min", &m) && !get_u64(m, &v)) {
		if (il_hist_index(v) != il_hist_index(h->min)) {
			il_setf(err, errlen,
				"%s.min: %llu is not in the "
				"first bin",
				what, (unsigned long long)v);
			return -EINVAL;
		}
		h->min = v;
	}
	if (json_object_object_get_ex(o, "max", &m) && !get_u64(m, &v)) {
		if (il_hist_index(v) != il_hist_index(h->max)) {
			il_setf(err, errlen,
				"%s.max: %llu is not in the "
				"last bin",
				what, (unsigned long long)v);
			return -EINVAL;
		}
		h->max = v;
	}
	if (json_object_object_get_ex(o, "mean", &m) &&
	    (json_object_is_type(m, json_type_double) ||
	     json_object_is_type(m, json_type_int))) {
		double sum = json_object_get_double(m) * (double)count;

		if (sum >= 0 && sum < 1.8e19)
			h->sum = (uint64_t)llround(sum);
	}
	if (json_object_object_get_ex(o, "overflow", &m) && !get_u64(m, &v))
		h->overflow = v;
	return 0;
}

static char *xstrdup(const char *s)
{
	return strdup(s ? s : "");
}

/* JSON text of a scalar: strings bare, null as "unknown" */
static const char *scalar_text(struct json_object *o)
{
	if (!o)
		return "unknown";
	if (json_object_is_type(o, json_type_string))
		return json_object_get_string(o);
	return json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
}

static int read_file(const char *path, char **buf, size_t *len)
{
	FILE *f = fopen(path, "r");
	size_t cap = 65536, n = 0;
	char *b;

	if (!f)
		return -errno;
	b = malloc(cap);
	while (b) {
		size_t got = fread(b + n, 1, cap - n, f);
		char *nb;

		n += got;
		if (n < cap)
			break;
		cap *= 2;
		nb = realloc(b, cap);
		if (!nb)
			free(b);
		b = nb;
	}
	if (!b) {
		fclose(f);
		return -ENOMEM;
	}
	if (ferror(f)) {
		int e = errno ? -errno : -EIO;

		free(b);
		fclose(f);
		return e;
	}
	fclose(f);
	*buf = b;
	*len = n;
	return 0;
}

static int line_of(const char *buf, size_t off)
{
	int line = 1;

	for (size_t i = 0; i < off; i++)
		if (buf[i] == '\n')
			line++;
	return line;
}

static struct json_object *parse(const char *path, char *err, size_t errlen,
				 int *ret)
{
	struct json_tokener *tok;
	struct json_object *root;
	enum json_tokener_error je;
	char *buf = NULL;
	size_t len = 0, end;

	*ret = read_file(path, &buf, &len);
	if (*ret) {
		il_setf(err, errlen, "%s: %s", path, strerror(-*ret));
		return NULL;
	}
	tok = json_tokener_new();
	if (!tok) {
		free(buf);
		*ret = -ENOMEM;
		il_setf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	root = json_tokener_parse_ex(tok, buf, (int)len);
	je = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	if (!root || je != json_tokener_success) {
		il_setf(err, errlen, "%s:%d: not JSON: %s", path,
			line_of(buf, end),
			je == json_tokener_continue
				? "unexpected end of file"
				: json_tokener_error_desc(je));
		json_object_put(root);
		root = NULL;
		*ret = -EINVAL;
	} else {
		while (end < len && strchr(" \t\r\n", buf[end]))
			end++;
		if (end < len) {
			il_setf(err, errlen, "%s:%d: data after the JSON value",
				path, line_of(buf, end));
			json_object_put(root);
			root = NULL;
			*ret = -EINVAL;
		}
	}
	json_tokener_free(tok);
	free(buf);
	return root;
}

static struct il_res_group *find_group(struct il_res_set *s,
				       const char *scenario, const char *conf,
				       size_t file)
{
	for (size_t i = 0; i < s->ngroups; i++) {
		struct il_res_group *g = &s->groups[i];

		if (!strcmp(g->scenario, scenario) &&
		    !strcmp(g->configuration, conf) &&
		    (!s->per_file || g->file == file))
			return g;
	}
	return NULL;
}

static struct il_res_group *add_group(struct il_res_set *s,
				      const char *scenario, const char *conf,
				      size_t file)
{
	struct il_res_group *g = find_group(s, scenario, conf, file);

	if (g)
		return g;
	if (s->ngroups == s->groups_cap) {
		size_t cap = s->groups_cap ? 2 * s->groups_cap : 8;
		struct il_res_group *ng = realloc(s->groups, cap * sizeof(*ng));

		if (!ng)
			return NULL;
		s->groups = ng;
		s->groups_cap = cap;
	}
	g = &s->groups[s->ngroups];
	memset(g, 0, sizeof(*g));
	g->scenario = xstrdup(scenario);
	g->configuration = xstrdup(conf);
	g->file = s->per_file ? file : 0;
	if (!g->scenario || !g->configuration) {
		free(g->scenario);
		free(g->configuration);
		return NULL;
	}
	s->ngroups++;
	return g;
}

static struct il_res_metric *add_metric(struct il_res_group *g,
					const char *name)
{
	struct il_res_metric *m, *nm;

	for (size_t i = 0; i < g->nmetrics; i++)
		if (!strcmp(g->metrics[i].name, name))
			return &g->metrics[i];
	nm = realloc(g->metrics, (g->nmetrics + 1) * sizeof(*nm));
	if (!nm)
		return NULL;
	g->metrics = nm;
	m = &g->metrics[g->nmetrics];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(name);
	m->merged = malloc(sizeof(*m->merged));
	if (!m->name || !m->merged) {
		free(m->name);
		free(m->merged);
		return NULL;
	}
	il_hist_init(m->merged);
	g->nmetrics++;
	return m;
}

static int add_run_values(struct il_res_metric *m, const struct il_hist *h)
{
	if (m->nruns == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 4;
		double(*nr)[IL_RES_NSTATS] = realloc(m->run, cap * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		m->run = nr;
		m->cap = cap;
	}
	for (unsigned i = 0; i < IL_RES_NSTATS; i++) {
		double v;

		m->run[m->nruns][i] =
			il_res_stat_value(h, (enum il_res_stat)i, false, &v)
				? NAN
				: v;
	}
	m->nruns++;
	return 0;
}

static enum il_res_verdict verdict_of(const char *v)
{
	static const char *const names[] = { "PASS", "FAIL", "UNDECIDED",
					     "SKIP" };

	for (unsigned i = 0; v && i < ARRAY_SIZE(names); i++)
		if (!strcasecmp(v, names[i]))
			return (enum il_res_verdict)i;
	return IL_RES_V_OTHER;
}

static bool is_hist_key(const char *key, struct json_object *val)
{
	size_t n = strlen(key);

	return n > 3 && !strcmp(key + n - 3, "_ns") &&
	       json_object_is_type(val, json_type_object) &&
	       json_object_object_get_ex(val, "bins", NULL);
}

/*
 * Walk the runs of a file.  With commit false it only checks them (so a
 * bad file leaves the set untouched); with commit true it adds them.
 */
static int walk_runs(struct il_res_set *s, struct json_object *runs,
		     const char *path, const char *scenario, size_t file,
		     bool commit, struct il_hist *h, char *err, size_t errlen)
{
	size_t n = json_object_array_length(runs);

	for (size_t i = 0; i < n; i++) {
		struct json_object *run = json_object_array_get_idx(runs, i);
		struct json_object *c, *v, *e;
		struct il_res_group *g = NULL;
		char what[256];
		int ret;

		if (!json_object_is_type(run, json_type_object) ||
		    !json_object_object_get_ex(run, "configuration", &c) ||
		    !json_object_is_type(c, json_type_string)) {
			il_setf(err, errlen,
				"%s: runs[%zu]: no \"configuration\" string",
				path, i);
			return -EINVAL;
		}
		if (commit) {
			g = add_group(s, scenario, json_object_get_string(c),
				      file);
			if (!g)
				goto nomem;
			g->nruns++;
			json_object_object_get_ex(run, "verdict", &v);
			json_object_object_get_ex(run, "expected", &e);
			g->verdicts[verdict_of(v ? json_object_get_string(v)
						 : NULL)]++;
			/* an UNDECIDED run is neither as expected nor not */
			if (v && e &&
			    verdict_of(json_object_get_string(v)) !=
				    IL_RES_V_UNDECIDED &&
			    verdict_of(json_object_get_string(v)) !=
				    verdict_of(json_object_get_string(e)))
				g->unexpected++;
		}
		json_object_object_foreach(run, key, val)
		{
			struct il_res_metric *m;

			if (!is_hist_key(key, val))
				continue;
			snprintf(what, sizeof(what), "%s: runs[%zu].%s", path,
				 i, key);
			ret = il_res_hist_from_json(val, h, what, err, errlen);
			if (ret)
				return ret;
			if (!commit)
				continue;
			m = add_metric(g, key);
			if (!m || add_run_values(m, h))
				goto nomem;
			il_hist_merge(m->merged, h);
		}
	}
	return 0;
nomem:
	il_setf(err, errlen, "%s: out of memory", path);
	return -ENOMEM;
}

static int read_scenario(struct il_res_file *f, struct json_object *sc)
{
	size_t n = 0;

	if (!sc || !json_object_is_type(sc, json_type_object))
		return 0;
	f->scenario = calloc((size_t)json_object_object_length(sc) + 1,
			     sizeof(*f->scenario));
	if (!f->scenario)
		return -ENOMEM;
	json_object_object_foreach(sc, key, val)
	{
		if (val && (json_object_is_type(val, json_type_object) ||
			    json_object_is_type(val, json_type_array)))
			continue;
		f->scenario[n].key = xstrdup(key);
		f->scenario[n].value = xstrdup(scalar_text(val));
		if (!f->scenario[n].key || !f->scenario[n].value)
			return -ENOMEM;
		n++;
		f->nscenario = n;
	}
	return 0;
}

static void free_file(struct il_res_file *f)
{
	free(f->path);
	free(f->program);
	for (int i = 0; i < IL_RES_FP_N; i++)
		free(f->fp[i]);
	for (size_t i = 0; i < f->nscenario; i++) {
		free(f->scenario[i].key);
		free(f->scenario[i].value);
	}
	free(f->scenario);
	memset(f, 0, sizeof(*f));
}

void il_res_set_init(struct il_res_set *s, bool per_file)
{
	memset(s, 0, sizeof(*s));
	s->per_file = per_file;
}

int il_res_set_load(struct il_res_set *s, const char *path, char *err,
		    size_t errlen)
{
	struct json_object *root, *o, *kernel = NULL, *runs, *sc = NULL;
	struct il_res_file *f;
	struct il_hist *h = NULL;
	char scenario[256];
	const char *program;
	int ret;

	root = parse(path, err, errlen, &ret);
	if (!root)
		return ret;
	ret = -EINVAL;
	if (!json_object_is_type(root, json_type_object)) {
		il_setf(err, errlen, "%s: not an invlab result (not an object)",
			path);
		goto out;
	}
	if (!json_object_object_get_ex(root, "schema_version", &o) ||
	    !json_object_is_type(o, json_type_int)) {
		il_setf(err, errlen,
			"%s: not an invlab result (no schema_version)", path);
		goto out;
	}
	/* a newer schema may mean something else by the same keys */
	if (json_object_get_int(o) != 1) {
		il_setf(err, errlen,
			"%s: schema_version %d, this tool reads version 1",
			path, json_object_get_int(o));
		goto out;
	}
	if (!json_object_object_get_ex(root, "program", &o) ||
	    !json_object_is_type(o, json_type_string)) {
		il_setf(err, errlen, "%s: no \"program\" string", path);
		goto out;
	}
	program = json_object_get_string(o);
	if (!json_object_object_get_ex(root, "runs", &runs) ||
	    !json_object_is_type(runs, json_type_array)) {
		il_setf(err, errlen, "%s: no \"runs\" array", path);
		goto out;
	}
	json_object_object_get_ex(root, "kernel", &kernel);
	json_object_object_get_ex(root, "scenario", &sc);
	/* a program with several scenarios names them */
	if (sc && json_object_object_get_ex(sc, "name", &o) &&
	    json_object_is_type(o, json_type_string))
		snprintf(scenario, sizeof(scenario), "%s/%s", program,
			 json_object_get_string(o));
	else
		snprintf(scenario, sizeof(scenario), "%s", program);

	ret = -ENOMEM;
	h = malloc(sizeof(*h));
	if (!h) {
		il_setf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	ret = walk_runs(s, runs, path, scenario, s->nfiles, false, h, err,
			errlen);
	if (ret)
		goto out;

	ret = -ENOMEM;
	if (s->nfiles == s->files_cap) {
		size_t cap = s->files_cap ? 2 * s->files_cap : 8;
		struct il_res_file *nf = realloc(s->files, cap * sizeof(*nf));

		if (!nf) {
			il_setf(err, errlen, "%s: out of memory", path);
			goto out;
		}
		s->files = nf;
		s->files_cap = cap;
	}
	f = &s->files[s->nfiles];
	memset(f, 0, sizeof(*f));
	f->path = xstrdup(path);
	f->program = xstrdup(program);
	for (int i = 0; i < IL_RES_FP_N; i++) {
		struct json_object *v = NULL;

		if (kernel)
			json_object_object_get_ex(kernel, fp_keys[i], &v);
		f->fp[i] = xstrdup(scalar_text(v));
	}
	f->return_code = -1;
	if (json_object_object_get_ex(root, "return_code", &o) &&
	    json_object_is_type(o, json_type_int))
		f->return_code = json_object_get_int(o);
	f->interrupted = json_object_object_get_ex(root, "interrupted", &o) &&
			 json_object_get_boolean(o);
	if (read_scenario(f, sc)) {
		free_file(f);
		il_setf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	s->nfiles++;
	ret = walk_runs(s, runs, path, scenario, s->nfiles - 1, true, h, err,
			errlen);
out:
	free(h);
	json_object_put(root);
	return ret;
}

void il_res_set_free(struct il_res_set *s)
{
	for (size_t i = 0; i < s->nfiles; i++)
		free_file(&s->files[i]);
	for (size_t i = 0; i < s->ngroups; i++) {
		struct il_res_group *g = &s->groups[i];

		for (size_t j = 0; j < g->nmetrics; j++) {
			free(g->metrics[j].name);
			free(g->metrics[j].merged);
			free(g->metrics[j].run);
		}
		free(g->metrics);
		free(g->scenario);
		free(g->configuration);
	}
	free(s->files);
	free(s->groups);
	memset(s, 0, sizeof(*s));
}

const struct il_res_group *il_res_set_find(const struct il_res_set *s,
					   const char *scenario,
					   const char *configuration,
					   size_t file)
{
	return find_group((struct il_res_set *)s, scenario, configuration,
			  file);
}

const struct il_res_metric *il_res_group_metric(const struct il_res_group *g,
						const char *name)
{
	for (size_t i = 0; g && i < g->nmetrics; i++)
		if (!strcmp(g->metrics[i].name, name))
			return &g->metrics[i];
	return NULL;
}

/* distinct values among vals[0..n) (n is small: files of one side) */
static const char *common_value(const char *const *vals, size_t n, int *nvalues)
{
	int distinct = 0;

	for (size_t i = 0; i < n; i++) {
		size_t j;

		for (j = 0; j < i; j++)
			if (!strcmp(vals[i], vals[j]))
				break;
		if (j == i)
			distinct++;
	}
	if (nvalues)
		*nvalues = distinct;
	return distinct <= 1 ? (n ? vals[0] : NULL) : "mixed";
}

const char *il_res_set_fp(const struct il_res_set *s, int i, int *nvalues)
{
	const char **vals;
	const char *r;

	if (nvalues)
		*nvalues = 0;
	if (i < 0 || i >= IL_RES_FP_N || !s->nfiles)
		return "none";
	vals = malloc(s->nfiles * sizeof(*vals));
	if (!vals)
		return "unknown";
	for (size_t f = 0; f < s->nfiles; f++)
		vals[f] = s->files[f].fp[i];
	r = common_value(vals, s->nfiles, nvalues);
	free(vals);
	return r;
}

const char *il_res_set_scenario(const struct il_res_set *s, const char *key,
				int *nvalues)
{
	const char **vals;
	const char *r;
	bool any = false;

	if (nvalues)
		*nvalues = 0;
	if (!s->nfiles)
		return NULL;
	vals = malloc(s->nfiles * sizeof(*vals));
	if (!vals)
		return NULL;
	for (size_t f = 0; f < s->nfiles; f++) {
		const struct il_res_file *fi = &s->files[f];

		vals[f] = "absent";
		for (size_t k = 0; k < fi->nscenario; k++) {
			if (!strcmp(fi->scenario[k].key, key)) {
				vals[f] = fi->scenario[k].value;
				any = true;
				break;
			}
		}
	}
	r = any ? common_value(vals, s->nfiles, nvalues) : NULL;
	free(vals);
	return r;
}

/* ---- statistics ---------------------------------------------------- */

void il_res_spread(const double *v, size_t stride, size_t n,
		   struct il_res_spread *out)
{
	double sum = 0, ss = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (isnan(v[i * stride]))
			continue;
		sum += v[i * stride];
		k++;
	}
	out->n = k;
	out->mean = k ? sum / (double)k : NAN;
	out->sd = NAN;
	out->cv_pct = NAN;
	if (k < 2)
		return;
	for (size_t i = 0; i < n; i++) {
		double d = v[i * stride] - out->mean;

		if (!isnan(v[i * stride]))
			ss += d * d;
	}
	out->sd = sqrt(ss / (double)(k - 1));
	out->cv_pct = out->mean != 0 ? out->sd / fabs(out->mean) * 100 : NAN;
}

double il_res_pct_improvement(double base, double cand)
{
	if (isnan(base) || isnan(cand))
		return NAN;
	if (base == 0)
		return cand == 0 ? 0 : NAN;
	return (base - cand) / base * 100;
}

struct ranked {
	double v;
	int side; /* 0: a, 1: b */
};

static int cmp_ranked(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;

	return (a->v > b->v) - (a->v < b->v);
}

double il_res_mann_whitney_min_p(size_t na, size_t nb)
{
	double c = 1;

	/* C(na + nb, na), as a double: only its size matters here */
	for (size_t i = 1; i <= na; i++)
		c = c * (double)(nb + i) / (double)i;
	return na && nb ? fmin(1, 2 / c) : 1;
}

/*
 * Exact two-sided p from the permutation distribution of a's rank sum.
 * Ranks are doubled so that midranks are integers, and every way of
 * choosing na of the N ranks is counted (in doubles: C(60, 30) ~ 1e17).
 */
static int mw_exact(const int *r2, size_t n, size_t na, long s_obs, double *p)
{
	long smax = 0, e2;
	double *dp, total = 0, hit = 0;
	size_t w;

	for (size_t i = 0; i < n; i++)
		smax += r2[i];
	w = (size_t)smax + 1;
	dp = calloc((na + 1) * w, sizeof(*dp));
	if (!dp)
		return -ENOMEM;
	dp[0] = 1;
	/*
	 * Only sums reached so far can be non-zero, and only counts k from
	 * which na can still be completed with the ranks left matter.
	 */
	for (long i = 0, reach = 0; (size_t)i < n; i++) {
		size_t kmax = (size_t)i + 1 < na ? (size_t)i + 1 : na;
		size_t kmin =
			na + (size_t)i + 1 > n ? na + (size_t)i + 1 - n : 1;

		reach += r2[i];
		for (size_t k = kmax; k >= kmin && k >= 1; k--)
			for (long s = reach; s >= r2[i]; s--)
				dp[k * w + (size_t)s] +=
					dp[(k - 1) * w + (size_t)(s - r2[i])];
	}
	/* E[sum of doubled ranks] = na * (N + 1) */
	e2 = (long)(na * (n + 1));
	for (long s = 0; s <= smax; s++) {
		double c = dp[na * w + (size_t)s];

		total += c;
		if (labs(s - e2) >= labs(s_obs - e2))
			hit += c;
	}
	free(dp);
	*p = total > 0 ? fmin(1, hit / total) : 1;
	return 0;
}

int il_res_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
			double *p, bool *exact)
{
	struct ranked *r;
	int *r2;
	size_t n = 0, ka = 0;
	long s_obs = 0;
	double ties = 0;
	int ret = 0;

	r = malloc((na + nb) * sizeof(*r) + 1);
	r2 = malloc((na + nb) * sizeof(*r2) + 1);
	if (!r || !r2) {
		free(r);
		free(r2);
		return -ENOMEM;
	}
	for (size_t i = 0; i < na; i++)
		if (!isnan(a[i]))
			r[n++] = (struct ranked){ a[i], 0 };
	ka = n;
	for (size_t i = 0; i < nb; i++)
		if (!isnan(b[i]))
			r[n++] = (struct ranked){ b[i], 1 };
	if (!ka || ka == n) {
		ret = -EINVAL;
		goto out;
	}
	qsort(r, n, sizeof(*r), cmp_ranked);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j < n && r[j].v == r[i].v)
			j++;
		/* ranks i+1 .. j share (i+1+j)/2, doubled: i+1+j */
		for (size_t k = i; k < j; k++) {
			r2[k] = (int)(i + 1 + j);
			if (r[k].side == 0)
				s_obs += r2[k];
		}
		ties += (double)(j - i) * (double)(j - i) * (double)(j - i) -
			(double)(j - i);
		i = j;
	}
	if (n <= IL_RES_MW_EXACT_MAX) {
		*exact = true;
		ret = mw_exact(r2, n, ka, s_obs, p);
	} else {
		double n1 = (double)ka, n2 = (double)(n - ka), nn = (double)n;
		double u = (double)s_obs / 2 - n1 * (n1 + 1) / 2;
		double var = n1 * n2 / 12 * ((nn + 1) - ties / (nn * (nn - 1)));
		double z;

		*exact = false;
		if (var <= 0) {
			*p = 1;
		} else {
			z = (fabs(u - n1 * n2 / 2) - 0.5) / sqrt(var);
			*p = z <= 0 ? 1 : fmin(1, erfc(z / M_SQRT2));
		}
	}
out:
	free(r);
	free(r2);
	return ret;
}

/* continued fraction of the incomplete beta function (modified Lentz) */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double qab = a + b, qap = a + 1, qam = a - 1, c = 1, d, h;

	d = 1 - qab * x / qap;
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 10000; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

double il_res_betai(double a, double b, double x)
{
	double bt;

	if (!(x > 0))
		return 0;
	if (x >= 1)
		return 1;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		 b * log1p(-x));
	/* the fraction converges fast on this side of the mean */
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

int il_res_welch(const double *a, size_t na, const double *b, size_t nb,
		 double *p)
{
	struct il_res_spread sa, sb;
	double va, vb, se2, t, df;

	il_res_spread(a, 1, na, &sa);
	il_res_spread(b, 1, nb, &sb);
	if (sa.n < 2 || sb.n < 2)
		return -EINVAL;
	va = sa.sd * sa.sd / (double)sa.n;
	vb = sb.sd * sb.sd / (double)sb.n;
	se2 = va + vb;
	/* every run gave the same value on both sides: no spread to test */
	if (se2 == 0) {
		*p = sa.mean == sb.mean ? 1 : 0;
		return 0;
	}
	t = (sa.mean - sb.mean) / sqrt(se2);
	df = se2 * se2 /
	     (va * va / (double)(sa.n - 1) + vb * vb / (double)(sb.n - 1));
	*p = fmin(1, il_res_betai(df / 2, 0.5, df / (df + t * t)));
	return 0;
}

static double log_pmf(uint64_t n, double p, uint64_t i)
{
	return lgamma((double)n + 1) - lgamma((double)i + 1) -
	       lgamma((double)(n - i) + 1) + (double)i * log(p) +
	       (double)(n - i) * log1p(-p);
}

double il_res_binom_tail(uint64_t n, double p, uint64_t k)
{
	double mean, var, t, sum = 0;

	if (k == 0)
		return 1;
	if (k > n || !(p > 0))
		return 0;
	if (p >= 1)
		return 1;
	mean = (double)n * p;
	var = mean * (1 - p);
	if (var > BINOM_NORMAL_VAR) {
		/* with continuity correction */
		double z = ((double)k - 0.5 - mean) / sqrt(var);

		return 0.5 * erfc(z / M_SQRT2);
	}
	/*
	 * Sum the smaller tail from its end nearest the mean, where terms
	 * shrink geometrically: a few hundred terms at this variance.
	 */
	if ((double)k > mean) {
		t = exp(log_pmf(n, p, k));
		for (uint64_t i = k; i <= n && t > 0; i++) {
			sum += t;
			if (t < sum * 1e-17)
				break;
			t *= (double)(n - i) / (double)(i + 1) * p / (1 - p);
		}
		return fmin(1, sum);
	}
	t = exp(log_pmf(n, p, k - 1));
	for (uint64_t i = k - 1;; i--) {
		sum += t;
		if (i == 0 || t < sum * 1e-17)
			break;
		t *= (double)i / (double)(n - i + 1) * (1 - p) / p;
	}
	return fmax(0, 1 - sum);
}

/* ceil(q * count) as lib/hist.c computes the rank */
static uint64_t rank_of(uint64_t count, double q)
{
	uint64_t ppb = (uint64_t)(q * (double)P_SCALE + 1e-6);

	return count / P_SCALE * ppb +
	       (count % P_SCALE * ppb + P_SCALE - 1) / P_SCALE;
}

/* where the k-th smallest of n resampled values falls, bucket by bucket */
static void quantile_dist(const struct il_hist *h, double q, double *dist)
{
	uint64_t k = rank_of(h->count, q), cum = 0;
	double prev = 0;

	for (unsigned j = 0; j < IL_HIST_NBUCKETS; j++) {
		double tail;

		dist[j] = 0;
		if (!h->bins[j])
			continue;
		cum += h->bins[j];
		tail = cum >= h->count
			       ? 1
			       : il_res_binom_tail(
					 h->count,
					 (double)cum / (double)h->count, k);
		dist[j] = fmax(0, tail - prev);
		prev = tail;
	}
}

int il_res_boot_quantile(const struct il_hist *base, const struct il_hist *cand,
			 double q, double *p)
{
	double *db, *dc, bcdf = 0, lt = 0, eq = 0, gt = 0;

	if (!il_hist_has_percentile(base, q) ||
	    !il_hist_has_percentile(cand, q))
		return -ENODATA;
	db = malloc(2 * IL_HIST_NBUCKETS * sizeof(*db));
	if (!db)
		return -ENOMEM;
	dc = db + IL_HIST_NBUCKETS;
	quantile_dist(base, q, db);
	quantile_dist(cand, q, dc);
	/* bcdf: P(base* in a bucket below j) before the update */
	for (unsigned j = 0; j < IL_HIST_NBUCKETS; j++) {
		gt += dc[j] * bcdf;
		eq += dc[j] * db[j];
		bcdf += db[j];
		lt += dc[j] * fmax(0, 1 - bcdf);
	}
	free(db);
	*p = fmin(1, 2 * fmin(lt + eq / 2, gt + eq / 2));
	return 0;
}

/* variance of the samples, each taken at its bucket's midpoint */
static double bin_variance(const struct il_hist *h, double mean)
{
	double ss = 0;

	for (unsigned j = 0; j < IL_HIST_NBUCKETS; j++) {
		uint64_t lo, hi;
		double mid, d;

		if (!h->bins[j])
			continue;
		lo = il_hist_bucket_lo(j);
		hi = il_hist_bucket_hi(j);
		mid = (double)lo + (double)(hi - lo - 1) / 2;
		mid = fmax(fmin(mid, (double)h->max), (double)h->min);
		d = mid - mean;
		ss += (double)h->bins[j] * d * d;
	}
	return ss / (double)(h->count - 1);
}

int il_res_mean_z(const struct il_hist *base, const struct il_hist *cand,
		  double *p)
{
	double mb, mc, se;

	if (base->count < 2 || cand->count < 2)
		return -ENODATA;
	mb = il_hist_mean(base);
	mc = il_hist_mean(cand);
	se = sqrt(bin_variance(base, mb) / (double)base->count +
		  bin_variance(cand, mc) / (double)cand->count);
	if (se == 0)
		*p = mb == mc ? 1 : 0;
	else
		*p = fmin(1, erfc(fabs(mc - mb) / se / M_SQRT2));
	return 0;
}

const char *il_res_test_name(enum il_res_test t)
{
	switch (t) {
	case IL_RES_T_RANK_EXACT:
		return "U-exact";
	case IL_RES_T_RANK_NORMAL:
		return "U-normal";
	case IL_RES_T_WELCH:
		return "Welch-t";
	case IL_RES_T_BOOT_QUANTILE:
		return "bootstrap";
	case IL_RES_T_Z_MEAN:
		return "z-mean";
	case IL_RES_T_NONE:
		break;
	}
	return "-";
}

const char *il_res_change_name(enum il_res_change c)
{
	switch (c) {
	case IL_RES_NA:
		return "n/a";
	case IL_RES_TOO_FEW:
		return "too few runs";
	case IL_RES_SAME:
		return "no change";
	case IL_RES_BETTER:
		return "better";
	case IL_RES_WORSE:
		return "worse";
	}
	return "?";
}

/* the non-NAN per-run values of one statistic */
static size_t run_values(const struct il_res_metric *m, enum il_res_stat st,
			 double *out)
{
	size_t n = 0;

	for (size_t i = 0; i < m->nruns; i++)
		if (!isnan(m->run[i][st]))
			out[n++] = m->run[i][st];
	return n;
}

static void run_test(const struct il_res_metric *base,
		     const struct il_res_metric *cand, enum il_res_stat st,
		     const struct il_res_cmp_opts *o, struct il_res_cmp *out)
{
	enum il_res_test_mode mode = o->mode;
	bool rank_ok =
		out->sb.n && out->sc.n &&
		il_res_mann_whitney_min_p(out->sb.n, out->sc.n) <= o->alpha;
	bool welch_ok = out->sb.n >= 2 && out->sc.n >= 2;
	double q = il_res_stat_quantile(st), *a;
	size_t na, nb;
	bool exact;

	if (mode == IL_RES_TEST_AUTO)
		mode = rank_ok	  ? IL_RES_TEST_RANK
		       : welch_ok ? IL_RES_TEST_WELCH
				  : IL_RES_TEST_BOOTSTRAP;
	if ((mode == IL_RES_TEST_RANK && !rank_ok) ||
	    (mode == IL_RES_TEST_WELCH && !welch_ok))
		return;
	if (mode == IL_RES_TEST_BOOTSTRAP) {
		if (q > 0 && !il_res_boot_quantile(base->merged, cand->merged,
						   q, &out->p))
			out->test = IL_RES_T_BOOT_QUANTILE;
		else if (st == IL_RES_MEAN &&
			 !il_res_mean_z(base->merged, cand->merged, &out->p))
			out->test = IL_RES_T_Z_MEAN;
		return;
	}
	a = malloc((base->nruns + cand->nruns + 1) * sizeof(*a));
	if (!a)
		return;
	na = run_values(base, st, a);
	nb = run_values(cand, st, a + na);
	if (mode == IL_RES_TEST_RANK) {
		if (!il_res_mann_whitney(a, na, a + na, nb, &out->p, &exact))
			out->test = exact ? IL_RES_T_RANK_EXACT
					  : IL_RES_T_RANK_NORMAL;
	} else if (!il_res_welch(a, na, a + na, nb, &out->p)) {
		out->test = IL_RES_T_WELCH;
	}
	free(a);
}

void il_res_compare(const struct il_res_metric *base,
		    const struct il_res_metric *cand, enum il_res_stat st,
		    const struct il_res_cmp_opts *o, struct il_res_cmp *out)
{
	memset(out, 0, sizeof(*out));
	out->base = out->cand = out->ratio = out->pct_imp = out->p = NAN;
	out->sb.mean = out->sb.sd = out->sb.cv_pct = NAN;
	out->sc = out->sb;
	out->change = IL_RES_NA;
	if (!base || !cand)
		return;
	if (il_res_stat_value(base->merged, st, false, &out->base))
		out->base = NAN;
	if (il_res_stat_value(cand->merged, st, false, &out->cand))
		out->cand = NAN;
	il_res_spread(base->nruns ? &base->run[0][st] : NULL, IL_RES_NSTATS,
		      base->nruns, &out->sb);
	il_res_spread(cand->nruns ? &cand->run[0][st] : NULL, IL_RES_NSTATS,
		      cand->nruns, &out->sc);
	if (isnan(out->base) || isnan(out->cand))
		return;
	out->ratio = out->base != 0   ? out->cand / out->base
		     : out->cand == 0 ? 1
				      : NAN;
	out->pct_imp = il_res_pct_improvement(out->base, out->cand);

	run_test(base, cand, st, o, out);
	if (out->test == IL_RES_T_NONE) {
		out->change = IL_RES_TOO_FEW;
		return;
	}
	out->change = IL_RES_SAME;
	/* NAN pct: the baseline is 0 and the candidate is not */
	if (out->p < o->alpha && out->cand != out->base &&
	    (isnan(out->pct_imp) || fabs(out->pct_imp) >= o->min_change_pct))
		out->change =
			out->cand < out->base ? IL_RES_BETTER : IL_RES_WORSE;
}

int il_res_count_after_dashdash(int argc, char *const *argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--"))
			return argc - i - 1;
	return -1;
}

int il_res_load_sides(int argc, char **argv, int first, int nbase, int after,
		      struct il_res_set *base, struct il_res_set *cand,
		      int *status, char *err, size_t errlen)
{
	/* after "--" nothing is an option: say so rather than open "-o" */
	for (int i = after > 0 ? argc - after : argc; i < argc; i++) {
		if (argv[i][0] == '-' && argv[i][1]) {
			il_setf(err, errlen,
				"options go before '--': '%s' comes after it "
				"(write ./%s for a file of that name)",
				argv[i], argv[i]);
			*status = 2;
			return -1;
		}
	}
	for (int i = 0; i < nbase + (after > 0 ? after : 0); i++) {
		struct il_res_set *s = i < nbase ? base : cand;

		if (il_res_set_load(s, argv[first + i], err, errlen)) {
			*status = 99;
			return -1;
		}
	}
	return 0;
}

void il_res_xml_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&apos;", f);
			break;
		default:
			if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
				fputc('?', f);
			else
				fputc(c, f);
		}
	}
}

const char *il_res_fmt_ns(char *buf, size_t len, double ns)
{
	if (isnan(ns) || ns < 0)
		snprintf(buf, len, "n/a");
	else
		il_format_duration(buf, len, (uint64_t)llround(ns));
	return buf;
}
