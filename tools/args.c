// SPDX-License-Identifier: MIT
/* The command-line helpers the result tools share (args.h). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <invlab/strbuf.h>

#include "args.h"
#include "escape.h"

int il_res_count_after_dashdash(int argc, char *const *argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--"))
			return argc - i - 1;
	return -1;
}

int il_res_parse_alpha(const char *s, double *alpha, char *err, size_t errlen)
{
	char *end;
	double a;

	errno = 0;
	a = strtod(s, &end);
	if (errno || end == s || *end || !(a > 0 && a <= 0.5)) {
		il_setf(err, errlen,
			"--alpha: '%s' is not a level between 0 and 0.5 "
			"(e.g. 0.05)",
			s);
		return -EINVAL;
	}
	*alpha = a;
	return 0;
}

int il_res_split_sides(char **ops, int nops, int after, int *counts,
		       int *nsides, char *err, size_t errlen)
{
	int n, k = 1, out = nops - after;

	/* "A --": the side after the only "--" is there, and empty */
	counts[0] = nops - after;
	counts[1] = 0;
	for (int i = nops - after; i < nops; i++) {
		if (!strcmp(ops[i], "--")) {
			counts[++k] = 0;
			continue;
		}
		counts[k]++;
		ops[out++] = ops[i];
	}
	n = k + 1;
	for (k = 0; k < n; k++) {
		if (counts[k] > 0)
			continue;
		if (n == 2 || !k)
			il_setf(err, errlen,
				"no %s files: give at least one on each side "
				"of '--'",
				k ? "candidate" : "baseline");
		else
			il_setf(err, errlen,
				"side %d of %d has no files: give at least one "
				"between two '--' and after the last",
				k + 1, n);
		return -EINVAL;
	}
	/* after "--" nothing is an option: say so rather than open "-o" */
	for (int i = counts[0]; i < out; i++) {
		if (ops[i][0] == '-' && ops[i][1]) {
			il_setf(err, errlen,
				"options go before '--': '%s' comes after it "
				"(write ./%s for a file of that name)",
				ops[i], ops[i]);
			return -EINVAL;
		}
	}
	*nsides = n;
	return 0;
}

int il_res_load_status(int ret)
{
	/* a key to group by that a run lacks: the option does not fit */
	return ret == -ENOENT || ret == -ENOTDIR || ret == -ENOKEY ? 2 : 99;
}

int il_res_load_sides(int argc, char **argv, int first, int nbase, int after,
		      struct il_res_set *base, struct il_res_set *cand,
		      int *status, char *err, size_t errlen)
{
	/* after "--" nothing is an option: say so rather than open "-o" */
	for (int i = after > 0 ? argc - after : argc; i < argc; i++) {
		if (argv[i][0] == '-' && argv[i][1]) {
			il_setf(err, errlen,
				"options go before '--': '%s' comes after it "
				"(write ./%s for a file of that name)",
				argv[i], argv[i]);
			*status = 2;
			return -1;
		}
	}
	for (int i = 0; i < nbase + (after > 0 ? after : 0); i++) {
		struct il_res_set *s = i < nbase ? base : cand;

		int ret = il_res_set_load(s, argv[first + i], err, errlen);

		if (ret) {
			*status = il_res_load_status(ret);
			return -1;
		}
	}
	return 0;
}

int il_res_labels_check(const struct il_strlist *l, size_t nsides, char *err,
			size_t errlen)
{
	if (!l->n)
		return 0;
	if ((size_t)l->n != nsides) {
		snprintf(err, errlen,
			 "--label: %zu sides and %d label%s: give one --label "
			 "a side, in side order",
			 nsides, l->n, l->n == 1 ? "" : "s");
		return -EINVAL;
	}
	for (int i = 0; i < l->n; i++) {
		if (!l->v[i][0]) {
			snprintf(err, errlen, "--label: side %d: an empty name",
				 i + 1);
			return -EINVAL;
		}
		for (int k = 0; k < i; k++)
			if (!strcmp(l->v[i], l->v[k])) {
				snprintf(err, errlen,
					 "--label: '%s' names sides %d and %d",
					 l->v[i], k + 1, i + 1);
				return -EINVAL;
			}
	}
	return 0;
}

