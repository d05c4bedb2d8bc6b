// SPDX-License-Identifier: MIT
/*
 * The formats invlab-import understands, each turned into runs with
 * latency histograms in nanoseconds (docs/results-tools.md says what
 * each becomes):
 *
 *   cyclictest-json  cyclictest --json=FILE (rt-tests 2.x): per thread a
 *                    histogram of whole microseconds (or ns with -N),
 *                    cycles, min, max, avg
 *   cyclictest-hist  the -h N / -H N histogram cyclictest prints (or
 *                    writes with --histfile)
 *   rt-app           rt-app's per-thread logs, by their column header
 *   rename-test      priority-inversion-demo's rename-test: one latency
 *                    in ns a line, one file per configuration
 *   perf-messaging   perf bench sched messaging's text, one run per
 *                    "Total time" (or -f simple's bare number)
 *   schbench         schbench's percentile tables, the last complete set
 *                    of a file: each figure a histogram of one sample
 *
 * cyclictest counts a latency at or above its histogram limit only as an
 * overflow, with no value.  Those samples are kept: they are in the
 * count and in the bins at the exact maximum (the one place they are
 * known to be at or below), and `overflow` says how many there are, so a
 * percentile that falls among them reads as not available rather than
 * as a value nobody measured (lib/util/hist.c).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include <invlab/strbuf.h>

#include "import.h"

static const struct {
	const char *name, *program;
} formats[IL_IMP_NFORMATS] = {
	[IL_IMP_CYCLICTEST_JSON] = { "cyclictest-json", "cyclictest" },
	[IL_IMP_CYCLICTEST_HIST] = { "cyclictest-hist", "cyclictest" },
	[IL_IMP_RTAPP] = { "rt-app", "rt-app" },
	[IL_IMP_RENAME] = { "rename-test", "rename-test" },
	[IL_IMP_PERF_MESSAGING] = { "perf-messaging",
				    "perf-bench-sched-messaging" },
	[IL_IMP_SCHBENCH] = { "schbench", "schbench" },
};

const char *il_imp_format_name(enum il_imp_format f)
{
	return (unsigned)f < IL_IMP_NFORMATS ? formats[f].name : "?";
}

const char *il_imp_format_program(enum il_imp_format f)
{
	return (unsigned)f < IL_IMP_NFORMATS ? formats[f].program : "?";
}

void il_imp_result_init(struct il_imp_result *res, enum il_imp_format f)
{
	memset(res, 0, sizeof(*res));
	res->program = il_imp_format_program(f);
}

void il_imp_result_free(struct il_imp_result *res)
{
	for (size_t i = 0; i < res->nruns; i++) {
		struct il_imp_run *run = &res->runs[i];

		for (size_t j = 0; j < run->nhists; j++)
			free(run->hists[j].h);
		free(run->hists);
		free(run->configuration);
		free(run->file);
	}
	free(res->runs);
	memset(res, 0, sizeof(*res));
}

/* ---- building runs ----------------------------------------------------- */

static struct il_imp_run *new_run(struct il_imp_result *res, const char *conf,
				  const char *file, char *err, size_t errlen)
{
	struct il_imp_run *run;

	if (res->nruns >= IL_IMP_MAX_RUNS) {
		il_setf(err, errlen, "%s: over the limit of %d runs", file,
			IL_IMP_MAX_RUNS);
		return NULL;
	}
	if (res->nruns == res->cap) {
		size_t cap = res->cap ? 2 * res->cap : 8;
		struct il_imp_run *nr = realloc(res->runs, cap * sizeof(*nr));

		if (!nr)
			goto nomem;
		res->runs = nr;
		res->cap = cap;
	}
	run = &res->runs[res->nruns];
	memset(run, 0, sizeof(*run));
	run->configuration = strdup(conf);
	run->file = strdup(file);
	if (!run->configuration || !run->file) {
		free(run->configuration);
		free(run->file);
		goto nomem;
	}
	res->nruns++;
	return run;
nomem:
	il_setf(err, errlen, "%s: out of memory", file);
	return NULL;
}

/* drop the last run (it turned out to be bad) */
static void drop_run(struct il_imp_result *res)
{
	struct il_imp_run *run = &res->runs[--res->nruns];

	for (size_t j = 0; j < run->nhists; j++)
		free(run->hists[j].h);
	free(run->hists);
	free(run->configuration);
	free(run->file);
}

static struct il_hist *run_hist(struct il_imp_run *run, const char *name)
{
	struct il_imp_hist *ih;

	for (size_t i = 0; i < run->nhists; i++)
		if (!strcmp(run->hists[i].name, name))
			return run->hists[i].h;
	if (run->nhists >= IL_IMP_MAX_HISTS)
		return NULL;
	if (run->nhists == run->hists_cap) {
		size_t cap = run->hists_cap ? 2 * run->hists_cap : 8;
		struct il_imp_hist *nh = realloc(run->hists, cap * sizeof(*nh));

		if (!nh)
			return NULL;
		run->hists = nh;
		run->hists_cap = cap;
	}
	ih = &run->hists[run->nhists];
	ih->h = malloc(sizeof(*ih->h));
	if (!ih->h)
		return NULL;
	il_hist_init(ih->h);
	snprintf(ih->name, sizeof(ih->name), "%s", name);
	run->nhists++;
	return ih->h;
}

static void kv_add(struct il_imp_kv *kv, size_t *n, const char *key,
		   bool is_int, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void kv_add(struct il_imp_kv *kv, size_t *n, const char *key,
		   bool is_int, const char *fmt, ...)
{
	va_list ap;

	if (*n >= IL_IMP_MAX_KV)
		return;
	snprintf(kv[*n].key, sizeof(kv[*n].key), "%s", key);
	va_start(ap, fmt);
	vsnprintf(kv[*n].value, sizeof(kv[*n].value), fmt, ap);
	va_end(ap);
	kv[*n].is_int = is_int;
	(*n)++;
}

/* c samples of v ns; -EOVERFLOW when the counts would wrap */
static int hist_add(struct il_hist *h, uint64_t v, uint64_t c)
{
	unsigned i = il_hist_index(v);
	uint64_t s;

	if (!c)
		return 0;
	if (__builtin_mul_overflow(v, c, &s) ||
	    __builtin_add_overflow(h->sum, s, &h->sum) ||
	    __builtin_add_overflow(h->count, c, &h->count) ||
	    __builtin_add_overflow(h->bins[i], c, &h->bins[i]))
		return -EOVERFLOW;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	if (v >> IL_HIST_MAX_LOG2)
		h->overflow += c;
	return 0;
}

/* ---- small parsers ----------------------------------------------------- */

/* a whole decimal number, no sign; 0 or -EINVAL */
static int parse_u64(const char *s, uint64_t *v)
{
	uint64_t x = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || __builtin_mul_overflow(x, 10, &x) ||
		    __builtin_add_overflow(x, (uint64_t)(*s - '0'), &x))
			return -EINVAL;
	}
	*v = x;
	return 0;
}

static int parse_i64(const char *s, int64_t *v)
{
	uint64_t u;

	if (*s == '-') {
		if (parse_u64(s + 1, &u) || u > (uint64_t)INT64_MAX)
			return -EINVAL;
		*v = -(int64_t)u;
		return 0;
	}
	if (parse_u64(s, &u) || u > (uint64_t)INT64_MAX)
		return -EINVAL;
	*v = (int64_t)u;
	return 0;
}

