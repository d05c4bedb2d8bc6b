// SPDX-License-Identifier: MIT
/*
 * The judge (validators/include/invlab/judge.h) as the demos judged runs
 * so far: the pi and chain checks of a job, and the M-BWI checks through
 * mbwi-common.c.  Kept here until the validators library implements the
 * interface; the driver calls nothing else.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <invlab/chain.h>
#include <invlab/hist.h>
#include <invlab/judge.h>
#include <invlab/sysinfo.h>
#include <invlab/validate.h>

#include "demo.h"
#include "mbwi-common.h"

/* the noise allowance: p90 of the task's idle wakeup calibration */
static int noise_of(const struct il_judge_env *env, int i, uint64_t *eps,
		    char *why, size_t len)
{
	const struct il_hist *h = env->calib[i];

	if (!h) {
		snprintf(why, len, "no calibration for task %d", i);
		return -EINVAL;
	}
	if (il_hist_percentile_upper(h, 0.90, eps))
		*eps = h->count ? h->max : 0;
	return 0;
}

static int rank(const struct il_sched *s)
{
	if (s->policy == IL_SCHED_DEADLINE)
		return 200;
	if (s->policy == IL_SCHED_FIFO || s->policy == IL_SCHED_RR)
		return 100 + s->prio;
	return 0;
}

static int first_lock(const struct il_task *t)
{
	for (int p = 0; p < t->nphases; p++)
		if (t->phases[p].kind == IL_PH_LOCK)
			return t->phases[p].res;
	return -1;
}

/* `pi`: one check per real-time task that takes locks */
static int check_pi(const struct il_scenario *sc,
		    const struct il_engine_result *er,
		    const struct il_judge_env *env, struct il_judged *out,
		    int *n, char *why, size_t len)
{
	for (int i = 0; i < sc->ntasks; i++) {
		const struct il_task *t = &sc->tasks[i];
		const struct il_task_result *r = &er->tasks[i];
		uint64_t L[IL_MAX_TASKS * IL_MAX_RESOURCES] = { 0 };
		int ceil[IL_MAX_RESOURCES] = { 0 }, nl = 0, lower = 0;
		int locks[IL_MAX_RESOURCES];
		bool all_protect = true;
		struct il_bound_input in = { 0 };
		uint64_t eps = 0;
		int ret;

		if (!r->nlocks || !rank(&t->sched))
			continue;
		/* beta_i: the locks it requests */
		for (int p = 0; p < t->nphases; p++) {
			int res = t->phases[p].res, seen = 0;

			if (t->phases[p].kind != IL_PH_LOCK)
				continue;
			for (int k = 0; k < nl; k++)
				seen |= locks[k] == res;
			if (!seen)
				locks[nl++] = res;
		}
		for (int k = 0; k < nl; k++) {
			const struct il_resource *rs = &sc->res[locks[k]];

			all_protect &= rs->k.protocol == IL_PROTO_PROTECT;
			ceil[k] = rs->k.ceiling ? (int)rs->k.ceiling : 99;
		}
		/* L[j][l]: longest section of each lower task on each lock */
		for (int j = 0; j < sc->ntasks; j++) {
			uint64_t any = 0;

			if (j == i ||
			    rank(&sc->tasks[j].sched) >= rank(&t->sched))
				continue;
			for (int k = 0; k < nl; k++) {
				L[lower * nl + k] =
					er->tasks[j].hold_max[locks[k]];
				any |= L[lower * nl + k];
			}
			if (any)
				lower++;
		}
		/* no lower-priority task shares a lock with it: nothing to
		 * bound */
		if (!lower)
			continue;
		ret = noise_of(env, i, &eps, why, len);
		if (ret)
			return ret;
		if (all_protect) {
			in.bound_name = "immediate priority ceiling (one CPU)";
			in.bound_ns =
				il_ceiling_bound(L, ceil, t->sched.prio,
						 (size_t)lower, (size_t)nl);
		} else {
			in.bound_name = "priority inheritance (one CPU)";
			in.bound_ns = il_pi_bound(L, (size_t)lower, (size_t)nl);
		}
		in.noise_ns = eps;
		in.min_samples = 20;
		in.outlier_ns = demo_outlier_ns(env->calib[i], in.bound_ns);
		out[*n].validator = "pi";
		snprintf(out[*n].task, sizeof(out[*n].task), "%s", t->name);
		il_check_blocking(&in, r->locks[0]->samples,
				  r->locks[0]->nsamples, &out[*n].c);
		(*n)++;
	}
	return 0;
}

/*
 * `chain`: the highest-priority task that takes a lock is the head; each
 * lock's owner is its other, lower-priority user; an owner that requests
 * another lock while holding one extends the chain.
 */
