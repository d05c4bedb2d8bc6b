// SPDX-License-Identifier: MIT
/*
 * The kmutex demo's reports (kmutex-demo.h): the header, a note per run
 * and the table of every run at the end, the JSON of the scenario and of
 * each run.
 */
#include <inttypes.h>
#include <string.h>

#include <invlab/strbuf.h>
#include <invlab/time.h>

#include "kmutex-demo.h"

static struct km_setup *const su = &km_su;

/* what the reports read of the current run; kmutex.c fills them in */
struct km_run km_cur;
uint64_t km_alone_p99, km_alone_max;

const struct il_hist *km_fg_calls(const struct drv_run *r)
{
	return &r->er->tasks[km_cur.fg].locks[0]->blocked;
}

void km_header(struct drv *d, FILE *f)
{
	const struct km_cfg *cfg = d->cfg;
	struct il_kmutex_params p = {
		.recipe = (enum il_km_recipe)cfg->recipe,
		.via = (enum il_km_via)cfg->via,
		.size = cfg->size,
		.source = cfg->source,
	};
	char dur[64] = "", desc[160], q[24];

	/* the default run says its own (the driver's "runs:" line) */
	if (!d->default_run) {
		il_format_duration(q, sizeof(q), cfg->common.duration_ns);
		snprintf(dur, sizeof(dur), "; %s per configuration", q);
	}
	il_format_duration(q, sizeof(q), su->quantum_ns);
	fprintf(f,
		KM_PROG
		": %s on %s, fg on CPU %d, the owner's CPU in cross-cpu "
		"and rt-waiter %d%s\n",
		il_kmutex_describe(&p, IL_KM_OP_DEFAULT, desc, sizeof(desc)),
		il_kmutex_lock_name((enum il_km_recipe)cfg->recipe), su->cpu,
		su->other, dur);
	fprintf(f,
		"scheduler quantum %s (base slice %s, tick); fair server: "
		"%s\n",
		q, su->slice_src, su->fs.source);
}

/* "2.5x" of h's percentile p (-1: max) over alone's, "-" without one */
static void ratio(char *buf, size_t len, const struct il_hist *h, double p,
		  uint64_t alone)
{
	uint64_t x = h->max;

	if (!alone || !h->count)
		snprintf(buf, len, "-");
	else if (p >= 0 && il_hist_percentile(h, p, &x))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.1fx", (double)x / (double)alone);
}

/* the table of every run, printed at the end; the most samples a row
 * had (p9999 is shown when one has its 10000) */
static struct il_table table;
static int nrows;
static uint64_t most;

void km_run_note(struct drv *d, const struct drv_run *r, FILE *f,
		 const char *pfx)
{
	static const double pct[] = { 0.5, 0.99, 0.999, 0.9999, -1 };
	const struct il_hist *h = km_fg_calls(r);
	char s[24], cost[24];

	if (!nrows++) {
		static const char *const col[] = {
			"configuration", "samples",   "ended",	 "p50",
			"p99",		 "p999",      "p9999",	 "max",
			"p99/alone",	 "max/alone", "verdict",
		};

		il_table_init(&table);
		for (int k = 0; k < 11; k++)
			il_table_col(&table, col[k], k && k != 2 && k < 10);
	}
	if (h->count > most)
		most = h->count;
	il_table_cell(&table, "%s%s", r->name, r->tag);
	il_table_cell(&table, "%" PRIu64, h->count);
	drv_ended_cell(r->er, s, sizeof(s));
	il_table_cell(&table, "%s", s);
	for (int k = 0; k < 5; k++) {
		il_format_stat(s, sizeof(s), h, pct[k]);
		il_table_cell(&table, "%s", s);
	}
	ratio(s, sizeof(s), h, 0.99, km_alone_p99);
	il_table_cell(&table, "%s", s);
	ratio(s, sizeof(s), h, -1, km_alone_max);
	il_table_cell(&table, "%s", s);
	if (!r->nck)
		il_table_cell(&table, "-");
	else {
		char v[96];

		snprintf(v, sizeof(v), "%s%s",
			 il_verdict_name(r->ck[0].c.verdict),
			 km_cur.out.informational ? " (informational)"
			 : r->ck[0].c.verdict == r->ck[0].expected ? ""
			 : demo_as_expected(r->ck[0].c.verdict,
					    r->ck[0].expected, NULL)
				 ? " (undecided)"
				 : " (unexpected)");
		drv_other_checks_cell(r, v, sizeof(v));
		il_table_cell(&table, "%s", v);
	}
	il_format_duration(cost, sizeof(cost), r->er->kmutex_cost_ns[km_cur.k]);
	fprintf(f,
		"%s  %s%s: uncontended cost %s (%s); contender calls %" PRIu64
		"%s%s\n",
		pfx, r->name, r->tag, cost, r->er->kmutex_where[km_cur.k],
		km_cur.bg >= 0 ? r->er->tasks[km_cur.bg].locks[0]->blocked.count
			       : 0,
		r->er->cgroups[0] ? "; cgroups " : "", r->er->cgroups);
}

/*
 * The table, without its p9999 column when no row has the 10000 calls
 * it needs and --percentile does not ask for it (then the line under
 * the table says why p999 is missing where it is).
 */
void km_end_text(struct drv *d, FILE *f, const char *pfx)
{
	const int p9999 = 6; /* the column */
	bool all = most >= il_hist_samples_for(0.9999) ||
		   il_opt_percentile(d->c) > 0.999;
	struct il_table t;

	if (!nrows)
		return;
	il_table_init(&t);
	for (int k = 0; k < table.ncols; k++)
		if (all || k != p9999)
			il_table_col(&t, table.header[k], table.right[k]);
	for (int i = 0; i < table.nrows * table.ncols; i++)
		if (all || i % table.ncols != p9999)
			il_table_cell(&t, "%s", table.cells[i]);
	il_table_print_prefixed(&t, f, pfx);
	il_table_free(&t);
	il_table_free(&table);
	drv_print_short(d, f, pfx, all ? 0.9999 : 0.999);
}

