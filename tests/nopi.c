// SPDX-License-Identifier: MIT
/*
 * A C library without priority inheritance, for the negative control of
 * the kernel suite (kernel-trace.sh nopi): preloaded, it takes
 * PTHREAD_PRIO_INHERIT and PTHREAD_PRIO_PROTECT, says yes, and leaves the
 * mutex a plain one; asked back, it claims the protocol it was given.
 * A check that trusted the attributes would PASS under it; one that
 * judges what the kernel did must FAIL.
 *
 *   LD_PRELOAD=build/tests/invlab-nopi.so build/demos/pi-classic -p inherit
 */
#include <pthread.h>

/* what each attribute object was told, by address: few exist at a time */
#define SLOTS 64
static const pthread_mutexattr_t *who[SLOTS];
static int told[SLOTS];

int pthread_mutexattr_setprotocol(pthread_mutexattr_t *a, int protocol)
{
	for (int i = 0; i < SLOTS; i++)
		if (who[i] == a || !who[i]) {
			who[i] = a;
			told[i] = protocol;
			break;
		}
	return 0;
}

int pthread_mutexattr_getprotocol(const pthread_mutexattr_t *a, int *protocol)
{
	*protocol = PTHREAD_PRIO_NONE;
	for (int i = 0; i < SLOTS && who[i]; i++)
		if (who[i] == a)
			*protocol = told[i];
	return 0;
}
