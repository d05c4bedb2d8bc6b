// SPDX-License-Identifier: MIT
/*
 * invlab-gate: pass or fail a kernel on its results, against a profile of
 * thresholds, for lab CI.
 *
 *   invlab-gate --profile docs/gate-example.ini results.json
 *   invlab-gate -p lab.ini --baseline last-good.json --junit gate.xml \
 *       run-*.json
 *
 * The profile is an INI file: one [PROGRAM/CONFIGURATION] section per
 * configuration ('*' and other shell wildcards allowed), holding checks:
 *
 *   undecided = fail                # pass, fail or skip; global or per
 *   [pi-classic/inherit]            # section
 *   verdict = PASS                  # every run's, or "expected"
 *   blocked_ns.p99 <= 3ms           # of the merged histogram
 *   blocked_ns.p99 regression <= 5% # against --baseline, if significant
 *
 * Runs of the same configuration are merged bin by bin across the files
 * (or judged file by file with --per-file).  A percentile limit is
 * checked against the bucket edge on the safe side, so a pass never rests
 * on the histogram's rounding.  A check that cannot be decided (too few
 * samples for a p999, an UNDECIDED run, a regression over the limit that
 * the significance test calls noise) is UNDECIDED and the profile's
 * policy says what that counts as, through the one expectation rule
 * (expect.h), as the verdict checks are.  The profile is read by the INI
 * reader job files use (lib/util/ini.c) and checked whole before anything is
 * judged; its errors name FILE:LINE.
 *
 * A section that no results match, or a histogram none of its runs has,
 * is a mistake in the profile (a typo would turn its checks off): exit 2
 * with the closest name in the results, unless --missing=skip or fail
 * says that this profile covers more than these results.  A regression
 * check without --baseline has no data: skipped, or failed with
 * --missing=fail.
 *
 * Exit: 0 every check passed, 1 one failed, 2 bad usage or profile (or
 * one that does not fit the results), or a missing result file, 77 no
 * results for any check, 99 a result file cannot be read or the JUnit
 * file cannot be written.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <invlab/ini.h>
#include <invlab/opt.h>
#include <invlab/report.h>
#include <invlab/strbuf.h>
#include <invlab/time.h>

#include "args.h"
#include "escape.h"
#include "format.h"
#include "results.h"
#include "stats.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- options --------------------------------------------------------- */

enum policy { POL_FAIL, POL_PASS, POL_SKIP, POL_UNSET };
static const char *const policy_names[] = { "fail", "pass", "skip" };

enum missing { M_SKIP, M_FAIL, M_ERROR };

struct cfg {
	int help;
	int version;
	int quiet;
	const char *profile;
	struct il_strlist baseline;
	const char *junit;
	int per_file;
	int undecided; /* 0: as the profile says, else policy + 1 */
	int missing;   /* 0 skip, 1 fail, 2 error */
	const char *alpha;
	int correction;
	uint64_t max_input;
};

#define O(f) offsetof(struct cfg, f)
static const struct il_opt opts[] = {
	IL_OPT_HELP_ROW(O(help)),
	IL_OPT_VERSION_ROW(O(version)),
	{ .name = "quiet",
	  .short_name = 'q',
	  .type = IL_OPT_FLAG,
	  .offset = O(quiet),
	  .help = "print only the checks that did not pass and the summary "
		  "line" },
	{ .name = "profile",
	  .short_name = 'p',
	  .type = IL_OPT_STRING,
	  .offset = O(profile),
	  .metavar = "FILE",
	  .help = "the INI profile of checks (required)" },
	{ .name = "baseline",
	  .short_name = 'b',
	  .type = IL_OPT_LIST,
	  .offset = O(baseline),
	  .metavar = "FILES",
	  .help = "result file(s) that 'regression' checks compare with; "
		  "repeat the option or separate files with commas" },
	{ .name = "junit",
	  .short_name = 'j',
	  .type = IL_OPT_STRING,
	  .offset = O(junit),
	  .metavar = "FILE",
	  .help = "also write the checks as JUnit XML to FILE ('-' for "
		  "stdout), complete or not at all" },
	{ .name = "per-file",
	  .type = IL_OPT_FLAG,
	  .offset = O(per_file),
	  .help = "judge each result file on its own (one device, one boot) "
		  "instead of merging the runs of all files" },
	{ .name = "undecided",
	  .short_name = 'u',
	  .type = IL_OPT_CHOICE,
	  .offset = O(undecided),
	  .def = "profile",
	  .choices = "profile|fail|pass|skip",
	  .metavar = "POLICY",
	  .help = "what an undecided check counts as; 'profile' keeps the "
		  "profile's undecided= settings (themselves fail by "
		  "default)" },
	{ .name = "missing",
	  .type = IL_OPT_CHOICE,
	  .offset = O(missing),
	  .def = "error",
	  .choices = "skip|fail|error",
	  .metavar = "POLICY",
	  .help = "what a check without data counts as: a profile section that "
		  "no results match (error: a mistake in the profile, exit 2 "
		  "with the closest name; skip or fail it), or a regression "
		  "check without --baseline (skipped unless fail)" },
	IL_RES_OPT_ALPHA(
		O(alpha),
		"significance level of regression checks: an increase "
		"over the limit fails only when its p-value, corrected "
		"over all regression checks of the gate, is below P "
		"(0 < P <= 0.5)"),
	IL_RES_OPT_CORRECTION(
		O(correction),
		"correction over the regression checks tested together, as "
		"invlab-compare's: holm (family-wise), bh "
		"(Benjamini-Hochberg, false discovery rate) or none"),
	IL_RES_OPT_MAX_INPUT(O(max_input)),
	{ .name = NULL },
};
#undef O

static const struct il_opt *const tables[] = { opts, NULL };

/* ---- the profile ----------------------------------------------------- */

enum kind { K_VERDICT, K_LIMIT, K_REGRESSION };
enum op { OP_LE, OP_LT, OP_GE, OP_GT };
static const char *const op_names[] = { "<=", "<", ">=", ">" };
/* verdict = expected: each run's own "expected" */
#define V_EXPECTED IL_VERDICT_N

struct check {
	enum kind kind;
	int line;
	char text[160];	 /* as written, blanks squeezed: the test name */
	char metric[64]; /* "blocked_ns" */
	enum il_res_stat stat;
	enum op op;
	double limit; /* ns, a count, or percent */
	int verdict;  /* enum il_verdict, or V_EXPECTED */
};

