// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Integer and pred instructions over blocks of elements, kept as s64 and
 * wrapped to the type's width after every instruction.  What each
 * instruction does to one element is engine/scalar.h's (XLA's
 * semantics), shared with the cuda device's kernels.
 */
#include "ew.h"

/* One loop per type, each a cast the compiler vectorizes (GCC's casts wrap). */
#define WRAP_AS(type)						\
	do {							\
		for (i = 0; i < n; i++)				\
			d[i] = (type)d[i];			\
	} while (0)

void ew_int_wrap(u32 dtype, s64 *d, u32 n)
{
	u32 i;

	switch (dtype) {
	case XRT_CS_S8:
		WRAP_AS(s8);
		break;
	case XRT_CS_U8:
		WRAP_AS(u8);
		break;
	case XRT_CS_S16:
		WRAP_AS(s16);
		break;
	case XRT_CS_U16:
		WRAP_AS(u16);
		break;
	case XRT_CS_S32:
		WRAP_AS(s32);
		break;
	case XRT_CS_U32:
		WRAP_AS(u32);
		break;
	case XRT_CS_S64:
	case XRT_CS_U64:
		break;
	default:
		for (i = 0; i < n; i++)
			d[i] = xs_int_wrap(dtype, (u64)d[i]);
		break;
	}
}

void ew_int_unary(u32 fn, u32 dtype, s64 *d, const s64 *a, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		d[i] = xs_int_wrap(dtype, (u64)xs_int_unary(fn, dtype, a[i]));
}

void ew_int_binary(u32 fn, u32 dtype, s64 *d, const s64 *a, const s64 *b,
		   u32 n)
{
	u32 i;

	if (fn == XRT_CS_BIN_ADD) {	/* the common case, vectorizable */
		for (i = 0; i < n; i++)
			d[i] = (s64)((u64)a[i] + (u64)b[i]);
	} else {
		for (i = 0; i < n; i++)
			d[i] = xs_int_binary(fn, dtype, a[i], b[i]);
	}
	ew_int_wrap(dtype, d, n);
}

void ew_int_compare(u32 fn, u32 dtype, s64 *d, const s64 *a, const s64 *b,
		    u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		d[i] = xs_int_compare(fn, dtype, a[i], b[i]);
}
