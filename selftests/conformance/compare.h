/* SPDX-License-Identifier: MIT */
/*
 * How the conformance suite compares a result with XLA's: the tolerance
 * classes of tables.py and, in one table (compare.c), what each allows
 * per element type.
 */
#ifndef XRT_CONFORMANCE_COMPARE_H
#define XRT_CONFORMANCE_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include <xrt/literal.h>

enum tol_class {
	TOL_EXACT,	/* every bit; any NaN matches any NaN */
	TOL_ULP,	/* each element within ulps of its own */
	TOL_ACC,	/* ... or within ulps of the array's largest magnitude */
	TOL_FORMULA,	/* within more ulps of its own: JAX's many-op special functions */
};

/* The class named @name ("exact", "ulp", "acc", "formula"); false if none. */
bool tol_class_from_name(const char *name, enum tol_class *out);

/*
 * Whether array literal @got agrees with XLA's @want under @cls.  On a
 * mismatch, @why says where and by how much.  Integer and pred elements
 * always compare exactly.
 */
bool conformance_agree(const xrt_literal *want, const xrt_literal *got, enum tol_class cls,
		       char *why, size_t why_size);

#endif /* XRT_CONFORMANCE_COMPARE_H */
