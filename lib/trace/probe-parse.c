// SPDX-License-Identifier: MIT
/*
 * The pure half of the probes (probe.h): the --probe option's value, the
 * probe's default priority, and cyclictest's and rtla timerlat's output
 * read back into histograms.  Nothing here runs anything, so all of it is
 * unit-tested from fixtures cyclictest wrote (tests/data/probe/).
 *
 * cyclictest's --json file (rt-tests 2.x) is read by a small reader of
 * its own rather than a JSON library: the demos run on devices that have
 * none, and the file's shape is fixed (per thread an object with
 * "histogram" {"US": count}, "cycles", "min", "max", "avg", "cpu").
 * Overflows are not in it: they are the cycles the histogram does not
 * hold.  The -h text has one line per microsecond ("000042 000017
 * 000003": the bucket, then each thread's count) and "# Min Latencies:",
 * "# Avg Latencies:", "# Max Latencies:", "# Histogram Overflows:" lines,
 * one column per thread.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/cpu.h>
#include <invlab/probe.h>
#include <invlab/strbuf.h>
#include <invlab/suggest.h>
#include <invlab/time.h>

#define US ((uint64_t)1000)

/* ---- the option --------------------------------------------------------- */

static const char *const keys[] = {
	"prio", "policy", "interval", "limit", "cpus", "format", "tune",
};
#define NKEYS (sizeof(keys) / sizeof(keys[0]))

static int parse_time(const char *key, const char *v, uint64_t lo, uint64_t hi,
		      uint64_t *out, char *err, size_t len)
{
	char a[32], b[32];
	uint64_t ns;

	il_format_duration_exact(a, sizeof(a), lo);
	il_format_duration_exact(b, sizeof(b), hi);
	if (il_parse_duration(v, US, &ns)) {
		il_setf(err, len,
			"%s: '%s' is not a duration (e.g. 500us, 1ms; a bare "
			"number is microseconds)",
			key, v);
		return -EINVAL;
	}
	if (ns < lo || ns > hi) {
		il_setf(err, len, "%s: '%s' is out of range (%s to %s)", key, v,
			a, b);
		return -EINVAL;
	}
	*out = ns;
	return 0;
}

static int parse_cpus(const char *v, struct il_probe_opts *o, char *err,
		      size_t len)
{
	unsigned long mask[IL_MAX_CPUS / (8 * sizeof(unsigned long))];
	char why[160];
	int n = il_cpulist_parse(v, mask, why, sizeof(why));

	if (n < 0) {
		il_setf(err, len, "cpus: '%s': %s", v, why);
		return -EINVAL;
	}
	if (n > IL_PROBE_MAX_CPUS) {
		il_setf(err, len, "cpus: '%s' has %d CPUs, at most %d", v, n,
			IL_PROBE_MAX_CPUS);
		return -EINVAL;
	}
	o->ncpus = 0;
	for (int c = 0; c < IL_MAX_CPUS; c++)
		if (mask[c / (8 * sizeof(long))] >> (c % (8 * sizeof(long))) &
		    1)
			o->cpus[o->ncpus++] = c;
	return 0;
}

static int choice(const char *key, const char *v, const char *a, const char *b,
		  int *out, char *err, size_t len)
{
	if (!strcmp(v, a) || !strcmp(v, b)) {
		*out = !strcmp(v, b);
		return 0;
	}
	il_setf(err, len, "%s: '%s' is not %s or %s", key, v, a, b);
	return -EINVAL;
}

