// SPDX-License-Identifier: MIT
/*
 * The one option table: parsing, defaults, range checks, --help and the
 * man page's option list, all from struct il_opt rows.
 *
 * A program declares its settings struct with struct il_common_cfg as its
 * FIRST member, then its own fields:
 *
 *	struct pi_cfg {
 *		struct il_common_cfg common;	<- must come first
 *		uint64_t cs_ns;
 *		...
 *	};
 *	static const struct il_opt pi_opts[] = { ... { .name = NULL } };
 *	static const struct il_opt *const tables[] = {
 *		il_common_opts, pi_opts, NULL
 *	};
 *
 * il_common_opts uses offsetof(struct il_common_cfg, ...), which are only
 * the right offsets into the program's struct when the common part sits
 * at offset 0.
 *
 * The command line is parsed here rather than with getopt_long, for three
 * reasons: there is no global state (optind, opterr), so parsing twice in
 * one process needs no reset (the one exception, the --help=man request,
 * is per thread and reset by every parse of an argv); the errors can name the
 *option and suggest the right one instead of getopt's generic text; and long
 *options must be spelt out, since getopt's unique-prefix matching would
 *silently change meaning when an option is added.  The syntax is getopt_long's
 *otherwise:
 *
 *   --name=value, --name value, -x value, -xvalue, bundled flags -qh,
 *   "--" ends the options, a lone "-" is an operand, and options may
 *   follow operands: argv is permuted (stably) so that the operands come
 *   last, and their first index is returned.  After an error argv may be
 *   partly permuted; the program is expected to stop there anyway.
 *
 * One difference: an option's value is not taken from the next argument
 * when that argument starts with "--" ("--json --tap" is a missing
 * argument, not a file named "--tap").  Negative numbers ("--nice -5")
 * still work.
 *
 * Which options argv named is recorded in the settings struct's common
 * part (il_opt_was_set), so a caller can tell "--duration 3s" from the
 * default 3s.  The record is only kept when il_common_opts is among the
 * tables: that is what guarantees a struct il_common_cfg at offset 0.
 *
 * Range conventions: min == max == 0 means "no range".  Ranges and values
 * are shown exactly, in the largest unit that divides them (100ms, 60m,
 * 64K), so every number in a message can be typed back.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "invlab/hist.h"
#include "invlab/opt.h"
#include "invlab/strbuf.h"
#include "invlab/time.h"
#include "invlab/trace.h"

/* --help layout: help text starts at most at this column, wraps at 79 */
#define HELP_COL_MAX 30
#define HELP_WIDTH   79

#define COMMON(field) offsetof(struct il_common_cfg, field)

/* what --help writes: the text, or what the hidden --help=man and
 * --help=completion ask for; set by the last parse of an argv in this
 * thread */
enum help_form {
	HELP_TEXT,
	HELP_MAN,
	HELP_COMPLETION,
};
static _Thread_local enum help_form help_form;

