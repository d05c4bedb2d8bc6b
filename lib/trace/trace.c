// SPDX-License-Identifier: MIT
/*
 * Trace records as plain data (trace.h), the process's --trace default,
 * and the recorder's fallback when the build has no libtracefs.  The
 * recorder itself is in trace-tracefs.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/sched.h>
#include <invlab/trace.h>

#include "config.h"

static enum il_trace_mode default_mode = IL_TRACE_AUTO;

void il_trace_set_default(enum il_trace_mode m)
{
	default_mode = m;
}

enum il_trace_mode il_trace_default(void)
{
	return default_mode;
}

int il_trace_kprio(const struct il_sched *s)
{
	if (s->policy == IL_SCHED_DEADLINE)
		return -1;
	if (s->policy == IL_SCHED_FIFO || s->policy == IL_SCHED_RR)
		return 99 - s->prio;
	return 120 + s->nice;
}

int il_trace_rt_prio(int kprio)
{
	if (kprio < 0)
		return 100;
	if (kprio < 100)
		return 99 - kprio;
	return 0;
}

void il_trace_class_name(int kprio, char *buf, size_t len)
{
	if (kprio < 0)
		snprintf(buf, len, "DL");
	else if (kprio < 100)
		snprintf(buf, len, "FIFO %d", 99 - kprio);
	else
		snprintf(buf, len, "nice %d", kprio - 120);
}

static size_t task_pos(const struct il_trace *t, int pid)
{
	size_t lo = 0, hi = t->ntasks;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->tasks[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct il_trace_task *il_trace_task_of(const struct il_trace *t, int pid)
{
	size_t i;

	if (!t || !t->tasks)
		return NULL;
	i = task_pos(t, pid);
	return i < t->ntasks && t->tasks[i].pid == pid ? &t->tasks[i] : NULL;
}

int il_trace_note_task(struct il_trace *t, int pid, const char *comm, int prio)
{
	size_t i = task_pos(t, pid);
	struct il_trace_task *k;

	if (i == t->ntasks || t->tasks[i].pid != pid) {
		if (t->ntasks == t->tasks_cap) {
			size_t cap = t->tasks_cap ? 2 * t->tasks_cap : 64;
			void *p = realloc(t->tasks, cap * sizeof(*t->tasks));

			if (!p)
				return -ENOMEM;
			t->tasks = p;
			t->tasks_cap = cap;
		}
		memmove(&t->tasks[i + 1], &t->tasks[i],
			(t->ntasks - i) * sizeof(*t->tasks));
		t->ntasks++;
		memset(&t->tasks[i], 0, sizeof(t->tasks[i]));
		t->tasks[i].pid = pid;
	}
	k = &t->tasks[i];
	k->prio = (int16_t)prio;
	if (comm && *comm)
		snprintf(k->comm, sizeof(k->comm), "%s", comm);
	return 0;
}

int il_trace_add(struct il_trace *t, const struct il_trace_rec *r)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 4096;
		void *p = realloc(t->rec, cap * sizeof(*t->rec));

		if (!p)
			return -ENOMEM;
		t->rec = p;
		t->cap = cap;
	}
	t->rec[t->n++] = *r;
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct il_trace_rec *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

void il_trace_sort(struct il_trace *t)
{
	if (t->n > 1)
		qsort(t->rec, t->n, sizeof(*t->rec), by_time);
}

/* look back at most this many records for a task's wakeup */
#define FILL_SCAN_MAX 100000

/* pid's last wakeup before record k and after `after`, or NULL */
static const struct il_trace_rec *
woken_before(const struct il_trace *t, size_t k, int pid, uint64_t after)
{
	for (size_t m = 0; k > 0 && m < FILL_SCAN_MAX; m++) {
		const struct il_trace_rec *r = &t->rec[--k];

		if (r->ts < after)
			break;
		if (r->kind == IL_TR_WAKEUP && r->prev_pid == pid)
			return r;
	}
	return NULL;
}

/* record k, if a run-time account on an idle CPU: the switch to add */
static int fill_one(const struct il_trace *t, size_t k, int32_t *cur,
		    uint64_t *last, int maxc, struct il_trace_rec **add,
		    size_t *nadd)
{
	const struct il_trace_rec *r = &t->rec[k], *w;
	const struct il_trace_task *tk;
	struct il_trace_rec x = { .kind = IL_TR_SWITCH,
				  .prev_runnable = 1,
				  .prev_prio = 120,
				  .next_prio = 120 };
	int c = r->cpu;
	void *p;

	if (r->kind != IL_TR_RUNTIME || r->prev_pid <= 0 || c > maxc ||
	    cur[c] != 0)
		return 0;
	for (int m = 0; m <= maxc; m++)
		if (cur[m] == r->prev_pid)
			return 0; /* it runs there: a read of its clock */
	/* it runs on idle CPU c: its switch in is missing */
	x.ts = r->next_pid >= 0 && r->ts > (uint64_t)r->next_pid
		       ? r->ts - (uint64_t)r->next_pid
		       : r->ts;
	w = woken_before(t, k, r->prev_pid, last[c]);
	tk = il_trace_task_of(t, r->prev_pid);
	if (w) {
		x.next_prio = w->prev_prio;
		if (x.ts <= w->ts)
			x.ts = w->ts + 1;
	} else if (tk) {
		x.next_prio = tk->prio;
	}
	if (x.ts <= last[c])
		x.ts = last[c] + 1;
	if (x.ts > r->ts)
		x.ts = r->ts;
	x.cpu = (uint16_t)c;
	x.next_pid = r->prev_pid;
	p = realloc(*add, (*nadd + 1) * sizeof(**add));
	if (!p)
		return -ENOMEM;
	*add = p;
	(*add)[(*nadd)++] = x;
	cur[c] = r->prev_pid;
	last[c] = x.ts;
	return 0;
}

