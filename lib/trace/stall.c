// SPDX-License-Identifier: MIT
/*
 * Where a CPU stalled, witnessed by a timer (trace.h, il_trace_stalls):
 * a real-time sleeper that went to sleep on CPU c until an absolute time
 * r has a timer due at r on c; when its next event is its wakeup on c at
 * w > r, c took no interrupt in [r, w).  The host held the vCPU (the
 * steal counter may or may not show it), or interrupts were off: either
 * way the task the trace shows "running" on c then was not the
 * scheduler's choice of that moment.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include <invlab/trace.h>

/* look back and ahead at most this many records from a release */
#define SCAN_MAX 200000

static bool of_pid(const struct il_trace_rec *r, int pid)
{
	if (r->kind == IL_TR_SWITCH)
		return r->prev_pid == pid || r->next_pid == pid;
	return (r->kind == IL_TR_WAKEUP || r->kind == IL_TR_MIGRATE) &&
	       r->prev_pid == pid;
}

/* the CPU pid went to sleep on before ts (its last event a switch out
 * in a sleeping state), or -1 */
static int slept_on(const struct il_trace *t, int pid, uint64_t ts)
{
	size_t k = il_trace_rec_from(t, ts, false);

	for (size_t m = 0; k > 0 && m < SCAN_MAX; m++) {
		const struct il_trace_rec *r = &t->rec[--k];

		if (!of_pid(r, pid))
			continue;
		return r->kind == IL_TR_SWITCH && r->prev_pid == pid &&
				       !r->prev_runnable
			       ? r->cpu
			       : -1;
	}
	return -1;
}

/* pid's first event in [x, y], or NULL */
static const struct il_trace_rec *first_of(const struct il_trace *t, int pid,
					   uint64_t x, uint64_t y)
{
	size_t k = il_trace_rec_from(t, x, false);

	for (size_t m = 0; k < t->n && t->rec[k].ts <= y && m < SCAN_MAX;
	     k++, m++)
		if (of_pid(&t->rec[k], pid))
			return &t->rec[k];
	return NULL;
}

