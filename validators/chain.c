// SPDX-License-Identifier: MIT
/*
 * Bounds for mutex chains that span CPUs, and the check behind pi-chain.
 *
 * With priority inheritance the head of a chain waits for the remaining
 * work of every owner down the chain, each boosted to the head's
 * priority (docs/theory.md 4.1, transitive).  Boosting only helps against the
 * tasks it outranks: an owner pinned to a CPU where work above the head's
 * priority runs is delayed by that work however it is boosted, and the
 * head's wait becomes a response-time fixed point (docs/theory.md 4.4).  That
 * is where inheritance alone stops helping, and the check must tell it
 * apart from an inversion: a hog above the head is "no bound applies"
 * (UNDECIDED), a hog below it that still delays the head is a FAIL.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <invlab/chain.h>
#include <invlab/time.h>

#include "check-none.h"

static const char name_pi[] = "transitive priority inheritance";
static const char name_remote[] = "remote blocking fixed point";

int il_chain_pi_bound(const struct il_chain_link *links, size_t nlinks,
		      uint64_t *outer_ns, uint64_t *bound_ns)
{
	uint64_t sum = 0;

	if (!bound_ns || (nlinks && !links))
		return -EINVAL;
	/*
	 * From the tail up: a link's outermost section is its own work
	 * plus the whole section of the link it waits for.
	 */
	for (size_t k = nlinks; k-- > 0;) {
		if (__builtin_add_overflow(sum, links[k].own_ns, &sum))
			return -ERANGE;
		if (outer_ns)
			outer_ns[k] = sum;
	}
	*bound_ns = sum;
	return 0;
}

static int on_owner_cpu(const struct il_chain_input *in, int cpu)
{
	for (size_t k = 0; k < in->nlinks; k++)
		if (in->links[k].cpu == cpu)
			return 1;
	return 0;
}

/* an interferer that can delay a boosted owner */
static int counts(const struct il_chain_input *in,
		  const struct il_interferer *h)
{
	return h->wcet_ns && h->prio > in->head_prio &&
	       on_owner_cpu(in, h->cpu);
}

/* "0,1,3": the owners' CPUs, ascending, each once */
static void format_cpus(char *buf, size_t len, const struct il_chain_input *in)
{
	size_t off = 0;
	int last = -1;

	buf[0] = '\0';
	for (;;) {
		int next = -1, w;

		for (size_t k = 0; k < in->nlinks; k++) {
			int c = in->links[k].cpu;

			if (c > last && (next < 0 || c < next))
				next = c;
		}
		if (next < 0)
			break;
		w = snprintf(buf + off, len - off, "%s%d", off ? "," : "",
			     next);
		if (w < 0 || (size_t)w >= len - off)
			break;
		off += (size_t)w;
		last = next;
	}
}

static int check_input(const struct il_chain_input *in)
{
	if (!in || (in->nlinks && !in->links) ||
	    (in->ninterferers && !in->interferers))
		return -EINVAL;
	for (size_t k = 0; k < in->nlinks; k++)
		if (in->links[k].cpu < 0)
			return -EINVAL;
	for (size_t i = 0; i < in->ninterferers; i++)
		if (in->interferers[i].cpu < 0)
			return -EINVAL;
	return 0;
}

/* sum_{h counted} ceil(b / T_h) * C_h, or -ERANGE past 64 bits */
static int interference(const struct il_chain_input *in, uint64_t b,
			uint64_t *sum)
{
	*sum = 0;
	for (size_t i = 0; i < in->ninterferers; i++) {
		const struct il_interferer *h = &in->interferers[i];
		uint64_t jobs, t;

		if (!counts(in, h))
			continue;
		jobs = b / h->period_ns + (b % h->period_ns != 0);
		if (__builtin_mul_overflow(jobs, h->wcet_ns, &t) ||
		    __builtin_add_overflow(*sum, t, sum))
			return -ERANGE;
	}
	return 0;
}

