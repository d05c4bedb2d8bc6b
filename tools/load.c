// SPDX-License-Identifier: MIT
/*
 * Result files read back with json-c, as untrusted input.
 *
 * This file is compiled only when the build has json-c (rt-tests keeps
 * its libnuma code apart the same way); the demos never need it.
 *
 * A result comes from a device in a lab, so nothing in it is taken on
 * trust: only a regular file is read, and only up to s->max_input bytes
 * (checked before the read and while reading: a file can grow); the runs,
 * histograms and scenario members it may add are bounded (results.h);
 * every histogram must add up; and every string is escaped once, here
 * (escape.h), so that no tool can print one raw.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include <invlab/ini.h>
#include <invlab/strbuf.h>

#include "escape.h"
#include "format.h"
#include "lean.h"
#include "merge.h"
#include "results.h"

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
	[IL_RES_FP_HYPERVISOR] = "hypervisor",
	[IL_RES_FP_HOSTNAME] = "hostname",
};

const char *il_res_fp_key(int i)
{
	return i >= 0 && i < IL_RES_FP_N ? fp_keys[i] : "?";
}

/* a non-negative JSON integer, or -EINVAL */
static int get_u64(struct json_object *o, uint64_t *v)
{
	int64_t i;

	if (json_object_get_type(o) != json_type_int)
		return -EINVAL;
	i = json_object_get_int64(o);
	if (i < 0)
		return -EINVAL;
	*v = (uint64_t)i;
	return 0;
}

/*
 * The bins of a file read lean (il_res_parse_lean): the pairs the cut
 * read itself, kept with the document (json-c's user data of its root),
 * whose "bins" members are then their index.  NULL: a document read
 * whole, whose bins are all arrays.
 */
static void free_bins(struct json_object *o, void *b)
{
	(void)o;
	il_lean_bins_free(b);
	free(b);
}

static const struct il_lean_bins *lean_bins(struct json_object *root)
{
	return root ? json_object_get_userdata(root) : NULL;
}

static int hist_from_json(struct json_object *o, const struct il_lean_bins *lb,
			  struct il_hist *h, const char *what, char *err,
			  size_t errlen);

int il_res_hist_from_json(struct json_object *o, struct il_hist *h,
			  const char *what, char *err, size_t errlen)
{
	return hist_from_json(o, NULL, h, what, err, errlen);
}

/* pair i of a histogram's bins, json-c's or the cut's; false: no pair */
static bool bin_pair(struct array_list *al, const uint64_t *pair, size_t i,
		     uint64_t *lo, uint64_t *c)
{
	struct array_list *b;

	if (pair) {
		*lo = pair[2 * i];
		*c = pair[2 * i + 1];
		return true;
	}
	b = json_object_get_array(al->array[i]);
	return b && b->length == 2 && !get_u64(b->array[0], lo) &&
	       !get_u64(b->array[1], c);
}

