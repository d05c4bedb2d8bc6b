// SPDX-License-Identifier: MIT
/*
 * Unit tests for lib/util/time.c: duration and size parsing (every unit,
 * fractions, default units, malformed input, overflow), formatting, and
 * the spin and sleep helpers, which must take at least the time asked for
 * and return early when told to stop.
 *
 * Run: meson test -C build time   (or build/tests/test-time)
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/time.h>

#include "invlab/time.h"
#include "t_util.h"

#define MS  IL_NSEC_PER_MSEC
#define SEC IL_NSEC_PER_SEC

/* parse with the given default unit; returns the error or the value */
static uint64_t dur(const char *s, uint64_t unit)
{
	uint64_t v = 0xdeadbeef;
	int ret = il_parse_duration(s, unit, &v);

	t_check_int(ret, 0);
	return v;
}

static int dur_err(const char *s)
{
	uint64_t v = 0xdeadbeef;
	int ret = il_parse_duration(s, 0, &v);

	/* a failed parse must not write the result */
	t_check(v == 0xdeadbeef);
	return ret;
}

static void test_parse_duration(void)
{
	/* every unit */
	t_check_int(dur("7ns", 0), 7);
	t_check_int(dur("7us", 0), 7000);
	t_check_int(dur("7ms", 0), 7 * MS);
	t_check_int(dur("7s", 0), 7 * SEC);
	t_check_int(dur("7m", 0), 420 * SEC);
	t_check_int(dur("0ns", 0), 0);
	t_check_int(dur("0", 0), 0);

	/* fractions, exactly */
	t_check_int(dur("1.5ms", 0), 1500000);
	t_check_int(dur("0.1us", 0), 100);
	t_check_int(dur("0.001ms", 0), 1000);
	t_check_int(dur("2.25s", 0), 2250 * MS);
	t_check_int(dur("0.5m", 0), 30 * SEC);
	t_check_int(dur("1.000000001s", 0), SEC + 1);
	t_check_int(dur("1.0ns", 0), 1);
	t_check_int(dur("3.000000000000000000000000000ms", 0), 3 * MS);
	t_check_int(dur("0.00000000005m", 0), 3);
	t_check_int(dur("007ms", 0), 7 * MS);

	/* bare numbers: the default unit, 0 meaning seconds */
	t_check_int(dur("5", 0), 5 * SEC);
	t_check_int(dur("5", MS), 5 * MS);
	t_check_int(dur("5", IL_NSEC_PER_USEC), 5000);
	t_check_int(dur("5", 1), 5);
	t_check_int(dur("2.5", MS), 2500 * IL_NSEC_PER_USEC);
	t_check_int(dur("1.5", 0), 1500 * MS);
	/* an explicit unit wins over the default */
	t_check_int(dur("5us", MS), 5000);

	/* sub-nanosecond values are refused, not rounded */
	t_check_int(dur_err("2.5ns"), -EINVAL);
	t_check_int(dur_err("0.0001us"), -EINVAL);
	t_check_int(dur_err("0.0000000001s"), -EINVAL);
	t_check_int(dur_err("0.000000000025m"), -EINVAL); /* 1.5 ns */
	t_check_int(dur_err("1.00000000000000000001s"), -EINVAL);

	/* malformed */
	t_check_int(dur_err(""), -EINVAL);
	t_check_int(dur_err("ms"), -EINVAL);
	t_check_int(dur_err("1.2.3ms"), -EINVAL);
	t_check_int(dur_err("-5ms"), -EINVAL);
	t_check_int(dur_err("+5ms"), -EINVAL);
	t_check_int(dur_err("5 ms"), -EINVAL);
	t_check_int(dur_err(" 5ms"), -EINVAL);
	t_check_int(dur_err("5ms "), -EINVAL);
	t_check_int(dur_err("5xs"), -EINVAL);
	t_check_int(dur_err("5MS"), -EINVAL);
	t_check_int(dur_err("5msec"), -EINVAL);
	t_check_int(dur_err("5h"), -EINVAL);
	t_check_int(dur_err(".5ms"), -EINVAL);
	t_check_int(dur_err("5.ms"), -EINVAL);
	t_check_int(dur_err("5."), -EINVAL);
	/* exponents are not part of the grammar */
	t_check_int(dur_err("1e3ms"), -EINVAL);
	t_check_int(dur_err("1e3"), -EINVAL);
	t_check_int(dur_err("nan"), -EINVAL);
	t_check_int(dur_err("inf"), -EINVAL);
	t_check_int(dur_err("infms"), -EINVAL);
	t_check_int(dur_err("0x10ms"), -EINVAL);
	t_check_int(il_parse_duration(NULL, 0, &(uint64_t){ 0 }), -EINVAL);

	/* overflow: UINT64_MAX ns is 18446744073.709551615 s */
	t_check_int(dur("18446744073709551615ns", 0), UINT64_MAX);
	t_check_int(dur("18446744073.709551615s", 0), UINT64_MAX);
	t_check_int(dur_err("18446744073709551616ns"), -ERANGE);
	t_check_int(dur_err("18446744073.709551616s"), -ERANGE);
	t_check_int(dur_err("18446744074s"), -ERANGE);
	t_check_int(dur_err("307445735m"), -ERANGE);
	t_check_int(dur_err("99999999999999999999999999ms"), -ERANGE);
	/* a bare number in a large default unit overflows too */
	t_check_int(dur("307445734", 60 * SEC), 307445734ull * 60 * SEC);
	{
		uint64_t v;

		t_check_int(il_parse_duration("307445735", 60 * SEC, &v),
			    -ERANGE);
	}
}