struct section {
	char *scenario, *configuration; /* fnmatch patterns */
	int line;
	enum policy undecided; /* POL_UNSET: the global one */
	int undecided_line;
	size_t n;
	struct check *checks;
};

struct profile {
	const char *path;
	enum policy undecided;
	int undecided_line;
	int regression_line; /* first regression check, 0: none */
	size_t n;
	struct section *sections;
};

static void perr(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void perr(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int parse_policy(const char *v, enum policy *p)
{
	for (unsigned i = 0; i < ARRAY_SIZE(policy_names); i++) {
		if (!strcasecmp(v, policy_names[i])) {
			*p = (enum policy)i;
			return 0;
		}
	}
	return -EINVAL;
}

static int parse_verdict(const char *v, int *out)
{
	enum il_verdict vd;

	if (!strcasecmp(v, "expected")) {
		*out = V_EXPECTED;
		return 0;
	}
	if (il_verdict_parse(v, &vd))
		return -EINVAL;
	*out = (int)vd;
	return 0;
}

/* "<=", "<", ">=", ">" at *s; advances past it */
static int parse_op(const char **s, enum op *op)
{
	for (int i = 0; i < 4; i++) {
		size_t n = strlen(op_names[i]);

		if (!strncmp(*s, op_names[i], n)) {
			*op = (enum op)i;
			*s += n;
			return 0;
		}
	}
	return -EINVAL;
}

static bool is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-';
}

/* a check line: METRIC.STAT [regression] OP VALUE */
static int parse_check(int line, const char *s, struct check *c, char *err,
		       size_t len)
{
	const char *p = s, *dot, *v;
	char stat[16], *end;
	size_t n;

	memset(c, 0, sizeof(*c));
	c->line = line;
	while (is_ident(*p) || *p == '.')
		p++;
	n = (size_t)(p - s);
	dot = memchr(s, '.', n);
	if (!dot) {
		perr(err, len,
		     "unknown key '%.*s'; expected verdict = ..., "
		     "undecided = ... or METRIC.STAT OP VALUE (e.g. "
		     "blocked_ns.p99 <= 3ms)",
		     (int)(n ? n : strcspn(s, " \t=<>")), s);
		return -EINVAL;
	}
	if (dot == s || (size_t)(dot - s) >= sizeof(c->metric) ||
	    (size_t)(p - dot - 1) >= sizeof(stat) || p == dot + 1) {
		perr(err, len,
		     "'%.*s' is not METRIC.STAT (e.g. "
		     "blocked_ns.p99)",
		     (int)n, s);
		return -EINVAL;
	}
	memcpy(c->metric, s, (size_t)(dot - s));
	memcpy(stat, dot + 1, (size_t)(p - dot - 1));
	stat[p - dot - 1] = '\0';
	if (il_res_stat_parse(stat, &c->stat)) {
		perr(err, len, "unknown statistic '%s' (known: %s)", stat,
		     il_res_stat_list());
		return -EINVAL;
	}
	while (isspace((unsigned char)*p))
		p++;
	c->kind = K_LIMIT;
	if (!strncmp(p, "regression", 10) && !is_ident(p[10])) {
		c->kind = K_REGRESSION;
		p += 10;
		while (isspace((unsigned char)*p))
			p++;
	}
	if (parse_op(&p, &c->op)) {
		perr(err, len,
		     "expected <=, <, >= or > after '%.*s', "
		     "got '%s'",
		     (int)n, s, p);
		return -EINVAL;
	}
	v = p;
	while (isspace((unsigned char)*v))
		v++;
	if (!*v) {
		perr(err, len, "no value after '%s'", op_names[c->op]);
		return -EINVAL;
	}
	if (c->kind == K_REGRESSION) {
		if (c->op != OP_LE && c->op != OP_LT) {
			perr(err, len,
			     "a regression is limited from "
			     "above: use <= or <");
			return -EINVAL;
		}
		if (c->stat == IL_RES_COUNT) {
			perr(err, len,
			     "a regression of count means "
			     "nothing; use a latency statistic");
			return -EINVAL;
		}
		errno = 0;
		c->limit = strtod(v, &end);
		if (end == v || errno || strcmp(trim(end), "%") ||
		    !(c->limit >= 0 && c->limit <= 1000)) {
			perr(err, len,
			     "'%s' is not a percentage "
			     "between 0%% and 1000%% (e.g. 5%%)",
			     v);
			return -EINVAL;
		}
	} else if (c->stat == IL_RES_COUNT) {
		unsigned long long u;

		errno = 0;
		u = strtoull(v, &end, 10);
		if (end == v || *end || errno || *v == '-') {
			perr(err, len, "'%s' is not a sample count", v);
			return -EINVAL;
		}
		c->limit = (double)u;
	} else {
		uint64_t ns;
		size_t vl = strlen(v);

		/* a bare number could be any unit: say which */
		if (!isalpha((unsigned char)v[vl - 1])) {
			perr(err, len,
			     "'%s' needs a unit (ns, us, ms, "
			     "s), e.g. 3ms",
			     v);
			return -EINVAL;
		}
		if (il_parse_duration(v, 1, &ns)) {
			perr(err, len,
			     "'%s' is not a duration (e.g. "
			     "500us, 3ms, 1.5s)",
			     v);
			return -EINVAL;
		}
		c->limit = (double)ns;
	}
	/* the name shown in reports: the line, blanks squeezed */
	snprintf(c->text, sizeof(c->text), "%s.%s%s %s %s", c->metric,
		 il_res_stat_name(c->stat),
		 c->kind == K_REGRESSION ? " regression" : "", op_names[c->op],
		 v);
	return 0;
}

static void free_profile(struct profile *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->sections[i].scenario);
		free(p->sections[i].configuration);
		free(p->sections[i].checks);
	}
	free(p->sections);
	memset(p, 0, sizeof(*p));
}

