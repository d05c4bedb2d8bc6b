// SPDX-License-Identifier: MIT
/*
 * A recorded trace as a Chrome JSON trace-event file, and the worst wait
 * of a run as a small timeline (trace-export.h).
 *
 * Who ran is told as the attribution tells it (docs/tracing.md, "How
 * time is given to a task"): the piece of a CPU's time up to a switch
 * belongs to that switch's prev, the piece after the last switch to its
 * next.  So the slices of one CPU never overlap, and a switch the
 * buffers dropped cannot hand a piece to the wrong task.
 *
 * The file is written by hand, one event a line, not with the indenting
 * writer of json.c: a run has tens of thousands of slices.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/report.h>
#include <invlab/trace-export.h>

#define MAX_CPUS 1024

/* a JSON string: ASCII as it is, anything else escaped, so that any
 * comm gives valid JSON (a comm is bytes, not always UTF-8) */
static void put_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

/* ns from t0 as microseconds with three decimals: exact */
static void put_us(FILE *f, uint64_t ns)
{
	fprintf(f, "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
}

struct out {
	FILE *f;
	uint64_t t0;
	bool first;
};

static void begin_event(struct out *o, const char *ph, int pid, int tid)
{
	fputs(o->first ? "\n" : ",\n", o->f);
	o->first = false;
	fprintf(o->f, "{\"ph\":\"%s\",\"pid\":%d,\"tid\":%d", ph, pid, tid);
}

static void meta(struct out *o, const char *what, int pid, int tid,
		 const char *name)
{
	begin_event(o, "M", pid, tid);
	fprintf(o->f, ",\"name\":\"%s\",\"args\":{\"name\":", what);
	put_str(o->f, name);
	fputs("}}", o->f);
}

static void sort_index(struct out *o, const char *what, int pid, int tid,
		       int idx)
{
	begin_event(o, "M", pid, tid);
	fprintf(o->f, ",\"name\":\"%s\",\"args\":{\"sort_index\":%d}}", what,
		idx);
}

/* a complete event; args is the text inside {} or NULL */
static void slice(struct out *o, int pid, int tid, const char *name,
		  const char *cat, uint64_t from, uint64_t to, const char *args)
{
	begin_event(o, "X", pid, tid);
	fputs(",\"name\":", o->f);
	put_str(o->f, name);
	fprintf(o->f, ",\"cat\":\"%s\",\"ts\":", cat);
	put_us(o->f, from - o->t0);
	fputs(",\"dur\":", o->f);
	put_us(o->f, to - from);
	if (args)
		fprintf(o->f, ",\"args\":{%s}", args);
	fputs("}", o->f);
}

static void instant(struct out *o, int pid, int tid, const char *name,
		    const char *cat, uint64_t ts, const char *args)
{
	begin_event(o, "i", pid, tid);
	fputs(",\"name\":", o->f);
	put_str(o->f, name);
	fprintf(o->f, ",\"cat\":\"%s\",\"s\":\"t\",\"ts\":", cat);
	put_us(o->f, ts - o->t0);
	if (args)
		fprintf(o->f, ",\"args\":{%s}", args);
	fputs("}", o->f);
}

static const struct il_export_task *task_of(const struct il_export_input *in,
					    int pid, size_t *idx)
{
	if (pid <= 0)
		return NULL;
	for (size_t i = 0; i < in->ntasks; i++)
		if (in->tasks[i].tid == pid) {
			if (idx)
				*idx = i;
			return &in->tasks[i];
		}
	return NULL;
}

static const char *comm_of(const struct il_trace *t, int pid)
{
	const struct il_trace_task *k = il_trace_task_of(t, pid);

	return k && k->comm[0] ? k->comm : "?";
}

/* a running piece of a scenario task, for its own lane */
struct piece {
	size_t task;
	uint64_t from, to;
	int cpu;
};

struct pieces {
	struct piece *p;
	size_t n, cap;
	int err;
};

static void keep_piece(struct pieces *ps, size_t task, uint64_t from,
		       uint64_t to, int cpu)
{
	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? 2 * ps->cap : 1024;
		void *p = realloc(ps->p, cap * sizeof(*ps->p));

		if (!p) {
			ps->err = -ENOMEM;
			return;
		}
		ps->p = p;
		ps->cap = cap;
	}
	ps->p[ps->n++] = (struct piece){ task, from, to, cpu };
}