static int size_err(const char *s)
{
	uint64_t v = 0xdeadbeef;
	int ret = il_parse_size(s, &v);

	t_check(v == 0xdeadbeef);
	return ret;
}

static uint64_t size(const char *s)
{
	uint64_t v = 0xdeadbeef;

	t_check_int(il_parse_size(s, &v), 0);
	return v;
}

static void test_parse_size(void)
{
	t_check_int(size("0"), 0);
	t_check_int(size("4096"), 4096);
	t_check_int(size("64K"), 65536);
	t_check_int(size("64k"), 65536);
	t_check_int(size("64KiB"), 65536);
	t_check_int(size("2M"), 2ull << 20);
	t_check_int(size("2MiB"), 2ull << 20);
	t_check_int(size("3G"), 3ull << 30);
	t_check_int(size("3GiB"), 3ull << 30);
	t_check_int(size("5T"), 5ull << 40);
	t_check_int(size("5TiB"), 5ull << 40);
	t_check_int(size("18446744073709551615"), UINT64_MAX);
	t_check_int(size("16777215T"), 16777215ull << 40);

	t_check_int(size_err(""), -EINVAL);
	t_check_int(size_err("K"), -EINVAL);
	t_check_int(size_err("-1K"), -EINVAL);
	t_check_int(size_err("1.5M"), -EINVAL);
	t_check_int(size_err("1 K"), -EINVAL);
	t_check_int(size_err("1KB"), -EINVAL);
	t_check_int(size_err("1X"), -EINVAL);
	t_check_int(size_err("1e3"), -EINVAL);
	t_check_int(size_err("18446744073709551616"), -ERANGE);
	t_check_int(size_err("16777216T"), -ERANGE);
	t_check_int(size_err("17179869184G"), -ERANGE);
}

static const char *fmt(uint64_t ns)
{
	static char buf[32];
	int n = il_format_duration(buf, sizeof(buf), ns);

	t_check_int(n, strlen(buf));
	return buf;
}

static void test_format_duration(void)
{
	char small[4];

	t_check_str(fmt(0), "0ns");
	t_check_str(fmt(850), "850ns");
	t_check_str(fmt(999), "999ns");
	t_check_str(fmt(1000), "1.00us");
	t_check_str(fmt(1234), "1.23us");
	t_check_str(fmt(1235), "1.24us");
	t_check_str(fmt(12345), "12.3us");
	t_check_str(fmt(123456), "123us");
	/* rounding up adds a digit: still three significant ones */
	t_check_str(fmt(9994), "9.99us");
	t_check_str(fmt(9995), "10.0us");
	t_check_str(fmt(99949), "99.9us");
	t_check_str(fmt(99950), "100us");
	t_check_str(fmt(99950 * IL_NSEC_PER_USEC), "100ms");
	t_check_str(fmt(99950 * MS), "100s");
	t_check_str(fmt(999499), "999us");
	t_check_str(fmt(999500), "1.00ms");
	t_check_str(fmt(999999), "1.00ms");
	t_check_str(fmt(2 * MS), "2.00ms");
	t_check_str(fmt(12300 * IL_NSEC_PER_USEC), "12.3ms");
	t_check_str(fmt(1500 * MS), "1.50s");
	t_check_str(fmt(59 * SEC), "59.0s");
	t_check_str(fmt(999 * SEC), "999s");
	t_check_str(fmt(999 * SEC + 499 * MS), "999s");
	t_check_str(fmt(999 * SEC + 500 * MS), "1000s");
	t_check_str(fmt(1234 * SEC), "1234s");
	t_check_str(fmt(1234 * SEC + 600 * MS), "1235s");
	t_check_str(fmt(UINT64_MAX), "18446744074s");

	/* the snprintf contract: the full length, a truncated buffer */
	t_check_int(il_format_duration(small, sizeof(small), 12345), 6);
	t_check_str(small, "12.");
	t_check_int(il_format_duration(NULL, 0, 2 * MS), 6);
}

static void test_clocks(void)
{
	uint64_t a, b, ns;
	clockid_t cid;

	t_check_int(il_clock_ns(CLOCK_MONOTONIC, &a), 0);
	b = il_now_ns();
	t_check(b >= a);
	t_check_int(il_clock_ns((clockid_t)12345, &ns), -EINVAL);
	t_check_int(pthread_getcpuclockid(pthread_self(), &cid), 0);
	t_check_int(il_clock_ns(cid, &ns), 0);
	t_check(ns > 0);
	t_check(il_thread_cpu_ns() > 0);
}

