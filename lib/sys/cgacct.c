// SPDX-License-Identifier: MIT
/*
 * cgacct: the task groups' CPU time by the scheduler's own accounts
 * (cgacct.h), parsed from debugfs sched/debug.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <invlab/cgacct.h>

#define SUM_KEY ".se->sum_exec_runtime"

/* does dir end in path, at a '/'?  "/" itself matches nothing */
static bool ends_in(const char *dir, const char *path, size_t plen)
{
	size_t dlen = strlen(dir);

	while (plen > 1 && path[plen - 1] == '/')
		plen--;
	if (plen <= 1 || path[0] != '/' || plen > dlen)
		return false;
	return !memcmp(dir + dlen - plen, path, plen);
}

/* "12345.678901" (ms, then ns of the ms) into ns */
static int ms_ns(const char *s, uint64_t *ns)
{
	unsigned long long ms, frac;
	int a = 0, b = 0;

	if (sscanf(s, " %llu%n.%llu%n", &ms, &a, &frac, &b) != 2 ||
	    b - a != 7 || frac > 999999)
		return -EINVAL;
	*ns = ms * 1000000ull + frac;
	return 0;
}

/*
 * One pass over the text: with sum false, the longest section path that
 * each group's directory ends in, into best[]; with sum true, every
 * section whose path is that one added up
 */
static int pass(const char *text, const char *const *dirs, int n, size_t *best,
		bool sum, uint64_t *ns, unsigned char *found)
{
	bool cur[IL_CGACCT_MAX] = { false };
	bool in = false;
	const char *p = text;

	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		if (len > 7 && !strncmp(p, "cfs_rq[", 7)) {
			const char *colon = memchr(p, ':', len);

			in = false;
			for (int i = 0; i < n; i++) {
				const char *path = colon ? colon + 1 : NULL;
				size_t plen =
					path ? len - (size_t)(path - p) : 0;

				cur[i] = path && dirs[i] &&
					 ends_in(dirs[i], path, plen);
				if (!cur[i])
					continue;
				if (!sum && plen > best[i])
					best[i] = plen;
				cur[i] = sum && plen == best[i];
				in = in || cur[i];
			}
		} else if (len && p[0] != ' ' && p[0] != '\t') {
			in = false; /* another section: rt_rq[...], a header */
		} else if (in) {
			const char *key = p;
			const char *end = p + len;

			while (key < end && (*key == ' ' || *key == '\t'))
				key++;
			if ((size_t)(end - key) > strlen(SUM_KEY) &&
			    !strncmp(key, SUM_KEY, strlen(SUM_KEY))) {
				const char *v =
					memchr(key, ':', (size_t)(end - key));
				uint64_t x;

				if (!v || ms_ns(v + 1, &x))
					return -EINVAL;
				for (int i = 0; i < n; i++)
					if (cur[i]) {
						ns[i] += x;
						found[i]++;
					}
			}
		}
		p += len;
		if (*p == '\n')
			p++;
	}
	return 0;
}

int il_cgacct_parse(const char *text, const char *const *dirs, int n,
		    uint64_t *ns, unsigned char *found)
{
	size_t best[IL_CGACCT_MAX] = { 0 };
	int ret, nfound = 0;

	if (!text || n < 0 || n > IL_CGACCT_MAX ||
	    (n && (!dirs || !ns || !found)))
		return -EINVAL;
	for (int i = 0; i < n; i++) {
		ns[i] = 0;
		found[i] = 0;
	}
	if ((ret = pass(text, dirs, n, best, false, ns, found)) ||
	    (ret = pass(text, dirs, n, best, true, ns, found)))
		return ret;
	for (int i = 0; i < n; i++)
		nfound += found[i] > 0;
	return nfound;
}

int il_cgacct_read(const char *const *dirs, int n, uint64_t *ns,
		   unsigned char *found)
{
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);
	int fd, ret;

	if (!buf)
		return -ENOMEM;
	fd = open(IL_CGACCT_FILE, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		free(buf);
		return ret;
	}
	for (;;) {
		ssize_t k;

		if (cap - len < 4096) {
			char *nb = cap < (64u << 20) ? realloc(buf, cap * 2)
						     : NULL;

			if (!nb) {
				ret = -ENOMEM;
				goto out;
			}
			buf = nb;
			cap *= 2;
		}
		k = read(fd, buf + len, cap - len - 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			ret = -errno;
			goto out;
		}
		if (!k)
			break;
		len += (size_t)k;
	}
	buf[len] = '\0';
	ret = il_cgacct_parse(buf, dirs, n, ns, found);
out:
	close(fd);
	free(buf);
	return ret;
}
