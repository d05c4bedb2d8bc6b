// SPDX-License-Identifier: MIT
/*
 * Read a thread's SCHED_DEADLINE accounting from its /proc sched file.
 *
 * The file is debug output, not an ABI: lines have come and gone between
 * kernels (se.slice, ext.enabled, latency fields in some trees), so the
 * parser looks fields up by name, ignores every line it does not know,
 * and says which fields it found rather than assume a layout.  Only the
 * two dl.* fields are required; their absence is -ENODATA, the normal
 * answer for a thread that is not SCHED_DEADLINE.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <invlab/dlstat.h>

enum kind {
	K_S64,	/* "%Ld" into int64_t */
	K_BITS, /* "%Ld" of a u64 the kernel cast to long long */
	K_INT,	/* "%Ld" into int */
	K_U64,	/* "%Ld" that cannot be negative */
	K_NS,	/* "%Ld.%06ld": ms and ns, into ns */
};

static const struct field {
	const char *name;
	unsigned bit;
	enum kind kind;
	size_t off;
} fields[] = {
	{ "dl.runtime", IL_DLSTAT_RUNTIME, K_S64,
	  offsetof(struct il_dlstat, runtime_ns) },
	{ "dl.deadline", IL_DLSTAT_DEADLINE, K_BITS,
	  offsetof(struct il_dlstat, deadline_ns) },
	{ "policy", IL_DLSTAT_POLICY, K_INT,
	  offsetof(struct il_dlstat, policy) },
	{ "prio", IL_DLSTAT_PRIO, K_INT, offsetof(struct il_dlstat, prio) },
	{ "se.sum_exec_runtime", IL_DLSTAT_SUM_EXEC, K_NS,
	  offsetof(struct il_dlstat, sum_exec_ns) },
	{ "se.nr_migrations", IL_DLSTAT_MIGRATIONS, K_U64,
	  offsetof(struct il_dlstat, nr_migrations) },
	{ "nr_voluntary_switches", IL_DLSTAT_VOLUNTARY, K_U64,
	  offsetof(struct il_dlstat, nr_voluntary) },
	{ "nr_involuntary_switches", IL_DLSTAT_INVOLUNTARY, K_U64,
	  offsetof(struct il_dlstat, nr_involuntary) },
};

#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

/* a whole signed decimal, nothing else */
static int parse_ll(const char *s, long long *v)
{
	char *end;

	if (!*s || blank(*s))
		return -EINVAL;
	errno = 0;
	*v = strtoll(s, &end, 10);
	if (end == s || *end)
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	return 0;
}

/* "1.744182": ms, '.', the ns below the ms in exactly 6 digits */
static int parse_ns(const char *s, uint64_t *ns)
{
	const char *dot = strchr(s, '.');
	char ms_part[32];
	long long ms;
	uint64_t frac = 0, t;
	size_t len;
	int ret;

	if (!dot)
		return -EINVAL;
	len = (size_t)(dot - s);
	if (len >= sizeof(ms_part))
		return -ERANGE;
	memcpy(ms_part, s, len);
	ms_part[len] = '\0';
	ret = parse_ll(ms_part, &ms);
	if (ret)
		return ret;
	if (ms < 0)
		return -EINVAL;
	if (strlen(dot + 1) != 6)
		return -EINVAL;
	for (const char *p = dot + 1; *p; p++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		frac = frac * 10 + (uint64_t)(*p - '0');
	}
	if (__builtin_mul_overflow((uint64_t)ms, 1000000u, &t) ||
	    __builtin_add_overflow(t, frac, ns))
		return -ERANGE;
	return 0;
}

static int store(const struct field *f, const char *val, struct il_dlstat *st)
{
	char *dst = (char *)st + f->off;
	long long v;
	uint64_t u;
	int ret;

	if (f->kind == K_NS) {
		ret = parse_ns(val, &u);
		if (!ret)
			memcpy(dst, &u, sizeof(u));
		return ret;
	}
	ret = parse_ll(val, &v);
	if (ret)
		return ret;
	switch (f->kind) {
	case K_S64: {
		int64_t s = v;

		memcpy(dst, &s, sizeof(s));
		break;
	}
	case K_BITS:
		/* the kernel printed a u64 through (long long): undo it */
		u = (uint64_t)v;
		memcpy(dst, &u, sizeof(u));
		break;
	case K_INT: {
		int i = (int)v;

		if (v < -2147483647LL - 1 || v > 2147483647LL)
			return -ERANGE;
		memcpy(dst, &i, sizeof(i));
		break;
	}
	case K_U64:
		if (v < 0)
			return -EINVAL;
		u = (uint64_t)v;
		memcpy(dst, &u, sizeof(u));
		break;
	case K_NS:
		break;
	}
	return 0;
}

