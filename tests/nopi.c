// SPDX-License-Identifier: MIT
/*
 * A C library without priority inheritance, for the negative controls of
 * the kernel suite (kernel-trace.sh nopi, nopi-every, fair-holder):
 * preloaded, it takes PTHREAD_PRIO_INHERIT and PTHREAD_PRIO_PROTECT, says
 * yes, and leaves the mutex a plain one; asked back, it claims the
 * protocol it was given.  A check that trusted the attributes would PASS
 * under it; one that judges what the kernel did must FAIL.
 *
 * With INVLAB_NOPI_EVERY=N (1..1000000) inheritance is lost only in one
 * round of N: the mutex is the real PI mutex, and every Nth time it is
 * taken while free, it and every request made while that holder has it
 * go to a plain shadow mutex instead.  An intermittent fault: a kernel
 * that drops a boost now and then.
 *
 * Two more faults keep inheritance and break what follows it, each a
 * C library's doing that stands in for the kernel's:
 *  - INVLAB_NOPI_KEEPBOOST=PRIO (1..99): after a real-time thread gives
 *    back an inheritance mutex, its SCHED_FIFO/RR priority is set to PRIO
 *    when it is below: the boost outlives the lock, as a kernel that
 *    misses the deboost leaves it (the deboost check must FAIL);
 *  - INVLAB_NOPI_MOVE=CPU: after a thread first gives back one, it is
 *    moved to CPU, whatever its affinity was: a pinned task then runs
 *    elsewhere, as a donor a kernel never sent back does (the affinity
 *    check must FAIL).
 *
 *   LD_PRELOAD=build/tests/invlab-nopi.so build/demos/pi-classic -p inherit
 *   INVLAB_NOPI_EVERY=50 LD_PRELOAD=... build/demos/pi-classic -p inherit
 *   INVLAB_NOPI_KEEPBOOST=30 LD_PRELOAD=... build/demos/pi-classic -p inherit
 */

#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

/* what each attribute object was told, by address: few exist at a time */
#define SLOTS 64
static const pthread_mutexattr_t *who[SLOTS];
static int told[SLOTS];

/* the intermittent mode: the PI mutexes made, and their shadows */
struct shadow {
	pthread_mutex_t *m;
	pthread_mutex_t plain;
	pthread_mutex_t guard; /* users and route */
	unsigned users, rounds;
	int route; /* this round's requests go to plain */
};
static struct shadow shadows[SLOTS];
static int nshadows;
static pthread_mutex_t shadows_lock = PTHREAD_MUTEX_INITIALIZER;
/* per thread: the shadow routes of the mutexes it holds, by slot */
static __thread unsigned char held_plain[SLOTS];

static long every = -1; /* -1 not read yet, 0 always plain */
/* the faults after the unlock: 0 / -1 none */
static int keepboost, move_cpu = -1;
/* a mode that keeps the real protocols */
static int passthrough;
/* the inheritance mutexes made (keepboost, move) */
static pthread_mutex_t *inherit_m[SLOTS];
static int ninherit;
static __thread int moved;
static int (*real_setprotocol)(pthread_mutexattr_t *, int);
static int (*real_init)(pthread_mutex_t *, const pthread_mutexattr_t *);
static int (*real_timedlock)(pthread_mutex_t *, const struct timespec *);
static int (*real_lock)(pthread_mutex_t *);
static int (*real_unlock)(pthread_mutex_t *);

static void setup(void)
{
	const char *e = getenv("INVLAB_NOPI_EVERY");
	char *end;
	long n = e ? strtol(e, &end, 10) : 0;

	real_setprotocol = dlsym(RTLD_NEXT, "pthread_mutexattr_setprotocol");
	real_init = dlsym(RTLD_NEXT, "pthread_mutex_init");
	real_timedlock = dlsym(RTLD_NEXT, "pthread_mutex_timedlock");
	real_lock = dlsym(RTLD_NEXT, "pthread_mutex_lock");
	real_unlock = dlsym(RTLD_NEXT, "pthread_mutex_unlock");
	every = e && *e && !*end && n >= 1 && n <= 1000000 ? n : 0;
	e = getenv("INVLAB_NOPI_KEEPBOOST");
	n = e ? strtol(e, &end, 10) : 0;
	keepboost = e && *e && !*end && n >= 1 && n <= 99 ? (int)n : 0;
	e = getenv("INVLAB_NOPI_MOVE");
	n = e ? strtol(e, &end, 10) : -1;
	move_cpu = e && *e && !*end && n >= 0 && n < CPU_SETSIZE ? (int)n : -1;
	passthrough = every || keepboost || move_cpu >= 0;
	if (passthrough && (!real_setprotocol || !real_init ||
			    !real_timedlock || !real_lock || !real_unlock))
		/* cannot pass through: plain, as without it */
		every = keepboost = passthrough = 0, move_cpu = -1;
}

