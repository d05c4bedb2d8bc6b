// SPDX-License-Identifier: MIT
/*
 * invlab-bench: what the histogram costs on this machine.
 *
 * The demos claim that measuring does not disturb what is measured: the
 * hot path is one clock_gettime(CLOCK_MONOTONIC) and one il_hist_record.
 * This prints that cost per sample, the record alone, and the cost of the
 * after-the-run operations (percentile query, merge), so the claim can be
 * checked against the latencies being reported.  It is a figure, not a
 * test: it never fails on a slow machine.
 *
 * Run: build/bench/invlab-bench [ITERATIONS]   (default 10000000)
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <invlab/hist.h>

#define DEFAULT_ITERS 10000000ull
#define MAX_ITERS     1000000000ull
/* a power of two, and small enough (32 KiB) to stay in L1 with the bins */
#define NVALUES 4096

/* keep the compiler from proving a result unused and dropping the loop */
#define escape(p) __asm__ volatile("" : : "g"(p) : "memory")

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t xorshift(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1Dull;
}

/*
 * Latencies shaped like the demos': log-normal around 20 us with a heavy
 * tail, so record and query touch the bins a real run touches.
 */
static uint64_t latency(uint64_t *s)
{
	double u1 = ((double)(xorshift(s) >> 11) + 1.0) * 0x1.0p-53;
	double u2 = (double)(xorshift(s) >> 11) * 0x1.0p-53;
	double g = sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
	double v = 20000.0 * exp(1.5 * g);

	return v < 1e11 ? (uint64_t)v : 100000000000ull;
}

static void cpu_model(char *buf, size_t len)
{
	static const char *const keys[] = { "model name", "Model", "cpu model",
					    "Hardware" };
	char line[256];
	FILE *f;
	size_t i;

	snprintf(buf, len, "unknown");
	f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			if (strncmp(line, keys[i], strlen(keys[i])))
				continue;
			colon++;
			colon += strspn(colon, " \t");
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(buf, len, "%s", colon);
			fclose(f);
			return;
		}
	}
	fclose(f);
}

static void usage(FILE *out, const char *prog)
{
	fprintf(out,
		"usage: %s [ITERATIONS]\n"
		"  Time clock_gettime + il_hist_record, il_hist_record alone,\n"
		"  il_hist_percentile and il_hist_merge on this machine.\n"
		"  ITERATIONS: recorded samples per measurement, 1000..%llu\n"
		"  (default %llu).\n",
		prog, MAX_ITERS, DEFAULT_ITERS);
}

static int parse_iters(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v < 1000 || v > MAX_ITERS)
		return -EINVAL;
	*out = v;
	return 0;
}

static void line(const char *what, double ns, uint64_t n)
{
	printf("  %-36s %10.2f ns   (%" PRIu64 " calls)\n", what, ns, n);
}

int main(int argc, char **argv)
{
	static uint64_t values[NVALUES];
	static struct il_hist h, real, dst;
	uint64_t iters = DEFAULT_ITERS, seed = 1, i, t0, t1, prev, nq, nm;
	static const struct {
		const char *name;
		double p;
	} qs[] = {
		{ "il_hist_percentile p50", 0.5 },
		{ "il_hist_percentile p99", 0.99 },
		{ "il_hist_percentile p99.9", 0.999 },
		{ "il_hist_percentile_upper p99.9", 0.999 },
	};
	char model[128];
	size_t q;

	if (argc > 2) {
		usage(stderr, argv[0]);
		return 2;
	}
	if (argc == 2) {
		if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
			usage(stdout, argv[0]);
			return 0;
		}
		if (parse_iters(argv[1], &iters)) {
			fprintf(stderr, "%s: bad iteration count '%s'\n",
				argv[0], argv[1]);
			usage(stderr, argv[0]);
			return 2;
		}
	}
	/* percentile and merge cost far more per call than a record */
	nq = iters / 100;
	nm = iters / 1000;

	cpu_model(model, sizeof(model));
	printf("invlab-bench: histogram costs (IL_HIST_BITS=%d, %u buckets, "
	       "%zu bytes)\n",
	       IL_HIST_BITS, IL_HIST_NBUCKETS, sizeof(struct il_hist));
	printf("  cpu: %s\n", model);
	printf("  iterations: %" PRIu64 " records, %" PRIu64
	       " queries, %" PRIu64 " merges\n",
	       iters, nq, nm);

	for (i = 0; i < NVALUES; i++)
		values[i] = latency(&seed);

	/* the hot path as the demos run it: timestamp, then record a delta */
	il_hist_init(&h);
	prev = now_ns();
	t0 = prev;
	for (i = 0; i < iters; i++) {
		uint64_t t = now_ns();

		il_hist_record(&h, t - prev);
		prev = t;
	}
	t1 = now_ns();
	escape(&h);
	line("clock_gettime + il_hist_record", (double)(t1 - t0) / iters,
	     iters);

	il_hist_init(&h);
	t0 = now_ns();
	for (i = 0; i < iters; i++)
		il_hist_record(&h, values[i & (NVALUES - 1)]);
	t1 = now_ns();
	escape(&h);
	line("il_hist_record", (double)(t1 - t0) / iters, iters);

	/* a full run's worth of realistic samples to query */
	il_hist_init(&real);
	for (i = 0; i < 1000000; i++)
		il_hist_record(&real, latency(&seed));
	for (q = 0; q < sizeof(qs) / sizeof(qs[0]); q++) {
		uint64_t v = 0, acc = 0;
		int upper = strstr(qs[q].name, "upper") != NULL;

		t0 = now_ns();
		for (i = 0; i < nq; i++) {
			escape(&real);
			if (upper)
				il_hist_percentile_upper(&real, qs[q].p, &v);
			else
				il_hist_percentile(&real, qs[q].p, &v);
			acc += v;
		}
		t1 = now_ns();
		escape(&acc);
		line(qs[q].name, (double)(t1 - t0) / nq, nq);
	}

	il_hist_init(&dst);
	t0 = now_ns();
	for (i = 0; i < nm; i++) {
		il_hist_merge(&dst, &real);
		escape(&dst);
	}
	t1 = now_ns();
	line("il_hist_merge", (double)(t1 - t0) / nm, nm);
	return 0;
}
