// SPDX-License-Identifier: MIT
/*
 * The rt-football invariant (football.h): the trace is replayed record
 * by record, keeping each scenario task's state (running on a CPU,
 * waiting, blocked, not seen yet), and after every instant each waiting
 * task is asked whether it is deprived: one of the N highest runnable
 * while a task ranked below it runs.  How long each task stays deprived
 * is what is judged, against one wakeup-to-run latency.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/football.h>
#include <invlab/order.h>
#include <invlab/strbuf.h>
#include <invlab/time.h>
#include <invlab/validate.h>

enum st { ST_UNSEEN = 0, ST_BLOCKED, ST_WAITING, ST_RUNNING };

/* the rank of what a CPU runs when nothing is known of it: above all,
 * so a wait there is never taken for the CPU's own latency */
#define RANK_UNKNOWN 1000
#define RANK_IDLE    (-1)

struct task_state {
	enum st st;
	int cpu;	/* ST_RUNNING: where */
	int qcpu;	/* the CPU it is queued on (-1: unknown) */
	uint64_t since; /* deprived since (valid when deprived) */
	bool deprived;
	/* in this episode: how long it was queued behind a task ranked at
	 * or above it (or where nothing is known), up to mark, and whether
	 * it is since mark */
	uint64_t behind_ns, mark;
	bool now_behind;
	/* and how long, not behind, the CPU it was queued on (mcpu, as at
	 * mark) was stalled (il_trace_stalled), or, behind, the one CPU of
	 * lower tasks it could have moved to (lcpu_mark, -1: none such):
	 * not the scheduler's time */
	uint64_t stalled_ns;
	int mcpu, lcpu_mark;
	int lower, lcpu; /* at the start of the episode */
	/* its wakeup asked the CPU it is queued on to switch at once (the
	 * trace's need-resched), and no switch there chose another task
	 * since; dispatched: then that CPU switched to it */
	bool asked, dispatched;
	uint64_t asked_at; /* that wakeup */
};

struct game {
	const struct il_football_input *in;
	struct task_state *ts;
	int *on_cpu;   /* the scenario task running on each CPU, or -1 */
	int *cur_rank; /* the rank of what each CPU runs (any task) */
	int maxcpu;
	struct il_football_stats st;
};

/* tids are > 0 (checked before the replay), so idle (0) is no task */
static int task_of(const struct il_football_input *in, int32_t pid)
{
	for (size_t i = 0; i < in->ntasks; i++)
		if (in->tasks[i].tid == pid)
			return (int)i;
	return -1;
}

/* a kernel priority as a rank: deadline above real time above fair */
static int kprio_rank(int kprio)
{
	if (kprio < 0)
		return 200;
	return kprio < 100 ? 100 + 99 - kprio : 0;
}

/* steal between from and to: the last point at or before from to the
 * first at or after to (wider, never narrower) */
static uint64_t steal_in(const struct il_football_input *in, uint64_t from,
			 uint64_t to)
{
	size_t a = 0, b;

	if (!in->nsteal)
		return 0;
	while (a + 1 < in->nsteal && in->steal_t[a + 1] <= from)
		a++;
	for (b = a; b + 1 < in->nsteal && in->steal_t[b] < to; b++)
		;
	return in->steal_v[b] - in->steal_v[a];
}

static void set_cpu(struct game *g, int cpu, int task)
{
	/* every CPU a record names is below maxcpu (replay) */
	int was = g->on_cpu[cpu];

	if (was >= 0 && was != task && g->ts[was].st == ST_RUNNING &&
	    g->ts[was].cpu == cpu) {
		/* its switch out is missing: where it went is unknown */
		g->ts[was].st = ST_UNSEEN;
		g->st.repaired++;
	}
	g->on_cpu[cpu] = task;
}

