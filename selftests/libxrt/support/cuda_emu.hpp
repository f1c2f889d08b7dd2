// SPDX-License-Identifier: MIT
/*
 * A CPU stand-in for the CUDA device runtime, so the tests can run the
 * kernels the CUDA driver generates on machines without a GPU: the
 * generated source is compiled by the host C++ compiler after this
 * header, with XRT_CUDA_EMU defined.  Every CUDA thread of a block is a
 * coroutine (ucontext); __syncthreads() and __shfl_xor_sync() are
 * barriers of the block and of the warp, so the kernels' cooperation
 * (REDUCE's lane tree, SCATTER's window order) runs as written.  Float
 * arithmetic is the host's IEEE single and double (SSE, no contraction),
 * halves are _Float16; transcendentals come from libm, not libdevice.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#define __device__
#define __global__
#define __forceinline__ inline
#define __launch_bounds__(n)

struct emu_dim3 {
	unsigned int x, y, z;
};

static emu_dim3 threadIdx, blockIdx, blockDim, gridDim;

template <class T> static inline T min(T a, T b)
{
	return a < b ? a : b;
}

static inline float __uint_as_float(unsigned int u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static inline float __int_as_float(int u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static inline unsigned int __float_as_uint(float f)
{
	unsigned int u;

	memcpy(&u, &f, 4);
	return u;
}

static inline long long __double_as_longlong(double d)
{
	long long v;

	memcpy(&v, &d, 8);
	return v;
}

static inline double __longlong_as_double(long long v)
{
	double d;

	memcpy(&d, &v, 8);
	return d;
}

static inline int __popcll(unsigned long long v)
{
	return __builtin_popcountll(v);
}

static inline int __clzll(unsigned long long v)
{
	return v ? __builtin_clzll(v) : 64;
}

static inline float __double2float_rz(double d)
{
	float f = (float)d;

	if (!isnan(d) && fabs((double)f) > fabs(d))
		f = nextafterf(f, 0.0f);
	return f;
}

static inline float __ull2float_rn(unsigned long long v)
{
	return (float)v;
}

static inline double __ull2double_rn(unsigned long long v)
{
	return (double)v;
}

static inline float h2f(unsigned short h)
{
	_Float16 x;

	memcpy(&x, &h, 2);
	return (float)x;
}

static inline unsigned short f2h(float f)
{
	_Float16 x = (_Float16)f;
	unsigned short h;

	memcpy(&h, &x, 2);
	return h;
}

static inline unsigned short d2h(double d)
{
	_Float16 x = (_Float16)d;
	unsigned short h;

	memcpy(&h, &x, 2);
	return h;
}

/* ---- the block scheduler ---- */

enum { EMU_RUN, EMU_WAIT_WARP, EMU_WAIT_BLOCK, EMU_DONE };

struct emu_thread {
	ucontext_t ctx;
	int state;
};

#define EMU_STACK	(64 << 10)

static emu_thread *emu_th;
static char *emu_stacks;
static unsigned int emu_cur, emu_n;
static ucontext_t emu_sched;
static void (*emu_fn)(void **);
static void **emu_args;
static unsigned long long emu_slot[1024][2];

static void emu_wait(int kind)
{
	emu_th[emu_cur].state = kind;
	swapcontext(&emu_th[emu_cur].ctx, &emu_sched);
}

static inline void __syncthreads(void)
{
	emu_wait(EMU_WAIT_BLOCK);
}

template <class T> static inline T __shfl_xor_sync(unsigned int mask, T v, int lane)
{
	unsigned int me = threadIdx.x;
	T r;

	(void)mask;
	memcpy(emu_slot[me], &v, sizeof(v));
	emu_wait(EMU_WAIT_WARP);
	memcpy(&r, emu_slot[me ^ (unsigned int)lane], sizeof(r));
	emu_wait(EMU_WAIT_WARP);
	return r;
}

static void emu_entry(void)
{
	emu_fn(emu_args);
	emu_th[emu_cur].state = EMU_DONE;
}

/* Releases the threads of every complete barrier; false if none could be. */
static bool emu_release(void)
{
	bool any = false;
	unsigned int w, t;

	for (w = 0; w < emu_n; w += 32) {
		unsigned int end = w + 32 < emu_n ? w + 32 : emu_n, waiting = 0, live = 0;

		for (t = w; t < end; t++) {
			live += emu_th[t].state != EMU_DONE;
			waiting += emu_th[t].state == EMU_WAIT_WARP;
		}
		if (waiting && waiting == live) {
			for (t = w; t < end; t++)
				if (emu_th[t].state == EMU_WAIT_WARP)
					emu_th[t].state = EMU_RUN;
			any = true;
		}
	}
	{
		unsigned int waiting = 0, live = 0;

		for (t = 0; t < emu_n; t++) {
			live += emu_th[t].state != EMU_DONE;
			waiting += emu_th[t].state == EMU_WAIT_BLOCK;
		}
		if (waiting && waiting == live) {
			for (t = 0; t < emu_n; t++)
				if (emu_th[t].state == EMU_WAIT_BLOCK)
					emu_th[t].state = EMU_RUN;
			any = true;
		}
	}
	return any;
}

/* One block of @threads threads of @fn(@args); 0, or -1 on a deadlock. */
static int emu_block(unsigned int threads)
{
	unsigned int t;
	bool ran;

	emu_n = threads;
	for (t = 0; t < threads; t++) {
		getcontext(&emu_th[t].ctx);
		emu_th[t].ctx.uc_stack.ss_sp = emu_stacks + (size_t)t * EMU_STACK;
		emu_th[t].ctx.uc_stack.ss_size = EMU_STACK;
		emu_th[t].ctx.uc_link = &emu_sched;
		makecontext(&emu_th[t].ctx, emu_entry, 0);
		emu_th[t].state = EMU_RUN;
	}
	for (;;) {
		ran = false;
		for (t = 0; t < threads; t++) {
			if (emu_th[t].state != EMU_RUN)
				continue;
			emu_cur = t;
			threadIdx.x = t;
			swapcontext(&emu_sched, &emu_th[t].ctx);
			ran = true;
		}
		if (!ran && !emu_release()) {
			for (t = 0; t < threads; t++)
				if (emu_th[t].state != EMU_DONE)
					return -1;
			return 0;
		}
	}
}

/* A launch: @blocks blocks of @block threads, one after the other. */
extern "C" int emu_launch(void (*fn)(void **), void **args, unsigned int blocks,
			  unsigned int block)
{
	unsigned int b;
	int rc = 0;

	emu_th = (emu_thread *)calloc(block, sizeof(*emu_th));
	emu_stacks = (char *)malloc((size_t)block * EMU_STACK);
	if (!emu_th || !emu_stacks)
		rc = -1;
	emu_fn = fn;
	emu_args = args;
	blockDim.x = block;
	gridDim.x = blocks;
	blockDim.y = blockDim.z = gridDim.y = gridDim.z = 1;
	for (b = 0; !rc && b < blocks; b++) {
		blockIdx.x = b;
		rc = emu_block(block);
	}
	free(emu_th);
	free(emu_stacks);
	return rc;
}