/* "1.127" seconds to ns exactly (at most 9 decimals) */
static int parse_seconds_ns(const char *s, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0, scale = 1000000000ull;
	const char *dot = strchr(s, '.');
	char ip[24];
	size_t n = dot ? (size_t)(dot - s) : strlen(s);

	if (!n || n >= sizeof(ip))
		return -EINVAL;
	memcpy(ip, s, n);
	ip[n] = '\0';
	if (parse_u64(ip, &sec) || sec > 18000000000ull)
		return -EINVAL;
	if (dot) {
		const char *d = dot + 1;

		if (!*d || strlen(d) > 9)
			return -EINVAL;
		for (; *d; d++) {
			if (*d < '0' || *d > '9')
				return -EINVAL;
			scale /= 10;
			frac += (uint64_t)(*d - '0') * scale;
		}
	}
	*ns = sec * 1000000000ull + frac;
	return 0;
}

/* split on blanks, in place: the number of fields (at most max) */
static int split(char *s, char **f, int max)
{
	int n = 0;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			return n;
		if (n == max)
			return max + 1;
		f[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = '\0';
	}
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static bool blank(const char *s)
{
	return !s[strspn(s, " \t")];
}

/* ---- cyclictest -------------------------------------------------------- */

/*
 * One thread's histogram complete: bins counted `inbins` samples, `over`
 * more were overflows, and the file gives the exact min and max and the
 * mean (all in ns).  Checks they agree, puts the overflows in place.
 */
static int ct_finish(struct il_hist *h, uint64_t over, uint64_t min,
		     uint64_t max, double avg_ns, char *msg, size_t len)
{
	uint64_t inbins = h->count, total;

	if (__builtin_add_overflow(inbins, over, &total)) {
		il_setf(msg, len, "counts overflow");
		return -EINVAL;
	}
	if (!total)
		return 0;
	if (min > max) {
		il_setf(msg, len, "min %llu is above max %llu",
			(unsigned long long)min, (unsigned long long)max);
		return -EINVAL;
	}
	if (inbins && h->min != min) {
		il_setf(msg, len,
			"min latency %llu ns is not the smallest in the "
			"histogram (%llu ns)",
			(unsigned long long)min, (unsigned long long)h->min);
		return -EINVAL;
	}
	if (!over && h->max != max) {
		il_setf(msg, len,
			"max latency %llu ns is not the largest in the "
			"histogram (%llu ns), and nothing overflowed",
			(unsigned long long)max, (unsigned long long)h->max);
		return -EINVAL;
	}
	if (over && inbins && max <= h->max) {
		il_setf(msg, len,
			"%llu overflows, but the max latency %llu ns is "
			"inside the histogram",
			(unsigned long long)over, (unsigned long long)max);
		return -EINVAL;
	}
	if (over) {
		uint64_t sum;

		/* all hidden: the smallest is known too */
		if (!inbins && over > 1 && min != max) {
			if (hist_add(h, min, 1))
				goto ovf;
			over--;
			h->overflow++;
		}
		if (!inbins && over == 1 && min != max) {
			il_setf(msg, len,
				"one sample in all, but min and max differ");
			return -EINVAL;
		}
		if (hist_add(h, max, over))
			goto ovf;
		h->overflow += over;
		/* the bins cannot give the sum now: the file's mean does */
		if (!(avg_ns >= 0) || avg_ns > (double)max ||
		    avg_ns * (double)total > 1.8e19) {
			il_setf(msg, len,
				"the mean is not between min and max");
			return -EINVAL;
		}
		sum = (uint64_t)llround(avg_ns * (double)total);
		h->sum = sum;
	}
	h->min = min;
	h->max = max;
	return 0;
ovf:
	il_setf(msg, len, "counts overflow");
	return -EINVAL;
}

/* the line of the last of keys found in order in buf (a valid JSON text) */
static unsigned long json_line(const char *buf, const char *const *keys, int n)
{
	const char *p = buf, *at = buf;
	unsigned long line = 1;
	char pat[80];

	for (int i = 0; i < n; i++) {
		const char *q;

		snprintf(pat, sizeof(pat), "\"%s\"", keys[i]);
		for (q = strstr(p, pat); q; q = strstr(q + 1, pat)) {
			const char *v = q + strlen(pat);

			v += strspn(v, " \t\r\n");
			if (*v != ':')
				continue; /* a value, not a key */
			v += 1 + strspn(v + 1, " \t\r\n");
			/* every key but the last opens an object */
			if (i == n - 1 || *v == '{')
				break;
		}
		if (!q)
			break;
		at = p = q;
	}
	for (const char *q = buf; q < at; q++)
		line += *q == '\n';
	return line;
}

static bool get_num(struct json_object *o, const char *key, double *v)
{
	struct json_object *m;

	if (!json_object_object_get_ex(o, key, &m) ||
	    !(json_object_is_type(m, json_type_int) ||
	      json_object_is_type(m, json_type_double)))
		return false;
	*v = json_object_get_double(m);
	return true;
}

static bool get_count(struct json_object *o, const char *key, uint64_t *v)
{
	struct json_object *m;
	int64_t i;

	if (!json_object_object_get_ex(o, key, &m) ||
	    !json_object_is_type(m, json_type_int))
		return false;
	i = json_object_get_int64(m);
	if (i < 0)
		return false;
	*v = (uint64_t)i;
	return true;
}

static void copy_str(struct json_object *o, const char *key, char *dst,
		     size_t len)
{
	struct json_object *m;

	if (json_object_object_get_ex(o, key, &m) &&
	    json_object_is_type(m, json_type_string))
		snprintf(dst, len, "%s", json_object_get_string(m));
}

/* the kernel of a later file must be the first's */
static int same_kernel(struct il_imp_result *res, const struct il_imp_kernel *k,
		       const char *path, char *err, size_t errlen)
{
	struct il_imp_kernel *have = &res->kernel;

	if (!res->nruns) {
		*have = *k;
		return 0;
	}
	if (strcmp(have->release, k->release) ||
	    strcmp(have->version, k->version) ||
	    strcmp(have->hostname, k->hostname)) {
		il_setf(err, errlen,
			"%s:1: ran on %s (%s), the files before on %s (%s): "
			"import each kernel into its own result",
			path, k->release, k->hostname, have->release,
			have->hostname);
		return -EINVAL;
	}
	return 0;
}

static int ct_json(struct il_imp_result *res, struct il_imp_reader *r,
		   const struct il_imp_opts *o, char *err, size_t errlen)
{
	struct json_tokener *tok = NULL;
	struct json_object *root = NULL, *threads, *sys, *m;
	struct il_imp_kernel k;
	struct il_imp_run *run = NULL;
	struct il_hist *all;
	const char *path = r->path;
	char *buf = NULL, msg[256];
	uint64_t unit = 1000;
	size_t len, nthreads = 0;
	int ret;

	ret = il_imp_slurp(r, &buf, &len, err, errlen);
	if (ret)
		return ret;
	ret = -EINVAL;
	tok = json_tokener_new();
	if (!tok || len > INT32_MAX) {
		il_setf(err, errlen, "%s: out of memory", path);
		ret = -ENOMEM;
		goto out;
	}
	root = json_tokener_parse_ex(tok, buf, (int)len);
	if (!root || json_tokener_get_error(tok) != json_tokener_success) {
		size_t end = json_tokener_get_parse_end(tok);
		unsigned long line = 1;

		for (size_t i = 0; i < end && i < len; i++)
			line += buf[i] == '\n';
		il_setf(err, errlen, "%s:%lu: not JSON: %s", path, line,
			json_tokener_get_error(tok) == json_tokener_continue
				? "unexpected end of file"
				: json_tokener_error_desc(
					  json_tokener_get_error(tok)));
		goto out;
	}
	if (!json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, "thread", &threads) ||
	    !json_object_is_type(threads, json_type_object)) {
		il_setf(err, errlen,
			"%s:1: no \"thread\" object: not cyclictest --json "
			"output",
			path);
		goto out;
	}
	memset(&k, 0, sizeof(k));
	if (json_object_object_get_ex(root, "sysinfo", &sys) &&
	    json_object_is_type(sys, json_type_object)) {
		copy_str(sys, "release", k.release, sizeof(k.release));
		copy_str(sys, "version", k.version, sizeof(k.version));
		copy_str(sys, "machine", k.machine, sizeof(k.machine));
		copy_str(sys, "nodename", k.hostname, sizeof(k.hostname));
	}
	ret = same_kernel(res, &k, path, err, errlen);
	if (ret)
		goto out;
	ret = -EINVAL;
	/* rt-tests writes these keys with a colon in the name */
	copy_str(root, "cmdline:", res->command_line,
		 sizeof(res->command_line));
	copy_str(root, "cmdline", res->command_line, sizeof(res->command_line));
	copy_str(root, "rt_test_version:", res->tool_version,
		 sizeof(res->tool_version));
	copy_str(root, "rt_test_version", res->tool_version,
		 sizeof(res->tool_version));
	copy_str(root, "start_time", res->start_time, sizeof(res->start_time));
	copy_str(root, "end_time", res->end_time, sizeof(res->end_time));
	if (json_object_object_get_ex(root, "resolution_in_ns", &m) &&
	    json_object_get_int(m) == 1)
		unit = 1;

	run = new_run(res, o->configuration ? o->configuration : "default",
		      path, err, errlen);
	if (!run) {
		ret = -ENOMEM;
		goto out;
	}
	all = run_hist(run, "latency_ns");
	if (!all)
		goto nomem;
	json_object_object_foreach(threads, tkey, t)
	{
		const char *keys[4] = { "thread", tkey, "histogram", NULL };
		struct json_object *hist;
		struct il_hist *h = malloc(sizeof(*h));
		uint64_t cycles, min, max;
		double avg;

		if (!h)
			goto nomem;
		il_hist_init(h);
		if (!json_object_is_type(t, json_type_object) ||
		    !json_object_object_get_ex(t, "histogram", &hist) ||
		    !json_object_is_type(hist, json_type_object)) {
			il_setf(err, errlen,
				"%s:%lu: thread %s: no \"histogram\" object",
				path, json_line(buf, keys, 2), tkey);
			free(h);
			goto bad;
		}
		json_object_object_foreach(hist, bkey, bval)
		{
			uint64_t idx, c;

			keys[3] = bkey;
			if (parse_u64(bkey, &idx) || idx > (1ull << 40) ||
			    !json_object_is_type(bval, json_type_int) ||
			    json_object_get_int64(bval) < 0) {
				il_setf(err, errlen,
					"%s:%lu: thread %s: histogram "
					"\"%s\": not a latency and a count",
					path, json_line(buf, keys, 4), tkey,
					bkey);
				free(h);
				goto bad;
			}
			c = (uint64_t)json_object_get_int64(bval);
			if (hist_add(h, idx * unit, c)) {
				il_setf(err, errlen,
					"%s:%lu: thread %s: counts overflow",
					path, json_line(buf, keys, 4), tkey);
				free(h);
				goto bad;
			}
		}
		if (!get_count(t, "cycles", &cycles) ||
		    !get_count(t, "min", &min) || !get_count(t, "max", &max) ||
		    !get_num(t, "avg", &avg)) {
			il_setf(err, errlen,
				"%s:%lu: thread %s: cycles, min, max or avg "
				"missing or negative",
				path, json_line(buf, keys, 2), tkey);
			free(h);
			goto bad;
		}
		if (cycles < h->count) {
			keys[2] = "cycles";
			il_setf(err, errlen,
				"%s:%lu: thread %s: %llu cycles, but the "
				"histogram holds %llu",
				path, json_line(buf, keys, 3), tkey,
				(unsigned long long)cycles,
				(unsigned long long)h->count);
			free(h);
			goto bad;
		}
		if (ct_finish(h, cycles - h->count, min * unit, max * unit,
			      avg * (double)unit, msg, sizeof(msg))) {
			il_setf(err, errlen, "%s:%lu: thread %s: %s", path,
				json_line(buf, keys, 2), tkey, msg);
			free(h);
			goto bad;
		}
		il_hist_merge(all, h);
		if (o->per_thread && nthreads + 1 >= IL_IMP_MAX_HISTS) {
			il_setf(err, errlen,
				"%s:%lu: over the limit of %d threads with "
				"--per-thread",
				path, json_line(buf, keys, 2),
				IL_IMP_MAX_HISTS - 1);
			free(h);
			goto bad;
		}
		if (o->per_thread) {
			char name[40];
			struct il_hist *th;

			snprintf(name, sizeof(name), "thread%zu_latency_ns",
				 nthreads);
			th = run_hist(run, name);
			if (!th) {
				free(h);
				goto nomem;
			}
			*th = *h;
		}
		free(h);
		nthreads++;
	}
	if (!nthreads) {
		il_setf(err, errlen, "%s:%lu: no threads", path,
			json_line(buf, (const char *const[]){ "thread" }, 1));
		goto bad;
	}
	kv_add(run->kv, &run->nkv, "threads", true, "%zu", nthreads);
	kv_add(run->kv, &run->nkv, "resolution_ns", true, "%llu",
	       (unsigned long long)unit);
	if (json_object_object_get_ex(root, "return_code", &m) &&
	    json_object_is_type(m, json_type_int))
		kv_add(run->kv, &run->nkv, "source_return_code", true, "%d",
		       json_object_get_int(m));
	ret = 0;
	goto out;
nomem:
	il_setf(err, errlen, "%s: out of memory", path);
	ret = -ENOMEM;
bad:
	drop_run(res);
	if (ret == 0)
		ret = -EINVAL;
out:
	json_object_put(root);
	if (tok)
		json_tokener_free(tok);
	free(buf);
	return ret;
}

