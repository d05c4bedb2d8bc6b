// SPDX-License-Identifier: MIT
/*
 * The cut of a result file's text for the result tools (tools/lean.c)
 * and the reader that uses it (il_res_parse_lean, il_res_set_load).
 *
 *   test-lean tests/data/judge/kmutex-undecided.json
 *
 * Each rule of the cut is checked both ways: what it keeps and drops,
 * where it cuts and where the same name is left alone, every kind of
 * text it refuses (each then parsed whole by the reader, with json-c's
 * own message).  Then documents are read both ways, pretty and compact,
 * and must give the same values but for the judge inputs the cut drops.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "lean.h"
#include "results.h"
#include "t_tools.h"
#include "t_util.h"

/* in cut: 0 and out as expected, or the error */
static void cut_is(const char *in, int want, const char *out)
{
	size_t len = strlen(in), n = 0;
	char *buf = malloc(len + 1);
	int ret;

	if (!buf)
		exit(99);
	ret = il_lean_cut(in, len, buf, &n, NULL);
	if (ret != want)
		fprintf(stderr, "cut of '%s': %d, expected %d\n", in, ret,
			want);
	t_check_int(ret, want);
	if (!ret && out) {
		t_check(n <= len);
		buf[n] = '\0';
		t_check_str(buf, out);
	}
	free(buf);
}

static void test_copy(void)
{
	/* white space between tokens goes, tokens stay as written */
	cut_is(" {\n  \"a\" : [ 1 ,\t2 ] ,\r\n \"b\": {} , \"c\": [ ] }\n", 0,
	       "{\"a\":[1,2],\"b\":{},\"c\":[]}");
	cut_is("{\"s\":\" a\\n\\u00e9\\\"\\\\\\/ \",\"t\":\"\xc3\xa9\"}", 0,
	       "{\"s\":\" a\\n\\u00e9\\\"\\\\\\/ \",\"t\":\"\xc3\xa9\"}");
	cut_is("[-0.5e+10,0,-0,1E-3,12345678901234567890123,true,false,null]",
	       0,
	       "[-0.5e+10,0,-0,1E-3,12345678901234567890123,true,false,"
	       "null]");
	cut_is("\"alone\"", 0, "\"alone\"");
	cut_is("7 \n", 0, "7");
}

