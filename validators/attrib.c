// SPDX-License-Identifier: MIT
/*
 * Attribution of every wait from the scheduler's trace (attrib.h).
 *
 * The trace is a sequence of context switches per CPU; between two of
 * them one task ran.  A wait [release, acquired] on a CPU is cut at the
 * switches inside it, and each piece goes to the task that ran it, by
 * thread id for the scenario's tasks and by priority for the others.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/affinity.h>
#include <invlab/attrib.h>
#include <invlab/deboost.h>
#include <invlab/strbuf.h>
#include <invlab/time.h>

#include "model.h"

#define WORK_NAMED 32 /* foreign tasks tracked before the top few */
#define MAX_CPUS   1024

int il_attr_rank(int kprio)
{
	if (kprio < 0)
		return 200;
	if (kprio < 100)
		return 100 + 99 - kprio;
	return 0;
}

int il_attr_kprio(const struct il_sched *s)
{
	return il_trace_kprio(s);
}

/* the switch records of one CPU, by index into t->rec, in time order */
struct cpu_index {
	size_t *ix;
	size_t n;
};

struct pid_own {
	int pid, own;
};

struct work {
	const struct il_attr_input *in;
	const struct il_trace *t;
	struct cpu_index *cpus;
	/* per CPU, its run-time accounts (IL_TR_RUNTIME made there): with
	 * its switches, the records that show it was running */
	struct cpu_index *acct;
	/* each task the kernel's priority inheritance changed, by pid: its
	 * own priority (own_prio) */
	struct pid_own *own;
	size_t nown;
	int ncpus;
	struct il_attr_named named[WORK_NAMED];
	size_t nnamed;
	uint64_t other_ns; /* foreign tasks beyond WORK_NAMED */
};

static const struct il_attr_task *scenario_task(const struct il_attr_input *in,
						int pid)
{
	if (pid <= 0)
		return NULL;
	for (size_t i = 0; i < in->ntasks; i++)
		if (in->tasks[i].tid == pid)
			return &in->tasks[i];
	return NULL;
}

/* this wait's time per foreign task and priority it ran at, merged
 * into w->named after it */
struct wait_named {
	int pid, kprio;
	bool boosted;
	uint64_t ns, counted;
};

static void add_foreign(struct wait_named *wn, size_t *nwn, size_t cap, int pid,
			int kprio, bool boosted, uint64_t ns, uint64_t counted)
{
	for (size_t i = 0; i < *nwn; i++)
		if (wn[i].pid == pid && wn[i].kprio == kprio) {
			wn[i].ns += ns;
			wn[i].counted += counted;
			wn[i].boosted |= boosted;
			return;
		}
	if (*nwn < cap) {
		wn[*nwn].pid = pid;
		wn[*nwn].kprio = kprio;
		wn[*nwn].boosted = boosted;
		wn[*nwn].ns = ns;
		wn[*nwn].counted = counted;
		(*nwn)++;
	}
}

static void merge_named(struct work *w, const struct wait_named *wn, size_t nwn)
{
	for (size_t k = 0; k < nwn; k++) {
		struct il_attr_named *a = NULL;

		for (size_t i = 0; i < w->nnamed && !a; i++)
			if (w->named[i].pid == wn[k].pid &&
			    w->named[i].kprio == wn[k].kprio)
				a = &w->named[i];
		if (!a && w->nnamed < WORK_NAMED) {
			const struct il_trace_task *tk =
				il_trace_task_of(w->t, wn[k].pid);

			a = &w->named[w->nnamed++];
			memset(a, 0, sizeof(*a));
			a->pid = wn[k].pid;
			a->kprio = (int16_t)wn[k].kprio;
			/* raised to it from below: counted, not higher */
			a->higher = il_attr_rank(wn[k].kprio) >=
					    w->in->waiter_rank &&
				    !wn[k].counted;
			snprintf(a->comm, sizeof(a->comm), "%s",
				 tk && tk->comm[0] ? tk->comm : "?");
		}
		if (!a) {
			w->other_ns += wn[k].ns;
			continue;
		}
		a->ns += wn[k].ns;
		a->counted_ns += wn[k].counted;
		a->boosted |= wn[k].boosted;
		a->waits++;
		if (wn[k].ns > a->worst_ns)
			a->worst_ns = wn[k].ns;
	}
}

