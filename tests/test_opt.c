// SPDX-License-Identifier: MIT
/*
 * Unit tests for lib/scenario/opt.c: one table with every option type, its
 * defaults, both "--x=v" and "--x v" forms, short options and clusters,
 * every kind of error message (they are the user interface, so their
 * text is checked), --help and man output, and parsing several times in
 * one process.
 *
 * Run: meson test -C build opt   (or build/tests/test-opt)
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "invlab/opt.h"
#include "invlab/time.h"
#include "t_util.h"

struct tcfg {
	struct il_common_cfg c; /* first, for il_common_opts */
	int64_t prio;
	int64_t nice;
	uint64_t cs_ns;
	uint64_t bs;
	const char *name;
	int protocol;
	int verbose;
	int uring;
	int64_t count;
};

#define OFF(f) offsetof(struct tcfg, f)

static const struct il_opt test_opts[] = {
	{ .name = "prio",
	  .short_name = 'p',
	  .type = IL_OPT_INT,
	  .offset = OFF(prio),
	  .def = "50",
	  .min = 1,
	  .max = 99,
	  .help = "priority of the waiter" },
	{ .name = "nice",
	  .type = IL_OPT_INT,
	  .offset = OFF(nice),
	  .def = "0",
	  .min = -20,
	  .max = 19,
	  .help = "nice value of the owner" },
	{ .name = "cs",
	  .short_name = 'c',
	  .type = IL_OPT_DURATION,
	  .offset = OFF(cs_ns),
	  .def = "2ms",
	  .min = 10 * (int64_t)IL_NSEC_PER_USEC,
	  .max = (int64_t)IL_NSEC_PER_SEC,
	  .unit_ns = IL_NSEC_PER_MSEC,
	  .metavar = "TIME",
	  .help = "critical-section length" },
	{ .name = "bs",
	  .type = IL_OPT_SIZE,
	  .offset = OFF(bs),
	  .def = "64K",
	  .min = 4096,
	  .max = 1 << 30,
	  .help = "buffer size" },
	{ .name = "name",
	  .short_name = 'n',
	  .type = IL_OPT_STRING,
	  .offset = OFF(name),
	  .def = "demo",
	  .metavar = "NAME",
	  .help = "scenario name" },
	{ .name = "protocol",
	  .short_name = 'P',
	  .type = IL_OPT_CHOICE,
	  .offset = OFF(protocol),
	  .def = "inherit",
	  .choices = "none|inherit|protect|all",
	  .help = "mutex protocol" },
	{ .name = "verbose",
	  .short_name = 'v',
	  .type = IL_OPT_FLAG,
	  .offset = OFF(verbose),
	  .help = "say more" },
	{ .name = "uring",
	  .type = IL_OPT_FLAG,
	  .offset = OFF(uring),
	  .help = "issue the critical sections through io_uring",
	  .unsupported = "built without liburing" },
	{ .name = "count",
	  .type = IL_OPT_INT,
	  .offset = OFF(count),
	  .help = "number of rounds (no range)" },
	{ .name = NULL },
};

static const struct il_opt *const tables[] = { il_common_opts, test_opts,
					       NULL };

static char err[256];

/* parse a NULL-terminated list of arguments (argv[0] is added) */
#define parse(cfg, ...)                                                        \
	parse_v(cfg, (const char *[]){ "prog", __VA_ARGS__, NULL })
static char *last_argv[32];

static int parse_v(struct tcfg *cfg, const char **args)
{
	int argc = 0;

	while (args[argc])
		argc++;
	for (int i = 0; i <= argc; i++)
		last_argv[i] = (char *)args[i];
	/* garbage, so that a missing default shows */
	memset(cfg, 0xa5, sizeof(*cfg));
	err[0] = 'X';
	err[1] = '\0';
	return il_opt_parse(argc, last_argv, tables, cfg, err, sizeof(err));
}

static void test_defaults(void)
{
	struct tcfg cfg;

	t_check_int(parse(&cfg, NULL), 1);
	t_check_str(err, "");
	t_check_int(cfg.c.help, 0);
	t_check_int(cfg.c.version, 0);
	t_check_int(cfg.c.quiet, 0);
	t_check_int(cfg.c.tap, 0);
	t_check(cfg.c.json == NULL);
	t_check_int(cfg.c.duration_ns, 3 * IL_NSEC_PER_SEC);
	t_check_int(cfg.prio, 50);
	t_check_int(cfg.nice, 0);
	t_check_int(cfg.cs_ns, 2 * IL_NSEC_PER_MSEC);
	t_check_int(cfg.bs, 65536);
	t_check_str(cfg.name, "demo");
	t_check_int(cfg.protocol, 1);
	t_check_int(cfg.verbose, 0);
	t_check_int(cfg.uring, 0);
	t_check_int(cfg.count, 0);
}

