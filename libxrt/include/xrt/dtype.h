/* SPDX-License-Identifier: MIT */
/*
 * Element types, and conversions to and from the 16-bit float formats.
 */
#ifndef XRT_DTYPE_H
#define XRT_DTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xrt/api.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * enum xrt_dtype - element type of an array, or TUPLE for a tuple shape
 * @XRT_INVALID: no type; never valid in a shape
 * @XRT_PRED: boolean, one byte holding 0 or 1
 * @XRT_S8: signed 8-bit integer
 * @XRT_S16: signed 16-bit integer
 * @XRT_S32: signed 32-bit integer
 * @XRT_S64: signed 64-bit integer
 * @XRT_U8: unsigned 8-bit integer
 * @XRT_U16: unsigned 16-bit integer
 * @XRT_U32: unsigned 32-bit integer
 * @XRT_U64: unsigned 64-bit integer
 * @XRT_F16: IEEE 754 binary16
 * @XRT_BF16: bfloat16: the top half of a binary32
 * @XRT_F32: IEEE 754 binary32
 * @XRT_F64: IEEE 754 binary64
 * @XRT_C64: complex of two f32, real part first
 * @XRT_C128: complex of two f64, real part first
 * @XRT_TUPLE: the type of a tuple shape; has no elements of its own
 * @XRT_S4: signed 4-bit integer
 * @XRT_U4: unsigned 4-bit integer
 * @XRT_S2: signed 2-bit integer
 * @XRT_U2: unsigned 2-bit integer
 * @XRT_F8E5M2: 8-bit float, 5 exponent bits (bias 15), 2 mantissa
 *              bits, infinities and NaNs as in IEEE 754
 * @XRT_F8E4M3FN: 8-bit float, bias 7, 3 mantissa bits, no infinities,
 *                NaN only where all 7 magnitude bits are set
 * @XRT_F8E4M3B11FNUZ: 8-bit float, bias 11, no infinities, no negative
 *                     zero, 0x80 the only NaN
 * @XRT_F8E5M2FNUZ: 8-bit float, bias 16, no infinities, no negative
 *                  zero, 0x80 the only NaN
 * @XRT_F8E4M3FNUZ: 8-bit float, bias 8, no infinities, no negative
 *                  zero, 0x80 the only NaN
 * @XRT_F8E4M3: 8-bit float, bias 7, 3 mantissa bits, IEEE 754 rules
 * @XRT_F8E3M4: 8-bit float, bias 3, 4 mantissa bits, IEEE 754 rules
 * @XRT_F8E8M0FNU: an unsigned power of two 2^(e-127); 0xff is NaN;
 *                 no zero
 * @XRT_F4E2M1FN: 4-bit float, bias 1, 1 mantissa bit, no infinities
 *                or NaNs
 * @XRT_DTYPE_COUNT: number of values above
 *
 * The values are part of the wire format and the command stream: never
 * renumber them.  All data is little-endian.  Every type narrower than
 * a byte (s4, u4, s2, u2, f4e2m1fn) takes one byte per element, its
 * value in the low bits (as ml_dtypes stores them): reads look at the
 * low bits only, writes clear the others.
 */
enum xrt_dtype {
	XRT_INVALID = 0,
	XRT_PRED = 1,
	XRT_S8 = 2,
	XRT_S16 = 3,
	XRT_S32 = 4,
	XRT_S64 = 5,
	XRT_U8 = 6,
	XRT_U16 = 7,
	XRT_U32 = 8,
	XRT_U64 = 9,
	XRT_F16 = 10,
	XRT_BF16 = 11,
	XRT_F32 = 12,
	XRT_F64 = 13,
	XRT_C64 = 14,
	XRT_C128 = 15,
	XRT_TUPLE = 16,
	XRT_S4 = 17,
	XRT_U4 = 18,
	XRT_S2 = 19,
	XRT_U2 = 20,
	XRT_F8E5M2 = 21,
	XRT_F8E4M3FN = 22,
	XRT_F8E4M3B11FNUZ = 23,
	XRT_F8E5M2FNUZ = 24,
	XRT_F8E4M3FNUZ = 25,
	XRT_F8E4M3 = 26,
	XRT_F8E3M4 = 27,
	XRT_F8E8M0FNU = 28,
	XRT_F4E2M1FN = 29,
	XRT_DTYPE_COUNT
};

/**
 * xrt_dtype_name() - the HLO name of a type
 * @t: a type
 *
 * Return: "f32", "pred", ... ; "tuple" for XRT_TUPLE; "invalid" for
 * XRT_INVALID and any value outside the enum.
 */
