// SPDX-License-Identifier: MIT
/*
 * The messaging workload of sched-messaging (messaging.h): the workers,
 * their channels, one timed run.  Program-side code (demos/): it reports
 * through its why buffers and return values, and never exits.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <invlab/counters.h>
#include <invlab/report.h>
#include <invlab/time.h>

#include "demo.h"
#include "messaging.h"

struct worker {
	int rfd;       /* receiver: its channel's read end, else -1 */
	int *wfds;     /* sender: the group's write ends */
	int nw;	       /* how many */
	uint64_t msgs; /* receiver: messages to read; sender: loops */
	pthread_t th;
	pid_t pid;
	bool started, done;
};

struct bench {
	const struct msg_params *cfg;
	int nworkers;
	struct worker *w;
	int *fd;    /* every channel's two ends, per group and receiver */
	int *wends; /* the write ends, per group and receiver */
	int nfd;
	int ready[2]; /* each worker writes a byte when ready */
	int go[2];    /* closed to release them */
	int done[2];  /* each worker writes a byte when done */
	int stopping; /* threads: leave at the next interrupted call */
};

/* set by the poke's handler in any worker thread: lock-free atomics are
 * safe in a handler and race-free between threads */
static int worker_stop;

static bool stopped(void)
{
	return __atomic_load_n(&worker_stop, __ATOMIC_RELAXED);
}

static void on_poke(int sig)
{
	int e = errno;

	(void)sig;
	__atomic_store_n(&worker_stop, 1, __ATOMIC_RELAXED);
	errno = e;
}

void msg_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_poke; /* no SA_RESTART: interrupts read/write */
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static int one_byte(int fd)
{
	char b = 0;
	ssize_t n;

	while ((n = write(fd, &b, 1)) < 0 && errno == EINTR && !stopped())
		;
	return n == 1 ? 0 : -1;
}

/* wait for the release: the go pipe's write end closed */
static int wait_go(struct bench *b)
{
	struct pollfd p = { .fd = b->go[0], .events = POLLIN };

	while (poll(&p, 1, -1) < 0)
		if (errno != EINTR || stopped())
			return -1;
	return 0;
}

static int do_worker(struct bench *b, struct worker *w)
{
	size_t size = (size_t)b->cfg->size;
	char buf[MSG_MAX_SIZE];
	int ret = 0;

	memset(buf, 0x5a, size);
	if (one_byte(b->ready[1]) || wait_go(b))
		return -1;
	if (w->rfd >= 0) {
		for (uint64_t m = 0; m < w->msgs && !ret; m++) {
			size_t got = 0;

			while (got < size) {
				ssize_t n = read(w->rfd, buf + got, size - got);

				if (n > 0) {
					got += (size_t)n;
				} else if (n < 0 && errno == EINTR &&
					   !stopped()) {
					continue;
				} else {
					ret = -1; /* end of file, or stopped */
					break;
				}
			}
		}
	} else {
		for (uint64_t l = 0; l < w->msgs && !ret; l++)
			for (int k = 0; k < w->nw && !ret; k++) {
				size_t put = 0;

				while (put < size) {
					ssize_t n = write(w->wfds[k], buf + put,
							  size - put);

					if (n > 0) {
						put += (size_t)n;
					} else if (n < 0 && errno == EINTR &&
						   !stopped()) {
						continue;
					} else {
						ret = -1;
						break;
					}
				}
			}
	}
	if (!ret)
		ret = one_byte(b->done[1]);
	return ret;
}

struct targ {
	struct bench *b;
	struct worker *w;
};

