/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Everything the engine takes from its surroundings.  The engine builds
 * into the kernel module and into libxrt from the same sources; this is
 * the only header that differs between the two.  It provides the fixed
 * width types, memcpy/memset, and the FPU section hooks the callers wrap
 * engine calls in.  No libc, no libm, no libgcc helpers.
 */
#ifndef XRT_ENGINE_SHIM_H
#define XRT_ENGINE_SHIM_H

#ifdef __KERNEL__

#include <linux/bits.h>
#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/types.h>
#include <linux/string.h>
#include <asm/fpu/api.h>

#define XRT_ENGINE_FPU_BEGIN()	kernel_fpu_begin()
#define XRT_ENGINE_FPU_END()	kernel_fpu_end()

#else /* userspace */

#include <stddef.h>	/* the compiler's, for size_t: no libc here */
#include <linux/types.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;

/* The compiler may emit calls to these even in freestanding code. */
void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);

/*
 * -ffreestanding turns off the builtins: ask for them, so that small
 * fixed-size copies become moves instead of calls.
 */
#define memcpy(d, s, n)	__builtin_memcpy(d, s, n)
#define memset(d, c, n)	__builtin_memset(d, c, n)

#define XRT_ENGINE_FPU_BEGIN()	do { } while (0)
#define XRT_ENGINE_FPU_END()	do { } while (0)

/* The kernel's linux/bits.h and linux/kernel.h */
#define BIT_ULL(nr)	(1ull << (nr))
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif
/* The kernel's linux/compiler_attributes.h */
#define fallthrough	__attribute__((__fallthrough__))
/*
 * The kernel's linux/overflow.h: true when the exact result does not fit
 * in *d (which then holds the wrapped one).  Every sum and product of
 * values a program supplies goes through these at validation.
 */
#define check_add_overflow(a, b, d)	__builtin_add_overflow(a, b, d)
#define check_mul_overflow(a, b, d)	__builtin_mul_overflow(a, b, d)
#define check_sub_overflow(a, b, d)	__builtin_sub_overflow(a, b, d)
/* The kernel's linux/build_bug.h */
#define BUILD_BUG_ON(e)	((void)sizeof(char[1 - 2 * !!(e)]))

/*
 * __always_inline, the kernel's spelling (linux/compiler_attributes.h),
 * comes from the build's command line.
 */

#endif

/* The smaller of two sizes or counts. */
static inline u64 engine_min(u64 a, u64 b)
{
	return a < b ? a : b;
}

#endif /* XRT_ENGINE_SHIM_H */