static int set_key(struct il_probe_opts *o, const char *k, const char *v,
		   char *err, size_t len)
{
	int x, ret;

	if (!strcmp(k, "prio")) {
		char *end;
		long p;

		errno = 0;
		p = strtol(v, &end, 10);
		if (!*v || *end || errno) {
			il_setf(err, len, "prio: '%s' is not a number", v);
			return -EINVAL;
		}
		if (p < IL_PROBE_PRIO_MIN || p > IL_PROBE_PRIO_MAX) {
			il_setf(err, len,
				"prio: %ld is out of range (%d to %d)", p,
				IL_PROBE_PRIO_MIN, IL_PROBE_PRIO_MAX);
			return -EINVAL;
		}
		o->prio = (int)p;
		return 0;
	}
	if (!strcmp(k, "policy"))
		return choice(k, v, "fifo", "rr", &o->rr, err, len);
	if (!strcmp(k, "interval"))
		return parse_time(k, v, IL_PROBE_INTERVAL_MIN_NS,
				  IL_PROBE_INTERVAL_MAX_NS, &o->interval_ns,
				  err, len);
	if (!strcmp(k, "limit"))
		return parse_time(k, v, IL_PROBE_LIMIT_MIN_NS,
				  IL_PROBE_LIMIT_MAX_NS, &o->limit_ns, err,
				  len);
	if (!strcmp(k, "cpus"))
		return parse_cpus(v, o, err, len);
	if (!strcmp(k, "format")) {
		ret = choice(k, v, "json", "text", &x, err, len);
		if (!ret && !x && o->tool == IL_PROBE_TIMERLAT) {
			il_setf(err, len,
				"format: rtla timerlat prints only text "
				"(format=text)");
			return -EINVAL;
		}
		o->format = x ? IL_PROBE_TEXT : IL_PROBE_JSON;
		return ret;
	}
	if (!strcmp(k, "tune")) {
		ret = choice(k, v, "off", "on", &x, err, len);
		o->tune = x;
		return ret;
	}
	{
		const char *near = il_suggest(k, keys, NKEYS);

		il_setf(err, len,
			"unknown key '%s'%s%s%s (keys: prio, policy, interval, "
			"limit, cpus, format, tune)",
			k, near ? "; did you mean '" : "", near ? near : "",
			near ? "'?" : "");
	}
	return -EINVAL;
}

int il_probe_parse(const char *spec, struct il_probe_opts *o, char *err,
		   size_t len)
{
	static const char *const probes[] = { "cyclictest", "timerlat" };
	char buf[512], *p, *next;
	const char *eq;
	size_t nl;
	int tool = -1;

	memset(o, 0, sizeof(*o));
	o->interval_ns = IL_PROBE_INTERVAL_DEF_NS;
	o->limit_ns = IL_PROBE_LIMIT_DEF_NS;
	if (!spec)
		spec = "";
	eq = strchr(spec, '=');
	nl = eq ? (size_t)(eq - spec) : strlen(spec);
	for (int i = 0; i < 2; i++)
		if (nl == strlen(probes[i]) && !strncmp(spec, probes[i], nl))
			tool = i;
	if (tool < 0) {
		char name[64];
		const char *near;

		snprintf(name, sizeof(name), "%.*s", (int)(nl < 63 ? nl : 63),
			 spec);
		near = il_suggest(name, probes, 2);
		il_setf(err, len,
			"unknown probe '%s'%s%s%s (probes: cyclictest, "
			"timerlat)",
			name, near ? "; did you mean '" : "", near ? near : "",
			near ? "'?" : "");
		return -EINVAL;
	}
	o->enabled = true;
	o->tool = tool == 1 ? IL_PROBE_TIMERLAT : IL_PROBE_CYCLICTEST;
	if (o->tool == IL_PROBE_TIMERLAT)
		o->format = IL_PROBE_TEXT;
	if (!eq)
		return 0;
	if (strlen(eq + 1) >= sizeof(buf)) {
		il_setf(err, len, "the options are longer than %zu characters",
			sizeof(buf) - 1);
		return -EINVAL;
	}
	strcpy(buf, eq + 1);
	if (!buf[0]) {
		il_setf(err, len,
			"nothing after '%s=' (KEY=VALUE,...; keys: "
			"prio, policy, interval, limit, cpus, format, tune)",
			probes[tool]);
		return -EINVAL;
	}
	/*
	 * KEY=VALUE items separated by commas; an item without '=' goes on
	 * the value before it, so that cpus=0,2-3 keeps its commas.
	 */
	for (p = buf; p; p = next) {
		char *v = strchr(p, '=');
		char *c;
		int ret;

		next = NULL;
		for (c = v ? v : p; (c = strchr(c, ',')); c++) {
			char *q = c + 1, *qeq = strchr(q, '='),
			     *qc = strchr(q, ',');

			if (qeq && (!qc || qeq < qc)) {
				*c = '\0';
				next = q;
				break;
			}
		}
		if (!v || v == p) {
			il_setf(err, len, "'%s' is not KEY=VALUE", p);
			return -EINVAL;
		}
		*v++ = '\0';
		if (!*v) {
			il_setf(err, len, "%s: no value", p);
			return -EINVAL;
		}
		ret = set_key(o, p, v, err, len);
		if (ret)
			return ret;
	}
	return 0;
}