static int by_task_time(const void *a, const void *b)
{
	const struct piece *x = a, *y = b;

	if (x->task != y->task)
		return x->task < y->task ? -1 : 1;
	return x->from < y->from ? -1 : x->from > y->from;
}

/* one CPU's piece [from, to] run by pid at kprio */
static void cpu_piece(struct out *o, const struct il_export_input *in,
		      struct pieces *ps, int cpu, int pid, int kprio,
		      uint64_t from, uint64_t to)
{
	const struct il_export_task *k;
	char args[96], cls[24];
	size_t idx = 0;

	if (pid <= 0 || to <= from)
		return;
	k = task_of(in, pid, &idx);
	il_trace_class_name(kprio, cls, sizeof(cls));
	snprintf(args, sizeof(args), "\"pid\":%d,\"class\":\"%s\"", pid, cls);
	slice(o, IL_EXPORT_CPU_PID, IL_EXPORT_CPU_PID + 1 + cpu,
	      k ? k->name : comm_of(in->trace, pid), k ? "scenario" : "foreign",
	      from, to, args);
	if (k)
		keep_piece(ps, idx, from, to, cpu);
}

static int cpu_lanes(struct out *o, const struct il_export_input *in,
		     struct pieces *ps)
{
	const struct il_trace *t = in->trace;
	int ncpu = 0;
	uint64_t *from;
	int *npid, *nprio;
	char name[32];

	for (size_t i = 0; i < t->n; i++)
		if (t->rec[i].kind == IL_TR_SWITCH && t->rec[i].cpu >= ncpu)
			ncpu = t->rec[i].cpu + 1;
	if (ncpu > MAX_CPUS)
		ncpu = MAX_CPUS;
	from = calloc((size_t)ncpu + 1, sizeof(*from));
	npid = calloc((size_t)ncpu + 1, sizeof(*npid));
	nprio = calloc((size_t)ncpu + 1, sizeof(*nprio));
	if (!from || !npid || !nprio) {
		free(from);
		free(npid);
		free(nprio);
		return -ENOMEM;
	}
	meta(o, "process_name", IL_EXPORT_CPU_PID, 0, "CPUs");
	sort_index(o, "process_sort_index", IL_EXPORT_CPU_PID, 0, 1);
	for (int c = 0; c < ncpu; c++) {
		snprintf(name, sizeof(name), "CPU %d", c);
		meta(o, "thread_name", IL_EXPORT_CPU_PID,
		     IL_EXPORT_CPU_PID + 1 + c, name);
		sort_index(o, "thread_sort_index", IL_EXPORT_CPU_PID,
			   IL_EXPORT_CPU_PID + 1 + c, c);
		npid[c] = -1; /* no switch seen yet */
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct il_trace_rec *r = &t->rec[i];
		uint64_t a;

		if (r->kind != IL_TR_SWITCH || r->cpu >= ncpu)
			continue;
		a = npid[r->cpu] < 0 ? t->t0_ns : from[r->cpu];
		if (r->ts >= t->t0_ns && r->ts <= t->t1_ns)
			cpu_piece(o, in, ps, r->cpu, r->prev_pid, r->prev_prio,
				  a, r->ts);
		from[r->cpu] = r->ts > t->t0_ns ? r->ts : t->t0_ns;
		npid[r->cpu] = r->next_pid;
		nprio[r->cpu] = r->next_prio;
	}
	for (int c = 0; c < ncpu; c++)
		if (npid[c] > 0 && from[c] < t->t1_ns)
			cpu_piece(o, in, ps, c, npid[c], nprio[c], from[c],
				  t->t1_ns);
	free(from);
	free(npid);
	free(nprio);
	return ps->err;
}

