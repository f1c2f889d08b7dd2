// SPDX-License-Identifier: MIT
/*
 * cuda:N queues: a CUDA stream each, with the arena and scratch of the
 * programs it runs.  A program's steps are enqueued in order: kernels,
 * cuBLAS calls for DOTs it takes, and for a JUMP a read of the
 * predicate, after which the host picks the next step; for a COLLECTIVE
 * the run's communicator (NCCL) enqueues its exchange and waits for it.
 * A run returns
 * when the stream is idle; a submission records an event instead (a
 * program with jumps has been waited on at its last jump already).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cstream/executable.h"
#include "device/device_program.h"
#include "core/mem.h"
#include "cuda_device.h"

/* A program's jumps may loop forever: the host stops it after this. */
#define LOOP_LIMIT_NS	(120ull * 1000000000ull)
/* Most blocks of a launch: the kernels stride over the rest. */
#define MAX_BLOCKS	(1u << 20)

struct xdev_queue {
	struct cuda_dev *d;
	const struct xrt_allocator *a;
	pthread_mutex_t lock;		/* one program at a time */
	CUstream stream;
	cublasHandle_t blas;		/* made at the first DOT it runs */
	bool no_blas;
	CUdeviceptr arena, scratch;
	uint64_t arena_size, scratch_size;
	uint8_t *pred;			/* pinned: a JUMP's predicate */
};

struct xdev_event {
	struct cuda_dev *d;
	const struct xrt_allocator *a;
	CUevent ev;
};

static xrt_status *fail(struct xdev_queue *q, CUresult r, const char *what)
{
	return cuda_error(q->a, q->d->cu, r, what, (int)q->d->base.info.ordinal);
}

xrt_status *cuda_queue_create(struct xdev *xd, const struct xrt_allocator *a, uint32_t flags,
			      struct xdev_queue **out)
{
	struct cuda_dev *d = to_cuda(xd);
	struct xdev_queue *q;
	xrt_status *st = cudev_enter(d);
	CUresult r;

	if (st)
		return st;
	q = xrt_mem_calloc(a, 1, sizeof(*q));
	if (!q || pthread_mutex_init(&q->lock, NULL)) {
		xrt_mem_free(a, q);
		return xrt_status_oom(a, "a queue");
	}
	q->d = d;
	q->a = a;
	q->no_blas = flags & XDEV_QUEUE_NO_BLAS;
	r = d->cu->cuStreamCreate(&q->stream, CU_STREAM_NON_BLOCKING);
	if (r == CUDA_SUCCESS)
		r = d->cu->cuMemHostAlloc((void **)&q->pred, 64, 0);
	if (r != CUDA_SUCCESS) {
		st = fail(q, r, "creating a queue");
		cuda_queue_destroy(q);
		return st;
	}
	*out = q;
	return NULL;
}

void cuda_queue_destroy(struct xdev_queue *q)
{
	const struct cuda_api *cu;

	if (!q)
		return;
	cu = q->d->cu;
	xrt_status_free(cudev_enter(q->d));
	if (q->stream)
		cu->cuStreamSynchronize(q->stream);
	if (q->blas)
		cu->cublasDestroy_v2(q->blas);
	if (q->arena)
		cu->cuMemFree(q->arena);
	if (q->scratch)
		cu->cuMemFree(q->scratch);
	if (q->pred)
		cu->cuMemFreeHost(q->pred);
	if (q->stream)
		cu->cuStreamDestroy(q->stream);
	pthread_mutex_destroy(&q->lock);
	xrt_mem_free(q->a, q);
}

/* Grows a per-queue buffer; the stream is idle first, as jobs may use the old one. */
static xrt_status *ensure(struct xdev_queue *q, CUdeviceptr *p, uint64_t *have, uint64_t need)
{
	const struct cuda_api *cu = q->d->cu;
	CUresult r;

	if (need <= *have)
		return NULL;
	cu->cuStreamSynchronize(q->stream);
	if (*p)
		cu->cuMemFree(*p);
	*p = 0;
	*have = 0;
	r = cu->cuMemAlloc(p, need);
	if (r != CUDA_SUCCESS)
		return fail(q, r, "cuMemAlloc of a program's workspace");
	*have = need;
	return NULL;
}