int il_probe_prio(const struct il_probe_opts *o, const struct il_scenario *sc)
{
	int p = 0;

	if (o && o->prio)
		return o->prio;
	for (int i = 0; sc && i < sc->ntasks; i++) {
		const struct il_sched *s = &sc->tasks[i].sched;

		if ((s->policy == IL_SCHED_FIFO || s->policy == IL_SCHED_RR) &&
		    s->prio > p)
			p = s->prio;
	}
	return p + 1 > IL_PROBE_PRIO_MAX ? IL_PROBE_PRIO_MAX : p + 1;
}

const char *il_probe_cpulist(const int *cpus, int n, char *buf, size_t len)
{
	buf[0] = '\0';
	for (int i = 0; i < n;) {
		int j = i;

		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		if (j > i)
			il_appendf(buf, len, "%s%d-%d", buf[0] ? "," : "",
				   cpus[i], cpus[j]);
		else
			il_appendf(buf, len, "%s%d", buf[0] ? "," : "",
				   cpus[i]);
		i = j + 1;
	}
	return buf;
}

/* ---- one thread's histogram ---------------------------------------------- */

/* count samples of us microseconds */
static int add_us(struct il_hist *h, uint64_t us, uint64_t count)
{
	uint64_t v = us * US, s;
	unsigned i;

	if (!count)
		return 0;
	if (us > UINT64_MAX / US)
		return -EOVERFLOW;
	i = il_hist_index(v);
	if (__builtin_mul_overflow(v, count, &s) ||
	    __builtin_add_overflow(h->sum, s, &h->sum) ||
	    __builtin_add_overflow(h->count, count, &h->count) ||
	    __builtin_add_overflow(h->bins[i], count, &h->bins[i]))
		return -EOVERFLOW;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	return 0;
}

/*
 * The thread's histogram holds its in-range samples; add the overflows
 * at its exact max and check the figures agree.  min, max and avg in us.
 */
static int finish(struct il_probe_cpu *c, int t, uint64_t cycles, uint64_t min,
		  uint64_t max, double avg, char *err, size_t len)
{
	struct il_hist *h = &c->h;
	uint64_t inbins = h->count;

	if (inbins > cycles) {
		il_setf(err, len,
			"thread %d: the histogram holds %" PRIu64
			" samples, more than its %" PRIu64 " cycles",
			t, inbins, cycles);
		return -EINVAL;
	}
	c->cycles = cycles;
	c->overflow = cycles - inbins;
	if (!cycles)
		return 0;
	if (min > max) {
		il_setf(err, len,
			"thread %d: min %" PRIu64 " us is above max %" PRIu64
			" us",
			t, min, max);
		return -EINVAL;
	}
	if (inbins &&
	    (h->min != min * US || (!c->overflow && h->max != max * US))) {
		il_setf(err, len,
			"thread %d: min %" PRIu64 " us and max %" PRIu64
			" us do not fit its histogram (%" PRIu64 "..%" PRIu64
			" us)",
			t, min, max, h->min / US, h->max / US);
		return -EINVAL;
	}
	if (c->overflow && inbins && max * US <= h->max) {
		il_setf(err, len,
			"thread %d: %" PRIu64 " overflows, but max %" PRIu64
			" us is inside the histogram",
			t, c->overflow, max);
		return -EINVAL;
	}
	if (c->overflow) {
		double sum = avg * (double)US * (double)cycles;

		if (add_us(h, max, c->overflow)) {
			il_setf(err, len, "thread %d: counts overflow", t);
			return -EINVAL;
		}
		h->overflow = c->overflow;
		/* the bins cannot give the sum now: the mean can */
		if (!(avg >= (double)min - 1) || !(avg <= (double)max + 1) ||
		    sum > 1.8e19) {
			il_setf(err, len,
				"thread %d: mean %.2f us is not between min "
				"and "
				"max",
				t, avg);
			return -EINVAL;
		}
		h->sum = (uint64_t)(sum + 0.5);
	}
	h->min = min * US;
	h->max = max * US;
	return 0;
}