/* "# Name: 001 002 ..." -> the numbers; -EINVAL when one is not */
static int ct_row(char *s, uint64_t *v, int max, int *n)
{
	char *f[IL_IMP_MAX_HISTS + 2];
	int k = split(s, f, IL_IMP_MAX_HISTS + 1);

	if (k > max || k > IL_IMP_MAX_HISTS + 1)
		return -E2BIG;
	for (int i = 0; i < k; i++)
		if (parse_u64(f[i], &v[i]))
			return -EINVAL;
	*n = k;
	return 0;
}

/* threads, and -H's column of all threads */
#define CT_COLS (IL_IMP_MAX_HISTS - 1)

static int ct_hist(struct il_imp_result *res, struct il_imp_reader *r,
		   const struct il_imp_opts *o, char *err, size_t errlen)
{
	enum { T_TOTAL, T_MIN, T_AVG, T_MAX, T_OVER, T_N };
	static const char *const tags[T_N] = {
		"# Total:",
		"# Min Latencies:",
		"# Avg Latencies:",
		"# Max Latencies:",
		"# Histogram Overflows:",
	};
	uint64_t vals[T_N][CT_COLS + 1];
	int nvals[T_N] = { 0 }, ncols = -1, nthreads;
	unsigned long tagline[T_N] = { 0 };
	struct il_hist *col[CT_COLS + 1] = { NULL };
	struct il_imp_run *run;
	struct il_hist *all;
	bool in_hist = false, seen = false;
	uint64_t rows = 0;
	const char *path = r->path, *line;
	char buf[IL_IMP_MAX_LINE + 1], msg[256];
	int ret;

	while ((ret = il_imp_getline(r, &line, err, errlen)) > 0) {
		char *f[CT_COLS + 3];
		int n, t;

		snprintf(buf, sizeof(buf), "%s", line);
		if (!strcmp(buf, "# Histogram")) {
			if (seen) {
				il_setf(err, errlen,
					"%s:%lu: a second histogram: one "
					"cyclictest run a file",
					path, r->line);
				ret = -EINVAL;
				goto fail;
			}
			in_hist = seen = true;
			continue;
		}
		for (t = 0; t < T_N; t++)
			if (!strncmp(buf, tags[t], strlen(tags[t])))
				break;
		if (t < T_N && seen) {
			in_hist = false;
			ret = ct_row(buf + strlen(tags[t]), vals[t],
				     CT_COLS + 1, &nvals[t]);
			if (ret) {
				il_setf(err, errlen,
					"%s:%lu: '%s' is followed by "
					"something other than counts",
					path, r->line, tags[t]);
				ret = -EINVAL;
				goto fail;
			}
			tagline[t] = r->line;
			continue;
		}
		if (buf[0] == '#' || blank(buf) || !in_hist)
			continue; /* comments, and what comes before */
		n = split(buf, f, CT_COLS + 2);
		if (n < 2 || n > CT_COLS + 2) {
			il_setf(err, errlen,
				"%s:%lu: not a histogram row (a latency and "
				"at most %d counts)",
				path, r->line, CT_COLS + 1);
			ret = -EINVAL;
			goto fail;
		}
		if (ncols < 0) {
			ncols = n - 1;
			for (int c = 0; c < ncols; c++) {
				col[c] = malloc(sizeof(*col[c]));
				if (!col[c])
					goto nomem;
				il_hist_init(col[c]);
			}
		}
		if (n - 1 != ncols) {
			il_setf(err, errlen,
				"%s:%lu: %d counts, the rows above have %d",
				path, r->line, n - 1, ncols);
			ret = -EINVAL;
			goto fail;
		}
		{
			uint64_t idx;

			if (parse_u64(f[0], &idx) || idx != rows) {
				il_setf(err, errlen,
					"%s:%lu: row '%s' where latency %llu "
					"was due",
					path, r->line, f[0],
					(unsigned long long)rows);
				ret = -EINVAL;
				goto fail;
			}
			for (int c = 0; c < ncols; c++) {
				uint64_t cnt;

				if (parse_u64(f[c + 1], &cnt) ||
				    hist_add(col[c], idx * o->unit_ns, cnt)) {
					il_setf(err, errlen,
						"%s:%lu: count '%s' is not a "
						"count",
						path, r->line, f[c + 1]);
					ret = -EINVAL;
					goto fail;
				}
			}
			rows++;
		}
	}
	if (ret < 0)
		goto fail;
	ret = -EINVAL;
	if (!seen || ncols < 1) {
		il_setf(err, errlen,
			"%s:%lu: no '# Histogram' with rows: not the output "
			"of cyclictest -h",
			path, r->line);
		goto fail;
	}
	for (int t = 0; t < T_N; t++)
		if (!tagline[t]) {
			il_setf(err, errlen,
				"%s:%lu: end of file, and no '%s' line", path,
				r->line, tags[t]);
			goto fail;
		}
	nthreads = nvals[T_MIN];
	if (nthreads > CT_COLS) {
		il_setf(err, errlen, "%s:%lu: over the limit of %d threads",
			path, tagline[T_MIN], CT_COLS);
		goto fail;
	}
	/* -H adds a column of all threads to the rows, Total, Max, Overflows */
	if (nthreads < 1 || nvals[T_AVG] != nthreads ||
	    (ncols != nthreads && !(ncols == nthreads + 1 && nthreads > 1)) ||
	    nvals[T_TOTAL] != ncols || nvals[T_OVER] < nthreads ||
	    nvals[T_MAX] < nthreads) {
		il_setf(err, errlen,
			"%s:%lu: %d threads, but %d histogram columns", path,
			tagline[T_MIN], nthreads, ncols);
		goto fail;
	}
	run = new_run(res, o->configuration ? o->configuration : "default",
		      path, err, errlen);
	if (!run) {
		ret = -ENOMEM;
		goto fail;
	}
	all = run_hist(run, "latency_ns");
	if (!all)
		goto nomem_run;
	for (int c = 0; c < nthreads; c++) {
		if (col[c]->count != vals[T_TOTAL][c]) {
			il_setf(err, errlen,
				"%s:%lu: thread %d: Total %llu, the rows add "
				"up to %llu",
				path, tagline[T_TOTAL], c,
				(unsigned long long)vals[T_TOTAL][c],
				(unsigned long long)col[c]->count);
			goto bad_run;
		}
		if (ct_finish(col[c], vals[T_OVER][c],
			      vals[T_MIN][c] * o->unit_ns,
			      vals[T_MAX][c] * o->unit_ns,
			      (double)(vals[T_AVG][c] * o->unit_ns), msg,
			      sizeof(msg))) {
			il_setf(err, errlen, "%s:%lu: thread %d: %s", path,
				tagline[T_MAX], c, msg);
			goto bad_run;
		}
		il_hist_merge(all, col[c]);
		if (o->per_thread) {
			char name[40];
			struct il_hist *th;

			snprintf(name, sizeof(name), "thread%d_latency_ns", c);
			th = run_hist(run, name);
			if (!th)
				goto nomem_run;
			*th = *col[c];
		}
	}
	kv_add(run->kv, &run->nkv, "threads", true, "%d", nthreads);
	kv_add(run->kv, &run->nkv, "resolution_ns", true, "%llu",
	       (unsigned long long)o->unit_ns);
	kv_add(run->kv, &run->nkv, "histogram_limit_ns", true, "%llu",
	       (unsigned long long)(rows * o->unit_ns));
	ret = 0;
	goto fail;
nomem_run:
	drop_run(res);
nomem:
	il_setf(err, errlen, "%s: out of memory", path);
	ret = -ENOMEM;
	goto fail;
bad_run:
	drop_run(res);
	ret = -EINVAL;
fail:
	for (int c = 0; c <= CT_COLS; c++)
		free(col[c]);
	return ret;
}

