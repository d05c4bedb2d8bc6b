// SPDX-License-Identifier: MIT
/*
 * Reporters: the JSON writer and envelope, histograms in JSON, TAP, text
 * tables and atomic result files.
 *
 * The JSON is parsed back with json-c when the build has it, because the
 * point of the format is that other tools can read it: a writer that
 * only matches its own expectations would not catch an escape that a
 * real parser rejects.  Without json-c a structural check stands in.
 * TAP and tables are compared byte for byte, since meson and people
 * parse them by position.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <invlab/hist.h>
#include <invlab/report.h>
#include <invlab/sysinfo.h>

#include "config.h"
#include "t_util.h"

#if HAVE_JSON_C
#include <json-c/json.h>
#endif

/* a string with every kind of character the escaper must handle */
static const char tricky[] =
	"quote\" back\\slash /slash tab\t nl\n cr\r bs\b ff\f ctl\x01\x1f "
	"del\x7f utf8 \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";

static char *mem_text(FILE *f, char **buf)
{
	fclose(f);
	return *buf;
}

/* ------------------------------------------------------------------ */

/* the same document, pretty or compact */
static char *layout_text(bool pretty, char **buf)
{
	struct il_json j;
	size_t len = 0;
	FILE *f = open_memstream(buf, &len);

	il_json_init(&j, f);
	if (pretty)
		il_json_set_pretty(&j, true);
	il_json_begin_object(&j, NULL);
	il_json_int(&j, "a", -3);
	il_json_begin_array(&j, "b");
	il_json_str(&j, NULL, "x");
	il_json_null(&j, NULL);
	il_json_bool(&j, NULL, true);
	il_json_end_array(&j);
	il_json_begin_object(&j, "c");
	il_json_end_object(&j);
	il_json_double(&j, "d", 0.1);
	il_json_double(&j, "inf", INFINITY);
	il_json_double(&j, "nan", NAN);
	il_json_uint(&j, "u", UINT64_MAX);
	il_json_int(&j, "i", INT64_MIN);
	il_json_str(&j, "s", "a\"\\\n\x01");
	il_json_str(&j, "n", NULL);
	il_json_end_object(&j);
	t_check_int(il_json_error(&j), 0);
	return mem_text(f, buf);
}

static void test_json_layout(void)
{
	struct il_json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	/* compact by default: no white space but the final newline */
	t_check_str(layout_text(false, &buf),
		    "{\"a\":-3,\"b\":[\"x\",null,true],\"c\":{},\"d\":0.1,"
		    "\"inf\":null,\"nan\":null,\"u\":18446744073709551615,"
		    "\"i\":-9223372036854775808,"
		    "\"s\":\"a\\\"\\\\\\n\\u0001\",\"n\":null}\n");
	free(buf);
	buf = NULL;
	t_check_str(layout_text(true, &buf),
		    "{\n"
		    "  \"a\": -3,\n"
		    "  \"b\": [\n"
		    "    \"x\",\n"
		    "    null,\n"
		    "    true\n"
		    "  ],\n"
		    "  \"c\": {},\n"
		    "  \"d\": 0.1,\n"
		    "  \"inf\": null,\n"
		    "  \"nan\": null,\n"
		    "  \"u\": 18446744073709551615,\n"
		    "  \"i\": -9223372036854775808,\n"
		    "  \"s\": \"a\\\"\\\\\\n\\u0001\",\n"
		    "  \"n\": null\n"
		    "}\n");
	free(buf);

	/* a histogram's bins, compact and pretty */
	for (int pretty = 0; pretty < 2; pretty++) {
		struct il_hist h;

		il_hist_init(&h);
		il_hist_record(&h, 7);
		il_hist_record(&h, 7);
		f = open_memstream(&buf, &len);
		il_json_init(&j, f);
		il_json_set_pretty(&j, pretty);
		il_json_begin_object(&j, NULL);
		il_json_hist(&j, "x_ns", &h);
		il_json_end_object(&j);
		t_check_contains(mem_text(f, &buf),
				 pretty ? "\"bins\": [\n      [7, 2]\n    ]"
					: "\"bins\":[[7,2]]}");
		free(buf);
	}

	/* doubles: short when exact, 17 digits when needed, C locale */
	f = open_memstream(&buf, &len);
	il_json_init(&j, f);
	il_json_begin_array(&j, NULL);
	il_json_double(&j, NULL, 1.5);
	il_json_double(&j, NULL, 1.0 / 3.0);
	il_json_double(&j, NULL, 1e300);
	il_json_double(&j, NULL, -0.25);
	il_json_end_array(&j);
	t_check_str(mem_text(f, &buf),
		    "[1.5,0.33333333333333331,1e+300,-0.25]\n");
	free(buf);

	/* errors are sticky and reported */
	f = open_memstream(&buf, &len);
	il_json_init(&j, f);
	il_json_end_object(&j);
	t_check_int(il_json_error(&j), -EINVAL);
	il_json_int(&j, "after", 1);
	t_check_str(mem_text(f, &buf), "");
	free(buf);

	f = open_memstream(&buf, &len);
	il_json_init(&j, f);
	for (int i = 0; i < IL_JSON_MAX_DEPTH + 2; i++)
		il_json_begin_array(&j, NULL);
	t_check_int(il_json_error(&j), -E2BIG);
	fclose(f);
	free(buf);

	il_json_init(&j, NULL);
	il_json_int(&j, "x", 1);
	t_check_int(il_json_error(&j), -EINVAL);
}

