// SPDX-License-Identifier: MIT
/*
 * Timing on an emulated CPU (emulated.h): a FAIL decided by a duration is
 * UNDECIDED there, one the scheduler's trace attests stands.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/attrib.h>
#include <invlab/emulated.h>
#include <invlab/kmutex-bounds.h>
#include <invlab/time.h>

/* the evidence as prefix + old, cut to the buffer */
static void prepend(struct il_check *c, const char *prefix)
{
	const size_t room = sizeof(c->evidence) - 1;
	size_t np = strnlen(prefix, room), no;

	c->evidence[room] = '\0';
	no = strlen(c->evidence);
	if (no > room - np)
		no = room - np;
	memmove(c->evidence + np, c->evidence, no);
	memcpy(c->evidence, prefix, np);
	c->evidence[np + no] = '\0';
}

enum il_emu_effect il_emu_check(const struct il_emu_input *in,
				struct il_check *c)
{
	char pre[320], d[24];

	if (!in || !c || in->emulated != 1 || c->verdict != IL_FAIL)
		return IL_EMU_NONE;
	if (c->by_trace) {
		/* who the guest's scheduler ran is its own decision: host
		 * preemption stops a whole vCPU, it never picks a task */
		prepend(c, "the kernel's FAIL, also under emulation: its "
			   "trace decided it (who ran, which host preemption "
			   "cannot change); ");
		return IL_EMU_KERNEL;
	}
	if (in->traced > 0 && in->explained > 0 && in->boosted == 0 &&
	    !in->window_bound) {
		il_format_duration(d, sizeof(d), in->lower_ns);
		snprintf(pre, sizeof(pre),
			 "the kernel's FAIL, also under emulation: the trace "
			 "shows lower-priority tasks ran %s in %llu waits "
			 "over the limit, at least each one's excess, and the "
			 "holder never boosted in %llu waits (an order of "
			 "events, which host preemption cannot make); ",
			 d, (unsigned long long)in->explained,
			 (unsigned long long)in->traced);
		prepend(c, pre);
		return IL_EMU_KERNEL;
	}
	snprintf(pre, sizeof(pre),
		 "undecided under emulation (QEMU TCG): the guest cannot see "
		 "the host preempting its virtual CPUs (no steal time), so a "
		 "FAIL on timing alone is not the kernel's%s; was FAIL: ",
		 in->mbwi_traced == 1
			 ? " (the trace's EDF order attests some late misses, "
			   "not every one)"
		 : in->football_traced
			 ? " (waits past the tolerance no more often than the "
			   "host makes them)"
		 : in->mbwi_traced == 2
			 ? " (a budget is spent on the guest's clock, which "
			   "runs on while the host holds a vCPU, and a tick "
			   "the host made late lets a task run on past it)"
		 : !in->traced ? " (no trace of the order of events)"
		 : in->window_bound
			 ? " (the bound is the fair server's window, spent "
			   "on the guest's clock, which runs on while the "
			   "host holds a vCPU)"
		 : in->boosted
			 ? " (the trace shows the holder boosted)"
			 : " (in the trace, lower-priority tasks account for "
			   "no wait's excess)");
	c->verdict = IL_UNDECIDED;
	prepend(c, pre);
	return IL_EMU_UNDECIDED;
}

uint64_t il_emu_explained(const struct il_wait_sample *s, size_t n,
			  uint64_t limit_ns, uint64_t *lower_ns)
{
	uint64_t count = 0, sum = 0;

	for (size_t i = 0; s && i < n; i++) {
		uint64_t own = s[i].delay_ns > s[i].foreign_ns
				       ? s[i].delay_ns - s[i].foreign_ns
				       : 0;

		if (own <= limit_ns && !s[i].timed_out)
			continue;
		if (s[i].lower_ns >= (own > limit_ns ? own - limit_ns : 0) &&
		    s[i].lower_ns > 0) {
			count++;
			sum += s[i].lower_ns;
		}
	}
	if (lower_ns)
		*lower_ns = sum;
	return count;
}

int il_emu_apply(const struct il_scenario *sc,
		 const struct il_engine_result *er, int emulated,
		 struct il_judged *ck, int n)
{
	int changed = 0;

	if (!sc || !er || !ck || emulated != 1)
		return 0;
	for (int k = 0; k < n; k++) {
		struct il_emu_input in = { .emulated = emulated };

		if (ck[k].c.verdict != IL_FAIL)
			continue;
		if (ck[k].validator && (!strcmp(ck[k].validator, "pi") ||
					!strcmp(ck[k].validator, "chain") ||
					!strcmp(ck[k].validator, "kmutex"))) {
			int i = il_scenario_task(sc, ck[k].task);

			in.window_bound = !strcmp(ck[k].validator, "kmutex") &&
					  ck[k].c.bound_name &&
					  !strcmp(ck[k].c.bound_name,
						  IL_KM_BOUND_FAIR_SERVER);
			struct il_wait_sample *tmp = NULL;
			struct il_attr_summary as;

			if (i >= 0 && i < er->ntasks) {
				const struct il_wait_sample *w =
					il_attr_judged(sc, er, i, &tmp, &as);

				in.traced = as.traced;
				in.boosted = as.boosted;
				if (as.traced && w)
					in.explained = il_emu_explained(
						w,
						er->tasks[i].locks[0]->nsamples,
						ck[k].c.bound_ns +
							ck[k].c.noise_ns,
						&in.lower_ns);
				free(tmp);
			}
		}
		if (ck[k].validator && !strcmp(ck[k].validator, "mbwi") &&
		    er->trace && !er->trace->lost)
			in.mbwi_traced =
				strstr(ck[k].task, " bandwidth") ? 2 : 1;
		in.football_traced = ck[k].validator &&
				     !strcmp(ck[k].validator, "football") &&
				     er->trace && !er->trace->lost;
		changed += il_emu_check(&in, &ck[k].c) == IL_EMU_UNDECIDED;
	}
	return changed;
}