static int by_start(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

static int add(struct il_trace_stalls *s, int c, uint64_t a, uint64_t b)
{
	struct il_trace_stall_cpu *sc = &s->cpu[c];
	uint64_t *grown = realloc(sc->se, 2 * (sc->n + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	sc->se = grown;
	sc->se[2 * sc->n] = a;
	sc->se[2 * sc->n + 1] = b;
	sc->n++;
	return 0;
}

/* each CPU's stretches in time order, overlapping ones merged */
static void merge(struct il_trace_stall_cpu *sc)
{
	size_t m = 0;

	if (!sc->n)
		return;
	qsort(sc->se, sc->n, 2 * sizeof(uint64_t), by_start);
	for (size_t k = 1; k < sc->n; k++) {
		if (sc->se[2 * k] <= sc->se[2 * m + 1]) {
			if (sc->se[2 * k + 1] > sc->se[2 * m + 1])
				sc->se[2 * m + 1] = sc->se[2 * k + 1];
		} else {
			m++;
			sc->se[2 * m] = sc->se[2 * k];
			sc->se[2 * m + 1] = sc->se[2 * k + 1];
		}
	}
	sc->n = m + 1;
}

int il_trace_stalls(const struct il_trace *t, const struct il_trace_sleeper *sl,
		    size_t nsl, struct il_trace_stalls *out)
{
	int maxc = -1, ret = 0;

	if (!out)
		return -EINVAL;
	out->cpu = NULL;
	out->ncpus = 0;
	if (!t || (nsl && !sl))
		return -EINVAL;
	for (size_t i = 0; i < t->n; i++)
		if (t->rec[i].kind == IL_TR_SWITCH && t->rec[i].cpu > maxc)
			maxc = t->rec[i].cpu;
	if (maxc < 0)
		return 0;
	out->cpu = calloc((size_t)maxc + 1, sizeof(*out->cpu));
	if (!out->cpu)
		return -ENOMEM;
	out->ncpus = maxc + 1;
	for (size_t i = 0; !ret && i < nsl; i++) {
		const struct il_trace_sleeper *s = &sl[i];

		for (size_t k = 0; !ret && s->tid > 0 && s->rel && k < s->nrel;
		     k++) {
			uint64_t r = s->rel[k], next;
			const struct il_trace_rec *x;
			int c;

			if (!r || r <= t->t0_ns || r >= t->t1_ns)
				continue;
			c = slept_on(t, s->tid, r);
			if (c < 0 || c >= out->ncpus)
				continue;
			next = k + 1 < s->nrel && s->rel[k + 1] > r
				       ? s->rel[k + 1]
				       : t->t1_ns;
			x = first_of(t, s->tid, r, next);
			/* woken there, late: a wakeup elsewhere or after a
			 * migration does not say which CPU was late */
			if (x && x->kind == IL_TR_WAKEUP && x->cpu == c &&
			    x->ts > r)
				ret = add(out, c, r, x->ts);
		}
	}
	if (ret) {
		il_trace_stalls_free(out);
		return ret;
	}
	for (int c = 0; c < out->ncpus; c++)
		merge(&out->cpu[c]);
	return 0;
}

static int add_win(struct il_trace_stall_cpu *sc, uint64_t a, uint64_t b,
		   uint64_t run)
{
	struct il_trace_run_win *grown =
		realloc(sc->win, (sc->nwin + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	sc->win = grown;
	sc->win[sc->nwin++] = (struct il_trace_run_win){ a, b, run };
	return 0;
}

int il_trace_stalls_runtime(const struct il_trace *t, struct il_trace_stalls *s)
{
	int32_t *cur;
	uint64_t *from;
	int ret = 0;

	if (!t || !s || (s->ncpus && !s->cpu))
		return -EINVAL;
	if (!s->ncpus)
		return 0;
	cur = malloc((size_t)s->ncpus * sizeof(*cur));
	from = calloc((size_t)s->ncpus, sizeof(*from));
	if (!cur || !from) {
		free(cur);
		free(from);
		return -ENOMEM;
	}
	for (int c = 0; c < s->ncpus; c++)
		cur[c] = -1; /* not known before the CPU's first switch */
	for (size_t k = 0; !ret && k < t->n; k++) {
		const struct il_trace_rec *r = &t->rec[k];
		int c = -1;

		if (r->kind == IL_TR_SWITCH && r->cpu < s->ncpus) {
			/* the next task's account starts at its switch in;
			 * idle has none */
			cur[r->cpu] = r->next_pid;
			from[r->cpu] = r->next_pid > 0 ? r->ts : 0;
			continue;
		}
		if (r->kind != IL_TR_RUNTIME || r->prev_pid <= 0)
			continue;
		for (int m = 0; m < s->ncpus && c < 0; m++)
			if (cur[m] == r->prev_pid)
				c = m;
		if (c < 0) {
			if (r->cpu < s->ncpus)
				from[r->cpu] = 0;
			continue;
		}
		if (from[c] && r->next_pid >= 0 && r->ts > from[c])
			ret = add_win(&s->cpu[c], from[c], r->ts,
				      (uint64_t)r->next_pid);
		from[c] = r->next_pid >= 0 ? r->ts : 0;
	}
	free(cur);
	free(from);
	return ret;
}

/* what cpu's run-time windows leave unaccounted of [x, y) */
static uint64_t unaccounted(const struct il_trace_stall_cpu *sc, uint64_t x,
			    uint64_t y)
{
	size_t lo = 0, hi = sc->nwin;
	uint64_t sum = 0;

	/* the first window that ends after x */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sc->win[mid].b <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t k = lo; k < sc->nwin && sc->win[k].a < y; k++) {
		const struct il_trace_run_win *w = &sc->win[k];
		uint64_t a = w->a > x ? w->a : x, b = w->b < y ? w->b : y;
		uint64_t kept = w->run + IL_TRACE_RUN_SLACK_NS;

		sum += b > a + kept ? b - a - kept : 0;
	}
	return sum;
}

uint64_t il_trace_stalled(const struct il_trace_stalls *s, int cpu, uint64_t x,
			  uint64_t y)
{
	const struct il_trace_stall_cpu *sc;
	size_t lo = 0, hi;
	uint64_t sum = 0, held;

	if (!s || cpu < 0 || cpu >= s->ncpus || y <= x)
		return 0;
	sc = &s->cpu[cpu];
	held = unaccounted(sc, x, y);
	hi = sc->n;
	/* the first stretch that ends after x */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sc->se[2 * mid + 1] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t k = lo; k < sc->n && sc->se[2 * k] < y; k++) {
		uint64_t a = sc->se[2 * k] > x ? sc->se[2 * k] : x;
		uint64_t b = sc->se[2 * k + 1] < y ? sc->se[2 * k + 1] : y;

		sum += b > a ? b - a : 0;
	}
	return sum > held ? sum : held;
}

void il_trace_stalls_free(struct il_trace_stalls *s)
{
	if (!s)
		return;
	for (int c = 0; c < s->ncpus && s->cpu; c++) {
		free(s->cpu[c].se);
		free(s->cpu[c].win);
	}
	free(s->cpu);
	s->cpu = NULL;
	s->ncpus = 0;
}

void il_trace_late_add(uint64_t ts, uint64_t run, uint64_t tick_ns, uint64_t t0,
		       uint64_t period, uint64_t *late, size_t n)
{
	uint64_t a = ts > run ? ts - run : 0, p0, p1;

	if (run <= tick_ns || ts < t0 || !n || !period || !late)
		return;
	p0 = a > t0 ? (a - t0) / period : 0;
	p1 = (ts - t0) / period;
	for (uint64_t p = p0; p <= p1 && p < n; p++)
		late[p] += run - tick_ns;
}

long il_trace_late_ticks(const struct il_trace *t, int pid, uint64_t tick_ns,
			 uint64_t t0, uint64_t period, uint64_t *late, size_t n)
{
	long seen = 0;

	if (!t || pid <= 0 || !tick_ns || !period || (n && !late))
		return -EINVAL;
	for (size_t p = 0; p < n; p++)
		late[p] = 0;
	for (size_t k = 0; k < t->n; k++) {
		const struct il_trace_rec *r = &t->rec[k];

		if (r->kind != IL_TR_RUNTIME || r->prev_pid != pid)
			continue;
		seen++;
		/* an unknown run (over INT32_MAX ns) witnesses nothing */
		if (r->next_pid < 0)
			continue;
		il_trace_late_add(r->ts, (uint64_t)r->next_pid, tick_ns, t0,
				  period, late, n);
	}
	return seen;
}

long il_trace_woken_current(const struct il_trace *t, int pid, uint64_t **wake)
{
	int32_t *cur = NULL;
	uint64_t *w = NULL;
	size_t ncpu = 0, n = 0, cap = 0;

	if (!t || pid <= 0 || !wake)
		return -EINVAL;
	*wake = NULL;
	for (size_t k = 0; k < t->n; k++)
		if (t->rec[k].cpu >= ncpu)
			ncpu = (size_t)t->rec[k].cpu + 1;
	if (!ncpu)
		return 0;
	cur = malloc(ncpu * sizeof(*cur));
	if (!cur)
		return -ENOMEM;
	/* who is current on a CPU is unknown until its first switch */
	for (size_t c = 0; c < ncpu; c++)
		cur[c] = -1;
	for (size_t k = 0; k < t->n; k++) {
		const struct il_trace_rec *r = &t->rec[k];

		if (r->kind == IL_TR_SWITCH) {
			cur[r->cpu] = r->next_pid;
			continue;
		}
		if (r->kind != IL_TR_WAKEUP || r->prev_pid != pid ||
		    cur[r->cpu] != pid)
			continue;
		if (n == cap) {
			size_t nc = cap ? 2 * cap : 16;
			uint64_t *nw = realloc(w, nc * sizeof(*w));

			if (!nw) {
				free(w);
				free(cur);
				return -ENOMEM;
			}
			w = nw;
			cap = nc;
		}
		w[n++] = r->ts;
	}
	free(cur);
	*wake = w;
	return (long)n;
}

uint64_t il_trace_accounted(const struct il_trace *t, int pid, uint64_t x,
			    uint64_t y)
{
	size_t lo = 0, hi;
	uint64_t sum = 0;

	if (!t || pid <= 0)
		return 0;
	/* the first record at or after x: an account ends at its ts */
	hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->rec[mid].ts < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t k = lo; k < t->n; k++) {
		const struct il_trace_rec *r = &t->rec[k];
		uint64_t run, a, b;

		if (r->kind != IL_TR_RUNTIME || r->prev_pid != pid ||
		    r->next_pid < 0)
			continue;
		run = (uint64_t)r->next_pid;
		a = r->ts > run ? r->ts - run : 0;
		if (a < x)
			a = x;
		b = r->ts < y ? r->ts : y;
		if (b > a)
			sum += b - a;
		/* the first account to reach y is the last to overlap */
		if (r->ts >= y)
			break;
	}
	return sum;
}

/* pid's part in switch record r: 1 switched in, -1 switched out, 0 none */
static int switch_of(const struct il_trace_rec *r, int pid)
{
	if (r->kind != IL_TR_SWITCH)
		return 0;
	if (r->next_pid == pid)
		return 1;
	return r->prev_pid == pid ? -1 : 0;
}

uint64_t il_trace_on_cpu(const struct il_trace *t, int pid, uint64_t x,
			 uint64_t y)
{
	size_t first;
	uint64_t sum = 0, since = x;
	int on = -1; /* unknown */

	if (!t || pid <= 0 || t->lost || y < x || x < t->t0_ns || y > t->t1_ns)
		return UINT64_MAX;
	first = il_trace_rec_from(t, x, false);
	/* the state at x: the last switch of pid before it */
	for (size_t k = first; on < 0 && k-- > 0;) {
		int w = switch_of(&t->rec[k], pid);

		if (w)
			on = w > 0;
	}
	for (size_t k = first; k < t->n && t->rec[k].ts <= y; k++) {
		int w = switch_of(&t->rec[k], pid);

		if (!w)
			continue;
		if (on < 0) /* none before x: the first after tells */
			on = w < 0;
		if (w > 0 && !on)
			since = t->rec[k].ts;
		else if (w < 0 && on)
			sum += t->rec[k].ts - since;
		on = w > 0;
	}
	if (on < 0) {
		/* no switch of pid up to y: one after y tells, else none */
		for (size_t k = first; on < 0 && k < t->n; k++) {
			int w = switch_of(&t->rec[k], pid);

			if (w)
				on = w < 0;
		}
		if (on < 0)
			return UINT64_MAX;
	}
	if (on)
		sum += y - since;
	return sum;
}

uint64_t il_trace_silence(const struct il_trace *t, int ncpus)
{
	uint64_t *last, most = 0;

	if (!t || ncpus < 1 || !t->t0_ns || t->t1_ns <= t->t0_ns)
		return 0;
	last = malloc((size_t)ncpus * sizeof(*last));
	if (!last)
		return t->t1_ns - t->t0_ns; /* nothing known: all of it */
	for (int c = 0; c < ncpus; c++)
		last[c] = t->t0_ns;
	for (size_t k = 0; k < t->n; k++) {
		const struct il_trace_rec *r = &t->rec[k];

		if ((r->kind != IL_TR_SWITCH && r->kind != IL_TR_RUNTIME) ||
		    r->cpu >= ncpus || r->ts < last[r->cpu])
			continue;
		if (r->ts - last[r->cpu] > most)
			most = r->ts - last[r->cpu];
		last[r->cpu] = r->ts;
	}
	for (int c = 0; c < ncpus; c++)
		if (t->t1_ns > last[c] && t->t1_ns - last[c] > most)
			most = t->t1_ns - last[c];
	free(last);
	return most;
}
