// SPDX-License-Identifier: MIT
/*
 * The narration of a round (stage.h) from synthetic notes of the
 * pi-classic job: the sentences in time order, in the job's names; a
 * quick lock request told as one "takes", a slow one as "asks" then
 * "gets"; the round's word "inversion" with who ran in between under no
 * protocol, "bounded" under inheritance; a holder that took the lock
 * only after the waiter's release judged from its acquisition; a hog's
 * job outside the round
 * left out; and the --stage-pause values.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/stage.h>
#include <invlab/time.h>

#include "t_util.h"

static const char job[] = "[global]\n"
			  "validate = pi\n"
			  "[resource M]\n"
			  "protocol = none\n"
			  "[task low]\n"
			  "class = other\n"
			  "activation = round\n"
			  "body = lock M, signal held, run 2ms, unlock M\n"
			  "[task high]\n"
			  "class = other\n"
			  "activation = round\n"
			  "offset = 500us\n"
			  "body = wait held, signal go, lock M, signal got, "
			  "unlock M\n"
			  "[task medium]\n"
			  "class = other\n"
			  "activation = event\n"
			  "on = go\n"
			  "body = spin 20ms until got\n"
			  "[task bg]\n"
			  "class = other\n"
			  "activation = hog\n"
			  "body = run 1ms\n";

#define US IL_NSEC_PER_USEC
#define MS IL_NSEC_PER_MSEC
#define T0 (1000 * MS)

static void phase(struct il_stage_task_notes *t, int p, uint64_t b, uint64_t d)
{
	t->begin[p] = T0 + b;
	t->done[p] = T0 + d;
}

/* one round; held is how long low's section took on the wall clock */
static void round_notes(struct il_stage_notes *n, uint64_t held)
{
	struct il_stage_task_notes *lo = &n->task[0], *hi = &n->task[1],
				   *me = &n->task[2], *bg = &n->task[3];

	memset(n, 0, sizeof(*n));
	n->round = 2;
	lo->rel = T0;
	lo->start = T0 + 10 * US;
	phase(lo, 0, 12 * US, 13 * US);		      /* lock M */
	phase(lo, 1, 14 * US, 15 * US);		      /* signal held */
	phase(lo, 2, 16 * US, 16 * US + held);	      /* run 2ms */
	phase(lo, 3, 17 * US + held, 18 * US + held); /* unlock */
	lo->end = T0 + 19 * US + held;
	hi->rel = T0 + 500 * US;
	hi->start = T0 + 505 * US;
	phase(hi, 0, 506 * US, 507 * US);	      /* wait held */
	phase(hi, 1, 508 * US, 509 * US);	      /* signal go */
	phase(hi, 2, 510 * US, 20 * US + held);	      /* lock M */
	phase(hi, 3, 21 * US + held, 22 * US + held); /* signal got */
	phase(hi, 4, 23 * US + held, 24 * US + held); /* unlock */
	hi->end = T0 + 25 * US + held;
	if (held > 5 * MS) { /* medium spun until got */
		me->rel = T0 + 509 * US;
		me->start = T0 + 512 * US;
		phase(me, 0, 513 * US, 20513 * US); /* its whole 20 ms */
		me->end = T0 + 20514 * US;
	}
	/* the hog's second job, long before the round */
	bg->rel = T0 - 900 * MS;
	bg->start = T0 - 900 * MS;
	phase(bg, 0, 0, 1 * MS);
	bg->begin[0] -= 900 * MS;
	bg->done[0] -= 900 * MS;
	bg->end = T0 - 899 * MS;
	for (int i = 0; i < 4; i++)
		n->task[i].noted = 1;
}

/* low woken 1.4 ms late, after high's release: high waits for held */
static void late_holder(struct il_stage_notes *n, uint64_t held)
{
	struct il_stage_task_notes *lo = &n->task[0], *hi = &n->task[1];
	uint64_t d = 1400 * US;

	round_notes(n, held);
	memset(&n->task[2], 0, sizeof(n->task[2]));
	lo->start += d;
	for (int p = 0; p < 4; p++) {
		lo->begin[p] += d;
		lo->done[p] += d;
	}
	lo->end += d;
	phase(hi, 0, 506 * US, d + 15 * US);	       /* wait held */
	phase(hi, 1, d + 16 * US, d + 17 * US);	       /* signal go */
	phase(hi, 2, d + 18 * US, d + 20 * US + held); /* lock M */
	phase(hi, 3, d + 21 * US + held, d + 22 * US + held);
	phase(hi, 4, d + 23 * US + held, d + 24 * US + held);
	hi->end = T0 + d + 25 * US + held;
}

static int find(const struct il_stage_line *l, int n, const char *text)
{
	for (int i = 0; i < n; i++)
		if (strstr(l[i].text, text))
			return i;
	return -1;
}

