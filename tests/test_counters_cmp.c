// SPDX-License-Identifier: MIT
/*
 * invlab-compare's counters block (counters-cmp.h) on the fixture files
 * of tests/data/counters: six sched-messaging runs a side, the
 * candidate's wall time 29.27 % longer and its context switches 20 %
 * more, the migrations the same; the baseline has one run that did not
 * complete (neither its wall time nor its counters may count) and counters "not
 * supported".
 *
 *   test-counters-cmp build/tools/invlab-compare tests/data/counters
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters-cmp.h"
#include "stats.h"
#include "t_tools.h"
#include "t_util.h"

#define near(a, b, eps) (fabs((a) - (b)) <= (eps))

static const struct il_ctr_row *row(const struct il_ctr_cmp *c,
				    const char *metric)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->rows[i].metric, metric))
			return &c->rows[i];
	return NULL;
}

static void opts(struct il_res_cmp_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->alpha = 0.05;
	o->threshold_pct = 2;
	o->correction = IL_RES_CORR_HOLM;
	o->power = 0.8;
}

static void test_build(char *base, char *cand)
{
	char *paths[] = { base, cand };
	struct il_res_cmp_opts o;
	struct il_ctr_cmp c;
	const struct il_ctr_row *w, *cs, *mg;
	char err[256] = "";

	opts(&o);
	t_check_int(il_ctr_cmp_build(paths, 1, 1, 1 << 20, &o, &c, err,
				     sizeof(err)),
		    0);
	/* wall time, context switches, migrations; no cycles (not
	 * supported), no run delay (the candidate has none) */
	t_check_int(c.n, 3);
	w = row(&c, "wall_ns");
	cs = row(&c, "context_switches");
	mg = row(&c, "cpu_migrations");
	t_check(w && cs && mg && !row(&c, "cycles"));
	if (!w || !cs || !mg) {
		il_ctr_cmp_free(&c);
		return;
	}
	t_check(w->wall && !cs->wall);
	t_check_str(w->group, "sched-messaging/process-socket");
	/* the run that did not complete is left out: six runs, AMean */
	t_check_int(w->c.sb.n, 6);
	t_check(near(w->c.base, 102.5e6, 1e-3));
	t_check(near(w->c.cand, 132.5e6, 1e-3));
	t_check(near(w->delta_pct, 30.0 / 102.5 * 100, 1e-9));
	t_check(near(w->c.pct_imp, -30.0 / 102.5 * 100, 1e-9));
	/* separated completely: the exact rank test's 2 / C(12, 6) */
	t_check_int(w->c.test, IL_RES_T_RANK_EXACT);
	t_check(near(w->c.p, 2.0 / 924, 1e-12));
	/* Holm over the three rows: the two smallest times 3 */
	t_check(near(w->c.p_adj, 3 * 2.0 / 924, 1e-12));
	t_check_int(w->c.change, IL_RES_WORSE);
	t_check_int(c.worse, 1);
	/* nor its counters */
	t_check_int(cs->c.sb.n, 6);
	t_check(near(cs->c.base, 1000, 1e-9));
	t_check(near(cs->delta_pct, 20, 1e-9));
	t_check(near(cs->c.cand, 1200, 1e-9));
	t_check(near(mg->delta_pct, 0, 1e-9));
	t_check(mg->c.p_adj > 0.05);
	il_ctr_cmp_free(&c);

	/* the same files on both sides: nothing changes */
	paths[1] = base;
	t_check_int(il_ctr_cmp_build(paths, 1, 1, 1 << 20, &o, &c, err,
				     sizeof(err)),
		    0);
	w = row(&c, "wall_ns");
	t_check(w != NULL);
	if (w) {
		t_check(near(w->delta_pct, 0, 1e-12));
		t_check(near(w->c.p, 1, 1e-12));
		t_check_int(w->c.change, IL_RES_SAME);
	}
	t_check_int(c.worse, 0);
	il_ctr_cmp_free(&c);
}

/*
 * Three sides: each compared with the first, a row a series and side,
 * every row in the block's correction: base, cand, base again.
 */