static void begin(struct il_probe_result *r)
{
	r->n = 0;
	for (int i = 0; i < IL_PROBE_MAX_CPUS; i++) {
		memset(&r->cpu[i], 0, sizeof(r->cpu[i]));
		il_hist_init(&r->cpu[i].h);
		r->cpu[i].cpu = -1;
	}
	il_hist_init(&r->all);
}

static void end(struct il_probe_result *r)
{
	for (int i = 0; i < r->n; i++)
		il_hist_merge(&r->all, &r->cpu[i].h);
}

/* ---- the --json file ----------------------------------------------------- */

struct jr {
	const char *p;
	char *err;
	size_t len;
	int depth;
};

static void ws(struct jr *j)
{
	while (isspace((unsigned char)*j->p))
		j->p++;
}

static int jfail(struct jr *j, const char *what)
{
	il_setf(j->err, j->len, "not cyclictest's --json: %s", what);
	return -EINVAL;
}

/* a string (escapes kept as written) into buf */
static int jstring(struct jr *j, char *buf, size_t len)
{
	size_t n = 0;

	ws(j);
	if (*j->p != '"')
		return jfail(j, "a string was expected");
	j->p++;
	while (*j->p && *j->p != '"') {
		if (*j->p == '\\' && j->p[1])
			j->p++;
		if (n + 1 < len)
			buf[n++] = *j->p;
		j->p++;
	}
	if (*j->p != '"')
		return jfail(j, "an unterminated string");
	j->p++;
	buf[n] = '\0';
	return 0;
}

static int jnumber(struct jr *j, double *v)
{
	char *end;

	ws(j);
	errno = 0;
	*v = strtod(j->p, &end);
	if (end == j->p || errno || !isfinite(*v))
		return jfail(j, "a number was expected");
	j->p = end;
	return 0;
}

static int jskip(struct jr *j);

/* { "key": value, ... }: calls fn for each key with j at its value */
static int jobject(struct jr *j, int (*fn)(struct jr *, const char *, void *),
		   void *ctx)
{
	char key[64];
	int ret;

	ws(j);
	if (*j->p != '{')
		return jfail(j, "an object was expected");
	if (++j->depth > 16)
		return jfail(j, "nested too deeply");
	j->p++;
	ws(j);
	if (*j->p == '}') {
		j->p++;
		j->depth--;
		return 0;
	}
	for (;;) {
		if ((ret = jstring(j, key, sizeof(key))))
			return ret;
		ws(j);
		if (*j->p != ':')
			return jfail(j, "':' was expected");
		j->p++;
		ret = fn ? fn(j, key, ctx) : jskip(j);
		if (ret)
			return ret;
		ws(j);
		if (*j->p == ',') {
			j->p++;
			continue;
		}
		if (*j->p == '}') {
			j->p++;
			j->depth--;
			return 0;
		}
		return jfail(j, "',' or '}' was expected");
	}
}

static int jskip(struct jr *j)
{
	char s[8];
	double v;

	ws(j);
	if (*j->p == '{')
		return jobject(j, NULL, NULL);
	if (*j->p == '"')
		return jstring(j, s, sizeof(s));
	if (*j->p == '[') {
		if (++j->depth > 16)
			return jfail(j, "nested too deeply");
		j->p++;
		ws(j);
		if (*j->p == ']') {
			j->p++;
			j->depth--;
			return 0;
		}
		for (;;) {
			int ret = jskip(j);

			if (ret)
				return ret;
			ws(j);
			if (*j->p == ',') {
				j->p++;
				continue;
			}
			if (*j->p == ']') {
				j->p++;
				j->depth--;
				return 0;
			}
			return jfail(j, "',' or ']' was expected");
		}
	}
	if (!strncmp(j->p, "true", 4) || !strncmp(j->p, "null", 4)) {
		j->p += 4;
		return 0;
	}
	if (!strncmp(j->p, "false", 5)) {
		j->p += 5;
		return 0;
	}
	return jnumber(j, &v);
}

/* a whole number in [0, max] */
static int juint(struct jr *j, const char *what, uint64_t max, uint64_t *out)
{
	double v;
	int ret = jnumber(j, &v);

	if (ret)
		return ret;
	if (v < 0 || v != floor(v) || v > (double)max) {
		il_setf(j->err, j->len, "%s: %g is not a count", what, v);
		return -EINVAL;
	}
	*out = (uint64_t)v;
	return 0;
}

