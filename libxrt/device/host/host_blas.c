// SPDX-License-Identifier: MIT
/*
 * DOT through OpenBLAS, where it is faster than the engine's kernel: f32
 * and f64 matrices whose rows or columns are contiguous, accumulating
 * ones (a convolution's kernel positions after the first) with beta 1.
 * OpenBLAS fuses multiplies and adds and sums in its own order, so its
 * results are not the engine's bits: the host device's option (on by
 * default) chooses, and with it off host and kernel agree bit for bit.  The
 * output is cut in tiles chosen from the shape and the machine's core
 * count (tile()), each one single-threaded OpenBLAS call on the pool: its
 * own threads would sum in an order that depends on their number, such
 * tiles do not.  The pool's thread count, which a user sets, never
 * enters: tiles at multiples of 128 rows and columns mostly give one
 * call's bits, but not always (an f64 260x333x777 product with its lhs
 * transposed, in 256x256 tiles, differs), so a different count of tiles
 * may change the result.  The core count is a property of the machine,
 * as OpenBLAS's choice of kernels is; a tile per core costs no packing
 * twice (1024x1024x1024 on two cores: 0.93-0.95 of OpenBLAS in two
 * tiles, 0.78-0.86 in eight).
 */
/* madvise() and MADV_HUGEPAGE are not POSIX; RTLD_DEFAULT is GNU */
#define _GNU_SOURCE

#include <limits.h>

#include "host_device.h"

#ifdef XRT_HAVE_OPENBLAS
#include <dlfcn.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cblas.h>

void openblas_set_num_threads(int n);
int openblas_get_num_threads(void);

/* A matrix's leading dimension and whether it is read transposed. */
static bool layout_of(const struct xrt_cs_matrix *mx, int64_t rows, int64_t cols,
		      enum CBLAS_TRANSPOSE *t, int64_t *ld)
{
	if (mx->col_stride == 1 && (rows == 1 || mx->row_stride >= cols)) {
		*t = CblasNoTrans;
		*ld = rows == 1 ? (cols ? cols : 1) : mx->row_stride;
		return true;
	}
	if (mx->row_stride == 1 && (cols == 1 || mx->col_stride >= rows)) {
		*t = CblasTrans;
		*ld = cols == 1 ? (rows ? rows : 1) : mx->col_stride;
		return true;
	}
	return false;
}

/*
 * OpenBLAS packs into buffers of its own (128 MiB of address space
 * each, one per concurrent call), mapped without huge pages where
 * transparent huge pages are "madvise" (Debian's default).  On 4 KiB
 * pages a 64x256x512 tile ran at a quarter of its speed on the bench
 * machine (9-10 against 35 GFLOP/s, a Zen 1 EPYC: its packed panels
 * spread over scattered pages), the MLP's whole products with it.  So
 * before the first product, as many buffers as threads can hold at
 * once get MADV_HUGEPAGE while none of their pages exists yet.
 * blas_memory_alloc() and blas_memory_free() are OpenBLAS's own
 * (exported, not in cblas.h): looked up, and skipped where absent.
 */
#define BLAS_BUFFER_BYTES	(128ul << 20)
#define BLAS_MAX_HELD		32

/* Online cores when the first product ran: the tiles' target count. */
static uint64_t machine_cores = 1;

static void advise_buffers(long cpus)
{
	void *(*take)(int) = (void *(*)(int))dlsym(RTLD_DEFAULT, "blas_memory_alloc");
	void (*give)(void *) = (void (*)(void *))dlsym(RTLD_DEFAULT, "blas_memory_free");
	long page = sysconf(_SC_PAGESIZE);
	void *held[BLAS_MAX_HELD];
	long n = 0, want = cpus > 0 && cpus < BLAS_MAX_HELD ? cpus + 1 : BLAS_MAX_HELD;

	if (!take || !give || page <= 0)
		return;
	for (; n < want; n++) {
		uintptr_t p;

		held[n] = take(0);
		if (!held[n])
			break;
		p = (uintptr_t)held[n] & ~(uintptr_t)(page - 1);
		/* past a shorter buffer's end this is ENOMEM, advising what is mapped */
		madvise((void *)p, BLAS_BUFFER_BYTES, MADV_HUGEPAGE);
	}
	while (n--)
		give(held[n]);
}

