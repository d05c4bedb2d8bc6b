// SPDX-License-Identifier: MIT
/*
 * Running the probe (probe.h): cyclictest or rtla's timerlat beside the
 * measured part of an engine run, and what it saw in the run's result.
 *
 *   cyclictest -q -m -t N -a CPUS -p PRIO --policy=fifo -i US -h LIMIT_US
 *              -D SECONDS [--default-system] --json=/dev/fd/3
 *   rtla timerlat hist -c CPUS -p US -P f:PRIO -E LIMIT_US -b 1 --no-irq
 *              -d SECONDS [--dma-latency 0]
 *
 * rtla runs in a mount namespace of its own, where tracefs is mounted
 * for it when nothing is, so that no mount of it outlives it; the child
 * looks there for the timerlat tracer first, and a kernel without one is
 * a skip with that reason.  rtla makes a tracefs instance of its own
 * ("timerlat_hist") and removes it when it ends: it is stopped with
 * SIGINT, and gets SIGINT too when the demo dies outright, never
 * SIGKILL unless it does not end within 3 s.
 *
 * The engine starts it once the scenario's threads are ready and stops it
 * once they are gone (engine.c), so it covers the measured part and a
 * little more on each side.  Nothing of it outlives the run:
 *
 *   - it is bounded in time by itself (-D: the run's whole seconds and 6 s),
 *     and stopped with SIGINT (then SIGKILL after 1 s) and reaped on
 *     every way out of a run, a signal to the demo included (the engine
 *     stops on it and comes here);
 *   - it dies with the demo (PR_SET_PDEATHSIG) when the demo is killed
 *     outright, and is in its own process group, so a ^C at the terminal
 *     reaches the demo, which stops it in order and keeps its figures;
 *   - its output goes to files that have no name (O_TMPFILE; where /tmp
 *     cannot, a file recorded in the run state, runstate.h, and removed
 *     as soon as it is open), handed to it as /dev/fd/N: there is nothing
 *     to clean up, even after a SIGKILL.
 *
 * It is found in PATH here, before the fork, so that "not installed" is a
 * skip with the reason and the child only calls what is safe after a
 * fork in a threaded process.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <invlab/cpu.h>
#include <invlab/probe.h>
#include <invlab/report.h>
#include <invlab/runstate.h>
#include <invlab/strbuf.h>
#include <invlab/time.h>

/* the largest output read back */
#define OUT_MAX (16u << 20)
/* how long it may take to have its threads running, and to stop */
#define START_NS (2 * IL_NSEC_PER_SEC)
#define STOP_NS	 IL_NSEC_PER_SEC
/* rtla: reading what is left and removing its instance */
#define STOP_RTLA_NS (3 * IL_NSEC_PER_SEC)

/* the child's exit status when the kernel has no timerlat tracer */
#define NO_TRACER 78

struct il_probe {
	enum il_probe_tool tool;
	pid_t pid;
	int out, err, json; /* its stdout, stderr and --json file */
	int ncpus;
	int cpus[IL_PROBE_MAX_CPUS];
};

/* name in PATH, into buf: 0 or -ENOENT */
static int find_in_path(const char *name, char *buf, size_t len)
{
	const char *path = getenv("PATH");

	while (path && *path) {
		const char *colon = strchr(path, ':');
		size_t n = colon ? (size_t)(colon - path) : strlen(path);

		if (n && n + strlen(name) + 2 <= len) {
			snprintf(buf, len, "%.*s/%s", (int)n, path, name);
			if (!access(buf, X_OK))
				return 0;
		}
		path = colon ? colon + 1 : NULL;
	}
	return -ENOENT;
}