struct jthread {
	struct il_probe_cpu *c;
	int idx;
	bool has[5]; /* cycles, min, max, avg, histogram */
	uint64_t cycles, min, max;
	double avg;
	int64_t cpu;
};

static int jbucket(struct jr *j, const char *key, void *ctx)
{
	struct jthread *t = ctx;
	uint64_t us, count;
	char *end;
	int ret;

	errno = 0;
	us = strtoull(key, &end, 10);
	if (!*key || *end || errno || !isdigit((unsigned char)key[0])) {
		il_setf(j->err, j->len,
			"thread %d: histogram key '%s' is not a latency in us",
			t->idx, key);
		return -EINVAL;
	}
	if ((ret = juint(j, "histogram count", UINT64_MAX >> 12, &count)))
		return ret;
	if (add_us(&t->c->h, us, count)) {
		il_setf(j->err, j->len, "thread %d: counts overflow", t->idx);
		return -EINVAL;
	}
	return 0;
}

static int jthread_key(struct jr *j, const char *key, void *ctx)
{
	struct jthread *t = ctx;
	uint64_t v;
	int ret;

	if (!strcmp(key, "histogram")) {
		t->has[4] = true;
		return jobject(j, jbucket, t);
	}
	if (!strcmp(key, "avg")) {
		t->has[3] = true;
		return jnumber(j, &t->avg);
	}
	if (!strcmp(key, "cpu")) {
		if ((ret = juint(j, "cpu", IL_MAX_CPUS - 1, &v)))
			return ret;
		t->cpu = (int64_t)v;
		return 0;
	}
	for (int k = 0; k < 3; k++) {
		static const char *const n[] = { "cycles", "min", "max" };
		uint64_t *dst[] = { &t->cycles, &t->min, &t->max };

		if (strcmp(key, n[k]))
			continue;
		t->has[k] = true;
		return juint(j, n[k], UINT64_MAX >> 12, dst[k]);
	}
	return jskip(j);
}

static int jthreads(struct jr *j, const char *key, void *ctx)
{
	struct il_probe_result *r = ctx;
	struct jthread t = { .cpu = -1 };
	char *end;
	long idx;
	int ret;

	errno = 0;
	idx = strtol(key, &end, 10);
	if (!*key || *end || errno || idx != r->n) {
		il_setf(j->err, j->len,
			"thread '%s' where thread %d was expected", key, r->n);
		return -EINVAL;
	}
	if (r->n >= IL_PROBE_MAX_CPUS) {
		il_setf(j->err, j->len, "more than %d threads",
			IL_PROBE_MAX_CPUS);
		return -EINVAL;
	}
	t.c = &r->cpu[r->n];
	t.idx = r->n;
	if ((ret = jobject(j, jthread_key, &t)))
		return ret;
	for (int k = 0; k < 5; k++)
		if (!t.has[k]) {
			static const char *const n[] = { "cycles", "min", "max",
							 "avg", "histogram" };

			il_setf(j->err, j->len,
				"thread %d: no \"%s\" (cyclictest -h N makes "
				"the histogram)",
				t.idx, n[k]);
			return -EINVAL;
		}
	t.c->cpu = (int)t.cpu;
	ret = finish(t.c, t.idx, t.cycles, t.min, t.max, t.avg, j->err, j->len);
	if (!ret)
		r->n++;
	return ret;
}

struct jtop {
	struct il_probe_result *r;
	bool threads;
	uint64_t nthreads, ns;
	bool has_n;
};

static int jtop_key(struct jr *j, const char *key, void *ctx)
{
	struct jtop *t = ctx;

	if (!strcmp(key, "thread")) {
		if (t->ns) {
			il_setf(j->err, j->len,
				"its histogram is in ns (-N): run it without");
			return -EINVAL;
		}
		t->threads = true;
		return jobject(j, jthreads, t->r);
	}
	if (!strcmp(key, "num_threads")) {
		t->has_n = true;
		return juint(j, "num_threads", IL_PROBE_MAX_CPUS, &t->nthreads);
	}
	if (!strcmp(key, "resolution_in_ns"))
		return juint(j, "resolution_in_ns", 1, &t->ns);
	return jskip(j);
}