/* ------------------------------------------------------------------ */

static void fill_hist(struct il_hist *h)
{
	uint64_t seed = 42;
	int i;

	il_hist_init(h);
	/* 500 samples: enough for p99, too few for p999 */
	for (i = 0; i < 500; i++)
		il_hist_record(h, 1000 + t_rand(&seed) % 1000000);
}

static char *write_report(const struct il_sysinfo *si, const struct il_hist *h,
			  const struct il_hist *empty)
{
	char *argv[] = { "test-report", "--flag", (char *)tricky, NULL };
	struct il_run_info ri = {
		.program = "test-report",
		.argc = 3,
		.argv = argv,
		.sys = si,
	};
	struct il_json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	clock_gettime(CLOCK_REALTIME, &ri.start);
	il_json_init(&j, f);
	il_report_begin(&j, &ri);
	il_json_begin_object(&j, "body");
	il_json_str(&j, "tricky", tricky);
	il_json_str(&j, "bad_utf8", "a\xff\xc3(b");
	il_json_begin_array(&j, "nested");
	il_json_int(&j, NULL, 1);
	il_json_begin_object(&j, NULL);
	il_json_bool(&j, "deep", true);
	il_json_begin_array(&j, "empty");
	il_json_end_array(&j);
	il_json_end_object(&j);
	il_json_end_array(&j);
	il_json_double(&j, "ratio", 0.1);
	il_json_hist(&j, "blocked_ns", h);
	il_json_hist(&j, "empty_ns", empty);
	il_json_end_object(&j);
	il_report_end(&j, 3);
	t_check_int(il_json_error(&j), 0);
	return mem_text(f, &buf);
}

#if HAVE_JSON_C
static struct json_object *get(struct json_object *o, const char *path)
{
	char key[64];
	const char *p = path;

	/* "a.b.c" */
	while (o && *p) {
		size_t n = strcspn(p, ".");

		if (n >= sizeof(key))
			return NULL;
		memcpy(key, p, n);
		key[n] = '\0';
		if (!json_object_object_get_ex(o, key, &o))
			return NULL;
		p += n + (p[n] == '.');
	}
	return o;
}

static bool has_null(struct json_object *o, const char *path)
{
	struct json_object *parent = o, *v;
	const char *dot = strrchr(path, '.');
	char head[64];

	if (dot) {
		snprintf(head, sizeof(head), "%.*s", (int)(dot - path), path);
		parent = get(o, head);
		path = dot + 1;
	}
	/* json-c returns NULL for a member whose value is null */
	return parent && json_object_object_get_ex(parent, path, &v) && !v;
}