/* an output file without a name: -errno or the descriptor */
static int unnamed_file(void)
{
	char name[64];
	int fd = open("/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (fd >= 0 ||
	    (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return fd >= 0 ? fd : -errno;
	/* no O_TMPFILE there: a named one, recorded, gone once open */
	for (unsigned i = 0; i < 16; i++) {
		snprintf(name, sizeof(name), "/tmp/invlab-probe-%d.tmp.%lx%u",
			 (int)getpid(), (unsigned long)il_now_ns() & 0xffffff,
			 i);
		/* not root: recorded by nobody, as result files are */
		il_runstate_record(IL_RS_FILE, name, NULL);
		fd = open(name,
			  O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			  0600);
		if (fd >= 0)
			unlink(name);
		il_runstate_forget(IL_RS_FILE, name);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
	}
	return -EEXIST;
}

/* what a file holds, NUL-terminated (NULL: out of memory) */
static char *slurp(int fd)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);

	if (!buf || lseek(fd, 0, SEEK_SET) < 0) {
		free(buf);
		return NULL;
	}
	for (;;) {
		ssize_t k;

		if (n + 1 >= cap) {
			char *nb = cap < OUT_MAX ? realloc(buf, cap * 2) : NULL;

			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		k = read(fd, buf + n, cap - n - 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		n += (size_t)k;
	}
	buf[n] = '\0';
	return buf;
}

/* the last line of its standard error (where it says why), for a reason */
static void last_line(int fd, char *buf, size_t len)
{
	char *text = slurp(fd), *p, *last = NULL;

	buf[0] = '\0';
	if (!text)
		return;
	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (*p != '\n' && *p != '#')
			last = p;
	if (last)
		snprintf(buf, len, "%.*s", (int)strcspn(last, "\n"), last);
	free(text);
}

static void close_all(struct il_probe *p)
{
	if (p->out >= 0)
		close(p->out);
	if (p->err >= 0)
		close(p->err);
	if (p->json >= 0)
		close(p->json);
	free(p);
}

/* its threads: how many /proc/PID/task holds (-1: gone) */
static int nthreads(pid_t pid)
{
	char path[64];
	struct dirent *de;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

/* wait for it to end until deadline; whether it ended (*status set) */
static bool reap_until(pid_t pid, uint64_t deadline, int *status)
{
	for (;;) {
		pid_t w = waitpid(pid, status, WNOHANG);

		if (w == pid || (w < 0 && errno != EINTR))
			return true;
		if (il_now_ns() >= deadline)
			return false;
		il_sleep_until(il_now_ns() + 5 * IL_NSEC_PER_MSEC, NULL);
	}
}

static void kill_reap(pid_t pid, int *status)
{
	kill(pid, SIGKILL);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
}

static void describe_exit(int status, char *buf, size_t len)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "exit status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d", WTERMSIG(status));
	else
		snprintf(buf, len, "status %#x", status);
}

/*
 * In the child, before rtla: a mount namespace of its own (nothing it
 * mounts outlives it) with tracefs at /sys/kernel/tracing, and the
 * timerlat tracer in it; else _exit(NO_TRACER).  Only system calls.
 */
static void timerlat_ns(void)
{
	static const char at[] = "/sys/kernel/tracing";
	static const char want[] = "timerlat";
	char buf[4096];
	ssize_t n, got = 0;
	int fd;

	if (!unshare(CLONE_NEWNS))
		mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
	fd = open("/sys/kernel/tracing/available_tracers", O_RDONLY);
	if (fd < 0 && !mount("tracefs", at, "tracefs", 0, NULL))
		fd = open("/sys/kernel/tracing/available_tracers", O_RDONLY);
	if (fd < 0)
		return; /* rtla says why */
	while (got < (ssize_t)sizeof(buf) - 1 &&
	       (n = read(fd, buf + got, sizeof(buf) - 1 - (size_t)got)) > 0)
		got += n;
	close(fd);
	buf[got] = '\0';
	for (char *p = buf; *p; p++)
		if (!strncmp(p, want, sizeof(want) - 1) &&
		    (p == buf || p[-1] == ' ') &&
		    (p[sizeof(want) - 1] == ' ' ||
		     p[sizeof(want) - 1] == '\n' || !p[sizeof(want) - 1]))
			return;
	_exit(NO_TRACER);
}

/* the child, after fork: only what is safe there, then exec */
static void child(enum il_probe_tool tool, const char *path, char *const argv[],
		  int out, int err, int json, pid_t parent)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigset_t none;
	int nul = open("/dev/null", O_RDONLY);

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	sigaction(SIGINT, &dfl, NULL);
	sigaction(SIGTERM, &dfl, NULL);
	/* not the caller's class: the probe's own main thread is not measured
	 * and must not compete with the scenario */
	sched_setscheduler(0, SCHED_OTHER, &(struct sched_param){ 0 });
	setpriority(PRIO_PROCESS, 0, 0);
	setpgid(0, 0);
	/* dies with the thread that started it (the engine's caller);
	 * rtla is asked to end, so that it removes its tracefs instance */
	prctl(PR_SET_PDEATHSIG, tool == IL_PROBE_TIMERLAT ? SIGINT : SIGKILL);
	if (getppid() != parent)
		_exit(127);
	if (nul < 0 || dup2(nul, 0) < 0 || dup2(out, 1) < 0 ||
	    dup2(err, 2) < 0 || dup2(json, 3) < 0)
		_exit(127);
	if (tool == IL_PROBE_TIMERLAT)
		timerlat_ns();
		/* nothing else of the demo's: its run locks, its trace */
#ifdef SYS_close_range
	if (syscall(SYS_close_range, 4u, ~0u, 0u))
#endif
		for (int fd = 4; fd < 1024; fd++)
			close(fd);
	execv(path, argv);
	_exit(127);
}

