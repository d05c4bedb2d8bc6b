// SPDX-License-Identifier: MIT
/*
 * The deboost check (deboost.h): a lock holder returns to its own
 * priority once it holds no lock.  The trace decides: the first record
 * of the task after the unlock of its last lock either shows it at its
 * own priority, or above it with nothing since that could have raised it
 * afresh.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <invlab/deboost.h>
#include <invlab/time.h>

/* pid's kernel priority in switch r, or INT32_MAX when r is not its */
static int prio_in(const struct il_trace_rec *r, int pid)
{
	if (r->kind == IL_TR_SWITCH && r->prev_pid == pid)
		return r->prev_prio;
	if (r->kind == IL_TR_SWITCH && r->next_pid == pid)
		return r->next_prio;
	if (r->kind == IL_TR_PI_SETPRIO && r->prev_pid == pid)
		return r->next_prio;
	return INT32_MAX;
}

/* pid ran (or was set) above own somewhere in [x, y] */
static bool raised_in(const struct il_trace *t, int pid, int own, uint64_t x,
		      uint64_t y)
{
	for (size_t k = il_trace_rec_from(t, x, false);
	     k < t->n && t->rec[k].ts <= y; k++)
		if (prio_in(&t->rec[k], pid) < own)
			return true;
	return false;
}

void il_deboost_tally(const struct il_trace *t, int pid, int own,
		      const uint64_t *from, const uint64_t *to, size_t n,
		      struct il_deboost *d)
{
	memset(d, 0, sizeof(*d));
	d->own_prio = own;
	if (!t || pid <= 0 || (n && (!from || !to)))
		return;
	d->traced = 1;
	d->lost = t->lost;
	for (size_t s = 0; s < n; s++) {
		uint64_t a = to[s], end = s + 1 < n ? from[s + 1] : t->t1_ns;
		bool raised;

		/* the section and the unlock inside what was traced */
		if (from[s] < t->t0_ns || a < from[s] || a >= t->t1_ns)
			continue;
		raised = raised_in(t, pid, own, from[s], a);
		for (size_t k = il_trace_rec_from(t, a, true);
		     k < t->n && t->rec[k].ts < end; k++) {
			const struct il_trace_rec *r = &t->rec[k];
			int p = prio_in(r, pid);

			if (p == INT32_MAX)
				continue;
			/* a priority change first that raised it: the
			 * kernel's own doing since the unlock (a lock of
			 * its own), which decides nothing either way; one to
			 * its own priority is the deboost, a little late on
			 * our clock */
			if (r->kind != IL_TR_SWITCH && p < own)
				break;
			d->gaps++;
			d->after_boost += raised;
			if (p < own) {
				if (!d->missed) {
					d->missed_prio = p;
					d->missed_at_ns = r->ts;
					d->missed_late_ns = r->ts - a;
				}
				d->missed++;
			}
			break;
		}
	}
}

int il_check_deboost(const struct il_deboost *d, const char *task,
		     struct il_check *out)
{
	char own[24], ran[24], late[24];

	if (!d || !task || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->bound_name = "own priority once no lock is held";
	if (!d->traced || (!d->after_boost && !d->missed))
		return 0;
	out->by_trace = 1;
	out->worst_ns = d->missed_late_ns;
	il_trace_class_name(d->own_prio, own, sizeof(own));
	il_trace_class_name(d->missed_prio, ran, sizeof(ran));
	il_format_duration(late, sizeof(late), d->missed_late_ns);
	if (d->missed && !d->lost) {
		out->verdict = IL_FAIL;
		snprintf(out->evidence, sizeof(out->evidence),
			 "after giving back its last lock, %s ran above its "
			 "own %s in %llu of %llu gaps the trace showed, first "
			 "at %s %s after the unlock, with no priority change "
			 "by the kernel since: a boost outlived every lock it "
			 "was for",
			 task, own, (unsigned long long)d->missed,
			 (unsigned long long)d->gaps, ran, late);
		return 0;
	}
	if (d->missed) {
		out->verdict = IL_UNDECIDED;
		snprintf(out->evidence, sizeof(out->evidence),
			 "after giving back its last lock, %s ran above its "
			 "own %s in %llu of %llu gaps (first at %s), but the "
			 "trace lost %llu events: a priority change of its own "
			 "may be among them",
			 task, own, (unsigned long long)d->missed,
			 (unsigned long long)d->gaps, ran,
			 (unsigned long long)d->lost);
		return 0;
	}
	if (d->after_boost >= IL_DEBOOST_MIN_GAPS) {
		out->verdict = IL_PASS;
		snprintf(out->evidence, sizeof(out->evidence),
			 "in each of the %llu gaps after a section it ran "
			 "raised in (%llu gaps in all), the trace showed %s "
			 "back at its own %s once its last lock was given "
			 "back",
			 (unsigned long long)d->after_boost,
			 (unsigned long long)d->gaps, task, own);
		return 0;
	}
	out->verdict = IL_UNDECIDED;
	snprintf(out->evidence, sizeof(out->evidence),
		 "the trace showed %s back at its own %s in every gap, but "
		 "only %llu came after a section it ran raised in (need %d)",
		 task, own, (unsigned long long)d->after_boost,
		 IL_DEBOOST_MIN_GAPS);
	return 0;
}
