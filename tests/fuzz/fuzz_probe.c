// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: cyclictest's and rtla timerlat's output read back
 * (probe.h).
 *
 * The input is given to the three readers, cyclictest's --json one and
 * -h text one (for two CPUs), and rtla timerlat hist's.  Checked besides
 * "no crash": the documented returns; a refusal leaves no thread and
 * says why; what is accepted is a histogram of its own (count = cycles,
 * overflow within it, bins adding up to it, min <= max), and every CPU's
 * together hold every thread's samples.
 *
 *   build-fuzz/tests/fuzz/fuzz-probe tests/fuzz/corpus/probe
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/probe.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what)
{
	fprintf(stderr, "fuzz-probe: %s\n", what);
	abort();
}

static void check(int ret, const struct il_probe_result *r, const char *err)
{
	uint64_t total = 0;

	if (ret && ret != -EINVAL)
		fail("an undocumented return");
	if (ret && (r->n || !err[0]))
		fail("a refusal with threads, or without a reason");
	if (ret)
		return;
	if (r->n < 1 || r->n > IL_PROBE_MAX_CPUS)
		fail("accepted with no thread, or too many");
	for (int i = 0; i < r->n; i++) {
		const struct il_hist *h = &r->cpu[i].h;
		uint64_t bins = 0;

		for (unsigned b = 0; b < IL_HIST_NBUCKETS; b++)
			bins += h->bins[b];
		if (h->count != r->cpu[i].cycles || bins != h->count)
			fail("a thread's bins, count and cycles disagree");
		if (h->overflow != r->cpu[i].overflow || h->overflow > h->count)
			fail("a thread's overflow is not within its count");
		if (h->count && h->min > h->max)
			fail("min above max");
		total += h->count;
	}
	if (r->all.count != total)
		fail("every CPU's together do not hold every thread's samples");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int cpus[] = { 0, 1 };
	static struct il_probe_result r;
	char *text = malloc(size + 1), err[256];
	int ret;

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	err[0] = '\0';
	ret = il_probe_read_json(text, &r, err, sizeof(err));
	check(ret, &r, err);
	err[0] = '\0';
	ret = il_probe_read_text(text, cpus, 2, &r, err, sizeof(err));
	check(ret, &r, err);
	err[0] = '\0';
	ret = il_probe_read_timerlat(text, &r, err, sizeof(err));
	check(ret, &r, err);
	free(text);
	return 0;
}