/* the scenario's tasks: running slices, waits, boosts, rounds */
static void task_lanes(struct out *o, const struct il_export_input *in,
		       struct pieces *ps)
{
	const struct il_trace *t = in->trace;
	int pid = in->pid > 0 ? in->pid : IL_EXPORT_SCEN_PID;
	char args[160], name[96], a[24], b[24];
	uint64_t end = 0;
	size_t task = (size_t)-1;

	meta(o, "process_name", pid, 0, in->title ? in->title : "scenario");
	sort_index(o, "process_sort_index", pid, 0, 0);
	meta(o, "thread_name", pid, IL_EXPORT_ROUNDS_TID, "rounds");
	sort_index(o, "thread_sort_index", pid, IL_EXPORT_ROUNDS_TID, 0);
	for (size_t i = 0; i < in->ntasks; i++) {
		const struct il_export_task *k = &in->tasks[i];

		il_trace_class_name(k->kprio, a, sizeof(a));
		snprintf(name, sizeof(name), "%s (%s)", k->name, a);
		if (k->tid > 0) {
			meta(o, "thread_name", pid, k->tid, name);
			sort_index(o, "thread_sort_index", pid, k->tid,
				   1 + 2 * (int)i);
		}
		if (!k->nwaits)
			continue;
		snprintf(name, sizeof(name), "%s waits", k->name);
		meta(o, "thread_name", pid, IL_EXPORT_ROUNDS_TID + 1 + (int)i,
		     name);
		sort_index(o, "thread_sort_index", pid,
			   IL_EXPORT_ROUNDS_TID + 1 + (int)i, 2 + 2 * (int)i);
	}
	for (size_t r = 0; r < in->nrounds; r++) {
		uint64_t a0 = in->round_start[r], a1 = in->round_end[r];

		if (a0 < t->t0_ns || a1 > t->t1_ns || a1 < a0)
			continue;
		snprintf(name, sizeof(name), "round %zu", r + 1);
		snprintf(args, sizeof(args), "\"round\":%zu", r + 1);
		slice(o, pid, IL_EXPORT_ROUNDS_TID, name, "round", a0, a1,
		      args);
	}
	/* running slices, each task's in time order, never overlapping
	 * (a dropped switch could make two CPUs claim one task) */
	qsort(ps->p, ps->n, sizeof(*ps->p), by_task_time);
	for (size_t i = 0; i < ps->n; i++) {
		const struct piece *p = &ps->p[i];
		uint64_t from = p->from;

		if (p->task != task) {
			task = p->task;
			end = 0;
		}
		if (from < end)
			from = end;
		if (p->to <= from || in->tasks[p->task].tid <= 0)
			continue;
		snprintf(args, sizeof(args), "\"cpu\":%d", p->cpu);
		slice(o, pid, in->tasks[p->task].tid, "running", "sched", from,
		      p->to, args);
		end = p->to;
	}
	/* the lock requests and acquisitions, and each wait as a slice */
	for (size_t i = 0; i < in->ntasks; i++) {
		const struct il_export_task *k = &in->tasks[i];
		const char *res = k->resource ? k->resource : "the lock";

		for (size_t w = 0; w < k->nwaits && k->tid > 0; w++) {
			const struct il_wait_sample *s = &k->waits[w];
			uint64_t acq = s->t_ns + s->delay_ns;

			if (!s->t_ns || s->timed_out || s->t_ns < t->t0_ns ||
			    acq > t->t1_ns)
				continue;
			snprintf(args, sizeof(args),
				 "\"wait\":%zu,\"delay_ns\":%" PRIu64
				 ",\"blocked_ns\":%" PRIu64,
				 w + 1, s->delay_ns,
				 s->t_req_ns && s->t_req_ns <= acq
					 ? acq - s->t_req_ns
					 : s->delay_ns);
			slice(o, pid, IL_EXPORT_ROUNDS_TID + 1 + (int)i, "wait",
			      "lock", s->t_ns, acq, args);
			if (s->t_req_ns >= t->t0_ns && s->t_req_ns <= acq) {
				snprintf(name, sizeof(name), "request %s", res);
				instant(o, pid, k->tid, name, "lock",
					s->t_req_ns, NULL);
			}
			snprintf(name, sizeof(name), "acquired %s", res);
			instant(o, pid, k->tid, name, "lock", acq, args);
		}
	}
	/* priority changes of the scenario's tasks: the protocol at work */
	for (size_t i = 0; i < t->n; i++) {
		const struct il_trace_rec *r = &t->rec[i];
		const struct il_export_task *k;

		if (r->kind != IL_TR_PI_SETPRIO ||
		    !(k = task_of(in, r->prev_pid, NULL)) || r->ts < t->t0_ns ||
		    r->ts > t->t1_ns)
			continue;
		il_trace_class_name(r->prev_prio, a, sizeof(a));
		il_trace_class_name(r->next_prio, b, sizeof(b));
		snprintf(name, sizeof(name), "%s %s -> %s",
			 r->next_prio < r->prev_prio ? "boosted" : "restored",
			 a, b);
		snprintf(args, sizeof(args), "\"oldprio\":%d,\"newprio\":%d",
			 r->prev_prio, r->next_prio);
		instant(o, pid, k->tid, name, "pi", r->ts, args);
	}
}

