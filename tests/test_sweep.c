// SPDX-License-Identifier: MIT
/*
 * Unit tests for lib/scenario/sweep.c: "NAME=V1,V2,..." read into a name
 * and its values, every refusal with its message (the messages are the
 * user interface), and the values held to an option table as the option
 * itself holds them: its syntax, its range, one number given twice.
 *
 * Run: meson test -C build sweep   (or build/tests/test-sweep)
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "invlab/sweep.h"
#include "invlab/time.h"
#include "t_util.h"

struct tcfg {
	int64_t groups;
	uint64_t size;
	uint64_t cs_ns;
	int pipe;
	const char *name;
};

#define OFF(f) offsetof(struct tcfg, f)

static const struct il_opt opts[] = {
	{ .name = "groups",
	  .type = IL_OPT_INT,
	  .offset = OFF(groups),
	  .def = "10",
	  .min = 1,
	  .max = 1000 },
	{ .name = "size",
	  .type = IL_OPT_SIZE,
	  .offset = OFF(size),
	  .def = "100",
	  .min = 1,
	  .max = 65536 },
	{ .name = "cs",
	  .type = IL_OPT_DURATION,
	  .offset = OFF(cs_ns),
	  .def = "2ms",
	  .min = 10 * (int64_t)IL_NSEC_PER_USEC,
	  .max = (int64_t)IL_NSEC_PER_SEC },
	{ .name = "pipe", .type = IL_OPT_FLAG, .offset = OFF(pipe) },
	{ .name = "name", .type = IL_OPT_STRING, .offset = OFF(name) },
	{ .name = NULL },
};
static const struct il_opt *const tables[] = { opts, NULL };

/* parse arg with at most max values: the return, err in buf */
static int parse(const char *arg, int max, struct il_sweep *s, char *buf,
		 size_t len)
{
	int ret = il_sweep_parse(arg, max, s, buf, len);

	if (ret)
		il_sweep_free(s);
	return ret;
}

static void test_parse(void)
{
	struct il_sweep s;
	char err[512], many[512] = "groups=";

	t_check_int(parse("groups=1,2,4,8,16", 0, &s, err, sizeof(err)), 0);
	t_check_str(err, "");
	t_check_str(s.name, "groups");
	t_check_int(s.n, 5);
	t_check_str(s.v[0], "1");
	t_check_str(s.v[4], "16");
	t_check_str(s.arg, "groups=1,2,4,8,16");
	il_sweep_free(&s);
	t_check(s.text == NULL && s.n == 0);
	il_sweep_free(&s); /* twice is harmless */

	/* trimmed; one value is a sweep of one; a name may hold dots */
	t_check_int(
		parse(" M.protocol = none , inherit ", 0, &s, err, sizeof(err)),
		0);
	t_check_str(s.name, "M.protocol");
	t_check_int(s.n, 2);
	t_check_str(s.v[0], "none");
	t_check_str(s.v[1], "inherit");
	il_sweep_free(&s);
	t_check_int(parse("loops=5", 0, &s, err, sizeof(err)), 0);
	t_check_int(s.n, 1);
	il_sweep_free(&s);
	/* a value may hold '=' (after the first, the name's) */
	t_check_int(parse("k=a=b,c", 0, &s, err, sizeof(err)), 0);
	t_check_str(s.v[0], "a=b");
	il_sweep_free(&s);

	/* the refusals, each naming what was given */
	t_check_int(parse("groups", 0, &s, err, sizeof(err)), -EINVAL);
	t_check_str(err, "--sweep groups: expected NAME=VALUE,VALUE,... (a "
			 "name, then its values separated by commas)");
	t_check_int(parse("=1,2", 0, &s, err, sizeof(err)), -EINVAL);
	t_check_str(err, "--sweep =1,2: no name before '='");
	t_check_int(parse(" =1", 0, &s, err, sizeof(err)), -EINVAL);
	t_check_contains(err, "no name before '='");
	t_check_int(parse("groups=", 0, &s, err, sizeof(err)), -EINVAL);
	t_check_str(err, "--sweep groups=: value 1 is empty (the values are "
			 "separated by single commas)");
	t_check_int(parse("groups=1,,2", 0, &s, err, sizeof(err)), -EINVAL);
	t_check_contains(err, "value 2 is empty");
	t_check_int(parse("groups=1,2,", 0, &s, err, sizeof(err)), -EINVAL);
	t_check_contains(err, "value 3 is empty");
	t_check_int(parse("groups=1, ,2", 0, &s, err, sizeof(err)), -EINVAL);
	t_check_contains(err, "value 2 is empty");
	t_check_int(parse("groups=1,4,1", 0, &s, err, sizeof(err)), -EINVAL);
	t_check_str(err, "--sweep groups=1,4,1: '1' is given twice");
	t_check_int(parse("groups=1, 1", 0, &s, err, sizeof(err)), -EINVAL);
	t_check_contains(err, "'1' is given twice");
	t_check_int(parse(NULL, 0, &s, err, sizeof(err)), -EINVAL);
	t_check_str(err, "--sweep: nothing to sweep");

	/* at most max values: max itself is fine, one more is not */
	t_check_int(parse("g=1,2,3", 3, &s, err, sizeof(err)), 0);
	il_sweep_free(&s);
	t_check_int(parse("g=1,2,3,4", 3, &s, err, sizeof(err)), -EINVAL);
	t_check_str(err, "--sweep g=1,2,3,4: more than 3 values (at most 3 "
			 "configurations a run)");
	/* and never more than IL_SWEEP_MAX_VALUES, whatever max says */
	for (int i = 1; i <= IL_SWEEP_MAX_VALUES; i++) {
		size_t n = strlen(many);

		snprintf(many + n, sizeof(many) - n, "%s%d", i > 1 ? "," : "",
			 i);
	}
	t_check_int(parse(many, 0, &s, err, sizeof(err)), 0);
	t_check_int(s.n, IL_SWEEP_MAX_VALUES);
	il_sweep_free(&s);
	t_check_int(parse(many, 1000, &s, err, sizeof(err)), 0);
	il_sweep_free(&s);
	strcat(many, ",65");
	t_check_int(parse(many, 0, &s, err, sizeof(err)), -EINVAL);
	t_check_contains(err, "more than 64 values");
}

