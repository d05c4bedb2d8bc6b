// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: job-file text.
 *
 * Any text either is refused with "FILE:LINE: message" (-EINVAL), or
 * parses into a scenario that il_scenario_write turns back into a job
 * file; that file must parse again and write the very same text (what a
 * result records as "what was run" must run the same way).  A failure
 * prints both texts and aborts.
 *
 *   build-fuzz/tests/fuzz/fuzz-jobfile tests/fuzz/corpus/jobfile
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <invlab/scenario.h>

#define FILE_NAME "fuzz.job"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *write_text(const struct il_scenario *sc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	il_scenario_write(sc, f);
	if (fclose(f))
		abort();
	return buf;
}

/* what went wrong, the texts involved, and a last one (label: text) */
static void fail(const char *what, const char *in, const char *w1,
		 const char *label, const char *last)
{
	fprintf(stderr, "fuzz-jobfile: %s\n--- input\n%s\n", what, in);
	if (w1)
		fprintf(stderr, "--- written\n%s\n", w1);
	if (last)
		fprintf(stderr, "--- %s\n%s\n", label, last);
	abort();
}

/* a refusal is -EINVAL (or -ENOMEM) and names the file */
static void check_refusal(int ret, const char *err, const char *in,
			  const char *w1)
{
	if (ret != -EINVAL && ret != -ENOMEM)
		fail("parse returned neither 0, -EINVAL nor -ENOMEM", in, w1,
		     "error", err);
	if (strncmp(err, FILE_NAME ":", strlen(FILE_NAME ":")))
		fail("error message without FILE: prefix", in, w1, "error",
		     err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct il_scenario a, b;
	char err[512], *in, *w1, *w2;
	int ret;

	/* a job file is text: the loader refuses a NUL byte */
	if (memchr(data, '\0', size))
		return 0;
	in = malloc(size + 1);
	if (!in)
		abort();
	memcpy(in, data, size);
	in[size] = '\0';

	err[0] = '\0';
	ret = il_scenario_parse(in, FILE_NAME, &a, err, sizeof(err));
	if (ret) {
		check_refusal(ret, err, in, NULL);
		free(in);
		return 0;
	}
	w1 = write_text(&a);
	il_scenario_free(&a);
	il_scenario_free(&a); /* documented as safe */

	err[0] = '\0';
	ret = il_scenario_parse(w1, FILE_NAME, &b, err, sizeof(err));
	if (ret) {
		check_refusal(ret, err, in, w1);
		fail("the written job file does not parse", in, w1, "its error",
		     err);
	}
	w2 = write_text(&b);
	il_scenario_free(&b);
	if (strcmp(w1, w2))
		fail("the written job file does not write the same text", in,
		     w1, "written again", w2);
	free(w2);
	free(w1);
	free(in);
	return 0;
}