int il_probe_check_cpus(const struct il_probe_opts *o, char *err, size_t len)
{
	for (int i = 0; o && i < o->ncpus; i++)
		if (!il_cpu_is_online(o->cpus[i])) {
			il_setf(err, len,
				"cpus: CPU %d is not online (see "
				"/sys/devices/system/cpu/online)",
				o->cpus[i]);
			return -EINVAL;
		}
	return 0;
}

static struct il_probe_result *new_result(const struct il_probe_opts *o,
					  int prio)
{
	struct il_probe_result *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->tool = o->tool;
	r->prio = prio;
	r->rr = o->rr;
	r->interval_ns = o->interval_ns;
	r->limit_ns = o->limit_ns;
	r->format = o->format;
	r->tune = o->tune;
	r->n = 0;
	for (int i = 0; i < IL_PROBE_MAX_CPUS; i++) {
		il_hist_init(&r->cpu[i].h);
		r->cpu[i].cpu = -1;
	}
	il_hist_init(&r->all);
	return r;
}

/* cyclictest's command line, in a[] and argv[] (NULL-terminated) */
static void cyclictest_argv(const struct il_probe_opts *o,
			    const struct il_probe_result *r, int ncpus,
			    char *cpus, uint64_t duration_ns, char a[][32],
			    char **argv)
{
	int argc = 0;

	snprintf(a[0], sizeof(a[0]), "-t%d", ncpus);
	snprintf(a[1], sizeof(a[1]), "-p%d", r->prio);
	snprintf(a[2], sizeof(a[2]), "-i%" PRIu64, o->interval_ns / 1000);
	snprintf(a[3], sizeof(a[3]), "-h%" PRIu64, o->limit_ns / 1000);
	/* its own bound, should nothing stop it */
	snprintf(a[4], sizeof(a[4]), "-D%" PRIu64,
		 (uint64_t)(duration_ns / IL_NSEC_PER_SEC + 6));
	argv[argc++] = "cyclictest";
	argv[argc++] = "-q";
	argv[argc++] = "-m";
	argv[argc++] = a[0];
	argv[argc++] = "-a";
	argv[argc++] = cpus;
	argv[argc++] = a[1];
	argv[argc++] = o->rr ? "--policy=rr" : "--policy=fifo";
	argv[argc++] = a[2];
	argv[argc++] = a[3];
	argv[argc++] = a[4];
	if (!o->tune)
		argv[argc++] = "--default-system";
	if (o->format == IL_PROBE_JSON) {
		argv[argc++] = "--json=/dev/fd/3";
		/* the histogram is in the JSON: not on stdout too */
		argv[argc++] = "--histfile=/dev/null";
	}
	argv[argc] = NULL;
}

/*
 * rtla timerlat hist's: its threads (the kernel's) at the probe's
 * priority on cpus, a bucket per microsecond up to the limit, the
 * threads' latency only
 */
static void timerlat_argv(const struct il_probe_opts *o,
			  const struct il_probe_result *r, char *cpus,
			  uint64_t duration_ns, char a[][32], char **argv)
{
	int argc = 0;

	snprintf(a[0], sizeof(a[0]), "%" PRIu64, o->interval_ns / 1000);
	snprintf(a[1], sizeof(a[1]), "%c:%d", o->rr ? 'r' : 'f', r->prio);
	snprintf(a[2], sizeof(a[2]), "%" PRIu64, o->limit_ns / 1000);
	snprintf(a[3], sizeof(a[3]), "%" PRIu64,
		 (uint64_t)(duration_ns / IL_NSEC_PER_SEC + 6));
	argv[argc++] = "rtla";
	argv[argc++] = "timerlat";
	argv[argc++] = "hist";
	argv[argc++] = "-c";
	argv[argc++] = cpus;
	argv[argc++] = "-p";
	argv[argc++] = a[0];
	argv[argc++] = "-P";
	argv[argc++] = a[1];
	argv[argc++] = "-E";
	argv[argc++] = a[2];
	argv[argc++] = "-b";
	argv[argc++] = "1";
	argv[argc++] = "--no-irq";
	argv[argc++] = "-d";
	argv[argc++] = a[3];
	if (o->tune) {
		argv[argc++] = "--dma-latency";
		argv[argc++] = "0";
	}
	argv[argc] = NULL;
}