static int check_chain(const struct il_scenario *sc,
		       const struct il_engine_result *er,
		       const struct il_judge_env *env, struct il_judged *out,
		       int *n, char *why, size_t len)
{
	struct il_chain_link links[IL_MAX_TASKS];
	struct il_interferer other[IL_MAX_TASKS];
	struct il_chain_input in = { 0 };
	uint32_t in_chain = 0;
	int head = -1, nlinks = 0, nother = 0, res, hops = 0, prev;
	uint64_t eps = 0;
	struct il_judged *c = &out[*n];
	int ret;

	for (int i = 0; i < sc->ntasks; i++)
		if (first_lock(&sc->tasks[i]) >= 0 &&
		    (head < 0 ||
		     rank(&sc->tasks[i].sched) > rank(&sc->tasks[head].sched)))
			head = i;
	c->validator = "chain";
	if (head < 0) {
		snprintf(c->task, sizeof(c->task), "-");
		c->c.verdict = IL_UNDECIDED;
		snprintf(c->c.evidence, sizeof(c->c.evidence),
			 "bound does not apply: no task takes a lock");
		(*n)++;
		return 0;
	}
	snprintf(c->task, sizeof(c->task), "%s", sc->tasks[head].name);
	in_chain = 1u << head;
	prev = head;
	res = first_lock(&sc->tasks[head]);
	while (res >= 0 && nlinks < IL_MAX_TASKS) {
		int owner = -1, next = -1;
		bool holds = false;

		/* the owner: the one other task below the head that locks it */
		for (int j = 0; j < sc->ntasks; j++) {
			if ((in_chain & (1u << j)) ||
			    rank(&sc->tasks[j].sched) >=
				    rank(&sc->tasks[head].sched))
				continue;
			for (int p = 0; p < sc->tasks[j].nphases; p++)
				if (sc->tasks[j].phases[p].kind == IL_PH_LOCK &&
				    sc->tasks[j].phases[p].res == res) {
					owner = owner == -1 ? j : -2;
					break;
				}
		}
		if (owner < 0) {
			c->c.verdict = IL_UNDECIDED;
			snprintf(c->c.evidence, sizeof(c->c.evidence),
				 "bound does not apply: resource '%s' has %s "
				 "owner below the head",
				 sc->res[res].name,
				 owner == -1 ? "no" : "more than one");
			(*n)++;
			return 0;
		}
		/* the next link: what the owner requests while holding res */
		for (int p = 0; p < sc->tasks[owner].nphases && next < 0; p++) {
			const struct il_phase *ph = &sc->tasks[owner].phases[p];

			if (ph->kind == IL_PH_LOCK && ph->res == res)
				holds = true;
			else if (ph->kind == IL_PH_UNLOCK && ph->res == res)
				holds = false;
			else if (holds && ph->kind == IL_PH_LOCK)
				next = ph->res;
		}
		in_chain |= 1u << owner;
		links[nlinks].own_ns = er->tasks[owner].hold_max[res];
		links[nlinks].cpu =
			er->tasks[owner].cpu >= 0 ? er->tasks[owner].cpu : 0;
		if (er->tasks[owner].cpu < 0 ||
		    er->tasks[owner].cpu != er->tasks[prev].cpu)
			hops++;
		nlinks++;
		prev = owner;
		res = next;
	}
	/* every other task pinned to one CPU may interfere; spinning and
	 * running tasks are taken as hogs that never yield */
	for (int j = 0; j < sc->ntasks; j++) {
		const struct il_task *t = &sc->tasks[j];
		uint64_t work = 0;

		if ((in_chain & (1u << j)) || er->tasks[j].cpu < 0)
			continue;
		for (int p = 0; p < t->nphases; p++)
			if (t->phases[p].kind == IL_PH_RUN ||
			    t->phases[p].kind == IL_PH_SPIN)
				work += t->phases[p].ns;
		other[nother].cpu = er->tasks[j].cpu;
		other[nother].prio = rank(&t->sched) - 100;
		other[nother].wcet_ns = work;
		other[nother].period_ns = 0;
		nother++;
	}
	ret = noise_of(env, head, &eps, why, len);
	if (ret)
		return ret;
	in.links = links;
	in.nlinks = (size_t)nlinks;
	in.head_prio = rank(&sc->tasks[head].sched) - 100;
	in.interferers = other;
	in.ninterferers = (size_t)nother;
	in.horizon_ns = sc->g.timeout_ns;
	/* one wakeup for the head, one per lock handed across CPUs, and a
	 * tick per owner boosted on another CPU (see pi-chain.c) */
	in.noise_ns =
		(uint64_t)(hops + 1) * eps + (uint64_t)hops * env->tick_ns;
	in.min_samples = 20;
	in.outlier_ns = demo_outlier_ns(env->calib[head], UINT64_MAX);
	il_check_chain(&in, er->tasks[head].locks[0]->samples,
		       er->tasks[head].locks[0]->nsamples, &c->c);
	(*n)++;
	return 0;
}

