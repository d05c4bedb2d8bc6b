// SPDX-License-Identifier: MIT
/*
 * The driver's board and narration; see driver-show.h.
 *
 * A row's measures are those of the run's subject (the family's, else
 * the first task that takes a lock, else the first task): its blocked
 * time and wakeup latency when it takes locks, else its wakeup and
 * response times.  While a configuration runs its bound is the longest
 * critical section the other tasks have held so far on the subject's
 * first lock (what the one-CPU inheritance bound is made of) and its
 * verdict is the family's forming one (its --live rows), else
 * "running"; once judged, both are the judge's.
 *
 * The narrator is a thread of its own, with every signal blocked (they
 * are the main thread's), that waits for the noted round to end, then
 * prints its story a line every --stage-step, while the engine goes on
 * measuring; drv_show_ran waits for it to finish.  It narrates round 2:
 * the first round also pays for first touches (page faults, caches).
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <invlab/board.h>
#include <invlab/sched.h>
#include <invlab/stage.h>
#include <invlab/time.h>
#include <invlab/trace-export.h>

#include "driver-show.h"
#include "driver.h"

#define NARRATED_ROUND 2

struct drv_show {
	struct drv *d;
	struct il_board *b;
	struct il_board_term t;
	int cur; /* the running configuration's row, or -1 */
	struct drv_run *r;
	/* reports held while the board is on a terminal */
	FILE *held;
	char *held_buf;
	size_t held_len, held_off; /* held_off: put out already */
	int wrap;
	/* --stage */
	bool stage;
	uint64_t pause_ns, step_ns;
	struct il_stage_notes *notes;
	pthread_t narrator;
	bool narrating;
	/* each row's worst wait, for the final frame */
	struct il_timeline *tl[IL_BOARD_MAX_ROWS];
};

struct drv_show *drv_show_new(struct drv *d)
{
	struct drv_show *s;
	int h;

	if (!d->c->live && !d->c->stage)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->d = d;
	s->cur = -1;
	s->b = calloc(1, sizeof(*s->b));
	if (!s->b) {
		free(s);
		return NULL;
	}
	snprintf(s->b->title, sizeof(s->b->title), "%s", d->fam->prog);
	for (int c = 0; c < d->nconfigs; c++)
		s->b->total += d->want[c] ? (int)d->c->repeat : 0;
	s->stage = d->c->stage;
	/* the board redraws only with --live alone; --stage scrolls */
	il_board_term_init(&s->t, stdout, s->stage ? 0 : -1);
	if (s->stage && isatty(STDOUT_FILENO)) {
		struct il_board_term probe;

		il_board_term_init(&probe, stdout, 1);
		il_board_size(&probe, &s->wrap, &h);
		s->t.width = s->wrap;
		s->t.utf8 = probe.utf8;
	} else if (s->t.tty) {
		il_board_size(&s->t, &s->wrap, &h);
	}
	/* held: for after the board (--live), or to be wrapped (--stage) */
	if (s->wrap > 0 && !d->c->tap)
		s->held = open_memstream(&s->held_buf, &s->held_len);
	if (s->stage) {
		s->step_ns = d->c->stage_step_ns;
		/* checked by the driver's setup (drv_main) */
		if (il_stage_parse_pause(d->c->stage_pause, &s->pause_ns))
			s->pause_ns = 0;
		s->notes = calloc(1, sizeof(*s->notes));
		if (!s->notes)
			s->stage = false;
	}
	return s;
}

FILE *drv_show_out(struct drv_show *s)
{
	return s && s->held ? s->held : stdout;
}

int drv_show_wrap(const struct drv_show *s)
{
	return s ? s->wrap : 0;
}

/*
 * The subject's index in the run's tasks: the family's; else the task
 * the judge checked; else the highest-priority task that takes locks
 * (deadline above real time above the rest; of equals, the later in the
 * job, where the waiter usually follows its holder); else the first.
 */
static int rank_of(const struct il_sched *sc)
{
	return sc->policy == IL_SCHED_DEADLINE ? 200
	       : sc->policy == IL_SCHED_FIFO || sc->policy == IL_SCHED_RR
		       ? 100 + sc->prio
		       : 0;
}