static void test_judge_inputs(void)
{
	/* a run's judge inputs: job_text alone stays, wherever it is */
	cut_is("{\"runs\": [{\"configuration\": \"x\", \"judge_inputs\": "
	       "{\"tasks\": [{\"locks\": [[1, 2]]}], \"job_text\": \"[t]\\n\", "
	       "\"steal_ns\": 3}, \"blocked_ns\": {\"count\": 0}}]}",
	       0,
	       "{\"runs\":[{\"configuration\":\"x\",\"judge_inputs\":"
	       "{\"job_text\":\"[t]\\n\"},\"blocked_ns\":{\"count\":0}}]}");
	cut_is("{\"runs\":[{\"judge_inputs\":{\"job_text\":\"j\",\"a\":1}}]}",
	       0, "{\"runs\":[{\"judge_inputs\":{\"job_text\":\"j\"}}]}");
	cut_is("{\"runs\":[{\"judge_inputs\":{\"a\":1,\"b\":2,\"job_text\":"
	       "\"j\"}}]}",
	       0, "{\"runs\":[{\"judge_inputs\":{\"job_text\":\"j\"}}]}");
	cut_is("{\"runs\":[{\"judge_inputs\":{\"a\":1}},{\"judge_inputs\":"
	       "{\"job_text\":\"j\"}}]}",
	       0,
	       "{\"runs\":[{\"judge_inputs\":{}},{\"judge_inputs\":"
	       "{\"job_text\":\"j\"}}]}");
	/* a name that only starts like it is not it */
	cut_is("{\"runs\":[{\"judge_inputs\":{\"job_text_x\":1,\"job\":2}}]}",
	       0, "{\"runs\":[{\"judge_inputs\":{}}]}");
	cut_is("{\"runs\":[{\"judge_input\":{\"a\":1},\"judge_inputs_x\":"
	       "{\"a\":1}}]}",
	       0,
	       "{\"runs\":[{\"judge_input\":{\"a\":1},\"judge_inputs_x\":"
	       "{\"a\":1}}]}");
	/* the same name anywhere else is left alone */
	cut_is("{\"judge_inputs\":{\"a\":1}}", 0,
	       "{\"judge_inputs\":{\"a\":1}}");
	cut_is("{\"runs\":[{\"x\":{\"judge_inputs\":{\"a\":1}}}]}", 0,
	       "{\"runs\":[{\"x\":{\"judge_inputs\":{\"a\":1}}}]}");
	cut_is("{\"other\":[{\"judge_inputs\":{\"a\":1}}]}", 0,
	       "{\"other\":[{\"judge_inputs\":{\"a\":1}}]}");
	cut_is("{\"x\":{\"runs\":[{\"judge_inputs\":{\"a\":1}}]}}", 0,
	       "{\"x\":{\"runs\":[{\"judge_inputs\":{\"a\":1}}]}}");
	cut_is("[{\"runs\":[{\"judge_inputs\":{\"a\":1}}]}]", 0,
	       "[{\"runs\":[{\"judge_inputs\":{\"a\":1}}]}]");
	cut_is("{\"runs\":{\"judge_inputs\":{\"a\":1}}}", 0,
	       "{\"runs\":{\"judge_inputs\":{\"a\":1}}}");
	cut_is("{\"runs\":[[{\"judge_inputs\":{\"a\":1}}]]}", 0,
	       "{\"runs\":[[{\"judge_inputs\":{\"a\":1}}]]}");
	/* judge inputs that are no object are the reader's to refuse */
	cut_is("{\"runs\":[{\"judge_inputs\":[{\"a\":1}]}]}", 0,
	       "{\"runs\":[{\"judge_inputs\":[{\"a\":1}]}]}");
	cut_is("{\"runs\":[{\"judge_inputs\":\"x\"},7]}", 0,
	       "{\"runs\":[{\"judge_inputs\":\"x\"},7]}");
	/* what is dropped is checked all the same */
	cut_is("{\"runs\":[{\"judge_inputs\":{\"a\":[1,}}]}", -EINVAL, NULL);
	cut_is("{\"runs\":[{\"judge_inputs\":{\"a\":01}}]}", -EINVAL, NULL);
	/* a name json-c would decode to one the cut looks for */
	cut_is("{\"r\\u0075ns\":[{\"judge_inputs\":{\"a\":1}}]}", -EINVAL,
	       NULL);
	cut_is("{\"runs\":[{\"judge\\u005finputs\":{\"a\":1}}]}", -EINVAL,
	       NULL);
	cut_is("{\"runs\":[{\"judge_inputs\":{\"job\\u005ftext\":\"j\"}}]}",
	       -EINVAL, NULL);
	/* json-c reads an escaped name as another: the cut takes none */
	cut_is("{\"x\":{\"a\\u0062\":1}}", -EINVAL, NULL);
	cut_is("{\"x\":{\"\\n\":2}}", -EINVAL, NULL);
	/* in a string value an escape is nothing to it */
	cut_is("{\"x\":{\"a\":\"\\u0062\\n\"}}", 0,
	       "{\"x\":{\"a\":\"\\u0062\\n\"}}");
}

/* in cut with bins: 0 and out, or the error; the bins read in *b */
static void bins_are(const char *in, int want, const char *out,
		     struct il_lean_bins *b)
{
	size_t len = strlen(in), n = 0;
	char *buf = malloc(len + 1);
	int ret;

	if (!buf)
		exit(99);
	il_lean_bins_free(b);
	ret = il_lean_cut(in, len, buf, &n, b);
	if (ret != want)
		fprintf(stderr, "cut of '%s': %d, expected %d\n", in, ret,
			want);
	t_check_int(ret, want);
	if (!ret) {
		t_check(n <= len);
		buf[n] = '\0';
		t_check_str(buf, out);
	}
	free(buf);
}