/* the kernel's timerlat threads ("timerlat/N"), from /proc */
static int timerlat_threads(void)
{
	struct dirent *de;
	DIR *d = opendir("/proc");
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char path[64], comm[32] = "";
		ssize_t k;
		int fd;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/comm", de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		k = read(fd, comm, sizeof(comm) - 1);
		close(fd);
		if (k > 9 && !strncmp(comm, "timerlat/", 9))
			n++;
	}
	closedir(d);
	return n;
}

int il_probe_start(const struct il_probe_opts *o, const struct il_scenario *sc,
		   const unsigned long *mask, uint64_t duration_ns,
		   const int *stop, struct il_probe **pp,
		   struct il_probe_result **res)
{
	char path[4096], cpus[128], a[8][32], *argv[24], why[200];
	const size_t lbits = 8 * sizeof(unsigned long);
	struct il_probe_result *r;
	struct il_probe *p;
	uint64_t deadline;
	const char *name = il_probe_name(o ? o->tool : IL_PROBE_CYCLICTEST);
	int status, before = 0;
	pid_t parent = getpid();

	*pp = NULL;
	*res = NULL;
	if (!o || !o->enabled)
		return 0;
	r = new_result(o, il_probe_prio(o, sc));
	p = calloc(1, sizeof(*p));
	if (!r || !p) {
		free(r);
		free(p);
		return -ENOMEM;
	}
	*res = r;
	p->tool = o->tool;
	p->out = p->err = p->json = -1;
	if (o->ncpus) {
		p->ncpus = o->ncpus;
		memcpy(p->cpus, o->cpus, sizeof(p->cpus));
	} else {
		for (int c = 0; c < IL_MAX_CPUS && p->ncpus < IL_PROBE_MAX_CPUS;
		     c++)
			if (mask ? mask[c / lbits] >> (c % lbits) & 1
				 : il_cpu_is_online(c))
				p->cpus[p->ncpus++] = c;
	}
	il_probe_cpulist(p->cpus, p->ncpus, cpus, sizeof(cpus));
	if (!p->ncpus) {
		r->status = IL_PROBE_SKIPPED;
		il_setf(r->reason, sizeof(r->reason), "no CPU to run on");
		close_all(p);
		return 0;
	}
	if (find_in_path(o->tool == IL_PROBE_TIMERLAT ? "rtla" : "cyclictest",
			 path, sizeof(path))) {
		r->status = IL_PROBE_SKIPPED;
		il_setf(r->reason, sizeof(r->reason),
			o->tool == IL_PROBE_TIMERLAT
				? "rtla is not in PATH (Debian's rtla package)"
				: "cyclictest is not in PATH (it comes with "
				  "rt-tests)");
		close_all(p);
		return 0;
	}
	if (o->tool == IL_PROBE_TIMERLAT)
		timerlat_argv(o, r, cpus, duration_ns, a, argv);
	else
		cyclictest_argv(o, r, p->ncpus, cpus, duration_ns, a, argv);
	for (int i = 0; argv[i]; i++)
		il_appendf(r->command, sizeof(r->command), "%s%s", i ? " " : "",
			   argv[i]);