/* Once per process: later products find the cores and buffers as they were. */
static void blas_setup(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	machine_cores = cpus > 1 ? (uint64_t)cpus : 1;
	advise_buffers(cpus);
}

static pthread_once_t set_up = PTHREAD_ONCE_INIT;

static uint8_t *base(const struct xrt_engine_ctx *x, const struct xrt_cs_matrix *mx)
{
	return x->slots[mx->slot] + mx->offset;
}

struct gemm {
	const struct xrt_engine_ctx *x;
	const struct xrt_cs_dot *d;
	enum CBLAS_TRANSPOSE ta, tb;
	int64_t lda, ldb, ldc;
	uint64_t band, width;	/* rows and columns of one call */
	uint64_t bands, cols;
	bool f32;
	bool accumulate;	/* XRT_CS_DOT_ACCUMULATE: C += A B (beta 1) */
};

/*
 * @v in @parts, rounded up to a multiple of 16 (a vector of f32 outputs
 * in OpenBLAS's AVX-512 kernels) but not past @v; at least 1.
 */
static uint64_t part(uint64_t v, uint64_t parts)
{
	uint64_t p = (v + parts - 1) / parts;

	p = (p + 15) & ~(uint64_t)15;
	p = p < v ? p : v;
	return p ? p : 1;
}

/*
 * The tile for an @m x @n x @k product: from the shape and the machine,
 * never the pool's threads.  A tile per core, cut across the longer side
 * of the tile each time (each call packs its share of one operand and all
 * of the other, so the longer side is the one worth sharing), while a
 * tile holds 2M multiply-adds or more: below that a thread's wake and the
 * packing outweigh the work.  Tiles were once at most 1024x1024 and cut
 * until 32K outputs, so 2048 and 4096 products ran in 4 and 16 tiles on
 * two cores (4096^3: 422-424 ms, now 330-332), 1500^3 in uneven ones
 * (19.1-19.4 ms, now 16.9), and 128x128x512 in one (0.096 ms, now 0.057).
 */
static void tile(struct gemm *g, uint64_t m, uint64_t n, uint64_t k)
{
	uint64_t r = 1, c = 1;

	/* up to 64x64x64: one tile, and no divisions to find it */
	if (m <= 64 && n <= 64 && k <= 64) {
		g->band = m;
		g->width = n;
		g->bands = g->cols = 1;
		return;
	}
	while (r * c < machine_cores && k) {
		uint64_t rows = part(m, r), cols = part(n, c);

		/* rows * cols * k under 2M, as a division: m * n * k may pass 2^64 */
		if (rows * cols < (((uint64_t)1 << 21) + k - 1) / k)
			break;
		if (rows >= cols)
			r++;
		else
			c++;
	}
	g->band = part(m, r);
	g->width = part(n, c);
	g->bands = (m + g->band - 1) / g->band;
	g->cols = (n + g->width - 1) / g->width;
}