static void test_sides(char *base, char *cand)
{
	char *paths[] = { base, cand, base };
	const int nfiles[] = { 1, 1, 1 };
	const char *const labels[] = { "tip", "v21", "full" };
	struct il_res_cmp_opts o;
	struct il_ctr_cmp c;
	char err[256] = "";
	size_t walls = 0;

	opts(&o);
	t_check_int(il_ctr_cmp_build_sides(paths, nfiles, 3, NULL, labels,
					   1 << 20, &o, &c, err, sizeof(err)),
		    0);
	/* three series, each for sides 1 and 2, in side order */
	t_check_int(c.n, 6);
	t_check_int(c.nsides, 3);
	for (size_t i = 0; i < c.n; i++) {
		t_check_int(c.rows[i].side, 1 + i % 2);
		walls += c.rows[i].wall;
	}
	t_check_int(walls, 2);
	if (c.n == 6) {
		/* Holm over the six rows: the two smallest times 6 */
		t_check_str(c.rows[0].metric, "wall_ns");
		t_check(near(c.rows[0].c.p_adj, 6 * 2.0 / 924, 1e-12));
		t_check_int(c.rows[0].c.change, IL_RES_WORSE);
		t_check(near(c.rows[1].c.p, 1, 1e-12));
		t_check_int(c.rows[1].c.change, IL_RES_SAME);
		t_check(near(c.rows[3].delta_pct, 0, 1e-12));
	}
	/* only the second side is worse, and that is enough */
	t_check_int(c.worse, 1);
	il_ctr_cmp_free(&c);

	/* the worse side last: worse all the same */
	paths[1] = base;
	paths[2] = cand;
	t_check_int(il_ctr_cmp_build_sides(paths, nfiles, 3, NULL, labels,
					   1 << 20, &o, &c, err, sizeof(err)),
		    0);
	t_check_int(c.worse, 1);
	t_check(c.n > 1 && c.rows[1].side == 2 &&
		c.rows[1].c.change == IL_RES_WORSE);
	il_ctr_cmp_free(&c);
}

/*
 * The order of the rows, the two-side form kept, --by's key missing:
 * small files written here.
 */
static void test_order_and_by(const char *tool, char *base, char *cand)
{
	static const char two[] =
		"{\"schema_version\":1,\"program\":\"p\",\"runs\":["
		"{\"configuration\":\"a\",\"counters\":{\"x\":1}},"
		"{\"configuration\":\"b\",\"counters\":{\"x\":1}},"
		"{\"configuration\":\"a\",\"counters\":{\"x\":2,\"y\":2}}]}";
	char *paths[2], *out = NULL, *err = NULL;
	const int nfiles[] = { 1, 1 };
	struct il_res_cmp_opts o;
	struct il_ctr_cmp c;
	char errs[256] = "";
	int rc;

	opts(&o);
	t_check_int(t_write_text(t_tmp("two.json"), two), 0);
	paths[0] = paths[1] = (char *)t_tmp("two.json");
	/* without --by, the baseline's order of first sight */
	t_check_int(il_ctr_cmp_build(paths, 1, 1, 1 << 20, &o, &c, errs,
				     sizeof(errs)),
		    0);
	t_check_int(c.n, 3);
	if (c.n == 3) {
		t_check_str(c.rows[0].group, "p/a");
		t_check_str(c.rows[1].group, "p/b");
		t_check_str(c.rows[2].metric, "y");
		t_check(c.rows[0].by == NULL);
	}
	il_ctr_cmp_free(&c);
	/* a run without the key: refused, the file named */
	t_check_int(il_ctr_cmp_build_sides(paths, nfiles, 2, "groups", NULL,
					   1 << 20, &o, &c, errs, sizeof(errs)),
		    -ENOKEY);
	t_check_contains(errs, "two.json: runs[0]: no 'groups' for --by");
	il_ctr_cmp_free(&c);
	/* a key every run has: its value on each row */
	t_check_int(il_ctr_cmp_build_sides(paths, nfiles, 2, "configuration",
					   NULL, 1 << 20, &o, &c, errs,
					   sizeof(errs)),
		    0);
	t_check_int(c.n, 3);
	if (c.n == 3) {
		/* the configuration as the key: one table, a row each */
		t_check_str(c.rows[0].group, "p");
		t_check_str(c.rows[0].by, "a");
		t_check_str(c.rows[1].by, "b");
		t_check_str(c.rows[2].by, "a");
		t_check_str(c.rows[2].metric, "y");
	}
	il_ctr_cmp_free(&c);

	/* two sides print as they always did, text and JSON */
	{
		char *argv[] = { (char *)tool, "-q", base, cand, NULL };
		char *json[] = { (char *)tool, "-q", "-f", "json",
				 base,	       cand, NULL };
		char *three[] = { (char *)tool, "-q", "-f", "json", base,
				  "--",		cand, "--", base,   NULL };

		rc = t_run_tool(argv, &out, &err);
		t_check_int(rc, 1);
		t_check_contains(out,
				 "\nAmean wall       0.1025 (  0.00%)      "
				 "0.1325 *-29.27%*   runs 6:6  p 0.002  p "
				 "adj 0.006  worse\n");
		free(out), free(err);
		rc = t_run_tool(json, &out, &err);
		t_check_int(rc, 1);
		t_check(!strstr(out, "\"side\""));
		t_check(!strstr(out, "\"by\""));
		free(out), free(err);
		rc = t_run_tool(three, &out, &err);
		t_check_int(rc, 1);
		t_check_int((int)t_count(out, "\"side\":\"cand2\""), 3);
		free(out), free(err);
	}
}

