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
	if (in->traced > 0 && in->lower_ns > 0 && in->boosted == 0) {
		il_format_duration(d, sizeof(d), in->lower_ns);
		snprintf(pre, sizeof(pre),
			 "the kernel's FAIL, also under emulation: the trace "
			 "shows lower-priority tasks ran %s while the waiter "
			 "waited and the holder was never boosted in %llu "
			 "waits (an order of events, which host preemption "
			 "cannot make); ",
			 d, (unsigned long long)in->traced);
		prepend(c, pre);
		return IL_EMU_KERNEL;
	}
	snprintf(pre, sizeof(pre),
		 "undecided under emulation (QEMU TCG): the guest cannot see "
		 "the host preempting its virtual CPUs (no steal time), so a "
		 "FAIL on timing alone is not the kernel's%s; was FAIL: ",
		 !in->traced ? " (no trace of the order of events)"
		 : in->boosted
			 ? " (the trace shows the holder boosted)"
			 : " (the trace shows no lower-priority task ran)");
	c->verdict = IL_UNDECIDED;
	prepend(c, pre);
	return IL_EMU_UNDECIDED;
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
					!strcmp(ck[k].validator, "chain"))) {
			int i = il_scenario_task(sc, ck[k].task);
			struct il_wait_sample *tmp = NULL;
			struct il_attr_summary as;

			if (i >= 0 && i < er->ntasks) {
				il_attr_judged(sc, er, i, &tmp, &as);
				free(tmp);
				in.traced = as.traced;
				in.lower_ns = as.lower_ns + as.flow_ns;
				in.boosted = as.boosted;
			}
		}
		changed += il_emu_check(&in, &ck[k].c) == IL_EMU_UNDECIDED;
	}
	return changed;
}