	p->out = unnamed_file();
	p->err = unnamed_file();
	p->json = unnamed_file();
	if (p->out < 0 || p->err < 0 || p->json < 0) {
		int e = p->out < 0 ? p->out : p->err < 0 ? p->err : p->json;

		r->status = IL_PROBE_FAILED;
		il_setf(r->reason, sizeof(r->reason),
			"cannot make its output file in /tmp: %s",
			strerror(-e));
		close_all(p);
		return 0;
	}
	if (o->tool == IL_PROBE_TIMERLAT)
		before = timerlat_threads();
	p->pid = fork();
	if (p->pid < 0) {
		r->status = IL_PROBE_FAILED;
		il_setf(r->reason, sizeof(r->reason), "cannot fork: %s",
			strerror(errno));
		close_all(p);
		return 0;
	}
	if (!p->pid)
		child(o->tool, path, argv, p->out, p->err, p->json, parent);
	r->pid = p->pid;
	/* running once its main thread and every measuring one are there
	 * (rtla's: the kernel's timerlat/N threads), and a couple of
	 * intervals went by */
	deadline = il_now_ns() + START_NS;
	for (;;) {
		int n = o->tool == IL_PROBE_TIMERLAT
				? timerlat_threads() - before
				: nthreads(p->pid) - 1;

		if (waitpid(p->pid, &status, WNOHANG) == p->pid) {
			char line[160];

			p->pid = 0;
			if (o->tool == IL_PROBE_TIMERLAT && WIFEXITED(status) &&
			    WEXITSTATUS(status) == NO_TRACER) {
				r->status = IL_PROBE_SKIPPED;
				il_setf(r->reason, sizeof(r->reason),
					"the kernel has no timerlat tracer "
					"(CONFIG_TIMERLAT_TRACER)");
				close_all(p);
				return 0;
			}
			describe_exit(status, why, sizeof(why));
			last_line(p->err, line, sizeof(line));
			r->status = IL_PROBE_FAILED;
			il_setf(r->reason, sizeof(r->reason),
				"%s ended at its start (%s)%s%s", name, why,
				line[0] ? ": " : "", line);
			close_all(p);
			return 0;
		}
		if (n >= p->ncpus)
			break;
		if (il_now_ns() >= deadline ||
		    (stop && __atomic_load_n(stop, __ATOMIC_RELAXED))) {
			if (o->tool != IL_PROBE_TIMERLAT ||
			    (kill(p->pid, SIGINT),
			     !reap_until(p->pid, il_now_ns() + STOP_RTLA_NS,
					 &status)))
				kill_reap(p->pid, &status);
			r->status = IL_PROBE_FAILED;
			il_setf(r->reason, sizeof(r->reason),
				"%s had not started its %d threads "
				"after 2 s, or the run was stopped",
				name, p->ncpus);
			close_all(p);
			return 0;
		}
		il_sleep_until(il_now_ns() + 5 * IL_NSEC_PER_MSEC, stop);
	}
	il_sleep_until(il_now_ns() + 2 * o->interval_ns, stop);
	*pp = p;
	return 0;
}

void il_probe_stop(struct il_probe *p, struct il_probe_result *r)
{
	char why[64], err[200], line[160];
	char *text;
	int status = 0, ret;

	if (!p)
		return;
	kill(p->pid, SIGINT);
	if (!reap_until(p->pid,
			il_now_ns() + (p->tool == IL_PROBE_TIMERLAT
					       ? STOP_RTLA_NS
					       : STOP_NS),
			&status)) {
		kill_reap(p->pid, &status);
		r->status = IL_PROBE_FAILED;
		il_setf(r->reason, sizeof(r->reason),
			"%s did not end within %d s of SIGINT: killed",
			il_probe_name(p->tool),
			p->tool == IL_PROBE_TIMERLAT ? 3 : 1);
		close_all(p);
		return;
	}
	text = slurp(r->format == IL_PROBE_JSON ? p->json : p->out);
	if (!text) {
		r->status = IL_PROBE_FAILED;
		il_setf(r->reason, sizeof(r->reason),
			"cannot read its output: out of memory");
		close_all(p);
		return;
	}
	ret = p->tool == IL_PROBE_TIMERLAT
		      ? il_probe_read_timerlat(text, r, err, sizeof(err))
	      : r->format == IL_PROBE_JSON
		      ? il_probe_read_json(text, r, err, sizeof(err))
		      : il_probe_read_text(text, p->cpus, p->ncpus, r, err,
					   sizeof(err));
	free(text);
	for (int i = 0; !ret && i < r->n; i++)
		if (r->cpu[i].cpu < 0 && i < p->ncpus)
			r->cpu[i].cpu = p->cpus[i];
	if (ret) {
		describe_exit(status, why, sizeof(why));
		last_line(p->err, line, sizeof(line));
		r->status = IL_PROBE_FAILED;
		il_setf(r->reason, sizeof(r->reason), "%s (%s): %s%s%s",
			il_probe_name(p->tool), why, err,
			line[0] ? "; it said: " : "", line);
	} else {
		r->status = IL_PROBE_RAN;
	}
	close_all(p);
}