/* ---- rt-app ------------------------------------------------------------ */

/*
 * "<log_basename>-<thread>-<index>.log", a forked thread's with
 * "-<NNNN>" after the index: the thread's name is the configuration.
 */

/* drop a trailing "-<digits>" from s: whether there was one, and its length */
static bool strip_num(char *s, size_t *ndig)
{
	char *dash = strrchr(s, '-');
	size_t n;

	if (!dash)
		return false;
	n = strlen(dash + 1);
	if (!n || strspn(dash + 1, "0123456789") != n)
		return false;
	*ndig = n;
	*dash = '\0';
	return true;
}

static int rtapp_conf(const char *path, const char *basename, char *conf,
		      size_t len)
{
	const char *b = base_name(path);
	size_t n = strlen(b), pre = strlen(basename), nd;
	char tmp[256];

	if (n < 4 || strcmp(b + n - 4, ".log") || strncmp(b, basename, pre) ||
	    n - 4 <= pre + 1 || b[pre] != '-' || n - 4 - pre - 1 >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, b + pre + 1, n - 4 - pre - 1);
	tmp[n - 4 - pre - 1] = '\0';
	if (!strip_num(tmp, &nd))
		return -EINVAL;
	/* a forked thread's log: the index, then a 4-digit fork counter */
	if (nd == 4)
		strip_num(tmp, &nd);
	if (!tmp[0])
		return -EINVAL;
	snprintf(conf, len, "%s", tmp);
	return 0;
}