int il_probe_read_json(const char *text, struct il_probe_result *r, char *err,
		       size_t len)
{
	struct jr j = { .p = text, .err = err, .len = len };
	struct jtop top = { .r = r };
	int ret;

	begin(r);
	ret = jobject(&j, jtop_key, &top);
	if (!ret) {
		ws(&j);
		if (*j.p)
			ret = jfail(&j, "text after the object");
	}
	if (!ret && (!top.threads || !r->n))
		ret = jfail(&j, top.threads ? "no thread in \"thread\""
					    : "no \"thread\" object");
	if (!ret && top.has_n && top.nthreads != (uint64_t)r->n) {
		il_setf(err, len, "num_threads is %" PRIu64 " but %d are there",
			top.nthreads, r->n);
		ret = -EINVAL;
	}
	if (ret) {
		begin(r);
		return ret;
	}
	end(r);
	return 0;
}

/* ---- the -h text -----------------------------------------------------------
 */

/*
 * The figures of a line from p, max of them at most: each a number or,
 * when dash (timerlat's columns of a CPU without them), "-", read as
 * TL_NONE; a '#' or the line's end (a CR before it taken as blank) ends
 * them.  How many; *bad when something else is there.
 */
#define TL_NONE UINT64_MAX
static int numbers(const char *p, uint64_t *v, int max, bool dash, bool *bad)
{
	int n = 0;

	*bad = false;
	for (;;) {
		char *end;

		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (!*p || *p == '\n' || *p == '#')
			return n;
		if (n == max) {
			*bad = true;
			return n;
		}
		if (dash && *p == '-' &&
		    (p[1] == ' ' || p[1] == '\t' || p[1] == '\r' ||
		     p[1] == '\n' || !p[1])) {
			v[n++] = TL_NONE;
			p++;
			continue;
		}
		if (!isdigit((unsigned char)*p)) {
			*bad = true;
			return n;
		}
		errno = 0;
		v[n] = strtoull(p, &end, 10);
		if (errno || v[n] > UINT64_MAX >> 12) {
			*bad = true;
			return n;
		}
		n++;
		p = end;
	}
}

int il_probe_read_text(const char *text, const int *cpus, int ncpus,
		       struct il_probe_result *r, char *err, size_t len)
{
	static const char *const sums[] = {
		"# Min Latencies:", "# Avg Latencies:",
		"# Max Latencies:", "# Histogram Overflows:",
		"# Total:",
	};
	uint64_t sum[5][IL_PROBE_MAX_CPUS];
	int nsum[5] = { 0 }, nt = -1, line = 0;
	bool hist = false;

	begin(r);
	for (const char *p = text; p && *p;
	     p = strchr(p, '\n'), p = p ? p + 1 : p) {
		uint64_t v[IL_PROBE_MAX_CPUS + 2];
		bool bad;
		int n;

		line++;
		if (!strncmp(p, "# Histogram", 11) &&
		    (p[11] == '\n' || !p[11])) {
			hist = true;
			continue;
		}
		if (*p == '#') {
			for (int k = 0; k < 5; k++) {
				size_t l = strlen(sums[k]);

				if (strncmp(p, sums[k], l))
					continue;
				nsum[k] =
					numbers(p + l, sum[k],
						IL_PROBE_MAX_CPUS, false, &bad);
				if (bad || (nt >= 0 && nsum[k] != nt)) {
					il_setf(err, len,
						"line %d: '%s' does not give "
						"one number per thread",
						line, sums[k]);
					goto fail;
				}
				nt = nsum[k];
			}
			continue;
		}
		if (!isdigit((unsigned char)*p))
			continue;
		n = numbers(p, v, IL_PROBE_MAX_CPUS + 1, false, &bad);
		if (!hist || bad || n < 2 || (nt >= 0 && n - 1 != nt)) {
			il_setf(err, len,
				"line %d: not a histogram line (the bucket, "
				"then one count per thread)",
				line);
			goto fail;
		}
		nt = n - 1;
		for (int t = 0; t < nt; t++)
			if (add_us(&r->cpu[t].h, v[0], v[t + 1])) {
				il_setf(err, len, "line %d: counts overflow",
					line);
				goto fail;
			}
	}
	if (!hist || nt <= 0) {
		il_setf(err, len,
			"no histogram (cyclictest -h N -q prints one at the "
			"end)");
		goto fail;
	}
	for (int k = 0; k < 4; k++)
		if (nsum[k] != nt) {
			il_setf(err, len, "no '%s' line", sums[k]);
			goto fail;
		}
	if (nt > ncpus) {
		il_setf(err, len, "%d threads, but %d CPUs were given", nt,
			ncpus);
		goto fail;
	}
	r->n = nt;
	for (int t = 0; t < nt; t++) {
		uint64_t inbins = r->cpu[t].h.count;
		int ret;

		if (nsum[4] == nt && sum[4][t] != inbins) {
			il_setf(err, len,
				"thread %d: its histogram adds up to %" PRIu64
				", Total says %" PRIu64,
				t, inbins, sum[4][t]);
			goto fail;
		}
		r->cpu[t].cpu = cpus[t];
		ret = finish(&r->cpu[t], t, inbins + sum[3][t], sum[0][t],
			     sum[2][t], (double)sum[1][t], err, len);
		if (ret)
			goto fail;
	}
	end(r);
	return 0;
fail:
	begin(r);
	return -EINVAL;
}

