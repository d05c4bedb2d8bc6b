/* SPDX-License-Identifier: MIT */
/*
 * Aligned text tables and the statistics shown in their cells
 * (lib/util/table.c).
 */
#ifndef INVLAB_TABLE_H
#define INVLAB_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <invlab/hist.h>

/*
 * Aligned text tables.  Columns are added with a header and alignment;
 * cells are appended row by row as strings; il_table_print writes the
 * header, a rule and the rows with every column as wide as its widest
 * cell.
 */
#define IL_TABLE_MAX_COLS 16
struct il_table {
	int ncols;
	const char *header[IL_TABLE_MAX_COLS];
	bool right[IL_TABLE_MAX_COLS];
	int nrows, cap;
	char **cells; /* nrows * ncols, owned */
};
void il_table_init(struct il_table *t);
int il_table_col(struct il_table *t, const char *header, bool right_align);
/* append a cell (printf format); a new row starts every ncols cells */
int il_table_cell(struct il_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void il_table_print(const struct il_table *t, FILE *f);
/* the same, each line preceded by prefix ("# " for TAP diagnostics) */
void il_table_print_prefixed(const struct il_table *t, FILE *f,
			     const char *prefix);
/*
 * One statistic of a histogram for a table cell: percentile p (0 < p < 1,
 * the displayed value), or the maximum when p < 0; "-" when empty,
 * "n/a (<1000)" when there are fewer samples than p needs (the number is
 * il_hist_samples_for(p)), and "n/a" when p falls among the overflow.
 */
void il_format_stat(char *buf, size_t len, const struct il_hist *h, double p);
void il_table_free(struct il_table *t);

#endif
