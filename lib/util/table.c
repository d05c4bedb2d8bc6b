// SPDX-License-Identifier: MIT
/*
 * Aligned text tables for the human-readable report: the program appends
 * cells as strings, row by row, and the printer sizes every column to its
 * widest cell, so the numbers line up however large they get.  Cells are
 * copied onto the heap so the caller can format into a temporary buffer.
 * Widths count bytes: the tables hold ASCII (numbers, task names).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <invlab/table.h>
#include <invlab/time.h>

/* columns are separated by two spaces */
#define SEP "  "

void il_table_init(struct il_table *t)
{
	if (t)
		memset(t, 0, sizeof(*t));
}

int il_table_col(struct il_table *t, const char *header, bool right_align)
{
	if (!t)
		return -EINVAL;
	/* adding a column would reshape the rows already there */
	if (t->nrows)
		return -EBUSY;
	if (t->ncols >= IL_TABLE_MAX_COLS)
		return -E2BIG;
	t->header[t->ncols] = header ? header : "";
	t->right[t->ncols] = right_align;
	t->ncols++;
	return 0;
}

/* cells of rows not yet filled are NULL; a full row ends in a non-NULL */
static bool last_row_full(const struct il_table *t)
{
	return !t->nrows || t->cells[(size_t)t->nrows * t->ncols - 1];
}

int il_table_cell(struct il_table *t, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	size_t i, base;
	int n;

	if (!t || !fmt || !t->ncols)
		return -EINVAL;
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;

	if (last_row_full(t)) {
		if (t->nrows == t->cap) {
			int cap = t->cap ? t->cap * 2 : 16;
			char **c = realloc(t->cells,
					   (size_t)cap * t->ncols * sizeof(*c));

			if (!c) {
				free(s);
				return -ENOMEM;
			}
			memset(c + (size_t)t->cap * t->ncols, 0,
			       (size_t)(cap - t->cap) * t->ncols * sizeof(*c));
			t->cells = c;
			t->cap = cap;
		}
		t->nrows++;
	}
	base = (size_t)(t->nrows - 1) * t->ncols;
	for (i = 0; t->cells[base + i]; i++)
		;
	t->cells[base + i] = s;
	return 0;
}

/*
 * One line into buf (sized for every column at full width), cells padded
 * to their column, trailing blanks dropped so a short last row or an
 * empty last column leaves none.
 */
static void print_line(FILE *f, char *buf, const size_t *width,
		       const bool *right, int ncols, const char *const *cell)
{
	char *p = buf;
	int c;

	for (c = 0; c < ncols; c++) {
		const char *s = cell[c] ? cell[c] : "";
		size_t len = strlen(s), pad = width[c] - len;

		if (c) {
			memcpy(p, SEP, sizeof(SEP) - 1);
			p += sizeof(SEP) - 1;
		}
		if (right[c]) {
			memset(p, ' ', pad);
			p += pad;
		}
		memcpy(p, s, len);
		p += len;
		if (!right[c]) {
			memset(p, ' ', pad);
			p += pad;
		}
	}
	while (p > buf && p[-1] == ' ')
		p--;
	*p++ = '\n';
	fwrite(buf, 1, (size_t)(p - buf), f);
}

void il_table_print(const struct il_table *t, FILE *f)
{
	size_t width[IL_TABLE_MAX_COLS], total = 2;
	const char *cell[IL_TABLE_MAX_COLS];
	char *buf;
	int r, c;

	if (!t || !f || t->ncols <= 0 || t->ncols > IL_TABLE_MAX_COLS)
		return;
	for (c = 0; c < t->ncols; c++) {
		width[c] = strlen(t->header[c]);
		for (r = 0; r < t->nrows; r++) {
			const char *s = t->cells[(size_t)r * t->ncols + c];

			if (s && strlen(s) > width[c])
				width[c] = strlen(s);
		}
		total += width[c] + sizeof(SEP) - 1;
	}
	buf = malloc(total);
	if (!buf)
		return;

	print_line(f, buf, width, t->right, t->ncols, t->header);
	for (c = 0; c < t->ncols; c++) {
		char *rule = malloc(width[c] + 1);

		if (rule) {
			memset(rule, '-', width[c]);
			rule[width[c]] = '\0';
		}
		cell[c] = rule;
	}
	print_line(f, buf, width, t->right, t->ncols, cell);
	for (c = 0; c < t->ncols; c++)
		free((char *)cell[c]);
	for (r = 0; r < t->nrows; r++)
		print_line(
			f, buf, width, t->right, t->ncols,
			(const char *const *)&t->cells[(size_t)r * t->ncols]);
	free(buf);
}

void il_table_free(struct il_table *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; t->cells && i < (size_t)t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

void il_table_print_prefixed(const struct il_table *t, FILE *f,
			     const char *prefix)
{
	char *buf = NULL, *save = NULL;
	size_t len = 0;
	FILE *m;

	if (!prefix || !*prefix) {
		il_table_print(t, f);
		return;
	}
	m = open_memstream(&buf, &len);
	if (!m)
		return;
	il_table_print(t, m);
	fclose(m);
	for (char *l = strtok_r(buf, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save))
		fprintf(f, "%s%s\n", prefix, l);
	free(buf);
}

void il_format_stat(char *buf, size_t len, const struct il_hist *h, double p)
{
	uint64_t v;

	if (!h || !h->count)
		snprintf(buf, len, "-");
	else if (p < 0)
		il_format_duration(buf, len, h->max);
	else if (!il_hist_has_percentile(h, p))
		snprintf(buf, len, "n/a (<%llu)",
			 (unsigned long long)il_hist_samples_for(p));
	else if (il_hist_percentile(h, p, &v))
		snprintf(buf, len, "n/a");
	else
		il_format_duration(buf, len, v);
}
