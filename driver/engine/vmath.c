// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * exp, tanh and logistic on blocks of f32, branch-free so the compiler
 * vectorizes exp and logistic (tanh has vector code of its own, below;
 * the other f32 functions go through the f64 ones of emath.c, one
 * element at a time).  exp is Cody-Waite reduction by
 * ln 2 and a polynomial on [-ln2/2, ln2/2] (below), scaled by 2^n in
 * two steps so subnormal results come out right; tanh is a
 * polynomial in each of 32 slots of [0, 9.25] (below); logistic is
 * 1 / (1 + e^-|x|), or e^-|x| over the same for x < 0: one division
 * either way (e^-|x| times 1 / (1 + e^-|x|) rounds once more and was 3
 * steps off just under 0.25).  No fused multiply-add (the
 * engine builds without contraction), so every executor, vector width
 * and order gives the same bits.  Bounds are measured in
 * test_engine_math.
 */
#include "emath.h"
#include "ew.h"

/*
 * e^c = 2^n e^r: sets @t to c / ln 2 rounded plus 1.5 * 2^23 (so its low
 * bits are n, and n = @t - 1.5 * 2^23) and returns e^r, r = c - n ln 2
 * (ln 2 in two parts).  e^r = 1 + r + r^2 P(r), P of degree 4 a minimax
 * fit (relative error 3.7e-9, a sixteenth of a step), one degree below
 * Cephes' polynomial for the same result: exp and tanh stay within a step
 * of the correctly rounded value over every f32 (measured against expl
 * and tanhl).  c must be finite and under 2^22 in magnitude.
 */
static __always_inline float exp_reduced(float c, float *t)
{
	float n, r, z, p;

	*t = c * 1.44269504f + 12582912.0f;	/* rounds to an integer */
	n = *t - 12582912.0f;
	r = c - n * 0.693359375f - n * -0.000212194440f;
	z = r * r;
	p = 0.0013879663f;
	p = p * r + 0.0083687641f;
	p = p * r + 0.041667230f;
	p = p * r + 0.16666520f;
	p = p * r + 0.49999997f;
	return p * z + r + 1.0f;
}

/* e^x of one element; written so a loop of it vectorizes. */
static __always_inline float exp1(float x)
{
	float c = x == x ? x : 0.0f;	/* NaN must not reach the int conversion */
	float t, p;
	s32 k, k1, k2;

	c = c > 88.7228394f ? 88.7228394f : c < -103.972084f ? -103.972084f : c;
	p = exp_reduced(c, &t);
	k = (s32)(t - 12582912.0f);
	k1 = k / 2;
	k2 = k - k1;
	/* 2^k in two factors, each a normal float, so 2^-149 is reachable */
	p = p * xs_bits_f32((u32)(k1 + 127) << 23) * xs_bits_f32((u32)(k2 + 127) << 23);
	p = x > 88.7228394f ? xs_bits_f32(0x7f800000u) : p;
	return x != x ? x : p;
}

#include "tanh_table.h"

/*
 * tanh in f32.  tanh is odd: c = min(|x|, TANH_TOP), the sign put back
 * at the end (a NaN becomes TANH_TOP, and its result x).  c falls in one
 * of TANH_SLOTS slots of equal width, and in each tanh is a polynomial of
 * degree 6 in t = c - x0, written so its rounding errors stay small
 * beside the result (tools/gen-tanh-table.py makes the table and says
 * how).  At most one step from the correctly rounded value over every
 * f32, and exactly 1 wherever that is 1 (the script's --verify checks
 * every float; test_engine_math a million and the slots' ends).
 *
 * Against the exp and division it replaced (in cache, one thread, the
 * two alternating): 0.33 ns an element 16-wide against 0.54, where the
 * permutes below look coefficients up; 1.10 against 0.78 8-wide and 1.7
 * against 1.6 4-wide, where lanes load their slot's row and transpose.
 *
 * TANH_POLY is the polynomial on floats or vectors of them, from the
 * coefficients of each lane's slot.
 */
#define TANH_POLY(c, x0, c0, c1, q0, q1, q2, q3, q4)				\
	({									\
		__typeof__(c) t_ = (c) - (x0), q_ = (q4) * t_ + (q3);		\
										\
		q_ = q_ * t_ + (q2);						\
		q_ = q_ * t_ + (q1);						\
		q_ = q_ * t_ + (q0);						\
		(c0) + ((c1) * t_ + t_ * (t_ * q_));				\
	})