static void put_on(struct game *g, int task, int cpu)
{
	struct task_state *t = &g->ts[task];

	if (t->st == ST_RUNNING && t->cpu != cpu && g->on_cpu[t->cpu] == task) {
		/* seen running elsewhere with no switch out there */
		g->on_cpu[t->cpu] = -1;
		g->st.repaired++;
	}
	t->st = ST_RUNNING;
	t->cpu = cpu;
	t->qcpu = cpu;
	t->asked = false; /* the ask is answered, where it was made or not */
	set_cpu(g, cpu, task);
}

static void apply(struct game *g, const struct il_trace_rec *r)
{
	int p = task_of(g->in, r->prev_pid);

	if (r->kind == IL_TR_WAKEUP) {
		if (p >= 0) {
			g->st.wakeups++;
			if (g->ts[p].st != ST_RUNNING) {
				g->ts[p].st = ST_WAITING;
				g->ts[p].qcpu = r->cpu;
				g->ts[p].asked = r->prev_runnable;
				g->ts[p].asked_at = r->ts;
			}
		}
		return;
	}
	if (r->kind == IL_TR_MIGRATE) {
		if (p >= 0 && g->ts[p].st != ST_RUNNING) {
			g->ts[p].qcpu = r->cpu;
			g->ts[p].asked = false;
		}
		return;
	}
	if (r->kind != IL_TR_SWITCH)
		return;
	/* the CPU's choice: the task asked for, or another one */
	for (size_t i = 0; i < g->in->ntasks; i++) {
		struct task_state *q = &g->ts[i];

		if (!q->asked || q->qcpu != r->cpu)
			continue;
		q->dispatched = task_of(g->in, r->next_pid) == (int)i;
		q->asked = false;
	}
	if (p >= 0) {
		g->ts[p].st = r->prev_runnable ? ST_WAITING : ST_BLOCKED;
		g->ts[p].qcpu = r->cpu;
		g->ts[p].asked = false;
		if (g->on_cpu[r->cpu] == p)
			g->on_cpu[r->cpu] = -1;
	}
	{
		int n = task_of(g->in, r->next_pid);

		g->cur_rank[r->cpu] = n >= 0 ? g->in->tasks[n].rank
				      : r->next_pid <= 0
					      ? RANK_IDLE
					      : kprio_rank(r->next_prio);

		if (n >= 0)
			put_on(g, n, r->cpu);
		else
			set_cpu(g, r->cpu, -1);
	}
}

/* the lowest-ranked running task below rank, or -1 */
static int lowest_below(const struct game *g, int rank)
{
	int low = -1;

	for (size_t j = 0; j < g->in->ntasks; j++) {
		int rj = g->in->tasks[j].rank;

		if (g->ts[j].st != ST_RUNNING || rj >= rank)
			continue;
		if (low < 0 || rj < g->in->tasks[low].rank)
			low = (int)j;
	}
	return low;
}

static bool deprived(const struct game *g, size_t i, int *lower)
{
	int rank = g->in->tasks[i].rank, above = 0;

	if (g->ts[i].st != ST_WAITING)
		return false;
	for (size_t j = 0; j < g->in->ntasks; j++)
		if (g->ts[j].st >= ST_WAITING && g->in->tasks[j].rank > rank)
			above++;
	if (above >= g->in->ncpus)
		return false; /* not one of the N highest */
	*lower = lowest_below(g, rank);
	return *lower >= 0;
}

/*
 * The CPU of lower tasks a task of rank could have been moved to, when
 * there is exactly one: -1 when it is pinned (not movable) or lower
 * tasks run on several CPUs (which of them should have taken it is not
 * known, so none excuses it)
 */
static int only_lower_cpu(const struct game *g, size_t i)
{
	int rank = g->in->tasks[i].rank, cpu = -1, n = 0;

	if (!g->in->tasks[i].movable)
		return -1;
	for (size_t j = 0; j < g->in->ntasks; j++)
		if (g->ts[j].st == ST_RUNNING && g->in->tasks[j].rank < rank) {
			cpu = g->ts[j].cpu;
			n++;
		}
	return n == 1 ? cpu : -1;
}

/* how long an episode lasted beyond the steal in it */
static uint64_t beyond(const struct il_football_episode *e)
{
	return e->dur_ns > e->steal_ns ? e->dur_ns - e->steal_ns : 0;
}