/*
 * Why one joint fixed point over the whole chain, not one per link
 * summed.  The head waits one contiguous window of length b.  Whenever
 * the chain is not making progress in it, the owner it waits on is
 * preempted by a counted interferer on that owner's CPU.  An interferer
 * releases at most ceil(b / T) jobs into a window of length b (counting
 * the one pending when it opens), so it takes at most ceil(b / T) * C of
 * the window, however the chain's work is spread over time and CPUs.
 *
 * Per-link fixed points would charge ceil(b_k / T) * C to link k, which
 * assumes link k's work fills one contiguous stretch of length b_k.  It
 * does not when an owner works both before and after its nested section:
 * with a long downstream section in between, one interferer job can hit
 * each half although b_k is far shorter than T, and the per-link sum
 * comes out below what can happen (test_validate_chain.c has a case).
 * The joint form is never below it.  Its price: it charges every owner
 * CPU's interferers over the whole window, so it is larger when owners
 * are spread over CPUs, and it diverges once the utilizations summed
 * over all owner CPUs reach 1 even if each CPU alone has room.  That
 * ends as UNDECIDED ("bound does not apply"), never as a false FAIL.
 */
static int fixed_point(const struct il_chain_input *in,
		       struct il_chain_bound *out, const char *cpus)
{
	char h[24], r[24];
	uint64_t b = out->own_ns, next, sum;
	uint64_t limit = in->horizon_ns ? in->horizon_ns : UINT64_MAX;

	for (size_t i = 0; i < in->ninterferers; i++) {
		const struct il_interferer *x = &in->interferers[i];

		if (!counts(in, x))
			continue;
		if (!x->period_ns) {
			snprintf(out->desc, sizeof(out->desc),
				 "a task at priority %d on owner CPU %d, above "
				 "the head's %d, never yields the CPU",
				 x->prio, x->cpu, in->head_prio);
			return -ERANGE;
		}
		out->counted++;
		out->util += (double)x->wcet_ns / (double)x->period_ns;
	}
	/*
	 * With U >= 1, b(n+1) >= own + U * b(n) grows without end.  The
	 * test is in floating point; a U that rounds to just below 1 ends
	 * at the horizon or the step limit instead, with the same answer.
	 */
	if (out->util >= 1.0) {
		snprintf(out->desc, sizeof(out->desc),
			 "work above priority %d on owner CPUs %s has "
			 "utilization %.2f >= 1: the fixed point diverges",
			 in->head_prio, cpus, out->util);
		return -ERANGE;
	}
	il_format_duration(h, sizeof(h), in->horizon_ns);
	for (;;) {
		if (interference(in, b, &sum) ||
		    __builtin_add_overflow(out->own_ns, sum, &next)) {
			snprintf(out->desc, sizeof(out->desc),
				 "the fixed point on owner CPUs %s does not "
				 "fit 64 bits",
				 cpus);
			return -ERANGE;
		}
		out->iterations++;
		if (next == b)
			break;
		/* b(n) only grows: once past the limit it stays there */
		if (next > limit ||
		    out->iterations >= IL_CHAIN_MAX_ITERATIONS) {
			il_format_duration(r, sizeof(r), next);
			snprintf(out->desc, sizeof(out->desc),
				 "the fixed point on owner CPUs %s passed %s "
				 "after %u steps (utilization %.2f above "
				 "priority %d)",
				 cpus, next > limit ? h : r, out->iterations,
				 out->util, in->head_prio);
			return -ERANGE;
		}
		b = next;
	}
	out->bound_ns = b;
	return 0;
}

int il_chain_bound(const struct il_chain_input *in, struct il_chain_bound *out)
{
	char cpus[64];
	int ret;

	if (!out || check_input(in))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->name = name_pi;
	ret = il_chain_pi_bound(in->links, in->nlinks, NULL, &out->own_ns);
	if (ret) {
		snprintf(out->desc, sizeof(out->desc),
			 "the chain's own work does not fit 64 bits");
		return ret;
	}
	for (size_t i = 0; i < in->ninterferers; i++)
		if (counts(in, &in->interferers[i]))
			out->name = name_remote;
	if (out->name == name_pi) {
		/*
		 * Nothing above the head on an owner CPU: inheritance
		 * alone decides, and the fixed point would be own anyway.
		 */
		out->bound_ns = out->own_ns;
		snprintf(out->desc, sizeof(out->desc), "%s, %zu link%s",
			 name_pi, in->nlinks, in->nlinks == 1 ? "" : "s");
		return 0;
	}
	format_cpus(cpus, sizeof(cpus), in);
	ret = fixed_point(in, out, cpus);
	if (ret)
		return ret;
	snprintf(out->desc, sizeof(out->desc),
		 "%s, owner CPUs %s (%zu link%s, %zu task%s above priority %d, "
		 "utilization %.2f)",
		 name_remote, cpus, in->nlinks, in->nlinks == 1 ? "" : "s",
		 out->counted, out->counted == 1 ? "" : "s", in->head_prio,
		 out->util);
	return 0;
}