static void test_forms(void)
{
	struct tcfg cfg;

	/* --x=v */
	t_check_int(parse(&cfg, "--prio=7", "--cs=1.5ms", "--bs=1M", "--name=x",
			  "--protocol=protect", "--json=-", "--duration=250ms",
			  "--nice=-5", "--count=-3"),
		    10);
	t_check_int(cfg.prio, 7);
	t_check_int(cfg.cs_ns, 1500 * IL_NSEC_PER_USEC);
	t_check_int(cfg.bs, 1 << 20);
	t_check_str(cfg.name, "x");
	t_check_int(cfg.protocol, 2);
	t_check_str(cfg.c.json, "-");
	t_check_int(cfg.c.duration_ns, 250 * IL_NSEC_PER_MSEC);
	t_check_int(cfg.nice, -5);
	t_check_int(cfg.count, -3);

	/* --x v, including a negative number and "-" as values */
	t_check_int(parse(&cfg, "--prio", "8", "--cs", "2ms", "--bs", "8K",
			  "--name", "y", "--protocol", "none", "--json", "-",
			  "--nice", "-7"),
		    15);
	t_check_int(cfg.prio, 8);
	t_check_int(cfg.cs_ns, 2 * IL_NSEC_PER_MSEC);
	t_check_int(cfg.bs, 8192);
	t_check_str(cfg.name, "y");
	t_check_int(cfg.protocol, 0);
	t_check_str(cfg.c.json, "-");
	t_check_int(cfg.nice, -7);

	/* a bare number takes the row's unit: ms for --cs, s for -d */
	t_check_int(parse(&cfg, "--cs", "5", "-d", "2"), 5);
	t_check_int(cfg.cs_ns, 5 * IL_NSEC_PER_MSEC);
	t_check_int(cfg.c.duration_ns, 2 * IL_NSEC_PER_SEC);

	/* short options: separate value, attached value, clusters */
	t_check_int(parse(&cfg, "-p", "9", "-c100us", "-qv", "-vd", "1s", "-h",
			  "-V", "--tap"),
		    10);
	t_check_int(cfg.prio, 9);
	t_check_int(cfg.cs_ns, 100 * IL_NSEC_PER_USEC);
	t_check_int(cfg.c.quiet, 1);
	t_check_int(cfg.verbose, 1);
	t_check_int(cfg.c.duration_ns, IL_NSEC_PER_SEC);
	t_check_int(cfg.c.help, 1);
	t_check_int(cfg.c.version, 1);
	t_check_int(cfg.c.tap, 1);
	/* options not given keep their defaults */
	t_check_int(cfg.bs, 65536);
	t_check_str(cfg.name, "demo");

	/* the last occurrence wins */
	t_check_int(parse(&cfg, "--prio=3", "-p4"), 3);
	t_check_int(cfg.prio, 4);
}

static void test_operands(void)
{
	struct tcfg cfg;
	int r;

	/* operands after the options */
	r = parse(&cfg, "-q", "job.fio", "other");
	t_check_int(r, 2);
	t_check_str(last_argv[r], "job.fio");
	t_check_str(last_argv[r + 1], "other");

	/* options after operands are parsed, operands moved last in order */
	r = parse(&cfg, "a", "--prio", "5", "b", "-v", "c");
	t_check_int(r, 4);
	t_check_int(cfg.prio, 5);
	t_check_int(cfg.verbose, 1);
	t_check_str(last_argv[1], "--prio");
	t_check_str(last_argv[2], "5");
	t_check_str(last_argv[3], "-v");
	t_check_str(last_argv[4], "a");
	t_check_str(last_argv[5], "b");
	t_check_str(last_argv[6], "c");
	t_check(last_argv[7] == NULL);

	/* "--" ends the options; "-" is an operand */
	r = parse(&cfg, "x", "-q", "--", "--prio=bad", "-");
	t_check_int(r, 3);
	t_check_int(cfg.c.quiet, 1);
	t_check_int(cfg.prio, 50);
	t_check_str(last_argv[1], "-q");
	t_check_str(last_argv[2], "--");
	t_check_str(last_argv[3], "x");
	t_check_str(last_argv[4], "--prio=bad");
	t_check_str(last_argv[5], "-");

	r = parse(&cfg, "-", "-v");
	t_check_int(r, 2);
	t_check_str(last_argv[2], "-");

	/* no arguments at all */
	{
		char *argv0[] = { "prog", NULL };

		t_check_int(
			il_opt_parse(1, argv0, tables, &cfg, err, sizeof(err)),
			1);
	}
}