static int subject_of(const struct drv *d, const struct drv_run *r,
		      const struct il_engine_result *er)
{
	int t = d->fam->subject ? il_scenario_task(r->sc, d->fam->subject) : -1,
	    best = -1;

	if (t >= 0)
		return t;
	if (r->nck && (t = il_scenario_task(r->sc, r->ck[0].task)) >= 0)
		return t;
	for (int i = 0; i < er->ntasks && i < r->sc->ntasks; i++)
		if (er->tasks[i].nlocks &&
		    (t < 0 || rank_of(&r->sc->tasks[i].sched) >= best)) {
			t = i;
			best = rank_of(&r->sc->tasks[i].sched);
		}
	return t >= 0 ? t : 0;
}

static void fill(struct drv_show *s, struct drv_run *r,
		 const struct il_engine_result *er, bool done)
{
	struct drv *d = s->d;
	struct il_board_row *row = &s->b->rows[s->cur];
	int si = subject_of(d, r, er);
	const struct il_task_result *t = &er->tasks[si];

	snprintf(row->config, sizeof(row->config), "%s%s", r->name, r->tag);
	snprintf(row->subject, sizeof(row->subject), "%s", t->name);
	row->nm = 2;
	if (t->nlocks) {
		int res = t->locks[0]->res;

		il_board_metric_set(&row->m[0], "blocked", "blk",
				    &t->locks[0]->blocked);
		il_board_metric_set(&row->m[1], "wakeup", "wake", &t->wakeup);
		row->bound_ns = 0;
		for (int j = 0; j < er->ntasks; j++)
			if (j != si && t->locks[0] &&
			    er->tasks[j].hold_max[res] > row->bound_ns)
				row->bound_ns = er->tasks[j].hold_max[res];
	} else {
		il_board_metric_set(&row->m[0], "wakeup", "wake", &t->wakeup);
		il_board_metric_set(&row->m[1], "response", "resp",
				    &t->response);
		row->bound_ns = 0;
	}
	row->elapsed_ns = done ? er->elapsed_ns
			  : er->t_start_ns && il_now_ns() > er->t_start_ns
				  ? il_now_ns() - er->t_start_ns
				  : 0;
	row->state = done ? IL_BOARD_DONE : IL_BOARD_RUNNING;
	if (done)
		return;
	snprintf(row->verdict, sizeof(row->verdict), "running");
	if (d->fam->live_rows) {
		struct drv_live_row rows[DRV_LIVE_MAX_ROWS];

		memset(rows, 0, sizeof(rows));
		if (d->fam->live_rows(d, r, er, rows, DRV_LIVE_MAX_ROWS) > 0 &&
		    rows[0].verdict[0])
			snprintf(row->verdict, sizeof(row->verdict), "%.23s",
				 rows[0].verdict);
	}
}

/* the engine's hook, about once a second, in the caller's thread */
static void frame(void *arg, const struct il_engine_result *er)
{
	struct drv_show *s = arg;

	if (s->cur < 0 || !s->r)
		return;
	if (s->cur >= s->b->nrows)
		s->b->nrows = s->cur + 1; /* it has figures now */
	fill(s, s->r, er, false);
	if (!s->stage) {
		s->b->utf8 = s->t.utf8;
		il_board_show(&s->t, s->b);
	}
}

static void say(struct drv_show *s, const char *first, const char *text)
{
	static char out[4096];

	if (s->wrap > 0 && il_board_wrap(text, first, (int)strlen(first),
					 s->wrap, out, sizeof(out)) > 0)
		fputs(out, stdout);
	else
		printf("%s%s\n", first, text);
	fflush(stdout);
}