/* check arg against the table: the return, values in vals */
static int check(const char *arg, long long *vals, char *err, size_t len)
{
	struct tcfg scratch = { .groups = 10, .size = 100 };
	struct il_sweep s;
	int ret = il_sweep_parse(arg, 0, &s, err, len);

	if (!ret)
		ret = il_sweep_check_opt(&s, tables, &scratch, vals, err, len);
	il_sweep_free(&s);
	return ret;
}

static void test_check_opt(void)
{
	long long v[IL_SWEEP_MAX_VALUES];
	char err[512], names[128];

	t_check_int(check("groups=1,2,4,8,16", v, err, sizeof(err)), 0);
	t_check_str(err, "");
	t_check_int(v[0], 1);
	t_check_int(v[4], 16);
	/* each value in the option's own syntax: units, suffixes */
	t_check_int(check("size=1K,100,64K", v, err, sizeof(err)), 0);
	t_check_int(v[0], 1024);
	t_check_int(v[1], 100);
	t_check_int(v[2], 65536);
	t_check_int(check("cs=1ms,500us,1s", v, err, sizeof(err)), 0);
	t_check_int(v[0], (long long)IL_NSEC_PER_MSEC);
	t_check_int(v[1], 500 * (long long)IL_NSEC_PER_USEC);
	t_check_int(v[2], (long long)IL_NSEC_PER_SEC);
	t_check_int(check("groups=1,4", NULL, err, sizeof(err)), 0);

	/* the range, at its edges: the option's message, its range */
	t_check_int(check("groups=1,1000", v, err, sizeof(err)), 0);
	t_check_int(check("groups=1,1001", v, err, sizeof(err)), -EINVAL);
	t_check_str(err, "--sweep groups=1,1001: --groups: 1001 is out of "
			 "range; allowed 1..1000");
	t_check_int(check("groups=0,4", v, err, sizeof(err)), -EINVAL);
	t_check_str(err, "--sweep groups=0,4: --groups: 0 is out of range; "
			 "allowed 1..1000");
	t_check_int(check("size=64K,65537", v, err, sizeof(err)), -EINVAL);
	t_check_contains(err, "--size: 65537 is out of range; allowed 1..64K");
	t_check_int(check("cs=10us,5us", v, err, sizeof(err)), -EINVAL);
	t_check_contains(err, "--cs: 5us is out of range; allowed 10us..1s");
	t_check_int(check("groups=1,x", v, err, sizeof(err)), -EINVAL);
	t_check_str(err, "--sweep groups=1,x: --groups: 'x' is not an integer");
	t_check_int(check("cs=1xs", v, err, sizeof(err)), -EINVAL);
	t_check_contains(err, "--cs: '1xs' is not a duration");

	/* one number twice, however spelt */
	t_check_int(check("groups=4,04", v, err, sizeof(err)), -EINVAL);
	t_check_str(err, "--sweep groups=4,04: '04' is '4' again (a value "
			 "given twice)");
	t_check_int(check("size=1024,2,1K", v, err, sizeof(err)), -EINVAL);
	t_check_contains(err, "'1K' is '1024' again");
	t_check_int(check("cs=1ms,1000us", v, err, sizeof(err)), -EINVAL);
	t_check_contains(err, "'1000us' is '1ms' again");
	/* neighbours are not twice */
	t_check_int(check("groups=4,5,3", v, err, sizeof(err)), 0);

	/* names: a misspelt one gets the closest that can be swept */
	t_check_int(check("grups=1,2", v, err, sizeof(err)), -EINVAL);
	t_check_str(err, "--sweep grups=1,2: no option 'grups' to sweep; did "
			 "you mean 'groups'?");
	t_check_int(check("siz=1", v, err, sizeof(err)), -EINVAL);
	t_check_contains(err, "did you mean 'size'?");
	/* never one that cannot be: "nam" is not a near miss of "name" */
	t_check_int(check("nam=1", v, err, sizeof(err)), -EINVAL);
	t_check_str(err, "--sweep nam=1: 'nam' cannot be swept (these can: "
			 "groups, size, cs)");
	t_check_int(check("pipe=0,1", v, err, sizeof(err)), -EINVAL);
	t_check_str(err, "--sweep pipe=0,1: 'pipe' cannot be swept (these "
			 "can: groups, size, cs)");
	t_check_int(check("name=a,b", v, err, sizeof(err)), -EINVAL);
	t_check_contains(err, "'name' cannot be swept");
	t_check_int(check("zzzzzz=1", v, err, sizeof(err)), -EINVAL);
	t_check_contains(err, "'zzzzzz' cannot be swept");

	il_sweep_names(tables, names, sizeof(names));
	t_check_str(names, "groups, size, cs");
	il_sweep_names(NULL, names, sizeof(names));
	t_check_str(names, "");
}

int main(void)
{
	test_parse();
	test_check_opt();
	return t_done("sweep");
}