static void test_errors(void)
{
	struct tcfg cfg;

	/* unknown, with and without a suggestion */
	t_check_int(parse(&cfg, "--duraton=5s"), -EINVAL);
	t_check_str(err,
		    "unknown option '--duraton'; did you mean '--duration'?");
	t_check_int(parse(&cfg, "--protocl", "none"), -EINVAL);
	t_check_str(err,
		    "unknown option '--protocl'; did you mean '--protocol'?");
	t_check_int(parse(&cfg, "--dur=5s"), -EINVAL);
	t_check_str(err, "unknown option '--dur'; did you mean '--duration'?");
	t_check_int(parse(&cfg, "--frobnicate"), -EINVAL);
	t_check_str(err, "unknown option '--frobnicate'");
	t_check_int(parse(&cfg, "-x"), -EINVAL);
	t_check_str(err, "unknown option '-x'");
	t_check_int(parse(&cfg, "-qx"), -EINVAL);
	t_check_str(err, "unknown option '-x'");

	/* missing argument: at the end, or before another long option */
	t_check_int(parse(&cfg, "--cs"), -EINVAL);
	t_check_str(err, "--cs: missing argument");
	t_check_int(parse(&cfg, "-p"), -EINVAL);
	t_check_str(err, "--prio: missing argument");
	t_check_int(parse(&cfg, "--json", "--tap"), -EINVAL);
	t_check_str(err, "--json: missing argument");

	/* malformed values */
	t_check_int(parse(&cfg, "--cs", "2xs"), -EINVAL);
	t_check_str(err, "--cs: '2xs' is not a duration (a number with unit "
			 "ns, us, ms, s or m)");
	t_check_int(parse(&cfg, "--cs="), -EINVAL);
	t_check_contains(err, "--cs: '' is not a duration");
	t_check_int(parse(&cfg, "--prio=5x"), -EINVAL);
	t_check_str(err, "--prio: '5x' is not an integer");
	t_check_int(parse(&cfg, "--prio= 5"), -EINVAL);
	t_check_str(err, "--prio: ' 5' is not an integer");
	t_check_int(parse(&cfg, "--bs=4X"), -EINVAL);
	t_check_str(err, "--bs: '4X' is not a size (an integer with optional "
			 "suffix K, M, G or T)");
	t_check_int(parse(&cfg, "--tap=1"), -EINVAL);
	t_check_str(err, "--tap: takes no value");

	/* out of range, with the range in units that can be typed back */
	t_check_int(parse(&cfg, "--cs=0"), -EINVAL);
	t_check_str(err, "--cs: 0ns is out of range; allowed 10us..1s");
	t_check_int(parse(&cfg, "--cs=1.5s"), -EINVAL);
	t_check_str(err, "--cs: 1500ms is out of range; allowed 10us..1s");
	t_check_int(parse(&cfg, "--cs=99999999999999999999"), -EINVAL);
	t_check_str(err, "--cs: '99999999999999999999' is out of range; "
			 "allowed 10us..1s");
	t_check_int(parse(&cfg, "--prio", "100"), -EINVAL);
	t_check_str(err, "--prio: 100 is out of range; allowed 1..99");
	t_check_int(parse(&cfg, "--prio=0"), -EINVAL);
	t_check_str(err, "--prio: 0 is out of range; allowed 1..99");
	t_check_int(parse(&cfg, "--prio=99999999999999999999"), -EINVAL);
	t_check_str(err, "--prio: '99999999999999999999' is out of range; "
			 "allowed 1..99");
	t_check_int(parse(&cfg, "--nice=-21"), -EINVAL);
	t_check_str(err, "--nice: -21 is out of range; allowed -20..19");
	t_check_int(parse(&cfg, "--bs=2G"), -EINVAL);
	t_check_str(err, "--bs: 2G is out of range; allowed 4K..1G");
	t_check_int(parse(&cfg, "-d", "50ms"), -EINVAL);
	t_check_str(err,
		    "--duration: 50ms is out of range; allowed 100ms..60m");
	t_check_int(parse(&cfg, "-d", "61m"), -EINVAL);
	t_check_str(err, "--duration: 61m is out of range; allowed 100ms..60m");
	/* a row without a range takes any integer */
	t_check_int(parse(&cfg, "--count=-9223372036854775808"), 2);
	t_check(cfg.count == INT64_MIN);

	/* choices */
	t_check_int(parse(&cfg, "--protocol=inheritt"), -EINVAL);
	t_check_str(err, "--protocol: 'inheritt' is not one of "
			 "none|inherit|protect|all; did you mean 'inherit'?");
	t_check_int(parse(&cfg, "--protocol", "zzzzzzzz"), -EINVAL);
	t_check_str(err, "--protocol: 'zzzzzzzz' is not one of "
			 "none|inherit|protect|all");
	t_check_int(parse(&cfg, "--protocol=prot"), -EINVAL);
	t_check_contains(err, "did you mean 'protect'?");

	/* compiled out: refused with the reason, never "unknown" */
	t_check_int(parse(&cfg, "--uring"), -EINVAL);
	t_check_str(err, "--uring: not supported: built without liburing");

	/* the error stops the parse: nothing after it is applied */
	t_check_int(parse(&cfg, "--prio=0", "-v"), -EINVAL);
	t_check_int(cfg.verbose, 0);
}

static void test_set(void)
{
	struct tcfg cfg;

	t_check_int(parse(&cfg, NULL), 1);
	t_check_int(il_opt_set(tables, &cfg, "cs", "300us", err, sizeof(err)),
		    0);
	t_check_int(cfg.cs_ns, 300 * IL_NSEC_PER_USEC);
	t_check_int(
		il_opt_set(tables, &cfg, "protocol", "all", err, sizeof(err)),
		0);
	t_check_int(cfg.protocol, 3);
	t_check_int(il_opt_set(tables, &cfg, "verbose", NULL, err, sizeof(err)),
		    0);
	t_check_int(cfg.verbose, 1);
	t_check_int(
		il_opt_set(tables, &cfg, "verbose", "off", err, sizeof(err)),
		0);
	t_check_int(cfg.verbose, 0);
	t_check_int(
		il_opt_set(tables, &cfg, "verbose", "maybe", err, sizeof(err)),
		-EINVAL);
	t_check_contains(err, "--verbose: 'maybe' is not a boolean");
	t_check_int(il_opt_set(tables, &cfg, "prio", "100", err, sizeof(err)),
		    -EINVAL);
	t_check_str(err, "--prio: 100 is out of range; allowed 1..99");
	t_check_int(cfg.prio, 50);
	t_check_int(il_opt_set(tables, &cfg, "prio", NULL, err, sizeof(err)),
		    -EINVAL);
	t_check_str(err, "--prio: missing argument");
	t_check_int(il_opt_set(tables, &cfg, "duraton", "1s", err, sizeof(err)),
		    -EINVAL);
	t_check_str(err,
		    "unknown option '--duraton'; did you mean '--duration'?");
	t_check_int(il_opt_set(tables, &cfg, "uring", "1", err, sizeof(err)),
		    -EINVAL);
	t_check_str(err, "--uring: not supported: built without liburing");
	/* a NULL error buffer is allowed */
	t_check_int(il_opt_set(tables, &cfg, "prio", "0", NULL, 0), -EINVAL);
}