static const char *get_str(struct json_object *o, const char *path)
{
	o = get(o, path);
	return o && json_object_is_type(o, json_type_string)
		       ? json_object_get_string(o)
		       : NULL;
}

static int64_t get_int(struct json_object *o, const char *path)
{
	o = get(o, path);
	return o && json_object_is_type(o, json_type_int)
		       ? json_object_get_int64(o)
		       : INT64_MIN;
}

static void check_parsed(const char *text, const struct il_sysinfo *si,
			 const struct il_hist *h)
{
	struct json_object *root = json_tokener_parse(text), *o, *bins;
	struct utsname u;
	uint64_t v, sum = 0, prev = 0;
	const char *feat;
	size_t i, n;

	t_check(root != NULL);
	if (!root)
		return;
	t_check_int(get_int(root, "schema_version"), IL_JSON_SCHEMA_VERSION);
	t_check_str(get_str(root, "program"), "test-report");
	t_check_str(get_str(root, "version"), il_version());
	t_check_int(get_int(root, "return_code"), 3);

	o = get(root, "command_line");
	t_check(o && json_object_is_type(o, json_type_array));
	if (o && json_object_array_length(o) == 3) {
		t_check_str(
			json_object_get_string(json_object_array_get_idx(o, 1)),
			"--flag");
		t_check_str(
			json_object_get_string(json_object_array_get_idx(o, 2)),
			tricky);
	} else {
		t_check(!"command_line has 3 members");
	}

	/* "+NUMA -URING +JSON": three signed words in a fixed order */
	feat = get_str(root, "features");
	t_check_str(feat, il_features());
	t_check(feat && strlen(feat) == 18 &&
		(feat[0] == '+' || feat[0] == '-') &&
		!strncmp(feat + 1, "NUMA ", 5) &&
		(feat[6] == '+' || feat[6] == '-') &&
		!strncmp(feat + 7, "URING ", 6) && !strcmp(feat + 14, "JSON") &&
		feat[13] == '+'); /* this code only builds with json-c */

	/* 2025-01-31T12:00:00.123456Z */
	for (i = 0; i < 2; i++) {
		const char *ts = get_str(root, i ? "end_time" : "start_time");
		int y, mo, d, hh, mm, ss, us;
		char z = 0;

		t_check(ts && strlen(ts) == 27 &&
			sscanf(ts, "%4d-%2d-%2dT%2d:%2d:%2d.%6d%c", &y, &mo, &d,
			       &hh, &mm, &ss, &us, &z) == 8 &&
			z == 'Z' && y >= 2020);
	}

	uname(&u);
	t_check_str(get_str(root, "kernel.release"), u.release);
	t_check_str(get_str(root, "kernel.machine"), u.machine);
	t_check_int(get_int(root, "kernel.cpus_online"), si->cpus_online);
	t_check_int(get_int(root, "kernel.cgroup_version"), si->cgroup_version);
	if (si->fair_server_runtime_ns < 0)
		t_check(has_null(root, "kernel.fair_server_runtime_ns"));
	if (!si->config_source[0])
		t_check(has_null(root, "kernel.config_source"));
	if (si->config_proxy_exec >= 0) {
		o = get(root, "kernel.config_proxy_exec");
		t_check(o && json_object_is_type(o, json_type_boolean) &&
			json_object_get_boolean(o) ==
				(si->config_proxy_exec > 0));
	} else {
		t_check(has_null(root, "kernel.config_proxy_exec"));
	}
	o = get(root, "kernel.steal_ns");
	t_check(o && json_object_is_type(o, json_type_int));

	t_check_str(get_str(root, "body.tricky"), tricky);
	/* invalid bytes become U+FFFD, the rest is kept */
	t_check_str(get_str(root, "body.bad_utf8"),
		    "a\xef\xbf\xbd\xef\xbf\xbd(b");
	o = get(root, "body.ratio");
	t_check(o && json_object_is_type(o, json_type_double) &&
		json_object_get_double(o) == 0.1);
	o = get(root, "body.nested");
	t_check(o && json_object_array_length(o) == 2);
	if (o && json_object_array_length(o) == 2) {
		struct json_object *e = json_object_array_get_idx(o, 1);

		t_check(get(e, "deep") &&
			json_object_get_boolean(get(e, "deep")));
		t_check(get(e, "empty") &&
			json_object_array_length(get(e, "empty")) == 0);
	}

	/* histogram */
	t_check_int(get_int(root, "body.blocked_ns.count"), 500);
	t_check_int(get_int(root, "body.blocked_ns.min"), h->min);
	t_check_int(get_int(root, "body.blocked_ns.max"), h->max);
	t_check_int(get_int(root, "body.blocked_ns.overflow"), 0);
	t_check_int(il_hist_percentile(h, 0.5, &v), 0);
	t_check_int(get_int(root, "body.blocked_ns.p50"), v);
	t_check_int(il_hist_percentile(h, 0.99, &v), 0);
	t_check_int(get_int(root, "body.blocked_ns.p99"), v);
	t_check(has_null(root, "body.blocked_ns.p999"));
	t_check(has_null(root, "body.blocked_ns.p9999"));
	o = get(root, "body.blocked_ns.mean");
	t_check(o && fabs(json_object_get_double(o) - il_hist_mean(h)) < 1e-6);

	bins = get(root, "body.blocked_ns.bins");
	t_check(bins && json_object_is_type(bins, json_type_array));
	n = bins ? json_object_array_length(bins) : 0;
	t_check(n > 0);
	for (i = 0; i < n; i++) {
		struct json_object *pair = json_object_array_get_idx(bins, i);
		uint64_t lo, c;

		if (!pair || json_object_array_length(pair) != 2) {
			t_check(!"bin is a [lo, count] pair");
			break;
		}
		lo = (uint64_t)json_object_get_int64(
			json_object_array_get_idx(pair, 0));
		c = (uint64_t)json_object_get_int64(
			json_object_array_get_idx(pair, 1));
		t_check(c > 0);
		t_check(i == 0 || lo > prev);
		prev = lo;
		sum += c;
	}
	t_check_int(sum, h->count);

	t_check_int(get_int(root, "body.empty_ns.count"), 0);
	t_check(has_null(root, "body.empty_ns.min"));
	t_check(has_null(root, "body.empty_ns.mean"));
	t_check(has_null(root, "body.empty_ns.max"));
	t_check(has_null(root, "body.empty_ns.p50"));
	o = get(root, "body.empty_ns.bins");
	t_check(o && json_object_array_length(o) == 0);

	json_object_put(root);
}
#else
/*
 * Without a parser: brackets balance outside strings, strings hold no raw
 * control characters, and the members are there.
 */