int il_res_side_labels(const struct il_res_set *sides, size_t nsides,
		       const struct il_strlist *l, char **labels,
		       bool *by_release)
{
	bool releases = nsides > 2 && !l->n;
	char buf[32];

	for (size_t k = 0; k < nsides && releases; k++) {
		int n;
		const char *v = il_res_set_fp(&sides[k], IL_RES_FP_RELEASE, &n);

		releases = n == 1 && strcmp(v, "unknown");
		for (size_t j = 0; j < k && releases; j++)
			releases = strcmp(v, labels[j]);
		if (releases && !(labels[k] = strdup(v)))
			return -ENOMEM;
	}
	*by_release = releases;
	for (size_t k = 0; k < nsides; k++) {
		if (releases)
			continue;
		free(labels[k]);
		if (l->n)
			labels[k] = il_res_escape(l->v[k], strlen(l->v[k]));
		else if (!k)
			labels[k] = strdup("baseline");
		else if (nsides == 2)
			labels[k] = strdup("candidate");
		else
			labels[k] = strdup((
				snprintf(buf, sizeof(buf), "cand%zu", k), buf));
		if (!labels[k])
			return -ENOMEM;
	}
	return 0;
}

/* a name il_res_expand_dirs takes from a directory: *.json, not hidden */
static bool result_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && n > 5 && !strcmp(name + n - 5, ".json");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int push_path(char ***v, size_t *n, size_t *cap, char *p)
{
	if (!p)
		return -ENOMEM;
	if (*n == *cap) {
		size_t nc = *cap ? 2 * *cap : 64;
		char **nv = realloc(*v, nc * sizeof(*nv));

		if (!nv) {
			free(p);
			return -ENOMEM;
		}
		*v = nv;
		*cap = nc;
	}
	(*v)[(*n)++] = p;
	return 0;
}

/* the *.json names of directory dir, sorted, as dir/name */
static int add_dir(const char *dir, char ***v, size_t *n, size_t *cap,
		   char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	size_t first = *n;
	struct dirent *e;
	int ret = 0;

	if (!d) {
		ret = -errno;
		il_setf(err, errlen, "%s: cannot read the directory: %s", dir,
			strerror(-ret));
		return ret;
	}
	while (!ret && (e = readdir(d))) {
		size_t dl = strlen(dir);
		char *p;

		if (!result_name(e->d_name))
			continue;
		p = malloc(dl + strlen(e->d_name) + 2);
		if (p)
			sprintf(p, "%s%s%s", dir,
				dl && dir[dl - 1] == '/' ? "" : "/", e->d_name);
		ret = push_path(v, n, cap, p);
	}
	closedir(d);
	if (ret) {
		il_setf(err, errlen, "out of memory");
		return ret;
	}
	if (*n == first) {
		il_setf(err, errlen, "%s: a directory without *.json files",
			dir);
		return -ENOENT;
	}
	qsort(*v + first, *n - first, sizeof(**v), cmp_str);
	return 0;
}

int il_res_expand_dirs(char *const *files, int nsides, int *counts, char ***out,
		       size_t *nout, char *err, size_t errlen)
{
	size_t n = 0, cap = 0;
	char **v = NULL;
	int ret = 0;

	for (int k = 0, f = 0; k < nsides && !ret; k++) {
		size_t before = n;

		for (int i = 0; i < counts[k] && !ret; i++, f++) {
			struct stat st;

			if (!stat(files[f], &st) && S_ISDIR(st.st_mode))
				ret = add_dir(files[f], &v, &n, &cap, err,
					      errlen);
			else if ((ret = push_path(&v, &n, &cap,
						  strdup(files[f]))))
				il_setf(err, errlen, "out of memory");
		}
		if (!ret && n - before > INT_MAX) {
			il_setf(err, errlen, "side %d: over %d files", k + 1,
				INT_MAX);
			ret = -E2BIG;
		}
		if (!ret)
			counts[k] = (int)(n - before);
	}
	if (ret) {
		il_res_free_paths(v, n);
		return ret;
	}
	*out = v;
	*nout = n;
	return 0;
}

void il_res_free_paths(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
