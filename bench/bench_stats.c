// SPDX-License-Identifier: MIT
/*
 * invlab-bench-stats: how often invlab-compare's decision is wrong.
 *
 * It prints three figures: the false-alarm rate (the share of A/A
 * comparisons, both sides drawn alike, that would exit 1) and the
 * detection rates of a 5 % and a 10 % shift of one metric's whole
 * distribution (so its median moves by that much), 5 runs a side (-k:
 * any number up to 64, to see the tests at a lab's run counts).  Each
 * comparison is made as invlab-compare makes it: the default statistics
 * (p50, p99, p999, max, mean) of every metric, the tests and the Holm
 * correction over all rows, the 2 % threshold (stats.h).
 *
 * Where the runs come from:
 *
 * - by default, a seeded model fitted to `pi-classic -p inherit -r 5
 *   -d 1s` on a 2-CPU KVM guest (100 runs, 20 files): five metrics, each
 *   run's samples log-normal around a run median that itself varies
 *   log-normally from run to run, with the sample counts, medians and
 *   the within-run and between-run log spreads measured there.  The
 *   model's tails are log-normal, lighter than the measured wakeup
 *   tails, so it flatters the max and p99 rows a little.
 * - with result files as operands, the runs measured in them: every
 *   comparison draws 5 runs a side from the pool without replacement,
 *   and a shift multiplies every sample of the shifted metric.
 *
 * It is a figure, not a test: it never fails on a figure.
 *
 * Run: build/bench/invlab-bench-stats [-k RUNS] [-m METRIC]
 *          [-n COMPARISONS] [-r RESAMPLES] [-s SEED] [RESULT.json...]
 * (-m: the metric the shift moves, blocked_ns by default)
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <invlab/hist.h>

#include "results.h"
#include "stats.h"

#define MAX_RUNS_A_SIDE 64
#define MAX_METRICS	16
#define MAX_POOL	4096

/* the model, as fitted on this machine (see the header comment) */
static const struct model {
	const char *name;
	unsigned samples; /* per run */
	double median;	  /* ns */
	double sw, sb;	  /* log spread within a run, between runs */
} model[] = {
	{ "blocked_ns", 219, 1536346, 0.0263, 0.0091 },
	{ "wakeup_ns", 219, 34272, 0.3017, 0.1168 },
	{ "release_to_lock_ns", 218, 1576138, 0.0247, 0.0104 },
	{ "holder_cs_cpu_ns", 219, 2005563, 0.0040, 0.0016 },
	{ "calibration_wakeup_ns", 1000, 27379, 0.3658, 0.2893 },
};
#define NMODEL (sizeof(model) / sizeof(model[0]))

static const enum il_res_stat stats[] = { IL_RES_P50, IL_RES_P99, IL_RES_P999,
					  IL_RES_MAX, IL_RES_MEAN };
#define NSTATS (sizeof(stats) / sizeof(stats[0]))

/* runs a side (-k) */
static size_t runs_a_side = 5;
static uint64_t rng_s;
/* the metric a shift moves */
static size_t shifted;

static double unif(void)
{
	uint64_t z = (rng_s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) * 0x1.0p-53;
}

static double normal(void)
{
	return sqrt(-2 * log(unif())) * cos(2 * M_PI * unif());
}

static int metric_init(struct il_res_metric *m, const char *name)
{
	memset(m, 0, sizeof(*m));
	m->name = (char *)name;
	m->merged = malloc(sizeof(*m->merged));
	if (!m->merged)
		return -ENOMEM;
	il_hist_init(m->merged);
	return 0;
}

static void metric_free(struct il_res_metric *m)
{
	il_res_metric_free_runs(m);
	free(m->merged);
}

/* one modelled run of metric k, every sample times shift */
static int model_run(struct il_res_metric *m, const struct model *k,
		     double shift, struct il_hist *h)
{
	double med = k->median * exp(k->sb * normal()) * shift;

	il_hist_init(h);
	for (unsigned i = 0; i < k->samples; i++)
		il_hist_record(h, (uint64_t)(med * exp(k->sw * normal())));
	return il_res_metric_add_run(m, h);
}

/* a measured run's histogram with every bucket's value times shift */
static void scaled(const struct il_hist *src, double shift, struct il_hist *h)
{
	il_hist_init(h);
	for (unsigned j = 0; j < IL_HIST_NBUCKETS; j++) {
		uint64_t lo, v;

		if (!src->bins[j])
			continue;
		lo = il_hist_bucket_lo(j);
		v = lo + (il_hist_bucket_hi(j) - lo) / 2;
		v = v < src->min ? src->min : v > src->max ? src->max : v;
		v = (uint64_t)((double)v * shift);
		for (uint64_t c = 0; c < src->bins[j]; c++)
			il_hist_record(h, v);
	}
}