static void test_bins(void)
{
	struct il_lean_bins b = { 0 };

	/* a histogram's pairs are read, and their index stands for them */
	bins_are("{\"a_ns\": {\"count\": 3, \"bins\": [ [ 7 , 2 ] ,[8,1]] }}",
		 0, "{\"a_ns\":{\"count\":3,\"bins\":0}}", &b);
	t_check_int((int)b.n, 1);
	t_check_int((int)b.npairs, 2);
	t_check(b.n == 1 && b.first[0] == 0 && b.first[1] == 2);
	t_check(b.npairs == 2 && b.pair[0] == 7 && b.pair[1] == 2 &&
		b.pair[2] == 8 && b.pair[3] == 1);
	bins_are("{\"runs\":[{\"x_ns\":{\"bins\":[[0,1]]},\"tasks\":[{\"y_ns\":"
		 "{\"bins\":[[999999999999999999,3],[5,0]]}}]}]}",
		 0,
		 "{\"runs\":[{\"x_ns\":{\"bins\":0},\"tasks\":[{\"y_ns\":"
		 "{\"bins\":1}}]}]}",
		 &b);
	t_check(b.n == 2 && b.first[0] == 0 && b.first[1] == 1 &&
		b.first[2] == 3);
	t_check(b.npairs == 3 && b.pair[0] == 0 && b.pair[1] == 1 &&
		b.pair[2] == 999999999999999999ull && b.pair[3] == 3 &&
		b.pair[4] == 5 && b.pair[5] == 0);

	/* what is not such a pair stays an array, for json-c to read */
	static const char *const kept[] = {
		"{\"a_ns\":{\"bins\":[]}}",
		"{\"a_ns\":{\"bins\":[[1,2,3]]}}",
		"{\"a_ns\":{\"bins\":[[1]]}}",
		"{\"a_ns\":{\"bins\":[[]]}}",
		"{\"a_ns\":{\"bins\":[[-1,2]]}}",
		"{\"a_ns\":{\"bins\":[[1,-2]]}}",
		"{\"a_ns\":{\"bins\":[[1.5,2]]}}",
		"{\"a_ns\":{\"bins\":[[1,2.0]]}}",
		"{\"a_ns\":{\"bins\":[[1e3,2]]}}",
		"{\"a_ns\":{\"bins\":[[1,2E0]]}}",
		"{\"a_ns\":{\"bins\":[[1000000000000000000,2]]}}",
		"{\"a_ns\":{\"bins\":[[1,2],\"x\"]}}",
		"{\"a_ns\":{\"bins\":[[1,2],[3,null]]}}",
		"{\"a_ns\":{\"bins\":[1,2]}}",
		"{\"a_ns\":{\"bins\":{\"a\":[1,2]}}}",
		"{\"a_ns\":{\"bins\":\"[[1,2]]\"}}",
		/* not a histogram's */
		"{\"a\":{\"bins\":[[1,2]]}}",
		"{\"bins\":[[1,2]]}",
		"{\"runs\":[{\"bins\":[[1,2]]}]}",
		"{\"a_n\":{\"bins\":[[1,2]]}}",
		"{\"_ns\":{\"bins\":[[1,2]]}}",
		"{\"a_ns\":{\"b\":{\"bins\":[[1,2]]}}}",
		"{\"a_ns\":[{\"bins\":[[1,2]]}]}",
		"{\"a_ns\":{\"bin\":[[1,2]],\"binsx\":[[1,2]]}}",
	};
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		bins_are(kept[i], 0, kept[i], &b);
		t_check_int((int)b.n, 0);
	}
	/* nor in what is cut */
	bins_are(
		"{\"runs\":[{\"judge_inputs\":{\"x_ns\":{\"bins\":[[1,2]]}}}]}",
		0, "{\"runs\":[{\"judge_inputs\":{}}]}", &b);
	t_check_int((int)b.n, 0);
	/* a number where bins are would read as an index: refused */
	bins_are("{\"a_ns\":{\"bins\":0}}", -EINVAL, NULL, &b);
	bins_are("{\"bins\":-1}", -EINVAL, NULL, &b);
	bins_are("{\"a\":{\"bins\":7}}", -EINVAL, NULL, &b);
	cut_is("{\"a_ns\":{\"bins\":3}}", -EINVAL, NULL);
	/* broken pairs are refused as any broken JSON */
	bins_are("{\"a_ns\":{\"bins\":[[01,2]]}}", -EINVAL, NULL, &b);
	bins_are("{\"a_ns\":{\"bins\":[[1,2],]}}", -EINVAL, NULL, &b);
	bins_are("{\"a_ns\":{\"bins\":[[1,2]}}", -EINVAL, NULL, &b);
	il_lean_bins_free(&b);
}