int il_trace_export_chrome(FILE *f, const struct il_export_input *in)
{
	struct out o = { .f = f, .first = true };
	struct pieces ps = { 0 };
	int ret;

	if (!f || !in || !in->trace || (in->ntasks && !in->tasks))
		return -EINVAL;
	o.t0 = in->trace->t0_ns;
	fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"title\":", f);
	put_str(f, in->title ? in->title : "");
	fprintf(f,
		",\"clock\":\"CLOCK_MONOTONIC\",\"t0_ns\":%" PRIu64
		",\"t1_ns\":%" PRIu64 ",\"lost_events\":%" PRIu64
		",\"recorded\":",
		in->trace->t0_ns, in->trace->t1_ns, in->trace->lost);
	put_str(f, in->trace->how);
	fputs("},\"traceEvents\":[", f);
	ret = cpu_lanes(&o, in, &ps);
	if (!ret)
		task_lanes(&o, in, &ps);
	free(ps.p);
	fputs("\n]}\n", f);
	if (!ret && ferror(f))
		ret = -EIO;
	return ret;
}

/* ---- the worst wait ----------------------------------------------------- */

struct tl_work {
	const struct il_export_input *in;
	struct il_timeline *tl;
	bool cpus_all;
	bool cpu_on[MAX_CPUS];
	int waiter_kprio;
	/* pass 1: foreign time by pid */
	struct {
		int pid, kprio;
		uint64_t ns;
	} f[64];
	size_t nf;
	bool fill; /* pass 2: slices into lanes */
	uint64_t others;
};

static struct il_tl_lane *lane_of(struct tl_work *w, int pid)
{
	for (size_t i = 0; i < w->tl->nlanes; i++)
		if (w->tl->lanes[i].pid == pid)
			return &w->tl->lanes[i];
	return NULL;
}

