/* SPDX-License-Identifier: MIT */
/*
 * One run at a time per CPU.  Two measurements sharing a CPU disturb each
 * other (pi-classic beside dl-mbwi reads as a FAIL), so a run holds an
 * exclusive flock on /run/invlab/cpuN.lock for every CPU it uses, from
 * the start of its first engine run until the process ends (the kernel
 * drops the locks of a killed process).  The file holds "PID PROGRAM" of
 * the holder, for the message of whoever waits.
 *
 * A second run waits for the CPUs up to a timeout (IL_RUNLOCK_WAIT_NS by
 * default, --lock-wait), saying once whom it waits for, then gives up with
 * -EBUSY naming the holder.  --no-lock skips all of it (experts measuring
 * interference on purpose).  A process that cannot write /run/invlab (not
 * root) runs unlocked.
 */
#ifndef INVLAB_RUNLOCK_H
#define INVLAB_RUNLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <invlab/scenario.h>

#define IL_RUNLOCK_WAIT_NS (30ull * 1000000000ull)

/* --no-lock and --lock-wait of the program (0: the default wait) */
void il_runlock_configure(bool no_lock, uint64_t wait_ns);

/*
 * Lock the CPUs in cpus (a list of n), lowest first, waiting as
 * configured; CPUs this process holds already are skipped.  0; -EBUSY
 * with the holder in why ("CPU 1 is in use by PID 4242 (dl-mbwi) ...");
 * -EINTR when *stop was set while waiting.
 */
int il_runlock_cpus(const int *cpus, int n, const int *stop, char *why,
		    size_t len);

/*
 * What every engine run does first: undo what dead runs left
 * (il_runstate_repair, told through the notice hook), then lock the CPUs
 * sc uses (its tasks' CPU lists; all online CPUs when a task may run
 * anywhere).  0, or the error of either with why filled.
 */
int il_run_begin(const struct il_scenario *sc, const int *stop, char *why,
		 size_t len);

/*
 * mlockall(MCL_CURRENT | MCL_FUTURE) where it is safe: with CAP_IPC_LOCK or
 * an RLIMIT_MEMLOCK of at least 1 GiB.  Under a smaller limit MCL_FUTURE
 * makes pthread_create fail (EAGAIN) once the limit is used up, so memory
 * is left unlocked: -EPERM, with the limit and the missing capability in
 * why, for the program to print as a note.
 */
int il_lock_memory(char *why, size_t len);

/* "4242 dl-mbwi" lock-file text -> pid and program; 0 or -EINVAL */
int __il_runlock_parse_holder(const char *text, int *pid, char *prog,
			      size_t len);

#endif