static void test_refused(void)
{
	static const char *const bad[] = {
		"",
		" \n",
		"{} x",
		"{}{}",
		"1 2",
		"{",
		"[1",
		"[1,",
		"{\"a\"",
		"{\"a\":",
		"{\"a\":1",
		"\"open",
		"\"ctl\x01\"",
		"\"tab\tin\"",
		"\"\\x\"",
		"\"\\u12\"",
		"\"\\u12g4\"",
		"\"\\",
		"01",
		"-",
		"1.",
		"1.e5",
		"1e",
		"1e+",
		".5",
		"+1",
		"tru",
		"nul",
		"NaN",
		"Infinity",
		"/* c */ {}",
		"{} // c",
		"[1,]",
		"{\"a\":1,}",
		"[,1]",
		"{\"a\" 1}",
		"{\"a\":1 \"b\":2}",
		"[1 2]",
		"{a:1}",
		"{'a':1}",
		"{1:1}",
		"]",
		"}",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cut_is(bad[i], -EINVAL, NULL);

	/* a NUL after the value, or inside it, is not white space */
	{
		static const char nul[] = "{}\0";
		char out[8];
		size_t n;

		t_check_int(il_lean_cut(nul, 3, out, &n, NULL), -EINVAL);
		t_check_int(il_lean_cut("[1]\0", 4, out, &n, NULL), -EINVAL);
		t_check_int(il_lean_cut("\"a\0b\"", 5, out, &n, NULL), -EINVAL);
		t_check_int(il_lean_cut("\"\\\0\"", 4, out, &n, NULL), -EINVAL);
		t_check_int(il_lean_cut("{}", 2, out, &n, NULL), 0);
		t_check_int((int)n, 2);
	}

	/* every prefix of a document is refused, and no byte read past len */
	{
		static const char doc[] =
			"{\"runs\": [{\"judge_inputs\": {\"job_text\": "
			"\"a\\u00e9\","
			" \"x\": [1.5e3, -2, true, null]}, \"n\": false}]}";
		size_t len = strlen(doc);

		for (size_t k = 0; k < len; k++) {
			char *in = malloc(k ? k : 1), out[sizeof(doc)];
			size_t n;

			if (!in)
				exit(99);
			memcpy(in, doc, k);
			t_check_int(il_lean_cut(in, k, out, &n, NULL), -EINVAL);
			free(in);
		}
	}

	/* nesting: up to IL_LEAN_MAX_DEPTH, json-c's own beyond */
	{
		char in[2 * IL_LEAN_MAX_DEPTH + 8], out[sizeof(in)];
		size_t n;
		int d = IL_LEAN_MAX_DEPTH;

		memset(in, '[', (size_t)d);
		memset(in + d, ']', (size_t)d);
		t_check_int(il_lean_cut(in, 2 * (size_t)d, out, &n, NULL), 0);
		memset(in, '[', (size_t)d + 1);
		memset(in + d + 1, ']', (size_t)d + 1);
		t_check_int(il_lean_cut(in, 2 * (size_t)d + 2, out, &n, NULL),
			    -EINVAL);
	}
}

/* root with each run's judge_inputs cut to its job_text, as the cut does */
static void drop_judge_inputs(struct json_object *root)
{
	struct json_object *runs, *ji;

	if (!json_object_object_get_ex(root, "runs", &runs))
		return;
	for (size_t i = 0; i < json_object_array_length(runs); i++) {
		struct json_object *run = json_object_array_get_idx(runs, i);
		const char *keys[64];
		int n = 0;

		if (!json_object_object_get_ex(run, "judge_inputs", &ji) ||
		    !json_object_is_type(ji, json_type_object))
			continue;
		json_object_object_foreach(ji, k, v)
		{
			(void)v;
			if (strcmp(k, "job_text") && n < 64)
				keys[n++] = k;
		}
		for (int d = 0; d < n; d++)
			json_object_object_del(ji, keys[d]);
	}
}

/* the lean document's bins made arrays again, from the cut's pairs */
static void expand_bins(struct json_object *o, const struct il_lean_bins *b)
{
	if (json_object_is_type(o, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(o); i++)
			expand_bins(json_object_array_get_idx(o, i), b);
		return;
	}
	if (!json_object_is_type(o, json_type_object))
		return;
	json_object_object_foreach(o, k, v)
	{
		if (!strcmp(k, "bins") &&
		    json_object_is_type(v, json_type_int)) {
			size_t i = (size_t)json_object_get_int64(v);
			struct json_object *a = json_object_new_array();

			t_check(i < b->n);
			for (size_t p = b->first[i];
			     i < b->n && p < b->first[i + 1]; p++) {
				struct json_object *pr =
					json_object_new_array();

				json_object_array_add(
					pr, json_object_new_int64(
						    (int64_t)b->pair[2 * p]));
				json_object_array_add(
					pr,
					json_object_new_int64(
						(int64_t)b->pair[2 * p + 1]));
				json_object_array_add(a, pr);
			}
			json_object_object_add(o, k, a);
		} else {
			expand_bins(v, b);
		}
	}
}

/* path read whole and lean: the same document but the cut judge inputs */
static void same_but_cut(const char *path, bool has_ji)
{
	struct json_object *whole, *lean, *ji, *runs;
	char err[512];
	int ret = 0;

	whole = il_res_parse_file(path, 1 << 24, err, sizeof(err), &ret);
	t_check(whole != NULL);
	lean = il_res_parse_lean(path, 1 << 24, err, sizeof(err), &ret);
	t_check(lean != NULL);
	if (!whole || !lean)
		goto out;
	if (has_ji) {
		/* the whole one has more than the job's text */
		t_check(json_object_object_get_ex(whole, "runs", &runs));
		t_check(json_object_object_get_ex(
			json_object_array_get_idx(runs, 0), "judge_inputs",
			&ji));
		t_check(json_object_object_length(ji) > 1);
		t_check(!json_object_equal(whole, lean));
	}
	drop_judge_inputs(whole);
	/* a lean document has the cut's bins, whose index is in it */
	if (json_object_get_userdata(lean)) {
		const struct il_lean_bins *b = json_object_get_userdata(lean);

		expand_bins(lean, b);
	}
	t_check(json_object_equal(whole, lean));
	if (has_ji) {
		t_check(json_object_object_get_ex(lean, "runs", &runs));
		t_check(json_object_object_get_ex(
			json_object_array_get_idx(runs, 0), "judge_inputs",
			&ji));
		t_check(json_object_object_get_ex(ji, "job_text", NULL));
	}
out:
	json_object_put(whole);
	json_object_put(lean);
}

/* text written to name, returned as its path */
static const char *put(const char *name, const char *text)
{
	const char *p = t_tmp(name);

	if (t_write_text(p, text))
		exit(99);
	return p;
}

/* two sets read from the same data: the same groups, runs and sums */
static void same_sets(const struct il_res_set *a, const struct il_res_set *b)
{
	t_check_int((int)a->ngroups, (int)b->ngroups);
	t_check_int((int)a->nruns, (int)b->nruns);
	t_check(a->nruns > 0 && a->ngroups > 0);
	for (size_t g = 0; g < a->ngroups && g < b->ngroups; g++) {
		t_check_str(a->groups[g].configuration,
			    b->groups[g].configuration);
		t_check(a->groups[g].nmetrics > 0);
		t_check_int((int)a->groups[g].nmetrics,
			    (int)b->groups[g].nmetrics);
		t_check(!memcmp(a->groups[g].outcomes, b->groups[g].outcomes,
				sizeof(a->groups[g].outcomes)));
		for (size_t m = 0;
		     m < a->groups[g].nmetrics && m < b->groups[g].nmetrics;
		     m++) {
			const struct il_res_metric *x =
				&a->groups[g].metrics[m];
			const struct il_res_metric *y =
				&b->groups[g].metrics[m];

			t_check_str(x->name, y->name);
			t_check_int((int)x->nruns, (int)y->nruns);
			t_check(!x->merged == !y->merged);
			/* the same histogram, bucket for bucket */
			if (x->merged && y->merged)
				t_check(!memcmp(x->merged, y->merged,
						sizeof(*x->merged)));
		}
	}
}

static void test_reader(const char *real)
{
	struct json_object *root, *c;
	char err[512], err2[512];
	int ret = 0, ret2 = 0;
	const char *p;
	char *text, *compact;

	/* a real result file, pretty, and the same compact */
	same_but_cut(real, true);
	root = il_res_parse_file(real, 1 << 24, err, sizeof(err), &ret);
	t_check(root != NULL);
	if (root) {
		compact = strdup(json_object_to_json_string_ext(
			root, JSON_C_TO_STRING_PLAIN));
		if (!compact)
			exit(99);
		same_but_cut(put("compact.json", compact), true);
		free(compact);
		json_object_put(root);
	}

	/* json-c's extensions: the cut refuses them, the reader does not */
	p = put("comment.json",
		"/* a comment */ {\"schema_version\": 1, \"runs\": "
		"[{\"judge_inputs\": {\"a\": 1}}]}");
	root = il_res_parse_lean(p, 1 << 20, err, sizeof(err), &ret);
	t_check(root != NULL);
	c = il_res_parse_file(p, 1 << 20, err, sizeof(err), &ret);
	t_check(c && json_object_equal(root, c));
	json_object_put(c);
	/* parsed whole: nothing was cut */
	t_check(root && json_object_object_get_ex(root, "runs", &c) &&
		json_object_object_get_ex(json_object_array_get_idx(c, 0),
					  "judge_inputs", &c) &&
		json_object_object_get_ex(c, "a", NULL));
	json_object_put(root);

	/* a broken file: the same refusal and message either way */
	p = put("broken.json", "{\n\"runs\": [\n{\"judge_inputs\": {\"a\": 1,"
			       "\n}}]");
	t_check(!il_res_parse_file(p, 1 << 20, err, sizeof(err), &ret));
	t_check(!il_res_parse_lean(p, 1 << 20, err2, sizeof(err2), &ret2));
	t_check_int(ret2, ret);
	t_check_int(ret2, -EINVAL);
	t_check_str(err2, err);
	t_check_contains(err2, "broken.json:4: not JSON");
	p = put("after.json", "{\"runs\": []}\n\nx");
	t_check(!il_res_parse_file(p, 1 << 20, err, sizeof(err), &ret));
	t_check(!il_res_parse_lean(p, 1 << 20, err2, sizeof(err2), &ret2));
	t_check_int(ret2, -EINVAL);
	t_check_str(err2, err);
	t_check_contains(err2, "after.json:3: data after the JSON value");
	/* over the input limit: refused before any cut */
	t_check(!il_res_parse_lean(p, 4, err2, sizeof(err2), &ret2));
	t_check_int(ret2, -EFBIG);

	/*
	 * A result set reads a pretty file as its compact copy (the judge's
	 * file made a result: it has no envelope of its own).
	 */
	root = il_res_parse_file(real, 1 << 24, err, sizeof(err), &ret);
	if (!root)
		exit(99);
	json_object_object_add(root, "schema_version", json_object_new_int(1));
	json_object_object_add(root, "program",
			       json_object_new_string("kmutex"));
	json_object_object_add(
		json_object_array_get_idx(json_object_object_get(root, "runs"),
					  0),
		"blocked_ns",
		json_tokener_parse("{\"count\": 3, \"min\": 7, \"mean\": 7.3, "
				   "\"max\": 8, \"overflow\": 0, "
				   "\"bins\": [[7, 2], [8, 1]]}"));
	{
		const char *pp =
			put("pretty.json",
			    json_object_to_json_string_ext(
				    root, JSON_C_TO_STRING_PRETTY |
						  JSON_C_TO_STRING_SPACED));
		const char *pc = put("compact2.json",
				     json_object_to_json_string_ext(
					     root, JSON_C_TO_STRING_PLAIN));
		struct il_res_set a, b, w;
		struct json_object *lean, *whole;

		same_but_cut(pp, true);
		same_but_cut(pc, true);
		/* its histogram's bins were the cut's to read */
		lean = il_res_parse_lean(pp, 1 << 24, err, sizeof(err), &ret);
		t_check(lean && json_object_get_userdata(lean));
		if (lean && json_object_get_userdata(lean)) {
			const struct il_lean_bins *lb =
				json_object_get_userdata(lean);

			t_check_int((int)lb->n, 1);
			t_check_int((int)lb->npairs, 2);
		}
		json_object_put(lean);
		text = t_read_file(pp);
		t_check(text && strstr(text, "\n  \"runs\": [\n"));
		free(text);
		il_res_set_init(&a, false);
		il_res_set_init(&b, false);
		ret = il_res_set_load(&a, pp, err, sizeof(err));
		if (ret)
			fprintf(stderr, "%s\n", err);
		t_check_int(ret, 0);
		t_check_int(il_res_set_load(&b, pc, err, sizeof(err)), 0);
		same_sets(&a, &b);
		/* and as json-c reads every bin of the whole file */
		whole = il_res_parse_file(pp, 1 << 24, err, sizeof(err), &ret);
		t_check(whole && !json_object_get_userdata(whole));
		il_res_set_init(&w, false);
		t_check_int(
			il_res_set_add_json(&w, whole, pp, err, sizeof(err)),
			0);
		json_object_put(whole);
		same_sets(&a, &w);
		il_res_set_free(&w);
		il_res_set_free(&a);
		il_res_set_free(&b);
	}
	json_object_put(root);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test-lean RESULT.json\n");
		return 99;
	}
	test_copy();
	test_judge_inputs();
	test_bins();
	test_refused();
	test_reader(argv[1]);
	t_tmp_cleanup();
	return t_done("lean");
}