int il_dlstat_parse(const char *text, struct il_dlstat *st)
{
	const char *line, *nl;

	if (!text || !st)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	for (line = text; (nl = strchr(line, '\n')); line = nl + 1) {
		const char *colon = memchr(line, ':', (size_t)(nl - line));
		const char *k_end, *v, *v_end;
		char key[64], val[64];
		size_t klen, vlen;

		if (!colon)
			continue;
		/* "name<blanks>:<blanks>value<blanks>" */
		for (k_end = colon; k_end > line && blank(k_end[-1]); k_end--)
			;
		while (line < k_end && blank(*line))
			line++;
		for (v = colon + 1; v < nl && blank(*v); v++)
			;
		for (v_end = nl;
		     v_end > v && (blank(v_end[-1]) || v_end[-1] == '\r');
		     v_end--)
			;
		klen = (size_t)(k_end - line);
		vlen = (size_t)(v_end - v);
		if (klen >= sizeof(key))
			continue;
		memcpy(key, line, klen);
		key[klen] = '\0';
		for (size_t i = 0; i < NFIELDS; i++) {
			int ret;

			if (strcmp(key, fields[i].name) ||
			    (st->have & fields[i].bit))
				continue;
			if (vlen >= sizeof(val))
				return -EINVAL;
			memcpy(val, v, vlen);
			val[vlen] = '\0';
			ret = store(&fields[i], val, st);
			if (ret)
				return ret;
			st->have |= fields[i].bit;
			break;
		}
	}
	if ((st->have & (IL_DLSTAT_RUNTIME | IL_DLSTAT_DEADLINE)) !=
	    (IL_DLSTAT_RUNTIME | IL_DLSTAT_DEADLINE))
		return -ENODATA;
	return 0;
}

int il_dlstat_path(pid_t pid, pid_t tid, char *path, size_t len)
{
	int w;

	if (!path || !len)
		return -EINVAL;
	if (tid <= 0 && pid <= 0)
		w = snprintf(path, len, "/proc/thread-self/sched");
	else if (pid <= 0)
		w = snprintf(path, len, "/proc/self/task/%d/sched", (int)tid);
	else if (tid <= 0)
		/* a process's main thread */
		w = snprintf(path, len, "/proc/%d/sched", (int)pid);
	else
		w = snprintf(path, len, "/proc/%d/task/%d/sched", (int)pid,
			     (int)tid);
	if (w < 0 || (size_t)w >= len)
		return -ENAMETOOLONG;
	return 0;
}

int il_dlstat_open(pid_t pid, pid_t tid)
{
	char path[64];
	int ret, fd;

	ret = il_dlstat_path(pid, tid, path, sizeof(path));
	if (ret)
		return ret;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int il_dlstat_read_fd(int fd, struct il_dlstat *st)
{
	/*
	 * The dl.* lines come within the first 2 KiB; NUMA lines at the
	 * end grow with the node count.  A text cut at the buffer's end
	 * loses only its last, incomplete line (the parser skips it).
	 */
	char buf[8192];
	size_t got = 0;

	if (fd < 0 || !st)
		return -EINVAL;
	while (got < sizeof(buf) - 1) {
		ssize_t n =
			pread(fd, buf + got, sizeof(buf) - 1 - got, (off_t)got);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	return il_dlstat_parse(buf, st);
}

int il_dlstat_read(pid_t pid, pid_t tid, struct il_dlstat *st)
{
	int fd = il_dlstat_open(pid, tid), ret;

	if (fd < 0)
		return fd;
	ret = il_dlstat_read_fd(fd, st);
	close(fd);
	return ret;
}

int il_dl_budget_consumed(const struct il_dlstat *start,
			  const struct il_dlstat *end, uint64_t runtime_ns,
			  uint64_t period_ns, uint64_t *consumed_ns,
			  uint64_t *replenished)
{
	const unsigned need = IL_DLSTAT_RUNTIME | IL_DLSTAT_DEADLINE;
	int64_t dd, used;
	uint64_t k, kq;

	if (!start || !end || !consumed_ns || !runtime_ns || !period_ns ||
	    (start->have & need) != need || (end->have & need) != need)
		return -EINVAL;
	/* deadlines are u64 on a wrapping clock: compare as the kernel does */
	dd = (int64_t)(end->deadline_ns - start->deadline_ns);
	if (dd < 0 || (uint64_t)dd % period_ns)
		return -ERANGE;
	k = (uint64_t)dd / period_ns;
	if (__builtin_mul_overflow(k, runtime_ns, &kq) || kq > INT64_MAX ||
	    __builtin_sub_overflow(start->runtime_ns, end->runtime_ns, &used) ||
	    __builtin_add_overflow(used, (int64_t)kq, &used) || used < 0)
		return -ERANGE;
	*consumed_ns = (uint64_t)used;
	if (replenished)
		*replenished = k;
	return 0;
}
