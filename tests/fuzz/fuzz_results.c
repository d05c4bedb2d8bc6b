// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: result files, through the functions the result tools
 * use (results.h).
 *
 * The input is one result file, or two separated by a line "#--": the
 * baseline side loads both (so their runs merge), the candidate side the
 * second.  Every group, metric and statistic of each side is then
 * computed, and each metric compared with the other side under every
 * test mode.  Checked besides "no crash, no leak, no hang": a refused
 * file leaves the set as it was, p-values are probabilities, changes
 * and tests are known values.
 *
 *   build-fuzz/tests/fuzz/fuzz-results tests/fuzz/corpus/results
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "escape.h"
#include "format.h"
#include "results.h"
#include "stats.h"

#define SEP "\n#--\n"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;

static void fail(const char *what)
{
	fprintf(stderr, "fuzz-results: %s\n", what);
	abort();
}

/* a memory file holding the bytes, named by its /proc path */
static void put(int *fd, char *path, size_t len, const uint8_t *p, size_t n)
{
	if (*fd < 0) {
		*fd = memfd_create("fuzz-result", MFD_CLOEXEC);
		if (*fd < 0)
			fail("memfd_create");
		snprintf(path, len, "/proc/self/fd/%d", *fd);
	}
	if (ftruncate(*fd, 0) || (n && pwrite(*fd, p, n, 0) != (ssize_t)n))
		fail("cannot write the memory file");
}

static void load(struct il_res_set *s, const char *path)
{
	size_t nfiles = s->nfiles, ngroups = s->ngroups;
	char err[512];
	int ret;

	err[0] = '\0';
	ret = il_res_set_load(s, path, err, sizeof(err));
	if (ret && !err[0])
		fail("refused without a message");
	/* -EOVERFLOW: bins whose counts overflow (not in results.h) */
	if ((ret == -EINVAL || ret == -EOVERFLOW) &&
	    (s->nfiles != nfiles || s->ngroups != ngroups))
		fail("a refused file changed the set");
	if (ret && ret != -EINVAL && ret != -EOVERFLOW && ret != -ENOMEM) {
		fprintf(stderr, "fuzz-results: load returned %d: %s\n", ret,
			err);
		fail("load returned an undocumented error");
	}
}

static void check_p(double p)
{
	if (!isnan(p) && !(p >= 0 && p <= 1))
		fail("a p-value outside [0, 1]");
}

static void stats(const struct il_res_set *s)
{
	char buf[32];
	int nv;

	for (int i = 0; i < IL_RES_FP_N; i++)
		if (!il_res_set_fp(s, i, &nv))
			fail("il_res_set_fp returned NULL");
	for (size_t f = 0; f < s->nfiles; f++)
		for (size_t k = 0; k < s->files[f].nscenario; k++)
			il_res_set_scenario(s, s->files[f].scenario[k].key,
					    &nv);
	for (size_t g = 0; g < s->ngroups; g++) {
		const struct il_res_group *gr = &s->groups[g];

		il_res_xml_escape(devnull, gr->scenario);
		il_res_xml_escape(devnull, gr->configuration);
		if (il_res_set_find(s, gr->scenario, gr->configuration,
				    gr->file) != gr)
			fail("a group is not found by its own name");
		for (size_t m = 0; m < gr->nmetrics; m++) {
			const struct il_res_metric *me = &gr->metrics[m];
			struct il_res_spread sp;
			double v;

			if (il_res_group_metric(gr, me->name) != me)
				fail("a metric is not found by its own name");
			for (int st = 0; st < IL_RES_NSTATS; st++) {
				if (!il_res_stat_value(me->merged, st, false,
						       &v))
					il_res_fmt_ns(buf, sizeof(buf), v);
				if (!il_res_stat_value(me->merged, st, true,
						       &v))
					il_res_fmt_ns(buf, sizeof(buf), v);
				if (me->nruns)
					il_res_spread(&me->run[0][st],
						      IL_RES_NSTATS, me->nruns,
						      &sp);
			}
		}
	}
}