const struct il_opt il_common_opts[] = {
	{
		.name = "help",
		.short_name = 'h',
		.type = IL_OPT_FLAG,
		.offset = COMMON(help),
		.help = "print this help and exit",
	},
	{
		.name = "version",
		.short_name = 'V',
		.type = IL_OPT_FLAG,
		.offset = COMMON(version),
		.help = "print the version and exit",
	},
	{
		.name = "quiet",
		.short_name = 'q',
		.type = IL_OPT_FLAG,
		.offset = COMMON(quiet),
		.help = "print only the verdict lines",
	},
	{
		.name = "tap",
		.type = IL_OPT_FLAG,
		.offset = COMMON(tap),
		.help = "print results as TAP 13 on stdout",
	},
	{
		.name = "ktap",
		.type = IL_OPT_FLAG,
		.offset = COMMON(ktap),
		.help = "print results as KTAP version 1, the kernel's TAP, on "
			"stdout: a test per check with its verdict, an "
			"UNDECIDED one a SKIP with the reason, the plan after "
			"the version line (stdout is held until the end); not "
			"with --tap (docs/kselftest.md)",
	},
	{
		.name = "exit-status",
		.type = IL_OPT_CHOICE,
		.offset = COMMON(exit_status),
		.def = "invlab",
		.choices = "invlab|kselftest",
		.metavar = "STYLE",
		.help = "invlab: the exit status of docs/exit-status.md; "
			"kselftest: kselftest's, 0 pass, 1 fail, 4 skip (77 "
			"cannot run here, and 3, UNDECIDED, which is not a "
			"pass), 2 bad usage and 99 broken as they are, never "
			"4",
	},
	{
		.name = "json",
		.type = IL_OPT_STRING,
		.offset = COMMON(json),
		.metavar = "FILE",
		.help = "write results as JSON to FILE, atomically; '-' "
			"for stdout, which then carries only the JSON (the "
			"report goes to stderr)",
	},
	{
		.name = "json-pretty",
		.type = IL_OPT_FLAG,
		.offset = COMMON(json_pretty),
		.help = "with --json, indent the JSON, a member a line (the "
			"same data; by default it is compact, on one line, "
			"unless it goes to a terminal)",
	},
	{
		.name = "duration",
		.short_name = 'd',
		.type = IL_OPT_DURATION,
		.offset = COMMON(duration_ns),
		.def = "3s",
		.min = 100 * (int64_t)IL_NSEC_PER_MSEC,
		.max = 3600 * (int64_t)IL_NSEC_PER_SEC,
		.metavar = "TIME",
		.help = "how long each configuration runs: alone, its length; "
			"beside a sample target (--samples, --percentile, a "
			"default run's), the most it runs short of the target",
	},
	{
		.name = "samples",
		.type = IL_OPT_INT,
		.offset = COMMON(samples),
		.def = "0",
		.min = 0,
		.max = IL_MAX_SAMPLES_TARGET,
		.metavar = "N",
		.help = "end each run once it has N judged samples (the "
			"waits of the task the verdict is about, or every "
			"measured task's waits, or its jobs when it takes no "
			"lock) or at --duration, whichever comes first, 60s "
			"when --duration is not given (a job file's own "
			"duration stands); the report and the result file say "
			"which ended it; 0: at the duration",
	},
	{
		.name = "percentile",
		.type = IL_OPT_CHOICE,
		.offset = COMMON(percentile),
		.def = "off",
		.choices = "off|p99|p999|p9999",
		.metavar = "PCT",
		.help = "size each run for this percentile: a sample target "
			"of the fewest samples that leave one beyond it (p99 "
			"100, p999 1000, p9999 10000), or --samples when that "
			"is larger; the table then shows its column",
	},
	{
		.name = "repeat",
		.short_name = 'r',
		.type = IL_OPT_INT,
		.offset = COMMON(repeat),
		.def = "1",
		.min = 1,
		.max = 1000,
		.metavar = "N",
		.help = "run every configuration N times in turn; each run is "
			"kept in the results for comparison",
	},
	{
		.name = "live",
		.type = IL_OPT_FLAG,
		.offset = COMMON(live),
		.help = "show the board: every configuration's figures, bound "
			"and verdict as they form, once a second (redrawn in "
			"place on a terminal, plain blocks otherwise)",
	},
	{
		.name = "stage",
		.type = IL_OPT_FLAG,
		.offset = COMMON(stage),
		.help = "narrate one round of each configuration line by line "
			"for an audience, then its verdict and the board, and "
			"pause before the next (docs/stage.md); the runs are "
			"judged as usual",
	},
	{
		.name = "stage-pause",
		.type = IL_OPT_STRING,
		.offset = COMMON(stage_pause),
		.def = "key",
		.metavar = "WHEN",
		.help = "with --stage, between configurations: 'key' waits "
			"for Enter, a TIME (5s) waits that long, 0 goes on",
	},
	{
		.name = "stage-step",
		.type = IL_OPT_DURATION,
		.offset = COMMON(stage_step_ns),
		.def = "1200ms",
		.min = 0,
		.max = 10 * (int64_t)IL_NSEC_PER_SEC,
		.unit_ns = IL_NSEC_PER_MSEC,
		.metavar = "TIME",
		.help = "with --stage, the time between two narrated lines",
	},
	{
		.name = "no-lock",
		.type = IL_OPT_FLAG,
		.offset = COMMON(no_lock),
		.help = "run even while another invlab run uses the same CPUs "
			"(its measurements and this one's disturb each other)",
	},
	{
		.name = "lock-wait",
		.type = IL_OPT_DURATION,
		.offset = COMMON(lock_wait_ns),
		.def = "30s",
		.min = 100 * (int64_t)IL_NSEC_PER_MSEC,
		.max = 3600 * (int64_t)IL_NSEC_PER_SEC,
		.metavar = "TIME",
		.help = "how long to wait for CPUs another invlab run uses "
			"before giving up (exit 77)",
	},
	{
		.name = "kconfig",
		.type = IL_OPT_STRING,
		.offset = COMMON(kconfig),
		.metavar = "FILE",
		.help = "the running kernel's config (a .config, plain or "
			"gzipped) for the fingerprint, ahead of "
			"/proc/config.gz and /boot",
	},
	{
		.name = "trace",
		.type = IL_OPT_CHOICE,
		.offset = COMMON(trace),
		.def = "auto",
		.choices = "auto|on|off",
		.metavar = "WHEN",
		.help = "record the scheduler's trace of each run (tracefs) "
			"and "
			"judge who ran while a waiter waited from it; auto: "
			"when tracefs is there and may be used",
	},
	{
		.name = "probe",
		.type = IL_OPT_STRING,
		.offset = COMMON(probe),
		.metavar = "cyclictest|timerlat[=OPTS]",
		.help = "run cyclictest (or rtla's timerlat) beside each "
			"configuration and keep its histogram per CPU "
			"(probe_cyclictest_ns, probe_timerlat_ns); by "
			"default on the scenario's CPUs at one priority above "
			"the scenario's highest (99 at most), so that it shows "
			"what the system gives a real-time task while the "
			"scenario runs and is never a party to its locks; "
			"OPTS: prio=1..99, policy=fifo|rr, "
			"interval=50us..100ms "
			"(1ms), limit=1ms..100ms (10ms, the histogram's "
			"range), cpus=LIST, format=json|text (timerlat: "
			"text), tune=off|on "
			"(off: --default-system), e.g. "
			"cyclictest=prio=80,interval=500us; skipped with the "
			"reason when the tool is not installed or the kernel "
			"has no timerlat tracer (docs/probes.md)",
	},
	{
		.name = "trace-export",
		.type = IL_OPT_STRING,
		.offset = COMMON(trace_export),
		.metavar = "DIR",
		.help = "write each run's trace to DIR (made if missing) as "
			"CONFIGURATION.json, or CONFIGURATION-N.json with "
			"--repeat, in the Chrome trace-event format that "
			"ui.perfetto.dev opens; needs the trace (auto means "
			"on)",
	},
	{ .name = NULL },
};

