// SPDX-License-Identifier: MIT
/*
 * The demo driver (driver/driver.h): the exit status through the one
 * expectation rule, refusals as 77, bad configurations as 2, measured-only
 * runs, the configurations' --set changes and the result file.  The runs
 * are one CFS task for 100 ms (no privilege needed); the verdicts come
 * from a judge of the test's own, so nothing depends on timing.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <invlab/time.h>

#include "../driver/driver.h"
#include "t_util.h"

struct cfg {
	struct il_common_cfg common; /* must come first: see opt.h */
	int flag;
};

static const struct il_opt opts[] = {
	{
		.name = "flag",
		.type = IL_OPT_FLAG,
		.offset = offsetof(struct cfg, flag),
		.help = "a flag of the family",
	},
	{ .name = NULL },
};

static const char job[] = "[global]\n"
			  "name = t\n"
			  "validate = none\n"
			  "[resource M]\n"
			  "protocol = none\n"
			  "[task a]\n"
			  "class = other\n"
			  "activation = periodic\n"
			  "period = 10ms\n"
			  "body = lock M, run 100us, unlock M\n";

/* what the test's judge gives each configuration */
static enum il_verdict got[2], want[2];
static int judged, cannot;
static uint64_t seen_duration[2];

static int judge(struct drv *d, struct drv_run *r, char *why, size_t len)
{
	judged++;
	seen_duration[r->config] = r->sc->g.duration_ns;
	r->ck[0].validator = "t";
	snprintf(r->ck[0].task, sizeof(r->ck[0].task), "a");
	r->ck[0].c.verdict = got[r->config];
	snprintf(r->ck[0].c.evidence, sizeof(r->ck[0].c.evidence), "test");
	r->ck[0].expected = want[r->config];
	r->nck = 1;
	return 0;
}

static const char *cannot_run(struct drv *d, int c, char *why, size_t len)
{
	if (!cannot)
		return NULL;
	snprintf(why, len, "not here");
	return why;
}

/* a build without priority inheritance, as musl is without the ceiling */
static const char *no_inherit(enum il_protocol p)
{
	return p == IL_PROTO_INHERIT ? "fake: no inheritance in this build"
				     : NULL;
}

static struct drv_config configs[2] = {
	{ .name = "one", .text = job, .file = "t.job" },
	{ .name = "two",
	  .text = job,
	  .file = "t.job",
	  .set = { "a.body=lock M, run 200us, unlock M" } },
};

/* the default run: one to 4 waits (p75) within 5 s, two for 150 ms */
static const struct drv_default defaults[] = {
	{ .config = "one", .tail = 0.75, .bound_ns = 5 * IL_NSEC_PER_SEC },
	{ .bound_ns = 150 * IL_NSEC_PER_MSEC },
	{ .bound_ns = 0 },
};

static struct drv_family fam = {
	.prog = "test-driver",
	.usage = "[OPTIONS]",
	.summary = "test",
	.opts = opts,
	.cfg_size = sizeof(struct cfg),
	.configs = configs,
	.nconfigs = 2,
	.judge = judge,
	.cannot_run = cannot_run,
	.skip_refused = true,
	.defaults = defaults,
};

/* drv_main with these arguments after the program name */
static int run(const char *a1, const char *a2, const char *a3)
{
	/* --no-lock: what it checks is the driver's logic, and another
	 * invlab run beside it (a second copy of the suite) must neither
	 * hold it up nor be held up by it */
	char *argv[9] = { (char *)"test-driver", (char *)"-q",
			  (char *)"--no-lock", (char *)"-d", (char *)"100ms" };
	int argc = 5;

	if (a1)
		argv[argc++] = (char *)a1;
	if (a2)
		argv[argc++] = (char *)a2;
	if (a3)
		argv[argc++] = (char *)a3;
	judged = 0;
	return drv_main(&fam, argc, argv);
}

/* prose wrapped under a table, unwrapped: "\n  " read as " " */
static void unwrap(char *text)
{
	char *w = text;

	for (const char *r = text; *r; r++) {
		if (r[0] == '\n' && r[1] == ' ' && r[2] == ' ') {
			*w++ = ' ';
			r += 2;
			continue;
		}
		*w++ = *r;
	}
	*w = '\0';
}

