// SPDX-License-Identifier: MIT
/*
 * sched-messaging's workload (messaging.c): groups of senders and
 * receivers; every sender of a group writes LOOPS messages of SIZE bytes
 * to every receiver of its group, over a socket pair or a pipe per
 * receiver; the workers are processes or threads.
 */
#ifndef INVLAB_DEMO_MESSAGING_H
#define INVLAB_DEMO_MESSAGING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <invlab/counters.h>

/* the largest message */
#define MSG_MAX_SIZE 65536

struct msg_params {
	int64_t groups, fds, loops; /* fds: senders (and receivers) a group */
	uint64_t size;		    /* bytes of one message */
	int pipe, thread; /* pipes, threads instead of sockets, processes */
};

/* one run: wall time from the release of the workers to the last reaped */
struct msg_run {
	uint64_t wall_ns;
	bool completed;
	char why[256];		 /* !completed: why */
	struct il_counts counts; /* the workers' counters over that time */
};

/*
 * One run bounded by bound_ns (workers stopped at the bound or on
 * demo_stop; out->completed says which).  0, or -errno with why filled
 * when the run could not be made.
 */
int msg_run_once(const struct msg_params *p, uint64_t bound_ns,
		 struct msg_run *out, char *why, size_t len);

/* "process-socket", "thread-pipe", ...: the run's configuration name */
const char *msg_mode_name(const struct msg_params *p);

/* raise RLIMIT_NOFILE to what p needs: 0, or -EMFILE with why filled */
int msg_needs_fds(const struct msg_params *p, char *why, size_t len);

/* the workers' stop poke (SIGUSR1, interrupting their reads and writes)
 * and SIGPIPE ignored: once, before the first run */
void msg_signals(void);

#endif