static void *narrate(void *arg)
{
	struct drv_show *s = arg;
	const struct il_scenario *sc = s->r->sc;
	struct il_stage_line *l = calloc(IL_STAGE_MAX_LINES, sizeof(*l));
	char head[160];
	int n;

	if (!l)
		return NULL;
	snprintf(head, sizeof(head),
		 "%s%s: round %d as it happened, slowed down:", s->r->name,
		 s->r->tag, NARRATED_ROUND);
	say(s, "", head);
	/* the round is over, or every task's job in it */
	for (;;) {
		bool all = true;

		if (__atomic_load_n(&demo_stop, __ATOMIC_RELAXED))
			break;
		if (__atomic_load_n(&s->notes->over, __ATOMIC_ACQUIRE))
			break;
		for (int i = 0; i < sc->ntasks; i++)
			if (!__atomic_load_n(&s->notes->task[i].noted,
					     __ATOMIC_ACQUIRE))
				all = false;
		if (all)
			break;
		il_sleep_until(il_now_ns() + 10 * IL_NSEC_PER_MSEC, &demo_stop);
	}
	/* only the jobs whose notes are whole: a task still writing its
	 * own (a hog, a periodic task) is left out */
	{
		struct il_stage_notes *copy = calloc(1, sizeof(*copy));

		if (!copy) {
			free(l);
			return NULL;
		}
		for (int i = 0; i < sc->ntasks; i++)
			if (__atomic_load_n(&s->notes->task[i].noted,
					    __ATOMIC_ACQUIRE))
				copy->task[i] = s->notes->task[i];
		n = il_stage_story(sc, copy, l, IL_STAGE_MAX_LINES);
		free(copy);
	}
	if (!n)
		say(s, "  ", "(the run ended before that round)");
	for (int i = 0; i < n && !__atomic_load_n(&demo_stop, __ATOMIC_RELAXED);
	     i++) {
		char at[24], first[40];

		il_format_duration(at, sizeof(at), l[i].t_ns);
		snprintf(first, sizeof(first), "  %8s  ", at);
		say(s, first, l[i].text);
		if (i + 1 < n && s->step_ns)
			il_sleep_until(il_now_ns() + s->step_ns, &demo_stop);
	}
	free(l);
	return NULL;
}

static void put_held(struct drv_show *s, char *text);

/* what the reports held so far, wrapped to the terminal */
static void flush_held(struct drv_show *s)
{
	if (!s->held)
		return;
	fflush(s->held);
	if (s->held_buf && s->held_len > s->held_off) {
		char *copy = strndup(s->held_buf + s->held_off,
				     s->held_len - s->held_off);

		s->held_off = s->held_len;
		if (copy)
			put_held(s, copy);
		free(copy);
	}
	fflush(stdout);
}

void drv_show_begin(struct drv_show *s, struct drv_run *r,
		    struct il_engine_opts *eo)
{
	if (!s)
		return;
	if (s->b->nrows == IL_BOARD_MAX_ROWS) { /* the oldest row goes */
		memmove(&s->b->rows[0], &s->b->rows[1],
			(IL_BOARD_MAX_ROWS - 1) * sizeof(s->b->rows[0]));
		s->b->nrows--;
	}
	s->cur = s->b->nrows;
	memset(&s->b->rows[s->cur], 0, sizeof(s->b->rows[s->cur]));
	s->r = r;
	eo->progress = frame;
	eo->progress_ctx = s;
	if (!s->stage)
		return;
	flush_held(s); /* the header, before the narration */
	memset(s->notes, 0, sizeof(*s->notes));
	s->notes->round = NARRATED_ROUND;
	eo->notes = s->notes;
	{
		sigset_t all, old;

		/* signals stay the main thread's */
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, &old);
		s->narrating = !pthread_create(&s->narrator, NULL, narrate, s);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
}

void drv_show_ran(struct drv_show *s, struct drv_run *r)
{
	(void)r;
	if (!s || !s->narrating)
		return;
	/* the engine is done, also when it never started the round (a
	 * refusal, a busy CPU): the narrator tells what there is (a signal
	 * ends its sleeps, demo_stop) */
	if (!__atomic_load_n(&s->notes->over, __ATOMIC_ACQUIRE))
		__atomic_store_n(&s->notes->over, 2, __ATOMIC_RELEASE);
	pthread_join(s->narrator, NULL);
	s->narrating = false;
}

void drv_show_timeline(struct drv_show *s, const struct il_timeline *tl)
{
	if (!s || s->cur < 0 || s->cur >= IL_BOARD_MAX_ROWS)
		return;
	if (!s->tl[s->cur])
		s->tl[s->cur] = malloc(sizeof(*tl));
	if (!s->tl[s->cur])
		return; /* the board goes on without */
	*s->tl[s->cur] = *tl;
	s->b->rows[s->cur].tl = s->tl[s->cur];
}

