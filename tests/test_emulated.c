// SPDX-License-Identifier: MIT
/*
 * The emulated-timing rule (emulated.h) for each outcome: unchanged off
 * emulation and for every verdict but FAIL, UNDECIDED for a FAIL on
 * timing alone (no trace, a boosted holder, nothing lower ran), and a
 * FAIL that stands when the trace shows a lower-priority task ran while
 * the waiter waited and the holder was never boosted.  Then the rule
 * over a run's checks, which takes the trace's account of pi checks and
 * none for others.
 */
#include <string.h>

#include <invlab/emulated.h>
#include <invlab/time.h>

#include "t_judge.h"
#include "t_util.h"

#define MS IL_NSEC_PER_MSEC

static struct il_check fail(void)
{
	struct il_check c = { .verdict = IL_FAIL };

	snprintf(c.evidence, sizeof(c.evidence), "%s",
		 "3 of 40 waits exceeded 2.00ms + 150us noise by up to 4.1ms");
	return c;
}

/* the inversion the trace attests: medium ran, the holder unboosted */
static const struct il_emu_input attested = {
	.emulated = 1,
	.traced = 40,
	.lower_ns = 30 * MS,
	.boosted = 0,
};

static void test_not_emulated(void)
{
	struct il_emu_input in = attested;
	struct il_check c = fail();

	in.emulated = 0;
	t_check_int(il_emu_check(&in, &c), IL_EMU_NONE);
	t_check_int(c.verdict, IL_FAIL);
	t_check_str(c.evidence,
		    "3 of 40 waits exceeded 2.00ms + 150us noise by up to "
		    "4.1ms");
	/* unknown is not emulated: the FAIL is left as it is */
	in = (struct il_emu_input){ .emulated = -1 };
	t_check_int(il_emu_check(&in, &c), IL_EMU_NONE);
	t_check_int(c.verdict, IL_FAIL);
	in.emulated = 2;
	t_check_int(il_emu_check(&in, &c), IL_EMU_NONE);
	t_check_int(c.verdict, IL_FAIL);
	t_check_int(il_emu_check(NULL, &c), IL_EMU_NONE);
	t_check_int(il_emu_check(&in, NULL), IL_EMU_NONE);
}

/* host preemption only lengthens: PASS, UNDECIDED, SKIP, NONE stay */
static void test_other_verdicts(void)
{
	static const enum il_verdict v[] = { IL_NONE, IL_PASS, IL_UNDECIDED,
					     IL_SKIP };
	struct il_emu_input in = { .emulated = 1 };

	for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
		struct il_check c = fail();

		c.verdict = v[k];
		t_check_int(il_emu_check(&in, &c), IL_EMU_NONE);
		t_check_int(c.verdict, v[k]);
		t_check_int(strncmp(c.evidence, "3 of 40", 7), 0);
	}
}

static void test_timing_only(void)
{
	struct il_emu_input in = { .emulated = 1 };
	struct il_check c = fail();

	/* no trace at all */
	t_check_int(il_emu_check(&in, &c), IL_EMU_UNDECIDED);
	t_check_int(c.verdict, IL_UNDECIDED);
	t_check_contains(c.evidence, "undecided under emulation (QEMU TCG)");
	t_check_contains(c.evidence, "no steal time");
	t_check_contains(c.evidence, "(no trace of the order of events)");
	t_check_contains(c.evidence, "; was FAIL: 3 of 40 waits exceeded");

	/* lower tasks ran but no trace covered the waits: not attested */
	in.lower_ns = 30 * MS;
	c = fail();
	t_check_int(il_emu_check(&in, &c), IL_EMU_UNDECIDED);
	t_check_int(c.verdict, IL_UNDECIDED);

	/* the holder was boosted in one wait: the protocol worked */
	in = attested;
	in.boosted = 1;
	c = fail();
	t_check_int(il_emu_check(&in, &c), IL_EMU_UNDECIDED);
	t_check_int(c.verdict, IL_UNDECIDED);
	t_check_contains(c.evidence, "(the trace shows the holder boosted)");

	/* traced, unboosted, but nothing lower ran: only durations */
	in = attested;
	in.lower_ns = 0;
	c = fail();
	t_check_int(il_emu_check(&in, &c), IL_EMU_UNDECIDED);
	t_check_int(c.verdict, IL_UNDECIDED);
	t_check_contains(c.evidence,
			 "(the trace shows no lower-priority task ran)");
}