static int outcome(enum il_verdict g, enum il_verdict w)
{
	got[0] = got[1] = IL_PASS;
	want[0] = want[1] = IL_PASS;
	got[1] = g;
	want[1] = w;
	return run(NULL, NULL, NULL);
}

static char *slurp(const char *path);

/*
 * drv_main with the arguments after -q --no-lock -d 100ms (NULL ends
 * them); its standard output is returned (free it), its exit status in
 * *rc.  The driver holds standard output under --ktap (demo.h): what it
 * writes into the file that stands in for it must come back here too.
 */
static char *run_out(int *rc, ...)
{
	char *argv[16] = { (char *)"test-driver", (char *)"-q",
			   (char *)"--no-lock", (char *)"-d", (char *)"100ms" };
	char path[] = "/tmp/test-driver-out-XXXXXX", *text;
	int argc = 5, fd, out;
	const char *a;
	va_list ap;

	va_start(ap, rc);
	while ((a = va_arg(ap, const char *)) && argc < 15)
		argv[argc++] = (char *)a;
	va_end(ap);
	fd = mkstemp(path);
	t_check(fd >= 0);
	fflush(stdout);
	out = dup(1);
	dup2(fd, 1);
	close(fd);
	judged = 0;
	*rc = drv_main(&fam, argc, argv);
	fflush(stdout);
	dup2(out, 1);
	close(out);
	text = slurp(path);
	unlink(path);
	return text;
}

/* text begins with prefix */
static bool starts(const char *text, const char *prefix)
{
	return !strncmp(text, prefix, strlen(prefix));
}

/* no result line of text has a '#' in its description: its first '#'
 * is a directive's " # SKIP", if it has one */
static bool ktap_descriptions_clean(const char *text)
{
	const char *l = text, *nl, *h;

	for (; l && (nl = strchr(l, '\n')); l = nl + 1) {
		if (strncmp(l, "ok ", 3) && strncmp(l, "not ok ", 7))
			continue;
		h = memchr(l, '#', (size_t)(nl - l));
		if (h && strncmp(h - 1, " # SKIP ", 8))
			return false;
	}
	return true;
}

/*
 * --ktap and --exit-status=kselftest (docs/kselftest.md): the version
 * line and the plan first, a test per check with its verdict, an
 * UNDECIDED one a SKIP with its reason, nothing to run a skip plan; and
 * each invlab exit status mapped as kselftest's runner reads it.
 */
