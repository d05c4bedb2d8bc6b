// SPDX-License-Identifier: MIT
/*
 * The pi-chain demo's reports (pi-chain.h): the head's waits and each
 * link after a run, the JSON of the scenario and of each run, the --live
 * rows.
 */
#include <inttypes.h>

#include <invlab/time.h>

#include "pi-chain.h"

#define TASK(r, i) (&(r)->er->tasks[il_scenario_task((r)->sc, chain_m[i].name)])

void chain_run_note(struct drv *d, const struct drv_run *r, FILE *f,
		    const char *pfx)
{
	const struct il_lock_result *lr = TASK(r, 0)->locks[0];
	char s[5][24], indent[16];
	struct il_table t;

	il_format_stat(s[0], 24, &lr->blocked, 0.5);
	il_format_stat(s[1], 24, &lr->blocked, 0.99);
	il_format_stat(s[2], 24, &lr->blocked, 0.999);
	il_format_stat(s[3], 24, &lr->blocked, -1);
	il_format_duration(s[4], 24, r->nck ? r->ck[0].c.bound_ns : 0);
	fprintf(f,
		"%s  head blocked p50 %s, p99 %s, p999 %s, max %s over %zu "
		"rounds (%zu with a late owner not judged); bound %s\n",
		pfx, s[0], s[1], s[2], s[3], lr->nsamples, lr->late, s[4]);
	il_table_init(&t);
	il_table_col(&t, "link", false);
	il_table_col(&t, "owner", false);
	il_table_col(&t, "cpu", true);
	il_table_col(&t, "own work", true);
	il_table_col(&t, "ran boosted after: p50", true);
	il_table_col(&t, "max", true);
	il_table_col(&t, "times", true);
	for (int k = 1; k < chain_depth; k++) {
		const struct il_task_result *o = TASK(r, k);

		il_format_duration(s[0], 24, o->hold_max[k - 1]);
		il_format_stat(s[1], 24, &o->boost, 0.5);
		il_format_stat(s[2], 24, &o->boost, -1);
		il_table_cell(&t, "R%d", k);
		il_table_cell(&t, "%s", chain_m[k].name);
		if (chain_m[k].cpu >= 0)
			il_table_cell(&t, "%d", chain_m[k].cpu);
		else if (chain_m[k].node >= 0)
			il_table_cell(&t, "node %d", chain_m[k].node);
		else
			il_table_cell(&t, "any");
		for (int c = 0; c < 3; c++)
			il_table_cell(&t, "%s", s[c]);
		il_table_cell(&t, "%" PRIu64, o->boost.count);
	}
	snprintf(indent, sizeof(indent), "%s  ", pfx);
	il_table_print_prefixed(&t, f, indent);
	il_table_free(&t);
}

void chain_json_head(struct drv *d, struct il_json *j)
{
	const struct chain_cfg *g = d->cfg;

	il_json_begin_object(j, "scenario");
	il_json_int(j, "depth", chain_depth);
	il_json_uint(j, "cs_ns", g->cs_ns);
	il_json_uint(j, "link_work_ns", g->work_ns);
	il_json_uint(j, "hog_ns", g->hog_ns);
	il_json_int(j, "hog_prio", chain_m[0].prio - 5);
	il_json_uint(j, "duration_ns", g->common.duration_ns);
	il_json_str(j, "place",
		    g->place == CHAIN_PLACE_NODES ? "nodes" : "cpus");
	il_json_begin_array(j, "members");
	for (int i = 0; i < chain_depth; i++) {
		il_json_begin_object(j, NULL);
		il_json_str(j, "name", chain_m[i].name);
		il_json_str(j, "class", chain_cls_names[chain_m[i].cls]);
		il_json_int(j, "prio", chain_m[i].prio);
		if (chain_m[i].cpu >= 0)
			il_json_int(j, "cpu", chain_m[i].cpu);
		else
			il_json_null(j, "cpu");
		if (chain_m[i].node >= 0)
			il_json_int(j, "node", chain_m[i].node);
		else
			il_json_null(j, "node");
		il_json_end_object(j);
	}
	il_json_end_array(j);
	il_json_end_object(j);
}

void chain_json_run(struct drv *d, const struct drv_run *r, struct il_json *j)
{
	drv_json_subject(d, r, j);
	il_json_uint(j, "rounds_late_owner", TASK(r, 0)->locks[0]->late);
	il_json_uint(j, "cross_cpu_handoffs", (uint64_t)chain_hops);
	il_json_str(j, "numa", r->er->numa);
	il_json_begin_array(j, "links");
	for (int k = 1; k < chain_depth; k++) {
		il_json_begin_object(j, NULL);
		il_json_str(j, "owner", chain_m[k].name);
		il_json_uint(j, "own_work_ns", TASK(r, k)->hold_max[k - 1]);
		il_json_hist(j, "ran_boosted_after_ns", &TASK(r, k)->boost);
		il_json_end_object(j);
	}
	il_json_end_array(j);
}

/* --live: the head's waits and each owner's boost as they come */
int chain_live_rows(struct drv *d, const struct drv_run *r,
		    const struct il_engine_result *er, struct drv_live_row *row,
		    int max)
{
	int n = 0;

	for (int i = 0; i < chain_depth && n < max; i++, n++) {
		const struct il_task_result *t =
			&er->tasks[il_scenario_task(r->sc, chain_m[i].name)];

		snprintf(row[n].name, sizeof(row[n].name), "%.20s %s",
			 chain_m[i].name, i ? "boosted after" : "blocked");
		row[n].h = i ? &t->boost : &t->locks[0]->blocked;
	}
	return n;
}