static void test_lookup(void)
{
	char buf[16];
	const struct il_opt *o = il_opt_find(tables, "protocol");

	t_check(o != NULL && o->type == IL_OPT_CHOICE);
	t_check(il_opt_find(tables, "duration") == &il_common_opts[8]);
	/* --exit-status's choices in the order of enum il_exit_style */
	o = il_opt_find(tables, "exit-status");
	t_check_str(
		il_opt_choice_name(o, IL_EXIT_STYLE_INVLAB, buf, sizeof(buf)),
		"invlab");
	t_check_str(il_opt_choice_name(o, IL_EXIT_STYLE_KSELFTEST, buf,
				       sizeof(buf)),
		    "kselftest");
	t_check_str(o->def, "invlab");
	o = il_opt_find(tables, "protocol");
	t_check(il_opt_find(tables, "dur") == NULL);
	t_check(il_opt_find(tables, "") == NULL);
	t_check_str(il_opt_choice_name(o, 0, buf, sizeof(buf)), "none");
	t_check_str(il_opt_choice_name(o, 1, buf, sizeof(buf)), "inherit");
	t_check_str(il_opt_choice_name(o, 3, buf, sizeof(buf)), "all");
	t_check(il_opt_choice_name(o, 4, buf, sizeof(buf)) == NULL);
	t_check(il_opt_choice_name(o, -1, buf, sizeof(buf)) == NULL);
	t_check(il_opt_choice_name(il_opt_find(tables, "prio"), 0, buf,
				   sizeof(buf)) == NULL);

	t_check_str(il_opt_suggest(tables, "duraton"), "duration");
	t_check_str(il_opt_suggest(tables, "versoin"), "version");
	t_check_str(il_opt_suggest(tables, "jsno"), "json");
	t_check_str(il_opt_suggest(tables, "quite"), "quiet");
	t_check_str(il_opt_suggest(tables, "protocoll"), "protocol");
	t_check_str(il_opt_suggest(tables, "prot"), "protocol");
	t_check(il_opt_suggest(tables, "xyz") == NULL);
	t_check(il_opt_suggest(tables, "ab") == NULL);
	t_check(il_opt_suggest(tables, "completelydifferent") == NULL);
	/* "n" is a prefix of both --name and --nice: no guess */
	t_check(il_opt_suggest(tables, "n") == NULL);
}

/* Programming errors in a table are reported, naming the option. */
static void test_bad_tables(void)
{
	struct tcfg cfg;
	char *argv[] = { "prog", NULL };
	const struct il_opt bad_def[] = {
		{ .name = "cs",
		  .type = IL_OPT_DURATION,
		  .offset = OFF(cs_ns),
		  .def = "2xs",
		  .help = "x" },
		{ .name = NULL },
	};
	const struct il_opt bad_range_def[] = {
		{ .name = "prio",
		  .type = IL_OPT_INT,
		  .offset = OFF(prio),
		  .def = "0",
		  .min = 1,
		  .max = 99,
		  .help = "x" },
		{ .name = NULL },
	};
	const struct il_opt dup[] = {
		{ .name = "quiet",
		  .type = IL_OPT_FLAG,
		  .offset = OFF(verbose),
		  .help = "x" },
		{ .name = NULL },
	};
	const struct il_opt dup_short[] = {
		{ .name = "quieter",
		  .short_name = 'q',
		  .type = IL_OPT_FLAG,
		  .offset = OFF(verbose),
		  .help = "x" },
		{ .name = NULL },
	};
	const struct il_opt *const t1[] = { bad_def, NULL };
	const struct il_opt *const t2[] = { bad_range_def, NULL };
	const struct il_opt *const t3[] = { il_common_opts, dup, NULL };
	const struct il_opt *const t4[] = { il_common_opts, dup_short, NULL };

	t_check_int(il_opt_parse(1, argv, t1, &cfg, err, sizeof(err)), -EINVAL);
	t_check_contains(err, "bad default for --cs");
	t_check_contains(err, "'2xs' is not a duration");
	t_check_int(il_opt_parse(1, argv, t2, &cfg, err, sizeof(err)), -EINVAL);
	t_check_contains(err, "bad default for --prio");
	t_check_contains(err, "allowed 1..99");
	t_check_int(il_opt_parse(1, argv, t3, &cfg, err, sizeof(err)), -EINVAL);
	t_check_contains(err, "--quiet declared twice");
	t_check_int(il_opt_parse(1, argv, t4, &cfg, err, sizeof(err)), -EINVAL);
	t_check_contains(err, "-q declared twice");
}

/* Parsing is repeatable: no getopt state leaks from one call to the next. */
static void test_twice(void)
{
	struct tcfg a, b;

	t_check_int(parse(&a, "--prio=5", "-v", "op"), 3);
	t_check_int(a.prio, 5);
	t_check_int(a.verbose, 1);
	t_check_int(parse(&b, "-p", "6", "op"), 3);
	t_check_int(b.prio, 6);
	t_check_int(b.verbose, 0);
	t_check_int(parse(&b, "--duraton"), -EINVAL);
	t_check_int(parse(&b, "-q"), 2);
	t_check_int(b.c.quiet, 1);
	t_check_int(b.c.duration_ns, 3 * IL_NSEC_PER_SEC);
}

