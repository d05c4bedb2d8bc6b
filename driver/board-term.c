// SPDX-License-Identifier: MIT
/*
 * The live board on a terminal (board.h): each frame moves the cursor
 * home, writes the layout's lines, each clearing the rest of its line,
 * and clears below, so it redraws in place without flicker.  The size is
 * asked of the terminal every frame (TIOCGWINSZ); SIGWINCH only marks
 * that the next frame is to clear the whole screen first, since a
 * narrower terminal has rewrapped what was there.  The layout keeps one
 * line free at the bottom so the last newline never scrolls.  Elsewhere
 * (a pipe, a log) a frame is a block of plain lines at COLUMNS or 80
 * columns, without escape sequences.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <invlab/board.h>

static volatile sig_atomic_t resized;

static void on_winch(int sig)
{
	(void)sig;
	resized = 1;
}

static bool want_utf8(void)
{
	const char *lang = getenv("LC_ALL");

	if (!lang || !*lang)
		lang = getenv("LC_CTYPE");
	if (!lang || !*lang)
		lang = getenv("LANG");
	return lang && (strstr(lang, "UTF-8") || strstr(lang, "utf8"));
}

void il_board_term_init(struct il_board_term *t, FILE *f, int tty)
{
	memset(t, 0, sizeof(*t));
	t->f = f;
	t->tty = tty < 0 ? isatty(fileno(f)) : tty;
	t->utf8 = t->tty && want_utf8();
	if (t->tty) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_winch;
		sa.sa_flags = SA_RESTART;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGWINCH, &sa, NULL);
	}
}

static int env_int(const char *name, int def)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (!s || !*s)
		return def;
	v = strtol(s, &end, 10);
	return *end || v < 1 || v > 1000 ? def : (int)v;
}

void il_board_size(const struct il_board_term *t, int *width, int *height)
{
	struct winsize ws;

	*width = t->width;
	*height = t->height;
	if (*width && *height)
		return;
	if (t->tty && !ioctl(fileno(t->f), TIOCGWINSZ, &ws) && ws.ws_col &&
	    ws.ws_row) {
		*width = *width ? *width : ws.ws_col;
		*height = *height ? *height : ws.ws_row;
		return;
	}
	*width = *width ? *width : env_int("COLUMNS", 80);
	*height = *height ? *height : env_int("LINES", 24);
}

void il_board_show(struct il_board_term *t, const struct il_board *b)
{
	const size_t len = 64 * 1024;
	char *buf = malloc(len);
	int w, h, n;

	if (!buf) /* a frame skipped */
		return;
	il_board_size(t, &w, &h);
	/* the last line stays free: its newline would scroll the frame */
	n = il_board_layout(b, w, t->tty ? h - 1 : 1000, buf, len);
	if (n < 0) {
		free(buf);
		return;
	}
	if (t->tty) {
		if (resized) {
			resized = 0;
			fputs("\033[2J", t->f);
		}
		fputs("\033[H", t->f);
		for (char *s = buf, *nl; *s; s = nl + 1) {
			nl = strchr(s, '\n');
			fwrite(s, 1, (size_t)(nl - s), t->f);
			fputs("\033[K\n", t->f);
		}
		fputs("\033[J", t->f);
	} else {
		fputs(buf, t->f);
		fputc('\n', t->f);
	}
	fflush(t->f);
	free(buf);
	t->frames++;
}