static int rtapp(struct il_imp_result *res, struct il_imp_reader *r,
		 const struct il_imp_opts *o, char *err, size_t errlen)
{
	enum { C_RUN, C_PERIOD, C_SLACK, C_WULAT, C_N };
	static const char *const cols[C_N] = { "run", "period", "slack",
					       "wu_lat" };
	static const char *const hists[C_N] = { "run_ns", "period_ns",
						"slack_ns", "wu_lat_ns" };
	int at[C_N], ncols = -1;
	struct il_hist *h[C_N + 1];
	struct il_imp_run *run;
	const char *path = r->path, *line;
	char conf[256] = "", buf[IL_IMP_MAX_LINE + 1];
	uint64_t phases = 0;
	int ret;

	if (o->configuration) {
		snprintf(conf, sizeof(conf), "%s", o->configuration);
	} else if (rtapp_conf(path, o->log_basename, conf, sizeof(conf))) {
		il_setf(err, errlen,
			"%s: not named %s-THREAD-INDEX.log, as rt-app names "
			"its logs (another log_basename: --log-basename; or "
			"name the configuration with -c)",
			path, o->log_basename);
		return -EINVAL;
	}
	run = new_run(res, conf, path, err, errlen);
	if (!run)
		return -ENOMEM;
	for (int c = 0; c < C_N; c++) {
		h[c] = run_hist(run, hists[c]);
		if (!h[c])
			goto nomem;
	}
	h[C_N] = run_hist(run, "overrun_ns");
	if (!h[C_N])
		goto nomem;
	while ((ret = il_imp_getline(r, &line, err, errlen)) > 0) {
		char *f[64];
		int n;

		snprintf(buf, sizeof(buf), "%s", line);
		if (!strncmp(buf, "# Policy :", 10)) {
			char pol[32];
			int prio;

			if (sscanf(buf, "# Policy : %31s priority : %d", pol,
				   &prio) == 2) {
				kv_add(run->kv, &run->nkv, "policy", false,
				       "%s", pol);
				kv_add(run->kv, &run->nkv, "priority", true,
				       "%d", prio);
			}
			continue;
		}
		if (!strncmp(buf, "#idx", 4)) {
			n = split(buf + 1, f, 63);
			if (n > 63) {
				il_setf(err, errlen, "%s:%lu: too many columns",
					path, r->line);
				goto bad;
			}
			for (int c = 0; c < C_N; c++) {
				at[c] = -1;
				for (int i = 0; i < n; i++)
					if (!strcmp(f[i], cols[c]))
						at[c] = i;
				if (at[c] < 0) {
					il_setf(err, errlen,
						"%s:%lu: no '%s' column: not "
						"an rt-app log",
						path, r->line, cols[c]);
					goto bad;
				}
			}
			ncols = n;
			continue;
		}
		if (buf[0] == '#' || blank(buf))
			continue;
		if (ncols < 0) {
			il_setf(err, errlen,
				"%s:%lu: data before the '#idx' column header: "
				"not an rt-app log",
				path, r->line);
			goto bad;
		}
		n = split(buf, f, 63);
		if (n != ncols) {
			il_setf(err, errlen,
				"%s:%lu: %d fields, the header names %d", path,
				r->line, n, ncols);
			goto bad;
		}
		for (int c = 0; c < C_N; c++) {
			int64_t v;

			if (parse_i64(f[at[c]], &v) ||
			    (v < 0 && c != C_SLACK) ||
			    (v > 0 && (uint64_t)v > UINT64_MAX / 1000) ||
			    (v < 0 && v < -(INT64_MAX / 1000))) {
				il_setf(err, errlen,
					"%s:%lu: %s '%s' is not a time in us",
					path, r->line, cols[c], f[at[c]]);
				goto bad;
			}
			/* a negative slack: the phase overran its period */
			if (v < 0 && hist_add(h[C_N], (uint64_t)-v * 1000, 1))
				goto ovf;
			if (v >= 0 && hist_add(h[c], (uint64_t)v * 1000, 1))
				goto ovf;
		}
		phases++;
	}
	if (ret < 0)
		goto out;
	if (ncols < 0 || !phases) {
		il_setf(err, errlen,
			"%s:%lu: %s: no phases logged (rt-app writes its "
			"log with log_size set; give it a size in MB)",
			path, r->line,
			ncols < 0 ? "no '#idx' header" : "empty");
		goto bad;
	}
	kv_add(run->kv, &run->nkv, "phases", true, "%llu",
	       (unsigned long long)phases);
	return 0;
ovf:
	il_setf(err, errlen, "%s:%lu: counts overflow", path, r->line);
bad:
	ret = -EINVAL;
	goto out;
nomem:
	il_setf(err, errlen, "%s: out of memory", path);
	ret = -ENOMEM;
out:
	drop_run(res);
	return ret;
}

/* ---- rename-test ------------------------------------------------------- */

static int rename_test(struct il_imp_result *res, struct il_imp_reader *r,
		       const struct il_imp_opts *o, char *err, size_t errlen)
{
	const char *path = r->path, *b = base_name(path), *line;
	struct il_imp_run *run;
	struct il_hist *h;
	char conf[256] = "", buf[IL_IMP_MAX_LINE + 1];
	size_t n = strlen(b), end;
	int ret;

	end = n > 7 && !strcmp(b + n - 7, ".log.gz") ? n - 7
	      : n > 4 && !strcmp(b + n - 4, ".log")  ? n - 4
						     : 0;
	if (o->configuration) {
		snprintf(conf, sizeof(conf), "%s", o->configuration);
	} else if (!end || strncmp(b, "results-", 8) || end <= 8 ||
		   end - 8 >= sizeof(conf)) {
		il_setf(err, errlen,
			"%s: not named results-CONFIGURATION.log[.gz], as "
			"rename-test's runs are (or name the configuration "
			"with -c)",
			path);
		return -EINVAL;
	} else {
		memcpy(conf, b + 8, end - 8);
		conf[end - 8] = '\0';
	}
	run = new_run(res, conf, path, err, errlen);
	if (!run)
		return -ENOMEM;
	h = run_hist(run, "rename_ns");
	if (!h) {
		il_setf(err, errlen, "%s: out of memory", path);
		drop_run(res);
		return -ENOMEM;
	}
	while ((ret = il_imp_getline(r, &line, err, errlen)) > 0) {
		uint64_t v;
		char *f[2];

		snprintf(buf, sizeof(buf), "%s", line);
		if (split(buf, f, 1) != 1 || parse_u64(f[0], &v) ||
		    hist_add(h, v, 1)) {
			il_setf(err, errlen,
				"%s:%lu: '%.40s' is not a latency in ns (one "
				"whole number a line)",
				path, r->line, line);
			ret = -EINVAL;
			break;
		}
	}
	if (!ret && !h->count) {
		il_setf(err, errlen, "%s:%lu: no latencies", path, r->line);
		ret = -EINVAL;
	}
	if (ret < 0) {
		drop_run(res);
		return ret;
	}
	return 0;
}

/* ---- perf bench sched messaging ---------------------------------------- */

static int perf_param(struct il_imp_result *res, const char *key,
		      const char *value, bool is_int, const char *path,
		      unsigned long line, char *err, size_t errlen)
{
	for (size_t i = 0; i < res->nscenario; i++) {
		if (strcmp(res->scenario[i].key, key))
			continue;
		if (strcmp(res->scenario[i].value, value)) {
			il_setf(err, errlen,
				"%s:%lu: %s %s, the runs before had %s: "
				"import each workload into its own result",
				path, line, key, value, res->scenario[i].value);
			return -EINVAL;
		}
		return 0;
	}
	kv_add(res->scenario, &res->nscenario, key, is_int, "%s", value);
	return 0;
}

