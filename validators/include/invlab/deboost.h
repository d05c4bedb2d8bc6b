/* SPDX-License-Identifier: MIT */
/*
 * The deboost check: a task that held a priority-inheritance (or
 * ceiling) lock returns to its own priority once it holds none.
 *
 * Its ledger is one gap per section: from the return of the unlock that
 * left the task holding nothing to its next lock request.  Nothing may
 * raise a task that holds no lock of the scenario but a lock the kernel
 * takes for it meanwhile, and that raise is a priority change of its own
 * in the trace.  So the first record of the task in a gap decides: a
 * switch showing it above its own priority, with no priority change
 * since the unlock, is the kernel keeping a boost past its last lock.
 */
#ifndef INVLAB_DEBOOST_H
#define INVLAB_DEBOOST_H

#include <stddef.h>
#include <stdint.h>

#include <invlab/engine.h>
#include <invlab/trace.h>
#include <invlab/verdict.h>

/* gaps after a raised section the trace must show before a PASS */
#define IL_DEBOOST_MIN_GAPS 5

/*
 * Fill d from trace t for task pid of own kernel priority own, over its
 * sections [from[k], to[k]], k < n, in order.  A gap ends at the next
 * section's request, the last at the trace's end.
 */
void il_deboost_tally(const struct il_trace *t, int pid, int own,
		      const uint64_t *from, const uint64_t *to, size_t n,
		      struct il_deboost *d);

/*
 * The verdict on d for task: FAIL on a missed deboost the trace holds
 * whole (no events lost), PASS with IL_DEBOOST_MIN_GAPS gaps after a
 * raised section and none missed, UNDECIDED otherwise.  NONE (and
 * -EINVAL) when d was not filled from a trace or never saw the task
 * raised: nothing to judge.
 */
int il_check_deboost(const struct il_deboost *d, const char *task,
		     struct il_check *out);

#endif