void il_probe_result_delete(struct il_probe_result *res)
{
	free(res);
}

static const char *status_name(enum il_probe_status s)
{
	switch (s) {
	case IL_PROBE_RAN:
		return "ran";
	case IL_PROBE_SKIPPED:
		return "skipped";
	case IL_PROBE_FAILED:
		return "failed";
	default:
		return "none";
	}
}

static void stat_text(char *buf, size_t len, const struct il_hist *h, double p)
{
	uint64_t v;

	if (p < 0 && h->count)
		il_format_duration(buf, len, h->max);
	else if (p >= 0 && !il_hist_percentile(h, p, &v))
		il_format_duration(buf, len, v);
	else
		snprintf(buf, len, "-");
}

void il_probe_report(FILE *f, const char *pfx, const struct il_probe_result *r)
{
	char cpus[160] = "", iv[32];
	int list[IL_PROBE_MAX_CPUS];

	if (!r)
		return;
	if (r->status != IL_PROBE_RAN) {
		fprintf(f, "%sprobe %s: %s: %s\n", pfx, il_probe_name(r->tool),
			status_name(r->status), r->reason);
		return;
	}
	for (int i = 0; i < r->n; i++)
		list[i] = r->cpu[i].cpu;
	il_probe_cpulist(list, r->n, cpus, sizeof(cpus));
	il_format_duration(iv, sizeof(iv), r->interval_ns);
	fprintf(f, "%sprobe %s (%s %d, every %s, cpus %s):\n", pfx,
		il_probe_name(r->tool), r->rr ? "RR" : "FIFO", r->prio, iv,
		cpus);
	for (int i = 0; i < r->n; i++) {
		const struct il_probe_cpu *c = &r->cpu[i];
		char a[24], b[24], m[24];

		stat_text(a, sizeof(a), &c->h, 0.5);
		stat_text(b, sizeof(b), &c->h, 0.99);
		stat_text(m, sizeof(m), &c->h, -1);
		fprintf(f,
			"%s  cpu %d: %" PRIu64
			" wakeups, p50 %s, p99 %s, max %s, overflow %" PRIu64
			"\n",
			pfx, c->cpu, c->cycles, a, b, m, c->overflow);
	}
}

void il_probe_json(struct il_json *j, const struct il_probe_result *r)
{
	char cpus[160] = "", key[48];
	int list[IL_PROBE_MAX_CPUS];

	if (!r)
		return;
	il_json_begin_object(j, "probe");
	il_json_str(j, "name", il_probe_name(r->tool));
	il_json_str(j, "status", status_name(r->status));
	if (r->reason[0])
		il_json_str(j, "reason", r->reason);
	else
		il_json_null(j, "reason");
	if (r->command[0])
		il_json_str(j, "command", r->command);
	if (r->pid)
		il_json_int(j, "pid", r->pid);
	il_json_int(j, "priority", r->prio);
	il_json_str(j, "policy", r->rr ? "rr" : "fifo");
	il_json_uint(j, "interval_ns", r->interval_ns);
	il_json_uint(j, "limit_ns", r->limit_ns);
	il_json_str(j, "format", r->format == IL_PROBE_TEXT ? "text" : "json");
	il_json_bool(j, "tune", r->tune);
	for (int i = 0; i < r->n; i++)
		list[i] = r->cpu[i].cpu;
	il_probe_cpulist(list, r->n, cpus, sizeof(cpus));
	il_json_str(j, "cpus", cpus);
	il_json_begin_array(j, "threads");
	for (int i = 0; i < r->n; i++) {
		il_json_begin_object(j, NULL);
		il_json_int(j, "cpu", r->cpu[i].cpu);
		il_json_uint(j, "cycles", r->cpu[i].cycles);
		il_json_uint(j, "overflow", r->cpu[i].overflow);
		il_json_end_object(j);
	}
	il_json_end_array(j);
	il_json_end_object(j);
	if (r->status != IL_PROBE_RAN)
		return;
	/* histograms at the run's top level: the result tools take them */
	snprintf(key, sizeof(key), "probe_%s_ns", il_probe_name(r->tool));
	il_json_hist(j, key, &r->all);
	for (int i = 0; i < r->n; i++) {
		snprintf(key, sizeof(key), "probe_%s_cpu%d_ns",
			 il_probe_name(r->tool), r->cpu[i].cpu);
		il_json_hist(j, key, &r->cpu[i].h);
	}
}