static int perf_messaging(struct il_imp_result *res, struct il_imp_reader *r,
			  const struct il_imp_opts *o, char *err, size_t errlen)
{
	const char *path = r->path, *line;
	const char *conf = o->configuration ? o->configuration : "default";
	size_t first = res->nruns;
	char buf[IL_IMP_MAX_LINE + 1];
	int ret;

	while ((ret = il_imp_getline(r, &line, err, errlen)) > 0) {
		const char *num = NULL;
		unsigned long a, b;
		char word[16], *f[5];
		uint64_t ns;
		int n;

		snprintf(buf, sizeof(buf), "%s", line);
		if (sscanf(buf, "# %lu sender and receiver %15s per group", &a,
			   word) == 2) {
			char v[24];

			snprintf(v, sizeof(v), "%lu", a);
			ret = perf_param(res, "senders_per_group", v, true,
					 path, r->line, err, errlen);
			if (!ret)
				ret = perf_param(res, "mode", word, false, path,
						 r->line, err, errlen);
			if (ret)
				goto bad;
			continue;
		}
		if (sscanf(buf, "# %lu groups == %lu", &a, &b) == 2) {
			char v[24];

			snprintf(v, sizeof(v), "%lu", a);
			ret = perf_param(res, "groups", v, true, path, r->line,
					 err, errlen);
			if (ret)
				goto bad;
			continue;
		}
		if (buf[0] == '#' || blank(buf))
			continue;
		n = split(buf, f, 4);
		if (n == 4 && !strcmp(f[0], "Total") &&
		    !strcmp(f[1], "time:") && !strcmp(f[3], "[sec]"))
			num = f[2];
		else if (n == 1) /* perf bench -f simple */
			num = f[0];
		if (!num || parse_seconds_ns(num, &ns)) {
			il_setf(err, errlen,
				"%s:%lu: not perf bench sched messaging "
				"output (expected 'Total time: SECONDS [sec]')",
				path, r->line);
			goto bad;
		}
		{
			struct il_imp_run *run =
				new_run(res, conf, path, err, errlen);
			struct il_hist *h =
				run ? run_hist(run, "total_time_ns") : NULL;

			if (!h) {
				if (run)
					il_setf(err, errlen,
						"%s: out of memory", path);
				ret = -ENOMEM;
				goto undo;
			}
			hist_add(h, ns, 1);
			kv_add(run->kv, &run->nkv, "source_line", true, "%lu",
			       r->line);
		}
	}
	if (ret < 0)
		goto undo;
	if (res->nruns == first) {
		il_setf(err, errlen, "%s:%lu: no 'Total time' line", path,
			r->line);
		goto bad;
	}
	return 0;
bad:
	ret = -EINVAL;
undo:
	while (res->nruns > first)
		drop_run(res);
	return ret;
}

/* ---- schbench ---------------------------------------------------------- */

/*
 * schbench prints its percentile tables at the end of a run and, since
 * 2020, every -i seconds during it, the same way: the last complete set
 * of tables in a file is the run's.  Since 2023 a set is three tables,
 * Wakeup Latencies, Request Latencies and RPS (in pipe mode, -p, the
 * first alone, then "avg worker transfer"), and the end of the run
 * follows the final set: "average rps: N", or with -A "final rps goal
 * was N".  Before, a set was one "Latency percentiles" table: the
 * workers' wakeup latency, or with -R the requests' latency, which the
 * output does not tell apart.  The rows changed on the way:
 *
 *   Latency percentiles (usec)                       2016 (after May)
 *           50.0000th: 7                             %2.1f from 2019
 *           *99.0000th: 27
 *           min=1, max=5432
 *   Latency percentiles (usec) runtime 30 (s)        2020
 *   ... (1234567 total samples), *99.0th: 27 (4567 samples)
 *           * 99.0th: 27         (4567 samples)     2021
 *             min=1, max=5432
 *   Wakeup Latencies percentiles (usec) runtime ...  2023
 *
 * A value is the middle of one of schbench's histogram buckets, so a
 * percentile may lie past max, but the values never go down; a row's
 * "(N samples)" are those from the row above to it, so the column adds
 * up to at most the total.  Every other line is schbench's other output
 * (or the shell's) and is skipped; inside a table every line is a row.
 */
enum { SB_LATENCY, SB_WAKEUP, SB_REQUEST, SB_RPS, SB_NTABLES };

static const struct {
	const char *label, *unit, *prefix;
} sb_tables[SB_NTABLES] = {
	[SB_LATENCY] = { "Latency", "usec", "latency" },
	[SB_WAKEUP] = { "Wakeup Latencies", "usec", "wakeup" },
	[SB_REQUEST] = { "Request Latencies", "usec", "request" },
	[SB_RPS] = { "RPS", "requests", "rps" },
};

/*
 * The table due after each of a set's tables are read, before 2023
 * (generation 0) and since: the set's, then the next set's first.
 */
static const int sb_order[2][4] = {
	{ SB_LATENCY, SB_LATENCY },
	{ SB_WAKEUP, SB_REQUEST, SB_RPS, SB_WAKEUP },
};
static const int sb_norder[2] = { 1, 3 };

/* percentiles a table at most: schbench's PLAT_LIST_MAX */
#define SB_MAX_PCT 20
/* 100 %, in the fixed point of parse_seconds_ns (10^-9) */
#define SB_PCT_100 100000000000ull

/* a run's scalars: 7, the RPS table's rows, its min and max, the rps */
_Static_assert(7 + SB_MAX_PCT + 2 + 1 <= IL_IMP_MAX_KV,
	       "a schbench run's scalars fit");

struct sb_table {
	int kind;	    /* SB_WAKEUP, ... */
	unsigned long line; /* of its name */
	int npct;
	bool counts; /* the rows have a "(N samples)" column */
	char name[SB_MAX_PCT][24];
	uint64_t value[SB_MAX_PCT];
	uint64_t last_pct, last_value; /* the row above's */
	uint64_t total;		       /* UINT64_MAX: not printed */
	uint64_t counted;	       /* the "(N samples)" column's sum */
	uint64_t runtime_s, min, max;
	bool has_runtime;
};

struct sb_set {
	unsigned long line; /* of its first table */
	int next;   /* its tables read: the next one's index in sb_order */
	bool pipe;  /* -p: the first table is all */
	bool final; /* the end of the run followed it */
	char avg_rps[48]; /* "average rps: N" as printed, or "" */
	uint64_t avg_rps_e9;
	bool has_goal;
	uint64_t goal;
	struct sb_table t[SB_NTABLES];
};

static bool sb_complete(const struct sb_set *s, int gen)
{
	return s->next == sb_norder[gen] || s->pipe;
}

/* a number schbench prints with %u */
static int sb_u32(const char *s, uint64_t *v)
{
	return parse_u64(s, v) || *v > UINT32_MAX ? -EINVAL : 0;
}

/* "(1234": the number */
static int sb_paren(const char *s, uint64_t *v)
{
	return s[0] == '(' ? parse_u64(s + 1, v) : -EINVAL;
}

/* a percentile's name: 99.9 is "p999", 50.0 "p50", as the tools name them */
static void sb_pct_name(uint64_t pct, char *name, size_t len)
{
	unsigned long long ip = pct / 1000000000ull, frac = pct % 1000000000ull;
	int digits = 9;

	if (!frac) {
		snprintf(name, len, "p%llu", ip);
		return;
	}
	while (frac % 10 == 0) {
		frac /= 10;
		digits--;
	}
	snprintf(name, len, "p%llu%0*llu", ip, digits, frac);
}

/* whether s looks like a table's row: "[*]NN.Nth: ..." or "min=..." */
static bool sb_row_like(const char *s)
{
	s += strspn(s, " \t*");
	return (isdigit((unsigned char)*s) && strstr(s, "th:")) ||
	       !strncmp(s, "min=", 4);
}

/*
 * A table's name line, "LABEL percentiles (UNIT)[ runtime N (s)[ (M
 * total samples)]]", p at its " percentiles (": the table, or -1 and a
 * message.  buf is cut up.
 */