void drv_show_judged(struct drv_show *s, struct drv_run *r)
{
	struct il_board_row *row;

	if (!s || s->cur < 0)
		return;
	if (s->cur >= s->b->nrows)
		s->b->nrows = s->cur + 1;
	fill(s, r, r->er, true);
	row = &s->b->rows[s->cur];
	if (demo_signal) {
		snprintf(row->verdict, sizeof(row->verdict), "interrupted");
	} else if (!r->nck) {
		snprintf(row->verdict, sizeof(row->verdict), "measured");
	} else {
		const struct il_judged *k = &r->ck[0];
		bool und,
			ok = demo_as_expected(k->c.verdict, k->expected, &und);

		row->bound_ns = k->c.bound_ns;
		snprintf(row->verdict, sizeof(row->verdict), "%s%s",
			 il_verdict_name(k->c.verdict),
			 und  ? ""
			 : ok ? " expected"
			      : " UNEXPECTED");
		if (snprintf(row->evidence, sizeof(row->evidence),
			     "%s, expected %s: %s",
			     il_verdict_name(k->c.verdict),
			     il_verdict_name(k->expected),
			     k->c.evidence) >= (int)sizeof(row->evidence)) {
			/* too long for the board: cut after a whole word */
			char *sp = strrchr(row->evidence, ' ');

			if (sp && sp - row->evidence + 5 <
					  (long)sizeof(row->evidence))
				strcpy(sp, " ...");
		}
	}
	s->r = NULL;
	if (s->stage) {
		/* the report, then the board as it stands, once */
		flush_held(s);
		s->b->utf8 = s->t.utf8;
		il_board_show(&s->t, s->b);
	} else {
		s->b->utf8 = s->t.utf8;
		il_board_show(&s->t, s->b);
	}
}

void drv_show_pause(struct drv_show *s, const char *next)
{
	char line[160];
	uint64_t end;

	if (!s || !s->stage || demo_signal)
		return;
	if (s->pause_ns == 0)
		return;
	if (s->pause_ns != UINT64_MAX) {
		char t[24];

		il_format_duration(t, sizeof(t), s->pause_ns);
		snprintf(line, sizeof(line), "-- next: %s, in %s --", next, t);
		say(s, "", line);
		end = il_now_ns() + s->pause_ns;
		il_sleep_until(end, &demo_stop);
		return;
	}
	snprintf(line, sizeof(line), "-- next: %s; press Enter --", next);
	say(s, "", line);
	/* a line from stdin; its end (or no stdin) goes on at once */
	while (!demo_signal) {
		struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
		char buf[256];
		ssize_t got;

		if (poll(&p, 1, 200) <= 0)
			continue;
		got = read(STDIN_FILENO, buf, sizeof(buf));
		if (got <= 0 || memchr(buf, '\n', (size_t)got))
			break;
	}
}

/*
 * The held reports on the terminal: a prose line wider than the terminal
 * (a verdict's notes) is wrapped at word boundaries under its own indent;
 * a table's line (a run of spaces inside it) is left whole, as a wrapped
 * table would read worse than a cut one.
 */
static void put_held(struct drv_show *s, char *text)
{
	static char out[8192];

	for (char *l = text, *nl; *l; l = nl + 1) {
		size_t ind = strspn(l, " ");

		nl = strchr(l, '\n');
		if (!nl)
			nl = l + strlen(l) - 1;
		else
			*nl = '\0';
		if (s->wrap > 0 && il_board_cols(l) > s->wrap &&
		    !strstr(l + ind, "  ")) {
			char first[16];

			snprintf(first, sizeof(first), "%*s", (int)ind, "");
			if (il_board_wrap(l + ind, first, (int)ind + 2, s->wrap,
					  out, sizeof(out)) > 0) {
				fputs(out, stdout);
				continue;
			}
		}
		fputs(l, stdout);
		fputc('\n', stdout);
	}
}

void drv_show_finish(struct drv_show *s)
{
	if (!s)
		return;
	/* --live: the last frame again, with the worst waits under it */
	if (!s->stage && !s->b->final && !demo_signal) {
		bool any = false;

		for (int r = 0; r < s->b->nrows; r++)
			any = any || s->b->rows[r].tl;
		s->b->final = true;
		if (any) {
			s->b->utf8 = s->t.utf8;
			il_board_show(&s->t, s->b);
		}
	}
	/* the terminal may have been resized since the start */
	if (s->wrap > 0 && s->t.tty) {
		int w, h;

		il_board_size(&s->t, &w, &h);
		if (w > 0)
			s->wrap = w;
	}
	flush_held(s);
	if (s->held) {
		fclose(s->held);
		s->held = NULL;
	}
}

void drv_show_free(struct drv_show *s)
{
	if (!s)
		return;
	drv_show_finish(s);
	free(s->held_buf);
	free(s->notes);
	for (int r = 0; r < IL_BOARD_MAX_ROWS; r++)
		free(s->tl[r]);
	free(s->b);
	free(s);
}