/* Tiles [first, first + count): batch, then row band, then column band. */
static void gemm_bands(void *ctx, uint64_t first, uint64_t count, void *ws)
{
	const struct gemm *g = ctx;
	const struct xrt_cs_dot *d = g->d;
	int64_t es = g->f32 ? 4 : 8;
	uint64_t t;

	(void)ws;
	for (t = first; t < first + count; t++) {
		uint64_t b = t / (g->bands * g->cols), r0 = t / g->cols % g->bands * g->band;
		uint64_t c0 = t % g->cols * g->width;
		int rows = (int)(d->m - r0 < g->band ? d->m - r0 : g->band);
		int cols = (int)(d->n - c0 < g->width ? d->n - c0 : g->width);
		/* row r0 of A, column c0 of B: along or across as they are laid out */
		int64_t ao = (int64_t)r0 * (g->ta == CblasNoTrans ? g->lda : 1);
		int64_t bo = (int64_t)c0 * (g->tb == CblasNoTrans ? 1 : g->ldb);
		uint8_t *A = base(g->x, &d->lhs) + ((int64_t)b * d->lhs.batch_stride + ao) * es;
		uint8_t *B = base(g->x, &d->rhs) + ((int64_t)b * d->rhs.batch_stride + bo) * es;
		uint8_t *C = base(g->x, &d->out) +
			     ((int64_t)b * d->out.batch_stride + (int64_t)r0 * g->ldc +
			      (int64_t)c0) * es;

		if (g->f32)
			cblas_sgemm(CblasRowMajor, g->ta, g->tb, rows, cols, (int)d->k, 1.0f,
				    (const float *)A, (int)g->lda, (const float *)B, (int)g->ldb,
				    g->accumulate ? 1.0f : 0.0f, (float *)C, (int)g->ldc);
		else
			cblas_dgemm(CblasRowMajor, g->ta, g->tb, rows, cols, (int)d->k, 1.0,
				    (const double *)A, (int)g->lda, (const double *)B, (int)g->ldb,
				    g->accumulate ? 1.0 : 0.0, (double *)C, (int)g->ldc);
	}
}

bool host_blas_dot(struct host_pool *p, const struct xrt_engine_ctx *x, uint32_t pc)
{
	const struct xrt_cs_dot *d = (const void *)(x->prog->base + x->prog->offsets[pc]);
	enum CBLAS_TRANSPOSE tc;
	struct gemm g;

	/* asked of every command: the others leave at once */
	if (d->cmd.op != XRT_CS_OP_DOT || (d->cmd.flags & ~XRT_CS_DOT_ACCUMULATE) || !d->m ||
	    !d->n || !d->k)
		return false;
	/* the engine's own path beat OpenBLAS on these (Documentation/performance.rst) */
	if (xrt_engine_dot_small(d))
		return false;
	g = (struct gemm){ x, d, CblasNoTrans, CblasNoTrans, 0, 0, 0, 0, 0, 0, 0, false };
	g.accumulate = d->cmd.flags & XRT_CS_DOT_ACCUMULATE;
	g.f32 = d->lhs.dtype == XRT_CS_F32;
	if ((!g.f32 && d->lhs.dtype != XRT_CS_F64) || d->rhs.dtype != d->lhs.dtype ||
	    d->out.dtype != d->lhs.dtype)
		return false;
	if (!layout_of(&d->lhs, (int64_t)d->m, (int64_t)d->k, &g.ta, &g.lda) ||
	    !layout_of(&d->rhs, (int64_t)d->k, (int64_t)d->n, &g.tb, &g.ldb) ||
	    !layout_of(&d->out, (int64_t)d->m, (int64_t)d->n, &tc, &g.ldc) || tc != CblasNoTrans)
		return false;
	/* OpenBLAS takes int strides; k is at most XRT_CS_DOT_MAX_K */
	if (g.lda > INT_MAX || g.ldb > INT_MAX || g.ldc > INT_MAX)
		return false;
	/* setting takes OpenBLAS's lock: a third of a tiny product's time */
	if (openblas_get_num_threads() != 1)
		openblas_set_num_threads(1);
	pthread_once(&set_up, blas_setup);
	tile(&g, d->m, d->n, d->k);
	host_pool_for(p, d->batch * g.bands * g.cols, gemm_bands, &g);
	return true;
}
#else
bool host_blas_dot(struct host_pool *p, const struct xrt_engine_ctx *x, uint32_t pc)
{
	(void)p;
	(void)x;
	(void)pc;
	return false;
}
#endif
