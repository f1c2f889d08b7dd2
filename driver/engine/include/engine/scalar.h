/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The scalar semantics of the command stream's types, shared by the
 * engine and by the devices that generate code for the same commands
 * (cuda): element sizes and the 16-bit float conversions.
 */
#ifndef XRT_ENGINE_SCALAR_H
#define XRT_ENGINE_SCALAR_H

#include "engine/engine.h"

/* Bytes of an element of @dtype; 0 for an unknown type.  Inline: it is on every path. */
static inline u32 engine_dtype_size(u32 dtype)
{
	static const u8 sizes[] = {
		[XRT_CS_PRED] = 1, [XRT_CS_S8] = 1, [XRT_CS_S16] = 2,
		[XRT_CS_S32] = 4, [XRT_CS_S64] = 8, [XRT_CS_U8] = 1,
		[XRT_CS_U16] = 2, [XRT_CS_U32] = 4, [XRT_CS_U64] = 8,
		[XRT_CS_F16] = 2, [XRT_CS_BF16] = 2, [XRT_CS_F32] = 4,
		[XRT_CS_F64] = 8, [XRT_CS_C64] = 8, [XRT_CS_C128] = 16,
	};

	return dtype < sizeof(sizes) ? sizes[dtype] : 0;
}

/* 16-bit float conversions (round to nearest even), on bit patterns. */
u16 engine_f32_to_f16(float f);
u16 engine_f64_to_f16(double d);
float engine_f16_to_f32(u16 h);
u16 engine_f32_to_bf16(float f);
u16 engine_f64_to_bf16(double d);
float engine_bf16_to_f32(u16 b);

#endif /* XRT_ENGINE_SCALAR_H */
