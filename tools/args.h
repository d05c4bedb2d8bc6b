/* SPDX-License-Identifier: MIT */
/*
 * The command-line half the result tools share: two sides of result
 * files on one command line, and the input limits every tool takes.
 */
#ifndef INVLAB_TOOLS_ARGS_H
#define INVLAB_TOOLS_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include <invlab/opt.h>

#include "results.h"

/*
 * The --max-input-size row, the same in every tool's option table: off
 * is the offsetof() its uint64_t field.  The largest input json-c takes
 * is 2 GiB; 1 GiB of JSON already needs some 20 GiB of memory.
 */
#define IL_RES_MAX_INPUT_DEFAULT_STR "16M"
#define IL_RES_OPT_MAX_INPUT(off)                                              \
	{                                                                      \
		.name = "max-input-size", .type = IL_OPT_SIZE,                 \
		.offset = (off), .def = IL_RES_MAX_INPUT_DEFAULT_STR,          \
		.min = 1024, .max = 1ll << 30, .metavar = "SIZE",              \
		.help = "refuse any input file larger than SIZE (K, M, G "     \
			"suffixes): results are untrusted, and json-c "        \
			"needs some 20 times the size in memory",              \
	}

/*
 * The significance rows of the tools that test over runs (compare,
 * gate): --alpha P, a string read by il_res_parse_alpha, and
 * --correction holm|bh|none, the int index of an enum il_res_correction.
 * The same option in both, declared here once; each tool's help says
 * what it applies to.
 */
#define IL_RES_OPT_ALPHA(off, text)                                            \
	{                                                                      \
		.name = "alpha", .type = IL_OPT_STRING, .offset = (off),       \
		.def = "0.05", .metavar = "P", .help = text,                   \
	}
#define IL_RES_OPT_CORRECTION(off, text)                                       \
	{                                                                      \
		.name = "correction", .short_name = 'c',                       \
		.type = IL_OPT_CHOICE, .offset = (off), .def = "holm",         \
		.choices = "holm|bh|none", .metavar = "METHOD", .help = text,  \
	}
/*
 * --alpha's value: a significance level, 0 < P <= 0.5.  0, or -EINVAL
 * with "--alpha: ..." in err.
 */
int il_res_parse_alpha(const char *s, double *alpha, char *err, size_t errlen);

/*
 * Two sides on one command line: "BASE... -- CAND...".  il_opt_parse ends
 * the options at the first "--" and drops it, so count what follows it
 * beforehand: those are the last operands after parsing.  Returns that
 * count, or -1 when there is no "--".  (An option never takes "--" as its
 * value, so the first "--" is always the one the parser stops at.)
 */
int il_res_count_after_dashdash(int argc, char *const *argv);
/*
 * Any number of sides on one command line: "A... -- B... [-- C...]".
 * il_opt_parse drops the first "--"; each later one is an operand that
 * parts the sides after it.  ops[0..nops) are the operands after
 * parsing, the last after of them (il_res_count_after_dashdash, >= 0)
 * those that followed the first "--".  The files are moved together at
 * the start of ops, in order and without the separators, and
 * counts[k] (counts has room for nops + 2) is the number of files of
 * side k, *nsides of them.  0, or -EINVAL with the message in err: an
 * option after "--" (il_opt_parse would have taken it for a file), a
 * side without files.
 */
int il_res_split_sides(char **ops, int nops, int after, int *counts,
		       int *nsides, char *err, size_t errlen);
/*
 * A side's operand that is a directory stands for the result files in
 * it: its names ending in .json, not hidden, not its subdirectories,
 * in the order of their names.  A lab's 10,000 files a side need not
 * fit on a command line (ARG_MAX, 2 MiB here, holds some 20,000 paths
 * of 100 bytes).  files[0..) are the operands of nsides sides in turn,
 * counts[k] of side k; *out (n of them, freed by il_res_free_paths) the
 * paths, directories replaced by their files, and counts updated.  0,
 * -ENOENT (a directory without .json files), -errno of opendir, or
 * -ENOMEM, with the message in err.  What is not a directory is kept
 * as it is: the reader says what is wrong with it.
 */
int il_res_expand_dirs(char *const *files, int nsides, int *counts, char ***out,
		       size_t *nout, char *err, size_t errlen);
void il_res_free_paths(char **v, size_t n);
/*
 * The exit status for a result file il_res_set_load refused with ret: 2
 * when it does not exist (an input error, as a missing job file or
 * profile is in every program) or lacks the key to group by (--by does
 * not fit it), 99 when it exists but cannot be read or is not a valid
 * result.
 */
int il_res_load_status(int ret);
/*
 * Load the files of the two sides, argv[first..first+nbase) and the
 * `after` files after "--" (none when after <= 0), refusing an option
 * after "--" (il_opt_parse would have taken it for a file).  0, or -1
 * with the message in err (2 for usage or a missing file, 99 for an
 * unreadable one, in *status).
 */
/*
 * --label's names for nsides sides: none, or one a side, non-empty and
 * distinct.  0, or -EINVAL with the message in err.
 */
int il_res_labels_check(const struct il_strlist *l, size_t nsides, char *err,
			size_t errlen);
/*
 * The sides' names, malloc'd into labels[0..nsides): --label's, escaped
 * (they reach a terminal too); for two sides baseline and candidate; for
 * more, each side's kernel release when every side has one of its own
 * (*by_release is then true), else baseline, cand1, cand2, ...  0 or
 * -ENOMEM (what was made is in labels, to be freed).
 */
int il_res_side_labels(const struct il_res_set *sides, size_t nsides,
		       const struct il_strlist *l, char **labels,
		       bool *by_release);
int il_res_load_sides(int argc, char **argv, int first, int nbase, int after,
		      struct il_res_set *base, struct il_res_set *cand,
		      int *status, char *err, size_t errlen);

#endif