static void check_parsed(const char *text, const struct il_sysinfo *si,
			 const struct il_hist *h)
{
	char stack[IL_JSON_MAX_DEPTH];
	int depth = 0, bad = 0;
	bool in_str = false;
	const char *p;
	struct utsname u;
	char want[128];

	for (p = text; *p && !bad; p++) {
		if (in_str) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == '"')
				in_str = false;
			else if ((unsigned char)*p < 0x20)
				bad = 1;
		} else if (*p == '"') {
			in_str = true;
		} else if (*p == '{' || *p == '[') {
			if (depth == IL_JSON_MAX_DEPTH)
				bad = 1;
			else
				stack[depth++] = *p;
		} else if (*p == '}' || *p == ']') {
			if (!depth || stack[--depth] != (*p == '}' ? '{' : '['))
				bad = 1;
		}
	}
	t_check(!bad && !depth && !in_str);
	t_check_contains(text, "\"schema_version\":1,");
	t_check_contains(text, "\"program\":\"test-report\"");
	t_check_contains(text, "\"p999\":null");
	t_check_contains(text, "\"return_code\":3");
	uname(&u);
	snprintf(want, sizeof(want), "\"release\":\"%s\"", u.release);
	t_check_contains(text, want);
	snprintf(want, sizeof(want), "\"count\":%llu",
		 (unsigned long long)h->count);
	t_check_contains(text, want);
	(void)si;
}
#endif