static int add_section(struct profile *p, const char *name, int line)
{
	const char *slash = strrchr(name, '/');
	struct section *ns, *s;

	ns = realloc(p->sections, (p->n + 1) * sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	p->sections = ns;
	s = &ns[p->n];
	memset(s, 0, sizeof(*s));
	s->scenario = strndup(name, (size_t)(slash - name));
	s->configuration = strdup(slash + 1);
	s->line = line;
	s->undecided = POL_UNSET;
	if (!s->scenario || !s->configuration) {
		free(s->scenario);
		free(s->configuration);
		return -ENOMEM;
	}
	p->n++;
	return 0;
}

static int add_check(struct section *s, const struct check *c)
{
	struct check *nc = realloc(s->checks, (s->n + 1) * sizeof(*nc));

	if (!nc)
		return -ENOMEM;
	s->checks = nc;
	nc[s->n++] = *c;
	return 0;
}

/* [PROGRAM/CONFIGURATION]; the reader prefixes errors with FILE:LINE */
static int on_section(void *ctx, const struct il_ini_at *at, char *name,
		      char *after, char *err, size_t len)
{
	struct profile *p = ctx;
	char *slash;

	if (!name || *after) {
		perr(err, len,
		     "a section header is one [PROGRAM/CONFIGURATION] on its "
		     "own line");
		return -EINVAL;
	}
	slash = strrchr(name, '/');
	if (!slash || slash == name || !slash[1]) {
		perr(err, len,
		     "section '[%s]' is not [PROGRAM/CONFIGURATION] (e.g. "
		     "[pi-classic/inherit], [pi-classic/*])",
		     name);
		return -EINVAL;
	}
	return add_section(p, name, at->line);
}

/*
 * key = value (verdict, undecided), or a check, METRIC.STAT OP VALUE: an
 * '=' after '<' or '>' is part of the operator (the reader then gives the
 * whole line as key), and a line starting with '=' is no key = value.
 */
static int on_key(void *ctx, const struct il_ini_at *at, char *key, char *val,
		  char *err, size_t len)
{
	struct profile *p = ctx;
	struct section *cur = p->n ? &p->sections[p->n - 1] : NULL;
	int line = at->line, ret;
	struct check c;

	if (val && *key && !strcmp(key, "undecided")) {
		enum policy pol;

		if (parse_policy(val, &pol)) {
			perr(err, len,
			     "undecided must be fail, pass or skip, not '%s'",
			     val);
			return -EINVAL;
		}
		if (cur) {
			cur->undecided = pol;
			cur->undecided_line = line;
		} else {
			p->undecided = pol;
			p->undecided_line = line;
		}
		return 0;
	}
	if (val && *key && !strcmp(key, "verdict")) {
		memset(&c, 0, sizeof(c));
		c.kind = K_VERDICT;
		c.line = line;
		if (parse_verdict(val, &c.verdict)) {
			perr(err, len,
			     "verdict must be PASS, FAIL, UNDECIDED, SKIP or "
			     "expected, not '%s'",
			     val);
			return -EINVAL;
		}
		snprintf(c.text, sizeof(c.text), "verdict = %s", val);
	} else if (val && *key && strchr(key, '.')) {
		perr(err, len, "'%s = %s': a limit needs <=, <, >= or >", key,
		     val);
		return -EINVAL;
	} else if (val && *key) {
		perr(err, len,
		     "unknown key '%s'; known keys are verdict and undecided, "
		     "and checks are METRIC.STAT OP VALUE",
		     key);
		return -EINVAL;
	} else {
		ret = parse_check(line, at->text, &c, err, len);
		if (ret)
			return ret;
		if (c.kind == K_REGRESSION && !p->regression_line)
			p->regression_line = line;
	}
	if (!cur) {
		perr(err, len,
		     "'%s' is outside a section: put it under "
		     "[PROGRAM/CONFIGURATION]",
		     c.text);
		return -EINVAL;
	}
	return add_check(cur, &c);
}

static int parse_profile(const char *path, uint64_t max, struct profile *p,
			 char *err, size_t len)
{
	static const struct il_ini_ops ops = {
		.section = on_section,
		.key = on_key,
		.op_chars = "<>",
	};
	size_t nchecks = 0;
	int ret;

	memset(p, 0, sizeof(*p));
	p->path = path;
	p->undecided = POL_FAIL;
	ret = il_ini_load(path, max, &ops, p, err, len);
	if (ret == -EFBIG)
		il_appendf(err, len, " (--max-input-size)");
	for (size_t i = 0; !ret && i < p->n; i++)
		nchecks += p->sections[i].n;
	if (!ret && !nchecks) {
		perr(err, len,
		     "%s: no checks: add a [PROGRAM/CONFIGURATION] "
		     "section with e.g. 'verdict = PASS'",
		     path);
		ret = -EINVAL;
	}
	if (ret)
		free_profile(p);
	return ret;
}

/* ---- judging ---------------------------------------------------------- */

enum outcome { R_PASS, R_FAIL, R_UNDECIDED, R_NODATA, R_ERROR, R_SKIPPED };
/* after the policy: what is reported */
enum status { S_PASS, S_FAIL, S_SKIP, S_ERROR };
static const char *const status_names[] = { "PASS", "FAIL", "SKIP", "ERROR" };

struct result {
	const struct section *sec;
	const struct check *chk;
	const struct il_res_group *g; /* NULL: no results matched */
	enum outcome outcome;
	enum status status;
	char value[64];
	char detail[256];
	/* a regression over its limit, decided after the correction */
	bool deferred;
	struct il_res_cmp cmp;
};

struct gate {
	const struct cfg *cfg;
	struct profile prof;
	struct il_res_set res, base;
	bool have_base;
	double alpha;
	enum il_res_correction correction;
	struct result *r;
	size_t n, cap;
	size_t count[4];
	int argc;
	char **argv;
};

static bool cmp_op(double v, enum op op, double limit)
{
	switch (op) {
	case OP_LE:
		return v <= limit;
	case OP_LT:
		return v < limit;
	case OP_GE:
		return v >= limit;
	case OP_GT:
		return v > limit;
	}
	return false;
}

static void fmt_value(char *buf, size_t len, enum il_res_stat st, double v)
{
	if (st == IL_RES_COUNT)
		snprintf(buf, len, "%.0f", v);
	else
		il_res_fmt_ns(buf, len, v);
}

/*
 * What a run with verdict got means for `verdict = want`: the one
 * expectation rule, as if every run had expected want.  The rule reads a
 * SKIP as "could not run", so `verdict = SKIP` asks for SKIP itself.
 */
static enum il_outcome outcome_for(enum il_verdict got, enum il_verdict want)
{
	if (want == IL_SKIP)
		return got == IL_SKIP ? IL_OUT_AS_EXPECTED
				      : IL_OUT_NOT_AS_EXPECTED;
	return il_expect(got, want);
}

static void judge_verdict(const struct il_res_group *g, const struct check *c,
			  struct result *r)
{
	size_t out[IL_OUT_N] = { 0 }, bad, ok;
	size_t used = 0;
	const char *want;

	for (int i = 0; i < IL_VERDICT_N; i++) {
		if (!g->verdicts[i])
			continue;
		used += (size_t)snprintf(
			r->value + used, sizeof(r->value) - used, "%s%zu %s",
			used ? ", " : "", g->verdicts[i],
			i == IL_NONE ? "without verdict"
				     : il_verdict_name((enum il_verdict)i));
		if (used >= sizeof(r->value))
			break;
	}
	if (c->verdict == V_EXPECTED) {
		memcpy(out, g->outcomes, sizeof(out));
		want = "as expected";
	} else {
		for (int i = 0; i < IL_VERDICT_N; i++)
			out[outcome_for((enum il_verdict)i,
					(enum il_verdict)c->verdict)] +=
				g->verdicts[i];
		want = il_verdict_name((enum il_verdict)c->verdict);
	}
	/* NONE never counts as anything but a failure */
	bad = out[IL_OUT_NONE] + out[IL_OUT_NOT_AS_EXPECTED];
	ok = out[IL_OUT_AS_EXPECTED] + out[IL_OUT_INFO];
	if (bad) {
		r->outcome = R_FAIL;
		snprintf(r->detail, sizeof(r->detail), "%zu of %zu runs not %s",
			 bad, g->nruns, want);
	} else if (out[IL_OUT_UNDECIDED]) {
		r->outcome = R_UNDECIDED;
		snprintf(r->detail, sizeof(r->detail),
			 "%zu of %zu runs UNDECIDED", out[IL_OUT_UNDECIDED],
			 g->nruns);
	} else if (!ok) {
		/* every run could not run here: nothing was judged */
		r->outcome = R_SKIPPED;
		snprintf(r->detail, sizeof(r->detail), "%zu of %zu runs SKIP",
			 out[IL_OUT_SKIP], g->nruns);
	} else {
		r->outcome = R_PASS;
	}
}

/*
 * The value a limit is checked against: percentiles at the edge of their
 * bucket on the safe side (the top for <=, the bottom for >=), so the
 * histogram's rounding can only make a check stricter.
 */
static int gate_value(const struct il_hist *h, enum il_res_stat st, enum op op,
		      double *v)
{
	int ret = il_res_stat_value(h, st, true, v);

	if (ret || !il_res_stat_quantile(st) || op == OP_LE || op == OP_LT)
		return ret;
	*v = (double)il_hist_bucket_lo(il_hist_index((uint64_t)*v));
	if (*v < (double)h->min)
		*v = (double)h->min;
	return 0;
}

/*
 * Every run of g was skipped (a protocol this C library lacks, a missing
 * privilege): it measured nothing, so it has no histograms, and a limit
 * on one is a SKIP, not a mistake in the profile.
 */
static bool all_skipped(const struct il_res_group *g)
{
	return g->nruns && g->outcomes[IL_OUT_SKIP] == g->nruns;
}

/* no histogram c->metric in g: a skip when g measured nothing, else an
 * error */
static void no_metric(const struct il_res_group *g, const struct check *c,
		      struct result *r)
{
	snprintf(r->value, sizeof(r->value), "-");
	if (all_skipped(g)) {
		r->outcome = R_SKIPPED;
		snprintf(r->detail, sizeof(r->detail),
			 "%zu of %zu runs SKIP: nothing measured", g->nruns,
			 g->nruns);
		return;
	}
	r->outcome = R_ERROR;
	snprintf(r->detail, sizeof(r->detail),
		 "no histogram '%s' in these results", c->metric);
}

static void judge_limit(const struct il_res_group *g, const struct check *c,
			struct result *r)
{
	const struct il_res_metric *m = il_res_group_metric(g, c->metric);
	char lim[32];
	double v;

	if (!m) {
		no_metric(g, c, r);
		return;
	}
	if (gate_value(m->merged, c->stat, c->op, &v)) {
		double q = il_res_stat_quantile(c->stat);

		r->outcome = R_UNDECIDED;
		snprintf(r->value, sizeof(r->value), "n/a");
		if (q > 0 && m->merged->overflow &&
		    il_hist_has_percentile(m->merged, q))
			snprintf(r->detail, sizeof(r->detail),
				 "%s falls among the %llu of %llu samples "
				 "past the histogram's range (overflow), "
				 "whose values are not known",
				 il_res_stat_name(c->stat),
				 (unsigned long long)m->merged->overflow,
				 (unsigned long long)m->merged->count);
		else if (q > 0)
			snprintf(r->detail, sizeof(r->detail),
				 "%s needs %.0f samples, %llu merged from %zu "
				 "run(s)",
				 il_res_stat_name(c->stat),
				 ceil(1 / (1 - q) - 1e-6),
				 (unsigned long long)m->merged->count,
				 m->nruns);
		else
			snprintf(r->detail, sizeof(r->detail), "no samples");
		return;
	}
	fmt_value(r->value, sizeof(r->value), c->stat, v);
	fmt_value(lim, sizeof(lim), c->stat, c->limit);
	if (cmp_op(v, c->op, c->limit)) {
		r->outcome = R_PASS;
	} else {
		r->outcome = R_FAIL;
		snprintf(r->detail, sizeof(r->detail), "%s is not %s %s",
			 r->value, op_names[c->op], lim);
	}
}

static void judge_regression(const struct gate *gt,
			     const struct il_res_group *g,
			     const struct check *c, struct result *r)
{
	const struct il_res_group *bg;
	const struct il_res_metric *m, *bm;
	struct il_res_cmp_opts o = { .mode = IL_RES_TEST_AUTO,
				     .alpha = gt->alpha,
				     .correction = gt->correction };
	struct il_res_cmp *cmp;
	double reg;
	char vb[24], vc[24];

	m = il_res_group_metric(g, c->metric);
	if (!m) {
		no_metric(g, c, r);
		return;
	}
	if (!gt->have_base) {
		r->outcome = R_NODATA;
		snprintf(r->value, sizeof(r->value), "-");
		snprintf(r->detail, sizeof(r->detail), "no --baseline given");
		return;
	}
	bg = il_res_set_find(&gt->base, g->scenario, g->configuration, 0);
	bm = bg ? il_res_group_metric(bg, c->metric) : NULL;
	if (!bm) {
		r->outcome = R_UNDECIDED;
		snprintf(r->value, sizeof(r->value), "n/a");
		snprintf(r->detail, sizeof(r->detail),
			 "the baseline has no %s for %s/%s", c->metric,
			 g->scenario, g->configuration);
		return;
	}
	il_res_compare(bm, m, c->stat, &o, &r->cmp);
	cmp = &r->cmp;
	if (isnan(cmp->base) || isnan(cmp->cand) || isnan(cmp->pct_imp)) {
		r->outcome = R_UNDECIDED;
		snprintf(r->value, sizeof(r->value), "n/a");
		snprintf(r->detail, sizeof(r->detail),
			 "%s: baseline %s, candidate %s",
			 il_res_stat_name(c->stat),
			 il_res_fmt_ns(vb, sizeof(vb), cmp->base),
			 il_res_fmt_ns(vc, sizeof(vc), cmp->cand));
		return;
	}
	reg = -cmp->pct_imp;
	snprintf(r->value, sizeof(r->value), "%+.1f%%", reg + 0.0);
	if (cmp_op(reg, c->op, c->limit)) {
		r->outcome = R_PASS;
		snprintf(r->detail, sizeof(r->detail), "%s -> %s",
			 il_res_fmt_ns(vb, sizeof(vb), cmp->base),
			 il_res_fmt_ns(vc, sizeof(vc), cmp->cand));
		return;
	}
	/* over the limit: significant or not, once every check is tested */
	r->outcome = R_UNDECIDED;
	r->deferred = true;
}

/*
 * The regression checks over their limits, decided together: every
 * regression check that ran a test is one of the family the correction
 * counts (those within their limits too: they were tested as well).
 * Over the limit and significant after the correction fails; over the
 * limit but not significant is UNDECIDED.
 */
static int settle_regressions(struct gate *gt)
{
	struct il_res_cmp **v = calloc(gt->n + 1, sizeof(*v));
	struct il_res_cmp_opts o = { .mode = IL_RES_TEST_AUTO,
				     .alpha = gt->alpha,
				     .correction = gt->correction };
	size_t n = 0;
	char vb[24], vc[24], p[96];

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < gt->n; i++)
		if (gt->r[i].chk->kind == K_REGRESSION && gt->r[i].g &&
		    gt->r[i].cmp.test != IL_RES_T_NONE)
			v[n++] = &gt->r[i].cmp;
	if (il_res_decide_family(v, n, &o) < 0) {
		free(v);
		return -ENOMEM;
	}
	free(v);
	for (size_t i = 0; i < gt->n; i++) {
		struct result *r = &gt->r[i];
		const struct il_res_cmp *cmp = &r->cmp;
		double reg = -cmp->pct_imp;

		if (r->chk->kind != K_REGRESSION || !r->g)
			continue;
		if (cmp->test == IL_RES_T_NONE)
			snprintf(p, sizeof(p), "too few runs");
		else if (gt->correction == IL_RES_CORR_NONE)
			snprintf(p, sizeof(p), "p=%.3g, uncorrected, %s",
				 cmp->p, il_res_test_name(cmp->test));
		else
			snprintf(p, sizeof(p), "p=%.3g, %s-adjusted %.3g, %s",
				 cmp->p, il_res_correction_name(gt->correction),
				 cmp->p_adj, il_res_test_name(cmp->test));
		il_res_fmt_ns(vb, sizeof(vb), cmp->base);
		il_res_fmt_ns(vc, sizeof(vc), cmp->cand);
		if (r->outcome == R_PASS) {
			snprintf(r->detail, sizeof(r->detail), "%s -> %s (%s)",
				 vb, vc, p);
			continue;
		}
		if (!r->deferred)
			continue;
		if (cmp->test != IL_RES_T_NONE && cmp->p_adj < gt->alpha &&
		    cmp->cand != cmp->base) {
			r->outcome = R_FAIL;
			snprintf(r->detail, sizeof(r->detail),
				 "%s -> %s: %+.1f%% is over %g%% (%s)", vb, vc,
				 reg, r->chk->limit, p);
		} else {
			/* over the limit, but the test cannot tell it from
			 * noise */
			r->outcome = R_UNDECIDED;
			snprintf(r->detail, sizeof(r->detail),
				 "%s -> %s: %+.1f%% is over %g%% but not "
				 "significant (%s)",
				 vb, vc, reg, r->chk->limit, p);
		}
	}
	return 0;
}

