/* SPDX-License-Identifier: MIT */
/*
 * The one option table.
 *
 * Every option is declared once, in a struct il_opt row: its name, type,
 * default, allowed range and help.  getopt_long's table, --help, the
 * defaults, the range checks and the man page's option list all come from
 * these rows, so they cannot drift apart.
 *
 * A program keeps its settings in one struct; each row names the offset of
 * its field (offsetof) and the parser writes there:
 *   IL_OPT_FLAG      int (0/1)
 *   IL_OPT_INT       int64_t, checked against [min, max]
 *   IL_OPT_DURATION  uint64_t ns, units as il_parse_duration, [min, max] ns
 *   IL_OPT_SIZE      uint64_t bytes, units as il_parse_size, [min, max]
 *   IL_OPT_STRING    const char * (points into argv or the default)
 *   IL_OPT_CHOICE    int, the index of the value in the '|'-separated choices
 *   IL_OPT_LIST      struct il_strlist: every occurrence is kept, in order
 *
 * Several tables can be combined (the common options of every program,
 * then the program's own).  The library never prints or exits: errors come
 * back as a message in the caller's buffer.
 *
 * Given on the command line, or a default?  When il_common_opts is one of
 * the tables, the settings struct starts with struct il_common_cfg, and
 * il_opt_parse records there which rows argv named (il_opt_was_set).
 * That is the one way to let a value from elsewhere (a job file) win over
 * a table default but not over the user: "--duration 3s" counts as given
 * even when 3s is also the default.  A copy of il_common_opts (its rows
 * in order, with another def_help: what a program's --help says of its
 * own defaults) counts as il_common_opts.
 *
 * The man pages' OPTIONS sections are generated from the tables at build
 * time: "PROG --help=man" (hidden: not listed by --help) sets the help
 * flag like --help, and the program's own il_opt_help call then writes
 * the roff of il_opt_man instead of the text help.  The bash completion
 * is generated the same way, from "PROG --help=completion"
 * (il_opt_completion).
 */
#ifndef INVLAB_OPT_H
#define INVLAB_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* il_suggest, which was declared here before it moved down to util */
#include <invlab/suggest.h>

enum il_opt_type {
	IL_OPT_FLAG,
	IL_OPT_INT,
	IL_OPT_DURATION,
	IL_OPT_SIZE,
	IL_OPT_STRING,
	IL_OPT_CHOICE,
	IL_OPT_LIST,
};

/* An option that may be given several times (--set a=1 --set b=2). */
#define IL_OPT_LIST_MAX 32
struct il_strlist {
	const char *v[IL_OPT_LIST_MAX];
	int n;
};

struct il_opt {
	const char *name; /* long name without dashes; NULL ends a table */
	int short_name;	  /* single character, or 0 */
	enum il_opt_type type;
	size_t offset;	     /* offsetof() the field in the settings struct */
	const char *def;     /* default, in the same syntax as the command line;
				NULL: flag off / string unset */
	int64_t min, max;    /* allowed range (INT, DURATION in ns, SIZE) */
	uint64_t unit_ns;    /* DURATION: unit of a bare number (0: seconds) */
	const char *choices; /* CHOICE: "none|inherit|protect|all" */
	const char *metavar; /* shown in --help, e.g. "TIME" */
	const char *help;    /* one sentence */
	const char *unsupported; /* non-NULL: the feature was compiled out; the
				    option is refused with this reason */
	/* what --help and the man page give as the default when .def alone
	 * would mislead (a program whose default depends on the case);
	 * NULL: .def.  It is shown, never parsed. */
	const char *def_help;
};

/*
 * A sample target (--samples, --percentile, the job key `samples`): the
 * largest one taken, and the bound of each run that has one when
 * --duration is not given (a demo's configuration; a job file's own
 * duration stands).
 */
#define IL_MAX_SAMPLES_TARGET 1000000
#define IL_SAMPLES_BOUND_NS   (60ull * 1000000000ull)

/* Rows a command line can be checked against (all tables together). */
#define IL_OPT_MAX_ROWS 128

/* --exit-status's choices, in the order of its row ("invlab|kselftest") */
enum il_exit_style {
	IL_EXIT_STYLE_INVLAB = 0, /* docs/exit-status.md */
	IL_EXIT_STYLE_KSELFTEST,  /* expect.h il_exit_kselftest */
};

/* Options every program takes; their fields live in struct il_common_cfg. */
struct il_common_cfg {
	int help;
	int version;
	int quiet;
	int tap;
	int ktap;	 /* --ktap; the TAP paths run too (demo_args) */
	int exit_status; /* --exit-status: enum il_exit_style */
	const char *json;
	int json_pretty; /* --json-pretty: il_json_set_pretty */
	uint64_t duration_ns;
	int64_t samples; /* --samples N; 0: none (il_opt_samples) */
	int percentile;	 /* --percentile: 0 off, 1 p99, 2 p999, 3 p9999 */
	int64_t repeat;
	int live;
	int stage;		 /* --stage (stage.h) */
	const char *stage_pause; /* "key" or a duration */
	uint64_t stage_step_ns;	 /* between narrated lines */
	int no_lock;		 /* runlock.h */
	uint64_t lock_wait_ns;	 /* runlock.h */
	const char *kconfig;	 /* sysinfo.h il_sysinfo_use_kconfig */
	int trace;		 /* enum il_trace_mode (trace.h) */
	const char *probe;	 /* probe.h il_probe_parse */
	/* --trace-export: a directory (trace-export.h) */
	const char *trace_export;
	/*
	 * Written by il_opt_parse, read by il_opt_was_set; not options.
	 * opt_tables is the tables argument of the last parse (it must
	 * outlive cfg: static tables do); bit i of opt_given is row i
	 * counted over all tables in order, set when argv named the row.
	 */
	const struct il_opt *const *opt_tables;
	uint64_t opt_given[IL_OPT_MAX_ROWS / 64];
};
extern const struct il_opt il_common_opts[];
/*
 * The --help and --version rows, for the programs that do not take the
 * common options (the result tools, invlab-cleanup): off is the
 * offsetof() of each one's int field.
 */