static __always_inline float tanh1(float x)
{
	float ax = xs_bits_f32(xs_f32_bits(x) & 0x7fffffffu);
	float c = ax < TANH_TOP ? ax : TANH_TOP, r;
	s32 i = (s32)(c * TANH_STEP);

	r = TANH_POLY(c, tanh_x0[i], tanh_c0[i], tanh_c1[i], tanh_q0[i], tanh_q1[i],
		      tanh_q2[i], tanh_q3[i], tanh_q4[i]);
	r = xs_bits_f32(xs_f32_bits(r) | (xs_f32_bits(x) & 0x80000000u));
	return x != x ? x : r;
}

/* e^-|x| never overflows, so tiny results for x << 0 stay subnormal, not 0. */
static __always_inline float logistic1(float x)
{
	float e = exp1(xs_bits_f32(xs_f32_bits(x) | 0x80000000u));
	float r = (x < 0.0f ? e : 1.0f) / (1.0f + e);

	return x != x ? x : r;
}

/*
 * Each function three times: for the baseline vectors, for AVX2 and for
 * AVX-512 where the caller allows them (xrt_engine_use_avx2, _avx512).
 * The arithmetic is the same IEEE operations in the same order each
 * way, so all give the same bits; test_engine_math checks they do.
 */
#define VM_LOOP(name, f)							\
static __always_inline float name##_elem(float x)				\
{										\
	return f(x);								\
}										\
										\
static void name##_base(float *d, const float *a, u32 n)			\
{										\
	u32 i;									\
										\
	for (i = 0; i < n; i++)							\
		d[i] = name##_elem(a[i]);					\
}										\
										\
ENGINE_AVX2								\
static void name##_avx2(float *d, const float *a, u32 n)			\
{										\
	u32 i;									\
										\
	for (i = 0; i < n; i++)							\
		d[i] = name##_elem(a[i]);					\
}										\
										\
ENGINE_AVX512								\
static void name##_avx512(float *d, const float *a, u32 n)			\
{										\
	u32 i;									\
										\
	for (i = 0; i < n; i++)							\
		d[i] = name##_elem(a[i]);					\
}										\
										\
void name(float *d, const float *a, u32 n)					\
{										\
	if (xrt_engine_use_avx512)						\
		name##_avx512(d, a, n);						\
	else if (xrt_engine_use_avx2)						\
		name##_avx2(d, a, n);						\
	else									\
		name##_base(d, a, n);						\
}

VM_LOOP(vm_exp_f32, exp1)
VM_LOOP(vm_logistic_f32, logistic1)

#ifdef __clang__
/* No __builtin_shuffle: clang's builds (the sanitizers') loop over tanh1. */
VM_LOOP(vm_tanh_f32, tanh1)
#else
typedef float v4sf __attribute__((vector_size(4 * sizeof(u32))));
typedef s32 v4si __attribute__((vector_size(4 * sizeof(s32))));
typedef long long v2di __attribute__((vector_size(2 * sizeof(s64))));
typedef float v8sf __attribute__((vector_size(8 * sizeof(u32))));
typedef s32 v8si __attribute__((vector_size(8 * sizeof(s32))));
typedef long long v4di __attribute__((vector_size(4 * sizeof(s64))));
typedef float v16sf __attribute__((vector_size(16 * sizeof(u32))));
typedef s32 v16si __attribute__((vector_size(16 * sizeof(s32))));

/*
 * tanh1's first step on a vector of x's bits @xb: c = min(|x|, TANH_TOP),
 * a NaN to TANH_TOP, as the float vector type V.
 */
#define TANH_CLAMP(V, xb)							\
	({									\
		__typeof__(xb) b_ = (xb), lt_;					\
		__typeof__(V) zero_ = { 0 }, top_ = zero_ + TANH_TOP, ax_;	\
										\
		ax_ = (__typeof__(V))(b_ & 0x7fffffff);				\
		lt_ = ax_ < top_;						\
		(__typeof__(V))(((__typeof__(xb))ax_ & lt_) |			\
				((__typeof__(xb))top_ & ~lt_));			\
	})

/* Its last: x's sign into the result @r, and x itself where it is a NaN. */
#define TANH_END(xb, r)								\
	({									\
		__typeof__(xb) b_ = (xb), nan_;					\
		__typeof__(r) x_ = (__typeof__(r))b_, r_;			\
										\
		nan_ = x_ != x_;						\
		r_ = (__typeof__(r))((__typeof__(xb))(r) | (b_ & (s32)0x80000000u)); \
		(__typeof__(r))((b_ & nan_) | ((__typeof__(xb))r_ & ~nan_));	\
	})

