// SPDX-License-Identifier: MIT
/*
 * Clocks, durations with units, and busy-waiting.
 *
 * Durations are parsed exactly, in integers: "1.5ms" is 1500000 ns and
 * "0.1us" is 100 ns, with no floating point in between that could turn
 * them into 1499999.  The grammar is deliberately small so that what a
 * user types means one thing:
 *
 *   duration = digits [ "." digits ] [ unit ]
 *   unit     = "ns" | "us" | "ms" | "s" | "m"      (m is minutes)
 *
 * - A bare number is in the caller's default unit (0 meaning seconds), so
 *   "--cs 5" can mean 5 ms where ms is the natural unit of the option.
 * - Exponents ("1e3ms"), signs, spaces, "inf"/"nan", ".5" and "5." are
 *   malformed (-EINVAL): strtod would accept them, and nobody writes them
 *   on purpose.
 * - A value that is not a whole number of nanoseconds ("2.5ns", "0.0001us")
 *   is -EINVAL, not rounded: every duration here ends up in a clock_*()
 *   call or a histogram in ns, and silently changing a value is worse
 *   than asking for a representable one.
 * - A value above UINT64_MAX ns (about 584 years) is -ERANGE.
 *
 * Spinning is done on the clocks themselves, not on calibrated loops, so
 * a critical section "of 2 ms" is 2 ms of CPU time (il_spin_cpu) however
 * long preemption stretches it in wall time.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "invlab/time.h"

uint64_t il_thread_cpu_ns(void)
{
	struct timespec ts;

	/* cannot fail for the calling thread's own clock */
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return il_ts_to_ns(&ts);
}

int il_clock_ns(clockid_t clk, uint64_t *ns)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts))
		return -errno;
	*ns = il_ts_to_ns(&ts);
	return 0;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* Parse s[0..n) as a decimal integer; -ERANGE when it exceeds UINT64_MAX. */