static int sb_header(char *buf, char *p, struct sb_table *t, char *msg,
		     size_t len)
{
	char *unit = p + strlen(" percentiles ("), *end = strchr(unit, ')');
	char *f[7] = { NULL };
	int k, n;

	*p = '\0';
	for (k = 0; k < SB_NTABLES; k++)
		if (!strcmp(buf, sb_tables[k].label))
			break;
	if (k == SB_NTABLES) {
		il_setf(msg, len,
			"'%.40s percentiles': not a table schbench prints "
			"(Wakeup Latencies, Request Latencies, RPS; before "
			"2023 Latency)",
			buf);
		return -1;
	}
	if (end)
		*end = '\0';
	if (!end || strcmp(unit, sb_tables[k].unit)) {
		il_setf(msg, len, "%s percentiles in (%.20s), not (%s)",
			sb_tables[k].label, unit, sb_tables[k].unit);
		return -1;
	}
	memset(t, 0, sizeof(*t));
	t->total = UINT64_MAX;
	n = split(end + 1, f, 6);
	if ((n != 0 && n != 3 && n != 6) ||
	    (n >= 3 &&
	     (strcmp(f[0], "runtime") || parse_u64(f[1], &t->runtime_s) ||
	      strcmp(f[2], "(s)"))) ||
	    (n == 6 && (sb_paren(f[3], &t->total) || strcmp(f[4], "total") ||
			strcmp(f[5], "samples)")))) {
		il_setf(msg, len,
			"expected '%s percentiles (%s)', then at most "
			"'runtime N (s) (M total samples)'",
			sb_tables[k].label, sb_tables[k].unit);
		return -1;
	}
	t->kind = k;
	t->has_runtime = n != 0;
	return k;
}

/* "min=N, max=N" in f[0], f[1]: the end of table t */
static int sb_minmax(char **f, struct sb_table *t, char *msg, size_t len)
{
	char *comma = strchr(f[0], ',');

	if (comma)
		*comma = '\0';
	if (!comma || comma[1] || sb_u32(f[0] + 4, &t->min) ||
	    strncmp(f[1], "max=", 4) || sb_u32(f[1] + 4, &t->max)) {
		il_setf(msg, len, "expected 'min=N, max=N'");
		return -1;
	}
	if (t->min > t->max) {
		il_setf(msg, len, "min %llu is above max %llu",
			(unsigned long long)t->min, (unsigned long long)t->max);
		return -1;
	}
	if (!t->npct) {
		il_setf(msg, len, "the end of a table without percentiles");
		return -1;
	}
	if (t->counted > t->total) {
		il_setf(msg, len,
			"the rows count %llu samples, the table %llu in all",
			(unsigned long long)t->counted,
			(unsigned long long)t->total);
		return -1;
	}
	return 1;
}

/*
 * A line of table t: a percentile row, "[*]P th: VALUE[ (N samples)]"
 * (0), or the "min=N, max=N" that ends the table (1); -1 and a message.
 */
static int sb_row(char *buf, struct sb_table *t, char *msg, size_t len)
{
	char *f[7] = { NULL }, name[24], *th;
	int n = split(buf, f, 6), i = 0;
	uint64_t pct, v = 0, c = 0;

	if (n == 2 && !strncmp(f[0], "min=", 4))
		return sb_minmax(f, t, msg, len);
	if (n && f[0][0] == '*') {
		f[0]++; /* "*99.0th:" before 2021, "* 99.0th:" since */
		if (!f[0][0])
			i = 1;
	}
	th = n - i == 2 || n - i == 4 ? strstr(f[i], "th:") : NULL;
	if (!th || th[3])
		goto bad;
	*th = '\0';
	if (parse_seconds_ns(f[i], &pct) || sb_u32(f[i + 1], &v) ||
	    (n - i == 4 &&
	     (sb_paren(f[i + 2], &c) || strcmp(f[i + 3], "samples)"))))
		goto bad;
	sb_pct_name(pct, name, sizeof(name));
	if (t->npct == SB_MAX_PCT) {
		il_setf(msg, len, "more than %d percentiles in a table",
			SB_MAX_PCT);
		return -1;
	}
	if (pct <= t->last_pct || pct > SB_PCT_100) {
		il_setf(msg, len,
			"percentile %s: the percentiles go up from above 0 "
			"to 100",
			name + 1);
		return -1;
	}
	if (v < t->last_value) {
		il_setf(msg, len,
			"%s %llu is below the row above's %llu: percentiles "
			"never go down",
			name, (unsigned long long)v,
			(unsigned long long)t->last_value);
		return -1;
	}
	if (t->npct && (n - i == 4) != t->counts) {
		il_setf(msg, len,
			"a '(N samples)' column on some of the table's rows "
			"only");
		return -1;
	}
	for (int j = 0; j < t->npct; j++)
		if (!strcmp(t->name[j], name)) {
			il_setf(msg, len, "two percentiles named %s", name);
			return -1;
		}
	if (__builtin_add_overflow(t->counted, c, &t->counted)) {
		il_setf(msg, len, "the sample counts overflow");
		return -1;
	}
	t->counts = n - i == 4;
	snprintf(t->name[t->npct], sizeof(t->name[0]), "%s", name);
	t->value[t->npct++] = v;
	t->last_pct = pct;
	t->last_value = v;
	return 0;
bad:
	il_setf(msg, len,
		"not a row of the %s table begun at line %lu (expected "
		"'NN.Nth: VALUE (N samples)' or 'min=N, max=N')",
		sb_tables[t->kind].label, t->line);
	return -1;
}

static int sb_hist(struct il_imp_run *run, const char *name, uint64_t v)
{
	struct il_hist *h = run_hist(run, name);

	return h ? hist_add(h, v, 1) : -ENOMEM;
}

/*
 * Set s as a run: each latency figure a histogram of one sample (in ns,
 * from us), so that runs compare figure by figure as perf-messaging's
 * do; the RPS table's rows, which count requests, as scalars; the
 * average rps as its inverse, request_interval_ns, a time that is
 * better lower as the latencies are (its AMean over runs is the HMean
 * of the rps).
 */
static int sb_run(struct il_imp_result *res, const struct sb_set *s, int gen,
		  unsigned long nsets, const char *path,
		  const struct il_imp_opts *o, char *err, size_t errlen)
{
	struct il_imp_run *run =
		new_run(res, o->configuration ? o->configuration : "default",
			path, err, errlen);
	const struct sb_table *first;
	char key[48];

	if (!run)
		return -ENOMEM;
	kv_add(run->kv, &run->nkv, "source_line", true, "%lu", s->line);
	kv_add(run->kv, &run->nkv, "table_set", false, "%s",
	       s->final ? "final" : "last");
	kv_add(run->kv, &run->nkv, "sets", true, "%lu", nsets);
	first = &s->t[sb_order[gen][0]];
	if (first->has_runtime)
		kv_add(run->kv, &run->nkv, "runtime_s", true, "%llu",
		       (unsigned long long)first->runtime_s);
	for (int i = 0; i < s->next; i++) {
		const struct sb_table *t = &s->t[sb_order[gen][i]];
		const char *pre = sb_tables[t->kind].prefix;

		if (t->total != UINT64_MAX) {
			snprintf(key, sizeof(key), "%s_samples", pre);
			kv_add(run->kv, &run->nkv, key, true, "%llu",
			       (unsigned long long)t->total);
		}
		/* no samples: schbench prints zeros, no figures */
		if (!t->total)
			continue;
		if (t->kind == SB_RPS) {
			for (int j = 0; j < t->npct; j++) {
				snprintf(key, sizeof(key), "rps_%s",
					 t->name[j]);
				kv_add(run->kv, &run->nkv, key, true, "%llu",
				       (unsigned long long)t->value[j]);
			}
			kv_add(run->kv, &run->nkv, "rps_min", true, "%llu",
			       (unsigned long long)t->min);
			kv_add(run->kv, &run->nkv, "rps_max", true, "%llu",
			       (unsigned long long)t->max);
			continue;
		}
		for (int j = 0; j < t->npct; j++) {
			snprintf(key, sizeof(key), "%s_%s_ns", pre, t->name[j]);
			if (sb_hist(run, key, t->value[j] * 1000))
				goto nomem;
		}
		/* min stayed 0 until schbench printed the runtime (2020) */
		snprintf(key, sizeof(key), "%s_min_ns", pre);
		if (t->has_runtime && sb_hist(run, key, t->min * 1000))
			goto nomem;
		snprintf(key, sizeof(key), "%s_max_ns", pre);
		if (sb_hist(run, key, t->max * 1000))
			goto nomem;
	}
	if (s->avg_rps[0])
		kv_add(run->kv, &run->nkv, "average_rps", false, "%s",
		       s->avg_rps);
	/* 10^18 / (rps x 10^9): the ns between two requests done */
	if (s->avg_rps_e9 &&
	    sb_hist(run, "request_interval_ns",
		    (uint64_t)llround(1e18 / (double)s->avg_rps_e9)))
		goto nomem;
	if (s->has_goal)
		kv_add(run->kv, &run->nkv, "rps_goal", true, "%llu",
		       (unsigned long long)s->goal);
	return 0;
nomem:
	drop_run(res);
	il_setf(err, errlen, "%s: out of memory", path);
	return -ENOMEM;
}

