/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The engine's freestanding math, in double precision.  Error bounds
 * against glibc are in Documentation/command-stream.rst.
 */
#ifndef XRT_ENGINE_EMATH_H
#define XRT_ENGINE_EMATH_H

#include "engine_internal.h"

double em_exp(double x);
double em_expm1(double x);
double em_log(double x);
double em_log1p(double x);
double em_tanh(double x);
double em_logistic(double x);
double em_erf(double x);
double em_sin(double x);
double em_cos(double x);
double em_tan(double x);
double em_atan2(double y, double x);
double em_pow(double x, double y);
double em_cbrt(double x);

#endif /* XRT_ENGINE_EMATH_H */