static int parse_digits(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t d = (uint64_t)(s[i] - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static const struct {
	const char *name;
	uint64_t ns;
} duration_units[] = {
	{ "ns", 1 },
	{ "us", IL_NSEC_PER_USEC },
	{ "ms", IL_NSEC_PER_MSEC },
	{ "s", IL_NSEC_PER_SEC },
	{ "m", 60 * IL_NSEC_PER_SEC },
};

int il_parse_duration(const char *s, uint64_t default_unit_ns, uint64_t *ns)
{
	const char *ip, *fp = NULL, *p;
	size_t ilen, flen = 0;
	uint64_t unit = 0, whole, frac = 0, frac_ns = 0;
	int ret;

	if (!s || !ns)
		return -EINVAL;

	ip = p = s;
	while (is_digit(*p))
		p++;
	ilen = (size_t)(p - ip);
	if (!ilen)
		return -EINVAL;
	if (*p == '.') {
		fp = ++p;
		while (is_digit(*p))
			p++;
		flen = (size_t)(p - fp);
		if (!flen)
			return -EINVAL;
	}

	if (!*p) {
		unit = default_unit_ns ? default_unit_ns : IL_NSEC_PER_SEC;
	} else {
		for (size_t i = 0;
		     i < sizeof(duration_units) / sizeof(duration_units[0]);
		     i++) {
			if (!strcmp(p, duration_units[i].name)) {
				unit = duration_units[i].ns;
				break;
			}
		}
		if (!unit)
			return -EINVAL;
	}

	/*
	 * The fraction f with d significant digits contributes
	 * f * unit / 10^d ns, which must be a whole number.  Trailing zeros
	 * change nothing, so drop them first.  After that f does not end
	 * in 0, so it cannot supply both the 2s and the 5s of 10^d: with
	 * the units above (at most 6 * 10^10 ns) no more than 11 digits can
	 * give whole nanoseconds.  More than 19 significant digits are
	 * refused outright so that 10^d fits in 64 bits.
	 */
	while (flen && fp[flen - 1] == '0')
		flen--;
	if (flen) {
		uint64_t pow10 = 1, g, q;

		if (flen > 19)
			return -EINVAL;
		for (size_t i = 0; i < flen; i++)
			pow10 *= 10;
		parse_digits(fp, flen, &frac); /* < 10^19, cannot overflow */
		/*
		 * f * unit / 10^d without a 128-bit product: with
		 * g = gcd(unit, 10^d), 10^d / g must divide f, and then the
		 * result is (f / (10^d / g)) * (unit / g) < unit.
		 */
		g = gcd_u64(unit, pow10);
		q = pow10 / g;
		if (frac % q)
			return -EINVAL;
		frac_ns = (frac / q) * (unit / g);
	}

	ret = parse_digits(ip, ilen, &whole);
	if (ret)
		return ret;
	if (whole > (UINT64_MAX - frac_ns) / unit)
		return -ERANGE;
	*ns = whole * unit + frac_ns;
	return 0;
}

static const struct {
	const char *name;
	unsigned int shift;
} size_units[] = {
	{ "K", 10 }, { "KiB", 10 }, { "M", 20 }, { "MiB", 20 },
	{ "G", 30 }, { "GiB", 30 }, { "T", 40 }, { "TiB", 40 },
};

/*
 * Sizes are integers: "1.5M" is refused rather than guessed at.  The
 * suffix is matched without regard to case ("64k", "4KiB"), as fio and dd
 * users expect, and is always binary: a size here is a buffer or a
 * mapping, where K means 1024.
 */
int il_parse_size(const char *s, uint64_t *out)
{
	const char *p;
	unsigned int shift = 0;
	uint64_t v;
	int ret;

	if (!s || !out)
		return -EINVAL;
	for (p = s; is_digit(*p); p++)
		;
	if (p == s)
		return -EINVAL;
	if (*p) {
		size_t i;

		for (i = 0; i < sizeof(size_units) / sizeof(size_units[0]);
		     i++) {
			if (!strcasecmp(p, size_units[i].name)) {
				shift = size_units[i].shift;
				break;
			}
		}
		if (i == sizeof(size_units) / sizeof(size_units[0]))
			return -EINVAL;
	}
	ret = parse_digits(s, (size_t)(p - s), &v);
	if (ret)
		return ret;
	if (v > (UINT64_MAX >> shift))
		return -ERANGE;
	*out = v << shift;
	return 0;
}

/*
 * Three significant digits in the largest unit that keeps the integer part
 * at least 1: "850ns", "12.3us", "2.00ms", "1.50s".  The value is rounded
 * (half up) before the unit is chosen, so 999999 ns reads "1.00ms", not
 * "1000us".  From 1000 s on, whole seconds are printed ("1234s"): three
 * digits would hide the seconds, and minutes are harder to compare.
 */
int il_format_duration(char *buf, size_t len, uint64_t ns)
{
	uint64_t p = 1, m, unit, div;
	const char *uname;

	if (ns < 1000)
		return snprintf(buf, len, "%lluns", (unsigned long long)ns);
	if (ns >= 999 * IL_NSEC_PER_SEC + IL_NSEC_PER_SEC / 2) {
		uint64_t sec = ns / IL_NSEC_PER_SEC;

		if (ns % IL_NSEC_PER_SEC >= IL_NSEC_PER_SEC / 2)
			sec++;
		return snprintf(buf, len, "%llus", (unsigned long long)sec);
	}

	/* ns = m * p + rest, m in [100, 999] */
	while (ns / p >= 1000)
		p *= 10;
	m = ns / p;
	if ((ns % p) >= p - (ns % p))
		m++;
	if (m == 1000) {
		m = 100;
		p *= 10;
	}

	/* the value is now m * p with p >= 10 a power of ten */
	if (m * p < IL_NSEC_PER_MSEC) {
		unit = IL_NSEC_PER_USEC;
		uname = "us";
	} else if (m * p < IL_NSEC_PER_SEC) {
		unit = IL_NSEC_PER_MSEC;
		uname = "ms";
	} else {
		unit = IL_NSEC_PER_SEC;
		uname = "s";
	}

	if (p >= unit)
		return snprintf(buf, len, "%llu%s",
				(unsigned long long)(m * (p / unit)), uname);
	div = unit / p; /* 10 or 100: one or two decimals */
	return snprintf(buf, len, "%llu.%0*llu%s",
			(unsigned long long)(m / div), div == 10 ? 1 : 2,
			(unsigned long long)(m % div), uname);
}

static bool stopped(const int *stop)
{
	return stop && __atomic_load_n(stop, __ATOMIC_RELAXED);
}

/*
 * Reading CLOCK_THREAD_CPUTIME_ID is a system call on Linux (and an
 * update of the scheduler's accounting, a sched_stat_runtime event);
 * reading CLOCK_MONOTONIC is not, and a thread's CPU time never runs
 * ahead of it.  So the wall clock is spun on for what is left, and the
 * CPU clock read after: twice in all when nothing takes the CPU away.
 */
uint64_t il_spin_cpu(uint64_t ns, const int *stop)
{
	uint64_t start = il_thread_cpu_ns(), spun = 0;

	while (spun < ns && !stopped(stop)) {
		uint64_t now = il_now_ns(), until = now + (ns - spun);

		while (now < until && !stopped(stop))
			now = il_now_ns();
		spun = il_thread_cpu_ns() - start;
	}
	return spun;
}

uint64_t il_spin_wall(uint64_t ns, const int *stop)
{
	uint64_t start = il_now_ns(), spun;

	do {
		spun = il_now_ns() - start;
	} while (spun < ns && !stopped(stop));
	return spun;
}

int il_sleep_until(uint64_t abs_ns, const int *stop)
{
	struct timespec ts = il_ns_to_ts(abs_ns);

	/*
	 * The signal that sets *stop is what interrupts the sleep, so the
	 * flag is checked before each (re)start: a stop that arrived
	 * before the call must not cost a full period.
	 */
	for (;;) {
		int ret;

		if (stopped(stop))
			return -EINTR;
		ret = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
				      NULL);
		if (!ret)
			return 0;
		if (ret != EINTR)
			return -ret;
	}
}

int il_format_duration_exact(char *buf, size_t len, uint64_t ns)
{
	static const struct {
		const char *name;
		uint64_t ns;
	} units[] = {
		{ "m", 60 * IL_NSEC_PER_SEC },
		{ "s", IL_NSEC_PER_SEC },
		{ "ms", IL_NSEC_PER_MSEC },
		{ "us", IL_NSEC_PER_USEC },
	};

	for (size_t i = 0; ns && i < sizeof(units) / sizeof(units[0]); i++)
		if (ns % units[i].ns == 0)
			return snprintf(buf, len, "%llu%s",
					(unsigned long long)(ns / units[i].ns),
					units[i].name);
	return snprintf(buf, len, "%lluns", (unsigned long long)ns);
}