double il_opt_percentile(const struct il_common_cfg *c)
{
	static const double p[] = { 0, 0.99, 0.999, 0.9999 };

	if (!c || c->percentile < 0 || c->percentile > 3)
		return 0;
	return p[c->percentile];
}

uint64_t il_opt_samples(const struct il_common_cfg *c)
{
	uint64_t n = c && c->samples > 0 ? (uint64_t)c->samples : 0;
	uint64_t need = il_hist_samples_for(il_opt_percentile(c));

	return need > n ? need : n;
}

void il_opt_run_limit(const struct il_common_cfg *c, double tail,
		      uint64_t bound_ns, struct il_run_limit *out)
{
	bool asked = il_opt_was_set(c, "duration") ||
		     il_opt_was_set(c, "samples") ||
		     il_opt_was_set(c, "percentile");

	memset(out, 0, sizeof(*out));
	if (!c)
		return;
	out->duration_ns = c->duration_ns;
	if (asked) {
		out->samples = il_opt_samples(c);
		if (out->samples && !il_opt_was_set(c, "duration"))
			out->duration_ns = IL_SAMPLES_BOUND_NS;
	} else if (bound_ns) {
		out->samples = tail > 0 ? il_hist_samples_for(tail) : 0;
		out->duration_ns = bound_ns;
		out->by_default = true;
	}
}

static const struct il_opt *find_n(const struct il_opt *const *tables,
				   const char *name, size_t len)
{
	for (const struct il_opt *const *t = tables; t && *t; t++)
		for (const struct il_opt *o = *t; o->name; o++)
			if (strlen(o->name) == len &&
			    !strncmp(o->name, name, len))
				return o;
	return NULL;
}

const struct il_opt *il_opt_find(const struct il_opt *const *tables,
				 const char *name)
{
	if (!name)
		return NULL;
	return find_n(tables, name, strlen(name));
}

static const struct il_opt *find_short(const struct il_opt *const *tables,
				       int c)
{
	for (const struct il_opt *const *t = tables; t && *t; t++)
		for (const struct il_opt *o = *t; o->name; o++)
			if (o->short_name && o->short_name == c)
				return o;
	return NULL;
}

static const char *suggest_n(const struct il_opt *const *tables,
			     const char *name, size_t len)
{
	struct il_suggest s;
	size_t rlen;

	il_suggest_init(&s, name, len);
	for (const struct il_opt *const *t = tables; t && *t; t++)
		for (const struct il_opt *o = *t; o->name; o++)
			il_suggest_consider(&s, o->name, strlen(o->name));
	return il_suggest_result(&s, &rlen);
}

const char *il_opt_suggest(const struct il_opt *const *tables, const char *name)
{
	if (!name)
		return NULL;
	return suggest_n(tables, name, strlen(name));
}