/* chain-shaped: some owner below the head requests a lock while holding
 * the one the head wants */
static bool looks_like_chain(const struct il_scenario *sc)
{
	for (int i = 0; i < sc->ntasks; i++) {
		const struct il_task *t = &sc->tasks[i];
		uint32_t held = 0;

		for (int p = 0; p < t->nphases; p++) {
			const struct il_phase *ph = &t->phases[p];

			if (ph->kind == IL_PH_LOCK) {
				if (held)
					return true;
				held |= 1u << ph->res;
			} else if (ph->kind == IL_PH_UNLOCK) {
				held &= ~(1u << ph->res);
			}
		}
	}
	return false;
}

int il_judge_validators(const struct il_scenario *sc, unsigned *mask, char *err,
			size_t len)
{
	*mask = 0;
	for (const char *p = sc->g.validate; p && *p;) {
		char name[IL_NAME_MAX];
		size_t n;

		while (*p == ' ' || *p == ',')
			p++;
		n = strcspn(p, ", ");
		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		p += n;
		if (!n || !strcmp(name, "none"))
			continue;
		if (!strcmp(name, "pi"))
			*mask |= IL_JUDGE_PI;
		else if (!strcmp(name, "chain"))
			*mask |= IL_JUDGE_CHAIN;
		else if (!strcmp(name, "mbwi"))
			*mask |= IL_JUDGE_MBWI;
		else if (!strcmp(name, "auto"))
			*mask |= looks_like_chain(sc) ? IL_JUDGE_CHAIN
						      : IL_JUDGE_PI;
		else {
			snprintf(err, len,
				 "%s: validate: unknown validator '%s' (pi, "
				 "chain, mbwi, none or auto)",
				 sc->file, name);
			return -EINVAL;
		}
	}
	return 0;
}

void il_judge_calib_needed(const struct il_scenario *sc,
			   const struct il_engine_result *er, unsigned mask,
			   bool need[IL_MAX_TASKS])
{
	int head = -1;

	for (int i = 0; i < sc->ntasks; i++) {
		need[i] = false;
		if ((mask & IL_JUDGE_PI) && er->tasks[i].nlocks &&
		    rank(&sc->tasks[i].sched))
			need[i] = true;
		if (first_lock(&sc->tasks[i]) >= 0 &&
		    (head < 0 ||
		     rank(&sc->tasks[i].sched) > rank(&sc->tasks[head].sched)))
			head = i;
	}
	if ((mask & IL_JUDGE_CHAIN) && head >= 0)
		need[head] = true;
}

int il_judge_run(const struct il_scenario *sc,
		 const struct il_engine_result *er,
		 const struct il_judge_env *env, unsigned mask,
		 struct il_judged *out, int max, int *n, char *why, size_t len)
{
	static struct demo_check mc[2 * IL_MAX_TASKS + 2];
	struct demo_mbwi_opts mo;
	static struct il_sysinfo si;
	int ret = 0, nm = 0;

	*n = 0;
	if (max < 2 * IL_MAX_TASKS + 2)
		return -EINVAL;
	if (mask & IL_JUDGE_PI)
		ret = check_pi(sc, er, env, out, n, why, len);
	if (!ret && (mask & IL_JUDGE_CHAIN))
		ret = check_chain(sc, er, env, out, n, why, len);
	if (!ret && (mask & IL_JUDGE_MBWI)) {
		memset(&mo, 0, sizeof(mo));
		memcpy(mo.declared, env->declared, sizeof(mo.declared));
		mo.unreserved = env->unreserved;
		if (!si.cpus_online)
			il_sysinfo_read(&si);
		ret = demo_check_mbwi(sc, er, &si, &mo, &demo_stop, mc, &nm,
				      max - *n, why, len);
		for (int i = 0; !ret && i < nm; i++) {
			struct il_judged *o = &out[(*n)++];

			o->validator = mc[i].validator;
			snprintf(o->task, sizeof(o->task), "%s", mc[i].task);
			o->c = mc[i].c;
			o->expected =
				mc[i].has_expected ? mc[i].expected : IL_NONE;
		}
	}
	/* a check without its own expectation takes the job's */
	for (int i = 0; i < *n; i++)
		if (out[i].expected == IL_NONE)
			out[i].expected =
				(enum il_verdict)(IL_PASS + sc->g.expect);
	return ret;
}
