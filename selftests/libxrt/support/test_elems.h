/* SPDX-License-Identifier: MIT */
/*
 * Elements of array literals of the common types as doubles, read and
 * written: tests fill their devices' values and check results by
 * value with these.
 */
#ifndef XRT_TEST_ELEMS_H
#define XRT_TEST_ELEMS_H

#include <stdint.h>

#include <xrt/dtype.h>
#include <xrt/literal.h>

/* Element @k of array @lit as a double. */
static inline double test_get(const xrt_literal *lit, int64_t k)
{
	const void *p = xrt_literal_data(lit);

	switch (xrt_literal_shape(lit)->dtype) {
	case XRT_PRED:
		return ((const uint8_t *)p)[k];
	case XRT_S8:
		return ((const int8_t *)p)[k];
	case XRT_U8:
		return ((const uint8_t *)p)[k];
	case XRT_S32:
		return ((const int32_t *)p)[k];
	case XRT_U32:
		return ((const uint32_t *)p)[k];
	case XRT_S64:
		return (double)((const int64_t *)p)[k];
	case XRT_F16:
		return xrt_f16_to_f32(((const uint16_t *)p)[k]);
	case XRT_BF16:
		return xrt_bf16_to_f32(((const uint16_t *)p)[k]);
	case XRT_F32:
		return ((const float *)p)[k];
	default:
		return ((const double *)p)[k];
	}
}

static inline void test_set(xrt_literal *lit, int64_t k, double v)
{
	void *p = xrt_literal_mutable_data(lit);

	switch (xrt_literal_shape(lit)->dtype) {
	case XRT_PRED:
		((uint8_t *)p)[k] = v != 0;
		break;
	case XRT_S8:
		((int8_t *)p)[k] = (int8_t)(int64_t)v;
		break;
	case XRT_U8:
		((uint8_t *)p)[k] = (uint8_t)(int64_t)v;
		break;
	case XRT_S32:
		((int32_t *)p)[k] = (int32_t)v;
		break;
	case XRT_U32:
		((uint32_t *)p)[k] = (uint32_t)(int64_t)v;
		break;
	case XRT_S64:
		((int64_t *)p)[k] = (int64_t)v;
		break;
	case XRT_F16:
		((uint16_t *)p)[k] = xrt_f16_from_f32((float)v);
		break;
	case XRT_BF16:
		((uint16_t *)p)[k] = xrt_bf16_from_f32((float)v);
		break;
	case XRT_F32:
		((float *)p)[k] = (float)v;
		break;
	default:
		((double *)p)[k] = v;
	}
}

#endif /* XRT_TEST_ELEMS_H */