static enum policy policy_of(const struct gate *gt, const struct section *s)
{
	if (gt->cfg->undecided)
		return (enum policy)(gt->cfg->undecided - 1);
	return s->undecided != POL_UNSET ? s->undecided : gt->prof.undecided;
}

/* the profile's words for the expectation rule's policies */
static enum il_undecided_policy rule_policy(enum policy p)
{
	return p == POL_PASS   ? IL_UNDECIDED_TOLERATE
	       : p == POL_SKIP ? IL_UNDECIDED_SKIPS
			       : IL_UNDECIDED_FAILS;
}

static int add_result(struct gate *gt, const struct section *s,
		      const struct check *c, const struct il_res_group *g)
{
	struct result *r;

	if (gt->n == gt->cap) {
		size_t cap = gt->cap ? 2 * gt->cap : 32;
		struct result *nr = realloc(gt->r, cap * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		gt->r = nr;
		gt->cap = cap;
	}
	r = &gt->r[gt->n++];
	memset(r, 0, sizeof(*r));
	r->sec = s;
	r->chk = c;
	r->g = g;
	if (!g) {
		r->outcome = R_NODATA;
		snprintf(r->value, sizeof(r->value), "-");
		snprintf(r->detail, sizeof(r->detail), "no results for [%s/%s]",
			 s->scenario, s->configuration);
	} else if (c->kind == K_VERDICT) {
		judge_verdict(g, c, r);
	} else if (c->kind == K_LIMIT) {
		judge_limit(g, c, r);
	} else {
		judge_regression(gt, g, c, r);
	}
	return 0;
}

/* after the policy: what one result is reported as */
static void settle_status(struct gate *gt, struct result *r)
{
	const struct section *s = r->sec;

	switch (r->outcome) {
	case R_PASS:
		r->status = S_PASS;
		break;
	case R_FAIL:
		r->status = S_FAIL;
		break;
	case R_ERROR:
		r->status = S_ERROR;
		break;
	case R_NODATA:
		r->status = gt->cfg->missing == M_FAIL ? S_FAIL : S_SKIP;
		break;
	case R_SKIPPED:
		r->status = S_SKIP;
		break;
	case R_UNDECIDED: {
		enum policy pol = policy_of(gt, s);
		size_t used = strlen(r->detail);

		/* an UNDECIDED where PASS was wanted, under the policy */
		r->status =
			il_outcome_fails(IL_OUT_UNDECIDED, rule_policy(pol))
				? S_FAIL
			: il_outcome_skips(IL_OUT_UNDECIDED, rule_policy(pol))
				? S_SKIP
				: S_PASS;
		snprintf(r->detail + used, sizeof(r->detail) - used,
			 "%sundecided: counted as %s", used ? "; " : "",
			 policy_names[pol]);
		break;
	}
	}
	gt->count[r->status]++;
}

/*
 * A profile that does not fit the results is a mistake in the profile,
 * not a run without data: a section that matches no configuration of the
 * results ([pi-clasic/inherit]), or a histogram that none of a section's
 * configurations has (blokced_ns), would otherwise turn its checks off
 * in silence (NO DATA, exit 77, which a lab reads as SKIP).  0, or -EINVAL
 * with "FILE:LINE: ..." and the closest name in err; -ENOMEM.
 */
static int profile_fits(const struct gate *gt, char *err, size_t len)
{
	const struct il_res_set *rs = &gt->res;
	size_t ng = rs->ngroups, cap = ng + 1;
	const char **names;
	int ret = 0;

	for (size_t k = 0; k < ng; k++)
		cap += rs->groups[k].nmetrics;
	names = calloc(cap, sizeof(*names));

	if (!names)
		return -ENOMEM;
	for (size_t i = 0; i < gt->prof.n && !ret; i++) {
		const struct section *s = &gt->prof.sections[i];
		const char *sc = NULL, *cf = NULL;
		size_t n = 0, hits = 0;

		for (size_t k = 0; k < ng; k++)
			if (!fnmatch(s->scenario, rs->groups[k].scenario, 0) &&
			    !fnmatch(s->configuration,
				     rs->groups[k].configuration, 0))
				hits++;
		if (!hits) {
			/* the program first, then its configurations */
			for (size_t k = 0; k < ng; k++)
				if (!fnmatch(s->scenario,
					     rs->groups[k].scenario, 0))
					sc = s->scenario;
			for (size_t k = 0; !sc && k < ng; k++)
				names[n++] = rs->groups[k].scenario;
			if (!sc)
				sc = il_suggest(s->scenario, names, n);
			n = 0;
			for (size_t k = 0; sc && k < ng; k++)
				if (!fnmatch(sc, rs->groups[k].scenario, 0))
					names[n++] =
						rs->groups[k].configuration;
			for (size_t k = 0; sc && !cf && k < n; k++)
				if (!fnmatch(s->configuration, names[k], 0))
					cf = s->configuration;
			if (sc && !cf)
				cf = il_suggest(s->configuration, names, n);
			if (sc && cf)
				perr(err, len,
				     "%s:%d: [%s/%s] matches nothing in the "
				     "results; did you mean %s/%s?",
				     gt->prof.path, s->line, s->scenario,
				     s->configuration, sc, cf);
			else
				perr(err, len,
				     "%s:%d: [%s/%s] matches nothing in the "
				     "results (they have %s/%s%s)",
				     gt->prof.path, s->line, s->scenario,
				     s->configuration,
				     ng ? rs->groups[0].scenario : "no runs",
				     ng ? rs->groups[0].configuration : "",
				     ng > 1 ? ", ..." : "");
			ret = -EINVAL;
			break;
		}
		for (size_t c = 0; c < s->n && !ret; c++) {
			const struct check *ck = &s->checks[c];
			const char *sug;
			bool found = false;

			if (ck->kind == K_VERDICT)
				continue;
			n = 0;
			for (size_t k = 0; k < ng && !found; k++) {
				const struct il_res_group *g = &rs->groups[k];

				if (fnmatch(s->scenario, g->scenario, 0) ||
				    fnmatch(s->configuration, g->configuration,
					    0))
					continue;
				if (il_res_group_metric(g, ck->metric) ||
				    all_skipped(g))
					found = true;
				for (size_t m = 0; m < g->nmetrics && n < cap;
				     m++)
					names[n++] = g->metrics[m].name;
			}
			if (found)
				continue;
			sug = il_suggest(ck->metric, names, n);
			perr(err, len,
			     "%s:%d: no histogram '%s' in the runs [%s/%s] "
			     "matches%s%s%s",
			     gt->prof.path, ck->line, ck->metric, s->scenario,
			     s->configuration, sug ? "; did you mean '" : "",
			     sug ? sug : "", sug ? "'?" : "");
			ret = -EINVAL;
		}
	}
	free(names);
	return ret;
}

/*
 * Configuration by configuration (in the order the results have them),
 * every matching section's checks in profile order; then the sections
 * that matched nothing.  A JUnit testsuite is then one configuration.
 */
static int judge(struct gate *gt)
{
	bool *matched = calloc(gt->prof.n + 1, sizeof(*matched));

	if (!matched)
		return -ENOMEM;
	for (size_t k = 0; k < gt->res.ngroups; k++) {
		const struct il_res_group *g = &gt->res.groups[k];

		for (size_t i = 0; i < gt->prof.n; i++) {
			const struct section *s = &gt->prof.sections[i];

			if (fnmatch(s->scenario, g->scenario, 0) ||
			    fnmatch(s->configuration, g->configuration, 0))
				continue;
			matched[i] = true;
			for (size_t c = 0; c < s->n; c++)
				if (add_result(gt, s, &s->checks[c], g))
					goto nomem;
		}
	}
	for (size_t i = 0; i < gt->prof.n; i++) {
		const struct section *s = &gt->prof.sections[i];

		for (size_t c = 0; !matched[i] && c < s->n; c++)
			if (add_result(gt, s, &s->checks[c], NULL))
				goto nomem;
	}
	free(matched);
	/* the regression checks together, then every result's status */
	if (settle_regressions(gt))
		return -ENOMEM;
	for (size_t i = 0; i < gt->n; i++)
		settle_status(gt, &gt->r[i]);
	return 0;
nomem:
	free(matched);
	return -ENOMEM;
}

/* ---- reports ---------------------------------------------------------- */

static void group_label(const struct gate *gt, const struct result *r,
			char *buf, size_t len)
{
	if (!r->g)
		snprintf(buf, len, "%s/%s", r->sec->scenario,
			 r->sec->configuration);
	else if (gt->res.per_file)
		snprintf(buf, len, "%s: %s/%s", gt->res.files[r->g->file].path,
			 r->g->scenario, r->g->configuration);
	else
		snprintf(buf, len, "%s/%s", r->g->scenario,
			 r->g->configuration);
}

static const char *overall(int rc)
{
	return rc == 0 ? "PASS" : rc == 1 ? "FAIL" : "NO DATA";
}

static void print_text(FILE *f, const struct gate *gt, int rc)
{
	struct il_table t;
	char label[600];
	int nf;
	const char *rel = il_res_set_fp(&gt->res, IL_RES_FP_RELEASE, &nf);
	enum policy pol = gt->cfg->undecided
				  ? (enum policy)(gt->cfg->undecided - 1)
				  : gt->prof.undecided;

	if (!gt->cfg->quiet)
		fprintf(f,
			"invlab-gate: profile %s, %zu result file%s, "
			"kernel %s; undecided counts as %s%s\n",
			gt->prof.path, gt->res.nfiles,
			gt->res.nfiles == 1 ? "" : "s",
			nf > 1 ? "(several)" : rel, policy_names[pol],
			gt->cfg->undecided	  ? " (--undecided)"
			: gt->prof.undecided_line ? ""
						  : " (default)");
	il_table_init(&t);
	il_table_col(&t, "configuration", false);
	il_table_col(&t, "check", false);
	il_table_col(&t, "value", true);
	il_table_col(&t, "result", false);
	il_table_col(&t, "detail", false);
	for (size_t i = 0; i < gt->n; i++) {
		const struct result *r = &gt->r[i];

		if (gt->cfg->quiet && r->status == S_PASS)
			continue;
		group_label(gt, r, label, sizeof(label));
		il_table_cell(&t, "%s", label);
		il_table_cell(&t, "%s", r->chk->text);
		il_table_cell(&t, "%s", r->value);
		il_table_cell(&t, "%s", status_names[r->status]);
		il_table_cell(&t, "%s", r->detail);
	}
	if (t.nrows)
		il_table_print(&t, f);
	il_table_free(&t);
	fprintf(f,
		"invlab-gate: %s: %zu passed, %zu failed, %zu errors, %zu "
		"skipped\n",
		overall(rc), gt->count[S_PASS], gt->count[S_FAIL],
		gt->count[S_ERROR], gt->count[S_SKIP]);
}

static int write_junit(FILE *f, const struct gate *gt)
{
	char label[600];
	size_t i = 0;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f,
		"<testsuites name=\"invlab-gate\" tests=\"%zu\" "
		"failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"0\">\n",
		gt->n, gt->count[S_FAIL], gt->count[S_ERROR],
		gt->count[S_SKIP]);
	/*
	 * One testsuite per configuration (judge() keeps its results
	 * together), and one per section that matched nothing.
	 */
	while (i < gt->n) {
		size_t j = i, cnt[4] = { 0 };

		while (j < gt->n && gt->r[j].g == gt->r[i].g &&
		       (gt->r[i].g || gt->r[j].sec == gt->r[i].sec))
			cnt[gt->r[j++].status]++;
		group_label(gt, &gt->r[i], label, sizeof(label));
		fputs("  <testsuite name=\"", f);
		il_res_xml_escape(f, label);
		fprintf(f,
			"\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
			"skipped=\"%zu\" time=\"0\">\n",
			j - i, cnt[S_FAIL], cnt[S_ERROR], cnt[S_SKIP]);
		fputs("    <properties>\n      <property name=\"profile\" "
		      "value=\"",
		      f);
		il_res_xml_escape(f, gt->prof.path);
		fputs("\"/>\n", f);
		for (int k = 0; k < IL_RES_FP_N; k++) {
			int n;
			const char *v = il_res_set_fp(&gt->res, k, &n);

			if (gt->res.per_file && gt->r[i].g)
				v = gt->res.files[gt->r[i].g->file].fp[k];
			fprintf(f,
				"      <property name=\"kernel.%s\" value=\"",
				il_res_fp_key(k));
			il_res_xml_escape(f, v);
			fputs("\"/>\n", f);
		}
		fputs("    </properties>\n", f);
		for (size_t k = i; k < j; k++) {
			const struct result *r = &gt->r[k];

			fputs("    <testcase name=\"", f);
			il_res_xml_escape(f, r->chk->text);
			fputs("\" classname=\"", f);
			il_res_xml_escape(f, label);
			fprintf(f, "\" time=\"0\">\n");
			if (r->status == S_FAIL || r->status == S_ERROR ||
			    r->status == S_SKIP) {
				const char *tag =
					r->status == S_FAIL    ? "failure"
					: r->status == S_ERROR ? "error"
							       : "skipped";

				fprintf(f, "      <%s message=\"", tag);
				il_res_xml_escape(f, r->detail);
				fprintf(f, "\"");
				if (r->status != S_SKIP)
					fprintf(f, " type=\"%s\"",
						r->outcome == R_UNDECIDED
							? "undecided"
						: r->outcome == R_NODATA
							? "no-data"
						: r->chk->kind == K_VERDICT
							? "verdict"
						: r->chk->kind == K_LIMIT
							? "limit"
							: "regression");
				fputs("/>\n", f);
			}
			fputs("      <system-out>", f);
			il_res_xml_escape(f, "value ");
			il_res_xml_escape(f, r->value);
			if (r->detail[0]) {
				fputs("; ", f);
				il_res_xml_escape(f, r->detail);
			}
			fprintf(f, "; profile line %d</system-out>\n",
				r->chk->line);
			fputs("    </testcase>\n", f);
		}
		fputs("  </testsuite>\n", f);
		i = j;
	}
	fputs("</testsuites>\n", f);
	return ferror(f) ? -EIO : 0;
}