static void test_ktap(void)
{
	char *text;
	int rc;

	got[0] = got[1] = want[0] = want[1] = IL_PASS;
	got[1] = IL_FAIL;
	/* the closing count line is the text report's, not a KTAP line */
	fam.count_line = true;
	text = run_out(&rc, "--ktap", NULL);
	t_check_int(rc, 1);
	t_check(text && starts(text, "KTAP version 1\n1..2\n"));
	if (text) {
		t_check(!strstr(text, "undecided (noise could"));
		/* the evidence right before its test (ktap.rst) */
		t_check_contains(text, "# test\nok 1 - one t a: PASS "
				       "(expected PASS)\n");
		t_check_contains(text, "# test\nnot ok 2 - two t a: FAIL "
				       "(expected PASS)\n");
		t_check(!strstr(text, "TAP version 13"));
		/* the plan once, at the top */
		t_check(!strstr(text + 21, "1..2"));
	}
	free(text);
	text = run_out(&rc, "--ktap", "--exit-status=kselftest", NULL);
	t_check_int(rc, 1); /* FAIL */
	free(text);
	text = run_out(&rc, NULL);
	t_check(text && strstr(text, "1 check as expected"));
	free(text);
	fam.count_line = false;

	/* UNDECIDED where PASS was expected: a SKIP that says why */
	got[1] = IL_UNDECIDED;
	text = run_out(&rc, "--ktap", NULL);
	t_check_int(rc, 3);
	t_check(text != NULL);
	if (text)
		t_check_contains(text, "ok 2 - two t a: UNDECIDED (expected "
				       "PASS) # SKIP undecided: measured "
				       "noise could explain it\n");
	free(text);
	text = run_out(&rc, "--ktap", "--exit-status=kselftest", NULL);
	t_check_int(rc, 4); /* not a pass, and no failure: a skip */
	free(text);
	/* the same in TAP 13 and invlab's statuses as before */
	text = run_out(&rc, "--tap", NULL);
	t_check_int(rc, 3);
	t_check(text && starts(text, "TAP version 13\n"));
	if (text) {
		t_check_contains(text, "ok 1 - one t a: PASS (expected "
				       "PASS)\n# test\n");
		t_check_contains(text, "\n1..2\n");
	}
	free(text);

	/* PASS: 0 either way */
	got[1] = IL_PASS;
	text = run_out(&rc, "--ktap", "--exit-status=kselftest", NULL);
	t_check_int(rc, 0);
	free(text);
	text = run_out(&rc, "--exit-status=kselftest", NULL);
	t_check_int(rc, 0);
	free(text);

	/* --repeat: no '#' in a KTAP description (" run 2", not " #2") */
	text = run_out(&rc, "--ktap", "--repeat", "2", NULL);
	t_check_int(rc, 0);
	t_check(text && starts(text, "KTAP version 1\n1..4\n"));
	if (text) {
		t_check_contains(text, "ok 4 - two run 2 t a: PASS");
		t_check(ktap_descriptions_clean(text));
	}
	free(text);

	/* nothing can run here: each configuration a SKIP with its
	 * reason, 77, and kselftest's 4 */
	cannot = 1;
	text = run_out(&rc, "--ktap", NULL);
	t_check_int(rc, 77);
	t_check_int(judged, 0);
	t_check(text && starts(text, "KTAP version 1\n1..2\n"
				     "ok 1 - one # SKIP not here\n"
				     "ok 2 - two # SKIP not here\n"));
	free(text);
	text = run_out(&rc, "--ktap", "--exit-status=kselftest", NULL);
	t_check_int(rc, 4);
	free(text);
	cannot = 0;

	/* bad usage stays 2, never kselftest's 4, nor 0 */
	text = run_out(&rc, "--ktap", "--tap", NULL);
	t_check_int(rc, 2);
	free(text);
	text = run_out(&rc, "--ktap", "--live", NULL);
	t_check_int(rc, 2);
	free(text);
	text = run_out(&rc, "--exit-status=kselftest", "--bogus", NULL);
	t_check_int(rc, 2);
	free(text);
	text = run_out(&rc, "--exit-status=ksft", NULL);
	t_check_int(rc, 2);
	free(text);
	/* a configuration that cannot be built: bad input, 2 */
	configs[1].set[1] = "a.clas=other";
	text = run_out(&rc, "--ktap", "--exit-status=kselftest", NULL);
	t_check_int(rc, 2);
	t_check_int(judged, 0);
	free(text);
	configs[1].set[1] = NULL;

	/* a run this build cannot make: a SKIP test of its own */
	drv_protocol_missing = no_inherit;
	configs[1].set[1] = "M.protocol=inherit";
	text = run_out(&rc, "--ktap", "--exit-status=kselftest", NULL);
	t_check_int(rc, 0);
	t_check(text && starts(text, "KTAP version 1\n1..2\n"));
	if (text)
		t_check_contains(text, "ok 2 - two # SKIP resource 'M': fake: "
				       "no inheritance in this build\n");
	free(text);
	configs[1].set[1] = NULL;

	/* measured only: one test per run */
	fam.judge = NULL;
	text = run_out(&rc, "--ktap", NULL);
	t_check_int(rc, 0);
	t_check(text && starts(text, "KTAP version 1\n1..2\n"));
	if (text)
		t_check_contains(text, "ok 1 - one measured only (validate = "
				       "none): every task ran\n");
	free(text);
	fam.judge = judge;
}

/*
 * The hold under --ktap (demo.h): what was written meanwhile comes after
 * the version line and the plan, or the skip plan when nothing ran.
 */