void km_json_head(struct drv *d, struct il_json *j)
{
	const struct km_cfg *cfg = d->cfg;
	const enum il_km_recipe rc = (enum il_km_recipe)cfg->recipe;
	char via[16];

	km_via_name(cfg, via, sizeof(via));
	il_json_begin_object(j, "scenario");
	il_json_str(j, "recipe", il_kmutex_recipe_name(rc));
	il_json_str(j, "lock", il_kmutex_lock_name(rc));
	il_json_str(j, "via", via);
	il_json_uint(j, "size_bytes", km_size(cfg));
	il_json_str(j, "dir", cfg->dir);
	il_json_str(j, "source", cfg->source);
	il_json_uint(j, "period_ns", cfg->period_ns);
	il_json_int(j, "hogs", cfg->hogs);
	il_json_int(j, "bg_weight", cfg->bg_weight);
	il_json_int(j, "hog_weight", cfg->hog_weight);
	il_json_int(j, "cpu", su->cpu);
	if (su->other >= 0)
		il_json_int(j, "other_cpu", su->other);
	else
		il_json_null(j, "other_cpu");
	il_json_int(j, "rt_prio", cfg->rt_prio);
	il_json_int(j, "hog_prio", cfg->hog_prio);
	il_json_uint(j, "duration_ns", cfg->common.duration_ns);
	il_json_int(j, "repeat", cfg->common.repeat);
	il_json_uint(j, "tick_ns", su->tick_ns);
	il_json_uint(j, "base_slice_ns", su->slice_ns);
	il_json_str(j, "base_slice_source", su->slice_src);
	il_json_uint(j, "quantum_ns", su->quantum_ns);
	il_json_uint(j, "fair_server_runtime_ns", su->fs.runtime_ns);
	il_json_uint(j, "fair_server_period_ns", su->fs.period_ns);
	il_json_str(j, "fair_server_source", su->fs.source);
	{
		char why[80];
		bool dm = il_km_donor_migration(&su->si, cfg->donor_migration,
						why, sizeof(why));

		il_json_bool(j, "donor_migration", dm);
		il_json_str(j, "donor_migration_because", why);
	}
	il_json_end_object(j);
}

void km_json_run(struct drv *d, const struct drv_run *r, struct il_json *j)
{
	const struct il_hist *h = km_fg_calls(r);
	const struct il_share_stats *sh = &km_cur.out.share;
	const struct il_check *c = &km_cur.out.check;
	struct il_hist none;
	uint64_t x;

	if (r->nck) {
		il_json_check(j, c);
		if (km_cur.out.informational)
			il_json_null(j, "expected");
		else
			il_json_str(j, "expected",
				    il_verdict_name(km_cur.out.expected));
		il_json_str(j, "expected_because", km_cur.out.expect_why);
		/* from the trace; null without one */
		if (km_cur.out.traced_waits) {
			il_json_uint(j, "traced_waits",
				     km_cur.out.traced_waits);
			il_json_uint(j, "donor_migrated",
				     km_cur.out.donor_migrated);
		} else {
			il_json_null(j, "traced_waits");
			il_json_null(j, "donor_migrated");
		}
	} else {
		il_json_null(j, "verdict");
		il_json_null(j, "expected");
	}
	if (r->config == C_THROTTLED || r->config == C_CROSS_CPU) {
		il_json_double(j, "share_waiter", sh->s_waiter);
		il_json_double(j, "share_owner", sh->s_owner);
		il_json_double(j, "share_ratio", sh->rho);
		il_json_uint(j, "waiter_share_bound_ns", sh->b_waiter_ns);
		il_json_uint(j, "owner_share_bound_ns", sh->b_owner_ns);
		il_json_uint(j, "waits_over_threshold", sh->exceed);
		il_json_double(j, "inversion_factor", sh->factor);
	}
	if (r->config == C_RT_WAITER)
		il_json_str(j, "fair_server", su->fs.source);
	il_json_uint(j, "samples", h->count);
	il_json_uint(j, "uncontended_cost_ns", r->er->kmutex_cost_ns[km_cur.k]);
	il_json_uint(j, "contender_calls",
		     km_cur.bg >= 0
			     ? r->er->tasks[km_cur.bg].locks[0]->blocked.count
			     : 0);
	if (km_alone_p99 && h->count && !il_hist_percentile(h, 0.99, &x))
		il_json_double(j, "p99_to_alone",
			       (double)x / (double)km_alone_p99);
	else
		il_json_null(j, "p99_to_alone");
	if (km_alone_max && h->count)
		il_json_double(j, "max_to_alone",
			       (double)h->max / (double)km_alone_max);
	else
		il_json_null(j, "max_to_alone");
	il_json_uint(j, "steal_ns", r->er->steal_ns);
	il_json_str(j, "placement", r->er->placement);
	il_json_str(j, "cgroups", r->er->cgroups[0] ? r->er->cgroups : NULL);
	il_json_str(j, "where", r->er->kmutex_where[km_cur.k]);
	il_json_hist(j, "blocked_ns", h);
	il_hist_init(&none);
	il_json_hist(j, "contender_blocked_ns",
		     km_cur.bg >= 0 ? &r->er->tasks[km_cur.bg].locks[0]->blocked
				    : &none);
}
