// SPDX-License-Identifier: MIT
/*
 * The affinity check (affinity.h): where the trace shows a task pinned
 * to one CPU run, and whether each move off its CPU was undone before it
 * ran again.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <invlab/affinity.h>
#include <invlab/time.h>

void il_affinity_tally(const struct il_trace *t, int pid, int cpu,
		       uint64_t from_ns, struct il_affinity *p)
{
	uint64_t moved = 0; /* when it was last moved off its CPU */
	bool off = false;   /* and is not seen running since */

	memset(p, 0, sizeof(*p));
	p->cpu = cpu;
	if (!t || pid <= 0 || cpu < 0)
		return;
	p->traced = 1;
	for (size_t k = il_trace_rec_from(t, from_ns, false); k < t->n; k++) {
		const struct il_trace_rec *r = &t->rec[k];

		if (r->kind == IL_TR_MIGRATE && r->prev_pid == pid) {
			/*
			 * cpu: where it goes, next_pid: where from.  Moves
			 * before it runs again are one move away, its next
			 * run says where it ended up.  A move back to its
			 * CPU says it was away, whether or not the move
			 * there was traced (7.2's proxy_migrate_task() is
			 * not: docs/proxy-exec.md).
			 */
			if ((r->cpu != cpu || r->next_pid != cpu) && !off) {
				p->away++;
				moved = r->ts;
				off = true;
			}
			continue;
		}
		if (r->kind != IL_TR_SWITCH || r->next_pid != pid)
			continue;
		p->runs++;
		if (r->cpu != cpu) {
			if (!p->outside) {
				p->outside_cpu = r->cpu;
				p->outside_at_ns = r->ts;
				p->outside_late_ns = off ? r->ts - moved : 0;
			}
			p->outside++;
		} else if (off) {
			p->returned++;
		}
		off = false;
	}
}

int il_check_affinity(const struct il_affinity *p, const char *task,
		      struct il_check *out)
{
	char late[24];

	if (!p || !task || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->bound_name = "affinity: runs only on its CPU";
	if (!p->traced || (!p->away && !p->outside))
		return 0;
	out->by_trace = 1;
	out->worst_ns = p->outside_late_ns;
	if (p->outside) {
		out->verdict = IL_FAIL;
		if (p->outside_late_ns) {
			il_format_duration(late, sizeof(late),
					   p->outside_late_ns);
			snprintf(out->evidence, sizeof(out->evidence),
				 "%s, pinned to CPU %d, ran on CPU %d %s after "
				 "a migration took it off its CPU, and %llu of "
				 "its %llu runs were off it: the kernel ran it "
				 "outside its affinity (a donor moved off its "
				 "CPU is sent back before it runs)",
				 task, p->cpu, p->outside_cpu, late,
				 (unsigned long long)p->outside,
				 (unsigned long long)p->runs);
		} else
			snprintf(out->evidence, sizeof(out->evidence),
				 "%s, pinned to CPU %d, ran on CPU %d, and "
				 "%llu of its %llu runs were off its CPU: the "
				 "kernel ran it outside its affinity",
				 task, p->cpu, p->outside_cpu,
				 (unsigned long long)p->outside,
				 (unsigned long long)p->runs);
		return 0;
	}
	if (p->returned >= IL_AFFINITY_MIN_RETURNS) {
		out->verdict = IL_PASS;
		snprintf(out->evidence, sizeof(out->evidence),
			 "moved off its CPU %d %llu times (a donor, to its "
			 "lock owner's CPU: seen going or coming back), %s "
			 "ran next on CPU %d each time it was seen again "
			 "(%llu), and on no other CPU in %llu runs",
			 p->cpu, (unsigned long long)p->away, task, p->cpu,
			 (unsigned long long)p->returned,
			 (unsigned long long)p->runs);
		return 0;
	}
	out->verdict = IL_UNDECIDED;
	snprintf(out->evidence, sizeof(out->evidence),
		 "%s ran only on its CPU %d as far as the trace shows, but "
		 "was seen back there after only %llu of %llu moves off it "
		 "(need %d): where it ran meanwhile the trace does not say "
		 "(it records the scenario's CPUs)",
		 task, p->cpu, (unsigned long long)p->returned,
		 (unsigned long long)p->away, IL_AFFINITY_MIN_RETURNS);
	return 0;
}