static void test_ktap_hold(void)
{
	char path[] = "/tmp/test-driver-hold-XXXXXX", *text;
	int fd = mkstemp(path), out;

	t_check(fd >= 0);
	fflush(stdout);
	out = dup(1);
	dup2(fd, 1);
	close(fd);
	demo_ktap_release(3, NULL); /* no hold: nothing */
	t_check_int(demo_ktap_hold(), 0);
	t_check_int(demo_ktap_hold(), -EBUSY);
	printf("# held\n");
	fflush(stdout);
	/* written past the stdio buffer, as a child process would */
	t_check_int((int)write(1, "# raw\n", 6), 6);
	demo_ktap_release(0, "not here\nat all");
	t_check_int(demo_ktap_hold(), 0);
	printf("ok 1 - x\n");
	demo_ktap_release(1, "ignored: a test was written");
	fflush(stdout);
	dup2(out, 1);
	close(out);
	text = slurp(path);
	unlink(path);
	t_check_str(text, "KTAP version 1\n1..0 # SKIP not here at all\n"
			  "# held\n# raw\n"
			  "KTAP version 1\n1..1\nok 1 - x\n");
	free(text);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 20);

	if (f && buf)
		buf[fread(buf, 1, (1 << 20) - 1, f)] = '\0';
	if (f)
		fclose(f);
	return buf;
}

/* a table's verdict cell names a later check not as expected */
static void test_other_checks_cell(void)
{
	static struct drv_run r;
	char cell[48];

	memset(&r, 0, sizeof(r));
	r.nck = 3;
	for (int i = 0; i < 3; i++) {
		r.ck[i].c.verdict = r.ck[i].expected = IL_PASS;
		snprintf(r.ck[i].task, sizeof(r.ck[i].task), "t%d", i);
	}
	snprintf(cell, sizeof(cell), "PASS");
	drv_other_checks_cell(&r, cell, sizeof(cell));
	t_check_str(cell, "PASS");
	/* the first check's own verdict is the cell's already */
	r.ck[0].c.verdict = IL_FAIL;
	drv_other_checks_cell(&r, cell, sizeof(cell));
	t_check_str(cell, "PASS");
	/* the first later one not as expected, once */
	r.ck[2].c.verdict = IL_FAIL;
	drv_other_checks_cell(&r, cell, sizeof(cell));
	t_check_str(cell, "PASS; t2 FAIL");
	r.ck[1].c.verdict = IL_UNDECIDED;
	snprintf(cell, sizeof(cell), "PASS");
	drv_other_checks_cell(&r, cell, sizeof(cell));
	t_check_str(cell, "PASS; t1 UNDECIDED");
	/* informational: nothing expected, nothing to say */
	r.ck[1].expected = IL_NONE;
	r.ck[2].c.verdict = IL_PASS;
	snprintf(cell, sizeof(cell), "PASS");
	drv_other_checks_cell(&r, cell, sizeof(cell));
	t_check_str(cell, "PASS");
}