static void *thread_main(void *arg)
{
	struct targ *t = arg;

	(void)do_worker(t->b, t->w);
	__atomic_store_n(&t->w->done, true, __ATOMIC_RELEASE);
	return NULL;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void bench_free(struct bench *b)
{
	for (int i = 0; i < b->nfd; i++)
		close_fd(&b->fd[i]);
	for (int i = 0; i < 2; i++) {
		close_fd(&b->ready[i]);
		close_fd(&b->go[i]);
		close_fd(&b->done[i]);
	}
	free(b->fd);
	free(b->wends);
	free(b->w);
	b->fd = b->wends = NULL;
	b->w = NULL;
}

/* channels and workers' descriptions; 0 or -errno with why */
static int bench_setup(struct bench *b, const struct msg_params *c, char *why,
		       size_t len)
{
	int g = (int)c->groups, f = (int)c->fds, *wends;

	memset(b, 0, sizeof(*b));
	b->cfg = c;
	for (int i = 0; i < 2; i++)
		b->ready[i] = b->go[i] = b->done[i] = -1;
	b->nworkers = 2 * g * f;
	b->nfd = 2 * g * f;
	b->fd = malloc(sizeof(*b->fd) * (size_t)b->nfd);
	b->w = calloc((size_t)b->nworkers, sizeof(*b->w));
	wends = malloc(sizeof(*wends) * (size_t)(g * f));
	if (!b->fd || !b->w || !wends) {
		free(wends);
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	for (int i = 0; i < b->nfd; i++)
		b->fd[i] = -1;
	b->wends = wends;
	if (pipe2(b->ready, O_CLOEXEC) || pipe2(b->go, O_CLOEXEC) ||
	    pipe2(b->done, O_CLOEXEC)) {
		snprintf(why, len, "cannot create a pipe: %s", strerror(errno));
		return -errno;
	}
	for (int k = 0; k < g; k++)
		for (int r = 0; r < f; r++) {
			int *ends = &b->fd[2 * (k * f + r)];
			struct worker *w = &b->w[k * 2 * f + r];
			int ret =
				c->pipe ? pipe2(ends, O_CLOEXEC)
					: socketpair(AF_UNIX,
						     SOCK_STREAM | SOCK_CLOEXEC,
						     0, ends);

			if (ret) {
				ret = -errno;
				snprintf(why, len,
					 "cannot create %s %d of %d: %s (%d "
					 "descriptors are needed: raise "
					 "ulimit -n)",
					 c->pipe ? "pipe" : "socket pair",
					 k * f + r + 1, g * f, strerror(-ret),
					 2 * g * f + 16);
				return ret;
			}
			w->rfd = ends[0];
			w->msgs = (uint64_t)c->loops * (uint64_t)f;
			wends[k * f + r] = ends[1];
		}
	for (int k = 0; k < g; k++)
		for (int s = 0; s < f; s++) {
			struct worker *w = &b->w[k * 2 * f + f + s];

			w->rfd = -1;
			w->wfds = &wends[k * f];
			w->nw = f;
			w->msgs = (uint64_t)c->loops;
		}
	return 0;
}

/* ---- one run ------------------------------------------------------------ */

/* read n bytes from fd by deadline (or a stop); the count read */
static int collect(int fd, int n, uint64_t deadline)
{
	char buf[256];
	int got = 0;

	while (got < n && !demo_stop) {
		uint64_t now = il_now_ns();
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int ms, r;
		ssize_t k;

		if (now >= deadline)
			break;
		ms = (int)((deadline - now) / IL_NSEC_PER_MSEC) + 1;
		r = poll(&p, 1, ms > 100 ? 100 : ms);
		if (r <= 0)
			continue;
		k = read(fd, buf,
			 (size_t)(n - got) < sizeof(buf) ? (size_t)(n - got)
							 : sizeof(buf));
		if (k > 0)
			got += (int)k;
		else if (k == 0)
			break;
	}
	return got;
}

/* stop every worker still there and reap them (bounded) */
static void stop_workers(struct bench *b, bool thread)
{
	uint64_t until = il_now_ns() + 5 * IL_NSEC_PER_SEC;

	close_fd(&b->go[1]);
	for (int i = 0; i < b->nworkers; i++) {
		struct worker *w = &b->w[i];

		if (!w->started)
			continue;
		if (!thread) {
			int st;

			kill(w->pid, SIGKILL);
			while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
				;
			w->started = false;
			continue;
		}
		/* a thread in read() or write() leaves on the poke (the
		 * handler has no SA_RESTART); again until it is gone */
		while (!__atomic_load_n(&w->done, __ATOMIC_ACQUIRE) &&
		       il_now_ns() < until) {
			struct timespec ts = { 0, 10 * 1000 * 1000 };

			pthread_kill(w->th, SIGUSR1);
			nanosleep(&ts, NULL);
		}
		if (__atomic_load_n(&w->done, __ATOMIC_ACQUIRE)) {
			pthread_join(w->th, NULL);
			w->started = false;
		}
	}
}

/* the workers, all of them done: they are leaving now */
static void reap(struct bench *b, bool thread)
{
	for (int i = 0; i < b->nworkers; i++) {
		struct worker *w = &b->w[i];
		int st;

		if (!w->started)
			continue;
		if (thread)
			pthread_join(w->th, NULL);
		else
			while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
				;
		w->started = false;
	}
}

int msg_run_once(const struct msg_params *c, uint64_t bound,
		 struct msg_run *out, char *why, size_t len)
{
	struct bench b;
	struct il_counters ctr;
	bool counting;
	struct targ *targs = NULL;
	uint64_t t0, deadline;
	int ret, n, got;

	memset(out, 0, sizeof(*out));
	__atomic_store_n(&worker_stop, 0, __ATOMIC_RELAXED);
	ret = bench_setup(&b, c, why, len);
	if (ret) {
		bench_free(&b);
		return ret;
	}
	n = b.nworkers;
	/* opened stopped, inherited by every worker, started at the release */
	counting = il_counters_wanted(); /* INVLAB_COUNTERS=off: none */
	ret = counting ? il_counters_open(&ctr, 0,
					  IL_CTR_INHERIT | IL_CTR_DISABLED)
		       : 0;
	if (ret) {
		snprintf(why, len, "counters: %s", strerror(-ret));
		bench_free(&b);
		return ret;
	}
	if (c->thread) {
		targs = calloc((size_t)n, sizeof(*targs));
		if (!targs) {
			snprintf(why, len, "out of memory");
			ret = -ENOMEM;
			goto out;
		}
	}
	for (int i = 0; i < n; i++) {
		struct worker *w = &b.w[i];

		if (c->thread) {
			targs[i] = (struct targ){ &b, w };
			ret = -pthread_create(&w->th, NULL, thread_main,
					      &targs[i]);
		} else {
			w->pid = fork();
			if (w->pid == 0) {
				/* the parent's ends only: a closed go must
				 * release, a dead parent must end the reads */
				close(b.go[1]);
				close(b.ready[0]);
				close(b.done[0]);
				signal(SIGINT, SIG_IGN);
				signal(SIGTERM, SIG_DFL);
				_exit(do_worker(&b, w) ? 1 : 0);
			}
			ret = w->pid < 0 ? -errno : 0;
		}
		if (ret) {
			snprintf(why, len,
				 "cannot create worker %d of %d: %s (ulimit "
				 "-u, or threads-max)",
				 i + 1, n, strerror(-ret));
			goto out;
		}
		w->started = true;
	}
	/* a child has its own copies: the parent keeps none of the
	 * channels, so that a dead peer ends a read (processes) */
	if (!c->thread)
		for (int i = 0; i < b.nfd; i++)
			close_fd(&b.fd[i]);
	deadline = il_now_ns() + bound;
	got = collect(b.ready[0], n, deadline);
	if (got < n) {
		snprintf(out->why, sizeof(out->why),
			 "%d of %d workers ready within the bound", got, n);
		goto stop;
	}
	if (counting)
		il_counters_enable(&ctr);
	t0 = il_now_ns();
	close_fd(&b.go[1]);
	deadline = t0 + bound;
	got = collect(b.done[0], n, deadline);
	/* every worker done: the end is when the last is reaped, as perf
	 * has it (the exits are part of the figure) */
	if (got == n)
		reap(&b, c->thread);
	out->wall_ns = il_now_ns() - t0;
	if (counting)
		il_counters_disable(&ctr);
	if (got == n) {
		out->completed = true;
	} else {
		char bd[32];

		il_format_duration(bd, sizeof(bd), bound);
		snprintf(out->why, sizeof(out->why),
			 demo_stop ? "stopped by a signal: %d of %d workers "
				     "done"
				   : "%d of %d workers done within the bound "
				     "(%s): stopped",
			 got, n, bd);
	}
stop:
	stop_workers(&b, c->thread);
	if (counting)
		il_counters_read(&ctr, &out->counts);
	ret = 0;
out:
	if (ret)
		stop_workers(&b, c->thread);
	if (counting)
		il_counters_close(&ctr);
	/* a thread that would not leave keeps its memory */
	for (int i = 0; i < n; i++)
		if (b.w[i].started) {
			snprintf(why, len,
				 "a worker thread did not stop within 5 s");
			return -ETIMEDOUT;
		}
	free(targs);
	bench_free(&b);
	return ret;
}

const char *msg_mode_name(const struct msg_params *c)
{
	return c->thread ? (c->pipe ? "thread-pipe" : "thread-socket")
			 : (c->pipe ? "process-pipe" : "process-socket");
}

int msg_needs_fds(const struct msg_params *c, char *why, size_t len)
{
	struct rlimit rl;
	uint64_t need = 4ull * (uint64_t)c->groups * (uint64_t)c->fds + 64;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 0;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need) {
		if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= need) {
			rl.rlim_cur = need;
			if (!setrlimit(RLIMIT_NOFILE, &rl))
				return 0;
		}
		snprintf(why, len,
			 "%" PRIu64 " file descriptors are needed, the limit "
			 "is %llu (ulimit -n; raising the hard limit needs "
			 "CAP_SYS_RESOURCE)",
			 need, (unsigned long long)rl.rlim_cur);
		return -EMFILE;
	}
	return 0;
}
