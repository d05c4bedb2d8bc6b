/* SPDX-License-Identifier: MIT */
/*
 * What every demo does the same way: reading the command line (--help,
 * --version, usage errors), skipping with the reason, stopping on
 * SIGINT/SIGTERM, the kernel line of the header, the expectation rule.
 * The demo driver (driver.h) takes these steps for every demo.
 * Program-side code: it prints and returns exit codes, which the library
 * never does.
 */
#ifndef INVLAB_DEMO_H
#define INVLAB_DEMO_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <invlab/opt.h>
#include <invlab/report.h>
#include <invlab/runlock.h>
#include <invlab/sysinfo.h>
#include <invlab/tap.h>
#include <invlab/validate.h>

/* set by SIGINT/SIGTERM once demo_signals() ran */
extern int demo_stop;
extern volatile sig_atomic_t demo_signal;

/*
 * Parse argv into cfg.  Returns -1 to go on, with *first set to the index
 * of the first positional argument, or the exit status to return now: 0
 * after --help or --version, 2 after a usage error (printed).  At most
 * max_pos positional arguments are accepted.
 */
int demo_args(int argc, char **argv, const struct il_opt *const *tables,
	      void *cfg, const char *prog, const char *usage,
	      const char *summary, int max_pos, int *first);
/* Print why the demo cannot run (a TAP skip plan with --tap); 77. */
int demo_skip(const struct il_common_cfg *c, const char *prog, const char *why);
/*
 * --ktap: the TAP paths (c->tap is set with it, demo_args) write KTAP
 * version 1 instead of TAP 13.  KTAP's plan follows its version line,
 * and how many tests a run makes is known only at its end, so standard
 * output is held in a temporary file from demo_ktap_hold() on;
 * demo_ktap_release() writes the version line, the plan ("1..n", or
 * "1..0 # SKIP why" when why is given and no test was written), then
 * what was held.  Without a hold, release does nothing.  hold: 0 or a
 * negative errno.
 */
enum il_tap_dialect demo_tap_dialect(const struct il_common_cfg *c);
int demo_ktap_hold(void);
void demo_ktap_release(int n, const char *why);
/* The exit status rc as --exit-status asks (expect.h il_exit_kselftest). */
int demo_exit(const struct il_common_cfg *c, int rc);
/* Stop on SIGINT and SIGTERM: sets demo_stop and demo_signal. */
void demo_signals(void);
/* "kernel 6.18.44, preempt=none (dynamic), HZ=250, proxy-exec=off, 2 CPUs,
 * vm=kvm, +NUMA ..." */
void demo_kernel_line(FILE *f, const struct il_sysinfo *si);
/*
 * One scheduler tick of the kernel under test (1/HZ; 4 ms when HZ is
 * unknown).  A reschedule requested for another CPU (an owner boosted
 * there above what runs) is acted on by an interrupt or, at the latest,
 * at that CPU's next tick: the allowance for each boost that must
 * preempt work on another CPU.
 */
uint64_t demo_tick_ns(const struct il_sysinfo *si);
/* How the judged waits fell, as members of the object being written. */
void demo_json_blocking(struct il_json *j, const struct il_blocking_stats *st);
/*
 * Does a verdict count as the expected one for the exit status?  Equal
 * verdicts do; so does UNDECIDED where PASS was expected: measured noise
 * (steal, a tick) could explain what was seen, which is neither a pass
 * nor a failure of the kernel, and is reported as such (a TAP SKIP,
 * "undecided" in the summary, and exit status 3 instead of 0: expect.h's
 * il_exit_status).  A negative control (FAIL expected) that
 * ends UNDECIDED did not detect what it is there to detect: not as
 * expected.  *undecided (may be NULL) is set for the second case.
 */
bool demo_as_expected(enum il_verdict got, enum il_verdict expected,
		      bool *undecided);
/* " #2" for the second run of a configuration, "" when there is one */
const char *demo_run_tag(long long repeat, int run, char *buf, size_t len);

#endif