/* Rows @lo and @hi's 4 floats: one register. */
ENGINE_AVX2
static __always_inline v8sf tanh_row_pair(const float *lo, const float *hi)
{
	return __builtin_ia32_vinsertf128_ps256(__builtin_ia32_ps256_ps(__builtin_ia32_loadups(lo)),
						__builtin_ia32_loadups(hi), 1);
}

/* The 4 floats of lanes 0..3 (and 4..7) in @p0..@p3 to 4 vectors in @v. */
ENGINE_AVX2
static __always_inline void tanh_transpose(v8sf p0, v8sf p1, v8sf p2, v8sf p3, v8sf *v)
{
	const v8si lo = { 0, 8, 1, 9, 4, 12, 5, 13 }, hi = { 2, 10, 3, 11, 6, 14, 7, 15 };
	const v8si ab = { 0, 1, 8, 9, 4, 5, 12, 13 }, cd = { 2, 3, 10, 11, 6, 7, 14, 15 };
	v8sf t0 = __builtin_shuffle(p0, p1, lo), t1 = __builtin_shuffle(p0, p1, hi);
	v8sf t2 = __builtin_shuffle(p2, p3, lo), t3 = __builtin_shuffle(p2, p3, hi);

	v[0] = __builtin_shuffle(t0, t2, ab);
	v[1] = __builtin_shuffle(t0, t2, cd);
	v[2] = __builtin_shuffle(t1, t3, ab);
	v[3] = __builtin_shuffle(t1, t3, cd);
}

/* Row @o (a byte offset) of tanh_rows: its 8 coefficients, as v[0..7]. */
static __always_inline const float *tanh_row(u32 o)
{
	BUILD_BUG_ON(sizeof(tanh_rows[0]) != 8 * sizeof(float));
	return (const float *)((const char *)tanh_rows + o);
}

/* 8 lanes' slots @i to their coefficients @v[0..7], as tanh_rows orders them. */
ENGINE_AVX2
static __always_inline void tanh_coeffs8(v8si i, v8sf v[8])
{
	/* byte offsets of the rows, two lanes to a 64-bit element */
	v4di o = (v4di)(i * (s32)sizeof(tanh_rows[0]));
	const float *r0 = tanh_row((u32)o[0]), *r1 = tanh_row((u64)o[0] >> 32);
	const float *r2 = tanh_row((u32)o[1]), *r3 = tanh_row((u64)o[1] >> 32);
	const float *r4 = tanh_row((u32)o[2]), *r5 = tanh_row((u64)o[2] >> 32);
	const float *r6 = tanh_row((u32)o[3]), *r7 = tanh_row((u64)o[3] >> 32);

	tanh_transpose(tanh_row_pair(r0, r4), tanh_row_pair(r1, r5), tanh_row_pair(r2, r6),
		       tanh_row_pair(r3, r7), v);
	tanh_transpose(tanh_row_pair(r0 + 4, r4 + 4), tanh_row_pair(r1 + 4, r5 + 4),
		       tanh_row_pair(r2 + 4, r6 + 4), tanh_row_pair(r3 + 4, r7 + 4), v + 4);
}

/* The 4 floats of rows @p0..@p3 to 4 vectors in @v, a row to a lane. */
static __always_inline void tanh_transpose4(v4sf p0, v4sf p1, v4sf p2, v4sf p3, v4sf *v)
{
	const v4si lo = { 0, 4, 1, 5 }, hi = { 2, 6, 3, 7 };
	const v4si ab = { 0, 1, 4, 5 }, cd = { 2, 3, 6, 7 };
	v4sf t0 = __builtin_shuffle(p0, p1, lo), t1 = __builtin_shuffle(p0, p1, hi);
	v4sf t2 = __builtin_shuffle(p2, p3, lo), t3 = __builtin_shuffle(p2, p3, hi);

	v[0] = __builtin_shuffle(t0, t2, ab);
	v[1] = __builtin_shuffle(t0, t2, cd);
	v[2] = __builtin_shuffle(t1, t3, ab);
	v[3] = __builtin_shuffle(t1, t3, cd);
}

/* 4 lanes' slots @i to their coefficients @v[0..7], as tanh_coeffs8. */
static __always_inline void tanh_coeffs4(v4si i, v4sf v[8])
{
	v2di o = (v2di)(i * (s32)sizeof(tanh_rows[0]));
	const float *r0 = tanh_row((u32)o[0]), *r1 = tanh_row((u64)o[0] >> 32);
	const float *r2 = tanh_row((u32)o[1]), *r3 = tanh_row((u64)o[1] >> 32);

	tanh_transpose4(__builtin_ia32_loadups(r0), __builtin_ia32_loadups(r1),
			__builtin_ia32_loadups(r2), __builtin_ia32_loadups(r3), v);
	tanh_transpose4(__builtin_ia32_loadups(r0 + 4), __builtin_ia32_loadups(r1 + 4),
			__builtin_ia32_loadups(r2 + 4), __builtin_ia32_loadups(r3 + 4), v + 4);
}