int il_remote_blocking_bound(uint64_t owner_ns, int cpu, int head_prio,
			     const struct il_interferer *h, size_t nh,
			     uint64_t horizon_ns, uint64_t *b_ns)
{
	const struct il_chain_link link = { .own_ns = owner_ns, .cpu = cpu };
	const struct il_chain_input in = {
		.links = &link,
		.nlinks = 1,
		.head_prio = head_prio,
		.interferers = h,
		.ninterferers = nh,
		.horizon_ns = horizon_ns,
	};
	struct il_chain_bound b;
	int ret;

	if (!b_ns)
		return -EINVAL;
	ret = il_chain_bound(&in, &b);
	if (!ret)
		*b_ns = b.bound_ns;
	return ret;
}

static int applies(const struct il_chain_input *in, struct il_chain_bound *b,
		   char *why, size_t len)
{
	int ret;

	memset(b, 0, sizeof(*b));
	if (check_input(in))
		return -EINVAL;
	for (size_t i = 0; i < in->ninterferers; i++) {
		const struct il_interferer *h = &in->interferers[i];

		/*
		 * A boosted owner is queued behind a running task of equal
		 * SCHED_FIFO priority and waits for it to block, for as
		 * long as that takes.  The fixed point counts only tasks
		 * strictly above the head, so say so rather than guess.
		 */
		if (h->wcet_ns && h->prio == in->head_prio &&
		    on_owner_cpu(in, h->cpu)) {
			if (why && len)
				snprintf(why, len,
					 "a task at the head's priority %d "
					 "runs on owner CPU %d, and a boosted "
					 "owner queues behind it",
					 h->prio, h->cpu);
			return 0;
		}
	}
	ret = il_chain_bound(in, b);
	if (ret == -ERANGE) {
		if (why && len)
			snprintf(why, len, "%s", b->desc);
		return 0;
	}
	if (ret)
		return ret;
	if (why && len)
		why[0] = '\0';
	return 1;
}

int il_chain_bound_applies(const struct il_chain_input *in, char *why,
			   size_t len)
{
	struct il_chain_bound b;

	return applies(in, &b, why, len);
}

static int check_chain_(const struct il_chain_input *in,
			const struct il_wait_sample *s, size_t n,
			struct il_check *out)
{
	char why[sizeof(((struct il_chain_bound *)0)->desc)];
	char inner[sizeof(out->evidence)];
	struct il_chain_bound b;
	struct il_bound_input bi;
	size_t off, len;
	int ret;

	if (!out || (n && !s))
		return -EINVAL;
	ret = applies(in, &b, why, sizeof(why));
	if (ret < 0)
		return ret;
	if (!ret) {
		memset(out, 0, sizeof(*out));
		out->verdict = IL_UNDECIDED;
		out->bound_name = b.name ? b.name : name_remote;
		out->noise_ns = in->noise_ns;
		for (size_t i = 0; i < n; i++) {
			uint64_t d = s[i].delay_ns > s[i].foreign_ns
					     ? s[i].delay_ns - s[i].foreign_ns
					     : 0;

			if (d > out->worst_ns)
				out->worst_ns = d;
		}
		snprintf(out->evidence, sizeof(out->evidence),
			 "bound does not apply: %s", why);
		return 0;
	}
	bi = (struct il_bound_input){
		.bound_name = b.name,
		.bound_ns = b.bound_ns,
		.noise_ns = in->noise_ns,
		.min_samples = in->min_samples,
		.outlier_ns = in->outlier_ns,
		.steal_ns = in->steal_ns,
	};
	ret = il_check_blocking(&bi, s, n, out);
	if (ret)
		return ret;
	/*
	 * Name the bound first; if the whole does not fit, the end of
	 * the check's own sentence goes, never which bound was applied.
	 */
	memcpy(inner, out->evidence, sizeof(inner));
	off = (size_t)snprintf(out->evidence, sizeof(out->evidence),
			       "%s: ", b.desc);
	len = strnlen(inner, sizeof(out->evidence) - off - 1);
	memcpy(out->evidence + off, inner, len);
	out->evidence[off + len] = '\0';
	return 0;
}

int il_check_chain(const struct il_chain_input *in,
		   const struct il_wait_sample *s, size_t n,
		   struct il_check *out)
{
	return il_check_none(out, check_chain_(in, s, n, out), "chain check");
}
