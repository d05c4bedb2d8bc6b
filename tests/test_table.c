// SPDX-License-Identifier: MIT
/*
 * Unit tests for lib/util/table.c: a table's columns line up, and a
 * statistic's cell says "n/a (<N)" exactly while there are fewer samples
 * than the percentile needs (N = il_hist_samples_for(p)), a value from
 * N on, "-" when empty, plain "n/a" when p falls among the overflow.
 *
 * Run: meson test -C build table   (or build/tests/test-table)
 */
#include <stdlib.h>
#include <string.h>

#include <invlab/hist.h>
#include <invlab/table.h>

#include "t_util.h"

static void fill(struct il_hist *h, uint64_t n, uint64_t v)
{
	il_hist_init(h);
	for (uint64_t i = 0; i < n; i++)
		il_hist_record(h, v);
}

static void test_stat(void)
{
	struct il_hist *h = malloc(sizeof(*h));
	char buf[48];

	if (!h)
		return;
	il_hist_init(h);
	il_format_stat(buf, sizeof(buf), h, 0.99);
	t_check_str(buf, "-");
	/* p99: 99 samples are too few, 100 are enough */
	fill(h, 99, 2000000);
	il_format_stat(buf, sizeof(buf), h, 0.99);
	t_check_str(buf, "n/a (<100)");
	il_format_stat(buf, sizeof(buf), h, 0.5);
	t_check_str(buf, "2.00ms");
	il_format_stat(buf, sizeof(buf), h, -1);
	t_check_str(buf, "2.00ms");
	il_hist_record(h, 2000000);
	il_format_stat(buf, sizeof(buf), h, 0.99);
	t_check_str(buf, "2.00ms");
	/* p999 and p9999 */
	fill(h, 999, 1000);
	il_format_stat(buf, sizeof(buf), h, 0.999);
	t_check_str(buf, "n/a (<1000)");
	il_hist_record(h, 1000);
	il_format_stat(buf, sizeof(buf), h, 0.999);
	t_check_str(buf, "1.00us");
	il_format_stat(buf, sizeof(buf), h, 0.9999);
	t_check_str(buf, "n/a (<10000)");
	/* enough samples, but the rank is among the overflow */
	fill(h, 100, 1ull << 40);
	il_format_stat(buf, sizeof(buf), h, 0.99);
	t_check_str(buf, "n/a");
	free(h);
}

static void test_columns(void)
{
	struct il_table t;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return;
	il_table_init(&t);
	t_check_int(il_table_col(&t, "protocol", false), 0);
	t_check_int(il_table_col(&t, "p999", true), 0);
	il_table_cell(&t, "%s", "none");
	il_table_cell(&t, "%s", "n/a (<1000)");
	il_table_cell(&t, "%s", "inherit");
	il_table_cell(&t, "%s", "1.64ms");
	t_check_int(il_table_col(&t, "late", true), -16); /* -EBUSY */
	il_table_print(&t, f);
	fclose(f);
	t_check_str(out, "protocol         p999\n"
			 "--------  -----------\n"
			 "none      n/a (<1000)\n"
			 "inherit        1.64ms\n");
	il_table_free(&t);
	free(out);
}

int main(void)
{
	test_stat();
	test_columns();
	return t_done("table");
}