const char *il_opt_choice_name(const struct il_opt *o, int idx, char *buf,
			       size_t len)
{
	const char *p;

	if (!o || o->type != IL_OPT_CHOICE || !o->choices || idx < 0 || !buf ||
	    !len)
		return NULL;
	p = o->choices;
	for (int i = 0; i < idx; i++) {
		p = strchr(p, '|');
		if (!p)
			return NULL;
		p++;
	}
	snprintf(buf, len, "%.*s", (int)strcspn(p, "|"), p);
	return buf;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* strtoll without its leniency: no spaces, no empty string, no garbage */
static int parse_int(const char *s, int64_t *v)
{
	const char *d = (*s == '-' || *s == '+') ? s + 1 : s;
	char *end;
	long long x;

	if (!is_digit(*d))
		return -EINVAL;
	errno = 0;
	x = strtoll(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	*v = x;
	return 0;
}

/* flags given a value (job files, --set, defaults) */
static int parse_bool(const char *s, int *v)
{
	static const char *const on[] = { "1", "yes", "true", "on" };
	static const char *const off[] = { "0", "no", "false", "off" };

	for (size_t i = 0; i < sizeof(on) / sizeof(on[0]); i++) {
		if (!strcmp(s, on[i])) {
			*v = 1;
			return 0;
		}
		if (!strcmp(s, off[i])) {
			*v = 0;
			return 0;
		}
	}
	return -EINVAL;
}

/* Exactly, with the largest binary suffix that divides: "64K", "1G" */
static void fmt_size_exact(char *buf, size_t len, uint64_t v)
{
	static const char suffix[] = "TGMK";

	for (int i = 0; v && i < 4; i++) {
		unsigned int shift = (unsigned int)(40 - 10 * i);

		if ((v & ((1ull << shift) - 1)) == 0) {
			snprintf(buf, len, "%llu%c",
				 (unsigned long long)(v >> shift), suffix[i]);
			return;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)v);
}

static bool has_range(const struct il_opt *o)
{
	return (o->type == IL_OPT_INT || o->type == IL_OPT_DURATION ||
		o->type == IL_OPT_SIZE) &&
	       (o->min || o->max);
}

static uint64_t to_u64(int64_t v)
{
	return v < 0 ? 0 : (uint64_t)v;
}

static void fmt_value(const struct il_opt *o, char *buf, size_t len, uint64_t v)
{
	if (o->type == IL_OPT_DURATION)
		il_format_duration_exact(buf, len, v);
	else if (o->type == IL_OPT_SIZE)
		fmt_size_exact(buf, len, v);
	else
		snprintf(buf, len, "%lld", (long long)(int64_t)v);
}

/* "10us..1s", "1..99", or "" when the row has no range */
static void fmt_range(const struct il_opt *o, char *buf, size_t len)
{
	char lo[32], hi[32];

	if (!has_range(o)) {
		snprintf(buf, len, "%s", "");
		return;
	}
	if (o->type == IL_OPT_INT) {
		snprintf(buf, len, "%lld..%lld", (long long)o->min,
			 (long long)o->max);
		return;
	}
	fmt_value(o, lo, sizeof(lo), to_u64(o->min));
	fmt_value(o, hi, sizeof(hi), to_u64(o->max));
	snprintf(buf, len, "%s..%s", lo, hi);
}

static int out_of_range(const struct il_opt *o, const char *shown, char *err,
			size_t errlen)
{
	char range[80];

	fmt_range(o, range, sizeof(range));
	if (range[0])
		il_setf(err, errlen, "--%s: %s is out of range; allowed %s",
			o->name, shown, range);
	else
		il_setf(err, errlen, "--%s: %s is out of range", o->name,
			shown);
	return -EINVAL;
}

static int parse_choice(const struct il_opt *o, const char *value, int *idx,
			char *err, size_t errlen)
{
	struct il_suggest s;
	const char *p = o->choices, *best;
	size_t blen;
	int i = 0;

	il_suggest_init(&s, value, strlen(value));
	for (;;) {
		size_t n = strcspn(p, "|");

		if (n == strlen(value) && !strncmp(p, value, n)) {
			*idx = i;
			return 0;
		}
		il_suggest_consider(&s, p, n);
		if (!p[n])
			break;
		p += n + 1;
		i++;
	}
	best = il_suggest_result(&s, &blen);
	if (best)
		il_setf(err, errlen,
			"--%s: '%s' is not one of %s; did you mean '%.*s'?",
			o->name, value, o->choices, (int)blen, best);
	else
		il_setf(err, errlen, "--%s: '%s' is not one of %s", o->name,
			value, o->choices);
	return -EINVAL;
}

/*
 * Parse value for row o and store it in cfg; the field is written only
 * when the value is valid.  value is NULL for a flag given without one.
 */
static int apply(const struct il_opt *o, void *cfg, const char *value,
		 char *err, size_t errlen)
{
	char *field = (char *)cfg + o->offset;
	char shown[40];
	int64_t iv;
	uint64_t uv;
	int ret, v;

	if (!value && o->type != IL_OPT_FLAG) {
		il_setf(err, errlen, "--%s: missing argument", o->name);
		return -EINVAL;
	}

	switch (o->type) {
	case IL_OPT_FLAG:
		v = 1;
		if (value && parse_bool(value, &v)) {
			il_setf(err, errlen,
				"--%s: '%s' is not a boolean (1, yes, true, "
				"on or 0, no, false, off)",
				o->name, value);
			return -EINVAL;
		}
		*(int *)field = v;
		return 0;

	case IL_OPT_INT:
		ret = parse_int(value, &iv);
		if (ret == -ERANGE) {
			snprintf(shown, sizeof(shown), "'%s'", value);
			return out_of_range(o, shown, err, errlen);
		}
		if (ret) {
			il_setf(err, errlen, "--%s: '%s' is not an integer",
				o->name, value);
			return -EINVAL;
		}
		if (has_range(o) && (iv < o->min || iv > o->max)) {
			snprintf(shown, sizeof(shown), "%lld", (long long)iv);
			return out_of_range(o, shown, err, errlen);
		}
		*(int64_t *)field = iv;
		return 0;

	case IL_OPT_DURATION:
	case IL_OPT_SIZE:
		if (o->type == IL_OPT_DURATION)
			ret = il_parse_duration(value, o->unit_ns, &uv);
		else
			ret = il_parse_size(value, &uv);
		if (ret == -ERANGE) {
			snprintf(shown, sizeof(shown), "'%s'", value);
			return out_of_range(o, shown, err, errlen);
		}
		if (ret && o->type == IL_OPT_DURATION) {
			il_setf(err, errlen,
				"--%s: '%s' is not a duration "
				"(a number with unit ns, us, ms, s or m)",
				o->name, value);
			return -EINVAL;
		}
		if (ret) {
			il_setf(err, errlen,
				"--%s: '%s' is not a size "
				"(an integer with optional suffix K, M, G or "
				"T)",
				o->name, value);
			return -EINVAL;
		}
		if (has_range(o) &&
		    (uv < to_u64(o->min) || uv > to_u64(o->max))) {
			fmt_value(o, shown, sizeof(shown), uv);
			return out_of_range(o, shown, err, errlen);
		}
		*(uint64_t *)field = uv;
		return 0;

	case IL_OPT_STRING:
		*(const char **)field = value;
		return 0;

	case IL_OPT_CHOICE:
		ret = parse_choice(o, value, &v, err, errlen);
		if (ret)
			return ret;
		*(int *)field = v;
		return 0;

	case IL_OPT_LIST: {
		struct il_strlist *l = (struct il_strlist *)field;

		if (l->n == IL_OPT_LIST_MAX) {
			il_setf(err, errlen, "--%s: given more than %d times",
				o->name, IL_OPT_LIST_MAX);
			return -EINVAL;
		}
		l->v[l->n++] = value;
		return 0;
	}
	}
	il_setf(err, errlen, "--%s: unknown option type %d", o->name, o->type);
	return -EINVAL;
}

/* A compiled-out feature is refused by name, never "unknown option". */
static int check_supported(const struct il_opt *o, char *err, size_t errlen)
{
	if (!o->unsupported)
		return 0;
	il_setf(err, errlen, "--%s: not supported: %s", o->name,
		o->unsupported);
	return -EINVAL;
}

/* Mistakes in the tables themselves: caught on every parse, in tests */
static int check_tables(const struct il_opt *const *tables, char *err,
			size_t errlen)
{
	for (const struct il_opt *const *t = tables; *t; t++) {
		for (const struct il_opt *o = *t; o->name; o++) {
			if (!o->name[0] || strchr(o->name, '=')) {
				il_setf(err, errlen,
					"option table: bad name '%s'", o->name);
				return -EINVAL;
			}
			if (find_n(tables, o->name, strlen(o->name)) != o) {
				il_setf(err, errlen,
					"option table: --%s declared twice",
					o->name);
				return -EINVAL;
			}
			if (o->short_name &&
			    find_short(tables, o->short_name) != o) {
				il_setf(err, errlen,
					"option table: -%c declared twice "
					"(--%s)",
					o->short_name, o->name);
				return -EINVAL;
			}
			if (o->type == IL_OPT_CHOICE && !o->choices) {
				il_setf(err, errlen,
					"option table: --%s has no choices",
					o->name);
				return -EINVAL;
			}
			if (has_range(o) && o->min > o->max) {
				il_setf(err, errlen,
					"option table: --%s has min > max",
					o->name);
				return -EINVAL;
			}
		}
	}
	return 0;
}

/* Defaults go through apply() too, so a bad default cannot hide. */
static int apply_defaults(const struct il_opt *const *tables, void *cfg,
			  char *err, size_t errlen)
{
	for (const struct il_opt *const *t = tables; *t; t++) {
		for (const struct il_opt *o = *t; o->name; o++) {
			char *field = (char *)cfg + o->offset;
			char msg[256];

			if (o->def) {
				if (apply(o, cfg, o->def, msg, sizeof(msg))) {
					il_setf(err, errlen,
						"option table: bad default "
						"for --%s: %s",
						o->name, msg);
					return -EINVAL;
				}
				continue;
			}
			switch (o->type) {
			case IL_OPT_FLAG:
			case IL_OPT_CHOICE:
				*(int *)field = 0;
				break;
			case IL_OPT_INT:
				*(int64_t *)field = 0;
				break;
			case IL_OPT_DURATION:
			case IL_OPT_SIZE:
				*(uint64_t *)field = 0;
				break;
			case IL_OPT_STRING:
				*(const char **)field = NULL;
				break;
			case IL_OPT_LIST:
				((struct il_strlist *)field)->n = 0;
				break;
			}
		}
	}
	return 0;
}

/* Move argv[b..e) before argv[a..b) keeping both orders: reverse thrice */
static void reverse(char **v, int a, int e)
{
	for (e--; a < e; a++, e--) {
		char *tmp = v[a];

		v[a] = v[e];
		v[e] = tmp;
	}
}

static void rotate(char **v, int a, int b, int e)
{
	if (a == b || b == e)
		return;
	reverse(v, a, b);
	reverse(v, b, e);
	reverse(v, a, e);
}

/* What the command-line parsers share */
struct parse_ctx {
	const struct il_opt *const *tables;
	void *cfg;
	struct il_common_cfg *common; /* NULL: nothing is recorded */
	char *err;
	size_t errlen;
};

/* Position of row o over all tables in order, or -1 */
static int row_index(const struct il_opt *const *tables, const struct il_opt *o)
{
	int i = 0;

	for (const struct il_opt *const *t = tables; t && *t; t++)
		for (const struct il_opt *r = *t; r->name; r++, i++)
			if (r == o)
				return i;
	return -1;
}

static int count_rows(const struct il_opt *const *tables)
{
	int n = 0;

	for (const struct il_opt *const *t = tables; t && *t; t++)
		for (const struct il_opt *r = *t; r->name; r++)
			n++;
	return n;
}

/* il_common_opts, or a copy of its rows in order (what --help says of
 * them may differ: a program's own def_help) */
static bool is_common(const struct il_opt *t)
{
	const struct il_opt *o = il_common_opts;

	if (t == il_common_opts)
		return true;
	for (; o->name && t->name; o++, t++)
		if (strcmp(o->name, t->name) || o->offset != t->offset ||
		    o->type != t->type)
			return false;
	return !o->name && !t->name;
}

static bool has_common(const struct il_opt *const *tables)
{
	for (const struct il_opt *const *t = tables; t && *t; t++)
		if (is_common(*t))
			return true;
	return false;
}

/* Apply a command-line value and note that argv named the row */
static int apply_given(struct parse_ctx *c, const struct il_opt *o,
		       const char *value)
{
	int ret = apply(o, c->cfg, value, c->err, c->errlen);
	int i;

	if (ret || !c->common)
		return ret;
	i = row_index(c->tables, o);
	if (i >= 0 && i < IL_OPT_MAX_ROWS)
		c->common->opt_given[i / 64] |= 1ull << (i % 64);
	return 0;
}

bool il_opt_was_set(const void *cfg, const char *name)
{
	const struct il_common_cfg *c = cfg;
	const struct il_opt *o;
	int i;

	if (!c || !name || !c->opt_tables)
		return false;
	o = il_opt_find(c->opt_tables, name);
	i = o ? row_index(c->opt_tables, o) : -1;
	if (i < 0 || i >= IL_OPT_MAX_ROWS)
		return false;
	return (c->opt_given[i / 64] >> (i % 64)) & 1;
}

/* "--json --tap": the next argument looks like an option, not a value */
static bool takes_next(int argc, char **argv, int i)
{
	return i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0;
}

/* One "--name[=value]" at argv[i]; returns the arguments used or -EINVAL */
static int parse_long(int argc, char **argv, int i, struct parse_ctx *c)
{
	const char *name = argv[i] + 2;
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct il_opt *o = find_n(c->tables, name, len);
	int ret;

	if (!o) {
		const char *s = suggest_n(c->tables, name, len);

		if (s)
			il_setf(c->err, c->errlen,
				"unknown option '--%.*s'; did you mean '--%s'?",
				(int)len, name, s);
		else
			il_setf(c->err, c->errlen, "unknown option '--%.*s'",
				(int)len, name);
		return -EINVAL;
	}
	ret = check_supported(o, c->err, c->errlen);
	if (ret)
		return ret;
	if (o->type == IL_OPT_FLAG) {
		/* the hidden --help=man: the OPTIONS section as roff;
		 * --help=completion: the table for bash completion */
		if (eq && !strcmp(o->name, "help") &&
		    (!strcmp(eq + 1, "man") || !strcmp(eq + 1, "completion"))) {
			help_form = eq[1] == 'm' ? HELP_MAN : HELP_COMPLETION;
			eq = NULL;
		}
		if (eq) {
			il_setf(c->err, c->errlen, "--%s: takes no value",
				o->name);
			return -EINVAL;
		}
		return apply_given(c, o, NULL) ?: 1;
	}
	if (eq)
		return apply_given(c, o, eq + 1) ?: 1;
	if (!takes_next(argc, argv, i))
		return apply_given(c, o, NULL);
	return apply_given(c, o, argv[i + 1]) ?: 2;
}

/* A cluster "-qd3s" at argv[i]; returns the arguments used or -EINVAL */
static int parse_short(int argc, char **argv, int i, struct parse_ctx *c)
{
	for (const char *p = argv[i] + 1; *p; p++) {
		const struct il_opt *o =
			find_short(c->tables, (unsigned char)*p);
		int ret;

		if (!o) {
			il_setf(c->err, c->errlen, "unknown option '-%c'", *p);
			return -EINVAL;
		}
		ret = check_supported(o, c->err, c->errlen);
		if (ret)
			return ret;
		if (o->type == IL_OPT_FLAG) {
			ret = apply_given(c, o, NULL);
			if (ret)
				return ret;
			continue;
		}
		/* the rest of the cluster is the value, else the next arg */
		if (p[1])
			return apply_given(c, o, p + 1) ?: 1;
		if (!takes_next(argc, argv, i))
			return apply_given(c, o, NULL);
		return apply_given(c, o, argv[i + 1]) ?: 2;
	}
	return 1;
}

int il_opt_parse(int argc, char **argv, const struct il_opt *const *tables,
		 void *cfg, char *err, size_t errlen)
{
	struct parse_ctx c = {
		.tables = tables,
		.cfg = cfg,
		.err = err,
		.errlen = errlen,
	};
	int i, w, ret;

	if (err && errlen)
		err[0] = '\0';
	if (!tables || !cfg) {
		il_setf(err, errlen, "no option tables");
		return -EINVAL;
	}
	ret = check_tables(tables, err, errlen);
	if (ret)
		return ret;
	if (has_common(tables)) {
		if (count_rows(tables) > IL_OPT_MAX_ROWS) {
			il_setf(err, errlen,
				"option table: more than %d options",
				IL_OPT_MAX_ROWS);
			return -EINVAL;
		}
		c.common = cfg;
		c.common->opt_tables = tables;
		memset(c.common->opt_given, 0, sizeof(c.common->opt_given));
	}
	ret = apply_defaults(tables, cfg, err, errlen);
	if (ret)
		return ret;
	if (argc < 1 || !argv)
		return 1;
	help_form = HELP_TEXT;

	/*
	 * w: where the next option goes.  Operands met on the way are left
	 * in place and the options after them are rotated in front, so
	 * argv ends as [prog, options..., "--"?, operands...].
	 */
	for (i = w = 1; i < argc;) {
		const char *a = argv[i];

		if (a[0] != '-' || !a[1]) {
			i++;
			continue;
		}
		if (!strcmp(a, "--")) {
			rotate(argv, w, i, i + 1);
			w++;
			break;
		}
		if (a[1] == '-')
			ret = parse_long(argc, argv, i, &c);
		else
			ret = parse_short(argc, argv, i, &c);
		if (ret < 0)
			return ret;
		rotate(argv, w, i, i + ret);
		w += ret;
		i += ret;
	}
	/* the engine reads it from there: every program gets it */
	if (c.common)
		il_trace_set_default(
			c.common->trace_export &&
					c.common->trace == IL_TRACE_AUTO
				? IL_TRACE_ON
				: (enum il_trace_mode)c.common->trace);
	return w;
}

int il_opt_set(const struct il_opt *const *tables, void *cfg, const char *name,
	       const char *value, char *err, size_t errlen)
{
	const struct il_opt *o;
	int ret;

	if (err && errlen)
		err[0] = '\0';
	if (!tables || !cfg || !name) {
		il_setf(err, errlen, "no option tables or name");
		return -EINVAL;
	}
	o = il_opt_find(tables, name);
	if (!o) {
		const char *s = il_opt_suggest(tables, name);

		if (s)
			il_setf(err, errlen,
				"unknown option '--%s'; did you mean '--%s'?",
				name, s);
		else
			il_setf(err, errlen, "unknown option '--%s'", name);
		return -EINVAL;
	}
	ret = check_supported(o, err, errlen);
	if (ret)
		return ret;
	return apply(o, cfg, value, err, errlen);
}

static const char *metavar(const struct il_opt *o)
{
	if (o->metavar)
		return o->metavar;
	switch (o->type) {
	case IL_OPT_INT:
		return "N";
	case IL_OPT_DURATION:
		return "TIME";
	case IL_OPT_SIZE:
		return "SIZE";
	case IL_OPT_CHOICE:
		return "CHOICE";
	case IL_OPT_LIST:
		return "VALUE";
	case IL_OPT_STRING:
	case IL_OPT_FLAG:
		break;
	}
	return "STRING";
}

/*
 * The text shown for a row: its help sentence, then what the table knows
 * about it in parentheses: "(default: 3s; range: 100ms..60m)".
 */
static void describe(const struct il_opt *o, char *buf, size_t len)
{
	char range[80];
	const char *sep = " (";

	snprintf(buf, len, "%s", o->help ? o->help : "");
	if (o->type == IL_OPT_CHOICE) {
		il_appendf(buf, len, "%sone of: %s", sep, o->choices);
		sep = "; ";
	}
	if (o->def_help || o->def) {
		il_appendf(buf, len, "%sdefault: %s", sep,
			   o->def_help ? o->def_help : o->def);
		sep = "; ";
	}
	fmt_range(o, range, sizeof(range));
	if (range[0]) {
		il_appendf(buf, len, "%srange: %s", sep, range);
		sep = "; ";
	}
	if (o->type == IL_OPT_DURATION && o->unit_ns &&
	    o->unit_ns != IL_NSEC_PER_SEC) {
		char unit[32];

		/* "1ms" reads "in ms"; an odd unit such as 10ms stays whole */
		il_format_duration_exact(unit, sizeof(unit), o->unit_ns);
		il_appendf(buf, len, "%sa bare number is in %s", sep,
			   unit[0] == '1' && !is_digit(unit[1]) ? unit + 1
								: unit);
		sep = "; ";
	}
	if (o->unsupported) {
		il_appendf(buf, len, "%snot supported: %s", sep,
			   o->unsupported);
		sep = "; ";
	}
	if (sep[0] == ';')
		il_appendf(buf, len, ")");
}

/* "  -d, --duration=TIME" or "      --json=FILE" */
static int left_column(const struct il_opt *o, char *buf, size_t len)
{
	char shortpart[8] = "    ";

	if (o->short_name)
		snprintf(shortpart, sizeof(shortpart), "-%c, ", o->short_name);
	if (o->type == IL_OPT_FLAG)
		return snprintf(buf, len, "  %s--%s", shortpart, o->name);
	return snprintf(buf, len, "  %s--%s=%s", shortpart, o->name,
			metavar(o));
}

/*
 * Write text word by word from column pos, wrapping at HELP_WIDTH to col.
 * A word ending in ':' stays with the next one, so "range: 10us..1s" is
 * never split across lines.
 */
static void wrap(FILE *out, const char *text, int col, int pos)
{
	const char *p = text;

	while (*p) {
		int n;

		while (*p == ' ')
			p++;
		n = (int)strcspn(p, " ");
		if (!n)
			break;
		if (p[n - 1] == ':' && p[n] == ' ' && p[n + 1] != ' ')
			n += 1 + (int)strcspn(p + n + 1, " ");
		if (pos > col && pos + 1 + n > HELP_WIDTH) {
			fprintf(out, "\n%*s", col, "");
			pos = col;
		} else if (pos > col) {
			fputc(' ', out);
			pos++;
		}
		fprintf(out, "%.*s", n, p);
		pos += n;
		p += n;
	}
	fputc('\n', out);
}

void il_opt_help(FILE *out, const char *prog, const char *usage,
		 const char *summary, const struct il_opt *const *tables)
{
	char left[128], text[1024];
	int col = 0;

	if (help_form == HELP_MAN) {
		il_opt_man(out, tables);
		return;
	}
	if (help_form == HELP_COMPLETION) {
		il_opt_completion(out, usage, tables);
		return;
	}
	fprintf(out, "Usage: %s %s\n", prog ? prog : "PROG",
		usage ? usage : "[OPTIONS]");
	if (summary && summary[0]) {
		fputc('\n', out);
		wrap(out, summary, 0, 0);
	}
	fprintf(out, "\nOptions:\n");

	for (const struct il_opt *const *t = tables; t && *t; t++) {
		for (const struct il_opt *o = *t; o->name; o++) {
			int n = left_column(o, left, sizeof(left));

			if (n + 2 > col)
				col = n + 2;
		}
	}
	if (col > HELP_COL_MAX)
		col = HELP_COL_MAX;

	for (const struct il_opt *const *t = tables; t && *t; t++) {
		for (const struct il_opt *o = *t; o->name; o++) {
			int n = left_column(o, left, sizeof(left));

			describe(o, text, sizeof(text));
			fputs(left, out);
			if (n + 2 > col) {
				fprintf(out, "\n%*s", col, "");
			} else {
				fprintf(out, "%*s", col - n, "");
			}
			wrap(out, text, col, col);
		}
	}
}

/* roff: a backslash is \e, a dash is \- (so it can be copied), and a
 * leading '.' or '\'' would be read as a request */
static void roff_escape(FILE *out, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", out);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", out);
		else if (*s == '-')
			fputs("\\-", out);
		else
			fputc(*s, out);
	}
}