/* Every slot's device address. */
static void addresses(struct xdev_queue *q, const struct xrt_executable *exe,
		      const struct xdev_buf *slots, const struct cuda_module *m, CUdeviceptr *out)
{
	uint32_t s;

	for (s = 0; s < exe->num_slots; s++) {
		switch (exe->slots[s].kind) {
		case XEXE_SLOT_ARENA:
			out[s] = q->arena;
			break;
		case XEXE_SLOT_CONSTANTS:
			out[s] = m->consts;
			break;
		default:
			out[s] = slots[s].addr;
			break;
		}
	}
}

static CUresult launch(struct xdev_queue *q, const struct cuda_module *m,
		       const struct cg_kernel *k, const CUdeviceptr *addr, uint64_t seed)
{
	CUdeviceptr vals[CG_MAX_ARGS];
	void *params[CG_MAX_ARGS];
	uint64_t blocks = (k->threads + k->block - 1) / k->block;
	uint32_t i;

	for (i = 0; i < k->num_args; i++) {
		switch (k->arg_kind[i]) {
		case CG_ARG_SLOT:
			vals[i] = addr[k->arg_slot[i]];
			params[i] = &vals[i];
			break;
		case CG_ARG_SCRATCH:
			params[i] = &q->scratch;
			break;
		default:
			params[i] = &seed;
			break;
		}
	}
	return q->d->cu->cuLaunchKernel(m->fn[k->index], (unsigned int)(blocks < MAX_BLOCKS ?
					blocks : MAX_BLOCKS), 1, 1, k->block, 1, 1, 0, q->stream,
					params, NULL);
}

/* cuBLAS's view of a row-major-indexed matrix: its op and leading dimension. */
static bool blas_layout(const struct xrt_cs_matrix *m, uint64_t rows, uint64_t cols,
			cublasOperation_t *op, int64_t *ld)
{
	if (m->col_stride == 1 && (rows == 1 || m->row_stride >= (int64_t)cols)) {
		*op = CUBLAS_OP_N;	/* row-major is column-major transposed */
		*ld = rows == 1 ? (int64_t)(cols ? cols : 1) : m->row_stride;
		return true;
	}
	if (m->row_stride == 1 && (cols == 1 || m->col_stride >= (int64_t)rows)) {
		*op = CUBLAS_OP_T;
		*ld = cols == 1 ? (int64_t)(rows ? rows : 1) : m->col_stride;
		return true;
	}
	return false;
}

static bool blas_type(uint32_t t, cudaDataType *dt)
{
	switch (t) {
	case XRT_CS_F16:
		*dt = CUDA_R_16F;
		return true;
	case XRT_CS_BF16:
		*dt = CUDA_R_16BF;
		return true;
	case XRT_CS_F32:
		*dt = CUDA_R_32F;
		return true;
	case XRT_CS_F64:
		*dt = CUDA_R_64F;
		return true;
	default:
		return false;
	}
}

static bool fits_int(int64_t v)
{
	return v >= 0 && v <= 0x7fffffff;
}

/*
 * DOT through cuBLAS: out (m x n, row-major) is, read column-major, the
 * n x m product rhs^T lhs^T.  False when the layout or types do not fit.
 */