static void test_json_report(void)
{
	static struct il_hist h, empty;
	struct il_sysinfo si;
	char *text;

	fill_hist(&h);
	il_hist_init(&empty);
	t_check_int(il_sysinfo_read(&si), 0);
	text = write_report(&si, &h, &empty);
	t_check(text != NULL);
	if (text)
		check_parsed(text, &si, &h);
	free(text);

	/* without a fingerprint, il_report_begin reads one */
	text = write_report(NULL, &h, &empty);
	t_check(text != NULL);
	if (text) {
		t_check_contains(text, "\"kernel\":{");
		t_check_contains(text, "\"cpus_online\":");
	}
	free(text);
}

/* ------------------------------------------------------------------ */

static void test_tap(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	il_tap_version(f);
	il_tap_plan(f, 4);
	il_tap_result(f, true, 1, "first", NULL);
	il_tap_result(f, false, 2, "has # hash\nand newline", NULL);
	il_tap_result(f, true, 3, "skipped", "SKIP needs CAP_SYS_NICE");
	il_tap_result(f, true, 4, NULL, "TODO later");
	il_tap_diag(f, "blocked %d ms\nsecond line\n\nfourth", 4);
	il_tap_diag(f, "single\n");
	t_check_str(mem_text(f, &buf),
		    "TAP version 13\n"
		    "1..4\n"
		    "ok 1 - first\n"
		    "not ok 2 - has \\# hash and newline\n"
		    "ok 3 - skipped # SKIP needs CAP_SYS_NICE\n"
		    "ok 4 # TODO later\n"
		    "# blocked 4 ms\n"
		    "# second line\n"
		    "#\n"
		    "# fourth\n"
		    "# single\n");
	free(buf);

	/* a skipped plan keeps its reason on its one line */
	buf = NULL;
	f = open_memstream(&buf, &len);
	il_tap_plan(f, -3);
	il_tap_skip_all(f, "needs CAP_SYS_NICE\nrun as root");
	il_tap_skip_all(NULL, "nothing");
	t_check_str(mem_text(f, &buf),
		    "1..0\n1..0 # SKIP needs CAP_SYS_NICE run as root\n");
	free(buf);
}

/*
 * KTAP version 1 (Documentation/dev-tools/ktap.rst): its version line;
 * a description has no escape for '#', so a '#' there must not survive
 * (it would start a directive: "ok 2 - run \#2" is a test named "run \"
 * with a directive "2" to a KTAP parser); the rest as TAP 13.
 */
static void test_ktap(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	il_tap_version_in(f, IL_KTAP_1);
	il_tap_plan(f, 4);
	il_tap_result_in(f, IL_KTAP_1, true, 1, "inherit pi high: PASS", NULL);
	il_tap_result_in(f, IL_KTAP_1, false, 2, "none #2\nFAIL", NULL);
	il_tap_result_in(f, IL_KTAP_1, true, 3, "inherit: UNDECIDED",
			 "SKIP undecided: measured noise could\nexplain it");
	il_tap_result_in(f, IL_KTAP_1, true, 4, "two", "SKIP not # here");
	il_tap_diag(f, "evidence\nmore");
	t_check_str(mem_text(f, &buf),
		    "KTAP version 1\n"
		    "1..4\n"
		    "ok 1 - inherit pi high: PASS\n"
		    "not ok 2 - none _2 FAIL\n"
		    "ok 3 - inherit: UNDECIDED # SKIP undecided: measured "
		    "noise could explain it\n"
		    "ok 4 - two # SKIP not # here\n"
		    "# evidence\n"
		    "# more\n");
	free(buf);

	/* the TAP 13 calls are the TAP 13 dialect's */
	buf = NULL;
	f = open_memstream(&buf, &len);
	il_tap_version_in(f, IL_TAP_13);
	il_tap_result_in(f, IL_TAP_13, false, 1, "a #2", NULL);
	il_tap_version_in(NULL, IL_KTAP_1);
	il_tap_result_in(NULL, IL_KTAP_1, true, 1, "x", NULL);
	t_check_str(mem_text(f, &buf), "TAP version 13\nnot ok 1 - a \\#2\n");
	free(buf);
}

