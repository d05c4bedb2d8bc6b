// SPDX-License-Identifier: MIT
/*
 * Judging a run (judge.h): which validators a job names, which
 * calibrations they need, and every check of the run with its expected
 * verdict.  The models themselves are in model-pi.c, model-chain.c,
 * model-mbwi.c and model-football.c, what they share in model.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <invlab/hist.h>
#include <invlab/judge.h>

#include "model.h"

static bool chain_shaped(const struct il_scenario *sc)
{
	for (int i = 0; i < sc->ntasks; i++)
		if (il_model_nests(&sc->tasks[i]))
			return true;
	return false;
}

int il_judge_validators(const struct il_scenario *sc, unsigned *mask, char *err,
			size_t len)
{
	static const struct {
		const char *name;
		unsigned bit;
	} names[] = {
		{ "pi", IL_JUDGE_PI },
		{ "chain", IL_JUDGE_CHAIN },
		{ "mbwi", IL_JUDGE_MBWI },
		{ "football", IL_JUDGE_FOOTBALL },
		{ "none", 0 },
		{ "auto", 0 },
	};
	bool is_auto = false;

	if (!sc || !mask)
		return -EINVAL;
	*mask = 0;
	for (const char *p = sc->g.validate ? sc->g.validate : ""; *p;) {
		size_t n, k;

		while (*p == ' ' || *p == ',')
			p++;
		n = strcspn(p, ", ");
		if (!n)
			continue;
		for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			if (strlen(names[k].name) == n &&
			    !strncmp(p, names[k].name, n))
				break;
		if (k == sizeof(names) / sizeof(names[0])) {
			snprintf(err, len,
				 "%s: validate: unknown validator '%.*s' (pi, "
				 "chain, mbwi, football, none or auto)",
				 sc->file, (int)(n < 64 ? n : 64), p);
			*mask = 0;
			return -EINVAL;
		}
		*mask |= names[k].bit;
		is_auto |= !strcmp(names[k].name, "auto");
		p += n;
	}
	/* "auto": chain-shaped (an owner requests a lock while holding
	 * one) is a chain, anything else pi */
	if (is_auto)
		*mask |= chain_shaped(sc) ? IL_JUDGE_CHAIN : IL_JUDGE_PI;
	return 0;
}

void il_judge_calib_needed(const struct il_scenario *sc,
			   const struct il_engine_result *er, unsigned mask,
			   bool need[IL_MAX_TASKS])
{
	int head;

	memset(need, 0, IL_MAX_TASKS * sizeof(need[0]));
	if (mask & IL_JUDGE_PI)
		il_model_pi_needs(sc, er, need);
	if (mask & IL_JUDGE_CHAIN) {
		head = il_model_chain_head(sc);
		if (head >= 0)
			need[head] = true;
	}
	if (mask & IL_JUDGE_FOOTBALL) {
		head = il_model_football_top(sc);
		if (head >= 0)
			need[head] = true;
	}
}

bool il_judge_calib_any_needed(const struct il_scenario *sc, unsigned mask)
{
	(void)sc;
	return (mask & IL_JUDGE_MBWI) != 0;
}

void il_judge_calib_of(const struct il_scenario *sc,
		       const struct il_engine_result *er, int task,
		       struct il_judge_calib *c)
{
	memset(c, 0, sizeof(*c));
	c->samples = IL_JUDGE_CALIB_SAMPLES;
	c->period_ns = IL_JUDGE_CALIB_PERIOD;
	if (task < 0 || task >= sc->ntasks) {
		c->cpu = -1;
		c->sched.policy = IL_SCHED_FIFO;
		c->sched.prio = 98;
		return;
	}
	c->cpu = er->tasks[task].cpu;
	c->sched = sc->tasks[task].sched;
}

int il_judge_run(const struct il_scenario *sc,
		 const struct il_engine_result *er,
		 const struct il_judge_env *env, unsigned mask,
		 struct il_judged *out, int max, int *n, char *why, size_t len)
{
	enum il_verdict job = IL_NONE;
	int first, ret = 0;

	if (!n)
		return -EINVAL;
	first = *n;
	if (!sc || !er || !env || (max && !out) || first < 0 ||
	    er->ntasks != sc->ntasks) {
		snprintf(why, len,
			 "malformed input: the result has %d tasks, "
			 "the scenario %d",
			 er ? er->ntasks : -1, sc ? sc->ntasks : -1);
		return -EINVAL;
	}
	if (sc->g.expect >= 0 && sc->g.expect <= 2)
		job = (enum il_verdict)(IL_PASS + sc->g.expect);
	if (job == IL_NONE) {
		snprintf(why, len, "%s: expect: %d is no verdict", sc->file,
			 sc->g.expect);
		return -EINVAL;
	}
	if (mask & IL_JUDGE_PI)
		ret = il_model_pi(sc, er, env, out, max, n, why, len);
	if (!ret && (mask & IL_JUDGE_CHAIN))
		ret = il_model_chain(sc, er, env, out, max, n, why, len);
	if (!ret && (mask & IL_JUDGE_MBWI))
		ret = il_model_mbwi(sc, er, env, out, max, n, why, len);
	if (!ret && (mask & IL_JUDGE_FOOTBALL))
		ret = il_model_football(sc, er, env, out, max, n, why, len);
	for (int i = first; i < *n; i++) {
		/* a model that left a check without a verdict failed */
		if (out[i].c.verdict == IL_NONE && !ret) {
			snprintf(why, len, "%s %s: no verdict",
				 out[i].validator, out[i].task);
			ret = -EINVAL;
		}
		if (out[i].expected == IL_NONE)
			out[i].expected = job;
	}
	/* what was judged stays, but only checks with a verdict */
	if (ret) {
		int k = first;

		for (int i = first; i < *n; i++)
			if (out[i].c.verdict != IL_NONE)
				out[k++] = out[i];
		*n = k;
	}
	return ret;
}
