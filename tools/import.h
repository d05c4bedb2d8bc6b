/* SPDX-License-Identifier: MIT */
/*
 * invlab-import: results of other tools read into the runs of one invlab
 * result file.  import-read.c reads input line by line (plain, or gzip
 * through import-zlib.c when the build has zlib), import-formats.c
 * understands each tool's output, import.c writes the result.
 *
 * Inputs are untrusted: a file's size is bounded before and while it is
 * read (decompressed bytes count), lines are bounded, counts must add
 * up.  Nothing here prints or exits: errors come back as a negative
 * errno with "FILE:LINE: message" in the caller's buffer.
 */
#ifndef INVLAB_TOOLS_IMPORT_H
#define INVLAB_TOOLS_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <invlab/hist.h>

/* ---- reading ----------------------------------------------------------- */

/* bytes a line, newline excluded: cyclictest -h prints 7 a thread */
#define IL_IMP_MAX_LINE 16384

struct il_imp_reader {
	const char *path; /* as given, for messages */
	int fd;
	void *gz;	     /* the zlib stream, or NULL for a plain file */
	uint64_t max, total; /* byte limit and bytes read (decompressed) */
	unsigned long line;  /* number of the line last returned */
	bool eof;
	size_t len, pos;
	char buf[2 * IL_IMP_MAX_LINE + 2];
	char cur[IL_IMP_MAX_LINE + 1];
};

/*
 * Open path for reading: a regular file only, at most max bytes (after
 * decompression).  A gzip file (by its magic bytes) is read through zlib,
 * or refused with -ENOTSUP and a message naming the missing feature when
 * the build has none.  0 or -errno, the message in err.
 */
int il_imp_open(struct il_imp_reader *r, const char *path, uint64_t max,
		char *err, size_t errlen);
/*
 * The next line, without its newline (and a CR before it): 1 and *line,
 * 0 at the end of the file, or -errno (-EFBIG: over the limit, -EINVAL:
 * a line too long or a NUL byte) with "FILE:LINE: ..." in err.
 */
int il_imp_getline(struct il_imp_reader *r, const char **line, char *err,
		   size_t errlen);
/* The rest of the file in one malloc'd buffer (JSON): 0 or -errno. */
int il_imp_slurp(struct il_imp_reader *r, char **buf, size_t *len, char *err,
		 size_t errlen);
void il_imp_close(struct il_imp_reader *r);
/* whether this build reads gzip */
bool il_imp_have_zlib(void);

/* the zlib half (import-zlib.c), only in builds with zlib */
int __il_imp_gz_open(int fd, void **gz);
/* bytes read, 0 at the end, -EIO on a corrupt stream */
long __il_imp_gz_read(void *gz, char *buf, size_t n);
void __il_imp_gz_close(void *gz);

/*
 * The input limit of a format read whole (il_imp_slurp: cyclictest's
 * JSON) when --max-input-size is not given.  cyclictest writes a few
 * hundred KB even with many threads and a wide histogram; json-c takes
 * some 20 times a file's size, so 64 MiB stays near 1.3 GB at worst.
 * The formats read line by line have no default limit: they stream.
 */
#define IL_IMP_SLURP_MAX_DEFAULT     (64ull << 20)
#define IL_IMP_SLURP_MAX_DEFAULT_STR "64M"
/* the largest kernel .config read for --config (a real one is ~300 KB) */
#define IL_IMP_KCONFIG_MAX (16ull << 20)

/* ---- what a format yields ---------------------------------------------- */

#define IL_IMP_MAX_HISTS 1025 /* histograms a run: all threads + 1024 */
#define IL_IMP_MAX_RUNS	 10000
#define IL_IMP_MAX_KV	 32 /* scalars a run (or its scenario) at most */

struct il_imp_kv {
	char key[32];
	char value[128];
	bool is_int; /* written as a JSON integer, else a string */
};

struct il_imp_hist {
	char name[40]; /* "latency_ns" */
	struct il_hist *h;
};

struct il_imp_run {
	char *configuration;
	char *file; /* the input it came from */
	size_t nkv;
	struct il_imp_kv kv[IL_IMP_MAX_KV]; /* the run's own scalars */
	size_t nhists, hists_cap;
	struct il_imp_hist *hists;
};

/* What the source tells about the kernel it ran on ("" when nothing). */
struct il_imp_kernel {
	char release[65], version[257], machine[65], hostname[65];
};

enum il_imp_format {
	IL_IMP_CYCLICTEST_JSON,
	IL_IMP_CYCLICTEST_HIST,
	IL_IMP_RTAPP,
	IL_IMP_RENAME,
	IL_IMP_PERF_MESSAGING,
	IL_IMP_SCHBENCH,
	IL_IMP_NFORMATS,
};

struct il_imp_opts {
	enum il_imp_format format;
	const char *configuration; /* NULL: the format's default */
	uint64_t unit_ns;	   /* cyclictest text: 1000 (us) or 1 (-N) */
	bool per_thread;	   /* cyclictest: a histogram per thread too */
	const char *log_basename;  /* rt-app's log_basename */
	uint64_t max_input;	   /* bytes an input, UINT64_MAX: none */
};

struct il_imp_result {
	const char *program; /* "cyclictest": the scenario for the tools */
	size_t nruns, cap;
	struct il_imp_run *runs;
	size_t nscenario;
	struct il_imp_kv scenario[IL_IMP_MAX_KV];
	struct il_imp_kernel kernel;
	char tool_version[32];	 /* "2.40", or "" */
	char command_line[1024]; /* the source's, or "" */
	char start_time[64], end_time[64];
};

/* the format's name on the command line ("cyclictest-json") */
const char *il_imp_format_name(enum il_imp_format f);
/* the program a format's results are named after ("cyclictest") */
const char *il_imp_format_program(enum il_imp_format f);

void il_imp_result_init(struct il_imp_result *res, enum il_imp_format f);
void il_imp_result_free(struct il_imp_result *res);

/*
 * Read one input file in format o->format and add its runs to res.
 * 0, or -EINVAL (bad input: "FILE:LINE: ..." in err), -ENOTSUP (gzip
 * without zlib), -EFBIG, -E2BIG (over a limit), -ENOMEM, or the -errno
 * of opening it.
 */
int il_imp_read(struct il_imp_result *res, const char *path,
		const struct il_imp_opts *o, char *err, size_t errlen);

#endif