static void add_slice(struct il_tl_lane *l, uint64_t a, uint64_t b, int cpu)
{
	struct il_tl_slice *last = l->nslices ? &l->s[l->nslices - 1] : NULL;
	size_t k = 0;

	l->ran_ns += b - a;
	if (last && last->to_ns == a && last->cpu == cpu) {
		last->to_ns = b;
		last->ran_ns += b - a;
		return;
	}
	if (l->nslices == IL_TL_MAX_SLICES) {
		/* room for one more: merge the two neighbours that make the
		 * shortest slice, so that merged slices stay even */
		for (size_t i = 1; i + 1 < l->nslices; i++)
			if (l->s[i + 1].to_ns - l->s[i].from_ns <
			    l->s[k + 1].to_ns - l->s[k].from_ns)
				k = i;
		l->s[k].to_ns = l->s[k + 1].to_ns;
		l->s[k].ran_ns += l->s[k + 1].ran_ns;
		memmove(&l->s[k + 1], &l->s[k + 2],
			(l->nslices - k - 2) * sizeof(l->s[0]));
		l->nslices--;
		l->merged++;
	}
	l->s[l->nslices++] = (struct il_tl_slice){ a, b, b - a, cpu };
}

/* the piece [a, b] (absolute) of cpu was run by pid at kprio */
static void tl_piece(struct tl_work *w, int cpu, int pid, int kprio, uint64_t a,
		     uint64_t b)
{
	struct il_timeline *tl = w->tl;
	struct il_tl_lane *l;

	if (pid <= 0 || b <= a)
		return;
	if (!w->fill) {
		if (task_of(w->in, pid, NULL))
			return;
		for (size_t i = 0; i < w->nf; i++)
			if (w->f[i].pid == pid) {
				w->f[i].ns += b - a;
				return;
			}
		if (w->nf < sizeof(w->f) / sizeof(w->f[0])) {
			w->f[w->nf].pid = pid;
			w->f[w->nf].kprio = kprio;
			w->f[w->nf++].ns = b - a;
		} else {
			w->others += b - a;
		}
		return;
	}
	l = lane_of(w, pid);
	if (l)
		add_slice(l, a - tl->t0_ns, b - tl->t0_ns, cpu);
}