static void once(void)
{
	static pthread_once_t o = PTHREAD_ONCE_INIT;

	pthread_once(&o, setup);
}

static int told_of(const pthread_mutexattr_t *a)
{
	for (int i = 0; i < SLOTS && who[i]; i++)
		if (who[i] == a)
			return told[i];
	return PTHREAD_PRIO_NONE;
}

int pthread_mutexattr_setprotocol(pthread_mutexattr_t *a, int protocol)
{
	once();
	for (int i = 0; i < SLOTS; i++)
		if (who[i] == a || !who[i]) {
			who[i] = a;
			told[i] = protocol;
			break;
		}
	return passthrough ? real_setprotocol(a, protocol) : 0;
}

int pthread_mutexattr_getprotocol(const pthread_mutexattr_t *a, int *protocol)
{
	*protocol = told_of(a);
	return 0;
}

int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a)
{
	int ret;

	once();
	ret = real_init(m, a);
	if (ret || !passthrough || !a || told_of(a) != PTHREAD_PRIO_INHERIT)
		return ret;
	real_lock(&shadows_lock);
	if (ninherit < SLOTS)
		inherit_m[ninherit++] = m;
	real_unlock(&shadows_lock);
	if (!every)
		return 0;
	real_lock(&shadows_lock);
	if (nshadows < SLOTS) {
		struct shadow *s = &shadows[nshadows];

		real_init(&s->plain, NULL);
		real_init(&s->guard, NULL);
		s->users = s->rounds = 0;
		s->route = 0;
		s->m = m;
		nshadows++;
	}
	real_unlock(&shadows_lock);
	return 0;
}

static int slot_of(const pthread_mutex_t *m)
{
	for (int i = 0; i < nshadows; i++)
		if (shadows[i].m == m)
			return i;
	return -1;
}

/* take m, or its shadow in the rounds that lose inheritance */
static int take(pthread_mutex_t *m, const struct timespec *abs)
{
	int i = every ? slot_of(m) : -1, ret, route;
	struct shadow *s;

	if (i < 0)
		return abs ? real_timedlock(m, abs) : real_lock(m);
	s = &shadows[i];
	real_lock(&s->guard);
	if (!s->users++)
		s->route = ++s->rounds % (unsigned)every == 0;
	route = s->route;
	real_unlock(&s->guard);
	if (abs)
		ret = real_timedlock(route ? &s->plain : m, abs);
	else
		ret = real_lock(route ? &s->plain : m);
	if (ret) {
		real_lock(&s->guard);
		s->users--;
		real_unlock(&s->guard);
		return ret;
	}
	held_plain[i] = (unsigned char)route;
	return 0;
}

int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *abs)
{
	once();
	return take(m, abs);
}

int pthread_mutex_lock(pthread_mutex_t *m)
{
	once();
	return take(m, NULL);
}

static int inherits(const pthread_mutex_t *m)
{
	for (int i = 0; i < ninherit; i++)
		if (inherit_m[i] == m)
			return 1;
	return 0;
}

/* the faults after an inheritance mutex is given back */
static void after_unlock(const pthread_mutex_t *m)
{
	struct sched_param sp;
	int pol;

	if ((!keepboost && move_cpu < 0) || !inherits(m))
		return;
	if (keepboost && !pthread_getschedparam(pthread_self(), &pol, &sp) &&
	    (pol == SCHED_FIFO || pol == SCHED_RR) &&
	    sp.sched_priority < keepboost) {
		sp.sched_priority = keepboost;
		pthread_setschedparam(pthread_self(), pol, &sp);
	}
	if (move_cpu >= 0 && !moved) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(move_cpu, &set);
		moved = 1;
		sched_setaffinity(0, sizeof(set), &set);
	}
}

int pthread_mutex_unlock(pthread_mutex_t *m)
{
	int i, ret;
	struct shadow *s;

	once();
	i = every ? slot_of(m) : -1;
	if (i < 0) {
		ret = real_unlock(m);
		if (!ret)
			after_unlock(m);
		return ret;
	}
	s = &shadows[i];
	ret = real_unlock(held_plain[i] ? &s->plain : m);
	real_lock(&s->guard);
	s->users--;
	real_unlock(&s->guard);
	return ret;
}
