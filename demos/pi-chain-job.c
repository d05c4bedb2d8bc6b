// SPDX-License-Identifier: MIT
/*
 * The pi-chain demo's chain as a job file (pi-chain.h), judged as
 * invlab-run judges a job (demos/jobs/pi-chain-3.job is the depth-3 one).
 */
#include <inttypes.h>
#include <string.h>

#include <invlab/cpu.h>
#include <invlab/strbuf.h>
#include <invlab/time.h>

#include "pi-chain.h"

const char *const chain_cls_names[4] = { "fifo", "rr", "deadline", "other" };
struct chain_member chain_m[CHAIN_MAX_DEPTH];
int chain_depth, chain_hops;
char chain_job[8192];

/* --classes into one class per member, head first; -1 with err */
int chain_parse_classes(const char *list, char *err, size_t len)
{
	char buf[256], *save = NULL;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *t = strtok_r(buf, ",", &save); t;
	     t = strtok_r(NULL, ",", &save), n++) {
		int c = 0;

		while (c < 4 && strcmp(t, chain_cls_names[c]))
			c++;
		if (c == 4) {
			snprintf(err, len,
				 "--classes: '%s' is not one of fifo, rr, "
				 "deadline, other",
				 t);
			return -1;
		}
		if (n < chain_depth)
			chain_m[n].cls = c;
	}
	for (int i = 1; n == 1 && i < chain_depth; i++)
		chain_m[i].cls = chain_m[0].cls;
	if (n == 1 || n == chain_depth)
		return 0;
	snprintf(err, len,
		 "--classes: give one class, or one per member (%d); got %d",
		 chain_depth, n);
	return -1;
}

/* Priorities rise from the tail by 10; the head 10 more, the hogs 5
 * below it; one member per CPU in spread order.  Then the job. */
void chain_write_job(const struct chain_cfg *g)
{
	int order[IL_MAX_CPUS], n = il_cpu_spread_order(order, IL_MAX_CPUS);
	uint64_t rt = 2 * g->cs_ns + 2 * IL_NSEC_PER_MSEC, per = 10 * rt;
	bool hog_on[IL_MAX_CPUS] = { false };

	per = per > 50 * IL_NSEC_PER_MSEC ? per : 50 * IL_NSEC_PER_MSEC;
	il_appendf(chain_job, sizeof(chain_job),
		   "[global]\nname = pi-chain\nvalidate = chain\n");
	for (int k = 1; k < chain_depth; k++)
		il_appendf(chain_job, sizeof(chain_job),
			   "[resource R%d]\nprotocol = inherit\n", k);
	for (int i = 0; i < chain_depth; i++) {
		struct chain_member *p = &chain_m[i];

		if (i && i < chain_depth - 1)
			snprintf(p->name, sizeof(p->name), "owner%d", i);
		else
			snprintf(p->name, sizeof(p->name), i ? "tail" : "head");
		p->prio = 10 + 10 * (chain_depth - 1 - i) + (i ? 0 : 10);
		p->cpu = p->cls == C_DEADLINE || n <= 0 ? -1 : order[i % n];
		il_appendf(chain_job, sizeof(chain_job),
			   "[task %s]\nclass = ", p->name);
		if (p->cls == C_DEADLINE)
			il_appendf(chain_job, sizeof(chain_job),
				   "deadline:%" PRIu64 "ns/%" PRIu64
				   "ns/%" PRIu64 "ns\n",
				   rt, per, per);
		else
			il_appendf(chain_job, sizeof(chain_job), "%s:%d\n",
				   chain_cls_names[p->cls],
				   p->cls == C_OTHER ? 0 : p->prio);
		if (p->cpu >= 0)
			il_appendf(chain_job, sizeof(chain_job), "cpu = %d\n",
				   p->cpu);
		if (!i) /* released inside the tail's section */
			il_appendf(chain_job, sizeof(chain_job),
				   "offset = %" PRIu64
				   "ns\nbody = wait h1, signal go, lock R1, "
				   "signal got, unlock R1\n",
				   g->cs_ns / 4);
		else if (i == chain_depth - 1)
			il_appendf(chain_job, sizeof(chain_job),
				   "body = lock R%d, signal h%d, run %" PRIu64
				   "ns, unlock R%d\n",
				   i, i, g->cs_ns, i);
		else /* released once the next owner holds its lock */
			il_appendf(chain_job, sizeof(chain_job),
				   "activation = event\non = h%d\nbody = lock "
				   "R%d, signal h%d, lock R%d, run %" PRIu64
				   "ns, unlock R%d, unlock R%d\n",
				   i + 1, i, i, i + 1, g->work_ns, i + 1, i);
		if (i &&
		    (chain_m[i - 1].cpu != p->cpu || chain_m[i - 1].cpu < 0))
			chain_hops++; /* a lock handed to another CPU */
	}
	for (int k = 1; k < chain_depth; k++) /* a hog per owner's CPU */
		if (chain_m[k].cpu >= 0 && !hog_on[chain_m[k].cpu]) {
			hog_on[chain_m[k].cpu] = true;
			il_appendf(chain_job, sizeof(chain_job),
				   "[task hog%d]\nclass = fifo:%d\ncpu = %d\n"
				   "activation = event\non = go\nbody = spin "
				   "%" PRIu64 "ns until got\n",
				   chain_m[k].cpu, chain_m[0].prio - 5,
				   chain_m[k].cpu, g->hog_ns);
		}
}