/* who ran on the CPUs looked at in [a, b], by the prev rule */
static void tl_walk(struct tl_work *w, uint64_t a, uint64_t b)
{
	const struct il_trace *t = w->in->trace;
	static const uint64_t unset = UINT64_MAX;
	uint64_t from[MAX_CPUS];
	int lastnext[MAX_CPUS], lastprio[MAX_CPUS];
	bool open[MAX_CPUS];
	size_t lo = 0, hi = t->n, k;
	int ncpu = 0, nopen = 0;

	for (size_t i = 0; i < t->n; i++)
		if (t->rec[i].kind == IL_TR_SWITCH && t->rec[i].cpu >= ncpu)
			ncpu = t->rec[i].cpu + 1;
	if (ncpu > MAX_CPUS)
		ncpu = MAX_CPUS;
	for (int c = 0; c < ncpu; c++) {
		from[c] = a;
		lastnext[c] = -1;
		lastprio[c] = 0;
		open[c] = w->cpus_all || w->cpu_on[c];
		nopen += open[c];
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->rec[mid].ts <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* inside the window */
	for (k = lo; k < t->n && t->rec[k].ts <= b; k++) {
		const struct il_trace_rec *r = &t->rec[k];

		if (r->kind != IL_TR_SWITCH || r->cpu >= ncpu || !open[r->cpu])
			continue;
		tl_piece(w, r->cpu, r->prev_pid, r->prev_prio, from[r->cpu],
			 r->ts);
		from[r->cpu] = r->ts;
		lastnext[r->cpu] = r->next_pid;
		lastprio[r->cpu] = r->next_prio;
	}
	/* the rest up to b: the prev of each CPU's next switch after it */
	for (; k < t->n && nopen; k++) {
		const struct il_trace_rec *r = &t->rec[k];

		if (r->kind != IL_TR_SWITCH || r->cpu >= ncpu || !open[r->cpu])
			continue;
		tl_piece(w, r->cpu, r->prev_pid, r->prev_prio, from[r->cpu], b);
		open[r->cpu] = false;
		nopen--;
	}
	/* no switch after it: the last one's next, in or before the window */
	for (int c = 0; c < ncpu && nopen; c++) {
		if (!open[c])
			continue;
		for (size_t j = lo; lastnext[c] < 0 && j-- > 0;)
			if (t->rec[j].kind == IL_TR_SWITCH &&
			    t->rec[j].cpu == c) {
				lastnext[c] = t->rec[j].next_pid;
				lastprio[c] = t->rec[j].next_prio;
			}
		if (lastnext[c] >= 0 && from[c] != unset)
			tl_piece(w, c, lastnext[c], lastprio[c], from[c], b);
	}
}

static int by_foreign_ns(const void *a, const void *b)
{
	const struct il_tl_lane *x = a, *y = b;

	return x->ran_ns < y->ran_ns ? 1 : x->ran_ns > y->ran_ns ? -1 : 0;
}

static void copy_name(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

int il_timeline_worst(const struct il_export_input *in, size_t wi,
		      uint64_t bound_ns, uint64_t noise_ns,
		      struct il_timeline *tl)
{
	struct tl_work *w;
	const struct il_export_task *me;
	const struct il_trace *t;
	const struct il_wait_sample *worst = NULL;
	uint64_t rel, req, acq, a, pad, locked = IL_TL_NONE;
	size_t nf;

	if (!in || !in->trace || !tl || wi >= in->ntasks)
		return -EINVAL;
	memset(tl, 0, sizeof(*tl));
	t = in->trace;
	me = &in->tasks[wi];
	for (size_t i = 0; i < me->nwaits; i++) {
		const struct il_wait_sample *s = &me->waits[i];

		if (!s->t_ns || s->timed_out || s->t_ns < t->t0_ns ||
		    s->t_ns + s->delay_ns > t->t1_ns)
			continue;
		if (!worst || s->delay_ns > worst->delay_ns)
			worst = s;
	}
	if (!worst)
		return -ENOENT;
	rel = worst->t_ns;
	acq = rel + worst->delay_ns;
	req = worst->t_req_ns >= rel && worst->t_req_ns <= acq ? worst->t_req_ns
							       : rel;
	/* the holder's own acquisition before the request, if close */
	for (size_t i = 0; i < in->ntasks; i++) {
		const struct il_export_task *k = &in->tasks[i];

		if (i == wi || (k->role && strcmp(k->role, "holder")))
			continue;
		for (size_t j = 0; j < k->nwaits; j++) {
			uint64_t x = k->waits[j].t_ns + k->waits[j].delay_ns;

			if (!k->waits[j].t_ns || x > req ||
			    req - x > 4 * (acq - rel) + 1000000)
				continue;
			if (locked == IL_TL_NONE || x > locked) {
				locked = x;
				copy_name(tl->locker, sizeof(tl->locker),
					  k->name);
			}
		}
	}
	a = locked != IL_TL_NONE && locked < rel ? locked : rel;
	pad = (acq - a) / 8 + 20000;
	tl->t0_ns = a - pad > t->t0_ns && a > pad ? a - pad : t->t0_ns;
	tl->span_ns = (acq + pad < t->t1_ns ? acq + pad : t->t1_ns) - tl->t0_ns;
	tl->release_ns = rel - tl->t0_ns;
	tl->request_ns = req - tl->t0_ns;
	tl->acquired_ns = acq - tl->t0_ns;
	tl->delay_ns = worst->delay_ns;
	tl->locked_ns = locked == IL_TL_NONE || locked < tl->t0_ns
				? IL_TL_NONE
				: locked - tl->t0_ns;
	if (tl->locked_ns == IL_TL_NONE)
		tl->locker[0] = '\0';
	tl->bound_ns = bound_ns;
	tl->noise_ns = noise_ns;
	tl->boost_ns = IL_TL_NONE;
	copy_name(tl->waiter, sizeof(tl->waiter), me->name);
	copy_name(tl->resource, sizeof(tl->resource), me->resource);
	/* each other task's first boost inside the wait: the chain's links */
	for (size_t i = 0; i < t->n && tl->nboosts < IL_TL_MAX_BOOSTS; i++) {
		const struct il_trace_rec *r = &t->rec[i];
		const struct il_export_task *k;
		struct il_tl_boost *b;
		bool seen = false;

		if (r->kind != IL_TR_PI_SETPRIO || r->ts < req || r->ts > acq ||
		    r->next_prio >= r->prev_prio)
			continue;
		k = task_of(in, r->prev_pid, NULL);
		if (!k || k == me)
			continue;
		for (size_t q = 0; q < tl->nboosts; q++)
			seen |= !strcmp(tl->boosts[q].task, k->name);
		if (seen)
			continue;
		b = &tl->boosts[tl->nboosts++];
		b->at_ns = r->ts - tl->t0_ns;
		b->from = r->prev_prio;
		b->to = r->next_prio;
		copy_name(b->task, sizeof(b->task), k->name);
	}
	if (tl->nboosts) {
		tl->boost_ns = tl->boosts[0].at_ns;
		tl->boost_from = tl->boosts[0].from;
		tl->boost_to = tl->boosts[0].to;
		copy_name(tl->boosted, sizeof(tl->boosted), tl->boosts[0].task);
	}

	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->in = in;
	w->tl = tl;
	w->waiter_kprio = me->kprio;
	w->cpus_all = true;
	for (size_t i = 0; i < in->ntasks; i++)
		if (in->tasks[i].cpu >= 0 && in->tasks[i].cpu < MAX_CPUS) {
			w->cpu_on[in->tasks[i].cpu] = true;
			w->cpus_all = false;
		}
	/* the scenario's lanes, then the foreign tasks that ran most */
	for (size_t i = 0; i < in->ntasks && tl->nlanes < IL_TL_MAX_LANES;
	     i++) {
		struct il_tl_lane *l = &tl->lanes[tl->nlanes++];

		copy_name(l->name, sizeof(l->name), in->tasks[i].name);
		l->pid = in->tasks[i].tid;
		l->kprio = in->tasks[i].kprio;
		copy_name(l->role, sizeof(l->role),
			  i == wi	      ? "waiter"
			  : in->tasks[i].role ? in->tasks[i].role
					      : "task");
	}
	tl_walk(w, tl->t0_ns, tl->t0_ns + tl->span_ns);
	nf = w->nf;
	for (size_t i = 0; i < nf; i++) {
		struct il_tl_lane *l;

		if (tl->nlanes == IL_TL_MAX_LANES) {
			/* replace the smallest foreign lane if this ran more */
			size_t m = tl->nlanes;

			for (size_t k = in->ntasks; k < tl->nlanes; k++)
				if (m == tl->nlanes ||
				    tl->lanes[k].ran_ns < tl->lanes[m].ran_ns)
					m = k;
			if (m == tl->nlanes ||
			    tl->lanes[m].ran_ns >= w->f[i].ns) {
				w->others += w->f[i].ns;
				continue;
			}
			w->others += tl->lanes[m].ran_ns;
			l = &tl->lanes[m];
		} else {
			l = &tl->lanes[tl->nlanes++];
		}
		memset(l, 0, sizeof(*l));
		copy_name(l->name, sizeof(l->name), comm_of(t, w->f[i].pid));
		l->pid = w->f[i].pid;
		l->kprio = w->f[i].kprio;
		copy_name(l->role, sizeof(l->role), "foreign");
		l->higher = w->f[i].kprio <= w->waiter_kprio;
		l->ran_ns =
			w->f[i].ns; /* for the choice; counted again below */
	}
	if (tl->nlanes > in->ntasks)
		qsort(&tl->lanes[in->ntasks], tl->nlanes - in->ntasks,
		      sizeof(tl->lanes[0]), by_foreign_ns);
	for (size_t i = 0; i < tl->nlanes; i++)
		tl->lanes[i].ran_ns = 0;
	w->fill = true;
	tl_walk(w, tl->t0_ns, tl->t0_ns + tl->span_ns);
	tl->others_ns = w->others;
	free(w);
	return 0;
}

static void json_moment(struct il_json *j, const char *key, uint64_t v)
{
	if (v == IL_TL_NONE)
		il_json_null(j, key);
	else
		il_json_uint(j, key, v);
}

void il_timeline_json(struct il_json *j, const char *key,
		      const struct il_timeline *tl)
{
	char cls[24];

	il_json_begin_object(j, key);
	il_json_str(j, "task", tl->waiter);
	il_json_str(j, "resource", tl->resource[0] ? tl->resource : NULL);
	il_json_uint(j, "t0_ns", tl->t0_ns);
	il_json_uint(j, "span_ns", tl->span_ns);
	il_json_uint(j, "release_ns", tl->release_ns);
	il_json_uint(j, "request_ns", tl->request_ns);
	il_json_uint(j, "acquired_ns", tl->acquired_ns);
	il_json_uint(j, "delay_ns", tl->delay_ns);
	json_moment(j, "locked_ns", tl->locked_ns);
	il_json_str(j, "locked_by", tl->locker[0] ? tl->locker : NULL);
	json_moment(j, "boost_ns", tl->boost_ns);
	il_json_str(j, "boosted", tl->boosted[0] ? tl->boosted : NULL);
	if (tl->boost_ns != IL_TL_NONE) {
		il_json_int(j, "boost_from_kprio", tl->boost_from);
		il_json_int(j, "boost_to_kprio", tl->boost_to);
	}
	il_json_begin_array(j, "boosts");
	for (size_t i = 0; i < tl->nboosts; i++) {
		il_json_begin_object(j, NULL);
		il_json_uint(j, "at_ns", tl->boosts[i].at_ns);
		il_json_str(j, "task", tl->boosts[i].task);
		il_json_int(j, "from_kprio", tl->boosts[i].from);
		il_json_int(j, "to_kprio", tl->boosts[i].to);
		il_json_end_object(j);
	}
	il_json_end_array(j);
	il_json_uint(j, "bound_ns", tl->bound_ns);
	il_json_uint(j, "noise_ns", tl->noise_ns);
	il_json_uint(j, "others_ns", tl->others_ns);
	il_json_begin_array(j, "lanes");
	for (size_t i = 0; i < tl->nlanes; i++) {
		const struct il_tl_lane *l = &tl->lanes[i];

		il_json_begin_object(j, NULL);
		il_json_str(j, "name", l->name);
		il_json_int(j, "pid", l->pid);
		il_json_int(j, "kprio", l->kprio);
		il_trace_class_name(l->kprio, cls, sizeof(cls));
		il_json_str(j, "class", cls);
		il_json_str(j, "role", l->role);
		il_json_bool(j, "higher", l->higher);
		il_json_uint(j, "ran_ns", l->ran_ns);
		il_json_begin_array(j, "slices");
		for (size_t k = 0; k < l->nslices; k++) {
			il_json_begin_object(j, NULL);
			il_json_uint(j, "from_ns", l->s[k].from_ns);
			il_json_uint(j, "to_ns", l->s[k].to_ns);
			il_json_uint(j, "ran_ns", l->s[k].ran_ns);
			il_json_int(j, "cpu", l->s[k].cpu);
			il_json_end_object(j);
		}
		il_json_end_array(j);
		il_json_end_object(j);
	}
	il_json_end_array(j);
	il_json_end_object(j);
}

void il_export_file_name(char *buf, size_t len, const char *name)
{
	size_t n = 0;

	if (!len)
		return;
	for (const char *c = name; c && *c && n + 1 < len; c++) {
		bool ok = (*c >= 'a' && *c <= 'z') ||
			  (*c >= 'A' && *c <= 'Z') ||
			  (*c >= '0' && *c <= '9') || *c == '-' || *c == '_' ||
			  *c == '.';

		buf[n++] = ok ? *c : '_';
	}
	buf[n] = '\0';
	if (!n || !strcmp(buf, ".") || !strcmp(buf, ".."))
		snprintf(buf, len, "run");
}