static bool blas_dot(struct xdev_queue *q, const struct xrt_cs_dot *c, const CUdeviceptr *addr,
		     CUresult *res)
{
	const struct cuda_api *cu = q->d->cu;
	cublasOperation_t ol, orr, oo;
	cudaDataType ti, to;
	int64_t ll, lr, lo;
	double one = 1, zero = 0;
	float onef = 1, zerof = 0;
	bool f64 = c->lhs.dtype == XRT_CS_F64, acc = c->cmd.flags & XRT_CS_DOT_ACCUMULATE;
	cublasStatus_t s;

	if (q->no_blas || !cuda_api_blas()->have_blas || !c->m || !c->n || !c->k ||
	    !blas_type(c->lhs.dtype, &ti) || !blas_type(c->out.dtype, &to) ||
	    !blas_layout(&c->lhs, c->m, c->k, &ol, &ll) ||
	    !blas_layout(&c->rhs, c->k, c->n, &orr, &lr) ||
	    !blas_layout(&c->out, c->m, c->n, &oo, &lo) || oo != CUBLAS_OP_N ||
	    !fits_int((int64_t)c->m) || !fits_int((int64_t)c->n) || !fits_int((int64_t)c->k) ||
	    !fits_int(ll) || !fits_int(lr) || !fits_int(lo) || !fits_int((int64_t)c->batch) ||
	    c->lhs.batch_stride < 0 || c->rhs.batch_stride < 0 || c->out.batch_stride < 0)
		return false;
	if (!q->blas) {
		if (cu->cublasCreate_v2(&q->blas) != CUBLAS_STATUS_SUCCESS) {
			q->blas = NULL;
			return false;
		}
	}
	if (cu->cublasSetStream_v2(q->blas, q->stream) != CUBLAS_STATUS_SUCCESS)
		return false;
	{
		const void *rp = (const void *)(uintptr_t)(addr[c->rhs.slot] + c->rhs.offset);
		const void *lp = (const void *)(uintptr_t)(addr[c->lhs.slot] + c->lhs.offset);
		void *op = (void *)(uintptr_t)(addr[c->out.slot] + c->out.offset);
		const void *alpha = f64 ? (const void *)&one : (const void *)&onef;
		const void *beta = acc ? alpha : f64 ? (const void *)&zero : (const void *)&zerof;

		s = cu->cublasGemmStridedBatchedEx(q->blas, orr, ol, (int)c->n, (int)c->m,
						   (int)c->k, alpha, rp, ti, (int)lr,
						   c->rhs.batch_stride, lp, ti, (int)ll,
						   c->lhs.batch_stride, beta, op, to, (int)lo,
						   c->out.batch_stride, (int)c->batch,
						   f64 ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F,
						   CUBLAS_GEMM_DEFAULT);
	}
	*res = s == CUBLAS_STATUS_SUCCESS ? CUDA_SUCCESS : CUDA_ERROR_LAUNCH_FAILED;
	return true;
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* The predicate of a JUMP, read after everything before it. */
static CUresult predicate(struct xdev_queue *q, const struct xrt_cs_jump *j,
			  const CUdeviceptr *addr, bool *out)
{
	const struct cuda_api *cu = q->d->cu;
	CUresult r = CUDA_SUCCESS;

	if (j->mode == XRT_CS_JUMP_ALWAYS) {
		*out = true;
		return r;
	}
	r = cu->cuMemcpyDtoHAsync(q->pred, addr[j->pred.slot] + j->pred.offset, 1, q->stream);
	if (r == CUDA_SUCCESS)
		r = cu->cuStreamSynchronize(q->stream);
	*out = (q->pred[0] != 0) == (j->mode == XRT_CS_JUMP_IF_TRUE);
	return r;
}

/* A FILL of the run's replica or partition id (a u32 or s32 scalar). */
static CUresult fill_id(struct xdev_queue *q, const struct xrt_cs_fill *f,
			const CUdeviceptr *addr, const struct xdev_watch *w)
{
	uint32_t v = 0;

	if (w && w->peer)
		v = f->mode == XRT_CS_FILL_REPLICA_ID ? w->peer->replica : w->peer->partition;
	/* from pageable memory: staged before the call returns */
	return q->d->cu->cuMemcpyHtoDAsync(addr[f->dst.slot] + f->dst.offset, &v, sizeof(v),
					   q->stream);
}

/* The COLLECTIVE at @pc, through the run's communicator, on the queue's stream. */
static xrt_status *collective(struct xdev_queue *q, const struct xrt_executable *exe,
			      const struct xdev_program *loaded, const CUdeviceptr *addr,
			      uint32_t pc, const struct xdev_watch *w)
{
	uint8_t *small[32], **ptrs = small;
	struct xrt_engine_ctx x = { .prog = &loaded->prog };
	xrt_status *st;
	uint32_t s;

	if (exe->num_slots > 32) {
		ptrs = xrt_mem_calloc(q->a, exe->num_slots, sizeof(*ptrs));
		if (!ptrs)
			return xrt_status_oom(q->a, "slots");
	}
	for (s = 0; s < exe->num_slots; s++)	/* device addresses, never dereferenced here */
		ptrs[s] = (uint8_t *)(uintptr_t)addr[s];
	x.slots = ptrs;
	st = xdev_collective_run(exe, &x, pc, w, q->stream);
	if (ptrs != small)
		xrt_mem_free(q->a, ptrs);
	return st;
}

/*
 * The program's steps, kernels launched in order; jumps decided here on
 * the host (reading the predicate waits for what computed it), which is
 * where @hw, when given, is asked whether to stop; collectives through
 * @w's peer.  The queue's lock is held.
 */
static xrt_status *enqueue(struct xdev_queue *q, const struct xrt_executable *exe,
			   const struct xdev_program *loaded, const struct cuda_module *m,
			   const CUdeviceptr *addr, uint64_t seed, struct xdev_watcher *hw,
			   const struct xdev_watch *w)
{
	uint32_t next;
	xrt_status *err;
	const struct cuda_plan *p = &m->plan;
	uint64_t start = now_ns();
	CUresult r = CUDA_SUCCESS;
	uint32_t pc = 0, k;
	char what[64];

	while (pc < p->num_steps) {
		const struct cg_step *st = &p->steps[pc];
		bool taken;

		if (st->kind == CG_STEP_JUMP) {
			r = predicate(q, st->jump, addr, &taken);
			if (r != CUDA_SUCCESS)
				break;
			if (st->jump->target <= pc && now_ns() - start > LOOP_LIMIT_NS)
				return xrt_status_new(q->a, XRT_DEADLINE_EXCEEDED,
						      "cuda:%u: the program looped past %llu s",
						      q->d->base.info.ordinal,
						      LOOP_LIMIT_NS / 1000000000ull);
			next = taken ? st->jump->target : pc + 1;
			err = hw ? xdev_watch_step(hw, pc, next) : NULL;
			if (err)
				return err;
			pc = next;
			continue;
		}
		if (st->kind == CG_STEP_COLLECTIVE) {
			err = collective(q, exe, loaded, addr, pc, w);
			if (err)
				return err;
			pc++;
			continue;
		}
		if (st->kind == CG_STEP_FILL_ID) {
			r = fill_id(q, st->fill, addr, w);
			if (r != CUDA_SUCCESS)
				break;
			pc++;
			continue;
		}
		if (st->dot && blas_dot(q, st->dot, addr, &r)) {
			if (r != CUDA_SUCCESS)
				break;
			pc++;
			continue;
		}
		for (k = 0; k < 2 && r == CUDA_SUCCESS; k++)
			if (st->kernel[k].threads)
				r = launch(q, m, &st->kernel[k], addr, seed);
		if (r != CUDA_SUCCESS)
			break;
		pc++;
	}
	if (r == CUDA_SUCCESS)
		return NULL;
	snprintf(what, sizeof(what), "command %u", pc);
	return fail(q, r, what);
}

/* Everything up to the enqueued program: module, workspace, addresses. */
static xrt_status *start(struct xdev_queue *q, const struct xrt_executable *exe,
			 struct xdev_buf *slots, uint64_t seed, const struct xdev_watch *w)
{
	CUdeviceptr small[32], *addr = small;
	struct cuda_module *m = NULL;
	const struct xdev_program *loaded;
	struct xdev_watcher hw;
	xrt_status *st = cudev_enter(q->d);

	if (!st && exe->num_slots > 32) {
		addr = xrt_mem_calloc(q->a, exe->num_slots, sizeof(*addr));
		if (!addr)
			st = xrt_status_oom(q->a, "slots");
	}
	if (!st)
		st = cudev_module(q->d, exe, &m);
	if (!st)
		st = ensure(q, &q->arena, &q->arena_size, xexe_slot_size(exe, XEXE_SLOT_ARENA));
	if (!st && m->plan.scratch_bytes)
		st = ensure(q, &q->scratch, &q->scratch_size, m->plan.scratch_bytes);
	if (!st)
		st = xdev_program_of(exe, &loaded);
	if (!st)
		st = xdev_watch_init(&hw, exe, &loaded->prog, w, q->a);
	if (!st) {
		addresses(q, exe, slots, m, addr);
		st = enqueue(q, exe, loaded, m, addr, seed, w ? &hw : NULL, w);
		xdev_watch_deinit(&hw);
	}
	if (m)
		cudev_module_unref(q->d, m);
	if (addr != small)
		xrt_mem_free(q->a, addr);
	return st;
}

xrt_status *cuda_run(struct xdev_queue *q, const struct xrt_executable *exe,
		     struct xdev_buf *slots, uint64_t seed, const struct xdev_watch *w)
{
	xrt_status *st;
	CUresult r;

	pthread_mutex_lock(&q->lock);
	st = start(q, exe, slots, seed, w);
	if (!st) {
		r = q->d->cu->cuStreamSynchronize(q->stream);
		if (r != CUDA_SUCCESS)
			st = fail(q, r, "running a program");
	}
	pthread_mutex_unlock(&q->lock);
	return st;
}

xrt_status *cuda_submit(struct xdev_queue *q, const struct xrt_executable *exe,
			struct xdev_buf *slots, uint64_t seed, const struct xdev_watch *w,
			struct xdev_hold *hold, struct xdev_event **out)
{
	struct xdev_event *e;
	xrt_status *st;
	CUresult r;

	*out = NULL;
	e = xrt_mem_calloc(q->a, 1, sizeof(*e));
	if (!e)
		return xrt_status_oom(q->a, "an event");
	e->d = q->d;
	e->a = q->a;
	pthread_mutex_lock(&q->lock);
	st = start(q, exe, slots, seed, w);
	if (!st) {
		r = q->d->cu->cuEventCreate(&e->ev, CU_EVENT_DISABLE_TIMING);
		if (r == CUDA_SUCCESS)
			r = q->d->cu->cuEventRecord(e->ev, q->stream);
		if (r != CUDA_SUCCESS)
			st = fail(q, r, "recording an event");
	}
	pthread_mutex_unlock(&q->lock);
	if (st) {
		cuda_event_free(e);
		return st;
	}
	hold->release(hold);	/* cuMemFree waits for the work in flight */
	*out = e;
	return NULL;
}

xrt_status *cuda_event_wait(struct xdev_event *e, int64_t timeout_ns,
			    const struct xrt_allocator *a, bool *running)
{
	const struct cuda_api *cu = e->d->cu;
	uint64_t until = timeout_ns > 0 ? now_ns() + (uint64_t)timeout_ns : 0;
	xrt_status *st = cudev_enter(e->d);
	CUresult r;

	*running = false;
	if (st)
		return st;
	if (timeout_ns < 0) {
		r = cu->cuEventSynchronize(e->ev);
	} else {
		while ((r = cu->cuEventQuery(e->ev)) == CUDA_ERROR_NOT_READY && now_ns() < until) {
			struct timespec ts = { 0, 20000 };

			nanosleep(&ts, NULL);
		}
	}
	if (r == CUDA_SUCCESS)
		return NULL;
	*running = r == CUDA_ERROR_NOT_READY;
	if (*running)
		return NULL;
	return cuda_error(a, cu, r, "a job", (int)e->d->base.info.ordinal);
}

void cuda_event_free(struct xdev_event *e)
{
	if (!e)
		return;
	if (e->ev) {
		xrt_status_free(cudev_enter(e->d));
		e->d->cu->cuEventDestroy(e->ev);
	}
	xrt_mem_free(e->a, e);
}