static char *capture_help(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	il_opt_help(f, "test-opt", "[OPTIONS] [JOBFILE]",
		    "Demonstrate the option table.", tables);
	fclose(f);
	return buf;
}

/* the column at which needle starts on its line, or -1 */
static int column_of(const char *text, const char *needle)
{
	const char *p = strstr(text, needle), *line;

	if (!p)
		return -1;
	for (line = p; line > text && line[-1] != '\n'; line--)
		;
	return (int)(p - line);
}

static void test_help(void)
{
	char *h = capture_help();
	int longest = 0;

	t_check_contains(h, "Usage: test-opt [OPTIONS] [JOBFILE]\n");
	t_check_contains(h, "Demonstrate the option table.");
	t_check_contains(h, "\nOptions:\n");
	for (const struct il_opt *const *t = tables; *t; t++)
		for (const struct il_opt *o = *t; o->name; o++) {
			char want[64];

			snprintf(want, sizeof(want), "--%s", o->name);
			t_check_contains(h, want);
			if (o->short_name) {
				snprintf(want, sizeof(want), "  -%c, --%s",
					 o->short_name, o->name);
				t_check_contains(h, want);
			}
		}
	t_check_contains(h, "  -d, --duration=TIME ");
	t_check_contains(h, "      --json=FILE ");
	t_check_contains(h, "how long each configuration runs: alone, its");
	t_check_contains(h, "default: 3s");
	t_check_contains(h, "range: 100ms..60m");
	t_check_contains(h, "default: 2ms");
	t_check_contains(h, "range: 10us..1s");
	t_check_contains(h, "a bare number is in ms");
	t_check_contains(h, "range: 1..99");
	t_check_contains(h, "range: -20..19");
	t_check_contains(h, "default: 64K");
	t_check_contains(h, "range: 4K..1G");
	t_check_contains(h, "one of: none|inherit|protect|all");
	t_check_contains(h, "default: inherit");
	/* may wrap after "(not" */
	t_check_contains(h, "supported: built without liburing");
	t_check_contains(h, "--protocol=CHOICE");
	t_check_contains(h, "--count=N");

	/* neat: no line over 79 columns, help texts start in one column */
	for (char *line = h, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			break;
		if (nl - line > longest)
			longest = (int)(nl - line);
	}
	t_check(longest <= 79);
	t_check(column_of(h, "how long each configuration") > 21);
	t_check_int(column_of(h, "how long each configuration"),
		    column_of(h, "write results as JSON"));
	t_check_int(column_of(h, "how long each configuration"),
		    column_of(h, "print the version"));
	free(h);
}

static void test_man(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	il_opt_man(f, tables);
	fclose(f);
	t_check(!strncmp(buf, ".SH OPTIONS\n", 12));
	t_check_contains(buf, ".TP\n");
	t_check_contains(buf,
			 "\\fB\\-d\\fR, \\fB\\-\\-duration\\fR=\\fITIME\\fR\n");
	t_check_contains(buf, "\\fB\\-\\-tap\\fR\n");
	t_check_contains(buf, "range: 100ms..60m");
	/* sentences: a capital first, a full stop last */
	t_check_contains(buf, "\nHow long each configuration runs: alone, its "
			      "length; ");
	t_check_contains(buf, " the most it runs short of the target "
			      "(default: 3s; range: 100ms..60m).\n");
	t_check_contains(buf, "\nSay more.\n");
	for (const struct il_opt *const *t = tables; *t; t++)
		for (const struct il_opt *o = *t; o->name; o++) {
			char want[64];
			size_t k = (size_t)snprintf(want, sizeof(want),
						    "\\fB\\-\\-");

			/* groff wants every '-' of the name escaped too */
			for (const char *c = o->name;
			     *c && k + 3 < sizeof(want); c++) {
				if (*c == '-')
					want[k++] = '\\';
				want[k++] = *c;
			}
			snprintf(want + k, sizeof(want) - k, "\\fR");
			t_check_contains(buf, want);
		}
	/* one .TP per option */
	{
		int n = 0, rows = 0;

		for (char *p = buf; (p = strstr(p, ".TP\n")); p++)
			n++;
		for (const struct il_opt *const *t = tables; *t; t++)
			for (const struct il_opt *o = *t; o->name; o++)
				rows++;
		t_check_int(n, rows);
	}
	/* no bare '-' left for groff to turn into a hyphen */
	t_check(strstr(buf, " --") == NULL);
	free(buf);
}