static int schbench(struct il_imp_result *res, struct il_imp_reader *r,
		    const struct il_imp_opts *o, char *err, size_t errlen)
{
	struct sb_set sets[2], *cur = NULL, *done = NULL;
	struct sb_table *open = NULL;
	const char *path = r->path, *line;
	char buf[IL_IMP_MAX_LINE + 1], msg[320];
	unsigned long nsets = 0;
	int gen = -1, ret; /* gen: 0 before 2023, 1 since */

	while ((ret = il_imp_getline(r, &line, err, errlen)) > 0) {
		struct sb_table t;
		char *p;
		int k;

		snprintf(buf, sizeof(buf), "%s", line);
		if (open) {
			ret = sb_row(buf, open, msg, sizeof(msg));
			if (ret < 0)
				goto bad;
			if (ret) {
				open = NULL;
				cur->next++;
				nsets += sb_complete(cur, gen);
			}
			continue;
		}
		p = strstr(buf, " percentiles (");
		if (p) {
			k = sb_header(buf, p, &t, msg, sizeof(msg));
			if (k < 0)
				goto bad;
			if (gen >= 0 && gen != (k != SB_LATENCY)) {
				il_setf(msg, sizeof(msg),
					"a %s table after %s tables: two "
					"schbench versions' output (one run a "
					"file)",
					sb_tables[k].label,
					sb_tables[sb_order[gen][0]].label);
				goto bad;
			}
			gen = k != SB_LATENCY;
			if (cur && cur->final) {
				il_setf(msg, sizeof(msg),
					"a table after the end of the run: "
					"one schbench run a file");
				goto bad;
			}
			if (k == sb_order[gen][0]) {
				if (cur && !sb_complete(cur, gen)) {
					il_setf(msg, sizeof(msg),
						"%s table where the %s table "
						"of the set begun at line %lu "
						"was due",
						sb_tables[k].label,
						sb_tables[sb_order[gen]
								  [cur->next]]
							.label,
						cur->line);
					goto bad;
				}
				done = cur;
				cur = done == &sets[0] ? &sets[1] : &sets[0];
				memset(cur, 0, sizeof(*cur));
				cur->line = r->line;
			} else if (!cur || k != sb_order[gen][cur->next]) {
				il_setf(msg, sizeof(msg),
					"%s table where the %s table was due",
					sb_tables[k].label,
					sb_tables[sb_order[gen]
							  [cur ? cur->next : 0]]
						.label);
				goto bad;
			}
			t.line = r->line;
			cur->t[k] = t;
			open = &cur->t[k];
			continue;
		}
		if (!strncmp(buf, "average rps: ", 13) ||
		    !strncmp(buf, "final rps goal was ", 19)) {
			if (!cur || !sb_complete(cur, gen) || cur->final) {
				il_setf(msg, sizeof(msg),
					"'%.40s' with no complete set of "
					"tables before it",
					buf);
				goto bad;
			}
			cur->final = true;
			if (buf[0] == 'a') {
				if (parse_seconds_ns(buf + 13,
						     &cur->avg_rps_e9)) {
					il_setf(msg, sizeof(msg),
						"'%.40s' is not an average of "
						"requests a second",
						buf + 13);
					goto bad;
				}
				/* 34 characters at most, once parsed */
				snprintf(cur->avg_rps, sizeof(cur->avg_rps),
					 "%.40s", buf + 13);
			} else if (parse_u64(buf + 19, &cur->goal)) {
				il_setf(msg, sizeof(msg),
					"'%.40s' is not a number of requests "
					"a second",
					buf + 19);
				goto bad;
			} else {
				cur->has_goal = true;
			}
			continue;
		}
		/* pipe mode's end: its one table is the set */
		if (!strncmp(buf, "avg worker transfer:", 20) && cur &&
		    cur->next == 1) {
			nsets += !sb_complete(cur, gen);
			cur->pipe = cur->final = true;
			continue;
		}
		if (sb_row_like(buf)) {
			il_setf(msg, sizeof(msg),
				"a table's row outside a table (no 'NAME "
				"percentiles (UNIT)' line above it)");
			goto bad;
		}
	}
	if (ret < 0)
		return ret;
	if (cur && sb_complete(cur, gen))
		done = cur;
	if (done)
		return sb_run(res, done, gen, nsets, path, o, err, errlen);
	if (open)
		il_setf(msg, sizeof(msg),
			"end of file in the %s table begun at line %lu, and no "
			"complete set of tables before it",
			sb_tables[open->kind].label, open->line);
	else if (cur)
		il_setf(msg, sizeof(msg),
			"end of file where the %s table was due, and no "
			"complete set of tables before it",
			sb_tables[sb_order[gen][cur->next]].label);
	else
		il_setf(msg, sizeof(msg),
			"no schbench percentile table (expected 'Wakeup "
			"Latencies percentiles (usec) ...', before 2023 "
			"'Latency percentiles (usec)')");
bad:
	il_setf(err, errlen, "%s:%lu: %s", path, r->line, msg);
	return -EINVAL;
}

int il_imp_read(struct il_imp_result *res, const char *path,
		const struct il_imp_opts *o, char *err, size_t errlen)
{
	struct il_imp_reader *r = malloc(sizeof(*r));
	int ret;

	if (!r) {
		il_setf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	ret = il_imp_open(r, path, o->max_input, err, errlen);
	if (ret) {
		free(r);
		return ret;
	}
	switch (o->format) {
	case IL_IMP_CYCLICTEST_JSON:
		ret = ct_json(res, r, o, err, errlen);
		break;
	case IL_IMP_CYCLICTEST_HIST:
		ret = ct_hist(res, r, o, err, errlen);
		break;
	case IL_IMP_RTAPP:
		ret = rtapp(res, r, o, err, errlen);
		break;
	case IL_IMP_RENAME:
		ret = rename_test(res, r, o, err, errlen);
		break;
	case IL_IMP_PERF_MESSAGING:
		ret = perf_messaging(res, r, o, err, errlen);
		break;
	case IL_IMP_SCHBENCH:
		ret = schbench(res, r, o, err, errlen);
		break;
	default:
		il_setf(err, errlen, "unknown format");
		ret = -EINVAL;
	}
	il_imp_close(r);
	free(r);
	return ret;
}