int main(void)
{
	static struct il_stage_notes notes;
	struct il_stage_line l[IL_STAGE_MAX_LINES];
	struct il_scenario sc;
	char err[256];
	int n, prev = -1;
	uint64_t ns;
	static const char *const none_order[] = {
		"low wakes up",
		"low takes M",
		"low signals held",
		"low works 2.00ms holding M",
		"high wakes up",
		"high signals go: it releases medium",
		"high asks for M",
		"medium wakes up",
		"medium spins 20.0ms or until got",
		"medium is done, 20.0ms after its release",
		"low's 2.00ms of work took 21.5ms: it was kept off the CPU",
		"low releases M",
		"high gets M after 21.0ms",
		("high waited 21.0ms from its release for M, where low needs "
		 "2.00ms: inversion (medium ran in between)"),
		"high signals got",
		"high releases M",
		"high is done, 21.0ms after its release",
	};

	if (il_scenario_parse(job, "stage.job", &sc, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 99;
	}

	/* no protocol: low's 2 ms take 21.5 ms while medium spins */
	round_notes(&notes, 21500 * US);
	n = il_stage_story(&sc, &notes, l, IL_STAGE_MAX_LINES);
	for (size_t k = 0; k < sizeof(none_order) / sizeof(*none_order); k++) {
		int i = find(l, n, none_order[k]);

		t_check(i >= 0);
		t_check(i > prev);
		if (i < 0 || i <= prev)
			fprintf(stderr, "line '%s' at %d, after %d\n",
				none_order[k], i, prev);
		prev = i > prev ? i : prev;
	}
	for (int i = 0; i < n && getenv("STAGE_DUMP"); i++)
		fprintf(stderr, "%8llu %s\n", (unsigned long long)l[i].t_ns,
			l[i].text);
	for (int i = 1; i < n; i++)
		t_check(l[i].t_ns >= l[i - 1].t_ns);
	t_check_int(l[0].t_ns, 10 * US); /* from the round's first release */
	t_check_int(find(l, n, "low asks"), -1); /* quick: one line */
	t_check_int(find(l, n, "bg"), -1);	 /* outside the round */
	t_check_int(find(l, n, "bounded"), -1);

	/* inheritance: low's section as long as its work, medium never ran */
	round_notes(&notes, 2050 * US);
	n = il_stage_story(&sc, &notes, l, IL_STAGE_MAX_LINES);
	t_check(find(l, n,
		     "high waited 1.57ms from its release for M, where "
		     "low needs 2.00ms: bounded") >= 0);
	t_check_int(find(l, n, "inversion"), -1);
	t_check_int(find(l, n, "kept off the CPU"), -1);
	t_check_int(find(l, n, "medium wakes"), -1);
	/* a section stretched by less than half its work is not one */
	round_notes(&notes, 2900 * US);
	n = il_stage_story(&sc, &notes, l, IL_STAGE_MAX_LINES);
	t_check(find(l, n, "bounded") >= 0);
	round_notes(&notes, 3900 * US);
	n = il_stage_story(&sc, &notes, l, IL_STAGE_MAX_LINES);
	t_check(find(l, n, ": inversion") >= 0);

	/* a holder that took the lock after high's release (woken late):
	 * only the wait from its acquisition counts */
	late_holder(&notes, 1050 * US);
	n = il_stage_story(&sc, &notes, l, IL_STAGE_MAX_LINES);
	t_check(find(l, n,
		     "high waited 1.97ms from its release for M, 1.06ms "
		     "of it while low held it, needing 2.00ms: "
		     "bounded") >= 0);
	late_holder(&notes, 4000 * US); /* low's section stretched */
	n = il_stage_story(&sc, &notes, l, IL_STAGE_MAX_LINES);
	t_check(find(l, n,
		     "of it while low held it, needing 2.00ms: "
		     "inversion") >= 0);

	/* at most max lines */
	t_check_int(il_stage_story(&sc, &notes, l, 3), 3);
	/* nothing noted, nothing told */
	memset(&notes, 0, sizeof(notes));
	t_check_int(il_stage_story(&sc, &notes, l, IL_STAGE_MAX_LINES), 0);

	t_check_int(il_stage_parse_pause("key", &ns), 0);
	t_check(ns == UINT64_MAX);
	t_check_int(il_stage_parse_pause("5s", &ns), 0);
	t_check(ns == 5 * IL_NSEC_PER_SEC);
	t_check_int(il_stage_parse_pause("0", &ns), 0);
	t_check(ns == 0);
	t_check_int(il_stage_parse_pause("soon", &ns), -22);
	t_check_int(il_stage_parse_pause("2h", &ns), -22);
	il_scenario_free(&sc);
	return t_done("stage");
}