void il_opt_man(FILE *out, const struct il_opt *const *tables)
{
	char text[1024];

	fputs(".SH OPTIONS\n", out);
	for (const struct il_opt *const *t = tables; t && *t; t++) {
		for (const struct il_opt *o = *t; o->name; o++) {
			fputs(".TP\n", out);
			if (o->short_name)
				fprintf(out, "\\fB\\-%c\\fR, ", o->short_name);
			fputs("\\fB\\-\\-", out);
			roff_escape(out, o->name);
			fputs("\\fR", out);
			if (o->type != IL_OPT_FLAG) {
				fputs("=\\fI", out);
				roff_escape(out, metavar(o));
				fputs("\\fR", out);
			}
			fputc('\n', out);
			/* a sentence in a man page: capital, full stop */
			describe(o, text, sizeof(text));
			if (text[0] >= 'a' && text[0] <= 'z')
				text[0] = (char)(text[0] - 'a' + 'A');
			if (text[0] && !strchr(".!?", text[strlen(text) - 1]))
				il_appendf(text, sizeof(text), ".");
			roff_escape(out, text);
			fputc('\n', out);
		}
	}
}

/*
 * What a value of o is, for completion: a file, a directory, one of
 * its choices (a CHOICE row, or a metavar that lists them: "on|off"),
 * or anything.
 */