/* The entry of each lane's slot @i in a table of 32: two registers. */
ENGINE_AVX512
static __always_inline v16sf tanh_lookup16(const float *table, v16si i)
{
	v16sf lo, hi;

	BUILD_BUG_ON(TANH_SLOTS != 32);
	memcpy(&lo, table, sizeof(lo));
	memcpy(&hi, table + 16, sizeof(hi));
	return __builtin_shuffle(lo, hi, i);
}

/* Each lane's slot @i to its coefficients @v[0..7], looked up in registers. */
ENGINE_AVX512
static __always_inline void tanh_coeffs16(v16si i, v16sf v[8])
{
	v[0] = tanh_lookup16(tanh_x0, i);
	v[1] = tanh_lookup16(tanh_c0, i);
	v[2] = tanh_lookup16(tanh_c1, i);
	v[3] = tanh_lookup16(tanh_q0, i);
	v[4] = tanh_lookup16(tanh_q1, i);
	v[5] = tanh_lookup16(tanh_q2, i);
	v[6] = tanh_lookup16(tanh_q3, i);
	v[7] = tanh_lookup16(tanh_q4, i);
}

/*
 * tanh of a vector of floats from @src to @dst: V the float vector type,
 * VI its lanes' bits, coeffs(i, v) each lane's coefficients of slot i.
 */
#define TANH_VEC(V, VI, coeffs, dst, src)					\
	do {									\
		__typeof__(VI) vb_;						\
		__typeof__(V) vc_, vk_[8], vr_;					\
										\
		memcpy(&vb_, (src), sizeof(vb_));				\
		vc_ = TANH_CLAMP(vc_, vb_);					\
		coeffs(__builtin_convertvector(vc_ * TANH_STEP, __typeof__(vb_)), vk_); \
		vr_ = TANH_POLY(vc_, vk_[0], vk_[1], vk_[2], vk_[3], vk_[4],	\
				vk_[5], vk_[6], vk_[7]);			\
		vr_ = TANH_END(vb_, vr_);					\
		memcpy((dst), &vr_, sizeof(vr_));				\
	} while (0)

/* The baseline's 4 lanes: rows transposed, as AVX2's 8. */
static void vm_tanh_f32_base(float *d, const float *a, u32 n)
{
	u32 k;

	for (k = 0; k + 4 <= n; k += 4)
		TANH_VEC(v4sf, v4si, tanh_coeffs4, d + k, a + k);
	for (; k < n; k++)
		d[k] = tanh1(a[k]);
}

/*
 * AVX2's permutes reach 8 entries, not 32, and a gather costs a load an
 * element: each lane loads its slot's row of 8 coefficients instead
 * (tanh_rows), and 16 shuffles turn the 8 rows into 8 vectors.
 */
ENGINE_AVX2
static void vm_tanh_f32_avx2(float *d, const float *a, u32 n)
{
	u32 k;

	for (k = 0; k + 8 <= n; k += 8)
		TANH_VEC(v8sf, v8si, tanh_coeffs8, d + k, a + k);
	for (; k < n; k++)
		d[k] = tanh1(a[k]);
}

/* AVX-512 permutes two registers' worth: each lane looks its slot up. */
ENGINE_AVX512
static void vm_tanh_f32_avx512(float *d, const float *a, u32 n)
{
	u32 k;

	for (k = 0; k + 16 <= n; k += 16)
		TANH_VEC(v16sf, v16si, tanh_coeffs16, d + k, a + k);
	for (; k < n; k++)
		d[k] = tanh1(a[k]);
}

void vm_tanh_f32(float *d, const float *a, u32 n)
{
	if (xrt_engine_use_avx512)
		vm_tanh_f32_avx512(d, a, n);
	else if (xrt_engine_use_avx2)
		vm_tanh_f32_avx2(d, a, n);
	else
		vm_tanh_f32_base(d, a, n);
}
#endif

int ew_f32_fast(u32 fn, float *d, const float *a, u32 n)
{
	switch (fn) {
	case XRT_CS_UN_EXP:
		vm_exp_f32(d, a, n);
		return 1;
	case XRT_CS_UN_TANH:
		vm_tanh_f32(d, a, n);
		return 1;
	case XRT_CS_UN_LOGISTIC:
		vm_logistic_f32(d, a, n);
		return 1;
	default:
		return 0;
	}
}