int il_trace_fill_idle(struct il_trace *t)
{
	struct il_trace_rec *add = NULL;
	size_t nadd = 0, n0;
	int32_t *cur;
	uint64_t *last;
	int maxc = -1, ret = 0;

	if (!t)
		return 0;
	n0 = t->n;
	for (size_t k = 0; k < n0; k++)
		if (t->rec[k].kind == IL_TR_SWITCH && t->rec[k].cpu > maxc)
			maxc = t->rec[k].cpu;
	if (maxc < 0)
		return 0;
	cur = malloc(((size_t)maxc + 1) * sizeof(*cur));
	last = calloc((size_t)maxc + 1, sizeof(*last));
	if (!cur || !last) {
		free(cur);
		free(last);
		return -ENOMEM;
	}
	for (int c = 0; c <= maxc; c++)
		cur[c] = -1; /* not known before the CPU's first switch */
	for (size_t k = 0; !ret && k < n0;) {
		size_t end = k;

		/* one instant: its switches first, whatever their order */
		while (end < n0 && t->rec[end].ts == t->rec[k].ts)
			end++;
		for (size_t j = k; j < end; j++)
			if (t->rec[j].kind == IL_TR_SWITCH) {
				cur[t->rec[j].cpu] = t->rec[j].next_pid;
				last[t->rec[j].cpu] = t->rec[j].ts;
			}
		for (; !ret && k < end; k++)
			ret = fill_one(t, k, cur, last, maxc, &add, &nadd);
	}
	free(cur);
	free(last);
	for (size_t i = 0; !ret && i < nadd; i++)
		ret = il_trace_add(t, &add[i]);
	free(add);
	if (ret) {
		t->n = n0; /* unchanged */
		return ret;
	}
	if (nadd) {
		il_trace_sort(t);
		t->filled += nadd;
	}
	return 0;
}

size_t il_trace_rec_from(const struct il_trace *t, uint64_t ts, bool strict)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->rec[mid].ts < ts || (strict && t->rec[mid].ts == ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void il_trace_free(struct il_trace *t)
{
	if (!t)
		return;
	free(t->rec);
	free(t->tasks);
	memset(t, 0, sizeof(*t));
}

/* is a piece run by pid at kprio p above (interference)? */
static bool above(int pid, int p, int kprio, int self)
{
	return pid > 0 && pid != self && p <= kprio;
}

size_t il_trace_remove_above(const struct il_trace *t, int cpu, int kprio,
			     int self, const uint64_t *from, uint64_t *lat,
			     size_t n)
{
	size_t k = 0, covered = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t a = from[i], b = a + lat[i], at = a, sum = 0;
		size_t j;
		bool tail = false;

		if (a < t->t0_ns || b > t->t1_ns)
			continue;
		/* the first record after a (from[] is in time order) */
		while (k < t->n && t->rec[k].ts <= a)
			k++;
		/*
		 * each piece up to a switch was run by that switch's prev:
		 * the kernel's word, which a dropped switch cannot change
		 */
		for (j = k; j < t->n; j++) {
			const struct il_trace_rec *r = &t->rec[j];

			if (r->kind != IL_TR_SWITCH || r->cpu != cpu)
				continue;
			if (r->ts > b) {
				if (above(r->prev_pid, r->prev_prio, kprio,
					  self))
					sum += b - at;
				tail = true;
				break;
			}
			if (above(r->prev_pid, r->prev_prio, kprio, self))
				sum += r->ts - at;
			at = r->ts;
		}
		if (!tail && at < b)
			continue; /* the end of the trace: not known */
		lat[i] = lat[i] > sum ? lat[i] - sum : 0;
		covered++;
	}
	return covered;
}

#if !HAVE_TRACEFS
int il_trace_available(char *why, size_t len)
{
	snprintf(why, len, "built without libtracefs");
	return 0;
}

int il_trace_start(uint64_t duration_ns, struct il_tracer **out, char *why,
		   size_t len)
{
	return il_trace_start_scope(duration_ns, NULL, out, why, len);
}

int il_trace_start_scope(uint64_t duration_ns,
			 const struct il_trace_scope *scope,
			 struct il_tracer **out, char *why, size_t len)
{
	(void)duration_ns;
	(void)scope;
	*out = NULL;
	snprintf(why, len,
		 "tracing: built without libtracefs and libtraceevent");
	return -ENOTSUP;
}

int il_trace_stop(struct il_tracer *tr, struct il_trace *t, char *why,
		  size_t len)
{
	(void)tr;
	memset(t, 0, sizeof(*t));
	snprintf(why, len, "tracing: built without libtracefs");
	return -ENOTSUP;
}

void il_trace_close(struct il_tracer *tr)
{
	(void)tr;
}
#endif