static int hist_from_json(struct json_object *o, const struct il_lean_bins *lb,
			  struct il_hist *h, const char *what, char *err,
			  size_t errlen)
{
	struct json_object *bins, *m;
	struct array_list *al = NULL;
	const uint64_t *pair = NULL;
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
	if (!json_object_object_get_ex(o, "bins", &bins)) {
		il_setf(err, errlen, "%s.bins: missing or not an array", what);
		return -EINVAL;
	}
	/* read lean: an index the cut gave (no file has a number there) */
	if (lb && json_object_is_type(bins, json_type_int)) {
		int64_t k = json_object_get_int64(bins);

		if (k < 0 || (uint64_t)k >= lb->n) {
			il_setf(err, errlen, "%s.bins: missing or not an array",
				what);
			return -EINVAL;
		}
		pair = lb->pair + 2 * lb->first[k];
		n = lb->first[k + 1] - lb->first[k];
	} else if (!json_object_is_type(bins, json_type_array)) {
		il_setf(err, errlen, "%s.bins: missing or not an array", what);
		return -EINVAL;
	} else {
		/*
		 * The bins are most of a result file: their arrays are read
		 * as json-c lays them out (arraylist.h), a call a pair rather
		 * than one an element, since a lab compares thousands of
		 * files.
		 */
		al = json_object_get_array(bins);
		n = al->length;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t lo, c;

		if (!bin_pair(al, pair, i, &lo, &c)) {
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
	if (json_object_object_get_ex(o, "overflow", &m) && !get_u64(m, &v)) {
		/* samples past the last bucket are counted in the bins too */
		if (v > count) {
			il_setf(err, errlen,
				"%s.overflow: %llu is more than the %llu "
				"samples",
				what, (unsigned long long)v,
				(unsigned long long)count);
			return -EINVAL;
		}
		h->overflow = v;
	}
	return 0;
}

/* a JSON string, escaped, NUL bytes and all */
static char *esc_string(struct json_object *o)
{
	return il_res_escape(json_object_get_string(o),
			     (size_t)json_object_get_string_len(o));
}

/* JSON text of a scalar, escaped: strings bare, null as "unknown" */
static char *scalar_text(struct json_object *o)
{
	const char *t;

	if (!o)
		return strdup("unknown");
	if (json_object_is_type(o, json_type_string))
		return esc_string(o);
	t = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	return il_res_escape(t, strlen(t));
}

/* path is opened, name (path escaped) is what messages say */
static int read_file(const char *path, const char *name, uint64_t max,
		     char **buf, size_t *len, char *err, size_t errlen)
{
	char lim[32];
	struct stat st;
	size_t cap, n = 0;
	char *b;
	int fd, ret;

	il_res_fmt_size(lim, sizeof(lim), max);
	/* O_NONBLOCK: opening a FIFO must not wait for a writer */
	fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		il_setf(err, errlen, "%s: %s", name, strerror(-ret));
		return ret;
	}
	if (fstat(fd, &st)) {
		ret = -errno;
		il_setf(err, errlen, "%s: %s", name, strerror(-ret));
		close(fd);
		return ret;
	}
	if (!S_ISREG(st.st_mode)) {
		il_setf(err, errlen,
			"%s: not a regular file (a device, FIFO or directory "
			"is not a result)",
			name);
		close(fd);
		return -EINVAL;
	}
	if ((uint64_t)st.st_size > max) {
		il_setf(err, errlen,
			"%s: %lld bytes, over the input limit of %s "
			"(--max-input-size)",
			name, (long long)st.st_size, lim);
		close(fd);
		return -EFBIG;
	}
	cap = (size_t)st.st_size + 1;
	b = malloc(cap + 1);
	if (!b) {
		close(fd);
		il_setf(err, errlen, "%s: out of memory", name);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t got;

		if (n == cap) {
			/* it grew while being read: read on, to the limit */
			size_t ncap =
				cap * 2 > max + 1 ? (size_t)max + 1 : cap * 2;
			char *nb = ncap > cap ? realloc(b, ncap + 1) : NULL;

			if (!nb) {
				free(b);
				close(fd);
				if (ncap > cap) {
					il_setf(err, errlen,
						"%s: out of memory", name);
					return -ENOMEM;
				}
				il_setf(err, errlen,
					"%s: over the input limit of %s "
					"(--max-input-size)",
					name, lim);
				return -EFBIG;
			}
			b = nb;
			cap = ncap;
		}
		got = read(fd, b + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			ret = -errno;
			free(b);
			close(fd);
			il_setf(err, errlen, "%s: %s", name, strerror(-ret));
			return ret;
		}
		if (!got)
			break;
		n += (size_t)got;
	}
	close(fd);
	if (n > max) {
		free(b);
		il_setf(err, errlen,
			"%s: over the input limit of %s (--max-input-size)",
			name, lim);
		return -EFBIG;
	}
	b[n] = '\0';
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

/*
 * The text cut for the result tools (lean.h) parsed, when the cut takes
 * it and json-c reads it whole; NULL otherwise (the caller then parses
 * the text as it is, for json-c's own verdict and message on it).
 */
static struct json_object *parse_lean(struct json_tokener *tok, const char *buf,
				      size_t len)
{
	struct il_lean_bins *bins = calloc(1, sizeof(*bins));
	struct json_object *root = NULL;
	char *cut = malloc(len + 1);
	size_t n;

	if (cut && bins && !il_lean_cut(buf, len, cut, &n, bins)) {
		root = json_tokener_parse_ex(tok, cut, (int)n);
		if (root &&
		    (json_tokener_get_error(tok) != json_tokener_success ||
		     json_tokener_get_parse_end(tok) != n ||
		     !json_object_is_type(root, json_type_object))) {
			json_object_put(root);
			root = NULL;
		}
		json_tokener_reset(tok);
	}
	free(cut);
	/* the root keeps the bins the cut read, and frees them */
	if (root)
		json_object_set_userdata(root, bins, free_bins);
	else if (bins)
		free_bins(NULL, bins);
	return root;
}

static struct json_object *parse(const char *file, const char *path,
				 uint64_t max, bool lean, char *err,
				 size_t errlen, int *ret)
{
	struct json_tokener *tok;
	struct json_object *root;
	enum json_tokener_error je;
	char *buf = NULL;
	size_t len = 0, end;

	*ret = read_file(file, path, max, &buf, &len, err, errlen);
	if (*ret)
		return NULL;
	if (len > INT32_MAX) {
		free(buf);
		*ret = -EFBIG;
		il_setf(err, errlen, "%s: too large for the JSON reader", path);
		return NULL;
	}
	tok = json_tokener_new();
	if (!tok) {
		free(buf);
		*ret = -ENOMEM;
		il_setf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	root = lean ? parse_lean(tok, buf, len) : NULL;
	if (root) {
		json_tokener_free(tok);
		free(buf);
		return root;
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
		/* buf[end] != 0: strchr() finds the terminator too, and a NUL
		 * after the value is data, not white space */
		while (end < len && buf[end] && strchr(" \t\r\n", buf[end]))
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

/*
 * A member that names a value: a string, number or boolean (a JSON null
 * is NULL to json-c, whose type of NULL is json_type_null).
 */
static bool is_value(struct json_object *o)
{
	return json_object_is_type(o, json_type_string) ||
	       json_object_is_type(o, json_type_int) ||
	       json_object_is_type(o, json_type_double) ||
	       json_object_is_type(o, json_type_boolean);
}

/* One key of a job's text, looked for as the INI reader reads it. */
struct job_key {
	char *section; /* "global", or a task's or a resource's name */
	const char *key;
	bool in; /* in that section now */
	char *value;
};

static int job_section(void *ctx, const struct il_ini_at *at, char *name,
		       char *after, char *msg, size_t len)
{
	struct job_key *k = ctx;
	char *sp = name ? strpbrk(name, " \t") : NULL;

	(void)at, (void)after, (void)msg, (void)len;
	k->in = false;
	if (name && !sp)
		k->in = !strcmp(name, "global") && !strcmp(k->section, name);
	/* "[task high]", "[resource M]" */
	if (sp) {
		*sp = '\0';
		k->in = (!strcmp(name, "task") || !strcmp(name, "resource")) &&
			!strcmp(il_ini_trim(sp + 1), k->section);
	}
	return 0;
}

static int job_line(void *ctx, const struct il_ini_at *at, char *key,
		    char *value, char *msg, size_t len)
{
	struct job_key *k = ctx;

	(void)at, (void)msg, (void)len;
	if (!k->in || !value || k->value || strcmp(key, k->key))
		return 0;
	k->value = il_res_escape(value, strlen(value));
	return k->value ? 0 : -ENOMEM;
}

/*
 * SECTION.KEY of a job's text (the section is what comes before the last
 * dot, as for --set; a bare KEY is in [global]): 0 with *value, 0 with
 * NULL when the text has no such key (or cannot be read), -ENOMEM.
 */
static int job_key(struct json_object *text, const char *key, char **value)
{
	static const struct il_ini_ops ops = { .section = job_section,
					       .key = job_line };
	const char *dot = strrchr(key, '.');
	struct job_key k = { .key = dot ? dot + 1 : key };
	char err[128];
	int ret;

	*value = NULL;
	if (!text)
		return 0;
	k.section = dot ? strndup(key, (size_t)(dot - key)) : strdup("global");
	if (!k.section)
		return -ENOMEM;
	ret = il_ini_parse(json_object_get_string(text),
			   (size_t)json_object_get_string_len(text), "job",
			   &ops, &k, err, sizeof(err));
	free(k.section);
	if (ret == -ENOMEM) {
		free(k.value);
		return ret;
	}
	/* a text the reader refuses names no key */
	if (ret) {
		free(k.value);
		k.value = NULL;
	}
	*value = k.value;
	return 0;
}

/*
 * The job's text as this run ran it (judge_inputs.job_text), else as the
 * file records it (invlab-run's job.text); NULL when neither is a
 * string.  (json-c finds no member in what is not an object.)
 */
static struct json_object *job_text(struct json_object *root,
				    struct json_object *run)
{
	struct json_object *o, *t;

	if (json_object_object_get_ex(run, "judge_inputs", &o) &&
	    json_object_object_get_ex(o, "job_text", &t) &&
	    json_object_is_type(t, json_type_string))
		return t;
	if (json_object_object_get_ex(root, "job", &o) &&
	    json_object_object_get_ex(o, "text", &t) &&
	    json_object_is_type(t, json_type_string))
		return t;
	return NULL;
}

/* "global.duration" is "duration", as --set has it */
static const char *bare_key(const char *key)
{
	return strncmp(key, "global.", 7) ? key : key + 7;
}

/*
 * The run's "sweep" member when it sweeps key: {key, value,
 * configuration}; else NULL.
 */
static struct json_object *sweep_of(struct json_object *run, const char *key)
{
	struct json_object *sw, *k;

	if (!key || !json_object_object_get_ex(run, "sweep", &sw) ||
	    !json_object_object_get_ex(sw, "key", &k) ||
	    !json_object_is_type(k, json_type_string) ||
	    strcmp(bare_key(json_object_get_string(k)), bare_key(key)))
		return NULL;
	return sw;
}

int il_res_run_configuration(struct json_object *run, const char *by,
			     char **conf)
{
	struct json_object *sw = sweep_of(run, by), *c;

	*conf = NULL;
	/* a sweep's value, folded into one block with --by its key */
	if (sw && json_object_object_get_ex(sw, "configuration", &c) &&
	    json_object_is_type(c, json_type_string))
		return (*conf = esc_string(c)) ? 0 : -ENOMEM;
	if (!json_object_object_get_ex(run, "configuration", &c) ||
	    !json_object_is_type(c, json_type_string))
		return -ENOENT;
	return (*conf = esc_string(c)) ? 0 : -ENOMEM;
}

int il_res_run_key(struct json_object *root, struct json_object *run,
		   const char *key, char **value)
{
	struct json_object *o, *sc, *sw = sweep_of(run, key);
	int ret;

	*value = NULL;
	if (sw && json_object_object_get_ex(sw, "value", &o) && is_value(o))
		return (*value = scalar_text(o)) ? 0 : -ENOMEM;
	if (json_object_object_get_ex(run, key, &o) && is_value(o))
		return (*value = scalar_text(o)) ? 0 : -ENOMEM;
	if (json_object_object_get_ex(root, "scenario", &sc) &&
	    json_object_object_get_ex(sc, key, &o) && is_value(o))
		return (*value = scalar_text(o)) ? 0 : -ENOMEM;
	ret = job_key(job_text(root, run), key, value);
	if (ret)
		return ret;
	return *value ? 0 : -ENOENT;
}

/* a verdict as written; IL_NONE when absent or not a verdict */
static enum il_verdict verdict_of(struct json_object *run, const char *key)
{
	struct json_object *v;
	enum il_verdict r;

	if (!json_object_object_get_ex(run, key, &v) ||
	    !json_object_is_type(v, json_type_string) ||
	    il_verdict_parse(json_object_get_string(v), &r))
		return IL_NONE;
	return r;
}

/*
 * A run whose verdicts are per check ("checks", no "verdict" of its own:
 * invlab-run, dl-mbwi, kmutex): its verdict and outcome from its checks'
 * by the one expectation rule (il_expect_add_check).  A check without a
 * verdict, without an "expected" or with one that is no verdict ("NONE"
 * is one: judged for information) is added as unjudged, and a run
 * without checks stays without a verdict: neither is ever a pass.
 */
static void judge_checks(struct json_object *run, enum il_verdict *got,
			 enum il_outcome *out)
{
	struct il_run_judgement rj = { 0 };
	struct json_object *cks;
	size_t n = 0;

	if (json_object_object_get_ex(run, "checks", &cks) &&
	    json_object_is_type(cks, json_type_array))
		n = json_object_array_length(cks);
	for (size_t i = 0; i < n; i++) {
		struct json_object *ck = json_object_array_get_idx(cks, i);
		struct json_object *e = NULL;
		enum il_verdict v = IL_NONE, want = IL_NONE;

		if (json_object_is_type(ck, json_type_object)) {
			v = verdict_of(ck, "verdict");
			want = verdict_of(ck, "expected");
			json_object_object_get_ex(ck, "expected", &e);
		}
		if (!e || !json_object_is_type(e, json_type_string) ||
		    (want == IL_NONE &&
		     strcmp(json_object_get_string(e), "NONE")))
			v = IL_NONE;
		il_expect_add_check(&rj, v, want);
	}
	*got = rj.nchecks ? rj.verdict : IL_NONE;
	*out = rj.nchecks ? rj.outcome : IL_OUT_NONE;
}

static bool is_hist_key(const char *key, struct json_object *val)
{
	size_t n = strlen(key);

	return n > 3 && !strcmp(key + n - 3, "_ns") &&
	       json_object_is_type(val, json_type_object) &&
	       json_object_object_get_ex(val, "bins", NULL);
}

/* What one run's walk needs, passed down to the objects inside it. */
struct walk {
	struct il_res_set *s;
	struct il_res_group *g; /* NULL when only checking */
	const char *path;
	size_t run;
	bool commit;
	struct il_hist *h;
	const struct il_lean_bins *lb; /* read lean: the cut's bins */
	size_t nhists; /* histograms (and counts) of this file so far */
	char *err;
	size_t errlen;
};

static int over_hists(struct walk *w)
{
	if (w->s->nhists + ++w->nhists <= IL_RES_MAX_RUN_HISTS)
		return 0;
	il_setf(w->err, w->errlen,
		"%s: runs[%zu]: over the limit of %d histograms a side "
		"(IL_RES_MAX_RUN_HISTS)",
		w->path, w->run, IL_RES_MAX_RUN_HISTS);
	return -E2BIG;
}

static int added(struct walk *w, int ret)
{
	if (ret == -E2BIG)
		il_setf(w->err, w->errlen,
			"%s: runs[%zu]: over the limit of %d configurations x "
			"histograms a side (IL_RES_MAX_MERGED)",
			w->path, w->run, IL_RES_MAX_MERGED);
	if (ret == -ENOMEM)
		il_setf(w->err, w->errlen, "%s: out of memory", w->path);
	return ret;
}

/*
 * Every histogram member of obj, named prefix + key: the run's own
 * (prefix "") and those of its tasks ("tauA/") and their locks
 * ("tauA/R1/").  at is obj's JSON path for messages ("tasks[0]").
 */
static int walk_hists(struct walk *w, struct json_object *obj,
		      const char *prefix, const char *at)
{
	json_object_object_foreach(obj, key, val)
	{
		char *ekey, *name = NULL, what[768];
		int ret;

		if (!is_hist_key(key, val))
			continue;
		ret = over_hists(w);
		if (ret)
			return ret;
		ekey = il_res_escape(key, strlen(key));
		if (!ekey || asprintf(&name, "%s%s", prefix, ekey) < 0) {
			free(ekey);
			return added(w, -ENOMEM);
		}
		snprintf(what, sizeof(what), "%s: runs[%zu].%s%s%s", w->path,
			 w->run, at, at[0] ? "." : "", ekey);
		ret = hist_from_json(val, w->lb, w->h, what, w->err, w->errlen);
		if (!ret && w->commit)
			ret = added(w,
				    __il_res_add_hist(w->s, w->g, name, w->h));
		free(ekey);
		free(name);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The counts a run records over a number of trials: a task's deadline
 * misses of its jobs, a lock's late waits of all its first waits (the
 * engine judges only the waits that were not late, so the trials are
 * judged + late), kmutex's waits over its threshold of its calls.  Each
 * becomes a rate metric (merge.c) named prefix + the count's key.
 */
static const struct {
	const char *events, *trials;
	bool events_not_in_trials; /* trials = trials + events */
} counts[] = {
	{ "deadline_misses", "jobs", false },
	{ "late", "judged", true },
	{ "waits_over_threshold", "samples", false },
};

static int walk_counts(struct walk *w, struct json_object *obj,
		       const char *prefix, const char *at)
{
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		struct json_object *e, *t;
		uint64_t ne, nt;
		char *name = NULL;
		int ret;

		if (!json_object_object_get_ex(obj, counts[i].events, &e) ||
		    !json_object_object_get_ex(obj, counts[i].trials, &t))
			continue;
		if (get_u64(e, &ne) || get_u64(t, &nt) ||
		    (counts[i].events_not_in_trials &&
		     __builtin_add_overflow(nt, ne, &nt)) ||
		    ne > nt) {
			il_setf(w->err, w->errlen,
				"%s: runs[%zu].%s%s%s: not a count of at most "
				"%s%s",
				w->path, w->run, at, at[0] ? "." : "",
				counts[i].events, counts[i].trials,
				counts[i].events_not_in_trials ? " + itself"
							       : "");
			return -EINVAL;
		}
		ret = over_hists(w);
		if (ret)
			return ret;
		if (!w->commit)
			continue;
		if (asprintf(&name, "%s%s", prefix, counts[i].events) < 0)
			return added(w, -ENOMEM);
		ret = added(w, __il_res_add_rate(w->s, w->g, name, ne, nt));
		free(name);
		if (ret)
			return ret;
	}
	return 0;
}

/* a task's or a lock's name for its metrics, escaped; NULL: use "#i" */
static char *member_name(struct json_object *o, const char *key, size_t i)
{
	struct json_object *n;
	char *r = NULL;

	if (json_object_object_get_ex(o, key, &n) &&
	    json_object_is_type(n, json_type_string) &&
	    json_object_get_string_len(n) > 0)
		return esc_string(n);
	if (asprintf(&r, "#%zu", i) < 0)
		return NULL;
	return r;
}

/*
 * The tasks of a run (dl-mbwi, invlab-run): each task's histograms and
 * counts, and those of its locks, as metrics of their own, so that a
 * deadline task's wakeup and response are compared like any histogram.
 */
static int walk_tasks(struct walk *w, struct json_object *run)
{
	struct json_object *tasks;
	size_t nt;

	if (!json_object_object_get_ex(run, "tasks", &tasks) ||
	    !json_object_is_type(tasks, json_type_array))
		return 0;
	nt = json_object_array_length(tasks);
	for (size_t t = 0; t < nt; t++) {
		struct json_object *task = json_object_array_get_idx(tasks, t);
		struct json_object *locks;
		char *tn, prefix[512], at[64];
		int ret;

		if (!json_object_is_type(task, json_type_object))
			continue;
		tn = member_name(task, "name", t);
		if (!tn)
			return added(w, -ENOMEM);
		snprintf(prefix, sizeof(prefix), "%s/", tn);
		snprintf(at, sizeof(at), "tasks[%zu]", t);
		ret = walk_hists(w, task, prefix, at);
		if (!ret)
			ret = walk_counts(w, task, prefix, at);
		if (!ret && json_object_object_get_ex(task, "locks", &locks) &&
		    json_object_is_type(locks, json_type_array)) {
			size_t nl = json_object_array_length(locks);

			for (size_t l = 0; l < nl && !ret; l++) {
				struct json_object *lk =
					json_object_array_get_idx(locks, l);
				char *ln, lp[1024], lat[96];

				if (!json_object_is_type(lk, json_type_object))
					continue;
				ln = member_name(lk, "resource", l);
				if (!ln) {
					ret = added(w, -ENOMEM);
					break;
				}
				snprintf(lp, sizeof(lp), "%s/%s/", tn, ln);
				snprintf(lat, sizeof(lat),
					 "tasks[%zu].locks[%zu]", t, l);
				ret = walk_hists(w, lk, lp, lat);
				if (!ret)
					ret = walk_counts(w, lk, lp, lat);
				free(ln);
			}
		}
		free(tn);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Walk the runs of a file.  With commit false it only checks them (so a
 * bad file leaves the set untouched); with commit true it adds them.
 */
static int walk_runs(struct il_res_set *s, struct json_object *root,
		     struct json_object *runs, const char *path,
		     const char *scenario, size_t file, bool commit,
		     struct il_hist *h, char *err, size_t errlen)
{
	size_t n = json_object_array_length(runs);
	struct walk w = { .s = s,
			  .path = path,
			  .commit = commit,
			  .h = h,
			  .lb = lean_bins(root),
			  .err = err,
			  .errlen = errlen };

	if (s->nruns + n > IL_RES_MAX_RUNS) {
		il_setf(err, errlen,
			"%s: %zu runs, over the limit of %d runs a side "
			"(IL_RES_MAX_RUNS)",
			path, s->nruns + n, IL_RES_MAX_RUNS);
		return -E2BIG;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *run = json_object_array_get_idx(runs, i);
		struct json_object *c;
		struct il_res_group *g = NULL;
		char *conf, *by = NULL;
		int ret;

		if (!json_object_is_type(run, json_type_object) ||
		    !json_object_object_get_ex(run, "configuration", &c) ||
		    !json_object_is_type(c, json_type_string)) {
			il_setf(err, errlen,
				"%s: runs[%zu]: no \"configuration\" string",
				path, i);
			return -EINVAL;
		}
		/* a sweep's row: a run that is in none is a mistake */
		ret = s->by ? il_res_run_key(root, run, s->by, &by) : 0;
		if (ret == -ENOENT) {
			il_setf(err, errlen,
				"%s: runs[%zu]: no '%s' for --by (not a member "
				"of the run or of the file's scenario, nor a "
				"key "
				"of its job)",
				path, i, s->by);
			return -ENOKEY;
		}
		if (ret)
			return added(&w, -ENOMEM);
		if (commit) {
			enum il_verdict got = verdict_of(run, "verdict");
			enum il_outcome o =
				il_expect(got, verdict_of(run, "expected"));

			if (!json_object_object_get_ex(run, "verdict", NULL))
				judge_checks(run, &got, &o);
			ret = il_res_run_configuration(run, s->by, &conf);
			ret = ret ? -ENOMEM
				  : __il_res_add_judged(s, scenario, conf, by,
							file, got, o, &g);
			free(conf);
			if (ret) {
				free(by);
				return added(&w, -ENOMEM);
			}
		}
		free(by);
		w.g = g;
		w.run = i;
		ret = walk_hists(&w, run, "", "");
		if (!ret)
			ret = walk_counts(&w, run, "", "");
		if (!ret)
			ret = walk_tasks(&w, run);
		if (ret)
			return ret;
	}
	return 0;
}

/* the set's copy of a string made for it (NULL stays NULL), freed */
static const char *interned(struct il_res_set *s, char *str)
{
	const char *r = str ? __il_res_intern(s, str) : NULL;

	free(str);
	return r;
}

static int read_scenario(struct il_res_set *s, struct il_res_file *f,
			 struct json_object *sc)
{
	size_t n = 0;

	if (!sc || !json_object_is_type(sc, json_type_object))
		return 0;
	if (json_object_object_length(sc) > IL_RES_MAX_SCENARIO_KEYS)
		return -E2BIG;
	f->scenario = calloc((size_t)json_object_object_length(sc) + 1,
			     sizeof(*f->scenario));
	if (!f->scenario)
		return -ENOMEM;
	json_object_object_foreach(sc, key, val)
	{
		if (val && (json_object_is_type(val, json_type_object) ||
			    json_object_is_type(val, json_type_array)))
			continue;
		f->scenario[n].key =
			interned(s, il_res_escape(key, strlen(key)));
		f->scenario[n].value = interned(s, scalar_text(val));
		n++;
		f->nscenario = n;
		if (!f->scenario[n - 1].key || !f->scenario[n - 1].value)
			return -ENOMEM;
	}
	return 0;
}

static struct json_object *parse_file(const char *path, uint64_t max, bool lean,
				      char *err, size_t errlen, int *ret)
{
	struct json_object *root;
	char *epath = il_res_escape(path, strlen(path));

	if (!epath) {
		il_setf(err, errlen, "out of memory");
		*ret = -ENOMEM;
		return NULL;
	}
	root = parse(path, epath, max, lean, err, errlen, ret);
	free(epath);
	return root;
}

struct json_object *il_res_parse_file(const char *path, uint64_t max, char *err,
				      size_t errlen, int *ret)
{
	return parse_file(path, max, false, err, errlen, ret);
}

struct json_object *il_res_parse_lean(const char *path, uint64_t max, char *err,
				      size_t errlen, int *ret)
{
	return parse_file(path, max, true, err, errlen, ret);
}

int il_res_set_load(struct il_res_set *s, const char *path, char *err,
		    size_t errlen)
{
	struct json_object *root;
	int ret;

	root = il_res_parse_lean(path, s->max_input, err, errlen, &ret);
	if (!root)
		return ret;
	ret = il_res_set_add_json(s, root, path, err, errlen);
	json_object_put(root);
	return ret;
}

int il_res_check_version(struct json_object *root, const char *epath, char *err,
			 size_t errlen)
{
	struct json_object *o;

	/* absent: a file of before the member, which is version 1 */
	if (!json_object_object_get_ex(root, "schema_version", &o))
		return 0;
	if (!json_object_is_type(o, json_type_int)) {
		il_setf(err, errlen, "%s: schema_version is not an integer",
			epath);
		return -EINVAL;
	}
	/* a newer schema may mean something else by the same keys */
	if (json_object_get_int64(o) != IL_RES_SCHEMA_VERSION) {
		il_setf(err, errlen,
			"%s: schema_version %lld, this tool reads version %d",
			epath, (long long)json_object_get_int64(o),
			IL_RES_SCHEMA_VERSION);
		return -EINVAL;
	}
	return 0;
}

int il_res_set_add_json(struct il_res_set *s, struct json_object *root,
			const char *path, char *err, size_t errlen)
{
	struct json_object *o, *kernel = NULL, *runs, *sc = NULL;
	struct il_res_file *f;
	struct il_hist *h = NULL;
	char *program = NULL, *scenario = NULL, *name = NULL, *epath;
	int ret;

	/* the path is the user's, but it may name a file a device made */
	epath = il_res_escape(path, strlen(path));
	if (!epath) {
		il_setf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = -EINVAL;
	if (!json_object_is_type(root, json_type_object)) {
		il_setf(err, errlen, "%s: not an invlab result (not an object)",
			epath);
		goto out;
	}
	if (il_res_check_version(root, epath, err, errlen))
		goto out;
	if (!json_object_object_get_ex(root, "program", &o) ||
	    !json_object_is_type(o, json_type_string)) {
		il_setf(err, errlen, "%s: no \"program\" string", epath);
		goto out;
	}
	ret = -ENOMEM;
	program = esc_string(o);
	if (!program)
		goto nomem;
	ret = -EINVAL;
	if (!json_object_object_get_ex(root, "runs", &runs) ||
	    !json_object_is_type(runs, json_type_array)) {
		il_setf(err, errlen, "%s: no \"runs\" array", epath);
		goto out;
	}
	json_object_object_get_ex(root, "kernel", &kernel);
	if (kernel && !json_object_is_type(kernel, json_type_object))
		kernel = NULL;
	json_object_object_get_ex(root, "scenario", &sc);
	if (sc && json_object_is_type(sc, json_type_object) &&
	    json_object_object_length(sc) > IL_RES_MAX_SCENARIO_KEYS) {
		il_setf(err, errlen,
			"%s: scenario: %d members, over the limit of %d "
			"(IL_RES_MAX_SCENARIO_KEYS)",
			epath, json_object_object_length(sc),
			IL_RES_MAX_SCENARIO_KEYS);
		goto out;
	}
	ret = -ENOMEM;
	/* a program with several scenarios names them */
	if (sc && json_object_is_type(sc, json_type_object) &&
	    json_object_object_get_ex(sc, "name", &o) &&
	    json_object_is_type(o, json_type_string)) {
		name = esc_string(o);
		if (!name || asprintf(&scenario, "%s/%s", program, name) < 0)
			scenario = NULL;
	} else {
		scenario = strdup(program);
	}
	h = malloc(sizeof(*h));
	if (!scenario || !h)
		goto nomem;
	ret = walk_runs(s, root, runs, epath, scenario, s->nfiles, false, h,
			err, errlen);
	if (ret)
		goto out;

	ret = -ENOMEM;
	if (s->nfiles == s->files_cap) {
		size_t cap = s->files_cap ? 2 * s->files_cap : 8;
		struct il_res_file *nf = realloc(s->files, cap * sizeof(*nf));

		if (!nf)
			goto nomem;
		s->files = nf;
		s->files_cap = cap;
	}
	f = &s->files[s->nfiles];
	memset(f, 0, sizeof(*f));
	f->path = epath;
	epath = NULL;
	f->program = __il_res_intern(s, program);
	f->return_code = -1;
	for (int i = 0; i < IL_RES_FP_N && f->program; i++) {
		struct json_object *v = NULL;

		if (kernel)
			json_object_object_get_ex(kernel, fp_keys[i], &v);
		f->fp[i] = interned(s, scalar_text(v));
		if (!f->fp[i])
			break;
	}
	if (json_object_object_get_ex(root, "return_code", &o) &&
	    json_object_is_type(o, json_type_int))
		f->return_code = json_object_get_int(o);
	f->interrupted = json_object_object_get_ex(root, "interrupted", &o) &&
			 json_object_get_boolean(o);
	if (!f->fp[IL_RES_FP_N - 1] || read_scenario(s, f, sc)) {
		__il_res_free_file(f);
		goto nomem;
	}
	s->nfiles++;
	ret = walk_runs(s, root, runs, f->path, scenario, s->nfiles - 1, true,
			h, err, errlen);
	goto out;
nomem:
	il_setf(err, errlen, "%s: out of memory", epath ? epath : path);
out:
	free(h);
	free(program);
	free(name);
	free(scenario);
	free(epath);
	return ret;
}