/* the last switch on c at or before ts, or (size_t)-1 */
static size_t last_before(const struct work *w, int c, uint64_t ts)
{
	const struct cpu_index *ci = &w->cpus[c];
	size_t lo = 0, hi = ci->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (w->t->rec[ci->ix[mid]].ts <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : (size_t)-1;
}

struct split {
	uint64_t holder, lower, higher, fhigh, flow, fair, idle, waiter;
	uint64_t unseen; /* of lower + flow: no record of the CPU's own */
};

uint64_t il_attr_fair_budget(uint64_t d)
{
	return (d / IL_ATTR_FAIR_PERIOD_NS + 1) * IL_ATTR_FAIR_RUNTIME_NS;
}

/* the first index of ci whose record is at or after ts */
static size_t first_from(const struct work *w, const struct cpu_index *ci,
			 uint64_t ts)
{
	size_t lo = 0, hi = ci->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (w->t->rec[ci->ix[mid]].ts < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Of [x, y] on CPU c (a piece between two of its switches), the time no
 * run-time account of c witnesses: each gap between x, the accounts made
 * on c inside and y, beyond one tick, less that tick.  A CPU that ran a
 * task took a tick, and accounted it, at least every tick_ns; a longer
 * gap is a CPU that did not run (a vCPU the host held) or took no
 * interrupt.  Without a tick known, none of it is witnessed.
 */
static uint64_t unseen_in(const struct work *w, int c, uint64_t x, uint64_t y)
{
	const struct cpu_index *ci;
	uint64_t tick = w->in->tick_ns, prev = x, sum = 0;

	if (!tick || c >= w->ncpus || !w->acct)
		return y - x;
	ci = &w->acct[c];
	for (size_t k = first_from(w, ci, x); k < ci->n; k++) {
		uint64_t ts = w->t->rec[ci->ix[k]].ts;

		if (ts > y)
			break;
		if (ts - prev > tick)
			sum += ts - prev - tick;
		prev = ts;
	}
	if (y - prev > tick)
		sum += y - prev - tick;
	return sum;
}

/*
 * Of [m, y], after a holder on CPU c was woken or boosted at m while
 * another task ran there, the part that may be the CPU's lag in acting
 * on the reschedule: a CPU that ticks acts on it at its next tick at the
 * latest (measured here: a remote boost seen up to 3.8 ms after the
 * request, HZ 250, docs/pi-chain.md; 7.1 ms beside stress-ng), so up to
 * two ticks, and beyond them only the time the CPU recorded nothing.
 * Past that the CPU ticked and ran the other task all the same: the
 * kernel's choice (a late boost that waits for the spinner to sleep).
 * Without the tick known, all of it.
 */
#define LAG_TICKS 2
static uint64_t lag_in(const struct work *w, int c, uint64_t m, uint64_t y)
{
	uint64_t cap = LAG_TICKS * w->in->tick_ns;

	if (!cap || y - m <= cap)
		return y - m;
	return cap + unseen_in(w, c, m + cap, y);
}

/*
 * [x, y] on CPU c went to pid at kernel priority kprio.  holder_fair:
 * the holders waiting there to run were all of the fair class then
 * (none boosted to the waiter's priority), so a foreign fair task ran in
 * their place by the kernel's choice, not on the fair server's budget.
 * ask: when in [x, y] a holder there was woken or boosted (UINT64_MAX:
 * never): from then on the kernel had asked the CPU to reschedule, and
 * until it switched, the time may be that CPU's lag in acting on it (a
 * late IPI, the host), not witnessed as the kernel's choice, whatever
 * the ticks say.  Before it, pid ran while a holder was ready and not
 * boosted above it: the kernel's choice, where the CPU ticked.
 */
static void account(const struct work *w, struct split *sp, int c, uint64_t x,
		    uint64_t y, int pid, int kprio, bool holder_fair,
		    uint64_t ask, struct wait_named *wn, size_t *nwn,
		    size_t cap);

static size_t rec_from(const struct il_trace *t, uint64_t ts, bool strict);

static int by_pid(const void *a, const void *b)
{
	const struct pid_own *x = a, *y = b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/*
 * pid's own priority as far as the trace shows it, INT_MIN when the
 * kernel's priority inheritance never changed it: the lowest priority
 * any of its PI changes took it from or left it at.  PI raises a task
 * above its own and gives that back, so what ran above this was raised:
 * before a piece began, at its start or in it, and whether the trace
 * began before the raise or not.  Its own priority changed meanwhile
 * leaves the higher one counted as raised: never as interference, so
 * UNDECIDED at most.
 */
static int own_prio(const struct work *w, int pid)
{
	const struct pid_own key = { .pid = pid };
	const struct pid_own *hit = w->nown ? bsearch(&key, w->own, w->nown,
						      sizeof(*w->own), by_pid)
					    : NULL;

	return hit ? hit->own : INT_MIN;
}

/*
 * The part [x, y] of a piece a task outside the scenario ran at kprio;
 * own: its priority when not raised by the kernel's priority inheritance
 * (own_prio).  A part raised from below the waiter to its
 * rank or above is what PI on a kernel lock does, and what a kernel that
 * raises the wrong task does too: counted as below the waiter, but not
 * witnessed as the kernel's choice (unseen), so it can make a verdict
 * UNDECIDED, never PASS.
 */
static void account_foreign(const struct work *w, struct split *sp, int c,
			    uint64_t x, uint64_t y, int pid, int kprio, int own,
			    bool holder_fair, uint64_t ask,
			    struct wait_named *wn, size_t *nwn, size_t cap)
{
	uint64_t m = ask < x ? x : ask < y ? ask : y;
	uint64_t ns = y - x;
	int rank = il_attr_rank(kprio);
	bool boosted = kprio < own;

	if (!ns)
		return;
	if (boosted && rank >= w->in->waiter_rank &&
	    il_attr_rank(own) < w->in->waiter_rank) {
		sp->flow += ns;
		sp->unseen += ns;
		add_foreign(wn, nwn, cap, pid, kprio, true, ns, ns);
	} else if (rank >= w->in->waiter_rank) {
		sp->fhigh += ns;
		add_foreign(wn, nwn, cap, pid, kprio, boosted, ns, 0);
	} else if (rank >= 100 || (holder_fair && w->in->boosts)) {
		sp->flow += ns;
		sp->unseen += unseen_in(w, c, x, m) + lag_in(w, c, m, y);
		add_foreign(wn, nwn, cap, pid, kprio, boosted, ns, ns);
	} else {
		sp->fair += ns;
		add_foreign(wn, nwn, cap, pid, kprio, boosted, ns, 0);
	}
}

static void account(const struct work *w, struct split *sp, int c, uint64_t x,
		    uint64_t y, int pid, int kprio, bool holder_fair,
		    uint64_t ask, struct wait_named *wn, size_t *nwn,
		    size_t cap)
{
	const struct il_attr_task *st = scenario_task(w->in, pid);
	uint64_t m = ask < x ? x : ask < y ? ask : y;
	uint64_t ns = y - x, from = x;
	int own;

	if (!ns)
		return;
	if (pid == 0) {
		sp->idle += ns;
		return;
	}
	if (st) {
		switch (st->role) {
		case IL_ROLE_WAITER:
			sp->waiter += ns;
			break;
		case IL_ROLE_HOLDER:
			sp->holder += ns;
			break;
		case IL_ROLE_LOWER:
			sp->lower += ns;
			sp->unseen +=
				unseen_in(w, c, x, m) + lag_in(w, c, m, y);
			break;
		default:
			sp->higher += ns;
			break;
		}
		return;
	}
	own = own_prio(w, pid);
	/*
	 * A task outside the scenario runs at the priority the kernel gives
	 * it at each moment: one its priority inheritance raised (a task of
	 * the scenario blocked on a kernel lock it held, a sleeping spinlock
	 * under PREEMPT_RT, say) ranks as raised until it is lowered again.
	 * Each PI change of it within the piece ends a part at the priority
	 * it changed from (a change at y too, whether the switch at y came
	 * first or not); the switch that ends the piece gives the last.
	 */
	for (size_t k = rec_from(w->t, x, true);
	     k < w->t->n && w->t->rec[k].ts <= y; k++) {
		const struct il_trace_rec *r = &w->t->rec[k];

		if (r->kind != IL_TR_PI_SETPRIO || r->prev_pid != pid)
			continue;
		account_foreign(w, sp, c, from, r->ts, pid, r->prev_prio, own,
				holder_fair, ask, wn, nwn, cap);
		from = r->ts;
	}
	account_foreign(w, sp, c, from, y, pid, kprio, own, holder_fair, ask,
			wn, nwn, cap);
}

/* the first record at or after ts (after it when strict), or t->n */
static size_t rec_from(const struct il_trace *t, uint64_t ts, bool strict)
{
	return il_trace_rec_from(t, ts, strict);
}

/* a wakeup of pid in the trace within (x, y] */
static bool woken_in(const struct il_trace *t, int pid, uint64_t x, uint64_t y)
{
	for (size_t k = rec_from(t, x, true); k < t->n && t->rec[k].ts <= y;
	     k++)
		if (t->rec[k].kind == IL_TR_WAKEUP && t->rec[k].prev_pid == pid)
			return true;
	return false;
}

/*
 * Whether switch r, which took pid off the CPU still runnable, in fact
 * caught it on its way to sleep: the kernel reports a switch forced on
 * a task as "runnable" even when it had already set itself to sleep
 * (blocking on a lock), and only a sleeping task is woken.  So: a wakeup
 * of pid comes before pid runs again.  Looked ahead at most SCAN_AHEAD
 * records.
 */
#define SCAN_AHEAD 100000
static bool sleeping_when_taken_off(const struct il_trace *t,
				    const struct il_trace_rec *r)
{
	size_t k = rec_from(t, r->ts, true);

	for (size_t m = 0; k < t->n && m < SCAN_AHEAD; k++, m++) {
		const struct il_trace_rec *x = &t->rec[k];

		if (x->kind == IL_TR_WAKEUP && x->prev_pid == r->prev_pid)
			return true;
		if (x->kind == IL_TR_SWITCH && x->next_pid == r->prev_pid)
			return false;
	}
	return false;
}

/*
 * Was pid, pinned to wcpu, moved to one of the holders' CPUs hc[0..nh)
 * and back within [x, y]?  The way back is a migration from a holder's
 * CPU to wcpu; a task pinned to wcpu can only have been there as a
 * proxy-execution donor.
 */
static bool donor_back_in(const struct il_trace *t, int pid, int wcpu,
			  const int *hc, int nh, uint64_t x, uint64_t y)
{
	for (size_t k = rec_from(t, x, false); k < t->n && t->rec[k].ts <= y;
	     k++) {
		const struct il_trace_rec *r = &t->rec[k];

		if (r->kind != IL_TR_MIGRATE || r->prev_pid != pid ||
		    r->cpu != wcpu || r->next_pid == wcpu)
			continue;
		for (int c = 0; c < nh; c++)
			if (r->next_pid == hc[c])
				return true;
	}
	return false;
}

/* after switch r, pid (its prev) sleeps */
static bool asleep_after(const struct il_trace *t, const struct il_trace_rec *r)
{
	return !r->prev_runnable || sleeping_when_taken_off(t, r);
}

/*
 * The holders pinned to CPU c, and whether each was asleep (blocked, not
 * preempted) at ts: its last switch on c at or before ts put it to sleep
 * and no wakeup came after.  Looked back at most SCAN_BACK switches.
 */
#define SCAN_BACK 100000
struct asleep {
	int pid[IL_MAX_TASKS];
	bool asleep[IL_MAX_TASKS];
	/* gave its lock back in this wait: deboosted (a pi_setprio that
	 * lowered it) and not boosted since; it holds nothing now */
	bool released[IL_MAX_TASKS];
	/* its kernel priority as the trace last showed it (boosts
	 * included); INT16_MAX: not seen */
	int prio[IL_MAX_TASKS];
	int n;
};

static void holders_at(const struct work *w, int c, uint64_t ts,
		       struct asleep *hs)
{
	const struct cpu_index *ci = &w->cpus[c];
	size_t k0 = last_before(w, c, ts);

	hs->n = 0;
	for (size_t i = 0; i < w->in->ntasks && hs->n < IL_MAX_TASKS; i++) {
		const struct il_attr_task *tk = &w->in->tasks[i];
		bool asleep = false;
		int prio = INT16_MAX;

		if (tk->role != IL_ROLE_HOLDER || tk->cpu != c)
			continue;
		for (size_t k = k0, m = 0; k != (size_t)-1 && m < SCAN_BACK;
		     k--, m++) {
			const struct il_trace_rec *r = &w->t->rec[ci->ix[k]];

			if (r->next_pid == tk->tid) {
				prio = r->next_prio;
				break;
			}
			if (r->prev_pid == tk->tid) {
				asleep = asleep_after(w->t, r) &&
					 !woken_in(w->t, tk->tid, r->ts, ts);
				prio = r->prev_prio;
				break;
			}
			if (!k)
				break;
		}
		hs->prio[hs->n] = prio;
		hs->pid[hs->n] = tk->tid;
		hs->released[hs->n] = false;
		hs->asleep[hs->n++] = asleep;
	}
}

/* some holder on the CPU is awake and still holds its lock */
static bool holder_live(const struct asleep *hs)
{
	for (int h = 0; h < hs->n; h++)
		if (!hs->asleep[h] && !hs->released[h])
			return true;
	return false;
}

/* every holder on the CPU that is awake and holds its lock is of the
 * fair class (kernel priority 100 or more), and there is one; a holder
 * whose priority the trace never showed is not known to be boosted */
static bool holders_fair(const struct asleep *hs)
{
	bool any = false;

	for (int h = 0; h < hs->n; h++)
		if (!hs->asleep[h] && !hs->released[h]) {
			if (hs->prio[h] < 100)
				return false;
			any = true;
		}
	return any;
}

/*
 * The holders' wakeups and priority changes in (x, y], applied to hs;
 * returns from when in (x, y] some holder is awake and still holds its
 * lock: x when one is at x, the first wakeup or boost that makes one so,
 * or UINT64_MAX when none is all through.  What ran on the CPU before
 * that delayed nobody: every holder there slept (blocked further down a
 * chain) or had given its lock back.  *ask (when not NULL): the first
 * wakeup or boost of a holder in (x, y], where the kernel asked the CPU
 * to reschedule, or UINT64_MAX.
 */
static uint64_t advance(const struct work *w, struct asleep *hs, uint64_t x,
			uint64_t y, uint64_t *ask)
{
	uint64_t live = holder_live(hs) ? x : UINT64_MAX;

	if (ask)
		*ask = UINT64_MAX;
	for (size_t k = rec_from(w->t, x, true);
	     k < w->t->n && w->t->rec[k].ts <= y; k++) {
		const struct il_trace_rec *r = &w->t->rec[k];

		for (int h = 0; h < hs->n; h++) {
			if (r->prev_pid != hs->pid[h])
				continue;
			if (r->kind == IL_TR_WAKEUP) {
				hs->asleep[h] = false;
			} else if (r->kind == IL_TR_PI_SETPRIO) {
				hs->released[h] = r->next_prio > r->prev_prio;
				hs->prio[h] = r->next_prio;
			}
			if (ask && *ask == UINT64_MAX &&
			    (r->kind == IL_TR_WAKEUP ||
			     (r->kind == IL_TR_PI_SETPRIO &&
			      r->next_prio < r->prev_prio)))
				*ask = r->ts;
		}
		if (live == UINT64_MAX && holder_live(hs))
			live = r->ts;
	}
	return live;
}

/* after switch r: who of the holders is asleep */
static void holders_after(const struct il_trace *t,
			  const struct il_trace_rec *r, struct asleep *hs)
{
	for (int h = 0; h < hs->n; h++)
		if (r->next_pid == hs->pid[h]) {
			hs->asleep[h] = false;
			hs->prio[h] = r->next_prio;
		} else if (r->prev_pid == hs->pid[h]) {
			hs->asleep[h] = asleep_after(t, r);
			hs->prio[h] = r->prev_prio;
		}
}

/*
 * who ran on CPU c in [a, b]: each piece up to a switch belongs to that
 * switch's prev (the kernel's word for who ran until then), so that a
 * switch the buffers dropped cannot hand a piece to the wrong task; the
 * piece after the last switch belongs to the next switch's prev.
 * gate: a holder's CPU (the waiter's too, once it has requested), where
 * what runs while no holder pinned there is awake and holding its lock
 * (each asleep, blocked further down a chain on a lock held elsewhere, or
 * done with its section) delays nobody: not looked at.
 */
static void walk_cpu(const struct work *w, int c, uint64_t a, uint64_t b,
		     bool gate, struct split *sp, struct wait_named *wn,
		     size_t *nwn, size_t cap)
{
	const struct cpu_index *ci = &w->cpus[c];
	struct asleep hs = { .n = 0 };
	size_t k;
	uint64_t from = a, ask = UINT64_MAX;

	if (c >= w->ncpus || !ci->n) {
		/* nobody switched there all along: who ran is unknown,
		 * and unknown time is counted, never forgiven */
		sp->holder += b - a;
		return;
	}
	if (gate)
		holders_at(w, c, a, &hs);
	k = last_before(w, c, a);
	k = k == (size_t)-1 ? 0 : k + 1;
	for (; k < ci->n; k++) {
		const struct il_trace_rec *r = &w->t->rec[ci->ix[k]];

		uint64_t u;

		if (r->ts > b)
			break;
		u = gate ? advance(w, &hs, from, r->ts, &ask) : from;
		if (u < r->ts)
			account(w, sp, c, u, r->ts, r->prev_pid, r->prev_prio,
				gate && holders_fair(&hs), ask, wn, nwn, cap);
		holders_after(w->t, r, &hs);
		from = r->ts;
	}
	if (gate)
		from = advance(w, &hs, from, b, &ask);
	if (from >= b)
		return;
	if (k < ci->n) {
		const struct il_trace_rec *r = &w->t->rec[ci->ix[k]];

		account(w, sp, c, from, b, r->prev_pid, r->prev_prio,
			gate && holders_fair(&hs), ask, wn, nwn, cap);
	} else {
		const struct il_trace_rec *r = &w->t->rec[ci->ix[ci->n - 1]];

		account(w, sp, c, from, b, r->next_pid, r->next_prio,
			gate && holders_fair(&hs), ask, wn, nwn, cap);
	}
}

/* a holder boosted above its own priority within [req, acq]: the first
 * such boost's time after the request, or UINT64_MAX */
static uint64_t boost_after(const struct work *w, uint64_t req, uint64_t acq,
			    struct il_attr_summary *sum)
{
	const struct il_trace *t = w->t;

	for (size_t k = rec_from(t, req, false);
	     k < t->n && t->rec[k].ts <= acq; k++) {
		const struct il_trace_rec *r = &t->rec[k];
		const struct il_attr_task *st;

		if (r->kind != IL_TR_PI_SETPRIO || r->next_prio >= r->prev_prio)
			continue;
		st = scenario_task(w->in, r->prev_pid);
		if (!st || st->role != IL_ROLE_HOLDER)
			continue;
		sum->boost_from = r->prev_prio;
		sum->boost_to = r->next_prio;
		return r->ts - req;
	}
	return UINT64_MAX;
}

static int by_ns(const void *a, const void *b)
{
	const struct il_attr_named *x = a, *y = b;

	return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : 0;
}

static int build_index(struct work *w)
{
	const struct il_trace *t = w->t;
	size_t *count, m;
	int maxc = -1;

	for (size_t i = 0; i < t->n; i++)
		if (t->rec[i].kind == IL_TR_SWITCH && t->rec[i].cpu > maxc)
			maxc = t->rec[i].cpu;
	w->ncpus = maxc + 1 < MAX_CPUS ? maxc + 1 : MAX_CPUS;
	if (!w->ncpus)
		return 0;
	w->cpus = calloc((size_t)w->ncpus, sizeof(*w->cpus));
	count = calloc((size_t)w->ncpus, sizeof(*count));
	if (!w->cpus || !count) {
		free(count);
		return -ENOMEM;
	}
	w->acct = calloc((size_t)w->ncpus, sizeof(*w->acct));
	if (!w->acct) {
		free(count);
		return -ENOMEM;
	}
	for (int pass = 0; pass < 2; pass++) {
		uint8_t kind = pass ? IL_TR_RUNTIME : IL_TR_SWITCH;
		struct cpu_index *ci = pass ? w->acct : w->cpus;

		memset(count, 0, (size_t)w->ncpus * sizeof(*count));
		for (size_t i = 0; i < t->n; i++)
			if (t->rec[i].kind == kind && t->rec[i].cpu < w->ncpus)
				count[t->rec[i].cpu]++;
		for (int c = 0; c < w->ncpus; c++)
			if (count[c] &&
			    !(ci[c].ix = malloc(count[c] * sizeof(size_t)))) {
				free(count);
				return -ENOMEM;
			}
		for (size_t i = 0; i < t->n; i++) {
			int c = t->rec[i].cpu;

			if (t->rec[i].kind == kind && c < w->ncpus)
				ci[c].ix[ci[c].n++] = i;
		}
	}
	free(count);
	/* own_prio's table: a task's PI changes, then the lowest of each */
	for (size_t i = 0, cap = 0; i < t->n; i++) {
		const struct il_trace_rec *r = &t->rec[i];
		struct pid_own *grown;

		if (r->kind != IL_TR_PI_SETPRIO)
			continue;
		if (w->nown == cap) {
			cap = cap ? 2 * cap : 64;
			grown = realloc(w->own, cap * sizeof(*grown));
			if (!grown)
				return -ENOMEM;
			w->own = grown;
		}
		w->own[w->nown++] = (struct pid_own){
			r->prev_pid, r->prev_prio > r->next_prio ? r->prev_prio
								 : r->next_prio
		};
	}
	if (w->nown)
		qsort(w->own, w->nown, sizeof(*w->own), by_pid);
	m = w->nown ? 1 : 0;
	for (size_t i = 1; i < w->nown; i++) {
		if (w->own[m - 1].pid == w->own[i].pid) {
			if (w->own[i].own > w->own[m - 1].own)
				w->own[m - 1].own = w->own[i].own;
		} else {
			w->own[m++] = w->own[i];
		}
	}
	w->nown = m;
	return 0;
}

static void free_index(struct work *w)
{
	free(w->own);
	for (int c = 0; c < w->ncpus && w->cpus; c++)
		free(w->cpus[c].ix);
	for (int c = 0; c < w->ncpus && w->acct; c++)
		free(w->acct[c].ix);
	free(w->cpus);
	free(w->acct);
}

int il_attribute(const struct il_attr_input *in, const struct il_trace *t,
		 const struct il_wait_sample *s, size_t n,
		 struct il_wait_sample *out, struct il_attr_summary *sum)
{
	struct work w = { .in = in, .t = t };
	int cpus[IL_MAX_TASKS + 1], hcpus[IL_MAX_TASKS + 1], ncpu = 0, nh = 0;
	int ret, wcpu = -1, wtid = -1;
	bool have_waiter = false;

	if (!in || !t || !sum || (n && (!s || !out)) ||
	    (in->ntasks && !in->tasks))
		return -EINVAL;
	memset(sum, 0, sizeof(*sum));
	if (out != s && n)
		memmove(out, s, n * sizeof(*s));
	/* covered or not is this trace's to say */
	for (size_t i = 0; i < n; i++)
		out[i].traced = 0;
	if (t->lost) {
		snprintf(sum->note, sizeof(sum->note),
			 "the trace lost %llu events",
			 (unsigned long long)t->lost);
		return -ENOTSUP;
	}
	/* the CPUs looked at: the waiter's and the holders' */
	for (size_t i = 0; i < in->ntasks; i++) {
		const struct il_attr_task *k = &in->tasks[i];
		bool seen = false;

		if (k->role != IL_ROLE_WAITER && k->role != IL_ROLE_HOLDER)
			continue;
		have_waiter |= k->role == IL_ROLE_WAITER;
		if (k->role == IL_ROLE_WAITER) {
			wcpu = k->cpu;
			wtid = k->tid;
		}
		if (k->cpu < 0) {
			snprintf(sum->note, sizeof(sum->note),
				 "a %s is not pinned to one CPU",
				 k->role == IL_ROLE_WAITER ? "waiter"
							   : "holder");
			return -ENOTSUP;
		}
		for (int c = 0; c < ncpu; c++)
			seen |= cpus[c] == k->cpu;
		if (!seen && ncpu < (int)(sizeof(cpus) / sizeof(cpus[0])))
			cpus[ncpu++] = k->cpu;
	}
	if (!have_waiter) {
		snprintf(sum->note, sizeof(sum->note), "no waiter");
		return -ENOTSUP;
	}
	for (int c = 0; c < ncpu; c++)
		if (cpus[c] != wcpu)
			hcpus[nh++] = cpus[c];
	ret = build_index(&w);
	if (ret) {
		free_index(&w);
		return ret;
	}
	for (size_t i = 0; i < n; i++) {
		struct wait_named wn[16];
		size_t nwn = 0;
		struct split sp = { 0 };
		uint64_t a = s[i].t_ns, b = a + s[i].delay_ns, counted, bt;

		if (!a || s[i].timed_out || a < t->t0_ns || b > t->t1_ns)
			continue;
		/*
		 * The waiter's CPU from the release: who ran there delayed
		 * it.  The holders' other CPUs from the request: before it,
		 * what ran there blocked nobody, since no protocol can act
		 * on a request not yet made (the requester may be late,
		 * e.g. stolen by the host).  The engine's own account makes
		 * the same cut.  Time not looked at is not counted.
		 */
		for (int c = 0; c < ncpu; c++) {
			uint64_t req = s[i].t_req_ns > a && s[i].t_req_ns < b
					       ? s[i].t_req_ns
					       : 0;

			/*
			 * From the request on, the waiter is blocked and its
			 * own CPU is one more place a holder may wait to run:
			 * it counts only while a holder there is awake and
			 * holds its lock, as the others do.
			 */
			if (cpus[c] == wcpu && req) {
				walk_cpu(&w, cpus[c], a, req, false, &sp, wn,
					 &nwn, sizeof(wn) / sizeof(wn[0]));
				walk_cpu(&w, cpus[c], req, b, true, &sp, wn,
					 &nwn, sizeof(wn) / sizeof(wn[0]));
			} else {
				walk_cpu(&w, cpus[c], req ? req : a, b,
					 cpus[c] != wcpu, &sp, wn, &nwn,
					 sizeof(wn) / sizeof(wn[0]));
			}
		}
		merge_named(&w, wn, nwn);
		{
			/* fair time past the fair server's budget was not
			 * its to take: the kernel's choice, and no record
			 * of the CPU's witnesses it (the foreign task makes
			 * none) */
			uint64_t fb = il_attr_fair_budget(s[i].delay_ns);

			if (sp.fair > fb) {
				sp.flow += sp.fair - fb;
				sp.unseen += sp.fair - fb;
				sp.fair = fb;
			}
		}
		counted = sp.holder + sp.lower + sp.flow +
			  (in->count_waiter ? sp.waiter : 0);
		out[i] = s[i];
		out[i].traced = 1;
		out[i].lower_ns = sp.lower + sp.flow;
		out[i].unseen_ns = sp.unseen;
		out[i].foreign_ns =
			counted < s[i].delay_ns ? s[i].delay_ns - counted : 0;
		sum->traced++;
		sum->holder_ns += sp.holder;
		sum->lower_ns += sp.lower;
		sum->higher_ns += sp.higher;
		sum->fhigh_ns += sp.fhigh;
		sum->flow_ns += sp.flow;
		sum->fair_ns += sp.fair;
		sum->idle_ns += sp.idle;
		sum->waiter_ns += sp.waiter;
		sum->donor_migrated +=
			donor_back_in(t, wtid, wcpu, hcpus, nh, a, b);
		bt = s[i].t_req_ns ? boost_after(&w, s[i].t_req_ns, b, sum)
				   : UINT64_MAX;
		if (bt != UINT64_MAX) {
			sum->boosted++;
			if (bt > sum->boost_worst_ns)
				sum->boost_worst_ns = bt;
		}
	}
	free_index(&w);
	qsort(w.named, w.nnamed, sizeof(w.named[0]), by_ns);
	sum->nnamed =
		(uint32_t)(w.nnamed < IL_ATTR_MAX_NAMED ? w.nnamed
							: IL_ATTR_MAX_NAMED);
	memcpy(sum->named, w.named, sum->nnamed * sizeof(w.named[0]));
	if (!sum->traced)
		snprintf(sum->note, sizeof(sum->note),
			 "no wait inside the traced time");
	return 0;
}

/* does task j lock resource r anywhere in its body? */
static bool locks_res(const struct il_task *t, int r)
{
	for (int p = 0; p < t->nphases; p++)
		if (t->phases[p].kind == IL_PH_LOCK && t->phases[p].res == r)
			return true;
	return false;
}

/* the locks task t requests while it holds r */
static uint32_t nested_in(const struct il_task *t, int r)
{
	uint32_t held = 0, out = 0;

	for (int p = 0; p < t->nphases; p++) {
		const struct il_phase *ph = &t->phases[p];

		if (ph->kind == IL_PH_LOCK) {
			if (held & (1u << r))
				out |= 1u << ph->res;
			held |= 1u << ph->res;
		} else if (ph->kind == IL_PH_UNLOCK) {
			held &= ~(1u << ph->res);
		}
	}
	return out;
}

/* does task t call kernel mutex r (a call phase)? */
static bool calls_res(const struct il_task *t, int r)
{
	for (int p = 0; p < t->nphases; p++)
		if (t->phases[p].kind == IL_PH_CALL && t->phases[p].res == r)
			return true;
	return false;
}

/* is resource res a kernel mutex, whose waits count the waiter's time? */
static bool kmutex_res(const struct il_scenario *sc, int res)
{
	return res >= 0 && res < sc->nres &&
	       IL_RES_IS_KMUTEX(sc->res[res].k.type);
}

/* does resource res promise its holder the waiter's priority? */
static bool boosts_res(const struct il_scenario *sc, int res)
{
	return res >= 0 && res < sc->nres && !kmutex_res(sc, res) &&
	       sc->res[res].k.protocol != IL_PROTO_NONE;
}

void il_attr_roles(const struct il_scenario *sc,
		   const struct il_engine_result *er, int wt, int res,
		   struct il_attr_task *tasks)
{
	int me = il_model_rank(&sc->tasks[wt].sched);
	uint32_t want = res >= 0 && res < 32 ? 1u << res : 0, grown = 1;

	if (kmutex_res(sc, res)) {
		for (int j = 0; j < sc->ntasks; j++) {
			tasks[j].tid = er->tasks[j].tid;
			tasks[j].cpu = er->tasks[j].cpu;
			tasks[j].role = j == wt ? IL_ROLE_WAITER
					: calls_res(&sc->tasks[j], res)
						? IL_ROLE_HOLDER
						: IL_ROLE_LOWER;
		}
		return;
	}

	/* the locks whose owners can block: res, then what owners of
	 * those locks wait for while holding them, to a fixed point */
	while (grown) {
		grown = 0;
		for (int j = 0; j < sc->ntasks; j++)
			for (int r = 0; r < sc->nres && r < 32; r++)
				if ((want & (1u << r)) &&
				    locks_res(&sc->tasks[j], r)) {
					uint32_t n =
						nested_in(&sc->tasks[j], r);

					if (n & ~want) {
						want |= n;
						grown = 1;
					}
				}
	}
	for (int j = 0; j < sc->ntasks; j++) {
		struct il_attr_task *k = &tasks[j];
		bool holds = false;

		k->tid = er->tasks[j].tid;
		k->cpu = er->tasks[j].cpu;
		for (int r = 0; r < sc->nres && r < 32; r++)
			holds |= (want & (1u << r)) &&
				 locks_res(&sc->tasks[j], r);
		if (j == wt)
			k->role = IL_ROLE_WAITER;
		else if (il_model_rank(&sc->tasks[j].sched) >= me)
			k->role = IL_ROLE_HIGHER;
		else
			k->role = holds ? IL_ROLE_HOLDER : IL_ROLE_LOWER;
	}
}

/*
 * Each job's foreign time (job_foreign_seq) for the periodic tasks: what
 * ran between the job's release and its end that was no task of the
 * scenario's, and not idle, on the task's CPU; for a task not pinned to
 * one, on every traced CPU together (the capacity the set was given that
 * foreign tasks took).
 */
static int jobs_foreign(const struct il_scenario *sc,
			struct il_engine_result *er)
{
	struct il_attr_task tasks[IL_MAX_TASKS];
	struct il_attr_input in = {
		.tasks = tasks, .ntasks = (size_t)er->ntasks, .waiter_rank = 200
	}; /* all foreign summed */
	struct work w = { .in = &in, .t = er->trace };
	const struct il_trace *t = er->trace;
	int ret;

	for (int j = 0; j < er->ntasks && j < IL_MAX_TASKS; j++)
		tasks[j] =
			(struct il_attr_task){ er->tasks[j].tid, IL_ROLE_HIGHER,
					       er->tasks[j].cpu };
	ret = build_index(&w);
	for (int i = 0; !ret && i < er->ntasks && i < sc->ntasks; i++) {
		struct il_task_result *r = &er->tasks[i];

		free(r->job_foreign_seq);
		r->job_foreign_seq = NULL;
		if (r->cpu >= w.ncpus || (r->cpu >= 0 && !w.cpus[r->cpu].n) ||
		    !w.ncpus || !r->njob_cpu || !r->job_rel_seq ||
		    !r->job_end_seq)
			continue;
		r->job_foreign_seq = calloc(r->njob_cpu, sizeof(uint64_t));
		if (!r->job_foreign_seq) {
			ret = -ENOMEM;
			break;
		}
		for (size_t k = 0; k < r->njob_cpu; k++) {
			uint64_t a = r->job_rel_seq[k], b = r->job_end_seq[k];
			struct wait_named wn[16];
			struct split sp = { 0 };
			size_t nwn = 0;

			if (!a || b <= a || a < t->t0_ns || b > t->t1_ns)
				continue;
			for (int c = r->cpu >= 0 ? r->cpu : 0;
			     c < (r->cpu >= 0 ? r->cpu + 1 : w.ncpus); c++)
				if (w.cpus[c].n) {
					nwn = 0;
					walk_cpu(&w, c, a, b, false, &sp, wn,
						 &nwn,
						 sizeof(wn) / sizeof(wn[0]));
				}
			r->job_foreign_seq[k] = sp.fhigh + sp.flow + sp.fair;
		}
	}
	free_index(&w);
	return ret;
}

/*
 * The kernel's share of a missed job on the trace (job_later_seq).  While
 * a job of deadline task i waited to run (released and runnable, not
 * running), the CPU time on the CPUs it could use that the kernel gave to
 * what it ranks below the job: a task of the set without a reservation (a
 * lower class than SCHED_DEADLINE), a deadline task whose job then
 * running has a later absolute deadline (its release + D, by the
 * reservation the run set up) than this job's; and, while the job had run
 * less than its Q since its release, nothing at all (the CPU idle) or a
 * task outside the set of a lower class: a runnable job with budget left
 * that does not run is the kernel's choice, whether it left it queued or
 * throttled it early (a throttled task is switched out runnable and put
 * back without a wakeup).  The CPUs looked
 * at are the job's own when it is pinned, every traced CPU otherwise; the
 * sum is capped by the time the job waited, and the stretches a witness
 * shows a CPU stalled in are the host's, not counted.  What tasks outside
 * the set ran there meanwhile, capped the same, replaces the missed job's
 * foreign time (job_foreign_seq): the fair server's, a foreign deadline
 * task's whose deadline the trace does not give, or the kernel's choice,
 * which the trace does not tell apart.
 *
 * Absolute deadlines are the nominal ones (release + D), the waiting
 * job's moved a period on for each Q it ran and renewed as the wakeup + D
 * when it was woken after its release or past its deadline (edf_job: the
 * kernel's own rules, replenishment and CBS's wakeup).  Another task's
 * kernel deadline is no earlier than its current job's nominal one while
 * it keeps up (each job woken at or after its release), except while it
 * holds a lock a task of earlier deadline waits for (deadline
 * inheritance): a section, bounded by L, is what that can add.
 *
 * Not so for a task behind on its jobs (a backlog: a job released before
 * the one before it ended, so the thread never slept and no wakeup
 * renewed its reservation): the kernel moves its deadline a period on
 * for each Q it runs, and jobs that use less than Q leave it before the
 * nominal deadline of the jobs it works on, further with each job, while
 * the model's account of it drifts from the kernel's with nothing to set
 * it right.  Such a task ranks nowhere: nothing it runs is the kernel's
 * choice.  And a job released in a backlog of its own task has its
 * budget kept apart (job_budget_seq): the CPU idle or a lower class
 * outside the set running while it waits is not in its kernel's choice,
 * for the model's budget, not renewed since the backlog began, may not
 * be the kernel's; the judge counts it only in a queue the kernel's
 * choice made (validators/model-mbwi.c).  A pause or a stall
 * that holds up the whole set leaves every task behind, and the kernel
 * working the backlogs off in its own order read against the model as a
 * pattern of inversions (docs/m-bwi.md).
 */
struct edf_ctx {
	const struct il_scenario *sc;
	const struct il_engine_result *er;
	const struct il_sched *const *declared;
	int self;
	uint64_t dl;
	/* of its current Q, what it had run at the job's release, and
	 * until when its reservation was throttled then (0: it was not) */
	uint64_t used, thr;
	bool budget; /* not throttled, the model kept: idle is the kernel's */
	/* released while the job before still ran: its budget kept apart */
	bool queued;
	/* queued, with the model's budget: what that budget alone would
	 * make the kernel's is added to *budget_ns instead */
	bool claim;
	uint64_t *budget_ns;
	bool throttled; /* its reservation throttled: nothing is */
	const struct il_trace_stalls *stalls; /* NULL: none known */
	uint64_t *foreign; /* adds what tasks outside the set ran meanwhile */
	uint64_t *throttled_ns; /* adds the waits its reservation throttled */
};

static const struct il_sched *sched_of(const struct edf_ctx *e, int j)
{
	return e->declared && e->declared[j] ? e->declared[j]
					     : &e->sc->tasks[j].sched;
}

/* does task j, running at ts, rank below the waiting job? */
static bool ranks_below(const struct edf_ctx *e, int j, uint64_t ts)
{
	const struct il_sched *s = sched_of(e, j);
	const struct il_task_result *r = &e->er->tasks[j];
	size_t lo = 0, hi = r->njob_cpu;
	uint64_t dl;

	if (s->policy != IL_SCHED_DEADLINE)
		return true;
	if (!r->job_rel_seq || !r->job_end_seq)
		return false;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->job_rel_seq[mid] <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* between two jobs it runs no job: nothing to rank */
	if (!lo || r->job_end_seq[lo - 1] < ts)
		return false;
	/* behind on its jobs: released before the one before it ended */
	if (lo >= 2 && r->job_end_seq[lo - 2] > r->job_rel_seq[lo - 1])
		return false;
	dl = r->job_rel_seq[lo - 1] + s->deadline_ns;
	return dl > e->dl;
}

static int task_of_pid(const struct il_engine_result *er, int pid)
{
	for (int j = 0; pid > 0 && j < er->ntasks; j++)
		if (er->tasks[j].tid == pid)
			return j;
	return -1;
}

/*
 * A piece [x, y) run by pid at kernel priority prio: the part that is the
 * kernel's choice.  A task outside the set of a lower class (prio >= 0:
 * real-time or fair) is, while the job had budget left, and it is
 * foreign time too: the fair server's budget may have run it (the model
 * takes that off, capped by the server's budget); one of the deadline
 * class (prio < 0) ranks by a deadline the trace does not give.
 */
static uint64_t edf_piece(const struct edf_ctx *e, int pid, int prio,
			  uint64_t x, uint64_t y)
{
	int j = task_of_pid(e->er, pid);

	if (y <= x)
		return 0;
	if (j < 0 && pid && e->foreign)
		*e->foreign += y - x;
	if (e->throttled)
		return 0;
	if (!pid)
		return e->budget ? y - x : 0;
	if (j < 0)
		return e->budget && prio >= 0 ? y - x : 0;
	if (j == e->self || j >= e->sc->ntasks)
		return 0;
	return ranks_below(e, j, x) ? y - x : 0;
}

/* a piece [x, y) on CPU c that is the kernel's choice, but for the
 * stretches c was stalled in */
static uint64_t edf_piece_on(int c, const struct edf_ctx *e, int pid, int prio,
			     uint64_t x, uint64_t y)
{
	uint64_t v = edf_piece(e, pid, prio, x, y), st;

	/* the CPU idle, or a lower class outside the set, while a queued
	 * job had the model's budget */
	if (!v && e->claim && e->budget_ns && !e->throttled && y > x &&
	    (!pid || (prio >= 0 && task_of_pid(e->er, pid) < 0))) {
		st = il_trace_stalled(e->stalls, c, x, y);
		*e->budget_ns += y - x > st ? y - x - st : 0;
	}
	if (!v)
		return 0;
	st = il_trace_stalled(e->stalls, c, x, y);
	return v > st ? v - st : 0;
}

static uint64_t edf_on_cpu(const struct work *w, const struct edf_ctx *e, int c,
			   uint64_t a, uint64_t b)
{
	const struct cpu_index *ci = &w->cpus[c];
	uint64_t from = a, sum = 0;
	size_t k;

	if (!ci->n)
		return 0;
	k = last_before(w, c, a);
	k = k == (size_t)-1 ? 0 : k + 1;
	for (; k < ci->n; k++) {
		const struct il_trace_rec *r = &w->t->rec[ci->ix[k]];

		if (r->ts > b)
			break;
		sum += edf_piece_on(c, e, r->prev_pid, r->prev_prio, from,
				    r->ts);
		from = r->ts;
	}
	if (from < b) {
		/* the piece up to b: the next switch's prev, or past the
		 * CPU's last switch, that switch's next */
		bool past = k == ci->n;
		const struct il_trace_rec *r =
			&w->t->rec[ci->ix[past ? ci->n - 1 : k]];

		sum += past ? edf_piece_on(c, e, r->next_pid, r->next_prio,
					   from, b)
			    : edf_piece_on(c, e, r->prev_pid, r->prev_prio,
					   from, b);
	}
	return sum;
}

/* the job [a, b] of task i waited [x, y): the kernel's choice then */
static uint64_t edf_wait(const struct work *w, const struct edf_ctx *e, int cpu,
			 uint64_t x, uint64_t y)
{
	uint64_t sum = 0;

	if (y <= x)
		return 0;
	for (int c = cpu >= 0 ? cpu : 0;
	     c < (cpu >= 0 ? cpu + 1 : w->ncpus) && c < w->ncpus; c++)
		sum += edf_on_cpu(w, e, c, x, y);
	return sum;
}

/*
 * The reservation's state at each job's release (at[k]), by the kernel's
 * rules (CBS) applied to the task's own events from its first on the
 * trace: woken from sleep at or past its deadline, or with more of its Q
 * left than the time to its deadline allows at Q/D, it gets the deadline
 * wakeup + D and a whole Q; once it has run its Q it is throttled until
 * its next period begins (its deadline - D + P), then its deadline moves
 * a period on and it has a Q again, or a new deadline, now + D, when the
 * moved one has passed too; woken while throttled, nothing changes.  A
 * job released while the thread still works on the jobs before it (a
 * backlog, as every task of the set has after the host held the guest)
 * starts from what the reservation carries, not from a fresh deadline
 * and Q: the kernel ranks it after the tasks whose deadlines fall before
 * the one it carries, and leaves it throttled with the CPU idle.
 * What a run used is what the kernel charged for it (cbs_run: its own
 * run-time accounts, not the run's length, which a vCPU the host held
 * stretches).  The state is carried only while the trace agrees with
 * it: a task switched in while throttled, or charged more than a tick
 * past its Q but for what late ticks charged (the kernel did not
 * throttle it), starts again from its next event.  at[k].dl is 0 when the
 * trace has nothing of the task before the release.
 */
struct cbs_state {
	uint64_t dl, used, thr;
};

/*
 * What the kernel charged the reservation for a run from since: its own
 * run-time accounts of the task (sched_stat_runtime, with the host's
 * steal left out where the kernel leaves it out) when the trace has them
 * for this run, at most the run's length; else that length.  A vCPU
 * the host held while the task ran stretches the run, not what it was
 * charged.
 */
struct cbs_run {
	uint64_t acc, last; /* accounted so far, up to last */
	/* of acc, what accounts longer than a tick had past it: the tick
	 * that would have throttled came late (a vCPU the host held, or
	 * interrupts off), so the kernel could not throttle sooner */
	uint64_t late;
	bool seen;    /* an account of this run is on the trace */
	bool unknown; /* one of unknown size: the run's length counts */
};

static void cbs_run_account(struct cbs_run *u, const struct il_trace_rec *r,
			    uint64_t since, uint64_t tick)
{
	uint64_t run;

	if (r->next_pid < 0)
		u->unknown = true;
	if (u->unknown)
		return;
	run = (uint64_t)r->next_pid;
	/* the first account of a run may reach back before since */
	if (r->ts > since && run > r->ts - since)
		run = r->ts - since;
	else if (r->ts <= since)
		run = 0;
	u->acc += run;
	if (tick && run > tick)
		u->late += run - tick;
	u->last = r->ts;
	u->seen = true;
}

/* of a run's charge, what came with late ticks (cbs_run.late) */
static uint64_t cbs_late(const struct cbs_run *u, uint64_t charge)
{
	if (!u->seen || u->unknown)
		return 0;
	return u->late < charge ? u->late : charge;
}

static uint64_t cbs_charge(const struct cbs_run *u, uint64_t since, uint64_t ts)
{
	uint64_t len = ts > since ? ts - since : 0, acc;

	if (!u->seen || u->unknown || ts < u->last)
		return len;
	/* never more than the run: a kernel that charges a task for
	 * time it did not run throttles it early, and that is its fault,
	 * not the reservation's keeping */
	acc = u->acc + (ts - u->last);
	return acc < len ? acc : len;
}

/* the reservation after it ran (used) up to ts */
static void cbs_ran(struct cbs_state *c, const struct il_sched *s, uint64_t ts)
{
	uint64_t period = s->period_ns ? s->period_ns : s->deadline_ns;
	uint64_t q = s->runtime_ns;

	if (c->used < q)
		return;
	/* throttled at once, replenished when its next period begins */
	if (c->dl + period > ts + s->deadline_ns)
		c->thr = c->dl + period - s->deadline_ns;
	c->dl += period * (c->used / q);
	c->used %= q;
	if (c->dl < ts) {
		c->dl = ts + s->deadline_ns;
		c->used = 0;
	}
}

/*
 * CBS's wakeup rule: woken from sleep (not throttled) at or past its
 * deadline, or with more of its Q left than the time to it allows at
 * Q/D, the task gets a new deadline
 */
static bool cbs_renews(const struct cbs_state *c, const struct il_sched *s,
		       uint64_t ts)
{
	double left = (double)(s->runtime_ns - c->used);

	if (ts < c->thr)
		return false;
	return ts >= c->dl ||
	       left * (double)s->deadline_ns >
		       (double)s->runtime_ns * (double)(c->dl - ts);
}

/*
 * A wait [x, y) of the job whose reservation is c: while it was
 * throttled (before c->thr, the replenishment it waited for) it could
 * not run, and nothing is the kernel's choice (what foreign tasks ran is
 * still counted); then what ranks below its deadline, with budget
 * unless the trace left the reservation's model (lost)
 */
static uint64_t edf_wait_cbs(const struct work *w, struct edf_ctx *e,
			     const struct cbs_state *c, bool lost, int cpu,
			     uint64_t x, uint64_t y)
{
	uint64_t sum = 0;

	e->dl = c->dl;
	if (x < c->thr) {
		uint64_t to = y < c->thr ? y : c->thr;

		e->throttled = true;
		sum += edf_wait(w, e, cpu, x, to);
		e->throttled = false;
		if (e->throttled_ns)
			*e->throttled_ns += to - x;
		x = c->thr;
	}
	e->budget = !lost && !e->queued;
	e->claim = !lost && e->queued;
	return sum + edf_wait(w, e, cpu, x, y);
}

/*
 * The state of pid at ts from its last event before it (switched in:
 * running; switched out: asleep or waiting; woken: waiting), looked back
 * at most SCAN_BACK_EDF records; -1 when none was found.
 */
#define SCAN_BACK_EDF 200000
enum edf_state { EDF_RUNNING, EDF_WAITING, EDF_ASLEEP };

static int edf_state_at(const struct il_trace *t, int pid, uint64_t ts)
{
	size_t k = rec_from(t, ts, false);
	bool woken = false;

	for (size_t m = 0; k > 0 && m < SCAN_BACK_EDF; m++) {
		const struct il_trace_rec *r = &t->rec[--k];

		if (r->kind == IL_TR_SWITCH && r->next_pid == pid)
			return EDF_RUNNING;
		if (r->kind == IL_TR_SWITCH && r->prev_pid == pid)
			return woken		    ? EDF_WAITING
			       : asleep_after(t, r) ? EDF_ASLEEP
						    : EDF_WAITING;
		/* woken while it ran (never switched out) it still runs:
		 * the switch before tells */
		if (r->kind == IL_TR_WAKEUP && r->prev_pid == pid)
			woken = true;
	}
	return woken ? EDF_WAITING : -1;
}

/*
 * The job's waits to run: from its state at release (edf_state_at; when
 * the trace does not reach back that far, its first event after the
 * release tells: switched out, it was running; switched in, waiting;
 * woken, asleep), then each switch and wakeup of it.
 */
static uint64_t edf_job(const struct work *w, const struct edf_ctx *e0, int pid,
			int cpu, uint64_t a, uint64_t b, uint64_t *foreign,
			uint64_t *throttled, uint64_t *budget)
{
	const struct il_trace *t = w->t;
	const struct il_sched *s = sched_of(e0, e0->self);
	uint64_t q = s->runtime_ns, d = s->deadline_ns, tick = e0->er->tick_ns;
	struct edf_ctx e = *e0;
	struct cbs_state c = { .dl = e0->dl, .used = e0->used, .thr = e0->thr };
	uint64_t thr_ns = 0, bud = 0;
	int st = edf_state_at(t, pid, a);
	uint64_t since = a, sum = 0, waited = 0;
	/* woken for this job already: its first switch says so too (it
	 * ran or waited at its release) */
	bool woken = false;
	/* the trace left the reservation's model: no budget is assumed */
	bool lost = !q;
	struct cbs_run u = { 0 };
	uint64_t late = 0;

	e.throttled_ns = &thr_ns;
	e.budget_ns = &bud;

	for (size_t k = rec_from(t, a, false); k < t->n && t->rec[k].ts <= b;
	     k++) {
		const struct il_trace_rec *r = &t->rec[k];

		if (r->kind == IL_TR_SWITCH && r->next_pid == pid) {
			if (st == EDF_WAITING || st < 0) {
				sum += edf_wait_cbs(w, &e, &c, lost, cpu, since,
						    r->ts);
				waited += r->ts - since;
			}
			/* run while throttled: not the model's kernel */
			if (r->ts < c.thr) {
				lost = true;
				c.thr = 0;
			}
			woken = true;
			st = EDF_RUNNING;
			since = r->ts;
			u = (struct cbs_run){ 0 };
		} else if (r->kind == IL_TR_RUNTIME && r->prev_pid == pid) {
			if (st == EDF_RUNNING || st < 0)
				cbs_run_account(&u, r, since, tick);
		} else if (r->kind == IL_TR_SWITCH && r->prev_pid == pid) {
			uint64_t ch = 0;

			if (st == EDF_RUNNING || st < 0)
				c.used += ch = cbs_charge(&u, since, r->ts);
			late = cbs_late(&u, ch);
			u = (struct cbs_run){ 0 };
			woken = true;
			/*
			 * Each Q it ran moves its deadline a period on
			 * (the reservation's own rule, CBS), after a
			 * throttle until its next period: what runs then
			 * is the kernel keeping the reservation, not an
			 * inversion.  More than a tick past its Q, but for
			 * the ticks that came late, the kernel did not
			 * throttle it as the model does.
			 */
			if (c.used > q + tick + late)
				lost = true;
			if (q)
				cbs_ran(&c, s, r->ts);
			if (lost)
				c.thr = 0;
			st = asleep_after(t, r) ? EDF_ASLEEP : EDF_WAITING;
			since = r->ts;
		} else if (r->kind == IL_TR_WAKEUP && r->prev_pid == pid) {
			/* woken while it ran: it never left the CPU, and
			 * the kernel enqueued nothing (no new deadline) */
			if (st == EDF_RUNNING) {
				woken = true;
				continue;
			}
			if (st != EDF_WAITING) {
				/*
				 * The reservation's wakeup rule (CBS): woken
				 * past its deadline, or with more of its Q
				 * left than the time to it allows, a task
				 * gets a new one, the wakeup + D; so does a
				 * job woken after its release (the last
				 * job's deadline, one period back at most,
				 * has passed).  A vCPU the host held when
				 * the job was due wakes it late, and the
				 * tasks woken before it rank above it in the
				 * kernel's order.  Woken while throttled,
				 * nothing changes until the replenishment.
				 */
				if (!woken ? r->ts > a && r->ts >= c.thr
					   : cbs_renews(&c, s, r->ts))
					c = (struct cbs_state){ .dl = r->ts +
								      d };
				st = EDF_WAITING;
				since = r->ts;
			}
			woken = true;
		}
	}
	if (st == EDF_WAITING) {
		sum += edf_wait_cbs(w, &e, &c, lost, cpu, since, b);
		waited += b - since;
	}
	/* every CPU it could use counted: never more than it waited */
	if (*foreign > waited)
		*foreign = waited;
	*throttled = thr_ns < waited ? thr_ns : waited;
	if (sum > waited)
		sum = waited;
	/* with the kernel's choice, never more than it waited */
	*budget = bud < waited - sum ? bud : waited - sum;
	return sum;
}

static void cbs_walk(const struct il_trace *t, int pid,
		     const struct il_sched *s, uint64_t tick,
		     const uint64_t *rel, size_t n, struct cbs_state *at)
{
	struct cbs_state c = { 0 };
	uint64_t q = s->runtime_ns, d = s->deadline_ns, since = 0;
	bool seen = false, running = false, waiting = false;
	struct cbs_run u = { 0 };
	size_t k = 0;

	if (!q || !d)
		return;
	for (size_t i = 0; k < n; i++) {
		const struct il_trace_rec *r = i < t->n ? &t->rec[i] : NULL;
		uint64_t ts = r ? r->ts : UINT64_MAX;

		/* the state at each release before this record */
		for (; k < n && rel[k] < ts; k++) {
			struct cbs_state x = c;

			if (running && rel[k] > since)
				x.used += cbs_charge(&u, since, rel[k]);
			cbs_ran(&x, s, rel[k]);
			if (x.thr <= rel[k])
				x.thr = 0;
			if (seen)
				at[k] = x;
		}
		if (!r)
			break;
		if (r->kind == IL_TR_SWITCH && r->next_pid == pid) {
			if (!seen || ts < c.thr)
				c = (struct cbs_state){ .dl = ts + d };
			seen = running = true;
			waiting = false;
			since = ts;
			u = (struct cbs_run){ 0 };
		} else if (r->kind == IL_TR_RUNTIME && r->prev_pid == pid &&
			   running) {
			cbs_run_account(&u, r, since, tick);
		} else if (r->kind == IL_TR_SWITCH && r->prev_pid == pid) {
			uint64_t ch = 0;

			if (running && ts > since)
				c.used += ch = cbs_charge(&u, since, ts);
			if (c.used > q + tick + cbs_late(&u, ch))
				seen = false;
			cbs_ran(&c, s, ts);
			running = false;
			waiting = !asleep_after(t, r);
		} else if (r->kind == IL_TR_WAKEUP && r->prev_pid == pid &&
			   !running && !waiting) {
			if (!seen || cbs_renews(&c, s, ts))
				c = (struct cbs_state){ .dl = ts + d };
			seen = waiting = true;
		}
	}
}

/*
 * The set's real-time and deadline releases as the sleepers whose late
 * timers show where a CPU stalled (il_trace_stalls, trace.h)
 */
static int edf_stalls(const struct il_scenario *sc,
		      const struct il_engine_result *er,
		      struct il_trace_stalls *out)
{
	struct il_trace_sleeper sl[IL_MAX_TASKS];
	size_t n = 0;

	for (int j = 0; j < er->ntasks && j < sc->ntasks && j < IL_MAX_TASKS;
	     j++) {
		int pol = sc->tasks[j].sched.policy;

		if (pol != IL_SCHED_DEADLINE && pol != IL_SCHED_FIFO &&
		    pol != IL_SCHED_RR)
			continue;
		sl[n].tid = er->tasks[j].tid;
		sl[n].rel = er->tasks[j].job_rel_seq;
		sl[n].nrel = er->tasks[j].njob_cpu;
		n++;
	}
	return il_trace_stalls(er->trace, sl, n, out);
}

int il_attribute_edf(const struct il_scenario *sc,
		     const struct il_sched *const declared[IL_MAX_TASKS],
		     struct il_engine_result *er, bool run_witness)
{
	struct il_attr_input in = { .ntasks = 0 };
	struct work w = { .in = &in, .t = er->trace };
	struct il_trace_stalls stalls = { 0 };
	int ret;

	for (int i = 0; i < er->ntasks; i++) {
		free(er->tasks[i].job_later_seq);
		er->tasks[i].job_later_seq = NULL;
		free(er->tasks[i].job_throttled_seq);
		er->tasks[i].job_throttled_seq = NULL;
		free(er->tasks[i].job_budget_seq);
		er->tasks[i].job_budget_seq = NULL;
	}
	if (!er->trace || er->trace->lost)
		return 0;
	ret = build_index(&w);
	if (!ret)
		ret = edf_stalls(sc, er, &stalls);
	if (!ret && run_witness)
		ret = il_trace_stalls_runtime(er->trace, &stalls);
	for (int i = 0; !ret && i < er->ntasks && i < sc->ntasks; i++) {
		struct il_task_result *r = &er->tasks[i];
		struct edf_ctx e = { .sc = sc,
				     .er = er,
				     .declared = declared,
				     .self = i,
				     .stalls = &stalls };
		const struct il_sched *s = sched_of(&e, i);
		const struct il_trace *t = er->trace;
		struct cbs_state *at;

		if (s->policy != IL_SCHED_DEADLINE || !s->deadline_ns ||
		    r->tid <= 0 || !w.ncpus || !r->njob_cpu ||
		    !r->job_rel_seq || !r->job_end_seq || r->cpu >= w.ncpus)
			continue;
		/* a second attribution replaces the first's */
		free(r->job_later_seq);
		r->job_later_seq = calloc(r->njob_cpu, sizeof(uint64_t));
		free(r->job_throttled_seq);
		r->job_throttled_seq = calloc(r->njob_cpu, sizeof(uint64_t));
		free(r->job_budget_seq);
		r->job_budget_seq = calloc(r->njob_cpu, sizeof(uint64_t));
		at = calloc(r->njob_cpu, sizeof(*at));
		if (!r->job_later_seq || !r->job_throttled_seq ||
		    !r->job_budget_seq || !at) {
			free(at);
			ret = -ENOMEM;
			break;
		}
		cbs_walk(t, r->tid, s, er->tick_ns, r->job_rel_seq, r->njob_cpu,
			 at);
		for (size_t k = 0; k < r->njob_cpu; k++) {
			uint64_t a = r->job_rel_seq[k], b = r->job_end_seq[k];
			uint64_t fo;

			/* only a missed job is looked at, and only one the
			 * trace saw whole */
			if (!a || b <= a + s->deadline_ns)
				continue;
			if (a < t->t0_ns || b > t->t1_ns) {
				r->job_later_seq[k] = IL_EDF_UNSEEN;
				continue;
			}
			/* what it had run of its current Q, and the
			 * deadline its reservation carried, when later;
			 * released while the job before still ran, no
			 * budget is assumed */
			e.queued = k && r->job_end_seq[k - 1] > a;
			e.dl = a + s->deadline_ns;
			e.used = at[k].used;
			e.thr = at[k].thr;
			if (at[k].dl > e.dl)
				e.dl = at[k].dl;
			e.foreign = &fo;
			fo = 0;
			r->job_later_seq[k] =
				edf_job(&w, &e, r->tid, r->cpu, a, b, &fo,
					&r->job_throttled_seq[k],
					&r->job_budget_seq[k]);
			/* a missed job: what foreign tasks ran while it
			 * waited, not over all of it */
			if (r->job_foreign_seq)
				r->job_foreign_seq[k] = fo;
		}
		free(at);
	}
	il_trace_stalls_free(&stalls);
	free_index(&w);
	return ret;
}

int il_attribute_run(const struct il_scenario *sc, struct il_engine_result *er)
{
	int ret;

	if (!sc || !er)
		return -EINVAL;
	if (!er->trace)
		return 0;
	ret = jobs_foreign(sc, er);
	if (ret)
		return ret;
	for (int i = 0; i < er->ntasks && i < sc->ntasks; i++) {
		struct il_task_result *r = &er->tasks[i];
		struct il_attr_task tasks[IL_MAX_TASKS];
		struct il_attr_input in = {
			.tasks = tasks,
			.ntasks = (size_t)sc->ntasks,
			.waiter_rank = il_model_rank(&sc->tasks[i].sched),
			.tick_ns = er->tick_ns,
		};
		struct il_lock_result *lr;

		/* the holder's gaps between sections (deboost.h) */
		if (r->sect_from_seq && r->sect_to_seq)
			il_deboost_tally(er->trace, r->tid,
					 il_attr_kprio(&sc->tasks[i].sched),
					 r->sect_from_seq, r->sect_to_seq,
					 r->nsect, &r->deboost);
		/* and where a task pinned to one CPU ran (affinity.h) */
		if (r->cpu >= 0 && !r->partitioned)
			il_affinity_tally(er->trace, r->tid, r->cpu,
					  er->t_start_ns, &r->affinity);
		if (!r->nlocks || !r->locks[0] || !r->locks[0]->nsamples)
			continue;
		lr = r->locks[0];
		in.count_waiter = kmutex_res(sc, lr->res);
		in.boosts = boosts_res(sc, lr->res);
		il_attr_roles(sc, er, i, lr->res, tasks);
		free(lr->traced);
		lr->traced = malloc(lr->nsamples * sizeof(*lr->traced));
		if (!lr->traced)
			return -ENOMEM;
		ret = il_attribute(&in, er->trace, lr->samples, lr->nsamples,
				   lr->traced, &lr->attr);
		if (ret == -ENOMEM)
			return ret;
		if (ret || !lr->attr.traced) {
			/* kept for the note, but no trace to judge on */
			free(lr->traced);
			lr->traced = NULL;
		}
	}
	return 0;
}

/* the foreign tasks, each "; ..." from buf + off; the new offset */
static size_t foreign_part(const struct il_attr_summary *a, const char *waiter,
			   int wprio, char *buf, size_t len, size_t off)
{
	char wc[24], d[24], k[24];
	uint64_t rest_ns = 0;
	uint32_t shown = 0, rest = 0;

	il_trace_class_name(wprio, wc, sizeof(wc));
	for (uint32_t i = 0; i < a->nnamed && off < len; i++) {
		const struct il_attr_named *f = &a->named[i];
		char fc[24];

		/* the two with most time, and any inversion, by name */
		if (shown >= 2 && !f->counted_ns) {
			rest++;
			rest_ns += f->ns;
			continue;
		}
		shown++;
		il_trace_class_name(f->kprio, fc, sizeof(fc));
		if (f->boosted)
			il_appendf(fc, sizeof(fc), " by PI");
		il_format_duration(d, sizeof(d), f->ns);
		il_format_duration(k, sizeof(k), f->counted_ns);
		off += (size_t)snprintf(
			buf + off, len - off,
			"; %llu waits delayed by %s (pid %d, %s): %s, %s "
			"priority than %s (%s): ",
			(unsigned long long)f->waits, f->comm, f->pid, fc, d,
			f->higher ? "higher"
			: f->boosted && il_attr_rank(f->kprio) >=
						il_attr_rank(wprio)
				? "raised from a lower"
				: "lower",
			waiter, wc);
		if (off >= len)
			break;
		if (f->boosted && !f->higher &&
		    il_attr_rank(f->kprio) >= il_attr_rank(wprio))
			off += (size_t)snprintf(
				buf + off, len - off,
				"counted as below it, not shown to be the "
				"kernel's choice (PI on a kernel lock does "
				"this, "
				"and so does a kernel raising the wrong task)");
		else if (f->higher)
			off += (size_t)snprintf(buf + off, len - off,
						"interference, not inversion");
		else if (il_attr_rank(f->kprio) >= 100)
			off += (size_t)snprintf(
				buf + off, len - off,
				"inversion by a task outside the scenario");
		else if (f->counted_ns)
			off += (size_t)snprintf(
				buf + off, len - off,
				"fair class, %s of it in the place of a holder "
				"left unboosted: inversion by a task outside "
				"the scenario",
				k);
		else
			off += (size_t)snprintf(
				buf + off, len - off,
				"fair class, on the fair server's budget "
				"(50ms a second of a wait; past it, counted)");
	}
	if (rest && off < len) {
		il_format_duration(d, sizeof(d), rest_ns);
		off += (size_t)snprintf(
			buf + off, len - off,
			"; %u more foreign task%s, not counted: %s", rest,
			rest == 1 ? "" : "s", d);
	}
	return off < len ? off : len;
}

void il_attr_text(const struct il_attr_summary *a, const char *waiter,
		  int wprio, char *buf, size_t len)
{
	char d[24];
	size_t off = 0;

	if (!len)
		return;
	buf[0] = '\0';
	if (!a->traced) {
		snprintf(buf, len, "trace not used%s%s", a->note[0] ? ": " : "",
			 a->note);
		return;
	}
	/* the mechanism first: it is the independent proof */
	il_format_duration(d, sizeof(d), a->boost_worst_ns);
	if (a->boosted)
		off = (size_t)snprintf(buf, len,
				       "trace: holder boosted %d->%d within %s "
				       "of the request in %llu of %llu waits",
				       il_trace_rt_prio(a->boost_from),
				       il_trace_rt_prio(a->boost_to), d,
				       (unsigned long long)a->boosted,
				       (unsigned long long)a->traced);
	else
		off = (size_t)snprintf(buf, len,
				       "trace: holder never boosted in %llu "
				       "waits",
				       (unsigned long long)a->traced);
	if (off < len)
		off = foreign_part(a, waiter, wprio, buf, len, off);
	if (!a->nnamed && off < len) {
		il_format_duration(d, sizeof(d), a->holder_ns);
		snprintf(buf + off, len - off,
			 "; the holders ran %s and no foreign task ran", d);
	}
}

void il_attr_foreign_text(const struct il_attr_summary *a, const char *waiter,
			  int wprio, char *buf, size_t len)
{
	size_t off;

	if (!len)
		return;
	buf[0] = '\0';
	off = foreign_part(a, waiter, wprio, buf, len, 0);
	if (!a->nnamed && off < len)
		snprintf(buf + off, len - off, "; no foreign task ran");
}

const struct il_wait_sample *il_attr_judged(const struct il_scenario *sc,
					    const struct il_engine_result *er,
					    int i, struct il_wait_sample **tmp,
					    struct il_attr_summary *sum)
{
	const struct il_lock_result *lr;
	struct il_attr_task tasks[IL_MAX_TASKS];
	struct il_attr_input in;

	*tmp = NULL;
	memset(sum, 0, sizeof(*sum));
	if (i < 0 || i >= er->ntasks || !er->tasks[i].nlocks ||
	    !er->tasks[i].locks[0])
		return NULL;
	lr = er->tasks[i].locks[0];
	if (lr->traced) {
		*sum = lr->attr;
		return lr->traced;
	}
	if (lr->attr.note[0] || !er->trace || !lr->nsamples) {
		/* attributed before, in vain: say why */
		*sum = lr->attr;
		sum->traced = 0;
		return lr->samples;
	}
	il_attr_roles(sc, er, i, lr->res, tasks);
	in = (struct il_attr_input){
		.tasks = tasks,
		.ntasks = (size_t)sc->ntasks,
		.waiter_rank = il_model_rank(&sc->tasks[i].sched),
		.count_waiter = kmutex_res(sc, lr->res),
		.boosts = boosts_res(sc, lr->res),
		.tick_ns = er->tick_ns,
	};
	*tmp = malloc(lr->nsamples * sizeof(**tmp));
	if (!*tmp) {
		snprintf(sum->note, sizeof(sum->note), "out of memory");
		return lr->samples;
	}
	if (il_attribute(&in, er->trace, lr->samples, lr->nsamples, *tmp,
			 sum) ||
	    !sum->traced) {
		free(*tmp);
		*tmp = NULL;
		sum->traced = 0;
		return lr->samples;
	}
	return *tmp;
}

void il_attr_append(char *evidence, size_t len, const struct il_attr_summary *a,
		    const char *note, const char *waiter, int wprio)
{
	size_t off = strnlen(evidence, len);
	char t[400];

	if (off + 3 >= len)
		return;
	if (a && a->traced)
		il_attr_text(a, waiter, wprio, t, sizeof(t));
	else if (a && a->note[0])
		snprintf(t, sizeof(t),
			 "trace not used (%s): inferred from the tasks' CPU "
			 "clocks",
			 a->note);
	else if (note && note[0])
		snprintf(t, sizeof(t),
			 "inferred from the tasks' CPU clocks: %s", note);
	else
		snprintf(t, sizeof(t),
			 "no trace: inferred from the tasks' CPU clocks");
	snprintf(evidence + off, len - off, "; %s", t);
}