#define IL_OPT_HELP_ROW(off)                                                   \
	{                                                                      \
		.name = "help", .short_name = 'h', .type = IL_OPT_FLAG,        \
		.offset = (off), .help = "print this help and exit",           \
	}
#define IL_OPT_VERSION_ROW(off)                                                \
	{                                                                      \
		.name = "version", .short_name = 'V', .type = IL_OPT_FLAG,     \
		.offset = (off), .help = "print the version and exit",         \
	}

/*
 * Parse argv.  tables is a NULL-terminated array of tables, all writing into
 * cfg.  Defaults are applied first, then the command line.  Returns the
 * index of the first non-option argument (>= 1) on success, or -EINVAL with
 * a message in err ("--cs: '2xs' is not a duration ...", "unknown option
 * '--duraton'; did you mean '--duration'?").
 */
int il_opt_parse(int argc, char **argv, const struct il_opt *const *tables,
		 void *cfg, char *err, size_t errlen);
/*
 * Whether the last il_opt_parse into cfg met option name on its command
 * line (long or short form, with any value, even the default's).  cfg
 * must start with struct il_common_cfg and have been parsed with
 * il_common_opts among the tables; il_opt_set (job files, --set) does not
 * count.  False for a name no table declares, or before any parse that
 * recorded (a zeroed cfg).
 */
bool il_opt_was_set(const void *cfg, const char *name);
/*
 * --percentile as a fraction (0.99, 0.999, 0.9999), 0 when off; and the
 * sample target the command line asks for: --samples N, or the fewest
 * samples that give --percentile (il_hist_samples_for: 1000 for p999),
 * the larger of the two; 0 when neither is given.  c as parsed with
 * il_common_opts among the tables.
 */
double il_opt_percentile(const struct il_common_cfg *c);
uint64_t il_opt_samples(const struct il_common_cfg *c);
/*
 * How one run ends, from the command line and the program's default for
 * that run.  The default (tail, bound_ns) is the program's default run of
 * one configuration: the percentile its table shows, taken as a sample
 * target of il_hist_samples_for(tail) (0.99: 100, 0.999: 1000; 0: none),
 * and the longest it may take; bound_ns 0: the program has none, and a
 * run lasts --duration as before.
 *
 *   - --duration, --samples or --percentile named: the command line
 *     decides alone: the target il_opt_samples(c), the bound --duration,
 *     or IL_SAMPLES_BOUND_NS for a target without --duration;
 *   - none of them, and a default: its target and bound (by_default);
 *   - none of them, no default: --duration's default, no target.
 *
 * So --duration alone is how long each run lasts, as it always was, and
 * --samples 0 turns a default target off.  c as parsed with
 * il_common_opts among the tables.
 */
struct il_run_limit {
	uint64_t samples;     /* the sample target; 0: none */
	uint64_t duration_ns; /* the run's time bound */
	bool by_default;      /* the program's default run, not argv's */
};
void il_opt_run_limit(const struct il_common_cfg *c, double tail,
		      uint64_t bound_ns, struct il_run_limit *out);
/* Apply one option by name, e.g. from a job file or --set key=value. */
int il_opt_set(const struct il_opt *const *tables, void *cfg, const char *name,
	       const char *value, char *err, size_t errlen);
/* Find a row by long name, or NULL. */
const struct il_opt *il_opt_find(const struct il_opt *const *tables,
				 const char *name);
/* The closest long name to a misspelt one, or NULL when none is close. */
const char *il_opt_suggest(const struct il_opt *const *tables,
			   const char *name);
/* Write --help: usage line, summary, then one entry per option with its
 * default and range.  After a parse (in this thread) that met --help=man,
 * write il_opt_man(out, tables) instead: the build uses it to generate the
 * man pages' OPTIONS sections. */
void il_opt_help(FILE *out, const char *prog, const char *usage,
		 const char *summary, const struct il_opt *const *tables);
/* Write the options as a man-page (roff) OPTIONS section: ".SH OPTIONS",
 * then per row a .TP entry, its help as a sentence with what --help adds
 * (choices, default, range). */
void il_opt_man(FILE *out, const struct il_opt *const *tables);
/*
 * Write the options for a completion generator (the hidden
 * "--help=completion", which il_opt_help turns into this call): a line
 * "usage<TAB>USAGE", then a line a row,
 * "option<TAB>--name<TAB>-x<TAB>KIND<TAB>CHOICES" (-x empty without a
 * short name), KIND flag, choice (CHOICES: "auto|on|off"), file, dir
 * (by the metavar: FILE, PATH, DIR) or value.  Rows of a feature
 * compiled out are listed: they are options, refused with the reason.
 */
void il_opt_completion(FILE *out, const char *usage,
		       const struct il_opt *const *tables);
/* The text of choice number idx of a CHOICE row ("inherit"), in buf. */
const char *il_opt_choice_name(const struct il_opt *o, int idx, char *buf,
			       size_t len);

#endif