/* ------------------------------------------------------------------ */

static void test_table(void)
{
	struct il_table t;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	il_table_init(&t);
	t_check_int(il_table_cell(&t, "x"), -EINVAL); /* no columns yet */
	t_check_int(il_table_col(&t, "task", false), 0);
	t_check_int(il_table_col(&t, "p99_us", true), 0);
	t_check_int(il_table_col(&t, "note", false), 0);
	t_check_int(il_table_cell(&t, "%s", "hi"), 0);
	t_check_int(il_table_cell(&t, "%d", 12), 0);
	t_check_int(il_table_cell(&t, "%s", "inherit"), 0);
	t_check_int(il_table_col(&t, "late", false), -EBUSY);
	t_check_int(il_table_cell(&t, "%s", "medium-hog"), 0);
	t_check_int(il_table_cell(&t, "%.1f", 1234.5), 0);
	t_check_int(il_table_cell(&t, "%s", ""), 0);
	t_check_int(il_table_cell(&t, "lo"), 0); /* a short last row */
	il_table_print(&t, f);
	t_check_str(mem_text(f, &buf), "task        p99_us  note\n"
				       "----------  ------  -------\n"
				       "hi              12  inherit\n"
				       "medium-hog  1234.5\n"
				       "lo\n");
	free(buf);
	il_table_free(&t);
	t_check_int(t.nrows, 0);
	t_check(t.cells == NULL);

	/* many rows: the cell array grows */
	il_table_init(&t);
	il_table_col(&t, "n", true);
	for (int i = 0; i < 1000; i++)
		il_table_cell(&t, "%d", i);
	t_check_int(t.nrows, 1000);
	f = open_memstream(&buf, &len);
	il_table_print(&t, f);
	t_check_contains(mem_text(f, &buf), "\n  0\n  1\n");
	t_check_contains(buf, "\n999\n");
	free(buf);
	il_table_free(&t);

	il_table_init(&t);
	for (int i = 0; i < IL_TABLE_MAX_COLS; i++)
		il_table_col(&t, "c", false);
	t_check_int(il_table_col(&t, "one too many", false), -E2BIG);
	il_table_free(&t);
}

/* ------------------------------------------------------------------ */