XRT_API const char *xrt_dtype_name(enum xrt_dtype t);

/**
 * xrt_dtype_from_name() - parse an HLO type name
 * @name: the name, not necessarily NUL-terminated
 * @len: its length
 *
 * Return: the type, or XRT_INVALID if @name is not an array type name.
 */
XRT_API enum xrt_dtype xrt_dtype_from_name(const char *name, size_t len);

/**
 * xrt_dtype_size() - bytes per element
 * @t: a type
 *
 * Return: the size, or 0 for XRT_INVALID, XRT_TUPLE and unknown values.
 */
XRT_API size_t xrt_dtype_size(enum xrt_dtype t);

/**
 * xrt_dtype_bits() - bits of an element's value
 * @t: a type
 *
 * Return: 4 for s4, u4 and f4e2m1fn, 2 for s2 and u2, 1 for pred, else
 * 8 times the size (0 for XRT_INVALID, XRT_TUPLE and unknown values).
 */
XRT_API unsigned int xrt_dtype_bits(enum xrt_dtype t);

/**
 * xrt_dtype_is_array() - is @t a valid array element type
 * @t: a type
 *
 * Return: true for every type but XRT_INVALID and XRT_TUPLE.
 */
XRT_API bool xrt_dtype_is_array(enum xrt_dtype t);

/**
 * xrt_dtype_is_small_float() - one of the 8-bit and 4-bit floats
 * @t: a type
 *
 * Return: true for XRT_F8E5M2 through XRT_F4E2M1FN.  They are floats
 * (xrt_dtype_is_float() is true): every operation computes in f32 and
 * rounds to the type after each step, as XLA's CPU backend does.
 */
XRT_API bool xrt_dtype_is_small_float(enum xrt_dtype t);

/** xrt_dtype_is_float() - f16, bf16, f32, f64 or a small float */
XRT_API bool xrt_dtype_is_float(enum xrt_dtype t);
/** xrt_dtype_is_complex() - c64 or c128 */
XRT_API bool xrt_dtype_is_complex(enum xrt_dtype t);
/** xrt_dtype_is_integer() - a signed or unsigned integer (not pred) */
XRT_API bool xrt_dtype_is_integer(enum xrt_dtype t);
/** xrt_dtype_is_signed() - a signed integer, float or complex */
XRT_API bool xrt_dtype_is_signed(enum xrt_dtype t);

/**
 * xrt_f16_from_f64() - round a double to binary16
 * @x: the value
 *
 * Rounds to nearest, ties to even, in one step (no double rounding);
 * overflow gives infinity; NaN stays NaN (quiet, sign kept).
 *
 * Return: the binary16 bit pattern.
 */
XRT_API uint16_t xrt_f16_from_f64(double x);
/** xrt_f16_from_f32() - round a float to binary16 (as xrt_f16_from_f64) */
XRT_API uint16_t xrt_f16_from_f32(float x);
/** xrt_f16_to_f32() - widen binary16 to float (exact) */
XRT_API float xrt_f16_to_f32(uint16_t h);
/** xrt_bf16_from_f64() - round a double to bfloat16 (as xrt_f16_from_f64) */
XRT_API uint16_t xrt_bf16_from_f64(double x);
/** xrt_bf16_from_f32() - round a float to bfloat16 */
XRT_API uint16_t xrt_bf16_from_f32(float x);
/** xrt_bf16_to_f32() - widen bfloat16 to float (exact) */
XRT_API float xrt_bf16_to_f32(uint16_t b);

/**
 * xrt_small_float_from_f64() - round a double to a small float
 * @t: XRT_F8E5M2 through XRT_F4E2M1FN
 * @x: the value
 *
 * Rounds to nearest, ties to even, once, with ml_dtypes' rules where
 * the value has no code: too large gives infinity where the type has
 * one, else NaN (f4e2m1fn, which has neither, saturates); NaN gives the
 * type's NaN; -0 gives +0 where there is no negative zero; 0 and
 * negative values give NaN in f8e8m0fnu.
 *
 * Return: the code, in the low bits; 0 for any other @t.
 */
XRT_API uint8_t xrt_small_float_from_f64(enum xrt_dtype t, double x);

/**
 * xrt_small_float_to_f64() - the value of a small float code (exact)
 * @t: XRT_F8E5M2 through XRT_F4E2M1FN
 * @code: the code; only the type's bits are read
 *
 * Return: the value; 0 for any other @t.
 */
XRT_API double xrt_small_float_to_f64(enum xrt_dtype t, uint8_t code);

#ifdef __cplusplus
}
#endif

#endif /* XRT_DTYPE_H */
