// SPDX-License-Identifier: MIT
/*
 * The per-CPU run lock (runlock.h) and the start of every engine run:
 * repair what dead runs left, then take the CPUs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <invlab/cpu.h>
#include <invlab/runlock.h>
#include <invlab/runstate.h>
#include <invlab/time.h>

static bool no_lock;
static uint64_t wait_ns = IL_RUNLOCK_WAIT_NS;
static int held[IL_MAX_CPUS];
static bool held_init;

void il_runlock_configure(bool off, uint64_t ns)
{
	no_lock = off;
	wait_ns = ns ? ns : IL_RUNLOCK_WAIT_NS;
}

int __il_runlock_parse_holder(const char *text, int *pid, char *prog,
			      size_t len)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || v <= 0 || v > 0x3fffffff || *end != ' ')
		return -EINVAL;
	end++;
	*pid = (int)v;
	snprintf(prog, len, "%.*s", (int)strcspn(end, "\n"), end);
	return prog[0] ? 0 : -EINVAL;
}

static void holder(int fd, char *buf, size_t len)
{
	char text[128] = "", prog[64];
	ssize_t r = pread(fd, text, sizeof(text) - 1, 0);
	int pid;

	if (r > 0)
		text[r] = '\0';
	if (r > 0 && !__il_runlock_parse_holder(text, &pid, prog, sizeof(prog)))
		snprintf(buf, len, "PID %d (%s)", pid, prog);
	else
		snprintf(buf, len, "another process");
}

static int lock_one(int cpu, uint64_t until, const int *stop, bool *told,
		    char *why, size_t len)
{
	char path[64], who[128], me[128];
	int fd;

	snprintf(path, sizeof(path), IL_RUNSTATE_DIR "/cpu%d.lock", cpu);
	/* 0600: a lock file others could open, they could flock and hold
	 * (flock needs no write access) */
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	fchmod(fd, 0600);
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			int ret = -errno;

			close(fd);
			return ret;
		}
		holder(fd, who, sizeof(who));
		if (il_now_ns() >= until) {
			snprintf(why, len,
				 "CPU %d is in use by %s, another invlab "
				 "run (gave up after waiting %llus; "
				 "--lock-wait to wait longer, --no-lock to "
				 "run beside it)",
				 cpu, who,
				 (unsigned long long)(wait_ns /
						      IL_NSEC_PER_SEC));
			close(fd);
			return -EBUSY;
		}
		if (!*told) {
			__il_notice("waiting for CPU %d: in use by %s (up to "
				    "%llus)",
				    cpu, who,
				    (unsigned long long)(wait_ns /
							 IL_NSEC_PER_SEC));
			*told = true;
		}
		if (il_sleep_until(il_now_ns() + 100 * IL_NSEC_PER_MSEC,
				   stop)) {
			snprintf(why, len, "stopped while waiting for CPU %d",
				 cpu);
			close(fd);
			return -EINTR;
		}
	}
	snprintf(me, sizeof(me), "%d %s\n", (int)getpid(),
		 program_invocation_short_name);
	if (ftruncate(fd, 0) == 0 &&
	    pwrite(fd, me, strlen(me), 0) != (ssize_t)strlen(me))
		/* the lock holds; only the name for others is missing */
		(void)0;
	held[cpu] = fd;
	return 0;
}

int il_runlock_cpus(const int *cpus, int n, const int *stop, char *why,
		    size_t len)
{
	uint64_t until = il_now_ns() + wait_ns;
	bool told = false;
	int ret;

	if (no_lock)
		return 0;
	if (!held_init) {
		for (int i = 0; i < IL_MAX_CPUS; i++)
			held[i] = -1;
		held_init = true;
	}
	/* not root: nobody could make /run/invlab, run unlocked */
	if (__il_runstate_dir())
		return 0;
	for (int c = 0; c < IL_MAX_CPUS; c++) {
		bool want = false;

		for (int i = 0; i < n && !want; i++)
			want = cpus[i] == c;
		if (!want || held[c] >= 0)
			continue;
		ret = lock_one(c, until, stop, &told, why, len);
		if (ret == -EBUSY || ret == -EINTR)
			return ret;
		/* another failure (no space in /run): no lock, no refusal */
	}
	if (told)
		__il_notice("CPUs free, starting");
	return 0;
}

int il_run_begin(const struct il_scenario *sc, const int *stop, char *why,
		 size_t len)
{
	int cpus[IL_MAX_CPUS], n = 0, online[IL_MAX_CPUS], non;
	bool all = false;
	char msg[1024];

	if (il_runstate_repair(msg, sizeof(msg)) && msg[0])
		__il_notice("%s", msg);
	non = il_cpu_online(online, IL_MAX_CPUS);
	for (int i = 0; i < sc->ntasks; i++) {
		const struct il_task *t = &sc->tasks[i];

		if (t->place != IL_PLACE_CPUS) {
			all = true;
			continue;
		}
		for (int c = 0; c < IL_MAX_CPUS && n < IL_MAX_CPUS; c++)
			if (t->cpus[c / (8 * sizeof(unsigned long))] &
			    (1ul << (c % (8 * sizeof(unsigned long)))))
				cpus[n++] = c;
	}
	if (all || !n) {
		for (int i = 0; i < non; i++)
			cpus[i] = online[i];
		n = non > 0 ? non : 0;
	}
	return il_runlock_cpus(cpus, n, stop, why, len);
}

/* is capability bit held (CapEff of /proc/self/status)? */
static bool cap_held(int bit)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "re");
	bool held_cap = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long caps;

		if (sscanf(line, "CapEff: %llx", &caps) == 1) {
			held_cap = (caps >> bit) & 1;
			break;
		}
	}
	fclose(f);
	return held_cap;
}

/*
 * Sanitizer builds map terabytes of shadow memory: locking it all takes
 * the kernel most of a minute of system time per program start (measured
 * under ASan: a 6 s unit test took 60 s).  Their timing is not judged
 * anyway, so memory is not locked there.
 */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define IL_SANITIZED
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define IL_SANITIZED
#endif
#endif

int il_lock_memory(char *why, size_t len)
{
	struct rlimit rl;

#ifdef IL_SANITIZED
	snprintf(why, len,
		 "memory not locked in a sanitizer build (its shadow memory "
		 "is too large to lock)");
	return -EPERM;
#endif

	/*
	 * MCL_FUTURE under a finite RLIMIT_MEMLOCK locks every later mapping
	 * until the limit is reached, and then thread stacks cannot be
	 * mapped: pthread_create fails with EAGAIN in the middle of the run.
	 * Without CAP_IPC_LOCK (bit 14) and a limit of at least 1 GiB, memory
	 * is not locked at all.
	 */
	if (!cap_held(14) &&
	    (getrlimit(RLIMIT_MEMLOCK, &rl) ||
	     (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < (1ull << 30)))) {
		snprintf(why, len,
			 "memory not locked: RLIMIT_MEMLOCK is %lluK and "
			 "CAP_IPC_LOCK is missing; page faults may add latency",
			 (unsigned long long)rl.rlim_cur >> 10);
		return -EPERM;
	}
	if (mlockall(MCL_CURRENT | MCL_FUTURE)) {
		int ret = -errno;

		snprintf(why, len,
			 "mlockall failed (%s); page faults may add "
			 "latency",
			 strerror(errno));
		return ret;
	}
	return 0;
}