/* ---- main --------------------------------------------------------------- */

/* every --baseline, each a file or a comma-separated list of them */
static int load_baseline(struct il_res_set *s, const struct il_strlist *l)
{
	char err[1024];

	for (int i = 0; i < l->n; i++) {
		char *copy = strdup(l->v[i]), *save = NULL;

		if (!copy)
			return -ENOMEM;
		for (char *p = strtok_r(copy, ",", &save); p;
		     p = strtok_r(NULL, ",", &save)) {
			int ret = il_res_set_load(s, p, err, sizeof(err));

			if (ret) {
				fprintf(stderr, "invlab-gate: --baseline: %s\n",
					err);
				free(copy);
				return il_res_load_status(ret);
			}
		}
		free(copy);
	}
	return 0;
}

static void free_gate(struct gate *gt)
{
	free_profile(&gt->prof);
	il_res_set_free(&gt->res);
	il_res_set_free(&gt->base);
	free(gt->r);
}

int main(int argc, char **argv)
{
	static const char usage[] = "--profile FILE [OPTIONS] RESULTS.json...";
	static const char summary[] =
		"Judge invlab result files against a profile of checks (an INI "
		"file with [PROGRAM/CONFIGURATION] sections holding 'verdict = "
		"PASS', 'blocked_ns.p99 <= 3ms', 'blocked_ns.p99 regression <= "
		"5%' and 'undecided = fail|pass|skip'; see "
		"docs/gate-example.ini).  Runs of a configuration are merged "
		"across the files.  Exit status: 0 every check passed, 1 a "
		"check failed, 2 bad usage or profile (FILE:LINE: message), 77 "
		"no results for any check, 99 a result file cannot be read.";
	struct cfg cfg;
	struct gate gt;
	char err[1024];
	int first, rc, ret;

	memset(&cfg, 0, sizeof(cfg));
	memset(&gt, 0, sizeof(gt));
	gt.cfg = &cfg;
	first = il_opt_parse(argc, argv, tables, &cfg, err, sizeof(err));
	if (first < 0) {
		fprintf(stderr, "invlab-gate: %s\nTry 'invlab-gate --help'.\n",
			err);
		return 2;
	}
	if (cfg.help) {
		il_opt_help(stdout, "invlab-gate", usage, summary, tables);
		return 0;
	}
	if (cfg.version) {
		printf("invlab-gate %s (%s)\n", il_version(), il_features());
		return 0;
	}
	/* an output that cannot be written is found before any work */
	if (cfg.junit && il_afile_check(cfg.junit, err, sizeof(err))) {
		fprintf(stderr, "invlab-gate: --junit: %s\n", err);
		return 2;
	}
	if (!cfg.profile) {
		fprintf(stderr, "invlab-gate: --profile FILE is required\n"
				"Try 'invlab-gate --help'.\n");
		return 2;
	}
	if (il_res_parse_alpha(cfg.alpha, &gt.alpha, err, sizeof(err))) {
		fprintf(stderr, "invlab-gate: %s\n", err);
		return 2;
	}
	if (first >= argc) {
		fprintf(stderr, "invlab-gate: no result files given\n"
				"Try 'invlab-gate --help'.\n");
		return 2;
	}
	ret = parse_profile(cfg.profile, cfg.max_input, &gt.prof, err,
			    sizeof(err));
	if (ret) {
		fprintf(stderr, "invlab-gate: %s\n", err);
		return 2;
	}
	/* not an error: one profile serves runs with and without one */
	if (gt.prof.regression_line && !cfg.baseline.n)
		fprintf(stderr,
			"invlab-gate: %s:%d: no --baseline FILE: "
			"regression checks have no data (%s)\n",
			cfg.profile, gt.prof.regression_line,
			cfg.missing == M_FAIL ? "failed, --missing=fail"
					      : "skipped");
	il_res_set_init(&gt.res, cfg.per_file);
	il_res_set_init(&gt.base, false);
	gt.res.max_input = gt.base.max_input = cfg.max_input;
	for (int i = first; i < argc; i++) {
		ret = il_res_set_load(&gt.res, argv[i], err, sizeof(err));
		if (ret) {
			fprintf(stderr, "invlab-gate: %s\n", err);
			free_gate(&gt);
			return il_res_load_status(ret);
		}
	}
	ret = load_baseline(&gt.base, &cfg.baseline);
	if (ret) {
		free_gate(&gt);
		return ret == -ENOMEM ? 99 : ret;
	}
	gt.have_base = cfg.baseline.n > 0;
	gt.correction = (enum il_res_correction)cfg.correction;
	/* a section or a histogram that matches nothing: a profile error */
	if (cfg.missing == M_ERROR) {
		ret = profile_fits(&gt, err, sizeof(err));
		if (ret) {
			fprintf(stderr, "invlab-gate: %s\n",
				ret == -ENOMEM ? "out of memory" : err);
			free_gate(&gt);
			return ret == -ENOMEM ? 99 : 2;
		}
	}
	if (judge(&gt)) {
		fprintf(stderr, "invlab-gate: out of memory\n");
		free_gate(&gt);
		return 99;
	}
	rc = gt.count[S_FAIL] || gt.count[S_ERROR] ? 1
	     : gt.count[S_PASS]			   ? 0
						   : 77;
	/* with the JUnit XML on stdout, the text goes to stderr */
	print_text(cfg.junit && !strcmp(cfg.junit, "-") ? stderr : stdout, &gt,
		   rc);
	if (rc == 77)
		fprintf(stderr,
			"invlab-gate: no data: nothing in the results "
			"matched a check of %s\n",
			cfg.profile);
	if (cfg.junit) {
		struct il_afile af;

		ret = il_afile_open(&af, cfg.junit);
		if (ret) {
			fprintf(stderr,
				"invlab-gate: --junit: cannot create "
				"'%s': %s\n",
				cfg.junit, strerror(-ret));
			free_gate(&gt);
			return 99;
		}
		ret = write_junit(af.f, &gt);
		if (ret)
			il_afile_abort(&af);
		else
			ret = il_afile_commit(&af);
		if (ret) {
			fprintf(stderr,
				"invlab-gate: --junit: cannot write "
				"'%s': %s\n",
				cfg.junit, strerror(-ret));
			free_gate(&gt);
			return 99;
		}
	}
	fflush(stdout);
	free_gate(&gt);
	return rc;
}