/*
 * A comparison of a percentile by bootstrap costs a pass over every
 * bucket; all of them for every metric would make an input take a second
 * under the sanitizers.  So each input compares at most COMPARE_MAX of
 * its (metric, statistic, mode) cases, spread over all of them from a
 * start that depends on the input: mutations reach every case in turn.
 */
#define COMPARE_MAX 24

static void compare_one(const struct il_res_metric *bm,
			const struct il_res_metric *cm, enum il_res_stat st,
			enum il_res_test_mode mode)
{
	const struct il_res_cmp_opts o = {
		.mode = mode,
		.alpha = 0.05,
		.threshold_pct = 2,
	};
	struct il_res_cmp c;

	il_res_compare(bm, cm, st, &o, &c);
	check_p(c.p);
	if (c.change < IL_RES_NA || c.change > IL_RES_WORSE)
		fail("an unknown change");
	if (c.test < IL_RES_T_NONE || c.test > IL_RES_T_HBOOT)
		fail("an unknown test");
	il_res_change_name(c.change);
	il_res_test_name(c.test);
}

#define NMODES 4

static void compare(const struct il_res_set *base,
		    const struct il_res_set *cand, size_t seed)
{
	static const enum il_res_test_mode modes[NMODES] = {
		IL_RES_TEST_AUTO,
		IL_RES_TEST_RANK,
		IL_RES_TEST_WELCH,
		IL_RES_TEST_BOOTSTRAP,
	};
	const size_t per_metric = IL_RES_NSTATS * NMODES;
	size_t total = 0, stride, i = 0;

	for (size_t g = 0; g < base->ngroups; g++)
		total += base->groups[g].nmetrics * per_metric;
	stride = total > COMPARE_MAX ? (total + COMPARE_MAX - 1) / COMPARE_MAX
				     : 1;
	seed %= stride;
	for (size_t g = 0; g < base->ngroups; g++) {
		const struct il_res_group *bg = &base->groups[g], *cg;

		cg = il_res_set_find(cand, bg->scenario, bg->configuration, 0);
		for (size_t m = 0; m < bg->nmetrics; m++, i += per_metric) {
			const struct il_res_metric *bm = &bg->metrics[m], *cm;

			cm = cg ? il_res_group_metric(cg, bm->name) : NULL;
			if (!cm)
				continue;
			for (size_t c = 0; c < per_metric; c++)
				if ((i + c) % stride == seed)
					compare_one(bm, cm, c % IL_RES_NSTATS,
						    modes[c / IL_RES_NSTATS]);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd_a = -1, fd_b = -1;
	static char path_a[64], path_b[64];
	struct il_res_set base, cand, per_file;
	const uint8_t *b = NULL;
	size_t na = size;

	if (!devnull) {
		devnull = fopen("/dev/null", "we");
		if (!devnull)
			fail("cannot open /dev/null");
	}
	b = memmem(data, size, SEP, strlen(SEP));
	if (b) {
		na = (size_t)(b - data) + 1; /* keep the newline */
		b += strlen(SEP);
	}
	put(&fd_a, path_a, sizeof(path_a), data, na);
	if (b)
		put(&fd_b, path_b, sizeof(path_b), b,
		    size - (size_t)(b - data));

	il_res_set_init(&base, false);
	il_res_set_init(&cand, false);
	il_res_set_init(&per_file, true);
	load(&base, path_a);
	load(&per_file, path_a);
	if (b) {
		load(&base, path_b);
		load(&per_file, path_b);
		load(&cand, path_b);
	} else {
		load(&cand, path_a);
	}
	stats(&base);
	stats(&per_file);
	stats(&cand);
	compare(&base, &cand, size);
	il_res_set_free(&per_file);
	il_res_set_free(&cand);
	il_res_set_free(&base);
	return 0;
}