/* ---- rtla timerlat hist's text ---------------------------------------------
 */

/* at most this many columns: IRQ, Thr and Usr of each CPU */
#define TL_COLS (3 * IL_PROBE_MAX_CPUS)
/* "-" in a summary line: a column that counted nothing */
const char *il_probe_name(enum il_probe_tool tool)
{
	return tool == IL_PROBE_TIMERLAT ? "timerlat" : "cyclictest";
}

/* the "Index" line: each column's CPU when it is a Thr-NNN one, else -1;
 * how many columns, or -1 (*why says) */
static int tl_columns(const char *p, int *thr_cpu, const char **why)
{
	int n = 0;

	p += strlen("Index");
	for (;;) {
		int kind, cpu = 0, digits = 0;

		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (!*p || *p == '\n')
			return n;
		if (n == TL_COLS) {
			*why = "more columns than invlab reads";
			return -1;
		}
		if (!strncmp(p, "IRQ-", 4))
			kind = 0;
		else if (!strncmp(p, "Thr-", 4))
			kind = 1;
		else if (!strncmp(p, "Usr-", 4))
			kind = 2;
		else {
			*why = "a column that is not IRQ-N, Thr-N or Usr-N";
			return -1;
		}
		for (p += 4; isdigit((unsigned char)*p) && digits < 6;
		     p++, digits++)
			cpu = cpu * 10 + (*p - '0');
		if (!digits || cpu >= IL_MAX_CPUS ||
		    !(*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' ||
		      !*p)) {
			*why = "a column whose CPU is not a number in range";
			return -1;
		}
		thr_cpu[n++] = kind == 1 ? cpu : -1;
	}
}