static void test_attested(void)
{
	struct il_emu_input in = attested;
	struct il_check c = fail();

	t_check_int(il_emu_check(&in, &c), IL_EMU_KERNEL);
	t_check_int(c.verdict, IL_FAIL);
	t_check_contains(c.evidence, "the kernel's FAIL, also under emulation");
	t_check_contains(c.evidence, "lower-priority tasks ran 30.0ms");
	t_check_contains(c.evidence, "never boosted in 40 waits");
	t_check_contains(c.evidence, "); 3 of 40 waits exceeded");
	/* the smallest amounts still attest it */
	in.traced = 1;
	in.lower_ns = 1;
	c = fail();
	t_check_int(il_emu_check(&in, &c), IL_EMU_KERNEL);
	t_check_int(c.verdict, IL_FAIL);
}

/* a long evidence is cut at its end, the reason kept whole */
static void test_long_evidence(void)
{
	struct il_emu_input in = { .emulated = 1 };
	struct il_check c = { .verdict = IL_FAIL };

	memset(c.evidence, 'x', sizeof(c.evidence) - 1);
	c.evidence[sizeof(c.evidence) - 1] = '\0';
	t_check_int(il_emu_check(&in, &c), IL_EMU_UNDECIDED);
	t_check_int(strncmp(c.evidence, "undecided under emulation", 25), 0);
	t_check_int((int)strlen(c.evidence), (int)sizeof(c.evidence) - 1);
}

/* over a run: a pi check takes its task's trace account, mbwi none */
static void test_apply(void)
{
	struct il_judged ck[3];
	struct il_lock_result *lr;
	static struct il_wait_sample traced[4];

	t_run_reset("[resource R]\nprotocol = none\n"
		    "[task low]\nclass = fifo:10\ncpu = 1\n"
		    "body = lock R, run 5ms, unlock R\n"
		    "[task high]\nclass = fifo:30\ncpu = 1\n"
		    "body = lock R, run 1ms, unlock R\n");
	t_run_waits(t_task("high"), 0, 4, 20 * MS, 0, 15 * MS);
	lr = t_er.tasks[t_task("high")].locks[0];
	lr->traced = traced;
	lr->attr.traced = 4;
	lr->attr.lower_ns = 15 * MS;
	lr->attr.boosted = 0;
	memset(ck, 0, sizeof(ck));
	for (int k = 0; k < 3; k++)
		ck[k].c = fail();
	ck[0].validator = "pi";
	snprintf(ck[0].task, sizeof(ck[0].task), "high");
	ck[1].validator = "mbwi";
	snprintf(ck[1].task, sizeof(ck[1].task), "high bandwidth");
	ck[2].validator = "pi";
	snprintf(ck[2].task, sizeof(ck[2].task), "nosuchtask");

	/* not emulated: nothing changes */
	t_check_int(il_emu_apply(&t_sc, &t_er, 0, ck, 3), 0);
	for (int k = 0; k < 3; k++)
		t_check_int(ck[k].c.verdict, IL_FAIL);

	t_check_int(il_emu_apply(&t_sc, &t_er, 1, ck, 3), 2);
	t_check_int(ck[0].c.verdict, IL_FAIL);
	t_check_contains(ck[0].c.evidence, "the kernel's FAIL");
	t_check_int(ck[1].c.verdict, IL_UNDECIDED);
	t_check_int(ck[2].c.verdict, IL_UNDECIDED);

	/* the holder boosted: the pi FAIL is timing alone */
	for (int k = 0; k < 3; k++)
		ck[k].c = fail();
	lr->attr.boosted = 4;
	t_check_int(il_emu_apply(&t_sc, &t_er, 1, ck, 3), 3);
	t_check_int(ck[0].c.verdict, IL_UNDECIDED);
	lr->traced = NULL;
}

int main(void)
{
	test_not_emulated();
	test_other_verdicts();
	test_timing_only();
	test_attested();
	test_long_evidence();
	test_apply();
	return t_done("emulated");
}