/* Which options the command line named, as opposed to defaults */
static void test_was_set(void)
{
	struct tcfg cfg;
	struct {
		int64_t prio, nice;
	} plain;

	/* nothing given: every row is a default, and il_opt_set (job files,
	 * --set) is not the command line */
	t_check_int(parse(&cfg, "op"), 1);
	t_check(!il_opt_was_set(&cfg, "duration"));
	t_check(!il_opt_was_set(&cfg, "prio"));
	t_check_int(il_opt_set(tables, &cfg, "prio", "9", err, sizeof(err)), 0);
	t_check(!il_opt_was_set(&cfg, "prio"));

	/* the default's own value still counts as given */
	t_check_int(parse(&cfg, "--duration=3s"), 2);
	t_check_int(cfg.c.duration_ns, 3 * IL_NSEC_PER_SEC);
	t_check(il_opt_was_set(&cfg, "duration"));
	t_check(!il_opt_was_set(&cfg, "repeat"));

	/* every form: "--x v", "-x v", attached, clusters, flags */
	t_check_int(parse(&cfg, "--prio", "50", "-c3", "-qvd", "1s", "a",
			  "--tap", "-Pnone"),
		    8);
	t_check(il_opt_was_set(&cfg, "prio"));
	t_check(il_opt_was_set(&cfg, "cs"));
	t_check(il_opt_was_set(&cfg, "quiet"));
	t_check(il_opt_was_set(&cfg, "verbose"));
	t_check(il_opt_was_set(&cfg, "duration"));
	t_check(il_opt_was_set(&cfg, "tap"));
	t_check(il_opt_was_set(&cfg, "protocol"));
	/* rows of both tables, and their neighbours, untouched */
	t_check(!il_opt_was_set(&cfg, "nice"));
	t_check(!il_opt_was_set(&cfg, "bs"));
	t_check(!il_opt_was_set(&cfg, "json"));
	t_check(!il_opt_was_set(&cfg, "help"));
	t_check(!il_opt_was_set(&cfg, "count"));

	/* after "--" nothing is an option */
	t_check_int(parse(&cfg, "--", "--nice=3"), 2);
	t_check(!il_opt_was_set(&cfg, "nice"));

	/* a second parse starts afresh */
	t_check_int(parse(&cfg, "--nice=3"), 2);
	t_check(il_opt_was_set(&cfg, "nice"));
	t_check(!il_opt_was_set(&cfg, "prio"));
	t_check(!il_opt_was_set(&cfg, "duration"));

	/* a rejected value is not recorded as given */
	t_check_int(parse(&cfg, "--prio=0"), -EINVAL);
	t_check(!il_opt_was_set(&cfg, "prio"));

	/* unknown names, a zeroed struct, NULL: never "given" */
	t_check_int(parse(&cfg, "--nice=3"), 2);
	t_check(!il_opt_was_set(&cfg, "nicer"));
	t_check(!il_opt_was_set(&cfg, NULL));
	t_check(!il_opt_was_set(NULL, "nice"));
	memset(&cfg, 0, sizeof(cfg));
	t_check(!il_opt_was_set(&cfg, "nice"));

	/*
	 * Without il_common_opts the struct has no common part: nothing is
	 * written beyond the rows' own fields.
	 */
	memset(&plain, 0xa5, sizeof(plain));
	{
		static const struct il_opt two[] = {
			{ .name = "prio",
			  .type = IL_OPT_INT,
			  .offset = 0,
			  .def = "1" },
			{ .name = "nice",
			  .type = IL_OPT_INT,
			  .offset = sizeof(int64_t),
			  .def = "2" },
			{ .name = NULL },
		};
		const struct il_opt *const t2[] = { two, NULL };
		char *argv[] = { "prog", "--nice=4", NULL };

		t_check_int(il_opt_parse(2, argv, t2, &plain, err, sizeof(err)),
			    2);
		t_check_int(plain.prio, 1);
		t_check_int(plain.nice, 4);
	}
}

/* Too many rows to record is a table mistake, caught on every parse */
static void test_too_many_rows(void)
{
	static struct il_opt many[IL_OPT_MAX_ROWS + 1];
	static char names[IL_OPT_MAX_ROWS][8];
	const struct il_opt *const t[] = { il_common_opts, many, NULL };
	struct tcfg cfg;
	char *argv[] = { "prog", NULL };
	int rows = 0;

	for (const struct il_opt *o = il_common_opts; o->name; o++)
		rows++;
	/* exactly the limit is fine, one more is refused */
	for (int i = 0; i < IL_OPT_MAX_ROWS - rows; i++) {
		snprintf(names[i], sizeof(names[i]), "x%d", i);
		many[i] = (struct il_opt){ .name = names[i],
					   .type = IL_OPT_FLAG,
					   .offset = OFF(verbose) };
	}
	t_check_int(il_opt_parse(1, argv, t, &cfg, err, sizeof(err)), 1);
	snprintf(names[IL_OPT_MAX_ROWS - rows], 8, "y");
	many[IL_OPT_MAX_ROWS - rows] = (struct il_opt){
		.name = names[IL_OPT_MAX_ROWS - rows],
		.type = IL_OPT_FLAG,
		.offset = OFF(verbose),
	};
	t_check_int(il_opt_parse(1, argv, t, &cfg, err, sizeof(err)), -EINVAL);
	t_check_contains(err, "more than 128 options");
}

/* --help=man: the same il_opt_help call writes the OPTIONS section */
static void test_help_man(void)
{
	struct tcfg cfg;
	char *h, *man = NULL;
	size_t len = 0;
	FILE *f;

	t_check_int(parse(&cfg, "--help=man"), 2);
	t_check_int(cfg.c.help, 1);
	t_check(il_opt_was_set(&cfg, "help"));
	h = capture_help();
	f = open_memstream(&man, &len);
	il_opt_man(f, tables);
	fclose(f);
	t_check_str(h, man);
	t_check(!strncmp(h, ".SH OPTIONS\n", 12));
	free(h);
	free(man);

	/* the next parse of an argv is back to the text help */
	t_check_int(parse(&cfg, "--help"), 2);
	h = capture_help();
	t_check(!strncmp(h, "Usage: test-opt", 15));
	free(h);
	t_check_int(parse(&cfg, "--help=man"), 2);
	t_check_int(parse(&cfg, NULL), 1);
	h = capture_help();
	t_check(!strncmp(h, "Usage: test-opt", 15));
	free(h);

	/* no other value, and no value for other flags */
	t_check_int(parse(&cfg, "--help=roff"), -EINVAL);
	t_check_str(err, "--help: takes no value");
	t_check_int(parse(&cfg, "--verbose=man"), -EINVAL);
	t_check_str(err, "--verbose: takes no value");
	h = capture_help();
	t_check(!strncmp(h, "Usage: test-opt", 15));
	free(h);
	/* hidden: the text help does not offer it */
	h = capture_help();
	t_check(strstr(h, "=man") == NULL);
	free(h);
}