static void test_tool(const char *tool, char *base, char *cand)
{
	char *out = NULL, *err = NULL;
	char *argv[] = { (char *)tool, base, cand, NULL };
	char *same[] = {
		(char *)tool, "--format", "markdown", base, base, NULL
	};
	int rc;

	rc = t_run_tool(argv, &out, &err);
	/* a worse wall time is a worse comparison */
	t_check_int(rc, 1);
	t_check_contains(out, "sched-messaging/process-socket wall time");
	t_check_contains(out, "lower is better");
	t_check_contains(out, "Amean wall");
	t_check_contains(out, "0.1025 (  0.00%)");
	t_check_contains(out, "0.1325 *-29.27%*");
	t_check_contains(out, "context_switches");
	t_check_contains(out, "+20.00%");
	t_check_contains(out, "significance");
	free(out);
	free(err);
	out = err = NULL;
	rc = t_run_tool(same, &out, &err);
	t_check_int(rc, 0);
	t_check_contains(out, "| Amean wall |");
	t_check_contains(out, "+0.00%");
	t_check_contains(out, "no change");
	free(out);
	free(err);

	/* three sides: a column group a side, a counters row a side */
	{
		char *three[] = { (char *)tool, "-q", "-l",   "tip", "-l",
				  "v21",	"-l", "full", base,  "--",
				  cand,		"--", base,   NULL };
		char *md[] = { (char *)tool, "-q", "-f", "markdown", base,
			       "--",	     cand, "--", cand,	     NULL };

		out = err = NULL;
		rc = t_run_tool(three, &out, &err);
		t_check_int(rc, 1);
		t_check_contains(out, "             runs  tip                 "
				      "CV  v21                 CV  p adj  "
				      "change  full                CV  p adj  "
				      "change\n");
		t_check_contains(out, "Amean wall  6:6:6  0.1025 (  0.00%)  "
				      "4.89  0.1325 *-29.27%*  3.78  0.013  "
				      "worse   0.1025 (  0.00%)  4.89  1.000  "
				      "no change\n");
		t_check_contains(out, "Holm correction over the 6 rows of this "
				      "block, every side against the baseline");
		t_check_contains(out, "sched-messaging/process-socket  "
				      "context_switches  full   1000   1000   "
				      "+0.00%");
		free(out);
		free(err);
		out = err = NULL;
		rc = t_run_tool(md, &out, &err);
		t_check_int(rc, 1);
		t_check_contains(out, "| | runs | baseline | CV | cand1 | CV | "
				      "p adj | change | cand2 | CV | p adj | "
				      "change |\n|---|---:|---:|---:|---:|"
				      "---:|---:|---|---:|---:|---:|---|\n| "
				      "Amean wall | 6:6:6 |");
		t_check_contains(out, "| configuration | metric | side | "
				      "baseline | value |");
		free(out);
		free(err);
	}
}

int main(int argc, char **argv)
{
	char base[1024], cand[1024];

	if (argc < 3) {
		fprintf(stderr, "usage: %s INVLAB-COMPARE DATADIR\n", argv[0]);
		return 2;
	}
	snprintf(base, sizeof(base), "%s/base.json", argv[2]);
	snprintf(cand, sizeof(cand), "%s/cand.json", argv[2]);
	test_build(base, cand);
	test_sides(base, cand);
	test_tool(argv[1], base, cand);
	test_order_and_by(argv[1], base, cand);
	t_tmp_cleanup();
	return t_done("counters-cmp");
}