/* the names in dir, sorted and joined with spaces */
static void list_dir(const char *dir, char *out, size_t size)
{
	struct dirent **ents;
	int n, i;
	size_t o = 0;

	out[0] = '\0';
	n = scandir(dir, &ents, NULL, alphasort);
	for (i = 0; i < n; i++) {
		const char *s = ents[i]->d_name;

		if (strcmp(s, ".") && strcmp(s, "..") && o < size)
			o += (size_t)snprintf(out + o, size - o, "%s%s",
					      o ? " " : "", s);
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
}

static char *slurp(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void test_afile(void)
{
	char dir[] = "/tmp/invlab-afile-XXXXXX";
	char path[512], names[1024];
	struct il_afile a;
	struct stat st;
	mode_t old_mask;

	if (!mkdtemp(dir)) {
		t_check(!"mkdtemp");
		return;
	}
	old_mask = umask(022);

	/* commit: the file appears complete, the temporary is gone */
	snprintf(path, sizeof(path), "%s/out.json", dir);
	t_check_int(il_afile_open(&a, path), 0);
	t_check(a.f != NULL);
	fputs("{\"v\":1}\n", a.f);
	list_dir(dir, names, sizeof(names));
	t_check(!strncmp(names, "out.json.tmp.", 13) && !strchr(names, ' '));
	t_check_int(il_afile_commit(&a), 0);
	t_check(a.f == NULL && a.tmp == NULL && a.path == NULL);
	t_check_str(slurp(path), "{\"v\":1}\n");
	list_dir(dir, names, sizeof(names));
	t_check_str(names, "out.json");
	t_check(!stat(path, &st) && (st.st_mode & 0777) == 0644);

	/* commit replaces; abort leaves the old file alone */
	t_check_int(il_afile_open(&a, path), 0);
	fputs("two\n", a.f);
	t_check_int(il_afile_commit(&a), 0);
	t_check_str(slurp(path), "two\n");
	t_check_int(il_afile_open(&a, path), 0);
	fputs("three\n", a.f);
	il_afile_abort(&a);
	t_check_str(slurp(path), "two\n");

	/* abort of a new file: no file, no temporary */
	snprintf(path, sizeof(path), "%s/aborted.json", dir);
	t_check_int(il_afile_open(&a, path), 0);
	fputs("partial", a.f);
	il_afile_abort(&a);
	il_afile_abort(&a); /* twice is harmless */
	list_dir(dir, names, sizeof(names));
	t_check_str(names, "out.json");

	/* a directory in the way: refused before anything is written, and
	 * no temporary is left */
	snprintf(path, sizeof(path), "%s/sub", dir);
	t_check_int(mkdir(path, 0755), 0);
	t_check_int(il_afile_open(&a, path), -EISDIR);
	t_check(a.f == NULL);
	list_dir(dir, names, sizeof(names));
	t_check_str(names, "out.json sub");
	rmdir(path);

	/* a device is written in place: renaming over /dev/null would
	 * replace the device node (root can) */
	t_check_int(il_afile_open(&a, "/dev/null"), 0);
	t_check(a.tmp == NULL);
	fputs("discarded", a.f);
	t_check_int(il_afile_commit(&a), 0);
	t_check(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));

	/* no such directory */
	snprintf(path, sizeof(path), "%s/missing/out.json", dir);
	t_check_int(il_afile_open(&a, path), -ENOENT);
	t_check(a.f == NULL && a.tmp == NULL);
	t_check_int(il_afile_commit(&a), -EINVAL);

	/* a directory we may not write to (root may write anywhere) */
	if (geteuid()) {
		char ro[300];

		snprintf(ro, sizeof(ro), "%s/ro", dir);
		mkdir(ro, 0555);
		snprintf(path, sizeof(path), "%s/out.json", ro);
		t_check_int(il_afile_open(&a, path), -EACCES);
		rmdir(ro);
	}
	/* /proc refuses new files even to root */
	t_check(il_afile_open(&a, "/proc/invlab-test.json") < 0);
	t_check(a.f == NULL);

	/* "-" is stdout: no temporary, commit only flushes */
	t_check_int(il_afile_open(&a, "-"), 0);
	t_check(a.f == stdout && a.tmp == NULL);
	t_check_int(il_afile_commit(&a), 0);
	t_check_int(il_afile_open(&a, ""), -EINVAL);

	snprintf(path, sizeof(path), "%s/out.json", dir);
	unlink(path);
	t_check_int(rmdir(dir), 0);
	umask(old_mask);
}

/* compact for a file or a pipe, pretty for a terminal (a person) */
static void test_json_terminal(void)
{
	struct il_json j;
	int fds[2], m = posix_openpt(O_RDWR | O_NOCTTY);
	FILE *f;

	t_check_int(pipe(fds), 0);
	f = fdopen(fds[1], "w");
	il_json_init(&j, f);
	t_check(!j.pretty);
	fclose(f);
	close(fds[0]);
	f = tmpfile();
	il_json_init(&j, f);
	t_check(!j.pretty);
	fclose(f);
	/* a pseudo-terminal, where the system has them */
	if (m < 0 || grantpt(m) || unlockpt(m) || !ptsname(m)) {
		printf("# no pseudo-terminal here: the terminal case not "
		       "checked\n");
		if (m >= 0)
			close(m);
		return;
	}
	f = fopen(ptsname(m), "w");
	t_check(f != NULL);
	if (f) {
		il_json_init(&j, f);
		t_check(j.pretty);
		il_json_set_pretty(&j, false);
		t_check(!j.pretty);
		fclose(f);
	}
	close(m);
}

int main(void)
{
	test_json_layout();
	test_json_terminal();
	test_json_report();
	test_tap();
	test_ktap();
	test_table();
	test_afile();
	return t_done("test-report");
}