int main(void)
{
	const char *(*protect_missing)(enum il_protocol) = drv_protocol_missing;
	char path[] = "/tmp/test-driver-XXXXXX", file[64];
	char *text;
	int fd;

	test_other_checks_cell();
	/* the exit status is the expectation rule's */
	t_check_int(outcome(IL_PASS, IL_PASS), 0);
	t_check_int(judged, 2);
	t_check_int(outcome(IL_FAIL, IL_FAIL), 0);
	t_check_int(outcome(IL_FAIL, IL_PASS), 1);
	t_check_int(outcome(IL_PASS, IL_FAIL), 1);
	/* tolerated, but not a pass: 3 (expect.h il_exit_status) */
	t_check_int(outcome(IL_UNDECIDED, IL_PASS), 3);
	t_check_int(outcome(IL_UNDECIDED, IL_FAIL), 1); /* a blind control */
	t_check_int(outcome(IL_NONE, IL_PASS), 1);	/* fails closed */
	t_check_int(outcome(IL_FAIL, IL_NONE), 0);	/* information */

	/* every configuration ran with --duration and its own changes */
	t_check_int(seen_duration[0], 100 * IL_NSEC_PER_MSEC);
	t_check_int(seen_duration[1], 100 * IL_NSEC_PER_MSEC);

	/* nothing can run here: 77; a configuration that cannot be built: 2 */
	cannot = 1;
	t_check_int(outcome(IL_PASS, IL_PASS), 77);
	t_check_int(judged, 0);
	cannot = 0;
	configs[1].set[1] = "a.clas=other";
	t_check_int(outcome(IL_PASS, IL_PASS), 2);
	t_check_int(judged, 0);
	configs[1].set[1] = NULL;
	t_check_int(run("--bogus", NULL, NULL), 2);
	t_check_int(run("--help", NULL, NULL), 0);

	/* the result file: every run, its check, the judge's inputs, rc */
	fd = mkstemp(path);
	t_check(fd >= 0);
	if (fd >= 0)
		close(fd);
	snprintf(file, sizeof(file), "%s", path);
	got[0] = IL_PASS;
	got[1] = IL_FAIL;
	want[0] = want[1] = IL_PASS;
	t_check_int(run("--json", file, NULL), 1);
	text = slurp(file);
	t_check(text != NULL);
	if (text) {
		t_check_contains(text, "\"configuration\":\"one\"");
		t_check_contains(text, "\"configuration\":\"two\"");
		t_check_contains(text, "\"checks\"");
		t_check_contains(text, "\"judge_inputs\"");
		t_check_contains(text, "\"interrupted\":false");
		t_check_contains(text, "\"return_code\":1");
		t_check_contains(text, "run 200us");
	}
	free(text);
	unlink(file);
	/* the same name again, for the output of the runs below */
	snprintf(file, sizeof(file), "%s.out", path);

	/*
	 * A protocol this build lacks: the configuration that needs it is a
	 * SKIP with the reason (the TAP, the result file), the others run
	 * and decide the exit status; when it was all there was to run, 77.
	 * Also for a family that does not skip what the engine refuses.
	 */
	drv_protocol_missing = no_inherit;
	fam.skip_refused = false;
	configs[1].set[1] = "M.protocol=inherit";
	got[0] = got[1] = IL_PASS;
	want[0] = want[1] = IL_PASS;
	fflush(stdout);
	fd = dup(1);
	t_check(freopen(file, "w", stdout) != NULL);
	t_check_int(run("--tap", "--json", path), 0);
	fflush(stdout);
	dup2(fd, 1);
	close(fd);
	t_check_int(judged, 1);
	text = slurp(file);
	t_check(text != NULL);
	if (text) {
		t_check_contains(text, "ok 1 - one t a: PASS");
		t_check_contains(text, "ok 2 - two # SKIP resource 'M': fake: "
				       "no inheritance in this build\n");
		t_check_contains(text, "1..2\n");
	}
	free(text);
	text = slurp(path);
	t_check(text != NULL);
	if (text) {
		t_check_contains(text, "\"configuration\":\"two\"");
		t_check_contains(text, "\"verdict\":\"SKIP\"");
		t_check_contains(text, "\"skipped\":\"resource 'M': fake");
		t_check_contains(text, "\"return_code\":0");
	}
	free(text);
	configs[0].set[0] = "M.protocol=inherit";
	t_check_int(run(NULL, NULL, NULL), 77); /* nothing could run */
	t_check_int(judged, 0);
	configs[0].set[0] = NULL;
	configs[1].set[1] = NULL;
	fam.skip_refused = true;
	drv_protocol_missing = protect_missing;
	unlink(path);
	unlink(file);

	/*
	 * A sample target: each run ends at 3 judged waits (a job every
	 * 10 ms, long before the 100 ms), then one too far for the
	 * duration; the result file says which ended it.
	 */
	got[0] = got[1] = want[0] = want[1] = IL_PASS;
	t_check_int(run("--samples=3", "--json", path), 0);
	t_check_int(judged, 2);
	text = slurp(path);
	t_check(text != NULL);
	if (text) {
		t_check_contains(text, "\"ended_by\":\"samples\"");
		t_check_contains(text, "\"samples_target\":3,");
		t_check_contains(text, "\"samples_of\":\"a's waits\"");
		t_check_contains(text, "\"duration_bound_ns\":100000000,");
		t_check(!strstr(text, "\"ended_by\":\"duration\""));
	}
	free(text);
	t_check_int(run("--samples=1000", "--json", path), 0);
	text = slurp(path);
	t_check(text != NULL);
	if (text) {
		t_check_contains(text, "\"ended_by\":\"duration\"");
		t_check_contains(text, "\"samples_target\":1000,");
		t_check(!strstr(text, "\"ended_by\":\"samples\""));
	}
	free(text);
	/* no target: the duration ended it, and there is no target */
	t_check_int(run("--json", path, NULL), 0);
	text = slurp(path);
	t_check(text != NULL);
	if (text) {
		t_check_contains(text, "\"ended_by\":\"duration\"");
		t_check_contains(text, "\"samples_target\":null");
	}
	free(text);
	unlink(path);
	/* a target without --duration: the target's bound, not 3s */
	{
		char *argv[] = { (char *)"test-driver", (char *)"-q",
				 (char *)"--samples",	(char *)"2",
				 (char *)"--no-lock",	NULL };

		seen_duration[0] = 0;
		t_check_int(drv_main(&fam, 5, argv), 0);
		t_check_int(seen_duration[0], IL_SAMPLES_BOUND_NS);
	}

	/*
	 * The default run (no -d, --samples or --percentile): each
	 * configuration its own target and bound, said before the runs,
	 * after each and in the table; the runs above named -d or
	 * --samples, and no default applied to them.
	 */
	{
		char *argv[] = { (char *)"test-driver", (char *)"--no-lock",
				 (char *)"--json", path, NULL };

		fam.subject = "a";
		fam.subject_table = true;
		fam.config_label = "config";
		seen_duration[0] = seen_duration[1] = 0;
		fflush(stdout);
		fd = dup(1);
		t_check(freopen(file, "w", stdout) != NULL);
		t_check_int(drv_main(&fam, 4, argv), 0);
		fflush(stdout);
		dup2(fd, 1);
		close(fd);
		fam.subject = NULL;
		fam.subject_table = false;
		fam.config_label = NULL;
		t_check_int(seen_duration[0], 5 * IL_NSEC_PER_SEC);
		t_check_int(seen_duration[1], 150 * IL_NSEC_PER_MSEC);
		text = slurp(file);
		t_check(text != NULL);
		if (text) {
			t_check_contains(text,
					 "runs: one to 4 samples (p75) "
					 "within 5s, the others for "
					 "150ms, whichever comes first\n");
			/* (the target is checked every 10 ms: a wait
			 * or two more may come first) */
			const char *row = strstr(text, "\none  ");

			t_check_contains(text, "one: ended: ");
			t_check_contains(text, " samples (a's waits) in ");
			t_check(row && strstr(row, "  target ") &&
				strstr(row, "  target ") <
					strchr(row + 1, '\n'));
			t_check_contains(text, "  bound 150ms  ");
			unwrap(text);
			t_check_contains(text, "n/a (<1000): stopped at the "
					       "target: one (");
			t_check_contains(text, " waits; 1000 in about ");
			t_check_contains(text, "; stopped at the bound: two (");
			t_check_contains(text, "; --percentile p999 runs each "
					       "to 1000\n");
			t_check(!strstr(text, "two: ended:"));
		}
		free(text);
		text = slurp(path);
		t_check(text != NULL);
		if (text) {
			const char *two = strstr(text, "\"configuration\":"
						       "\"two\"");

			t_check_contains(text, "\"ended_by\":\"samples\"");
			t_check_contains(text, "\"samples_target\":4,");
			t_check_contains(text, "\"duration_bound_ns\":"
					       "5000000000,");
			t_check(two != NULL);
			if (two) {
				t_check_contains(two, "\"ended_by\":"
						      "\"duration\"");
				t_check_contains(two, "\"samples_target\":"
						      "null");
				t_check_contains(two, "\"duration_bound_ns\":"
						      "150000000,");
			}
		}
		free(text);
		unlink(path);
		unlink(file);
	}
	/* --help says what the defaults are */
	{
		char *argv[] = { (char *)"test-driver", (char *)"--help",
				 NULL };

		fflush(stdout);
		fd = dup(1);
		t_check(freopen(file, "w", stdout) != NULL);
		t_check_int(drv_main(&fam, 2, argv), 0);
		fflush(stdout);
		dup2(fd, 1);
		close(fd);
		text = slurp(file);
		t_check(text != NULL);
		if (text) {
			t_check_contains(text, "(default: one 5s, the others");
			t_check_contains(text, "(default: one 4 (p75), the");
		}
		free(text);
		unlink(file);
	}

	/* no judge: measured only, as expected when every task ran */
	fam.judge = NULL;
	t_check_int(run(NULL, NULL, NULL), 0);
	fam.judge = judge;

	test_ktap();
	test_ktap_hold();
	drv_protocol_missing = protect_missing;
	return t_done("driver");
}