/*
 * No check here depends on how fast the machine is or how loaded: a lower
 * bound is the helper's contract (it spins until its own clock says so,
 * and sleeps until the clock passes the target), and "returned early"
 * means "did not take the hour it was asked for", which a hang would show
 * as the test's timeout.  Figures belong in bench/.
 */
#define HOUR (3600 * SEC)

static void test_spin(void)
{
	int stop = 1;
	uint64_t t0, c0, spun;

	/* at least the requested time, on the right clock */
	c0 = il_thread_cpu_ns();
	spun = il_spin_cpu(20 * MS, NULL);
	t_check(spun >= 20 * MS);
	t_check(il_thread_cpu_ns() - c0 >= 20 * MS);

	t0 = il_now_ns();
	spun = il_spin_wall(20 * MS, NULL);
	t_check(spun >= 20 * MS);
	t_check(il_now_ns() - t0 >= 20 * MS);

	/* a stop already set: back without spinning the hour */
	t_check(il_spin_cpu(HOUR, &stop) < HOUR);
	t_check(il_spin_wall(HOUR, &stop) < HOUR);

	/* a zero stop flag does not stop anything */
	stop = 0;
	t_check(il_spin_wall(5 * MS, &stop) >= 5 * MS);
}

struct stopper {
	int stop;
	uint64_t after_ns;
};

static void *stopper_fn(void *arg)
{
	struct stopper *s = arg;

	il_sleep_until(il_now_ns() + s->after_ns, NULL);
	__atomic_store_n(&s->stop, 1, __ATOMIC_RELAXED);
	return NULL;
}

/* A stop set by another thread while spinning ends the spin early. */
static void test_spin_stop(void)
{
	struct stopper s = { .stop = 0, .after_ns = 30 * MS };
	pthread_t th;
	uint64_t spun;

	t_check_int(pthread_create(&th, NULL, stopper_fn, &s), 0);
	spun = il_spin_cpu(HOUR, &s.stop);
	pthread_join(th, NULL);
	t_check(spun < HOUR);
	t_check_int(s.stop, 1);

	s.stop = 0;
	t_check_int(pthread_create(&th, NULL, stopper_fn, &s), 0);
	spun = il_spin_wall(HOUR, &s.stop);
	pthread_join(th, NULL);
	t_check(spun < HOUR);
	t_check_int(s.stop, 1);
}

static int sig_stop;
static volatile sig_atomic_t sig_count, sig_stop_at;

/* counts the alarms; the sig_stop_at-th one sets the stop flag */
static void on_alarm(int sig)
{
	sig_count++;
	if (sig_count >= sig_stop_at)
		__atomic_store_n(&sig_stop, 1, __ATOMIC_RELAXED);
}

/* an alarm every 20 ms until disarmed */
static void arm_alarm(bool on)
{
	struct itimerval it = {
		.it_value = { .tv_sec = 0, .tv_usec = on ? 20000 : 0 },
		.it_interval = { .tv_sec = 0, .tv_usec = on ? 20000 : 0 },
	};

	setitimer(ITIMER_REAL, &it, NULL);
}

static void test_sleep(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	int stop = 0;
	uint64_t target;

	/* no SA_RESTART: the sleep sees EINTR, as a demo's SIGINT would */
	sigemptyset(&sa.sa_mask);
	t_check_int(sigaction(SIGALRM, &sa, NULL), 0);

	target = il_now_ns() + 5 * MS;
	t_check_int(il_sleep_until(target, NULL), 0);
	t_check(il_now_ns() >= target);

	/* in the past: at once */
	t_check_int(il_sleep_until(il_now_ns() - MS, &stop), 0);

	/* a stop already set: not the hour */
	stop = 1;
	t_check_int(il_sleep_until(il_now_ns() + HOUR, &stop), -EINTR);

	/*
	 * A signal that does not stop is slept through: only the third one
	 * sets the flag, so a sleep that returned at the first would show
	 * a count of 1.
	 */
	sig_count = 0;
	sig_stop = 0;
	sig_stop_at = 3;
	arm_alarm(true);
	t_check_int(il_sleep_until(il_now_ns() + HOUR, &sig_stop), -EINTR);
	arm_alarm(false);
	t_check_int(sig_count >= 3, 1);
	t_check_int(sig_stop, 1);

	/* the signal that sets stop: -EINTR, not the hour */
	sig_count = 0;
	sig_stop = 0;
	sig_stop_at = 1;
	arm_alarm(true);
	t_check_int(il_sleep_until(il_now_ns() + HOUR, &sig_stop), -EINTR);
	arm_alarm(false);
	t_check(sig_count >= 1);

	signal(SIGALRM, SIG_DFL);
}

int main(void)
{
	test_parse_duration();
	test_parse_size();
	test_format_duration();
	test_clocks();
	test_spin();
	test_spin_stop();
	test_sleep();
	return t_done("test-time");
}
