/* SPDX-License-Identifier: MIT */
/*
 * Helpers for the tests of the host-side result tools (invlab-compare,
 * invlab-gate, invlab-plot): synthetic result files written with the real
 * JSON writer, so the tools read what the demos write; running a tool and
 * capturing what it prints; and a small XML well-formedness checker, so
 * the JUnit and SVG tests need no xmllint.
 */
#ifndef T_TOOLS_H
#define T_TOOLS_H

#include <stddef.h>
#include <stdint.h>

#include <invlab/hist.h>
#include <invlab/sysinfo.h>

/* A directory for this test's files, made on first use. */
const char *t_tmpdir(void);
/* t_tmpdir()/name in a static buffer; the last 16 stay valid */
const char *t_tmp(const char *name);
/* remove the directory and what is in it */
void t_tmp_cleanup(void);

/* A plausible fingerprint: 6.18.0, preempt full, HZ 1000, 4 CPUs, kvm. */
void t_sysinfo(struct il_sysinfo *si);

/*
 * n samples around median_ns: the median times exp(spread * z), z close
 * to a standard normal (a sum of uniforms), from the generator *seed.
 */
void t_fill_hist(struct il_hist *h, uint64_t *seed, size_t n, double median_ns,
		 double spread);

struct t_hist {
	const char *name; /* "blocked_ns" */
	const struct il_hist *h;
};

struct t_run {
	const char *configuration;
	const char *verdict;  /* NULL: "PASS" */
	const char *expected; /* NULL: "PASS" */
	int nhists;
	struct t_hist hists[4];
};

/*
 * Write a result file as a demo would: the common envelope with si as the
 * kernel fingerprint, a scenario {cs_ns}, the runs.  Returns 0 or -errno.
 */
int t_write_result(const char *path, const char *program,
		   const struct il_sysinfo *si, uint64_t cs_ns,
		   const struct t_run *runs, int nruns);

/*
 * Run argv (argv[0] is the program's path) with stdout and stderr
 * captured into malloc'd strings (either pointer may be NULL to discard).
 * Returns the exit status, or -1 when it could not run or was killed.
 */
int t_run_tool(char *const argv[], char **out, char **err);
/* the same for prog and the arguments after err, up to a NULL (39 at
 * most) */
int t_run_toolv(const char *prog, char **out, char **err, ...);

/*
 * Every option that `tool --help` lists is documented in the man page
 * (as roff writes it, "\-\-name"): one check per option.
 */
void t_check_man_page(const char *tool, const char *man);

/* Write text to path as it is (a hand-made, possibly hostile, result). */
int t_write_text(const char *path, const char *text);
/* How many times needle occurs in hay (0 when hay is NULL). */
size_t t_count(const char *hay, const char *needle);
/*
 * A tool's output is printable: no byte a terminal acts on (C0 but tab
 * and newline, DEL, a UTF-8 encoded C1).  One check; what names it.
 */
void t_check_printable(const char *what, const char *text);

/* The whole of a file as a string, or NULL. */
char *t_read_file(const char *path);

/*
 * 0 when text is well-formed XML 1.0: at most a declaration, one root
 * element, every tag closed in order, attributes quoted and unique, only
 * known entities and character references, no control characters.
 * Otherwise -1 with the reason and offset in err.  (No DTDs: nothing
 * here writes one.)
 */
int t_xml_check(const char *text, char *err, size_t errlen);

#endif