/* from mark to now: queued behind (behind_ns), or on a CPU of lower
 * tasks, which may have been stalled (stalled_ns); queued behind while
 * the CPU of lower tasks it could have moved to stalled is not
 * placement either: that CPU could neither take it nor switch */
static void since_mark(struct game *g, struct task_state *t, uint64_t now)
{
	uint64_t held;

	if (now <= t->mark)
		return;
	if (!t->now_behind) {
		t->stalled_ns +=
			il_trace_stalled(g->in->stalls, t->mcpu, t->mark, now);
		return;
	}
	held = il_trace_stalled(g->in->stalls, t->lcpu_mark, t->mark, now);
	if (held > now - t->mark)
		held = now - t->mark;
	t->stalled_ns += held;
	t->behind_ns += now - t->mark - held;
}

static void close_episode(struct game *g, size_t i, uint64_t now)
{
	struct task_state *t = &g->ts[i];
	struct il_football_episode e = {
		.start_ns = t->since,
		.dur_ns = now - t->since,
		.task = (int)i,
		.lower = t->lower,
		.cpu = t->lcpu,
	};
	const struct il_football_episode *w = &g->st.worst;

	uint64_t kernel_ns;

	since_mark(g, t, now);
	t->deprived = false;
	g->st.episodes++;
	g->st.deprived_ns += e.dur_ns;
	if (e.dur_ns > g->st.longest_ns)
		g->st.longest_ns = e.dur_ns;
	if (e.dur_ns <= g->in->tolerance_ns)
		return;
	/* the part of it in which the CPU it waited on was running */
	kernel_ns = e.dur_ns > t->stalled_ns ? e.dur_ns - t->stalled_ns : 0;
	e.stalled_ns = t->stalled_ns;
	if (kernel_ns <= g->in->tolerance_ns) {
		g->st.stalled++;
		if (e.stalled_ns > g->st.worst_stalled.stalled_ns)
			g->st.worst_stalled = e;
		return;
	}
	g->st.over++;
	e.steal_ns = steal_in(g->in, e.start_ns, now);
	if (e.dur_ns - g->in->tolerance_ns <= e.steal_ns) {
		g->st.stolen++;
	} else if (t->behind_ns <= g->in->tolerance_ns &&
		   !il_noise_swamps(g->in->detect_ns, e.dur_ns)) {
		/* queued behind a task at or above it no longer than one
		 * wakeup-to-run latency (a push to the right CPU takes one
		 * too), and otherwise on a CPU that was slow to switch to
		 * it: a late preemption */
		if (t->dispatched && t->since >= t->asked_at) {
			/* the kernel chose it at once (its wakeup, before
			 * the episode, asked that CPU to switch, whose next
			 * switch was to it): the lag is the CPU's, not the
			 * scheduler's choice */
			g->st.dispatch++;
			if (e.dur_ns > g->st.worst_dispatch.dur_ns)
				g->st.worst_dispatch = e;
			return;
		}
		g->st.late++;
		if (e.dur_ns > g->st.worst_late.dur_ns)
			g->st.worst_late = e;
		return;
	}
	/* the worst is the longest once steal is taken off */
	if (!w->dur_ns || beyond(&e) > beyond(w))
		g->st.worst = e;
}

static void look(struct game *g, uint64_t now)
{
	for (size_t i = 0; i < g->in->ntasks; i++) {
		struct task_state *t = &g->ts[i];
		int lower = -1;
		bool d = deprived(g, i, &lower);

		if (d && !t->deprived) {
			t->deprived = true;
			t->dispatched = false;
			t->behind_ns = 0;
			t->stalled_ns = 0;
			t->since = now;
			t->lower = lower;
			t->lcpu = g->ts[lower].cpu;
		} else if (d) {
			since_mark(g, t, now);
		} else if (t->deprived) {
			close_episode(g, i, now);
		}
		if (d) {
			t->mark = now;
			t->mcpu = t->qcpu;
			t->now_behind =
				t->qcpu < 0 ||
				g->cur_rank[t->qcpu] >= g->in->tasks[i].rank;
			t->lcpu_mark = only_lower_cpu(g, i);
		}
	}
}

