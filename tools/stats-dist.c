// SPDX-License-Identifier: MIT
/*
 * The distribution functions the tests and the power figures need: the
 * normal law, Student's t and the regularized incomplete beta function,
 * with their quantiles.
 *
 * Built with GSL (meson feature "gsl", HAVE_GSL) they come from it; the
 * hand-written versions below are always built, are what a build without
 * GSL uses, and are tested against the same reference values as GSL's,
 * so both paths stay honest.
 *
 * The fallbacks: the incomplete beta function by its continued fraction
 * (modified Lentz), the t law through it (P(|T| > t) = I_{df/(df+t^2)}
 * (df/2, 1/2)), the normal law through erfc(), the normal quantile by
 * Newton steps on erfc() from a rational first guess, and the t quantile
 * by bisection on the t law (it is called a few times per comparison).
 */
#include <math.h>

#include "config.h"
#include "stats.h"

#if HAVE_GSL
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_version.h>
#endif

/* continued fraction of the incomplete beta function (modified Lentz) */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double qab = a + b, qap = a + 1, qam = a - 1, c = 1, d, h;

	d = 1 - qab * x / qap;
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 10000; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

double il_res_fb_betai(double a, double b, double x)
{
	double bt;

	if (!(x > 0))
		return 0;
	if (x >= 1)
		return 1;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		 b * log1p(-x));
	/* the fraction converges fast on this side of the mean */
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

double il_res_fb_norm_cdf(double x)
{
	return 0.5 * erfc(-x / M_SQRT2);
}

double il_res_fb_norm_quantile(double p)
{
	double x, t;

	if (!(p > 0))
		return -INFINITY;
	if (!(p < 1))
		return INFINITY;
	/* a first guess good to about 1e-3 (Abramowitz and Stegun 26.2.23) */
	t = sqrt(-2 * log(p < 0.5 ? p : 1 - p));
	x = t - (2.515517 + 0.802853 * t + 0.010328 * t * t) /
			(1 + 1.432788 * t + 0.189269 * t * t +
			 0.001308 * t * t * t);
	if (p < 0.5)
		x = -x;
	/* Newton on Phi(x) - p: quadratic, three steps reach 1e-15 */
	for (int i = 0; i < 4; i++) {
		double d = il_res_fb_norm_cdf(x) - p;
		double pdf = exp(-x * x / 2) / sqrt(2 * M_PI);

		if (pdf <= 0)
			break;
		x -= d / pdf;
	}
	return x;
}

double il_res_fb_t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	/* P(|T| > |t|) */
	tail = il_res_fb_betai(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? 1 - tail / 2 : tail / 2;
}

double il_res_fb_t_quantile(double p, double df)
{
	double lo = -1, hi = 1;

	if (!(p > 0))
		return -INFINITY;
	if (!(p < 1))
		return INFINITY;
	if (!(df > 0))
		return NAN;
	while (il_res_fb_t_cdf(lo, df) > p && lo > -1e300)
		lo *= 2;
	while (il_res_fb_t_cdf(hi, df) < p && hi < 1e300)
		hi *= 2;
	/* 200 halvings take any bracket below one ulp */
	for (int i = 0; i < 200 && hi - lo > 1e-14 * fmax(1, fabs(lo)); i++) {
		double mid = (lo + hi) / 2;

		if (il_res_fb_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

#if HAVE_GSL
/* a library function reports bad arguments as NAN, never by aborting */
static void gsl_quiet(void)
{
	static int done;

	if (!done) {
		gsl_set_error_handler_off();
		done = 1;
	}
}

double il_res_betai(double a, double b, double x)
{
	gsl_quiet();
	if (!(x > 0))
		return 0;
	if (x >= 1)
		return 1;
	return gsl_sf_beta_inc(a, b, x);
}

double il_res_norm_cdf(double x)
{
	return gsl_cdf_ugaussian_P(x);
}

double il_res_norm_quantile(double p)
{
	if (!(p > 0))
		return -INFINITY;
	if (!(p < 1))
		return INFINITY;
	return gsl_cdf_ugaussian_Pinv(p);
}

double il_res_t_cdf(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	return gsl_cdf_tdist_P(t, df);
}

double il_res_t_quantile(double p, double df)
{
	gsl_quiet();
	if (!(p > 0))
		return -INFINITY;
	if (!(p < 1))
		return INFINITY;
	if (!(df > 0))
		return NAN;
	return gsl_cdf_tdist_Pinv(p, df);
}

const char *il_res_dist_backend(void)
{
	return "GSL " GSL_VERSION;
}
#else
double il_res_betai(double a, double b, double x)
{
	return il_res_fb_betai(a, b, x);
}

double il_res_norm_cdf(double x)
{
	return il_res_fb_norm_cdf(x);
}

double il_res_norm_quantile(double p)
{
	return il_res_fb_norm_quantile(p);
}

double il_res_t_cdf(double t, double df)
{
	return il_res_fb_t_cdf(t, df);
}

double il_res_t_quantile(double p, double df)
{
	return il_res_fb_t_quantile(p, df);
}

const char *il_res_dist_backend(void)
{
	return "built-in";
}
#endif
