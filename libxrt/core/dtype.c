// SPDX-License-Identifier: MIT
/*
 * Element type facts: names, sizes, classes.
 */
#include <string.h>

#include <xrt/dtype.h>

enum dtype_class { CLASS_NONE, CLASS_PRED, CLASS_SINT, CLASS_UINT,
		   CLASS_FLOAT, CLASS_COMPLEX };

struct dtype_info {
	const char *name;
	unsigned char size;
	unsigned char cls;
	unsigned char bits;	/* of the value; 0: 8 times the size */
};

static const struct dtype_info dtype_table[XRT_DTYPE_COUNT] = {
	[XRT_INVALID] = { "invalid", 0, CLASS_NONE },
	[XRT_PRED] = { "pred", 1, CLASS_PRED },
	[XRT_S8] = { "s8", 1, CLASS_SINT },
	[XRT_S16] = { "s16", 2, CLASS_SINT },
	[XRT_S32] = { "s32", 4, CLASS_SINT },
	[XRT_S64] = { "s64", 8, CLASS_SINT },
	[XRT_U8] = { "u8", 1, CLASS_UINT },
	[XRT_U16] = { "u16", 2, CLASS_UINT },
	[XRT_U32] = { "u32", 4, CLASS_UINT },
	[XRT_U64] = { "u64", 8, CLASS_UINT },
	[XRT_F16] = { "f16", 2, CLASS_FLOAT },
	[XRT_BF16] = { "bf16", 2, CLASS_FLOAT },
	[XRT_F32] = { "f32", 4, CLASS_FLOAT },
	[XRT_F64] = { "f64", 8, CLASS_FLOAT },
	[XRT_C64] = { "c64", 8, CLASS_COMPLEX },
	[XRT_C128] = { "c128", 16, CLASS_COMPLEX },
	[XRT_TUPLE] = { "tuple", 0, CLASS_NONE },
	[XRT_S4] = { "s4", 1, CLASS_SINT, 4 },
	[XRT_U4] = { "u4", 1, CLASS_UINT, 4 },
	[XRT_S2] = { "s2", 1, CLASS_SINT, 2 },
	[XRT_U2] = { "u2", 1, CLASS_UINT, 2 },
	[XRT_F8E5M2] = { "f8e5m2", 1, CLASS_FLOAT },
	[XRT_F8E4M3FN] = { "f8e4m3fn", 1, CLASS_FLOAT },
	[XRT_F8E4M3B11FNUZ] = { "f8e4m3b11fnuz", 1, CLASS_FLOAT },
	[XRT_F8E5M2FNUZ] = { "f8e5m2fnuz", 1, CLASS_FLOAT },
	[XRT_F8E4M3FNUZ] = { "f8e4m3fnuz", 1, CLASS_FLOAT },
	[XRT_F8E4M3] = { "f8e4m3", 1, CLASS_FLOAT },
	[XRT_F8E3M4] = { "f8e3m4", 1, CLASS_FLOAT },
	[XRT_F8E8M0FNU] = { "f8e8m0fnu", 1, CLASS_FLOAT },
	[XRT_F4E2M1FN] = { "f4e2m1fn", 1, CLASS_FLOAT, 4 },
};

static const struct dtype_info *info(enum xrt_dtype t)
{
	if ((unsigned int)t >= XRT_DTYPE_COUNT)
		return &dtype_table[XRT_INVALID];
	return &dtype_table[t];
}

const char *xrt_dtype_name(enum xrt_dtype t)
{
	return info(t)->name;
}

enum xrt_dtype xrt_dtype_from_name(const char *name, size_t len)
{
	int t;

	for (t = XRT_PRED; t < XRT_DTYPE_COUNT; t++) {
		const char *n = dtype_table[t].name;

		if (t == XRT_TUPLE)
			continue;
		if (strlen(n) == len && !memcmp(n, name, len))
			return (enum xrt_dtype)t;
	}
	return XRT_INVALID;
}

size_t xrt_dtype_size(enum xrt_dtype t)
{
	return info(t)->size;
}

unsigned int xrt_dtype_bits(enum xrt_dtype t)
{
	if (t == XRT_PRED)
		return 1;
	return info(t)->bits ? info(t)->bits : info(t)->size * 8u;
}

bool xrt_dtype_is_small_float(enum xrt_dtype t)
{
	return t >= XRT_F8E5M2 && t <= XRT_F4E2M1FN;
}

bool xrt_dtype_is_array(enum xrt_dtype t)
{
	return info(t)->cls != CLASS_NONE;
}

bool xrt_dtype_is_float(enum xrt_dtype t)
{
	return info(t)->cls == CLASS_FLOAT;
}

bool xrt_dtype_is_complex(enum xrt_dtype t)
{
	return info(t)->cls == CLASS_COMPLEX;
}

bool xrt_dtype_is_integer(enum xrt_dtype t)
{
	return info(t)->cls == CLASS_SINT || info(t)->cls == CLASS_UINT;
}

bool xrt_dtype_is_signed(enum xrt_dtype t)
{
	int c = info(t)->cls;

	return c == CLASS_SINT || c == CLASS_FLOAT || c == CLASS_COMPLEX;
}
