// SPDX-License-Identifier: MIT
/*
 * The live view's rendering: on a terminal a frame redraws in place
 * (cursor home, clear to end), elsewhere frames are plain blocks without
 * escape sequences; rows carry samples, percentiles, the bar and the
 * verdict; the bar's tallest cell is where most samples are and an empty
 * histogram draws an empty bar.
 */
#include <stdlib.h>
#include <string.h>

#include <invlab/hist.h>
#include <invlab/live.h>

#include "t_util.h"

static char *render(int tty, const struct il_hist *h, int frames)
{
	struct il_live_row row;
	struct il_live l;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	memset(&row, 0, sizeof(row));
	snprintf(row.name, sizeof(row.name), "high blocked");
	snprintf(row.verdict, sizeof(row.verdict), "PASS so far");
	row.h = h;
	il_live_init(&l, f, tty);
	for (int i = 0; i < frames; i++)
		il_live_frame(&l, "pi-classic: inherit", &row, 1);
	il_live_end(&l);
	fclose(f);
	return buf;
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

int main(void)
{
	struct il_hist h, empty;
	char bar[4 * IL_LIVE_BAR + 1], *out;
	uint64_t seed = 7;

	il_hist_init(&h);
	il_hist_init(&empty);
	/* most samples near 1.5 ms, a thin tail up to 20 ms */
	for (int i = 0; i < 5000; i++)
		il_hist_record(&h, 1500000 + t_rand(&seed) % 100000);
	for (int i = 0; i < 20; i++)
		il_hist_record(&h, 2000000 + t_rand(&seed) % 18000000);

	out = render(1, &h, 3);
	t_check_int(count(out, "\033[H\033[J"), 3);
	t_check_contains(out, "pi-classic: inherit");
	t_check_contains(out, "high blocked");
	t_check_contains(out, "5020");
	t_check_contains(out, "PASS so far");
	t_check_contains(out, "p999");
	free(out);

	out = render(0, &h, 2);
	t_check_int(count(out, "\033"), 0);
	t_check_int(count(out, "high blocked"), 2);
	free(out);

	/* the bar: ASCII, IL_LIVE_BAR cells, tallest at the low end (the
	 * mode), something drawn at the high end (the tail) */
	il_live_bar(&h, false, bar, sizeof(bar));
	t_check_int(strlen(bar), IL_LIVE_BAR);
	t_check(bar[0] == '@');
	t_check(bar[IL_LIVE_BAR - 1] != ' ');
	il_live_bar(&empty, false, bar, sizeof(bar));
	t_check_int(strlen(bar), IL_LIVE_BAR);
	t_check_int(count(bar, " "), IL_LIVE_BAR);
	/* UTF-8 blocks are three bytes each */
	il_live_bar(&h, true, bar, sizeof(bar));
	t_check_contains(bar, "\u2588");
	return t_done("live");
}
