// SPDX-License-Identifier: MIT
/* The steps every demo takes the same way; see demo.h. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <invlab/expect.h>
#include <invlab/runlock.h>
#include <invlab/runstate.h>

#include "demo.h"

int demo_stop;
volatile sig_atomic_t demo_signal;

static void on_signal(int sig)
{
	demo_signal = sig;
	__atomic_store_n(&demo_stop, 1, __ATOMIC_RELAXED);
}

void demo_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static const char *notice_prog;

static void notice(const char *line)
{
	fprintf(stderr, "%s: %s\n", notice_prog, line);
}

int demo_args(int argc, char **argv, const struct il_opt *const *tables,
	      void *cfg, const char *prog, const char *usage,
	      const char *summary, int max_pos, int *first)
{
	struct il_common_cfg *c = cfg; /* first member, see opt.h */
	char err[512];
	int kc, ret = il_opt_parse(argc, argv, tables, cfg, err, sizeof(err));

	if (ret < 0) {
		fprintf(stderr, "%s: %s\nTry '%s --help'.\n", prog, err, prog);
		return 2;
	}
	if (c->help) {
		il_opt_help(stdout, prog, usage, summary, tables);
		return 0;
	}
	if (c->version) {
		printf("%s %s (%s)\n", prog, il_version(), il_features());
		return 0;
	}
	if (argc - ret > max_pos) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", prog,
			argv[ret + max_pos]);
		return 2;
	}
	if (c->ktap && (c->tap || c->live || c->stage)) {
		fprintf(stderr,
			"%s: --ktap: standard output is the KTAP alone: not "
			"with --%s\nTry '%s --help'.\n",
			prog,
			c->tap	  ? "tap"
			: c->live ? "live"
				  : "stage",
			prog);
		return 2;
	}
	/* KTAP is TAP in the kernel's dialect: every TAP path prints it */
	if (c->ktap)
		c->tap = 1;
	notice_prog = prog;
	il_runstate_set_notice(notice);
	il_runlock_configure(c->no_lock, c->lock_wait_ns);
	if (c->kconfig && (kc = il_sysinfo_use_kconfig(c->kconfig))) {
		fprintf(stderr, "%s: --kconfig: cannot use '%s': %s\n", prog,
			c->kconfig,
			kc == -EINVAL ? "not a kernel config (no CONFIG_ line)"
				      : strerror(-kc));
		return 2;
	}
	if (c->json && il_afile_check(c->json, err, sizeof(err))) {
		fprintf(stderr, "%s: --json: %s\n", prog, err);
		return 2;
	}
	/*
	 * --json -: the JSON is all there is on standard output, so that it
	 * can be piped; the report goes to standard error.
	 */
	if (c->json && !strcmp(c->json, "-")) {
		int fd = dup(STDOUT_FILENO);
		FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

		if (f) {
			fflush(stdout);
			dup2(STDERR_FILENO, STDOUT_FILENO);
			il_afile_set_stdout(f);
		} else if (fd >= 0) {
			close(fd);
		}
	}
	*first = ret;
	return -1;
}

int demo_skip(const struct il_common_cfg *c, const char *prog, const char *why)
{
	if (c->tap) {
		il_tap_version_in(stdout, demo_tap_dialect(c));
		il_tap_skip_all(stdout, why);
	}
	fprintf(stderr, "%s: SKIP: %s\n", prog, why);
	return 77;
}

enum il_tap_dialect demo_tap_dialect(const struct il_common_cfg *c)
{
	return c && c->ktap ? IL_KTAP_1 : IL_TAP_13;
}

/* --ktap: what standard output was, and the file that stands in for it */
static int held_fd = -1;
static FILE *held;

int demo_ktap_hold(void)
{
	FILE *t;
	int fd, e;

	if (held)
		return -EBUSY;
	fflush(stdout);
	t = tmpfile();
	if (!t)
		return -errno;
	fd = dup(STDOUT_FILENO);
	if (fd < 0 || dup2(fileno(t), STDOUT_FILENO) < 0) {
		e = errno;
		if (fd >= 0)
			close(fd);
		fclose(t);
		return -e;
	}
	held = t;
	held_fd = fd;
	return 0;
}

void demo_ktap_release(int n, const char *why)
{
	char buf[8192];
	size_t k;

	if (!held)
		return;
	fflush(stdout);
	dup2(held_fd, STDOUT_FILENO);
	close(held_fd);
	held_fd = -1;
	il_tap_version_in(stdout, IL_KTAP_1);
	if (why && !n)
		il_tap_skip_all(stdout, why);
	else
		il_tap_plan(stdout, n);
	/* what was written went through the descriptor: read it from 0 */
	rewind(held);
	while ((k = fread(buf, 1, sizeof(buf), held)) > 0)
		fwrite(buf, 1, k, stdout);
	fclose(held);
	held = NULL;
	fflush(stdout);
}

int demo_exit(const struct il_common_cfg *c, int rc)
{
	return c && c->exit_status == IL_EXIT_STYLE_KSELFTEST
		       ? il_exit_kselftest(rc)
		       : rc;
}

void demo_kernel_line(FILE *f, const struct il_sysinfo *si)
{
	char p[40], h[48], n[24];

	fprintf(f,
		"kernel %s, preempt=%s, HZ=%d, proxy-exec=%s, %d CPUs, %s, %s, "
		"%s\n",
		si->release, il_sysinfo_preempt_str(si, p, sizeof(p)), si->hz,
		il_sysinfo_proxy_exec_str(si), si->cpus_online,
		il_sysinfo_numa_str(si, n, sizeof(n)),
		il_sysinfo_hypervisor_str(si, h, sizeof(h)), il_features());
}

const char *demo_run_tag(long long repeat, int run, char *buf, size_t len)
{
	if (repeat <= 1)
		buf[0] = '\0';
	else
		snprintf(buf, len, " #%d", run);
	return buf;
}

uint64_t demo_tick_ns(const struct il_sysinfo *si)
{
	return si->hz > 0 ? 1000000000ull / (uint64_t)si->hz : 4000000ull;
}

void demo_json_blocking(struct il_json *j, const struct il_blocking_stats *st)
{
	il_json_uint(j, "rounds_within_bound", st->clean);
	il_json_uint(j, "rounds_noise_set_aside", st->noisy);
	il_json_uint(j, "rounds_violating", st->violations);
	il_json_uint(j, "rounds_timed_out", st->timed_out);
	il_json_uint(j, "worst_excess_ns", st->worst_excess_ns);
	il_json_uint(j, "worst_hog_during_wait_ns", st->worst_lower_ns);
	il_json_uint(j, "worst_foreign_ns", st->worst_foreign_ns);
}

bool demo_as_expected(enum il_verdict got, enum il_verdict expected,
		      bool *undecided)
{
	enum il_outcome o = il_expect(got, expected);

	if (undecided)
		*undecided = o == IL_OUT_UNDECIDED;
	return !il_outcome_fails(o, IL_UNDECIDED_TOLERATE);
}