/*
 * Before the first switch of a CPU, the task that switch takes off it
 * was running there (the trace's own "prev" rule, docs/tracing.md).
 */
static void first_runners(struct game *g)
{
	const struct il_trace *t = g->in->trace;
	bool *seen = calloc((size_t)g->maxcpu, sizeof(*seen));

	if (!seen)
		return;
	for (size_t k = 0; k < t->n; k++) {
		const struct il_trace_rec *r = &t->rec[k];
		int p;

		if (r->kind != IL_TR_SWITCH || seen[r->cpu])
			continue;
		seen[r->cpu] = true;
		g->cur_rank[r->cpu] =
			r->prev_pid <= 0 ? RANK_IDLE : kprio_rank(r->prev_prio);
		p = task_of(g->in, r->prev_pid);
		if (p >= 0)
			g->cur_rank[r->cpu] = g->in->tasks[p].rank;
		if (p >= 0 && g->ts[p].st == ST_UNSEEN)
			put_on(g, p, r->cpu);
	}
	free(seen);
}

static int replay(struct game *g)
{
	const struct il_trace *t = g->in->trace;

	g->maxcpu = 1;
	for (size_t k = 0; k < t->n; k++)
		if (t->rec[k].cpu >= g->maxcpu)
			g->maxcpu = t->rec[k].cpu + 1;
	g->ts = calloc(g->in->ntasks, sizeof(*g->ts));
	g->on_cpu = malloc((size_t)g->maxcpu * sizeof(*g->on_cpu));
	g->cur_rank = malloc((size_t)g->maxcpu * sizeof(*g->cur_rank));
	if (!g->ts || !g->on_cpu || !g->cur_rank)
		return -ENOMEM;
	for (int c = 0; c < g->maxcpu; c++) {
		g->on_cpu[c] = -1;
		g->cur_rank[c] = RANK_UNKNOWN;
	}
	for (size_t i = 0; i < g->in->ntasks; i++)
		g->ts[i].qcpu = -1;
	first_runners(g);
	for (size_t k = 0; k < t->n;) {
		uint64_t now = t->rec[k].ts;

		/* every record of one instant first, then the state */
		for (; k < t->n && t->rec[k].ts == now; k++)
			apply(g, &t->rec[k]);
		look(g, now);
	}
	for (size_t i = 0; i < g->in->ntasks; i++)
		if (g->ts[i].deprived)
			close_episode(g, i,
				      t->t1_ns > g->ts[i].since
					      ? t->t1_ns
					      : g->ts[i].since);
	return 0;
}

static void episode_text(const struct il_football_input *in,
			 const struct il_football_episode *e, char *buf,
			 size_t len)
{
	char dur[24], st[24], at[24];
	uint64_t t0 = in->trace->t0_ns;

	il_format_duration(dur, sizeof(dur), e->dur_ns);
	il_format_duration(st, sizeof(st), e->steal_ns);
	il_format_duration(at, sizeof(at),
			   e->start_ns > t0 ? e->start_ns - t0 : 0);
	il_appendf(buf, len,
		   "%s waited %s from %s into the trace (%" PRIu64
		   " ns CLOCK_MONOTONIC) while %s (lower) ran on CPU %d",
		   in->tasks[e->task].name, dur, at, e->start_ns,
		   in->tasks[e->lower].name, e->cpu);
	if (e->steal_ns)
		il_appendf(buf, len, " (host steal %s)", st);
}

int il_football_check(const struct il_football_input *in,
		      struct il_football_stats *st, struct il_check *out)
{
	struct game g = { .in = in };
	char tol[24], det[24];
	int ret;