/* the measured runs: pool[metric][run] */
struct pool {
	size_t nmetrics, nruns;
	const char *names[MAX_METRICS];
	struct il_hist *runs[MAX_METRICS]; /* nruns each */
};

/* every run of every file that has all the metrics of the first run */
static int pool_load(struct pool *p, char **files, int n)
{
	struct il_res_set s;
	char err[512];
	const struct il_res_group *g;

	il_res_set_init(&s, false);
	/* the runs are rebuilt from their buckets below, every one of them */
	s.keep_run_hists = true;
	for (int i = 0; i < n; i++) {
		if (il_res_set_load(&s, files[i], err, sizeof(err))) {
			fprintf(stderr, "invlab-bench-stats: %s\n", err);
			il_res_set_free(&s);
			return -EINVAL;
		}
	}
	if (!s.ngroups) {
		fprintf(stderr, "invlab-bench-stats: no runs in the files\n");
		il_res_set_free(&s);
		return -EINVAL;
	}
	/* the first group only: one configuration is one model */
	g = &s.groups[0];
	memset(p, 0, sizeof(*p));
	p->nruns = g->metrics[0].nruns;
	for (size_t k = 0; k < g->nmetrics && p->nmetrics < MAX_METRICS; k++) {
		const struct il_res_metric *m = &g->metrics[k];

		if (m->nruns != p->nruns || p->nruns > MAX_POOL)
			continue;
		p->names[p->nmetrics] = strdup(m->name);
		p->runs[p->nmetrics] = calloc(p->nruns, sizeof(struct il_hist));
		if (!p->names[p->nmetrics] || !p->runs[p->nmetrics])
			return -ENOMEM;
		/* the run's histogram again, from its buckets */
		for (size_t r = 0; r < p->nruns; r++) {
			const struct il_res_run_hist *rh = &m->hists[r];
			struct il_hist *h = &p->runs[p->nmetrics][r];
			uint64_t prev = 0;

			il_hist_init(h);
			for (size_t b = 0; b < rh->nbins; b++) {
				for (uint64_t c = prev; c < rh->cum[b]; c++)
					il_hist_record(h, (uint64_t)rh->val[b]);
				prev = rh->cum[b];
			}
		}
		p->nmetrics++;
	}
	fprintf(stderr,
		"invlab-bench-stats: %zu measured runs of %s/%s, %zu "
		"metrics, from %d file(s)\n",
		p->nruns, g->scenario, g->configuration, p->nmetrics, n);
	il_res_set_free(&s);
	return p->nruns >= 2 * runs_a_side ? 0 : -EINVAL;
}

/* one comparison, shift on the candidate's metric shifted.  1: exit 1 */
static int compare_once(const struct pool *p, double shift,
			const struct il_res_cmp_opts *o, int *shifted_found)
{
	size_t nm = p ? p->nmetrics : NMODEL;
	struct il_res_metric mb[MAX_METRICS], mc[MAX_METRICS];
	struct il_res_cmp rows[MAX_METRICS * NSTATS];
	struct il_res_cmp *v[MAX_METRICS * NSTATS] = { 0 };
	static struct il_hist h;
	size_t pick[2 * MAX_RUNS_A_SIDE], n = 0;
	int worse;

	/* the runs of each side: distinct runs of the pool */
	for (size_t i = 0; p && i < 2 * runs_a_side; i++) {
		size_t j;

		do {
			pick[i] =
				(size_t)(unif() * (double)p->nruns) % p->nruns;
			for (j = 0; j < i && pick[j] != pick[i]; j++)
				;
		} while (j < i);
	}
	for (size_t k = 0; k < nm; k++) {
		const char *name = p ? p->names[k] : model[k].name;

		if (metric_init(&mb[k], name) || metric_init(&mc[k], name))
			return -ENOMEM;
		for (size_t r = 0; r < runs_a_side; r++) {
			double s = k == shifted ? shift : 1;

			if (p) {
				scaled(&p->runs[k][pick[r]], 1, &h);
				il_res_metric_add_run(&mb[k], &h);
				scaled(&p->runs[k][pick[runs_a_side + r]], s,
				       &h);
				il_res_metric_add_run(&mc[k], &h);
			} else {
				model_run(&mb[k], &model[k], 1, &h);
				model_run(&mc[k], &model[k], s, &h);
			}
		}
		for (size_t s = 0; s < NSTATS; s++) {
			il_res_compare(&mb[k], &mc[k], stats[s], o, &rows[n]);
			v[n] = &rows[n];
			n++;
		}
	}
	worse = il_res_decide_family(v, n, o);
	/* the shifted metric's median row itself */
	*shifted_found = rows[shifted * NSTATS].change == IL_RES_WORSE;
	for (size_t k = 0; k < nm; k++) {
		metric_free(&mb[k]);
		metric_free(&mc[k]);
	}
	return worse < 0 ? worse : worse > 0;
}