/*
 * --help=completion: the same il_opt_help call writes the table the bash
 * completion is generated from: the usage, then every row with what its
 * value is (a choice lists its choices, FILE and DIR metavars are files
 * and directories), rows of a feature compiled out included
 */
static void test_help_completion(void)
{
	struct tcfg cfg;
	char *h;

	t_check_int(parse(&cfg, "--help=completion"), 2);
	t_check_int(cfg.c.help, 1);
	h = capture_help();
	t_check(!strncmp(h, "usage\t[OPTIONS] [JOBFILE]\n", 26));
	t_check_contains(h, "\noption\t--help\t-h\tflag\t\n");
	t_check_contains(h, "\noption\t--prio\t-p\tvalue\t\n");
	t_check_contains(h, "\noption\t--protocol\t-P\tchoice\t"
			    "none|inherit|protect|all\n");
	t_check_contains(h, "\noption\t--trace\t\tchoice\tauto|on|off\n");
	t_check_contains(h, "\noption\t--json\t\tfile\t\n");
	t_check_contains(h, "\noption\t--trace-export\t\tdir\t\n");
	t_check_contains(h, "\noption\t--uring\t\tflag\t\n");
	t_check(strstr(h, "Usage:") == NULL);
	free(h);
	/* the next parse of an argv is back to the text help */
	t_check_int(parse(&cfg, "--help"), 2);
	h = capture_help();
	t_check(!strncmp(h, "Usage: test-opt", 15));
	t_check(strstr(h, "=completion") == NULL);
	free(h);
}

/*
 * --samples and --percentile: the target they ask for, the rule that
 * sizes it for a percentile (one sample beyond it), the larger of the two
 * when both are given, and what is refused.
 */
static void test_samples(void)
{
	struct tcfg cfg;

	t_check_int(parse(&cfg, NULL), 1);
	t_check_int(cfg.c.samples, 0);
	t_check_int(cfg.c.percentile, 0);
	t_check_int(il_opt_samples(&cfg.c), 0);
	t_check(il_opt_percentile(&cfg.c) == 0);
	t_check_int(parse(&cfg, "--samples", "250"), 3);
	t_check_int(il_opt_samples(&cfg.c), 250);
	t_check_int(parse(&cfg, "--percentile=p99"), 2);
	t_check_int(il_opt_samples(&cfg.c), 100);
	t_check(il_opt_percentile(&cfg.c) == 0.99);
	t_check_int(parse(&cfg, "--percentile", "p999"), 3);
	t_check_int(il_opt_samples(&cfg.c), 1000);
	t_check(il_opt_percentile(&cfg.c) == 0.999);
	t_check_int(parse(&cfg, "--percentile", "p9999"), 3);
	t_check_int(il_opt_samples(&cfg.c), 10000);
	/* both: the larger, whichever it is */
	t_check_int(parse(&cfg, "--samples", "50", "--percentile", "p999"), 5);
	t_check_int(il_opt_samples(&cfg.c), 1000);
	t_check_int(parse(&cfg, "--samples", "5000", "--percentile", "p999"),
		    5);
	t_check_int(il_opt_samples(&cfg.c), 5000);
	t_check_int(parse(&cfg, "--samples=1000", "--percentile=p999"), 3);
	t_check_int(il_opt_samples(&cfg.c), 1000);
	t_check_int(parse(&cfg, "--samples", "1000000"), 3);
	t_check_int(il_opt_samples(&cfg.c), IL_MAX_SAMPLES_TARGET);
	/* refused, with the range or the choices */
	t_check_int(parse(&cfg, "--samples", "-1"), -EINVAL);
	t_check_str(err, "--samples: -1 is out of range; allowed 0..1000000");
	t_check_int(parse(&cfg, "--samples", "1000001"), -EINVAL);
	t_check_int(parse(&cfg, "--samples", "1k"), -EINVAL);
	t_check_int(parse(&cfg, "--percentile", "p95"), -EINVAL);
	t_check_contains(err, "is not one of off|p99|p999|p9999");
	t_check(il_opt_samples(NULL) == 0);
	t_check(il_opt_percentile(NULL) == 0);
}

/*
 * How a run ends (il_opt_run_limit): a program's default run applies
 * only when the command line names none of --duration, --samples and
 * --percentile; any of them decides alone.
 */