int il_probe_read_timerlat(const char *text, struct il_probe_result *r,
			   char *err, size_t len)
{
	/* the summary lines, in rtla's order after the histogram's */
	static const char *const sums[] = { "over:", "count:", "min:", "avg:",
					    "max:" };
	uint64_t sum[5][TL_COLS];
	int thr_cpu[TL_COLS], thr_of[TL_COLS], nsum[5] = { 0 };
	int ncol = -1, line = 0;
	bool ns_unit = false;

	begin(r);
	for (const char *p = text; p && *p;
	     p = strchr(p, '\n'), p = p ? p + 1 : p) {
		uint64_t v[TL_COLS + 1];
		const char *why = NULL;
		bool bad;
		int n, k;

		line++;
		if (!strncmp(p, "# Time unit is nanoseconds", 26))
			ns_unit = true;
		if (*p == '#')
			continue;
		if (!strncmp(p, "Index", 5)) {
			if (ncol >= 0) {
				il_setf(err, len,
					"line %d: a second 'Index' "
					"line",
					line);
				goto fail;
			}
			ncol = tl_columns(p, thr_cpu, &why);
			if (ncol < 0) {
				il_setf(err, len, "line %d: %s", line, why);
				goto fail;
			}
			r->n = 0;
			for (int c = 0; c < ncol; c++) {
				thr_of[c] = -1;
				if (thr_cpu[c] < 0)
					continue;
				for (int t = 0; t < r->n; t++)
					if (r->cpu[t].cpu == thr_cpu[c]) {
						il_setf(err, len,
							"line %d: Thr-%03d "
							"twice",
							line, thr_cpu[c]);
						goto fail;
					}
				if (r->n == IL_PROBE_MAX_CPUS) {
					il_setf(err, len,
						"line %d: more than %d "
						"threads",
						line, IL_PROBE_MAX_CPUS);
					goto fail;
				}
				thr_of[c] = r->n;
				r->cpu[r->n++].cpu = thr_cpu[c];
			}
			continue;
		}
		for (k = 0; k < 5; k++)
			if (!strncmp(p, sums[k], strlen(sums[k])))
				break;
		if (k == 5 && !isdigit((unsigned char)*p))
			/* rtla's other words (a newer one's "ALL:"
			 * summary, its notes on missed events) */
			continue;
		if (ncol < 0) {
			il_setf(err, len,
				"line %d: figures before the 'Index' line "
				"(rtla timerlat hist prints it first, unless "
				"--no-header or --no-index)",
				line);
			goto fail;
		}
		if (k < 5) {
			if (nsum[k]) {
				il_setf(err, len, "line %d: a second '%s' line",
					line, sums[k]);
				goto fail;
			}
			n = numbers(p + strlen(sums[k]), sum[k], TL_COLS,
				    k >= 2, &bad);
			if (bad || n != ncol) {
				il_setf(err, len,
					"line %d: '%s' does not give one "
					"figure per column (%d)",
					line, sums[k], ncol);
				goto fail;
			}
			nsum[k] = n;
			continue;
		}
		if (nsum[0] || nsum[1]) {
			il_setf(err, len,
				"line %d: a histogram line after the summary",
				line);
			goto fail;
		}
		n = numbers(p, v, TL_COLS + 1, false, &bad);
		if (bad || n != ncol + 1) {
			il_setf(err, len,
				"line %d: not a histogram line (the bucket, "
				"then one count per column: %d)",
				line, ncol);
			goto fail;
		}
		for (int c = 0; c < ncol; c++)
			if (thr_of[c] >= 0 &&
			    add_us(&r->cpu[thr_of[c]].h, v[0], v[c + 1])) {
				il_setf(err, len, "line %d: counts overflow",
					line);
				goto fail;
			}
	}
	if (ns_unit) {
		il_setf(err, len,
			"its figures are in nanoseconds (rtla's -n); invlab "
			"reads microseconds");
		goto fail;
	}
	if (ncol < 0 || !r->n) {
		il_setf(err, len,
			ncol < 0 ? "no 'Index' line: not rtla timerlat hist's "
				   "output"
				 : "no Thr-N column (rtla's --no-thread?)");
		goto fail;
	}
	for (int k = 0; k < 5; k++)
		if (nsum[k] != ncol) {
			il_setf(err, len, "no '%s' line", sums[k]);
			goto fail;
		}
	for (int c = 0; c < ncol; c++) {
		int t = thr_of[c];
		struct il_probe_cpu *pc;
		uint64_t cnt = sum[1][c];
		int nnone;

		if (t < 0)
			continue;
		pc = &r->cpu[t];
		nnone = (sum[2][c] == TL_NONE) + (sum[3][c] == TL_NONE) +
			(sum[4][c] == TL_NONE);
		if (cnt ? nnone != 0 : nnone != 3) {
			il_setf(err, len,
				"Thr-%03d: count %" PRIu64 " but min, avg "
				"and max %s",
				pc->cpu, cnt, cnt ? "missing" : "given");
			goto fail;
		}
		if (cnt < sum[0][c] || pc->h.count != cnt - sum[0][c]) {
			il_setf(err, len,
				"Thr-%03d: its histogram holds %" PRIu64
				" samples and %" PRIu64
				" are over it, but count says %" PRIu64,
				pc->cpu, pc->h.count, sum[0][c], cnt);
			goto fail;
		}
		if (!cnt)
			continue;
		if (finish(pc, t, cnt, sum[2][c], sum[4][c], (double)sum[3][c],
			   err, len))
			goto fail;
	}
	end(r);
	return 0;
fail:
	begin(r);
	return -EINVAL;
}