	if (out)
		memset(out, 0, sizeof(*out));
	if (!in || !out || (in->ntasks && !in->tasks) || in->ncpus <= 0 ||
	    (in->nsteal && (!in->steal_t || !in->steal_v)))
		return -EINVAL;
	if (st)
		memset(st, 0, sizeof(*st));
	out->bound_name = "the top N run (one wakeup-to-run latency)";
	out->bound_ns = in->tolerance_ns;
	out->noise_ns = in->tolerance_ns;
	if (!in->trace) {
		out->verdict = IL_UNDECIDED;
		il_setf(out->evidence, sizeof(out->evidence), "no trace: %s",
			in->no_trace ? in->no_trace : "none recorded");
		return 0;
	}
	if (in->trace->lost) {
		out->verdict = IL_UNDECIDED;
		il_setf(out->evidence, sizeof(out->evidence),
			"the trace lost %" PRIu64 " events: who ran is not "
			"known",
			in->trace->lost);
		return 0;
	}
	for (size_t i = 0; i < in->ntasks; i++)
		if (in->tasks[i].tid <= 0) {
			out->verdict = IL_UNDECIDED;
			il_setf(out->evidence, sizeof(out->evidence),
				"task %s never started", in->tasks[i].name);
			return 0;
		}
	ret = replay(&g);
	if (!ret) {
		il_format_duration(tol, sizeof(tol), in->tolerance_ns);
		il_format_duration(det, sizeof(det), in->detect_ns);
		out->worst_ns = g.st.worst.dur_ns;
		if (g.st.over > g.st.stolen + g.st.late + g.st.dispatch) {
			size_t k = g.st.over - g.st.stolen - g.st.late -
				   g.st.dispatch;

			out->verdict = IL_FAIL;
			/* as many waits past T as the host cannot make: the
			 * order of events, which stands under emulation */
			out->by_trace = il_order_pattern(g.st.episodes, k);
			il_setf(out->evidence, sizeof(out->evidence),
				"%zu of %zu times a task of the top %d waited "
				"over %s%s; worst: ",
				k, g.st.episodes, in->ncpus, tol,
				out->by_trace ? ", more often than the host "
						"explains"
					      : "");
			episode_text(in, &g.st.worst, out->evidence,
				     sizeof(out->evidence));
		} else if (il_order_pattern(g.st.episodes,
					    g.st.late + g.st.dispatch)) {
			/*
			 * A CPU slow to switch, asked at once or not, as
			 * often as no host makes it: a kernel slow to act on
			 * a reschedule is the kernel's, whoever chose.
			 */
			const struct il_football_episode *wl =
				g.st.worst_dispatch.dur_ns >
						g.st.worst_late.dur_ns
					? &g.st.worst_dispatch
					: &g.st.worst_late;
			char asked[96] = "";

			out->verdict = IL_FAIL;
			out->by_trace = 1;
			out->worst_ns = wl->dur_ns;
			if (g.st.dispatch)
				snprintf(asked, sizeof(asked),
					 " (%zu of them after the kernel asked "
					 "it to at once)",
					 g.st.dispatch);
			il_setf(out->evidence, sizeof(out->evidence),
				"%zu of %zu times a CPU switched to a task of "
				"the top %d later than %s%s, more often than "
				"the host explains (chance %.1e); worst: ",
				g.st.late + g.st.dispatch, g.st.episodes,
				in->ncpus, tol, asked,
				il_order_binom_tail(g.st.episodes,
						    g.st.late + g.st.dispatch,
						    IL_ORDER_OUTLIER_P));
			episode_text(in, wl, out->evidence,
				     sizeof(out->evidence));
		} else if (g.st.stolen) {
			out->verdict = IL_UNDECIDED;
			il_setf(out->evidence, sizeof(out->evidence),
				"%zu waits of a top task over %s, each within "
				"the host's steal; worst: ",
				g.st.stolen, tol);
			episode_text(in, &g.st.worst, out->evidence,
				     sizeof(out->evidence));
		} else if (il_noise_swamps(in->detect_ns, in->tolerance_ns)) {
			out->verdict = IL_UNDECIDED;
			il_setf(out->evidence, sizeof(out->evidence),
				"tolerance %s is over %u%% of the %s an "
				"inversion would last: it cannot tell one from "
				"noise",
				tol, IL_NOISE_MAX_PERCENT, det);
		} else if (g.st.stalled) {
			/* the stall witness may excuse a FAIL, never make
			 * a PASS: a kernel with interrupts off makes it too */
			out->verdict = IL_UNDECIDED;
			il_setf(out->evidence, sizeof(out->evidence),
				"%zu waits of a top task over %s, each while a "
				"CPU it could run on recorded a stall: the "
				"host's, or the kernel's with interrupts off; "
				"not decided",
				g.st.stalled, tol);
		} else if (g.st.wakeups < in->min_wakeups) {
			out->verdict = IL_UNDECIDED;
			il_setf(out->evidence, sizeof(out->evidence),
				"%zu wakeups of the scenario's tasks in the "
				"trace, fewer than %zu: the game never formed",
				g.st.wakeups, in->min_wakeups);
		} else {
			char sum[24], lg[24];

			out->verdict = IL_PASS;
			out->worst_ns = g.st.longest_ns;
			il_format_duration(sum, sizeof(sum), g.st.deprived_ns);
			il_format_duration(lg, sizeof(lg), g.st.longest_ns);
			il_setf(out->evidence, sizeof(out->evidence),
				"the top %d always ran within %s%s: %zu "
				"wakeups, %zu waits of a top task while a "
				"lower one ran, the longest %s, %s in all",
				in->ncpus, tol,
				g.st.dispatch ? ", or were chosen at once and "
						"their CPU was late to switch "
						"(below)"
					      : "",
				g.st.wakeups, g.st.episodes, lg, sum);
		}
		if (g.st.dispatch) {
			il_appendf(
				out->evidence, sizeof(out->evidence),
				"; %zu wait%s past %s %s the CPU's lag after "
				"the kernel chose at once (the wakeup, made "
				"on the CPU the task was queued on, asked it "
				"to reschedule, and its next switch was to "
				"that task: interrupt exit, a section "
				"without preemption, or the host; not the "
				"scheduler's choice), the longest: ",
				g.st.dispatch, g.st.dispatch == 1 ? "" : "s",
				tol, g.st.dispatch == 1 ? "was" : "were");
			episode_text(in, &g.st.worst_dispatch, out->evidence,
				     sizeof(out->evidence));
		}
		if (out->verdict != IL_FAIL && g.st.late) {
			il_appendf(out->evidence, sizeof(out->evidence),
				   "; %zu late preemption%s on the waiting "
				   "task's own CPU set aside as noise (no more "
				   "often than the host makes them): ",
				   g.st.late, g.st.late == 1 ? "" : "s");
			episode_text(in, &g.st.worst_late, out->evidence,
				     sizeof(out->evidence));
		}
		if (g.st.stalled) {
			char sd[24];

			il_format_duration(sd, sizeof(sd),
					   g.st.worst_stalled.stalled_ns);
			il_appendf(out->evidence, sizeof(out->evidence),
				   "; %zu wait%s past %s only while the CPU "
				   "of lower tasks it was queued on, or "
				   "could have moved to, stalled (timers due "
				   "there taken late, or time its tasks' "
				   "run-time accounts leave to the host: not "
				   "the scheduler's), up to %s of it: ",
				   g.st.stalled, g.st.stalled == 1 ? "" : "s",
				   tol, sd);
			episode_text(in, &g.st.worst_stalled, out->evidence,
				     sizeof(out->evidence));
		}
		if (in->trace->filled)
			il_appendf(out->evidence, sizeof(out->evidence),
				   "; %" PRIu64 " switch%s from idle missing "
				   "from the trace, put back from the run-time "
				   "account of the task that ran",
				   in->trace->filled,
				   in->trace->filled == 1 ? "" : "es");
		if (g.st.repaired)
			il_appendf(out->evidence, sizeof(out->evidence),
				   "; %zu switches contradicted the state "
				   "(a switch missing from the trace)",
				   g.st.repaired);
		if (st)
			*st = g.st;
	}
	free(g.ts);
	free(g.on_cpu);
	free(g.cur_rank);
	return ret;
}