static void test_run_limit(void)
{
	const uint64_t six = 6 * IL_NSEC_PER_SEC;
	struct il_run_limit l;
	struct tcfg cfg;

	/* nothing named: the default run, its tail as a target */
	t_check_int(parse(&cfg, NULL), 1);
	il_opt_run_limit(&cfg.c, 0.999, six, &l);
	t_check_int(l.samples, 1000);
	t_check_int(l.duration_ns, six);
	t_check(l.by_default);
	il_opt_run_limit(&cfg.c, 0.99, 5 * IL_NSEC_PER_SEC, &l);
	t_check_int(l.samples, 100);
	t_check_int(l.duration_ns, 5 * IL_NSEC_PER_SEC);
	t_check(l.by_default);
	/* a default with no tail: its bound, no target */
	il_opt_run_limit(&cfg.c, 0, six, &l);
	t_check_int(l.samples, 0);
	t_check_int(l.duration_ns, six);
	t_check(l.by_default);
	/* no default: --duration's default, no target */
	il_opt_run_limit(&cfg.c, 0.999, 0, &l);
	t_check_int(l.samples, 0);
	t_check_int(l.duration_ns, 3 * IL_NSEC_PER_SEC);
	t_check(!l.by_default);
	/* -d alone: how long each run lasts, the default target off */
	t_check_int(parse(&cfg, "-d", "10s"), 3);
	il_opt_run_limit(&cfg.c, 0.999, six, &l);
	t_check_int(l.samples, 0);
	t_check_int(l.duration_ns, 10 * IL_NSEC_PER_SEC);
	t_check(!l.by_default);
	/* even when it is the default's value */
	t_check_int(parse(&cfg, "--duration=3s"), 2);
	il_opt_run_limit(&cfg.c, 0.999, six, &l);
	t_check_int(l.samples, 0);
	t_check_int(l.duration_ns, 3 * IL_NSEC_PER_SEC);
	/* --samples alone: its target, bounded by the target's bound */
	t_check_int(parse(&cfg, "--samples", "500"), 3);
	il_opt_run_limit(&cfg.c, 0.999, six, &l);
	t_check_int(l.samples, 500);
	t_check_int(l.duration_ns, IL_SAMPLES_BOUND_NS);
	t_check(!l.by_default);
	/* with -d: that bound */
	t_check_int(parse(&cfg, "--samples", "500", "-d", "2s"), 5);
	il_opt_run_limit(&cfg.c, 0.999, six, &l);
	t_check_int(l.samples, 500);
	t_check_int(l.duration_ns, 2 * IL_NSEC_PER_SEC);
	/* --percentile: its own target, not the default's */
	t_check_int(parse(&cfg, "--percentile", "p99"), 3);
	il_opt_run_limit(&cfg.c, 0.999, six, &l);
	t_check_int(l.samples, 100);
	t_check_int(l.duration_ns, IL_SAMPLES_BOUND_NS);
	t_check(!l.by_default);
	/* --samples 0: no target at all, --duration's default */
	t_check_int(parse(&cfg, "--samples", "0"), 3);
	il_opt_run_limit(&cfg.c, 0.999, six, &l);
	t_check_int(l.samples, 0);
	t_check_int(l.duration_ns, 3 * IL_NSEC_PER_SEC);
	t_check(!l.by_default);
	/* options that do not size a run leave the default run alone */
	t_check_int(parse(&cfg, "-q", "--repeat", "2"), 4);
	il_opt_run_limit(&cfg.c, 0.999, six, &l);
	t_check_int(l.samples, 1000);
	t_check(l.by_default);
	il_opt_run_limit(NULL, 0.999, six, &l);
	t_check_int(l.samples, 0);
	t_check_int(l.duration_ns, 0);
}

/*
 * What --help gives as a default: def_help when a row has it (shown,
 * never parsed), and a copy of il_common_opts that says so still records
 * which options argv named.
 */
static void test_def_help(void)
{
	struct il_opt common[IL_OPT_MAX_ROWS];
	const struct il_opt *const t2[] = { common, test_opts, NULL };
	struct tcfg cfg;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int n = 0;

	for (const struct il_opt *o = il_common_opts; o->name; o++)
		common[n++] = *o;
	common[n] = (struct il_opt){ .name = NULL };
	for (int i = 0; i < n; i++)
		if (!strcmp(common[i].name, "duration"))
			common[i].def_help = "none 6s, inherit 5s";
	f = open_memstream(&buf, &len);
	il_opt_help(f, "test-opt", NULL, NULL, t2);
	fclose(f);
	t_check_contains(buf, "default: none 6s,");
	t_check(!strstr(buf, "default: 3s"));
	free(buf);
	/* the default applied is .def's */
	memset(&cfg, 0, sizeof(cfg));
	t_check_int(il_opt_parse(1, (char *[]){ (char *)"prog", NULL }, t2,
				 &cfg, err, sizeof(err)),
		    1);
	t_check_int(cfg.c.duration_ns, 3 * IL_NSEC_PER_SEC);
	t_check(!il_opt_was_set(&cfg, "duration"));
	t_check_int(il_opt_parse(3,
				 (char *[]){ (char *)"prog", (char *)"-d",
					     (char *)"2s", NULL },
				 t2, &cfg, err, sizeof(err)),
		    3);
	t_check(il_opt_was_set(&cfg, "duration"));
	t_check(!il_opt_was_set(&cfg, "samples"));
	/* a table that is not a copy (a row changed) is no common one:
	 * nothing is recorded */
	common[0].type = IL_OPT_INT;
	memset(&cfg, 0, sizeof(cfg));
	t_check_int(il_opt_parse(3,
				 (char *[]){ (char *)"prog", (char *)"-d",
					     (char *)"2s", NULL },
				 t2, &cfg, err, sizeof(err)),
		    3);
	t_check(!il_opt_was_set(&cfg, "duration"));
}

int main(void)
{
	test_samples();
	test_run_limit();
	test_def_help();
	test_defaults();
	test_forms();
	test_operands();
	test_errors();
	test_set();
	test_lookup();
	test_bad_tables();
	test_twice();
	test_help();
	test_man();
	test_was_set();
	test_too_many_rows();
	test_help_man();
	test_help_completion();
	return t_done("test-opt");
}