int main(int argc, char **argv)
{
	struct il_res_cmp_opts o = { .mode = IL_RES_TEST_AUTO,
				     .alpha = 0.05,
				     .threshold_pct = 2,
				     .correction = IL_RES_CORR_HOLM,
				     .resamples = 2000,
				     .power = 0.8 };
	static const double shifts[] = { 1.00, 1.05, 1.10 };
	struct pool pool, *p = NULL;
	long n = 200;
	uint64_t seed = 1;
	const char *mname = NULL;
	int opt;

	while ((opt = getopt(argc, argv, "k:m:n:r:s:h")) != -1) {
		switch (opt) {
		case 'k':
			runs_a_side = strtoul(optarg, NULL, 10);
			break;
		case 'm':
			mname = optarg;
			break;
		case 'n':
			n = strtol(optarg, NULL, 10);
			break;
		case 'r':
			o.resamples = (unsigned)strtoul(optarg, NULL, 10);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 10);
			break;
		default:
			fprintf(stderr, "usage: invlab-bench-stats [-k RUNS] "
					"[-m METRIC] "
					"[-n "
					"COMPARISONS] [-r RESAMPLES] [-s SEED] "
					"[RESULT.json...]\n");
			return opt == 'h' ? 0 : 2;
		}
	}
	if (n < 1 || n > 100000 || o.resamples < 100 || o.resamples > 1000000 ||
	    runs_a_side < 1 || runs_a_side > MAX_RUNS_A_SIDE) {
		fprintf(stderr, "invlab-bench-stats: -n 1..100000, -r "
				"100..1000000, -k 1..64\n");
		return 2;
	}
	if (optind < argc) {
		if (pool_load(&pool, argv + optind, argc - optind))
			return 2;
		p = &pool;
	}
	for (size_t k = 0; mname && k < (p ? p->nmetrics : NMODEL); k++)
		if (!strcmp(mname, p ? p->names[k] : model[k].name))
			shifted = k + 1;
	if (mname && !shifted--) {
		fprintf(stderr, "invlab-bench-stats: -m: no metric '%s'\n",
			mname);
		return 2;
	}
	rng_s = seed;
	printf("invlab-bench-stats: %ld comparisons each, %zu runs a side, "
	       "%s, %zu rows a comparison (p50, p99, p999, max, mean of "
	       "each metric), Holm at 0.05, threshold 2%%, %u resamples, "
	       "distributions %s\n",
	       n, runs_a_side,
	       p ? "runs measured on this machine"
		 : "the seeded model fitted on this machine",
	       (p ? p->nmetrics : NMODEL) * NSTATS, o.resamples,
	       il_res_dist_backend());
	for (size_t s = 0; s < sizeof(shifts) / sizeof(shifts[0]); s++) {
		long exit1 = 0, row = 0;

		for (long i = 0; i < n; i++) {
			int found, r = compare_once(p, shifts[s], &o, &found);

			if (r < 0) {
				fprintf(stderr, "invlab-bench-stats: out of "
						"memory\n");
				return 99;
			}
			exit1 += r;
			row += found;
		}
		if (s == 0)
			printf("A/A: %ld of %ld comparisons exit 1: "
			       "false-alarm "
			       "rate %.1f%% (goal <= 5%%)\n",
			       exit1, n, 100.0 * (double)exit1 / (double)n);
		else
			printf("%s shifted %.0f%%: %ld of %ld comparisons exit "
			       "1: detection rate %.1f%% (goal >= %s); its p50 "
			       "row worse in %.1f%%\n",
			       p ? p->names[shifted] : model[shifted].name,
			       (shifts[s] - 1) * 100, exit1, n,
			       100.0 * (double)exit1 / (double)n,
			       s == 1 ? "80%" : "95%",
			       100.0 * (double)row / (double)n);
		fflush(stdout);
	}
	return 0;
}