static const char *value_kind(const struct il_opt *o)
{
	const char *m = o->metavar ? o->metavar : "";

	if (o->type == IL_OPT_FLAG)
		return "flag";
	if (o->type == IL_OPT_CHOICE)
		return "choice";
	if (strstr(m, "DIR"))
		return "dir";
	if (strstr(m, "FILE") || strstr(m, "PATH"))
		return "file";
	if (strchr(m, '|') &&
	    strspn(m, "abcdefghijklmnopqrstuvwxyz0123456789|-") == strlen(m))
		return "choice";
	return "value";
}

void il_opt_completion(FILE *out, const char *usage,
		       const struct il_opt *const *tables)
{
	/* one line: a usage of several ("   or: PROG ...") joined */
	fputs("usage\t", out);
	for (const char *p = usage ? usage : "[OPTIONS]"; *p; p++)
		fputc(*p == '\n' || *p == '\t' ? ' ' : *p, out);
	fputc('\n', out);
	for (const struct il_opt *const *t = tables; t && *t; t++) {
		for (const struct il_opt *o = *t; o->name; o++) {
			const char *kind = value_kind(o);
			const char *choices = "";

			if (!strcmp(kind, "choice"))
				choices = o->type == IL_OPT_CHOICE ? o->choices
								   : o->metavar;
			fprintf(out, "option\t--%s\t", o->name);
			if (o->short_name)
				fprintf(out, "-%c", o->short_name);
			fprintf(out, "\t%s\t%s\n", kind, choices);
		}
	}
}
